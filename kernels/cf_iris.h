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
 * casts saturate (cf_jtolong, cf_jtoint: cf_java.h). The only transcendental on these paths
 * are the CNG power (style VASCULAR_THIN, exponents): fdlibm's pow (cf_ir_pow) and
 * Clover's sin/cos (cf_ir_sin, cf_ir_cos): Java's StrictMath.
 * The seeds (i64 kernel seed S, i32 seed S32, offsets ox/oz) come from Iris's
 * RNG on the host (host/frontend/iris/iris_rng.c) and are arguments here.
 * Parts (included below, inlined into the OpenCL text by cmake/embed_text.cmake):
 * cf_iris_strictmath.h (fdlibm sin, cos, pow), cf_iris_noises.h (Clover, interpolated
 * NoiseTypes, hexagons), cf_iris_layers.h (the JSON layers, interpolators, expressions, terrains).
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

/* Java's (int) and (long) casts (§1): cf_jtoint, cf_jtolong (cf_java.h) */
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
CF_INLINE cf_i64 cf_ir_ffloor(double x) { return x >= 0 ? cf_jtolong(x) : cf_ir_ladd(cf_jtolong(x), -1); }
CF_INLINE cf_i64 cf_ir_fround(double x) { return x >= 0 ? cf_jtolong(x + 0.5) : cf_jtolong(x - 0.5); }

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
CF_INLINE cf_i32 cf_ir_fround32(float f) { return f >= 0 ? cf_jtoint((double)(f + 0.5f)) : cf_jtoint((double)(f - 0.5f)); }
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

#include "cf_iris_strictmath.h" /* sin, cos, pow: fdlibm 5.3 (Java StrictMath) */
#include "cf_iris_noises.h"     /* Clover, interpolated NoiseTypes, hexagons */

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
    cf_i64 r = (cf_i64)((cf_u64)cf_jtolong(cf_floor(y)) + 256UL * (cf_u64)cf_jtolong(cf_floor(x / 16.0))) % (cf_i64)n;
    return (int)(r < 0 ? r + n : r);
}

#include "cf_iris_layers.h"     /* the JSON layers, interpolators, expressions, terrains */

#endif
