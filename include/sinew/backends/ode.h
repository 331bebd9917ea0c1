/* sinew/backends/ode.h: the default physics backend, on the Open Dynamics Engine.
 *
 * Library sinew_ode (built when pkg-config finds `ode`: Debian libode-dev,
 * double precision). Only this library links ODE; the runtime stays free
 * of dependencies, and users with their own engine implement sw_physics
 * (sinew/physics/ragdoll.h) instead.
 *
 * An sw_ode_world is one ODE world with a collision space, an optional
 * ground plane (y = ground_height, normal +Y), contacts with friction, and a
 * fixed step. Its sw_physics table (sw_ode_world_physics) creates:
 * - bodies: capsules (ODE capsule geoms, rotated onto the desc's axis), mass
 *   and inertia of a capsule of that total mass; kinematic bodies are ODE
 *   kinematic bodies;
 * - joints: an ODE ball joint at the anchor, a user-mode angular motor
 *   holding the swing cone and twist range (its axes and angles recomputed
 *   from the bodies before every step: the swing axis with the swing angle,
 *   stop at swing_limit; the twist axis with the twist angle, stops at
 *   twist_min / twist_max), and a second angular motor on the world axes
 *   as the velocity motor: the goal is the relative rotation at the end
 *   of the step, moving at target_velocity, so each step it asks for the
 *   relative angular velocity target_velocity + (e - step x
 *   target_velocity) / (SW_ODE_MOTOR_STEPS x step), e the rotation error
 *   to the goal as axis x angle (the error to where the goal is at the
 *   start of the step, closed over SW_ODE_MOTOR_STEPS steps: the body
 *   neither lags nor leads a moving goal), with at most strength x
 *   max_torque;
 *   below strength SW_ODE_JOINT_FRICTION (limp) the motor only brakes the
 *   relative rotation with SW_ODE_JOINT_FRICTION x max_torque (joint
 *   friction, so a limp body comes to rest). A stop that the joint can
 *   reach within SW_ODE_STOP_LOOKAHEAD steps at its present relative
 *   speed (or is within SW_ODE_STOP_MARGIN of) is active ahead of time and
 *   lets the joint move at most onto it in the step, so joints stop at
 *   their limits instead of overshooting them by a step's motion (measured
 *   under 6 m/s hits: 0.003 rad powered, 0.13 rad limp-ish, where contacts
 *   and the cone's curvature within a step remain); a violation is
 *   corrected by SW_ODE_STOP_ERP of it per step.
 *   Joints whose two bodies are both kinematic are switched off.
 * Contacts: body-ground and body-body of different groups (bodies of one
 * non-zero group, e.g. one ragdoll, do not collide with each other; bodies
 * linked by a joint never do), up to SW_ODE_MAX_CONTACTS points per pair,
 * Coulomb friction (pyramid approximation), optional restitution.
 * Stepping: dWorldStep (the direct solver: no random constraint order, so
 * the same calls in the same order give bit-identical states).
 *
 * Memory: the world and its handle tables are allocated once at creation
 * (capacities from the desc); bodies and joints live in ODE, which manages
 * its own memory. sinew's code allocates nothing per step.
 * Threads: one world is used by one thread at a time. Worlds in different
 * threads need ODE's per-thread data (dAllocateODEDataForThread), which
 * sw_ode_world_create does for the calling thread.
 */
#ifndef SINEW_ODE_H
#define SINEW_ODE_H

#include "sinew/physics/ragdoll.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_ODE_MAX_CONTACTS 4        /* contact points per colliding pair */
#define SW_ODE_MOTOR_STEPS 2.0f      /* motor closes its rotation error over this many steps */
#define SW_ODE_DEFAULT_FRICTION 1.0f /* Coulomb coefficient */
#define SW_ODE_JOINT_FRICTION 0.01f  /* joint friction: motor braking torque over max_torque */
#define SW_ODE_STOP_ERP 0.4f         /* fraction of a limit violation corrected per step */
#define SW_ODE_STOP_LOOKAHEAD 2.0f   /* a stop closer than this many steps of motion is active */
#define SW_ODE_STOP_MARGIN 0.02f     /* radians: ... or closer than this */
#define SW_ODE_DEFAULT_CAPACITY 64u  /* bodies and joints */

typedef struct sw_ode_world sw_ode_world; /* opaque */

typedef struct sw_ode_world_desc {
    sw_vec3 gravity;       /* m/s^2; zero: (0, -9.81, 0) */
    bool no_gravity;       /* true: gravity is zero */
    float step;            /* seconds per step; 0: SW_RAGDOLL_DEFAULT_STEP */
    bool no_ground;        /* true: no ground plane */
    float ground_height;   /* metres, y of the ground plane */
    float friction;        /* Coulomb coefficient, >= 0; 0: SW_ODE_DEFAULT_FRICTION */
    float restitution;     /* [0, 1]; 0: none */
    float linear_damping;  /* per second, >= 0; 0: none */
    float angular_damping; /* per second, >= 0; 0: none */
    uint32_t max_bodies;   /* 0: SW_ODE_DEFAULT_CAPACITY */
    uint32_t max_joints;   /* 0: SW_ODE_DEFAULT_CAPACITY */
} sw_ode_world_desc;

/* Creates a world (ODE is initialised on first use: dInitODE2, counted).
 * Memory: allocated with `alloc` (NULL: libc); free with
 * sw_ode_world_destroy and the same allocator, which also destroys every
 * body and joint left.
 * Fails: INVALID_ARGUMENT (NULL out; a negative or non-finite field,
 * restitution above 1); OUT_OF_MEMORY; LIMIT (a capacity above 65536);
 * err names the field. */
SINEW_API sw_result sw_ode_world_create(const sw_ode_world_desc* desc, const sw_allocator* alloc,
                                        sw_ode_world** out, sw_error* err);
/* Destroys the bodies and joints left, the world, and frees it (the same
 * allocator as creation); NULL is a no-op. */
SINEW_API void sw_ode_world_destroy(sw_ode_world* w, const sw_allocator* alloc);

/* The world's sw_physics table (user = the world). Handles are indices
 * into the world's tables; create callbacks fail with LIMIT when a table
 * is full and INVALID_ARGUMENT for a bad desc (non-finite, radius or mass
 * not > 0, unknown body). */
SINEW_API sw_physics sw_ode_world_physics(sw_ode_world* w);

/* One fixed step: updates the joints' limit and motor axes, collides,
 * solves (dWorldStep), clears contacts. Returns SW_RESULT_BAD_DATA when a
 * body's state is no longer finite after the step (the world should be
 * reset), else OK. */
SINEW_API sw_result sw_ode_world_step(sw_ode_world* w);

/* The world's step in seconds. */
SINEW_API float sw_ode_world_step_size(const sw_ode_world* w);

/* Bodies and joints alive, and contact points made by the last step. */
SINEW_API uint32_t sw_ode_world_bodies_count(const sw_ode_world* w);
SINEW_API uint32_t sw_ode_world_joints_count(const sw_ode_world* w);
SINEW_API uint32_t sw_ode_world_contacts_count(const sw_ode_world* w);

#ifdef __cplusplus
}
#endif

#endif
