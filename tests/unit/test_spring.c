/* Springs and dampers: against the closed form computed here in double, a
 * naive ODE integration, frame-rate independence and the no-overshoot and
 * shortest-arc properties. */
#include "test_util.h"

#include <float.h>

#include "sinew/procedural/spring.h"

/* Root of (1 + u) e^-u = 1/2 by bisection (independent of the header constant). */
static double half_life_rate(void) {
    double lo = 1.0, hi = 3.0;
    for (int i = 0; i < 200; ++i) {
        double mid = 0.5 * (lo + hi);
        if ((1.0 + mid) * exp(-mid) > 0.5)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Closed form in double: x(t) from x0, v0 toward a fixed goal. */
static double closed_x(double x0, double v0, double g, double h, double t) {
    double y = half_life_rate() / h;
    double j0 = x0 - g, j1 = v0 + j0 * y;
    return g + (j0 + j1 * t) * exp(-y * t);
}

/* Naive integration of x'' = -y^2 (x - g) - 2 y x' (critical damping), RK4 in double. */
static void ode_spring(double* x, double* v, double g, double h, double duration) {
    const double y = half_life_rate() / h;
    const int n = 20000;
    const double dt = duration / n;
    for (int i = 0; i < n; ++i) {
#define SW_ACC(px, pv) (-y * y * ((px)-g) - 2.0 * y * (pv))
        double k1x = *v, k1v = SW_ACC(*x, *v);
        double k2x = *v + 0.5 * dt * k1v, k2v = SW_ACC(*x + 0.5 * dt * k1x, *v + 0.5 * dt * k1v);
        double k3x = *v + 0.5 * dt * k2v, k3v = SW_ACC(*x + 0.5 * dt * k2x, *v + 0.5 * dt * k2v);
        double k4x = *v + dt * k3v, k4v = SW_ACC(*x + dt * k3x, *v + dt * k3v);
#undef SW_ACC
        *x += dt / 6.0 * (k1x + 2 * k2x + 2 * k3x + k4x);
        *v += dt / 6.0 * (k1v + 2 * k2v + 2 * k3v + k4v);
    }
}

static void test_rate_constant(void** state) {
    (void)state;
    const double u = half_life_rate();
    assert_near(SW_SPRING_HALF_LIFE_RATE, u, 1e-6);
    assert_near(sw_spring_rate(0.25f), u / 0.25, 1e-5);
    assert_true(isinf(sw_spring_rate(0.0f)));
    assert_true(isinf(sw_spring_rate(-1.0f)));
}

static void test_half_life_honoured(void** state) {
    (void)state;
    const float hls[] = {0.05f, 0.2f, 1.0f, 3.0f};
    for (int k = 0; k < 4; ++k) {
        const float h = hls[k];
        /* One update of exactly h, and h in 17 pieces: half the distance. */
        sw_spring_float a = {.value = 2.0f};
        sw_spring_float_update(&a, -2.0f, h, h);
        assert_near(a.value, 0.0f, 2e-6);
        sw_spring_float b = {.value = 2.0f};
        for (int i = 0; i < 17; ++i)
            sw_spring_float_update(&b, -2.0f, h, h / 17.0f);
        assert_near(b.value, 0.0f, 2e-5);
        /* Two half-lives: not a quarter (the spring is not a damper), but the closed form. */
        sw_spring_float_update(&a, -2.0f, h, h);
        assert_near(a.value, closed_x(2.0, 0.0, -2.0, h, 2.0 * h), 2e-6);
        sw_spring_vec3 c = {.value = {1, 2, 3}};
        sw_spring_vec3_update(&c, sw_vec3_make(3, 2, 1), h, h);
        sw_test_vec3_near(c.value, sw_vec3_make(2, 2, 2), 2e-6f);
    }
}

static void test_matches_closed_form_and_ode(void** state) {
    (void)state;
    uint32_t rng = 7u;
    for (int k = 0; k < 20; ++k) {
        const double x0 = sw_test_rand(&rng, -3, 3), v0 = sw_test_rand(&rng, -10, 10);
        const double g = sw_test_rand(&rng, -3, 3), h = sw_test_rand(&rng, 0.05f, 1.0f);
        const double t = sw_test_rand(&rng, 0.0f, 2.0f);
        sw_spring_float s = {.value = (float)x0, .velocity = (float)v0};
        sw_spring_float_update(&s, (float)g, (float)h, (float)t);
        double x = x0, v = v0;
        ode_spring(&x, &v, g, h, t);
        assert_near(s.value, closed_x(x0, v0, g, h, t), 1e-5);
        assert_near(s.value, x, 1e-4);
        assert_near(s.velocity, v, 1e-3 * (1.0 + fabs(v0)));
    }
}

/* The goal changes every 1/30 s; the 30 and 240 fps runs must agree at every 1/30 s. */
static void test_30_vs_240_fps(void** state) {
    (void)state;
    const float h = 0.15f;
    sw_spring_float f30 = {.value = 1.0f, .velocity = -4.0f}, f240 = f30;
    sw_spring_vec3 v30 = {.value = {0, 1, 0}, .velocity = {2, 0, -1}}, v240 = v30;
    sw_spring_quat q30 = {.value = sw_quat_identity(), .velocity = {0, 3, 0}}, q240 = q30;
    uint32_t rng = 11u;
    float worst = 0.0f;
    for (int frame = 0; frame < 90; ++frame) {
        const float g = sw_test_rand(&rng, -2, 2);
        const sw_vec3 gv = {sw_test_rand(&rng, -2, 2), sw_test_rand(&rng, -2, 2), 0.5f};
        /* Goals within 80 degrees of a base rotation, so the remaining turn stays
         * below pi (past it the shortest arc flips: see spring.h). */
        const sw_vec3 gaxis = {sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1), 1.0f};
        const sw_quat gq =
            sw_quat_mul(sw_quat_from_axis_angle(gaxis, sw_test_rand(&rng, -1.4f, 1.4f)),
                        sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 2.0f));
        sw_spring_float_update(&f30, g, h, 1.0f / 30.0f);
        sw_spring_vec3_update(&v30, gv, h, 1.0f / 30.0f);
        sw_spring_quat_update(&q30, gq, h, 1.0f / 30.0f);
        for (int i = 0; i < 8; ++i) {
            sw_spring_float_update(&f240, g, h, 1.0f / 240.0f);
            sw_spring_vec3_update(&v240, gv, h, 1.0f / 240.0f);
            sw_spring_quat_update(&q240, gq, h, 1.0f / 240.0f);
        }
        assert_near(f30.value, f240.value, 1e-4);
        assert_near(f30.velocity, f240.velocity, 1e-3);
        sw_test_vec3_near(v30.value, v240.value, 1e-4f);
        sw_test_quat_near(q30.value, q240.value, 1e-4f);
        worst = fmaxf(worst, fabsf(f30.value - f240.value));
    }
    print_message("30 vs 240 fps: worst float difference %.3g\n", (double)worst);
}

static void test_no_overshoot_from_rest(void** state) {
    (void)state;
    uint32_t rng = 3u;
    for (int k = 0; k < 200; ++k) {
        const float x0 = sw_test_rand(&rng, -100, 100), g = sw_test_rand(&rng, -100, 100);
        const float h = sw_test_rand(&rng, 0.01f, 2.0f);
        sw_spring_float s = {.value = x0};
        float prev = fabsf(x0 - g);
        for (int i = 0; i < 400; ++i) {
            sw_spring_float_update(&s, g, h, sw_test_rand(&rng, 0.0f, 0.1f));
            const float d = s.value - g;
            /* Same side of the goal (or on it), and never farther than before. */
            assert_true(d * (x0 - g) >= 0.0f);
            assert_true(fabsf(d) <= prev + 1e-5f); /* one ulp at 100 is 7.6e-6 */
            prev = fabsf(d);
        }
    }
}

static void test_quat_shortest_arc(void** state) {
    (void)state;
    const sw_vec3 axis = sw_vec3_normalize(sw_vec3_make(1, 2, -0.5f));
    /* 170 degrees about axis, handed over as -goal: the sign must not matter.
     * 190 degrees about axis is the same as 170 degrees about -axis. */
    const float angles[] = {170.0f, 190.0f};
    for (int k = 0; k < 2; ++k) {
        const float angle = angles[k] * 3.14159265f / 180.0f;
        const sw_quat goal = sw_quat_from_axis_angle(axis, angle);
        const sw_vec3 expect_axis = k == 0 ? axis : sw_vec3_scale(axis, -1.0f);
        const double theta0 = k == 0 ? angle : 2.0 * 3.14159265358979 - angle;
        sw_spring_quat s = {.value = sw_quat_identity()};
        const float h = 0.2f, dt = 1.0f / 60.0f;
        float prev_angle = 0.0f;
        for (int i = 1; i <= 240; ++i) {
            sw_spring_quat_update(&s, sw_quat_negate(goal), h, dt);
            sw_vec3 ax;
            float a;
            sw_quat_to_axis_angle(s.value, &ax, &a);
            assert_near(sw_quat_dot(s.value, s.value), 1.0, 1e-5);
            /* On the great arc: turning about the expected axis, monotonically. */
            if (a > 1e-3f) sw_test_vec3_near(ax, expect_axis, 1e-3f);
            assert_true(a >= prev_angle - 1e-5f);
            prev_angle = a;
            /* The remaining angle follows the scalar closed form. */
            const double remaining = closed_x(theta0, 0.0, 0.0, h, i * (double)dt);
            assert_near(theta0 - a, remaining, 2e-4);
        }
        sw_test_quat_near(s.value, goal, 1e-4f);
    }
}

static void test_quat_zero_state_and_vectors(void** state) {
    (void)state;
    sw_spring_quat s = {0}; /* all zeros reads as identity */
    const sw_quat goal = sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), 1.0f);
    sw_spring_quat_update(&s, goal, 0.1f, 0.1f);
    sw_vec3 ax;
    float a;
    sw_quat_to_axis_angle(s.value, &ax, &a);
    assert_near(a, 1.0 - closed_x(1.0, 0.0, 0.0, 0.1, 0.1), 1e-5);
    /* to_vector / from_vector round trip, and the shortest-arc sign. */
    uint32_t rng = 5u;
    for (int i = 0; i < 100; ++i) {
        const sw_quat q = sw_test_rand_quat(&rng);
        const sw_vec3 v = sw_spring_quat_to_vector(q);
        assert_true(sw_vec3_length(v) <= 3.1415927f + 1e-5f);
        sw_test_vec3_near(sw_spring_quat_to_vector(sw_quat_negate(q)), v, 1e-6f);
        sw_test_quat_near(sw_spring_quat_from_vector(v), q, 1e-5f);
    }
    sw_test_vec3_near(sw_spring_quat_to_vector(sw_quat_identity()), sw_vec3_make(0, 0, 0), 0);
    sw_test_quat_near(sw_spring_quat_from_vector(sw_vec3_make(1e-9f, 0, 0)), sw_quat_identity(),
                      1e-7f);
}

static void test_damper_exact_for_any_split(void** state) {
    (void)state;
    uint32_t rng = 9u;
    for (int k = 0; k < 50; ++k) {
        const float x0 = sw_test_rand(&rng, -5, 5), g = sw_test_rand(&rng, -5, 5);
        const float h = sw_test_rand(&rng, 0.02f, 1.0f), total = sw_test_rand(&rng, 0.0f, 3.0f);
        const double expect = g + (x0 - g) * pow(2.0, -total / h);
        assert_near(sw_spring_damp_float(x0, g, h, total), expect, 1e-5);
        /* The same total time in random pieces. */
        float x = x0, left = total;
        while (left > 0.0f) {
            float dt = fminf(left, sw_test_rand(&rng, 0.0f, 0.05f));
            if (left - dt < 1e-6f) dt = left;
            x = sw_spring_damp_float(x, g, h, dt);
            left -= dt;
        }
        assert_near(x, expect, 1e-4);
        sw_vec3 v = sw_spring_damp_vec3(sw_vec3_make(x0, 0, -x0), sw_vec3_make(g, 1, g), h, total);
        sw_test_vec3_near(v,
                          sw_vec3_make((float)expect, (float)(1.0 - pow(2.0, -total / h)),
                                       (float)(g + (-x0 - g) * pow(2.0, -total / h))),
                          1e-5f);
    }
    /* Quaternion damper: one half-life halves the angle, on the shortest arc. */
    const sw_quat goal = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), -2.0f);
    sw_quat q = sw_quat_identity();
    for (int i = 0; i < 10; ++i)
        q = sw_spring_damp_quat(q, sw_quat_negate(goal), 0.5f, 0.05f);
    sw_test_quat_near(q, sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), -1.0f), 1e-5f);
    assert_near(sw_spring_damp_factor(1.0f, 1.0f), 0.5, 1e-7);
    assert_near(sw_spring_damp_factor(0.0f, 1.0f), 1.0, 0);
    assert_near(sw_spring_damp_factor(1.0f, 0.0f), 0.0, 0);
}

static void test_moving_goal(void** state) {
    (void)state;
    /* Settled on a goal moving at constant speed: no lag. */
    sw_spring_float s = {.value = 1.0f, .velocity = 2.0f};
    sw_spring_float_update_moving(&s, 1.0f, 2.0f, 0.3f, 0.5f);
    assert_near(s.value, 2.0, 1e-6);
    assert_near(s.velocity, 2.0, 1e-6);
    /* From rest behind a moving goal: against the ODE in the goal's frame, and split-invariant. */
    uint32_t rng = 21u;
    for (int k = 0; k < 10; ++k) {
        const float x0 = sw_test_rand(&rng, -2, 2), v0 = sw_test_rand(&rng, -3, 3);
        const float g = sw_test_rand(&rng, -2, 2), gv = sw_test_rand(&rng, -3, 3);
        const float h = sw_test_rand(&rng, 0.05f, 0.5f), t = sw_test_rand(&rng, 0.1f, 2.0f);
        sw_spring_float a = {.value = x0, .velocity = v0}, b = a;
        sw_spring_float_update_moving(&a, g, gv, h, t);
        for (int i = 0; i < 10; ++i)
            sw_spring_float_update_moving(&b, g + gv * (t * (float)i / 10.0f), gv, h, t / 10.0f);
        double e = x0 - g, ev = v0 - gv; /* error relative to the goal obeys the plain spring */
        ode_spring(&e, &ev, 0.0, h, t);
        assert_near(a.value, g + gv * t + e, 1e-4);
        assert_near(a.velocity, gv + ev, 1e-3);
        assert_near(a.value, b.value, 1e-4);
        sw_spring_vec3 c = {.value = {x0, 0, 0}, .velocity = {v0, 0, 0}};
        sw_spring_vec3_update_moving(&c, sw_vec3_make(g, 0, 0), sw_vec3_make(gv, 0, 0), h, t);
        assert_near(c.value.x, a.value, 1e-6);
    }
}

static void test_velocity_spring(void** state) {
    (void)state;
    const sw_vec3 vg = {3, 0, -1};
    sw_spring_vec3 a = {.value = {0, 0, 0}, .velocity = {0, 0, 2}}, b = a;
    sw_spring_vec3_update_velocity(&a, vg, 0.25f, 1.0f);
    for (int i = 0; i < 60; ++i)
        sw_spring_vec3_update_velocity(&b, vg, 0.25f, 1.0f / 60.0f);
    /* Closed form: v = vg + (v0 - vg) 2^-4, x = vg t + (v0 - vg)(1 - 2^-4) h / ln 2. */
    const double f = 1.0 - pow(2.0, -4.0), k = 0.25 / log(2.0);
    sw_test_vec3_near(a.velocity,
                      sw_vec3_make((float)(3 - 3 * (1 - f)), 0, (float)(-1 + 3 * (1 - f))), 1e-5f);
    sw_test_vec3_near(a.value, sw_vec3_make((float)(3 - 3 * f * k), 0, (float)(-1 + 3 * f * k)),
                      1e-5f);
    sw_test_vec3_near(a.value, b.value, 1e-5f);
    sw_test_vec3_near(a.velocity, b.velocity, 1e-5f);
    /* Half-life 0: the goal velocity at once. */
    sw_spring_vec3 c = {.velocity = {9, 9, 9}};
    sw_spring_vec3_update_velocity(&c, vg, 0.0f, 0.5f);
    sw_test_vec3_near(c.velocity, vg, 0);
    sw_test_vec3_near(c.value, sw_vec3_scale(vg, 0.5f), 0);
}

static void test_degenerate_inputs(void** state) {
    (void)state;
    sw_spring_float s = {.value = 1.0f, .velocity = 5.0f};
    sw_spring_float_update(&s, 3.0f, 0.1f, 0.0f); /* dt 0: unchanged */
    assert_true(s.value == 1.0f && s.velocity == 5.0f);
    sw_spring_float_update(&s, 3.0f, 0.1f, -1.0f);
    sw_spring_float_update(&s, 3.0f, 0.1f, NAN);
    assert_true(s.value == 1.0f && s.velocity == 5.0f);
    sw_spring_float_update(&s, 3.0f, 0.0f, 0.016f); /* half-life 0 snaps */
    assert_true(s.value == 3.0f && s.velocity == 0.0f);
    s.velocity = 5.0f;
    sw_spring_float_update(&s, -3.0f, NAN, 0.016f);
    assert_true(s.value == -3.0f && s.velocity == 0.0f);
    /* Huge and infinite dt: at the goal, finite. */
    const float dts[] = {1e3f, 1e30f, INFINITY};
    for (int i = 0; i < 3; ++i) {
        sw_spring_vec3 v = {.value = {1e6f, -1e6f, 0}, .velocity = {1e6f, 0, -1e6f}};
        sw_spring_vec3_update(&v, sw_vec3_make(1, 2, 3), 0.1f, dts[i]);
        sw_test_vec3_near(v.value, sw_vec3_make(1, 2, 3), 1e-3f);
        assert_true(isfinite(v.velocity.x) && isfinite(v.velocity.z));
        sw_spring_quat q = {.value = sw_quat_identity(), .velocity = {100, 0, 0}};
        sw_spring_quat_update(&q, sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 1.0f), 0.1f,
                              dts[i]);
        sw_test_quat_near(q.value, sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 1.0f), 1e-5f);
        assert_near(sw_spring_damp_float(5.0f, 1.0f, 0.1f, dts[i]), 1.0, 0);
    }
}

/* Every half-life >= 0 and dt >= 0, however small or large, leaves every
 * spring and damper finite (the old float solution gave NaN for half-lives
 * up to ~9e-20 s at 60 Hz and for dt from ~1.2e36 s: 0 * inf). States move
 * at 50 units/s (at rest for the largest half-life, whose exact excursion
 * would pass float); values reach 3e38. A step of many half-lives lands on
 * the goal. */
static void test_extreme_half_life_and_dt(void** state) {
    (void)state;
    const float halves[] = {0.0f, 1e-45f, 1e-38f, 9e-20f, 1e-10f, 0.1f, 1e10f, 1e30f, FLT_MAX};
    const float dts[] = {0.0f, 1e-45f, 1e-30f, 1.0f / 60.0f, 1.0f, 1e20f, 1.2e36f, FLT_MAX};
    for (size_t h = 0; h < sizeof halves / sizeof *halves; ++h) {
        const float hl = halves[h], speed = hl <= 1e30f ? 50.0f : 0.0f;
        for (size_t d = 0; d < sizeof dts / sizeof *dts; ++d) {
            const float dt = dts[d];
            sw_spring_float f = {.value = 100.0f, .velocity = -speed};
            sw_spring_float_update(&f, 0.0f, hl, dt);
            sw_spring_vec3 v = {.value = sw_vec3_make(100, -200, 3e38f), .velocity = {speed, 0, 0}};
            sw_spring_vec3_update(&v, sw_vec3_make(0, 1, -3e38f), hl, dt);
            sw_spring_quat q = {.value = sw_quat_make(0, 0, 1, 0), .velocity = {speed, 0, 0}};
            sw_spring_quat_update(&q, sw_quat_identity(), hl, dt);
            sw_spring_vec3 w = {.value = sw_vec3_make(0, 0, 0), .velocity = {speed, 0, 0}};
            sw_spring_vec3_update_velocity(&w, sw_vec3_make(0, 0, 0), hl, dt);
            const float damp = sw_spring_damp_float(3e38f, -3e38f, hl, dt);
            const sw_vec3 damp3 =
                sw_spring_damp_vec3(sw_vec3_make(3e38f, 0, 0), sw_vec3_make(-3e38f, 1, 2), hl, dt);
            const float all[] = {f.value,      f.velocity, v.value.x,    v.value.y,    v.value.z,
                                 q.value.x,    q.value.w,  q.velocity.x, v.velocity.x, w.value.x,
                                 w.velocity.x, damp,       damp3.x};
            for (size_t k = 0; k < sizeof all / sizeof *all; ++k) {
                if (!isfinite(all[k])) {
                    fail_msg("half-life %g, dt %g: value %zu is %g", (double)hl, (double)dt, k,
                             (double)all[k]);
                }
            }
            if (dt > 0.0f && (hl == 0.0f || dt / hl > 1e3f)) {
                assert_true(f.value == 0.0f && f.velocity == 0.0f); /* many half-lives: goal */
                assert_true(v.value.z == -3e38f);
            }
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rate_constant),
        cmocka_unit_test(test_half_life_honoured),
        cmocka_unit_test(test_matches_closed_form_and_ode),
        cmocka_unit_test(test_30_vs_240_fps),
        cmocka_unit_test(test_no_overshoot_from_rest),
        cmocka_unit_test(test_quat_shortest_arc),
        cmocka_unit_test(test_quat_zero_state_and_vectors),
        cmocka_unit_test(test_damper_exact_for_any_split),
        cmocka_unit_test(test_moving_goal),
        cmocka_unit_test(test_velocity_spring),
        cmocka_unit_test(test_degenerate_inputs),
        cmocka_unit_test(test_extreme_half_life_and_dt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
