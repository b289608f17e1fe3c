/* test_hytale_v2.c - the Hytale V2 node kinds added for the whole V2 list (host/frontend/hytale/v2.c,
 * kernels/cf_hytale.h): Rotator and shapes, Angle / Gradient / YSampled, warps, Simplex3D, curves,
 * Switch states, external maps and anchors, PositionsCellNoise, their bad input and CLI. The
 * FastNoiseLite records, the first V2 kinds, the device and the legacy assets are test_hytale.c
 * and test_hytale_legacy.c. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kernels/cf_hytale.h"
#include "cpu/cpu.h"
#include "frontend/hytale/hytale.h"
#include "chunkfill.h"
#include "testutil.h"
#include "hytale_util.h"

/* ================================================================== V2 (hytale-v2): the nodes added for the whole V2 list */
#define S3D "{\"Type\":\"SimplexNoise3D\",\"ScaleXZ\":31,\"ScaleY\":17,\"Octaves\":2,\"Lacunarity\":2,\"Persistence\":0.5,\"Seed\":\"q\"}"
#define CELL3 "{\"Type\":\"CellNoise3D\",\"Scale\":13,\"Jitter\":0.8,\"CellType\":\"Distance2Add\",\"Seed\":\"c\"}"
#define IDCURVE "{\"Type\":\"Manual\",\"Points\":[{\"In\":-1e6,\"Out\":-1e6},{\"In\":1e6,\"Out\":1e6}]}"
static int near(double a, double b, double tol) { return fabs(a - b) <= tol * (1 + fabs(b)); }
static cf_program *compilef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static cf_program *compilef(const char *fmt, ...)
{
    static char buf[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return compile1(buf);
}

Test(v2_more, rotator_aligns_spins_and_preserves_distance)
{
    cf_program *n = compile1(CELL3), *id = compilef("{\"Type\":\"Rotator\",\"NewYAxis\":{\"Y\":1},\"Inputs\":[%s]}", CELL3);
    cf_program *ny = compile1("{\"Type\":\"Rotator\",\"NewYAxis\":{\"X\":1,\"Y\":2,\"Z\":-2},\"Inputs\":[{\"Type\":\"YValue\"}]}");
    cf_program *sp = compile1("{\"Type\":\"Rotator\",\"NewYAxis\":[0,1,0],\"SpinAngle\":90,\"Inputs\":[{\"Type\":\"XValue\"}]}");
    cf_program *fl = compile1("{\"Type\":\"Rotator\",\"NewYAxis\":[0,-3,0],\"Inputs\":[{\"Type\":\"YValue\"}]}");
    cf_program *d = compile1("{\"Type\":\"Distance\",\"Curve\":" IDCURVE "}");
    cf_program *rd = compile1("{\"Type\":\"Rotator\",\"NewYAxis\":{\"X\":-0.3,\"Y\":0.2,\"Z\":0.9},\"SpinAngle\":71,\"Inputs\":[{\"Type\":\"Distance\","
                              "\"Curve\":" IDCURVE "}]}");
    cf_program *rp = compile1("{\"Type\":\"Rotator\",\"NewYAxis\":{\"X\":-0.3,\"Y\":0.2,\"Z\":0.9},\"SpinAngle\":71,\"Inputs\":[{\"Type\":\"Plane\","
                              "\"PlaneNormal\":{\"X\":1,\"Y\":1},\"Curve\":" IDCURVE "}]}");
    for (int i = 0; i < 100; i++) {
        double x = rnd(-500, 500), y = rnd(-64, 300), z = rnd(-500, 500);
        cr_assert(same(sample_at(id, 2, x, y, z), sample_at(n, 2, x, y, z)), "NewYAxis +Y, spin 0: the identity");
        cr_assert(near(sample_at(ny, 0, x, y, z), (x + 2 * y - 2 * z) / 3.0, 1e-12), "the new Y axis is NewYAxis");
        cr_assert(near(sample_at(sp, 0, x, y, z), -z, 1e-12), "spin 90 about +Y takes +X to -Z (right-handed)");
        cr_assert(same(sample_at(fl, 0, x, y, z), -y), "NewYAxis -Y: 180 degrees about +X");
        cr_assert(near(sample_at(rd, 0, x, y, z), sample_at(d, 0, x, y, z), 1e-12), "a rotation keeps distances");
        /* and angles: a rotated plane through the origin is still at distance |p.n'| with |n'| = 1 */
        double pv = sample_at(rp, 0, x, y, z);
        cr_assert(fabs(pv) <= sample_at(d, 0, x, y, z) * (1 + 1e-12));
    }
    cf_program_free(n), cf_program_free(id), cf_program_free(ny), cf_program_free(sp), cf_program_free(fl), cf_program_free(d);
    cf_program_free(rd), cf_program_free(rp);
}

Test(v2_more, shapes)
{
    const char *de = "{\"Type\":\"DistanceExponential\",\"Exponent\":2,\"Range\":50}";
    cf_program *dist = compilef("{\"Type\":\"Distance\",\"Curve\":%s}", de), *ell = compilef("{\"Type\":\"Ellipsoid\",\"Curve\":%s}", de);
    cf_program *cube = compilef("{\"Type\":\"Cube\",\"Curve\":%s}", de), *cub = compilef("{\"Type\":\"Cuboid\",\"Scale\":[1,1,1],\"Curve\":%s}", de);
    cf_program *ell2 = compilef("{\"Type\":\"Ellipsoid\",\"Scale\":{\"X\":2,\"Y\":4,\"Z\":8},\"Curve\":%s}", de);
    cf_program *cyl = compilef("{\"Type\":\"Cylinder\",\"AxialCurve\":" IDCURVE ",\"RadialCurve\":%s}", de);
    cf_program *shell = compile1("{\"Type\":\"Shell\",\"Axis\":{\"Y\":2},\"Mirror\":true,\"AngleCurve\":" IDCURVE ",\"DistanceCurve\":"
                                 "{\"Type\":\"Manual\",\"Points\":[{\"In\":0,\"Out\":1}]}}");
    cf_program *axis = compile1("{\"Type\":\"Axis\",\"Axis\":{\"X\":1,\"Y\":1,\"Z\":1},\"Curve\":" IDCURVE "}");
    cf_program *plane = compile1("{\"Type\":\"Plane\",\"PlaneNormal\":{\"Y\":5},\"Curve\":" IDCURVE "}");
    for (int i = 0; i < 100; i++) {
        double x = rnd(-60, 60), y = rnd(-60, 60), z = rnd(-60, 60);
        cr_assert(same(sample_at(ell, 0, x, y, z), sample_at(dist, 0, x, y, z)), "Ellipsoid with Scale 1, +Y, Spin 0 is Distance");
        cr_assert(same(sample_at(cub, 0, x, y, z), sample_at(cube, 0, x, y, z)), "Cuboid with Scale 1 is Cube");
        cr_assert(same(sample_at(ell2, 0, 2 * x, 4 * y, 8 * z), sample_at(dist, 0, x, y, z)), "Scale stretches each axis (powers of two: exact)");
        double c = sample_at(cyl, 0, x, y, z);
        cr_assert(same(sample_at(cyl, 0, -x, y, -z), c) && same(sample_at(cyl, 0, z, y, x), c), "a cylinder is symmetric about its axis");
        cr_assert(near(sample_at(shell, 0, x, -y, z), sample_at(shell, 0, x, y, z), 1e-12), "Mirror: symmetric across the plane normal to the axis");
        double sh = sample_at(shell, 0, x, y, z);
        cr_assert(sh >= 0 && sh <= 90 + 1e-9, "the mirrored angle is in [0, 90]: %g", sh);
        double s = rnd(-30, 30);
        cr_assert(near(sample_at(axis, 0, x + s, y + s, z + s), sample_at(axis, 0, x, y, z), 1e-9), "Axis: constant along the axis");
        cr_assert(near(sample_at(plane, 0, x, y, z), y, 1e-9), "Plane: the signed distance along the unit normal");
    }
    cr_assert(same(sample_at(shell, 0, 0, 0, 0), 0.0), "Shell at p = 0: angle 0 (choice)");
    cr_assert(near(sample_at(shell, 0, 1, 0, 0), 90.0, 1e-12) && near(sample_at(shell, 0, 0, -5, 0), 0.0, 1e-12));
    cf_program_free(dist), cf_program_free(ell), cf_program_free(cube), cf_program_free(cub), cf_program_free(ell2);
    cf_program_free(cyl), cf_program_free(shell), cf_program_free(axis), cf_program_free(plane);
}

Test(v2_more, angle_gradient_and_ysampled)
{
    cr_assert(near(one("{\"Type\":\"Angle\",\"Vector\":{\"X\":1},\"VectorProvider\":{\"Type\":\"Constant\",\"Vector\":{\"Y\":3}}}", 1, 2, 3), 90, 1e-13));
    cr_assert(near(one("{\"Type\":\"Angle\",\"Vector\":[1,1,0],\"VectorProvider\":{\"Type\":\"Constant\",\"Vector\":[1,0,0]}}", 1, 2, 3), 45, 1e-13));
    const char *g = "{\"Type\":\"Angle\",\"Vector\":%s,\"VectorProvider\":{\"Type\":\"DensityGradient\",\"SampleDistance\":1,\"Density\":{\"Type\":\"YValue\"}}}";
    cf_program *up = compilef(g, "{\"Y\":1}"), *side = compilef(g, "{\"Z\":1}"), *down = compilef(g, "{\"Y\":-2}");
    cr_assert(same(sample_at(up, 0, 3, 70, 5), 0.0) && near(sample_at(side, 0, 3, 70, 5), 90, 1e-13) && near(sample_at(down, 0, 3, 70, 5), 180, 1e-13));
    cf_program_free(up), cf_program_free(side), cf_program_free(down);
    const char *ramp = "{\"Type\":\"Gradient\",\"From\":1,\"To\":-1,\"FromY\":60,\"ToY\":100}";
    cr_assert(same(one(ramp, 5, 60, 5), 1.0) && same(one(ramp, 5, -1e9, 5), 1.0) && same(one(ramp, 5, 100, 5), -1.0) && same(one(ramp, 5, 80, 5), 0.0));
    cr_assert(same(one(ramp, 5, 70, 5), 0.5) && same(one(ramp, 1e6, 70, -3), 0.5));
    cf_program *ch = compile1(S3D);
    cf_program *yi = compilef("{\"Type\":\"YSampled\",\"SampleDistance\":8,\"SampleOffset\":3,\"Inputs\":[%s]}", S3D);
    cf_program *yc = compilef("{\"Type\":\"YSampled\",\"SampleDistance\":8,\"SampleOffset\":3,\"Interpolate\":false,\"Inputs\":[%s]}", S3D);
    for (int i = 0; i < 60; i++) {
        double x = rnd(-300, 300), z = rnd(-300, 300), k = floor(rnd(-8, 40)), y0 = 3 + 8 * k, f = rnd(0, 1);
        double a = sample_at(ch, 0, x, y0, z), b = sample_at(ch, 0, x, y0 + 8, z);
        cr_assert(same(sample_at(yi, 0, x, y0, z), a) && same(sample_at(yc, 0, x, y0, z), a), "at a sample plane: the child");
        cr_assert(same(sample_at(yc, 0, x, y0 + 8 * f, z), a), "Interpolate false: piecewise constant");
        double v = sample_at(yi, 0, x, y0 + 8 * f, z);
        cr_assert(v >= fmin(a, b) - 1e-12 && v <= fmax(a, b) + 1e-12, "linear between the planes");
    }
    cf_program_free(ch), cf_program_free(yi), cf_program_free(yc);
}

Test(v2_more, warps)
{
    cf_program *n = compile1(CELL3);
    cf_program *gc = compilef("{\"Type\":\"GradientWarp\",\"WarpFactor\":30,\"Inputs\":[%s," C(7) "]}", CELL3);
    cf_program *gx = compilef("{\"Type\":\"GradientWarp\",\"WarpFactor\":-6,\"Inputs\":[%s,{\"Type\":\"XValue\"}]}", CELL3);
    cf_program *g2 = compilef("{\"Type\":\"GradientWarp\",\"WarpFactor\":4,\"2D\":true,\"YFor2D\":-5,\"SampleRange\":2,\"Inputs\":[%s,"
                              "{\"Type\":\"Sum\",\"Inputs\":[{\"Type\":\"ZValue\"},{\"Type\":\"AmplitudeConstant\",\"Value\":1000,\"Inputs\":[{\"Type\":\"YValue\"}]}]}]}",
                              CELL3);
    cf_program *v0 = compilef("{\"Type\":\"VectorWarp\",\"WarpFactor\":15,\"WarpVector\":{\"X\":1,\"Z\":1},\"Inputs\":[%s," C(0) "]}", CELL3);
    cf_program *vh = compile1("{\"Type\":\"VectorWarp\",\"WarpFactor\":15,\"WarpVector\":{\"X\":1,\"Z\":1},\"Inputs\":[{\"Type\":\"Distance\",\"Curve\":" IDCURVE
                              "}," C(0.5) "]}");
    for (int i = 0; i < 100; i++) {
        double x = floor(rnd(-500, 500)) + 0.25, y = floor(rnd(-64, 300)) + 0.5, z = floor(rnd(-500, 500)) + 0.75, v = sample_at(n, 3, x, y, z);
        cr_assert(same(sample_at(gc, 3, x, y, z), v), "a constant warp source: the identity");
        cr_assert(same(sample_at(gx, 3, x, y, z), sample_at(n, 3, x - 6, y, z)), "source x: displaced by k along +x (forward differences)");
        cr_assert(same(sample_at(g2, 3, x, y, z), sample_at(n, 3, x, y, z + 4)), "2D: the source sampled at YFor2D, y untouched");
        cr_assert(same(sample_at(v0, 3, x, y, z), v), "VectorWarp with w = 0: the identity");
    }
    cr_assert(near(sample_at(vh, 0, 0, 0, 0), 7.5, 1e-12), "w 0.5 and k 15 move 7.5 blocks along the unit vector (HYTALE.md §4.5)");
    cf_program_free(n), cf_program_free(gc), cf_program_free(gx), cf_program_free(g2), cf_program_free(v0), cf_program_free(vh);
}

Test(v2_more, simplex3d_range_scale_and_seeds)
{
    cf_program *a = compile1("{\"Type\":\"SimplexNoise3D\",\"ScaleXZ\":32,\"ScaleY\":16,\"Octaves\":1,\"Lacunarity\":2,\"Persistence\":0.5,\"Seed\":\"q\"}");
    cf_program *a2 = compile1("{\"Type\":\"SimplexNoise3D\",\"ScaleXZ\":64,\"ScaleY\":32,\"Octaves\":1,\"Lacunarity\":2,\"Persistence\":0.5,\"Seed\":\"q\"}");
    cf_program *b = compile1(S3D), *c = compile1("{\"Type\":\"SimplexNoise3D\",\"ScaleXZ\":31,\"ScaleY\":17,\"Octaves\":2,\"Lacunarity\":2,"
                                                 "\"Persistence\":0.5,\"Seed\":\"r\"}");
    int differ = 0, ydep = 0;
    double lo = 1, hi = -1;
    for (int i = 0; i < 2000; i++) {
        double x = rnd(-5000, 5000), y = rnd(-300, 300), z = rnd(-5000, 5000), v = sample_at(b, 0, x, y, z);
        lo = fmin(lo, v), hi = fmax(hi, v);
        cr_assert(v >= -1 && v <= 1, "in [-1, 1]: %g", v);
        differ += !same(sample_at(c, 0, x, y, z), v) && !same(sample_at(b, 1, x, y, z), v);
        ydep += !same(sample_at(b, 0, x, y + 3, z), v);
        if (i < 200) cr_assert(same(sample_at(a2, 0, 2 * x, 2 * y, 2 * z), sample_at(a, 0, x, y, z)), "scales are periods in blocks");
    }
    cr_assert(differ > 1990 && ydep > 1990, "seed labels and world seeds change it; it varies with y (%d, %d)", differ, ydep);
    cr_assert(lo < -0.5 && hi > 0.5, "it spans its range: [%g, %g]", lo, hi);
    cf_program_free(a), cf_program_free(a2), cf_program_free(b), cf_program_free(c);
}

Test(v2_more, curves)
{
    const char *cm = "{\"Type\":\"CurveMapper\",\"Curve\":%s,\"Inputs\":[{\"Type\":\"XValue\"}]}";
    const char *man = "{\"Type\":\"Manual\",\"Points\":[{\"In\":-1,\"Out\":0.5},{\"In\":0.25,\"Out\":-0.75},{\"In\":2,\"Out\":1}]}";
    char buf[2000];
    cf_program *m = compilef(cm, man);
    const char *comb[] = {"{\"Type\":\"Max\",\"Curves\":[%s]}", "{\"Type\":\"Min\",\"Curves\":[%s]}", "{\"Type\":\"Sum\",\"Curves\":[%s]}",
                          "{\"Type\":\"Multiplier\",\"Curves\":[%s]}", "{\"Type\":\"SmoothMax\",\"Range\":0.2,\"CurveA\":%s,\"CurveB\":"
                                                                       "{\"Type\":\"Manual\",\"Points\":[{\"In\":0,\"Out\":-10}]}}"};
    cf_program *one_of[5], *inv, *not_, *cl, *sc, *fl, *ce;
    for (int k = 0; k < 5; k++) {
        snprintf(buf, sizeof buf, comb[k], man);
        one_of[k] = compilef(cm, buf);
    }
    snprintf(buf, sizeof buf, "{\"Type\":\"Inverter\",\"Curve\":%s}", man), inv = compilef(cm, buf);
    snprintf(buf, sizeof buf, "{\"Type\":\"Not\",\"Curve\":%s}", man), not_ = compilef(cm, buf);
    snprintf(buf, sizeof buf, "{\"Type\":\"Clamp\",\"WallA\":0.25,\"WallB\":-0.5,\"Curve\":%s}", man), cl = compilef(cm, buf);
    snprintf(buf, sizeof buf, "{\"Type\":\"SmoothClamp\",\"WallA\":0.25,\"WallB\":-0.5,\"Range\":0.1,\"Curve\":%s}", man), sc = compilef(cm, buf);
    snprintf(buf, sizeof buf, "{\"Type\":\"SmoothFloor\",\"Floor\":0,\"Range\":0.3,\"Curve\":%s}", man), fl = compilef(cm, buf);
    snprintf(buf, sizeof buf, "{\"Type\":\"Ceiling\",\"Ceiling\":0,\"Curve\":%s}", man), ce = compilef(cm, buf);
    for (int i = 0; i < 200; i++) {
        double x = i < 100 ? rnd(-3, 3) : rnd(-1e6, 1e6), v = sample_at(m, 0, x, 0, 0);
        for (int k = 0; k < 5; k++) cr_assert(same(sample_at(one_of[k], 0, x, 0, 0), v), "a combinator of one curve is that curve (%d)", k);
        cr_assert(same(sample_at(inv, 0, x, 0, 0), -v) && same(sample_at(not_, 0, x, 0, 0), 1.0 - v));
        double c = sample_at(cl, 0, x, 0, 0), s = sample_at(sc, 0, x, 0, 0);
        cr_assert(c >= -0.5 && c <= 0.25 && same(c, fmin(fmax(v, -0.5), 0.25)), "Clamp with walls in either order");
        if (v <= -0.5 - 0.1 || v >= 0.25 + 0.1 || (v >= -0.4 && v <= 0.15)) cr_assert(same(s, c), "SmoothClamp = Clamp away from the walls");
        cr_assert(sample_at(fl, 0, x, 0, 0) >= fmax(v, 0.0) && same(sample_at(ce, 0, x, 0, 0), fmin(v, 0.0)));
    }
    cr_assert(same(sample_at(m, 0, -1, 0, 0), 0.5) && same(sample_at(m, 0, 0.25, 0, 0), -0.75) && same(sample_at(m, 0, 2, 0, 0), 1.0) && same(sample_at(m, 0, -7, 0, 0), 0.5));
    cf_program *e = compilef(cm, "{\"Type\":\"Min\",\"Curves\":[]}");
    cr_assert(same(sample_at(e, 0, 3, 0, 0), 0.0), "an empty combinator is 0 (choice)");
    cf_program *ds = compilef(cm, "{\"Type\":\"DistanceS\",\"ExponentA\":2,\"ExponentB\":3,\"Range\":10}");
    cr_assert(same(sample_at(ds, 0, 0, 0, 0), 1.0) && same(sample_at(ds, 0, 10, 0, 0), 0.0) && same(sample_at(ds, 0, 1e9, 0, 0), 0.0) && same(sample_at(ds, 0, 5, 0, 0), 0.5));
    cr_assert(same(sample_at(ds, 0, 2.5, 0, 0), 0.875) && same(sample_at(ds, 0, 7.5, 0, 0), 0.0625), "the two halves (A = 2 below R/2, B = 3 above)");
    cf_program *dx = compilef(cm, "{\"Type\":\"DistanceExponential\",\"Exponent\":2,\"Range\":4}");
    cr_assert(same(sample_at(dx, 0, 0, 0, 0), 1.0) && same(sample_at(dx, 0, 4, 0, 0), 0.0) && same(sample_at(dx, 0, 2, 0, 0), 0.25) && same(sample_at(dx, 0, -3, 0, 0), 1.0));
    for (int k = 0; k < 5; k++) cf_program_free(one_of[k]);
    cf_program_free(m), cf_program_free(inv), cf_program_free(not_), cf_program_free(cl), cf_program_free(sc), cf_program_free(fl);
    cf_program_free(ce), cf_program_free(e), cf_program_free(ds), cf_program_free(dx);
    /* Imported curves: a curve with ExportAs anywhere in hytale/Density */
    const char *t = "{\"Type\":\"CurveMapper\",\"Curve\":{\"Type\":\"Imported\",\"Name\":\"K\"},\"Inputs\":[" C(0.25) "]}";
    const char *u = "{\"Type\":\"CurveMapper\",\"Curve\":{\"Type\":\"Inverter\",\"ExportAs\":\"K\",\"Curve\":{\"Type\":\"Manual\",\"Points\":"
                    "[{\"In\":0,\"Out\":0},{\"In\":1,\"Out\":4}]}},\"Inputs\":[" C(1) "]}";
    mpack mp = {{{"hytale/Density/t.json", t, strlen(t)}, {"hytale/Density/u.json", u, strlen(u)}}, 2};
    cf_error err = {0};
    cf_program *pg;
    cr_assert_eq(compile_files(&mp, "hytale:t", NULL, 0, &pg, &err), CF_OK, "%s", err.message);
    cr_assert(same(sample_at(pg, 0, 0, 0, 0), -1.0));
    cf_program_free(pg);
}

Test(v2_more, switch_states_and_specialized_imports)
{
    const char *sw = "{\"Type\":\"Switch\",\"SwitchCases\":[{\"Case\":\"Default\",\"Density\":" C(1) "},{\"Case\":\"Cave\",\"Density\":" C(2) "},"
                     "{\"State\":\"Sky\",\"Inputs\":[" C(3) "]}]}";
    char buf[1000];
    cr_assert(same(one(sw, 0, 0, 0), 1.0), "the root state is Default");
    snprintf(buf, sizeof buf, "{\"Type\":\"SwitchState\",\"SwitchState\":\"Cave\",\"Inputs\":[%s]}", sw);
    cr_assert(same(one(buf, 0, 0, 0), 2.0));
    snprintf(buf, sizeof buf, "{\"Type\":\"SwitchState\",\"SwitchState\":\"Sky\",\"Inputs\":[%s]}", sw);
    cr_assert(same(one(buf, 0, 0, 0), 3.0));
    snprintf(buf, sizeof buf, "{\"Type\":\"SwitchState\",\"SwitchState\":\"Nether\",\"Inputs\":[%s]}", sw);
    cr_assert(same(one(buf, 0, 0, 0), 1.0), "no case: the Default case");
    /* one export imported under two states is specialized per state */
    const char *t = "{\"Type\":\"Sum\",\"Inputs\":[{\"Type\":\"Imported\",\"Name\":\"S\"},{\"Type\":\"SwitchState\",\"SwitchState\":\"Cave\","
                    "\"Inputs\":[{\"Type\":\"AmplitudeConstant\",\"Value\":10,\"Inputs\":[{\"Type\":\"Imported\",\"Name\":\"S\"}]}]},"
                    "{\"Type\":\"Imported\",\"Name\":\"S\"}]}";
    snprintf(buf, sizeof buf, "{\"Type\":\"Exported\",\"ExportAs\":\"S\",\"Inputs\":[%s]}", sw);
    mpack m = {{{"hytale/Density/t.json", t, strlen(t)}, {"hytale/Density/u.json", buf, strlen(buf)}}, 2};
    cf_error err = {0};
    cf_program *pg;
    cr_assert_eq(compile_files(&m, "hytale:t", NULL, 0, &pg, &err), CF_OK, "%s", err.message);
    cr_assert(same(sample_at(pg, 0, 0, 0, 0), 22.0), "1 + 10 * 2 + 1: %g", sample_at(pg, 0, 0, 0, 0));
    cf_program_free(pg);
}

static cf_program *with_maps(const char *json, cf_pack **keep)
{
    mpack m = {{{"hytale/Density/t.json", json, strlen(json)}}, 1};
    cf_error err = {0};
    cf_pack *pk;
    cr_assert_eq(cf_pack_open_memory(&pk, m.f, 1, NULL, &err), CF_OK);
    static const double map[6] = {1, 2, 3, 4, 5, 6}; /* 3 columns x 2 rows */
    cr_assert_eq(cf_pack_set_external_map(pk, "hytale.distance_to_biome_edge", 3, 2, -10, 20, 4, map, &err), CF_OK, "%s", err.message);
    cr_assert_eq(cf_pack_set_external_map(pk, "hytale.anchor.x", 3, 2, -10, 20, 4, map, &err), CF_OK);
    cr_assert_eq(cf_pack_set_external(pk, "hytale.anchor.y", 0.5, &err), CF_OK);
    cr_assert_eq(cf_pack_set_external(pk, "hytale.anchor.z", -2, &err), CF_OK);
    const char *fns[1] = {"hytale:t"};
    cf_program *pg = NULL;
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fns, 1, &err), CF_OK, "%s", err.message);
    *keep = pk;
    return pg;
}

Test(v2_more, external_maps_and_anchors)
{
    cf_pack *pk;
    cf_program *pg = with_maps("{\"Type\":\"DistanceToBiomeEdge\"}", &pk);
    cr_assert(same(sample_at(pg, 0, -10, 0, 20), 1.0) && same(sample_at(pg, 0, -6.5, 99, 23.9), 1.0) && same(sample_at(pg, 0, -6, 0, 20), 2.0));
    cr_assert(same(sample_at(pg, 0, 1.99, -50, 27.99), 6.0) && same(sample_at(pg, 0, -2, 0, 24), 6.0), "sample (ix, iz) = data[iz * w + ix]");
    cr_assert(isnan(sample_at(pg, 0, 2, 0, 24)) && isnan(sample_at(pg, 0, -10.001, 0, 20)) && isnan(sample_at(pg, 0, 0, 0, 28)), "NaN outside the map");
    cf_program_free(pg), cf_pack_free(pk);
    pg = with_maps("{\"Type\":\"Anchor\",\"Inputs\":[{\"Type\":\"Sum\",\"Inputs\":[{\"Type\":\"XValue\"},{\"Type\":\"AmplitudeConstant\",\"Value\":100,"
                   "\"Inputs\":[{\"Type\":\"YValue\"}]},{\"Type\":\"AmplitudeConstant\",\"Value\":10000,\"Inputs\":[{\"Type\":\"ZValue\"}]}]}]}", &pk);
    cr_assert(same(sample_at(pg, 0, -6, 3, 24), (-6.0 - 5.0) + 100 * 2.5 + 10000 * 26.0), "the child sees p - anchor");
    cf_program_free(pg), cf_pack_free(pk);
    pg = with_maps("{\"Type\":\"Anchor\",\"Reverse\":true,\"Inputs\":[{\"Type\":\"YValue\"}]}", &pk);
    cr_assert(same(sample_at(pg, 0, -6, 3, 24), 3.5), "Reverse: p + anchor");
    cf_program_free(pg), cf_pack_free(pk);
    /* bad maps: one-line CF_ERR_ARG errors */
    cf_error err = {0};
    cr_assert_eq(cf_pack_open_memory(&pk, NULL, 0, NULL, &err), CF_OK);
    double bad[4] = {1, 2, NAN, 4};
    cr_assert_eq(cf_pack_set_external_map(pk, "m", 2, 2, 0, 0, 1, bad, &err), CF_ERR_ARG);
    cr_assert_str_eq(err.message, "external map \"m\": sample 2 (x 0, z 1) is not finite");
    err = (cf_error){0};
    cr_assert_eq(cf_pack_set_external_map(pk, "m", 2, 2, 0, 0, 0, bad, &err), CF_ERR_ARG);
    cr_assert(strstr(err.message, "step > 0"), "%s", err.message);
    cr_assert_eq(cf_pack_set_external_map(pk, "m", 0, 2, 0, 0, 1, bad, &err), CF_ERR_ARG);
    cr_assert_eq(cf_pack_set_external_map(pk, "m", 1 << 13, 1 << 13, 0, 0, 1, bad, &err), CF_ERR_ARG);
    cf_pack_free(pk);
}

Test(v2_errors, new_kinds_bad_input)
{
    bad("{\"Type\":\"Rotator\",\"NewYAxis\":{\"Y\":1}}", NULL, CF_ERR_SCHEMA, "t.json#", "Rotator takes 1 input, found 0");
    bad("{\"Type\":\"GradientWarp\",\"WarpFactor\":1,\"Inputs\":[" C(1) "]}", NULL, CF_ERR_SCHEMA, "t.json#/Inputs", "GradientWarp takes 2 inputs, found 1");
    bad("{\"Type\":\"VectorWarp\",\"WarpFactor\":1,\"WarpVector\":{},\"Inputs\":[" C(1) "," C(1) "]}", NULL, CF_ERR_SCHEMA, "t.json#/WarpVector",
        "WarpVector has zero (or infinite) length");
    bad("{\"Type\":\"Rotator\",\"NewYAxis\":{\"Y\":1,\"W\":2},\"Inputs\":[" C(1) "]}", NULL, CF_ERR_SCHEMA, "t.json#/NewYAxis/W", "unknown key \"W\"");
    bad("{\"Type\":\"Ellipsoid\",\"Curve\":{\"Type\":\"Bezier\"}}", NULL, CF_ERR_SCHEMA, "t.json#/Curve/Type", "unknown curve type \"Bezier\"");
    bad("{\"Type\":\"Cylinder\",\"AxialCurve\":{\"Type\":\"Not\",\"Curve\":{\"Type\":\"Manual\",\"Points\":[{\"In\":0,\"Out\":1}]}}}", NULL, CF_ERR_SCHEMA,
        "t.json#", "missing \"RadialCurve\"");
    bad("{\"Type\":\"Angle\",\"Vector\":[0,1,0],\"VectorProvider\":{\"Type\":\"Random\",\"Seed\":\"a\"}}", NULL, CF_ERR_SCHEMA,
        "t.json#/VectorProvider/Type", "vector provider \"Random\" is not implemented yet");
    bad("{\"Type\":\"PositionsTwist\"}", NULL, CF_ERR_SCHEMA, "t.json#/Type", "no documented displacement maths");
    bad("{\"Type\":\"YSampled\",\"SampleDistance\":0,\"Inputs\":[" C(1) "]}", NULL, CF_ERR_SCHEMA, "t.json#/SampleDistance", "must be > 0");
    bad("{\"Type\":\"Gradient\",\"From\":0,\"To\":1,\"FromY\":5,\"ToY\":5}", NULL, CF_ERR_SCHEMA, "t.json#/ToY", "FromY < ToY");
    bad("{\"Type\":\"Switch\",\"SwitchCases\":[{\"Case\":\"A\",\"Density\":" C(1) "}]}", NULL, CF_ERR_SCHEMA, "t.json#/SwitchCases",
        "no case for SwitchState \"Default\" and no \"Default\" case");
    bad("{\"Type\":\"Switch\",\"SwitchCases\":[{\"Case\":\"A\"}]}", NULL, CF_ERR_SCHEMA, "t.json#/SwitchCases/0", "a case needs one \"Density\"");
    bad("{\"Type\":\"Anchor\",\"Inputs\":[" C(1) "]}", NULL, CF_ERR_REF, "t.json#", "needs external input \"hytale.anchor.x\"");
    bad("{\"Type\":\"CurveMapper\",\"Curve\":{\"Type\":\"Imported\",\"Name\":\"Q\"},\"Inputs\":[" C(1) "]}", NULL, CF_ERR_REF, "t.json#/Curve/Name",
        "no export named \"Q\"");
    bad("{\"Type\":\"CurveMapper\",\"Curve\":{\"Type\":\"Not\",\"ExportAs\":\"Q\",\"Curve\":{\"Type\":\"Imported\",\"Name\":\"Q\"}},\"Inputs\":[" C(1) "]}",
        NULL, CF_ERR_CYCLE, "t.json#/Curve/Curve/Name", "import cycle through \"Q\"");
    /* 17 nested operands overflow the curve stack */
    char deep[4000] = "{\"Type\":\"CurveMapper\",\"Inputs\":[" C(1) "],\"Curve\":{\"Type\":\"Sum\",\"Curves\":[";
    for (int i = 0; i < 15; i++) strcat(deep, "{\"Type\":\"Manual\",\"Points\":[{\"In\":0,\"Out\":1}]},");
    strcat(deep, "{\"Type\":\"Sum\",\"Curves\":[{\"Type\":\"Manual\",\"Points\":[{\"In\":0,\"Out\":1}]},{\"Type\":\"SmoothMax\",\"Range\":1,"
                 "\"CurveA\":{\"Type\":\"Manual\",\"Points\":[{\"In\":0,\"Out\":1}]},\"CurveB\":{\"Type\":\"Manual\",\"Points\":[{\"In\":0,\"Out\":1}]}}]}]}}");
    bad(deep, NULL, CF_ERR_LIMIT, "t.json#/Curve/Curves/15/Curves/1/CurveA", "curve combinators nested deeper than 16 operands");
}

Test(v2_cli, external_maps_from_npy_files)
{
    char dir[] = "/tmp/cf_hyv2_XXXXXX", path[300], out[4096], cmd[1500];
    cr_assert(mkdtemp(dir));
    /* a 2 x 3 float64 map: rows z, columns x */
    snprintf(path, sizeof path, "%s/m.npy", dir);
    FILE *f = fopen(path, "wb");
    char hdr[128];
    int hl = snprintf(hdr, sizeof hdr, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }");
    while ((10 + hl + 1) % 64) hdr[hl++] = ' ';
    hdr[hl++] = '\n';
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)hl, 0};
    double v[6] = {1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
    fwrite(pre, 1, 10, f), fwrite(hdr, 1, (size_t)hl, f), fwrite(v, 8, 6, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/hytale/Density", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p %s && echo '{\"Type\":\"DistanceToBiomeEdge\"}' > %s/Terrain.json", path, path);
    cr_assert_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "sample --pack %s --function hytale:Terrain --seed 0 --external hytale.distance_to_biome_edge=@%s/m.npy,-1,-1,2 --at 3,0,1 --at -1,5,-1",
             dir, dir);
    int rc = run(cmd, out, sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_str_eq(out, "3 0 1 6.5\n-1 5 -1 1.5\n");
    snprintf(cmd, sizeof cmd, "check --pack %s --seed 0 --chunks 0,0:0,0 --external hytale.distance_to_biome_edge=@%s/m.npy", dir, dir);
    rc = run(cmd, out, sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "0 differ"), "%s", out);
    snprintf(cmd, sizeof cmd, "sample --pack %s --function hytale:Terrain --seed 0 --external hytale.distance_to_biome_edge=@%s/none.npy --at 3,0,1", dir, dir);
    rc = run(cmd, out, sizeof out);
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert(strstr(out, "/none.npy: cannot open") && !strchr(out, '\n') == 0 && strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
    snprintf(cmd, sizeof cmd, "sample --pack %s --function hytale:Terrain --seed 0 --external hytale.distance_to_biome_edge=@%s/m.npy,1 --at 3,0,1", dir, dir);
    rc = run(cmd, out, sizeof out);
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert(strstr(out, "give both X0 and Z0"), "%s", out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

/* the example pack's pairwise edge blending (HYTALE.md §9.1 step 5, §9.3 acceptance 3 and 5):
 * weight m in [0.5, 1]; where m = 1 (32 blocks and more from the border) the terrain is the
 * tile's own recipe bitwise; borders (m < 1) exist */
Test(v2_more, example_pack_blends_pairwise_over_32_blocks)
{
    static const char *const paths[1] = {CF_SOURCE_DIR "/packs/hytale-biome-tiles"};
    cf_error err = {0};
    cf_pack *pk;
    cr_assert_eq(cf_pack_open(&pk, paths, 1, NULL, &err), CF_OK, "%s", err.message);
    const char *fns[4] = {"hytale:Terrain", "hytale:Edge", "hytale:Recipes", "hytale:EdgeDist"};
    cf_program *pg;
    cr_assert_eq(cf_program_compile(&pg, pk, "minecraft:overworld", fns, 4, &err), CF_OK, "%s", err.message);
    cf_world *w;
    cr_assert_eq(cf_world_new(&w, pg, 7, &err), CF_OK);
    int own = 0, blended = 0;
    for (int i = 0; i < 400; i++) {
        double p[3] = {floor(rnd(-3000, 3000)), floor(rnd(0, 320)), floor(rnd(-3000, 3000))}, t, m, h, d;
        cr_assert_eq(cf_sample_f64(w, 0, 1, p, &t, &err), CF_OK);
        cr_assert_eq(cf_sample_f64(w, 1, 1, p, &m, &err), CF_OK);
        cr_assert_eq(cf_sample_f64(w, 2, 1, p, &h, &err), CF_OK);
        cr_assert_eq(cf_sample_f64(w, 3, 1, p, &d, &err), CF_OK);
        cr_assert(m >= 0.5 && m <= 1.0, "weight %g", m);
        cr_assert((d >= 32) == (m == 1.0), "m = 1 exactly from 32 blocks (d %g, m %.17g)", d, m);
        if (d <= 0) cr_assert(same(m, 0.5), "0.5 on the border");
        if (m == 1.0) {
            cr_assert(same(t, ((-p[1]) + 100.0) + h), "away from borders: the tile's own recipe");
            own++;
        } else {
            blended++;
        }
    }
    cr_assert(own > 20 && blended > 40, "own %d, blended %d", own, blended);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
}

/* ---- PositionsCellNoise (HYTALE.md §6) */
#define SQ2 "{\"Type\":\"SquareGrid2d\"}"
static cf_program *pcell(const char *rt, const char *pos, double maxd, const char *df)
{
    return compilef("{\"Type\":\"PositionsCellNoise\",\"MaxDistance\":%.17g,\"DistanceFunction\":{\"Type\":\"%s\"},\"ReturnType\":%s,"
                    "\"Positions\":%s}", maxd, df, rt, pos);
}
Test(v2_pcell, square_grid_distance_is_the_distance_to_the_nearest_lattice_point)
{
    cf_program *e = pcell("{\"Type\":\"Distance\"}", SQ2, 5, "Euclidean"), *m = pcell("{\"Type\":\"Distance\"}", SQ2, 5, "Manhattan");
    cf_program *s = pcell("{\"Type\":\"Distance\"}", "{\"Type\":\"Scaler\",\"Scale\":{\"X\":8,\"Y\":1,\"Z\":8},\"Positions\":" SQ2 "}", 40, "Euclidean");
    cf_program *d2 = pcell("{\"Type\":\"Distance2\"}", SQ2, 5, "Euclidean");
    for (int k = 0; k < 300; k++) {
        double x = rnd(-1000, 1000), y = rnd(-50, 300), z = rnd(-1000, 1000);
        /* the test's own nearest lattice point: round each coordinate */
        double dx = x - floor(x + 0.5), dz = z - floor(z + 0.5);
        double want = sqrt(dx * dx + dz * dz), got = sample_at(e, 0, x, y, z);
        cr_assert(near(got, want, 1e-12), "(%g, %g): %.17g vs %.17g", x, z, got, want);
        cr_assert(near(sample_at(m, 0, x, y, z), fabs(dx) + fabs(dz), 1e-12));
        cr_assert(got <= sqrt(0.5) + 1e-12);
        /* Scaler 8 scales the distance by exactly 8 (powers of two are exact) */
        cr_assert(same(sample_at(s, 0, 8 * x, y, 8 * z), 8 * got), "%.17g vs %.17g", sample_at(s, 0, 8 * x, y, 8 * z), 8 * got);
        /* F2: the second nearest lattice point, brute force over a 5x5 window */
        double f1 = 1e9, f2 = 1e9;
        for (int i = -2; i <= 2; i++)
            for (int j = -2; j <= 2; j++) {
                double ax = x - (floor(x) + i), az = z - (floor(z) + j), d = sqrt(ax * ax + az * az);
                if (d < f1) f2 = f1, f1 = d;
                else if (d < f2) f2 = d;
            }
        cr_assert(near(sample_at(d2, 0, x, y, z), f2, 1e-12));
    }
    cf_program_free(e), cf_program_free(m), cf_program_free(s), cf_program_free(d2);
}
Test(v2_pcell, jitter_zero_is_no_jitter_and_jitter_moves_at_most_magnitude)
{
    const char *grid = "{\"Type\":\"Scaler\",\"Scale\":{\"X\":10,\"Y\":1,\"Z\":10},\"Positions\":" SQ2 "}";
    char j0[400], j3[400];
    snprintf(j0, sizeof j0, "{\"Type\":\"Jitter2d\",\"Magnitude\":0,\"Seed\":\"a\",\"Positions\":%s}", grid);
    snprintf(j3, sizeof j3, "{\"Type\":\"Jitter2d\",\"Magnitude\":3,\"Seed\":\"a\",\"Positions\":%s}", grid);
    cf_program *p = pcell("{\"Type\":\"Distance\"}", grid, 20, "Euclidean"), *q = pcell("{\"Type\":\"Distance\"}", j0, 20, "Euclidean");
    cf_program *r = pcell("{\"Type\":\"Distance\"}", j3, 20, "Euclidean");
    /* CellValue with XValue/ZValue: the nearest position itself */
    cf_program *px = pcell("{\"Type\":\"CellValue\",\"Density\":{\"Type\":\"XValue\"}}", j3, 20, "Euclidean");
    cf_program *pz = pcell("{\"Type\":\"CellValue\",\"Density\":{\"Type\":\"ZValue\"}}", j3, 20, "Euclidean");
    int moved = 0;
    for (int k = 0; k < 300; k++) {
        double x = rnd(-3000, 3000), y = rnd(0, 100), z = rnd(-3000, 3000);
        cr_assert(same(sample_at(p, 0, x, y, z), sample_at(q, 0, x, y, z)));
        double nx = sample_at(px, 7, x, y, z), nz = sample_at(pz, 7, x, y, z);
        double gx = 10 * floor(nx / 10 + 0.5), gz = 10 * floor(nz / 10 + 0.5);
        double off = sqrt((nx - gx) * (nx - gx) + (nz - gz) * (nz - gz));
        cr_assert(off <= 3.0, "moved %.17g", off);
        moved += off > 0.1;
        /* the distance is the distance to that position */
        double d = sample_at(r, 7, x, y, z), w = sqrt((nx - x) * (nx - x) + (nz - z) * (nz - z));
        cr_assert(near(d, w, 1e-12), "%.17g vs %.17g", d, w);
    }
    cr_assert(moved > 200, "jitter moved only %d points", moved);
    cf_program_free(p), cf_program_free(q), cf_program_free(r), cf_program_free(px), cf_program_free(pz);
}
Test(v2_pcell, cell_value_is_constant_per_cell_and_default_beyond_max_distance)
{
    const char *grid = "{\"Type\":\"Scaler\",\"Scale\":{\"X\":16,\"Y\":1,\"Z\":16},\"Positions\":" SQ2 "}";
    cf_program *p = pcell("{\"Type\":\"CellValue\",\"DefaultValue\":-5,\"Density\":{\"Type\":\"WhiteNoise\",\"Seed\":\"w\"}}", grid, 6, "Euclidean");
    cf_program *w = compile1("{\"Type\":\"WhiteNoise\",\"Seed\":\"w\"}");
    for (int k = 0; k < 300; k++) {
        double x = rnd(-2000, 2000), y = 64, z = rnd(-2000, 2000);
        double cx = 16 * floor(x / 16 + 0.5), cz = 16 * floor(z / 16 + 0.5);
        double d = sqrt((x - cx) * (x - cx) + (z - cz) * (z - cz)), v = sample_at(p, 3, x, y, z);
        if (d <= 6) cr_assert(same(v, sample_at(w, 3, cx, y, cz)), "(%g, %g)", x, z);
        else cr_assert(same(v, -5.0), "(%g, %g): %.17g at distance %g", x, z, v, d);
    }
    cf_program_free(p), cf_program_free(w);
}
Test(v2_pcell, list_equals_a_brute_force_search)
{
    static const double pts[3][3] = {{3, 0, 4}, {-20, 10, 5}, {10.5, 2, -17}};
    const char *list = "{\"Type\":\"List\",\"Positions\":[{\"X\":3,\"Y\":0,\"Z\":4},{\"X\":-20,\"Y\":10,\"Z\":5},{\"X\":10.5,\"Y\":2,\"Z\":-17}]}";
    for (int man = 0; man < 2; man++) {
        cf_program *a = pcell("{\"Type\":\"Distance\"}", list, 25, man ? "Manhattan" : "Euclidean");
        cf_program *b = pcell("{\"Type\":\"Distance2Add\"}", list, 25, man ? "Manhattan" : "Euclidean");
        for (int k = 0; k < 400; k++) {
            double x = rnd(-40, 40), y = rnd(-10, 20), z = rnd(-40, 40), f1 = 25, f2 = 25;
            for (int i = 0; i < 3; i++) {
                double dx = x - pts[i][0], dy = y - pts[i][1], dz = z - pts[i][2];
                double d = man ? fabs(dx) + fabs(dy) + fabs(dz) : sqrt(dx * dx + dy * dy + dz * dz);
                if (d > 25) continue;
                if (d < f1) f2 = f1, f1 = d;
                else if (d < f2) f2 = d;
            }
            cr_assert(near(sample_at(a, 0, x, y, z), f1, 1e-12), "man %d (%g,%g,%g): %.17g vs %.17g", man, x, y, z, sample_at(a, 0, x, y, z), f1);
            cr_assert(near(sample_at(b, 0, x, y, z), (f1 + f2) / 2, 1e-12));
        }
        cf_program_free(a), cf_program_free(b);
    }
}
Test(v2_pcell, manhattan_is_at_least_euclidean_and_triangular_neighbours_are_one_apart)
{
    const char *tri = "{\"Type\":\"TriangularGrid2d\"}";
    cf_program *e = pcell("{\"Type\":\"Distance\"}", tri, 3, "Euclidean"), *m = pcell("{\"Type\":\"Distance\"}", tri, 3, "Manhattan");
    for (int k = 0; k < 300; k++) {
        double x = rnd(-500, 500), z = rnd(-500, 500), de = sample_at(e, 0, x, 0, z), dm = sample_at(m, 0, x, 0, z);
        cr_assert(dm >= de - 1e-12 && dm <= sqrt(2.0) * de + 1e-12, "%.17g %.17g", dm, de);
        /* a triangular lattice with spacing 1: no point farther than 1/sqrt(3) from a position */
        cr_assert(de <= 1 / sqrt(3.0) + 1e-12, "%.17g", de);
    }
    /* on a position: 0 */
    cr_assert(same(sample_at(e, 0, 0.5, 0, sqrt(3.0) / 2), 0.0) || sample_at(e, 0, 0.5, 0, sqrt(3.0) / 2) < 1e-15);
    cf_program_free(e), cf_program_free(m);
}
Test(v2_errors, positions_cell_noise_bad_input)
{
    bad("{\"Type\":\"PositionsCellNoise\",\"MaxDistance\":4,\"ReturnType\":{\"Type\":\"Distance\"},\"Positions\":{\"Type\":\"Mesh2D\"}}", NULL,
        CF_ERR_SCHEMA, "t.json#/Positions/Type", "positions provider \"Mesh2D\" is not implemented");
    bad("{\"Type\":\"PositionsCellNoise\",\"MaxDistance\":4,\"ReturnType\":{\"Type\":\"Distance9\"},\"Positions\":" SQ2 "}", NULL, CF_ERR_SCHEMA,
        "t.json#/ReturnType/Type", "unknown return type \"Distance9\"");
    bad("{\"Type\":\"PositionsCellNoise\",\"MaxDistance\":4,\"ReturnType\":{\"Type\":\"Distance\"}}", NULL, CF_ERR_SCHEMA, "t.json#",
        "missing \"Positions\"");
    bad("{\"Type\":\"PositionsCellNoise\",\"MaxDistance\":1000,\"ReturnType\":{\"Type\":\"Distance\"},\"Positions\":" SQ2 "}", NULL, CF_ERR_LIMIT,
        "t.json#/MaxDistance", "would visit more than 4096 lattice cells");
    bad("{\"Type\":\"PositionsCellNoise\",\"MaxDistance\":4,\"ReturnType\":{\"Type\":\"Density\"},\"Positions\":" SQ2 "}", NULL, CF_ERR_SCHEMA,
        "t.json#/ReturnType/Type", "return type Density is not implemented");
    bad("{\"Type\":\"PositionsCellNoise\",\"MaxDistance\":4,\"ReturnType\":{\"Type\":\"Distance\"},\"Positions\":{\"Type\":\"Jitter3d\",\"Magnitude\":1,"
        "\"Seed\":\"a\",\"Positions\":" SQ2 "}}", NULL, CF_ERR_SCHEMA, "t.json#/Positions/Type", "Jitter3d needs a 3-D provider");
    bad("{\"Type\":\"PositionsCellNoise\",\"MaxDistance\":4,\"ReturnType\":{\"Type\":\"Distance\"},\"Positions\":{\"Type\":\"Scaler\",\"Scale\":{\"X\":0},"
        "\"Positions\":" SQ2 "}}", NULL, CF_ERR_SCHEMA, "t.json#/Positions/Scale", "Scaler scales must be > 0");
}
