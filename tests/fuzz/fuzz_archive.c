/* libFuzzer target: .sinew archives.
 *
 * Copies the input into a 16-byte aligned buffer and loads it. When the load
 * succeeds, everything it vouched for is used the way a game would: every
 * joint found by name, chains walked, every track's key times and values
 * read, float tracks looked up by name, events listed, every mesh array
 * read; then per skeleton its clips and meshes as fuzz_use.h describes
 * (sampled through every codec's decoder, cold and with a forward cache,
 * local-to-model, skinning palettes, morphing, LBS and DQ skinning) and
 * each animator definition bound to each skeleton's clips and run as
 * fuzz_animator.h describes. ASan/UBSan catch any read the validation let
 * through; abort() any broken promise. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_animator.h"
#include "fuzz_use.h"

static float use_skeleton(const sw_skeleton* s) {
    float acc = 0.0f;
    uint16_t chain[SW_SKELETON_MAX_JOINTS];
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const char* name = sw_skeleton_joint_name(s, j);
        int32_t found = sw_skeleton_find_joint(s, name);
        if (found != (int32_t)j) abort(); /* names are unique: lookup finds j */
        uint32_t n = 0;
        if (sw_skeleton_find_chain(s, sw_skeleton_joint_name(s, 0), name, chain,
                                   SW_SKELETON_MAX_JOINTS, &n) == SW_RESULT_OK) {
            for (uint32_t k = 0; k < n; ++k)
                acc += (float)chain[k];
        }
        acc += (float)sw_skeleton_parents(s)[j];
        sw_xform x = sw_pose_get(sw_skeleton_rest_pose(s), j);
        acc += x.t.x + x.t.y + x.t.z + x.r.x + x.r.y + x.r.z + x.r.w + x.s.x + x.s.y + x.s.z;
    }
    return acc;
}

static float use_clip(const sw_clip* c) {
    float acc = c->duration;
    acc += (float)strlen(sw_clip_name(c));
    for (uint32_t j = 0; j < c->joints_count; ++j) {
        const uint32_t* t = sw_clip_joint_tracks(c, j);
        for (int k = 0; k < 3; ++k) {
            if (t[k] != SW_CLIP_NO_TRACK) acc += (float)sw_clip_tracks(c)[t[k]].keys_count;
        }
    }
    for (uint32_t i = 0; i < c->tracks_count; ++i) {
        const sw_clip_track* t = &sw_clip_tracks(c)[i];
        const float* v = sw_clip_track_values(c, t);
        uint32_t per_key = t->components * (t->interp == SW_INTERP_CUBIC ? 3u : 1u);
        for (uint32_t k = 0; k < t->keys_count; ++k) {
            acc += sw_clip_track_key_time(c, t, k);
            for (uint32_t f = 0; f < per_key; ++f)
                acc += v[(size_t)k * per_key + f];
        }
    }
    for (uint32_t f = 0; f < c->float_tracks_count; ++f) {
        if (sw_clip_find_float_track(c, sw_clip_float_track_name(c, f)) != (int32_t)f) abort();
    }
    uint32_t events[64];
    uint32_t n = sw_clip_events_between(c, 0.0f, c->duration, events, 64);
    for (uint32_t e = 0; e < n && e < 64; ++e) {
        acc += sw_clip_events(c)[events[e]].time + (float)strlen(sw_clip_event_name(c, events[e]));
    }

    return acc;
}

/* Reads the arrays of a mesh fuzz_use_mesh does not (normals, UVs, inverse
 * binds, morph targets and their names). */
static float use_mesh(const sw_mesh* m) {
    float acc = (float)strlen(sw_mesh_name(m));
    const uint32_t v = m->vertices_count;
    const float* nrm = sw_mesh_normals(m);
    const float* uv = sw_mesh_uvs(m);
    for (uint32_t i = 0; i < v; ++i) {
        if (nrm) acc += nrm[3 * i + 2];
        if (uv) acc += uv[2 * i + 1];
    }
    const sw_mat4* binds = sw_mesh_inverse_binds(m);
    for (uint32_t p = 0; p < m->palette_count; ++p)
        acc += binds[p].m[0] + binds[p].m[15];
    const float* mp = sw_mesh_morph_positions(m);
    const float* mn = sw_mesh_morph_normals(m);
    for (uint32_t t = 0; t < m->morph_targets_count; ++t) {
        acc += (float)strlen(sw_mesh_morph_name(m, t));
        if (mp) acc += mp[(size_t)t * 3u * v];
        if (mn) acc += mn[(size_t)t * 3u * v + 3u * v - 1u];
    }
    return acc;
}

/* Skeleton s's clips and meshes used together (fuzz_use.h), then every
 * animator bound to them (fuzz_animator.h) with parameters from `bytes`. */
static void use_character(const sw_archive* a, uint32_t s, const uint8_t* bytes, size_t n) {
    const sw_clip** clips = (const sw_clip**)calloc(a->clips_count + 1u, sizeof(void*));
    const sw_mesh** meshes = (const sw_mesh**)calloc(a->meshes_count + 1u, sizeof(void*));
    if (!clips || !meshes) abort();
    uint32_t nc = 0, nm = 0;
    for (uint32_t i = 0; i < a->clips_count; ++i) {
        if (sw_archive_clip_skeleton(a, i) == (int32_t)s) clips[nc++] = sw_archive_clip(a, i);
    }
    for (uint32_t i = 0; i < a->meshes_count; ++i) {
        if (sw_archive_mesh_skeleton(a, i) == (int32_t)s) meshes[nm++] = sw_archive_mesh(a, i);
    }
    const sw_skeleton* skel = sw_archive_skeleton(a, s);
    fuzz_use_all(skel, clips, nc, meshes, nm);
    for (uint32_t i = 0; i < a->animators_count; ++i)
        fuzz_animator_bind_run(sw_archive_animator(a, i), skel, clips, nc, meshes, nm, bytes, n);
    free(meshes);
    free(clips);
}

static void load_and_use(const uint8_t* buf, size_t size) {
    sw_archive a;
    sw_error err = SW_ERROR_INIT;
    if (sw_archive_load(buf, size, &a, &err) != SW_RESULT_OK) {
        if (!err.check) abort(); /* every failure names its check */
        return;
    }
    float acc = 0.0f;
    for (uint32_t i = 0; i < a.skeletons_count; ++i) {
        acc += use_skeleton(sw_archive_skeleton(&a, i));
    }
    for (uint32_t i = 0; i < a.clips_count; ++i) {
        const sw_clip* c = sw_archive_clip(&a, i);
        int32_t s = sw_archive_clip_skeleton(&a, i);
        if (s < 0) abort();
        acc += use_clip(c);
        if (sw_archive_find_clip(&a, sw_clip_name(c)) > (int32_t)i) abort();
    }
    for (uint32_t i = 0; i < a.meshes_count; ++i) {
        if (sw_archive_mesh_skeleton(&a, i) < 0) abort();
        acc += use_mesh(sw_archive_mesh(&a, i));
    }
    for (uint32_t i = 0; i < a.animators_count; ++i) {
        /* Every name the definition holds must be readable in bounds. */
        const sw_animator* an = sw_archive_animator(&a, i);
        if (!an) abort();
        for (uint32_t p = 0; p < sw_animator_params_count(an); ++p)
            acc += (float)strlen(sw_animator_param_name(an, p));
        for (uint32_t c = 0; c < sw_animator_clips_count(an); ++c)
            acc += (float)strlen(sw_animator_clip_name(an, c));
        for (uint32_t st = 0; st < sw_animator_states_count(an); ++st)
            acc += (float)strlen(sw_animator_state_name(an, st)) +
                   (float)sw_animator_state_machine(an, st);
        for (uint32_t m = 0; m < sw_animator_machines_count(an); ++m)
            acc += (float)strlen(sw_animator_machine_name(an, m));
        acc += (float)sw_animator_layers_count(an);
    }
    for (uint32_t i = 0; i < a.skeletons_count; ++i)
        use_character(&a, i, buf, size);
    g_fuzz_sink += acc;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* Each input is loaded as it is (header, size and checksum checks), then
 * again with its checksum recomputed when the declared size fits, so that
 * mutations reach the chunk table and the chunk contents. */
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    size_t cap = (size + 16u) & ~(size_t)15u;
    uint8_t* buf = aligned_alloc(16, cap);
    if (!buf) return 0;
    if (size > 0) memcpy(buf, data, size);
    load_and_use(buf, size);
    if (size >= SW_ARCHIVE_HEADER_SIZE) {
        uint64_t total = 0;
        for (int i = 7; i >= 0; --i)
            total = (total << 8) | buf[16 + i];
        if (total >= 16u && total <= (uint64_t)size) {
            uint32_t crc = sw_crc32(0, buf + 16, (size_t)total - 16u);
            for (int i = 0; i < 4; ++i)
                buf[12 + i] = (uint8_t)(crc >> (8 * i));
            load_and_use(buf, size);
        }
    }
    free(buf);
    return 0;
}
