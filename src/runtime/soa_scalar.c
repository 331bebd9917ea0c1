/* Scalar SoA kernels: the reference path. Plain per-lane loops; the SSE2
 * kernels in soa_sse2.c evaluate the same expressions in the same order, so
 * the two paths agree to rounding (usually bit for bit). */
#include <math.h>

#include "internal.h"

/* Unit quaternion along (x, y, z, w) by 1 / sqrt(len2); identity when len2
 * is zero or not finite. */
static void sw__lane_normalize(float* x, float* y, float* z, float* w) {
    float len2 = *x * *x + *y * *y + *z * *z + *w * *w;
    if (len2 > 0.0f && len2 < INFINITY) {
        float inv = 1.0f / sqrtf(len2);
        *x *= inv;
        *y *= inv;
        *z *= inv;
        *w *= inv;
    } else {
        *x = *y = *z = 0.0f;
        *w = 1.0f;
    }
}

static void sw__scalar_to_mat4(const sw_xform4* in, sw_mat4 out[4]) {
    for (int l = 0; l < 4; ++l) {
        float qx = in->rx[l], qy = in->ry[l], qz = in->rz[l], qw = in->rw[l];
        float xx = qx * qx, yy = qy * qy, zz = qz * qz;
        float xy = qx * qy, xz = qx * qz, yz = qy * qz;
        float wx = qw * qx, wy = qw * qy, wz = qw * qz;
        float sx = in->sx[l], sy = in->sy[l], sz = in->sz[l];
        float* m = out[l].m;
        m[0] = (1.0f - 2.0f * (yy + zz)) * sx;
        m[1] = (2.0f * (xy + wz)) * sx;
        m[2] = (2.0f * (xz - wy)) * sx;
        m[3] = 0.0f;
        m[4] = (2.0f * (xy - wz)) * sy;
        m[5] = (1.0f - 2.0f * (xx + zz)) * sy;
        m[6] = (2.0f * (yz + wx)) * sy;
        m[7] = 0.0f;
        m[8] = (2.0f * (xz + wy)) * sz;
        m[9] = (2.0f * (yz - wx)) * sz;
        m[10] = (1.0f - 2.0f * (xx + yy)) * sz;
        m[11] = 0.0f;
        m[12] = in->tx[l];
        m[13] = in->ty[l];
        m[14] = in->tz[l];
        m[15] = 1.0f;
    }
}

static void sw__scalar_mat4_mul(const sw_mat4* a, const sw_mat4* b, sw_mat4* out) {
    /* Local copies: the compiler need not reload after each store to out. */
    const sw_mat4 la = *a, lb = *b;
    for (int c = 0; c < 4; ++c) {
        const float* bc = &lb.m[c * 4];
        for (int r = 0; r < 4; ++r) {
            out->m[c * 4 + r] =
                la.m[r] * bc[0] + la.m[4 + r] * bc[1] + la.m[8 + r] * bc[2] + la.m[12 + r] * bc[3];
        }
    }
}

static void sw__scalar_blend_add(sw_xform4* acc, const sw_xform4* in, const float w[4]) {
    for (int l = 0; l < 4; ++l) {
        float d = acc->rx[l] * in->rx[l] + acc->ry[l] * in->ry[l] + acc->rz[l] * in->rz[l] +
                  acc->rw[l] * in->rw[l];
        float wl = w[l];
        float wr = d < 0.0f ? -wl : wl;
        acc->tx[l] += wl * in->tx[l];
        acc->ty[l] += wl * in->ty[l];
        acc->tz[l] += wl * in->tz[l];
        acc->rx[l] += wr * in->rx[l];
        acc->ry[l] += wr * in->ry[l];
        acc->rz[l] += wr * in->rz[l];
        acc->rw[l] += wr * in->rw[l];
        acc->sx[l] += wl * in->sx[l];
        acc->sy[l] += wl * in->sy[l];
        acc->sz[l] += wl * in->sz[l];
    }
}

static void sw__scalar_blend_finish(sw_xform4* acc, const float wsum[4], const sw_xform4* rest,
                                    float threshold) {
    for (int l = 0; l < 4; ++l) {
        float wl = wsum[l];
        float fill = threshold - wl;
        fill = fill > 0.0f ? fill : 0.0f;
        float denom = wl > threshold ? wl : threshold;
        acc->tx[l] = (acc->tx[l] + fill * rest->tx[l]) / denom;
        acc->ty[l] = (acc->ty[l] + fill * rest->ty[l]) / denom;
        acc->tz[l] = (acc->tz[l] + fill * rest->tz[l]) / denom;
        acc->sx[l] = (acc->sx[l] + fill * rest->sx[l]) / denom;
        acc->sy[l] = (acc->sy[l] + fill * rest->sy[l]) / denom;
        acc->sz[l] = (acc->sz[l] + fill * rest->sz[l]) / denom;
        float d = acc->rx[l] * rest->rx[l] + acc->ry[l] * rest->ry[l] + acc->rz[l] * rest->rz[l] +
                  acc->rw[l] * rest->rw[l];
        float fr = d < 0.0f ? -fill : fill;
        float x = acc->rx[l] + fr * rest->rx[l];
        float y = acc->ry[l] + fr * rest->ry[l];
        float z = acc->rz[l] + fr * rest->rz[l];
        float qw = acc->rw[l] + fr * rest->rw[l];
        sw__lane_normalize(&x, &y, &z, &qw);
        acc->rx[l] = x;
        acc->ry[l] = y;
        acc->rz[l] = z;
        acc->rw[l] = qw;
    }
}

static void sw__scalar_additive_apply(sw_xform4* io, const sw_xform4* delta, const float w[4]) {
    for (int l = 0; l < 4; ++l) {
        float wl = w[l];
        io->tx[l] += wl * delta->tx[l];
        io->ty[l] += wl * delta->ty[l];
        io->tz[l] += wl * delta->tz[l];
        /* nlerp(identity, dr, w) before its normalization (the final
         * normalization makes a second one redundant); dr on w >= 0. */
        float wr = delta->rw[l] < 0.0f ? -wl : wl;
        float dx = wr * delta->rx[l];
        float dy = wr * delta->ry[l];
        float dz = wr * delta->rz[l];
        float dw = (1.0f - wl) + wr * delta->rw[l];
        float ax = io->rx[l], ay = io->ry[l], az = io->rz[l], aw = io->rw[l];
        float x = aw * dx + ax * dw + ay * dz - az * dy;
        float y = aw * dy - ax * dz + ay * dw + az * dx;
        float z = aw * dz + ax * dy - ay * dx + az * dw;
        float qw = aw * dw - ax * dx - ay * dy - az * dz;
        sw__lane_normalize(&x, &y, &z, &qw);
        io->rx[l] = x;
        io->ry[l] = y;
        io->rz[l] = z;
        io->rw[l] = qw;
        io->sx[l] *= 1.0f + wl * (delta->sx[l] - 1.0f);
        io->sy[l] *= 1.0f + wl * (delta->sy[l] - 1.0f);
        io->sz[l] *= 1.0f + wl * (delta->sz[l] - 1.0f);
    }
}

static float sw__ratio_or_one(float a, float b) {
    return b != 0.0f ? a / b : 1.0f;
}

static void sw__scalar_additive_make(const sw_xform4* pose, const sw_xform4* ref, sw_xform4* out) {
    for (int l = 0; l < 4; ++l) {
        out->tx[l] = pose->tx[l] - ref->tx[l];
        out->ty[l] = pose->ty[l] - ref->ty[l];
        out->tz[l] = pose->tz[l] - ref->tz[l];
        /* conj(ref.r) * pose.r */
        float ax = -ref->rx[l], ay = -ref->ry[l], az = -ref->rz[l], aw = ref->rw[l];
        float bx = pose->rx[l], by = pose->ry[l], bz = pose->rz[l], bw = pose->rw[l];
        float x = aw * bx + ax * bw + ay * bz - az * by;
        float y = aw * by - ax * bz + ay * bw + az * bx;
        float z = aw * bz + ax * by - ay * bx + az * bw;
        float qw = aw * bw - ax * bx - ay * by - az * bz;
        out->rx[l] = x;
        out->ry[l] = y;
        out->rz[l] = z;
        out->rw[l] = qw;
        out->sx[l] = sw__ratio_or_one(pose->sx[l], ref->sx[l]);
        out->sy[l] = sw__ratio_or_one(pose->sy[l], ref->sy[l]);
        out->sz[l] = sw__ratio_or_one(pose->sz[l], ref->sz[l]);
    }
}

const sw__soa_ops sw__soa_scalar = {
    "scalar",
    sw__scalar_to_mat4,
    sw__scalar_mat4_mul,
    sw__scalar_blend_add,
    sw__scalar_blend_finish,
    sw__scalar_additive_apply,
    sw__scalar_additive_make,
};

const sw__soa_ops* sw__soa_best(void) {
#if SINEW_HAS_SSE2
    return &sw__soa_sse2;
#else
    return &sw__soa_scalar;
#endif
}
