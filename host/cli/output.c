/* output.c - what long-running commands share around their outputs: the writer thread
 * (a batch written while the next one fills), the progress line on a terminal, the
 * temporary file removed on SIGINT/SIGTERM/SIGHUP (no partial output ever appears under
 * the final name), and the shared secret of --token-file.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

int write_all(FILE *f, const void *p, size_t n) { return fwrite(p, 1, n, f) == n ? 0 : -1; }

static void *writer_main(void *arg)
{
    writer *wr = arg;
    wr->rc = write_all(wr->f, wr->p, wr->n);
    wr->err = errno;
    return NULL;
}
int writer_wait(writer *wr)
{
    if (wr->running) pthread_join(wr->th, NULL), wr->running = 0;
    if (wr->rc) errno = wr->err;
    return wr->rc;
}
int writer_start(writer *wr, FILE *f, const void *p, size_t n)
{
    if (writer_wait(wr) != 0) return -1;
    wr->f = f, wr->p = p, wr->n = n;
    if (pthread_create(&wr->th, NULL, writer_main, wr) == 0) wr->running = 1;
    else wr->rc = write_all(f, p, n), wr->err = errno;
    return 0;
}

double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
void progress_start(cli_progress *p, const char *what, const char *unit, int64_t total, int quiet)
{
    *p = (cli_progress){.what = what, .unit = unit, .total = total, .t0 = mono_s(), .on = !quiet && isatty(2)};
}
void progress_show(cli_progress *p, int64_t done)
{
    if (!p->on) return;
    double t = mono_s();
    if (done < p->total && t - p->last < 0.2) return;
    p->last = t;
    double el = t - p->t0, rate = el > 0 ? (double)done / el : 0;
    char eta[32] = "?";
    if (rate > 0) {
        long s = (long)((double)(p->total - done) / rate + 0.5);
        if (s >= 3600) snprintf(eta, sizeof eta, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
        else snprintf(eta, sizeof eta, "%ld:%02ld", s / 60, s % 60);
    }
    fprintf(stderr, "\r%s: %lld/%lld %s (%d%%), %.1f %s/s, ETA %s   ", p->what, (long long)done, (long long)p->total, p->unit,
            p->total ? (int)(100 * done / p->total) : 100, rate, p->unit, eta);
    p->shown = 1;
}
void progress_stage(void *ctx, const char *stage, int64_t done, int64_t total)
{
    cli_progress *p = ctx;
    if (!p->on) return;
    double t = mono_s();
    if (done < total && t - p->last < 0.2) return;
    p->last = t;
    fprintf(stderr, "\r%s: %s %d%%, %.1f s   ", p->what, stage, total > 0 ? (int)(100 * done / total) : 100, t - p->t0);
    p->shown = 1;
}
void progress_end(cli_progress *p)
{
    if (p->on && p->shown) fputc('\n', stderr);
    p->shown = 0;
}

/* the temporary files being written (an output and its palette): removed if the process
 * is interrupted, so that no partial file is ever left (a SIGKILL leaves the temporary,
 * never the target) */
static char pending_tmp[2][4096];
static void on_signal(int sig)
{
    for (int i = 0; i < 2; i++)
        if (pending_tmp[i][0]) unlink(pending_tmp[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}
/* adds path to the temporaries removed on a signal (two at most; unguard_tmp forgets them) */
void guard_tmp(const char *path)
{
    int i = pending_tmp[0][0] ? 1 : 0;
    snprintf(pending_tmp[i], sizeof pending_tmp[i], "%s", path);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    /* past a file-size limit (ulimit -f) a write fails with EFBIG and is reported as a
     * write error, the temporary removed, instead of the default SIGXFSZ core dump */
    signal(SIGXFSZ, SIG_IGN);
}
void unguard_tmp(void) { pending_tmp[0][0] = pending_tmp[1][0] = 0; }

/* a shared secret: the first line of path, 1 to CF_TOKEN_MAX bytes (trailing
 * spaces and line ends dropped); 0, or -1 with err set */
#define CF_TOKEN_MAX 256
int read_token(const char *path, char *token, cf_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err->message, sizeof err->message, "%s: %s", path, strerror(errno));
        err->status = CF_ERR_IO;
        return -1;
    }
    char line[CF_TOKEN_MAX + 3];
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    size_t l = ok ? strlen(line) : 0;
    int full = l > 0 && line[l - 1] == '\n';
    while (l && (line[l - 1] == '\n' || line[l - 1] == '\r' || line[l - 1] == ' ' || line[l - 1] == '\t')) line[--l] = 0;
    if (l == 0 || l > CF_TOKEN_MAX || (!full && strlen(line) > CF_TOKEN_MAX)) {
        snprintf(err->message, sizeof err->message, "%s: the token (first line) must have 1 to %d bytes", path, CF_TOKEN_MAX);
        err->status = CF_ERR_ARG;
        return -1;
    }
    memcpy(token, line, l + 1);
    return 0;
}

/* bytes as text: "394.2 GB", "1.5 MB", "512 bytes" (decimal units) */
const char *fmt_bytes(char *buf, size_t cap, double b)
{
    if (b >= 1e12) snprintf(buf, cap, "%.1f TB", b / 1e12);
    else if (b >= 1e9) snprintf(buf, cap, "%.1f GB", b / 1e9);
    else if (b >= 1e6) snprintf(buf, cap, "%.1f MB", b / 1e6);
    else if (b >= 1e3) snprintf(buf, cap, "%.1f kB", b / 1e3);
    else snprintf(buf, cap, "%.0f bytes", b);
    return buf;
}

/* the bytes an unprivileged writer may still put on the file system of path's folder
 * (statvfs); 0, or -1 where it cannot be told */
int free_space(const char *path, double *avail)
{
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) return -1;
    char *slash = strrchr(dir, '/');
    if (!slash) strcpy(dir, ".");
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
    struct statvfs sv;
    if (statvfs(dir, &sv) != 0) return -1;
    *avail = (double)sv.f_bavail * (double)sv.f_frsize;
    return 0;
}
