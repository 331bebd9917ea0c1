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

/* The guarded limbs of the built-in humanoid and each foot's hinge, from
 * the rest pose (the foot square to the shin): the axis in the ankle's
 * space that turns the toes toward the shin's line, away from the knee. */
static void sw__rag_limbs(sw__sc_rag* ra) {
    static const char* const names[4][4] = {{"LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase"},
                                            {"RightUpLeg", "RightLeg", "RightFoot", "RightToeBase"},
                                            {"LeftArm", "LeftForeArm", "LeftHand", NULL},
                                            {"RightArm", "RightForeArm", "RightHand", NULL}};
    const sw_skeleton* s = ra->skel;
    sw__sc_models(s, sw_skeleton_rest_pose(s), ra->anim_model);
    for (uint32_t l = 0; l < 4; ++l) {
        sw__sc_rag_limb* lb = &ra->limbs[l];
        lb->start = sw_skeleton_find_joint(s, names[l][0]);
        lb->mid = sw_skeleton_find_joint(s, names[l][1]);
        lb->end = sw_skeleton_find_joint(s, names[l][2]);
        lb->tip = names[l][3] ? sw_skeleton_find_joint(s, names[l][3]) : -1;
        lb->hinge = sw_vec3_make(0, 0, 0);
        lb->angle = 0.0f;
        lb->turn = 0.0f;
        if (lb->tip < 0 || lb->mid < 0 || lb->end < 0) continue;
        const sw_vec3 knee = sw__sc_pos(&ra->anim_model[lb->mid]);
        const sw_vec3 ankle = sw__sc_pos(&ra->anim_model[lb->end]);
        const sw_vec3 toe = sw__sc_pos(&ra->anim_model[lb->tip]);
        const sw_vec3 axis =
            sw_vec3_normalize(sw_vec3_cross(sw_vec3_sub(toe, ankle), sw_vec3_sub(ankle, knee)));
        lb->hinge =
            sw_quat_rotate(sw_quat_conjugate(sw_quat_from_mat4(&ra->anim_model[lb->end])), axis);
    }
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
    sw__rag_limbs(ra);
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

#define SW__RAG_TOE_POINT 1.6f  /* radians the guard turns a foot at most, pointing its toes */
#define SW__RAG_TOE_FLEX 0.8f   /* and the other way */
#define SW__RAG_TOE_SPEED 8.0f  /* rad/s the guard turns a foot at most */
#define SW__RAG_TOE_ACCEL 40.0f /* rad/s^2 that speed changes at most */
/* m over which a surface point is eased onto the ground (sw__sc_soft_floor
 * at 0): a hand's over more, so a hand pushed into the ground slows before
 * it (a foot's less, as it stands on the ground). */
#define SW__RAG_SKIN_EASE 0.005f
#define SW__RAG_HAND_EASE 0.06f

/* The angle about the hinge u lifting tip offset d (from the ankle at
 * height a) to height want, within the ankle's range (SW__RAG_TOE_*): the
 * first crossing turning the toes away from the knee (> 0) or back toward
 * it (< 0), whichever is nearer to `held` (the angle applied last); the
 * highest point when want is out of reach. */
static float sw__rag_toe_angle(sw_vec3 u, sw_vec3 d, float a, float want, float held) {
    const sw_vec3 par = sw_vec3_scale(u, sw_vec3_dot(d, u));
    const sw_vec3 perp = sw_vec3_sub(d, par);
    const float c1 = perp.y, c2 = sw_vec3_cross(u, perp).y;
    const float amp = hypotf(c1, c2);
    if (!(amp > 1e-6f)) return held;
    float phi = atan2f(c2, c1); /* the highest point, in [0, 2 pi) */
    if (phi < 0.0f) phi += 6.2831853f;
    const float k = (want - a - par.y) / amp;
    const float back = k >= 1.0f ? 0.0f : acosf(fmaxf(k, -1.0f));
    const float ahead = fminf(fmaxf(phi - back, 0.0f), SW__RAG_TOE_POINT);
    const float behind = fmaxf(fminf(phi - 6.2831853f + back, 0.0f), -SW__RAG_TOE_FLEX);
    return fabsf(ahead - held) <= fabsf(behind - held) ? ahead : behind;
}

/* Moves lb->angle toward goal, its speed eased (SW__RAG_TOE_SPEED,
 * SW__RAG_TOE_ACCEL): it brakes to stop at the goal and never passes it
 * in one step. */
static void sw__rag_ease_angle(sw__sc_rag_limb* lb, float goal, float dt) {
    const float err = goal - lb->angle;
    float want = fminf(sqrtf(2.0f * SW__RAG_TOE_ACCEL * fabsf(err)), SW__RAG_TOE_SPEED);
    if (dt > 0.0f) want = fminf(want, fabsf(err) / dt);
    want = copysignf(want, err);
    const float dv = SW__RAG_TOE_ACCEL * dt;
    lb->turn += fminf(fmaxf(want - lb->turn, -dv), dv);
    lb->angle += lb->turn * dt;
    if (lb->angle > SW__RAG_TOE_POINT || lb->angle < -SW__RAG_TOE_FLEX) {
        lb->angle = fminf(fmaxf(lb->angle, -SW__RAG_TOE_FLEX), SW__RAG_TOE_POINT);
        lb->turn = 0.0f;
    }
}

/* Turns limb lb's end joint about its hinge to lift its tip to the floor:
 * lb->angle eases toward the angle needed (0 once the tip is clear), so
 * the foot neither flips from one way to the other nor jerks. */
static void sw__rag_lift_tip(sw__sc_rag_limb* lb, sw__sc_actor* view, float dt) {
    const sw_vec3 a = sw__sc_pos(&view->model[lb->end]);
    const sw_vec3 tip = sw__sc_pos(&view->model[lb->tip]);
    const float want = sw__sc_floor(tip.y);
    sw_xform x;
    sw_mat4_decompose(&view->model[lb->end], &x);
    const sw_vec3 u = sw_vec3_normalize(sw_quat_rotate(x.r, lb->hinge));
    const float goal =
        want > tip.y ? sw__rag_toe_angle(u, sw_vec3_sub(tip, a), a.y, want, lb->angle) : 0.0f;
    sw__rag_ease_angle(lb, goal, dt);
    if (lb->angle == 0.0f) return;
    sw__sc_view_set_rotation(view, (uint32_t)lb->end,
                             sw_quat_mul(sw_quat_from_axis_angle(u, lb->angle), x.r));
    sw__sc_view_models(view);
}

sw_result sw__sc_rag_ground(sw__sc_rag* ra, sw__sc_actor* view, float dt) {
    for (uint32_t l = 0; l < 4; ++l) {
        sw__sc_rag_limb* lb = &ra->limbs[l];
        if (lb->start < 0 || lb->mid < 0 || lb->end < 0) continue;
        if (lb->tip >= 0) sw__rag_lift_tip(lb, view, dt);
        const int32_t limb[3] = {lb->start, lb->mid, lb->end};
        const sw_result r = sw__sc_lift_limb(view, limb, lb->end, lb->end,
                                             l >= 2u ? SW__RAG_HAND_EASE : SW__RAG_SKIN_EASE, 1);
        if (r != SW_RESULT_OK) return r;
    }
    float low = INFINITY;
    for (uint32_t j = 0; j < view->skel->joints_count; ++j)
        low = fminf(low, view->model[j].m[13]);
    const float lift = fmaxf(sw__sc_floor(low) - low,
                             sw__sc_surface_lift(sw__sc_skin_gap(view, -1), SW__RAG_SKIN_EASE));
    if (!(lift > 0.0f)) return SW_RESULT_OK;
    view->world.m[13] += lift;
    for (uint32_t j = 0; j < view->skel->joints_count; ++j)
        view->model[j].m[13] += lift;
    return SW_RESULT_OK;
}
