/* Mirror data (twins, plane, per-joint corrections) and the mirror job. */
#include "sinew/retarget/mirror.h"

#include <string.h>

#include "runtime/core/internal.h"

#define SW__MIRROR_MAX_CANDIDATES 8u

/* ---- names ---- */

static char sw__lower(char c) {
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}
static bool sw__is_upper(char c) {
    return c >= 'A' && c <= 'Z';
}
static bool sw__is_lower_or_digit(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
static bool sw__is_sep(char c) {
    return c == '_' || c == '.' || c == '-' || c == ' ' || c == ':' || c == '|';
}

/* "left" or "right" (any case) at s? Returns its length or 0. */
static size_t sw__side_word(const char* s) {
    static const char* const words[2] = {"left", "right"};
    for (int w = 0; w < 2; ++w) {
        size_t n = strlen(words[w]);
        size_t i = 0;
        while (i < n && sw__lower(s[i]) == words[w][i])
            ++i;
        if (i == n) return n;
    }
    return 0;
}

/* A single L/R letter standing as a token at name[i]. */
static bool sw__side_letter(const char* name, size_t i) {
    const char c = name[i];
    if (sw__lower(c) != 'l' && sw__lower(c) != 'r') return false;
    const bool prev = i == 0 || sw__is_sep(name[i - 1]) ||
                      (sw__is_upper(c) && sw__is_lower_or_digit(name[i - 1]));
    const char n = name[i + 1];
    const bool next = n == '\0' || sw__is_sep(n) || sw__is_upper(n);
    /* "LHand" needs the letter to be a prefix or follow a separator; a
     * trailing "UpperArmL" needs the end or a separator after it. */
    if (!prev || !next) return false;
    if (sw__is_upper(n) && !(i == 0 || sw__is_sep(name[i - 1]))) return false;
    if (sw__is_upper(n) && !sw__is_upper(c)) return false;
    return true;
}

bool sw_mirror_swap_name(const char* name, uint32_t index, char* out, size_t cap) {
    if (!name || !out || cap == 0) return false;
    const size_t len = strlen(name);
    uint32_t seen = 0;
    /* Pass 0: words; pass 1: single letters. */
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < len; ++i) {
            size_t n = pass == 0 ? sw__side_word(name + i) : (sw__side_letter(name, i) ? 1u : 0u);
            if (n == 0) continue;
            if (seen++ != index) {
                if (pass == 0) i += n - 1;
                continue;
            }
            const bool left = sw__lower(name[i]) == 'l';
            const char* rep;
            if (pass == 0) {
                const bool up0 = sw__is_upper(name[i]);
                const bool up1 = sw__is_upper(name[i + 1]);
                rep = left ? (up0 ? (up1 ? "RIGHT" : "Right") : "right")
                           : (up0 ? (up1 ? "LEFT" : "Left") : "left");
            } else {
                rep = left ? (sw__is_upper(name[i]) ? "R" : "r")
                           : (sw__is_upper(name[i]) ? "L" : "l");
            }
            const size_t rn = strlen(rep);
            const size_t total = len - n + rn;
            if (total + 1 > cap) return false;
            memmove(out, name, i);
            memcpy(out + i, rep, rn);
            memcpy(out + i + rn, name + i + n, len - i - n);
            out[total] = '\0';
            return true;
        }
    }
    return false;
}

static int32_t sw__find_joint_nocase(const sw_skeleton* s, const char* name) {
    int32_t exact = sw_skeleton_find_joint(s, name);
    if (exact >= 0) return exact;
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const char* a = sw_skeleton_joint_name(s, j);
        size_t i = 0;
        while (a[i] && sw__lower(a[i]) == sw__lower(name[i]))
            ++i;
        if (a[i] == '\0' && name[i] == '\0') return (int32_t)j;
    }
    return -1;
}

/* ---- quaternion reflection ---- */

static sw_quat sw__reflect_quat(sw_quat q, uint32_t axis) {
    switch (axis) {
    case SW_MIRROR_AXIS_Y:
        return sw_quat_make(-q.x, q.y, -q.z, q.w);
    case SW_MIRROR_AXIS_Z:
        return sw_quat_make(-q.x, -q.y, q.z, q.w);
    default:
        return sw_quat_make(q.x, -q.y, -q.z, q.w);
    }
}
static sw_vec3 sw__reflect_vec(sw_vec3 v, uint32_t axis) {
    switch (axis) {
    case SW_MIRROR_AXIS_Y:
        return sw_vec3_make(v.x, -v.y, v.z);
    case SW_MIRROR_AXIS_Z:
        return sw_vec3_make(v.x, v.y, -v.z);
    default:
        return sw_vec3_make(-v.x, v.y, v.z);
    }
}

/* ---- layout ---- */

#define SW__MIRROR_HEADER 48u

static size_t sw__mirror_size(uint32_t joints) {
    return (size_t)sw__align16(SW__MIRROR_HEADER + (uint64_t)joints * 64u + (uint64_t)joints * 2u);
}

size_t sw_mirror_measure(const sw_mirror_desc* desc) {
    if (!desc || !desc->skeleton) return 0;
    const uint32_t jc = desc->skeleton->joints_count;
    if (jc == 0 || jc > SW_SKELETON_MAX_JOINTS) return 0;
    return sw__mirror_size(jc);
}

static sw_quat* sw__mq(const sw_mirror* m, uint32_t offset) {
    return (sw_quat*)(void*)((char*)(uintptr_t)m + offset);
}

/* The arguments of sw_mirror_init checked (before anything is written). */
static sw_result sw__mirror_check(void* mem, size_t size, const sw_mirror_desc* desc,
                                  const sw_mirror** out, sw_error* err) {
    if (!mem || !desc || !desc->skeleton || !out || (desc->pairs_count && !desc->pairs)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if ((uint32_t)desc->axis > (uint32_t)SW_MIRROR_AXIS_Z) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "known axis", 0, -1);
    }
    const sw_skeleton* skel = desc->skeleton;
    const uint32_t jc = skel->joints_count;
    if (jc == 0 || jc > SW_SKELETON_MAX_JOINTS) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "skeleton joints in 1..max", 0, -1);
    }
    if (desc->frames && desc->frames_count < jc) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "frames_count >= joints", 0, -1);
    }
    for (uint32_t j = 0; desc->frames && j < jc; ++j) {
        sw_xform x;
        bool finite = true;
        for (int i = 0; i < 16; ++i)
            finite = finite && isfinite(desc->frames[j].m[i]);
        if (!finite || !sw_mat4_decompose(&desc->frames[j], &x)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "frame finite with nonzero columns", 0,
                            (int64_t)j);
        }
    }
    if (!sw__aligned16(mem))
        return sw__fail(err, SW_RESULT_MISALIGNED, "mem 16-byte aligned", 0, -1);
    if (size < sw__mirror_size(jc))
        return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "size >= measure", 0, -1);
    for (uint32_t p = 0; p < desc->pairs_count; ++p) {
        if (!desc->pairs[p].a || !desc->pairs[p].b) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "pair names not NULL", 0, (int64_t)p);
        }
        if (sw_skeleton_find_joint(skel, desc->pairs[p].a) < 0 ||
            sw_skeleton_find_joint(skel, desc->pairs[p].b) < 0) {
            return sw__fail(err, SW_RESULT_NOT_FOUND, "pair names joints", 0, (int64_t)p);
        }
    }
    return SW_RESULT_OK;
}

/* Twins from the pairs given (fixed[] marks their joints) and, unless
 * no_patterns, from names (cand[]: scratch, one per joint). */
static sw_result sw__mirror_pairs(const sw_mirror_desc* desc, uint16_t* twins, uint16_t* cand,
                                  uint8_t* fixed, sw_error* err) {
    const sw_skeleton* skel = desc->skeleton;
    const uint32_t jc = skel->joints_count;
    for (uint32_t j = 0; j < jc; ++j)
        twins[j] = (uint16_t)j;
    for (uint32_t p = 0; p < desc->pairs_count; ++p) {
        const uint32_t a = (uint32_t)sw_skeleton_find_joint(skel, desc->pairs[p].a);
        const uint32_t b = (uint32_t)sw_skeleton_find_joint(skel, desc->pairs[p].b);
        if (fixed[a] || fixed[b])
            return sw__fail(err, SW_RESULT_BAD_DATA, "joint in one pair", 0, (int64_t)p);
        fixed[a] = fixed[b] = 1;
        twins[a] = (uint16_t)b;
        twins[b] = (uint16_t)a;
    }
    if (desc->no_patterns) return SW_RESULT_OK;
    char buf[SW_SKELETON_MAX_NAME + 8];
    for (uint32_t j = 0; j < jc; ++j) {
        cand[j] = (uint16_t)j;
        if (fixed[j]) continue;
        for (uint32_t c = 0; c < SW__MIRROR_MAX_CANDIDATES; ++c) {
            if (!sw_mirror_swap_name(sw_skeleton_joint_name(skel, j), c, buf, sizeof buf)) break;
            const int32_t k = sw__find_joint_nocase(skel, buf);
            if (k >= 0 && (uint32_t)k != j) {
                cand[j] = (uint16_t)k;
                break;
            }
        }
    }
    for (uint32_t j = 0; j < jc; ++j) {
        const uint32_t k = cand[j];
        if (k != j && !fixed[j] && !fixed[k] && cand[k] == j) {
            twins[j] = (uint16_t)k;
            twins[k] = (uint16_t)j;
        }
    }
    return SW_RESULT_OK;
}

/* The hierarchy must be symmetric: parent(twin(j)) == twin(parent(j)).
 * Pairs found from names that break it are dropped (their joints mirror
 * onto themselves), which may drop their children's pairs in turn; a
 * given pair that breaks it fails. *pairs_count: the pairs kept. */
static sw_result sw__mirror_symmetric(const sw_skeleton* skel, uint16_t* twins,
                                      const uint8_t* fixed, uint32_t* pairs_count, sw_error* err) {
    const uint32_t jc = skel->joints_count;
    const int16_t* parents = sw_skeleton_parents(skel);
    for (bool dropped = true; dropped;) {
        dropped = false;
        for (uint32_t j = 0; j < jc; ++j) {
            const uint32_t k = twins[j];
            if (k == j || (fixed[j] && fixed[k])) continue;
            const int32_t p = parents[j];
            const int32_t pk = parents[k];
            if ((p < 0 && pk < 0) || (p >= 0 && pk >= 0 && twins[p] == (uint32_t)pk)) continue;
            twins[j] = (uint16_t)j;
            twins[k] = (uint16_t)k;
            dropped = true;
        }
    }
    uint32_t pairs = 0;
    for (uint32_t j = 0; j < jc; ++j) {
        const int32_t p = parents[j];
        const int32_t pk = parents[twins[j]];
        const bool ok = (p < 0 && pk < 0) || (p >= 0 && pk >= 0 && twins[p] == (uint32_t)pk);
        if (!ok) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "twin of parent is parent of twin", 0,
                            (int64_t)j);
        }
        if (twins[j] > j) ++pairs;
    }
    *pairs_count = pairs;
    return SW_RESULT_OK;
}

/* Rest model space (uniform-scale composition): rest_rot[j], rest_pos[4 j]
 * and each joint's scale in scale[j] (scratch). */
static void sw__mirror_rest_model(const sw_skeleton* skel, sw_quat* rest_rot, float* rest_pos,
                                  sw_quat* scale) {
    const int16_t* parents = sw_skeleton_parents(skel);
    const sw_xform4* rest = sw_skeleton_rest_pose(skel);
    for (uint32_t j = 0; j < skel->joints_count; ++j) {
        const sw_xform x = sw_pose_get(rest, j);
        const int32_t p = parents[j];
        sw_vec3 pos = x.t;
        sw_quat rot = x.r;
        sw_vec3 s = x.s;
        if (p >= 0) {
            const sw_vec3 pp =
                sw_vec3_make(rest_pos[4 * p], rest_pos[4 * p + 1], rest_pos[4 * p + 2]);
            const sw_vec3 ps = *(sw_vec3*)(void*)&scale[p];
            pos = sw_vec3_add(pp, sw_quat_rotate(rest_rot[p], sw_vec3_mul(ps, x.t)));
            rot = sw_quat_normalize(sw_quat_mul(rest_rot[p], x.r));
            s = sw_vec3_mul(ps, x.s);
        }
        rest_rot[j] = rot;
        rest_pos[4 * j] = pos.x;
        rest_pos[4 * j + 1] = pos.y;
        rest_pos[4 * j + 2] = pos.z;
        rest_pos[4 * j + 3] = 0.0f;
        *(sw_vec3*)(void*)&scale[j] = s;
    }
}

/* The axis asked for, or (default) the model axis along which the twins'
 * rest positions differ most. */
static uint32_t sw__mirror_axis(sw_mirror_axis asked, uint32_t jc, const uint16_t* twins,
                                const float* rest_pos) {
    uint32_t axis = (uint32_t)asked;
    if (axis != SW_MIRROR_AXIS_DEFAULT) return axis;
    double sum[3] = {0.0, 0.0, 0.0};
    for (uint32_t j = 0; j < jc; ++j) {
        const uint32_t k = twins[j];
        if (k <= j) continue;
        for (int a = 0; a < 3; ++a)
            sum[a] +=
                fabs((double)rest_pos[4 * j + (uint32_t)a] - (double)rest_pos[4 * k + (uint32_t)a]);
    }
    axis = SW_MIRROR_AXIS_X;
    if (sum[1] > sum[0] && sum[1] >= sum[2])
        axis = SW_MIRROR_AXIS_Y;
    else if (sum[2] > sum[0] && sum[2] > sum[1])
        axis = SW_MIRROR_AXIS_Z;
    return axis;
}

sw_result sw_mirror_init(void* mem, size_t size, const sw_mirror_desc* desc, const sw_mirror** out,
                         sw_error* err) {
    sw_result r = sw__mirror_check(mem, size, desc, out, err);
    if (r != SW_RESULT_OK) return r;
    const sw_skeleton* skel = desc->skeleton;
    const uint32_t jc = skel->joints_count;
    const size_t need = sw__mirror_size(jc);

    memset(mem, 0, need);
    sw_mirror* m = (sw_mirror*)mem;
    m->size = (uint32_t)need;
    m->joints_count = jc;
    m->packets_count = (jc + 3u) / 4u;
    m->pre_offset = SW__MIRROR_HEADER;
    m->post_offset = SW__MIRROR_HEADER + 16u * jc;
    m->rest_model_offset = SW__MIRROR_HEADER + 32u * jc;
    m->twins_offset = SW__MIRROR_HEADER + 64u * jc;
    uint16_t* twins = (uint16_t*)(void*)((char*)mem + m->twins_offset);
    sw_quat* pre = sw__mq(m, m->pre_offset);
    sw_quat* post = sw__mq(m, m->post_offset);
    sw_quat* rest_rot = sw__mq(m, m->rest_model_offset);
    float* rest_pos = (float*)(void*)(rest_rot + jc); /* float[4] per joint */
    /* Scratch in the pre/post arrays until they are filled at the end. */
    uint16_t* cand = (uint16_t*)(void*)pre;
    uint8_t* fixed = (uint8_t*)(void*)post;

    r = sw__mirror_pairs(desc, twins, cand, fixed, err);
    if (r == SW_RESULT_OK) r = sw__mirror_symmetric(skel, twins, fixed, &m->pairs_count, err);
    if (r != SW_RESULT_OK) {
        memset(mem, 0, need);
        return r;
    }
    sw__mirror_rest_model(skel, rest_rot, rest_pos, pre);
    const uint32_t axis = sw__mirror_axis(desc->axis, jc, twins, rest_pos);
    m->axis = axis;

    /* Reference rotations: the frames given replace the rest rotations
     * (rest_model keeps the reference actually used). */
    for (uint32_t j = 0; desc->frames && j < jc; ++j) {
        sw_xform x;
        (void)sw_mat4_decompose(&desc->frames[j], &x);
        rest_rot[j] = sw_quat_normalize(x.r);
    }
    /* D_j = conj(reflect(refQ_j)) * refQ_twin(j), kept in post[j] first. */
    for (uint32_t j = 0; j < jc; ++j) {
        post[j] = sw_quat_normalize(sw_quat_mul(
            sw_quat_conjugate(sw__reflect_quat(rest_rot[j], axis)), rest_rot[twins[j]]));
    }
    /* pre_k = conj(D_parent(twin(k))), identity for roots. */
    const int16_t* parents = sw_skeleton_parents(skel);
    for (uint32_t k = 0; k < jc; ++k) {
        const int32_t p = parents[twins[k]];
        pre[k] = p < 0 ? sw_quat_identity() : sw_quat_conjugate(post[p]);
    }
    /* post_k = D_twin(k): swap the pairs. */
    for (uint32_t j = 0; j < jc; ++j) {
        const uint32_t k = twins[j];
        if (k > j) {
            const sw_quat t = post[j];
            post[j] = post[k];
            post[k] = t;
        }
    }
    *out = m;
    return SW_RESULT_OK;
}

sw_result sw_mirror_create(const sw_mirror_desc* desc, const sw_allocator* alloc,
                           const sw_mirror** out, sw_error* err) {
    if (!desc || !desc->skeleton || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    const size_t n = sw_mirror_measure(desc);
    if (n == 0)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "skeleton joints in 1..max", 0, -1);
    void* mem = sw_alloc(alloc, n, 16);
    if (!mem) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    sw_result r = sw_mirror_init(mem, n, desc, out, err);
    if (r != SW_RESULT_OK) sw_free(alloc, mem, n);
    return r;
}

void sw_mirror_destroy(const sw_mirror* m, const sw_allocator* alloc) {
    if (!m) return;
    sw_free(alloc, (void*)(uintptr_t)m, m->size);
}

/* Linear in x.t and x.r (no normalization), so the offline bake can map
 * cubic tangents with it too. */
sw_xform sw_mirror_xform(const sw_mirror* m, uint32_t k, sw_xform in) {
    const sw_quat pre = sw__mq(m, m->pre_offset)[k];
    const sw_quat post = sw__mq(m, m->post_offset)[k];
    sw_xform o;
    o.r = sw_quat_mul(sw_quat_mul(pre, sw__reflect_quat(in.r, m->axis)), post);
    o.t = sw_quat_rotate(pre, sw__reflect_vec(in.t, m->axis));
    o.s = in.s;
    return o;
}

sw_result sw_mirror_job_validate(const sw_mirror_job* job) {
    if (!job || !job->mirror || !job->in || !job->out) return SW_RESULT_INVALID_ARGUMENT;
    const sw_mirror* m = job->mirror;
    if (m->joints_count == 0 || m->joints_count > SW_SKELETON_MAX_JOINTS ||
        m->packets_count != (m->joints_count + 3u) / 4u) {
        return SW_RESULT_INVALID_ARGUMENT;
    }
    if (job->in_count < m->packets_count || job->out_count < m->packets_count) {
        return SW_RESULT_BUFFER_TOO_SMALL;
    }
    if (!sw__aligned16(job->in) || !sw__aligned16(job->out)) return SW_RESULT_MISALIGNED;
    const size_t bytes = (size_t)m->packets_count * sizeof(sw_xform4);
    if (sw__overlaps(job->out, bytes, job->in, bytes) ||
        sw__overlaps(job->out, bytes, m, m->size)) {
        return SW_RESULT_OVERLAP;
    }
    return SW_RESULT_OK;
}

sw_result sw_mirror_job_run(const sw_mirror_job* job) {
    const sw_result r = sw_mirror_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    const sw_mirror* m = job->mirror;
    const uint16_t* twins = (const uint16_t*)(const void*)((const char*)m + m->twins_offset);
    const sw_quat* pre = sw__mq(m, m->pre_offset);
    const sw_quat* post = sw__mq(m, m->post_offset);
    const uint32_t axis = m->axis;
    /* Sign of each reflected component: the one along the normal keeps its
     * sign in a rotation and flips in a translation. */
    const float qs[3] = {axis == SW_MIRROR_AXIS_X ? 1.0f : -1.0f,
                         axis == SW_MIRROR_AXIS_Y ? 1.0f : -1.0f,
                         axis == SW_MIRROR_AXIS_Z ? 1.0f : -1.0f};
    const float ts[3] = {-qs[0], -qs[1], -qs[2]};
    sw_xform4_identity(&job->out[m->packets_count - 1u]);
    for (uint32_t k = 0; k < m->joints_count; ++k) {
        const uint32_t j = twins[k];
        const sw_xform4* a = &job->in[j >> 2];
        const uint32_t la = j & 3u;
        sw_xform4* o = &job->out[k >> 2];
        const uint32_t lo = k & 3u;
        const sw_quat q =
            sw_quat_make(qs[0] * a->rx[la], qs[1] * a->ry[la], qs[2] * a->rz[la], a->rw[la]);
        const sw_vec3 t = sw_vec3_make(ts[0] * a->tx[la], ts[1] * a->ty[la], ts[2] * a->tz[la]);
        const sw_quat rq = sw_quat_mul(sw_quat_mul(pre[k], q), post[k]);
        const sw_vec3 rt = sw_quat_rotate(pre[k], t);
        o->tx[lo] = rt.x;
        o->ty[lo] = rt.y;
        o->tz[lo] = rt.z;
        o->rx[lo] = rq.x;
        o->ry[lo] = rq.y;
        o->rz[lo] = rq.z;
        o->rw[lo] = rq.w;
        o->sx[lo] = a->sx[la];
        o->sy[lo] = a->sy[la];
        o->sz[lo] = a->sz[la];
    }
    return SW_RESULT_OK;
}
