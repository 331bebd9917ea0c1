/* soa_simd.c compiled with -mavx2 -mfma (CMake adds the flags on x86 builds
 * and defines SINEW_SOA_X86_PATHS); empty elsewhere. */
#if defined(SINEW_SOA_X86_PATHS) && defined(__AVX2__) && defined(__FMA__) && !defined(SINEW_NO_SIMD)
#define SW__SOA_TABLE sw__soa_avx2
#include "soa_simd.c"
#else
typedef int sw__soa_avx2_disabled;
#endif
