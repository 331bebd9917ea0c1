/* Walker: an eight-legged spider over bumpy analytic terrain with an
 * overhead beam for 20 s at 60 and 30 frames per second: planted feet never
 * move (bit for bit), partners are never both in the air, planted feet sit on
 * the ground, the body stays within its height limits (and near the mean
 * ground computed here), ducks under the beam, and replays bit-identically.
 * Also: standing still takes no step, turning in place steps every leg;
 * with stride_speed, step time and length follow speed (closed forms) with
 * a constant duty factor, and turning in place takes half-length steps; the
 * pose job reaches the feet with FABRIK and two-bone chains, validity tables. */
#include "ik_fixture.h"

#include "sinew/procedural/walker.h"

/* ---- the world: bumps and a beam across z in [BEAM_Z0, BEAM_Z1] ---- */

#define BEAM_Z0 4.0f
#define BEAM_Z1 4.3f
#define BEAM_BOTTOM 0.24f
#define BEAM_TOP 0.4f

typedef struct world {
    bool beam;
    uint32_t down, up; /* rays cast */
    bool bad;          /* a ray not vertical */
} world;

static float terrain(float x, float z) {
    return 0.05f * sinf(1.3f * x + 0.4f) + 0.04f * cosf(0.9f * z + 0.5f * x) +
           0.015f * sinf(3.1f * z);
}

static sw_vec3 terrain_normal(float x, float z) {
    const float dx =
        0.05f * 1.3f * cosf(1.3f * x + 0.4f) - 0.04f * 0.5f * sinf(0.9f * z + 0.5f * x);
    const float dz = -0.04f * 0.9f * sinf(0.9f * z + 0.5f * x) + 0.015f * 3.1f * cosf(3.1f * z);
    return sw_vec3_normalize(sw_vec3_make(-dx, 1.0f, -dz));
}

static bool under_beam(float z) {
    return z >= BEAM_Z0 && z <= BEAM_Z1;
}

static bool world_ray(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                      sw_vec3* normal) {
    world* w = user;
    if (fabsf(dir.x) > 1e-6f || fabsf(dir.z) > 1e-6f || fabsf(fabsf(dir.y) - 1.0f) > 1e-6f) {
        w->bad = true;
        return false;
    }
    const bool beam = w->beam && under_beam(from.z);
    if (dir.y < 0.0f) {
        w->down++;
        float best = INFINITY;
        sw_vec3 n = sw_vec3_make(0, 1, 0);
        if (beam && from.y >= BEAM_BOTTOM) {
            const float top = from.y >= BEAM_TOP ? BEAM_TOP : from.y; /* inside: hit at once */
            best = top;
        }
        const float g = terrain(from.x, from.z);
        if (g <= from.y && (!(best < INFINITY) || g > best)) {
            best = g;
            n = terrain_normal(from.x, from.z);
        }
        if (!(best < INFINITY) || from.y - best > max_distance) return false;
        *point = sw_vec3_make(from.x, best, from.z);
        *normal = n;
        return true;
    }
    w->up++;
    if (!beam || from.y > BEAM_BOTTOM || BEAM_BOTTOM - from.y > max_distance) return false;
    *point = sw_vec3_make(from.x, BEAM_BOTTOM, from.z);
    *normal = sw_vec3_make(0, -1, 0);
    return true;
}

/* ---- the spider ---- */

#define LEGS 8
/* Legs 0..3 on the left (-X), front to back; 4..7 on the right (+X).
 * Groups alternate along each side and across. */
static sw_walker_leg spider_legs[LEGS];

static sw_walker_desc spider(world* w) {
    for (uint32_t i = 0; i < 4; ++i) {
        const float z = 0.3f - 0.2f * (float)i;
        spider_legs[i] = (sw_walker_leg){.rest = {-0.35f, 0, z}, .group = i & 1u};
        spider_legs[4 + i] = (sw_walker_leg){.rest = {0.35f, 0, z}, .group = (i + 1u) & 1u};
    }
    return (sw_walker_desc){.legs = spider_legs,
                            .legs_count = LEGS,
                            .height = 0.25f,
                            .min_height = 0.1f,
                            .clearance = 0.03f,
                            .stride = 0.12f,
                            .step_duration = 0.2f,
                            .step_height = 0.06f,
                            .move_dip = 0.02f,
                            .ray_up = 0.1f,
                            .ray_down = 0.5f,
                            .ray = world_ray,
                            .ray_user = w};
}

/* Pairs that must never be in the air together: across the body and along
 * each side. */
static bool partners(uint32_t a, uint32_t b) {
    if (a / 4 != b / 4) return a % 4 == b % 4;
    return a + 1 == b || b + 1 == a;
}

/* Desired motion at time t: straight along +Z under the beam, then a turn,
 * then standing. */
static void steer(float t, sw_vec3* v, float* turn) {
    const float a = t < 9.0f ? 0.0f : 0.4f * (fminf(t, 16.0f) - 9.0f);
    const float speed = t < 16.0f ? 0.5f : 0.0f;
    *v = sw_vec3_make(speed * sinf(a), 0, speed * cosf(a));
    *turn = (t >= 9.0f && t < 16.0f) ? 0.4f : 0.0f;
}

typedef struct run_stats {
    uint32_t steps, frames_under_beam, frames;
    float lowest_under_beam, max_drift, max_ground_error;
} run_stats;

static void run_spider(float dt, sw_walker_state* out, run_stats* stats) {
    world w = {.beam = true};
    const sw_walker_desc d = spider(&w);
    sw_walker_state st;
    assert_int_equal(sw_walker_init(&d, sw_vec3_make(0, 0, 0), 0.0f, &st), SW_RESULT_OK);
    memset(stats, 0, sizeof(*stats));
    stats->lowest_under_beam = INFINITY;
    const uint32_t frames = (uint32_t)lroundf(20.0f / dt);
    for (uint32_t f = 0; f < frames; ++f) {
        const sw_walker_state prev = st;
        sw_walker_job job = {.desc = &d, .state = &st, .dt = dt};
        steer((float)f * dt, &job.velocity, &job.turn_rate);
        assert_int_equal(sw_walker_job_run(&job), SW_RESULT_OK);
        stats->frames++;
        for (uint32_t i = 0; i < LEGS; ++i) {
            const sw_walker_foot* a = &prev.feet[i];
            const sw_walker_foot* b = &st.feet[i];
            /* planted before and after, no landing in between: not a bit moved */
            if (!a->airborne && !b->airborne && a->steps == b->steps)
                assert_memory_equal(&a->position, &b->position, sizeof(sw_vec3));
            if (!b->airborne) {
                /* on the ground (the ray's hit: the terrain here, never the beam) */
                assert_near(b->position.y, terrain(b->position.x, b->position.z), 1e-5);
                const float drift = hypotf(b->position.x - b->ideal.x, b->position.z - b->ideal.z);
                if (drift > stats->max_drift) stats->max_drift = drift;
            }
            for (uint32_t j = i + 1; j < LEGS; ++j)
                if (partners(i, j) && b->airborne && st.feet[j].airborne)
                    fail_msg("frame %u: partners %u and %u both airborne", f, i, j);
        }
        /* height within its limits, measured from the springs' ground */
        const float rel = st.position.y - st.ground.value;
        assert_true(rel >= d.min_height - 1e-5f && rel <= d.height + 1e-5f);
        /* and from the mean terrain under the ideal feet, computed here */
        float mean = 0.0f;
        for (uint32_t i = 0; i < LEGS; ++i) {
            const float c = cosf(st.heading), s = sinf(st.heading);
            const sw_vec3 r = spider_legs[i].rest;
            mean += terrain(st.position.x + r.x * c + r.z * s, st.position.z - r.x * s + r.z * c);
        }
        mean /= LEGS;
        const float err = fabsf(st.ground.value - mean);
        if (err > stats->max_ground_error) stats->max_ground_error = err;
        if (under_beam(st.position.z)) {
            stats->frames_under_beam++;
            /* ducked: the body keeps its clearance below the beam */
            assert_true(st.position.y <= BEAM_BOTTOM - d.clearance + 2e-3f);
            if (st.position.y - st.ground.value < stats->lowest_under_beam)
                stats->lowest_under_beam = st.position.y - st.ground.value;
        }
        assert_false(w.bad);
    }
    for (uint32_t i = 0; i < LEGS; ++i)
        stats->steps += st.feet[i].steps;
    *out = st;
}

static void test_spider_20s(void** state) {
    (void)state;
    const float rates[2] = {1.0f / 60.0f, 1.0f / 30.0f};
    for (int k = 0; k < 2; ++k) {
        sw_walker_state a, b;
        run_stats sa, sb;
        run_spider(rates[k], &a, &sa);
        print_message("dt 1/%.0f: %u steps, %u frames under the beam (lowest %.3f m above ground), "
                      "max drift %.3f m, ground vs mean terrain %.4f m, end at (%.2f, %.2f)\n",
                      (double)(1.0f / rates[k]), sa.steps, sa.frames_under_beam,
                      (double)sa.lowest_under_beam, (double)sa.max_drift,
                      (double)sa.max_ground_error, (double)a.position.x, (double)a.position.z);
        assert_true(sa.frames_under_beam > 0);
        assert_true(sa.lowest_under_beam < 0.25f - 0.02f); /* really ducked */
        assert_true(sa.steps > 100);
        assert_true(sa.max_drift < 2.5f * 0.12f);
        assert_true(sa.max_ground_error < 0.01f);
        for (uint32_t i = 0; i < LEGS; ++i)
            assert_true(a.feet[i].steps > 10);
        /* standing at the end: everything planted, settled near home */
        for (uint32_t i = 0; i < LEGS; ++i) {
            assert_false(a.feet[i].airborne);
            assert_true(hypotf(a.feet[i].position.x - a.feet[i].ideal.x,
                               a.feet[i].position.z - a.feet[i].ideal.z) <= 0.25f * 0.12f + 1e-4f);
        }
        /* determinism */
        run_spider(rates[k], &b, &sb);
        assert_memory_equal(&a, &b, sizeof(a));
    }
}

static void test_stand_and_turn(void** state) {
    (void)state;
    world w = {0};
    const sw_walker_desc d = spider(&w);
    sw_walker_state st;
    assert_int_equal(sw_walker_init(&d, sw_vec3_make(1, 0, 2), 0.5f, &st), SW_RESULT_OK);
    const sw_walker_state start = st;
    /* at rest on the ground at its height */
    assert_near(st.position.y - st.ground.value, d.height, 1e-6);
    for (uint32_t i = 0; i < LEGS; ++i) {
        assert_near(st.feet[i].position.y, terrain(st.feet[i].position.x, st.feet[i].position.z),
                    1e-5);
    }
    /* standing still for 3 s: no foot moves, the body stays */
    for (int f = 0; f < 180; ++f) {
        sw_walker_job job = {.desc = &d, .state = &st, .dt = 1.0f / 60.0f};
        assert_int_equal(sw_walker_job_run(&job), SW_RESULT_OK);
    }
    for (uint32_t i = 0; i < LEGS; ++i) {
        assert_memory_equal(&st.feet[i].position, &start.feet[i].position, sizeof(sw_vec3));
        assert_int_equal(st.feet[i].steps, 0);
    }
    sw_test_vec3_near(st.position, start.position, 1e-5f);
    /* turning in place at 1 rad/s for 3 s: every leg steps, partners alternate */
    for (int f = 0; f < 180; ++f) {
        sw_walker_job job = {.desc = &d, .state = &st, .turn_rate = 1.0f, .dt = 1.0f / 60.0f};
        assert_int_equal(sw_walker_job_run(&job), SW_RESULT_OK);
        for (uint32_t i = 0; i < LEGS; ++i)
            for (uint32_t j = i + 1; j < LEGS; ++j)
                assert_false(partners(i, j) && st.feet[i].airborne && st.feet[j].airborne);
    }
    for (uint32_t i = 0; i < LEGS; ++i)
        assert_true(st.feet[i].steps >= 2);
    assert_near(st.position.x, start.position.x, 1e-4);
    assert_near(st.position.z, start.position.z, 1e-4);
    /* heading advanced by about 3 rad minus the damper's lag */
    const float turned = fmodf(st.heading - start.heading + 4.0f * 3.14159265f, 2.0f * 3.14159265f);
    assert_true(turned > 2.5f && turned < 3.0f);
}

/* ---- stride following speed (stride_speed) ---- */

typedef struct gait {
    float air;    /* mean time in the air per step, s */
    float length; /* mean horizontal distance from lift-off to landing, m */
    uint32_t steps;
} gait;

/* Steady motion at `v` and `turn` for 6 s at 240 Hz; steps lifting after
 * the first 2 s (the springs settled) are measured. */
static gait measure_gait(float stride_speed, sw_vec3 v, float turn) {
    world w = {0};
    sw_walker_desc d = spider(&w);
    d.stride_speed = stride_speed;
    sw_walker_state st;
    assert_int_equal(sw_walker_init(&d, sw_vec3_make(0, 0, 0), 0.0f, &st), SW_RESULT_OK);
    const float dt = 1.0f / 240.0f;
    float lifted_at[LEGS] = {0};
    bool counted[LEGS] = {false};
    gait g = {0};
    for (uint32_t f = 0; f < 6u * 240u; ++f) {
        const sw_walker_state prev = st;
        sw_walker_job job = {.desc = &d, .state = &st, .velocity = v, .turn_rate = turn, .dt = dt};
        assert_int_equal(sw_walker_job_run(&job), SW_RESULT_OK);
        for (uint32_t i = 0; i < LEGS; ++i) {
            const sw_walker_foot* b = &st.feet[i];
            if (!prev.feet[i].airborne && b->airborne) {
                lifted_at[i] = st.time;
                counted[i] = st.time > 2.0f;
            }
            if (prev.feet[i].airborne && !b->airborne && counted[i]) {
                g.air += st.time - lifted_at[i];
                g.length += hypotf(b->position.x - prev.feet[i].start.x,
                                   b->position.z - prev.feet[i].start.z);
                g.steps++;
            }
        }
    }
    assert_true(g.steps > 0);
    g.air /= (float)g.steps;
    g.length /= (float)g.steps;
    return g;
}

/* With stride_speed: 2 s at 1 m/s, then 3 s stopped: every foot lands
 * within a quarter stride of its rest position (the settle rule). */
static void test_stop_settles(void** state) {
    (void)state;
    world w = {0};
    sw_walker_desc d = spider(&w);
    d.stride_speed = 0.5f;
    sw_walker_state st;
    assert_int_equal(sw_walker_init(&d, sw_vec3_make(0, 0, 0), 0.0f, &st), SW_RESULT_OK);
    for (uint32_t f = 0; f < 300u; ++f) {
        sw_walker_job job = {.desc = &d, .state = &st, .dt = 1.0f / 60.0f};
        if (f < 120u) job.velocity = sw_vec3_make(0, 0, 1.0f);
        assert_int_equal(sw_walker_job_run(&job), SW_RESULT_OK);
    }
    for (uint32_t i = 0; i < LEGS; ++i) {
        assert_false(st.feet[i].airborne);
        const float drift = hypotf(st.feet[i].position.x - st.feet[i].ideal.x,
                                   st.feet[i].position.z - st.feet[i].ideal.z);
        assert_true(drift <= 0.25f * d.stride + 1e-4f);
    }
}

static void test_stride_follows_speed(void** state) {
    (void)state;
    const float base = 0.2f; /* the spider's step_duration, at stride_speed */
    const float speeds[3] = {0.25f, 0.5f, 1.0f};
    gait adapt[3], fixed[3];
    for (int k = 0; k < 3; ++k) {
        adapt[k] = measure_gait(0.5f, sw_vec3_make(0, 0, speeds[k]), 0.0f);
        fixed[k] = measure_gait(0.0f, sw_vec3_make(0, 0, speeds[k]), 0.0f);
        printf("%.2f m/s: adaptive %u steps, %.4f s in the air, %.4f m long; fixed %u steps, "
               "%.4f s, %.4f m\n",
               (double)speeds[k], adapt[k].steps, (double)adapt[k].air, (double)adapt[k].length,
               fixed[k].steps, (double)fixed[k].air, (double)fixed[k].length);
        /* closed form: walking straight, the feet move at the body's speed,
         * so a step lasts step_duration / sqrt(speed / stride_speed) (to the
         * frame that lands it) */
        const float expect = base / sqrtf(speeds[k] / 0.5f);
        assert_true(adapt[k].air >= expect - 1e-4f &&
                    adapt[k].air <= expect + 1.0f / 240.0f + 1e-4f);
        assert_true(fixed[k].air >= base - 1e-4f && fixed[k].air <= base + 1.0f / 240.0f + 1e-4f);
    }
    /* at stride_speed both agree. Step length is the drift at lift-off plus
     * the body's travel over the step and half a step ahead, so it grows as
     * sqrt(speed) (1.5 v x step_duration / sqrt(r) = sqrt(r) x 1.5 v0 x
     * step_duration): four times the speed, twice the length. */
    assert_near(adapt[1].length, fixed[1].length, 0.01f * fixed[1].length);
    assert_near(adapt[2].length / adapt[0].length, 2.0f, 0.1f);
    /* the fraction of time a foot spends in the air stays the same at every
     * speed (fixed timing: it grows with speed, until legs cannot keep up) */
    float duty_a[3], duty_f[3];
    for (int k = 0; k < 3; ++k) {
        duty_a[k] = adapt[k].air * (float)adapt[k].steps / (LEGS * 4.0f);
        duty_f[k] = fixed[k].air * (float)fixed[k].steps / (LEGS * 4.0f);
        printf("duty factor at %.2f m/s: adaptive %.3f, fixed %.3f\n", (double)speeds[k],
               (double)duty_a[k], (double)duty_f[k]);
    }
    assert_near(duty_a[2] / duty_a[0], 1.0f, 0.12f);
    assert_true(duty_f[2] / duty_f[0] > 1.5f);
    /* turning in place at 0.3 rad/s: the feet move at about 0.12 m/s */
    const gait turn_a = measure_gait(0.5f, sw_vec3_make(0, 0, 0), 0.3f);
    const gait turn_f = measure_gait(0.0f, sw_vec3_make(0, 0, 0), 0.3f);
    printf("turning: adaptive %u steps %.4f m, fixed %u steps %.4f m\n", turn_a.steps,
           (double)turn_a.length, turn_f.steps, (double)turn_f.length);
    /* r = 0.3 x 0.41 (mean rest radius) / 0.5, clamped to 1/4: steps half as
     * long as walking at stride_speed (a little less: the feet travel arcs) */
    assert_true(turn_a.length > 0.4f * adapt[1].length && turn_a.length < 0.5f * adapt[1].length);
}

/* ---- legs on a skeleton ---- */

/* A body with 4 legs: two FABRIK legs of 4 joints (coxa, femur, tibia, tip)
 * and two two-bone legs (hip, knee, foot). */
static const sw_skeleton* make_bug(void) {
    static const char* names[15] = {"body",   "coxa_l",  "femur_l", "tibia_l", "tip_l",
                                    "coxa_r", "femur_r", "tibia_r", "tip_r",   "hip_b",
                                    "knee_b", "foot_b",  "hip_c",   "knee_c",  "foot_c"};
    const int32_t parents[15] = {-1, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 0, 12, 13};
    const sw_vec3 t[15] = {{0, 0, 0},         {-0.1f, 0, 0.1f},    {-0.08f, 0.05f, 0},
                           {-0.1f, -0.1f, 0}, {-0.05f, -0.15f, 0}, {0.1f, 0, 0.1f},
                           {0.08f, 0.05f, 0}, {0.1f, -0.1f, 0},    {0.05f, -0.15f, 0},
                           {-0.1f, 0, -0.2f}, {-0.12f, -0.06f, 0}, {-0.1f, -0.2f, 0},
                           {0.1f, 0, -0.2f},  {0.12f, -0.06f, 0},  {0.1f, -0.2f, 0}};
    sw_skeleton_joint js[15];
    for (int j = 0; j < 15; ++j)
        js[j] = (sw_skeleton_joint){
            .name = names[j], .parent = parents[j], .rest = {t[j], {0, 0, 0, 1}, {1, 1, 1}}};
    const sw_skeleton_desc desc = {.joints = js, .joints_count = 15};
    const sw_skeleton* s = NULL;
    assert_int_equal(sw_skeleton_create(&desc, NULL, &s, NULL), SW_RESULT_OK);
    return s;
}

static const uint32_t bug_l[4] = {1, 2, 3, 4}, bug_r[4] = {5, 6, 7, 8};
static const uint32_t bug_b[3] = {9, 10, 11}, bug_c[3] = {12, 13, 14};

static void bug_model(ik_rig* r, const sw_mat4* body) {
    const sw_local_to_model_job l2m = {.skeleton = r->skel,
                                       .local = r->pose,
                                       .local_count = r->packets,
                                       .root_transform = body,
                                       .out = r->model,
                                       .out_count = r->joints};
    assert_int_equal(sw_local_to_model_job_run(&l2m), SW_RESULT_OK);
}

static void test_pose_job(void** state) {
    (void)state;
    world w = {0};
    const sw_walker_leg legs[4] = {{{-0.3f, 0, 0.15f}, 0},
                                   {{0.3f, 0, 0.15f}, 1},
                                   {{-0.3f, 0, -0.2f}, 1},
                                   {{0.3f, 0, -0.2f}, 0}};
    const sw_walker_desc d = {.legs = legs,
                              .legs_count = 4,
                              .height = 0.2f,
                              .stride = 0.08f,
                              .ray = world_ray,
                              .ray_user = &w};
    sw_walker_state st;
    assert_int_equal(sw_walker_init(&d, sw_vec3_make(0, 0, 0), 0.0f, &st), SW_RESULT_OK);
    const sw_skeleton* s = make_bug();
    ik_rig r;
    ik_rig_init(&r, s);
    const sw_walker_chain chains[4] = {
        {.joints = bug_l, .joints_count = 4, .pole = {0, 1, 0}},
        {.joints = bug_r, .joints_count = 4, .pole = {0, 1, 0}},
        {.joints = bug_b, .joints_count = 3, .pole = {0, 1, 0}},
        {.joints = bug_c,
         .joints_count = 3,
         .solver = SW_WALKER_SOLVER_TWO_BONE,
         .pole = {0, 1, 0}},
    };
    const sw_xform4* rest = sw_skeleton_rest_pose(s);
    float worst = 0.0f;
    for (int f = 0; f < 240; ++f) {
        sw_walker_job job = {.desc = &d,
                             .state = &st,
                             .velocity = sw_vec3_make(0.1f, 0, 0.3f),
                             .turn_rate = 0.3f,
                             .dt = 1.0f / 60.0f};
        assert_int_equal(sw_walker_job_run(&job), SW_RESULT_OK);
        const sw_mat4 body = sw_walker_body_matrix(&st);
        memcpy(r.pose, rest, sizeof(sw_xform4) * r.packets);
        bug_model(&r, &body);
        const sw_walker_pose_job pj = {.skeleton = s,
                                       .model = r.model,
                                       .model_count = r.joints,
                                       .root_transform = &body,
                                       .state = &st,
                                       .chains = chains,
                                       .chains_count = 4,
                                       .iterations = 20,
                                       .weight = 1.0f,
                                       .pose = r.pose,
                                       .pose_count = r.packets};
        assert_int_equal(sw_walker_pose_job_run(&pj), SW_RESULT_OK);
        bug_model(&r, &body);
        const uint32_t tips[4] = {4, 8, 11, 14};
        for (uint32_t i = 0; i < 4; ++i) {
            const float e = ik_dist(ik_pos(&r, tips[i]), st.feet[i].position);
            if (e > worst) worst = e;
            if (e > 1e-3f)
                print_message("frame %d leg %u: %.4f m off, %.3f from the chain root\n", f, i,
                              (double)e,
                              (double)ik_dist(ik_pos(&r, i < 2 ? 4 * i + 1 : 3 * i + 3),
                                              st.feet[i].position));
        }
        /* the body joint sits on the body transform */
        sw_test_vec3_near(ik_pos(&r, 0), st.position, 1e-6f);
    }
    print_message("pose job: worst tip-foot distance %.2e m over 4 s\n", (double)worst);
    assert_true(worst < 1e-3f);

    /* weight 0 leaves the pose bit-identical */
    const sw_mat4 body = sw_walker_body_matrix(&st);
    memcpy(r.pose, rest, sizeof(sw_xform4) * r.packets);
    bug_model(&r, &body);
    sw_walker_pose_job pj = {.skeleton = s,
                             .model = r.model,
                             .model_count = r.joints,
                             .root_transform = &body,
                             .state = &st,
                             .chains = chains,
                             .chains_count = 4,
                             .weight = 0.0f,
                             .pose = r.pose,
                             .pose_count = r.packets};
    assert_int_equal(sw_walker_pose_job_run(&pj), SW_RESULT_OK);
    assert_memory_equal(r.pose, rest, sizeof(sw_xform4) * r.packets);

    /* validity */
    pj.weight = 1.0f;
    assert_int_equal(sw_walker_pose_job_validate(&pj), SW_RESULT_OK);
    const sw_walker_pose_job zero = {0};
    assert_int_equal(sw_walker_pose_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_walker_pose_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    const uint32_t bad_order[4] = {3, 2, 1, 4};
    const uint32_t out_of_range[3] = {12, 13, 15};
    sw_walker_chain c_two_bone4[4], c_order[4], c_range[4], c_solver[4], c_pole[4], c_null[4],
        c_short[4];
    memcpy(c_two_bone4, chains, sizeof(chains));
    c_two_bone4[0].solver = SW_WALKER_SOLVER_TWO_BONE;
    memcpy(c_order, chains, sizeof(chains));
    c_order[0].joints = bad_order;
    memcpy(c_range, chains, sizeof(chains));
    c_range[3].joints = out_of_range;
    memcpy(c_solver, chains, sizeof(chains));
    c_solver[1].solver = (sw_walker_solver)7;
    memcpy(c_pole, chains, sizeof(chains));
    c_pole[2].pole.y = NAN;
    memcpy(c_null, chains, sizeof(chains));
    c_null[2].joints = NULL;
    memcpy(c_short, chains, sizeof(chains));
    c_short[1].joints_count = 1;
    SINEW_ALIGN16 sw_xform4 buf[5];
    enum { CASES = 20 };
    struct {
        sw_walker_pose_job job;
        sw_result expect;
    } cases[CASES];
    uint32_t n = 0;
    for (uint32_t i = 0; i < CASES; ++i)
        cases[i].job = pj;
    cases[n].job.skeleton = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.model = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.state = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.chains = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.pose = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.chains_count = 3, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.weight = -0.5f, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.weight = NAN, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.chains = c_two_bone4, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.chains = c_order, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.chains = c_range, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.chains = c_solver, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.chains = c_pole, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.chains = c_null, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.chains = c_short, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.model_count = r.joints - 1, cases[n++].expect = SW_RESULT_BUFFER_TOO_SMALL;
    cases[n].job.pose_count = r.packets - 1, cases[n++].expect = SW_RESULT_BUFFER_TOO_SMALL;
    cases[n].job.pose = (sw_xform4*)(void*)((char*)buf + 4),
    cases[n++].expect = SW_RESULT_MISALIGNED;
    cases[n].job.model = (const sw_mat4*)(const void*)r.pose, cases[n++].expect = SW_RESULT_OVERLAP;
    assert_true(n <= CASES);
    for (uint32_t i = 0; i < n; ++i) {
        const sw_result v = sw_walker_pose_job_validate(&cases[i].job);
        if (v != cases[i].expect)
            fail_msg("pose case %u: validate gave %s, expected %s", i, sw_result_str(v),
                     sw_result_str(cases[i].expect));
        assert_int_equal(sw_walker_pose_job_run(&cases[i].job), cases[i].expect);
        assert_memory_equal(r.pose, rest, sizeof(sw_xform4) * r.packets);
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

static void test_validity(void** state) {
    (void)state;
    world w = {0};
    const sw_walker_desc valid_desc = spider(&w);
    sw_walker_state st;
    assert_int_equal(sw_walker_init(&valid_desc, sw_vec3_make(0, 0, 0), 0.0f, &st), SW_RESULT_OK);
    const sw_walker_job zero = {0};
    assert_int_equal(sw_walker_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_walker_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_walker_job_validate(NULL), SW_RESULT_INVALID_ARGUMENT);
    const sw_walker_desc zero_desc = {0};
    assert_int_equal(sw_walker_init(&zero_desc, sw_vec3_make(0, 0, 0), 0.0f, &st),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_walker_init(&valid_desc, sw_vec3_make(NAN, 0, 0), 0.0f, &st),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_walker_init(&valid_desc, sw_vec3_make(0, 0, 0), INFINITY, &st),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_walker_init(NULL, sw_vec3_make(0, 0, 0), 0.0f, &st),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_walker_init(&valid_desc, sw_vec3_make(0, 0, 0), 0.0f, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_walker_init(&valid_desc, sw_vec3_make(0, 0, 0), 0.0f, &st), SW_RESULT_OK);
    const uint32_t rays = w.down + w.up;

    sw_walker_leg many[SW_WALKER_MAX_LEGS + 1];
    for (uint32_t i = 0; i <= SW_WALKER_MAX_LEGS; ++i)
        many[i] = spider_legs[i % LEGS];
    sw_walker_leg bad_group[LEGS], bad_rest[LEGS];
    memcpy(bad_group, spider_legs, sizeof(bad_group));
    bad_group[3].group = SW_WALKER_MAX_GROUPS;
    memcpy(bad_rest, spider_legs, sizeof(bad_rest));
    bad_rest[2].rest.z = NAN;

    enum { CASES = 40 };
    struct {
        sw_walker_desc desc;
        sw_walker_job job;
        sw_result expect;
    } cases[CASES];
    for (uint32_t i = 0; i < CASES; ++i) {
        cases[i].desc = valid_desc;
        cases[i].job = (sw_walker_job){.desc = &cases[i].desc,
                                       .state = &st,
                                       .velocity = {0.2f, 0, 0.1f},
                                       .turn_rate = 0.1f,
                                       .dt = 1.0f / 60.0f};
    }
    uint32_t n = 0;
#define DCASE(field, value, result)                                                                \
    (cases[n].desc.field = (value), cases[n++].expect = SW_RESULT_##result)
#define JCASE(field, value, result)                                                                \
    (cases[n].job.field = (value), cases[n++].expect = SW_RESULT_##result)
    JCASE(desc, NULL, INVALID_ARGUMENT);
    JCASE(state, NULL, INVALID_ARGUMENT);
    JCASE(velocity.x, NAN, INVALID_ARGUMENT);
    JCASE(turn_rate, INFINITY, INVALID_ARGUMENT);
    JCASE(dt, -1.0f, INVALID_ARGUMENT);
    JCASE(dt, NAN, INVALID_ARGUMENT);
    JCASE(state, (sw_walker_state*)(void*)&cases[n].desc, OVERLAP);
    DCASE(legs, NULL, INVALID_ARGUMENT);
    DCASE(ray, NULL, INVALID_ARGUMENT);
    DCASE(legs_count, 0, INVALID_ARGUMENT);
    DCASE(legs_count, LEGS - 1, INVALID_ARGUMENT); /* the state has 8 */
    cases[n].desc.legs = many, DCASE(legs_count, SW_WALKER_MAX_LEGS + 1, LIMIT);
    DCASE(legs, bad_group, INVALID_ARGUMENT);
    DCASE(legs, bad_rest, INVALID_ARGUMENT);
    DCASE(height, 0.0f, INVALID_ARGUMENT);
    DCASE(height, NAN, INVALID_ARGUMENT);
    DCASE(stride, -0.1f, INVALID_ARGUMENT);
    DCASE(stride, INFINITY, INVALID_ARGUMENT);
    DCASE(min_height, 0.3f, INVALID_ARGUMENT);
    DCASE(min_height, -0.1f, INVALID_ARGUMENT);
    DCASE(clearance, -0.01f, INVALID_ARGUMENT);
    DCASE(step_duration, NAN, INVALID_ARGUMENT);
    DCASE(step_height, -1.0f, INVALID_ARGUMENT);
    DCASE(move_dip, INFINITY, INVALID_ARGUMENT);
    DCASE(dip_speed, -1.0f, INVALID_ARGUMENT);
    DCASE(ray_up, -1.0f, INVALID_ARGUMENT);
    DCASE(ray_down, NAN, INVALID_ARGUMENT);
    DCASE(max_tilt, 2.0f, INVALID_ARGUMENT);
    DCASE(max_tilt, NAN, INVALID_ARGUMENT);
    DCASE(height_half_life, NAN, INVALID_ARGUMENT);
    DCASE(tilt_half_life, INFINITY, INVALID_ARGUMENT);
    DCASE(velocity_half_life, NAN, INVALID_ARGUMENT);
    DCASE(turn_half_life, -INFINITY, INVALID_ARGUMENT);
#undef DCASE
#undef JCASE
    assert_true(n <= CASES);
    for (uint32_t i = 0; i < n; ++i) {
        const sw_walker_state before = st;
        const sw_result v = sw_walker_job_validate(&cases[i].job);
        if (v != cases[i].expect)
            fail_msg("case %u: validate gave %s, expected %s", i, sw_result_str(v),
                     sw_result_str(cases[i].expect));
        assert_int_equal(sw_walker_job_run(&cases[i].job), cases[i].expect);
        assert_memory_equal(&before, &st, sizeof(st));
    }
    assert_int_equal(w.down + w.up, rays); /* refused jobs cast no ray */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spider_20s),
        cmocka_unit_test(test_stand_and_turn),
        cmocka_unit_test(test_stride_follows_speed),
        cmocka_unit_test(test_stop_settles),
        cmocka_unit_test(test_pose_job),
        cmocka_unit_test(test_validity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
