/* The sampling job: clip -> local SoA pose at a time. */
#include <string.h>

#include "internal.h"
#include "runtime/codecs/codec_frames.h"
#include "runtime/codecs/codec_quantized.h"

/* Linear steps a cached cursor may take before the search falls back to a
 * binary search over the rest of the track. */
#define SW__SAMPLE_LINEAR_STEPS 4u

static bool sw__sample_time_is_nan(float t) {
    return t != t;
}

/* Words of the decoder's key cache after the cursors (0: none); with
 * `table`, those it uses when the clip's shared table holds the headers. */
static uint32_t sw__sample_keep_words(const sw_clip* clip, bool table) {
    if (clip->codec != SW_CLIP_CODEC_QUANTIZED) return 0u;
    return table ? sw__codec_quantized_keep_words_shared(clip)
                 : sw__codec_quantized_keep_words(clip);
}

/* Cursor words a call reads and writes: the clip's tracks, and the key
 * cache after them when the cache holds it whole (without the parsed
 * headers when it reads a table). */
static uint32_t sw__sample_cache_used(const sw_clip* clip, const sw_sample_cache* cache) {
    const uint64_t all =
        (uint64_t)clip->tracks_count + sw__sample_keep_words(clip, cache->table != NULL);
    return cache->cursors_count >= all ? (uint32_t)all : clip->tracks_count;
}

uint32_t sw_sample_table_size(const sw_clip* clip) {
    if (!clip || clip->codec != SW_CLIP_CODEC_QUANTIZED) return 0;
    return sw__codec_quantized_table_words(clip);
}

sw_result sw_sample_table_init(const sw_clip* clip, uint32_t* table, uint32_t count) {
    const uint32_t need = sw_sample_table_size(clip);
    if (!table || need == 0) return SW_RESULT_INVALID_ARGUMENT;
    if (count < need) return SW_RESULT_BUFFER_TOO_SMALL;
    if (!sw__aligned16(table)) return SW_RESULT_MISALIGNED;
    if (sw__overlaps(table, (size_t)need * 4u, clip, clip->size)) return SW_RESULT_OVERLAP;
    sw__codec_quantized_table_fill(clip, table);
    return SW_RESULT_OK;
}

/* The cursors and the key cache's words (sw__sample_keep_words). */
static uint32_t sw__sample_cache_size(const sw_clip* clip, bool table) {
    if (!clip) return 0;
    const uint64_t all = (uint64_t)clip->tracks_count + sw__sample_keep_words(clip, table);
    return all <= UINT32_MAX ? (uint32_t)all : clip->tracks_count;
}

uint32_t sw_sample_cache_size(const sw_clip* clip) {
    return sw__sample_cache_size(clip, false);
}

uint32_t sw_sample_cache_size_with_table(const sw_clip* clip) {
    /* a clip without a table (none to share, or one past 2^32 words) keeps
     * its headers in the cache */
    return sw__sample_cache_size(clip, sw_sample_table_size(clip) > 0u);
}

/* sw_sample_job_validate, and *used: the cache words a run reads and
 * writes (sw__sample_cache_used; 0 without a cache). */
static sw_result sw__sample_job_check(const sw_sample_job* job, uint32_t* used) {
    *used = 0;
    if (!job || !job->clip || !job->skeleton || !job->out) return SW_RESULT_INVALID_ARGUMENT;
    if (sw__sample_time_is_nan(job->time)) return SW_RESULT_INVALID_ARGUMENT;
    const sw_clip* clip = job->clip;
    const sw_skeleton* skel = job->skeleton;
    if (clip->joints_count != skel->joints_count) return SW_RESULT_INVALID_ARGUMENT;
    if (clip->codec != SW_CLIP_CODEC_RAW && clip->codec != SW_CLIP_CODEC_QUANTIZED &&
        clip->codec != SW_CLIP_CODEC_FRAMES)
        return SW_RESULT_INVALID_ARGUMENT;
    const sw_sample_cache* cache = job->cache;
    if (cache && !cache->cursors && cache->cursors_count > 0) return SW_RESULT_INVALID_ARGUMENT;

    if (job->out_count < skel->packets_count) return SW_RESULT_BUFFER_TOO_SMALL;
    if (job->floats && job->floats_count < clip->float_tracks_count)
        return SW_RESULT_BUFFER_TOO_SMALL;
    if (cache && cache->cursors_count < clip->tracks_count) return SW_RESULT_BUFFER_TOO_SMALL;

    if (!sw__aligned16(job->out)) return SW_RESULT_MISALIGNED;

    /* (sw__overlaps is false for an absent or empty range: the groups
     * below test only what the job has) */
    const size_t out_bytes = (size_t)skel->packets_count * sizeof(sw_xform4);
    if (sw__overlaps(job->out, out_bytes, clip, clip->size) ||
        sw__overlaps(job->out, out_bytes, skel, skel->size))
        return SW_RESULT_OVERLAP;
    const size_t cursors_bytes = cache ? (size_t)sw__sample_cache_used(clip, cache) * 4u : 0;
    const void* cursors = cache ? (const void*)cache->cursors : NULL;
    if (cache && (sw__overlaps(job->out, out_bytes, cursors, cursors_bytes) ||
                  sw__overlaps(job->out, out_bytes, cache, sizeof(*cache))))
        return SW_RESULT_OVERLAP;
    if (cache && cache->table) {
        if (clip->codec != SW_CLIP_CODEC_QUANTIZED ||
            !sw__codec_quantized_table_fits(clip, cache->table))
            return SW_RESULT_INVALID_ARGUMENT;
        const size_t table_bytes = (size_t)sw__codec_quantized_table_size(cache->table) * 4u;
        if (sw__overlaps(job->out, out_bytes, cache->table, table_bytes) ||
            sw__overlaps(cursors, cursors_bytes, cache->table, table_bytes))
            return SW_RESULT_OVERLAP;
    }
    if (job->keep && sw__overlaps(job->out, out_bytes, job->keep, skel->packets_count))
        return SW_RESULT_OVERLAP;
    if (job->floats) {
        const size_t floats_bytes = (size_t)clip->float_tracks_count * sizeof(float);
        if (sw__overlaps(job->out, out_bytes, job->floats, floats_bytes) ||
            sw__overlaps(job->floats, floats_bytes, clip, clip->size) ||
            sw__overlaps(job->floats, floats_bytes, skel, skel->size) ||
            sw__overlaps(job->floats, floats_bytes, cursors, cursors_bytes) ||
            sw__overlaps(job->floats, floats_bytes, cache, cache ? sizeof(*cache) : 0))
            return SW_RESULT_OVERLAP;
    }
    *used = (uint32_t)(cursors_bytes / 4u);
    return SW_RESULT_OK;
}

sw_result sw_sample_job_validate(const sw_sample_job* job) {
    uint32_t used;
    return sw__sample_job_check(job, &used);
}

/* Where a time falls in a track: key k and the fraction u in [0, 1] towards
 * key k + 1. u == 0 with k the last key holds the last value; times before
 * the first key give k = 0, u = 0. */
typedef struct sw__key_pos {
    uint32_t k;
    float u;
} sw__key_pos;

/* Largest k in [lo, n) with times[k] <= t, or lo when none (times[lo] > t
 * only happens for lo == 0). Requires times strictly increasing. */
static uint32_t sw__search_explicit(const float* times, uint32_t lo, uint32_t n, float t) {
    uint32_t hi = n; /* invariant: answer in [lo, hi) */
    while (hi - lo > 1u) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* sw__search_explicit over [0, n) starting from the key that evenly spaced
 * times would give (exporters often write them): a few steps settle it,
 * else the binary search finishes on the side left. The same answer. */
static uint32_t sw__search_explicit_guess(const float* times, uint32_t n, float t) {
    const float first = times[0], span = times[n - 1u] - first;
    if (!(t > first)) return 0;
    if (!(t < times[n - 1u])) return n - 1u;
    const float f = (t - first) / span * (float)(n - 1u); /* in [0, n - 1] */
    uint32_t k = f < (float)(n - 1u) ? (uint32_t)f : n - 2u;
    if (times[k] <= t) {
        for (uint32_t step = 0; step < SW__SAMPLE_LINEAR_STEPS; ++step) {
            if (times[k + 1u] > t) return k; /* k + 1 < n: times[n - 1] > t */
            ++k;
        }
        return sw__search_explicit(times, k, n, t);
    }
    for (uint32_t step = 0; step < SW__SAMPLE_LINEAR_STEPS; ++step) {
        --k; /* k > 0: times[0] < t < times[k] */
        if (times[k] <= t) return k;
    }
    return sw__search_explicit(times, 0, k, t);
}

/* Key index of time t in track tr: the largest k with key_time(k) <= t (0
 * when t precedes the first key). The same answer whether it comes from the
 * cursor, the uniform formula or a binary search, so sampling is identical
 * with and without a cache. */
static uint32_t sw__find_key(const sw_clip* clip, const sw_clip_track* tr, float t,
                             const uint32_t* cursor) {
    const uint32_t n = tr->keys_count;
    if (n <= 1u) return 0;
    if (tr->uniform) {
        /* Estimate from the rate, then settle on the exact key times so that
         * times exactly at a key land on that key. */
        float f = (t - tr->start) * tr->rate;
        uint32_t k;
        if (!(f > 0.0f))
            k = 0;
        else if (f >= (float)(n - 1u))
            k = n - 1u;
        else
            k = (uint32_t)f;
        while (k + 1u < n && sw_clip_track_key_time(clip, tr, k + 1u) <= t)
            ++k;
        while (k > 0u && sw_clip_track_key_time(clip, tr, k) > t)
            --k;
        return k;
    }
    const float* times = sw_clip_track_times(clip, tr);
    if (cursor) {
        uint32_t c = *cursor;
        if (c < n && (c == 0u || times[c] <= t)) {
            for (uint32_t step = 0; step < SW__SAMPLE_LINEAR_STEPS; ++step) {
                if (c + 1u >= n || times[c + 1u] > t) return c;
                ++c;
            }
            return sw__search_explicit(times, c, n, t);
        }
    }
    return sw__search_explicit_guess(times, n, t);
}

static sw__key_pos sw__key_pos_of(const sw_clip* clip, const sw_clip_track* tr, float t,
                                  uint32_t k) {
    sw__key_pos p = {k, 0.0f};
    if (k + 1u >= tr->keys_count) return p;
    const float t0 = sw_clip_track_key_time(clip, tr, k);
    const float t1 = sw_clip_track_key_time(clip, tr, k + 1u);
    if (!(t > t0)) return p; /* before the first key, or exactly at key k */
    const float dt = t1 - t0;
    if (!(dt > 0.0f)) return p;
    float u = (t - t0) / dt;
    p.u = u < 1.0f ? u : 1.0f;
    return p;
}

/* Evaluates one track at the key position into out[0..components). */
static void sw__eval_track(const sw_clip* clip, const sw_clip_track* tr, sw__key_pos pos,
                           float* out) {
    const uint32_t c = tr->components;
    const float* v = sw_clip_track_values(clip, tr);
    const bool cubic = tr->interp == SW_INTERP_CUBIC;
    const uint32_t stride = cubic ? 3u * c : c; /* floats per key */
    const uint32_t voff = cubic ? c : 0u;       /* the value inside a key */
    const float* a = v + (size_t)pos.k * stride + voff;

    if (pos.u == 0.0f || tr->interp == SW_INTERP_STEP) {
        for (uint32_t i = 0; i < c; ++i)
            out[i] = a[i];
    } else if (!cubic) {
        const float* b = a + stride;
        if (tr->kind == SW_TRACK_KIND_ROTATION) {
            /* slerp returns a unit quaternion: no second normalization. */
            sw_quat q = sw_quat_slerp(sw_quat_make(a[0], a[1], a[2], a[3]),
                                      sw_quat_make(b[0], b[1], b[2], b[3]), pos.u);
            out[0] = q.x;
            out[1] = q.y;
            out[2] = q.z;
            out[3] = q.w;
            return;
        }
        for (uint32_t i = 0; i < c; ++i)
            out[i] = a[i] + (b[i] - a[i]) * pos.u;
        return;
    } else {
        /* glTF cubic spline: Hermite between value k and value k+1 with the
         * out-tangent of k and the in-tangent of k+1, both scaled by the
         * key interval. */
        const float td =
            sw_clip_track_key_time(clip, tr, pos.k + 1u) - sw_clip_track_key_time(clip, tr, pos.k);
        const float* bk = a + c;     /* out-tangent of key k */
        const float* b = a + stride; /* value of key k + 1 */
        const float* ak1 = b - c;    /* in-tangent of key k + 1 */
        const float s = pos.u, s2 = s * s, s3 = s2 * s;
        const float h00 = 2.0f * s3 - 3.0f * s2 + 1.0f;
        const float h10 = (s3 - 2.0f * s2 + s) * td;
        const float h01 = -2.0f * s3 + 3.0f * s2;
        const float h11 = (s3 - s2) * td;
        for (uint32_t i = 0; i < c; ++i)
            out[i] = h00 * a[i] + h10 * bk[i] + h01 * b[i] + h11 * ak1[i];
    }
    /* Stored rotations are unit within 1e-3 and splines leave the sphere:
     * both are brought back to unit length. */
    if (tr->kind == SW_TRACK_KIND_ROTATION) {
        sw_quat q = sw_quat_normalize(sw_quat_make(out[0], out[1], out[2], out[3]));
        out[0] = q.x;
        out[1] = q.y;
        out[2] = q.z;
        out[3] = q.w;
    }
}

/* Samples track `index` at t, using and updating the cursor when given. */
static void sw__sample_track(const sw_clip* clip, uint32_t index, float t, uint32_t* cursors,
                             bool cache_valid, float* out) {
    const sw_clip_track* tr = &sw_clip_tracks(clip)[index];
    uint32_t* cursor = cursors ? &cursors[index] : NULL;
    const uint32_t k = sw__find_key(clip, tr, t, cache_valid ? cursor : NULL);
    if (cursor) *cursor = k;
    sw__eval_track(clip, tr, sw__key_pos_of(clip, tr, t, k), out);
}

static void sw__sample_floats(const sw_sample_job* job, float t, uint32_t* cursors,
                              bool cache_valid) {
    const sw_clip* clip = job->clip;
    if (job->floats) {
        const uint32_t first = clip->tracks_count - clip->float_tracks_count;
        for (uint32_t f = 0; f < clip->float_tracks_count; ++f)
            sw__sample_track(clip, first + f, t, cursors, cache_valid, &job->floats[f]);
    }
}

/* Four identity lanes: untracked joints of additive clips. */
static const sw_xform4 sw__sample_identity = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0},
    {0, 0, 0, 0}, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}};

/* Writes the tracked channels of raw joint `joint` at t into lane `lane` of
 * o (untracked channels keep what o holds). */
static inline void sw__sample_raw_lane(const sw_clip* clip, uint32_t joint, float t,
                                       uint32_t* cursors, bool cache_valid, sw_xform4* o,
                                       uint32_t lane) {
    const uint32_t* jt = sw_clip_joint_tracks(clip, joint);
    float v[4];
    if (jt[0] != SW_CLIP_NO_TRACK) {
        sw__sample_track(clip, jt[0], t, cursors, cache_valid, v);
        o->tx[lane] = v[0];
        o->ty[lane] = v[1];
        o->tz[lane] = v[2];
    }
    if (jt[1] != SW_CLIP_NO_TRACK) {
        sw__sample_track(clip, jt[1], t, cursors, cache_valid, v);
        o->rx[lane] = v[0];
        o->ry[lane] = v[1];
        o->rz[lane] = v[2];
        o->rw[lane] = v[3];
    }
    if (jt[2] != SW_CLIP_NO_TRACK) {
        sw__sample_track(clip, jt[2], t, cursors, cache_valid, v);
        o->sx[lane] = v[0];
        o->sy[lane] = v[1];
        o->sz[lane] = v[2];
    }
}

/* Each packet starts as the rest packet (identity for additive clips; the
 * skeleton's padding lanes are identity), then each track writes its lanes. */
static void sw__sample_raw(const sw_sample_job* job, float t, uint32_t* cursors, bool cache_valid) {
    const sw_clip* clip = job->clip;
    const sw_skeleton* skel = job->skeleton;
    const sw_xform4* rest = sw_skeleton_rest_pose(skel);
    const bool additive = (clip->flags & SW_CLIP_FLAG_ADDITIVE) != 0u;
    const uint32_t joints = skel->joints_count;

    for (uint32_t p = 0; p < skel->packets_count; ++p) {
        sw_xform4* o = &job->out[p];
        *o = additive ? sw__sample_identity : rest[p];
        const uint32_t lanes = joints - 4u * p < 4u ? joints - 4u * p : 4u;
        const uint32_t kept = job->keep ? job->keep[p] : 15u;
        for (uint32_t lane = 0; lane < lanes; ++lane) {
            if ((kept >> lane) & 1u)
                sw__sample_raw_lane(clip, p * 4u + lane, t, cursors, cache_valid, o, lane);
        }
    }

    sw__sample_floats(job, t, cursors, cache_valid);
}

/* The rest fill of the joints a subset leaves out: rest's lanes, or the
 * identity for additive clips (rest NULL). */
static void sw__sample_rest_of(const uint8_t* keep, const sw_xform4* rest, sw_xform4* out,
                               uint32_t packets) {
    if (rest) {
        sw__subset_fill_rest(keep, rest, out, packets);
        return;
    }
    for (uint32_t p = 0; p < packets; ++p) {
        const uint32_t k = keep[p] & 15u;
        if (k == 15u) continue;
        if (k == 0u)
            out[p] = sw__sample_identity;
        else
            sw__subset_fill_rest(&keep[p], &sw__sample_identity, &out[p], 1u);
    }
}

sw_xform sw__clip_sample_joint_with(const sw_clip* clip, const sw_skeleton* skel, uint32_t joint,
                                    float time, const sw__soa_ops* ops) {
    float t = time;
    if (!(t > 0.0f)) t = 0.0f;
    if (t > clip->duration) t = clip->duration;
    switch ((sw_clip_codec)clip->codec) {
    case SW_CLIP_CODEC_QUANTIZED:
        return sw__codec_quantized_sample_joint(clip, skel, joint, t);
    case SW_CLIP_CODEC_FRAMES:
        return sw__codec_frames_sample_joint(clip, joint, t, ops);
    case SW_CLIP_CODEC_RAW:
    case SW_CLIP_CODEC_NONE:
    default: {
        /* the job's packet start and track evaluation, on one lane */
        const bool additive = (clip->flags & SW_CLIP_FLAG_ADDITIVE) != 0u;
        sw_xform4 o = additive ? sw__sample_identity : sw_skeleton_rest_pose(skel)[joint >> 2];
        sw__sample_raw_lane(clip, joint, t, NULL, false, &o, joint & 3u);
        return sw_xform4_get(&o, joint & 3u);
    }
    }
}

sw_xform sw__clip_sample_joint(const sw_clip* clip, const sw_skeleton* skel, uint32_t joint,
                               float time) {
    return sw__clip_sample_joint_with(clip, skel, joint, time, NULL);
}

float sw_clip_sample_float(const sw_clip* c, uint32_t f, float time) {
    if (!c || f >= c->float_tracks_count) return 0.0f;
    float t = time;
    if (!(t > 0.0f)) t = 0.0f;
    if (t > c->duration) t = c->duration;
    float v;
    sw__sample_track(c, c->tracks_count - c->float_tracks_count + f, t, NULL, false, &v);
    return v;
}

sw_result sw__sample_job_run_with(const sw_sample_job* job, const sw__subset* s,
                                  const sw__soa_ops* ops) {
    uint32_t used;
    sw_result r = sw__sample_job_check(job, &used);
    if (r != SW_RESULT_OK) return r;
    const sw_clip* clip = job->clip;

    float t = job->time;
    if (!(t > 0.0f)) t = 0.0f;
    if (t > clip->duration) t = clip->duration;

    sw_sample_cache* cache = job->cache;
    uint32_t* cursors = cache ? cache->cursors : NULL;
    /* Cursors only ever move forward; an earlier time or another clip starts
     * the searches afresh. Each cursor is checked again before use, so the
     * result never depends on what the cache holds. */
    const bool cache_valid = cache && cache->clip == clip && t >= cache->time;

    switch ((sw_clip_codec)clip->codec) {
    case SW_CLIP_CODEC_RAW:
        sw__sample_raw(job, t, cursors, cache_valid);
        break;
    case SW_CLIP_CODEC_QUANTIZED:
        /* Joint tracks from the codec payload (keys are uniform: no
         * cursors), with its key cache after the cursors when the cache has
         * room; float tracks raw as above. */
        if (used > clip->tracks_count)
            ops->quantized_kept(clip, job->skeleton, t, job->keep, job->out,
                                cursors + clip->tracks_count, cache->table, cache->clip != clip);
        else
            ops->quantized_subset(clip, job->skeleton, t, job->keep, job->out, true);
        sw__sample_floats(job, t, cursors, cache_valid);
        break;
    case SW_CLIP_CODEC_FRAMES:
        /* Two frames and one interpolation over the packets (rest values baked
         * in); no cursors. */
        if (s)
            sw__codec_frames_sample_span(clip, t, s->first, s->end, job->out, ops);
        else
            sw__codec_frames_sample_keep(clip, t, job->keep, job->out, ops);
        sw__sample_floats(job, t, cursors, cache_valid);
        break;
    case SW_CLIP_CODEC_NONE:
    default:
        return SW_RESULT_INVALID_ARGUMENT; /* unreachable: validate rejects it */
    }

    if (job->keep && clip->codec == SW_CLIP_CODEC_FRAMES && !s) {
        /* baked frames wrote every joint of the packets they interpolated */
        const sw_xform4* rest = (clip->flags & SW_CLIP_FLAG_ADDITIVE) != 0u
                                    ? NULL
                                    : sw_skeleton_rest_pose(job->skeleton);
        sw__sample_rest_of(job->keep, rest, job->out, job->skeleton->packets_count);
    }
    if (cache) {
        /* A cache with room for the keys only while it reads the clip's
         * table kept none now, and may hold another clip's: emptied, so that
         * its next call with the table starts afresh. */
        const uint32_t with_table =
            used == clip->tracks_count ? sw__sample_keep_words(clip, true) : 0u;
        const bool keys_later =
            with_table > 0u && (uint64_t)cache->cursors_count >= (uint64_t)used + with_table;
        cache->clip = keys_later ? NULL : clip;
        cache->time = t;
    }
    return SW_RESULT_OK;
}

sw_result sw__sample_job_run_for_blend(const sw_sample_job* job, const sw__subset* s) {
    return sw__sample_job_run_with(job, s, sw__soa_best());
}

sw_result sw_sample_job_run(const sw_sample_job* job) {
    return sw__sample_job_run_for_blend(job, NULL);
}
