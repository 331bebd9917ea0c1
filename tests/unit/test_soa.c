/* SoA kernels (src/runtime/core/internal.h, sw__soa_ops): the scalar reference
 * against independent expectations (the contracts evaluated here in double or
 * through math.h, closed forms, properties), then every other path listed by
 * sw__soa_paths against scalar on random arrays of packets with edge cases
 * (opposite hemispheres, zero, NaN, negative and > 1 joint weights, threshold
 * fill, in-place outputs, zero reference scales, sub-trees, non-affine
 * matrices).
 * Path agreement tolerance: |path - scalar| <= 1e-6 * max(1, |scalar|) per
 * value (absolute for values up to 1, relative above: translations reach
 * 10). Matrices (local-to-model chains, skinning): |path - scalar| <= 1e-6 *
 * max(1, largest |value| of that matrix column) * (chain depth + 2), because
 * fused multiply-adds and sums of terms much larger than their result make
 * the error track the terms, not the result. The comparison and these
 * tolerances are src/runtime/simd/soa_check.h, shared with the viewer's SIMD
 * self-check (wasm128 in the browser), which test_paths_self_check runs here
 * on every native path. Scalar-vs-expectation tolerances are stated at each
 * check. */
#include "test_util.h"

#include "runtime/core/internal.h"
#include "runtime/simd/soa_check.h"

#define ITERATIONS 3000
#define PACKETS 7
#define PATH_TOL SW_SOA_PATH_TOL

static float frand(uint32_t* s, float lo, float hi) {
    return sw_test_rand(s, lo, hi);
}

static sw_quat rand_quat_any_sign(uint32_t* s) {
    sw_quat q = sw_test_rand_quat(s);
    return frand(s, 0, 1) < 0.5f ? sw_quat_negate(q) : q;
}

static sw_xform rand_xform(uint32_t* s) {
    sw_xform x;
    x.t = sw_vec3_make(frand(s, -10, 10), frand(s, -10, 10), frand(s, -10, 10));
    x.r = rand_quat_any_sign(s);
    x.s = sw_vec3_make(frand(s, 0.2f, 3), frand(s, 0.2f, 3), frand(s, 0.2f, 3));
    return x;
}

static void rand_packet(uint32_t* s, sw_xform4* p) {
    for (uint32_t l = 0; l < 4; ++l)
        sw_xform4_set(p, l, rand_xform(s));
}

static void negate_rotations(sw_xform4* p, uint32_t lanes) {
    for (uint32_t l = 0; l < 4; ++l) {
        if (!(lanes & (1u << l))) continue;
        p->rx[l] = -p->rx[l];
        p->ry[l] = -p->ry[l];
        p->rz[l] = -p->rz[l];
        p->rw[l] = -p->rw[l];
    }
}

/* Path against scalar through the comparison the viewer's self-check shares
 * (src/runtime/simd/soa_check.c): fails on the first call that goes beyond. */
typedef sw_soa_diff diff_stats;

static void check_diff(double worst, const diff_stats* st) {
    if (!(worst <= 1.0))
        fail_msg("%.9g vs scalar %.9g (|diff| %.3g times the tolerance)", (double)st->worst_v,
                 (double)st->worst_r, st->worst);
}

static void packets_near(const sw_xform4* a, const sw_xform4* b, uint32_t n, double tol,
                         diff_stats* st) {
    check_diff(sw_soa_packets_diff(a, b, n, tol, st), st);
}

static void mats_near(const sw_mat4* a, const sw_mat4* b, double tol, diff_stats* st) {
    check_diff(sw_soa_mats_diff(a, b, 1, tol, st), st);
}

static void report(const char* path, const char* kernel, const diff_stats* st) {
    print_message("%s %s vs scalar over %llu values: max |diff| %.3g (%.2f of the tolerance), "
                  "bit-identical %.2f%%\n",
                  path, kernel, (unsigned long long)st->values, st->max_abs, st->worst,
                  st->values ? 100.0 * (double)st->exact / (double)st->values : 0.0);
}

static void xform4_near(const sw_xform4* a, const sw_xform4* b, float tol) {
    for (uint32_t l = 0; l < 4; ++l) {
        sw_xform x = sw_xform4_get(a, l), y = sw_xform4_get(b, l);
        sw_test_vec3_near(x.t, y.t, tol * fmaxf(1.0f, fabsf(y.t.x) + fabsf(y.t.y) + fabsf(y.t.z)));
        sw_test_quat_near(x.r, y.r, tol);
        sw_test_vec3_near(x.s, y.s, tol * 3.0f);
    }
}

static void test_paths(void** state) {
    (void)state;
    uint32_t n = 0;
    const sw__soa_ops* const* paths = sw__soa_paths(&n);
    assert_true(n >= 1);
    assert_ptr_equal(paths[0], &sw__soa_scalar);
    assert_string_equal(paths[0]->name, "scalar");
    assert_ptr_equal(sw__soa_best(), paths[n - 1]);
    for (uint32_t i = 0; i < n; ++i) {
        const sw__soa_ops* o = paths[i];
        print_message("path %u: %s\n", i, o->name);
        assert_non_null(o->blend);
        assert_non_null(o->additive_apply);
        assert_non_null(o->additive_make);
        assert_non_null(o->interp);
        assert_non_null(o->local_to_model);
        assert_non_null(o->skinning);
        for (uint32_t k = 0; k < i; ++k)
            assert_true(strcmp(paths[k]->name, o->name) != 0);
    }
#if !defined(SINEW_NO_SIMD) && defined(__x86_64__)
    assert_true(n >= 2);
    assert_string_equal(paths[1]->name, "sse2");
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        assert_int_equal(n, 4);
        assert_string_equal(paths[3]->name, "avx2");
    }
#elif defined(SINEW_NO_SIMD)
    assert_int_equal(n, 1);
#endif
}

/* ---- scalar reference against independent expectations ---- */

/* One layer per pose with weight 1 and per-lane joint weights w[k]. */
static void blend_lanes(const sw__soa_ops* ops, const sw_xform4* layers, const float (*w)[4],
                        uint32_t n, const sw_xform4* rest, float threshold, sw_xform4* out) {
    sw__blend_input in[4];
    for (uint32_t k = 0; k < n; ++k)
        in[k] = (sw__blend_input){&layers[k], w[k], 1.0f};
    ops->blend(in, n, rest, threshold, out, 1);
}

static void test_scalar_local_matrix(void** state) {
    (void)state;
    uint32_t s = 101;
    const int16_t roots[4] = {-1, -1, -1, -1};
    sw_mat4 root;
    for (int i = 0; i < 16; ++i)
        root.m[i] = (float)((i * 7) % 5) - 2.0f;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_xform4 p;
        rand_packet(&s, &p);
        sw_mat4 m[4], r[4];
        sw__soa_scalar.local_to_model(&p, NULL, roots, 4, 0, NULL, NULL, m);
        sw__soa_scalar.local_to_model(&p, NULL, roots, 4, 0, NULL, &root, r);
        for (uint32_t l = 0; l < 4; ++l) {
            sw_xform x = sw_xform4_get(&p, l);
            sw_mat4 e = sw_mat4_from_xform(x);
            for (int i = 0; i < 16; ++i)
                assert_near(m[l].m[i], e.m[i], 1e-6 * fmax(1, fabs(e.m[i])));
            /* Points map as t + r * (s * p). */
            sw_vec3 v = sw_vec3_make(frand(&s, -2, 2), frand(&s, -2, 2), frand(&s, -2, 2));
            sw_test_vec3_near(sw_mat4_point(&m[l], v), sw_xform_point(x, v), 1e-4f);
            /* With a root (any 4x4): root * local, in double. */
            for (int c = 0; c < 4; ++c)
                for (int row = 0; row < 4; ++row) {
                    double d = 0;
                    for (int k = 0; k < 4; ++k)
                        d += (double)root.m[k * 4 + row] * e.m[c * 4 + k];
                    assert_near(r[l].m[c * 4 + row], d, 1e-4);
                }
        }
    }
}

static void test_scalar_blend_properties(void** state) {
    (void)state;
    uint32_t s = 107;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_xform4 layers[2], rest, out;
        rand_packet(&s, &layers[0]);
        rand_packet(&s, &layers[1]);
        rand_packet(&s, &rest);
        float thr = frand(&s, 0.01f, 0.5f);

        /* Joint weights 1/0 select a layer, per lane. */
        const float sel[2][4] = {{1, 0, 1, 0}, {0, 1, 0, 1}};
        blend_lanes(&sw__soa_scalar, layers, sel, 2, &rest, thr, &out);
        for (uint32_t l = 0; l < 4; ++l) {
            sw_xform e = sw_xform4_get(&layers[l & 1u], l), g = sw_xform4_get(&out, l);
            sw_test_vec3_near(g.t, e.t, 1e-5f);
            sw_test_quat_near(g.r, e.r, 1e-6f);
            sw_test_vec3_near(g.s, e.s, 1e-6f);
        }

        /* A pose blended with itself, its second copy's rotations negated,
         * returns it: opposite signs must not cancel. */
        sw_xform4 same[2] = {layers[0], layers[0]};
        negate_rotations(&same[1], 0xFu);
        float a = frand(&s, 0.05f, 0.95f);
        const float half[2][4] = {{a, a, a, a}, {1 - a, 1 - a, 1 - a, 1 - a}};
        blend_lanes(&sw__soa_scalar, same, half, 2, &rest, thr, &out);
        xform4_near(&out, &layers[0], 2e-6f);

        /* No layer at all: the rest pose. */
        blend_lanes(&sw__soa_scalar, layers, sel, 0, &rest, thr, &out);
        xform4_near(&out, &rest, 1e-6f);
    }
}

/* One layer of weight W with joint weights (zeros, values outside [0, 1],
 * NaN) against the contract in double: rest fill below the threshold. */
static void test_scalar_blend_formula(void** state) {
    (void)state;
    uint32_t s = 109;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_xform4 x, rest, out;
        rand_packet(&s, &x);
        rand_packet(&s, &rest);
        const float W = frand(&s, 0.01f, 2.0f), thr = frand(&s, 0.05f, 1.0f);
        float jw[4];
        for (int l = 0; l < 4; ++l)
            jw[l] = frand(&s, -0.2f, 1.2f);
        if (it % 3 == 0) jw[it % 4] = NAN;
        if (it % 5 == 0) jw[(it + 1) % 4] = 0.0f;
        const sw__blend_input in = {&x, jw, W};
        sw__soa_scalar.blend(&in, 1, &rest, thr, &out, 1);
        for (uint32_t l = 0; l < 4; ++l) {
            double j = jw[l] >= 0 ? fmin(jw[l], 1.0) : 0.0;
            double w = (double)W * j, fill = fmax(0.0, (double)thr - w), den = fmax(w, (double)thr);
            sw_xform a = sw_xform4_get(&x, l), r = sw_xform4_get(&rest, l),
                     g = sw_xform4_get(&out, l);
            assert_near(g.t.x, (w * a.t.x + fill * r.t.x) / den, 2e-5 * fmax(1.0, fabs(g.t.x)));
            assert_near(g.t.z, (w * a.t.z + fill * r.t.z) / den, 2e-5 * fmax(1.0, fabs(g.t.z)));
            assert_near(g.s.y, (w * a.s.y + fill * r.s.y) / den, 2e-5 * fmax(1.0, fabs(g.s.y)));
            double q[4] = {w * a.r.x, w * a.r.y, w * a.r.z, w * a.r.w};
            double rr[4] = {r.r.x, r.r.y, r.r.z, r.r.w};
            double d = q[0] * rr[0] + q[1] * rr[1] + q[2] * rr[2] + q[3] * rr[3];
            double f = d < 0 ? -fill : fill, len = 0;
            for (int k = 0; k < 4; ++k) {
                q[k] += f * rr[k];
                len += q[k] * q[k];
            }
            len = sqrt(len);
            sw_test_quat_near(g.r,
                              sw_quat_make((float)(q[0] / len), (float)(q[1] / len),
                                           (float)(q[2] / len), (float)(q[3] / len)),
                              1e-5f);
        }
    }
}

static void test_scalar_additive(void** state) {
    (void)state;
    uint32_t s = 113;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_xform4 pose, ref, delta, io;
        rand_packet(&s, &pose);
        rand_packet(&s, &ref);
        sw__soa_scalar.additive_make(&pose, &ref, &delta, 1);
        for (uint32_t l = 0; l < 4; ++l) {
            sw_xform p = sw_xform4_get(&pose, l), r = sw_xform4_get(&ref, l);
            sw_xform d = sw_xform4_get(&delta, l);
            sw_test_vec3_near(d.t, sw_vec3_sub(p.t, r.t), 0.0f);
            sw_test_quat_near(d.r, sw_quat_mul(sw_quat_conjugate(r.r), p.r), 1e-6f);
            assert_near(d.s.x, p.s.x / r.s.x, 1e-6 * d.s.x);
        }
        /* make then apply with w = 1 on the reference gives the pose back. */
        sw__soa_scalar.additive_apply(&ref, &delta, 1.0f, NULL, false, &io, 1);
        xform4_near(&io, &pose, 2e-6f);

        /* Any weight, against the contract through math.h: t += w dt,
         * r = normalize(r * nlerp(identity, dr, w)), s *= 1 + w (ds - 1). */
        float jw[4];
        for (int l = 0; l < 4; ++l)
            jw[l] = frand(&s, -0.5f, 1.5f);
        const float weight = frand(&s, -1.0f, 1.0f);
        sw__soa_scalar.additive_apply(&pose, &delta, weight, jw, false, &io, 1);
        for (uint32_t l = 0; l < 4; ++l) {
            const float w = weight * jw[l];
            sw_xform p = sw_xform4_get(&pose, l), d = sw_xform4_get(&delta, l);
            sw_xform g = sw_xform4_get(&io, l);
            sw_test_vec3_near(g.t, sw_vec3_add(p.t, sw_vec3_scale(d.t, w)), 1e-5f);
            sw_quat e =
                sw_quat_normalize(sw_quat_mul(p.r, sw_quat_nlerp(sw_quat_identity(), d.r, w)));
            sw_test_quat_near(g.r, e, 1e-5f);
            assert_near(g.s.y, p.s.y * (1.0 + w * (d.s.y - 1.0)), 1e-5 * fmax(1.0, g.s.y));
        }
        /* Clamped joint weights: -1 and NaN count as 0, 2 as 1. */
        const float odd[4] = {-1.0f, NAN, 2.0f, 0.5f}, clamped[4] = {0.0f, 0.0f, 1.0f, 0.5f};
        sw_xform4 c1, c2;
        sw__soa_scalar.additive_apply(&pose, &delta, 0.8f, odd, true, &c1, 1);
        sw__soa_scalar.additive_apply(&pose, &delta, 0.8f, clamped, false, &c2, 1);
        assert_memory_equal(&c1, &c2, sizeof(c1));
    }
    /* Half weight of a rotation by theta about an axis turns by theta / 2,
     * whichever sign the delta quaternion has; zero weight leaves the pose. */
    sw_xform4 io, delta, out;
    sw_xform4_identity(&io);
    sw_xform4_identity(&delta);
    sw_vec3 axis = {0.3f, -1.0f, 0.5f};
    sw_quat dq = sw_quat_from_axis_angle(axis, 2.6f);
    sw_xform dx = sw_xform_identity();
    dx.r = dq;
    sw_xform4_set(&delta, 0, dx);
    dx.r = sw_quat_negate(dq);
    sw_xform4_set(&delta, 1, dx);
    sw_xform4_set(&delta, 2, dx);
    const float w[4] = {0.5f, 0.5f, 0.0f, 1.0f};
    sw__soa_scalar.additive_apply(&io, &delta, 1.0f, w, false, &out, 1);
    sw_quat halfq = sw_quat_from_axis_angle(axis, 1.3f);
    sw_test_quat_near(sw_xform4_get(&out, 0).r, halfq, 1e-6f);
    sw_test_quat_near(sw_xform4_get(&out, 1).r, halfq, 1e-6f);
    sw_test_quat_near(sw_xform4_get(&out, 2).r, sw_quat_identity(), 0.0f);

    /* Zero reference scale gives a delta scale of 1. */
    uint32_t s2 = 5;
    sw_xform4 pose, ref, d;
    rand_packet(&s2, &pose);
    rand_packet(&s2, &ref);
    ref.sx[1] = 0.0f;
    ref.sz[3] = 0.0f;
    sw__soa_scalar.additive_make(&pose, &ref, &d, 1);
    assert_near(d.sx[1], 1.0f, 0.0f);
    assert_near(d.sz[3], 1.0f, 0.0f);
}

/* interp against the contract in double; u = 0 and 1 give the end poses. */
static void test_scalar_interp(void** state) {
    (void)state;
    uint32_t s = 131;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_xform4 a, b, out;
        rand_packet(&s, &a);
        rand_packet(&s, &b);
        const float u = it % 7 == 0 ? 0.0f : it % 7 == 1 ? 1.0f : frand(&s, 0.0f, 1.0f);
        sw__soa_scalar.interp(&a, &b, u, &out, 1);
        for (uint32_t l = 0; l < 4; ++l) {
            sw_xform x = sw_xform4_get(&a, l), y = sw_xform4_get(&b, l), g = sw_xform4_get(&out, l);
            assert_near(g.t.y, x.t.y + (double)u * ((double)y.t.y - x.t.y), 1e-5);
            assert_near(g.s.z, x.s.z + (double)u * ((double)y.s.z - x.s.z), 1e-5);
            double sgn = sw_quat_dot(x.r, y.r) < 0 ? -1.0 : 1.0;
            double q[4] = {x.r.x + u * (sgn * y.r.x - x.r.x), x.r.y + u * (sgn * y.r.y - x.r.y),
                           x.r.z + u * (sgn * y.r.z - x.r.z), x.r.w + u * (sgn * y.r.w - x.r.w)};
            double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            sw_test_quat_near(g.r,
                              sw_quat_make((float)(q[0] / len), (float)(q[1] / len),
                                           (float)(q[2] / len), (float)(q[3] / len)),
                              1e-6f);
            if (u == 0.0f) sw_test_quat_near(g.r, x.r, 1e-6f);
            if (u == 1.0f) sw_test_quat_near(g.r, y.r, 1e-6f);
        }
    }
}

/* ---- every path against scalar ---- */

static SINEW_ALIGN16 sw_xform4 g_in[5][PACKETS], g_rest[PACKETS], g_out_s[PACKETS],
    g_out_p[PACKETS];
static float g_jw[4][PACKETS * 4];

/* Random packets; some rotations negated so layers sit on opposite hemispheres. */
static void rand_arrays(uint32_t* s) {
    for (int k = 0; k < 5; ++k)
        for (int p = 0; p < PACKETS; ++p) {
            rand_packet(s, &g_in[k][p]);
            negate_rotations(&g_in[k][p], (uint32_t)(frand(s, 0, 15.99f)));
        }
    for (int p = 0; p < PACKETS; ++p)
        rand_packet(s, &g_rest[p]);
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < PACKETS * 4; ++i) {
            float r = frand(s, 0, 1);
            g_jw[k][i] = r < 0.1f    ? 0.0f
                         : r < 0.13f ? NAN
                         : r < 0.16f ? -0.5f
                         : r < 0.2f  ? 1.5f
                                     : frand(s, 0, 1);
        }
}

static void test_paths_blend(void** state) {
    (void)state;
    uint32_t n;
    const sw__soa_ops* const* paths = sw__soa_paths(&n);
    for (uint32_t k = 1; k < n; ++k) {
        diff_stats st = {0};
        uint32_t s = 211;
        for (int it = 0; it < ITERATIONS / 4; ++it) {
            rand_arrays(&s);
            sw__blend_input in[4];
            const uint32_t count = (uint32_t)it % 5u;
            for (uint32_t i = 0; i < count; ++i) {
                /* Small weights often leave joints below the threshold. */
                in[i].pose = g_in[i];
                in[i].weight =
                    frand(&s, 0, 1) < 0.3f ? frand(&s, 0.001f, 0.05f) : frand(&s, 0.01f, 2.0f);
                in[i].joint_weights = frand(&s, 0, 1) < 0.5f ? g_jw[i] : NULL;
            }
            if (it % 20 == 2) {
                /* A crossfade: weights 1 - w and w, which sum to exactly 1
                 * (the SIMD paths leave out the scaling by 1 / sum then). */
                const float w = (float)(it % 21 + 1) / 23.0f;
                in[0] = (sw__blend_input){.pose = g_in[0], .weight = 1.0f - w};
                in[1] = (sw__blend_input){.pose = g_in[1], .weight = w};
                assert_true(in[0].weight + in[1].weight == 1.0f);
            }
            const float thr = frand(&s, 0.01f, 0.5f);
            sw__soa_scalar.blend(in, count, g_rest, thr, g_out_s, PACKETS);
            paths[k]->blend(in, count, g_rest, thr, g_out_p, PACKETS);
            packets_near(g_out_p, g_out_s, PACKETS, PATH_TOL, &st);
        }
        report(paths[k]->name, "blend", &st);
    }
}

static void test_paths_additive(void** state) {
    (void)state;
    uint32_t n;
    const sw__soa_ops* const* paths = sw__soa_paths(&n);
    for (uint32_t k = 1; k < n; ++k) {
        diff_stats st_make = {0}, st_apply = {0};
        uint32_t s = 223;
        for (int it = 0; it < ITERATIONS / 4; ++it) {
            rand_arrays(&s);
            g_in[1][it % PACKETS].sy[it % 4] = 0.0f; /* zero reference scale */
            sw__soa_scalar.additive_make(g_in[0], g_in[1], g_out_s, PACKETS);
            paths[k]->additive_make(g_in[0], g_in[1], g_out_p, PACKETS);
            packets_near(g_out_p, g_out_s, PACKETS, PATH_TOL, &st_make);

            const float w = frand(&s, -0.5f, 1.5f);
            const bool clamp = it & 1;
            const float* jw = it % 3 ? g_jw[0] : NULL;
            sw__soa_scalar.additive_apply(g_in[2], g_out_s, w, jw, clamp, g_out_p, PACKETS);
            /* The path in place: out == base. */
            paths[k]->additive_apply(g_in[2], g_out_s, w, jw, clamp, g_in[2], PACKETS);
            packets_near(g_in[2], g_out_p, PACKETS, PATH_TOL, &st_apply);
        }
        report(paths[k]->name, "additive_make", &st_make);
        report(paths[k]->name, "additive_apply", &st_apply);
    }
}

static void test_paths_interp(void** state) {
    (void)state;
    uint32_t n;
    const sw__soa_ops* const* paths = sw__soa_paths(&n);
    for (uint32_t k = 1; k < n; ++k) {
        diff_stats st = {0};
        uint32_t s = 227;
        for (int it = 0; it < ITERATIONS / 4; ++it) {
            rand_arrays(&s);
            const float u = it % 5 == 0 ? 0.0f : it % 5 == 1 ? 1.0f : frand(&s, 0, 1);
            sw__soa_scalar.interp(g_in[0], g_in[1], u, g_out_s, PACKETS);
            /* The path in place: out == a. */
            paths[k]->interp(g_in[0], g_in[1], u, g_in[0], PACKETS);
            packets_near(g_in[0], g_out_s, PACKETS, PATH_TOL, &st);
        }
        report(paths[k]->name, "interp", &st);
    }
}

#define L2M_JOINTS (PACKETS * 4 - 2)

static void test_paths_local_to_model(void** state) {
    (void)state;
    uint32_t n;
    const sw__soa_ops* const* paths = sw__soa_paths(&n);
    static sw_mat4 ms[L2M_JOINTS], mp[L2M_JOINTS];
    for (uint32_t k = 1; k < n; ++k) {
        diff_stats st = {0};
        uint32_t s = 229;
        for (int it = 0; it < ITERATIONS / 4; ++it) {
            /* A random parent-first hierarchy: chains, branches, several roots. */
            int16_t parents[L2M_JOINTS];
            uint32_t depth[L2M_JOINTS];
            for (uint32_t j = 0; j < L2M_JOINTS; ++j) {
                float r = frand(&s, 0, 1);
                parents[j] = j == 0 || r < 0.05f ? -1
                             : r < 0.6f          ? (int16_t)(j - 1)
                                                 : (int16_t)frand(&s, 0, (float)j - 0.01f);
                depth[j] = parents[j] < 0 ? 0 : depth[parents[j]] + 1;
            }
            for (int p = 0; p < PACKETS; ++p)
                for (uint32_t l = 0; l < 4; ++l) {
                    sw_xform x = rand_xform(&s);
                    x.t = sw_vec3_scale(x.t, 0.2f);
                    x.s = sw_vec3_make(frand(&s, 0.8f, 1.25f), frand(&s, 0.8f, 1.25f),
                                       frand(&s, 0.8f, 1.25f));
                    sw_xform4_set(&g_in[0][p], l, x);
                }
            sw_mat4 root;
            for (int i = 0; i < 16; ++i)
                root.m[i] = frand(&s, -2, 2);
            const sw_mat4* rootp = it & 1 ? &root : NULL;
            sw__soa_scalar.local_to_model(g_in[0], NULL, parents, L2M_JOINTS, 0, NULL, rootp, ms);
            paths[k]->local_to_model(g_in[0], NULL, parents, L2M_JOINTS, 0, NULL, rootp, mp);
            for (uint32_t j = 0; j < L2M_JOINTS; ++j)
                mats_near(&mp[j], &ms[j], SW_SOA_L2M_TOL(depth[j]), &st);
            /* A sub-tree from a random joint, new locals, on top of the path's result. */
            const uint32_t first = (uint32_t)frand(&s, 0, L2M_JOINTS - 0.01f);
            uint32_t subset[(L2M_JOINTS + 31) / 32] = {0};
            subset[first >> 5] |= 1u << (first & 31u);
            for (uint32_t j = first + 1; j < L2M_JOINTS; ++j)
                if (parents[j] >= 0 && (subset[parents[j] >> 5] & (1u << (parents[j] & 31))))
                    subset[j >> 5] |= 1u << (j & 31u);
            rand_arrays(&s);
            memcpy(ms, mp, sizeof(ms));
            sw__soa_scalar.local_to_model(g_in[0], NULL, parents, L2M_JOINTS, first, subset, rootp,
                                          ms);
            paths[k]->local_to_model(g_in[0], NULL, parents, L2M_JOINTS, first, subset, rootp, mp);
            for (uint32_t j = 0; j < L2M_JOINTS; ++j) {
                if (!(subset[j >> 5] & (1u << (j & 31u)))) {
                    assert_memory_equal(&ms[j], &mp[j], sizeof(sw_mat4)); /* untouched */
                    continue;
                }
                mats_near(&mp[j], &ms[j], 10.0 * SW_SOA_L2M_TOL(depth[j]), &st);
            }
        }
        report(paths[k]->name, "local_to_model", &st);
    }
}

static void test_paths_skinning(void** state) {
    (void)state;
    uint32_t n;
    const sw__soa_ops* const* paths = sw__soa_paths(&n);
    enum { M = 9 };
    sw_mat4 model[M], ib[M], os[M], op[M];
    for (uint32_t k = 1; k < n; ++k) {
        diff_stats st = {0};
        uint32_t s = 233;
        for (int it = 0; it < ITERATIONS / 4; ++it) {
            for (int i = 0; i < M; ++i)
                for (int c = 0; c < 16; ++c) {
                    model[i].m[c] = frand(&s, -5, 5);
                    ib[i].m[c] = frand(&s, -5, 5);
                }
            uint16_t joints[M];
            for (int i = 0; i < M; ++i)
                joints[i] = (uint16_t)frand(&s, 0, M - 0.01f);
            const uint16_t* map = it & 1 ? joints : NULL;
            sw__soa_scalar.skinning(model, map, ib, os, M);
            paths[k]->skinning(model, map, ib, op, M);
            for (int i = 0; i < M; ++i)
                mats_near(&op[i], &os[i], SW_SOA_SKINNING_TOL, &st);
        }
        report(paths[k]->name, "skinning", &st);
    }
}

/* The viewer's SIMD self-check (viewer_simd_check, the wasm128 path in the
 * browser) run here on every native path: all kernels agree with scalar. */
static void test_paths_self_check(void** state) {
    (void)state;
    uint32_t n;
    const sw__soa_ops* const* paths = sw__soa_paths(&n);
    for (uint32_t k = 1; k < n; ++k) {
        sw_soa_diff d[SW_SOA_CHECK_KERNELS];
        const double worst = sw_soa_check(paths[k], 2026u, 200u, d);
        for (int i = 0; i < SW_SOA_CHECK_KERNELS; ++i) {
            report(paths[k]->name, sw_soa_check_kernel_name(i), &d[i]);
            assert_true(d[i].values > 0);
            check_diff(d[i].worst, &d[i]);
        }
        assert_true(worst <= 1.0);
    }
    if (n == 1) print_message("only the scalar path is compiled in\n");
}

/* Normalization at the ends of the float range: per lane, a rotation scaled
 * by 1e-19 (squared length about 1e-38: denormal), 1e18 (large but finite), 0 and 3e19
 * (squared length overflows), in every packet but the first (unscaled: the
 * SIMD blend then meets the extremes after a packet it normalized with the
 * estimate). Expected: the unit rotation for the first two lanes and the
 * first packet, identity for the others, on every path (SIMD paths use an
 * rsqrt estimate for normal lengths and must fall back for the rest), through
 * interp, through blend's single-layer path without joint weights and through
 * a crossfade of the pose with itself. */
static void test_paths_normalize_extremes(void** state) {
    (void)state;
    static const float scale[4] = {1e-19f, 1e18f, 0.0f, 3e19f};
    uint32_t s = 77, n;
    const sw__soa_ops* const* paths = sw__soa_paths(&n);
    for (int it = 0; it < 50; ++it) {
        SINEW_ALIGN16 sw_xform4 a[3], ref_i[3], ref_b[3], ref_c[3], out[3];
        for (uint32_t p = 0; p < 3; ++p) {
            rand_packet(&s, &a[p]);
            for (uint32_t l = 0; l < 4; ++l) {
                const float k = p == 0 ? 1.0f : scale[l];
                a[p].rx[l] *= k;
                a[p].ry[l] *= k;
                a[p].rz[l] *= k;
                a[p].rw[l] *= k;
            }
        }
        const sw__blend_input layer = {a, NULL, 1.0f};
        const sw__blend_input halves[2] = {{a, NULL, 0.75f}, {a, NULL, 0.25f}};
        sw__soa_scalar.interp(a, a, 0.5f, ref_i, 3);
        sw__soa_scalar.blend(&layer, 1, a, 0.1f, ref_b, 3);
        sw__soa_scalar.blend(halves, 2, a, 0.1f, ref_c, 3);
        for (uint32_t p = 0; p < 3; ++p)
            for (uint32_t l = 0; l < 4; ++l) {
                const double x = (double)a[p].rx[l], y = (double)a[p].ry[l];
                const double z = (double)a[p].rz[l], w = (double)a[p].rw[l];
                const double len = sqrt(x * x + y * y + z * z + w * w);
                const sw_quat want = p == 0 || l < 2
                                         ? sw_quat_make((float)(x / len), (float)(y / len),
                                                        (float)(z / len), (float)(w / len))
                                         : sw_quat_identity();
                sw_test_quat_near(sw_xform4_get(&ref_i[p], l).r, want, 1e-6f);
                sw_test_quat_near(sw_xform4_get(&ref_b[p], l).r, want, 1e-6f);
                sw_test_quat_near(sw_xform4_get(&ref_c[p], l).r, want, 1e-6f);
            }
        for (uint32_t k = 1; k < n; ++k) {
            diff_stats st = {0};
            paths[k]->interp(a, a, 0.5f, out, 3);
            packets_near(out, ref_i, 3, PATH_TOL, &st);
            paths[k]->blend(&layer, 1, a, 0.1f, out, 3);
            packets_near(out, ref_b, 3, PATH_TOL, &st);
            paths[k]->blend(halves, 2, a, 0.1f, out, 3);
            packets_near(out, ref_c, 3, PATH_TOL, &st);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_scalar_local_matrix),
        cmocka_unit_test(test_scalar_blend_properties),
        cmocka_unit_test(test_scalar_blend_formula),
        cmocka_unit_test(test_scalar_additive),
        cmocka_unit_test(test_scalar_interp),
        cmocka_unit_test(test_paths_blend),
        cmocka_unit_test(test_paths_additive),
        cmocka_unit_test(test_paths_interp),
        cmocka_unit_test(test_paths_local_to_model),
        cmocka_unit_test(test_paths_self_check),
        cmocka_unit_test(test_paths_skinning),
        cmocka_unit_test(test_paths_normalize_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
