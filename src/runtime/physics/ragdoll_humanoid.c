/* The humanoid ragdoll template: capsules, masses, limits and torques from a
 * skeleton's rest pose. */
#include "ragdoll_internal.h"
#include "runtime/core/internal.h"

#include <math.h>
#include <string.h>

#define SW__PI 3.14159265358979f
#define SW__GRAVITY 9.81f
/* Motors hold this many times the gravity torque of what they carry... */
#define SW__TORQUE_MARGIN 6.0f
/* ...plus the torque that turns what they carry (its inertia about the
 * joint) at this angular acceleration (rad/s^2): a gravity torque alone
 * grows with size like m L, the torque that follows an animation like
 * m L^2, so a large character (RobotExpressive) would lag its walk. */
#define SW__MOTOR_ACCEL 200.0f
/* A shin capsule's lowest point stays at least this fraction of its bone
 * above the rest pose's lowest joint (the ground under the feet), so that
 * a foot on the ground keeps its shin off it: rigs whose foot joint sits at
 * the sole (RobotExpressive) get shins that stop short of the foot joint. */
#define SW__SHIN_CLEARANCE 0.1f
#define SW__MIN_BONE 1e-4f

static const char* const sw__part_names[SW_RAGDOLL_PART_COUNT] = {
    "none",           "hips",         "spine",           "chest",         "head",
    "left_upper_arm", "left_forearm", "right_upper_arm", "right_forearm", "left_thigh",
    "left_shin",      "right_thigh",  "right_shin",
};

const char* sw_ragdoll_part_str(sw_ragdoll_part part) {
    return (unsigned)part < SW_RAGDOLL_PART_COUNT ? sw__part_names[part] : "none";
}

/* How a part's capsule runs and how its joint is limited. */
typedef enum sw__bend {
    SW__BEND_NONE = 0,
    SW__BEND_DOWN_45, /* centre: the bone 45 degrees below the horizontal (shoulders) */
    SW__BEND_FORWARD, /* centre: the bone turned toward forward by `bend` (elbows, hips) */
    SW__BEND_BACKWARD /* centre: the bone turned toward backward by `bend` (knees) */
} sw__bend;

typedef struct sw__part_rule {
    sw_ragdoll_part parent;
    float radius;  /* fraction of the bone length, or of the shoulder width (trunk) */
    bool of_width; /* radius from the shoulder width */
    float swing;   /* radians */
    float twist;   /* radians, symmetric */
    sw__bend bend;
    float bend_angle;
} sw__part_rule;

static const sw__part_rule sw__rules[SW_RAGDOLL_PART_COUNT] = {
    [SW_RAGDOLL_PART_HIPS] = {SW_RAGDOLL_PART_NONE, 0.30f, true, 0.0f, 0.0f, SW__BEND_NONE, 0.0f},
    [SW_RAGDOLL_PART_SPINE] = {SW_RAGDOLL_PART_HIPS, 0.30f, true, 0.40f, 0.35f, SW__BEND_NONE,
                               0.0f},
    [SW_RAGDOLL_PART_CHEST] = {SW_RAGDOLL_PART_SPINE, 0.33f, true, 0.40f, 0.35f, SW__BEND_NONE,
                               0.0f},
    [SW_RAGDOLL_PART_HEAD] = {SW_RAGDOLL_PART_CHEST, 0.28f, true, 0.70f, 0.90f, SW__BEND_NONE,
                              0.0f},
    [SW_RAGDOLL_PART_LEFT_UPPER_ARM] = {SW_RAGDOLL_PART_CHEST, 0.20f, false, 1.70f, 1.20f,
                                        SW__BEND_DOWN_45, 0.0f},
    [SW_RAGDOLL_PART_LEFT_FOREARM] = {SW_RAGDOLL_PART_LEFT_UPPER_ARM, 0.17f, false, 1.30f, 1.70f,
                                      SW__BEND_FORWARD, 1.22f},
    [SW_RAGDOLL_PART_RIGHT_UPPER_ARM] = {SW_RAGDOLL_PART_CHEST, 0.20f, false, 1.70f, 1.20f,
                                         SW__BEND_DOWN_45, 0.0f},
    [SW_RAGDOLL_PART_RIGHT_FOREARM] = {SW_RAGDOLL_PART_RIGHT_UPPER_ARM, 0.17f, false, 1.30f, 1.70f,
                                       SW__BEND_FORWARD, 1.22f},
    [SW_RAGDOLL_PART_LEFT_THIGH] = {SW_RAGDOLL_PART_HIPS, 0.18f, false, 1.70f, 0.70f,
                                    SW__BEND_FORWARD, 0.70f},
    [SW_RAGDOLL_PART_LEFT_SHIN] = {SW_RAGDOLL_PART_LEFT_THIGH, 0.14f, false, 1.45f, 0.40f,
                                   SW__BEND_BACKWARD, 1.22f},
    [SW_RAGDOLL_PART_RIGHT_THIGH] = {SW_RAGDOLL_PART_HIPS, 0.18f, false, 1.70f, 0.70f,
                                     SW__BEND_FORWARD, 0.70f},
    [SW_RAGDOLL_PART_RIGHT_SHIN] = {SW_RAGDOLL_PART_RIGHT_THIGH, 0.14f, false, 1.45f, 0.40f,
                                    SW__BEND_BACKWARD, 1.22f},
};

/* Joint of a part, and the joint ending its bone (-1: special). */
static void sw__part_joints(const sw_ragdoll_humanoid_joints* h, sw_ragdoll_part p, int32_t* joint,
                            int32_t* end) {
    *end = -1;
    switch (p) {
    case SW_RAGDOLL_PART_HIPS:
        *joint = h->hips;
        break; /* replaced by the caller (pelvis) */
    case SW_RAGDOLL_PART_SPINE:
        *joint = h->spine;
        *end = h->chest;
        break;
    case SW_RAGDOLL_PART_CHEST:
        *joint = h->chest;
        *end = h->neck >= 0 ? h->neck : h->head;
        break;
    case SW_RAGDOLL_PART_HEAD:
        *joint = h->head;
        break;
    case SW_RAGDOLL_PART_LEFT_UPPER_ARM:
        *joint = h->upper_arm[0];
        *end = h->forearm[0];
        break;
    case SW_RAGDOLL_PART_LEFT_FOREARM:
        *joint = h->forearm[0];
        *end = h->hand[0];
        break;
    case SW_RAGDOLL_PART_RIGHT_UPPER_ARM:
        *joint = h->upper_arm[1];
        *end = h->forearm[1];
        break;
    case SW_RAGDOLL_PART_RIGHT_FOREARM:
        *joint = h->forearm[1];
        *end = h->hand[1];
        break;
    case SW_RAGDOLL_PART_LEFT_THIGH:
        *joint = h->thigh[0];
        *end = h->shin[0];
        break;
    case SW_RAGDOLL_PART_LEFT_SHIN:
        *joint = h->shin[0];
        *end = h->foot[0];
        break;
    case SW_RAGDOLL_PART_RIGHT_THIGH:
        *joint = h->thigh[1];
        *end = h->shin[1];
        break;
    case SW_RAGDOLL_PART_RIGHT_SHIN:
        *joint = h->shin[1];
        *end = h->foot[1];
        break;
    default:
        *joint = -1;
        break;
    }
}

/* A point of model space in the frame of a joint (rotation r, origin o). */
static sw_vec3 sw__to_joint(sw_quat r, sw_vec3 o, sw_vec3 p) {
    return sw_quat_rotate(sw_quat_conjugate(r), sw_vec3_sub(p, o));
}

/* Deepest joint that is `a` or an ancestor of it and an ancestor of (or) b;
 * -1 when the two are in different trees. */
static int32_t sw__common_ancestor(const sw_skeleton* s, int32_t a, int32_t b) {
    const int16_t* parents = sw_skeleton_parents(s);
    for (int32_t x = a; x >= 0; x = parents[x]) {
        if (sw__ragdoll_is_ancestor(s, (uint32_t)x, (uint32_t)b)) return x;
    }
    return -1;
}

static bool sw__finite(float v) {
    return isfinite(v) != 0;
}

/* What the humanoid template builds its bodies and joints from. */
typedef struct sw__humanoid {
    const sw_skeleton* skeleton;
    const sw_xform4* rest;
    const sw_ragdoll_humanoid_joints* h;
    float density, radius_scale, torque_scale;
    sw_vec3 fwd;
    bool has_spine;
    int32_t pelvis;
    float width;  /* shoulder width */
    float ground; /* height of the rest pose's lowest joint */
    uint32_t nb;
    sw_ragdoll_part order[SW_RAGDOLL_MAX_BODIES];
    int32_t body_of_part[SW_RAGDOLL_PART_COUNT];
    int32_t parent_body[SW_RAGDOLL_MAX_BODIES];
    sw_vec3 com_model[SW_RAGDOLL_MAX_BODIES];
    sw_quat rot_model[SW_RAGDOLL_MAX_BODIES];
    sw_vec3 dir_model[SW_RAGDOLL_MAX_BODIES];
} sw__humanoid;

/* Model-space rest position of joint j. */
static sw_vec3 sw__rest_pos(const sw__humanoid* hb, int32_t j) {
    return sw__ragdoll_model_of(hb->skeleton, hb->rest, (uint32_t)j).t;
}

/* Options checked, defaults applied. */
static sw_result sw__humanoid_options(sw__humanoid* hb, const sw_ragdoll_humanoid_options* options,
                                      sw_error* err) {
    sw_ragdoll_humanoid_options opt;
    memset(&opt, 0, sizeof opt);
    if (options) opt = *options;
    if (!(opt.density >= 0.0f) || !(opt.radius_scale >= 0.0f) || !(opt.torque_scale >= 0.0f) ||
        !sw__finite(opt.density) || !sw__finite(opt.radius_scale) ||
        !sw__finite(opt.torque_scale) || !sw__finite(opt.forward.x) || !sw__finite(opt.forward.y) ||
        !sw__finite(opt.forward.z))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "options", 0, -1);
    hb->density = opt.density > 0.0f ? opt.density : SW_RAGDOLL_DEFAULT_DENSITY;
    hb->radius_scale = opt.radius_scale > 0.0f ? opt.radius_scale : 1.0f;
    hb->torque_scale = opt.torque_scale > 0.0f ? opt.torque_scale : 1.0f;
    hb->fwd = sw_vec3_length(opt.forward) > 0.0f ? sw_vec3_normalize(opt.forward)
                                                 : sw_vec3_make(0.0f, 0.0f, 1.0f);
    return SW_RESULT_OK;
}

/* Required joints present and in range; optional ones in range; the pelvis,
 * the body order, the shoulder width and the ground. */
static sw_result sw__humanoid_layout(sw__humanoid* hb, sw_error* err) {
    const sw_skeleton* skeleton = hb->skeleton;
    const sw_ragdoll_humanoid_joints* h = hb->h;
    const int32_t required[][2] = {
        {h->hips, SW_RAGDOLL_PART_HIPS},
        {h->chest, SW_RAGDOLL_PART_CHEST},
        {h->head, SW_RAGDOLL_PART_HEAD},
        {h->upper_arm[0], SW_RAGDOLL_PART_LEFT_UPPER_ARM},
        {h->forearm[0], SW_RAGDOLL_PART_LEFT_FOREARM},
        {h->hand[0], SW_RAGDOLL_PART_LEFT_FOREARM},
        {h->upper_arm[1], SW_RAGDOLL_PART_RIGHT_UPPER_ARM},
        {h->forearm[1], SW_RAGDOLL_PART_RIGHT_FOREARM},
        {h->hand[1], SW_RAGDOLL_PART_RIGHT_FOREARM},
        {h->thigh[0], SW_RAGDOLL_PART_LEFT_THIGH},
        {h->shin[0], SW_RAGDOLL_PART_LEFT_SHIN},
        {h->foot[0], SW_RAGDOLL_PART_LEFT_SHIN},
        {h->thigh[1], SW_RAGDOLL_PART_RIGHT_THIGH},
        {h->shin[1], SW_RAGDOLL_PART_RIGHT_SHIN},
        {h->foot[1], SW_RAGDOLL_PART_RIGHT_SHIN},
        {h->spine, SW_RAGDOLL_PART_SPINE},
        {h->neck, SW_RAGDOLL_PART_HEAD},
    };
    const uint32_t n_required = 15;
    for (uint32_t i = 0; i < sizeof required / sizeof required[0]; ++i) {
        int32_t j = required[i][0];
        if (j < 0) {
            if (i < n_required)
                return sw__fail(err, SW_RESULT_NOT_FOUND, "humanoid joint", 0, required[i][1]);
            continue;
        }
        if ((uint32_t)j >= skeleton->joints_count)
            return sw__fail(err, SW_RESULT_BAD_DATA, "joint in range", 0, required[i][1]);
    }
    hb->has_spine = h->spine >= 0 && h->spine != h->chest;
    /* The pelvis body follows the deepest common ancestor of the hips and
     * both thighs: the hips in most rigs; RobotExpressive hangs its legs
     * beside its "Hips", under "Body". */
    hb->pelvis = sw__common_ancestor(skeleton, sw__common_ancestor(skeleton, h->hips, h->thigh[0]),
                                     h->thigh[1]);
    if (hb->pelvis < 0)
        return sw__fail(err, SW_RESULT_BAD_DATA, "chain to hips", 0, SW_RAGDOLL_PART_LEFT_THIGH);

    /* Rest pose in model space for the joints used. */
    hb->rest = sw_skeleton_rest_pose(skeleton);
    hb->nb = 0;
    for (int p = SW_RAGDOLL_PART_HIPS; p < SW_RAGDOLL_PART_COUNT; ++p) {
        hb->body_of_part[p] = -1;
        if (p == SW_RAGDOLL_PART_SPINE && !hb->has_spine) continue;
        hb->body_of_part[p] = (int32_t)hb->nb;
        hb->order[hb->nb++] = (sw_ragdoll_part)p;
    }
    hb->body_of_part[SW_RAGDOLL_PART_NONE] = -1;

    const sw_vec3 shoulder_l = sw__rest_pos(hb, h->upper_arm[0]);
    const sw_vec3 shoulder_r = sw__rest_pos(hb, h->upper_arm[1]);
    hb->width = sw_vec3_length(sw_vec3_sub(shoulder_l, shoulder_r));
    if (!sw__finite(hb->width))
        return sw__fail(err, SW_RESULT_BAD_DATA, "finite rest pose", 0, SW_RAGDOLL_PART_CHEST);
    if (!(hb->width > SW__MIN_BONE))
        return sw__fail(err, SW_RESULT_BAD_DATA, "bone length > 0", 0, SW_RAGDOLL_PART_CHEST);

    /* The ground under the rest pose: its lowest joint. */
    float ground = INFINITY;
    for (uint32_t j = 0; j < skeleton->joints_count; ++j)
        ground = fminf(ground, sw__rest_pos(hb, (int32_t)j).y);
    if (!sw__finite(ground))
        return sw__fail(err, SW_RESULT_BAD_DATA, "finite rest pose", 0, SW_RAGDOLL_PART_LEFT_SHIN);
    hb->ground = ground;
    return SW_RESULT_OK;
}

/* Body b's capsule (model-space ends a, bb and radius before scaling) and
 * its direction dir_model[b]; pj is its joint's model position. */
static sw_result sw__humanoid_capsule(sw__humanoid* hb, uint32_t b, int32_t e, sw_vec3 pj,
                                      sw_vec3* a, sw_vec3* bb, float* r, sw_error* err) {
    const sw_ragdoll_humanoid_joints* h = hb->h;
    const sw_ragdoll_part p = hb->order[b];
    const sw__part_rule* rule = &sw__rules[p];
    if (p == SW_RAGDOLL_PART_HIPS) {
        *a = sw__rest_pos(hb, h->thigh[0]);
        *bb = sw__rest_pos(hb, h->thigh[1]);
        *r = rule->radius * hb->width;
        hb->dir_model[b] = sw_vec3_make(0.0f, 1.0f, 0.0f);
        if (!(sw_vec3_length(sw_vec3_sub(*a, *bb)) > SW__MIN_BONE))
            return sw__fail(err, SW_RESULT_BAD_DATA, "bone length > 0", 0, p);
    } else if (p == SW_RAGDOLL_PART_HEAD) {
        const sw_vec3 chest = sw__rest_pos(hb, h->chest);
        const sw_vec3 axis = sw_vec3_sub(pj, chest);
        const float len = sw_vec3_length(axis);
        if (!(len > SW__MIN_BONE))
            return sw__fail(err, SW_RESULT_BAD_DATA, "bone length > 0", 0, p);
        hb->dir_model[b] = sw_vec3_scale(axis, 1.0f / len);
        *a = pj;
        *bb = sw_vec3_add(pj, sw_vec3_scale(hb->dir_model[b], 0.25f * len));
        *r = rule->radius * hb->width;
    } else {
        const sw_vec3 pe = sw__rest_pos(hb, e);
        const sw_vec3 axis = sw_vec3_sub(pe, pj);
        const float len = sw_vec3_length(axis);
        if (!sw__finite(len)) return sw__fail(err, SW_RESULT_BAD_DATA, "finite rest pose", 0, p);
        if (!(len > SW__MIN_BONE))
            return sw__fail(err, SW_RESULT_BAD_DATA, "bone length > 0", 0, p);
        hb->dir_model[b] = sw_vec3_scale(axis, 1.0f / len);
        *r = rule->radius * (rule->of_width ? hb->width : len);
        const float inset = fminf(*r, 0.5f * len);
        const bool shin = p == SW_RAGDOLL_PART_LEFT_SHIN || p == SW_RAGDOLL_PART_RIGHT_SHIN;
        const float lift =
            shin ? fmaxf(0.0f, SW__SHIN_CLEARANCE * len - (pe.y - hb->ground)) : 0.0f;
        const float end_inset = fminf(inset + lift, 0.5f * len);
        *a = sw_vec3_add(pj, sw_vec3_scale(hb->dir_model[b], inset));
        *bb = sw_vec3_sub(pe, sw_vec3_scale(hb->dir_model[b], end_inset));
    }
    return SW_RESULT_OK;
}

/* The bodies of d: capsule, mass, and each one's model-space centre and
 * rotation. */
static sw_result sw__humanoid_bodies(sw__humanoid* hb, sw_ragdoll_desc* d, sw_error* err) {
    for (uint32_t b = 0; b < hb->nb; ++b) {
        const sw_ragdoll_part p = hb->order[b];
        int32_t j, e;
        sw__part_joints(hb->h, p, &j, &e);
        if (p == SW_RAGDOLL_PART_HIPS) j = hb->pelvis;
        const sw_xform m = sw__ragdoll_model_of(hb->skeleton, hb->rest, (uint32_t)j);
        const sw_quat rj = sw_quat_normalize(m.r);
        const sw_vec3 pj = m.t;
        sw_vec3 a, bb;
        float r;
        sw_result res = sw__humanoid_capsule(hb, b, e, pj, &a, &bb, &r, err);
        if (res != SW_RESULT_OK) return res;
        r *= hb->radius_scale;
        if (!sw__finite(r) || !sw__finite(a.x + a.y + a.z + bb.x + bb.y + bb.z))
            return sw__fail(err, SW_RESULT_BAD_DATA, "finite rest pose", 0, p);
        sw_ragdoll_body_desc* bd = &d->bodies[b];
        bd->joint = (uint32_t)j;
        bd->a = sw__to_joint(rj, pj, a);
        bd->b = sw__to_joint(rj, pj, bb);
        bd->radius = r;
        const float seg = sw_vec3_length(sw_vec3_sub(bb, a));
        bd->mass = hb->density * (SW__PI * r * r * seg + 4.0f / 3.0f * SW__PI * r * r * r);
        hb->com_model[b] = sw_vec3_scale(sw_vec3_add(a, bb), 0.5f);
        hb->rot_model[b] = rj;
    }
    return SW_RESULT_OK;
}

/* Centre of a joint's limits: a rotation Qm of the child in model space,
 * its bone along dir. */
static sw_quat sw__humanoid_limit_centre(const sw__part_rule* rule, sw_vec3 dir, sw_vec3 fwd) {
    sw_quat qm = sw_quat_identity();
    if (rule->bend == SW__BEND_DOWN_45) {
        sw_vec3 hz = sw_vec3_make(dir.x, 0.0f, dir.z);
        if (sw_vec3_length(hz) > 1e-3f) {
            hz = sw_vec3_normalize(hz);
            const float c = 0.70710678f;
            qm = sw_quat_from_to(dir, sw_vec3_make(hz.x * c, -c, hz.z * c));
        }
    } else if (rule->bend != SW__BEND_NONE) {
        const sw_vec3 toward = rule->bend == SW__BEND_FORWARD ? fwd : sw_vec3_scale(fwd, -1.0f);
        const sw_vec3 axis = sw_vec3_cross(dir, toward);
        if (sw_vec3_length(axis) > 1e-3f)
            qm = sw_quat_from_axis_angle(sw_vec3_normalize(axis), rule->bend_angle);
    }
    return qm;
}

/* Torque of the motor of body b's joint (anchored at anchor_model): a margin
 * over the gravity torque of the subtree carried, plus its inertia about the
 * anchor (each capsule as a rod of its full length, about an axis across it,
 * and its mass at its centre's distance) times SW__MOTOR_ACCEL. */
static float sw__humanoid_torque(const sw__humanoid* hb, const sw_ragdoll_desc* d, uint32_t b,
                                 sw_vec3 anchor_model) {
    float mass = 0.0f, inertia = 0.0f;
    sw_vec3 moment = sw_vec3_make(0.0f, 0.0f, 0.0f);
    for (uint32_t o = b; o < hb->nb; ++o) {
        bool below = false;
        for (int32_t x = (int32_t)o; x >= 0; x = hb->parent_body[x])
            below = below || (uint32_t)x == b;
        if (!below) continue;
        const sw_ragdoll_body_desc* ob = &d->bodies[o];
        const float full = sw_vec3_length(sw_vec3_sub(ob->b, ob->a)) + 2.0f * ob->radius;
        const float dist = sw_vec3_length(sw_vec3_sub(hb->com_model[o], anchor_model));
        inertia += ob->mass * (full * full / 12.0f + 0.25f * ob->radius * ob->radius + dist * dist);
        mass += ob->mass;
        moment = sw_vec3_add(moment, sw_vec3_scale(hb->com_model[o], ob->mass));
    }
    float lever = sw_vec3_length(sw_vec3_sub(sw_vec3_scale(moment, 1.0f / mass), anchor_model));
    lever = fmaxf(lever, 0.05f);
    return hb->torque_scale *
           (SW__TORQUE_MARGIN * SW__GRAVITY * mass * lever + SW__MOTOR_ACCEL * inertia);
}

/* The joints of d: parent part before child part in body order. */
static sw_result sw__humanoid_joints(sw__humanoid* hb, sw_ragdoll_desc* d, sw_error* err) {
    const uint32_t nb = hb->nb;
    hb->parent_body[0] = -1;
    for (uint32_t b = 1; b < nb; ++b) {
        const sw_ragdoll_part p = hb->order[b];
        sw_ragdoll_part pp = sw__rules[p].parent;
        if (pp == SW_RAGDOLL_PART_SPINE && !hb->has_spine) pp = SW_RAGDOLL_PART_HIPS;
        hb->parent_body[b] = hb->body_of_part[pp];
        if (!sw__ragdoll_is_ancestor(hb->skeleton, d->bodies[hb->parent_body[b]].joint,
                                     d->bodies[b].joint))
            return sw__fail(err, SW_RESULT_BAD_DATA, "chain to hips", 0, p);
    }
    for (uint32_t b = 1; b < nb; ++b) {
        const sw_ragdoll_part p = hb->order[b];
        const sw__part_rule* rule = &sw__rules[p];
        const uint32_t pb = (uint32_t)hb->parent_body[b];
        sw_ragdoll_joint_desc* jd = &d->joints[b - 1];
        jd->parent = pb;
        jd->child = b;
        const sw_vec3 pj = sw__rest_pos(hb, (int32_t)d->bodies[b].joint);
        if (p == SW_RAGDOLL_PART_HEAD && hb->h->neck >= 0)
            jd->anchor = sw__to_joint(hb->rot_model[b], pj, sw__rest_pos(hb, hb->h->neck));
        const sw_vec3 dir = hb->dir_model[b];
        jd->twist_axis = sw_quat_rotate(sw_quat_conjugate(hb->rot_model[b]), dir);
        const sw_quat qm = sw__humanoid_limit_centre(rule, dir, hb->fwd);
        jd->reference = sw_quat_normalize(
            sw_quat_mul(sw_quat_conjugate(hb->rot_model[pb]), sw_quat_mul(qm, hb->rot_model[b])));
        float swing = rule->swing, twist = rule->twist;
        if (p == SW_RAGDOLL_PART_CHEST && !hb->has_spine) {
            swing *= 1.5f;
            twist *= 1.5f;
        }
        jd->swing_limit = swing;
        jd->twist_min = -twist;
        jd->twist_max = twist;
        const sw_vec3 anchor_model = sw_vec3_add(pj, sw_quat_rotate(hb->rot_model[b], jd->anchor));
        jd->max_torque = sw__humanoid_torque(hb, d, b, anchor_model);
    }
    return SW_RESULT_OK;
}

sw_result sw_ragdoll_desc_humanoid(const sw_skeleton* skeleton,
                                   const sw_ragdoll_humanoid_joints* joints,
                                   const sw_ragdoll_humanoid_options* options, sw_ragdoll_desc* out,
                                   sw_ragdoll_part parts[SW_RAGDOLL_MAX_BODIES], sw_error* err) {
    if (!skeleton || !joints || !out)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1);
    sw__humanoid hb;
    memset(&hb, 0, sizeof hb);
    hb.skeleton = skeleton;
    hb.h = joints;
    sw_result res = sw__humanoid_options(&hb, options, err);
    if (res == SW_RESULT_OK) res = sw__humanoid_layout(&hb, err);
    sw_ragdoll_desc d;
    memset(&d, 0, sizeof d);
    if (res == SW_RESULT_OK) res = sw__humanoid_bodies(&hb, &d, err);
    if (res == SW_RESULT_OK) res = sw__humanoid_joints(&hb, &d, err);
    if (res != SW_RESULT_OK) return res;
    const uint32_t nb = hb.nb;
    d.bodies_count = nb;
    d.joints_count = nb - 1;
    d.forward = hb.fwd;
    d.face_body = (uint32_t)hb.body_of_part[SW_RAGDOLL_PART_CHEST];
    d.trunk_body = (uint32_t)hb.body_of_part[SW_RAGDOLL_PART_CHEST];
    res = sw_ragdoll_desc_validate(&d, skeleton, err);
    if (res != SW_RESULT_OK) return res;
    *out = d;
    if (parts) {
        for (uint32_t b = 0; b < SW_RAGDOLL_MAX_BODIES; ++b)
            parts[b] = b < nb ? hb.order[b] : SW_RAGDOLL_PART_NONE;
    }
    return SW_RESULT_OK;
}
