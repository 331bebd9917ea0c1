/* Shared between the compressor, its error metric and the frames builder.
 * Not installed. */
#ifndef SINEW_TOOLS_COMPRESS_INTERNAL_H
#define SINEW_TOOLS_COMPRESS_INTERNAL_H

#include "sinew/tools/builders/compress.h"

/* Time of sample i: min(i / rate, duration). */
float sw__compress_time(uint32_t i, float rate, float duration);
/* Affine 3x4 (columns X, Y, Z, translation) of t + r * (s * p). */
void sw__compress_mat_from(const float t[3], const float q[4], const float s[3], double m[12]);
/* out = a * b (b applied first). */
void sw__compress_mat_mul(const double a[12], const double b[12], double out[12]);
/* Largest distance between the virtual vertices on the X, Y, Z axes under
 * a (the reference) and under b; each vertex at `shell` from the joint in
 * model space under a. */
double sw__compress_vertex_error(const double a[12], const double b[12], double shell);

/* True when every joint key of clip lies within 1e-5 s of k / rate. */
bool sw__clip_on_grid(const sw_clip* clip, double rate);

/* Argument checks shared by the clip builders (compressor, frames):
 * skeleton, clip and out given, the clip raw, joint counts equal. Fails with
 * INVALID_ARGUMENT naming the check. */
sw_result sw__clip_builder_check(const sw_skeleton* skel, const sw_clip* clip, const void* out,
                                 sw_error* err);

/* A codec clip's block without its payload: the raw part of src (float
 * tracks, events, name, flags) built by sw_clip_init, codec set, and
 * payload_size zeroed bytes (a multiple of 16) inserted at
 * sw_clip_codec_offset. The caller writes the payload and then loads the
 * block with sw_clip_load. *mem (16-byte aligned, *size bytes) comes from
 * al. Fails: OUT_OF_MEMORY, LIMIT (block size), or what sw_clip_init says. */
sw_result sw__clip_with_payload(const sw_clip* src, uint32_t codec, uint32_t payload_size,
                                const sw_allocator* al, char** mem, size_t* size, sw_error* err);

#endif
