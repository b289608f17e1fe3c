/* isa.c - the one detection of the CPU's vector features, for every path that has lanes
 * (rowops.c, corners.c, fill121.c, aquifer.c, aquifer121.c).
 *
 * Output: cpu_isa(), a set of CPU_* bits: what the CPU has (__builtin_cpu_supports) less what
 * the environment switches off (CF_NO_SSE, CF_NO_AVX2, CF_NO_AVX512: benchmarks, checks). Each
 * bit answers for its own switch only; a path that needs the ones below it as well (rowops.c,
 * corners.c: CF_NO_AVX2 means at most SSE2) tests them together. Every path computes the same
 * values; the bits choose speed only. Read at each call (a fill context's start), no state.
 */
#include <stdlib.h>

#include "cpu/cpu.h"

unsigned cpu_isa(void)
{
    unsigned isa = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (!getenv("CF_NO_SSE")) isa |= CPU_SSE2; /* x86-64's base */
    if (__builtin_cpu_supports("avx2") && !getenv("CF_NO_AVX2")) isa |= CPU_AVX2;
    if (!getenv("CF_NO_AVX512") && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) {
        if (__builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) isa |= CPU_AVX512;
        if (__builtin_cpu_supports("avx512vbmi")) isa |= CPU_AVX512VBMI;
    }
#endif
    return isa;
}
