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
