/* Follow-the-leader chains, aiming a joint chain at points, jiggle chains. */
#include <math.h>
#include <string.h>

#include "runtime/core/internal.h"
#include "sinew/ik/ik.h"
#include "sinew/procedural/chain.h"

/* Collider pushes and length projections alternate at most this many times. */
#define SW__JIGGLE_CONSTRAINT_ROUNDS 8
/* Sub-step counts round up when the accumulated time is within this fraction
 * of a step, so 1/30 s really is 4 steps of 1/120 s in float. */
#define SW__JIGGLE_STEP_SLACK 1e-4

static bool sw__finite3(sw_vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static sw_vec3 sw__mat4_translation(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

/* ---- points from a pose ---- */

sw_result sw_chain_points_from_model(const sw_mat4* model, uint32_t model_count,
                                     const uint32_t* joints, uint32_t joints_count, sw_vec3* points,
                                     float* lengths) {
    if (!model || !joints || !points || joints_count == 0) return SW_RESULT_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < joints_count; ++i)
        if (joints[i] >= model_count) return SW_RESULT_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < joints_count; ++i) {
        points[i] = sw__mat4_translation(&model[joints[i]]);
        if (lengths && i > 0)
            lengths[i - 1] = sw_vec3_length(sw_vec3_sub(points[i], points[i - 1]));
    }
    return SW_RESULT_OK;
}

/* ---- follow-the-leader ---- */

sw_result sw_chain_follow_job_validate(const sw_chain_follow_job* job) {
    if (!job || !job->points || job->points_count == 0) return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__finite3(job->head)) return SW_RESULT_INVALID_ARGUMENT;
    const uint32_t segments = job->points_count - 1u;
    if (segments == 0) return SW_RESULT_OK;
    if (!job->lengths) return SW_RESULT_INVALID_ARGUMENT;
    if (job->lengths_count < segments) return SW_RESULT_BUFFER_TOO_SMALL;
    if (sw__overlaps(job->points, (size_t)job->points_count * sizeof(sw_vec3), job->lengths,
                     (size_t)segments * sizeof(float)))
        return SW_RESULT_OVERLAP;
    for (uint32_t i = 0; i < segments; ++i)
        if (!(job->lengths[i] >= 0.0f) || !isfinite(job->lengths[i]))
            return SW_RESULT_INVALID_ARGUMENT;
    return SW_RESULT_OK;
}

sw_result sw_chain_follow_job_run(const sw_chain_follow_job* job) {
    sw_result r = sw_chain_follow_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    sw_vec3* p = job->points;
    p[0] = job->head;
    for (uint32_t i = 1; i < job->points_count; ++i) {
        sw_vec3 d = sw_vec3_sub(p[i], p[i - 1]);
        float len = sw_vec3_length(d);
        if (!(len > 0.0f) || !isfinite(len)) {
            /* On its leader: continue the segment in front, or hang below the head. */
            d = i >= 2 ? sw_vec3_sub(p[i - 1], p[i - 2]) : sw_vec3_make(0.0f, -1.0f, 0.0f);
            len = sw_vec3_length(d);
            if (!(len > 0.0f)) {
                d = sw_vec3_make(0.0f, -1.0f, 0.0f);
                len = 1.0f;
            }
        }
        p[i] = sw_vec3_add(p[i - 1], sw_vec3_scale(d, job->lengths[i - 1] / len));
    }
    return SW_RESULT_OK;
}

/* ---- shared chain checks and the aim write-back ---- */

/* The chain's joints are in range and each is an ancestor of the next. */
static sw_result sw__check_chain(const sw_skeleton* skel, const uint32_t* joints, uint32_t count) {
    if (count < 2) return SW_RESULT_INVALID_ARGUMENT;
    if (count > SW_CHAIN_MAX_JOINTS) return SW_RESULT_LIMIT;
    if (skel->joints_count == 0 || skel->joints_count > SW_SKELETON_MAX_JOINTS)
        return SW_RESULT_INVALID_ARGUMENT;
    const int16_t* parents = sw_skeleton_parents(skel);
    for (uint32_t i = 0; i < count; ++i) {
        if (joints[i] >= skel->joints_count) return SW_RESULT_INVALID_ARGUMENT;
        if (i == 0) continue;
        /* Walk up from joints[i]; parents are earlier joints, so this ends. */
        int32_t j = parents[joints[i]];
        while (j >= 0 && (uint32_t)j != joints[i - 1])
            j = parents[j];
        if (j < 0) return SW_RESULT_INVALID_ARGUMENT;
    }
    return SW_RESULT_OK;
}

/* Checks shared by the aim and jiggle jobs (skeleton, model, pose, chain). */
static sw_result sw__check_pose_job(const sw_skeleton* skel, const sw_mat4* model,
                                    uint32_t model_count, const sw_mat4* root_transform,
                                    const uint32_t* joints, uint32_t joints_count, float weight,
                                    const sw_xform4* pose, uint32_t pose_count) {
    if (!skel || !model || !joints || !pose) return SW_RESULT_INVALID_ARGUMENT;
    if (!(weight >= 0.0f && weight <= 1.0f)) return SW_RESULT_INVALID_ARGUMENT;
    sw_result r = sw__check_chain(skel, joints, joints_count);
    if (r != SW_RESULT_OK) return r;
    if (model_count < skel->joints_count || pose_count < skel->packets_count)
        return SW_RESULT_BUFFER_TOO_SMALL;
    if (!sw__aligned16(pose)) return SW_RESULT_MISALIGNED;
    const size_t pose_bytes = (size_t)skel->packets_count * sizeof(sw_xform4);
    if (sw__overlaps(pose, pose_bytes, model, (size_t)skel->joints_count * sizeof(sw_mat4)) ||
        sw__overlaps(pose, pose_bytes, root_transform, root_transform ? sizeof(sw_mat4) : 0) ||
        sw__overlaps(pose, pose_bytes, skel, skel->size) ||
        sw__overlaps(pose, pose_bytes, joints, (size_t)joints_count * sizeof(uint32_t)))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}

/* Model-space rotation of a joint's skeleton parent (the root transform, or
 * identity, for a root). */
static sw_quat sw__parent_rotation(const sw_skeleton* skel, const sw_mat4* model,
                                   const sw_mat4* root_transform, uint32_t joint) {
    const int16_t parent = sw_skeleton_parents(skel)[joint];
    if (parent >= 0) return sw_quat_from_mat4(&model[parent]);
    return root_transform ? sw_quat_from_mat4(root_transform) : sw_quat_identity();
}

/* Turns each chain joint towards the next point (validated inputs). */
static void sw__aim(const sw_skeleton* skel, const sw_mat4* model, const sw_mat4* root_transform,
                    const uint32_t* joints, uint32_t n, const sw_vec3* points, float weight,
                    sw_xform4* pose) {
    if (weight <= 0.0f) return; /* bit-identical pose */
    sw_vec3 pos[SW_CHAIN_MAX_JOINTS];
    sw_quat parent_rot[SW_CHAIN_MAX_JOINTS];
    for (uint32_t k = 0; k < n; ++k) {
        pos[k] = sw__mat4_translation(&model[joints[k]]);
        parent_rot[k] = sw__parent_rotation(skel, model, root_transform, joints[k]);
    }
    for (uint32_t i = 0; i + 1 < n; ++i) {
        const sw_vec3 cur = sw_vec3_sub(pos[i + 1], pos[i]);
        const sw_vec3 want = sw_vec3_sub(points[i + 1], pos[i]);
        if (!(sw_vec3_dot(cur, cur) > 1e-18f) || !(sw_vec3_dot(want, want) > 1e-18f)) continue;
        const sw_quat full = sw_quat_from_to(cur, want);
        /* local' = inverse(P) * slerp(identity, full, weight) * P * local (sinew/ik/ik.h). */
        sw_xform local = sw_pose_get(pose, joints[i]);
        local.r = sw_ik_local_rotation(parent_rot[i], local.r, full, weight);
        sw_pose_set(pose, joints[i], local);
        const sw_quat turn = weight < 1.0f ? sw_quat_slerp(sw_quat_identity(), full, weight) : full;
        /* Everything below joint i turns with it about its position. */
        for (uint32_t k = i + 1; k < n; ++k) {
            pos[k] = sw_vec3_add(pos[i], sw_quat_rotate(turn, sw_vec3_sub(pos[k], pos[i])));
            parent_rot[k] = sw_quat_normalize(sw_quat_mul(turn, parent_rot[k]));
        }
    }
}

sw_result sw_chain_aim_job_validate(const sw_chain_aim_job* job) {
    if (!job || !job->points) return SW_RESULT_INVALID_ARGUMENT;
    sw_result r =
        sw__check_pose_job(job->skeleton, job->model, job->model_count, job->root_transform,
                           job->joints, job->joints_count, job->weight, job->pose, job->pose_count);
    if (r != SW_RESULT_OK) return r;
    if (job->points_count < job->joints_count) return SW_RESULT_BUFFER_TOO_SMALL;
    for (uint32_t i = 0; i < job->joints_count; ++i)
        if (!sw__finite3(job->points[i])) return SW_RESULT_INVALID_ARGUMENT;
    if (sw__overlaps(job->pose, (size_t)job->skeleton->packets_count * sizeof(sw_xform4),
                     job->points, (size_t)job->joints_count * sizeof(sw_vec3)))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}

sw_result sw_chain_aim_job_run(const sw_chain_aim_job* job) {
    sw_result r = sw_chain_aim_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    sw__aim(job->skeleton, job->model, job->root_transform, job->joints, job->joints_count,
            job->points, job->weight, job->pose);
    return SW_RESULT_OK;
}

/* ---- jiggle ---- */

static bool sw__collider_ok(const sw_jiggle_collider* c) {
    return sw__finite3(c->a) && sw__finite3(c->b) && c->radius >= 0.0f && isfinite(c->radius);
}

sw_result sw_jiggle_job_validate(const sw_jiggle_job* job) {
    if (!job || !job->state || !job->state->points) return SW_RESULT_INVALID_ARGUMENT;
    sw_result r =
        sw__check_pose_job(job->skeleton, job->model, job->model_count, job->root_transform,
                           job->joints, job->joints_count, job->weight, job->pose, job->pose_count);
    if (r != SW_RESULT_OK) return r;
    if (!(job->dt >= 0.0f) || !isfinite(job->dt)) return SW_RESULT_INVALID_ARGUMENT;
    if (!(job->stiffness >= 0.0f) || !isfinite(job->stiffness)) return SW_RESULT_INVALID_ARGUMENT;
    if (!(job->damping >= 0.0f) || !isfinite(job->damping)) return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__finite3(job->gravity)) return SW_RESULT_INVALID_ARGUMENT;
    if (!(job->step >= 0.0f && job->step <= 1.0f)) return SW_RESULT_INVALID_ARGUMENT;
    if (job->colliders_count > 0 && !job->colliders) return SW_RESULT_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < job->colliders_count; ++i)
        if (!sw__collider_ok(&job->colliders[i])) return SW_RESULT_INVALID_ARGUMENT;
    if (job->state->points_count < job->joints_count) return SW_RESULT_BUFFER_TOO_SMALL;
    const size_t pose_bytes = (size_t)job->skeleton->packets_count * sizeof(sw_xform4);
    const size_t pts_bytes = (size_t)job->joints_count * sizeof(sw_jiggle_point);
    const void* outs[2] = {job->pose, job->state->points};
    const size_t outs_bytes[2] = {pose_bytes, pts_bytes};
    for (int o = 0; o < 2; ++o) {
        if (sw__overlaps(outs[o], outs_bytes[o], job->model,
                         (size_t)job->skeleton->joints_count * sizeof(sw_mat4)) ||
            sw__overlaps(outs[o], outs_bytes[o], job->skeleton, job->skeleton->size) ||
            sw__overlaps(outs[o], outs_bytes[o], job->joints,
                         (size_t)job->joints_count * sizeof(uint32_t)) ||
            sw__overlaps(outs[o], outs_bytes[o], job->root_transform,
                         job->root_transform ? sizeof(sw_mat4) : 0) ||
            sw__overlaps(outs[o], outs_bytes[o], job->colliders,
                         (size_t)job->colliders_count * sizeof(sw_jiggle_collider)) ||
            sw__overlaps(outs[o], outs_bytes[o], job->state, sizeof(sw_jiggle_state)))
            return SW_RESULT_OVERLAP;
    }
    if (sw__overlaps(job->pose, pose_bytes, job->state->points, pts_bytes))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}

/* Pushes x out of every collider in turn; true when it moved. `away` is the
 * push direction used when x sits exactly on a collider's axis. */
static bool sw__push_out(sw_vec3* x, const sw_jiggle_collider* cs, uint32_t count, sw_vec3 away) {
    bool moved = false;
    for (uint32_t c = 0; c < count; ++c) {
        const sw_vec3 ab = sw_vec3_sub(cs[c].b, cs[c].a);
        const float ab2 = sw_vec3_dot(ab, ab);
        float t = ab2 > 0.0f ? sw_vec3_dot(sw_vec3_sub(*x, cs[c].a), ab) / ab2 : 0.0f;
        t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
        const sw_vec3 closest = sw_vec3_add(cs[c].a, sw_vec3_scale(ab, t));
        sw_vec3 d = sw_vec3_sub(*x, closest);
        const float len = sw_vec3_length(d);
        if (len >= cs[c].radius) continue;
        if (len > 1e-9f) {
            d = sw_vec3_scale(d, 1.0f / len);
        } else {
            d = sw_vec3_normalize(away);
            if (!(sw_vec3_dot(d, d) > 0.0f)) d = sw_vec3_make(0.0f, 1.0f, 0.0f);
        }
        *x = sw_vec3_add(closest, sw_vec3_scale(d, cs[c].radius));
        moved = true;
    }
    return moved;
}

/* x at distance len from parent along parent->x (along `fallback` when x is
 * on the parent). */
static sw_vec3 sw__at_length(sw_vec3 parent, sw_vec3 x, float len, sw_vec3 fallback) {
    sw_vec3 d = sw_vec3_sub(x, parent);
    float l = sw_vec3_length(d);
    if (!(l > 1e-12f)) {
        d = fallback;
        l = sw_vec3_length(d);
        if (!(l > 1e-12f)) return x;
    }
    return sw_vec3_add(parent, sw_vec3_scale(d, len / l));
}

sw_result sw_jiggle_job_run(const sw_jiggle_job* job) {
    sw_result r = sw_jiggle_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    const uint32_t n = job->joints_count;
    sw_jiggle_state* st = job->state;
    sw_jiggle_point* pt = st->points;

    sw_vec3 goal[SW_CHAIN_MAX_JOINTS];
    float len[SW_CHAIN_MAX_JOINTS];
    for (uint32_t i = 0; i < n; ++i) {
        goal[i] = sw__mat4_translation(&job->model[job->joints[i]]);
        len[i] = i > 0 ? sw_vec3_length(sw_vec3_sub(goal[i], goal[i - 1])) : 0.0f;
    }
    if (!st->started) {
        for (uint32_t i = 0; i < n; ++i)
            pt[i].position = pt[i].previous = pt[i].goal = pt[i].step_goal = goal[i];
        st->time = 0.0f;
        st->started = true;
    }

    const float h = job->step > 0.0f ? job->step : SW_JIGGLE_DEFAULT_STEP;
    const uint32_t max_steps = job->max_steps ? job->max_steps : SW_JIGGLE_DEFAULT_MAX_STEPS;
    const float kh2 = fminf(job->stiffness * h * h, 1.0f);
    const float decay = expf(-job->damping * h);
    const sw_vec3 gh2 = sw_vec3_scale(job->gravity, h * h);

    /* Sub-steps on the fixed grid: step k ends k * h - time0 after the last run. */
    const double time0 = st->time >= 0.0f && st->time < h ? (double)st->time : 0.0;
    const double total = time0 + (double)job->dt;
    double ratio = total / (double)h + SW__JIGGLE_STEP_SLACK;
    uint32_t steps;
    bool dropped = false;
    if (ratio >= (double)max_steps + 1.0) {
        steps = max_steps;
        dropped = true;
    } else {
        steps = (uint32_t)ratio;
    }

    for (uint32_t k = 1; k <= steps; ++k) {
        float f;
        if (dropped) {
            f = (float)k / (float)steps;
        } else {
            const double fk = job->dt > 0.0f ? ((double)k * h - time0) / job->dt : 1.0;
            f = (float)(fk < 0.0 ? 0.0 : fk > 1.0 ? 1.0 : fk);
        }
        /* g[0] outside the loop: n >= 2 (validated), which aarch64 gcc 12's
         * -Wmaybe-uninitialized cannot see. */
        sw_vec3 g[SW_CHAIN_MAX_JOINTS];
        g[0] = f >= 1.0f ? goal[0] : sw_vec3_lerp(pt[0].goal, goal[0], f);
        for (uint32_t i = 1; i < n; ++i)
            g[i] = f >= 1.0f ? goal[i] : sw_vec3_lerp(pt[i].goal, goal[i], f);
        /* Verlet step. Damping acts on the velocity relative to the animated
         * motion over this step (u), so a chain carried along by the animation
         * is not dragged; each point is pulled towards its parent's position
         * (before this step) plus the animated offset. */
        sw_vec3 parent_before = pt[0].position;
        pt[0].previous = pt[0].position;
        pt[0].position = g[0];
        for (uint32_t i = 1; i < n; ++i) {
            const sw_vec3 x = pt[i].position;
            const sw_vec3 u = sw_vec3_sub(g[i], pt[i].step_goal);
            const sw_vec3 v = sw_vec3_add(
                u, sw_vec3_scale(sw_vec3_sub(sw_vec3_sub(x, pt[i].previous), u), decay));
            const sw_vec3 want = sw_vec3_add(parent_before, sw_vec3_sub(g[i], g[i - 1]));
            const sw_vec3 pull = sw_vec3_scale(sw_vec3_sub(want, x), kh2);
            parent_before = x;
            pt[i].previous = x;
            pt[i].position = sw_vec3_add(sw_vec3_add(x, v), sw_vec3_add(gh2, pull));
        }
        /* Constraints, root to tip: length to the (final) parent, colliders. */
        for (uint32_t i = 1; i < n; ++i) {
            const sw_vec3 parent = pt[i - 1].position;
            const sw_vec3 rest_dir = sw_vec3_sub(g[i], g[i - 1]);
            sw_vec3 x = pt[i].position;
            for (int round = 0; round < SW__JIGGLE_CONSTRAINT_ROUNDS; ++round) {
                x = sw__at_length(parent, x, len[i], rest_dir);
                if (!sw__push_out(&x, job->colliders, job->colliders_count, sw_vec3_sub(x, parent)))
                    break;
            }
            pt[i].position = x;
        }
        for (uint32_t i = 0; i < n; ++i)
            pt[i].step_goal = g[i];
    }
    double left = dropped ? 0.0 : total - (double)steps * h;
    if (left < 0.0) left = 0.0;
    st->time = (float)left;
    if (!(st->time < h)) st->time = 0.0f;
    for (uint32_t i = 0; i < n; ++i)
        pt[i].goal = goal[i];

    /* Positions between the last two sub-steps, the root moved onto its pose. */
    const float alpha = st->time / h;
    sw_vec3 out[SW_CHAIN_MAX_JOINTS];
    for (uint32_t i = 0; i < n; ++i)
        out[i] = sw_vec3_lerp(pt[i].previous, pt[i].position, alpha);
    const sw_vec3 shift = sw_vec3_sub(goal[0], out[0]);
    for (uint32_t i = 0; i < n; ++i)
        out[i] = sw_vec3_add(out[i], shift);

    sw__aim(job->skeleton, job->model, job->root_transform, job->joints, n, out, job->weight,
            job->pose);
    return SW_RESULT_OK;
}
