/* Offline bake of mirrored clips: every track carried key by key onto the
 * twin joint through the mirror's linear per-joint map. */
#include "sinew/tools/builders/mirror_bake.h"

#include <stdio.h>
#include <string.h>

#include "shared/fail.h"
#include "sinew/sinew.h"

typedef struct sw__bake {
    const sw_allocator* alloc;
    float** buffers; /* value arrays allocated so far */
    size_t* sizes;
    uint32_t count;
} sw__bake;

static float* sw__bake_floats(sw__bake* b, size_t n) {
    float* p = (float*)sw_alloc(b->alloc, n * sizeof(float), 16);
    if (!p) return NULL;
    b->buffers[b->count] = p;
    b->sizes[b->count] = n * sizeof(float);
    b->count++;
    return p;
}

/* Maps one value (3 or 4 floats) of joint k's twin into k's space. */
static void sw__map_value(const sw_mirror* m, uint32_t k, sw_track_kind kind, const float* in,
                          float* out) {
    sw_xform x;
    memset(&x, 0, sizeof x);
    if (kind == SW_TRACK_KIND_ROTATION) {
        x.r = sw_quat_make(in[0], in[1], in[2], in[3]);
        sw_xform y = sw_mirror_xform(m, k, x);
        out[0] = y.r.x;
        out[1] = y.r.y;
        out[2] = y.r.z;
        out[3] = y.r.w;
    } else if (kind == SW_TRACK_KIND_TRANSLATION) {
        x.t = sw_vec3_make(in[0], in[1], in[2]);
        x.r = sw_quat_identity();
        sw_xform y = sw_mirror_xform(m, k, x);
        out[0] = y.t.x;
        out[1] = y.t.y;
        out[2] = y.t.z;
    } else {
        memcpy(out, in, 3 * sizeof(float));
    }
}

/* Copies track t's interpolation, key count and key times (explicit, or
 * uniform start and rate) into d; the values are the caller's. */
static void sw__copy_keys(const sw_clip* clip, const sw_clip_track* t, sw_clip_track_desc* d) {
    d->interp = (sw_interp)t->interp;
    d->keys_count = t->keys_count;
    d->times = sw_clip_track_times(clip, t);
    d->start = t->start;
    d->rate = t->rate;
}

/* Swapped copy of a name into a pool slot (the name itself when no marker). */
static sw_result sw__swap_into(const char* name, char* slot, size_t cap, sw_error* err,
                               int64_t index) {
    if (!sw_mirror_swap_name(name, 0, slot, cap)) {
        if (strlen(name) + 1 > cap) return sw__fail(err, SW_RESULT_LIMIT, "name length", 0, index);
        memcpy(slot, name, strlen(name) + 1);
    }
    if (strlen(slot) > SW_CLIP_MAX_NAME) {
        return sw__fail(err, SW_RESULT_LIMIT, "swapped name length", 0, index);
    }
    return SW_RESULT_OK;
}

/* Track t of joint k's twin, mirrored key by key into d (kind and joint
 * set). */
static sw_result sw__bake_joint_track(sw__bake* b, const sw_mirror* mirror, const sw_clip* clip,
                                      const sw_clip_track* t, uint32_t k, sw_clip_track_desc* d,
                                      sw_error* err) {
    const sw_track_kind kind = d->kind;
    const uint32_t comps = kind == SW_TRACK_KIND_ROTATION ? 4u : 3u;
    const size_t groups = (size_t)t->keys_count * (t->interp == SW_INTERP_CUBIC ? 3u : 1u);
    float* v = sw__bake_floats(b, groups * comps);
    if (!v) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    const float* in = sw_clip_track_values(clip, t);
    for (size_t g = 0; g < groups; ++g)
        sw__map_value(mirror, k, kind, in + g * comps, v + g * comps);
    sw__copy_keys(clip, t, d);
    d->values = v;
    return SW_RESULT_OK;
}

/* No track on joint k's twin j: a one-key track in d (kind and joint set)
 * of the twin's rest value, mirrored, unless it is already k's rest value
 * (then *added stays false). */
static sw_result sw__bake_rest_track(sw__bake* b, const sw_mirror* mirror, const sw_xform4* rest,
                                     uint32_t j, uint32_t k, sw_clip_track_desc* d, bool* added,
                                     sw_error* err) {
    const sw_track_kind kind = d->kind;
    const uint32_t comps = kind == SW_TRACK_KIND_ROTATION ? 4u : 3u;
    const sw_xform rj = sw_pose_get(rest, j);
    const sw_xform rk = sw_pose_get(rest, k);
    float in[4], mapped[4], own[4];
    if (kind == SW_TRACK_KIND_ROTATION) {
        in[0] = rj.r.x, in[1] = rj.r.y, in[2] = rj.r.z, in[3] = rj.r.w;
        own[0] = rk.r.x, own[1] = rk.r.y, own[2] = rk.r.z, own[3] = rk.r.w;
    } else {
        const sw_vec3 a = kind == SW_TRACK_KIND_TRANSLATION ? rj.t : rj.s;
        const sw_vec3 c = kind == SW_TRACK_KIND_TRANSLATION ? rk.t : rk.s;
        in[0] = a.x, in[1] = a.y, in[2] = a.z, in[3] = 0.0f;
        own[0] = c.x, own[1] = c.y, own[2] = c.z, own[3] = 0.0f;
    }
    sw__map_value(mirror, k, kind, in, mapped);
    float diff = 0.0f, diff_neg = 0.0f;
    for (uint32_t c = 0; c < comps; ++c) {
        diff = fmaxf(diff, fabsf(mapped[c] - own[c]));
        diff_neg = fmaxf(diff_neg, fabsf(mapped[c] + own[c]));
    }
    if (kind == SW_TRACK_KIND_ROTATION) diff = fminf(diff, diff_neg);
    if (diff <= 1e-6f * fmaxf(1.0f, fabsf(own[0]) + fabsf(own[1]) + fabsf(own[2])))
        return SW_RESULT_OK;
    float* v = sw__bake_floats(b, comps);
    if (!v) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    memcpy(v, mapped, comps * sizeof(float));
    d->interp = SW_INTERP_LINEAR;
    d->keys_count = 1;
    d->start = 0.0f;
    d->rate = 1.0f;
    d->values = v;
    *added = true;
    return SW_RESULT_OK;
}

sw_result sw_mirror_bake_clip(const sw_skeleton* skeleton, const sw_mirror* mirror,
                              const sw_clip* clip, const sw_mirror_bake_options* options,
                              const sw_allocator* alloc, const sw_clip** out, sw_error* err) {
    if (!skeleton || !mirror || !clip || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    const uint32_t jc = skeleton->joints_count;
    if (mirror->joints_count != jc || clip->joints_count != jc) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "joint counts equal", 0, -1);
    }
    if (clip->codec != SW_CLIP_CODEC_RAW) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "raw clip", 0, -1);
    }
    if (clip->flags & SW_CLIP_FLAG_ADDITIVE) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "not additive", 0, -1);
    }
    const uint32_t ft = clip->float_tracks_count;
    const uint32_t ev = clip->events_count;
    const size_t max_tracks = (size_t)jc * 3u + ft;
    const size_t slot = SW_CLIP_MAX_NAME + 8u;
    const size_t names_bytes = ((size_t)ft + ev + 1u) * slot;
    sw__bake b = {alloc, NULL, NULL, 0};
    sw_clip_track_desc* tracks =
        (sw_clip_track_desc*)sw_alloc(alloc, max_tracks * sizeof *tracks + 1u, 16);
    sw_clip_event_desc* events =
        (sw_clip_event_desc*)sw_alloc(alloc, (ev + 1u) * sizeof *events, 16);
    char* names = (char*)sw_alloc(alloc, names_bytes, 16);
    b.buffers = (float**)sw_alloc(alloc, max_tracks * sizeof(float*) + 1u, 16);
    b.sizes = (size_t*)sw_alloc(alloc, max_tracks * sizeof(size_t) + 1u, 16);
    sw_result r = SW_RESULT_OK;
    if (!tracks || !events || !names || !b.buffers || !b.sizes) {
        r = sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
        goto done;
    }
    uint32_t n = 0;
    const sw_clip_track* src = sw_clip_tracks(clip);
    const sw_xform4* rest = sw_skeleton_rest_pose(skeleton);
    for (uint32_t k = 0; k < jc && r == SW_RESULT_OK; ++k) {
        const uint32_t j = sw_mirror_twin(mirror, k);
        const uint32_t* jt = sw_clip_joint_tracks(clip, j);
        for (uint32_t kind_i = 0; kind_i < 3 && r == SW_RESULT_OK; ++kind_i) {
            const sw_track_kind kind = (sw_track_kind)(SW_TRACK_KIND_TRANSLATION + (int)kind_i);
            const uint32_t t = jt[kind_i];
            sw_clip_track_desc* d = &tracks[n];
            memset(d, 0, sizeof *d);
            d->kind = kind;
            d->joint = k;
            bool added = false;
            r = t != SW_CLIP_NO_TRACK ? sw__bake_joint_track(&b, mirror, clip, &src[t], k, d, err)
                                      : sw__bake_rest_track(&b, mirror, rest, j, k, d, &added, err);
            if (r == SW_RESULT_OK && (t != SW_CLIP_NO_TRACK || added)) ++n;
        }
    }
    for (uint32_t f = 0; f < ft && r == SW_RESULT_OK; ++f) {
        const sw_clip_track* t = &src[clip->tracks_count - ft + f];
        char* name = names + (size_t)f * slot;
        r = sw__swap_into(sw_clip_float_track_name(clip, f), name, slot, err, (int64_t)f);
        if (r != SW_RESULT_OK) break;
        sw_clip_track_desc* d = &tracks[n++];
        memset(d, 0, sizeof *d);
        d->kind = SW_TRACK_KIND_FLOAT;
        d->name = name;
        sw__copy_keys(clip, t, d);
        d->values = sw_clip_track_values(clip, t);
    }
    for (uint32_t e = 0; e < ev && r == SW_RESULT_OK; ++e) {
        char* name = names + ((size_t)ft + e) * slot;
        r = sw__swap_into(sw_clip_event_name(clip, e), name, slot, err, (int64_t)e);
        events[e].time = sw_clip_events(clip)[e].time;
        events[e].name = name;
    }
    if (r == SW_RESULT_OK) {
        char* cname = names + ((size_t)ft + ev) * slot;
        const char* given = options ? options->name : NULL;
        if (given) {
            if (strlen(given) > SW_CLIP_MAX_NAME) {
                r = sw__fail(err, SW_RESULT_LIMIT, "clip name length", 0, -1);
                goto done;
            }
            memcpy(cname, given, strlen(given) + 1);
        } else {
            int w = snprintf(cname, slot, "%s_mirrored", sw_clip_name(clip));
            if (w < 0 || (size_t)w > SW_CLIP_MAX_NAME) {
                r = sw__fail(err, SW_RESULT_LIMIT, "clip name length", 0, -1);
                goto done;
            }
        }
        sw_clip_desc cd;
        memset(&cd, 0, sizeof cd);
        cd.name = cname;
        cd.duration = clip->duration;
        cd.joints_count = jc;
        cd.tracks = tracks;
        cd.tracks_count = n;
        cd.events = events;
        cd.events_count = ev;
        r = sw_clip_create(&cd, alloc, out, err);
    }
done:
    for (uint32_t i = 0; i < b.count; ++i)
        sw_free(alloc, b.buffers[i], b.sizes[i]);
    sw_free(alloc, b.buffers, max_tracks * sizeof(float*) + 1u);
    sw_free(alloc, b.sizes, max_tracks * sizeof(size_t) + 1u);
    sw_free(alloc, tracks, max_tracks * sizeof *tracks + 1u);
    sw_free(alloc, events, (ev + 1u) * sizeof *events);
    sw_free(alloc, names, names_bytes);
    return r;
}

sw_result sw_mirror_bind_frames(const sw_skeleton* skeleton, const sw_mesh* const* meshes,
                                uint32_t meshes_count, sw_mat4* out, uint32_t out_count) {
    if (!skeleton || !out || (meshes_count && !meshes)) return SW_RESULT_INVALID_ARGUMENT;
    if (out_count < skeleton->joints_count) return SW_RESULT_BUFFER_TOO_SMALL;
    for (uint32_t i = 0; i < meshes_count; ++i) {
        if (!meshes[i] || meshes[i]->skeleton_joints_count != skeleton->joints_count)
            return SW_RESULT_INVALID_ARGUMENT;
    }
    sw_local_to_model_job job = {.skeleton = skeleton,
                                 .local = sw_skeleton_rest_pose(skeleton),
                                 .local_count = skeleton->packets_count,
                                 .out = out,
                                 .out_count = out_count};
    sw_result r = sw_local_to_model_job_run(&job);
    if (r != SW_RESULT_OK) return r;
    for (uint32_t i = meshes_count; i-- > 0;) { /* backwards: the first mesh wins */
        const sw_mesh* m = meshes[i];
        const uint16_t* pal = sw_mesh_palette(m);
        const sw_mat4* ib = sw_mesh_inverse_binds(m);
        for (uint32_t p = m->palette_count; p-- > 0;) {
            sw_mat4 bind;
            if (!sw_mat4_inverse_affine(&ib[p], &bind)) return SW_RESULT_BAD_DATA;
            out[pal[p]] = bind;
        }
    }
    return SW_RESULT_OK;
}
