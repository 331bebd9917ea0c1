/* Retargeting maps: roles, spine chains, equal and fuzzy names, map files. */
#include "sinew/tools/builders/retarget_map.h"
#include "retarget_internal.h"
#include "shared/fail.h"
#include "tools/readers/names.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Copies at most cap - 1 bytes of src and a NUL. */
static void sw__rt_copy(char* dst, size_t cap, const char* src) {
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* Normalised name with the side as a leading mark, for passes 3 and 4. */
static void sw__rt_key(const char* name, char* out) {
    char norm[SW__RT_NAME];
    const sw__rt_side side = sw__rt_normalize(name, norm);
    out[0] = side == SW__RT_SIDE_LEFT ? '<' : side == SW__RT_SIDE_RIGHT ? '>' : 0;
    sw__rt_copy(out + (out[0] ? 1 : 0), SW__RT_NAME - 1, norm);
}

/* Passes 1 and 2: the roles, then the spines by position along the chain. */
static void sw__rt_map_roles(sw_retarget_joint_map* m, bool* used) {
    for (int b = 1; b < SW_RETARGET_BONE_COUNT; ++b) {
        const int32_t s = m->source_bones[b], t = m->target_bones[b];
        if (s < 0 || t < 0 || used[s] || m->source_of[t] >= 0) continue;
        m->source_of[t] = s;
        used[s] = true;
    }
    int32_t ss[SW_SKELETON_MAX_JOINTS], ts[SW_SKELETON_MAX_JOINTS];
    const uint32_t ssn = sw__rt_spine(m->source, m->source_bones, ss);
    const uint32_t tsn = sw__rt_spine(m->target, m->target_bones, ts);
    for (uint32_t i = 0; ssn > 0 && i < tsn; ++i) {
        const uint32_t k =
            tsn == 1 ? ssn - 1 : (uint32_t)((i * (ssn - 1) * 2 + (tsn - 1)) / (2 * (tsn - 1)));
        if (m->source_of[ts[i]] >= 0) continue;
        m->source_of[ts[i]] = ss[k];
        used[ss[k]] = true;
    }
}

/* Passes 3 and 4 for target joint t: the free source joint of the same kind
 * (skeleton joint or not) with the equal key (fuzzy: both skeleton joints,
 * the nearest key, no tie, distance at most a quarter of the longer key). */
static int32_t sw__rt_by_name(const sw_retarget_joint_map* m, uint32_t t, bool fuzzy,
                              const char (*skeys)[SW__RT_NAME / 4], const uint8_t* smask,
                              const uint8_t* tmask, const bool* used) {
    char full[SW__RT_NAME], tkey[SW__RT_NAME / 4];
    sw__rt_key(sw_skeleton_joint_name(m->target, t), full);
    sw__rt_copy(tkey, sizeof tkey, full);
    const bool tjoint = !tmask || tmask[t];
    if (fuzzy && !tjoint) return -1;
    int32_t best = -1;
    uint32_t best_d = UINT32_MAX;
    bool tie = false;
    for (uint32_t s = 0; s < m->source->joints_count; ++s) {
        if (used[s] || (!smask || smask[s]) != tjoint) continue;
        const uint32_t d = fuzzy ? sw__name_distance(skeys[s], tkey)
                                 : (strcmp(skeys[s], tkey) == 0 ? 0u : UINT32_MAX);
        if (d < best_d) {
            best_d = d;
            best = (int32_t)s;
            tie = false;
        } else if (d == best_d) {
            tie = true;
        }
    }
    if (best < 0 || best_d == UINT32_MAX) return -1;
    const size_t len = strlen(tkey) > strlen(skeys[best]) ? strlen(tkey) : strlen(skeys[best]);
    if (fuzzy && (tie || (size_t)best_d * 4 > len)) return -1;
    return best;
}

sw_result sw_retarget_joint_map_auto_masked(const sw_skeleton* source, const uint8_t* source_joints,
                                            const sw_skeleton* target, const uint8_t* target_joints,
                                            sw_retarget_joint_map* out) {
    if (!source || !target || !out) return SW_RESULT_INVALID_ARGUMENT;
    out->source = source;
    out->target = target;
    bool used[SW_SKELETON_MAX_JOINTS];
    for (uint32_t j = 0; j < SW_SKELETON_MAX_JOINTS; ++j) {
        out->source_of[j] = -1;
        used[j] = false;
    }
    sw__rt_roles(source, source_joints, out->source_bones);
    sw__rt_roles(target, target_joints, out->target_bones);
    sw__rt_map_roles(out, used);
    char skeys[SW_SKELETON_MAX_JOINTS][SW__RT_NAME / 4];
    for (uint32_t s = 0; s < source->joints_count; ++s) {
        char key[SW__RT_NAME];
        sw__rt_key(sw_skeleton_joint_name(source, s), key);
        sw__rt_copy(skeys[s], sizeof skeys[s], key);
    }
    for (int pass = 0; pass < 2; ++pass) {
        for (uint32_t t = 0; t < target->joints_count; ++t) {
            if (out->source_of[t] >= 0) continue;
            const int32_t s =
                sw__rt_by_name(out, t, pass == 1, (const char(*)[SW__RT_NAME / 4]) skeys,
                               source_joints, target_joints, used);
            if (s < 0) continue;
            out->source_of[t] = s;
            used[s] = true;
        }
    }
    return SW_RESULT_OK;
}

sw_result sw_retarget_joint_map_auto(const sw_skeleton* source, const sw_skeleton* target,
                                     sw_retarget_joint_map* out) {
    return sw_retarget_joint_map_auto_masked(source, NULL, target, NULL, out);
}

uint32_t sw_retarget_joint_map_missing(const sw_retarget_joint_map* map) {
    if (!map || !map->target) return 0;
    uint32_t bits = 0;
    for (int b = 1; b < SW_RETARGET_BONE_COUNT; ++b) {
        const int32_t t = map->target_bones[b];
        if (t >= 0 && map->source_of[t] < 0) bits |= 1u << b;
    }
    return bits;
}

sw_result sw_retarget_joint_map_set(sw_retarget_joint_map* map, const char* source_name,
                                    const char* target_name) {
    if (!map || !map->source || !map->target || !source_name || !target_name)
        return SW_RESULT_INVALID_ARGUMENT;
    const int32_t s = sw_skeleton_find_joint(map->source, source_name);
    const int32_t t = sw_skeleton_find_joint(map->target, target_name);
    if (s < 0 || t < 0) return SW_RESULT_NOT_FOUND;
    map->source_of[t] = s;
    return SW_RESULT_OK;
}

sw_result sw_retarget_joint_map_clear(sw_retarget_joint_map* map, const char* target_name) {
    if (!map || !map->target || !target_name) return SW_RESULT_INVALID_ARGUMENT;
    const int32_t t = sw_skeleton_find_joint(map->target, target_name);
    if (t < 0) return SW_RESULT_NOT_FOUND;
    map->source_of[t] = -1;
    return SW_RESULT_OK;
}

static void sw__rt_trim(char* s) {
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = 0;
    size_t k = 0;
    while (s[k] == ' ' || s[k] == '\t')
        ++k;
    if (k) memmove(s, s + k, n - k + 1);
}

sw_result sw_retarget_joint_map_parse(sw_retarget_joint_map* map, const char* text, size_t size,
                                      sw_error* err) {
    if (!map || !map->source || !map->target || (!text && size > 0)) {
        sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1);
        return SW_RESULT_INVALID_ARGUMENT;
    }
    size_t pos = 0;
    int64_t line_no = 0;
    while (pos < size) {
        const size_t start = pos;
        while (pos < size && text[pos] != '\n')
            ++pos;
        const size_t len = pos - start;
        if (pos < size) ++pos;
        ++line_no;
        if (len > 1023) {
            sw__fail(err, SW_RESULT_LIMIT, "line length", start, line_no);
            return SW_RESULT_LIMIT;
        }
        char line[1024];
        memcpy(line, text + start, len);
        line[len] = 0;
        sw__rt_trim(line);
        if (line[0] == 0 || line[0] == '#') continue;
        char* eq = strchr(line, '=');
        if (!eq) {
            sw__fail(err, SW_RESULT_PARSE, "source=target", start, line_no);
            return SW_RESULT_PARSE;
        }
        *eq = 0;
        char* src = line;
        char* tgt = eq + 1;
        sw__rt_trim(src);
        sw__rt_trim(tgt);
        const sw_result r = src[0] ? sw_retarget_joint_map_set(map, src, tgt)
                                   : sw_retarget_joint_map_clear(map, tgt);
        if (r != SW_RESULT_OK) {
            sw__fail(err, r, "joint name", start, line_no);
            return r;
        }
    }
    return SW_RESULT_OK;
}

uint32_t sw_retarget_joint_map_count(const sw_retarget_joint_map* map) {
    if (!map || !map->target) return 0;
    uint32_t n = 0;
    for (uint32_t t = 0; t < map->target->joints_count; ++t)
        n += map->source_of[t] >= 0 ? 1u : 0u;
    return n;
}

sw_result sw_retarget_joint_map_desc(const sw_retarget_joint_map* map, bool leg_ik,
                                     sw_retarget_pair* pairs, sw_retarget_limb* limbs,
                                     sw_retarget_map_desc* out) {
    if (!map || !map->source || !map->target || !pairs || !out || (leg_ik && !limbs))
        return SW_RESULT_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    uint32_t n = 0;
    for (uint32_t t = 0; t < map->target->joints_count; ++t)
        if (map->source_of[t] >= 0) pairs[n++] = (sw_retarget_pair){(uint32_t)map->source_of[t], t};
    if (n == 0) return SW_RESULT_NOT_FOUND;
    out->source = map->source;
    out->target = map->target;
    out->pairs = pairs;
    out->pairs_count = n;
    if (leg_ik) {
        const int32_t* tb = map->target_bones;
        uint32_t k = 0;
        for (int side = 0; side < 2; ++side) {
            const int off = side * 8;
            const int32_t up = tb[SW_RETARGET_BONE_LEFT_UPPER_LEG + off];
            const int32_t mid = tb[SW_RETARGET_BONE_LEFT_LOWER_LEG + off];
            const int32_t end = tb[SW_RETARGET_BONE_LEFT_FOOT + off];
            if (up < 0 || mid < 0 || end < 0 || !sw__rt_is_ancestor(map->target, up, mid) ||
                !sw__rt_is_ancestor(map->target, mid, end) || map->source_of[end] < 0)
                continue;
            limbs[k++] = (sw_retarget_limb){(uint32_t)up, (uint32_t)mid, (uint32_t)end,
                                            (uint32_t)map->source_of[end]};
        }
        out->limbs = k ? limbs : NULL;
        out->limbs_count = k;
    }
    return SW_RESULT_OK;
}
