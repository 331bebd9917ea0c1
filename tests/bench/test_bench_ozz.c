/* `sinew bench`'s ozz side (bench/harness, issue #16), on RobotExpressive:
 * ozz-animation as scripts/anchors built and converted it runs the same
 * work as sinew's rows. Same joints: ozz's skeleton is exactly the skin's
 * joints (the union of the palettes of the file's meshes, read by sinew's
 * glTF reader), each named as a sinew joint. Same accuracy: sinew's quantized
 * clips stay within its precision, and ozz's error against the same raw
 * clips, by the same measure, shows its tolerance was set in world units (1
 * mm): well below the 10 cm its default tolerance means on this rig, and not
 * lossless. Same work: one full frame from the same state reaches the same
 * IK targets on both sides, and every row has a figure from each ozz build.
 * Skipped with a message when the asset or ozz is absent; the blend floor's
 * own check (test_blend_floor) needs neither. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "test_util.h"

#include "blend_floor.h"
#include "harness_internal.h"

typedef struct bench_fixture {
    bench_rig rig;
    bench_ozz_side ozz;
} bench_fixture;

/* Loads the rig and ozz's side; NULL (with a message) when either is absent. */
static bench_fixture* fixture_open(void) {
    char glb[1024];
    if (!sw_test_asset_path(glb, sizeof glb, "RobotExpressive.glb")) return NULL;
    bench_fixture* f = (bench_fixture*)calloc(1, sizeof *f);
    assert_non_null(f);
    assert_true(bench_rig_load(&f->rig, glb));
    if (!bench_ozz_open(&f->ozz, &f->rig, NULL)) {
        print_message("skipped: ozz-animation absent: %s\n", f->ozz.note);
        bench_rig_free(&f->rig);
        free(f);
        return NULL;
    }
    return f;
}

static void fixture_close(bench_fixture* f) {
    bench_ozz_close(&f->ozz);
    bench_rig_free(&f->rig);
    free(f);
}

static void test_same_joints(void** state) {
    (void)state;
    bench_fixture* f = fixture_open();
    if (!f) return;
    const sw_skeleton* skel = f->rig.skel;
    bool* skin = (bool*)calloc(skel->joints_count, sizeof(bool));
    assert_non_null(skin);
    uint32_t skin_count = 0;
    for (uint32_t m = 0; m < f->rig.asset.meshes_count; ++m) {
        const sw_mesh* mesh = f->rig.asset.meshes[m];
        for (uint32_t i = 0; i < mesh->palette_count; ++i) {
            const uint16_t j = sw_mesh_palette(mesh)[i];
            skin_count += !skin[j];
            skin[j] = true;
        }
    }
    assert_int_equal(f->ozz.joints, skin_count);
    bool* seen = (bool*)calloc(skel->joints_count, sizeof(bool));
    assert_non_null(seen);
    for (uint32_t j = 0; j < f->ozz.joints; ++j) {
        const uint32_t s = f->ozz.to_sinew[j];
        assert_true(s < skel->joints_count);
        assert_true(skin[s]);
        assert_false(seen[s]);
        seen[s] = true;
    }
    print_message("ozz %u joints, the skin's %u, sinew %u\n", f->ozz.joints, skin_count,
                  skel->joints_count);
    free(seen);
    free(skin);
    fixture_close(f);
}

static void test_same_accuracy(void** state) {
    (void)state;
    bench_fixture* f = fixture_open();
    if (!f) return;
    const double ozz = bench_ozz_error(&f->ozz, &f->rig);
    const double sinew = (double)f->rig.codec_error[1];
    print_message("max error against raw: sinew quantized %.3f mm, ozz %.3f mm\n", 1e3 * sinew,
                  1e3 * ozz);
    assert_true(sinew > 0.0 && sinew <= (double)BENCH_PRECISION);
    /* ozz's optimizer bounds its own estimate of the error (not this
     * measure) by its tolerance: within twice the precision, and far from
     * lossless. */
    assert_true(ozz >= 0.1 * (double)BENCH_PRECISION && ozz <= 2.0 * (double)BENCH_PRECISION);
    fixture_close(f);
}

/* The child's lines for this rig with ozz, quick: every ozz row present with
 * a positive figure for each build, and the IK checks of both sides. */
static void test_same_work(void** state) {
    (void)state;
    bench_fixture* f = fixture_open();
    if (!f) return;
    char* text = NULL;
    size_t size = 0;
    FILE* out = open_memstream(&text, &size);
    assert_non_null(out);
    double frame_ns[BENCH_CODECS];
    assert_true(bench_rows_all(&f->rig, 0, &f->ozz, true, out, frame_ns));
    fclose(out);
    int rows[BENCH_COUNTS][BENCH_STAGES][BENCH_OZZ_BUILDS] = {{{0}}};
    uint32_t chains[2] = {0, 0}, reached[2] = {0, 0};
    double worst[2] = {-1.0, -1.0};
    for (char* line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        int ci, st, b;
        double ns;
        if (sscanf(line, "ozzrow\t%d\t%d\t%d\t%lf", &ci, &st, &b, &ns) == 4) {
            assert_true(ci >= 0 && ci < BENCH_COUNTS && st >= 0 && st < BENCH_STAGES && b >= 0 &&
                        b < BENCH_OZZ_BUILDS);
            assert_true(ns > 0.0 && isfinite(ns));
            ++rows[ci][st][b];
        } else if (sscanf(line, "ik\t%*d\t%u\t%u\t%lf", &chains[0], &reached[0], &worst[0]) != 3) {
            (void)sscanf(line, "ozzik\t%*d\t%u\t%u\t%lf", &chains[1], &reached[1], &worst[1]);
        }
    }
    free(text);
    for (int ci = 0; ci < BENCH_COUNTS; ++ci)
        for (int st = 0; st < BENCH_STAGES; ++st)
            for (int b = 0; b < BENCH_OZZ_BUILDS; ++b)
                assert_int_equal(rows[ci][st][b], f->ozz.api[b] ? 1 : 0);
    print_message("IK of 1000 characters: sinew reached %u of %u (worst %.2g of the limb), ozz "
                  "%u of %u (worst %.2g)\n",
                  reached[0], chains[0], worst[0], reached[1], chains[1], worst[1]);
    assert_int_equal(chains[0], 2u * bench_counts[BENCH_COUNTS - 1]);
    assert_int_equal(chains[1], chains[0]);
    /* the same targets reached (a few at the edge of reach may differ) */
    assert_true(reached[0] > chains[0] / 4u);
    assert_true(abs((int)reached[0] - (int)reached[1]) <= (int)(chains[0] / 100u));
    /* on target: sinew within its 1e-4 of the limb; ozz within 5%, its
     * mid-joint axis fixed per chain (from its bent poses) */
    assert_true(worst[0] >= 0.0 && worst[0] <= 1e-4);
    assert_true(worst[1] >= 0.0 && worst[1] <= 0.05);
    fixture_close(f);
}

/* The blend row's floor computes what blend_floor.h says, w0 a + w1 b on
 * every float of every packet (against double sums), on the baseline and,
 * when built and this CPU has it, on avx2; it writes nothing past n
 * packets. Needs neither the asset nor ozz. */
static void test_blend_floor(void** state) {
    (void)state;
    enum { N = 12 };
    static sw_xform4 a[N], b[N], out[N + 1];
    uint32_t rng = 12345u;
    float* fa = a[0].tx;
    float* fb = b[0].tx;
    for (size_t i = 0; i < N * (sizeof(sw_xform4) / sizeof(float)); ++i) {
        rng = rng * 1664525u + 1013904223u;
        fa[i] = (float)(rng >> 8) / 16777216.0f * 4.0f - 2.0f;
        rng = rng * 1664525u + 1013904223u;
        fb[i] = (float)(rng >> 8) / 16777216.0f * 4.0f - 2.0f;
    }
    void (*floors[2])(const sw_xform4*, const sw_xform4*, float, float, sw_xform4*,
                      uint32_t) = {bench_blend_floor, NULL};
#ifdef BENCH_BLEND_FLOOR_AVX2
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        floors[1] = bench_blend_floor_avx2;
#endif
    const float wa = 0.3f, wb = 0.7f;
    for (int f = 0; f < 2; ++f) {
        if (!floors[f]) continue;
        memset(out, 0x5A, sizeof out);
        floors[f](a, b, wa, wb, out, N);
        const float* fo = out[0].tx;
        for (size_t i = 0; i < N * (sizeof(sw_xform4) / sizeof(float)); ++i) {
            const double want = (double)wa * fa[i] + (double)wb * fb[i];
            const double scale = fabs((double)wa * fa[i]) + fabs((double)wb * fb[i]);
            if (!(fabs(fo[i] - want) <= 0x1p-22 * scale))
                fail_msg("floor %d float %zu: %.9g, want %.9g", f, i, (double)fo[i], want);
        }
        const unsigned char* past = (const unsigned char*)&out[N];
        for (size_t i = 0; i < sizeof out[N]; ++i)
            assert_int_equal(past[i], 0x5A);
    }
}

/* The profile mode runs each side alone: one line per side, its figure
 * positive (the same set-up as the rows; ozz's sides need ozz). */
static void test_profile_sides(void** state) {
    (void)state;
    bench_fixture* f = fixture_open();
    if (!f) return;
    for (int side = 0; side < BENCH_SIDES; ++side) {
        char* text = NULL;
        size_t size = 0;
        FILE* out = open_memstream(&text, &size);
        assert_non_null(out);
        assert_true(bench_rows_profile(&f->rig, &f->ozz, BENCH_STAGE_FRAME, side, 8u, 5u, out));
        fclose(out);
        char name[32];
        unsigned chars = 0, frames = 0;
        double ns = 0.0;
        assert_int_equal(sscanf(text,
                                "profile full_frame on %31[^:]: %u characters x %u frames, "
                                "%lf ns per character-frame",
                                name, &chars, &frames, &ns),
                         4);
        assert_string_equal(name, bench_side_names[side]);
        assert_int_equal(chars, 8u);
        assert_int_equal(frames, 5u);
        assert_true(ns > 0.0 && isfinite(ns));
        free(text);
    }
    fixture_close(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blend_floor),   cmocka_unit_test(test_same_joints),
        cmocka_unit_test(test_same_accuracy), cmocka_unit_test(test_same_work),
        cmocka_unit_test(test_profile_sides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
