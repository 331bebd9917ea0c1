/* The parts of the actor interface (actor.h) that actors share: the view
 * (pose, model matrices, palettes), placement, and the measures several
 * actors take (joint velocity jumps, planted-foot drift). */
#include "showcase/actor.h"

sw_result sw__sc_ctx_add_ragdoll(sw__sc_ctx* ctx, const sw__sc_ragdoll* r) {
    if (ctx->ragdolls_count == SW__SC_MAX_RAGDOLLS) return SW_RESULT_LIMIT;
    ctx->ragdolls[ctx->ragdolls_count++] = *r;
    return SW_RESULT_OK;
}

/* The palette entry weighing most on vertex v of mesh m. */
static uint32_t sw__sc_heaviest(const sw_mesh* m, uint32_t v) {
    const float* w = &sw_mesh_weights(m)[4u * v];
    uint32_t c = 0;
    for (uint32_t k = 1; k < 4u; ++k)
        if (w[k] > w[c]) c = k;
    return sw_mesh_joints(m)[4u * v + c];
}

/* a->skin from the view's meshes (memory from the list), grouped by a
 * counting sort on the heaviest joint. Fails: OUT_OF_MEMORY. */
static sw_result sw__sc_skin_init(sw__sc_mem* mem, sw__sc_actor* a) {
    const uint32_t n = a->skel->joints_count;
    sw__sc_skin* sk = &a->skin;
    uint32_t total = 0;
    for (uint32_t k = 0; k < a->meshes_count; ++k)
        total += a->meshes[k]->vertices_count;
    sk->points = (sw_vec3*)sw__sc_alloc(mem, (total ? total : 1u) * sizeof(sw_vec3));
    sk->first = (uint32_t*)sw__sc_alloc(mem, (n + 1u) * sizeof(uint32_t));
    if (!sk->points || !sk->first) return SW_RESULT_OUT_OF_MEMORY;
    memset(sk->first, 0, (n + 1u) * sizeof(uint32_t));
    for (uint32_t k = 0; k < a->meshes_count; ++k)
        for (uint32_t v = 0; v < a->meshes[k]->vertices_count; ++v)
            ++sk->first[sw_mesh_palette(a->meshes[k])[sw__sc_heaviest(a->meshes[k], v)] + 1u];
    for (uint32_t j = 0; j < n; ++j)
        sk->first[j + 1u] += sk->first[j];
    /* each vertex at its joint's cursor (first[j] counts up to first[j + 1]) */
    for (uint32_t k = 0; k < a->meshes_count; ++k) {
        const sw_mesh* m = a->meshes[k];
        for (uint32_t v = 0; v < m->vertices_count; ++v) {
            const uint32_t e = sw__sc_heaviest(m, v);
            const float* p = &sw_mesh_positions(m)[3u * v];
            sk->points[sk->first[sw_mesh_palette(m)[e]]++] =
                sw_mat4_point(&sw_mesh_inverse_binds(m)[e], sw_vec3_make(p[0], p[1], p[2]));
        }
    }
    for (uint32_t j = n; j > 0u; --j)
        sk->first[j] = sk->first[j - 1u];
    sk->first[0] = 0;
    return SW_RESULT_OK;
}

/* Whether joint j is top or below it: parents come first (parents[k] < k),
 * so j's chain is walked down to top only. */
static bool sw__sc_in_subtree(const int16_t* parents, int32_t top, int32_t j) {
    while (j > top)
        j = parents[j];
    return j == top;
}

float sw__sc_skin_low(const sw__sc_actor* a, int32_t top, sw_vec3* at) {
    const sw__sc_skin* sk = &a->skin;
    float low = INFINITY;
    if (!sk->first) return low; /* a view without meshes */
    const int16_t* parents = sw_skeleton_parents(a->skel);
    for (uint32_t j = top > 0 ? (uint32_t)top : 0u; j < a->skel->joints_count; ++j) {
        if (top >= 0 && !sw__sc_in_subtree(parents, top, (int32_t)j)) continue;
        const sw_mat4* m = &a->model[j];
        for (uint32_t k = sk->first[j]; k < sk->first[j + 1u]; ++k) {
            const sw_vec3 p = sw_mat4_point(m, sk->points[k]);
            const float g = p.y - sw__sc_ground(p.x, p.z, NULL);
            if (g < low) low = g, *at = p;
        }
    }
    return low;
}

float sw__sc_skin_gap(const sw__sc_actor* a, int32_t top) {
    sw_vec3 at;
    return sw__sc_skin_low(a, top, &at);
}

float sw__sc_surface_lift(float gap, float ease) {
    return gap < INFINITY ? sw__sc_soft_floor(gap, 0.0f, ease) - gap : 0.0f;
}

/* The lowest of joint top and the joints below it: its height over the
 * ground under it (model matrices current). */
static float sw__sc_joint_gap(const sw__sc_actor* a, int32_t top) {
    const int16_t* parents = sw_skeleton_parents(a->skel);
    float low = INFINITY;
    for (uint32_t j = (uint32_t)top; j < a->skel->joints_count; ++j) {
        if (!sw__sc_in_subtree(parents, top, (int32_t)j)) continue;
        const sw_vec3 p = sw__sc_pos(&a->model[j]);
        low = fminf(low, p.y - sw__sc_ground(p.x, p.z, NULL));
    }
    return low;
}

sw_result sw__sc_lift_limb(sw__sc_actor* a, const int32_t limb[3], int32_t joints, int32_t skin,
                           float ease, uint32_t passes) {
    for (uint32_t pass = 0; pass < passes; ++pass) {
        const float gap = sw__sc_joint_gap(a, joints);
        const float lift =
            fmaxf(sw__sc_floor(gap) - gap, sw__sc_surface_lift(sw__sc_skin_gap(a, skin), ease));
        if (!(lift > 0.0f)) break;
        const sw_result r = sw__sc_view_two_bone(
            a, limb[0], limb[1], limb[2],
            sw_vec3_add(sw__sc_pos(&a->model[limb[2]]), sw_vec3_make(0.0f, lift, 0.0f)));
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}

sw_result sw__sc_view_init(sw__sc_mem* m, sw__sc_actor* a, const sw_skeleton* s,
                           const sw_mesh* const* meshes, uint32_t meshes_count) {
    a->skel = s;
    a->meshes = meshes;
    a->meshes_count = meshes_count > SW_SHOWCASE_MAX_MESHES ? SW_SHOWCASE_MAX_MESHES : meshes_count;
    a->world = sw_mat4_identity();
    a->local = (sw_xform4*)sw__sc_alloc(m, s->packets_count * sizeof(sw_xform4));
    a->model = (sw_mat4*)sw__sc_alloc(m, s->joints_count * sizeof(sw_mat4));
    if (!a->local || !a->model) return SW_RESULT_OUT_OF_MEMORY;
    memcpy(a->local, sw_skeleton_rest_pose(s), s->packets_count * sizeof(sw_xform4));
    sw__sc_models(s, a->local, a->model);
    for (uint32_t k = 0; k < a->meshes_count; ++k) {
        a->palettes[k] = (sw_mat4*)sw__sc_alloc(m, meshes[k]->palette_count * sizeof(sw_mat4));
        if (!a->palettes[k]) return SW_RESULT_OUT_OF_MEMORY;
        a->palettes_view[k] = a->palettes[k];
    }
    return sw__sc_skin_init(m, a);
}

sw_quat sw__sc_rotation(const sw_mat4* m) {
    sw_xform x;
    sw_mat4_decompose(m, &x);
    return x.r;
}

void sw__sc_view_set_rotation(sw__sc_actor* a, uint32_t j, sw_quat q) {
    const int16_t up = sw_skeleton_parents(a->skel)[j];
    const sw_quat parent = sw__sc_rotation(up >= 0 ? &a->model[up] : &a->world);
    sw_xform x = sw_pose_get(a->local, j);
    x.r = sw_quat_normalize(sw_quat_mul(sw_quat_inverse(parent), q));
    sw_pose_set(a->local, j, x);
}

/* Two-bone IK at weight 1 on the view with the pole mode and pole given
 * (sw__sc_view_two_bone, sw__sc_view_two_bone_bent). */
static sw_result sw__sc_view_ik(sw__sc_actor* a, int32_t start, int32_t mid, int32_t end,
                                sw_vec3 target, sw_ik_pole_mode mode, sw_vec3 pole,
                                float softness) {
    const sw_ik_two_bone_job ik = {.skeleton = a->skel,
                                   .model = a->model,
                                   .model_count = a->skel->joints_count,
                                   .root_transform = &a->world,
                                   .start_joint = (uint32_t)start,
                                   .mid_joint = (uint32_t)mid,
                                   .end_joint = (uint32_t)end,
                                   .target = target,
                                   .pole_mode = mode,
                                   .pole = pole,
                                   .weight = 1.0f,
                                   .softness = softness,
                                   .pose = a->local,
                                   .pose_count = a->skel->packets_count};
    const sw_result r = sw_ik_two_bone_job_run(&ik);
    if (r == SW_RESULT_OK) sw__sc_view_models(a);
    return r;
}

sw_result sw__sc_view_two_bone(sw__sc_actor* a, int32_t start, int32_t mid, int32_t end,
                               sw_vec3 target) {
    return sw__sc_view_ik(a, start, mid, end, target, SW_IK_POLE_MODE_NONE,
                          sw_vec3_make(0.0f, 0.0f, 0.0f), 0.0f);
}

sw_result sw__sc_view_two_bone_bent(sw__sc_actor* a, int32_t start, int32_t mid, int32_t end,
                                    sw_vec3 target, sw_vec3 bend, float softness) {
    const bool has = sw_vec3_dot(bend, bend) > 0.0f;
    return sw__sc_view_ik(a, start, mid, end, target,
                          has ? SW_IK_POLE_MODE_DIRECTION : SW_IK_POLE_MODE_NONE, bend, softness);
}

/* Local-to-model of the view: every joint, or joint `root`'s sub-tree. */
static void sw__sc_view_l2m(sw__sc_actor* a, bool subtree, uint32_t root) {
    const sw_local_to_model_job job = {.skeleton = a->skel,
                                       .local = a->local,
                                       .local_count = a->skel->packets_count,
                                       .root_transform = &a->world,
                                       .subtree = subtree,
                                       .subtree_root = root,
                                       .out = a->model,
                                       .out_count = a->skel->joints_count};
    (void)sw_local_to_model_job_run(&job);
}

void sw__sc_view_models(sw__sc_actor* a) {
    sw__sc_view_l2m(a, false, 0u);
}

void sw__sc_view_models_below(sw__sc_actor* a, uint32_t j) {
    sw__sc_view_l2m(a, true, j);
}

sw_result sw__sc_view_palettes(sw__sc_actor* a) {
    for (uint32_t k = 0; k < a->meshes_count; ++k) {
        const sw_mesh* m = a->meshes[k];
        const sw_skinning_job job = {.model = a->model,
                                     .model_count = a->skel->joints_count,
                                     .joints = sw_mesh_palette(m),
                                     .inverse_bind = sw_mesh_inverse_binds(m),
                                     .count = m->palette_count,
                                     .out = a->palettes[k],
                                     .out_count = m->palette_count};
        const sw_result r = sw_skinning_job_run(&job);
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}

sw_mat4 sw__sc_world(sw_vec3 p, float yaw, float scale) {
    sw_xform x = sw_xform_identity();
    x.t = p;
    x.r = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), yaw);
    x.s = sw_vec3_make(scale, scale, scale);
    return sw_mat4_from_xform(x);
}

sw_result sw__sc_velocity_init(sw__sc_mem* m, sw__sc_velocity* v, uint32_t joints) {
    v->prev_pos = (sw_vec3*)sw__sc_alloc(m, joints * sizeof(sw_vec3));
    v->prev_vel = (sw_vec3*)sw__sc_alloc(m, joints * sizeof(sw_vec3));
    return v->prev_pos && v->prev_vel ? SW_RESULT_OK : SW_RESULT_OUT_OF_MEMORY;
}

float sw__sc_velocity_jump(sw__sc_velocity* v, const sw__sc_actor* a, float dt) {
    float jump = 0.0f;
    const uint32_t n = a->skel->joints_count;
    for (uint32_t j = 0; j < n; ++j) {
        const sw_vec3 p = sw__sc_pos(&a->model[j]);
        sw_vec3 vel = sw_vec3_make(0, 0, 0);
        if (v->valid >= 1 && dt > 0.0f)
            vel = sw_vec3_scale(sw_vec3_sub(p, v->prev_pos[j]), 1.0f / dt);
        if (v->valid >= 2) jump = fmaxf(jump, sw_vec3_length(sw_vec3_sub(vel, v->prev_vel[j])));
        v->prev_pos[j] = p;
        v->prev_vel[j] = vel;
    }
    if (dt > 0.0f && v->valid < 2) ++v->valid;
    return jump;
}

void sw__sc_close_step(sw__sc_plant* p, uint32_t* steps, float* max, double* sum) {
    if (!p->planted) return;
    p->planted = false;
    ++*steps;
    *max = fmaxf(*max, p->drift);
    *sum += p->drift;
}
