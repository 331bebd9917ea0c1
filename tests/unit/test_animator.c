/* Animator: desc validity table, blend spaces (phases, cycle length, weights),
 * crossfades, cuts, finished, events across loops and dt, root motion over
 * cycles and frame rates, inertialization, layers (masks, additive), sync
 * markers, nested machines, triggers, interruption, determinism, argument
 * tables, randomized idle, and real data (CMU BVH, RobotExpressive). */
#include "animator_rig.h"

#include "sinew/tools/readers/asset.h"

/* ---- synthetic rig: Hips (root) > Spine > Arm, and Hips > Leg ---- */

#define JOINTS 4
#define RATE 30.0f

static const sw_skeleton* g_skel;
static const sw_clip* g_clips[8];
static uint32_t g_clips_count;

typedef struct clip_spec {
    const char* name;
    float duration;
    float distance;  /* root z over one cycle */
    float yaw_amp;   /* root yaw oscillation (radians), zero net per cycle */
    float spine_amp; /* spine rotation about x */
    float arm;       /* arm rotation about z (constant) */
    bool additive;
    const sw_clip_event_desc* events;
    uint32_t events_count;
} clip_spec;

static const sw_clip* make_clip(const clip_spec* s) {
    uint32_t n = (uint32_t)(s->duration * RATE + 0.5f) + 1u;
    float* t = (float*)malloc(sizeof(float) * 3u * n);
    float* r = (float*)malloc(sizeof(float) * 4u * n);
    float* sp = (float*)malloc(sizeof(float) * 4u * n);
    float* ar = (float*)malloc(sizeof(float) * 4u * n);
    for (uint32_t k = 0; k < n; ++k) {
        float u = (float)k / (float)(n - 1u);
        float ph = 2.0f * 3.14159265f * u;
        t[3 * k + 0] = s->additive ? 0.0f : 0.1f * sinf(ph);
        t[3 * k + 1] = s->additive ? 0.0f : 1.0f;
        t[3 * k + 2] = s->distance * u;
        sw_quat q = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), s->yaw_amp * sinf(ph));
        memcpy(&r[4 * k], &q, sizeof q);
        q = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), s->spine_amp * sinf(ph));
        memcpy(&sp[4 * k], &q, sizeof q);
        q = sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), s->arm);
        memcpy(&ar[4 * k], &q, sizeof q);
    }
    sw_clip_track_desc tracks[4] = {
        {.kind = SW_TRACK_KIND_TRANSLATION, .joint = 0, .keys_count = n, .rate = RATE, .values = t},
        {.kind = SW_TRACK_KIND_ROTATION, .joint = 0, .keys_count = n, .rate = RATE, .values = r},
        {.kind = SW_TRACK_KIND_ROTATION, .joint = 1, .keys_count = n, .rate = RATE, .values = sp},
        {.kind = SW_TRACK_KIND_ROTATION, .joint = 2, .keys_count = n, .rate = RATE, .values = ar},
    };
    sw_clip_desc d = {.name = s->name,
                      .duration = s->duration,
                      .joints_count = JOINTS,
                      .additive = s->additive,
                      .tracks = s->additive ? tracks + 2 : tracks,
                      .tracks_count = s->additive ? 2u : 4u,
                      .events = s->events,
                      .events_count = s->events_count};
    const sw_clip* c = NULL;
    sw_error err;
    sw_result res = sw_clip_create(&d, NULL, &c, &err);
    if (res != SW_RESULT_OK) fail_msg("clip %s: %s (%s)", s->name, sw_result_str(res), err.check);
    free(t);
    free(r);
    free(sp);
    free(ar);
    return c;
}

static const sw_clip_event_desc k_walk_events[] = {{0.1f, "LeftFootDown"}, {0.6f, "RightFootDown"}};
static const sw_clip_event_desc k_run_events[] = {{0.05f, "LeftFootDown"},
                                                  {0.35f, "RightFootDown"}};
static const sw_clip_event_desc k_idle_events[] = {{0.0f, "Start"}, {2.0f, "End"}};
static const sw_clip_event_desc k_punch_events[] = {{0.4f, "Hit"}};

static int setup(void** state) {
    (void)state;
    const sw_skeleton_joint joints[JOINTS] = {
        {"Hips", -1, {{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"Spine", 0, {{0, 0.3f, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"Arm", 1, {{0.2f, 0.3f, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"Leg", 0, {{0.1f, -0.5f, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
    };
    sw_skeleton_desc sd = {joints, JOINTS};
    assert_int_equal(sw_skeleton_create(&sd, NULL, &g_skel, NULL), SW_RESULT_OK);
    const clip_spec specs[] = {
        {"idle", 2.0f, 0.0f, 0.0f, 0.05f, 0.0f, false, k_idle_events, 2},
        {"walk", 1.0f, 1.4f, 0.1f, 0.2f, 0.0f, false, k_walk_events, 2},
        {"run", 0.6f, 2.0f, 0.05f, 0.4f, 0.0f, false, k_run_events, 2},
        {"punch", 0.8f, 0.0f, 0.0f, 0.1f, 1.2f, false, k_punch_events, 1},
        {"aim", 1.0f, 0.0f, 0.0f, 0.0f, -0.7f, false, NULL, 0},
        {"breathe", 1.5f, 0.0f, 0.0f, 0.3f, 0.0f, true, NULL, 0},
        {"strafe", 0.8f, 0.0f, 0.0f, 0.1f, 0.3f, false, k_walk_events, 2},
    };
    g_clips_count = sizeof specs / sizeof specs[0];
    for (uint32_t i = 0; i < g_clips_count; ++i)
        g_clips[i] = make_clip(&specs[i]);
    return 0;
}

static int teardown(void** state) {
    (void)state;
    for (uint32_t i = 0; i < g_clips_count; ++i)
        sw_clip_destroy(g_clips[i], NULL);
    sw_skeleton_destroy(g_skel, NULL);
    return 0;
}

/* ---- the test animator ---- */

enum { P_SPEED, P_PUNCH, P_AIM, P_DIR, P_LOCO_SPEED, P_GROUNDED, P_COUNT };

static const sw_animator_param_desc k_params[] = {
    {"speed", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f},
    {"punch", SW_ANIMATOR_PARAM_TYPE_TRIGGER, 0.0f},
    {"aim", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f},
    {"dir", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f},
    {"loco_speed", SW_ANIMATOR_PARAM_TYPE_FLOAT, 1.0f},
    {"grounded", SW_ANIMATOR_PARAM_TYPE_BOOL, 1.0f},
};
static const sw_animator_member_desc k_loco_members[] = {
    {"idle", 0.0f, 0.0f}, {"walk", 1.4f, 0.0f}, {"run", 3.2f, 0.0f}};
static const sw_animator_member_desc k_dir_members[] = {{"idle", 0.0f, 0.0f},
                                                        {"walk", 0.0f, 1.4f},
                                                        {"run", 0.0f, 3.2f},
                                                        {"strafe", 1.0f, 0.7f},
                                                        {"strafe", -1.0f, 0.7f}};
static const char* const k_markers[] = {"LeftFootDown", "RightFootDown"};
static const sw_animator_blend_space_desc k_spaces[] = {
    {"loco", "speed", NULL, k_loco_members, 3, NULL, 0, false},
    {"dir2d", "dir", "speed", k_dir_members, 5, NULL, 0, false},
    {"synced", "speed", NULL, k_loco_members + 1, 2, k_markers, 2, false},
};
static const sw_animator_condition_desc k_punch_cond[] = {{"punch", SW_ANIMATOR_OP_TRIGGER, 0}};
static const sw_animator_state_desc k_base_states[] = {
    {"Locomotion", SW_ANIMATOR_MOTION_BLEND_SPACE, "loco", false, 0.0f, "loco_speed"},
    {"Punch", SW_ANIMATOR_MOTION_CLIP, "punch", true, 0.0f, NULL},
    {"Idle", SW_ANIMATOR_MOTION_CLIP, "idle", false, 0.0f, NULL},
};
static const sw_animator_transition_desc k_base_transitions[] = {
    {.from = "*",
     .to = "Punch",
     .conditions = k_punch_cond,
     .conditions_count = 1,
     .interrupt = SW_ANIMATOR_INTERRUPT_NONE,
     .to_self = true},
    {.from = "Punch",
     .to = "Locomotion",
     .has_exit_time = true,
     .exit_time = 1.0f,
     .duration = 0.25f,
     .mode = SW_ANIMATOR_TRANSITION_MODE_CROSSFADE,
     .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
};
static const sw_animator_state_desc k_upper_states[] = {
    {"Aim", SW_ANIMATOR_MOTION_CLIP, "aim", false, 0.0f, NULL},
};
static const sw_animator_state_desc k_add_states[] = {
    {"Breathe", SW_ANIMATOR_MOTION_CLIP, "breathe", false, 0.0f, NULL},
};
static const sw_animator_machine_desc k_machines[] = {
    {"Base", k_base_states, 3, k_base_transitions, 2, "Locomotion"},
    {"Upper", k_upper_states, 1, NULL, 0, NULL},
    {"Breath", k_add_states, 1, NULL, 0, NULL},
};
static const sw_animator_mask_desc k_upper_mask[] = {{"Spine", 1.0f}, {"Arm", 1.0f}};
static const sw_animator_layer_desc k_layers[] = {
    {"base", "Base", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f, NULL, NULL, 0,
     SW_ANIMATOR_REFERENCE_DEFAULT},
    {"upper", "Upper", SW_ANIMATOR_LAYER_MODE_OVERRIDE, 0.0f, "aim", k_upper_mask, 2,
     SW_ANIMATOR_REFERENCE_DEFAULT},
    {"breath", "Breath", SW_ANIMATOR_LAYER_MODE_ADDITIVE, 1.0f, NULL, NULL, 0,
     SW_ANIMATOR_REFERENCE_DEFAULT},
};

static sw_animator_desc base_desc(void) {
    sw_animator_desc d = {.params = k_params,
                          .params_count = P_COUNT,
                          .blend_spaces = k_spaces,
                          .blend_spaces_count = 3,
                          .machines = k_machines,
                          .machines_count = 3,
                          .layers = k_layers,
                          .layers_count = 3,
                          .root_motion_joint = "Hips"};
    return d;
}

static void rig_open(rig* r, const sw_animator_desc* d) {
    rig_open_with(r, d, g_skel, g_clips, g_clips_count);
}

static uint32_t contribs_of_state(rig* r, uint32_t state, sw_animator_contribution* out,
                                  uint32_t cap) {
    sw_animator_contribution all[64];
    uint32_t n = sw_animator_contributions(r->inst, r->bound, all, 64), k = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (all[i].state == state && k < cap) out[k++] = all[i];
    }
    return k;
}

static float clip_duration(const char* name) {
    for (uint32_t i = 0; i < g_clips_count; ++i) {
        if (strcmp(sw_clip_name(g_clips[i]), name) == 0) return g_clips[i]->duration;
    }
    fail_msg("no clip %s", name);
    return 0.0f;
}

/* ---- desc validity table ---- */

typedef struct desc_case {
    const char* name;
    sw_result expect;
} desc_case;

static void expect_desc(const sw_animator_desc* d, sw_result expect, const char* what) {
    size_t size = sw_animator_measure(d);
    if (expect == SW_RESULT_OK) {
        if (size == 0) fail_msg("%s: measure 0 for a valid desc", what);
    } else if (size != 0) {
        fail_msg("%s: measure %zu for an invalid desc", what, size);
    }
    static _Alignas(16) unsigned char mem[1 << 16];
    const sw_animator* a = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_animator_init(mem, sizeof mem, d, &a, &err);
    if (r != expect) {
        fail_msg("%s: init %s, expected %s (check %s)", what, sw_result_str(r),
                 sw_result_str(expect), err.check ? err.check : "-");
    }
    if (expect != SW_RESULT_OK && !err.check) fail_msg("%s: no check named", what);
    /* what init writes passes the block validator (init does not run it) */
    const sw_animator* loaded = NULL;
    if (r == SW_RESULT_OK && sw_animator_load(mem, sw_animator_size(a), &loaded, &err) != r) {
        fail_msg("%s: the written block fails its load check %s", what, err.check);
    }
}

static void test_desc_validity_table(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    expect_desc(&d, SW_RESULT_OK, "valid");
    sw_animator_desc zero;
    memset(&zero, 0, sizeof zero);
    expect_desc(&zero, SW_RESULT_BAD_DATA, "all zero");
    expect_desc(NULL, SW_RESULT_INVALID_ARGUMENT, "NULL desc");

    sw_animator_param_desc params[P_COUNT];
    sw_animator_blend_space_desc spaces[3];
    sw_animator_member_desc members[3];
    sw_animator_state_desc states[3];
    sw_animator_transition_desc trans[2];
    sw_animator_condition_desc conds[1];
    sw_animator_machine_desc machines[3];
    sw_animator_layer_desc layers[3];
    sw_animator_mask_desc mask[2];
#define RESET()                                                                                    \
    do {                                                                                           \
        d = base_desc();                                                                           \
        memcpy(params, k_params, sizeof params);                                                   \
        memcpy(spaces, k_spaces, sizeof spaces);                                                   \
        memcpy(members, k_loco_members, sizeof members);                                           \
        memcpy(states, k_base_states, sizeof states);                                              \
        memcpy(trans, k_base_transitions, sizeof trans);                                           \
        memcpy(conds, k_punch_cond, sizeof conds);                                                 \
        memcpy(machines, k_machines, sizeof machines);                                             \
        memcpy(layers, k_layers, sizeof layers);                                                   \
        memcpy(mask, k_upper_mask, sizeof mask);                                                   \
        spaces[0].members = members;                                                               \
        trans[0].conditions = conds;                                                               \
        machines[0].states = states;                                                               \
        machines[0].transitions = trans;                                                           \
        layers[1].mask = mask;                                                                     \
        d.params = params;                                                                         \
        d.blend_spaces = spaces;                                                                   \
        d.machines = machines;                                                                     \
        d.layers = layers;                                                                         \
    } while (0)
#define CASE(expr, expect)                                                                         \
    do {                                                                                           \
        RESET();                                                                                   \
        expr;                                                                                      \
        expect_desc(&d, expect, #expr);                                                            \
    } while (0)
    CASE((void)0, SW_RESULT_OK);
    CASE(d.params = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(d.params_count = SW_ANIMATOR_MAX_PARAMS + 1u, SW_RESULT_LIMIT);
    CASE(d.layers_count = 0, SW_RESULT_BAD_DATA);
    CASE(d.layers_count = SW_ANIMATOR_MAX_LAYERS + 1u, SW_RESULT_LIMIT);
    CASE(d.machines_count = 0, SW_RESULT_BAD_DATA);
    CASE(d.event_weight_threshold = 1.5f, SW_RESULT_BAD_DATA);
    CASE(d.event_weight_threshold = NAN, SW_RESULT_BAD_DATA);
    CASE(d.root_motion_joint = "", SW_RESULT_BAD_DATA);
    CASE(params[0].name = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(params[0].name = "", SW_RESULT_BAD_DATA);
    CASE(params[1].name = "speed", SW_RESULT_BAD_DATA);
    CASE(params[0].type = (sw_animator_param_type)9, SW_RESULT_BAD_DATA);
    CASE(params[0].value = INFINITY, SW_RESULT_BAD_DATA);
    CASE(params[1].value = 0.5f, SW_RESULT_BAD_DATA); /* trigger */
    CASE(params[5].value = 2.0f, SW_RESULT_BAD_DATA); /* bool */
    CASE((params[0].type = SW_ANIMATOR_PARAM_TYPE_INT, params[0].value = 0.5f), SW_RESULT_BAD_DATA);
    CASE(spaces[0].name = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(spaces[1].name = "loco", SW_RESULT_BAD_DATA);
    CASE(spaces[0].param_x = "nope", SW_RESULT_BAD_DATA);
    CASE(spaces[0].param_x = "punch", SW_RESULT_BAD_DATA); /* trigger */
    CASE(spaces[1].param_y = "grounded", SW_RESULT_BAD_DATA);
    CASE(spaces[0].members_count = 0, SW_RESULT_BAD_DATA);
    CASE(spaces[0].members = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(spaces[0].members_count = SW_ANIMATOR_MAX_MEMBERS + 1u, SW_RESULT_LIMIT);
    CASE(members[1].x = 0.0f, SW_RESULT_BAD_DATA);
    CASE(members[1].x = NAN, SW_RESULT_BAD_DATA);
    CASE(members[1].clip = "", SW_RESULT_BAD_DATA);
    CASE(members[1].clip = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(spaces[2].sync_markers_count = SW_ANIMATOR_MAX_MARKERS + 1u, SW_RESULT_LIMIT);
    CASE(states[0].motion = SW_ANIMATOR_MOTION_NONE, SW_RESULT_BAD_DATA);
    CASE(states[0].target = "nope", SW_RESULT_BAD_DATA);
    CASE(states[1].target = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(states[1].name = "Locomotion", SW_RESULT_BAD_DATA);
    CASE(states[1].speed = -1.0f, SW_RESULT_BAD_DATA);
    CASE(states[0].speed_param = "grounded", SW_RESULT_BAD_DATA);
    CASE(machines[0].entry = "nope", SW_RESULT_BAD_DATA);
    CASE(machines[0].states_count = 0, SW_RESULT_BAD_DATA);
    CASE(machines[1].name = "Base", SW_RESULT_BAD_DATA);
    CASE(trans[1].from = "nope", SW_RESULT_BAD_DATA);
    CASE(trans[1].to = "nope", SW_RESULT_BAD_DATA);
    CASE(trans[1].exit_time = 0.0f, SW_RESULT_BAD_DATA);
    CASE(trans[1].duration = -0.1f, SW_RESULT_BAD_DATA);
    CASE(trans[1].mode = (sw_animator_transition_mode)7, SW_RESULT_BAD_DATA);
    CASE(trans[1].interrupt = (sw_animator_interrupt)7, SW_RESULT_BAD_DATA);
    CASE(trans[0].conditions_count = SW_ANIMATOR_MAX_CONDITIONS + 1u, SW_RESULT_LIMIT);
    CASE(trans[0].conditions = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(conds[0].param = "nope", SW_RESULT_BAD_DATA);
    CASE(conds[0].op = SW_ANIMATOR_OP_GREATER, SW_RESULT_BAD_DATA); /* on a trigger */
    CASE((conds[0].param = "speed", conds[0].op = SW_ANIMATOR_OP_TRUE), SW_RESULT_BAD_DATA);
    CASE((conds[0].param = "speed", conds[0].op = SW_ANIMATOR_OP_LESS, conds[0].value = NAN),
         SW_RESULT_BAD_DATA);
    CASE(conds[0].op = SW_ANIMATOR_OP_NONE, SW_RESULT_BAD_DATA);
    CASE(layers[0].machine = "nope", SW_RESULT_BAD_DATA);
    CASE(layers[1].machine = "Base", SW_RESULT_BAD_DATA); /* played twice, Upper by none */
    CASE(layers[1].name = "base", SW_RESULT_BAD_DATA);
    CASE(layers[1].weight = 2.0f, SW_RESULT_BAD_DATA);
    CASE(layers[1].weight_param = "punch", SW_RESULT_BAD_DATA);
    CASE(layers[1].mode = (sw_animator_layer_mode)5, SW_RESULT_BAD_DATA);
    CASE(layers[1].reference = (sw_animator_reference)5, SW_RESULT_BAD_DATA);
    CASE((layers[0].mask = mask, layers[0].mask_count = 1), SW_RESULT_BAD_DATA);
    CASE(mask[0].weight = -0.5f, SW_RESULT_BAD_DATA);
    CASE(mask[0].joint = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(layers[1].mask_count = SW_ANIMATOR_MAX_MASK + 1u, SW_RESULT_LIMIT);
    CASE(d.layers_count = 2, SW_RESULT_BAD_DATA); /* Breath played by nothing */
    /* nested machines: a cycle, and a self transition on a machine state */
    sw_animator_state_desc nest[2] = {
        {"Inner", SW_ANIMATOR_MOTION_MACHINE, "Breath", false, 0.0f, NULL},
        {"Clip", SW_ANIMATOR_MOTION_CLIP, "aim", false, 0.0f, NULL},
    };
    sw_animator_state_desc back[1] = {
        {"Back", SW_ANIMATOR_MOTION_MACHINE, "Upper", false, 0.0f, NULL}};
    CASE((machines[1].states = nest, machines[1].states_count = 2, machines[2].states = back,
          d.layers_count = 1),
         SW_RESULT_BAD_DATA);
    sw_animator_transition_desc self[1] = {
        {.from = "Inner", .to = "Inner", .duration = 0.1f, .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
    };
    CASE((machines[1].states = nest, machines[1].states_count = 2, machines[1].transitions = self,
          machines[1].transitions_count = 1, d.layers_count = 2),
         SW_RESULT_BAD_DATA);
    CASE((machines[1].states = nest, machines[1].states_count = 2, d.layers_count = 2),
         SW_RESULT_OK);
#undef CASE
#undef RESET
}

static void test_init_arguments_and_lookups(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    size_t size = sw_animator_measure(&d);
    assert_true(size > 0 && size % 16 == 0);
    unsigned char* buf = (unsigned char*)aligned_alloc(16, size + 16);
    const sw_animator* a = NULL;
    assert_int_equal(sw_animator_init(buf, size - 1, &d, &a, NULL), SW_RESULT_BUFFER_TOO_SMALL);
    assert_int_equal(sw_animator_init(buf + 4, size, &d, &a, NULL), SW_RESULT_MISALIGNED);
    assert_int_equal(sw_animator_init(NULL, size, &d, &a, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_init(buf, size, &d, NULL, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_init(buf, size, &d, &a, NULL), SW_RESULT_OK);
    assert_int_equal(sw_animator_size(a), size);
    /* relocatable: a copy works the same */
    unsigned char* copy = (unsigned char*)aligned_alloc(16, size);
    memcpy(copy, buf, size);
    memset(buf, 0xAB, size);
    a = (const sw_animator*)copy;
    assert_int_equal(sw_animator_params_count(a), P_COUNT);
    assert_string_equal(sw_animator_param_name(a, P_AIM), "aim");
    assert_int_equal(sw_animator_param_type_of(a, P_PUNCH), SW_ANIMATOR_PARAM_TYPE_TRIGGER);
    assert_int_equal(sw_animator_find_param(a, "grounded"), P_GROUNDED);
    assert_int_equal(sw_animator_find_param(a, "nope"), -1);
    /* slots: members of blend spaces first, then clip states */
    assert_int_equal(sw_animator_clips_count(a), 7);
    assert_string_equal(sw_animator_clip_name(a, 0), "idle");
    assert_string_equal(sw_animator_clip_name(a, 3), "strafe");
    assert_string_equal(sw_animator_clip_name(a, 4), "punch");
    assert_null(sw_animator_clip_name(a, 7));
    assert_int_equal(sw_animator_states_count(a), 5);
    assert_int_equal(sw_animator_find_state(a, "Punch"), 1);
    assert_int_equal(sw_animator_find_state(a, "Upper/Aim"), 3);
    assert_int_equal(sw_animator_find_state(a, "Base/Aim"), -1);
    assert_int_equal(sw_animator_state_machine(a, 4), 2);
    assert_string_equal(sw_animator_machine_name(a, 1), "Upper");
    assert_string_equal(sw_animator_layer_name(a, 2), "breath");
    float p[P_COUNT];
    assert_int_equal(sw_animator_params_reset(a, p, P_COUNT - 1), SW_RESULT_BUFFER_TOO_SMALL);
    assert_int_equal(sw_animator_params_reset(a, p, P_COUNT), SW_RESULT_OK);
    assert_true(p[P_LOCO_SPEED] == 1.0f && p[P_GROUNDED] == 1.0f && p[P_SPEED] == 0.0f);
    free(copy);
    free(buf);
}

static void test_bind_errors(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    const sw_animator* a = NULL;
    assert_int_equal(sw_animator_create(&d, NULL, &a, NULL), SW_RESULT_OK);
    size_t bs = sw_animator_bound_size(a, g_skel);
    void* mem = aligned_alloc(16, bs);
    const sw_animator_bound* b = NULL;
    sw_error err;
    assert_int_equal(sw_animator_bind(a, g_skel, g_clips, g_clips_count, mem, bs - 16, &b, &err),
                     SW_RESULT_BUFFER_TOO_SMALL);
    assert_int_equal(sw_animator_bind(a, g_skel, g_clips, 2, mem, bs, &b, &err),
                     SW_RESULT_NOT_FOUND);
    assert_string_equal(err.check, "clip slot has a clip");
    assert_int_equal(err.index, 2); /* "run" */
    assert_int_equal(sw_animator_bind(NULL, g_skel, g_clips, 2, mem, bs, &b, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    /* a skeleton without the mask joint "Arm" nor the root "Hips" */
    const sw_skeleton_joint joints[JOINTS] = {
        {"Root", -1, {{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"Spine", 0, {{0, 0.3f, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"Hand", 1, {{0.2f, 0.3f, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"Leg", 0, {{0.1f, -0.5f, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
    };
    sw_skeleton_desc sd = {joints, JOINTS};
    const sw_skeleton* other = NULL;
    assert_int_equal(sw_skeleton_create(&sd, NULL, &other, NULL), SW_RESULT_OK);
    assert_int_equal(sw_animator_bind(a, other, g_clips, g_clips_count, mem, bs, &b, &err),
                     SW_RESULT_NOT_FOUND);
    assert_string_equal(err.check, "mask joint in the skeleton");
    assert_int_equal(sw_animator_bind(a, g_skel, g_clips, g_clips_count, mem, bs, &b, &err),
                     SW_RESULT_OK);
    assert_ptr_equal(sw_animator_bound_clip(b, 2), g_clips[2]);
    assert_ptr_equal(sw_animator_bound_definition(b), a);
    assert_ptr_equal(sw_animator_bound_skeleton(b), g_skel);
    sw_skeleton_destroy(other, NULL);
    free(mem);
    sw_animator_destroy(a, NULL);
}

/* ---- blend spaces ---- */

/* Reference 1D weights: the two neighbours, linear, clamped. */
static void ref_weights_1d(float x, float* w) {
    const float xs[3] = {0.0f, 1.4f, 3.2f};
    w[0] = w[1] = w[2] = 0.0f;
    if (x <= xs[0])
        w[0] = 1.0f;
    else if (x >= xs[2])
        w[2] = 1.0f;
    else {
        int k = x < xs[1] ? 0 : 1;
        float u = (x - xs[k]) / (xs[k + 1] - xs[k]);
        w[k] = 1.0f - u;
        w[k + 1] = u;
    }
}

static void test_blend_space_phase_and_cycle(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    d.layers_count = 1;
    d.machines_count = 1;
    rig r;
    rig_open(&r, &d);
    const float durs[3] = {clip_duration("idle"), clip_duration("walk"), clip_duration("run")};
    uint32_t rng = 7;
    double prev_phase = 0.0;
    for (int frame = 0; frame < 600; ++frame) {
        float speed = 1.6f + 1.7f * sinf((float)frame * 0.01f);
        float dt = sw_test_rand(&rng, 1.0f / 240.0f, 1.0f / 20.0f);
        r.params[P_SPEED] = speed;
        rig_update(&r, dt, NULL, 0, NULL);
        sw_animator_contribution c[8];
        uint32_t n = contribs_of_state(&r, 0, c, 8);
        float w[3];
        ref_weights_1d(speed, w);
        float sum = 0.0f, len = 0.0f;
        for (uint32_t i = 0; i < n; ++i) {
            sum += c[i].weight;
            assert_near(c[i].weight, w[c[i].clip], 1e-5);
            /* every member at the same normalized phase */
            assert_near(c[i].phase, c[0].phase, 1e-5);
            assert_near(c[i].time, c[i].phase * durs[c[i].clip], 1e-4);
        }
        for (int i = 0; i < 3; ++i)
            len += w[i] * durs[i];
        assert_near(sum, 1.0f, 1e-5);
        /* the phase advanced by dt / L with L the weight-blended length */
        sw_animator_state_info info[4];
        uint32_t ns = sw_animator_states(r.inst, r.bound, info, 4);
        assert_true(ns >= 1);
        assert_int_equal(info[0].state, 0);
        assert_near(info[0].normalized_time - prev_phase, dt / len, 1e-6);
        prev_phase = info[0].normalized_time;
    }
    rig_close(&r);
}

static void test_blend_space_weights_continuous(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    /* the 2D space as the base motion */
    sw_animator_state_desc states[3];
    memcpy(states, k_base_states, sizeof states);
    states[0].target = "dir2d";
    sw_animator_machine_desc machines[3];
    memcpy(machines, k_machines, sizeof machines);
    machines[0].states = states;
    d.machines = machines;
    d.layers_count = 1;
    d.machines_count = 1;
    rig r;
    rig_open(&r, &d);
    const float mx[5] = {0.0f, 0.0f, 0.0f, 1.0f, -1.0f}, my[5] = {0.0f, 1.4f, 3.2f, 0.7f, 0.7f};
    /* 1 at each member, 0 for the others */
    for (int m = 0; m < 5; ++m) {
        r.params[P_DIR] = mx[m];
        r.params[P_SPEED] = my[m];
        rig_update(&r, 0.0f, NULL, 0, NULL);
        sw_animator_contribution c[8];
        uint32_t n = contribs_of_state(&r, 0, c, 8);
        assert_int_equal(n, 1);
        assert_near(c[0].weight, 1.0f, 1e-6);
    }
    /* sum 1, non-negative, continuous along random paths */
    uint32_t rng = 99;
    for (int path = 0; path < 20; ++path) {
        float x0 = sw_test_rand(&rng, -1.5f, 1.5f), y0 = sw_test_rand(&rng, -0.5f, 4.0f);
        float x1 = sw_test_rand(&rng, -1.5f, 1.5f), y1 = sw_test_rand(&rng, -0.5f, 4.0f);
        float prev[7] = {0};
        for (int k = 0; k <= 400; ++k) {
            float u = (float)k / 400.0f;
            r.params[P_DIR] = x0 + (x1 - x0) * u;
            r.params[P_SPEED] = y0 + (y1 - y0) * u;
            rig_update(&r, 0.0f, NULL, 0, NULL);
            sw_animator_contribution c[8];
            uint32_t n = contribs_of_state(&r, 0, c, 8);
            float w[7] = {0}, sum = 0.0f;
            for (uint32_t i = 0; i < n; ++i) {
                assert_true(c[i].weight >= 0.0f);
                w[c[i].clip] += c[i].weight;
                sum += c[i].weight;
                assert_near(c[i].phase, c[0].phase, 1e-5);
            }
            assert_near(sum, 1.0f, 1e-5);
            /* step along the path is < 0.012 in parameter space; gradient band weights
             * change at most by step / (closest member distance ~0.7) times a small factor */
            if (k > 0) {
                for (int i = 0; i < 7; ++i)
                    assert_near(w[i], prev[i], 0.06);
            }
            memcpy(prev, w, sizeof prev);
        }
    }
    rig_close(&r);
}

/* Directional (polar) 2D space: idle at the origin, walk and run forward, strafes at the
 * sides. Speed and direction blend separately. */
static void polar_weights(rig* r, float x, float y, float* w) {
    r->params[P_DIR] = x;
    r->params[P_SPEED] = y;
    rig_update(r, 0.0f, NULL, 0, NULL);
    sw_animator_contribution c[16];
    uint32_t n = contribs_of_state(r, 0, c, 16);
    for (int i = 0; i < 7; ++i)
        w[i] = 0.0f;
    float sum = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        assert_true(c[i].weight >= 0.0f);
        w[c[i].clip] += c[i].weight;
        sum += c[i].weight;
    }
    assert_near(sum, 1.0f, 1e-5);
}

static void test_blend_space_directional(void** state) {
    (void)state;
    /* clips: idle 0, walk 1, run 2, strafe 3, aim 4 (used as the left strafe) */
    const sw_animator_member_desc members[] = {{"idle", 0.0f, 0.0f},
                                               {"walk", 0.0f, 1.4f},
                                               {"run", 0.0f, 3.2f},
                                               {"strafe", 1.4f, 0.0f},
                                               {"aim", -1.4f, 0.0f}};
    for (int polar = 0; polar < 2; ++polar) {
        sw_animator_blend_space_desc spaces[3];
        memcpy(spaces, k_spaces, sizeof spaces);
        spaces[1].members = members;
        spaces[1].directional = polar != 0;
        sw_animator_state_desc states[3];
        memcpy(states, k_base_states, sizeof states);
        states[0].target = "dir2d";
        sw_animator_machine_desc machines[3];
        memcpy(machines, k_machines, sizeof machines);
        machines[0].states = states;
        sw_animator_desc d = base_desc();
        d.blend_spaces = spaces;
        d.machines = machines;
        d.layers_count = 1;
        d.machines_count = 1;
        rig r;
        rig_open(&r, &d);
        /* slots: members first in desc order of all spaces: idle, walk, run, strafe (k_loco
         * and dir2d), then aim */
        const int idle = 0, walk = 1, run = 2, strafe = 3;
        const int left = 4;
        float w[7];
        /* 1 at each member */
        for (int m = 0; m < 5; ++m) {
            polar_weights(&r, members[m].x, members[m].y, w);
            int slot = m == 4 ? left : m;
            assert_near(w[slot], 1.0f, 1e-5);
        }
        /* between walk and run on the forward axis: only those two, half and half */
        polar_weights(&r, 0.0f, 2.3f, w);
        assert_near(w[walk], 0.5f, 1e-5);
        assert_near(w[run], 0.5f, 1e-5);
        /* diagonal at walking speed: polar keeps idle out (speed 1.4 everywhere on the arc);
         * cartesian lets idle in (the point is inside the idle-walk-strafe triangle) */
        const float k = 1.4f / sqrtf(2.0f);
        polar_weights(&r, k, k, w);
        if (polar) {
            assert_near(w[idle], 0.0f, 1e-6);
            assert_near(w[walk], 0.5f, 1e-5);
            assert_near(w[strafe], 0.5f, 1e-5);
        } else {
            assert_true(w[idle] > 0.1f);
        }
        /* continuity along arcs and rays away from the origin */
        float prev[7] = {0};
        for (int step = 0; step <= 720; ++step) {
            float ang = (float)step * 3.14159265f / 360.0f;
            float rad = 0.3f + 2.5f * (0.5f + 0.5f * sinf(ang * 3.0f));
            polar_weights(&r, rad * sinf(ang), rad * cosf(ang), w);
            if (step > 0) {
                for (int i = 0; i < 7; ++i)
                    assert_near(w[i], prev[i], 0.08);
            }
            memcpy(prev, w, sizeof prev);
        }
        /* full circles at fixed speeds (0.25 degree steps) and rays at fixed directions */
        const float radii[] = {0.5f, 1.0f, 1.4f, 2.0f, 3.2f, 4.0f};
        for (size_t ri = 0; ri < sizeof radii / sizeof radii[0]; ++ri) {
            for (int step = 0; step <= 1440; ++step) {
                float ang = (float)step * 3.14159265f / 720.0f;
                polar_weights(&r, radii[ri] * sinf(ang), radii[ri] * cosf(ang), w);
                if (step > 0) {
                    for (int i = 0; i < 7; ++i)
                        assert_near(w[i], prev[i], 0.03);
                }
                memcpy(prev, w, sizeof prev);
            }
        }
        for (int dir = 0; dir < 36; ++dir) {
            float ang = (float)dir * 3.14159265f / 18.0f + 0.01f;
            for (int step = 0; step <= 400; ++step) {
                float rad = 0.1f + (float)step * 0.01f;
                polar_weights(&r, rad * sinf(ang), rad * cosf(ang), w);
                if (step > 0) {
                    for (int i = 0; i < 7; ++i)
                        assert_near(w[i], prev[i], 0.05);
                }
                memcpy(prev, w, sizeof prev);
            }
        }
        rig_close(&r);
    }
}

/* ---- crossfades, cuts, finished ---- */

static void test_crossfade_cut_finished(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    rig r;
    rig_open(&r, &d);
    r.params[P_SPEED] = 2.0f;
    const float dt = 1.0f / 60.0f;
    sw_animator_event ev[32];
    for (int i = 0; i < 30; ++i)
        rig_update(&r, dt, ev, 32, NULL);
    /* trigger: instant cut to Punch in this very update, trigger consumed */
    r.params[P_PUNCH] = 1.0f;
    uint32_t n = rig_update(&r, dt, ev, 32, NULL);
    assert_true(r.params[P_PUNCH] == 0.0f);
    bool entered = false;
    for (uint32_t i = 0; i < n; ++i) {
        entered = entered || (ev[i].kind == SW_ANIMATOR_EVENT_KIND_ENTER && ev[i].state == 1);
    }
    assert_true(entered);
    assert_int_equal(sw_animator_current_state(r.inst, r.bound, 0), 1);
    sw_animator_contribution c[16];
    uint32_t nc = sw_animator_contributions(r.inst, r.bound, c, 16);
    for (uint32_t i = 0; i < nc; ++i) {
        if (c[i].layer == 0) {
            assert_int_equal(c[i].state, 1);
            assert_near(c[i].weight, 1.0f, 0.0);
        }
    }
    /* play the punch to its end: finished once, then a crossfade back whose weights are
     * continuous and monotonic */
    int finished = 0, hits = 0;
    float prev_w = -1.0f;
    bool fading = false, faded = false;
    for (int i = 0; i < 120; ++i) {
        n = rig_update(&r, dt, ev, 32, NULL);
        for (uint32_t k = 0; k < n; ++k) {
            if (ev[k].kind == SW_ANIMATOR_EVENT_KIND_FINISHED) {
                assert_int_equal(ev[k].state, 1);
                ++finished;
            }
            if (ev[k].kind == SW_ANIMATOR_EVENT_KIND_CLIP && strcmp(ev[k].name, "Hit") == 0) ++hits;
        }
        sw_animator_state_info info[8];
        uint32_t ns = sw_animator_states(r.inst, r.bound, info, 8);
        float wl = 0.0f, wsum = 0.0f;
        for (uint32_t k = 0; k < ns; ++k) {
            if (info[k].machine != 0) continue;
            wsum += info[k].weight;
            if (info[k].state == 0) wl = info[k].weight;
        }
        assert_near(wsum, 1.0f, 1e-6);
        if (wl > 0.0f && wl < 1.0f) fading = true;
        if (fading) {
            assert_true(wl >= prev_w);                      /* monotonic */
            assert_true(wl - prev_w <= dt / 0.25f + 1e-5f); /* continuous: slope 1 / duration */
            if (wl == 1.0f) faded = true;
        }
        prev_w = wl;
    }
    assert_int_equal(finished, 1);
    assert_int_equal(hits, 1);
    assert_true(fading && faded);
    rig_close(&r);
}

static void test_play_and_interrupt(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    rig r;
    rig_open(&r, &d);
    assert_int_equal(sw_animator_play(r.inst, r.bound, 2, 0.5f), SW_RESULT_OK);
    sw_animator_state_info info[8];
    uint32_t ns = sw_animator_states(r.inst, r.bound, info, 8);
    assert_true(ns >= 2);
    assert_int_equal(info[0].state, 0);
    assert_int_equal(info[1].state, 2);
    assert_near(info[0].weight, 1.0f, 0.0);
    assert_near(info[1].weight, 0.0f, 0.0);
    rig_update(&r, 0.25f, NULL, 0, NULL);
    ns = sw_animator_states(r.inst, r.bound, info, 8);
    assert_near(info[1].weight, 0.5f, 1e-6);
    /* interrupt the fade with another play: three states, weights continuous */
    assert_int_equal(sw_animator_play(r.inst, r.bound, 1, 0.2f), SW_RESULT_OK);
    ns = sw_animator_states(r.inst, r.bound, info, 8);
    float w[3] = {0};
    uint32_t base_states = 0;
    for (uint32_t k = 0; k < ns; ++k) {
        if (info[k].machine == 0) {
            w[base_states++] = info[k].weight;
        }
    }
    assert_int_equal(base_states, 3);
    assert_near(w[0], 0.5f, 1e-6);
    assert_near(w[1], 0.5f, 1e-6);
    assert_near(w[2], 0.0f, 0.0);
    rig_update(&r, 0.1f, NULL, 0, NULL);
    ns = sw_animator_states(r.inst, r.bound, info, 8);
    assert_near(info[0].weight, 0.25f, 1e-6);
    assert_near(info[1].weight, 0.25f, 1e-6);
    assert_near(info[2].weight, 0.5f, 1e-6);
    rig_update(&r, 0.1f, NULL, 0, NULL);
    assert_int_equal(sw_animator_states(r.inst, r.bound, info, 8), 3); /* + Upper, Breath */
    assert_int_equal(info[0].state, 1);
    /* argument checks */
    assert_int_equal(sw_animator_play(r.inst, r.bound, 99, 0.1f), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_play(r.inst, r.bound, 1, -1.0f), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_play(NULL, r.bound, 1, 0.0f), SW_RESULT_INVALID_ARGUMENT);
    rig_close(&r);
}

/* Seek: a blend space's shared phase and a clip state's time jump without
 * events or root motion for the jump; once states clamp to 1 and report
 * FINISHED again after a seek back; nested machines are sought directly. */
static void test_seek(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    d.layers_count = 1;
    d.machines_count = 1;
    rig r;
    rig_open(&r, &d);
    const float walk = clip_duration("walk"), run = clip_duration("run");
    r.params[P_SPEED] = 1.4f; /* the walk member alone */
    rig_update(&r, 0.05f, NULL, 0, NULL);
    assert_int_equal(sw_animator_seek(r.inst, r.bound, 0, 0.5), SW_RESULT_OK);
    sw_animator_contribution c[8];
    assert_int_equal(contribs_of_state(&r, 0, c, 8), 1);
    assert_near(c[0].phase, 0.5f, 1e-6);
    assert_near(c[0].time, 0.5f * walk, 1e-6);
    /* the jump crossed LeftFootDown (0.1 s): not reported; 10 ms of walk moves 1.4 cm */
    sw_animator_event ev[8];
    sw_animator_root_motion rm;
    assert_int_equal(rig_update(&r, 0.01f, ev, 8, &rm), 0);
    assert_near(rm.translation.z, 0.01f * 1.4f / walk, 1e-3);
    /* RightFootDown (0.6 s) is crossed by the next 0.1 s */
    assert_int_equal(rig_update(&r, 0.1f, ev, 8, NULL), 1);
    assert_string_equal(ev[0].name, "RightFootDown");
    /* between walk and run (parameters take effect at an update): both members at the phase */
    r.params[P_SPEED] = 2.3f;
    rig_update(&r, 0.0f, NULL, 0, NULL);
    assert_int_equal(sw_animator_seek(r.inst, r.bound, 0, 2.25), SW_RESULT_OK);
    assert_int_equal(contribs_of_state(&r, 0, c, 8), 2);
    for (uint32_t i = 0; i < 2; ++i) {
        assert_near(c[i].phase, 0.25f, 1e-6);
        assert_near(c[i].time, 0.25f * (c[i].clip == 1 ? walk : run), 1e-6);
    }
    sw_animator_state_info info[4];
    assert_int_equal(sw_animator_states(r.inst, r.bound, info, 4), 1);
    assert_near(info[0].normalized_time, 2.25, 0.0);
    /* arguments */
    assert_int_equal(sw_animator_seek(NULL, r.bound, 0, 0.5), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_seek(r.inst, NULL, 0, 0.5), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_seek(r.inst, r.bound, 1, 0.5), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_seek(r.inst, r.bound, 0, -0.1), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_seek(r.inst, r.bound, 0, (double)NAN), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_seek(r.inst, r.bound, 0, (double)INFINITY),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_near(sw_animator_states(r.inst, r.bound, info, 4) ? info[0].normalized_time : 0.0, 2.25,
                0.0);
    rig_close(&r);

    const sw_animator_state_desc inner[] = {
        {"Walk", SW_ANIMATOR_MOTION_CLIP, "walk", false, 0.0f, NULL}};
    const sw_animator_state_desc outer[] = {
        {"Ground", SW_ANIMATOR_MOTION_MACHINE, "Ground", false, 0.0f, NULL},
        {"Air", SW_ANIMATOR_MOTION_CLIP, "punch", true, 0.0f, NULL},
    };
    const sw_animator_machine_desc machines[] = {{"Top", outer, 2, NULL, 0, NULL},
                                                 {"Ground", inner, 1, NULL, 0, NULL}};
    const sw_animator_layer_desc layers[] = {{"base", "Top", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f,
                                              NULL, NULL, 0, SW_ANIMATOR_REFERENCE_DEFAULT}};
    sw_animator_desc nd = {
        .machines = machines, .machines_count = 2, .layers = layers, .layers_count = 1};
    rig_open(&r, &nd);
    assert_int_equal(sw_animator_seek(r.inst, r.bound, 0, 0.3), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_seek(r.inst, r.bound, 1, 0.3), SW_RESULT_OK);
    uint32_t n = sw_animator_contributions(r.inst, r.bound, c, 8);
    assert_int_equal(n, 1);
    assert_near(c[0].time, 0.3f * walk, 1e-6);
    assert_int_equal(sw_animator_play(r.inst, r.bound, 1, 0.0f), SW_RESULT_OK);
    assert_int_equal(sw_animator_seek(r.inst, r.bound, 1, 0.3), SW_RESULT_NOT_FOUND);
    const float punch = clip_duration("punch");
    assert_int_equal(sw_animator_seek(r.inst, r.bound, 0, 5.0), SW_RESULT_OK);
    n = sw_animator_contributions(r.inst, r.bound, c, 8);
    assert_int_equal(n, 1);
    assert_near(c[0].time, punch, 1e-6);
    uint32_t finished = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (int k = 0; k < 3; ++k) {
            const uint32_t m = rig_update(&r, 0.3f, ev, 8, NULL);
            for (uint32_t i = 0; i < m; ++i)
                finished += ev[i].kind == SW_ANIMATOR_EVENT_KIND_FINISHED;
        }
        assert_int_equal(finished, (uint32_t)pass + 1u); /* once per pass */
        assert_int_equal(sw_animator_seek(r.inst, r.bound, 0, 0.5), SW_RESULT_OK);
    }
    rig_close(&r);
}

/* Interruption sources: A fades to B over 1 s; meanwhile y is set. NONE waits for the fade,
 * CURRENT takes A's transition (to D), NEXT takes B's (to C). */
static void test_interruption_sources(void** state) {
    (void)state;
    const sw_animator_param_desc params[] = {{"x", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f},
                                             {"y", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f}};
    const sw_animator_state_desc states[] = {
        {"A", SW_ANIMATOR_MOTION_CLIP, "idle", false, 0.0f, NULL},
        {"B", SW_ANIMATOR_MOTION_CLIP, "walk", false, 0.0f, NULL},
        {"C", SW_ANIMATOR_MOTION_CLIP, "run", false, 0.0f, NULL},
        {"D", SW_ANIMATOR_MOTION_CLIP, "punch", false, 0.0f, NULL},
    };
    const sw_animator_condition_desc cx[] = {{"x", SW_ANIMATOR_OP_GREATER, 0.5f}};
    const sw_animator_condition_desc cy[] = {{"y", SW_ANIMATOR_OP_GREATER, 0.5f}};
    const sw_animator_interrupt modes[3] = {
        SW_ANIMATOR_INTERRUPT_NONE, SW_ANIMATOR_INTERRUPT_CURRENT, SW_ANIMATOR_INTERRUPT_NEXT};
    const uint32_t expect_after[3] = {1, 3, 2}; /* current state right after y is set */
    for (int k = 0; k < 3; ++k) {
        const sw_animator_transition_desc trans[] = {
            {.from = "A",
             .to = "B",
             .conditions = cx,
             .conditions_count = 1,
             .duration = 1.0f,
             .interrupt = modes[k]},
            {.from = "A",
             .to = "D",
             .conditions = cy,
             .conditions_count = 1,
             .duration = 0.2f,
             .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
            {.from = "B",
             .to = "C",
             .conditions = cy,
             .conditions_count = 1,
             .duration = 0.2f,
             .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
        };
        const sw_animator_machine_desc machines[] = {{"M", states, 4, trans, 3, NULL}};
        const sw_animator_layer_desc layers[] = {{"base", "M", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f,
                                                  NULL, NULL, 0, SW_ANIMATOR_REFERENCE_DEFAULT}};
        sw_animator_desc d = {.params = params,
                              .params_count = 2,
                              .machines = machines,
                              .machines_count = 1,
                              .layers = layers,
                              .layers_count = 1};
        rig r;
        rig_open(&r, &d);
        r.params[0] = 1.0f;
        rig_update(&r, 0.1f, NULL, 0, NULL);
        assert_int_equal(sw_animator_current_state(r.inst, r.bound, 0), 1);
        r.params[0] = 0.0f;
        rig_update(&r, 0.3f, NULL, 0, NULL); /* fade at 0.3 */
        r.params[1] = 1.0f;
        rig_update(&r, 0.1f, NULL, 0, NULL);
        assert_int_equal(sw_animator_current_state(r.inst, r.bound, 0), expect_after[k]);
        sw_animator_state_info info[8];
        uint32_t n = sw_animator_states(r.inst, r.bound, info, 8);
        float sum = 0.0f;
        for (uint32_t i = 0; i < n; ++i)
            sum += info[i].weight;
        assert_near(sum, 1.0f, 1e-6);
        if (k > 0) {
            /* interrupted: three playing states, the weights before continue */
            assert_int_equal(n, 3);
            assert_near(info[0].weight, 0.6f, 1e-5);
            assert_near(info[1].weight, 0.4f, 1e-5);
        }
        /* NONE: once the fade is over, B's own transition fires */
        for (int f = 0; f < 8; ++f)
            rig_update(&r, 0.1f, NULL, 0, NULL);
        assert_int_equal(sw_animator_current_state(r.inst, r.bound, 0), k == 1 ? 3u : 2u);
        rig_close(&r);
    }
}

/* ---- events ---- */

static void test_events_exactly_once(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    d.layers_count = 1;
    d.machines_count = 1;
    const float dts[] = {1.0f / 240.0f, 1.0f / 120.0f, 1.0f / 60.0f, 1.0f / 30.0f, 0.07f, 0.1f};
    for (size_t di = 0; di < sizeof dts / sizeof dts[0]; ++di) {
        rig r;
        rig_open(&r, &d);
        r.params[P_SPEED] = 1.4f; /* walk alone: cycle 1 s, events at 0.1 and 0.6 */
        const float total = 7.3f;
        int frames = (int)(total / dts[di]);
        float t = 0.0f;
        int left = 0, right = 0;
        double last_time = -1.0;
        for (int f = 0; f < frames; ++f) {
            sw_animator_event ev[16];
            uint32_t n = rig_update(&r, dts[di], ev, 16, NULL);
            assert_true(n <= 16);
            t += dts[di];
            for (uint32_t k = 0; k < n; ++k) {
                if (ev[k].kind != SW_ANIMATOR_EVENT_KIND_CLIP) continue;
                double abs_time = floor((double)t - (double)ev[k].time + 1e-4) + ev[k].time;
                assert_true(abs_time > last_time);
                last_time = abs_time;
                if (strcmp(ev[k].name, "LeftFootDown") == 0)
                    ++left;
                else if (strcmp(ev[k].name, "RightFootDown") == 0)
                    ++right;
            }
        }
        /* expected: crossings of k + 0.1 and k + 0.6 in [0, frames * dt] */
        double played = (double)frames * dts[di];
        int el = (int)floor(played - 0.1) + 1, er = (int)floor(played - 0.6) + 1;
        assert_int_equal(left, el);
        assert_int_equal(right, er);
        rig_close(&r);
    }
}

static void test_events_large_dt_and_capacity(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    d.layers_count = 1;
    d.machines_count = 1;
    rig r;
    rig_open(&r, &d);
    r.params[P_SPEED] = 1.4f;
    sw_animator_event ev[4];
    /* 5.55 cycles in one update: 6 left, 5 right, reported count exceeds capacity */
    uint32_t n = rig_update(&r, 5.55f, ev, 4, NULL);
    assert_int_equal(n, 11);
    assert_string_equal(ev[0].name, "LeftFootDown");
    assert_string_equal(ev[1].name, "RightFootDown");
    /* with a time scale (loco_speed 2): 0.3 s = 0.6 cycles from 0.55: crosses 0.6 and 1.1 */
    r.params[P_LOCO_SPEED] = 2.0f;
    n = rig_update(&r, 0.3f, ev, 4, NULL);
    assert_int_equal(n, 2);
    assert_string_equal(ev[0].name, "RightFootDown");
    assert_string_equal(ev[1].name, "LeftFootDown");
    rig_close(&r);
    /* below the weight threshold nothing is reported */
    d.event_weight_threshold = 0.5f;
    rig_open(&r, &d);
    r.params[P_SPEED] = 0.3f; /* walk weight 0.21 */
    n = rig_update(&r, 3.0f, ev, 4, NULL);
    for (uint32_t k = 0; k < n && k < 4; ++k) {
        assert_true(strcmp(ev[k].name, "LeftFootDown") != 0);
    }
    rig_close(&r);
}

/* The loco state's normalized time (the base machine's current state). */
static double loco_time(const rig* r) {
    sw_animator_state_info info[8];
    const uint32_t n = sw_animator_states(r->inst, r->bound, info, 8);
    for (uint32_t i = 0; i < n; ++i)
        if (info[i].machine == 0 && info[i].current) return info[i].normalized_time;
    fail_msg("no current state in the base machine");
    return 0.0;
}

/* Events of a blend space step from phase p0 to p1 by closed form: member
 * clip c (duration d) reports its event at time t once per crossing of
 * phase k + t / d (k whole; an event at the clip's end counts at the end of
 * the cycle), for each member playing with a weight. Counts per (clip,
 * event) into expect; false when a crossing lies within 1e-6 cycles of p0
 * or p1 (where float clip times decide). */
static bool loco_expected(const rig* r, double p0, double p1, uint32_t expect[8][4]) {
    sw_animator_contribution con[8];
    const uint32_t n = sw_animator_contributions(r->inst, r->bound, con, 8);
    memset(expect, 0, sizeof(uint32_t) * 8 * 4);
    bool clear = true;
    for (uint32_t i = 0; i < n; ++i) {
        const sw_clip* clip = g_clips[con[i].clip];
        const double d = (double)clip->duration;
        for (uint32_t e = 0; e < clip->events_count; ++e) {
            const double at = (double)sw_clip_events(clip)[e].time / d;
            for (double k = floor(p0) - 1.0; k <= floor(p1) + 1.0; k += 1.0) {
                const double x = k + at;
                if (fabs(x - p0) < 1e-6 || fabs(x - p1) < 1e-6) clear = false;
                const bool in = at < 1.0 ? x >= p0 && x < p1 : x > p0 && x <= p1;
                expect[con[i].clip][e] += in ? 1u : 0u;
            }
        }
    }
    return clear;
}

/* Clip events of a blend space played for thousands of frames of random
 * dt, its speed (so its members and their weights) changing and its time
 * sought back now and then, with and without root motion: every update
 * reports exactly the events whose phases its step crossed (closed form
 * from the state's normalized times before and after). The update skips
 * the clips' event lists inside spans it knows hold no event: this checks
 * that no event is lost or repeated by it. */
static void test_events_match_closed_form(void** state) {
    (void)state;
    for (int with_root = 0; with_root < 2; ++with_root) {
        sw_animator_desc d = base_desc();
        d.layers_count = 1;
        d.machines_count = 1;
        d.root_motion_joint = with_root ? "Hips" : NULL;
        rig r;
        rig_open(&r, &d);
        uint32_t rng = 71, checked = 0, reported = 0;
        for (int frame = 0; frame < 6000; ++frame) {
            if (frame % 40 == 0) {
                const float speeds[] = {0.0f, 1.4f, 3.2f};
                r.params[P_SPEED] =
                    frame % 120 == 0 ? speeds[(frame / 120) % 3] : sw_test_rand(&rng, 0.0f, 3.2f);
            }
            if (frame % 700 == 350) {
                const double back = loco_time(&r) - (double)sw_test_rand(&rng, 0.0f, 2.5f);
                assert_int_equal(sw_animator_seek(r.inst, r.bound, 0, back > 0.0 ? back : 0.0),
                                 SW_RESULT_OK);
            }
            const double p0 = loco_time(&r);
            sw_animator_event ev[64];
            const uint32_t n = rig_update(&r, sw_test_rand(&rng, 0.001f, 0.06f), ev, 64, NULL);
            assert_true(n <= 64u);
            uint32_t expect[8][4], got[8][4];
            if (!loco_expected(&r, p0, loco_time(&r), expect)) continue;
            memset(got, 0, sizeof got);
            for (uint32_t i = 0; i < n; ++i) {
                assert_int_equal(ev[i].kind, SW_ANIMATOR_EVENT_KIND_CLIP);
                ++got[ev[i].clip][ev[i].event];
            }
            assert_memory_equal(got, expect, sizeof got);
            ++checked;
            reported += n;
        }
        assert_true(checked > 5900u && reported > 500u);
        rig_close(&r);
    }
}

/* ---- root motion ---- */

static void accumulate(float* x, float* z, float* yaw, const sw_animator_root_motion* rm) {
    float c = cosf(*yaw), s = sinf(*yaw);
    *x += c * rm->translation.x + s * rm->translation.z;
    *z += -s * rm->translation.x + c * rm->translation.z;
    *yaw += rm->yaw;
}

static void run_root_motion(float fps, float seconds, float speed, float* x, float* z, float* yaw) {
    sw_animator_desc d = base_desc();
    d.layers_count = 1;
    d.machines_count = 1;
    rig r;
    rig_open(&r, &d);
    r.params[P_SPEED] = speed;
    *x = *z = *yaw = 0.0f;
    int frames = (int)(seconds * fps + 0.5f);
    for (int f = 0; f < frames; ++f) {
        sw_animator_root_motion rm;
        rig_update(&r, 1.0f / fps, NULL, 0, &rm);
        assert_true(rm.translation.y == 0.0f);
        accumulate(x, z, yaw, &rm);
    }
    rig_close(&r);
}

static void test_root_motion_cycles_and_rates(void** state) {
    (void)state;
    float x, z, yaw;
    /* walk alone (cycle 1 s, 1.4 m, net yaw 0): N cycles = N * 1.4 m forward */
    for (int cycles = 1; cycles <= 5; cycles += 2) {
        run_root_motion(60.0f, (float)cycles, 1.4f, &x, &z, &yaw);
        assert_near(z, 1.4 * cycles, 2e-4 * cycles);
        assert_near(x, 0.0, 2e-4 * cycles);
        assert_near(yaw, 0.0, 1e-4 * cycles);
    }
    /* run alone at 30 and 120 fps over 3.0 s (5 cycles): the same total */
    float x30, z30, y30, x120, z120, y120;
    run_root_motion(30.0f, 3.0f, 3.2f, &x30, &z30, &y30);
    run_root_motion(120.0f, 3.0f, 3.2f, &x120, &z120, &y120);
    assert_near(z30, 10.0, 1e-3);
    assert_near(z30, z120, 1e-3);
    assert_near(x30, x120, 1e-3);
    assert_near(y30, y120, 1e-4);
    /* a blend: 30 vs 120 fps agree mid-cycle too (partial cycles, yaw wobble) */
    run_root_motion(30.0f, 2.3f, 2.3f, &x30, &z30, &y30);
    run_root_motion(120.0f, 2.3f, 2.3f, &x120, &z120, &y120);
    assert_near(z30, z120, 2e-3);
    assert_near(x30, x120, 2e-3);
    assert_near(y30, y120, 1e-3);
}

static void test_root_kept_in_place(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    rig r;
    rig_open(&r, &d);
    r.params[P_SPEED] = 2.2f;
    for (int f = 0; f < 50; ++f) {
        rig_update(&r, 1.0f / 30.0f, NULL, 0, NULL);
        rig_eval(&r);
        sw_xform hips = sw_pose_get(r.pose, 0);
        assert_near(hips.t.x, 0.0, 1e-5);
        assert_near(hips.t.z, 0.0, 1e-5);
        assert_near(hips.t.y, 1.0, 1e-5);
        /* no yaw left: twist about +Y is identity */
        assert_near(hips.r.y, 0.0, 1e-5);
    }
    rig_close(&r);
}

/* ---- layers ---- */

static void sample_clip(const char* name, float t, sw_xform4* out) {
    for (uint32_t i = 0; i < g_clips_count; ++i) {
        if (strcmp(sw_clip_name(g_clips[i]), name) != 0) continue;
        sw_sample_job j = {.clip = g_clips[i],
                           .skeleton = g_skel,
                           .time = t,
                           .out = out,
                           .out_count = g_skel->packets_count};
        assert_int_equal(sw_sample_job_run(&j), SW_RESULT_OK);
        return;
    }
    fail_msg("no clip %s", name);
}

static void test_layers_mask_and_additive(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    d.root_motion_joint = NULL;
    d.layers_count = 2; /* base + masked override */
    d.machines_count = 2;
    rig r;
    rig_open(&r, &d);
    r.params[P_SPEED] = 0.0f; /* idle */
    r.params[P_AIM] = 1.0f;
    rig_update(&r, 0.4f, NULL, 0, NULL);
    rig_eval(&r);
    _Alignas(16) sw_xform4 idle[1], aim[1];
    sample_clip("idle", 0.4f, idle);
    sample_clip("aim", 0.4f, aim);
    /* Hips and Leg from the base, Spine and Arm from the override */
    sw_test_quat_near(sw_pose_get(r.pose, 0).r, sw_pose_get(idle, 0).r, 1e-5f);
    sw_test_quat_near(sw_pose_get(r.pose, 3).r, sw_pose_get(idle, 3).r, 1e-5f);
    sw_test_quat_near(sw_pose_get(r.pose, 1).r, sw_pose_get(aim, 1).r, 1e-5f);
    sw_test_quat_near(sw_pose_get(r.pose, 2).r, sw_pose_get(aim, 2).r, 1e-5f);
    /* half weight: the arm halfway (nlerp of two rotations about z) */
    r.params[P_AIM] = 0.5f;
    rig_update(&r, 0.0f, NULL, 0, NULL);
    rig_eval(&r);
    sw_quat half = sw_quat_nlerp(sw_pose_get(idle, 2).r, sw_pose_get(aim, 2).r, 0.5f);
    sw_test_quat_near(sw_pose_get(r.pose, 2).r, half, 1e-5f);
    rig_close(&r);

    /* additive layer: the breathe delta applied on the base */
    d.layers_count = 3;
    d.machines_count = 3;
    rig_open(&r, &d);
    r.params[P_SPEED] = 0.0f;
    r.params[P_AIM] = 0.0f;
    rig_update(&r, 0.4f, NULL, 0, NULL);
    rig_eval(&r);
    _Alignas(16) sw_xform4 delta[1];
    sample_clip("breathe", 0.4f, delta);
    sw_quat expect = sw_quat_mul(sw_pose_get(idle, 1).r, sw_pose_get(delta, 1).r);
    sw_test_quat_near(sw_pose_get(r.pose, 1).r, expect, 1e-5f);
    sw_test_quat_near(sw_pose_get(r.pose, 2).r, sw_pose_get(idle, 2).r, 1e-5f);
    rig_close(&r);
}

/* ---- inertialization ---- */

static void test_inertialization(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    d.layers_count = 1;
    d.machines_count = 1;
    sw_animator_transition_desc trans[2];
    memcpy(trans, k_base_transitions, sizeof trans);
    trans[0].mode = SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE;
    trans[0].duration = 0.3f;
    sw_animator_machine_desc machines[1];
    memcpy(machines, k_machines, sizeof machines);
    machines[0].transitions = trans;
    d.machines = machines;
    rig r;
    rig_open(&r, &d);
    r.params[P_SPEED] = 3.2f;
    const float dt = 1.0f / 120.0f;
    _Alignas(16) sw_xform4 prev[1], prev2[1];
    for (int f = 0; f < 40; ++f) {
        rig_update(&r, dt, NULL, 0, NULL);
        rig_eval(&r);
        memcpy(prev2, prev, sizeof prev);
        memcpy(prev, r.pose, sizeof prev);
    }
    r.params[P_PUNCH] = 1.0f;
    rig_update(&r, dt, NULL, 0, NULL);
    assert_int_equal(sw_animator_current_state(r.inst, r.bound, 0), 1);
    rig_eval(&r);
    /* the transition frame continues the previous motion (extrapolated) */
    for (uint32_t j = 0; j < JOINTS; ++j) {
        sw_xform a = sw_pose_get(prev, j), b = sw_pose_get(prev2, j), now = sw_pose_get(r.pose, j);
        sw_vec3 ext = sw_vec3_add(a.t, sw_vec3_sub(a.t, b.t));
        sw_test_vec3_near(now.t, ext, 1e-4f);
        float step = 1.0f - fabsf(sw_quat_dot(now.r, a.r));
        assert_true(step < 1e-3f);
    }
    /* evaluating twice gives the same pose */
    _Alignas(16) sw_xform4 again[1];
    memcpy(again, r.pose, sizeof again);
    rig_eval(&r);
    assert_memory_equal(again, r.pose, sizeof again);
    /* then the offset decays: continuous, below 1e-4 at the blend time */
    float t = 0.0f;
    while (t < 0.3f - 1e-6f) {
        memcpy(prev, r.pose, sizeof prev);
        rig_update(&r, dt, NULL, 0, NULL);
        rig_eval(&r);
        t += dt;
        for (uint32_t j = 0; j < JOINTS; ++j) {
            sw_xform a = sw_pose_get(prev, j), now = sw_pose_get(r.pose, j);
            assert_true(sw_vec3_length(sw_vec3_sub(a.t, now.t)) < 0.05f);
            assert_true(1.0f - fabsf(sw_quat_dot(now.r, a.r)) < 1e-3f);
        }
    }
    _Alignas(16) sw_xform4 punch[1];
    sw_animator_contribution c[4];
    assert_int_equal(sw_animator_contributions(r.inst, r.bound, c, 4), 1);
    sample_clip("punch", c[0].time, punch);
    for (uint32_t j = 0; j < JOINTS; ++j) {
        sw_xform a = sw_pose_get(punch, j), now = sw_pose_get(r.pose, j);
        if (j == 0) a.t.x = a.t.z = 0.0f; /* root motion keeps the hips in place (no yaw here) */
        sw_test_vec3_near(now.t, a.t, 1e-4f);
        sw_test_quat_near(now.r, a.r, 1e-4f);
    }
    rig_close(&r);
}

/* ---- sync markers ---- */

static void test_sync_markers(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    sw_animator_state_desc states[3];
    memcpy(states, k_base_states, sizeof states);
    states[0].target = "synced"; /* walk (markers 0.1, 0.6 of 1 s) and run (0.05, 0.35 of 0.6 s) */
    sw_animator_machine_desc machines[3];
    memcpy(machines, k_machines, sizeof machines);
    machines[0].states = states;
    d.machines = machines;
    d.layers_count = 1;
    d.machines_count = 1;
    rig r;
    rig_open(&r, &d);
    r.params[P_SPEED] = 2.0f; /* walk 2/3, run 1/3 */
    const float dt = 1.0f / 240.0f;
    int together = 0;
    for (int f = 0; f < 1200; ++f) {
        sw_animator_event ev[16];
        uint32_t n = rig_update(&r, dt, ev, 16, NULL);
        /* foot events of both clips fire in the same update */
        int lw = 0, lr = 0, rw = 0, rr = 0;
        for (uint32_t k = 0; k < n; ++k) {
            bool left = strcmp(ev[k].name, "LeftFootDown") == 0;
            bool walk = ev[k].clip == 1;
            if (left && walk) ++lw;
            if (left && !walk) ++lr;
            if (!left && walk) ++rw;
            if (!left && !walk) ++rr;
        }
        assert_int_equal(lw, lr);
        assert_int_equal(rw, rr);
        together += lw + rw;
        /* member times map marker to marker */
        sw_animator_contribution c[4];
        uint32_t nc = contribs_of_state(&r, 0, c, 4);
        assert_int_equal(nc, 2);
        float uw = c[0].clip == 1 ? c[0].phase : c[1].phase;
        float ur = c[0].clip == 1 ? c[1].phase : c[0].phase;
        /* piecewise linear: walk 0.1 -> 0.6 -> 1.1 against run 0.0833 -> 0.5833 -> 1.0833 */
        float vw = uw < 0.1f ? uw + 1.0f : uw;
        float seg = vw < 0.6f ? (vw - 0.1f) / 0.5f : (vw - 0.6f) / 0.5f;
        float expect = vw < 0.6f ? 0.05f / 0.6f + seg * 0.5f : 0.35f / 0.6f + seg * 0.5f;
        if (expect >= 1.0f) expect -= 1.0f;
        float diff = fabsf(ur - expect);
        if (diff > 0.5f) diff = 1.0f - diff;
        assert_true(diff < 1e-4f);
    }
    assert_true(together > 4);
    rig_close(&r);
    /* members without the markers: bind fails */
    sw_animator_member_desc bad[2] = {{"walk", 1.4f, 0.0f}, {"idle", 3.2f, 0.0f}};
    sw_animator_blend_space_desc spaces[3];
    memcpy(spaces, k_spaces, sizeof spaces);
    spaces[2].members = bad;
    d.blend_spaces = spaces;
    const sw_animator* a = NULL;
    assert_int_equal(sw_animator_create(&d, NULL, &a, NULL), SW_RESULT_OK);
    size_t bs = sw_animator_bound_size(a, g_skel);
    void* mem = aligned_alloc(16, bs);
    const sw_animator_bound* b = NULL;
    sw_error err;
    assert_int_equal(sw_animator_bind(a, g_skel, g_clips, g_clips_count, mem, bs, &b, &err),
                     SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "sync markers present");
    free(mem);
    sw_animator_destroy(a, NULL);
}

/* ---- nested machines and conditions ---- */

/* The weights of all playing clips of a one-layer rig: 1 (a crossfade's two
 * sides, a nested machine's share of its parent state's). */
static void expect_weights_sum_one(rig* r) {
    sw_animator_contribution c[16];
    const uint32_t n = sw_animator_contributions(r->inst, r->bound, c, 16);
    float sum = 0.0f;
    for (uint32_t i = 0; i < n && i < 16u; ++i)
        sum += c[i].weight;
    assert_near(sum, 1.0f, 1e-5);
}

static void test_nested_machine(void** state) {
    (void)state;
    enum { MOVE, JUMP, GROUNDED };
    const sw_animator_param_desc params[] = {{"move", SW_ANIMATOR_PARAM_TYPE_INT, 0.0f},
                                             {"jump", SW_ANIMATOR_PARAM_TYPE_TRIGGER, 0.0f},
                                             {"grounded", SW_ANIMATOR_PARAM_TYPE_BOOL, 1.0f}};
    const sw_animator_state_desc inner_states[] = {
        {"Idle", SW_ANIMATOR_MOTION_CLIP, "idle", false, 0.0f, NULL},
        {"Walk", SW_ANIMATOR_MOTION_CLIP, "walk", false, 0.0f, NULL},
    };
    const sw_animator_condition_desc go[] = {{"move", SW_ANIMATOR_OP_EQUAL, 1.0f}};
    const sw_animator_condition_desc stop[] = {{"move", SW_ANIMATOR_OP_NOT_EQUAL, 1.0f}};
    const sw_animator_transition_desc inner_trans[] = {
        {.from = "Idle",
         .to = "Walk",
         .conditions = go,
         .conditions_count = 1,
         .duration = 0.2f,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
        {.from = "Walk",
         .to = "Idle",
         .conditions = stop,
         .conditions_count = 1,
         .has_exit_time = true,
         .exit_time = 0.5f,
         .duration = 0.2f,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
    };
    const sw_animator_state_desc outer_states[] = {
        {"Ground", SW_ANIMATOR_MOTION_MACHINE, "Ground", false, 0.0f, NULL},
        {"Air", SW_ANIMATOR_MOTION_CLIP, "punch", true, 0.0f, NULL},
    };
    const sw_animator_condition_desc jump[] = {{"jump", SW_ANIMATOR_OP_TRIGGER, 0.0f}};
    const sw_animator_condition_desc land[] = {{"grounded", SW_ANIMATOR_OP_TRUE, 0.0f}};
    const sw_animator_transition_desc outer_trans[] = {
        {.from = "Ground",
         .to = "Air",
         .conditions = jump,
         .conditions_count = 1,
         .duration = 0.1f,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
        {.from = "Air",
         .to = "Ground",
         .conditions = land,
         .conditions_count = 1,
         .has_exit_time = true,
         .exit_time = 1.0f,
         .duration = 0.1f,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
    };
    const sw_animator_machine_desc machines[] = {
        {"Top", outer_states, 2, outer_trans, 2, NULL},
        {"Ground", inner_states, 2, inner_trans, 2, NULL},
    };
    const sw_animator_layer_desc layers[] = {{"base", "Top", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f,
                                              NULL, NULL, 0, SW_ANIMATOR_REFERENCE_DEFAULT}};
    sw_animator_desc d = {.params = params,
                          .params_count = 3,
                          .machines = machines,
                          .machines_count = 2,
                          .layers = layers,
                          .layers_count = 1};
    rig r;
    rig_open(&r, &d);
    const uint32_t ground = 1, walk = 3;
    rig_update(&r, 0.1f, NULL, 0, NULL);
    assert_int_equal(sw_animator_current_state(r.inst, r.bound, ground), 2); /* Idle */
    r.params[MOVE] = 1.0f;
    rig_update(&r, 0.1f, NULL, 0, NULL);
    assert_int_equal(sw_animator_current_state(r.inst, r.bound, ground), walk);
    rig_update(&r, 0.3f, NULL, 0, NULL);
    /* jump: the nested machine fades out with its parent state, then stops */
    r.params[JUMP] = 1.0f;
    rig_update(&r, 0.05f, NULL, 0, NULL);
    assert_true(r.params[JUMP] == 0.0f);
    expect_weights_sum_one(&r);
    rig_update(&r, 0.03f, NULL, 0, NULL); /* further into the fade: the shares move */
    expect_weights_sum_one(&r);
    rig_update(&r, 0.1f, NULL, 0, NULL);
    assert_int_equal(sw_animator_current_state(r.inst, r.bound, ground), SW_ANIMATOR_NONE);
    /* land after the one-shot: the nested machine restarts at its entry (Idle), and since
     * move == 1 it goes on to Walk in the same update */
    for (int i = 0; i < 20; ++i) {
        rig_update(&r, 0.05f, NULL, 0, NULL);
        expect_weights_sum_one(&r); /* through the landing's fade too */
    }
    assert_int_equal(sw_animator_current_state(r.inst, r.bound, 0), 0);
    assert_int_equal(sw_animator_current_state(r.inst, r.bound, ground), walk);
    /* walk -> idle waits for the exit time 0.5 (+ k) */
    r.params[MOVE] = 2.0f;
    sw_animator_state_info info[8];
    bool left = false;
    for (int i = 0; i < 40 && !left; ++i) {
        rig_update(&r, 1.0f / 40.0f, NULL, 0, NULL);
        if (sw_animator_current_state(r.inst, r.bound, ground) == 2) {
            left = true;
            uint32_t ns = sw_animator_states(r.inst, r.bound, info, 8);
            for (uint32_t k = 0; k < ns; ++k) {
                if (info[k].state == walk) {
                    double frac = info[k].normalized_time - floor(info[k].normalized_time);
                    assert_true(frac >= 0.5 && frac < 0.5 + 1.0 / 40.0 + 1e-9);
                }
            }
        }
    }
    assert_true(left);
    /* cuts by play: off the ground and back, the nested machine restarting at once */
    const uint32_t ground_state = 0, air_state = 1;
    assert_int_equal(sw_animator_play(r.inst, r.bound, air_state, 0.0f), SW_RESULT_OK);
    expect_weights_sum_one(&r);
    assert_int_equal(sw_animator_play(r.inst, r.bound, ground_state, 0.0f), SW_RESULT_OK);
    expect_weights_sum_one(&r);
    rig_close(&r);
}

/* ---- determinism ---- */

static void run_script(uint8_t* out, size_t cap, size_t* used) {
    sw_animator_desc d = base_desc();
    rig r;
    rig_open(&r, &d);
    uint32_t rng = 1234;
    size_t at = 0;
    for (int f = 0; f < 300; ++f) {
        float dt = sw_test_rand(&rng, 1.0f / 200.0f, 1.0f / 15.0f);
        r.params[P_SPEED] = 1.6f + 1.6f * sinf((float)f * 0.05f);
        r.params[P_AIM] = 0.5f + 0.5f * sinf((float)f * 0.03f);
        if (f % 97 == 50) r.params[P_PUNCH] = 1.0f;
        sw_animator_event ev[16];
        sw_animator_root_motion rm;
        uint32_t n = rig_update(&r, dt, ev, 16, &rm);
        rig_eval(&r);
        size_t need = sizeof rm + sizeof(sw_xform4) + n * 2u * sizeof(uint32_t);
        assert_true(at + need <= cap);
        memcpy(out + at, &rm, sizeof rm);
        at += sizeof rm;
        memcpy(out + at, r.pose, sizeof(sw_xform4));
        at += sizeof(sw_xform4);
        for (uint32_t k = 0; k < n && k < 16; ++k) {
            memcpy(out + at, &ev[k].kind, 4);
            memcpy(out + at + 4, &ev[k].state, 4);
            at += 8;
        }
    }
    *used = at;
    rig_close(&r);
}

static void test_determinism(void** state) {
    (void)state;
    size_t cap = 1u << 20, n1 = 0, n2 = 0;
    uint8_t* a = (uint8_t*)calloc(cap, 1);
    uint8_t* b = (uint8_t*)calloc(cap, 1);
    run_script(a, cap, &n1);
    run_script(b, cap, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    free(a);
    free(b);
}

/* Extreme but valid inputs: huge dt, infinite parameters. No NaN anywhere, counts finite. */
static void test_extreme_inputs(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    for (int space = 0; space < 2; ++space) {
        sw_animator_state_desc states[3];
        memcpy(states, k_base_states, sizeof states);
        states[0].target = space ? "dir2d" : "loco";
        sw_animator_machine_desc machines[3];
        memcpy(machines, k_machines, sizeof machines);
        machines[0].states = states;
        d.machines = machines;
        rig r;
        rig_open(&r, &d);
        const float values[] = {INFINITY, -INFINITY, 3.4e38f, -3.4e38f, 0.0f, 1e-30f};
        const float dts[] = {3.4e38f, 1e-30f, 0.0f, 1e6f, 0.016f};
        for (size_t i = 0; i < sizeof values / sizeof values[0]; ++i) {
            for (size_t k = 0; k < sizeof dts / sizeof dts[0]; ++k) {
                r.params[P_SPEED] = values[i];
                r.params[P_DIR] = values[(i + k) % 6];
                r.params[P_LOCO_SPEED] = values[(i + 2 * k) % 6];
                r.params[P_AIM] = values[(i + 3) % 6];
                if (k == 2) r.params[P_PUNCH] = 1.0f;
                sw_animator_event ev[8];
                sw_animator_root_motion rm;
                uint32_t n = rig_update(&r, dts[k], ev, 8, &rm);
                /* 1e12 cycles of events in one update: the count saturates, never wraps */
                for (uint32_t j = 0; j < n && j < 8; ++j)
                    assert_non_null(ev[j].name);
                assert_true(isfinite(rm.translation.x) && isfinite(rm.translation.z) &&
                            isfinite(rm.yaw));
                rig_eval(&r);
                for (uint32_t j = 0; j < JOINTS; ++j) {
                    sw_xform x = sw_pose_get(r.pose, j);
                    assert_true(isfinite(x.t.x) && isfinite(x.t.y) && isfinite(x.t.z));
                    assert_true(isfinite(x.r.x) && isfinite(x.r.w) && isfinite(x.s.x));
                }
                sw_animator_contribution c[32];
                uint32_t nc = sw_animator_contributions(r.inst, r.bound, c, 32);
                for (uint32_t j = 0; j < nc && j < 32; ++j) {
                    assert_true(isfinite(c[j].weight) && isfinite(c[j].time));
                }
            }
        }
        rig_close(&r);
    }
}

/* ---- argument tables for update and evaluate ---- */

/* An update whose parameters, clocks and bound are those of the last one
 * keeps the contributions instead of rebuilding them: checked against a
 * twin that rebuilds them after every update (a seek of each machine to the
 * time it stands at rebuilds its layer), through frozen and paused frames
 * with parameters changing or not, triggers and crossfades: the same
 * contributions and poses, and the instance marks its pose unchanged on the
 * frames where nothing moved. */
/* Rebuilds r's contributions now, as seek does: every current state's
 * machine sought to its own normalized time (nothing else changes). */
static void rebuild_by_seeks(rig* r) {
    sw_animator_state_info info[16];
    const uint32_t ns = sw_animator_states(r->inst, r->bound, info, 16);
    for (uint32_t i = 0; i < ns; ++i) {
        if (!info[i].current) continue;
        assert_int_equal(
            sw_animator_seek(r->inst, r->bound, info[i].machine, info[i].normalized_time),
            SW_RESULT_OK);
    }
}

static void test_unchanged_update_keeps_contributions(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    rig keep, twin;
    rig_open(&keep, &d);
    rig_open(&twin, &d);
    uint32_t rng = 11, kept = 0;
    for (int frame = 0; frame < 400; ++frame) {
        const int phase = (frame / 25) % 4;
        float dt = phase == 1 ? 0.0f : sw_test_rand(&rng, 1.0f / 120.0f, 1.0f / 30.0f);
        if (phase == 0) keep.params[P_LOCO_SPEED] = 0.0f; /* frozen clock */
        if (phase == 2) keep.params[P_LOCO_SPEED] = 1.0f;
        if (phase != 2 && frame % 10 == 3) keep.params[P_SPEED] = sw_test_rand(&rng, 0.0f, 3.2f);
        if (frame % 60 == 7) keep.params[P_PUNCH] = 1.0f;
        if (frame % 40 == 13) keep.params[P_AIM] = sw_test_rand(&rng, 0.0f, 1.0f);
        memcpy(twin.params, keep.params, sizeof keep.params);
        rig_update(&keep, dt, NULL, 0, NULL);
        rig_update(&twin, dt, NULL, 0, NULL);
        rebuild_by_seeks(&twin);
        sw_animator_contribution a[64], b[64];
        const uint32_t na = sw_animator_contributions(keep.inst, keep.bound, a, 64);
        const uint32_t nb = sw_animator_contributions(twin.inst, twin.bound, b, 64);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, sizeof(sw_animator_contribution) * na);
        kept += sw_animator_pose_changed(keep.inst, keep.bound) ? 0u : 1u;
        if (frame % 3 == 0) {
            assert_int_equal(sw_animator_evaluate(keep.inst, keep.bound, keep.scratch,
                                                  keep.scratch_size, keep.pose,
                                                  g_skel->packets_count),
                             SW_RESULT_OK);
            assert_int_equal(sw_animator_evaluate(twin.inst, twin.bound, twin.scratch,
                                                  twin.scratch_size, twin.pose,
                                                  g_skel->packets_count),
                             SW_RESULT_OK);
            assert_memory_equal(keep.pose, twin.pose, sizeof(sw_xform4) * g_skel->packets_count);
        }
    }
    assert_true(kept > 0u); /* the frozen and paused frames did keep */
    rig_close(&keep);
    rig_close(&twin);
}

/* Two updates' events are the same (n of them, kept up to 16). */
static void expect_same_events(const sw_animator_event* a, const sw_animator_event* b, uint32_t n) {
    for (uint32_t i = 0; i < n && i < 16u; ++i) {
        assert_int_equal(a[i].kind, b[i].kind);
        assert_int_equal(a[i].state, b[i].state);
        assert_int_equal(a[i].clip, b[i].clip);
        assert_int_equal(a[i].event, b[i].event);
        assert_string_equal(a[i].name, b[i].name);
        assert_memory_equal(&a[i].time, &b[i].time, sizeof(float));
        assert_memory_equal(&a[i].weight, &b[i].weight, sizeof(float));
    }
}

/* An instance evaluated only on some frames (an off-screen character in
 * between, whose updates leave its contributions to be built) against a
 * twin whose contributions are rebuilt (by seeks to its own times) and
 * evaluated after every update: the same events and root motion every
 * frame, the same pose on every shown frame. */
static void test_hidden_updates_match_evaluating_twin(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    rig hid, twin;
    rig_open(&hid, &d);
    rig_open(&twin, &d);
    uint32_t rng = 29, shown = 0, events = 0;
    for (int frame = 0; frame < 600; ++frame) {
        const float dt = frame % 50 == 20 ? 0.0f : sw_test_rand(&rng, 1.0f / 120.0f, 1.0f / 20.0f);
        if (frame % 10 == 3) hid.params[P_SPEED] = sw_test_rand(&rng, 0.0f, 3.2f);
        if (frame % 45 == 7) hid.params[P_PUNCH] = 1.0f;
        if (frame % 35 == 13) hid.params[P_AIM] = sw_test_rand(&rng, 0.0f, 1.0f);
        memcpy(twin.params, hid.params, sizeof twin.params);
        sw_animator_event ea[16], eb[16];
        sw_animator_root_motion ra, rb;
        const uint32_t na = rig_update(&hid, dt, ea, 16, &ra);
        assert_int_equal(rig_update(&twin, dt, eb, 16, &rb), na);
        assert_memory_equal(hid.params, twin.params, sizeof twin.params); /* triggers consumed */
        expect_same_events(ea, eb, na);
        events += na;
        assert_memory_equal(&ra, &rb, sizeof ra);
        rebuild_by_seeks(&twin);
        rig_eval(&twin);
        if ((frame / 13) % 4 == 3) { /* shown: 13 frames of every 52 */
            rig_eval(&hid);
            assert_memory_equal(hid.pose, twin.pose, sizeof(sw_xform4) * g_skel->packets_count);
            ++shown;
        }
    }
    assert_true(shown > 100u && events > 50u);
    rig_close(&hid);
    rig_close(&twin);
}

/* Updates that leave the instance as they found it (a frozen clock at a
 * steady dt, a pause) return at once from the second one on: checked
 * against a twin that runs every update in full (a seek after each one, as
 * rebuild_by_seeks does, clears what the shortcut needs): the same events,
 * root motion, consumed triggers, contributions and pose every frame,
 * through freezes with the parameters or dt changing, a trigger fired while
 * frozen (the punch plays, finishes and fades back into the frozen loop),
 * and a pause (dt 0) that ends with the clock running again at the same
 * parameters (fails when the shortcut ignores dt). */
static void test_still_updates_match_full_twin(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    d.machines_count = 1; /* the base layer alone: a frozen loop stops every clock */
    d.layers_count = 1;
    rig still, twin;
    rig_open(&still, &d);
    rig_open(&twin, &d);
    uint32_t kept = 0, events = 0;
    for (int frame = 0; frame < 600; ++frame) {
        const bool pause = frame >= 440 && frame < 470;
        const float dt = pause ? 0.0f : frame >= 200 && frame < 260 ? 1.0f / 30.0f : 1.0f / 60.0f;
        still.params[P_LOCO_SPEED] = (frame / 40) % 2 == 0 ? 0.0f : 1.0f;
        if (frame == 90 || frame == 300) still.params[P_SPEED] = frame == 90 ? 1.1f : 2.5f;
        if (frame == 50 || frame == 130 || frame == 210) still.params[P_PUNCH] = 1.0f;
        memcpy(twin.params, still.params, sizeof twin.params);
        sw_animator_event ea[16], eb[16];
        sw_animator_root_motion ra, rb;
        const uint32_t na = rig_update(&still, dt, ea, 16, &ra);
        assert_int_equal(rig_update(&twin, dt, eb, 16, &rb), na);
        rebuild_by_seeks(&twin);
        assert_memory_equal(still.params, twin.params, sizeof twin.params);
        expect_same_events(ea, eb, na);
        events += na;
        assert_memory_equal(&ra, &rb, sizeof ra);
        sw_animator_contribution a[64], b[64];
        const uint32_t ca = sw_animator_contributions(still.inst, still.bound, a, 64);
        assert_int_equal(sw_animator_contributions(twin.inst, twin.bound, b, 64), ca);
        assert_memory_equal(a, b, sizeof(sw_animator_contribution) * ca);
        kept += sw_animator_pose_changed(still.inst, still.bound) ? 0u : 1u;
        rig_eval(&still);
        rig_eval(&twin);
        assert_memory_equal(still.pose, twin.pose, sizeof(sw_xform4) * g_skel->packets_count);
    }
    assert_true(kept > 200u && events > 6u); /* frozen frames, and the punches' events */
    rig_close(&still);
    rig_close(&twin);
}

static void test_update_evaluate_arguments(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    rig r;
    rig_open(&r, &d);
    const size_t isize = sw_animator_instance_size(r.bound);
    uint8_t* before = (uint8_t*)malloc(isize);
    memcpy(before, r.inst, isize);
    sw_animator_event ev[4];
    uint32_t n = 0;
    float nanp[SW_ANIMATOR_MAX_PARAMS];
    memcpy(nanp, r.params, sizeof nanp);
    nanp[P_SPEED] = NAN;
    struct {
        sw_result expect;
        sw_animator_instance* inst;
        const sw_animator_bound* bound;
        float* params;
        uint32_t params_count;
        float dt;
        sw_animator_event* events;
        uint32_t capacity;
        uint32_t* count;
    } cases[] = {
        {SW_RESULT_INVALID_ARGUMENT, NULL, r.bound, r.params, P_COUNT, 0.1f, ev, 4, &n},
        {SW_RESULT_INVALID_ARGUMENT, r.inst, NULL, r.params, P_COUNT, 0.1f, ev, 4, &n},
        {SW_RESULT_INVALID_ARGUMENT, r.inst, r.bound, NULL, P_COUNT, 0.1f, ev, 4, &n},
        {SW_RESULT_BUFFER_TOO_SMALL, r.inst, r.bound, r.params, P_COUNT - 1, 0.1f, ev, 4, &n},
        {SW_RESULT_INVALID_ARGUMENT, r.inst, r.bound, r.params, P_COUNT, -0.1f, ev, 4, &n},
        {SW_RESULT_INVALID_ARGUMENT, r.inst, r.bound, r.params, P_COUNT, NAN, ev, 4, &n},
        {SW_RESULT_INVALID_ARGUMENT, r.inst, r.bound, r.params, P_COUNT, INFINITY, ev, 4, &n},
        {SW_RESULT_INVALID_ARGUMENT, r.inst, r.bound, r.params, P_COUNT, 0.1f, NULL, 4, &n},
        {SW_RESULT_INVALID_ARGUMENT, r.inst, r.bound, r.params, P_COUNT, 0.1f, ev, 4, NULL},
        {SW_RESULT_BAD_DATA, r.inst, r.bound, nanp, P_COUNT, 0.1f, ev, 4, &n},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        sw_result res = sw_animator_update(cases[i].inst, cases[i].bound, cases[i].params,
                                           cases[i].params_count, cases[i].dt, cases[i].events,
                                           cases[i].capacity, cases[i].count, NULL);
        if (res != cases[i].expect) {
            fail_msg("update case %zu: %s, expected %s", i, sw_result_str(res),
                     sw_result_str(cases[i].expect));
        }
        assert_memory_equal(before, r.inst, isize);
    }
    /* an all-zero instance is rejected, not crashed on */
    _Alignas(16) uint8_t zero_inst[256];
    memset(zero_inst, 0, sizeof zero_inst);
    assert_int_equal(sw_animator_update((sw_animator_instance*)(void*)zero_inst, r.bound, r.params,
                                        P_COUNT, 0.1f, ev, 4, &n, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    _Alignas(16) uint8_t zero_bound[512];
    memset(zero_bound, 0, sizeof zero_bound);
    assert_int_equal(sw_animator_update(r.inst, (const sw_animator_bound*)(void*)zero_bound,
                                        r.params, P_COUNT, 0.1f, ev, 4, &n, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_instance_size((const sw_animator_bound*)(void*)zero_bound), 0);
    /* evaluate */
    const uint32_t P = g_skel->packets_count;
    sw_xform4* out = r.pose;
    memset(out, 0x5A, sizeof(sw_xform4) * P);
    uint8_t* misaligned = (uint8_t*)r.scratch + 4;
    struct {
        sw_result expect;
        sw_animator_instance* inst;
        const sw_animator_bound* bound;
        void* scratch;
        size_t scratch_size;
        sw_xform4* out;
        uint32_t out_count;
    } ecases[] = {
        {SW_RESULT_INVALID_ARGUMENT, NULL, r.bound, r.scratch, r.scratch_size, out, P},
        {SW_RESULT_INVALID_ARGUMENT, r.inst, NULL, r.scratch, r.scratch_size, out, P},
        {SW_RESULT_INVALID_ARGUMENT, r.inst, r.bound, NULL, r.scratch_size, out, P},
        {SW_RESULT_INVALID_ARGUMENT, r.inst, r.bound, r.scratch, r.scratch_size, NULL, P},
        {SW_RESULT_BUFFER_TOO_SMALL, r.inst, r.bound, r.scratch, r.scratch_size - 16, out, P},
        {SW_RESULT_BUFFER_TOO_SMALL, r.inst, r.bound, r.scratch, r.scratch_size, out, P - 1},
        {SW_RESULT_MISALIGNED, r.inst, r.bound, misaligned, r.scratch_size - 16, out, P},
        {SW_RESULT_OVERLAP, r.inst, r.bound, r.scratch, r.scratch_size, (sw_xform4*)r.scratch, P},
        {SW_RESULT_OVERLAP, r.inst, r.bound, r.scratch, r.scratch_size, (sw_xform4*)(void*)r.inst,
         P},
    };
    uint8_t* pose_before = (uint8_t*)malloc(sizeof(sw_xform4) * P);
    memcpy(pose_before, out, sizeof(sw_xform4) * P);
    for (size_t i = 0; i < sizeof ecases / sizeof ecases[0]; ++i) {
        sw_result res =
            sw_animator_evaluate(ecases[i].inst, ecases[i].bound, ecases[i].scratch,
                                 ecases[i].scratch_size, ecases[i].out, ecases[i].out_count);
        if (res != ecases[i].expect) {
            fail_msg("evaluate case %zu: %s, expected %s", i, sw_result_str(res),
                     sw_result_str(ecases[i].expect));
        }
        assert_memory_equal(pose_before, out, sizeof(sw_xform4) * P);
    }
    /* instance init arguments */
    sw_animator_instance* tmp = NULL;
    assert_int_equal(sw_animator_instance_init(r.inst_mem, isize - 1, r.bound, &tmp),
                     SW_RESULT_BUFFER_TOO_SMALL);
    assert_int_equal(sw_animator_instance_init((uint8_t*)r.inst_mem + 8, isize, r.bound, &tmp),
                     SW_RESULT_MISALIGNED);
    assert_int_equal(sw_animator_instance_init(r.inst_mem, isize, NULL, &tmp),
                     SW_RESULT_INVALID_ARGUMENT);
    free(pose_before);
    free(before);
    rig_close(&r);
}

/* ---- randomized idle ---- */

static void test_idle_controller(void** state) {
    (void)state;
    const sw_animator_idle_channel ch[2] = {{2, -0.5f, 0.5f, 0.2f, 0.6f, 0.3f, 1.5f},
                                            {4, 0.0f, 1.0f, 0.1f, 0.4f, 0.0f, 2.0f}};
    sw_animator_idle a, b;
    assert_int_equal(sw_animator_idle_init(&a, ch, 2, 42), SW_RESULT_OK);
    assert_int_equal(sw_animator_idle_init(&b, ch, 2, 42), SW_RESULT_OK);
    float pa[6] = {0}, pb[6] = {0}, prev[6] = {0};
    uint32_t rng = 5;
    int changes = 0;
    float lo = 1.0f, hi = -1.0f;
    for (int f = 0; f < 3000; ++f) {
        float dt = sw_test_rand(&rng, 0.005f, 0.05f);
        memcpy(prev, pa, sizeof prev);
        assert_int_equal(sw_animator_idle_update(&a, pa, 6, dt), SW_RESULT_OK);
        assert_int_equal(sw_animator_idle_update(&b, pb, 6, dt), SW_RESULT_OK);
        assert_memory_equal(pa, pb, sizeof pa);
        assert_true(fabsf(pa[2] - prev[2]) <= 0.6f * dt + 1e-6f);
        assert_true(fabsf(pa[4] - prev[4]) <= 0.4f * dt + 1e-6f);
        assert_true(pa[2] >= -0.5f && pa[2] <= 0.5f);
        assert_true(pa[0] == 0.0f && pa[1] == 0.0f && pa[3] == 0.0f);
        if (pa[2] != prev[2] && (f == 0 || (pa[2] - prev[2]) * (prev[2] - prev[0]) <= 0.0f)) {
            ++changes;
        }
        if (pa[2] < lo) lo = pa[2];
        if (pa[2] > hi) hi = pa[2];
    }
    assert_true(changes > 10);
    assert_true(hi - lo > 0.5f); /* wanders over the range */
    /* another seed, another path */
    sw_animator_idle c;
    assert_int_equal(sw_animator_idle_init(&c, ch, 2, 43), SW_RESULT_OK);
    float pc[6] = {0};
    memset(pa, 0, sizeof pa);
    assert_int_equal(sw_animator_idle_init(&a, ch, 2, 42), SW_RESULT_OK);
    for (int f = 0; f < 100; ++f) {
        sw_animator_idle_update(&a, pa, 6, 0.02f);
        sw_animator_idle_update(&c, pc, 6, 0.02f);
    }
    assert_true(memcmp(pa, pc, sizeof pa) != 0);
    /* arguments */
    sw_animator_idle_channel bad = ch[0];
    bad.min = 1.0f;
    assert_int_equal(sw_animator_idle_init(&a, &bad, 1, 0), SW_RESULT_BAD_DATA);
    bad = ch[0];
    bad.min_speed = 0.0f;
    assert_int_equal(sw_animator_idle_init(&a, &bad, 1, 0), SW_RESULT_BAD_DATA);
    assert_int_equal(sw_animator_idle_init(&a, ch, SW_ANIMATOR_IDLE_MAX_CHANNELS + 1u, 0),
                     SW_RESULT_LIMIT);
    assert_int_equal(sw_animator_idle_init(NULL, ch, 1, 0), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_idle_init(&a, ch, 2, 0), SW_RESULT_OK);
    assert_int_equal(sw_animator_idle_update(&a, pa, 4, 0.1f), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_idle_update(&a, pa, 6, -0.1f), SW_RESULT_INVALID_ARGUMENT);
}

/* ---- real data ---- */

static void test_cmu_bvh(void** state) {
    (void)state;
    char p1[512], p2[512];
    if (!sw_test_model_path(p1, sizeof p1, "BVH/01_01.bvh")) return;
    if (!sw_test_model_path(p2, sizeof p2, "BVH/01_03.bvh")) return;
    size_t s1 = 0, s2 = 0;
    char* t1 = (char*)sw_test_read_file(p1, &s1);
    char* t2 = (char*)sw_test_read_file(p2, &s2);
    assert_non_null(t1);
    assert_non_null(t2);
    sw_bvh_options o1 = {.scale = 0.056444f, .clip_name = "01_01"}; /* CMU units to metres */
    sw_bvh_options o2 = {.scale = 0.056444f, .clip_name = "01_03"};
    sw_bvh_result b1, b2;
    assert_int_equal(sw_bvh_read(t1, s1, &o1, NULL, &b1, NULL), SW_RESULT_OK);
    assert_int_equal(sw_bvh_read(t2, s2, &o2, NULL, &b2, NULL), SW_RESULT_OK);
    free(t1);
    free(t2);
    assert_int_equal(b1.skeleton->joints_count, b2.skeleton->joints_count);
    const sw_clip* clips[2] = {b1.clip, b2.clip};
    const char* n1 = "01_01";
    const char* n2 = "01_03";
    const sw_animator_param_desc params[] = {{"blend", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f},
                                             {"go", SW_ANIMATOR_PARAM_TYPE_TRIGGER, 0.0f}};
    const sw_animator_member_desc members[] = {{n1, 0.0f, 0.0f}, {n2, 1.0f, 0.0f}};
    const sw_animator_blend_space_desc spaces[] = {
        {"mix", "blend", NULL, members, 2, NULL, 0, false}};
    const sw_animator_state_desc states[] = {
        {"Mix", SW_ANIMATOR_MOTION_BLEND_SPACE, "mix", false, 0.0f, NULL},
        {"Second", SW_ANIMATOR_MOTION_CLIP, n2, true, 0.0f, NULL},
    };
    const sw_animator_condition_desc go[] = {{"go", SW_ANIMATOR_OP_TRIGGER, 0.0f}};
    const sw_animator_transition_desc trans[] = {
        {.from = "Mix",
         .to = "Second",
         .conditions = go,
         .conditions_count = 1,
         .duration = 0.5f,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
    };
    const sw_animator_machine_desc machines[] = {{"Main", states, 2, trans, 1, NULL}};
    const sw_animator_layer_desc layers[] = {{"base", "Main", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f,
                                              NULL, NULL, 0, SW_ANIMATOR_REFERENCE_DEFAULT}};
    sw_animator_desc d = {.params = params,
                          .params_count = 2,
                          .blend_spaces = spaces,
                          .blend_spaces_count = 1,
                          .machines = machines,
                          .machines_count = 1,
                          .layers = layers,
                          .layers_count = 1,
                          .root_motion_joint = "Hips"};
    rig r;
    rig_open_with(&r, &d, b1.skeleton, clips, 2);
    const float len1 = clips[0]->duration, len2 = clips[1]->duration;
    r.params[0] = 0.3f;
    float x = 0.0f, z = 0.0f, yaw = 0.0f;
    const float dt = 1.0f / 30.0f;
    for (int f = 0; f < 90; ++f) {
        sw_animator_root_motion rm;
        rig_update(&r, dt, NULL, 0, &rm);
        accumulate(&x, &z, &yaw, &rm);
        sw_animator_contribution c[4];
        uint32_t n = sw_animator_contributions(r.inst, r.bound, c, 4);
        assert_int_equal(n, 2);
        assert_near(c[0].phase, c[1].phase, 1e-5);
        assert_near(c[0].weight + c[1].weight, 1.0f, 1e-6);
        assert_near(c[0].time / len1, c[1].time / len2, 1e-4);
        /* evaluated pose: the hips stay above the origin */
        assert_int_equal(sw_animator_evaluate(r.inst, r.bound, r.scratch, r.scratch_size, r.pose,
                                              b1.skeleton->packets_count),
                         SW_RESULT_OK);
        int32_t hips = sw_skeleton_find_joint(b1.skeleton, "Hips");
        assert_true(hips >= 0);
        sw_xform h = sw_pose_get(r.pose, (uint32_t)hips);
        assert_true(fabsf(h.t.x) < 1e-3f && fabsf(h.t.z) < 1e-3f);
    }
    /* the character moved: 01_01 and 01_03 are walking captures; over 3 s at least 0.5 m */
    assert_true(sqrtf(x * x + z * z) > 0.5f);
    /* a one-shot over real data: fade in, finished once */
    r.params[1] = 1.0f;
    int finished = 0;
    int frames = (int)(len2 / dt) + 30;
    for (int f = 0; f < frames; ++f) {
        sw_animator_event ev[8];
        uint32_t n = rig_update(&r, dt, ev, 8, NULL);
        for (uint32_t k = 0; k < n; ++k)
            finished += ev[k].kind == SW_ANIMATOR_EVENT_KIND_FINISHED;
    }
    assert_int_equal(finished, 1);
    rig_close(&r);
    sw_bvh_result_free(&b1, NULL);
    sw_bvh_result_free(&b2, NULL);
}

/* ---- loading blocks ---- */

static void run_loaded(const sw_animator* a) {
    size_t bs = sw_animator_bound_size(a, g_skel);
    void* bmem = aligned_alloc(16, (bs + 15u) & ~(size_t)15u);
    const sw_animator_bound* b = NULL;
    if (sw_animator_bind(a, g_skel, g_clips, g_clips_count, bmem, bs, &b, NULL) == SW_RESULT_OK) {
        size_t is = sw_animator_instance_size(b), ss = sw_animator_scratch_size(b);
        void* imem = aligned_alloc(16, (is + 15u) & ~(size_t)15u);
        void* scratch = aligned_alloc(16, (ss + 15u) & ~(size_t)15u);
        _Alignas(16) sw_xform4 pose[1];
        sw_animator_instance* inst = NULL;
        assert_int_equal(sw_animator_instance_init(imem, is, b, &inst), SW_RESULT_OK);
        float params[SW_ANIMATOR_MAX_PARAMS];
        sw_animator_params_reset(a, params, SW_ANIMATOR_MAX_PARAMS);
        for (int f = 0; f < 12; ++f) {
            sw_animator_event ev[8];
            uint32_t n;
            if (f == 5) params[1] = 1.0f;
            params[0] = (float)f * 0.3f;
            assert_int_equal(
                sw_animator_update(inst, b, params, SW_ANIMATOR_MAX_PARAMS, 0.05f, ev, 8, &n, NULL),
                SW_RESULT_OK);
            assert_int_equal(sw_animator_evaluate(inst, b, scratch, ss, pose, 1), SW_RESULT_OK);
        }
        free(scratch);
        free(imem);
    }
    free(bmem);
}

static void test_load_hostile(void** state) {
    (void)state;
    sw_animator_desc d = base_desc();
    const sw_animator* built = NULL;
    assert_int_equal(sw_animator_create(&d, NULL, &built, NULL), SW_RESULT_OK);
    const size_t size = sw_animator_size(built);
    uint8_t* buf = (uint8_t*)aligned_alloc(16, size);
    memcpy(buf, built, size);
    const sw_animator* a = NULL;
    sw_error err;
    assert_int_equal(sw_animator_load(buf, size, &a, &err), SW_RESULT_OK);
    assert_ptr_equal(a, buf);
    run_loaded(a);
    assert_int_equal(sw_animator_load(NULL, size, &a, &err), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_load(buf + 4, size - 4, &a, &err), SW_RESULT_MISALIGNED);
    /* every truncation */
    for (size_t n = 0; n < size; ++n) {
        sw_result r = sw_animator_load(buf, n, &a, &err);
        assert_int_equal(r, SW_RESULT_TRUNCATED);
    }
    /* all zero */
    uint8_t* zero = (uint8_t*)aligned_alloc(16, size);
    memset(zero, 0, size);
    assert_int_equal(sw_animator_load(zero, size, &a, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "magic");
    /* every byte flipped (two patterns): rejected with a named check, or accepted and then
     * safe to bind and run */
    uint32_t accepted = 0, rejected = 0;
    const uint8_t patterns[2] = {0xFF, 0x01};
    for (int p = 0; p < 2; ++p) {
        for (size_t i = 0; i < size; ++i) {
            memcpy(zero, built, size);
            zero[i] ^= patterns[p];
            memset(&err, 0, sizeof err);
            sw_result r = sw_animator_load(zero, size, &a, &err);
            if (r == SW_RESULT_OK) {
                ++accepted;
                run_loaded(a);
            } else {
                ++rejected;
                assert_true(r == SW_RESULT_BAD_DATA || r == SW_RESULT_LIMIT ||
                            r == SW_RESULT_TRUNCATED);
                assert_non_null(err.check);
            }
        }
    }
    print_message("flipped bytes: %u rejected, %u accepted (names, values, padding)\n", rejected,
                  accepted);
    assert_true(rejected > 0);
    free(zero);
    free(buf);
    sw_animator_destroy(built, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_desc_validity_table),
        cmocka_unit_test(test_init_arguments_and_lookups),
        cmocka_unit_test(test_bind_errors),
        cmocka_unit_test(test_blend_space_phase_and_cycle),
        cmocka_unit_test(test_blend_space_weights_continuous),
        cmocka_unit_test(test_blend_space_directional),
        cmocka_unit_test(test_seek),
        cmocka_unit_test(test_crossfade_cut_finished),
        cmocka_unit_test(test_play_and_interrupt),
        cmocka_unit_test(test_interruption_sources),
        cmocka_unit_test(test_events_exactly_once),
        cmocka_unit_test(test_events_large_dt_and_capacity),
        cmocka_unit_test(test_events_match_closed_form),
        cmocka_unit_test(test_root_motion_cycles_and_rates),
        cmocka_unit_test(test_root_kept_in_place),
        cmocka_unit_test(test_layers_mask_and_additive),
        cmocka_unit_test(test_inertialization),
        cmocka_unit_test(test_sync_markers),
        cmocka_unit_test(test_nested_machine),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_update_evaluate_arguments),
        cmocka_unit_test(test_unchanged_update_keeps_contributions),
        cmocka_unit_test(test_hidden_updates_match_evaluating_twin),
        cmocka_unit_test(test_still_updates_match_full_twin),
        cmocka_unit_test(test_extreme_inputs),
        cmocka_unit_test(test_idle_controller),
        cmocka_unit_test(test_load_hostile),
        cmocka_unit_test(test_cmu_bvh),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
