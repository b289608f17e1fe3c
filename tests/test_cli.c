/* test_cli.c - the command line contract: output format, exit codes, one-line errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

/* temporary names are unique per call: tests run in parallel (and the plain and
 * sanitizer suites may run at once), so no two may share a file */
static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

Test(cli, sample_default_pack)
{
    char out[4096], err[4096];
    int rc = cli_run(NULL, "sample --seed 42 --function router:final_density --at 0,64,0 --at -100,-40,77", out, sizeof out, err, sizeof err);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert_eq(lines(out), 2);
    int x, y, z;
    double v;
    cr_assert_eq(sscanf(out, "%d %d %d %lf", &x, &y, &z, &v), 4);
    cr_assert(x == 0 && y == 64 && z == 0);
}
Test(cli, text_seed_is_its_java_hash)
{
    /* "hello".hashCode() == 99162322 */
    char a[4096], b[4096], err[4096];
    cr_assert_eq(cli_run(NULL, "sample --seed hello --function router:final_density --at 5,70,5", a, sizeof a, err, sizeof err), 0);
    cr_assert_eq(cli_run(NULL, "sample --seed 99162322 --function router:final_density --at 5,70,5", b, sizeof b, err, sizeof err), 0);
    cr_assert_str_eq(a, b);
}
Test(cli, points_file)
{
    const char *pf = tmp_name("/tmp/cf-cli-points-%d.txt");
    FILE *f = fopen(pf, "w");
    fputs("# x y z\n1 2 3\n\n-4 5 -6  # a comment\n", f);
    fclose(f);
    char out[4096], err[4096], args[1024];
    snprintf(args, sizeof args, "sample --seed 1 --function router:final_density --points %s", pf);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert_eq(lines(out), 2);
    cr_assert(strncmp(out, "1 2 3 ", 6) == 0);
}
Test(cli, bad_points_file_names_the_line)
{
    const char *pf = tmp_name("/tmp/cf-cli-points-%d.txt");
    FILE *f = fopen(pf, "w");
    fputs("1 2 3\n4 five 6\n", f);
    fclose(f);
    char out[4096], err[4096], args[1024], want[600];
    snprintf(args, sizeof args, "sample --seed 1 --function router:final_density --points %s", pf);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 1);
    snprintf(want, sizeof want, "%s:2: expected three integers", pf);
    cr_assert(strstr(err, want), "%s", err);
    cr_assert_eq(lines(err), 1);
    cr_assert_eq(out[0], 0);
}
Test(cli, usage_errors_exit_2)
{
    char out[4096], err[4096];
    cr_assert_eq(cli_run(NULL, "sample --function router:final_density --at 0,0,0", out, sizeof out, err, sizeof err), 2);
    cr_assert(strstr(err, "--seed is required"));
    cr_assert_eq(cli_run(NULL, "sample --seed 1 --function x --at 0,0", out, sizeof out, err, sizeof err), 2);
    cr_assert_eq(cli_run(NULL, "sample --seed 1 --function x --at 0,0,99999999999", out, sizeof out, err, sizeof err), 2);
    cr_assert_eq(cli_run(NULL, "sample --seed 1 --function x --bogus", out, sizeof out, err, sizeof err), 2);
    cr_assert_eq(cli_run(NULL, "frobnicate", out, sizeof out, err, sizeof err), 2);
}
Test(cli, input_errors_are_one_line)
{
    char out[4096], err[4096];
    cr_assert_eq(cli_run(NULL, "sample --pack /nonexistent --seed 1 --function router:final_density --at 0,0,0", out, sizeof out, err, sizeof err), 1);
    cr_assert_eq(lines(err), 1, "%s", err);
    cr_assert(strstr(err, "/nonexistent: cannot open pack"));
    cr_assert_eq(cli_run(NULL, "sample --seed 1 --function minecraft:nope --at 0,0,0", out, sizeof out, err, sizeof err), 1);
    cr_assert_eq(lines(err), 1, "%s", err);
    cr_assert(strstr(err, "unresolved reference to density function \"minecraft:nope\""), "%s", err);
}
Test(cli, help_everywhere)
{
    char out[8192], err[4096];
    cr_assert_eq(cli_run(NULL, "--help", out, sizeof out, err, sizeof err), 0);
    cr_assert(strstr(out, "sample"));
    cr_assert_eq(cli_run(NULL, "sample --help", out, sizeof out, err, sizeof err), 0);
    cr_assert(strstr(out, "--points FILE"));
    cr_assert_eq(cli_run(NULL, "nodes --help", out, sizeof out, err, sizeof err), 0);
    cr_assert_eq(cli_run(NULL, "info --help", out, sizeof out, err, sizeof err), 0);
}
Test(cli, nodes_lists_every_kind_of_every_front_end)
{
    static char out[65536], err[4096];
    cr_assert_eq(cli_run(NULL, "nodes", out, sizeof out, err, sizeof err), 0);
    cr_assert_eq(lines(out), 2 * (44 + 29 + 43 + 16 /* hytale-v2 */ + 7 /* hytale legacy */ + 35 /* mc121 */ + 14));
    const char *must[] = {"old_blended_noise", "find_top_surface", "end_outer_islands", "interval_select", "truncate", "pow",
                          "libnoise:Perlin", "libnoise:Turbulence", "libnoise:terrain", "hytale:CellNoise2D", "hytale:FastGradientWarp",
                          "hytale:external", "hytale:Rotator", "hytale:external-map", "hytale:PositionsCellNoise", "mc121:flat_cache", "mc121:weird_scaled_sampler", "mc121:interval_select", "mc121:y_clamped_gradient",
                          "iris:cng", "iris:rows", "iris:layer", "iris:generator", "iris:interpolator", "iris:cellularize", "iris:cellgen",
                          "iris:source-cng", "iris:expr-op", "iris:expr-call", "iris:image", "iris:constant", "iris:group",
                          "iris:height"};
    for (size_t i = 0; i < sizeof must / sizeof *must; i++) cr_assert(strstr(out, must[i]), "%s missing", must[i]);
}
Test(cli, info_prints_the_graph)
{
    char out[8192], err[4096];
    cr_assert_eq(cli_run(NULL, "info", out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert(strstr(out, "nodes:") && strstr(out, "output router:final_density"), "%s", out);
}

/* fill and check show progress (done/total, chunks/s, ETA) on a terminal only, never with
 * --quiet; the terminal is a pseudo-terminal made by script(1) (util-linux) */
static int run_tty(const char *args, char *out, size_t n)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "script -qec \"'%s' %s\" /dev/null", CF_BINARY, args);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t len = fread(out, 1, n - 1, p);
    out[len] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
Test(cli, progress_on_a_terminal_only)
{
    char out[8192], err[4096], args[1024];
    const char *f1 = tmp_name("/tmp/cf-prog-%d.npy");
    snprintf(args, sizeof args, "fill --seed 3 --chunks 0,0:1,1 --out %s", f1);
    cr_assert_eq(run_tty(args, out, sizeof out), 0, "%s", out);
    cr_assert(strstr(out, "\rfill: 4/4 chunks (100%), "), "no progress line on a terminal: '%s'", out);
    cr_assert(strstr(out, " chunks/s, ETA 0:00"), "'%s'", out);
    snprintf(args, sizeof args, "fill --quiet --seed 3 --chunks 0,0:1,1 --out %s", f1);
    cr_assert_eq(run_tty(args, out, sizeof out), 0, "%s", out);
    cr_assert_null(strstr(out, "fill:"), "--quiet printed '%s'", out);
    snprintf(args, sizeof args, "fill --seed 3 --chunks 0,0:1,1 --out %s", f1);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err); /* not a terminal: silent */
    cr_assert_eq(err[0], 0, "stderr not a terminal, yet: '%s'", err);
    remove(f1);
}
