/* Steering a character (sinew/animator/animator.h): the locomotion
 * parameters a definition declares and the span of values it gives a
 * parameter, a steering input written into them, and root motion placing
 * the character on the ground. */
#include "animator_internal.h"

/* Widens [*lo, *hi] to hold v. */
static void sw__span_add(float v, float* lo, float* hi) {
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
}

/* Widens [*lo, *hi] by the positions of the blend space members along
 * parameter `param`; returns whether a blend space reads it. */
static bool sw__member_span(const sw_animator* a, uint32_t param, float* lo, float* hi) {
    bool found = false;
    const sw__anim_bspace* bs = sw__anim_bspaces(a);
    const sw__anim_member* members = sw__anim_members(a);
    for (uint32_t b = 0; b < a->bspaces_count; ++b) {
        const bool x = bs[b].param_x == param, y = bs[b].param_y == param;
        for (uint32_t m = 0; (x || y) && m < bs[b].members_count; ++m) {
            const sw__anim_member* mb = &members[bs[b].first_member + m];
            if (x) sw__span_add(mb->x, lo, hi);
            if (y) sw__span_add(mb->y, lo, hi);
            found = true;
        }
    }
    return found;
}

bool sw_animator_param_range(const sw_animator* a, uint32_t param, float* lo, float* hi) {
    if (!a || !lo || !hi || param >= a->params_count) return false;
    const sw__anim_param* p = &sw__anim_params(a)[param];
    if (p->type == SW_ANIMATOR_PARAM_TYPE_BOOL || p->type == SW_ANIMATOR_PARAM_TYPE_TRIGGER) {
        *lo = 0.0f;
        *hi = 1.0f;
        return true;
    }
    float l = p->value, h = p->value;
    bool found = sw__member_span(a, param, &l, &h);
    const sw__anim_cond* conds = sw__anim_conds(a);
    for (uint32_t c = 0; c < a->conditions_count; ++c) {
        if (conds[c].param != param) continue;
        sw__span_add(conds[c].value, &l, &h);
        found = true;
    }
    if (!found) {
        sw__span_add(0.0f, &l, &h);
        sw__span_add(1.0f, &l, &h);
    } else if (l == h) {
        l -= 1.0f;
        h += 1.0f;
    }
    *lo = l;
    *hi = h;
    return true;
}

int32_t sw_animator_move_param(const sw_animator* a, uint32_t which) {
    if (!a || which >= 3u || a->move_params[which] == 0u) return -1;
    return (int32_t)(a->move_params[which] - 1u);
}

uint32_t sw_animator_apply_move(const sw_animator* a, const sw_animator_move* move, float* params,
                                uint32_t params_count) {
    if (!a || !move || !params || params_count < a->params_count) return 0;
    const float values[3] = {move->speed, move->strafe, move->turn};
    for (uint32_t k = 0; k < 3u; ++k)
        if (!isfinite(values[k])) return 0;
    uint32_t n = 0;
    for (uint32_t k = 0; k < 3u; ++k) {
        const int32_t p = sw_animator_move_param(a, k);
        if (p < 0) continue;
        /* Within the clips a blend space has along it; as given otherwise. */
        float lo = INFINITY, hi = -INFINITY, v = values[k];
        if (sw__member_span(a, (uint32_t)p, &lo, &hi)) v = v < lo ? lo : (v > hi ? hi : v);
        params[p] = v;
        ++n;
    }
    return n;
}

void sw_animator_root_motion_apply(const sw_animator_root_motion* rm, sw_vec3* position,
                                   float* heading) {
    if (!rm || !position || !heading) return;
    const sw_quat yaw = sw_quat_from_axis_angle(sw_vec3_make(0.0f, 1.0f, 0.0f), *heading);
    const sw_vec3 d = sw_quat_rotate(yaw, rm->translation);
    position->x += d.x;
    position->z += d.z;
    *heading += rm->yaw;
}
