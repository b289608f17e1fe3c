/* fuzz_archive.c - libFuzzer harness: packs in zip archives (host/base/archive.c).
 *
 * The input is a whole archive (.zip / .jar). It is written to a temporary file, opened
 * as a pack (the hostile-archive checks, the pack root, a bundler's nested jar read from
 * memory) and, when it opens, noise settings t:tiny (the seed corpus: tests/packs/tiny in
 * the archive forms) are compiled with small limits, which reads its files through
 * archive_read, and the program is sampled. Every failure must be a clean status with a one-line message
 * (fuzz_common.h). Build: fuzz/build.sh. Run: FUZZ_HARNESSES=archive fuzz/run.sh 60.
 */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "fuzz_common.h"

static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/cf-fuzz-archive-%ld.zip", (long)getpid());
    }
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL, "cannot write %s", path);
    FUZZ_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", path);
    cf_limits lim;
    fuzz_limits(&lim);
    cf_error err = {0};
    cf_pack *pk = NULL;
    const char *paths[] = {path};
    cf_status st = cf_pack_open(&pk, paths, 1, &lim, &err);
    fuzz_check_status("cf_pack_open", st, &err);
    if (st != CF_OK) return 0;
    const char *fn[] = {"router:final_density"};
    cf_program *pg = NULL;
    memset(&err, 0, sizeof err);
    st = cf_program_compile(&pg, pk, "t:tiny", fn, 1, &err);
    fuzz_check_status("cf_program_compile", st, &err);
    FUZZ_CHECK((st == CF_OK) == (pg != NULL), "cf_program_compile: status %s with program %p", cf_status_str(st), (void *)pg);
    cf_pack_free(pk); /* the program keeps what it needs */
    if (st != CF_OK) return 0;
    static const int32_t points[2 * 3] = {0, 0, 0, -17, 9, 33};
    cf_world *w = NULL;
    memset(&err, 0, sizeof err);
    st = cf_world_new(&w, pg, 1, &err);
    fuzz_check_status("cf_world_new", st, &err);
    if (st == CF_OK) fuzz_exercise_output(w, pg, 0, points, 2, 0, 0, 0); /* samples only: the archive is what is fuzzed */
    cf_world_free(w);
    fuzz_exercise_program(pg, 0);
    cf_program_free(pg);
    return 0;
}
