/* fuzz_args.c - libFuzzer harness: the command line of host/cli/.
 *
 * the sources of host/cli/ are linked into this harness (fuzz/build.sh, with main renamed cli_main by
 * -Dmain=cli_main) so that the CLI's own parsers (opts.c: parse_chunks, parse_long) can
 * vet the input. The first input byte chooses the command; the rest, split at 0x00,
 * are the arguments. Byte % 16 picks one of
 *   sample fill check render slice plan emit info nodes devices
 * and 10..15 take the first argument as the command (refused when it is one of
 * those ten, so that the safety scheme below cannot be bypassed).
 *
 * Safety scheme (keeps every execution tiny, writes only inside a scratch folder):
 *   - At start the harness makes /tmp/chunkfill-fuzz-args-XXXXXX/{pack,work}: pack is
 *     a tiny pack (minecraft:overworld settings of height 16, min_y 0, a constant
 *     final density, one noise and a noise function t:g), work is the working
 *     directory of cli_main (entered for the call only, so that libFuzzer's relative
 *     corpus paths keep working; without -artifact_prefix the harness adds the
 *     starting directory), emptied after every call, the folder removed at exit.
 *   - Inputs with an argument that starts with '/' or contains ".." are refused
 *     (return -1): fuzzed paths stay inside work/ (no /dev/zero, no real files).
 *   - Commands that read a pack get "--pack <tiny pack>" first (so the embedded
 *     default pack, which is larger, is never compiled).
 *   - fill:   "--device cpu --threads 1 --max-chunks 2" forced last (later options win;
 *             if a dangling fuzzed option swallows one of them, the rest is an error).
 *   - render: "--device cpu --threads 1" forced last, and inputs whose --area values
 *             (as opts.c's parse_chunks reads them) exceed 64 x 64 blocks are refused.
 *   - slice:  "--device cpu" forced last; --span values over 256 blocks are refused.
 *   - check:  "--batch 0" forced last, which makes every check a usage error (or
 *             --help): only its parser runs, never a device.
 *   - devices: only with at least one argument (help or a usage error); never lists.
 *   - stdin and stdout are /dev/null (freopen); the CLI's stderr is /dev/null too, by
 *     assigning glibc's stderr variable rather than freopen: freopen(stderr) would
 *     also silence libFuzzer's statistics and crash reports (they keep the original
 *     stream). The signal handlers the CLI installs while writing a file are put back
 *     after every call, so libFuzzer keeps its own. FUZZ_VERBOSE=1 keeps the CLI's
 *     standard error and prints every command line with its exit status.
 * Checks: cli_main returns 0, 1 or 2; the sanitizers and LeakSanitizer do the rest.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

int cli_main(int argc, char **argv); /* host/cli/main.c, built with -Dmain=cli_main */

static const char *const commands[10] = {"sample", "fill",  "check", "render", "slice",
                                         "plan",   "emit",  "info",  "nodes",  "devices"};
static char base[64], packdir[128], workdir[128];
static FILE *harness_err; /* the real standard error (libFuzzer's) */
static int home_fd = -1;  /* the directory libFuzzer started in */
static int verbose;       /* FUZZ_VERBOSE=1: print every command line and its exit status */

#define ARGS_CHECK(cond, ...)                                                                                          \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(harness_err, "fuzz check failed (%s:%d): %s: ", __FILE__, __LINE__, #cond);                        \
            fprintf(harness_err, __VA_ARGS__);                                                                         \
            fputc('\n', harness_err);                                                                                  \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

static const char *const pack_files[][2] = {
    {"data/minecraft/worldgen/noise_settings/overworld.json",
     "{\"noise\": {\"min_y\": 0, \"height\": 16}, \"sea_level\": 8, \"legacy_random_source\": false,\n"
     " \"noise_router\": {\"final_density\": \"t:f\", \"continents\": \"t:g\"}}\n"},
    {"data/t/worldgen/density_function/f.json", "0.5\n"},
    {"data/t/worldgen/density_function/g.json",
     "{\"type\": \"minecraft:noise\", \"noise\": \"t:n\", \"xz_scale\": 1.0, \"y_scale\": 1.0}\n"},
    {"data/t/worldgen/noise/n.json", "{\"base_amplitude\": 1.0, \"base_octave\": -3, \"octave_count\": 2}\n"},
};

static void make_dirs_for(const char *path)
{
    char p[512];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0700);
            *s = '/';
        }
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void teardown(void)
{
    if (base[0]) nftw(base, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* crash artifacts go to the starting directory even when a crash happens inside
 * cli_main (whose working directory is work/): add -artifact_prefix=<cwd>/ */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    for (int i = 1; i < *argc; i++)
        if (strncmp((*argv)[i], "-artifact_prefix=", 17) == 0 || strncmp((*argv)[i], "-exact_artifact_path=", 21) == 0)
            return 0;
    static char prefix[4096 + 32];
    static char *args[1024];
    char cwd[4096];
    if (*argc >= 1023 || !getcwd(cwd, sizeof cwd)) return 0;
    snprintf(prefix, sizeof prefix, "-artifact_prefix=%s/", cwd);
    args[0] = (*argv)[0];
    args[1] = prefix;
    for (int i = 1; i < *argc; i++) args[i + 1] = (*argv)[i];
    args[*argc + 1] = NULL;
    *argc += 1;
    *argv = args;
    return 0;
}

static void setup(void)
{
    harness_err = stderr;
    verbose = getenv("FUZZ_VERBOSE") && atoi(getenv("FUZZ_VERBOSE")) > 0;
    snprintf(base, sizeof base, "%s", "/tmp/chunkfill-fuzz-args-XXXXXX");
    ARGS_CHECK(mkdtemp(base) != NULL, "mkdtemp failed");
    snprintf(packdir, sizeof packdir, "%s/pack", base);
    snprintf(workdir, sizeof workdir, "%s/work", base);
    for (size_t i = 0; i < sizeof pack_files / sizeof pack_files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", packdir, pack_files[i][0]);
        make_dirs_for(path);
        FILE *f = fopen(path, "w");
        ARGS_CHECK(f && fputs(pack_files[i][1], f) >= 0 && fclose(f) == 0, "cannot write %s", path);
    }
    ARGS_CHECK(mkdir(workdir, 0700) == 0, "cannot make %s", workdir);
    home_fd = open(".", O_RDONLY | O_DIRECTORY);
    ARGS_CHECK(home_fd >= 0, "cannot open the current directory");
    atexit(teardown);
    ARGS_CHECK(freopen("/dev/null", "r", stdin) != NULL, "freopen stdin");
    ARGS_CHECK(freopen("/dev/null", "w", stdout) != NULL, "freopen stdout");
    if (verbose) return; /* FUZZ_VERBOSE=1: the CLI's messages stay visible */
    FILE *null_err = fopen("/dev/null", "w");
    ARGS_CHECK(null_err != NULL, "cannot open /dev/null");
    stderr = null_err; /* glibc: stderr is an assignable variable; see the header */
}

/* empties the working directory (the current one): whatever the last command wrote */
static void clean_work(void)
{
    DIR *d = opendir(".");
    ARGS_CHECK(d != NULL, "cannot read the working directory");
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) remove(e->d_name);
    closedir(d);
}

/* 1 when an --area value is one cmd_render would accept and it is over 64 x 64 blocks */
static int area_too_big(const char *v)
{
    long r[4];
    if (parse_chunks(v, r) < 0 || !strchr(v, ':')) return 0; /* the CLI refuses it */
    int64_t nx = (int64_t)r[2] - r[0] + 1, nz = (int64_t)r[3] - r[1] + 1;
    return nx > 0 && nz > 0 && nx * nz > 64 * 64;
}

/* 1 when a --span value is one cmd_slice would accept and it is over 256 blocks */
static int span_too_big(const char *v)
{
    char sb[64];
    long a0, a1, lim = (long)CF_MAX_CHUNK * 16;
    if (strlen(v) >= sizeof sb) return 0;
    strcpy(sb, v);
    char *colon = strchr(sb, ':');
    if (!colon) return 0;
    *colon = 0;
    if (parse_long(sb, -lim, lim + 15, &a0) < 0 || parse_long(colon + 1, -lim, lim + 15, &a1) < 0) return 0;
    return a1 >= a0 && a1 - a0 + 1 > 256;
}

enum { MAXARGS = 256 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!base[0]) setup();
    if (size == 0) return -1;
    char *buf = malloc(size);
    ARGS_CHECK(buf != NULL, "out of memory in the harness");
    memcpy(buf, data + 1, size - 1);
    buf[size - 1] = 0;
    char *fz[MAXARGS];
    int nfz = 0;
    if (size > 1) { /* k separators make k + 1 arguments (the last one may be empty) */
        fz[nfz++] = buf;
        for (size_t i = 0; i < size - 1; i++)
            if (buf[i] == 0) {
                if (nfz == MAXARGS) return free(buf), -1;
                fz[nfz++] = buf + i + 1;
            }
    }
    for (int i = 0; i < nfz; i++)
        if (fz[i][0] == '/' || strstr(fz[i], "..")) return free(buf), -1;

    const char *cmd = NULL;
    int sel = data[0] % 16;
    char **rest = fz;
    int nrest = nfz;
    if (sel < 10) {
        cmd = commands[sel];
    } else if (nfz > 0) {
        for (int k = 0; k < 10; k++)
            if (strcmp(fz[0], commands[k]) == 0) return free(buf), -1;
        cmd = fz[0];
        rest = fz + 1;
        nrest = nfz - 1;
    }

    const char *pre[2] = {0}, *post[6] = {0};
    int npre = 0, npost = 0;
    if (cmd && strcmp(cmd, "nodes") != 0 && strcmp(cmd, "devices") != 0 && sel < 10) {
        pre[npre++] = "--pack";
        pre[npre++] = packdir;
    }
    if (sel == 1) { /* fill */
        static const char *const p[] = {"--device", "cpu", "--threads", "1", "--max-chunks", "2"};
        for (int k = 0; k < 6; k++) post[npost++] = p[k];
    } else if (sel == 2) { /* check */
        post[npost++] = "--batch";
        post[npost++] = "0";
    } else if (sel == 3) { /* render */
        static const char *const p[] = {"--device", "cpu", "--threads", "1"};
        for (int k = 0; k < 4; k++) post[npost++] = p[k];
        for (int k = 0; k + 1 < nrest; k++)
            if (strcmp(rest[k], "--area") == 0 && area_too_big(rest[k + 1])) return free(buf), -1;
    } else if (sel == 4) { /* slice */
        post[npost++] = "--device";
        post[npost++] = "cpu";
        for (int k = 0; k + 1 < nrest; k++)
            if (strcmp(rest[k], "--span") == 0 && span_too_big(rest[k + 1])) return free(buf), -1;
    } else if (sel == 9 && nrest == 0) { /* devices without arguments would list the devices */
        return free(buf), -1;
    }

    char *argv[2 + 2 + MAXARGS + 6 + 1];
    int argc = 0;
    argv[argc++] = (char *)"chunkfill";
    if (cmd) argv[argc++] = (char *)cmd;
    for (int k = 0; k < npre; k++) argv[argc++] = (char *)pre[k];
    for (int k = 0; k < nrest; k++) argv[argc++] = rest[k];
    for (int k = 0; k < npost; k++) argv[argc++] = (char *)post[k];
    argv[argc] = NULL;

    struct sigaction old[3];
    static const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
    for (int k = 0; k < 3; k++) sigaction(sigs[k], NULL, &old[k]);
    if (verbose) {
        fprintf(harness_err, "fuzz_args:");
        for (int k = 0; k < argc; k++) fprintf(harness_err, " '%s'", argv[k]);
        fputc('\n', harness_err);
    }
    ARGS_CHECK(chdir(workdir) == 0, "cannot enter %s", workdir);
    int rc = cli_main(argc, argv);
    for (int k = 0; k < 3; k++) sigaction(sigs[k], &old[k], NULL);
    fflush(stdout);
    fflush(stderr);
    clean_work();
    ARGS_CHECK(fchdir(home_fd) == 0, "cannot go back to the starting directory");
    if (verbose) fprintf(harness_err, "fuzz_args: exit status %d\n", rc);
    ARGS_CHECK(rc == 0 || rc == 1 || rc == 2, "cli_main returned %d (expected 0, 1 or 2) for command %s", rc,
               cmd ? cmd : "(none)");
    free(buf);
    return 0;
}
