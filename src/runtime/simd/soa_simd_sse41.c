/* soa_simd.c compiled with -msse4.1 (CMake adds the flag on x86 builds and
 * defines SINEW_SOA_X86_PATHS); empty elsewhere. */
#if defined(SINEW_SOA_X86_PATHS) && defined(__SSE4_1__) && !defined(SINEW_NO_SIMD)
#define SW__SOA_TABLE sw__soa_sse41
#include "soa_simd.c"
#else
typedef int sw__soa_sse41_disabled;
#endif
