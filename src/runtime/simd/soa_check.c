/* See soa_check.h. */
#include "soa_check.h"

#include <math.h>
#include <string.h>

#include "runtime/core/internal.h"

#define SW__CHECK_JOINTS 64u
#define SW__CHECK_PACKETS (SW__CHECK_JOINTS / 4u)
#define SW__CHECK_LAYERS 4u

/* Folds one value pair into *d; returns |v - r| / limit. */
static double sw__diff_value(float v, float r, double limit, sw_soa_diff* d) {
    double ratio;
    const double a = fabs((double)v - (double)r);
    if (isnan(v) || isnan(r)) {
        ratio = isnan(v) && isnan(r) ? 0.0 : INFINITY;
    } else {
        ratio = a / limit;
        if (a > d->max_abs) d->max_abs = a;
    }
    if (ratio > d->worst) {
        d->worst = ratio;
        d->worst_v = v;
        d->worst_r = r;
    }
    d->values++;
    if (memcmp(&v, &r, sizeof(float)) == 0) d->exact++;
    return ratio;
}

double sw_soa_packets_diff(const sw_xform4* v, const sw_xform4* r, uint32_t n, double tol,
                           sw_soa_diff* d) {
    const float* fv = v->tx;
    const float* fr = r->tx;
    double worst = 0.0;
    for (uint32_t i = 0; i < n * 40u; ++i) {
        const double x = sw__diff_value(fv[i], fr[i], tol * fmax(1.0, fabs((double)fr[i])), d);
        if (!(x <= worst)) worst = x;
    }
    return worst;
}

double sw_soa_mats_diff(const sw_mat4* v, const sw_mat4* r, uint32_t n, double tol,
                        sw_soa_diff* d) {
    double worst = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        for (int c = 0; c < 4; ++c) {
            const float* cv = &v[i].m[c * 4];
            const float* cr = &r[i].m[c * 4];
            double mag = 1.0;
            for (int k = 0; k < 4; ++k)
                if (fabs((double)cr[k]) > mag) mag = fabs((double)cr[k]);
            for (int k = 0; k < 4; ++k) {
                const double x = sw__diff_value(cv[k], cr[k], tol * mag, d);
                if (!(x <= worst)) worst = x;
            }
        }
    }
    return worst;
}

static const char* const sw__check_names[SW_SOA_CHECK_KERNELS] = {
    "blend", "additive_make", "additive_apply", "interp", "local_to_model", "skinning"};

const char* sw_soa_check_kernel_name(int k) {
    return k >= 0 && k < SW_SOA_CHECK_KERNELS ? sw__check_names[k] : "?";
}

/* xorshift32 mapped to [lo, hi). */
static float sw__check_rand(uint32_t* s, float lo, float hi) {
    uint32_t x = *s ? *s : 0x9E3779B9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return lo + (hi - lo) * (float)(x >> 8) * (1.0f / 16777216.0f);
}

/* Random packets: translations in [-t, t], unit rotations of either sign,
 * scales in [s_lo, s_hi]. */
static void sw__check_pose(uint32_t* s, sw_xform4* p, float t, float s_lo, float s_hi) {
    for (uint32_t k = 0; k < SW__CHECK_PACKETS; ++k) {
        for (uint32_t l = 0; l < 4; ++l) {
            float q[4], n2;
            do {
                for (int i = 0; i < 4; ++i)
                    q[i] = sw__check_rand(s, -1.0f, 1.0f);
                n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
            } while (!(n2 > 0.01f && n2 <= 1.0f));
            const float inv = 1.0f / sqrtf(n2);
            p[k].tx[l] = sw__check_rand(s, -t, t);
            p[k].ty[l] = sw__check_rand(s, -t, t);
            p[k].tz[l] = sw__check_rand(s, -t, t);
            p[k].rx[l] = q[0] * inv;
            p[k].ry[l] = q[1] * inv;
            p[k].rz[l] = q[2] * inv;
            p[k].rw[l] = q[3] * inv;
            p[k].sx[l] = sw__check_rand(s, s_lo, s_hi);
            p[k].sy[l] = sw__check_rand(s, s_lo, s_hi);
            p[k].sz[l] = sw__check_rand(s, s_lo, s_hi);
        }
    }
}

static void sw__check_mats(uint32_t* s, sw_mat4* m, uint32_t n, float lim) {
    for (uint32_t j = 0; j < n; ++j)
        for (int i = 0; i < 16; ++i)
            m[j].m[i] = sw__check_rand(s, -lim, lim);
}

double sw_soa_check(const sw__soa_ops* path, uint32_t seed, uint32_t rounds,
                    sw_soa_diff out[SW_SOA_CHECK_KERNELS]) {
    memset(out, 0, sizeof(sw_soa_diff) * SW_SOA_CHECK_KERNELS);
    uint32_t s = seed;
    sw_xform4 layers[SW__CHECK_LAYERS][SW__CHECK_PACKETS], rest[SW__CHECK_PACKETS];
    sw_xform4 a[SW__CHECK_PACKETS], b[SW__CHECK_PACKETS];
    float joint_weights[SW__CHECK_LAYERS][SW__CHECK_JOINTS];
    sw_mat4 ma[SW__CHECK_JOINTS], mb[SW__CHECK_JOINTS], ib[SW__CHECK_JOINTS], sb[SW__CHECK_JOINTS];
    int16_t parents[SW__CHECK_JOINTS];
    uint32_t depth[SW__CHECK_JOINTS];
    uint16_t joints[SW__CHECK_JOINTS];

    for (uint32_t round = 0; round < rounds; ++round) {
        /* Blend: 0..4 layers (0: the rest pose), joint weights on some
         * layers, with values outside [0, 1] and NaN to clamp. */
        const uint32_t count = round % (SW__CHECK_LAYERS + 1u);
        sw__blend_input in[SW__CHECK_LAYERS];
        for (uint32_t i = 0; i < SW__CHECK_LAYERS; ++i) {
            sw__check_pose(&s, layers[i], 10.0f, 0.2f, 3.0f);
            for (uint32_t j = 0; j < SW__CHECK_JOINTS; ++j)
                joint_weights[i][j] = j % 13u == 0 ? NAN : sw__check_rand(&s, -0.25f, 1.25f);
            in[i].pose = layers[i];
            in[i].joint_weights = (round + i) % 3u == 0 ? joint_weights[i] : NULL;
            in[i].weight = sw__check_rand(&s, 0.01f, 1.5f);
        }
        sw__check_pose(&s, rest, 10.0f, 0.2f, 3.0f);
        const float threshold = sw__check_rand(&s, 0.05f, 0.5f);
        sw__soa_scalar.blend(in, count, rest, threshold, a, SW__CHECK_PACKETS);
        path->blend(in, count, rest, threshold, b, SW__CHECK_PACKETS);
        sw_soa_packets_diff(b, a, SW__CHECK_PACKETS, SW_SOA_PATH_TOL, &out[SW_SOA_CHECK_BLEND]);

        /* Additive: the delta of layer 1 against layer 0, and layer 3 as a
         * delta applied to the rest pose at a weight in [-0.5, 1.5]. */
        sw__soa_scalar.additive_make(layers[1], layers[0], a, SW__CHECK_PACKETS);
        path->additive_make(layers[1], layers[0], b, SW__CHECK_PACKETS);
        sw_soa_packets_diff(b, a, SW__CHECK_PACKETS, SW_SOA_PATH_TOL,
                            &out[SW_SOA_CHECK_ADDITIVE_MAKE]);
        const float w = sw__check_rand(&s, -0.5f, 1.5f);
        const float* jw = round % 2u ? joint_weights[2] : NULL;
        const bool clamp = round % 4u < 2u;
        sw__soa_scalar.additive_apply(rest, layers[3], w, jw, clamp, a, SW__CHECK_PACKETS);
        path->additive_apply(rest, layers[3], w, jw, clamp, b, SW__CHECK_PACKETS);
        sw_soa_packets_diff(b, a, SW__CHECK_PACKETS, SW_SOA_PATH_TOL,
                            &out[SW_SOA_CHECK_ADDITIVE_APPLY]);

        /* Interpolation between two layers at u in [0, 1]. */
        const float u = sw__check_rand(&s, 0.0f, 1.0f);
        sw__soa_scalar.interp(layers[0], layers[2], u, a, SW__CHECK_PACKETS);
        path->interp(layers[0], layers[2], u, b, SW__CHECK_PACKETS);
        sw_soa_packets_diff(b, a, SW__CHECK_PACKETS, SW_SOA_PATH_TOL, &out[SW_SOA_CHECK_INTERP]);

        /* Local-to-model on a random parent-first tree (mostly chains, some
         * branches and roots), with a root transform every other round; then
         * new locals for a random subset from a random first joint on top of
         * the scalar result. */
        for (uint32_t j = 0; j < SW__CHECK_JOINTS; ++j) {
            const float r = sw__check_rand(&s, 0.0f, 1.0f);
            parents[j] = j == 0 || r < 0.05f ? -1
                         : r < 0.6f          ? (int16_t)(j - 1u)
                                             : (int16_t)sw__check_rand(&s, 0.0f, (float)j);
            depth[j] = parents[j] < 0 ? 0u : depth[parents[j]] + 1u;
        }
        sw__check_pose(&s, a, 2.0f, 0.8f, 1.25f);
        sw_mat4 root;
        sw__check_mats(&s, &root, 1, 2.0f);
        const sw_mat4* rootp = round % 2u ? &root : NULL;
        sw__soa_scalar.local_to_model(a, parents, SW__CHECK_JOINTS, 0, NULL, rootp, ma);
        path->local_to_model(a, parents, SW__CHECK_JOINTS, 0, NULL, rootp, mb);
        for (uint32_t j = 0; j < SW__CHECK_JOINTS; ++j)
            sw_soa_mats_diff(&mb[j], &ma[j], 1, SW_SOA_L2M_TOL(depth[j]),
                             &out[SW_SOA_CHECK_LOCAL_TO_MODEL]);
        uint32_t subset[SW__CHECK_JOINTS / 32u];
        for (uint32_t i = 0; i < SW__CHECK_JOINTS / 32u; ++i)
            subset[i] = (uint32_t)sw__check_rand(&s, 0.0f, 65536.0f) << 16 |
                        (uint32_t)sw__check_rand(&s, 0.0f, 65536.0f);
        const uint32_t first = (uint32_t)sw__check_rand(&s, 0.0f, (float)SW__CHECK_JOINTS);
        sw__check_pose(&s, a, 2.0f, 0.8f, 1.25f);
        memcpy(mb, ma, sizeof(sw_mat4) * SW__CHECK_JOINTS);
        sw__soa_scalar.local_to_model(a, parents, SW__CHECK_JOINTS, first, subset, rootp, ma);
        path->local_to_model(a, parents, SW__CHECK_JOINTS, first, subset, rootp, mb);
        for (uint32_t j = 0; j < SW__CHECK_JOINTS; ++j)
            sw_soa_mats_diff(&mb[j], &ma[j], 1, SW_SOA_L2M_TOL(depth[j]),
                             &out[SW_SOA_CHECK_LOCAL_TO_MODEL]);

        /* Skinning: random factors in [-5, 5], through a joint table every
         * other round. */
        sw__check_mats(&s, ma, SW__CHECK_JOINTS, 5.0f);
        sw__check_mats(&s, ib, SW__CHECK_JOINTS, 5.0f);
        for (uint32_t j = 0; j < SW__CHECK_JOINTS; ++j)
            joints[j] = (uint16_t)sw__check_rand(&s, 0.0f, (float)SW__CHECK_JOINTS);
        const uint16_t* table = round % 2u ? joints : NULL;
        sw__soa_scalar.skinning(ma, table, ib, mb, SW__CHECK_JOINTS);
        path->skinning(ma, table, ib, sb, SW__CHECK_JOINTS);
        sw_soa_mats_diff(sb, mb, SW__CHECK_JOINTS, SW_SOA_SKINNING_TOL,
                         &out[SW_SOA_CHECK_SKINNING]);
    }
    double worst = 0.0;
    for (int k = 0; k < SW_SOA_CHECK_KERNELS; ++k)
        if (!(out[k].worst <= worst)) worst = out[k].worst;
    return worst;
}

double sw_soa_check_best(uint32_t seed, uint32_t rounds, sw_soa_diff out[SW_SOA_CHECK_KERNELS],
                         const char** path_name) {
    const sw__soa_ops* path = sw__soa_best();
    if (path_name) *path_name = path->name;
    return sw_soa_check(path, seed, rounds, out);
}
