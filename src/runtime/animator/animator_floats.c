/* Float curves as the animator plays them (morph weights and user curves):
 * the clips' float tracks mixed by the weights the pose uses (see
 * sinew/animator/animator.h). */
#include <string.h>

#include "animator_internal.h"

#define SW__CURVE_CONTRIBUTIONS 256u

/* The sum over the contributions of one layer; *any when a clip has the track. */
static float sw__curve_layer(const sw_animator_bound* bound, const sw__anim_layer* layer,
                             uint32_t l, const sw_animator_contribution* c, uint32_t n,
                             const char* name, bool* any) {
    const bool additive = l > 0 && layer->mode == SW_ANIMATOR_LAYER_MODE_ADDITIVE;
    float sum = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        if (c[i].layer != l) continue;
        const sw_clip* clip = sw_animator_bound_clip(bound, c[i].clip);
        const int32_t f = clip ? sw_clip_find_float_track(clip, name) : -1;
        if (f < 0) continue;
        *any = true;
        float v = sw_clip_sample_float(clip, (uint32_t)f, c[i].time);
        if (additive && !(clip->flags & SW_CLIP_FLAG_ADDITIVE) &&
            layer->reference != SW_ANIMATOR_REFERENCE_REST_POSE)
            v -= sw_clip_sample_float(clip, (uint32_t)f, 0.0f);
        sum += c[i].weight * v;
    }
    return sum;
}

float sw_animator_float_curve(const sw_animator_instance* inst, const sw_animator_bound* bound,
                              const char* name, bool* found) {
    if (found) *found = false;
    if (!inst || !bound || !name) return 0.0f;
    sw_animator_contribution c[SW__CURVE_CONTRIBUTIONS];
    uint32_t n = sw_animator_contributions(inst, bound, c, SW__CURVE_CONTRIBUTIONS);
    if (n > SW__CURVE_CONTRIBUTIONS) n = SW__CURVE_CONTRIBUTIONS;
    const sw_animator* def = sw_animator_bound_definition(bound);
    const sw__anim_layer* layers = sw__anim_layers(def);
    float value = 0.0f;
    bool any_layer = false;
    for (uint32_t l = 0; l < def->layers_count; ++l) {
        bool any = false;
        const float v = sw__curve_layer(bound, &layers[l], l, c, n, name, &any);
        if (!any) continue;
        any_layer = true;
        const float w = sw_animator_layer_weight(inst, bound, l);
        if (l == 0)
            value = v;
        else if (layers[l].mode == SW_ANIMATOR_LAYER_MODE_ADDITIVE)
            value += w * v;
        else
            value = value * (1.0f - w) + v * w;
    }
    if (found) *found = any_layer;
    return value;
}

uint32_t sw_animator_morph_weights(const sw_animator_instance* inst, const sw_animator_bound* bound,
                                   const sw_mesh* mesh, float* weights, uint32_t count) {
    if (!inst || !bound || !mesh || !weights) return 0;
    uint32_t found = 0;
    char buf[SW__MORPH_NAME_CAP];
    for (uint32_t k = 0; k < count; ++k) {
        weights[k] = 0.0f;
        if (k >= mesh->morph_targets_count) continue;
        bool has = false;
        for (int prefix = 0; prefix < 2 && !has; ++prefix)
            if (sw__morph_track_name(mesh, k, prefix != 0, buf, sizeof buf))
                weights[k] = sw_animator_float_curve(inst, bound, buf, &has);
        found += has;
    }
    return found;
}
