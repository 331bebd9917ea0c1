/* The ODE backend: an ODE world behind the sw_physics callbacks. */
#include "sinew/backends/ode.h"

#include <math.h>
#include <ode/ode.h>
#include <string.h>

#include "shared/fail.h"
#include "shared/layout.h"

#define SW__ODE_MAX_CAPACITY 65536u
#define SW__ODE_GRAVITY 9.81f

typedef struct sw__ode_body {
    dBodyID body; /* NULL: free slot */
    dGeomID geom;
    uint32_t group;
    bool kinematic;
} sw__ode_body;

typedef struct sw__ode_joint {
    dJointID ball; /* NULL: free slot */
    dJointID limit;
    dJointID motor;
    uint32_t parent, child; /* body handles */
    sw_quat reference;
    sw_vec3 twist_axis; /* child body space */
    float swing_limit, twist_min, twist_max, max_torque;
    sw_physics_motor goal;
} sw__ode_joint;

struct sw_ode_world {
    dWorldID world;
    dSpaceID space;
    dGeomID ground;
    dJointGroupID contacts;
    float step;
    float friction;
    float restitution;
    uint32_t max_bodies, max_joints;
    uint32_t bodies_count, joints_count, contacts_count;
    sw__ode_body* bodies;
    sw__ode_joint* joints;
    size_t size; /* bytes of this block */
};

/* ---- conversions (ODE: dReal double, quaternions w, x, y, z) ---- */

static sw_vec3 sw__v(const dReal* p) {
    return sw_vec3_make((float)p[0], (float)p[1], (float)p[2]);
}
static sw_quat sw__q_from_ode(const dReal* q) {
    return sw_quat_make((float)q[1], (float)q[2], (float)q[3], (float)q[0]);
}
static void sw__q_to_ode(sw_quat q, dQuaternion out) {
    out[0] = q.w;
    out[1] = q.x;
    out[2] = q.y;
    out[3] = q.z;
}
static bool sw__finite3(sw_vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}
static bool sw__finite_q(sw_quat q) {
    return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
}
static sw_quat sw__body_rotation(dBodyID b) {
    return sw_quat_normalize(sw__q_from_ode(dBodyGetQuaternion(b)));
}
/* Rotation q as axis * angle (angle in [0, pi]). */
static sw_vec3 sw__rotvec(sw_quat q) {
    sw_vec3 axis;
    float angle;
    sw_quat_to_axis_angle(q, &axis, &angle);
    return sw_vec3_scale(axis, angle);
}

/* ---- callbacks ---- */

static void sw__ode_put_state(dBodyID b, const sw_physics_body_state* s) {
    dQuaternion q;
    sw__q_to_ode(sw_quat_normalize(s->transform.r), q);
    dBodySetPosition(b, s->transform.t.x, s->transform.t.y, s->transform.t.z);
    dBodySetQuaternion(b, q);
    dBodySetLinearVel(b, s->linear_velocity.x, s->linear_velocity.y, s->linear_velocity.z);
    dBodySetAngularVel(b, s->angular_velocity.x, s->angular_velocity.y, s->angular_velocity.z);
}

static sw_result sw__ode_create_body(void* user, const sw_physics_body_desc* d,
                                     sw_physics_handle* out) {
    sw_ode_world* w = (sw_ode_world*)user;
    if (!d || !out) return SW_RESULT_INVALID_ARGUMENT;
    const sw_physics_body_state* s = &d->state;
    if (!sw__finite3(s->transform.t) || !sw__finite_q(s->transform.r) ||
        !sw__finite3(s->linear_velocity) || !sw__finite3(s->angular_velocity) ||
        !sw__finite3(d->axis) || !(sw_vec3_length(d->axis) > 0.0f) || !(d->half_length >= 0.0f) ||
        !isfinite(d->half_length) || !(d->radius > 0.0f) || !isfinite(d->radius) ||
        !(d->mass > 0.0f) || !isfinite(d->mass))
        return SW_RESULT_INVALID_ARGUMENT;
    uint32_t slot = 0;
    while (slot < w->max_bodies && w->bodies[slot].body)
        ++slot;
    if (slot == w->max_bodies) return SW_RESULT_LIMIT;

    dBodyID b = dBodyCreate(w->world);
    /* The capsule lies along ODE's local Z; turn Z onto the desc's axis. */
    const sw_quat to_axis = sw_quat_from_to(sw_vec3_make(0.0f, 0.0f, 1.0f), d->axis);
    dQuaternion qa;
    sw__q_to_ode(to_axis, qa);
    dMatrix3 ra;
    dRfromQ(ra, qa);
    dMass m;
    dGeomID g;
    if (d->half_length > 0.0f) {
        dMassSetCapsuleTotal(&m, d->mass, 3, d->radius, 2.0 * (dReal)d->half_length);
        dMassRotate(&m, ra);
        g = dCreateCapsule(w->space, d->radius, 2.0 * (dReal)d->half_length);
    } else {
        dMassSetSphereTotal(&m, d->mass, d->radius);
        g = dCreateSphere(w->space, d->radius);
    }
    dBodySetMass(b, &m);
    dGeomSetBody(g, b);
    dGeomSetOffsetQuaternion(g, qa);
    dGeomSetData(g, &w->bodies[slot]);
    dBodySetFiniteRotationMode(b, 1);
    dBodySetAutoDisableFlag(b, 0);
    w->bodies[slot].body = b;
    w->bodies[slot].geom = g;
    w->bodies[slot].group = d->group;
    w->bodies[slot].kinematic = d->kinematic;
    if (d->kinematic) dBodySetKinematic(b);
    sw__ode_put_state(b, s);
    ++w->bodies_count;
    *out = slot;
    return SW_RESULT_OK;
}

static void sw__ode_destroy_body(void* user, sw_physics_handle h) {
    sw_ode_world* w = (sw_ode_world*)user;
    if (h >= w->max_bodies || !w->bodies[h].body) return;
    dGeomDestroy(w->bodies[h].geom);
    dBodyDestroy(w->bodies[h].body);
    memset(&w->bodies[h], 0, sizeof w->bodies[h]);
    --w->bodies_count;
}

static sw_result sw__ode_create_joint(void* user, const sw_physics_joint_desc* d,
                                      sw_physics_handle* out) {
    sw_ode_world* w = (sw_ode_world*)user;
    if (!d || !out || d->parent >= w->max_bodies || d->child >= w->max_bodies ||
        !w->bodies[d->parent].body || !w->bodies[d->child].body || d->parent == d->child ||
        !sw__finite3(d->anchor) || !sw__finite_q(d->reference) || !sw__finite3(d->twist_axis) ||
        !(sw_vec3_length(d->twist_axis) > 0.0f) || !(d->swing_limit >= 0.0f) ||
        !(d->twist_min <= d->twist_max) || !(d->max_torque >= 0.0f) || !isfinite(d->max_torque) ||
        !isfinite(d->swing_limit) || !isfinite(d->twist_min) || !isfinite(d->twist_max))
        return SW_RESULT_INVALID_ARGUMENT;
    uint32_t slot = 0;
    while (slot < w->max_joints && w->joints[slot].ball)
        ++slot;
    if (slot == w->max_joints) return SW_RESULT_LIMIT;
    sw__ode_joint* j = &w->joints[slot];
    memset(j, 0, sizeof *j);
    const dBodyID bp = w->bodies[d->parent].body, bc = w->bodies[d->child].body;
    j->ball = dJointCreateBall(w->world, 0);
    dJointAttach(j->ball, bp, bc);
    dJointSetBallAnchor(j->ball, d->anchor.x, d->anchor.y, d->anchor.z);
    /* Angular motors act on body 1 minus body 2 about their axes: attach the
     * child first so that rates and angles are the child's relative to the
     * parent. */
    j->limit = dJointCreateAMotor(w->world, 0);
    dJointAttach(j->limit, bc, bp);
    dJointSetAMotorMode(j->limit, dAMotorUser);
    dJointSetAMotorNumAxes(j->limit, 2);
    j->motor = dJointCreateAMotor(w->world, 0);
    dJointAttach(j->motor, bc, bp);
    dJointSetAMotorMode(j->motor, dAMotorUser);
    dJointSetAMotorNumAxes(j->motor, 3);
    dJointSetAMotorAxis(j->motor, 0, 0, 1, 0, 0);
    dJointSetAMotorAxis(j->motor, 1, 0, 0, 1, 0);
    dJointSetAMotorAxis(j->motor, 2, 0, 0, 0, 1);
    j->parent = d->parent;
    j->child = d->child;
    j->reference = sw_quat_normalize(d->reference);
    j->twist_axis = sw_vec3_normalize(d->twist_axis);
    j->swing_limit = d->swing_limit;
    j->twist_min = d->twist_min;
    j->twist_max = d->twist_max;
    j->max_torque = d->max_torque;
    j->goal.target = j->reference;
    ++w->joints_count;
    *out = slot;
    return SW_RESULT_OK;
}

static void sw__ode_destroy_joint(void* user, sw_physics_handle h) {
    sw_ode_world* w = (sw_ode_world*)user;
    if (h >= w->max_joints || !w->joints[h].ball) return;
    dJointDestroy(w->joints[h].motor);
    dJointDestroy(w->joints[h].limit);
    dJointDestroy(w->joints[h].ball);
    memset(&w->joints[h], 0, sizeof w->joints[h]);
    --w->joints_count;
}

static void sw__ode_set_kinematic(void* user, sw_physics_handle h, bool kinematic) {
    sw_ode_world* w = (sw_ode_world*)user;
    if (h >= w->max_bodies || !w->bodies[h].body) return;
    if (kinematic)
        dBodySetKinematic(w->bodies[h].body);
    else
        dBodySetDynamic(w->bodies[h].body);
    w->bodies[h].kinematic = kinematic;
}

static void sw__ode_set_body_state(void* user, sw_physics_handle h,
                                   const sw_physics_body_state* s) {
    sw_ode_world* w = (sw_ode_world*)user;
    if (h >= w->max_bodies || !w->bodies[h].body || !s) return;
    sw__ode_put_state(w->bodies[h].body, s);
}

static void sw__ode_get_body_state(void* user, sw_physics_handle h, sw_physics_body_state* out) {
    sw_ode_world* w = (sw_ode_world*)user;
    if (!out) return;
    memset(out, 0, sizeof *out);
    out->transform = sw_xform_identity();
    if (h >= w->max_bodies || !w->bodies[h].body) return;
    dBodyID b = w->bodies[h].body;
    out->transform.t = sw__v(dBodyGetPosition(b));
    out->transform.r = sw__body_rotation(b);
    out->linear_velocity = sw__v(dBodyGetLinearVel(b));
    out->angular_velocity = sw__v(dBodyGetAngularVel(b));
}

static void sw__ode_apply_impulse(void* user, sw_physics_handle h, sw_vec3 impulse, sw_vec3 point) {
    sw_ode_world* w = (sw_ode_world*)user;
    if (h >= w->max_bodies || !w->bodies[h].body || w->bodies[h].kinematic) return;
    dBodyID b = w->bodies[h].body;
    dMass m;
    dBodyGetMass(b, &m);
    /* dv = J / m; dw = I^-1 (r x J), I in world space. */
    const sw_vec3 p = sw__v(dBodyGetPosition(b));
    const sw_vec3 lin = sw__v(dBodyGetLinearVel(b));
    const sw_vec3 dv = sw_vec3_scale(impulse, (float)(1.0 / m.mass));
    dBodySetLinearVel(b, lin.x + dv.x, lin.y + dv.y, lin.z + dv.z);
    const sw_vec3 torque = sw_vec3_cross(sw_vec3_sub(point, p), impulse);
    /* Body-space inertia: I_world^-1 t = R I^-1 R^T t. */
    const sw_quat r = sw__body_rotation(b);
    const sw_vec3 tb = sw_quat_rotate(sw_quat_conjugate(r), torque);
    dMatrix3 inv;
    dReal tv[4] = {tb.x, tb.y, tb.z, 0.0};
    dReal res[4];
    if (!dInvertPDMatrix(m.I, inv, 3)) return;
    dMultiply0_331(res, inv, tv);
    const sw_vec3 dw = sw_quat_rotate(r, sw__v(res));
    const sw_vec3 ang = sw__v(dBodyGetAngularVel(b));
    dBodySetAngularVel(b, ang.x + dw.x, ang.y + dw.y, ang.z + dw.z);
}

static void sw__ode_set_joint_motor(void* user, sw_physics_handle h, const sw_physics_motor* m) {
    sw_ode_world* w = (sw_ode_world*)user;
    if (h >= w->max_joints || !w->joints[h].ball || !m) return;
    sw_physics_motor g = *m;
    if (!sw__finite_q(g.target) || !sw__finite3(g.target_velocity) || !(g.strength >= 0.0f)) {
        g.strength = 0.0f;
        g.target = w->joints[h].reference;
        g.target_velocity = sw_vec3_make(0.0f, 0.0f, 0.0f);
    }
    g.strength = g.strength > 1.0f ? 1.0f : g.strength;
    g.target = sw_quat_normalize(g.target);
    w->joints[h].goal = g;
}

sw_physics sw_ode_world_physics(sw_ode_world* w) {
    sw_physics p;
    memset(&p, 0, sizeof p);
    p.user = w;
    p.create_body = sw__ode_create_body;
    p.destroy_body = sw__ode_destroy_body;
    p.create_joint = sw__ode_create_joint;
    p.destroy_joint = sw__ode_destroy_joint;
    p.set_kinematic = sw__ode_set_kinematic;
    p.set_body_state = sw__ode_set_body_state;
    p.get_body_state = sw__ode_get_body_state;
    p.apply_impulse = sw__ode_apply_impulse;
    p.set_joint_motor = sw__ode_set_joint_motor;
    return p;
}

/* ---- world ---- */

sw_result sw_ode_world_create(const sw_ode_world_desc* desc, const sw_allocator* alloc,
                              sw_ode_world** out, sw_error* err) {
    if (!out) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1);
    sw_ode_world_desc d;
    memset(&d, 0, sizeof d);
    if (desc) d = *desc;
    if (!sw__finite3(d.gravity)) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "gravity", 0, -1);
    if (!(d.step >= 0.0f) || !isfinite(d.step))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "step", 0, -1);
    if (!isfinite(d.ground_height))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "ground_height", 0, -1);
    if (!(d.friction >= 0.0f) || !isfinite(d.friction))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "friction", 0, -1);
    if (!(d.restitution >= 0.0f && d.restitution <= 1.0f))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "restitution", 0, -1);
    if (!(d.linear_damping >= 0.0f) || !isfinite(d.linear_damping))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "linear_damping", 0, -1);
    if (!(d.angular_damping >= 0.0f) || !isfinite(d.angular_damping))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "angular_damping", 0, -1);
    const uint32_t nb = d.max_bodies ? d.max_bodies : SW_ODE_DEFAULT_CAPACITY;
    const uint32_t nj = d.max_joints ? d.max_joints : SW_ODE_DEFAULT_CAPACITY;
    if (nb > SW__ODE_MAX_CAPACITY) return sw__fail(err, SW_RESULT_LIMIT, "max_bodies", 0, -1);
    if (nj > SW__ODE_MAX_CAPACITY) return sw__fail(err, SW_RESULT_LIMIT, "max_joints", 0, -1);

    const size_t head = (size_t)sw__align16(sizeof(sw_ode_world));
    const size_t bodies_bytes = (size_t)sw__align16(nb * sizeof(sw__ode_body));
    const size_t size = head + bodies_bytes + nj * sizeof(sw__ode_joint);
    sw_ode_world* w = (sw_ode_world*)sw_alloc(alloc, size, 16);
    if (!w) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    memset(w, 0, size);
    w->size = size;
    w->bodies = (sw__ode_body*)(void*)((char*)w + head);
    w->joints = (sw__ode_joint*)(void*)((char*)w + head + bodies_bytes);
    w->max_bodies = nb;
    w->max_joints = nj;
    w->step = d.step > 0.0f ? d.step : SW_RAGDOLL_DEFAULT_STEP;
    w->friction = d.friction > 0.0f ? d.friction : SW_ODE_DEFAULT_FRICTION;
    w->restitution = d.restitution;

    dInitODE2(0);
    dAllocateODEDataForThread((unsigned int)dAllocateFlagBasicData |
                              (unsigned int)dAllocateFlagCollisionData);
    w->world = dWorldCreate();
    sw_vec3 g = d.gravity;
    if (d.no_gravity)
        g = sw_vec3_make(0.0f, 0.0f, 0.0f);
    else if (g.x == 0.0f && g.y == 0.0f && g.z == 0.0f)
        g = sw_vec3_make(0.0f, -SW__ODE_GRAVITY, 0.0f);
    dWorldSetGravity(w->world, g.x, g.y, g.z);
    dWorldSetERP(w->world, 0.2);
    dWorldSetCFM(w->world, 1e-6);
    dWorldSetContactSurfaceLayer(w->world, 0.001);
    dWorldSetContactMaxCorrectingVel(w->world, 5.0);
    dWorldSetAutoDisableFlag(w->world, 0);
    /* Damping per second -> ODE's per-step scale. */
    dWorldSetLinearDamping(w->world, 1.0 - exp(-(double)d.linear_damping * (double)w->step));
    dWorldSetAngularDamping(w->world, 1.0 - exp(-(double)d.angular_damping * (double)w->step));
    /* A simple space: pairs in list order, so collisions are reproducible. */
    w->space = dSimpleSpaceCreate(0);
    if (!d.no_ground) w->ground = dCreatePlane(w->space, 0, 1, 0, d.ground_height);
    w->contacts = dJointGroupCreate(0);
    *out = w;
    return SW_RESULT_OK;
}

void sw_ode_world_destroy(sw_ode_world* w, const sw_allocator* alloc) {
    if (!w) return;
    for (uint32_t i = 0; i < w->max_joints; ++i)
        sw__ode_destroy_joint(w, i);
    for (uint32_t i = 0; i < w->max_bodies; ++i)
        sw__ode_destroy_body(w, i);
    dJointGroupDestroy(w->contacts);
    if (w->ground) dGeomDestroy(w->ground);
    dSpaceDestroy(w->space);
    dWorldDestroy(w->world);
    dCloseODE();
    sw_free(alloc, w, w->size);
}

float sw_ode_world_step_size(const sw_ode_world* w) {
    return w ? w->step : 0.0f;
}
uint32_t sw_ode_world_bodies_count(const sw_ode_world* w) {
    return w ? w->bodies_count : 0;
}
uint32_t sw_ode_world_joints_count(const sw_ode_world* w) {
    return w ? w->joints_count : 0;
}
uint32_t sw_ode_world_contacts_count(const sw_ode_world* w) {
    return w ? w->contacts_count : 0;
}

static void sw__set_axis(dJointID j, int axis, sw_vec3 v) {
    dJointSetAMotorAxis(j, axis, 0, v.x, v.y, v.z);
}

/* One limited axis of the limit motor: the angle and stops for this step.
 * A violated stop pulls back SW_ODE_STOP_ERP of the violation per step.
 * A stop within reach of this step (closer than the axis' relative speed x
 * SW_ODE_STOP_LOOKAHEAD steps + SW_ODE_STOP_MARGIN) is made active ahead of
 * time: ODE's limit row asks for rate <= -fps x erp x (angle - stop) (high
 * stop; mirrored for the low one), so the angle is reported mirrored about
 * the stop (2 stop - angle) with erp -1, which allows at most the rate that
 * ends the step on the stop: the joint stops at its limit instead of
 * overshooting it by a step's motion. */
static void sw__set_stop(dJointID j, int axis, float angle, float rate, float lo, float hi,
                         float step) {
    const int g = axis * (int)dParamGroup;
    float value = angle, erp = SW_ODE_STOP_ERP;
    if (angle > lo && angle < hi) {
        const float reach = fabsf(rate) * step * SW_ODE_STOP_LOOKAHEAD + SW_ODE_STOP_MARGIN;
        const float to_hi = hi - angle, to_lo = angle - lo;
        if (to_hi < reach && to_hi <= to_lo) {
            value = 2.0f * hi - angle;
            erp = -1.0f;
        } else if (to_lo < reach) {
            value = 2.0f * lo - angle;
            erp = -1.0f;
        }
    }
    dJointSetAMotorAngle(j, axis, value);
    dJointSetAMotorParam(j, dParamLoStop + g, lo);
    dJointSetAMotorParam(j, dParamHiStop + g, hi);
    dJointSetAMotorParam(j, dParamStopERP + g, erp);
}

/* Limit axes and angles, and motor velocities, from the bodies' states. */
static void sw__ode_update_joint(sw_ode_world* w, sw__ode_joint* j) {
    const sw__ode_body* p = &w->bodies[j->parent];
    const sw__ode_body* c = &w->bodies[j->child];
    if (p->kinematic && c->kinematic) {
        dJointDisable(j->ball);
        dJointDisable(j->limit);
        dJointDisable(j->motor);
        return;
    }
    dJointEnable(j->ball);
    dJointEnable(j->limit);
    const sw_quat rp = sw__body_rotation(p->body), rc = sw__body_rotation(c->body);
    /* Deviation from the reference, in the reference child frame. */
    const sw_quat frame = sw_quat_mul(rp, j->reference);
    const sw_quat dev = sw_quat_mul(sw_quat_conjugate(frame), rc);
    sw_quat swing, twist;
    sw_quat_swing_twist(dev, j->twist_axis, &swing, &twist);
    if (swing.w < 0.0f) swing = sw_quat_negate(swing);
    sw_vec3 saxis;
    float sangle;
    sw_quat_to_axis_angle(swing, &saxis, &sangle);
    if (!(sangle > 1e-6f)) {
        /* Any axis across the twist axis (the stop is not reached). */
        sw_vec3 t = j->twist_axis;
        saxis = fabsf(t.x) < 0.9f ? sw_vec3_normalize(sw_vec3_cross(t, sw_vec3_make(1, 0, 0)))
                                  : sw_vec3_normalize(sw_vec3_cross(t, sw_vec3_make(0, 1, 0)));
        sangle = 0.0f;
    }
    const float tdot =
        twist.x * j->twist_axis.x + twist.y * j->twist_axis.y + twist.z * j->twist_axis.z;
    float tangle = 2.0f * atan2f(tdot, twist.w);
    if (tangle > 3.14159265f) tangle -= 6.2831853f;
    if (tangle < -3.14159265f) tangle += 6.2831853f;
    const sw_vec3 swing_axis = sw_quat_rotate(frame, saxis);
    const sw_vec3 twist_axis = sw_quat_rotate(rc, j->twist_axis);
    sw__set_axis(j->limit, 0, swing_axis);
    sw__set_axis(j->limit, 1, twist_axis);
    /* Relative angular velocity (child minus parent, world). */
    const sw_vec3 rel =
        sw_vec3_sub(sw__v(dBodyGetAngularVel(c->body)), sw__v(dBodyGetAngularVel(p->body)));
    sw__set_stop(j->limit, 0, sangle, sw_vec3_dot(rel, swing_axis), -(float)dInfinity,
                 j->swing_limit, w->step);
    sw__set_stop(j->limit, 1, tangle, sw_vec3_dot(rel, twist_axis), j->twist_min, j->twist_max,
                 w->step);
    /* Velocity motor toward the goal; below SW_ODE_JOINT_FRICTION strength
     * it only brakes the relative rotation (joint friction). */
    if (c->kinematic && p->kinematic) {
        dJointDisable(j->motor);
        return;
    }
    dJointEnable(j->motor);
    const bool powered = j->goal.strength > SW_ODE_JOINT_FRICTION;
    const float fmax = (powered ? j->goal.strength : SW_ODE_JOINT_FRICTION) * j->max_torque;
    sw_vec3 vel = sw_vec3_make(0.0f, 0.0f, 0.0f);
    if (powered) {
        const sw_quat want = sw_quat_mul(rp, j->goal.target);
        const sw_vec3 err = sw__rotvec(sw_quat_mul(want, sw_quat_conjugate(rc)));
        /* The goal is the rotation at the end of this step, moving at
         * target_velocity: feed that velocity forward and close the error
         * left against where the goal is now (err - step x velocity), so the
         * body neither lags nor leads the goal by a step's motion. */
        const sw_vec3 lag = sw_vec3_sub(err, sw_vec3_scale(j->goal.target_velocity, w->step));
        vel = sw_vec3_add(j->goal.target_velocity,
                          sw_vec3_scale(lag, 1.0f / (SW_ODE_MOTOR_STEPS * w->step)));
    }
    dJointSetAMotorParam(j->motor, dParamVel, vel.x);
    dJointSetAMotorParam(j->motor, dParamVel2, vel.y);
    dJointSetAMotorParam(j->motor, dParamVel3, vel.z);
    dJointSetAMotorParam(j->motor, dParamFMax, fmax);
    dJointSetAMotorParam(j->motor, dParamFMax2, fmax);
    dJointSetAMotorParam(j->motor, dParamFMax3, fmax);
}

static void sw__ode_near(void* data, dGeomID o1, dGeomID o2) {
    sw_ode_world* w = (sw_ode_world*)data;
    const dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    const sw__ode_body* r1 = b1 ? (const sw__ode_body*)dGeomGetData(o1) : NULL;
    const sw__ode_body* r2 = b2 ? (const sw__ode_body*)dGeomGetData(o2) : NULL;
    const bool dyn1 = r1 && !r1->kinematic, dyn2 = r2 && !r2->kinematic;
    if (!dyn1 && !dyn2) return; /* nothing that can move */
    if (r1 && r2) {
        if (r1->group != 0 && r1->group == r2->group) return;
        if (dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
    }
    dContact contact[SW_ODE_MAX_CONTACTS];
    memset(contact, 0, sizeof contact);
    const int n = dCollide(o1, o2, SW_ODE_MAX_CONTACTS, &contact[0].geom, sizeof(dContact));
    for (int i = 0; i < n; ++i) {
        contact[i].surface.mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM;
        contact[i].surface.mu = w->friction;
        contact[i].surface.soft_erp = 0.2;
        contact[i].surface.soft_cfm = 1e-5;
        if (w->restitution > 0.0f) {
            contact[i].surface.mode |= dContactBounce;
            contact[i].surface.bounce = w->restitution;
            contact[i].surface.bounce_vel = 0.2;
        }
        dJointID cj = dJointCreateContact(w->world, w->contacts, &contact[i]);
        dJointAttach(cj, b1, b2);
        ++w->contacts_count;
    }
}

sw_result sw_ode_world_step(sw_ode_world* w) {
    if (!w) return SW_RESULT_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < w->max_joints; ++i) {
        if (w->joints[i].ball) sw__ode_update_joint(w, &w->joints[i]);
    }
    w->contacts_count = 0;
    dSpaceCollide(w->space, w, sw__ode_near);
    dWorldStep(w->world, w->step);
    dJointGroupEmpty(w->contacts);
    for (uint32_t i = 0; i < w->max_bodies; ++i) {
        if (!w->bodies[i].body) continue;
        const dReal* p = dBodyGetPosition(w->bodies[i].body);
        const dReal* v = dBodyGetLinearVel(w->bodies[i].body);
        const dReal* a = dBodyGetAngularVel(w->bodies[i].body);
        if (!isfinite(p[0] + p[1] + p[2] + v[0] + v[1] + v[2] + a[0] + a[1] + a[2]))
            return SW_RESULT_BAD_DATA;
    }
    return SW_RESULT_OK;
}
