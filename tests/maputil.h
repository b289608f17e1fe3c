/* maputil.h - what test_maps.c and test_maps_http.c share: ../shared's folder (or a skip, a
 * failure under CI=true), a temporary folder per test (dir, tsetup, tteardown), the CLI run with
 * its stderr kept, the PNG and int32 .npy readers (pngutil.h). */
#ifndef CF_TESTS_MAPUTIL_H
#define CF_TESTS_MAPUTIL_H

static const char *shared_dir(void)
{
    const char *s = getenv("CF_SHARED");
    return s ? s : CF_SOURCE_DIR "/../shared";
}
/* a missing file of ../shared: the test is skipped, or fails under CI=true (CI has the shared
 * data: tests/testutil.h shared_have) */
static void shared_missing(const char *path)
{
    const char *ci = getenv("CI");
    if (ci && strcmp(ci, "true") == 0) cr_assert_fail("%s is missing (CI=true: the shared data must be beside the clone)", path);
    cr_skip_test("no %s (../shared beside the clone, or CF_SHARED; CI has it)", path);
}

#define TINY "--pack " CF_SOURCE_DIR "/tests/packs/tiny --settings t:tiny --seed 5"

static char dir[64];
static void tsetup(void)
{
    strcpy(dir, "/tmp/cf-maps-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}
static void tteardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static int run(const char *args, char *err, size_t m)
{
    char cmd[4096], ef[128];
    snprintf(ef, sizeof ef, "%s/stderr.txt", dir);
    snprintf(cmd, sizeof cmd, "'%s' %s 2>%s >/dev/null", CF_BINARY, args, ef);
    int st = system(cmd);
    FILE *e = fopen(ef, "r");
    size_t len = e ? fread(err, 1, m - 1, e) : 0;
    err[len] = 0;
    if (e) fclose(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#include "pngutil.h"

#endif
