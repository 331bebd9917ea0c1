/* "arm" (sinew/showcase/scene.h): a two-bone arm on a post whose target
 * circles, sometimes out of reach (two-bone IK). */
#include "showcase/actor.h"

typedef struct sw__arm {
    float arm_error_max;
    uint32_t arm_out_of_reach_frames;
} sw__arm;

/* A two-bone arm on a post: base, shoulder 0.7 m up, upper arm 0.55, forearm 0.5. */
static sw_result sw__arm_create(sw__sc_ctx* ctx, sw__sc_actor* view, void** state, sw_error* err) {
    sw__arm* st = (sw__arm*)sw__sc_alloc(&ctx->mem, sizeof *st);
    *state = st;
    if (!st) return SW_RESULT_OUT_OF_MEMORY;
    sw_skeleton_joint joints[4] = {
        {"ArmBase", -1, sw_xform_identity()},
        {"Shoulder", 0, sw_xform_identity()},
        {"Elbow", 1, sw_xform_identity()},
        {"Hand", 2, sw_xform_identity()},
    };
    joints[1].rest.t = sw_vec3_make(0, 0.7f, 0);
    joints[2].rest.t = sw_vec3_make(0, 0.55f, 0);
    joints[3].rest.t = sw_vec3_make(0, 0.5f, 0);
    const sw_skeleton* s = NULL;
    sw_result r = sw__sc_skeleton(&ctx->mem, joints, 4, &s, err);
    if (r != SW_RESULT_OK) return r;
    const float ys[4] = {0.0f, 0.7f, 1.25f, 1.75f};
    uint16_t palette[4] = {0, 1, 2, 3};
    sw_mat4 ib[4];
    for (uint32_t i = 0; i < 4; ++i) {
        ib[i] = sw_mat4_identity();
        ib[i].m[13] = -ys[i];
    }
    sw__mb b;
    r = sw__mb_init(&b, &ctx->mem, 4 * 24 + 2 * 77, 4 * 36 + 2 * 360);
    if (r != SW_RESULT_OK) return r;
    const sw_quat id = sw_quat_identity();
    sw__mb_box(&b, 0, sw_vec3_make(0, 0.35f, 0), sw_vec3_make(0.07f, 0.35f, 0.07f), id);
    sw__mb_box(&b, 0, sw_vec3_make(0, 0.02f, 0), sw_vec3_make(0.2f, 0.02f, 0.2f), id);
    sw__mb_sphere(&b, 1, sw_vec3_make(0, 0.7f, 0), 0.08f, 10, 6);
    sw__mb_box(&b, 1, sw_vec3_make(0, 0.975f, 0), sw_vec3_make(0.05f, 0.23f, 0.05f), id);
    sw__mb_box(&b, 2, sw_vec3_make(0, 1.5f, 0), sw_vec3_make(0.04f, 0.22f, 0.04f), id);
    sw__mb_sphere(&b, 3, sw_vec3_make(0, 1.75f, 0), 0.06f, 10, 6);
    const sw_mesh** meshes = (const sw_mesh**)sw__sc_alloc(&ctx->mem, sizeof(void*));
    if (!meshes) return SW_RESULT_OUT_OF_MEMORY;
    r = sw__mb_build(&b, &ctx->mem, "arm", palette, ib, 4, 4, &meshes[0], err);
    if (r != SW_RESULT_OK) return r;
    return sw__sc_view_init(&ctx->mem, view, s, meshes, 1);
}

static sw_result sw__arm_update(void* state, sw__sc_ctx* ctx, sw__sc_actor* a, float dt) {
    (void)dt;
    sw__arm* st = (sw__arm*)state;
    const float t = (float)ctx->time;
    a->world = sw__sc_world(sw_vec3_make(SW__SC_ARM_X, 0.0f, SW__SC_ARM_Z), 0.0f, 1.0f);
    memcpy(a->local, sw_skeleton_rest_pose(a->skel), a->skel->packets_count * sizeof(sw_xform4));
    sw__sc_view_models(a);
    const sw_vec3 sh = sw__sc_pos(&a->model[1]);
    const float th = 0.8f * t, rad = 0.78f + 0.32f * sinf(0.37f * t + 0.5f);
    ctx->arm_target = sw_vec3_add(
        sh, sw_vec3_make(rad * cosf(th), 0.25f * sinf(1.3f * t) + 0.1f, rad * sinf(th)));
    const sw_ik_two_bone_job ik = {.skeleton = a->skel,
                                   .model = a->model,
                                   .model_count = 4,
                                   .root_transform = &a->world,
                                   .start_joint = 1,
                                   .mid_joint = 2,
                                   .end_joint = 3,
                                   .target = ctx->arm_target,
                                   .pole_mode = SW_IK_POLE_MODE_DIRECTION,
                                   .pole = sw_vec3_make(0, 1, 0),
                                   .weight = 1.0f,
                                   .pose = a->local,
                                   .pose_count = a->skel->packets_count};
    const sw_result r = sw_ik_two_bone_job_run(&ik);
    if (r != SW_RESULT_OK) return r;
    sw__sc_view_models(a);
    const float d = sw_vec3_length(sw_vec3_sub(ctx->arm_target, sh));
    if (d <= 0.999f * (0.55f + 0.5f)) {
        st->arm_error_max =
            fmaxf(st->arm_error_max,
                  sw_vec3_length(sw_vec3_sub(sw__sc_pos(&a->model[3]), ctx->arm_target)));
    } else {
        ++st->arm_out_of_reach_frames;
    }
    return SW_RESULT_OK;
}

static void sw__arm_metrics(const void* state, sw_showcase_metrics* m, sw_showcase_status* st) {
    (void)st;
    const sw__arm* a = (const sw__arm*)state;
    m->arm_error_max = a->arm_error_max;
    m->arm_out_of_reach_frames = a->arm_out_of_reach_frames;
}

const sw__sc_actor_class sw__sc_arm = {.name = "arm",
                                       .material = SW_SHOWCASE_MATERIAL_METAL,
                                       .create = sw__arm_create,
                                       .update = sw__arm_update,
                                       .metrics = sw__arm_metrics};
