/* Animator sampling caches: evaluate keeps a sampling cache per clip a
 * layer may play in the instance (raw clips with explicit key times: key
 * cursors; with SW_ANIMATOR_KEEP_KEYS also quantized clips: cursors and
 * decoded keys, where the build's decoder keeps them). Poses must be bit-identical to sampling
 * every clip from a cold seek: checked against a reference evaluation (contributions sampled
 * without a cache and blended with the blend job), and between instances evaluated every frame and
 * every seventh frame, over clips whose key times are irregular (so the key search cannot guess
 * them) and over their quantized versions, through loops, crossfades (a clip playing twice at once
 * among them), large steps and a change of bound object. */
#include "test_util.h"

#include "sinew/animator/animator.h"
#include "sinew/tools/builders/compress.h"

#define JOINTS 6

static const sw_skeleton* g_skel;
#define CLIPS 5
static const sw_clip* g_clips[CLIPS];
static const sw_clip* g_uniform[CLIPS]; /* the same clips with uniform keys */
static const sw_clip* g_quant[CLIPS];   /* the uniform ones quantized, 8-sample segments */
static const sw_clip* g_quant2[CLIPS];  /* other motion of the same names, sizes and counts */

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

static const sw_clip* quantize(const sw_clip* raw) {
    sw_compress_options o = {.precision = 0.002f, .segment_samples = 8};
    const sw_clip* out = NULL;
    sw_error err;
    sw_result r = sw_compress_clip(g_skel, raw, &o, NULL, &out, NULL, &err);
    if (r != SW_RESULT_OK)
        fail_msg("compress %s: %s (%s)", sw_clip_name(raw), sw_result_str(r), err.check);
    return out;
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
    static const char* const clip_names[CLIPS] = {"walk", "run", "wave", "jump", "crouch"};
    static const float durations[CLIPS] = {1.1f, 0.7f, 1.9f, 0.9f, 1.3f};
    static const uint32_t keys[CLIPS] = {40, 31, 57, 29, 44};
    static const float amps[CLIPS] = {0.4f, 0.7f, 0.9f, 0.5f, 0.6f};
    for (uint32_t i = 0; i < CLIPS; ++i) {
        g_clips[i] = make_clip(clip_names[i], durations[i], keys[i], amps[i], false);
        g_uniform[i] = make_clip(clip_names[i], durations[i], keys[i], amps[i], true);
        g_quant[i] = quantize(g_uniform[i]);
        const sw_clip* other =
            make_clip(clip_names[i], durations[i], keys[i], 1.2f - 0.2f * (float)i, true);
        g_quant2[i] = quantize(other);
        sw_clip_destroy(other, NULL);
    }
    return 0;
}

static int teardown(void** state) {
    (void)state;
    for (uint32_t i = 0; i < CLIPS; ++i) {
        sw_clip_destroy(g_clips[i], NULL);
        sw_clip_destroy(g_uniform[i], NULL);
        sw_clip_destroy(g_quant[i], NULL);
        sw_clip_destroy(g_quant2[i], NULL);
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

static void rig_open(rig* r, const sw_animator_desc* d, const sw_clip* const* clips,
                     sw_animator_keep keep) {
    memset(r, 0, sizeof *r);
    sw_error err;
    sw_result res = sw_animator_create(d, NULL, &r->def, &err);
    if (res != SW_RESULT_OK) fail_msg("create: %s (%s)", sw_result_str(res), err.check);
    const size_t bs = sw_animator_bound_size(r->def, g_skel);
    r->bound_mem = aligned_alloc(16, bs);
    res = sw_animator_bind(r->def, g_skel, clips, CLIPS, r->bound_mem, bs, &r->bound, &err);
    if (res != SW_RESULT_OK) fail_msg("bind: %s (%s)", sw_result_str(res), err.check);
    const size_t is = (sw_animator_instance_size_keeping(r->bound, keep) + 15u) & ~(size_t)15u;
    r->inst_mem = aligned_alloc(16, is);
    assert_int_equal(sw_animator_instance_init_keeping(r->inst_mem, is, r->bound, keep, &r->inst),
                     SW_RESULT_OK);
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

/* Frame f's parameters and step: speed sweeps, waves come and go (for
 * `period` frames each: 5 turns back within the fades, so that the blend
 * space's clips play twice at once), and every 53rd step is long (several
 * cycles: the caches start over at the wrap). */
static float script(uint32_t f, uint32_t period, float* params) {
    params[0] = 0.5f + 0.5f * sinf(0.05f * (float)f);
    params[1] = (f / period) % 2u == 1u ? 1.0f : 0.0f;
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

/* True when a clip plays twice at once in r's contributions. */
static bool clip_twice(const rig* r) {
    sw_animator_contribution cs[16];
    const uint32_t n = sw_animator_contributions(r->inst, r->bound, cs, 16);
    for (uint32_t i = 0; i < n && i < 16u; ++i) {
        for (uint32_t j = 0; j < i; ++j)
            if (cs[i].clip == cs[j].clip) return true;
    }
    return false;
}

/* A test's clips and what its instances keep (its state). */
typedef struct clip_set {
    const sw_clip** clips;
    sw_animator_keep keep;
} clip_set;
static const clip_set k_raw = {g_clips, SW_ANIMATOR_KEEP_CURSORS};
static const clip_set k_quant_keys = {g_quant, SW_ANIMATOR_KEEP_KEYS};
static const clip_set k_quant = {g_quant, SW_ANIMATOR_KEEP_CURSORS}; /* no caches */

static void test_cached_equals_cold_reference(void** state) {
    const clip_set* set = (const clip_set*)*state;
    sw_animator_desc d = desc_of(1);
    const size_t bytes = sizeof(sw_xform4) * g_skel->packets_count;
    sw_xform4* ref = (sw_xform4*)aligned_alloc(16, bytes);
    static const uint32_t periods[2] = {45, 5};
    for (uint32_t p = 0; p < 2; ++p) {
        rig r;
        rig_open(&r, &d, set->clips, set->keep);
        uint32_t blended = 0, twice = 0;
        for (uint32_t f = 0; f < 600; ++f) {
            const float dt = script(f, periods[p], r.params);
            rig_step(&r, dt, true);
            reference_pose(&r, ref);
            if (memcmp(ref, r.pose, bytes) != 0)
                fail_msg("period %u, frame %u: cached pose differs", periods[p], f);
            blended += sw_animator_contributions(r.inst, r.bound, NULL, 0) > 1u;
            twice += clip_twice(&r);
        }
        assert_true(blended > 100);          /* the blend space and the fades were exercised */
        if (p == 1) assert_true(twice > 20); /* more contributions than caches */
        rig_close(&r);
    }
    free(ref);
}

static void test_cached_every_frame_equals_sparse(void** state) {
    const clip_set* set = (const clip_set*)*state;
    sw_animator_desc d = desc_of(2); /* with the additive layer */
    rig every, sparse;
    rig_open(&every, &d, set->clips, set->keep);
    rig_open(&sparse, &d, set->clips, set->keep);
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

/* Uniform keys are found from the time alone: an instance over them holds
 * no cursors. Over explicit times it holds one per track for each clip the
 * layer may play (walk, run and wave: 3), not one per playing clip (the
 * base machine: 2 members x 4 fading states). Over quantized clips, none by
 * default; keeping keys, a cache of sw_sample_cache_size words per clip
 * where the decoder keeps keys. An unknown mode is refused. */
static void test_cache_memory_only_for_key_searches(void** state) {
    (void)state;
    sw_animator_desc d = desc_of(1);
    rig explicit_times, uniform, quant;
    rig_open(&explicit_times, &d, g_clips, SW_ANIMATOR_KEEP_CURSORS);
    rig_open(&uniform, &d, g_uniform, SW_ANIMATOR_KEEP_KEYS);
    rig_open(&quant, &d, g_quant, SW_ANIMATOR_KEEP_CURSORS);
    const size_t with = sw_animator_instance_size(explicit_times.bound);
    const size_t without = sw_animator_instance_size(uniform.bound);
    const size_t cursors = sizeof(uint32_t) * JOINTS;
    assert_true(with >= without + 3u * cursors);
    assert_true(with < without + 2u * SW_ANIMATOR_MAX_FADES * cursors);
    uint32_t words = 0;
    for (uint32_t i = 0; i < 3; ++i) { /* the clips desc_of's states play */
        const uint32_t w = sw_sample_cache_size(g_quant[i]);
        words = w > words ? w : words;
    }
    assert_int_equal(sw_animator_instance_size(quant.bound), without);
    assert_int_equal(sw_animator_instance_size(uniform.bound),
                     sw_animator_instance_size_keeping(uniform.bound, SW_ANIMATOR_KEEP_KEYS));
    const size_t quantized = sw_animator_instance_size_keeping(quant.bound, SW_ANIMATOR_KEEP_KEYS);
    if (words > g_quant[0]->tracks_count) {
        assert_true(quantized >= without + 3u * sizeof(uint32_t) * words);
        assert_true(quantized < without + 4u * sizeof(uint32_t) * words);
    } else {
        assert_int_equal(quantized, without); /* no key cache on this build */
    }
    assert_int_equal(sw_animator_instance_size_keeping(quant.bound, SW_ANIMATOR_KEEP_COUNT), 0);
    void* mem = aligned_alloc(16, quantized);
    sw_animator_instance* inst = NULL;
    assert_int_equal(sw_animator_instance_init_keeping(mem, quantized, quant.bound,
                                                       SW_ANIMATOR_KEEP_COUNT, &inst),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_instance_init_keeping(mem, quantized - 16u, quant.bound,
                                                       SW_ANIMATOR_KEEP_KEYS, &inst),
                     words > g_quant[0]->tracks_count ? SW_RESULT_BUFFER_TOO_SMALL : SW_RESULT_OK);
    free(mem);
    rig_close(&quant);
    rig_close(&uniform);
    rig_close(&explicit_times);
}

/* The cycle machine: a state change every 5 frames at 60 Hz, each to the
 * next state, so four clips fade at once and the fifth comes in; each frame
 * against the cold reference. */
static void test_caches_change_clips(void** state) {
    const clip_set* set = (const clip_set*)*state;
    const sw_animator_desc d = {.params = k_params,
                                .params_count = 2,
                                .machines = k_cycle_machine,
                                .machines_count = 1,
                                .layers = k_cycle_layer,
                                .layers_count = 1};
    rig r;
    rig_open(&r, &d, set->clips, set->keep);
    const size_t bytes = sizeof(sw_xform4) * g_skel->packets_count;
    sw_xform4* ref = (sw_xform4*)aligned_alloc(16, bytes);
    uint32_t four = 0;
    for (uint32_t f = 0; f < 400; ++f) {
        r.params[0] = (float)((f / 5u) % CLIPS);
        rig_step(&r, 1.0f / 60.0f, true);
        reference_pose(&r, ref);
        if (memcmp(ref, r.pose, bytes) != 0) fail_msg("frame %u: cached pose differs", f);
        four += sw_animator_contributions(r.inst, r.bound, NULL, 0) == SW_ANIMATOR_MAX_FADES;
    }
    assert_true(four > 100);
    free(ref);
    rig_close(&r);
}

/* One instance evaluated with one bound object, then with another whose
 * slots hold other clips of the same names and sizes (so the instance
 * matches both): after the switch, the caches must not serve the first
 * bound's keys. Each frame against the cold reference. */
static void test_caches_follow_the_bound(void** state) {
    (void)state;
    sw_animator_desc d = desc_of(1);
    rig a, b;
    rig_open(&a, &d, g_quant, SW_ANIMATOR_KEEP_KEYS);
    rig_open(&b, &d, g_quant2, SW_ANIMATOR_KEEP_KEYS);
    assert_int_equal(sw_animator_instance_size_keeping(a.bound, SW_ANIMATOR_KEEP_KEYS),
                     sw_animator_instance_size_keeping(b.bound, SW_ANIMATOR_KEEP_KEYS));
    const size_t bytes = sizeof(sw_xform4) * g_skel->packets_count;
    sw_xform4* ref = (sw_xform4*)aligned_alloc(16, bytes);
    const sw_animator_bound* own = a.bound;
    for (uint32_t f = 0; f < 240; ++f) {
        a.bound = (f / 20u) % 2u == 0 ? own : b.bound; /* a's instance, b's bound on odd runs */
        const float dt = script(f, 45, a.params);
        rig_step(&a, dt, true);
        reference_pose(&a, ref);
        if (memcmp(ref, a.pose, bytes) != 0) fail_msg("frame %u: pose differs after the switch", f);
    }
    a.bound = own;
    free(ref);
    rig_close(&b);
    rig_close(&a);
}

/* Test f on one clip set (its state), named after both. */
#define ON_CLIPS(f, name, set)                                                                     \
    { #f " (" name ")", f, NULL, NULL, (void*)(&(set)) }

int main(void) {
    const struct CMUnitTest tests[] = {
        ON_CLIPS(test_cached_equals_cold_reference, "raw", k_raw),
        ON_CLIPS(test_cached_equals_cold_reference, "quantized, keys", k_quant_keys),
        ON_CLIPS(test_cached_equals_cold_reference, "quantized", k_quant),
        ON_CLIPS(test_cached_every_frame_equals_sparse, "raw", k_raw),
        ON_CLIPS(test_cached_every_frame_equals_sparse, "quantized, keys", k_quant_keys),
        ON_CLIPS(test_caches_change_clips, "raw", k_raw),
        ON_CLIPS(test_caches_change_clips, "quantized, keys", k_quant_keys),
        cmocka_unit_test(test_cache_memory_only_for_key_searches),
        cmocka_unit_test(test_caches_follow_the_bound),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
