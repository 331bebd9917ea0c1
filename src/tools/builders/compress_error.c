/* The error metric (ACL's virtual vertices) and the uniform sampling the
 * compressor shares with it. */
#include <stdlib.h>
#include <string.h>

#include "compress_internal.h"
#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/compress.h"

/* Grid tolerance on key times (seconds). */
#define SW__GRID_TOL 1e-5

bool sw__clip_on_grid(const sw_clip* clip, double rate) {
    const uint32_t joint_tracks = clip->tracks_count - clip->float_tracks_count;
    const sw_clip_track* tracks = sw_clip_tracks(clip);
    for (uint32_t i = 0; i < joint_tracks; ++i) {
        const sw_clip_track* t = &tracks[i];
        for (uint32_t k = 0; k < t->keys_count; ++k) {
            const double tk = (double)sw_clip_track_key_time(clip, t, k);
            const double g = floor(tk * rate + 0.5) / rate;
            if (!(fabs(tk - g) <= SW__GRID_TOL)) return false;
        }
    }
    return true;
}

/* The shortest interval between two keys of one joint track; INFINITY when
 * no track has two keys. */
static double sw__shortest_key_interval(const sw_clip* clip) {
    double min_dt = INFINITY;
    const uint32_t joint_tracks = clip->tracks_count - clip->float_tracks_count;
    const sw_clip_track* tracks = sw_clip_tracks(clip);
    for (uint32_t i = 0; i < joint_tracks; ++i) {
        const sw_clip_track* t = &tracks[i];
        if (t->keys_count < 2u) continue;
        if (t->uniform) {
            if (1.0 / (double)t->rate < min_dt) min_dt = 1.0 / (double)t->rate;
            continue;
        }
        for (uint32_t k = 1; k < t->keys_count; ++k) {
            const double dt = (double)sw_clip_track_key_time(clip, t, k) -
                              (double)sw_clip_track_key_time(clip, t, k - 1u);
            if (dt > 0.0 && dt < min_dt) min_dt = dt;
        }
    }
    return min_dt;
}

/* The rate every joint track with two keys or more shares, uniform from
 * time 0; 0 when they differ or none has two keys. */
static float sw__clip_uniform_rate(const sw_clip* clip) {
    float rate = 0.0f;
    const uint32_t joint_tracks = clip->tracks_count - clip->float_tracks_count;
    const sw_clip_track* tracks = sw_clip_tracks(clip);
    for (uint32_t i = 0; i < joint_tracks; ++i) {
        const sw_clip_track* t = &tracks[i];
        if (t->keys_count < 2u) continue;
        if (!t->uniform || t->start != 0.0f || (rate > 0.0f && t->rate != rate)) return 0.0f;
        rate = t->rate;
    }
    return rate;
}

float sw_compress_sample_rate(const sw_clip* clip) {
    if (!clip) return 30.0f;
    const double min_dt = sw__shortest_key_interval(clip);
    if (!(min_dt < INFINITY)) return 30.0f;
    const double need = 1.0 / min_dt;
    /* The smallest whole rate, from the densest keys' own, whose grid holds
     * every key. */
    double r = ceil(need - 1e-3);
    for (r = r < 1.0 ? 1.0 : r; r <= (double)SW_COMPRESS_MAX_AUTO_RATE; r += 1.0)
        if (sw__clip_on_grid(clip, r)) return (float)r;
    /* One uniform key rate from time 0 (01_03.bvh: 120.0005 Hz): the
     * samples are the keys. */
    const float own = sw__clip_uniform_rate(clip);
    if (own > 0.0f && own <= SW_COMPRESS_MAX_AUTO_RATE) return own;
    /* Uneven keys: a sample per shortest interval. */
    double best = floor(need * 1000.0 + 0.5) / 1000.0;
    if (best < 1.0) best = 1.0;
    if (best > (double)SW_COMPRESS_MAX_AUTO_RATE) best = (double)SW_COMPRESS_MAX_AUTO_RATE;
    return (float)best;
}

uint32_t sw_compress_samples_count(const sw_clip* clip, float rate) {
    if (!clip || !(rate > 0.0f) || !isfinite(rate)) return 0;
    double n = ceil((double)clip->duration * (double)rate - 1e-3) + 1.0;
    if (n < 2.0) n = 2.0;
    if (n > (double)SW_CLIP_MAX_KEYS) return SW_CLIP_MAX_KEYS + 1u;
    return (uint32_t)n;
}

float sw__compress_time(uint32_t i, float rate, float duration) {
    float t = (float)i / rate;
    return t < duration ? t : duration;
}

void sw__compress_mat_from(const float t[3], const float q[4], const float s[3], double m[12]) {
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double xx = x * x, yy = y * y, zz = z * z;
    const double xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
    /* columns: X, Y, Z axes scaled, then translation */
    m[0] = (1.0 - 2.0 * (yy + zz)) * s[0];
    m[1] = (2.0 * (xy + wz)) * s[0];
    m[2] = (2.0 * (xz - wy)) * s[0];
    m[3] = (2.0 * (xy - wz)) * s[1];
    m[4] = (1.0 - 2.0 * (xx + zz)) * s[1];
    m[5] = (2.0 * (yz + wx)) * s[1];
    m[6] = (2.0 * (xz + wy)) * s[2];
    m[7] = (2.0 * (yz - wx)) * s[2];
    m[8] = (1.0 - 2.0 * (xx + yy)) * s[2];
    m[9] = t[0];
    m[10] = t[1];
    m[11] = t[2];
}

void sw__compress_mat_mul(const double a[12], const double b[12], double out[12]) {
    for (uint32_t c = 0; c < 4u; ++c) {
        for (uint32_t r = 0; r < 3u; ++r) {
            double v = a[r] * b[3u * c] + a[3u + r] * b[3u * c + 1u] + a[6u + r] * b[3u * c + 2u];
            if (c == 3u) v += a[9u + r];
            out[3u * c + r] = v;
        }
    }
}

double sw__compress_vertex_error(const double a[12], const double b[12], double shell) {
    double worst = 0.0;
    for (uint32_t axis = 0; axis < 3u; ++axis) {
        /* The local vertex lies at `shell` from the joint in model space
         * under the reference (a): shell over a's scale along the axis. */
        const double* col = a + 3u * axis;
        const double len = sqrt(col[0] * col[0] + col[1] * col[1] + col[2] * col[2]);
        const double at = len > 0.0 ? shell / len : shell;
        double d2 = 0.0;
        for (uint32_t r = 0; r < 3u; ++r) {
            double d = at * (a[3u * axis + r] - b[3u * axis + r]) + (a[9u + r] - b[9u + r]);
            d2 += d * d;
        }
        if (d2 > worst) worst = d2;
    }
    return sqrt(worst);
}

/* True when a step track of the reference has a key at time b (within
 * 1e-6 s): the reference jumps there, which no interpolation between two
 * samples follows, so the interval ending at b is measured at its ends only. */
static bool sw__step_jump_at(const sw_clip* ref, const sw_clip_track* tracks, uint32_t joint_tracks,
                             float b) {
    for (uint32_t i = 0; i < joint_tracks; ++i) {
        if (tracks[i].interp != SW_INTERP_STEP || tracks[i].keys_count < 2u) continue;
        uint32_t lo = 1u, hi = tracks[i].keys_count; /* the first key cannot jump */
        while (lo < hi) {
            const uint32_t mid = lo + (hi - lo) / 2u;
            if ((double)sw_clip_track_key_time(ref, &tracks[i], mid) < (double)b - 1e-6)
                lo = mid + 1u;
            else
                hi = mid;
        }
        if (lo < tracks[i].keys_count &&
            (double)sw_clip_track_key_time(ref, &tracks[i], lo) <= (double)b + 1e-6)
            return true;
    }
    return false;
}

static int sw__float_less(const void* a, const void* b) {
    float x = *(const float*)a, y = *(const float*)b;
    return (x > y) - (x < y);
}

/* The measured times into *times (*count of them, *bytes allocated from
 * alloc): the uniform samples at rate, and with at_keys also the
 * reference's joint key times; ascending, each once (a key one float ulp
 * after the last sample, the end of a clip a whole number of samples long
 * only up to rounding, is measured too); then `between` more evenly spaced
 * between every two (none, the start repeated, in an interval that ends
 * where a step track jumps). */
static sw_result sw__error_times(const sw_clip_error_desc* d, float rate, uint32_t N,
                                 const sw_allocator* alloc, float** times, uint32_t* count,
                                 size_t* bytes, sw_error* err) {
    const sw_clip* ref = d->reference;
    const float duration = ref->duration;
    uint64_t keys = 0;
    const uint32_t joint_tracks = ref->tracks_count - ref->float_tracks_count;
    const sw_clip_track* tracks = sw_clip_tracks(ref);
    if (d->at_keys) {
        for (uint32_t i = 0; i < joint_tracks; ++i)
            keys += tracks[i].keys_count;
    }
    const uint64_t parts = (uint64_t)d->between + 1u;
    const uint64_t cap = ((uint64_t)N + keys) * parts;
    if (cap > 2u * (uint64_t)SW_CLIP_MAX_KEYS * parts)
        return sw__fail(err, SW_RESULT_LIMIT, "measured times", 0, -1);
    *bytes = sizeof(float) * (size_t)cap;
    float* t = (float*)sw_alloc(alloc, *bytes, 16);
    if (!t) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < N; ++i)
        t[n++] = sw__compress_time(i, rate, duration);
    for (uint32_t i = 0; i < joint_tracks && d->at_keys; ++i) {
        for (uint32_t k = 0; k < tracks[i].keys_count; ++k) {
            const float tk = sw_clip_track_key_time(ref, &tracks[i], k);
            t[n++] = tk < 0.0f ? 0.0f : (tk > duration ? duration : tk);
        }
    }
    qsort(t, n, sizeof(float), sw__float_less);
    uint32_t u = 0;
    for (uint32_t i = 0; i < n; ++i)
        if (u == 0 || t[i] > t[u - 1u]) t[u++] = t[i];
    bool steps = false; /* a step track: its jumps are looked for */
    for (uint32_t i = 0; i < joint_tracks; ++i)
        if (tracks[i].interp == SW_INTERP_STEP) steps = true;
    if (u > 1u && parts > 1u) {
        /* spread from the end down, each interval's times after its start */
        const uint32_t total = (u - 1u) * (uint32_t)parts + 1u;
        t[total - 1u] = t[u - 1u];
        for (uint32_t i = u - 1u; i-- > 0u;) {
            const double a = t[i], b = t[i + 1u];
            const bool jump = steps && sw__step_jump_at(ref, tracks, joint_tracks, t[i + 1u]);
            for (uint32_t k = (uint32_t)parts; k-- > 0u;)
                t[i * (uint32_t)parts + k] =
                    (float)(jump ? a : a + (b - a) * (double)k / (double)parts);
        }
        u = total;
    }
    *times = t;
    *count = u;
    return SW_RESULT_OK;
}

/* Model matrices (3x4, double) of the sampled local pose into m[J][12]:
 * the hierarchy in double precision, as the compressor's search measures
 * it, so that a deep chain's float rounding is not taken for (or hidden in)
 * the codec's error. */
static void sw__error_model(const sw_skeleton* skel, const sw_xform4* pose, double* m) {
    const int16_t* parents = sw_skeleton_parents(skel);
    for (uint32_t j = 0; j < skel->joints_count; ++j) {
        const sw_xform x = sw_xform4_get(&pose[j >> 2], j & 3u);
        const float t[3] = {x.t.x, x.t.y, x.t.z}, q[4] = {x.r.x, x.r.y, x.r.z, x.r.w};
        const float s[3] = {x.s.x, x.s.y, x.s.z};
        double l[12];
        sw__compress_mat_from(t, q, s, l);
        if (parents[j] < 0)
            memcpy(m + 12u * j, l, sizeof l);
        else
            sw__compress_mat_mul(m + 12u * (uint32_t)parents[j], l, m + 12u * j);
    }
}

/* Error of every joint of the two clips at time t into e[J]; the work
 * buffers hold two poses and two model palettes of J * 12 doubles. */
static sw_result sw__error_at(const sw_clip_error_desc* d, float t, double shell, sw_xform4* pa,
                              sw_xform4* pb, double* ma, double* mb, float* e) {
    const sw_skeleton* skel = d->skeleton;
    const uint32_t P = skel->packets_count, J = skel->joints_count;
    const sw_sample_job ja = {
        .clip = d->reference, .skeleton = skel, .time = t, .out = pa, .out_count = P};
    const sw_sample_job jb = {
        .clip = d->clip, .skeleton = skel, .time = t, .out = pb, .out_count = P};
    sw_result r;
    if ((r = sw_sample_job_run(&ja)) != SW_RESULT_OK) return r;
    if ((r = sw_sample_job_run(&jb)) != SW_RESULT_OK) return r;
    sw__error_model(skel, pa, ma);
    sw__error_model(skel, pb, mb);
    for (uint32_t j = 0; j < J; ++j)
        e[j] = (float)sw__compress_vertex_error(ma + 12u * j, mb + 12u * j, shell);
    return SW_RESULT_OK;
}

/* The desc's pointers, counts and values in range. */
static sw_result sw__error_check(const sw_clip_error_desc* d, const sw_clip_error* out,
                                 sw_error* err) {
    if (!d || !out || !d->skeleton || !d->reference || !d->clip) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    const uint32_t J = d->skeleton->joints_count;
    if (d->reference->joints_count != J || d->clip->joints_count != J) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "joint counts match", 0, -1);
    }
    if (!isfinite(d->shell) || d->shell < 0.0f) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "shell finite >= 0", 0, -1);
    }
    if (!isfinite(d->rate) || d->rate < 0.0f) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "rate finite >= 0", 0, -1);
    }
    if ((d->at_keys || d->between) && d->errors) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "errors without at_keys or between", 0,
                        -1);
    }
    if (d->between > 15u) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "between <= 15", 0, -1);
    }
    return SW_RESULT_OK;
}

sw_result sw_clip_error_measure(const sw_clip_error_desc* d, const sw_allocator* alloc,
                                sw_clip_error* out, sw_error* err) {
    sw_result r = sw__error_check(d, out, err);
    if (r != SW_RESULT_OK) return r;
    const sw_skeleton* skel = d->skeleton;
    const uint32_t J = skel->joints_count;
    const double shell = d->shell > 0.0f ? d->shell : 1.0;
    const float rate = d->rate > 0.0f ? d->rate : sw_compress_sample_rate(d->reference);
    const uint32_t N = sw_compress_samples_count(d->reference, rate);
    if (N > SW_CLIP_MAX_KEYS) return sw__fail(err, SW_RESULT_LIMIT, "samples count", 0, -1);
    if (d->errors && d->errors_count < (uint64_t)N * J) {
        return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "errors >= samples * joints", 0, -1);
    }
    float* times = NULL;
    uint32_t T = 0;
    size_t times_bytes = 0;
    r = sw__error_times(d, rate, N, alloc, &times, &T, &times_bytes, err);
    if (r != SW_RESULT_OK) return r;
    const uint64_t total = (uint64_t)T * J;
    const size_t pose_bytes = sizeof(sw_xform4) * skel->packets_count;
    const size_t mats_bytes = sizeof(double) * 12u * J;
    const size_t mem_bytes = 2u * pose_bytes + 2u * mats_bytes;
    const size_t all_bytes = sizeof(float) * (size_t)total;
    char* mem = (char*)sw_alloc(alloc, mem_bytes, 16);
    float* all = (float*)sw_alloc(alloc, all_bytes, 16);
    if (!mem || !all) {
        sw_free(alloc, mem, mem_bytes);
        sw_free(alloc, all, all_bytes);
        sw_free(alloc, times, times_bytes);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    }
    out->max = 0.0f;
    out->worst_joint = 0;
    out->worst_time = 0.0f;
    out->samples_count = T;
    if (d->joint_max) memset(d->joint_max, 0, sizeof(float) * J);
    for (uint32_t i = 0; i < T && r == SW_RESULT_OK; ++i) {
        float* e = all + (size_t)i * J;
        r = sw__error_at(d, times[i], shell, (sw_xform4*)(void*)mem,
                         (sw_xform4*)(void*)(mem + pose_bytes),
                         (double*)(void*)(mem + 2u * pose_bytes),
                         (double*)(void*)(mem + 2u * pose_bytes + mats_bytes), e);
        for (uint32_t j = 0; j < J && r == SW_RESULT_OK; ++j) {
            if (d->joint_max && e[j] > d->joint_max[j]) d->joint_max[j] = e[j];
            if (e[j] > out->max) {
                out->max = e[j];
                out->worst_joint = j;
                out->worst_time = times[i];
            }
        }
    }
    if (r == SW_RESULT_OK) {
        if (d->errors) memcpy(d->errors, all, all_bytes);
        qsort(all, (size_t)total, sizeof(float), sw__float_less);
        /* nearest rank */
        uint64_t rank = (uint64_t)ceil(0.99 * (double)total);
        if (rank < 1u) rank = 1u;
        out->p99 = all[rank - 1u];
    }
    sw_free(alloc, mem, mem_bytes);
    sw_free(alloc, all, all_bytes);
    sw_free(alloc, times, times_bytes);
    if (r != SW_RESULT_OK) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "sampling", 0, -1);
    return SW_RESULT_OK;
}
