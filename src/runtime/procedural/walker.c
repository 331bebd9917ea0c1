/* Procedural multi-legged walker: stepping feet, gait groups, body height and tilt. */
#include <math.h>
#include <string.h>

#include "runtime/core/internal.h"
#include "sinew/procedural/walker.h"

#define SW__WALKER_PI 3.14159265358979f
/* Fraction of stride past which the other legs of a lifting group join it. */
#define SW__WALKER_JOIN 0.5f
/* Once stopped (speed and turn rate below these), legs farther than this
 * fraction of the stride from home step back to it. */
#define SW__WALKER_SETTLE 0.25f
/* The feet's speed ratio to stride_speed is clamped to this range. */
#define SW__WALKER_GAIT_MIN 0.25f
#define SW__WALKER_GAIT_MAX 4.0f
#define SW__WALKER_STOPPED_SPEED 0.01f /* m/s */
#define SW__WALKER_STOPPED_TURN 0.01f  /* rad/s */
/* Ridge added to the plane fit (m^2 per leg), so two legs or one still give a plane. */
#define SW__WALKER_RIDGE 1e-4f

static bool sw__walker_finite3(sw_vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static bool sw__walker_nonneg(float v) {
    return v >= 0.0f && isfinite(v);
}

static float sw__walker_or(float v, float def) {
    return v == 0.0f ? def : v;
}

/* The desc with its defaults filled in. */
typedef struct sw__walker_params {
    float min_height, step_duration, step_height, dip_speed, max_tilt, ray_up, ray_down;
    float height_hl, tilt_hl, velocity_hl, turn_hl;
} sw__walker_params;

static sw__walker_params sw__walker_defaults(const sw_walker_desc* d) {
    sw__walker_params p;
    p.min_height = sw__walker_or(d->min_height, 0.5f * d->height);
    p.step_duration = sw__walker_or(d->step_duration, SW_WALKER_DEFAULT_STEP_DURATION);
    p.step_height = sw__walker_or(d->step_height, 0.5f * d->stride);
    p.dip_speed = sw__walker_or(d->dip_speed, SW_WALKER_DEFAULT_DIP_SPEED);
    p.max_tilt = sw__walker_or(d->max_tilt, SW_WALKER_DEFAULT_MAX_TILT);
    p.ray_up = sw__walker_or(d->ray_up, 0.25f * d->height);
    p.ray_down = sw__walker_or(d->ray_down, 2.0f * d->height);
    p.height_hl = sw__walker_or(d->height_half_life, SW_WALKER_DEFAULT_HEIGHT_HALF_LIFE);
    p.tilt_hl = sw__walker_or(d->tilt_half_life, SW_WALKER_DEFAULT_TILT_HALF_LIFE);
    p.velocity_hl = sw__walker_or(d->velocity_half_life, SW_WALKER_DEFAULT_VELOCITY_HALF_LIFE);
    p.turn_hl = sw__walker_or(d->turn_half_life, SW_WALKER_DEFAULT_TURN_HALF_LIFE);
    return p;
}

static sw_result sw__walker_desc_validate(const sw_walker_desc* d) {
    if (!d || !d->legs || !d->ray || d->legs_count == 0) return SW_RESULT_INVALID_ARGUMENT;
    if (d->legs_count > SW_WALKER_MAX_LEGS) return SW_RESULT_LIMIT;
    for (uint32_t i = 0; i < d->legs_count; ++i)
        if (d->legs[i].group >= SW_WALKER_MAX_GROUPS || !sw__walker_finite3(d->legs[i].rest))
            return SW_RESULT_INVALID_ARGUMENT;
    if (!(d->height > 0.0f) || !isfinite(d->height) || !(d->stride > 0.0f) || !isfinite(d->stride))
        return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__walker_nonneg(d->min_height) || d->min_height > d->height)
        return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__walker_nonneg(d->clearance) || !sw__walker_nonneg(d->step_duration) ||
        !sw__walker_nonneg(d->step_height) || !sw__walker_nonneg(d->move_dip) ||
        !sw__walker_nonneg(d->dip_speed) || !sw__walker_nonneg(d->ray_up) ||
        !sw__walker_nonneg(d->ray_down) || !sw__walker_nonneg(d->stride_speed))
        return SW_RESULT_INVALID_ARGUMENT;
    if (!(d->max_tilt >= 0.0f) || d->max_tilt > 1.57079633f) return SW_RESULT_INVALID_ARGUMENT;
    if (!isfinite(d->height_half_life) || !isfinite(d->tilt_half_life) ||
        !isfinite(d->velocity_half_life) || !isfinite(d->turn_half_life))
        return SW_RESULT_INVALID_ARGUMENT;
    return SW_RESULT_OK;
}

/* Body-space offset (x right, z forward) turned by the heading about +Y. */
static sw_vec3 sw__walker_turn(sw_vec3 v, float heading) {
    const float c = cosf(heading), s = sinf(heading);
    return sw_vec3_make(v.x * c + v.z * s, 0.0f, -v.x * s + v.z * c);
}

/* Ground height at (x, z), looking from `y_ref` + ray_up down; false on a miss. */
static bool sw__walker_ground(const sw_walker_desc* d, const sw__walker_params* p, float x, float z,
                              float y_ref, float* y) {
    sw_vec3 point = sw_vec3_make(x, y_ref, z), normal = sw_vec3_make(0.0f, 1.0f, 0.0f);
    const sw_vec3 from = sw_vec3_make(x, y_ref + p->ray_up, z);
    if (!d->ray(d->ray_user, from, sw_vec3_make(0.0f, -1.0f, 0.0f), p->ray_up + p->ray_down, &point,
                &normal))
        return false;
    if (!isfinite(point.y)) return false;
    *y = point.y;
    return true;
}

/* Lowest allowed body height above `ground` from a ray up at (x, base, z). */
static float sw__walker_ceiling(const sw_walker_desc* d, float x, float base, float z, float ground,
                                float limit) {
    const float lift = 0.01f * d->height;
    const float range = limit + d->clearance + (ground - base) + lift;
    if (!(range > 0.0f)) return limit;
    sw_vec3 point = sw_vec3_make(x, base, z), normal = sw_vec3_make(0.0f, -1.0f, 0.0f);
    const sw_vec3 from = sw_vec3_make(x, base + lift, z);
    if (!d->ray(d->ray_user, from, sw_vec3_make(0.0f, 1.0f, 0.0f), range, &point, &normal))
        return limit;
    if (!isfinite(point.y)) return limit;
    const float allowed = point.y - d->clearance - ground;
    return allowed < limit ? allowed : limit;
}

/* Rays under the ideal feet for a body at `pos` (xz) facing `heading`: sets
 * the ideal positions, the ground heights, their mean, the height limit and
 * the tilt goal. */
static void sw__walker_sense(const sw_walker_desc* d, const sw__walker_params* p,
                             sw_walker_state* st, sw_vec3 pos, float heading, float speed,
                             sw_quat* tilt_goal) {
    const uint32_t n = d->legs_count;
    float sum = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        const sw_vec3 o = sw__walker_turn(d->legs[i].rest, heading);
        const float x = pos.x + o.x, z = pos.z + o.z;
        float y = st->ground_y[i];
        if (sw__walker_ground(d, p, x, z, st->ground_y[i], &y)) st->ground_y[i] = y;
        st->feet[i].ideal = sw_vec3_make(x, st->ground_y[i], z);
        sum += st->ground_y[i];
    }
    const float ground = sum / (float)n;
    st->ground_raw = ground;

    /* Height: dip while moving, duck under what is overhead, not below min. */
    float limit = d->height;
    if (d->move_dip > 0.0f) {
        const float f = speed >= p->dip_speed ? 1.0f : speed / p->dip_speed;
        limit -= d->move_dip * f;
    }
    limit = sw__walker_ceiling(d, pos.x, ground, pos.z, ground, limit);
    for (uint32_t i = 0; i < n; ++i)
        limit = sw__walker_ceiling(d, st->feet[i].ideal.x, st->ground_y[i], st->feet[i].ideal.z,
                                   ground, limit);
    if (limit < p->min_height) limit = p->min_height;
    if (limit > d->height) limit = d->height;
    st->height_limit = limit;

    /* Tilt: least-squares plane y = a + b u + c w through the ground points
     * in the heading's frame (u right, w forward), with a small ridge. */
    *tilt_goal = sw_quat_identity();
    if (d->no_tilt) return;
    float mu = 0.0f, mw = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        mu += d->legs[i].rest.x;
        mw += d->legs[i].rest.z;
    }
    mu /= (float)n;
    mw /= (float)n;
    float suu = 0.0f, sww = 0.0f, suw = 0.0f, suy = 0.0f, swy = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        const float u = d->legs[i].rest.x - mu, w = d->legs[i].rest.z - mw;
        const float y = st->ground_y[i] - ground;
        suu += u * u;
        sww += w * w;
        suw += u * w;
        suy += u * y;
        swy += w * y;
    }
    const float ridge = SW__WALKER_RIDGE * (float)n;
    suu += ridge;
    sww += ridge;
    const float det = suu * sww - suw * suw;
    if (!(det > 0.0f)) return;
    const float b = (suy * sww - swy * suw) / det;
    const float c = (swy * suu - suy * suw) / det;
    const sw_vec3 local_n = sw_vec3_make(-b, 1.0f, -c);
    sw_vec3 nw = sw__walker_turn(local_n, heading);
    nw.y = 1.0f;
    sw_vec3 axis;
    float angle;
    sw_quat_to_axis_angle(sw_quat_from_to(sw_vec3_make(0.0f, 1.0f, 0.0f), nw), &axis, &angle);
    if (angle > p->max_tilt) angle = p->max_tilt;
    *tilt_goal = sw_quat_from_axis_angle(axis, angle);
}

static void sw__walker_pose_body(sw_walker_state* st) {
    st->position = sw_vec3_make(st->motion.value.x, st->ground.value + st->body_height.value,
                                st->motion.value.z);
    const sw_quat yaw = sw_quat_from_axis_angle(sw_vec3_make(0.0f, 1.0f, 0.0f), st->heading);
    st->rotation = sw_quat_normalize(sw_quat_mul(st->tilt.value, yaw));
}

sw_result sw_walker_init(const sw_walker_desc* desc, sw_vec3 position, float heading,
                         sw_walker_state* state) {
    if (!state || sw__walker_desc_validate(desc) != SW_RESULT_OK) return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__walker_finite3(position) || !isfinite(heading)) return SW_RESULT_INVALID_ARGUMENT;
    if (sw__overlaps(state, sizeof(*state), desc, sizeof(*desc)) ||
        sw__overlaps(state, sizeof(*state), desc->legs, desc->legs_count * sizeof(sw_walker_leg)))
        return SW_RESULT_INVALID_ARGUMENT;
    const sw__walker_params p = sw__walker_defaults(desc);
    memset(state, 0, sizeof(*state));
    state->legs_count = desc->legs_count;
    state->heading = heading;
    state->motion.value = sw_vec3_make(position.x, 0.0f, position.z);
    state->airborne_group = -1;
    for (uint32_t i = 0; i < desc->legs_count; ++i)
        state->ground_y[i] = position.y;
    sw_quat tilt;
    sw__walker_sense(desc, &p, state, position, heading, 0.0f, &tilt);
    state->ground.value = state->ground_raw;
    state->body_height.value = state->height_limit;
    state->tilt.value = tilt;
    for (uint32_t i = 0; i < desc->legs_count; ++i) {
        sw_walker_foot* f = &state->feet[i];
        f->position = f->start = f->target = f->ideal;
    }
    sw__walker_pose_body(state);
    return SW_RESULT_OK;
}

sw_result sw_walker_job_validate(const sw_walker_job* job) {
    if (!job || !job->desc || !job->state) return SW_RESULT_INVALID_ARGUMENT;
    const sw_result r = sw__walker_desc_validate(job->desc);
    if (r != SW_RESULT_OK) return r;
    if (!sw__walker_finite3(job->velocity) || !isfinite(job->turn_rate))
        return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__walker_nonneg(job->dt)) return SW_RESULT_INVALID_ARGUMENT;
    if (sw__overlaps(job->state, sizeof(sw_walker_state), job->desc, sizeof(sw_walker_desc)) ||
        sw__overlaps(job->state, sizeof(sw_walker_state), job->desc->legs,
                     job->desc->legs_count * sizeof(sw_walker_leg)))
        return SW_RESULT_OVERLAP;
    if (job->state->legs_count != job->desc->legs_count) return SW_RESULT_INVALID_ARGUMENT;
    return SW_RESULT_OK;
}

/* sqrt(r) for the feet's mean speed over the ground (desc->stride_speed;
 * 1 when unset): scales the stride up and the step duration down. */
static float sw__walker_gait_scale(const sw_walker_desc* d, const sw_walker_state* st) {
    if (!(d->stride_speed > 0.0f)) return 1.0f;
    float sum = 0.0f;
    for (uint32_t i = 0; i < d->legs_count; ++i) {
        const sw_vec3 o = sw__walker_turn(d->legs[i].rest, st->heading);
        /* the body's velocity plus the turn about +Y at the foot: w x o */
        const float vx = st->motion.velocity.x + st->turn_rate * o.z;
        const float vz = st->motion.velocity.z - st->turn_rate * o.x;
        sum += sqrtf(vx * vx + vz * vz);
    }
    float r = sum / ((float)d->legs_count * d->stride_speed);
    r = r < SW__WALKER_GAIT_MIN   ? SW__WALKER_GAIT_MIN
        : r > SW__WALKER_GAIT_MAX ? SW__WALKER_GAIT_MAX
                                  : r;
    return sqrtf(r);
}

/* Where leg i lands if it touches down `ahead` seconds from now: its ideal
 * position then, plus half a step, on the ground. */
static sw_vec3 sw__walker_target(const sw_walker_desc* d, const sw__walker_params* p,
                                 const sw_walker_state* st, uint32_t i, float ahead) {
    const float t = ahead + 0.5f * p->step_duration;
    const float heading = st->heading + st->turn_rate * t;
    const sw_vec3 o = sw__walker_turn(d->legs[i].rest, heading);
    const float x = st->motion.value.x + st->motion.velocity.x * t + o.x;
    const float z = st->motion.value.z + st->motion.velocity.z * t + o.z;
    float y = st->ground_y[i];
    (void)sw__walker_ground(d, p, x, z, st->ground_y[i], &y);
    return sw_vec3_make(x, y, z);
}

static float sw__walker_drift(const sw_walker_foot* f) {
    const float dx = f->position.x - f->ideal.x, dz = f->position.z - f->ideal.z;
    return sqrtf(dx * dx + dz * dz);
}

sw_result sw_walker_job_run(const sw_walker_job* job) {
    const sw_result r = sw_walker_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    const sw_walker_desc* d = job->desc;
    sw_walker_state* st = job->state;
    sw__walker_params p = sw__walker_defaults(d);
    const uint32_t n = d->legs_count;
    const float dt = job->dt;
    st->time += dt;

    /* Body motion on the ground plane. */
    sw_spring_vec3_update_velocity(
        &st->motion, sw_vec3_make(job->velocity.x, 0.0f, job->velocity.z), p.velocity_hl, dt);
    st->motion.value.y = 0.0f;
    st->motion.velocity.y = 0.0f;
    st->turn_rate = sw_spring_damp_float(st->turn_rate, job->turn_rate, p.turn_hl, dt);
    st->heading += st->turn_rate * dt;
    if (st->heading > SW__WALKER_PI) st->heading -= 2.0f * SW__WALKER_PI;
    if (st->heading < -SW__WALKER_PI) st->heading += 2.0f * SW__WALKER_PI;
    const float speed = sw_vec3_length(st->motion.velocity);
    const float gait = sw__walker_gait_scale(d, st);
    const float stride = d->stride * gait;
    p.step_duration /= gait;

    sw_quat tilt_goal;
    sw__walker_sense(d, &p, st, st->motion.value, st->heading, speed, &tilt_goal);
    sw_spring_float_update(&st->ground, st->ground_raw, p.height_hl, dt);
    sw_spring_float_update(&st->body_height, st->height_limit, p.height_hl, dt);
    if (st->body_height.value > d->height) {
        st->body_height.value = d->height;
        st->body_height.velocity = 0.0f;
    }
    if (st->body_height.value < p.min_height) {
        st->body_height.value = p.min_height;
        st->body_height.velocity = 0.0f;
    }
    sw_spring_quat_update(&st->tilt, tilt_goal, p.tilt_hl, dt);
    sw__walker_pose_body(st);

    /* Feet in the air move along their arcs; those done land. */
    const float duration = p.step_duration > 0.0f ? p.step_duration : 1e-6f;
    bool any_airborne = false;
    for (uint32_t i = 0; i < n; ++i) {
        sw_walker_foot* f = &st->feet[i];
        if (!f->airborne) continue;
        f->phase += dt / duration;
        if (f->phase >= 1.0f) {
            f->target = sw__walker_target(d, &p, st, i, 0.0f);
            f->position = f->target;
            f->phase = 0.0f;
            f->airborne = false;
            f->steps += 1u;
            continue;
        }
        f->target = sw__walker_target(d, &p, st, i, (1.0f - f->phase) * p.step_duration);
        const float s = f->phase * f->phase * (3.0f - 2.0f * f->phase);
        f->position = sw_vec3_lerp(f->start, f->target, s);
        f->position.y += p.step_height * sinf(SW__WALKER_PI * f->phase);
        any_airborne = true;
    }
    if (!any_airborne) st->airborne_group = -1;

    /* A new group lifts when none is in the air. */
    if (st->airborne_group < 0) {
        const bool stopped =
            speed < SW__WALKER_STOPPED_SPEED && fabsf(st->turn_rate) < SW__WALKER_STOPPED_TURN;
        const float due_at = stopped ? SW__WALKER_SETTLE * d->stride : stride;
        const float join_at = stopped ? SW__WALKER_SETTLE * d->stride : SW__WALKER_JOIN * stride;
        int32_t pick = -1;
        for (uint32_t g = 0; g < SW_WALKER_MAX_GROUPS; ++g) {
            bool due = false;
            for (uint32_t i = 0; i < n; ++i)
                if (d->legs[i].group == g && sw__walker_drift(&st->feet[i]) > due_at) due = true;
            if (due && (pick < 0 || st->group_last[g] < st->group_last[pick])) pick = (int32_t)g;
        }
        if (pick >= 0) {
            st->airborne_group = pick;
            st->group_last[pick] = st->time;
            for (uint32_t i = 0; i < n; ++i) {
                sw_walker_foot* f = &st->feet[i];
                if (d->legs[i].group != (uint32_t)pick || !(sw__walker_drift(f) > join_at))
                    continue;
                f->airborne = true;
                f->phase = 0.0f;
                f->start = f->position;
                f->target = sw__walker_target(d, &p, st, i, p.step_duration);
            }
        }
    }
    return SW_RESULT_OK;
}

sw_mat4 sw_walker_body_matrix(const sw_walker_state* state) {
    const sw_xform x = {.t = state->position, .r = state->rotation, .s = sw_vec3_make(1, 1, 1)};
    return sw_mat4_from_xform(x);
}

/* ---- legs on a skeleton ---- */

static sw_result sw__walker_leg_job(const sw_walker_pose_job* job, uint32_t i, bool run) {
    const sw_walker_chain* c = &job->chains[i];
    const sw_vec3 target = job->state->feet[i].position;
    const sw_vec3 pole = sw_quat_rotate(job->state->rotation, c->pole);
    const bool has_pole = sw_vec3_length(c->pole) > 0.0f;
    const sw_walker_solver solver =
        c->solver == SW_WALKER_SOLVER_DEFAULT
            ? (c->joints_count == 3 ? SW_WALKER_SOLVER_TWO_BONE : SW_WALKER_SOLVER_FABRIK)
            : c->solver;
    if (solver == SW_WALKER_SOLVER_TWO_BONE) {
        if (c->joints_count != 3) return SW_RESULT_INVALID_ARGUMENT;
        const sw_ik_two_bone_job ik = {
            .skeleton = job->skeleton,
            .model = job->model,
            .model_count = job->model_count,
            .root_transform = job->root_transform,
            .start_joint = c->joints[0],
            .mid_joint = c->joints[1],
            .end_joint = c->joints[2],
            .target = target,
            .pole_mode = has_pole ? SW_IK_POLE_MODE_DIRECTION : SW_IK_POLE_MODE_NONE,
            .pole = pole,
            .weight = job->weight,
            .pose = job->pose,
            .pose_count = job->pose_count,
        };
        return run ? sw_ik_two_bone_job_run(&ik) : sw_ik_two_bone_job_validate(&ik);
    }
    const sw_ik_fabrik_job ik = {
        .skeleton = job->skeleton,
        .model = job->model,
        .model_count = job->model_count,
        .root_transform = job->root_transform,
        .joints = c->joints,
        .joints_count = c->joints_count,
        .target = target,
        .use_pole = has_pole,
        .pole = pole,
        .weight = job->weight,
        .iterations = job->iterations,
        .pose = job->pose,
        .pose_count = job->pose_count,
    };
    return run ? sw_ik_fabrik_job_run(&ik) : sw_ik_fabrik_job_validate(&ik);
}

sw_result sw_walker_pose_job_validate(const sw_walker_pose_job* job) {
    if (!job || !job->skeleton || !job->model || !job->state || !job->chains || !job->pose)
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->chains_count != job->state->legs_count || job->chains_count == 0 ||
        job->chains_count > SW_WALKER_MAX_LEGS)
        return SW_RESULT_INVALID_ARGUMENT;
    if (!(job->weight >= 0.0f) || job->weight > 1.0f) return SW_RESULT_INVALID_ARGUMENT;
    const size_t pose_bytes = (size_t)job->pose_count * sizeof(sw_xform4);
    if (sw__overlaps(job->pose, pose_bytes, job->state, sizeof(sw_walker_state)) ||
        sw__overlaps(job->pose, pose_bytes, job->chains,
                     job->chains_count * sizeof(sw_walker_chain)))
        return SW_RESULT_OVERLAP;
    for (uint32_t i = 0; i < job->chains_count; ++i) {
        const sw_walker_chain* c = &job->chains[i];
        if (!c->joints || c->joints_count < 2) return SW_RESULT_INVALID_ARGUMENT;
        if (c->solver > SW_WALKER_SOLVER_FABRIK || !sw__walker_finite3(c->pole))
            return SW_RESULT_INVALID_ARGUMENT;
        if (sw__overlaps(job->pose, pose_bytes, c->joints, c->joints_count * sizeof(uint32_t)))
            return SW_RESULT_OVERLAP;
        const sw_result r = sw__walker_leg_job(job, i, false);
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}

sw_result sw_walker_pose_job_run(const sw_walker_pose_job* job) {
    sw_result r = sw_walker_pose_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    for (uint32_t i = 0; i < job->chains_count; ++i) {
        r = sw__walker_leg_job(job, i, true);
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}
