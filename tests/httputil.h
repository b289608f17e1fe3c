/* httputil.h - the tests' side of `serve --http` (test_maps.c, test_http.c): start the
 * server on a free loopback port, connect, read a whole answer. Criterion assertions. */
#ifndef CF_HTTPUTIL_H
#define CF_HTTPUTIL_H
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* runs `sh -c cmd` (a serve --http on 127.0.0.1:0) with standard error into log; its pid,
 * and in *port the port of its "listening on http://127.0.0.1:PORT/" line */
static inline pid_t http_server_start(const char *cmd, const char *log, int *port)
{
    int p[2];
    cr_assert_eq(pipe(p), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        dup2(p[1], 1);
        close(p[0]);
        FILE *e = freopen(log, "w", stderr);
        (void)e;
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    FILE *f = fdopen(p[0], "r");
    char line[256] = "";
    cr_assert_not_null(fgets(line, sizeof line, f), "the server printed no address");
    cr_assert_eq(sscanf(line, "listening on http://127.0.0.1:%d/", port), 1, "%s", line);
    fclose(f);
    return pid;
}

/* a connection to 127.0.0.1:port, every read bounded by 60 s; -1 when refused */
static inline int http_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    struct timeval tv = {60, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

/* reads the whole answer on fd: its status (0: none; -1: none and a reset), the body in
 * *body (malloc'd, NUL-terminated; may be NULL) and its length in *blen (may be NULL);
 * *reset (may be NULL): the connection ended with a reset rather than a FIN */
static inline int http_read_answer(int fd, char **body, size_t *blen, int *reset)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    cr_assert_not_null(buf);
    int rst = 0;
    for (;;) {
        if (n == cap) {
            char *nb = realloc(buf, cap *= 2);
            cr_assert_not_null(nb);
            buf = nb;
        }
        ssize_t k = recv(fd, buf + n, cap - n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) rst = 1;
        if (k <= 0) break;
        n += (size_t)k;
    }
    int code = 0;
    if (n > 12) sscanf(buf, "HTTP/1.1 %d", &code);
    else if (rst) code = -1;
    if (reset) *reset = rst;
    char *sep = NULL;
    for (size_t i = 0; i + 3 < n; i++)
        if (memcmp(buf + i, "\r\n\r\n", 4) == 0) {
            sep = buf + i + 4;
            break;
        }
    size_t bl = sep ? n - (size_t)(sep - buf) : 0;
    if (blen) *blen = bl;
    if (body) {
        *body = malloc(bl + 1);
        cr_assert_not_null(*body);
        if (sep) memcpy(*body, sep, bl);
        (*body)[bl] = 0;
    }
    free(buf);
    return code;
}
#endif
