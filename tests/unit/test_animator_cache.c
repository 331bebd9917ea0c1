/* Animator sampling caches: evaluate keeps one cache of key cursors per
 * playing clip in the instance (raw clips with explicit key times). Poses
 * must be bit-identical to sampling every clip from a cold seek: checked
 * against a reference evaluation (contributions sampled without a cache and
 * blended with the blend job), and between instances evaluated every frame
 * and every seventh frame, over clips whose key times are irregular (so the
 * key search cannot guess them) through loops, crossfades and large steps. */
#include "test_util.h"

#include "sinew/animator/animator.h"

#define JOINTS 6

static const sw_skeleton* g_skel;
static const sw_clip* g_clips[3];
static const sw_clip* g_uniform[3]; /* the same clips with uniform keys */

/* Key k of n at d * (k / (n - 1))^1.7 (explicit, uneven), or uniform. */
static const sw_clip* make_clip(const char* name, float duration, uint32_t n, float amp,
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

static int setup(void** state) {
    (void)state;
    sw_skeleton_joint joints[JOINTS];
    static const char* const names[JOINTS] = {"Hips", "Spine", "Chest", "Neck", "Arm", "Leg"};
    static const int16_t parents[JOINTS] = {-1, 0, 1, 2, 2, 0};
    for (uint32_t j = 0; j < JOINTS; ++j) {
        joints[j] =
            (sw_skeleton_joint){names[j], parents[j], {{0, 0.3f, 0}, {0, 0, 0, 1}, {1, 1, 1}}};
    }
    sw_skeleton_desc sd = {joints, JOINTS};
    assert_int_equal(sw_skeleton_create(&sd, NULL, &g_skel, NULL), SW_RESULT_OK);
    g_clips[0] = make_clip("walk", 1.1f, 40, 0.4f, false);
    g_clips[1] = make_clip("run", 0.7f, 31, 0.7f, false);
    g_clips[2] = make_clip("wave", 1.9f, 57, 0.9f, false);
    g_uniform[0] = make_clip("walk", 1.1f, 40, 0.4f, true);
    g_uniform[1] = make_clip("run", 0.7f, 31, 0.7f, true);
    g_uniform[2] = make_clip("wave", 1.9f, 57, 0.9f, true);
    return 0;
}

static int teardown(void** state) {
    (void)state;
    for (uint32_t i = 0; i < 3; ++i) {
        sw_clip_destroy(g_clips[i], NULL);
        sw_clip_destroy(g_uniform[i], NULL);
    }
    sw_skeleton_destroy(g_skel, NULL);
    return 0;
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

static sw_animator_desc desc_of(uint32_t layers) {
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

typedef struct rig {
    const sw_animator* def;
    const sw_animator_bound* bound;
    sw_animator_instance* inst;
    void* bound_mem;
    void* inst_mem;
    void* scratch;
    size_t scratch_size;
    sw_xform4* pose;
    float params[2];
} rig;

static void rig_open(rig* r, const sw_animator_desc* d, const sw_clip* const* clips) {
    memset(r, 0, sizeof *r);
    sw_error err;
    sw_result res = sw_animator_create(d, NULL, &r->def, &err);
    if (res != SW_RESULT_OK) fail_msg("create: %s (%s)", sw_result_str(res), err.check);
    const size_t bs = sw_animator_bound_size(r->def, g_skel);
    r->bound_mem = aligned_alloc(16, bs);
    res = sw_animator_bind(r->def, g_skel, clips, 3, r->bound_mem, bs, &r->bound, &err);
    if (res != SW_RESULT_OK) fail_msg("bind: %s (%s)", sw_result_str(res), err.check);
    const size_t is = (sw_animator_instance_size(r->bound) + 15u) & ~(size_t)15u;
    r->inst_mem = aligned_alloc(16, is);
    assert_int_equal(sw_animator_instance_init(r->inst_mem, is, r->bound, &r->inst), SW_RESULT_OK);
    r->scratch_size = sw_animator_scratch_size(r->bound);
    r->scratch = aligned_alloc(16, r->scratch_size);
    r->pose = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * g_skel->packets_count);
    assert_int_equal(sw_animator_params_reset(r->def, r->params, 2), SW_RESULT_OK);
}

static void rig_close(rig* r) {
    free(r->pose);
    free(r->scratch);
    free(r->inst_mem);
    free(r->bound_mem);
    sw_animator_destroy(r->def, NULL);
}

static void rig_step(rig* r, float dt, bool evaluate) {
    uint32_t n = 0;
    assert_int_equal(sw_animator_update(r->inst, r->bound, r->params, 2, dt, NULL, 0, &n, NULL),
                     SW_RESULT_OK);
    if (!evaluate) return;
    assert_int_equal(sw_animator_evaluate(r->inst, r->bound, r->scratch, r->scratch_size, r->pose,
                                          g_skel->packets_count),
                     SW_RESULT_OK);
}

/* Frame f's parameters and step: speed sweeps, waves come and go, and every
 * 53rd step is long (several cycles: the caches start over at the wrap). */
static float script(uint32_t f, float* params) {
    params[0] = 0.5f + 0.5f * sinf(0.05f * (float)f);
    params[1] = (f / 45u) % 2u == 1u ? 1.0f : 0.0f;
    return f % 53u == 52u ? 2.37f : (f % 3u == 0 ? 1.0f / 60.0f : 1.0f / 24.0f);
}

/* The reference for a single override layer without root motion: every
 * playing clip sampled from a cold seek (no cache), blended with its weight
 * over the rest pose, as sinew/animator.h describes evaluate. */
static void reference_pose(const rig* r, sw_xform4* out) {
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

static void test_cached_equals_cold_reference(void** state) {
    (void)state;
    sw_animator_desc d = desc_of(1);
    rig r;
    rig_open(&r, &d, g_clips);
    const size_t bytes = sizeof(sw_xform4) * g_skel->packets_count;
    sw_xform4* ref = (sw_xform4*)aligned_alloc(16, bytes);
    uint32_t blended = 0;
    for (uint32_t f = 0; f < 600; ++f) {
        const float dt = script(f, r.params);
        rig_step(&r, dt, true);
        reference_pose(&r, ref);
        if (memcmp(ref, r.pose, bytes) != 0) fail_msg("frame %u: cached pose differs", f);
        blended += sw_animator_contributions(r.inst, r.bound, NULL, 0) > 1u;
    }
    assert_true(blended > 100); /* the blend space and the fades were exercised */
    free(ref);
    rig_close(&r);
}

static void test_cached_every_frame_equals_sparse(void** state) {
    (void)state;
    sw_animator_desc d = desc_of(2); /* with the additive layer */
    rig every, sparse;
    rig_open(&every, &d, g_clips);
    rig_open(&sparse, &d, g_clips);
    const size_t bytes = sizeof(sw_xform4) * g_skel->packets_count;
    for (uint32_t f = 0; f < 600; ++f) {
        const float dt = script(f, every.params);
        script(f, sparse.params);
        rig_step(&every, dt, true);
        rig_step(&sparse, dt, f % 7u == 0);
        if (f % 7u == 0 && memcmp(every.pose, sparse.pose, bytes) != 0) {
            fail_msg("frame %u: poses differ between cache histories", f);
        }
    }
    rig_close(&every);
    rig_close(&sparse);
}

/* Uniform keys are found from the time alone: an instance over them holds
 * no cursors; over explicit times it holds one per track for each clip that
 * may play (the base machine: 2 members x 4 fading states). */
static void test_cache_memory_only_for_key_searches(void** state) {
    (void)state;
    sw_animator_desc d = desc_of(1);
    rig explicit_times, uniform;
    rig_open(&explicit_times, &d, g_clips);
    rig_open(&uniform, &d, g_uniform);
    const size_t with = sw_animator_instance_size(explicit_times.bound);
    const size_t without = sw_animator_instance_size(uniform.bound);
    assert_true(with >= without + sizeof(uint32_t) * JOINTS * 2u * SW_ANIMATOR_MAX_FADES);
    rig_close(&uniform);
    rig_close(&explicit_times);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cached_equals_cold_reference),
        cmocka_unit_test(test_cached_every_frame_equals_sparse),
        cmocka_unit_test(test_cache_memory_only_for_key_searches),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
