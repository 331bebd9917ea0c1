/* sinew/procedural/spring.h: exact critically damped springs and dampers, by half-life.
 *
 * A spring state is a value and its velocity. Each update moves it toward a
 * goal along the exact solution of the critically damped spring
 *
 *     x(t) = goal + (j0 + j1 t) e^(-y t),  j0 = x0 - goal,  j1 = v0 + y j0,
 *     v(t) = (v0 - y j1 t) e^(-y t),
 *
 * so an update of dt equals two updates of dt / 2 (the same motion at 30 and
 * 240 frames per second, up to float rounding) as long as the goal holds
 * still during the step. The rate y is chosen from the half-life h so that a
 * spring starting at rest covers exactly half the distance to its goal in h:
 * (1 + y h) e^(-y h) = 1/2, i.e. y = SW_SPRING_HALF_LIFE_RATE / h with
 * SW_SPRING_HALF_LIFE_RATE = 1.67834699... Starting at rest it never
 * overshoots: x - goal keeps the sign of x0 - goal.
 *
 * A damper is exponential smoothing by half-life, value += (goal - value) *
 * (1 - 2^(-dt / h)): exact for any split of dt, no velocity, no overshoot.
 *
 * Every function here is pure arithmetic on the caller's state: no memory,
 * no failure, reentrant. half_life <= 0 (or NaN) snaps to the goal with zero
 * velocity; dt <= 0 (or NaN) leaves the state unchanged; dt = +inf snaps.
 * For every half_life >= 0 and dt >= 0 (however small or large: a half-life
 * of 1e-45 s, a dt of 1e38 s) a finite state stays finite: the solution is
 * computed in double, where its terms cannot overflow, a step of many
 * half-lives lands on the goal, and a value or velocity beyond float (a
 * goal moving that far in dt, a very stiff spring's speed) saturates at
 * +-FLT_MAX.
 * Units: value units, value units per second, seconds.
 *
 *     sw_spring_vec3 s = {.value = pos};          // at rest
 *     sw_spring_vec3_update(&s, target, 0.1f, dt); // every frame
 */
#ifndef SINEW_SPRING_H
#define SINEW_SPRING_H

#include "sinew/core/math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* y * half_life for a critically damped spring that halves its distance from
 * rest in one half-life: the root of (1 + u) e^-u = 1/2. */
#define SW_SPRING_HALF_LIFE_RATE 1.6783469900166608f

typedef struct sw_spring_float {
    float value;
    float velocity; /* value units per second */
} sw_spring_float;

typedef struct sw_spring_vec3 {
    sw_vec3 value;
    sw_vec3 velocity; /* units per second */
} sw_spring_vec3;

/* A rotation spring. The velocity is the rate of change (radians per second)
 * of the rotation vector d with value = exp(d) * goal, in the space the
 * quaternions are expressed in (the parent's space for a local rotation); near
 * the goal it is the angular velocity (axis times radians per second). */
typedef struct sw_spring_quat {
    sw_quat value;    /* unit; zero-initialised (all zeros) is read as identity */
    sw_vec3 velocity; /* radians per second */
} sw_spring_quat;

/* The decay rate y (1/s) of a critically damped spring with this half-life:
 * SW_SPRING_HALF_LIFE_RATE / half_life; +inf for half_life <= 0. */
SINEW_API float sw_spring_rate(float half_life);

/* Advances a float spring by dt seconds toward a fixed goal (exact solution). */
SINEW_API void sw_spring_float_update(sw_spring_float* s, float goal, float half_life, float dt);

/* Advances a vec3 spring by dt seconds toward a fixed goal (each component is
 * an independent float spring with the same half-life). */
SINEW_API void sw_spring_vec3_update(sw_spring_vec3* s, sw_vec3 goal, float half_life, float dt);

/* Advances a rotation spring by dt toward goal. The spring runs on the
 * tangent space: the difference d = log(value * conj(goal)) taken on the
 * shortest arc (the goal's sign is irrelevant) is a rotation vector that
 * follows the vec3 spring toward zero, and value = exp(d) * goal. The result
 * is a unit quaternion; from rest it turns along the great arc toward goal
 * without passing it. Splitting dt gives the same motion while the remaining
 * turn |d| stays below pi; a spring thrown hard enough to swing past the half
 * turn re-takes the shorter way round at the next update. */
SINEW_API void sw_spring_quat_update(sw_spring_quat* s, sw_quat goal, float half_life, float dt);

/* Moving goal ("goal velocity" variant): the goal is at `goal` at the start of
 * the step and moves at constant goal_velocity. The spring tracks it without
 * lag once settled (value = goal + goal_velocity * t, velocity =
 * goal_velocity). Exact; with goal_velocity 0 it is sw_spring_*_update. */
SINEW_API void sw_spring_float_update_moving(sw_spring_float* s, float goal, float goal_velocity,
                                             float half_life, float dt);
SINEW_API void sw_spring_vec3_update_moving(sw_spring_vec3* s, sw_vec3 goal, sw_vec3 goal_velocity,
                                            float half_life, float dt);

/* Velocity spring (character movement): the velocity approaches
 * goal_velocity with a damper of this half-life and the value (a position)
 * is its exact integral: v(t) = vg + (v0 - vg) 2^(-t/h),
 * x(t) = x0 + vg t + (v0 - vg) (1 - 2^(-t/h)) h / ln 2. Exact for any split of
 * dt; half_life <= 0 sets the velocity to goal_velocity at once. */
SINEW_API void sw_spring_vec3_update_velocity(sw_spring_vec3* s, sw_vec3 goal_velocity,
                                              float half_life, float dt);

/* Damper: the fraction of the remaining distance covered in dt,
 * 1 - 2^(-dt / half_life), in [0, 1] (1 for half_life <= 0, 0 for dt <= 0). */
SINEW_API float sw_spring_damp_factor(float half_life, float dt);
/* Dampers: value moved toward goal by sw_spring_damp_factor. The quaternion
 * version slerps on the shortest arc and returns a unit quaternion. */
SINEW_API float sw_spring_damp_float(float value, float goal, float half_life, float dt);
SINEW_API sw_vec3 sw_spring_damp_vec3(sw_vec3 value, sw_vec3 goal, float half_life, float dt);
SINEW_API sw_quat sw_spring_damp_quat(sw_quat value, sw_quat goal, float half_life, float dt);

/* Rotation vector (axis times angle, angle in [0, pi]) of unit q on the
 * shortest arc (q and -q give the same result): the tangent space the
 * quaternion spring runs on. */
SINEW_API sw_vec3 sw_spring_quat_to_vector(sw_quat q);
/* Unit quaternion turning by |v| radians about v (identity for v = 0). */
SINEW_API sw_quat sw_spring_quat_from_vector(sw_vec3 v);

#ifdef __cplusplus
}
#endif

#endif
