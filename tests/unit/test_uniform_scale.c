/* Uniform scale in the quantized codec (issue 19 item 7): a scale whose x, y
 * and z agree within the error budget is stored as one value, a constant
 * as one float (SW_CODEC_SLOT_UNIFORM), an animated track as one quantized
 * component per key (SW_CODEC_TRACK_UNIFORM). Checked against a second
 * writer of the format: each compressed clip is rewritten here with its
 * uniform scales stored as three equal components and constant records,
 * as clips were before, which must load and sample to the same bits (cold,
 * cached, scalar and SSE2 decoders, one joint at a time, a joint subset
 * leaving the uniform tracks out) and be larger by
 * the bytes the format's layout predicts. Also: the uniform joints' x = y
 * = z bit for bit and within the precision of the source, a non-uniform
 * scale not collapsed, tests/data/gltf/scale.gltf through the glTF reader,
 * and hostile blocks refused with named checks. */
#include "clip_fixture.h"

#include "runtime/codecs/codec_quantized.h"
#include "runtime/core/internal.h"
#include "sinew/codecs/codec.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/readers/asset.h"
#include "tools/builders/compress_internal.h"

#define J 8
#define KEYS 121 /* 2 s at 60 Hz */
#define RATE 60.0f
#define PRECISION 1e-3f

/* Joints 1, 2, 4 and 6 hold constant uniform scales, joint 3 an animated
 * uniform one, joint 5 an animated one whose y and z part from x by 2e-6
 * (a 2e-6 error at the 1-unit shell: within the budget), joint 7 an
 * animated scale that is not uniform, joint 0 a constant one that is not. */
static const float constant_scale[J] = {0.0f, 1.25f, 0.8f, 0.0f, 1.1f, 0.0f, 0.9f, 0.0f};
enum { UNIFORM_SCALES = 6 };

typedef struct fixture {
    const sw_skeleton* skel;
    const sw_clip* raw;
    float t0[KEYS * 3];
    float r[J][KEYS * 4];
    float s[J][KEYS * 3];
    float w[KEYS];
} fixture;

static float animated_scale(float t) {
    return 1.0f + 0.25f * sinf(2.0f * t);
}

static fixture* fixture_new(void) {
    static const int32_t parents[J] = {-1, 0, 1, 2, 0, 4, 0, 6};
    static const char* const names[J] = {"root", "a", "b", "c", "d", "e", "f", "g"};
    sw_xform rests[J];
    for (uint32_t j = 0; j < J; ++j) {
        rests[j] = sw_xform_identity();
        rests[j].t = (sw_vec3){j == 4 ? 0.5f : 0.0f, j == 0 ? 0.0f : 1.0f, 0.0f};
    }
    fixture* f = (fixture*)calloc(1, sizeof *f);
    assert_non_null(f);
    f->skel = clip_fixture_skeleton(names, parents, rests, J);
    sw_clip_track_desc tracks[2 * J + 2];
    uint32_t n = 0;
    memset(tracks, 0, sizeof tracks);
    for (uint32_t k = 0; k < KEYS; ++k) {
        const float t = (float)k / RATE;
        clip_fixture_translation(t, &f->t0[3 * k]);
        for (uint32_t j = 0; j < J; ++j) {
            const sw_quat q = clip_fixture_rotation(j, t);
            memcpy(&f->r[j][4 * k], &q, sizeof q);
            float* s = &f->s[j][3 * k];
            s[0] = s[1] = s[2] = constant_scale[j];
            if (j == 0) s[0] = s[2] = 1.0f, s[1] = 1.2f;
            if (j == 3 || j == 5) s[0] = s[1] = s[2] = animated_scale(t);
            if (j == 5) s[1] += 2e-6f, s[2] -= 2e-6f;
            if (j == 7)
                s[0] = 1.0f + 0.3f * sinf(t), s[1] = 1.0f, s[2] = 1.0f - 0.2f * sinf(3.0f * t);
        }
        f->w[k] = clip_fixture_curve(t);
    }
    tracks[n++] = clip_fixture_track(SW_TRACK_KIND_TRANSLATION, 0, KEYS, RATE, f->t0);
    for (uint32_t j = 0; j < J; ++j) {
        tracks[n++] = clip_fixture_track(SW_TRACK_KIND_ROTATION, j, KEYS, RATE, f->r[j]);
        tracks[n++] = clip_fixture_track(SW_TRACK_KIND_SCALE, j, KEYS, RATE, f->s[j]);
    }
    f->raw = clip_fixture_clip(tracks, n, f->w, KEYS, RATE, J, false);
    return f;
}

static void fixture_free(fixture* f) {
    sw_clip_destroy(f->raw, NULL);
    sw_skeleton_destroy(f->skel, NULL);
    free(f);
}

static const sw_clip* compress(const fixture* f, uint32_t segment, sw_compress_stats* st) {
    const sw_compress_options o = {
        .precision = PRECISION, .shell = 1.0f, .segment_samples = segment};
    const sw_clip* out = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    const sw_result r = sw_compress_clip(f->skel, f->raw, &o, NULL, &out, st, &err);
    if (r != SW_RESULT_OK) print_error("compress: %s (%s)\n", sw_result_str(r), err.check);
    assert_int_equal(r, SW_RESULT_OK);
    return out;
}

/* ---- a second writer: uniform scales as three components ---- */

static const sw_codec_header* header_of(const sw_clip* c) {
    return sw_clip_codec_header(c);
}
static const uint32_t* slots_of(const sw_codec_header* h) {
    return (const uint32_t*)(const void*)((const char*)h + h->slots_offset);
}
static const sw_codec_track* tracks_of(const sw_codec_header* h) {
    return (const sw_codec_track*)(const void*)((const char*)h + h->tracks_offset);
}

/* Bits of a 4-bit code (sinew/codecs/codec.h). */
static uint32_t code_bits(uint32_t code) {
    return code < 14u ? code + 1u : code == 14u ? 17u : 22u;
}

static uint32_t get_bits(const uint8_t* p, uint64_t at, uint32_t b) {
    uint32_t v = 0;
    for (uint32_t i = 0; i < b; ++i)
        v |= (((uint32_t)p[(at + i) >> 3] >> ((at + i) & 7u)) & 1u) << i;
    return v;
}

static void put_bits(uint8_t* p, uint64_t* at, uint32_t v, uint32_t b) {
    for (uint32_t i = 0; i < b; ++i, ++*at)
        p[*at >> 3] = (uint8_t)(p[*at >> 3] | (((v >> i) & 1u) << (*at & 7u)));
}

static uint32_t popcount(uint32_t x) {
    uint32_t n = 0;
    for (; x; x &= x - 1u)
        ++n;
    return n;
}

/* One track's header in a segment of span intervals, as the format
 * describes it. */
typedef struct head {
    uint32_t bytes, has, masked, uniform, b[3], per_key, keys, key_bits;
    const uint8_t* at;
} head;

static head parse_head(const sw_codec_header* h, const sw_codec_track* tr, const uint8_t* p,
                       uint32_t span) {
    head o = {.at = p, .uniform = tr->flags & SW_CODEC_TRACK_UNIFORM};
    const uint32_t rot = tr->kind == SW_TRACK_KIND_ROTATION ? 1u : 0u;
    const uint32_t sl = (p[0] >> 4) & 7u;
    o.has = p[0] >> 7;
    o.masked = sl == 7u && h->segment_samples <= 32u;
    o.per_key = rot && p[2] == 4u;
    o.b[0] = code_bits(p[0] & 15u);
    o.b[1] = o.uniform ? 0u : code_bits(p[1] & 15u);
    o.b[2] = o.uniform ? 0u : code_bits(p[1] >> 4);
    o.key_bits = o.b[0] + o.b[1] + o.b[2] + 2u * o.per_key;
    o.bytes = 2u + rot + o.has * (o.uniform ? 2u : 6u);
    uint32_t mask = 0;
    if (o.masked) memcpy(&mask, p + o.bytes, 4);
    o.keys = o.masked ? popcount(mask) + 2u : (span >> sl) + 1u;
    o.bytes += o.masked ? 4u : 0u;
    return o;
}

/* The clip c rewritten without uniform scales (a block from malloc: free
 * it); *predicted: its payload's size from the layout rules. */
static sw_clip* expand(const sw_clip* c, uint32_t* predicted) {
    const sw_codec_header* h = header_of(c);
    const uint32_t A = h->animated_count, S = h->segments_count, L = h->segment_samples;
    uint32_t U = 0;
    for (uint32_t s = 0; s < 3u * c->joints_count; ++s)
        if (slots_of(h)[s] != SW_CODEC_SLOT_DEFAULT && (slots_of(h)[s] & SW_CODEC_SLOT_UNIFORM))
            ++U;
    const uint32_t C = h->constants_count + U;
    const uint32_t tracks_off = (64u + 12u * c->joints_count + 15u) & ~15u;
    const uint32_t consts_off = (tracks_off + 36u * A + 15u) & ~15u;
    const uint32_t segs_off = consts_off + 16u * C;
    const uint32_t data0 = (segs_off + 4u * (S + 1u) + 15u) & ~15u;
    /* sizes first: each segment's headers grow by 4 range bytes and its keys
     * by two components per uniform track */
    uint64_t total = data0;
    const uint32_t* offs = (const uint32_t*)(const void*)((const char*)h + h->segments_offset);
    for (uint32_t s = 0; s < S; ++s) {
        const uint32_t span = h->samples_count - 1u - s * L < L ? h->samples_count - 1u - s * L : L;
        const uint8_t* p = (const uint8_t*)h + offs[s] + 4;
        uint64_t hb = 0, bits = 0;
        for (uint32_t a = 0; a < A; ++a) {
            const head hd = parse_head(h, &tracks_of(h)[a], p, span);
            p += hd.bytes;
            hb += hd.bytes + (hd.uniform && hd.has ? 4u : 0u);
            bits += (uint64_t)hd.keys * (hd.key_bits + (hd.uniform ? 2u * hd.b[0] : 0u));
        }
        total += 4u + hb + (bits + 7u) / 8u;
    }
    *predicted = (uint32_t)((total + 8u + 15u) & ~(uint64_t)15u);
    char* mem = NULL;
    size_t size = 0;
    sw_error err;
    assert_int_equal(
        sw__clip_with_payload(c, SW_CLIP_CODEC_QUANTIZED, *predicted, NULL, &mem, &size, &err),
        SW_RESULT_OK);
    sw_codec_header* o =
        (sw_codec_header*)(void*)(mem + sw_clip_codec_offset((sw_clip*)(void*)mem));
    *o = *h;
    o->size = *predicted;
    o->constants_count = C;
    o->slots_offset = 64u;
    o->tracks_offset = tracks_off;
    o->constants_offset = consts_off;
    o->segments_offset = segs_off;
    uint32_t* slots = (uint32_t*)(void*)((char*)o + 64);
    float* consts = (float*)(void*)((char*)o + consts_off);
    const float* old_consts = (const float*)(const void*)((const char*)h + h->constants_offset);
    memcpy(consts, old_consts, 16u * h->constants_count);
    uint32_t u = h->constants_count;
    for (uint32_t s = 0; s < 3u * c->joints_count; ++s) {
        slots[s] = slots_of(h)[s];
        if (slots[s] == SW_CODEC_SLOT_DEFAULT || !(slots[s] & SW_CODEC_SLOT_UNIFORM)) continue;
        const float v = old_consts[slots[s] & 0x3FFFFFFFu];
        consts[4u * u] = consts[4u * u + 1u] = consts[4u * u + 2u] = v;
        slots[s] = SW_CODEC_SLOT_CONSTANT | u++;
    }
    sw_codec_track* tr = (sw_codec_track*)(void*)((char*)o + tracks_off);
    memcpy(tr, tracks_of(h), 36u * A);
    for (uint32_t a = 0; a < A; ++a)
        tr[a].flags = 0;
    uint32_t* new_offs = (uint32_t*)(void*)((char*)o + segs_off);
    uint32_t data = data0;
    for (uint32_t s = 0; s < S; ++s) {
        const uint32_t span = h->samples_count - 1u - s * L < L ? h->samples_count - 1u - s * L : L;
        const uint8_t* p = (const uint8_t*)h + offs[s] + 4;
        head hs[3 * J];
        uint32_t hb = 0;
        for (uint32_t a = 0; a < A; ++a) {
            hs[a] = parse_head(h, &tracks_of(h)[a], p, span);
            p += hs[a].bytes;
        }
        const uint8_t* old_bits = p;
        uint8_t* d = (uint8_t*)o + data + 4;
        for (uint32_t a = 0; a < A; ++a) {
            const head* x = &hs[a];
            const uint8_t* q = x->at;
            if (!x->uniform) {
                memcpy(d + hb, q, x->bytes);
                hb += x->bytes;
                continue;
            }
            /* format byte, codes of 1 and 2 = component 0's, 6 range bytes, mask */
            d[hb++] = q[0];
            d[hb++] = (uint8_t)((q[0] & 15u) | ((q[0] & 15u) << 4));
            if (x->has) {
                for (uint32_t k = 0; k < 6u; ++k)
                    d[hb++] = q[2u + k / 3u];
            }
            if (x->masked) {
                memcpy(d + hb, q + 2u + 2u * x->has, 4);
                hb += 4u;
            }
        }
        memcpy(d - 4, &hb, 4);
        uint64_t from = 0, to = 0;
        for (uint32_t a = 0; a < A; ++a) {
            const head* x = &hs[a];
            for (uint32_t k = 0; k < x->keys; ++k) {
                if (x->uniform) { /* component 0 three times */
                    const uint32_t v = get_bits(old_bits, from, x->b[0]);
                    from += x->b[0];
                    for (uint32_t i = 0; i < 3u; ++i)
                        put_bits(d + hb, &to, v, x->b[0]);
                    continue;
                }
                for (uint32_t i = 0; i < x->key_bits; ++i, ++from)
                    put_bits(d + hb, &to, get_bits(old_bits, from, 1u), 1u);
            }
        }
        new_offs[s] = data;
        data += 4u + hb + (uint32_t)((to + 7u) / 8u);
    }
    new_offs[S] = data;
    /* the layout predicted from the headers holds the keys written, exactly */
    assert_int_equal((data + 8u + 15u) & ~15u, *predicted);
    return (sw_clip*)(void*)mem;
}

/* ---- tests ---- */

/* Every way of sampling clip a and clip b at t gives the same bits (a
 * through cache, which the caller keeps from call to call: playing
 * forward, its kept keys and headers serve the uniform tracks). */
static void same_samples(const sw_skeleton* skel, const sw_clip* a, const sw_clip* b,
                         sw_sample_cache* cache, float t) {
    SINEW_ALIGN16 sw_xform4 pa[2], pb[2], pc[2], ps[2];
    sw_sample_job ja = {
        .clip = a, .skeleton = skel, .time = t, .cache = cache, .out = pa, .out_count = 2};
    sw_sample_job jb = {.clip = b, .skeleton = skel, .time = t, .out = pb, .out_count = 2};
    assert_int_equal(sw_sample_job_run(&ja), SW_RESULT_OK);
    assert_int_equal(sw_sample_job_run(&jb), SW_RESULT_OK);
    assert_memory_equal(pa, pb, sizeof pa);
    sw__codec_quantized_sample_subset(a, skel, t, NULL, pc, true);
    sw__codec_quantized_sample_subset(a, skel, t, NULL, ps, false);
    assert_memory_equal(pa, pc, sizeof pa);
    assert_memory_equal(pa, ps, sizeof pa);
    /* a joint subset leaving out the uniform tracks of joints 3 and 5 (their
     * keys skipped) */
    static const uint8_t subset[2] = {0x7u, 0xDu};
    SINEW_ALIGN16 sw_xform4 pk[2], pks[2];
    sw__codec_quantized_sample_subset(a, skel, t, subset, pk, true);
    sw__codec_quantized_sample_subset(a, skel, t, subset, pks, false);
    for (uint32_t j = 0; j < J; ++j) {
        const sw_xform x = sw__clip_sample_joint(a, skel, j, t);
        const sw_xform y = sw_xform4_get(&pa[j / 4u], j % 4u);
        assert_memory_equal(&x, &y, sizeof x);
        if (j == 3u || j == 5u) continue;
        const sw_xform z = sw_xform4_get(&pk[j / 4u], j % 4u);
        const sw_xform zs = sw_xform4_get(&pks[j / 4u], j % 4u);
        assert_memory_equal(&y, &z, sizeof y);
        assert_memory_equal(&y, &zs, sizeof y);
    }
}

/* Uniform scales found, stored as one value, decoded as the same clip
 * written with three components (the second writer) bit for bit, that
 * clip larger by what the layout predicts; x = y = z on the uniform
 * joints, within the precision of the source. */
static void test_round_trip(void** state) {
    (void)state;
    fixture* f = fixture_new();
    const uint32_t segments[3] = {0u, 8u, 64u};
    for (uint32_t si = 0; si < 3u; ++si) {
        sw_compress_stats st;
        const sw_clip* c = compress(f, segments[si], &st);
        assert_int_equal(st.uniform_scales, UNIFORM_SCALES);
        assert_true(st.error.max <= PRECISION);
        const sw_codec_header* h = header_of(c);
        const uint32_t* slots = slots_of(h);
        for (uint32_t j = 0; j < J; ++j) {
            const uint32_t v = slots[3u * j + 2u];
            const bool constant_uniform = constant_scale[j] > 0.0f;
            assert_int_equal(v != SW_CODEC_SLOT_DEFAULT && (v & SW_CODEC_SLOT_UNIFORM) != 0u,
                             constant_uniform);
            if (constant_uniform) {
                const float* cf = (const float*)(const void*)((const char*)h + h->constants_offset);
                assert_true(fabsf(cf[v & 0x3FFFFFFFu] - constant_scale[j]) <= 1e-6f);
            }
            if (j == 3u || j == 5u || j == 7u) {
                assert_true(v < h->animated_count);
                assert_int_equal(tracks_of(h)[v].flags, j == 7u ? 0u : SW_CODEC_TRACK_UNIFORM);
            }
        }
        /* the four uniform constants share one record */
        uint32_t records = 0;
        for (uint32_t s = 0; s < 3u * J; ++s)
            if (slots[s] != SW_CODEC_SLOT_DEFAULT && (slots[s] & 0xC0000000u) == 0x80000000u)
                ++records;
        assert_int_equal(h->constants_count, records + 1u);

        uint32_t predicted = 0;
        sw_clip* wide = expand(c, &predicted);
        const sw_clip* loaded = NULL;
        sw_error err;
        assert_int_equal(sw_clip_load(wide, wide->size, &loaded, &err), SW_RESULT_OK);
        assert_int_equal(header_of(loaded)->size, predicted);
        const uint32_t saved = wide->size - c->size;
        /* 3 constant records less, and per segment 4 range bytes and two
         * components of every key of the two uniform tracks */
        assert_true(saved >= 48u);
        print_message("segments of %u: %u B with uniform scales, %u B as three components "
                      "(%u B saved), max error %.3g\n",
                      h->segment_samples, c->size, wide->size, saved, st.error.max);
        const uint32_t n = sw_sample_cache_size(c);
        uint32_t* cursors = (uint32_t*)calloc(n, sizeof(uint32_t));
        assert_non_null(cursors);
        sw_sample_cache cache;
        sw_sample_cache_init(&cache, cursors, n);
        uint32_t seed = 3u;
        bool differs = false;
        for (int i = 0; i < 700; ++i) {
            const float t = i < 400 ? (float)i * (2.0f / 399.0f) : sw_test_rand(&seed, 0.0f, 2.0f);
            same_samples(f->skel, c, loaded, &cache, t);
            SINEW_ALIGN16 sw_xform4 p[2];
            sw_sample_job jb = {
                .clip = c, .skeleton = f->skel, .time = t, .out = p, .out_count = 2};
            assert_int_equal(sw_sample_job_run(&jb), SW_RESULT_OK);
            for (uint32_t j = 1; j < J; ++j) {
                const sw_vec3 s = sw_xform4_get(&p[j / 4u], j % 4u).s;
                if (j == 7u) {
                    differs |= s.x != s.z;
                    continue;
                }
                assert_memory_equal(&s.x, &s.y, sizeof(float));
                assert_memory_equal(&s.x, &s.z, sizeof(float));
                const float want = j == 3u || j == 5u ? animated_scale(t) : constant_scale[j];
                assert_true(fabsf(s.x - want) <= PRECISION);
            }
        }
        assert_true(differs);
        free(cursors);
        free(wide);
        sw_clip_destroy(c, NULL);
    }
    fixture_free(f);
}

/* tests/data/gltf/scale.gltf through the glTF reader: joint a's scale is
 * animated uniform, b's a constant uniform 1.5, c's animated with x, y, z
 * apart; compressed at 1 mm (shell 10 cm), a and b stored uniform, c not,
 * and the scales sampled within what the precision allows a joint's
 * vertices (an error e moves the one at 0.1 on that axis by 0.1 e). */
static void test_gltf_file(void** state) {
    (void)state;
    sw_asset asset;
    assert_int_equal(sw_asset_open(SINEW_TEST_DATA "/gltf/scale.gltf", NULL, &asset, NULL),
                     SW_RESULT_OK);
    const sw_skeleton* skel = asset.skeleton;
    assert_int_equal(skel->joints_count, 4);
    const sw_compress_options o = {.precision = PRECISION, .shell = 0.1f};
    const sw_clip* c = NULL;
    sw_compress_stats st;
    assert_int_equal(sw_compress_clip(skel, asset.clips[0], &o, NULL, &c, &st, NULL), SW_RESULT_OK);
    assert_int_equal(st.uniform_scales, 2);
    const sw_codec_header* h = header_of(c);
    const uint32_t* slots = slots_of(h);
    assert_int_equal(tracks_of(h)[slots[3u * 1u + 2u]].flags, SW_CODEC_TRACK_UNIFORM);
    assert_true((slots[3u * 2u + 2u] & 0xC0000000u) == 0xC0000000u);
    assert_int_equal(tracks_of(h)[slots[3u * 3u + 2u]].flags, 0u);
    for (int i = 0; i <= 100; ++i) {
        const float t = c->duration * (float)i / 100.0f;
        SINEW_ALIGN16 sw_xform4 pr[1], pc[1];
        sw_sample_job jr = {
            .clip = asset.clips[0], .skeleton = skel, .time = t, .out = pr, .out_count = 1};
        sw_sample_job jc = {.clip = c, .skeleton = skel, .time = t, .out = pc, .out_count = 1};
        assert_int_equal(sw_sample_job_run(&jr), SW_RESULT_OK);
        assert_int_equal(sw_sample_job_run(&jc), SW_RESULT_OK);
        for (uint32_t j = 1; j < 4u; ++j) {
            const sw_vec3 a = sw_xform4_get(pr, j).s, b = sw_xform4_get(pc, j).s;
            /* a scale error e moves the vertex on that axis, 0.1 away, by 0.1 e */
            const float tol = PRECISION / 0.1f;
            assert_true(fabsf(a.x - b.x) <= tol && fabsf(a.y - b.y) <= tol &&
                        fabsf(a.z - b.z) <= tol);
            if (j < 3u) assert_true(b.x == b.y && b.x == b.z);
        }
    }
    sw_clip_destroy(c, NULL);
    sw_asset_free(&asset);
}

/* ---- hostile blocks ---- */

typedef struct hostile {
    unsigned char* mem;
    sw_codec_header* h;
} hostile;

static void reset(hostile* b, const sw_clip* c) {
    memcpy(b->mem, c, c->size);
    b->h = (sw_codec_header*)(void*)(b->mem + sw_clip_codec_offset(c));
}

static uint32_t* slot(hostile* b, uint32_t s) {
    return (uint32_t*)(void*)((char*)b->h + b->h->slots_offset) + s;
}
static sw_codec_track* track(hostile* b, uint32_t a) {
    return (sw_codec_track*)(void*)((char*)b->h + b->h->tracks_offset) + a;
}
/* Header of track a in segment 0. */
static uint8_t* seg0_head(hostile* b, uint32_t a) {
    const uint32_t* offs =
        (const uint32_t*)(const void*)((const char*)b->h + b->h->segments_offset);
    const uint32_t span = b->h->samples_count - 1u < b->h->segment_samples
                              ? b->h->samples_count - 1u
                              : b->h->segment_samples;
    uint8_t* p = (uint8_t*)b->h + offs[0] + 4;
    for (uint32_t i = 0; i < a; ++i)
        p += parse_head(b->h, track(b, i), p, span).bytes;
    return p;
}

static void expect(hostile* b, const sw_clip* c, const char* check) {
    const sw_clip* out = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    const sw_result r = sw_clip_load(b->mem, c->size, &out, &err);
    if (r != SW_RESULT_BAD_DATA || !err.check || strcmp(err.check, check) != 0)
        print_error("got %s \"%s\", expected \"%s\"\n", sw_result_str(r),
                    err.check ? err.check : "(none)", check);
    assert_int_equal(r, SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, check);
}

/* Uniform slots, flags, ranges and bit codes out of place are refused with
 * one named check each, and so is every truncation; every byte flipped is
 * refused with a check or loads and samples finite poses. */
static void test_hostile(void** state) {
    (void)state;
    fixture* f = fixture_new();
    const sw_clip* c = compress(f, 16u, NULL);
    hostile b = {.mem = (unsigned char*)aligned_alloc(16, (c->size + 15u) & ~(size_t)15u)};
    assert_non_null(b.mem);
    reset(&b, c);
    const uint32_t cs = 3u * 1u + 2u;            /* joint 1's scale: a uniform constant */
    const uint32_t ua = *slot(&b, 3u * 3u + 2u); /* joint 3's scale: a uniform track */
    const uint32_t na = *slot(&b, 3u * 7u + 2u); /* joint 7's: not uniform */
    assert_true((*slot(&b, cs) & 0xC0000000u) == 0xC0000000u);
    assert_true(ua < b.h->animated_count && na < b.h->animated_count);
    const uint32_t first_rot = *slot(&b, 1u);
    assert_true(first_rot < b.h->animated_count);

    reset(&b, c), *slot(&b, 0u) = *slot(&b, cs);
    expect(&b, c, "codec uniform constant on a scale slot");
    reset(&b, c), *slot(&b, cs) =
                      SW_CODEC_SLOT_CONSTANT | SW_CODEC_SLOT_UNIFORM | (4u * b.h->constants_count);
    expect(&b, c, "codec constant index in range");
    reset(&b, c);
    ((float*)(void*)((char*)b.h + b.h->constants_offset))[*slot(&b, cs) & 0x3FFFFFFFu] = NAN;
    expect(&b, c, "codec constants finite");
    reset(&b, c), track(&b, first_rot)->flags = SW_CODEC_TRACK_UNIFORM;
    expect(&b, c, "codec track flags: uniform scale only");
    reset(&b, c), track(&b, ua)->flags = 2u;
    expect(&b, c, "codec track flags: uniform scale only");
    reset(&b, c), track(&b, ua)->min[2] += 0.5f;
    expect(&b, c, "codec uniform track range x = y = z");
    reset(&b, c), track(&b, ua)->extent[1] *= 2.0f;
    expect(&b, c, "codec uniform track range x = y = z");
    reset(&b, c), seg0_head(&b, ua)[1] = 0x77u;
    expect(&b, c, "codec uniform track bit codes 0xFF");
    /* a three-component track marked uniform: its headers no longer add up */
    reset(&b, c), track(&b, na)->flags = SW_CODEC_TRACK_UNIFORM;
    track(&b, na)->min[1] = track(&b, na)->min[2] = track(&b, na)->min[0];
    track(&b, na)->extent[1] = track(&b, na)->extent[2] = track(&b, na)->extent[0];
    expect(&b, c, "codec uniform track bit codes 0xFF");
    if (seg0_head(&b, ua)[0] & 0x80u) {
        reset(&b, c), seg0_head(&b, ua)[2] = 200u, seg0_head(&b, ua)[3] = 100u;
        expect(&b, c, "codec segment range lo <= hi");
    }
    /* the uniform flag cleared: read as three components, the headers
     * and keys no longer add up */
    reset(&b, c), track(&b, ua)->flags = 0u;
    {
        const sw_clip* out = NULL;
        sw_error err;
        memset(&err, 0, sizeof err);
        assert_int_equal(sw_clip_load(b.mem, c->size, &out, &err), SW_RESULT_BAD_DATA);
        print_message("uniform flag cleared: \"%s\"\n", err.check);
    }
    clip_fixture_truncations(c);
    clip_fixture_flip_bytes(c, f->skel);
    free(b.mem);
    sw_clip_destroy(c, NULL);
    fixture_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_gltf_file),
        cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
