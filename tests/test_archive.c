/* test_archive.c - packs in zip archives (host/base/archive.c).
 *
 * Each archive form is made here with libzip from a pack folder: packs/default (26.3) and
 * ../shared/vanilla/1.21.11 (or $CF_SHARED): a zip with data/ at its root, a zip whose
 * single top folder holds the pack, a mod jar, a client jar (data/ beside assets/ and
 * classes), a server jar (the bundler: the real jar under META-INF/versions/<id>/). Each
 * must give the same values as the folder, bit for bit (samples and chunk fills), also
 * layered with folders in either order. Hostile archives (a 1 KB zip that declares 10 GB,
 * a real 1000:1 deflate, an entry that inflates past its declared size, 100,000 entries,
 * "../" and absolute names, duplicate names, a corrupt nested jar, an encrypted entry, an
 * unknown compression method) are refused within a second and 256 MB, each with one line
 * naming the archive and the entry.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zip.h>
#include <zlib.h>

#include "chunkfill.h"
#include "testutil.h"

static char tmp[256];

static void setup(void)
{
    strcpy(tmp, "/tmp/cf-archive-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
}
static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    cr_assert_eq(system(cmd), 0);
}
TestSuite(archive, .init = setup, .fini = teardown);

/* adds the files under dir (recursively) as prefix/<relative path> */
static void add_tree(zip_t *z, const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char full[1024], name[1024];
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "/" : "", e->d_name);
        struct stat st;
        cr_assert_eq(stat(full, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            add_tree(z, full, name);
        } else {
            zip_source_t *s = zip_source_file(z, full, 0, -1);
            cr_assert_not_null(s);
            cr_assert_geq(zip_file_add(z, name, s, 0), 0, "%s: %s", name, zip_strerror(z));
        }
    }
    closedir(d);
}
static void add_text(zip_t *z, const char *name, const char *text)
{
    zip_source_t *s = zip_source_buffer(z, text, strlen(text), 0);
    cr_assert_not_null(s);
    cr_assert_geq(zip_file_add(z, name, s, 0), 0, "%s: %s", name, zip_strerror(z));
}
static zip_t *create(const char *path)
{
    int code;
    zip_t *z = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code);
    cr_assert_not_null(z, "%s: %d", path, code);
    return z;
}
static void finish(zip_t *z) { cr_assert_eq(zip_close(z), 0, "%s", zip_strerror(z)); }

enum { FORM_ZIP, FORM_TOP, FORM_MOD, FORM_CLIENT, FORM_SERVER };
static const char *form_name[] = {"pack.zip", "top.zip", "mod.jar", "client.jar", "server.jar"};

/* the archive of form `form` holding the pack folder `dir` (its data/ and pack.mcmeta) */
static void make_form(int form, const char *dir, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", tmp, form_name[form]);
    char data[1024];
    snprintf(data, sizeof data, "%s/data", dir);
    if (form == FORM_SERVER) {
        char inner[512];
        snprintf(inner, sizeof inner, "%s/inner.jar", tmp);
        zip_t *z = create(inner);
        add_tree(z, data, "data");
        add_text(z, "net/minecraft/server/Main.class", "\xca\xfe\xba\xbe");
        add_text(z, "version.json", "{\"id\": \"1.21.11\"}");
        finish(z);
        z = create(out);
        add_text(z, "META-INF/MANIFEST.MF", "Main-Class: net.minecraft.bundler.Main\n");
        add_text(z, "META-INF/versions.list", "0000\t1.21.11\t1.21.11/server-1.21.11.jar\n");
        add_text(z, "META-INF/libraries/com/mojang/x/x.jar", "not read");
        add_text(z, "net/minecraft/bundler/Main.class", "\xca\xfe\xba\xbe");
        zip_source_t *s = zip_source_file(z, inner, 0, -1);
        cr_assert_geq(zip_file_add(z, "META-INF/versions/1.21.11/server-1.21.11.jar", s, 0), 0);
        finish(z);
        return;
    }
    zip_t *z = create(out);
    const char *prefix = form == FORM_TOP ? "My Pack v1.2/data" : "data";
    add_tree(z, data, prefix);
    if (form == FORM_TOP) add_text(z, "My Pack v1.2/pack.mcmeta", "{\"pack\": {\"pack_format\": 48, \"description\": \"\"}}");
    if (form == FORM_TOP) add_text(z, "__MACOSX/My Pack v1.2/._pack.mcmeta", "resource fork"); /* a zip made by macOS */
    if (form == FORM_ZIP) add_text(z, "pack.mcmeta", "{\"pack\": {\"pack_format\": 48, \"description\": \"\"}}");
    if (form == FORM_MOD || form == FORM_CLIENT) {
        add_text(z, "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n");
        add_text(z, "com/example/Mod.class", "\xca\xfe\xba\xbe");
    }
    if (form == FORM_CLIENT) {
        add_text(z, "assets/minecraft/lang/en_us.json", "{}");
        add_text(z, "pack.png", "\x89PNG");
    }
    finish(z);
}

/* samples and fills of router:final_density over the packs; *vals malloc'd */
#define NPTS 4
static const int32_t pts[3 * NPTS] = {0, 64, 0, 100, 30, -7, -1234, -50, 987, 5, 200, 5};
static const int32_t chunks[4] = {0, 0, -3, 5};
static size_t values(const char *const *paths, int n, int dialect, unsigned char **vals)
{
    cf_error err = {0};
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
    cr_assert_eq(cf_pack_open(&pk, paths, n, NULL, &err), CF_OK, "%s", err.message);
    cf_pack_set_dialect(pk, dialect);
    const char *fn[] = {"router:final_density"};
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, 42, &err), CF_OK, "%s", err.message);
    int min_y, height;
    cf_program_settings(pg, &min_y, &height, NULL);
    size_t esz = cf_program_precision(pg) == 64 ? 8 : 4, per = (size_t)height * 256 * esz;
    size_t total = sizeof(double) * NPTS + 2 * per;
    unsigned char *v = malloc(total);
    cr_assert_not_null(v);
    double sv[NPTS];
    cr_assert_eq(cf_sample(w, 0, NPTS, pts, sv, &err), CF_OK, "%s", err.message);
    memcpy(v, sv, sizeof sv);
    cr_assert_eq(cf_fill_chunks(w, 0, 2, chunks, v + sizeof(double) * NPTS, 2, &err), CF_OK, "%s", err.message);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    *vals = v;
    return total;
}

static void forms_equal_folder(const char *dir, int dialect)
{
    unsigned char *want, *got;
    size_t n = values(&dir, 1, dialect, &want);
    for (int form = FORM_ZIP; form <= FORM_SERVER; form++) {
        char path[512];
        make_form(form, dir, path, sizeof path);
        const char *p = path;
        cr_assert_eq(values(&p, 1, dialect, &got), n);
        cr_assert(memcmp(want, got, n) == 0, "%s of %s differs from the folder", form_name[form], dir);
        free(got);
    }
    free(want);
}

Test(archive, forms_equal_folder_default) { forms_equal_folder(CF_SOURCE_DIR "/packs/default", CF_DIALECT_AUTO); }

Test(archive, forms_equal_folder_vanilla_121)
{
    char dir[512];
    shared_need("vanilla/1.21.11", dir, sizeof dir);
    forms_equal_folder(dir, CF_DIALECT_AUTO);
}

/* an overlay folder that changes the terrain, layered over the vanilla jar or folder, and
 * the overlay as a zip layered over the folder: all equal, and different from vanilla */
Test(archive, layered_with_folders)
{
    char van[512], jar[512], over[512], overzip[512], cmd[2048];
    shared_need("vanilla/1.21.11", van, sizeof van);
    make_form(FORM_CLIENT, van, jar, sizeof jar);
    snprintf(over, sizeof over, "%s/overlay", tmp);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/data/minecraft/worldgen/density_function/overworld' && "
             "printf '{\"type\": \"minecraft:constant\", \"argument\": 0.25}' > '%s/data/minecraft/worldgen/density_function/overworld/offset.json'",
             over, over);
    cr_assert_eq(system(cmd), 0);
    snprintf(overzip, sizeof overzip, "%s/overlay.zip", tmp);
    zip_t *z = create(overzip);
    char data[600];
    snprintf(data, sizeof data, "%s/data", over);
    add_tree(z, data, "data");
    finish(z);
    unsigned char *a, *b, *c, *d;
    const char *folders[] = {van, over}, *jar_folder[] = {jar, over}, *folder_zip[] = {van, overzip}, *plain[] = {van};
    size_t n = values(folders, 2, CF_DIALECT_AUTO, &a);
    cr_assert_eq(values(jar_folder, 2, CF_DIALECT_AUTO, &b), n);
    cr_assert_eq(values(folder_zip, 2, CF_DIALECT_AUTO, &c), n);
    cr_assert_eq(values(plain, 1, CF_DIALECT_AUTO, &d), n);
    cr_assert(memcmp(a, b, n) == 0, "client jar + folder differs from folder + folder");
    cr_assert(memcmp(a, c, n) == 0, "folder + zip differs from folder + folder");
    cr_assert(memcmp(a, d, n) != 0, "the overlay changes nothing: the test could not fail");
    /* the later layer wins in the other order too: the overlay under the jar is hidden */
    const char *under[] = {overzip, jar};
    free(b);
    cr_assert_eq(values(under, 2, CF_DIALECT_AUTO, &b), n);
    cr_assert(memcmp(b, d, n) == 0, "overlay zip under the jar should be hidden by it");
    free(a), free(b), free(c), free(d);
}

/* the located error of a compile over the archive at path (the pack may open) */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
static void refused(const char *path, const char *where, const char *what)
{
    double t0 = now();
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    const char *p = path;
    if (cf_pack_open(&pk, &p, 1, NULL, &err) == CF_OK) {
        const char *fn[] = {"router:final_density"};
        cf_status st = cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err);
        cf_program_free(pg);
        cf_pack_free(pk);
        cr_assert_neq(st, CF_OK, "%s was not refused", path);
    }
    double t = now() - t0;
    cr_log_info("%s (%.3f s)", err.message, t);
    char prefix[1024];
    snprintf(prefix, sizeof prefix, "%s%s", path, where);
    cr_assert(strncmp(err.message, prefix, strlen(prefix)) == 0, "message '%s' does not start with '%s'", err.message, prefix);
    cr_assert(strstr(err.message, what), "message '%s' lacks '%s'", err.message, what);
    cr_assert_null(strchr(err.message, '\n'));
    cr_assert_lt(t, 1.0, "refusing %s took %.2f s", path, t);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    cr_assert_lt(ru.ru_maxrss, 256 * 1024, "%ld KB resident", ru.ru_maxrss);
}

/* an entry whose data is given already compressed (raw deflate `data`) with the sizes
 * and method the archive shall declare: how zip bombs are made without inflating them */
typedef struct raw_src {
    const unsigned char *data;
    size_t len, pos;
    uint64_t declared;
    uint16_t method;
} raw_src;
static zip_int64_t raw_cb(void *ud, void *buf, zip_uint64_t len, zip_source_cmd_t cmd)
{
    raw_src *r = ud;
    switch (cmd) {
    case ZIP_SOURCE_OPEN: r->pos = 0; return 0;
    case ZIP_SOURCE_READ: {
        size_t k = r->len - r->pos < len ? r->len - r->pos : (size_t)len;
        memcpy(buf, r->data + r->pos, k);
        r->pos += k;
        return (zip_int64_t)k;
    }
    case ZIP_SOURCE_CLOSE: return 0;
    case ZIP_SOURCE_STAT: {
        zip_stat_t *st = buf;
        zip_stat_init(st);
        st->valid = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD | ZIP_STAT_CRC;
        st->size = r->declared;
        st->comp_size = r->len;
        st->comp_method = r->method;
        st->crc = 0;
        return sizeof *st;
    }
    case ZIP_SOURCE_ERROR: return 2 * sizeof(int);
    case ZIP_SOURCE_FREE: return 0;
    case ZIP_SOURCE_SUPPORTS:
        return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR,
                                              ZIP_SOURCE_FREE, -1);
    default: return -1;
    }
}
/* raw deflate of n zero bytes (malloc'd, *len) */
static unsigned char *deflate_zeros(size_t n, size_t *len)
{
    unsigned char *zeros = calloc(1, n), *out = malloc(n / 500 + 1024);
    cr_assert(zeros && out);
    z_stream s = {0};
    cr_assert_eq(deflateInit2(&s, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY), Z_OK);
    s.next_in = zeros, s.avail_in = (uInt)n, s.next_out = out, s.avail_out = (uInt)(n / 500 + 1024);
    cr_assert_eq(deflate(&s, Z_FINISH), Z_STREAM_END);
    *len = s.total_out;
    deflateEnd(&s);
    free(zeros);
    return out;
}
static void add_raw(zip_t *z, const char *name, raw_src *r)
{
    zip_source_t *s = zip_source_function(z, raw_cb, r);
    cr_assert_not_null(s);
    cr_assert_geq(zip_file_add(z, name, s, 0), 0, "%s", zip_strerror(z));
}
#define OW "data/minecraft/worldgen/noise_settings/overworld.json"

Test(archive, bomb_declared_10gb)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bomb.zip", tmp);
    size_t len;
    unsigned char *d = deflate_zeros(1 << 20, &len);
    raw_src r = {d, len, 0, (uint64_t)10 << 30, ZIP_CM_DEFLATE};
    zip_t *z = create(path);
    add_raw(z, OW, &r);
    finish(z);
    free(d);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_lt(st.st_size, 2048, "the bomb is %lld bytes", (long long)st.st_size);
    refused(path, "!/" OW "#: declares 10737418240 bytes", "over the limit");
}

Test(archive, bomb_ratio)
{
    char path[512];
    snprintf(path, sizeof path, "%s/ratio.zip", tmp);
    size_t len;
    unsigned char *d = deflate_zeros(8 << 20, &len); /* a true deflate stream of 8 MiB of zeros */
    raw_src r = {d, len, 0, 8 << 20, ZIP_CM_DEFLATE};
    zip_t *z = create(path);
    add_raw(z, OW, &r);
    finish(z);
    free(d);
    refused(path, "!/" OW "#: compression ratio ", "a zip bomb");
}

Test(archive, inflates_past_declared_size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/liar.zip", tmp);
    size_t len;
    unsigned char *d = deflate_zeros(1 << 20, &len);
    raw_src r = {d, len, 0, 100, ZIP_CM_DEFLATE};
    zip_t *z = create(path);
    add_raw(z, OW, &r);
    finish(z);
    free(d);
    refused(path, "!/" OW "#: ", "");
}

Test(archive, too_many_entries)
{
    char path[512];
    snprintf(path, sizeof path, "%s/many.zip", tmp);
    /* made in a child process: libzip's structures for 100,000 new entries must not count in
     * this process's peak memory, which refused() bounds */
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int code;
        zip_t *z = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code);
        for (int i = 0; z && i < 100000; i++) {
            char name[64];
            snprintf(name, sizeof name, "data/x/f%d.json", i);
            zip_source_t *s = zip_source_buffer(z, "", 0, 0);
            if (!s || zip_file_add(z, name, s, 0) < 0) _exit(1);
            zip_set_file_compression(z, (zip_uint64_t)i, ZIP_CM_STORE, 0);
        }
        _exit(z && zip_close(z) == 0 ? 0 : 1);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "making many.zip failed");
    refused(path, ": 100000 entries", "over the limit of 65536");
}

Test(archive, dotdot_name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/dotdot.zip", tmp);
    zip_t *z = create(path);
    add_text(z, "data/minecraft/../../evil.json", "{}");
    finish(z);
    refused(path, "!/data/minecraft/../../evil.json#: a name with a '..' component", "lead out of the pack");
}

Test(archive, control_character_in_a_name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/ctl.zip", tmp);
    zip_t *z = create(path);
    add_text(z, "data/minecraft/a\nb.json", "{}");
    finish(z);
    refused(path, "!/data/minecraft/a?b.json#: a name with a control character", "");
}

Test(archive, absolute_name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/abs.zip", tmp);
    zip_t *z = create(path);
    add_text(z, "data/ok.json", "{}");
    add_text(z, "/etc/evil.json", "{}");
    finish(z);
    refused(path, "!//etc/evil.json#: an absolute name", "");
}

/* libzip refuses to write a duplicate name: write two names of the same length, then
 * make the second one the first in the bytes of the file (local and central headers) */
Test(archive, duplicate_name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/dup.zip", tmp);
    zip_t *z = create(path);
    add_text(z, "data/minecraft/a1.json", "{}");
    add_text(z, "data/minecraft/a2.json", "[]");
    finish(z);
    FILE *f = fopen(path, "r+b");
    cr_assert_not_null(f);
    unsigned char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    int k = 0;
    for (size_t i = 0; i + 7 <= n; i++)
        if (memcmp(buf + i, "a2.json", 7) == 0) buf[i + 1] = '1', k++;
    cr_assert_eq(k, 2);
    rewind(f);
    cr_assert_eq(fwrite(buf, 1, n, f), n);
    fclose(f);
    refused(path, "!/data/minecraft/a1.json#: a duplicate name", "");
}

Test(archive, corrupt_nested_jar)
{
    char path[512];
    snprintf(path, sizeof path, "%s/server.jar", tmp);
    zip_t *z = create(path);
    add_text(z, "META-INF/MANIFEST.MF", "Main-Class: net.minecraft.bundler.Main\n");
    add_text(z, "META-INF/versions/1.21.11/server-1.21.11.jar", "PK\x03\x04 this is not a jar at all, only its first bytes");
    finish(z);
    refused(path, "!/META-INF/versions/1.21.11/server-1.21.11.jar: a corrupt nested jar", "not a readable zip archive");
}

Test(archive, encrypted_entry)
{
    char path[512];
    snprintf(path, sizeof path, "%s/enc.zip", tmp);
    zip_t *z = create(path);
    add_text(z, OW, "{}");
    cr_assert_eq(zip_file_set_encryption(z, 0, ZIP_EM_AES_256, "secret"), 0, "%s", zip_strerror(z));
    finish(z);
    refused(path, "!/" OW "#: an encrypted entry", "");
}

Test(archive, unsupported_method)
{
    char path[512];
    snprintf(path, sizeof path, "%s/ppmd.zip", tmp);
    raw_src r = {(const unsigned char *)"0123456789", 10, 0, 10, 98 /* PPMd */};
    zip_t *z = create(path);
    add_raw(z, OW, &r);
    finish(z);
    refused(path, "!/" OW "#: compression method 98 is not supported", "");
}

Test(archive, not_a_pack_or_not_a_zip)
{
    char path[512];
    snprintf(path, sizeof path, "%s/empty.zip", tmp);
    zip_t *z = create(path);
    add_text(z, "readme.txt", "hello");
    add_text(z, "other/readme.txt", "hello");
    finish(z);
    refused(path, ": not a data pack", "single top folder");
    snprintf(path, sizeof path, "%s/text.zip", tmp);
    FILE *f = fopen(path, "wb");
    fputs("not a zip\n", f);
    fclose(f);
    refused(path, ": not a readable zip archive", "");
}

/* ------------------------------------------------------------------ the game version
 * tests/golden/biome/versions.txt (the oracle): quarts where 26.2 and 1.21.11 answer
 * different biomes from the same 26.2 data. The packs' game version comes from a jar's
 * version.json, else a pack.mcmeta's pack_format, else --version; without any, one line
 * says what is assumed. */
static void golden_versions(const char *version, char quarts[512], char want[1024])
{
    char *g = slurp(CF_SOURCE_DIR "/tests/golden/biome/versions.txt");
    quarts[0] = want[0] = 0;
    char *save = NULL;
    for (char *line = strtok_r(g, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char v[32], b[128];
        int qx, qy, qz;
        if (line[0] == '#' || sscanf(line, "%31s 0 %d %d %d %127s", v, &qx, &qy, &qz, b) != 5 || strcmp(v, version) != 0) continue;
        snprintf(quarts + strlen(quarts), 512 - strlen(quarts), " --quart %d,%d,%d", qx, qy, qz);
        snprintf(want + strlen(want), 1024 - strlen(want), "%d %d %d %s\n", qx, qy, qz, b);
    }
    free(g);
    cr_assert(quarts[0], "no %s lines in versions.txt", version);
}
/* a jar of ../shared/vanilla/26.2 with the game's version.json (or a pack.mcmeta) at its root */
static void jar_262(const char *path, const char *file, const char *text)
{
    char data[1024];
    shared_need("vanilla/26.2/data", data, sizeof data);
    zip_t *z = create(path);
    add_tree(z, data, "data");
    if (file) add_text(z, file, text);
    finish(z);
}
static void biomes_are(const char *pack, const char *extra, const char *version, int note)
{
    char quarts[512], want[1024], args[2048], out[4096], err[4096];
    golden_versions(version, quarts, want);
    snprintf(args, sizeof args, "biome --pack %s %s --seed 0%s", pack, extra, quarts);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s: %s", args, err);
    cr_assert_str_eq(out, want, "%s", args);
    cr_assert_eq(strstr(err, "choose another with --version") != NULL, note, "%s: '%s'", args, err);
}
Test(archive, game_version_from_version_json)
{
    char jar[512];
    snprintf(jar, sizeof jar, "%s/26.2.jar", tmp);
    jar_262(jar, "version.json", "{\"id\": \"26.2\", \"name\": \"26.2\", \"world_version\": 4903, \"series_id\": \"main\"}");
    biomes_are(jar, "", "26.2", 0);
    biomes_are(jar, "--version 1.21.11", "1.21.11", 0); /* --version wins */
    /* region files and the manifest follow it */
    char args[2048], out[4096], err[4096], man[600];
    snprintf(args, sizeof args, "pregen --quiet --pack %s --seed 0 --area 0,0:15,15 --out %s/world", jar, tmp);
    cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 0, "%s", err);
    snprintf(man, sizeof man, "%s/world/manifest.json", tmp);
    char *m = slurp(man);
    cr_assert(strstr(m, "\"game\":\t\"26.2\"") || strstr(m, "\"game\": \"26.2\""), "%s", m);
    cr_assert(strstr(m, "4903"), "%s", m);
    free(m);
}
Test(archive, game_version_from_pack_mcmeta_or_option)
{
    char jar[512], dir[1024];
    snprintf(jar, sizeof jar, "%s/old.zip", tmp);
    jar_262(jar, "pack.mcmeta", "{\"pack\": {\"description\": \"1.21.11\", \"pack_format\": 94}}");
    biomes_are(jar, "", "1.21.11", 0);
    /* 26.x packs name [major, minor] formats (host/base/version.c cites the numbers) */
    jar_262(jar, "pack.mcmeta", "{\"pack\": {\"description\": \"26.2\", \"min_format\": [107, 1], \"max_format\": [107, 1]}}");
    biomes_are(jar, "", "26.2", 0);
    static const struct {
        const char *mcmeta, *game, *dv;
    } x26[] = {{"{\"pack\": {\"min_format\": 101, \"max_format\": [101, 1]}}", "26.1", "4786"},
               {"{\"pack\": {\"pack_format\": 121}}", "26.3", "5023"}};
    for (size_t i = 0; i < sizeof x26 / sizeof *x26; i++) { /* the manifest names the game and its data version */
        char a[2048], o[4096], e[4096], man[600];
        jar_262(jar, "pack.mcmeta", x26[i].mcmeta);
        snprintf(a, sizeof a, "pregen --quiet --pack %s --seed 0 --area 0,0:15,15 --out %s/w26_%zu", jar, tmp, i);
        cr_assert_eq(cli_run(NULL, a, o, sizeof o, e, sizeof e), 0, "%s", e);
        cr_assert(!strstr(e, "--version"), "%s: %s", x26[i].mcmeta, e);
        snprintf(man, sizeof man, "%s/w26_%zu/manifest.json", tmp, i);
        char *m = slurp(man), want[64], want2[64];
        snprintf(want, sizeof want, "\"game\":\t\"%s\"", x26[i].game);
        snprintf(want2, sizeof want2, "\"game\": \"%s\"", x26[i].game);
        cr_assert((strstr(m, want) || strstr(m, want2)) && strstr(m, x26[i].dv), "%s: %s", x26[i].mcmeta, m);
        free(m);
    }
    shared_need("vanilla/26.2", dir, sizeof dir);
    biomes_are(dir, "", "1.21.11", 1);    /* no version.json, no pack.mcmeta: 1.21.11 for 1.18-1.21 data, said */
    biomes_are(dir, "--version 26.2", "26.2", 0);
    biomes_are(dir, "--version=26.2 --quiet", "26.2", 0);
    char args[2048], out[4096], err[4096];
    static const char *const cmds[] = {"biome --seed 0 --quart 0,0,0", "render --seed 0 --area 0,0:15,15 --out /dev/null",
                                       "pregen --seed 0 --area 0,0:15,15 --out /nonexistent/w", "serve --listen 127.0.0.1:0",
                                       "columns --seed 0 --area 0,0:15,15 --out /dev/null", "tiles --seed 0 --area 0,0:15,15 --out /nonexistent/t",
                                       "fill --seed 0 --chunks 0,0 --out /dev/null"};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) { /* unknown versions: refused, one line, exit 2 */
        snprintf(args, sizeof args, "%s --version 1.22", cmds[i]);
        cr_assert_eq(cli_run(NULL, args, out, sizeof out, err, sizeof err), 2, "%s: %s", args, err);
        cr_assert(strstr(err, "--version 1.22: not a game version chunkfill knows") && strchr(err, '\n') == err + strlen(err) - 1,
                  "%s: '%s'", args, err);
    }
}
