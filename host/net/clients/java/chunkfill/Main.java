/* Main.java - example program for ChunkfillClient: fills a range of chunks through a
 * running `chunkfill serve` and writes the same .npy file as `chunkfill fill`
 * (float32, shape (n, height, 16, 16), chunks z outer, x inner), or prints a summary.
 * With --blocks first: the blocks, as `chunkfill fill --blocks` writes them (uint8 palette
 * indices, and OUT.palette.json beside the file): after the surface stage where the server offers
 * it, else (or with --stage noise after --blocks) of the noise stage. With --biomes first (a
 * server started with --biomes): each chunk's stored biomes, printed as counts per biome id.
 * With --columns STRIDE first (--biomes servers): per cell of the range its 16 x 16 columns at
 * that stride, a line each: X Z HEIGHT FLUID_TOP BLOCK FLUID BIOME (ids).
 *
 *   javac -d classes host/net/clients/java/chunkfill/*.java
 *   java -cp classes chunkfill.Main [--blocks [--stage noise|surface] | --biomes | --columns STRIDE] ADDR CONFIG SEED X0,Z0:X1,Z1 [OUT.npy] [TOKEN_FILE]
 */
package chunkfill;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

public final class Main {
    /** Runs the example; a failure is one line on stderr (exit 1; 2 for usage), never a stack trace. */
    public static void main(String[] args) {
        try {
            run(args);
        } catch (NumberFormatException e) {
            System.err.println("chunkfill: not a number: " + e.getMessage() + " (usage: see Main.java)");
            System.exit(2);
        } catch (IOException | RuntimeException e) {
            String what = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            if (e instanceof java.nio.file.NoSuchFileException) what += ": no such file";
            System.err.println("chunkfill: " + what);
            System.exit(1);
        }
    }

    static void run(String[] args) throws IOException {
        boolean blocks = args.length > 0 && args[0].equals("--blocks");
        boolean biomes = args.length > 0 && args[0].equals("--biomes");
        int stride = 0;
        if (args.length > 1 && args[0].equals("--columns")) {
            stride = Integer.parseInt(args[1]);
            args = java.util.Arrays.copyOfRange(args, 2, args.length);
        }
        if (blocks || biomes) args = java.util.Arrays.copyOfRange(args, 1, args.length);
        String stage = null;
        if (blocks && args.length > 1 && args[0].equals("--stage")) {
            stage = args[1];
            args = java.util.Arrays.copyOfRange(args, 2, args.length);
        }
        if (args.length < 4 || args.length > 6 || (stage != null && !stage.equals("noise") && !stage.equals("surface"))) {
            System.err.println("usage: java chunkfill.Main [--blocks [--stage noise|surface] | --biomes | --columns STRIDE] ADDR CONFIG SEED X0,Z0:X1,Z1 [OUT.npy] [TOKEN_FILE]");
            System.exit(2);
        }
        String[] r = args[3].split("[,:]");
        if (r.length != 4) {
            System.err.println("range: expected X0,Z0:X1,Z1");
            System.exit(2);
        }
        int x0 = Integer.parseInt(r[0]), z0 = Integer.parseInt(r[1]), x1 = Integer.parseInt(r[2]), z1 = Integer.parseInt(r[3]);
        int nx = x1 - x0 + 1, nz = z1 - z0 + 1;
        int[] xz = new int[2 * nx * nz];
        for (int i = 0; i < nx * nz; i++) {
            xz[2 * i] = x0 + i % nx;
            xz[2 * i + 1] = z0 + i / nx;
        }
        String token = args.length == 6 ? Files.readAllLines(Path.of(args[5])).get(0).strip() : null;
        ChunkfillClient conn;
        try {
            conn = ChunkfillClient.connect(args[0], token);
        } catch (IOException e) { /* the server is down, or not there: say which address */
            throw new IOException(args[0] + ": " + e.getMessage(), e);
        }
        try (ChunkfillClient c = conn) {
            ChunkfillClient.Config k = c.config(args[1]);
            if (stride > 0) {
                ChunkfillClient.Column[][] cols = c.fillColumns(args[1], seed(args[2]), stride, xz);
                for (int i = 0; i < cols.length; i++)
                    for (int j = 0; j < 256; j++) {
                        ChunkfillClient.Column q = cols[i][j];
                        System.out.printf("%d %d %d %d %s %s %s%n", (xz[2 * i] * 16 + j % 16) * stride, (xz[2 * i + 1] * 16 + j / 16) * stride,
                                          q.height(), q.fluidTop(), k.palette().get(q.block()), k.palette().get(q.fluid()),
                                          k.biomePalette().get(q.biome()));
                    }
                return;
            }
            if (biomes) {
                byte[][] b = c.fillBiomes(args[1], seed(args[2]), xz);
                for (int i = 0; i < b.length; i++) {
                    int[] count = new int[k.biomePalette().size()];
                    for (byte v : b[i]) count[v & 0xff]++;
                    StringBuilder t = new StringBuilder();
                    for (int j = 0; j < count.length; j++) if (count[j] > 0) t.append(' ').append(k.biomePalette().get(j)).append(' ').append(count[j]);
                    System.out.printf("chunk %d,%d:%s%n", xz[2 * i], xz[2 * i + 1], t);
                }
                return;
            }
            if (blocks) {
                boolean surface = stage == null ? k.surface() : stage.equals("surface");
                byte[][] b = c.fillBlocks(args[1], seed(args[2]), xz, surface ? ChunkfillClient.STAGE_SURFACE : ChunkfillClient.STAGE_NOISE);
                if (args.length >= 5 && !args[4].equals("-")) {
                    writeBlocks(Path.of(args[4]), b, k.height(), k.palette());
                } else {
                    for (int i = 0; i < b.length; i++) {
                        int[] count = new int[k.palette().size()];
                        for (byte v : b[i]) count[v & 0xff]++;
                        StringBuilder t = new StringBuilder();
                        for (int j = 0; j < count.length; j++) if (count[j] > 0) t.append(' ').append(k.palette().get(j)).append(' ').append(count[j]);
                        System.out.printf("chunk %d,%d:%s%n", xz[2 * i], xz[2 * i + 1], t);
                    }
                }
                return;
            }
            if (k.kind() == ChunkfillClient.KIND_DENSITY_F64) { /* 1.18-1.21 dialects: float64, as `chunkfill fill` writes them */
                double[][] d = c.fillDouble(args[1], seed(args[2]), xz);
                if (args.length >= 5 && !args[4].equals("-")) {
                    writeNpy64(Path.of(args[4]), d, k.height());
                } else {
                    for (int i = 0; i < d.length; i++) {
                        int solid = 0;
                        for (double f : d[i]) if (f > 0) solid++;
                        System.out.printf("chunk %d,%d: %d of %d blocks solid%n", xz[2 * i], xz[2 * i + 1], solid, d[i].length);
                    }
                }
                return;
            }
            float[][] v = c.fillFloat(args[1], seed(args[2]), xz);
            if (args.length >= 5 && !args[4].equals("-")) {
                writeNpy(Path.of(args[4]), v, k.height());
            } else {
                for (int i = 0; i < v.length; i++) {
                    int solid = 0;
                    for (float f : v[i]) if (f > 0) solid++;
                    System.out.printf("chunk %d,%d: %d of %d blocks solid%n", xz[2 * i], xz[2 * i + 1], solid, v[i].length);
                }
            }
            ChunkfillClient.Stats s = c.stats();
            System.err.printf("%d chunks from %s (server: %d chunks served, %d launches)%n", v.length, s.device(), s.chunks(),
                              s.launches());
        } catch (ChunkfillClient.ServerException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }

    /** Minecraft's seed text (WorldOptions.parseSeed): trimmed, then a decimal long, else its String.hashCode. */
    static long seed(String text) {
        String t = text.trim();
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            return t.hashCode();
        }
    }

    /** uint8 .npy and FILE.palette.json beside it, both as `chunkfill fill --blocks` writes them. */
    static void writeBlocks(Path path, byte[][] v, int height, java.util.List<String> palette) throws IOException {
        String dict = "{'descr': '|u1', 'fortran_order': False, 'shape': (" + v.length + ", " + height + ", 16, 16), }";
        int pad = (64 - (10 + dict.length() + 1) % 64) % 64;
        String hdr = dict + " ".repeat(pad) + "\n";
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try (OutputStream o = Files.newOutputStream(tmp)) {
            ByteBuffer h = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN);
            h.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0)
             .putShort((short) hdr.length());
            o.write(h.array());
            o.write(hdr.getBytes(StandardCharsets.US_ASCII));
            for (byte[] c : v) o.write(c);
        }
        String name = path.getFileName().toString();
        String stem = name.endsWith(".npy") ? name.substring(0, name.length() - 4) : name;
        Path pal = path.resolveSibling(stem + ".palette.json"), ptmp = path.resolveSibling(stem + ".palette.json.tmp");
        StringBuilder j = new StringBuilder("[");
        for (int i = 0; i < palette.size(); i++) j.append(i > 0 ? ", " : "").append('"').append(palette.get(i)).append('"');
        Files.writeString(ptmp, j.append("]\n").toString(), StandardCharsets.UTF_8);
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.move(ptmp, pal, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** .npy 1.0, the header padded so the data starts on a 64-byte boundary (as chunkfill writes it). */
    static void writeNpy(Path path, float[][] v, int height) throws IOException {
        Path tmp = npyHeader(path, "<f4", v.length, height);
        try (OutputStream o = Files.newOutputStream(tmp, java.nio.file.StandardOpenOption.APPEND)) {
            for (float[] c : v) {
                ByteBuffer b = ByteBuffer.allocate(4 * c.length).order(ByteOrder.LITTLE_ENDIAN);
                b.asFloatBuffer().put(c);
                o.write(b.array());
            }
        }
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The float64 chunks of a double dialect, as writeNpy. */
    static void writeNpy64(Path path, double[][] v, int height) throws IOException {
        Path tmp = npyHeader(path, "<f8", v.length, height);
        try (OutputStream o = Files.newOutputStream(tmp, java.nio.file.StandardOpenOption.APPEND)) {
            for (double[] c : v) {
                ByteBuffer b = ByteBuffer.allocate(8 * c.length).order(ByteOrder.LITTLE_ENDIAN);
                b.asDoubleBuffer().put(c);
                o.write(b.array());
            }
        }
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** PATH.tmp holding the .npy header of n chunks of descr values; the caller appends the data. */
    static Path npyHeader(Path path, String descr, int n, int height) throws IOException {
        String dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + n + ", " + height + ", 16, 16), }";
        int pad = (64 - (10 + dict.length() + 1) % 64) % 64;
        String hdr = dict + " ".repeat(pad) + "\n";
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try (OutputStream o = Files.newOutputStream(tmp)) {
            ByteBuffer h = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN);
            h.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0)
             .putShort((short) hdr.length());
            o.write(h.array());
            o.write(hdr.getBytes(StandardCharsets.US_ASCII));
        }
        return tmp;
    }
}
