/* test_robust.c - failures handled in the open: device faults (injected through
 * CHUNKFILL_FAULT in this test build) fall back to the CPU under --device auto
 * and fail cleanly, without a file, under an explicit device; a fill over the
 * memory limit is refused with the figures; a NaN density is reported with its
 * position; an interrupted fill leaves no file at the target, nor does a write that
 * fails while the next batch fills. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static char dir[64];
static void setup(void)
{
    tmp_dir(dir, sizeof dir, "robust");
}
static void teardown(void) { tmp_rm(dir); }
TestSuite(robust, .init = setup, .fini = teardown, .timeout = 300);

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}
static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}
static int same_files(const char *a, const char *b)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
    return system(cmd) == 0;
}

Test(robust, device_fails_mid_fill_auto_falls_back)
{
    char a[128], b[128], args[512], err[4096];
    snprintf(a, sizeof a, "%s/a.npy", dir);
    snprintf(b, sizeof b, "%s/b.npy", dir);
    snprintf(args, sizeof args, "fill --seed 3 --chunks 0,0:3,0 --device auto --batch 2 --quiet --out %s", a);
    cr_assert_eq(cli_run("CHUNKFILL_FAULT=launch:1", args, NULL, 0, err, sizeof err), 0, "%s", err);
    cr_assert(strstr(err, "the device failed mid-fill") && strstr(err, "CL_OUT_OF_RESOURCES"), "%s", err);
    cr_assert_eq(lines(err), 1, "%s", err);
    snprintf(args, sizeof args, "fill --seed 3 --chunks 0,0:3,0 --out %s", b);
    cr_assert_eq(cli_run("", args, NULL, 0, err, sizeof err), 0, "%s", err);
    cr_assert(same_files(a, b), "the fallback fill differs from the CPU fill");
}
Test(robust, device_fails_explicit_device_fails_cleanly)
{
    char a[128], args[512], err[4096];
    snprintf(a, sizeof a, "%s/a.npy", dir);
    snprintf(args, sizeof args, "fill --seed 3 --chunks 0,0:3,0 --device opencl --batch 2 --out %s", a);
    cr_assert_eq(cli_run("CHUNKFILL_FAULT=launch:1", args, NULL, 0, err, sizeof err), 1);
    cr_assert(strstr(err, "CL_OUT_OF_RESOURCES"), "%s", err);
    cr_assert_eq(lines(err), 1, "%s", err);
    cr_assert(!exists(a), "a partial file was left");
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls %s | grep -v stderr.txt)\"", dir);
    cr_assert_eq(system(cmd), 0, "a temporary file was left");
}
Test(robust, device_build_and_allocation_faults)
{
    char a[128], b[128], args[512], err[4096];
    snprintf(a, sizeof a, "%s/a.npy", dir);
    snprintf(b, sizeof b, "%s/b.npy", dir);
    snprintf(args, sizeof args, "fill --seed 4 --chunks 1,1 --device auto --out %s", a);
    cr_assert_eq(cli_run("CHUNKFILL_FAULT=build", args, NULL, 0, err, sizeof err), 0, "%s", err);
    cr_assert(strstr(err, "no usable OpenCL device") && strstr(err, "CL_BUILD_PROGRAM_FAILURE"), "%s", err);
    snprintf(args, sizeof args, "fill --seed 4 --chunks 1,1 --out %s", b);
    cr_assert_eq(cli_run("", args, NULL, 0, err, sizeof err), 0);
    cr_assert(same_files(a, b));
    remove(a);
    snprintf(args, sizeof args, "fill --seed 4 --chunks 1,1 --device opencl --out %s", a);
    cr_assert_eq(cli_run("CHUNKFILL_FAULT=alloc", args, NULL, 0, err, sizeof err), 1);
    cr_assert(strstr(err, "CL_MEM_OBJECT_ALLOCATION_FAILURE"), "%s", err);
    cr_assert(!exists(a));
}
Test(robust, fill_over_memory_limit_is_refused_with_the_figure)
{
    char a[128], args[512], err[4096];
    snprintf(a, sizeof a, "%s/a.npy", dir);
    /* a fill context of the default pack is 0.3 MiB (the block stage's buffers hold a window of rows) */
    snprintf(args, sizeof args, "fill --seed 1 --chunks 0,0 --threads 2 --max-memory 200000 --out %s", a);
    cr_assert_eq(cli_run("", args, NULL, 0, err, sizeof err), 1);
    cr_assert(strstr(err, "minecraft:overworld: a fill needs") && strstr(err, "MiB per thread") && strstr(err, "over the limit of 0.2 MiB"),
              "%s", err);
    cr_assert(!exists(a));
}
Test(robust, nan_density_is_reported_with_its_position)
{
    char cmd[1024], a[128], args[1024], err[4096];
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/p/data/t/worldgen/noise_settings %s/p/data/t/worldgen/density_function && "
             "echo '{\"noise\": {\"min_y\": 0, \"height\": 16}, \"noise_router\": {\"final_density\": \"t:f\"}}' "
             "> %s/p/data/t/worldgen/noise_settings/s.json && "
             "echo '{\"type\": \"minecraft:log\", \"input\": {\"type\": \"minecraft:gradient\", \"axis\": \"y\", "
             "\"from_coordinate\": 0, \"to_coordinate\": 16, \"from_value\": 1, \"to_value\": -1}}' "
             "> %s/p/data/t/worldgen/density_function/f.json",
             dir, dir, dir, dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(a, sizeof a, "%s/a.npy", dir);
    snprintf(args, sizeof args, "fill --pack %s/p --settings t:s --seed 1 --chunks 0,0 --quiet --out %s", dir, a);
    cr_assert_eq(cli_run("", args, NULL, 0, err, sizeof err), 0, "%s", err);
    /* log of the gradient is NaN where the gradient is negative: y > 8, first at y 9 */
    cr_assert(strstr(err, "warning: the density is NaN at x 0 y 9 z 0"), "%s", err);
    cr_assert_eq(lines(err), 1, "%s", err);
}
Test(robust, interrupted_fill_leaves_no_file)
{
    char a[128], cmd[1024];
    snprintf(a, sizeof a, "%s/big.npy", dir);
    for (int sig = 0; sig < 2; sig++) {
        pid_t pid = fork();
        cr_assert_geq(pid, 0);
        if (pid == 0) {
            freopen("/dev/null", "w", stderr);
            execl(CF_BINARY, CF_BINARY, "fill", "--seed", "1", "--chunks", "0,0:63,63", "--threads", "1", "--out", a, (char *)NULL);
            _exit(127);
        }
        usleep(700000); /* mid-fill: 4096 chunks take seconds */
        kill(pid, sig == 0 ? SIGTERM : SIGINT);
        int st;
        waitpid(pid, &st, 0);
        cr_assert(WIFSIGNALED(st), "the fill was not interrupted");
        cr_assert(!exists(a), "a partial file at the target");
        snprintf(cmd, sizeof cmd, "test -z \"$(ls %s)\"", dir);
        cr_assert_eq(system(cmd), 0, "the temporary file was left after a signal");
    }
    /* SIGKILL cannot be caught: the target still never appears */
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stderr);
        execl(CF_BINARY, CF_BINARY, "fill", "--seed", "1", "--chunks", "0,0:63,63", "--threads", "1", "--out", a, (char *)NULL);
        _exit(127);
    }
    usleep(700000);
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    cr_assert(!exists(a), "a partial file at the target after SIGKILL");
}

/* the fill writes a batch while the next one fills (the CLI's writer, host/cli/output.c): a write that fails
 * there (a file-size limit of 64 KiB against 40 chunks, two batches of a thread) ends the fill with one
 * line naming the file, no file at the target and no temporary left */
Test(robust, failed_write_leaves_no_file)
{
    char a[128], args[512], err[4096], cmd[256];
    snprintf(a, sizeof a, "%s/full.npy", dir);
    for (int blocks = 0; blocks < 2; blocks++) {
        snprintf(args, sizeof args, "fill --seed 1 --chunks 0,0:39,0 --threads 1 --quiet%s --out %s", blocks ? " --blocks" : "", a);
        cr_assert_eq(cli_run("ulimit -f 128;", args, NULL, 0, err, sizeof err), 1, "%s", err);
        cr_assert(strstr(err, a) && strstr(err, "write error: File too large"), "%s", err);
        cr_assert_eq(lines(err), 1, "%s", err);
        cr_assert(!exists(a), "a partial file at the target");
        snprintf(cmd, sizeof cmd, "test -z \"$(ls %s)\"", dir);
        cr_assert_eq(system(cmd), 0, "the temporary file was left after a failed write");
    }
}

/* ---------------------------------------------------------------- what is at --out (issue 32, item 2)
 * Every output goes through one checked writer (host/base/outfile.c): a regular file or nothing is
 * replaced (temporary + rename); a symlink to a regular file is written through (the link stays, the
 * file it names gets the output); a FIFO, a character device, a directory or a symlink to nothing is
 * refused with one line naming the path and what it is, and nothing new appears (no temporary, no
 * palette). Before, each became a regular file (exit 0). */
static const struct {
    const char *name, *args; /* args: %s is the output (each %s: render --heights writes OUT.png after OUT) */
    int folder;              /* 1: --out is a folder of outputs */
} writers[] = {
    {"fill", "fill --pack " CF_SOURCE_DIR "/tests/packs/tiny --settings t:tiny --seed 5 --chunks 0,0 --quiet --out %s", 0},
    {"fill --blocks", "fill --seed 1 --blocks --stage noise --chunks 0,0 --threads 1 --quiet --out %s", 0},
    {"fill --biomes", "fill --biomes --seed 1 --chunks 0,0 --out %s", 0},
    {"biome --grid", "biome --seed 1 --grid 0,0:3,3 --qy 16 --quiet --out %s", 0},
    {"render", "render --pack " CF_SOURCE_DIR "/tests/packs/tiny --settings t:tiny --seed 5 --area 0,0:15,15 --quiet --out %s", 0},
    {"render --heights", "render --pack " CF_SOURCE_DIR "/tests/packs/tiny --settings t:tiny --seed 5 --area 0,0:15,15 --quiet "
                         "--out %s.png --heights %s", 0},
    {"columns", "columns --seed 1 --area 0,0:3,3 --threads 1 --quiet --out %s", 0},
    {"tiles", "tiles --pack " CF_SOURCE_DIR "/tests/packs/tiny --settings t:tiny --seed 5 --area 0,0:15,15 --quiet --out %s", 1},
    {"pregen", "pregen --seed 5 --area 0,0:15,15 --threads 1 --quiet --out %s", 1},
    {"structures", "structures --pack " CF_SOURCE_DIR "/packs/default --seed 0 --area 0,0:15,15 --out %s", 0},
};

/* the names in dir, sorted, one a line */
static void listing(char *out, size_t n)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls -A '%s'", dir);
    char *s = slurp_cmd(cmd);
    cr_assert_not_null(s);
    snprintf(out, n, "%s", s);
    free(s);
}

/* runs writer w at out (expecting a refusal of `shown`, naming `what`); checks the one line and that
 * dir is as before */
static void expect_refused_at(int w, const char *out, const char *shown, const char *what)
{
    char args[1024], err[4096], before[2048], after[2048];
    listing(before, sizeof before);
    snprintf(args, sizeof args, writers[w].args, out, out);
    int rc = cli_run(NULL, args, NULL, 0, err, sizeof err);
    cr_expect_eq(rc, 1, "%s at %s: exit %d: %s", writers[w].name, out, rc, err);
    cr_expect(strstr(err, shown) && strstr(err, what), "%s at %s: the line lacks the path or \"%s\": %s", writers[w].name, out, what, err);
    cr_expect_eq(lines(err), 1, "%s at %s: %s", writers[w].name, out, err);
    listing(after, sizeof after);
    cr_expect_str_eq(after, before, "%s at %s: something new was left", writers[w].name, out);
}
static void expect_refused(int w, const char *out, const char *what) { expect_refused_at(w, out, out, what); }

Test(robust, outputs_refuse_fifos_devices_folders_and_write_through_symlinks)
{
    char fifo[128], folder[128], dev[128], devlink[128], dangling[128], file[128], cmd[512];
    snprintf(fifo, sizeof fifo, "%s/fifo.out", dir);
    snprintf(folder, sizeof folder, "%s/folder.out", dir);
    snprintf(dev, sizeof dev, "%s/null.out", dir);
    snprintf(devlink, sizeof devlink, "%s/devlink.out", dir);
    snprintf(dangling, sizeof dangling, "%s/dangling.out", dir);
    snprintf(file, sizeof file, "%s/file.txt", dir);
    snprintf(cmd, sizeof cmd, "cd '%s' && mkfifo fifo.out && mkdir folder.out && ln -s /dev/null devlink.out && ln -s gone dangling.out", dir);
    cr_assert_eq(system(cmd), 0);
    /* a character device of our own where we may make one (root), else only the link to /dev/null */
    snprintf(cmd, sizeof cmd, "mknod '%s' c 1 3 2>/dev/null", dev);
    int have_dev = system(cmd) == 0;
    for (int w = 0; w < (int)(sizeof writers / sizeof writers[0]); w++) {
        expect_refused(w, fifo, "a FIFO");
        expect_refused(w, devlink, "a character device");
        if (have_dev) expect_refused(w, dev, "a character device");
        if (writers[w].folder) {
            tmp_put(dir, "file.txt", "keep\n");
            expect_refused(w, file, "a regular file");
            unlink(file);
            continue;
        }
        expect_refused(w, folder, "a directory");
        expect_refused(w, dangling, "a symlink to nothing");
        /* a symlink to a regular file: written through, the link kept */
        char link[128], args[1024], err[4096];
        snprintf(link, sizeof link, "%s/link.out", dir);
        tmp_put(dir, "file.txt", "old\n");
        cr_assert_eq(symlink("file.txt", link), 0);
        snprintf(args, sizeof args, writers[w].args, link, link);
        cr_expect_eq(cli_run(NULL, args, NULL, 0, err, sizeof err), 0, "%s through a symlink: %s", writers[w].name, err);
        struct stat st;
        cr_expect(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "%s: the symlink was replaced", writers[w].name);
        size_t n = 0;
        char *got = slurp_if(file, &n);
        int jsonl = strcmp(writers[w].name, "structures") == 0; /* JSON lines, maybe none in the area */
        cr_expect(got && (jsonl ? !(n == 4 && memcmp(got, "old\n", 4) == 0)
                                : n > 8 && (memcmp(got, "\x93NUMPY", 6) == 0 || memcmp(got, "\x89PNG", 4) == 0)),
                  "%s: the file the link names did not get the output", writers[w].name);
        free(got);
        snprintf(cmd, sizeof cmd, "cd '%s' && rm -f link.out* file.txt", dir);
        cr_assert_eq(system(cmd), 0);
    }
    snprintf(cmd, sizeof cmd, "test -p '%s' && test -d '%s' && test -L '%s'", fifo, folder, devlink);
    cr_expect_eq(system(cmd), 0, "a FIFO, folder or link was replaced");
}

/* fill --blocks, columns and biome --grid write OUT.npy and OUT.palette.json: a palette that cannot
 * be written (a folder there) leaves neither new (before, the .npy was renamed into place first) */
Test(robust, a_palette_that_cannot_be_written_leaves_no_npy)
{
    const int with_palette[] = {1, 3, 6}; /* writers[]: fill --blocks, biome --grid, columns */
    char out[128], pal[128];
    snprintf(out, sizeof out, "%s/p.npy", dir);
    snprintf(pal, sizeof pal, "%s/p.palette.json", dir);
    cr_assert_eq(mkdir(pal, 0777), 0);
    for (int i = 0; i < 3; i++) {
        expect_refused_at(with_palette[i], out, pal, "a directory");
        cr_expect(!exists(out), "%s: a new .npy beside a palette that failed", writers[with_palette[i]].name);
    }
}
