/* sinew/procedural/hit.h: hit effects: camera shake, field-of-view pulse, hit pause, pose shake.
 *
 * Small procedural touches that sell an impact. Each one is a pure function
 * of the time since the hit (or, for the pause, a tiny state the caller
 * keeps), so it looks the same at any frame rate and replays identically.
 *
 * - Camera shake (sw_shake_desc, sw_shake_eval): smooth noise on the camera's
 *   position, rotation and field of view, each with its own amplitude and
 *   frequency, under a fade-in / hold / fade-out envelope. The noise is a sum
 *   of three sines per channel whose phases and exact frequencies come from
 *   a seed: deterministic per seed, different between seeds, and never
 *   beyond the set amplitude. The result is an offset in the camera's own
 *   space, added on top of wherever the game puts the camera:
 *   camera' = camera * offset, fov' = fov + sample.fov.
 * - Field-of-view pulse (sw_fov_pulse_desc): a narrowing with an attack /
 *   hold / release envelope (smoothstep edges, so it is continuous).
 * - Hit pause (sw_hit_pause): a time scale (0 freezes) that lasts a given
 *   real time; callers pass every frame's dt through it. A frame that
 *   straddles the end of the pause is split exactly.
 * - Pose shake (sw_pose_shake_job): a small additive rotation on chosen
 *   joints, decaying by half-life, for a flinch on top of the animation.
 *
 * Conventions: seconds, radians, metres; the camera looks down its -Z axis
 * with +Y up (glTF); rotation offsets are about the camera's X (pitch), Y
 * (yaw) and Z (roll) axes. No memory, no globals; reentrant.
 */
#ifndef SINEW_HIT_H
#define SINEW_HIT_H

#include "sinew/core/math.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_SHAKE_DEFAULT_FREQUENCY 8.0f /* Hz */

/* ---- camera shake ---- */

/* Zero amplitudes switch a channel off; zero frequencies mean
 * SW_SHAKE_DEFAULT_FREQUENCY. Negative times count as 0; `hold` may be
 * +inf for a shake that lasts until the caller stops evaluating it. */
typedef struct sw_shake_desc {
    sw_vec3 position_amplitude; /* metres along the camera's X, Y, Z */
    float position_frequency;   /* Hz */
    sw_vec3 rotation_amplitude; /* radians about the camera's X, Y, Z */
    float rotation_frequency;   /* Hz */
    float fov_amplitude;        /* radians */
    float fov_frequency;        /* Hz */
    float fade_in;              /* seconds from 0 to full amplitude */
    float hold;                 /* seconds at full amplitude */
    float fade_out;             /* seconds from full amplitude to 0 */
    uint32_t seed;              /* noise seed; 0 is a seed like any other */
} sw_shake_desc;

/* One evaluation of a shake. */
typedef struct sw_shake_sample {
    sw_vec3 position; /* camera space, |component| <= its amplitude */
    sw_vec3 rotation; /* radians about camera X, Y, Z, |component| <= its amplitude */
    float fov;        /* radians to add to the field of view, |fov| <= fov_amplitude */
    float envelope;   /* [0, 1], the fade that scaled all of the above */
    sw_xform offset;  /* position and rotation (q = qz * qy * qx) as a transform */
} sw_shake_sample;

/* fade_in + hold + fade_out (each negative one counted as 0): the active
 * window is [0, duration]. */
SINEW_API float sw_shake_duration(const sw_shake_desc* desc);

/* The envelope at time t since the start: 0 before 0 and after the window, a
 * smoothstep rise over fade_in, 1 during hold, a smoothstep fall over
 * fade_out. A zero fade starts (or ends) at full amplitude. NULL desc or
 * non-finite t: 0. */
SINEW_API float sw_shake_envelope(const sw_shake_desc* desc, float t);

/* The shake at time t since its start (zero sample, identity offset, outside
 * the active window or for a NULL desc or non-finite t). Pure function of
 * (desc, t): deterministic, frame-rate independent. */
SINEW_API sw_shake_sample sw_shake_eval(const sw_shake_desc* desc, float t);

/* The camera with the shake on top: camera * sample->offset (the offset is
 * in the camera's own space). */
SINEW_API sw_xform sw_shake_apply(sw_xform camera, const sw_shake_sample* sample);

/* ---- field-of-view pulse ---- */

typedef struct sw_fov_pulse_desc {
    float amount;  /* radians the field of view narrows by at the peak (>= 0 narrows) */
    float attack;  /* seconds to the peak (smoothstep) */
    float hold;    /* seconds at the peak */
    float release; /* seconds back to 0 (smoothstep) */
} sw_fov_pulse_desc;

/* Envelope in [0, 1] at time t since the pulse started: 0 outside
 * [0, attack + hold + release], continuous (and with zero slope at its
 * corners) when attack and release are > 0. NULL or non-finite t: 0. */
SINEW_API float sw_fov_pulse_envelope(const sw_fov_pulse_desc* desc, float t);
/* Radians to add to the field of view: -amount * envelope. */
SINEW_API float sw_fov_pulse_eval(const sw_fov_pulse_desc* desc, float t);

/* ---- hit pause ---- */

/* Zero-initialised: no pause. */
typedef struct sw_hit_pause {
    float remaining; /* seconds of real time left */
    float scale;     /* time scale while paused, [0, 1]; 0 freezes */
} sw_hit_pause;

/* Starts a pause of `duration` real seconds at time scale `scale` (clamped to
 * [0, 1]). If one is running, the longer remaining time and the smaller
 * scale are kept, so overlapping hits never shorten a pause. Non-positive
 * or NaN durations are ignored. */
SINEW_API void sw_hit_pause_start(sw_hit_pause* p, float duration, float scale);

/* The game dt for a real frame of dt seconds: the part of the frame inside
 * the pause runs at `scale`, the rest at 1, and the pause's remaining time
 * goes down by the real time spent in it. Splitting a stretch of real time
 * into frames any way gives the same total (up to float rounding).
 * dt <= 0 or NaN returns 0 and leaves the pause unchanged. */
SINEW_API float sw_hit_pause_scale_dt(sw_hit_pause* p, float dt);

/* True while a pause is running. */
SINEW_API bool sw_hit_pause_active(const sw_hit_pause* p);

/* ---- pose shake ---- */

/* Turns each listed joint's local rotation by a small rotation from smooth
 * seeded noise (independent per joint): rotation vector v with
 * |v| <= amplitude * 2^(-time / half_life), local' = exp(v) * local (v in
 * the parent's space). time < 0 leaves the pose unchanged. Deterministic in
 * (seed, time, joint). */
typedef struct sw_pose_shake_job {
    const uint32_t* joints;
    uint32_t joints_count;
    float amplitude; /* radians at time 0, >= 0 */
    float frequency; /* Hz; 0 = SW_SHAKE_DEFAULT_FREQUENCY */
    float half_life; /* seconds for the amplitude to halve; 0 = no decay */
    float time;      /* seconds since the hit */
    uint32_t seed;
    sw_xform4* pose;     /* local pose, read and written in place */
    uint32_t pose_count; /* packets; joints must be < 4 * pose_count */
} sw_pose_shake_job;

/* Fails: INVALID_ARGUMENT (NULL joints or pose; no joints; a joint index not
 * below 4 * pose_count; amplitude, frequency or half_life negative or not
 * finite; time NaN); MISALIGNED (pose); OVERLAP (joints inside the pose). */
SINEW_API sw_result sw_pose_shake_job_validate(const sw_pose_shake_job* job);
/* Validates, then turns the joints. On failure nothing is written. */
SINEW_API sw_result sw_pose_shake_job_run(const sw_pose_shake_job* job);

#ifdef __cplusplus
}
#endif

#endif
