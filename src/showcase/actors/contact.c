/* The foot contact model of the walking and idling humanoids (actor.h,
 * issue #15): contacts read from the animated pose (heel = ankle joint, ball
 * = its first child), planted points held in the world, the leg bent to
 * them with two-bone IK. */
#include "showcase/actor.h"

#define SW__CT_ON 0.012f  /* m above the joint's first height: contact begins */
#define SW__CT_OFF 0.016f /* m: contact ends (above the observer's 1 cm) */
#define SW__CT_FADE 0.1f  /* s: the offset from the animation fades out once free */
/* A held foot farther than SW__CT_REACH from where the animation puts it
 * (a turn in place, a stop) steps there, as does one freed farther than
 * SW__CT_STEP_MIN from it: SW__CT_STEP_TIME s (and SW__CT_STEP_PACE s per
 * m), its ankle at least SW__CT_STEP_HIGH m over where it began at the
 * middle of the step, moving across only between SW__CT_STEP_AT and
 * 1 - SW__CT_STEP_AT of it (so it rises first and lands last); a held foot
 * also steps once farther than SW__CT_STEP_MIN with its leg stretched past
 * SW__CT_STRETCH of its length (the raised sole would pull it off its pin) */
#define SW__CT_REACH 0.15f
#define SW__CT_STRETCH 0.99f
#define SW__CT_STEP_MIN 0.02f
#define SW__CT_STEP_TIME 0.2f
#define SW__CT_STEP_PACE 0.4f
#define SW__CT_STEP_HIGH 0.05f
#define SW__CT_STEP_AT 0.15f
/* m over which the surface of a foot (a hand) is eased onto the ground
 * (sw__sc_surface_lift): a hand's over more, so it slows before the floor */
#define SW__CT_SOLE_EASE 0.005f
#define SW__CT_HAND_EASE 0.06f
#define SW__CT_HAND_PASSES 4u /* raises of a hand per update at most */

/* The first child of joint j, or -1. */
static int32_t sw__ct_child(const sw_skeleton* s, int32_t j) {
    const int16_t* parents = sw_skeleton_parents(s);
    for (uint32_t k = 0; k < s->joints_count; ++k)
        if (parents[k] == j) return (int32_t)k;
    return -1;
}

void sw__sc_contacts_init(sw__sc_contacts* c, const sw__sc_human* h, const sw_skeleton* s) {
    memset(c, 0, sizeof *c);
    const int32_t hip[2] = {h->l_upleg, h->r_upleg}, knee[2] = {h->l_leg, h->r_leg};
    const int32_t ankle[2] = {h->l_foot, h->r_foot};
    for (uint32_t f = 0; f < 2; ++f) {
        sw__sc_contact* k = &c->feet[f];
        k->hip = hip[f], k->knee = knee[f], k->ankle = ankle[f];
        k->ball = ankle[f] >= 0 ? sw__ct_child(s, ankle[f]) : -1;
        k->detached = knee[f] >= 0 && ankle[f] >= 0 && !sw__sc_is_ancestor(s, knee[f], ankle[f]);
        k->heel_ref = k->ball_ref = INFINITY;
        k->roll = sw_quat_identity();
    }
}

/* Contact with hysteresis for a joint at height y; *ref: its height at the
 * first run (the feet flat on the ground). */
static bool sw__ct_touch(float y, float* ref, bool on) {
    if (!isfinite(*ref)) *ref = y;
    return on ? y <= *ref + SW__CT_OFF : y <= *ref + SW__CT_ON;
}

/* Horizontal angle (about +Y) taking direction a to direction b. */
static float sw__ct_yaw(sw_vec3 a, sw_vec3 b) {
    return atan2f(a.z * b.x - a.x * b.z, a.x * b.x + a.z * b.z);
}

static sw_vec3 sw__ct_turn(sw_vec3 v, float yaw) {
    const float c = cosf(yaw), s = sinf(yaw);
    return sw_vec3_make(c * v.x + s * v.z, v.y, -s * v.x + c * v.z);
}

/* With heel and ball down, the turn (about a horizontal axis) that keeps
 * the ball on its pin: the foot vector `foot` (ankle to ball, already
 * turned by the yaw) pitched so its horizontal length is that of `pins`
 * (ball pin minus heel pin) while the animation tilts the foot; none where
 * that would lower the ball under half its flat height. */
static sw_quat sw__ct_roll(sw_vec3 foot, sw_vec3 pins, float over, float ref) {
    const float len = sw_vec3_length(foot), h = hypotf(pins.x, pins.z);
    if (!(h < len) || !(h > 0.0f)) return sw_quat_identity();
    const float dy = copysignf(sqrtf(len * len - h * h), foot.y);
    /* never lowering the ball under half its flat height (its height over the ground
     * `over`, flat: `ref`) */
    if (dy < foot.y && over + dy - foot.y < 0.5f * ref) return sw_quat_identity();
    return sw_quat_from_to(foot, sw_vec3_make(pins.x, dy, pins.z));
}

/* Begins a step of foot k from its offset and yaw to the animation's. */
static void sw__ct_step_begin(sw__sc_contact* k, float over) {
    k->step = 0.0f;
    k->step_over = over;
    k->step_time = SW__CT_STEP_TIME + SW__CT_STEP_PACE * hypotf(k->offset.x, k->offset.z);
    k->step_from = k->offset;
    k->step_yaw = k->yaw;
    k->step_down = false;
    k->heel_on = k->ball_on = false;
}

/* One frame of foot k's step (a: the animated ankle, world): its offset
 * and yaw eased out while it is high, its ankle raised onto the step's arc
 * over where it began; landing where the animation slides its foot along
 * the ground, it comes straight down where it is. False once it has landed
 * (*landed set). */
static bool sw__ct_step(sw__sc_contact* k, sw_vec3 a, float dt, bool* landed) {
    const float over = a.y - sw__sc_ground(a.x, a.z, NULL);
    k->step += dt;
    const float s = fminf(k->step / k->step_time, 1.0f);
    const float u = fminf(fmaxf((s - SW__CT_STEP_AT) / (1.0f - 2.0f * SW__CT_STEP_AT), 0.0f), 1.0f);
    const float keep = 1.0f - u * u * (3.0f - 2.0f * u);
    if (s > 1.0f - SW__CT_STEP_AT && over <= k->heel_ref + SW__CT_OFF) {
        if (!k->step_down) k->step_land = sw_vec3_add(a, k->offset), k->step_down = true;
        k->offset = sw_vec3_make(k->step_land.x - a.x, 0.0f, k->step_land.z - a.z);
    } else {
        k->offset = sw_vec3_scale(k->step_from, keep);
    }
    k->yaw = k->step_yaw * keep;
    k->roll = sw_quat_slerp(sw_quat_identity(), k->roll, fmaxf(0.0f, 1.0f - dt / SW__CT_FADE));
    k->weight = 1.0f;
    k->lift = fmaxf(0.0f, k->step_over + SW__CT_STEP_HIGH * sinf(3.14159265f * s) - over);
    if (s < 1.0f) return true;
    k->step_time = 0.0f;
    *landed = true;
    return false;
}

/* Foot f's horizontal offset from the animation and its yaw, from its
 * contacts this frame (a: animated ankle, b: animated ball, world); a
 * foot freed far from the animation steps to it. */
static void sw__ct_plan(sw__sc_contact* k, sw_vec3 a, sw_vec3 b, bool has_ball, float dt) {
    k->lift = 0.0f;
    bool landed = false;
    if (k->step_time > 0.0f && sw__ct_step(k, a, dt, &landed)) return;
    /* heights over the ground under each joint (a foot on a bump or the step is down too) */
    const bool heel = sw__ct_touch(a.y - sw__sc_ground(a.x, a.z, NULL), &k->heel_ref, k->heel_on);
    const bool ball =
        has_ball && sw__ct_touch(b.y - sw__sc_ground(b.x, b.z, NULL), &k->ball_ref, k->ball_on);
    /* where the foot is held now: a contact that begins while the other holds is pinned
     * where the held one puts it (so the pins stay a foot's length apart) */
    const sw_vec3 turned = sw__ct_turn(sw_vec3_sub(b, a), k->yaw); /* animated foot, yawed */
    const sw_vec3 foot = sw_quat_rotate(k->roll, turned);
    sw_vec3 out_a = sw_vec3_add(a, k->offset);
    if (k->heel_on)
        out_a = sw_vec3_make(k->heel_pin.x, out_a.y, k->heel_pin.z);
    else if (k->ball_on)
        out_a = sw_vec3_make(k->ball_pin.x - foot.x, out_a.y, k->ball_pin.z - foot.z);
    const sw_vec3 out_b = sw_vec3_add(out_a, foot);
    if (heel && !k->heel_on) k->heel_pin = out_a;
    if (ball && !k->ball_on) k->ball_pin = out_b;
    k->heel_on = heel, k->ball_on = ball;
    sw_vec3 target = out_a;
    sw_quat roll = sw_quat_slerp(sw_quat_identity(), k->roll, fmaxf(0.0f, 1.0f - dt / SW__CT_FADE));
    if (heel) {
        target = k->heel_pin;
        if (ball) {
            const sw_vec3 pins = sw_vec3_sub(k->ball_pin, k->heel_pin);
            k->yaw = sw__ct_yaw(sw_vec3_sub(b, a), pins);
            roll = sw__ct_roll(sw__ct_turn(sw_vec3_sub(b, a), k->yaw), pins,
                               b.y - sw__sc_ground(b.x, b.z, NULL), k->ball_ref);
        }
    } else if (ball) {
        /* the ankle where the foot, turned by the yaw and the roll still fading out, puts the
         * ball on its pin */
        target = sw_vec3_sub(k->ball_pin, sw_quat_rotate(roll, turned));
    }
    k->roll = roll;
    if (heel || ball) {
        k->offset = sw_vec3_make(target.x - a.x, 0.0f, target.z - a.z);
        k->weight = 1.0f;
    } else if (!landed && hypotf(k->offset.x, k->offset.z) > SW__CT_STEP_MIN) {
        sw__ct_step_begin(k, a.y - sw__sc_ground(a.x, a.z, NULL));
    } else {
        const float keep = fmaxf(0.0f, 1.0f - dt / SW__CT_FADE);
        k->offset = sw_vec3_scale(k->offset, keep);
        k->yaw *= keep;
        k->weight *= keep;
    }
}

/* Whether held foot k should step (the other foot not stepping): farther
 * than SW__CT_REACH across from the animated ankle, or farther than
 * SW__CT_STEP_MIN with its ankle (raised as the frame before) past
 * SW__CT_STRETCH of its leg's length from the hip (a: the animated pose,
 * model matrices current). */
static bool sw__ct_far(const sw__sc_contact* k, const sw__sc_contact* other, const sw__sc_actor* a,
                       sw_vec3 ankle) {
    if (!(k->heel_on || k->ball_on) || other->step_time > 0.0f) return false;
    const float across = hypotf(k->offset.x, k->offset.z);
    if (across > SW__CT_REACH) return true;
    /* (a detached foot's leg is turned to follow it) */
    if (k->detached || !(across > SW__CT_STEP_MIN)) return false;
    const sw_vec3 hip = sw__sc_pos(&a->model[k->hip]), knee = sw__sc_pos(&a->model[k->knee]);
    const float leg =
        sw_vec3_length(sw_vec3_sub(knee, hip)) + sw_vec3_length(sw_vec3_sub(ankle, knee));
    const sw_vec3 to = sw_vec3_add(ankle, sw_vec3_make(k->offset.x, k->raise, k->offset.z));
    return sw_vec3_length(sw_vec3_sub(to, hip)) > SW__CT_STRETCH * leg;
}

/* The foot's world rotation: animated, turned by the yaw about +Y, then rolled. */
static sw_quat sw__ct_foot_rotation(const sw__sc_contact* k, sw_quat ankle_rot) {
    const sw_quat yaw = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), k->yaw);
    return sw_quat_normalize(sw_quat_mul(k->roll, sw_quat_mul(yaw, ankle_rot)));
}

/* A detached foot's knee bent (in the leg's plane, within its reach) so
 * the leg's end, at `end` and turning with the lower leg, is as far from
 * the hip as `target`; returns where the end is then (model matrices
 * current, then updated). A straight leg has no plane: left as it is. */
static sw_vec3 sw__ct_bend(const sw__sc_contact* k, sw__sc_actor* a, sw_vec3 end, sw_vec3 target) {
    const sw_vec3 hip = sw__sc_pos(&a->model[k->hip]), knee = sw__sc_pos(&a->model[k->knee]);
    const sw_vec3 up = sw_vec3_sub(hip, knee), down = sw_vec3_sub(end, knee);
    const float l1 = sw_vec3_length(up), l2 = sw_vec3_length(down);
    const sw_vec3 axis = sw_vec3_cross(down, up);
    if (!(sw_vec3_length(axis) > 1e-4f * l1 * l2)) return end;
    const float d = fminf(fmaxf(sw_vec3_length(sw_vec3_sub(target, hip)), fabsf(l1 - l2)), l1 + l2);
    const float now = acosf(fminf(fmaxf(sw_vec3_dot(up, down) / (l1 * l2), -1.0f), 1.0f));
    const float want =
        acosf(fminf(fmaxf((l1 * l1 + l2 * l2 - d * d) / (2.0f * l1 * l2), -1.0f), 1.0f));
    const sw_quat q = sw_quat_from_axis_angle(axis, now - want);
    sw__sc_view_set_rotation(a, (uint32_t)k->knee,
                             sw_quat_mul(q, sw__sc_rotation(&a->model[k->knee])));
    sw__sc_view_models(a);
    return sw_vec3_add(knee, sw_quat_rotate(q, down));
}

/* A foot that is not below its knee (RobotExpressive's feet hang from the
 * armature's root; the clips hold the legs on them): the foot joint moved
 * to the animated ankle plus its offset and turned by its yaw, the knee
 * bent and the upper leg turned about the hip so the leg's end (where the
 * foot was) follows the foot there, as two-bone IK would. */
static void sw__ct_apply_detached(const sw__sc_contact* k, sw__sc_actor* a, sw_vec3 ankle,
                                  sw_quat ankle_rot) {
    const sw_vec3 target = sw_vec3_add(ankle, k->offset);
    const sw_vec3 at = sw__sc_pos(&a->model[k->ankle]); /* where the leg's end is now */
    const int16_t up = sw_skeleton_parents(a->skel)[k->ankle];
    sw_xform parent;
    sw_mat4_decompose(up >= 0 ? &a->model[up] : &a->world, &parent);
    sw_xform x = sw_pose_get(a->local, (uint32_t)k->ankle);
    x.t = sw_xform_point(sw_xform_inverse(parent), target);
    sw_pose_set(a->local, (uint32_t)k->ankle, x);
    sw__sc_view_set_rotation(a, (uint32_t)k->ankle, sw__ct_foot_rotation(k, ankle_rot));
    const sw_vec3 from = sw__ct_bend(k, a, at, target);
    const sw_vec3 hip = sw__sc_pos(&a->model[k->hip]);
    const sw_quat turn = sw_quat_from_to(sw_vec3_sub(from, hip), sw_vec3_sub(target, hip));
    sw__sc_view_set_rotation(a, (uint32_t)k->hip,
                             sw_quat_mul(turn, sw__sc_rotation(&a->model[k->hip])));
    sw__sc_view_models(a);
}

/* Bends foot k's leg to the animated ankle plus its offset and turns the
 * foot by its yaw. Fails: the IK job's result. */
static sw_result sw__ct_apply(const sw__sc_contact* k, sw__sc_actor* a, sw_vec3 ankle,
                              sw_quat ankle_rot) {
    const sw_result r =
        sw__sc_view_two_bone(a, k->hip, k->knee, k->ankle, sw_vec3_add(ankle, k->offset));
    if (r != SW_RESULT_OK) return r;
    /* the foot keeps its animated world orientation, turned by yaw about +Y */
    sw__sc_view_set_rotation(a, (uint32_t)k->ankle, sw__ct_foot_rotation(k, ankle_rot));
    sw__sc_view_models(a);
    return SW_RESULT_OK;
}

/* Foot k placed for the animated ankle position and world rotation given. */
static sw_result sw__ct_place(const sw__sc_contact* k, sw__sc_actor* a, sw_vec3 ankle,
                              sw_quat ankle_rot) {
    if (!k->detached) return sw__ct_apply(k, a, ankle, ankle_rot);
    sw__ct_apply_detached(k, a, ankle, ankle_rot);
    return SW_RESULT_OK;
}

/* A foot whose surface is still under the ground once raised (its leg
 * straight): the foot pitched about the ankle, lifting its lowest point
 * onto the ground (model matrices current, then updated). */
static void sw__ct_pitch(const sw__sc_contact* k, sw__sc_actor* a) {
    sw_vec3 p;
    const float gap = sw__sc_skin_low(a, k->ankle, &p);
    if (!(gap < 0.0f)) return;
    const sw_vec3 o = sw__sc_pos(&a->model[k->ankle]);
    const sw_vec3 d = sw_vec3_make(p.x - o.x, 0.0f, p.z - o.z);
    const float r = sw_vec3_length(d);
    if (!(r > -gap)) return; /* under the ankle: no pitch lifts it */
    const sw_vec3 axis = sw_vec3_scale(sw_vec3_cross(d, sw_vec3_make(0, 1, 0)), 1.0f / r);
    const sw_quat q = sw_quat_from_axis_angle(axis, asinf(-gap / r));
    sw__sc_view_set_rotation(a, (uint32_t)k->ankle,
                             sw_quat_mul(q, sw__sc_rotation(&a->model[k->ankle])));
    sw__sc_view_models(a);
}

sw_result sw__sc_contacts_run(sw__sc_contacts* c, sw__sc_actor* a, bool off, float dt) {
    for (uint32_t f = 0; f < 2; ++f) {
        sw__sc_contact* k = &c->feet[f];
        if (k->hip < 0 || k->knee < 0 || k->ankle < 0) continue;
        const sw_vec3 ankle = sw__sc_pos(&a->model[k->ankle]);
        const sw_vec3 ball = k->ball >= 0 ? sw__sc_pos(&a->model[k->ball]) : ankle;
        if (off) {
            *k = (sw__sc_contact){.hip = k->hip,
                                  .knee = k->knee,
                                  .ankle = k->ankle,
                                  .ball = k->ball,
                                  .detached = k->detached,
                                  .heel_ref = k->heel_ref,
                                  .ball_ref = k->ball_ref,
                                  .roll = sw_quat_identity()};
            continue;
        }
        sw__ct_plan(k, ankle, ball, k->ball >= 0, dt);
        if (sw__ct_far(k, &c->feet[1u - f], a, ankle))
            sw__ct_step_begin(k, ankle.y - sw__sc_ground(ankle.x, ankle.z, NULL));
        const sw_quat rot = sw__sc_rotation(&a->model[k->ankle]);
        const sw_vec3 to = sw_vec3_add(ankle, sw_vec3_make(0.0f, k->lift, 0.0f));
        sw_result r = k->weight > 0.0f ? sw__ct_place(k, a, to, rot) : SW_RESULT_OK;
        /* the sole on the ground: the surface of the lower leg and foot raised where the
         * animation dips it under, the leg bent to the raised ankle, the foot turned as
         * before (held or free: a held foot far from the animation steps, so the raise
         * never drags it), then pitched where the leg could not reach */
        if (r == SW_RESULT_OK) {
            const float low = k->detached
                                  ? fminf(sw__sc_skin_gap(a, k->knee), sw__sc_skin_gap(a, k->ankle))
                                  : sw__sc_skin_gap(a, k->knee);
            const float lift = sw__sc_surface_lift(low, SW__CT_SOLE_EASE);
            k->raise = lift;
            if (lift > 0.0f)
                r = sw__ct_place(k, a, sw_vec3_add(to, sw_vec3_make(0.0f, lift, 0.0f)), rot);
            if (r == SW_RESULT_OK) sw__ct_pitch(k, a);
        }
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}

sw_result sw__sc_arms_above_ground(const sw__sc_human* h, sw__sc_actor* a) {
    const int32_t arms[2][3] = {{h->l_arm, h->l_forearm, h->l_hand},
                                {h->r_arm, h->r_forearm, h->r_hand}};
    for (uint32_t i = 0; i < 2; ++i) {
        const int32_t* arm = arms[i];
        if (!sw__sc_is_ancestor(a->skel, arm[0], arm[1]) ||
            !sw__sc_is_ancestor(a->skel, arm[1], arm[2]))
            continue;
        /* bending the elbow turns the forearm, which can swing the fingers lower */
        const sw_result r =
            sw__sc_lift_limb(a, arm, arm[0], arm[1], SW__CT_HAND_EASE, SW__CT_HAND_PASSES);
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}
