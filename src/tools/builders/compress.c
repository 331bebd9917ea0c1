/* The compressor: raw clip -> SW_CLIP_CODEC_QUANTIZED clip (sinew/codecs/codec.h)
 * within an object-space error bound (docs/compression.md).
 *
 * 1. Resample the clip uniformly (the metric's sample times) through the
 *    sampling job; rotations are kept with w >= 0.
 * 2. Each joint slot the clip animates is tried, in joint order, at the rest
 *    value (default) and then at its mean (constant); a choice is kept when
 *    every joint of the sub-tree stays within a quarter of its precision at
 *    every sample.
 * 3. The other slots are animated: per segment, every track starts at 22
 *    bits, stride 1, with a segment range; then in six passes with growing
 *    error allowances (0.5, 0.6, ... 1 times the precision), each track in
 *    turn takes the cheapest (stride, range mode, bits per component) whose
 *    decoded values keep its sub-tree within the allowance at every sample
 *    of the segment. Rotations leave out, per segment, the component
 *    farthest from 0. The
 *    values tried are the runtime decoder's own (shared/codec_quantized_format.h), and the
 *    error is the metric's, along the hierarchy in double precision.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compress_internal.h"
#include "shared/codec_quantized_format.h"
#include "shared/fail.h"
#include "shared/layout.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/compress.h"

/* Largest rate the compressor raises a clip's rate to. */
#define SW__CZ_MAX_RATE 1000.0f

typedef struct sw__qset {
    uint8_t fmt;
    uint8_t bits12;  /* bit codes of components 1 and 2 */
    uint8_t dropped; /* rotations: 0..3, or 5 per key; else 4 */
    uint8_t interp;  /* SW__CODEC_INTERP_*: rotations' (per key: along the arc) */
    uint8_t masked;  /* 1: keys at the samples of mask (stride code 7) */
    uint8_t uniform; /* 1: a uniform scale track (component 0 only; bits12 0xFF) */
    uint8_t lo[3];
    uint8_t hi[3];
    uint32_t mask; /* interior samples kept (bit i - 1: sample i) */
} sw__qset;

typedef struct sw__cz {
    const sw_skeleton* skel;
    const sw_clip* clip;
    const sw_allocator* alloc;
    uint32_t J, N, L, S;
    float rate;
    double shell;
    double* thr;      /* per joint */
    int32_t* parents; /* per joint */
    uint32_t* sub;    /* descendants of each joint, in index order */
    size_t sub_count;
    uint32_t* sub_at; /* J + 1 */
    float* raw;       /* [slot][sample][4] */
    float* dec;       /* same: what the decoder returns */
    double* raw_m;    /* [sample][joint][12] model */
    double* dec_l;    /* local matrices of dec */
    double* dec_m;    /* model matrices of dec */
    double* scratch;  /* [joint][12] */
    float* cand;      /* [(L + 1) * 4] */
    float* keys;      /* [(L + 1) * 3] decoded keys */
    uint32_t* q;      /* [(L + 1) * 3] quantized keys */
    uint32_t* kd;     /* [L + 1] the component each key leaves out */
    uint8_t* mode;    /* per slot: 0 default, 1 constant, 2 animated, 3 untracked */
    uint8_t* uniform; /* per slot: 1 for a scale stored uniform (x = y = z, one value) */
    float* constant;  /* per slot: 4 floats */
    uint32_t A;
    uint32_t* aslot; /* per animated track: slot */
    sw_codec_track* tracks;
    sw__qset* sets; /* [segment * A + a] */
    uint8_t* drop;  /* [segment * A + a]: rotation component left out (+ SW__CODEC_ROT_ARC
                       when followed along the arc, SW__CODEC_ROT_SHORT along
                       it in one piece), 5 per key, 4 otherwise */
} sw__cz;

#define SW__SLOT_DEFAULT 0u
#define SW__SLOT_CONSTANT 1u
#define SW__SLOT_ANIMATED 2u
#define SW__SLOT_UNTRACKED 3u

static float* sw__cz_val(float* base, const sw__cz* z, uint32_t slot, uint32_t i) {
    return base + ((size_t)slot * z->N + i) * 4u;
}
static double* sw__cz_mat(double* base, const sw__cz* z, uint32_t i, uint32_t j) {
    return base + ((size_t)i * z->J + j) * 12u;
}

static void sw__cz_local(const sw__cz* z, uint32_t j, uint32_t i, uint32_t kind_slot,
                         const float* replace, double out[12]) {
    const float* t = sw__cz_val(z->dec, z, 3u * j, i);
    const float* r = sw__cz_val(z->dec, z, 3u * j + 1u, i);
    const float* s = sw__cz_val(z->dec, z, 3u * j + 2u, i);
    if (replace) {
        if (kind_slot == 0u) t = replace;
        if (kind_slot == 1u) r = replace;
        if (kind_slot == 2u) s = replace;
    }
    sw__compress_mat_from(t, r, s, out);
}

/* Tries values cand[(i - a) * 4] for slot `slot` over samples [a, b]:
 * true when every joint of the sub-tree stays within thr * factor. With
 * commit, stores the values and the matrices instead (no check). */
static bool sw__cz_eval(sw__cz* z, uint32_t slot, uint32_t a, uint32_t b, const float* cand,
                        double factor, bool commit) {
    const uint32_t j = slot / 3u;
    const uint32_t J = z->J;
    for (uint32_t i = a; i <= b; ++i) {
        const float* v = cand + (size_t)(i - a) * 4u;
        double l[12];
        sw__cz_local(z, j, i, slot % 3u, v, l);
        double* mj = commit ? sw__cz_mat(z->dec_m, z, i, j) : z->scratch + 12u * j;
        const int32_t p = z->parents[j];
        if (p < 0) {
            memcpy(mj, l, sizeof l);
        } else {
            sw__compress_mat_mul(sw__cz_mat(z->dec_m, z, i, (uint32_t)p), l, mj);
        }
        if (commit) {
            memcpy(sw__cz_val(z->dec, z, slot, i), v, 4u * sizeof(float));
            memcpy(sw__cz_mat(z->dec_l, z, i, j), l, sizeof l);
        } else if (sw__compress_vertex_error(sw__cz_mat(z->raw_m, z, i, j), mj, z->shell) >
                   z->thr[j] * factor) {
            return false;
        }
        for (uint32_t k = z->sub_at[j]; k < z->sub_at[j + 1u]; ++k) {
            const uint32_t d = z->sub[k];
            const uint32_t pd = (uint32_t)z->parents[d];
            const double* mp = commit ? sw__cz_mat(z->dec_m, z, i, pd) : z->scratch + 12u * pd;
            double* md = commit ? sw__cz_mat(z->dec_m, z, i, d) : z->scratch + 12u * d;
            sw__compress_mat_mul(mp, sw__cz_mat(z->dec_l, z, i, d), md);
            if (!commit && sw__compress_vertex_error(sw__cz_mat(z->raw_m, z, i, d), md, z->shell) >
                               z->thr[d] * factor)
                return false;
        }
    }
    (void)J;
    return true;
}

/* ---- quantization of one track in one segment ----------------------------- */

/* The largest component of a rotation at sample i (left out per key). */
static uint32_t sw__cz_key_drop(const sw__cz* z, uint32_t a, uint32_t i) {
    const float* v = sw__cz_val(z->raw, z, z->aslot[a], i);
    uint32_t d = 0;
    for (uint32_t k = 1; k < 4u; ++k)
        if (fabsf(v[k]) > fabsf(v[d])) d = k;
    return d;
}

/* The uniform scale that stands for scale v: the mean of x, y and z. */
static float sw__cz_uniform_value(const float* v) {
    return (float)(((double)v[0] + (double)v[1] + (double)v[2]) / 3.0);
}

/* Stored component c of animated track a at sample i when component d
 * (4: none, 5: the key's largest) is left out, signed so that it is >= 0;
 * for a uniform scale track, its uniform value. */
static float sw__cz_comp(const sw__cz* z, uint32_t a, uint32_t i, uint32_t c, uint32_t d) {
    const float* v = sw__cz_val(z->raw, z, z->aslot[a], i);
    if (z->tracks[a].flags) return sw__cz_uniform_value(v);
    if (d == SW__CODEC_DROP_NONE) return v[c];
    if (d == SW__CODEC_DROP_PER_KEY) d = sw__cz_key_drop(z, a, i);
    const float s = v[d] < 0.0f ? -1.0f : 1.0f;
    return s * v[sw__codec_kept[d][c]];
}

static uint32_t sw__cz_span(const sw__cz* z, uint32_t s) {
    const uint32_t rest = z->N - 1u - s * z->L;
    return rest < z->L ? rest : z->L;
}

static uint32_t sw__cz_key_bits(const sw__qset* set) {
    if (set->uniform) return SW__CODEC_FMT_BITS(set->fmt);
    return SW__CODEC_FMT_BITS(set->fmt) + SW__CODEC_FMT_BITS1(set->bits12) +
           SW__CODEC_FMT_BITS2(set->bits12) + (set->dropped == SW__CODEC_DROP_PER_KEY ? 2u : 0u);
}

static uint32_t sw__cz_header_bytes(const sw__qset* set) {
    return 2u + (set->dropped != SW__CODEC_DROP_NONE ? 1u : 0u) +
           ((set->fmt & SW__CODEC_FMT_RANGE) ? (set->uniform ? 2u : 6u) : 0u) +
           (set->masked ? 4u : 0u);
}

/* Keys of a setting in a segment of span intervals. */
static uint32_t sw__cz_keys(const sw__qset* set, uint32_t span) {
    return set->masked ? sw__codec_mask_keys(set->mask)
                       : (span >> SW__CODEC_FMT_STRIDE_LOG2(set->fmt)) + 1u;
}

/* Whether sample k of a segment of span intervals holds a key. */
static bool sw__cz_kept(const sw__qset* set, uint32_t span, uint32_t k) {
    if (set->masked) return k == 0u || k == span || ((set->mask >> (k - 1u)) & 1u) != 0u;
    return (k & ((1u << SW__CODEC_FMT_STRIDE_LOG2(set->fmt)) - 1u)) == 0u;
}

static uint32_t sw__cz_cost(const sw__qset* set, uint32_t span) {
    return 8u * sw__cz_header_bytes(set) + sw__cz_keys(set, span) * sw__cz_key_bits(set);
}

/* A setting with its segment range measured on the keys it stores: at
 * stride 2^sl, or at the samples of mask when sl is SW__CODEC_SL_MASK
 * (segments of at most 32 intervals). A uniform track takes codes[0]. */
static sw__qset sw__cz_make_set(const sw__cz* z, uint32_t a, uint32_t s, uint32_t sl, uint32_t mask,
                                bool range, const uint32_t codes[3]) {
    sw__qset set;
    set.fmt = (uint8_t)(codes[0] | (sl << 4) | (range ? SW__CODEC_FMT_RANGE : 0u));
    set.masked = sw__codec_masked(sl, z->L) ? 1u : 0u;
    set.mask = set.masked ? mask : 0u;
    set.uniform = z->tracks[a].flags ? 1u : 0u;
    set.bits12 = set.uniform ? 0xFFu : (uint8_t)(codes[1] | (codes[2] << 4));
    const uint32_t drop = z->drop[(size_t)s * z->A + a];
    set.dropped = (uint8_t)(drop >= SW__CODEC_ROT_ARC ? drop & 3u : drop);
    set.interp = (uint8_t)(set.dropped == SW__CODEC_DROP_PER_KEY ? SW__CODEC_INTERP_ARC
                           : drop >= SW__CODEC_ROT_ARC           ? sw__codec_rot_interp(drop)
                                                                 : SW__CODEC_INTERP_LERP);
    for (uint32_t c = 0; c < 3u; ++c) {
        set.lo[c] = 0;
        set.hi[c] = 255;
    }
    if (!range) return set;
    const sw_codec_track* tr = &z->tracks[a];
    const uint32_t span = sw__cz_span(z, s);
    const uint32_t first = s * z->L;
    for (uint32_t c = 0; c < 3u; ++c) {
        float vmin = INFINITY, vmax = -INFINITY;
        for (uint32_t k = 0; k <= span; ++k) {
            if (!sw__cz_kept(&set, span, k)) continue;
            float v = sw__cz_comp(z, a, first + k, c, set.dropped);
            if (v < vmin) vmin = v;
            if (v > vmax) vmax = v;
        }
        const bool per_key = set.dropped == SW__CODEC_DROP_PER_KEY;
        const uint32_t ci = sw__codec_kept[per_key ? 3u : set.dropped][c];
        const double e = per_key ? 2.0 : (double)tr->extent[ci];
        const double mn = per_key ? -1.0 : (double)tr->min[ci];
        if (!(e > 0.0)) {
            set.lo[c] = set.hi[c] = 0;
            continue;
        }
        double lo = floor(((double)vmin - mn) / e * 255.0);
        double hi = ceil(((double)vmax - mn) / e * 255.0);
        if (lo < 0.0) lo = 0.0;
        if (lo > 255.0) lo = 255.0;
        if (hi < lo) hi = lo;
        if (hi > 255.0) hi = 255.0;
        set.lo[c] = (uint8_t)lo;
        set.hi[c] = (uint8_t)hi;
    }
    return set;
}

/* The rotation byte's interpolation bits of each SW__CODEC_INTERP_*. */
static const uint8_t sw__cz_rot_bits[3] = {0u, SW__CODEC_ROT_ARC, SW__CODEC_ROT_SHORT};

/* The header bytes of a setting; returns their count. */
static uint32_t sw__cz_set_bytes(const sw__qset* set, uint8_t out[16]) {
    uint32_t n = 0;
    out[n++] = set->fmt;
    out[n++] = set->bits12;
    if (set->dropped == SW__CODEC_DROP_PER_KEY)
        out[n++] = SW__CODEC_ROT_PER_KEY;
    else if (set->dropped != SW__CODEC_DROP_NONE)
        out[n++] = (uint8_t)(set->dropped | sw__cz_rot_bits[set->interp]);
    if (set->fmt & SW__CODEC_FMT_RANGE) {
        const uint32_t nr = set->uniform ? 1u : 3u;
        for (uint32_t c = 0; c < nr; ++c)
            out[n + c] = set->lo[c];
        for (uint32_t c = 0; c < nr; ++c)
            out[n + nr + c] = set->hi[c];
        n += 2u * nr;
    }
    if (set->masked) {
        for (uint32_t i = 0; i < 4u; ++i)
            out[n + i] = (uint8_t)(set->mask >> (8u * i));
        n += 4u;
    }
    return n;
}

/* Quantizes the keys of track a in segment s with `set` into z->q and
 * their decoded values into z->keys; then the decoded values at every
 * sample of the segment into z->cand. */
static void sw__cz_decode(sw__cz* z, uint32_t a, uint32_t s, const sw__qset* set) {
    uint8_t hb[16];
    sw__cz_set_bytes(set, hb);
    sw__codec_seg_track ts;
    sw__codec_parse(&z->tracks[a], z->L, hb, &ts);
    const uint32_t span = sw__cz_span(z, s);
    const uint32_t first = s * z->L;

    for (uint32_t i = 0, k = 0; i <= span; ++i) {
        if (!sw__cz_kept(set, span, i)) continue;
        z->kd[k] = set->dropped == SW__CODEC_DROP_PER_KEY ? sw__cz_key_drop(z, a, first + i)
                                                          : set->dropped;
        for (uint32_t c = 0; c < 3u; ++c) {
            const float vc = sw__cz_comp(z, a, first + i, c, set->dropped);
            const uint32_t top = (1u << ts.bits[c]) - 1u;
            uint32_t qv = 0;
            if (ts.scale[c] > 0.0f) {
                double f = floor(((double)vc - (double)ts.lo[c]) / (double)ts.scale[c] + 0.5);
                if (f < 0.0) f = 0.0;
                if (f > (double)top) f = (double)top;
                qv = (uint32_t)f;
            }
            z->q[3u * k + c] = qv;
            z->keys[3u * k + c] = ts.lo[c] + (float)qv * ts.scale[c];
        }
        ++k;
    }
    const bool rotation = z->tracks[a].kind == SW_TRACK_KIND_ROTATION;
    const float last = (float)(z->N - 1u);
    for (uint32_t p = 0; p <= span; ++p) {
        /* The position the runtime computes for this sample's time (float
         * rounding may put it a hair before or after p). */
        float f = sw__compress_time(first + p, z->rate, z->clip->duration) * z->rate;
        if (!(f > 0.0f)) f = 0.0f;
        if (f > last) f = last;
        float fp = f - (float)first;
        if (fp < 0.0f) fp = 0.0f;
        if (fp > (float)span) fp = (float)span;
        float u;
        const uint32_t k = sw__codec_track_key(&ts, fp, span, &u);
        float* o = z->cand + 4u * (size_t)p;
        o[3] = 0.0f;
        sw__codec_interp(z->keys + 3u * k, z->keys + 3u * (k + 1u), u, rotation, set->interp,
                         z->kd[k], z->kd[k + 1u], o);
    }
}

static bool sw__cz_try(sw__cz* z, uint32_t a, uint32_t s, const sw__qset* set, double factor) {
    sw__cz_decode(z, a, s, set);
    const uint32_t first = s * z->L;
    return sw__cz_eval(z, z->aslot[a], first, first + sw__cz_span(z, s), z->cand, factor, false);
}

static void sw__cz_commit(sw__cz* z, uint32_t a, uint32_t s, const sw__qset* set) {
    sw__cz_decode(z, a, s, set);
    const uint32_t first = s * z->L;
    sw__cz_eval(z, z->aslot[a], first, first + sw__cz_span(z, s), z->cand, 1.0, true);
    z->sets[(size_t)s * z->A + a] = *set;
}

/* The fewest bits with which track a in segment s, keys at stride 2^sl
 * (or at the samples of mask, sl = SW__CODEC_SL_MASK) and range mode
 * `range`, stays within the allowance, when that may cost under
 * best_cost: uniform bits by binary search (up to a third over best_cost:
 * lowering single components may still bring it under), then each
 * component lowered on its own while it passes. False when none passes. */
static bool sw__cz_fewest_bits(sw__cz* z, uint32_t a, uint32_t s, uint32_t sl, uint32_t mask,
                               bool range, double factor, uint32_t best_cost, sw__qset* out) {
    const uint32_t span = sw__cz_span(z, s);
    const uint32_t none[3] = {0u, 0u, 0u};
    const sw__qset shape = sw__cz_make_set(z, a, s, sl, mask, range, none);
    const uint32_t keys = sw__cz_keys(&shape, span);
    const uint32_t hdr = 8u * sw__cz_header_bytes(&shape);
    const uint32_t comps = shape.uniform ? 1u : 3u;
    if (hdr + keys * comps >= best_cost) return false;
    const uint32_t bmax = (best_cost + best_cost / 3u - hdr) / (keys * comps);
    if (bmax < 1u) return false;
    uint32_t cmax = 15u; /* codes: bits increase with the code */
    while (cmax > 0u && sw__codec_bits[cmax] > bmax)
        --cmax;
    uint32_t b[3] = {cmax, cmax, cmax};
    sw__qset set = sw__cz_make_set(z, a, s, sl, mask, range, b);
    if (!sw__cz_try(z, a, s, &set, factor)) return false;
    uint32_t lo = 0u, hi = cmax;
    while (lo < hi) {
        const uint32_t mid = (lo + hi) / 2u;
        const uint32_t mb[3] = {mid, mid, mid};
        sw__qset ms = sw__cz_make_set(z, a, s, sl, mask, range, mb);
        if (sw__cz_try(z, a, s, &ms, factor))
            hi = mid;
        else
            lo = mid + 1u;
    }
    b[0] = b[1] = b[2] = hi;
    for (uint32_t c = 0; c < comps; ++c) {
        while (b[c] > 0u) {
            uint32_t tb[3] = {b[0], b[1], b[2]};
            tb[c] -= 1u;
            sw__qset ts = sw__cz_make_set(z, a, s, sl, mask, range, tb);
            if (!sw__cz_try(z, a, s, &ts, factor)) break;
            b[c] = tb[c];
        }
    }
    *out = sw__cz_make_set(z, a, s, sl, mask, range, b);
    return true;
}

/* Share of the allowance the key choice of a key mask may use (the rest
 * is left to quantization). */
#define SW__CZ_MASK_SHARE 0.95

/* Whether keys at samples k and b > k + 1 of segment s (besides those of
 * mask, all below k; quantized at 22 bits) keep the sub-tree of track a within
 * the allowance at every sample between them. */
static bool sw__cz_reaches(sw__cz* z, uint32_t a, uint32_t s, uint32_t mask, uint32_t k, uint32_t b,
                           double factor) {
    const uint32_t span = sw__cz_span(z, s), first = s * z->L;
    const uint32_t top[3] = {15u, 15u, 15u};
    const uint32_t trial = mask | (b < span ? 1u << (b - 1u) : 0u);
    const sw__qset set = sw__cz_make_set(z, a, s, SW__CODEC_SL_MASK, trial, true, top);
    sw__cz_decode(z, a, s, &set);
    return sw__cz_eval(z, z->aslot[a], first + k + 1u, first + b - 1u,
                       z->cand + 4u * (size_t)(k + 1u), factor, false);
}

/* Keys of track a in segment s chosen left to right: from each key, the
 * farthest sample that sw__cz_reaches (the error at a sample depends on the
 * track's value there only), found by doubling the distance, then halving
 * between the last that reached and the first that did not; returns the
 * key mask of the interior keys. */
static uint32_t sw__cz_greedy_mask(sw__cz* z, uint32_t a, uint32_t s, double factor) {
    const uint32_t span = sw__cz_span(z, s);
    uint32_t mask = 0u, k = 0u;
    while (k < span) {
        uint32_t good = k + 1u, bad = span + 1u;
        for (uint32_t d = 1u; good < span; d *= 2u) {
            const uint32_t b = k + 1u + d < span ? k + 1u + d : span;
            if (!sw__cz_reaches(z, a, s, mask, k, b, factor)) {
                bad = b;
                break;
            }
            good = b;
        }
        while (bad - good > 1u) {
            const uint32_t mid = (good + bad) / 2u;
            if (sw__cz_reaches(z, a, s, mask, k, mid, factor))
                good = mid;
            else
                bad = mid;
        }
        if (good < span) mask |= 1u << (good - 1u);
        k = good;
    }
    return mask;
}

/* A key mask is taken where it saves more than 1 / SW__CZ_MASK_GAIN of the
 * best stride's bits: a masked track costs the decoder a few dozen
 * instructions more (its own key interval), not worth a few bits. */
#define SW__CZ_MASK_GAIN 8u

/* The cheapest setting of track a in segment s within the allowance: per
 * stride and range mode the fewest bits that pass; then, in the last pass
 * (factor 1) and segments of at most 32 intervals, the same on the keys a
 * greedy choice keeps (key mask) where that saves enough (in every pass,
 * 2% fewer bytes on CMU 01_01 for half again the compression time). */
static void sw__cz_search(sw__cz* z, uint32_t a, uint32_t s, double factor) {
    const uint32_t span = sw__cz_span(z, s);
    sw__qset best = z->sets[(size_t)s * z->A + a];
    uint32_t best_cost = sw__cz_cost(&best, span);
    bool changed = false;
    for (uint32_t sl = 8u; sl-- > 0u;) {
        if (sw__codec_masked(sl, z->L) || (1u << sl) > span || (span & ((1u << sl) - 1u)) != 0)
            continue;
        for (uint32_t m = 0; m < 2u; ++m) {
            sw__qset set;
            if (!sw__cz_fewest_bits(z, a, s, sl, 0u, m == 0u, factor, best_cost, &set)) continue;
            const uint32_t cost = sw__cz_cost(&set, span);
            if (cost < best_cost) {
                best = set;
                best_cost = cost;
                changed = true;
            }
        }
    }
    if (z->L <= SW__CODEC_MASK_MAX_SPAN && span >= 3u && factor >= 1.0) {
        const uint32_t mask = sw__cz_greedy_mask(z, a, s, factor * SW__CZ_MASK_SHARE);
        uint32_t bound = best_cost - best_cost / SW__CZ_MASK_GAIN;
        for (uint32_t m = 0; m < 2u; ++m) {
            sw__qset set;
            if (!sw__cz_fewest_bits(z, a, s, SW__CODEC_SL_MASK, mask, m == 0u, factor, bound, &set))
                continue;
            const uint32_t cost = sw__cz_cost(&set, span);
            if (cost < bound) {
                bound = cost;
                best = set;
                best_cost = cost;
                changed = true;
            }
        }
    }
    if (changed) sw__cz_commit(z, a, s, &best);
}

/* ---- setup ------------------------------------------------------------------ */

static void sw__cz_free(sw__cz* z) {
    const sw_allocator* al = z->alloc;
    const size_t J = z->J, N = z->N, L = z->L;
    sw_free(al, z->thr, sizeof(double) * J);
    sw_free(al, z->parents, sizeof(int32_t) * J);
    sw_free(al, z->sub, sizeof(uint32_t) * z->sub_count);
    sw_free(al, z->sub_at, sizeof(uint32_t) * (J + 1u));
    sw_free(al, z->raw, sizeof(float) * 3u * J * N * 4u);
    sw_free(al, z->dec, sizeof(float) * 3u * J * N * 4u);
    sw_free(al, z->raw_m, sizeof(double) * N * J * 12u);
    sw_free(al, z->dec_l, sizeof(double) * N * J * 12u);
    sw_free(al, z->dec_m, sizeof(double) * N * J * 12u);
    sw_free(al, z->scratch, sizeof(double) * J * 12u);
    sw_free(al, z->cand, sizeof(float) * (L + 1u) * 4u);
    sw_free(al, z->keys, sizeof(float) * (L + 1u) * 3u);
    sw_free(al, z->q, sizeof(uint32_t) * (L + 1u) * 3u);
    sw_free(al, z->kd, sizeof(uint32_t) * (L + 1u));
    sw_free(al, z->mode, 3u * J);
    sw_free(al, z->uniform, 3u * J);
    sw_free(al, z->constant, sizeof(float) * 3u * J * 4u);
    sw_free(al, z->aslot, sizeof(uint32_t) * 3u * J);
    sw_free(al, z->tracks, sizeof(sw_codec_track) * 3u * J);
    sw_free(al, z->sets, sizeof(sw__qset) * (size_t)z->S * 3u * J);
    sw_free(al, z->drop, (size_t)z->S * 3u * J);
}

static bool sw__cz_alloc(sw__cz* z) {
    const sw_allocator* al = z->alloc;
    const size_t J = z->J, N = z->N, L = z->L;
    z->thr = (double*)sw_alloc(al, sizeof(double) * J, 16);
    z->parents = (int32_t*)sw_alloc(al, sizeof(int32_t) * J, 16);
    z->sub_at = (uint32_t*)sw_alloc(al, sizeof(uint32_t) * (J + 1u), 16);
    z->raw = (float*)sw_alloc(al, sizeof(float) * 3u * J * N * 4u, 16);
    z->dec = (float*)sw_alloc(al, sizeof(float) * 3u * J * N * 4u, 16);
    z->raw_m = (double*)sw_alloc(al, sizeof(double) * N * J * 12u, 16);
    z->dec_l = (double*)sw_alloc(al, sizeof(double) * N * J * 12u, 16);
    z->dec_m = (double*)sw_alloc(al, sizeof(double) * N * J * 12u, 16);
    z->scratch = (double*)sw_alloc(al, sizeof(double) * J * 12u, 16);
    z->cand = (float*)sw_alloc(al, sizeof(float) * (L + 1u) * 4u, 16);
    z->keys = (float*)sw_alloc(al, sizeof(float) * (L + 1u) * 3u, 16);
    z->q = (uint32_t*)sw_alloc(al, sizeof(uint32_t) * (L + 1u) * 3u, 16);
    z->kd = (uint32_t*)sw_alloc(al, sizeof(uint32_t) * (L + 1u), 16);
    z->mode = (uint8_t*)sw_alloc(al, 3u * J, 16);
    z->uniform = (uint8_t*)sw_alloc(al, 3u * J, 16);
    z->constant = (float*)sw_alloc(al, sizeof(float) * 3u * J * 4u, 16);
    z->aslot = (uint32_t*)sw_alloc(al, sizeof(uint32_t) * 3u * J, 16);
    z->tracks = (sw_codec_track*)sw_alloc(al, sizeof(sw_codec_track) * 3u * J, 16);
    z->sets = (sw__qset*)sw_alloc(al, sizeof(sw__qset) * (size_t)z->S * 3u * J, 16);
    z->drop = (uint8_t*)sw_alloc(al, (size_t)z->S * 3u * J, 16);
    if (z->uniform) memset(z->uniform, 0, 3u * J);
    return z->thr && z->parents && z->sub_at && z->raw && z->dec && z->raw_m && z->dec_l &&
           z->uniform && z->dec_m && z->scratch && z->cand && z->keys && z->q && z->kd && z->mode &&
           z->constant && z->aslot && z->tracks && z->sets && z->drop;
}

/* Samples the source into raw (w >= 0), copies it to dec, builds matrices. */
static sw_result sw__cz_sample(sw__cz* z) {
    const sw_skeleton* skel = z->skel;
    const uint32_t P = skel->packets_count;
    sw_xform4* pose = (sw_xform4*)sw_alloc(z->alloc, sizeof(sw_xform4) * P, 16);
    if (!pose) return SW_RESULT_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < z->N; ++i) {
        const sw_sample_job job = {.clip = z->clip,
                                   .skeleton = skel,
                                   .time = sw__compress_time(i, z->rate, z->clip->duration),
                                   .out = pose,
                                   .out_count = P};
        sw_result r = sw_sample_job_run(&job);
        if (r != SW_RESULT_OK) {
            sw_free(z->alloc, pose, sizeof(sw_xform4) * P);
            return r;
        }
        for (uint32_t j = 0; j < z->J; ++j) {
            const sw_xform x = sw_xform4_get(&pose[j >> 2], j & 3u);
            float* t = sw__cz_val(z->raw, z, 3u * j, i);
            float* q = sw__cz_val(z->raw, z, 3u * j + 1u, i);
            float* s = sw__cz_val(z->raw, z, 3u * j + 2u, i);
            t[0] = x.t.x, t[1] = x.t.y, t[2] = x.t.z, t[3] = 0.0f;
            const float sign = x.r.w < 0.0f ? -1.0f : 1.0f;
            q[0] = sign * x.r.x, q[1] = sign * x.r.y, q[2] = sign * x.r.z, q[3] = sign * x.r.w;
            s[0] = x.s.x, s[1] = x.s.y, s[2] = x.s.z, s[3] = 0.0f;
            double l[12];
            sw__compress_mat_from(t, q, s, l);
            memcpy(sw__cz_mat(z->dec_l, z, i, j), l, sizeof l);
            double* m = sw__cz_mat(z->raw_m, z, i, j);
            if (z->parents[j] < 0)
                memcpy(m, l, sizeof l);
            else
                sw__compress_mat_mul(sw__cz_mat(z->raw_m, z, i, (uint32_t)z->parents[j]), l, m);
        }
    }
    sw_free(z->alloc, pose, sizeof(sw_xform4) * P);
    memcpy(z->dec, z->raw, sizeof(float) * 3u * z->J * z->N * 4u);
    memcpy(z->dec_m, z->raw_m, sizeof(double) * z->N * z->J * 12u);
    return SW_RESULT_OK;
}

/* Whether scale slot `slot` may be stored uniform: every sample's x y z
 * replaced by their mean (sw__cz_uniform_value) keeps the sub-tree within
 * a quarter of its precision, as a constant must; a constant uniform
 * scale then takes the mean of those (*value). Fills cand_all. */
static bool sw__cz_uniform_holds(sw__cz* z, uint32_t slot, bool constant, float* cand_all,
                                 float* value) {
    double sum = 0.0;
    for (uint32_t i = 0; i < z->N; ++i) {
        const float u = sw__cz_uniform_value(sw__cz_val(z->raw, z, slot, i));
        sum += (double)u;
        const float v[4] = {u, u, u, 0.0f};
        memcpy(cand_all + 4u * (size_t)i, v, sizeof v);
    }
    if (constant) {
        const float m = (float)(sum / (double)z->N);
        const float v[4] = {m, m, m, 0.0f};
        for (uint32_t i = 0; i < z->N; ++i)
            memcpy(cand_all + 4u * (size_t)i, v, sizeof v);
        *value = m;
    }
    return sw__cz_eval(z, slot, 0, z->N - 1u, cand_all, 0.25, false);
}

/* Whole-clip candidates: the rest value, then (scales) one uniform value,
 * then the mean; a scale left animated is stored uniform when
 * sw__cz_uniform_holds. */
static void sw__cz_constants(sw__cz* z, float* cand_all) {
    const sw_xform4* rest = sw_skeleton_rest_pose(z->skel);
    const bool additive = (z->clip->flags & SW_CLIP_FLAG_ADDITIVE) != 0u;
    for (uint32_t slot = 0; slot < 3u * z->J; ++slot) {
        if (z->mode[slot] == SW__SLOT_UNTRACKED) continue;
        const uint32_t j = slot / 3u, kind = slot % 3u;
        float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        if (kind == 1u) v[3] = 1.0f;
        if (kind == 2u) v[0] = v[1] = v[2] = 1.0f;
        if (!additive) {
            const sw_xform x = sw_xform4_get(&rest[j >> 2], j & 3u);
            if (kind == 0u) v[0] = x.t.x, v[1] = x.t.y, v[2] = x.t.z;
            if (kind == 1u) v[0] = x.r.x, v[1] = x.r.y, v[2] = x.r.z, v[3] = x.r.w;
            if (kind == 2u) v[0] = x.s.x, v[1] = x.s.y, v[2] = x.s.z;
        }
        for (uint32_t i = 0; i < z->N; ++i)
            memcpy(cand_all + 4u * (size_t)i, v, sizeof v);
        if (sw__cz_eval(z, slot, 0, z->N - 1u, cand_all, 0.25, false)) {
            sw__cz_eval(z, slot, 0, z->N - 1u, cand_all, 1.0, true);
            z->mode[slot] = SW__SLOT_DEFAULT;
            continue;
        }
        float uv = 0.0f;
        if (kind == 2u && sw__cz_uniform_holds(z, slot, true, cand_all, &uv)) {
            sw__cz_eval(z, slot, 0, z->N - 1u, cand_all, 1.0, true);
            z->mode[slot] = SW__SLOT_CONSTANT;
            z->uniform[slot] = 1u;
            const float cv[4] = {uv, uv, uv, 0.0f};
            memcpy(z->constant + 4u * (size_t)slot, cv, sizeof cv);
            continue;
        }
        double mean[4] = {0.0, 0.0, 0.0, 0.0};
        const float* first = sw__cz_val(z->raw, z, slot, 0);
        for (uint32_t i = 0; i < z->N; ++i) {
            const float* r = sw__cz_val(z->raw, z, slot, i);
            double sign = 1.0;
            if (kind == 1u &&
                r[0] * first[0] + r[1] * first[1] + r[2] * first[2] + r[3] * first[3] < 0.0f)
                sign = -1.0;
            for (uint32_t c = 0; c < 4u; ++c)
                mean[c] += sign * r[c];
        }
        for (uint32_t c = 0; c < 4u; ++c)
            mean[c] /= (double)z->N;
        if (kind == 1u) {
            double len =
                sqrt(mean[0] * mean[0] + mean[1] * mean[1] + mean[2] * mean[2] + mean[3] * mean[3]);
            if (!(len > 1e-6)) {
                z->mode[slot] = SW__SLOT_ANIMATED;
                continue;
            }
            for (uint32_t c = 0; c < 4u; ++c)
                mean[c] /= len;
        }
        for (uint32_t c = 0; c < 4u; ++c)
            v[c] = (float)mean[c];
        for (uint32_t i = 0; i < z->N; ++i)
            memcpy(cand_all + 4u * (size_t)i, v, sizeof v);
        if (sw__cz_eval(z, slot, 0, z->N - 1u, cand_all, 0.25, false)) {
            sw__cz_eval(z, slot, 0, z->N - 1u, cand_all, 1.0, true);
            z->mode[slot] = SW__SLOT_CONSTANT;
            memcpy(z->constant + 4u * (size_t)slot, v, sizeof v);
            continue;
        }
        z->mode[slot] = SW__SLOT_ANIMATED;
        if (kind == 2u && sw__cz_uniform_holds(z, slot, false, cand_all, &uv))
            z->uniform[slot] = 1u;
    }
}

/* ---- output ------------------------------------------------------------------ */

static void sw__put_bits(uint8_t* out, uint64_t* bit, uint32_t v, uint32_t b) {
    for (uint32_t i = 0; i < b; ++i) {
        if (v & (1u << i)) out[*bit >> 3] = (uint8_t)(out[*bit >> 3] | (1u << (*bit & 7u)));
        ++*bit;
    }
}

sw_result sw__clip_builder_check(const sw_skeleton* skel, const sw_clip* clip, const void* out,
                                 sw_error* err) {
    if (!skel || !clip || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if (clip->codec != SW_CLIP_CODEC_RAW) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "raw clip", 0, -1);
    }
    if (clip->joints_count != skel->joints_count) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "joint counts match", 0, -1);
    }
    return SW_RESULT_OK;
}

/* The raw part of a codec clip (float tracks, events, name, flags of src)
 * built by sw_clip_init, with payload_size zeroed bytes (a multiple of 16)
 * inserted at sw_clip_codec_offset and codec set; the caller fills the
 * payload and loads the block (sw_clip_load). *mem (16-byte aligned, *size
 * bytes) is allocated with al. */
sw_result sw__clip_with_payload(const sw_clip* src, uint32_t codec, uint32_t payload_size,
                                const sw_allocator* al, char** mem_out, size_t* size_out,
                                sw_error* err) {
    const uint32_t F = src->float_tracks_count, E = src->events_count;
    sw_clip_track_desc* fd =
        (sw_clip_track_desc*)sw_alloc(al, sizeof(sw_clip_track_desc) * (F ? F : 1u), 16);
    sw_clip_event_desc* ed =
        (sw_clip_event_desc*)sw_alloc(al, sizeof(sw_clip_event_desc) * (E ? E : 1u), 16);
    if (!fd || !ed) {
        sw_free(al, fd, sizeof(sw_clip_track_desc) * (F ? F : 1u));
        sw_free(al, ed, sizeof(sw_clip_event_desc) * (E ? E : 1u));
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    }
    const sw_clip_track* tracks = sw_clip_tracks(src);
    for (uint32_t f = 0; f < F; ++f) {
        const sw_clip_track* t = &tracks[src->tracks_count - F + f];
        memset(&fd[f], 0, sizeof fd[f]);
        fd[f].kind = SW_TRACK_KIND_FLOAT;
        fd[f].name = sw_clip_float_track_name(src, f);
        fd[f].interp = (sw_interp)t->interp;
        fd[f].keys_count = t->keys_count;
        fd[f].times = sw_clip_track_times(src, t);
        fd[f].start = t->start;
        fd[f].rate = t->rate;
        fd[f].values = sw_clip_track_values(src, t);
    }
    for (uint32_t e = 0; e < E; ++e) {
        ed[e].time = sw_clip_events(src)[e].time;
        ed[e].name = sw_clip_event_name(src, e);
    }
    const sw_clip_desc cd = {.name = sw_clip_name(src),
                             .duration = src->duration,
                             .joints_count = src->joints_count,
                             .additive = (src->flags & SW_CLIP_FLAG_ADDITIVE) != 0u,
                             .tracks = fd,
                             .tracks_count = F,
                             .events = ed,
                             .events_count = E};
    const size_t raw_size = sw_clip_measure(&cd);
    char* raw = raw_size ? (char*)sw_alloc(al, raw_size, 16) : NULL;
    const sw_clip* rc = NULL;
    sw_result r = raw ? sw_clip_init(raw, raw_size, &cd, &rc, err) : SW_RESULT_OUT_OF_MEMORY;
    sw_free(al, fd, sizeof(sw_clip_track_desc) * (F ? F : 1u));
    sw_free(al, ed, sizeof(sw_clip_event_desc) * (E ? E : 1u));
    if (r != SW_RESULT_OK) {
        sw_free(al, raw, raw_size);
        if (r == SW_RESULT_OUT_OF_MEMORY) sw__fail(err, r, "allocation", 0, -1);
        return r;
    }
    const uint32_t q = rc->tracks_offset;
    const uint32_t P = payload_size;
    if ((uint64_t)P + raw_size > 0xFFFFFFF0u) {
        sw_free(al, raw, raw_size);
        return sw__fail(err, SW_RESULT_LIMIT, "block size", 0, -1);
    }
    const size_t size = raw_size + P;
    char* mem = (char*)sw_alloc(al, size, 16);
    if (!mem) {
        sw_free(al, raw, raw_size);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    }
    memset(mem, 0, size);
    memcpy(mem, raw, q);
    memcpy(mem + q + P, raw + q, raw_size - q);
    sw_free(al, raw, raw_size);
    sw_clip* c = (sw_clip*)(void*)mem;
    c->size = (uint32_t)size;
    c->codec = codec;
    c->tracks_offset += P;
    c->events_offset += P;
    c->name_offset += P;
    sw_clip_track* ct = (sw_clip_track*)(void*)(mem + c->tracks_offset);
    for (uint32_t i = 0; i < c->tracks_count; ++i) {
        if (ct[i].times_offset) ct[i].times_offset += P;
        ct[i].values_offset += P;
        ct[i].target += P; /* float tracks only: name offsets */
    }
    sw_clip_event* ce = (sw_clip_event*)(void*)(mem + c->events_offset);
    for (uint32_t e = 0; e < c->events_count; ++e)
        ce[e].name_offset += P;
    *mem_out = mem;
    *size_out = size;
    return SW_RESULT_OK;
}

/* Writes the block: the raw part (float tracks, events, names) with the
 * codec payload inserted after the joint table. */
static sw_result sw__cz_write(sw__cz* z, const sw_clip** out, sw_error* err) {
    const sw_allocator* al = z->alloc;
    /* Payload layout. */
    const uint32_t J = z->J, A = z->A, S = z->S;
    uint32_t C = 0, U = 0; /* constant records, uniform constants (4 to a record) */
    for (uint32_t s = 0; s < 3u * J; ++s) {
        if (z->mode[s] == SW__SLOT_CONSTANT && z->uniform[s])
            ++U;
        else if (z->mode[s] == SW__SLOT_CONSTANT)
            ++C;
    }
    const uint32_t C4 = 4u * C; /* the first uniform constant's float */
    C += (U + 3u) / 4u;
    const uint32_t slots_off = (uint32_t)sizeof(sw_codec_header);
    const uint32_t tracks_off = (uint32_t)sw__align16(slots_off + 12u * J);
    const uint32_t consts_off =
        (uint32_t)sw__align16(tracks_off + (uint32_t)sizeof(sw_codec_track) * A);
    const uint32_t segs_off = consts_off + 16u * C;
    uint32_t data = (uint32_t)sw__align16(segs_off + 4u * (S + 1u));
    uint64_t total = data;
    for (uint32_t s = 0; s < S; ++s) {
        const uint32_t span = sw__cz_span(z, s);
        uint64_t bits = 0, hb = 0;
        for (uint32_t a = 0; a < A; ++a) {
            const sw__qset* set = &z->sets[(size_t)s * A + a];
            hb += sw__cz_header_bytes(set);
            bits += (uint64_t)sw__cz_keys(set, span) * sw__cz_key_bits(set);
        }
        total += 4u + hb + (bits + 7u) / 8u;
    }
    total = sw__align16(total + 8u); /* 8 spare bytes: 64-bit key loads */
    if (total > 0xFFFFFFF0u) return sw__fail(err, SW_RESULT_LIMIT, "block size", 0, -1);
    const uint32_t P = (uint32_t)total;
    char* mem = NULL;
    size_t size = 0;
    sw_result r = sw__clip_with_payload(z->clip, SW_CLIP_CODEC_QUANTIZED, P, al, &mem, &size, err);
    if (r != SW_RESULT_OK) return r;
    const uint32_t q = sw_clip_codec_offset((const sw_clip*)(const void*)mem);
    uint8_t* pl = (uint8_t*)mem + q;
    sw_codec_header* h = (sw_codec_header*)(void*)pl;
    h->size = P;
    h->samples_count = z->N;
    h->rate = z->rate;
    h->segment_samples = z->L;
    h->segments_count = S;
    h->animated_count = A;
    h->constants_count = C;
    h->slots_offset = slots_off;
    h->tracks_offset = tracks_off;
    h->constants_offset = consts_off;
    h->segments_offset = segs_off;
    uint32_t* slots = (uint32_t*)(void*)(pl + slots_off);
    float* consts = (float*)(void*)(pl + consts_off);
    uint32_t ci = 0, ai = 0, ui = C4;
    for (uint32_t s = 0; s < 3u * J; ++s) {
        if (z->mode[s] == SW__SLOT_CONSTANT && z->uniform[s]) {
            consts[ui] = z->constant[4u * (size_t)s];
            slots[s] = SW_CODEC_SLOT_CONSTANT | SW_CODEC_SLOT_UNIFORM | ui++;
            continue;
        }
        switch (z->mode[s]) {
        case SW__SLOT_CONSTANT:
            memcpy(consts + 4u * (size_t)ci, z->constant + 4u * (size_t)s, 16u);
            slots[s] = SW_CODEC_SLOT_CONSTANT | ci++;
            break;
        case SW__SLOT_ANIMATED:
            slots[s] = ai++;
            break;
        default:
            slots[s] = SW_CODEC_SLOT_DEFAULT;
            break;
        }
    }
    memcpy(pl + tracks_off, z->tracks, sizeof(sw_codec_track) * A);
    uint32_t* offs = (uint32_t*)(void*)(pl + segs_off);
    for (uint32_t s = 0; s < S; ++s) {
        const uint32_t span = sw__cz_span(z, s);
        offs[s] = data;
        uint8_t* d = pl + data;
        uint32_t hb = 0;
        for (uint32_t a = 0; a < A; ++a) {
            const sw__qset* set = &z->sets[(size_t)s * A + a];
            uint8_t bytes[16];
            const uint32_t n = sw__cz_set_bytes(set, bytes);
            memcpy(d + 4u + hb, bytes, n);
            hb += n;
        }
        d[0] = (uint8_t)hb;
        d[1] = (uint8_t)(hb >> 8);
        d[2] = (uint8_t)(hb >> 16);
        d[3] = (uint8_t)(hb >> 24);
        uint8_t* bits = d + 4u + hb;
        uint64_t at = 0;
        for (uint32_t a = 0; a < A; ++a) {
            const sw__qset* set = &z->sets[(size_t)s * A + a];
            sw__cz_decode(z, a, s, set);
            const uint32_t nkeys = sw__cz_keys(set, span);
            const uint32_t b[3] = {SW__CODEC_FMT_BITS(set->fmt), SW__CODEC_FMT_BITS1(set->bits12),
                                   SW__CODEC_FMT_BITS2(set->bits12)};
            const uint32_t comps = set->uniform ? 1u : 3u;
            for (uint32_t k = 0; k < nkeys; ++k) {
                if (set->dropped == SW__CODEC_DROP_PER_KEY) sw__put_bits(bits, &at, z->kd[k], 2u);
                for (uint32_t cc = 0; cc < comps; ++cc)
                    sw__put_bits(bits, &at, z->q[3u * k + cc], b[cc]);
            }
        }
        data += 4u + hb + (uint32_t)((at + 7u) / 8u);
    }
    offs[S] = data;
    r = sw_clip_load(mem, size, out, err);
    if (r != SW_RESULT_OK) sw_free(al, mem, size);
    return r;
}

/* ---- entry ------------------------------------------------------------------- */

static double sw__now(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The options' values in range (J: joints of the skeleton). */
static sw_result sw__cz_check_options(const sw_compress_options* o, uint32_t J, sw_error* err) {
    if (!isfinite(o->precision) || o->precision < 0.0f || !isfinite(o->shell) || o->shell < 0.0f ||
        !isfinite(o->rate) || o->rate < 0.0f) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "options finite >= 0", 0, -1);
    }
    if (o->segment_samples != 0 &&
        (o->segment_samples < 4u || o->segment_samples > SW_CODEC_MAX_SEGMENT_SAMPLES ||
         (o->segment_samples & (o->segment_samples - 1u)) != 0)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "segment samples a power of two", 0, -1);
    }
    if (o->joint_precision) {
        for (uint32_t j = 0; j < J; ++j) {
            if (!isfinite(o->joint_precision[j]) || o->joint_precision[j] < 0.0f) {
                return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "joint precision finite >= 0", 0,
                                (int64_t)j);
            }
        }
    }
    return SW_RESULT_OK;
}

/* Descendants of each joint in index order (parents come first) into
 * z->sub / z->sub_at; false when allocating fails. */
static bool sw__cz_subtrees(sw__cz* z) {
    const uint32_t J = z->J;
    size_t count = 0;
    for (int pass = 0; pass < 2; ++pass) {
        count = 0;
        for (uint32_t j = 0; j < J; ++j) {
            if (pass) z->sub_at[j] = (uint32_t)count;
            for (uint32_t d = j + 1u; d < J; ++d) {
                int32_t p = z->parents[d];
                while (p > (int32_t)j)
                    p = z->parents[p];
                if (p != (int32_t)j) continue;
                if (pass) z->sub[count] = d;
                ++count;
            }
        }
        if (pass) {
            z->sub_at[J] = (uint32_t)count;
        } else {
            z->sub_count = count ? count : 1u;
            z->sub = (uint32_t*)sw_alloc(z->alloc, sizeof(uint32_t) * z->sub_count, 16);
            if (!z->sub) return false;
        }
    }
    return true;
}

/* Each joint's reach into reach[J]: the largest distance, over the
 * samples, from the joint to a virtual vertex of its sub-tree (a rotation
 * error of e rad at the joint moves none of them by more than e * reach),
 * times the joints on the longest chain from a root to a leaf through it
 * (the errors of a chain's joints add up at its end). */
static uint32_t sw__cz_depth(const sw__cz* z, uint32_t j) {
    uint32_t n = 0;
    for (int32_t p = z->parents[j]; p >= 0; p = z->parents[p])
        ++n;
    return n;
}

static void sw__cz_reach(const sw__cz* z, double* reach) {
    for (uint32_t j = 0; j < z->J; ++j) {
        uint32_t deepest = sw__cz_depth(z, j);
        for (uint32_t k = z->sub_at[j]; k < z->sub_at[j + 1u]; ++k) {
            const uint32_t d = sw__cz_depth(z, z->sub[k]);
            if (d > deepest) deepest = d;
        }
        double far2 = 0.0;
        for (uint32_t i = 0; i < z->N; ++i) {
            const double* mj = sw__cz_mat(z->raw_m, z, i, j);
            for (uint32_t k = z->sub_at[j]; k < z->sub_at[j + 1u]; ++k) {
                const double* md = sw__cz_mat(z->raw_m, z, i, z->sub[k]);
                double d2 = 0.0;
                for (uint32_t r = 0; r < 3u; ++r)
                    d2 += (md[9u + r] - mj[9u + r]) * (md[9u + r] - mj[9u + r]);
                if (d2 > far2) far2 = d2;
            }
        }
        reach[j] = (sqrt(far2) + z->shell) * (double)(deepest + 1u);
    }
}

/* Fractions at which sw__cz_off_arc measures each interpolation: the
 * lerp's departure from the arc peaks at 1/2; the short arc's (a fit's
 * residue) is measured at each eighth. */
static const double sw__cz_lerp_at[3] = {0.25, 0.5, 0.75};
static const double sw__cz_short_at[7] = {0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875};

/* Smallest cosine between two samples (of the raw keys, a margin over
 * cos 45 degrees for the quantized ones) at which the short arc
 * (sw__codec_short_arc) is tried. */
#define SW__CZ_SHORT_COS 0.72

/* True when the decoder's interpolation `interp` (SW__CODEC_INTERP_LERP:
 * three components lerped, the fourth rebuilt; SW__CODEC_INTERP_SHORT:
 * both keys rebuilt and followed along their arc in one piece) with
 * component d left out parts from the arc between two samples of rotation
 * track a in segment s by more than a tenth of the joint's precision at
 * its reach (sw__cz_reach; measured at sw__cz_lerp_at or sw__cz_short_at
 * against the samples' slerp: where the raw clip's keys are the samples,
 * that is the raw clip), or, the lerp, would take the longer way (the
 * short arc: two samples' cosine below SW__CZ_SHORT_COS). The decoder then
 * follows that segment's keys along their arc in halves. */
static bool sw__cz_off_arc(const sw__cz* z, uint32_t a, uint32_t s, uint32_t d, double reach,
                           uint32_t interp) {
    const uint32_t first = s * z->L, span = sw__cz_span(z, s);
    const uint32_t slot = z->aslot[a];
    const double allowed = 0.1 * z->thr[slot / 3u];
    const bool short_arc = interp == SW__CODEC_INTERP_SHORT;
    const double* at = short_arc ? sw__cz_short_at : sw__cz_lerp_at;
    const uint32_t points = short_arc ? 7u : 3u;
    for (uint32_t i = first; i < first + span; ++i) {
        const float* va = sw__cz_val(z->raw, z, slot, i);
        const float* vb = sw__cz_val(z->raw, z, slot, i + 1u);
        const double sa = va[d] < 0.0f ? -1.0 : 1.0;
        double sb = vb[d] < 0.0f ? -1.0 : 1.0;
        double dot = 0.0;
        for (uint32_t c = 0; c < 4u; ++c)
            dot += sa * va[c] * sb * vb[c];
        if (short_arc && dot < 0.0) { /* the short arc takes the shorter way */
            sb = -sb;
            dot = -dot;
        }
        if (dot < (short_arc ? SW__CZ_SHORT_COS : 0.0)) return true;
        const double om = acos(dot < 1.0 ? dot : 1.0);
        /* the lerp parts from the arc by O(om^2), the short arc by less:
         * nothing to measure on a turn this small */
        if (!(om * reach > 0.01 * allowed)) continue;
        float ka[3], kb[3];
        for (uint32_t c = 0; c < 3u; ++c) {
            ka[c] = sw__cz_comp(z, a, i, c, d);
            kb[c] = sw__cz_comp(z, a, i + 1u, c, d);
        }
        for (uint32_t q = 0; q < points; ++q) {
            const double u = at[q];
            const double wa = sin((1.0 - u) * om) / sin(om), wb = sin(u * om) / sin(om);
            float got[4];
            sw__codec_interp(ka, kb, (float)u, true, interp, d, d, got);
            double chord2 = 0.0;
            for (uint32_t c = 0; c < 4u; ++c) {
                const double e = wa * sa * va[c] + wb * sb * vb[c] - got[c];
                chord2 += e * e;
            }
            if (4.0 * asin(fmin(1.0, 0.5 * sqrt(chord2))) * reach > allowed) return true;
        }
    }
    return false;
}

/* The animated tracks (z->tracks, z->aslot, z->A), the left-out rotation
 * component of each segment (z->drop) and each track's clip range. */
static void sw__cz_ranges(sw__cz* z, const double* reach) {
    for (uint32_t slot = 0; slot < 3u * z->J; ++slot) {
        if (z->mode[slot] != SW__SLOT_ANIMATED) continue;
        sw_codec_track* t = &z->tracks[z->A];
        memset(t, 0, sizeof *t);
        t->joint = (uint16_t)(slot / 3u);
        t->kind = (uint8_t)(slot % 3u + 1u);
        t->flags = z->uniform[slot] ? (uint8_t)SW_CODEC_TRACK_UNIFORM : 0u;
        z->aslot[z->A] = slot;
        ++z->A;
    }
    for (uint32_t a = 0; a < z->A; ++a) {
        sw_codec_track* t = &z->tracks[a];
        const uint32_t slot = z->aslot[a];
        float lo[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
        float hi[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
        for (uint32_t s = 0; s < z->S; ++s) {
            const uint32_t first = s * z->L, span = sw__cz_span(z, s);
            uint32_t d = SW__CODEC_DROP_NONE;
            float best_low = 1.0f;
            if (t->kind == SW_TRACK_KIND_ROTATION) {
                /* Leave out the component farthest from 0 over the segment. */
                float best = -1.0f;
                for (uint32_t k = 0; k < 4u; ++k) {
                    float low = INFINITY;
                    for (uint32_t i = first; i <= first + span; ++i) {
                        const float v = fabsf(sw__cz_val(z->raw, z, slot, i)[k]);
                        if (v < low) low = v;
                    }
                    if (low > best) {
                        best = low;
                        d = k;
                    }
                }
                best_low = best;
            }
            /* When every component comes near 0 in the segment (a wide turn),
             * rebuilding one loses precision: each key names its largest. */
            if (t->kind == SW_TRACK_KIND_ROTATION && best_low < 0.25f) d = SW__CODEC_DROP_PER_KEY;
            /* the lerp where it stays on the arc, else the arc in one piece
             * where it is short enough (cheaper to decode), else in halves */
            uint32_t interp = SW__CODEC_INTERP_LERP;
            if (t->kind == SW_TRACK_KIND_ROTATION && d != SW__CODEC_DROP_PER_KEY &&
                sw__cz_off_arc(z, a, s, d, reach[t->joint], SW__CODEC_INTERP_LERP)) {
                interp = sw__cz_off_arc(z, a, s, d, reach[t->joint], SW__CODEC_INTERP_SHORT)
                             ? SW__CODEC_INTERP_ARC
                             : SW__CODEC_INTERP_SHORT;
            }
            z->drop[(size_t)s * z->A + a] = (uint8_t)(d | sw__cz_rot_bits[interp]);
            if (d == SW__CODEC_DROP_PER_KEY) continue;
            for (uint32_t i = first; i <= first + span; ++i) {
                for (uint32_t c = 0; c < 3u; ++c) {
                    const uint32_t ci = sw__codec_kept[d][c];
                    const float v = sw__cz_comp(z, a, i, c, d);
                    if (v < lo[ci]) lo[ci] = v;
                    if (v > hi[ci]) hi[ci] = v;
                }
            }
        }
        for (uint32_t c = 0; c < 4u; ++c) {
            if (!(lo[c] <= hi[c])) lo[c] = hi[c] = 0.0f;
            t->min[c] = lo[c];
            t->extent[c] = hi[c] - lo[c];
        }
    }
}

/* One compression of `clip` at `rate` with every joint's threshold scaled
 * by `tighten`: *out, the slot modes' counts (counts[4]: the uniform scales) and the
 * samples count. */
static sw_result sw__cz_run(const sw_skeleton* skel, const sw_clip* clip,
                            const sw_compress_options* o, float rate, double tighten,
                            const sw_allocator* alloc, const sw_clip** out, uint32_t counts[5],
                            uint32_t* samples, sw_error* err) {
    const uint32_t J = skel->joints_count;
    sw__cz z;
    memset(&z, 0, sizeof z);
    z.skel = skel;
    z.clip = clip;
    z.alloc = alloc;
    z.J = J;
    z.rate = rate;
    z.N = sw_compress_samples_count(clip, z.rate);
    if (z.N > SW_CLIP_MAX_KEYS) return sw__fail(err, SW_RESULT_LIMIT, "samples count", 0, -1);
    z.L = o->segment_samples ? o->segment_samples : 32u;
    z.S = (z.N - 1u + z.L - 1u) / z.L;
    z.shell = o->shell > 0.0f ? o->shell : 3.0;
    /* 0.5% under the precision: the metric's float model matrices differ
     * from the search's double ones by a few ulps. */
    const double precision = (o->precision > 0.0f ? o->precision : 0.01) * 0.995 * tighten;
    if (!sw__cz_alloc(&z)) {
        sw__cz_free(&z);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    }
    const int16_t* parents = sw_skeleton_parents(skel);
    for (uint32_t j = 0; j < J; ++j) {
        z.parents[j] = parents[j];
        z.thr[j] = precision;
        if (o->joint_precision && o->joint_precision[j] > 0.0f &&
            o->joint_precision[j] * 0.995 * tighten < precision)
            z.thr[j] = o->joint_precision[j] * 0.995 * tighten;
    }
    if (!sw__cz_subtrees(&z)) {
        sw__cz_free(&z);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    }
    sw_result r = sw__cz_sample(&z);
    if (r != SW_RESULT_OK) {
        sw__cz_free(&z);
        if (r == SW_RESULT_OUT_OF_MEMORY) return sw__fail(err, r, "allocation", 0, -1);
        return sw__fail(err, r, "sampling the clip", 0, -1);
    }
    for (uint32_t slot = 0; slot < 3u * J; ++slot) {
        z.mode[slot] = sw_clip_joint_tracks(clip, slot / 3u)[slot % 3u] == SW_CLIP_NO_TRACK
                           ? (uint8_t)SW__SLOT_UNTRACKED
                           : (uint8_t)SW__SLOT_ANIMATED;
    }
    float* cand_all = (float*)sw_alloc(alloc, sizeof(float) * 4u * z.N, 16);
    if (!cand_all) {
        sw__cz_free(&z);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    }
    sw__cz_constants(&z, cand_all);
    sw_free(alloc, cand_all, sizeof(float) * 4u * z.N);

    double* reach = (double*)sw_alloc(alloc, sizeof(double) * J, 16);
    if (!reach) {
        sw__cz_free(&z);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    }
    sw__cz_reach(&z, reach);
    sw__cz_ranges(&z, reach);
    sw_free(alloc, reach, sizeof(double) * J);
    for (uint32_t s = 0; s < z.S; ++s) {
        for (uint32_t a = 0; a < z.A; ++a) {
            const uint32_t b16[3] = {15u, 15u, 15u}; /* 22 bits */
            const sw__qset set = sw__cz_make_set(&z, a, s, 0, 0, true, b16);
            sw__cz_commit(&z, a, s, &set);
        }
    }
    /* Growing allowances share the error among the tracks of a chain
     * (measured on the CMU captures: one pass at the full precision gives
     * ratios about 15% lower). */
    static const double factors[6] = {0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
    for (uint32_t s = 0; s < z.S; ++s) {
        for (uint32_t a = 0; a < z.A; ++a)
            sw__cz_commit(&z, a, s, &z.sets[(size_t)s * z.A + a]);
        for (uint32_t f = 0; f < 6u; ++f) {
            for (uint32_t a = 0; a < z.A; ++a)
                sw__cz_search(&z, a, s, factors[f]);
        }
    }
    r = sw__cz_write(&z, out, err);
    memset(counts, 0, 5u * sizeof(uint32_t));
    for (uint32_t slot = 0; slot < 3u * J; ++slot) {
        ++counts[z.mode[slot]];
        counts[4] += z.uniform[slot];
    }
    *samples = z.N;
    sw__cz_free(&z);
    return r;
}

/* The rate nudged so the clip's duration is a whole number of sample
 * intervals: the last sample, taken at the end, is where the decoder puts
 * it. */
static float sw__cz_whole_rate(const sw_clip* clip, float rate) {
    const double d = (double)clip->duration;
    if (!(d > 0.0)) return rate;
    const double f = d * (double)rate;
    const double n = ceil(f - 1e-3);
    /* Already whole (within 1e-3 of an interval): kept as it is, so a key
     * grid's rate stays exact. */
    if (fabs(f - floor(f + 0.5)) <= 1e-3) return rate;
    return n >= 1.0 ? (float)(n / d) : rate;
}

/* Measures the result at the samples, the source's key times and the
 * quarter points between them all (sw_clip_error_measure with at_keys and
 * between 3) into *e; *ok when every joint is within its precision. */
static sw_result sw__cz_verify(const sw_skeleton* skel, const sw_clip* clip, const sw_clip* packed,
                               const sw_compress_options* o, float rate, const sw_allocator* alloc,
                               sw_clip_error* e, bool* ok, sw_error* err) {
    const uint32_t J = skel->joints_count;
    float* jmax = (float*)sw_alloc(alloc, sizeof(float) * J, 16);
    if (!jmax) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    const sw_clip_error_desc ed = {.skeleton = skel,
                                   .reference = clip,
                                   .clip = packed,
                                   .shell = o->shell > 0.0f ? o->shell : 3.0f,
                                   .rate = rate,
                                   .at_keys = true,
                                   .joint_max = jmax,
                                   .between = 3};
    sw_result r = sw_clip_error_measure(&ed, alloc, e, err);
    const float precision = o->precision > 0.0f ? o->precision : 0.01f;
    *ok = r == SW_RESULT_OK;
    for (uint32_t j = 0; j < J && *ok; ++j) {
        float p = precision;
        if (o->joint_precision && o->joint_precision[j] > 0.0f && o->joint_precision[j] < p)
            p = o->joint_precision[j];
        if (jmax[j] > p) *ok = false;
    }
    sw_free(alloc, jmax, sizeof(float) * J);
    return r;
}

/* The next settings after a result out of bounds. A worst error on a
 * sample, or less than twice the precision, is the quantization's: the
 * thresholds are halved (twice at most while the rate can still grow). A
 * larger one at a source key between samples is the resampling's, which
 * falls with the interval: the rate grows by the power of two that should
 * bring it under (up to SW__CZ_MAX_RATE). False when neither can move. */
static bool sw__cz_next(const sw_clip* clip, const sw_clip_error* e, double precision, float* rate,
                        double* tighten) {
    const double at = (double)e->worst_time * (double)*rate;
    const bool on_sample = fabs(at - floor(at + 0.5)) < 1e-3;
    double factor = 2.0;
    while (factor < 64.0 && factor * factor * precision < 1.1 * (double)e->max)
        factor *= 2.0;
    float higher = sw__cz_whole_rate(clip, (float)factor * *rate);
    if (higher > SW__CZ_MAX_RATE && *rate < SW__CZ_MAX_RATE / 2.0f)
        higher = sw__cz_whole_rate(clip, *rate * floorf(SW__CZ_MAX_RATE / *rate));
    const bool can_raise = higher > *rate && higher <= SW__CZ_MAX_RATE &&
                           sw_compress_samples_count(clip, higher) <= SW_CLIP_MAX_KEYS;
    const bool quantization = on_sample || (double)e->max < 2.0 * precision;
    if (can_raise && !(quantization && *tighten > 0.25)) {
        *rate = higher;
        return true;
    }
    if (!(*tighten > 1.0 / 64.0)) return false;
    *tighten *= 0.5;
    return true;
}

sw_result sw_compress_clip(const sw_skeleton* skel, const sw_clip* clip,
                           const sw_compress_options* options, const sw_allocator* alloc,
                           const sw_clip** out, sw_compress_stats* stats, sw_error* err) {
    sw_result r = sw__clip_builder_check(skel, clip, out, err);
    if (r != SW_RESULT_OK) return r;
    sw_compress_options o;
    memset(&o, 0, sizeof o);
    if (options) o = *options;
    const uint32_t J = skel->joints_count;
    r = sw__cz_check_options(&o, J, err);
    if (r != SW_RESULT_OK) return r;
    float rate = sw__cz_whole_rate(clip, o.rate > 0.0f ? o.rate : sw_compress_sample_rate(clip));
    double tighten = 1.0, seconds = 0.0;
    for (;;) {
        const double t0 = sw__now();
        uint32_t counts[5], samples = 0;
        r = sw__cz_run(skel, clip, &o, rate, tighten, alloc, out, counts, &samples, err);
        seconds += sw__now() - t0;
        if (r != SW_RESULT_OK) return r;
        sw_clip_error e;
        bool ok = false;
        r = sw__cz_verify(skel, clip, *out, &o, rate, alloc, &e, &ok, err);
        if (stats && r == SW_RESULT_OK) {
            memset(stats, 0, sizeof *stats);
            stats->raw_bytes = 40u * (uint64_t)J * samples;
            stats->compressed_bytes = (*out)->size;
            stats->ratio = (double)stats->raw_bytes / (double)stats->compressed_bytes;
            stats->seconds = seconds;
            stats->default_tracks = counts[SW__SLOT_DEFAULT] + counts[SW__SLOT_UNTRACKED];
            stats->constant_tracks = counts[SW__SLOT_CONSTANT];
            stats->animated_tracks = counts[SW__SLOT_ANIMATED];
            stats->uniform_scales = counts[4];
            stats->rate = rate;
            stats->samples_count = samples;
            stats->error = e;
        }
        if (r == SW_RESULT_OK && ok) return SW_RESULT_OK;
        sw_clip_destroy(*out, alloc);
        *out = NULL;
        if (r != SW_RESULT_OK) return r;
        if (!sw__cz_next(clip, &e, o.precision > 0.0f ? o.precision : 0.01, &rate, &tighten)) {
            return sw__fail(err, SW_RESULT_LIMIT, "error within precision", 0,
                            (int64_t)e.worst_joint);
        }
    }
}
