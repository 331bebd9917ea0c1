/* Critically damped springs and dampers by half-life (exact solutions). */
#include <float.h>
#include <math.h>

#include "sinew/procedural/spring.h"

#define SW__LN2 0.69314718055994531f

/* How an update of dt with this half-life must be handled. */
typedef enum sw__step_kind {
    SW__STEP_NONE = 0, /* dt <= 0 or NaN: nothing to do */
    SW__STEP_SNAP,     /* half_life <= 0 or NaN, or dt = inf */
    SW__STEP_SOLVE
} sw__step_kind;

static sw__step_kind sw__classify(float half_life, float dt) {
    if (!(dt > 0.0f)) return SW__STEP_NONE;
    if (!(half_life > 0.0f) || isinf(dt)) return SW__STEP_SNAP;
    return SW__STEP_SOLVE;
}

float sw_spring_rate(float half_life) {
    return half_life > 0.0f ? SW_SPRING_HALF_LIFE_RATE / half_life : INFINITY;
}

/* The decay rate and exp(-y dt) of one solved step, in double: for any
 * float half-life > 0 and finite dt > 0, y <= 1.2e45 and the products below
 * stay within double range, so a vanishing exp(-y dt) gives the goal (never
 * 0 * inf); results beyond float saturate. */
typedef struct sw__spring_decay {
    double y, dt, e;
} sw__spring_decay;

static sw__spring_decay sw__decay(float half_life, float dt) {
    const double y = (double)SW_SPRING_HALF_LIFE_RATE / (double)half_life;
    return (sw__spring_decay){y, (double)dt, exp(-y * (double)dt)};
}

/* v as a float, saturated at +-FLT_MAX (a stiff spring's exact velocity, or
 * a goal moving far enough, can pass float). */
static float sw__saturate(double v) {
    return (float)(v > (double)FLT_MAX    ? (double)FLT_MAX
                   : v < -(double)FLT_MAX ? -(double)FLT_MAX
                                          : v);
}

/* One component of the exact critically damped step toward a goal moving at
 * goal_velocity. */
static void sw__spring_step(float* x, float* v, float goal, float goal_velocity,
                            sw__spring_decay d) {
    const double j0 = (double)*x - (double)goal;
    const double j1 = ((double)*v - (double)goal_velocity) + j0 * d.y;
    const double v0 = (double)*v;
    *x = sw__saturate((double)goal + (double)goal_velocity * d.dt + (j0 + j1 * d.dt) * d.e);
    *v = sw__saturate((double)goal_velocity + (v0 - (double)goal_velocity - j1 * d.y * d.dt) * d.e);
}

void sw_spring_float_update(sw_spring_float* s, float goal, float half_life, float dt) {
    sw_spring_float_update_moving(s, goal, 0.0f, half_life, dt);
}

void sw_spring_vec3_update(sw_spring_vec3* s, sw_vec3 goal, float half_life, float dt) {
    sw_spring_vec3_update_moving(s, goal, sw_vec3_make(0.0f, 0.0f, 0.0f), half_life, dt);
}

void sw_spring_float_update_moving(sw_spring_float* s, float goal, float goal_velocity,
                                   float half_life, float dt) {
    switch (sw__classify(half_life, dt)) {
    case SW__STEP_NONE:
        return;
    case SW__STEP_SNAP:
        /* At the goal, moving with it (dt = inf: where it is is unknown; stay at goal). */
        s->value = isinf(dt) ? goal : goal + goal_velocity * dt;
        s->velocity = goal_velocity;
        return;
    case SW__STEP_SOLVE:
        break;
    }
    sw__spring_step(&s->value, &s->velocity, goal, goal_velocity, sw__decay(half_life, dt));
}

void sw_spring_vec3_update_moving(sw_spring_vec3* s, sw_vec3 goal, sw_vec3 goal_velocity,
                                  float half_life, float dt) {
    switch (sw__classify(half_life, dt)) {
    case SW__STEP_NONE:
        return;
    case SW__STEP_SNAP:
        s->value = isinf(dt) ? goal : sw_vec3_add(goal, sw_vec3_scale(goal_velocity, dt));
        s->velocity = goal_velocity;
        return;
    case SW__STEP_SOLVE:
        break;
    }
    const sw__spring_decay d = sw__decay(half_life, dt);
    sw__spring_step(&s->value.x, &s->velocity.x, goal.x, goal_velocity.x, d);
    sw__spring_step(&s->value.y, &s->velocity.y, goal.y, goal_velocity.y, d);
    sw__spring_step(&s->value.z, &s->velocity.z, goal.z, goal_velocity.z, d);
}

sw_vec3 sw_spring_quat_to_vector(sw_quat q) {
    if (q.w < 0.0f) q = sw_quat_negate(q);
    const float s = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    float k;
    if (s < 1e-12f) {
        k = q.w > 0.0f ? 2.0f / q.w : 0.0f; /* angle / s -> 2 / w near identity */
    } else {
        k = 2.0f * atan2f(s, q.w) / s;
    }
    return sw_vec3_make(q.x * k, q.y * k, q.z * k);
}

sw_quat sw_spring_quat_from_vector(sw_vec3 v) {
    const float angle = sw_vec3_length(v);
    const float half = 0.5f * angle;
    /* sin(angle / 2) / angle, with its series near 0. */
    const float k = angle < 1e-4f ? 0.5f - angle * angle / 48.0f : sinf(half) / angle;
    return sw_quat_make(v.x * k, v.y * k, v.z * k, cosf(half));
}

void sw_spring_quat_update(sw_spring_quat* s, sw_quat goal, float half_life, float dt) {
    const sw_quat g = sw_quat_normalize(goal);
    switch (sw__classify(half_life, dt)) {
    case SW__STEP_NONE:
        return;
    case SW__STEP_SNAP:
        s->value = g;
        s->velocity = sw_vec3_make(0.0f, 0.0f, 0.0f);
        return;
    case SW__STEP_SOLVE:
        break;
    }
    const sw_quat q = sw_quat_normalize(s->value);
    /* value = exp(d) * goal: d is the difference in the quaternions' space. */
    sw_vec3 d = sw_spring_quat_to_vector(sw_quat_mul(q, sw_quat_conjugate(g)));
    sw_vec3 w = s->velocity;
    const sw__spring_decay k = sw__decay(half_life, dt);
    sw__spring_step(&d.x, &w.x, 0.0f, 0.0f, k);
    sw__spring_step(&d.y, &w.y, 0.0f, 0.0f, k);
    sw__spring_step(&d.z, &w.z, 0.0f, 0.0f, k);
    s->value = sw_quat_normalize(sw_quat_mul(sw_spring_quat_from_vector(d), g));
    s->velocity = w;
}

/* One component of the velocity damper: f = 1 - 2^(-t / h), a = ln 2 / h. */
static void sw__velocity_step(float* x, float* v, float goal_velocity, double a, double t,
                              double f) {
    const double dv = (double)*v - (double)goal_velocity;
    *x = sw__saturate((double)*x + (double)goal_velocity * t + dv * (f / a));
    *v = sw__saturate((double)goal_velocity + dv * (1.0 - f));
}

void sw_spring_vec3_update_velocity(sw_spring_vec3* s, sw_vec3 goal_velocity, float half_life,
                                    float dt) {
    if (!(dt > 0.0f)) return;
    if (!(half_life > 0.0f) || isinf(dt)) {
        if (!isinf(dt)) s->value = sw_vec3_add(s->value, sw_vec3_scale(goal_velocity, dt));
        s->velocity = goal_velocity;
        return;
    }
    const double a = (double)SW__LN2 / (double)half_life, t = (double)dt;
    const double f = -expm1(-a * t); /* 1 - 2^(-dt / h), accurate for small dt */
    sw__velocity_step(&s->value.x, &s->velocity.x, goal_velocity.x, a, t, f);
    sw__velocity_step(&s->value.y, &s->velocity.y, goal_velocity.y, a, t, f);
    sw__velocity_step(&s->value.z, &s->velocity.z, goal_velocity.z, a, t, f);
}

float sw_spring_damp_factor(float half_life, float dt) {
    switch (sw__classify(half_life, dt)) {
    case SW__STEP_NONE:
        return 0.0f;
    case SW__STEP_SNAP:
        return 1.0f;
    case SW__STEP_SOLVE:
        break;
    }
    return -expm1f(-SW__LN2 * dt / half_life);
}

/* value + (goal - value) * f in double (goal - value may pass float). */
static float sw__damp(float value, float goal, float f) {
    return f >= 1.0f ? goal : (float)((double)value + ((double)goal - (double)value) * (double)f);
}

float sw_spring_damp_float(float value, float goal, float half_life, float dt) {
    return sw__damp(value, goal, sw_spring_damp_factor(half_life, dt));
}

sw_vec3 sw_spring_damp_vec3(sw_vec3 value, sw_vec3 goal, float half_life, float dt) {
    const float f = sw_spring_damp_factor(half_life, dt);
    return sw_vec3_make(sw__damp(value.x, goal.x, f), sw__damp(value.y, goal.y, f),
                        sw__damp(value.z, goal.z, f));
}

sw_quat sw_spring_damp_quat(sw_quat value, sw_quat goal, float half_life, float dt) {
    const float f = sw_spring_damp_factor(half_life, dt);
    if (f <= 0.0f) return sw_quat_normalize(value);
    if (f >= 1.0f) return sw_quat_normalize(goal);
    return sw_quat_slerp(sw_quat_normalize(value), sw_quat_normalize(goal), f);
}
