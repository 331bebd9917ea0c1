/* The animator cache tests' rig (test_animator_cache, test_animator_keys):
 * a 6-joint skeleton, five clips whose key times are irregular (so the key
 * search cannot guess them) and the same with uniform keys, the
 * definitions, a running animator keeping cursors or keys, the cold
 * reference, and the tests both files run on their clip sets. */
#ifndef SINEW_TEST_ANIMATOR_CACHE_RIG_H
#define SINEW_TEST_ANIMATOR_CACHE_RIG_H

#include "animator_rig.h"

#define JOINTS 6
#define CLIPS 5

static const sw_skeleton* g_skel;
static const sw_clip* g_clips[CLIPS];
static const sw_clip* g_uniform[CLIPS]; /* the same clips with uniform keys */

/* Key k of n at d * (k / (n - 1))^1.7 (explicit, uneven), or uniform. */
static inline const sw_clip* make_clip(const char* name, float duration, uint32_t n, float amp,
                                       bool uniform) {
    float* times = (float*)malloc(sizeof(float) * n);
    float* t = (float*)malloc(sizeof(float) * 3u * n);
    float* r = (float*)malloc(sizeof(float) * 4u * n * (JOINTS - 1u));
    for (uint32_t k = 0; k < n; ++k) {
        const float u = (float)k / (float)(n - 1u);
        times[k] = duration * powf(u, 1.7f);
        const float ph = 6.2831853f * (uniform ? u : times[k] / duration);
        t[3 * k + 0] = 0.1f * sinf(ph);
        t[3 * k + 1] = 1.0f + 0.05f * cosf(ph);
        t[3 * k + 2] = amp * sinf(2.0f * ph);
        for (uint32_t j = 1; j < JOINTS; ++j) {
            sw_quat q = sw_quat_from_axis_angle(sw_vec3_make(1, 0.3f * (float)j, 0),
                                                amp * sinf(ph + 0.4f * (float)j));
            memcpy(&r[4u * (n * (j - 1u) + k)], &q, sizeof q);
        }
    }
    sw_clip_track_desc tracks[JOINTS];
    memset(tracks, 0, sizeof tracks);
    tracks[0] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_TRANSLATION,
                                     .joint = 0,
                                     .keys_count = n,
                                     .times = uniform ? NULL : times,
                                     .rate = (float)(n - 1u) / duration,
                                     .values = t};
    for (uint32_t j = 1; j < JOINTS; ++j) {
        tracks[j] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_ROTATION,
                                         .joint = j,
                                         .keys_count = n,
                                         .times = uniform ? NULL : times,
                                         .rate = (float)(n - 1u) / duration,
                                         .values = r + 4u * n * (j - 1u)};
    }
    sw_clip_desc d = {.name = name,
                      .duration = duration,
                      .joints_count = JOINTS,
                      .tracks = tracks,
                      .tracks_count = JOINTS};
    const sw_clip* c = NULL;
    sw_error err;
    sw_result res = sw_clip_create(&d, NULL, &c, &err);
    if (res != SW_RESULT_OK) fail_msg("clip %s: %s (%s)", name, sw_result_str(res), err.check);
    free(times);
    free(t);
    free(r);
    return c;
}

/* The clips' names, durations, key counts and amplitudes. */
static const char* const k_clip_names[CLIPS] = {"walk", "run", "wave", "jump", "crouch"};
static const float k_durations[CLIPS] = {1.1f, 0.7f, 1.9f, 0.9f, 1.3f};
static const uint32_t k_keys[CLIPS] = {40, 31, 57, 29, 44};
static const float k_amps[CLIPS] = {0.4f, 0.7f, 0.9f, 0.5f, 0.6f};

/* Makes g_skel, g_clips and g_uniform. */
static inline void cache_rig_setup(void) {
    sw_skeleton_joint joints[JOINTS];
    static const char* const names[JOINTS] = {"Hips", "Spine", "Chest", "Neck", "Arm", "Leg"};
    static const int16_t parents[JOINTS] = {-1, 0, 1, 2, 2, 0};
    for (uint32_t j = 0; j < JOINTS; ++j) {
        joints[j] =
            (sw_skeleton_joint){names[j], parents[j], {{0, 0.3f, 0}, {0, 0, 0, 1}, {1, 1, 1}}};
    }
    sw_skeleton_desc sd = {joints, JOINTS};
    assert_int_equal(sw_skeleton_create(&sd, NULL, &g_skel, NULL), SW_RESULT_OK);
    for (uint32_t i = 0; i < CLIPS; ++i) {
        g_clips[i] = make_clip(k_clip_names[i], k_durations[i], k_keys[i], k_amps[i], false);
        g_uniform[i] = make_clip(k_clip_names[i], k_durations[i], k_keys[i], k_amps[i], true);
    }
}

static inline void cache_rig_teardown(void) {
    for (uint32_t i = 0; i < CLIPS; ++i) {
        sw_clip_destroy(g_clips[i], NULL);
        sw_clip_destroy(g_uniform[i], NULL);
    }
    sw_skeleton_destroy(g_skel, NULL);
}

/* Locomotion (a 1D blend space of walk and run over "speed") and Wave (a
 * clip state), crossfading on "wave"; optionally an additive layer playing
 * walk again (delta against its first frame). */
static const sw_animator_param_desc k_params[] = {{"speed", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f},
                                                  {"wave", SW_ANIMATOR_PARAM_TYPE_BOOL, 0.0f}};
static const sw_animator_member_desc k_members[] = {{"walk", 0.0f, 0.0f}, {"run", 1.0f, 0.0f}};
static const sw_animator_blend_space_desc k_spaces[] = {
    {"loco", "speed", NULL, k_members, 2, NULL, 0, false}};
static const sw_animator_state_desc k_states[] = {
    {"Locomotion", SW_ANIMATOR_MOTION_BLEND_SPACE, "loco", false, 0.0f, NULL},
    {"Wave", SW_ANIMATOR_MOTION_CLIP, "wave", false, 1.3f, NULL}};
static const sw_animator_condition_desc k_on[] = {{"wave", SW_ANIMATOR_OP_TRUE, 0.0f}};
static const sw_animator_condition_desc k_off[] = {{"wave", SW_ANIMATOR_OP_FALSE, 0.0f}};
static const sw_animator_transition_desc k_transitions[] = {
    {.from = "Locomotion",
     .to = "Wave",
     .conditions = k_on,
     .conditions_count = 1,
     .duration = 0.3f,
     .interrupt = SW_ANIMATOR_INTERRUPT_CURRENT},
    {.from = "Wave",
     .to = "Locomotion",
     .conditions = k_off,
     .conditions_count = 1,
     .duration = 0.2f,
     .interrupt = SW_ANIMATOR_INTERRUPT_CURRENT},
};
static const sw_animator_state_desc k_add_states[] = {
    {"Sway", SW_ANIMATOR_MOTION_CLIP, "walk", false, 0.7f, NULL}};
static const sw_animator_machine_desc k_machines[] = {{"Base", k_states, 2, k_transitions, 2, NULL},
                                                      {"Add", k_add_states, 1, NULL, 0, NULL}};
static const sw_animator_layer_desc k_layers[] = {
    {"base", "Base", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f, NULL, NULL, 0,
     SW_ANIMATOR_REFERENCE_DEFAULT},
    {"add", "Add", SW_ANIMATOR_LAYER_MODE_ADDITIVE, 0.6f, NULL, NULL, 0,
     SW_ANIMATOR_REFERENCE_FIRST_FRAME}};

/* One layer whose machine plays one clip per state, all five clips, from
 * any state to state k when "speed" equals k, fading for 0.2 s: up to 4
 * clips play at once (SW_ANIMATOR_MAX_FADES), so the layer has 4 caches
 * for its 5 clips and a clip coming in takes the cache of one gone. */
static const sw_animator_condition_desc k_is[CLIPS] = {{"speed", SW_ANIMATOR_OP_EQUAL, 0.0f},
                                                       {"speed", SW_ANIMATOR_OP_EQUAL, 1.0f},
                                                       {"speed", SW_ANIMATOR_OP_EQUAL, 2.0f},
                                                       {"speed", SW_ANIMATOR_OP_EQUAL, 3.0f},
                                                       {"speed", SW_ANIMATOR_OP_EQUAL, 4.0f}};
static const sw_animator_state_desc k_cycle_states[CLIPS] = {
    {"S0", SW_ANIMATOR_MOTION_CLIP, "walk", false, 1.0f, NULL},
    {"S1", SW_ANIMATOR_MOTION_CLIP, "run", false, 1.0f, NULL},
    {"S2", SW_ANIMATOR_MOTION_CLIP, "wave", false, 1.0f, NULL},
    {"S3", SW_ANIMATOR_MOTION_CLIP, "jump", false, 1.0f, NULL},
    {"S4", SW_ANIMATOR_MOTION_CLIP, "crouch", false, 1.0f, NULL}};
/* The transition from any state to state k, named `state` (k_cycle_states). */
#define CYCLE_TO(state, k)                                                                         \
    {                                                                                              \
        .to = state, .conditions = &k_is[k], .conditions_count = 1, .duration = 0.2f,              \
        .interrupt = SW_ANIMATOR_INTERRUPT_NEXT                                                    \
    }
static const sw_animator_transition_desc k_cycle_transitions[CLIPS] = {
    CYCLE_TO("S0", 0), CYCLE_TO("S1", 1), CYCLE_TO("S2", 2), CYCLE_TO("S3", 3), CYCLE_TO("S4", 4)};
static const sw_animator_machine_desc k_cycle_machine[] = {
    {"Cycle", k_cycle_states, CLIPS, k_cycle_transitions, CLIPS, NULL}};
static const sw_animator_layer_desc k_cycle_layer[] = {{"base", "Cycle",
                                                        SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f, NULL,
                                                        NULL, 0, SW_ANIMATOR_REFERENCE_DEFAULT}};

static inline sw_animator_desc desc_of(uint32_t layers) {
    sw_animator_desc d = {.params = k_params,
                          .params_count = 2,
                          .blend_spaces = k_spaces,
                          .blend_spaces_count = 1,
                          .machines = k_machines,
                          .machines_count = layers,
                          .layers = k_layers,
                          .layers_count = layers};
    return d;
}

/* r over g_skel and the clips, keeping `keep`. */
static inline void rig_open(rig* r, const sw_animator_desc* d, const sw_clip* const* clips,
                            sw_animator_keep keep) {
    rig_open_keeping(r, d, g_skel, clips, CLIPS, keep);
}

/* One update of r by dt, then evaluate when asked. */
static inline void rig_step(rig* r, float dt, bool evaluate) {
    rig_update(r, dt, NULL, 0, NULL);
    if (evaluate) rig_eval(r);
}

/* Frame f's parameters and step: speed sweeps, waves come and go (for
 * `period` frames each: 5 turns back within the fades, so that the blend
 * space's clips play twice at once), and every 53rd step is long (several
 * cycles: the caches start over at the wrap). */
static inline float script(uint32_t f, uint32_t period, float* params) {
    params[0] = 0.5f + 0.5f * sinf(0.05f * (float)f);
    params[1] = (f / period) % 2u == 1u ? 1.0f : 0.0f;
    return f % 53u == 52u ? 2.37f : (f % 3u == 0 ? 1.0f / 60.0f : 1.0f / 24.0f);
}

/* The reference for a single override layer without root motion: every
 * playing clip sampled from a cold seek (no cache), blended with its weight
 * over the rest pose, as sinew/animator.h describes evaluate. */
static inline void reference_pose(const rig* r, sw_xform4* out) {
    const uint32_t P = g_skel->packets_count;
    sw_animator_contribution cs[16];
    const uint32_t n = sw_animator_contributions(r->inst, r->bound, cs, 16);
    assert_true(n >= 1 && n <= 16);
    sw_xform4* poses = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * P * n);
    sw_blend_layer layers[16];
    memset(layers, 0, sizeof layers);
    for (uint32_t i = 0; i < n; ++i) {
        sw_sample_job sj = {sw_animator_bound_clip(r->bound, cs[i].clip),
                            g_skel,
                            cs[i].time,
                            NULL,
                            poses + (size_t)i * P,
                            P,
                            NULL,
                            0,
                            NULL};
        assert_int_equal(sw_sample_job_run(&sj), SW_RESULT_OK);
        layers[i].pose = poses + (size_t)i * P;
        layers[i].weight = cs[i].weight;
    }
    sw_blend_job bj;
    memset(&bj, 0, sizeof bj);
    bj.layers = layers;
    bj.layers_count = n;
    bj.rest_pose = sw_skeleton_rest_pose(g_skel);
    bj.packets_count = P;
    bj.out = out;
    bj.out_count = P;
    assert_int_equal(sw_blend_job_run(&bj), SW_RESULT_OK);
    free(poses);
}

/* Fails, naming `what` and frame f, unless r's pose holds the bits of the
 * cold reference (reference_pose). */
static inline void expect_cold(const rig* r, const char* what, uint32_t f) {
    const size_t bytes = sizeof(sw_xform4) * g_skel->packets_count;
    sw_xform4* ref = (sw_xform4*)aligned_alloc(16, bytes);
    reference_pose(r, ref);
    const bool same = memcmp(ref, r->pose, bytes) == 0;
    free(ref);
    if (!same) fail_msg("%s, frame %u: the pose differs from the cold reference", what, f);
}

/* True when a clip plays twice at once in r's contributions. */
static inline bool clip_twice(const rig* r) {
    sw_animator_contribution cs[16];
    const uint32_t n = sw_animator_contributions(r->inst, r->bound, cs, 16);
    for (uint32_t i = 0; i < n && i < 16u; ++i) {
        for (uint32_t j = 0; j < i; ++j)
            if (cs[i].clip == cs[j].clip) return true;
    }
    return false;
}

/* A test's clips, their shared tables (NULL: none) and what its instances
 * keep (its state). */
typedef struct clip_set {
    const sw_clip** clips;
    sw_animator_keep keep;
    const uint32_t* const* tables;
} clip_set;

/* r over g_skel and the set's clips, as the set says. */
static inline void rig_open_set(rig* r, const sw_animator_desc* d, const clip_set* set) {
    rig_open_tables(r, d, g_skel, set->clips, set->tables, CLIPS, set->keep);
}

static inline void test_cached_equals_cold_reference(void** state) {
    const clip_set* set = (const clip_set*)*state;
    sw_animator_desc d = desc_of(1);
    static const uint32_t periods[2] = {45, 5};
    static const char* const names[2] = {"period 45", "period 5"};
    for (uint32_t p = 0; p < 2; ++p) {
        rig r;
        rig_open_set(&r, &d, set);
        uint32_t blended = 0, twice = 0;
        for (uint32_t f = 0; f < 600; ++f) {
            const float dt = script(f, periods[p], r.params);
            rig_step(&r, dt, true);
            expect_cold(&r, names[p], f);
            blended += sw_animator_contributions(r.inst, r.bound, NULL, 0) > 1u;
            twice += clip_twice(&r);
        }
        assert_true(blended > 100);          /* the blend space and the fades were exercised */
        if (p == 1) assert_true(twice > 20); /* more contributions than caches */
        rig_close(&r);
    }
}

static inline void test_cached_every_frame_equals_sparse(void** state) {
    const clip_set* set = (const clip_set*)*state;
    sw_animator_desc d = desc_of(2); /* with the additive layer */
    rig every, sparse;
    rig_open_set(&every, &d, set);
    rig_open_set(&sparse, &d, set);
    const size_t bytes = sizeof(sw_xform4) * g_skel->packets_count;
    for (uint32_t f = 0; f < 600; ++f) {
        const float dt = script(f, 45, every.params);
        script(f, 45, sparse.params);
        rig_step(&every, dt, true);
        rig_step(&sparse, dt, f % 7u == 0);
        if (f % 7u == 0 && memcmp(every.pose, sparse.pose, bytes) != 0) {
            fail_msg("frame %u: poses differ between cache histories", f);
        }
    }
    rig_close(&every);
    rig_close(&sparse);
}

/* The cycle machine: a state change every 5 frames at 60 Hz, each to the
 * next state, so four clips fade at once and the fifth comes in; each frame
 * against the cold reference. */
static inline void test_caches_change_clips(void** state) {
    const clip_set* set = (const clip_set*)*state;
    const sw_animator_desc d = {.params = k_params,
                                .params_count = 2,
                                .machines = k_cycle_machine,
                                .machines_count = 1,
                                .layers = k_cycle_layer,
                                .layers_count = 1};
    rig r;
    rig_open_set(&r, &d, set);
    uint32_t four = 0;
    for (uint32_t f = 0; f < 400; ++f) {
        r.params[0] = (float)((f / 5u) % CLIPS);
        rig_step(&r, 1.0f / 60.0f, true);
        expect_cold(&r, "cycle", f);
        four += sw_animator_contributions(r.inst, r.bound, NULL, 0) == SW_ANIMATOR_MAX_FADES;
    }
    assert_true(four > 100);
    rig_close(&r);
}

/* Test f on one clip set (its state), named after both. */
#define ON_CLIPS(f, name, set)                                                                     \
    { #f " (" name ")", f, NULL, NULL, (void*)(&(set)) }

#endif
