/* Directional and timed hits (issue #19, item 4): a hit's world direction
 * and strength written into the parameters of a 2D blend space of hit clips
 * (closed-form weights at the four directions, 30 and 45 degrees, for the
 * directional and the cartesian bands), transition time windows (inclusive
 * ends, once and looping states, the end of a cycle), start offsets (the
 * pose equals the clip sampled at the offset, events before it unreported),
 * the desc and block checks, and sw_animator_apply_hit's arguments. */
#include "animator_rig.h"

#include "runtime/animator/animator_internal.h"

#define RATE 30.0f
#define PI_F 3.14159265358979f

static const sw_skeleton* g_skel;
static const sw_clip* g_clips[8];
static uint32_t g_clips_count;

/* A clip whose Arm turns about X by 0.3 * k + 0.5 * t: every clip and time
 * gives another pose. */
static const sw_clip* make_clip(const char* name, float duration, uint32_t k,
                                const sw_clip_event_desc* events, uint32_t events_count) {
    const uint32_t n = (uint32_t)(duration * RATE + 0.5f) + 1u;
    float* r = (float*)malloc(sizeof(float) * 4u * n);
    for (uint32_t i = 0; i < n; ++i) {
        const float t = duration * (float)i / (float)(n - 1u);
        const sw_quat q =
            sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), 0.3f * (float)k + 0.5f * t);
        memcpy(&r[4 * i], &q, sizeof q);
    }
    const sw_clip_track_desc track = {
        .kind = SW_TRACK_KIND_ROTATION, .joint = 1, .keys_count = n, .rate = RATE, .values = r};
    const sw_clip_desc d = {.name = name,
                            .duration = duration,
                            .joints_count = 2,
                            .tracks = &track,
                            .tracks_count = 1,
                            .events = events,
                            .events_count = events_count};
    const sw_clip* c = NULL;
    assert_int_equal(sw_clip_create(&d, NULL, &c, NULL), SW_RESULT_OK);
    free(r);
    return c;
}

static const sw_clip_event_desc k_b_events[] = {{0.5f, "Early"}, {0.9f, "Late"}};

static int setup(void** state) {
    (void)state;
    const sw_skeleton_joint joints[2] = {
        {"Root", -1, {{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"Arm", 0, {{0, 0.5f, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
    };
    const sw_skeleton_desc sd = {joints, 2};
    assert_int_equal(sw_skeleton_create(&sd, NULL, &g_skel, NULL), SW_RESULT_OK);
    g_clips[g_clips_count++] = make_clip("front", 0.5f, 0, NULL, 0);
    g_clips[g_clips_count++] = make_clip("left", 0.5f, 1, NULL, 0);
    g_clips[g_clips_count++] = make_clip("back", 0.5f, 2, NULL, 0);
    g_clips[g_clips_count++] = make_clip("right", 0.5f, 3, NULL, 0);
    g_clips[g_clips_count++] = make_clip("a", 1.0f, 4, NULL, 0);
    g_clips[g_clips_count++] = make_clip("b", 2.0f, 5, k_b_events, 2);
    return 0;
}

static int teardown(void** state) {
    (void)state;
    for (uint32_t i = 0; i < g_clips_count; ++i)
        sw_clip_destroy(g_clips[i], NULL);
    sw_skeleton_destroy(g_skel, NULL);
    return 0;
}

static const sw_clip* clip_named(const char* name) {
    for (uint32_t i = 0; i < g_clips_count; ++i)
        if (strcmp(sw_clip_name(g_clips[i]), name) == 0) return g_clips[i];
    fail_msg("no clip %s", name);
    return NULL;
}

static void rig_open(rig* r, const sw_animator_desc* d) {
    rig_open_with(r, d, g_skel, g_clips, g_clips_count);
}

static uint32_t current(const rig* r) {
    return sw_animator_current_state(r->inst, r->bound, 0);
}

/* Weight of the clip named `name` among the playing clips (0 when it is not playing). */
static float clip_weight(const rig* r, const char* name) {
    sw_animator_contribution c[16];
    const uint32_t n = sw_animator_contributions(r->inst, r->bound, c, 16);
    float w = 0.0f;
    for (uint32_t i = 0; i < n; ++i)
        if (strcmp(sw_animator_clip_name(r->def, c[i].clip), name) == 0) w += c[i].weight;
    return w;
}

/* ---- directional hits ---- */

enum { P_HIT_X, P_HIT_Y, P_STRENGTH, P_HIT, P_COMBO, P_COUNT };

static const sw_animator_param_desc k_params[P_COUNT] = {
    {"hit_x", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f},
    {"hit_y", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f},
    {"hit_strength", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f},
    {"hit", SW_ANIMATOR_PARAM_TYPE_TRIGGER, 0.0f},
    {"combo", SW_ANIMATOR_PARAM_TYPE_TRIGGER, 0.0f},
};
/* front (0, 1), left (1, 0), back (0, -1), right (-1, 0) in the character's frame */
static const sw_animator_member_desc k_hit_members[4] = {
    {"front", 0.0f, 1.0f}, {"left", 1.0f, 0.0f}, {"back", 0.0f, -1.0f}, {"right", -1.0f, 0.0f}};
static const sw_animator_hit_desc k_hit = {"hit_x", "hit_y", "hit_strength", "hit"};

/* Guard (clip a) and Hit (the hit space, once); any state -> Hit on the trigger. */
static void hit_rig(rig* r, bool directional) {
    const sw_animator_blend_space_desc space = {.name = "hits",
                                                .param_x = "hit_x",
                                                .param_y = "hit_y",
                                                .members = k_hit_members,
                                                .members_count = 4,
                                                .directional = directional};
    const sw_animator_state_desc states[2] = {
        {"Guard", SW_ANIMATOR_MOTION_CLIP, "a", false, 0.0f, NULL},
        {"Hit", SW_ANIMATOR_MOTION_BLEND_SPACE, "hits", true, 0.0f, NULL},
    };
    const sw_animator_condition_desc on_hit = {"hit", SW_ANIMATOR_OP_TRIGGER, 0.0f};
    const sw_animator_transition_desc tr = {
        .to = "Hit", .conditions = &on_hit, .conditions_count = 1, .to_self = true};
    const sw_animator_machine_desc machine = {"M", states, 2, &tr, 1, NULL};
    const sw_animator_layer_desc layer = {.name = "base", .machine = "M"};
    const sw_animator_desc d = {.params = k_params,
                                .params_count = P_COUNT,
                                .blend_spaces = &space,
                                .blend_spaces_count = 1,
                                .machines = &machine,
                                .machines_count = 1,
                                .layers = &layer,
                                .layers_count = 1,
                                .hit = k_hit};
    rig_open(r, &d);
}

/* The character faces world +X (yaw 90 degrees about +Y): its front is +X and
 * its left (model +X) is world -Z. A blow from an attacker at angle a from
 * the front toward the left travels -(cos a * front + sin a * left). */
static sw_vec3 blow_from(float a, float down) {
    const sw_vec3 front = sw_vec3_make(1, 0, 0), left = sw_vec3_make(0, 0, -1);
    const sw_vec3 from = sw_vec3_add(sw_vec3_scale(front, cosf(a)), sw_vec3_scale(left, sinf(a)));
    return sw_vec3_make(-from.x, -down, -from.z);
}

static void hit_and_update(rig* r, float angle, float strength) {
    const sw_quat facing = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 0.5f * PI_F);
    const sw_animator_hit h = {blow_from(angle, 0.7f), strength};
    assert_int_equal(sw_animator_apply_hit(r->def, facing, &h, r->params, SW_ANIMATOR_MAX_PARAMS),
                     SW_RESULT_OK);
    assert_near(r->params[P_HIT_X], strength * sinf(angle), 1e-5);
    assert_near(r->params[P_HIT_Y], strength * cosf(angle), 1e-5);
    assert_near(r->params[P_STRENGTH], strength, 0);
    assert_near(r->params[P_HIT], 1.0f, 0);
    rig_update(r, 0.0f, NULL, 0, NULL);
    assert_int_equal(current(r), 1);        /* Hit */
    assert_near(r->params[P_HIT], 0.0f, 0); /* the trigger was consumed */
}

static void test_hit_directions(void** state) {
    (void)state;
    const char* const names[4] = {"front", "left", "back", "right"};
    for (int directional = 0; directional < 2; ++directional) {
        rig r;
        hit_rig(&r, directional != 0);
        /* Straight from each side at full and half strength r: that clip alone
         * in polar bands; cartesian ones give it h = (1 + r) / 2 and each other
         * clip (1 - r) / 2 before normalization (sum 2 - r). */
        for (int side = 0; side < 4; ++side) {
            for (int s = 1; s <= 2; ++s) {
                const float radius = 1.0f / (float)s;
                hit_and_update(&r, 0.5f * PI_F * (float)side, radius);
                for (int k = 0; k < 4; ++k) {
                    float w = k == side ? 1.0f : 0.0f;
                    if (!directional) {
                        w = 0.5f * (k == side ? 1.0f + radius : 1.0f - radius) / (2.0f - radius);
                    }
                    assert_near(clip_weight(&r, names[k]), w, 1e-5);
                }
            }
        }
        /* Between front and left at 45 degrees: half each, both kinds of bands. */
        hit_and_update(&r, 0.25f * PI_F, 1.0f);
        assert_near(clip_weight(&r, "front"), 0.5f, 1e-5);
        assert_near(clip_weight(&r, "left"), 0.5f, 1e-5);
        assert_near(clip_weight(&r, "back") + clip_weight(&r, "right"), 0.0f, 1e-6);
        /* From behind and to the right at 45 degrees (225 from the front). */
        hit_and_update(&r, 1.25f * PI_F, 1.0f);
        assert_near(clip_weight(&r, "back"), 0.5f, 1e-5);
        assert_near(clip_weight(&r, "right"), 0.5f, 1e-5);
        /* 30 degrees: polar bands are linear in the angle (1 - 30/90, 30/90);
         * cartesian ones give (1 + cos b - sin b) / 2 and (1 - cos b + sin b) / 2. */
        const float b = PI_F / 6.0f;
        hit_and_update(&r, b, 1.0f);
        const float front = directional ? 2.0f / 3.0f : 0.5f * (1.0f + cosf(b) - sinf(b));
        assert_near(clip_weight(&r, "front"), front, 1e-5);
        assert_near(clip_weight(&r, "left"), 1.0f - front, 1e-5);
        rig_close(&r);
    }
}

/* A blow straight down has no side: it counts as from the front. Bindings
 * left NULL are not written. */
static void test_hit_partial_binding(void** state) {
    (void)state;
    const sw_animator_state_desc st = {"S", SW_ANIMATOR_MOTION_CLIP, "a", false, 0.0f, NULL};
    const sw_animator_machine_desc machine = {"M", &st, 1, NULL, 0, NULL};
    const sw_animator_layer_desc layer = {.name = "base", .machine = "M"};
    sw_animator_desc d = {.params = k_params,
                          .params_count = P_COUNT,
                          .machines = &machine,
                          .machines_count = 1,
                          .layers = &layer,
                          .layers_count = 1,
                          .hit = {.param_y = "hit_y"}};
    const sw_animator* a = NULL;
    assert_int_equal(sw_animator_create(&d, NULL, &a, NULL), SW_RESULT_OK);
    float p[P_COUNT] = {7.0f, 7.0f, 7.0f, 0.0f, 0.0f};
    const sw_animator_hit down = {{0.0f, -3.0f, 0.0f}, 0.8f};
    assert_int_equal(sw_animator_apply_hit(a, sw_quat_identity(), &down, p, P_COUNT), SW_RESULT_OK);
    const float expect[P_COUNT] = {7.0f, 0.8f, 7.0f, 0.0f, 0.0f};
    assert_memory_equal(p, expect, sizeof p);
    /* arguments */
    const sw_animator_hit nan_dir = {{NAN, 0.0f, 1.0f}, 1.0f}, weak = {{1, 0, 0}, -0.5f};
    const sw_animator_hit inf_strength = {{1, 0, 0}, INFINITY};
    const sw_quat bad_facing = {NAN, 0.0f, 0.0f, 1.0f};
    const sw_quat id = sw_quat_identity();
    assert_int_equal(sw_animator_apply_hit(NULL, id, &down, p, P_COUNT),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_apply_hit(a, id, NULL, p, P_COUNT), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_apply_hit(a, id, &down, NULL, P_COUNT),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_apply_hit(a, id, &down, p, P_COUNT - 1u),
                     SW_RESULT_BUFFER_TOO_SMALL);
    assert_int_equal(sw_animator_apply_hit(a, id, &nan_dir, p, P_COUNT), SW_RESULT_BAD_DATA);
    assert_int_equal(sw_animator_apply_hit(a, id, &weak, p, P_COUNT), SW_RESULT_BAD_DATA);
    assert_int_equal(sw_animator_apply_hit(a, id, &inf_strength, p, P_COUNT), SW_RESULT_BAD_DATA);
    assert_int_equal(sw_animator_apply_hit(a, bad_facing, &down, p, P_COUNT), SW_RESULT_BAD_DATA);
    assert_memory_equal(p, expect, sizeof p); /* failures write nothing */
    sw_animator_destroy(a, NULL);
    d.hit = (sw_animator_hit_desc){NULL, NULL, NULL, NULL};
    assert_int_equal(sw_animator_create(&d, NULL, &a, NULL), SW_RESULT_OK);
    assert_int_equal(sw_animator_apply_hit(a, id, &down, p, P_COUNT), SW_RESULT_NOT_FOUND);
    sw_animator_destroy(a, NULL);
}

/* ---- time windows and offsets ---- */

/* Attack (clip a, 1 s, once or looping) -> Combo (clip b) on the combo
 * trigger, inside the window; the transition starts Combo at `offset`. */
static void combo_rig(rig* r, bool once, float t1, float t2, float offset, float duration) {
    const sw_animator_state_desc states[2] = {
        {"Attack", SW_ANIMATOR_MOTION_CLIP, "a", once, 0.0f, NULL},
        {"Combo", SW_ANIMATOR_MOTION_CLIP, "b", false, 0.0f, NULL},
    };
    const sw_animator_condition_desc on_combo = {"combo", SW_ANIMATOR_OP_TRIGGER, 0.0f};
    const sw_animator_transition_desc tr = {.from = "Attack",
                                            .to = "Combo",
                                            .conditions = &on_combo,
                                            .conditions_count = 1,
                                            .duration = duration,
                                            .has_time_window = true,
                                            .time_window = {t1, t2},
                                            .offset = offset};
    const sw_animator_machine_desc machine = {"M", states, 2, &tr, 1, NULL};
    const sw_animator_layer_desc layer = {.name = "base", .machine = "M"};
    const sw_animator_desc d = {.params = k_params,
                                .params_count = P_COUNT,
                                .machines = &machine,
                                .machines_count = 1,
                                .layers = &layer,
                                .layers_count = 1};
    rig_open(r, &d);
}

/* The combo input at Attack time t (one update of t seconds from the start,
 * or `lead` seconds first without the input): fires when t is in the window. */
static bool combo_fires(bool once, float t1, float t2, float lead, float t) {
    rig r;
    combo_rig(&r, once, t1, t2, 0.0f, 0.0f);
    if (lead > 0.0f) rig_update(&r, lead, NULL, 0, NULL);
    assert_int_equal(current(&r), 0);
    r.params[P_COMBO] = 1.0f;
    rig_update(&r, t - lead, NULL, 0, NULL);
    const bool fired = current(&r) == 1;
    assert_near(r.params[P_COMBO], fired ? 0.0f : 1.0f, 0); /* consumed only when fired */
    rig_close(&r);
    return fired;
}

static void test_time_window(void** state) {
    (void)state;
    const float e = 1.0f / 1024.0f; /* times are exact binary fractions of the 1 s clip */
    for (int once = 0; once < 2; ++once) {
        assert_false(combo_fires(once, 0.25f, 0.5f, 0.0f, 0.25f - e));
        assert_true(combo_fires(once, 0.25f, 0.5f, 0.0f, 0.25f)); /* both ends included */
        assert_true(combo_fires(once, 0.25f, 0.5f, 0.0f, 0.375f));
        assert_true(combo_fires(once, 0.25f, 0.5f, 0.0f, 0.5f));
        assert_false(combo_fires(once, 0.25f, 0.5f, 0.0f, 0.5f + e));
    }
    /* Looping: the time in the current cycle (1.375 is 0.375 into the second). */
    assert_true(combo_fires(false, 0.25f, 0.5f, 1.0f, 1.375f));
    assert_false(combo_fires(false, 0.25f, 0.5f, 1.0f, 1.75f));
    /* The end of a cycle counts as 1, for loops and for once states past their end. */
    assert_true(combo_fires(false, 1.0f, 1.0f, 0.0f, 1.0f));
    assert_false(combo_fires(false, 1.0f, 1.0f, 0.0f, 1.0f - e));
    assert_true(combo_fires(true, 1.0f, 1.0f, 1.0f, 3.0f));
    /* A window that was passed without the input does not fire later on. */
    assert_false(combo_fires(true, 0.25f, 0.5f, 0.375f, 0.75f));
}

/* A cut with offset 0.4 into the 2 s clip b: the pose is b sampled at 0.8 s;
 * its event at 0.5 s (before the offset) is never reported, the one at 0.9 s
 * is, 0.1 s later. */
static void test_offset(void** state) {
    (void)state;
    for (int fade = 0; fade < 2; ++fade) {
        rig r;
        combo_rig(&r, true, 0.0f, 1.0f, 0.4f, fade ? 0.5f : 0.0f);
        r.params[P_COMBO] = 1.0f;
        sw_animator_event ev[8];
        uint32_t n = rig_update(&r, 0.125f, ev, 8, NULL);
        assert_int_equal(current(&r), 1);
        for (uint32_t i = 0; i < n; ++i)
            assert_int_not_equal(ev[i].kind, SW_ANIMATOR_EVENT_KIND_CLIP);
        sw_animator_state_info info[4];
        const uint32_t ns = sw_animator_states(r.inst, r.bound, info, 4);
        assert_int_equal(ns, fade ? 2u : 1u);
        assert_near(info[ns - 1u].normalized_time, 0.4, 1e-7);
        assert_near(clip_weight(&r, "b"), fade ? 0.0f : 1.0f, 0);
        if (!fade) {
            rig_eval(&r);
            sw_xform4 expect[1];
            const sw_sample_job job = {.clip = clip_named("b"),
                                       .skeleton = g_skel,
                                       .time = 0.8f,
                                       .out = expect,
                                       .out_count = 1};
            assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
            for (uint32_t j = 0; j < 2; ++j) {
                const sw_xform got = sw_pose_get(r.pose, j), want = sw_pose_get(expect, j);
                sw_test_vec3_near(got.t, want.t, 1e-6f);
                sw_test_quat_near(got.r, want.r, 1e-6f);
            }
        }
        n = rig_update(&r, 0.125f, ev, 8, NULL);
        uint32_t late = 0;
        for (uint32_t i = 0; i < n; ++i) {
            if (ev[i].kind != SW_ANIMATOR_EVENT_KIND_CLIP) continue;
            assert_string_equal(ev[i].name, "Late");
            assert_near(ev[i].time, 0.9f, 0);
            ++late;
        }
        assert_int_equal(late, 1);
        rig_close(&r);
    }
}

/* ---- checks of descs and blocks ---- */

typedef struct desc_case {
    bool window;
    float t1, t2, offset;
    bool into_machine;
    sw_animator_hit_desc hit;
    const char* check; /* NULL: valid */
} desc_case;

static void test_desc_checks(void** state) {
    (void)state;
    const desc_case cases[] = {
        {true, 0.2f, 0.6f, 0.3f, false, {NULL, NULL, NULL, NULL}, NULL},
        {true,
         0.6f,
         0.2f,
         0.0f,
         false,
         {NULL, NULL, NULL, NULL},
         "transition time_window 0 <= start <= end <= 1"},
        {true, NAN, 0.5f, 0.0f, false, {NULL, NULL, NULL, NULL}, "transition time_window finite"},
        {true,
         0.1f,
         INFINITY,
         0.0f,
         false,
         {NULL, NULL, NULL, NULL},
         "transition time_window finite"},
        {true,
         -0.1f,
         0.5f,
         0.0f,
         false,
         {NULL, NULL, NULL, NULL},
         "transition time_window 0 <= start <= end <= 1"},
        {true,
         0.5f,
         1.5f,
         0.0f,
         false,
         {NULL, NULL, NULL, NULL},
         "transition time_window 0 <= start <= end <= 1"},
        {false, NAN, -1.0f, 0.0f, false, {NULL, NULL, NULL, NULL}, NULL}, /* no window: ignored */
        {false, 0.0f, 0.0f, 1.5f, false, {NULL, NULL, NULL, NULL}, "transition offset in [0, 1]"},
        {false, 0.0f, 0.0f, NAN, false, {NULL, NULL, NULL, NULL}, "transition offset in [0, 1]"},
        {false,
         0.0f,
         0.0f,
         0.5f,
         true,
         {NULL, NULL, NULL, NULL},
         "transition offset 0 into a machine state"},
        {false, 0.0f, 0.0f, 0.0f, true, {NULL, NULL, NULL, NULL}, NULL},
        {false, 0.0f, 0.0f, 0.0f, false, {"hit", NULL, NULL, NULL}, "hit param_x a float param"},
        {false, 0.0f, 0.0f, 0.0f, false, {NULL, "nope", NULL, NULL}, "hit param_y a float param"},
        {false,
         0.0f,
         0.0f,
         0.0f,
         false,
         {NULL, NULL, "combo", NULL},
         "hit strength_param a float param"},
        {false,
         0.0f,
         0.0f,
         0.0f,
         false,
         {NULL, NULL, NULL, "hit_x"},
         "hit trigger a trigger param"},
        {false, 0.0f, 0.0f, 0.0f, false, {"hit_x", "hit_y", "hit_strength", "hit"}, NULL},
    };
    const sw_animator_state_desc states[3] = {
        {"A", SW_ANIMATOR_MOTION_CLIP, "a", false, 0.0f, NULL},
        {"B", SW_ANIMATOR_MOTION_CLIP, "b", false, 0.0f, NULL},
        {"N", SW_ANIMATOR_MOTION_MACHINE, "Inner", false, 0.0f, NULL},
    };
    const sw_animator_state_desc inner = {"X", SW_ANIMATOR_MOTION_CLIP, "a", false, 0.0f, NULL};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const desc_case* c = &cases[i];
        const sw_animator_transition_desc tr = {.from = "A",
                                                .to = c->into_machine ? "N" : "B",
                                                .has_time_window = c->window,
                                                .time_window = {c->t1, c->t2},
                                                .offset = c->offset};
        const sw_animator_machine_desc machines[2] = {{"M", states, 3, &tr, 1, NULL},
                                                      {"Inner", &inner, 1, NULL, 0, NULL}};
        const sw_animator_layer_desc layer = {.name = "base", .machine = "M"};
        const sw_animator_desc d = {.params = k_params,
                                    .params_count = P_COUNT,
                                    .machines = machines,
                                    .machines_count = 2,
                                    .layers = &layer,
                                    .layers_count = 1,
                                    .hit = c->hit};
        const sw_animator* a = NULL;
        sw_error err;
        memset(&err, 0, sizeof err);
        const sw_result r = sw_animator_create(&d, NULL, &a, &err);
        if (!c->check) {
            if (r != SW_RESULT_OK) fail_msg("case %zu: %s (%s)", i, sw_result_str(r), err.check);
            /* a copy of the block loads */
            const size_t size = sw_animator_size(a);
            void* copy = sw_alloc(NULL, size, 16);
            memcpy(copy, a, size);
            const sw_animator* loaded = NULL;
            assert_int_equal(sw_animator_load(copy, size, &loaded, NULL), SW_RESULT_OK);
            sw_free(NULL, copy, size);
            sw_animator_destroy(a, NULL);
            continue;
        }
        if (r != SW_RESULT_BAD_DATA || !err.check || strcmp(err.check, c->check) != 0) {
            fail_msg("case %zu: %s (%s), expected %s", i, sw_result_str(r),
                     err.check ? err.check : "-", c->check);
        }
        assert_null(a);
    }
}

/* Loading checks the new fields of a block: the format, windows, offsets and
 * the hit parameters' indices and types. */
static void test_block_checks(void** state) {
    (void)state;
    rig r;
    combo_rig(&r, true, 0.25f, 0.5f, 0.4f, 0.0f);
    const size_t size = sw_animator_size(r.def);
    sw_animator* copy = (sw_animator*)sw_alloc(NULL, size, 16);
    const sw_animator* out = NULL;
    for (int k = 0; k < 8; ++k) {
        memcpy(copy, r.def, size);
        sw__anim_transition* t =
            (sw__anim_transition*)(void*)((char*)copy + copy->transitions_offset);
        const char* check = "transition";
        switch (k) {
        case 0:
            copy->format = 0;
            check = "block format";
            break;
        case 1:
            t->window_start = 0.75f;
            break;
        case 2:
            t->window_end = NAN;
            break;
        case 3:
            t->has_window = 2;
            break;
        case 4:
            t->has_window = 0;
            break; /* a window without the flag */
        case 5:
            t->offset = -0.25f;
            break;
        case 6:
            copy->hit_params[0] = P_HIT;
            check = "hit params";
            break;
        default:
            copy->hit_params[3] = P_COUNT;
            check = "hit params";
            break;
        }
        sw_error err;
        memset(&err, 0, sizeof err);
        assert_int_equal(sw_animator_load(copy, size, &out, &err), SW_RESULT_BAD_DATA);
        assert_string_equal(err.check, check);
    }
    memcpy(copy, r.def, size);
    copy->hit_params[3] = P_COMBO; /* a trigger is fine */
    assert_int_equal(sw_animator_load(copy, size, &out, NULL), SW_RESULT_OK);
    sw_free(NULL, copy, size);
    rig_close(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hit_directions), cmocka_unit_test(test_hit_partial_binding),
        cmocka_unit_test(test_time_window),    cmocka_unit_test(test_offset),
        cmocka_unit_test(test_desc_checks),    cmocka_unit_test(test_block_checks),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
