/* Retargeting roles: joint names read as canonical humanoid bones (tokens,
 * side markers, synonyms), the skeleton's own joints told from mesh and
 * helper nodes, and the hierarchy settling what the names cannot. */
#include <ctype.h>
#include <string.h>

#include "retarget_internal.h"

#define SW__RT_TOKENS 16

/* Drops everything up to the last ':' or '|' (namespaces such as "mixamorig:"). */
static const char* sw__rt_strip_prefix(const char* name) {
    const char* p = name;
    for (const char* c = name; *c; ++c)
        if (*c == ':' || *c == '|') p = c + 1;
    return p;
}

/* Splits a name into lower-case tokens at non-alphanumerics, between letters
 * and digits, before a capital after a lower-case letter ("UpLeg") and before
 * the last capital of a run followed by a lower-case letter ("LHip"). The
 * tokens are written into buf, NUL-terminated; returns their number. */
static uint32_t sw__rt_split(const char* name, char buf[SW__RT_NAME], const char* tok[]) {
    const char* s = sw__rt_strip_prefix(name);
    size_t k = 0;
    uint32_t n = 0;
    bool open = false;
    for (size_t i = 0; s[i] && k + 2 < SW__RT_NAME; ++i) {
        const unsigned char c = (unsigned char)s[i];
        if (!isalnum(c)) {
            if (open) buf[k++] = 0;
            open = false;
            continue;
        }
        if (open) {
            const unsigned char p = (unsigned char)s[i - 1], nx = (unsigned char)s[i + 1];
            const bool digit_change = (isdigit(c) != 0) != (isdigit(p) != 0);
            const bool camel = isupper(c) && (islower(p) || (isupper(p) && islower(nx)));
            if (digit_change || camel) {
                buf[k++] = 0;
                open = false;
            }
        }
        if (!open) {
            if (n == SW__RT_TOKENS) break;
            tok[n++] = buf + k;
            open = true;
        }
        buf[k++] = (char)tolower(c);
    }
    buf[k] = 0;
    return n;
}

/* Tokens that name no body part: rig prefixes (B_, Bip01, DEF-, CC_Base_,
 * J_Bip_, Character1_), DAZ's "Bend" halves and numbers. */
static bool sw__rt_noise(const char* t) {
    static const char* const words[] = {"b",    "bip", "bn",        "def",  "cc",
                                        "base", "j",   "character", "bend", "jnt"};
    if (isdigit((unsigned char)t[0])) return true;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; ++i)
        if (strcmp(t, words[i]) == 0) return true;
    return false;
}

sw__rt_side sw__rt_normalize(const char* name, char out[SW__RT_NAME]) {
    char buf[SW__RT_NAME];
    const char* tok[SW__RT_TOKENS];
    const uint32_t n = sw__rt_split(name, buf, tok);
    sw__rt_side side = SW__RT_SIDE_NONE;
    size_t k = 0;
    out[0] = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const bool left = strcmp(tok[i], "left") == 0 || strcmp(tok[i], "l") == 0;
        const bool right = strcmp(tok[i], "right") == 0 || strcmp(tok[i], "r") == 0;
        if (side == SW__RT_SIDE_NONE && (left || right)) {
            side = left ? SW__RT_SIDE_LEFT : SW__RT_SIDE_RIGHT;
            continue;
        }
        if (sw__rt_noise(tok[i])) continue;
        const size_t len = strlen(tok[i]);
        if (k + len + 1 > SW__RT_NAME) break;
        memcpy(out + k, tok[i], len + 1);
        k += len;
    }
    /* "left" / "right" inside a token written in one case ("leftupleg") */
    const char* words[2] = {"left", "right"};
    for (int w = 0; w < 2 && side == SW__RT_SIDE_NONE; ++w) {
        char* at = strstr(out, words[w]);
        if (!at) continue;
        memmove(at, at + strlen(words[w]), strlen(at + strlen(words[w])) + 1);
        side = w == 0 ? SW__RT_SIDE_LEFT : SW__RT_SIDE_RIGHT;
    }
    return side;
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
    {"uparm", SW_RETARGET_BONE_LEFT_UPPER_ARM, true},
    {"humerus", SW_RETARGET_BONE_LEFT_UPPER_ARM, true},
    {"shldr", SW_RETARGET_BONE_LEFT_UPPER_ARM, true},
    {"forearm", SW_RETARGET_BONE_LEFT_LOWER_ARM, true},
    {"lowerarm", SW_RETARGET_BONE_LEFT_LOWER_ARM, true},
    {"elbow", SW_RETARGET_BONE_LEFT_LOWER_ARM, true},
    {"hand", SW_RETARGET_BONE_LEFT_HAND, true},
    {"wrist", SW_RETARGET_BONE_LEFT_HAND, true},
    {"palm", SW_RETARGET_BONE_LEFT_HAND, true},
    {"hip", SW_RETARGET_BONE_LEFT_UPPER_LEG, true},
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
    char base[SW__RT_NAME];
    const sw__rt_side side = sw__rt_normalize(name, base);
    for (size_t i = 0; i < sizeof sw__rt_synonyms / sizeof sw__rt_synonyms[0]; ++i) {
        const sw__rt_synonym* s = &sw__rt_synonyms[i];
        if (strcmp(base, s->base) != 0 || s->sided != (side != SW__RT_SIDE_NONE)) continue;
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

/* Marks j and its ancestors. */
static void sw__rt_mark_up(const int16_t* parents, int32_t j, uint8_t* mask) {
    for (; j >= 0 && !mask[j]; j = parents[j])
        mask[j] = 1;
}

sw_result sw_retarget_skeleton_joints(const sw_skeleton* s, const sw_mesh* const* meshes,
                                      uint32_t meshes_count, const sw_clip* const* clips,
                                      uint32_t clips_count, uint8_t* mask) {
    if (!s || !mask || (meshes_count && !meshes) || (clips_count && !clips))
        return SW_RESULT_INVALID_ARGUMENT;
    const uint32_t n = s->joints_count;
    const int16_t* parents = sw_skeleton_parents(s);
    memset(mask, 0, n);
    for (uint32_t m = 0; m < meshes_count; ++m) {
        if (!meshes[m] || meshes[m]->skeleton_joints_count != n) continue;
        const uint16_t* palette = sw_mesh_palette(meshes[m]);
        for (uint32_t i = 0; i < meshes[m]->palette_count; ++i)
            if (palette[i] < n) sw__rt_mark_up(parents, palette[i], mask);
    }
    for (uint32_t c = 0; c < clips_count; ++c) {
        if (!clips[c] || clips[c]->joints_count != n) continue;
        const sw_clip_track* tracks = sw_clip_tracks(clips[c]);
        const uint32_t joint_tracks = clips[c]->tracks_count - clips[c]->float_tracks_count;
        for (uint32_t i = 0; i < joint_tracks; ++i)
            if (tracks[i].keys_count > 1 && tracks[i].target < n)
                sw__rt_mark_up(parents, (int32_t)tracks[i].target, mask);
    }
    bool any = false;
    for (uint32_t j = 0; j < n && !any; ++j)
        any = mask[j] != 0;
    if (!any) memset(mask, 1, n);
    return SW_RESULT_OK;
}

/* ---- the hierarchy ---- */

typedef struct sw__rt_tree {
    const sw_skeleton* s;
    const int16_t* parents;
    const uint8_t* mask; /* NULL: every joint */
    int32_t* bones;
} sw__rt_tree;

static bool sw__rt_joint(const sw__rt_tree* t, int32_t j) {
    return j >= 0 && (!t->mask || t->mask[j]);
}

bool sw__rt_is_ancestor(const sw_skeleton* s, int32_t a, int32_t j) {
    if (a < 0 || j < 0) return false;
    const int16_t* parents = sw_skeleton_parents(s);
    for (int32_t k = parents[j]; k >= 0; k = parents[k])
        if (k == a) return true;
    return false;
}

/* Lowest common ancestor-or-self of a and b (-1 when either is -1 or none). */
static int32_t sw__rt_lca(const sw_skeleton* s, int32_t a, int32_t b) {
    if (a < 0) return b;
    if (b < 0) return a;
    for (int32_t x = a; x >= 0; x = sw_skeleton_parents(s)[x])
        if (x == b || sw__rt_is_ancestor(s, x, b)) return x;
    return -1;
}

/* Number of skeleton joints among j's children; *only: the last one. */
static uint32_t sw__rt_children(const sw__rt_tree* t, int32_t j, int32_t* only) {
    uint32_t n = 0;
    for (uint32_t c = (uint32_t)j + 1; c < t->s->joints_count; ++c)
        if (t->parents[c] == j && sw__rt_joint(t, (int32_t)c)) {
            ++n;
            *only = (int32_t)c;
        }
    return n;
}

/* A limb's four roles, proximal first: arm (shoulder, upper arm, lower arm,
 * hand; main 1..3) or leg (upper leg, lower leg, foot, toes; main 0..2);
 * limbs 0, 1: left and right arm, 2, 3: legs. Returns the first main index. */
static int sw__rt_limb_roles(int limb, int roles[4]) {
    const int off = (limb & 1) * 8;
    const int base = limb < 2 ? SW_RETARGET_BONE_LEFT_SHOULDER : SW_RETARGET_BONE_LEFT_UPPER_LEG;
    for (int i = 0; i < 4; ++i)
        roles[i] = base + off + i;
    return limb < 2 ? 1 : 0;
}

/* The limb's anchor role index: the most distal main role whose joint has a
 * named more proximal role of the limb above it, else the most distal named
 * main role; -1 when none is named. */
static int sw__rt_anchor(const sw__rt_tree* t, int limb) {
    int roles[4], fallback = -1;
    const int first = sw__rt_limb_roles(limb, roles);
    for (int i = first + 2; i >= first; --i) {
        const int32_t j = t->bones[roles[i]];
        if (j < 0) continue;
        if (fallback < 0) fallback = i;
        for (int k = 0; k < i; ++k)
            if (sw__rt_is_ancestor(t->s, t->bones[roles[k]], j)) return i;
    }
    return fallback;
}

/* True when j belongs to the trunk: an ancestor-or-self of another limb's
 * anchor joint, of the named neck or head, or the hips. */
static bool sw__rt_trunk(const sw__rt_tree* t, int32_t j, const int32_t anchors[4], int limb) {
    if (j == t->bones[SW_RETARGET_BONE_HIPS]) return true;
    const int32_t others[6] = {anchors[0],
                               anchors[1],
                               anchors[2],
                               anchors[3],
                               t->bones[SW_RETARGET_BONE_NECK],
                               t->bones[SW_RETARGET_BONE_HEAD]};
    for (int i = 0; i < 6; ++i)
        if (i != limb && others[i] >= 0 &&
            (others[i] == j || sw__rt_is_ancestor(t->s, j, others[i])))
            return true;
    return false;
}

/* Settles one limb from its anchor: up the parents (a named role kept when
 * it is an ancestor, else the parent, while the parent is not the trunk),
 * then down single children for unnamed distal roles. */
static void sw__rt_limb(const sw__rt_tree* t, int limb, int anchor, const int32_t anchors[4]) {
    int roles[4];
    sw__rt_limb_roles(limb, roles);
    int32_t* b = t->bones;
    int32_t cur = b[roles[anchor]];
    for (int k = anchor - 1; k >= 0; --k) {
        if (sw__rt_is_ancestor(t->s, b[roles[k]], cur)) {
            cur = b[roles[k]];
            continue;
        }
        const int32_t par = t->parents[cur];
        if (!sw__rt_joint(t, par) || sw__rt_trunk(t, par, anchors, limb)) {
            for (int m = k; m >= 0; --m)
                if (!sw__rt_is_ancestor(t->s, b[roles[m]], cur)) b[roles[m]] = -1;
            break;
        }
        for (int m = 0; m < k; ++m)
            if (b[roles[m]] == par) b[roles[m]] = -1;
        b[roles[k]] = par;
        cur = par;
    }
    cur = b[roles[anchor]];
    for (int k = anchor + 1; k < 4; ++k) {
        int32_t only = -1;
        if (b[roles[k]] >= 0) {
            if (!sw__rt_is_ancestor(t->s, cur, b[roles[k]])) break; /* a detached IK foot */
            cur = b[roles[k]];
        } else if (sw__rt_children(t, cur, &only) == 1) {
            b[roles[k]] = only;
            cur = only;
        } else {
            break;
        }
    }
}

/* Head and neck: a named head below the hips, else the top of the spine
 * (from the chest's one child leading to no limb, up single children while the child has children);
 * a named neck above the head, else the head's parent below the chest. */
static void sw__rt_head(const sw__rt_tree* t, int32_t chest) {
    int32_t* b = t->bones;
    const int32_t hips = b[SW_RETARGET_BONE_HIPS];
    int32_t head = b[SW_RETARGET_BONE_HEAD];
    if (head >= 0 && hips >= 0 && !sw__rt_is_ancestor(t->s, hips, head)) head = -1;
    if (head < 0 && chest >= 0) {
        int32_t cur = -1; /* the chest's one child that leads to no limb */
        uint32_t up = 0;
        for (uint32_t c = (uint32_t)chest + 1; c < t->s->joints_count; ++c) {
            bool limb = false;
            for (int r = SW_RETARGET_BONE_LEFT_SHOULDER; r < SW_RETARGET_BONE_COUNT; ++r)
                limb = limb || (b[r] >= 0 &&
                                (b[r] == (int32_t)c || sw__rt_is_ancestor(t->s, (int32_t)c, b[r])));
            if (t->parents[c] == chest && sw__rt_joint(t, (int32_t)c) && !limb) {
                cur = (int32_t)c;
                ++up;
            }
        }
        if (up != 1) cur = -1;
        for (int32_t kid = -1, grand = -1; cur >= 0 && sw__rt_children(t, cur, &kid) == 1;) {
            if (sw__rt_children(t, kid, &grand) == 0) {
                if (sw_retarget_bone_from_name(sw_skeleton_joint_name(t->s, (uint32_t)cur)) ==
                    SW_RETARGET_BONE_NECK)
                    cur = kid; /* Neck > Head with no end joint */
                break;
            }
            cur = kid;
        }
        head = cur;
    }
    b[SW_RETARGET_BONE_HEAD] = head;
    int32_t neck = b[SW_RETARGET_BONE_NECK];
    if (head >= 0 && !sw__rt_is_ancestor(t->s, neck, head)) {
        neck = t->parents[head];
        if (!sw__rt_joint(t, neck) || neck == chest || neck == hips) neck = -1;
    }
    b[SW_RETARGET_BONE_NECK] = neck;
}

void sw__rt_roles(const sw_skeleton* s, const uint8_t* mask, int32_t out[SW_RETARGET_BONE_COUNT]) {
    sw__rt_tree t = {s, sw_skeleton_parents(s), mask, out};
    for (int b = 0; b < SW_RETARGET_BONE_COUNT; ++b)
        out[b] = -1;
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const sw_retarget_bone b = sw_retarget_bone_from_name(sw_skeleton_joint_name(s, j));
        if (b != SW_RETARGET_BONE_NONE && out[b] < 0 && sw__rt_joint(&t, (int32_t)j))
            out[b] = (int32_t)j;
    }
    int anchor[4];
    int32_t anchors[4];
    for (int limb = 0; limb < 4; ++limb) {
        int roles[4];
        sw__rt_limb_roles(limb, roles);
        anchor[limb] = sw__rt_anchor(&t, limb);
        anchors[limb] = anchor[limb] >= 0 ? out[roles[anchor[limb]]] : -1;
    }
    for (int limb = 0; limb < 4; ++limb)
        if (anchor[limb] >= 0) sw__rt_limb(&t, limb, anchor[limb], anchors);
    /* arms branch at the chest; the hips join the legs and the chest */
    const int32_t chest =
        out[SW_RETARGET_BONE_LEFT_UPPER_ARM] >= 0 && out[SW_RETARGET_BONE_RIGHT_UPPER_ARM] >= 0
            ? sw__rt_lca(s, out[SW_RETARGET_BONE_LEFT_UPPER_ARM],
                         out[SW_RETARGET_BONE_RIGHT_UPPER_ARM])
            : -1;
    if (out[SW_RETARGET_BONE_HIPS] < 0 && out[SW_RETARGET_BONE_LEFT_UPPER_LEG] >= 0 &&
        out[SW_RETARGET_BONE_RIGHT_UPPER_LEG] >= 0) {
        const int32_t hips = sw__rt_lca(s,
                                        sw__rt_lca(s, out[SW_RETARGET_BONE_LEFT_UPPER_LEG],
                                                   out[SW_RETARGET_BONE_RIGHT_UPPER_LEG]),
                                        chest);
        if (sw__rt_joint(&t, hips)) out[SW_RETARGET_BONE_HIPS] = hips;
    }
    sw__rt_head(&t, chest);
    /* one role per joint: the first keeps it */
    for (int b = 1; b < SW_RETARGET_BONE_COUNT; ++b)
        for (int a = 1; a < b && out[b] >= 0; ++a)
            if (out[a] == out[b]) out[b] = -1;
}

void sw__rt_bones(const sw_skeleton* s, int32_t out[SW_RETARGET_BONE_COUNT]) {
    sw__rt_roles(s, NULL, out);
}

/* The chest: where the upper arms branch, when that lies on the spine
 * strictly between the hips and `top` (3ds Max Biped's clavicles hang off
 * the neck: no chest there); else -1. */
static int32_t sw__rt_chest(const sw_skeleton* s, const int32_t bones[SW_RETARGET_BONE_COUNT],
                            int32_t hips, int32_t top) {
    const int32_t la = bones[SW_RETARGET_BONE_LEFT_UPPER_ARM];
    const int32_t ra = bones[SW_RETARGET_BONE_RIGHT_UPPER_ARM];
    if (la < 0 || ra < 0) return -1;
    const int32_t c = sw__rt_lca(s, la, ra);
    if (!sw__rt_is_ancestor(s, hips, c) || !sw__rt_is_ancestor(s, c, top)) return -1;
    return c;
}

uint32_t sw__rt_spine(const sw_skeleton* s, const int32_t bones[SW_RETARGET_BONE_COUNT],
                      int32_t* out) {
    const int32_t hips = bones[SW_RETARGET_BONE_HIPS];
    int32_t top = bones[SW_RETARGET_BONE_NECK];
    if (top < 0 || (hips >= 0 && !sw__rt_is_ancestor(s, hips, top)))
        top = bones[SW_RETARGET_BONE_HEAD];
    if (hips < 0 || top < 0 || !sw__rt_is_ancestor(s, hips, top)) return 0;
    const int32_t chest = sw__rt_chest(s, bones, hips, top);
    const int16_t* parents = sw_skeleton_parents(s);
    uint32_t n = 0;
    if (chest >= 0) out[n++] = chest;
    for (int32_t k = parents[chest >= 0 ? chest : top]; k >= 0 && k != hips; k = parents[k])
        out[n++] = k;
    for (uint32_t i = 0; i < n / 2; ++i) {
        const int32_t tmp = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = tmp;
    }
    return n;
}
