/* Joint subsets (joint LOD): building, counting, checking, and the rest
 * fill the jobs apply to the joints a subset leaves out. */
#include <string.h>

#include "internal.h"
#if SINEW_HAS_SSE2
#include <emmintrin.h>
#endif

uint32_t sw_joint_subset_from_detail(const sw_skeleton* s, const uint8_t* detail, uint32_t cut,
                                     uint8_t* keep, uint32_t keep_count) {
    if (!s || !detail || !keep || keep_count < s->packets_count) return 0;
    const int16_t* parents = sw_skeleton_parents(s);
    memset(keep, 0, s->packets_count);
    uint32_t kept = 0;
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const int16_t p = parents[j];
        const bool parent_kept = p < 0 || sw__subset_keeps(keep, (uint32_t)p);
        if (parent_kept && (cut == 0 || detail[j] < cut)) {
            keep[j >> 2] = (uint8_t)(keep[j >> 2] | (1u << (j & 3u)));
            ++kept;
        }
    }
    return kept;
}

uint32_t sw_joint_subset_count(const sw_skeleton* s, const uint8_t* keep) {
    if (!s || !keep) return 0;
    uint32_t n = 0;
    for (uint32_t j = 0; j < s->joints_count; ++j)
        n += sw__subset_keeps(keep, j) ? 1u : 0u;
    return n;
}

bool sw_joint_subset_closed(const sw_skeleton* s, const uint8_t* keep) {
    if (!s) return false;
    if (!keep) return true;
    const int16_t* parents = sw_skeleton_parents(s);
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        if (parents[j] >= 0 && sw__subset_keeps(keep, j) &&
            !sw__subset_keeps(keep, (uint32_t)parents[j])) {
            return false;
        }
    }
    return true;
}

/* The lowest lane set in m (1 to 15): a table of 2 bits per m. */
static uint32_t sw__subset_low_lane(uint32_t m) {
    return (0x12131210u >> (2u * m)) & 3u;
}

void sw__subset_fill_packet(uint32_t k, const sw_xform4* rest, sw_xform4* out) {
#if SINEW_HAS_SSE2
    if ((k & (k - 1u)) == 0u) {
        /* one lane kept: a lane select per array costs less than the
         * stores of three lanes (callgrind) */
        float* o = (float*)(void*)out;
        const float* r = (const float*)(const void*)rest;
        const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
        const __m128 in =
            _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int32_t)k), bit), bit));
        for (uint32_t f = 0; f < 10u; ++f) { /* the 10 arrays of 4 lanes */
            const __m128 v = _mm_or_ps(_mm_and_ps(in, _mm_load_ps(o + 4u * f)),
                                       _mm_andnot_ps(in, _mm_load_ps(r + 4u * f)));
            _mm_store_ps(o + 4u * f, v);
        }
        return;
    }
#endif
    for (uint32_t m = ~k & 15u; m != 0u; m &= m - 1u) /* each left-out lane */
        sw__subset_copy_lane(rest, out, sw__subset_low_lane(m));
}

/* rest's packets [p, q) into out's */
static void sw__subset_copy(const sw_xform4* rest, sw_xform4* out, uint32_t p, uint32_t q) {
    if (q - p < 4u) { /* inline copies cost less than a call */
        for (uint32_t i = p; i < q; ++i)
            out[i] = rest[i];
    } else {
        memcpy(&out[p], &rest[p], sizeof(sw_xform4) * (q - p));
    }
}

void sw__subset_fill_rest(const uint8_t* keep, const sw_xform4* rest, sw_xform4* out,
                          uint32_t packets) {
    for (uint32_t p = 0; p < packets;) {
        const uint32_t k = keep[p] & 15u;
        uint32_t q = p + 1u;
        if (k == 0u) {
            /* a run without a kept joint (as a detail-major joint order
             * leaves at the end) in one copy */
            while (q < packets && (keep[q] & 15u) == 0u)
                ++q;
            sw__subset_copy(rest, out, p, q);
        } else if (k != 15u) {
            sw__subset_fill_packet(k, &rest[p], &out[p]);
        }
        p = q;
    }
}

sw__subset sw__subset_of(const uint8_t* keep, uint32_t packets) {
    sw__subset s = {.keep = keep,
                    .first = 0,
                    .end = packets,
                    .prefix = 4u * packets,
                    .mixed = packets,
                    .mixed_keep = 15u,
                    .mixed_lane = 4u};
    if (!keep) return s;
    s.first = sw__subset_span(keep, 0, packets, &s.end);
    uint32_t p = 0;
    while (p < packets && (keep[p] & 15u) == 15u)
        ++p;
    s.prefix = 4u * p; /* then the kept lanes below the packet's first left out */
    for (uint32_t k = p < packets ? keep[p] : 0u; k & 1u; k >>= 1)
        ++s.prefix;
    s.mixed = p > s.first ? p : s.first; /* the packets below p are whole */
    s.mixed_keep = s.mixed < s.end ? keep[s.mixed] & 15u : 15u;
    const uint32_t m = ~s.mixed_keep & 15u; /* its left-out lanes */
    if (s.mixed + 1u == s.end && m != 0u && (m & (m - 1u)) == 0u)
        s.mixed_lane = sw__subset_low_lane(m);
    return s;
}
