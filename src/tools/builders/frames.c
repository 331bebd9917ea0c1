/* The frames builder: raw clip -> SW_CLIP_CODEC_FRAMES clip (sinew/codecs/codec.h,
 * sinew/tools/builders/frames.h). */
#include <string.h>

#include "compress_internal.h"
#include "shared/codec_frames_format.h"
#include "shared/fail.h"
#include "shared/layout.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/frames.h"

/* Grid tolerance on key times (seconds). */
#define SW__FRAMES_GRID_TOL 1e-5

float sw_frames_grid_rate(const sw_clip* clip) {
    if (!clip || clip->codec != SW_CLIP_CODEC_RAW) return 0.0f;
    const uint32_t joint_tracks = clip->tracks_count - clip->float_tracks_count;
    const sw_clip_track* tracks = sw_clip_tracks(clip);
    /* The candidate: one over the smallest key interval of any joint track. */
    double min_dt = INFINITY;
    for (uint32_t i = 0; i < joint_tracks; ++i) {
        const sw_clip_track* t = &tracks[i];
        if (t->keys_count < 2u) continue;
        if (t->interp != SW_INTERP_LINEAR) return 0.0f;
        if (t->uniform) {
            const double dt = 1.0 / (double)t->rate;
            if (dt < min_dt) min_dt = dt;
            continue;
        }
        const float* times = sw_clip_track_times(clip, t);
        for (uint32_t k = 1; k < t->keys_count; ++k) {
            const double dt = (double)times[k] - (double)times[k - 1u];
            if (dt < min_dt) min_dt = dt;
        }
    }
    if (!(min_dt < INFINITY) || !(min_dt > 0.0)) return 0.0f;
    /* The grid of the densest keys, or a whole rate within 1e-3 of it. */
    const double rate = 1.0 / min_dt;
    const double whole = floor(rate + 0.5);
    if (fabs(rate - whole) <= 1e-3 && whole >= 1.0 && whole <= (double)SW__FRAMES_MAX_RATE &&
        sw__clip_on_grid(clip, whole))
        return (float)whole;
    const float r = (float)rate;
    if (!(r > 0.0f) || r > SW__FRAMES_MAX_RATE) return 0.0f;
    return sw__clip_on_grid(clip, (double)r) ? r : 0.0f;
}

/* Overwrites the tracked slots of frame pose `pose` (time ft) with the key a
 * track has within the grid tolerance of ft, so frames on the grid equal the
 * keys bit for bit. cursors: one per joint track, moving forward. */
static void sw__frames_snap_keys(const sw_clip* clip, float ft, uint32_t* cursors,
                                 sw_xform4* pose) {
    const uint32_t J = clip->joints_count;
    const sw_clip_track* tracks = sw_clip_tracks(clip);
    for (uint32_t j = 0; j < J; ++j) {
        const uint32_t* jt = sw_clip_joint_tracks(clip, j);
        for (uint32_t kind = 0; kind < 3u; ++kind) {
            const uint32_t ti = jt[kind];
            if (ti == SW_CLIP_NO_TRACK) continue;
            const sw_clip_track* t = &tracks[ti];
            uint32_t k = cursors[ti];
            while (k + 1u < t->keys_count &&
                   (double)sw_clip_track_key_time(clip, t, k) < (double)ft - SW__FRAMES_GRID_TOL)
                ++k;
            cursors[ti] = k;
            const double tk = (double)sw_clip_track_key_time(clip, t, k);
            if (!(fabs(tk - (double)ft) <= SW__FRAMES_GRID_TOL)) continue;
            const float* v = sw_clip_track_values(clip, t) + (size_t)k * t->components;
            sw_xform x = sw_pose_get(pose, j);
            if (kind == 0u) {
                x.t = (sw_vec3){v[0], v[1], v[2]};
            } else if (kind == 1u) {
                x.r = sw_quat_make(v[0], v[1], v[2], v[3]);
            } else {
                x.s = (sw_vec3){v[0], v[1], v[2]};
            }
            sw_pose_set(pose, j, x);
        }
    }
}

typedef struct sw__frames_build {
    const sw_skeleton* skel;
    const sw_clip* clip;
    const sw_allocator* alloc;
    float rate;
    bool on_keys;
    uint32_t F, P;
    sw_xform4* poses; /* F * P */
    uint8_t* kind;    /* per packet: sw_frames_run_kind */
} sw__frames_build;

/* Samples every frame, snaps grid frames to the keys and puts each
 * rotation on the hemisphere of the previous frame's. */
static sw_result sw__frames_sample(sw__frames_build* b, sw_error* err) {
    const uint32_t joint_tracks = b->clip->tracks_count - b->clip->float_tracks_count;
    const size_t cbytes = sizeof(uint32_t) * (joint_tracks ? joint_tracks : 1u);
    uint32_t* cursors = (uint32_t*)sw_alloc(b->alloc, cbytes, 16);
    if (!cursors) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    memset(cursors, 0, cbytes);
    for (uint32_t i = 0; i < b->F; ++i) {
        float ft = (float)i / b->rate;
        if (ft > b->clip->duration) ft = b->clip->duration;
        sw_xform4* pose = b->poses + (size_t)i * b->P;
        const sw_sample_job job = {
            .clip = b->clip, .skeleton = b->skel, .time = ft, .out = pose, .out_count = b->P};
        sw_result r = sw_sample_job_run(&job);
        if (r != SW_RESULT_OK) {
            sw_free(b->alloc, cursors, cbytes);
            return sw__fail(err, r, "sampling the raw clip", 0, (int64_t)i);
        }
        if (b->on_keys) sw__frames_snap_keys(b->clip, ft, cursors, pose);
        if (i == 0) continue;
        const sw_xform4* prev = pose - b->P;
        for (uint32_t p = 0; p < b->P; ++p) {
            sw_xform4* o = &pose[p];
            for (uint32_t l = 0; l < 4u; ++l) {
                const double d =
                    (double)o->rx[l] * prev[p].rx[l] + (double)o->ry[l] * prev[p].ry[l] +
                    (double)o->rz[l] * prev[p].rz[l] + (double)o->rw[l] * prev[p].rw[l];
                if (d >= 0.0) continue;
                o->rx[l] = -o->rx[l];
                o->ry[l] = -o->ry[l];
                o->rz[l] = -o->rz[l];
                o->rw[l] = -o->rw[l];
            }
        }
    }
    sw_free(b->alloc, cursors, cbytes);
    return SW_RESULT_OK;
}

/* Packet kinds: constant when every frame equals the first bit for bit,
 * else animated. */
static void sw__frames_classify(sw__frames_build* b) {
    for (uint32_t p = 0; p < b->P; ++p) {
        b->kind[p] = SW_FRAMES_RUN_CONSTANT;
        for (uint32_t i = 1; i < b->F; ++i) {
            if (memcmp(&b->poses[(size_t)i * b->P + p], &b->poses[p], sizeof(sw_xform4)) != 0) {
                b->kind[p] = SW_FRAMES_RUN_ANIMATED;
                break;
            }
        }
    }
}

static sw_result sw__frames_write(sw__frames_build* b, const sw_clip** out, sw_error* err) {
    const uint32_t P = b->P, F = b->F;
    uint32_t runs = 0, A = 0, C = 0;
    for (uint32_t p = 0; p < P; ++p) {
        if (p == 0 || b->kind[p] != b->kind[p - 1u]) ++runs;
        if (b->kind[p] == SW_FRAMES_RUN_ANIMATED) ++A;
        if (b->kind[p] == SW_FRAMES_RUN_CONSTANT) ++C;
    }
    const uint32_t runs_off = (uint32_t)sizeof(sw_frames_header);
    const uint32_t const_off =
        (uint32_t)sw__align16(runs_off + (uint32_t)sizeof(sw_frames_run) * runs);
    const uint32_t frames_off = const_off + (uint32_t)sizeof(sw_xform4) * C;
    const uint64_t total = (uint64_t)frames_off + (uint64_t)sizeof(sw_xform4) * A * F;
    if (total > 0xFFFFFFF0u) return sw__fail(err, SW_RESULT_LIMIT, "block size", 0, -1);
    char* mem = NULL;
    size_t size = 0;
    sw_result r = sw__clip_with_payload(b->clip, SW_CLIP_CODEC_FRAMES, (uint32_t)total, b->alloc,
                                        &mem, &size, err);
    if (r != SW_RESULT_OK) return r;
    uint8_t* pl = (uint8_t*)mem + sw_clip_codec_offset((const sw_clip*)(const void*)mem);
    sw_frames_header* h = (sw_frames_header*)(void*)pl;
    h->size = (uint32_t)total;
    h->frames_count = F;
    h->rate = b->rate;
    h->packets_count = P;
    h->animated_count = A;
    h->constants_count = C;
    h->runs_count = runs;
    h->runs_offset = runs_off;
    h->constants_offset = const_off;
    h->frames_offset = frames_off;
    sw_frames_run* run = (sw_frames_run*)(void*)(pl + runs_off) - 1;
    sw_xform4* constants = (sw_xform4*)(void*)(pl + const_off);
    sw_xform4* frames = (sw_xform4*)(void*)(pl + frames_off);
    uint32_t a = 0, c = 0;
    for (uint32_t p = 0; p < P; ++p) {
        const uint32_t k = b->kind[p];
        if (p == 0 || k != b->kind[p - 1u]) {
            ++run;
            run->first = p;
            run->kind = k;
            run->source = k == SW_FRAMES_RUN_ANIMATED ? a : c;
        }
        ++run->count;
        if (k == SW_FRAMES_RUN_CONSTANT) {
            constants[c++] = b->poses[p];
        } else {
            for (uint32_t i = 0; i < F; ++i)
                frames[(size_t)i * A + a] = b->poses[(size_t)i * P + p];
            ++a;
        }
    }
    r = sw_clip_load(mem, size, out, err);
    if (r != SW_RESULT_OK) sw_free(b->alloc, mem, size);
    return r;
}

static bool sw__frames_rate_ok(float r) {
    return isfinite(r) && r >= 0.0f && r <= SW__FRAMES_MAX_RATE;
}

/* Builds at `rate`; measures the error into stats when given. */
static sw_result sw__frames_build_at(const sw_skeleton* skel, const sw_clip* clip,
                                     const sw_frames_options* o, float rate, float grid,
                                     const sw_allocator* alloc, const sw_clip** out,
                                     sw_frames_stats* stats, sw_error* err) {
    sw__frames_build b;
    memset(&b, 0, sizeof b);
    b.skel = skel;
    b.clip = clip;
    b.alloc = alloc;
    b.rate = rate;
    /* Frames hold every key exactly when the rate is a whole multiple of the
     * keys' grid rate. */
    const float ratio = grid > 0.0f ? rate / grid : 0.0f;
    b.on_keys = ratio >= 1.0f && ratio == floorf(ratio);
    b.F = sw__frames_count(clip->duration, b.rate);
    if (b.F > SW_CLIP_MAX_KEYS) return sw__fail(err, SW_RESULT_LIMIT, "frames count", 0, -1);
    b.P = skel->packets_count;
    const uint64_t pose_bytes = (uint64_t)sizeof(sw_xform4) * b.F * b.P;
    if (pose_bytes > (uint64_t)SIZE_MAX / 2u)
        return sw__fail(err, SW_RESULT_LIMIT, "frames count", 0, -1);
    b.poses = (sw_xform4*)sw_alloc(alloc, (size_t)pose_bytes, 16);
    b.kind = (uint8_t*)sw_alloc(alloc, b.P, 16);
    sw_result r = SW_RESULT_OK;
    if (!b.poses || !b.kind) r = sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    if (r == SW_RESULT_OK) r = sw__frames_sample(&b, err);
    if (r == SW_RESULT_OK) {
        sw__frames_classify(&b);
        r = sw__frames_write(&b, out, err);
    }
    if (r == SW_RESULT_OK && stats) {
        memset(stats, 0, sizeof *stats);
        stats->rate = b.rate;
        stats->frames_count = b.F;
        stats->on_keys = b.on_keys;
        for (uint32_t p = 0; p < b.P; ++p) {
            if (b.kind[p] == SW_FRAMES_RUN_CONSTANT) ++stats->constant_packets;
            if (b.kind[p] == SW_FRAMES_RUN_ANIMATED) ++stats->animated_packets;
        }
        stats->raw_bytes = clip->size;
        stats->frames_bytes = (*out)->size;
        float er = o->error_rate > 0.0f ? o->error_rate : 4.0f * b.rate;
        if (er > SW__FRAMES_MAX_RATE) er = SW__FRAMES_MAX_RATE;
        const sw_clip_error_desc ed = {.skeleton = skel,
                                       .reference = clip,
                                       .clip = *out,
                                       .shell = o->shell,
                                       .rate = er,
                                       .at_keys = true};
        r = sw_clip_error_measure(&ed, alloc, &stats->error, err);
        if (r != SW_RESULT_OK) {
            sw_clip_destroy(*out, alloc);
            *out = NULL;
        }
    }
    sw_free(alloc, b.poses, (size_t)pose_bytes);
    sw_free(alloc, b.kind, b.P);
    return r;
}

sw_result sw_frames_build(const sw_skeleton* skel, const sw_clip* clip,
                          const sw_frames_options* options, const sw_allocator* alloc,
                          const sw_clip** out, sw_frames_stats* stats, sw_error* err) {
    sw_result ar = sw__clip_builder_check(skel, clip, out, err);
    if (ar != SW_RESULT_OK) return ar;
    sw_frames_options o;
    memset(&o, 0, sizeof o);
    if (options) o = *options;
    if (!sw__frames_rate_ok(o.rate) || !sw__frames_rate_ok(o.error_rate)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "rates finite in [0, 1000]", 0, -1);
    }
    if (!isfinite(o.shell) || o.shell < 0.0f) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "shell finite >= 0", 0, -1);
    }
    if (!isfinite(o.precision) || o.precision < 0.0f) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "precision finite >= 0", 0, -1);
    }
    const float grid = sw_frames_grid_rate(clip);
    float rate;
    if (o.rate > 0.0f) {
        rate = o.rate;
    } else if (grid > 0.0f) {
        rate = grid;
    } else {
        rate = sw_compress_sample_rate(clip);
        if (rate > SW_FRAMES_DEFAULT_MAX_RATE) rate = SW_FRAMES_DEFAULT_MAX_RATE;
    }
    sw_frames_stats local;
    sw_frames_stats* st = stats ? stats : (o.precision > 0.0f ? &local : NULL);
    for (;;) {
        sw_result r = sw__frames_build_at(skel, clip, &o, rate, grid, alloc, out, st, err);
        if (r != SW_RESULT_OK || !(o.precision > 0.0f) || st->error.max <= o.precision) return r;
        /* nlerp's error between frames falls about 8 times per doubling */
        sw_clip_destroy(*out, alloc);
        *out = NULL;
        if (2.0f * rate > SW__FRAMES_MAX_RATE) {
            return sw__fail(err, SW_RESULT_LIMIT, "error within precision", 0,
                            (int64_t)st->error.worst_joint);
        }
        rate *= 2.0f;
    }
}
