/* cf_iris.h - the leaf noise kernels of Iris's NoiseStyles (shared/IRIS.md),
 * shared by the CPU reference (host/cpu/eval64.c) and the generated OpenCL programs
 * (host/opencl/emit.c), as text.
 *
 * Kernel families, as IRIS.md §3/§4 groups them:
 *  - FND (f64 values, i64 lattice hashes; §3.1-3.7): simplex3, perlin3 (hermite
 *    and linear), the fractal combiner (FBM, BILLOW, RIGID), cubic3 value noise,
 *    the two-edge cellular cell3 (Natural distance; Distance2Sub / Distance2Div);
 *  - FN32 (f32 values, i32 hashes; §3.8): the nearest-cell value cellvalue3_32
 *    and white3_32 (raw bits of the f32 coordinates);
 *  - the generator table cf_iris_gen3 (§4.1): NoiseType -> kernel, with the
 *    octave plumbing of each branch (§4.2) and the unification offset wrapper.
 * Java semantics: every expression left to right, each operation rounded to its
 * type, no contraction; i64/i32 arithmetic wraps (done in unsigned types); Java
 * casts saturate (cf_ir_d2l, cf_ir_d2i). The only transcendental on these paths
 * are the CNG power (style VASCULAR_THIN, exponents): fdlibm's pow (cf_ir_pow) and
 * Clover's sin/cos (cf_ir_sin, cf_ir_cos): Java's StrictMath.
 * The seeds (i64 kernel seed S, i32 seed S32, offsets ox/oz) come from Iris's
 * RNG on the host (host/frontend/iris/iris_rng.c) and are arguments here.
 * Compile C with -ffp-contract=off; OpenCL programs set FP_CONTRACT OFF.
 */
#ifndef CF_IRIS_H
#define CF_IRIS_H

#include "cf_math.h"

/* branches (dialects) */
enum { CF_IR_MASTER = 0, CF_IR_UNIFICATION = 1 };

/* NoiseTypes with a kernel here (IRIS.md §4.1) */
enum {
    CF_IG_FLAT = 0,
    CF_IG_SIMPLEX,
    CF_IG_PERLIN,
    CF_IG_FBM_SIMPLEX,
    CF_IG_BILLOW_SIMPLEX,
    CF_IG_RM_SIMPLEX,
    CF_IG_BILLOW_PERLIN,
    CF_IG_CUBIC,
    CF_IG_FRACTAL_CUBIC,
    CF_IG_VASCULAR,
    CF_IG_CELLULAR_HEIGHT,
    CF_IG_GLOB,
    CF_IG_CELLULAR,
    CF_IG_WHITE,
    CF_IG_HEXAGON, /* unification only, these five */
    CF_IG_HEX_SIMPLEX,
    CF_IG_HEX_JAMES,
    CF_IG_HEX_RANDOM,
    CF_IG_SIERPINSKI,
    CF_IG_CLOVER, /* both branches; kernel seed K = gseed */
    CF_IG_COUNT
};

#ifdef __OPENCL_VERSION__
#define cf_ir_f32(u) as_float((cf_u32)(u))
#define cf_ir_raw32(f) as_int((float)(f))
#else
CF_INLINE float cf_ir_f32(cf_u32 u)
{
    union {
        cf_u32 u;
        float f;
    } v;
    v.u = u;
    return v.f;
}
CF_INLINE cf_i32 cf_ir_raw32(float f)
{
    union {
        float f;
        cf_i32 i;
    } v;
    v.f = f;
    return v.i;
}
#endif

/* ------------------------------------------------------------------ Java casts (§1) */
CF_INLINE cf_i64 cf_ir_d2l(double x)
{
    if (x != x) return 0;
    if (x >= 9223372036854775808.0) return (cf_i64)0x7fffffffffffffffL;
    if (x <= -9223372036854775808.0) return (cf_i64)(-0x7fffffffffffffffL - 1);
    return (cf_i64)x;
}
CF_INLINE cf_i32 cf_ir_d2i(double x)
{
    if (x != x) return 0;
    if (x >= 2147483648.0) return 2147483647;
    if (x <= -2147483648.0) return (cf_i32)(-2147483647 - 1);
    return (cf_i32)x;
}
/* i64 arithmetic shift right by 13 (Java >>) */
CF_INLINE cf_u64 cf_ir_sar13(cf_u64 h)
{
    return (h >> 13) | ((h & 0x8000000000000000UL) ? 0xfff8000000000000UL : 0UL);
}
CF_INLINE cf_u32 cf_ir_sar13_32(cf_u32 h) { return (h >> 13) | ((h & 0x80000000u) ? 0xfff80000u : 0u); }
CF_INLINE cf_u32 cf_ir_sar16_32(cf_u32 h) { return (h >> 16) | ((h & 0x80000000u) ? 0xffff0000u : 0u); }

/* Cellular jitter vectors (IRIS.md Appendix B; binary32 bit patterns, x:y or
 * x:y:z per entry): data of Auburn's FastNoise (MIT), as the spec lists them. */
CF_CONST cf_u32 cf_iris_cell2[512] = {
    0xbedcda6cu, 0x3e034561u, 0xbe317ddcu, 0x3ed49f5eu, 0xbe907bf6u, 0xbeb37799u, 0xbe8fb103u, 0x3eb41a40u,
    0x3ea006acu, 0xbea5c221u, 0x3ead35e6u, 0xbe97edb2u, 0xbee0f8cdu, 0xbdc6de8du, 0xbee45fedu, 0xbd73db01u,
    0xbe9abcfau, 0x3eaab485u, 0xbe59c910u, 0xbecb0b0fu, 0xbe9925b0u, 0x3eac2249u, 0x3e6ad61bu, 0x3ec63c2cu,
    0x3ee5247au, 0xbd405039u, 0x3e360491u, 0x3ed3a9eau, 0x3e2ce79bu, 0xbed590bau, 0xbdc801d1u, 0x3ee0e8a9u,
    0x3dad0f53u, 0x3ee24d26u, 0xbed1db46u, 0xbe3e343cu, 0x3eb2004eu, 0xbe924957u, 0xbeab8de7u, 0xbe99cbd6u,
    0x3e6b55acu, 0xbec61656u, 0xbc2f4bdfu, 0x3ee655bau, 0xbee45bf7u, 0xbd74c828u, 0x3ebae522u, 0x3e86bcffu,
    0xbeb2eef8u, 0x3e912509u, 0xbed31553u, 0x3e38b1c2u, 0xbe88df31u, 0x3eb95696u, 0x3ea4ed71u, 0xbea0e1d7u,
    0x3e937a95u, 0xbeb103bau, 0x3ec74776u, 0xbe674649u, 0x3ee5fea8u, 0xbcda8c10u, 0xbee64894u, 0x3c6a6c16u,
    0x3e02e29au, 0xbedce914u, 0xbd125030u, 0x3ee5ac47u, 0xbedc06f9u, 0xbe08b4e3u, 0xbea4c095u, 0x3ea10fc7u,
    0xbe9c86cbu, 0x3ea9111eu, 0xbed439deu, 0x3e336134u, 0xbebf648cu, 0x3e8044e6u, 0x3e650ec4u, 0xbec7eb12u,
    0x3b427f03u, 0xbee6651eu, 0x3e32e7ecu, 0xbed45374u, 0xbee27f45u, 0xbda8e96eu, 0xbe8d83cau, 0xbeb5d15du,
    0xbecdcae5u, 0xbe4f34bdu, 0x3ec63766u, 0xbe6ae637u, 0xbedc2a1bu, 0x3e07d1eau, 0xbcf8d68du, 0xbee5dfdfu,
    0xbeb27e14u, 0x3e91afc6u, 0x3d3a8317u, 0xbee537a8u, 0xbd19edcbu, 0x3ee5985du, 0x3ea73d7au, 0x3e9e7a10u,
    0x3d85f087u, 0xbee3f42au, 0x3d0ba23au, 0x3ee5bce8u, 0xbee3cc79u, 0x3d8a1891u, 0xbed9e768u, 0xbe15b18au,
    0x3ee65b8fu, 0x3c0d5988u, 0x3d56bcb6u, 0x3ee4d4c1u, 0xbee628ddu, 0xbca85908u, 0xbdf6bcf2u, 0x3eddfd39u,
    0xbeaf18d7u, 0xbe95c01cu, 0x3ec5e786u, 0x3e6bf301u, 0x3d3891dcu, 0xbee53df1u, 0xbd80af75u, 0x3ee42492u,
    0x3ec95961u, 0xbe5ffcfeu, 0x3ee4fad4u, 0xbd4c56a3u, 0x3ec02eceu, 0xbe7e2a27u, 0xbe8c1d77u, 0x3eb6e60fu,
    0x3e2e2094u, 0x3ed5511eu, 0x3ed20ecfu, 0x3e3d5028u, 0x3ea57e09u, 0xbea04d17u, 0xbe939304u, 0xbeb0ef5bu,
    0x3e520505u, 0x3ecd140au, 0x3ee2004fu, 0xbdb339cau, 0xbe2c8369u, 0x3ed5a4fau, 0xbb825a28u, 0x3ee66418u,
    0xbe527218u, 0x3eccf814u, 0xbbc7be3au, 0xbee660fdu, 0xbdf4fcceu, 0xbede1c3cu, 0x3ec7c21du, 0xbe659d85u,
    0x3c8d3115u, 0x3ee63b1fu, 0xbe9a5f21u, 0x3eab0968u, 0xbc7818c5u, 0xbee644ffu, 0xbed4198cu, 0xbe33f9dau,
    0xbe443caeu, 0xbed07696u, 0x3ebff627u, 0x3e7ed52du, 0xbe6525e9u, 0x3ec7e471u, 0xbed55118u, 0xbe2e20b3u,
    0x3eb94d35u, 0x3e88ebe4u, 0x3e41a6c1u, 0xbed1111du, 0xbea01fc9u, 0x3ea5a9deu, 0xbea80750u, 0x3e9da3ffu,
    0xbe6afcfbu, 0x3ec630a7u, 0xbeb065cbu, 0x3e943758u, 0xbed55af4u, 0xbe2df059u, 0xbe840a33u, 0xbebccfa6u,
    0xbeb8efb4u, 0x3e896a15u, 0x3e683e2bu, 0x3ec6ff57u, 0x3e5420fbu, 0x3ecc88ebu, 0x3dab1d30u, 0xbee264d1u,
    0xbedcc94eu, 0x3e03b85cu, 0x3ea6c2e1u, 0x3e9efb0cu, 0x3e35f747u, 0xbed3acc6u, 0xbee3eef7u, 0x3d867de3u,
    0x3eca80dbu, 0x3e5bc96au, 0xbeda5926u, 0x3e1314bfu, 0xbec23e17u, 0xbe77d28eu, 0x3d3d2309u, 0xbee52f0du,
    0xbebe28dau, 0xbe821720u, 0x3e83413bu, 0xbebd5b92u, 0x3d0e6747u, 0x3ee5b61bu, 0xbe9cf386u, 0x3ea8ac32u,
    0xbe671d5fu, 0x3ec75354u, 0x3ed2c31du, 0xbe3a27d2u, 0xbe94e068u, 0xbeafd733u, 0x3e918650u, 0xbeb29fe3u,
    0x3e9f778cu, 0xbea64bd7u, 0x3ee49095u, 0xbd682defu, 0xbe9b82f2u, 0xbeaa0040u, 0x3ed0e03au, 0x3e427951u,
    0xbeb28823u, 0xbe91a372u, 0x3ea728abu, 0x3e9e9002u, 0x3ea46916u, 0x3ea16917u, 0x3c41e2abu, 0x3ee65200u,
    0x3edde490u, 0x3df81edbu, 0x3e9fad03u, 0x3ea61882u, 0xbe8ba658u, 0x3eb74113u, 0xbed82e5au, 0xbe1f5f67u,
    0xbdcec95du, 0xbee0867bu, 0xbe8c5914u, 0xbeb6b854u, 0xbe160760u, 0x3ed9d8a5u, 0x3e6bc0ddu, 0xbec5f676u,
    0xbebd693eu, 0x3e832d7fu, 0x3dd8796du, 0xbedff431u, 0xbe878301u, 0x3eba55c2u, 0x3eb4514eu, 0x3e8f6be7u,
    0xbe3ee491u, 0xbed1b33bu, 0x3e4c3c70u, 0xbece8890u, 0x3ec993e6u, 0x3e5f2a11u, 0xbea52de7u, 0x3ea09fa7u,
    0x3ec25e04u, 0x3e776e5au, 0x3e17d9e9u, 0x3ed987c6u, 0xbed096c9u, 0x3e43b3a2u, 0x3ed7b2b5u, 0x3e21f819u,
    0xbe8635deu, 0x3ebb4643u, 0xbe81e4ccu, 0xbebe4b3fu, 0xbe571070u, 0x3ecbc45du, 0x3eb98e7eu, 0x3e88935du,
    0xbebaa040u, 0xbe871c58u, 0x3e6d69bdu, 0x3ec5775cu, 0xbea6ef76u, 0x3e9ecc3bu, 0xbe5a1ddcu, 0xbecaf44cu,
    0x3ec353f4u, 0xbe7462e0u, 0xbeaf9ab9u, 0x3e9527b9u, 0xbedf0534u, 0x3de761c0u, 0xbe5784eau, 0x3ecba596u,
    0x3eab6fafu, 0xbe99ed84u, 0x3eafa3d7u, 0x3e951cfbu, 0xbe6aaf20u, 0xbec647b6u, 0x3e82714fu, 0xbebdeb09u,
    0x3ed8e464u, 0xbe1b75c2u, 0xbe1d920bu, 0x3ed882d6u, 0xbee1a952u, 0x3db9f33bu, 0xbd8b5f3fu, 0xbee3c009u,
    0x3ee40524u, 0xbd841f10u, 0x3e8332bcu, 0xbebd659du, 0x3ea7d800u, 0xbe9dd65eu, 0xbed31607u, 0xbe38ae8cu,
    0x3eabbabeu, 0xbe9999c3u, 0x3ee4ad10u, 0xbd610f39u, 0xbe24c1bfu, 0x3ed72b6bu, 0xbdc1d261u, 0x3ee13f3eu,
    0xbcd81455u, 0xbee600fdu, 0x3ee4eaa9u, 0xbd50d1a9u, 0xbedf85b9u, 0x3ddf7f1du, 0xbecabea9u, 0x3e5ae50au,
    0xbed91729u, 0xbe1a594bu, 0xbec6cc91u, 0x3e68ebdbu, 0xbedb52b1u, 0xbe0d291bu, 0x3ea928b9u, 0x3e9c6d48u,
    0x3eaa0eb6u, 0xbe9b7321u, 0xbed3777fu, 0xbe36ee68u, 0x3dac183du, 0xbee258ecu, 0xbec3bb4au, 0x3e731746u,
    0xbebe131du, 0xbe8236e2u, 0x3ee4fc2bu, 0xbd4bf682u, 0xbee4b081u, 0x3d602f06u, 0x3d472d5fu, 0xbee50d04u,
    0xbed732e4u, 0xbe249ab2u, 0x3e61d436u, 0x3ec8d59fu, 0xbeb9984cu, 0x3e888609u, 0xbecea5ccu, 0xbe4bc605u,
    0x3e5c7078u, 0x3eca5371u, 0xbedf336fu, 0xbde4941cu, 0x3ed5ee86u, 0x3e2b1551u, 0x3e4d94d2u, 0x3ece3313u,
    0xbd950e08u, 0xbee35ddau, 0x3eba9c73u, 0xbe872198u, 0xbedd0db4u, 0x3e01ea51u, 0xbe984997u, 0x3eace520u,
    0xbe998832u, 0x3eabca72u, 0xbe88e462u, 0x3eb952c1u, 0x3e8fca91u, 0x3eb405dau, 0x3eb32564u, 0x3e90e1d7u,
    0xbe6451dfu, 0x3ec82110u, 0x3ea94216u, 0x3e9c51d6u, 0xbe798423u, 0xbec1b321u, 0xbd0b60b3u, 0x3ee5bd87u,
    0xbea38300u, 0x3ea25227u, 0x3ee413c6u, 0xbd82888cu, 0x3ee58e30u, 0x3d1dad65u, 0xbee2ae46u, 0xbda4ec90u,
    0x3d5f537fu, 0x3ee4b3dcu, 0xbe9000ccu, 0x3eb3da7cu, 0x3e01b5b3u, 0x3edd156eu, 0xbebf4841u, 0x3e806f14u,
    0x3e97897du, 0xbead8d98u, 0xbebe2d16u, 0x3e8210f0u, 0xbecf1650u, 0xbe49fb1bu, 0x3e278b1au, 0xbed6a189u,
    0x3ea86803u, 0xbe9d3cadu, 0xbe7f7857u, 0xbebfbfe8u, 0x3d067a26u, 0x3ee5c936u, 0xbe2a4c23u, 0xbed616a4u,
    0xbddacb5bu, 0x3edfd01cu, 0x3d83e583u, 0xbee40739u, 0xbee58a9bu, 0x3d1ef9bbu, 0xbed7bed3u, 0xbe21b77du,
    0x3d50cf93u, 0xbee4eab0u, 0x3e51fad5u, 0xbecd16a6u, 0x3ed5eb2cu, 0xbe2b2614u, 0xbeb689a7u, 0xbe8c95c4u,
    0x3ee54b43u, 0x3d34630eu, 0xbeae147au, 0xbe96ee77u, 0x3ec0e06cu, 0x3e7c0dbbu, 0xbea0b6a4u, 0x3ea51789u,
    0xbe15b580u, 0xbed9e6bau, 0x3ecb4764u, 0xbe58e77bu, 0x3ee44ef6u, 0xbd77cb99u, 0xbed22b9bu, 0xbe3cd022u,
    0x3e170cf7u, 0xbed9ab70u, 0x3dbd9abeu, 0x3ee178a5u, 0xbe22c81bu, 0xbed78b8cu, 0x3e7e33ceu, 0x3ec02b9du,
    0x3ee0710au, 0xbdd03c7bu, 0x3d7fb489u, 0x3ee42c10u, 0x3e91bed6u, 0xbeb271c7u, 0xbeb03b58u, 0xbe9469cfu,
    0x3df5639bu, 0xbede1524u, 0xbe796fd7u, 0x3ec1b9aau, 0x3e97759au, 0xbead9ef3u, 0xbdee638bu, 0x3ede8f01u,
    0x3e02761fu, 0xbedcf91eu, 0x3ebc70b2u, 0x3e849192u, 0x3e7b06f3u, 0x3ec13606u, 0xbedce724u, 0x3e02efa9u,
};
CF_CONST cf_u32 cf_iris_cell3[768] = {
    0x3e14de2au, 0xbed47805u, 0xbdc3fd68u, 0xbc4ba00eu, 0xbe154a75u, 0xbed9e14du, 0x3e935a41u, 0xbcd585ebu,
    0xbeb09dc1u, 0xbd9e5f1fu, 0x3e736a1au, 0x3ebf9529u, 0x3de2c17au, 0xbeb5e0bcu, 0xbe819478u, 0x3e8d1114u,
    0x3e8731d7u, 0xbe742fb3u, 0x3e969d50u, 0x3e1c44deu, 0x3e9bdde1u, 0x3eccd8dfu, 0xbe504991u, 0x3d04e161u,
    0xbe2dcdcfu, 0x3ecb4eebu, 0xbe01954fu, 0xbe17e1d7u, 0xbec59dcau, 0x3e35d2a2u, 0x3e865403u, 0xbe71230fu,
    0x3e8f309du, 0xbe8ab372u, 0x3eb3784au, 0xbda1d3e9u, 0xbd1009b5u, 0x3ec6ec8bu, 0x3e65b053u, 0xbe01d054u,
    0x3e449ccdu, 0x3ec60207u, 0x3cf1d463u, 0x3ee1c6a2u, 0x3dad7ad3u, 0xbe8fb600u, 0xbe88b3cdu, 0x3e6a77c7u,
    0xbe2f4473u, 0x3e5b41e5u, 0x3eb6b7efu, 0x3e5864fcu, 0x3ec7cd9du, 0xbd98a41fu, 0xbdd1c997u, 0x3e59e967u,
    0xbec41e1au, 0xbea92d77u, 0xbe20759eu, 0x3e864315u, 0x3e56213bu, 0x3ea06c81u, 0xbe7c1338u, 0x3eb079a8u,
    0xbe471719u, 0xbe5b6031u, 0x3e4b35e7u, 0xbea49307u, 0xbe7a67feu, 0xbe95f71au, 0x3e67b8f6u, 0x3e830988u,
    0xbe259d69u, 0x3bceec21u, 0xbed6fb05u, 0xbeb766c8u, 0xbe17dccau, 0xbe69f1c9u, 0xbe3da6d5u, 0xbeb0d9d5u,
    0xbe626a52u, 0x3e9bf87au, 0x3dd23039u, 0x3ea13bb0u, 0xbd1c55b8u, 0xbe82a683u, 0xbebcc430u, 0xbed12649u,
    0x3e38edebu, 0x3d60fc11u, 0xbcdc27c6u, 0xbe8cc969u, 0x3eb5dcc4u, 0xbd1bb168u, 0x3ea7d38eu, 0x3e9ca6ccu,
    0x3e72cd82u, 0x3e947ff3u, 0xbe7f4b18u, 0x3ee3b860u, 0x3d21aa91u, 0x3d64fc51u, 0x3ca29f8eu, 0xbc764814u,
    0xbee60c08u, 0x3edad89eu, 0x3d090d4bu, 0xbe0bf522u, 0xbe544627u, 0x3e930435u, 0xbe8e252du, 0xbec21c8eu,
    0x3e03314eu, 0x3e52bb66u, 0xbe56e8b8u, 0xbdce4061u, 0xbec52d6fu, 0x3c81a9b3u, 0x3eda4fb8u, 0x3e1267bcu,
    0xbe41582eu, 0xbea1d7d1u, 0xbe847596u, 0x3e252b8au, 0xbe4a3855u, 0xbebdd7feu, 0xbdb7cc2eu, 0x3e6aa5f8u,
    0xbec0e4b4u, 0x3d903452u, 0x3ed47de6u, 0xbe22dee7u, 0xbdddc87eu, 0xbe2269a7u, 0x3ed05d1fu, 0x3e7d5910u,
    0xbea97129u, 0x3e3681fbu, 0xbddae5d3u, 0xbe8a52ffu, 0xbeaff151u, 0x3e75658eu, 0x3d8b5676u, 0xbebfdfe1u,
    0xbe9cdef8u, 0x3e84fd03u, 0x3e4fbf62u, 0x3e232887u, 0xbe9f7469u, 0xbe90ecbeu, 0x3e8abc75u, 0x3e10a7bdu,
    0xbea9216eu, 0xbe1ba022u, 0x3eb9840au, 0x3e609e05u, 0x3e2e0e8cu, 0x3eb0f2a7u, 0x3e6e5322u, 0xbe4b61e1u,
    0x3ec46ad8u, 0xbe010c10u, 0xbe414736u, 0xbe51ef95u, 0xbeb4e7cbu, 0x3e882566u, 0x3e9a667bu, 0xbe4ef7d1u,
    0xbdb505b1u, 0xbedb966bu, 0xbdd4510bu, 0xbd2c1bcbu, 0x3e9eb2fbu, 0x3ea5a34du, 0xbea564a4u, 0x3e4e631au,
    0xbe759aafu, 0x3e85c575u, 0x3e8d4df7u, 0xbe76c223u, 0x3ec57c2eu, 0x3e609c3fu, 0x3d996eceu, 0x3d9cc614u,
    0x3ebe8d7du, 0x3e76e1d9u, 0x3edd084bu, 0xbcd32b66u, 0x3dfeb465u, 0xbe93fd87u, 0xbeaf02c5u, 0xbd3c5669u,
    0xbe617abcu, 0x3ec41ba4u, 0xbdaf11c4u, 0x3ed50f4au, 0xbe2af876u, 0xbd1c5acau, 0x3e61c35du, 0x3cd96f6du,
    0xbec86488u, 0xbdd50e12u, 0x3ec72c0du, 0xbe4db1f1u, 0xbe12a63cu, 0x3ebe443eu, 0xbe5688e3u, 0x3ecbb16eu,
    0xbd7e39a5u, 0x3e4dc06eu, 0xbe851536u, 0x3e85f9f0u, 0xbe83ff79u, 0x3ece7856u, 0xbde65118u, 0x3e28fbf2u,
    0xbdb75df8u, 0xbe9c11f4u, 0x3ea32bcdu, 0x3df39559u, 0xbe93361cu, 0x3ea6727cu, 0x3cb18645u, 0xbd0689d9u,
    0xbee58474u, 0xbeaea92au, 0x3e800068u, 0x3e1d6553u, 0x3ea1f19cu, 0x3e9dcd3bu, 0xbdb0f3aeu, 0x3e712a8eu,
    0xbeb0180bu, 0xbe2d9b45u, 0xbceb7b81u, 0xbeca8b35u, 0x3e59a807u, 0xbe7c0d92u, 0x3ca58064u, 0xbec0996bu,
    0x3d2c5c63u, 0xbee4e2f2u, 0x3cf3251cu, 0x3e8ba559u, 0x3e6a56ebu, 0xbe8ce7e0u, 0xbe09fc81u, 0xbcdee453u,
    0xbedb62b6u, 0x3ec413a7u, 0x3dfc4cb0u, 0xbe4e7da9u, 0xbeb5a348u, 0x3e0238e9u, 0x3e7bd009u, 0x3e6c1ce8u,
    0x3e9cdf18u, 0x3e712614u, 0xbdaa78ecu, 0xbe44d681u, 0x3ecbea64u, 0x3e99468au, 0xbe8623cau, 0xbe57619eu,
    0xbe5ca883u, 0x3e8a95e2u, 0x3e93541du, 0x3c89e685u, 0xbe893fe4u, 0xbeb8db9du, 0x3d56a5e2u, 0x3eddf564u,
    0xbddea987u, 0x3c1a06dbu, 0xbee50312u, 0x3d464ff6u, 0x3eb1717au, 0x3c3b175eu, 0xbe92d8aeu, 0xbebdcaa9u,
    0xbe829dd6u, 0x3b4ee084u, 0x3e8c5910u, 0x3e5b2218u, 0xbe9239a3u, 0x3d8358ddu, 0x3e2ef908u, 0x3ed29967u,
    0xbec6c093u, 0xbd22beddu, 0xbe6580aau, 0x3d837882u, 0xbe8f8c6du, 0x3eb131a6u, 0xbe4b60f7u, 0xbeada0cau,
    0x3e60785fu, 0xbe501473u, 0xbec63a61u, 0x3dd9d34bu, 0xbe0e4f1bu, 0xbe8e204cu, 0xbea6cc1eu, 0xbd864271u,
    0x3eaf3bd2u, 0xbe91c6b9u, 0xbe817f57u, 0xbe94b24cu, 0x3e6e5c4du, 0x3e13ea16u, 0x3ddaf809u, 0x3ed33aaeu,
    0xbeba8fc1u, 0xbe7a9542u, 0xbdcb36b4u, 0x3edb7354u, 0xbe0b1c29u, 0xbc95df8au, 0x3e29da97u, 0xbea09ac7u,
    0xbe8db229u, 0x3e6349c2u, 0xbebb4bf9u, 0x3e0ead0eu, 0x3d311151u, 0xbec43c5eu, 0x3e6d5df4u, 0xbdadb248u,
    0xbee18782u, 0xbd126e3bu, 0x3e3a94cau, 0xbeca6829u, 0x3de9aa6eu, 0xbea763adu, 0x3e9b7892u, 0x3d6f29e7u,
    0xbed0ebbdu, 0x3d2d2c4fu, 0xbe3d653eu, 0x3e890333u, 0xbc54f02eu, 0x3eb91d5eu, 0x3e9adfdfu, 0xbdced894u,
    0xbea28df5u, 0x3e145367u, 0x3eda1268u, 0xbc2b585eu, 0x3ed6f54cu, 0x3da51dc7u, 0x3e0fd97du, 0xbe9a0de4u,
    0xbeaa8456u, 0xbd04c414u, 0x3eba552bu, 0xbe043a3fu, 0xbe6c9611u, 0x3ea8beccu, 0x3c96e081u, 0xbe9c96e8u,
    0x3e8e24fdu, 0xbe9850fdu, 0xbe44c318u, 0x3ed46dc8u, 0xbe1444aau, 0xbdc67c5cu, 0x3e147f43u, 0xbd236d71u,
    0x3ed92652u, 0x3dbe71aau, 0xbe99767fu, 0xbea5202fu, 0x3dd2b85du, 0xbeb8f7f9u, 0x3e7dbc97u, 0x3e895f5eu,
    0xbd90ead6u, 0xbeb56277u, 0xbed87029u, 0xbda2789eu, 0xbe077b92u, 0xbe3665bdu, 0x3e3905adu, 0xbebe4925u,
    0x3ee0cef2u, 0xbce8cde2u, 0xbdc13b2fu, 0x3e98323fu, 0x3e73ffaau, 0xbe753f6cu, 0xbe2ecc0eu, 0x3e62e711u,
    0x3eb47be4u, 0x3ec2e701u, 0x3e16b7bbu, 0xbe421879u, 0xbe335919u, 0xbe8cbe1bu, 0x3e9eda5au, 0xbe6411b2u,
    0xbe6d3cf8u, 0x3ea14688u, 0x3e0c401cu, 0x3e095a81u, 0xbed07269u, 0xbeb4b5e8u, 0xbe7d396bu, 0xbe049f7au,
    0xbe84a567u, 0xbe98dc90u, 0xbe5c345eu, 0xbec1bde6u, 0x3e6142e0u, 0xbdd60391u, 0xbd66d7b5u, 0x3e1823b7u,
    0x3ed78ea7u, 0x3ea67920u, 0x3dc5f5edu, 0xbe976613u, 0xbed69438u, 0x3e100d25u, 0xbdac278au, 0xbea68fb3u,
    0xbe9db691u, 0xbd2d1320u, 0x3e9253abu, 0xbd6d690fu, 0x3eaf79f0u, 0xbe8bf5e5u, 0x3e4a1d39u, 0xbe98962du,
    0x3e60427fu, 0x3e76c9b2u, 0xbe9f0336u, 0x3ea2f52bu, 0xbe8aed77u, 0x3e2a0945u, 0xbd03f95cu, 0xbeaa8e33u,
    0xbe9a05b1u, 0xbe9e1827u, 0x3e4c0fe7u, 0xbe84f756u, 0xbd84ddc5u, 0xbedcbd5fu, 0x3de43404u, 0x3ec8c394u,
    0xbd80e82du, 0xbe58b27eu, 0xbe247eeeu, 0xbeb7c56du, 0xbe600833u, 0xbd1a53f2u, 0xbe6a8830u, 0x3ec56279u,
    0x3e0ed599u, 0xbeb86ef0u, 0x3e6c5f90u, 0xbede7804u, 0x3bbc73deu, 0x3def6fc9u, 0xbdd5f117u, 0x3ed5687eu,
    0xbe08d3c1u, 0x3e882079u, 0x3e82a8d5u, 0x3e8437f1u, 0x3e5211d8u, 0x3e4a47afu, 0x3eb26384u, 0xbe883c5eu,
    0x3e707818u, 0x3e8da904u, 0x3da0c17eu, 0xbea8fa4du, 0xbe9760f7u, 0xbe5d4119u, 0x3d5c382eu, 0xbec83850u,
    0xbe3e3ce6u, 0x3e5c019eu, 0x3eb2b4c0u, 0x3ccc2ddfu, 0xbea55fa8u, 0xbe9fea49u, 0xbdf61a8du, 0x3ecdaf1eu,
    0x3e273eedu, 0xbcb0f442u, 0xbd8d0345u, 0x3ee36b12u, 0x3e85002eu, 0x3e9e87d5u, 0x3e4a9cf6u, 0xbe2505ebu,
    0xbdc92d00u, 0x3ed1281du, 0xbea7e128u, 0x3e15accfu, 0x3e8aeca2u, 0x3e908627u, 0x3d19c7f5u, 0xbeb2670bu,
    0x3d01d0f3u, 0x3eb1df1au, 0xbe918ad8u, 0x3e618c32u, 0xbeb1313eu, 0xbe3d6920u, 0x3e96309cu, 0x3e9b3cafu,
    0x3e205b7au, 0xbea3947fu, 0x3e7b43a4u, 0xbe4d59f4u, 0xbeb0358eu, 0xbe2df67fu, 0xbe709266u, 0x3e8a6d3au,
    0xbeb700c4u, 0x3d264cd0u, 0x3e6b5f9bu, 0x3ebfb368u, 0x3dc76419u, 0x3dbf0244u, 0xbea24f40u, 0x3e9c6532u,
    0xbde49735u, 0xbe98d53du, 0x3ea2aaa0u, 0x3e5e8176u, 0xbeb126fbu, 0xbe411f42u, 0x3e4be9c5u, 0x3ec399fbu,
    0xbe051a40u, 0xbd5df83du, 0xbe575cb0u, 0x3ec9ca2du, 0x3db5af5bu, 0x3e4e0a73u, 0x3ec9045fu, 0x3e8eba97u,
    0x3eb37a0au, 0x3d330462u, 0xbea4f300u, 0x3e9d0a95u, 0x3d8b5dc8u, 0xbedb004cu, 0x3e073c83u, 0x3d3bb0c2u,
    0x3e75e522u, 0xbe251f24u, 0x3eb07fa8u, 0x3e145664u, 0xbe74833eu, 0x3eb4a7e8u, 0xbec47530u, 0xbe61ef69u,
    0x3da63873u, 0xbee063fbu, 0xbdba03c9u, 0xbd3f128eu, 0xbec12b4fu, 0x3d5f0871u, 0x3e74e371u, 0x3e00fb1eu,
    0x3eb260c6u, 0x3e82caa2u, 0xbe1000eeu, 0xbe8ab070u, 0xbea94ed9u, 0xbe21dcf5u, 0x3ed52462u, 0xbd84f270u,
    0x3e7db51du, 0xbe95e825u, 0xbe70fff9u, 0x3e954e56u, 0x3ea99a10u, 0x3db417ecu, 0x3d96d734u, 0xbe2a9d61u,
    0x3ed2ad49u, 0xbe85c48fu, 0xbe780982u, 0x3e8cbf3du, 0xbebe8f31u, 0x3e816db6u, 0x3c0d798eu, 0xbebcfd30u,
    0xbe82b437u, 0x3d06c496u, 0x3e694ffcu, 0xbeabf2c3u, 0x3e471737u, 0x3eba0f53u, 0xbe6c9040u, 0x3e05cbaeu,
    0xbe9bc43bu, 0xbe8a2927u, 0x3e454eb7u, 0xbea3ce06u, 0x3ea1f657u, 0xbc107516u, 0x3e933144u, 0x3e282b44u,
    0xbe9c0a20u, 0xbe1497a2u, 0x3ea7cf63u, 0xbe8b4c5cu, 0x3ea4de60u, 0x3d517251u, 0x3e9ecc7du, 0xbdff77bbu,
    0xbd318125u, 0xbedc41a1u, 0xbe90df8eu, 0xbe9c7a1au, 0xbe2e7b01u, 0x3ddb028au, 0x3eb2bd8fu, 0xbe86ad94u,
    0xbe1179c8u, 0xbe9c6f6fu, 0xbe98b69eu, 0xbe8047dfu, 0x3ea19c71u, 0xbe4d0985u, 0x3ea73556u, 0x3e3f9d26u,
    0x3e7c8f35u, 0x3d9c9792u, 0xbe9af771u, 0x3ea5f150u, 0x3eb0bb0fu, 0x3e8d2a22u, 0xbdaf683au, 0x3e98a58au,
    0x3e920e59u, 0x3e37db3eu, 0x3e8ffcbau, 0x3eb17ef2u, 0x3d68d55bu, 0x3ee0c923u, 0xbdc8820du, 0xbc517146u,
    0x3e5bfe51u, 0x3e3d752au, 0x3eb2eac8u, 0x3e84e2b4u, 0xbda2c040u, 0x3eb7c434u, 0x3ea2f5e6u, 0xbe9d5db4u,
    0xbda7ff76u, 0xbed1669bu, 0xbd3e5edcu, 0x3e3a3794u, 0xbe90bac4u, 0x3d97e8f8u, 0x3eaf3356u, 0x3eb25fb6u,
    0x3e66da55u, 0xbe324123u, 0xbea53145u, 0xbe1177cbu, 0xbe8f326fu, 0x3eddbbcfu, 0xbdf3715cu, 0xbcea3e1fu,
    0xbdb28a7fu, 0xbec82fcbu, 0xbe51ecd6u, 0xbe5c2087u, 0x3ec9ba07u, 0xbd0508afu, 0xbe899762u, 0x3ea53723u,
    0xbe259c27u, 0x3e579ebfu, 0xbe48d6c0u, 0xbeb122c3u, 0x3edf5396u, 0xbde268f5u, 0x3b9746ebu, 0x3d5a740eu,
    0xbea0955bu, 0xbea2f23bu, 0xbd753208u, 0x3e0b5e90u, 0xbed975bdu, 0x3ebba5bdu, 0x3e82967au, 0xbd65019eu,
    0xbe6fb851u, 0xbe3ac891u, 0x3ead3157u, 0xbd41c795u, 0xbed82c91u, 0xbe17def5u, 0xbe74e579u, 0xbe83fa62u,
    0xbe8fc76au, 0xbdfe60d1u, 0x3ed9f4bdu, 0xbd9cb848u, 0x3e85e123u, 0xbebae3a1u, 0x3cf42c32u, 0xbe8bb6dcu,
    0xbeb32e56u, 0x3d98bf86u, 0x3c015139u, 0xbe2b4ab2u, 0x3ed5da12u, 0xbc8dbfa8u, 0x3e987f9fu, 0xbeac7b45u,
    0x3e526a49u, 0xbea6887cu, 0xbe6f0441u, 0xbea57a68u, 0x3e202ebcu, 0xbe8ae03fu, 0xbe88ae46u, 0x3e85161eu,
    0xbe81311fu, 0xbd6381d2u, 0x3ea2587eu, 0xbea0fea6u, 0xbe556520u, 0xbe9f3147u, 0xbe7fcb15u, 0x3d8f242fu,
    0xbea1982eu, 0x3ea04894u, 0x3ec4fed2u, 0xbe246237u, 0xbe2d73f4u, 0xbe9af136u, 0xbe99adc1u, 0xbe13c851u,
    0x3eb0ad7bu, 0x3db05d2au, 0x3e8d280fu, 0x3e39cd54u, 0xbe8ec921u, 0xbe9b21b0u, 0xbd1de6b7u, 0x3dc89a97u,
    0x3ee001fbu, 0x3eb4ec86u, 0x3e887c8eu, 0x3da5fe63u, 0xbc022e44u, 0x3e0fba62u, 0xbedade31u, 0x3ed007dbu,
    0xbe18c1cfu, 0xbdfc264eu, 0xbe4e8482u, 0x3c10721fu, 0xbecdea80u, 0xbd9a2773u, 0xbed9edf1u, 0xbe0026beu,
};

/* ------------------------------------------------------------------ FND lattice (§3.1) */
#define CF_IR_PX 1619UL
#define CF_IR_PY 31337UL
#define CF_IR_PZ 6971UL

/* Java long + (wraps; used where saturated coordinates reach the ends of the range) */
CF_INLINE cf_i64 cf_ir_ladd(cf_i64 a, cf_i64 b) { return (cf_i64)((cf_u64)a + (cf_u64)b); }
CF_INLINE cf_i64 cf_ir_ffloor(double x) { return x >= 0 ? cf_ir_d2l(x) : cf_ir_ladd(cf_ir_d2l(x), -1); }
CF_INLINE cf_i64 cf_ir_fround(double x) { return x >= 0 ? cf_ir_d2l(x + 0.5) : cf_ir_d2l(x - 0.5); }

CF_INLINE cf_u64 cf_ir_hash3(cf_i64 s, cf_i64 x, cf_i64 y, cf_i64 z)
{
    cf_u64 h = (cf_u64)s;
    h ^= CF_IR_PX * (cf_u64)x;
    h ^= CF_IR_PY * (cf_u64)y;
    h ^= CF_IR_PZ * (cf_u64)z;
    h = h * h * h * 60493UL;
    return cf_ir_sar13(h) ^ h;
}
CF_INLINE double cf_ir_val3(cf_i64 s, cf_i64 x, cf_i64 y, cf_i64 z)
{
    cf_u64 n = (cf_u64)s ^ (CF_IR_PX * (cf_u64)x) ^ (CF_IR_PY * (cf_u64)y) ^ (CF_IR_PZ * (cf_u64)z);
    cf_u64 v = n * n * n * 60493UL;
    return (double)(cf_i64)v / 9223372036854775808.0;
}
/* GRAD3[h & 15] as (gx, gy, gz) in {-1, 0, 1} */
CF_CONST cf_i32 cf_ir_grad3[48] = {1, 1, 0, -1, 1, 0, 1, -1, 0, -1, -1, 0, 1, 0, 1, -1, 0, 1, 1, 0, -1, -1, 0, -1,
                                   0, 1, 1, 0, -1, 1, 0, 1, -1, 0, -1, -1, 1, 1, 0, 0, -1, 1, -1, 1, 0, 0, -1, -1};
CF_INLINE double cf_ir_gdot3(cf_u64 h, double dx, double dy, double dz)
{
    int g = (int)(h & 15UL) * 3;
    return dx * (double)cf_ir_grad3[g] + dy * (double)cf_ir_grad3[g + 1] + dz * (double)cf_ir_grad3[g + 2];
}
CF_INLINE double cf_ir_grad3c(cf_i64 s, cf_i64 x, cf_i64 y, cf_i64 z, double dx, double dy, double dz)
{
    return cf_ir_gdot3(cf_ir_hash3(s, x, y, z), dx, dy, dz);
}

/* half(v) of the generator table, clip01 */
CF_INLINE double cf_ir_half(double v) { return (v / 2.0) + 0.5; }
CF_INLINE double cf_ir_clip01(double v) { return v < 0 ? 0.0 : v > 1 ? 1.0 : v; }

/* ------------------------------------------------------------------ simplex 3-D (§3.2) */
CF_INLINE double cf_ir_scorner(cf_i64 s, cf_i64 i, cf_i64 j, cf_i64 k, double x, double y, double z)
{
    double t = 0.6 - x * x - y * y - z * z;
    if (t < 0) return 0.0;
    t = t * t;
    return t * t * cf_ir_grad3c(s, i, j, k, x, y, z);
}
CF_INLINE double cf_ir_simplex3(cf_i64 s, double x, double y, double z)
{
    const double F3 = 1.0 / 3.0, G3 = 1.0 / 6.0, G33 = -0.5;
    double t = (x + y + z) * F3;
    cf_i64 i = cf_ir_ffloor(x + t), j = cf_ir_ffloor(y + t), k = cf_ir_ffloor(z + t);
    t = (double)(cf_i64)((cf_u64)i + (cf_u64)j + (cf_u64)k) * G3;
    double x0 = x - ((double)i - t), y0 = y - ((double)j - t), z0 = z - ((double)k - t);
    int i1, j1, k1, i2, j2, k2;
    if (x0 >= y0) {
        if (y0 >= z0) i1 = 1, j1 = 0, k1 = 0, i2 = 1, j2 = 1, k2 = 0;
        else if (x0 >= z0) i1 = 1, j1 = 0, k1 = 0, i2 = 1, j2 = 0, k2 = 1;
        else i1 = 0, j1 = 0, k1 = 1, i2 = 1, j2 = 0, k2 = 1;
    } else {
        if (y0 < z0) i1 = 0, j1 = 0, k1 = 1, i2 = 0, j2 = 1, k2 = 1;
        else if (x0 < z0) i1 = 0, j1 = 1, k1 = 0, i2 = 0, j2 = 1, k2 = 1;
        else i1 = 0, j1 = 1, k1 = 0, i2 = 1, j2 = 1, k2 = 0;
    }
    double x1 = x0 - (double)i1 + G3, y1 = y0 - (double)j1 + G3, z1 = z0 - (double)k1 + G3;
    double x2 = x0 - (double)i2 + F3, y2 = y0 - (double)j2 + F3, z2 = z0 - (double)k2 + F3;
    double x3 = x0 + G33, y3 = y0 + G33, z3 = z0 + G33;
    double n0 = cf_ir_scorner(s, i, j, k, x0, y0, z0);
    double n1 = cf_ir_scorner(s, cf_ir_ladd(i, i1), cf_ir_ladd(j, j1), cf_ir_ladd(k, k1), x1, y1, z1);
    double n2 = cf_ir_scorner(s, cf_ir_ladd(i, i2), cf_ir_ladd(j, j2), cf_ir_ladd(k, k2), x2, y2, z2);
    double n3 = cf_ir_scorner(s, cf_ir_ladd(i, 1), cf_ir_ladd(j, 1), cf_ir_ladd(k, 1), x3, y3, z3);
    return 32 * (n0 + n1 + n2 + n3);
}

/* ------------------------------------------------------------------ perlin 3-D (§3.4) */
CF_INLINE double cf_ir_lerp(double a, double b, double t) { return a + t * (b - a); }
CF_INLINE double cf_ir_perlin3(cf_i64 s, double x, double y, double z, int hermite)
{
    cf_i64 x0 = cf_ir_ffloor(x), y0 = cf_ir_ffloor(y), z0 = cf_ir_ffloor(z);
    cf_i64 x1 = cf_ir_ladd(x0, 1), y1 = cf_ir_ladd(y0, 1), z1 = cf_ir_ladd(z0, 1);
    double dx0 = x - (double)x0, dy0 = y - (double)y0, dz0 = z - (double)z0;
    double dx1 = dx0 - 1, dy1 = dy0 - 1, dz1 = dz0 - 1;
    double sx = dx0, sy = dy0, sz = dz0;
    if (hermite) {
        sx = dx0 * dx0 * (3 - 2 * dx0);
        sy = dy0 * dy0 * (3 - 2 * dy0);
        sz = dz0 * dz0 * (3 - 2 * dz0);
    }
    double a00 = cf_ir_lerp(cf_ir_grad3c(s, x0, y0, z0, dx0, dy0, dz0), cf_ir_grad3c(s, x1, y0, z0, dx1, dy0, dz0), sx);
    double a10 = cf_ir_lerp(cf_ir_grad3c(s, x0, y1, z0, dx0, dy1, dz0), cf_ir_grad3c(s, x1, y1, z0, dx1, dy1, dz0), sx);
    double a01 = cf_ir_lerp(cf_ir_grad3c(s, x0, y0, z1, dx0, dy0, dz1), cf_ir_grad3c(s, x1, y0, z1, dx1, dy0, dz1), sx);
    double a11 = cf_ir_lerp(cf_ir_grad3c(s, x0, y1, z1, dx0, dy1, dz1), cf_ir_grad3c(s, x1, y1, z1, dx1, dy1, dz1), sx);
    return cf_ir_lerp(cf_ir_lerp(a00, a10, sy), cf_ir_lerp(a01, a11, sy), sz);
}

/* ------------------------------------------------------------------ cubic value noise 3-D (§3.6) */
CF_INLINE double cf_ir_cl(double a, double b, double c, double d, double t)
{
    double p = (d - c) - (a - b);
    return t * t * t * p + t * t * ((a - b) - p) + t * (c - a) + b;
}
CF_INLINE double cf_ir_cubic3(cf_i64 s, double x, double y, double z)
{
    cf_i64 x1 = cf_ir_ffloor(x), y1 = cf_ir_ffloor(y), z1 = cf_ir_ffloor(z);
    double xs = x - (double)x1, ys = y - (double)y1, zs = z - (double)z1;
    double q[4];
    for (int c = 0; c < 4; c++) {
        cf_i64 zz = cf_ir_ladd(z1, c - 1);
        double r[4];
        for (int b = 0; b < 4; b++) {
            cf_i64 yy = cf_ir_ladd(y1, b - 1);
            r[b] = cf_ir_cl(cf_ir_val3(s, cf_ir_ladd(x1, -1), yy, zz), cf_ir_val3(s, x1, yy, zz), cf_ir_val3(s, cf_ir_ladd(x1, 1), yy, zz),
                            cf_ir_val3(s, cf_ir_ladd(x1, 2), yy, zz), xs);
        }
        q[c] = cf_ir_cl(r[0], r[1], r[2], r[3], ys);
    }
    return cf_ir_cl(q[0], q[1], q[2], q[3], zs) * (1.0 / (1.5 * 1.5 * 1.5));
}

/* ------------------------------------------------------------------ fractal combiner (§3.5) */
enum { CF_IR_K_SIMPLEX = 0, CF_IR_K_PERLIN_LINEAR = 1, CF_IR_K_CUBIC = 2 };
enum { CF_IR_FBM = 0, CF_IR_BILLOW = 1, CF_IR_RIGID = 2 };
CF_INLINE double cf_ir_kernel3(int k, cf_i64 s, double x, double y, double z)
{
    if (k == CF_IR_K_SIMPLEX) return cf_ir_simplex3(s, x, y, z);
    if (k == CF_IR_K_PERLIN_LINEAR) return cf_ir_perlin3(s, x, y, z, 0);
    return cf_ir_cubic3(s, x, y, z);
}
CF_INLINE double cf_ir_fractal3(int k, int type, cf_i64 s, double x, double y, double z, int oct)
{
    double amp = 0.5, acc = 1;
    for (int i = 1; i < oct; i++) acc += amp, amp *= 0.5;
    double bound = 1 / acc;
    double v = cf_ir_kernel3(k, s, x, y, z);
    double sum = type == CF_IR_FBM ? v : type == CF_IR_BILLOW ? cf_fabs(v) * 2 - 1 : 1 - cf_fabs(v);
    amp = 1;
    for (int i = 1; i < oct; i++) {
        x = x * 2.0, y = y * 2.0, z = z * 2.0;
        amp = amp * 0.5;
        v = cf_ir_kernel3(k, (cf_i64)((cf_u64)s + (cf_u64)i), x, y, z);
        if (type == CF_IR_FBM) sum += v * amp;
        else if (type == CF_IR_BILLOW) sum += (cf_fabs(v) * 2 - 1) * amp;
        else sum -= (1 - cf_fabs(v)) * amp;
    }
    return type == CF_IR_RIGID ? sum : sum * bound;
}

/* ------------------------------------------------------------------ two-edge cellular (§3.7) */
CF_INLINE double cf_ir_cell3(cf_i64 s, double x, double y, double z, int div)
{
    cf_i64 xr = cf_ir_fround(x), yr = cf_ir_fround(y), zr = cf_ir_fround(z);
    double d1 = 999999.0, d2 = 999999.0;
    for (int ka = -1; ka <= 1; ka++)
        for (int kb = -1; kb <= 1; kb++)
            for (int kc = -1; kc <= 1; kc++) {
                /* Java int/long arithmetic: the neighbours wrap (3 steps, never an overflow) */
                cf_i64 xi = (cf_i64)((cf_u64)xr + (cf_u64)(cf_i64)ka), yi = (cf_i64)((cf_u64)yr + (cf_u64)(cf_i64)kb), zi = (cf_i64)((cf_u64)zr + (cf_u64)(cf_i64)kc);
                int c = (int)(cf_ir_hash3(s, xi, yi, zi) & 255UL) * 3;
                double vx = (double)xi - x + (double)cf_ir_f32(cf_iris_cell3[c]);
                double vy = (double)yi - y + (double)cf_ir_f32(cf_iris_cell3[c + 1]);
                double vz = (double)zi - z + (double)cf_ir_f32(cf_iris_cell3[c + 2]);
                double nd = (cf_fabs(vx) + cf_fabs(vy) + cf_fabs(vz)) + (vx * vx + vy * vy + vz * vz);
                double m = d2 <= nd ? d2 : nd;
                d2 = m >= d1 ? m : d1;
                d1 = d1 <= nd ? d1 : nd;
            }
    return div ? d1 / d2 - 1 : d2 - d1 - 1;
}

/* ------------------------------------------------------------------ FN32 (§3.8) */
CF_INLINE float cf_ir_val3_32(cf_i32 s, cf_i32 x, cf_i32 y, cf_i32 z)
{
    cf_u32 n = (cf_u32)s ^ (1619u * (cf_u32)x) ^ (31337u * (cf_u32)y) ^ (6971u * (cf_u32)z);
    cf_u32 v = n * n * n * 60493u;
    return (float)(cf_i32)v / 2147483648.0f;
}
CF_INLINE cf_u32 cf_ir_hash3_32(cf_i32 s, cf_i32 x, cf_i32 y, cf_i32 z)
{
    cf_u32 h = (cf_u32)s;
    h ^= 1619u * (cf_u32)x;
    h ^= 31337u * (cf_u32)y;
    h ^= 6971u * (cf_u32)z;
    h = h * h * h * 60493u;
    return cf_ir_sar13_32(h) ^ h;
}
CF_INLINE cf_i32 cf_ir_fround32(float f) { return f >= 0 ? cf_ir_d2i((double)(f + 0.5f)) : cf_ir_d2i((double)(f - 0.5f)); }
CF_INLINE float cf_ir_cellvalue3_32(cf_i32 s, float x, float y, float z)
{
    cf_i32 xr = cf_ir_fround32(x), yr = cf_ir_fround32(y), zr = cf_ir_fround32(z);
    float best = 999999.0f;
    cf_i32 xc = 0, yc = 0, zc = 0;
    for (int ka = -1; ka <= 1; ka++)
        for (int kb = -1; kb <= 1; kb++)
            for (int kc = -1; kc <= 1; kc++) {
                /* Java int/long arithmetic: the neighbours wrap (3 steps, never an overflow) */
                cf_i32 xi = (cf_i32)((cf_u32)xr + (cf_u32)(cf_i32)ka), yi = (cf_i32)((cf_u32)yr + (cf_u32)(cf_i32)kb), zi = (cf_i32)((cf_u32)zr + (cf_u32)(cf_i32)kc);
                int c = (int)(cf_ir_hash3_32(s, xi, yi, zi) & 255u) * 3;
                float vx = ((float)xi - x) + cf_ir_f32(cf_iris_cell3[c]);
                float vy = ((float)yi - y) + cf_ir_f32(cf_iris_cell3[c + 1]);
                float vz = ((float)zi - z) + cf_ir_f32(cf_iris_cell3[c + 2]);
                float nd = (cf_fabsf(vx) + cf_fabsf(vy) + cf_fabsf(vz)) + (vx * vx + vy * vy + vz * vz);
                if (nd < best) best = nd, xc = xi, yc = yi, zc = zi;
            }
    return cf_ir_val3_32(0, xc, yc, zc);
}
CF_INLINE cf_i32 cf_ir_whitebits(double v)
{
    cf_u32 i = (cf_u32)cf_ir_raw32((float)v);
    return (cf_i32)(i ^ cf_ir_sar16_32(i));
}
CF_INLINE float cf_ir_white3_32(cf_i32 s, double a, double b, double c)
{
    return cf_ir_val3_32(s, cf_ir_whitebits(a), cf_ir_whitebits(b), cf_ir_whitebits(c));
}

/* the MurmurHash3 64-bit finaliser and the golden-ratio constants (Clover [U], hexagons) */
#define CF_IR_GX 0x9E3779B97F4A7C15UL
#define CF_IR_GZ 0xC2B2AE3D27D4EB4FUL
CF_INLINE cf_u64 cf_ir_mix(cf_u64 v)
{
    v = (v ^ (v >> 33)) * 0xff51afd7ed558ccdUL;
    v = (v ^ (v >> 33)) * 0xc4ceb9fe1a85ec53UL;
    return v ^ (v >> 33);
}

/* ------------------------------------------------------------------ sin / cos (fdlibm 5.3, i.e. Java's StrictMath) */
/* Clover noise calls Math.sin/cos; the project follows StrictMath (fdlibm's
 * algorithms, written here from + - * / only), so a golden record equals its
 * strict_bits when it has one, else bits. Arguments on Iris's paths stay below
 * 2^19 * pi/2 (fdlibm's medium range); larger ones use the same reduction. */
CF_INLINE cf_u32 cf_ir_hi(double x) { return (cf_u32)(cf_bits(x) >> 32); }
CF_INLINE double cf_ir_ksin(double x, double y, int iy)
{
    const double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03, S3 = -1.98412698298579493134e-04,
                 S4 = 2.75573137070700676789e-06, S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
    cf_u32 ix = cf_ir_hi(x) & 0x7fffffffu;
    if (ix < 0x3e400000u && (int)x == 0) return x;
    double z = x * x, v = z * x, r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
    if (iy == 0) return x + v * (S1 + z * r);
    return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}
CF_INLINE double cf_ir_kcos(double x, double y)
{
    const double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03, C3 = 2.48015872894767294178e-05,
                 C4 = -2.75573143513906633035e-07, C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
    cf_u32 ix = cf_ir_hi(x) & 0x7fffffffu;
    if (ix < 0x3e400000u && (int)x == 0) return 1.0;
    double z = x * x, r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
    if (ix < 0x3FD33333u) return 1.0 - (0.5 * z - (z * r - x * y));
    double qx = ix > 0x3fe90000u ? 0.28125 : cf_from_bits((cf_u64)(ix - 0x00200000u) << 32);
    double hz = 0.5 * z - qx, a = 1.0 - qx;
    return a - (hz - (z * r - x * y));
}
CF_CONST cf_u32 cf_ir_npio2_hw[32] = {
    0x3ff921fbu, 0x400921fbu, 0x4012d97cu, 0x401921fbu, 0x401f6a7au, 0x4022d97cu, 0x4025fdbbu, 0x402921fbu,
    0x402c463au, 0x402f6a7au, 0x4031475cu, 0x4032d97cu, 0x40346b9cu, 0x4035fdbbu, 0x40378fdbu, 0x403921fbu,
    0x403ab41bu, 0x403c463au, 0x403dd85au, 0x403f6a7au, 0x40407e4cu, 0x4041475cu, 0x4042106cu, 0x4042d97cu,
    0x4043a28cu, 0x40446b9cu, 0x404534acu, 0x4045fdbbu, 0x4046c6cbu, 0x40478fdbu, 0x404858ebu, 0x404921fbu};
/* x - n*pi/2 as y0 + y1; returns n (|x| > pi/4) */
CF_INLINE int cf_ir_rem_pio2(double x, double *y0, double *y1)
{
    const double invpio2 = 6.36619772367581382433e-01, pio2_1 = 1.57079632673412561417e+00, pio2_1t = 6.07710050650619224932e-11,
                 pio2_2 = 6.07710050630396597660e-11, pio2_2t = 2.02226624879595063154e-21, pio2_3 = 2.02226624871116645580e-21,
                 pio2_3t = 8.47842766036889956997e-32;
    cf_u32 hx = cf_ir_hi(x), ix = hx & 0x7fffffffu;
    int neg = (hx >> 31) != 0;
    if (ix < 0x4002d97cu) { /* |x| < 3pi/4: n = +-1 */
        double z;
        if (!neg) {
            z = x - pio2_1;
            if (ix != 0x3ff921fbu) *y0 = z - pio2_1t, *y1 = (z - *y0) - pio2_1t;
            else z -= pio2_2, *y0 = z - pio2_2t, *y1 = (z - *y0) - pio2_2t;
            return 1;
        }
        z = x + pio2_1;
        if (ix != 0x3ff921fbu) *y0 = z + pio2_1t, *y1 = (z - *y0) + pio2_1t;
        else z += pio2_2, *y0 = z + pio2_2t, *y1 = (z - *y0) + pio2_2t;
        return -1;
    }
    double t = cf_fabs(x);
    int n = cf_ir_d2i(t * invpio2 + 0.5); /* saturates beyond the medium range (not reached by Iris; no UB) */
    double fn = (double)n, r = t - fn * pio2_1, w = fn * pio2_1t, a;
    if (n > 0 && n < 32 && ix != cf_ir_npio2_hw[n - 1]) { /* n >= 1 here (|x| >= 3pi/4) */
        a = r - w;
    } else {
        int j = (int)(ix >> 20);
        a = r - w;
        int i = j - (int)((cf_ir_hi(a) >> 20) & 0x7ffu);
        if (i > 16) {
            t = r;
            w = fn * pio2_2;
            r = t - w;
            w = fn * pio2_2t - ((t - r) - w);
            a = r - w;
            i = j - (int)((cf_ir_hi(a) >> 20) & 0x7ffu);
            if (i > 49) {
                t = r;
                w = fn * pio2_3;
                r = t - w;
                w = fn * pio2_3t - ((t - r) - w);
                a = r - w;
            }
        }
    }
    double b = (r - a) - w;
    if (neg) {
        *y0 = -a, *y1 = -b;
        return -n;
    }
    *y0 = a, *y1 = b;
    return n;
}
CF_INLINE double cf_ir_sin(double x)
{
    if ((cf_ir_hi(x) & 0x7fffffffu) >= 0x7ff00000u) return x - x; /* NaN, +-inf: NaN */
    if ((cf_ir_hi(x) & 0x7fffffffu) <= 0x3fe921fbu) return cf_ir_ksin(x, 0.0, 0);
    double a, b;
    int n = cf_ir_rem_pio2(x, &a, &b) & 3;
    if (n == 0) return cf_ir_ksin(a, b, 1);
    if (n == 1) return cf_ir_kcos(a, b);
    if (n == 2) return -cf_ir_ksin(a, b, 1);
    return -cf_ir_kcos(a, b);
}
CF_INLINE double cf_ir_cos(double x)
{
    if ((cf_ir_hi(x) & 0x7fffffffu) >= 0x7ff00000u) return x - x;
    if ((cf_ir_hi(x) & 0x7fffffffu) <= 0x3fe921fbu) return cf_ir_kcos(x, 0.0);
    double a, b;
    int n = cf_ir_rem_pio2(x, &a, &b) & 3;
    if (n == 0) return cf_ir_kcos(a, b);
    if (n == 1) return -cf_ir_ksin(a, b, 1);
    if (n == 2) return -cf_ir_kcos(a, b);
    return cf_ir_ksin(a, b, 1);
}

/* ------------------------------------------------------------------ Clover noise (§3.9) */
#define CF_IR_PI 3.141592653589793
#define CF_IR_HM 281474976710656L
CF_INLINE cf_i64 cf_ir_cstep(cf_i64 v, cf_i64 a)
{
    v = (cf_i64)((cf_u64)v + (cf_u64)a);
    if (v < 0) v = (cf_i64)((cf_u64)v + (cf_u64)CF_IR_HM);
    v = (cf_i64)((cf_u64)v * 25214903917UL + 11UL);
    return v % CF_IR_HM;
}
/* the cell hash of a whole-number point, in [0, 1); dims 2 ignores pz */
CF_INLINE double cf_ir_chash(int br, cf_i64 k, int dims, double px, double py, double pz)
{
    cf_i64 qx = cf_ir_d2l(cf_floor(px)), qy = cf_ir_d2l(cf_floor(py)), qz = cf_ir_d2l(cf_floor(pz)), h;
    if (br == CF_IR_UNIFICATION) {
        cf_u64 u = (cf_u64)k;
        u ^= cf_ir_mix((cf_u64)qx + CF_IR_GX);
        u ^= cf_ir_mix((cf_u64)qy + CF_IR_GZ);
        if (dims == 3) u ^= cf_ir_mix((cf_u64)qz + 0x165667B19E3779F9UL);
        h = (cf_i64)(cf_ir_mix(u) & (cf_u64)(CF_IR_HM - 1));
    } else {
        h = cf_ir_cstep(k, qx);
        h = cf_ir_cstep(h, qy);
        if (dims == 3) {
            h = cf_ir_cstep(h, qz);
            h = cf_ir_cstep(h, (cf_i64)((cf_u64)h * (cf_u64)cf_ir_d2l(cf_floor(px + py + pz))));
        } else {
            h = cf_ir_cstep(h, (cf_i64)((cf_u64)h * (cf_u64)cf_ir_d2l(cf_floor(px + py))));
        }
    }
    if (h < 0) h += CF_IR_HM;
    return (double)h / (double)CF_IR_HM;
}
/* 2-D feature point of cell corner (cx, cy) */
CF_INLINE void cf_ir_o2(int br, cf_i64 k, double cx, double cy, double *ox, double *oy)
{
    double h = cf_ir_chash(br, k, 2, cx, cy, 0.0);
    double sc = cf_floor(h * 50 + 1) / 100, a = h * CF_IR_PI * 100;
    double vx = cf_ir_sin(a) * sc + 0.5, vy = cf_ir_cos(a) * sc + 0.5;
    *ox = (cx + vx * (0.3 * 2.0)) + (0.5 - 0.3);
    *oy = (cy + vy * (0.3 * 2.0)) + (0.5 - 0.3);
}
CF_INLINE double cf_ir_clover2(int br, cf_i64 k, double px, double py)
{
    double fx = cf_floor(px), fy = cf_floor(py);
    double c11x, c11y, c10x, c10y, c12x, c12y, c01x, c01y, c21x, c21y;
    cf_ir_o2(br, k, fx, fy, &c11x, &c11y);
    cf_ir_o2(br, k, fx, fy + -1.0, &c10x, &c10y);
    cf_ir_o2(br, k, fx, fy + 1.0, &c12x, &c12y);
    cf_ir_o2(br, k, fx + -1.0, fy, &c01x, &c01y);
    cf_ir_o2(br, k, fx + 1.0, fy, &c21x, &c21y);
    double dx = py - c11y, dy = px - c11x, mx = dx * c11x, my = dy * c11y;
#define CF_IR_SIDE(cx, cy) ((my - dy * (cy)) - (mx - dx * (cx)))
    double ax, ay, ccx, ccy, ddx, ddy;
    if ((CF_IR_SIDE(c01x, c01y) < 0 && px < c11x) || (CF_IR_SIDE(c21x, c21y) > 0 && px > c11x)) {
        if (CF_IR_SIDE(c12x, c12y) > 0) ax = c12x, ay = c12y, ccx = c01x, ccy = c01y, ddx = -1, ddy = 1;
        else ax = c21x, ay = c21y, ccx = c12x, ccy = c12y, ddx = 1, ddy = 1;
    } else if (CF_IR_SIDE(c10x, c10y) > 0) {
        ax = c10x, ay = c10y, ccx = c21x, ccy = c21y, ddx = 1, ddy = -1;
    } else {
        ax = c01x, ay = c01y, ccx = c10x, ccy = c10y, ddx = -1, ddy = -1;
    }
#undef CF_IR_SIDE
    double dfx, dfy;
    cf_ir_o2(br, k, fx + ddx, fy + ddy, &dfx, &dfy);
    double Fx = ax, Fy = ay, Gx = ccx, Gy = ccy, Hx = dfx, Hy = dfy;
    double acx = ax - ccx, acy = ay - ccy, bdx = c11x - dfx, bdy = c11y - dfy;
    if (acx * acx + acy * acy < bdx * bdx + bdy * bdy) {
        double pax = px - ax, pay = py - ay;
        if (pax * acy - pay * acx > 0) Hx = c11x, Hy = c11y;
    } else {
        double pbx = px - c11x, pby = py - c11y;
        if (pbx * bdy - pby * bdx > 0) Fx = c11x, Fy = c11y;
        else Gx = c11x, Gy = c11y;
    }
    double v0x = Gx - Fx, v0y = Gy - Fy, v1x = Hx - Fx, v1y = Hy - Fy, v2x = px - Fx, v2y = py - Fy;
    double den = 1 / (v0x * v1y - v1x * v0y);
    double v = (v2x * v1y - v1x * v2y) * den, w = (v0x * v2y - v2x * v0y) * den, u = 1 - v - w;
    v = v * v * v, w = w * w * w, u = u * u * u;
    double s = 1 / (u + v + w);
    v *= s, w *= s, u *= s;
    return u * cf_ir_chash(br, k, 2, cf_floor(Fx), cf_floor(Fy), 0.0) + v * cf_ir_chash(br, k, 2, cf_floor(Gx), cf_floor(Gy), 0.0)
           + w * cf_ir_chash(br, k, 2, cf_floor(Hx), cf_floor(Hy), 0.0);
}
typedef struct cf_ir_v3 {
    double x, y, z;
} cf_ir_v3;
CF_INLINE cf_ir_v3 cf_ir_v(double x, double y, double z)
{
    cf_ir_v3 r;
    r.x = x, r.y = y, r.z = z;
    return r;
}
CF_INLINE cf_ir_v3 cf_ir_sub(cf_ir_v3 a, cf_ir_v3 b) { return cf_ir_v(a.x - b.x, a.y - b.y, a.z - b.z); }
CF_INLINE cf_ir_v3 cf_ir_cross(cf_ir_v3 a, cf_ir_v3 b)
{
    return cf_ir_v(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* dot3(a ∘ b) = a.x*b.x + a.y*b.y + a.z*b.z, left to right */
CF_INLINE double cf_ir_dotp(cf_ir_v3 a, cf_ir_v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
CF_INLINE cf_ir_v3 cf_ir_o3(int br, cf_i64 k, double cx, double cy, double cz)
{
    double h = cf_ir_chash(br, k, 3, cx, cy, cz);
    double th = h * CF_IR_PI * 2000;
    double ht = ((fmod((cf_floor(h * 1000) + 0.5) / 100, 1.0) - 0.5) * CF_IR_PI) / 2;
    double ly = cf_floor(h * 10 + 1) / 10;
    double st = cf_ir_sin(th), ct = cf_ir_cos(th), sh = cf_ir_sin(ht), ch = cf_ir_cos(ht);
    double ox = (st * ch) * ly + 0.5, oy = sh * ly + 0.5, oz = (ct * ch) * ly + 0.5;
    return cf_ir_v(cx + (ox * (0.2 * 2.0) + (0.5 - 0.2)), cy + (oy * (0.2 * 2.0) + (0.5 - 0.2)), cz + (oz * (0.2 * 2.0) + (0.5 - 0.2)));
}
/* the boundary test B of §3.9 (x, y of the points; z decides) */
CF_INLINE int cf_ir_cb(cf_ir_v3 p, cf_ir_v3 c00, cf_ir_v3 c10, cf_ir_v3 c20, cf_ir_v3 c01, cf_ir_v3 c11, cf_ir_v3 c21, cf_ir_v3 c02,
                       cf_ir_v3 c12, cf_ir_v3 c22)
{
    double dx = p.y - c11.y, dy = p.x - c11.x, mx = dx * c11.x, my = dy * c11.y;
#define CF_IR_SIDE(c) ((my - dy * (c).y) - (mx - dx * (c).x))
    cf_ir_v3 a, b, c, d;
    if ((CF_IR_SIDE(c01) < 0 && p.x < c11.x) || (CF_IR_SIDE(c21) > 0 && p.x >= c11.x)) {
        if (CF_IR_SIDE(c12) > 0) a = c01, b = c02, c = c12, d = c11;
        else a = c11, b = c12, c = c22, d = c21;
    } else if (CF_IR_SIDE(c10) > 0) {
        a = c10, b = c11, c = c21, d = c20;
    } else {
        a = c00, b = c01, c = c11, d = c10;
    }
#undef CF_IR_SIDE
    cf_ir_v3 f = a, g = c, h = d;
    if ((p.x - a.x) * (a.y - c.y) - (p.y - a.y) * (a.x - c.x) > 0) h = b;
    double v0x = g.x - f.x, v0y = g.y - f.y, v1x = h.x - f.x, v1y = h.y - f.y, v2x = p.x - f.x, v2y = p.y - f.y;
    double den = 1 / (v0x * v1y - v1x * v0y);
    double v = (v2x * v1y - v1x * v2y) * den, w = (v0x * v2y - v2x * v0y) * den, u = 1 - v - w;
    return p.z < u * f.z + v * g.z + w * h.z;
}
CF_INLINE cf_ir_v3 cf_ir_yzx(cf_ir_v3 v) { return cf_ir_v(v.y, v.z, v.x); }
CF_INLINE cf_ir_v3 cf_ir_xzy(cf_ir_v3 v) { return cf_ir_v(v.x, v.z, v.y); }
CF_INLINE double cf_ir_clover3(int br, cf_i64 k, double x, double y, double z)
{
    cf_ir_v3 p = cf_ir_v(x, y, z), C[27];
    double fx = cf_floor(x), fy = cf_floor(y), fz = cf_floor(z);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 3; c++) C[a * 9 + b * 3 + c] = cf_ir_o3(br, k, fx + (double)(a - 1), fy + (double)(b - 1), fz + (double)(c - 1));
#define CC(a, b, c) C[(a) * 9 + (b) * 3 + (c)]
#define YZX(a, b, c) cf_ir_yzx(CC(a, b, c))
#define XZY(a, b, c) cf_ir_xzy(CC(a, b, c))
    int bx = cf_ir_cb(cf_ir_yzx(p), YZX(1, 0, 0), YZX(1, 1, 0), YZX(1, 2, 0), YZX(1, 0, 1), YZX(1, 1, 1), YZX(1, 2, 1), YZX(1, 0, 2),
                      YZX(1, 1, 2), YZX(1, 2, 2));
    int by = cf_ir_cb(cf_ir_xzy(p), XZY(0, 1, 0), XZY(1, 1, 0), XZY(2, 1, 0), XZY(0, 1, 1), XZY(1, 1, 1), XZY(2, 1, 1), XZY(0, 1, 2),
                      XZY(1, 1, 2), XZY(2, 1, 2));
    int bz = cf_ir_cb(p, CC(0, 0, 1), CC(1, 0, 1), CC(2, 0, 1), CC(0, 1, 1), CC(1, 1, 1), CC(2, 1, 1), CC(0, 2, 1), CC(1, 2, 1), CC(2, 2, 1));
    int x0 = bx ? 0 : 1, y0 = by ? 0 : 1, z0 = bz ? 0 : 1;
    cf_ir_v3 ca = CC(x0, y0, z0), cb = CC(x0, y0, z0 + 1), cc = CC(x0, y0 + 1, z0), cd = CC(x0, y0 + 1, z0 + 1);
    cf_ir_v3 ce = CC(x0 + 1, y0, z0), cf = CC(x0 + 1, y0, z0 + 1), cg = CC(x0 + 1, y0 + 1, z0), ch = CC(x0 + 1, y0 + 1, z0 + 1);
#undef XZY
#undef YZX
#undef CC
    cf_ir_v3 ah = cf_ir_sub(ca, ch), pa = cf_ir_sub(p, ca);
#define PL(q) cf_ir_dotp(cf_ir_cross(ah, cf_ir_sub((q), ch)), pa)
    double pb = PL(cb), pc = PL(cc), pd = PL(cd), pe = PL(ce), pf = PL(cf), pg = PL(cg);
#undef PL
    cf_ir_v3 i = ca, j = ch, kk, l;
    if (pb > 0 && pd <= 0) kk = cb, l = cd;
    else if (pd > 0 && pc <= 0) kk = cd, l = cc;
    else if (pc > 0 && pg <= 0) kk = cc, l = cg;
    else if (pg > 0 && pe <= 0) kk = cg, l = ce;
    else if (pe > 0 && pf <= 0) kk = ce, l = cf;
    else kk = cf, l = cb;
    cf_ir_v3 AP = cf_ir_sub(p, i), BP = cf_ir_sub(p, j), AB = cf_ir_sub(j, i), AC = cf_ir_sub(kk, i), AD = cf_ir_sub(l, i);
    cf_ir_v3 BC = cf_ir_sub(kk, j), BD = cf_ir_sub(l, j);
    double va = cf_ir_dotp(BP, cf_ir_cross(BD, BC)), vb = cf_ir_dotp(AP, cf_ir_cross(AC, AD));
    double vc = cf_ir_dotp(AP, cf_ir_cross(AD, AB)), vd = cf_ir_dotp(AP, cf_ir_cross(AB, AC));
    double r = 1 / cf_ir_dotp(AB, cf_ir_cross(AC, AD));
    double v = va * r, w = vb * r, t = vc * r, u = vd * r;
    double Fu = u * u * u * (1 - v * w * t), Fv = v * v * v * (1 - u * w * t), Fw = w * w * w * (1 - v * u * t), Ft = t * t * t * (1 - v * w * u);
    double s = Fu + Fv + Fw + Ft;
    Fu /= s, Fv /= s, Fw /= s, Ft /= s;
    return Fv * cf_ir_chash(br, k, 3, cf_floor(i.x), cf_floor(i.y), cf_floor(i.z)) + Fw * cf_ir_chash(br, k, 3, cf_floor(j.x), cf_floor(j.y), cf_floor(j.z))
           + Ft * cf_ir_chash(br, k, 3, cf_floor(kk.x), cf_floor(kk.y), cf_floor(kk.z)) + Fu * cf_ir_chash(br, k, 3, cf_floor(l.x), cf_floor(l.y), cf_floor(l.z));
}

/* ------------------------------------------------------------------ interpolated NoiseTypes (§4.3, §8) */
/* Starcast directions (IRIS.md Appendix C): (cos, sin) as binary32 bit patterns,
 * tables 3, 6, 9, 12 one after the other (offsets 0, 6, 18, 36) */
CF_CONST cf_u32 cf_ir_star_dirs[60] = {
    0x3f800000u, 0x00000000u, 0xbf000000u, 0x3f5db3d7u, 0xbf000000u, 0xbf5db3d7u, 0x3f800000u, 0x00000000u,
    0x3f000000u, 0x3f5db3d7u, 0xbf000000u, 0x3f5db3d7u, 0xbf800000u, 0x250d3132u, 0xbf000000u, 0xbf5db3d7u,
    0x3f000000u, 0xbf5db3d7u, 0x3f800000u, 0x00000000u, 0x3f441b7du, 0x3f248dbbu, 0x3e31d0d4u, 0x3f7c1c5cu,
    0xbf000000u, 0x3f5db3d7u, 0xbf708fb2u, 0x3eaf1d44u, 0xbf708fb2u, 0xbeaf1d44u, 0xbf000000u, 0xbf5db3d7u,
    0x3e31d0d4u, 0xbf7c1c5cu, 0x3f441b7du, 0xbf248dbbu, 0x3f800000u, 0x00000000u, 0x3f5db3d7u, 0x3f000000u,
    0x3f000000u, 0x3f5db3d7u, 0x248d3132u, 0x3f800000u, 0xbf000000u, 0x3f5db3d7u, 0xbf5db3d7u, 0x3f000000u,
    0xbf800000u, 0x250d3132u, 0xbf5db3d7u, 0xbf000000u, 0xbf000000u, 0xbf5db3d7u, 0xa553c9cau, 0xbf800000u,
    0x3f000000u, 0xbf5db3d7u, 0x3f5db3d7u, 0xbf000000u,
};

/* FN32 2-D pieces of the providers: val2_32, hash2_32, cellvalue2_32, white2_32 */
CF_INLINE float cf_ir_val2_32(cf_i32 s, cf_i32 x, cf_i32 y)
{
    cf_u32 n = (cf_u32)s ^ (1619u * (cf_u32)x) ^ (31337u * (cf_u32)y);
    cf_u32 v = n * n * n * 60493u;
    return (float)(cf_i32)v / 2147483648.0f;
}
CF_INLINE cf_u32 cf_ir_hash2_32(cf_i32 s, cf_i32 x, cf_i32 y)
{
    cf_u32 h = (cf_u32)s;
    h ^= 1619u * (cf_u32)x;
    h ^= 31337u * (cf_u32)y;
    h = h * h * h * 60493u;
    return cf_ir_sar13_32(h) ^ h;
}
CF_INLINE float cf_ir_cellvalue2_32(cf_i32 s, float x, float y)
{
    cf_i32 xr = cf_ir_fround32(x), yr = cf_ir_fround32(y);
    float best = 999999.0f;
    cf_i32 xc = 0, yc = 0;
    for (int ka = -1; ka <= 1; ka++)
        for (int kb = -1; kb <= 1; kb++) {
            /* Java int/long arithmetic: the neighbours wrap (3 steps, never an overflow) */
            cf_i32 xi = (cf_i32)((cf_u32)xr + (cf_u32)(cf_i32)ka), yi = (cf_i32)((cf_u32)yr + (cf_u32)(cf_i32)kb);
            int c = (int)(cf_ir_hash2_32(s, xi, yi) & 255u) * 2;
            float vx = ((float)xi - x) + cf_ir_f32(cf_iris_cell2[c]);
            float vy = ((float)yi - y) + cf_ir_f32(cf_iris_cell2[c + 1]);
            float nd = (cf_fabsf(vx) + cf_fabsf(vy)) + (vx * vx + vy * vy);
            if (nd < best) best = nd, xc = xi, yc = yi;
        }
    return cf_ir_val2_32(0, xc, yc);
}

/* interpolated types: t = CF_IG_INTERP + 16 * base + method */
#define CF_IG_INTERP 32
enum { CF_IR_BASE_CELLULAR = 0, CF_IR_BASE_WHITE = 1, CF_IR_BASE_CLOVER = 2 };
enum {
    CF_IM_BILINEAR = 0, CF_IM_BICUBIC = 1, CF_IM_HERMITE = 2,
    CF_IM_STARCAST = 3,          /* + 0..3: 3, 6, 9, 12 directions */
    CF_IM_BILINEAR_STARCAST = 7, /* + 0..3 */
    CF_IM_HERMITE_STARCAST = 11  /* + 0..3 */
};

/* the provider: the base type's 2-argument call (unification: offset-wrapped) */
CF_INLINE double cf_ir_prov(int base, int br, cf_i32 s32, double ox, double oz, cf_i64 kc, double a, double b)
{
    if (br == CF_IR_UNIFICATION) a = a + ox, b = b + oz;
    if (base == CF_IR_BASE_CLOVER) return cf_ir_clover2(br, kc, a, b);
    if (base == CF_IR_BASE_WHITE)
        return (double)cf_ir_val2_32(s32, cf_ir_whitebits(fmod(a, 8192.0) * 1024), cf_ir_whitebits(fmod(b, 8192.0) * 1024)) / 2.0 + 0.5;
    return (double)cf_ir_cellvalue2_32(s32, (float)a * 0.01f, (float)b * 0.01f) / 2.0 + 0.5;
}
#define CF_IR_P(a, b) cf_ir_prov(base, br, s32, ox, oz, kc, (double)(a), (double)(b))

/* Math.round(double) -> long (ties toward +inf, exact) */
CF_INLINE cf_i64 cf_ir_jround(double x)
{
    double f = cf_floor(x);
    cf_i64 r = cf_ir_d2l(f);
    if (x - f >= 0.5) r += 1;
    return r;
}
/* grid coordinate k (-1..2) around the i32 c with radius r (§8.1) */
CF_INLINE cf_i32 cf_ir_grid(cf_i32 c, double r, int k)
{
    cf_i32 f = cf_ir_d2i(cf_floor((double)c / r));
    return (cf_i32)(cf_u32)(cf_u64)cf_ir_jround((double)(cf_i32)((cf_u32)f + (cf_u32)k) * r);
}
CF_INLINE double cf_ir_bilinear(int base, int br, cf_i32 s32, double ox, double oz, cf_i64 kc, cf_i32 x, cf_i32 z, double r)
{
    cf_i32 x0 = cf_ir_grid(x, r, 0), x1 = cf_ir_grid(x, r, 1), z0 = cf_ir_grid(z, r, 0), z1 = cf_ir_grid(z, r, 1);
    double tx = 0 + 1 * (((double)x - (double)x0) / ((double)x1 - (double)x0));
    double tz = 0 + 1 * (((double)z - (double)z0) / ((double)z1 - (double)z0));
    double p00 = CF_IR_P(x0, z0), p10 = CF_IR_P(x1, z0), p01 = CF_IR_P(x0, z1), p11 = CF_IR_P(x1, z1);
    return cf_ir_lerp(cf_ir_lerp(p00, p10, tx), cf_ir_lerp(p01, p11, tx), tz);
}
CF_INLINE double cf_ir_herm(double p0, double p1, double p2, double p3, double mu, double tn, double bs)
{
    double mu2 = mu * mu, mu3 = mu2 * mu;
    double m0 = (p1 - p0) * (1 + bs) * (1 - tn) / 2;
    m0 += (p2 - p1) * (1 - bs) * (1 - tn) / 2;
    double m1 = (p2 - p1) * (1 + bs) * (1 - tn) / 2;
    m1 += (p3 - p2) * (1 - bs) * (1 - tn) / 2;
    double a0 = 2 * mu3 - 3 * mu2 + 1, a1 = mu3 - 2 * mu2 + mu, a2 = mu3 - mu2, a3 = -2 * mu3 + 3 * mu2;
    return a0 * p1 + a1 * m0 + a2 * m1 + a3 * p2;
}
CF_INLINE double cf_ir_bihermite(int base, int br, cf_i32 s32, double ox, double oz, cf_i64 kc, cf_i32 x, cf_i32 z, double r, double tn,
                                 double bs)
{
    cf_i32 gx[4], gz[4];
    for (int k = 0; k < 4; k++) gx[k] = cf_ir_grid(x, r, k - 1), gz[k] = cf_ir_grid(z, r, k - 1);
    double tx = 0 + 1 * (((double)x - (double)gx[1]) / ((double)gx[2] - (double)gx[1]));
    double tz = 0 + 1 * (((double)z - (double)gz[1]) / ((double)gz[2] - (double)gz[1]));
    double col[4];
    for (int i = 0; i < 4; i++)
        col[i] = cf_ir_herm(CF_IR_P(gx[i], gz[0]), CF_IR_P(gx[i], gz[1]), CF_IR_P(gx[i], gz[2]), CF_IR_P(gx[i], gz[3]), tz, tn, bs);
    return cf_ir_herm(col[0], col[1], col[2], col[3], tx, tn, bs);
}
/* starcast (§8.4), binary32; q: 0 the provider, 1 bilinear, 2 bihermite(0, 0) at (d2i(a), d2i(b)) */
CF_INLINE double cf_ir_star(int base, int br, cf_i32 s32, double ox, double oz, cf_i64 kc, int nd, int q, cf_i32 x, cf_i32 z, double r)
{
    const int off[4] = {0, 6, 18, 36};
    const cf_u32 inv[4] = {0x3eaaaaabu, 0x3e2aaaabu, 0x3de38e39u, 0x3daaaaabu};
    int n = 3 * (nd + 1);
    float X = (float)x, Z = (float)z, R = (float)r, acc = 0.0f;
    for (int i = 0; i < n; i++) {
        float c = cf_ir_f32(cf_ir_star_dirs[off[nd] + 2 * i]), s = cf_ir_f32(cf_ir_star_dirs[off[nd] + 2 * i + 1]);
        float cx = X + ((R * c) - (R * s));
        float cz = Z + ((R * s) + (R * c));
        double a = (double)cx, b = (double)cz, v;
        if (q == 0) v = CF_IR_P(a, b);
        else if (q == 1) v = cf_ir_bilinear(base, br, s32, ox, oz, kc, cf_ir_d2i(a), cf_ir_d2i(b), r);
        else v = cf_ir_bihermite(base, br, s32, ox, oz, kc, cf_ir_d2i(a), cf_ir_d2i(b), r, 0.0, 0.0);
        acc = i == 0 ? (float)v : acc + (float)v;
    }
    return (double)(acc * cf_ir_f32(inv[nd]));
}
/* the interpolated generator's n3 (after the unification offset): the grid
 * point is (d2i(x), d2i(z)), or (d2i(x), d2i(y)) when z == 0 */
CF_INLINE double cf_ir_interp3(int t, int br, cf_i32 s32, double ox, double oz, cf_i64 kc, double x, double y, double z)
{
    int base = (t - CF_IG_INTERP) / 16, m = (t - CF_IG_INTERP) % 16;
    cf_i32 a = cf_ir_d2i(x), b = cf_ir_d2i(z == 0 ? y : z);
    const double r = 32.0;
    if (m == CF_IM_BILINEAR || m == CF_IM_BICUBIC) return cf_ir_bilinear(base, br, s32, ox, oz, kc, a, b, r);
    if (m == CF_IM_HERMITE) return cf_ir_bihermite(base, br, s32, ox, oz, kc, a, b, r, 0.5, 0.0);
    if (m < CF_IM_BILINEAR_STARCAST) return cf_ir_star(base, br, s32, ox, oz, kc, m - CF_IM_STARCAST, 0, a, b, r);
    if (m < CF_IM_HERMITE_STARCAST) return cf_ir_star(base, br, s32, ox, oz, kc, m - CF_IM_BILINEAR_STARCAST, 1, a, b, r);
    return cf_ir_star(base, br, s32, ox, oz, kc, m - CF_IM_HERMITE_STARCAST, 2, a, b, r);
}

/* ------------------------------------------------------------------ hexagon family [unification] (§3.3, §3.10, §3.11) */
/* simplex 2-D with unification's constants (the heat fields) */
CF_CONST cf_i32 cf_ir_grad2[16] = {-1, -1, 1, -1, -1, 1, 1, 1, 0, -1, -1, 0, 0, 1, 1, 0};
CF_INLINE cf_u64 cf_ir_hash2(cf_i64 s, cf_i64 x, cf_i64 y)
{
    cf_u64 h = (cf_u64)s;
    h ^= CF_IR_PX * (cf_u64)x;
    h ^= CF_IR_PY * (cf_u64)y;
    h = h * h * h * 60493UL;
    return cf_ir_sar13(h) ^ h;
}
CF_INLINE double cf_ir_s2corner(cf_i64 s, cf_i64 i, cf_i64 j, double x, double y)
{
    double t = 0.5 - x * x - y * y;
    if (t < 0) return 0.0;
    t = t * t;
    int g = (int)(cf_ir_hash2(s, i, j) & 7UL) * 2;
    return t * t * (x * (double)cf_ir_grad2[g] + y * (double)cf_ir_grad2[g + 1]);
}
CF_INLINE double cf_ir_simplex2u(cf_i64 s, double x, double y)
{
    const double F2 = 0x1.76cf5d0b09954p-2, G2 = 0x1.b0cb174df99c8p-3, C2 = 0x1.b0cb174df99c8p-2;
    double t = (x + y) * F2;
    cf_i64 i = cf_ir_ffloor(x + t), j = cf_ir_ffloor(y + t);
    t = (double)(cf_i64)((cf_u64)i + (cf_u64)j) * G2;
    double x0 = x - ((double)i - t), y0 = y - ((double)j - t);
    int i1 = x0 > y0 ? 1 : 0, j1 = x0 > y0 ? 0 : 1;
    double x1 = x0 - (double)i1 + G2, y1 = y0 - (double)j1 + G2;
    double x2 = x0 - 1 + C2, y2 = y0 - 1 + C2;
    double n0 = cf_ir_s2corner(s, i, j, x0, y0);
    double n1 = cf_ir_s2corner(s, cf_ir_ladd(i, i1), cf_ir_ladd(j, j1), x1, y1);
    double n2 = cf_ir_s2corner(s, cf_ir_ladd(i, 1), cf_ir_ladd(j, 1), x2, y2);
    return 50 * (n0 + n1 + n2);
}
/* a heat field: a SIMPLEX generator's 2-argument call (kernel seed s) */
CF_INLINE double cf_ir_hs(cf_i64 s, double a, double b) { return cf_ir_half(cf_ir_simplex2u(s, a * 0.01, b * 0.01)); }

CF_INLINE double cf_ir_unit(cf_u64 v) { return (double)(cf_i64)(v & 0x7FFFFFFFFFFFFFFFUL) / 9223372036854775808.0; }
#define CF_IR_R33 0x1.279a74590331cp-1
#define CF_IR_SQ3 0x1.bb67ae8584caap+0
#define CF_IR_T23 (2.0 / 3.0)
#define CF_IR_O13 (1.0 / 3.0)
CF_INLINE double cf_ir_fabsd(double v) { return v < 0 ? -v : v; }
/* the axial cell (rx, rz) of axial coordinates (q, r) */
CF_INLINE void cf_ir_round_axial(double q, double r, cf_i64 *ra, cf_i64 *rb)
{
    double cx = q, cz = r, cy = -cx - cz;
    cf_i64 rx = cf_ir_jround(cx), ry = cf_ir_jround(cy), rz = cf_ir_jround(cz);
    double ex = cf_fabs((double)rx - cx), ey = cf_fabs((double)ry - cy), ez = cf_fabs((double)rz - cz);
    /* the component with the largest rounding error is rebuilt from the other two
     * (ry, when it is that one, is not returned) */
    if (ex > ey && ex > ez) rx = (cf_i64)(0UL - (cf_u64)ry - (cf_u64)rz);
    else if (!(ey > ez)) rz = (cf_i64)(0UL - (cf_u64)rx - (cf_u64)ry);
    *ra = rx, *rb = rz;
}
CF_INLINE double cf_ir_hexdist(double q, double r, double cq, double cr)
{
    double dq = q - cq, dr = r - cr, dy = -dq - dr;
    double a = cf_fabs(dq), b = cf_fabs(dr), c = cf_fabs(dy);
    double m = b >= c ? b : c;
    return a >= m ? a : m;
}
/* JAMES (random = 0) / RANDOM_SIZE (random = 1) helpers */
CF_INLINE double cf_ir_hrnd(int random, cf_u64 nh, cf_i64 salt)
{
    return cf_ir_unit(cf_ir_mix(nh ^ (CF_IR_GX * (cf_u64)(salt + 1)) ^ (CF_IR_GZ * (cf_u64)(salt + (random ? 31 : 7)))));
}
CF_INLINE cf_u64 cf_ir_hnext(int random, cf_u64 nh, cf_i64 ci, cf_i64 lv)
{
    if (random) return cf_ir_mix(nh ^ (CF_IR_GZ * (cf_u64)(ci + 1)) ^ (CF_IR_GX * (cf_u64)(lv + 1)));
    return cf_ir_mix(nh ^ (CF_IR_GX * (cf_u64)(ci + 11)) ^ (CF_IR_GZ * (cf_u64)(lv + 1)));
}
CF_INLINE double cf_ir_hheat(int random, cf_i64 hs, double cq, double cr, cf_u64 nh, int lv)
{
    double wx = CF_IR_SQ3 * (cq + cr * 0.5), wz = 1.5 * cr;
    if (random) {
        double sc = 0.24 * (1 + (double)lv * 0.2);
        return cf_ir_clip01(cf_ir_hs(hs, wx * sc, wz * sc) * 0.74 + cf_ir_hrnd(1, nh, 11 + lv) * 0.26);
    }
    double sc = 0.31 * (1 + (double)lv * 0.24);
    return cf_ir_clip01(cf_ir_hs(hs, wx * sc, wz * sc) * 0.82 + cf_ir_hrnd(0, nh, 31 + lv) * 0.18);
}
CF_INLINE double cf_ir_hexrec(int random, cf_i64 s, cf_i64 hs, cf_i64 hs2, double x, double z)
{
    const int dq[7] = {0, 1, 1, 0, -1, -1, 0}, dr[7] = {0, 0, -1, -1, 0, 1, 1};
    double qw = (CF_IR_R33 * x) - (z / 3.0), rw = CF_IR_T23 * z;
    cf_i64 a, b;
    cf_ir_round_axial(qw, rw, &a, &b);
    double cq = (double)a, cr = (double)b, rad = 0.5;
    double lq = (qw - cq) / rad, lr = (rw - cr) / rad;
    cf_u64 nh = cf_ir_mix((cf_u64)s ^ ((cf_u64)a * CF_IR_GX) ^ ((cf_u64)b * CF_IR_GZ));
    double heat = cf_ir_hheat(random, hs, cq, cr, nh, 0);
    int depth = random ? 8 : 7;
    for (int lv = 0; lv < depth; lv++) {
        if (random) {
            if (lv >= 7) return heat;
            double wx = CF_IR_SQ3 * (cq + cr * 0.5), wz = 1.5 * cr, sc = 0.36 * (1 + (double)lv * 0.31);
            double score = cf_ir_clip01(cf_ir_hs(hs2, wx * sc, wz * sc) * 0.68 + cf_ir_hrnd(1, nh, 71 + lv) * 0.32);
            if (!(score > 0.22 + (double)lv * 0.11)) return heat;
        }
        int ci = -1;
        double bd = 1.0 / 0.0;
        for (int idx = 0; idx < 7; idx++) {
            double d = cf_ir_hexdist(lq, lr, (double)dq[idx] * CF_IR_T23, (double)dr[idx] * CF_IR_T23) / CF_IR_O13;
            if (d <= 1 && d < bd) bd = d, ci = idx;
        }
        if (ci < 0) return heat;
        double ccq = (double)dq[ci] * CF_IR_T23, ccr = (double)dr[ci] * CF_IR_T23;
        cq += ccq * rad;
        cr += ccr * rad;
        rad *= CF_IR_O13;
        lq = (lq - ccq) / CF_IR_O13;
        lr = (lr - ccr) / CF_IR_O13;
        nh = cf_ir_hnext(random, nh, ci, lv);
        heat = cf_ir_hheat(random, hs, cq, cr, nh, lv + 1);
        if (!random) {
            if (lv >= 6) return heat;
            double gate = 0.58;
            if (ci != 0) {
                cf_i32 rot = cf_ir_d2i(cf_floor(cf_ir_hrnd(0, nh, 3) * 6));
                rot = rot < 0 ? 0 : rot > 5 ? 5 : rot;
                int par = cf_ir_hrnd(0, nh, 5) >= 0.5 ? 1 : 0;
                int ring = ((ci - 1 - rot) % 6 + 6) % 6;
                gate = ring % 2 == par ? 0.26 : 0.79;
            }
            if (!(cf_ir_hrnd(0, nh, 97 + lv) <= gate)) return heat;
        }
    }
    return heat;
}
/* one 2-argument sample of a hexagon-family type */
CF_INLINE double cf_ir_hex2(int t, cf_i64 s, cf_i64 h1, cf_i64 h2, double x, double z)
{
    if (t == CF_IG_HEXAGON || t == CF_IG_HEX_SIMPLEX) {
        cf_i64 a, b;
        cf_ir_round_axial((CF_IR_R33 * x) - (z / 3.0), CF_IR_T23 * z, &a, &b);
        if (t == CF_IG_HEX_SIMPLEX) {
            double wx = CF_IR_SQ3 * ((double)a + (double)b * 0.5), wz = 1.5 * (double)b;
            return cf_ir_clip01(cf_ir_hs(h1, wx * 2.7, wz * 2.7) * 1 / 1);
        }
        cf_u64 h = (cf_u64)s ^ cf_ir_mix((cf_u64)a + CF_IR_GX);
        h ^= cf_ir_mix((cf_u64)b + CF_IR_GZ);
        return cf_ir_unit(cf_ir_mix(h));
    }
    if (t == CF_IG_SIERPINSKI) {
        double sx = (x * 0.18) + ((z * 0.18) * 0.5), sz = (z * 0.18) * 0.8660254037844386;
        cf_i64 ix = cf_ir_d2l(cf_floor(cf_fabs(sx))), iz = cf_ir_d2l(cf_floor(cf_fabs(sz)));
        double heat = cf_ir_clip01(cf_ir_hs(h1, x * 0.33, z * 0.33) * 1 / 1);
        return (ix & iz) == 0 ? cf_ir_clip01(heat * 0.65 + 0.35) : cf_ir_clip01(heat * 0.12);
    }
    return cf_ir_hexrec(t == CF_IG_HEX_RANDOM, s, h1, h2, x, z);
}
/* the 3-argument rule of the hexagon family */
CF_INLINE double cf_ir_hex3(int t, cf_i64 s, cf_i64 h1, cf_i64 h2, double x, double y, double z)
{
    if (z == 0) return cf_ir_hex2(t, s, h1, h2, x, y);
    return (cf_ir_hex2(t, s, h1, h2, x, z) + cf_ir_hex2(t, s, h1, h2, y, x) + cf_ir_hex2(t, s, h1, h2, z, y)) / 3;
}

/* ------------------------------------------------------------------ generators (§4.1, §4.2) */
/* Iris's own octave loop of SIMPLEX/PERLIN (o > 1, master only): frequencies 2, 4, ... weighted by themselves */
CF_INLINE double cf_ir_octloop(int perlin, cf_i64 s, double x, double y, double z, int oct)
{
    double f = 1, m = 0, v = 0;
    for (int i = 0; i < oct; i++) {
        f = f == 1 ? 2 : f * 2;
        double a = (x * f) * 0.01, b = (y * f) * 0.01, c = (z * f) * 0.01;
        v += (perlin ? cf_ir_perlin3(s, a, b, c, 1) : cf_ir_simplex3(s, a, b, c)) * f;
        m += f;
    }
    return cf_ir_half(v / m);
}
/* NoiseType T's 3-argument call n3(x, y, z); oct: the CNG's octave parameter
 * (reaches octave-capable types on master only); unification: the offset
 * wrapper adds (ox, oz) first and hides the octaves */
CF_INLINE double cf_ir_gen3(int t, int br, int oct, cf_i64 s, cf_i32 s32, double ox, double oz, cf_i64 h1, cf_i64 h2, double x,
                            double y, double z)
{
    if (br == CF_IR_UNIFICATION) x = x + ox, z = z + oz, oct = 1;
    if (t >= CF_IG_INTERP) return cf_ir_interp3(t, br, s32, ox, oz, h1, x, y, z);
    if (t == CF_IG_CLOVER) return z == 0 ? cf_ir_clover2(br, h1, x, y) : cf_ir_clover3(br, h1, x, y, z);
    if (t >= CF_IG_HEXAGON) return cf_ir_hex3(t, s, h1, h2, x, y, z);
    switch (t) {
    case CF_IG_SIMPLEX:
        if (oct > 1) return cf_ir_octloop(0, s, x, y, z, oct);
        return cf_ir_half(cf_ir_simplex3(s, x * 0.01, y * 0.01, z * 0.01));
    case CF_IG_PERLIN:
        if (oct > 1) return cf_ir_octloop(1, s, x, y, z, oct);
        return cf_ir_half(cf_ir_perlin3(s, x * 0.01, y * 0.01, z * 0.01, 1));
    case CF_IG_FBM_SIMPLEX: return cf_ir_half(cf_ir_fractal3(CF_IR_K_SIMPLEX, CF_IR_FBM, s, x * 0.01, y * 0.01, z * 0.01, oct));
    case CF_IG_BILLOW_SIMPLEX:
        return cf_ir_half(cf_ir_fractal3(CF_IR_K_SIMPLEX, CF_IR_BILLOW, s, x * 0.01, y * 0.01, z * 0.01, oct));
    case CF_IG_RM_SIMPLEX: return cf_ir_half(cf_ir_fractal3(CF_IR_K_SIMPLEX, CF_IR_RIGID, s, x * 0.01, y * 0.01, z * 0.01, oct));
    case CF_IG_BILLOW_PERLIN:
        return cf_ir_half(cf_ir_fractal3(CF_IR_K_PERLIN_LINEAR, CF_IR_BILLOW, s, x * 0.01, y * 0.01, z * 0.01, oct));
    case CF_IG_CUBIC: return cf_ir_half(cf_ir_cubic3(s, x * 0.01, y * 0.01, z * 0.01));
    case CF_IG_FRACTAL_CUBIC: return cf_ir_half(cf_ir_fractal3(CF_IR_K_CUBIC, CF_IR_BILLOW, s, x * 0.01, y * 0.01, z * 0.01, 3));
    case CF_IG_VASCULAR: return cf_ir_clip01(cf_ir_half(cf_ir_cell3(s, x * 0.01, y * 0.01, z * 0.01, 0)));
    case CF_IG_CELLULAR_HEIGHT: return cf_ir_clip01(1.0 - cf_ir_half(cf_ir_cell3(s, x * 0.01, y * 0.01, z * 0.01, 0)));
    case CF_IG_GLOB: return cf_ir_cell3(s, x * 0.01, y * 0.01, z * 0.01, 1) + 1.0;
    case CF_IG_CELLULAR:
        return (double)cf_ir_cellvalue3_32(s32, (float)x * 0.01f, (float)y * 0.01f, (float)z * 0.01f) / 2.0 + 0.5;
    case CF_IG_WHITE:
        return (double)cf_ir_white3_32(s32, fmod(x, 8192.0) * 1024, fmod(y, 8192.0) * 1024, fmod(z, 8192.0) * 1024) / 2.0 + 0.5;
    default: return 1.0; /* FLAT */
    }
}

/* the master fracture (IRIS.md §5.2, trueFrac false): f = F * m already
 * computed; the generator at ((x + f) * es, (z - f) * es, 0) in 2-D, at
 * ((x + f) * es, (y - f) * es, (z - f) * es) in 3-D */
CF_INLINE double cf_ir_frac_m(int dims, double f, double x, double y, double z, double es, int t, int br, int oct, cf_i64 s,
                              cf_i32 s32, double ox, double oz, cf_i64 h1, cf_i64 h2)
{
    if (dims == 2) return cf_ir_gen3(t, br, oct, s, s32, ox, oz, h1, h2, (x + f) * es, (z - f) * es, 0.0);
    return cf_ir_gen3(t, br, oct, s, s32, ox, oz, h1, h2, (x + f) * es, (y - f) * es, (z - f) * es);
}

/* IRIS_ROWS: the source index of block (x, y): floorMod(floor(y) + 256 * floor(x / 16), n)
 * (each chunk column starts 256 rows further, so that a few chunks reach every source) */
CF_INLINE int cf_ir_row(double x, double y, int n)
{
    cf_i64 r = (cf_i64)((cf_u64)cf_ir_d2l(cf_floor(y)) + 256UL * (cf_u64)cf_ir_d2l(cf_floor(x / 16.0))) % (cf_i64)n;
    return (int)(r < 0 ? r + n : r);
}

/* ------------------------------------------------------------------ pow (fdlibm 5.3's e_pow.c, i.e. Java's StrictMath.pow) */
/* The project follows StrictMath on Iris's paths (IRIS.md §9): pow is
 * fdlibm's algorithm, written here from + - * / and bit operations (the same
 * steps, constants given by their bit patterns), so a golden record equals its
 * strict_bits where it carries one, else bits. */
CF_INLINE double cf_ir_setlo0(double x) { return cf_from_bits(cf_bits(x) & 0xffffffff00000000UL); }
CF_INLINE double cf_ir_sethi(double x, cf_u32 hi) { return cf_from_bits(((cf_u64)hi << 32) | (cf_bits(x) & 0xffffffffUL)); }
CF_INLINE cf_u32 cf_ir_lo(double x) { return (cf_u32)(cf_bits(x) & 0xffffffffUL); }
#define CF_IR_D(b) cf_from_bits(b##UL)
CF_INLINE double cf_ir_pow(double x, double y)
{
    const double two53 = 9007199254740992.0, huge = 1.0e300, tiny = 1.0e-300;
    cf_i32 hx = (cf_i32)cf_ir_hi(x), hy = (cf_i32)cf_ir_hi(y);
    cf_u32 lx = cf_ir_lo(x), ly = cf_ir_lo(y);
    cf_i32 ix = hx & 0x7fffffff, iy = hy & 0x7fffffff;
    if ((iy | (cf_i32)ly) == 0) return 1.0;
    if (ix > 0x7ff00000 || (ix == 0x7ff00000 && lx != 0) || iy > 0x7ff00000 || (iy == 0x7ff00000 && ly != 0)) return x + y;
    int yisint = 0;
    if (hx < 0) {
        if (iy >= 0x43400000) yisint = 2;
        else if (iy >= 0x3ff00000) {
            int k = (iy >> 20) - 0x3ff;
            if (k > 20) {
                cf_u32 j = ly >> (52 - k);
                if ((j << (52 - k)) == ly) yisint = 2 - (int)(j & 1);
            } else if (ly == 0) {
                cf_i32 j = iy >> (20 - k);
                if ((j << (20 - k)) == iy) yisint = 2 - (int)(j & 1);
            }
        }
    }
    if (ly == 0) {
        if (iy == 0x7ff00000) {
            if (((ix - 0x3ff00000) | (cf_i32)lx) == 0) return y - y;
            if (ix >= 0x3ff00000) return hy >= 0 ? y : 0.0;
            return hy < 0 ? -y : 0.0;
        }
        if (iy == 0x3ff00000) return hy < 0 ? 1.0 / x : x;
        if (hy == 0x40000000) return x * x;
        if (hy == 0x3fe00000 && hx >= 0) return cf_sqrt(x);
    }
    double ax = cf_fabs(x), z;
    if (lx == 0 && (ix == 0x7ff00000 || ix == 0 || ix == 0x3ff00000)) {
        z = ax;
        if (hy < 0) z = 1.0 / z;
        if (hx < 0) {
            if (((ix - 0x3ff00000) | yisint) == 0) z = (z - z) / (z - z);
            else if (yisint == 1) z = -z;
        }
        return z;
    }
    int n = hx < 0 ? 0 : 1;
    if ((n | yisint) == 0) return (x - x) / (x - x);
    double s = 1.0;
    if ((n | (yisint - 1)) == 0) s = -1.0;
    double t1, t2;
    const double ivln2 = CF_IR_D(0x3ff71547652b82fe), ivln2_h = CF_IR_D(0x3ff7154760000000), ivln2_l = CF_IR_D(0x3e54ae0bf85ddf44);
    if (iy > 0x41e00000) {
        if (iy > 0x43f00000) {
            if (ix <= 0x3fefffff) return hy < 0 ? huge * huge : tiny * tiny;
            if (ix >= 0x3ff00000) return hy > 0 ? huge * huge : tiny * tiny;
        }
        if (ix < 0x3fefffff) return hy < 0 ? s * huge * huge : s * tiny * tiny;
        if (ix > 0x3ff00000) return hy > 0 ? s * huge * huge : s * tiny * tiny;
        double t = ax - 1.0;
        double w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
        double u = ivln2_h * t, v = t * ivln2_l - w * ivln2;
        t1 = cf_ir_setlo0(u + v);
        t2 = v - (t1 - u);
    } else {
        const double bp[2] = {1.0, 1.5}, dp_h[2] = {0.0, CF_IR_D(0x3fe2b80340000000)}, dp_l[2] = {0.0, CF_IR_D(0x3e4cfdeb43cfd006)};
        const double L1 = CF_IR_D(0x3fe3333333333303), L2 = CF_IR_D(0x3fdb6db6db6fabff), L3 = CF_IR_D(0x3fd55555518f264d),
                     L4 = CF_IR_D(0x3fd17460a91d4101), L5 = CF_IR_D(0x3fcd864a93c9db65), L6 = CF_IR_D(0x3fca7e284a454eef);
        const double cp = CF_IR_D(0x3feec709dc3a03fd), cp_h = CF_IR_D(0x3feec709e0000000), cp_l = CF_IR_D(0xbe3e2fe0145b01f5);
        n = 0;
        if (ix < 0x00100000) {
            ax *= two53;
            n -= 53;
            ix = (cf_i32)cf_ir_hi(ax);
        }
        n += (ix >> 20) - 0x3ff;
        cf_i32 j = ix & 0x000fffff;
        int k;
        ix = j | 0x3ff00000;
        if (j <= 0x3988E) k = 0;
        else if (j < 0xBB67A) k = 1;
        else {
            k = 0;
            n += 1;
            ix -= 0x00100000;
        }
        ax = cf_ir_sethi(ax, (cf_u32)ix);
        double u = ax - bp[k], v = 1.0 / (ax + bp[k]);
        double ss = u * v, s_h = cf_ir_setlo0(ss);
        double t_h = cf_from_bits((cf_u64)(cf_u32)(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18)) << 32);
        double t_l = ax - (t_h - bp[k]);
        double s_l = v * ((u - s_h * t_h) - s_h * t_l);
        double s2 = ss * ss;
        double r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))));
        r += s_l * (s_h + ss);
        s2 = s_h * s_h;
        t_h = cf_ir_setlo0(3.0 + s2 + r);
        t_l = r - ((t_h - 3.0) - s2);
        u = s_h * t_h;
        v = s_l * t_h + t_l * ss;
        double p_h = cf_ir_setlo0(u + v);
        double p_l = v - (p_h - u);
        double z_h = cp_h * p_h;
        double z_l = cp_l * p_h + p_l * cp + dp_l[k];
        double t = (double)n;
        t1 = cf_ir_setlo0(((z_h + z_l) + dp_h[k]) + t);
        t2 = z_l - (((t1 - t) - dp_h[k]) - z_h);
    }
    const double P1 = CF_IR_D(0x3fc555555555553e), P2 = CF_IR_D(0xbf66c16c16bebd93), P3 = CF_IR_D(0x3f11566aaf25de2c),
                 P4 = CF_IR_D(0xbebbbd41c5d26bf1), P5 = CF_IR_D(0x3e66376972bea4d0);
    const double lg2 = CF_IR_D(0x3fe62e42fefa39ef), lg2_h = CF_IR_D(0x3fe62e4300000000), lg2_l = CF_IR_D(0xbe205c610ca86c39),
                 ovt = CF_IR_D(0x3c971547652b82fe);
    double y1 = cf_ir_setlo0(y);
    double p_l = (y - y1) * t1 + y * t2, p_h = y1 * t1;
    z = p_l + p_h;
    cf_i32 j = (cf_i32)cf_ir_hi(z);
    cf_i32 i = (cf_i32)cf_ir_lo(z);
    if (j >= 0x40900000) {
        if (((j - 0x40900000) | i) != 0) return s * huge * huge;
        if (p_l + ovt > z - p_h) return s * huge * huge;
    } else if ((j & 0x7fffffff) >= 0x4090cc00) {
        if ((cf_i32)(((cf_u32)j - 0xc090cc00u) | (cf_u32)i) != 0) return s * tiny * tiny;
        if (p_l <= z - p_h) return s * tiny * tiny;
    }
    i = j & 0x7fffffff;
    int k = (i >> 20) - 0x3ff;
    n = 0;
    if (i > 0x3fe00000) {
        n = j + (0x00100000 >> (k + 1));
        k = ((n & 0x7fffffff) >> 20) - 0x3ff;
        double t = cf_from_bits((cf_u64)(cf_u32)(n & ~(0x000fffff >> k)) << 32);
        n = ((n & 0x000fffff) | 0x00100000) >> (20 - k);
        if (j < 0) n = -n;
        p_h -= t;
    }
    double t = cf_ir_setlo0(p_l + p_h);
    double u = t * lg2_h, v = (p_l - (t - p_h)) * lg2 + t * lg2_l;
    z = u + v;
    double w = v - (z - u);
    t = z * z;
    double tt = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    double r = (z * tt) / (tt - 2.0) - (w + z * w);
    z = 1.0 - (r - z);
    j = (cf_i32)cf_ir_hi(z);
    j += (cf_i32)((cf_u32)n << 20);
    if ((j >> 20) <= 0) {
        /* scalbn(z, n) with a subnormal result: one rounding */
        int e = (int)((cf_ir_hi(z) >> 20) & 0x7ff) + n;
        if (e <= -54) return s * tiny * tiny;
        z = cf_from_bits((cf_bits(z) & 0x800fffffffffffffUL) | ((cf_u64)(e + 54) << 52)) * CF_IR_D(0x3c90000000000000);
    } else {
        z = cf_ir_sethi(z, (cf_u32)j);
    }
    return s * z;
}
#undef CF_IR_D

/* CNG post-processing without children (§5.3): opacity, signed power, then
 * ((n / 1) - 0 + 0) * 1 (turns -0 into +0, as Iris does). The power is
 * fdlibm's (cf_ir_pow, Java's StrictMath.pow), as the project follows StrictMath. */
CF_INLINE double cf_ir_post(double n, double opacity, double power)
{
    n = n * opacity;
    if (power != 1) n = n < 0 ? -cf_ir_pow(-n, power) : cf_ir_pow(n, power);
    return ((n / 1.0) - 0.0 + 0.0) * 1.0;
}

/* ================================================================== the JSON layers (IRIS.md §5.5, §7, §8.5)
 * Shared by eval64.c (IRIS_CELLZ, IRIS_LAYER, IRIS_GEN, IRIS_CELLGEN, IRIS_INTERP)
 * and the OpenCL generator: the steps between source samples; the sources
 * themselves (a CNG, a layer, any 2-D node) are sampled by the callers. */

/* cellularize (§5.5): the nearest cell of (x, y) (f32, already times the
 * frequency) by Manhattan distance |vx| + |vy|, first minimum wins */
CF_INLINE void cf_ir_cellz_cell(cf_i32 s, float x, float y, cf_i32 *xc, cf_i32 *yc)
{
    cf_i32 xr = cf_ir_fround32(x), yr = cf_ir_fround32(y);
    float best = 999999.0f;
    *xc = 0, *yc = 0;
    for (int ka = -1; ka <= 1; ka++)
        for (int kb = -1; kb <= 1; kb++) {
            /* Java int/long arithmetic: the neighbours wrap (3 steps, never an overflow) */
            cf_i32 xi = (cf_i32)((cf_u32)xr + (cf_u32)(cf_i32)ka), yi = (cf_i32)((cf_u32)yr + (cf_u32)(cf_i32)kb);
            int c = (int)(cf_ir_hash2_32(s, xi, yi) & 255u) * 2;
            float vx = ((float)xi - x) + cf_ir_f32(cf_iris_cell2[c]);
            float vy = ((float)yi - y) + cf_ir_f32(cf_iris_cell2[c + 1]);
            float nd = cf_fabsf(vx) + cf_fabsf(vy);
            if (nd < best) best = nd, *xc = xi, *yc = yi;
        }
}
/* the cellularized generator's lookup point: n3(a, b, c) = n2(a, b + c) */
CF_INLINE void cf_ir_cellz_at(cf_i32 s, float fr, double a, double b, double *px, double *pz)
{
    cf_i32 xc, yc;
    cf_ir_cellz_cell(s, (float)a * fr, (float)b * fr, &xc, &yc);
    *px = (double)xc, *pz = (double)yc;
}
/* the value from the source sample v: f32(v) * 0.5 + 0.5, then CNG post (§5.3) */
CF_INLINE double cf_ir_cellz_value(double v) { return cf_ir_post((double)(float)v * 0.5 + 0.5, 1.0, 1.0); }

/* FND 2-D two-edge cellular, Natural distance (§3.7; CellGenerator) */
CF_INLINE double cf_ir_cell2(cf_i64 s, double x, double y, int div)
{
    cf_i64 xr = cf_ir_fround(x), yr = cf_ir_fround(y);
    double d1 = 999999.0, d2 = 999999.0;
    for (int ka = -1; ka <= 1; ka++)
        for (int kb = -1; kb <= 1; kb++) {
            /* Java int/long arithmetic: the neighbours wrap (3 steps, never an overflow) */
            cf_i64 xi = (cf_i64)((cf_u64)xr + (cf_u64)(cf_i64)ka), yi = (cf_i64)((cf_u64)yr + (cf_u64)(cf_i64)kb);
            cf_u64 h = (cf_u64)s;
            h ^= CF_IR_PX * (cf_u64)xi;
            h ^= CF_IR_PY * (cf_u64)yi;
            h = h * h * h * 60493UL;
            h = cf_ir_sar13(h) ^ h;
            int c = (int)(h & 255UL) * 2;
            double vx = (double)xi - x + (double)cf_ir_f32(cf_iris_cell2[c]);
            double vy = (double)yi - y + (double)cf_ir_f32(cf_iris_cell2[c + 1]);
            double nd = (cf_fabs(vx) + cf_fabs(vy)) + (vx * vx + vy * vy);
            double m = d2 <= nd ? d2 : nd;
            d2 = m >= d1 ? m : d1;
            d1 = d1 <= nd ? d1 : nd;
        }
    return div ? d1 / d2 - 1 : d2 - d1 - 1;
}
/* CellGenerator.distance (§7.4) from the signature samples sx = sig(x, z), sz = sig(z, x) */
CF_INLINE double cf_ir_cellgen(cf_i64 sc, double shuffle, double x, double z, double sx, double sz)
{
    double a = (x * 0.73) + sx * shuffle, b = (z * 0.73) + sz * shuffle;
    return (cf_ir_cell2(sc, a * 0.01, b * 0.01, 0) + 1.0) / 2.0;
}

/* IrisNoiseGenerator (§7.2): the layer's flags */
enum { CF_IR_NEGATIVE = 1, CF_IR_PARAMETRIC = 2, CF_IR_BEZIER = 4, CF_IR_SINCENTERED = 8 };
/* the remaps after the style sample v, in Iris's order: opacity, negative,
 * exponent, offsetY, parametric, bezier, sinCentered. pow and sin are
 * fdlibm's (StrictMath) */
CF_INLINE double cf_ir_layer(int br, int flags, double v, double opacity, double exponent, double offy)
{
    double n;
    if (br == CF_IR_MASTER) n = opacity == 0 ? 0.0 : 0.0 + v * (opacity - 0.0);
    else n = v * opacity;
    if (flags & CF_IR_NEGATIVE) n = -n + opacity;
    if (exponent != 1) n = n < 0 ? -cf_ir_pow(-n, exponent) : cf_ir_pow(n, exponent);
    n = n + offy;
    if (flags & CF_IR_PARAMETRIC) n = n / ((n - 1) + 1);
    if (flags & CF_IR_BEZIER) n = n * n * (3 - 2 * n);
    if (flags & CF_IR_SINCENTERED) n = cf_ir_sin(n * CF_IR_PI);
    return n;
}
/* a fracture child's displacement of x (dz 0) or z (dz 1) from its sample c:
 * unification subtracts the child's opacity / 2 and adds; master the parent's
 * and subtracts for z */
CF_INLINE double cf_ir_layer_frac(int br, int dz, double p, double c, double copacity, double popacity)
{
    if (br == CF_IR_UNIFICATION) return p + (c - copacity / 2);
    return dz ? p - (c - popacity / 2) : p + (c - popacity / 2);
}
/* IrisGenerator cliffs (§7.3): v snapped to multiples of ch / 255 */
CF_INLINE double cf_ir_cliff(double v, double lo, double hi, double t)
{
    double ch = cf_ir_lerp(lo, hi, t);
    return ((double)cf_ir_jround((v * 255) / ch) * ch) / 255;
}

/* ------------------------------------------------------------------ IrisInterpolator (§8, §8.5)
 * interp(m, x, z, r, P) over any provider P, in two steps: the caller samples
 * P at the points cf_ir_ipt(m, x, z, r, k, ..) for k < cf_ir_inpts(m), then
 * cf_ir_icomb combines the samples. Methods: InterpolationMethod's 27 values. */
enum {
    CF_IIM_NONE = 0, CF_IIM_BILINEAR, CF_IIM_BICUBIC, CF_IIM_BILINEAR_BEZIER, CF_IIM_PARAMETRIC_2, CF_IIM_PARAMETRIC_4,
    CF_IIM_PARAMETRIC_1_5, CF_IIM_HERMITE, CF_IIM_HERMITE_TENSE, CF_IIM_CATMULL_ROM, CF_IIM_HERMITE_LOOSE,
    CF_IIM_HL_HALF_POS, CF_IIM_HL_HALF_NEG, CF_IIM_HL_FULL_POS, CF_IIM_HL_FULL_NEG,
    CF_IIM_STARCAST = 15,          /* + 0..3: 3, 6, 9, 12 directions */
    CF_IIM_BILINEAR_STARCAST = 19, /* + 0..3 */
    CF_IIM_HERMITE_STARCAST = 23,  /* + 0..3 */
    CF_IIM_COUNT = 27
};
#define CF_IR_MAXPTS 192
/* the inner interpolation of a method: 0 the provider, 1 a bilinear form, 2 a bihermite */
CF_INLINE int cf_ir_iform(int m)
{
    if (m == CF_IIM_NONE || (m >= CF_IIM_STARCAST && m < CF_IIM_BILINEAR_STARCAST)) return 0;
    if (m <= CF_IIM_PARAMETRIC_1_5 || (m >= CF_IIM_BILINEAR_STARCAST && m < CF_IIM_HERMITE_STARCAST)) return 1;
    return 2;
}
CF_INLINE int cf_ir_istar(int m) { return m >= CF_IIM_STARCAST ? (m - CF_IIM_STARCAST) % 4 + 1 : 0; } /* 1..4: 3..12 directions */
CF_INLINE int cf_ir_inpts(int m)
{
    int f = cf_ir_iform(m), per = f == 0 ? 1 : f == 1 ? 4 : 16, s = cf_ir_istar(m);
    return s ? per * 3 * s : per;
}
/* direction i of star nd (0..3) around (x, z): the f32 sample point */
CF_INLINE void cf_ir_istarpt(int nd, cf_i32 x, cf_i32 z, double r, int i, double *a, double *b)
{
    const int off[4] = {0, 6, 18, 36};
    float X = (float)x, Z = (float)z, R = (float)r;
    float c = cf_ir_f32(cf_ir_star_dirs[off[nd] + 2 * i]), s = cf_ir_f32(cf_ir_star_dirs[off[nd] + 2 * i + 1]);
    float cx = X + ((R * c) - (R * s));
    float cz = Z + ((R * s) + (R * c));
    *a = (double)cx, *b = (double)cz;
}
/* the k-th sample point of interp(m, x, z, r) */
CF_INLINE void cf_ir_ipt(int m, cf_i32 x, cf_i32 z, double r, int k, double *a, double *b)
{
    int f = cf_ir_iform(m), per = f == 0 ? 1 : f == 1 ? 4 : 16, s = cf_ir_istar(m);
    if (s) {
        double sa, sb;
        cf_ir_istarpt(s - 1, x, z, r, k / per, &sa, &sb);
        if (f == 0) {
            *a = sa, *b = sb;
            return;
        }
        x = cf_ir_d2i(sa), z = cf_ir_d2i(sb);
        k = k % per;
    }
    if (f == 0) {
        *a = (double)x, *b = (double)z;
    } else if (f == 1) { /* (X0, Z0), (X1, Z0), (X0, Z1), (X1, Z1) */
        *a = (double)cf_ir_grid(x, r, k & 1), *b = (double)cf_ir_grid(z, r, k >> 1);
    } else { /* (X_i, Z_j), k = 4 i + j, i and j for grid k - 1 */
        *a = (double)cf_ir_grid(x, r, k / 4 - 1), *b = (double)cf_ir_grid(z, r, k % 4 - 1);
    }
}
/* BILINEAR_PARAMETRIC's par(t, a) = t^a / (a * (t^a - t^(a-1)) + 1) (pow: fdlibm's) */
CF_INLINE double cf_ir_par(double t, double al)
{
    double ta = cf_ir_pow(t, al);
    return ta / (al * (ta - cf_ir_pow(t, al - 1)) + 1);
}
CF_INLINE double cf_ir_ilerp(int m, double a, double b, double t)
{
    if (m == CF_IIM_BILINEAR_BEZIER) return a + (t * t * (3 - 2 * t)) * (b - a);
    if (m == CF_IIM_PARAMETRIC_2) return a + cf_ir_par(t, 2) * (b - a);
    if (m == CF_IIM_PARAMETRIC_4) return a + cf_ir_par(t, 4) * (b - a);
    if (m == CF_IIM_PARAMETRIC_1_5) return a + cf_ir_par(t, 1.5) * (b - a);
    return cf_ir_lerp(a, b, t);
}
/* one inner interpolation at the integer point (x, z) from its samples v */
CF_INLINE double cf_ir_iform_comb(int m, cf_i32 x, cf_i32 z, double r, const double *v)
{
    int f = cf_ir_iform(m);
    if (f == 0) return v[0];
    if (f == 1) {
        cf_i32 x0 = cf_ir_grid(x, r, 0), x1 = cf_ir_grid(x, r, 1), z0 = cf_ir_grid(z, r, 0), z1 = cf_ir_grid(z, r, 1);
        double tx = 0 + 1 * (((double)x - (double)x0) / ((double)x1 - (double)x0));
        double tz = 0 + 1 * (((double)z - (double)z0) / ((double)z1 - (double)z0));
        int lm = m >= CF_IIM_STARCAST ? CF_IIM_BILINEAR : m;
        return cf_ir_ilerp(lm, cf_ir_ilerp(lm, v[0], v[1], tx), cf_ir_ilerp(lm, v[2], v[3], tx), tz);
    }
    double tn = 0, bs = 0;
    if (m == CF_IIM_HERMITE) tn = 0.5;
    else if (m == CF_IIM_HERMITE_TENSE) tn = 0.8;
    else if (m == CF_IIM_CATMULL_ROM) tn = 1;
    else if (m == CF_IIM_HL_HALF_POS) bs = 0.5;
    else if (m == CF_IIM_HL_HALF_NEG) bs = -0.5;
    else if (m == CF_IIM_HL_FULL_POS) bs = 1;
    else if (m == CF_IIM_HL_FULL_NEG) bs = -1;
    cf_i32 gx1 = cf_ir_grid(x, r, 0), gx2 = cf_ir_grid(x, r, 1), gz1 = cf_ir_grid(z, r, 0), gz2 = cf_ir_grid(z, r, 1);
    double tx = 0 + 1 * (((double)x - (double)gx1) / ((double)gx2 - (double)gx1));
    double tz = 0 + 1 * (((double)z - (double)gz1) / ((double)gz2 - (double)gz1));
    double col[4];
    for (int i = 0; i < 4; i++) col[i] = cf_ir_herm(v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3], tz, tn, bs);
    return cf_ir_herm(col[0], col[1], col[2], col[3], tx, tn, bs);
}
CF_INLINE double cf_ir_icomb(int m, cf_i32 x, cf_i32 z, double r, const double *v)
{
    int s = cf_ir_istar(m);
    if (!s) return cf_ir_iform_comb(m, x, z, r, v);
    const cf_u32 inv[4] = {0x3eaaaaabu, 0x3e2aaaabu, 0x3de38e39u, 0x3daaaaabu};
    int f = cf_ir_iform(m), per = f == 0 ? 1 : f == 1 ? 4 : 16, n = 3 * s;
    float acc = 0.0f;
    for (int i = 0; i < n; i++) {
        double a, b;
        cf_ir_istarpt(s - 1, x, z, r, i, &a, &b);
        double q = cf_ir_iform_comb(m, cf_ir_d2i(a), cf_ir_d2i(b), r, v + per * i);
        acc = i == 0 ? (float)q : acc + (float)q;
    }
    return (double)(acc * cf_ir_f32(inv[s - 1]));
}
/* IrisInterpolator.interpolate's grid point: l2i(jround(x)) */
CF_INLINE cf_i32 cf_ir_l2i_round(double x) { return (cf_i32)(cf_u32)(cf_u64)cf_ir_jround(x); }


/* ================================================================== expressions and image maps (host/frontend/iris/iris_expr.c, host/frontend/iris/expressions.md)
 * IRIS_XOP: one operation of a Paralithic expression as Iris runs it (the
 * compiled bytecode's semantics: comparisons via DCMPG, so NaN compares as
 * "greater"; |v| keeps -0.0; if() takes the first branch unless the predicate
 * == 0). Native functions are Java's Math.* with the project's StrictMath
 * choice (fdlibm sin, cos, pow: cf_ir_sin, cf_ir_cos, cf_ir_pow). */
enum {
    CF_IX_CONST = 0, CF_IX_X, CF_IX_Y, CF_IX_Z,
    CF_IX_ADD, CF_IX_SUB, CF_IX_MUL, CF_IX_DIV, CF_IX_MOD,
    CF_IX_LT, CF_IX_LE, CF_IX_EQ, CF_IX_GE, CF_IX_GT, CF_IX_NE, CF_IX_AND, CF_IX_OR,
    CF_IX_NEG, CF_IX_ABSOP, CF_IX_IF,
    CF_IX_POW, CF_IX_MAX, CF_IX_MIN, CF_IX_SIN, CF_IX_COS, CF_IX_ROUND, CF_IX_FLOOR, CF_IX_CEIL, CF_IX_SQRT,
    CF_IX_RAD, CF_IX_DEG, CF_IX_ABS, CF_IX_SIGN, CF_IX_POW2, CF_IX_INTPOW,
    CF_IX_COUNT
};
/* Java's Math.min / Math.max (NaN wins; -0.0 below +0.0) */
CF_INLINE double cf_ir_jmin(double a, double b)
{
    if (a != a) return a;
    if (a == 0.0 && b == 0.0 && (cf_bits(b) >> 63)) return b;
    return a <= b ? a : b;
}
CF_INLINE double cf_ir_jmax(double a, double b)
{
    if (a != a) return a;
    if (a == 0.0 && b == 0.0 && (cf_bits(a) >> 63)) return b;
    return a >= b ? a : b;
}
/* the JVM's dcmpg: 1 if a > b or either is NaN, 0 if equal, -1 if less */
CF_INLINE int cf_ir_dcmpg(double a, double b) { return a > b ? 1 : a == b ? 0 : a < b ? -1 : 1; }
/* Paralithic's intPow(x, y) for the integral y > 0 of a constant exponent */
CF_INLINE double cf_ir_intpow(double x, double yd)
{
    cf_i64 y = cf_ir_d2l(yd);
    double r = 1;
    while (y > 0) {
        if ((y & 1) == 0) x *= x, y = (cf_i64)((cf_u64)y >> 1);
        else r *= x, y--;
    }
    return r;
}
/* one operation on its operands a, b (k: the constant) */
CF_INLINE double cf_ir_xop(int op, double a, double b, double k)
{
    switch (op) {
    case CF_IX_CONST: return k;
    case CF_IX_ADD: return a + b;
    case CF_IX_SUB: return a - b;
    case CF_IX_MUL: return a * b;
    case CF_IX_DIV: return a / b;
    case CF_IX_MOD: return fmod(a, b);
    case CF_IX_LT: return cf_ir_dcmpg(a, b) < 0 ? 1.0 : 0.0;
    case CF_IX_LE: return cf_ir_dcmpg(a, b) <= 0 ? 1.0 : 0.0;
    case CF_IX_EQ: return cf_ir_dcmpg(a, b) == 0 ? 1.0 : 0.0;
    case CF_IX_GE: return cf_ir_dcmpg(a, b) >= 0 ? 1.0 : 0.0;
    case CF_IX_GT: return cf_ir_dcmpg(a, b) > 0 ? 1.0 : 0.0;
    case CF_IX_NE: return cf_ir_dcmpg(a, b) != 0 ? 1.0 : 0.0;
    case CF_IX_AND: return (cf_ir_dcmpg(a, 0.0) != 0 && cf_ir_dcmpg(b, 0.0) != 0) ? 1.0 : 0.0;
    case CF_IX_OR: return (cf_ir_dcmpg(a, 0.0) != 0 || cf_ir_dcmpg(b, 0.0) != 0) ? 1.0 : 0.0;
    case CF_IX_NEG: return -a;
    case CF_IX_ABSOP: return cf_ir_dcmpg(a, 0.0) >= 0 ? a : -a;
    case CF_IX_POW: return cf_ir_pow(a, b);
    case CF_IX_MAX: return cf_ir_jmax(a, b);
    case CF_IX_MIN: return cf_ir_jmin(a, b);
    case CF_IX_SIN: return cf_ir_sin(a);
    case CF_IX_COS: return cf_ir_cos(a);
    case CF_IX_ROUND: return (double)cf_ir_jround(a);
    case CF_IX_FLOOR: return cf_floor(a);
    case CF_IX_CEIL: return -cf_floor(-a);
    case CF_IX_SQRT: return cf_sqrt(a);
    case CF_IX_RAD: return a * 0.017453292519943295;
    case CF_IX_DEG: return a * 57.29577951308232;
    case CF_IX_ABS: return cf_fabs(a);
    case CF_IX_SIGN: return (a == 0.0 || a != a) ? a : (cf_bits(a) >> 63) ? -1.0 : 1.0;
    case CF_IX_POW2: return a * a;
    case CF_IX_INTPOW: return cf_ir_intpow(a, b);
    default: return 0.0;
    }
}

/* IRIS_IMAGE: IrisImageMap.rawNoise (IRIS expr doc) of the provider point (a, b):
 * pix[0..w*h) the channel value of each pixel (row-major, row z), pix[w*h] the
 * value outside the image (Java's getRGB there is 0); flags 1 tiled, 2 centered,
 * 4 inverted; cs coordinateScale */
enum { CF_IR_IMG_TILED = 1, CF_IR_IMG_CENTERED = 2, CF_IR_IMG_INVERTED = 4 };
#ifdef __OPENCL_VERSION__
#define CF_IR_TAB __global const uchar *
#define CF_IR_PIX(t, off, i) (((__global const double *)((t) + (off)))[i])
#else
#include <string.h>
#define CF_IR_TAB const uint8_t *
CF_INLINE double cf_ir_pix_c(const uint8_t *t, size_t off, long i)
{
    double v;
    memcpy(&v, t + off + 8 * (size_t)i, sizeof v);
    return v;
}
#define CF_IR_PIX(t, off, i) cf_ir_pix_c((t), (off), (i))
#endif
CF_INLINE double cf_ir_img_raw(CF_IR_TAB t, long off, int w, int h, int flags, double cs, double a, double b)
{
    double x = a / cs, z = b / cs;
    if (flags & CF_IR_IMG_CENTERED) x += (double)w / 2.0, z += (double)h / 2.0;
    if (flags & CF_IR_IMG_TILED) {
        x = fmod(x, (double)w);
        x = x < 0 ? x + (double)w : x;
        z = fmod(z, (double)h);
        z = z < 0 ? z + (double)h : z;
    }
    cf_i32 xi = cf_ir_d2i(x), zi = cf_ir_d2i(z);
    long i = (xi >= w || zi >= h || xi < 0 || zi < 0) ? (long)w * (long)h : (long)zi * (long)w + (long)xi;
    double v = CF_IR_PIX(t, (size_t)off, i);
    return (flags & CF_IR_IMG_INVERTED) ? 1.0 - v : v;
}

/* ------------------------------------------------------------------ terrains (IRIS.md §7.6, host/frontend/iris/iris_pack.c) */
/* IrisComplex.getHeight: (h + fluid) + the overlay's 0.0, clamped to [0, height] with Java's Math.min/max */
CF_INLINE double cf_ir_height(double h, double fluid, double height)
{
    return cf_ir_jmax(cf_ir_jmin((h + fluid) + 0.0, height), 0.0);
}

#endif
