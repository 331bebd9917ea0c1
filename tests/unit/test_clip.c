/* Clip blocks: desc validity table, layout (track order, sorted events),
 * float track lookup, events_between over forward playback, load of hostile
 * blocks. Sampling is tested in test_sample.c. */
#include "test_util.h"

#include "runtime/core/internal.h"

/* ---- a valid desc ---- */

static const float kTimesR2[3] = {0.0f, 0.4f, 1.0f};
/* cubic rotation: per key in-tangent, value, out-tangent; tangents not unit */
static const float kValuesR2[3 * 12] = {
    0.5f, 0, 0, 0, /* in */ 0, 0,    0, 1,    /* value */ 0,
    2.0f, 0, 0, /* out */
    0,    0, 0, 0, 0,          0.6f, 0, 0.8f, 0,
    0,    0, 0, 1, 1,          1,    1, 0,    0,
    1,    0, 0, 0, 0,          0,
};
static const float kValuesT0[4 * 3] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0};
static const float kValuesS2[2 * 3] = {1, 1, 1, 2, 2, 2};
static const float kTimesR0[2] = {0.25f, 0.75f};
static const float kValuesR0[2 * 4] = {0, 0, 0, 1, 1, 0, 0, 0};
static const float kTimesW[3] = {0.0f, 0.5f, 1.0f};
static const float kValuesW[3] = {0.0f, 1.0f, 0.0f};
static const float kValuesB[5] = {0, 1, 0, 1, 0};

#define N_TRACKS 6
#define N_EVENTS 5

typedef struct fixture {
    sw_clip_track_desc tracks[N_TRACKS];
    sw_clip_event_desc events[N_EVENTS];
    sw_clip_desc desc;
} fixture;

static void make_fixture(fixture* f) {
    memset(f, 0, sizeof *f);
    /* Given out of order on purpose. */
    f->tracks[0] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_ROTATION,
                                        .joint = 2,
                                        .interp = SW_INTERP_CUBIC,
                                        .keys_count = 3,
                                        .times = kTimesR2,
                                        .values = kValuesR2};
    f->tracks[1] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_FLOAT,
                                        .name = "weight",
                                        .keys_count = 3,
                                        .times = kTimesW,
                                        .values = kValuesW};
    f->tracks[2] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_TRANSLATION,
                                        .joint = 0,
                                        .keys_count = 4,
                                        .start = 0.0f,
                                        .rate = 3.0f,
                                        .values = kValuesT0};
    f->tracks[3] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_SCALE,
                                        .joint = 2,
                                        .interp = SW_INTERP_STEP,
                                        .keys_count = 2,
                                        .start = 0.5f,
                                        .rate = 2.0f,
                                        .values = kValuesS2};
    f->tracks[4] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_ROTATION,
                                        .joint = 0,
                                        .interp = SW_INTERP_LINEAR,
                                        .keys_count = 2,
                                        .times = kTimesR0,
                                        .values = kValuesR0};
    f->tracks[5] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_FLOAT,
                                        .name = "blink",
                                        .interp = SW_INTERP_STEP,
                                        .keys_count = 5,
                                        .start = 0.0f,
                                        .rate = 4.0f,
                                        .values = kValuesB};
    f->events[0] = (sw_clip_event_desc){0.5f, "step_r"};
    f->events[1] = (sw_clip_event_desc){0.25f, "step_l"};
    f->events[2] = (sw_clip_event_desc){1.0f, "end"};
    f->events[3] = (sw_clip_event_desc){0.0f, "start"};
    f->events[4] = (sw_clip_event_desc){0.5f, "dup"};
    f->desc = (sw_clip_desc){.name = "walk",
                             .duration = 1.0f,
                             .joints_count = 4,
                             .tracks = f->tracks,
                             .tracks_count = N_TRACKS,
                             .events = f->events,
                             .events_count = N_EVENTS};
}

static void expect_error(sw_result r, const sw_error* e, sw_result want, const char* check,
                         int64_t index) {
    if (r != want) fail_msg("result %s, expected %s", sw_result_str(r), sw_result_str(want));
    assert_int_equal(e->result, want);
    assert_non_null(e->check);
    if (strcmp(e->check, check) != 0) fail_msg("check \"%s\", expected \"%s\"", e->check, check);
    assert_int_equal(e->index, index);
}

static void test_layout(void** state) {
    (void)state;
    fixture f;
    make_fixture(&f);
    size_t need = sw_clip_measure(&f.desc);
    assert_true(need > sizeof(sw_clip));
    assert_int_equal(need % 16u, 0);
    const sw_clip* c = NULL;
    sw_error e = {0};
    assert_int_equal(sw_clip_create(&f.desc, NULL, &c, &e), SW_RESULT_OK);
    assert_int_equal(c->size, need);
    assert_int_equal(c->codec, SW_CLIP_CODEC_RAW);
    assert_int_equal(c->flags, 0);
    assert_string_equal(sw_clip_name(c), "walk");
    assert_int_equal(c->tracks_count, 6);
    assert_int_equal(c->float_tracks_count, 2);
    assert_int_equal(c->joints_count, 4);
    assert_int_equal(c->tracks_offset % 4u, 0);

    /* Order: joint 0 T, joint 0 R, joint 2 R, joint 2 S, then floats in desc
     * order. desc index of each block track: */
    const int from_desc[6] = {2, 4, 0, 3, 1, 5};
    const sw_clip_track* t = sw_clip_tracks(c);
    for (uint32_t i = 0; i < 6; ++i) {
        const sw_clip_track_desc* d = &f.tracks[from_desc[i]];
        assert_int_equal(t[i].kind, d->kind);
        assert_int_equal(t[i].keys_count, d->keys_count);
        assert_int_equal(t[i].interp,
                         d->interp == SW_INTERP_DEFAULT ? SW_INTERP_LINEAR : d->interp);
        assert_int_equal(t[i].components, d->kind == SW_TRACK_KIND_ROTATION ? 4
                                          : d->kind == SW_TRACK_KIND_FLOAT  ? 1
                                                                            : 3);
        assert_int_equal(t[i].uniform, d->times ? 0 : 1);
        assert_int_equal(t[i].values_offset % 16u, 0);
        size_t nv =
            (size_t)d->keys_count * t[i].components * (d->interp == SW_INTERP_CUBIC ? 3u : 1u);
        assert_memory_equal(sw_clip_track_values(c, &t[i]), d->values, nv * sizeof(float));
        for (uint32_t k = 0; k < d->keys_count; ++k) {
            float want = d->times ? d->times[k] : d->start + (float)k / d->rate;
            assert_near(sw_clip_track_key_time(c, &t[i], k), want, 0);
        }
        if (d->kind != SW_TRACK_KIND_FLOAT) assert_int_equal(t[i].target, d->joint);
    }
    const uint32_t table[12] = {0,
                                1,
                                SW_CLIP_NO_TRACK,
                                SW_CLIP_NO_TRACK,
                                SW_CLIP_NO_TRACK,
                                SW_CLIP_NO_TRACK,
                                SW_CLIP_NO_TRACK,
                                2,
                                3,
                                SW_CLIP_NO_TRACK,
                                SW_CLIP_NO_TRACK,
                                SW_CLIP_NO_TRACK};
    assert_memory_equal(sw_clip_joint_tracks(c, 0), table, sizeof table);
    assert_string_equal(sw_clip_float_track_name(c, 0), "weight");
    assert_string_equal(sw_clip_float_track_name(c, 1), "blink");
    assert_int_equal(sw_clip_find_float_track(c, "weight"), 0);
    assert_int_equal(sw_clip_find_float_track(c, "blink"), 1);
    assert_int_equal(sw_clip_find_float_track(c, "Blink"), -1);
    assert_int_equal(sw_clip_find_float_track(c, ""), -1);
    assert_int_equal(sw_clip_find_float_track(c, NULL), -1);
    assert_int_equal(sw_clip_find_float_track(NULL, "blink"), -1);

    /* Events sorted by time, ties in desc order. */
    const char* order[N_EVENTS] = {"start", "step_l", "step_r", "dup", "end"};
    const float times[N_EVENTS] = {0.0f, 0.25f, 0.5f, 0.5f, 1.0f};
    assert_int_equal(c->events_count, N_EVENTS);
    for (uint32_t i = 0; i < N_EVENTS; ++i) {
        assert_string_equal(sw_clip_event_name(c, i), order[i]);
        assert_near(sw_clip_events(c)[i].time, times[i], 0);
    }

    /* init in caller memory gives the same bytes; a copy loads. */
    void* mem = aligned_alloc(16, need);
    const sw_clip* c2 = NULL;
    assert_int_equal(sw_clip_init(mem, need, &f.desc, &c2, &e), SW_RESULT_OK);
    assert_ptr_equal(c2, mem);
    assert_memory_equal(mem, c, need);
    void* copy = aligned_alloc(16, need);
    memcpy(copy, c, need);
    const sw_clip* c3 = NULL;
    assert_int_equal(sw_clip_load(copy, need, &c3, &e), SW_RESULT_OK);
    assert_ptr_equal(c3, copy);
    assert_int_equal(sw_clip_find_float_track(c3, "blink"), 1);
    free(copy);
    free(mem);
    sw_clip_destroy(c, NULL);

    /* Additive flag, no name, no tracks, no events. */
    sw_clip_desc bare = {.duration = 0.0f, .joints_count = 1, .additive = true};
    assert_int_equal(sw_clip_create(&bare, NULL, &c, &e), SW_RESULT_OK);
    assert_int_equal(c->flags, SW_CLIP_FLAG_ADDITIVE);
    assert_string_equal(sw_clip_name(c), "");
    assert_int_equal(c->tracks_count, 0);
    assert_int_equal(sw_clip_events_between(c, 0.0f, 1.0f, NULL, 0), 0);
    sw_clip_destroy(c, NULL);
}

/* ---- validity table ---- */

static char g_long[SW_CLIP_MAX_NAME + 2];
static const float kBadTimes[3] = {0.0f, 0.5f, 0.5f};
static const float kLateTimes[3] = {0.0f, 0.5f, 1.25f};
static const float kNegTimes[3] = {-0.1f, 0.5f, 0.9f};
static const float kNanTimes[3] = {0.0f, NAN, 0.9f};
static const float kNanValues[3] = {0.0f, INFINITY, 0.0f};
static const float kLongRot[2 * 4] = {0, 0, 0, 1, 0.8f, 0.0f, 0.0f, 0.61f};
/* Cubic rotation whose tangents are fine but whose second value is not unit. */
static const float kBadCubic[3 * 12] = {
    0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0,
};

typedef enum brk {
    B_TRACKS_NULL,
    B_KIND_ZERO,
    B_KIND_BIG,
    B_INTERP,
    B_KEYS_ZERO,
    B_KEYS_MAX,
    B_VALUES_NULL,
    B_JOINT,
    B_TWICE,
    B_FNAME_NULL,
    B_FNAME_EMPTY,
    B_FNAME_LONG,
    B_FNAME_DUP,
    B_TIMES_EQUAL,
    B_TIMES_LATE,
    B_TIMES_NEG,
    B_TIMES_NAN,
    B_RATE_ZERO,
    B_RATE_NAN,
    B_UNIFORM_LATE,
    B_UNIFORM_NEG_START,
    B_VALUE_INF,
    B_ROT_LONG,
    B_CUBIC_VALUE,
    B_DURATION_NAN,
    B_DURATION_NEG,
    B_JOINTS_ZERO,
    B_JOINTS_BIG,
    B_EVENT_LATE,
    B_EVENT_NAN,
    B_EVENT_NAME_NULL,
    B_EVENT_NAME_EMPTY,
    B_EVENT_NAME_LONG,
    B_EVENTS_NULL,
    B_EVENTS_MAX,
    B_NAME_LONG,
    B_FLOATS_MAX
} brk;

typedef struct clip_case {
    const char* what;
    brk b;
    sw_result result;
    const char* check;
    int64_t index;
} clip_case;

static sw_clip_track_desc g_many[SW_CLIP_MAX_FLOAT_TRACKS + 1];
static char g_many_names[SW_CLIP_MAX_FLOAT_TRACKS + 1][8];

static void apply(fixture* f, brk b) {
    sw_clip_desc* d = &f->desc;
    sw_clip_track_desc* t = f->tracks;
    switch (b) {
    case B_TRACKS_NULL:
        d->tracks = NULL;
        break;
    case B_KIND_ZERO:
        t[3].kind = SW_TRACK_KIND_NONE;
        break;
    case B_KIND_BIG:
        t[3].kind = (sw_track_kind)9;
        break;
    case B_INTERP:
        t[2].interp = (sw_interp)4;
        break;
    case B_KEYS_ZERO:
        t[4].keys_count = 0;
        break;
    case B_KEYS_MAX:
        t[2].keys_count = SW_CLIP_MAX_KEYS + 1u;
        break;
    case B_VALUES_NULL:
        t[1].values = NULL;
        break;
    case B_JOINT:
        t[3].joint = 4;
        break;
    case B_TWICE:
        t[4].joint = 2;
        break; /* second rotation track on joint 2 */
    case B_FNAME_NULL:
        t[5].name = NULL;
        break;
    case B_FNAME_EMPTY:
        t[5].name = "";
        break;
    case B_FNAME_LONG:
        t[1].name = g_long;
        break;
    case B_FNAME_DUP:
        t[5].name = "weight";
        break;
    case B_TIMES_EQUAL:
        t[1].times = kBadTimes;
        break;
    case B_TIMES_LATE:
        t[1].times = kLateTimes;
        break;
    case B_TIMES_NEG:
        t[1].times = kNegTimes;
        break;
    case B_TIMES_NAN:
        t[1].times = kNanTimes;
        break;
    case B_RATE_ZERO:
        t[2].rate = 0.0f;
        break;
    case B_RATE_NAN:
        t[2].rate = NAN;
        break;
    case B_UNIFORM_LATE:
        t[2].rate = 2.0f;
        break; /* 4 keys: last at 1.5 */
    case B_UNIFORM_NEG_START:
        t[3].start = -0.5f;
        break;
    case B_VALUE_INF:
        t[1].values = kNanValues;
        break;
    case B_ROT_LONG:
        t[4].values = kLongRot;
        break;
    case B_CUBIC_VALUE:
        t[0].values = kBadCubic;
        break;
    case B_DURATION_NAN:
        d->duration = NAN;
        break;
    case B_DURATION_NEG:
        d->duration = -1.0f;
        break;
    case B_JOINTS_ZERO:
        d->joints_count = 0;
        break;
    case B_JOINTS_BIG:
        d->joints_count = SW_SKELETON_MAX_JOINTS + 1u;
        break;
    case B_EVENT_LATE:
        f->events[2].time = 1.01f;
        break;
    case B_EVENT_NAN:
        f->events[1].time = NAN;
        break;
    case B_EVENT_NAME_NULL:
        f->events[3].name = NULL;
        break;
    case B_EVENT_NAME_EMPTY:
        f->events[3].name = "";
        break;
    case B_EVENT_NAME_LONG:
        f->events[0].name = g_long;
        break;
    case B_EVENTS_NULL:
        d->events = NULL;
        break;
    case B_EVENTS_MAX:
        d->events_count = SW_CLIP_MAX_EVENTS + 1u;
        break;
    case B_NAME_LONG:
        d->name = g_long;
        break;
    case B_FLOATS_MAX:
        for (uint32_t i = 0; i <= SW_CLIP_MAX_FLOAT_TRACKS; ++i) {
            snprintf(g_many_names[i], sizeof g_many_names[i], "f%u", i);
            g_many[i] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_FLOAT,
                                             .name = g_many_names[i],
                                             .keys_count = 1,
                                             .values = kValuesW};
        }
        d->tracks = g_many;
        d->tracks_count = SW_CLIP_MAX_FLOAT_TRACKS + 1u;
        break;
    }
}

/* Key values of joint tracks below 2^-63 in magnitude are stored as zeros
 * of their sign (so products of two are never denormal), tangents too;
 * float tracks keep theirs as given. */
static void test_tiny_values_flushed(void** state) {
    (void)state;
    const float tiny = 0x1p-63f;
    const float t_in[6] = {1e-20f, tiny, -1e-25f, 1.0f, -3e-39f, 0.5f};
    const float t_want[6] = {0.0f, tiny, -0.0f, 1.0f, -0.0f, 0.5f};
    /* cubic: in-tangent, value, out-tangent */
    const float r_in[12] = {1e-30f, 0, 0, 0, 5.28398e-37f, 0, -4.43252e-30f, 1, 0, 0, 2e-21f, 0};
    const float r_want[12] = {0.0f, 0, 0, 0, 0.0f, 0, -0.0f, 1, 0, 0, 0.0f, 0};
    const float w_in[2] = {1e-30f, -5e-40f};
    const float times[2] = {0.0f, 1.0f};
    const sw_clip_track_desc tracks[3] = {{.kind = SW_TRACK_KIND_TRANSLATION,
                                           .joint = 0,
                                           .keys_count = 2,
                                           .times = times,
                                           .values = t_in},
                                          {.kind = SW_TRACK_KIND_ROTATION,
                                           .joint = 0,
                                           .interp = SW_INTERP_CUBIC,
                                           .keys_count = 1,
                                           .times = times,
                                           .values = r_in},
                                          {.kind = SW_TRACK_KIND_FLOAT,
                                           .name = "w",
                                           .keys_count = 2,
                                           .times = times,
                                           .values = w_in}};
    const sw_clip_desc desc = {
        .duration = 1.0f, .joints_count = 1, .tracks = tracks, .tracks_count = 3};
    const sw_clip* c = NULL;
    sw_error e = {0};
    assert_int_equal(sw_clip_create(&desc, NULL, &c, &e), SW_RESULT_OK);
    const sw_clip_track* t = sw_clip_tracks(c); /* T, R, then the float track */
    assert_memory_equal(sw_clip_track_values(c, &t[0]), t_want, sizeof t_want);
    assert_memory_equal(sw_clip_track_values(c, &t[1]), r_want, sizeof r_want);
    assert_memory_equal(sw_clip_track_values(c, &t[2]), w_in, sizeof w_in);
    sw_clip_destroy(c, NULL);
}

static void test_desc_validity_table(void** state) {
    (void)state;
    memset(g_long, 'n', sizeof g_long - 1u);
    g_long[sizeof g_long - 1u] = '\0';
    const sw_result BAD = SW_RESULT_BAD_DATA;
    const clip_case cases[] = {
        {"tracks NULL", B_TRACKS_NULL, SW_RESULT_INVALID_ARGUMENT, "tracks not NULL", -1},
        {"kind none", B_KIND_ZERO, BAD, "track kind", 3},
        {"kind 9", B_KIND_BIG, BAD, "track kind", 3},
        {"interp 4", B_INTERP, BAD, "track interpolation", 2},
        {"no keys", B_KEYS_ZERO, BAD, "keys count >= 1", 4},
        {"too many keys", B_KEYS_MAX, SW_RESULT_LIMIT, "keys count", 2},
        {"values NULL", B_VALUES_NULL, SW_RESULT_INVALID_ARGUMENT, "track values not NULL", 1},
        {"joint 4 of 4", B_JOINT, BAD, "track joint in range", 3},
        {"two rotations on a joint", B_TWICE, BAD, "one track per joint and kind", 4},
        {"float name NULL", B_FNAME_NULL, SW_RESULT_INVALID_ARGUMENT, "float track name not NULL",
         5},
        {"float name empty", B_FNAME_EMPTY, BAD, "float track name not empty", 5},
        {"float name 256", B_FNAME_LONG, SW_RESULT_LIMIT, "float track name length", 1},
        {"float name twice", B_FNAME_DUP, BAD, "unique float track names", 5},
        {"equal times", B_TIMES_EQUAL, BAD, "key times increasing", 1},
        {"time after duration", B_TIMES_LATE, BAD, "key times in range", 1},
        {"negative time", B_TIMES_NEG, BAD, "key times in range", 1},
        {"NaN time", B_TIMES_NAN, BAD, "key times finite", 1},
        {"rate 0", B_RATE_ZERO, BAD, "uniform rate > 0", 2},
        {"rate NaN", B_RATE_NAN, BAD, "uniform rate > 0", 2},
        {"uniform keys past the end", B_UNIFORM_LATE, BAD, "key times in range", 2},
        {"uniform negative start", B_UNIFORM_NEG_START, BAD, "key times in range", 3},
        {"infinite value", B_VALUE_INF, BAD, "key values finite", 1},
        {"rotation key length 1.0002+", B_ROT_LONG, BAD, "rotation keys unit", 4},
        {"cubic rotation value", B_CUBIC_VALUE, BAD, "rotation keys unit", 0},
        {"duration NaN", B_DURATION_NAN, BAD, "duration finite >= 0", -1},
        {"duration -1", B_DURATION_NEG, BAD, "duration finite >= 0", -1},
        {"0 joints", B_JOINTS_ZERO, SW_RESULT_LIMIT, "joints count", -1},
        {"1025 joints", B_JOINTS_BIG, SW_RESULT_LIMIT, "joints count", -1},
        {"event after duration", B_EVENT_LATE, BAD, "event time in range", 2},
        {"event NaN", B_EVENT_NAN, BAD, "event time in range", 1},
        {"event name NULL", B_EVENT_NAME_NULL, SW_RESULT_INVALID_ARGUMENT, "event name not NULL",
         3},
        {"event name empty", B_EVENT_NAME_EMPTY, BAD, "event name not empty", 3},
        {"event name 256", B_EVENT_NAME_LONG, SW_RESULT_LIMIT, "event name length", 0},
        {"events NULL", B_EVENTS_NULL, SW_RESULT_INVALID_ARGUMENT, "events not NULL", -1},
        {"65537 events", B_EVENTS_MAX, SW_RESULT_LIMIT, "events count", -1},
        {"clip name 256", B_NAME_LONG, SW_RESULT_LIMIT, "clip name length", -1},
        {"1025 float tracks", B_FLOATS_MAX, SW_RESULT_LIMIT, "float tracks count", 1024},
    };
    /* kLongRot is 0.8^2 + 0.61^2 = 1.0121: length 1.006 > 1 + 1e-3. */
    void* mem = aligned_alloc(16, 1u << 16);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        fixture f;
        make_fixture(&f);
        apply(&f, cases[i].b);
        print_message("case: %s\n", cases[i].what);
        assert_int_equal(sw_clip_measure(&f.desc), 0);
        sw_error e = {0};
        const sw_clip* c = NULL;
        sw_result r = sw_clip_init(mem, 1u << 16, &f.desc, &c, &e);
        expect_error(r, &e, cases[i].result, cases[i].check, cases[i].index);
        assert_null(c);
        e = (sw_error){0};
        r = sw_clip_create(&f.desc, NULL, &c, &e);
        expect_error(r, &e, cases[i].result, cases[i].check, cases[i].index);
        assert_null(c);
    }

    /* Valid edges: uniform last key at exactly the end and within the float
     * slack; one key with rate 0 (stored as 1); 255-byte names; 1024 float
     * tracks; duration 0 with a key at 0. */
    fixture f;
    make_fixture(&f);
    const sw_clip* c = NULL;
    sw_error e = {0};
    f.tracks[2].start = 0.00005f; /* last key 1.00005, within 1e-4 */
    f.tracks[3].keys_count = 1;
    f.tracks[3].rate = 0.0f;
    g_long[SW_CLIP_MAX_NAME] = '\0';
    f.tracks[1].name = g_long;
    f.events[0].name = g_long;
    f.desc.name = g_long;
    assert_true(sw_clip_measure(&f.desc) > 0);
    assert_int_equal(sw_clip_init(mem, 1u << 16, &f.desc, &c, &e), SW_RESULT_OK);
    assert_near(sw_clip_tracks(c)[3].rate, 1.0f, 0);
    assert_int_equal(sw_clip_find_float_track(c, g_long), 0);
    f.tracks[2].start = 0.001f; /* last key 1.001: too late */
    assert_int_equal(sw_clip_init(mem, 1u << 16, &f.desc, &c, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "key times in range");

    make_fixture(&f);
    apply(&f, B_FLOATS_MAX);
    f.desc.tracks_count = SW_CLIP_MAX_FLOAT_TRACKS;
    f.desc.duration = 0.0f;
    f.desc.events_count = 0;
    assert_int_equal(sw_clip_create(&f.desc, NULL, &c, &e), SW_RESULT_OK);
    assert_int_equal(sw_clip_find_float_track(c, "f1023"), 1023);
    sw_clip_destroy(c, NULL);

    /* Arguments. */
    make_fixture(&f);
    size_t need = sw_clip_measure(&f.desc);
    c = NULL;
    assert_int_equal(sw_clip_init(NULL, need, &f.desc, &c, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_clip_init(mem, need, NULL, &c, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_clip_init(mem, need, &f.desc, NULL, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_clip_init((char*)mem + 8, need, &f.desc, &c, &e), SW_RESULT_MISALIGNED);
    assert_int_equal(sw_clip_init(mem, need - 1u, &f.desc, &c, &e), SW_RESULT_BUFFER_TOO_SMALL);
    assert_null(c);
    assert_int_equal(sw_clip_measure(NULL), 0);
    const sw_clip_desc zero = {0};
    assert_int_equal(sw_clip_measure(&zero), 0);
    assert_int_equal(sw_clip_init(mem, need, &zero, &c, &e), SW_RESULT_LIMIT);
    assert_string_equal(e.check, "joints count");
    assert_int_equal(sw_clip_create(NULL, NULL, &c, &e), SW_RESULT_INVALID_ARGUMENT);
    free(mem);
}

/* ---- events ---- */

static void test_events_between(void** state) {
    (void)state;
    fixture f;
    make_fixture(&f);
    const sw_clip* c = NULL;
    assert_int_equal(sw_clip_create(&f.desc, NULL, &c, NULL), SW_RESULT_OK);
    uint32_t out[8];
    /* Sorted: start 0, step_l 0.25, step_r 0.5, dup 0.5, end 1.0. */
    assert_int_equal(sw_clip_events_between(c, 0.0f, 0.25f, out, 8), 1);
    assert_int_equal(out[0], 0);
    assert_int_equal(sw_clip_events_between(c, 0.25f, 0.6f, out, 8), 3);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[1], 2);
    assert_int_equal(out[2], 3);
    assert_int_equal(sw_clip_events_between(c, 0.6f, 1.0f, out, 8), 1);
    assert_int_equal(out[0], 4);
    assert_int_equal(sw_clip_events_between(c, 1.0f, 1.0f, out, 8), 0);
    assert_int_equal(sw_clip_events_between(c, 1.0f, 1.5f, out, 8), 0);
    assert_int_equal(sw_clip_events_between(c, 0.9f, 7.0f, out, 8), 1);
    assert_int_equal(sw_clip_events_between(c, 0.5f, 0.5f, out, 8), 0);
    /* Capacity: the count is the full count, only `capacity` are written. */
    out[1] = 77;
    assert_int_equal(sw_clip_events_between(c, 0.0f, 1.0f, out, 1), 5);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 77);
    assert_int_equal(sw_clip_events_between(c, 0.0f, 1.0f, NULL, 0), 5);
    /* Backwards and NaN ranges are empty. */
    assert_int_equal(sw_clip_events_between(c, 0.6f, 0.2f, out, 8), 0);
    assert_int_equal(sw_clip_events_between(c, NAN, 0.2f, out, 8), 0);
    assert_int_equal(sw_clip_events_between(c, 0.0f, NAN, out, 8), 0);
    assert_int_equal(sw_clip_events_between(NULL, 0.0f, 1.0f, out, 8), 0);
    sw_clip_destroy(c, NULL);
}

/* Random events (including at 0 and at the end) and random forward steps,
 * clamped at the end or running past it: every event is reported exactly
 * once, in the range that contains it. */
static void test_events_forward_playback(void** state) {
    (void)state;
    enum { N = 200 };
    uint32_t seed = 7u;
    static char names[N][8];
    sw_clip_event_desc ev[N];
    const float duration = 2.0f;
    for (int i = 0; i < N; ++i) {
        snprintf(names[i], sizeof names[i], "e%d", i);
        float t = sw_test_rand(&seed, 0.0f, duration);
        if (i % 17 == 0) t = duration;
        if (i % 23 == 0) t = 0.0f;
        if (i % 5 == 0 && i > 0) t = ev[i - 1].time; /* ties */
        ev[i] = (sw_clip_event_desc){t, names[i]};
    }
    const sw_clip_desc desc = {
        .duration = duration, .joints_count = 1, .events = ev, .events_count = N};
    const sw_clip* c = NULL;
    assert_int_equal(sw_clip_create(&desc, NULL, &c, NULL), SW_RESULT_OK);
    for (int run = 0; run < 20; ++run) {
        int seen[N] = {0};
        const bool clamp = run % 2 == 0;
        float t = 0.0f;
        for (int step = 0; step < 400; ++step) {
            float dt = sw_test_rand(&seed, 0.0f, 0.05f);
            if (step % 13 == 0) dt = 0.0f;
            float next = t + dt;
            if (clamp && next > duration) next = duration;
            uint32_t out[N];
            uint32_t n = sw_clip_events_between(c, t, next, out, N);
            assert_true(n <= N);
            for (uint32_t k = 0; k < n; ++k) {
                uint32_t e = out[k];
                float et = sw_clip_events(c)[e].time;
                /* In the range: [t, next), or the end reached by it. */
                assert_true(et >= t);
                assert_true(et < next || (et == duration && next >= duration));
                if (k > 0) assert_true(out[k] > out[k - 1]);
                ++seen[e];
            }
            t = next;
        }
        assert_true(t >= duration); /* the runs reach the end */
        for (int e = 0; e < N; ++e) {
            if (seen[e] != 1) fail_msg("run %d: event %d seen %d times", run, e, seen[e]);
        }
    }
    sw_clip_destroy(c, NULL);
}

/* ---- hostile blocks ---- */

typedef struct cblock {
    sw_clip* c;
    size_t size;
} cblock;

static cblock valid_block(void) {
    fixture f;
    make_fixture(&f);
    cblock b;
    b.size = sw_clip_measure(&f.desc);
    b.c = aligned_alloc(16, b.size);
    const sw_clip* out = NULL;
    assert_int_equal(sw_clip_init(b.c, b.size, &f.desc, &out, NULL), SW_RESULT_OK);
    return b;
}

static sw_clip_track* tr(cblock* b, uint32_t i) {
    return (sw_clip_track*)(void*)((char*)b->c + b->c->tracks_offset) + i;
}
static uint32_t* table_of(cblock* b) {
    return (uint32_t*)(void*)((char*)b->c + b->c->joint_tracks_offset);
}
static sw_clip_event* ev_of(cblock* b) {
    return (sw_clip_event*)(void*)((char*)b->c + b->c->events_offset);
}
static float* vals(cblock* b, uint32_t i) {
    return (float*)(void*)((char*)b->c + tr(b, i)->values_offset);
}
static float* times_of(cblock* b, uint32_t i) {
    return (float*)(void*)((char*)b->c + tr(b, i)->times_offset);
}

static void test_load_hostile(void** state) {
    (void)state;
    cblock b = valid_block();
    const sw_clip* out = NULL;
    sw_error e = {0};
    assert_int_equal(sw_clip_load(b.c, b.size, &out, &e), SW_RESULT_OK);
    for (size_t n = 0; n < b.size; ++n) {
        out = NULL;
        assert_int_equal(sw_clip_load(b.c, n, &out, &e), SW_RESULT_TRUNCATED);
        assert_non_null(e.check);
        assert_null(out);
    }
    free(b.c);

    const sw_result BAD = SW_RESULT_BAD_DATA;
#define HOSTILE(edit, want, check, index)                                                          \
    do {                                                                                           \
        b = valid_block();                                                                         \
        edit;                                                                                      \
        out = NULL;                                                                                \
        e = (sw_error){0};                                                                         \
        sw_result r_ = sw_clip_load(b.c, b.size, &out, &e);                                        \
        print_message("hostile: %s\n", #edit);                                                     \
        expect_error(r_, &e, want, check, index);                                                  \
        assert_null(out);                                                                          \
        assert_true(e.offset <= b.size);                                                           \
        free(b.c);                                                                                 \
    } while (0)

    /* Block order of tracks: 0 T j0 (uniform), 1 R j0 (explicit), 2 R j2
     * (cubic, explicit), 3 S j2 (uniform), 4 "weight", 5 "blink". */
    HOSTILE(b.c->size = 40, BAD, "block size >= header", -1);
    HOSTILE(b.c->size += 16, SW_RESULT_TRUNCATED, "block in bounds", -1);
    HOSTILE(b.c->codec = SW_CLIP_CODEC_FRAMES + 1u, BAD, "codec", -1);
    HOSTILE(b.c->codec = SW_CLIP_CODEC_NONE, BAD, "codec", -1);
    HOSTILE(b.c->flags = 2, BAD, "flags", -1);
    HOSTILE(b.c->duration = NAN, BAD, "duration finite >= 0", -1);
    HOSTILE(b.c->duration = 0.5f, BAD, "key times in range", 0);
    HOSTILE(b.c->joints_count = 0, SW_RESULT_LIMIT, "joints count", -1);
    HOSTILE(b.c->float_tracks_count = 7, BAD, "float tracks <= tracks", -1);
    HOSTILE(b.c->float_tracks_count = 2000, SW_RESULT_LIMIT, "float tracks count", -1);
    HOSTILE(b.c->tracks_count = 20, BAD, "joint tracks <= 3 * joints", -1);
    HOSTILE(b.c->tracks_count = 0xFFFFFFFFu, BAD, "joint tracks <= 3 * joints", -1);
    HOSTILE(b.c->events_count = SW_CLIP_MAX_EVENTS + 1u, SW_RESULT_LIMIT, "events count", -1);
    HOSTILE(b.c->events_count = 60000, BAD, "events in bounds", -1);
    HOSTILE(b.c->name_offset = (uint32_t)b.size, BAD, "names in bounds", -1);
    HOSTILE(b.c->name_offset = 3, BAD, "names in bounds", -1);
    HOSTILE(b.c->joint_tracks_offset = 50, BAD, "joint track table aligned", -1);
    HOSTILE(b.c->joint_tracks_offset = (uint32_t)b.size - 8u, BAD, "joint track table in bounds",
            -1);
    HOSTILE(b.c->tracks_offset = 0xFFFFFFF0u, BAD, "tracks in bounds", -1);
    HOSTILE(b.c->tracks_offset += 2, BAD, "tracks aligned", -1);
    HOSTILE(b.c->events_offset = (uint32_t)b.size - 4u, BAD, "events in bounds", -1);
    HOSTILE(b.c->events_offset = 1, BAD, "events aligned", -1);
    HOSTILE(
        {
            table_of(&b)[0] = 1;
            table_of(&b)[1] = 0;
        },
        BAD, "joint track order", 0);
    HOSTILE(table_of(&b)[7] = 9, BAD, "joint track order", 2);
    HOSTILE(table_of(&b)[8] = SW_CLIP_NO_TRACK, BAD, "joint tracks in table", 3);
    HOSTILE(tr(&b, 1)->kind = SW_TRACK_KIND_SCALE, BAD, "track kind", 1);
    HOSTILE(tr(&b, 2)->target = 1, BAD, "track joint matches table", 2);
    HOSTILE(tr(&b, 4)->kind = SW_TRACK_KIND_TRANSLATION, BAD, "track kind", 4);
    HOSTILE(tr(&b, 3)->reserved = 1, BAD, "reserved zero", 3);
    HOSTILE(tr(&b, 0)->components = 4, BAD, "track components", 0);
    HOSTILE(tr(&b, 0)->interp = SW_INTERP_DEFAULT, BAD, "track interpolation", 0);
    HOSTILE(tr(&b, 0)->interp = 9, BAD, "track interpolation", 0);
    HOSTILE(tr(&b, 0)->uniform = 2, BAD, "track uniform flag", 0);
    HOSTILE(tr(&b, 1)->keys_count = 0, BAD, "keys count >= 1", 1);
    HOSTILE(tr(&b, 1)->keys_count = SW_CLIP_MAX_KEYS + 1u, SW_RESULT_LIMIT, "keys count", 1);
    HOSTILE(tr(&b, 1)->keys_count = 1000, BAD, "key times in bounds", 1);
    HOSTILE(tr(&b, 0)->keys_count = 1000, BAD, "key values in bounds", 0);
    HOSTILE(tr(&b, 0)->times_offset = 64, BAD, "uniform track has no times", 0);
    HOSTILE(tr(&b, 0)->rate = 0.0f, BAD, "uniform rate > 0", 0);
    HOSTILE(tr(&b, 0)->rate = -INFINITY, BAD, "uniform rate > 0", 0);
    HOSTILE(tr(&b, 0)->start = NAN, BAD, "key times finite", 0);
    HOSTILE(
        {
            tr(&b, 0)->start = 0.5f; /* 0.5 + k / 1e30 rounds to 0.5 */
            tr(&b, 0)->rate = 1e30f;
        },
        BAD, "key times increasing", 0);
    HOSTILE(tr(&b, 1)->start = 0.25f, BAD, "explicit track start and rate zero", 1);
    HOSTILE(tr(&b, 1)->times_offset += 2, BAD, "key times aligned", 1);
    HOSTILE(tr(&b, 1)->times_offset = 8, BAD, "key times in bounds", 1);
    HOSTILE(tr(&b, 1)->values_offset += 1, BAD, "key values aligned", 1);
    HOSTILE(tr(&b, 1)->values_offset = (uint32_t)b.size - 4u, BAD, "key values in bounds", 1);
    HOSTILE(times_of(&b, 1)[1] = 0.25f, BAD, "key times increasing", 1);
    HOSTILE(times_of(&b, 2)[2] = 1.5f, BAD, "key times in range", 2);
    HOSTILE(times_of(&b, 4)[0] = -INFINITY, BAD, "key times finite", 4);
    HOSTILE(vals(&b, 0)[5] = NAN, BAD, "key values finite", 0);
    HOSTILE(vals(&b, 1)[3] = 0.9f, BAD, "rotation keys unit", 1);
    HOSTILE(vals(&b, 2)[12 + 4 + 1] = 0.7f, BAD, "rotation keys unit", 2);
    HOSTILE(tr(&b, 5)->target = tr(&b, 4)->target, BAD, "unique float track names", 5);
    HOSTILE(((char*)b.c)[tr(&b, 4)->target] = '\0', BAD, "float track name not empty", 4);
    HOSTILE(tr(&b, 5)->target = (uint32_t)b.size, BAD, "names in bounds", 5);
    HOSTILE(ev_of(&b)[1].time = 0.75f, BAD, "events sorted by time", 2);
    HOSTILE(ev_of(&b)[4].time = 1.5f, BAD, "event time in range", 4);
    HOSTILE(ev_of(&b)[0].time = -0.0001f, BAD, "event time in range", 0);
    HOSTILE(ev_of(&b)[3].name_offset = 0xFFFFFFFFu, BAD, "names in bounds", 3);
    HOSTILE(ev_of(&b)[3].name_offset = b.c->name_offset + 4u, BAD, "event name not empty", 3);
    /* The last string (event "dup", sorted index 3, last in desc order) runs
     * to the end of the block without a NUL. */
    HOSTILE(
        {
            uint32_t o = ev_of(&b)[3].name_offset;
            memset((char*)b.c + o, 'q', b.size - o);
        },
        BAD, "names in bounds", 3);
#undef HOSTILE

    b = valid_block();
    assert_int_equal(sw_clip_load(NULL, b.size, &out, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_clip_load(b.c, b.size, NULL, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_clip_load((char*)b.c + 4, b.size - 4, &out, &e), SW_RESULT_MISALIGNED);
    free(b.c);
}

static void* fail_alloc(void* user, size_t size, size_t align) {
    (void)size;
    (void)align;
    ++*(int*)user;
    return NULL;
}

static void test_allocator_failure(void** state) {
    (void)state;
    fixture f;
    make_fixture(&f);
    int calls = 0;
    const sw_allocator a = {.alloc_fn = fail_alloc, .user = &calls};
    const sw_clip* c = NULL;
    sw_error e = {0};
    assert_int_equal(sw_clip_create(&f.desc, &a, &c, &e), SW_RESULT_OUT_OF_MEMORY);
    assert_string_equal(e.check, "allocation");
    assert_int_equal(calls, 1);
    assert_null(c);
}

/* sw_clip_play_time: clamped into [0, duration], or wrapped by whole
 * durations with `loop` (the values are exact in binary). */
static void test_play_time(void** state) {
    (void)state;
    const sw_clip* c = NULL;
    sw_clip_desc d = {.duration = 2.0f, .joints_count = 1};
    assert_int_equal(sw_clip_create(&d, NULL, &c, NULL), SW_RESULT_OK);
    static const struct {
        double time;
        bool loop;
        float want;
    } cases[] = {
        {-1.0, false, 0.0f}, {0.5, false, 0.5f}, {3.0, false, 2.0f},  {1e30, false, 2.0f},
        {2.0, false, 2.0f},  {-0.5, true, 1.5f}, {5.25, true, 1.25f}, {-4.0, true, 0.0f},
        {2.0, true, 0.0f},   {NAN, false, 0.0f}, {NAN, true, 0.0f},   {-1e30, false, 0.0f},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const float got = sw_clip_play_time(c, cases[i].time, cases[i].loop);
        if (got != cases[i].want)
            fail_msg("%g%s: %g, want %g", cases[i].time, cases[i].loop ? " loop" : "", (double)got,
                     (double)cases[i].want);
    }
    const float far = sw_clip_play_time(c, 1e30, true); /* some time inside the clip */
    assert_true(far >= 0.0f && far < 2.0f);
    sw_clip_destroy(c, NULL);
    d.duration = 0.0f;
    assert_int_equal(sw_clip_create(&d, NULL, &c, NULL), SW_RESULT_OK);
    assert_true(sw_clip_play_time(c, 3.0, true) == 0.0f);
    assert_true(sw_clip_play_time(c, 3.0, false) == 0.0f);
    sw_clip_destroy(c, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play_time),           cmocka_unit_test(test_layout),
        cmocka_unit_test(test_tiny_values_flushed), cmocka_unit_test(test_desc_validity_table),
        cmocka_unit_test(test_events_between),      cmocka_unit_test(test_events_forward_playback),
        cmocka_unit_test(test_load_hostile),        cmocka_unit_test(test_allocator_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
