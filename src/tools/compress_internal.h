/* Shared between the compressor and its error metric. Not installed. */
#ifndef SINEW_TOOLS_COMPRESS_INTERNAL_H
#define SINEW_TOOLS_COMPRESS_INTERNAL_H

#include "sinew/tools/compress.h"

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

#endif
