/* libFuzzer target: .sinew archives.
 *
 * Copies the input into a 16-byte aligned buffer and loads it. When the load
 * succeeds, everything it vouched for is used the way a game would: every
 * joint found by name, chains walked, every track's key times and values
 * read, float tracks looked up by name, events listed, each clip sampled
 * with its skeleton (cold and with a forward cache), every mesh array read
 * (indices, palette and vertex joints checked). Results are summed into
 * a volatile so nothing is optimised away; ASan/UBSan catch any read the
 * validation let through. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/sinew.h"

static volatile float g_sink;

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

static float use_clip(const sw_clip* c, const sw_skeleton* s) {
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

    /* Sample at a few times, cold and with a forward cache. */
    sw_xform4* pose = aligned_alloc(16, (size_t)s->packets_count * sizeof(sw_xform4));
    float* floats = malloc(((size_t)c->float_tracks_count + 1u) * sizeof(float));
    uint32_t* cursors = malloc(((size_t)c->tracks_count + 1u) * sizeof(uint32_t));
    if (!pose || !floats || !cursors) abort();
    sw_sample_cache cache;
    sw_sample_cache_init(&cache, cursors, c->tracks_count);
    for (int step = 0; step <= 4; ++step) {
        float time = c->duration * (float)step / 4.0f;
        sw_sample_job job = {.clip = c,
                             .skeleton = s,
                             .time = time,
                             .cache = (step & 1) ? NULL : &cache,
                             .out = pose,
                             .out_count = s->packets_count,
                             .floats = floats,
                             .floats_count = c->float_tracks_count};
        if (sw_sample_job_run(&job) != SW_RESULT_OK) abort(); /* a loaded clip samples */
        for (uint32_t j = 0; j < s->joints_count; ++j) {
            sw_xform x = sw_pose_get(pose, j);
            acc += x.t.x + x.r.w + x.s.y;
        }
        for (uint32_t f = 0; f < c->float_tracks_count; ++f)
            acc += floats[f];
    }
    free(cursors);
    free(floats);
    free(pose);
    return acc;
}

/* Reads every array of a mesh and aborts when an invariant the loader
 * promises does not hold (indices < V, palette joints < skeleton joints,
 * vertex joints with weight inside the palette). */
static float use_mesh(const sw_mesh* m, const sw_skeleton* s) {
    float acc = (float)strlen(sw_mesh_name(m));
    const uint32_t v = m->vertices_count;
    const float* pos = sw_mesh_positions(m);
    const float* nrm = sw_mesh_normals(m);
    const float* uv = sw_mesh_uvs(m);
    const uint16_t* vj = sw_mesh_joints(m);
    const float* vw = sw_mesh_weights(m);
    for (uint32_t i = 0; i < v; ++i) {
        acc += pos[3 * i] + pos[3 * i + 1] + pos[3 * i + 2];
        if (nrm) acc += nrm[3 * i + 2];
        if (uv) acc += uv[2 * i + 1];
        for (uint32_t k = 0; k < 4; ++k) {
            if (vw[4 * i + k] != 0.0f && vj[4 * i + k] >= m->palette_count) abort();
            acc += vw[4 * i + k];
        }
    }
    const uint32_t* idx = sw_mesh_indices(m);
    for (uint32_t i = 0; i < m->indices_count; ++i) {
        if (idx[i] >= v) abort();
        acc += pos[3 * idx[i]];
    }
    const uint16_t* pal = sw_mesh_palette(m);
    const sw_mat4* binds = sw_mesh_inverse_binds(m);
    for (uint32_t p = 0; p < m->palette_count; ++p) {
        if (pal[p] >= s->joints_count) abort();
        acc += binds[p].m[0] + binds[p].m[15];
    }
    const float* mp = sw_mesh_morph_positions(m);
    const float* mn = sw_mesh_morph_normals(m);
    for (uint32_t t = 0; t < m->morph_targets_count; ++t) {
        acc += (float)strlen(sw_mesh_morph_name(m, t));
        if (mp) acc += mp[(size_t)t * 3u * v];
        if (mn) acc += mn[(size_t)t * 3u * v + 3u * v - 1u];
    }
    return acc;
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
        acc += use_clip(c, sw_archive_skeleton(&a, (uint32_t)s));
        if (sw_archive_find_clip(&a, sw_clip_name(c)) > (int32_t)i) abort();
    }
    for (uint32_t i = 0; i < a.meshes_count; ++i) {
        int32_t s = sw_archive_mesh_skeleton(&a, i);
        if (s < 0) abort();
        acc += use_mesh(sw_archive_mesh(&a, i), sw_archive_skeleton(&a, (uint32_t)s));
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
    g_sink = acc;
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
