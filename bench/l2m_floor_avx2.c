/* l2m_floor.c compiled with -mavx2 -mfma (bench/CMakeLists.txt adds the
 * flags and defines BENCH_L2M_FLOOR_AVX2 on x86 builds); empty elsewhere. */
#if defined(BENCH_L2M_FLOOR_AVX2) && defined(__AVX2__) && defined(__FMA__)
#define BENCH_L2M_FLOOR_NAME bench_l2m_floor_avx2
#include "l2m_floor.c"
#else
typedef int bench_l2m_floor_avx2_disabled;
#endif
