/* The frames codec: payload validation and the sampler behind the sampling
 * job (layout: sinew/codecs/codec.h). */
#include <string.h>

#include "codec_frames.h"

uint32_t sw__frames_count(float duration, float rate) {
    if (!(isfinite(rate) && rate > 0.0f) || !(isfinite(duration) && duration >= 0.0f))
        return SW_CLIP_MAX_KEYS + 1u;
    double n = ceil((double)duration * (double)rate - 1e-3) + 1.0;
    if (n < 2.0) n = 2.0;
    if (n > (double)SW_CLIP_MAX_KEYS) return SW_CLIP_MAX_KEYS + 1u;
    return (uint32_t)n;
}

sw__frames_pos sw__frames_locate(uint32_t frames_count, float rate, float duration, float t) {
    sw__frames_pos p = {0u, 0.0f};
    if (!(t > 0.0f)) return p;
    if (t > duration) t = duration;
    const uint32_t last = frames_count - 2u; /* last interval */
    const float f = t * rate;
    uint32_t i = f >= (float)last ? last : (uint32_t)f;
    /* Settle on the float frame times, as the raw sampler settles on key
     * times: a time exactly at a frame lands on that frame with u = 0. */
    if (i < last && (float)(i + 1u) / rate <= t) ++i;
    if (i > 0u && (float)i / rate > t) --i;
    const float t0 = (float)i / rate;
    float t1 = (float)(i + 1u) / rate;
    if (t1 > duration) t1 = duration;
    p.i = i;
    if (!(t > t0) || !(t1 > t0)) return p;
    const float u = (t - t0) / (t1 - t0);
    p.u = u < 1.0f ? u : 1.0f;
    return p;
}

/* ---- validation ------------------------------------------------------------ */

#define SW__FRAMES_FIELD(q, field) ((uint64_t)(q) + offsetof(sw_frames_header, field))

/* Checks the lanes of one stored packet: joint lanes finite with unit
 * rotations (within 1e-3, as raw keys), padding lanes identity, and, when
 * prev is given, rotations on the hemisphere of prev's. Returns NULL or the
 * failed check. */
static const char* sw__frames_check_packet(const sw_xform4* p, const sw_xform4* prev,
                                           uint32_t joint_lanes) {
    const float* v = (const float*)(const void*)p;
    for (uint32_t l = 0; l < joint_lanes; ++l) {
        for (uint32_t k = 0; k < 10u; ++k) {
            if (!isfinite(v[4u * k + l])) return "frames values finite";
        }
        const double x = p->rx[l], y = p->ry[l], z = p->rz[l], w = p->rw[l];
        const double len = sqrt(x * x + y * y + z * z + w * w);
        if (!(fabs(len - 1.0) <= 1e-3)) return "frames rotations unit";
        if (prev) {
            const double d = x * prev->rx[l] + y * prev->ry[l] + z * prev->rz[l] + w * prev->rw[l];
            if (!(d >= 0.0)) return "frames rotations on one hemisphere";
        }
    }
    for (uint32_t l = joint_lanes; l < 4u; ++l) {
        if (p->tx[l] != 0.0f || p->ty[l] != 0.0f || p->tz[l] != 0.0f || p->rx[l] != 0.0f ||
            p->ry[l] != 0.0f || p->rz[l] != 0.0f || p->rw[l] != 1.0f || p->sx[l] != 1.0f ||
            p->sy[l] != 1.0f || p->sz[l] != 1.0f)
            return "frames padding lanes identity";
    }
    return NULL;
}

static uint32_t sw__frames_joint_lanes(uint32_t joints, uint32_t packet) {
    const uint32_t first = 4u * packet;
    return joints - first >= 4u ? 4u : joints - first;
}

/* The runs of a frames payload (header h at clip offset q, its layout
 * checked): consecutive packets from 0 to P, sources counting up per kind,
 * every stored packet used. */
static sw_result sw__frames_check_runs(const sw_frames_header* h, uint32_t q, sw_error* err) {
    const uint8_t* base = (const uint8_t*)h;
    const uint32_t P = h->packets_count, A = h->animated_count, C = h->constants_count;
    const sw_frames_run* runs = (const sw_frames_run*)(const void*)(base + h->runs_offset);
    uint32_t next = 0, next_c = 0, next_a = 0;
    for (uint32_t r = 0; r < h->runs_count; ++r) {
        const sw_frames_run* run = &runs[r];
        const uint64_t at = (uint64_t)q + h->runs_offset + sizeof(sw_frames_run) * (uint64_t)r;
        if (run->first != next || run->count == 0 || run->count > P - next) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "frames runs cover the packets in order", at,
                            (int64_t)r);
        }
        uint32_t* counter;
        if (run->kind == SW_FRAMES_RUN_CONSTANT) {
            counter = &next_c;
        } else if (run->kind == SW_FRAMES_RUN_ANIMATED) {
            counter = &next_a;
        } else {
            return sw__fail(err, SW_RESULT_BAD_DATA, "frames run kind", at, (int64_t)r);
        }
        if (run->source != *counter) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "frames run sources in order", at, (int64_t)r);
        }
        *counter += run->count;
        next += run->count;
    }
    if (next != P) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames runs cover the packets in order",
                        SW__FRAMES_FIELD(q, runs_count), -1);
    }
    if (next_c != C || next_a != A) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames runs use every stored packet",
                        SW__FRAMES_FIELD(q, animated_count), -1);
    }

    return SW_RESULT_OK;
}

/* The stored packets of a frames payload whose runs are checked: every
 * value the sampler reads (J joints). */
static sw_result sw__frames_check_stored(const sw_frames_header* h, uint32_t q, uint32_t J,
                                         sw_error* err) {
    const uint8_t* base = (const uint8_t*)h;
    const uint32_t F = h->frames_count, A = h->animated_count;
    const sw_frames_run* runs = (const sw_frames_run*)(const void*)(base + h->runs_offset);
    const sw_xform4* constants = (const sw_xform4*)(const void*)(base + h->constants_offset);
    const sw_xform4* frames = (const sw_xform4*)(const void*)(base + h->frames_offset);
    for (uint32_t r = 0; r < h->runs_count; ++r) {
        const sw_frames_run* run = &runs[r];
        for (uint32_t k = 0; k < run->count; ++k) {
            const uint32_t lanes = sw__frames_joint_lanes(J, run->first + k);
            const uint32_t s = run->source + k;
            if (run->kind == SW_FRAMES_RUN_CONSTANT) {
                const char* check = sw__frames_check_packet(&constants[s], NULL, lanes);
                if (check) {
                    return sw__fail(err, SW_RESULT_BAD_DATA, check,
                                    (uint64_t)q + h->constants_offset + sizeof(sw_xform4) * s,
                                    (int64_t)(run->first + k));
                }
            } else if (run->kind == SW_FRAMES_RUN_ANIMATED) {
                for (uint32_t i = 0; i < F; ++i) {
                    const uint64_t at = (uint64_t)i * A + s;
                    const char* check =
                        sw__frames_check_packet(&frames[at], i > 0 ? &frames[at - A] : NULL, lanes);
                    if (check) {
                        return sw__fail(err, SW_RESULT_BAD_DATA, check,
                                        (uint64_t)q + h->frames_offset + sizeof(sw_xform4) * at,
                                        (int64_t)i);
                    }
                }
            }
        }
    }
    return SW_RESULT_OK;
}

sw_result sw__codec_frames_check(const sw_clip* c, sw_error* err) {
    const uint32_t q = sw_clip_codec_offset(c);
    const uint32_t J = c->joints_count;
    if (q < c->joint_tracks_offset || q > c->size ||
        (uint64_t)(c->size - q) < sizeof(sw_frames_header)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames header in bounds", q, -1);
    }
    const sw_frames_header* h = sw_clip_frames_header(c);
    const uint32_t size = h->size;
    if (size < sizeof(sw_frames_header) || (size & 15u) != 0 || size > c->size - q) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames size in bounds", SW__FRAMES_FIELD(q, size),
                        -1);
    }
    for (uint32_t i = 0; i < 6u; ++i) {
        if (h->reserved[i] != 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "frames reserved zero",
                            SW__FRAMES_FIELD(q, reserved) + 4u * i, (int64_t)i);
        }
    }
    if (!(isfinite(h->rate) && h->rate > 0.0f && h->rate <= SW__FRAMES_MAX_RATE)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames rate in (0, 1000]",
                        SW__FRAMES_FIELD(q, rate), -1);
    }
    const uint32_t F = h->frames_count;
    if (F != sw__frames_count(c->duration, h->rate)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames count matches duration and rate",
                        SW__FRAMES_FIELD(q, frames_count), -1);
    }
    const uint32_t P = (J + 3u) / 4u;
    if (h->packets_count != P) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames packets count matches joints",
                        SW__FRAMES_FIELD(q, packets_count), -1);
    }
    const uint32_t A = h->animated_count, C = h->constants_count;
    if (A > P || C != P - A) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames animated + constant packets = packets",
                        SW__FRAMES_FIELD(q, animated_count), -1);
    }
    if (h->runs_count == 0 || h->runs_count > P) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames runs count in [1, packets]",
                        SW__FRAMES_FIELD(q, runs_count), -1);
    }
    /* One layout: runs after the header, constants 16-byte aligned after
     * them, frames after the constants, the payload ending with the frames
     * (counts are bounded above, so the sums fit in 64 bits). */
    const uint64_t runs_off = sizeof(sw_frames_header);
    const uint64_t const_off =
        sw__align16(runs_off + sizeof(sw_frames_run) * (uint64_t)h->runs_count);
    const uint64_t frames_off = const_off + sizeof(sw_xform4) * (uint64_t)C;
    const uint64_t end = frames_off + sizeof(sw_xform4) * (uint64_t)F * A;
    if (h->runs_offset != runs_off) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames runs after the header",
                        SW__FRAMES_FIELD(q, runs_offset), -1);
    }
    if (h->constants_offset != const_off) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames constants after the runs, aligned",
                        SW__FRAMES_FIELD(q, constants_offset), -1);
    }
    if (h->frames_offset != frames_off) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames data after the constants",
                        SW__FRAMES_FIELD(q, frames_offset), -1);
    }
    if (end != size) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "frames size matches the data",
                        SW__FRAMES_FIELD(q, size), -1);
    }

    sw_result r = sw__frames_check_runs(h, q, err);
    if (r == SW_RESULT_OK) r = sw__frames_check_stored(h, q, J, err);
    return r;
}

/* ---- sampling ---------------------------------------------------------------- */

void sw__codec_frames_sample_with(const sw_clip* clip, float t, sw_xform4* out,
                                  const sw__soa_ops* ops) {
    sw__codec_frames_sample_keep(clip, t, NULL, out, ops);
}

void sw__codec_frames_sample_keep(const sw_clip* clip, float t, const uint8_t* keep, sw_xform4* out,
                                  const sw__soa_ops* ops) {
    uint32_t end = sw_clip_frames_header(clip)->packets_count;
    const uint32_t first = keep ? sw__subset_span(keep, 0, end, &end) : 0u;
    sw__codec_frames_sample_span(clip, t, first, end, out, ops);
}

void sw__codec_frames_sample_span(const sw_clip* clip, float t, uint32_t first, uint32_t end,
                                  sw_xform4* out, const sw__soa_ops* ops) {
    const sw_frames_header* h = sw_clip_frames_header(clip);
    const uint8_t* base = (const uint8_t*)h;
    const sw_frames_run* runs = (const sw_frames_run*)(const void*)(base + h->runs_offset);
    const sw_xform4* constants = (const sw_xform4*)(const void*)(base + h->constants_offset);
    const uint32_t A = h->animated_count;
    const sw__frames_pos pos = sw__frames_locate(h->frames_count, h->rate, clip->duration, t);
    const sw_xform4* f0 =
        (const sw_xform4*)(const void*)(base + h->frames_offset) + (size_t)pos.i * A;
    const sw_xform4* f1 = f0 + A;
    if (!ops) ops = sw__soa_best();
    /* one kernel call or copy per run over its part of the span: the runs
     * past it (a detail-major order's left-out tail) are not looked at */
    for (uint32_t r = 0; r < h->runs_count && runs[r].first < end; ++r) {
        const sw_frames_run* run = &runs[r];
        const uint32_t p = run->first > first ? run->first : first;
        const uint32_t e = run->first + run->count < end ? run->first + run->count : end;
        if (p >= e) continue;
        const uint32_t src = run->source + (p - run->first);
        if (run->kind == SW_FRAMES_RUN_ANIMATED)
            ops->interp(f0 + src, f1 + src, pos.u, out + p, e - p);
        else
            memcpy(out + p, constants + src, sizeof(sw_xform4) * (e - p));
    }
}

void sw__codec_frames_sample(const sw_clip* clip, float t, sw_xform4* out) {
    sw__codec_frames_sample_with(clip, t, out, NULL);
}

sw_xform sw__codec_frames_sample_joint(const sw_clip* clip, uint32_t joint, float t,
                                       const sw__soa_ops* ops) {
    const sw_frames_header* h = sw_clip_frames_header(clip);
    const uint8_t* base = (const uint8_t*)h;
    const sw_frames_run* runs = (const sw_frames_run*)(const void*)(base + h->runs_offset);
    const uint32_t p = joint >> 2;
    uint32_t r = 0;
    while (r + 1u < h->runs_count && runs[r + 1u].first <= p)
        ++r;
    const uint32_t src = runs[r].source + (p - runs[r].first);
    sw_xform4 x;
    if (runs[r].kind == SW_FRAMES_RUN_ANIMATED) {
        /* the job's two frames and kernel, on this packet alone */
        const uint32_t A = h->animated_count;
        const sw__frames_pos pos = sw__frames_locate(h->frames_count, h->rate, clip->duration, t);
        const sw_xform4* f0 =
            (const sw_xform4*)(const void*)(base + h->frames_offset) + (size_t)pos.i * A + src;
        if (!ops) ops = sw__soa_best();
        ops->interp(f0, f0 + A, pos.u, &x, 1u);
    } else {
        x = ((const sw_xform4*)(const void*)(base + h->constants_offset))[src];
    }
    return sw_xform4_get(&x, joint & 3u);
}

/* ---- extent ---------------------------------------------------------------- */

/* Raises e over the joint lanes of packet p (packet index `packet`). */
static void sw__frames_packet_extent(const sw_xform4* p, uint32_t packet, uint32_t lanes,
                                     sw__joint_extent* e) {
    for (uint32_t l = 0; l < lanes; ++l) {
        const float t[3] = {p->tx[l], p->ty[l], p->tz[l]};
        const float r[4] = {p->rx[l], p->ry[l], p->rz[l], p->rw[l]};
        const float s[3] = {p->sx[l], p->sy[l], p->sz[l]};
        sw__joint_extent* x = &e[4u * packet + l];
        sw__joint_extent_raise(x, 0u, t);
        sw__joint_extent_raise(x, 1u, r);
        sw__joint_extent_raise(x, 2u, s);
    }
}

void sw__codec_frames_extent(const sw_clip* clip, sw__joint_extent* e) {
    const sw_frames_header* h = sw_clip_frames_header(clip);
    const uint8_t* base = (const uint8_t*)h;
    const sw_frames_run* runs = (const sw_frames_run*)(const void*)(base + h->runs_offset);
    const sw_xform4* constants = (const sw_xform4*)(const void*)(base + h->constants_offset);
    const sw_xform4* frames = (const sw_xform4*)(const void*)(base + h->frames_offset);
    const uint32_t J = clip->joints_count, A = h->animated_count;
    for (uint32_t j = 0; j < J; ++j)
        e[j] = (sw__joint_extent){0.0, 0.0, 1.0};
    for (uint32_t r = 0; r < h->runs_count; ++r) {
        const sw_frames_run* run = &runs[r];
        for (uint32_t k = 0; k < run->count; ++k) {
            const uint32_t packet = run->first + k, lanes = sw__frames_joint_lanes(J, packet);
            if (run->kind == SW_FRAMES_RUN_CONSTANT) {
                sw__frames_packet_extent(&constants[run->source + k], packet, lanes, e);
                continue;
            }
            for (uint32_t i = 0; i < h->frames_count; ++i)
                sw__frames_packet_extent(&frames[(size_t)i * A + run->source + k], packet, lanes,
                                         e);
        }
    }
}
