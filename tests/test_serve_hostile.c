/* test_serve_hostile.c - the offload server (`chunkfill serve`, host/net/PROTOCOL.md) against
 * hostile clients speaking raw frames: malformed, oversized, a wrong version, half a frame then
 * silence, vanishing mid-response, a wrong token or address, reading nothing, too many
 * connections, cancels and deadlines. After each, a well-behaved client must be served
 * correctly. The helpers are tests/serveutil.h's (shared with test_serve.c). */

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

/* ------------------------------------------------------------ hostile clients */

Test(serve_hostile, malformed_frames, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0");
    /* nonzero reserved header field */
    int fd = raw_connect(&s);
    hello_ok(fd);
    uint8_t bad[8] = {0, 0, 0, 0, CFP_PING, 0, 1, 0};
    raw_send(fd, bad, 8);
    expect_fatal(fd, CFP_E_MALFORMED);
    /* an unknown frame type */
    fd = raw_connect(&s);
    hello_ok(fd);
    uint8_t unk[8] = {0, 0, 0, 0, 0x7f, 0, 0, 0};
    raw_send(fd, unk, 8);
    expect_fatal(fd, CFP_E_MALFORMED);
    /* a FILL whose chunk list is one byte short */
    fd = raw_connect(&s);
    hello_ok(fd);
    cfp_buf b = {0};
    size_t at = cfp_begin(&b, CFP_FILL);
    cfp_u32(&b, 1), cfp_u8(&b, 1), cfp_u8(&b, 6), cfp_u16(&b, 0), cfp_u64(&b, 1), cfp_u32(&b, 0), cfp_u32(&b, 1);
    cfp_put(&b, "t:tiny", 6);
    cfp_u32(&b, 0), cfp_u16(&b, 0), cfp_u8(&b, 0);
    cfp_end(&b, at);
    raw_buf(fd, &b);
    expect_fatal(fd, CFP_E_MALFORMED);
    /* a first frame that is not HELLO */
    fd = raw_connect(&s);
    uint8_t stats[8] = {0, 0, 0, 0, CFP_STATS, 0, 0, 0};
    raw_send(fd, stats, 8);
    expect_fatal(fd, CFP_E_MALFORMED);
    /* a fatal error with a request in flight: no frame after the error frame */
    fd = raw_connect(&s);
    hello_ok(fd);
    int32_t xz[2] = {1, 1};
    send_fill(fd, 3, CFP_DENSITY_F32, "t:tiny", 5, 0, 4096, xz);
    {
        unsigned t;
        uint8_t *p;
        cr_assert_geq(raw_frame(fd, &t, &p), 0);
        cr_assert_eq(t, CFP_CHUNK);
        free(p);
    }
    raw_send(fd, unk, 8); /* while the response streams */
    for (;;) {
        unsigned t;
        uint8_t *p;
        cr_assert_geq(raw_frame(fd, &t, &p), 0, "closed without the error frame");
        int fin = t == CFP_ERROR;
        if (fin) cr_assert(cfp_le32(p) == 0 && cfp_le16(p + 4) == CFP_E_MALFORMED);
        else cr_assert_eq(t, CFP_CHUNK);
        free(p);
        if (fin) break;
    }
    expect_eof(fd);
    close(fd);
    /* random bytes */
    fd = raw_connect(&s);
    raw_send(fd, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27);
    expect_fatal(fd, CFP_E_MALFORMED); /* "HT" read as the reserved field */
    good_client(&s, NULL);
    char *log = srv_stop_ok(&s);
    assert_log(log, "malformed: frame header with nonzero reserved field (closing)");
    assert_log(log, "malformed: unknown frame type 0x7f (closing)");
    assert_log(log, "malformed: expected a hello frame first");
    free(log);
}

Test(serve_hostile, oversized_frame, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--max-frame", "4096", "--max-chunks", "100");
    int fd = raw_connect(&s);
    hello_ok(fd);
    uint8_t big[8] = {0, 0, 0, 0x40, CFP_FILL, 0, 0, 0}; /* 1 GiB announced */
    raw_send(fd, big, 8);
    expect_fatal(fd, CFP_E_TOO_LARGE);
    /* just above the limit, before the handshake too */
    fd = raw_connect(&s);
    uint8_t h[8] = {0x09, 0x01, 0, 0, CFP_HELLO, 0, 0, 0}; /* 265 > 8 + 256 */
    raw_send(fd, h, 8);
    expect_fatal(fd, CFP_E_TOO_LARGE);
    /* too many chunks is a request error, not fatal */
    fd = raw_connect(&s);
    hello_ok(fd);
    int32_t xz[2] = {1, 2};
    send_fill(fd, 9, CFP_DENSITY_F32, "t:tiny", 1, 0, 101, xz);
    expect_error(fd, 9, CFP_E_TOO_MANY_CHUNKS);
    send_fill(fd, 10, CFP_DENSITY_F32, "t:none", 1, 0, 1, xz);
    expect_error(fd, 10, CFP_E_UNKNOWN_CONFIG);
    int32_t far[2] = {CF_MAX_CHUNK + 1, 0};
    send_fill(fd, 11, CFP_DENSITY_F32, "t:tiny", 1, 0, 1, far);
    expect_error(fd, 11, CFP_E_BAD_CHUNK);
    send_fill(fd, 12, CFP_DENSITY_F64, "t:tiny", 1, 0, 1, xz);
    expect_error(fd, 12, CFP_E_UNSUPPORTED_KIND);
    send_fill(fd, 13, 7, "t:tiny", 1, 0, 1, xz); /* no such kind */
    expect_error(fd, 13, CFP_E_UNSUPPORTED_KIND);
    close(fd);
    good_client(&s, NULL);
    char *log = srv_stop_ok(&s);
    assert_log(log, "too_large: frame of 1073741824 bytes (at most 4096) (closing)");
    assert_log(log, "request 9: too_many_chunks");
    free(log);
}

Test(serve_hostile, unknown_version, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0");
    int fd = raw_connect(&s);
    send_hello(fd, 3, NULL);
    expect_fatal(fd, CFP_E_VERSION);
    fd = raw_connect(&s);
    send_hello(fd, 0, NULL);
    expect_fatal(fd, CFP_E_VERSION);
    good_client(&s, NULL);
    char *log = srv_stop_ok(&s);
    assert_log(log, "version: unsupported protocol version 3 (this server speaks versions 1 to 2) (closing)");
    free(log);
}

Test(serve_hostile, half_frame_then_stall, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--read-timeout-ms", "400");
    int fd = raw_connect(&s);
    hello_ok(fd);
    uint8_t half[12] = {30, 0, 0, 0, CFP_FILL, 0, 0, 0, 1, 0, 0, 0};
    raw_send(fd, half, sizeof half);
    double t0 = now_s();
    /* meanwhile another client is served */
    good_client(&s, NULL);
    expect_fatal(fd, CFP_E_TIMEOUT);
    double t = now_s() - t0;
    cr_assert(t > 0.3 && t < 10, "timed out after %.2f s (read timeout 0.4 s)", t);
    /* silence before the hello */
    fd = raw_connect(&s);
    expect_fatal(fd, CFP_E_TIMEOUT);
    /* an idle connection between frames is kept */
    fd = raw_connect(&s);
    hello_ok(fd);
    usleep(800000);
    int32_t xz[2] = {0, 0};
    send_fill(fd, 1, CFP_DENSITY_F32, "t:tiny", 5, 0, 1, xz);
    unsigned t1;
    uint8_t *p;
    cr_assert_geq(raw_frame(fd, &t1, &p), 0);
    cr_assert_eq(t1, CFP_CHUNK);
    free(p);
    close(fd);
    good_client(&s, NULL);
    char *log = srv_stop_ok(&s);
    assert_log(log, "timeout: incomplete frame for 400 ms (closing)");
    assert_log(log, "timeout: no hello within 400 ms (closing)");
    free(log);
}

Test(serve_hostile, disconnect_mid_response, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0");
    for (int k = 0; k < 3; k++) {
        int fd = raw_connect(&s);
        hello_ok(fd);
        int32_t xz[2] = {3, 4};
        send_fill(fd, 1, CFP_DENSITY_F32, "t:tiny", 5, 0, 4096, xz); /* 64 MiB of answers */
        send_fill(fd, 2, CFP_DENSITY_F32, "t:tiny", 6, 0, 4096, xz);
        uint8_t some[20000];
        cr_assert_eq(recv_all(fd, some, sizeof some), 0);
        close(fd); /* with most of the response unread */
    }
    good_client(&s, NULL);
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK);
    cf_client_stats st;
    /* the abandoned requests are dropped: the queue empties */
    double t0 = now_s();
    do {
        cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK, "%s", err.message);
        usleep(20000);
    } while ((st.queue_chunks || st.connections > 1) && now_s() - t0 < 20);
    cr_assert_eq(st.queue_chunks, 0);
    cr_assert_eq(st.connections, 1);
    cf_client_close(c);
    char *log = srv_stop_ok(&s);
    cr_assert(strstr(log, "closed (peer gone while writing)") || strstr(log, "closed (peer closed)"), "no close logged");
    free(log);
}

Test(serve_hostile, bad_token_and_remote_addresses, .timeout = 60)
{
    char tok[128], cmd[1024];
    tmpname(tok, sizeof tok, ".token");
    FILE *f = fopen(tok, "w");
    fputs("s3cret-token\n", f);
    fclose(f);
    /* a non-loopback address needs --allow-remote, and that needs a token */
    snprintf(cmd, sizeof cmd, "%s serve --pack %s --settings t:tiny --device cpu --listen 0.0.0.0:0 2>/dev/null", CF_BINARY, TINY);
    cr_assert_eq(run(cmd), 1);
    snprintf(cmd, sizeof cmd, "%s serve --pack %s --settings t:tiny --device cpu --listen 0.0.0.0:0 --allow-remote 2>/dev/null",
             CF_BINARY, TINY);
    cr_assert_eq(run(cmd), 2);
    srv s;
    SRV_TINY(&s, "--listen", "0.0.0.0:0", "--allow-remote", "--token-file", tok);
    cr_assert(strncmp(s.addr, "0.0.0.0:", 8) == 0, "%s", s.addr);
    snprintf(s.addr, sizeof s.addr, "127.0.0.1:%d", s.port);
    int fd = raw_connect(&s);
    send_hello(fd, 1, "s3cret-tokeN");
    expect_fatal(fd, CFP_E_AUTH);
    fd = raw_connect(&s);
    send_hello(fd, 1, NULL);
    expect_fatal(fd, CFP_E_AUTH);
    fd = raw_connect(&s);
    send_hello(fd, 1, "s3cret-token-and-more");
    expect_fatal(fd, CFP_E_AUTH);
    cf_error err = {0};
    cf_client *c = NULL;
    cr_assert_eq(cf_client_connect(&c, s.addr, "wrong", &err), CF_ERR_ARG);
    cr_assert(strstr(err.message, "auth"), "%s", err.message);
    good_client(&s, "s3cret-token");
    /* fill --server --token-file */
    char out[160];
    snprintf(out, sizeof out, "%s.npy", tok);
    snprintf(cmd, sizeof cmd, "%s fill --server %s --token-file %s --settings t:tiny --seed 3 --chunks 0,0 --out %s", CF_BINARY,
             s.addr, tok, out);
    cr_assert_eq(run(cmd), 0);
    char *log = srv_stop_ok(&s);
    assert_log(log, "auth: bad token (closing)");
    cr_assert_null(strstr(log, "s3cret"), "the token appears in the log");
    free(log);
    unlink(tok), unlink(out);
}

Test(serve_hostile, client_that_reads_nothing, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--max-output-mb", "1", "--batch", "32");
    int fd = raw_connect(&s);
    hello_ok(fd);
    int32_t xz[2] = {7, -7};
    send_fill(fd, 1, CFP_DENSITY_F32, "t:tiny", 9, 0, 4096, xz); /* 64 MiB of answers, never read (yet) */
    usleep(300000);
    /* the server fills no more for it than its output bound (1 MiB = 64 chunks) plus one batch
     * plus what the sockets hold; and others are served meanwhile */
    good_client(&s, NULL);
    cf_error err = {0};
    cf_client *c;
    cr_assert_eq(cf_client_connect(&c, s.addr, NULL, &err), CF_OK);
    cf_client_stats st;
    cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK);
    fprintf(stderr, "client that reads nothing: %llu chunks filled\n", (unsigned long long)st.chunks);
    cr_assert_lt(st.chunks, 3 + 1000, "%llu chunks filled for a client that reads nothing", (unsigned long long)st.chunks);
    cr_assert_gt(st.queue_chunks, 2000, "the unread request's chunks should still be queued");
    /* when it reads, everything arrives, in order */
    float *want = NULL;
    {
        ref r;
        ref_open(&r, TINY, "t:tiny", 9);
        want = ref_fill(&r, 1, xz);
        ref_close(&r);
    }
    for (uint32_t i = 0; i <= 4096; i++) {
        unsigned t;
        uint8_t *p;
        long n = raw_frame(fd, &t, &p);
        cr_assert_geq(n, 0);
        if (i == 4096) {
            cr_assert_eq(t, CFP_DONE);
        } else {
            cr_assert_eq(t, CFP_CHUNK);
            cr_assert_eq(cfp_le32(p + 4), i);
            cr_assert_eq(n, 24 + 4096 * 4);
            cr_assert(memcmp(p + 24, want, 4096 * 4) == 0, "chunk %u differs", i);
        }
        free(p);
    }
    free(want);
    close(fd);
    cr_assert_eq(cf_client_stats_get(c, &st, &err), CF_OK);
    cr_assert_eq(st.queue_chunks, 0);
    cf_client_close(c);
    free(srv_stop_ok(&s));
}

Test(serve_hostile, too_many_connections, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--max-connections", "2");
    int a = raw_connect(&s), b = raw_connect(&s);
    hello_ok(a);
    hello_ok(b);
    int c = raw_connect(&s);
    expect_fatal(c, CFP_E_BUSY);
    close(a);
    /* the server notices the close on its next poll */
    usleep(300000);
    good_client(&s, NULL);
    close(b);
    char *log = srv_stop_ok(&s);
    assert_log(log, "refused (busy: 2 connections)");
    free(log);
}

Test(serve_hostile, cancel_and_deadline, .timeout = 60)
{
    srv s;
    SRV_TINY(&s, "--listen", "127.0.0.1:0", "--batch", "16");
    int fd = raw_connect(&s);
    hello_ok(fd);
    int32_t xz[2] = {1, 1};
    send_fill(fd, 5, CFP_DENSITY_F32, "t:tiny", 5, 0, 4096, xz);
    cfp_buf b = {0};
    size_t at = cfp_begin(&b, CFP_CANCEL);
    cfp_u32(&b, 5);
    cfp_end(&b, at);
    raw_buf(fd, &b);
    int got = expect_error(fd, 5, CFP_E_CANCELLED);
    cr_assert_lt(got, 4096);
    /* a 1 ms deadline on 4096 chunks passes before the last batch */
    send_fill(fd, 6, CFP_DENSITY_F32, "t:tiny", 5, 1, 4096, xz);
    got = expect_error(fd, 6, CFP_E_DEADLINE);
    cr_assert_lt(got, 4096);
    /* the connection still serves; the id of a finished request may be reused */
    send_fill(fd, 5, CFP_DENSITY_F32, "t:tiny", 5, 0, 2, xz);
    for (int i = 0; i < 3; i++) {
        unsigned t;
        uint8_t *p;
        cr_assert_geq(raw_frame(fd, &t, &p), 0);
        cr_assert_eq(t, i < 2 ? CFP_CHUNK : CFP_DONE);
        free(p);
    }
    /* a duplicate id of a request in flight is fatal */
    send_fill(fd, 7, CFP_DENSITY_F32, "t:tiny", 5, 0, 4096, xz);
    send_fill(fd, 7, CFP_DENSITY_F32, "t:tiny", 5, 0, 1, xz);
    for (;;) {
        unsigned t;
        uint8_t *p;
        long n = raw_frame(fd, &t, &p);
        cr_assert_geq(n, 0);
        int fin = t == CFP_ERROR;
        if (fin) cr_assert_eq(cfp_le16(p + 4), CFP_E_MALFORMED);
        free(p);
        if (fin) break;
    }
    close(fd);
    good_client(&s, NULL);
    char *log = srv_stop_ok(&s);
    assert_log(log, "request 6: deadline");
    assert_log(log, "request id 7 is already in flight");
    free(log);
}
