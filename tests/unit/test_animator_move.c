/* Steering and inspecting an animator (issue #19 item 6, issue #20's
 * workbench): the locomotion parameters a definition declares (desc.move,
 * JSON "move") and sw_animator_apply_move clamping to the blend space's
 * members, sw_animator_param_range against spans worked out by hand,
 * sw_animator_root_motion_apply against the rotation written out, and
 * sw_animator_machine_fade against the crossfade's linear ramp. */
#include "animator_rig.h"

#include "runtime/animator/animator_internal.h"
#include "sinew/tools/readers/animator_json.h"

static const sw_skeleton* g_skel;
static const sw_clip* g_clips[3];

/* A one-second clip turning the second joint about X by k + t radians. */
static const sw_clip* make_clip(const char* name, uint32_t k) {
    float r[2][4];
    for (uint32_t i = 0; i < 2; ++i) {
        const sw_quat q = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), (float)k + (float)i);
        memcpy(r[i], &q, sizeof q);
    }
    const sw_clip_track_desc track = {.kind = SW_TRACK_KIND_ROTATION,
                                      .joint = 1,
                                      .keys_count = 2,
                                      .rate = 1.0f,
                                      .values = &r[0][0]};
    const sw_clip_desc d = {
        .name = name, .duration = 1.0f, .joints_count = 2, .tracks = &track, .tracks_count = 1};
    const sw_clip* c = NULL;
    assert_int_equal(sw_clip_create(&d, NULL, &c, NULL), SW_RESULT_OK);
    return c;
}

static int setup(void** state) {
    (void)state;
    const sw_skeleton_joint joints[2] = {
        {"Root", -1, {{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"Arm", 0, {{0, 0.5f, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
    };
    const sw_skeleton_desc sd = {joints, 2};
    assert_int_equal(sw_skeleton_create(&sd, NULL, &g_skel, NULL), SW_RESULT_OK);
    g_clips[0] = make_clip("idle", 0);
    g_clips[1] = make_clip("walk", 1);
    g_clips[2] = make_clip("run", 2);
    return 0;
}

static int teardown(void** state) {
    (void)state;
    for (uint32_t i = 0; i < 3; ++i)
        sw_clip_destroy(g_clips[i], NULL);
    sw_skeleton_destroy(g_skel, NULL);
    return 0;
}

/* speed drives a 1D space (members at 0, 1.5, 4) and a transition at 6;
 * lean drives the y of a 2D space (members at y -1 and 0.5) and nothing
 * else; turn and dir are free floats; level an int in two conditions;
 * flag and go a bool and a trigger. */
static const sw_animator_param_desc k_params[] = {
    {.name = "speed"},
    {.name = "lean"},
    {.name = "turn"},
    {.name = "dir", .value = 2.5f},
    {.name = "level", .type = SW_ANIMATOR_PARAM_TYPE_INT, .value = 3.0f},
    {.name = "flag", .type = SW_ANIMATOR_PARAM_TYPE_BOOL},
    {.name = "go", .type = SW_ANIMATOR_PARAM_TYPE_TRIGGER},
};
static const sw_animator_member_desc k_loco[] = {{"idle", 0, 0}, {"walk", 1.5f, 0}, {"run", 4, 0}};
static const sw_animator_member_desc k_lean[] = {{"idle", 0, -1}, {"walk", 1, 0.5f}};
static const sw_animator_blend_space_desc k_spaces[] = {
    {.name = "loco", .param_x = "speed", .members = k_loco, .members_count = 3},
    {.name = "lean", .param_x = "dir", .param_y = "lean", .members = k_lean, .members_count = 2},
};
static const sw_animator_state_desc k_states[] = {
    {.name = "Loco", .motion = SW_ANIMATOR_MOTION_BLEND_SPACE, .target = "loco"},
    {.name = "Run", .motion = SW_ANIMATOR_MOTION_CLIP, .target = "run"},
    {.name = "Lean", .motion = SW_ANIMATOR_MOTION_BLEND_SPACE, .target = "lean"},
};
static const sw_animator_condition_desc k_fast = {"speed", SW_ANIMATOR_OP_GREATER, 6.0f};
static const sw_animator_condition_desc k_levels[] = {{"level", SW_ANIMATOR_OP_GREATER, 5.0f},
                                                      {"level", SW_ANIMATOR_OP_LESS, 2.0f}};
static const sw_animator_condition_desc k_go = {"go", SW_ANIMATOR_OP_TRIGGER, 0.0f};
static const sw_animator_transition_desc k_transitions[] = {
    {.from = "Loco", .to = "Run", .conditions = &k_fast, .conditions_count = 1, .duration = 0.4f},
    {.from = "Run", .to = "Loco", .conditions = k_levels, .conditions_count = 2, .duration = 0.2f},
    {.from = "Loco", .to = "Run", .conditions = &k_go, .conditions_count = 1, .duration = 0.4f},
};
static const sw_animator_machine_desc k_machines[] = {
    {.name = "Base",
     .states = k_states,
     .states_count = 2,
     .transitions = k_transitions,
     .transitions_count = 3},
    {.name = "Side", .states = &k_states[2], .states_count = 1},
};
static const sw_animator_layer_desc k_layers[] = {
    {.name = "base", .machine = "Base"},
    {.name = "side", .machine = "Side", .weight = 0.5f},
};

static sw_animator_desc make_desc(void) {
    const sw_animator_desc d = {.params = k_params,
                                .params_count = 7,
                                .blend_spaces = k_spaces,
                                .blend_spaces_count = 2,
                                .machines = k_machines,
                                .machines_count = 2,
                                .layers = k_layers,
                                .layers_count = 2,
                                .move = {.speed_param = "speed", .turn_param = "turn"}};
    return d;
}

static void test_param_range(void** state) {
    (void)state;
    const sw_animator_desc d = make_desc();
    rig r;
    rig_open_with(&r, &d, g_skel, g_clips, 3);
    /* expected spans, worked out from the desc above */
    static const float expect[7][2] = {
        {0.0f, 6.0f},  /* speed: members 0..4, condition 6, default 0 */
        {-1.0f, 0.5f}, /* lean: members' y */
        {0.0f, 1.0f},  /* turn: nothing reads it: [0, 1] with the default 0 */
        {0.0f, 2.5f},  /* dir: members' x 0 and 1, default 2.5 */
        {2.0f, 5.0f},  /* level: conditions 5 and 2, default 3 */
        {0.0f, 1.0f},  /* flag */
        {0.0f, 1.0f},  /* go */
    };
    for (uint32_t p = 0; p < 7; ++p) {
        float lo = -99.0f, hi = -99.0f;
        assert_true(sw_animator_param_range(r.def, p, &lo, &hi));
        assert_float_equal(lo, expect[p][0], 0.0f);
        assert_float_equal(hi, expect[p][1], 0.0f);
    }
    float lo = 7.0f, hi = 7.0f;
    assert_false(sw_animator_param_range(r.def, 7, &lo, &hi));
    assert_false(sw_animator_param_range(NULL, 0, &lo, &hi));
    assert_false(sw_animator_param_range(r.def, 0, NULL, &hi));
    assert_true(lo == 7.0f && hi == 7.0f);
    rig_close(&r);
}

static void test_apply_move(void** state) {
    (void)state;
    const sw_animator_desc d = make_desc();
    rig r;
    rig_open_with(&r, &d, g_skel, g_clips, 3);
    assert_int_equal(sw_animator_move_param(r.def, 0), 0);
    assert_int_equal(sw_animator_move_param(r.def, 1), -1);
    assert_int_equal(sw_animator_move_param(r.def, 2), 2);
    assert_int_equal(sw_animator_move_param(r.def, 3), -1);
    assert_int_equal(sw_animator_move_param(NULL, 0), -1);
    /* speed within the members (0..4) as given, beyond them clamped; turn
     * (no blend space) as given, either sign; lean untouched */
    r.params[1] = 0.25f;
    sw_animator_move mv = {.speed = 2.0f, .strafe = 9.0f, .turn = -1.5f};
    assert_int_equal(sw_animator_apply_move(r.def, &mv, r.params, 7), 2);
    assert_float_equal(r.params[0], 2.0f, 0.0f);
    assert_float_equal(r.params[2], -1.5f, 0.0f);
    assert_float_equal(r.params[1], 0.25f, 0.0f);
    mv = (sw_animator_move){.speed = 9.0f, .turn = 3.0f};
    sw_animator_apply_move(r.def, &mv, r.params, 7);
    assert_float_equal(r.params[0], 4.0f, 0.0f);
    mv.speed = -2.0f;
    sw_animator_apply_move(r.def, &mv, r.params, 7);
    assert_float_equal(r.params[0], 0.0f, 0.0f);
    /* refused: nothing written */
    mv = (sw_animator_move){.speed = NAN};
    assert_int_equal(sw_animator_apply_move(r.def, &mv, r.params, 7), 0);
    assert_float_equal(r.params[0], 0.0f, 0.0f);
    mv.speed = 1.0f;
    assert_int_equal(sw_animator_apply_move(r.def, &mv, r.params, 6), 0);
    assert_int_equal(sw_animator_apply_move(NULL, &mv, r.params, 7), 0);
    assert_int_equal(sw_animator_apply_move(r.def, NULL, r.params, 7), 0);
    assert_float_equal(r.params[0], 0.0f, 0.0f);
    /* A stored copy keeps the declaration; a corrupted one fails to load. */
    const size_t size = sw_animator_size(r.def);
    void* copy = aligned_alloc(16, size);
    memcpy(copy, r.def, size);
    const sw_animator* loaded = NULL;
    sw_error err;
    assert_int_equal(sw_animator_load(copy, size, &loaded, &err), SW_RESULT_OK);
    assert_int_equal(sw_animator_move_param(loaded, 2), 2);
    ((sw_animator*)copy)->move_params[1] = 8u; /* parameter 7: out of range */
    assert_int_equal(sw_animator_load(copy, size, &loaded, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "move params");
    ((sw_animator*)copy)->move_params[1] = 5u; /* parameter 4, an int */
    assert_int_equal(sw_animator_load(copy, size, &loaded, &err), SW_RESULT_BAD_DATA);
    free(copy);
    rig_close(&r);
    /* Desc checks: unknown or non-float parameters. */
    sw_animator_desc bad = make_desc();
    bad.move.strafe_param = "nope";
    const sw_animator* a = NULL;
    assert_int_equal(sw_animator_create(&bad, NULL, &a, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "move strafe_param a float param");
    bad.move.strafe_param = "level";
    assert_int_equal(sw_animator_create(&bad, NULL, &a, &err), SW_RESULT_BAD_DATA);
    /* No declaration: nothing written. */
    bad.move = (sw_animator_move_desc){0};
    assert_int_equal(sw_animator_create(&bad, NULL, &a, &err), SW_RESULT_OK);
    float params[7] = {0};
    mv = (sw_animator_move){.speed = 1.0f};
    assert_int_equal(sw_animator_apply_move(a, &mv, params, 7), 0);
    assert_float_equal(params[0], 0.0f, 0.0f);
    sw_animator_destroy(a, NULL);
}

static void test_move_json(void** state) {
    (void)state;
    static const char text[] =
        "{\"params\": [{\"name\": \"v\"}, {\"name\": \"w\"}],"
        " \"blend_spaces\": [{\"name\": \"s\", \"x\": \"v\", \"members\": [{\"clip\": \"idle\","
        " \"x\": 0}, {\"clip\": \"walk\", \"x\": 1.4}]}],"
        " \"machines\": [{\"name\": \"M\", \"states\": [{\"name\": \"A\", \"blend_space\": "
        "\"s\"}]}],"
        " \"layers\": [{\"name\": \"L\", \"machine\": \"M\"}],"
        " \"move\": {\"speed\": \"v\", \"turn\": \"w\"}}";
    sw_animator_json aj;
    sw_error err;
    assert_int_equal(sw_animator_json_read(text, sizeof text - 1, NULL, &aj, &err), SW_RESULT_OK);
    assert_int_equal(sw_animator_move_param(aj.animator, 0), 0);
    assert_int_equal(sw_animator_move_param(aj.animator, 1), -1);
    assert_int_equal(sw_animator_move_param(aj.animator, 2), 1);
    float params[2] = {0, 0};
    const sw_animator_move mv = {.speed = 3.0f, .turn = 0.5f};
    assert_int_equal(sw_animator_apply_move(aj.animator, &mv, params, 2), 2);
    assert_float_equal(params[0], 1.4f, 0.0f);
    assert_float_equal(params[1], 0.5f, 0.0f);
    sw_animator_json_free(&aj, NULL);
    /* A typo in "move" fails loudly. */
    static const char typo[] =
        "{\"params\": [{\"name\": \"v\"}], \"machines\": [{\"name\": \"M\", \"states\":"
        " [{\"name\": \"A\", \"clip\": \"idle\"}]}], \"layers\": [{\"name\": \"L\","
        " \"machine\": \"M\"}], \"move\": {\"sped\": \"v\"}}";
    assert_int_equal(sw_animator_json_read(typo, sizeof typo - 1, NULL, &aj, &err),
                     SW_RESULT_PARSE);
}

static void test_root_motion_apply(void** state) {
    (void)state;
    /* Facing +X (heading pi/2): a step forward (+Z in the character frame)
     * goes along world +X; a step to its +X goes along world -Z. */
    sw_vec3 pos = {1.0f, 0.7f, 2.0f};
    float heading = 1.5707963f;
    sw_animator_root_motion rm = {{0.0f, 0.0f, 0.5f}, 0.25f};
    sw_animator_root_motion_apply(&rm, &pos, &heading);
    sw_test_vec3_near(pos, sw_vec3_make(1.5f, 0.7f, 2.0f), 1e-6f);
    assert_float_equal(heading, 1.5707963f + 0.25f, 1e-6f);
    heading = 1.5707963f;
    rm = (sw_animator_root_motion){{0.3f, 0.0f, 0.0f}, 0.0f};
    sw_animator_root_motion_apply(&rm, &pos, &heading);
    sw_test_vec3_near(pos, sw_vec3_make(1.5f, 0.7f, 1.7f), 1e-6f);
    /* A closed loop of four quarter turns comes back to its start. */
    pos = sw_vec3_make(0, 0, 0);
    heading = 0.3f;
    rm = (sw_animator_root_motion){{0.0f, 0.0f, 1.0f}, 1.5707963f};
    for (int i = 0; i < 4; ++i)
        sw_animator_root_motion_apply(&rm, &pos, &heading);
    sw_test_vec3_near(pos, sw_vec3_make(0, 0, 0), 1e-5f);
    sw_animator_root_motion_apply(NULL, &pos, &heading);
    sw_animator_root_motion_apply(&rm, NULL, &heading);
}

static void test_machine_fade(void** state) {
    (void)state;
    const sw_animator_desc d = make_desc();
    rig r;
    rig_open_with(&r, &d, g_skel, g_clips, 3);
    sw_animator_fade_info f;
    rig_update(&r, 0.1f, NULL, 0, NULL);
    assert_false(sw_animator_machine_fade(r.inst, r.bound, 0, &f));
    r.params[6] = 1.0f; /* go: Loco -> Run over 0.4 s */
    rig_update(&r, 0.05f, NULL, 0, NULL);
    for (int i = 1; i <= 3; ++i) {
        rig_update(&r, 0.1f, NULL, 0, NULL);
        rig_eval(&r); /* inspection between update and evaluate is unchanged by evaluate */
        assert_true(sw_animator_machine_fade(r.inst, r.bound, 0, &f));
        assert_int_equal(f.from, 0);
        assert_int_equal(f.to, 1);
        assert_float_equal(f.duration, 0.4f, 0.0f);
        assert_float_equal(f.elapsed, 0.1f * (float)i, 1e-6f);
        assert_float_equal(f.progress, 0.25f * (float)i, 1e-6f);
        /* the progress is the entering state's weight */
        sw_animator_state_info s[4];
        const uint32_t n = sw_animator_states(r.inst, r.bound, s, 4);
        for (uint32_t k = 0; k < n; ++k)
            if (s[k].state == 1) assert_float_equal(s[k].weight, f.progress, 1e-6f);
    }
    rig_update(&r, 0.2f, NULL, 0, NULL);
    assert_false(sw_animator_machine_fade(r.inst, r.bound, 0, &f));
    assert_false(sw_animator_machine_fade(r.inst, r.bound, 1, &f)); /* one state */
    assert_false(sw_animator_machine_fade(r.inst, r.bound, 2, &f)); /* out of range */
    assert_false(sw_animator_machine_fade(NULL, r.bound, 0, &f));
    assert_false(sw_animator_machine_fade(r.inst, r.bound, 0, NULL));
    rig_close(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_param_range),  cmocka_unit_test(test_apply_move),
        cmocka_unit_test(test_move_json),    cmocka_unit_test(test_root_motion_apply),
        cmocka_unit_test(test_machine_fade),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
