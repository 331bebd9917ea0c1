/* The quantized codec: payload validation and the decoder behind the
 * sampling job (layout: sinew/codecs/codec.h). */
#include <string.h>

#include "codec_quantized.h"
#include "runtime/core/internal.h"

/* An array of count * elem bytes at off inside a payload of size bytes,
 * after its header; compared by subtraction. */
static bool sw__codec_array_ok(uint32_t off, uint64_t count, uint64_t elem, uint32_t size) {
    if (off < sizeof(sw_codec_header) || off > size || (off & 3u) != 0) return false;
    return count * elem <= (uint64_t)(size - off);
}

#define SW__CODEC_FIELD(q, field) ((uint64_t)(q) + offsetof(sw_codec_header, field))

/* The header of the payload at clip offset q: its size, reserved bytes,
 * counts, rate, segment length and the bounds of its arrays. */
static sw_result sw__codec_check_header(const sw_clip* c, uint32_t q, sw_error* err) {
    const uint32_t n = c->joints_count;
    if (q < c->joint_tracks_offset || q > c->size ||
        (uint64_t)(c->size - q) < sizeof(sw_codec_header)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec header in bounds", q, -1);
    }
    const sw_codec_header* h = sw_clip_codec_header(c);
    const uint32_t size = h->size;
    if (size < sizeof(sw_codec_header) || (size & 15u) != 0 || size > c->size - q) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec size in bounds", SW__CODEC_FIELD(q, size),
                        -1);
    }
    for (uint32_t i = 0; i < 5u; ++i) {
        if (h->reserved[i] != 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "codec reserved zero",
                            SW__CODEC_FIELD(q, reserved), (int64_t)i);
        }
    }
    if (h->samples_count < 2u || h->samples_count > SW_CLIP_MAX_KEYS) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec samples count in [2, max keys]",
                        SW__CODEC_FIELD(q, samples_count), -1);
    }
    if (!(isfinite(h->rate) && h->rate > 0.0f)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec rate > 0", SW__CODEC_FIELD(q, rate), -1);
    }
    const uint32_t L = h->segment_samples;
    if (L == 0 || L > SW_CODEC_MAX_SEGMENT_SAMPLES || (L & (L - 1u)) != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment samples a power of two",
                        SW__CODEC_FIELD(q, segment_samples), -1);
    }
    if (h->segments_count != (h->samples_count - 1u + L - 1u) / L) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec segments count",
                        SW__CODEC_FIELD(q, segments_count), -1);
    }
    if (h->animated_count > 3u * n || h->constants_count > 3u * n) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec track counts <= 3 * joints",
                        SW__CODEC_FIELD(q, animated_count), -1);
    }
    if (!sw__codec_array_ok(h->slots_offset, 3u * (uint64_t)n, 4u, size)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec slots in bounds",
                        SW__CODEC_FIELD(q, slots_offset), -1);
    }
    if (!sw__codec_array_ok(h->tracks_offset, h->animated_count, sizeof(sw_codec_track), size)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec tracks in bounds",
                        SW__CODEC_FIELD(q, tracks_offset), -1);
    }
    if (!sw__codec_array_ok(h->constants_offset, h->constants_count, 16u, size)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec constants in bounds",
                        SW__CODEC_FIELD(q, constants_offset), -1);
    }
    if (!sw__codec_array_ok(h->segments_offset, (uint64_t)h->segments_count + 1u, 4u, size)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment offsets in bounds",
                        SW__CODEC_FIELD(q, segments_offset), -1);
    }
    return SW_RESULT_OK;
}

/* A uniform constant v in slot s (at: its file offset): a scale slot
 * naming a finite float of the constants. */
static sw_result sw__codec_check_uniform(const sw_codec_header* h, uint32_t v, uint32_t s,
                                         uint64_t at, sw_error* err) {
    const uint32_t f = v & ~(SW_CODEC_SLOT_CONSTANT | SW_CODEC_SLOT_UNIFORM);
    if (s % 3u != 2u) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec uniform constant on a scale slot", at,
                        (int64_t)s);
    }
    if ((uint64_t)f >= 4u * (uint64_t)h->constants_count) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec constant index in range", at, (int64_t)s);
    }
    const float* constants = (const float*)(const void*)((const uint8_t*)h + h->constants_offset);
    if (!isfinite(constants[f])) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec constants finite", at, (int64_t)s);
    }
    return SW_RESULT_OK;
}

/* Slots: default, a constant, or the next animated track (slot order),
 * whose record names this joint and kind. */
static sw_result sw__codec_check_slots(const sw_clip* c, uint32_t q, sw_error* err) {
    const uint32_t n = c->joints_count;
    const sw_codec_header* h = sw_clip_codec_header(c);
    const uint8_t* base = (const uint8_t*)h;
    const uint32_t* slots = (const uint32_t*)(const void*)(base + h->slots_offset);
    const sw_codec_track* tracks = (const sw_codec_track*)(const void*)(base + h->tracks_offset);
    const float* constants = (const float*)(const void*)(base + h->constants_offset);
    uint32_t next = 0;
    for (uint32_t s = 0; s < 3u * n; ++s) {
        const uint32_t v = slots[s];
        const uint64_t at = (uint64_t)q + h->slots_offset + 4u * (uint64_t)s;
        if (v == SW_CODEC_SLOT_DEFAULT) continue;
        if ((v & (SW_CODEC_SLOT_CONSTANT | SW_CODEC_SLOT_UNIFORM)) ==
            (SW_CODEC_SLOT_CONSTANT | SW_CODEC_SLOT_UNIFORM)) {
            const sw_result r = sw__codec_check_uniform(h, v, s, at, err);
            if (r != SW_RESULT_OK) return r;
            continue;
        }
        if (v & SW_CODEC_SLOT_CONSTANT) {
            const uint32_t k = v & ~SW_CODEC_SLOT_CONSTANT;
            if (k >= h->constants_count) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "codec constant index in range", at,
                                (int64_t)s);
            }
            const float* cv = constants + 4u * (size_t)k;
            for (uint32_t i = 0; i < 4u; ++i) {
                if (!isfinite(cv[i])) {
                    return sw__fail(err, SW_RESULT_BAD_DATA, "codec constants finite", at,
                                    (int64_t)s);
                }
            }
            if (s % 3u == 1u) {
                double len = sqrt((double)cv[0] * cv[0] + (double)cv[1] * cv[1] +
                                  (double)cv[2] * cv[2] + (double)cv[3] * cv[3]);
                if (!(fabs(len - 1.0) <= 1e-3)) {
                    return sw__fail(err, SW_RESULT_BAD_DATA, "codec constant rotations unit", at,
                                    (int64_t)s);
                }
            }
            continue;
        }
        if (v != next || v >= h->animated_count) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "codec animated tracks in slot order", at,
                            (int64_t)s);
        }
        const sw_codec_track* t = &tracks[v];
        const uint64_t tat = (uint64_t)q + h->tracks_offset + sizeof(sw_codec_track) * (uint64_t)v;
        if (t->joint != s / 3u || t->kind != s % 3u + 1u) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "codec track matches its slot", tat,
                            (int64_t)v);
        }
        if ((t->flags & ~SW_CODEC_TRACK_UNIFORM) != 0u ||
            (t->flags != 0u && t->kind != SW_TRACK_KIND_SCALE)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "codec track flags: uniform scale only", tat,
                            (int64_t)v);
        }
        for (uint32_t i = 0; i < 4u; ++i) {
            if (!isfinite(t->min[i]) || !isfinite(t->extent[i]) || !(t->extent[i] >= 0.0f) ||
                !isfinite(t->min[i] + t->extent[i])) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "codec track range finite", tat,
                                (int64_t)v);
            }
        }
        if (t->flags != 0u && (memcmp(&t->min[1], &t->min[0], sizeof(float)) != 0 ||
                               memcmp(&t->min[2], &t->min[0], sizeof(float)) != 0 ||
                               memcmp(&t->extent[1], &t->extent[0], sizeof(float)) != 0 ||
                               memcmp(&t->extent[2], &t->extent[0], sizeof(float)) != 0)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "codec uniform track range x = y = z", tat,
                            (int64_t)v);
        }
        ++next;
    }
    if (next != h->animated_count) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec every animated track in a slot",
                        SW__CODEC_FIELD(q, animated_count), (int64_t)next);
    }
    return SW_RESULT_OK;
}

/* The track headers of segment s (d: its bytes, bytes long, hbytes of
 * headers; span: its key intervals) and the size of its key bits; at: the
 * file offset of its entry in the segment offsets. */
static sw_result sw__codec_check_segment(const sw_codec_header* h, uint32_t q, uint32_t s,
                                         uint64_t at, uint32_t span, sw_error* err) {
    const uint8_t* base = (const uint8_t*)h;
    const sw_codec_track* tracks = (const sw_codec_track*)(const void*)(base + h->tracks_offset);
    const uint32_t* offs = (const uint32_t*)(const void*)(base + h->segments_offset);
    const uint32_t bytes = offs[s + 1u] - offs[s];
    const uint8_t* d = base + offs[s];
    const uint32_t hbytes = sw__codec_le32(d);
    uint32_t used = 0;
    uint64_t bits = 0;
    for (uint32_t a = 0; a < h->animated_count; ++a) {
        const uint64_t hat = (uint64_t)q + offs[s] + 4u + used;
        if (used >= hbytes) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment headers in bounds", hat,
                            (int64_t)s);
        }
        const uint32_t fmt = d[4u + used];
        const uint32_t sl = SW__CODEC_FMT_STRIDE_LOG2(fmt);
        if (hbytes - used < 2u) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment headers in bounds", hat,
                            (int64_t)s);
        }
        const uint32_t b1 = d[4u + used + 1u];
        /* a uniform track: one component, its second byte 0xFF */
        const uint32_t uni = tracks[a].flags & SW_CODEC_TRACK_UNIFORM;
        if (uni && b1 != 0xFFu) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "codec uniform track bit codes 0xFF", hat,
                            (int64_t)s);
        }
        uint32_t key_bits =
            uni ? SW__CODEC_FMT_BITS(fmt)
                : SW__CODEC_FMT_BITS(fmt) + SW__CODEC_FMT_BITS1(b1) + SW__CODEC_FMT_BITS2(b1);
        if (!sw__codec_masked(sl, h->segment_samples) &&
            ((1u << sl) > span || (span & ((1u << sl) - 1u)) != 0)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "codec key stride divides the segment", hat,
                            (int64_t)s);
        }
        used += 2u;
        if (tracks[a].kind == SW_TRACK_KIND_ROTATION) {
            if (used >= hbytes) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment headers in bounds", hat,
                                (int64_t)s);
            }
            const uint32_t rb = d[4u + used];
            if ((rb > SW__CODEC_ROT_PER_KEY && rb < SW__CODEC_ROT_ARC) ||
                rb > SW__CODEC_ROT_SHORT + 3u) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "codec rotation byte 0..4 or 8..15",
                                hat + 2u, (int64_t)s);
            }
            if (d[4u + used] == 4u) key_bits += 2u;
            used += 1u;
        }
        if (fmt & SW__CODEC_FMT_RANGE) {
            const uint32_t nr = uni ? 1u : 3u; /* range bytes per bound */
            if (hbytes - used < 2u * nr) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment headers in bounds", hat,
                                (int64_t)s);
            }
            for (uint32_t i = 0; i < nr; ++i) {
                if (d[4u + used + i] > d[4u + used + nr + i]) {
                    return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment range lo <= hi", hat,
                                    (int64_t)s);
                }
            }
            used += 2u * nr;
        }
        uint32_t keys = (span >> sl) + 1u;
        if (sw__codec_masked(sl, h->segment_samples)) {
            if (hbytes - used < 4u) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment headers in bounds", hat,
                                (int64_t)s);
            }
            const uint32_t mask = sw__codec_le32(d + 4u + used);
            if (((uint64_t)mask >> (span - 1u)) != 0u) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "codec key mask inside the segment",
                                (uint64_t)q + offs[s] + 4u + used, (int64_t)s);
            }
            keys = sw__codec_mask_keys(mask);
            used += 4u;
        }
        bits += (uint64_t)keys * key_bits;
    }
    if (used != hbytes) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment header count", at, (int64_t)s);
    }
    if ((bits + 7u) / 8u > (uint64_t)(bytes - 4u - hbytes)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment keys in bounds", at, (int64_t)s);
    }
    return SW_RESULT_OK;
}

/* Segments: increasing offsets, 8 spare bytes after the last, each
 * holding its headers and every key bit. */
static sw_result sw__codec_check_segments(const sw_clip* c, uint32_t q, sw_error* err) {
    const sw_codec_header* h = sw_clip_codec_header(c);
    const uint8_t* base = (const uint8_t*)h;
    const uint32_t size = h->size;
    const uint32_t L = h->segment_samples;
    const uint32_t* offs = (const uint32_t*)(const void*)(base + h->segments_offset);
    const uint32_t S = h->segments_count;
    if (offs[S] > size || size - offs[S] < 8u) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "codec padding after segments",
                        (uint64_t)q + h->segments_offset + 4u * (uint64_t)S, (int64_t)S);
    }
    for (uint32_t s = 0; s < S; ++s) {
        const uint64_t at = (uint64_t)q + h->segments_offset + 4u * (uint64_t)s;
        if (offs[s] < sizeof(sw_codec_header) || offs[s] > offs[s + 1u] || offs[s + 1u] > offs[S]) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment offsets increasing", at,
                            (int64_t)s);
        }
        const uint32_t bytes = offs[s + 1u] - offs[s];
        const uint8_t* d = base + offs[s];
        if (bytes < 4u) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment header count in bounds", at,
                            (int64_t)s);
        }
        const uint32_t hbytes = sw__codec_le32(d);
        if (hbytes > bytes - 4u) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "codec segment headers in bounds", at,
                            (int64_t)s);
        }
        const uint32_t rest = h->samples_count - 1u - s * L;
        const sw_result r = sw__codec_check_segment(h, q, s, at, rest < L ? rest : L, err);
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}

sw_result sw__codec_quantized_check(const sw_clip* c, sw_error* err) {
    const uint32_t q = sw_clip_codec_offset(c);
    sw_result r = sw__codec_check_header(c, q, err);
    if (r == SW_RESULT_OK) r = sw__codec_check_slots(c, q, err);
    if (r == SW_RESULT_OK) r = sw__codec_check_segments(c, q, err);
    return r;
}

void sw__codec_finish_scalar(const sw__codec_batch* b, uint32_t n, float out[4][SW__CODEC_BATCH]) {
    for (uint32_t i = 0; i < n; ++i) {
        const float u = b->u[i];
        float v[3];
        for (uint32_t c = 0; c < 3u; ++c) {
            const float e = b->extent[c][i] * (1.0f / 255.0f);
            const float lo = b->min[c][i] + (float)b->lo8[c][i] * e;
            const float scale = (float)b->span8[c][i] * e * b->inv[c][i];
            const float ka = lo + (float)b->qa[c][i] * scale;
            const float kb = lo + (float)b->qb[c][i] * scale;
            v[c] = ka + (kb - ka) * u;
            out[c][i] = v[c];
        }
        const float ww = ((1.0f - v[0] * v[0]) - v[1] * v[1]) - v[2] * v[2];
        out[3][i] = b->rotation[i] && ww > 0.0f ? sqrtf(ww) : 0.0f;
    }
}

#if SINEW_HAS_SSE2
#include <emmintrin.h>

/* Four tracks per step; the same IEEE operations in the same order as the
 * scalar path (max(ww, 0) then sqrt gives +0 where it gives 0). */
void sw__codec_finish_sse2(const sw__codec_batch* b, uint32_t n, float out[4][SW__CODEC_BATCH]) {
    const __m128 one = _mm_set1_ps(1.0f), zero = _mm_setzero_ps();
    const __m128 k255 = _mm_set1_ps(1.0f / 255.0f);
    uint32_t i = 0;
    for (; i + 4u <= n; i += 4u) {
        const __m128 u = _mm_loadu_ps(&b->u[i]);
        __m128 v[3];
        for (uint32_t c = 0; c < 3u; ++c) {
            const __m128 e = _mm_mul_ps(_mm_loadu_ps(&b->extent[c][i]), k255);
            const __m128 lo8 =
                _mm_cvtepi32_ps(_mm_loadu_si128((const __m128i*)(const void*)&b->lo8[c][i]));
            const __m128 span8 =
                _mm_cvtepi32_ps(_mm_loadu_si128((const __m128i*)(const void*)&b->span8[c][i]));
            const __m128 lo = _mm_add_ps(_mm_loadu_ps(&b->min[c][i]), _mm_mul_ps(lo8, e));
            const __m128 scale = _mm_mul_ps(_mm_mul_ps(span8, e), _mm_loadu_ps(&b->inv[c][i]));
            const __m128 qa =
                _mm_cvtepi32_ps(_mm_loadu_si128((const __m128i*)(const void*)&b->qa[c][i]));
            const __m128 qb =
                _mm_cvtepi32_ps(_mm_loadu_si128((const __m128i*)(const void*)&b->qb[c][i]));
            const __m128 ka = _mm_add_ps(lo, _mm_mul_ps(qa, scale));
            const __m128 kb = _mm_add_ps(lo, _mm_mul_ps(qb, scale));
            v[c] = _mm_add_ps(ka, _mm_mul_ps(_mm_sub_ps(kb, ka), u));
            _mm_storeu_ps(&out[c][i], v[c]);
        }
        __m128 ww = _mm_sub_ps(one, _mm_mul_ps(v[0], v[0]));
        ww = _mm_sub_ps(ww, _mm_mul_ps(v[1], v[1]));
        ww = _mm_sub_ps(ww, _mm_mul_ps(v[2], v[2]));
        const __m128i rot = _mm_loadu_si128((const __m128i*)(const void*)&b->rotation[i]);
        const __m128 mask = _mm_castsi128_ps(_mm_cmpgt_epi32(rot, _mm_setzero_si128()));
        const __m128 w = _mm_sqrt_ps(_mm_max_ps(ww, zero));
        _mm_storeu_ps(&out[3][i], _mm_and_ps(w, mask));
    }
    if (i < n) {
        /* the tail through the scalar path on a shifted copy */
        float tail[4][SW__CODEC_BATCH];
        sw__codec_batch rest;
        const uint32_t m = n - i;
        for (uint32_t k = 0; k < m; ++k) {
            for (uint32_t c = 0; c < 3u; ++c) {
                rest.min[c][k] = b->min[c][i + k];
                rest.extent[c][k] = b->extent[c][i + k];
                rest.lo8[c][k] = b->lo8[c][i + k];
                rest.span8[c][k] = b->span8[c][i + k];
                rest.inv[c][k] = b->inv[c][i + k];
                rest.qa[c][k] = b->qa[c][i + k];
                rest.qb[c][k] = b->qb[c][i + k];
            }
            rest.u[k] = b->u[i + k];
            rest.rotation[k] = b->rotation[i + k];
        }
        sw__codec_finish_scalar(&rest, m, tail);
        for (uint32_t k = 0; k < m; ++k) {
            for (uint32_t c = 0; c < 4u; ++c)
                out[c][i + k] = tail[c][k];
        }
    }
}
#endif

void sw__codec_finish_best(const sw__codec_batch* b, uint32_t n, float out[4][SW__CODEC_BATCH]) {
#if SINEW_HAS_SSE2
    sw__codec_finish_sse2(b, n, out);
#else
    sw__codec_finish_scalar(b, n, out);
#endif
}

/* Masks (2^b - 1) of the bit codes. */
static const uint32_t sw__codec_code_mask[16] = {
    0x1u,   0x3u,   0x7u,   0xFu,   0x1Fu,   0x3Fu,   0x7Fu,    0xFFu,
    0x1FFu, 0x3FFu, 0x7FFu, 0xFFFu, 0x1FFFu, 0x3FFFu, 0x1FFFFu, 0x3FFFFFu};

/* Pose fields (sw_xform4 float arrays: tx ty tz 0-2, rx ry rz rw 3-6,
 * sx sy sz 7-9) of a batch's four results: translation, scale, then
 * rotations leaving out x, y, z, w. */
static const uint8_t sw__codec_dst_fields[6][4] = {{0, 1, 2, 0}, {7, 8, 9, 7}, {4, 5, 6, 3},
                                                   {3, 5, 6, 4}, {3, 4, 6, 5}, {3, 4, 5, 6}};

/* Finishes a batch of n tracks (padded with zero tracks to a multiple of 4
 * so that the SSE2 path needs no tail) and stores the results. */
static void sw__codec_flush(sw__codec_batch* b, uint32_t n, uint32_t dst[4][SW__CODEC_BATCH],
                            float* of, bool simd) {
    const uint32_t n4 = (n + 3u) & ~3u;
    for (uint32_t i = n; i < n4; ++i) {
        for (uint32_t c = 0; c < 3u; ++c) {
            b->min[c][i] = 0.0f;
            b->extent[c][i] = 0.0f;
            b->lo8[c][i] = 0;
            b->span8[c][i] = 0;
            b->inv[c][i] = 0.0f;
            b->qa[c][i] = 0;
            b->qb[c][i] = 0;
        }
        b->u[i] = 0.0f;
        b->rotation[i] = 0;
    }
    float res[4][SW__CODEC_BATCH];
    if (simd)
        sw__codec_finish_best(b, n4, res);
    else
        sw__codec_finish_scalar(b, n4, res);
    for (uint32_t i = 0; i < n; ++i) {
        of[dst[3][i]] = res[3][i];
        of[dst[0][i]] = res[0][i];
        of[dst[1][i]] = res[1][i];
        of[dst[2][i]] = res[2][i];
    }
}

/* Key index, fraction and key count per key stride: one time and one
 * segment give the same for every track of a stride; the position and
 * segment length for the tracks whose keys a key mask names. */
typedef struct sw__codec_keys {
    uint32_t j[8], n[8];
    float u[8];
    float p;        /* position in the segment */
    uint32_t span;  /* its intervals */
    uint32_t masks; /* 1: stride code 7 names a key mask (sw__codec_masked) */
} sw__codec_keys;

#if SINEW_HAS_SSE2
/* ww = ((1 - x^2) - y^2) - z^2 of v's lanes 0-2 in lane 0, from which a
 * rotation's fourth component is rebuilt (sw__codec_rebuild's sum). */
static inline __m128 sw__codec_ww_sse2(__m128 v) {
    const __m128 sq = _mm_mul_ps(v, v);
    __m128 ww = _mm_sub_ss(_mm_set_ss(1.0f), sq);
    ww = _mm_sub_ss(ww, _mm_shuffle_ps(sq, sq, _MM_SHUFFLE(1, 1, 1, 1)));
    return _mm_sub_ss(ww, _mm_movehl_ps(sq, sq));
}

/* Stores lanes 0-2 of v at of[to[0..2]]; returns sw__codec_ww_sse2(v). */
static inline __m128 sw__codec_put3(__m128 v, const uint32_t to[3], float* of) {
    _mm_store_ss(&of[to[0]], v);
    _mm_store_ss(&of[to[1]], _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 1, 1, 1)));
    _mm_store_ss(&of[to[2]], _mm_movehl_ps(v, v));
    return sw__codec_ww_sse2(v);
}

/* A track's clip range (minimum, extent) in lanes 0-2, its kept
 * components below and from the left-out one drow (3: x y z). */
static inline void sw__codec_range_sse2(const sw_codec_track* tr, uint32_t drow, __m128* mn,
                                        __m128* ex) {
    *mn = _mm_loadu_ps(tr->min);
    *ex = _mm_loadu_ps(tr->extent);
    /* kept components: lane c holds component c below the left-out one,
     * c + 1 from it on */
    SINEW_ALIGN16 static const uint32_t below_of[4][4] = {
        {0, 0, 0, 0}, {~0u, 0, 0, 0}, {~0u, ~0u, 0, 0}, {~0u, ~0u, ~0u, 0}};
    if (drow != 3u) {
        const __m128 below = _mm_load_ps((const float*)(const void*)below_of[drow]);
        *mn = _mm_or_ps(_mm_and_ps(below, *mn),
                        _mm_andnot_ps(below, _mm_shuffle_ps(*mn, *mn, _MM_SHUFFLE(3, 3, 2, 1))));
        *ex = _mm_or_ps(_mm_and_ps(below, *ex),
                        _mm_andnot_ps(below, _mm_shuffle_ps(*ex, *ex, _MM_SHUFFLE(3, 3, 2, 1))));
    }
}

/* The range a track's keys are dequantized in: its clip range (the kept
 * components of row drow, sw__codec_range_sse2), or -1 and 2 for a
 * rotation whose keys each name their left-out component (per_key). */
static inline void sw__codec_key_range_sse2(const sw_codec_track* tr, uint32_t per_key,
                                            uint32_t drow, __m128* mn, __m128* ex) {
    *mn = _mm_set1_ps(-1.0f);
    *ex = _mm_set1_ps(2.0f);
    if (!per_key) sw__codec_range_sse2(tr, drow, mn, ex);
}

/* A track's dequantization in one segment, components in lanes 0-2: key
 * = *lo + code * *scale (the scalar paths' operations in their order):
 * range mn, ex; r: the track's range bytes when has is 1 (8 bytes
 * readable); b bits per component. */
static inline void sw__codec_dequant_sse2(__m128 mn, __m128 ex, const uint8_t* r, uint32_t has,
                                          const uint32_t b[3], __m128* lo, __m128* scale) {
    /* range bytes lo[3] hi[3], or 0 and 255 */
    const __m128i hm = _mm_set1_epi32(-(int32_t)has);
    const __m128i dflt = _mm_set_epi32(0, 0, 0x0000FFFF, (int32_t)0xFF000000u);
    const __m128i rb =
        _mm_or_si128(_mm_and_si128(_mm_loadl_epi64((const __m128i*)(const void*)r), hm),
                     _mm_andnot_si128(hm, dflt));
    const __m128i z = _mm_setzero_si128();
    const __m128i w16 = _mm_unpacklo_epi8(rb, z);
    const __m128i lo8 = _mm_unpacklo_epi16(w16, z);
    const __m128i hi8 = _mm_unpacklo_epi16(_mm_srli_si128(w16, 6), z);
    const __m128 inv = _mm_set_ps(0.0f, sw__codec_inv_levels[b[2]], sw__codec_inv_levels[b[1]],
                                  sw__codec_inv_levels[b[0]]);
    const __m128 e = _mm_mul_ps(ex, _mm_set1_ps(1.0f / 255.0f));
    *lo = _mm_add_ps(mn, _mm_mul_ps(_mm_cvtepi32_ps(lo8), e));
    *scale = _mm_mul_ps(_mm_mul_ps(_mm_cvtepi32_ps(_mm_sub_epi32(hi8, lo8)), e), inv);
}

/* Codes qa, qb of both keys dequantized with lo and scale
 * (sw__codec_dequant_sse2), components in lanes 0-2. */
static inline void sw__codec_apply_sse2(__m128 lo, __m128 scale, const uint32_t qa[3],
                                        const uint32_t qb[3], __m128* ka, __m128* kb) {
    const __m128 qva =
        _mm_cvtepi32_ps(_mm_set_epi32(0, (int32_t)qa[2], (int32_t)qa[1], (int32_t)qa[0]));
    const __m128 qvb =
        _mm_cvtepi32_ps(_mm_set_epi32(0, (int32_t)qb[2], (int32_t)qb[1], (int32_t)qb[0]));
    *ka = _mm_add_ps(lo, _mm_mul_ps(qva, scale));
    *kb = _mm_add_ps(lo, _mm_mul_ps(qvb, scale));
}

/* w = sqrt(max(ww, 0)) (the scalar path's ww > 0 ? sqrt(ww) : 0, bit for
 * bit) for the n <= 4 pending rotations: lane i holds the one stored at
 * to[n - 1 - i]. */
static inline void sw__codec_rebuild4(__m128 wacc, const uint32_t to[4], uint32_t n, float* of) {
    SINEW_ALIGN16 float w[4];
    _mm_store_ps(w, _mm_sqrt_ps(_mm_max_ps(wacc, _mm_setzero_ps())));
    for (uint32_t i = 0; i < n; ++i)
        of[to[n - 1u - i]] = w[i];
}

/* Per lane ((a0 b0 + a1 b1) + a2 b2) + a3 b3: the scalar paths' sum. */
static inline __m128 sw__codec_dot4_sse2(const __m128 a[4], const __m128 b[4]) {
    const __m128 s = _mm_add_ps(_mm_mul_ps(a[0], b[0]), _mm_mul_ps(a[1], b[1]));
    return _mm_add_ps(_mm_add_ps(s, _mm_mul_ps(a[2], b[2])), _mm_mul_ps(a[3], b[3]));
}

/* x / |x| per lane for the 4 components c[0..3] (identity where |x|^2 is
 * not > 0): sw__codec_normalize4's operations. */
static inline void sw__codec_normalize4_sse2(__m128 c[4]) {
    const __m128 len2 = sw__codec_dot4_sse2(c, c);
    const __m128 ok = _mm_cmpgt_ps(len2, _mm_setzero_ps());
    const __m128 len = _mm_sqrt_ps(len2);
    /* written out: compiled as a loop the four stay in memory */
    c[0] = _mm_and_ps(ok, _mm_div_ps(c[0], len));
    c[1] = _mm_and_ps(ok, _mm_div_ps(c[1], len));
    c[2] = _mm_and_ps(ok, _mm_div_ps(c[2], len));
    c[3] = _mm_or_ps(_mm_and_ps(ok, _mm_div_ps(c[3], len)), _mm_andnot_ps(ok, _mm_set1_ps(1.0f)));
}

/* Four prepared arcs (sw__codec_arc_prep), one per lane: a[c] holds
 * component c of each arc's first key, and so on. */
typedef struct sw__codec_arc4 {
    __m128 a[4], m[4], b[4], p[3];
} sw__codec_arc4;

/* Coefficient j of the arc correction at x = 1 - c per lane:
 * x (c[0][j] + x (c[1][j] + x c[2][j])) (sw__codec_arc_prepare's). */
static inline __m128 sw__codec_arc_coef_sse2(__m128 x, uint32_t j) {
    const __m128 inner = _mm_add_ps(_mm_set1_ps(sw__codec_arc_c[1][j]),
                                    _mm_mul_ps(x, _mm_set1_ps(sw__codec_arc_c[2][j])));
    return _mm_mul_ps(x, _mm_add_ps(_mm_set1_ps(sw__codec_arc_c[0][j]), _mm_mul_ps(x, inner)));
}

/* sw__codec_side on four rotations, one per lane (ka[c], kb[c] component
 * c of each one's keys; *dot: ka . kb). */
static inline __m128 sw__codec_side_sse2(const __m128 ka[4], const __m128 kb[4], __m128* dot) {
    *dot = sw__codec_dot4_sse2(ka, kb);
    const __m128 neg = _mm_cmplt_ps(*dot, _mm_setzero_ps());
    return _mm_or_ps(_mm_and_ps(neg, _mm_set1_ps(-1.0f)), _mm_andnot_ps(neg, _mm_set1_ps(1.0f)));
}

/* sw__codec_arc_prepare on four rotations, one per lane: ka[c], kb[c]
 * component c of each rotation's keys. */
static inline void sw__codec_arc4_prepare(const __m128 ka[4], const __m128 kb[4],
                                          sw__codec_arc4* r) {
    const __m128 one = _mm_set1_ps(1.0f);
    __m128 dot;
    const __m128 sign = sw__codec_side_sse2(ka, kb, &dot);
    /* written out, as below: compiled as loops these stay in memory */
    r->a[0] = ka[0];
    r->a[1] = ka[1];
    r->a[2] = ka[2];
    r->a[3] = ka[3];
    r->b[0] = _mm_mul_ps(sign, kb[0]);
    r->b[1] = _mm_mul_ps(sign, kb[1]);
    r->b[2] = _mm_mul_ps(sign, kb[2]);
    r->b[3] = _mm_mul_ps(sign, kb[3]);
    r->m[0] = _mm_add_ps(ka[0], r->b[0]);
    r->m[1] = _mm_add_ps(ka[1], r->b[1]);
    r->m[2] = _mm_add_ps(ka[2], r->b[2]);
    r->m[3] = _mm_add_ps(ka[3], r->b[3]);
    const __m128 mlen = _mm_sqrt_ps(sw__codec_dot4_sse2(r->m, r->m));
    sw__codec_normalize4_sse2(r->m);
    /* min(1, ch) keeps a NaN as the scalar path's test does */
    const __m128 ch = _mm_min_ps(one, _mm_mul_ps(_mm_set1_ps(0.5f), mlen));
    const __m128 x = _mm_sub_ps(one, ch);
    r->p[0] = sw__codec_arc_coef_sse2(x, 0u);
    r->p[1] = sw__codec_arc_coef_sse2(x, 1u);
    r->p[2] = sw__codec_arc_coef_sse2(x, 2u);
}

/* sw__codec_arc_at on four arcs, one per lane, past the choice of half:
 * p0[c], p1[c] component c of the half's ends, t the fraction on it, p
 * the arcs' coefficients; out[i]: rotation i (x y z w). */
static inline void sw__codec_arc4_on_half(const __m128 p0[4], const __m128 p1[4], __m128 t,
                                          const __m128 p[3], __m128 out[4]) {
    const __m128 h = _mm_mul_ps(t, _mm_sub_ps(t, _mm_set1_ps(1.0f)));
    const __m128 poly = _mm_add_ps(p[0], _mm_mul_ps(h, _mm_add_ps(p[1], _mm_mul_ps(h, p[2]))));
    const __m128 sv =
        _mm_add_ps(t, _mm_mul_ps(_mm_mul_ps(h, _mm_sub_ps(t, _mm_set1_ps(0.5f))), poly));
    out[0] = _mm_add_ps(p0[0], _mm_mul_ps(_mm_sub_ps(p1[0], p0[0]), sv));
    out[1] = _mm_add_ps(p0[1], _mm_mul_ps(_mm_sub_ps(p1[1], p0[1]), sv));
    out[2] = _mm_add_ps(p0[2], _mm_mul_ps(_mm_sub_ps(p1[2], p0[2]), sv));
    out[3] = _mm_add_ps(p0[3], _mm_mul_ps(_mm_sub_ps(p1[3], p0[3]), sv));
    sw__codec_normalize4_sse2(out);
    _MM_TRANSPOSE4_PS(out[0], out[1], out[2], out[3]);
}

/* Per lane: a where mask is set, else b. */
static inline __m128 sw__codec_select(__m128 mask, __m128 a, __m128 b) {
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

/* sw__codec_arc_at on four prepared arcs, arc i at the fraction in lane i
 * of uu; out[i]: its rotation (x y z w). */
static inline void sw__codec_arc4_at(const sw__codec_arc4* r, __m128 uu, __m128 out[4]) {
    const __m128 first = _mm_cmplt_ps(uu, _mm_set1_ps(0.5f));
    const __m128 t2 = _mm_mul_ps(_mm_set1_ps(2.0f), uu);
    const __m128 t = sw__codec_select(first, t2, _mm_sub_ps(t2, _mm_set1_ps(1.0f)));
    const __m128 p0[4] = {
        sw__codec_select(first, r->a[0], r->m[0]), sw__codec_select(first, r->a[1], r->m[1]),
        sw__codec_select(first, r->a[2], r->m[2]), sw__codec_select(first, r->a[3], r->m[3])};
    const __m128 p1[4] = {
        sw__codec_select(first, r->m[0], r->b[0]), sw__codec_select(first, r->m[1], r->b[1]),
        sw__codec_select(first, r->m[2], r->b[2]), sw__codec_select(first, r->m[3], r->b[3])};
    sw__codec_arc4_on_half(p0, p1, t, r->p, out);
}

/* sw__codec_short_arc's preparation on four rotations, one per lane, as
 * an sw__codec_arc4 for the arcs' store: a the first keys ka, b the steps
 * (kb on ka's side) - ka, p[0] the correction's coefficient for their
 * cosines, m and p[1..2] 0 (so a group of kept short arcs holds the first
 * keys in its XA rows, the steps in its XB rows and the coefficients in
 * its first P row). */
static inline void sw__codec_short4_prepare(const __m128 ka[4], const __m128 kb[4],
                                            sw__codec_arc4* r) {
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    __m128 dot;
    const __m128 sign = sw__codec_side_sse2(ka, kb, &dot);
    /* written out, as in sw__codec_arc4_prepare */
    r->a[0] = ka[0];
    r->a[1] = ka[1];
    r->a[2] = ka[2];
    r->a[3] = ka[3];
    r->b[0] = _mm_sub_ps(_mm_mul_ps(sign, kb[0]), ka[0]);
    r->b[1] = _mm_sub_ps(_mm_mul_ps(sign, kb[1]), ka[1]);
    r->b[2] = _mm_sub_ps(_mm_mul_ps(sign, kb[2]), ka[2]);
    r->b[3] = _mm_sub_ps(_mm_mul_ps(sign, kb[3]), ka[3]);
    r->m[0] = r->m[1] = r->m[2] = r->m[3] = zero;
    /* min(1, c) keeps a NaN as the scalar path's test does */
    const __m128 x = _mm_sub_ps(one, _mm_min_ps(one, _mm_mul_ps(sign, dot)));
    r->p[0] = sw__codec_arc_coef_sse2(x, 0u);
    r->p[1] = r->p[2] = zero;
}

/* sw__codec_short_arc on four rotations, one per lane, from their first
 * keys a[c] and steps d[c] (component c) and their coefficients k, at the
 * fractions in u; out[i]: rotation i (x y z w). */
static inline void sw__codec_short4_at(const __m128 a[4], const __m128 d[4], __m128 k, __m128 u,
                                       __m128 out[4]) {
    const __m128 h = _mm_mul_ps(u, _mm_sub_ps(u, _mm_set1_ps(1.0f)));
    const __m128 sv = _mm_add_ps(u, _mm_mul_ps(h, _mm_mul_ps(_mm_sub_ps(u, _mm_set1_ps(0.5f)), k)));
    out[0] = _mm_add_ps(a[0], _mm_mul_ps(d[0], sv));
    out[1] = _mm_add_ps(a[1], _mm_mul_ps(d[1], sv));
    out[2] = _mm_add_ps(a[2], _mm_mul_ps(d[2], sv));
    out[3] = _mm_add_ps(a[3], _mm_mul_ps(d[3], sv));
    sw__codec_normalize4_sse2(out);
    _MM_TRANSPOSE4_PS(out[0], out[1], out[2], out[3]);
}

void sw__codec_arc4_sse2(const float qa[4][4], const float qb[4][4], const float u[4],
                         bool short_arc, float out[4][4]) {
    __m128 a[4], b[4], r[4];
    for (uint32_t i = 0; i < 4u; ++i) {
        a[i] = _mm_loadu_ps(qa[i]);
        b[i] = _mm_loadu_ps(qb[i]);
    }
    _MM_TRANSPOSE4_PS(a[0], a[1], a[2], a[3]);
    _MM_TRANSPOSE4_PS(b[0], b[1], b[2], b[3]);
    sw__codec_arc4 prep;
    if (short_arc) {
        sw__codec_short4_prepare(a, b, &prep);
        sw__codec_short4_at(prep.a, prep.b, prep.p[0], _mm_loadu_ps(u), r);
    } else {
        sw__codec_arc4_prepare(a, b, &prep);
        sw__codec_arc4_at(&prep, _mm_loadu_ps(u), r);
    }
    for (uint32_t i = 0; i < 4u; ++i)
        _mm_storeu_ps(out[i], r[i]);
}

/* Lane 0 of x, then lanes 0-2 of v: four values gathered in a register,
 * the first ending in lane 3. (Four scalar stores read back as one vector
 * wait for the stores to retire, without store forwarding: in a cached
 * call, whose kept arcs' fractions are needed at once, that cost about 30
 * ns per call on Walking, 8 characters, on a Zen 5.) */
static inline __m128 sw__codec_shift_in(__m128 v, __m128 x) {
    return _mm_move_ss(_mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 1, 0, 0)), x);
}

/* Lanes 0..n-1 (n <= 4) set. */
static inline __m128i sw__codec_used(uint32_t n) {
    SINEW_ALIGN16 static const uint32_t used_of[5][4] = {
        {0, 0, 0, 0}, {~0u, 0, 0, 0}, {~0u, ~0u, 0, 0}, {~0u, ~0u, ~0u, 0}, {~0u, ~0u, ~0u, ~0u}};
    return _mm_load_si128((const __m128i*)(const void*)used_of[n]);
}

/* Lanes 0..n-1 of the fractions u, the others 0. */
static inline __m128 sw__codec_used_u(const float u[4], uint32_t n) {
    return _mm_and_ps(_mm_castsi128_ps(sw__codec_used(n)), _mm_loadu_ps(u));
}

/* Rotation r (x y z w) straight into lane `lane` of the pose. */
static inline void sw__codec_put_rotation(__m128 r, uint32_t lane, float* of) {
    float* o = of + lane + 12u;
    _mm_store_ss(o, r);
    _mm_store_ss(o + 4, _mm_shuffle_ps(r, r, _MM_SHUFFLE(1, 1, 1, 1)));
    _mm_store_ss(o + 8, _mm_movehl_ps(r, r));
    _mm_store_ss(o + 12, _mm_shuffle_ps(r, r, _MM_SHUFFLE(3, 3, 3, 3)));
}

/* Rotations followed along their arc (short_arc 0: in halves,
 * sw__codec_arc; 1: in one piece, sw__codec_short_arc) waiting to be
 * finished, up to SW__CODEC_ARCS_WAIT, 4 at a time: both keys (their three
 * stored components in lanes 0-2) and the component each leaves out, the
 * fraction and the lane in the pose. groups: NULL, or the key cache's
 * group of kept rotations 0-3, where entry i's prepared rotation is kept
 * as `slot` + i (group k at groups + k * step floats), with its key
 * interval (key0, inv: sw__codec_arc4_keep's) from keys. */
#define SW__CODEC_ARCS_WAIT 16u
typedef struct sw__codec_arcs {
    float ka[SW__CODEC_ARCS_WAIT][4], kb[SW__CODEC_ARCS_WAIT][4], u[SW__CODEC_ARCS_WAIT];
    float key0[SW__CODEC_ARCS_WAIT], inv[SW__CODEC_ARCS_WAIT];
    uint32_t da[SW__CODEC_ARCS_WAIT], db[SW__CODEC_ARCS_WAIT], lane[SW__CODEC_ARCS_WAIT];
    float* groups;
    ptrdiff_t step;
    const sw__codec_keys* keys;
    uint32_t slot, n, short_arc;
} sw__codec_arcs;

/* A group of 4 kept arcs (SW__CODEC_ARC_GROUP floats, 16-byte aligned),
 * 4 floats per row, one arc per lane: the midpoint m (4 rows, components
 * x y z w), a ^ m and b ^ m (bitwise: the first key and the second on its
 * side, 4 rows each), the correction's coefficients p0 p1 p2 (3 rows),
 * then ka and 1 / (kb - ka), the arc's key interval in samples, whose
 * fraction at position p is (p - ka) * (1 / (kb - ka)), and its lane in
 * the pose (a row of words). A group of short arcs has m 0: its XA rows
 * hold the first keys, its XB rows the steps to the second
 * (sw__codec_short4_prepare). */
#define SW__CODEC_ARC_GROUP 72u
#define SW__ARC_XA 16u
#define SW__ARC_XB 32u
#define SW__ARC_P 48u
#define SW__ARC_KA 60u
#define SW__ARC_INV 64u
#define SW__ARC_LANE 68u

/* The group of q's kept rotation s. */
static inline float* sw__codec_arc_group(const sw__codec_arcs* q, uint32_t s) {
    return q->groups + q->step * (ptrdiff_t)(s >> 2);
}

/* Four rotations rebuilt, one per lane (sw__codec_rebuild's operations):
 * v[0..2] their stored components (v[3] unused), d the component each
 * leaves out; q[c]: component c. */
static inline void sw__codec_rebuild4_soa(__m128 v[4], __m128i d, __m128 q[4]) {
    __m128 ww = _mm_sub_ps(_mm_set1_ps(1.0f), _mm_mul_ps(v[0], v[0]));
    ww = _mm_sub_ps(ww, _mm_mul_ps(v[1], v[1]));
    ww = _mm_sub_ps(ww, _mm_mul_ps(v[2], v[2]));
    const __m128 w = _mm_sqrt_ps(_mm_max_ps(ww, _mm_setzero_ps()));
    const __m128 is0 = _mm_castsi128_ps(_mm_cmpeq_epi32(d, _mm_setzero_si128()));
    const __m128 is1 = _mm_castsi128_ps(_mm_cmpeq_epi32(d, _mm_set1_epi32(1)));
    const __m128 is2 = _mm_castsi128_ps(_mm_cmpeq_epi32(d, _mm_set1_epi32(2)));
    const __m128 is3 = _mm_castsi128_ps(_mm_cmpeq_epi32(d, _mm_set1_epi32(3)));
    /* component c is w where d = c, the stored c below d, c - 1 above it */
    q[0] = sw__codec_select(is0, w, v[0]);
    q[1] = sw__codec_select(is0, v[0], sw__codec_select(is1, w, v[1]));
    q[2] = sw__codec_select(is3, v[2], sw__codec_select(is2, w, v[1]));
    q[3] = sw__codec_select(is3, w, v[2]);
}

/* Entries g..g+3 of four-float rows (the free ones, from n on, 0) and of
 * their left-out components (the free ones 3: identities), transposed. */
static inline __m128i sw__codec_arcs_load(const float (*k)[4], const uint32_t* d, uint32_t g,
                                          uint32_t n, __m128 v[4]) {
    for (uint32_t i = 0; i < 4u; ++i)
        v[i] = i < n ? _mm_loadu_ps(k[g + i]) : _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(v[0], v[1], v[2], v[3]);
    const __m128i used = sw__codec_used(n);
    const __m128i dd = _mm_loadu_si128((const __m128i*)(const void*)(d + g));
    return _mm_or_si128(_mm_and_si128(used, dd), _mm_andnot_si128(used, _mm_set1_epi32(3)));
}

/* Stores the rows of a group of kept arcs (SW__CODEC_ARC_GROUP) for the
 * four prepared arcs r and their key intervals and lanes key0, inv, lane
 * at o (16-byte aligned). */
static inline void sw__codec_arc4_store(const sw__codec_arc4* r, __m128 key0, __m128 inv,
                                        __m128 lane, float* o) {
    /* written out: compiled as loops, or from an array of rows, these go
     * through memory (an array of rows was copied with rep movsq) */
    _mm_store_ps(o, r->m[0]);
    _mm_store_ps(o + 4, r->m[1]);
    _mm_store_ps(o + 8, r->m[2]);
    _mm_store_ps(o + 12, r->m[3]);
    _mm_store_ps(o + SW__ARC_XA, _mm_xor_ps(r->a[0], r->m[0]));
    _mm_store_ps(o + SW__ARC_XA + 4, _mm_xor_ps(r->a[1], r->m[1]));
    _mm_store_ps(o + SW__ARC_XA + 8, _mm_xor_ps(r->a[2], r->m[2]));
    _mm_store_ps(o + SW__ARC_XA + 12, _mm_xor_ps(r->a[3], r->m[3]));
    _mm_store_ps(o + SW__ARC_XB, _mm_xor_ps(r->b[0], r->m[0]));
    _mm_store_ps(o + SW__ARC_XB + 4, _mm_xor_ps(r->b[1], r->m[1]));
    _mm_store_ps(o + SW__ARC_XB + 8, _mm_xor_ps(r->b[2], r->m[2]));
    _mm_store_ps(o + SW__ARC_XB + 12, _mm_xor_ps(r->b[3], r->m[3]));
    _mm_store_ps(o + SW__ARC_P, r->p[0]);
    _mm_store_ps(o + SW__ARC_P + 4, r->p[1]);
    _mm_store_ps(o + SW__ARC_P + 8, r->p[2]);
    _mm_store_ps(o + SW__ARC_KA, key0);
    _mm_store_ps(o + SW__ARC_INV, inv);
    _mm_store_ps(o + SW__ARC_LANE, lane);
}

/* Keeps lane i of the group of kept arcs g (SW__CODEC_ARC_GROUP floats)
 * as q's kept rotation s (the others of its group untouched). */
static void sw__codec_arc_keep_lane(const float* g, uint32_t i, const sw__codec_arcs* q,
                                    uint32_t s) {
    float* o = sw__codec_arc_group(q, s) + (s & 3u);
    for (uint32_t k = 0; k < SW__CODEC_ARC_GROUP; k += 4u)
        o[k] = g[k + i];
}

/* Keeps entries g..g+n-1 (n = 1..4) of q, prepared as r, as kept arcs
 * slot + g on: the whole group when they start one (its free lanes are
 * past the last arc), else lane by lane (a track decoded alone, after the
 * others). */
static inline void sw__codec_arc4_keep(const sw__codec_arcs* q, uint32_t g, uint32_t n,
                                       const sw__codec_arc4* r) {
    /* the free lanes 0 */
    const __m128 used = _mm_castsi128_ps(sw__codec_used(n));
    const __m128 key0 = _mm_and_ps(used, _mm_loadu_ps(q->key0 + g));
    const __m128 inv = _mm_and_ps(used, _mm_loadu_ps(q->inv + g));
    const __m128 lane = _mm_and_ps(used, _mm_loadu_ps((const float*)(const void*)(q->lane + g)));
    const uint32_t s = q->slot + g;
    if ((s & 3u) == 0u) {
        sw__codec_arc4_store(r, key0, inv, lane, sw__codec_arc_group(q, s));
        return;
    }
    SINEW_ALIGN16 float one[SW__CODEC_ARC_GROUP];
    sw__codec_arc4_store(r, key0, inv, lane, one);
    for (uint32_t i = 0; i < n; ++i)
        sw__codec_arc_keep_lane(one, i, q, s + i);
}

/* Finishes the n (1..4) waiting rotations from entry g of q (the free
 * lanes run on identities) into their lanes of the pose, keeping the
 * prepared arcs when q keeps them. */
static inline void sw__codec_arcs_group(const sw__codec_arcs* q, uint32_t g, uint32_t n,
                                        float* of) {
    __m128 va[4], vb[4], a[4], b[4], r[4];
    sw__codec_rebuild4_soa(va, sw__codec_arcs_load(q->ka, q->da, g, n, va), a);
    sw__codec_rebuild4_soa(vb, sw__codec_arcs_load(q->kb, q->db, g, n, vb), b);
    sw__codec_arc4 prep;
    if (q->short_arc) {
        sw__codec_short4_prepare(a, b, &prep);
        sw__codec_short4_at(prep.a, prep.b, prep.p[0], sw__codec_used_u(q->u + g, n), r);
    } else {
        sw__codec_arc4_prepare(a, b, &prep);
        sw__codec_arc4_at(&prep, sw__codec_used_u(q->u + g, n), r);
    }
    for (uint32_t i = 0; i < n; ++i)
        sw__codec_put_rotation(r[i], q->lane[g + i], of);
    if (q->groups) sw__codec_arc4_keep(q, g, n, &prep);
}

/* Finishes the n waiting rotations, 4 at a time. (Queued across the
 * tracks and finished together, the groups' long chains of dependent
 * operations, square roots and divisions, overlap.) */
static void sw__codec_arcs_flush(sw__codec_arcs* q, float* of) {
    for (uint32_t g = 0; g < q->n; g += 4u)
        sw__codec_arcs_group(q, g, q->n - g < 4u ? q->n - g : 4u, of);
    q->slot += q->n;
    q->n = 0;
}

/* Queues the rotation from ka to kb (stored components in lanes 0-2,
 * leaving out da, db) at u for lane `lane`, the track's key stride sl, or
 * kk = ka | kb << 8 != 0, the samples of its keys with a key mask. */
static inline void sw__codec_arcs_push(sw__codec_arcs* q, __m128 ka, __m128 kb, uint32_t da,
                                       uint32_t db, float u, uint32_t lane, uint32_t sl,
                                       uint32_t kk, float* of) {
    const uint32_t n = q->n; /* read once: the stores below may alias it */
    _mm_storeu_ps(q->ka[n], ka);
    _mm_storeu_ps(q->kb[n], kb);
    q->da[n] = da & 3u;
    q->db[n] = db & 3u;
    q->u[n] = u;
    q->lane[n] = lane;
    if (q->groups) {
        /* the fraction at p is (p - key0) * inv: a stride's p 2^-sl - j
         * is (p - j 2^sl) 2^-sl bit for bit, a key mask's as computed */
        q->key0[n] = (float)(kk ? kk & 255u : q->keys->j[sl] << sl);
        q->inv[n] = kk ? sw__codec_inv_span[(kk >> 8) - (kk & 255u)] : sw__codec_inv_pow2[sl];
    }
    q->n = n + 1u;
    if (n + 1u == SW__CODEC_ARCS_WAIT) sw__codec_arcs_flush(q, of);
}

#endif

/* The arrays of a loaded quantized clip's payload. */
typedef struct sw__codec_view {
    const sw_codec_header* h;
    const uint32_t* slots;
    const sw_codec_track* tracks;
    const float* constants;
} sw__codec_view;

static inline sw__codec_view sw__codec_view_of(const sw_clip* clip) {
    const sw_codec_header* h = sw_clip_codec_header(clip);
    const uint8_t* base = (const uint8_t*)h;
    sw__codec_view v = {h, (const uint32_t*)(const void*)(base + h->slots_offset),
                        (const sw_codec_track*)(const void*)(base + h->tracks_offset),
                        (const float*)(const void*)(base + h->constants_offset)};
    return v;
}

/* The track headers of segment `seg` (returned) and its key bits (*bits). */
static inline const uint8_t* sw__codec_segment(const sw_codec_header* h, uint32_t seg,
                                               const uint8_t** bits) {
    const uint8_t* base = (const uint8_t*)h;
    const uint32_t* offs = (const uint32_t*)(const void*)(base + h->segments_offset);
    const uint8_t* d = base + offs[seg];
    *bits = d + 4 + sw__codec_le32(d);
    return d + 4;
}

/* Bit k set when slots[k] (k < 4) names a constant: the values in
 * [SW_CODEC_SLOT_CONSTANT, SW_CODEC_SLOT_DEFAULT), those with
 * v + 1 > SW_CODEC_SLOT_CONSTANT (unsigned). */
static inline uint32_t sw__codec_constants4(const uint32_t* slots) {
#if SINEW_HAS_SSE2
    /* unsigned v + 1 > 0x80000000 is signed ((v + 1) ^ 0x80000000) > 0 */
    const __m128i v =
        _mm_add_epi32(_mm_loadu_si128((const __m128i*)(const void*)slots), _mm_set1_epi32(1));
    const __m128i x = _mm_xor_si128(v, _mm_set1_epi32((int32_t)SW_CODEC_SLOT_CONSTANT));
    return (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(x, _mm_setzero_si128())));
#else
    uint32_t mask = 0;
    for (uint32_t k = 0; k < 4u; ++k)
        mask |= (uint32_t)(slots[k] + 1u > SW_CODEC_SLOT_CONSTANT) << k;
    return mask;
#endif
}

/* The x y z of constant scale slot value v (SW_CODEC_SLOT_CONSTANT set):
 * its record's, or a uniform constant's one float three times. */
static inline void sw__codec_scale_constant(const float* constants, uint32_t v, float out[3]) {
    const uint32_t k = v & ~(SW_CODEC_SLOT_CONSTANT | SW_CODEC_SLOT_UNIFORM);
    if (v & SW_CODEC_SLOT_UNIFORM) {
        out[0] = out[1] = out[2] = constants[k];
        return;
    }
    memcpy(out, constants + 4u * (size_t)k, 3u * sizeof(float));
}

/* Writes the constant of slot s into the pose. */
static inline void sw__codec_put_constant(const uint32_t* slots, const float* constants, uint32_t s,
                                          sw_xform4* out) {
    sw_xform4* o = &out[s / 12u];
    const uint32_t l = (s / 3u) & 3u;
    if (s % 3u == 2u) {
        float v[3];
        sw__codec_scale_constant(constants, slots[s], v);
        o->sx[l] = v[0];
        o->sy[l] = v[1];
        o->sz[l] = v[2];
        return;
    }
    const float* cv = constants + 4u * (size_t)(slots[s] & ~SW_CODEC_SLOT_CONSTANT);
    if (s % 3u == 0u) {
        o->tx[l] = cv[0];
        o->ty[l] = cv[1];
        o->tz[l] = cv[2];
        return;
    }
    o->rx[l] = cv[0];
    o->ry[l] = cv[1];
    o->rz[l] = cv[2];
    o->rw[l] = cv[3];
}

/* Writes the constants of slots s0 + k (bit k of mask) into the pose. */
static void sw__codec_put_constants(const uint32_t* slots, const float* constants, uint32_t s0,
                                    uint32_t mask, sw_xform4* out) {
    for (uint32_t k = 0; k < 4u; ++k) {
        if ((mask >> k) & 1u) sw__codec_put_constant(slots, constants, s0 + k, out);
    }
}

/* mask without the bits k whose slot s0 + k is of a joint the joint subset
 * leaves out (only the set bits' slots are read). */
static inline uint32_t sw__codec_kept4(const uint8_t* subset, uint32_t s0, uint32_t mask) {
    for (uint32_t k = 0; k < 4u; ++k) {
        if (((mask >> k) & 1u) && !sw__subset_keeps(subset, (s0 + k) / 3u)) mask &= ~(1u << k);
    }
    return mask;
}

/* Bit k set when slot s0 + k (< slots_count) names a constant. */
static inline uint32_t sw__codec_constants_at(const uint32_t* slots, uint32_t slots_count,
                                              uint32_t s0) {
    if (s0 + 4u <= slots_count) return sw__codec_constants4(slots + s0);
    uint32_t rest[4] = {SW_CODEC_SLOT_DEFAULT, SW_CODEC_SLOT_DEFAULT, SW_CODEC_SLOT_DEFAULT,
                        SW_CODEC_SLOT_DEFAULT};
    memcpy(rest, slots + s0, sizeof(uint32_t) * (slots_count - s0));
    return sw__codec_constants4(rest);
}

/* Rest pose (identity for an additive clip; a loaded skeleton's lanes past
 * the joints are identity), then the constant tracks of the joints the
 * joint subset keeps (NULL: all): those of list when listed is their count
 * + 1 (the key cache's list of the clip's constant slots), else found in
 * the slots. */
static void sw__codec_put_static(const sw__codec_view* pl, const sw_clip* clip,
                                 const sw_skeleton* skel, const uint8_t* subset, sw_xform4* out,
                                 const uint32_t* list, uint32_t listed) {
    const uint32_t joints = skel->joints_count;
    if ((clip->flags & SW_CLIP_FLAG_ADDITIVE) != 0u) {
        for (uint32_t p = 0; p < skel->packets_count; ++p)
            sw_xform4_identity(&out[p]);
    } else {
        memcpy(out, sw_skeleton_rest_pose(skel), sizeof(sw_xform4) * skel->packets_count);
    }
    if (pl->h->constants_count == 0) return;
    if (listed) {
        for (uint32_t i = 0; i + 1u < listed; ++i) {
            const uint32_t s = list[i];
            if (!subset || sw__subset_keeps(subset, s / 3u))
                sw__codec_put_constant(pl->slots, pl->constants, s, out);
        }
        return;
    }
    /* Slots 4 at a time: most are animated or default, so a group without a
     * constant costs one test. */
    const uint32_t slots_count = 3u * joints;
    for (uint32_t s0 = 0; s0 < slots_count; s0 += 4u) {
        uint32_t mask = sw__codec_constants_at(pl->slots, slots_count, s0);
        if (mask && subset) mask = sw__codec_kept4(subset, s0, mask);
        if (mask) sw__codec_put_constants(pl->slots, pl->constants, s0, mask, out);
    }
}

/* Key index *j, fraction *u and key count *nk of a track of stride code sl
 * whose key mask, if it has one, is at m; *kk: the samples of its two keys
 * (ka | kb << 8) with a key mask, else 0 (for the key cache). Returns the
 * mask's bytes (0 or 4). */
static inline uint32_t sw__codec_track_keys(const sw__codec_keys* keys, uint32_t sl,
                                            const uint8_t* m, uint32_t* j, float* u, uint32_t* nk,
                                            uint32_t* kk) {
    if (sl != SW__CODEC_SL_MASK || !keys->masks) {
        *j = keys->j[sl];
        *u = keys->u[sl];
        *nk = keys->n[sl];
        *kk = 0u;
        return 0u;
    }
    const uint32_t mask = sw__codec_le32(m);
    uint32_t ka, kb;
    *j = sw__codec_mask_key(keys->p, keys->span, mask, &ka, &kb, u);
    *nk = sw__codec_mask_keys(mask);
    *kk = ka | kb << 8;
    return 4u;
}

/* Float index of a track's first lane in the SoA pose (10 arrays of 4). */
static inline uint32_t sw__codec_lane(const sw_codec_track* tr) {
    return ((uint32_t)tr->joint >> 2) * 40u + (tr->joint & 3u);
}

#if SINEW_HAS_SSE2
/* The joint whose first lane in the SoA pose is float index lane
 * (sw__codec_lane's inverse). */
static inline uint32_t sw__codec_lane_joint(uint32_t lane) {
    return lane / 40u * 4u + lane % 40u;
}
#endif

/* The key cache (sw__codec_quantized_keep_words words of sample-cache
 * storage): word 0 the segment + 1 whose keys it holds (0: none), word 1
 * the stride-1 key index (which fixes every stride's in the segment), word
 * 2 the count + 1 of the clip's constant slots listed at the end (0: not
 * listed), word 3 1 when every animated track's header is kept parsed (2
 * when the clip's shared table holds them all for the segment, which the
 * cache then leaves unwritten), word
 * 4 the strides the segment's tracks use (bit sl: 2^sl samples; their key
 * indices the only ones a later call in the segment computes), word 5 the
 * count of arcs kept and word 6 of short arcs kept (below); then per
 * animated track a record of 8 floats: key a and b - a (3 floats each);
 * then per track 3 words: where its results go (float indices to[0..2] in
 * 16 bits, to[3] in 13, the key stride in the top 3; third word unused), or
 * for a track whose keys a key mask names SW__KEEP_MASKED, to[0], to[1] and
 * kb, then to[2], to[3] and ka (13, 13 and 6 bits: the samples of its two
 * keys), or SW__KEEP_ARC for a rotation followed along its arc, whole or in
 * halves (kept in the groups, below), or SW__KEEP_LATER and the offset of
 * its header for a track a joint subset left out when the keys were kept
 * (decoded, and kept, when a later call wants it; its record's first word
 * holds the bit offset of its track). A masked track's key interval is
 * unchanged while the stride-1 key index is, and the cache holds only then.
 * Then room for 4 slot indices per constant record (SW__KEEP_LIST: one
 * record holds one constant, or up to four uniform ones): the constant
 * slots of every joint, listed by the call that finds the cache fresh, so
 * that later calls write them without reading every slot (not listed when
 * the slots name more). After those, 16-byte aligned (3 words kept for
 * that), room for one group more than a quarter of the animated tracks
 * (SW__CODEC_ARC_GROUP floats each): the arcs prepared from both keys of
 * each rotation followed along its arc, four to a group in SoA, in the
 * order they were decoded, from the first group up; the short arcs,
 * likewise, from the last group down; so that a call from the cache
 * finishes four at a time. Last, per track 24 words, its parsed header
 * (sw__codec_keep_head), kept when word 3 is 1: then a call in the same
 * segment at other key indices decodes from them (sw__codec_redecode)
 * without reading the headers (apart from the 3 words, which a call from
 * the cache reads alone: fewer cache lines). A cache that reads the clip's
 * shared table instead never touches them, so it may end before them
 * (sw__codec_quantized_keep_words_shared). */
#define SW__KEEP_ARC 0xFFFFFFFFu
#define SW__KEEP_LATER 0xFFFFFFFEu
#define SW__KEEP_MASKED 0xFFFFFFFDu
#define SW__KEEP_HEAD 7u
#define SW__KEEP_REC 8u           /* floats per track record */
#define SW__KEEP_META 3u          /* words per track after the records */
#define SW__KEEP_HEADER 24u       /* words per track at the end: its parsed header */
#define SW__KEEP_MAX_FLOATS 8192u /* pose floats (to[3] in 13 bits) */
#define SW__KEEP_LIST 4u          /* list words per constant record */

/* A clip's shared table (sw__codec_quantized_table_words): its head
 * (sw__codec_quantized_table_fits: the clip it was made for, and its
 * words); then per segment 1 when every animated track's header is parsed
 * in it (keys of at most 57 bits: sw__codec_redecode's), else 0; then,
 * 4-word aligned, per segment per animated track its parsed header
 * (SW__KEEP_HEADER words, as a key cache keeps them); then the fill's
 * scratch (a key cache and a pose). */
#define SW__TABLE_FLAGS SW__TABLE_HEAD

/* Word offset of a table's parsed headers of segment `segment` (of all
 * of them: segment 0; of none past them: segments_count). */
static inline uint64_t sw__codec_table_heads_at(const sw_codec_header* h, uint32_t segment) {
    return ((SW__TABLE_FLAGS + h->segments_count + 3u) & ~3u) +
           (uint64_t)SW__KEEP_HEADER * h->animated_count * segment;
}

#if SINEW_HAS_SSE2
/* Word offset of the key cache's constant list: after the head and each
 * animated track's record and meta words. */
static inline uint32_t sw__codec_keep_list_at(const sw_codec_header* h) {
    return SW__KEEP_HEAD + (SW__KEEP_REC + SW__KEEP_META) * h->animated_count;
}

/* Words of the key cache before its arc groups' alignment: the head, the
 * tracks' words and the constant list. */
static inline uint32_t sw__codec_keep_list_end(const sw_codec_header* h) {
    return sw__codec_keep_list_at(h) + SW__KEEP_LIST * h->constants_count;
}

/* Groups (SW__CODEC_ARC_GROUP floats each) of the key cache: one per 4
 * animated tracks, and one more (arcs and short arcs fill them from
 * either end). */
static inline uint32_t sw__codec_keep_group_count(const sw_codec_header* h) {
    return (h->animated_count + 3u) / 4u + 1u;
}

/* The key cache's groups: after its constant list, 16-byte aligned (3
 * words kept for that). */
static inline float* sw__codec_keep_groups(uint32_t* keep, const sw_codec_header* h) {
    const uint32_t* end = keep + sw__codec_keep_list_end(h);
    return (float*)(void*)(((uintptr_t)end + 15u) & ~(uintptr_t)15u);
}

/* Where the key cache keeps rotations of kind k (0 arcs, 1 short arcs):
 * the group of its rotations 0-3 (arcs: the first group; short arcs: the
 * last), and *step, the floats from one group of the kind to the next
 * (arcs up, short arcs down). */
static inline float* sw__codec_keep_kind(uint32_t* keep, const sw_codec_header* h, uint32_t k,
                                         ptrdiff_t* step) {
    *step = k ? -(ptrdiff_t)SW__CODEC_ARC_GROUP : (ptrdiff_t)SW__CODEC_ARC_GROUP;
    return sw__codec_keep_groups(keep, h) +
           (k ? SW__CODEC_ARC_GROUP * (size_t)(sw__codec_keep_group_count(h) - 1u) : 0u);
}

/* Words of the key cache before its parsed headers: all a cache whose
 * clip's shared table holds the headers reads and writes. */
static inline uint32_t sw__codec_keep_shared_words(const sw_codec_header* h) {
    return sw__codec_keep_list_end(h) + 3u + SW__CODEC_ARC_GROUP * sw__codec_keep_group_count(h);
}

/* The parsed headers' words in the key cache: its last, after the groups'
 * room (a cache that reads them from a shared table need not have them). */
static inline uint32_t* sw__codec_keep_heads(uint32_t* keep, const sw_codec_header* h) {
    return keep + sw__codec_keep_shared_words(h);
}

/* Empty queues of arcs (q[0]) and short arcs (q[1]) at keys,
 * keeping into the key cache keep (NULL: not kept) after the rotations it
 * holds already when `after`, else from the first. */
static inline void sw__codec_queues_init(sw__codec_arcs q[2], uint32_t* keep,
                                         const sw_codec_header* h, const sw__codec_keys* keys,
                                         bool after) {
    for (uint32_t k = 0; k < 2u; ++k) {
        q[k].step = 0;
        q[k].groups = keep ? sw__codec_keep_kind(keep, h, k, &q[k].step) : NULL;
        q[k].keys = keys;
        q[k].slot = keep && after ? keep[5u + k] : 0u;
        q[k].n = 0;
        q[k].short_arc = k;
    }
}

/* Finishes both queues' waiting rotations; records what the key cache
 * keeps (keep: NULL, or the key cache). */
static inline void sw__codec_queues_flush(sw__codec_arcs q[2], uint32_t* keep, float* of) {
    for (uint32_t k = 0; k < 2u; ++k) {
        if (q[k].n > 0) sw__codec_arcs_flush(&q[k], of);
        if (keep) keep[5u + k] = q[k].slot;
    }
}

/* Where the results of a track go: float indices to, key stride sl, or
 * kk = ka | kb << 8 != 0, the samples of its keys with a key mask. */
static inline void sw__codec_keep_meta(uint32_t* meta, const uint32_t to[4], uint32_t sl,
                                       uint32_t kk) {
    if (kk) {
        meta[0] = SW__KEEP_MASKED;
        meta[1] = to[0] | to[1] << 13 | (kk >> 8) << 26;
        meta[2] = to[2] | to[3] << 13 | (kk & 255u) << 26;
        return;
    }
    meta[0] = to[0] | to[1] << 16;
    meta[1] = to[2] | to[3] << 16 | sl << 29;
}

/* The float indices to[0..3] of a track kept as SW__KEEP_MASKED (meta
 * words m1, m2), and the samples of its keys (ka | kb << 8). */
static inline uint32_t sw__codec_masked_to(uint32_t m1, uint32_t m2, uint32_t to[4]) {
    to[0] = m1 & 0x1FFFu;
    to[1] = (m1 >> 13) & 0x1FFFu;
    to[2] = m2 & 0x1FFFu;
    to[3] = (m2 >> 13) & 0x1FFFu;
    return (m2 >> 26) | (m1 >> 26) << 8;
}

/* A track's parsed header in the key cache (SW__KEEP_HEADER words): the
 * bit offset of its keys and the offset of its header in the segment
 * (written by the decoder's loop), then sw__codec_head_info's word, its
 * key mask's bytes (masked tracks), the masks of its three codes, its
 * dequantization (lo, scale: 4 floats each, sw__codec_dequant_sse2's),
 * for keys of at most 28 bits each code's mask in place (mask << its
 * bit offset; 4 words, the last 0) and 2^-offset (4 floats, the last 1):
 * sw__codec_codes_sse2's, and its first lane in the pose (sw__codec_lane)
 * | its kind << 16 (written by the decoder's loop). */
#define SW__HEAD_AT 0u
#define SW__HEAD_INFO 1u
#define SW__HEAD_MASK 2u
#define SW__HEAD_OFFSET 3u
#define SW__HEAD_CODES 4u
#define SW__HEAD_LO 7u
#define SW__HEAD_SCALE 11u
#define SW__HEAD_FIELDS 15u
#define SW__HEAD_UNIT 19u
#define SW__HEAD_PLACE 23u

/* The key stride code sl, whether each key names its left-out component
 * (per_key), the left-out row drow, the key bits kb, the bit offset of
 * each code in a key (of bits b per component; all 0 for a uniform
 * track, whose one code serves the three) and the interpolation
 * (SW__CODEC_INTERP_*) in one word (3, 1, 1 unused, 2, 7, 2, 7, 7 and 2
 * bits). */
static inline uint32_t sw__codec_head_info(const uint32_t b[3], uint32_t kb, uint32_t sl,
                                           uint32_t per_key, uint32_t interp, uint32_t uni,
                                           uint32_t drow) {
    const uint32_t s0 = per_key << 1;
    const uint32_t s1 = uni ? 0u : s0 + b[0], s2 = uni ? 0u : s1 + b[1];
    return sl | per_key << 3 | drow << 5 | kb << 7 | s0 << 14 | s1 << 16 | s2 << 23 | interp << 30;
}

/* Keeps a track's parsed header in head: sw__codec_head_info's word info,
 * its key mask at mask (NULL: none), the masks of its codes of bits b, and
 * its dequantization lo, scale (sw__codec_dequant_sse2's). */
static inline void sw__codec_keep_head(uint32_t* head, uint32_t info, const uint8_t* mask,
                                       const uint32_t b[3], __m128 lo, __m128 scale) {
    head[SW__HEAD_INFO] = info;
    if (mask) memcpy(&head[SW__HEAD_MASK], mask, 4u);
    const uint32_t shift[3] = {(info >> 14) & 3u, (info >> 16) & 127u, (info >> 23) & 127u};
    const uint32_t narrow = ((info >> 7) & 127u) <= 28u ? 1u : 0u;
    for (uint32_t c = 0; c < 3u; ++c) {
        head[SW__HEAD_CODES + c] = (1u << b[c]) - 1u;
        /* a key of at most 28 bits: each code's mask in place, and the
         * float 2^-offset (offset < 28: a normal number) */
        head[SW__HEAD_FIELDS + c] = narrow ? head[SW__HEAD_CODES + c] << shift[c] : 0u;
        head[SW__HEAD_UNIT + c] = (127u - (narrow ? shift[c] : 0u)) << 23;
    }
    head[SW__HEAD_FIELDS + 3u] = 0u;
    head[SW__HEAD_UNIT + 3u] = 127u << 23; /* 1.0f */
    _mm_storeu_ps((float*)(void*)(head + SW__HEAD_LO), lo);
    _mm_storeu_ps((float*)(void*)(head + SW__HEAD_SCALE), scale);
}

/* The codes of a key of at most 28 bits, x its bits (from bit 0), as
 * floats in lanes 0-2 (lane 3: 0): each code masked in place (a multiple
 * of 2^offset below 2^28, so converted exactly) times 2^-offset (exact),
 * that is the code itself, from head's fields and units
 * (sw__codec_keep_head's). */
static inline __m128 sw__codec_codes_sse2(uint32_t x, __m128i fields, __m128 unit) {
    const __m128i v = _mm_shuffle_epi32(_mm_cvtsi32_si128((int32_t)x), 0);
    return _mm_mul_ps(_mm_cvtepi32_ps(_mm_and_si128(v, fields)), unit);
}

/* Queues ww (lane 0) of the rotation whose w goes to float index `to`:
 * the square roots run 4 at a time, off the tracks' chains. */
static inline void sw__codec_queue_w(__m128* acc, uint32_t wto[4], uint32_t* wn, __m128 ww,
                                     uint32_t to, float* of) {
    *acc = sw__codec_shift_in(*acc, ww);
    wto[*wn] = to;
    if (++*wn == 4u) {
        sw__codec_rebuild4(*acc, wto, *wn, of);
        *wn = 0;
    }
}

/* Key a plus (b - a) d at u (lanes 0-2) into the pose at to[0..2]; a
 * rotation's fourth (to[3] apart from to[0]: a translation's or scale's
 * fourth goes to its x) queued on wacc. */
static inline void sw__codec_put_lerp(__m128 ka, __m128 d, float u, const uint32_t to[4],
                                      __m128* wacc, uint32_t wto[4], uint32_t* wn, float* of) {
    const __m128 ww = sw__codec_put3(_mm_add_ps(ka, _mm_mul_ps(d, _mm_set1_ps(u))), to, of);
    if (to[3] != to[0]) sw__codec_queue_w(wacc, wto, wn, ww, to[3], of);
}

/* sw__codec_put_lerp from a kept record rec (key a, b - a). */
static inline void sw__codec_kept_lerp(const float* rec, float u, const uint32_t to[4],
                                       __m128* wacc, uint32_t wto[4], uint32_t* wn, float* of) {
    sw__codec_put_lerp(_mm_loadu_ps(rec), _mm_loadu_ps(rec + 3u), u, to, wacc, wto, wn, of);
}

/* Where the next track's header and keys start. */
typedef struct sw__codec_step {
    const uint8_t* hd;
    uint64_t at;
} sw__codec_step;

/* A decoded track's keys ka, kb (its stored components in lanes 0-2) at
 * u, for a track of kind `kind` whose first lane in the pose is float
 * index `lane` (sw__codec_lane), the SSE2 decoder's operations: a rotation
 * followed along its arc, in halves or whole (interp, SW__CODEC_INTERP_*),
 * rebuilt leaving out da, db and queued on arcs[0] or arcs[1]; any other
 * track a + (b - a) * u stored at the pose fields of its kind and left-out
 * row drow (a rotation's fourth queued on wacc). rec, m: NULL, or its record
 * and meta in the key cache, kept (sl, kk: as sw__codec_keep_meta's). */
SW__ALWAYS_INLINE void sw__codec_put_keys_sse2(uint32_t lane, uint32_t kind, __m128 ka, __m128 kb,
                                               uint32_t interp, uint32_t drow, uint32_t da,
                                               uint32_t db, float u, uint32_t sl, uint32_t kk,
                                               float* rec, uint32_t* m, __m128* wacc,
                                               uint32_t wto[4], uint32_t* wn, sw__codec_arcs* arcs,
                                               float* of) {
    if (interp != SW__CODEC_INTERP_LERP) {
        sw__codec_arcs_push(&arcs[interp - 1u], ka, kb, da, db, u, lane, sl, kk, of);
        if (m) m[0] = SW__KEEP_ARC;
        return;
    }
    /* float index of each result in the pose (a translation's or scale's
     * fourth, 0, goes to its x, written before it) */
    const uint8_t* fields =
        sw__codec_dst_fields[kind == SW_TRACK_KIND_ROTATION ? 2u + drow : kind >> 1];
    const uint32_t to[4] = {lane + 4u * fields[0], lane + 4u * fields[1], lane + 4u * fields[2],
                            lane + 4u * fields[3]};
    const __m128 d = _mm_sub_ps(kb, ka);
    if (rec) {
        /* key a then b - a, 3 floats each (the second store's fourth lane
         * lands on the record's spare float) */
        _mm_storeu_ps(rec, ka);
        _mm_storeu_ps(rec + 3, d);
        sw__codec_keep_meta(m, to, sl, kk);
    }
    sw__codec_put_lerp(ka, d, u, to, wacc, wto, wn, of);
}

/* The common track on the SSE2 path: one left-out component (or none, or
 * named by each key for a rotation followed along its arc), both keys in
 * one 64-bit load; decodes the track whose header is at hd and keys at bit
 * `at` (its rotations followed along their arc queued on arcs[0], in one
 * piece on arcs[1]: sw__codec_queues_init's), and
 * returns where the next one starts; keep, meta, head: NULL, or the
 * track's record, result words and parsed header in the key cache, kept.
 * Returns hd NULL, decoding nothing, for the others (they take the general
 * path). (Values in and out rather than pointers: the loop keeps hd and at
 * in registers, as callgrind counts show.) */
static inline sw__codec_step sw__codec_fast_track(const sw_codec_track* tr, const uint8_t* hd,
                                                  uint64_t at, const sw__codec_keys* keys,
                                                  const uint8_t* bits, __m128* wacc,
                                                  uint32_t wto[4], uint32_t* wn,
                                                  sw__codec_arcs* arcs, float* of, float* keep,
                                                  uint32_t* meta, uint32_t* head) {
    const uint32_t fmt = hd[0], b12 = hd[1];
    const uint32_t rot = tr->kind == SW_TRACK_KIND_ROTATION ? 1u : 0u;
    const uint32_t b0 = sw__codec_bits[fmt & 15u];
    const uint32_t b1 = sw__codec_bits[b12 & 15u];
    const uint32_t b2 = sw__codec_bits[b12 >> 4];
    /* rotation byte (validated: 0-4 or 8-15), 3 (x y z) for the others */
    const uint32_t rb = rot ? hd[2] : 3u;
    const uint32_t per_key = rb == SW__CODEC_ROT_PER_KEY ? 1u : 0u;
    const uint32_t first = per_key << 1;
    const uint32_t kb = b0 + b1 + b2 + first;
    /* (a uniform scale track's second byte, 0xFF, counts 44 bits here: it
     * takes the general path) */
    if (kb > 28u) {
        sw__codec_step no = {NULL, at};
        return no;
    }
    const uint32_t sl = SW__CODEC_FMT_STRIDE_LOG2(fmt);
    const uint32_t drow = per_key ? 3u : rb & 3u;
    const uint32_t has = fmt >> 7;
    const uint8_t* r = hd + 2u + rot;
    uint32_t j, nk, kk;
    float u;
    const uint32_t mbytes = sw__codec_track_keys(keys, sl, r + 6u * has, &j, &u, &nk, &kk);
    const uint64_t key_at = at + (uint64_t)j * kb;
    const uint64_t va = sw__codec_load64(bits + (key_at >> 3)) >> (uint32_t)(key_at & 7u);
    const uint64_t vb = va >> kb;
    const uint32_t s1 = first + b0, s2 = s1 + b1;
    const uint32_t m0 = sw__codec_code_mask[fmt & 15u];
    const uint32_t m1 = sw__codec_code_mask[b12 & 15u];
    const uint32_t m2 = sw__codec_code_mask[b12 >> 4];
    const uint32_t qa[3] = {(uint32_t)(va >> first) & m0, (uint32_t)(va >> s1) & m1,
                            (uint32_t)(va >> s2) & m2};
    const uint32_t qb[3] = {(uint32_t)(vb >> first) & m0, (uint32_t)(vb >> s1) & m1,
                            (uint32_t)(vb >> s2) & m2};
    const uint32_t bb[3] = {b0, b1, b2};
    const sw__codec_step st = {r + 6u * has + mbytes, at + (uint64_t)nk * kb};
    const uint32_t interp = sw__codec_rot_interp(rb);
    __m128 mn, ex, lo, scale, ka, kv;
    sw__codec_key_range_sse2(tr, per_key, drow, &mn, &ex);
    sw__codec_dequant_sse2(mn, ex, r, has, bb, &lo, &scale);
    if (head)
        sw__codec_keep_head(head, sw__codec_head_info(bb, kb, sl, per_key, interp, 0u, drow),
                            mbytes ? r + 6u * has : NULL, bb, lo, scale);
    sw__codec_apply_sse2(lo, scale, qa, qb, &ka, &kv);
    sw__codec_put_keys_sse2(sw__codec_lane(tr), tr->kind, ka, kv, interp, drow,
                            per_key ? (uint32_t)va & 3u : drow, per_key ? (uint32_t)vb & 3u : drow,
                            u, sl, kk, keep, meta, wacc, wto, wn, arcs, of);
    return st;
}
#endif

/* One parsed track header of the general path. */
typedef struct sw__codec_head {
    uint32_t b[3];    /* bits per component */
    uint32_t m[3];    /* their masks */
    uint32_t rot;     /* 1 for a rotation */
    uint32_t per_key; /* 1: each key names its left-out component (2 bits first) */
    uint32_t interp;  /* SW__CODEC_INTERP_* (sw__codec_rot_interp; per-key: the arc) */
    uint32_t drow;    /* the kept components' row: the left-out one, 3 (x y z) otherwise */
    uint32_t kb;      /* bits per key */
    uint32_t sl;      /* key stride, log2 */
    uint32_t has;     /* 1: range bytes follow */
    uint32_t sh[3];   /* bit offset of each component in a key */
    const uint8_t* r; /* the range bytes (lo[3] hi[3]) */
    uint64_t rv;      /* the range bytes, or lo 0 and hi 255 */
    uint8_t ur[8];    /* a uniform track's range bytes, as three components' */
} sw__codec_head;

/* A uniform scale track (SW_CODEC_TRACK_UNIFORM) in o, parsed as one of
 * three components: component 0's bits, shift, mask and range bytes for
 * each (r then points at o->ur); returns where its range bytes end. */
static const uint8_t* sw__codec_head_uniform(sw__codec_head* o) {
    for (uint32_t c = 1; c < 3u; ++c) {
        o->b[c] = o->b[0];
        o->m[c] = o->m[0];
        o->sh[c] = 0u;
    }
    o->kb = o->b[0];
    const uint8_t* end = o->r + 2u * o->has;
    const uint64_t lo = o->has ? o->r[0] : 0u, hi = o->has ? o->r[1] : 255u;
    o->rv = (lo | lo << 8 | lo << 16) | (hi | hi << 8 | hi << 16) << 24;
    for (uint32_t i = 0; i < 8u; ++i)
        o->ur[i] = (uint8_t)(o->rv >> (8u * i));
    o->r = o->ur;
    return end;
}

/* Parses the header at hd of track tr up to its range bytes; returns
 * where they end (a key mask, or the next track's header). */
static inline const uint8_t* sw__codec_head_of(const sw_codec_track* tr, const uint8_t* hd,
                                               sw__codec_head* o) {
    const uint32_t fmt = hd[0], b12 = hd[1], rb = hd[2];
    o->rot = tr->kind == SW_TRACK_KIND_ROTATION ? 1u : 0u;
    o->b[0] = sw__codec_bits[fmt & 15u];
    o->b[1] = sw__codec_bits[b12 & 15u];
    o->b[2] = sw__codec_bits[b12 >> 4];
    o->m[0] = sw__codec_code_mask[fmt & 15u];
    o->m[1] = sw__codec_code_mask[b12 & 15u];
    o->m[2] = sw__codec_code_mask[b12 >> 4];
    o->per_key = o->rot & (rb == SW__CODEC_ROT_PER_KEY ? 1u : 0u);
    o->interp = o->rot ? sw__codec_rot_interp(rb) : SW__CODEC_INTERP_LERP;
    o->drow = o->rot && !o->per_key ? rb & 3u : 3u;
    o->kb = o->b[0] + o->b[1] + o->b[2] + (o->per_key << 1);
    o->sh[0] = o->per_key << 1;
    o->sh[1] = o->sh[0] + o->b[0];
    o->sh[2] = o->sh[1] + o->b[1];
    o->sl = SW__CODEC_FMT_STRIDE_LOG2(fmt);
    o->has = fmt >> 7;
    o->r = hd + 2u + o->rot;
    if (tr->flags) return sw__codec_head_uniform(o);
    /* 8 bytes read: headers are followed by key bits and at least 8 spare bytes */
    const uint64_t rmask = 0u - (uint64_t)o->has;
    o->rv = (sw__codec_load64(o->r) & rmask) | (~rmask & 0x0000FFFFFF000000ull);
    return o->r + 6u * o->has;
}

/* The quantized components of the two keys at bit key_at and key_at + kb,
 * and their left-out components *da, *db when each key names its own. */
static inline void sw__codec_read_keys(const uint8_t* bits, uint64_t key_at,
                                       const sw__codec_head* hp, uint32_t qa[3], uint32_t qb[3],
                                       uint32_t* da, uint32_t* db) {
    const uint32_t kb = hp->kb, first = hp->sh[0], s1 = hp->sh[1], s2 = hp->sh[2];
    const uint64_t kb_at = key_at + kb;
    if (kb <= 57u) {
        /* each key from one load; both from one when they fit */
        const uint64_t va = sw__codec_load64(bits + (key_at >> 3)) >> (uint32_t)(key_at & 7u);
        const uint64_t vb =
            kb <= 28u ? va >> kb : sw__codec_load64(bits + (kb_at >> 3)) >> (uint32_t)(kb_at & 7u);
        qa[0] = (uint32_t)(va >> first) & hp->m[0];
        qa[1] = (uint32_t)(va >> s1) & hp->m[1];
        qa[2] = (uint32_t)(va >> s2) & hp->m[2];
        qb[0] = (uint32_t)(vb >> first) & hp->m[0];
        qb[1] = (uint32_t)(vb >> s1) & hp->m[1];
        qb[2] = (uint32_t)(vb >> s2) & hp->m[2];
        if (hp->per_key) {
            *da = (uint32_t)(va & 3u);
            *db = (uint32_t)(vb & 3u);
        }
    } else {
        /* wider keys (up to 68 bits): component by component */
        qa[0] = sw__codec_read(bits, key_at + first, hp->b[0]);
        qa[1] = sw__codec_read(bits, key_at + s1, hp->b[1]);
        qa[2] = sw__codec_read(bits, key_at + s2, hp->b[2]);
        qb[0] = sw__codec_read(bits, kb_at + first, hp->b[0]);
        qb[1] = sw__codec_read(bits, kb_at + s1, hp->b[1]);
        qb[2] = sw__codec_read(bits, kb_at + s2, hp->b[2]);
        if (hp->per_key) {
            *da = sw__codec_read(bits, key_at, 2u);
            *db = sw__codec_read(bits, kb_at, 2u);
        }
    }
}

/* Both keys of a rotation followed along its arc, in halves or whole
 * (quantized qa, qb leaving out da, db) dequantized with the
 * range of its parsed header (sw__codec_parse's and sw__codec_key's
 * operations) and rebuilt into the quaternions ka, kb. */
static inline void sw__codec_arc_keys(const sw_codec_track* tr, const sw__codec_head* hp,
                                      const uint32_t qa[3], const uint32_t qb[3], uint32_t da,
                                      uint32_t db, float ka[4], float kb[4]) {
    const uint8_t* kept = sw__codec_kept[hp->drow];
    float va[3], vb[3];
    for (uint32_t c = 0; c < 3u; ++c) {
        const float mn = hp->per_key ? -1.0f : tr->min[kept[c]];
        const float ex = hp->per_key ? 2.0f : tr->extent[kept[c]];
        const float e = ex * (1.0f / 255.0f);
        const uint32_t lo8 = (uint32_t)(hp->rv >> (8u * c)) & 255u;
        const uint32_t hi8 = (uint32_t)(hp->rv >> (24u + 8u * c)) & 255u;
        const float lo = mn + (float)lo8 * e;
        const float scale = (float)(hi8 - lo8) * e * sw__codec_inv_levels[hp->b[c]];
        va[c] = lo + (float)(int32_t)qa[c] * scale;
        vb[c] = lo + (float)(int32_t)qb[c] * scale;
    }
    sw__codec_rebuild(va, da & 3u, ka);
    sw__codec_rebuild(vb, db & 3u, kb);
}

/* The rotation at u from ka to kb, along the arc (sw__codec_arc) or by
 * in one piece (interp SW__CODEC_INTERP_SHORT: sw__codec_short_arc),
 * into the four floats of lane `lane` of the pose. */
static void sw__codec_put_arc(const float ka[4], const float kb[4], float u, uint32_t interp,
                              uint32_t lane, float* of) {
    float v[4];
    if (interp == SW__CODEC_INTERP_SHORT)
        sw__codec_short_arc(ka, kb, u, v);
    else
        sw__codec_arc(ka, kb, u, v);
    for (uint32_t c = 0; c < 4u; ++c)
        of[lane + 4u * (3u + c)] = v[c];
}

/* Puts a track into entry n of the batch, its results to go to float
 * indices lane + 4 * fields[0..3] of the pose. */
static inline void sw__codec_batch_put(sw__codec_batch* batch, uint32_t dst[4][SW__CODEC_BATCH],
                                       uint32_t n, const sw_codec_track* tr,
                                       const sw__codec_head* hp, const uint32_t qa[3],
                                       const uint32_t qb[3], float u, uint32_t lane,
                                       const uint8_t* fields) {
    for (uint32_t c = 0; c < 3u; ++c) {
        batch->qa[c][n] = (int32_t)qa[c];
        batch->qb[c][n] = (int32_t)qb[c];
    }
    const uint8_t* kept = sw__codec_kept[hp->drow];
    for (uint32_t c = 0; c < 3u; ++c) {
        const int32_t lo8 = (int32_t)((hp->rv >> (8u * c)) & 255u);
        const int32_t hi8 = (int32_t)((hp->rv >> (24u + 8u * c)) & 255u);
        batch->min[c][n] = tr->min[kept[c]];
        batch->extent[c][n] = tr->extent[kept[c]];
        batch->lo8[c][n] = lo8;
        batch->span8[c][n] = hi8 - lo8;
    }
    batch->inv[0][n] = sw__codec_inv_levels[hp->b[0]];
    batch->inv[1][n] = sw__codec_inv_levels[hp->b[1]];
    batch->inv[2][n] = sw__codec_inv_levels[hp->b[2]];
    batch->u[n] = u;
    batch->rotation[n] = (int32_t)hp->rot;
    dst[0][n] = lane + 4u * fields[0];
    dst[1][n] = lane + 4u * fields[1];
    dst[2][n] = lane + 4u * fields[2];
    dst[3][n] = lane + 4u * fields[3];
}

/* Key index, fraction and key count of the strides the segment at pos
 * holds that `want` names (bit sl for stride 2^sl; 0xFF: every one), and
 * of stride 1 always (key index 0 in a segment of one sample). */
static inline void sw__codec_keys_of(sw__codec_pos pos, uint32_t L, uint32_t want,
                                     sw__codec_keys* keys) {
    keys->p = pos.p;
    keys->span = pos.span;
    keys->masks = L <= SW__CODEC_MASK_MAX_SPAN ? 1u : 0u;
    keys->j[0] = 0u;
    if (pos.span == 0u) return;
    keys->j[0] = sw__codec_key_at(pos.p, pos.span, 0u, &keys->u[0]);
    keys->n[0] = pos.span + 1u;
    const uint32_t top = sw__codec_top_bit(pos.span); /* strides 2^0 .. 2^top fit */
    const uint32_t fit = top < 7u ? (2u << top) - 1u : 0xFFu;
    for (uint32_t w = want & fit & ~1u; w; w &= w - 1u) {
        const uint32_t sl = sw__codec_low_bit(w);
        keys->j[sl] = sw__codec_key_at(pos.p, pos.span, sl, &keys->u[sl]);
        keys->n[sl] = (pos.span >> sl) + 1u;
    }
}

/* Animated tracks [a0, a1) of a segment, the first one's header at byte
 * hd of the segment's headers and its keys at bit `at`. */
typedef struct sw__codec_span {
    uint32_t a0, a1, hd;
    uint64_t at;
} sw__codec_span;

/* Decodes the animated tracks of span in the segment at pos into the pose
 * (headers parsed as the keys are read, results scattered by float index
 * into the SoA pose), those of the joints the subset keeps (NULL: all).
 * keep (SSE2 path only): NULL, or the key cache's records, filled with each
 * track's keys (a left-out track's: where it starts). */
static void sw__codec_decode(const sw__codec_view* pl, sw__codec_pos pos,
                             const sw__codec_keys* keys, sw_xform4* out, bool simd, uint32_t* keep,
                             uint32_t* heads, const uint8_t* subset, sw__codec_span span) {
    const sw_codec_header* h = pl->h;
    const uint8_t* bits;
    const uint8_t* const hd0 = sw__codec_segment(h, pos.segment, &bits);
    const uint8_t* hd = hd0 + span.hd;
    float* of = (float*)(void*)out;
    float* kf = keep ? (float*)(void*)(keep + SW__KEEP_HEAD) : NULL;
    uint32_t* meta = keep ? keep + SW__KEEP_HEAD + SW__KEEP_REC * h->animated_count : NULL;
    uint64_t at = span.at;
    sw__codec_batch batch;
    uint32_t dst[4][SW__CODEC_BATCH];
    uint32_t n = 0;
#if SINEW_HAS_SSE2
    __m128 wacc = _mm_setzero_ps();
    uint32_t wto[4], wn = 0;
    sw__codec_arcs arcs[2];
    sw__codec_queues_init(arcs, keep, h, keys, true); /* after those kept already */
#else
    (void)heads;
#endif
    for (uint32_t a = span.a0; a < span.a1; ++a) {
        const sw_codec_track* tr = &pl->tracks[a];
        if (meta) keep[4] |= 1u << SW__CODEC_FMT_STRIDE_LOG2(hd[0]); /* its stride */
        if (subset && !sw__subset_keeps(subset, tr->joint)) {        /* left out: its size only */
            if (meta) {
                const uint32_t at32 = (uint32_t)at;
                memcpy(kf + SW__KEEP_REC * a, &at32, sizeof at32);
                meta[SW__KEEP_META * a] = SW__KEEP_LATER;
                meta[SW__KEEP_META * a + 1u] = (uint32_t)(hd - hd0);
                keep[3] = 0u; /* its header not parsed */
            }
            const uint32_t fmt = hd[0], b12 = hd[1];
            const uint32_t rot = tr->kind == SW_TRACK_KIND_ROTATION ? 1u : 0u;
            const uint32_t kb =
                tr->flags ? (uint32_t)sw__codec_bits[fmt & 15u] /* uniform: one component */
                          : (uint32_t)sw__codec_bits[fmt & 15u] + sw__codec_bits[b12 & 15u] +
                                sw__codec_bits[b12 >> 4] +
                                ((rot & (hd[2] == SW__CODEC_ROT_PER_KEY ? 1u : 0u)) << 1);
            hd += 2u + rot + (tr->flags ? 2u : 6u) * (fmt >> 7);
            uint32_t j, nk, kk;
            float u;
            hd += sw__codec_track_keys(keys, SW__CODEC_FMT_STRIDE_LOG2(fmt), hd, &j, &u, &nk, &kk);
            at += (uint64_t)nk * kb;
            continue;
        }
#if SINEW_HAS_SSE2
        float* rec = kf ? kf + SW__KEEP_REC * a : NULL;
        uint32_t* m = meta ? meta + SW__KEEP_META * a : NULL;
        uint32_t* hh = heads ? heads + SW__KEEP_HEADER * a : NULL;
        if (hh) {
            hh[SW__HEAD_AT] = (uint32_t)at;
            hh[SW__HEAD_OFFSET] = (uint32_t)(hd - hd0);
            hh[SW__HEAD_PLACE] = sw__codec_lane(tr) | (uint32_t)tr->kind << 16;
        }
        if (simd) {
            const sw__codec_step st =
                sw__codec_fast_track(tr, hd, at, keys, bits, &wacc, wto, &wn, arcs, of, rec, m, hh);
            if (st.hd) {
                hd = st.hd;
                at = st.at;
                continue;
            }
        }
#endif
        sw__codec_head hp;
        hd = sw__codec_head_of(tr, hd, &hp);
        float u;
        uint32_t j, nk, kk;
        const uint32_t mbytes = sw__codec_track_keys(keys, hp.sl, hd, &j, &u, &nk, &kk);
        hd += mbytes;
        const uint64_t key_at = at + (uint64_t)j * hp.kb;
        at += (uint64_t)nk * hp.kb;
        uint32_t qa[3], qb[3], da = hp.drow, db = hp.drow;
        sw__codec_read_keys(bits, key_at, &hp, qa, qb, &da, &db);
#if SINEW_HAS_SSE2
        if (simd) {
            __m128 mn, ex, lo, scale, ka, kv;
            sw__codec_key_range_sse2(tr, hp.per_key, hp.drow, &mn, &ex);
            sw__codec_dequant_sse2(mn, ex, hp.r, hp.has, hp.b, &lo, &scale);
            if (m && hp.kb > 57u) keep[3] = 0u; /* keys too wide for sw__codec_redecode */
            if (hh && hp.kb <= 57u)
                sw__codec_keep_head(hh,
                                    sw__codec_head_info(hp.b, hp.kb, hp.sl, hp.per_key, hp.interp,
                                                        tr->flags ? 1u : 0u, hp.drow),
                                    mbytes ? hd - mbytes : NULL, hp.b, lo, scale);
            sw__codec_apply_sse2(lo, scale, qa, qb, &ka, &kv);
            sw__codec_put_keys_sse2(sw__codec_lane(tr), tr->kind, ka, kv, hp.interp, hp.drow, da,
                                    db, u, hp.sl, kk, rec, m, &wacc, wto, &wn, arcs, of);
            continue;
        }
#endif
        const uint32_t lane = sw__codec_lane(tr);
        if (hp.interp != SW__CODEC_INTERP_LERP) {
            float k[8];
            sw__codec_arc_keys(tr, &hp, qa, qb, da, db, k, k + 4);
            sw__codec_put_arc(k, k + 4, u, hp.interp, lane, of);
            continue;
        }
        /* float index of each result in the pose (a translation's or
         * scale's fourth, 0, goes to its x, written before it) */
        const uint8_t* fields = sw__codec_dst_fields[hp.rot ? 2u + da : (uint32_t)tr->kind >> 1];
        sw__codec_batch_put(&batch, dst, n, tr, &hp, qa, qb, u, lane, fields);
        if (++n == SW__CODEC_BATCH) {
            sw__codec_flush(&batch, n, dst, of, simd);
            n = 0;
        }
    }
    if (n > 0) sw__codec_flush(&batch, n, dst, of, simd);
#if SINEW_HAS_SSE2
    if (wn > 0) sw__codec_rebuild4(wacc, wto, wn, of);
    sw__codec_queues_flush(arcs, keep, of);
#endif
}

#if SINEW_HAS_SSE2
/* One animated track decoded from its parsed header hh (in the key cache)
 * at keys, its keys read from bits: the operations of sw__codec_fast_track
 * and of the general path, so the same bits; its record rec and meta m
 * kept as they keep them (its arcs queued on arcs[0..1], as there). */
static inline void sw__codec_redecode_track(uint32_t* m, const uint32_t* hh, float* rec,
                                            const sw__codec_keys* keys, const uint8_t* bits,
                                            __m128* wacc, uint32_t wto[4], uint32_t* wn,
                                            sw__codec_arcs* arcs, float* of) {
    const uint32_t info = hh[SW__HEAD_INFO];
    const uint32_t sl = info & 7u, per_key = (info >> 3) & 1u, drow = (info >> 5) & 3u;
    const uint32_t kb = (info >> 7) & 127u;
    uint32_t j, nk, kk;
    float u;
    (void)sw__codec_track_keys(keys, sl, (const uint8_t*)(const void*)(hh + SW__HEAD_MASK), &j, &u,
                               &nk, &kk);
    if (kk) { /* a key mask's interval moves at its own keys: kept until then */
        uint32_t to[4];
        if (m[0] == SW__KEEP_MASKED && sw__codec_masked_to(m[1], m[2], to) == kk) {
            sw__codec_kept_lerp(rec, u, to, wacc, wto, wn, of);
            return;
        }
    }
    const uint64_t key_at = (uint64_t)hh[SW__HEAD_AT] + (uint64_t)j * kb, b_at = key_at + kb;
    const uint64_t va = sw__codec_load64(bits + (key_at >> 3)) >> (uint32_t)(key_at & 7u);
    const __m128 lo = _mm_loadu_ps((const float*)(const void*)(hh + SW__HEAD_LO));
    const __m128 scale = _mm_loadu_ps((const float*)(const void*)(hh + SW__HEAD_SCALE));
    uint64_t vb;
    __m128 ka, kv;
    if (kb <= 28u) {
        vb = va >> kb;
        const __m128i fields = _mm_loadu_si128((const __m128i*)(const void*)(hh + SW__HEAD_FIELDS));
        const __m128 unit = _mm_loadu_ps((const float*)(const void*)(hh + SW__HEAD_UNIT));
        ka = _mm_add_ps(lo, _mm_mul_ps(sw__codec_codes_sse2((uint32_t)va, fields, unit), scale));
        kv = _mm_add_ps(lo, _mm_mul_ps(sw__codec_codes_sse2((uint32_t)vb, fields, unit), scale));
    } else {
        vb = sw__codec_load64(bits + (b_at >> 3)) >> (uint32_t)(b_at & 7u);
        const uint32_t s0 = (info >> 14) & 3u, s1 = (info >> 16) & 127u, s2 = (info >> 23) & 127u;
        const uint32_t m0 = hh[SW__HEAD_CODES], m1 = hh[SW__HEAD_CODES + 1u],
                       m2 = hh[SW__HEAD_CODES + 2u];
        const uint32_t qa[3] = {(uint32_t)(va >> s0) & m0, (uint32_t)(va >> s1) & m1,
                                (uint32_t)(va >> s2) & m2};
        const uint32_t qb[3] = {(uint32_t)(vb >> s0) & m0, (uint32_t)(vb >> s1) & m1,
                                (uint32_t)(vb >> s2) & m2};
        sw__codec_apply_sse2(lo, scale, qa, qb, &ka, &kv);
    }
    sw__codec_put_keys_sse2(hh[SW__HEAD_PLACE] & 0xFFFFu, hh[SW__HEAD_PLACE] >> 16, ka, kv,
                            info >> 30, drow, per_key ? (uint32_t)va & 3u : drow,
                            per_key ? (uint32_t)vb & 3u : drow, u, sl, kk, rec, m, wacc, wto, wn,
                            arcs, of);
}

/* The animated tracks the subset keeps (NULL: all) decoded at pos from the
 * key cache's parsed headers (word 3 set: every track's kept for this
 * segment), and kept; a track the subset leaves out is marked to be
 * decoded when wanted (SW__KEEP_LATER). Not inlined: its arc queue inlined
 * in sw__codec_sample cost the call from the cache 46 instructions (its
 * registers spilled), about 5 ns on Walking. */
SW__NEVER_INLINE void sw__codec_redecode(const sw__codec_view* pl, sw__codec_pos pos,
                                         const sw__codec_keys* keys, uint32_t* keep,
                                         const uint32_t* heads, sw_xform4* out,
                                         const uint8_t* subset) {
    const uint32_t count = pl->h->animated_count;
    const uint8_t* bits;
    (void)sw__codec_segment(pl->h, pos.segment, &bits);
    float* kf = (float*)(void*)(keep + SW__KEEP_HEAD);
    uint32_t* meta = keep + SW__KEEP_HEAD + SW__KEEP_REC * count;
    float* of = (float*)(void*)out;
    __m128 wacc = _mm_setzero_ps();
    uint32_t wto[4], wn = 0;
    sw__codec_arcs arcs[2];
    sw__codec_queues_init(arcs, keep, pl->h, keys, false);
    const sw_codec_track* tr = pl->tracks;
    uint32_t* m = meta;
    const uint32_t* hh = heads;
    for (float* rec = kf; rec != kf + SW__KEEP_REC * count;
         rec += SW__KEEP_REC, m += SW__KEEP_META, hh += SW__KEEP_HEADER, ++tr) {
        if (subset && !sw__subset_keeps(subset, tr->joint)) {
            memcpy(rec, &hh[SW__HEAD_AT], sizeof(uint32_t));
            m[0] = SW__KEEP_LATER;
            m[1] = hh[SW__HEAD_OFFSET];
            continue;
        }
        sw__codec_redecode_track(m, hh, rec, keys, bits, &wacc, wto, &wn, arcs, of);
    }
    if (wn > 0) sw__codec_rebuild4(wacc, wto, wn, of);
    sw__codec_queues_flush(arcs, keep, of);
}

/* Lists the constant slots of every joint in list (room for SW__KEEP_LIST
 * per constant record); returns their count + 1, or 0 when there are more
 * (a record named by several slots). */
static uint32_t sw__codec_list_constants(const sw__codec_view* pl, uint32_t joints,
                                         uint32_t* list) {
    const uint32_t slots_count = 3u * joints;
    const uint32_t cap = SW__KEEP_LIST * pl->h->constants_count;
    uint32_t n = 0;
    for (uint32_t s0 = 0; s0 < slots_count; s0 += 4u) {
        const uint32_t mask = sw__codec_constants_at(pl->slots, slots_count, s0);
        for (uint32_t k = 0; k < 4u; ++k) {
            if (!((mask >> k) & 1u)) continue;
            if (n == cap) return 0u;
            list[n++] = s0 + k;
        }
    }
    return n + 1u;
}

/* The rotations of the group of kept arcs g at position p (one per lane
 * of out[0..3]): sw__codec_arc4_at's operations on the arcs
 * sw__codec_arcs_group prepared, so its bits (the fractions as the
 * decoder's; each half's ends chosen by bits: m ^ ((a ^ m) & first) is a
 * where first is set, else m). */
static inline void sw__codec_kept_arc4(const float* g, float p, __m128 out[4]) {
    const __m128 uu = _mm_mul_ps(_mm_sub_ps(_mm_set1_ps(p), _mm_load_ps(g + SW__ARC_KA)),
                                 _mm_load_ps(g + SW__ARC_INV));
    const __m128 first = _mm_cmplt_ps(uu, _mm_set1_ps(0.5f));
    /* 2u - 0 is 2u, bit for bit */
    const __m128 t =
        _mm_sub_ps(_mm_mul_ps(_mm_set1_ps(2.0f), uu), _mm_andnot_ps(first, _mm_set1_ps(1.0f)));
    __m128 p0[4], p1[4];
    for (uint32_t c = 0; c < 4u; ++c) {
        const __m128 m = _mm_load_ps(g + 4u * c);
        p0[c] = _mm_xor_ps(m, _mm_and_ps(first, _mm_load_ps(g + SW__ARC_XA + 4u * c)));
        p1[c] = _mm_xor_ps(m, _mm_andnot_ps(first, _mm_load_ps(g + SW__ARC_XB + 4u * c)));
    }
    const __m128 pc[3] = {_mm_load_ps(g + SW__ARC_P), _mm_load_ps(g + SW__ARC_P + 4u),
                          _mm_load_ps(g + SW__ARC_P + 8u)};
    sw__codec_arc4_on_half(p0, p1, t, pc, out);
}

/* The short arcs of the group of kept ones g at position p (one per lane
 * of out[0..3]): sw__codec_short4_at on the arcs sw__codec_arcs_group
 * prepared (the fractions as the decoder's), so its bits. */
static inline void sw__codec_kept_short4(const float* g, float p, __m128 out[4]) {
    const __m128 uu = _mm_mul_ps(_mm_sub_ps(_mm_set1_ps(p), _mm_load_ps(g + SW__ARC_KA)),
                                 _mm_load_ps(g + SW__ARC_INV));
    const __m128 a[4] = {_mm_load_ps(g + SW__ARC_XA), _mm_load_ps(g + SW__ARC_XA + 4u),
                         _mm_load_ps(g + SW__ARC_XA + 8u), _mm_load_ps(g + SW__ARC_XA + 12u)};
    const __m128 d[4] = {_mm_load_ps(g + SW__ARC_XB), _mm_load_ps(g + SW__ARC_XB + 4u),
                         _mm_load_ps(g + SW__ARC_XB + 8u), _mm_load_ps(g + SW__ARC_XB + 12u)};
    sw__codec_short4_at(a, d, _mm_load_ps(g + SW__ARC_P), uu, out);
}

/* Kept rotations 0..count-1 of the key cache's groups (group k at groups +
 * k * step floats) at position p into their lanes of the pose, those of
 * the joints the subset keeps (NULL: all), four at a time: arcs, or
 * short arcs when short_arc. */
SW__ALWAYS_INLINE void sw__codec_kept_arcs(const float* groups, ptrdiff_t step, uint32_t count,
                                           float p, const uint8_t* subset, float* of,
                                           bool short_arc) {
    const float* g = groups;
    for (uint32_t s = 0; s < count; s += 4u, g += step) {
        const uint32_t* lanes = (const uint32_t*)(const void*)(g + SW__ARC_LANE);
        const uint32_t n = count - s < 4u ? count - s : 4u;
        __m128 out[4];
        if (short_arc)
            sw__codec_kept_short4(g, p, out);
        else
            sw__codec_kept_arc4(g, p, out);
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t lane = lanes[i];
            if (subset && !sw__subset_keeps(subset, sw__codec_lane_joint(lane))) continue;
            sw__codec_put_rotation(out[i], lane, of);
        }
    }
}

/* Every animated track the subset keeps (NULL: all) from the key cache
 * (each stride's key interval unchanged since the keys were kept): a +
 * (b - a) * u per track, the decoder's operations on the decoder's keys, so
 * the same bits; a track left out when the keys were kept is decoded (and
 * kept) now. */
static void sw__codec_from_keep(const sw__codec_view* pl, sw__codec_pos pos,
                                const sw__codec_keys* keys, uint32_t* keep, sw_xform4* out,
                                const uint8_t* subset) {
    const uint32_t count = pl->h->animated_count;
    const float* kf = (const float*)(const void*)(keep + SW__KEEP_HEAD);
    const uint32_t* meta = keep + SW__KEEP_HEAD + SW__KEEP_REC * count;
    float* of = (float*)(void*)out;
    __m128 wacc = _mm_setzero_ps();
    uint32_t wto[4], wn = 0;
    const uint32_t* mt = meta;
    const float* rec = kf;
    for (uint32_t a = 0; a < count; ++a, mt += SW__KEEP_META, rec += SW__KEEP_REC) {
        if (subset && !sw__subset_keeps(subset, pl->tracks[a].joint)) continue;
        const uint32_t m0 = mt[0], m1 = mt[1];
        uint32_t to[4];
        float u;
        if (m0 == SW__KEEP_ARC) continue; /* the most common kind: below, 4 at a time */
        if (m0 < SW__KEEP_MASKED) {
            to[0] = m0 & 0xFFFFu;
            to[1] = m0 >> 16;
            to[2] = m1 & 0xFFFFu;
            to[3] = (m1 >> 16) & 0x1FFFu;
            u = keys->u[m1 >> 29];
        } else if (m0 == SW__KEEP_MASKED) {
            const uint32_t kk = sw__codec_masked_to(m1, mt[2], to);
            u = sw__codec_mask_u(pos.p, kk & 255u, kk >> 8);
        } else {
            uint32_t at;
            memcpy(&at, rec, sizeof at);
            const sw__codec_span one = {a, a + 1u, m1, at};
            /* its header kept only where the cache keeps its own (word 3) */
            sw__codec_decode(pl, pos, keys, out, true, keep,
                             keep[3] == 1u ? sw__codec_keep_heads(keep, pl->h) : NULL, NULL, one);
            continue;
        }
        sw__codec_kept_lerp(rec, u, to, &wacc, wto, &wn, of);
    }
    if (wn > 0) sw__codec_rebuild4(wacc, wto, wn, of);
    /* each kind with its finish known here (a loop over the two kept it a
     * branch per group) */
    ptrdiff_t step;
    const float* arcs = sw__codec_keep_kind(keep, pl->h, 0u, &step);
    sw__codec_kept_arcs(arcs, step, keep[5], pos.p, subset, of, false);
    const float* shorts = sw__codec_keep_kind(keep, pl->h, 1u, &step);
    sw__codec_kept_arcs(shorts, step, keep[6], pos.p, subset, of, true);
}
#endif

/* The sampler behind sw__codec_quantized_sample_subset and _kept: rest pose
 * and constants, then the animated tracks from the cache when it holds
 * this segment's keys at these key indices, else decoded (and kept). */
static void sw__codec_sample(const sw_clip* clip, const sw_skeleton* skel, float t, sw_xform4* out,
                             bool simd, uint32_t* keep, const uint32_t* table, bool fresh,
                             const uint8_t* subset) {
    const sw__codec_view pl = sw__codec_view_of(clip);
    const sw_codec_header* h = pl.h;
#if SINEW_HAS_SSE2
    if (keep && simd) {
        uint32_t* list = keep + sw__codec_keep_list_at(h);
        if (fresh) keep[2] = sw__codec_list_constants(&pl, clip->joints_count, list);
        sw__codec_put_static(&pl, clip, skel, subset, out, list, keep[2]);
    } else {
        sw__codec_put_static(&pl, clip, skel, subset, out, NULL, 0u);
    }
#else
    sw__codec_put_static(&pl, clip, skel, subset, out, NULL, 0u);
#endif
    if (h->animated_count == 0) return;
    const sw__codec_pos pos = sw__codec_pos_of(h, t);
    sw__codec_keys keys;
    const sw__codec_span all = {0u, h->animated_count, 0u, 0u};
#if SINEW_HAS_SSE2
    if (keep && simd) {
        /* in the segment it holds, the cache names the strides its tracks use */
        const bool same = !fresh && keep[0] == pos.segment + 1u;
        sw__codec_keys_of(pos, h->segment_samples, same ? keep[4] : 0xFFu, &keys);
        /* the stride-1 key index fixes every stride's in a segment */
        const uint32_t j0 = keys.j[0];
        /* the segment's parsed headers: the shared table's, else the cache's */
        const uint32_t* shared = table ? table + sw__codec_table_heads_at(h, pos.segment) : NULL;
        if (same) {
            if (keep[1] == j0) {
                sw__codec_from_keep(&pl, pos, &keys, keep, out, subset);
                return;
            }
            /* other keys of the segment whose headers are kept: word 3 is 1
             * for the cache's own, 2 for the table's (a cache switched
             * between the two decodes afresh) */
            if (keep[3] == (shared ? 2u : 1u)) {
                sw__codec_redecode(&pl, pos, &keys, keep,
                                   shared ? shared : sw__codec_keep_heads(keep, h), out, subset);
                keep[1] = j0;
                return;
            }
        }
        keep[3] = 1u; /* until a track's header is not parsed */
        keep[4] = 1u; /* stride 1, then each track's */
        keep[5] = 0u; /* no arc kept yet */
        keep[6] = 0u; /* nor short arc */
        sw__codec_decode(&pl, pos, &keys, out, simd, keep,
                         shared ? NULL : sw__codec_keep_heads(keep, h), subset, all);
        if (shared) keep[3] = table[SW__TABLE_FLAGS + pos.segment] ? 2u : 0u;
        keep[0] = pos.segment + 1u;
        keep[1] = j0;
        return;
    }
#else
    (void)keep;
    (void)table;
    (void)fresh;
#endif
    sw__codec_keys_of(pos, h->segment_samples, 0xFFu, &keys);
    sw__codec_decode(&pl, pos, &keys, out, simd, NULL, NULL, subset, all);
}

void sw__codec_quantized_sample_subset(const sw_clip* clip, const sw_skeleton* skel, float t,
                                       const uint8_t* subset, sw_xform4* out, bool simd) {
    sw__codec_sample(clip, skel, t, out, simd, NULL, NULL, false, subset);
}

#if SINEW_HAS_SSE2
/* Whether the decoder keeps clip's keys (h its header): it has animated
 * tracks and a pose of at most SW__KEEP_MAX_FLOATS floats. */
static inline bool sw__codec_keeps(const sw_clip* clip, const sw_codec_header* h) {
    const uint32_t packets = (clip->joints_count + 3u) / 4u;
    return h->animated_count != 0 && (uint64_t)packets * 40u <= SW__KEEP_MAX_FLOATS;
}
#endif

uint32_t sw__codec_quantized_keep_words(const sw_clip* clip) {
#if SINEW_HAS_SSE2
    const sw_codec_header* h = sw_clip_codec_header(clip);
    if (!sw__codec_keeps(clip, h)) return 0;
    return sw__codec_keep_shared_words(h) + SW__KEEP_HEADER * h->animated_count;
#else
    (void)clip;
    return 0;
#endif
}

uint32_t sw__codec_quantized_keep_words_shared(const sw_clip* clip) {
#if SINEW_HAS_SSE2
    const sw_codec_header* h = sw_clip_codec_header(clip);
    return sw__codec_keeps(clip, h) ? sw__codec_keep_shared_words(h) : 0u;
#else
    (void)clip;
    return 0;
#endif
}

void sw__codec_quantized_sample_kept(const sw_clip* clip, const sw_skeleton* skel, float t,
                                     const uint8_t* subset, sw_xform4* out, uint32_t* keep,
                                     const uint32_t* table, bool fresh) {
    sw__codec_sample(clip, skel, t, out, true, keep, table, fresh, subset);
}

uint32_t sw__codec_quantized_table_words(const sw_clip* clip) {
    const uint32_t keep = sw__codec_quantized_keep_words_shared(clip);
    if (keep == 0) return 0;
    const sw_codec_header* h = sw_clip_codec_header(clip);
    const uint32_t packets = (clip->joints_count + 3u) / 4u;
    const uint64_t all =
        sw__codec_table_heads_at(h, h->segments_count) + ((keep + 3u) & ~3u) + 40ull * packets;
    return all <= UINT32_MAX ? (uint32_t)all : 0u;
}

void sw__codec_quantized_table_fill(const sw_clip* clip, uint32_t* table) {
#if SINEW_HAS_SSE2
    const sw__codec_view pl = sw__codec_view_of(clip);
    const sw_codec_header* h = pl.h;
    const uint32_t keep_words = sw__codec_quantized_keep_words_shared(clip);
    const uint64_t at = (uint64_t)(uintptr_t)clip;
    const uint32_t head[SW__TABLE_HEAD] = {SW__TABLE_MAGIC,
                                           (uint32_t)clip->size,
                                           h->animated_count,
                                           h->segments_count,
                                           (uint32_t)at,
                                           (uint32_t)(at >> 32),
                                           sw__codec_quantized_table_words(clip)};
    memcpy(table, head, sizeof head);
    /* each segment decoded once from its first sample into the scratch,
     * its headers parsed into the table as a key cache would keep them */
    uint32_t* keep = table + sw__codec_table_heads_at(h, h->segments_count);
    sw_xform4* pose = (sw_xform4*)(void*)(keep + ((keep_words + 3u) & ~3u));
    const sw__codec_span all = {0u, h->animated_count, 0u, 0u};
    for (uint32_t s = 0; s < h->segments_count; ++s) {
        const uint32_t first = s * h->segment_samples, rest = h->samples_count - 1u - first;
        const sw__codec_pos pos = {s, rest < h->segment_samples ? rest : h->segment_samples, 0.0f};
        sw__codec_keys keys;
        sw__codec_keys_of(pos, h->segment_samples, 0xFFu, &keys);
        keep[3] = 1u;
        keep[4] = 1u;
        keep[5] = 0u;
        keep[6] = 0u;
        sw__codec_decode(&pl, pos, &keys, pose, true, keep, table + sw__codec_table_heads_at(h, s),
                         NULL, all);
        table[SW__TABLE_FLAGS + s] = keep[3];
    }
#else
    (void)clip;
    (void)table;
#endif
}

sw_xform sw__codec_quantized_sample_joint(const sw_clip* clip, const sw_skeleton* skel,
                                          uint32_t joint, float t) {
    const sw__codec_view pl = sw__codec_view_of(clip);
    const bool additive = (clip->flags & SW_CLIP_FLAG_ADDITIVE) != 0u;
    sw_xform x = sw_pose_get(sw_skeleton_rest_pose(skel), joint);
    if (additive) x = sw_xform_identity();
    /* translation, rotation, scale: 4 floats each (the fourth of t and s unused) */
    float v[3][4] = {
        {x.t.x, x.t.y, x.t.z, 0.0f}, {x.r.x, x.r.y, x.r.z, x.r.w}, {x.s.x, x.s.y, x.s.z, 0.0f}};
    uint32_t want[3], last = 0;
    bool animated = false;
    for (uint32_t k = 0; k < 3u; ++k) {
        const uint32_t s = pl.slots[3u * joint + k];
        want[k] = SW_CODEC_SLOT_DEFAULT;
        if (s == SW_CODEC_SLOT_DEFAULT) continue;
        if (s & SW_CODEC_SLOT_CONSTANT) {
            if (k == 2u)
                sw__codec_scale_constant(pl.constants, s, v[k]);
            else
                memcpy(v[k], pl.constants + 4u * (size_t)(s & ~SW_CODEC_SLOT_CONSTANT),
                       sizeof(float) * (k == 1u ? 4u : 3u));
            continue;
        }
        want[k] = s;
        last = s > last ? s : last;
        animated = true;
    }
    if (animated) {
        /* Track data in a segment is variable-length and in track order: the
         * headers of the tracks before this joint's are parsed (no key is
         * decoded) to find where its keys start; its own keys are decoded
         * with the scalar decoder's operations (the SSE2 path gives the same
         * bits). */
        const sw__codec_pos pos = sw__codec_pos_of(pl.h, t);
        const uint8_t* bits;
        const uint8_t* hd = sw__codec_segment(pl.h, pos.segment, &bits);
        uint64_t at = 0;
        for (uint32_t a = 0; a <= last; ++a) {
            sw__codec_seg_track ts;
            const uint32_t L = pl.h->segment_samples;
            const uint8_t* next = sw__codec_parse_header(&pl.tracks[a], L, hd, &ts);
            for (uint32_t k = 0; k < 3u; ++k) {
                if (want[k] != a) continue;
                sw__codec_parse(&pl.tracks[a], L, hd, &ts);
                float u, ka[3], kb[3];
                uint32_t da, db;
                const uint32_t j = sw__codec_track_key(&ts, pos.p, pos.span, &u);
                sw__codec_keys2(bits, at, j, &ts, ka, kb, &da, &db);
                sw__codec_interp(ka, kb, u, k == 1u, ts.interp, da, db, v[k]);
            }
            at += (uint64_t)sw__codec_keys_count(&ts, pos.span) * ts.key_bits;
            hd = next;
        }
    }
    x.t = sw_vec3_make(v[0][0], v[0][1], v[0][2]);
    x.r = sw_quat_make(v[1][0], v[1][1], v[1][2], v[1][3]);
    x.s = sw_vec3_make(v[2][0], v[2][1], v[2][2]);
    return x;
}

/* ---- extent ---------------------------------------------------------------- */

/* Raises e over every key of every animated track in segment `seg` (span
 * sample intervals). Rotation keys count their three stored components
 * (the fourth is rebuilt to make them unit, or 0 past the unit ball; a
 * per-key pair leaving out different components is normalized). */
static void sw__codec_segment_extent(const sw__codec_view* pl, uint32_t seg, uint32_t span,
                                     sw__joint_extent* e) {
    const uint8_t* bits;
    const uint8_t* hd = sw__codec_segment(pl->h, seg, &bits);
    uint64_t at = 0;
    for (uint32_t a = 0; a < pl->h->animated_count; ++a) {
        const sw_codec_track* tr = &pl->tracks[a];
        sw__codec_seg_track ts;
        hd = sw__codec_parse(tr, pl->h->segment_samples, hd, &ts);
        const uint32_t keys = sw__codec_keys_count(&ts, span);
        for (uint32_t k = 0; k < keys; ++k) {
            float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            uint32_t dropped;
            sw__codec_key(bits, at, k, &ts, v, &dropped);
            sw__joint_extent_raise(&e[tr->joint], (uint32_t)tr->kind - 1u, v);
        }
        at += (uint64_t)keys * ts.key_bits;
    }
}

void sw__codec_quantized_extent(const sw_clip* c, sw__joint_extent* e) {
    const sw__codec_view pl = sw__codec_view_of(c);
    const sw_codec_header* h = pl.h;
    for (uint32_t s = 0; s < 3u * c->joints_count; ++s) {
        const uint32_t v = pl.slots[s];
        if (v == SW_CODEC_SLOT_DEFAULT) continue;
        sw__joint_extent* x = &e[s / 3u];
        /* the slot's own values replace the rest value */
        if (s % 3u == 0u) x->move = 0.0;
        if (s % 3u == 1u) x->turn = 1.0;
        if (s % 3u == 2u) x->scale = 0.0;
        if ((v & SW_CODEC_SLOT_CONSTANT) && s % 3u == 2u) {
            float sv[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            sw__codec_scale_constant(pl.constants, v, sv);
            sw__joint_extent_raise(x, 2u, sv);
        } else if (v & SW_CODEC_SLOT_CONSTANT) {
            sw__joint_extent_raise(x, s % 3u,
                                   pl.constants + 4u * (size_t)(v & ~SW_CODEC_SLOT_CONSTANT));
        }
    }
    const uint32_t L = h->segment_samples;
    for (uint32_t seg = 0; seg < h->segments_count; ++seg) {
        const uint32_t rest = h->samples_count - 1u - seg * L;
        sw__codec_segment_extent(&pl, seg, rest < L ? rest : L, e);
    }
}
