/* "targets" (sinew/showcase/scene.h): the orb "reach" reaches for (or the
 * inputs' reach target) and the arm's target marker, on a small skeleton. */
#include "showcase/actor.h"

/* Targets: the orb (joint 1) and the arm's target marker (joint 2). */
static sw_result sw__targets_create(sw__sc_ctx* ctx, sw__sc_actor* view, void** state,
                                    sw_error* err) {
    *state = NULL;
    const sw_skeleton_joint joints[3] = {{"Targets", -1, sw_xform_identity()},
                                         {"Orb", 0, sw_xform_identity()},
                                         {"ArmTarget", 0, sw_xform_identity()}};
    const sw_skeleton* s = NULL;
    sw_result r = sw__sc_skeleton(&ctx->mem, joints, 3, &s, err);
    if (r != SW_RESULT_OK) return r;
    sw__mb b;
    r = sw__mb_init(&b, &ctx->mem, 2 * 77, 2 * 360);
    if (r != SW_RESULT_OK) return r;
    sw__mb_sphere(&b, 0, sw_vec3_make(0, 0, 0), 0.07f, 10, 6);
    sw__mb_sphere(&b, 1, sw_vec3_make(0, 0, 0), 0.05f, 10, 6);
    const uint16_t palette[2] = {1, 2};
    const sw_mat4 ib[2] = {sw_mat4_identity(), sw_mat4_identity()};
    const sw_mesh** meshes = (const sw_mesh**)sw__sc_alloc(&ctx->mem, sizeof(void*));
    if (!meshes) return SW_RESULT_OUT_OF_MEMORY;
    r = sw__mb_build(&b, &ctx->mem, "targets", palette, ib, 2, 3, &meshes[0], err);
    if (r != SW_RESULT_OK) return r;
    return sw__sc_view_init(&ctx->mem, view, s, meshes, 1);
}

static sw_result sw__targets_update(void* state, sw__sc_ctx* ctx, sw__sc_actor* a, float dt) {
    (void)state, (void)dt;
    memcpy(a->local, sw_skeleton_rest_pose(a->skel), a->skel->packets_count * sizeof(sw_xform4));
    sw_xform x = sw_xform_identity();
    x.t = ctx->in.has_reach_target ? ctx->in.reach_target : ctx->orb;
    sw_pose_set(a->local, 1, x);
    x.t = ctx->arm_target;
    sw_pose_set(a->local, 2, x);
    sw__sc_view_models(a);
    return SW_RESULT_OK;
}

const sw__sc_actor_class sw__sc_targets = {.name = "targets",
                                           .material = SW_SHOWCASE_MATERIAL_TARGET,
                                           .create = sw__targets_create,
                                           .update = sw__targets_update};
