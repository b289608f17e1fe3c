/* test_cli.c - the command line contract: output format, exit codes, one-line errors. */
#include <criterion/criterion.h>
#include <math.h>
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
    cr_assert_null(strstr(out, "fill:"), "--quiet printed '%s'", out); /* neither progress nor summary */
    snprintf(args, sizeof args, "fill --seed 3 --chunks 0,0:1,1 --out %s", f1);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err); /* not a terminal: no progress */
    cr_assert_null(strchr(err, '\r'), "stderr not a terminal, yet: '%s'", err);
    cr_assert(strncmp(err, "fill: 4 chunks, ", 16) == 0 && lines(err) == 1, "no summary line alone: '%s'", err); /* the summary */
    remove(f1);
}

/* ------------------------------------------------------------- one option parser */
/* every command's line without the options each test adds: the required options but one
 * (a later usage error proves the parser got past what the test added) */
static const struct {
    const char *cmd, *missing; /* the line; the option whose absence ends the parse */
} partial[] = {
    {"sample --function router:final_density --at 0,0,0", "--seed"},
    {"fill --chunks 0,0 --out /tmp/cf-never.npy", "--seed"},
    {"fill --biomes --chunks 0,0 --out /tmp/cf-never.npy", "--seed"},
    {"check --chunks 0,0", "--seed"},
    {"biome --quart 0,0,0", "--seed"},
    {"pregen --radius 1 --out /tmp/cf-never-dir", "--seed"},
    {"render --area 0,0:15,15 --out /tmp/cf-never.png", "--seed"},
    {"tiles --area 0,0:15,15 --out /tmp/cf-never-dir", "--seed"},
    {"columns --area 0,0:15,15 --out /tmp/cf-never.npy", "--seed"},
    {"slice --x 0 --out /tmp/cf-never.png", "--seed"},
    {"serve", "--listen"},
};

Test(cli, every_command_takes_quiet_and_opt_equals_value)
{
    char out[4096], err[4096], args[1024];
    for (size_t i = 0; i < sizeof partial / sizeof *partial; i++) {
        /* --quiet and --settings=ID (the = spelling) are parsed; the missing option is what is left */
        snprintf(args, sizeof args, "%s --quiet --settings=minecraft:overworld", partial[i].cmd);
        cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 2, "%s: %s", args, err);
        cr_assert(strstr(err, partial[i].missing) && strstr(err, "required"), "%s: '%s'", args, err);
        cr_assert_eq(lines(err), 1, "%s: '%s'", args, err);
    }
    cr_assert_eq(cli_run(NULL, "serve --http=127.0.0.1:0 --quiet --bogus", out, sizeof out, err, sizeof err), 2);
    cr_assert(strstr(err, "unknown option --bogus (see chunkfill serve --http --help)"), "'%s'", err);
    for (const char *c = "plan\0info\0emit\0nodes\0devices\0"; *c; c += strlen(c) + 1) {
        snprintf(args, sizeof args, "%s --quiet --bogus", c);
        cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 2, "%s", args);
        cr_assert(strstr(err, "unknown option --bogus"), "%s: '%s'", args, err);
    }
    /* --seed=VALUE is the seed (the same density as --seed VALUE) */
    char a[256], b[256];
    cr_assert_eq(cli_run(NULL, "sample --seed=7 --function=router:final_density --at=3,60,3", a, sizeof a, err, sizeof err), 0, "%s", err);
    cr_assert_eq(cli_run(NULL, "sample --seed 7 --function router:final_density --at 3,60,3", b, sizeof b, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(a, b);
    cr_assert_eq(cli_run(NULL, "fill --seed 1 --chunks 0,0 --quiet=1 --out /tmp/cf-never.npy", out, sizeof out, err, sizeof err), 2);
    cr_assert(strstr(err, "--quiet takes no value"), "'%s'", err);
}

Test(cli, usage_errors_are_one_line_with_a_suggestion_and_exit_2)
{
    char out[4096], err[4096], args[1024];
    for (size_t i = 0; i < sizeof partial / sizeof *partial; i++) {
        snprintf(args, sizeof args, "%s --sede 5", partial[i].cmd);
        cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 2, "%s", args);
        char want[200], name[64];
        sscanf(partial[i].cmd, "%63s", name);
        if (strncmp(partial[i].cmd, "fill --biomes", 13) == 0) strcpy(name, "fill --biomes");
        const char *near = strcmp(name, "serve") == 0 ? "" : "; did you mean --seed?";
        snprintf(want, sizeof want, "chunkfill: unknown option --sede%s (see chunkfill %s --help)\n", near, name);
        cr_assert_str_eq(err, want, "%s", args);
        cr_assert_eq(out[0], 0);
    }
    /* far from every option: no suggestion; a value that is missing; a stray word */
    cr_assert_eq(cli_run(NULL, "fill --seed 1 --frobnicate 2 --chunks 0,0 --out /tmp/cf-never.npy", out, sizeof out, err, sizeof err), 2);
    cr_assert_str_eq(err, "chunkfill: unknown option --frobnicate (see chunkfill fill --help)\n");
    cr_assert_eq(cli_run(NULL, "render --seed 1 --area", out, sizeof out, err, sizeof err), 2);
    cr_assert_str_eq(err, "chunkfill: --area needs a value (see chunkfill render --help)\n");
    cr_assert_eq(cli_run(NULL, "columns --seed 1 stray", out, sizeof out, err, sizeof err), 2);
    cr_assert_str_eq(err, "chunkfill: unexpected argument 'stray' (see chunkfill columns --help)\n");
    cr_assert_eq(cli_run(NULL, "rendr", out, sizeof out, err, sizeof err), 2);
    cr_assert_str_eq(err, "chunkfill: unknown command 'rendr'; did you mean render? (see chunkfill --help)\n");
    cr_assert_eq(cli_run(NULL, "fill --seed 1 --chunks 0,0 --threads x --out /tmp/cf-never.npy", out, sizeof out, err, sizeof err), 2);
    cr_assert_str_eq(err, "chunkfill: --threads takes an integer in [0, 1024], not 'x' (see chunkfill fill --help)\n");
}

/* more usage mistakes a new user makes, each one line and exit 2 (or what was meant): tiles'
 * --layer=NAME (it was "unknown option --layer": tiles took --layer out of argv before the parser,
 * only as two words), a missing value before the next option (it took "--chunks" as the file),
 * an option given twice (the last one won silently), `chunkfill help CMD` (printed the command
 * list), a misspelled --version */
Test(cli, more_usage_mistakes)
{
    char out[16384], err[4096], args[1024], want[16384];
    const char *dir = tmp_name("/tmp/cf-layereq-%d");
    snprintf(args, sizeof args, "tiles --seed 1 --area 0,0:3,3 --layer=biomes --layer water --quiet --out %s", dir);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s: %s", args, err);
    char path[300];
    snprintf(path, sizeof path, "%s/biomes/0/0/0.png", dir);
    cr_expect_eq(access(path, F_OK), 0, "no %s", path);
    snprintf(path, sizeof path, "%s/water/0/0/0.png", dir);
    cr_expect_eq(access(path, F_OK), 0, "no %s", path);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    cr_assert_eq(system(args), 0);
    cr_assert_eq(cli_run(NULL, "tiles --seed 1 --area 0,0:3,3 --out /tmp/cf-never-dir --layer", out, sizeof out, err, sizeof err), 2);
    cr_expect_str_eq(err, "chunkfill: --layer needs a value (see chunkfill tiles --help)\n");
    cr_assert_eq(cli_run(NULL, "fill --seed 1 --out --chunks 0,0", out, sizeof out, err, sizeof err), 2);
    cr_expect_str_eq(err, "chunkfill: --out needs a value, not the option --chunks (a value starting with --: --out=VALUE) (see chunkfill fill --help)\n");
    cr_assert_eq(cli_run(NULL, "fill --seed 1 --seed 2 --chunks 0,0 --out /tmp/cf-never.npy", out, sizeof out, err, sizeof err), 2);
    cr_expect_str_eq(err, "chunkfill: --seed given twice (see chunkfill fill --help)\n");
    cr_assert_eq(cli_run(NULL, "--versoin", out, sizeof out, err, sizeof err), 2);
    cr_expect_str_eq(err, "chunkfill: unknown option '--versoin'; did you mean --version? (see chunkfill --help)\n");
    cr_assert_eq(cli_run(NULL, "tiles --help", want, sizeof want, err, sizeof err), 0);
    cr_assert_eq(cli_run(NULL, "help tiles", out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(out, want);
    cr_assert_eq(cli_run(NULL, "help tilez", out, sizeof out, err, sizeof err), 2);
    cr_expect_eq(lines(err), 1, "%s", err);
}

Test(cli, reversed_corners_refused_alike_everywhere)
{
    static const char *const lines_[] = {
        "fill --seed 1 --chunks 1,0:0,0 --out /tmp/cf-never.npy",
        "fill --biomes --seed 1 --chunks 1,0:0,0 --out /tmp/cf-never.npy",
        "check --seed 1 --chunks 0,1:0,0",
        "render --seed 1 --area 10,0:0,10 --out /tmp/cf-never.png",
        "tiles --seed 1 --area 10,0:0,10 --out /tmp/cf-never-dir",
        "columns --seed 1 --area 0,10:10,0 --out /tmp/cf-never.npy",
        "pregen --seed 1 --area 10,0:0,10 --out /tmp/cf-never-dir",
        "biome --seed 1 --grid 10,0:0,10 --qy 0 --out /tmp/cf-never.npy",
    };
    char out[4096], err[4096];
    for (size_t i = 0; i < sizeof lines_ / sizeof *lines_; i++) {
        cr_assert_eq(cli_run(NULL, lines_[i], out, sizeof out, err, sizeof err), 2, "%s: %s", lines_[i], err);
        cr_assert(strstr(err, ": reversed corners: the second corner must not be below the first (X1 >= X0, Z1 >= Z0) (see chunkfill "),
                  "%s: '%s'", lines_[i], err);
        cr_assert_eq(lines(err), 1, "%s: '%s'", lines_[i], err);
    }
    cr_assert(access("/tmp/cf-never-dir", F_OK) != 0, "a refused pregen/tiles made its folder");
}

Test(cli, threads_0_is_all_cores_everywhere)
{
    char out[4096], err[4096], args[1024];
    const char *f = tmp_name("/tmp/cf-thr0-%d.npy");
    snprintf(args, sizeof args, "fill --seed 1 --chunks 0,0 --threads 0 --quiet --out %s", f);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    snprintf(args, sizeof args, "columns --seed 1 --area 0,0:7,7 --threads=0 --quiet --out %s", f);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    snprintf(args, sizeof args, "biome --seed 1 --grid 0,0:3,3 --qy 0 --threads 0 --out %s", f);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    for (const char *c = "render --area 0,0:1,1\0tiles --area 0,0:1,1\0pregen --radius 1\0serve\0serve --http 127.0.0.1:0\0"; *c;
         c += strlen(c) + 1) {
        snprintf(args, sizeof args, "%s --threads -1", c);
        cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 2, "%s", args);
        cr_assert(strstr(err, "--threads takes an integer in [0, 1024], not '-1'"), "%s: '%s'", args, err);
        snprintf(args, sizeof args, "%s --threads 0 --frobnicate", c); /* 0 passes: the error is the next option's */
        cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 2, "%s", args);
        cr_assert(strstr(err, "unknown option --frobnicate"), "%s: '%s'", args, err);
    }
    remove(f);
    char pal[300];
    snprintf(pal, sizeof pal, "%.*s.palette.json", (int)strlen(f) - 4, f);
    remove(pal);
}

/* ------------------------------------------------------------- messages */
Test(cli, bad_values_are_named)
{
    char out[4096], err[4096];
    /* a misspelt stage names the value, not --blocks (which is there) */
    cr_assert_eq(cli_run(NULL, "fill --seed 1 --chunks 0,0 --blocks --stage surfce --out /tmp/cf-never.npy", out, sizeof out, err, sizeof err), 2);
    cr_assert_str_eq(err, "chunkfill: --stage surfce: no such stage (the stages are noise and surface); did you mean surface? "
                          "(see chunkfill fill --help)\n");
    cr_assert_eq(cli_run(NULL, "pregen --seed 1 --radius 1 --stage x --out /tmp/cf-never-dir", out, sizeof out, err, sizeof err), 2);
    cr_assert(strstr(err, "--stage x: no such stage (the stages are noise and surface) (see"), "'%s'", err);
    /* a grid too large says so (its corners are in order) */
    cr_assert_eq(cli_run(NULL, "biome --seed 1 --grid 0,0:100000,100000 --qy 0 --out /tmp/cf-never.npy", out, sizeof out, err, sizeof err), 2);
    cr_assert(strstr(err, "--grid 0,0:100000,100000: 100001 x 100001 quarts is too large (at most 2^30"), "'%s'", err);
    cr_assert_null(strstr(err, "corner"), "'%s'", err);
    /* an unknown layer lists every layer there is */
    const char *layer_lines[] = {"render --seed 1 --area 0,0:15,15 --layer biome --out /tmp/cf-never.png",
                                 "tiles --seed 1 --area 0,0:15,15 --layer biome --out /tmp/cf-never-dir",
                                 "pregen --seed 1 --radius 1 --format tiles --layer biome --out /tmp/cf-never-dir"};
    for (size_t i = 0; i < 3; i++) {
        cr_assert_eq(cli_run(NULL, layer_lines[i], out, sizeof out, err, sizeof err), 2, "%s", layer_lines[i]);
        cr_assert(strstr(err, "--layer biome: no such layer (the layers are relief, "), "'%s'", err);
        cr_assert(strstr(err, "); did you mean biomes? (see chunkfill "), "'%s'", err);
        const char *name;
        for (int k = 0; (name = cf_map_layer(k, NULL, NULL)); k++) {
            char w[80];
            snprintf(w, sizeof w, " %s", name);
            cr_assert(strstr(err, w), "%s: layer %s not listed: '%s'", layer_lines[i], name, err);
        }
        cr_assert_eq(lines(err), 1);
    }
    cr_assert(access("/tmp/cf-never-dir", F_OK) != 0);
}

Test(cli, version_is_chunkfills_own)
{
    char out[4096], err[4096];
    cr_assert_eq(cli_run(NULL, "--version", out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(out, "chunkfill " CF_VERSION "\n");
    /* a command's --version is the game's: without one (or followed by an option) it says where
     * chunkfill's own is, in one line, exit 2 */
    static const char *const cmds[] = {"render --seed 1 --area 0,0:15,15 --out x.png --version", "fill --version --seed 1 --chunks 0,0 --out x.npy",
                                       "pregen --version", "biome --seed 0 --quart 0,0,0 --version"};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        cr_assert_eq(cli_run(NULL, cmds[i], out, sizeof out, err, sizeof err), 2, "%s", cmds[i]);
        cr_assert(strstr(err, "--version takes the game version (1.18 ... 1.21.11, 26.1, 26.2, 26.3); chunkfill's own version: "
                              "chunkfill --version") && lines(err) == 1, "%s: %s", cmds[i], err);
    }
}

Test(cli, seed_text_is_trimmed_as_the_game_does)
{
    /* WorldOptions.parseSeed: trim(), then Long.parseLong, else the trimmed text's hashCode */
    char a[512], b[512], err[4096];
    const char *pairs[][2] = {{"' 42'", "42"}, {"'\t-7 \n'", "-7"}, {"'  hello '", "hello"}, {"' +5'", "5"}};
    for (size_t i = 0; i < 4; i++) {
        char x[256], y[256];
        snprintf(x, sizeof x, "sample --seed %s --function router:final_density --at 0,60,0 --at 100,-20,-7", pairs[i][0]);
        snprintf(y, sizeof y, "sample --seed %s --function router:final_density --at 0,60,0 --at 100,-20,-7", pairs[i][1]);
        cr_assert_eq(cli_run(NULL, x, a, sizeof a, err, sizeof err), 0, "%s", err);
        cr_assert_eq(cli_run(NULL, y, b, sizeof b, err, sizeof err), 0, "%s", err);
        cr_assert_str_eq(a, b, "--seed %s is not --seed %s", pairs[i][0], pairs[i][1]);
    }
    int64_t s;
    cf_error e = {0};
    cr_assert_eq(cf_seed_parse(" 42", &s, &e), CF_OK);
    cr_assert_eq(s, 42);
    cr_assert_eq(cf_seed_parse(" x ", &s, &e), CF_OK);
    cr_assert_eq(s, 'x'); /* "x".hashCode() */
    cr_assert_eq(cf_seed_parse(" \t ", &s, &e), CF_ERR_ARG);
    cr_assert_eq(cf_seed_parse("9223372036854775808", &s, &e), CF_OK); /* past a long: hashed */
    cr_assert_neq(s, INT64_MIN);
}

/* the commands that used to end silently print one summary line on standard error; --quiet
 * removes it */
Test(cli, silent_commands_print_a_summary)
{
    char out[4096], err[4096], args[1024];
    const char *f = tmp_name("/tmp/cf-sum-%d.npy");
    char pal[300];
    snprintf(pal, sizeof pal, "%.*s.palette.json", (int)strlen(f) - 4, f);
    const char *cases[][2] = {
        {"fill --seed 1 --chunks 0,0:1,0 --out %s", "fill: 2 chunks, "},
        {"fill --seed 1 --chunks 0,0 --blocks --out %s", "fill: 1 chunks, "},
        {"fill --biomes --seed 1 --chunks 0,0:1,1 --out %s", "fill: 4 chunks of biomes, "},
        {"columns --seed 1 --area 0,0:15,15 --stride 2 --out %s", "columns: 8 x 8 columns (stride 2), "},
        {"biome --seed 1 --grid 0,0:3,1 --qy 0 --out %s", "biome: 4 x 2 quarts at qy 0, "},
        {"render --seed 1 --area 0,0:15,15 --out %s.png", "render: 16 x 16 blocks, 16 x 16 pixels, "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(args, sizeof args, cases[i][0], f);
        cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s: %s", args, err);
        cr_assert(strncmp(err, cases[i][1], strlen(cases[i][1])) == 0, "%s: '%s'", args, err);
        cr_assert_eq(lines(err), 1, "%s: '%s'", args, err);
        cr_assert_eq(out[0], 0);
        strcat(args, " --quiet");
        cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s: %s", args, err);
        cr_assert_eq(err[0], 0, "%s: '%s'", args, err);
    }
    remove(f);
    remove(pal);
    snprintf(args, sizeof args, "%s.png", f);
    remove(args);
}

/* a fill over a limit or over the free space is refused before anything is written, with
 * its size and the option that allows it */
Test(cli, fill_larger_than_a_limit_or_the_disk_is_refused)
{
    char out[4096], err[4096], args[1024];
    const char *f = tmp_name("/tmp/cf-big-%d.npy");
    snprintf(args, sizeof args, "fill --seed 1 --chunks 0,0:9,9 --max-out-bytes 1000000 --out %s", f);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 1, "%s", err);
    /* 100 chunks x 384 x 256 float32 = 39,321,600 bytes and the header */
    cr_assert(strstr(err, "--chunks 0,0:9,9: the output would be 39.3 MB (100 chunks), more than --max-out-bytes 1000000 "
                          "(a larger --max-out-bytes allows it)"), "'%s'", err);
    cr_assert(access(f, F_OK) != 0, "a refused fill wrote %s", f);
    /* 10^12 chunks: more than any disk (the limits raised so that only the free space is left) */
    snprintf(args, sizeof args, "fill --seed 1 --chunks -500000,-500000:499999,499999 --max-chunks 1099511627776 "
                                "--max-out-bytes 9223372036854775807 --out %s", f);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 1, "%s", err);
    cr_assert(strstr(err, ": the output would be 393216.0 TB (1000000000000 chunks), more than the "), "'%s'", err);
    cr_assert(strstr(err, "free on its file system"), "'%s'", err);
    cr_assert_eq(lines(err), 1, "'%s'", err);
    cr_assert(access(f, F_OK) != 0, "a refused fill wrote %s", f);
}

/* every command that can run long shows a progress line on a terminal (and only there) */
Test(cli, progress_lines_of_columns_and_biomes)
{
    char out[8192], err[4096], args[1024];
    const char *f = tmp_name("/tmp/cf-prog2-%d.npy");
    const char *cases[][2] = {
        {"columns --seed 1 --area 0,0:31,31 --out %s", "\rcolumns: 32/32 rows (100%), "},
        {"biome --seed 1 --grid 0,0:7,7 --qy 0 --out %s", "\rbiome: 8/8 rows (100%), "},
        {"fill --biomes --seed 1 --chunks 0,0:1,1 --out %s", "\rfill: 4/4 chunks (100%), "},
    };
    for (size_t i = 0; i < 3; i++) {
        snprintf(args, sizeof args, cases[i][0], f);
        cr_assert_eq(run_tty(args, out, sizeof out), 0, "%s: %s", args, out);
        cr_assert(strstr(out, cases[i][1]), "%s: no progress line on a terminal: '%s'", args, out);
        cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
        cr_assert_null(strchr(err, '\r'), "%s: a progress line without a terminal: '%s'", args, err);
    }
    remove(f);
    char pal[300];
    snprintf(pal, sizeof pal, "%.*s.palette.json", (int)strlen(f) - 4, f);
    remove(pal);
}

/* the point queries (sample, biome --at/--points: a file of a million points runs a while) show
 * their progress on a terminal too, and print the same lines with it as without */
Test(cli, progress_lines_of_point_queries)
{
    char out[8192], plain[8192], err[4096];
    const char *cases[][2] = {
        {"sample --seed 1 --function router:final_density --at 0,0,0 --at 5,70,-3", "\rsample: 2/2 points (100%), "},
        {"biome --seed 1 --at 0,0,0 --at 5,70,-3 --at 100,-20,40", "\rbiome: 3/3 points (100%), "},
    };
    for (size_t i = 0; i < 2; i++) {
        cr_assert_eq(run_tty(cases[i][0], out, sizeof out), 0, "%s: %s", cases[i][0], out);
        cr_assert(strstr(out, cases[i][1]), "%s: no progress line on a terminal: '%s'", cases[i][0], out);
        cr_assert_eq(cli_run(NULL, cases[i][0], plain, sizeof plain, err, sizeof err), 0, "%s", err);
        cr_assert_null(strchr(err, '\r'), "%s: a progress line without a terminal: '%s'", cases[i][0], err);
        /* the answers: the lines after the progress line's end (script(1) writes CRLF) */
        const char *a = strstr(out, "\n");
        cr_assert_not_null(a);
        char got[8192];
        size_t k = 0;
        for (a++; *a && k + 1 < sizeof got; a++)
            if (*a != '\r') got[k++] = *a;
        got[k] = 0;
        cr_assert_str_eq(got, plain, "%s: other answers on a terminal", cases[i][0]);
    }
}

/* tiles: a progress line inside a tile too (its drawing's stage: a high level's tile of the
 * blocks layer fills thousands of chunks), then the tiles written; the tiles are the same bytes
 * with and without the terminal */
Test(cli, progress_inside_a_tile)
{
    char out[8192], err[4096], args[1024], dir[] = "/tmp/cf-tprogXXXXXX";
    cr_assert(mkdtemp(dir));
    snprintf(args, sizeof args, "tiles --seed 1 --area 0,0:15,15 --zoom 0..1 --out %s/a", dir);
    cr_assert_eq(run_tty(args, out, sizeof out), 0, "%s: %s", args, out);
    cr_assert(strstr(out, "\rtiles: 0/2 tiles, tile 1: heights "), "no progress inside the tile: '%s'", out);
    cr_assert(strstr(out, "\rtiles: 2/2 tiles (100%), "), "no progress line: '%s'", out);
    cr_assert(strstr(out, "tiles: 2 tiles, "), "no summary line: '%s'", out);
    snprintf(args, sizeof args, "tiles --seed 1 --area 0,0:15,15 --zoom 0..1 --out %s/b", dir);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert_null(strchr(err, '\r'), "a progress line without a terminal: '%s'", err);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cmp -s %s/a/relief/0/0/0.png %s/b/relief/0/0/0.png && cmp -s %s/a/relief/1/0/0.png %s/b/relief/1/0/0.png",
             dir, dir, dir, dir);
    cr_assert_eq(system(cmd), 0, "the tiles drawn with a progress line differ");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* a biome palette at its limit (256 biomes: outputs hold one byte per biome) and one past it, from
 * a generated pack over the default one: 256 distinct biomes answer (the grid's palette lists all
 * 256), 257 are one line naming the pack's file, the count and the limit (issue 32 item 7: the
 * count was missing), for a checkerboard and a multi_noise list (a repeated biome is counted once) */
Test(cli, a_biome_palette_of_256_fits_and_257_is_one_line_with_the_count)
{
    char out[8192], err[4096], args[2048], dir[] = "/tmp/cf-bpalXXXXXX", path[400];
    cr_assert(mkdtemp(dir));
    for (int kind = 0; kind < 2; kind++)
        for (int n = 256; n <= 257; n++) {
            snprintf(path, sizeof path, "%s/p%d%d/data/t/dimension", dir, kind, n);
            char cmd[600];
            snprintf(cmd, sizeof cmd, "mkdir -p %s", path);
            cr_assert_eq(system(cmd), 0);
            strcat(path, "/x.json");
            FILE *f = fopen(path, "w");
            cr_assert_not_null(f);
            fprintf(f, "{\"type\": \"minecraft:overworld\", \"generator\": {\"type\": \"minecraft:noise\", "
                       "\"settings\": \"minecraft:overworld\", \"biome_source\": {\"type\": \"minecraft:%s\", \"biomes\": [",
                    kind ? "multi_noise" : "checkerboard");
            for (int i = 0; i <= n; i++) { /* the last one repeats the first */
                if (!kind) fprintf(f, "%s\"t:b%d\"", i ? ", " : "", i % n);
                else
                    fprintf(f, "%s{\"biome\": \"t:b%d\", \"parameters\": {\"temperature\": %g, \"humidity\": 0, \"continentalness\": 0, "
                               "\"erosion\": 0, \"depth\": 0, \"weirdness\": 0, \"offset\": 0}}",
                            i ? ", " : "", i % n, (i % n) / 1000.0);
            }
            fputs("]}}}\n", f);
            fclose(f);
            snprintf(args, sizeof args, "biome --pack %s/packs/default --pack %s/p%d%d --dimension t:x --seed 1 --grid 0,0:3,3 --qy 0 --out %s/g.npy",
                     CF_SOURCE_DIR, dir, kind, n, dir);
            int rc = cli_run(NULL, args, out, sizeof out, err, sizeof err);
            if (n == 256) {
                cr_assert_eq(rc, 0, "%s: %s", args, err);
                snprintf(cmd, sizeof cmd, "python3 -c \"import json,sys; sys.exit(len(json.load(open('%s/g.palette.json'))) != 256)\"", dir);
                cr_expect_eq(system(cmd), 0, "%s: the palette does not list 256 biomes", args);
            } else {
                char want[600];
                snprintf(want, sizeof want, "chunkfill: %s#/generator/biome_source/biomes: the %s names 257 distinct biomes, more than the 256 a biome palette holds",
                         path, kind ? "biome list" : "checkerboard");
                cr_expect_eq(rc, 1, "%s: %s", args, err);
                cr_expect(strncmp(err, want, strlen(want)) == 0 && lines(err) == 1, "'%s' is not '%s...'", err, want);
            }
        }
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    cr_assert_eq(system(args), 0);
}

/* every help text's --version lines (HELP_VERSION) sit among the options, their text at the
 * column of the other options' (pregen's and serve's are wider: it was misindented there; in
 * biome's and serve's help it followed a paragraph of prose) */
Test(cli, help_version_lines_align_with_the_options)
{
    char out[16384], err[4096], args[200];
    const char *cmds[] = {"sample", "fill", "fill --biomes", "biome", "structures", "locate", "spawn", "pregen", "render", "slice",
                          "tiles", "columns", "at", "serve", "serve --http", "check", "plan", "info", "emit"};
    for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++) {
        snprintf(args, sizeof args, "%s --help", cmds[c]);
        cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s: %s", args, err);
        /* the column of each option line's text ("  --opt ARG   text"), the most frequent one */
        int count[128] = {0}, best = 0, vcol = 0, vprose = 0;
        const char *prev = NULL;
        for (const char *l = out; *l; l = strchr(l, '\n') + 1) {
            const char *e = strchr(l, '\n');
            if (!e) break;
            if (strncmp(l, "  --", 4) == 0) {
                const char *g;
                for (g = l + 2; g < e && !(g[0] == ' ' && g[1] == ' '); g++) {}
                while (g < e && *g == ' ') g++;
                int col = (int)(g - l);
                if (g < e && col < 128) {
                    if (strncmp(l, "  --version V ", 14) == 0) vcol = col, vprose = !prev || prev[0] != ' ';
                    else if (++count[col] > count[best]) best = col;
                }
            }
            prev = l;
        }
        /* where the help lists other options (render's, tiles' ... list none) */
        cr_expect(!vcol || !count[best] || !vprose, "%s: the --version line follows prose, not the options", args);
        if (vcol && count[best] >= 2)
            cr_expect_eq(vcol, best, "%s: --version's text at column %d, the other options' at %d", args, vcol, best);
    }
}

/* pregen: a summary line at the end; a folder already complete shows no rate (nothing was
 * made); the stop message starts a line of its own, not the end of the progress line */
Test(cli, pregen_summary_and_stop_message)
{
    static char out[65536];
    char err[4096], args[2048], cmd[4096];
    const char *dir = tmp_name("/tmp/cf-pgsum-%d");
    snprintf(args, sizeof args, "pregen --pack %s/tests/packs/tiny --settings t:tiny --format npy --stage noise --seed 1 --radius 100 --out %s",
             CF_SOURCE_DIR, dir);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert(strstr(err, "pregen: 4 of 4 regions done (196 chunks made, 0 already complete), "), "'%s'", err);
    cr_assert(strstr(err, " chunks/s\n"), "'%s'", err);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert(strstr(err, "pregen: 4 of 4 regions done (0 chunks made, 196 already complete), "), "'%s'", err);
    cr_assert_null(strstr(err, "chunks/s"), "a rate for a folder already complete: '%s'", err);
    strcat(args, " --quiet");
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert_eq(err[0], 0, "--quiet printed '%s'", err);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
    /* stopped by SIGINT while the progress line is on a terminal */
    snprintf(args, sizeof args, "script -qec \"timeout -s INT 4 '%s' pregen --pack %s/tests/packs/tiny --settings t:tiny --format npy "
             "--stage noise --seed 1 --radius 20000 --out %s\" /dev/null", CF_BINARY, CF_SOURCE_DIR, dir);
    FILE *p = popen(args, "r");
    cr_assert_not_null(p);
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = 0;
    pclose(p);
    cr_assert(strstr(out, "pregen: regions "), "no progress line: '%s'", out);
    const char *stop = strstr(out, "chunkfill: stopped; the finished regions are in place");
    cr_assert(stop && stop > out && stop[-1] == '\n', "the stop message is not on its own line: '%.300s'", stop ? stop - 120 : out);
    cr_assert(strstr(stop, "regions done before the stop ("), "no summary after the stop: '%s'", stop);
    system(cmd);
}

/* the k-th string of the JSON array after "key": in s (no escapes: block and biome ids) */
static void json_nth(const char *s, const char *key, int k, char *out, size_t n)
{
    const char *p = strstr(s, key);
    cr_assert_not_null(p, "%s", key);
    p = strchr(p, '[');
    for (int i = 0; i <= k; i++) {
        p = strchr(p + 1, '"');
        cr_assert_not_null(p);
        const char *e = strchr(p + 1, '"');
        if (i == k) snprintf(out, n, "%.*s", (int)(e - p - 1), p + 1);
        p = e;
    }
}
Test(cli, at_equals_columns)
{
    /* columns at a stride over the embedded pack (water, land, a biome border) and `at` at each */
    const char *f = tmp_name("/tmp/cf-at-%d.npy");
    char args[1024], out[4096], err[4096], pal[4200];
    snprintf(args, sizeof args, "columns --quiet --seed 5 --area -300,-200:300,400 --stride 150 --out %s", f);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    size_t len;
    char *npy = slurp_if(f, &len);
    cr_assert_not_null(npy);
    const char *body = memchr(npy, '\n', len);
    cr_assert_not_null(body);
    body++;
    cr_assert_eq((size_t)(npy + len - body), 25 * 12u);
    snprintf(pal, sizeof pal, "%.*s", (int)strlen(f) - 4, f);
    strcat(pal, ".palette.json");
    char *pj = slurp(pal);
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 5; i++) {
            const unsigned char *r = (const unsigned char *)body + 12 * (k * 5 + i);
            int32_t h, ft;
            memcpy(&h, r, 4);
            memcpy(&ft, r + 4, 4);
            char block[128], fluid[128] = "null", biome[128], want[600], wantj[600];
            json_nth(pj, "\"blocks\"", r[8], block, sizeof block);
            if (r[9] != 1) json_nth(pj, "\"blocks\"", r[9], fluid, sizeof fluid);
            json_nth(pj, "\"biomes\"", r[10], biome, sizeof biome);
            int x = -300 + 150 * i, z = -200 + 150 * k;
            snprintf(want, sizeof want, "%d %d height %d block %s biome %s fluid %s\n", x, z, h, block, biome,
                     r[9] != 1 ? fluid : "none");
            snprintf(args, sizeof args, "at %d,%d --seed 5", x, z);
            cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
            cr_assert_str_eq(out, want, "%s", args);
            if (k == 0 && i < 2) { /* the JSON of /at (cf_map_column_json) */
                snprintf(wantj, sizeof wantj, "{\"x\": %d, \"z\": %d, \"height\": %d, \"block\": \"%s\", \"biome\": \"%s\", \"fluid\": %s%s%s}\n",
                         x, z, h, block, biome, r[9] != 1 ? "\"" : "", fluid, r[9] != 1 ? "\"" : "");
                snprintf(args, sizeof args, "at %d,%d --json --seed=5", x, z);
                cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
                cr_assert_str_eq(out, wantj, "%s", args);
            }
        }
    free(pj);
    free(npy);
    remove(f);
    remove(pal);
    cr_assert_eq(cli_run(NULL, "at 1,2,3 --seed 5", out, sizeof out, err, sizeof err), 2);
    cr_assert_eq(cli_run(NULL, "at --seed 5", out, sizeof out, err, sizeof err), 2);
    cr_assert(strstr(err, "at needs the column X,Z (chunkfill at X,Z --seed SEED)"), "%s", err);
    /* the column after the options, as a user writes it too (it was "unexpected argument") */
    char first[256];
    cr_assert_eq(cli_run(NULL, "at -150,250 --seed 5 --below 90", first, sizeof first, err, sizeof err), 0, "%s", err);
    cr_assert_eq(cli_run(NULL, "at --seed 5 --below=90 -150,250", out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(out, first);
    cr_assert_eq(cli_run(NULL, "at --seed 5 0,0 1,1", out, sizeof out, err, sizeof err), 2);
    cr_assert_str_eq(err, "chunkfill: unexpected argument '1,1' (see chunkfill at --help)\n");
}
/* render, tiles and columns take --dimension as biome and pregen do: the dimension file's noise
 * settings and biome source (tests/packs/dims: the overworld d:land with snowy_plains and desert,
 * the nether d:cave); with --settings the same terrain, the preset biome source */
Test(cli, map_commands_draw_a_dimension)
{
    char out[4096], err[4096], args[1024], a[300], b[300], pa[320], pb[320];
    snprintf(a, sizeof a, "%s", tmp_name("/tmp/cf-dim-a-%d"));
    snprintf(b, sizeof b, "%s", tmp_name("/tmp/cf-dim-b-%d"));
    const char *dims = CF_SOURCE_DIR "/tests/packs/dims";
    snprintf(args, sizeof args, "render --pack %s --dimension minecraft:the_nether --below 11 --seed 1 --area 0,0:63,63 --out %s.png --quiet", dims, a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    snprintf(args, sizeof args, "render --pack %s --settings d:cave --below 11 --seed 1 --area 0,0:63,63 --out %s.png --quiet", dims, b);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    snprintf(pa, sizeof pa, "%s.png", a);
    snprintf(pb, sizeof pb, "%s.png", b);
    size_t la = 0, lb = 0;
    char *x = slurp_if(pa, &la), *y = slurp_if(pb, &lb);
    cr_assert(x && y && la == lb && memcmp(x, y, la) == 0, "render --dimension minecraft:the_nether is not --settings d:cave");
    free(x), free(y);
    snprintf(args, sizeof args, "columns --pack %s --dimension minecraft:overworld --seed 1 --area 0,0:31,31 --out %s.npy --quiet", dims, a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    snprintf(pa, sizeof pa, "%s.palette.json", a);
    x = slurp(pa);
    char *bio = strstr(x, "\"biomes\"");
    cr_assert(bio && strstr(bio, "snowy_plains") && !strstr(bio, "minecraft:plains\""), "columns --dimension: %s", x);
    free(x);
    snprintf(args, sizeof args, "tiles --pack %s --dimension minecraft:overworld --settings d:land --seed 1 --area 0,0:1,1 --out %s", dims, a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 2, "%s", err);
    cr_assert(strstr(err, "give --settings or --dimension, not both"), "%s", err);
    snprintf(args, sizeof args, "render --pack %s --dimension minecraft:nowhere --seed 1 --area 0,0:1,1 --out %s.png", dims, a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 1, "%s", err);
    cr_assert(strstr(err, "minecraft:nowhere") && lines(err) == 1, "%s", err);
    for (const char *ext[] = {".png", ".npy", ".palette.json"}, **e = ext; e < ext + 3; e++) {
        snprintf(pa, sizeof pa, "%s%s", a, *e);
        remove(pa);
        snprintf(pb, sizeof pb, "%s%s", b, *e);
        remove(pb);
    }
}

/* `locate biome` (the game's /locate biome search): the answer's quart has the biome (`biome
 * --quart` there) and its distance is the game's (the floor of a float square root of the 3D
 * distance); a radius short of it finds nothing (exit 1, one line); a tag of the packs answers
 * its nearer biome in the search's order; a biome the source cannot give is one line, exit 1 */
static void locate_lands(const char *packs, const char *what, const char *from, char biome[256], long *dist)
{
    char args[2048], out[1024], err[1024], x[32], y[32], z[32], d[32], want[256];
    snprintf(args, sizeof args, "locate biome '%s' %s --seed 7 --from %s", what, packs, from);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s: %s", args, err);
    cr_assert_eq(sscanf(out, "{\"biome\": \"%255[^\"]\", \"x\": %31[-0-9], \"y\": %31[-0-9], \"z\": %31[-0-9], \"distance\": %31[0-9]}",
                        want, x, y, z, d), 5, "%s", out);
    memcpy(biome, want, sizeof want);
    long p[3] = {atol(x), atol(y), atol(z)}, f[3] = {0, 0, 0};
    cr_assert_eq(sscanf(from, "%ld,%ld,%ld", &f[0], &f[1], &f[2]), 3);
    cr_assert((p[0] - f[0]) % 32 == 0 && (p[2] - f[2]) % 32 == 0, "%s: not on the 32-block lattice", out);
    double dx = (double)(p[0] - f[0]), dy = (double)(p[1] - f[1]), dz = (double)(p[2] - f[2]);
    *dist = atol(d);
    cr_assert_eq(*dist, (long)floor((double)(float)sqrt((double)(float)(dx * dx + dy * dy + dz * dz))), "%s", out);
    snprintf(args, sizeof args, "biome %s --seed 7 --quart %ld,%ld,%ld", packs, p[0] >> 2, p[1] >> 2, p[2] >> 2);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert(strstr(out, want) != NULL, "%s: biome --quart there says %s", want, out);
}

/* cf_biomes_locate_progress (locate's progress line): the same answer as cf_biomes_locate, and the
 * hook's columns count up to the spiral's (2 * (radius / 32) + 1)^2, found or not */
typedef struct locate_seen {
    int64_t done, total;
    int calls, bad;
} locate_seen;
static void locate_hook(void *ctx, const char *stage, int64_t done, int64_t total)
{
    locate_seen *s = ctx;
    s->bad |= strcmp(stage, "columns") != 0 || done < s->done || done > total;
    s->done = done, s->total = total, s->calls++;
}
Test(cli, locate_progress_changes_no_answer)
{
    cf_pack *pk;
    cf_biomes *b;
    cf_error err = {0};
    cr_assert_eq(cf_pack_open(&pk, NULL, 0, NULL, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_biomes_open(&b, pk, NULL, "minecraft:overworld", NULL, 3, &err), CF_OK, "%s", err.message);
    static const int32_t radius[2] = {6400, 150};
    static const char *const what[2] = {"minecraft:taiga", "minecraft:forest"}; /* at 1861 blocks (batches), at 271 */
    for (int i = 0; i < 2; i++) {
        int32_t p1[3] = {0}, p2[3] = {0};
        int b1 = -1, b2 = -1, f1 = 0, f2 = 0;
        locate_seen s = {0};
        cr_assert_eq(cf_biomes_locate(b, pk, what[i], 0, 0, 0, radius[i], 32, 64, p1, &b1, &f1, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_biomes_locate_progress(b, pk, what[i], 0, 0, 0, radius[i], 32, 64, p2, &b2, &f2, locate_hook, &s, &err),
                     CF_OK, "%s", err.message);
        cr_assert(f1 == f2 && f1 == (i == 0) && b1 == b2 && memcmp(p1, p2, sizeof p1) == 0, "radius %d", radius[i]);
        int64_t cols = (2 * (radius[i] / 32) + 1) * (int64_t)(2 * (radius[i] / 32) + 1);
        cr_assert(s.calls > 1 && !s.bad && s.total == cols && s.done == cols, "radius %d: %d calls, %lld of %lld (%lld)", radius[i],
                  s.calls, (long long)s.done, (long long)s.total, (long long)cols);
    }
    cf_biomes_free(b);
    cf_pack_free(pk);
}

Test(cli, locate_biome_lands_on_the_biome)
{
    char biome[256], biome2[256], args[2048], out[1024], err[1024], packs[1200], root[256];
    long d, d2;
    locate_lands("", "minecraft:mushroom_fields", "-1700,70,1900", biome, &d);
    locate_lands("", "lush_caves", "0,-20,0", biome2, &d2);
    cr_assert_str_eq(biome2, "minecraft:lush_caves");
    /* a radius short of the answer */
    snprintf(args, sizeof args, "locate biome minecraft:mushroom_fields --seed 7 --from -1700,70,1900 --radius %ld", d / 2);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 1, "%s", out);
    cr_assert(strstr(err, "no biome minecraft:mushroom_fields within") && lines(err) == 1, "%s", err);
    /* a tag: the nearer (in the search's order) of its biomes */
    tmp_dir(root, sizeof root, "locate");
    tmp_put(root, "data/t/tags/worldgen/biome/far.json", "{\"values\": [\"minecraft:mushroom_fields\", \"minecraft:lush_caves\"]}");
    snprintf(packs, sizeof packs, "--pack %s/packs/default --pack %s", CF_SOURCE_DIR, root);
    locate_lands(packs, "#t:far", "-1700,70,1900", biome2, &d2);
    cr_assert(strcmp(biome2, "minecraft:lush_caves") == 0 || strcmp(biome2, "minecraft:mushroom_fields") == 0, "%s", biome2);
    cr_assert_leq(d2, d, "the tag's answer (%s at %ld) is farther than mushroom_fields alone (%ld)", biome2, d2, d);
    snprintf(args, sizeof args, "locate biome '#t:none' %s --seed 7 --from 0,0", packs);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 1);
    cr_assert(strstr(err, "unknown biome tag \"#t:none\"") && lines(err) == 1, "%s", err);
    tmp_rm(root);
    /* a biome the overworld's source never gives */
    cr_assert_eq(cli_run(NULL, "locate biome minecraft:nether_wastes --seed 7 --from 0,0", out, sizeof out, err, sizeof err), 1);
    cr_assert(strstr(err, "gives no biome minecraft:nether_wastes") && lines(err) == 1, "%s", err);
}

/* `locate biome` against the deepslate oracle's biomes in the game's search order
 * (tests/golden/locate/locate-26.3.txt: vanilla 26.3, seed 0, from 0,70,0; its commands are in it) */
Test(cli, locate_biome_equals_the_oracle)
{
    char pack[4096], line[512], args[4400], out[1024], err[1024], want[600];
    shared_need("vanilla/26.3", pack, sizeof pack);
    FILE *f = fopen(CF_SOURCE_DIR "/tests/golden/locate/locate-26.3.txt", "r");
    cr_assert_not_null(f);
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char biome[128];
        long x, y, z;
        if (line[0] == '#' || sscanf(line, "%127s %ld %ld %ld", biome, &x, &y, &z) != 4) continue;
        snprintf(args, sizeof args, "locate biome %s --pack '%s' --seed 0 --from 0,70,0", biome, pack);
        cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s: %s", args, err);
        snprintf(want, sizeof want, "{\"biome\": \"%s\", \"x\": %ld, \"y\": %ld, \"z\": %ld, \"distance\": ", biome, x, y, z);
        cr_expect(strncmp(out, want, strlen(want)) == 0, "%s: chunkfill %s, the oracle %s...", biome, out, want);
        n++;
    }
    fclose(f);
    cr_assert_eq(n, 10, "%d golden lines", n);
}

/* pregen grows a world: a larger area over a folder keeps the regions whose chunks it does not
 * change (byte for byte, not made again), makes the ones on the old edge again (outgrown in the
 * manifest until then) and the new ones; the folder then equals a fresh run of the larger area,
 * its manifest lists the old area in grown_from, a rerun makes nothing; a smaller area is refused */
/* pregen --shape circle: the chunks whose centre is closer than R to the centre, as Chunky's
 * circle (Math.hypot(centre - chunk centre) < radius, in doubles here: the C counts in integers);
 * regions, counts, the .npy shapes, the manifest, resume and growing follow it */
#define CIRCLE "pregen --seed 1 --format npy --stage noise --center 20,-5 "
static int in_circle(int x, int z, double r) { return hypot(20.0 - (x * 16 + 8), -5.0 - (z * 16 + 8)) < r; }
/* region (rx, rz)'s .npy under dir: its chunk count; *data, the blocks after the header */
static long npy_chunks(const char *dir, int rx, int rz, char **file, const char **data)
{
    char f[400];
    size_t n;
    snprintf(f, sizeof f, "%s/r.%d.%d.npy", dir, rx, rz);
    *file = slurp_if(f, &n);
    if (!*file) return -1;
    size_t hl = (unsigned char)(*file)[8] | (size_t)(unsigned char)(*file)[9] << 8;
    *data = *file + 10 + hl;
    long k = -1;
    const char *sh = strstr(*file + 10, "'shape': ("); /* past the magic and version (1, 0) */
    if (sh) k = strtol(sh + 10, NULL, 10);
    cr_assert_eq((size_t)k * 384 * 256, n - 10 - hl, "%s: its shape and its size disagree", f);
    return k;
}
static void circle_regions_are(const char *dir, double r, const char *square)
{
    for (int rz = -2; rz <= 1; rz++)
        for (int rx = -2; rx <= 1; rx++) {
            long want = 0;
            for (int z = rz * 32; z < rz * 32 + 32; z++)
                for (int x = rx * 32; x < rx * 32 + 32; x++) want += in_circle(x, z, r);
            char *file, *sq;
            const char *data, *sd;
            long k = npy_chunks(dir, rx, rz, &file, &data);
            cr_assert_eq(k, want ? want : -1, "%s r.%d.%d: %ld chunks, the circle of %g has %ld there", dir, rx, rz, k, r, want);
            if (!file || !square) {
                free(file);
                continue;
            }
            /* the same blocks as the square's chunks there (z-major, then x, in both) */
            long sk = npy_chunks(square, rx, rz, &sq, &sd), i = 0, j = 0;
            cr_assert_gt(sk, 0);
            for (int z = rz * 32; z < rz * 32 + 32; z++)
                for (int x = rx * 32; x < rx * 32 + 32; x++) {
                    if (!in_circle(x, z, r)) {
                        j += x >= -3 && x <= 5 && z >= -5 && z <= 3; /* the square's chunks: blocks -40..80, -65..55 */
                        continue;
                    }
                    cr_assert(memcmp(data + (size_t)i * 384 * 256, sd + (size_t)j * 384 * 256, 384 * 256) == 0,
                              "r.%d.%d: chunk %d,%d differs from the square's", rx, rz, x, z);
                    i++, j++;
                }
            free(file), free(sq);
        }
}
Test(cli, pregen_circle_follows_the_shape)
{
    char a[256], b[256], sq[256], args[1024], out[1024], err[2048], f[300];
    tmp_dir(a, sizeof a, "circle"), tmp_dir(b, sizeof b, "circle_fresh"), tmp_dir(sq, sizeof sq, "circle_square");
    long n60 = 0, n100 = 0;
    for (int z = -40; z < 40; z++)
        for (int x = -40; x < 40; x++) n60 += in_circle(x, z, 60), n100 += in_circle(x, z, 100);
    snprintf(args, sizeof args, CIRCLE "--radius 60 --out %s", sq);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    snprintf(args, sizeof args, CIRCLE "--radius 60 --shape circle --out %s", a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    char want[128];
    snprintf(want, sizeof want, "4 of 4 regions done (%ld chunks made, 0 already complete)", n60);
    cr_assert(strstr(err, want), "want '%s': %s", want, err);
    circle_regions_are(a, 60, sq);
    snprintf(f, sizeof f, "%s/manifest.json", a);
    char *m = slurp(f);
    cr_assert(strstr(m, "\"shape\":\t\"circle\"") && strstr(m, "\"radius\":\t60"), "%s", m);
    free(m);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err); /* resumes: nothing to make */
    snprintf(want, sizeof want, "(0 chunks made, %ld already complete)", n60);
    cr_assert(strstr(err, want), "want '%s': %s", want, err);
    /* grows into a larger circle: equal to a fresh one */
    snprintf(args, sizeof args, CIRCLE "--radius 100 --shape circle --out %s", a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    snprintf(args, sizeof args, CIRCLE "--radius 100 --shape circle --out %s", b);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    snprintf(want, sizeof want, "(%ld chunks made", n100);
    cr_assert(strstr(err, want), "want '%s': %s", want, err);
    circle_regions_are(a, 100, NULL);
    for (int rz = -1; rz <= 0; rz++)
        for (int rx = -1; rx <= 0; rx++) {
            char *x, *y;
            const char *dx, *dy;
            long kx = npy_chunks(a, rx, rz, &x, &dx), ky = npy_chunks(b, rx, rz, &y, &dy);
            cr_assert(kx == ky && memcmp(dx, dy, (size_t)kx * 384 * 256) == 0, "r.%d.%d: the grown circle differs from a fresh one", rx, rz);
            free(x), free(y);
        }
    m = slurp(f);
    cr_assert(strstr(m, "\"grown_from\"") && strstr(m, "\"radius\":\t100"), "%s", m);
    free(m);
    /* a smaller circle, or a circle with --area: refused in one line */
    snprintf(args, sizeof args, CIRCLE "--radius 99 --shape circle --out %s", a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 1);
    cr_assert(strstr(err, "#/params/chunks: this folder was made with") && lines(err) == 1, "%s", err);
    snprintf(args, sizeof args, "pregen --seed 1 --area 0,0:15,15 --shape circle --out %s", a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 2);
    cr_assert(strstr(err, "--shape circle goes with --radius") && lines(err) == 1, "%s", err);
    tmp_rm(a), tmp_rm(b), tmp_rm(sq);
}
#undef CIRCLE

Test(cli, pregen_grows_a_world)
{
    char a[256], b[256], args[1024], out[1024], err[2048], f1[300], f2[300];
    tmp_dir(a, sizeof a, "grow"), tmp_dir(b, sizeof b, "fresh");
    snprintf(args, sizeof args, "pregen --seed 1 --format npy --stage noise --area 0,0:40,40 --out %s", a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    snprintf(f1, sizeof f1, "%s/r.0.0.npy", a);
    size_t n0, n1;
    char *r00 = slurp_if(f1, &n0);
    cr_assert_not_null(r00);
    /* west: region 0's chunks stay (0..2 x 0..2), region -1 is new */
    snprintf(args, sizeof args, "pregen --seed 1 --format npy --stage noise --area -40,0:40,40 --out %s", a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert(strstr(err, "9 already complete"), "%s", err);
    char *again = slurp_if(f1, &n1);
    cr_assert(n0 == n1 && memcmp(r00, again, n0) == 0, "region 0 was rewritten");
    free(again);
    /* east: region 0 gains chunks (made again), region 1 is new */
    snprintf(args, sizeof args, "pregen --seed 1 --format npy --stage noise --area -40,0:600,40 --out %s", a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert(strstr(err, "regions done") && lines(err) == 1, "%s", err);
    snprintf(f1, sizeof f1, "%s/manifest.json", a);
    char *m = slurp(f1);
    cr_assert(strstr(m, "\"grown_from\"") && !strstr(m, "\"outgrown\""), "%s", m);
    free(m);
    snprintf(args, sizeof args, "pregen --seed 1 --format npy --stage noise --area -40,0:600,40 --out %s", b);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    static const char *const regions[3] = {"r.-1.0.npy", "r.0.0.npy", "r.1.0.npy"};
    for (int k = 0; k < 3; k++) {
        snprintf(f1, sizeof f1, "%s/%s", a, regions[k]), snprintf(f2, sizeof f2, "%s/%s", b, regions[k]);
        char *x = slurp_if(f1, &n0), *y = slurp_if(f2, &n1);
        cr_assert(x && y && n0 == n1 && memcmp(x, y, n0) == 0, "%s: the grown world differs from a fresh one", regions[k]);
        free(x), free(y);
    }
    snprintf(args, sizeof args, "pregen --seed 1 --format npy --stage noise --area -40,0:600,40 --out %s", a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert(strstr(err, "(0 chunks made"), "%s", err);
    snprintf(args, sizeof args, "pregen --seed 1 --format npy --stage noise --area 0,0:40,40 --out %s", a);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 1);
    cr_assert(strstr(err, "#/params/chunks: this folder was made with") && lines(err) == 1, "%s", err);
    free(r00);
    tmp_rm(a), tmp_rm(b);
}

/* `structures` over packs without a structure set (the embedded pack) answers nothing, and says
 * so in one line on stderr (it printed nothing and exited 0: an empty answer looked like a
 * broken one); --quiet leaves the line out */
Test(cli, structures_without_sets_say_so)
{
    char out[4096], err[4096];
    cr_assert_eq(cli_run(NULL, "structures --seed 1 --area 0,0:100,100", out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert_str_empty(out, "starts from packs without sets: '%s'", out);
    cr_assert(strstr(err, "structures: the packs have no structure set for minecraft:overworld"), "no word: '%s'", err);
    cr_assert_null(strchr(strchr(err, '\n') + 1, '\n'), "more than one line: '%s'", err);
    cr_assert_eq(cli_run(NULL, "structures --quiet --seed 1 --area 0,0:100,100", out, sizeof out, err, sizeof err), 0, "%s", err);
    cr_assert_str_empty(err, "--quiet: '%s'", err);
}
