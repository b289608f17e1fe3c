/* test_iris_expr.c - Iris expressions and image maps (host/frontend/iris/iris_expr.c,
 * host/frontend/iris/expressions.md).
 *
 * Oracles, independent of the parser and of the IR:
 * - expressions: each case pairs an expression text with the same computation
 *   written here as plain C double arithmetic, grouped the way Paralithic
 *   0.8.1 groups and simplifies it (left-grouped ^, '-' glued to a following
 *   digit, constants re-associated in + and *, x^2 = x*x, x^n by repeated
 *   squaring, comparisons as the JVM's dcmpg, |v| keeping -0.0). sin, cos and
 *   pow are compared with the project's StrictMath functions (cf_ir_sin, ...):
 *   the expression must use exactly them;
 * - variables and functions bound to styles: the style sampled directly
 *   through the iris:style/JSON path (iris_compile_json "style");
 * - IrisGeneratorStyle with an expression: the expression sampled at the
 *   scaled position, then the CNG power; with an imageMap: the pixel values;
 * - image maps: PNGs written here with libpng from known pixels; the channel
 *   values (java.awt.Color.RGBtoHSB re-written here), the coordinate mapping
 *   (coordinateScale, centered, tiled, inverted, (int) casts) and bilinear
 *   interpolation (IRIS.md §8) computed here;
 * - OpenCL (PoCL) equals the CPU bit for bit on expression, image and
 *   style-with-expression/image programs;
 * - bad input: one located line each (CLI, exit 1).
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "kernels/cf_iris.h"
#include "cpu/cpu.h"
#include "chunkfill.h"
#include "frontend/iris/iris.h"
#include "testutil.h"


/* ------------------------------------------------------------------ a pack in a temporary folder */
static char pack_dir[64];
static void put(const char *rel, const char *text)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", pack_dir, rel);
    FILE *f = fopen(p, "w");
    cr_assert(f, "%s", p);
    fputs(text, f);
    fclose(f);
}
static void make_pack(void)
{
    snprintf(pack_dir, sizeof pack_dir, "/tmp/cf_iris_expr_XXXXXX");
    cr_assert(mkdtemp(pack_dir));
    char p[600];
    snprintf(p, sizeof p, "%s/expressions", pack_dir);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/images", pack_dir);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/generators", pack_dir);
    mkdir(p, 0755);
}
static void rm_pack(void)
{
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", pack_dir);
    cr_assert_eq(system(cmd), 0);
}
static void put_expr(const char *key, const char *json)
{
    char rel[200];
    snprintf(rel, sizeof rel, "expressions/%s.json", key);
    put(rel, json);
}

/* a program of one function over the pack, and a world */
typedef struct prog {
    cf_pack *pk;
    cf_program *pg;
    cf_world *w;
} prog;
static prog open_fn(const char *fn, int64_t seed)
{
    prog r = {0};
    cf_error err = {0};
    const char *roots[1] = {pack_dir};
    cr_assert_eq(cf_pack_open(&r.pk, roots, 1, NULL, &err), CF_OK, "%s", err.message);
    const char *fns[1] = {fn};
    cr_assert_eq(cf_program_compile(&r.pg, r.pk, "iris:master", fns, 1, &err), CF_OK, "%s: %s", fn, err.message);
    cr_assert_eq(cf_world_new(&r.w, r.pg, seed, &err), CF_OK, "%s", err.message);
    return r;
}
static void close_fn(prog *r)
{
    cf_world_free(r->w);
    cf_program_free(r->pg);
    cf_pack_free(r->pk);
}
static double at(const prog *r, double x, double y, double z)
{
    double xyz[3] = {x, y, z}, v;
    cf_error err = {0};
    cr_assert_eq(cf_sample_f64(r->w, 0, 1, xyz, &v, &err), CF_OK, "%s", err.message);
    return v;
}
/* a style object sampled directly (iris_compile_json, RNG(world seed)) */
static double style_at(const char *json, int dims, int64_t seed, double x, double y, double z)
{
    cf_program *pg;
    cf_world *w;
    cf_error err = {0};
    cr_assert_eq(iris_compile_json(&pg, "style", json, 0, dims, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_world_new(&w, pg, seed, &err), CF_OK, "%s", err.message);
    double xyz[3] = {x, y, z}, v;
    cr_assert_eq(cf_sample_f64(w, 0, 1, xyz, &v, &err), CF_OK, "%s", err.message);
    cf_world_free(w);
    cf_program_free(pg);
    return v;
}

/* ------------------------------------------------------------------ expression values */
static double dcmpg_gt(double a, double b) { return (a > b || a != a || b != b) ? 1 : 0; }
static double intpow_ref(double x, long n) /* Paralithic's repeated squaring, written out */
{
    double r = 1;
    while (n > 0) {
        if (n % 2 == 0) x = x * x, n /= 2;
        else r = r * x, n -= 1;
    }
    return r;
}

typedef struct xcase {
    const char *text;
    double want;
} xcase;

/* evaluates every case at one point (x, y, z) through iris:expression/KEY */
static void check_cases(const xcase *cs, int n, double x, double y, double z)
{
    char json[1024];
    for (int i = 0; i < n; i++) {
        cJSON *s = cJSON_CreateString(cs[i].text);
        char *q = cJSON_PrintUnformatted(s);
        snprintf(json, sizeof json, "{\"expression\": %s}", q);
        free(q);
        cJSON_Delete(s);
        put_expr("case", json);
        prog r = open_fn("iris:expression/case", 5);
        double got = at(&r, x, y, z);
        close_fn(&r);
        cr_expect_eq(dbits(got), dbits(cs[i].want), "\"%s\" at (%g, %g, %g): got %.17g (%016" PRIx64 "), want %.17g (%016" PRIx64 ")",
                     cs[i].text, x, y, z, got, dbits(got), cs[i].want, dbits(cs[i].want));
    }
}

Test(iris_expr, precedence_associativity_and_literals)
{
    make_pack();
    const double x = 1.5, y = 0.3, z = -7.25;
    const xcase cs[] = {
        {"1 + 2 * 3", 7},
        {"(1 + 2) * 3", 9},
        {"10 - 4 - 3", 3},
        {"x - y - z", (x - y) - z},
        {"x - (y - z)", x - (y - z)},
        {"100 / 10 / 4", 2.5},
        {"x / y / z", (x / y) / z},
        {"x / y * z", (x / y) * z},
        {"7 % 4 * 2", 6},
        {"z % 3", fmod(z, 3)},
        {"2 ^ 3 ^ 2", 64},      /* Paralithic groups ^ to the left */
        {"2 ** 3", 8},
        {"x-2^2", x + 4},       /* '-' glued to 2: x + (-2)^2 */
        {"x - 2^2", x - 4},
        {"-2^2", 4},
        {"- x ^ 2", x * x},     /* (-x)^2 */
        {"x -1", x + -1.0},
        {"1 + 2 < 4", 1},
        {"3 < 2 < 1", 1},       /* (3 < 2) < 1 */
        {"1 < 2 && 0 || 1", 1}, /* (1 && 0) || 1 */
        {"1 || 0 && 0", 0},     /* (1 || 0) && 0 */
        {"x = 1.5", 1},
        {"x != 1.5", 0},
        {"x >= 1.5 && z <= -7.25", 1},
        {"2k + 3m + 5u", (2000.0 + 0.003) + 5e-6},
        {"1.5M - 2G + 7n", (1500000.0 - 2e9) + 7e-9},
        {"1_000 + .5 + 1.5e2 + 2E-1", ((1000 + 0.5) + 150) + 0.2},
        {"x /* a comment */ + 1 // the end", x + 1},
        {"+(2) + +3", 5},
        {"pi * euler", 3.141592653589793 * 2.718281828459045},
        {"let a := x * 2, b := a + 1 in a * b", (x * 2) * ((x * 2) + 1)},
        {"let a := 1 in let a := a + 1 in a", 2},
        {"LET q := y IN q * q", y * y},
    };
    check_cases(cs, (int)(sizeof cs / sizeof cs[0]), x, y, z);
    rm_pack();
}

Test(iris_expr, simplification_as_paralithic)
{
    make_pack();
    const double x = 1.5, y = 0.3, z = -7.25;
    const xcase cs[] = {
        {"x * 3 * 0.1", x * (3 * 0.1)},          /* (x*3)*0.1 -> x*(3*0.1) */
        {"0.1 + x + 0.2", x + (0.1 + 0.2)},
        {"0.1 * (0.7 * y)", (0.1 * 0.7) * y},
        {"0.1 + (y + 0.7)", (0.1 + 0.7) + y},
        {"x - 0.1 - 0.2", (x - 0.1) - 0.2},      /* subtraction is not re-associated */
        {"z ^ 0", 1},
        {"z ^ 1", z},
        {"z ^ 2", z * z},
        {"y ^ 3", intpow_ref(y, 3)},
        {"y ^ 7", intpow_ref(y, 7)},
        {"x ^ 0.5", sqrt(x)},
        {"x ^ 2.5", cf_ir_pow(x, 2.5)},
        {"x ^ y", cf_ir_pow(x, y)},
        {"2 ^ 0.5", cf_ir_pow(2, 0.5)},          /* folded with Math.pow */
        {"|-0|", 0.0},                            /* a constant operand: folded with Math.abs */
        {"|0 * -1|", -0.0},                       /* the operand folds later: compiled |v| keeps -0.0 */
        {"|y * 0 * -1|", -0.0},                   /* compiled: keeps -0.0 */
        {"abs(y * 0 * -1)", 0.0},
        {"x > 0/0", 1},                           /* dcmpg: NaN compares greater */
        {"x >= 0/0", 1},
        {"x < 0/0", 0},
        {"x = 0/0", 0},
        {"x != 0/0", 1},
        {"1 > 0/0", 0},                           /* folded: Java's > */
        {"if(0/0, 1, 2)", 1},
        {"if(x * 0 / 0, 1, 2)", 1},
        {"if(x - 1.5, 1, 2)", 2},
        {"(x * 0 / 0) && 1", 1},
        {"0 || x - 1.5", 0},
    };
    check_cases(cs, (int)(sizeof cs / sizeof cs[0]), x, y, z);
    cr_expect_eq(dcmpg_gt(1, NAN), 1);
    rm_pack();
}

Test(iris_expr, every_builtin_function)
{
    make_pack();
    const double x = 1.5, y = 0.3, z = -7.25;
    const xcase cs[] = {
        {"sin(x * 3)", cf_ir_sin(x * 3)},
        {"cos(z)", cf_ir_cos(z)},
        {"pow(x, z)", cf_ir_pow(x, z)},
        {"pow(2, 0.5)", cf_ir_pow(2, 0.5)},
        {"floor(z)", -8},
        {"ceil(z)", -7},
        {"ceil(-y)", -0.0},
        {"round(z)", -7},
        {"round(-2.5)", -2},
        {"round(2.5)", 3},
        {"round(x * 1e300)", 9223372036854775807.0},
        {"round(0/0)", 0},
        {"min(x, z)", z},
        {"min(0 * -1, 0)", -0.0},
        {"min(0, 0 * -1)", -0.0},
        {"max(0 * -1, 0)", 0.0},
        {"max(x, 0/0) = max(x, 0/0)", 0},
        {"sqrt(x)", sqrt(x)},
        {"rad(z)", z * 0.017453292519943295},
        {"deg(y)", y * 57.29577951308232},
        {"abs(z)", 7.25},
        {"sign(z)", -1},
        {"sign(y)", 1},
        {"sign(y * 0 * -1)", -0.0},
        {"if(x > 1, y, z)", y},
        {"if(x > 2, y, z)", z},
    };
    check_cases(cs, (int)(sizeof cs / sizeof cs[0]), x, y, z);
    rm_pack();
}

/* x, y, z and variables; 2-D: Iris's evaluate(rng, x, z) puts z in "y" and -1 in "z" */
Test(iris_expr, variables_bound_to_styles_and_coordinates)
{
    make_pack();
    const char *vstyle = "{\"style\": \"IRIS\", \"zoom\": 30}", *fstyle = "{\"style\": \"CLOVER\", \"zoom\": 3}";
    char json[1024];
    snprintf(json, sizeof json,
             "{\"expression\": \"v * 2 + w - x / 4 + y * z + f(x * 2, z) + g(x, y, z) + s\","
             " \"variables\": [{\"name\": \"v\", \"styleValue\": %s}, {\"name\": \"w\", \"staticValue\": 0.25}, {\"name\": \"s\"}],"
             " \"functions\": [{\"name\": \"f\", \"styleValue\": %s}, {\"name\": \"g\", \"args\": 3, \"styleValue\": %s}, {\"name\": \"h\"}]}",
             vstyle, fstyle, fstyle);
    put_expr("vars", json);
    const int64_t seed = 1337;
    static const double pts[4][3] = {{10.5, 64, -3.25}, {-1234.125, 7, 99.5}, {0, 0, 0}, {333, -20, 1e5}};
    for (int d = 2; d <= 3; d++) {
        prog r = open_fn(d == 3 ? "iris:expression/vars" : "iris:expression/vars#2d", seed);
        for (int i = 0; i < 4; i++) {
            double x = pts[i][0], y = d == 3 ? pts[i][1] : 0.0, z = pts[i][2];
            /* the expression's x, y, z: 2-D evaluate(rng, x, z) gives "y" = z and "z" = -1 */
            double ex = x, ey = d == 3 ? y : z, ez = d == 3 ? z : -1;
            double v = style_at(vstyle, d, seed, x, y, z);
            double f = style_at(fstyle, 2, seed, ex * 2, 0, ez);
            double g = style_at(fstyle, 3, seed, ex, ey, ez);
            double want = (((((v * 2 + 0.25) - ex / 4) + ey * ez) + f) + g) + -1.0;
            double got = at(&r, x, y, z);
            cr_expect_eq(dbits(got), dbits(want), "dims %d point %d: got %.17g want %.17g", d, i, got, want);
        }
        close_fn(&r);
    }
    rm_pack();
}

/* IrisGeneratorStyle {"expression": KEY}: CNG(rng, ExpressionNoise) -> scale 1/zoom,
 * power exponent; 2-D samples call the expression's noise(x*es, z*es, 0) */
Test(iris_expr, style_with_expression)
{
    make_pack();
    put_expr("e", "{\"expression\": \"x * 0.01 + y * 0.02 - z * 0.003 + v\","
                  " \"variables\": [{\"name\": \"v\", \"styleValue\": {\"style\": \"SIMPLEX\"}}]}");
    cf_error err = {0};
    const char *roots[1] = {pack_dir};
    cf_pack *pk;
    cr_assert_eq(cf_pack_open(&pk, roots, 1, NULL, &err), CF_OK, "%s", err.message);
    const char *sj = "{\"expression\": \"e\", \"zoom\": 4, \"exponent\": 1.5}";
    prog e3 = open_fn("iris:expression/e", 77);
    for (int d = 2; d <= 3; d++) {
        cf_program *pg;
        cf_world *w;
        cr_assert_eq(iris_compile_json_pk(&pg, pk, "style", sj, 0, d, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_world_new(&w, pg, 77, &err), CF_OK, "%s", err.message);
        static const double pts[3][3] = {{10.5, 64, -3.25}, {-1234.125, 7, 99.5}, {400, 90, 12}};
        for (int i = 0; i < 3; i++) {
            double x = pts[i][0], y = d == 3 ? pts[i][1] : 0, z = pts[i][2], es = 1 * (1.0 / 4);
            double n = d == 3 ? at(&e3, x * es, y * es, z * es) : at(&e3, x * es, z * es, 0.0 * es);
            double want = n < 0 ? -cf_ir_pow(-n, 1.5) : cf_ir_pow(n, 1.5);
            double xyz[3] = {x, y, z}, got;
            cr_assert_eq(cf_sample_f64(w, 0, 1, xyz, &got, &err), CF_OK, "%s", err.message);
            cr_expect_eq(dbits(got), dbits(want), "dims %d point %d: got %.17g want %.17g", d, i, got, want);
        }
        cf_world_free(w);
        cf_program_free(pg);
    }
    close_fn(&e3);
    cf_pack_free(pk);
    rm_pack();
}

/* an expression that only reads a SIMPLEX variable, used as the fracture of
 * FRACTAL_SMOKE (whose own CNG is the first of its construction, so a variable
 * style that reused the parent's construction slots would change it), equals
 * that style with the SIMPLEX style as its fracture: same RNG (rng + 2934),
 * noise(x, z) = noise(x, z, 0) for an unfractured CNG */
Test(iris_expr, expression_as_a_nested_fracture)
{
    make_pack();
    put_expr("sv", "{\"expression\": \"v\", \"variables\": [{\"name\": \"v\", \"styleValue\": {\"style\": \"SIMPLEX\", \"zoom\": 0.5}}]}");
    cf_error err = {0};
    const char *roots[1] = {pack_dir};
    cf_pack *pk;
    cr_assert_eq(cf_pack_open(&pk, roots, 1, NULL, &err), CF_OK, "%s", err.message);
    const char *a = "{\"style\": \"FRACTAL_SMOKE\", \"zoom\": 3, \"fracture\": {\"expression\": \"sv\", \"multiplier\": 40}}";
    const char *b = "{\"style\": \"FRACTAL_SMOKE\", \"zoom\": 3, \"fracture\": {\"style\": \"SIMPLEX\", \"zoom\": 0.5, \"multiplier\": 40}}";
    for (int u = 0; u < 2; u++) {
        cf_program *pa, *pb;
        cf_world *wa, *wb;
        cr_assert_eq(iris_compile_json_pk(&pa, pk, "style", a, u, 2, &err), CF_OK, "%s", err.message);
        cr_assert_eq(iris_compile_json_pk(&pb, pk, "style", b, u, 2, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_world_new(&wa, pa, 99, &err), CF_OK, "%s", err.message);
        cr_assert_eq(cf_world_new(&wb, pb, 99, &err), CF_OK, "%s", err.message);
        for (int i = 0; i < 40; i++) {
            double xyz[3] = {i * 37.25 - 700, 0, i * -11.5 + 90}, va, vb;
            cr_assert_eq(cf_sample_f64(wa, 0, 1, xyz, &va, &err), CF_OK, "%s", err.message);
            cr_assert_eq(cf_sample_f64(wb, 0, 1, xyz, &vb, &err), CF_OK, "%s", err.message);
            cr_expect_eq(dbits(va), dbits(vb), "%s point %d: %.17g vs %.17g", u ? "unification" : "master", i, va, vb);
        }
        cf_world_free(wa), cf_world_free(wb);
        cf_program_free(pa), cf_program_free(pb);
    }
    cf_pack_free(pk);
    rm_pack();
}

/* ------------------------------------------------------------------ images */
#define IW 7
#define IH 5
static uint8_t pix[IH][IW][4];
static void write_png(const char *key, int alpha)
{
    for (int z = 0; z < IH; z++)
        for (int x = 0; x < IW; x++) {
            uint8_t *p = pix[z][x];
            p[0] = (uint8_t)(37 * x + 91 * z + 13), p[1] = (uint8_t)(211 * x + 17 * z * z), p[2] = (uint8_t)(255 - 29 * x * z);
            p[3] = alpha ? (uint8_t)(255 - 11 * (x + z)) : 255;
            if (x == 1 && z == 1) p[0] = p[1] = p[2] = 128; /* grey: saturation 0 */
            if (x == 2 && z == 0) p[0] = 0, p[1] = 0, p[2] = 0;
        }
    char p[600];
    snprintf(p, sizeof p, "%s/images/%s.png", pack_dir, key);
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = IW, img.height = IH;
    img.format = alpha ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
    uint8_t buf[IH * IW * 4];
    int k = 0;
    for (int z = 0; z < IH; z++)
        for (int x = 0; x < IW; x++)
            for (int c = 0; c < (alpha ? 4 : 3); c++) buf[k++] = pix[z][x][c];
    cr_assert(png_image_write_to_file(&img, p, 0, buf, 0, NULL), "%s", img.message);
}

/* java.awt.Color.RGBtoHSB (binary32), written again for the oracle */
static void hsb_ref(int r, int g, int b, float out[3])
{
    int hi = r, lo = r;
    if (g > hi) hi = g;
    if (b > hi) hi = b;
    if (g < lo) lo = g;
    if (b < lo) lo = b;
    float s = hi == 0 ? 0.0f : (float)(hi - lo) / (float)hi, h = 0;
    if (s != 0) {
        float d = (float)(hi - lo), rc = (float)(hi - r) / d, gc = (float)(hi - g) / d, bc = (float)(hi - b) / d;
        h = r == hi ? bc - gc : g == hi ? (2.0f + rc) - bc : (4.0f + gc) - rc;
        h = h / 6.0f;
        if (h < 0) h = h + 1.0f;
    }
    out[0] = h, out[1] = s, out[2] = (float)hi / 255.0f;
}
static const char *const chan_names[13] = {"RED", "GREEN", "BLUE", "SATURATION", "HUE", "BRIGHTNESS", "COMPOSITE_ADD_RGB",
                                           "COMPOSITE_MUL_RGB", "COMPOSITE_MAX_RGB", "COMPOSITE_ADD_HSB", "COMPOSITE_MUL_HSB",
                                           "COMPOSITE_MAX_HSB", "RAW"};
/* the channel value of pixel (x, z), or of color 0 outside the image */
static double chan_ref(int ch, int x, int z, int alpha)
{
    int in = x >= 0 && z >= 0 && x < IW && z < IH;
    int r = in ? pix[z][x][0] : 0, g = in ? pix[z][x][1] : 0, b = in ? pix[z][x][2] : 0;
    uint32_t a = in ? (alpha ? pix[z][x][3] : 255u) : 0u;
    float h[3];
    hsb_ref(r, g, b, h);
    double R = r / 255.0, G = g / 255.0, B = b / 255.0;
    switch (ch) {
    case 0: return R;
    case 1: return G;
    case 2: return B;
    case 3: return h[1];
    case 4: return h[0];
    case 5: return h[2];
    case 6: return (R + G + B) / 3.0;
    case 7: return R * G * B;
    case 8: return fmax(fmax(R, G), B);
    case 9: return (double)(h[0] + h[1] + h[2]) / 3.0;
    case 10: return (double)(h[0] * h[1] * h[2]);
    case 11: return (double)fmaxf(h[0], fmaxf(h[1], h[2]));
    default: return in ? (double)(int32_t)((a << 24) | ((uint32_t)r << 16) | ((uint32_t)g << 8) | (uint32_t)b) : 0.0;
    }
}
/* IrisImageMap.rawNoise written again: (a, b) provider point -> value */
static double raw_ref(int ch, double cs, int tiled, int centered, int inverted, int alpha, double a, double b)
{
    double x = a / cs, z = b / cs;
    if (centered) x += IW / 2.0, z += IH / 2.0;
    if (tiled) {
        x = fmod(x, IW), z = fmod(z, IH);
        if (x < 0) x += IW;
        if (z < 0) z += IH;
    }
    double v = chan_ref(ch, (int)x, (int)z, alpha); /* |values| here are far below 2^31 */
    return inverted ? 1.0 - v : v;
}

Test(iris_expr, image_every_channel_and_flags)
{
    make_pack();
    write_png("rgb", 0);
    write_png("rgba", 1);
    char fn[300];
    for (int alpha = 0; alpha < 2; alpha++)
        for (int ch = 0; ch < 13; ch++)
            for (int fl = 0; fl < 8; fl++) {
                int tiled = fl & 1, centered = (fl >> 1) & 1, inverted = (fl >> 2) & 1;
                double cs = fl == 5 ? 2.5 : 1;
                snprintf(fn, sizeof fn, "iris:image/%s?channel=%s&interpolationMethod=NONE&coordinateScale=%g&tiled=%s&centered=%s&inverted=%s#2d",
                         alpha ? "rgba" : "rgb", chan_names[ch], cs, tiled ? "true" : "false", centered ? "true" : "false",
                         inverted ? "true" : "false");
                prog r = open_fn(fn, 1);
                for (int z = -9; z <= 9; z += 2)
                    for (int x = -11; x <= 12; x += 3) {
                        double px = x + 0.75, pz = z - 0.5; /* (int) truncates toward zero */
                        double want = raw_ref(ch, cs, tiled, centered, inverted, alpha, (double)(int)px, (double)(int)pz);
                        double got = at(&r, px, 0, pz);
                        cr_expect_eq(dbits(got), dbits(want), "%s at (%g, %g): got %.17g want %.17g", fn, px, pz, got, want);
                    }
                close_fn(&r);
            }
    rm_pack();
}

/* bilinear interpolation (IRIS.md §8.1, 8.2) over the raw values, and the 3-D
 * call: ImageNoise.noise(x, y, z) = getNoise((int) x, (int) (z + y)) */
static int32_t grid(int32_t c, double r, int k)
{
    int32_t f = (int32_t)floor((double)c / r);
    double g = (double)(f + k) * r;
    return (int32_t)(int64_t)floor(g + 0.5);
}
Test(iris_expr, image_interpolation_and_3d)
{
    make_pack();
    write_png("m", 0);
    const double cs = 3;
    prog r = open_fn("iris:image/m?channel=COMPOSITE_ADD_HSB&interpolationMethod=BILINEAR&coordinateScale=3&tiled=true", 1);
    prog r3 = open_fn("iris:image/m?channel=RED&interpolationMethod=NONE&coordinateScale=1&centered=false", 1);
    for (int z = -20; z <= 20; z += 3)
        for (int x = -25; x <= 25; x += 4) {
            int32_t x0 = grid(x, cs, 0), x1 = grid(x, cs, 1), z0 = grid(z, cs, 0), z1 = grid(z, cs, 1);
            double tx = ((double)x - x0) / ((double)x1 - x0), tz = ((double)z - z0) / ((double)z1 - z0);
#define RAW(a, b) raw_ref(9, cs, 1, 1, 0, 0, (double)(a), (double)(b))
            double p00 = RAW(x0, z0), p10 = RAW(x1, z0), p01 = RAW(x0, z1), p11 = RAW(x1, z1);
            double l0 = p00 + tx * (p10 - p00), l1 = p01 + tx * (p11 - p01), want = l0 + tz * (l1 - l0);
            double got = at(&r, x, 0, z);
            cr_expect_eq(dbits(got), dbits(want), "bilinear at (%d, %d): got %.17g want %.17g", x, z, got, want);
            double y = 1.5, g3 = at(&r3, x / 4.0, y, z / 5.0);
            double w3 = raw_ref(0, 1, 0, 0, 0, 0, (double)(int)(x / 4.0), (double)(int)(z / 5.0 + y));
            cr_expect_eq(dbits(g3), dbits(w3), "3-D at (%g, %g, %g): got %.17g want %.17g", x / 4.0, y, z / 5.0, g3, w3);
        }
    close_fn(&r);
    close_fn(&r3);
    rm_pack();
}

/* IrisGeneratorStyle {"imageMap": {...}}: CNG(rng, ImageNoise), 2-D samples at
 * (int)(x*es), (int)(z*es + 0) */
Test(iris_expr, style_with_image_map)
{
    make_pack();
    write_png("m", 0);
    put("generators/g.json", "{\"composite\": [{\"style\": {\"imageMap\": {\"image\": \"m\", \"channel\": \"GREEN\","
                             " \"interpolationMethod\": \"NONE\", \"coordinateScale\": 1, \"centered\": false}, \"zoom\": 2}}]}");
    prog r = open_fn("iris:generator/g#super", 3);
    for (int z = 0; z < 2 * IH; z++)
        for (int x = 0; x < 2 * IW; x++) {
            double want = raw_ref(1, 1, 0, 0, 0, 0, (double)(int)(x * 0.5), (double)(int)(z * 0.5 + 0.0));
            double got = at(&r, x, 0, z);
            cr_expect_eq(dbits(got), dbits(want), "(%d, %d): got %.17g want %.17g", x, z, got, want);
        }
    close_fn(&r);
    rm_pack();
}

/* ------------------------------------------------------------------ OpenCL (PoCL) == CPU */
Test(iris_expr_device, opencl_equals_cpu, .timeout = 900)
{
    make_pack();
    write_png("m", 1);
    put_expr("b", "{\"expression\": \"let q := v * 3 + sin(x / 7) in if(q > 1, q ^ 2, |q - y/100| + max(z, -0.5) % 3) + f(x*2, z)"
                  " + round(x/3) + sign(y-40) + deg(rad(z)) + floor(x/5)*ceil(z/4) + sqrt(|x|) + 2^3.5 + q^0.5 + q^3 + (x < z)"
                  " + (x = z) + (x != y) + (x >= 1 && z <= 2) - -x + cos(z) * pow(|x| + 1, 0.3) + min(x, y) + abs(z) + x * 3 * 0.1\","
                  " \"variables\": [{\"name\": \"v\", \"styleValue\": {\"style\": \"IRIS\", \"zoom\": 30}}],"
                  " \"functions\": [{\"name\": \"f\", \"styleValue\": {\"style\": \"CLOVER\"}}]}");
    put("generators/g.json", "{\"composite\": [{\"style\": {\"expression\": \"b\", \"zoom\": 2, \"exponent\": 0.5,"
                             " \"fracture\": {\"style\": \"SIMPLEX\", \"multiplier\": 3}}},"
                             " {\"style\": {\"imageMap\": {\"image\": \"m\", \"coordinateScale\": 3, \"tiled\": true}, \"cellularFrequency\": 2}}]}");
    static const char *const fns[] = {"iris:expression/b", "iris:expression/b#2d", "iris:generator/g#super",
                                      "iris:image/m?coordinateScale=2.5&interpolationMethod=HERMITE_STARCAST_6&channel=RAW",
                                      "iris:image/m?interpolationMethod=BILINEAR_PARAMETRIC_2&channel=HUE&inverted=true"};
    static const int32_t chunks[6] = {0, 0, -1, -1, 3, -2};
    const char *roots[1] = {pack_dir};
    for (int b = 0; b < 2; b++)
        for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
            cf_error err = {0};
            cf_pack *pk;
            cf_program *pg;
            cr_assert_eq(cf_pack_open(&pk, roots, 1, NULL, &err), CF_OK, "%s", err.message);
            cr_assert_eq(cf_program_compile(&pg, pk, b ? "iris:unification" : "iris:master", &fns[f], 1, &err), CF_OK, "%s", err.message);
            cf_device *dev;
            cr_assert_eq(cf_device_open(&dev, "opencl", pg, 0, 0, &err), CF_OK, "%s", err.message);
            int height;
            cf_program_settings(pg, NULL, &height, NULL);
            size_t per = (size_t)height * 256, diff = 0;
            double *a = malloc(sizeof(double) * per * 3), *c = malloc(sizeof(double) * per * 3);
            cr_assert(a && c);
            cf_world *w;
            cr_assert_eq(cf_world_new(&w, pg, -42, &err), CF_OK, "%s", err.message);
            cr_assert_eq(cf_device_fill(dev, w, 3, chunks, a, &err), CF_OK, "%s", err.message);
            cr_assert_eq(cf_fill_chunks(w, 0, 3, chunks, c, 0, &err), CF_OK, "%s", err.message);
            for (size_t i = 0; i < per * 3; i++) diff += memcmp(&a[i], &c[i], sizeof(double)) != 0;
            cr_expect_eq(diff, 0u, "%s (%s): %zu blocks differ", fns[f], b ? "unification" : "master", diff);
            cf_world_free(w);
            free(a), free(c);
            cf_device_free(dev);
            cf_program_free(pg);
            cf_pack_free(pk);
        }
    rm_pack();
}

/* ------------------------------------------------------------------ command line and bad input */
/* the sample contract: points echoed, values %.17g (values from the cases above) */
Test(iris_expr_cli, sample)
{
    make_pack();
    put_expr("s", "{\"expression\": \"x * 2 + y - z / 4 + v\", \"variables\": [{\"name\": \"v\", \"staticValue\": 0.5}]}");
    char args[1024], out[4096];
    snprintf(args, sizeof args, "sample --pack %s --function iris:expression/s --seed 1 --at 1,2,3 --at 1,2", pack_dir);
    cr_assert_eq(run(args, out, sizeof out), 0, "%s", out);
    /* 3-D: 2 + 2 - 0.75 + 0.5; 2-D: y = z = 2, z = -1: 2 + 2 + 0.25 + 0.5 */
    cr_expect_str_eq(out, "1 2 3 3.75\n1 2 4.75\n");
    rm_pack();
}

static void bad(const char *fn, const char *want)
{
    char args[1024], out[4096];
    snprintf(args, sizeof args, "sample --pack %s --function '%s' --seed 1 --at 0,0", pack_dir, fn);
    cr_expect_eq(run(args, out, sizeof out), 1, "%s: %s", fn, out);
    cr_expect(strstr(out, want) != NULL, "%s: got \"%s\", want \"%s\"", fn, out, want);
    size_t nl = 0;
    for (const char *p = out; *p; p++) nl += *p == '\n';
    cr_expect_eq(nl, 1u, "%s: not one line: %s", fn, out);
}

Test(iris_expr_cli, bad_input_located)
{
    make_pack();
    write_png("m", 0);
    put("images/text.png", "this is not a PNG\n");
    {
        char p[600];
        snprintf(p, sizeof p, "%s/images/grey.png", pack_dir);
        png_image img;
        memset(&img, 0, sizeof img);
        img.version = PNG_IMAGE_VERSION;
        img.width = 2, img.height = 2, img.format = PNG_FORMAT_GRAY;
        uint8_t g[4] = {1, 2, 3, 4};
        cr_assert(png_image_write_to_file(&img, p, 0, g, 0, NULL));
    }
    put_expr("bad1", "{\"expression\": \"x + * 2\"}");
    put_expr("bad2", "{\"expression\": \"1 + (2 * x\"}");
    put_expr("bad3", "{\"expression\": \"tan(x)\"}");
    put_expr("bad4", "{\"expression\": \"x + nope\"}");
    put_expr("bad5", "{\"expression\": \"h\", \"variables\": [{\"name\": \"h\", \"engineValue\": \"FLUID_HEIGHT\"}]}");
    put_expr("bad6", "{\"expression\": \"2 x\"}");
    put_expr("bad7", "{\"expression\": 3}");
    put_expr("bad8", "{\"expression\": \"max(x)\"}");
    {
        char deep[700] = "{\"expression\": \"";
        for (int i = 0; i < 250; i++) strcat(deep, "(");
        strcat(deep, "x\"}");
        put_expr("bad9", deep);
    }
    put("generators/g1.json", "{\"composite\": [{\"style\": {\"expression\": \"missing\"}}]}");
    put("generators/g2.json", "{\"composite\": [{\"style\": {\"imageMap\": {\"image\": \"m\", \"channel\": \"PURPLE\"}}}]}");
    put("generators/g3.json", "{\"composite\": [{\"style\": {\"imageMap\": {\"image\": \"text\"}}}]}");
    put("generators/g4.json", "{\"composite\": [{\"style\": {\"imageMap\": {\"image\": \"gone\"}}}]}");
    put("generators/g5.json", "{\"composite\": [{\"style\": {\"expression\": \"bad1\"}}]}");
    bad("iris:expression/bad1", "expressions/bad1.json#/expression: column 5: unexpected '*'");
    bad("iris:expression/bad2", "expressions/bad2.json#/expression: column 11: unexpected 'end of expression', expected ')'");
    bad("iris:expression/bad3", "expressions/bad3.json#/expression: column 1: function 'tan' is not supported");
    bad("iris:expression/bad4", "expressions/bad4.json#/expression: column 5: unknown variable 'nope'");
    bad("iris:expression/bad5", "expressions/bad5.json#/variables/0/engineValue: engineValue FLUID_HEIGHT: a value of the running Iris engine");
    bad("iris:expression/bad6", "expressions/bad6.json#/expression: column 3: unexpected 'x' after a number");
    bad("iris:expression/bad7", "expressions/bad7.json#/expression: expected an expression (a string)");
    bad("iris:expression/bad8", "expressions/bad8.json#/expression: column 1: function 'max' takes 2 arguments, found 1");
    bad("iris:expression/bad9", "expressions/bad9.json#/expression: column 201: the expression is nested deeper than 200");
    bad("iris:expression/none", "no expressions/none.json in the pack");
    bad("iris:generator/g1", "generators/g1.json#/composite/0/style/expression: expression \"missing\": no expressions/missing.json in the pack");
    bad("iris:generator/g2", "generators/g2.json#/composite/0/style/imageMap/channel: unknown image channel \"PURPLE\"");
    bad("iris:generator/g3", "generators/g3.json#/composite/0/style/imageMap/image: ");
    bad("iris:generator/g3", "images/text.png: not a PNG file");
    bad("iris:generator/g4", "generators/g4.json#/composite/0/style/imageMap/image: image \"gone\": no images/gone.png in the pack");
    bad("iris:generator/g5", "expressions/bad1.json#/expression: column 5:");
    bad("iris:image/grey", "images/grey.png: a grayscale PNG");
    bad("iris:image/m?channel=PURPLE", "#/channel: unknown image channel \"PURPLE\"");
    bad("iris:image/m?interpolationMethod=CUBIC", "#/interpolationMethod: unknown interpolation method \"CUBIC\"");
    bad("iris:image/m?zoom=2", "unknown option \"zoom\"");
    rm_pack();
}
