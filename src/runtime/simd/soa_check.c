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

double sw_soa_vec3_diff(const float* v, const float* r, uint32_t n, double tol, sw_soa_diff* d) {
    double worst = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        double mag = 1.0;
        for (uint32_t k = 0; k < 3u; ++k)
            if (fabs((double)r[3 * i + k]) > mag) mag = fabs((double)r[3 * i + k]);
        for (uint32_t k = 0; k < 3u; ++k) {
            const double x = sw__diff_value(v[3 * i + k], r[3 * i + k], tol * mag, d);
            if (!(x <= worst)) worst = x;
        }
    }
    return worst;
}

static const char* const sw__check_names[SW_SOA_CHECK_KERNELS] = {
    "blend",    "additive_make", "additive_apply", "interp", "local_to_model",
    "skinning", "skin_lbs",      "skin_dq",        "morph"};

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

#define SW__CHECK_VERTICES 32u
#define SW__CHECK_PALETTE 16u
#define SW__CHECK_TARGETS 3u

/* Vertex data of the skinning and morph checks. */
typedef struct sw__check_mesh {
    float pos[3 * SW__CHECK_VERTICES], nrm[3 * SW__CHECK_VERTICES];
    float w[4 * SW__CHECK_VERTICES];
    uint16_t j[4 * SW__CHECK_VERTICES];
    float deltas[3 * SW__CHECK_VERTICES * SW__CHECK_TARGETS];
    sw_mat4 pal[SW__CHECK_PALETTE], ib[SW__CHECK_PALETTE];
    SINEW_ALIGN16 sw_dq_transform dq[SW__CHECK_PALETTE];
    float out[4][3 * SW__CHECK_VERTICES]; /* scalar, path: positions, normals */
} sw__check_mesh;

/* Random vertices: 1..4 influences (unused slots: weight 0, index past the
 * palette), palettes of rotations, translations up to 5 and scales in
 * [0.5, 2] (uniform 1 every other round: the rigid DQ path). */
static void sw__check_mesh_fill(uint32_t* s, sw__check_mesh* m, uint32_t round) {
    for (uint32_t i = 0; i < 3 * SW__CHECK_VERTICES; ++i) {
        m->pos[i] = sw__check_rand(s, -2.0f, 2.0f);
        m->nrm[i] = sw__check_rand(s, -1.0f, 1.0f);
    }
    for (uint32_t i = 0; i < 3 * SW__CHECK_VERTICES * SW__CHECK_TARGETS; ++i)
        m->deltas[i] = sw__check_rand(s, -0.5f, 0.5f);
    for (uint32_t v = 0; v < SW__CHECK_VERTICES; ++v) {
        const uint32_t n = 1u + (v + round) % 4u;
        float sum = 0.0f;
        for (uint32_t k = 0; k < 4; ++k) {
            m->w[4 * v + k] = k < n ? sw__check_rand(s, 0.05f, 1.0f) : 0.0f;
            m->j[4 * v + k] = k < n ? (uint16_t)sw__check_rand(s, 0.0f, (float)SW__CHECK_PALETTE)
                                    : (uint16_t)(SW__CHECK_PALETTE + v);
            sum += m->w[4 * v + k];
        }
        for (uint32_t k = 0; k < 4; ++k)
            m->w[4 * v + k] /= sum;
    }
    sw_xform4 x[SW__CHECK_PACKETS];
    sw__check_pose(s, x, 5.0f, 0.5f, 2.0f);
    for (uint32_t j = 0; j < SW__CHECK_PALETTE; ++j) {
        sw_xform t = sw_xform4_get(&x[j / 4u], j % 4u);
        if (round % 2u) t.s = sw_vec3_make(1.0f, 1.0f, 1.0f);
        m->pal[j] = sw_mat4_from_xform(t);
        m->ib[j] = sw_mat4_identity();
    }
    const sw_dq_palette_job pj = {m->pal, SW__CHECK_PALETTE, NULL, m->ib, SW__CHECK_PALETTE,
                                  m->dq,  SW__CHECK_PALETTE, NULL};
    (void)sw_dq_palette_job_run(&pj);
}

/* The skinning and morph kernels of `path` against scalar on m. */
static void sw__check_vertices(const sw__soa_ops* path, sw__check_mesh* m, uint32_t round,
                               sw_soa_diff out[SW_SOA_CHECK_KERNELS]) {
    const uint32_t n = SW__CHECK_VERTICES;
    sw__skin_args a = {m->pos, m->nrm,          m->j,  m->w,      m->pal,   SW__CHECK_PALETTE, 0,
                       n,      round % 3u == 0, false, m->out[0], m->out[1]};
    for (int kind = 0; kind < 2; ++kind) {
        const int k = kind ? SW_SOA_CHECK_SKIN_DQ : SW_SOA_CHECK_SKIN_LBS;
        a.palette = kind ? (const void*)m->dq : (const void*)m->pal;
        a.scaled = kind && round % 2u == 0;
        a.out_positions = m->out[0];
        a.out_normals = m->out[1];
        (kind ? sw__soa_scalar.skin_dq : sw__soa_scalar.skin_lbs)(&a);
        a.out_positions = m->out[2];
        a.out_normals = m->out[3];
        (kind ? path->skin_dq : path->skin_lbs)(&a);
        sw_soa_vec3_diff(m->out[2], m->out[0], n, SW_SOA_SKIN_TOL, &out[k]);
        sw_soa_vec3_diff(m->out[3], m->out[1], n, SW_SOA_SKIN_TOL, &out[k]);
    }
    const float w[SW__CHECK_TARGETS] = {0.3f, -1.25f, 0.8f};
    const uint32_t targets[SW__CHECK_TARGETS] = {2, 0, 1};
    const uint32_t count = round % (SW__CHECK_TARGETS + 1u);
    /* Lengths of every remainder mod 4: the SIMD tails run too. */
    const size_t len = 3u * (n - round % 4u);
    sw__soa_scalar.morph(m->pos, m->deltas, 3u * n, w, targets, count, m->out[0], len);
    path->morph(m->pos, m->deltas, 3u * n, w, targets, count, m->out[2], len);
    sw_soa_vec3_diff(m->out[2], m->out[0], (uint32_t)(len / 3u), SW_SOA_MORPH_TOL(count),
                     &out[SW_SOA_CHECK_MORPH]);
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
    sw__check_mesh mesh;

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
        sw__soa_scalar.local_to_model(a, NULL, parents, SW__CHECK_JOINTS, 0, NULL, rootp, ma);
        path->local_to_model(a, NULL, parents, SW__CHECK_JOINTS, 0, NULL, rootp, mb);
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
        sw__soa_scalar.local_to_model(a, NULL, parents, SW__CHECK_JOINTS, first, subset, rootp, ma);
        path->local_to_model(a, NULL, parents, SW__CHECK_JOINTS, first, subset, rootp, mb);
        for (uint32_t j = 0; j < SW__CHECK_JOINTS; ++j)
            sw_soa_mats_diff(&mb[j], &ma[j], 1, SW_SOA_L2M_TOL(depth[j]),
                             &out[SW_SOA_CHECK_LOCAL_TO_MODEL]);
        /* the same subset with a rest pose for the joints it leaves out */
        sw__check_pose(&s, b, 2.0f, 0.8f, 1.25f);
        sw__soa_scalar.local_to_model(a, b, parents, SW__CHECK_JOINTS, 0, subset, rootp, ma);
        path->local_to_model(a, b, parents, SW__CHECK_JOINTS, 0, subset, rootp, mb);
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

        /* Vertex skinning and morph targets. */
        sw__check_mesh_fill(&s, &mesh, round);
        sw__check_vertices(path, &mesh, round, out);
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
