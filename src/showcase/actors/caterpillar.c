/* "caterpillar" (sinew/showcase/scene.h): follow-the-leader segments
 * behind a head on a figure eight, a wave bobbing down the body. */
#include "showcase/actor.h"

#define SW__SC_SEGMENTS 12

typedef struct sw__cat {
    sw_vec3 points[SW__SC_SEGMENTS];
    float lengths[SW__SC_SEGMENTS - 1];
    sw_vec3 heading;
} sw__cat;

/* Caterpillar: a root and SEGMENTS spheres. */
static sw_result sw__cat_create(sw__sc_ctx* ctx, sw__sc_actor* view, void** state, sw_error* err) {
    sw__cat* sc = (sw__cat*)sw__sc_alloc(&ctx->mem, sizeof *sc);
    *state = sc;
    if (!sc) return SW_RESULT_OUT_OF_MEMORY;
    sw_skeleton_joint joints[SW__SC_SEGMENTS + 1];
    static const char* const names[SW__SC_SEGMENTS] = {
        "Segment0", "Segment1", "Segment2", "Segment3", "Segment4",  "Segment5",
        "Segment6", "Segment7", "Segment8", "Segment9", "Segment10", "Segment11"};
    joints[0] = (sw_skeleton_joint){"Caterpillar", -1, sw_xform_identity()};
    uint16_t palette[SW__SC_SEGMENTS];
    sw_mat4 ib[SW__SC_SEGMENTS];
    for (uint32_t i = 0; i < SW__SC_SEGMENTS; ++i) {
        joints[i + 1] = (sw_skeleton_joint){names[i], 0, sw_xform_identity()};
        joints[i + 1].rest.t = sw_vec3_make(0.0f, 0.1f, -0.14f * (float)i);
        palette[i] = (uint16_t)(i + 1);
        ib[i] = sw_mat4_identity();
        ib[i].m[13] = -0.1f;
        ib[i].m[14] = 0.14f * (float)i;
        if (i + 1 < SW__SC_SEGMENTS) sc->lengths[i] = 0.14f;
        sc->points[i] = sw_vec3_make(SW__SC_CAT_X, 0.0f, SW__SC_CAT_Z - 0.14f * (float)i);
    }
    const sw_skeleton* s = NULL;
    sw_result r = sw__sc_skeleton(&ctx->mem, joints, SW__SC_SEGMENTS + 1, &s, err);
    if (r != SW_RESULT_OK) return r;
    sw__mb b;
    const uint32_t sv = 11u * 7u, si = 10u * 6u * 6u;
    r = sw__mb_init(&b, &ctx->mem, SW__SC_SEGMENTS * sv + 24, SW__SC_SEGMENTS * si + 36);
    if (r != SW_RESULT_OK) return r;
    for (uint32_t i = 0; i < SW__SC_SEGMENTS; ++i) {
        const float rad = i == 0 ? 0.12f : 0.1f - 0.003f * (float)i;
        sw__mb_sphere(&b, (uint16_t)i, sw_vec3_make(0.0f, 0.1f, -0.14f * (float)i), rad, 10, 6);
    }
    const sw_mesh** meshes = (const sw_mesh**)sw__sc_alloc(&ctx->mem, sizeof(void*));
    if (!meshes) return SW_RESULT_OUT_OF_MEMORY;
    r = sw__mb_build(&b, &ctx->mem, "caterpillar", palette, ib, SW__SC_SEGMENTS, s->joints_count,
                     &meshes[0], err);
    if (r != SW_RESULT_OK) return r;
    sc->heading = sw_vec3_make(0, 0, 1);
    return sw__sc_view_init(&ctx->mem, view, s, meshes, 1);
}

static sw_result sw__cat_update(void* state, sw__sc_ctx* ctx, sw__sc_actor* a, float dt) {
    (void)dt;
    sw__cat* sc = (sw__cat*)state;
    const float t = (float)ctx->time;
    const float th = 0.42f * t, am = 1.05f;
    const sw_vec3 head =
        sw_vec3_make(SW__SC_CAT_X + am * sinf(th), 0.0f, SW__SC_CAT_Z + am * sinf(th) * cosf(th));
    const sw_vec3 step = sw_vec3_sub(head, sc->points[0]);
    if (sw_vec3_length(step) > 1e-5f) sc->heading = sw_vec3_normalize(step);
    const sw_chain_follow_job job = {.head = head,
                                     .lengths = sc->lengths,
                                     .lengths_count = SW__SC_SEGMENTS - 1,
                                     .points = sc->points,
                                     .points_count = SW__SC_SEGMENTS};
    const sw_result r = sw_chain_follow_job_run(&job);
    if (r != SW_RESULT_OK) return r;
    a->world = sw_mat4_identity();
    memcpy(a->local, sw_skeleton_rest_pose(a->skel), a->skel->packets_count * sizeof(sw_xform4));
    for (uint32_t i = 0; i < SW__SC_SEGMENTS; ++i) {
        const sw_vec3 dir =
            i == 0 ? sc->heading : sw_vec3_normalize(sw_vec3_sub(sc->points[i - 1], sc->points[i]));
        const float s = sinf(5.0f * t - 0.75f * (float)i);
        const float bob = 0.07f * (s > 0.0f ? s * s : 0.0f);
        sw_xform x = sw_xform_identity();
        x.t = sw_vec3_add(sc->points[i], sw_vec3_make(0.0f, 0.1f + bob, 0.0f));
        x.r = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), atan2f(dir.x, dir.z));
        sw_pose_set(a->local, i + 1, x);
    }
    sw__sc_view_models(a);
    return SW_RESULT_OK;
}

const sw__sc_actor_class sw__sc_caterpillar = {.name = "caterpillar",
                                               .material = SW_SHOWCASE_MATERIAL_CREATURE,
                                               .create = sw__cat_create,
                                               .update = sw__cat_update};
