/* Foot placement: ground rays, pelvis lowering, two-bone legs, foot tilt, springs. */
#include <math.h>
#include <string.h>

#include "runtime/core/internal.h"
#include "sinew/core/local_to_model.h"
#include "sinew/ik/foot.h"
#include "sinew/ik/ik.h"

static bool sw__foot_finite3(sw_vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static sw_vec3 sw__foot_pos(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

/* True when joint a is b or an ancestor of b. */
static bool sw__foot_ancestor_or_self(const int16_t* parents, uint32_t a, uint32_t b) {
    int32_t j = (int32_t)b;
    while (j >= 0 && (uint32_t)j > a)
        j = parents[j];
    return j == (int32_t)a;
}

static bool sw__foot_half_life_ok(float h) {
    return isfinite(h);
}

static float sw__foot_or(float v, float def) {
    return v == 0.0f ? def : v;
}

sw_result sw_foot_job_validate(const sw_foot_job* job) {
    if (!job || !job->skeleton || !job->model || !job->legs || !job->ray || !job->state ||
        !job->pose)
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->legs_count == 0) return SW_RESULT_INVALID_ARGUMENT;
    if (job->legs_count > SW_FOOT_MAX_LEGS) return SW_RESULT_LIMIT;
    const sw_skeleton* skel = job->skeleton;
    const uint32_t n = skel->joints_count;
    if (n == 0 || n > SW_SKELETON_MAX_JOINTS) return SW_RESULT_INVALID_ARGUMENT;
    if (job->model_count < n || job->pose_count < skel->packets_count)
        return SW_RESULT_BUFFER_TOO_SMALL;
    if (!sw__aligned16(job->pose)) return SW_RESULT_MISALIGNED;
    /* Outputs against inputs and each other. */
    const size_t pose_bytes = (size_t)skel->packets_count * sizeof(sw_xform4);
    const size_t model_bytes = (size_t)n * sizeof(sw_mat4);
    const size_t legs_bytes = (size_t)job->legs_count * sizeof(sw_foot_leg);
    const void* outs[3] = {job->pose, job->model, job->state};
    const size_t outs_bytes[3] = {pose_bytes, model_bytes, sizeof(sw_foot_state)};
    for (int o = 0; o < 3; ++o) {
        if (sw__overlaps(outs[o], outs_bytes[o], skel, skel->size) ||
            sw__overlaps(outs[o], outs_bytes[o], job->legs, legs_bytes) ||
            sw__overlaps(outs[o], outs_bytes[o], job->root_transform,
                         job->root_transform ? sizeof(sw_mat4) : 0u))
            return SW_RESULT_OVERLAP;
        for (int p = o + 1; p < 3; ++p)
            if (sw__overlaps(outs[o], outs_bytes[o], outs[p], outs_bytes[p]))
                return SW_RESULT_OVERLAP;
    }
    if (!sw__foot_finite3(job->up) || !isfinite(job->floor_height))
        return SW_RESULT_INVALID_ARGUMENT;
    if (!(job->max_step_up >= 0.0f) || !isfinite(job->max_step_up) ||
        !(job->max_step_down >= 0.0f) || !isfinite(job->max_step_down))
        return SW_RESULT_INVALID_ARGUMENT;
    if (!(job->max_tilt >= 0.0f) || job->max_tilt > 1.57079633f) return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__foot_half_life_ok(job->foot_half_life) ||
        !sw__foot_half_life_ok(job->pelvis_half_life) ||
        !sw__foot_half_life_ok(job->tilt_half_life))
        return SW_RESULT_INVALID_ARGUMENT;
    if (!(job->dt >= 0.0f) || !isfinite(job->dt)) return SW_RESULT_INVALID_ARGUMENT;
    if (!(job->weight >= 0.0f) || job->weight > 1.0f) return SW_RESULT_INVALID_ARGUMENT;
    if (job->pelvis >= n) return SW_RESULT_INVALID_ARGUMENT;
    const int16_t* parents = sw_skeleton_parents(skel);
    for (uint32_t i = 0; i < job->legs_count; ++i) {
        const sw_foot_leg* leg = &job->legs[i];
        if (leg->hip >= n || leg->knee >= n || leg->ankle >= n) return SW_RESULT_INVALID_ARGUMENT;
        if (!sw__foot_finite3(leg->pole)) return SW_RESULT_INVALID_ARGUMENT;
        if (leg->hip == leg->knee || leg->knee == leg->ankle ||
            !sw__foot_ancestor_or_self(parents, leg->hip, leg->knee) ||
            !sw__foot_ancestor_or_self(parents, leg->knee, leg->ankle) ||
            !sw__foot_ancestor_or_self(parents, job->pelvis, leg->hip))
            return SW_RESULT_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < job->legs_count; ++i) {
        const sw_foot_leg* leg = &job->legs[i];
        const sw_vec3 h = sw__foot_pos(&job->model[leg->hip]);
        const sw_vec3 k = sw__foot_pos(&job->model[leg->knee]);
        const sw_vec3 a = sw__foot_pos(&job->model[leg->ankle]);
        const float l0 = sw_vec3_length(sw_vec3_sub(k, h));
        const float l1 = sw_vec3_length(sw_vec3_sub(a, k));
        if (!(l0 >= 1e-6f) || !(l1 >= 1e-6f) || !isfinite(l0) || !isfinite(l1))
            return SW_RESULT_BAD_DATA;
    }
    return SW_RESULT_OK;
}

/* Recomputes the model matrices of the sub-tree at `root`. */
static sw_result sw__foot_l2m(const sw_foot_job* job, uint32_t root) {
    const sw_local_to_model_job l2m = {.skeleton = job->skeleton,
                                       .local = job->pose,
                                       .local_count = job->pose_count,
                                       .root_transform = job->root_transform,
                                       .subtree = true,
                                       .subtree_root = root,
                                       .out = job->model,
                                       .out_count = job->model_count};
    return sw_local_to_model_job_run(&l2m);
}

/* The pelvis goal lowered (from pelvis_goal) far enough that the leg's
 * ankle, raised by goal along up, is in reach of its hip. */
static float sw__foot_pelvis_reach(const sw_foot_job* job, const sw_foot_leg* leg, sw_vec3 ankle,
                                   sw_vec3 up, float goal, float pelvis_goal) {
    const sw_vec3 hip = sw__foot_pos(&job->model[leg->hip]);
    const sw_vec3 knee = sw__foot_pos(&job->model[leg->knee]);
    const float reach =
        (sw_vec3_length(sw_vec3_sub(knee, hip)) + sw_vec3_length(sw_vec3_sub(ankle, knee))) *
        SW_FOOT_REACH;
    const sw_vec3 d = sw_vec3_sub(sw_vec3_add(ankle, sw_vec3_scale(up, goal)), hip);
    const float dv = sw_vec3_dot(d, up);
    const float dh = sw_vec3_length(sw_vec3_sub(d, sw_vec3_scale(up, dv)));
    if (dh < reach) {
        const float lowest = dv + sqrtf(reach * reach - dh * dh);
        if (lowest < pelvis_goal) return lowest;
    }
    return pelvis_goal;
}

/* Leg i: the two-bone solve onto its target, then the foot turned to its
 * animated orientation ankle_rot tilted towards the ground normal (at most
 * max_tilt, times the weight w); model matrices kept up to date. */
static sw_result sw__foot_solve_leg(const sw_foot_job* job, uint32_t i, sw_quat ankle_rot,
                                    sw_vec3 up, float max_tilt, float w) {
    const sw_foot_leg* leg = &job->legs[i];
    const bool pole = sw_vec3_length(leg->pole) > 0.0f;
    const sw_ik_two_bone_job ik = {
        .skeleton = job->skeleton,
        .model = job->model,
        .model_count = job->model_count,
        .root_transform = job->root_transform,
        .start_joint = leg->hip,
        .mid_joint = leg->knee,
        .end_joint = leg->ankle,
        .target = job->state->legs[i].target,
        .pole_mode = pole ? SW_IK_POLE_MODE_DIRECTION : SW_IK_POLE_MODE_NONE,
        .pole = leg->pole,
        .weight = 1.0f,
        .pose = job->pose,
        .pose_count = job->pose_count,
    };
    sw_result r = sw_ik_two_bone_job_run(&ik);
    if (r == SW_RESULT_OK) r = sw__foot_l2m(job, leg->hip);
    if (r != SW_RESULT_OK) return r;

    /* The foot: its animated orientation, tilted towards the ground normal. */
    sw_quat want = ankle_rot;
    if (!job->no_tilt) {
        const sw_vec3 n = sw_vec3_normalize(job->state->legs[i].normal.value);
        if (sw_vec3_length(n) > 0.5f) {
            sw_vec3 axis;
            float angle;
            sw_quat_to_axis_angle(sw_quat_from_to(up, n), &axis, &angle);
            if (angle > max_tilt) angle = max_tilt;
            want = sw_quat_mul(sw_quat_from_axis_angle(axis, angle * w), want);
        }
    }
    const sw_quat cur = sw_quat_from_mat4(&job->model[leg->ankle]);
    const sw_ik_rotate_job turn = {.skeleton = job->skeleton,
                                   .model = job->model,
                                   .model_count = job->model_count,
                                   .root_transform = job->root_transform,
                                   .joint = leg->ankle,
                                   .rotation = sw_quat_mul(want, sw_quat_conjugate(cur)),
                                   .weight = 1.0f,
                                   .pose = job->pose,
                                   .pose_count = job->pose_count};
    r = sw_ik_rotate_job_run(&turn);
    if (r == SW_RESULT_OK) r = sw__foot_l2m(job, leg->ankle);
    if (r != SW_RESULT_OK) return r;
    return SW_RESULT_OK;
}

sw_result sw_foot_job_run(const sw_foot_job* job) {
    sw_result r = sw_foot_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    const uint32_t count = job->legs_count;
    sw_foot_state* st = job->state;
    const sw_vec3 up = sw__foot_finite3(job->up) && sw_vec3_length(job->up) > 0.0f
                           ? sw_vec3_normalize(job->up)
                           : sw_vec3_make(0.0f, 1.0f, 0.0f);
    const float max_up = sw__foot_or(job->max_step_up, SW_FOOT_DEFAULT_MAX_STEP_UP);
    const float max_down = sw__foot_or(job->max_step_down, SW_FOOT_DEFAULT_MAX_STEP_DOWN);
    const float max_tilt = sw__foot_or(job->max_tilt, SW_FOOT_DEFAULT_MAX_TILT);
    const float foot_hl = sw__foot_or(job->foot_half_life, SW_FOOT_DEFAULT_FOOT_HALF_LIFE);
    const float pelvis_hl = sw__foot_or(job->pelvis_half_life, SW_FOOT_DEFAULT_PELVIS_HALF_LIFE);
    const float tilt_hl = sw__foot_or(job->tilt_half_life, SW_FOOT_DEFAULT_TILT_HALF_LIFE);
    const bool first = !st->started;
    const float w = job->weight;

    /* Animated ankle positions and rotations, before anything moves. */
    sw_vec3 ankle[SW_FOOT_MAX_LEGS];
    sw_quat ankle_rot[SW_FOOT_MAX_LEGS];
    float pelvis_goal = 0.0f;
    for (uint32_t i = 0; i < count; ++i) {
        const sw_foot_leg* leg = &job->legs[i];
        ankle[i] = sw__foot_pos(&job->model[leg->ankle]);
        ankle_rot[i] = sw_quat_from_mat4(&job->model[leg->ankle]);
        const float h = sw_vec3_dot(ankle[i], up) - job->floor_height;
        const sw_vec3 from = sw_vec3_add(ankle[i], sw_vec3_scale(up, max_up - h));
        sw_vec3 point = from, normal = up;
        bool hit = job->ray(job->ray_user, from, sw_vec3_scale(up, -1.0f), max_up + max_down,
                            &point, &normal);
        if (hit && (!sw__foot_finite3(point) || !sw__foot_finite3(normal))) hit = false;
        float goal = 0.0f;
        sw_vec3 n = up;
        if (hit) {
            goal = sw_vec3_dot(point, up) - job->floor_height;
            n = sw_vec3_normalize(normal);
            if (sw_vec3_dot(n, up) < 0.0f) n = sw_vec3_scale(n, -1.0f);
            if (!(sw_vec3_length(n) > 0.5f)) n = up;
        }
        sw_foot_leg_state* ls = &st->legs[i];
        ls->grounded = hit;
        if (first) {
            ls->offset.value = goal;
            ls->offset.velocity = 0.0f;
            ls->normal.value = n;
            ls->normal.velocity = sw_vec3_make(0.0f, 0.0f, 0.0f);
        } else {
            sw_spring_float_update(&ls->offset, goal, foot_hl, job->dt);
            sw_spring_vec3_update(&ls->normal, n, tilt_hl, job->dt);
        }
        /* The pelvis goes down with the lowest foot, and far enough that the
         * foot's target is in reach of its hip. */
        if (goal < pelvis_goal) pelvis_goal = goal;
        pelvis_goal = sw__foot_pelvis_reach(job, leg, ankle[i], up, goal, pelvis_goal);
    }
    if (first) {
        st->pelvis.value = pelvis_goal;
        st->pelvis.velocity = 0.0f;
    } else {
        sw_spring_float_update(&st->pelvis, pelvis_goal, pelvis_hl, job->dt);
    }
    if (st->pelvis.value > 0.0f) { /* never above the animation */
        st->pelvis.value = 0.0f;
        st->pelvis.velocity = 0.0f;
    }
    st->started = true;
    for (uint32_t i = 0; i < count; ++i)
        st->legs[i].target = sw_vec3_add(ankle[i], sw_vec3_scale(up, st->legs[i].offset.value * w));
    if (w == 0.0f) return SW_RESULT_OK;

    /* Pelvis: the model-space drop, brought into the parent's space. */
    const sw_skeleton* skel = job->skeleton;
    const int16_t parent = sw_skeleton_parents(skel)[job->pelvis];
    sw_mat4 parent_model = parent >= 0
                               ? job->model[parent]
                               : (job->root_transform ? *job->root_transform : sw_mat4_identity());
    sw_mat4 parent_inv;
    if (st->pelvis.value < 0.0f && sw_mat4_inverse_affine(&parent_model, &parent_inv)) {
        const sw_vec3 drop = sw_mat4_vector(&parent_inv, sw_vec3_scale(up, st->pelvis.value * w));
        sw_xform x = sw_pose_get(job->pose, job->pelvis);
        x.t = sw_vec3_add(x.t, drop);
        sw_pose_set(job->pose, job->pelvis, x);
        r = sw__foot_l2m(job, job->pelvis);
        if (r != SW_RESULT_OK) return r;
    }

    for (uint32_t i = 0; i < count; ++i) {
        r = sw__foot_solve_leg(job, i, ankle_rot[i], up, max_tilt, w);
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}
