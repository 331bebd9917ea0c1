/* The joint LOD run (issue 19 item 3): per codec, one crowd per joint LOD
 * level of a rig, every character at that level (rate 1, no slicing, no
 * post callback, no palette, all shown and playing: an animator blend space
 * of the rig's two clips, then local-to-model), on the calling thread. The
 * levels cut by hierarchy depth: level 0 keeps every joint, the others the
 * joints less than 3/4, 1/2 and 1/4 of the way (rounded up) from the root to
 * the deepest joint (sw_joint_subset_from_detail with the depth as detail).
 * The crowds' frames are interleaved (the order rotating) and each is timed
 * by the thread's CPU clock, so that a loaded machine slows every level
 * alike. Two crowd sizes: 8 characters and 1000 (64 with
 * --quick). Prints one "crowdlod" line per crowd, codec and level:
 * crowd, codec, level, cut, kept joints, characters, frames, the median CPU
 * ns per character per frame. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <string.h>

#include "../bench_util.h"
#include "harness_internal.h"
#include "sinew/scale/crowd.h"

#define BENCH_LOD_WARM 4u

/* Depth of each joint (roots 0) into detail; returns the largest. */
static uint32_t bench_lod_depths(const sw_skeleton* s, uint8_t* detail) {
    const int16_t* parents = sw_skeleton_parents(s);
    uint32_t deepest = 0;
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const uint32_t d = parents[j] < 0 ? 0u : detail[parents[j]] + 1u;
        detail[j] = (uint8_t)(d < 255u ? d : 255u);
        deepest = detail[j] > deepest ? detail[j] : deepest;
    }
    return deepest;
}

/* A crowd of `chars` characters at one level of joint cut `cut`, random
 * blends and phases within `longest` seconds (the same for every level: one
 * seed). */
static sw_crowd* bench_lod_crowd(const sw_animator_bound* bound, const uint8_t* detail,
                                 uint32_t cut, uint32_t chars, float longest) {
    const sw_crowd_level level = {0.0f, 1u, cut};
    sw_crowd_desc d;
    memset(&d, 0, sizeof d);
    d.bound = bound;
    d.characters_count = chars;
    d.levels = &level;
    d.levels_count = 1;
    d.joint_detail = detail;
    sw_crowd* crowd = NULL;
    if (sw_crowd_create(&d, NULL, &crowd, NULL) != SW_RESULT_OK) return NULL;
    uint32_t rng = 0x2C1B3C6Du, events = 0;
    for (uint32_t i = 0; i < chars; ++i) {
        sw_crowd_params(crowd, i)[0] = bench_rand(&rng);
        if (sw_animator_update(sw_crowd_instance(crowd, i), bound, sw_crowd_params(crowd, i),
                               sw_crowd_params_count(crowd), bench_rand(&rng) * longest, NULL, 0,
                               &events, NULL) != SW_RESULT_OK) {
            sw_crowd_destroy(crowd);
            return NULL;
        }
    }
    return crowd;
}

/* The levels of one codec, interleaved; ns[l] the median CPU ns per
 * character per frame. False on failure. */
static bool bench_lod_codec(const sw_animator_bound* bound, const uint8_t* detail,
                            const uint32_t* cuts, uint32_t chars, uint32_t frames, float longest,
                            double* ns) {
    sw_crowd* crowds[BENCH_LOD_LEVELS];
    memset(crowds, 0, sizeof crowds);
    bool ok = true;
    for (uint32_t l = 0; l < BENCH_LOD_LEVELS && ok; ++l)
        ok = (crowds[l] = bench_lod_crowd(bound, detail, cuts[l], chars, longest)) != NULL;
    double t[BENCH_LOD_LEVELS][BENCH_LOD_MAX_FRAMES];
    const sw_vec3 eye = {0.0f, 1.7f, 0.0f};
    for (uint32_t f = 0; f < BENCH_LOD_WARM + frames && ok; ++f) {
        for (uint32_t k = 0; k < BENCH_LOD_LEVELS && ok; ++k) {
            const uint32_t l = (f + k) % BENCH_LOD_LEVELS; /* the order rotates */
            const double t0 = bench_thread_ns();
            ok = sw_crowd_update(crowds[l], BENCH_DT, eye, NULL) == SW_RESULT_OK;
            if (f >= BENCH_LOD_WARM) t[l][f - BENCH_LOD_WARM] = bench_thread_ns() - t0;
        }
    }
    for (uint32_t l = 0; l < BENCH_LOD_LEVELS; ++l) {
        if (ok) ns[l] = bench_median(t[l], (int)frames) / (double)chars;
        sw_crowd_destroy(crowds[l]);
    }
    return ok;
}

/* One crowd size: per codec its levels, a "crowdlod" line each. */
static bool bench_lod_count(const bench_rig* g, int rig_slot, int slot, uint32_t chars,
                            uint32_t frames, const uint8_t* detail, const uint32_t* cuts,
                            const uint32_t* kept, FILE* out) {
    for (int codec = 0; codec < BENCH_CODECS; ++codec) {
        bench_mix mix;
        double ns[BENCH_LOD_LEVELS];
        sw_result r = bench_mix_bind(g, codec, &mix, NULL);
        const float longest = fmaxf(g->clips[codec][0]->duration, g->clips[codec][1]->duration);
        const bool ok = r == SW_RESULT_OK &&
                        bench_lod_codec(mix.bound, detail, cuts, chars, frames, longest, ns);
        bench_mix_free(&mix);
        if (!ok) {
            bench_error("%s: joint LOD crowd (%s): %s", g->name, bench_codec_names[codec],
                        sw_result_str(r));
            return false;
        }
        for (uint32_t l = 0; l < BENCH_LOD_LEVELS; ++l)
            fprintf(out, "crowdlod\t%d\t%d\t%d\t%u\t%u\t%u\t%u\t%u\t%.6g\n", rig_slot, slot, codec,
                    l, cuts[l], kept[l], chars, frames, ns[l]);
    }
    return true;
}

bool bench_lod_all(const bench_rig* g0, int rig_slot, bool quick, FILE* out) {
    const uint32_t counts[BENCH_LOD_COUNTS] = {8u, quick ? 64u : 1000u};
    const uint32_t frames = quick ? 4u : BENCH_LOD_MAX_FRAMES;
    uint8_t detail[SW_SKELETON_MAX_JOINTS], keep[SW_SKELETON_MAX_JOINTS / 4];
    bench_lod_depths(g0->skel, detail);
    bench_rig ordered;
    if (!bench_rig_reorder(g0, detail, &ordered)) return false;
    const bench_rig* g = &ordered;
    const uint32_t span = bench_lod_depths(g->skel, detail) + 1u;
    /* level 0 keeps all; then depth below ceil(span * 3/4), ceil(span / 2), ceil(span / 4) */
    uint32_t cuts[BENCH_LOD_LEVELS], kept[BENCH_LOD_LEVELS];
    for (uint32_t l = 0; l < BENCH_LOD_LEVELS; ++l) {
        const uint32_t parts = BENCH_LOD_LEVELS;
        cuts[l] = l == 0 ? 0u : (span * (parts - l) + parts - 1u) / parts;
        kept[l] = sw_joint_subset_from_detail(g->skel, detail, cuts[l], keep, sizeof keep);
    }
    bool ok = true;
    for (int c = 0; c < BENCH_LOD_COUNTS && ok; ++c)
        ok = bench_lod_count(g, rig_slot, c, counts[c], frames, detail, cuts, kept, out);
    bench_rig_free(&ordered);
    return ok;
}
