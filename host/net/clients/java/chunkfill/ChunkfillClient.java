/* ChunkfillClient.java - a client of chunkfill's offload server (host/net/PROTOCOL.md),
 * plain Java 17, no dependencies: connect, request chunks, receive one float[] (or
 * double[]) per chunk, index (y*16 + z)*16 + x, y from the configuration's min_y up.
 * One blocking connection, one request at a time; not thread-safe (use one client
 * per thread, or a pool). */
package chunkfill;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public final class ChunkfillClient implements AutoCloseable {
    public static final int VERSION = 2; /* 2: the FILL stage byte, HELLO_OK flag bit 2 */
    public static final int STAGE_NOISE = 0, STAGE_SURFACE = 1;
    public static final int MAGIC = 0x4C494643;
    public static final int KIND_DENSITY_F32 = 1, KIND_DENSITY_F64 = 2, KIND_BLOCKS_U8 = 3, KIND_BIOMES_U8 = 4, KIND_COLUMNS = 5;
    private static final int HELLO = 0x01, FILL = 0x02, CANCEL = 0x03, PING = 0x04, STATS = 0x05;
    private static final int HELLO_OK = 0x81, CHUNK = 0x82, DONE = 0x83, ERROR = 0x84, PONG = 0x85, STATS_OK = 0x86;
    private static final int SERVER_FRAME_MAX = 64 << 20;

    /** A configuration the server offers (one per noise settings id). blocks: it also fills
     *  block ids (KIND_BLOCKS_U8), whose values index palette (block ids, e.g. "minecraft:stone");
     *  surface: also the blocks after the surface stage (fillBlocks with STAGE_SURFACE). */
    public record Config(String name, int precision, int kind, int minY, int height, boolean blocks, List<String> palette,
                         List<String> biomePalette, boolean surface) {
        /** KIND_BIOMES_U8 offered (a server started with --biomes): biomePalette() names its values */
        public boolean biomes() { return !biomePalette.isEmpty(); }
    }

    /** What a STATS message reports. */
    public record Stats(long queueChunks, long queueRequests, long connections, long requests, long chunks,
                        long launches, long errors, double uptimeSeconds, double chunksPerSecond, String device) {}

    /** An ERROR frame: code (PROTOCOL.md "Errors"), request id (0: the connection is closed). */
    public static final class ServerException extends IOException {
        private static final long serialVersionUID = 1L;
        public final int code;
        public final int requestId;
        ServerException(int code, int requestId, String message) {
            super("server: error " + code + (requestId == 0 ? " (connection closed)" : "") + ": " + message);
            this.code = code;
            this.requestId = requestId;
        }
    }

    private final SocketChannel ch;
    private final List<Config> configs = new ArrayList<>();
    private int maxFrame, maxChunks, maxPending;
    private int nextId = 1;
    private int deadlineMs = 0;
    private final ByteBuffer header = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

    private ChunkfillClient(SocketChannel ch) { this.ch = ch; }

    /** Connects to "HOST:PORT", "[V6]:PORT" or "unix:PATH" and shakes hands; token may be null. */
    public static ChunkfillClient connect(String address, String token) throws IOException {
        SocketChannel ch;
        if (address.startsWith("unix:")) {
            ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.connect(UnixDomainSocketAddress.of(address.substring(5)));
        } else {
            int colon = address.lastIndexOf(':');
            if (colon <= 0) throw new IllegalArgumentException("address " + address + ": expected HOST:PORT or unix:PATH");
            String host = address.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
            ch = SocketChannel.open(new InetSocketAddress(host, Integer.parseInt(address.substring(colon + 1))));
            ch.socket().setTcpNoDelay(true);
        }
        ChunkfillClient c = new ChunkfillClient(ch);
        try {
            c.hello(token);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return c;
    }

    private void hello(String token) throws IOException {
        byte[] t = token == null ? new byte[0] : token.getBytes(StandardCharsets.UTF_8);
        if (t.length > 256) throw new IllegalArgumentException("token longer than 256 bytes");
        ByteBuffer b = frame(HELLO, 8 + t.length);
        b.putInt(MAGIC).putShort((short) VERSION).putShort((short) t.length).put(t);
        send(b);
        ByteBuffer r = receive();
        int type = lastType;
        if (type == ERROR) throw error(r);
        if (type != HELLO_OK) throw new IOException("server: expected hello_ok, got frame type " + type);
        if (r.getInt() != MAGIC || (r.getShort() & 0xffff) != VERSION) throw new IOException("server: bad hello_ok");
        int n = r.getShort() & 0xffff;
        maxFrame = r.getInt();
        maxChunks = r.getInt();
        maxPending = r.getInt();
        for (int i = 0; i < n; i++) {
            byte[] name = new byte[r.get() & 0xff];
            r.get(name);
            int precision = r.get() & 0xff, kind = r.get() & 0xff, flags = r.get() & 0xff, npal = r.get() & 0xff;
            int minY = r.getInt(), height = r.getInt();
            if (flags > 7 || ((flags & 1) == 1 && npal == 0) || ((flags & 4) != 0 && (flags & 1) == 0))
                throw new IOException("server: malformed hello_ok");
            List<String> palette = new ArrayList<>();
            for (int k = 0; k < npal; k++) {
                byte[] id = new byte[r.get() & 0xff];
                r.get(id);
                palette.add(new String(id, StandardCharsets.UTF_8));
            }
            List<String> biomes = new ArrayList<>();
            if ((flags & 2) != 0) { /* bit 1: BIOMES_U8, its palette (u16 count, ids) */
                int nb = r.getShort() & 0xffff;
                if (nb == 0 || nb > 256) throw new IOException("server: malformed hello_ok");
                for (int k = 0; k < nb; k++) {
                    byte[] id = new byte[r.get() & 0xff];
                    r.get(id);
                    biomes.add(new String(id, StandardCharsets.UTF_8));
                }
            }
            configs.add(new Config(new String(name, StandardCharsets.UTF_8), precision, kind, minY, height, (flags & 1) == 1,
                                   Collections.unmodifiableList(palette), Collections.unmodifiableList(biomes), (flags & 4) != 0));
        }
        if (r.hasRemaining() || maxChunks <= 0) throw new IOException("server: malformed hello_ok");
    }

    public List<Config> configs() { return Collections.unmodifiableList(configs); }
    public int maxChunks() { return maxChunks; }
    public int maxPending() { return maxPending; }
    /** Per-request deadline in ms for later requests (0: the server's default). */
    public void setDeadline(int ms) { deadlineMs = ms; }

    public Config config(String name) {
        for (Config c : configs) if (c.name().equals(name)) return c;
        throw new IllegalArgumentException("server has no configuration '" + name + "'");
    }

    /** Fills chunks xz = {x0, z0, x1, z1, ...} of a float32 configuration: one float[] per chunk. */
    public float[][] fillFloat(String config, long seed, int[] xz) throws IOException {
        Config k = config(config);
        if (k.kind() != KIND_DENSITY_F32) throw new IllegalArgumentException(config + " is not a float32 configuration");
        float[][] out = new float[xz.length / 2][];
        fill(k, seed, xz, (i, v) -> {
            float[] a = new float[k.height() * 256];
            v.asFloatBuffer().get(a);
            out[i] = a;
        });
        return out;
    }

    /** Fills chunks of a float64 configuration: one double[] per chunk. */
    public double[][] fillDouble(String config, long seed, int[] xz) throws IOException {
        Config k = config(config);
        if (k.kind() != KIND_DENSITY_F64) throw new IllegalArgumentException(config + " is not a float64 configuration");
        double[][] out = new double[xz.length / 2][];
        fill(k, seed, xz, (i, v) -> {
            double[] a = new double[k.height() * 256];
            v.asDoubleBuffer().get(a);
            out[i] = a;
        });
        return out;
    }

    /** Fills the blocks of the noise stage (final density + the aquifer): one byte[] per chunk of
     *  indices into config(name).palette(), index (y*16 + z)*16 + x. */
    public byte[][] fillBlocks(String config, long seed, int[] xz) throws IOException {
        return fillBlocks(config, seed, xz, STAGE_NOISE);
    }

    /** The same at a stage: STAGE_NOISE, or STAGE_SURFACE where config(name).surface() (the
     *  surface rules applied, as `chunkfill fill --blocks --stage surface`). */
    public byte[][] fillBlocks(String config, long seed, int[] xz, int stage) throws IOException {
        Config k = config(config);
        if (!k.blocks()) throw new IllegalArgumentException(config + " offers no block fills");
        if (stage != STAGE_NOISE && (stage != STAGE_SURFACE || !k.surface()))
            throw new IllegalArgumentException(config + " offers no stage " + stage);
        byte[][] out = new byte[xz.length / 2][];
        fill(k, KIND_BLOCKS_U8, stage, seed, xz, (i, v) -> {
            byte[] a = new byte[k.height() * 256];
            v.get(a);
            out[i] = a;
        });
        return out;
    }

    /** Fills the stored biomes of chunks (a server started with --biomes): one byte[] per chunk of
     *  indices into config(name).biomePalette(), height/4 * 16 per chunk, index (qy*4 + qz)*4 + qx. */
    public byte[][] fillBiomes(String config, long seed, int[] xz) throws IOException {
        Config k = config(config);
        if (!k.biomes()) throw new IllegalArgumentException(config + " offers no biomes (start the server with --biomes)");
        byte[][] out = new byte[xz.length / 2][];
        fill(k, KIND_BIOMES_U8, STAGE_NOISE, seed, xz, (i, v) -> {
            byte[] a = new byte[k.height() / 4 * 16];
            v.get(a);
            out[i] = a;
        });
        return out;
    }

    /** One column of the map (PROTOCOL.md, kind COLUMNS): the surface block's y, the top of the fluid
     *  directly above it (minY - 1 where none), the block at height and that fluid (palette() indices;
     *  1, air, where no fluid) and the biome there (biomePalette() index). */
    public record Column(int height, int fluidTop, int block, int fluid, int biome) {}

    /** Columns for far-terrain (LOD) renderers (a server started with --biomes): per cell (X, Z) of xz
     *  the 16 x 16 columns (X*16*stride + i*stride, Z*16*stride + k*stride), out[cell][k*16 + i]. */
    public Column[][] fillColumns(String config, long seed, int stride, int[] xz) throws IOException {
        Config k = config(config);
        if (!k.blocks() || !k.biomes()) throw new IllegalArgumentException(config + " offers no columns (start the server with --biomes)");
        if (stride < 1 || stride > 4096) throw new IllegalArgumentException("stride " + stride + " (1 to 4096)");
        Column[][] out = new Column[xz.length / 2][];
        fill(k, KIND_COLUMNS, stride, seed, xz, (i, v) -> {
            Column[] a = new Column[256];
            for (int j = 0; j < 256; j++) {
                int h = v.getInt(), ft = v.getInt(), bl = v.get() & 0xff, fl = v.get() & 0xff, bi = v.get() & 0xff;
                v.get();
                a[j] = new Column(h, ft, bl, fl, bi);
            }
            out[i] = a;
        });
        return out;
    }

    private interface Sink { void chunk(int index, ByteBuffer values); }

    private void fill(Config k, long seed, int[] xz, Sink sink) throws IOException { fill(k, k.kind(), 0, seed, xz, sink); }

    /** param: the u16 at offset 6 of FILL - COLUMNS its stride, BLOCKS_U8 its stage (STAGE_*), else 0 */
    private void fill(Config k, int kindWanted, int param, long seed, int[] xz, Sink sink) throws IOException {
        int stage = kindWanted == KIND_COLUMNS ? 0 : param;
        if (xz.length % 2 != 0) throw new IllegalArgumentException("xz holds pairs");
        int n = xz.length / 2, size = kindWanted == KIND_BLOCKS_U8 || kindWanted == KIND_BIOMES_U8 ? 1
                                     : kindWanted == KIND_COLUMNS ? 12 : kindWanted == KIND_DENSITY_F64 ? 8 : 4;
        int per = kindWanted == KIND_BIOMES_U8 ? k.height() / 4 * 16 : kindWanted == KIND_COLUMNS ? 256 : k.height() * 256;
        byte[] name = k.name().getBytes(StandardCharsets.UTF_8);
        for (int done = 0; done < n; ) {
            int m = Math.min(n - done, maxChunks);
            int id = nextId++;
            if (nextId == 0) nextId = 1;
            ByteBuffer b = frame(FILL, 24 + name.length + 8 * m);
            b.putInt(id).put((byte) kindWanted).put((byte) name.length).putShort((short) param).putLong(seed)
             .putInt(deadlineMs).putInt(m).put(name);
            for (int i = 0; i < 2 * m; i++) b.putInt(xz[2 * done + i]);
            send(b);
            for (int got = 0; ; ) {
                ByteBuffer r = receive();
                if (lastType == ERROR) throw error(r);
                if (lastType == DONE) {
                    if (r.getInt() != id || r.getInt() != m || got != m) throw new IOException("server: unexpected done");
                    break;
                }
                if (lastType != CHUNK) throw new IOException("server: unexpected frame type " + lastType);
                int rid = r.getInt(), index = r.getInt(), x = r.getInt(), z = r.getInt(), kind = r.get(), st = r.get();
                r.getShort();
                int count = r.getInt();
                if (rid != id || index != got || x != xz[2 * (done + index)] || z != xz[2 * (done + index) + 1]
                    || kind != kindWanted || st != stage || count != per || r.remaining() != count * size)
                    throw new IOException("server: chunk frame does not match the request (index " + index + ")");
                sink.chunk(done + index, r.slice().order(ByteOrder.LITTLE_ENDIAN));
                got++;
            }
            done += m;
        }
    }

    /** Round trip of a PING in milliseconds. */
    public double ping() throws IOException {
        long t0 = System.nanoTime();
        ByteBuffer b = frame(PING, 8);
        b.putLong(t0);
        send(b);
        ByteBuffer r = receive();
        if (lastType == ERROR) throw error(r);
        if (lastType != PONG || r.getLong() != t0) throw new IOException("server: bad pong");
        return (System.nanoTime() - t0) / 1e6;
    }

    public Stats stats() throws IOException {
        send(frame(STATS, 0));
        ByteBuffer r = receive();
        if (lastType == ERROR) throw error(r);
        if (lastType != STATS_OK) throw new IOException("server: expected stats_ok");
        long qc = r.getInt() & 0xffffffffL, qr = r.getInt() & 0xffffffffL, conns = r.getInt() & 0xffffffffL;
        r.getInt();
        long req = r.getLong(), chunks = r.getLong(), launches = r.getLong(), errors = r.getLong();
        double up = r.getDouble(), rate = r.getDouble();
        byte[] dev = new byte[r.getShort() & 0xffff];
        r.get(dev);
        return new Stats(qc, qr, conns, req, chunks, launches, errors, up, rate, new String(dev, StandardCharsets.UTF_8));
    }

    /** Asks the server to stop request id (used by callers that pipeline on their own). */
    public void cancel(int requestId) throws IOException {
        ByteBuffer b = frame(CANCEL, 4);
        b.putInt(requestId);
        send(b);
    }

    @Override
    public void close() throws IOException { ch.close(); }

    private static ByteBuffer frame(int type, int len) {
        ByteBuffer b = ByteBuffer.allocate(8 + len).order(ByteOrder.LITTLE_ENDIAN);
        return b.putInt(len).putShort((short) type).putShort((short) 0);
    }

    private void send(ByteBuffer b) throws IOException {
        b.flip();
        while (b.hasRemaining()) ch.write(b);
    }

    private int lastType;

    private ByteBuffer receive() throws IOException {
        header.clear();
        readFully(header);
        header.flip();
        long len = header.getInt() & 0xffffffffL;
        lastType = header.getShort() & 0xffff;
        if (header.getShort() != 0 || len > SERVER_FRAME_MAX) throw new IOException("server: bad frame header");
        ByteBuffer p = ByteBuffer.allocate((int) len).order(ByteOrder.LITTLE_ENDIAN);
        readFully(p);
        p.flip();
        return p;
    }

    private void readFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining())
            if (ch.read(b) < 0) throw new IOException("server: connection closed");
    }

    private static ServerException error(ByteBuffer r) {
        int id = r.getInt(), code = r.getShort() & 0xffff;
        byte[] m = new byte[Math.min(r.getShort() & 0xffff, r.remaining())];
        r.get(m);
        return new ServerException(code, id, new String(m, StandardCharsets.UTF_8));
    }
}
