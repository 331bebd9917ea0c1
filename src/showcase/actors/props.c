/* "props" (sinew/showcase/scene.h): the step, the beam on two posts and
 * the bumpy ground patch of the stage (stage.h), as one rigid mesh that
 * never moves. */
#include "showcase/actor.h"

/* Props: the step, the beam on two posts and the bumpy patch (one rigid mesh). */
static sw_result sw__props_create(sw__sc_ctx* ctx, sw__sc_actor* view, void** state,
                                  sw_error* err) {
    *state = NULL;
    const sw_skeleton_joint joint = {"Props", -1, sw_xform_identity()};
    const sw_skeleton* s = NULL;
    sw_result r = sw__sc_skeleton(&ctx->mem, &joint, 1, &s, err);
    if (r != SW_RESULT_OK) return r;
    const uint32_t n = 48;
    sw__mb b;
    r = sw__mb_init(&b, &ctx->mem, 4 * 24 + (n + 1) * (n + 1), 4 * 36 + n * n * 6);
    if (r != SW_RESULT_OK) return r;
    const sw_quat id = sw_quat_identity();
    sw__mb_box(&b, 0,
               sw_vec3_make(SW__SC_REACH_X + 0.5f * (SW__SC_STEP_X0 + SW__SC_STEP_X1),
                            0.5f * SW__SC_STEP_H,
                            SW__SC_REACH_Z + 0.5f * (SW__SC_STEP_Z0 + SW__SC_STEP_Z1)),
               sw_vec3_make(0.5f * (SW__SC_STEP_X1 - SW__SC_STEP_X0), 0.5f * SW__SC_STEP_H,
                            0.5f * (SW__SC_STEP_Z1 - SW__SC_STEP_Z0)),
               id);
    const float bz = SW__SC_SPIDER_Z + 0.5f * (SW__SC_BEAM_Z0 + SW__SC_BEAM_Z1);
    const float hz = 0.5f * (SW__SC_BEAM_Z1 - SW__SC_BEAM_Z0);
    sw__mb_box(&b, 0, sw_vec3_make(SW__SC_SPIDER_X, SW__SC_BEAM_Y + 0.5f * SW__SC_BEAM_T, bz),
               sw_vec3_make(SW__SC_BEAM_HALF, 0.5f * SW__SC_BEAM_T, hz), id);
    for (int side = -1; side <= 1; side += 2) {
        const float top = SW__SC_BEAM_Y + SW__SC_BEAM_T;
        sw__mb_box(&b, 0,
                   sw_vec3_make(SW__SC_SPIDER_X + (float)side * (SW__SC_BEAM_HALF + 0.04f),
                                0.5f * top, bz),
                   sw_vec3_make(0.04f, 0.5f * top, hz), id);
    }
    sw__mb_patch(&b, 0, SW__SC_SPIDER_X - SW__SC_BUMPS_R, SW__SC_SPIDER_X + SW__SC_BUMPS_R,
                 SW__SC_SPIDER_Z - SW__SC_BUMPS_R, SW__SC_SPIDER_Z + SW__SC_BUMPS_R, n,
                 sw__sc_ground);
    const uint16_t palette[1] = {0};
    const sw_mat4 ib[1] = {sw_mat4_identity()};
    const sw_mesh** meshes = (const sw_mesh**)sw__sc_alloc(&ctx->mem, sizeof(void*));
    if (!meshes) return SW_RESULT_OUT_OF_MEMORY;
    r = sw__mb_build(&b, &ctx->mem, "props", palette, ib, 1, 1, &meshes[0], err);
    if (r != SW_RESULT_OK) return r;
    return sw__sc_view_init(&ctx->mem, view, s, meshes, 1);
}

const sw__sc_actor_class sw__sc_props = {
    .name = "props", .material = SW_SHOWCASE_MATERIAL_PROP, .create = sw__props_create};
