/* codec_quantized.c compiled once more with -mavx2 (CMake adds the flag on
 * x86 builds and defines SINEW_SOA_X86_PATHS; empty elsewhere): the avx2
 * path's quantized sampling (sw__soa_avx2.quantized_kept and
 * quantized_subset), its external functions renamed with an _avx2 suffix.
 * The same operations, VEX-encoded, without fused multiply-adds (-mfma is
 * not given, and ISO C keeps -ffp-contract=off): the same bits as the
 * baseline build, with the three-operand forms' fewer register copies
 * (RobotExpressive's Walking, 8 characters at 60 Hz: 206 -> 197 ns per call
 * on an AMD EPYC Zen 4). */
#if defined(SINEW_SOA_X86_PATHS) && defined(__AVX2__) && !defined(SINEW_NO_SIMD)
#define sw__codec_quantized_check sw__codec_quantized_check_avx2
#define sw__codec_quantized_keep_words sw__codec_quantized_keep_words_avx2
#define sw__codec_quantized_keep_words_shared sw__codec_quantized_keep_words_shared_avx2
#define sw__codec_quantized_table_words sw__codec_quantized_table_words_avx2
#define sw__codec_quantized_table_fill sw__codec_quantized_table_fill_avx2
#define sw__codec_quantized_sample_kept sw__codec_quantized_sample_kept_avx2
#define sw__codec_quantized_sample_subset sw__codec_quantized_sample_subset_avx2
#define sw__codec_quantized_sample_joint sw__codec_quantized_sample_joint_avx2
#define sw__codec_quantized_extent sw__codec_quantized_extent_avx2
#define sw__codec_finish_scalar sw__codec_finish_scalar_avx2
#define sw__codec_finish_sse2 sw__codec_finish_sse2_avx2
#define sw__codec_finish_best sw__codec_finish_best_avx2
#define sw__codec_arc4_sse2 sw__codec_arc4_sse2_avx2
#include "codec_quantized.c"
#else
typedef int sw__codec_quantized_avx2_disabled;
#endif
