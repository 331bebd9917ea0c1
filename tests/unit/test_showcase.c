/* The showcase scene (sinew/showcase/scene.h) and `sinew demo`: every actor
 * moves and stays finite, the walker's planted feet do not slide, IK reaches
 * what it can, inputs steer the scene, runs are deterministic; the demo's
 * three files re-import (glTF reader), parse (metrics.json) and decode
 * (PNG, through Python's zlib when available); RobotExpressive runs; a
 * recorded run merges into one scene (sinew/showcase/recording.h). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, WEXITSTATUS */
#include "sinew/showcase/scene.h"

#include <sys/wait.h>
#include <unistd.h>

#include "sinew/showcase/character.h"
#include "sinew/showcase/recording.h"
#include "sinew/tools/readers/bvh.h"
#include "sinew/tools/readers/gltf.h"
#include "sinew/tools/writers/raster.h"
#include "test_util.h"

#define SCRATCH_NAME "test_showcase"
#include "scratch.h"

static bool finite_mat(const sw_mat4* m) {
    for (int i = 0; i < 16; ++i)
        if (!isfinite(m->m[i])) return false;
    return true;
}

static sw_showcase* make(uint32_t seed) {
    const sw_showcase_options opt = {.seed = seed};
    sw_showcase* s = NULL;
    sw_error err = {0};
    const sw_result r = sw_showcase_create(&opt, &s, &err);
    if (r != SW_RESULT_OK)
        fail_msg("create: %s (%s)", sw_result_str(r), err.check ? err.check : "");
    return s;
}

static int32_t actor_index(const sw_showcase* s, const char* name) {
    for (uint32_t i = 0; i < sw_showcase_actors_count(s); ++i)
        if (strcmp(sw_showcase_get_actor(s, i).name, name) == 0) return (int32_t)i;
    return -1;
}

static void test_actors_move(void** state) {
    (void)state;
    sw_showcase* s = make(0);
    static const char* const names[] = {"locomotion", "reach", "caterpillar", "arm",    "spider",
                                        "hit",        "idle",  "props",       "targets"};
    assert_int_equal(sw_showcase_actors_count(s), 9);
    for (uint32_t k = 0; k < 9; ++k)
        assert_true(actor_index(s, names[k]) >= 0);
    assert_int_equal(sw_showcase_get_actor(s, 99).skeleton, NULL);
    const uint32_t n = sw_showcase_actors_count(s);
    sw_mat4* first[SW_SHOWCASE_MAX_ACTORS];
    for (uint32_t i = 0; i < n; ++i) {
        const sw_showcase_actor a = sw_showcase_get_actor(s, i);
        first[i] = (sw_mat4*)malloc(a.skeleton->joints_count * sizeof(sw_mat4));
        memcpy(first[i], a.model, a.skeleton->joints_count * sizeof(sw_mat4));
    }
    /* Spider body height above the ground: lower under the beam than elsewhere. */
    const int32_t sp = actor_index(s, "spider");
    float under = 1.0f, open = 0.0f;
    for (int f = 0; f < 60 * 12; ++f) {
        assert_int_equal(sw_showcase_update(s, 1.0f / 60.0f, NULL), SW_RESULT_OK);
        const sw_showcase_actor a = sw_showcase_get_actor(s, (uint32_t)sp);
        const float x = a.world.m[12], y = a.world.m[13], z = a.world.m[14];
        const float h = y - sw_showcase_ground_height(x, z);
        /* the beam spans z in [0.75, 1.05] past the spider's spot (-3.1, -3.1) */
        if (z > -3.1f + 0.8f && z < -3.1f + 1.0f) under = fminf(under, h);
        if (z < -3.1f + 0.4f) open = fmaxf(open, h);
    }
    assert_near(sw_showcase_time(s), 12.0, 1e-3);
    print_message("spider body above the ground: %.3f m in the open, %.3f m under the beam\n",
                  (double)open, (double)under);
    assert_true(under < open - 0.01f);
    for (uint32_t i = 0; i < n; ++i) {
        const sw_showcase_actor a = sw_showcase_get_actor(s, i);
        for (uint32_t j = 0; j < a.skeleton->joints_count; ++j)
            assert_true(finite_mat(&a.model[j]));
        for (uint32_t k = 0; k < a.meshes_count; ++k)
            for (uint32_t p = 0; p < a.meshes[k]->palette_count; ++p)
                assert_true(finite_mat(&a.palettes[k][p]));
        float moved = 0.0f;
        for (uint32_t j = 0; j < a.skeleton->joints_count; ++j)
            moved =
                fmaxf(moved, sw_vec3_length(sw_vec3_make(a.model[j].m[12] - first[i][j].m[12],
                                                         a.model[j].m[13] - first[i][j].m[13],
                                                         a.model[j].m[14] - first[i][j].m[14])));
        /* everything but the props moves */
        if (strcmp(a.name, "props") != 0)
            assert_true(moved > 0.01f);
        else
            assert_true(moved == 0.0f);
        free(first[i]);
    }
    const sw_showcase_metrics* m = sw_showcase_get_metrics(s);
    print_message("walker: %u steps, sliding max %.3f cm; locomotion: %u steps, sliding max %.3f "
                  "cm locked, %.2f cm (mean %.2f cm) unlocked; reach error %.4f cm; arm error "
                  "%.4f cm (%u frames out of reach); penetration feet %.2f cm, tips %.3f cm; "
                  "hits %u\n",
                  m->spider_steps, (double)m->spider_slide_max * 100.0, m->locomotion_steps,
                  (double)m->locomotion_slide_max * 100.0,
                  (double)m->locomotion_unlocked_slide_max * 100.0,
                  (double)m->locomotion_unlocked_slide_mean * 100.0,
                  (double)m->reach_error_max * 100.0, (double)m->arm_error_max * 100.0,
                  m->arm_out_of_reach_frames, (double)m->foot_penetration_max * 100.0,
                  (double)m->spider_penetration_max * 100.0, m->hits);
    assert_int_equal(m->features & 63u, 63u); /* the built-in humanoid has everything */
    assert_true(m->spider_steps > 100);
    assert_true(m->spider_slide_max < 0.01f);
    assert_true(m->spider_penetration_max < 0.005f);
    assert_true(m->locomotion_steps > 10);
    assert_int_equal(m->locomotion_unlocked_steps, m->locomotion_steps);
    assert_true(m->locomotion_slide_max < 0.002f); /* the lock holds planted ankles */
    assert_true(m->locomotion_unlocked_slide_max > m->locomotion_slide_max);
    assert_true(m->reach_error_max < 1e-3f);
    assert_true(m->arm_error_max < 1e-3f);
    assert_true(m->arm_out_of_reach_frames > 0); /* the target does leave the arm's reach */
    uint32_t hits = 0;                           /* at 1.2 s, then every 1.8 s */
    for (double h = 1.2; h <= sw_showcase_time(s); h += 1.8)
        ++hits;
    assert_int_equal(m->hits, hits);
    assert_true(m->transitions >= 1);
    sw_showcase_destroy(s);
}

/* An allocator that fails from allocation number `fail_at` on and counts the
 * blocks still live (by block, not by the size given back to free_fn). */
typedef struct counting {
    uint32_t calls, fail_at;
    size_t live;
} counting;

static void* counting_alloc(void* user, size_t size, size_t align) {
    counting* c = (counting*)user;
    if (c->calls++ >= c->fail_at) return NULL;
    void* p = aligned_alloc(align, (size + align - 1) / align * align);
    if (p) ++c->live;
    return p;
}

static void counting_free(void* user, void* ptr, size_t size) {
    counting* c = (counting*)user;
    if (!ptr) return;
    (void)size;
    --c->live;
    free(ptr);
}

/* Every allocation failure gives OUT_OF_MEMORY with nothing left allocated. */
static void test_allocation_failures(void** state) {
    (void)state;
    uint32_t n = 0;
    for (;; ++n) {
        counting c = {.fail_at = n};
        const sw_allocator alloc = {counting_alloc, counting_free, &c};
        const sw_showcase_options opt = {.alloc = &alloc};
        sw_showcase* s = NULL;
        sw_error err = {0};
        const sw_result r = sw_showcase_create(&opt, &s, &err);
        if (r == SW_RESULT_OK) {
            assert_int_equal(sw_showcase_update(s, 0.5f, NULL), SW_RESULT_OK);
            assert_true(c.calls == n); /* update allocates nothing */
            sw_showcase_destroy(s);
            assert_int_equal(c.live, 0);
            break;
        }
        assert_int_equal(r, SW_RESULT_OUT_OF_MEMORY);
        assert_null(s);
        assert_int_equal(c.live, 0);
        assert_true(n < 10000);
    }
    print_message("create makes %u allocations\n", n);
    assert_true(n > 10);
}

/* The randomized idle never repeats: for no period up to 20 s does the head
 * retrace its path over the last 20 s within 1 cm. */
static void test_idle_never_repeats(void** state) {
    (void)state;
    sw_showcase* s = make(3);
    const uint32_t idle = (uint32_t)actor_index(s, "idle");
    const int32_t head = sw_skeleton_find_joint(sw_showcase_get_actor(s, idle).skeleton, "Head");
    assert_true(head >= 0);
    enum { N = 400 }; /* every 0.1 s for 40 s */
    sw_vec3* p = (sw_vec3*)malloc(N * sizeof(sw_vec3));
    for (int i = 0; i < N; ++i) {
        for (int k = 0; k < 3; ++k)
            assert_int_equal(sw_showcase_update(s, 1.0f / 30.0f, NULL), SW_RESULT_OK);
        const sw_mat4* m = &sw_showcase_get_actor(s, idle).model[head];
        p[i] = sw_vec3_make(m->m[12], m->m[13], m->m[14]);
    }
    float closest = 1e9f;
    for (int lag = 5; lag <= 200; ++lag) {
        float worst = 0.0f;
        for (int i = N - 200; i < N; ++i)
            worst = fmaxf(worst, sw_vec3_length(sw_vec3_sub(p[i], p[i - lag])));
        closest = fminf(closest, worst);
    }
    print_message("idle head: closest repeat over 20 s differs by %.1f cm\n",
                  (double)closest * 100.0);
    assert_true(closest > 0.01f);
    free(p);
    sw_showcase_destroy(s);
}

static void test_inputs(void** state) {
    (void)state;
    sw_showcase* s = make(0);
    const int32_t reach = actor_index(s, "reach");
    const int32_t loco = actor_index(s, "locomotion");
    const sw_showcase_actor r0 = sw_showcase_get_actor(s, (uint32_t)reach);
    const int32_t hand = sw_skeleton_find_joint(r0.skeleton, "RightHand");
    const int32_t shoulder = sw_skeleton_find_joint(r0.skeleton, "RightArm");
    assert_true(hand >= 0 && shoulder >= 0);
    const sw_vec3 start = sw_vec3_make(sw_showcase_get_actor(s, (uint32_t)loco).world.m[12], 0,
                                       sw_showcase_get_actor(s, (uint32_t)loco).world.m[14]);
    /* A reach target just in front of the shoulder; locomotion held at speed 0. */
    sw_showcase_inputs in = {.has_speed = true, .speed = 0.0f, .has_reach_target = true};
    in.reach_target = sw_vec3_add(
        sw_vec3_make(r0.model[shoulder].m[12], r0.model[shoulder].m[13], r0.model[shoulder].m[14]),
        sw_vec3_make(-0.1f, -0.1f, 0.35f));
    for (int f = 0; f < 90; ++f)
        assert_int_equal(sw_showcase_update(s, 1.0f / 30.0f, &in), SW_RESULT_OK);
    /* t = 3 s: the reach weight is 1 from 1.8 s to 4 s */
    const sw_showcase_actor r = sw_showcase_get_actor(s, (uint32_t)reach);
    const sw_vec3 h = sw_vec3_make(r.model[hand].m[12], r.model[hand].m[13], r.model[hand].m[14]);
    sw_test_vec3_near(h, in.reach_target, 1e-3f);
    const sw_showcase_actor l = sw_showcase_get_actor(s, (uint32_t)loco);
    assert_true(sw_vec3_length(sw_vec3_sub(sw_vec3_make(l.world.m[12], 0, l.world.m[14]), start)) <
                0.05f);
    /* Invalid calls change nothing. */
    const double t = sw_showcase_time(s);
    assert_int_equal(sw_showcase_update(NULL, 0.1f, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_showcase_update(s, -0.1f, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_showcase_update(s, NAN, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_showcase_update(s, INFINITY, NULL), SW_RESULT_INVALID_ARGUMENT);
    sw_showcase_inputs bad = {.has_camera = true, .camera = {NAN, 0, 0}};
    assert_int_equal(sw_showcase_update(s, 0.1f, &bad), SW_RESULT_INVALID_ARGUMENT);
    bad = (sw_showcase_inputs){.speed = INFINITY};
    assert_int_equal(sw_showcase_update(s, 0.1f, &bad), SW_RESULT_INVALID_ARGUMENT);
    assert_true(sw_showcase_time(s) == t);
    /* A long dt is split into steps of at most 1/30 s. */
    const uint32_t u = sw_showcase_get_metrics(s)->updates;
    assert_int_equal(sw_showcase_update(s, 0.5f, NULL), SW_RESULT_OK);
    assert_int_equal(sw_showcase_get_metrics(s)->updates - u, 15);
    sw_showcase_destroy(s);
    /* Create failures. */
    sw_showcase* out = (sw_showcase*)(void*)&out;
    assert_int_equal(sw_showcase_create(NULL, NULL, NULL), SW_RESULT_INVALID_ARGUMENT);
    const sw_scene empty = {0};
    const sw_showcase_options no_skel = {.character = &empty};
    sw_error err = {0};
    assert_int_equal(sw_showcase_create(&no_skel, &out, &err), SW_RESULT_INVALID_ARGUMENT);
    assert_null(out);
    const sw_showcase_options missing = {.clip_names = {"no such clip", NULL, NULL}};
    assert_int_equal(sw_showcase_create(&missing, &out, &err), SW_RESULT_NOT_FOUND);
    assert_string_equal(err.check, "named clip exists");
    sw_showcase_destroy(NULL);
    /* NULL-safe accessors. */
    assert_int_equal(sw_showcase_actors_count(NULL), 0);
    assert_null(sw_showcase_get_metrics(NULL));
}

/* Heading of an actor's world transform: its +Z turned about +Y (0 faces +Z). */
static float world_heading(const sw_mat4* w) {
    return atan2f(w->m[8], w->m[10]);
}

static sw_vec3 world_ground(const sw_mat4* w) {
    return sw_vec3_make(w->m[12], 0.0f, w->m[14]);
}

static float wrap_pi(float a) {
    while (a > 3.14159265f)
        a -= 6.2831853f;
    while (a < -3.14159265f)
        a += 6.2831853f;
    return a;
}

/* Steering: the spider and the locomotion humanoid leave their circles and
 * go straight along their heading at the steered fraction of their walking
 * speed (spider 0.22 m/s, humanoid its walk clip's), turn at the steered
 * rate, and the spider strafes to its right. The expectations are the
 * inputs integrated over time (distance v t, angle w t), less the lag of
 * their smoothing (the walker's velocity and turn springs, the humanoid's
 * speed spring: half-lives 0.2 and 0.5 s) and its ramp-up. */
static void run_steer(sw_showcase* s, float forward, float strafe, float turn, float seconds) {
    const sw_showcase_inputs in = {
        .has_steer = true, .steer_forward = forward, .steer_strafe = strafe, .steer_turn = turn};
    for (int f = 0; f < (int)(seconds * 30.0f + 0.5f); ++f)
        assert_int_equal(sw_showcase_update(s, 1.0f / 30.0f, &in), SW_RESULT_OK);
}

/* Distance along heading h of a ground displacement, as a share of its length too. */
static float along(sw_vec3 d, float h, float* share) {
    const float a = d.x * sinf(h) + d.z * cosf(h);
    *share = a / fmaxf(sw_vec3_length(d), 1e-9f);
    return a;
}

static void test_steer(void** state) {
    (void)state;
    sw_showcase* s = make(0);
    const uint32_t spider = (uint32_t)actor_index(s, "spider");
    const uint32_t loco = (uint32_t)actor_index(s, "locomotion");
    float walk[SW_SHOWCASE_HUMANOID_CLIPS];
    sw_scene hum;
    assert_int_equal(sw_showcase_humanoid(NULL, &hum, walk, NULL), SW_RESULT_OK);
    sw_scene_free(&hum, NULL);
    /* Settle at rest first: both stand still. */
    run_steer(s, 0.0f, 0.0f, 0.0f, 2.0f);
    const sw_mat4 w0 = sw_showcase_get_actor(s, spider).world;
    const sw_mat4 l0 = sw_showcase_get_actor(s, loco).world;
    /* Straight ahead at a walk for 4 s. */
    run_steer(s, 1.0f, 0.0f, 0.0f, 4.0f);
    const sw_mat4 w1 = sw_showcase_get_actor(s, spider).world;
    const sw_mat4 l1 = sw_showcase_get_actor(s, loco).world;
    float share = 0.0f;
    const float ds =
        along(sw_vec3_sub(world_ground(&w1), world_ground(&w0)), world_heading(&w0), &share);
    print_message("spider steered ahead: %.3f m in 4 s (v t = 0.88 m), heading %.4f -> %.4f\n",
                  (double)ds, (double)world_heading(&w0), (double)world_heading(&w1));
    assert_true(ds > 0.75f && ds < 0.89f && share > 0.995f);
    assert_true(fabsf(wrap_pi(world_heading(&w1) - world_heading(&w0))) < 0.01f);
    const float dl =
        along(sw_vec3_sub(world_ground(&l1), world_ground(&l0)), world_heading(&l0), &share);
    print_message("humanoid steered ahead: %.3f m in 4 s (v t = %.2f m), heading %.4f -> %.4f\n",
                  (double)dl, (double)(4.0f * walk[1]), (double)world_heading(&l0),
                  (double)world_heading(&l1));
    assert_true(dl > 4.0f * walk[1] - 1.0f && dl < 4.0f * walk[1] + 0.05f && share > 0.99f);
    /* (the clips' hip twist swings the root motion's yaw by a few hundredths within a step) */
    assert_true(fabsf(wrap_pi(world_heading(&l1) - world_heading(&l0))) < 0.08f);
    /* Turning in place at 0.5 rad/s for 3 s: 1.5 rad less the lag. */
    run_steer(s, 0.0f, 0.0f, 0.5f, 3.0f);
    sw_mat4 w2 = sw_showcase_get_actor(s, spider).world;
    const sw_mat4 l2 = sw_showcase_get_actor(s, loco).world;
    const float turned_s = wrap_pi(world_heading(&w2) - world_heading(&w1));
    const float turned_l = wrap_pi(world_heading(&l2) - world_heading(&l1));
    print_message("turned in 3 s at 0.5 rad/s: spider %.3f rad, humanoid %.3f rad\n",
                  (double)turned_s, (double)turned_l);
    assert_true(turned_s > 1.2f && turned_s < 1.51f);
    assert_true(turned_l > 1.4f && turned_l < 1.6f);
    /* Strafing right: the spider moves along its right, -X turned by its heading. */
    run_steer(s, 0.0f, 0.0f, 0.0f, 1.0f);
    w2 = sw_showcase_get_actor(s, spider).world;
    run_steer(s, 0.0f, 1.0f, 0.0f, 3.0f);
    const sw_mat4 w3 = sw_showcase_get_actor(s, spider).world;
    const sw_vec3 dr = sw_vec3_sub(world_ground(&w3), world_ground(&w2));
    const float h2 = world_heading(&w2);
    const float right = sw_vec3_dot(dr, sw_vec3_make(-cosf(h2), 0.0f, sinf(h2)));
    print_message("spider strafed: %.3f m to its right in 3 s (v t = 0.66 m)\n", (double)right);
    assert_true(right > 0.5f && right < 0.67f && right / sw_vec3_length(dr) > 0.99f);
    /* Non-finite steering is refused. */
    const sw_showcase_inputs bad = {.has_steer = true, .steer_turn = NAN};
    assert_int_equal(sw_showcase_update(s, 0.1f, &bad), SW_RESULT_INVALID_ARGUMENT);
    sw_showcase_destroy(s);
}

/* only_actor: the one actor (and the props), moving as in the full scene; an
 * unknown name is refused. */
static void test_only_actor(void** state) {
    (void)state;
    const sw_showcase_options opt = {.only_actor = "spider"};
    sw_showcase* s = NULL;
    sw_error err = {0};
    assert_int_equal(sw_showcase_create(&opt, &s, &err), SW_RESULT_OK);
    assert_int_equal(sw_showcase_actors_count(s), 2);
    assert_string_equal(sw_showcase_get_actor(s, 0).name, "spider");
    assert_string_equal(sw_showcase_get_actor(s, 1).name, "props");
    sw_showcase* full = make(0);
    const uint32_t fs = (uint32_t)actor_index(full, "spider");
    for (int f = 0; f < 60; ++f) {
        assert_int_equal(sw_showcase_update(s, 1.0f / 30.0f, NULL), SW_RESULT_OK);
        assert_int_equal(sw_showcase_update(full, 1.0f / 30.0f, NULL), SW_RESULT_OK);
    }
    const sw_mat4 a = sw_showcase_get_actor(s, 0).world, b = sw_showcase_get_actor(full, fs).world;
    for (int i = 0; i < 16; ++i)
        assert_true(a.m[i] == b.m[i]);
    sw_showcase_destroy(full);
    sw_showcase_destroy(s);
    const sw_showcase_options unknown = {.only_actor = "dragon"};
    assert_int_equal(sw_showcase_create(&unknown, &s, &err), SW_RESULT_NOT_FOUND);
    assert_string_equal(err.check, "only_actor names an actor");
    assert_null(s);
}

/* Toggles: foot placement off leaves the stepped foot in the step and the
 * locomotion feet unlocked; the defaults are the zero inputs. */
static void test_toggle_foot_placement(void** state) {
    (void)state;
    sw_showcase* on = make(0);
    sw_showcase* off = make(0);
    assert_true(sw_showcase_get_metrics(on)->features & SW_SHOWCASE_FEATURE_FOOT_IK);
    assert_true(sw_showcase_get_metrics(on)->features & SW_SHOWCASE_FEATURE_FOOT_TRACK);
    const sw_showcase_inputs in_off = {.no_foot_placement = true};
    float gap_on = 0.0f, gap_off = 0.0f, lock_on = 0.0f, lock_off = 0.0f;
    for (int f = 0; f < 300; ++f) {
        assert_int_equal(sw_showcase_update(on, 1.0f / 30.0f, NULL), SW_RESULT_OK);
        assert_int_equal(sw_showcase_update(off, 1.0f / 30.0f, &in_off), SW_RESULT_OK);
        const sw_showcase_status a = sw_showcase_get_status(on), b = sw_showcase_get_status(off);
        if (f >= 30) {
            gap_on = fmaxf(gap_on, fabsf(a.reach_foot_gap));
            gap_off = fmaxf(gap_off, -b.reach_foot_gap);
        }
        lock_on = fmaxf(lock_on, a.locomotion_lock_weight);
        lock_off = fmaxf(lock_off, b.locomotion_lock_weight);
    }
    /* placed on the step (16 cm) within 2 cm; without placement in it */
    assert_true(gap_on < 0.02f);
    assert_true(gap_off > 0.12f);
    const sw_showcase_metrics* ma = sw_showcase_get_metrics(on);
    const sw_showcase_metrics* mb = sw_showcase_get_metrics(off);
    assert_true(ma->foot_penetration_max < 0.02f);
    assert_true(mb->foot_penetration_max > 0.12f);
    /* the lock holds planted feet; without it they drift as the animation alone */
    assert_true(lock_on == 1.0f && lock_off == 0.0f);
    assert_true(ma->locomotion_steps > 4 && mb->locomotion_steps > 4);
    assert_true(ma->locomotion_slide_max < 0.5f * ma->locomotion_unlocked_slide_max);
    assert_true(mb->locomotion_slide_max == mb->locomotion_unlocked_slide_max);
    assert_true(mb->locomotion_unlocked_slide_max == ma->locomotion_unlocked_slide_max);
    sw_showcase_destroy(on);
    sw_showcase_destroy(off);
}

/* Sync off: walk and jog play at their own rates, their phases drift apart
 * while both weigh; synchronized they stay together. */
static void test_toggle_sync(void** state) {
    (void)state;
    sw_showcase* on = make(0);
    sw_showcase* off = make(0);
    assert_true(sw_showcase_get_metrics(on)->features & SW_SHOWCASE_FEATURE_SYNC);
    const int32_t loco = actor_index(on, "locomotion");
    const sw_showcase_inputs in_off = {.no_sync = true};
    float spread_on = 0.0f, spread_off = 0.0f, pose_diff = 0.0f, root_diff = 0.0f;
    for (int f = 0; f < 14 * 30; ++f) {
        assert_int_equal(sw_showcase_update(on, 1.0f / 30.0f, NULL), SW_RESULT_OK);
        assert_int_equal(sw_showcase_update(off, 1.0f / 30.0f, &in_off), SW_RESULT_OK);
        spread_on = fmaxf(spread_on, sw_showcase_get_status(on).locomotion_phase_spread);
        spread_off = fmaxf(spread_off, sw_showcase_get_status(off).locomotion_phase_spread);
        const sw_showcase_actor a = sw_showcase_get_actor(on, (uint32_t)loco);
        const sw_showcase_actor b = sw_showcase_get_actor(off, (uint32_t)loco);
        for (uint32_t j = 0; j < a.skeleton->joints_count; ++j)
            pose_diff =
                fmaxf(pose_diff,
                      sw_vec3_length(sw_vec3_sub(
                          sw_vec3_make(a.model[j].m[12], a.model[j].m[13], a.model[j].m[14]),
                          sw_vec3_make(b.model[j].m[12], b.model[j].m[13], b.model[j].m[14]))));
        root_diff = fmaxf(root_diff, fabsf(a.world.m[12] - b.world.m[12]) +
                                         fabsf(a.world.m[14] - b.world.m[14]));
    }
    assert_true(spread_on < 0.01f);
    assert_true(spread_off > 0.05f);
    assert_true(pose_diff > 0.05f);
    /* the path (root motion of the synchronized blend) is the same */
    assert_true(root_diff < 1e-4f);
    sw_showcase_destroy(on);
    sw_showcase_destroy(off);
}

/* Inertialization: one state at a time (no crossfade weights), and an offset
 * against the crossfaded pose that appears at the hit's cut and decays. */
static void test_toggle_transitions(void** state) {
    (void)state;
    sw_showcase* cf = make(0);
    sw_showcase* in = make(0);
    sw_showcase* explicit_cf = make(0);
    const sw_showcase_inputs inert = {.transitions = SW_SHOWCASE_TRANSITIONS_INERTIALIZE};
    const sw_showcase_inputs cross = {.transitions = SW_SHOWCASE_TRANSITIONS_CROSSFADE};
    uint32_t max_states_in = 0, hits = 0;
    float offset_cut = 0.0f, offset_late = 1e9f, offset_cf = 0.0f;
    double hit_time = -1.0;
    for (int f = 0; f < 150; ++f) {
        assert_int_equal(sw_showcase_update(cf, 1.0f / 30.0f, NULL), SW_RESULT_OK);
        assert_int_equal(sw_showcase_update(in, 1.0f / 30.0f, &inert), SW_RESULT_OK);
        assert_int_equal(sw_showcase_update(explicit_cf, 1.0f / 30.0f, &cross), SW_RESULT_OK);
        const sw_showcase_status si = sw_showcase_get_status(in);
        max_states_in = si.hit_states > max_states_in ? si.hit_states : max_states_in;
        offset_cf = fmaxf(offset_cf, sw_showcase_get_status(cf).hit_offset);
        const double t = sw_showcase_time(in);
        if (sw_showcase_get_metrics(in)->hits > hits) {
            hits = sw_showcase_get_metrics(in)->hits;
            if (hits == 1) hit_time = t;
        }
        if (hits == 1 && t < hit_time + 0.1) offset_cut = fmaxf(offset_cut, si.hit_offset);
        /* 0.3 s of scene time after the first hit (the 0.15 s decay, the
         * 0.09 s pause), before the hit state's exit at 0.45 s */
        if (hits == 1 && t > hit_time + 0.3 && t < hit_time + 0.36)
            offset_late = fminf(offset_late, si.hit_offset);
    }
    assert_true(hits >= 2);
    assert_int_equal(max_states_in, 1);
    assert_int_equal(sw_showcase_get_status(in).hit_crossfade_updates, 0);
    assert_true(sw_showcase_get_status(cf).hit_crossfade_updates > 0);
    assert_true(offset_cf == 0.0f);
    assert_true(offset_cut > 0.005f);
    assert_true(offset_late < 0.1f * offset_cut);
    /* the inertialized cut moves joints less abruptly than the instant cut */
    assert_true(sw_showcase_get_metrics(in)->hit_velocity_jump_max <
                sw_showcase_get_metrics(cf)->hit_velocity_jump_max);
    /* CROSSFADE is the default: same poses as no inputs */
    const int32_t hit = actor_index(cf, "hit");
    const sw_showcase_actor a = sw_showcase_get_actor(cf, (uint32_t)hit);
    const sw_showcase_actor b = sw_showcase_get_actor(explicit_cf, (uint32_t)hit);
    assert_memory_equal(a.model, b.model, a.skeleton->joints_count * sizeof(sw_mat4));
    /* an unknown mode is refused */
    const sw_showcase_inputs bad = {.transitions = (sw_showcase_transitions)3};
    assert_int_equal(sw_showcase_update(in, 0.1f, &bad), SW_RESULT_INVALID_ARGUMENT);
    const sw_showcase_status zero = sw_showcase_get_status(NULL);
    assert_true(zero.hit_states == 0 && zero.reach_foot_gap == 0.0f);
    sw_showcase_destroy(cf);
    sw_showcase_destroy(in);
    sw_showcase_destroy(explicit_cf);
}

static void test_deterministic(void** state) {
    (void)state;
    sw_showcase* a = make(7);
    sw_showcase* b = make(7);
    sw_showcase* c = make(8);
    bool differs = false;
    for (int f = 0; f < 200; ++f) {
        const float dt = f % 3 == 0 ? 1.0f / 60.0f : 1.0f / 45.0f;
        assert_int_equal(sw_showcase_update(a, dt, NULL), SW_RESULT_OK);
        assert_int_equal(sw_showcase_update(b, dt, NULL), SW_RESULT_OK);
        assert_int_equal(sw_showcase_update(c, dt, NULL), SW_RESULT_OK);
        for (uint32_t i = 0; i < sw_showcase_actors_count(a); ++i) {
            const sw_showcase_actor x = sw_showcase_get_actor(a, i),
                                    y = sw_showcase_get_actor(b, i);
            assert_memory_equal(x.model, y.model, x.skeleton->joints_count * sizeof(sw_mat4));
            assert_memory_equal(x.local, y.local, x.skeleton->packets_count * sizeof(sw_xform4));
        }
        const sw_showcase_actor ia = sw_showcase_get_actor(a, (uint32_t)actor_index(a, "idle"));
        const sw_showcase_actor ic = sw_showcase_get_actor(c, (uint32_t)actor_index(c, "idle"));
        if (memcmp(ia.local, ic.local, ia.skeleton->packets_count * sizeof(sw_xform4)) != 0)
            differs = true;
    }
    assert_memory_equal(sw_showcase_get_metrics(a), sw_showcase_get_metrics(b),
                        sizeof(sw_showcase_metrics));
    assert_true(differs); /* the seed varies the idle */
    const sw_showcase_camera ca = sw_showcase_get_camera(a);
    assert_true(ca.fov_y > 0.5f && ca.fov_y < 1.3f);
    sw_showcase_destroy(a);
    sw_showcase_destroy(b);
    sw_showcase_destroy(c);
}

/* ---- sinew demo ---- */

static int run_cli(const char* args, char* out, size_t cap) {
    char cmd[2048], log[512];
    snprintf(log, sizeof log, "%s/log.txt", g_dir);
    const int w = snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>&1", SINEW_CLI_PATH, args, log);
    if (w < 0 || (size_t)w >= sizeof cmd) fail_msg("command line too long: %s", args);
    const int status = system(cmd);
    if (out) {
        out[0] = 0;
        FILE* f = fopen(log, "rb");
        if (f) {
            const size_t n = fread(out, 1, cap - 1, f);
            out[n] = 0;
            fclose(f);
        }
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool have_cli(void) {
    if (SINEW_CLI_PATH[0] == 0) {
        print_message("skipped: the CLI is not built\n");
        return false;
    }
    return true;
}

/* Value of "key": NUMBER after the first occurrence of `section` in a JSON text. */
static double json_number(const char* text, const char* section, const char* key) {
    const char* p = strstr(text, section);
    assert_non_null(p);
    char k[128];
    snprintf(k, sizeof k, "\"%s\":", key);
    p = strstr(p, k);
    assert_non_null(p);
    return strtod(p + strlen(k), NULL);
}

/* A file's bytes as a NUL-terminated string (caller frees); fails the test when unreadable. */
static char* read_text(const char* path) {
    size_t size = 0;
    char* data = (char*)sw_test_read_file(path, &size);
    assert_non_null(data);
    char* text = (char*)malloc(size + 1);
    assert_non_null(text);
    memcpy(text, data, size);
    text[size] = 0;
    free(data);
    return text;
}

static void test_demo_files(void** state) {
    (void)state;
    if (!have_cli()) return;
    char args[1024], log[8192], path[512];
    snprintf(args, sizeof args, "demo --seconds 3 --fps 30 --out '%s/a'", g_dir);
    assert_int_equal(run_cli(args, log, sizeof log), 0);
    assert_non_null(strstr(log, "walker planted-foot sliding"));
    /* a CLI built with the ODE backend adds the ragdoll actors */
    const bool physics = strstr(log, "ragdoll knock-downs") != NULL;
    print_message("demo %s ragdoll actors\n", physics ? "with" : "without");
    /* demo.glb re-imports with every actor under one root. */
    snprintf(path, sizeof path, "%s/a/demo.glb", g_dir);
    sw_scene sc;
    sw_error err = {0};
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, &sc, &err), SW_RESULT_OK);
    static const char* const names[] = {"locomotion",
                                        "reach",
                                        "caterpillar",
                                        "arm",
                                        "spider",
                                        "hit",
                                        "idle",
                                        "props",
                                        "targets",
                                        "spider:Leg7_Tip",
                                        "locomotion:Hips",
                                        "caterpillar:Segment11"};
    for (uint32_t k = 0; k < sizeof names / sizeof names[0]; ++k)
        assert_true(sw_skeleton_find_joint(sc.skeleton, names[k]) >= 0);
    assert_int_equal(sc.clips_count, 1);
    assert_string_equal(sw_clip_name(sc.clips[0]), "demo");
    assert_near(sc.clips[0]->duration, 3.0, 1e-4);
    /* 4 humanoids, spider, caterpillar, arm, props, targets (+ 2 ragdoll humanoids) */
    assert_int_equal(sc.meshes_count, physics ? 11 : 9);
    assert_true((sw_skeleton_find_joint(sc.skeleton, "knockdown:Hips") >= 0) == physics);
    assert_true((sw_skeleton_find_joint(sc.skeleton, "powered:Hips") >= 0) == physics);
    /* The baked clip at 2 s puts joints where the scene had them at frame 60. */
    sw_showcase* live = make(0);
    for (int f = 0; f < 60; ++f)
        assert_int_equal(sw_showcase_update(live, 1.0f / 30.0f, NULL), SW_RESULT_OK);
    const sw_skeleton* skel = sc.skeleton;
    sw_xform4* pose = (sw_xform4*)aligned_alloc(16, skel->packets_count * sizeof(sw_xform4));
    sw_mat4* model = (sw_mat4*)malloc(skel->joints_count * sizeof(sw_mat4));
    sw_test_model_at(skel, sc.clips[0], 2.0f, pose, model);
    static const char* const probes[][2] = {{"locomotion", "LeftFoot"},
                                            {"spider", "Leg5_Tip"},
                                            {"caterpillar", "Segment7"},
                                            {"hit", "Head"},
                                            {"arm", "Hand"},
                                            {"reach", "RightHand"}};
    for (uint32_t k = 0; k < 6; ++k) {
        const sw_showcase_actor a =
            sw_showcase_get_actor(live, (uint32_t)actor_index(live, probes[k][0]));
        const int32_t j = sw_skeleton_find_joint(a.skeleton, probes[k][1]);
        char name[128];
        snprintf(name, sizeof name, "%s:%s", probes[k][0], probes[k][1]);
        const int32_t g = sw_skeleton_find_joint(skel, name);
        assert_true(j >= 0 && g >= 0);
        sw_test_vec3_near(sw_vec3_make(model[g].m[12], model[g].m[13], model[g].m[14]),
                          sw_vec3_make(a.model[j].m[12], a.model[j].m[13], a.model[j].m[14]),
                          1e-4f);
    }
    free(pose);
    free(model);
    sw_showcase_destroy(live);
    sw_scene_free(&sc, NULL);
    /* metrics.json: valid JSON (Python when present) with the walker under 1 cm per step. */
    snprintf(path, sizeof path, "%s/a/metrics.json", g_dir);
    char* text = read_text(path);
    assert_true(json_number(text, "\"walker\"", "steps") > 20);
    assert_true(json_number(text, "\"walker\"", "sliding_cm_max") < 1.0);
    assert_true(json_number(text, "\"locomotion\"", "steps") >= 1);
    assert_true(json_number(text, "\"ik\"", "arm_error_cm_max") < 0.1);
    assert_near(json_number(text, "{", "frames"), 91, 0);
    assert_true((strstr(text, "\"ragdoll\"") != NULL) == physics);
    if (physics) { /* 3 s: impulses from 0.35 s, a knock-down at 1 s */
        assert_true(json_number(text, "\"ragdoll\"", "impulses") >= 5);
        assert_true(json_number(text, "\"ragdoll\"", "knockdowns") >= 1);
        assert_true(json_number(text, "\"ragdoll\"", "tracking_error_cm_mean") > 0.0);
        assert_true(json_number(text, "\"ragdoll\"", "tracking_error_cm_mean") < 5.0);
    }
    free(text);
    const bool python = system("python3 -c 'import zlib, json' >/dev/null 2>&1") == 0;
    if (python) {
        snprintf(args, sizeof args,
                 "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '%s'", path);
        assert_int_equal(system(args), 0);
        /* demo.png: decode with zlib, 960x1280 indexed (the overview and three
         * rows of close-ups, 320x320 each), many colours used. */
        snprintf(
            args, sizeof args,
            "python3 -c '\n"
            "import struct, sys, zlib\n"
            "b = open(sys.argv[1], \"rb\").read()\n"
            "at, idat = 8, b\"\"\n"
            "while at < len(b):\n"
            "    n, t = struct.unpack(\">I4s\", b[at:at + 8])\n"
            "    d = b[at + 8:at + 8 + n]\n"
            "    if t == b\"IHDR\": w, h, depth, ct = struct.unpack(\">IIBB\", d[:10])\n"
            "    if t == b\"IDAT\": idat += d\n"
            "    at += 12 + n\n"
            "raw = zlib.decompress(idat)\n"
            "used = set(raw[y * (w + 1) + 1:(y + 1) * (w + 1)][x] for y in range(0, h, 3) for "
            "x in range(0, w, 3))\n"
            "sys.exit(0 if (w, h, ct, len(raw)) == (960, 1280, 3, h * (w + 1)) and len(used) > "
            "20 else 5)\n"
            "' '%s/a/demo.png'",
            g_dir);
        assert_int_equal(system(args), 0);
    } else {
        print_message("skipped: python3 not found (JSON and PNG decoding)\n");
    }
}

static bool same_file(const char* a, const char* b) {
    size_t na = 0, nb = 0;
    void* da = sw_test_read_file(a, &na);
    void* db = sw_test_read_file(b, &nb);
    const bool same = da && db && na == nb && memcmp(da, db, na) == 0;
    free(da);
    free(db);
    return same;
}

static void test_demo_deterministic(void** state) {
    (void)state;
    if (!have_cli()) return;
    char args[1024], a[512], b[512];
    snprintf(args, sizeof args, "demo --seconds 2 --fps 24 --out '%s/d1' --frame-size 64x48",
             g_dir);
    assert_int_equal(run_cli(args, NULL, 0), 0);
    snprintf(args, sizeof args, "demo --seconds 2 --fps 24 --out '%s/d2' --frame-size 64x48",
             g_dir);
    assert_int_equal(run_cli(args, NULL, 0), 0);
    static const char* const files[] = {"demo.glb", "metrics.json", "demo.png"};
    for (int k = 0; k < 3; ++k) {
        snprintf(a, sizeof a, "%s/d1/%s", g_dir, files[k]);
        snprintf(b, sizeof b, "%s/d2/%s", g_dir, files[k]);
        assert_true(same_file(a, b));
    }
}

/* --no-physics: the scene without ragdoll actors (9 meshes, no ragdoll metrics). */
static void test_demo_no_physics(void** state) {
    (void)state;
    if (!have_cli()) return;
    char args[1024], log[8192], path[512];
    snprintf(args, sizeof args, "demo --seconds 1 --no-physics --out '%s/np' --frame-size 64x48",
             g_dir);
    assert_int_equal(run_cli(args, log, sizeof log), 0);
    assert_null(strstr(log, "ragdoll"));
    snprintf(path, sizeof path, "%s/np/demo.glb", g_dir);
    sw_scene sc;
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, &sc, NULL), SW_RESULT_OK);
    assert_int_equal(sc.meshes_count, 9);
    assert_true(sw_skeleton_find_joint(sc.skeleton, "knockdown") < 0);
    sw_scene_free(&sc, NULL);
    snprintf(path, sizeof path, "%s/np/metrics.json", g_dir);
    char* text = read_text(path);
    assert_null(strstr(text, "ragdoll"));
    free(text);
}

static void test_demo_usage(void** state) {
    (void)state;
    if (!have_cli()) return;
    char args[1024], log[4096];
    assert_int_equal(run_cli("demo --seconds 0", NULL, 0), 2);
    assert_int_equal(run_cli("demo --fps x", NULL, 0), 2);
    assert_int_equal(run_cli("demo --bogus", NULL, 0), 2);
    assert_int_equal(run_cli("demo --frame-size 10x10", NULL, 0), 2);
    assert_int_equal(run_cli("demo --map m.txt", NULL, 0), 2);
    snprintf(args, sizeof args, "demo --seconds 1 --out '%s/u' --character '%s/missing.glb'", g_dir,
             g_dir);
    assert_int_equal(run_cli(args, log, sizeof log), 1);
    snprintf(args, sizeof args, "%s/u", g_dir);
    snprintf(log, sizeof log, "%s/u/demo.glb", g_dir);
    assert_int_equal(access(log, F_OK), -1); /* nothing written */
}

static void test_demo_robot(void** state) {
    (void)state;
    if (!have_cli()) return;
    char robot[512];
    if (!sw_test_asset_path(robot, sizeof robot, "RobotExpressive.glb")) return;
    char args[2048], log[8192], path[512];
    snprintf(args, sizeof args, "demo --seconds 2 --out '%s/r' --character '%s'", g_dir, robot);
    assert_int_equal(run_cli(args, log, sizeof log), 0);
    /* its legs have no hip-knee-ankle chain in our reader's skeleton */
    assert_non_null(strstr(log, "foot placement skipped"));
    snprintf(path, sizeof path, "%s/r/metrics.json", g_dir);
    char* text = read_text(path);
    assert_non_null(strstr(text, "\"foot_ik\": false"));
    assert_non_null(strstr(text, "\"reach\": true"));
    free(text);
    snprintf(path, sizeof path, "%s/r/demo.glb", g_dir);
    sw_scene sc;
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, &sc, NULL), SW_RESULT_OK);
    assert_true(sw_skeleton_find_joint(sc.skeleton, "reach:Head") >= 0);
    sw_scene_free(&sc, NULL);
    /* A map file picks the clips by name; an unknown name fails. */
    snprintf(path, sizeof path, "%s/map.txt", g_dir);
    FILE* f = fopen(path, "w");
    assert_non_null(f);
    fputs("# roles\nidle=Idle\nwalk=Walking\nrun=Running\n", f);
    fclose(f);
    snprintf(args, sizeof args, "demo --seconds 1 --out '%s/r2' --character '%s' --map '%s'", g_dir,
             robot, path);
    assert_int_equal(run_cli(args, NULL, 0), 0);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("idle=NoSuchClip\n", f);
    fclose(f);
    assert_int_equal(run_cli(args, log, sizeof log), 1);
    assert_non_null(strstr(log, "named clip exists"));
}

/* A capture without meshes or foot events (CMU 01_01, whose Neck sits on
 * Spine1) drives every humanoid, drawn as its bones (issue #17: invisible,
 * without a word). */
static void test_demo_bvh(void** state) {
    (void)state;
    if (!have_cli()) return;
    char bvh[512], args[2048], log[8192];
    if (!sw_test_model_path(bvh, sizeof bvh, "BVH/01_01.bvh")) return;
    snprintf(args, sizeof args, "demo --seconds 1 --out '%s/b' --character '%s'", g_dir, bvh);
    assert_int_equal(run_cli(args, log, sizeof log), 0);
    assert_non_null(strstr(log, "locomotion sliding not measured"));
    /* it has no mesh: the demo says so and draws its bones, also in demo.glb */
    sw_bvh_result b;
    assert_int_equal(sw_bvh_read_file(bvh, NULL, NULL, &b, NULL), SW_RESULT_OK);
    const sw_mesh* ref = NULL;
    uint32_t bones = 0;
    assert_int_equal(sw_showcase_bones_mesh(b.skeleton, NULL, &ref, &bones, NULL), SW_RESULT_OK);
    char note[1024];
    snprintf(note, sizeof note, "%s has no mesh: drawing its %u bones\n", bvh, bones);
    assert_non_null(strstr(log, note));
    snprintf(note, sizeof note, "%s/b/demo.glb", g_dir);
    sw_scene sc;
    assert_int_equal(sw_gltf_read_file(note, NULL, NULL, &sc, NULL), SW_RESULT_OK);
    uint32_t bone_meshes = 0;
    for (uint32_t i = 0; i < sc.meshes_count; ++i) {
        const char* name = sw_mesh_name(sc.meshes[i]);
        const size_t n = strlen(name);
        if (n < 6 || strcmp(name + n - 6, ":bones") != 0) continue;
        ++bone_meshes;
        assert_int_equal(sc.meshes[i]->vertices_count, ref->vertices_count);
        assert_int_equal(sc.meshes[i]->indices_count, ref->indices_count);
    }
    assert_true(bone_meshes >= 3u);
    sw_scene_free(&sc, NULL);
    sw_mesh_destroy(ref, NULL);
    sw_bvh_result_free(&b, NULL);
}

/* ---- recording (sinew/showcase/recording.h) ---- */

/* A recorded run merged into one scene: the merged skeleton has a root, a
 * placement joint per actor and every actor joint; the clip sampled at frame
 * f puts each actor joint where the scene had it at that frame; constant
 * tracks keep one key and the root has none; a full recording refuses more. */
static void test_recording(void** state) {
    (void)state;
    sw_showcase* s = make(3);
    const uint32_t na = sw_showcase_actors_count(s);
    sw_showcase_recording* rec = NULL;
    sw_error err = {0};
    assert_int_equal(sw_showcase_recording_create(s, 0, NULL, &rec, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_showcase_recording_create(s, 3, NULL, &rec, &err), SW_RESULT_OK);
    /* frame f: the model matrices of two probe joints at that frame */
    static const char* const probes[][2] = {{"locomotion", "RightHand"}, {"arm", "Hand"}};
    sw_mat4 live[3][2];
    uint32_t joints = 1;
    for (uint32_t i = 0; i < na; ++i)
        joints += 1u + sw_showcase_get_actor(s, i).skeleton->joints_count;
    for (uint32_t f = 0; f < 3; ++f) {
        if (f > 0) assert_int_equal(sw_showcase_update(s, 1.0f / 30.0f, NULL), SW_RESULT_OK);
        assert_int_equal(sw_showcase_recording_add(rec, s), SW_RESULT_OK);
        for (uint32_t k = 0; k < 2; ++k) {
            const sw_showcase_actor a =
                sw_showcase_get_actor(s, (uint32_t)actor_index(s, probes[k][0]));
            live[f][k] = a.model[sw_skeleton_find_joint(a.skeleton, probes[k][1])];
        }
    }
    assert_int_equal(sw_showcase_recording_frames(rec), 3);
    assert_int_equal(sw_showcase_recording_add(rec, s), SW_RESULT_LIMIT);
    sw_scene sc;
    assert_int_equal(sw_showcase_recording_scene(rec, 30.0, "run", NULL, &sc, &err), SW_RESULT_OK);
    const sw_skeleton* skel = sc.skeleton;
    assert_int_equal(skel->joints_count, joints);
    assert_string_equal(sw_skeleton_joint_name(skel, 0), "run");
    assert_int_equal(sc.clips_count, 1);
    const sw_clip* clip = sc.clips[0];
    assert_string_equal(sw_clip_name(clip), "run");
    assert_near(clip->duration, 2.0 / 30.0, 1e-6);
    /* "props" never moves: its placement tracks have one key each; the root has none */
    const int32_t props = sw_skeleton_find_joint(skel, "props");
    assert_true(props > 0);
    const sw_clip_track* tracks = sw_clip_tracks(clip);
    uint32_t props_tracks = 0;
    for (uint32_t t = 0; t < clip->tracks_count; ++t) {
        assert_int_not_equal(tracks[t].target, 0);
        if (tracks[t].target == (uint32_t)props) {
            assert_int_equal(tracks[t].keys_count, 1);
            ++props_tracks;
        }
    }
    assert_int_equal(props_tracks, 3);
    uint32_t meshes = 0;
    for (uint32_t i = 0; i < na; ++i)
        meshes += sw_showcase_get_actor(s, i).meshes_count;
    assert_int_equal(sc.meshes_count, meshes);
    sw_xform4* pose = (sw_xform4*)aligned_alloc(16, skel->packets_count * sizeof(sw_xform4));
    sw_mat4* model = (sw_mat4*)malloc(skel->joints_count * sizeof(sw_mat4));
    for (uint32_t f = 0; f < 3; ++f) {
        const sw_sample_job sj = {.clip = clip,
                                  .skeleton = skel,
                                  .time = (float)f / 30.0f,
                                  .out = pose,
                                  .out_count = skel->packets_count};
        assert_int_equal(sw_sample_job_run(&sj), SW_RESULT_OK);
        const sw_local_to_model_job lj = {.skeleton = skel,
                                          .local = pose,
                                          .local_count = skel->packets_count,
                                          .out = model,
                                          .out_count = skel->joints_count};
        assert_int_equal(sw_local_to_model_job_run(&lj), SW_RESULT_OK);
        for (uint32_t k = 0; k < 2; ++k) {
            char name[128];
            snprintf(name, sizeof name, "%s:%s", probes[k][0], probes[k][1]);
            const int32_t g = sw_skeleton_find_joint(skel, name);
            assert_true(g > 0);
            sw_test_vec3_near(sw_vec3_make(model[g].m[12], model[g].m[13], model[g].m[14]),
                              sw_vec3_make(live[f][k].m[12], live[f][k].m[13], live[f][k].m[14]),
                              1e-4f);
        }
    }
    free(pose);
    free(model);
    sw_scene_free(&sc, NULL);
    sw_showcase_recording_destroy(rec);
    sw_showcase_destroy(s);
}

/* True when the pixel at (x, y) or one of its 4 neighbours shows material m. */
static bool material_near(const sw_raster* r, uint32_t x, uint32_t y, uint32_t m) {
    static const int d[5][2] = {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (int k = 0; k < 5; ++k) {
        const uint8_t p = r->pixels[(y + (uint32_t)d[k][1]) * r->width + x + (uint32_t)d[k][0]];
        if (p >= sw_raster_material_index(m, 0) &&
            p <= sw_raster_material_index(m, SW_RASTER_SHADES - 1))
            return true;
    }
    return false;
}

/* A character without a mesh (CMU 01_01, in its own units) is drawn as its
 * bones (issue #17: every humanoid was invisible): the scene reports the
 * bones of sw_showcase_bones_mesh; each humanoid actor shows that mesh, as
 * tall as a person (1.5 to 2.1 m skinned, its joints' height plus at most two
 * capsule radii) and a camera looking at the actor's hips sees the actor's
 * material there. The built-in humanoid reports none. */
static void test_bvh_character_bones(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "BVH/01_01.bvh")) return;
    sw_bvh_result bvh;
    assert_int_equal(sw_bvh_read_file(path, NULL, NULL, &bvh, NULL), SW_RESULT_OK);
    const sw_clip* clips[1] = {bvh.clip};
    const sw_scene chr = {.skeleton = bvh.skeleton, .clips = clips, .clips_count = 1};
    const sw_showcase_options opt = {.character = &chr};
    sw_showcase* s = NULL;
    assert_int_equal(sw_showcase_create(&opt, &s, NULL), SW_RESULT_OK);
    const sw_mesh* ref = NULL;
    uint32_t bones = 0;
    assert_int_equal(sw_showcase_bones_mesh(bvh.skeleton, NULL, &ref, &bones, NULL), SW_RESULT_OK);
    assert_int_equal(sw_showcase_character_bones(s), bones);
    sw_raster r;
    assert_int_equal(sw_raster_init(&r, 64, 64, NULL), SW_RESULT_OK);
    const int32_t hips = sw_skeleton_find_joint(bvh.skeleton, "Hips");
    assert_true(hips >= 0);
    uint32_t humanoids = 0;
    for (uint32_t i = 0; i < sw_showcase_actors_count(s); ++i) {
        const sw_showcase_actor a = sw_showcase_get_actor(s, i);
        if (a.skeleton != bvh.skeleton) continue;
        ++humanoids;
        assert_int_equal(a.meshes_count, 1);
        const sw_mesh* m = a.meshes[0];
        assert_int_equal(m->size, ref->size);
        assert_memory_equal(m, ref, ref->size);
        float vlo = INFINITY, vhi = -INFINITY, jlo = INFINITY, jhi = -INFINITY;
        const float* pos = sw_mesh_positions(m);
        for (uint32_t v = 0; v < m->vertices_count; ++v) {
            const sw_mat4* pal = &a.palettes[0][sw_mesh_joints(m)[4 * v]];
            const float y =
                sw_mat4_point(pal, sw_vec3_make(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2])).y;
            vlo = fminf(vlo, y);
            vhi = fmaxf(vhi, y);
        }
        for (uint32_t j = 0; j < a.skeleton->joints_count; ++j) {
            jlo = fminf(jlo, a.model[j].m[13]);
            jhi = fmaxf(jhi, a.model[j].m[13]);
        }
        print_message("%s: bones %.3f m tall, joints %.3f m\n", a.name, (double)(vhi - vlo),
                      (double)(jhi - jlo));
        assert_true(vhi - vlo > 1.5f && vhi - vlo < 2.1f);
        assert_true(vhi - vlo >= jhi - jlo && vhi - vlo <= jhi - jlo + 0.08f);
        const sw_vec3 target =
            sw_vec3_make(a.model[hips].m[12], a.model[hips].m[13], a.model[hips].m[14]);
        const sw_raster_camera cam = {
            .view = sw_raster_look_at(sw_vec3_add(target, sw_vec3_make(0.3f, 0.4f, 1.5f)), target),
            .fov_y = 0.4f};
        sw_raster_clear(&r, &cam);
        assert_false(material_near(&r, 32, 32, (uint32_t)a.material));
        assert_int_equal(sw_raster_draw_mesh(&r, &cam, m, a.palettes[0], (uint32_t)a.material),
                         SW_RESULT_OK);
        assert_true(material_near(&r, 32, 32, (uint32_t)a.material));
    }
    assert_true(humanoids >= 3u);
    sw_raster_free(&r);
    sw_mesh_destroy(ref, NULL);
    sw_showcase_destroy(s);
    sw_bvh_result_free(&bvh, NULL);
    sw_showcase* builtin = make(1);
    assert_int_equal(sw_showcase_character_bones(builtin), 0);
    sw_showcase_destroy(builtin);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_actors_move),
        cmocka_unit_test(test_inputs),
        cmocka_unit_test(test_steer),
        cmocka_unit_test(test_only_actor),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_idle_never_repeats),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_demo_files),
        cmocka_unit_test(test_demo_deterministic),
        cmocka_unit_test(test_demo_no_physics),
        cmocka_unit_test(test_demo_usage),
        cmocka_unit_test(test_demo_robot),
        cmocka_unit_test(test_demo_bvh),
        cmocka_unit_test(test_toggle_foot_placement),
        cmocka_unit_test(test_toggle_sync),
        cmocka_unit_test(test_toggle_transitions),
        cmocka_unit_test(test_recording),
        cmocka_unit_test(test_bvh_character_bones),
    };
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
