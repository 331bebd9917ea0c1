/* A showcase run recorded frame by frame and merged into one scene
 * (sinew/showcase/recording.h). */
#include <stdio.h>
#include <string.h>

#include "shared/fail.h"
#include "sinew/showcase/recording.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/clip_recorder.h"

#define SW__REC_NAME 300 /* bytes per merged joint name */

typedef struct sw__rec_actor {
    sw_xform* world;  /* frames_max */
    sw_xform4* local; /* frames_max * packets */
    uint32_t packets;
} sw__rec_actor;

struct sw_showcase_recording {
    sw_allocator alloc;
    const sw_showcase* scene;
    uint32_t actors_count;
    uint32_t joints_count; /* merged: root, a placement per actor, the actors' joints */
    uint32_t meshes_count;
    uint32_t frames, frames_max;
    sw__rec_actor actors[SW_SHOWCASE_MAX_ACTORS];
};

void sw_showcase_recording_destroy(sw_showcase_recording* rec) {
    if (!rec) return;
    const sw_allocator a = rec->alloc;
    for (uint32_t i = 0; i < rec->actors_count; ++i) {
        const sw__rec_actor* r = &rec->actors[i];
        sw_free(&a, r->world, (size_t)rec->frames_max * sizeof(sw_xform));
        sw_free(&a, r->local, (size_t)rec->frames_max * r->packets * sizeof(sw_xform4));
    }
    sw_free(&a, rec, sizeof *rec);
}

sw_result sw_showcase_recording_create(const sw_showcase* scene, uint32_t frames,
                                       const sw_allocator* alloc, sw_showcase_recording** out,
                                       sw_error* err) {
    sw__fail(err, SW_RESULT_OK, NULL, 0, -1);
    if (!out) return SW_RESULT_INVALID_ARGUMENT;
    *out = NULL;
    if (!scene || frames == 0) return SW_RESULT_INVALID_ARGUMENT;
    const uint32_t na = sw_showcase_actors_count(scene);
    uint32_t joints = 1, meshes = 0;
    for (uint32_t i = 0; i < na; ++i) {
        const sw_showcase_actor a = sw_showcase_get_actor(scene, i);
        joints += 1u + a.skeleton->joints_count;
        meshes += a.meshes_count;
    }
    if (joints > SW_SKELETON_MAX_JOINTS) {
        sw__fail(err, SW_RESULT_LIMIT, "merged joints fit one skeleton", 0, -1);
        return SW_RESULT_LIMIT;
    }
    sw_showcase_recording* rec = (sw_showcase_recording*)sw_alloc(alloc, sizeof *rec, 16);
    if (!rec) return SW_RESULT_OUT_OF_MEMORY;
    memset(rec, 0, sizeof *rec);
    if (alloc) rec->alloc = *alloc;
    rec->scene = scene;
    rec->joints_count = joints;
    rec->meshes_count = meshes;
    rec->frames_max = frames;
    for (uint32_t i = 0; i < na; ++i) {
        sw__rec_actor* r = &rec->actors[rec->actors_count++];
        r->packets = sw_showcase_get_actor(scene, i).skeleton->packets_count;
        r->world = (sw_xform*)sw_alloc(alloc, (size_t)frames * sizeof(sw_xform), 16);
        r->local = (sw_xform4*)sw_alloc(alloc, (size_t)frames * r->packets * sizeof(sw_xform4), 16);
        if (!r->world || !r->local) {
            sw_showcase_recording_destroy(rec);
            sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
            return SW_RESULT_OUT_OF_MEMORY;
        }
    }
    *out = rec;
    return SW_RESULT_OK;
}

sw_result sw_showcase_recording_add(sw_showcase_recording* rec, const sw_showcase* scene) {
    if (!rec || !scene || scene != rec->scene ||
        sw_showcase_actors_count(scene) != rec->actors_count)
        return SW_RESULT_INVALID_ARGUMENT;
    if (rec->frames == rec->frames_max) return SW_RESULT_LIMIT;
    const uint32_t f = rec->frames++;
    for (uint32_t i = 0; i < rec->actors_count; ++i) {
        const sw_showcase_actor a = sw_showcase_get_actor(scene, i);
        sw__rec_actor* r = &rec->actors[i];
        sw_mat4_decompose(&a.world, &r->world[f]);
        memcpy(r->local + (size_t)f * r->packets, a.local, r->packets * sizeof(sw_xform4));
    }
    return SW_RESULT_OK;
}

sw_result sw_showcase_recording_pose(const sw_showcase_recording* rec, uint32_t actor,
                                     uint32_t frame, sw_xform* world, const sw_xform4** local) {
    if (!rec || !world || !local || actor >= rec->actors_count || frame >= rec->frames)
        return SW_RESULT_INVALID_ARGUMENT;
    const sw__rec_actor* r = &rec->actors[actor];
    *world = r->world[frame];
    *local = r->local + (size_t)frame * r->packets;
    return SW_RESULT_OK;
}

uint32_t sw_showcase_recording_frames(const sw_showcase_recording* rec) {
    return rec ? rec->frames : 0u;
}

/* ---- the merged scene ---- */

/* Scratch of a build: the merged joints and their names, the track descs
 * and their values (at most T, R and S: 10 floats per joint and frame), one
 * joint's frames gathered (T, R and S each packed: 10 floats per frame). */
typedef struct sw__rec_build {
    const sw_showcase_recording* rec;
    const sw_allocator* alloc;
    sw_skeleton_joint* joints;
    char* names;
    sw_clip_track_desc* tracks;
    float* values;
    float* scratch;
    uint32_t tracks_count;
    float* next; /* first free value */
} sw__rec_build;

/* Frame f of the joint gathered in b->scratch. */
static void sw__rec_frame(const sw__rec_build* b, uint32_t f, sw_xform x) {
    const uint32_t frames = b->rec->frames;
    memcpy(b->scratch + 3u * f, &x.t, 3 * sizeof(float));
    memcpy(b->scratch + 3u * frames + 4u * f, &x.r, 4 * sizeof(float));
    memcpy(b->scratch + 7u * frames + 3u * f, &x.s, 3 * sizeof(float));
}

/* Appends the T, R and S tracks of merged joint `joint` from the frames
 * gathered in b->scratch, rotations on one hemisphere; a track whose frames
 * all equal the first keeps one key. */
static void sw__rec_tracks(sw__rec_build* b, uint32_t joint, double fps) {
    static const sw_track_kind kinds[3] = {SW_TRACK_KIND_TRANSLATION, SW_TRACK_KIND_ROTATION,
                                           SW_TRACK_KIND_SCALE};
    static const uint32_t comps[3] = {3, 4, 3}, offs[3] = {0, 3, 7};
    const uint32_t frames = b->rec->frames;
    sw_rotation_keys_continuous(b->scratch + 3u * frames, frames);
    for (uint32_t k = 0; k < 3; ++k) {
        const float* src = b->scratch + (size_t)offs[k] * frames;
        const size_t n = (size_t)frames * comps[k];
        bool constant = true;
        for (size_t v = comps[k]; v < n && constant; ++v)
            constant = src[v] == src[v % comps[k]];
        const uint32_t keys = constant ? 1u : frames;
        float* dst = b->next;
        memcpy(dst, src, (size_t)keys * comps[k] * sizeof(float));
        b->next = dst + (size_t)keys * comps[k];
        b->tracks[b->tracks_count++] = (sw_clip_track_desc){.joint = joint,
                                                            .kind = kinds[k],
                                                            .keys_count = keys,
                                                            .start = 0.0f,
                                                            .rate = (float)fps,
                                                            .values = dst};
    }
}

/* The merged joints of actor i from joint `at` (its placement) on, and
 * their tracks. */
static void sw__rec_actor_joints(sw__rec_build* b, uint32_t i, uint32_t at, double fps) {
    const sw_showcase_actor a = sw_showcase_get_actor(b->rec->scene, i);
    const sw__rec_actor* r = &b->rec->actors[i];
    const sw_skeleton* s = a.skeleton;
    const uint32_t frames = b->rec->frames;
    snprintf(b->names + at * SW__REC_NAME, SW__REC_NAME, "%s", a.name);
    b->joints[at] = (sw_skeleton_joint){b->names + at * SW__REC_NAME, 0, sw_xform_identity()};
    /* placement track: the actor's world transform */
    for (uint32_t f = 0; f < frames; ++f)
        sw__rec_frame(b, f, r->world[f]);
    sw__rec_tracks(b, at, fps);
    const int16_t* parents = sw_skeleton_parents(s);
    const sw_xform4* rest = sw_skeleton_rest_pose(s);
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const uint32_t id = at + 1u + j;
        snprintf(b->names + id * SW__REC_NAME, SW__REC_NAME, "%s:%s", a.name,
                 sw_skeleton_joint_name(s, j));
        b->joints[id] = (sw_skeleton_joint){
            b->names + id * SW__REC_NAME,
            parents[j] < 0 ? (int32_t)at : (int32_t)(at + 1u) + parents[j], sw_pose_get(rest, j)};
        for (uint32_t f = 0; f < frames; ++f)
            sw__rec_frame(b, f, sw_pose_get(r->local + (size_t)f * r->packets, j));
        sw__rec_tracks(b, id, fps);
    }
}

/* Actor i's meshes into out->meshes from *next on, palettes moved to the
 * actor's merged joints (the first one at `base`). */
static sw_result sw__rec_meshes(const sw__rec_build* b, uint32_t i, uint32_t base, sw_scene* out,
                                uint32_t* next, sw_error* err) {
    const sw_showcase_actor a = sw_showcase_get_actor(b->rec->scene, i);
    for (uint32_t k = 0; k < a.meshes_count; ++k) {
        const sw_mesh* m = a.meshes[k];
        const size_t pal_bytes = m->palette_count * sizeof(uint16_t);
        const size_t names_bytes = m->morph_targets_count * sizeof(char*);
        uint16_t* pal = (uint16_t*)sw_alloc(b->alloc, pal_bytes, 16);
        const char** mnames =
            names_bytes ? (const char**)sw_alloc(b->alloc, names_bytes, _Alignof(char*)) : NULL;
        sw_result r = SW_RESULT_OUT_OF_MEMORY;
        if (pal && (!names_bytes || mnames)) {
            for (uint32_t p = 0; p < m->palette_count; ++p)
                pal[p] = (uint16_t)(base + sw_mesh_palette(m)[p]);
            for (uint32_t t = 0; t < m->morph_targets_count; ++t)
                mnames[t] = sw_mesh_morph_name(m, t);
            char mname[SW__REC_NAME];
            snprintf(mname, sizeof mname, "%s:%s", a.name, sw_mesh_name(m));
            const sw_mesh_desc md = {.name = mname,
                                     .vertices_count = m->vertices_count,
                                     .positions = sw_mesh_positions(m),
                                     .normals = sw_mesh_normals(m),
                                     .uvs = sw_mesh_uvs(m),
                                     .joints = sw_mesh_joints(m),
                                     .weights = sw_mesh_weights(m),
                                     .indices = sw_mesh_indices(m),
                                     .indices_count = m->indices_count,
                                     .palette = pal,
                                     .inverse_binds = sw_mesh_inverse_binds(m),
                                     .palette_count = m->palette_count,
                                     .skeleton_joints_count = b->rec->joints_count,
                                     .morph_targets_count = m->morph_targets_count,
                                     .morph_positions = sw_mesh_morph_positions(m),
                                     .morph_normals = sw_mesh_morph_normals(m),
                                     .morph_names = mnames};
            r = sw_mesh_create(&md, b->alloc, &out->meshes[*next], err);
            if (r == SW_RESULT_OK) ++*next;
        }
        sw_free(b->alloc, pal, pal_bytes);
        sw_free(b->alloc, (void*)mnames, names_bytes);
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}

/* Skeleton, clip and meshes of the merged scene from the build's scratch. */
static sw_result sw__rec_build_scene(sw__rec_build* b, double fps, const char* name, sw_scene* out,
                                     sw_error* err) {
    const sw_showcase_recording* rec = b->rec;
    b->joints[0] = (sw_skeleton_joint){name, -1, sw_xform_identity()};
    uint32_t at = 1;
    for (uint32_t i = 0; i < rec->actors_count; ++i) {
        sw__rec_actor_joints(b, i, at, fps);
        at += 1u + sw_showcase_get_actor(rec->scene, i).skeleton->joints_count;
    }
    const sw_skeleton_desc sd = {.joints = b->joints, .joints_count = rec->joints_count};
    sw_result r = sw_skeleton_create(&sd, b->alloc, &out->skeleton, err);
    if (r != SW_RESULT_OK) return r;
    const sw_clip_desc cd = {.name = name,
                             .duration = (float)((double)(rec->frames - 1) / fps),
                             .joints_count = rec->joints_count,
                             .tracks = b->tracks,
                             .tracks_count = b->tracks_count};
    r = sw_clip_create(&cd, b->alloc, &out->clips[0], err);
    at = 1;
    uint32_t next = 0;
    for (uint32_t i = 0; i < rec->actors_count && r == SW_RESULT_OK; ++i) {
        r = sw__rec_meshes(b, i, at + 1u, out, &next, err);
        at += 1u + sw_showcase_get_actor(rec->scene, i).skeleton->joints_count;
    }
    return r;
}

sw_result sw_showcase_recording_scene(const sw_showcase_recording* rec, double fps,
                                      const char* name, const sw_allocator* alloc, sw_scene* out,
                                      sw_error* err) {
    sw__fail(err, SW_RESULT_OK, NULL, 0, -1);
    if (!out) return SW_RESULT_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!rec || !name || !isfinite(fps) || !(fps > 0.0) || rec->frames == 0)
        return SW_RESULT_INVALID_ARGUMENT;
    const uint32_t n = rec->joints_count, frames = rec->frames;
    const size_t joints_bytes = n * sizeof(sw_skeleton_joint),
                 names_bytes = (size_t)n * SW__REC_NAME;
    const size_t tracks_bytes = 3u * n * sizeof(sw_clip_track_desc);
    const size_t values_bytes = (size_t)n * 10u * frames * sizeof(float);
    const size_t scratch_bytes = (size_t)frames * 10u * sizeof(float);
    sw__rec_build b = {.rec = rec, .alloc = alloc};
    b.joints = (sw_skeleton_joint*)sw_alloc(alloc, joints_bytes, 16);
    b.names = (char*)sw_alloc(alloc, names_bytes, 16);
    b.tracks = (sw_clip_track_desc*)sw_alloc(alloc, tracks_bytes, 16);
    b.values = (float*)sw_alloc(alloc, values_bytes, 16);
    b.scratch = (float*)sw_alloc(alloc, scratch_bytes, 16);
    b.next = b.values;
    /* the scene's arrays zeroed with their counts, so sw_scene_free takes a partial build */
    out->clips = (const sw_clip**)sw_alloc(alloc, sizeof(void*), _Alignof(void*));
    if (out->clips) out->clips[0] = NULL, out->clips_count = 1;
    const size_t meshes_bytes = rec->meshes_count * sizeof(void*);
    if (meshes_bytes) {
        out->meshes = (const sw_mesh**)sw_alloc(alloc, meshes_bytes, _Alignof(void*));
        if (out->meshes)
            memset((void*)out->meshes, 0, meshes_bytes), out->meshes_count = rec->meshes_count;
    }
    sw_result r = SW_RESULT_OUT_OF_MEMORY;
    if (b.joints && b.names && b.tracks && b.values && b.scratch && out->clips &&
        (out->meshes || !rec->meshes_count)) {
        memset(b.names, 0, names_bytes);
        r = sw__rec_build_scene(&b, fps, name, out, err);
    } else if (err) {
        sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    }
    sw_free(alloc, b.joints, joints_bytes);
    sw_free(alloc, b.names, names_bytes);
    sw_free(alloc, b.tracks, tracks_bytes);
    sw_free(alloc, b.values, values_bytes);
    sw_free(alloc, b.scratch, scratch_bytes);
    if (r != SW_RESULT_OK) sw_scene_free(out, alloc);
    return r;
}
