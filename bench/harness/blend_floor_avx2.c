/* blend_floor.c compiled with -mavx2 -mfma (bench/harness/CMakeLists.txt
 * adds the flags and defines BENCH_BLEND_FLOOR_AVX2 on x86 builds); empty
 * elsewhere. */
#if defined(BENCH_BLEND_FLOOR_AVX2) && defined(__AVX2__) && defined(__FMA__)
#define BENCH_BLEND_FLOOR_NAME bench_blend_floor_avx2
#include "blend_floor.c"
#else
typedef int bench_blend_floor_avx2_disabled;
#endif
