/* sinew/core/clip.h: animation clips (joint tracks, float curves, events).
 *
 * A clip is one contiguous, relocatable block like sw_skeleton: the sw_clip
 * header, then arrays addressed by byte offsets from the header. It belongs
 * to skeletons with the same joint count and is immutable and shareable.
 *
 * Each joint may have a translation, a rotation and a scale track. Every
 * track has its own keys: explicit strictly increasing times, or uniform keys
 * at start + k / rate. Interpolation follows glTF 2.0: step, linear (slerp on
 * the shortest arc for rotations) or cubic spline (Hermite, values stored per
 * key as in-tangent, value, out-tangent; rotations normalized after). Before
 * the first key a track holds its first value, after the last its last.
 * Joints without a track hold the skeleton's rest value, or identity in
 * additive clips. Float tracks are named curves; events are named instants.
 * Time runs in [0, duration]; looping belongs to whoever drives the clip.
 *
 * Sampling: sinew/core/sample.h. Building: sw_clip_init / sw_clip_create.
 */
#ifndef SINEW_CLIP_H
#define SINEW_CLIP_H

#include "sinew/core/math.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_CLIP_NO_TRACK 0xFFFFFFFFu
#define SW_CLIP_MAX_FLOAT_TRACKS 1024
#define SW_CLIP_MAX_EVENTS 65536
#define SW_CLIP_MAX_KEYS 16777216u /* per track */
#define SW_CLIP_MAX_NAME 255

typedef enum sw_track_kind {
    SW_TRACK_KIND_NONE = 0,
    SW_TRACK_KIND_TRANSLATION, /* 3 floats per value */
    SW_TRACK_KIND_ROTATION,    /* 4 floats per value, x y z w */
    SW_TRACK_KIND_SCALE,       /* 3 floats per value */
    SW_TRACK_KIND_FLOAT        /* 1 float per value, named */
} sw_track_kind;

typedef enum sw_interp {
    SW_INTERP_DEFAULT = 0, /* linear */
    SW_INTERP_STEP,
    SW_INTERP_LINEAR,
    SW_INTERP_CUBIC
} sw_interp;

typedef enum sw_clip_codec {
    SW_CLIP_CODEC_NONE = 0,
    SW_CLIP_CODEC_RAW,       /* float keys as given */
    SW_CLIP_CODEC_QUANTIZED, /* joint tracks quantized by the compressor (sinew/codecs/codec.h);
                                float tracks stay raw in the track array */
    SW_CLIP_CODEC_FRAMES     /* joint motion as SoA pose frames at a uniform rate
                                (sinew/codecs/codec.h, sinew/tools/builders/frames.h); float tracks raw
                              */
} sw_clip_codec;

#define SW_CLIP_FLAG_ADDITIVE 1u

/* Track record inside a clip block (32 bytes). */
typedef struct sw_clip_track {
    uint8_t kind;           /* sw_track_kind */
    uint8_t interp;         /* sw_interp, never DEFAULT in a block */
    uint8_t components;     /* 3, 4 or 1, from kind */
    uint8_t uniform;        /* 1: key k at start + k / rate; 0: explicit times */
    uint32_t target;        /* joint index; for float tracks, offset of the name */
    uint32_t keys_count;    /* >= 1 */
    float start;            /* uniform: time of key 0 (seconds) */
    float rate;             /* uniform: keys per second, finite > 0 (init stores 1 for a
                               single key given no usable rate); explicit: 0, as start */
    uint32_t times_offset;  /* explicit: float[keys_count]; 0 when uniform */
    uint32_t values_offset; /* float[keys_count * components * (cubic ? 3 : 1)] */
    uint32_t reserved;      /* zero */
} sw_clip_track;

typedef struct sw_clip_event {
    float time;           /* seconds in [0, duration] */
    uint32_t name_offset; /* NUL-terminated name */
} sw_clip_event;

/* Block header. Offsets are in bytes from the start of this struct. */
typedef struct sw_clip {
    uint32_t size;               /* bytes of the whole block */
    uint32_t codec;              /* sw_clip_codec */
    uint32_t flags;              /* SW_CLIP_FLAG_* */
    float duration;              /* seconds, finite, >= 0 */
    uint32_t joints_count;       /* must equal the skeleton's */
    uint32_t tracks_count;       /* joint tracks (by joint, then T, R, S), then float tracks */
    uint32_t float_tracks_count; /* the last float_tracks_count tracks */
    uint32_t events_count;       /* sorted by time */
    uint32_t name_offset;        /* NUL-terminated clip name (may be empty) */
    uint32_t
        joint_tracks_offset; /* uint32_t[joints_count * 3]: T, R, S track or SW_CLIP_NO_TRACK */
    uint32_t tracks_offset;  /* sw_clip_track[tracks_count], 4-byte aligned */
    uint32_t events_offset;  /* sw_clip_event[events_count] */
} sw_clip;

static inline const char* sw_clip_name(const sw_clip* c) {
    return (const char*)c + c->name_offset;
}
static inline const sw_clip_track* sw_clip_tracks(const sw_clip* c) {
    return (const sw_clip_track*)(const void*)((const char*)c + c->tracks_offset);
}
/* Track indices of joint j: [0] translation, [1] rotation, [2] scale. */
static inline const uint32_t* sw_clip_joint_tracks(const sw_clip* c, uint32_t j) {
    return (const uint32_t*)(const void*)((const char*)c + c->joint_tracks_offset) + 3u * j;
}
static inline const sw_clip_event* sw_clip_events(const sw_clip* c) {
    return (const sw_clip_event*)(const void*)((const char*)c + c->events_offset);
}
static inline const char* sw_clip_event_name(const sw_clip* c, uint32_t e) {
    return (const char*)c + sw_clip_events(c)[e].name_offset;
}
/* Name of float track f (0 <= f < float_tracks_count). */
static inline const char* sw_clip_float_track_name(const sw_clip* c, uint32_t f) {
    const sw_clip_track* t = &sw_clip_tracks(c)[c->tracks_count - c->float_tracks_count + f];
    return (const char*)c + t->target;
}
/* Explicit key times of track t (keys_count floats), or NULL when its keys
 * are uniform (start + k / rate). */
static inline const float* sw_clip_track_times(const sw_clip* c, const sw_clip_track* t) {
    return t->uniform ? NULL : (const float*)(const void*)((const char*)c + t->times_offset);
}
/* Time of key k of track t (no range check). */
static inline float sw_clip_track_key_time(const sw_clip* c, const sw_clip_track* t, uint32_t k) {
    if (t->uniform) return t->start + (float)k / t->rate;
    return sw_clip_track_times(c, t)[k];
}
static inline const float* sw_clip_track_values(const sw_clip* c, const sw_clip_track* t) {
    return (const float*)(const void*)((const char*)c + t->values_offset);
}

typedef struct sw_clip_track_desc {
    sw_track_kind kind;
    uint32_t joint;   /* translation, rotation, scale: the joint */
    const char* name; /* float tracks: the curve's name (unique per clip) */
    sw_interp interp; /* DEFAULT: linear */
    uint32_t keys_count;
    const float* times;  /* keys_count strictly increasing times in [0, duration], or NULL */
    float start;         /* times == NULL: time of key 0 */
    float rate;          /* times == NULL: keys per second (> 0 unless 1 key) */
    const float* values; /* keys_count * components floats (x3 for cubic: in, value, out) */
} sw_clip_track_desc;

typedef struct sw_clip_event_desc {
    float time;
    const char* name;
} sw_clip_event_desc;

typedef struct sw_clip_desc {
    const char* name; /* NULL: "" */
    float duration;   /* seconds */
    uint32_t joints_count;
    bool additive; /* untracked joints hold identity instead of the rest pose */
    const sw_clip_track_desc* tracks;
    uint32_t tracks_count;
    const sw_clip_event_desc* events; /* any order; stored sorted by time (stable) */
    uint32_t events_count;
} sw_clip_desc;

/* Bytes needed to build `desc`, or 0 when it is invalid. */
SINEW_API size_t sw_clip_measure(const sw_clip_desc* desc);

/* Builds a raw clip from `desc` in caller memory (16-byte aligned, at least
 * sw_clip_measure bytes); *out == mem. Values are copied as given, except
 * that joint track values (and tangents) smaller in magnitude than 2^-63 are
 * stored as zeros of their sign: exporters write such values for 0, and
 * arithmetic on their products underflows, which is slow on x86 (float
 * tracks are kept as given).
 * Fails: INVALID_ARGUMENT (NULL), MISALIGNED, BUFFER_TOO_SMALL; LIMIT (joints,
 * keys, float tracks, events, name length); BAD_DATA for a track on a joint
 * out of range or twice on one joint, an unknown kind or interpolation, zero
 * keys, times not strictly increasing or outside [0, duration] (uniform
 * keys: the last, start + (n - 1) / rate, may pass duration by
 * 1e-4 * max(duration, 1) for float rounding), a bad rate,
 * non-finite values, rotations (values, not tangents) not unit within 1e-3,
 * empty or duplicate float track names, empty event names, events outside
 * [0, duration]. INVALID_ARGUMENT also for NULL values or names.
 * err names the check and the track or event (desc index). */
SINEW_API sw_result sw_clip_init(void* mem, size_t size, const sw_clip_desc* desc,
                                 const sw_clip** out, sw_error* err);

/* measure + allocate + init; free with sw_clip_destroy and the same allocator. */
SINEW_API sw_result sw_clip_create(const sw_clip_desc* desc, const sw_allocator* alloc,
                                   const sw_clip** out, sw_error* err);
SINEW_API void sw_clip_destroy(const sw_clip* c, const sw_allocator* alloc);

/* Validates a clip block in place (16-byte aligned) and sets *out to it.
 * Checks everything sampling relies on: offsets and sizes in bounds, codec,
 * track kinds, interpolation, key counts, times, finite values, unit
 * rotations, joint indices, names, events sorted within [0, duration].
 * Fails: INVALID_ARGUMENT, MISALIGNED, TRUNCATED, LIMIT, BAD_DATA with err. */
SINEW_API sw_result sw_clip_load(const void* data, size_t size, const sw_clip** out, sw_error* err);

/* Index of the float track named `name`, or -1. */
SINEW_API int32_t sw_clip_find_float_track(const sw_clip* c, const char* name);

/* Value of float track f (0 <= f < float_tracks_count) at `time` (clamped
 * to [0, duration], NaN as 0): what sw_sample_job writes to floats[f], for
 * one track without sampling the pose (defined in sample.c). The clip must be
 * loaded (validated). 0 for NULL or f out of range. */
SINEW_API float sw_clip_sample_float(const sw_clip* c, uint32_t f, float time);

/* Writes into out (at most out_capacity) the indices of events with
 * from <= time < to, in time order. An event at exactly `duration` belongs
 * to the range that reaches the end: it is reported when
 * from < duration <= to, and not by later ranges starting at duration, so
 * consecutive ranges [a, b), [b, c), ... of forward playback (clamped at the
 * end or not) report each event once. Returns how many events are in the
 * range (may exceed out_capacity; out may be NULL to count); 0 when from > to
 * or either is NaN. Wrapping loops is the caller's job: call twice. */
SINEW_API uint32_t sw_clip_events_between(const sw_clip* c, float from, float to, uint32_t* out,
                                          uint32_t out_capacity);

/* The time in [0, duration] at which the clip plays `time` (seconds): with
 * `loop`, wrapped into [0, duration) (a clip of duration 0 plays 0);
 * otherwise clamped to [0, duration]. NaN gives 0. */
SINEW_API float sw_clip_play_time(const sw_clip* c, double time, bool loop);

#ifdef __cplusplus
}
#endif

#endif
