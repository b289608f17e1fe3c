// read_mca.js - an independent reader of chunkfill's region files, for tests/test_pregen.c.
// It reads r.X.Z.mca through PrismarineJS's prismarine-provider-anvil (region file + zlib),
// prismarine-nbt (NBT) and prismarine-chunk (the 1.18+ chunk column: paletted sections),
// with minecraft-data's 1.21.11 registry for block and biome names. None of chunkfill's
// code is involved. Usage:
//   node read_mca.js DIR OUT x,z [x,z ...]
// writes OUT.bin: per chunk, height*256 block name indices [y][z][x] (y from min_y), then
// height/4*16 biome name indices [qy][qz][qx], then 2*256 little-endian u16 heightmap values
// (WORLD_SURFACE_WG, OCEAN_FLOOR_WG, index z*16+x); and OUT.json: the name tables and,
// per chunk, Status, DataVersion, xPos, yPos, zPos as stored; "defaults" says per block name
// whether it is its block's default state. min_y is yPos*16 and height
// 16 per stored section (the overworld: -64, 384; the nether: 0, 128; the end: 0, 256).
const fs = require('fs')
const { Anvil } = require('prismarine-provider-anvil')
const nbt = require('prismarine-nbt')
const Vec3 = require('vec3')
const mcData = require('minecraft-data')('1.21.11')
const A = Anvil('1.21.11')
const Block = require('prismarine-block')(mcData)
const nameOf = new Map() // block state id -> index into blockNames

// the heightmap long arrays, decoded by the rule of ANVIL.md (64/bits entries per long,
// none spanning two longs): written here from the format description, not from chunkfill
function unpack (longs, bits, n) {
  const per = Math.floor(64 / bits)
  const out = []
  for (let i = 0; i < n; i++) {
    const l = longs[Math.floor(i / per)] // [high, low] int32 pair from prismarine-nbt
    const v = (BigInt.asUintN(32, BigInt(l[0])) << 32n) | BigInt.asUintN(32, BigInt(l[1]))
    out.push(Number((v >> BigInt((i % per) * bits)) & ((1n << BigInt(bits)) - 1n)))
  }
  return out
}

;(async () => {
  const [dir, out, ...coords] = process.argv.slice(2)
  const anvil = new A(dir)
  const blockNames = []; const biomeNames = []; const meta = []; const parts = []
  const isDefault = [] // per block name: the block's default state (minecraft-data's defaultState)
  const idx = (table, name) => { let i = table.indexOf(name); if (i < 0) { i = table.length; table.push(name) } return i }
  for (const c of coords) {
    const [x, z] = c.split(',').map(Number)
    const raw = await anvil.loadRaw(x, z)
    if (!raw) throw new Error(`chunk ${x},${z} is not in the region file`)
    const s = nbt.simplify(raw)
    meta.push({ x, z, Status: s.Status, DataVersion: s.DataVersion, xPos: s.xPos, yPos: s.yPos, zPos: s.zPos })
    const col = await anvil.load(x, z)
    const minY = s.yPos * 16; const height = s.sections.length * 16
    const blocks = Buffer.alloc(height * 256)
    for (let y = 0; y < height; y++) {
      for (let bz = 0; bz < 16; bz++) {
        for (let bx = 0; bx < 16; bx++) {
          const id = col.getBlockStateId(new Vec3(bx, y + minY, bz))
          let k = nameOf.get(id)
          if (k === undefined) { // a state seen first: its name through prismarine-block
            const b = Block.fromStateId(id, 0)
            let name = 'minecraft:' + b.name
            const p = b.getProperties()
            if (Object.keys(p).length) name += '[' + Object.entries(p).map(([k, v]) => k + '=' + v).join(',') + ']'
            k = idx(blockNames, name)
            isDefault[k] = id === mcData.blocksByName[b.name].defaultState
            nameOf.set(id, k)
          }
          blocks[(y * 16 + bz) * 16 + bx] = k
        }
      }
    }
    const biomes = Buffer.alloc(height / 4 * 16)
    for (let qy = 0; qy < height / 4; qy++) {
      for (let qz = 0; qz < 4; qz++) {
        for (let qx = 0; qx < 4; qx++) {
          const id = col.getBiome(new Vec3(qx * 4, qy * 4 + minY, qz * 4))
          biomes[(qy * 4 + qz) * 4 + qx] = idx(biomeNames, 'minecraft:' + mcData.biomes[id].name)
        }
      }
    }
    const hm = Buffer.alloc(2 * 256 * 2)
    const hv = raw.value.Heightmaps.value
    const bits = Math.ceil(Math.log2(height + 1)) // 9 for 384, 8 for 128, 9 for 256
    const hs = ['WORLD_SURFACE_WG', 'OCEAN_FLOOR_WG'].map(k => unpack(hv[k].value, bits, 256))
    hs.forEach((h, k) => h.forEach((v, i) => hm.writeUInt16LE(v, (k * 256 + i) * 2)))
    parts.push(blocks, biomes, hm)
  }
  await anvil.close()
  fs.writeFileSync(out + '.bin', Buffer.concat(parts))
  fs.writeFileSync(out + '.json', JSON.stringify({ blocks: blockNames, defaults: isDefault, biomes: biomeNames, chunks: meta }))
})().catch(e => { console.error('read_mca.js: ' + (e && e.stack ? e.stack : e)); process.exit(1) })
