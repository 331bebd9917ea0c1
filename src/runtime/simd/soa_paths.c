/* Kernel paths compiled in, and the run-time choice among them. */
#include "runtime/core/internal.h"
#include "simd4.h"

#if SW__SIMD4_AVAILABLE
extern const sw__soa_ops sw__soa_simd; /* soa_simd.c at the target's baseline */
#endif
#if SW__SIMD4_AVAILABLE && defined(SINEW_SOA_X86_PATHS)
extern const sw__soa_ops sw__soa_sse41; /* soa_simd_sse41.c */
extern const sw__soa_ops sw__soa_avx2;  /* soa_simd_avx2.c */
#endif

/* Each path needs the instructions of the ones before it. */
static const sw__soa_ops* const sw__all_paths[] = {
    &sw__soa_scalar,
#if SW__SIMD4_AVAILABLE
    &sw__soa_simd,
#endif
#if SW__SIMD4_AVAILABLE && defined(SINEW_SOA_X86_PATHS)
    &sw__soa_sse41,
    &sw__soa_avx2,
#endif
};

const sw__soa_ops* const* sw__soa_paths(uint32_t* count) {
    uint32_t n = (uint32_t)(sizeof(sw__all_paths) / sizeof(sw__all_paths[0]));
#if SW__SIMD4_AVAILABLE && defined(SINEW_SOA_X86_PATHS)
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) n = 3;
    if (!__builtin_cpu_supports("sse4.1")) n = 2;
#endif
    *count = n;
    return sw__all_paths;
}

const sw__soa_ops* sw__soa_best(void) {
    uint32_t n;
    const sw__soa_ops* const* paths = sw__soa_paths(&n);
    return paths[n - 1];
}
