/* Foot contacts of the retarget bake: found on the source's motion
 * (sw_retarget_find_contacts) and planned as pins on the target's ground
 * (sw__rt_plan_contacts; retarget_map.h, sw_retarget_bake_options). */
#include <math.h>

#include "retarget_internal.h"

/* Speed of key k: the displacement across +-w keys over their time. */
static float sw__rt_speed(const sw_vec3* p, uint32_t count, uint32_t w, float rate, uint32_t k) {
    const uint32_t lo = k > w ? k - w : 0, hi = k + w < count ? k + w : count - 1;
    return sw_vec3_length(sw_vec3_sub(p[hi], p[lo])) * rate / (float)(hi - lo);
}

sw_result sw_retarget_find_contacts(const sw_vec3* positions, uint32_t count, float rate,
                                    float speed, float height, uint8_t* contact) {
    if (!positions || !contact || count == 0 || !(rate > 0.0f) || !isfinite(rate) ||
        !(speed > 0.0f) || !isfinite(speed) || !(height > 0.0f) || !isfinite(height))
        return SW_RESULT_INVALID_ARGUMENT;
    const double half = floor(0.5 * (double)SW_RETARGET_CONTACT_WINDOW * (double)rate + 0.5);
    const uint32_t w = half < 1.0 ? 1u : half > 1e6 ? 1000000u : (uint32_t)half;
    float low = INFINITY; /* the lowest height among the slow keys */
    for (uint32_t k = 0; k < count && count > 1; ++k)
        if (sw__rt_speed(positions, count, w, rate, k) < speed && positions[k].y < low)
            low = positions[k].y;
    bool on = false;
    for (uint32_t k = 0; k < count; ++k) {
        const float v = count > 1 ? sw__rt_speed(positions, count, w, rate, k) : INFINITY;
        const float y = positions[k].y - low;
        on =
            on ? v < SW_RETARGET_CONTACT_RELEASE * speed && y < SW_RETARGET_CONTACT_RELEASE * height
               : v < speed && y < height;
        contact[k] = on;
    }
    return SW_RESULT_OK;
}

void sw__rt_widen_contacts(const sw_vec3* p, uint32_t keys, float touch, uint8_t* on,
                           const uint8_t* other) {
    for (uint32_t k = 1; k < keys; ++k)
        if (on[k] == 1 && !on[k - 1])
            for (uint32_t j = k; j-- > 0 && !on[j] && p[j].y < p[k].y + touch;)
                on[j] = 2;
    for (uint32_t k = keys - 1; k-- > 0;)
        if (on[k] == 1 && !on[k + 1])
            for (uint32_t j = k + 1; j < keys && !on[j] && !other[j] && p[j].y < p[k].y + touch;
                 ++j)
                on[j] = 2;
    for (uint32_t k = 0; k < keys; ++k)
        on[k] = on[k] != 0;
}

/* v turned by yaw radians about +Y. */
static sw_vec3 sw__rt_yaw(sw_vec3 v, float yaw) {
    const float c = cosf(yaw), s = sinf(yaw);
    return sw_vec3_make(c * v.x + s * v.z, v.y, -s * v.x + c * v.z);
}

/* The yaw (about +Y) taking the horizontal direction of a to that of b. */
static float sw__rt_yaw_between(sw_vec3 a, sw_vec3 b) {
    return atan2f(a.z * b.x - a.x * b.z, a.x * b.x + a.z * b.z);
}

/* The foot vector of length len in v's horizontal direction, dy high. */
static sw_vec3 sw__rt_pitched(sw_vec3 v, float dy, float len) {
    const float h = hypotf(v.x, v.z), flat = sqrtf(fmaxf(len * len - dy * dy, 0.0f));
    if (!(h > 0.0f)) return sw_vec3_make(0.0f, dy, flat);
    return sw_vec3_make(v.x / h * flat, dy, v.z / h * flat);
}

/* One foot's pins while in contact (sw__rt_plan_contacts, pass 1). */
typedef struct sw__rt_pins {
    bool heel, ball; /* in contact at the last key */
    sw_vec3 h, b;    /* heel (ankle) and ball pins, on their standing heights */
    float yaw;       /* the foot's yaw from its animated one */
    sw_vec3 dir;     /* the foot (ankle to ball) at the last key */
} sw__rt_pins;

/* Key k in contact: the pins taken (where the foot is, free plus `carry`)
 * or held, the ankle's offset from its free position and the foot's turn. */
static void sw__rt_pin_key(const sw__rt_contact_plan* in, uint32_t k, sw_vec3 carry, sw__rt_pins* p,
                           sw_vec3* offset, sw_quat* turn) {
    const bool heel = in->heel_on[k] != 0, ball = in->ball && in->ball_on[k] != 0;
    const sw_vec3 a = in->ankle[k];
    const sw_vec3 f = in->ball ? sw_vec3_sub(in->ball[k], a) : sw_vec3_make(0, 0, 0);
    const float dh = in->ball_y - in->ankle_y;
    const sw_vec3 fy = sw__rt_yaw(f, p->yaw);
    if (heel && !p->heel)
        p->h = p->ball && ball ? sw_vec3_sub(p->b, sw__rt_pitched(fy, dh, in->length))
                               : sw_vec3_add(a, carry);
    if (ball && !p->ball)
        p->b = heel ? sw_vec3_add(p->h, sw__rt_pitched(fy, dh, in->length))
                    : sw_vec3_add(sw_vec3_add(a, carry), fy);
    p->h.y = in->ankle_y, p->b.y = in->ball_y;
    if (!p->heel && !p->ball) p->dir = fy;
    sw_vec3 d = fy, out = p->h;
    if (heel && ball) {
        d = sw_vec3_sub(p->b, p->h);
        p->yaw = sw__rt_yaw_between(f, d);
    } else {
        /* the other joint kept above its standing height */
        if (heel ? d.y < dh : d.y > dh) d = sw__rt_pitched(fy, dh, in->length);
        /* the foot turns about the pinned joint as animated once the other
         * is lifted `touch` (fully at twice that), else keeps its direction */
        const float u = fminf(fmaxf((heel ? d.y - dh : dh - d.y) / in->touch - 1.0f, 0.0f), 1.0f);
        const float t = (1.0f - u) * sw__rt_yaw_between(d, p->dir);
        d = sw__rt_yaw(d, t);
        p->yaw += t;
        if (!heel) out = sw_vec3_sub(p->b, d);
    }
    p->dir = d;
    p->heel = heel, p->ball = ball;
    offset[k] = sw_vec3_sub(out, a);
    const sw_quat yaw = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), p->yaw);
    turn[k] = in->ball
                  ? sw_quat_normalize(sw_quat_mul(sw_quat_from_to(sw__rt_yaw(f, p->yaw), d), yaw))
                  : sw_quat_identity();
}

static float sw__rt_smooth(float x) {
    x = fminf(fmaxf(x, 0.0f), 1.0f);
    return x * x * (3.0f - 2.0f * x);
}

/* The weight of the height in a fade of weight w: the first half of a
 * fade out lifts the foot, the second moves it (a fade in the reverse). */
static float sw__rt_lift_weight(float w) {
    return sw__rt_smooth(2.0f * w - 1.0f);
}

/* The weight across the ground in a fade of weight w (1 while w >= 1/2). */
static float sw__rt_move_weight(float w) {
    return sw__rt_smooth(2.0f * w);
}

/* The free position p drawn towards the held one h in a fade of weight w. */
static sw_vec3 sw__rt_draw(sw_vec3 p, sw_vec3 h, float w) {
    const float v = sw__rt_lift_weight(w), u = sw__rt_move_weight(w);
    return sw_vec3_make(p.x + (h.x - p.x) * u, p.y + (h.y - p.y) * v, p.z + (h.z - p.z) * u);
}

/* The offset and turn at free key k, in a fade of weight w towards contact
 * key c: the ball (`ball`) or the ankle drawn towards where it is at c, the
 * foot's direction turned towards c's (its yaw as the position across the
 * ground, its pitch as the height). */
static void sw__rt_held(const sw__rt_contact_plan* in, uint32_t c, uint32_t k, float w, bool ball,
                        sw_vec3* offset, sw_quat* turn) {
    const sw_vec3 held = sw_vec3_add(in->ankle[c], offset[c]);
    if (!in->ball) {
        offset[k] = sw_vec3_sub(sw__rt_draw(in->ankle[k], held, w), in->ankle[k]);
        turn[k] = sw_quat_identity();
        return;
    }
    const sw_vec3 dc = sw_quat_rotate(turn[c], sw_vec3_sub(in->ball[c], in->ankle[c]));
    const sw_vec3 fk = sw_vec3_sub(in->ball[k], in->ankle[k]);
    const float t = sw__rt_move_weight(w) * sw__rt_yaw_between(fk, dc);
    const sw_vec3 fy = sw__rt_yaw(fk, t);
    const sw_vec3 d =
        sw__rt_pitched(fy, fk.y + (dc.y - fk.y) * sw__rt_lift_weight(w), sw_vec3_length(fk));
    turn[k] = sw_quat_normalize(
        sw_quat_mul(sw_quat_from_to(fy, d), sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), t)));
    if (!ball) {
        offset[k] = sw_vec3_sub(sw__rt_draw(in->ankle[k], held, w), in->ankle[k]);
        return;
    }
    const sw_vec3 b = sw__rt_draw(in->ball[k], sw_vec3_add(held, dc), w);
    offset[k] = sw_vec3_sub(sw_vec3_sub(b, d), in->ankle[k]);
}

/* Lifts the ankle at key k where it or the ball would be less than
 * `clear` above its standing height. */
static void sw__rt_clear(const sw__rt_contact_plan* in, uint32_t k, float clear, sw_vec3* offset,
                         const sw_quat* turn) {
    const sw_vec3 a = sw_vec3_add(in->ankle[k], offset[k]);
    float lift = in->ankle_y + clear - a.y;
    if (in->ball) {
        const sw_vec3 d = sw_quat_rotate(turn[k], sw_vec3_sub(in->ball[k], in->ankle[k]));
        lift = fmaxf(lift, in->ball_y + clear - (a.y + d.y));
    }
    if (lift > 0.0f) offset[k].y += lift;
}

/* Pass 2: the free keys g0..g1 between contact keys g0 - 1 and g1 + 1
 * (either may be out of the clip). A clip that begins or ends within a fade
 * of a contact holds it; else the foot is drawn from its free position
 * towards where it was at the contact before (fading out) and where it will
 * be at the one after (fading in), each fade at most half the gap; the
 * foot is kept `touch` above the ground as far as a fade has lifted it. */
static void sw__rt_gap(const sw__rt_contact_plan* in, uint32_t g0, uint32_t g1, sw_vec3* offset,
                       sw_quat* turn) {
    const bool before = g0 > 0, after = g1 + 1 < in->keys;
    const float n = (float)(g1 - g0 + 2);
    const float fade = fminf((float)in->fade + 1.0f, before && after ? 0.5f * n : INFINITY);
    /* each fade turns about the joint lower over its standing height where
     * the fade ends (the ball as a foot lifts off or lands on its toes) */
    const uint32_t reach = (uint32_t)fade - 1u;
    const uint32_t ends[2] = {g0 + reach > g1 ? g1 : g0 + reach,
                              g1 >= g0 + reach ? g1 - reach : g0};
    bool ball[2] = {false, false};
    for (int i = 0; i < 2 && in->ball; ++i)
        ball[i] = in->ball[ends[i]].y - in->ball_y < in->ankle[ends[i]].y - in->ankle_y;
    for (uint32_t k = g0; k <= g1; ++k) {
        const float from = (float)(k - g0 + 1), to = (float)(g1 + 1 - k);
        if (!(before && after) && n <= (float)in->fade + 1.0f) {
            const uint32_t c = before ? g0 - 1 : g1 + 1;
            offset[k] = sw_vec3_sub(sw_vec3_add(in->ankle[c], offset[c]), in->ankle[k]);
            turn[k] = turn[c];
            continue;
        }
        offset[k] = sw_vec3_make(0, 0, 0);
        turn[k] = sw_quat_identity();
        const float wo = before ? sw__rt_smooth(1.0f - from / fade) : 0.0f;
        const float wi = after ? sw__rt_smooth(1.0f - to / fade) : 0.0f;
        if (wo > 0.0f) sw__rt_held(in, g0 - 1, k, wo, ball[0], offset, turn);
        if (wi > 0.0f) sw__rt_held(in, g1 + 1, k, wi, ball[1], offset, turn);
        sw__rt_clear(in, k, in->touch * (1.0f - sw__rt_lift_weight(fmaxf(wo, wi))), offset, turn);
    }
}

static bool sw__rt_in_contact(const sw__rt_contact_plan* in, uint32_t k) {
    return in->heel_on[k] || (in->ball && in->ball_on[k]);
}

void sw__rt_plan_contacts(const sw__rt_contact_plan* in, sw_vec3* offset, sw_quat* turn) {
    sw__rt_pins p = {.heel = false, .ball = false, .yaw = 0.0f};
    const sw_vec3 zero = sw_vec3_make(0, 0, 0);
    for (uint32_t k = 0; k < in->keys; ++k) {
        if (sw__rt_in_contact(in, k)) {
            sw__rt_pin_key(in, k, k > 0 ? offset[k - 1] : zero, &p, offset, turn);
            continue;
        }
        uint32_t g1 = k;
        while (g1 + 1 < in->keys && !sw__rt_in_contact(in, g1 + 1))
            ++g1;
        /* the contact after the gap first: after a short gap (a foot lifted
         * within two fades) its pins are taken with the offset before it */
        const bool next = g1 + 1 < in->keys;
        const bool brief = k > 0 && next && g1 + 1 - k <= 2u * in->fade + 1u;
        p.heel = p.ball = false;
        if (!brief) p.yaw = 0.0f;
        if (next) sw__rt_pin_key(in, g1 + 1, brief ? offset[k - 1] : zero, &p, offset, turn);
        sw__rt_gap(in, k, g1, offset, turn);
        k = next ? g1 + 1 : g1;
    }
}
