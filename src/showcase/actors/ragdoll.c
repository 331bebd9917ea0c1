/* What the ragdoll actors share (ragdoll.h). */
#include "showcase/actors/ragdoll.h"

void sw__sc_rag_models(const sw_skeleton* s, const sw_xform4* local, sw_xform root, sw_mat4* out) {
    const sw_mat4 world = sw_mat4_from_xform(root);
    const sw_local_to_model_job job = {.skeleton = s,
                                       .local = local,
                                       .local_count = s->packets_count,
                                       .root_transform = &world,
                                       .out = out,
                                       .out_count = s->joints_count};
    (void)sw_local_to_model_job_run(&job);
}

/* The humanoid ragdoll description of the built-in skeleton; *chest = its chest joint. */
static sw_result sw__rag_desc(const sw_skeleton* s, sw_ragdoll_desc* desc, uint32_t* chest,
                              sw_error* err) {
    const char* const names[] = {
        "Hips",       "Spine",       "Spine1",       "Neck",     "Head",      "LeftArm",
        "RightArm",   "LeftForeArm", "RightForeArm", "LeftHand", "RightHand", "LeftUpLeg",
        "RightUpLeg", "LeftLeg",     "RightLeg",     "LeftFoot", "RightFoot"};
    int32_t j[17];
    for (uint32_t k = 0; k < 17u; ++k)
        j[k] = sw_skeleton_find_joint(s, names[k]);
    *chest = (uint32_t)j[2];
    const sw_ragdoll_humanoid_joints hj = {
        .hips = j[0],
        .spine = j[1],
        .chest = j[2],
        .neck = j[3],
        .head = j[4],
        .upper_arm = {j[5], j[6]},
        .forearm = {j[7], j[8]},
        .hand = {j[9], j[10]},
        .thigh = {j[11], j[12]},
        .shin = {j[13], j[14]},
        .foot = {j[15], j[16]},
    };
    return sw_ragdoll_desc_humanoid(s, &hj, NULL, desc, NULL, err);
}

sw_result sw__sc_rag_init(sw__sc_ctx* ctx, sw__sc_actor* view, sw__sc_rag* ra,
                          const sw_scene** humanoid, sw_error* err) {
    sw_result r = sw__sc_cast_builtin(&ctx->cast, &ctx->mem, humanoid, err);
    if (r != SW_RESULT_OK) return r;
    const sw_scene* b = *humanoid;
    const sw_skeleton* s = b->skeleton;
    r = sw__sc_view_init(&ctx->mem, view, s, b->meshes, b->meshes_count);
    if (r != SW_RESULT_OK) return r;
    ra->skel = s;
    const size_t pose_bytes = s->packets_count * sizeof(sw_xform4);
    ra->anim = (sw_xform4*)sw__sc_alloc(&ctx->mem, pose_bytes);
    ra->physics = (sw_xform4*)sw__sc_alloc(&ctx->mem, pose_bytes);
    ra->anim_model = (sw_mat4*)sw__sc_alloc(&ctx->mem, s->joints_count * sizeof(sw_mat4));
    if (!ra->anim || !ra->physics || !ra->anim_model) return SW_RESULT_OUT_OF_MEMORY;
    sw_ragdoll_desc desc;
    r = sw__rag_desc(s, &desc, &ra->chest, err);
    if (r != SW_RESULT_OK) return r;
    const size_t size = sw_ragdoll_measure(&desc, s);
    void* mem = sw__sc_alloc(&ctx->mem, size);
    if (!mem) return SW_RESULT_OUT_OF_MEMORY;
    return sw_ragdoll_init(mem, size, &desc, s, ctx->physics, &ra->rd, err);
}

sw_result sw__sc_rag_spawn(sw__sc_ctx* ctx, sw__sc_rag* ra, uint32_t id, sw_error* err) {
    const sw_result r =
        sw_ragdoll_spawn(ra->rd, ra->anim, ra->skel->packets_count, ra->root, id, err);
    if (r != SW_RESULT_OK) return r;
    const sw__sc_ragdoll reg = {
        .rd = ra->rd, .pose = ra->anim, .pose_count = ra->skel->packets_count, .root = &ra->root};
    return sw__sc_ctx_add_ragdoll(ctx, &reg);
}

void sw__sc_rag_despawn(sw__sc_rag* ra) {
    if (ra->rd) sw_ragdoll_despawn(ra->rd);
}

sw_result sw__sc_rag_show(sw__sc_rag* ra, sw__sc_actor* view, float alpha) {
    const uint32_t n = ra->skel->packets_count;
    sw_result res = sw_ragdoll_read(ra->rd, alpha, ra->root, ra->anim, n, ra->physics, n);
    if (res == SW_RESULT_OK) res = sw_ragdoll_blend(ra->rd, ra->anim, ra->physics, view->local, n);
    return res;
}

void sw__sc_rag_place(const sw__sc_rag* ra, sw__sc_actor* view) {
    view->world = sw_mat4_from_xform(ra->root);
    sw__sc_rag_models(ra->skel, view->local, ra->root, view->model);
}
