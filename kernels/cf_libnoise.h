/* cf_libnoise.h - the module math of libnoise (1.0, as Debian's libnoise-dev
 * builds it), shared by the CPU reference (host/cpu/eval64.c) and the generated
 * OpenCL programs (host/opencl/emit.c), in double precision throughout.
 *
 * Written from libnoise's documented algorithms: gradient coherent noise with
 * the 256-vector table, integer value noise, MakeInt32Range, S-curves, octave
 * sums (Perlin, Billow, RidgedMulti), Voronoi cells, Curve/Terrace mapping and
 * Select's edge fall-off. Every expression keeps libnoise's order of operations
 * (x86-64 SSE2 double, no contraction) so that results are bit-identical.
 * Two places follow the compiled library rather than the C++ text:
 *  - value noise: Debian's build drops the final `& 0x7fffffff` of
 *    IntValueNoise3D (the product overflows a signed int, undefined behaviour
 *    the compiler used), so the integer can be negative and ValueNoise3D lies in
 *    (-1, 3]; Voronoi sees that range;
 *  - double -> int conversions of out-of-range values (Voronoi far from the
 *    origin, NaN) give INT_MIN, as x86-64's cvttsd2si does.
 * Compile C with -ffp-contract=off; OpenCL programs set FP_CONTRACT OFF.
 */
#ifndef CF_LIBNOISE_H
#define CF_LIBNOISE_H

#include "cf_math.h"

#ifdef __OPENCL_VERSION__
#define CF_LN_PTS __constant const double *
#else
#define CF_LN_PTS const double *
#endif

enum { CF_LN_FAST = 0, CF_LN_STD = 1, CF_LN_BEST = 2 };

/* The 256 gradient vectors (x, y, z) of libnoise's noise/vectortable.h. This
 * is data, not code: the output of a random-vector program by Jason Bevins,
 * placed in the public domain by its author ("This file is in the public
 * domain"); it cannot be regenerated, so it is reproduced here. */
CF_CONST double cf_ln_vec[768] = {
    -0.763874, -0.596439, -0.246489,
    0.396055, 0.904518, -0.158073,
    -0.499004, -0.8665, -0.0131631,
    0.468724, -0.824756, 0.316346,
    0.829598, 0.43195, 0.353816,
    -0.454473, 0.629497, -0.630228,
    -0.162349, -0.869962, -0.465628,
    0.932805, 0.253451, 0.256198,
    -0.345419, 0.927299, -0.144227,
    -0.715026, -0.293698, -0.634413,
    -0.245997, 0.717467, -0.651711,
    -0.967409, -0.250435, -0.037451,
    0.901729, 0.397108, -0.170852,
    0.892657, -0.0720622, -0.444938,
    0.0260084, -0.0361701, 0.999007,
    0.949107, -0.19486, 0.247439,
    0.471803, -0.807064, -0.355036,
    0.879737, 0.141845, 0.453809,
    0.570747, 0.696415, 0.435033,
    -0.141751, -0.988233, -0.0574584,
    -0.58219, -0.0303005, 0.812488,
    -0.60922, 0.239482, -0.755975,
    0.299394, -0.197066, -0.933557,
    -0.851615, -0.220702, -0.47544,
    0.848886, 0.341829, -0.403169,
    -0.156129, -0.687241, 0.709453,
    -0.665651, 0.626724, 0.405124,
    0.595914, -0.674582, 0.43569,
    0.171025, -0.509292, 0.843428,
    0.78605, 0.536414, -0.307222,
    0.18905, -0.791613, 0.581042,
    -0.294916, 0.844994, 0.446105,
    0.342031, -0.58736, -0.7335,
    0.57155, 0.7869, 0.232635,
    0.885026, -0.408223, 0.223791,
    -0.789518, 0.571645, 0.223347,
    0.774571, 0.31566, 0.548087,
    -0.79695, -0.0433603, -0.602487,
    -0.142425, -0.473249, -0.869339,
    -0.0698838, 0.170442, 0.982886,
    0.687815, -0.484748, 0.540306,
    0.543703, -0.534446, -0.647112,
    0.97186, 0.184391, -0.146588,
    0.707084, 0.485713, -0.513921,
    0.942302, 0.331945, 0.043348,
    0.499084, 0.599922, 0.625307,
    -0.289203, 0.211107, 0.9337,
    0.412433, -0.71667, -0.56239,
    0.87721, -0.082816, 0.47291,
    -0.420685, -0.214278, 0.881538,
    0.752558, -0.0391579, 0.657361,
    0.0765725, -0.996789, 0.0234082,
    -0.544312, -0.309435, -0.779727,
    -0.455358, -0.415572, 0.787368,
    -0.874586, 0.483746, 0.0330131,
    0.245172, -0.0838623, 0.965846,
    0.382293, -0.432813, 0.81641,
    -0.287735, -0.905514, 0.311853,
    -0.667704, 0.704955, -0.239186,
    0.717885, -0.464002, -0.518983,
    0.976342, -0.214895, 0.0240053,
    -0.0733096, -0.921136, 0.382276,
    -0.986284, 0.151224, -0.0661379,
    -0.899319, -0.429671, 0.0812908,
    0.652102, -0.724625, 0.222893,
    0.203761, 0.458023, -0.865272,
    -0.030396, 0.698724, -0.714745,
    -0.460232, 0.839138, 0.289887,
    -0.0898602, 0.837894, 0.538386,
    -0.731595, 0.0793784, 0.677102,
    -0.447236, -0.788397, 0.422386,
    0.186481, 0.645855, -0.740335,
    -0.259006, 0.935463, 0.240467,
    0.445839, 0.819655, -0.359712,
    0.349962, 0.755022, -0.554499,
    -0.997078, -0.0359577, 0.0673977,
    -0.431163, -0.147516, -0.890133,
    0.299648, -0.63914, 0.708316,
    0.397043, 0.566526, -0.722084,
    -0.502489, 0.438308, -0.745246,
    0.0687235, 0.354097, 0.93268,
    -0.0476651, -0.462597, 0.885286,
    -0.221934, 0.900739, -0.373383,
    -0.956107, -0.225676, 0.186893,
    -0.187627, 0.391487, -0.900852,
    -0.224209, -0.315405, 0.92209,
    -0.730807, -0.537068, 0.421283,
    -0.0353135, -0.816748, 0.575913,
    -0.941391, 0.176991, -0.287153,
    -0.154174, 0.390458, 0.90762,
    -0.283847, 0.533842, 0.796519,
    -0.482737, -0.850448, 0.209052,
    -0.649175, 0.477748, 0.591886,
    0.885373, -0.405387, -0.227543,
    -0.147261, 0.181623, -0.972279,
    0.0959236, -0.115847, -0.988624,
    -0.89724, -0.191348, 0.397928,
    0.903553, -0.428461, -0.00350461,
    0.849072, -0.295807, -0.437693,
    0.65551, 0.741754, -0.141804,
    0.61598, -0.178669, 0.767232,
    0.0112967, 0.932256, -0.361623,
    -0.793031, 0.258012, 0.551845,
    0.421933, 0.454311, 0.784585,
    -0.319993, 0.0401618, -0.946568,
    -0.81571, 0.551307, -0.175151,
    -0.377644, 0.00322313, 0.925945,
    0.129759, -0.666581, -0.734052,
    0.601901, -0.654237, -0.457919,
    -0.927463, -0.0343576, -0.372334,
    -0.438663, -0.868301, -0.231578,
    -0.648845, -0.749138, -0.133387,
    0.507393, -0.588294, 0.629653,
    0.726958, 0.623665, 0.287358,
    0.411159, 0.367614, -0.834151,
    0.806333, 0.585117, -0.0864016,
    0.263935, -0.880876, 0.392932,
    0.421546, -0.201336, 0.884174,
    -0.683198, -0.569557, -0.456996,
    -0.117116, -0.0406654, -0.992285,
    -0.643679, -0.109196, -0.757465,
    -0.561559, -0.62989, 0.536554,
    0.0628422, 0.104677, -0.992519,
    0.480759, -0.2867, -0.828658,
    -0.228559, -0.228965, -0.946222,
    -0.10194, -0.65706, -0.746914,
    0.0689193, -0.678236, 0.731605,
    0.401019, -0.754026, 0.52022,
    -0.742141, 0.547083, -0.387203,
    -0.00210603, -0.796417, -0.604745,
    0.296725, -0.409909, -0.862513,
    -0.260932, -0.798201, 0.542945,
    -0.641628, 0.742379, 0.192838,
    -0.186009, -0.101514, 0.97729,
    0.106711, -0.962067, 0.251079,
    -0.743499, 0.30988, -0.592607,
    -0.795853, -0.605066, -0.0226607,
    -0.828661, -0.419471, -0.370628,
    0.0847218, -0.489815, -0.8677,
    -0.381405, 0.788019, -0.483276,
    0.282042, -0.953394, 0.107205,
    0.530774, 0.847413, 0.0130696,
    0.0515397, 0.922524, 0.382484,
    -0.631467, -0.709046, 0.313852,
    0.688248, 0.517273, 0.508668,
    0.646689, -0.333782, -0.685845,
    -0.932528, -0.247532, -0.262906,
    0.630609, 0.68757, -0.359973,
    0.577805, -0.394189, 0.714673,
    -0.887833, -0.437301, -0.14325,
    0.690982, 0.174003, 0.701617,
    -0.866701, 0.0118182, 0.498689,
    -0.482876, 0.727143, 0.487949,
    -0.577567, 0.682593, -0.447752,
    0.373768, 0.0982991, 0.922299,
    0.170744, 0.964243, -0.202687,
    0.993654, -0.035791, -0.106632,
    0.587065, 0.4143, -0.695493,
    -0.396509, 0.26509, -0.878924,
    -0.0866853, 0.83553, -0.542563,
    0.923193, 0.133398, -0.360443,
    0.00379108, -0.258618, 0.965972,
    0.239144, 0.245154, -0.939526,
    0.758731, -0.555871, 0.33961,
    0.295355, 0.309513, 0.903862,
    0.0531222, -0.91003, -0.411124,
    0.270452, 0.0229439, -0.96246,
    0.563634, 0.0324352, 0.825387,
    0.156326, 0.147392, 0.976646,
    -0.0410141, 0.981824, 0.185309,
    -0.385562, -0.576343, -0.720535,
    0.388281, 0.904441, 0.176702,
    0.945561, -0.192859, -0.262146,
    0.844504, 0.520193, 0.127325,
    0.0330893, 0.999121, -0.0257505,
    -0.592616, -0.482475, -0.644999,
    0.539471, 0.631024, -0.557476,
    0.655851, -0.027319, -0.754396,
    0.274465, 0.887659, 0.369772,
    -0.123419, 0.975177, -0.183842,
    -0.223429, 0.708045, 0.66989,
    -0.908654, 0.196302, 0.368528,
    -0.95759, -0.00863708, 0.288005,
    0.960535, 0.030592, 0.276472,
    -0.413146, 0.907537, 0.0754161,
    -0.847992, 0.350849, -0.397259,
    0.614736, 0.395841, 0.68221,
    -0.503504, -0.666128, -0.550234,
    -0.268833, -0.738524, -0.618314,
    0.792737, -0.60001, -0.107502,
    -0.637582, 0.508144, -0.579032,
    0.750105, 0.282165, -0.598101,
    -0.351199, -0.392294, -0.850155,
    0.250126, -0.960993, -0.118025,
    -0.732341, 0.680909, -0.0063274,
    -0.760674, -0.141009, 0.633634,
    0.222823, -0.304012, 0.926243,
    0.209178, 0.505671, 0.836984,
    0.757914, -0.56629, -0.323857,
    -0.782926, -0.339196, 0.52151,
    -0.462952, 0.585565, 0.665424,
    0.61879, 0.194119, -0.761194,
    0.741388, -0.276743, 0.611357,
    0.707571, 0.702621, 0.0752872,
    0.156562, 0.819977, 0.550569,
    -0.793606, 0.440216, 0.42,
    0.234547, 0.885309, -0.401517,
    0.132598, 0.80115, -0.58359,
    -0.377899, -0.639179, 0.669808,
    -0.865993, -0.396465, 0.304748,
    -0.624815, -0.44283, 0.643046,
    -0.485705, 0.825614, -0.287146,
    -0.971788, 0.175535, 0.157529,
    -0.456027, 0.392629, 0.798675,
    -0.0104443, 0.521623, -0.853112,
    -0.660575, -0.74519, 0.091282,
    -0.0157698, -0.307475, -0.951425,
    -0.603467, -0.250192, 0.757121,
    0.506876, 0.25006, 0.824952,
    0.255404, 0.966794, 0.00884498,
    0.466764, -0.874228, -0.133625,
    0.475077, -0.0682351, -0.877295,
    -0.224967, -0.938972, -0.260233,
    -0.377929, -0.814757, -0.439705,
    -0.305847, 0.542333, -0.782517,
    0.26658, -0.902905, -0.337191,
    0.0275773, 0.322158, -0.946284,
    0.0185422, 0.716349, 0.697496,
    -0.20483, 0.978416, 0.0273371,
    -0.898276, 0.373969, 0.230752,
    -0.00909378, 0.546594, 0.837349,
    0.6602, -0.751089, 0.000959236,
    0.855301, -0.303056, 0.420259,
    0.797138, 0.0623013, -0.600574,
    0.48947, -0.866813, 0.0951509,
    0.251142, 0.674531, 0.694216,
    -0.578422, -0.737373, -0.348867,
    -0.254689, -0.514807, 0.818601,
    0.374972, 0.761612, 0.528529,
    0.640303, -0.734271, -0.225517,
    -0.638076, 0.285527, 0.715075,
    0.772956, -0.15984, -0.613995,
    0.798217, -0.590628, 0.118356,
    -0.986276, -0.0578337, -0.154644,
    -0.312988, -0.94549, 0.0899272,
    -0.497338, 0.178325, 0.849032,
    -0.101136, -0.981014, 0.165477,
    -0.521688, 0.0553434, -0.851339,
    -0.786182, -0.583814, 0.202678,
    -0.565191, 0.821858, -0.0714658,
    0.437895, 0.152598, -0.885981,
    -0.92394, 0.353436, -0.14635,
    0.212189, -0.815162, -0.538969,
    -0.859262, 0.143405, -0.491024,
    0.991353, 0.112814, 0.0670273,
    0.0337884, -0.979891, -0.196654,
};

/* (int)d as x86-64 converts: truncation, INT_MIN when out of range or NaN */
CF_INLINE cf_i32 cf_ln_toint(double d)
{
    if (d > -2147483649.0 && d < 2147483648.0) return (cf_i32)d;
    return (cf_i32)0x80000000u;
}
/* libnoise's lattice floor: x > 0 ? (int)x : (int)x - 1 (so -2.0 -> -3) */
CF_INLINE cf_i32 cf_ln_lattice(double d)
{
    cf_i32 i = cf_ln_toint(d);
    return d > 0.0 ? i : (cf_i32)((cf_u32)i - 1u);
}

CF_INLINE double cf_ln_int32range(double n)
{
    if (n >= 1073741824.0) return (2.0 * fmod(n, 1073741824.0)) - 1073741824.0;
    if (n <= -1073741824.0) return (2.0 * fmod(n, 1073741824.0)) + 1073741824.0;
    return n;
}

CF_INLINE double cf_ln_lerp(double n0, double n1, double a) { return ((1.0 - a) * n0) + (a * n1); }
CF_INLINE double cf_ln_scurve3(double a) { return (a * a) * (3.0 - 2.0 * a); }
CF_INLINE double cf_ln_scurve5(double a)
{
    double a3 = (a * a) * a, a4 = a3 * a, a5 = a4 * a;
    return ((6.0 * a5) - (15.0 * a4)) + (10.0 * a3);
}
CF_INLINE double cf_ln_cubic(double n0, double n1, double n2, double n3, double a)
{
    double p = (n3 - n2) - (n0 - n1), q = (n0 - n1) - p, r = n2 - n0, s = n1;
    return ((((p * a) * a) * a + (q * a) * a) + r * a) + s;
}

/* a module's seed plus the world's (libnoise's int arithmetic, wrapping) */
CF_INLINE cf_i32 cf_ln_seed(cf_i32 world, cf_i32 s) { return (cf_i32)((cf_u32)s + (cf_u32)world); }

/* the lattice hash, in wrapping 32-bit arithmetic */
CF_INLINE cf_u32 cf_ln_hash(cf_i32 x, cf_i32 y, cf_i32 z, cf_i32 seed)
{
    return 1619u * (cf_u32)x + 31337u * (cf_u32)y + 6971u * (cf_u32)z + 1013u * (cf_u32)seed;
}

/* GradientNoise3D: the dot product of the lattice point's vector with the offset */
CF_INLINE double cf_ln_gnoise(double fx, double fy, double fz, cf_i32 ix, cf_i32 iy, cf_i32 iz, cf_i32 seed)
{
    cf_u32 v = cf_ln_hash(ix, iy, iz, seed);
    v = (v ^ (v >> 8)) & 0xffu; /* only bits 0-15 matter: the shift's sign fill never reaches them */
    double gx = cf_ln_vec[3 * v], gy = cf_ln_vec[3 * v + 1], gz = cf_ln_vec[3 * v + 2];
    return ((gx * (fx - (double)ix)) + (gy * (fy - (double)iy)) + (gz * (fz - (double)iz))) * 2.12;
}

/* GradientCoherentNoise3D */
CF_INLINE double cf_ln_gcoherent(double x, double y, double z, cf_i32 seed, int q)
{
    cf_i32 x0 = cf_ln_lattice(x), y0 = cf_ln_lattice(y), z0 = cf_ln_lattice(z);
    cf_i32 x1 = (cf_i32)((cf_u32)x0 + 1u), y1 = (cf_i32)((cf_u32)y0 + 1u), z1 = (cf_i32)((cf_u32)z0 + 1u);
    double xs = x - (double)x0, ys = y - (double)y0, zs = z - (double)z0;
    if (q == CF_LN_STD) xs = cf_ln_scurve3(xs), ys = cf_ln_scurve3(ys), zs = cf_ln_scurve3(zs);
    else if (q == CF_LN_BEST) xs = cf_ln_scurve5(xs), ys = cf_ln_scurve5(ys), zs = cf_ln_scurve5(zs);
    double n0, n1, ix0, ix1, iy0, iy1;
    n0 = cf_ln_gnoise(x, y, z, x0, y0, z0, seed);
    n1 = cf_ln_gnoise(x, y, z, x1, y0, z0, seed);
    ix0 = cf_ln_lerp(n0, n1, xs);
    n0 = cf_ln_gnoise(x, y, z, x0, y1, z0, seed);
    n1 = cf_ln_gnoise(x, y, z, x1, y1, z0, seed);
    ix1 = cf_ln_lerp(n0, n1, xs);
    iy0 = cf_ln_lerp(ix0, ix1, ys);
    n0 = cf_ln_gnoise(x, y, z, x0, y0, z1, seed);
    n1 = cf_ln_gnoise(x, y, z, x1, y0, z1, seed);
    ix0 = cf_ln_lerp(n0, n1, xs);
    n0 = cf_ln_gnoise(x, y, z, x0, y1, z1, seed);
    n1 = cf_ln_gnoise(x, y, z, x1, y1, z1, seed);
    ix1 = cf_ln_lerp(n0, n1, xs);
    iy1 = cf_ln_lerp(ix0, ix1, ys);
    return cf_ln_lerp(iy0, iy1, zs);
}

/* ValueNoise3D as Debian's build computes it (see the top of this file) */
CF_INLINE double cf_ln_vnoise(cf_i32 x, cf_i32 y, cf_i32 z, cf_i32 seed)
{
    cf_u32 n = cf_ln_hash(x, y, z, seed) & 0x7fffffffu;
    n = (n >> 13) ^ n;
    cf_i32 r = (cf_i32)(n * (n * n * 60493u + 19990303u) + 1376312589u);
    return 1.0 - ((double)r / 1073741824.0);
}

/* The octave sums. kind: bit 0 Billow (else Perlin), bit 1 (CF_LN_SHARP) the
 * SharpNoise dialect: no MakeInt32Range, octave seeds masked with 0x7fffffff. */
#define CF_LN_SHARP 2
CF_INLINE double cf_ln_fbm(int kind, double x, double y, double z, double freq, double lac, double pers, int oct,
                           cf_i32 seed, int q)
{
    double value = 0.0, cur = 1.0;
    int sharp = (kind & CF_LN_SHARP) != 0;
    kind &= 1;
    x *= freq, y *= freq, z *= freq;
    for (int o = 0; o < oct; o++) {
        double nx = sharp ? x : cf_ln_int32range(x), ny = sharp ? y : cf_ln_int32range(y), nz = sharp ? z : cf_ln_int32range(z);
        cf_u32 os = (cf_u32)seed + (cf_u32)o;
        double s = cf_ln_gcoherent(nx, ny, nz, (cf_i32)(sharp ? os & 0x7fffffffu : os), q);
        if (kind == 1) s = 2.0 * cf_fabs(s) - 1.0;
        value += s * cur;
        x *= lac, y *= lac, z *= lac;
        cur *= pers;
    }
    return kind == 1 ? value + 0.5 : value;
}

/* RidgedMulti; the spectral weight of octave o is pow(lac^o, -1) = 1 / lac^o;
 * sharp: SharpNoise (no MakeInt32Range; the seed mask is the same) */
CF_INLINE double cf_ln_ridged(double x, double y, double z, double freq, double lac, int oct, cf_i32 seed, int q, int sharp)
{
    double value = 0.0, weight = 1.0, f = 1.0;
    x *= freq, y *= freq, z *= freq;
    for (int o = 0; o < oct; o++) {
        double nx = sharp ? x : cf_ln_int32range(x), ny = sharp ? y : cf_ln_int32range(y), nz = sharp ? z : cf_ln_int32range(z);
        double s = cf_ln_gcoherent(nx, ny, nz, (cf_i32)(((cf_u32)seed + (cf_u32)o) & 0x7fffffffu), q);
        s = 1.0 - cf_fabs(s);
        s *= s;
        s *= weight;
        weight = s * 2.0;
        if (weight > 1.0) weight = 1.0;
        if (weight < 0.0) weight = 0.0;
        value += s * (1.0 / f);
        f *= lac;
        x *= lac, y *= lac, z *= lac;
    }
    return (value * 1.25) - 1.0;
}

CF_INLINE double cf_ln_voronoi(double x, double y, double z, double freq, double disp, int dist, cf_i32 seed,
                               cf_i32 seed0)
{
    x *= freq, y *= freq, z *= freq;
    cf_i32 xi = cf_ln_lattice(x), yi = cf_ln_lattice(y), zi = cf_ln_lattice(z);
    double md = 2147483647.0, xc = 0, yc = 0, zc = 0;
    cf_i32 s1 = (cf_i32)((cf_u32)seed + 1u), s2 = (cf_i32)((cf_u32)seed + 2u);
    for (int k = 0; k < 5; k++) {
        cf_i32 zz = (cf_i32)((cf_u32)zi - 2u + (cf_u32)k);
        for (int j = 0; j < 5; j++) {
            cf_i32 yy = (cf_i32)((cf_u32)yi - 2u + (cf_u32)j);
            for (int i = 0; i < 5; i++) {
                cf_i32 xx = (cf_i32)((cf_u32)xi - 2u + (cf_u32)i);
                double xp = (double)xx + cf_ln_vnoise(xx, yy, zz, seed);
                double yp = (double)yy + cf_ln_vnoise(xx, yy, zz, s1);
                double zp = (double)zz + cf_ln_vnoise(xx, yy, zz, s2);
                double dx = xp - x, dy = yp - y, dz = zp - z;
                double d = dx * dx + dy * dy + dz * dz;
                if (d < md) md = d, xc = xp, yc = yp, zc = zp;
            }
        }
    }
    double v = 0.0;
    if (dist) {
        double dx = xc - x, dy = yc - y, dz = zc - z;
        v = (cf_sqrt(dx * dx + dy * dy + dz * dz)) * 1.7320508075688772935 - 1.0;
    }
    return v + (disp * cf_ln_vnoise(cf_ln_toint(cf_floor(xc)), cf_ln_toint(cf_floor(yc)), cf_ln_toint(cf_floor(zc)), seed0));
}

/* SharpNoise's FastFloor: xi = (int)x; x < xi ? xi - 1 : xi */
CF_INLINE cf_i32 cf_ln_fastfloor(double x)
{
    cf_i32 xi = cf_ln_toint(x);
    return x < (double)xi ? (cf_i32)((cf_u32)xi - 1u) : xi;
}
CF_INLINE double cf_ln_checkerboard(double x, double y, double z, int sharp)
{
    cf_i32 ix = sharp ? cf_ln_fastfloor(x) : cf_ln_toint(cf_floor(cf_ln_int32range(x)));
    cf_i32 iy = sharp ? cf_ln_fastfloor(y) : cf_ln_toint(cf_floor(cf_ln_int32range(y)));
    cf_i32 iz = sharp ? cf_ln_fastfloor(z) : cf_ln_toint(cf_floor(cf_ln_int32range(z)));
    return ((ix & 1) ^ (iy & 1) ^ (iz & 1)) ? -1.0 : 1.0;
}

/* Cylinders (y unused) and Spheres: rings at unit distances */
CF_INLINE double cf_ln_rings(double d)
{
    double small = d - cf_floor(d), large = 1.0 - small;
    double nearest = small < large ? small : large;
    return 1.0 - (nearest * 4.0);
}
CF_INLINE double cf_ln_cylinders(double x, double z, double freq)
{
    x *= freq, z *= freq;
    return cf_ln_rings(cf_sqrt(x * x + z * z));
}
CF_INLINE double cf_ln_spheres(double x, double y, double z, double freq)
{
    x *= freq, y *= freq, z *= freq;
    return cf_ln_rings(cf_sqrt(x * x + y * y + z * z));
}

/* libnoise's pow is C's: the project's double-double pow (kernels/cf_math.h) */
CF_INLINE double cf_ln_pow(double b, double e) { return cf_pow_c(b, e); }
CF_INLINE double cf_ln_exponent(double v, double e) { return cf_ln_pow(cf_fabs((v + 1.0) / 2.0), e) * 2.0 - 1.0; }

/* Curve: pts = n (input, output) pairs sorted by input, n >= 4 */
CF_INLINE double cf_ln_curve(double v, CF_LN_PTS pts, int n)
{
    int i = 0;
    while (i < n && !(v < pts[2 * i])) i++;
    int i0 = i - 2 < 0 ? 0 : i - 2 > n - 1 ? n - 1 : i - 2;
    int i1 = i - 1 < 0 ? 0 : i - 1 > n - 1 ? n - 1 : i - 1;
    int i2 = i > n - 1 ? n - 1 : i;
    int i3 = i + 1 > n - 1 ? n - 1 : i + 1;
    if (i1 == i2) return pts[2 * i1 + 1];
    double in0 = pts[2 * i1], in1 = pts[2 * i2];
    double a = (v - in0) / (in1 - in0);
    return cf_ln_cubic(pts[2 * i0 + 1], pts[2 * i1 + 1], pts[2 * i2 + 1], pts[2 * i3 + 1], a);
}

/* Terrace: pts = n sorted values, n >= 2 */
CF_INLINE double cf_ln_terrace(double v, CF_LN_PTS pts, int n, int invert)
{
    int i = 0;
    while (i < n && !(v < pts[i])) i++;
    int i0 = i - 1 < 0 ? 0 : i - 1 > n - 1 ? n - 1 : i - 1;
    int i1 = i > n - 1 ? n - 1 : i;
    if (i0 == i1) return pts[i1];
    double v0 = pts[i0], v1 = pts[i1];
    double a = (v - v0) / (v1 - v0);
    if (invert) {
        double t = v0;
        a = 1.0 - a;
        v0 = v1, v1 = t;
    }
    a *= a;
    return cf_ln_lerp(v0, v1, a);
}

/* Select: which sources a control value needs. 0: source 0; 1: source 1;
 * 2: lerp(s0, s1, alpha) (lower edge); 3: lerp(s1, s0, alpha) (upper edge).
 * *alpha receives the S-curved blend weight for 2 and 3. */
CF_INLINE int cf_ln_select(double c, double lo, double hi, double fall, double *alpha)
{
    *alpha = 0.0;
    if (fall > 0.0) {
        if (c < (lo - fall)) return 0;
        if (c < (lo + fall)) {
            double l = lo - fall, u = lo + fall;
            *alpha = cf_ln_scurve3((c - l) / (u - l));
            return 2;
        }
        if (c < (hi - fall)) return 1;
        if (c < (hi + fall)) {
            double l = hi - fall, u = hi + fall;
            *alpha = cf_ln_scurve3((c - l) / (u - l));
            return 3;
        }
        return 0;
    }
    return (c < lo || c > hi) ? 0 : 1;
}

/* Turbulence's three internal Perlin modules sample at these offsets */
#define CF_LN_TURB_X0 (12414.0 / 65536.0)
#define CF_LN_TURB_Y0 (65124.0 / 65536.0)
#define CF_LN_TURB_Z0 (31337.0 / 65536.0)
#define CF_LN_TURB_X1 (26519.0 / 65536.0)
#define CF_LN_TURB_Y1 (18128.0 / 65536.0)
#define CF_LN_TURB_Z1 (60493.0 / 65536.0)
#define CF_LN_TURB_X2 (53820.0 / 65536.0)
#define CF_LN_TURB_Y2 (11213.0 / 65536.0)
#define CF_LN_TURB_Z2 (44845.0 / 65536.0)

#endif /* CF_LIBNOISE_H */
