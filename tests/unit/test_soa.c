/* SoA kernels (src/runtime/internal.h, sw__soa_ops): the scalar reference
 * against independent expectations (per-lane math from math.h written
 * here, closed forms, properties), and the SSE2 path against the scalar one
 * on random packets.
 * Path agreement tolerance: |sse2 - scalar| <= 1e-6 * max(1, |scalar|)
 * (absolute for values up to 1, relative above: translations reach 10 and
 * matrix products 40). Scalar-vs-expectation tolerances are stated at each
 * check. When SSE2 is not compiled in, the path comparisons are skipped with
 * a message. */
#include "test_util.h"

#include "runtime/internal.h"

#define ITERATIONS 20000
#define PATH_TOL 1e-6

static const sw__soa_ops* sse2_ops(void) {
#if SINEW_HAS_SSE2
    return &sw__soa_sse2;
#else
    return NULL;
#endif
}

/* Returns the SSE2 ops, or NULL after marking the test skipped. */
static const sw__soa_ops* need_sse2(void) {
    const sw__soa_ops* ops = sse2_ops();
    if (!ops) print_message("skipped: SSE2 path not compiled in (SINEW_HAS_SSE2 is 0)\n");
    return ops;
}

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

static const float* packet_floats(const sw_xform4* p) {
    return p->tx;
}

/* Tracks the largest path difference seen, for the report. */
typedef struct diff_stats {
    double max_diff;
    uint64_t values, exact;
} diff_stats;

static void floats_near(const float* a, const float* b, int n, double tol, diff_stats* st) {
    for (int i = 0; i < n; ++i) {
        double da = a[i], db = b[i];
        double d = fabs(da - db);
        double lim = tol * fmax(1.0, fabs(db));
        if (!(d <= lim) && !(isnan(da) && isnan(db))) {
            fail_msg("value %d: %.9g vs %.9g (|diff| %.3g > %.3g)", i, da, db, d, lim);
        }
        if (st) {
            st->values++;
            if (memcmp(&a[i], &b[i], sizeof(float)) == 0) st->exact++;
            if (d > st->max_diff) st->max_diff = d;
        }
    }
}

static void packets_near(const sw_xform4* a, const sw_xform4* b, double tol, diff_stats* st) {
    floats_near(packet_floats(a), packet_floats(b), 40, tol, st);
}

static void report(const char* kernel, const diff_stats* st) {
    print_message("%s: sse2 vs scalar over %llu values: max |diff| %.3g, bit-identical %.2f%%\n",
                  kernel, (unsigned long long)st->values, st->max_diff,
                  st->values ? 100.0 * (double)st->exact / (double)st->values : 0.0);
}

static void test_paths(void** state) {
    (void)state;
    assert_string_equal(sw__soa_scalar.name, "scalar");
    const sw__soa_ops* best = sw__soa_best();
    assert_non_null(best);
#if SINEW_HAS_SSE2
    assert_string_equal(sw__soa_sse2.name, "sse2");
    assert_ptr_equal(best, &sw__soa_sse2);
#else
    print_message("SSE2 not compiled in: best path is scalar\n");
    assert_ptr_equal(best, &sw__soa_scalar);
#endif
    const sw__soa_ops* all[2] = {&sw__soa_scalar, sse2_ops()};
    for (int i = 0; i < 2; ++i) {
        if (!all[i]) continue;
        assert_non_null(all[i]->to_mat4);
        assert_non_null(all[i]->mat4_mul);
        assert_non_null(all[i]->blend_add);
        assert_non_null(all[i]->blend_finish);
        assert_non_null(all[i]->additive_apply);
        assert_non_null(all[i]->additive_make);
    }
}

/* ---- scalar reference against independent expectations ---- */

static void test_scalar_to_mat4(void** state) {
    (void)state;
    uint32_t s = 101;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_xform4 p;
        rand_packet(&s, &p);
        sw_mat4 m[4];
        sw__soa_scalar.to_mat4(&p, m);
        for (uint32_t l = 0; l < 4; ++l) {
            sw_xform x = sw_xform4_get(&p, l);
            sw_mat4 e = sw_mat4_from_xform(x);
            floats_near(m[l].m, e.m, 16, 1e-6, NULL);
            /* Points map as t + r * (s * p). */
            sw_vec3 v = sw_vec3_make(frand(&s, -2, 2), frand(&s, -2, 2), frand(&s, -2, 2));
            sw_test_vec3_near(sw_mat4_point(&m[l], v), sw_xform_point(x, v), 1e-4f);
        }
    }
}

static void test_scalar_mat4_mul(void** state) {
    (void)state;
    uint32_t s = 103;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_mat4 a, b, out;
        for (int i = 0; i < 16; ++i) {
            a.m[i] = frand(&s, -5, 5);
            b.m[i] = frand(&s, -5, 5);
        }
        sw__soa_scalar.mat4_mul(&a, &b, &out);
        /* Naive product in double, column vectors: out = a * b. */
        for (int c = 0; c < 4; ++c) {
            for (int r = 0; r < 4; ++r) {
                double e = 0.0;
                for (int k = 0; k < 4; ++k)
                    e += (double)a.m[k * 4 + r] * (double)b.m[c * 4 + k];
                assert_near(out.m[c * 4 + r], e, 1e-4);
            }
        }
    }
}

/* blend_add over `n` layers then blend_finish, on `ops`. */
static void blend(const sw__soa_ops* ops, const sw_xform4* layers, const float (*w)[4], int n,
                  const sw_xform4* rest, float threshold, sw_xform4* out) {
    memset(out, 0, sizeof *out);
    float wsum[4] = {0, 0, 0, 0};
    for (int k = 0; k < n; ++k) {
        ops->blend_add(out, &layers[k], w[k]);
        for (int l = 0; l < 4; ++l)
            wsum[l] += w[k][l];
    }
    ops->blend_finish(out, wsum, rest, threshold);
}

static void xform4_near(const sw_xform4* a, const sw_xform4* b, float tol) {
    for (uint32_t l = 0; l < 4; ++l) {
        sw_xform x = sw_xform4_get(a, l), y = sw_xform4_get(b, l);
        sw_test_vec3_near(x.t, y.t, tol);
        sw_test_quat_near(x.r, y.r, tol);
        sw_test_vec3_near(x.s, y.s, tol);
    }
}

static void test_scalar_blend_properties(void** state) {
    (void)state;
    uint32_t s = 107;
    for (int it = 0; it < ITERATIONS / 4; ++it) {
        sw_xform4 layers[2], rest, out;
        rand_packet(&s, &layers[0]);
        rand_packet(&s, &layers[1]);
        rand_packet(&s, &rest);
        float thr = frand(&s, 0.01f, 0.5f);

        /* Weights 1/0 select a layer, per lane. */
        const float sel[2][4] = {{1, 0, 1, 0}, {0, 1, 0, 1}};
        blend(&sw__soa_scalar, layers, sel, 2, &rest, thr, &out);
        for (uint32_t l = 0; l < 4; ++l) {
            sw_xform e = sw_xform4_get(&layers[l & 1u], l), g = sw_xform4_get(&out, l);
            sw_test_vec3_near(g.t, e.t, 1e-6f);
            sw_test_quat_near(g.r, e.r, 1e-6f);
            sw_test_vec3_near(g.s, e.s, 1e-6f);
        }

        /* Blending a pose with itself (either sign of its rotations) returns
         * it: the second copy is negated, and must not cancel the first. */
        sw_xform4 same[2];
        same[0] = layers[0];
        same[1] = layers[0];
        for (int l = 0; l < 4; ++l) {
            same[1].rx[l] = -same[1].rx[l];
            same[1].ry[l] = -same[1].ry[l];
            same[1].rz[l] = -same[1].rz[l];
            same[1].rw[l] = -same[1].rw[l];
        }
        float a = frand(&s, 0.05f, 0.95f);
        const float half[2][4] = {{a, a, a, a}, {1 - a, 1 - a, 1 - a, 1 - a}};
        blend(&sw__soa_scalar, same, half, 2, &rest, thr, &out);
        xform4_near(&out, &layers[0], 2e-5f);

        /* No layer at all: the rest pose. */
        blend(&sw__soa_scalar, layers, sel, 0, &rest, thr, &out);
        xform4_near(&out, &rest, 1e-6f);
    }
}

static void test_scalar_blend_finish_formula(void** state) {
    (void)state;
    uint32_t s = 109;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_xform4 acc, rest, out;
        rand_packet(&s, &acc);
        rand_packet(&s, &rest);
        float wsum[4];
        for (int l = 0; l < 4; ++l) {
            wsum[l] = (it + l) % 5 == 0 ? 0.0f : frand(&s, 0.0f, 2.0f);
            /* accumulated translations and scales carry the weight */
            acc.tx[l] *= wsum[l];
            acc.sx[l] *= wsum[l];
        }
        float thr = frand(&s, 0.05f, 1.0f);
        out = acc;
        sw__soa_scalar.blend_finish(&out, wsum, &rest, thr);
        /* The contract, per lane, in double and through math.h. */
        for (uint32_t l = 0; l < 4; ++l) {
            double W = wsum[l], fill = fmax(0.0, (double)thr - W), den = fmax(W, (double)thr);
            sw_xform a = sw_xform4_get(&acc, l), r = sw_xform4_get(&rest, l);
            sw_xform g = sw_xform4_get(&out, l);
            assert_near(g.t.x, (a.t.x + fill * r.t.x) / den, 2e-5 * fmax(1.0, fabs(g.t.x)));
            assert_near(g.t.y, (a.t.y + fill * r.t.y) / den, 2e-5 * fmax(1.0, fabs(g.t.y)));
            assert_near(g.t.z, (a.t.z + fill * r.t.z) / den, 2e-5 * fmax(1.0, fabs(g.t.z)));
            assert_near(g.s.x, (a.s.x + fill * r.s.x) / den, 2e-5 * fmax(1.0, fabs(g.s.x)));
            assert_near(g.s.y, (a.s.y + fill * r.s.y) / den, 2e-5 * fmax(1.0, fabs(g.s.y)));
            assert_near(g.s.z, (a.s.z + fill * r.s.z) / den, 2e-5 * fmax(1.0, fabs(g.s.z)));
            sw_quat rr = sw_quat_dot(a.r, r.r) < 0.0f ? sw_quat_negate(r.r) : r.r;
            float f = (float)fill;
            sw_quat e = sw_quat_normalize(sw_quat_make(a.r.x + f * rr.x, a.r.y + f * rr.y,
                                                       a.r.z + f * rr.z, a.r.w + f * rr.w));
            sw_test_quat_near(g.r, e, 1e-5f);
        }
    }
    /* A zero accumulated rotation with no fill gives identity. */
    sw_xform4 z;
    memset(&z, 0, sizeof z);
    sw_xform4 rest;
    rand_packet(&s, &rest);
    const float ones[4] = {1, 1, 1, 1};
    sw__soa_scalar.blend_finish(&z, ones, &rest, 0.1f);
    for (int l = 0; l < 4; ++l) {
        assert_near(z.rw[l], 1.0f, 0.0f);
        assert_near(z.rx[l], 0.0f, 0.0f);
    }
}

static void test_scalar_additive(void** state) {
    (void)state;
    uint32_t s = 113;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_xform4 pose, ref, delta, io;
        rand_packet(&s, &pose);
        rand_packet(&s, &ref);
        sw__soa_scalar.additive_make(&pose, &ref, &delta);
        for (uint32_t l = 0; l < 4; ++l) {
            sw_xform p = sw_xform4_get(&pose, l), r = sw_xform4_get(&ref, l);
            sw_xform d = sw_xform4_get(&delta, l);
            sw_test_vec3_near(d.t, sw_vec3_sub(p.t, r.t), 0.0f);
            sw_test_quat_near(d.r, sw_quat_mul(sw_quat_conjugate(r.r), p.r), 1e-6f);
            assert_near(d.s.x, p.s.x / r.s.x, 1e-6 * d.s.x);
        }
        /* make then apply with w = 1 on the reference gives the pose back. */
        io = ref;
        const float one[4] = {1, 1, 1, 1};
        sw__soa_scalar.additive_apply(&io, &delta, one);
        xform4_near(&io, &pose, 2e-5f);
        for (int l = 0; l < 4; ++l) {
            assert_near(io.sx[l], pose.sx[l], 1e-5 * pose.sx[l]);
            assert_near(io.tz[l], pose.tz[l], 1e-5);
        }

        /* Any weight, against the contract through math.h: t += w dt,
         * r = normalize(r * nlerp(identity, dr, w)), s *= 1 + w (ds - 1). */
        float w[4];
        for (int l = 0; l < 4; ++l)
            w[l] = frand(&s, -0.5f, 1.5f);
        io = pose;
        sw__soa_scalar.additive_apply(&io, &delta, w);
        for (uint32_t l = 0; l < 4; ++l) {
            sw_xform p = sw_xform4_get(&pose, l), d = sw_xform4_get(&delta, l);
            sw_xform g = sw_xform4_get(&io, l);
            sw_test_vec3_near(g.t, sw_vec3_add(p.t, sw_vec3_scale(d.t, w[l])), 1e-5f);
            sw_quat e =
                sw_quat_normalize(sw_quat_mul(p.r, sw_quat_nlerp(sw_quat_identity(), d.r, w[l])));
            sw_test_quat_near(g.r, e, 1e-5f);
            assert_near(g.s.y, p.s.y * (1.0 + w[l] * (d.s.y - 1.0)), 1e-5 * fmax(1.0, g.s.y));
        }
    }
    /* Half weight of a rotation by theta about an axis turns by theta / 2,
     * whichever sign the delta quaternion has; zero weight leaves the pose. */
    sw_xform4 io, delta;
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
    sw__soa_scalar.additive_apply(&io, &delta, w);
    sw_quat halfq = sw_quat_from_axis_angle(axis, 1.3f);
    sw_test_quat_near(sw_xform4_get(&io, 0).r, halfq, 1e-6f);
    sw_test_quat_near(sw_xform4_get(&io, 1).r, halfq, 1e-6f);
    sw_test_quat_near(sw_xform4_get(&io, 2).r, sw_quat_identity(), 0.0f);

    /* Zero reference scale gives a delta scale of 1. */
    sw_xform4 pose, ref, d;
    rand_packet(&s, &pose);
    rand_packet(&s, &ref);
    ref.sx[1] = 0.0f;
    ref.sz[3] = 0.0f;
    sw__soa_scalar.additive_make(&pose, &ref, &d);
    assert_near(d.sx[1], 1.0f, 0.0f);
    assert_near(d.sz[3], 1.0f, 0.0f);
}

static void test_scalar_opposite_signs_do_not_cancel(void** state) {
    (void)state;
    uint32_t s = 127;
    for (int it = 0; it < 1000; ++it) {
        sw_xform4 acc, a, b;
        memset(&acc, 0, sizeof acc);
        rand_packet(&s, &a);
        b = a;
        for (int l = 0; l < 4; ++l) {
            b.rx[l] = -a.rx[l];
            b.ry[l] = -a.ry[l];
            b.rz[l] = -a.rz[l];
            b.rw[l] = -a.rw[l];
        }
        const float w[4] = {0.5f, 0.5f, 0.5f, 0.5f};
        sw__soa_scalar.blend_add(&acc, &a, w);
        sw__soa_scalar.blend_add(&acc, &b, w);
        /* The accumulated rotation is a itself (weight 1), not zero. */
        for (int l = 0; l < 4; ++l) {
            assert_near(acc.rx[l], a.rx[l], 1e-6);
            assert_near(acc.ry[l], a.ry[l], 1e-6);
            assert_near(acc.rz[l], a.rz[l], 1e-6);
            assert_near(acc.rw[l], a.rw[l], 1e-6);
        }
    }
}

/* ---- SSE2 against scalar ---- */

static void test_sse2_to_mat4(void** state) {
    (void)state;
    const sw__soa_ops* sse = need_sse2();
    if (!sse) skip();
    diff_stats st = {0};
    uint32_t s = 201;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_xform4 p;
        rand_packet(&s, &p);
        sw_mat4 a[4], b[4];
        sw__soa_scalar.to_mat4(&p, a);
        sse->to_mat4(&p, b);
        floats_near(b[0].m, a[0].m, 64, PATH_TOL, &st);
        for (uint32_t l = 0; l < 4; ++l) {
            sw_mat4 e = sw_mat4_from_xform(sw_xform4_get(&p, l));
            floats_near(b[l].m, e.m, 16, PATH_TOL, NULL);
        }
    }
    report("to_mat4", &st);
}

static void test_sse2_mat4_mul(void** state) {
    (void)state;
    const sw__soa_ops* sse = need_sse2();
    if (!sse) skip();
    diff_stats st = {0};
    uint32_t s = 203;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_mat4 a, b, x, y;
        for (int i = 0; i < 16; ++i) {
            a.m[i] = frand(&s, -5, 5);
            b.m[i] = frand(&s, -5, 5);
        }
        sw__soa_scalar.mat4_mul(&a, &b, &x);
        sse->mat4_mul(&a, &b, &y);
        floats_near(y.m, x.m, 16, PATH_TOL, &st);
    }
    report("mat4_mul", &st);
}

static void rand_weights(uint32_t* s, float w[4]) {
    for (int l = 0; l < 4; ++l)
        w[l] = frand(s, -0.5f, 1.5f);
}

static void test_sse2_blend(void** state) {
    (void)state;
    const sw__soa_ops* sse = need_sse2();
    if (!sse) skip();
    diff_stats st_add = {0}, st_fin = {0};
    uint32_t s = 207;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_xform4 in[3], rest, a, b;
        for (int k = 0; k < 3; ++k)
            rand_packet(&s, &in[k]);
        rand_packet(&s, &rest);
        memset(&a, 0, sizeof a); /* first layer meets a zero accumulator */
        b = a;
        float wsum[4] = {0, 0, 0, 0};
        int layers = 1 + it % 3;
        for (int k = 0; k < layers; ++k) {
            float w[4];
            rand_weights(&s, w);
            if (it % 7 == 0) w[k] = 0.0f;
            sw__soa_scalar.blend_add(&a, &in[k], w);
            sse->blend_add(&b, &in[k], w);
            packets_near(&b, &a, PATH_TOL, &st_add);
            for (int l = 0; l < 4; ++l)
                wsum[l] += w[l];
        }
        if (it % 11 == 0) wsum[it % 4] = 0.0f;
        float thr = frand(&s, 0.01f, 1.0f);
        if (it % 13 == 0) wsum[(it + 1) % 4] = thr;
        /* finish from the same (scalar) accumulator, then compare */
        b = a;
        sw__soa_scalar.blend_finish(&a, wsum, &rest, thr);
        sse->blend_finish(&b, wsum, &rest, thr);
        packets_near(&b, &a, PATH_TOL, &st_fin);
    }
    /* Zero accumulated rotations (normalization gives identity). */
    sw_xform4 a, b, rest;
    memset(&a, 0, sizeof a);
    b = a;
    rand_packet(&s, &rest);
    const float ones[4] = {1, 1, 1, 1};
    sw__soa_scalar.blend_finish(&a, ones, &rest, 0.1f);
    sse->blend_finish(&b, ones, &rest, 0.1f);
    packets_near(&b, &a, PATH_TOL, &st_fin);
    report("blend_add", &st_add);
    report("blend_finish", &st_fin);
}

static void test_sse2_additive(void** state) {
    (void)state;
    const sw__soa_ops* sse = need_sse2();
    if (!sse) skip();
    diff_stats st_make = {0}, st_apply = {0};
    uint32_t s = 211;
    for (int it = 0; it < ITERATIONS; ++it) {
        sw_xform4 pose, ref, da, db, a, b;
        rand_packet(&s, &pose);
        rand_packet(&s, &ref);
        if (it % 5 == 0) ref.sy[it % 4] = 0.0f;
        sw__soa_scalar.additive_make(&pose, &ref, &da);
        sse->additive_make(&pose, &ref, &db);
        packets_near(&db, &da, PATH_TOL, &st_make);
        float w[4];
        rand_weights(&s, w);
        a = pose;
        b = pose;
        sw__soa_scalar.additive_apply(&a, &da, w);
        sse->additive_apply(&b, &da, w);
        packets_near(&b, &a, PATH_TOL, &st_apply);
    }
    report("additive_make", &st_make);
    report("additive_apply", &st_apply);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_scalar_to_mat4),
        cmocka_unit_test(test_scalar_mat4_mul),
        cmocka_unit_test(test_scalar_blend_properties),
        cmocka_unit_test(test_scalar_blend_finish_formula),
        cmocka_unit_test(test_scalar_additive),
        cmocka_unit_test(test_scalar_opposite_signs_do_not_cancel),
        cmocka_unit_test(test_sse2_to_mat4),
        cmocka_unit_test(test_sse2_mat4_mul),
        cmocka_unit_test(test_sse2_blend),
        cmocka_unit_test(test_sse2_additive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
