/* Hit effects: camera shake, field-of-view pulse, hit pause, pose shake. */
#include <math.h>

#include "runtime/core/internal.h"
#include "sinew/procedural/hit.h"

#define SW__TWO_PI 6.283185307179586

/* ---- seeded smooth noise ---- */

/* A number in [0, 1) from (seed, channel, sine, what). */
static double sw__unit(uint32_t seed, uint32_t channel, uint32_t sine, uint32_t what) {
    uint32_t h =
        sw__hash32(channel * 0x9e3779b9u + sine * 0x85ebca6bu + what * 0xc2b2ae35u + 0x27d4eb2fu);
    h = sw__hash32(h ^ sw__hash32(seed + 0x165667b1u));
    return (double)(h >> 8) * (1.0 / 16777216.0);
}

/* Smooth noise in [-1, 1]: three sines, weights summing to 1, frequencies
 * near 1, 2.13 and 3.71 times `frequency` (jittered by the seed by up to
 * 15%), seeded phases. */
static float sw__noise(uint32_t seed, uint32_t channel, float frequency, float t) {
    static const double weight[3] = {0.5, 0.3, 0.2};
    static const double multiple[3] = {1.0, 2.13, 3.71};
    double sum = 0.0;
    for (uint32_t k = 0; k < 3u; ++k) {
        const double f = frequency * multiple[k] * (0.85 + 0.3 * sw__unit(seed, channel, k, 0u));
        double cycles = f * (double)t + sw__unit(seed, channel, k, 1u);
        cycles -= floor(cycles);
        sum += weight[k] * sin(SW__TWO_PI * cycles);
    }
    if (sum > 1.0) sum = 1.0;
    if (sum < -1.0) sum = -1.0;
    return (float)sum;
}

/* ---- envelopes ---- */

static float sw__nonneg(float x) {
    return x > 0.0f ? x : 0.0f; /* NaN and negatives: 0 */
}

static float sw__smoothstep(float x) {
    x = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    return x * x * (3.0f - 2.0f * x);
}

/* Attack / hold / release envelope at t; 0 outside [0, a + h + r]. */
static float sw__envelope(float t, float attack, float hold, float release) {
    if (!isfinite(t) || t < 0.0f) return 0.0f;
    attack = sw__nonneg(attack);
    hold = sw__nonneg(hold);
    release = sw__nonneg(release);
    if (t < attack) return sw__smoothstep(t / attack);
    t -= attack;
    if (t <= hold) return 1.0f;
    t -= hold;
    if (t < release) return sw__smoothstep(1.0f - t / release);
    return 0.0f;
}

/* ---- camera shake ---- */

float sw_shake_duration(const sw_shake_desc* desc) {
    if (!desc) return 0.0f;
    return sw__nonneg(desc->fade_in) + sw__nonneg(desc->hold) + sw__nonneg(desc->fade_out);
}

float sw_shake_envelope(const sw_shake_desc* desc, float t) {
    if (!desc) return 0.0f;
    return sw__envelope(t, desc->fade_in, desc->hold, desc->fade_out);
}

static float sw__frequency(float f) {
    return f > 0.0f && isfinite(f) ? f : SW_SHAKE_DEFAULT_FREQUENCY;
}

sw_shake_sample sw_shake_eval(const sw_shake_desc* desc, float t) {
    sw_shake_sample s = {{0, 0, 0}, {0, 0, 0}, 0.0f, 0.0f, sw_xform_identity()};
    const float e = sw_shake_envelope(desc, t);
    if (!(e > 0.0f)) return s;
    const float fp = sw__frequency(desc->position_frequency);
    const float fr = sw__frequency(desc->rotation_frequency);
    const float ff = sw__frequency(desc->fov_frequency);
    const uint32_t seed = desc->seed;
    s.envelope = e;
    s.position = sw_vec3_make(e * desc->position_amplitude.x * sw__noise(seed, 0u, fp, t),
                              e * desc->position_amplitude.y * sw__noise(seed, 1u, fp, t),
                              e * desc->position_amplitude.z * sw__noise(seed, 2u, fp, t));
    s.rotation = sw_vec3_make(e * desc->rotation_amplitude.x * sw__noise(seed, 3u, fr, t),
                              e * desc->rotation_amplitude.y * sw__noise(seed, 4u, fr, t),
                              e * desc->rotation_amplitude.z * sw__noise(seed, 5u, fr, t));
    s.fov = e * desc->fov_amplitude * sw__noise(seed, 6u, ff, t);
    s.offset.t = s.position;
    s.offset.r = sw_quat_from_euler(s.rotation, SW_EULER_ORDER_ZYX);
    return s;
}

sw_xform sw_shake_apply(sw_xform camera, const sw_shake_sample* sample) {
    if (!sample) return camera;
    return sw_xform_mul(camera, sample->offset);
}

/* ---- field-of-view pulse ---- */

float sw_fov_pulse_envelope(const sw_fov_pulse_desc* desc, float t) {
    if (!desc) return 0.0f;
    return sw__envelope(t, desc->attack, desc->hold, desc->release);
}

float sw_fov_pulse_eval(const sw_fov_pulse_desc* desc, float t) {
    const float e = sw_fov_pulse_envelope(desc, t);
    return e > 0.0f ? -desc->amount * e : 0.0f;
}

/* ---- hit pause ---- */

void sw_hit_pause_start(sw_hit_pause* p, float duration, float scale) {
    if (!p || !(duration > 0.0f) || isnan(scale)) return;
    scale = scale < 0.0f ? 0.0f : scale > 1.0f ? 1.0f : scale;
    if (p->remaining > 0.0f) {
        p->remaining = fmaxf(p->remaining, duration);
        p->scale = fminf(p->scale, scale);
    } else {
        p->remaining = duration;
        p->scale = scale;
    }
}

float sw_hit_pause_scale_dt(sw_hit_pause* p, float dt) {
    if (!(dt > 0.0f)) return 0.0f;
    if (!p || !(p->remaining > 0.0f)) return dt;
    const float inside = fminf(dt, p->remaining);
    p->remaining -= inside;
    if (!(p->remaining > 0.0f)) p->remaining = 0.0f;
    return inside * p->scale + (dt - inside);
}

bool sw_hit_pause_active(const sw_hit_pause* p) {
    return p && p->remaining > 0.0f;
}

/* ---- pose shake ---- */

static bool sw__finite_nonneg(float x) {
    return x >= 0.0f && isfinite(x);
}

sw_result sw_pose_shake_job_validate(const sw_pose_shake_job* job) {
    if (!job || !job->joints || !job->pose || job->joints_count == 0)
        return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__finite_nonneg(job->amplitude) || !sw__finite_nonneg(job->frequency) ||
        !sw__finite_nonneg(job->half_life) || isnan(job->time))
        return SW_RESULT_INVALID_ARGUMENT;
    const uint64_t lanes = (uint64_t)job->pose_count * 4u;
    for (uint32_t i = 0; i < job->joints_count; ++i)
        if ((uint64_t)job->joints[i] >= lanes) return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__aligned16(job->pose)) return SW_RESULT_MISALIGNED;
    if (sw__overlaps(job->pose, (size_t)job->pose_count * sizeof(sw_xform4), job->joints,
                     (size_t)job->joints_count * sizeof(uint32_t)))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}

sw_result sw_pose_shake_job_run(const sw_pose_shake_job* job) {
    sw_result r = sw_pose_shake_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    if (!(job->time >= 0.0f) || isinf(job->time)) return SW_RESULT_OK;
    float a = job->amplitude;
    if (job->half_life > 0.0f) a *= exp2f(-job->time / job->half_life);
    if (!(a > 0.0f)) return SW_RESULT_OK;
    const float f = sw__frequency(job->frequency);
    const float k = a / sqrtf(3.0f); /* each component <= a / sqrt(3), so |v| <= a */
    for (uint32_t i = 0; i < job->joints_count; ++i) {
        const uint32_t j = job->joints[i];
        const uint32_t ch = 16u + 3u * j;
        const sw_vec3 v = sw_vec3_make(k * sw__noise(job->seed, ch, f, job->time),
                                       k * sw__noise(job->seed, ch + 1u, f, job->time),
                                       k * sw__noise(job->seed, ch + 2u, f, job->time));
        const float angle = sw_vec3_length(v);
        sw_xform x = sw_pose_get(job->pose, j);
        x.r = sw_quat_normalize(sw_quat_mul(sw_quat_from_axis_angle(v, angle), x.r));
        sw_pose_set(job->pose, j, x);
    }
    return SW_RESULT_OK;
}
