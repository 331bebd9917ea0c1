/* Retargeting maps: canonical humanoid names, spine chains, fuzzy names, map files. */
#include "sinew/tools/builders/retarget_map.h"
#include "retarget_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define SW__RT_NAME 256

typedef enum sw__rt_side { SW__RT_SIDE_NONE, SW__RT_SIDE_LEFT, SW__RT_SIDE_RIGHT } sw__rt_side;

/* Drops everything up to the last ':' or '|' (namespaces such as "mixamorig:"). */
static const char* sw__rt_strip_prefix(const char* name) {
    const char* p = name;
    for (const char* c = name; *c; ++c)
        if (*c == ':' || *c == '|') p = c + 1;
    return p;
}

static bool sw__rt_sep(char c) {
    return c == '_' || c == '.' || c == '-' || c == ' ';
}

/* Lower case without separators, at most SW__RT_NAME - 1 bytes. */
static void sw__rt_flat(const char* s, size_t n, char* out) {
    size_t k = 0;
    for (size_t i = 0; i < n && s[i] && k + 1 < SW__RT_NAME; ++i)
        if (!sw__rt_sep(s[i])) out[k++] = (char)tolower((unsigned char)s[i]);
    out[k] = 0;
}

/* Normalised name (flat) with the side marker removed; returns the side. */
static sw__rt_side sw__rt_normalize(const char* name, char* out) {
    const char* s = sw__rt_strip_prefix(name);
    char flat[SW__RT_NAME];
    sw__rt_flat(s, strlen(s), flat);
    /* "left" / "right" anywhere. */
    const char* words[2] = {"left", "right"};
    for (int w = 0; w < 2; ++w) {
        char* at = strstr(flat, words[w]);
        if (at) {
            memmove(at, at + strlen(words[w]), strlen(at + strlen(words[w])) + 1);
            strcpy(out, flat);
            return w == 0 ? SW__RT_SIDE_LEFT : SW__RT_SIDE_RIGHT;
        }
    }
    const size_t n = strlen(s);
    sw__rt_side side = SW__RT_SIDE_NONE;
    size_t cut_from = 0, cut_to = 0; /* byte range of the marker in s */
    if (n >= 2) {
        const char last = s[n - 1], before = s[n - 2];
        const char lower = (char)tolower((unsigned char)last);
        if ((lower == 'l' || lower == 'r') && sw__rt_sep(before)) {
            side = lower == 'l' ? SW__RT_SIDE_LEFT : SW__RT_SIDE_RIGHT; /* thigh_l, Hand.R */
            cut_from = n - 2;
            cut_to = n;
        } else if ((last == 'L' || last == 'R') && islower((unsigned char)before)) {
            side = last == 'L' ? SW__RT_SIDE_LEFT : SW__RT_SIDE_RIGHT; /* UpperLegL */
            cut_from = n - 1;
            cut_to = n;
        } else if ((last == 'L' || last == 'R') && isdigit((unsigned char)before)) {
            /* Palm2L: a capital side letter after a number */
            side = last == 'L' ? SW__RT_SIDE_LEFT : SW__RT_SIDE_RIGHT;
            cut_from = n - 1;
            cut_to = n;
        }
        if (side == SW__RT_SIDE_NONE) {
            const char first = (char)tolower((unsigned char)s[0]);
            if ((first == 'l' || first == 'r') && sw__rt_sep(s[1])) {
                side = first == 'l' ? SW__RT_SIDE_LEFT : SW__RT_SIDE_RIGHT; /* L_Arm */
                cut_from = 0;
                cut_to = 2;
            }
        }
        if (side == SW__RT_SIDE_NONE) {
            /* a separate l/r token in the middle: thigh_l_twist */
            for (size_t i = 1; i + 2 < n; ++i) {
                const char c = (char)tolower((unsigned char)s[i]);
                if ((c == 'l' || c == 'r') && sw__rt_sep(s[i - 1]) && sw__rt_sep(s[i + 1])) {
                    side = c == 'l' ? SW__RT_SIDE_LEFT : SW__RT_SIDE_RIGHT;
                    cut_from = i;
                    cut_to = i + 1;
                    break;
                }
            }
        }
    }
    if (side == SW__RT_SIDE_NONE) {
        strcpy(out, flat);
        return side;
    }
    char joined[SW__RT_NAME];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < SW__RT_NAME; ++i)
        if (i < cut_from || i >= cut_to) joined[k++] = s[i];
    joined[k] = 0;
    sw__rt_flat(joined, k, out);
    return side;
}

/* Drops digits (spine_01 / Spine1 / neck_01 / Torso_1 compare equal). */
static void sw__rt_no_digits(const char* in, char* out) {
    size_t k = 0;
    for (; *in; ++in)
        if (!isdigit((unsigned char)*in)) out[k++] = *in;
    out[k] = 0;
}

typedef struct sw__rt_synonym {
    const char* base;
    int bone; /* central bone, or the left one (right = left + 8) */
    bool sided;
} sw__rt_synonym;

static const sw__rt_synonym sw__rt_synonyms[] = {
    {"hips", SW_RETARGET_BONE_HIPS, false},
    {"hip", SW_RETARGET_BONE_HIPS, false},
    {"pelvis", SW_RETARGET_BONE_HIPS, false},
    {"neck", SW_RETARGET_BONE_NECK, false},
    {"head", SW_RETARGET_BONE_HEAD, false},
    {"shoulder", SW_RETARGET_BONE_LEFT_SHOULDER, true},
    {"clavicle", SW_RETARGET_BONE_LEFT_SHOULDER, true},
    {"collar", SW_RETARGET_BONE_LEFT_SHOULDER, true},
    {"arm", SW_RETARGET_BONE_LEFT_UPPER_ARM, true},
    {"upperarm", SW_RETARGET_BONE_LEFT_UPPER_ARM, true},
    {"humerus", SW_RETARGET_BONE_LEFT_UPPER_ARM, true},
    {"forearm", SW_RETARGET_BONE_LEFT_LOWER_ARM, true},
    {"lowerarm", SW_RETARGET_BONE_LEFT_LOWER_ARM, true},
    {"elbow", SW_RETARGET_BONE_LEFT_LOWER_ARM, true},
    {"hand", SW_RETARGET_BONE_LEFT_HAND, true},
    {"wrist", SW_RETARGET_BONE_LEFT_HAND, true},
    {"palm", SW_RETARGET_BONE_LEFT_HAND, true},
    {"upleg", SW_RETARGET_BONE_LEFT_UPPER_LEG, true},
    {"upperleg", SW_RETARGET_BONE_LEFT_UPPER_LEG, true},
    {"thigh", SW_RETARGET_BONE_LEFT_UPPER_LEG, true},
    {"femur", SW_RETARGET_BONE_LEFT_UPPER_LEG, true},
    {"leg", SW_RETARGET_BONE_LEFT_LOWER_LEG, true},
    {"lowerleg", SW_RETARGET_BONE_LEFT_LOWER_LEG, true},
    {"calf", SW_RETARGET_BONE_LEFT_LOWER_LEG, true},
    {"shin", SW_RETARGET_BONE_LEFT_LOWER_LEG, true},
    {"knee", SW_RETARGET_BONE_LEFT_LOWER_LEG, true},
    {"foot", SW_RETARGET_BONE_LEFT_FOOT, true},
    {"ankle", SW_RETARGET_BONE_LEFT_FOOT, true},
    {"toebase", SW_RETARGET_BONE_LEFT_TOES, true},
    {"toe", SW_RETARGET_BONE_LEFT_TOES, true},
    {"toes", SW_RETARGET_BONE_LEFT_TOES, true},
    {"ball", SW_RETARGET_BONE_LEFT_TOES, true},
};

sw_retarget_bone sw_retarget_bone_from_name(const char* name) {
    if (!name) return SW_RETARGET_BONE_NONE;
    char norm[SW__RT_NAME], digitless[SW__RT_NAME];
    const sw__rt_side side = sw__rt_normalize(name, norm);
    sw__rt_no_digits(norm, digitless);
    /* 3ds Max Biped: "Bip01 L Thigh" */
    const char* base = strncmp(digitless, "bip", 3) == 0 ? digitless + 3 : digitless;
    for (size_t i = 0; i < sizeof sw__rt_synonyms / sizeof sw__rt_synonyms[0]; ++i) {
        const sw__rt_synonym* s = &sw__rt_synonyms[i];
        if (strcmp(base, s->base) != 0) continue;
        if (!s->sided)
            return side == SW__RT_SIDE_NONE ? (sw_retarget_bone)s->bone : SW_RETARGET_BONE_NONE;
        if (side == SW__RT_SIDE_NONE) return SW_RETARGET_BONE_NONE;
        return (sw_retarget_bone)(s->bone + (side == SW__RT_SIDE_RIGHT ? 8 : 0));
    }
    return SW_RETARGET_BONE_NONE;
}

const char* sw_retarget_bone_str(sw_retarget_bone bone) {
    static const char* const names[SW_RETARGET_BONE_COUNT] = {
        "none",
        "hips",
        "neck",
        "head",
        "left_shoulder",
        "left_upper_arm",
        "left_lower_arm",
        "left_hand",
        "left_upper_leg",
        "left_lower_leg",
        "left_foot",
        "left_toes",
        "right_shoulder",
        "right_upper_arm",
        "right_lower_arm",
        "right_hand",
        "right_upper_leg",
        "right_lower_leg",
        "right_foot",
        "right_toes",
    };
    if ((int)bone < 0 || bone >= SW_RETARGET_BONE_COUNT) return "none";
    return names[bone];
}

/* First joint (parent-first order) of each canonical bone, or -1. */
void sw__rt_bones(const sw_skeleton* s, int32_t out[SW_RETARGET_BONE_COUNT]) {
    for (int b = 0; b < SW_RETARGET_BONE_COUNT; ++b)
        out[b] = -1;
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const sw_retarget_bone b = sw_retarget_bone_from_name(sw_skeleton_joint_name(s, j));
        if (b != SW_RETARGET_BONE_NONE && out[b] < 0) out[b] = (int32_t)j;
    }
}

static bool sw__rt_is_ancestor(const sw_skeleton* s, int32_t a, int32_t j) {
    const int16_t* parents = sw_skeleton_parents(s);
    for (int32_t k = parents[j]; k >= 0; k = parents[k])
        if (k == a) return true;
    return false;
}

/* Joints strictly between hips and the neck (else head), root first. */
uint32_t sw__rt_spine(const sw_skeleton* s, const int32_t bones[SW_RETARGET_BONE_COUNT],
                      int32_t* out) {
    const int32_t hips = bones[SW_RETARGET_BONE_HIPS];
    int32_t top = bones[SW_RETARGET_BONE_NECK];
    if (top < 0 || (hips >= 0 && !sw__rt_is_ancestor(s, hips, top)))
        top = bones[SW_RETARGET_BONE_HEAD];
    if (hips < 0 || top < 0 || !sw__rt_is_ancestor(s, hips, top)) return 0;
    const int16_t* parents = sw_skeleton_parents(s);
    uint32_t n = 0;
    for (int32_t k = parents[top]; k >= 0 && k != hips; k = parents[k])
        out[n++] = k;
    for (uint32_t i = 0; i < n / 2; ++i) {
        const int32_t t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    return n;
}

static uint32_t sw__rt_edit_distance(const char* a, const char* b) {
    const size_t n = strlen(a), m = strlen(b);
    uint32_t row[SW__RT_NAME];
    for (size_t j = 0; j <= m; ++j)
        row[j] = (uint32_t)j;
    for (size_t i = 1; i <= n; ++i) {
        uint32_t diag = row[0];
        row[0] = (uint32_t)i;
        for (size_t j = 1; j <= m; ++j) {
            const uint32_t up = row[j];
            uint32_t best = diag + (a[i - 1] == b[j - 1] ? 0u : 1u);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

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

sw_result sw_retarget_joint_map_auto(const sw_skeleton* source, const sw_skeleton* target,
                                     sw_retarget_joint_map* out) {
    if (!source || !target || !out) return SW_RESULT_INVALID_ARGUMENT;
    out->source = source;
    out->target = target;
    const uint32_t sn = source->joints_count, tn = target->joints_count;
    bool used[SW_SKELETON_MAX_JOINTS];
    for (uint32_t j = 0; j < SW_SKELETON_MAX_JOINTS; ++j) {
        out->source_of[j] = -1;
        used[j] = false;
    }
    /* 1. canonical bones */
    int32_t sb[SW_RETARGET_BONE_COUNT], tb[SW_RETARGET_BONE_COUNT];
    sw__rt_bones(source, sb);
    sw__rt_bones(target, tb);
    for (int b = 1; b < SW_RETARGET_BONE_COUNT; ++b) {
        if (sb[b] < 0 || tb[b] < 0 || used[sb[b]] || out->source_of[tb[b]] >= 0) continue;
        out->source_of[tb[b]] = sb[b];
        used[sb[b]] = true;
    }
    /* 2. spine by position along the chain */
    int32_t ss[SW_SKELETON_MAX_JOINTS], ts[SW_SKELETON_MAX_JOINTS];
    const uint32_t ssn = sw__rt_spine(source, sb, ss), tsn = sw__rt_spine(target, tb, ts);
    for (uint32_t i = 0; ssn > 0 && i < tsn; ++i) {
        const uint32_t k =
            tsn == 1 ? ssn - 1 : (uint32_t)((i * (ssn - 1) * 2 + (tsn - 1)) / (2 * (tsn - 1)));
        if (out->source_of[ts[i]] >= 0) continue;
        out->source_of[ts[i]] = ss[k];
        used[ss[k]] = true;
    }
    /* 3. equal normalised names, 4. fuzzy */
    char skeys[SW_SKELETON_MAX_JOINTS][SW__RT_NAME / 4];
    for (uint32_t s = 0; s < sn; ++s) {
        char key[SW__RT_NAME];
        sw__rt_key(sw_skeleton_joint_name(source, s), key);
        sw__rt_copy(skeys[s], sizeof skeys[s], key);
    }
    for (int pass = 0; pass < 2; ++pass) {
        for (uint32_t t = 0; t < tn; ++t) {
            if (out->source_of[t] >= 0) continue;
            char tkey_full[SW__RT_NAME], tkey[SW__RT_NAME / 4];
            sw__rt_key(sw_skeleton_joint_name(target, t), tkey_full);
            sw__rt_copy(tkey, sizeof tkey, tkey_full);
            int32_t best = -1;
            uint32_t best_d = UINT32_MAX;
            bool tie = false;
            for (uint32_t s = 0; s < sn; ++s) {
                if (used[s]) continue;
                const uint32_t d = pass == 0 ? (strcmp(skeys[s], tkey) == 0 ? 0u : UINT32_MAX)
                                             : sw__rt_edit_distance(skeys[s], tkey);
                if (d < best_d) {
                    best_d = d;
                    best = (int32_t)s;
                    tie = false;
                } else if (d == best_d) {
                    tie = true;
                }
            }
            if (best < 0 || best_d == UINT32_MAX) continue;
            if (pass == 1) {
                const size_t len =
                    strlen(tkey) > strlen(skeys[best]) ? strlen(tkey) : strlen(skeys[best]);
                if (tie || (size_t)best_d * 4 > len) continue;
            }
            out->source_of[t] = best;
            used[best] = true;
        }
    }
    return SW_RESULT_OK;
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
        if (err) *err = (sw_error){SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1};
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
            if (err) *err = (sw_error){SW_RESULT_LIMIT, "line length", start, line_no};
            return SW_RESULT_LIMIT;
        }
        char line[1024];
        memcpy(line, text + start, len);
        line[len] = 0;
        sw__rt_trim(line);
        if (line[0] == 0 || line[0] == '#') continue;
        char* eq = strchr(line, '=');
        if (!eq) {
            if (err) *err = (sw_error){SW_RESULT_PARSE, "source=target", start, line_no};
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
            if (err) *err = (sw_error){r, "joint name", start, line_no};
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
        int32_t tb[SW_RETARGET_BONE_COUNT];
        sw__rt_bones(map->target, tb);
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
