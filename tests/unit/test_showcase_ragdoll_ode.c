/* The showcase's ragdoll actors on the ODE backend: they exist only with
 * physics and leave the other actors unchanged, the scene stays
 * deterministic, the powered walker follows its animation under impulses,
 * the knock-down falls, settles, picks the get-up clip by how it lies and
 * blends into it without a joint-velocity jump above the clip's own, also
 * over long runs. */
#include "test_util.h"

#include "sinew/backends/ode.h"
#include "sinew/showcase/character.h"
#include "sinew/showcase/scene.h"

#define FPS 30.0f
#define MAX_JOINTS 64

typedef struct physics_scene {
    sw_ode_world* world;
    sw_physics physics;
    sw_showcase* sc;
} physics_scene;

static sw_result step_world(void* world) {
    return sw_ode_world_step((sw_ode_world*)world);
}

/* The scene with the seed given (`sinew demo`'s is 0), on ODE if with_physics. */
static void scene_open(physics_scene* p, bool with_physics, uint32_t seed) {
    memset(p, 0, sizeof *p);
    sw_showcase_options o = {.seed = seed};
    if (with_physics) {
        assert_int_equal(sw_ode_world_create(&(sw_ode_world_desc){0}, NULL, &p->world, NULL),
                         SW_RESULT_OK);
        p->physics = sw_ode_world_physics(p->world);
        o.physics = &p->physics;
        o.physics_step = step_world;
        o.physics_user = p->world;
        o.physics_step_size = sw_ode_world_step_size(p->world);
    }
    sw_error err;
    const sw_result r = sw_showcase_create(&o, &p->sc, &err);
    if (r != SW_RESULT_OK) fail_msg("showcase: %s (%s)", sw_result_str(r), err.check);
}

static void scene_close(physics_scene* p) {
    sw_showcase_destroy(p->sc);
    if (p->world) {
        /* the scene removed its bodies and joints from the world */
        assert_int_equal(sw_ode_world_bodies_count(p->world), 0u);
        assert_int_equal(sw_ode_world_joints_count(p->world), 0u);
        sw_ode_world_destroy(p->world, NULL);
    }
}

static uint32_t find_actor(const sw_showcase* sc, const char* name) {
    for (uint32_t i = 0; i < sw_showcase_actors_count(sc); ++i)
        if (strcmp(sw_showcase_get_actor(sc, i).name, name) == 0) return i;
    fail_msg("no actor %s", name);
    return 0;
}

static bool same_actor(const sw_showcase_actor* a, const sw_showcase_actor* b) {
    return a->skeleton->joints_count == b->skeleton->joints_count &&
           memcmp(a->local, b->local, a->skeleton->packets_count * sizeof(sw_xform4)) == 0 &&
           memcmp(a->model, b->model, a->skeleton->joints_count * sizeof(sw_mat4)) == 0 &&
           memcmp(&a->world, &b->world, sizeof a->world) == 0;
}

/* Without physics: the nine actors and no ragdoll figures; with it, two
 * more, and the nine others move exactly as without. Physics without a
 * step callback is refused. */
static void test_actors_with_and_without_physics(void** state) {
    (void)state;
    physics_scene plain, phys;
    scene_open(&plain, false, 7u);
    scene_open(&phys, true, 7u);
    const uint32_t n = sw_showcase_actors_count(plain.sc);
    assert_int_equal(n, 9u);
    assert_int_equal(sw_showcase_actors_count(phys.sc), n + 2u);
    assert_string_equal(sw_showcase_get_actor(phys.sc, n).name, "powered");
    assert_string_equal(sw_showcase_get_actor(phys.sc, n + 1u).name, "knockdown");
    assert_null(sw_showcase_get_actor(plain.sc, n).name);
    assert_int_equal(sw_showcase_get_status(plain.sc).knockdown_phase, SW_SHOWCASE_KNOCKDOWN_NONE);
    for (uint32_t f = 0; f < 90u; ++f) {
        assert_int_equal(sw_showcase_update(plain.sc, 1.0f / FPS, NULL), SW_RESULT_OK);
        assert_int_equal(sw_showcase_update(phys.sc, 1.0f / FPS, NULL), SW_RESULT_OK);
        for (uint32_t i = 0; i < n; ++i) {
            const sw_showcase_actor a = sw_showcase_get_actor(plain.sc, i);
            const sw_showcase_actor b = sw_showcase_get_actor(phys.sc, i);
            assert_string_equal(a.name, b.name);
            assert_true(same_actor(&a, &b));
        }
    }
    const sw_showcase_metrics* m = sw_showcase_get_metrics(plain.sc);
    assert_int_equal(m->ragdoll_impulses, 0u);
    assert_int_equal(m->knockdowns, 0u);
    scene_close(&plain);
    scene_close(&phys);

    sw_ode_world* w = NULL;
    assert_int_equal(sw_ode_world_create(&(sw_ode_world_desc){0}, NULL, &w, NULL), SW_RESULT_OK);
    const sw_physics ph = sw_ode_world_physics(w);
    sw_showcase* sc = NULL;
    sw_showcase_options o = {.physics = &ph};
    assert_int_equal(sw_showcase_create(&o, &sc, NULL), SW_RESULT_INVALID_ARGUMENT);
    o.physics_step = step_world;
    o.physics_user = w;
    o.physics_step_size = -1.0f;
    assert_int_equal(sw_showcase_create(&o, &sc, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_null(sc);
    assert_int_equal(sw_ode_world_bodies_count(w), 0u);
    sw_ode_world_destroy(w, NULL);
}

/* Two runs with the same seed give bit-identical poses and metrics. */
static void test_deterministic(void** state) {
    (void)state;
    physics_scene a, b;
    scene_open(&a, true, 7u);
    scene_open(&b, true, 7u);
    const uint32_t n = sw_showcase_actors_count(a.sc);
    for (uint32_t f = 0; f < (uint32_t)(9.0f * FPS); ++f) {
        assert_int_equal(sw_showcase_update(a.sc, 1.0f / FPS, NULL), SW_RESULT_OK);
        assert_int_equal(sw_showcase_update(b.sc, 1.0f / FPS, NULL), SW_RESULT_OK);
        for (uint32_t i = 0; i < n; ++i) {
            const sw_showcase_actor x = sw_showcase_get_actor(a.sc, i);
            const sw_showcase_actor y = sw_showcase_get_actor(b.sc, i);
            if (!same_actor(&x, &y)) fail_msg("actor %s differs at frame %u", x.name, f);
        }
    }
    assert_memory_equal(sw_showcase_get_metrics(a.sc), sw_showcase_get_metrics(b.sc),
                        sizeof(sw_showcase_metrics));
    assert_true(sw_showcase_get_metrics(a.sc)->knockdowns >= 1u);
    scene_close(&a);
    scene_close(&b);
}

/* The powered walker: impulses land and push it off its animation (it is
 * simulated), and its motors bring it back (mean error a few centimetres). */
static void test_powered_walker(void** state) {
    (void)state;
    physics_scene p;
    scene_open(&p, true, 7u);
    for (uint32_t f = 0; f < (uint32_t)(6.0f * FPS); ++f)
        assert_int_equal(sw_showcase_update(p.sc, 1.0f / FPS, NULL), SW_RESULT_OK);
    const sw_showcase_metrics* m = sw_showcase_get_metrics(p.sc);
    print_message("powered: %u impulses, tracking error mean %.2f cm, max %.2f cm\n",
                  m->ragdoll_impulses, (double)m->ragdoll_tracking_error_mean * 100.0,
                  (double)m->ragdoll_tracking_error_max * 100.0);
    assert_true(m->ragdoll_impulses >= 15u);
    assert_true(m->ragdoll_tracking_error_max > 0.005f);
    assert_true(m->ragdoll_tracking_error_mean < 0.05f);
    assert_true(m->ragdoll_tracking_error_max < 0.20f);
    /* it walks: the hips travel round the circle, upright */
    const sw_showcase_actor a = sw_showcase_get_actor(p.sc, find_actor(p.sc, "powered"));
    const int32_t hips = sw_skeleton_find_joint(a.skeleton, "Hips");
    const int32_t head = sw_skeleton_find_joint(a.skeleton, "Head");
    assert_true(a.model[head].m[13] - a.model[hips].m[13] > 0.4f);
    scene_close(&p);
}

/* Velocities of every joint of an actor between two updates. */
static void velocities(const sw_mat4* prev, const sw_mat4* cur, uint32_t n, sw_vec3* v) {
    for (uint32_t j = 0; j < n; ++j)
        v[j] =
            sw_vec3_scale(sw_vec3_make(cur[j].m[12] - prev[j].m[12], cur[j].m[13] - prev[j].m[13],
                                       cur[j].m[14] - prev[j].m[14]),
                          FPS);
}

/* The knock-down over two cycles: it falls, settles, gets up face up after
 * the hit from the front and face down after the hit from behind, the
 * clip matching how the hips lie when it starts; from the last ragdoll
 * frame through the get-up no joint's velocity jumps more between two
 * updates than the get-up clip's own (sampled here at the same rate). */
static void test_knockdown_and_getup(void** state) {
    (void)state;
    physics_scene p;
    scene_open(&p, true, 7u);
    const sw_showcase_actor a0 = sw_showcase_get_actor(p.sc, find_actor(p.sc, "knockdown"));
    const uint32_t n = a0.skeleton->joints_count;
    const int32_t hips = sw_skeleton_find_joint(a0.skeleton, "Hips");
    /* the get-up clips' own velocity jumps at 30 Hz */
    sw_scene human;
    const sw_clip* getup[SW_SHOWCASE_GETUP_CLIPS];
    assert_int_equal(sw_showcase_humanoid(NULL, &human, NULL, NULL), SW_RESULT_OK);
    assert_int_equal(sw_showcase_humanoid_getup(&human, NULL, getup, NULL), SW_RESULT_OK);
    float noise = 0.0f;
    for (uint32_t c = 0; c < SW_SHOWCASE_GETUP_CLIPS; ++c) {
        _Alignas(16) sw_xform4 local[16];
        sw_mat4 model[3][MAX_JOINTS];
        for (uint32_t k = 0; (float)k / FPS <= getup[c]->duration; ++k) {
            const sw_sample_job sj = {.clip = getup[c],
                                      .skeleton = human.skeleton,
                                      .time = (float)k / FPS,
                                      .out = local,
                                      .out_count = 16};
            assert_int_equal(sw_sample_job_run(&sj), SW_RESULT_OK);
            const sw_local_to_model_job lj = {.skeleton = human.skeleton,
                                              .local = local,
                                              .local_count = 16,
                                              .out = model[k % 3u],
                                              .out_count = MAX_JOINTS};
            assert_int_equal(sw_local_to_model_job_run(&lj), SW_RESULT_OK);
            if (k < 2u) continue;
            sw_vec3 v0[MAX_JOINTS], v1[MAX_JOINTS];
            velocities(model[(k - 2u) % 3u], model[(k - 1u) % 3u], n, v0);
            velocities(model[(k - 1u) % 3u], model[k % 3u], n, v1);
            for (uint32_t j = 0; j < n; ++j)
                noise = fmaxf(noise, sw_vec3_length(sw_vec3_sub(v1[j], v0[j])));
        }
        sw_clip_destroy(getup[c], NULL);
    }
    sw_scene_free(&human, NULL);

    sw_mat4 prev[MAX_JOINTS], cur[MAX_JOINTS];
    sw_vec3 vprev[MAX_JOINTS], vcur[MAX_JOINTS];
    uint32_t phase = SW_SHOWCASE_KNOCKDOWN_STANDING, seen = 0, falls = 0, ups[2] = {0, 0};
    float jump = 0.0f;
    bool have_prev = false, have_vel = false;
    for (uint32_t f = 0; f < (uint32_t)(16.0f * FPS); ++f) {
        assert_int_equal(sw_showcase_update(p.sc, 1.0f / FPS, NULL), SW_RESULT_OK);
        const sw_showcase_actor a = sw_showcase_get_actor(p.sc, find_actor(p.sc, "knockdown"));
        const uint32_t now = sw_showcase_get_status(p.sc).knockdown_phase;
        memcpy(cur, a.model, n * sizeof(sw_mat4));
        if (have_prev) velocities(prev, cur, n, vcur);
        if (now == SW_SHOWCASE_KNOCKDOWN_FALLING && phase == SW_SHOWCASE_KNOCKDOWN_STANDING)
            ++falls;
        if (now == SW_SHOWCASE_KNOCKDOWN_GETTING_UP && phase == SW_SHOWCASE_KNOCKDOWN_FALLING) {
            /* face up: the hips' forward axis (+Z) points up */
            const sw_vec3 fwd = sw_mat4_vector(&a.model[hips], sw_vec3_make(0, 0, 1));
            const sw_showcase_metrics* m = sw_showcase_get_metrics(p.sc);
            const uint32_t up = m->getups_face_up, down = m->getups_face_down;
            if (fwd.y > 0.0f) {
                assert_int_equal(up, ups[0] + 1u);
                ++ups[0];
            } else {
                assert_int_equal(down, ups[1] + 1u);
                ++ups[1];
            }
            /* lying, not standing */
            assert_true(a.model[hips].m[13] < 0.4f);
        }
        if (now == SW_SHOWCASE_KNOCKDOWN_GETTING_UP && have_vel)
            for (uint32_t j = 0; j < n; ++j)
                jump = fmaxf(jump, sw_vec3_length(sw_vec3_sub(vcur[j], vprev[j])));
        if (now == SW_SHOWCASE_KNOCKDOWN_STANDING && phase == SW_SHOWCASE_KNOCKDOWN_GETTING_UP) {
            ++seen;
            /* standing again: hips at the idle's height */
            assert_true(a.model[hips].m[13] > 0.85f);
        }
        memcpy(prev, cur, n * sizeof(sw_mat4));
        memcpy(vprev, vcur, n * sizeof(sw_vec3));
        have_vel = have_prev;
        have_prev = true;
        phase = now;
    }
    const sw_showcase_metrics* m = sw_showcase_get_metrics(p.sc);
    print_message("knock-downs %u, get-ups %u (up %u, down %u), settle %.2f s (max %.2f), jump "
                  "%.3f m/s (metric %.3f), clip noise %.3f m/s (metric %.3f)\n",
                  m->knockdowns, m->getups_done, m->getups_face_up, m->getups_face_down,
                  (double)m->settle_time_last, (double)m->settle_time_max, (double)jump,
                  (double)m->getup_velocity_jump_max, (double)noise,
                  (double)m->getup_clip_noise_max);
    assert_int_equal(falls, m->knockdowns);
    assert_true(seen >= 2u);
    assert_int_equal(m->getups_done, seen);
    assert_true(ups[0] >= 1u && ups[1] >= 1u); /* both clips used */
    assert_true(m->settle_time_max > 0.5f && m->settle_time_max < 6.0f);
    assert_true(jump <= noise + 1e-4f);
    assert_true(m->getup_velocity_jump_max <= m->getup_clip_noise_max);
    scene_close(&p);
}

/* Over a minute of knock-downs the knock-down actor stays near its spot
 * (its get-ups move it, the hits push it back), clear of the other actors. */
static void test_knockdown_stays_near_its_spot(void** state) {
    (void)state;
    physics_scene p;
    scene_open(&p, true, 7u);
    const uint32_t k = find_actor(p.sc, "knockdown");
    const sw_showcase_actor a0 = sw_showcase_get_actor(p.sc, k);
    const sw_vec3 spot = sw_vec3_make(a0.world.m[12], 0.0f, a0.world.m[14]);
    float far = 0.0f;
    for (uint32_t f = 0; f < (uint32_t)(60.0f * FPS); ++f) {
        assert_int_equal(sw_showcase_update(p.sc, 1.0f / FPS, NULL), SW_RESULT_OK);
        const sw_showcase_actor a = sw_showcase_get_actor(p.sc, k);
        far = fmaxf(far, hypotf(a.model[0].m[12] - spot.x, a.model[0].m[14] - spot.z));
    }
    const sw_showcase_metrics* m = sw_showcase_get_metrics(p.sc);
    print_message("%u knock-downs in 60 s (%u face up, %u face down), hips at most %.2f m from "
                  "the spot\n",
                  m->knockdowns, m->getups_face_up, m->getups_face_down, (double)far);
    assert_true(m->knockdowns >= 6u);
    assert_true(far < 1.5f);
    assert_true(m->getups_face_up >= 2u && m->getups_face_down >= 2u);
    scene_close(&p);
}

/* Knock-downs for `seconds` at `fps` updates a second with the seed given
 * (`sinew demo --seed`): every get-up's blend from the ragdoll's pose into
 * the clip stays within the clip's own velocity noise (the scene's
 * figures). Issue 16, with the demo's seed 0: at 60 Hz the 23rd get-up,
 * 152 s in, swung a hand 47 cm through the ground and the ground guard's
 * lift flipped its elbow over (17.9 m/s against the clip's 0.69); at 30 Hz
 * the 6th, 38 s in, jumped 0.82 m/s. */
static void knockdown_long_run(uint32_t seed, float fps, float seconds) {
    physics_scene p;
    scene_open(&p, true, seed);
    for (uint32_t f = 0; f < (uint32_t)(seconds * fps); ++f)
        assert_int_equal(sw_showcase_update(p.sc, 1.0f / fps, NULL), SW_RESULT_OK);
    const sw_showcase_metrics* m = sw_showcase_get_metrics(p.sc);
    print_message("seed %u, %.0f Hz, %.0f s: %u get-ups, jump %.3f m/s, clip noise %.3f m/s\n",
                  seed, (double)fps, (double)seconds, m->getups_done,
                  (double)m->getup_velocity_jump_max, (double)m->getup_clip_noise_max);
    assert_true(m->getups_done >= (uint32_t)(seconds / 8.0f));
    assert_true(m->getup_velocity_jump_max <= m->getup_clip_noise_max);
    scene_close(&p);
}

static void test_knockdown_long_run_60hz(void** state) {
    (void)state;
    knockdown_long_run(0u, 60.0f, 160.0f);
}

static void test_knockdown_long_run_30hz(void** state) {
    (void)state;
    knockdown_long_run(0u, 30.0f, 60.0f);
}

/* Seed 11 at 30 Hz, the 24th get-up (158.5 s in, face down): the blended
 * right knee passed straight, its bend's normal swept round and the IK's
 * roll with it, the toe spinning about the leg (6.29 m/s); the left
 * elbow's turn toward the clip's bend reversed where that bend, seen across
 * the swinging arm, went past opposite (1.68 m/s). */
static void test_knockdown_long_run_30hz_seed11(void** state) {
    (void)state;
    knockdown_long_run(11u, 30.0f, 160.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_actors_with_and_without_physics),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_powered_walker),
        cmocka_unit_test(test_knockdown_and_getup),
        cmocka_unit_test(test_knockdown_stays_near_its_spot),
        cmocka_unit_test(test_knockdown_long_run_60hz),
        cmocka_unit_test(test_knockdown_long_run_30hz),
        cmocka_unit_test(test_knockdown_long_run_30hz_seed11),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
