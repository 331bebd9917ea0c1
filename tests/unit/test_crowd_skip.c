/* test_crowd_skip: the crowd's dirty flags and visibility-gated update over
 * the built-in humanoid, against a second implementation: one animator
 * instance per character driven directly (update, evaluate, the same post
 * callback, local-to-model, skinning) every frame.
 * - dirty flags: outputs and root motion bit-identical to the reference
 *   every frame while frozen characters, a once state held on its end, a
 *   paused crowd and an inertialized transition after kept frames are
 *   skipped; the post callback (which counts the evaluations per character)
 *   runs exactly when the inputs changed or the character was marked dirty;
 *   without post_marks_dirty nothing is skipped;
 * - visibility: hidden characters advance like the reference (states, times
 *   and root motion equal every frame), keep their last shown outputs, and
 *   show the reference's pose bit for bit on the frame they are shown again;
 *   a forced character is evaluated while hidden; stats count them; sliced
 *   characters shown again are within the slicing bound of the reference;
 * - view planes: sw_crowd_frustum_planes against the planes of a known
 *   perspective, and culling by bounding sphere at hand-computed distances. */
#include "test_util.h"

#include "animator_rig.h"
#include "sinew/scale/crowd.h"
#include "sinew/showcase/character.h"

enum { N = 16, FRAMES = 150 };

typedef struct fixture {
    sw_scene scene;
    rig rig; /* the definition and its bound object (animator_rig.h) */
    const sw_animator* def;
    const sw_animator_bound* bound;
    int speed, play, hold;
} fixture;

/* The humanoid with a locomotion blend space by "speed" whose state plays
 * at rate "play" (0: frozen), and a once state ("walk" once, held on its
 * last frame) entered while "hold" is set and left by an inertialized
 * transition. Root motion from Hips. */
static void make_fixture(fixture* f) {
    memset(f, 0, sizeof *f);
    assert_int_equal(sw_showcase_humanoid(NULL, &f->scene, NULL, NULL), SW_RESULT_OK);
    const sw_animator_param_desc params[] = {{"speed", SW_ANIMATOR_PARAM_TYPE_FLOAT, 1.4f},
                                             {"play", SW_ANIMATOR_PARAM_TYPE_FLOAT, 1.0f},
                                             {"hold", SW_ANIMATOR_PARAM_TYPE_BOOL, 0.0f}};
    const sw_animator_member_desc members[] = {
        {"idle", 0.0f, 0.0f}, {"walk", 1.4f, 0.0f}, {"jog", 3.0f, 0.0f}, {"run", 5.0f, 0.0f}};
    const sw_animator_blend_space_desc spaces[] = {
        {"loco", "speed", NULL, members, 4, NULL, 0, false}};
    const sw_animator_state_desc states[] = {
        {"Loco", SW_ANIMATOR_MOTION_BLEND_SPACE, "loco", false, 0.0f, "play"},
        {"Once", SW_ANIMATOR_MOTION_CLIP, "walk", true, 0.0f, NULL},
    };
    const sw_animator_condition_desc on[] = {{"hold", SW_ANIMATOR_OP_TRUE, 0.0f}};
    const sw_animator_condition_desc off[] = {{"hold", SW_ANIMATOR_OP_FALSE, 0.0f}};
    const sw_animator_transition_desc transitions[] = {
        {.from = "Loco",
         .to = "Once",
         .conditions = on,
         .conditions_count = 1,
         .duration = 0.2f,
         .mode = SW_ANIMATOR_TRANSITION_MODE_CROSSFADE,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
        {.from = "Once",
         .to = "Loco",
         .conditions = off,
         .conditions_count = 1,
         .duration = 0.3f,
         .mode = SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
    };
    const sw_animator_machine_desc machines[] = {{"Main", states, 2, transitions, 2, NULL}};
    const sw_animator_layer_desc layers[] = {{"base", "Main", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f,
                                              NULL, NULL, 0, SW_ANIMATOR_REFERENCE_DEFAULT}};
    const sw_animator_desc desc = {.params = params,
                                   .params_count = 3,
                                   .blend_spaces = spaces,
                                   .blend_spaces_count = 1,
                                   .machines = machines,
                                   .machines_count = 1,
                                   .layers = layers,
                                   .layers_count = 1,
                                   .root_motion_joint = "Hips"};
    rig_open_with(&f->rig, &desc, f->scene.skeleton, f->scene.clips, f->scene.clips_count);
    f->def = f->rig.def;
    f->bound = f->rig.bound;
    f->speed = sw_animator_find_param(f->def, "speed");
    f->play = sw_animator_find_param(f->def, "play");
    f->hold = sw_animator_find_param(f->def, "hold");
}

static void free_fixture(fixture* f) {
    rig_close(&f->rig);
    sw_scene_free(&f->scene, NULL);
}

/* The post callback: lifts the root by the character's target and counts. */
typedef struct post_ctx {
    float target[N];
    int calls[N];
} post_ctx;

static void lift(void* user, uint32_t character, sw_xform4* pose, uint32_t packets,
                 uint32_t worker) {
    post_ctx* p = (post_ctx*)user;
    (void)packets, (void)worker;
    ++p->calls[character];
    pose[0].ty[0] += p->target[character];
}

/* The reference: per character an instance, its parameters and outputs. */
typedef struct reference {
    const fixture* f;
    size_t inst_size, scratch_size;
    void* mem[N];
    sw_animator_instance* inst[N];
    float params[N][3];
    void* scratch;
    sw_xform4* pose[N];
    sw_mat4* model[N];
    sw_mat4* palette[N];
    sw_animator_root_motion rm[N];
} reference;

static void reference_init(reference* r, const fixture* f) {
    memset(r, 0, sizeof *r);
    r->f = f;
    r->inst_size = sw_animator_instance_size(f->bound);
    r->scratch_size = sw_animator_scratch_size(f->bound);
    r->scratch = sw_alloc(NULL, r->scratch_size, 16);
    const sw_skeleton* sk = f->scene.skeleton;
    for (uint32_t i = 0; i < N; ++i) {
        r->mem[i] = sw_alloc(NULL, r->inst_size, 16);
        assert_int_equal(sw_animator_instance_init(r->mem[i], r->inst_size, f->bound, &r->inst[i]),
                         SW_RESULT_OK);
        assert_int_equal(sw_animator_params_reset(f->def, r->params[i], 3), SW_RESULT_OK);
        r->pose[i] = (sw_xform4*)sw_alloc(NULL, sizeof(sw_xform4) * sk->packets_count, 16);
        r->model[i] = (sw_mat4*)sw_alloc(NULL, sizeof(sw_mat4) * sk->joints_count, 16);
        r->palette[i] =
            (sw_mat4*)sw_alloc(NULL, sizeof(sw_mat4) * f->scene.meshes[0]->palette_count, 16);
    }
}

static void reference_free(reference* r) {
    const sw_skeleton* sk = r->f->scene.skeleton;
    for (uint32_t i = 0; i < N; ++i) {
        sw_free(NULL, r->mem[i], r->inst_size);
        sw_free(NULL, r->pose[i], sizeof(sw_xform4) * sk->packets_count);
        sw_free(NULL, r->model[i], sizeof(sw_mat4) * sk->joints_count);
        sw_free(NULL, r->palette[i], sizeof(sw_mat4) * r->f->scene.meshes[0]->palette_count);
    }
    sw_free(NULL, r->scratch, r->scratch_size);
}

/* One frame of character i: update, evaluate, post, local-to-model, palette. */
static void reference_step(reference* r, uint32_t i, float dt, post_ctx* post) {
    const fixture* f = r->f;
    const sw_mesh* mesh = f->scene.meshes[0];
    uint32_t events = 0;
    assert_int_equal(
        sw_animator_update(r->inst[i], f->bound, r->params[i], 3, dt, NULL, 0, &events, &r->rm[i]),
        SW_RESULT_OK);
    const uint32_t packets = f->scene.skeleton->packets_count;
    assert_int_equal(sw_animator_evaluate(r->inst[i], f->bound, r->scratch, r->scratch_size,
                                          r->pose[i], packets),
                     SW_RESULT_OK);
    if (post) r->pose[i][0].ty[0] += post->target[i];
    sw_local_to_model_job lj;
    memset(&lj, 0, sizeof lj);
    lj.skeleton = f->scene.skeleton;
    lj.local = r->pose[i];
    lj.local_count = packets;
    lj.out = r->model[i];
    lj.out_count = f->scene.skeleton->joints_count;
    assert_int_equal(sw_local_to_model_job_run(&lj), SW_RESULT_OK);
    const sw_skinning_job sj = {r->model[i],           f->scene.skeleton->joints_count,
                                sw_mesh_palette(mesh), sw_mesh_inverse_binds(mesh),
                                mesh->palette_count,   r->palette[i],
                                mesh->palette_count};
    assert_int_equal(sw_skinning_job_run(&sj), SW_RESULT_OK);
}

static sw_crowd* make_crowd(const fixture* f, post_ctx* post, bool marks_dirty,
                            const sw_crowd_level* levels, uint32_t levels_count) {
    const sw_mesh* mesh = f->scene.meshes[0];
    sw_crowd_desc d;
    memset(&d, 0, sizeof d);
    d.bound = f->bound;
    d.characters_count = N;
    d.threads = 2;
    d.levels = levels;
    d.levels_count = levels_count;
    d.inverse_bind = sw_mesh_inverse_binds(mesh);
    d.palette_joints = sw_mesh_palette(mesh);
    d.palette_count = mesh->palette_count;
    d.post = post ? lift : NULL;
    d.post_user = post;
    d.post_marks_dirty = marks_dirty;
    sw_crowd* c = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    const sw_result r = sw_crowd_create(&d, NULL, &c, &err);
    if (r != SW_RESULT_OK) fail_msg("crowd: %s (%s)", sw_result_str(r), err.check);
    return c;
}

/* The parameters of character i at frame fr: group i % 4 is 0 frozen
 * (play 0), 1 moving at a speed that changes every frame (the others keep
 * theirs), 2 in the once
 * state (held on its end) until frame 80, then back by the inertialized
 * transition, 3 frozen and moving by turns of 20 frames. Frames 100..104
 * are a pause (dt 0, parameters as at frame 99). */
static void params_at(const fixture* f, uint32_t i, uint32_t fr, float* p) {
    const uint32_t g = i % 4u, at = fr >= 100u && fr < 105u ? 99u : fr;
    const float moving = g == 1u ? 0.017f * (float)at : 0.0f;
    p[f->speed] = 0.5f + 4.0f * fmodf(0.31f * (float)i + moving, 1.0f);
    p[f->play] = g == 0u || (g == 3u && (at / 20u) % 2u == 0u) ? 0.0f : 1.0f;
    p[f->hold] = g == 2u && at < 80u ? 1.0f : 0.0f;
}

static float dt_at(uint32_t fr) {
    return fr >= 100u && fr < 105u ? 0.0f : fr % 7u == 3u ? 1.0f / 30.0f : 1.0f / 60.0f;
}

/* Crowd outputs of character i equal the reference's, bit for bit. */
static void assert_outputs_equal(const sw_crowd* c, const reference* r, uint32_t i) {
    const sw_skeleton* sk = r->f->scene.skeleton;
    assert_memory_equal(sw_crowd_local_pose(c, i), r->pose[i],
                        sizeof(sw_xform4) * sk->packets_count);
    assert_memory_equal(sw_crowd_model(c, i), r->model[i], sizeof(sw_mat4) * sk->joints_count);
    assert_memory_equal(sw_crowd_palette(c, i), r->palette[i],
                        sizeof(sw_mat4) * r->f->scene.meshes[0]->palette_count);
}

static void assert_motion_equal(const sw_crowd* c, const reference* r, uint32_t i) {
    const sw_animator_root_motion a = sw_crowd_root_motion(c, i);
    assert_true(a.translation.x == r->rm[i].translation.x);
    assert_true(a.translation.z == r->rm[i].translation.z);
    assert_true(a.yaw == r->rm[i].yaw);
}

/* The playing states and clips of the crowd's instance equal the reference's. */
static void assert_states_equal(sw_crowd* c, const reference* r, uint32_t i) {
    sw_animator_state_info a[8], b[8];
    memset(a, 0, sizeof a), memset(b, 0, sizeof b);
    const uint32_t na = sw_animator_states(sw_crowd_instance(c, i), r->f->bound, a, 8);
    assert_int_equal(na, sw_animator_states(r->inst[i], r->f->bound, b, 8));
    assert_memory_equal(a, b, sizeof a);
    sw_animator_contribution ca[8], cb[8];
    memset(ca, 0, sizeof ca), memset(cb, 0, sizeof cb);
    const uint32_t n = sw_animator_contributions(sw_crowd_instance(c, i), r->f->bound, ca, 8);
    assert_int_equal(n, sw_animator_contributions(r->inst[i], r->f->bound, cb, 8));
    assert_memory_equal(ca, cb, sizeof ca);
}

static void test_dirty_flags(void** state) {
    (void)state;
    fixture f;
    make_fixture(&f);
    post_ctx pc, ref_pc;
    memset(&pc, 0, sizeof pc);
    memset(&ref_pc, 0, sizeof ref_pc);
    for (uint32_t i = 0; i < N; ++i)
        pc.target[i] = ref_pc.target[i] = 0.01f * (float)(i % 3u);
    sw_crowd* c = make_crowd(&f, &pc, true, NULL, 0);
    reference r;
    reference_init(&r, &f);
    sw_pool* pool = NULL;
    assert_int_equal(sw_pool_create(2, NULL, &pool), SW_RESULT_OK);
    /* the once state's clip ends well before frame 70 */
    const sw_clip* walk = sw_animator_bound_clip(f.bound, 1);
    assert_string_equal(sw_clip_name(walk), "walk");
    double t69 = 0.0;
    for (uint32_t fr = 0; fr < 70u; ++fr)
        t69 += (double)dt_at(fr);
    assert_true(t69 > (double)walk->duration + 0.1);
    int expected[N];
    memset(expected, 0, sizeof expected);
    uint32_t kept_total = 0;
    for (uint32_t fr = 0; fr < FRAMES; ++fr) {
        for (uint32_t i = 0; i < N; ++i) {
            params_at(&f, i, fr, sw_crowd_params(c, i));
            params_at(&f, i, fr, r.params[i]);
        }
        if (fr == 50u) { /* a frozen character's post input changes: marked by hand */
            pc.target[4] = ref_pc.target[4] = 0.25f;
            sw_crowd_mark_dirty(c, 4);
        }
        int before[N];
        memcpy(before, pc.calls, sizeof before);
        assert_int_equal(sw_crowd_update(c, dt_at(fr), (sw_vec3){0, 0, 0}, pool), SW_RESULT_OK);
        for (uint32_t i = 0; i < N; ++i) {
            reference_step(&r, i, dt_at(fr), &ref_pc);
            assert_outputs_equal(c, &r, i);
            assert_motion_equal(c, &r, i);
        }
        /* closed form of who is evaluated: frozen characters on their first
         * frame (and when marked), moving ones on every frame but the
         * pause's, the held once state not at all in frames 70..79 */
        const bool pause = fr >= 100u && fr < 105u;
        const uint32_t at = pause ? 99u : fr;
        for (uint32_t i = 0; i < N; ++i) {
            const uint32_t g = i % 4u;
            if (g == 0u) expected[i] += fr == 0u || (fr == 50u && i == 4u);
            if (g == 1u) expected[i] += !pause;
            if (g == 3u) expected[i] += fr == 0u || (at / 20u) % 2u == 1u;
            if (g != 2u) assert_int_equal(pc.calls[i], expected[i]);
            if (g == 2u && ((fr >= 70u && fr < 80u) || pause)) {
                assert_int_equal(pc.calls[i], before[i]);
            }
        }
        sw_crowd_stats st;
        sw_crowd_get_stats(c, &st);
        assert_int_equal(st.evaluations + st.unchanged, N);
        assert_int_equal(st.hidden, 0);
        kept_total += st.unchanged;
    }
    /* the post callback ran once per evaluation; about half were kept */
    int calls = 0;
    for (uint32_t i = 0; i < N; ++i)
        calls += pc.calls[i];
    assert_int_equal(calls + (int)kept_total, N * FRAMES);
    assert_true(kept_total > N * FRAMES / 3u);
    sw_pool_destroy(pool);
    sw_crowd_destroy(c);
    reference_free(&r);

    /* without post_marks_dirty a post callback turns the flags off */
    memset(&pc, 0, sizeof pc);
    c = make_crowd(&f, &pc, false, NULL, 0);
    for (uint32_t fr = 0; fr < 10; ++fr) {
        for (uint32_t i = 0; i < N; ++i)
            params_at(&f, i, 0, sw_crowd_params(c, i));
        assert_int_equal(sw_crowd_update(c, 1.0f / 60.0f, (sw_vec3){0, 0, 0}, NULL), SW_RESULT_OK);
        sw_crowd_stats st;
        sw_crowd_get_stats(c, &st);
        assert_int_equal(st.evaluations, N);
        assert_int_equal(st.unchanged, 0);
    }
    sw_crowd_destroy(c);
    free_fixture(&f);
}

/* Largest difference between two local poses' floats. */
static float pose_gap(const sw_xform4* a, const sw_xform4* b, uint32_t packets) {
    const float* x = (const float*)(const void*)a;
    const float* y = (const float*)(const void*)b;
    float worst = 0.0f;
    for (size_t k = 0; k < (size_t)packets * sizeof(sw_xform4) / sizeof(float); ++k)
        worst = fmaxf(worst, fabsf(x[k] - y[k]));
    return worst;
}

/* Character i is hidden by its flag on frames where (fr / 10 + i) % 3 == 0. */
static bool hidden_at(uint32_t i, uint32_t fr) {
    return (fr / 10u + i) % 3u == 0u;
}

static void test_visibility(void** state) {
    (void)state;
    fixture f;
    make_fixture(&f);
    const uint32_t packets = f.scene.skeleton->packets_count;
    const uint32_t joints = f.scene.skeleton->joints_count;
    post_ctx pc, ref_pc;
    memset(&pc, 0, sizeof pc);
    memset(&ref_pc, 0, sizeof ref_pc);
    /* rate 1 near, every 3rd frame from 5 m: odd characters stand at 10 m */
    const sw_crowd_level levels[] = {{0.0f, 1, 0}, {5.0f, 3, 0}};
    for (uint32_t sliced = 0; sliced < 2u; ++sliced) {
        sw_crowd* c = make_crowd(&f, &pc, true, levels, sliced ? 2u : 1u);
        reference r;
        reference_init(&r, &f);
        sw_xform4* last = (sw_xform4*)sw_alloc(NULL, sizeof(sw_xform4) * packets * N, 16);
        sw_mat4* last_model = (sw_mat4*)sw_alloc(NULL, sizeof(sw_mat4) * joints * N, 16);
        bool was_hidden[N];
        memset(was_hidden, 0, sizeof was_hidden);
        for (uint32_t i = 0; i < N; ++i)
            sw_crowd_set_position(c, i, (sw_vec3){i % 2u ? 10.0f : 0.0f, 0.0f, 0.0f});
        sw_crowd_set_force(c, 5, true); /* hidden by its flag, evaluated anyway */
        for (uint32_t fr = 0; fr < FRAMES; ++fr) {
            uint32_t hidden = 0;
            for (uint32_t i = 0; i < N; ++i) {
                /* sliced characters see parameter changes late: constant ones */
                const uint32_t pf = sliced && i % 2u ? 0u : fr;
                params_at(&f, i, pf, sw_crowd_params(c, i));
                params_at(&f, i, pf, r.params[i]);
                const bool h = i == 5u || (fr > 0u && hidden_at(i, fr));
                sw_crowd_set_visible(c, i, !h);
                hidden += h && i != 5u;
            }
            assert_int_equal(sw_crowd_update(c, dt_at(fr), (sw_vec3){0, 0, 0}, NULL), SW_RESULT_OK);
            sw_crowd_stats st;
            sw_crowd_get_stats(c, &st);
            assert_int_equal(st.hidden, hidden);
            if (!sliced) assert_int_equal(st.evaluations + st.unchanged + st.hidden, N);
            for (uint32_t i = 0; i < N; ++i) {
                reference_step(&r, i, dt_at(fr), &ref_pc);
                const bool shown = sw_crowd_character_shown(c, i);
                assert_int_equal(shown, i == 5u || fr == 0u || !hidden_at(i, fr));
                sw_xform4* li = last + (size_t)i * packets;
                sw_mat4* mi = last_model + (size_t)i * joints;
                if (sliced && i % 2u) { /* sliced: evaluated at its own time when shown again */
                    if (shown && was_hidden[i]) {
                        assert_true(pose_gap(sw_crowd_local_pose(c, i), r.pose[i], packets) <
                                    1e-5f);
                    }
                } else {
                    /* the same states, times and root motion as the reference */
                    assert_states_equal(c, &r, i);
                    assert_motion_equal(c, &r, i);
                    /* hidden when its inertialized transition starts (frame
                     * 80), a character finds no history: a cut instead of
                     * the 0.3 s blend, the same pose again after it */
                    const bool cut = i % 4u == 2u && hidden_at(i, 80u) && fr >= 80u && fr < 100u;
                    if (shown && !cut) assert_outputs_equal(c, &r, i);
                }
                if (!shown) { /* the outputs of the last shown frame stand */
                    assert_memory_equal(sw_crowd_local_pose(c, i), li, sizeof(sw_xform4) * packets);
                    assert_memory_equal(sw_crowd_model(c, i), mi, sizeof(sw_mat4) * joints);
                }
                memcpy(li, sw_crowd_local_pose(c, i), sizeof(sw_xform4) * packets);
                memcpy(mi, sw_crowd_model(c, i), sizeof(sw_mat4) * joints);
                was_hidden[i] = !shown;
            }
        }
        sw_free(NULL, last, sizeof(sw_xform4) * packets * N);
        sw_free(NULL, last_model, sizeof(sw_mat4) * joints * N);
        reference_free(&r);
        sw_crowd_destroy(c);
    }
    free_fixture(&f);
}

static void test_view(void** state) {
    (void)state;
    /* perspective, 90 degrees, aspect 1, near 1, far 100, camera at the
     * origin looking down -Z (column-major, OpenGL clip volume) */
    sw_mat4 m;
    memset(&m, 0, sizeof m);
    m.m[0] = 1.0f;
    m.m[5] = 1.0f;
    m.m[10] = -101.0f / 99.0f;
    m.m[11] = -1.0f;
    m.m[14] = -200.0f / 99.0f;
    sw_crowd_plane p[6];
    assert_int_equal(sw_crowd_frustum_planes(&m, p), 6);
    const float h = 0.70710678f;
    const float want[6][4] = {{h, 0, -h, 0},  {-h, 0, -h, 0}, {0, h, -h, 0},
                              {0, -h, -h, 0}, {0, 0, -1, -1}, {0, 0, 1, 100}};
    for (int k = 0; k < 6; ++k) {
        assert_near(p[k].normal.x, want[k][0], 1e-6);
        assert_near(p[k].normal.y, want[k][1], 1e-6);
        assert_near(p[k].normal.z, want[k][2], 1e-6);
        assert_near(p[k].d, want[k][3], 1e-3); /* 1e-5 relative */
    }
    assert_int_equal(sw_crowd_frustum_planes(NULL, p), 0);
    sw_mat4 zero;
    memset(&zero, 0, sizeof zero);
    assert_int_equal(sw_crowd_frustum_planes(&zero, p), 0);

    fixture f;
    make_fixture(&f);
    sw_crowd* c = make_crowd(&f, NULL, false, NULL, 0);
    /* at 10 m the frustum spans x in [-10, 10]; a sphere at x = 10.5 is
     * 0.5 / sqrt(2) = 0.354 m outside the right plane */
    const sw_vec3 at[6] = {{0, 0, -10},     {50, 0, -10},    {0, 0, 20},
                           {10.5f, 0, -10}, {10.5f, 0, -10}, {0, 0, -150}};
    const float radius[6] = {0.5f, 0.5f, 0.5f, 1.0f, 0.3f, 1.0f};
    const bool inside[6] = {true, false, false, true, false, false};
    for (uint32_t i = 0; i < N; ++i) {
        sw_crowd_set_position(c, i, i < 6u ? at[i] : (sw_vec3){0, 0, -20});
        assert_int_equal(sw_crowd_set_bounds(c, i, (sw_vec3){0, 0, 0}, i < 6u ? radius[i] : 0.5f),
                         SW_RESULT_OK);
    }
    assert_int_equal(sw_crowd_set_view(c, p, 6), SW_RESULT_OK);
    assert_int_equal(sw_crowd_update(c, 1.0f / 60.0f, (sw_vec3){0, 0, 0}, NULL), SW_RESULT_OK);
    for (uint32_t i = 0; i < N; ++i)
        assert_int_equal(sw_crowd_character_shown(c, i), i < 6u ? inside[i] : true);
    sw_crowd_stats st;
    sw_crowd_get_stats(c, &st);
    assert_int_equal(st.hidden, 4);
    assert_int_equal(st.evaluations, N - 4);
    /* no view: every character shown */
    assert_int_equal(sw_crowd_set_view(c, NULL, 0), SW_RESULT_OK);
    assert_int_equal(sw_crowd_update(c, 1.0f / 60.0f, (sw_vec3){0, 0, 0}, NULL), SW_RESULT_OK);
    sw_crowd_get_stats(c, &st);
    assert_int_equal(st.hidden, 0);
    /* checks */
    sw_crowd_plane bad = {{NAN, 0, 0}, 0};
    assert_int_equal(sw_crowd_set_view(c, &bad, 1), SW_RESULT_BAD_DATA);
    sw_crowd_plane many[SW_CROWD_MAX_PLANES + 1];
    memset(many, 0, sizeof many);
    assert_int_equal(sw_crowd_set_view(c, many, SW_CROWD_MAX_PLANES + 1), SW_RESULT_LIMIT);
    assert_int_equal(sw_crowd_set_view(c, NULL, 1), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_crowd_set_bounds(c, 0, (sw_vec3){0, 0, 0}, -1.0f), SW_RESULT_BAD_DATA);
    assert_int_equal(sw_crowd_set_bounds(c, N, (sw_vec3){0, 0, 0}, 1.0f),
                     SW_RESULT_INVALID_ARGUMENT);
    sw_crowd_destroy(c);
    free_fixture(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dirty_flags),
        cmocka_unit_test(test_visibility),
        cmocka_unit_test(test_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
