/* sinew/core/math.h: vectors, quaternions, TRS transforms, 4x4 matrices, SoA packets.
 *
 * Conventions (for the whole library):
 * - Right-handed, +Y up, metres, seconds, radians.
 * - Quaternions are stored x, y, z, w and rotate vectors as q * v * conj(q).
 *   q and -q are the same rotation; tests compare rotations up to sign.
 * - sw_quat_mul(a, b) is the rotation that applies b first, then a.
 * - Matrices are column-major with column vectors: m[col * 4 + row]; a point p
 *   maps to M * p; sw_mat4_mul(a, b) applies b first, then a.
 * - A transform (sw_xform) is translation, rotation, scale applied to a point
 *   as t + r * (s * p), local to the parent joint. Composition of a parent and
 *   a child is exact for uniform scale; with non-uniform scale (shear) use
 *   matrices.
 * - Euler angles are an sw_vec3 of angles about X, Y and Z. The order names
 *   the factors of the product left to right: SW_EULER_ORDER_ZXY is
 *   q = qz * qx * qy (a vector is turned about Y first). This is how BVH
 *   CHANNELS lines list them.
 * - SoA packets (sw_xform4) hold 4 joints, one per lane; unused lanes hold
 *   identity.
 */
#ifndef SINEW_MATH_H
#define SINEW_MATH_H

#include <math.h>

#include "sinew/core/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_vec3 {
    float x, y, z;
} sw_vec3;

typedef struct sw_quat {
    float x, y, z, w;
} sw_quat;

typedef struct sw_xform {
    sw_vec3 t;
    sw_quat r;
    sw_vec3 s;
} sw_xform;

typedef struct sw_mat4 {
    float m[16];
} sw_mat4;

/* Four transforms in structure-of-arrays layout, 16-byte aligned (160 bytes). */
typedef struct sw_xform4 {
    SINEW_ALIGN16 float tx[4];
    float ty[4], tz[4];
    float rx[4], ry[4], rz[4], rw[4];
    float sx[4], sy[4], sz[4];
} sw_xform4;

typedef enum sw_euler_order {
    SW_EULER_ORDER_DEFAULT = 0, /* same as XYZ */
    SW_EULER_ORDER_XYZ,
    SW_EULER_ORDER_XZY,
    SW_EULER_ORDER_YXZ,
    SW_EULER_ORDER_YZX,
    SW_EULER_ORDER_ZXY,
    SW_EULER_ORDER_ZYX
} sw_euler_order;

/* ---- vec3 (inline) ---- */

static inline sw_vec3 sw_vec3_make(float x, float y, float z) {
    sw_vec3 v = {x, y, z};
    return v;
}
static inline sw_vec3 sw_vec3_add(sw_vec3 a, sw_vec3 b) {
    return sw_vec3_make(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline sw_vec3 sw_vec3_sub(sw_vec3 a, sw_vec3 b) {
    return sw_vec3_make(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline sw_vec3 sw_vec3_scale(sw_vec3 a, float s) {
    return sw_vec3_make(a.x * s, a.y * s, a.z * s);
}
static inline sw_vec3 sw_vec3_mul(sw_vec3 a, sw_vec3 b) {
    return sw_vec3_make(a.x * b.x, a.y * b.y, a.z * b.z);
}
static inline float sw_vec3_dot(sw_vec3 a, sw_vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline sw_vec3 sw_vec3_cross(sw_vec3 a, sw_vec3 b) {
    return sw_vec3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline float sw_vec3_length(sw_vec3 a) {
    return sqrtf(sw_vec3_dot(a, a));
}
static inline sw_vec3 sw_vec3_lerp(sw_vec3 a, sw_vec3 b, float t) {
    return sw_vec3_make(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
}
/* Unit vector along a; the zero vector stays zero. */
static inline sw_vec3 sw_vec3_normalize(sw_vec3 a) {
    float l = sw_vec3_length(a);
    return l > 0.0f ? sw_vec3_scale(a, 1.0f / l) : a;
}

/* ---- quaternions (inline) ---- */

static inline sw_quat sw_quat_make(float x, float y, float z, float w) {
    sw_quat q = {x, y, z, w};
    return q;
}
static inline sw_quat sw_quat_identity(void) {
    return sw_quat_make(0.0f, 0.0f, 0.0f, 1.0f);
}
/* Hamilton product: the rotation b followed by a. */
static inline sw_quat sw_quat_mul(sw_quat a, sw_quat b) {
    return sw_quat_make(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                        a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                        a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                        a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}
static inline sw_quat sw_quat_conjugate(sw_quat q) {
    return sw_quat_make(-q.x, -q.y, -q.z, q.w);
}
static inline float sw_quat_dot(sw_quat a, sw_quat b) {
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
static inline sw_quat sw_quat_negate(sw_quat q) {
    return sw_quat_make(-q.x, -q.y, -q.z, -q.w);
}
/* Rotates v by unit quaternion q. */
static inline sw_vec3 sw_quat_rotate(sw_quat q, sw_vec3 v) {
    sw_vec3 u = sw_vec3_make(q.x, q.y, q.z);
    sw_vec3 t = sw_vec3_scale(sw_vec3_cross(u, v), 2.0f);
    return sw_vec3_add(sw_vec3_add(v, sw_vec3_scale(t, q.w)), sw_vec3_cross(u, t));
}

/* Unit quaternion along q; a zero (or non-finite length) quaternion gives identity. */
SINEW_API sw_quat sw_quat_normalize(sw_quat q);
/* Inverse of any non-zero quaternion (conjugate over squared norm); zero gives identity. */
SINEW_API sw_quat sw_quat_inverse(sw_quat q);
/* Normalized linear interpolation on the shortest arc (b is negated when
 * dot(a, b) < 0). t = 0 gives a, t = 1 gives b (up to sign). */
SINEW_API sw_quat sw_quat_nlerp(sw_quat a, sw_quat b, float t);
/* Spherical linear interpolation on the shortest arc, constant angular speed;
 * falls back to nlerp when the inputs are nearly parallel. */
SINEW_API sw_quat sw_quat_slerp(sw_quat a, sw_quat b, float t);
/* Rotation of `angle` radians about `axis` (normalized here; zero axis gives identity). */
SINEW_API sw_quat sw_quat_from_axis_angle(sw_vec3 axis, float angle);
/* Axis and angle in [0, pi] of unit quaternion q; identity gives axis +X, angle 0. */
SINEW_API void sw_quat_to_axis_angle(sw_quat q, sw_vec3* axis, float* angle);
/* Quaternion from Euler angles (radians about X, Y, Z) composed in `order`. */
SINEW_API sw_quat sw_quat_from_euler(sw_vec3 angles, sw_euler_order order);
/* Euler angles (radians) in `order` that give unit quaternion q back; the
 * middle angle is in [-pi/2, pi/2]; at gimbal lock the first angle is 0. */
SINEW_API sw_vec3 sw_quat_to_euler(sw_quat q, sw_euler_order order);
/* Rotation part of a matrix (upper 3x3, which must be a rotation possibly
 * scaled by positive factors) as a unit quaternion with w >= 0. */
SINEW_API sw_quat sw_quat_from_mat4(const sw_mat4* m);
/* Splits q into swing * twist, where twist is the rotation about unit `axis`
 * and swing turns `axis` without twisting about it. A 180-degree swing
 * (twist undefined) gives identity twist. */
SINEW_API void sw_quat_swing_twist(sw_quat q, sw_vec3 axis, sw_quat* swing, sw_quat* twist);
/* Shortest rotation turning direction `from` into direction `to` (both
 * normalized here). Opposite directions turn by pi about an arbitrary axis
 * perpendicular to `from`; a zero input gives identity. */
SINEW_API sw_quat sw_quat_from_to(sw_vec3 from, sw_vec3 to);

/* ---- TRS transforms ---- */

SINEW_API sw_xform sw_xform_identity(void);
/* parent * child: the child transform expressed in the parent's space.
 * Rotation and translation are exact; scale is multiplied per component
 * (exact for uniform scale). */
SINEW_API sw_xform sw_xform_mul(sw_xform parent, sw_xform child);
/* Inverse transform (exact for uniform scale); zero scale components give 0. */
SINEW_API sw_xform sw_xform_inverse(sw_xform x);
SINEW_API sw_vec3 sw_xform_point(sw_xform x, sw_vec3 p);
SINEW_API sw_vec3 sw_xform_vector(sw_xform x, sw_vec3 v);

/* ---- 4x4 matrices ---- */

SINEW_API sw_mat4 sw_mat4_identity(void);
/* a * b (b applied first). */
SINEW_API sw_mat4 sw_mat4_mul(const sw_mat4* a, const sw_mat4* b);
SINEW_API sw_mat4 sw_mat4_from_xform(sw_xform x);
/* General inverse (computed in double); returns false and leaves *out
 * untouched when singular (determinant 0, or an inverse beyond float range). */
SINEW_API bool sw_mat4_inverse(const sw_mat4* m, sw_mat4* out);
/* Inverse of an affine matrix: the last row is taken as 0 0 0 1 (not read).
 * Returns false and leaves *out untouched when the upper 3x3 is singular. */
SINEW_API bool sw_mat4_inverse_affine(const sw_mat4* m, sw_mat4* out);
/* M * (p, 1) and M * (v, 0) for an affine M (the last row is not read). */
SINEW_API sw_vec3 sw_mat4_point(const sw_mat4* m, sw_vec3 p);
SINEW_API sw_vec3 sw_mat4_vector(const sw_mat4* m, sw_vec3 v);
/* Splits an affine matrix into translation, rotation and scale (column
 * lengths; a negative determinant flips the sign of scale x). Shear is lost.
 * Returns false when a column has zero length (rotation set to identity). */
SINEW_API bool sw_mat4_decompose(const sw_mat4* m, sw_xform* out);

/* ---- SoA packets ---- */

/* Sets all four lanes of p to identity. */
SINEW_API void sw_xform4_identity(sw_xform4* p);
/* Writes transform x into lane (0..3) of p. */
SINEW_API void sw_xform4_set(sw_xform4* p, uint32_t lane, sw_xform x);
/* Reads lane (0..3) of p. */
SINEW_API sw_xform sw_xform4_get(const sw_xform4* p, uint32_t lane);
/* Pose helpers over joint indices: joint j lives in packet j / 4, lane j % 4. */
static inline void sw_pose_set(sw_xform4* pose, uint32_t joint, sw_xform x) {
    sw_xform4_set(&pose[joint >> 2], joint & 3u, x);
}
static inline sw_xform sw_pose_get(const sw_xform4* pose, uint32_t joint) {
    return sw_xform4_get(&pose[joint >> 2], joint & 3u);
}

#ifdef __cplusplus
}
#endif

#endif
