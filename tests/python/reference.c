/* python_reference: the C side of the Python binding's bit-for-bit tests
 * (tests/python). Runs sinew's jobs on an asset the way a C program does
 * and writes the results to stdout as raw little-endian float bytes, which
 * the pytest suite compares with what the Python API returns.
 *
 *   python_reference pose FILE CLIP TIME
 *       sampled local pose (packets * 40 floats), model matrices
 *       (joints * 16), then the skinning palette of each mesh.
 *   python_reference animator FILE DEF.json FRAMES DT [F:NAME=VALUE ...]
 *       per frame (the changes of frame F set before its update; the first
 *       update with dt 0): the evaluated pose, then the root motion as
 *       4 floats (x, y, z, yaw).
 *   python_reference ik FILE CLIP TIME
 *       the CMU skeleton's pose after each solver of a fixed sequence
 *       (two-bone left leg, FABRIK spine, CCD right arm with a cone, look-at
 *       head) and after foot placement on a step (x > 0 is 2 units high),
 *       then the model matrices foot placement left.
 *   python_reference mirror FILE CLIP TIME
 *       the sampled pose mirrored by the mirror data from name patterns.
 *   python_reference retarget FILE CLIP TIME TARGET
 *       the sampled pose retargeted onto TARGET's skeleton by the automatic
 *       map of the two skeletons (every joint a candidate, leg IK, ground 0)
 *       at IK weight 1.
 *   python_reference chains FILE CLIP TIME
 *       the left arm chain's points followed to 5 moving heads (points
 *       after each), the pose aimed at them, then 10 jiggle runs (pose after
 *       each).
 *   python_reference effects FILE CLIP TIME
 *       camera shake samples, field-of-view pulses, a hit pause, a pose shake
 *       and a spine wander on the sampled pose, then a two-legged walker
 *       over a step (body matrix and feet per update, 60 updates) and its
 *       pose job on the legs of the sampled pose with Hips at the origin.
 *   python_reference springs FILE
 *       30 steps of a float, a vec3 and a quaternion spring and of the dampers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/assimp/assimp_import.h"
#include "sinew/procedural/chain.h"
#include "sinew/procedural/hit.h"
#include "sinew/procedural/spine.h"
#include "sinew/procedural/walker.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/retarget_map.h"
#include "sinew/tools/readers/animator_json.h"
#include "sinew/tools/readers/asset.h"

static int fail(const char* what, sw_result r, const sw_error* err) {
    fprintf(stderr, "python_reference: %s: %s (%s)\n", what, sw_result_str(r),
            err && err->check ? err->check : "");
    return 1;
}

static sw_result open_asset(const char* path, sw_asset* a, sw_error* err) {
    static const sw_asset_reader readers[] = {SW_ASSIMP_ASSET_READER};
    sw_asset_options opt;
    memset(&opt, 0, sizeof opt);
    opt.readers = readers;
    opt.readers_count = 1;
    return sw_asset_open(path, &opt, a, err);
}

static void put(const void* p, size_t n) {
    fwrite(p, 1, n, stdout);
}

static sw_result sample_pose(const sw_skeleton* s, const sw_clip* c, float t, sw_xform4* pose) {
    sw_sample_job job;
    memset(&job, 0, sizeof job);
    job.clip = c;
    job.skeleton = s;
    job.time = t;
    job.out = pose;
    job.out_count = s->packets_count;
    return sw_sample_job_run(&job);
}

static sw_result model_of(const sw_skeleton* s, const sw_xform4* pose, sw_mat4* model) {
    sw_local_to_model_job job;
    memset(&job, 0, sizeof job);
    job.skeleton = s;
    job.local = pose;
    job.local_count = s->packets_count;
    job.out = model;
    job.out_count = s->joints_count;
    return sw_local_to_model_job_run(&job);
}

/* The clip named by argv[0] with a time in argv[1]; -1 after printing why not. */
static int32_t clip_arg(const sw_asset* a, int argc, char** argv) {
    if (argc < 2) return fail("CLIP TIME expected", SW_RESULT_INVALID_ARGUMENT, NULL) - 2;
    sw_error err = SW_ERROR_INIT;
    const int32_t ci = sw_asset_require_clip(a, argv[0], &err);
    if (ci < 0) fail(argv[0], SW_RESULT_NOT_FOUND, &err);
    return ci;
}

/* pose FILE CLIP TIME */
static int run_pose(const sw_asset* a, int argc, char** argv) {
    const int32_t ci = clip_arg(a, argc, argv);
    if (ci < 0) return 1;
    const sw_skeleton* s = a->skeleton;
    sw_xform4* pose = sw_alloc(NULL, sizeof(sw_xform4) * s->packets_count, 16);
    sw_mat4* model = sw_alloc(NULL, sizeof(sw_mat4) * s->joints_count, 16);
    sw_mat4* palette = sw_alloc(NULL, sizeof(sw_mat4) * SW_SKELETON_MAX_JOINTS, 16);
    sw_result r = pose && model && palette ? SW_RESULT_OK : SW_RESULT_OUT_OF_MEMORY;
    if (r == SW_RESULT_OK) r = sample_pose(s, a->clips[ci], strtof(argv[1], NULL), pose);
    if (r == SW_RESULT_OK) r = model_of(s, pose, model);
    if (r == SW_RESULT_OK) {
        put(pose, sizeof(sw_xform4) * s->packets_count);
        put(model, sizeof(sw_mat4) * s->joints_count);
    }
    for (uint32_t m = 0; r == SW_RESULT_OK && m < a->meshes_count; ++m) {
        const sw_mesh* mesh = a->meshes[m];
        sw_skinning_job job = {model,
                               s->joints_count,
                               sw_mesh_palette(mesh),
                               sw_mesh_inverse_binds(mesh),
                               mesh->palette_count,
                               palette,
                               SW_SKELETON_MAX_JOINTS};
        r = sw_skinning_job_run(&job);
        if (r == SW_RESULT_OK) put(palette, sizeof(sw_mat4) * mesh->palette_count);
    }
    sw_free(NULL, pose, sizeof(sw_xform4) * s->packets_count);
    sw_free(NULL, model, sizeof(sw_mat4) * s->joints_count);
    sw_free(NULL, palette, sizeof(sw_mat4) * SW_SKELETON_MAX_JOINTS);
    return r == SW_RESULT_OK ? 0 : fail("pose", r, NULL);
}

/* The F:NAME=VALUE changes due at frame f, into params. */
static void apply_changes(const sw_animator* def, float* params, uint32_t f, int argc,
                          char** argv) {
    for (int i = 0; i < argc; ++i) {
        char name[256];
        unsigned frame = 0;
        float value = 0.0f;
        if (sscanf(argv[i], "%u:%255[^=]=%f", &frame, name, &value) != 3 || frame != f) continue;
        const int32_t p = sw_animator_find_param(def, name);
        if (p >= 0) params[p] = value;
    }
}

/* The frames of an animator run; false on a failure (printed). */
static bool animator_frames(const sw_asset* a, const sw_animator* def, const sw_animator_bound* b,
                            uint32_t frames, float dt, int argc, char** argv) {
    const size_t isize = sw_animator_instance_size(b), ssize = sw_animator_scratch_size(b);
    const uint32_t packets = a->skeleton->packets_count, n = sw_animator_params_count(def);
    void* imem = sw_alloc(NULL, isize, 16);
    void* scratch = sw_alloc(NULL, ssize, 16);
    sw_xform4* pose = sw_alloc(NULL, sizeof(sw_xform4) * packets, 16);
    float* params = calloc(n + 1u, sizeof(float));
    sw_animator_instance* inst = NULL;
    sw_result r = imem && scratch && pose && params ? SW_RESULT_OK : SW_RESULT_OUT_OF_MEMORY;
    if (r == SW_RESULT_OK) r = sw_animator_instance_init(imem, isize, b, &inst);
    if (r == SW_RESULT_OK) r = sw_animator_params_reset(def, params, n);
    for (uint32_t f = 0; r == SW_RESULT_OK && f < frames; ++f) {
        apply_changes(def, params, f, argc, argv);
        sw_animator_event events[64];
        uint32_t count = 0;
        sw_animator_root_motion rm;
        r = sw_animator_update(inst, b, params, n, f ? dt : 0.0f, events, 64, &count, &rm);
        if (r == SW_RESULT_OK) r = sw_animator_evaluate(inst, b, scratch, ssize, pose, packets);
        const float motion[4] = {rm.translation.x, rm.translation.y, rm.translation.z, rm.yaw};
        if (r == SW_RESULT_OK) {
            put(pose, sizeof(sw_xform4) * packets);
            put(motion, sizeof motion);
        }
    }
    sw_free(NULL, imem, isize);
    sw_free(NULL, scratch, ssize);
    sw_free(NULL, pose, sizeof(sw_xform4) * packets);
    free(params);
    return r == SW_RESULT_OK || fail("animator run", r, NULL) == 0;
}

/* animator FILE DEF.json FRAMES DT [F:NAME=VALUE ...] */
static int run_animator(const sw_asset* a, int argc, char** argv) {
    if (argc < 3) return fail("animator: DEF FRAMES DT expected", SW_RESULT_INVALID_ARGUMENT, NULL);
    sw_animator_json aj;
    sw_error err = SW_ERROR_INIT;
    sw_result r = sw_animator_json_read_file(argv[0], NULL, &aj, &err);
    if (r != SW_RESULT_OK) return fail(argv[0], r, &err);
    const size_t bsize = sw_animator_bound_size(aj.animator, a->skeleton);
    void* bmem = sw_alloc(NULL, bsize, 16);
    const sw_animator_bound* b = NULL;
    r = bmem ? sw_animator_bind(aj.animator, a->skeleton, a->clips, a->clips_count, bmem, bsize, &b,
                                &err)
             : SW_RESULT_OUT_OF_MEMORY;
    int code = r == SW_RESULT_OK ? 0 : fail("bind", r, &err);
    if (code == 0 && !animator_frames(a, aj.animator, b, (uint32_t)atoi(argv[1]),
                                      strtof(argv[2], NULL), argc - 3, argv + 3))
        code = 1;
    sw_free(NULL, bmem, bsize);
    sw_animator_json_free(&aj, NULL);
    return code;
}

static uint32_t joint(const sw_skeleton* s, const char* name) {
    const int32_t j = sw_skeleton_find_joint(s, name);
    return j < 0 ? UINT32_MAX : (uint32_t)j;
}

static sw_vec3 model_pos(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

/* The step the foot placement test stands on: 2 units high where x > 0. */
static bool step_ray(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                     sw_vec3* normal) {
    (void)user;
    (void)dir;
    (void)max_distance;
    *point = sw_vec3_make(from.x, from.x > 0.0f ? 2.0f : 0.0f, from.z);
    *normal = sw_vec3_make(0.0f, 1.0f, 0.0f);
    return true;
}

/* The solvers of mode ik, in order, each followed by local-to-model. */
static sw_result ik_solvers(const sw_skeleton* s, sw_xform4* pose, sw_mat4* model) {
    const uint32_t P = s->packets_count, J = s->joints_count;
    sw_ik_two_bone_job leg = {.skeleton = s,
                              .model = model,
                              .model_count = J,
                              .start_joint = joint(s, "LeftUpLeg"),
                              .mid_joint = joint(s, "LeftLeg"),
                              .end_joint = joint(s, "LeftFoot"),
                              .pole_mode = SW_IK_POLE_MODE_DIRECTION,
                              .pole = sw_vec3_make(0, 0, 1),
                              .weight = 1.0f,
                              .pose = pose,
                              .pose_count = P};
    leg.target = sw_vec3_add(model_pos(&model[leg.end_joint]), sw_vec3_make(2, 3, 1));
    sw_result r = sw_ik_two_bone_job_run(&leg);
    if (r == SW_RESULT_OK) r = model_of(s, pose, model);
    put(pose, sizeof(sw_xform4) * P);
    const uint32_t spine[4] = {joint(s, "Spine"), joint(s, "Spine1"), joint(s, "Neck1"),
                               joint(s, "Head")};
    const sw_vec3 up = sw_vec3_add(model_pos(&model[spine[3]]), sw_vec3_make(3, -1, 2));
    const sw_ik_fabrik_job fab = {.skeleton = s,
                                  .model = model,
                                  .model_count = J,
                                  .joints = spine,
                                  .joints_count = 4,
                                  .target = up,
                                  .use_pole = true,
                                  .pole = sw_vec3_make(0, 0, 1),
                                  .weight = 0.75f,
                                  .pose = pose,
                                  .pose_count = P};
    if (r == SW_RESULT_OK) r = sw_ik_fabrik_job_run(&fab);
    if (r == SW_RESULT_OK) r = model_of(s, pose, model);
    put(pose, sizeof(sw_xform4) * P);
    const uint32_t arm[4] = {joint(s, "RightArm"), joint(s, "RightForeArm"), joint(s, "RightHand"),
                             joint(s, "RFingers")};
    sw_ik_limit limits[4] = {{.type = SW_IK_LIMIT_TYPE_CONE, .cone_angle = 1.2f}};
    const sw_ik_ccd_job ccd = {.skeleton = s,
                               .model = model,
                               .model_count = J,
                               .joints = arm,
                               .joints_count = 4,
                               .limits = limits,
                               .target =
                                   sw_vec3_add(model_pos(&model[arm[0]]), sw_vec3_make(-4, 6, 5)),
                               .weight = 1.0f,
                               .iterations = 20,
                               .pose = pose,
                               .pose_count = P};
    if (r == SW_RESULT_OK) r = sw_ik_ccd_job_run(&ccd);
    if (r == SW_RESULT_OK) r = model_of(s, pose, model);
    put(pose, sizeof(sw_xform4) * P);
    const sw_ik_look_at_joint look[2] = {{joint(s, "Neck1"), 0.5f}, {joint(s, "Head"), 1.0f}};
    const sw_ik_look_at_job la = {.skeleton = s,
                                  .model = model,
                                  .model_count = J,
                                  .joints = look,
                                  .joints_count = 2,
                                  .forward = sw_vec3_make(0, 0, 1),
                                  .target = sw_vec3_make(20, 30, 40),
                                  .limit_angle = 1.0f,
                                  .weight = 1.0f,
                                  .pose = pose,
                                  .pose_count = P};
    if (r == SW_RESULT_OK) r = sw_ik_look_at_job_run(&la);
    if (r == SW_RESULT_OK) r = model_of(s, pose, model);
    put(pose, sizeof(sw_xform4) * P);
    return r;
}

/* ik FILE CLIP TIME */
static int run_ik(const sw_asset* a, int argc, char** argv) {
    const int32_t ci = clip_arg(a, argc, argv);
    if (ci < 0) return 1;
    const sw_skeleton* s = a->skeleton;
    sw_xform4* pose = sw_alloc(NULL, sizeof(sw_xform4) * s->packets_count, 16);
    sw_mat4* model = sw_alloc(NULL, sizeof(sw_mat4) * s->joints_count, 16);
    sw_result r = pose && model ? SW_RESULT_OK : SW_RESULT_OUT_OF_MEMORY;
    if (r == SW_RESULT_OK) r = sample_pose(s, a->clips[ci], strtof(argv[1], NULL), pose);
    if (r == SW_RESULT_OK) r = model_of(s, pose, model);
    if (r == SW_RESULT_OK) r = ik_solvers(s, pose, model);
    sw_foot_state state;
    memset(&state, 0, sizeof state);
    const sw_foot_leg legs[2] = {
        {joint(s, "LeftUpLeg"), joint(s, "LeftLeg"), joint(s, "LeftFoot"), {0, 0, 0}},
        {joint(s, "RightUpLeg"), joint(s, "RightLeg"), joint(s, "RightFoot"), {0, 0, 1}}};
    const sw_foot_job foot = {.skeleton = s,
                              .model = model,
                              .model_count = s->joints_count,
                              .pelvis = joint(s, "Hips"),
                              .legs = legs,
                              .legs_count = 2,
                              .ray = step_ray,
                              .max_step_up = 5.0f,
                              .max_step_down = 5.0f,
                              .dt = 1.0f / 30.0f,
                              .weight = 1.0f,
                              .state = &state,
                              .pose = pose,
                              .pose_count = s->packets_count};
    for (int f = 0; r == SW_RESULT_OK && f < 3; ++f) {
        r = sw_foot_job_run(&foot);
        put(pose, sizeof(sw_xform4) * s->packets_count);
    }
    if (r == SW_RESULT_OK) put(model, sizeof(sw_mat4) * s->joints_count);
    sw_free(NULL, pose, sizeof(sw_xform4) * s->packets_count);
    sw_free(NULL, model, sizeof(sw_mat4) * s->joints_count);
    return r == SW_RESULT_OK ? 0 : fail("ik", r, NULL);
}

/* mirror FILE CLIP TIME */
static int run_mirror(const sw_asset* a, int argc, char** argv) {
    const int32_t ci = clip_arg(a, argc, argv);
    if (ci < 0) return 1;
    const sw_skeleton* s = a->skeleton;
    const size_t bytes = sizeof(sw_xform4) * s->packets_count;
    sw_xform4* pose = sw_alloc(NULL, bytes, 16);
    sw_xform4* out = sw_alloc(NULL, bytes, 16);
    const sw_mirror_desc desc = {.skeleton = s};
    const sw_mirror* m = NULL;
    sw_error err = SW_ERROR_INIT;
    sw_result r = pose && out ? sw_mirror_create(&desc, NULL, &m, &err) : SW_RESULT_OUT_OF_MEMORY;
    if (r == SW_RESULT_OK) r = sample_pose(s, a->clips[ci], strtof(argv[1], NULL), pose);
    const sw_mirror_job job = {m, pose, s->packets_count, out, s->packets_count};
    if (r == SW_RESULT_OK) r = sw_mirror_job_run(&job);
    if (r == SW_RESULT_OK) put(out, bytes);
    sw_mirror_destroy(m, NULL);
    sw_free(NULL, pose, bytes);
    sw_free(NULL, out, bytes);
    return r == SW_RESULT_OK ? 0 : fail("mirror", r, &err);
}

/* The source pose retargeted onto `target` into out (scratch allocated here). */
static sw_result retarget_pose(const sw_skeleton* s, const sw_skeleton* t, const sw_xform4* pose,
                               sw_xform4* out) {
    sw_retarget_joint_map* jm = malloc(sizeof *jm);
    sw_retarget_map* map = malloc(sizeof *map);
    sw_retarget_pair* pairs = malloc(sizeof(sw_retarget_pair) * SW_SKELETON_MAX_JOINTS);
    sw_retarget_limb limbs[SW_RETARGET_MAX_LIMBS];
    sw_retarget_map_desc desc;
    sw_error err = SW_ERROR_INIT;
    sw_result r =
        jm && map && pairs ? sw_retarget_joint_map_auto(s, t, jm) : SW_RESULT_OUT_OF_MEMORY;
    if (r == SW_RESULT_OK) r = sw_retarget_joint_map_desc(jm, true, pairs, limbs, &desc);
    if (r == SW_RESULT_OK) r = sw_retarget_map_init(&desc, map, &err);
    const size_t scratch_size = r == SW_RESULT_OK ? sw_retarget_scratch_size(map) : 0;
    void* scratch = scratch_size ? sw_alloc(NULL, scratch_size, 16) : NULL;
    const sw_retarget_job job = {
        map, s, t, pose, s->packets_count, 1.0f, scratch, scratch_size, out, t->packets_count};
    if (r == SW_RESULT_OK) r = scratch ? sw_retarget_job_run(&job) : SW_RESULT_OUT_OF_MEMORY;
    sw_free(NULL, scratch, scratch_size);
    free(pairs);
    free(map);
    free(jm);
    return r;
}

/* retarget FILE CLIP TIME TARGET */
static int run_retarget(const sw_asset* a, int argc, char** argv) {
    const int32_t ci = clip_arg(a, argc, argv);
    if (ci < 0 || argc < 3) return 1;
    sw_asset t;
    sw_error err = SW_ERROR_INIT;
    sw_result r = open_asset(argv[2], &t, &err);
    if (r != SW_RESULT_OK) return fail(argv[2], r, &err);
    const sw_skeleton* s = a->skeleton;
    sw_xform4* pose = sw_alloc(NULL, sizeof(sw_xform4) * s->packets_count, 16);
    sw_xform4* out = sw_alloc(NULL, sizeof(sw_xform4) * t.skeleton->packets_count, 16);
    r = pose && out ? sample_pose(s, a->clips[ci], strtof(argv[1], NULL), pose)
                    : SW_RESULT_OUT_OF_MEMORY;
    if (r == SW_RESULT_OK) r = retarget_pose(s, t.skeleton, pose, out);
    if (r == SW_RESULT_OK) put(out, sizeof(sw_xform4) * t.skeleton->packets_count);
    sw_free(NULL, pose, sizeof(sw_xform4) * s->packets_count);
    sw_free(NULL, out, sizeof(sw_xform4) * t.skeleton->packets_count);
    sw_asset_free(&t);
    return r == SW_RESULT_OK ? 0 : fail("retarget", r, NULL);
}

/* Follow, aim and jiggle on the chain after sampling (mode chains). */
static sw_result chain_steps(const sw_skeleton* s, sw_xform4* pose, sw_mat4* model) {
    const uint32_t arm[4] = {joint(s, "LeftArm"), joint(s, "LeftForeArm"), joint(s, "LeftHand"),
                             joint(s, "LFingers")};
    sw_vec3 points[4];
    float lengths[3];
    sw_result r = sw_chain_points_from_model(model, s->joints_count, arm, 4, points, lengths);
    for (int i = 1; r == SW_RESULT_OK && i <= 5; ++i) {
        const sw_chain_follow_job follow = {
            sw_vec3_add(points[0], sw_vec3_make(0.5f * (float)i, 0.0f, 0.25f)), lengths, 3, points,
            4};
        r = sw_chain_follow_job_run(&follow);
        put(points, sizeof points);
    }
    const sw_chain_aim_job aim = {.skeleton = s,
                                  .model = model,
                                  .model_count = s->joints_count,
                                  .joints = arm,
                                  .joints_count = 4,
                                  .points = points,
                                  .points_count = 4,
                                  .weight = 1.0f,
                                  .pose = pose,
                                  .pose_count = s->packets_count};
    if (r == SW_RESULT_OK) r = sw_chain_aim_job_run(&aim);
    if (r == SW_RESULT_OK) r = model_of(s, pose, model);
    put(pose, sizeof(sw_xform4) * s->packets_count);
    sw_jiggle_point jp[4];
    sw_jiggle_state state = {jp, 4, 0.0f, false};
    const sw_jiggle_collider capsule = {{0, 0, 0}, {0, 30, 0}, 8.0f};
    const sw_jiggle_job jiggle = {.skeleton = s,
                                  .model = model,
                                  .model_count = s->joints_count,
                                  .joints = arm,
                                  .joints_count = 4,
                                  .dt = 1.0f / 60.0f,
                                  .stiffness = 50.0f,
                                  .damping = 5.0f,
                                  .gravity = {0.0f, -9.8f, 0.0f},
                                  .colliders = &capsule,
                                  .colliders_count = 1,
                                  .weight = 1.0f,
                                  .state = &state,
                                  .pose = pose,
                                  .pose_count = s->packets_count};
    for (int i = 0; r == SW_RESULT_OK && i < 10; ++i) {
        r = sw_jiggle_job_run(&jiggle);
        put(pose, sizeof(sw_xform4) * s->packets_count);
    }
    return r;
}

/* chains FILE CLIP TIME */
static int run_chains(const sw_asset* a, int argc, char** argv) {
    const int32_t ci = clip_arg(a, argc, argv);
    if (ci < 0) return 1;
    const sw_skeleton* s = a->skeleton;
    sw_xform4* pose = sw_alloc(NULL, sizeof(sw_xform4) * s->packets_count, 16);
    sw_mat4* model = sw_alloc(NULL, sizeof(sw_mat4) * s->joints_count, 16);
    sw_result r = pose && model ? sample_pose(s, a->clips[ci], strtof(argv[1], NULL), pose)
                                : SW_RESULT_OUT_OF_MEMORY;
    if (r == SW_RESULT_OK) r = model_of(s, pose, model);
    if (r == SW_RESULT_OK) r = chain_steps(s, pose, model);
    sw_free(NULL, pose, sizeof(sw_xform4) * s->packets_count);
    sw_free(NULL, model, sizeof(sw_mat4) * s->joints_count);
    return r == SW_RESULT_OK ? 0 : fail("chains", r, NULL);
}

/* Shakes, pulses and a hit pause, as floats. */
static void camera_effects(void) {
    const sw_shake_desc shake = {.position_amplitude = {0.1f, 0.1f, 0.0f},
                                 .rotation_amplitude = {0.02f, 0.02f, 0.02f},
                                 .fov_amplitude = 0.05f,
                                 .fade_in = 0.05f,
                                 .hold = 0.2f,
                                 .fade_out = 0.3f,
                                 .seed = 3};
    const sw_fov_pulse_desc pulse = {0.1f, 0.1f, 0.1f, 0.2f};
    const float times[4] = {0.0f, 0.05f, 0.1f, 0.3f};
    for (int i = 0; i < 4; ++i) {
        const sw_shake_sample s = sw_shake_eval(&shake, times[i]);
        const float v[9] = {s.position.x, s.position.y, s.position.z,
                            s.rotation.x, s.rotation.y, s.rotation.z,
                            s.fov,        s.envelope,   sw_fov_pulse_eval(&pulse, times[i])};
        put(v, sizeof v);
    }
    sw_hit_pause pause = {0.0f, 1.0f};
    sw_hit_pause_start(&pause, 0.2f, 0.1f);
    for (int i = 0; i < 15; ++i) {
        const float dt = sw_hit_pause_scale_dt(&pause, 1.0f / 60.0f);
        put(&dt, sizeof dt);
    }
}

/* Ground 0.3 high where x > 1, nothing overhead. */
static bool walker_ray(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                       sw_vec3* normal) {
    (void)user;
    (void)max_distance;
    if (dir.y > 0.0f) return false;
    *point = sw_vec3_make(from.x, from.x > 1.0f ? 0.3f : 0.0f, from.z);
    *normal = sw_vec3_make(0.0f, 1.0f, 0.0f);
    return true;
}

/* 60 walker updates, then its pose job on the legs of `pose` (Hips at the origin). */
static sw_result walker_steps(const sw_skeleton* s, sw_xform4* pose, sw_mat4* model) {
    const sw_walker_leg legs[2] = {{{2.0f, 0.0f, 0.0f}, 0}, {{-2.0f, 0.0f, 0.0f}, 1}};
    const sw_walker_desc desc = {
        .legs = legs, .legs_count = 2, .height = 15.0f, .stride = 3.0f, .ray = walker_ray};
    sw_walker_state state;
    sw_result r = sw_walker_init(&desc, sw_vec3_make(0, 0, 0), 0.0f, &state);
    const sw_walker_job job = {&desc, &state, {0.0f, 0.0f, 4.0f}, 0.0f, 1.0f / 30.0f};
    for (int f = 0; r == SW_RESULT_OK && f < 60; ++f) {
        r = sw_walker_job_run(&job);
        const sw_mat4 body = sw_walker_body_matrix(&state);
        put(&body, sizeof body);
        for (uint32_t i = 0; i < 2; ++i)
            put(&state.feet[i].position, sizeof(sw_vec3));
    }
    const uint32_t hips = joint(s, "Hips");
    sw_xform x = sw_pose_get(pose, hips);
    x.t = sw_vec3_make(0, 0, 0);
    sw_pose_set(pose, hips, x);
    const sw_mat4 body = sw_walker_body_matrix(&state);
    sw_local_to_model_job l2m = {s, pose,  s->packets_count, &body, false,
                                 0, model, s->joints_count,  NULL};
    if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
    const uint32_t left[3] = {joint(s, "LeftUpLeg"), joint(s, "LeftLeg"), joint(s, "LeftFoot")};
    const uint32_t right[3] = {joint(s, "RightUpLeg"), joint(s, "RightLeg"), joint(s, "RightFoot")};
    const sw_walker_chain chains[2] = {{left, 3, SW_WALKER_SOLVER_DEFAULT, {0, 0, 1}},
                                       {right, 3, SW_WALKER_SOLVER_DEFAULT, {0, 0, 1}}};
    const sw_walker_pose_job pj = {.skeleton = s,
                                   .model = model,
                                   .model_count = s->joints_count,
                                   .root_transform = &body,
                                   .state = &state,
                                   .chains = chains,
                                   .chains_count = 2,
                                   .weight = 1.0f,
                                   .pose = pose,
                                   .pose_count = s->packets_count};
    if (r == SW_RESULT_OK) r = sw_walker_pose_job_run(&pj);
    put(pose, sizeof(sw_xform4) * s->packets_count);
    return r;
}

/* effects FILE CLIP TIME */
static int run_effects(const sw_asset* a, int argc, char** argv) {
    const int32_t ci = clip_arg(a, argc, argv);
    if (ci < 0) return 1;
    camera_effects();
    const sw_skeleton* s = a->skeleton;
    sw_xform4* pose = sw_alloc(NULL, sizeof(sw_xform4) * s->packets_count, 16);
    sw_mat4* model = sw_alloc(NULL, sizeof(sw_mat4) * s->joints_count, 16);
    sw_result r = pose && model ? sample_pose(s, a->clips[ci], strtof(argv[1], NULL), pose)
                                : SW_RESULT_OUT_OF_MEMORY;
    const uint32_t spine[4] = {joint(s, "Spine"), joint(s, "Spine1"), joint(s, "Neck1"),
                               joint(s, "Head")};
    const sw_pose_shake_job shake = {spine + 1,       3, 0.2f, 6.0f, 0.3f, 0.1f, 9, pose,
                                     s->packets_count};
    if (r == SW_RESULT_OK) r = sw_pose_shake_job_run(&shake);
    if (r == SW_RESULT_OK) r = model_of(s, pose, model);
    put(pose, sizeof(sw_xform4) * s->packets_count);
    sw_vec3 target = {0, 0, 0};
    const sw_spine_wander_job wander = {.skeleton = s,
                                        .model = model,
                                        .model_count = s->joints_count,
                                        .joints = spine,
                                        .joints_count = 4,
                                        .range = {2.0f, 1.0f, 2.0f},
                                        .seed = 5,
                                        .time = 1.3f,
                                        .weight = 1.0f,
                                        .pose = pose,
                                        .pose_count = s->packets_count,
                                        .target = &target};
    if (r == SW_RESULT_OK) r = sw_spine_wander_job_run(&wander);
    put(pose, sizeof(sw_xform4) * s->packets_count);
    put(&target, sizeof target);
    if (r == SW_RESULT_OK) r = walker_steps(s, pose, model);
    sw_free(NULL, pose, sizeof(sw_xform4) * s->packets_count);
    sw_free(NULL, model, sizeof(sw_mat4) * s->joints_count);
    return r == SW_RESULT_OK ? 0 : fail("effects", r, NULL);
}

/* springs FILE (the file is not used) */
static int run_springs(const sw_asset* a, int argc, char** argv) {
    (void)a;
    (void)argc;
    (void)argv;
    sw_spring_float f = {0.0f, 0.0f};
    sw_spring_vec3 v = {{0, 0, 0}, {1, 0, 0}};
    sw_spring_quat q = {{0, 0, 0, 1}, {0, 0, 0}};
    const sw_quat goal = sw_quat_make(0.0f, 0.6f, 0.0f, 0.8f);
    float d = 0.0f;
    for (int i = 0; i < 30; ++i) {
        sw_spring_float_update(&f, 1.0f, 0.2f, 1.0f / 60.0f);
        sw_spring_vec3_update_moving(&v, sw_vec3_make(1, 2, 3), sw_vec3_make(0.5f, 0, 0), 0.3f,
                                     1.0f / 60.0f);
        sw_spring_quat_update(&q, goal, 0.25f, 1.0f / 60.0f);
        d = sw_spring_damp_float(d, 5.0f, 0.1f, 1.0f / 60.0f);
        put(&f, sizeof f);
        put(&v, sizeof v);
        put(&q, sizeof q);
        put(&d, sizeof d);
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: python_reference MODE FILE ARGS...\n");
        return 2;
    }
    sw_asset a;
    sw_error err = SW_ERROR_INIT;
    sw_result r = open_asset(argv[2], &a, &err);
    if (r != SW_RESULT_OK) return fail(argv[2], r, &err);
    int code = 2;
    static const struct {
        const char* name;
        int (*run)(const sw_asset*, int, char**);
    } modes[] = {{"pose", run_pose},       {"animator", run_animator}, {"ik", run_ik},
                 {"springs", run_springs}, {"mirror", run_mirror},     {"retarget", run_retarget},
                 {"chains", run_chains},   {"effects", run_effects}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; ++i)
        if (strcmp(argv[1], modes[i].name) == 0) code = modes[i].run(&a, argc - 3, argv + 3);
    if (code == 2) fprintf(stderr, "python_reference: unknown mode %s\n", argv[1]);
    sw_asset_free(&a);
    return code;
}
