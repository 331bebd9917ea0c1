/* Hit effects: shake window, bounds, smoothness, determinism and seeds; the
 * envelopes against the smoothstep written here; the pause's total over any
 * split of real time; pose shake bounds and validity. */
#include "test_util.h"

#include "runtime/core/internal.h"
#include "sinew/procedural/hit.h"

static const sw_shake_desc shake = {
    .position_amplitude = {0.05f, 0.03f, 0.01f},
    .position_frequency = 12.0f,
    .rotation_amplitude = {0.02f, 0.015f, 0.04f},
    .rotation_frequency = 9.0f,
    .fov_amplitude = 0.03f,
    .fov_frequency = 5.0f,
    .fade_in = 0.05f,
    .hold = 0.2f,
    .fade_out = 0.4f,
    .seed = 42u,
};

/* Independent envelope: smoothstep up, flat, smoothstep down. */
static double expect_envelope(double t, double a, double h, double r) {
    if (t < 0 || t > a + h + r) return 0;
    if (t < a) {
        double x = t / a;
        return x * x * (3 - 2 * x);
    }
    if (t <= a + h) return 1;
    double x = 1 - (t - a - h) / r;
    return x * x * (3 - 2 * x);
}

static bool sample_is_zero(const sw_shake_sample* s) {
    return s->position.x == 0 && s->position.y == 0 && s->position.z == 0 && s->rotation.x == 0 &&
           s->rotation.y == 0 && s->rotation.z == 0 && s->fov == 0 && s->envelope == 0 &&
           s->offset.r.w == 1 && s->offset.t.x == 0;
}

static void test_shake_zero_outside_window(void** state) {
    (void)state;
    const float d = sw_shake_duration(&shake);
    assert_near(d, 0.65, 1e-6);
    const float outside[] = {-1.0f, -1e-6f, d + 1e-4f, d + 10.0f, NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 7; ++i) {
        sw_shake_sample s = sw_shake_eval(&shake, outside[i]);
        assert_true(sample_is_zero(&s));
    }
    sw_shake_sample s = sw_shake_eval(NULL, 0.1f);
    assert_true(sample_is_zero(&s));
    /* All-zero desc: zero-length window; only t = 0 is inside, with zero amplitudes. */
    const sw_shake_desc zero = {0};
    s = sw_shake_eval(&zero, 0.0f);
    assert_true(s.position.x == 0 && s.rotation.z == 0 && s.fov == 0);
    s = sw_shake_eval(&zero, 0.01f);
    assert_true(sample_is_zero(&s));
}

static void test_shake_bounded_and_smooth(void** state) {
    (void)state;
    const float d = sw_shake_duration(&shake);
    for (uint32_t seed = 0; seed < 20; ++seed) {
        sw_shake_desc desc = shake;
        desc.seed = seed * 7919u;
        float peak_pos = 0, peak_rot = 0, peak_fov = 0, worst_rate = 0;
        sw_shake_sample prev = sw_shake_eval(&desc, 0.0f);
        const float dt = 1e-4f;
        for (int i = 1; i <= (int)(d / dt); ++i) {
            const float t = (float)i * dt;
            const sw_shake_sample s = sw_shake_eval(&desc, t);
            const float e = s.envelope;
            assert_near(e, expect_envelope(t, 0.05, 0.2, 0.4), 1e-5);
            assert_true(fabsf(s.position.x) <= desc.position_amplitude.x * e + 1e-7f);
            assert_true(fabsf(s.position.y) <= desc.position_amplitude.y * e + 1e-7f);
            assert_true(fabsf(s.position.z) <= desc.position_amplitude.z * e + 1e-7f);
            assert_true(fabsf(s.rotation.x) <= desc.rotation_amplitude.x * e + 1e-7f);
            assert_true(fabsf(s.rotation.y) <= desc.rotation_amplitude.y * e + 1e-7f);
            assert_true(fabsf(s.rotation.z) <= desc.rotation_amplitude.z * e + 1e-7f);
            assert_true(fabsf(s.fov) <= desc.fov_amplitude * e + 1e-7f);
            /* The offset is the position and the ZYX rotation. */
            sw_test_vec3_near(s.offset.t, s.position, 0);
            sw_test_quat_near(s.offset.r, sw_quat_from_euler(s.rotation, SW_EULER_ORDER_ZYX),
                              1e-7f);
            peak_pos = fmaxf(peak_pos, fabsf(s.position.x) / desc.position_amplitude.x);
            peak_rot = fmaxf(peak_rot, fabsf(s.rotation.z) / desc.rotation_amplitude.z);
            peak_fov = fmaxf(peak_fov, fabsf(s.fov) / desc.fov_amplitude);
            /* Smooth: the slope of x is at most amplitude * 2 pi f * sum(w m) * 1.15,
             * plus the envelope's slope (1.5 / fade) times the amplitude. */
            const float rate = fabsf(s.position.x - prev.position.x) / dt;
            worst_rate = fmaxf(worst_rate, rate);
            prev = s;
        }
        const float bound =
            desc.position_amplitude.x *
            (6.2831853f * 12.0f * (0.5f + 0.3f * 2.13f + 0.2f * 3.71f) * 1.15f + 1.5f / 0.05f);
        assert_true(worst_rate <= bound);
        /* Not vacuous: every channel reaches a good part of its amplitude. */
        assert_true(peak_pos > 0.3f && peak_rot > 0.3f && peak_fov > 0.2f);
    }
}

static void test_shake_deterministic_per_seed(void** state) {
    (void)state;
    sw_shake_desc other = shake;
    other.seed = 43u;
    float max_diff = 0;
    for (int i = 0; i < 600; ++i) {
        const float t = (float)i * 0.001f + 0.05f;
        const sw_shake_sample a = sw_shake_eval(&shake, t);
        const sw_shake_sample b = sw_shake_eval(&shake, t);
        assert_memory_equal(&a, &b, sizeof a);
        const sw_shake_sample c = sw_shake_eval(&other, t);
        max_diff = fmaxf(max_diff, fabsf(a.position.x - c.position.x));
        max_diff = fmaxf(max_diff, fabsf(a.rotation.y - c.rotation.y) * 3.0f);
    }
    assert_true(max_diff > 0.2f * shake.position_amplitude.x);
    /* Different seeds give different signals for every channel. */
    int differing = 0;
    for (uint32_t seed = 1; seed < 50; ++seed) {
        sw_shake_desc a = shake, b = shake;
        a.seed = seed;
        b.seed = seed + 1000u;
        const sw_shake_sample sa = sw_shake_eval(&a, 0.123f), sb = sw_shake_eval(&b, 0.123f);
        if (sa.position.x != sb.position.x && sa.rotation.z != sb.rotation.z && sa.fov != sb.fov)
            ++differing;
    }
    assert_int_equal(differing, 49);
}

static void test_shake_apply(void** state) {
    (void)state;
    const sw_xform camera = {
        {1, 2, 3}, sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 0.7f), {1, 1, 1}};
    const sw_shake_sample s = sw_shake_eval(&shake, 0.1f);
    const sw_xform out = sw_shake_apply(camera, &s);
    /* The offset is in camera space: the position moves along the camera's axes. */
    sw_test_vec3_near(out.t, sw_vec3_add(camera.t, sw_quat_rotate(camera.r, s.position)), 1e-6f);
    sw_test_quat_near(out.r, sw_quat_mul(camera.r, s.offset.r), 1e-6f);
    const sw_xform same = sw_shake_apply(camera, NULL);
    assert_memory_equal(&same, &camera, sizeof camera);
    /* Infinite hold: active for as long as it is evaluated. */
    sw_shake_desc forever = shake;
    forever.hold = INFINITY;
    assert_near(sw_shake_envelope(&forever, 1000.0f), 1.0f, 0);
    assert_true(isinf(sw_shake_duration(&forever)));
}

static void test_fov_pulse(void** state) {
    (void)state;
    const sw_fov_pulse_desc p = {.amount = 0.2f, .attack = 0.08f, .hold = 0.1f, .release = 0.3f};
    assert_near(sw_fov_pulse_eval(&p, -0.01f), 0.0f, 0);
    assert_near(sw_fov_pulse_eval(&p, 0.0f), 0.0f, 0);
    assert_near(sw_fov_pulse_eval(&p, 0.08f), -0.2, 1e-6);
    assert_near(sw_fov_pulse_eval(&p, 0.15f), -0.2, 1e-6);
    assert_near(sw_fov_pulse_eval(&p, 0.48f), 0.0, 1e-6);
    assert_near(sw_fov_pulse_eval(&p, 0.5f), 0.0f, 0);
    assert_near(sw_fov_pulse_eval(NULL, 0.1f), 0.0f, 0);
    /* Continuous: over steps of 1e-4 s no jump beyond the steepest smoothstep slope. */
    const float dt = 1e-4f;
    float prev = sw_fov_pulse_envelope(&p, -dt), worst = 0;
    for (int i = 0; i < 6000; ++i) {
        const float t = (float)i * dt;
        const float e = sw_fov_pulse_envelope(&p, t);
        assert_near(e, expect_envelope(t, 0.08, 0.1, 0.3), 1e-5);
        worst = fmaxf(worst, fabsf(e - prev));
        prev = e;
    }
    assert_true(worst <= 1.5f * dt / 0.08f + 1e-5f);
    /* Zero attack: starts at the peak (documented jump). */
    const sw_fov_pulse_desc snap = {.amount = 0.1f, .hold = 0.1f, .release = 0.1f};
    assert_near(sw_fov_pulse_eval(&snap, 0.0f), -0.1f, 0);
}

static void test_hit_pause_exact_over_splits(void** state) {
    (void)state;
    const double expect = 0.1 * 0.25 + 0.4; /* 0.1 s at 0.25, then 0.4 s at 1 */
    const int rates[] = {2, 30, 60, 144, 240};
    for (int k = 0; k < 5; ++k) {
        sw_hit_pause p = {0};
        sw_hit_pause_start(&p, 0.1f, 0.25f);
        double total = 0;
        const int frames = rates[k] / 2;
        for (int f = 0; f < frames; ++f)
            total += sw_hit_pause_scale_dt(&p, 1.0f / (float)rates[k]);
        assert_near(total, expect, 2e-6);
        assert_false(sw_hit_pause_active(&p));
    }
    uint32_t rng = 77u;
    for (int trial = 0; trial < 100; ++trial) {
        sw_hit_pause p = {0};
        const float dur = sw_test_rand(&rng, 0.01f, 0.3f), scale = sw_test_rand(&rng, 0.0f, 1.0f);
        sw_hit_pause_start(&p, dur, scale);
        double real = 0, game = 0;
        while (real < 0.5) {
            const float dt = sw_test_rand(&rng, 0.001f, 0.05f);
            game += sw_hit_pause_scale_dt(&p, dt);
            real += dt;
        }
        assert_near(game, (double)dur * scale + (real - dur), 1e-5);
    }
    /* One frame straddling the end. */
    sw_hit_pause p = {0};
    sw_hit_pause_start(&p, 0.05f, 0.0f);
    assert_near(sw_hit_pause_scale_dt(&p, 0.02f), 0.0f, 0);
    assert_true(sw_hit_pause_active(&p));
    assert_near(sw_hit_pause_scale_dt(&p, 0.1f), 0.07, 1e-7);
    assert_false(sw_hit_pause_active(&p));
    assert_near(sw_hit_pause_scale_dt(&p, 0.1f), 0.1f, 0);
}

static void test_hit_pause_rules(void** state) {
    (void)state;
    sw_hit_pause p = {0};
    assert_false(sw_hit_pause_active(&p));
    assert_near(sw_hit_pause_scale_dt(&p, 0.016f), 0.016f, 0); /* zero state: no pause */
    sw_hit_pause_start(&p, 0.1f, 0.5f);
    sw_hit_pause_start(&p, 0.05f, 0.2f); /* shorter but slower: keeps 0.1 s, takes 0.2 */
    assert_near(p.remaining, 0.1f, 0);
    assert_near(p.scale, 0.2f, 0);
    sw_hit_pause_start(&p, 0.3f, 0.9f); /* longer, faster: 0.3 s, keeps 0.2 */
    assert_near(p.remaining, 0.3f, 0);
    assert_near(p.scale, 0.2f, 0);
    sw_hit_pause_start(&p, 0.0f, 0.0f);
    sw_hit_pause_start(&p, NAN, 0.0f);
    sw_hit_pause_start(&p, 1.0f, NAN);
    sw_hit_pause_start(NULL, 1.0f, 0.0f);
    assert_near(p.remaining, 0.3f, 0);
    assert_near(p.scale, 0.2f, 0);
    /* dt <= 0 or NaN: 0, pause unchanged. */
    assert_near(sw_hit_pause_scale_dt(&p, 0.0f), 0.0f, 0);
    assert_near(sw_hit_pause_scale_dt(&p, -1.0f), 0.0f, 0);
    assert_near(sw_hit_pause_scale_dt(&p, NAN), 0.0f, 0);
    assert_near(p.remaining, 0.3f, 0);
    assert_near(sw_hit_pause_scale_dt(NULL, 0.5f), 0.5f, 0);
    sw_hit_pause q = {0};
    sw_hit_pause_start(&q, 0.1f, 7.0f); /* scale clamped to 1 */
    assert_near(q.scale, 1.0f, 0);
}

static void test_pose_shake(void** state) {
    (void)state;
    sw_xform4* pose = aligned_alloc(16, sizeof(sw_xform4) * 2);
    sw_xform4* orig = aligned_alloc(16, sizeof(sw_xform4) * 2);
    uint32_t rng = 99u;
    for (uint32_t j = 0; j < 8; ++j) {
        const sw_xform x = {{(float)j, 0, 0}, sw_test_rand_quat(&rng), {1, 1, 1}};
        sw_pose_set(orig, j, x);
    }
    const uint32_t joints[3] = {1, 4, 6};
    sw_pose_shake_job job = {
        .joints = joints,
        .joints_count = 3,
        .amplitude = 0.1f,
        .frequency = 10.0f,
        .half_life = 0.2f,
        .seed = 5u,
        .pose = pose,
        .pose_count = 2,
    };
    float peak = 0;
    for (int i = -5; i < 400; ++i) {
        memcpy(pose, orig, sizeof(sw_xform4) * 2);
        job.time = (float)i * 0.0025f;
        assert_int_equal(sw_pose_shake_job_run(&job), SW_RESULT_OK);
        const float bound = job.time < 0 ? 0.0f : 0.1f * exp2f(-job.time / 0.2f);
        for (uint32_t j = 0; j < 8; ++j) {
            const sw_xform a = sw_pose_get(pose, j), b = sw_pose_get(orig, j);
            const bool listed = j == 1 || j == 4 || j == 6;
            if (!listed || job.time < 0) {
                assert_memory_equal(&a, &b, sizeof a);
                continue;
            }
            sw_test_vec3_near(a.t, b.t, 0);
            sw_vec3 axis;
            float angle;
            sw_quat_to_axis_angle(sw_quat_mul(a.r, sw_quat_conjugate(b.r)), &axis, &angle);
            assert_true(angle <= bound + 2e-6f);
            peak = fmaxf(peak, angle / fmaxf(bound, 1e-9f));
        }
    }
    assert_true(peak > 0.3f);
    /* Deterministic, and another seed turns differently. */
    job.time = 0.05f;
    memcpy(pose, orig, sizeof(sw_xform4) * 2);
    sw_pose_shake_job_run(&job);
    sw_xform first = sw_pose_get(pose, 4);
    memcpy(pose, orig, sizeof(sw_xform4) * 2);
    sw_pose_shake_job_run(&job);
    sw_xform again = sw_pose_get(pose, 4);
    assert_memory_equal(&first, &again, sizeof first);
    job.seed = 6u;
    memcpy(pose, orig, sizeof(sw_xform4) * 2);
    sw_pose_shake_job_run(&job);
    sw_xform other = sw_pose_get(pose, 4);
    assert_true(fabsf(sw_quat_dot(first.r, other.r)) < 0.999999f);
    job.seed = 5u;

    /* Validity table. */
    const sw_pose_shake_job valid = job;
    const sw_pose_shake_job zero = {0};
    assert_int_equal(sw_pose_shake_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_pose_shake_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_pose_shake_job_validate(NULL), SW_RESULT_INVALID_ARGUMENT);
    const uint32_t out_of_range[1] = {8};
    enum { CASES = 12 };
    struct {
        sw_pose_shake_job job;
        sw_result expect;
    } c[CASES];
    for (int i = 0; i < CASES; ++i)
        c[i].job = valid, c[i].expect = SW_RESULT_INVALID_ARGUMENT;
    c[0].job.joints = NULL;
    c[1].job.pose = NULL;
    c[2].job.joints_count = 0;
    c[3].job.joints = out_of_range, c[3].job.joints_count = 1;
    c[4].job.amplitude = -0.1f;
    c[5].job.amplitude = INFINITY;
    c[6].job.frequency = -1.0f;
    c[7].job.half_life = NAN;
    c[8].job.time = NAN;
    c[9].job.pose = (sw_xform4*)(void*)((char*)pose + 4), c[9].expect = SW_RESULT_MISALIGNED;
    c[10].job.joints = (const uint32_t*)(const void*)&pose[1].rx[0],
    c[10].expect = SW_RESULT_OVERLAP;
    c[11].job.pose_count = 1;
    memcpy(pose, orig, sizeof(sw_xform4) * 2);
    pose[1].rx[0] = 0.0f, pose[1].rx[1] = 0.0f, pose[1].rx[2] = 0.0f; /* joint indices 0 */
    for (int i = 0; i < CASES; ++i) {
        sw_xform4 before[2];
        memcpy(before, pose, sizeof before);
        assert_int_equal(sw_pose_shake_job_validate(&c[i].job), c[i].expect);
        assert_int_equal(sw_pose_shake_job_run(&c[i].job), c[i].expect);
        assert_memory_equal(before, pose, sizeof before);
    }
    free(pose);
    free(orig);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shake_zero_outside_window),
        cmocka_unit_test(test_shake_bounded_and_smooth),
        cmocka_unit_test(test_shake_deterministic_per_seed),
        cmocka_unit_test(test_shake_apply),
        cmocka_unit_test(test_fov_pulse),
        cmocka_unit_test(test_hit_pause_exact_over_splits),
        cmocka_unit_test(test_hit_pause_rules),
        cmocka_unit_test(test_pose_shake),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
