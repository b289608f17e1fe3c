/* test_serve.c - the offload server (`chunkfill serve`, host/net/PROTOCOL.md) end to end:
 * the server runs as a child process (the chunkfill binary) on an ephemeral
 * loopback port or a Unix socket; its results are compared bit for bit with
 * local fills (`chunkfill fill` files, cf_fill_chunks buffers). Hostile clients
 * are test_serve_hostile.c's; the helpers both use are tests/serveutil.h. A load test runs 32
 * clients x 200 requests on the CPU and on PoCL (where launches must be far fewer
 * than requests: batching across clients). The Java client is compiled with
 * javac and run; a missing javac fails the test.
 */

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "chunkfill.h"
#include "chunkfill_net.h"
#include "net/proto.h"
#include "serveutil.h"

Test(serve, cli_fill_through_server_equals_local_fill, .timeout = 120)
{
    char sock[128], loc[128], rem[128], rem2[128], cmd[2048];
    tmpname(sock, sizeof sock, ".sock");
    tmpname(loc, sizeof loc, "-local.npy");
    tmpname(rem, sizeof rem, "-tcp.npy");
    tmpname(rem2, sizeof rem2, "-unix.npy");
    char lsock[160];
    snprintf(lsock, sizeof lsock, "unix:%s", sock);
    srv s;
    SRV_START(&s, "--settings", "minecraft:overworld", "--device", "cpu", "--listen", "127.0.0.1:0", "--listen", lsock);
    /* the embedded default pack: 6 overworld chunks (384 blocks high) */
    snprintf(cmd, sizeof cmd, "%s fill --seed 8675309 --chunks -2,-1:0,0 --out %s", CF_BINARY, loc);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s fill --server %s --seed 8675309 --chunks -2,-1:0,0 --out %s", CF_BINARY, s.addr, rem);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s fill --server %s --seed 8675309 --chunks -2,-1:0,0 --out %s", CF_BINARY, lsock, rem2);
    cr_assert_eq(run(cmd), 0);
    cr_assert(files_equal(loc, rem), "fill --server (TCP) differs from the local fill");
    cr_assert(files_equal(loc, rem2), "fill --server (unix socket) differs from the local fill");
    /* an unknown configuration: one line, exit 1, no file */
    snprintf(cmd, sizeof cmd, "%s fill --server %s --settings t:none --seed 1 --chunks 0,0 --out %s.x 2>/dev/null", CF_BINARY, s.addr, rem);
    cr_assert_eq(run(cmd), 1);
    char *log = srv_stop_ok(&s);
    free(log);
    struct stat st;
    cr_assert_neq(stat(sock, &st), 0, "the unix socket was not removed at shutdown");
    unlink(loc), unlink(rem), unlink(rem2);
}

Test(serve, c_client_equals_library_fill, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--max-chunks", "100");
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK, "%s", err.message);
    int min_y, height, prec;
    cr_assert_str_eq(cf_client_config(c, 0, &min_y, &height, &prec), "t:tiny");
    cr_assert_null(cf_client_config(c, 1, NULL, NULL, NULL));
    cr_assert_eq(min_y, 0);
    cr_assert_eq(height, 16);
    cr_assert_eq(prec, 32);
    cr_assert_eq(cf_client_max_chunks(c), 100);
    /* 250 chunks: three requests of at most 100 */
    int32_t xz[500];
    for (int i = 0; i < 250; i++) xz[2 * i] = i * 7919 % 2001 - 1000, xz[2 * i + 1] = i * 104729 % 3001 - 1500;
    xz[0] = CF_MAX_CHUNK, xz[1] = -CF_MAX_CHUNK;
    ref r;
    ref_open(&r, TINY, "t:tiny", -4242);
    float *want = ref_fill(&r, 250, xz), *got = malloc(sizeof(float) * 250 * 4096);
    cr_assert_eq(cf_client_fill(c, "t:tiny", -4242, CF_KIND_DENSITY_F32, 250, xz, got, &err), CF_OK, "%s", err.message);
    cr_assert(memcmp(want, got, sizeof(float) * 250 * 4096) == 0, "served chunks differ from cf_fill_chunks");
    double ms;
    cr_assert_eq(cf_client_ping(c, &ms, &err), CF_OK, "%s", err.message);
    cf_client_stats st;
    cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK, "%s", err.message);
    cr_assert_eq(st.chunks, 250);
    cr_assert_eq(st.requests, 3);
    cr_assert_eq(st.errors, 0);
    cr_assert_eq(st.connections, 1);
    cr_assert_str_eq(st.device, "cpu");
    /* a request error keeps the connection usable */
    cr_assert_eq(cf_client_fill(c, "t:tiny", 1, CF_KIND_DENSITY_F64, 1, xz, got, &err), CF_ERR_ARG);
    cr_assert_eq(cf_client_error_code(c), CFP_E_UNSUPPORTED_KIND);
    cr_assert(strstr(err.message, "unsupported_kind"), "%s", err.message);
    cr_assert_eq(cf_client_fill(c, "t:tiny", -4242, CF_KIND_DENSITY_F32, 2, xz, got, &err), CF_OK, "%s", err.message);
    cr_assert(memcmp(want, got, sizeof(float) * 2 * 4096) == 0);
    cf_client_close(c);
    free(want), free(got);
    ref_close(&r);
    free(srv_stop_ok(&s));
}

Test(serve, java_client_equals_cli_fill, .timeout = 180)
{
    /* compiled here, in the test run; no javac is a failure (scripts/deps.sh installs it) */
    cr_assert_eq(run("command -v javac >/dev/null && command -v java >/dev/null"), 0,
                 "javac/java not found: install openjdk-17-jdk-headless (scripts/deps.sh)");
    char dir[128], cmd[2048], loc[160], rem[160];
    tmpname(dir, sizeof dir, "-java");
    snprintf(cmd, sizeof cmd, "mkdir -p %s && javac -Xlint:all -Werror -d %s %s/host/net/clients/java/chunkfill/*.java", dir, dir,
             CF_SOURCE_DIR);
    cr_assert_eq(run(cmd), 0, "javac failed");
    snprintf(loc, sizeof loc, "%s/local.npy", dir);
    snprintf(rem, sizeof rem, "%s/java.npy", dir);
    char sock[160];
    snprintf(sock, sizeof sock, "unix:%s/s.sock", dir);
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--listen", sock, "--max-chunks", "64");
    snprintf(cmd, sizeof cmd, "%s fill --pack %s --settings t:tiny --seed -77 --chunks -5,-3:6,4 --out %s", CF_BINARY, TINY, loc);
    cr_assert_eq(run(cmd), 0);
    /* 96 chunks: two requests */
    snprintf(cmd, sizeof cmd, "java -cp %s chunkfill.Main %s t:tiny -77 -5,-3:6,4 %s", dir, s.addr, rem);
    cr_assert_eq(run(cmd), 0, "the Java example failed");
    cr_assert(files_equal(loc, rem), "the Java client's file differs from the local fill");
    unlink(rem);
    snprintf(cmd, sizeof cmd, "java -cp %s chunkfill.Main %s t:tiny -77 -5,-3:6,4 %s", dir, sock, rem);
    cr_assert_eq(run(cmd), 0, "the Java example failed on a unix socket");
    cr_assert(files_equal(loc, rem), "the Java client's file (unix socket) differs from the local fill");
    /* a text seed is hashed as Minecraft does, on both sides */
    snprintf(cmd, sizeof cmd, "%s fill --pack %s --settings t:tiny --seed 'hello world' --chunks 0,0:1,1 --out %s", CF_BINARY, TINY, loc);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "java -cp %s chunkfill.Main %s t:tiny 'hello world' 0,0:1,1 %s", dir, s.addr, rem);
    cr_assert_eq(run(cmd), 0);
    cr_assert(files_equal(loc, rem), "text seed: the Java client's file differs from the local fill");
    /* the seed text trimmed as the game trims it (" -77 " is -77), as `chunkfill fill` does */
    snprintf(cmd, sizeof cmd, "%s fill --pack %s --settings t:tiny --seed -77 --chunks 0,0:1,1 --out %s", CF_BINARY, TINY, loc);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "java -cp %s chunkfill.Main %s t:tiny ' -77 ' 0,0:1,1 %s", dir, s.addr, rem);
    cr_assert_eq(run(cmd), 0);
    cr_assert(files_equal(loc, rem), "seed ' -77 ': the Java client's file differs from seed -77's");
    free(srv_stop_ok(&s));
    /* the server down: one line naming the address, exit 1, no stack trace (issue 31) */
    char errf[200], line[1024] = "";
    snprintf(errf, sizeof errf, "%s/err.txt", dir);
    snprintf(cmd, sizeof cmd, "java -cp %s chunkfill.Main 127.0.0.1:1 t:tiny 1 0,0:0,0 %s 2>%s", dir, rem, errf);
    cr_assert_eq(run(cmd), 1, "the Java example against no server");
    FILE *f = fopen(errf, "r");
    cr_assert_not_null(f);
    size_t n = fread(line, 1, sizeof line - 1, f);
    line[n] = 0;
    fclose(f);
    cr_assert(strncmp(line, "chunkfill: 127.0.0.1:1: ", 24) == 0 && strchr(line, '\n') == line + n - 1, "not one line: '%s'", line);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    run(cmd);
}

/* 1.18-1.21 data (a double dialect): the server gives DENSITY_F64; `fill --server` and the
 * Java client write the same float64 .npy as a local fill (both refused it as "not a float32
 * dialect" while the server started and offered it) */
Test(serve, double_dialect_through_server_equals_local_fill, .timeout = 180)
{
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/vanilla/1.21.11", getenv("CF_SHARED") ? getenv("CF_SHARED") : CF_SOURCE_DIR "/../shared");
    if (access(pack, R_OK) != 0) { /* skipped in a clone alone; CI (CI=true) has ../shared */
        const char *ci = getenv("CI");
        if (ci && strcmp(ci, "true") == 0) cr_assert_fail("%s is missing (CI=true: the shared data must be beside the clone)", pack);
        cr_skip_test("no %s (../shared beside the clone, or CF_SHARED; CI has it)", pack);
    }
    char loc[128], rem[128], jrem[160], dir[128], cmd[4096];
    tmpname(loc, sizeof loc, "-local.npy");
    tmpname(rem, sizeof rem, "-server.npy");
    tmpname(dir, sizeof dir, "-java");
    snprintf(jrem, sizeof jrem, "%s/java.npy", dir);
    srv s;
    SRV_START(&s, "--pack", pack, "--settings", "minecraft:overworld", "--device", "cpu", "--listen", "127.0.0.1:0");
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK, "%s", err.message);
    int prec = 0;
    cr_assert_str_eq(cf_client_config(c, 0, NULL, NULL, &prec), "minecraft:overworld");
    cr_assert_eq(prec, 64);
    cf_client_close(c);
    snprintf(cmd, sizeof cmd, "%s fill --pack %s --seed 12 --chunks -1,3:0,4 --out %s", CF_BINARY, pack, loc);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s fill --server %s --seed 12 --chunks -1,3:0,4 --out %s", CF_BINARY, s.addr, rem);
    cr_assert_eq(run(cmd), 0, "fill --server of a float64 configuration failed");
    cr_assert(files_equal(loc, rem), "fill --server (float64) differs from the local fill");
    cr_assert_eq(run("command -v javac >/dev/null && command -v java >/dev/null"), 0,
                 "javac/java not found: install openjdk-17-jdk-headless (scripts/deps.sh)");
    snprintf(cmd, sizeof cmd, "mkdir -p %s && javac -Xlint:all -Werror -d %s %s/host/net/clients/java/chunkfill/*.java && "
             "java -cp %s chunkfill.Main %s minecraft:overworld 12 -1,3:0,4 %s", dir, dir, CF_SOURCE_DIR, dir, s.addr, jrem);
    cr_assert_eq(run(cmd), 0, "the Java example failed on a float64 configuration");
    cr_assert(files_equal(loc, jrem), "the Java client's float64 file differs from the local fill");
    free(srv_stop_ok(&s));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    run(cmd);
    unlink(loc), unlink(rem);
}

/* ------------------------------------------------------------ frame decoding */

/* BLOCKS_U8: the blocks of the noise stage (final density + the aquifer) through the
 * server, by the CLI and by the Java client, equal a local `fill --blocks` (file and
 * palette); the HELLO_OK record carries the palette */
Test(serve, blocks_through_server_equal_local_fill, .timeout = 240)
{
    cr_assert_eq(run("command -v javac >/dev/null && command -v java >/dev/null"), 0,
                 "javac/java not found: install openjdk-17-jdk-headless (scripts/deps.sh)");
    char dir[128], cmd[2048], loc[160], rem[160], jav[160], a[200], b[200];
    tmpname(dir, sizeof dir, "-blocks");
    snprintf(cmd, sizeof cmd, "mkdir -p %s && javac -Xlint:all -Werror -d %s %s/host/net/clients/java/chunkfill/*.java", dir, dir,
             CF_SOURCE_DIR);
    cr_assert_eq(run(cmd), 0, "javac failed");
    snprintf(loc, sizeof loc, "%s/local.npy", dir);
    snprintf(rem, sizeof rem, "%s/server.npy", dir);
    snprintf(jav, sizeof jav, "%s/java.npy", dir);
    srv s;
    SRV_START(&s, "--settings", "minecraft:overworld", "--device", "cpu", "--listen", "127.0.0.1:0");
    /* the embedded default pack has aquifers: water and barriers below its sea level */
    snprintf(cmd, sizeof cmd, "%s fill --seed 31 --chunks 3,-2:5,-1 --blocks --out %s", CF_BINARY, loc);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s fill --server %s --seed 31 --chunks 3,-2:5,-1 --blocks --out %s", CF_BINARY, s.addr, rem);
    cr_assert_eq(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "java -cp %s chunkfill.Main --blocks %s minecraft:overworld 31 3,-2:5,-1 %s", dir, s.addr, jav);
    cr_assert_eq(run(cmd), 0, "the Java example failed");
    cr_assert(files_equal(loc, rem), "fill --server --blocks differs from the local block fill");
    cr_assert(files_equal(loc, jav), "the Java client's block file differs from the local block fill");
    snprintf(a, sizeof a, "%s/local.palette.json", dir);
    snprintf(b, sizeof b, "%s/server.palette.json", dir);
    cr_assert(files_equal(a, b), "the palettes differ");
    snprintf(b, sizeof b, "%s/java.palette.json", dir);
    cr_assert(files_equal(a, b), "the Java palette differs");
    /* the C client sees the palette */
    cf_client *c;
    cf_error err = {0};
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK, "%s", err.message);
    const char *names[CF_PALETTE_MAX];
    cr_assert_eq(cf_client_palette(c, "minecraft:overworld", names), 4);
    cr_assert_str_eq(names[0], "minecraft:stone");
    cr_assert_str_eq(names[2], "minecraft:water");
    cf_client_close(c);
    free(srv_stop_ok(&s));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    run(cmd);
}

/* the surface stage through the server (protocol version 2: BLOCKS_U8 with stage 1): the CLI
 * and the Java client write the local --stage surface file by default and the --stage noise file
 * when asked, and the two differ (a server that ignored the stage would fail); a version 1
 * hello is not offered the stage */
Test(serve, surface_stage_through_server, .timeout = 240)
{
    char pack[1024];
    snprintf(pack, sizeof pack, "%s/vanilla/26.2", getenv("CF_SHARED") ? getenv("CF_SHARED") : CF_SOURCE_DIR "/../shared");
    if (access(pack, R_OK) != 0) { /* skipped in a clone alone; CI (CI=true) has ../shared */
        const char *ci = getenv("CI");
        if (ci && strcmp(ci, "true") == 0) cr_assert_fail("%s is missing (CI=true: the shared data must be beside the clone)", pack);
        cr_skip_test("no %s (../shared beside the clone, or CF_SHARED; CI has it)", pack);
    }
    cr_assert_eq(run("command -v javac >/dev/null && command -v java >/dev/null"), 0, "javac/java not found");
    char dir[128], cmd[20000], f[6][200];
    tmpname(dir, sizeof dir, "-surface");
    snprintf(cmd, sizeof cmd, "mkdir -p %s && javac -Xlint:all -Werror -d %s %s/host/net/clients/java/chunkfill/*.java", dir, dir,
             CF_SOURCE_DIR);
    cr_assert_eq(run(cmd), 0, "javac failed");
    static const char *const names[6] = {"ls", "ln", "rs", "rn", "js", "jn"};
    for (int i = 0; i < 6; i++) snprintf(f[i], sizeof f[i], "%s/%s.npy", dir, names[i]);
    srv s;
    SRV_START(&s, "--pack", pack, "--settings", "minecraft:nether", "--device", "cpu", "--listen", "127.0.0.1:0");
    const char *q = "--settings minecraft:nether --seed 3 --chunks 0,0:1,0 --blocks --quiet";
    snprintf(cmd, sizeof cmd, "%s fill --pack %s %s --stage surface --out %s && %s fill --pack %s %s --stage noise --out %s && "
             "%s fill --server %s %s --out %s && %s fill --server %s %s --stage noise --out %s && "
             "java -cp %s chunkfill.Main --blocks %s minecraft:nether 3 0,0:1,0 %s && "
             "java -cp %s chunkfill.Main --blocks --stage noise %s minecraft:nether 3 0,0:1,0 %s",
             CF_BINARY, pack, q, f[0], CF_BINARY, pack, q, f[1], CF_BINARY, s.addr, q, f[2], CF_BINARY, s.addr, q, f[3], dir, s.addr,
             f[4], dir, s.addr, f[5]);
    cr_assert_eq(run(cmd), 0, "a fill failed: %s", cmd);
    cr_assert(!files_equal(f[0], f[1]), "the surface stage changed nothing");
    cr_assert(files_equal(f[0], f[2]), "fill --server --blocks (surface) differs from the local surface stage");
    cr_assert(files_equal(f[1], f[3]), "fill --server --stage noise differs from the local noise stage");
    cr_assert(files_equal(f[0], f[4]), "the Java client's surface stage differs");
    cr_assert(files_equal(f[1], f[5]), "the Java client's noise stage differs");
    cf_client *c;
    cf_error err = {0};
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK, "%s", err.message);
    cr_assert(cf_client_has_surface(c, "minecraft:nether"));
    cf_client_close(c);
    /* version 1: flags without bit 2, and stage 1 refused */
    int fd = raw_connect(&s);
    send_hello(fd, 1, NULL);
    unsigned t;
    uint8_t *p;
    long n = raw_frame(fd, &t, &p);
    cr_assert_eq(t, CFP_HELLO_OK);
    cr_assert_gt(n, 20 + 1 + 16 + 3);
    cr_assert_eq(cfp_le16(p + 4), 1, "the answer speaks the client's version");
    cr_assert_eq(p[20], 16); /* "minecraft:nether" */
    cr_assert_eq(p[20 + 1 + 16 + 2] & 4, 0, "a version 1 client is offered the surface stage");
    cr_assert_eq(p[20 + 1 + 16 + 2] & 1, 1);
    free(p);
    close(fd);
    free(srv_stop_ok(&s));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    run(cmd);
}

static size_t fill_payload(uint8_t *out, uint32_t id, unsigned clen, unsigned zero, uint32_t n, size_t nchunks)
{
    cfp_buf b = {0};
    cfp_u32(&b, id), cfp_u8(&b, 1), cfp_u8(&b, clen), cfp_u16(&b, zero), cfp_u64(&b, (uint64_t)-5), cfp_u32(&b, 250);
    cfp_u32(&b, n);
    cfp_put(&b, "abcdefgh", clen);
    for (size_t i = 0; i < nchunks; i++) cfp_u32(&b, (uint32_t)-1 - (uint32_t)i), cfp_u32(&b, (uint32_t)i);
    cr_assert(!b.oom);
    memcpy(out, b.p, b.len);
    size_t len = b.len;
    cfp_buf_free(&b);
    return len;
}

Test(proto, fill_decoder_checks_every_length)
{
    uint8_t p[256];
    cfp_fill f;
    size_t len = fill_payload(p, 77, 3, 0, 2, 2);
    cr_assert_eq(len, 24 + 3 + 16);
    cr_assert_eq(cfp_fill_parse(p, len, &f), 0);
    cr_assert_eq(f.id, 77);
    cr_assert_eq(f.kind, 1);
    cr_assert_eq(f.seed, -5);
    cr_assert_eq(f.deadline_ms, 250);
    cr_assert_eq(f.n, 2);
    cr_assert_eq(f.config_len, 3);
    cr_assert(memcmp(f.config, "abc", 3) == 0);
    cr_assert_eq(cfp_le32s(f.chunks), -1);
    cr_assert_eq(cfp_le32s(f.chunks + 12), 1);
    /* every truncation and one byte too many */
    for (size_t l = 0; l < len; l++) cr_assert_eq(cfp_fill_parse(p, l, &f), -1, "accepted %zu of %zu bytes", l, len);
    cr_assert_eq(cfp_fill_parse(p, len + 1, &f), -1);
    /* n that does not match the chunk bytes, also where 8n overflows 32 bits */
    len = fill_payload(p, 1, 3, 0, 3, 2);
    cr_assert_eq(cfp_fill_parse(p, len, &f), -1);
    len = fill_payload(p, 1, 3, 0, 0x20000000u, 0);
    cr_assert_eq(cfp_fill_parse(p, len, &f), -1);
    len = fill_payload(p, 1, 3, 0, 0x20000001u, 1);
    cr_assert_eq(cfp_fill_parse(p, len, &f), -1);
    /* empty configuration name, nonzero reserved byte; the stage byte (version 2) is read */
    len = fill_payload(p, 1, 0, 0, 1, 1);
    cr_assert_eq(cfp_fill_parse(p, len, &f), -1);
    len = fill_payload(p, 1, 3, 0x100, 1, 1);
    cr_assert_eq(cfp_fill_parse(p, len, &f), -1);
    len = fill_payload(p, 1, 3, 1, 1, 1);
    cr_assert_eq(cfp_fill_parse(p, len, &f), 0);
    cr_assert_eq(f.stage, 1);
}

Test(proto, reader_never_reads_past_the_payload)
{
    const uint8_t p[5] = {1, 2, 3, 4, 5};
    cfp_rd r = {p, 5, 0, 0};
    cr_assert_eq(cfp_rd_u32(&r), 0x04030201u);
    cr_assert_eq(cfp_rd_u16(&r), 0);
    cr_assert(r.bad);
    cr_assert_null(cfp_rd_bytes(&r, 1)); /* sticky */
    cfp_rd q = {p, 5, 0, 0};
    cr_assert_null(cfp_rd_bytes(&q, 6));
    cr_assert_eq(cfp_rd_u64(&q), 0);
}

typedef struct big_ctx {
    const char *addr;
    int rc;
} big_ctx;

static void *big_request(void *arg)
{
    big_ctx *b = arg;
    cf_error err = {0};
    cf_client *c;
    b->rc = -1;
    if (cf_client_connect(&c, b->addr, NULL, &err) != CF_OK) return NULL;
    int32_t xz[2 * 96];
    for (int i = 0; i < 96; i++) xz[2 * i] = i, xz[2 * i + 1] = -i;
    float *out = malloc(sizeof(float) * 96 * 384 * 256);
    b->rc = out ? (int)cf_client_fill(c, "minecraft:overworld", 5, CF_KIND_DENSITY_F32, 96, xz, out, &err) : -1;
    free(out);
    cf_client_close(c);
    return NULL;
}

Test(serve, small_request_is_not_stuck_behind_a_big_one, .timeout = 120)
{
    /* 96 overworld chunks in batches of 4 from one client; a 1-chunk request of another
     * client must get a batch before the big request's chunks are all taken */
    srv s;
    SRV_START(&s, "--settings", "minecraft:overworld", "--device", "cpu", "--batch", "4", "--threads", "1", "--listen",
              "127.0.0.1:0");
    big_ctx b = {s.addr, 0};
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, big_request, &b), 0);
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK);
    cf_client_stats st;
    double t0 = now_s();
    do {
        cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK);
        usleep(2000);
    } while (st.queue_chunks == 0 && now_s() - t0 < 30);
    cr_assert_gt(st.queue_chunks, 0, "the big request never showed in the queue");
    int32_t one[2] = {1000, 1000};
    float *v = malloc(sizeof(float) * 384 * 256);
    cr_assert_eq(cf_client_fill(c, "minecraft:overworld", 5, CF_KIND_DENSITY_F32, 1, one, v, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK);
    cr_assert_gt(st.queue_chunks, 40, "the small request waited for the big one (%u chunks left)", st.queue_chunks);
    free(v);
    cf_client_close(c);
    pthread_join(th, NULL);
    cr_assert_eq(b.rc, CF_OK);
    free(srv_stop_ok(&s));
}

static int have_opencl(void)
{
    char *list = cf_devices_list(NULL);
    int have = list && strstr(list, "opencl:0");
    free(list);
    return have;
}

Test(serve, falls_back_to_the_cpu_when_the_device_fails, .timeout = 180)
{
    if (!have_opencl()) cr_skip_test("no OpenCL device");
    /* fault injection (test builds, host/opencl/device.c): the program build fails */
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "CHUNKFILL_FAULT=build %s serve --pack %s --settings t:tiny --device opencl --listen 127.0.0.1:0 >/dev/null 2>&1",
             CF_BINARY, TINY);
    cr_assert_eq(run(cmd), 1, "an explicit device that fails must stop the start");
    srv s;
    setenv("CHUNKFILL_FAULT", "build", 1);
    SRV_START(&s, "--pack", TINY, "--settings", "t:tiny", "--device", "auto", "--listen", "127.0.0.1:0");
    unsetenv("CHUNKFILL_FAULT");
    good_client(&s, NULL);
    char *log = srv_stop_ok(&s);
    assert_log(log, "no usable OpenCL device");
    assert_log(log, "fills on cpu");
    free(log);
    /* the third launch fails: the server goes on on the CPU, results unchanged */
    setenv("CHUNKFILL_FAULT", "launch:2", 1);
    SRV_START(&s, "--pack", TINY, "--settings", "t:tiny", "--device", "opencl", "--listen", "127.0.0.1:0");
    unsetenv("CHUNKFILL_FAULT");
    for (int i = 0; i < 4; i++) good_client(&s, NULL);
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK);
    cf_client_stats st;
    cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK);
    cr_assert_str_eq(st.device, "cpu (the device failed)");
    cr_assert_eq(st.errors, 0);
    cf_client_close(c);
    log = srv_stop_ok(&s);
    assert_log(log, "fills on opencl:");
    assert_log(log, "device failed (");
    free(log);
}

Test(serve, sigterm_finishes_in_flight_work, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--batch", "8");
    int fd = raw_connect(&s);
    hello_ok(fd);
    int32_t xz[2] = {2, 2};
    send_fill(fd, 1, CFP_DENSITY_F32, "t:tiny", 5, 0, 2000, xz);
    unsigned t;
    uint8_t *p;
    cr_assert_geq(raw_frame(fd, &t, &p), 0);
    cr_assert_eq(t, CFP_CHUNK);
    free(p);
    kill(s.pid, SIGTERM);
    /* the request in flight completes, then the connection is closed with 'shutdown' */
    int chunks = 1, done = 0;
    for (;;) {
        long n = raw_frame(fd, &t, &p);
        cr_assert_geq(n, 0, "closed before the shutdown error frame");
        if (t == CFP_CHUNK) chunks++;
        if (t == CFP_DONE) done = 1;
        int err = t == CFP_ERROR;
        if (err) {
            cr_assert_eq(cfp_le32(p), 0);
            cr_assert_eq(cfp_le16(p + 4), CFP_E_SHUTDOWN);
        }
        free(p);
        if (err) break;
    }
    expect_eof(fd);
    close(fd);
    cr_assert_eq(chunks, 2000);
    cr_assert(done);
    char *log = srv_stop_ok(&s);
    assert_log(log, "shutdown: all work done, 0 requests cancelled");
    free(log);
}

/* ------------------------------------------------------------ load */

#define LOAD_CLIENTS 32
#define LOAD_REQUESTS 200
#define LOAD_AREA 16 /* chunks -8..7 on each axis */

typedef struct load_ctx {
    const srv *s;
    const float *ref[2]; /* per seed: [ (z+8)*16 + (x+8) ] chunk volumes */
    int index, errors, mismatches;
    uint64_t chunks;
    double *lat; /* per request, ms */
} load_ctx;

static const int64_t load_seed[2] = {1234567, -98765};

static void *load_client(void *arg)
{
    load_ctx *l = arg;
    cf_error err = {0};
    cf_client *c;
    if (cf_client_connect(&c, l->s->addr, NULL, &err) != CF_OK) {
        l->errors = LOAD_REQUESTS;
        return NULL;
    }
    uint32_t rng = 2166136261u ^ (uint32_t)l->index * 16777619u;
    float *buf = malloc(sizeof(float) * 16 * 4096);
    int32_t xz[32];
    for (int q = 0; q < LOAD_REQUESTS && buf; q++) {
        rng = rng * 1664525u + 1013904223u;
        int n = 1 + (int)(rng >> 28), si = (l->index + q) & 1;
        for (int i = 0; i < n; i++) {
            rng = rng * 1664525u + 1013904223u;
            xz[2 * i] = (int32_t)(rng >> 16 & 15) - 8;
            xz[2 * i + 1] = (int32_t)(rng >> 24 & 15) - 8;
        }
        double t0 = now_s();
        if (cf_client_fill(c, "t:tiny", load_seed[si], CF_KIND_DENSITY_F32, (size_t)n, xz, buf, &err) != CF_OK) {
            l->errors++;
            continue;
        }
        l->lat[q] = (now_s() - t0) * 1e3;
        l->chunks += (uint64_t)n;
        for (int i = 0; i < n; i++) {
            const float *want = l->ref[si] + (size_t)((xz[2 * i + 1] + 8) * LOAD_AREA + xz[2 * i] + 8) * 4096;
            if (memcmp(want, buf + (size_t)i * 4096, sizeof(float) * 4096) != 0) l->mismatches++;
        }
    }
    free(buf);
    cf_client_close(c);
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* 32 clients x 200 requests of 1..16 chunks; returns launches and requests from the stats */
static void load(const srv *s, uint64_t *launches, uint64_t *requests)
{
    int32_t area[2 * LOAD_AREA * LOAD_AREA];
    for (int i = 0; i < LOAD_AREA * LOAD_AREA; i++) area[2 * i] = i % LOAD_AREA - 8, area[2 * i + 1] = i / LOAD_AREA - 8;
    ref r[2];
    float *refv[2];
    for (int k = 0; k < 2; k++) {
        ref_open(&r[k], TINY, "t:tiny", load_seed[k]);
        refv[k] = ref_fill(&r[k], LOAD_AREA * LOAD_AREA, area);
    }
    load_ctx ctx[LOAD_CLIENTS];
    pthread_t th[LOAD_CLIENTS];
    double *lat = calloc(LOAD_CLIENTS * LOAD_REQUESTS, sizeof(double));
    double t0 = now_s();
    for (int i = 0; i < LOAD_CLIENTS; i++) {
        ctx[i] = (load_ctx){.s = s, .ref = {refv[0], refv[1]}, .index = i, .lat = lat + i * LOAD_REQUESTS};
        cr_assert_eq(pthread_create(&th[i], NULL, load_client, &ctx[i]), 0);
    }
    uint64_t chunks = 0;
    int errors = 0, mism = 0;
    for (int i = 0; i < LOAD_CLIENTS; i++) {
        pthread_join(th[i], NULL);
        chunks += ctx[i].chunks;
        errors += ctx[i].errors;
        mism += ctx[i].mismatches;
    }
    double t = now_s() - t0;
    cr_assert_eq(errors, 0, "%d requests failed", errors);
    cr_assert_eq(mism, 0, "%d chunks differ from the local fill", mism);
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s->addr, NULL, &err), CF_OK);
    cf_client_stats st;
    cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK);
    cf_client_close(c);
    /* every chunk asked for was served once: none lost, none duplicated */
    cr_assert_eq(st.chunks, chunks, "server served %llu chunks, clients received %llu", (unsigned long long)st.chunks,
                 (unsigned long long)chunks);
    cr_assert_eq(st.requests, LOAD_CLIENTS * LOAD_REQUESTS);
    cr_assert_eq(st.errors, 0);
    cr_assert_eq(st.queue_chunks, 0);
    qsort(lat, LOAD_CLIENTS * LOAD_REQUESTS, sizeof(double), cmp_double);
    /* for information only (figures go to bench/RESULTS.md, from bench/serve.sh) */
    fprintf(stderr, "load: %s: %d requests, %llu chunks in %.2f s, %llu launches, p50 %.2f ms, p99 %.2f ms\n", st.device,
            LOAD_CLIENTS * LOAD_REQUESTS, (unsigned long long)chunks, t, (unsigned long long)st.launches,
            lat[LOAD_CLIENTS * LOAD_REQUESTS / 2], lat[LOAD_CLIENTS * LOAD_REQUESTS * 99 / 100]);
    *launches = st.launches;
    *requests = st.requests;
    free(lat);
    for (int k = 0; k < 2; k++) {
        free(refv[k]);
        ref_close(&r[k]);
    }
}

Test(serve_load, cpu_32_clients, .timeout = 300)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0");
    uint64_t launches, requests;
    load(&s, &launches, &requests);
    free(srv_stop_ok(&s));
}

Test(serve_load, pocl_batches_across_clients, .timeout = 300)
{
    if (!have_opencl()) cr_skip_test("no OpenCL device");
    srv s;
    SRV_START(&s, "--pack", TINY, "--settings", "t:tiny", "--device", "opencl", "--batch", "512", "--listen", "127.0.0.1:0");
    uint64_t launches, requests;
    load(&s, &launches, &requests);
    cr_assert_lt(launches * 4, requests, "%llu launches for %llu requests: no batching across clients",
                 (unsigned long long)launches, (unsigned long long)requests);
    char *log = srv_stop_ok(&s);
    assert_log(log, "fills on opencl:");
    free(log);
}
