/* .sinew archives: CRC-32, write + load round trips, every truncation, every
 * flipped byte, and hostile archives whose checksum is recomputed so that
 * the content checks are reached.
 *
 * With SINEW_FUZZ_SEED_DIR set, the test also writes its seed archives there
 * (how tests/fuzz/corpus/fuzz_archive/seed_*.sinew were made). Archives hold
 * skeletons, clips and skinned meshes. */
#include "test_util.h"

#include "runtime/core/internal.h"
#include "sinew/tools/readers/animator_json.h"
#include "sinew/tools/readers/asset.h"
#include "sinew/tools/writers/archive_writer.h"

#include <unistd.h>

/* ---- CRC-32 ---- */

/* Bitwise reference: reflected IEEE polynomial, one bit at a time. */
static uint32_t crc_bitwise(uint32_t crc, const uint8_t* p, size_t n) {
    crc = ~crc;
    for (size_t i = 0; i < n; ++i) {
        crc ^= p[i];
        for (int b = 0; b < 8; ++b)
            crc = (crc & 1u) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    }
    return ~crc;
}

static void test_crc32(void** state) {
    (void)state;
    /* The standard check value of CRC-32/ISO-HDLC. */
    assert_int_equal(sw_crc32(0, "123456789", 9), 0xCBF43926u);
    assert_int_equal(sw_crc32(0, "", 0), 0);
    assert_int_equal(sw_crc32(0, NULL, 0), 0);
    uint8_t buf[1000];
    uint32_t seed = 5u;
    for (size_t i = 0; i < sizeof buf; ++i)
        buf[i] = (uint8_t)sw_test_rand(&seed, 0, 256);
    for (size_t n = 0; n <= sizeof buf; n += 37) {
        assert_int_equal(sw_crc32(0, buf, n), crc_bitwise(0, buf, n));
    }
    /* Continuing gives the same as one pass. */
    uint32_t part = sw_crc32(0, buf, 333);
    assert_int_equal(sw_crc32(part, buf + 333, sizeof buf - 333), sw_crc32(0, buf, sizeof buf));
}

/* ---- contents ---- */

static const sw_skeleton* make_skeleton(uint32_t n, const char* prefix) {
    sw_skeleton_joint j[16];
    char names[16][32];
    uint32_t seed = 1000u + n;
    for (uint32_t i = 0; i < n; ++i) {
        snprintf(names[i], sizeof names[i], "%s%u", prefix, i);
        j[i].name = names[i];
        j[i].parent = (int32_t)i - 1 - (int32_t)(i % 3 == 2);
        if (j[i].parent < -1) j[i].parent = -1;
        j[i].rest.t = sw_vec3_make(sw_test_rand(&seed, -1, 1), sw_test_rand(&seed, 0, 1), 0.25f);
        j[i].rest.r = sw_test_rand_quat(&seed);
        j[i].rest.s = sw_vec3_make(1, 1, 1);
    }
    const sw_skeleton_desc d = {j, n};
    const sw_skeleton* s = NULL;
    sw_error e = {0};
    assert_int_equal(sw_skeleton_create(&d, NULL, &s, &e), SW_RESULT_OK);
    return s;
}

/* A clip over `joints` joints: a uniform translation, explicit cubic
 * rotation and step scale on some joints, one float track, two events. */
static const sw_clip* make_clip(uint32_t joints, const char* name, float duration) {
    static float rot[3 * 12], trans[5 * 3], scale[2 * 3], curve[4];
    static const float times3[3] = {0.0f, 0.3f, 0.9f};
    static const float times2[2] = {0.1f, 0.6f};
    uint32_t seed = 77u;
    for (int k = 0; k < 3; ++k) {
        sw_quat q = sw_test_rand_quat(&seed);
        for (int c = 0; c < 4; ++c)
            rot[12 * k + c] = sw_test_rand(&seed, -1, 1); /* in */
        rot[12 * k + 4] = q.x;
        rot[12 * k + 5] = q.y;
        rot[12 * k + 6] = q.z;
        rot[12 * k + 7] = q.w;
        for (int c = 0; c < 4; ++c)
            rot[12 * k + 8 + c] = sw_test_rand(&seed, -1, 1); /* out */
    }
    for (int i = 0; i < 15; ++i)
        trans[i] = sw_test_rand(&seed, -2, 2);
    for (int i = 0; i < 6; ++i)
        scale[i] = sw_test_rand(&seed, 0.5f, 2);
    for (int i = 0; i < 4; ++i)
        curve[i] = sw_test_rand(&seed, 0, 1);
    const sw_clip_track_desc tracks[5] = {
        {.kind = SW_TRACK_KIND_TRANSLATION,
         .joint = 0,
         .keys_count = 5,
         .start = 0.0f,
         .rate = 5.0f,
         .values = trans},
        {.kind = SW_TRACK_KIND_ROTATION,
         .joint = joints - 1u,
         .interp = SW_INTERP_CUBIC,
         .keys_count = 3,
         .times = times3,
         .values = rot},
        {.kind = SW_TRACK_KIND_SCALE,
         .joint = joints / 2u,
         .interp = SW_INTERP_STEP,
         .keys_count = 2,
         .times = times2,
         .values = scale},
        {.kind = SW_TRACK_KIND_FLOAT,
         .name = "curve",
         .keys_count = 4,
         .start = 0.0f,
         .rate = 4.0f,
         .values = curve},
        {.kind = SW_TRACK_KIND_ROTATION, .joint = 0, .keys_count = 1, .values = rot + 4},
    };
    const sw_clip_event_desc events[2] = {{0.5f, "foot"}, {0.2f, "hand"}};
    const sw_clip_desc d = {.name = name,
                            .duration = duration,
                            .joints_count = joints,
                            .tracks = tracks,
                            .tracks_count = 5,
                            .events = events,
                            .events_count = 2};
    const sw_clip* c = NULL;
    sw_error e = {0};
    assert_int_equal(sw_clip_create(&d, NULL, &c, &e), SW_RESULT_OK);
    return c;
}

/* A skinned triangle bound to joints 0 and joints - 1, with one morph target. */
static const sw_mesh* make_mesh(uint32_t joints, const char* name) {
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const uint16_t jn[12] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
    const float w[12] = {0.5f, 0.5f, 0, 0, 1, 0, 0, 0, 0.25f, 0.75f, 0, 0};
    const uint16_t pal[2] = {0, (uint16_t)(joints - 1u)};
    sw_mat4 ibm[2] = {sw_mat4_identity(), sw_mat4_identity()};
    ibm[1].m[12] = -0.5f;
    const float morph[9] = {0, 0, 0.1f, 0, 0, 0.2f, 0, 0, 0.3f};
    const sw_mesh_desc d = {.name = name,
                            .vertices_count = 3,
                            .positions = pos,
                            .joints = jn,
                            .weights = w,
                            .palette = pal,
                            .inverse_binds = ibm,
                            .palette_count = 2,
                            .skeleton_joints_count = joints,
                            .morph_targets_count = 1,
                            .morph_positions = morph};
    const sw_mesh* m = NULL;
    sw_error e = {0};
    assert_int_equal(sw_mesh_create(&d, NULL, &m, &e), SW_RESULT_OK);
    return m;
}

typedef struct set {
    const sw_skeleton* skels[2];
    const sw_clip* clips[3];
    uint32_t links[3];
    const sw_mesh* meshes[2];
    uint32_t mesh_links[2];
    sw_archive_contents contents;
} set;

static void make_set(set* s) {
    s->skels[0] = make_skeleton(6, "a");
    s->skels[1] = make_skeleton(3, "b");
    s->clips[0] = make_clip(6, "walk", 1.0f);
    s->clips[1] = make_clip(3, "wave", 1.2f);
    s->clips[2] = make_clip(6, "run", 0.9f);
    s->links[0] = 0;
    s->links[1] = 1;
    s->links[2] = 0;
    s->meshes[0] = make_mesh(3, "hand");
    s->meshes[1] = make_mesh(6, "body");
    s->mesh_links[0] = 1;
    s->mesh_links[1] = 0;
    s->contents = (sw_archive_contents){s->skels,  2, s->clips,      3,    s->links,
                                        s->meshes, 2, s->mesh_links, NULL, 0};
}

static void free_set(set* s) {
    for (int i = 0; i < 2; ++i)
        sw_skeleton_destroy(s->skels[i], NULL);
    for (int i = 0; i < 3; ++i)
        sw_clip_destroy(s->clips[i], NULL);
    for (int i = 0; i < 2; ++i)
        sw_mesh_destroy(s->meshes[i], NULL);
}

typedef struct blob {
    uint8_t* data;
    size_t size;
} blob;

static blob write_set(const set* s) {
    blob b = {NULL, 0};
    void* data = NULL;
    sw_error e = {0};
    assert_int_equal(sw_archive_write(&s->contents, NULL, &data, &b.size, &e), SW_RESULT_OK);
    b.data = data;
    assert_true(sw__aligned16(b.data));
    return b;
}

static void compare_clips(const sw_clip* a, const sw_clip* b) {
    assert_string_equal(sw_clip_name(a), sw_clip_name(b));
    assert_int_equal(a->tracks_count, b->tracks_count);
    assert_int_equal(a->float_tracks_count, b->float_tracks_count);
    assert_int_equal(a->events_count, b->events_count);
    assert_near(a->duration, b->duration, 0);
    for (uint32_t j = 0; j < a->joints_count; ++j) {
        assert_memory_equal(sw_clip_joint_tracks(a, j), sw_clip_joint_tracks(b, j), 12);
    }
    for (uint32_t i = 0; i < a->tracks_count; ++i) {
        const sw_clip_track* ta = &sw_clip_tracks(a)[i];
        const sw_clip_track* tb = &sw_clip_tracks(b)[i];
        assert_int_equal(ta->kind, tb->kind);
        assert_int_equal(ta->keys_count, tb->keys_count);
        for (uint32_t k = 0; k < ta->keys_count; ++k) {
            assert_near(sw_clip_track_key_time(a, ta, k), sw_clip_track_key_time(b, tb, k), 0);
        }
        size_t n =
            (size_t)ta->keys_count * ta->components * (ta->interp == SW_INTERP_CUBIC ? 3 : 1);
        assert_memory_equal(sw_clip_track_values(a, ta), sw_clip_track_values(b, tb), 4 * n);
    }
    for (uint32_t f = 0; f < a->float_tracks_count; ++f) {
        assert_string_equal(sw_clip_float_track_name(a, f), sw_clip_float_track_name(b, f));
    }
    for (uint32_t e = 0; e < a->events_count; ++e) {
        assert_string_equal(sw_clip_event_name(a, e), sw_clip_event_name(b, e));
        assert_near(sw_clip_events(a)[e].time, sw_clip_events(b)[e].time, 0);
    }
}

static void test_round_trip(void** state) {
    (void)state;
    set s;
    make_set(&s);
    blob b = write_set(&s);
    assert_int_equal(b.size % 16u, 0);
    sw_archive a;
    sw_error e = {0};
    assert_int_equal(sw_archive_load(b.data, b.size, &a, &e), SW_RESULT_OK);
    assert_ptr_equal(a.data, b.data);
    assert_int_equal(a.size, b.size);
    assert_int_equal(a.chunks_count, 7);
    assert_int_equal(a.skeletons_count, 2);
    assert_int_equal(a.clips_count, 3);
    assert_int_equal(a.meshes_count, 2);
    for (uint32_t i = 0; i < 2; ++i) {
        const sw_mesh* m = sw_archive_mesh(&a, i);
        assert_non_null(m);
        assert_true(sw__aligned16(m));
        assert_int_equal(m->size, s.meshes[i]->size);
        assert_memory_equal(m, s.meshes[i], m->size);
        assert_string_equal(sw_mesh_name(m), i == 0 ? "hand" : "body");
        assert_int_equal(sw_archive_mesh_skeleton(&a, i), (int32_t)s.mesh_links[i]);
        assert_int_equal(m->skeleton_joints_count,
                         sw_archive_skeleton(&a, s.mesh_links[i])->joints_count);
    }
    assert_null(sw_archive_mesh(&a, 2));
    assert_int_equal(sw_archive_mesh_skeleton(&a, 2), -1);
    assert_null(sw_archive_mesh(NULL, 0));
    for (uint32_t i = 0; i < 2; ++i) {
        const sw_skeleton* sk = sw_archive_skeleton(&a, i);
        assert_non_null(sk);
        assert_true((const uint8_t*)sk > b.data && (const uint8_t*)sk < b.data + b.size);
        assert_true(sw__aligned16(sk));
        assert_int_equal(sk->size, s.skels[i]->size);
        assert_memory_equal(sk, s.skels[i], sk->size);
        assert_int_equal(sw_skeleton_find_joint(sk, i == 0 ? "a5" : "b2"), i == 0 ? 5 : 2);
    }
    for (uint32_t i = 0; i < 3; ++i) {
        const sw_clip* c = sw_archive_clip(&a, i);
        assert_non_null(c);
        assert_true(sw__aligned16(c));
        assert_int_equal(c->size, s.clips[i]->size);
        assert_memory_equal(c, s.clips[i], c->size);
        compare_clips(c, s.clips[i]);
        assert_int_equal(sw_archive_clip_skeleton(&a, i), (int32_t)s.links[i]);
    }
    assert_null(sw_archive_skeleton(&a, 2));
    assert_null(sw_archive_clip(&a, 3));
    assert_int_equal(sw_archive_clip_skeleton(&a, 3), -1);
    assert_int_equal(sw_archive_find_clip(&a, "walk"), 0);
    assert_int_equal(sw_archive_find_clip(&a, "wave"), 1);
    assert_int_equal(sw_archive_find_clip(&a, "run"), 2);
    assert_int_equal(sw_archive_find_clip(&a, "Run"), -1);
    assert_int_equal(sw_archive_find_clip(&a, NULL), -1);
    assert_int_equal(sw_archive_find_clip(NULL, "run"), -1);
    assert_null(sw_archive_skeleton(NULL, 0));

    /* Writing is deterministic. */
    blob b2 = write_set(&s);
    assert_int_equal(b2.size, b.size);
    assert_memory_equal(b2.data, b.data, b.size);
    sw_free(NULL, b2.data, b2.size);

    /* clip_skeletons NULL: every clip belongs to skeleton 0. */
    sw_archive_contents one = {s.skels, 1, s.clips, 1, NULL, NULL, 0, NULL, NULL, 0};
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(sw_archive_write(&one, NULL, &data, &size, &e), SW_RESULT_OK);
    assert_int_equal(sw_archive_load(data, size, &a, &e), SW_RESULT_OK);
    assert_int_equal(a.clips_count, 1);
    assert_int_equal(a.meshes_count, 0);
    assert_int_equal(sw_archive_clip_skeleton(&a, 0), 0);
    sw_free(NULL, data, size);
    /* mesh_skeletons NULL: every mesh belongs to skeleton 0. */
    sw_archive_contents body = {s.skels, 1, NULL, 0, NULL, &s.meshes[1], 1, NULL, NULL, 0};
    assert_int_equal(sw_archive_write(&body, NULL, &data, &size, &e), SW_RESULT_OK);
    assert_int_equal(sw_archive_load(data, size, &a, &e), SW_RESULT_OK);
    assert_int_equal(a.meshes_count, 1);
    assert_int_equal(sw_archive_mesh_skeleton(&a, 0), 0);
    sw_free(NULL, data, size);

    sw_free(NULL, b.data, b.size);
    free_set(&s);
}

static void* fail_alloc(void* user, size_t size, size_t align) {
    (void)user;
    (void)size;
    (void)align;
    return NULL;
}

static void test_writer_errors(void** state) {
    (void)state;
    set s;
    make_set(&s);
    void* data = NULL;
    size_t size = 0;
    sw_error e = {0};
    sw_archive_contents k = s.contents;
    assert_int_equal(sw_archive_write(NULL, NULL, &data, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_archive_write(&k, NULL, NULL, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_archive_write(&k, NULL, &data, NULL, &e), SW_RESULT_INVALID_ARGUMENT);
    k.skeletons_count = 0;
    assert_int_equal(sw_archive_write(&k, NULL, &data, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(e.check, "at least one skeleton");
    k = s.contents;
    uint32_t bad_links[3] = {0, 0, 0}; /* "wave" has 3 joints, skeleton 0 has 6 */
    k.clip_skeletons = bad_links;
    assert_int_equal(sw_archive_write(&k, NULL, &data, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(e.check, "clip joints match skeleton");
    assert_int_equal(e.index, 1);
    uint32_t far_links[3] = {0, 2, 0};
    k.clip_skeletons = far_links;
    assert_int_equal(sw_archive_write(&k, NULL, &data, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(e.check, "clip skeleton in range");
    k = s.contents;
    k.clips = NULL;
    assert_int_equal(sw_archive_write(&k, NULL, &data, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    /* Meshes: joint count, skeleton index, NULL entries. */
    k = s.contents;
    k.mesh_skeletons = NULL; /* "hand" (3 joints) on skeleton 0 (6 joints) */
    assert_int_equal(sw_archive_write(&k, NULL, &data, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(e.check, "mesh joints match skeleton");
    assert_int_equal(e.index, 0);
    const uint32_t far_mesh[2] = {1, 2};
    k.mesh_skeletons = far_mesh;
    assert_int_equal(sw_archive_write(&k, NULL, &data, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(e.check, "mesh skeleton in range");
    assert_int_equal(e.index, 1);
    k = s.contents;
    k.meshes = NULL;
    assert_int_equal(sw_archive_write(&k, NULL, &data, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(e.check, "meshes not NULL");
    const sw_mesh* holes[2] = {s.meshes[0], NULL};
    k.meshes = holes;
    assert_int_equal(sw_archive_write(&k, NULL, &data, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(e.check, "mesh not NULL");
    assert_int_equal(e.index, 1);
    const sw_archive_contents zero = {0};
    assert_int_equal(sw_archive_write(&zero, NULL, &data, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_null(data);
    const sw_allocator failing = {.alloc_fn = fail_alloc};
    assert_int_equal(sw_archive_write(&s.contents, &failing, &data, &size, &e),
                     SW_RESULT_OUT_OF_MEMORY);
    assert_string_equal(e.check, "allocation");
    assert_null(data);
    free_set(&s);
}

static void test_write_file(void** state) {
    (void)state;
    set s;
    make_set(&s);
    blob b = write_set(&s);
    char path[256], tmp[300];
    snprintf(path, sizeof path, "/tmp/sinew_test_archive_%ld.sinew", (long)getpid());
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    sw_error e = {0};
    assert_int_equal(sw_archive_write_file(&s.contents, path, &e), SW_RESULT_OK);
    size_t size = 0;
    void* data = sw_test_read_file(path, &size);
    assert_non_null(data);
    assert_int_equal(size, b.size);
    assert_memory_equal(data, b.data, size);
    sw_archive a;
    assert_int_equal(sw_archive_load(data, size, &a, &e), SW_RESULT_OK);
    free(data);
    FILE* f = fopen(tmp, "rb");
    assert_null(f); /* no temporary file left behind */
    /* Overwriting an existing file works (rename replaces it). */
    assert_int_equal(sw_archive_write_file(&s.contents, path, &e), SW_RESULT_OK);
    remove(path);
    /* A folder that does not exist: IO, nothing left behind. */
    assert_int_equal(sw_archive_write_file(&s.contents, "/nonexistent-sinew-dir/x.sinew", &e),
                     SW_RESULT_IO);
    assert_string_equal(e.check, "open temporary file");
    assert_int_equal(sw_archive_write_file(&s.contents, NULL, &e), SW_RESULT_INVALID_ARGUMENT);
    sw_archive_contents none = {0};
    assert_int_equal(sw_archive_write_file(&none, path, &e), SW_RESULT_INVALID_ARGUMENT);
    f = fopen(path, "rb");
    assert_null(f);
    sw_free(NULL, b.data, b.size);
    free_set(&s);
}

/* An archive of one skeleton and `clips` clips written to `path`; returns its
 * size. `keys` translation keys per clip (uniform, over joint 0). */
static size_t write_clips_archive(const char* path, uint32_t clips, uint32_t keys) {
    const sw_skeleton* skel = make_skeleton(1, "j");
    float* values = (float*)calloc(3u * keys, sizeof(float));
    const sw_clip_track_desc track = {.kind = SW_TRACK_KIND_TRANSLATION,
                                      .joint = 0,
                                      .keys_count = keys,
                                      .rate = 30.0f,
                                      .values = values};
    const sw_clip_desc d = {.name = "c",
                            .duration = (float)keys / 30.0f,
                            .joints_count = 1,
                            .tracks = &track,
                            .tracks_count = 1};
    const sw_clip* clip = NULL;
    sw_error e = {0};
    assert_int_equal(sw_clip_create(&d, NULL, &clip, &e), SW_RESULT_OK);
    const sw_clip** list = (const sw_clip**)malloc(clips * sizeof *list);
    for (uint32_t i = 0; i < clips; ++i)
        list[i] = clip;
    const sw_archive_contents k = {
        .skeletons = &skel, .skeletons_count = 1, .clips = list, .clips_count = clips};
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(sw_archive_write(&k, NULL, &data, &size, &e), SW_RESULT_OK);
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
    sw_free(NULL, data, size);
    free(list);
    sw_clip_destroy(clip, NULL);
    sw_skeleton_destroy(skel, NULL);
    free(values);
    return size;
}

/* Seconds one sw_asset_open (what `validate` and `info` do) of `path`
 * takes; checks the clip count. */
static double asset_open_time(const char* path, uint32_t clips) {
    sw_asset a;
    sw_error e = {0};
    double t0 = sw_test_seconds();
    assert_int_equal(sw_asset_open(path, NULL, &a, &e), SW_RESULT_OK);
    const double t = sw_test_seconds() - t0;
    assert_int_equal(a.clips_count, clips);
    assert_int_equal(sw_asset_find_clip(&a, "c"), 0);
    sw_asset_free(&a);
    return t;
}

/* Opening an archive is linear in its chunks: 65,535 chunks (one skeleton,
 * 65,534 clips) open no slower than one skeleton and one clip of about the
 * same bytes, as a ratio (every clip lookup scanned the chunk table: 13.3 s
 * for `validate`). */
static void test_many_chunks_linear(void** state) {
    (void)state;
    char many[256], one[256];
    snprintf(many, sizeof many, "/tmp/sinew_test_chunks_%ld.sinew", (long)getpid());
    snprintf(one, sizeof one, "/tmp/sinew_test_one_%ld.sinew", (long)getpid());
    const uint32_t clips = SW_ARCHIVE_MAX_CHUNKS - 2u;
    const size_t size_many = write_clips_archive(many, clips, 1);
    const size_t size_one = write_clips_archive(one, 1, (uint32_t)(size_many / 12u));
    assert_true(size_one > size_many * 9 / 10 && size_one < size_many * 11 / 10);
    double t_many = 1e9, t_one = 1e9; /* fastest of three interleaved runs each */
    for (int k = 0; k < 3; ++k) {
        t_many = fmin(t_many, asset_open_time(many, clips));
        t_one = fmin(t_one, asset_open_time(one, 1));
    }
    print_message("open %zu bytes: %u chunks %.1f ms, 2 chunks %.1f ms\n", size_many, clips + 1u,
                  1e3 * t_many, 1e3 * t_one);
    assert_true(t_many <= 8.0 * t_one);
    remove(many);
    remove(one);
}

/* ---- hostile archives ---- */

static void test_truncations(void** state) {
    (void)state;
    set s;
    make_set(&s);
    blob b = write_set(&s);
    uint8_t* buf = aligned_alloc(16, b.size + 16);
    sw_archive a;
    for (size_t n = 0; n < b.size; ++n) {
        memcpy(buf, b.data, n);
        sw_error e = {0};
        memset(&a, 0xCD, sizeof a);
        sw_result r = sw_archive_load(buf, n, &a, &e);
        if (r != SW_RESULT_TRUNCATED) fail_msg("prefix %zu: %s", n, sw_result_str(r));
        assert_non_null(e.check);
        assert_int_equal(e.result, SW_RESULT_TRUNCATED);
        assert_int_equal(a.chunks_count, 0xCDCDCDCDu); /* output untouched */
    }
    /* Longer than declared. */
    memcpy(buf, b.data, b.size);
    memset(buf + b.size, 0, 16);
    sw_error e = {0};
    assert_int_equal(sw_archive_load(buf, b.size + 16, &a, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "declared size matches buffer");
    free(buf);
    sw_free(NULL, b.data, b.size);
    free_set(&s);
}

static void test_flipped_bytes(void** state) {
    (void)state;
    set s;
    make_set(&s);
    blob b = write_set(&s);
    uint8_t* buf = aligned_alloc(16, b.size);
    sw_archive a;
    for (size_t i = 0; i < b.size; ++i) {
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(buf, b.data, b.size);
            buf[i] ^= (uint8_t)(1u << bit);
            sw_error e = {0};
            sw_result r = sw_archive_load(buf, b.size, &a, &e);
            if (r == SW_RESULT_OK) fail_msg("byte %zu bit %d: loaded", i, bit);
            assert_non_null(e.check);
            sw_result want = i < 8    ? SW_RESULT_BAD_MAGIC
                             : i < 12 ? SW_RESULT_BAD_VERSION
                             : i < 16 ? SW_RESULT_BAD_CHECKSUM
                             : i < 24 ? r /* total size: TRUNCATED or BAD_DATA */
                                      : SW_RESULT_BAD_CHECKSUM;
            if (r != want) fail_msg("byte %zu: %s (%s)", i, sw_result_str(r), e.check);
            if (i >= 16 && i < 24) {
                assert_true(r == SW_RESULT_TRUNCATED || r == SW_RESULT_BAD_DATA);
            }
        }
    }
    free(buf);
    sw_free(NULL, b.data, b.size);
    free_set(&s);
}

static uint32_t rd32(const uint8_t* p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static void wr32(uint8_t* p, uint32_t v) {
    memcpy(p, &v, 4);
}

/* Recomputes the checksum so that content checks are reached. */
static void reseal(uint8_t* d, size_t size) {
    wr32(d + 12, sw_crc32(0, d + 16, size - 16));
}

/* Chunk table entry i: kind, link, offset, size. */
static uint8_t* row(uint8_t* d, uint32_t i) {
    return d + 32 + 16 * i;
}
static uint8_t* chunk_at(uint8_t* d, uint32_t i) {
    return d + rd32(row(d, i) + 8);
}

static void write_seed(const char* dir, const char* name, const sw_archive_contents* k) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    sw_error e = {0};
    assert_int_equal(sw_archive_write_file(k, path, &e), SW_RESULT_OK);
}

/* Animator definitions: an ANIM chunk round-trips byte for byte, is checked
 * by sw_animator_load on load (every truncation and a resealed corruption of
 * its contents fail), and refuses a link. */
static void test_animator_chunk(void** state) {
    (void)state;
    sw_animator_json j = {0};
    sw_error e = {0};
    assert_int_equal(sw_animator_json_read_file(SINEW_TEST_DATA "/animator_cmu.json", NULL, &j, &e),
                     SW_RESULT_OK);
    const sw_skeleton* sk = make_skeleton(6, "a");
    const sw_animator* anims[1] = {j.animator};
    sw_archive_contents k = {0};
    k.skeletons = &sk;
    k.skeletons_count = 1;
    k.animators = anims;
    k.animators_count = 1;
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(sw_archive_write(&k, NULL, &data, &size, &e), SW_RESULT_OK);
    sw_archive a;
    assert_int_equal(sw_archive_load(data, size, &a, &e), SW_RESULT_OK);
    assert_int_equal(a.animators_count, 1);
    const sw_animator* got = sw_archive_animator(&a, 0);
    assert_non_null(got);
    assert_true(sw__aligned16(got));
    assert_int_equal(sw_animator_size(got), sw_animator_size(j.animator));
    assert_memory_equal(got, j.animator, sw_animator_size(got));
    assert_null(sw_archive_animator(&a, 1));
    assert_null(sw_archive_animator(NULL, 0));
    const char* dir = getenv("SINEW_FUZZ_SEED_DIR");
    if (dir && *dir) write_seed(dir, "seed_animator.sinew", &k);

    uint8_t* d = aligned_alloc(16, size);
    for (size_t n = 0; n < size; ++n) {
        memcpy(d, data, n);
        assert_int_not_equal(sw_archive_load(d, n, &a, &e), SW_RESULT_OK);
    }
    /* Chunk 1 is the animator: a link is refused, and a block whose size
     * field is wrong fails inside the chunk once resealed. */
    memcpy(d, data, size);
    wr32(row(d, 1) + 4, 0);
    reseal(d, size);
    e = (sw_error){0};
    assert_int_equal(sw_archive_load(d, size, &a, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "animator has no link");
    assert_int_equal(e.index, 1);
    memcpy(d, data, size);
    uint8_t* block = d + rd32(row(d, 1) + 8);
    wr32(block, rd32(block) + 0x10000u);
    reseal(d, size);
    e = (sw_error){0};
    assert_int_not_equal(sw_archive_load(d, size, &a, &e), SW_RESULT_OK);
    assert_non_null(e.check);
    assert_true(e.offset >= rd32(row(d, 1) + 8));
    free(d);
    sw_free(NULL, data, size);
    sw_skeleton_destroy(sk, NULL);
    sw_animator_json_free(&j, NULL);
}

static void test_hostile_contents(void** state) {
    (void)state;
    set s;
    make_set(&s);
    blob b = write_set(&s);
    uint8_t* d = aligned_alloc(16, b.size);
    sw_archive a;
    sw_error e;
    /* Chunks: 0 skeleton(6), 1 skeleton(3), 2 clip "walk"->0, 3 "wave"->1, 4 "run"->0,
     * 5 mesh "hand"->1, 6 mesh "body"->0. */
#define HOSTILE(edit, want_result, want_check, want_index)                                         \
    do {                                                                                           \
        memcpy(d, b.data, b.size);                                                                 \
        edit;                                                                                      \
        reseal(d, b.size);                                                                         \
        e = (sw_error){0};                                                                         \
        sw_result r_ = sw_archive_load(d, b.size, &a, &e);                                         \
        print_message("hostile: %s\n", #edit);                                                     \
        if (r_ != (want_result)) fail_msg("%s: %s (%s)", #edit, sw_result_str(r_), e.check);       \
        assert_string_equal(e.check, want_check);                                                  \
        assert_int_equal(e.index, want_index);                                                     \
        assert_true(e.offset < b.size);                                                            \
    } while (0)
    const sw_result BAD = SW_RESULT_BAD_DATA;

    /* Header and table. */
    HOSTILE(wr32(d + 28, 1), BAD, "flags zero", -1);
    HOSTILE(wr32(d + 24, SW_ARCHIVE_MAX_CHUNKS + 1u), SW_RESULT_LIMIT, "chunks count", -1);
    HOSTILE(wr32(d + 24, 1000), BAD, "chunk table in bounds", -1);
    HOSTILE(wr32(d + 16, 24), BAD, "total size", -1);
    HOSTILE(wr32(row(d, 1), 0x41414141u), BAD, "chunk kind", 1);
    HOSTILE(wr32(row(d, 2), SW_ARCHIVE_KIND_MESH), BAD,
            "chunks in kind order (skeletons, clips, meshes, animators)", 3);
    HOSTILE(wr32(row(d, 2) + 8, rd32(row(d, 2) + 8) + 8), BAD, "chunk aligned", 2);
    HOSTILE(wr32(row(d, 1) + 8, rd32(row(d, 0) + 8)), BAD, "chunks in order without overlap", 1);
    HOSTILE(wr32(row(d, 0) + 8, 32), BAD, "chunks in order without overlap", 0); /* on the table */
    HOSTILE(wr32(row(d, 0) + 12, rd32(row(d, 0) + 12) + 16), BAD, "chunks in order without overlap",
            1);
    HOSTILE(wr32(row(d, 4) + 8, 0xFFFFFFF0u), BAD, "chunk in bounds", 4);
    HOSTILE(wr32(row(d, 6) + 12, rd32(row(d, 6) + 12) + 16), BAD, "chunk in bounds", 6);
    HOSTILE(wr32(row(d, 4) + 12, 0xFFFFFFFFu), BAD, "chunk in bounds", 4);
    HOSTILE(wr32(row(d, 0) + 4, 1), BAD, "skeleton has no link", 0);
    HOSTILE(wr32(row(d, 2) + 4, 3), BAD, "clip links to a skeleton", 2);
    HOSTILE(wr32(row(d, 2) + 4, 5), BAD, "clip links to a skeleton", 2);

    /* Mesh chunks: 5 "hand" -> skeleton 1 (3 joints), 6 "body" -> skeleton 0. */
    HOSTILE(wr32(row(d, 5) + 4, 2), BAD, "mesh links to a skeleton", 5);
    HOSTILE(wr32(row(d, 6) + 4, 7), BAD, "mesh links to a skeleton", 6);
    HOSTILE(wr32(row(d, 5) + 4, SW_ARCHIVE_NO_LINK), BAD, "mesh links to a skeleton", 5);
    HOSTILE(wr32(row(d, 5) + 4, 0), BAD, "mesh joints match skeleton", 5);
    HOSTILE(wr32(row(d, 6) + 12, rd32(row(d, 6) + 12) - 16u), BAD, "block in bounds", -1);
    {
        /* Contents, reached once the checksum is recomputed. */
        sw_mesh* m6 = (sw_mesh*)(void*)chunk_at(b.data, 6);
        const uint32_t idx_at = m6->indices_offset, w_at = m6->weights_offset;
        const uint32_t pal_at = m6->palette_offset, pos_at = m6->positions_offset;
        const uint32_t ibm_at = m6->inverse_binds_offset;
        HOSTILE(wr32(chunk_at(d, 6) + idx_at + 4, 3), BAD, "index < vertices count", 1);
        HOSTILE(wr32(chunk_at(d, 6) + w_at + 16, 0x3F000000u), BAD, "weights sum to 1", 1);
        HOSTILE(chunk_at(d, 6)[pal_at + 2] = 6, BAD, "palette joint < skeleton joints", 1);
        HOSTILE(wr32(chunk_at(d, 6) + pos_at + 8, 0x7FC00000u), BAD, "positions finite", 0);
        HOSTILE(memset(chunk_at(d, 6) + ibm_at + 64, 0, 64), BAD, "inverse bind invertible", 1);
        HOSTILE(wr32(chunk_at(d, 6) + offsetof(sw_mesh, skeleton_joints_count), 5), BAD,
                "palette joint < skeleton joints", 1);
        /* The mesh's error offset is a file offset inside its chunk. */
        memcpy(d, b.data, b.size);
        wr32(chunk_at(d, 6) + idx_at + 4, 3);
        reseal(d, b.size);
        assert_int_equal(sw_archive_load(d, b.size, &a, &e), BAD);
        assert_int_equal(e.offset, rd32(row(d, 6) + 8) + idx_at + 4u);
    }
    HOSTILE(wr32(row(d, 2) + 4, SW_ARCHIVE_NO_LINK), BAD, "clip links to a skeleton", 2);
    HOSTILE(wr32(row(d, 3) + 4, 0), BAD, "clip joints match skeleton", 3);
    /* A chunk shorter than its block: the block's own size check. */
    HOSTILE(wr32(row(d, 0) + 12, rd32(row(d, 0) + 12) - 16), BAD, "block in bounds", -1);
    /* A chunk longer than its block (room taken from the gap before chunk 1). */
    HOSTILE(
        {
            wr32(row(d, 1) + 8, rd32(row(d, 1) + 8) + 16);
            wr32(row(d, 1) + 12, rd32(row(d, 1) + 12) - 16);
            wr32(row(d, 0) + 12, rd32(row(d, 0) + 12) + 16);
        },
        BAD, "chunk size matches block", 0);

    /* Skeleton contents. */
    memcpy(d, b.data, b.size);
    const sw_skeleton* sk = (const sw_skeleton*)(const void*)chunk_at(d, 0);
    const uint32_t sk_off = rd32(row(d, 0) + 8);
    const uint32_t rest_off = sk->rest_offset;
    const uint32_t parents_off = sk->parents_offset;
#define SKEL ((sw_skeleton*)(void*)chunk_at(d, 0))
#define REST ((sw_xform4*)(void*)(chunk_at(d, 0) + rest_off))
#define PARENTS ((int16_t*)(void*)(chunk_at(d, 0) + parents_off))
    HOSTILE(REST[1].ty[0] = NAN, BAD, "rest values finite", 4);
    assert_int_equal(e.offset, sk_off + rest_off + 160u);
    HOSTILE(REST[0].rx[1] = 2.0f, BAD, "rest rotation unit", 1);
    /* A cycle (2 -> 4 -> 3 -> 2) needs a forward parent, which is what
     * parent-first storage rejects. */
    HOSTILE(
        {
            PARENTS[2] = 4;
            PARENTS[4] = 3;
            PARENTS[3] = 2;
        },
        BAD, "parent < joint", 2);
    assert_int_equal(e.offset, sk_off + parents_off + 4u);
    HOSTILE(PARENTS[5] = 5, BAD, "parent < joint", 5);
    HOSTILE(SKEL->joints_count = 9, BAD, "packets count", -1);
    HOSTILE(SKEL->names_offset = 0xFFFFFFF0u, BAD, "name offsets in bounds", -1);
    HOSTILE(SKEL->size = 0x7FFFFFF0u, BAD, "block in bounds", -1);

    /* Clip contents ("walk", chunk 2): tracks 0 T j0 uniform, 1 R j0 one
     * key, 2 S j3 step explicit, 3 R j5 cubic explicit, 4 "curve". */
    memcpy(d, b.data, b.size);
    const uint32_t clip_off = rd32(row(d, 2) + 8);
    const sw_clip* cl = (const sw_clip*)(const void*)chunk_at(d, 2);
    const uint32_t tracks_off = cl->tracks_offset;
#define TRACK(i) ((sw_clip_track*)(void*)(chunk_at(d, 2) + tracks_off) + (i))
#define VALUES(i) ((float*)(void*)(chunk_at(d, 2) + TRACK(i)->values_offset))
#define TIMES(i) ((float*)(void*)(chunk_at(d, 2) + TRACK(i)->times_offset))
    const uint32_t rot_values = TRACK(3)->values_offset;
    /* Key 1's value (floats 16..19 of in, value, out per key) 1.5 long. */
    HOSTILE(for (int c_ = 0; c_ < 4; ++c_) VALUES(3)[16 + c_] *= 1.5f, BAD, "rotation keys unit",
            3);
    assert_int_equal(e.offset, clip_off + rot_values + 4u * 16u);
    HOSTILE(TIMES(3)[2] = TIMES(3)[1], BAD, "key times increasing", 3);
    HOSTILE(TIMES(2)[0] = 0.7f, BAD, "key times increasing", 2);
    HOSTILE(VALUES(0)[3] = INFINITY, BAD, "key values finite", 0);
    HOSTILE(TRACK(4)->rate = 0.0f, BAD, "uniform rate > 0", 4);
    HOSTILE(((sw_clip*)(void*)chunk_at(d, 2))->duration = -1.0f, BAD, "duration finite >= 0", -1);
    HOSTILE(((sw_clip*)(void*)chunk_at(d, 2))->joints_count = 3, BAD, "joint tracks in table", 2);
    HOSTILE(TRACK(3)->values_offset = 0x7FFFFFFCu, BAD, "key values in bounds", 3);
    /* Tangents of cubic rotations need not be unit: a resealed edit loads. */
    memcpy(d, b.data, b.size);
    VALUES(3)[0] = 9.0f;
    reseal(d, b.size);
    assert_int_equal(sw_archive_load(d, b.size, &a, &e), SW_RESULT_OK);
#undef TRACK
#undef VALUES
#undef TIMES
#undef SKEL
#undef REST
#undef PARENTS
#undef HOSTILE

    /* Magic and version are outside the checksum. */
    memcpy(d, b.data, b.size);
    d[3] = 'x';
    assert_int_equal(sw_archive_load(d, b.size, &a, &e), SW_RESULT_BAD_MAGIC);
    memcpy(d, b.data, b.size);
    wr32(d + 8, 2);
    assert_int_equal(sw_archive_load(d, b.size, &a, &e), SW_RESULT_BAD_VERSION);
    assert_string_equal(e.check, "version");
    /* Arguments. */
    memcpy(d, b.data, b.size);
    assert_int_equal(sw_archive_load(NULL, b.size, &a, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_archive_load(d, b.size, NULL, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_archive_load(d + 8, b.size - 8, &a, &e), SW_RESULT_MISALIGNED);
    assert_int_equal(sw_archive_load(d, b.size, &a, NULL), SW_RESULT_OK);
    free(d);
    sw_free(NULL, b.data, b.size);
    free_set(&s);
}

/* A header-only archive (no chunks) is valid and empty. */
static void test_empty_archive(void** state) {
    (void)state;
    uint8_t* d = aligned_alloc(16, 32);
    memset(d, 0, 32);
    memcpy(d, "SINEWARC", 8);
    wr32(d + 8, SW_ARCHIVE_VERSION);
    wr32(d + 16, 32);
    reseal(d, 32);
    sw_archive a;
    sw_error e = {0};
    assert_int_equal(sw_archive_load(d, 32, &a, &e), SW_RESULT_OK);
    assert_int_equal(a.chunks_count, 0);
    assert_null(sw_archive_skeleton(&a, 0));
    assert_null(sw_archive_clip(&a, 0));
    assert_int_equal(sw_archive_find_clip(&a, "x"), -1);
    free(d);
}

/* ---- seeds for the fuzzer ---- */

static void test_seeds(void** state) {
    (void)state;
    const sw_skeleton* s3 = make_skeleton(3, "j");
    const sw_skeleton* s6 = make_skeleton(6, "k");
    const sw_clip* c3 = make_clip(3, "c3", 1.0f);
    const sw_clip* c6 = make_clip(6, "c6", 0.95f);
    const sw_skeleton* skels[2] = {s3, s6};
    const sw_clip* clips[2] = {c3, c6};
    const uint32_t links[2] = {0, 1};
    const sw_archive_contents one = {skels, 1, NULL, 0, NULL, NULL, 0, NULL, NULL, 0};
    const sw_archive_contents with_clip = {skels, 1, clips, 1, NULL, NULL, 0, NULL, NULL, 0};
    const sw_archive_contents two = {skels, 2, clips, 2, links, NULL, 0, NULL, NULL, 0};
    const sw_mesh* m6 = make_mesh(6, "body");
    const uint32_t mesh_links[1] = {1};
    const sw_archive_contents mesh = {skels, 2, clips, 2, links, &m6, 1, mesh_links, NULL, 0};
    const char* dir = getenv("SINEW_FUZZ_SEED_DIR");
    if (dir && *dir) {
        write_seed(dir, "seed_skeleton.sinew", &one);
        write_seed(dir, "seed_clip.sinew", &with_clip);
        write_seed(dir, "seed_two.sinew", &two);
        write_seed(dir, "seed_mesh.sinew", &mesh);
    }
    /* The committed seeds load, so the fuzzer starts from valid archives. */
    const char* names[4] = {"seed_skeleton.sinew", "seed_clip.sinew", "seed_two.sinew",
                            "seed_mesh.sinew"};
    const uint32_t clips_in[4] = {0, 1, 2, 2};
    const uint32_t meshes_in[4] = {0, 0, 0, 1};
    char folder[1024];
    snprintf(folder, sizeof folder, "%s", __FILE__);
    char* slash = strrchr(folder, '/');
    if (slash) *slash = '\0'; /* tests/unit */
    for (int i = 0; i < 4; ++i) {
        char path[1200];
        snprintf(path, sizeof path, "%s/../fuzz/corpus/fuzz_archive/%s", folder, names[i]);
        size_t size = 0;
        void* data = sw_test_read_file(path, &size);
        if (!data) {
            print_message("skipped: seed %s not found\n", path);
            continue;
        }
        assert_true(size < 8192);
        sw_archive a;
        assert_int_equal(sw_archive_load(data, size, &a, NULL), SW_RESULT_OK);
        assert_int_equal(a.clips_count, clips_in[i]);
        assert_int_equal(a.meshes_count, meshes_in[i]);
        free(data);
    }
    sw_mesh_destroy(m6, NULL);
    sw_skeleton_destroy(s3, NULL);
    sw_skeleton_destroy(s6, NULL);
    sw_clip_destroy(c3, NULL);
    sw_clip_destroy(c6, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_animator_chunk),
        cmocka_unit_test(test_writer_errors),
        cmocka_unit_test(test_write_file),
        cmocka_unit_test(test_many_chunks_linear),
        cmocka_unit_test(test_truncations),
        cmocka_unit_test(test_flipped_bytes),
        cmocka_unit_test(test_hostile_contents),
        cmocka_unit_test(test_empty_archive),
        cmocka_unit_test(test_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
