/* Quaternions, TRS transforms, 4x4 matrices and SoA packet access.
 * Conventions are in the top comment of include/sinew/core/math.h. */
#include <float.h>
#include <math.h>

#include "internal.h"

/* ---- quaternions ---- */

sw_quat sw_quat_normalize(sw_quat q) {
    float len2 = sw_quat_dot(q, q);
    if (!(len2 > 0.0f) || !(len2 < INFINITY)) return sw_quat_identity();
    float inv = 1.0f / sqrtf(len2);
    return sw_quat_make(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}

sw_quat sw_quat_inverse(sw_quat q) {
    float len2 = sw_quat_dot(q, q);
    if (!(len2 > 0.0f) || !(len2 < INFINITY)) return sw_quat_identity();
    return sw_quat_make(-q.x / len2, -q.y / len2, -q.z / len2, q.w / len2);
}

sw_quat sw_quat_nlerp(sw_quat a, sw_quat b, float t) {
    if (sw_quat_dot(a, b) < 0.0f) b = sw_quat_negate(b);
    return sw_quat_normalize(sw_quat_make(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t,
                                          a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t));
}

/* atan(r) for r in [0, 1] (larger or NaN: 1): with c = k / 8 the nearest
 * eighth, atan(r) = atan(c) + atan((r - c) / (1 + r c)), the second from four
 * terms of its series (argument at most 1/16: truncation below 1e-11), so
 * within a few float ulps of atanf at a fraction of its cost. */
static float sw__atan01(float r) {
    static const float atan_eighths[9] = {0.000000000e+00f, 1.243549945e-01f, 2.449786631e-01f,
                                          3.587706703e-01f, 4.636476090e-01f, 5.585993153e-01f,
                                          6.435011088e-01f, 7.188299996e-01f, 7.853981634e-01f};
    if (!(r <= 1.0f)) r = 1.0f;
    if (!(r >= 0.0f)) r = 0.0f;
    const int k = (int)(r * 8.0f + 0.5f);
    const float c = (float)k * 0.125f;
    const float x = (r - c) / (1.0f + r * c);
    const float x2 = x * x;
    return atan_eighths[k] +
           x * (1.0f - x2 * (1.0f / 3.0f - x2 * (1.0f / 5.0f - x2 * (1.0f / 7.0f))));
}

sw_quat sw_quat_slerp(sw_quat a, sw_quat b, float t) {
    if (sw_quat_dot(a, b) < 0.0f) b = sw_quat_negate(b);
    /* Angle between a and b on the unit 4-sphere, from the tangent of its
     * half, diff / sum, rather than acos(dot): acos loses most of its digits
     * when the inputs are close. */
    float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z, dw = a.w - b.w;
    float sx = a.x + b.x, sy = a.y + b.y, sz = a.z + b.z, sw = a.w + b.w;
    float d2 = dx * dx + dy * dy + dz * dz + dw * dw;
    float s2 = sx * sx + sy * sy + sz * sz + sw * sw;
    float diff = sqrtf(d2), sum = sqrtf(s2);
    /* On one hemisphere diff <= sum (theta <= pi / 2): atan of a ratio in
     * [0, 1] (sum is 0 only for zero quaternions: ratio 1 then). */
    float theta = 2.0f * sw__atan01(sum > 0.0f ? diff / sum : 1.0f);
    /* Below 1e-3 rad nlerp differs from slerp by about theta^3 (< 1e-9). */
    if (!(theta > 1e-3f)) return sw_quat_nlerp(a, b, t);
    /* diff and sum are 2 sin(theta / 2) and 2 cos(theta / 2) over
     * sqrt(d2 + s2) / 2 (a and b of one length; stored keys are unit within
     * 1e-3), so sin and cos of theta need no call, and
     * sin((1 - t) theta) / sin(theta) = cos(t theta) - cos(theta) wb: two
     * calls instead of three (with sw__atan01, differs from atan2f and three
     * sines by < 3e-7). */
    float n2 = d2 + s2;
    float sin_theta = 2.0f * diff * sum / n2;
    float cos_theta = (s2 - d2) / n2;
    float wb = sinf(t * theta) / sin_theta;
    float wa = cosf(t * theta) - cos_theta * wb;
    return sw_quat_normalize(sw_quat_make(a.x * wa + b.x * wb, a.y * wa + b.y * wb,
                                          a.z * wa + b.z * wb, a.w * wa + b.w * wb));
}

sw_quat sw_quat_from_axis_angle(sw_vec3 axis, float angle) {
    float len = sw_vec3_length(axis);
    if (!(len > 0.0f) || !(len < INFINITY)) return sw_quat_identity();
    float s = sinf(0.5f * angle) / len;
    return sw_quat_make(axis.x * s, axis.y * s, axis.z * s, cosf(0.5f * angle));
}

void sw_quat_to_axis_angle(sw_quat q, sw_vec3* axis, float* angle) {
    q = sw_quat_normalize(q);
    if (q.w < 0.0f) q = sw_quat_negate(q);
    float vlen = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    if (!(vlen > 0.0f)) {
        if (axis) *axis = sw_vec3_make(1.0f, 0.0f, 0.0f);
        if (angle) *angle = 0.0f;
        return;
    }
    if (axis) *axis = sw_vec3_make(q.x / vlen, q.y / vlen, q.z / vlen);
    if (angle) *angle = 2.0f * atan2f(vlen, q.w);
}

/* Axes of the three factors, left to right, and the parity of that
 * permutation of (X, Y, Z): +1 for XYZ, YZX, ZXY, -1 for the others. */
typedef struct sw__euler_axes {
    int i, j, k;
    double e;
} sw__euler_axes;

static sw__euler_axes sw__euler_axes_of(sw_euler_order order) {
    static const sw__euler_axes table[] = {
        {0, 1, 2, 1.0},  /* DEFAULT = XYZ */
        {0, 1, 2, 1.0},  /* XYZ */
        {0, 2, 1, -1.0}, /* XZY */
        {1, 0, 2, -1.0}, /* YXZ */
        {1, 2, 0, 1.0},  /* YZX */
        {2, 0, 1, 1.0},  /* ZXY */
        {2, 1, 0, -1.0}, /* ZYX */
    };
    unsigned o = (unsigned)order;
    if (o >= sizeof(table) / sizeof(table[0])) o = 0;
    return table[o];
}

static sw_quat sw__quat_about(int axis, float angle) {
    float s = sinf(0.5f * angle), c = cosf(0.5f * angle);
    switch (axis) {
    case 0:
        return sw_quat_make(s, 0.0f, 0.0f, c);
    case 1:
        return sw_quat_make(0.0f, s, 0.0f, c);
    default:
        return sw_quat_make(0.0f, 0.0f, s, c);
    }
}

sw_quat sw_quat_from_euler(sw_vec3 angles, sw_euler_order order) {
    sw__euler_axes ax = sw__euler_axes_of(order);
    const float a[3] = {angles.x, angles.y, angles.z};
    sw_quat q = sw_quat_mul(sw__quat_about(ax.i, a[ax.i]), sw__quat_about(ax.j, a[ax.j]));
    return sw_quat_mul(q, sw__quat_about(ax.k, a[ax.k]));
}

/* Rotation matrix R[row][col] of a quaternion, normalized here, in double. */
static void sw__quat_to_rot3(sw_quat q, double r[3][3]) {
    double x = q.x, y = q.y, z = q.z, w = q.w;
    double n2 = x * x + y * y + z * z + w * w;
    if (!(n2 > 0.0) || !(n2 < INFINITY)) {
        x = y = z = 0.0;
        w = 1.0;
    } else {
        double inv = 1.0 / sqrt(n2);
        x *= inv;
        y *= inv;
        z *= inv;
        w *= inv;
    }
    r[0][0] = 1.0 - 2.0 * (y * y + z * z);
    r[0][1] = 2.0 * (x * y - w * z);
    r[0][2] = 2.0 * (x * z + w * y);
    r[1][0] = 2.0 * (x * y + w * z);
    r[1][1] = 1.0 - 2.0 * (x * x + z * z);
    r[1][2] = 2.0 * (y * z - w * x);
    r[2][0] = 2.0 * (x * z - w * y);
    r[2][1] = 2.0 * (y * z + w * x);
    r[2][2] = 1.0 - 2.0 * (x * x + y * y);
}

sw_vec3 sw_quat_to_euler(sw_quat q, sw_euler_order order) {
    /* With R = Ri(a) Rj(b) Rk(c) and parity e, column k of R is
     * (e sin b) ei + cos b (cos a ek - e sin a ej), which gives b and a.
     * c then comes from row j of Ri(a)^T R = Rj(b) Rk(c), which is row j of
     * Rk(c): (e sin c) at column i, cos c at column j. Taking c from the
     * residual keeps the whole rotation exact even where a is poorly
     * conditioned (close to gimbal lock). */
    sw__euler_axes ax = sw__euler_axes_of(order);
    int i = ax.i, j = ax.j, k = ax.k;
    double e = ax.e;
    double r[3][3];
    sw__quat_to_rot3(q, r);
    double cb = sqrt(r[j][k] * r[j][k] + r[k][k] * r[k][k]);
    double b = atan2(e * r[i][k], cb);
    /* Gimbal lock: a and c turn about the same axis; put everything in c. */
    double a = cb > 1e-6 ? atan2(-e * r[j][k], r[k][k]) : 0.0;
    double sa = sin(a), ca = cos(a);
    double c = atan2(e * ca * r[j][i] + sa * r[k][i], ca * r[j][j] + e * sa * r[k][j]);
    double out[3];
    out[i] = a;
    out[j] = b;
    out[k] = c;
    return sw_vec3_make((float)out[0], (float)out[1], (float)out[2]);
}

/* Shepperd's method on an orthonormal matrix: takes the square root of the
 * largest of 1 + trace and 1 + 2 R[i][i] - trace, so it never divides by a
 * small number. */
static sw_quat sw__quat_from_rot3(double r[3][3]) {
    double tr = r[0][0] + r[1][1] + r[2][2];
    double x, y, z, w;
    if (tr >= r[0][0] && tr >= r[1][1] && tr >= r[2][2]) {
        double s = 2.0 * sqrt(fmax(1.0 + tr, 0.0));
        w = 0.25 * s;
        x = (r[2][1] - r[1][2]) / s;
        y = (r[0][2] - r[2][0]) / s;
        z = (r[1][0] - r[0][1]) / s;
    } else if (r[0][0] >= r[1][1] && r[0][0] >= r[2][2]) {
        double s = 2.0 * sqrt(fmax(1.0 + r[0][0] - r[1][1] - r[2][2], 0.0));
        x = 0.25 * s;
        w = (r[2][1] - r[1][2]) / s;
        y = (r[0][1] + r[1][0]) / s;
        z = (r[0][2] + r[2][0]) / s;
    } else if (r[1][1] >= r[2][2]) {
        double s = 2.0 * sqrt(fmax(1.0 + r[1][1] - r[0][0] - r[2][2], 0.0));
        y = 0.25 * s;
        w = (r[0][2] - r[2][0]) / s;
        x = (r[0][1] + r[1][0]) / s;
        z = (r[1][2] + r[2][1]) / s;
    } else {
        double s = 2.0 * sqrt(fmax(1.0 + r[2][2] - r[0][0] - r[1][1], 0.0));
        z = 0.25 * s;
        w = (r[1][0] - r[0][1]) / s;
        x = (r[0][2] + r[2][0]) / s;
        y = (r[1][2] + r[2][1]) / s;
    }
    if (w < 0.0) {
        x = -x;
        y = -y;
        z = -z;
        w = -w;
    }
    double n2 = x * x + y * y + z * z + w * w;
    if (!(n2 > 0.0) || !(n2 < INFINITY)) return sw_quat_identity();
    double inv = 1.0 / sqrt(n2);
    return sw_quat_make((float)(x * inv), (float)(y * inv), (float)(z * inv), (float)(w * inv));
}

/* Upper 3x3 of m as R[row][col] with each column divided by its length
 * (zero columns are left as they are); lengths go to len[3]. */
static void sw__mat4_rot3(const sw_mat4* m, double r[3][3], double len[3]) {
    for (int c = 0; c < 3; ++c) {
        double x = m->m[c * 4 + 0], y = m->m[c * 4 + 1], z = m->m[c * 4 + 2];
        double l = sqrt(x * x + y * y + z * z);
        double inv = l > 0.0 ? 1.0 / l : 1.0;
        r[0][c] = x * inv;
        r[1][c] = y * inv;
        r[2][c] = z * inv;
        len[c] = l;
    }
}

sw_quat sw_quat_from_mat4(const sw_mat4* m) {
    double r[3][3], len[3];
    sw__mat4_rot3(m, r, len);
    return sw__quat_from_rot3(r);
}

void sw_quat_swing_twist(sw_quat q, sw_vec3 axis, sw_quat* swing, sw_quat* twist) {
    sw_vec3 n = sw_vec3_normalize(axis);
    float d = q.x * n.x + q.y * n.y + q.z * n.z;
    sw_quat tw = sw_quat_make(n.x * d, n.y * d, n.z * d, q.w);
    float len2 = sw_quat_dot(tw, tw);
    float qlen2 = sw_quat_dot(q, q);
    /* The projection vanishes for a 180-degree swing (and a zero axis). */
    if (!(len2 > 1e-12f * qlen2)) {
        tw = sw_quat_identity();
    } else {
        float inv = 1.0f / sqrtf(len2);
        tw = sw_quat_make(tw.x * inv, tw.y * inv, tw.z * inv, tw.w * inv);
    }
    if (twist) *twist = tw;
    if (swing) *swing = sw_quat_mul(q, sw_quat_conjugate(tw));
}

sw_quat sw_quat_from_to(sw_vec3 from, sw_vec3 to) {
    float lf = sw_vec3_length(from), lt = sw_vec3_length(to);
    if (!(lf > 0.0f) || !(lt > 0.0f) || !(lf < INFINITY) || !(lt < INFINITY)) {
        return sw_quat_identity();
    }
    sw_vec3 f = sw_vec3_scale(from, 1.0f / lf);
    sw_vec3 t = sw_vec3_scale(to, 1.0f / lt);
    /* q ~ (f x t, 1 + f.t) and 1 + f.t = |f + t|^2 / 2, which keeps its
     * digits when f and t are nearly opposite. */
    sw_vec3 h = sw_vec3_add(f, t);
    float h2 = sw_vec3_dot(h, h);
    if (h2 < 1e-12f) {
        /* Opposite: half turn about an axis perpendicular to f, from the
         * basis axis least aligned with f. */
        float ax = fabsf(f.x), ay = fabsf(f.y), az = fabsf(f.z);
        sw_vec3 other = ax <= ay && ax <= az ? sw_vec3_make(1.0f, 0.0f, 0.0f)
                        : ay <= az           ? sw_vec3_make(0.0f, 1.0f, 0.0f)
                                             : sw_vec3_make(0.0f, 0.0f, 1.0f);
        sw_vec3 p = sw_vec3_normalize(sw_vec3_cross(f, other));
        return sw_quat_make(p.x, p.y, p.z, 0.0f);
    }
    sw_vec3 c = sw_vec3_cross(f, t);
    /* Near opposite directions |f x t| is small next to its rounding error;
     * an error along f would tilt the half turn off the plane of f and t, so
     * remove it (the exact cross product is perpendicular to f). */
    c = sw_vec3_sub(c, sw_vec3_scale(f, sw_vec3_dot(c, f)));
    return sw_quat_normalize(sw_quat_make(c.x, c.y, c.z, 0.5f * h2));
}

/* ---- TRS transforms ---- */

sw_xform sw_xform_identity(void) {
    sw_xform x = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, {1.0f, 1.0f, 1.0f}};
    return x;
}

sw_xform sw_xform_mul(sw_xform parent, sw_xform child) {
    sw_xform out;
    out.t = sw_xform_point(parent, child.t);
    out.r = sw_quat_mul(parent.r, child.r);
    out.s = sw_vec3_mul(parent.s, child.s);
    return out;
}

static float sw__recip_or_zero(float s) {
    return s != 0.0f ? 1.0f / s : 0.0f;
}

sw_xform sw_xform_inverse(sw_xform x) {
    sw_xform out;
    out.s =
        sw_vec3_make(sw__recip_or_zero(x.s.x), sw__recip_or_zero(x.s.y), sw__recip_or_zero(x.s.z));
    out.r = sw_quat_conjugate(x.r);
    out.t = sw_vec3_scale(sw_vec3_mul(out.s, sw_quat_rotate(out.r, x.t)), -1.0f);
    return out;
}

sw_vec3 sw_xform_point(sw_xform x, sw_vec3 p) {
    return sw_vec3_add(x.t, sw_quat_rotate(x.r, sw_vec3_mul(x.s, p)));
}

sw_vec3 sw_xform_vector(sw_xform x, sw_vec3 v) {
    return sw_quat_rotate(x.r, sw_vec3_mul(x.s, v));
}

/* ---- 4x4 matrices ---- */

sw_mat4 sw_mat4_identity(void) {
    sw_mat4 m = {{1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f,
                  0.0f, 0.0f, 1.0f}};
    return m;
}

sw_mat4 sw_mat4_mul(const sw_mat4* a, const sw_mat4* b) {
    /* Same summation order as the SoA kernels' mat4_mul. */
    sw_mat4 out;
    for (int c = 0; c < 4; ++c) {
        for (int r = 0; r < 4; ++r) {
            out.m[c * 4 + r] =
                a->m[0 * 4 + r] * b->m[c * 4 + 0] + a->m[1 * 4 + r] * b->m[c * 4 + 1] +
                a->m[2 * 4 + r] * b->m[c * 4 + 2] + a->m[3 * 4 + r] * b->m[c * 4 + 3];
        }
    }
    return out;
}

sw_mat4 sw_mat4_from_xform(sw_xform x) {
    /* The SoA kernels' to_mat4 evaluates exactly these expressions. */
    sw_quat q = x.r;
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    sw_mat4 m;
    m.m[0] = (1.0f - 2.0f * (yy + zz)) * x.s.x;
    m.m[1] = (2.0f * (xy + wz)) * x.s.x;
    m.m[2] = (2.0f * (xz - wy)) * x.s.x;
    m.m[3] = 0.0f;
    m.m[4] = (2.0f * (xy - wz)) * x.s.y;
    m.m[5] = (1.0f - 2.0f * (xx + zz)) * x.s.y;
    m.m[6] = (2.0f * (yz + wx)) * x.s.y;
    m.m[7] = 0.0f;
    m.m[8] = (2.0f * (xz + wy)) * x.s.z;
    m.m[9] = (2.0f * (yz - wx)) * x.s.z;
    m.m[10] = (1.0f - 2.0f * (xx + yy)) * x.s.z;
    m.m[11] = 0.0f;
    m.m[12] = x.t.x;
    m.m[13] = x.t.y;
    m.m[14] = x.t.z;
    m.m[15] = 1.0f;
    return m;
}

bool sw_mat4_inverse(const sw_mat4* m, sw_mat4* out) {
    /* Laplace expansion by complementary minors: 2x2 determinants of the top
     * two rows (s) and of the bottom two rows (c), in double. */
    double a[4][4];
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c)
            a[r][c] = m->m[c * 4 + r];
    }
    double s0 = a[0][0] * a[1][1] - a[1][0] * a[0][1];
    double s1 = a[0][0] * a[1][2] - a[1][0] * a[0][2];
    double s2 = a[0][0] * a[1][3] - a[1][0] * a[0][3];
    double s3 = a[0][1] * a[1][2] - a[1][1] * a[0][2];
    double s4 = a[0][1] * a[1][3] - a[1][1] * a[0][3];
    double s5 = a[0][2] * a[1][3] - a[1][2] * a[0][3];
    double c5 = a[2][2] * a[3][3] - a[3][2] * a[2][3];
    double c4 = a[2][1] * a[3][3] - a[3][1] * a[2][3];
    double c3 = a[2][1] * a[3][2] - a[3][1] * a[2][2];
    double c2 = a[2][0] * a[3][3] - a[3][0] * a[2][3];
    double c1 = a[2][0] * a[3][2] - a[3][0] * a[2][2];
    double c0 = a[2][0] * a[3][1] - a[3][0] * a[2][1];
    double det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0;
    if (det == 0.0 || !isfinite(det)) return false;
    double inv[4][4];
    inv[0][0] = a[1][1] * c5 - a[1][2] * c4 + a[1][3] * c3;
    inv[0][1] = -a[0][1] * c5 + a[0][2] * c4 - a[0][3] * c3;
    inv[0][2] = a[3][1] * s5 - a[3][2] * s4 + a[3][3] * s3;
    inv[0][3] = -a[2][1] * s5 + a[2][2] * s4 - a[2][3] * s3;
    inv[1][0] = -a[1][0] * c5 + a[1][2] * c2 - a[1][3] * c1;
    inv[1][1] = a[0][0] * c5 - a[0][2] * c2 + a[0][3] * c1;
    inv[1][2] = -a[3][0] * s5 + a[3][2] * s2 - a[3][3] * s1;
    inv[1][3] = a[2][0] * s5 - a[2][2] * s2 + a[2][3] * s1;
    inv[2][0] = a[1][0] * c4 - a[1][1] * c2 + a[1][3] * c0;
    inv[2][1] = -a[0][0] * c4 + a[0][1] * c2 - a[0][3] * c0;
    inv[2][2] = a[3][0] * s4 - a[3][1] * s2 + a[3][3] * s0;
    inv[2][3] = -a[2][0] * s4 + a[2][1] * s2 - a[2][3] * s0;
    inv[3][0] = -a[1][0] * c3 + a[1][1] * c1 - a[1][2] * c0;
    inv[3][1] = a[0][0] * c3 - a[0][1] * c1 + a[0][2] * c0;
    inv[3][2] = -a[3][0] * s3 + a[3][1] * s1 - a[3][2] * s0;
    inv[3][3] = a[2][0] * s3 - a[2][1] * s1 + a[2][2] * s0;
    sw_mat4 res;
    double inv_det = 1.0 / det;
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
            double v = inv[r][c] * inv_det;
            /* Nearly singular matrices overflow float: report them singular. */
            if (!(fabs(v) <= FLT_MAX)) return false;
            res.m[c * 4 + r] = (float)v;
        }
    }
    *out = res;
    return true;
}

bool sw_mat4_inverse_affine(const sw_mat4* m, sw_mat4* out) {
    /* The inverse of A = [c0 c1 c2] has rows (c1 x c2, c2 x c0, c0 x c1) / det. */
    double col[3][3];
    for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r)
            col[c][r] = m->m[c * 4 + r];
    }
    double row[3][3];
    for (int i = 0; i < 3; ++i) {
        const double* u = col[(i + 1) % 3];
        const double* v = col[(i + 2) % 3];
        row[i][0] = u[1] * v[2] - u[2] * v[1];
        row[i][1] = u[2] * v[0] - u[0] * v[2];
        row[i][2] = u[0] * v[1] - u[1] * v[0];
    }
    double det = col[0][0] * row[0][0] + col[0][1] * row[0][1] + col[0][2] * row[0][2];
    if (det == 0.0 || !isfinite(det)) return false;
    double inv_det = 1.0 / det;
    double t[3] = {m->m[12], m->m[13], m->m[14]};
    sw_mat4 res;
    for (int r = 0; r < 3; ++r) {
        double tr = 0.0;
        for (int c = 0; c < 3; ++c) {
            double v = row[r][c] * inv_det;
            if (!(fabs(v) <= FLT_MAX)) return false;
            res.m[c * 4 + r] = (float)v;
            tr -= v * t[c];
        }
        if (!(fabs(tr) <= FLT_MAX)) return false;
        res.m[12 + r] = (float)tr;
    }
    res.m[3] = res.m[7] = res.m[11] = 0.0f;
    res.m[15] = 1.0f;
    *out = res;
    return true;
}

sw_vec3 sw_mat4_point(const sw_mat4* m, sw_vec3 p) {
    const float* a = m->m;
    return sw_vec3_make(a[0] * p.x + a[4] * p.y + a[8] * p.z + a[12],
                        a[1] * p.x + a[5] * p.y + a[9] * p.z + a[13],
                        a[2] * p.x + a[6] * p.y + a[10] * p.z + a[14]);
}

sw_vec3 sw_mat4_vector(const sw_mat4* m, sw_vec3 v) {
    const float* a = m->m;
    return sw_vec3_make(a[0] * v.x + a[4] * v.y + a[8] * v.z, a[1] * v.x + a[5] * v.y + a[9] * v.z,
                        a[2] * v.x + a[6] * v.y + a[10] * v.z);
}

bool sw_mat4_decompose(const sw_mat4* m, sw_xform* out) {
    double r[3][3], len[3];
    sw__mat4_rot3(m, r, len);
    sw_xform x;
    x.t = sw_vec3_make(m->m[12], m->m[13], m->m[14]);
    x.s = sw_vec3_make((float)len[0], (float)len[1], (float)len[2]);
    if (!(len[0] > 0.0) || !(len[1] > 0.0) || !(len[2] > 0.0)) {
        x.r = sw_quat_identity();
        *out = x;
        return false;
    }
    double det = r[0][0] * (r[1][1] * r[2][2] - r[2][1] * r[1][2]) -
                 r[0][1] * (r[1][0] * r[2][2] - r[2][0] * r[1][2]) +
                 r[0][2] * (r[1][0] * r[2][1] - r[2][0] * r[1][1]);
    if (det < 0.0) {
        /* A mirror: put it in scale x so the rest is a rotation. */
        x.s.x = -x.s.x;
        r[0][0] = -r[0][0];
        r[1][0] = -r[1][0];
        r[2][0] = -r[2][0];
    }
    x.r = sw__quat_from_rot3(r);
    *out = x;
    return true;
}

/* ---- SoA packets ---- */

void sw_xform4_identity(sw_xform4* p) {
    for (int l = 0; l < 4; ++l) {
        p->tx[l] = p->ty[l] = p->tz[l] = 0.0f;
        p->rx[l] = p->ry[l] = p->rz[l] = 0.0f;
        p->rw[l] = 1.0f;
        p->sx[l] = p->sy[l] = p->sz[l] = 1.0f;
    }
}

void sw_xform4_set(sw_xform4* p, uint32_t lane, sw_xform x) {
    SINEW_ASSERT(lane < 4u);
    lane &= 3u;
    p->tx[lane] = x.t.x;
    p->ty[lane] = x.t.y;
    p->tz[lane] = x.t.z;
    p->rx[lane] = x.r.x;
    p->ry[lane] = x.r.y;
    p->rz[lane] = x.r.z;
    p->rw[lane] = x.r.w;
    p->sx[lane] = x.s.x;
    p->sy[lane] = x.s.y;
    p->sz[lane] = x.s.z;
}

sw_xform sw_xform4_get(const sw_xform4* p, uint32_t lane) {
    SINEW_ASSERT(lane < 4u);
    lane &= 3u;
    sw_xform x;
    x.t = sw_vec3_make(p->tx[lane], p->ty[lane], p->tz[lane]);
    x.r = sw_quat_make(p->rx[lane], p->ry[lane], p->rz[lane], p->rw[lane]);
    x.s = sw_vec3_make(p->sx[lane], p->sy[lane], p->sz[lane]);
    return x;
}
