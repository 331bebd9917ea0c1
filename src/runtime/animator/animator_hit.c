/* Directional hits: a hit's world direction and strength written into the
 * parameters a definition names (sinew/animator/animator.h, "Hits"). */
#include "animator_internal.h"

static bool sw__hit_finite(sw_vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

sw_result sw_animator_apply_hit(const sw_animator* a, sw_quat facing, const sw_animator_hit* hit,
                                float* params, uint32_t params_count) {
    if (!a || !hit || (!params && a->params_count > 0)) return SW_RESULT_INVALID_ARGUMENT;
    if (params_count < a->params_count) return SW_RESULT_BUFFER_TOO_SMALL;
    const bool facing_ok =
        isfinite(facing.x) && isfinite(facing.y) && isfinite(facing.z) && isfinite(facing.w);
    if (!facing_ok || !sw__hit_finite(hit->direction) || !isfinite(hit->strength) ||
        hit->strength < 0.0f) {
        return SW_RESULT_BAD_DATA;
    }
    const uint32_t* p = a->hit_params;
    if (p[0] == SW_ANIMATOR_NONE && p[1] == SW_ANIMATOR_NONE && p[2] == SW_ANIMATOR_NONE &&
        p[3] == SW_ANIMATOR_NONE) {
        return SW_RESULT_NOT_FOUND;
    }
    /* Where the hit comes from, in the character's frame, on its ground plane. */
    const sw_vec3 from =
        sw_quat_rotate(sw_quat_conjugate(facing), sw_vec3_scale(hit->direction, -1.0f));
    const double len = sqrt((double)from.x * from.x + (double)from.z * from.z);
    const float x = len > 0.0 ? (float)(from.x / len) : 0.0f;
    const float y = len > 0.0 ? (float)(from.z / len) : 1.0f;
    const float values[4] = {hit->strength * x, hit->strength * y, hit->strength, 1.0f};
    for (uint32_t k = 0; k < 4u; ++k) {
        if (p[k] != SW_ANIMATOR_NONE) params[p[k]] = values[k];
    }
    return SW_RESULT_OK;
}
