/* Animator JSON definitions: the same block as the C desc, schema errors
 * (unknown keys, wrong types, missing fields), every prefix of a valid file,
 * examples/robot.json over RobotExpressive (phases, cut, finished, crossfade
 * back), the play verb (JSON output, identical bytes on two runs, bake), and
 * the enum word lists of docs/animator.md against the runtime's. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* mkstemps */
#include <sys/wait.h>
#include <unistd.h>

#include "robot_fixture.h"

#include "sinew/tools/readers/bvh.h"
#include "sinew/tools/readers/gltf.h"

#define EXAMPLES SINEW_TEST_DATA "/../../examples"

static const char k_small[] =
    "{\n"
    "  \"params\": [{\"name\": \"speed\"}, {\"name\": \"hit\", \"type\": \"trigger\"},\n"
    "             {\"name\": \"on\", \"type\": \"bool\", \"default\": true},\n"
    "             {\"name\": \"n\", \"type\": \"int\", \"default\": 3}],\n"
    "  \"blend_spaces\": [{\"name\": \"loco\", \"x\": \"speed\", \"y\": \"n\",\n"
    "     \"members\": [{\"clip\": \"a\", \"x\": 0, \"y\": 0}, {\"clip\": \"b\", \"x\": 1.5, "
    "\"y\": 2}],\n"
    "     \"sync_markers\": [\"L\", \"R\"], \"directional\": true}],\n"
    "  \"machines\": [\n"
    "    {\"name\": \"M\", \"entry\": \"Loco\", \"states\": [\n"
    "       {\"name\": \"Hit\", \"clip\": \"c\", \"once\": true, \"speed\": 1.5},\n"
    "       {\"name\": \"Loco\", \"blend_space\": \"loco\", \"speed_param\": \"speed\"},\n"
    "       {\"name\": \"Sub\", \"machine\": \"N\"}],\n"
    "     \"transitions\": [\n"
    "       {\"from\": \"*\", \"to\": \"Hit\", \"conditions\": [{\"param\": \"hit\", \"op\": "
    "\"trigger\"}],\n"
    "        \"to_self\": true, \"mode\": \"inertialize\", \"duration\": 0.2},\n"
    "       {\"from\": \"Hit\", \"to\": \"Loco\", \"exit_time\": 0.9, \"duration\": 0.25,\n"
    "        \"time_window\": [0.25, 0.75], \"offset\": 0.5,\n"
    "        \"interrupt\": \"next\", \"conditions\": [{\"param\": \"speed\", \"op\": \">\", "
    "\"value\": 1},\n"
    "          {\"param\": \"on\", \"op\": \"false\"}, {\"param\": \"n\", \"op\": \"!=\", "
    "\"value\": 2}]}]},\n"
    "    {\"name\": \"N\", \"states\": [{\"name\": \"X\", \"clip\": \"a\"}]}],\n"
    "  \"layers\": [{\"name\": \"base\", \"machine\": \"M\"},\n"
    "             {\"name\": \"top\", \"machine\": \"T\", \"mode\": \"additive\", \"weight\": "
    "0.5,\n"
    "              \"weight_param\": \"speed\", \"reference\": \"rest_pose\",\n"
    "              \"mask\": [{\"joint\": \"Spine\", \"weight\": 0.5}, {\"joint\": \"Arm\"}]}],\n"
    "  \"root_motion_joint\": \"Hips\",\n"
    "  \"event_weight_threshold\": 0.25,\n"
    "  \"hit\": {\"x\": \"speed\", \"trigger\": \"hit\"}\n"
    "}\n";

/* The same definition as k_small, with a machine T added below for the layer. */
static const char k_small_t[] =
    "    {\"name\": \"T\", \"states\": [{\"name\": \"Y\", \"clip\": \"b\"}]}],\n";

static char* small_text(void) {
    /* insert machine T before the end of the machines array */
    const char* anchor =
        "    {\"name\": \"N\", \"states\": [{\"name\": \"X\", \"clip\": \"a\"}]}],\n";
    const char* at = strstr(k_small, anchor);
    assert_non_null(at);
    size_t head = (size_t)(at - k_small);
    char* out = (char*)malloc(sizeof k_small + sizeof k_small_t + 8);
    memcpy(out, k_small, head);
    const char* n_open =
        "    {\"name\": \"N\", \"states\": [{\"name\": \"X\", \"clip\": \"a\"}]},\n";
    strcpy(out + head, n_open);
    strcat(out, k_small_t);
    strcat(out, at + strlen(anchor));
    return out;
}

static void test_json_matches_c_desc(void** state) {
    (void)state;
    char* text = small_text();
    sw_animator_json aj;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_animator_json_read(text, strlen(text), NULL, &aj, &err);
    if (r != SW_RESULT_OK) {
        fail_msg("%s (%s at %llu)", sw_result_str(r), err.check, (unsigned long long)err.offset);
    }
    const sw_animator_param_desc params[] = {
        {"speed", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f},
        {"hit", SW_ANIMATOR_PARAM_TYPE_TRIGGER, 0.0f},
        {"on", SW_ANIMATOR_PARAM_TYPE_BOOL, 1.0f},
        {"n", SW_ANIMATOR_PARAM_TYPE_INT, 3.0f},
    };
    const sw_animator_member_desc members[] = {{"a", 0.0f, 0.0f}, {"b", 1.5f, 2.0f}};
    const char* const markers[] = {"L", "R"};
    const sw_animator_blend_space_desc spaces[] = {
        {"loco", "speed", "n", members, 2, markers, 2, true}};
    const sw_animator_state_desc m_states[] = {
        {"Hit", SW_ANIMATOR_MOTION_CLIP, "c", true, 1.5f, NULL},
        {"Loco", SW_ANIMATOR_MOTION_BLEND_SPACE, "loco", false, 0.0f, "speed"},
        {"Sub", SW_ANIMATOR_MOTION_MACHINE, "N", false, 0.0f, NULL},
    };
    const sw_animator_condition_desc c0[] = {{"hit", SW_ANIMATOR_OP_TRIGGER, 0.0f}};
    const sw_animator_condition_desc c1[] = {{"speed", SW_ANIMATOR_OP_GREATER, 1.0f},
                                             {"on", SW_ANIMATOR_OP_FALSE, 0.0f},
                                             {"n", SW_ANIMATOR_OP_NOT_EQUAL, 2.0f}};
    const sw_animator_transition_desc trans[] = {
        {.from = "*",
         .to = "Hit",
         .conditions = c0,
         .conditions_count = 1,
         .duration = 0.2f,
         .mode = SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE,
         .to_self = true},
        {.from = "Hit",
         .to = "Loco",
         .conditions = c1,
         .conditions_count = 3,
         .has_exit_time = true,
         .exit_time = 0.9f,
         .duration = 0.25f,
         .mode = SW_ANIMATOR_TRANSITION_MODE_CROSSFADE,
         .interrupt = SW_ANIMATOR_INTERRUPT_NEXT,
         .has_time_window = true,
         .time_window = {0.25f, 0.75f},
         .offset = 0.5f},
    };
    const sw_animator_state_desc n_states[] = {{"X", SW_ANIMATOR_MOTION_CLIP, "a", false, 0, NULL}};
    const sw_animator_state_desc t_states[] = {{"Y", SW_ANIMATOR_MOTION_CLIP, "b", false, 0, NULL}};
    const sw_animator_machine_desc machines[] = {
        {"M", m_states, 3, trans, 2, "Loco"},
        {"N", n_states, 1, NULL, 0, NULL},
        {"T", t_states, 1, NULL, 0, NULL},
    };
    const sw_animator_mask_desc mask[] = {{"Spine", 0.5f}, {"Arm", 1.0f}};
    const sw_animator_layer_desc layers[] = {
        {"base", "M", SW_ANIMATOR_LAYER_MODE_OVERRIDE, 0.0f, NULL, NULL, 0,
         SW_ANIMATOR_REFERENCE_FIRST_FRAME},
        {"top", "T", SW_ANIMATOR_LAYER_MODE_ADDITIVE, 0.5f, "speed", mask, 2,
         SW_ANIMATOR_REFERENCE_REST_POSE},
    };
    const sw_animator_desc d = {.params = params,
                                .params_count = 4,
                                .blend_spaces = spaces,
                                .blend_spaces_count = 1,
                                .machines = machines,
                                .machines_count = 3,
                                .layers = layers,
                                .layers_count = 2,
                                .root_motion_joint = "Hips",
                                .event_weight_threshold = 0.25f,
                                .hit = {.param_x = "speed", .trigger = "hit"}};
    const sw_animator* c = NULL;
    assert_int_equal(sw_animator_create(&d, NULL, &c, NULL), SW_RESULT_OK);
    assert_int_equal(sw_animator_size(aj.animator), sw_animator_size(c));
    assert_memory_equal(aj.animator, c, sw_animator_size(c));
    sw_animator_destroy(c, NULL);
    sw_animator_json_free(&aj, NULL);
    sw_animator_json_free(&aj, NULL); /* zeroed: a no-op */

    /* every prefix fails cleanly (the full text succeeds) */
    size_t n = strlen(text);
    for (size_t k = 0; k < n; ++k) {
        r = sw_animator_json_read(text, k, NULL, &aj, &err);
        if (r == SW_RESULT_OK) {
            /* only whitespace may be cut off the end */
            for (size_t i = k; i < n; ++i)
                assert_true(strchr(" \n\t\r", text[i]) != NULL);
            sw_animator_json_free(&aj, NULL);
        } else {
            assert_null(aj.animator);
        }
    }
    free(text);
}

typedef struct json_case {
    const char* text;
    sw_result expect;
    const char* check; /* NULL: any */
} json_case;

static void test_json_errors(void** state) {
    (void)state;
#define MACHINE                                                                                    \
    "\"machines\": [{\"name\": \"M\", \"states\": [{\"name\": \"S\", \"clip\": \"a\"}]}]"
#define LAYER "\"layers\": [{\"name\": \"L\", \"machine\": \"M\"}]"
/* A machine with one transition S -> S carrying the given keys. */
#define TRANSITION(keys)                                                                           \
    "\"machines\": [{\"name\": \"M\", \"states\": [{\"name\": \"S\", \"clip\": \"a\"}], "          \
    "\"transitions\": [{\"from\": \"S\", \"to\": \"S\", " keys "}]}]"
    const json_case cases[] = {
        {"{" MACHINE ", " LAYER "}", SW_RESULT_OK, NULL},
        {"{" MACHINE ", " LAYER ", \"extra\": 1}", SW_RESULT_PARSE, "known key"},
        {"[1]", SW_RESULT_PARSE, NULL},
        {"{" MACHINE ", " LAYER ", \"params\": 3}", SW_RESULT_PARSE, "params"},
        {"{" MACHINE ", " LAYER ", \"params\": [{\"name\": 3}]}", SW_RESULT_PARSE, "param name"},
        {"{" MACHINE ", " LAYER ", \"params\": [{\"type\": \"float\"}]}", SW_RESULT_PARSE,
         "param name"},
        {"{" MACHINE ", " LAYER ", \"params\": [{\"name\": \"p\", \"type\": \"double\"}]}",
         SW_RESULT_PARSE, "param type"},
        {"{" MACHINE ", " LAYER ", \"params\": [{\"name\": \"p\", \"default\": \"x\"}]}",
         SW_RESULT_PARSE, "param default"},
        {"{" MACHINE ", " LAYER ", \"params\": [{\"name\": \"p\", \"typo\": 1}]}", SW_RESULT_PARSE,
         "known key"},
        {"{\"machines\": [{\"name\": \"M\", \"states\": [{\"name\": \"S\"}]}], " LAYER "}",
         SW_RESULT_PARSE, "state has one of clip, blend_space, machine"},
        {"{\"machines\": [{\"name\": \"M\", \"states\": [{\"name\": \"S\", \"clip\": \"a\", "
         "\"machine\": \"M\"}]}], " LAYER "}",
         SW_RESULT_PARSE, "state has one of clip, blend_space, machine"},
        {"{\"machines\": [{\"name\": \"M\", \"states\": [{\"name\": \"S\", \"clip\": \"a\", "
         "\"once\": 1}]}], " LAYER "}",
         SW_RESULT_PARSE, "state once"},
        {"{\"machines\": [{\"name\": \"M\"}], " LAYER "}", SW_RESULT_PARSE, "machine states"},
        {"{\"machines\": [{\"name\": \"M\", \"states\": [{\"name\": \"S\", \"clip\": \"a\"}], "
         "\"transitions\": [{\"to\": \"S\", \"mode\": \"blend\"}]}], " LAYER "}",
         SW_RESULT_PARSE, "transition mode"},
        {"{\"machines\": [{\"name\": \"M\", \"states\": [{\"name\": \"S\", \"clip\": \"a\"}], "
         "\"transitions\": [{\"to\": \"S\", \"conditions\": [{\"param\": \"p\", \"op\": "
         "\">=\"}]}]}], " LAYER ", \"params\": [{\"name\": \"p\"}]}",
         SW_RESULT_PARSE, "condition op"},
        {"{\"machines\": [{\"name\": \"M\", \"states\": [{\"name\": \"S\", \"clip\": \"a\"}], "
         "\"transitions\": [{\"to\": \"Nope\"}]}], " LAYER "}",
         SW_RESULT_BAD_DATA, "transition to known"},
        {"{" MACHINE ", \"layers\": [{\"name\": \"L\", \"machine\": \"M\", \"mode\": \"mix\"}]}",
         SW_RESULT_PARSE, "layer mode"},
        {"{" MACHINE ", \"layers\": [{\"name\": \"L\"}]}", SW_RESULT_PARSE, "layer machine"},
        {"{" MACHINE ", " LAYER ", \"event_weight_threshold\": true}", SW_RESULT_PARSE,
         "event_weight_threshold"},
        {"{" MACHINE ", " LAYER ", \"idle\": {\"channels\": [{\"param\": \"q\", \"speed\": [1, "
         "2], \"hold\": [0, 1]}]}}",
         SW_RESULT_PARSE, "idle param known"},
        {"{" MACHINE ", " LAYER ", \"params\": [{\"name\": \"q\"}], \"idle\": {\"channels\": "
         "[{\"param\": \"q\", \"speed\": [1], \"hold\": [0, 1]}]}}",
         SW_RESULT_PARSE, "idle speed [min, max]"},
        {"{" MACHINE ", " LAYER ", \"params\": [{\"name\": \"q\"}], \"idle\": {\"channels\": "
         "[{\"param\": \"q\", \"min\": 2, \"max\": 1, \"speed\": [1, 2], \"hold\": [0, 1]}]}}",
         SW_RESULT_PARSE, "idle channel ranges"},
        {"{" MACHINE ", " LAYER ", \"root_motion_joint\": \"\\u0000\"}", SW_RESULT_PARSE,
         "root_motion_joint"},
        {"{\"layers\": []}", SW_RESULT_BAD_DATA, "has machines"},
        {"{" TRANSITION("\"time_window\": [0.6, 0.2]") ", " LAYER "}", SW_RESULT_BAD_DATA,
         "transition time_window 0 <= start <= end <= 1"},
        {"{" TRANSITION("\"time_window\": [nan, 0.5]") ", " LAYER "}", SW_RESULT_PARSE,
         "transition time_window [start, end]"},
        {"{" TRANSITION("\"time_window\": [0.5]") ", " LAYER "}", SW_RESULT_PARSE,
         "transition time_window [start, end]"},
        {"{" TRANSITION("\"time_window\": [0, 1e39]") ", " LAYER "}", SW_RESULT_PARSE,
         "transition time_window [start, end]"},
        {"{" TRANSITION("\"time_window\": null") ", " LAYER "}", SW_RESULT_OK, NULL},
        {"{" TRANSITION("\"offset\": \"x\"") ", " LAYER "}", SW_RESULT_PARSE, "transition offset"},
        {"{" TRANSITION("\"offset\": 2") ", " LAYER "}", SW_RESULT_BAD_DATA,
         "transition offset in [0, 1]"},
        {"{" MACHINE ", " LAYER ", \"hit\": 3}", SW_RESULT_PARSE, "hit is an object"},
        {"{" MACHINE ", " LAYER ", \"hit\": {\"z\": \"p\"}}", SW_RESULT_PARSE, "known key"},
        {"{" MACHINE ", " LAYER ", \"hit\": {\"x\": 1}}", SW_RESULT_PARSE, "hit x parameter"},
        {"{" MACHINE ", " LAYER ", \"params\": [{\"name\": \"p\"}], \"hit\": {\"trigger\": "
         "\"p\"}}",
         SW_RESULT_BAD_DATA, "hit trigger a trigger param"},
    };
#undef MACHINE
#undef LAYER
#undef TRANSITION
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        sw_animator_json aj;
        sw_error err;
        memset(&err, 0, sizeof err);
        sw_result r = sw_animator_json_read(cases[i].text, strlen(cases[i].text), NULL, &aj, &err);
        if (r != cases[i].expect ||
            (cases[i].check && (!err.check || strcmp(err.check, cases[i].check) != 0))) {
            fail_msg("case %zu: %s (check %s), expected %s (%s)", i, sw_result_str(r),
                     err.check ? err.check : "-", sw_result_str(cases[i].expect),
                     cases[i].check ? cases[i].check : "-");
        }
        if (r == SW_RESULT_OK)
            sw_animator_json_free(&aj, NULL);
        else
            assert_null(aj.animator);
    }
    sw_animator_json aj;
    assert_int_equal(sw_animator_json_read(NULL, 0, NULL, &aj, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_json_read_file("/nonexistent/x.json", NULL, &aj, NULL),
                     SW_RESULT_IO);
}

/* Animator JSON goes through the same parser: nesting 50,000 deep (3.2 s in
 * `play` with the old parser) is refused at the depth limit, time is taken
 * only up to the bracket that goes too deep. */
static void test_json_nesting_refused(void** state) {
    (void)state;
    enum { DEEP = 50000 };
    char* t = (char*)malloc(2 * DEEP + 16);
    strcpy(t, "{\"params\":");
    size_t n = strlen(t);
    memset(t + n, '[', DEEP);
    memset(t + n + DEEP, ']', DEEP);
    n += 2 * DEEP;
    t[n++] = '}';
    sw_animator_json out;
    sw_error e;
    assert_int_equal(sw_animator_json_read(t, n, NULL, &out, &e), SW_RESULT_LIMIT);
    assert_string_equal(e.check, "json nesting depth (at most 256)");
    assert_int_equal(e.offset, strlen("{\"params\":") + 255);
    free(t);
}

/* ---- examples/robot.json over RobotExpressive ---- */

static void test_robot_example(void** state) {
    (void)state;
    robot_fixture rf;
    if (!robot_fixture_open(&rf)) return;
    assert_int_equal(rf.aj.idle_count, 1);
    const sw_animator* def = rf.aj.animator;
    const sw_skeleton* skel = rf.asset.skeleton;
    const sw_animator_bound* bound = rf.bound;
    size_t is = sw_animator_instance_size(bound), ss = sw_animator_scratch_size(bound);
    void* imem = aligned_alloc(16, (is + 15u) & ~(size_t)15u);
    void* scratch = aligned_alloc(16, (ss + 15u) & ~(size_t)15u);
    sw_xform4* pose = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * skel->packets_count);
    sw_animator_instance* inst = NULL;
    assert_int_equal(sw_animator_instance_init(imem, is, bound, &inst), SW_RESULT_OK);
    float params[8];
    assert_int_equal(sw_animator_params_reset(def, params, 8), SW_RESULT_OK);
    const int speed = sw_animator_find_param(def, "speed");
    const int punch = sw_animator_find_param(def, "punch");
    const uint32_t punch_state = (uint32_t)sw_animator_find_state(def, "Punch");
    const uint32_t loco_state = (uint32_t)sw_animator_find_state(def, "Locomotion");
    const float dt = 1.0f / 30.0f;
    int finished = 0, cut_frame = -1, finish_frame = -1;
    float prev_loco = 0.0f;
    for (int f = 0; f < 180; ++f) {
        float t = (float)f * dt;
        params[speed] = t < 1.0f ? 0.75f : t < 2.0f ? 2.75f : 4.0f;
        if (f == 90) params[punch] = 1.0f;
        sw_animator_event ev[16];
        uint32_t n = 0;
        sw_animator_root_motion rm;
        assert_int_equal(sw_animator_update(inst, bound, params, 8, dt, ev, 16, &n, &rm),
                         SW_RESULT_OK);
        assert_int_equal(sw_animator_evaluate(inst, bound, scratch, ss, pose, skel->packets_count),
                         SW_RESULT_OK);
        for (uint32_t k = 0; k < n; ++k) {
            if (ev[k].kind == SW_ANIMATOR_EVENT_KIND_FINISHED && ev[k].state == punch_state) {
                ++finished;
                finish_frame = f;
            }
        }
        if (f == 90) {
            cut_frame = f;
            /* the cut happens in this very update: Punch alone in the base layer */
            assert_int_equal(sw_animator_current_state(inst, bound, 0), punch_state);
            sw_animator_state_info info[8];
            uint32_t ns = sw_animator_states(inst, bound, info, 8);
            for (uint32_t k = 0; k < ns; ++k) {
                if (info[k].machine == 0) assert_int_equal(info[k].state, punch_state);
            }
        }
        /* the locomotion members share a phase; the base layer's weights sum to 1 */
        sw_animator_contribution c[16];
        uint32_t nc = sw_animator_contributions(inst, bound, c, 16);
        float base = 0.0f, loco = 0.0f, phase = -1.0f;
        for (uint32_t k = 0; k < nc; ++k) {
            if (c[k].layer != 0) continue;
            base += c[k].weight;
            if (c[k].state != loco_state) continue;
            loco += c[k].weight;
            if (phase < 0.0f) phase = c[k].phase;
            assert_near(c[k].phase, phase, 1e-5);
        }
        assert_near(base, 1.0f, 1e-5);
        if (finish_frame >= 0 && f > finish_frame) {
            /* crossfade back: monotonic, at most dt / 0.25 per frame */
            assert_true(loco >= prev_loco - 1e-6f);
            assert_true(loco - prev_loco <= dt / 0.25f + 1e-5f);
        }
        prev_loco = loco;
        for (uint32_t p = 0; p < skel->packets_count; ++p) {
            for (int l = 0; l < 4; ++l)
                assert_true(isfinite(pose[p].rw[l]));
        }
    }
    assert_int_equal(cut_frame, 90);
    assert_int_equal(finished, 1);
    /* Punch lasts 0.8333 s = 25 frames */
    assert_true(finish_frame >= 114 && finish_frame <= 116);
    assert_near(prev_loco, 1.0f, 1e-6);
    free(pose);
    free(scratch);
    free(imem);
    robot_fixture_free(&rf);
}

/* ---- the play verb ---- */

static char* run_cli(const char* args, int* status, size_t* size) {
    char cmd[2048];
    char out[] = "/tmp/sinew_play_XXXXXX";
    int fd = mkstemp(out);
    assert_true(fd >= 0);
    close(fd);
    snprintf(cmd, sizeof cmd, "%s %s > %s 2>/dev/null", SINEW_CLI_PATH, args, out);
    *status = system(cmd);
    char* text = (char*)sw_test_read_file(out, size);
    remove(out);
    return text;
}

/* The baked archive keeps the file's meshes and their skins: as many meshes
 * as the glTF reader builds from the file, bound to the baked skeleton, each
 * block (vertices, indices, joints, weights, palette, inverse binds) equal
 * byte for byte (issue #17: 46 joints and 0 meshes before). */
static void assert_play_bake_keeps_meshes(const sw_archive* ar, const char* source) {
    sw_scene scene;
    assert_int_equal(sw_gltf_read_file(source, NULL, NULL, &scene, NULL), SW_RESULT_OK);
    assert_true(scene.meshes_count > 0);
    assert_int_equal(ar->meshes_count, scene.meshes_count);
    assert_int_equal(sw_archive_skeleton(ar, 0)->joints_count, scene.skeleton->joints_count);
    for (uint32_t i = 0; i < scene.meshes_count; ++i) {
        const sw_mesh* want = scene.meshes[i];
        const sw_mesh* got = sw_archive_mesh(ar, i);
        assert_non_null(got);
        assert_int_equal(sw_archive_mesh_skeleton(ar, i), 0);
        assert_string_equal(sw_mesh_name(got), sw_mesh_name(want));
        assert_int_equal(got->vertices_count, want->vertices_count);
        assert_int_equal(got->palette_count, want->palette_count);
        assert_int_equal(got->size, want->size);
        assert_memory_equal(got, want, want->size);
    }
    sw_scene_free(&scene, NULL);
}

static void test_play_verb(void** state) {
    (void)state;
    char path[512];
    if (SINEW_CLI_PATH[0] == '\0') {
        print_message("skipped: the CLI is not built\n");
        return;
    }
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return;
    char args[1500];
    snprintf(args, sizeof args,
             "play %s --animator " EXAMPLES "/robot.json --script " EXAMPLES
             "/walk_run.txt --seconds 6 --fps 30 --json",
             path);
    int s1 = 0, s2 = 0;
    size_t n1 = 0, n2 = 0;
    char* a = run_cli(args, &s1, &n1);
    char* b = run_cli(args, &s2, &n2);
    assert_int_equal(s1, 0);
    assert_int_equal(s2, 0);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1); /* deterministic */
    a[n1 - 1] = '\0';
    assert_non_null(strstr(a, "\"frame\": 180"));
    assert_non_null(
        strstr(a, "{\"kind\": \"finished\", \"layer\": \"base\", \"state\": \"Punch\""));
    assert_non_null(strstr(a, "{\"kind\": \"enter\", \"layer\": \"base\", \"state\": \"Punch\""));
    /* exactly one finished */
    const char* first = strstr(a, "\"kind\": \"finished\"");
    assert_null(strstr(first + 1, "\"kind\": \"finished\""));
    free(a);
    free(b);
    /* bake: an archive with the skeleton and a 6 s clip at 30 fps (181 keys) */
    char bake[] = "/tmp/sinew_bake_XXXXXX.sinew"; /* the output's extension names its format */
    int fd = mkstemps(bake, 6);
    assert_true(fd >= 0);
    close(fd);
    snprintf(args, sizeof args,
             "play %s --animator " EXAMPLES "/robot.json --script " EXAMPLES
             "/walk_run.txt --seconds 6 --fps 30 --bake %s",
             path, bake);
    a = run_cli(args, &s1, &n1);
    assert_int_equal(s1, 0);
    free(a);
    size_t size = 0;
    void* data = sw_test_read_file(bake, &size);
    remove(bake);
    assert_non_null(data);
    sw_archive ar;
    assert_int_equal(sw_archive_load(data, size, &ar, NULL), SW_RESULT_OK);
    assert_int_equal(ar.clips_count, 1);
    const sw_clip* clip = sw_archive_clip(&ar, 0);
    assert_near(clip->duration, 6.0f, 1e-5);
    assert_int_equal(sw_clip_tracks(clip)[0].keys_count, 181);
    assert_play_bake_keeps_meshes(&ar, path);
    free(data);
    /* bad command lines and files */
    snprintf(args, sizeof args, "play %s --seconds 1", path);
    a = run_cli(args, &s1, &n1);
    free(a);
    assert_int_equal(WEXITSTATUS(s1), 2);
    snprintf(args, sizeof args, "play %s --animator /nonexistent.json --seconds 1", path);
    a = run_cli(args, &s1, &n1);
    free(a);
    assert_int_equal(WEXITSTATUS(s1), 1);
}

/* Every byte of robot.json replaced by a few hostile values: fails cleanly or builds. */
static void test_json_mutations(void** state) {
    (void)state;
    size_t size = 0;
    char* text = (char*)sw_test_read_file(EXAMPLES "/robot.json", &size);
    assert_non_null(text);
    char* copy = (char*)malloc(size);
    const char values[] = {'"', '{', ']', '0', '\\', ' ', 'x', '\0'};
    uint32_t ok = 0, failed = 0;
    for (size_t i = 0; i < size; ++i) {
        for (size_t v = 0; v < sizeof values; ++v) {
            memcpy(copy, text, size);
            if (copy[i] == values[v]) continue;
            copy[i] = values[v];
            sw_animator_json aj;
            sw_error err;
            memset(&err, 0, sizeof err);
            sw_result r = sw_animator_json_read(copy, size, NULL, &aj, &err);
            if (r == SW_RESULT_OK) {
                ++ok;
                assert_non_null(aj.animator);
                sw_animator_json_free(&aj, NULL);
            } else {
                ++failed;
                assert_null(aj.animator);
                assert_non_null(err.check);
            }
        }
    }
    print_message("mutations: %u rejected, %u accepted\n", failed, ok);
    assert_true(failed > ok);
    free(copy);
    free(text);
}

/* Root motion end to end on a CMU walk: sinew play --bake puts the accumulated
 * root motion back on the root, so the baked hips must equal the original
 * hips seen from the ground transform of the first frame: G(0)^-1 * hips(t). */
static void test_play_bake_root_motion(void** state) {
    (void)state;
    char bvh[512];
    if (SINEW_CLI_PATH[0] == '\0') {
        print_message("skipped: the CLI is not built\n");
        return;
    }
    if (!sw_test_model_path(bvh, sizeof bvh, "BVH/01_01.bvh")) return;
    char bake[] = "/tmp/sinew_bake_XXXXXX.sinew"; /* the output's extension names its format */
    int fd = mkstemps(bake, 6);
    assert_true(fd >= 0);
    close(fd);
    char args[1500];
    snprintf(args, sizeof args,
             "play %s --animator " SINEW_TEST_DATA "/animator_cmu.json --seconds 2 --fps 30 "
             "--bake %s",
             bvh, bake);
    int status = 0;
    size_t n = 0;
    char* text = run_cli(args, &status, &n);
    free(text);
    assert_int_equal(status, 0);
    size_t size = 0;
    void* data = sw_test_read_file(bake, &size);
    remove(bake);
    assert_non_null(data);
    sw_archive ar;
    assert_int_equal(sw_archive_load(data, size, &ar, NULL), SW_RESULT_OK);
    const sw_skeleton* skel = sw_archive_skeleton(&ar, 0);
    const sw_clip* baked = sw_archive_clip(&ar, 0);
    assert_int_equal(sw_clip_tracks(baked)[0].keys_count, 61);
    /* the original */
    size_t tsize = 0;
    char* bvh_text = (char*)sw_test_read_file(bvh, &tsize);
    sw_bvh_result orig;
    assert_int_equal(sw_bvh_read(bvh_text, tsize, NULL, NULL, &orig, NULL), SW_RESULT_OK);
    free(bvh_text);
    const uint32_t P = skel->packets_count;
    sw_xform4* a = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * P);
    sw_xform4* b = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * P);
    sw_sample_job j = {
        .clip = orig.clip, .skeleton = orig.skeleton, .time = 0.0f, .out = a, .out_count = P};
    assert_int_equal(sw_sample_job_run(&j), SW_RESULT_OK);
    sw_xform h0 = sw_pose_get(a, 0);
    float yaw0 = 2.0f * atan2f(h0.r.y, h0.r.w);
    sw_quat inv = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), -yaw0);
    for (int f = 10; f <= 60; f += 25) {
        float t = (float)f / 30.0f;
        j.time = t;
        assert_int_equal(sw_sample_job_run(&j), SW_RESULT_OK);
        sw_sample_job jb = {.clip = baked, .skeleton = skel, .time = t, .out = b, .out_count = P};
        assert_int_equal(sw_sample_job_run(&jb), SW_RESULT_OK);
        sw_xform h = sw_pose_get(a, 0), hb = sw_pose_get(b, 0);
        sw_vec3 expect = sw_quat_rotate(inv, sw_vec3_make(h.t.x - h0.t.x, 0.0f, h.t.z - h0.t.z));
        expect.y = h.t.y;
        sw_test_vec3_near(hb.t, expect, 2e-3f); /* file units (about 1/18 m): 0.1 mm */
        sw_test_quat_near(hb.r, sw_quat_mul(inv, h.r), 1e-4f);
        /* the character walked: the hips are metres away from the start */
        if (f == 60) assert_true(sw_vec3_length(sw_vec3_make(expect.x, 0, expect.z)) > 5.0f);
        /* other joints are untouched */
        sw_test_quat_near(sw_pose_get(b, 5).r, sw_pose_get(a, 5).r, 1e-5f);
    }
    free(a);
    free(b);
    sw_bvh_result_free(&orig, NULL);
    free(data);
}

/* docs/animator.md lists the words of every enum as the runtime's lists give
 * them, in order, as "`w1`/`w2`/...": each list once in the page. */
static void test_enum_words_in_docs(void** state) {
    (void)state;
    FILE* f = fopen(SINEW_TEST_DATA "/../../docs/animator.md", "rb");
    assert_non_null(f);
    static char doc[1 << 17];
    const size_t n = fread(doc, 1, sizeof doc - 1u, f);
    fclose(f);
    assert_true(n > 0 && n < sizeof doc - 1u);
    doc[n] = '\0';
    assert_int_equal(sw_animator_enum_count(SW_ANIMATOR_ENUM_COUNT), 0);
    assert_null(sw_animator_enum_word(SW_ANIMATOR_ENUM_OP, SW_ANIMATOR_OP_COUNT));
    for (uint32_t e = 0; e < SW_ANIMATOR_ENUM_COUNT; ++e) {
        char list[256] = "";
        uint32_t words = 0;
        for (uint32_t v = 0; v < sw_animator_enum_count((sw_animator_enum)e); ++v) {
            const char* w = sw_animator_enum_word((sw_animator_enum)e, v);
            if (!w) continue;
            const size_t at = strlen(list);
            snprintf(list + at, sizeof list - at, "%s`%s`", words ? "/" : "", w);
            ++words;
        }
        assert_true(words >= 2);
        if (!strstr(doc, list)) fail_msg("docs/animator.md does not list %s", list);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_matches_c_desc),   cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_json_nesting_refused),  cmocka_unit_test(test_json_mutations),
        cmocka_unit_test(test_robot_example),         cmocka_unit_test(test_play_verb),
        cmocka_unit_test(test_play_bake_root_motion), cmocka_unit_test(test_enum_words_in_docs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
