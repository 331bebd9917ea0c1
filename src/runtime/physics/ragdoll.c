/* Ragdolls: description checks, the ragdoll object, drive / capture / read /
 * blend, settle and facing, root alignment, the fixed-step stepper. */
#include "sinew/physics/ragdoll.h"

#include "ragdoll_internal.h"
#include "runtime/core/internal.h"
#include "sinew/core/blend.h"

#include <math.h>
#include <string.h>

#define SW__PI 3.14159265358979f

struct sw_ragdoll {
    sw_ragdoll_desc desc;
    sw_physics physics;
    const sw_skeleton* skeleton;
    uint32_t joints_count;
    uint32_t packets_count;
    bool spawned;
    bool driven; /* last_target holds the previous drive's targets */
    uint32_t trunk_body;
    sw_physics_handle bodies[SW_RAGDOLL_MAX_BODIES];
    sw_physics_handle joints[SW_RAGDOLL_MAX_BODIES];
    int32_t joint_of_body[SW_RAGDOLL_MAX_BODIES]; /* desc joint whose child is the body, -1 */
    sw_ragdoll_mode mode[SW_RAGDOLL_MAX_BODIES];
    float strength[SW_RAGDOLL_MAX_BODIES];
    float weight[SW_RAGDOLL_MAX_BODIES];
    sw_vec3 center[SW_RAGDOLL_MAX_BODIES];      /* capsule centre, joint space */
    sw_quat reference[SW_RAGDOLL_MAX_BODIES];   /* per desc joint, resolved */
    sw_quat last_target[SW_RAGDOLL_MAX_BODIES]; /* per desc joint: previous relative target */
    sw_vec3 face_local;                         /* forward in the face body's frame */
    sw_physics_body_state prev[SW_RAGDOLL_MAX_BODIES];
    sw_physics_body_state latest[SW_RAGDOLL_MAX_BODIES];
    float still_time;
    float max_speed;
    float max_angular_speed;
    float facing_dot;
    /* Arrays after the header (offsets from the start of the block). */
    uint32_t body_of_joint_offset; /* int16_t[joints]: body following the joint, -1 */
    uint32_t weight_body_offset;   /* int16_t[joints]: body whose weight the joint takes, -1 */
    uint32_t weights_offset;       /* float[packets * 4]: physics weight per joint */
    uint32_t anim_weights_offset;  /* float[packets * 4]: 1 - weight */
    uint32_t model_offset;         /* sw_xform[joints]: drive scratch */
    uint32_t size;
};

static int16_t* sw__body_of_joint(const sw_ragdoll* r) {
    return (int16_t*)(void*)((char*)(uintptr_t)r + r->body_of_joint_offset);
}
static int16_t* sw__weight_body(const sw_ragdoll* r) {
    return (int16_t*)(void*)((char*)(uintptr_t)r + r->weight_body_offset);
}
static float* sw__weights(const sw_ragdoll* r) {
    return (float*)(void*)((char*)(uintptr_t)r + r->weights_offset);
}
static float* sw__anim_weights(const sw_ragdoll* r) {
    return (float*)(void*)((char*)(uintptr_t)r + r->anim_weights_offset);
}
static sw_xform* sw__model(sw_ragdoll* r) {
    return (sw_xform*)(void*)((char*)r + r->model_offset);
}

/* ---- small math ---- */

static bool sw__finite3(sw_vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}
static bool sw__finite_quat(sw_quat q) {
    return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
}
static bool sw__finite_xform(sw_xform x) {
    return sw__finite3(x.t) && sw__finite_quat(x.r) && sw__finite3(x.s);
}
static sw_xform sw__rigid(sw_xform x) {
    x.r = sw_quat_normalize(x.r);
    x.s = sw_vec3_make(1.0f, 1.0f, 1.0f);
    return x;
}
/* Rotation q as axis * angle (angle in [0, pi]). */
static sw_vec3 sw__rotation_vector(sw_quat q) {
    sw_vec3 axis;
    float angle;
    sw_quat_to_axis_angle(q, &axis, &angle);
    return sw_vec3_scale(axis, angle);
}
static bool sw__quat_is_zero(sw_quat q) {
    return q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && q.w == 0.0f;
}

/* Model transform of `joint` in `pose` (local), composed up its parents. */
sw_xform sw__ragdoll_model_of(const sw_skeleton* s, const sw_xform4* pose, uint32_t joint) {
    const int16_t* parents = sw_skeleton_parents(s);
    sw_xform m = sw_pose_get(pose, joint);
    for (int32_t p = parents[joint]; p >= 0; p = parents[p]) {
        m = sw_xform_mul(sw_pose_get(pose, (uint32_t)p), m);
    }
    return m;
}

bool sw__ragdoll_is_ancestor(const sw_skeleton* s, uint32_t ancestor, uint32_t joint) {
    const int16_t* parents = sw_skeleton_parents(s);
    for (int32_t j = (int32_t)joint; j >= 0; j = parents[j]) {
        if ((uint32_t)j == ancestor) return true;
    }
    return false;
}

/* ---- description ---- */

sw_result sw_ragdoll_desc_validate(const sw_ragdoll_desc* desc, const sw_skeleton* skeleton,
                                   sw_error* err) {
    if (!desc || !skeleton) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1);
    const uint32_t nb = desc->bodies_count;
    if (nb == 0 || nb > SW_RAGDOLL_MAX_BODIES)
        return sw__fail(err, SW_RESULT_LIMIT, "bodies count", 0, -1);
    if (desc->joints_count != nb - 1)
        return sw__fail(err, SW_RESULT_LIMIT, "joints count = bodies count - 1", 0, -1);
    for (uint32_t b = 0; b < nb; ++b) {
        const sw_ragdoll_body_desc* bd = &desc->bodies[b];
        if (bd->joint >= skeleton->joints_count)
            return sw__fail(err, SW_RESULT_BAD_DATA, "body joint in range", 0, b);
        for (uint32_t o = 0; o < b; ++o) {
            if (desc->bodies[o].joint == bd->joint)
                return sw__fail(err, SW_RESULT_BAD_DATA, "one body per joint", 0, b);
        }
        if (!sw__finite3(bd->a) || !sw__finite3(bd->b))
            return sw__fail(err, SW_RESULT_BAD_DATA, "capsule finite", 0, b);
        if (!(bd->radius > 0.0f) || !isfinite(bd->radius))
            return sw__fail(err, SW_RESULT_BAD_DATA, "radius > 0", 0, b);
        if (!(bd->mass > 0.0f) || !isfinite(bd->mass))
            return sw__fail(err, SW_RESULT_BAD_DATA, "mass > 0", 0, b);
    }
    bool is_child[SW_RAGDOLL_MAX_BODIES] = {false};
    for (uint32_t k = 0; k < desc->joints_count; ++k) {
        const sw_ragdoll_joint_desc* jd = &desc->joints[k];
        if (jd->parent >= nb || jd->child >= nb)
            return sw__fail(err, SW_RESULT_BAD_DATA, "joint bodies in range", 0, k);
        if (jd->parent >= jd->child)
            return sw__fail(err, SW_RESULT_BAD_DATA, "parent body < child body", 0, k);
        if (is_child[jd->child])
            return sw__fail(err, SW_RESULT_BAD_DATA, "child of one joint", 0, k);
        is_child[jd->child] = true;
        if (!sw__ragdoll_is_ancestor(skeleton, desc->bodies[jd->parent].joint,
                                     desc->bodies[jd->child].joint))
            return sw__fail(err, SW_RESULT_BAD_DATA, "body joint below parent body's joint", 0,
                            jd->child);
        if (!sw__finite3(jd->anchor))
            return sw__fail(err, SW_RESULT_BAD_DATA, "capsule finite", 0, jd->child);
        if (!sw__finite3(jd->twist_axis) || !(sw_vec3_length(jd->twist_axis) > 1e-6f))
            return sw__fail(err, SW_RESULT_BAD_DATA, "twist axis non-zero", 0, k);
        if (!(jd->swing_limit >= 0.0f && jd->swing_limit <= SW__PI) ||
            !(jd->twist_min >= -SW__PI && jd->twist_max <= SW__PI &&
              jd->twist_min <= jd->twist_max))
            return sw__fail(err, SW_RESULT_BAD_DATA, "limits in range", 0, k);
        if (!(jd->max_torque >= 0.0f) || !isfinite(jd->max_torque))
            return sw__fail(err, SW_RESULT_BAD_DATA, "torque >= 0", 0, k);
        if (!sw__quat_is_zero(jd->reference)) {
            float len = sqrtf(sw_quat_dot(jd->reference, jd->reference));
            if (!(fabsf(len - 1.0f) <= 1e-3f))
                return sw__fail(err, SW_RESULT_BAD_DATA, "reference unit", 0, k);
        }
    }
    if (desc->face_body >= nb)
        return sw__fail(err, SW_RESULT_BAD_DATA, "face body in range", 0, -1);
    if (desc->trunk_body >= nb)
        return sw__fail(err, SW_RESULT_BAD_DATA, "trunk body in range", 0, -1);
    if (!sw__finite3(desc->forward) || !(desc->settle_speed >= 0.0f) ||
        !(desc->settle_angular >= 0.0f) || !(desc->settle_time >= 0.0f) ||
        !isfinite(desc->settle_speed) || !isfinite(desc->settle_angular) ||
        !isfinite(desc->settle_time))
        return sw__fail(err, SW_RESULT_BAD_DATA, "settle values >= 0", 0, -1);
    return SW_RESULT_OK;
}

/* ---- object ---- */

typedef struct sw__layout {
    size_t body_of_joint, weight_body, weights, anim_weights, model, size;
} sw__layout;

static sw__layout sw__layout_of(const sw_skeleton* s) {
    sw__layout l;
    const uint64_t j = s->joints_count, lanes = (uint64_t)s->packets_count * 4u;
    uint64_t at = sw__align16(sizeof(sw_ragdoll));
    l.body_of_joint = (size_t)sw__layout_take(&at, j * sizeof(int16_t), 16u);
    l.weight_body = (size_t)sw__layout_take(&at, j * sizeof(int16_t), 16u);
    l.weights = (size_t)sw__layout_take(&at, lanes * sizeof(float), 16u);
    l.anim_weights = (size_t)sw__layout_take(&at, lanes * sizeof(float), 16u);
    l.model = (size_t)sw__layout_take(&at, j * sizeof(sw_xform), 16u);
    l.size = (size_t)at;
    return l;
}

sw_result sw_ragdoll_desc_admit_pose(sw_ragdoll_desc* desc, const sw_skeleton* skeleton,
                                     const sw_xform4* pose, uint32_t pose_count, float margin,
                                     sw_error* err) {
    if (!desc || !skeleton || !pose || pose_count < skeleton->packets_count || !(margin >= 0.0f) ||
        !isfinite(margin))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1);
    sw_result res = sw_ragdoll_desc_validate(desc, skeleton, err);
    if (res != SW_RESULT_OK) return res;
    for (uint32_t j = 0; j < skeleton->joints_count; ++j) {
        if (!sw__finite_xform(sw_pose_get(pose, j)))
            return sw__fail(err, SW_RESULT_BAD_DATA, "finite pose", 0, j);
    }
    const float pi = 3.14159265f;
    const sw_xform4* rest = sw_skeleton_rest_pose(skeleton);
    float swing_of[SW_RAGDOLL_MAX_BODIES], twist_of[SW_RAGDOLL_MAX_BODIES];
    for (uint32_t k = 0; k < desc->joints_count; ++k) {
        const sw_ragdoll_joint_desc* jd = &desc->joints[k];
        const uint32_t jp = desc->bodies[jd->parent].joint, jc = desc->bodies[jd->child].joint;
        sw_quat ref = jd->reference;
        if (sw__quat_is_zero(ref)) {
            const sw_quat rp = sw_quat_normalize(sw__ragdoll_model_of(skeleton, rest, jp).r);
            const sw_quat rc = sw_quat_normalize(sw__ragdoll_model_of(skeleton, rest, jc).r);
            ref = sw_quat_mul(sw_quat_conjugate(rp), rc);
        }
        ref = sw_quat_normalize(ref);
        /* Deviation conj(reference) * conj(R_p) * R_c, as the limits measure it. */
        const sw_quat rp = sw_quat_normalize(sw__ragdoll_model_of(skeleton, pose, jp).r);
        const sw_quat rc = sw_quat_normalize(sw__ragdoll_model_of(skeleton, pose, jc).r);
        const sw_quat dev = sw_quat_mul(sw_quat_conjugate(sw_quat_mul(rp, ref)), rc);
        const sw_vec3 t = sw_vec3_normalize(jd->twist_axis);
        sw_quat sq, tq;
        sw_quat_swing_twist(dev, t, &sq, &tq);
        const float swing = 2.0f * acosf(fminf(1.0f, fabsf(sq.w) / sqrtf(sw_quat_dot(sq, sq))));
        float twist = 2.0f * atan2f(tq.x * t.x + tq.y * t.y + tq.z * t.z, tq.w);
        if (twist > pi) twist -= 2.0f * pi;
        if (twist < -pi) twist += 2.0f * pi;
        if (!isfinite(swing) || !isfinite(twist))
            return sw__fail(err, SW_RESULT_BAD_DATA, "finite pose", 0, jc);
        swing_of[k] = swing;
        twist_of[k] = twist;
    }
    for (uint32_t k = 0; k < desc->joints_count; ++k) {
        sw_ragdoll_joint_desc* jd = &desc->joints[k];
        jd->swing_limit = fminf(pi, fmaxf(jd->swing_limit, swing_of[k] + margin));
        jd->twist_min = fmaxf(-pi, fminf(jd->twist_min, twist_of[k] - margin));
        jd->twist_max = fminf(pi, fmaxf(jd->twist_max, twist_of[k] + margin));
    }
    return SW_RESULT_OK;
}

size_t sw_ragdoll_measure(const sw_ragdoll_desc* desc, const sw_skeleton* skeleton) {
    if (!desc || !skeleton) return 0;
    return sw__layout_of(skeleton).size;
}

static void sw__update_weights(sw_ragdoll* r) {
    float* w = sw__weights(r);
    float* a = sw__anim_weights(r);
    const int16_t* wb = sw__weight_body(r);
    for (uint32_t i = 0; i < r->packets_count * 4u; ++i) {
        float v = i < r->joints_count && wb[i] >= 0 ? r->weight[wb[i]] : 0.0f;
        w[i] = v;
        a[i] = i < r->joints_count ? 1.0f - v : 0.0f;
    }
}

sw_result sw_ragdoll_init(void* mem, size_t size, const sw_ragdoll_desc* desc,
                          const sw_skeleton* skeleton, const sw_physics* physics, sw_ragdoll** out,
                          sw_error* err) {
    if (!mem || !desc || !skeleton || !physics || !out)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1);
    if (!physics->create_body || !physics->destroy_body || !physics->create_joint ||
        !physics->destroy_joint || !physics->set_kinematic || !physics->set_body_state ||
        !physics->get_body_state || !physics->apply_impulse || !physics->set_joint_motor)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "physics callbacks", 0, -1);
    if (!sw__aligned16(mem)) return sw__fail(err, SW_RESULT_MISALIGNED, "mem aligned", 0, -1);
    const sw__layout l = sw__layout_of(skeleton);
    if (size < l.size) return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "size", 0, -1);
    sw_result res = sw_ragdoll_desc_validate(desc, skeleton, err);
    if (res != SW_RESULT_OK) return res;

    sw_ragdoll* r = (sw_ragdoll*)mem;
    memset(r, 0, l.size);
    r->desc = *desc;
    r->physics = *physics;
    r->skeleton = skeleton;
    r->joints_count = skeleton->joints_count;
    r->packets_count = skeleton->packets_count;
    r->body_of_joint_offset = (uint32_t)l.body_of_joint;
    r->weight_body_offset = (uint32_t)l.weight_body;
    r->weights_offset = (uint32_t)l.weights;
    r->anim_weights_offset = (uint32_t)l.anim_weights;
    r->model_offset = (uint32_t)l.model;
    r->size = (uint32_t)l.size;

    const uint32_t nb = desc->bodies_count;
    int16_t* boj = sw__body_of_joint(r);
    int16_t* wb = sw__weight_body(r);
    const int16_t* parents = sw_skeleton_parents(skeleton);
    for (uint32_t j = 0; j < r->joints_count; ++j)
        boj[j] = -1;
    for (uint32_t b = 0; b < nb; ++b)
        boj[desc->bodies[b].joint] = (int16_t)b;
    for (uint32_t j = 0; j < r->joints_count; ++j) {
        wb[j] = boj[j] >= 0 ? boj[j] : (parents[j] >= 0 ? wb[parents[j]] : (int16_t)-1);
    }
    for (uint32_t b = 0; b < nb; ++b) {
        r->joint_of_body[b] = -1;
        r->strength[b] = 1.0f;
        r->mode[b] = SW_RAGDOLL_MODE_KINEMATIC;
        r->center[b] = sw_vec3_scale(sw_vec3_add(desc->bodies[b].a, desc->bodies[b].b), 0.5f);
    }
    /* Rest rotations of the bodies (model space) for references and facing. */
    const sw_xform4* rest = sw_skeleton_rest_pose(skeleton);
    for (uint32_t k = 0; k < desc->joints_count; ++k) {
        const sw_ragdoll_joint_desc* jd = &desc->joints[k];
        r->joint_of_body[jd->child] = (int32_t)k;
        if (sw__quat_is_zero(jd->reference)) {
            sw_quat rp = sw_quat_normalize(
                sw__ragdoll_model_of(skeleton, rest, desc->bodies[jd->parent].joint).r);
            sw_quat rc = sw_quat_normalize(
                sw__ragdoll_model_of(skeleton, rest, desc->bodies[jd->child].joint).r);
            r->reference[k] = sw_quat_normalize(sw_quat_mul(sw_quat_conjugate(rp), rc));
        } else {
            r->reference[k] = sw_quat_normalize(jd->reference);
        }
    }
    sw_vec3 fwd = sw_vec3_length(desc->forward) > 0.0f ? sw_vec3_normalize(desc->forward)
                                                       : sw_vec3_make(0.0f, 0.0f, 1.0f);
    sw_quat rf = sw_quat_normalize(
        sw__ragdoll_model_of(skeleton, rest, desc->bodies[desc->face_body].joint).r);
    r->face_local = sw_quat_rotate(sw_quat_conjugate(rf), fwd);
    /* Trunk body: given, or the child of body 0 with the most bodies below. */
    r->trunk_body = desc->trunk_body;
    if (r->trunk_body == 0 && nb > 1) {
        uint32_t below[SW_RAGDOLL_MAX_BODIES] = {0};
        for (uint32_t b = nb; b-- > 1;) {
            below[b] += 1;
            below[desc->joints[r->joint_of_body[b]].parent] += below[b];
        }
        uint32_t best = 0;
        for (uint32_t k = 0; k < desc->joints_count; ++k) {
            const sw_ragdoll_joint_desc* jd = &desc->joints[k];
            if (jd->parent == 0 && (best == 0 || below[jd->child] > below[best])) best = jd->child;
        }
        r->trunk_body = best;
    }
    for (uint32_t b = 0; b < nb; ++b) {
        r->latest[b].transform = sw_xform_identity();
        r->prev[b] = r->latest[b];
    }
    sw__update_weights(r);
    *out = r;
    return SW_RESULT_OK;
}

sw_result sw_ragdoll_create(const sw_ragdoll_desc* desc, const sw_skeleton* skeleton,
                            const sw_physics* physics, const sw_allocator* alloc, sw_ragdoll** out,
                            sw_error* err) {
    if (!desc || !skeleton || !physics || !out)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1);
    size_t size = sw_ragdoll_measure(desc, skeleton);
    void* mem = sw_alloc(alloc, size, 16);
    if (!mem) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    sw_result res = sw_ragdoll_init(mem, size, desc, skeleton, physics, out, err);
    if (res != SW_RESULT_OK) sw_free(alloc, mem, size);
    return res;
}

void sw_ragdoll_destroy(sw_ragdoll* r, const sw_allocator* alloc) {
    if (!r) return;
    sw_ragdoll_despawn(r);
    sw_free(alloc, r, r->size);
}

const sw_ragdoll_desc* sw_ragdoll_get_desc(const sw_ragdoll* r) {
    return r ? &r->desc : NULL;
}
uint32_t sw_ragdoll_bodies_count(const sw_ragdoll* r) {
    return r ? r->desc.bodies_count : 0;
}
uint32_t sw_ragdoll_body_joint(const sw_ragdoll* r, uint32_t body) {
    return r && body < r->desc.bodies_count ? r->desc.bodies[body].joint : 0;
}
int32_t sw_ragdoll_find_body(const sw_ragdoll* r, uint32_t joint) {
    return r && joint < r->joints_count ? sw__body_of_joint(r)[joint] : -1;
}
sw_physics_handle sw_ragdoll_body_handle(const sw_ragdoll* r, uint32_t body) {
    return r && body < r->desc.bodies_count ? r->bodies[body] : 0;
}

/* ---- targets from a pose ---- */

/* Model transforms of `pose` into the drive scratch; false on a non-finite
 * value (*bad = the joint). */
static bool sw__pose_model(sw_ragdoll* r, const sw_xform4* pose, int64_t* bad) {
    sw_xform* model = sw__model(r);
    const int16_t* parents = sw_skeleton_parents(r->skeleton);
    for (uint32_t j = 0; j < r->joints_count; ++j) {
        sw_xform local = sw_pose_get(pose, j);
        if (!sw__finite_xform(local)) {
            *bad = j;
            return false;
        }
        model[j] = parents[j] >= 0 ? sw_xform_mul(model[parents[j]], local) : local;
    }
    return true;
}

/* World transform of body b's frame given its joint's model transform. */
static sw_xform sw__body_world(const sw_ragdoll* r, uint32_t b, sw_xform root,
                               sw_xform joint_model) {
    sw_xform out;
    out.r = sw_quat_normalize(sw_quat_mul(root.r, joint_model.r));
    sw_vec3 jp = sw_vec3_add(root.t, sw_quat_rotate(root.r, joint_model.t));
    out.t = sw_vec3_add(jp, sw_quat_rotate(out.r, r->center[b]));
    out.s = sw_vec3_make(1.0f, 1.0f, 1.0f);
    return out;
}

/* World position of body b's joint (or of a point p in joint space) in a state. */
static sw_vec3 sw__joint_point(const sw_ragdoll* r, uint32_t b, sw_xform body, sw_vec3 p) {
    return sw_vec3_add(body.t, sw_quat_rotate(body.r, sw_vec3_sub(p, r->center[b])));
}

sw_result sw_ragdoll_spawn(sw_ragdoll* r, const sw_xform4* pose, uint32_t pose_count, sw_xform root,
                           uint32_t group, sw_error* err) {
    if (!r || !pose || r->spawned || pose_count < r->packets_count)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1);
    int64_t bad = -1;
    if (!sw__finite_xform(root) || !sw__pose_model(r, pose, &bad))
        return sw__fail(err, SW_RESULT_BAD_DATA, "finite pose", 0, bad);
    root = sw__rigid(root);
    const sw_xform* model = sw__model(r);
    const sw_ragdoll_desc* d = &r->desc;
    uint32_t made_bodies = 0, made_joints = 0;
    sw_result res = SW_RESULT_OK;
    for (uint32_t b = 0; b < d->bodies_count && res == SW_RESULT_OK; ++b) {
        const sw_ragdoll_body_desc* bd = &d->bodies[b];
        sw_physics_body_desc pd;
        memset(&pd, 0, sizeof pd);
        pd.state.transform = sw__body_world(r, b, root, model[bd->joint]);
        sw_vec3 seg = sw_vec3_sub(bd->b, bd->a);
        float len = sw_vec3_length(seg);
        pd.axis = len > 0.0f ? sw_vec3_scale(seg, 1.0f / len) : sw_vec3_make(0.0f, 1.0f, 0.0f);
        pd.half_length = 0.5f * len;
        pd.radius = bd->radius;
        pd.mass = bd->mass;
        pd.kinematic = true;
        pd.group = group;
        res = r->physics.create_body(r->physics.user, &pd, &r->bodies[b]);
        if (res == SW_RESULT_OK) {
            ++made_bodies;
            r->latest[b] = pd.state;
            r->prev[b] = pd.state;
            r->mode[b] = SW_RAGDOLL_MODE_KINEMATIC;
        }
    }
    for (uint32_t k = 0; k < d->joints_count && res == SW_RESULT_OK; ++k) {
        const sw_ragdoll_joint_desc* jd = &d->joints[k];
        sw_physics_joint_desc pj;
        memset(&pj, 0, sizeof pj);
        pj.parent = r->bodies[jd->parent];
        pj.child = r->bodies[jd->child];
        pj.anchor = sw__joint_point(r, jd->child, r->latest[jd->child].transform, jd->anchor);
        pj.reference = r->reference[k];
        pj.twist_axis = sw_vec3_normalize(jd->twist_axis);
        pj.swing_limit = jd->swing_limit;
        pj.twist_min = jd->twist_min;
        pj.twist_max = jd->twist_max;
        pj.max_torque = jd->max_torque;
        res = r->physics.create_joint(r->physics.user, &pj, &r->joints[k]);
        if (res == SW_RESULT_OK) ++made_joints;
    }
    if (res != SW_RESULT_OK) {
        while (made_joints > 0)
            r->physics.destroy_joint(r->physics.user, r->joints[--made_joints]);
        while (made_bodies > 0)
            r->physics.destroy_body(r->physics.user, r->bodies[--made_bodies]);
        return sw__fail(err, res, "physics create", 0, -1);
    }
    r->spawned = true;
    r->driven = false;
    r->still_time = 0.0f;
    r->max_speed = 0.0f;
    r->max_angular_speed = 0.0f;
    sw_vec3 f = sw_quat_rotate(r->latest[d->face_body].transform.r, r->face_local);
    r->facing_dot = f.y;
    return SW_RESULT_OK;
}

void sw_ragdoll_despawn(sw_ragdoll* r) {
    if (!r || !r->spawned) return;
    for (uint32_t k = r->desc.joints_count; k-- > 0;)
        r->physics.destroy_joint(r->physics.user, r->joints[k]);
    for (uint32_t b = r->desc.bodies_count; b-- > 0;)
        r->physics.destroy_body(r->physics.user, r->bodies[b]);
    r->spawned = false;
}

/* ---- settings ---- */

static bool sw__unit_value(float v) {
    return v >= 0.0f && v <= 1.0f;
}

static void sw__set_one(sw_ragdoll* r, uint32_t b, sw_ragdoll_mode mode, float strength,
                        float weight) {
    if (r->spawned && r->mode[b] != mode)
        r->physics.set_kinematic(r->physics.user, r->bodies[b], mode == SW_RAGDOLL_MODE_KINEMATIC);
    r->mode[b] = mode;
    r->strength[b] = strength;
    r->weight[b] = weight;
}

sw_result sw_ragdoll_set_mode(sw_ragdoll* r, uint32_t body, sw_ragdoll_mode mode) {
    if (!r || body >= r->desc.bodies_count ||
        (mode != SW_RAGDOLL_MODE_KINEMATIC && mode != SW_RAGDOLL_MODE_DYNAMIC))
        return SW_RESULT_INVALID_ARGUMENT;
    sw__set_one(r, body, mode, r->strength[body], r->weight[body]);
    return SW_RESULT_OK;
}

sw_result sw_ragdoll_set_strength(sw_ragdoll* r, uint32_t body, float strength) {
    if (!r || body >= r->desc.bodies_count || !sw__unit_value(strength))
        return SW_RESULT_INVALID_ARGUMENT;
    r->strength[body] = strength;
    return SW_RESULT_OK;
}

sw_result sw_ragdoll_set_weight(sw_ragdoll* r, uint32_t body, float weight) {
    if (!r || body >= r->desc.bodies_count || !sw__unit_value(weight))
        return SW_RESULT_INVALID_ARGUMENT;
    r->weight[body] = weight;
    sw__update_weights(r);
    return SW_RESULT_OK;
}

sw_result sw_ragdoll_set_subtree(sw_ragdoll* r, uint32_t body, sw_ragdoll_mode mode, float strength,
                                 float weight) {
    if (!r || body >= r->desc.bodies_count || !sw__unit_value(strength) ||
        !sw__unit_value(weight) ||
        (mode != SW_RAGDOLL_MODE_KINEMATIC && mode != SW_RAGDOLL_MODE_DYNAMIC))
        return SW_RESULT_INVALID_ARGUMENT;
    /* Bodies are parent-first: a body is in the subtree when it is `body`
     * or its parent body is. */
    bool in[SW_RAGDOLL_MAX_BODIES] = {false};
    for (uint32_t b = body; b < r->desc.bodies_count; ++b) {
        int32_t k = r->joint_of_body[b];
        in[b] = b == body || (k >= 0 && in[r->desc.joints[k].parent]);
        if (in[b]) sw__set_one(r, b, mode, strength, weight);
    }
    sw__update_weights(r);
    return SW_RESULT_OK;
}

sw_result sw_ragdoll_set_all(sw_ragdoll* r, sw_ragdoll_mode mode, float strength, float weight) {
    return sw_ragdoll_set_subtree(r, 0, mode, strength, weight);
}

sw_result sw_ragdoll_apply_impulse(sw_ragdoll* r, uint32_t body, sw_vec3 impulse, sw_vec3 point) {
    if (!r || !r->spawned || body >= r->desc.bodies_count || !sw__finite3(impulse) ||
        !sw__finite3(point))
        return SW_RESULT_INVALID_ARGUMENT;
    r->physics.apply_impulse(r->physics.user, r->bodies[body], impulse, point);
    return SW_RESULT_OK;
}

/* ---- drive, capture ---- */

sw_result sw_ragdoll_drive(sw_ragdoll* r, const sw_ragdoll_drive_desc* d, sw_error* err) {
    if (!r || !d || !r->spawned || !d->pose || d->pose_count < r->packets_count ||
        !(d->step > 0.0f) || !isfinite(d->step))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1);
    int64_t bad = -1;
    if (!sw__finite_xform(d->root) || !sw__pose_model(r, d->pose, &bad))
        return sw__fail(err, SW_RESULT_BAD_DATA, "finite pose", 0, bad);
    const sw_xform root = sw__rigid(d->root);
    const sw_xform* model = sw__model(r);
    const sw_ragdoll_desc* desc = &r->desc;
    const float inv_step = 1.0f / d->step;
    sw_quat target_r[SW_RAGDOLL_MAX_BODIES];
    for (uint32_t b = 0; b < desc->bodies_count; ++b) {
        sw_xform target = sw__body_world(r, b, root, model[desc->bodies[b].joint]);
        target_r[b] = target.r;
        if (r->mode[b] != SW_RAGDOLL_MODE_KINEMATIC) continue;
        sw_physics_body_state s;
        s.transform = r->latest[b].transform;
        s.linear_velocity = sw_vec3_scale(sw_vec3_sub(target.t, s.transform.t), inv_step);
        sw_quat delta = sw_quat_mul(target.r, sw_quat_conjugate(s.transform.r));
        s.angular_velocity = sw_vec3_scale(sw__rotation_vector(delta), inv_step);
        r->physics.set_body_state(r->physics.user, r->bodies[b], &s);
    }
    for (uint32_t k = 0; k < desc->joints_count; ++k) {
        const sw_ragdoll_joint_desc* jd = &desc->joints[k];
        sw_physics_motor m;
        m.target = sw_quat_normalize(
            sw_quat_mul(sw_quat_conjugate(target_r[jd->parent]), target_r[jd->child]));
        m.target_velocity = sw_vec3_make(0.0f, 0.0f, 0.0f);
        if (r->driven) {
            sw_quat change = sw_quat_mul(m.target, sw_quat_conjugate(r->last_target[k]));
            m.target_velocity = sw_quat_rotate(
                target_r[jd->parent], sw_vec3_scale(sw__rotation_vector(change), inv_step));
        }
        r->last_target[k] = m.target;
        m.strength = r->mode[jd->child] == SW_RAGDOLL_MODE_DYNAMIC ? r->strength[jd->child] : 0.0f;
        r->physics.set_joint_motor(r->physics.user, r->joints[k], &m);
    }
    r->driven = true;
    return SW_RESULT_OK;
}

sw_result sw_ragdoll_capture(sw_ragdoll* r, float step) {
    if (!r || !r->spawned || !(step > 0.0f) || !isfinite(step)) return SW_RESULT_INVALID_ARGUMENT;
    float vmax = 0.0f, wmax = 0.0f;
    for (uint32_t b = 0; b < r->desc.bodies_count; ++b) {
        r->prev[b] = r->latest[b];
        r->physics.get_body_state(r->physics.user, r->bodies[b], &r->latest[b]);
        r->latest[b].transform.r = sw_quat_normalize(r->latest[b].transform.r);
        r->latest[b].transform.s = sw_vec3_make(1.0f, 1.0f, 1.0f);
        if (r->mode[b] != SW_RAGDOLL_MODE_DYNAMIC) continue;
        float v = sw_vec3_length(r->latest[b].linear_velocity);
        float w = sw_vec3_length(r->latest[b].angular_velocity);
        vmax = v > vmax || v != v ? v : vmax;
        wmax = w > wmax || w != w ? w : wmax;
    }
    r->max_speed = vmax;
    r->max_angular_speed = wmax;
    const float vs =
        r->desc.settle_speed > 0.0f ? r->desc.settle_speed : SW_RAGDOLL_DEFAULT_SETTLE_SPEED;
    const float ws =
        r->desc.settle_angular > 0.0f ? r->desc.settle_angular : SW_RAGDOLL_DEFAULT_SETTLE_ANGULAR;
    if (vmax < vs && wmax < ws)
        r->still_time += step;
    else
        r->still_time = 0.0f;
    sw_vec3 f = sw_quat_rotate(r->latest[r->desc.face_body].transform.r, r->face_local);
    r->facing_dot = f.y;
    return SW_RESULT_OK;
}

sw_physics_body_state sw_ragdoll_body_state(const sw_ragdoll* r, uint32_t body) {
    sw_physics_body_state s;
    memset(&s, 0, sizeof s);
    s.transform = sw_xform_identity();
    if (r && r->spawned && body < r->desc.bodies_count) s = r->latest[body];
    return s;
}

sw_result sw_ragdoll_status_get(const sw_ragdoll* r, sw_ragdoll_status* out) {
    if (!r || !out) return SW_RESULT_INVALID_ARGUMENT;
    const float t =
        r->desc.settle_time > 0.0f ? r->desc.settle_time : SW_RAGDOLL_DEFAULT_SETTLE_TIME;
    memset(out, 0, sizeof *out);
    out->still_time = r->still_time;
    out->settled = r->spawned && r->still_time >= t;
    out->max_speed = r->max_speed;
    out->max_angular_speed = r->max_angular_speed;
    out->facing_dot = r->spawned ? r->facing_dot : 0.0f;
    out->facing = !r->spawned             ? SW_RAGDOLL_FACING_NONE
                  : r->facing_dot >= 0.0f ? SW_RAGDOLL_FACING_UP
                                          : SW_RAGDOLL_FACING_DOWN;
    return SW_RESULT_OK;
}

/* ---- read, blend ---- */

static sw_xform sw__state_lerp(sw_xform a, sw_xform b, float t) {
    sw_xform out;
    out.t = sw_vec3_lerp(a.t, b.t, t);
    out.r = sw_quat_nlerp(a.r, b.r, t);
    out.s = sw_vec3_make(1.0f, 1.0f, 1.0f);
    return out;
}

sw_result sw_ragdoll_read(const sw_ragdoll* r, float alpha, sw_xform root, const sw_xform4* anim,
                          uint32_t anim_count, sw_xform4* out, uint32_t out_count) {
    if (!r || !r->spawned || !anim || !out || anim_count < r->packets_count ||
        out_count < r->packets_count || !(alpha >= 0.0f && alpha <= 1.0f) ||
        !sw__finite_xform(root))
        return SW_RESULT_INVALID_ARGUMENT;
    if (sw__overlaps(anim, anim_count * sizeof(sw_xform4), out, out_count * sizeof(sw_xform4)))
        return SW_RESULT_OVERLAP;
    root = sw__rigid(root);
    const sw_quat root_inv = sw_quat_conjugate(root.r);
    const int16_t* parents = sw_skeleton_parents(r->skeleton);
    const int16_t* boj = sw__body_of_joint(r);
    /* Forward pass: model transforms into out (as AoS through the lanes). */
    for (uint32_t j = 0; j < r->joints_count; ++j) {
        sw_xform local = sw_pose_get(anim, j);
        sw_xform m =
            parents[j] >= 0 ? sw_xform_mul(sw_pose_get(out, (uint32_t)parents[j]), local) : local;
        int32_t b = boj[j];
        if (b >= 0) {
            sw_xform s = sw__state_lerp(r->prev[b].transform, r->latest[b].transform, alpha);
            m.r = sw_quat_normalize(sw_quat_mul(root_inv, s.r));
            if (b == 0) {
                sw_vec3 jw = sw__joint_point(r, 0, s, sw_vec3_make(0.0f, 0.0f, 0.0f));
                m.t = sw_quat_rotate(root_inv, sw_vec3_sub(jw, root.t));
            }
        }
        sw_pose_set(out, j, m);
    }
    /* Backward pass: local = parent^-1 * model for joints with a body. */
    for (uint32_t j = r->joints_count; j-- > 0;) {
        sw_xform local = sw_pose_get(anim, j);
        if (boj[j] >= 0) {
            sw_xform m = sw_pose_get(out, j);
            if (parents[j] < 0) {
                local.r = m.r;
                local.t = m.t;
            } else {
                sw_xform p = sw_pose_get(out, (uint32_t)parents[j]);
                local.r = sw_quat_normalize(sw_quat_mul(sw_quat_conjugate(p.r), m.r));
                if (boj[j] == 0) {
                    sw_vec3 d = sw_quat_rotate(sw_quat_conjugate(p.r), sw_vec3_sub(m.t, p.t));
                    local.t = sw_vec3_make(p.s.x != 0.0f ? d.x / p.s.x : 0.0f,
                                           p.s.y != 0.0f ? d.y / p.s.y : 0.0f,
                                           p.s.z != 0.0f ? d.z / p.s.z : 0.0f);
                }
            }
        }
        sw_pose_set(out, j, local);
    }
    for (uint32_t j = r->joints_count; j < r->packets_count * 4u; ++j)
        sw_pose_set(out, j, sw_xform_identity());
    return SW_RESULT_OK;
}

sw_result sw_ragdoll_joint_weights(const sw_ragdoll* r, float* out, uint32_t count) {
    if (!r || !out) return SW_RESULT_INVALID_ARGUMENT;
    if (count < r->packets_count * 4u) return SW_RESULT_BUFFER_TOO_SMALL;
    memcpy(out, sw__weights(r), (size_t)r->packets_count * 4u * sizeof(float));
    return SW_RESULT_OK;
}

sw_result sw_ragdoll_blend(const sw_ragdoll* r, const sw_xform4* anim, const sw_xform4* physics,
                           sw_xform4* out, uint32_t count) {
    if (!r) return SW_RESULT_INVALID_ARGUMENT;
    const sw_blend_layer layers[2] = {
        {.pose = anim, .weight = 1.0f, .joint_weights = sw__anim_weights(r)},
        {.pose = physics, .weight = 1.0f, .joint_weights = sw__weights(r)},
    };
    const sw_blend_job job = {
        .layers = layers,
        .layers_count = 2,
        .rest_pose = sw_skeleton_rest_pose(r->skeleton),
        .packets_count = r->packets_count,
        .out = out,
        .out_count = count,
    };
    return sw_blend_job_run(&job);
}

/* ---- get-up alignment ---- */

/* Horizontal part of v, and whether it is long enough (>= 0.2 |v|). */
static bool sw__horizontal(sw_vec3 v, sw_vec3* out) {
    *out = sw_vec3_make(v.x, 0.0f, v.z);
    float h = sw_vec3_length(*out), l = sw_vec3_length(v);
    return l > 0.0f && h >= 0.2f * l;
}

sw_result sw_ragdoll_align_root(const sw_ragdoll* r, const sw_xform4* clip_pose,
                                uint32_t pose_count, float ground, sw_xform* out, sw_error* err) {
    if (!r || !r->spawned || !clip_pose || !out || pose_count < r->packets_count ||
        !isfinite(ground))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1);
    for (uint32_t j = 0; j < r->joints_count; ++j) {
        if (!sw__finite_xform(sw_pose_get(clip_pose, j)))
            return sw__fail(err, SW_RESULT_BAD_DATA, "finite pose", 0, j);
    }
    const sw_ragdoll_desc* d = &r->desc;
    const uint32_t tb = r->trunk_body, fb = d->face_body;
    sw_xform c0 = sw__ragdoll_model_of(r->skeleton, clip_pose, d->bodies[0].joint);
    sw_xform ct = sw__ragdoll_model_of(r->skeleton, clip_pose, d->bodies[tb].joint);
    sw_vec3 p0 = sw__joint_point(r, 0, r->latest[0].transform, sw_vec3_make(0.0f, 0.0f, 0.0f));
    sw_vec3 pt = sw__joint_point(r, tb, r->latest[tb].transform, sw_vec3_make(0.0f, 0.0f, 0.0f));
    sw_vec3 dc, dr;
    bool ok = tb != 0 && sw__horizontal(sw_vec3_sub(ct.t, c0.t), &dc) &&
              sw__horizontal(sw_vec3_sub(pt, p0), &dr);
    if (!ok) {
        sw_xform cf = sw__ragdoll_model_of(r->skeleton, clip_pose, d->bodies[fb].joint);
        sw__horizontal(sw_quat_rotate(sw_quat_normalize(cf.r), r->face_local), &dc);
        sw__horizontal(sw_quat_rotate(r->latest[fb].transform.r, r->face_local), &dr);
    }
    /* Yaw turning dc onto dr about +Y. */
    float yaw = atan2f(dc.z * dr.x - dc.x * dr.z, dc.x * dr.x + dc.z * dr.z);
    sw_xform x;
    x.r = sw_quat_from_axis_angle(sw_vec3_make(0.0f, 1.0f, 0.0f), yaw);
    x.s = sw_vec3_make(1.0f, 1.0f, 1.0f);
    sw_vec3 c0w = sw_quat_rotate(x.r, c0.t);
    x.t = sw_vec3_make(p0.x - c0w.x, ground, p0.z - c0w.z);
    *out = x;
    return SW_RESULT_OK;
}

/* ---- stepper ---- */

uint32_t sw_ragdoll_stepper_advance(sw_ragdoll_stepper* s, float dt, float* alpha) {
    if (!s) {
        if (alpha) *alpha = 0.0f;
        return 0;
    }
    const float step = s->step > 0.0f && isfinite(s->step) ? s->step : SW_RAGDOLL_DEFAULT_STEP;
    const uint32_t max = s->max_steps ? s->max_steps : SW_RAGDOLL_DEFAULT_MAX_STEPS;
    if (!(dt > 0.0f) || !isfinite(dt)) dt = 0.0f;
    float acc = s->accumulator;
    if (!(acc >= 0.0f) || !isfinite(acc)) acc = 0.0f;
    acc += dt;
    uint32_t n = 0;
    while (acc >= step && n < max) {
        acc -= step;
        ++n;
    }
    if (acc >= step) acc = fmodf(acc, step); /* beyond max_steps: dropped */
    s->accumulator = acc;
    if (alpha) *alpha = acc / step;
    return n;
}
