/* Randomized idle: parameters driven toward random targets (see
 * sinew/animator/animator.h). PCG32 (XSH RR) random numbers, so a seed gives the same
 * sequence on every platform. */
#include <string.h>

#include "runtime/core/internal.h"
#include "sinew/animator/animator.h"

static uint32_t sw__pcg32(uint64_t* state) {
    uint64_t old = *state;
    *state = old * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

/* Uniform in [lo, hi] from 24 random bits. */
static float sw__rand_range(uint64_t* state, float lo, float hi) {
    float u = (float)(sw__pcg32(state) >> 8) / 16777215.0f;
    return lo + (hi - lo) * u;
}

sw_result sw_animator_idle_init(sw_animator_idle* idle, const sw_animator_idle_channel* channels,
                                uint32_t channels_count, uint64_t seed) {
    if (!idle || (!channels && channels_count > 0)) return SW_RESULT_INVALID_ARGUMENT;
    if (channels_count > SW_ANIMATOR_IDLE_MAX_CHANNELS) return SW_RESULT_LIMIT;
    for (uint32_t i = 0; i < channels_count; ++i) {
        const sw_animator_idle_channel* c = &channels[i];
        if (!isfinite(c->min) || !isfinite(c->max) || !isfinite(c->min_speed) ||
            !isfinite(c->max_speed) || !isfinite(c->min_hold) || !isfinite(c->max_hold) ||
            c->min > c->max || !(c->min_speed > 0.0f) || c->min_speed > c->max_speed ||
            c->min_hold < 0.0f || c->min_hold > c->max_hold) {
            return SW_RESULT_BAD_DATA;
        }
    }
    memset(idle, 0, sizeof *idle);
    idle->rng = 0;
    sw__pcg32(&idle->rng);
    idle->rng += seed;
    sw__pcg32(&idle->rng);
    idle->channels_count = channels_count;
    for (uint32_t i = 0; i < channels_count; ++i) {
        idle->channels[i] = channels[i];
        idle->hold[i] = 0.0f; /* draw at the first update */
        idle->speed[i] = 0.0f;
    }
    return SW_RESULT_OK;
}

sw_result sw_animator_idle_update(sw_animator_idle* idle, float* params, uint32_t params_count,
                                  float dt) {
    if (!idle || !params || !isfinite(dt) || dt < 0.0f ||
        idle->channels_count > SW_ANIMATOR_IDLE_MAX_CHANNELS) {
        return SW_RESULT_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < idle->channels_count; ++i) {
        if (idle->channels[i].param >= params_count) return SW_RESULT_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < idle->channels_count; ++i) {
        const sw_animator_idle_channel* c = &idle->channels[i];
        float* v = &params[c->param];
        float left = dt;
        /* A long dt may finish a hold and a move; at most a few steps. */
        for (int step = 0; step < 4 && left > 0.0f; ++step) {
            if (idle->hold[i] >= 0.0f) { /* holding (or not started) */
                if (idle->hold[i] > left) {
                    idle->hold[i] -= left;
                    left = 0.0f;
                    break;
                }
                left -= idle->hold[i];
                idle->target[i] = sw__rand_range(&idle->rng, c->min, c->max);
                idle->speed[i] = sw__rand_range(&idle->rng, c->min_speed, c->max_speed);
                idle->hold[i] = -1.0f;
            }
            float gap = idle->target[i] - *v;
            float reach = idle->speed[i] * left;
            if (fabsf(gap) > reach) {
                *v += gap > 0.0f ? reach : -reach;
                left = 0.0f;
            } else {
                left -= fabsf(gap) / idle->speed[i];
                *v = idle->target[i];
                idle->hold[i] = sw__rand_range(&idle->rng, c->min_hold, c->max_hold);
            }
        }
    }
    return SW_RESULT_OK;
}
