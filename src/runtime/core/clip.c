/* Clips: building the block from a desc, validating blocks (built here or
 * read from a file), float track and event lookups.
 *
 * Block layout (offsets from the header, whole block a multiple of 16):
 *     sw_clip header (48 bytes)
 *     joint track table  uint32_t[joints_count * 3]
 *     tracks             sw_clip_track[tracks_count]    16-byte aligned
 *     events             sw_clip_event[events_count]    sorted by time
 *     per track, in track order: times (explicit tracks), then values, each
 *                        16-byte aligned
 *     strings            clip name, float track names, event names
 *
 * Track order: joint tracks by joint, then translation, rotation, scale;
 * float tracks last, in desc order. Explicit-time tracks store start = 0 and
 * rate = 0; uniform tracks store a rate > 0 (1 when a single key was given
 * no usable rate).
 *
 * The key checks (times, values, unit rotations) and the event checks are
 * one routine each, used for desc and block alike; init runs the whole block
 * check on what it wrote, and load runs it on untrusted bytes. */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "runtime/codecs/codec_frames.h"
#include "runtime/codecs/codec_quantized.h"

#define SW__CLIP_HEADER ((uint32_t)sizeof(sw_clip))
#define SW__CLIP_MAX_TRACKS (3u * SW_SKELETON_MAX_JOINTS + SW_CLIP_MAX_FLOAT_TRACKS)

static size_t sw__clip_bounded_len(const char* s, size_t cap) {
    const void* z = memchr(s, 0, cap);
    return z ? (size_t)((const char*)z - s) : cap;
}

static uint32_t sw__components(uint32_t kind) {
    switch (kind) {
    case SW_TRACK_KIND_TRANSLATION:
    case SW_TRACK_KIND_SCALE:
        return 3u;
    case SW_TRACK_KIND_ROTATION:
        return 4u;
    case SW_TRACK_KIND_FLOAT:
        return 1u;
    default:
        return 0u;
    }
}

static uint64_t sw__values_count(uint32_t keys, uint32_t comps, uint32_t interp) {
    return (uint64_t)keys * comps * (interp == SW_INTERP_CUBIC ? 3u : 1u);
}

/* ---- shared checks ------------------------------------------------------- */

typedef struct sw__keys {
    const float* times; /* NULL: uniform */
    float start, rate;
    uint32_t keys_count;
    const float* values;
    uint32_t components;
    uint32_t interp;
    bool rotation;
} sw__keys;

typedef struct sw__key_fault {
    const char* check;
    uint32_t key; /* key index (times) or float index (values) */
    bool in_values;
} sw__key_fault;

/* Checks the keys of one track against `duration`: times finite, strictly
 * increasing, within [0, duration] (uniform tracks: the last key may pass
 * duration by 1e-4 * max(duration, 1), float rounding of start + k / rate);
 * values finite; rotation values (the middle of in, value, out for cubic)
 * unit within 1e-3. Returns false and fills *f on the first fault. */
static bool sw__check_keys(const sw__keys* k, float duration, sw__key_fault* f) {
    float limit = duration;
    if (!k->times) limit = duration + 1e-4f * (duration > 1.0f ? duration : 1.0f);
    float prev = 0.0f;
    for (uint32_t i = 0; i < k->keys_count; ++i) {
        float t = k->times ? k->times[i] : k->start + (float)i / k->rate;
        f->key = i;
        f->in_values = false;
        if (!isfinite(t)) {
            f->check = "key times finite";
            return false;
        }
        if (t < 0.0f || t > limit) {
            f->check = "key times in range";
            return false;
        }
        if (i > 0 && !(t > prev)) {
            f->check = "key times increasing";
            return false;
        }
        prev = t;
    }
    uint64_t n = sw__values_count(k->keys_count, k->components, k->interp);
    f->in_values = true;
    for (uint64_t i = 0; i < n; ++i) {
        if (!isfinite(k->values[i])) {
            f->key = (uint32_t)i;
            f->check = "key values finite";
            return false;
        }
    }
    if (k->rotation) {
        uint32_t stride = k->interp == SW_INTERP_CUBIC ? 12u : 4u;
        uint32_t first = k->interp == SW_INTERP_CUBIC ? 4u : 0u;
        for (uint32_t i = 0; i < k->keys_count; ++i) {
            const float* q = k->values + (size_t)i * stride + first;
            double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                              (double)q[3] * q[3]);
            if (!(fabs(len - 1.0) <= 1e-3)) {
                f->key = (uint32_t)(q - k->values);
                f->check = "rotation keys unit";
                return false;
            }
        }
    }
    return true;
}

/* Checks one event: time within [0, duration], name not empty (the length
 * is checked where the name is found). */
static const char* sw__check_event(float time, const char* name, float duration) {
    if (!isfinite(time) || time < 0.0f || time > duration) return "event time in range";
    if (name[0] == '\0') return "event name not empty";
    return NULL;
}

/* ---- desc ------------------------------------------------------------------ */

typedef struct sw__name_list {
    const char* const* names;
} sw__name_list;

static const char* sw__name_list_get(const void* ctx, uint32_t i) {
    return ((const sw__name_list*)ctx)->names[i];
}

/* Track i of a desc: kind, interpolation, keys, its name (float tracks,
 * appended to float_names[*floats]) or its joint slot (marked in used);
 * its bytes added to *total and *strings. */
static sw_result sw__clip_check_track_desc(const sw_clip_desc* d, uint32_t i, uint8_t* used,
                                           const char** float_names, uint32_t* floats,
                                           uint64_t* total, uint64_t* strings, sw_error* err) {
    const sw_clip_track_desc* t = &d->tracks[i];
    const int64_t ti = (int64_t)i;
    uint32_t comps = sw__components((uint32_t)t->kind);
    if (comps == 0) return sw__fail(err, SW_RESULT_BAD_DATA, "track kind", 0, ti);
    if ((uint32_t)t->interp > (uint32_t)SW_INTERP_CUBIC) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "track interpolation", 0, ti);
    }
    if (t->keys_count == 0) return sw__fail(err, SW_RESULT_BAD_DATA, "keys count >= 1", 0, ti);
    if (t->keys_count > SW_CLIP_MAX_KEYS) {
        return sw__fail(err, SW_RESULT_LIMIT, "keys count", 0, ti);
    }
    if (!t->values) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "track values not NULL", 0, ti);
    }
    if (t->kind == SW_TRACK_KIND_FLOAT) {
        if (!t->name) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "float track name not NULL", 0, ti);
        }
        size_t len = sw__clip_bounded_len(t->name, SW_CLIP_MAX_NAME + 1u);
        if (len > SW_CLIP_MAX_NAME) {
            return sw__fail(err, SW_RESULT_LIMIT, "float track name length", 0, ti);
        }
        if (len == 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "float track name not empty", 0, ti);
        }
        if (*floats == SW_CLIP_MAX_FLOAT_TRACKS) {
            return sw__fail(err, SW_RESULT_LIMIT, "float tracks count", 0, ti);
        }
        float_names[(*floats)++] = t->name;
        *strings += len + 1u;
    } else {
        if (t->joint >= d->joints_count) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "track joint in range", 0, ti);
        }
        uint32_t slot = 3u * t->joint + (uint32_t)t->kind - 1u;
        if (used[slot >> 3] & (1u << (slot & 7u))) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "one track per joint and kind", 0, ti);
        }
        used[slot >> 3] = (uint8_t)(used[slot >> 3] | (1u << (slot & 7u)));
    }
    sw__keys k = {t->times,
                  t->start,
                  t->rate,
                  t->keys_count,
                  t->values,
                  comps,
                  t->interp == SW_INTERP_DEFAULT ? (uint32_t)SW_INTERP_LINEAR : (uint32_t)t->interp,
                  t->kind == SW_TRACK_KIND_ROTATION};
    if (!t->times) {
        if (t->keys_count > 1 && !(isfinite(t->rate) && t->rate > 0.0f)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "uniform rate > 0", 0, ti);
        }
        if (t->keys_count == 1) k.rate = 1.0f;
        if (!isfinite(t->start)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "key times finite", 0, ti);
        }
    }
    sw__key_fault f;
    if (!sw__check_keys(&k, d->duration, &f)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, f.check, 0, ti);
    }
    if (t->times) *total += sw__align16(4u * (uint64_t)t->keys_count);
    *total += sw__align16(4u * sw__values_count(t->keys_count, comps, k.interp));
    return SW_RESULT_OK;
}

/* Checks a desc; on success *size is the block size. */
static sw_result sw__clip_check_desc(const sw_clip_desc* d, uint32_t* size, sw_error* err) {
    if (!d) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "desc not NULL", 0, -1);
    if (d->joints_count == 0 || d->joints_count > SW_SKELETON_MAX_JOINTS) {
        return sw__fail(err, SW_RESULT_LIMIT, "joints count", 0, -1);
    }
    if (!isfinite(d->duration) || d->duration < 0.0f) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "duration finite >= 0", 0, -1);
    }
    size_t name_len = d->name ? sw__clip_bounded_len(d->name, SW_CLIP_MAX_NAME + 1u) : 0u;
    if (name_len > SW_CLIP_MAX_NAME) {
        return sw__fail(err, SW_RESULT_LIMIT, "clip name length", 0, -1);
    }
    if (!d->tracks && d->tracks_count > 0) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "tracks not NULL", 0, -1);
    }
    if (d->tracks_count > SW__CLIP_MAX_TRACKS) {
        return sw__fail(err, SW_RESULT_LIMIT, "tracks count", 0, -1);
    }
    if (!d->events && d->events_count > 0) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "events not NULL", 0, -1);
    }
    if (d->events_count > SW_CLIP_MAX_EVENTS) {
        return sw__fail(err, SW_RESULT_LIMIT, "events count", 0, -1);
    }

    uint64_t total = sw__align16((uint64_t)SW__CLIP_HEADER + 12u * (uint64_t)d->joints_count);
    total += 32u * (uint64_t)d->tracks_count + 8u * (uint64_t)d->events_count;
    total = sw__align16(total);
    uint64_t strings = name_len + 1u;

    uint8_t used[3u * SW_SKELETON_MAX_JOINTS / 8u];
    memset(used, 0, sizeof used);
    const char* float_names[SW_CLIP_MAX_FLOAT_TRACKS];
    uint32_t floats = 0;
    for (uint32_t i = 0; i < d->tracks_count; ++i) {
        sw_result r =
            sw__clip_check_track_desc(d, i, used, float_names, &floats, &total, &strings, err);
        if (r != SW_RESULT_OK) return r;
    }
    sw__name_list list = {float_names};
    int64_t dup = sw__first_duplicate_name(sw__name_list_get, &list, floats);
    if (dup >= 0) {
        /* Report the desc index of the duplicate. */
        uint32_t seen = 0;
        for (uint32_t i = 0; i < d->tracks_count; ++i) {
            if (d->tracks[i].kind != SW_TRACK_KIND_FLOAT) continue;
            if (seen++ == (uint32_t)dup) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "unique float track names", 0, (int64_t)i);
            }
        }
    }
    for (uint32_t e = 0; e < d->events_count; ++e) {
        const char* name = d->events[e].name;
        if (!name) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "event name not NULL", 0, (int64_t)e);
        }
        size_t len = sw__clip_bounded_len(name, SW_CLIP_MAX_NAME + 1u);
        if (len > SW_CLIP_MAX_NAME) {
            return sw__fail(err, SW_RESULT_LIMIT, "event name length", 0, (int64_t)e);
        }
        const char* check = sw__check_event(d->events[e].time, name, d->duration);
        if (check) return sw__fail(err, SW_RESULT_BAD_DATA, check, 0, (int64_t)e);
        strings += len + 1u;
    }
    total = sw__align16(total + strings);
    if (total > 0xFFFFFFF0u) return sw__fail(err, SW_RESULT_LIMIT, "block size", 0, -1);
    *size = (uint32_t)total;
    return SW_RESULT_OK;
}

/* ---- block ----------------------------------------------------------------- */

/* An array of count * elem bytes at off lies after the header and inside the
 * block; compared by subtraction (all operands fit in 64 bits). */
static bool sw__clip_array_ok(uint32_t off, uint64_t count, uint64_t elem, uint32_t size) {
    if (off < SW__CLIP_HEADER || off > size) return false;
    return count * elem <= (uint64_t)(size - off);
}

/* A name at off: inside the block, NUL-terminated there, at most max bytes.
 * Returns NULL when fine, else the check; *r receives the result. */
static const char* sw__clip_name_ok(const sw_clip* c, uint32_t off, const char* bounds_check,
                                    const char* length_check, sw_result* r) {
    uint32_t size = c->size;
    *r = SW_RESULT_BAD_DATA;
    if (off < SW__CLIP_HEADER || off >= size) return bounds_check;
    size_t room = (size_t)(size - off);
    size_t cap = room < SW_CLIP_MAX_NAME + 1u ? room : SW_CLIP_MAX_NAME + 1u;
    size_t len = sw__clip_bounded_len((const char*)c + off, cap);
    if (len == cap) {
        if (cap > SW_CLIP_MAX_NAME) {
            *r = SW_RESULT_LIMIT;
            return length_check;
        }
        return bounds_check;
    }
    return NULL;
}

typedef struct sw__clip_floats {
    const sw_clip* clip;
    uint32_t first;
} sw__clip_floats;

static const char* sw__clip_float_name(const void* ctx, uint32_t i) {
    const sw__clip_floats* f = (const sw__clip_floats*)ctx;
    return (const char*)f->clip + sw_clip_tracks(f->clip)[f->first + i].target;
}

#define SW__TRACK_FIELD(i, field)                                                                  \
    ((uint64_t)c->tracks_offset + 32u * (uint64_t)(i) + offsetof(sw_clip_track, field))

static sw_result sw__clip_check_track(const sw_clip* c, uint32_t i, sw_error* err) {
    const sw_clip_track* t = &sw_clip_tracks(c)[i];
    const uint32_t size = c->size;
    const int64_t ti = (int64_t)i;
    const uint32_t joint_tracks = c->tracks_count - c->float_tracks_count;
    if (t->reserved != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "reserved zero", SW__TRACK_FIELD(i, reserved), ti);
    }
    if (i >= joint_tracks) {
        if (t->kind != SW_TRACK_KIND_FLOAT) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "track kind", SW__TRACK_FIELD(i, kind), ti);
        }
        sw_result r;
        const char* check =
            sw__clip_name_ok(c, t->target, "names in bounds", "float track name length", &r);
        if (check) return sw__fail(err, r, check, SW__TRACK_FIELD(i, target), ti);
        if (((const char*)c)[t->target] == '\0') {
            return sw__fail(err, SW_RESULT_BAD_DATA, "float track name not empty",
                            (uint64_t)t->target, ti);
        }
    }
    uint32_t comps = sw__components(t->kind);
    if (comps == 0 || t->components != comps) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "track components", SW__TRACK_FIELD(i, components),
                        ti);
    }
    if (t->interp < SW_INTERP_STEP || t->interp > SW_INTERP_CUBIC) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "track interpolation", SW__TRACK_FIELD(i, interp),
                        ti);
    }
    if (t->uniform > 1u) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "track uniform flag", SW__TRACK_FIELD(i, uniform),
                        ti);
    }
    if (t->keys_count == 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "keys count >= 1", SW__TRACK_FIELD(i, keys_count),
                        ti);
    }
    if (t->keys_count > SW_CLIP_MAX_KEYS) {
        return sw__fail(err, SW_RESULT_LIMIT, "keys count", SW__TRACK_FIELD(i, keys_count), ti);
    }
    if (t->uniform) {
        if (t->times_offset != 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "uniform track has no times",
                            SW__TRACK_FIELD(i, times_offset), ti);
        }
        if (!isfinite(t->start)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "key times finite", SW__TRACK_FIELD(i, start),
                            ti);
        }
        if (!(isfinite(t->rate) && t->rate > 0.0f)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "uniform rate > 0", SW__TRACK_FIELD(i, rate),
                            ti);
        }
    } else {
        if (t->start != 0.0f || t->rate != 0.0f) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "explicit track start and rate zero",
                            SW__TRACK_FIELD(i, start), ti);
        }
        if ((t->times_offset & 3u) != 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "key times aligned",
                            SW__TRACK_FIELD(i, times_offset), ti);
        }
        if (!sw__clip_array_ok(t->times_offset, t->keys_count, 4u, size)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "key times in bounds",
                            SW__TRACK_FIELD(i, times_offset), ti);
        }
    }
    if ((t->values_offset & 3u) != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "key values aligned",
                        SW__TRACK_FIELD(i, values_offset), ti);
    }
    uint64_t nvalues = sw__values_count(t->keys_count, comps, t->interp);
    if (!sw__clip_array_ok(t->values_offset, nvalues, 4u, size)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "key values in bounds",
                        SW__TRACK_FIELD(i, values_offset), ti);
    }
    sw__keys k = {t->uniform ? NULL : (const float*)(const void*)((const char*)c + t->times_offset),
                  t->start,
                  t->rate,
                  t->keys_count,
                  sw_clip_track_values(c, t),
                  comps,
                  t->interp,
                  t->kind == SW_TRACK_KIND_ROTATION};
    sw__key_fault f;
    if (!sw__check_keys(&k, c->duration, &f)) {
        uint64_t off = f.in_values  ? (uint64_t)t->values_offset + 4u * (uint64_t)f.key
                       : t->uniform ? SW__TRACK_FIELD(i, start)
                                    : (uint64_t)t->times_offset + 4u * (uint64_t)f.key;
        return sw__fail(err, SW_RESULT_BAD_DATA, f.check, off, ti);
    }
    return SW_RESULT_OK;
}

/* The header of a clip block of `avail` readable bytes at c: sizes,
 * codec, flags, counts, and its tables aligned and in bounds. */
static sw_result sw__clip_check_header(const sw_clip* c, size_t avail, sw_error* err) {
    if (avail < SW__CLIP_HEADER) {
        return sw__fail(err, SW_RESULT_TRUNCATED, "header in bounds", (uint64_t)avail, -1);
    }
    const uint32_t size = c->size;
    if (size < SW__CLIP_HEADER) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "block size >= header", offsetof(sw_clip, size),
                        -1);
    }
    if ((size_t)size > avail) {
        return sw__fail(err, SW_RESULT_TRUNCATED, "block in bounds", (uint64_t)avail, -1);
    }
    if (c->codec != SW_CLIP_CODEC_RAW && c->codec != SW_CLIP_CODEC_QUANTIZED &&
        c->codec != SW_CLIP_CODEC_FRAMES) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec", offsetof(sw_clip, codec), -1);
    }
    if ((c->flags & ~SW_CLIP_FLAG_ADDITIVE) != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "flags", offsetof(sw_clip, flags), -1);
    }
    if (!isfinite(c->duration) || c->duration < 0.0f) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "duration finite >= 0",
                        offsetof(sw_clip, duration), -1);
    }
    const uint32_t n = c->joints_count;
    if (n == 0 || n > SW_SKELETON_MAX_JOINTS) {
        return sw__fail(err, SW_RESULT_LIMIT, "joints count", offsetof(sw_clip, joints_count), -1);
    }
    if (c->float_tracks_count > SW_CLIP_MAX_FLOAT_TRACKS) {
        return sw__fail(err, SW_RESULT_LIMIT, "float tracks count",
                        offsetof(sw_clip, float_tracks_count), -1);
    }
    if (c->float_tracks_count > c->tracks_count) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "float tracks <= tracks",
                        offsetof(sw_clip, float_tracks_count), -1);
    }
    const uint32_t joint_tracks = c->tracks_count - c->float_tracks_count;
    if (joint_tracks > 3u * n) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "joint tracks <= 3 * joints",
                        offsetof(sw_clip, tracks_count), -1);
    }
    if (c->events_count > SW_CLIP_MAX_EVENTS) {
        return sw__fail(err, SW_RESULT_LIMIT, "events count", offsetof(sw_clip, events_count), -1);
    }
    sw_result r;
    const char* check =
        sw__clip_name_ok(c, c->name_offset, "names in bounds", "clip name length", &r);
    if (check) return sw__fail(err, r, check, offsetof(sw_clip, name_offset), -1);
    if ((c->joint_tracks_offset & 3u) != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "joint track table aligned",
                        offsetof(sw_clip, joint_tracks_offset), -1);
    }
    if (!sw__clip_array_ok(c->joint_tracks_offset, 3u * (uint64_t)n, 4u, size)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "joint track table in bounds",
                        offsetof(sw_clip, joint_tracks_offset), -1);
    }
    if ((c->tracks_offset & 3u) != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "tracks aligned", offsetof(sw_clip, tracks_offset),
                        -1);
    }
    if (!sw__clip_array_ok(c->tracks_offset, c->tracks_count, sizeof(sw_clip_track), size)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "tracks in bounds",
                        offsetof(sw_clip, tracks_offset), -1);
    }
    if ((c->events_offset & 3u) != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "events aligned", offsetof(sw_clip, events_offset),
                        -1);
    }
    if (!sw__clip_array_ok(c->events_offset, c->events_count, sizeof(sw_clip_event), size)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "events in bounds",
                        offsetof(sw_clip, events_offset), -1);
    }
    return SW_RESULT_OK;
}

/* The joint track table of a clip whose header is checked. */
static sw_result sw__clip_check_table(const sw_clip* c, sw_error* err) {
    const uint32_t n = c->joints_count;
    const uint32_t joint_tracks = c->tracks_count - c->float_tracks_count;
    /* The table lists joint tracks 0, 1, 2, ... in joint-major T, R, S order,
     * each exactly once, each with the kind and joint of its slot. */
    const sw_clip_track* tracks = sw_clip_tracks(c);
    uint32_t expected = 0;
    for (uint32_t j = 0; j < n; ++j) {
        const uint32_t* slots = sw_clip_joint_tracks(c, j);
        for (uint32_t k = 0; k < 3u; ++k) {
            uint32_t e = slots[k];
            uint64_t at = (uint64_t)c->joint_tracks_offset + 4u * (3u * (uint64_t)j + k);
            if (e == SW_CLIP_NO_TRACK) continue;
            if (e != expected || e >= joint_tracks) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "joint track order", at, (int64_t)j);
            }
            if (tracks[e].kind != k + 1u) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "track kind", SW__TRACK_FIELD(e, kind),
                                (int64_t)e);
            }
            if (tracks[e].target != j) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "track joint matches table",
                                SW__TRACK_FIELD(e, target), (int64_t)e);
            }
            ++expected;
        }
    }
    if (expected != joint_tracks) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "joint tracks in table",
                        offsetof(sw_clip, tracks_count), (int64_t)expected);
    }
    return SW_RESULT_OK;
}

/* The events of a clip whose header is checked: names, times, order. */
static sw_result sw__clip_check_events(const sw_clip* c, sw_error* err) {
    sw_result r;
    const char* check;
    const sw_clip_event* events = sw_clip_events(c);
    for (uint32_t e = 0; e < c->events_count; ++e) {
        uint64_t at = (uint64_t)c->events_offset + 8u * (uint64_t)e;
        check =
            sw__clip_name_ok(c, events[e].name_offset, "names in bounds", "event name length", &r);
        if (check) return sw__fail(err, r, check, at + 4u, (int64_t)e);
        check = sw__check_event(events[e].time, sw_clip_event_name(c, e), c->duration);
        if (check) return sw__fail(err, SW_RESULT_BAD_DATA, check, at, (int64_t)e);
        if (e > 0 && events[e].time < events[e - 1u].time) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "events sorted by time", at, (int64_t)e);
        }
    }
    return SW_RESULT_OK;
}

/* Validates a clip block of `avail` readable bytes at c (16-byte aligned). */
static sw_result sw__clip_check_block(const sw_clip* c, size_t avail, sw_error* err) {
    sw_result r = sw__clip_check_header(c, avail, err);
    if (r == SW_RESULT_OK) r = sw__clip_check_table(c, err);
    if (r != SW_RESULT_OK) return r;
    const uint32_t joint_tracks = c->tracks_count - c->float_tracks_count;
    for (uint32_t i = 0; i < c->tracks_count; ++i) {
        r = sw__clip_check_track(c, i, err);
        if (r != SW_RESULT_OK) return r;
    }
    sw__clip_floats floats = {c, joint_tracks};
    int64_t dup = sw__first_duplicate_name(sw__clip_float_name, &floats, c->float_tracks_count);
    if (dup >= 0) {
        uint32_t ti = joint_tracks + (uint32_t)dup;
        return sw__fail(err, SW_RESULT_BAD_DATA, "unique float track names",
                        SW__TRACK_FIELD(ti, target), (int64_t)ti);
    }
    r = sw__clip_check_events(c, err);
    if (r != SW_RESULT_OK) return r;
    if (c->codec == SW_CLIP_CODEC_QUANTIZED) {
        /* Joint motion lives in the codec payload (codec_quantized.c). */
        if (joint_tracks != 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "quantized clip has no raw joint tracks",
                            offsetof(sw_clip, tracks_count), -1);
        }
        return sw__codec_quantized_check(c, err);
    }
    if (c->codec == SW_CLIP_CODEC_FRAMES) {
        /* Joint motion lives in the frames payload (codec_frames.c). */
        if (joint_tracks != 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "frames clip has no raw joint tracks",
                            offsetof(sw_clip, tracks_count), -1);
        }
        return sw__codec_frames_check(c, err);
    }
    return SW_RESULT_OK;
}

/* ---- init ------------------------------------------------------------------ */

typedef struct sw__clip_writer {
    char* base;
    uint32_t data;    /* next free byte for key arrays */
    uint32_t strings; /* next free byte for names */
} sw__clip_writer;

static uint32_t sw__write_string(sw__clip_writer* w, const char* s) {
    size_t len = s ? strlen(s) : 0u;
    uint32_t at = w->strings;
    if (len > 0) memcpy(w->base + at, s, len);
    w->base[at + len] = '\0';
    w->strings += (uint32_t)len + 1u;
    return at;
}

static void sw__write_track(sw__clip_writer* w, sw_clip_track* out, const sw_clip_track_desc* t) {
    uint32_t comps = sw__components((uint32_t)t->kind);
    uint32_t interp =
        t->interp == SW_INTERP_DEFAULT ? (uint32_t)SW_INTERP_LINEAR : (uint32_t)t->interp;
    out->kind = (uint8_t)t->kind;
    out->interp = (uint8_t)interp;
    out->components = (uint8_t)comps;
    out->keys_count = t->keys_count;
    out->reserved = 0;
    if (t->kind == SW_TRACK_KIND_FLOAT) {
        out->target = sw__write_string(w, t->name);
    } else {
        out->target = t->joint;
    }
    if (t->times) {
        out->uniform = 0;
        out->start = 0.0f;
        out->rate = 0.0f;
        out->times_offset = w->data;
        memcpy(w->base + w->data, t->times, 4u * (size_t)t->keys_count);
        w->data += (uint32_t)sw__align16(4u * (uint64_t)t->keys_count);
    } else {
        out->uniform = 1;
        out->start = t->start;
        out->rate = (t->keys_count == 1 && !(isfinite(t->rate) && t->rate > 0.0f)) ? 1.0f : t->rate;
        out->times_offset = 0;
    }
    uint64_t nvalues = sw__values_count(t->keys_count, comps, interp);
    out->values_offset = w->data;
    float* values = (float*)(void*)(w->base + w->data);
    memcpy(values, t->values, 4u * (size_t)nvalues);
    if (t->kind != SW_TRACK_KIND_FLOAT) { /* transform components: see SW__TINY */
        for (uint64_t i = 0; i < nvalues; ++i)
            values[i] = sw__flush_tiny(values[i]);
    }
    w->data += (uint32_t)sw__align16(4u * nvalues);
}

static bool sw__event_less(const sw_clip_event* a, const sw_clip_event* b) {
    return a->time < b->time || (a->time == b->time && a->name_offset < b->name_offset);
}

static void sw__event_sift(sw_clip_event* ev, uint32_t root, uint32_t n) {
    for (;;) {
        uint32_t child = 2u * root + 1u;
        if (child >= n) return;
        if (child + 1u < n && sw__event_less(&ev[child], &ev[child + 1u])) ++child;
        if (!sw__event_less(&ev[root], &ev[child])) return;
        sw_clip_event tmp = ev[root];
        ev[root] = ev[child];
        ev[child] = tmp;
        root = child;
    }
}

/* Heap sort by (time, name offset). Names are written in desc order, so the
 * name offset breaks ties in desc order: the result is the stable order. */
static void sw__sort_events(sw_clip_event* ev, uint32_t n) {
    if (n < 2) return;
    for (uint32_t i = n / 2u; i-- > 0;)
        sw__event_sift(ev, i, n);
    for (uint32_t end = n - 1u; end > 0; --end) {
        sw_clip_event tmp = ev[0];
        ev[0] = ev[end];
        ev[end] = tmp;
        sw__event_sift(ev, 0, end);
    }
}

size_t sw_clip_measure(const sw_clip_desc* desc) {
    uint32_t size;
    if (sw__clip_check_desc(desc, &size, NULL) != SW_RESULT_OK) return 0;
    return size;
}

sw_result sw_clip_init(void* mem, size_t size, const sw_clip_desc* desc, const sw_clip** out,
                       sw_error* err) {
    if (!mem || !desc || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if (!sw__aligned16(mem)) {
        return sw__fail(err, SW_RESULT_MISALIGNED, "memory 16-byte aligned", 0, -1);
    }
    uint32_t need;
    sw_result r = sw__clip_check_desc(desc, &need, err);
    if (r != SW_RESULT_OK) return r;
    if (size < need) {
        return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "memory >= measured size", 0, -1);
    }
    char* base = (char*)mem;
    memset(base, 0, need);
    sw_clip* c = (sw_clip*)mem;
    const uint32_t n = desc->joints_count;
    uint32_t floats = 0;
    for (uint32_t i = 0; i < desc->tracks_count; ++i) {
        if (desc->tracks[i].kind == SW_TRACK_KIND_FLOAT) ++floats;
    }
    c->size = need;
    c->codec = SW_CLIP_CODEC_RAW;
    c->flags = desc->additive ? SW_CLIP_FLAG_ADDITIVE : 0u;
    c->duration = desc->duration;
    c->joints_count = n;
    c->tracks_count = desc->tracks_count;
    c->float_tracks_count = floats;
    c->events_count = desc->events_count;
    c->joint_tracks_offset = SW__CLIP_HEADER;
    c->tracks_offset = (uint32_t)sw__align16((uint64_t)SW__CLIP_HEADER + 12u * (uint64_t)n);
    c->events_offset = c->tracks_offset + 32u * desc->tracks_count;
    sw__clip_writer w;
    w.base = base;
    w.data = (uint32_t)sw__align16((uint64_t)c->events_offset + 8u * desc->events_count);
    /* Key arrays take what measure counted; names follow them. */
    uint64_t data_bytes = 0;
    for (uint32_t i = 0; i < desc->tracks_count; ++i) {
        const sw_clip_track_desc* t = &desc->tracks[i];
        uint32_t interp =
            t->interp == SW_INTERP_DEFAULT ? (uint32_t)SW_INTERP_LINEAR : (uint32_t)t->interp;
        if (t->times) data_bytes += sw__align16(4u * (uint64_t)t->keys_count);
        data_bytes += sw__align16(
            4u * sw__values_count(t->keys_count, sw__components((uint32_t)t->kind), interp));
    }
    w.strings = w.data + (uint32_t)data_bytes;
    c->name_offset = sw__write_string(&w, desc->name);

    /* Joint tracks: the table first holds desc indices, then block indices. */
    uint32_t* table = (uint32_t*)(void*)(base + c->joint_tracks_offset);
    for (uint32_t s = 0; s < 3u * n; ++s)
        table[s] = SW_CLIP_NO_TRACK;
    for (uint32_t i = 0; i < desc->tracks_count; ++i) {
        const sw_clip_track_desc* t = &desc->tracks[i];
        if (t->kind != SW_TRACK_KIND_FLOAT) table[3u * t->joint + (uint32_t)t->kind - 1u] = i;
    }
    sw_clip_track* tracks = (sw_clip_track*)(void*)(base + c->tracks_offset);
    uint32_t next = 0;
    for (uint32_t s = 0; s < 3u * n; ++s) {
        if (table[s] == SW_CLIP_NO_TRACK) continue;
        sw__write_track(&w, &tracks[next], &desc->tracks[table[s]]);
        table[s] = next++;
    }
    for (uint32_t i = 0; i < desc->tracks_count; ++i) {
        if (desc->tracks[i].kind == SW_TRACK_KIND_FLOAT) {
            sw__write_track(&w, &tracks[next++], &desc->tracks[i]);
        }
    }
    sw_clip_event* events = (sw_clip_event*)(void*)(base + c->events_offset);
    for (uint32_t e = 0; e < desc->events_count; ++e) {
        events[e].time = desc->events[e].time;
        events[e].name_offset = sw__write_string(&w, desc->events[e].name);
    }
    sw__sort_events(events, desc->events_count);
    SINEW_ASSERT(w.strings <= need);
    r = sw__clip_check_block(c, need, err);
    if (r != SW_RESULT_OK) return r;
    *out = c;
    return SW_RESULT_OK;
}

sw_result sw_clip_create(const sw_clip_desc* desc, const sw_allocator* alloc, const sw_clip** out,
                         sw_error* err) {
    if (!desc || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    uint32_t need;
    sw_result r = sw__clip_check_desc(desc, &need, err);
    if (r != SW_RESULT_OK) return r;
    void* mem = sw_alloc(alloc, need, 16);
    if (!mem) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    r = sw_clip_init(mem, need, desc, out, err);
    if (r != SW_RESULT_OK) sw_free(alloc, mem, need);
    return r;
}

void sw_clip_destroy(const sw_clip* c, const sw_allocator* alloc) {
    if (!c) return;
    sw_free(alloc, (void*)(uintptr_t)c, c->size);
}

sw_result sw_clip_load(const void* data, size_t size, const sw_clip** out, sw_error* err) {
    if (!data || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if (!sw__aligned16(data)) {
        return sw__fail(err, SW_RESULT_MISALIGNED, "data 16-byte aligned", 0, -1);
    }
    const sw_clip* c = (const sw_clip*)data;
    sw_result r = sw__clip_check_block(c, size, err);
    if (r != SW_RESULT_OK) return r;
    *out = c;
    return SW_RESULT_OK;
}

/* ---- lookups --------------------------------------------------------------- */

int32_t sw_clip_find_float_track(const sw_clip* c, const char* name) {
    if (!c || !name) return -1;
    for (uint32_t f = 0; f < c->float_tracks_count; ++f) {
        if (strcmp(sw_clip_float_track_name(c, f), name) == 0) return (int32_t)f;
    }
    return -1;
}

uint32_t sw_clip_events_between(const sw_clip* c, float from, float to, uint32_t* out,
                                uint32_t out_capacity) {
    if (!c || !(from <= to) || c->events_count == 0) return 0;
    const sw_clip_event* ev = sw_clip_events(c);
    const float end = c->duration;
    /* First event with time >= from (events are sorted). */
    uint32_t lo = 0, hi = c->events_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (ev[mid].time < from) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    uint32_t count = 0;
    for (uint32_t e = lo; e < c->events_count; ++e) {
        float t = ev[e].time;
        bool in;
        if (t < end) {
            if (!(t < to)) break;
            in = true;
        } else {
            /* An event at the very end belongs to the range that reaches it. */
            in = from < end && to >= end;
        }
        if (!in) continue;
        if (out && count < out_capacity) out[count] = e;
        ++count;
    }
    return count;
}

float sw_clip_play_time(const sw_clip* c, double time, bool loop) {
    const double d = c ? (double)c->duration : 0.0;
    if (time != time || !(d > 0.0)) return 0.0f;
    if (loop) {
        double t = fmod(time, d);
        if (t < 0.0) t += d;
        const float ft = (float)t;
        return ft < c->duration ? ft : 0.0f; /* rounded up to the duration: the start */
    }
    return (float)(time < 0.0 ? 0.0 : time > d ? d : time);
}
