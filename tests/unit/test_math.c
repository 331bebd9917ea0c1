/* Math: quaternions, Euler angles, transforms and matrices against closed
 * forms, naive products built here, and properties.
 * Tolerances: 1e-5 on unit-sized quantities (float rounding after a few
 * operations), 1e-4 on angles recovered through atan2 near their edges and
 * on matrices holding translations up to 10. */
#include "test_util.h"

#define PI_F 3.14159265358979f

static const sw_euler_order all_orders[6] = {SW_EULER_ORDER_XYZ, SW_EULER_ORDER_XZY,
                                             SW_EULER_ORDER_YXZ, SW_EULER_ORDER_YZX,
                                             SW_EULER_ORDER_ZXY, SW_EULER_ORDER_ZYX};
/* The same orders spelled out: factors left to right. */
static const char* const order_names[6] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};

static sw_vec3 rand_vec3(uint32_t* s, float lo, float hi) {
    return sw_vec3_make(sw_test_rand(s, lo, hi), sw_test_rand(s, lo, hi), sw_test_rand(s, lo, hi));
}

static sw_vec3 rand_unit(uint32_t* s) {
    for (;;) {
        sw_vec3 v = rand_vec3(s, -1.0f, 1.0f);
        float l = sw_vec3_length(v);
        if (l > 0.1f && l <= 1.0f) return sw_vec3_scale(v, 1.0f / l);
    }
}

static sw_xform rand_xform(uint32_t* s, bool uniform) {
    sw_xform x;
    x.t = rand_vec3(s, -10.0f, 10.0f);
    x.r = sw_test_rand_quat(s);
    if (uniform) {
        float k = sw_test_rand(s, 0.2f, 3.0f);
        x.s = sw_vec3_make(k, k, k);
    } else {
        x.s = rand_vec3(s, 0.2f, 3.0f);
    }
    return x;
}

/* A rotation about one basis axis built here from sin/cos (independent of
 * sw_quat_from_axis_angle). */
static sw_quat quat_about(char axis, float angle) {
    float s = (float)sin(0.5 * angle), c = (float)cos(0.5 * angle);
    switch (axis) {
    case 'X':
        return sw_quat_make(s, 0, 0, c);
    case 'Y':
        return sw_quat_make(0, s, 0, c);
    default:
        return sw_quat_make(0, 0, s, c);
    }
}

static float angle_of(sw_vec3 a, char axis) {
    return axis == 'X' ? a.x : axis == 'Y' ? a.y : a.z;
}

static void rotation_near(sw_quat a, sw_quat b, float tol) {
    /* Compares rotations through their action on the basis vectors. */
    const sw_vec3 basis[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < 3; ++i) {
        sw_test_vec3_near(sw_quat_rotate(a, basis[i]), sw_quat_rotate(b, basis[i]), tol);
    }
}

static void test_axis_angle_known_vectors(void** state) {
    (void)state;
    const sw_vec3 X = {1, 0, 0}, Y = {0, 1, 0}, Z = {0, 0, 1};
    float h = PI_F / 2;
    /* Right-handed: a quarter turn about Z takes X to Y, about X takes Y to
     * Z, about Y takes Z to X. */
    sw_test_vec3_near(sw_quat_rotate(sw_quat_from_axis_angle(Z, h), X), Y, 1e-6f);
    sw_test_vec3_near(sw_quat_rotate(sw_quat_from_axis_angle(X, h), Y), Z, 1e-6f);
    sw_test_vec3_near(sw_quat_rotate(sw_quat_from_axis_angle(Y, h), Z), X, 1e-6f);
    /* Closed form (sin(a/2) axis, cos(a/2)) with a non-unit axis. */
    sw_quat q = sw_quat_from_axis_angle(sw_vec3_make(0, 0, 5), 1.0f);
    sw_test_quat_near(q, sw_quat_make(0, 0, (float)sin(0.5), (float)cos(0.5)), 1e-6f);
    /* A third of a turn about (1,1,1) cycles the axes. */
    sw_quat c = sw_quat_from_axis_angle(sw_vec3_make(1, 1, 1), 2.0f * PI_F / 3.0f);
    sw_test_vec3_near(sw_quat_rotate(c, X), Y, 1e-6f);
    sw_test_vec3_near(sw_quat_rotate(c, Y), Z, 1e-6f);
    /* Zero axis gives identity. */
    sw_test_quat_near(sw_quat_from_axis_angle(sw_vec3_make(0, 0, 0), 1.0f), sw_quat_identity(),
                      0.0f);
}

static void test_to_axis_angle(void** state) {
    (void)state;
    sw_vec3 axis;
    float angle;
    sw_quat_to_axis_angle(sw_quat_identity(), &axis, &angle);
    sw_test_vec3_near(axis, sw_vec3_make(1, 0, 0), 0.0f);
    assert_near(angle, 0.0f, 0.0f);
    uint32_t s = 11;
    for (int it = 0; it < 1000; ++it) {
        sw_vec3 a = rand_unit(&s);
        float ang = sw_test_rand(&s, 0.01f, 3.1f);
        sw_quat q = sw_quat_from_axis_angle(a, ang);
        if (it & 1) q = sw_quat_negate(q); /* the w < 0 half of the cover */
        sw_quat_to_axis_angle(q, &axis, &angle);
        assert_true(angle >= 0.0f && angle <= PI_F + 1e-6f);
        assert_near(angle, ang, 1e-5f);
        sw_test_vec3_near(axis, a, 1e-4f);
    }
}

static void test_mul_order(void** state) {
    (void)state;
    const sw_vec3 X = {1, 0, 0}, Y = {0, 1, 0}, Z = {0, 0, 1};
    sw_quat a = sw_quat_from_axis_angle(Z, PI_F / 2);
    sw_quat b = sw_quat_from_axis_angle(X, PI_F / 2);
    /* a * b applies b first: Y -> Z (about X), then Z stays (about Z). */
    sw_test_vec3_near(sw_quat_rotate(sw_quat_mul(a, b), Y), Z, 1e-6f);
    /* b * a applies a first: Y -> -X (about Z), then -X stays (about X). */
    sw_test_vec3_near(sw_quat_rotate(sw_quat_mul(b, a), Y), sw_vec3_scale(X, -1), 1e-6f);

    uint32_t s = 5;
    for (int it = 0; it < 500; ++it) {
        sw_quat p = sw_test_rand_quat(&s), q = sw_test_rand_quat(&s);
        sw_vec3 v = rand_vec3(&s, -2, 2);
        sw_test_vec3_near(sw_quat_rotate(sw_quat_mul(p, q), v),
                          sw_quat_rotate(p, sw_quat_rotate(q, v)), 1e-5f);
        /* Matrix of the product is the product of the matrices. */
        sw_xform xp = sw_xform_identity(), xq = sw_xform_identity(), xpq = sw_xform_identity();
        xp.r = p;
        xq.r = q;
        xpq.r = sw_quat_mul(p, q);
        sw_mat4 mp = sw_mat4_from_xform(xp), mq = sw_mat4_from_xform(xq);
        sw_mat4 prod = sw_mat4_mul(&mp, &mq);
        sw_mat4 mpq = sw_mat4_from_xform(xpq);
        sw_test_mat4_near(&prod, &mpq, 1e-5f);
    }
}

static void test_normalize_inverse(void** state) {
    (void)state;
    sw_test_quat_near(sw_quat_normalize(sw_quat_make(0, 0, 0, 0)), sw_quat_identity(), 0.0f);
    sw_test_quat_near(sw_quat_normalize(sw_quat_make(NAN, 0, 0, 1)), sw_quat_identity(), 0.0f);
    sw_test_quat_near(sw_quat_normalize(sw_quat_make(INFINITY, 0, 0, 1)), sw_quat_identity(), 0.0f);
    sw_quat n = sw_quat_normalize(sw_quat_make(0, 3, 0, 4));
    sw_test_quat_near(n, sw_quat_make(0, 0.6f, 0, 0.8f), 1e-7f);
    sw_test_quat_near(sw_quat_inverse(sw_quat_make(0, 0, 0, 0)), sw_quat_identity(), 0.0f);
    uint32_t s = 3;
    for (int it = 0; it < 200; ++it) {
        sw_quat q = sw_quat_make(sw_test_rand(&s, -3, 3), sw_test_rand(&s, -3, 3),
                                 sw_test_rand(&s, -3, 3), sw_test_rand(&s, -3, 3));
        if (sw_quat_dot(q, q) < 0.01f) continue;
        sw_test_quat_near(sw_quat_mul(q, sw_quat_inverse(q)), sw_quat_identity(), 1e-5f);
        sw_test_quat_near(sw_quat_mul(sw_quat_inverse(q), q), sw_quat_identity(), 1e-5f);
        sw_quat u = sw_quat_normalize(q);
        assert_near(sw_quat_dot(u, u), 1.0f, 1e-6f);
    }
}

static void test_euler_known(void** state) {
    (void)state;
    const sw_vec3 X = {1, 0, 0};
    float h = PI_F / 2;
    /* ZXY: q = qz * qx * qy, so Y turns first: X -> -Z about Y, then -Z
     * stays about Z. */
    sw_quat zxy = sw_quat_from_euler(sw_vec3_make(0, h, h), SW_EULER_ORDER_ZXY);
    sw_test_vec3_near(sw_quat_rotate(zxy, X), sw_vec3_make(0, 0, -1), 1e-6f);
    /* XYZ: Z turns first: X -> Y about Z, then Y stays about Y. */
    sw_quat xyz = sw_quat_from_euler(sw_vec3_make(0, h, h), SW_EULER_ORDER_XYZ);
    sw_test_vec3_near(sw_quat_rotate(xyz, X), sw_vec3_make(0, 1, 0), 1e-6f);
    /* DEFAULT is XYZ. */
    sw_vec3 ang = {0.3f, -0.7f, 1.1f};
    sw_test_quat_near(sw_quat_from_euler(ang, SW_EULER_ORDER_DEFAULT),
                      sw_quat_from_euler(ang, SW_EULER_ORDER_XYZ), 0.0f);
    /* A single angle is the plain axis rotation in every order. */
    for (int o = 0; o < 6; ++o) {
        sw_test_quat_near(sw_quat_from_euler(sw_vec3_make(0, 0.8f, 0), all_orders[o]),
                          quat_about('Y', 0.8f), 1e-6f);
    }
}

static void test_euler_vs_axis_product(void** state) {
    (void)state;
    uint32_t s = 17;
    for (int o = 0; o < 6; ++o) {
        const char* n = order_names[o];
        for (int it = 0; it < 300; ++it) {
            sw_vec3 ang = rand_vec3(&s, -PI_F, PI_F);
            sw_quat expect = sw_quat_mul(sw_quat_mul(quat_about(n[0], angle_of(ang, n[0])),
                                                     quat_about(n[1], angle_of(ang, n[1]))),
                                         quat_about(n[2], angle_of(ang, n[2])));
            sw_test_quat_near(sw_quat_from_euler(ang, all_orders[o]), expect, 1e-6f);
        }
    }
}

static void test_euler_round_trip(void** state) {
    (void)state;
    uint32_t s = 23;
    for (int o = 0; o < 6; ++o) {
        const char* n = order_names[o];
        for (int it = 0; it < 1000; ++it) {
            /* Angles inside the canonical ranges come back as they went in. */
            float a[3] = {sw_test_rand(&s, -3.1f, 3.1f), sw_test_rand(&s, -1.5f, 1.5f),
                          sw_test_rand(&s, -3.1f, 3.1f)};
            sw_vec3 ang;
            for (int f = 0; f < 3; ++f) {
                float* dst = n[f] == 'X' ? &ang.x : n[f] == 'Y' ? &ang.y : &ang.z;
                *dst = a[f];
            }
            sw_quat q = sw_quat_from_euler(ang, all_orders[o]);
            sw_vec3 back = sw_quat_to_euler(q, all_orders[o]);
            sw_test_vec3_near(back, ang, 1e-4f);

            /* Any rotation comes back as the same rotation, middle angle
             * within [-pi/2, pi/2]. */
            sw_quat r = sw_test_rand_quat(&s);
            sw_vec3 e = sw_quat_to_euler(r, all_orders[o]);
            float mid = angle_of(e, n[1]);
            assert_true(mid >= -PI_F / 2 - 1e-6f && mid <= PI_F / 2 + 1e-6f);
            sw_test_quat_near(sw_quat_from_euler(e, all_orders[o]), r, 1e-5f);
        }
    }
}

static void test_euler_gimbal_lock(void** state) {
    (void)state;
    uint32_t s = 29;
    for (int o = 0; o < 6; ++o) {
        const char* n = order_names[o];
        for (int it = 0; it < 200; ++it) {
            sw_vec3 ang = sw_vec3_make(0, 0, 0);
            float* first = n[0] == 'X' ? &ang.x : n[0] == 'Y' ? &ang.y : &ang.z;
            float* mid = n[1] == 'X' ? &ang.x : n[1] == 'Y' ? &ang.y : &ang.z;
            float* last = n[2] == 'X' ? &ang.x : n[2] == 'Y' ? &ang.y : &ang.z;
            *first = sw_test_rand(&s, -3.0f, 3.0f);
            *mid = (it & 1) ? PI_F / 2 : -PI_F / 2;
            *last = sw_test_rand(&s, -3.0f, 3.0f);
            sw_quat q = sw_quat_from_euler(ang, all_orders[o]);
            sw_vec3 e = sw_quat_to_euler(q, all_orders[o]);
            assert_near(angle_of(e, n[0]), 0.0f, 0.0f);
            assert_near(angle_of(e, n[1]), *mid, 1e-3f);
            rotation_near(sw_quat_from_euler(e, all_orders[o]), q, 1e-5f);
        }
    }
}

static void test_euler_near_gimbal_lock(void** state) {
    (void)state;
    /* Middle angle just off +-pi/2: the first and last angles are poorly
     * conditioned, but the rotation must still come back. */
    const float offsets[] = {1e-2f, 1e-3f, 1e-4f, 1e-5f, 1e-6f, 3e-7f};
    uint32_t s = 83;
    for (int o = 0; o < 6; ++o) {
        const char* n = order_names[o];
        for (int k = 0; k < 6; ++k) {
            for (int it = 0; it < 50; ++it) {
                sw_vec3 ang = sw_vec3_make(0, 0, 0);
                float* first = n[0] == 'X' ? &ang.x : n[0] == 'Y' ? &ang.y : &ang.z;
                float* mid = n[1] == 'X' ? &ang.x : n[1] == 'Y' ? &ang.y : &ang.z;
                float* last = n[2] == 'X' ? &ang.x : n[2] == 'Y' ? &ang.y : &ang.z;
                *first = sw_test_rand(&s, -3.0f, 3.0f);
                *mid = (it & 1) ? PI_F / 2 - offsets[k] : -PI_F / 2 + offsets[k];
                *last = sw_test_rand(&s, -3.0f, 3.0f);
                sw_quat q = sw_quat_from_euler(ang, all_orders[o]);
                sw_vec3 e = sw_quat_to_euler(q, all_orders[o]);
                sw_test_quat_near(sw_quat_from_euler(e, all_orders[o]), q, 2e-6f);
            }
        }
    }
}

static void test_slerp_closed_forms(void** state) {
    (void)state;
    uint32_t s = 31;
    for (int it = 0; it < 500; ++it) {
        sw_vec3 axis = rand_unit(&s);
        float ang = sw_test_rand(&s, 0.1f, 3.1f);
        sw_quat a = sw_test_rand_quat(&s);
        sw_quat b = sw_quat_mul(a, sw_quat_from_axis_angle(axis, ang));
        /* Constant speed: t turns by t * angle about the same axis. */
        const float ts[] = {0.0f, 0.25f, 0.5f, 0.8f, 1.0f};
        for (int k = 0; k < 5; ++k) {
            sw_quat expect = sw_quat_mul(a, sw_quat_from_axis_angle(axis, ts[k] * ang));
            sw_test_quat_near(sw_quat_slerp(a, b, ts[k]), expect, 2e-5f);
        }
        /* nlerp agrees with slerp at the ends and in the middle. */
        sw_quat half = sw_quat_mul(a, sw_quat_from_axis_angle(axis, 0.5f * ang));
        sw_test_quat_near(sw_quat_nlerp(a, b, 0.5f), half, 2e-5f);
        sw_test_quat_near(sw_quat_nlerp(a, b, 0.0f), a, 1e-6f);
        sw_test_quat_near(sw_quat_nlerp(a, b, 1.0f), b, 1e-6f);
        /* Shortest arc: -b is the same rotation and gives the same path. */
        sw_test_quat_near(sw_quat_slerp(a, sw_quat_negate(b), 0.3f), sw_quat_slerp(a, b, 0.3f),
                          1e-6f);
        sw_test_quat_near(sw_quat_nlerp(a, sw_quat_negate(b), 0.3f), sw_quat_nlerp(a, b, 0.3f),
                          1e-6f);
    }
    /* Identity to 3 rad about Z, given as the negated quaternion: the half
     * way point is 1.5 rad about Z (not the long way round). */
    sw_vec3 Z = {0, 0, 1};
    sw_quat far = sw_quat_negate(sw_quat_from_axis_angle(Z, 3.0f));
    sw_test_quat_near(sw_quat_slerp(sw_quat_identity(), far, 0.5f),
                      sw_quat_from_axis_angle(Z, 1.5f), 1e-6f);
    sw_test_quat_near(sw_quat_nlerp(sw_quat_identity(), far, 0.5f),
                      sw_quat_from_axis_angle(Z, 1.5f), 1e-6f);
    /* Nearly parallel inputs (fallback path) stay between the two. */
    sw_quat p = sw_quat_from_axis_angle(Z, 1.0f), q = sw_quat_from_axis_angle(Z, 1.0f + 2e-4f);
    sw_test_quat_near(sw_quat_slerp(p, q, 0.5f), sw_quat_from_axis_angle(Z, 1.0f + 1e-4f), 1e-6f);
    sw_test_quat_near(sw_quat_slerp(p, p, 0.5f), p, 1e-7f);
}

/* slerp against a double-precision slerp (acos of the dot product, sines):
 * within 1e-6 per component on random unit pairs at every angle (up to 90
 * degrees apart on the 4-sphere after the sign flip) and on close pairs. */
static void test_slerp_double_reference(void** state) {
    (void)state;
    uint32_t rng = 4242u;
    double worst = 0.0;
    for (int i = 0; i < 200000; ++i) {
        sw_quat a = sw_test_rand_quat(&rng);
        sw_quat b = sw_test_rand_quat(&rng);
        if (i % 3 == 1) {
            const float e = 0.05f;
            b = sw_quat_normalize(
                sw_quat_make(a.x + sw_test_rand(&rng, -e, e), a.y + sw_test_rand(&rng, -e, e),
                             a.z + sw_test_rand(&rng, -e, e), a.w + sw_test_rand(&rng, -e, e)));
        }
        const float t = sw_test_rand(&rng, 0.0f, 1.0f);
        const sw_quat q = sw_quat_slerp(a, b, t);
        double da[4] = {a.x, a.y, a.z, a.w}, db[4] = {b.x, b.y, b.z, b.w};
        double na = 0.0, nb = 0.0, dot = 0.0;
        for (int c = 0; c < 4; ++c) {
            na += da[c] * da[c];
            nb += db[c] * db[c];
        }
        for (int c = 0; c < 4; ++c) {
            da[c] /= sqrt(na);
            db[c] /= sqrt(nb);
            dot += da[c] * db[c];
        }
        const double s = dot < 0.0 ? -1.0 : 1.0;
        const double th = acos(fmin(1.0, fabs(dot)));
        double r[4], nr = 0.0;
        for (int c = 0; c < 4; ++c) {
            r[c] = th < 1e-9 ? da[c]
                             : (sin((1.0 - t) * th) * da[c] + sin(t * th) * s * db[c]) / sin(th);
            nr += r[c] * r[c];
        }
        const double got[4] = {q.x, q.y, q.z, q.w};
        for (int c = 0; c < 4; ++c)
            worst = fmax(worst, fabs(got[c] - r[c] / sqrt(nr)));
    }
    print_message("slerp vs double reference: largest component difference %.3g\n", worst);
    assert_true(worst < 1e-6);
}

static void test_from_to(void** state) {
    (void)state;
    uint32_t s = 37;
    for (int it = 0; it < 1000; ++it) {
        sw_vec3 f = rand_unit(&s), t = rand_unit(&s);
        float kf = sw_test_rand(&s, 0.1f, 10.0f), kt = sw_test_rand(&s, 0.1f, 10.0f);
        sw_quat q = sw_quat_from_to(sw_vec3_scale(f, kf), sw_vec3_scale(t, kt));
        assert_near(sw_quat_dot(q, q), 1.0f, 1e-6f);
        sw_test_vec3_near(sw_quat_rotate(q, f), t, 1e-5f);
        /* Shortest: the angle is the angle between the directions and the
         * axis is perpendicular to both. */
        sw_vec3 axis;
        float angle;
        sw_quat_to_axis_angle(q, &axis, &angle);
        assert_near(angle, acos(fmax(-1.0, fmin(1.0, (double)sw_vec3_dot(f, t)))), 1e-3f);
        assert_near(sw_vec3_dot(axis, f), 0.0f, 1e-4f);
        assert_near(sw_vec3_dot(axis, t), 0.0f, 1e-4f);

        /* Opposite directions: a half turn that still maps f to -f. */
        sw_quat o = sw_quat_from_to(f, sw_vec3_scale(f, -2.0f));
        assert_near(sw_quat_dot(o, o), 1.0f, 1e-6f);
        assert_near(o.w, 0.0f, 1e-6f);
        sw_test_vec3_near(sw_quat_rotate(o, f), sw_vec3_scale(f, -1.0f), 1e-5f);
    }
    /* Nearly opposite directions keep their accuracy. */
    const float eps[] = {1e-2f, 1e-3f, 1e-4f, 1e-5f, 1e-6f};
    for (int k = 0; k < 5; ++k) {
        for (int it = 0; it < 200; ++it) {
            sw_vec3 f = rand_unit(&s);
            sw_vec3 perp = sw_vec3_normalize(sw_vec3_cross(f, rand_unit(&s)));
            sw_vec3 t = sw_quat_rotate(sw_quat_from_axis_angle(perp, PI_F - eps[k]), f);
            sw_quat q = sw_quat_from_to(f, t);
            sw_test_vec3_near(sw_quat_rotate(q, f), t, 5e-6f);
        }
    }
    const sw_vec3 X = {1, 0, 0};
    sw_quat o = sw_quat_from_to(X, sw_vec3_make(-1, 0, 0));
    sw_test_vec3_near(sw_quat_rotate(o, X), sw_vec3_make(-1, 0, 0), 1e-6f);
    sw_test_quat_near(sw_quat_from_to(X, sw_vec3_make(3, 0, 0)), sw_quat_identity(), 0.0f);
    sw_test_quat_near(sw_quat_from_to(X, sw_vec3_make(0, 0, 0)), sw_quat_identity(), 0.0f);
    sw_test_quat_near(sw_quat_from_to(sw_vec3_make(0, 0, 0), X), sw_quat_identity(), 0.0f);
    sw_test_quat_near(sw_quat_from_to(X, sw_vec3_make(0, 1, 0)),
                      sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), PI_F / 2), 1e-6f);
}

static void test_swing_twist(void** state) {
    (void)state;
    uint32_t s = 41;
    for (int it = 0; it < 1000; ++it) {
        sw_quat q = sw_test_rand_quat(&s);
        sw_vec3 axis = sw_vec3_scale(rand_unit(&s), sw_test_rand(&s, 0.5f, 4.0f));
        sw_vec3 n = sw_vec3_normalize(axis);
        sw_quat swing, twist;
        sw_quat_swing_twist(q, axis, &swing, &twist);
        sw_test_quat_near(sw_quat_mul(swing, twist), q, 1e-5f);
        assert_near(sw_quat_dot(twist, twist), 1.0f, 1e-5f);
        /* The twist turns about the axis: its vector part is along it. */
        sw_vec3 tv = {twist.x, twist.y, twist.z};
        sw_test_vec3_near(sw_vec3_cross(tv, n), sw_vec3_make(0, 0, 0), 1e-5f);
        sw_test_vec3_near(sw_quat_rotate(twist, n), n, 1e-5f);
        /* The swing has no component about the axis. */
        sw_vec3 sv = {swing.x, swing.y, swing.z};
        assert_near(sw_vec3_dot(sv, n), 0.0f, 1e-5f);
        /* Swing and q move the axis the same way. */
        sw_test_vec3_near(sw_quat_rotate(swing, n), sw_quat_rotate(q, n), 1e-5f);
    }
    /* Pure twist: swing is identity. */
    sw_vec3 Y = {0, 1, 0};
    sw_quat sw, tw;
    sw_quat_swing_twist(sw_quat_from_axis_angle(Y, 0.7f), Y, &sw, &tw);
    sw_test_quat_near(sw, sw_quat_identity(), 1e-6f);
    sw_test_quat_near(tw, sw_quat_from_axis_angle(Y, 0.7f), 1e-6f);
    /* Half-turn swing about X with the twist axis Y: twist undefined. */
    sw_quat half = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), PI_F);
    sw_quat_swing_twist(half, Y, &sw, &tw);
    sw_test_quat_near(tw, sw_quat_identity(), 0.0f);
    sw_test_quat_near(sw, half, 1e-6f);
    /* The same with an exact half turn (projection exactly zero). */
    half = sw_quat_make(0, 0, 1, 0);
    sw_quat_swing_twist(half, sw_vec3_make(0, 2, 0), &sw, &tw);
    sw_test_quat_near(tw, sw_quat_identity(), 0.0f);
    sw_test_quat_near(sw, half, 0.0f);
}

static void test_from_mat4(void** state) {
    (void)state;
    uint32_t s = 43;
    for (int it = 0; it < 2000; ++it) {
        sw_xform x = rand_xform(&s, (it & 1) != 0);
        sw_mat4 m = sw_mat4_from_xform(x);
        sw_quat q = sw_quat_from_mat4(&m);
        sw_test_quat_near(q, sw_quat_normalize(x.r), 1e-5f);
        assert_true(q.w >= 0.0f);
    }
    /* Half turns about each axis and near them: trace -1, every branch of
     * Shepperd's method. */
    const sw_vec3 axes[4] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, -2, 0.5f}};
    const float angles[3] = {PI_F, PI_F - 1e-3f, 2.5f};
    for (int a = 0; a < 4; ++a) {
        for (int k = 0; k < 3; ++k) {
            sw_xform x = sw_xform_identity();
            x.r = sw_quat_from_axis_angle(axes[a], angles[k]);
            x.s = sw_vec3_make(0.01f, 7.0f, 2.0f);
            sw_mat4 m = sw_mat4_from_xform(x);
            sw_test_quat_near(sw_quat_from_mat4(&m), x.r, 1e-5f);
        }
    }
}

static sw_mat4 rand_mat4(uint32_t* s) {
    sw_mat4 m;
    for (int i = 0; i < 16; ++i)
        m.m[i] = sw_test_rand(s, -2.0f, 2.0f);
    return m;
}

static void test_mat4_inverse(void** state) {
    (void)state;
    uint32_t s = 47;
    sw_mat4 id = sw_mat4_identity();
    for (int it = 0; it < 1000; ++it) {
        sw_mat4 m = (it & 1) ? rand_mat4(&s) : sw_mat4_from_xform(rand_xform(&s, false));
        sw_mat4 inv;
        assert_true(sw_mat4_inverse(&m, &inv));
        sw_mat4 p = sw_mat4_mul(&inv, &m), q = sw_mat4_mul(&m, &inv);
        /* Random matrices can be poorly conditioned: scale the tolerance. */
        float tol = 1e-4f;
        float big = 0.0f;
        for (int i = 0; i < 16; ++i)
            big = fmaxf(big, fabsf(inv.m[i]));
        if (big > 10.0f) tol *= big / 10.0f;
        sw_test_mat4_near(&p, &id, tol);
        sw_test_mat4_near(&q, &id, tol);
        if (!(it & 1)) {
            sw_mat4 aff;
            assert_true(sw_mat4_inverse_affine(&m, &aff));
            sw_test_mat4_near(&aff, &inv, 1e-4f);
        }
    }
    /* Singular: zero matrix, repeated column; out is left untouched. */
    sw_mat4 zero = {{0}};
    sw_mat4 out = id;
    assert_false(sw_mat4_inverse(&zero, &out));
    assert_false(sw_mat4_inverse_affine(&zero, &out));
    sw_mat4 rep = sw_mat4_identity();
    rep.m[4] = 1.0f, rep.m[5] = 0.0f; /* column 1 = column 0 */
    assert_false(sw_mat4_inverse(&rep, &out));
    assert_false(sw_mat4_inverse_affine(&rep, &out));
    sw_xform flat = sw_xform_identity();
    flat.s.y = 0.0f;
    sw_mat4 fm = sw_mat4_from_xform(flat);
    assert_false(sw_mat4_inverse(&fm, &out));
    assert_false(sw_mat4_inverse_affine(&fm, &out));
    sw_test_mat4_near(&out, &id, 0.0f);
    /* inverse_affine, mat4_point and mat4_vector do not read the last row. */
    uint32_t s2 = 71;
    for (int it = 0; it < 100; ++it) {
        sw_mat4 m = sw_mat4_from_xform(rand_xform(&s2, false));
        sw_mat4 junk = m;
        junk.m[3] = 5.0f, junk.m[7] = -1.0f, junk.m[11] = 2.0f, junk.m[15] = 0.0f;
        sw_mat4 i1, i2;
        assert_true(sw_mat4_inverse_affine(&m, &i1));
        assert_true(sw_mat4_inverse_affine(&junk, &i2));
        sw_test_mat4_near(&i1, &i2, 0.0f);
        sw_vec3 p = rand_vec3(&s2, -3, 3);
        sw_test_vec3_near(sw_mat4_point(&junk, p), sw_mat4_point(&m, p), 0.0f);
        sw_test_vec3_near(sw_mat4_vector(&junk, p), sw_mat4_vector(&m, p), 0.0f);
    }
    /* A closed form: translation by t inverts to translation by -t. */
    sw_mat4 tr = sw_mat4_identity();
    tr.m[12] = 1, tr.m[13] = -2, tr.m[14] = 3;
    assert_true(sw_mat4_inverse(&tr, &out));
    sw_test_vec3_near(sw_vec3_make(out.m[12], out.m[13], out.m[14]), sw_vec3_make(-1, 2, -3), 0.0f);
}

static void test_mat4_from_xform_point_vector(void** state) {
    (void)state;
    uint32_t s = 53;
    for (int it = 0; it < 1000; ++it) {
        sw_xform x = rand_xform(&s, false);
        sw_mat4 m = sw_mat4_from_xform(x);
        sw_vec3 p = rand_vec3(&s, -5, 5);
        sw_test_vec3_near(sw_mat4_point(&m, p), sw_xform_point(x, p), 1e-4f);
        sw_test_vec3_near(sw_mat4_vector(&m, p), sw_xform_vector(x, p), 1e-4f);
        /* Independently: t + r (s p) with the rotation as a matrix built from
         * the images of the basis vectors. */
        sw_vec3 c0 = sw_quat_rotate(x.r, sw_vec3_make(x.s.x, 0, 0));
        sw_vec3 c1 = sw_quat_rotate(x.r, sw_vec3_make(0, x.s.y, 0));
        sw_vec3 c2 = sw_quat_rotate(x.r, sw_vec3_make(0, 0, x.s.z));
        sw_test_vec3_near(sw_vec3_make(m.m[0], m.m[1], m.m[2]), c0, 1e-5f);
        sw_test_vec3_near(sw_vec3_make(m.m[4], m.m[5], m.m[6]), c1, 1e-5f);
        sw_test_vec3_near(sw_vec3_make(m.m[8], m.m[9], m.m[10]), c2, 1e-5f);
        sw_test_vec3_near(sw_vec3_make(m.m[12], m.m[13], m.m[14]), x.t, 0.0f);
        sw_test_vec3_near(sw_vec3_make(m.m[3], m.m[7], m.m[11]), sw_vec3_make(0, 0, 0), 0.0f);
        assert_near(m.m[15], 1.0f, 0.0f);
    }
    /* Matrix product against a naive triple loop (row-major indexing here). */
    for (int it = 0; it < 200; ++it) {
        sw_mat4 a = rand_mat4(&s), b = rand_mat4(&s);
        sw_mat4 c = sw_mat4_mul(&a, &b);
        for (int r = 0; r < 4; ++r) {
            for (int col = 0; col < 4; ++col) {
                double acc = 0.0;
                for (int k = 0; k < 4; ++k)
                    acc += (double)a.m[k * 4 + r] * b.m[col * 4 + k];
                assert_near(c.m[col * 4 + r], acc, 1e-5f);
            }
        }
    }
}

static void test_mat4_decompose(void** state) {
    (void)state;
    uint32_t s = 59;
    for (int it = 0; it < 1000; ++it) {
        sw_xform x = rand_xform(&s, false);
        if (it % 3 == 0) x.s.x = -x.s.x; /* mirror */
        sw_mat4 m = sw_mat4_from_xform(x);
        sw_xform d;
        assert_true(sw_mat4_decompose(&m, &d));
        sw_test_vec3_near(d.t, x.t, 0.0f);
        sw_test_vec3_near(d.s, x.s, 1e-5f);
        sw_test_quat_near(d.r, x.r, 1e-5f);
        sw_mat4 back = sw_mat4_from_xform(d);
        sw_test_mat4_near(&back, &m, 1e-4f);
    }
    /* Mirror in y only: the sign moves to scale x, the matrix is the same. */
    sw_xform y = sw_xform_identity();
    y.s = sw_vec3_make(1, -2, 1);
    sw_mat4 ym = sw_mat4_from_xform(y);
    sw_xform yd;
    assert_true(sw_mat4_decompose(&ym, &yd));
    assert_true(yd.s.x < 0.0f);
    sw_mat4 yb = sw_mat4_from_xform(yd);
    sw_test_mat4_near(&yb, &ym, 1e-6f);
    /* Zero column. */
    sw_xform z = sw_xform_identity();
    z.r = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 1.0f);
    z.s.z = 0.0f;
    sw_mat4 zm = sw_mat4_from_xform(z);
    sw_xform zd;
    assert_false(sw_mat4_decompose(&zm, &zd));
    sw_test_quat_near(zd.r, sw_quat_identity(), 0.0f);
}

static void test_xform_mul_inverse(void** state) {
    (void)state;
    uint32_t s = 61;
    sw_mat4 id = sw_mat4_identity();
    for (int it = 0; it < 1000; ++it) {
        sw_xform p = rand_xform(&s, true), c = rand_xform(&s, true);
        /* Uniform scale: TRS composition equals the matrix product. */
        sw_mat4 mp = sw_mat4_from_xform(p), mc = sw_mat4_from_xform(c);
        sw_mat4 prod = sw_mat4_mul(&mp, &mc);
        sw_mat4 mpc = sw_mat4_from_xform(sw_xform_mul(p, c));
        sw_test_mat4_near(&mpc, &prod, 1e-3f);
        sw_vec3 v = rand_vec3(&s, -3, 3);
        sw_test_vec3_near(sw_xform_point(sw_xform_mul(p, c), v),
                          sw_xform_point(p, sw_xform_point(c, v)), 1e-3f);
        /* Inverse. */
        sw_xform inv = sw_xform_inverse(p);
        sw_test_vec3_near(sw_xform_point(inv, sw_xform_point(p, v)), v, 1e-4f);
        sw_mat4 mi = sw_mat4_from_xform(sw_xform_mul(p, inv));
        sw_test_mat4_near(&mi, &id, 1e-4f);
        mi = sw_mat4_from_xform(sw_xform_mul(inv, p));
        sw_test_mat4_near(&mi, &id, 1e-4f);
        sw_test_vec3_near(sw_xform_vector(inv, sw_xform_vector(p, v)), v, 1e-4f);
    }
    /* Non-uniform scale still multiplies per component. */
    sw_xform a = sw_xform_identity(), b = sw_xform_identity();
    a.s = sw_vec3_make(1, 2, 3);
    b.s = sw_vec3_make(4, 5, 6);
    sw_test_vec3_near(sw_xform_mul(a, b).s, sw_vec3_make(4, 10, 18), 0.0f);
    /* Zero scale components invert to 0. */
    sw_xform z = sw_xform_identity();
    z.s = sw_vec3_make(0, 2, 4);
    sw_test_vec3_near(sw_xform_inverse(z).s, sw_vec3_make(0, 0.5f, 0.25f), 0.0f);
    sw_xform id_x = sw_xform_identity();
    sw_test_vec3_near(id_x.t, sw_vec3_make(0, 0, 0), 0.0f);
    sw_test_quat_near(id_x.r, sw_quat_identity(), 0.0f);
    sw_test_vec3_near(id_x.s, sw_vec3_make(1, 1, 1), 0.0f);
}

static void test_xform4(void** state) {
    (void)state;
    sw_xform4 p;
    memset(&p, 0xff, sizeof p);
    sw_xform4_identity(&p);
    for (uint32_t l = 0; l < 4; ++l) {
        sw_xform x = sw_xform4_get(&p, l);
        sw_test_vec3_near(x.t, sw_vec3_make(0, 0, 0), 0.0f);
        sw_test_quat_near(x.r, sw_quat_identity(), 0.0f);
        assert_near(x.r.w, 1.0f, 0.0f);
        sw_test_vec3_near(x.s, sw_vec3_make(1, 1, 1), 0.0f);
    }
    uint32_t s = 67;
    sw_xform xs[4];
    for (uint32_t l = 0; l < 4; ++l) {
        xs[l] = rand_xform(&s, false);
        sw_xform4_set(&p, l, xs[l]);
    }
    for (uint32_t l = 0; l < 4; ++l) {
        sw_xform x = sw_xform4_get(&p, l);
        assert_memory_equal(&x, &xs[l], sizeof x);
        assert_near(p.tx[l], xs[l].t.x, 0.0f);
        assert_near(p.rw[l], xs[l].r.w, 0.0f);
        assert_near(p.sz[l], xs[l].s.z, 0.0f);
    }
    /* Pose helpers: joint j is packet j / 4, lane j % 4. */
    sw_xform4 pose[3];
    for (int k = 0; k < 3; ++k)
        sw_xform4_identity(&pose[k]);
    sw_pose_set(pose, 9, xs[2]);
    assert_near(pose[2].ty[1], xs[2].t.y, 0.0f);
    sw_xform g = sw_pose_get(pose, 9);
    assert_memory_equal(&g, &xs[2], sizeof g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axis_angle_known_vectors),
        cmocka_unit_test(test_to_axis_angle),
        cmocka_unit_test(test_mul_order),
        cmocka_unit_test(test_normalize_inverse),
        cmocka_unit_test(test_euler_known),
        cmocka_unit_test(test_euler_vs_axis_product),
        cmocka_unit_test(test_euler_round_trip),
        cmocka_unit_test(test_euler_gimbal_lock),
        cmocka_unit_test(test_euler_near_gimbal_lock),
        cmocka_unit_test(test_slerp_closed_forms),
        cmocka_unit_test(test_slerp_double_reference),
        cmocka_unit_test(test_from_to),
        cmocka_unit_test(test_swing_twist),
        cmocka_unit_test(test_from_mat4),
        cmocka_unit_test(test_mat4_inverse),
        cmocka_unit_test(test_mat4_from_xform_point_vector),
        cmocka_unit_test(test_mat4_decompose),
        cmocka_unit_test(test_xform_mul_inverse),
        cmocka_unit_test(test_xform4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
