/* test_crowd: crowds over the built-in humanoid (and RobotExpressive with
 * examples/robot.json when the shared assets are there):
 * - outputs byte-identical whatever the pool (none, 1, 2, 3, 8 threads),
 *   with LOD levels, slicing, joint LOD, the budget and a post callback on
 *   (at keys only, or every frame); the post callback runs once per evaluation;
 * - update-rate slicing: at key frames the pose is that of a full-rate crowd
 *   (both with a post callback; bit-identical at the first key, within 1e-5
 *   after, the sliced animator having one update per key), between keys it
 *   is the blend of the two post-processed full-rate key poses (same bound) and within a stated
 * bound of the full-rate pose; the animator clock follows a varying dt;
 * - joint LOD: kept joints identical to full detail, skipped joints rigid to
 *   their parent at their rest offset; derived detail joints are small leaf
 *   chains;
 * - the budget controller lowers and raises the LOD as fed times cross the
 *   budget, demoting the lowest priority first; the palette equals the skinning job's; create's
 * checks;
 * - a crowd keeping quantized clips' keys (SW_ANIMATOR_KEEP_KEYS) gives the
 *   bytes of one keeping cursors, with joint LOD. */
#include "robot_fixture.h"
#include "sinew/scale/crowd.h"
#include "sinew/showcase/character.h"
#include "sinew/tools/builders/compress.h"

typedef struct fixture {
    sw_scene scene;
    const sw_animator* def;
    void* bound_mem;
    const sw_animator_bound* bound;
    int speed; /* parameter index */
} fixture;

/* The humanoid with a locomotion blend space (idle, walk, jog, run by
 * "speed") and a crossfade to a standing state below 0.1 m/s; or, with
 * `single`, one looping state playing "walk". Root motion from Hips. */
static void humanoid_fixture(fixture* f, bool single) {
    memset(f, 0, sizeof *f);
    assert_int_equal(sw_showcase_humanoid(NULL, &f->scene, NULL, NULL), SW_RESULT_OK);
    const sw_animator_param_desc params[] = {{"speed", SW_ANIMATOR_PARAM_TYPE_FLOAT, 1.4f}};
    const sw_animator_member_desc members[] = {
        {"idle", 0.0f, 0.0f}, {"walk", 1.4f, 0.0f}, {"jog", 3.0f, 0.0f}, {"run", 5.0f, 0.0f}};
    const sw_animator_blend_space_desc spaces[] = {
        {"loco", "speed", NULL, members, 4, NULL, 0, false}};
    const sw_animator_state_desc states[] = {
        {"Loco", SW_ANIMATOR_MOTION_BLEND_SPACE, "loco", false, 0.0f, NULL},
        {"Stand", SW_ANIMATOR_MOTION_CLIP, "idle", false, 0.0f, NULL},
    };
    const sw_animator_state_desc walk_state[] = {
        {"Walk", SW_ANIMATOR_MOTION_CLIP, "walk", false, 0.0f, NULL}};
    const sw_animator_condition_desc slow[] = {{"speed", SW_ANIMATOR_OP_LESS, 0.1f}};
    const sw_animator_condition_desc fast[] = {{"speed", SW_ANIMATOR_OP_GREATER, 0.1f}};
    const sw_animator_transition_desc transitions[] = {
        {.from = "Loco",
         .to = "Stand",
         .conditions = slow,
         .conditions_count = 1,
         .duration = 0.3f,
         .mode = SW_ANIMATOR_TRANSITION_MODE_CROSSFADE,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
        {.from = "Stand",
         .to = "Loco",
         .conditions = fast,
         .conditions_count = 1,
         .duration = 0.3f,
         .mode = SW_ANIMATOR_TRANSITION_MODE_CROSSFADE,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
    };
    const sw_animator_machine_desc machines[] = {{"Main", states, 2, transitions, 2, NULL}};
    const sw_animator_machine_desc walk_machine[] = {{"Main", walk_state, 1, NULL, 0, NULL}};
    const sw_animator_layer_desc layers[] = {{"base", "Main", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f,
                                              NULL, NULL, 0, SW_ANIMATOR_REFERENCE_DEFAULT}};
    const sw_animator_desc desc = {.params = params,
                                   .params_count = 1,
                                   .blend_spaces = single ? NULL : spaces,
                                   .blend_spaces_count = single ? 0u : 1u,
                                   .machines = single ? walk_machine : machines,
                                   .machines_count = 1,
                                   .layers = layers,
                                   .layers_count = 1,
                                   .root_motion_joint = "Hips"};
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_animator_create(&desc, NULL, &f->def, &err);
    if (r != SW_RESULT_OK) fail_msg("animator: %s (%s)", sw_result_str(r), err.check);
    const size_t bs = sw_animator_bound_size(f->def, f->scene.skeleton);
    f->bound_mem = sw_alloc(NULL, bs, 16);
    r = sw_animator_bind(f->def, f->scene.skeleton, f->scene.clips, f->scene.clips_count,
                         f->bound_mem, bs, &f->bound, &err);
    if (r != SW_RESULT_OK) fail_msg("bind: %s (%s)", sw_result_str(r), err.check);
    f->speed = sw_animator_find_param(f->def, "speed");
    assert_true(f->speed >= 0);
}

static void fixture_free(fixture* f) {
    sw_free(NULL, f->bound_mem, sw_animator_bound_size(f->def, f->scene.skeleton));
    sw_animator_destroy(f->def, NULL);
    sw_scene_free(&f->scene, NULL);
}

/* A desc with only the bound object and the character count set. */
static sw_crowd_desc basic_desc(const sw_animator_bound* bound, uint32_t count) {
    sw_crowd_desc d;
    memset(&d, 0, sizeof d);
    d.bound = bound;
    d.characters_count = count;
    return d;
}

static sw_crowd* make_crowd(const sw_crowd_desc* d) {
    sw_crowd* c = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    const sw_result r = sw_crowd_create(d, NULL, &c, &err);
    if (r != SW_RESULT_OK) fail_msg("crowd: %s (%s)", sw_result_str(r), err.check);
    return c;
}

/* Spreads phases: character i's animator is advanced by 0.137 * i seconds. */
static void desync_with(sw_crowd* c, const sw_animator_bound* b) {
    for (uint32_t i = 0; i < sw_crowd_characters_count(c); ++i) {
        uint32_t n = 0;
        assert_int_equal(sw_animator_update(sw_crowd_instance(c, i), b, sw_crowd_params(c, i),
                                            sw_crowd_params_count(c), 0.137f * (float)i, NULL, 0,
                                            &n, NULL),
                         SW_RESULT_OK);
    }
}

static uint64_t fnv(uint64_t h, const void* p, size_t n) {
    const unsigned char* b = (const unsigned char*)p;
    for (size_t i = 0; i < n; ++i) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Hash of every output of every character. */
static uint64_t crowd_hash(const sw_crowd* c, const sw_skeleton* sk, uint32_t palette) {
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < sw_crowd_characters_count(c); ++i) {
        h = fnv(h, sw_crowd_local_pose(c, i), sizeof(sw_xform4) * sk->packets_count);
        h = fnv(h, sw_crowd_model(c, i), sizeof(sw_mat4) * sk->joints_count);
        if (palette) h = fnv(h, sw_crowd_palette(c, i), sizeof(sw_mat4) * palette);
        const sw_animator_root_motion rm = sw_crowd_root_motion(c, i);
        h = fnv(h, &rm, sizeof rm);
        const uint32_t level = sw_crowd_character_level(c, i);
        h = fnv(h, &level, sizeof level);
    }
    return h;
}

typedef struct post_ctx {
    int* calls; /* per character; each written by one worker at a time */
} post_ctx;

/* A post-process that depends only on the character and its pose: lifts the
 * root by 1 cm per character index modulo 3. */
static void lift(void* user, uint32_t character, sw_xform4* pose, uint32_t packets,
                 uint32_t worker) {
    post_ctx* p = (post_ctx*)user;
    (void)packets, (void)worker;
    ++p->calls[character];
    pose[0].ty[0] += 0.01f * (float)(character % 3u);
}

/* Runs `frames` frames of a crowd with every feature on; hashes per frame. */
static void run_featured(const fixture* f, uint32_t threads, bool use_pool, bool every_frame,
                         uint32_t frames, uint64_t* hashes) {
    const sw_mesh* mesh = f->scene.meshes[0];
    const sw_crowd_level levels[] = {{0.0f, 1, 0}, {4.0f, 2, 0}, {8.0f, 3, 1}, {16.0f, 5, 1}};
    enum { N = 41 };
    int calls[N];
    memset(calls, 0, sizeof calls);
    post_ctx pc = {calls};
    sw_crowd_desc d;
    memset(&d, 0, sizeof d);
    d.bound = f->bound;
    d.characters_count = N;
    d.threads = 8;
    d.levels = levels;
    d.levels_count = 4;
    d.inverse_bind = sw_mesh_inverse_binds(mesh);
    d.palette_joints = sw_mesh_palette(mesh);
    d.palette_count = mesh->palette_count;
    d.post = lift;
    d.post_user = &pc;
    d.budget = 0.010f;
    d.budget_patience = 3;
    d.post_every_frame = every_frame;
    sw_crowd* c = make_crowd(&d);
    desync_with(c, f->bound);
    for (uint32_t i = 0; i < N; ++i) {
        const float a = 0.7f * (float)i;
        const float r = 0.5f * (float)i;
        sw_crowd_set_position(c, i, (sw_vec3){r * cosf(a), 0.0f, r * sinf(a)});
    }
    sw_pool* pool = NULL;
    if (use_pool) assert_int_equal(sw_pool_create(threads, NULL, &pool), SW_RESULT_OK);
    uint32_t evaluations = 0;
    for (uint32_t fr = 0; fr < frames; ++fr) {
        for (uint32_t i = 0; i < N; ++i) {
            const bool stop = i % 5u == 0 && (fr / 12u) % 2u == 1;
            sw_crowd_params(c, i)[f->speed] =
                stop ? 0.0f : 0.5f + 4.5f * fmodf(0.37f * (float)i + 0.013f * (float)fr, 1.0f);
        }
        const float dt = fr % 7u == 3u ? 1.0f / 30.0f : 1.0f / 60.0f;
        const sw_vec3 eye = {0.1f * (float)fr, 1.7f, 0.0f};
        assert_int_equal(sw_crowd_update(c, dt, eye, pool), SW_RESULT_OK);
        hashes[fr] = crowd_hash(c, f->scene.skeleton, mesh->palette_count);
        sw_crowd_stats st;
        sw_crowd_get_stats(c, &st);
        evaluations += st.evaluations;
        /* a fake frame time sequence crossing the 10 ms budget both ways */
        sw_crowd_feed_time(c, (fr / 6u) % 3u == 0 ? 0.012f : 0.004f);
    }
    /* post: on every frame's pose, or once per evaluated pose */
    int total = 0;
    for (uint32_t i = 0; i < N; ++i) {
        if (every_frame) assert_int_equal(calls[i], (int)frames);
        total += calls[i];
    }
    if (!every_frame) {
        assert_int_equal(total, (int)evaluations);
        assert_true(evaluations < N * frames); /* slicing evaluated less */
    }
    sw_pool_destroy(pool);
    sw_crowd_destroy(c);
}

static void test_deterministic_across_threads(void** state) {
    (void)state;
    fixture f;
    humanoid_fixture(&f, false);
    enum { FRAMES = 48 };
    uint64_t ref[FRAMES], got[FRAMES], per_frame[FRAMES];
    for (int every = 0; every < 2; ++every) {
        run_featured(&f, 1, false, every != 0, FRAMES, ref);
        const uint32_t threads[] = {1, 2, 3, 8};
        for (size_t t = 0; t < 4; ++t) {
            run_featured(&f, threads[t], true, every != 0, FRAMES, got);
            for (uint32_t fr = 0; fr < FRAMES; ++fr) {
                if (got[fr] != ref[fr]) {
                    fail_msg("%u threads, post every frame %d: frame %u differs from the run "
                             "without a pool",
                             threads[t], every, fr);
                }
            }
        }
        /* and the hashes do change from frame to frame (the crowd moves) */
        for (uint32_t fr = 1; fr < FRAMES; ++fr)
            assert_true(ref[fr] != ref[fr - 1]);
        if (every) memcpy(per_frame, ref, sizeof ref);
    }
    /* the first frame is all keys: the same outputs either way */
    run_featured(&f, 1, false, false, FRAMES, got);
    assert_true(got[0] == per_frame[0]);
    fixture_free(&f);
}

/* Max rotation angle (rad) and translation distance (m) between two poses. */
static void pose_diff(const sw_xform4* a, const sw_xform4* b, uint32_t joints, float* angle,
                      float* dist) {
    for (uint32_t j = 0; j < joints; ++j) {
        const sw_xform xa = sw_xform4_get(&a[j / 4u], j % 4u);
        const sw_xform xb = sw_xform4_get(&b[j / 4u], j % 4u);
        const float d = fminf(fabsf(sw_quat_dot(xa.r, xb.r)), 1.0f);
        const float ang = 2.0f * acosf(d);
        const sw_vec3 t = {xa.t.x - xb.t.x, xa.t.y - xb.t.y, xa.t.z - xb.t.z};
        const float dd = sqrtf(t.x * t.x + t.y * t.y + t.z * t.z);
        if (ang > *angle) *angle = ang;
        if (dd > *dist) *dist = dd;
    }
}

/* A sliced key vs the full-rate pose: the animator clock after one update of
 * n * dt vs n updates of dt differs by float rounding (~1e-7 s), the pose by
 * that time times the joints' speeds: far below these bounds. */
#define KEY_ANGLE 1e-5f /* quaternion component */
#define KEY_DIST 1e-6f  /* metres */

/* Largest component difference of the rotations (up to sign) and of the
 * translations between two poses (no acos: exact near 0). */
static void pose_close(const sw_xform4* a, const sw_xform4* b, uint32_t joints, float* rot,
                       float* dist) {
    *rot = 0.0f, *dist = 0.0f;
    for (uint32_t j = 0; j < joints; ++j) {
        const sw_xform xa = sw_xform4_get(&a[j / 4u], j % 4u);
        const sw_xform xb = sw_xform4_get(&b[j / 4u], j % 4u);
        const float sg = sw_quat_dot(xa.r, xb.r) < 0.0f ? -1.0f : 1.0f;
        const float q[4] = {xa.r.x - sg * xb.r.x, xa.r.y - sg * xb.r.y, xa.r.z - sg * xb.r.z,
                            xa.r.w - sg * xb.r.w};
        const float t[3] = {xa.t.x - xb.t.x, xa.t.y - xb.t.y, xa.t.z - xb.t.z};
        for (int k = 0; k < 4; ++k)
            *rot = fmaxf(*rot, fabsf(q[k]));
        for (int k = 0; k < 3; ++k)
            *dist = fmaxf(*dist, fabsf(t[k]));
    }
}

static void test_slicing(void** state) {
    (void)state;
    fixture f;
    humanoid_fixture(&f, false);
    const sw_skeleton* sk = f.scene.skeleton;
    const uint32_t P = sk->packets_count;
    const size_t pose_bytes = sizeof(sw_xform4) * P;
    const float dt = 1.0f / 60.0f;
    for (uint32_t rate = 2; rate <= 6; rate += 2) {
        const uint32_t N = 2u * rate + 1u;
        const uint32_t frames = 6u * rate, extra = rate + 1u;
        const sw_crowd_level full = {0.0f, 1, 0};
        const sw_crowd_level sliced = {0.0f, rate, 0};
        /* with the post callback (at keys only in the sliced crowd) */
        int calls_full[13], calls_sliced[13];
        memset(calls_full, 0, sizeof calls_full);
        memset(calls_sliced, 0, sizeof calls_sliced);
        post_ctx pc_full = {calls_full}, pc_sliced = {calls_sliced};
        sw_crowd_desc d = basic_desc(f.bound, N);
        d.levels = &full;
        d.levels_count = 1;
        d.post = lift;
        d.post_user = &pc_full;
        sw_crowd* cf = make_crowd(&d);
        d.levels = &sliced;
        d.post_user = &pc_sliced;
        sw_crowd* cs = make_crowd(&d);
        desync_with(cf, f.bound);
        desync_with(cs, f.bound);
        for (uint32_t i = 0; i < N; ++i) {
            sw_crowd_params(cf, i)[f.speed] = 0.3f + 0.45f * (float)i;
            sw_crowd_params(cs, i)[f.speed] = 0.3f + 0.45f * (float)i;
        }
        /* the full-rate poses of every frame (and a few more, for the last keys) */
        sw_xform4* hist = (sw_xform4*)sw_alloc(NULL, pose_bytes * N * (frames + extra), 16);
        const sw_vec3 eye = {0, 0, 0};
        for (uint32_t fr = 0; fr < frames + extra; ++fr) {
            assert_int_equal(sw_crowd_update(cf, dt, eye, NULL), SW_RESULT_OK);
            for (uint32_t i = 0; i < N; ++i)
                memcpy(hist + ((size_t)fr * N + i) * P, sw_crowd_local_pose(cf, i), pose_bytes);
        }
        sw_xform4* expect = (sw_xform4*)sw_alloc(NULL, pose_bytes, 16);
        float max_angle = 0.0f, max_dist = 0.0f;
        uint32_t keys = 0, between = 0, evaluations = 0;
        float key_angle = 0.0f, key_dist = 0.0f;
        for (uint32_t fr = 0; fr < frames; ++fr) {
            assert_int_equal(sw_crowd_update(cs, dt, eye, NULL), SW_RESULT_OK);
            sw_crowd_stats st;
            sw_crowd_get_stats(cs, &st);
            uint32_t expected_evals = 0;
            for (uint32_t i = 0; i < N; ++i) {
                const sw_xform4* got = sw_crowd_local_pose(cs, i);
                const sw_xform4* truth = hist + ((size_t)fr * N + i) * P;
                const bool key = fr == 0 || (fr + i) % rate == 0;
                expected_evals += fr == 0 ? 2u : key ? 1u : 0u;
                if (key) {
                    /* the first key is the same evaluation; the others had one
                     * animator update of n dts instead of n updates of dt */
                    float ka, kd;
                    pose_close(got, truth, sk->joints_count, &ka, &kd);
                    if (fr == 0 ? memcmp(got, truth, pose_bytes) != 0
                                : !(ka < KEY_ANGLE && kd < KEY_DIST)) {
                        fail_msg("rate %u: character %u differs from full rate at key frame %u "
                                 "(%g quat, %g m)",
                                 rate, i, fr, (double)ka, (double)kd);
                    }
                    if (fr > 0 && ka > key_angle) key_angle = ka;
                    if (fr > 0 && kd > key_dist) key_dist = kd;
                    ++keys;
                    continue;
                }
                /* between keys p < fr < q: exactly the blend of the full-rate key poses */
                uint32_t p = fr, q = fr;
                while (p > 0 && (p + i) % rate != 0)
                    --p;
                while ((q + i) % rate != 0)
                    ++q;
                const float t = (float)(fr - p) / (float)(q - p);
                const sw_blend_layer two[2] = {
                    {hist + ((size_t)p * N + i) * P, 1.0f - t, NULL, SW_BLEND_MODE_DEFAULT},
                    {hist + ((size_t)q * N + i) * P, t, NULL, SW_BLEND_MODE_DEFAULT}};
                sw_blend_job bj;
                memset(&bj, 0, sizeof bj);
                bj.layers = two;
                bj.layers_count = 2;
                bj.rest_pose = sw_skeleton_rest_pose(sk);
                bj.packets_count = P;
                bj.out = expect;
                bj.out_count = P;
                assert_int_equal(sw_blend_job_run(&bj), SW_RESULT_OK);
                float ba, bd;
                pose_close(got, expect, sk->joints_count, &ba, &bd);
                if (!(ba < KEY_ANGLE && bd < KEY_DIST)) {
                    fail_msg("rate %u: character %u at frame %u is not the key blend (%g quat, "
                             "%g m)",
                             rate, i, fr, (double)ba, (double)bd);
                }
                pose_diff(got, truth, sk->joints_count, &max_angle, &max_dist);
                ++between;
            }
            assert_int_equal(st.evaluations, expected_evals);
            evaluations += st.evaluations;
            assert_int_equal(st.interpolated + (fr == 0 ? N : 0u),
                             fr == 0 ? N : N - expected_evals);
        }
        /* the post callback ran once per evaluation, not per frame */
        int posts = 0;
        for (uint32_t i = 0; i < N; ++i) {
            posts += calls_sliced[i];
            assert_int_equal(calls_full[i], (int)(frames + extra));
        }
        assert_int_equal(posts, (int)evaluations);
        /* Stated bound at 60 Hz, speeds up to 5.7 m/s (a run), per joint:
         * rotation 0.02 * rate^2 rad, translation 0.001 * rate^2 m (the
         * error of interpolating over rate frames grows with its square). */
        print_message("rate %u: %u key poses (worst vs full rate %.2g quat, %.2g m), %u "
                      "interpolated; worst vs full rate %.4f rad, %.4f m\n",
                      rate, keys, (double)key_angle, (double)key_dist, between, (double)max_angle,
                      (double)max_dist);
        assert_true(max_angle < 0.02f * (float)(rate * rate));
        assert_true(max_dist < 0.001f * (float)(rate * rate));
        sw_free(NULL, expect, pose_bytes);
        sw_free(NULL, hist, pose_bytes * N * (frames + extra));
        sw_crowd_destroy(cf);
        sw_crowd_destroy(cs);
    }
    fixture_free(&f);
}

/* With a varying dt, a sliced character's clock stays on the sum of dts:
 * after a key frame its animator stands `gap` frames of the current dt ahead
 * of the shown time. An animator cannot go back, so when dt drops the excess
 * is absorbed at the next keys: the error stays below rate * (max dt - min
 * dt) and does not accumulate; once dt is steady it is gone. */
static void test_slicing_clock(void** state) {
    (void)state;
    fixture f;
    humanoid_fixture(&f, true); /* one looping clip: normalized time * duration = time */
    const sw_clip* walk = sw_animator_bound_clip(f.bound, 0);
    const uint32_t rate = 4, N = 5;
    const sw_crowd_level sliced = {0.0f, rate, 0};
    sw_crowd_desc d = basic_desc(f.bound, N);
    d.levels = &sliced;
    d.levels_count = 1;
    sw_crowd* c = make_crowd(&d);
    double shown = 0.0;
    double worst = 0.0, last = 0.0;
    const float dts[3] = {1.0f / 30.0f, 1.0f / 90.0f, 0.02f};
    for (uint32_t fr = 0; fr < 80; ++fr) {
        const float dt = fr < 60 ? dts[fr % 3u] : 1.0f / 60.0f;
        shown += (double)dt;
        assert_int_equal(sw_crowd_update(c, dt, (sw_vec3){0, 0, 0}, NULL), SW_RESULT_OK);
        for (uint32_t i = 0; i < N; ++i) {
            if (!(fr == 0 || (fr + i) % rate == 0)) continue;
            const uint32_t gap = rate - (fr + i) % rate;
            sw_animator_state_info info;
            assert_int_equal(sw_animator_states(sw_crowd_instance(c, i), f.bound, &info, 1), 1);
            const double t = info.normalized_time * (double)walk->duration;
            const double e = fabs(t - (shown + (double)gap * (double)dt));
            if (e > worst) worst = e;
            if (fr >= 70) last = fmax(last, e);
        }
    }
    print_message("sliced clock vs sum of dts: worst %.4f s while dt varies (bound %.4f), "
                  "%.2g s once steady\n",
                  worst, (double)rate * (1.0 / 30.0 - 1.0 / 90.0), last);
    assert_true(worst < (double)rate * (1.0 / 30.0 - 1.0 / 90.0));
    assert_true(last < 1e-5);
    sw_crowd_destroy(c);
    fixture_free(&f);
}

static void test_joint_lod(void** state) {
    (void)state;
    fixture f;
    humanoid_fixture(&f, false);
    const sw_skeleton* sk = f.scene.skeleton;
    const int16_t* parents = sw_skeleton_parents(sk);
    const sw_xform4* rest = sw_skeleton_rest_pose(sk);
    /* derived detail: every marked joint is a small leaf chain */
    uint8_t detail[SW_SKELETON_MAX_JOINTS];
    const uint32_t marked = sw_crowd_joint_detail(sk, 0.0f, detail, SW_SKELETON_MAX_JOINTS);
    assert_true(marked > 0);
    char names[512] = "";
    for (uint32_t j = 0; j < sk->joints_count; ++j) {
        if (!detail[j]) continue;
        strncat(names, sw_skeleton_joint_name(sk, j), sizeof names - strlen(names) - 2);
        strncat(names, " ", sizeof names - strlen(names) - 1);
        assert_true(parents[j] >= 0);
        uint32_t kids = 0;
        for (uint32_t k = j + 1; k < sk->joints_count; ++k) {
            if (parents[k] == (int16_t)j) {
                ++kids;
                assert_int_equal(detail[k], 1); /* the rest of the chain too */
            }
        }
        assert_true(kids <= 1);
    }
    print_message("humanoid detail joints (%u of %u): %s\n", marked, sk->joints_count, names);
    assert_int_equal(detail[0], 0);
    assert_int_equal(detail[sw_skeleton_find_joint(sk, "Hips")], 0);
    assert_int_equal(detail[sw_skeleton_find_joint(sk, "LeftUpLeg")], 0);
    assert_int_equal(detail[sw_skeleton_find_joint(sk, "LeftArm")], 0);
    assert_int_equal(sw_crowd_joint_detail(sk, 0.0f, detail, sk->joints_count - 1u), 0);
    assert_int_equal(sw_crowd_joint_detail(NULL, 0.0f, detail, 100), 0);

    /* character 0 at full detail, character 1 beyond 10 m with detail cut */
    const sw_crowd_level levels[] = {{0.0f, 1, 0}, {10.0f, 1, 1}};
    sw_crowd_desc d = basic_desc(f.bound, 2);
    d.levels = levels;
    d.levels_count = 2;
    sw_crowd* c = make_crowd(&d);
    assert_memory_equal(sw_crowd_joint_details(c), detail, sk->joints_count);
    sw_crowd_set_position(c, 1, (sw_vec3){0.0f, 0.0f, 12.0f});
    uint8_t keep[SW_SKELETON_MAX_JOINTS / 4];
    sw_joint_subset_from_detail(sk, detail, 1, keep, sizeof keep);
    sw_mat4* with_keep = (sw_mat4*)sw_alloc(NULL, sizeof(sw_mat4) * sk->joints_count, 16);
    for (uint32_t fr = 0; fr < 20; ++fr) {
        assert_int_equal(sw_crowd_update(c, 1.0f / 30.0f, (sw_vec3){0, 0, 0}, NULL), SW_RESULT_OK);
        assert_int_equal(sw_crowd_character_level(c, 0), 0);
        assert_int_equal(sw_crowd_character_level(c, 1), 1);
        const sw_xform4* p0 = sw_crowd_local_pose(c, 0);
        const sw_xform4* p1 = sw_crowd_local_pose(c, 1);
        const sw_mat4* m0 = sw_crowd_model(c, 0);
        const sw_mat4* m1 = sw_crowd_model(c, 1);
        for (uint32_t j = 0; j < sk->joints_count; ++j) {
            const sw_xform x0 = sw_xform4_get(&p0[j / 4u], j % 4u);
            const sw_xform x1 = sw_xform4_get(&p1[j / 4u], j % 4u);
            if (!detail[j]) {
                assert_memory_equal(&x0, &x1, sizeof x0);
                assert_memory_equal(&m0[j], &m1[j], sizeof(sw_mat4));
                continue;
            }
            const sw_xform xr = sw_xform4_get(&rest[j / 4u], j % 4u);
            assert_memory_equal(&x1, &xr, sizeof xr);
            const sw_mat4 local = sw_mat4_from_xform(xr);
            const sw_mat4 want = sw_mat4_mul(&m1[parents[j]], &local);
            sw_test_mat4_near(&m1[j], &want, 1e-5f);
        }
        /* the crowd's matrices are those of the job given the level's subset */
        sw_local_to_model_job lj = {.skeleton = sk,
                                    .local = p1,
                                    .local_count = sk->packets_count,
                                    .out = with_keep,
                                    .out_count = sk->joints_count,
                                    .keep = keep};
        assert_int_equal(sw_local_to_model_job_run(&lj), SW_RESULT_OK);
        assert_memory_equal(with_keep, m1, sizeof(sw_mat4) * sk->joints_count);
    }
    sw_free(NULL, with_keep, sizeof(sw_mat4) * sk->joints_count);
    sw_crowd_destroy(c);
    fixture_free(&f);
}

static void test_budget(void** state) {
    (void)state;
    fixture f;
    humanoid_fixture(&f, false);
    const sw_crowd_level levels[] = {{0.0f, 1, 0}, {10.0f, 2, 0}, {20.0f, 4, 1}};
    sw_crowd_desc d = basic_desc(f.bound, 3);
    d.levels = levels;
    d.levels_count = 3;
    d.budget = 0.010f;
    d.budget_low = 0.5f;
    d.budget_patience = 4;
    sw_crowd* c = make_crowd(&d);
    sw_crowd_set_position(c, 1, (sw_vec3){15.0f, 0.0f, 0.0f});
    sw_crowd_set_position(c, 2, (sw_vec3){0.0f, 0.0f, 30.0f});
    const sw_vec3 eye = {0, 0, 0};
    const uint32_t want0[] = {0, 1, 2};
    assert_int_equal(sw_crowd_update(c, 0.01f, eye, NULL), SW_RESULT_OK);
    for (uint32_t i = 0; i < 3; ++i)
        assert_int_equal(sw_crowd_character_level(c, i), want0[i]);
    assert_int_equal(sw_crowd_lod_bias(c), 0);
    /* over budget: one level per frame, up to the last level */
    assert_int_equal(sw_crowd_feed_time(c, 0.0101f), 1);
    assert_int_equal(sw_crowd_update(c, 0.01f, eye, NULL), SW_RESULT_OK);
    const uint32_t want1[] = {1, 2, 2};
    for (uint32_t i = 0; i < 3; ++i)
        assert_int_equal(sw_crowd_character_level(c, i), want1[i]);
    assert_int_equal(sw_crowd_feed_time(c, 0.02f), 2);
    assert_int_equal(sw_crowd_feed_time(c, 0.02f), 2);
    assert_int_equal(sw_crowd_update(c, 0.01f, eye, NULL), SW_RESULT_OK);
    for (uint32_t i = 0; i < 3; ++i)
        assert_int_equal(sw_crowd_character_level(c, i), 2);
    /* between half the budget and the budget: held */
    for (int k = 0; k < 50; ++k)
        assert_int_equal(sw_crowd_feed_time(c, 0.007f), 2);
    /* invalid times change nothing */
    assert_int_equal(sw_crowd_feed_time(c, -1.0f), 2);
    assert_int_equal(sw_crowd_feed_time(c, NAN), 2);
    /* below half the budget: one level back after 4 frames in a row */
    assert_int_equal(sw_crowd_feed_time(c, 0.004f), 2);
    assert_int_equal(sw_crowd_feed_time(c, 0.004f), 2);
    assert_int_equal(sw_crowd_feed_time(c, 0.004f), 2);
    assert_int_equal(sw_crowd_feed_time(c, 0.007f), 2); /* the run is broken */
    for (int k = 0; k < 3; ++k)
        assert_int_equal(sw_crowd_feed_time(c, 0.004f), 2);
    assert_int_equal(sw_crowd_feed_time(c, 0.004f), 1);
    for (int k = 0; k < 3; ++k)
        assert_int_equal(sw_crowd_feed_time(c, 0.001f), 1);
    assert_int_equal(sw_crowd_feed_time(c, 0.001f), 0);
    assert_int_equal(sw_crowd_feed_time(c, 0.001f), 0);
    assert_int_equal(sw_crowd_update(c, 0.01f, eye, NULL), SW_RESULT_OK);
    for (uint32_t i = 0; i < 3; ++i)
        assert_int_equal(sw_crowd_character_level(c, i), want0[i]);
    sw_crowd_destroy(c);
    /* without a budget the bias never moves */
    d.budget = 0.0f;
    c = make_crowd(&d);
    assert_int_equal(sw_crowd_feed_time(c, 1.0f), 0);
    sw_crowd_destroy(c);
    fixture_free(&f);
}

/* Priorities: the budget demotes the lowest priority in use to the last
 * level before it touches the next one, and gives detail back in the
 * opposite order; levels expected from the rule written out per character. */
static void test_budget_priority(void** state) {
    (void)state;
    fixture f;
    humanoid_fixture(&f, false);
    const sw_crowd_level levels[] = {{0.0f, 1, 0}, {10.0f, 1, 1}, {20.0f, 2, 2}};
    sw_crowd_desc d = basic_desc(f.bound, 6);
    d.levels = levels;
    d.levels_count = 3;
    d.budget = 0.010f;
    d.budget_patience = 1;
    sw_crowd* c = make_crowd(&d);
    /* characters 0, 1 priority 0; 2, 3 priority 4; 4, 5 priority 7; odd ones at 12 m */
    const uint32_t prio[6] = {0, 0, 4, 4, 7, 7};
    for (uint32_t i = 0; i < 6; ++i) {
        assert_int_equal(sw_crowd_set_priority(c, i, prio[i]), SW_RESULT_OK);
        assert_int_equal(sw_crowd_priority(c, i), prio[i]);
        if (i % 2u) sw_crowd_set_position(c, i, (sw_vec3){12.0f, 0.0f, 0.0f});
    }
    assert_int_equal(sw_crowd_set_priority(c, 6, 1), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_crowd_set_priority(c, 0, SW_CROWD_MAX_PRIORITY + 1u), SW_RESULT_LIMIT);
    assert_int_equal(sw_crowd_set_priority(NULL, 0, 1), SW_RESULT_INVALID_ARGUMENT);
    const sw_vec3 eye = {0, 0, 0};
    assert_int_equal(sw_crowd_update(c, 0.01f, eye, NULL), SW_RESULT_OK);
    /* 3 classes in use, 2 steps each: the bias goes up to 6 */
    for (uint32_t bias = 0; bias <= 7u; ++bias) {
        const uint32_t b = bias < 6u ? bias : 6u;
        for (uint32_t i = 0; i < 6; ++i) {
            const uint32_t rank = prio[i] == 0 ? 0u : prio[i] == 4 ? 1u : 2u;
            const int32_t over = (int32_t)b - 2 * (int32_t)rank;
            const uint32_t shift = over < 0 ? 0u : over > 2 ? 2u : (uint32_t)over;
            const uint32_t base = i % 2u;
            const uint32_t want = base + shift < 3u ? base + shift : 2u;
            if (sw_crowd_character_level(c, i) != want) {
                fail_msg("bias %u: character %u at level %u, want %u", b, i,
                         sw_crowd_character_level(c, i), want);
            }
        }
        assert_int_equal(sw_crowd_lod_bias(c), b);
        sw_crowd_feed_time(c, 0.02f); /* over budget: one step */
        assert_int_equal(sw_crowd_update(c, 0.01f, eye, NULL), SW_RESULT_OK);
    }
    /* under budget: priority 7 comes back first */
    assert_int_equal(sw_crowd_feed_time(c, 0.001f), 5);
    assert_int_equal(sw_crowd_feed_time(c, 0.001f), 4);
    assert_int_equal(sw_crowd_update(c, 0.01f, eye, NULL), SW_RESULT_OK);
    assert_int_equal(sw_crowd_character_level(c, 4), 0);
    assert_int_equal(sw_crowd_character_level(c, 2), 2);
    assert_int_equal(sw_crowd_character_level(c, 0), 2);
    /* one class left in use: the bias is clamped to its 2 steps */
    for (uint32_t i = 0; i < 6; ++i)
        assert_int_equal(sw_crowd_set_priority(c, i, 3), SW_RESULT_OK);
    assert_int_equal(sw_crowd_update(c, 0.01f, eye, NULL), SW_RESULT_OK);
    assert_int_equal(sw_crowd_lod_bias(c), 2);
    for (uint32_t i = 0; i < 6; ++i)
        assert_int_equal(sw_crowd_character_level(c, i), 2);
    sw_crowd_destroy(c);
    fixture_free(&f);
}

/* Counts allocations, to check that update allocates nothing. */
static int allocs = 0;
static void* counting_alloc(void* user, size_t size, size_t align) {
    (void)user;
    ++allocs;
    return aligned_alloc(align, (size + align - 1u) & ~(align - 1u));
}
static void counting_free(void* user, void* ptr, size_t size) {
    (void)user, (void)size;
    free(ptr);
}

static void test_palette_and_memory(void** state) {
    (void)state;
    fixture f;
    humanoid_fixture(&f, false);
    const sw_mesh* mesh = f.scene.meshes[0];
    sw_crowd_desc d = basic_desc(f.bound, 4);
    d.threads = 2;
    d.inverse_bind = sw_mesh_inverse_binds(mesh);
    d.palette_joints = sw_mesh_palette(mesh);
    d.palette_count = mesh->palette_count;
    const sw_allocator counting = {counting_alloc, counting_free, NULL};
    sw_crowd* c = NULL;
    assert_int_equal(sw_crowd_create(&d, &counting, &c, NULL), SW_RESULT_OK);
    assert_int_equal(allocs, 1);
    sw_pool* pool = NULL;
    assert_int_equal(sw_pool_create(2, NULL, &pool), SW_RESULT_OK);
    sw_mat4* pal = (sw_mat4*)sw_alloc(NULL, sizeof(sw_mat4) * mesh->palette_count, 16);
    for (int fr = 0; fr < 10; ++fr) {
        assert_int_equal(sw_crowd_update(c, 1.0f / 60.0f, (sw_vec3){0, 0, 0}, pool), SW_RESULT_OK);
        for (uint32_t i = 0; i < 4; ++i) {
            const sw_skinning_job sj = {sw_crowd_model(c, i),  f.scene.skeleton->joints_count,
                                        sw_mesh_palette(mesh), sw_mesh_inverse_binds(mesh),
                                        mesh->palette_count,   pal,
                                        mesh->palette_count};
            assert_int_equal(sw_skinning_job_run(&sj), SW_RESULT_OK);
            assert_memory_equal(pal, sw_crowd_palette(c, i), sizeof(sw_mat4) * mesh->palette_count);
        }
    }
    assert_int_equal(allocs, 1); /* nothing allocated by update */
    /* root motion: walking characters move forward (+Z) */
    const sw_animator_root_motion rm = sw_crowd_root_motion(c, 0);
    assert_true(rm.translation.z > 0.0f);
    /* a pool bigger than desc.threads is refused */
    sw_pool* big = NULL;
    assert_int_equal(sw_pool_create(3, NULL, &big), SW_RESULT_OK);
    assert_int_equal(sw_crowd_update(c, 0.01f, (sw_vec3){0, 0, 0}, big), SW_RESULT_LIMIT);
    sw_pool_destroy(big);
    sw_free(NULL, pal, sizeof(sw_mat4) * mesh->palette_count);
    sw_pool_destroy(pool);
    sw_crowd_destroy(c);
    fixture_free(&f);
}

static void test_create_checks(void** state) {
    (void)state;
    fixture f;
    humanoid_fixture(&f, false);
    const sw_mesh* mesh = f.scene.meshes[0];
    sw_crowd_desc good = basic_desc(f.bound, 2);
    sw_crowd* c = NULL;
    assert_int_equal(sw_crowd_create(&good, NULL, NULL, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_crowd_create(NULL, NULL, &c, NULL), SW_RESULT_INVALID_ARGUMENT);
    sw_crowd_desc zero;
    memset(&zero, 0, sizeof zero);
    assert_int_equal(sw_crowd_create(&zero, NULL, &c, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_null(c);
    const sw_crowd_level unsorted[] = {{0.0f, 1, 0}, {10.0f, 2, 0}, {5.0f, 3, 0}};
    const sw_crowd_level fast[] = {{0.0f, SW_CROWD_MAX_RATE + 1u, 0}};
    const sw_crowd_level nan_level[] = {{0.0f, 1, 0}, {NAN, 1, 0}};
    struct {
        const char* what;
        sw_crowd_desc d;
        sw_result want;
    } cases[13];
    for (int k = 0; k < 13; ++k)
        cases[k].d = good;
    int n = 0;
    cases[n].what = "no characters", cases[n].d.characters_count = 0;
    cases[n++].want = SW_RESULT_LIMIT;
    cases[n].what = "too many characters";
    cases[n].d.characters_count = SW_CROWD_MAX_CHARACTERS + 1u, cases[n++].want = SW_RESULT_LIMIT;
    cases[n].what = "threads", cases[n].d.threads = SW_POOL_MAX_THREADS + 1u;
    cases[n++].want = SW_RESULT_LIMIT;
    cases[n].what = "levels", cases[n].d.levels = unsorted, cases[n].d.levels_count = 9;
    cases[n++].want = SW_RESULT_LIMIT;
    cases[n].what = "levels NULL", cases[n].d.levels_count = 2;
    cases[n++].want = SW_RESULT_INVALID_ARGUMENT;
    cases[n].what = "unsorted", cases[n].d.levels = unsorted, cases[n].d.levels_count = 3;
    cases[n++].want = SW_RESULT_BAD_DATA;
    cases[n].what = "NaN distance", cases[n].d.levels = nan_level, cases[n].d.levels_count = 2;
    cases[n++].want = SW_RESULT_BAD_DATA;
    cases[n].what = "rate", cases[n].d.levels = fast, cases[n].d.levels_count = 1;
    cases[n++].want = SW_RESULT_LIMIT;
    cases[n].what = "palette count without matrices", cases[n].d.palette_count = 3;
    cases[n++].want = SW_RESULT_INVALID_ARGUMENT;
    cases[n].what = "palette joint out of range";
    static const uint16_t bad_joint[1] = {999};
    cases[n].d.inverse_bind = sw_mesh_inverse_binds(mesh), cases[n].d.palette_count = 1;
    cases[n].d.palette_joints = bad_joint, cases[n++].want = SW_RESULT_BAD_DATA;
    cases[n].what = "budget", cases[n].d.budget = -1.0f, cases[n++].want = SW_RESULT_BAD_DATA;
    cases[n].what = "budget_low", cases[n].d.budget_low = 1.5f,
    cases[n++].want = SW_RESULT_BAD_DATA;
    cases[n].what = "keep", cases[n].d.keep = SW_ANIMATOR_KEEP_COUNT;
    cases[n++].want = SW_RESULT_INVALID_ARGUMENT;
    for (int k = 0; k < n; ++k) {
        sw_error err;
        memset(&err, 0, sizeof err);
        c = (sw_crowd*)(uintptr_t)1;
        const sw_result r = sw_crowd_create(&cases[k].d, NULL, &c, &err);
        if (r != cases[k].want) {
            fail_msg("%s: %s, wanted %s", cases[k].what, sw_result_str(r),
                     sw_result_str(cases[k].want));
        }
        assert_null(c);
        assert_non_null(err.check);
    }
    c = make_crowd(&good);
    assert_int_equal(sw_crowd_update(NULL, 0.01f, (sw_vec3){0, 0, 0}, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_crowd_update(c, -0.01f, (sw_vec3){0, 0, 0}, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_crowd_update(c, 0.01f, (sw_vec3){NAN, 0, 0}, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_null(sw_crowd_params(c, 2));
    assert_null(sw_crowd_local_pose(c, 2));
    assert_null(sw_crowd_palette(c, 0)); /* no palette asked for */
    assert_int_equal(sw_crowd_params_count(c), 1);
    assert_near(sw_crowd_params(c, 1)[0], 1.4f, 0.0f); /* defaults */
    sw_crowd_destroy(c);
    sw_crowd_destroy(NULL);
    fixture_free(&f);
}

/* Joint LOD across level changes: a character walked through levels of
 * other cuts and rates (by depth: a level per depth band) shows, each
 * frame, rest values in every joint its level leaves out and, at a rate-1
 * level, its animator's full evaluation in the kept ones (the crowd leaves
 * the packets past the kept span as its last evaluation at the same cut
 * left them: this checks that they hold rest values, also after a sliced
 * level that kept more joints). */
static void test_joint_lod_changes(void** state) {
    (void)state;
    fixture f;
    humanoid_fixture(&f, false);
    const sw_skeleton* sk = f.scene.skeleton;
    const int16_t* parents = sw_skeleton_parents(sk);
    const sw_xform4* rest = sw_skeleton_rest_pose(sk);
    uint8_t depth[SW_SKELETON_MAX_JOINTS];
    for (uint32_t j = 0; j < sk->joints_count; ++j)
        depth[j] = parents[j] < 0 ? 0u : (uint8_t)(depth[parents[j]] + 1u);
    const sw_crowd_level levels[] = {
        {0.0f, 1, 0}, {10.0f, 1, 4}, {20.0f, 2, 0}, {30.0f, 1, 3}, {40.0f, 2, 2}};
    sw_crowd_desc d = basic_desc(f.bound, 1);
    d.levels = levels;
    d.levels_count = 5;
    d.joint_detail = depth;
    sw_crowd* c = make_crowd(&d);
    const uint32_t P = sk->packets_count;
    const size_t scratch_size = sw_animator_scratch_size(f.bound);
    void* scratch = sw_alloc(NULL, scratch_size, 16);
    sw_xform4* full = (sw_xform4*)sw_alloc(NULL, sizeof(sw_xform4) * P, 16);
    /* the level of each frame: every change between cuts and rates */
    const uint32_t plan[] = {0, 0, 1, 1, 1, 3, 3, 2, 2, 2, 3, 3, 1, 1, 4, 4, 4, 3,
                             3, 1, 0, 1, 1, 2, 2, 1, 4, 4, 4, 1, 1, 0, 3, 3, 3};
    uint32_t rate1_frames = 0;
    bool sliced = false; /* the frame before was sliced */
    for (uint32_t fr = 0; fr < sizeof plan / sizeof plan[0]; ++fr) {
        sw_crowd_set_position(c, 0, (sw_vec3){0.0f, 0.0f, levels[plan[fr]].distance + 1.0f});
        assert_int_equal(sw_crowd_update(c, 1.0f / 30.0f, (sw_vec3){0, 0, 0}, NULL), SW_RESULT_OK);
        assert_int_equal(sw_crowd_character_level(c, 0), plan[fr]);
        const sw_crowd_level* lv = &levels[plan[fr]];
        const sw_xform4* pose = sw_crowd_local_pose(c, 0);
        /* evaluated this frame: at rate 1, neither between the keys of a
         * sliced level left nor showing its key B (evaluated with its cut) */
        sw_crowd_stats st;
        sw_crowd_get_stats(c, &st);
        const bool evaluated = lv->rate == 1u && st.interpolated == 0u && !sliced;
        sliced = lv->rate > 1u || st.interpolated > 0u;
        if (evaluated) {
            assert_int_equal(sw_animator_evaluate(sw_crowd_instance(c, 0), f.bound, scratch,
                                                  scratch_size, full, P),
                             SW_RESULT_OK);
            ++rate1_frames;
        }
        for (uint32_t j = 0; j < sk->joints_count; ++j) {
            uint32_t a = j; /* kept: detail below the cut up to the root */
            while (a != UINT32_MAX && (lv->joint_cut == 0 || depth[a] < lv->joint_cut))
                a = parents[a] < 0 ? UINT32_MAX : (uint32_t)parents[a];
            const sw_xform x = sw_xform4_get(&pose[j / 4u], j % 4u);
            if (a != UINT32_MAX) {
                const sw_xform xr = sw_xform4_get(&rest[j / 4u], j % 4u);
                assert_memory_equal(&x, &xr, sizeof x);
            } else if (evaluated) {
                const sw_xform xf = sw_xform4_get(&full[j / 4u], j % 4u);
                assert_memory_equal(&x, &xf, sizeof x);
            }
        }
    }
    assert_true(rate1_frames > 15u);
    sw_free(NULL, full, sizeof(sw_xform4) * P);
    sw_free(NULL, scratch, scratch_size);
    sw_crowd_destroy(c);
    fixture_free(&f);
}

/* RobotExpressive with examples/robot.json: 1 and 2 threads agree, and the
 * derived detail joints are listed. */
static void test_robot(void** state) {
    (void)state;
    robot_fixture rf;
    if (!robot_fixture_open(&rf)) return;
    const sw_skeleton* sk = rf.asset.skeleton;
    const sw_animator_bound* bound = rf.bound;
    uint8_t detail[SW_SKELETON_MAX_JOINTS];
    const uint32_t marked = sw_crowd_joint_detail(sk, 0.0f, detail, SW_SKELETON_MAX_JOINTS);
    char names[1024] = "";
    for (uint32_t j = 0; j < sk->joints_count; ++j) {
        if (!detail[j]) continue;
        strncat(names, sw_skeleton_joint_name(sk, j), sizeof names - strlen(names) - 2);
        strncat(names, " ", sizeof names - strlen(names) - 1);
    }
    print_message("RobotExpressive detail joints (%u of %u): %s\n", marked, sk->joints_count,
                  names);
    const int speed = sw_animator_find_param(rf.aj.animator, "speed");
    const sw_crowd_level levels[] = {{0.0f, 1, 0}, {6.0f, 2, 1}, {12.0f, 4, 1}};
    uint64_t hashes[2][30];
    for (uint32_t threads = 1; threads <= 2; ++threads) {
        sw_crowd_desc d = basic_desc(bound, 20);
        d.threads = 2;
        d.levels = levels;
        d.levels_count = 3;
        sw_crowd* c = make_crowd(&d);
        desync_with(c, bound);
        for (uint32_t i = 0; i < 20; ++i) {
            sw_crowd_params(c, i)[speed] = 0.2f * (float)i;
            sw_crowd_set_position(c, i, (sw_vec3){(float)i, 0.0f, 0.0f});
        }
        sw_pool* pool = NULL;
        assert_int_equal(sw_pool_create(threads, NULL, &pool), SW_RESULT_OK);
        for (uint32_t fr = 0; fr < 30; ++fr) {
            assert_int_equal(sw_crowd_update(c, 1.0f / 60.0f, (sw_vec3){0, 0, 0}, pool),
                             SW_RESULT_OK);
            hashes[threads - 1][fr] = crowd_hash(c, sk, 0);
        }
        sw_pool_destroy(pool);
        sw_crowd_destroy(c);
    }
    assert_memory_equal(hashes[0], hashes[1], sizeof hashes[0]);
    robot_fixture_free(&rf);
}

/* The humanoid's blend space on its clips quantized (1 mm, 8-sample
 * segments): two crowds of 12 characters, one keeping keys, the other
 * cursors (the default), with three LOD levels (the farthest cutting
 * joints) and phases spread; their outputs must be the same bytes every
 * frame, through the speed changes that cross-fade to the standing state
 * and back. */
static void test_keep_keys(void** state) {
    (void)state;
    fixture f;
    humanoid_fixture(&f, false);
    const sw_skeleton* sk = f.scene.skeleton;
    const sw_clip* quant[8];
    assert_true(f.scene.clips_count <= 8);
    for (uint32_t i = 0; i < f.scene.clips_count; ++i) {
        sw_compress_options o = {.precision = 0.001f, .segment_samples = 8};
        sw_error err;
        memset(&err, 0, sizeof err);
        const sw_result r = sw_compress_clip(sk, f.scene.clips[i], &o, NULL, &quant[i], NULL, &err);
        if (r != SW_RESULT_OK) fail_msg("compress: %s (%s)", sw_result_str(r), err.check);
    }
    const size_t bs = sw_animator_bound_size(f.def, sk);
    void* mem = sw_alloc(NULL, bs, 16);
    const sw_animator_bound* bound = NULL;
    assert_int_equal(sw_animator_bind(f.def, sk, quant, f.scene.clips_count, mem, bs, &bound, NULL),
                     SW_RESULT_OK);
    const bool keeps = sw_sample_cache_size(quant[0]) > quant[0]->tracks_count;
    assert_true(sw_animator_instance_size_keeping(bound, SW_ANIMATOR_KEEP_KEYS) >
                    sw_animator_instance_size(bound) ||
                !keeps);
    const sw_crowd_level levels[] = {{0.0f, 1, 0}, {5.0f, 1, 0}, {9.0f, 1, 1}};
    sw_crowd* c[2];
    for (uint32_t k = 0; k < 2; ++k) {
        sw_crowd_desc d = basic_desc(bound, 12);
        d.levels = levels;
        d.levels_count = 3;
        d.keep = k == 0 ? SW_ANIMATOR_KEEP_CURSORS : SW_ANIMATOR_KEEP_KEYS;
        c[k] = make_crowd(&d);
        desync_with(c[k], bound);
        for (uint32_t i = 0; i < 12; ++i)
            sw_crowd_set_position(c[k], i, (sw_vec3){(float)i, 0.0f, 0.0f});
    }
    for (uint32_t fr = 0; fr < 240; ++fr) {
        const float speed = fr % 80u < 60u ? 0.6f + 0.02f * (float)(fr % 80u) : 0.0f;
        for (uint32_t k = 0; k < 2; ++k) {
            for (uint32_t i = 0; i < 12; ++i)
                sw_crowd_params(c[k], i)[f.speed] = speed + 0.1f * (float)i;
            assert_int_equal(sw_crowd_update(c[k], 1.0f / 60.0f, (sw_vec3){0, 0, 0}, NULL),
                             SW_RESULT_OK);
        }
        if (crowd_hash(c[0], sk, 0) != crowd_hash(c[1], sk, 0))
            fail_msg("frame %u: the crowd keeping keys differs", fr);
    }
    for (uint32_t k = 0; k < 2; ++k)
        sw_crowd_destroy(c[k]);
    sw_free(NULL, mem, bs);
    for (uint32_t i = 0; i < f.scene.clips_count; ++i)
        sw_clip_destroy(quant[i], NULL);
    fixture_free(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deterministic_across_threads),
        cmocka_unit_test(test_slicing),
        cmocka_unit_test(test_slicing_clock),
        cmocka_unit_test(test_joint_lod),
        cmocka_unit_test(test_joint_lod_changes),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_budget_priority),
        cmocka_unit_test(test_palette_and_memory),
        cmocka_unit_test(test_create_checks),
        cmocka_unit_test(test_robot),
        cmocka_unit_test(test_keep_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
