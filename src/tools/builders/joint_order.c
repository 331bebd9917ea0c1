/* The detail-major joint order and the rewrite of a scene in a joint order.
 * Scratch arrays live on the stack (at most SW_SKELETON_MAX_JOINTS entries);
 * the rewritten objects and the desc arrays of one clip are allocated. */
#include <string.h>

#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/joint_order.h"

sw_result sw_joint_order_by_detail(const sw_skeleton* s, const uint8_t* detail,
                                   uint32_t detail_count, uint16_t* order, uint32_t order_count,
                                   sw_error* err) {
    if (!s || !detail || !order) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    const uint32_t n = s->joints_count;
    if (detail_count < n) return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "detail count", 0, -1);
    if (order_count < n) return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "order count", 0, -1);
    const int16_t* parents = sw_skeleton_parents(s);
    uint8_t e[SW_SKELETON_MAX_JOINTS];
    uint32_t counts[257];
    memset(counts, 0, sizeof counts);
    for (uint32_t j = 0; j < n; ++j) { /* parents first: e[parent] is known */
        const uint8_t up = parents[j] < 0 ? 0u : e[parents[j]];
        e[j] = detail[j] > up ? detail[j] : up;
        ++counts[e[j] + 1u];
    }
    for (uint32_t v = 1; v < 257u; ++v) /* counts[v]: first slot of value v */
        counts[v] += counts[v - 1u];
    for (uint32_t j = 0; j < n; ++j) /* a counting sort is stable */
        order[counts[e[j]]++] = (uint16_t)j;
    return SW_RESULT_OK;
}

/* to_new[old] = new index from order, checking it is a parent-first
 * permutation of s's joints. */
static sw_result sw__order_inverse(const sw_skeleton* s, const uint16_t* order, uint16_t* to_new,
                                   sw_error* err) {
    const uint32_t n = s->joints_count;
    const int16_t* parents = sw_skeleton_parents(s);
    memset(to_new, 0xFF, n * sizeof *to_new);
    for (uint32_t k = 0; k < n; ++k) {
        if (order[k] >= n || to_new[order[k]] != 0xFFFFu) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "order is a permutation", 0, (int64_t)k);
        }
        to_new[order[k]] = (uint16_t)k;
    }
    for (uint32_t k = 0; k < n; ++k) {
        const int16_t p = parents[order[k]];
        if (p >= 0 && to_new[p] > k) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "parent in order before child", 0, (int64_t)k);
        }
    }
    return SW_RESULT_OK;
}

static sw_result sw__reorder_skeleton(const sw_skeleton* s, const uint16_t* order,
                                      const uint16_t* to_new, const sw_allocator* alloc,
                                      const sw_skeleton** out, sw_error* err) {
    sw_skeleton_joint joints[SW_SKELETON_MAX_JOINTS];
    const int16_t* parents = sw_skeleton_parents(s);
    for (uint32_t k = 0; k < s->joints_count; ++k) {
        const uint32_t j = order[k];
        joints[k] = (sw_skeleton_joint){.name = sw_skeleton_joint_name(s, j),
                                        .parent = parents[j] < 0 ? -1 : (int32_t)to_new[parents[j]],
                                        .rest = sw_pose_get(sw_skeleton_rest_pose(s), j)};
    }
    const sw_skeleton_desc d = {.joints = joints, .joints_count = s->joints_count};
    return sw_skeleton_create(&d, alloc, out, err);
}

/* A raw clip with its joint tracks moved to the new joint indices; keys,
 * float tracks and events as they are. */
static sw_result sw__reorder_clip(const sw_clip* c, const uint16_t* to_new,
                                  const sw_allocator* alloc, const sw_clip** out, sw_error* err) {
    const uint32_t nt = c->tracks_count, ne = c->events_count;
    const uint32_t first_float = nt - c->float_tracks_count;
    sw_clip_track_desc* tracks =
        (sw_clip_track_desc*)sw_alloc(alloc, (nt + 1u) * sizeof *tracks, 16);
    sw_clip_event_desc* events =
        (sw_clip_event_desc*)sw_alloc(alloc, (ne + 1u) * sizeof *events, 16);
    sw_result r = SW_RESULT_OK;
    if (!tracks || !events) {
        r = sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    } else {
        const sw_clip_track* src = sw_clip_tracks(c);
        for (uint32_t t = 0; t < nt; ++t) {
            const bool joint = t < first_float;
            tracks[t] = (sw_clip_track_desc){
                .kind = (sw_track_kind)src[t].kind,
                .joint = joint ? to_new[src[t].target] : 0u,
                .name = joint ? NULL : sw_clip_float_track_name(c, t - first_float),
                .interp = (sw_interp)src[t].interp,
                .keys_count = src[t].keys_count,
                .times = sw_clip_track_times(c, &src[t]),
                .start = src[t].start,
                .rate = src[t].rate,
                .values = sw_clip_track_values(c, &src[t])};
        }
        for (uint32_t e = 0; e < ne; ++e)
            events[e] = (sw_clip_event_desc){.time = sw_clip_events(c)[e].time,
                                             .name = sw_clip_event_name(c, e)};
        const sw_clip_desc d = {.name = sw_clip_name(c),
                                .duration = c->duration,
                                .joints_count = c->joints_count,
                                .additive = (c->flags & SW_CLIP_FLAG_ADDITIVE) != 0u,
                                .tracks = tracks,
                                .tracks_count = nt,
                                .events = events,
                                .events_count = ne};
        r = sw_clip_create(&d, alloc, out, err);
    }
    sw_free(alloc, tracks, (nt + 1u) * sizeof *tracks);
    sw_free(alloc, events, (ne + 1u) * sizeof *events);
    return r;
}

/* A copy of the mesh block with its palette on the new joint indices. */
static sw_result sw__reorder_mesh(const sw_mesh* m, const uint16_t* to_new,
                                  const sw_allocator* alloc, const sw_mesh** out, sw_error* err) {
    void* mem = sw_alloc(alloc, m->size, 16);
    if (!mem) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    memcpy(mem, m, m->size);
    uint16_t* palette = (uint16_t*)(void*)((char*)mem + m->palette_offset);
    for (uint32_t i = 0; i < m->palette_count; ++i)
        palette[i] = to_new[palette[i]];
    const sw_result r = sw_mesh_load(mem, m->size, out, err);
    if (r != SW_RESULT_OK) sw_free(alloc, mem, m->size);
    return r;
}

/* Clips and meshes of `in` fit its skeleton (counts), clips are raw. */
static sw_result sw__reorder_check(const sw_scene* in, sw_error* err) {
    const uint32_t n = in->skeleton->joints_count;
    for (uint32_t i = 0; i < in->clips_count; ++i) {
        if (in->clips[i]->codec != SW_CLIP_CODEC_RAW)
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "raw clip", 0, (int64_t)i);
        if (in->clips[i]->joints_count != n)
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clip joint count", 0, (int64_t)i);
    }
    for (uint32_t i = 0; i < in->meshes_count; ++i) {
        if (in->meshes[i]->skeleton_joints_count != n)
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "mesh joint count", 0, (int64_t)i);
    }
    return SW_RESULT_OK;
}

sw_result sw_scene_reorder_joints(const sw_scene* in, const uint16_t* order,
                                  const sw_allocator* alloc, sw_scene* out, sw_error* err) {
    if (out) memset(out, 0, sizeof *out);
    if (!in || !in->skeleton || !order || !out || (in->clips_count && !in->clips) ||
        (in->meshes_count && !in->meshes)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    uint16_t to_new[SW_SKELETON_MAX_JOINTS];
    sw_result r = sw__order_inverse(in->skeleton, order, to_new, err);
    if (r == SW_RESULT_OK) r = sw__reorder_check(in, err);
    if (r != SW_RESULT_OK) return r;
    const size_t cb = sizeof(*out->clips) * in->clips_count,
                 mb = sizeof(*out->meshes) * in->meshes_count;
    out->clips = cb ? (const sw_clip**)sw_alloc(alloc, cb, _Alignof(void*)) : NULL;
    out->meshes = mb ? (const sw_mesh**)sw_alloc(alloc, mb, _Alignof(void*)) : NULL;
    if ((cb && !out->clips) || (mb && !out->meshes)) {
        sw_free(alloc, (void*)out->clips, cb);
        sw_free(alloc, (void*)out->meshes, mb);
        memset(out, 0, sizeof *out);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    }
    if (cb) memset((void*)out->clips, 0, cb);
    if (mb) memset((void*)out->meshes, 0, mb);
    out->clips_count = in->clips_count;
    out->meshes_count = in->meshes_count;
    memcpy(out->warning, in->warning, sizeof out->warning);
    r = sw__reorder_skeleton(in->skeleton, order, to_new, alloc, &out->skeleton, err);
    for (uint32_t i = 0; i < in->clips_count && r == SW_RESULT_OK; ++i)
        r = sw__reorder_clip(in->clips[i], to_new, alloc, &out->clips[i], err);
    for (uint32_t i = 0; i < in->meshes_count && r == SW_RESULT_OK; ++i)
        r = sw__reorder_mesh(in->meshes[i], to_new, alloc, &out->meshes[i], err);
    if (r != SW_RESULT_OK) sw_scene_free(out, alloc);
    return r;
}
