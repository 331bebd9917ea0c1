/* Importing through assimp: the only file of the project that includes its
 * headers. assimp's scene is read as untrusted data: pointers, counts,
 * indices and numbers are checked before use. */
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "assimp_internal.h"
#include "shared/fail.h"
#include "sinew/assimp/assimp_import.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/clip_recorder.h"
#include "sinew/tools/builders/raw_skeleton.h"
#include "sinew/tools/builders/raw_skin.h"
#include "sinew/tools/readers/isolate.h"
#include "sinew/tools/writers/archive_writer.h"
#include "tools/readers/names.h"

#define SW__AI_DEFAULT_TPS 25.0f
#define SW__AI_HELPER_TAG "$AssimpFbx$"
#define SW__AI_NAME_CAP (SW_SKELETON_MAX_NAME + 1)
/* Mesh names leave room for ".weights[255]" in float track names. */
#define SW__AI_MESH_NAME_MAX (SW_CLIP_MAX_NAME - 14)

enum {
    SW__AI_NODE_NEEDED = 1,   /* in the skeleton (or folded into it) */
    SW__AI_NODE_DIRECT = 2,   /* a bone, an animated node or a mesh holder */
    SW__AI_NODE_ANIMATED = 4, /* targeted by a channel */
    SW__AI_NODE_FOLDED = 8    /* $AssimpFbx$ helper folded into its children */
};

/* A growable array allocated with the import's allocator. */
typedef struct sw__vec {
    void* data;
    size_t count, cap, elem;
} sw__vec;

typedef struct sw__ai {
    const struct aiScene* scene;
    const sw_allocator* alloc;
    sw_scene* out;
    sw_error* err;
    float scale;
    float default_tps;
    bool keep_pivots;
    bool skip_meshes; /* BVH, CSM: assimp's meshes are made-up skeleton drawings */
    const char* const* clips_wanted;
    uint32_t clips_wanted_count;

    /* Flattened node tree, depth-first pre-order (parents first). */
    uint32_t nodes_count;
    const struct aiNode** nodes;
    int32_t* node_parent;
    uint8_t* node_flags;
    int32_t* node_joint; /* skeleton joint, or -1 */
    uint32_t* slots;     /* name hash: node index + 1, 0 empty */
    uint32_t slots_count;
    int32_t* mesh_node; /* first node holding mesh i, or -1 */
    uint32_t* mesh_refs;
    char (*mesh_names)[SW__AI_NAME_CAP]; /* unique among imported meshes */
    uint32_t* mesh_targets;              /* morph targets imported for mesh i */

    uint32_t joints_count;
    uint32_t morph_clips; /* clips with mesh channels (not imported) */
    sw_xform* joint_pre;  /* folded helpers above the joint (scaled), composed into keys */
} sw__ai;

static sw_result sw__ai_fail(sw__ai* c, sw_result r, const char* check, int64_t index) {
    return sw__fail(c->err, r, check, 0, index);
}

static void* sw__ai_alloc(sw__ai* c, size_t count, size_t elem) {
    if (count == 0) count = 1;
    if (elem != 0 && count > SIZE_MAX / elem) return NULL;
    void* p = sw_alloc(c->alloc, count * elem, 16);
    if (p) memset(p, 0, count * elem);
    return p;
}

static void sw__ai_free(sw__ai* c, void* p, size_t count, size_t elem) {
    if (p) sw_free(c->alloc, p, (count ? count : 1) * elem);
}

static bool sw__vec_push(sw__ai* c, sw__vec* v, const void* item) {
    if (v->count == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        void* p = sw__ai_alloc(c, cap, v->elem);
        if (!p) return false;
        if (v->count) memcpy(p, v->data, v->count * v->elem);
        sw__ai_free(c, v->data, v->cap, v->elem);
        v->data = p;
        v->cap = cap;
    }
    memcpy((char*)v->data + v->count * v->elem, item, v->elem);
    v->count++;
    return true;
}

static void sw__vec_free(sw__ai* c, sw__vec* v) {
    sw__ai_free(c, v->data, v->cap, v->elem);
    memset(v, 0, sizeof *v);
}

/* assimp strings are length-prefixed char[MAXLEN]; trust neither. */
static size_t sw__ai_strlen(const struct aiString* s) {
    return strnlen(s->data, MAXLEN);
}

static uint32_t sw__hash(const char* s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

/* First node (pre-order) named `name`, or -1. */
static int32_t sw__ai_find_node(const sw__ai* c, const struct aiString* name) {
    size_t n = sw__ai_strlen(name);
    uint32_t mask = c->slots_count - 1u;
    for (uint32_t h = sw__hash(name->data, n) & mask;; h = (h + 1u) & mask) {
        uint32_t s = c->slots[h];
        if (s == 0) return -1;
        const struct aiString* other = &c->nodes[s - 1]->mName;
        if (sw__ai_strlen(other) == n && memcmp(other->data, name->data, n) == 0) {
            return (int32_t)(s - 1);
        }
    }
}

static bool sw__mat_finite(const struct aiMatrix4x4* m) {
    const float v[16] = {m->a1, m->a2, m->a3, m->a4, m->b1, m->b2, m->b3, m->b4,
                         m->c1, m->c2, m->c3, m->c4, m->d1, m->d2, m->d3, m->d4};
    for (int i = 0; i < 16; ++i) {
        if (!isfinite(v[i])) return false;
    }
    return true;
}

/* assimp matrices are row-major (a1..a4 the first row), sinew's column-major. */
static sw_mat4 sw__mat_from_ai(const struct aiMatrix4x4* m) {
    sw_mat4 r = {{m->a1, m->b1, m->c1, m->d1, m->a2, m->b2, m->c2, m->d2, m->a3, m->b3, m->c3,
                  m->d3, m->a4, m->b4, m->c4, m->d4}};
    return r;
}

static bool sw__xform_finite(sw_xform x) {
    return isfinite(x.t.x) && isfinite(x.t.y) && isfinite(x.t.z) && isfinite(x.r.x) &&
           isfinite(x.r.y) && isfinite(x.r.z) && isfinite(x.r.w) && isfinite(x.s.x) &&
           isfinite(x.s.y) && isfinite(x.s.z);
}

/* Splits a matrix into TRS with translations scaled to the import's units. */
static sw_xform sw__ai_decompose(const sw__ai* c, const sw_mat4* m) {
    sw_xform x;
    sw_mat4_decompose(m, &x); /* zero-length axes leave identity rotation, scale 0 */
    x.t = sw_vec3_scale(x.t, c->scale);
    return x;
}

/* ---- node tree ---- */

static sw_result sw__ai_flatten(sw__ai* c) {
    typedef struct {
        const struct aiNode* node;
        int32_t parent;
    } item;
    sw__vec stack = {NULL, 0, 0, sizeof(item)};
    sw__vec nodes = {NULL, 0, 0, sizeof(const struct aiNode*)};
    sw__vec parents = {NULL, 0, 0, sizeof(int32_t)};
    sw_result r = SW_RESULT_OK;
    item root = {c->scene->mRootNode, -1};
    if (!sw__vec_push(c, &stack, &root)) r = SW_RESULT_OUT_OF_MEMORY;
    uint64_t pushed = 1;
    while (r == SW_RESULT_OK && stack.count > 0) {
        item it = ((item*)stack.data)[--stack.count];
        int32_t index = (int32_t)nodes.count;
        if (!sw__vec_push(c, &nodes, &it.node) || !sw__vec_push(c, &parents, &it.parent)) {
            r = SW_RESULT_OUT_OF_MEMORY;
            break;
        }
        const struct aiNode* n = it.node;
        if (n->mNumChildren > 0 && !n->mChildren) {
            r = sw__ai_fail(c, SW_RESULT_BAD_DATA, "children array not NULL", index);
            break;
        }
        pushed += n->mNumChildren;
        if (pushed > SW_ASSIMP_MAX_NODES) {
            r = sw__ai_fail(c, SW_RESULT_LIMIT, "nodes count", index);
            break;
        }
        for (uint32_t k = n->mNumChildren; k-- > 0;) { /* reversed: children pop in order */
            item ch = {n->mChildren[k], index};
            if (!ch.node) {
                r = sw__ai_fail(c, SW_RESULT_BAD_DATA, "child node not NULL", index);
                break;
            }
            if (!sw__vec_push(c, &stack, &ch)) {
                r = SW_RESULT_OUT_OF_MEMORY;
                break;
            }
        }
    }
    sw__vec_free(c, &stack);
    if (r == SW_RESULT_OUT_OF_MEMORY) sw__ai_fail(c, r, "allocation", -1);
    if (r != SW_RESULT_OK) {
        sw__vec_free(c, &nodes);
        sw__vec_free(c, &parents);
        return r;
    }
    /* Exact-size arrays for the rest of the import. */
    c->nodes_count = (uint32_t)nodes.count;
    c->nodes = (const struct aiNode**)sw__ai_alloc(c, nodes.count, sizeof(*c->nodes));
    c->node_parent = (int32_t*)sw__ai_alloc(c, nodes.count, sizeof(int32_t));
    c->node_flags = (uint8_t*)sw__ai_alloc(c, nodes.count, 1);
    c->node_joint = (int32_t*)sw__ai_alloc(c, nodes.count, sizeof(int32_t));
    uint32_t slots = 16;
    while (slots < 2u * c->nodes_count)
        slots *= 2;
    c->slots_count = slots;
    c->slots = (uint32_t*)sw__ai_alloc(c, slots, sizeof(uint32_t));
    bool ok = c->nodes && c->node_parent && c->node_flags && c->node_joint && c->slots;
    if (ok) {
        memcpy((void*)c->nodes, nodes.data, nodes.count * sizeof(*c->nodes));
        memcpy(c->node_parent, parents.data, parents.count * sizeof(int32_t));
    }
    sw__vec_free(c, &nodes);
    sw__vec_free(c, &parents);
    if (!ok) return sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
    uint32_t mask = slots - 1u;
    for (uint32_t i = 0; i < c->nodes_count; ++i) {
        c->node_joint[i] = -1;
        const struct aiString* name = &c->nodes[i]->mName;
        size_t n = sw__ai_strlen(name);
        uint32_t h = sw__hash(name->data, n) & mask;
        bool dup = false;
        while (c->slots[h] != 0) {
            const struct aiString* o = &c->nodes[c->slots[h] - 1]->mName;
            if (sw__ai_strlen(o) == n && memcmp(o->data, name->data, n) == 0) {
                dup = true;
                break;
            }
            h = (h + 1u) & mask;
        }
        if (!dup) c->slots[h] = i + 1u;
    }
    return SW_RESULT_OK;
}

/* True for meshes assimp draws for BVH and CSM skeletons. */
static bool sw__ai_synthetic_mesh(const sw__ai* c, const struct aiMesh* m) {
    if (c->skip_meshes) return true;
    const struct aiScene* s = c->scene;
    if (m->mMaterialIndex >= s->mNumMaterials || !s->mMaterials) return false;
    const struct aiMaterial* mat = s->mMaterials[m->mMaterialIndex];
    struct aiString name;
    if (!mat || aiGetMaterialString(mat, AI_MATKEY_NAME, &name) != aiReturn_SUCCESS) return false;
    return strcmp(name.data, "SkeletonMaterial") == 0;
}

static bool sw__ai_mesh_used(const sw__ai* c, uint32_t i) {
    const struct aiScene* s = c->scene;
    return s->mMeshes && i < s->mNumMeshes && s->mMeshes[i] &&
           !sw__ai_synthetic_mesh(c, s->mMeshes[i]);
}

static void sw__ai_mark(sw__ai* c, int32_t node, uint8_t flags) {
    c->node_flags[node] |= (uint8_t)(flags | SW__AI_NODE_DIRECT);
    for (int32_t n = node; n >= 0 && !(c->node_flags[n] & SW__AI_NODE_NEEDED);
         n = c->node_parent[n]) {
        c->node_flags[n] |= SW__AI_NODE_NEEDED;
    }
}

static sw_result sw__ai_select_nodes(sw__ai* c) {
    const struct aiScene* s = c->scene;
    if (s->mNumMeshes > 0 && !s->mMeshes) {
        return sw__ai_fail(c, SW_RESULT_BAD_DATA, "meshes array not NULL", -1);
    }
    c->mesh_node = (int32_t*)sw__ai_alloc(c, s->mNumMeshes, sizeof(int32_t));
    c->mesh_refs = (uint32_t*)sw__ai_alloc(c, s->mNumMeshes, sizeof(uint32_t));
    if (!c->mesh_node || !c->mesh_refs) {
        return sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
    }
    for (uint32_t i = 0; i < s->mNumMeshes; ++i)
        c->mesh_node[i] = -1;
    /* Mesh holders. */
    for (uint32_t n = 0; n < c->nodes_count; ++n) {
        const struct aiNode* node = c->nodes[n];
        if (node->mNumMeshes > 0 && !node->mMeshes) {
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "node meshes array not NULL", n);
        }
        for (uint32_t k = 0; k < node->mNumMeshes; ++k) {
            uint32_t m = node->mMeshes[k];
            if (m >= s->mNumMeshes) {
                return sw__ai_fail(c, SW_RESULT_BAD_DATA, "node mesh index in range", n);
            }
            if (!sw__ai_mesh_used(c, m)) continue;
            if (c->mesh_node[m] < 0) c->mesh_node[m] = (int32_t)n;
            c->mesh_refs[m]++;
            sw__ai_mark(c, (int32_t)n, 0);
        }
    }
    /* Bones. */
    for (uint32_t m = 0; m < s->mNumMeshes; ++m) {
        if (!sw__ai_mesh_used(c, m)) continue;
        const struct aiMesh* mesh = s->mMeshes[m];
        if (mesh->mNumBones > 0 && !mesh->mBones) {
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "bones array not NULL", m);
        }
        for (uint32_t b = 0; b < mesh->mNumBones; ++b) {
            const struct aiBone* bone = mesh->mBones[b];
            if (!bone) return sw__ai_fail(c, SW_RESULT_BAD_DATA, "bone not NULL", m);
            int32_t node = sw__ai_find_node(c, &bone->mName);
            if (node >= 0) sw__ai_mark(c, node, 0); /* else dropped by the mesh builder */
        }
    }
    /* Animated nodes. */
    if (s->mNumAnimations > 0 && !s->mAnimations) {
        return sw__ai_fail(c, SW_RESULT_BAD_DATA, "animations array not NULL", -1);
    }
    for (uint32_t a = 0; a < s->mNumAnimations; ++a) {
        const struct aiAnimation* anim = s->mAnimations[a];
        if (!anim) return sw__ai_fail(c, SW_RESULT_BAD_DATA, "animation not NULL", a);
        if (anim->mNumChannels > 0 && !anim->mChannels) {
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "channels array not NULL", a);
        }
        for (uint32_t ch = 0; ch < anim->mNumChannels; ++ch) {
            const struct aiNodeAnim* na = anim->mChannels[ch];
            if (!na) return sw__ai_fail(c, SW_RESULT_BAD_DATA, "channel not NULL", a);
            int32_t node = sw__ai_find_node(c, &na->mNodeName);
            if (node >= 0) sw__ai_mark(c, node, SW__AI_NODE_ANIMATED);
        }
    }
    if (!(c->node_flags[0] & SW__AI_NODE_NEEDED)) sw__ai_mark(c, 0, 0);
    /* Helpers to fold: needed only as ancestors, not animated, not kept. */
    if (!c->keep_pivots) {
        for (uint32_t n = 0; n < c->nodes_count; ++n) {
            uint8_t f = c->node_flags[n];
            if ((f & SW__AI_NODE_NEEDED) && !(f & SW__AI_NODE_DIRECT) &&
                strstr(c->nodes[n]->mName.data, SW__AI_HELPER_TAG)) {
                c->node_flags[n] |= SW__AI_NODE_FOLDED;
            }
        }
    }
    return SW_RESULT_OK;
}

/* Writes a unique joint / clip name into buf: the source name cut to fit,
 * "<fallback>_<index>" when empty, "<name>_<k>" when taken. */
static void sw__unique_name(char buf[SW__AI_NAME_CAP], const char* src, size_t len,
                            const char* fallback, uint32_t index,
                            const char* (*taken)(void*, uint32_t), void* user,
                            uint32_t taken_count) {
    if (len > SW_SKELETON_MAX_NAME) len = SW_SKELETON_MAX_NAME;
    if (len == 0) {
        snprintf(buf, SW__AI_NAME_CAP, "%s_%u", fallback, index);
    } else {
        memcpy(buf, src, len);
        buf[len] = '\0';
    }
    char base[SW__AI_NAME_CAP];
    memcpy(base, buf, SW__AI_NAME_CAP);
    for (uint32_t k = 2;; ++k) {
        bool clash = false;
        for (uint32_t i = 0; i < taken_count && !clash; ++i)
            clash = strcmp(taken(user, i), buf) == 0;
        if (!clash) return;
        char suffix[16];
        int sn = snprintf(suffix, sizeof suffix, "_%u", k);
        size_t keep = strlen(base);
        if (keep + (size_t)sn > SW_SKELETON_MAX_NAME) keep = SW_SKELETON_MAX_NAME - (size_t)sn;
        memcpy(buf, base, keep);
        memcpy(buf + keep, suffix, (size_t)sn + 1);
    }
}

static const char* sw__names_at(void* user, uint32_t i) {
    return ((const char(*)[SW__AI_NAME_CAP])user)[i];
}

static sw_result sw__ai_build_skeleton(sw__ai* c) {
    uint32_t count = 0;
    for (uint32_t n = 0; n < c->nodes_count; ++n) {
        uint8_t f = c->node_flags[n];
        if ((f & SW__AI_NODE_NEEDED) && !(f & SW__AI_NODE_FOLDED)) ++count;
    }
    if (count > SW_SKELETON_MAX_JOINTS) {
        return sw__ai_fail(c, SW_RESULT_LIMIT, "joints count", (int64_t)count);
    }
    sw_raw_joint* raw = (sw_raw_joint*)sw__ai_alloc(c, count, sizeof(sw_raw_joint));
    char(*names)[SW__AI_NAME_CAP] =
        (char(*)[SW__AI_NAME_CAP])sw__ai_alloc(c, count, SW__AI_NAME_CAP);
    int32_t* remap = (int32_t*)sw__ai_alloc(c, count, sizeof(int32_t));
    int32_t* joint_node = (int32_t*)sw__ai_alloc(c, count, sizeof(int32_t));
    sw_xform* pre = (sw_xform*)sw__ai_alloc(c, count, sizeof(sw_xform));
    /* Folded helpers accumulate their matrices top-down (only helpers get one). */
    bool any_folded = false;
    for (uint32_t n = 0; n < c->nodes_count; ++n) {
        if (c->node_flags[n] & SW__AI_NODE_FOLDED) any_folded = true;
    }
    sw_mat4* acc = any_folded ? (sw_mat4*)sw__ai_alloc(c, c->nodes_count, sizeof(sw_mat4)) : NULL;
    sw_result r = SW_RESULT_OK;
    if (!raw || !names || !remap || !joint_node || !pre || (any_folded && !acc)) {
        r = sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
    }
    uint32_t j = 0;
    for (uint32_t n = 0; r == SW_RESULT_OK && n < c->nodes_count; ++n) {
        uint8_t f = c->node_flags[n];
        if (!(f & SW__AI_NODE_NEEDED)) continue;
        const struct aiNode* node = c->nodes[n];
        if (!sw__mat_finite(&node->mTransformation)) {
            r = sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite node transform", n);
            break;
        }
        sw_mat4 local = sw__mat_from_ai(&node->mTransformation);
        int32_t p = c->node_parent[n];
        bool under_folded = p >= 0 && (c->node_flags[p] & SW__AI_NODE_FOLDED);
        if (f & SW__AI_NODE_FOLDED) {
            acc[n] = under_folded ? sw_mat4_mul(&acc[p], &local) : local;
            continue;
        }
        /* Nearest joint above: ancestors of needed nodes are needed. */
        int32_t pj = -1;
        for (int32_t a = p; a >= 0; a = c->node_parent[a]) {
            if (!(c->node_flags[a] & SW__AI_NODE_FOLDED)) {
                pj = c->node_joint[a];
                break;
            }
        }
        pre[j] = under_folded ? sw__ai_decompose(c, &acc[p]) : sw_xform_identity();
        sw_xform rest = sw_xform_mul(pre[j], sw__ai_decompose(c, &local));
        if (!sw__xform_finite(rest)) {
            r = sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite node transform", n);
            break;
        }
        sw__unique_name(names[j], node->mName.data, sw__ai_strlen(&node->mName), "node", n,
                        sw__names_at, names, j);
        raw[j].name = names[j];
        raw[j].parent = pj;
        raw[j].rest = rest;
        joint_node[j] = (int32_t)n;
        c->node_joint[n] = (int32_t)j;
        ++j;
    }
    if (r == SW_RESULT_OK) {
        const sw_skeleton* skel = NULL;
        r = sw_raw_skeleton_build(raw, count, c->alloc, &skel, remap, c->err);
        if (r == SW_RESULT_OK) {
            c->out->skeleton = skel;
            c->joints_count = count;
            c->joint_pre = (sw_xform*)sw__ai_alloc(c, count, sizeof(sw_xform));
            if (!c->joint_pre) {
                r = sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
            } else {
                for (uint32_t k = 0; k < count; ++k)
                    c->joint_pre[remap[k]] = pre[k];
                for (uint32_t k = 0; k < count; ++k)
                    c->node_joint[joint_node[k]] = remap[k];
            }
        }
    }
    sw__ai_free(c, raw, count, sizeof(sw_raw_joint));
    sw__ai_free(c, names, count, SW__AI_NAME_CAP);
    sw__ai_free(c, remap, count, sizeof(int32_t));
    sw__ai_free(c, joint_node, count, sizeof(int32_t));
    sw__ai_free(c, pre, count, sizeof(sw_xform));
    sw__ai_free(c, acc, c->nodes_count, sizeof(sw_mat4));
    return r;
}

/* Mesh names (unique among imported meshes) and their usable morph targets:
 * anim meshes with the mesh's vertex count and positions. */
static sw_result sw__ai_prepare_meshes(sw__ai* c) {
    const struct aiScene* s = c->scene;
    c->mesh_names = (char(*)[SW__AI_NAME_CAP])sw__ai_alloc(c, s->mNumMeshes, SW__AI_NAME_CAP);
    c->mesh_targets = (uint32_t*)sw__ai_alloc(c, s->mNumMeshes, sizeof(uint32_t));
    if (!c->mesh_names || !c->mesh_targets) {
        return sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
    }
    uint32_t* used = (uint32_t*)sw__ai_alloc(c, s->mNumMeshes, sizeof(uint32_t));
    if (!used) return sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
    uint32_t used_count = 0;
    sw_result r = SW_RESULT_OK;
    for (uint32_t i = 0; i < s->mNumMeshes; ++i) {
        if (!sw__ai_mesh_used(c, i)) continue;
        const struct aiMesh* m = s->mMeshes[i];
        size_t len = sw__ai_strlen(&m->mName);
        if (len > SW__AI_MESH_NAME_MAX) len = SW__AI_MESH_NAME_MAX;
        /* Compare against the names given so far (indices in `used`). */
        char buf[SW__AI_NAME_CAP];
        if (len == 0) {
            snprintf(buf, sizeof buf, "mesh_%u", i);
        } else {
            memcpy(buf, m->mName.data, len);
            buf[len] = '\0';
        }
        char base[SW__AI_NAME_CAP];
        memcpy(base, buf, sizeof base);
        for (uint32_t k = 2;; ++k) {
            bool clash = false;
            for (uint32_t u = 0; u < used_count && !clash; ++u) {
                clash = strcmp(c->mesh_names[used[u]], buf) == 0;
            }
            if (!clash) break;
            snprintf(buf, sizeof buf, "%.*s_%u", (int)(SW__AI_MESH_NAME_MAX - 11), base, k);
        }
        memcpy(c->mesh_names[i], buf, sizeof buf);
        used[used_count++] = i;

        uint32_t t = m->mNumAnimMeshes;
        if (t == 0) continue;
        if (t > SW_MESH_MAX_MORPH_TARGETS) {
            r = sw__ai_fail(c, SW_RESULT_LIMIT, "morph targets count", i);
            break;
        }
        bool ok = m->mAnimMeshes != NULL;
        for (uint32_t k = 0; ok && k < t; ++k) {
            const struct aiAnimMesh* am = m->mAnimMeshes[k];
            ok = am && am->mVertices && am->mNumVertices == m->mNumVertices;
        }
        if (ok) {
            c->mesh_targets[i] = t;
        } else {
            char note[SW__AI_NAME_CAP + 64];
            snprintf(note, sizeof note,
                     "mesh '%s': morph targets without matching vertices dropped", buf);
            sw_scene_warn(c->out, note);
        }
    }
    sw__ai_free(c, used, s->mNumMeshes, sizeof(uint32_t));
    return r;
}

/* Float tracks "<mesh>.weights[k]" of one animation's morph channels. */
typedef struct sw__morph_tracks {
    sw_clip_track_desc* tracks;
    uint32_t count;
    uint64_t cap;
    float* times;
    uint64_t times_cap;
    float* values;
    uint64_t values_cap;
    char (*names)[SW__AI_NAME_CAP];
} sw__morph_tracks;

static void sw__ai_morph_free(sw__ai* c, sw__morph_tracks* mt) {
    sw__ai_free(c, mt->tracks, (size_t)mt->cap, sizeof(sw_clip_track_desc));
    sw__ai_free(c, mt->names, (size_t)mt->cap, SW__AI_NAME_CAP);
    sw__ai_free(c, mt->times, (size_t)mt->times_cap, sizeof(float));
    sw__ai_free(c, mt->values, (size_t)mt->values_cap, sizeof(float));
    memset(mt, 0, sizeof *mt);
}

/* Sizes mt's arrays for the morph channels of anim (the channels' nodes'
 * meshes' targets and their keys) and checks the channels' arrays. */
static sw_result sw__ai_morph_sizes(sw__ai* c, const struct aiAnimation* anim,
                                    sw__morph_tracks* mt) {
    for (uint32_t ch = 0; ch < anim->mNumMorphMeshChannels; ++ch) {
        const struct aiMeshMorphAnim* ma = anim->mMorphMeshChannels[ch];
        if (!ma) return sw__ai_fail(c, SW_RESULT_BAD_DATA, "morph channel not NULL", ch);
        if (ma->mNumKeys > SW_CLIP_MAX_KEYS) {
            return sw__ai_fail(c, SW_RESULT_LIMIT, "keys count", ch);
        }
        if (ma->mNumKeys > 0 && !ma->mKeys) {
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "keys array not NULL", ch);
        }
        int32_t node = sw__ai_find_node(c, &ma->mName);
        if (node < 0) continue;
        const struct aiNode* nd = c->nodes[node];
        mt->times_cap += ma->mNumKeys;
        for (uint32_t k = 0; k < nd->mNumMeshes; ++k) {
            uint32_t t = c->mesh_targets[nd->mMeshes[k]];
            mt->cap += t;
            mt->values_cap += (uint64_t)t * ma->mNumKeys;
        }
    }
    if (mt->cap > SW_CLIP_MAX_FLOAT_TRACKS) {
        return sw__ai_fail(c, SW_RESULT_LIMIT, "float tracks count", -1);
    }
    if (mt->values_cap > (uint64_t)UINT32_MAX) {
        return sw__ai_fail(c, SW_RESULT_LIMIT, "keys count", -1);
    }
    return SW_RESULT_OK;
}

/* Kept key times of channel ch into times (seconds; finite, strictly
 * increasing, not negative; others dropped and counted) and the indices of
 * their keys into keep; *kept their count. */
static sw_result sw__ai_morph_times(sw__ai* c, const struct aiMeshMorphAnim* ma, uint32_t ch,
                                    double tps, float* times, uint32_t* keep, uint32_t* kept,
                                    uint32_t* dropped) {
    *kept = 0;
    for (uint32_t k = 0; k < ma->mNumKeys; ++k) {
        const struct aiMeshMorphKey* key = &ma->mKeys[k];
        double t = key->mTime / tps;
        if (!isfinite(t)) return sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite key time", ch);
        if (key->mNumValuesAndWeights > 0 && (!key->mValues || !key->mWeights)) {
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "morph key arrays not NULL", ch);
        }
        float ft = (float)t;
        if (ft < 0.0f || (*kept > 0 && ft <= times[*kept - 1])) {
            ++*dropped;
            continue;
        }
        times[*kept] = ft;
        keep[(*kept)++] = k;
    }
    return SW_RESULT_OK;
}

/* One float track per target of mesh mi from the kept keys of channel ch
 * (times: their times; values from *values_used on). */
static sw_result sw__ai_morph_mesh(sw__ai* c, const struct aiMeshMorphAnim* ma, uint32_t ch,
                                   uint32_t mi, const float* times, const uint32_t* keep,
                                   uint32_t kept, sw__morph_tracks* mt, size_t* values_used) {
    for (uint32_t tg = 0; tg < c->mesh_targets[mi]; ++tg) {
        float* v = mt->values + *values_used;
        for (uint32_t k = 0; k < kept; ++k) {
            const struct aiMeshMorphKey* key = &ma->mKeys[keep[k]];
            double w = 0.0;
            for (uint32_t e = 0; e < key->mNumValuesAndWeights; ++e) {
                if (key->mValues[e] == tg) w += key->mWeights[e];
            }
            if (!isfinite(w) || fabs(w) > (double)FLT_MAX) {
                return sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite key value", ch);
            }
            v[k] = (float)w;
        }
        sw_clip_track_desc* td = &mt->tracks[mt->count];
        snprintf(mt->names[mt->count], SW__AI_NAME_CAP, "%s.weights[%u]", c->mesh_names[mi], tg);
        td->kind = SW_TRACK_KIND_FLOAT;
        td->name = mt->names[mt->count];
        td->interp = SW_INTERP_LINEAR;
        td->keys_count = kept;
        td->times = times;
        td->values = v;
        mt->count++;
        *values_used += kept;
    }
    return SW_RESULT_OK;
}

static sw_result sw__ai_morph_tracks(sw__ai* c, const struct aiAnimation* anim, double tps,
                                     sw__morph_tracks* mt, uint32_t* dropped, uint32_t* unknown,
                                     uint32_t* twice, float* last) {
    memset(mt, 0, sizeof *mt);
    uint32_t n = anim->mNumMorphMeshChannels;
    if (n == 0) return SW_RESULT_OK;
    if (!anim->mMorphMeshChannels) {
        return sw__ai_fail(c, SW_RESULT_BAD_DATA, "morph channels array not NULL", -1);
    }
    const struct aiScene* s = c->scene;
    sw_result r = sw__ai_morph_sizes(c, anim, mt);
    if (r != SW_RESULT_OK) return r;
    if (mt->cap == 0) {
        *unknown += n;
        return SW_RESULT_OK;
    }
    mt->tracks = (sw_clip_track_desc*)sw__ai_alloc(c, (size_t)mt->cap, sizeof(sw_clip_track_desc));
    mt->names = (char(*)[SW__AI_NAME_CAP])sw__ai_alloc(c, (size_t)mt->cap, SW__AI_NAME_CAP);
    mt->times = (float*)sw__ai_alloc(c, (size_t)mt->times_cap, sizeof(float));
    mt->values = (float*)sw__ai_alloc(c, (size_t)mt->values_cap, sizeof(float));
    uint8_t* seen = (uint8_t*)sw__ai_alloc(c, s->mNumMeshes, 1);
    if (!mt->tracks || !mt->names || !mt->times || !mt->values || !seen) {
        r = sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
    }
    size_t times_used = 0, values_used = 0;
    for (uint32_t ch = 0; r == SW_RESULT_OK && ch < n; ++ch) {
        const struct aiMeshMorphAnim* ma = anim->mMorphMeshChannels[ch];
        int32_t node = sw__ai_find_node(c, &ma->mName);
        const struct aiNode* nd = node >= 0 ? c->nodes[node] : NULL;
        uint32_t targets_here = 0;
        for (uint32_t k = 0; nd && k < nd->mNumMeshes; ++k) {
            targets_here += c->mesh_targets[nd->mMeshes[k]];
        }
        if (targets_here == 0) {
            ++*unknown;
            continue;
        }
        float* times = mt->times + times_used;
        uint32_t kept = 0;
        uint32_t* keep = (uint32_t*)sw__ai_alloc(c, ma->mNumKeys, sizeof(uint32_t));
        if (!keep) {
            r = sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
            break;
        }
        r = sw__ai_morph_times(c, ma, ch, tps, times, keep, &kept, dropped);
        times_used += kept;
        for (uint32_t mk = 0; r == SW_RESULT_OK && kept > 0 && mk < nd->mNumMeshes; ++mk) {
            uint32_t mi = nd->mMeshes[mk];
            if (c->mesh_targets[mi] == 0) continue;
            if (seen[mi]) {
                ++*twice;
                continue;
            }
            seen[mi] = 1;
            r = sw__ai_morph_mesh(c, ma, ch, mi, times, keep, kept, mt, &values_used);
        }
        if (kept > 0 && times[kept - 1] > *last) *last = times[kept - 1];
        sw__ai_free(c, keep, ma->mNumKeys, sizeof(uint32_t));
    }
    sw__ai_free(c, seen, s->mNumMeshes, 1);
    return r;
}

/* ---- clips ---- */

typedef struct sw__clip_names {
    char (*names)[SW__AI_NAME_CAP];
} sw__clip_names;

/* Converts one key list into explicit times and values: seconds, strictly
 * increasing (others dropped and counted), finite, composed with `pre`. */
typedef struct sw__keys {
    float* times;
    float* values;
    uint32_t count;
} sw__keys;

static sw_result sw__ai_vec_keys(sw__ai* c, const struct aiVectorKey* keys, uint32_t n, double tps,
                                 bool translation, sw_xform pre, sw__keys* out, uint32_t* dropped,
                                 int64_t index) {
    out->count = 0;
    if (n > 0 && !keys) return sw__ai_fail(c, SW_RESULT_BAD_DATA, "keys array not NULL", index);
    for (uint32_t k = 0; k < n; ++k) {
        double t = keys[k].mTime / tps;
        sw_vec3 v = {keys[k].mValue.x, keys[k].mValue.y, keys[k].mValue.z};
        if (!isfinite(t)) return sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite key time", index);
        if (!isfinite(v.x) || !isfinite(v.y) || !isfinite(v.z)) {
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite key value", index);
        }
        float ft = (float)t;
        if (ft < 0.0f || (out->count > 0 && ft <= out->times[out->count - 1])) {
            ++*dropped;
            continue;
        }
        v = translation ? sw_xform_point(pre, sw_vec3_scale(v, c->scale)) : sw_vec3_mul(pre.s, v);
        if (!isfinite(v.x) || !isfinite(v.y) || !isfinite(v.z)) {
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite key value", index);
        }
        out->times[out->count] = ft;
        memcpy(&out->values[3u * out->count], &v, sizeof v);
        out->count++;
    }
    return SW_RESULT_OK;
}

static sw_result sw__ai_quat_keys(sw__ai* c, const struct aiQuatKey* keys, uint32_t n, double tps,
                                  sw_xform pre, sw__keys* out, uint32_t* dropped, int64_t index) {
    out->count = 0;
    if (n > 0 && !keys) return sw__ai_fail(c, SW_RESULT_BAD_DATA, "keys array not NULL", index);
    for (uint32_t k = 0; k < n; ++k) {
        double t = keys[k].mTime / tps;
        const struct aiQuaternion* a = &keys[k].mValue;
        sw_quat q = {a->x, a->y, a->z, a->w};
        if (!isfinite(t)) return sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite key time", index);
        if (!isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z) || !isfinite(q.w)) {
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite key value", index);
        }
        float ft = (float)t;
        if (ft < 0.0f || (out->count > 0 && ft <= out->times[out->count - 1])) {
            ++*dropped;
            continue;
        }
        double len2 = (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w;
        if (!(len2 > 1e-12))
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "non-zero rotation key", index);
        q = sw_quat_normalize(sw_quat_mul(pre.r, sw_quat_normalize(q)));
        out->times[out->count] = ft;
        memcpy(&out->values[4u * out->count], &q, sizeof q);
        out->count++;
    }
    sw_rotation_keys_continuous(out->values, out->count);
    return SW_RESULT_OK;
}

static sw_result sw__ai_build_clip(sw__ai* c, const struct aiAnimation* anim, uint32_t a,
                                   const char* name, const sw_clip** out) {
    double tps = anim->mTicksPerSecond;
    char note[SW__AI_NAME_CAP + 96];
    if (!isfinite(tps) || tps <= 0.0) {
        snprintf(note, sizeof note, "clip '%s': no ticks per second, %g used", name,
                 (double)c->default_tps);
        sw_scene_warn(c->out, note);
        tps = c->default_tps;
    }
    /* Sizes first: every key of every channel, overflow-checked. */
    uint64_t keys_total = 0;
    for (uint32_t ch = 0; ch < anim->mNumChannels; ++ch) {
        const struct aiNodeAnim* na = anim->mChannels[ch];
        uint32_t counts[3] = {na->mNumPositionKeys, na->mNumRotationKeys, na->mNumScalingKeys};
        for (int t = 0; t < 3; ++t) {
            if (counts[t] > SW_CLIP_MAX_KEYS) {
                return sw__ai_fail(c, SW_RESULT_LIMIT, "keys count", (int64_t)ch);
            }
            keys_total += counts[t];
        }
    }
    if (keys_total > (uint64_t)UINT32_MAX) return sw__ai_fail(c, SW_RESULT_LIMIT, "keys count", -1);
    uint32_t tracks_count = 0, dropped = 0, unknown = 0, twice = 0;
    float last = 0.0f;
    sw__morph_tracks mt;
    sw_result mr = sw__ai_morph_tracks(c, anim, tps, &mt, &dropped, &unknown, &twice, &last);
    if (mr != SW_RESULT_OK) {
        sw__ai_morph_free(c, &mt);
        return mr;
    }
    size_t tracks_cap = (size_t)anim->mNumChannels * 3u + mt.count;
    sw_clip_track_desc* tracks =
        (sw_clip_track_desc*)sw__ai_alloc(c, tracks_cap, sizeof(sw_clip_track_desc));
    float* times = (float*)sw__ai_alloc(c, (size_t)keys_total, sizeof(float));
    float* values = (float*)sw__ai_alloc(c, (size_t)keys_total * 4u, sizeof(float));
    uint8_t* seen = (uint8_t*)sw__ai_alloc(c, c->joints_count, 1);
    sw_result r = SW_RESULT_OK;
    if (!tracks || !times || !values || !seen) {
        r = sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
    }
    size_t used = 0;
    for (uint32_t ch = 0; r == SW_RESULT_OK && ch < anim->mNumChannels; ++ch) {
        const struct aiNodeAnim* na = anim->mChannels[ch];
        int32_t node = sw__ai_find_node(c, &na->mNodeName);
        int32_t joint = node >= 0 ? c->node_joint[node] : -1;
        if (joint < 0) {
            ++unknown;
            continue;
        }
        if (seen[joint]) {
            ++twice;
            continue;
        }
        seen[joint] = 1;
        sw_xform pre = c->joint_pre[joint];
        for (int kind = 0; kind < 3 && r == SW_RESULT_OK; ++kind) {
            sw__keys k = {times + used, values + 4u * used, 0};
            if (kind == 0) {
                r = sw__ai_vec_keys(c, na->mPositionKeys, na->mNumPositionKeys, tps, true, pre, &k,
                                    &dropped, ch);
            } else if (kind == 1) {
                r = sw__ai_quat_keys(c, na->mRotationKeys, na->mNumRotationKeys, tps, pre, &k,
                                     &dropped, ch);
            } else {
                r = sw__ai_vec_keys(c, na->mScalingKeys, na->mNumScalingKeys, tps, false, pre, &k,
                                    &dropped, ch);
            }
            if (r != SW_RESULT_OK || k.count == 0) continue;
            sw_clip_track_desc* t = &tracks[tracks_count++];
            t->kind = kind == 0   ? SW_TRACK_KIND_TRANSLATION
                      : kind == 1 ? SW_TRACK_KIND_ROTATION
                                  : SW_TRACK_KIND_SCALE;
            t->joint = (uint32_t)joint;
            t->interp = SW_INTERP_LINEAR;
            t->keys_count = k.count;
            t->times = k.times;
            t->values = k.values;
            if (k.times[k.count - 1] > last) last = k.times[k.count - 1];
            used += k.count;
        }
    }
    if (r == SW_RESULT_OK && mt.count > 0) {
        memcpy(tracks + tracks_count, mt.tracks, mt.count * sizeof(sw_clip_track_desc));
        tracks_count += mt.count;
    }
    if (r == SW_RESULT_OK) {
        double d = anim->mDuration / tps;
        float duration = (isfinite(d) && d > 0.0 && d < (double)FLT_MAX) ? (float)d : 0.0f;
        if (last > duration) duration = last;
        if (dropped) {
            snprintf(note, sizeof note, "clip '%s': %u keys not after the previous dropped", name,
                     dropped);
            sw_scene_warn(c->out, note);
        }
        if (unknown) {
            snprintf(note, sizeof note, "clip '%s': %u channels name no node (or no morph targets)",
                     name, unknown);
            sw_scene_warn(c->out, note);
        }
        if (twice) {
            snprintf(note, sizeof note, "clip '%s': %u repeated channels ignored", name, twice);
            sw_scene_warn(c->out, note);
        }
        if (anim->mNumMeshChannels > 0) c->morph_clips++;
        sw_clip_desc desc = {name, duration, c->joints_count, false, tracks, tracks_count, NULL, 0};
        r = sw_clip_create(&desc, c->alloc, out, c->err);
        if (r != SW_RESULT_OK && c->err) c->err->index = (int64_t)a;
    }
    sw__ai_free(c, tracks, tracks_cap, sizeof(sw_clip_track_desc));
    sw__ai_free(c, times, (size_t)keys_total, sizeof(float));
    sw__ai_free(c, values, (size_t)keys_total * 4u, sizeof(float));
    sw__ai_free(c, seen, c->joints_count, 1);
    sw__ai_morph_free(c, &mt);
    return r;
}

static sw_result sw__ai_build_clips(sw__ai* c) {
    const struct aiScene* s = c->scene;
    uint32_t n = s->mNumAnimations;
    char(*names)[SW__AI_NAME_CAP] = (char(*)[SW__AI_NAME_CAP])sw__ai_alloc(c, n, SW__AI_NAME_CAP);
    uint8_t* keep = (uint8_t*)sw__ai_alloc(c, n, 1);
    sw_result r = SW_RESULT_OK;
    if (!names || !keep) r = sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
    for (uint32_t a = 0; r == SW_RESULT_OK && a < n; ++a) {
        const struct aiString* nm = &s->mAnimations[a]->mName;
        sw__unique_name(names[a], nm->data, sw__ai_strlen(nm), "clip", a, sw__names_at, names, a);
        keep[a] = c->clips_wanted ? 0 : 1;
    }
    for (uint32_t w = 0; r == SW_RESULT_OK && w < c->clips_wanted_count; ++w) {
        const char* want = c->clips_wanted[w];
        bool found = false;
        for (uint32_t a = 0; want && a < n; ++a) {
            if (strcmp(names[a], want) == 0) {
                keep[a] = 1;
                found = true;
            }
        }
        if (!found) {
            r = sw__fail_name(c->err, "requested clip exists", (int64_t)w, "clip", want,
                              sw__names_at, names, n);
        }
    }
    uint32_t kept = 0;
    for (uint32_t a = 0; r == SW_RESULT_OK && a < n; ++a)
        kept += keep[a];
    if (r == SW_RESULT_OK && kept > 0) {
        c->out->clips = (const sw_clip**)sw_alloc(c->alloc, kept * sizeof(void*), alignof(void*));
        if (!c->out->clips) r = sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
    }
    for (uint32_t a = 0; r == SW_RESULT_OK && a < n; ++a) {
        if (!keep[a]) continue;
        const sw_clip* clip = NULL;
        r = sw__ai_build_clip(c, s->mAnimations[a], a, names[a], &clip);
        if (r == SW_RESULT_OK) c->out->clips[c->out->clips_count++] = clip;
    }
    if (r == SW_RESULT_OK && c->morph_clips > 0) {
        char note[96];
        snprintf(note, sizeof note, "%u clips: mesh channels not imported", c->morph_clips);
        sw_scene_warn(c->out, note);
    }
    /* sw_scene_free frees clips_count entries of an array sized by clips_count. */
    if (c->out->clips && c->out->clips_count < kept) {
        const sw_clip** arr = c->out->clips;
        c->out->clips = NULL;
        for (uint32_t k = 0; k < c->out->clips_count; ++k)
            sw_clip_destroy(arr[k], c->alloc);
        sw_free(c->alloc, (void*)arr, kept * sizeof(void*));
        c->out->clips_count = 0;
    }
    sw__ai_free(c, names, n, SW__AI_NAME_CAP);
    sw__ai_free(c, keep, n, 1);
    return r;
}

/* ---- meshes ---- */

/* One mesh's arrays while it is built, their sizes and what was kept. */
typedef struct sw__mesh_tmp {
    float* positions;
    float* normals;
    float* uvs;
    uint16_t* joints;
    float* weights;
    uint32_t* indices;
    uint16_t* palette;
    sw_mat4* inverse_binds;
    float* morph_positions;
    float* morph_normals;
    char (*morph_names)[SW__AI_NAME_CAP];
    const char** morph_name_ptrs;
    sw_raw_skin* skin;
    size_t vertices;      /* V */
    uint64_t triangles;   /* indices hold 3 per triangle */
    uint32_t palette_cap; /* bones + 1 (the mesh's node) */
    uint32_t targets;     /* morph targets */
    size_t morph_floats;  /* 3 * V * targets */
    bool normals_ok, uvs_ok;
    uint32_t indices_count, palette_count;
} sw__mesh_tmp;

/* The triangles of mesh mi (*tris; 0 when the mesh is skipped, with a
 * warning) and its counts against the limits. */
static sw_result sw__ai_mesh_check(sw__ai* c, uint32_t mi, uint64_t* tris) {
    const struct aiMesh* m = c->scene->mMeshes[mi];
    char note[SW__AI_NAME_CAP + 96];
    const char* name = c->mesh_names[mi];
    *tris = 0;
    if (m->mNumVertices == 0 || !m->mVertices) {
        snprintf(note, sizeof note, "mesh '%s' has no vertices: skipped", name);
        sw_scene_warn(c->out, note);
        return SW_RESULT_OK;
    }
    if (m->mNumVertices > SW_MESH_MAX_VERTICES)
        return sw__ai_fail(c, SW_RESULT_LIMIT, "vertices count", mi);
    if (m->mNumFaces > 0 && !m->mFaces) {
        return sw__ai_fail(c, SW_RESULT_BAD_DATA, "faces array not NULL", mi);
    }
    uint64_t n = 0;
    for (uint32_t f = 0; f < m->mNumFaces; ++f) {
        if (m->mFaces[f].mNumIndices == 3 && m->mFaces[f].mIndices) ++n;
    }
    if (n == 0) {
        snprintf(note, sizeof note, "mesh '%s' has no triangles: skipped", name);
        sw_scene_warn(c->out, note);
        return SW_RESULT_OK;
    }
    if (n * 3u > SW_MESH_MAX_INDICES) return sw__ai_fail(c, SW_RESULT_LIMIT, "indices count", mi);
    if (n < m->mNumFaces) {
        snprintf(note, sizeof note, "mesh '%s': %u points and lines skipped", name,
                 m->mNumFaces - (uint32_t)n);
        sw_scene_warn(c->out, note);
    }
    if (m->mNumBones > SW_SKELETON_MAX_JOINTS) {
        return sw__ai_fail(c, SW_RESULT_LIMIT, "palette count", mi);
    }
    *tris = n;
    return SW_RESULT_OK;
}

/* Allocates t's arrays for mesh mi with `tris` triangles (zeroed; what the
 * mesh lacks stays NULL). On failure t still frees with sw__ai_mesh_tmp_free. */
static sw_result sw__ai_mesh_tmp_alloc(sw__ai* c, uint32_t mi, uint64_t tris, sw__mesh_tmp* t) {
    const struct aiMesh* m = c->scene->mMeshes[mi];
    memset(t, 0, sizeof *t);
    const size_t V = m->mNumVertices;
    t->vertices = V;
    t->triangles = tris;
    t->palette_cap = m->mNumBones + 1u;
    t->positions = (float*)sw__ai_alloc(c, 3u * V, sizeof(float));
    t->normals = m->mNormals ? (float*)sw__ai_alloc(c, 3u * V, sizeof(float)) : NULL;
    t->uvs = m->mTextureCoords[0] ? (float*)sw__ai_alloc(c, 2u * V, sizeof(float)) : NULL;
    t->joints = (uint16_t*)sw__ai_alloc(c, 4u * V, sizeof(uint16_t));
    t->weights = (float*)sw__ai_alloc(c, 4u * V, sizeof(float));
    t->indices = (uint32_t*)sw__ai_alloc(c, (size_t)tris * 3u, sizeof(uint32_t));
    t->palette = (uint16_t*)sw__ai_alloc(c, t->palette_cap, sizeof(uint16_t));
    t->inverse_binds = (sw_mat4*)sw__ai_alloc(c, t->palette_cap, sizeof(sw_mat4));
    /* Morph targets: assimp stores whole target shapes; sinew stores deltas. */
    const uint32_t targets = c->mesh_targets[mi];
    bool morph_normals = targets > 0 && m->mNormals != NULL;
    for (uint32_t k = 0; k < targets; ++k) {
        if (!m->mAnimMeshes[k]->mNormals) morph_normals = false;
    }
    t->targets = targets;
    t->morph_floats = 3u * V * targets;
    t->morph_positions = targets ? (float*)sw__ai_alloc(c, t->morph_floats, sizeof(float)) : NULL;
    t->morph_normals =
        morph_normals ? (float*)sw__ai_alloc(c, t->morph_floats, sizeof(float)) : NULL;
    t->morph_names =
        targets ? (char(*)[SW__AI_NAME_CAP])sw__ai_alloc(c, targets, SW__AI_NAME_CAP) : NULL;
    t->morph_name_ptrs = targets ? (const char**)sw__ai_alloc(c, targets, sizeof(char*)) : NULL;
    sw_result r = sw_raw_skin_create(m->mNumVertices, c->alloc, &t->skin, c->err);
    if (r == SW_RESULT_OK &&
        (!t->positions || (m->mNormals && !t->normals) || (m->mTextureCoords[0] && !t->uvs) ||
         !t->joints || !t->weights || !t->indices || !t->palette || !t->inverse_binds ||
         (targets && (!t->morph_positions || !t->morph_names || !t->morph_name_ptrs)) ||
         (morph_normals && !t->morph_normals))) {
        r = sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", mi);
    }
    return r;
}

static void sw__ai_mesh_tmp_free(sw__ai* c, sw__mesh_tmp* t) {
    const size_t V = t->vertices;
    sw__ai_free(c, t->positions, 3u * V, sizeof(float));
    sw__ai_free(c, t->normals, 3u * V, sizeof(float));
    sw__ai_free(c, t->uvs, 2u * V, sizeof(float));
    sw__ai_free(c, t->joints, 4u * V, sizeof(uint16_t));
    sw__ai_free(c, t->weights, 4u * V, sizeof(float));
    sw__ai_free(c, t->indices, (size_t)t->triangles * 3u, sizeof(uint32_t));
    sw__ai_free(c, t->palette, t->palette_cap, sizeof(uint16_t));
    sw__ai_free(c, t->inverse_binds, t->palette_cap, sizeof(sw_mat4));
    sw__ai_free(c, t->morph_positions, t->morph_floats, sizeof(float));
    sw__ai_free(c, t->morph_normals, t->morph_floats, sizeof(float));
    sw__ai_free(c, t->morph_names, t->targets, SW__AI_NAME_CAP);
    sw__ai_free(c, (void*)t->morph_name_ptrs, t->targets, sizeof(char*));
    sw_raw_skin_destroy(t->skin);
}

/* Morph target names ("target_<k>" when empty) and deltas from the base
 * mesh: positions scaled, normals when every target has them. */
static sw_result sw__ai_morph_deltas(sw__ai* c, const struct aiMesh* m, sw__mesh_tmp* t) {
    const size_t V = t->vertices;
    for (uint32_t k = 0; k < t->targets; ++k) {
        const struct aiAnimMesh* am = m->mAnimMeshes[k];
        size_t len = sw__ai_strlen(&am->mName);
        if (len > SW_MESH_MAX_NAME) len = SW_MESH_MAX_NAME;
        if (len == 0) {
            snprintf(t->morph_names[k], SW__AI_NAME_CAP, "target_%u", k);
        } else {
            memcpy(t->morph_names[k], am->mName.data, len);
            t->morph_names[k][len] = '\0';
        }
        t->morph_name_ptrs[k] = t->morph_names[k];
        for (size_t v = 0; v < V; ++v) {
            const struct aiVector3D* a = &am->mVertices[v];
            const struct aiVector3D* b = &m->mVertices[v];
            float d[3] = {(a->x - b->x) * c->scale, (a->y - b->y) * c->scale,
                          (a->z - b->z) * c->scale};
            if (!isfinite(d[0]) || !isfinite(d[1]) || !isfinite(d[2])) {
                return sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite morph position",
                                   (int64_t)(k * V + v));
            }
            memcpy(&t->morph_positions[3u * (k * V + v)], d, sizeof d);
            if (!t->morph_normals) continue;
            const struct aiVector3D* an = &am->mNormals[v];
            const struct aiVector3D* bn = &m->mNormals[v];
            float dn[3] = {an->x - bn->x, an->y - bn->y, an->z - bn->z};
            if (!isfinite(dn[0]) || !isfinite(dn[1]) || !isfinite(dn[2])) {
                return sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite morph normal",
                                   (int64_t)(k * V + v));
            }
            memcpy(&t->morph_normals[3u * (k * V + v)], dn, sizeof dn);
        }
    }
    return SW_RESULT_OK;
}

/* Positions (scaled), unit normals and UVs (flipped to top left) of mesh
 * mi; normals or UVs that are not all usable are dropped with a warning. */
static sw_result sw__ai_mesh_vertices(sw__ai* c, uint32_t mi, sw__mesh_tmp* t) {
    const struct aiMesh* m = c->scene->mMeshes[mi];
    char note[SW__AI_NAME_CAP + 96];
    t->normals_ok = t->normals != NULL;
    t->uvs_ok = t->uvs != NULL;
    for (size_t v = 0; v < t->vertices; ++v) {
        struct aiVector3D p = m->mVertices[v];
        if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z)) {
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite vertex position", (int64_t)v);
        }
        t->positions[3 * v + 0] = p.x * c->scale;
        t->positions[3 * v + 1] = p.y * c->scale;
        t->positions[3 * v + 2] = p.z * c->scale;
        if (t->normals_ok) {
            sw_vec3 nv = {m->mNormals[v].x, m->mNormals[v].y, m->mNormals[v].z};
            float len = sw_vec3_length(nv);
            if (!isfinite(len) || len < 1e-12f) {
                t->normals_ok = false;
            } else {
                nv = sw_vec3_scale(nv, 1.0f / len);
                memcpy(&t->normals[3 * v], &nv, sizeof nv);
            }
        }
        if (t->uvs_ok) {
            struct aiVector3D uv = m->mTextureCoords[0][v];
            if (!isfinite(uv.x) || !isfinite(uv.y)) t->uvs_ok = false;
            /* assimp gives UVs with the origin bottom left (OpenGL);
             * sw_mesh stores them top left, as glTF does. */
            t->uvs[2 * v + 0] = uv.x;
            t->uvs[2 * v + 1] = 1.0f - uv.y;
        }
    }
    if (t->normals && !t->normals_ok) {
        snprintf(note, sizeof note, "mesh '%s': zero or non-finite normals, normals dropped",
                 c->mesh_names[mi]);
        sw_scene_warn(c->out, note);
    }
    if (t->uvs && !t->uvs_ok) {
        snprintf(note, sizeof note, "mesh '%s': non-finite UVs dropped", c->mesh_names[mi]);
        sw_scene_warn(c->out, note);
    }
    return SW_RESULT_OK;
}

/* The triangles' indices (points and lines left out). */
static sw_result sw__ai_mesh_faces(sw__ai* c, const struct aiMesh* m, sw__mesh_tmp* t) {
    t->indices_count = 0;
    for (uint32_t f = 0; f < m->mNumFaces; ++f) {
        const struct aiFace* face = &m->mFaces[f];
        if (face->mNumIndices != 3 || !face->mIndices) continue;
        for (int k = 0; k < 3; ++k) {
            if (face->mIndices[k] >= m->mNumVertices) {
                return sw__ai_fail(c, SW_RESULT_BAD_DATA, "face index < vertices", f);
            }
            t->indices[t->indices_count++] = face->mIndices[k];
        }
    }
    return SW_RESULT_OK;
}

/* Bones: one palette entry each (inverse bind scaled), their influences
 * into the raw skin; bones naming no node are counted in *orphans. */
static sw_result sw__ai_mesh_bones(sw__ai* c, const struct aiMesh* m, sw__mesh_tmp* t,
                                   uint32_t* orphans) {
    t->palette_count = 0;
    *orphans = 0;
    for (uint32_t b = 0; b < m->mNumBones; ++b) {
        const struct aiBone* bone = m->mBones[b];
        int32_t node = sw__ai_find_node(c, &bone->mName);
        int32_t joint = node >= 0 ? c->node_joint[node] : -1;
        if (joint < 0) { /* a bone naming no node: its weights are dropped */
            ++*orphans;
            continue;
        }
        if (!sw__mat_finite(&bone->mOffsetMatrix)) {
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite bone offset matrix", b);
        }
        sw_mat4 ib = sw__mat_from_ai(&bone->mOffsetMatrix);
        ib.m[12] *= c->scale;
        ib.m[13] *= c->scale;
        ib.m[14] *= c->scale;
        sw_mat4 inv;
        if (!sw_mat4_inverse_affine(&ib, &inv)) {
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "invertible bone offset matrix", b);
        }
        const uint32_t pal = t->palette_count;
        t->palette[pal] = (uint16_t)joint;
        t->inverse_binds[pal] = ib;
        if (bone->mNumWeights > 0 && !bone->mWeights) {
            return sw__ai_fail(c, SW_RESULT_BAD_DATA, "weights array not NULL", b);
        }
        for (uint32_t w = 0; w < bone->mNumWeights; ++w) {
            uint32_t v = bone->mWeights[w].mVertexId;
            float wt = bone->mWeights[w].mWeight;
            if (v >= m->mNumVertices) {
                return sw__ai_fail(c, SW_RESULT_BAD_DATA, "bone vertex id in range", b);
            }
            if (!isfinite(wt) || wt < 0.0f) {
                return sw__ai_fail(c, SW_RESULT_BAD_DATA, "finite non-negative weight", b);
            }
            if (wt == 0.0f) continue;
            sw_result r = sw_raw_skin_add(t->skin, v, (uint16_t)pal, wt, c->err);
            if (r != SW_RESULT_OK) return r;
        }
        t->palette_count = pal + 1u;
    }
    return SW_RESULT_OK;
}

/* The four largest influences per vertex, normalised; vertices without
 * weights go rigidly to the mesh's node (one more palette entry). Warns
 * about what was changed or dropped. */
static sw_result sw__ai_mesh_weights(sw__ai* c, uint32_t mi, sw__mesh_tmp* t, uint32_t orphans) {
    const struct aiMesh* m = c->scene->mMeshes[mi];
    const char* name = c->mesh_names[mi];
    char note[SW__AI_NAME_CAP + 96];
    sw_raw_skin_stats st = {0, 0, 0};
    sw_result r = sw_raw_skin_build(t->skin, t->joints, t->weights, &st, c->err);
    if (r != SW_RESULT_OK) return r;
    if (st.unweighted > 0) {
        const uint32_t pal = t->palette_count++;
        int32_t node = c->mesh_node[mi] >= 0 ? c->mesh_node[mi] : 0;
        t->palette[pal] = (uint16_t)c->node_joint[node];
        t->inverse_binds[pal] = sw_mat4_identity();
        for (size_t v = 0; v < t->vertices; ++v) {
            float* vw = &t->weights[4u * v];
            if (vw[0] + vw[1] + vw[2] + vw[3] > 0.0f) continue;
            vw[0] = 1.0f;
            t->joints[4u * v] = (uint16_t)pal;
        }
        if (m->mNumBones > 0) {
            snprintf(note, sizeof note, "mesh '%s': %u vertices without weights bound to its node",
                     name, st.unweighted);
            sw_scene_warn(c->out, note);
        }
        if (c->mesh_refs[mi] > 1) {
            snprintf(note, sizeof note, "mesh '%s' is used by %u nodes: bound to the first", name,
                     c->mesh_refs[mi]);
            sw_scene_warn(c->out, note);
        }
    }
    if (orphans > 0) {
        snprintf(note, sizeof note, "mesh '%s': %u bones name no node, their weights dropped", name,
                 orphans);
        sw_scene_warn(c->out, note);
    }
    if (st.renormalized > 0) {
        snprintf(note, sizeof note, "mesh '%s': %u vertices' weights renormalized", name,
                 st.renormalized);
        sw_scene_warn(c->out, note);
    }
    if (st.dropped > 0) {
        snprintf(note, sizeof note, "mesh '%s': %u influences beyond 4 per vertex dropped", name,
                 st.dropped);
        sw_scene_warn(c->out, note);
    }
    return SW_RESULT_OK;
}

/* Builds mesh m; *out stays NULL when the mesh is skipped (with a warning). */
static sw_result sw__ai_build_mesh(sw__ai* c, uint32_t mi, const sw_mesh** out) {
    const struct aiMesh* m = c->scene->mMeshes[mi];
    uint64_t tris = 0;
    sw_result r = sw__ai_mesh_check(c, mi, &tris);
    if (r != SW_RESULT_OK || tris == 0) return r;
    sw__mesh_tmp t;
    uint32_t orphans = 0;
    r = sw__ai_mesh_tmp_alloc(c, mi, tris, &t);
    if (r == SW_RESULT_OK) r = sw__ai_morph_deltas(c, m, &t);
    if (r == SW_RESULT_OK) r = sw__ai_mesh_vertices(c, mi, &t);
    if (r == SW_RESULT_OK) r = sw__ai_mesh_faces(c, m, &t);
    if (r == SW_RESULT_OK) r = sw__ai_mesh_bones(c, m, &t, &orphans);
    if (r == SW_RESULT_OK) r = sw__ai_mesh_weights(c, mi, &t, orphans);
    if (r == SW_RESULT_OK) {
        sw_mesh_desc d;
        memset(&d, 0, sizeof d);
        d.name = c->mesh_names[mi];
        d.vertices_count = m->mNumVertices;
        d.positions = t.positions;
        d.normals = t.normals_ok ? t.normals : NULL;
        d.uvs = t.uvs_ok ? t.uvs : NULL;
        d.joints = t.joints;
        d.weights = t.weights;
        d.indices = t.indices;
        d.indices_count = t.indices_count;
        d.palette = t.palette;
        d.inverse_binds = t.inverse_binds;
        d.palette_count = t.palette_count;
        d.skeleton_joints_count = c->joints_count;
        d.morph_targets_count = t.targets;
        d.morph_positions = t.morph_positions;
        d.morph_normals = t.normals_ok ? t.morph_normals : NULL;
        d.morph_names = (const char* const*)t.morph_name_ptrs;
        r = sw_mesh_create(&d, c->alloc, out, c->err);
    }
    sw__ai_mesh_tmp_free(c, &t);
    return r;
}

static sw_result sw__ai_build_meshes(sw__ai* c) {
    const struct aiScene* s = c->scene;
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->mNumMeshes; ++i)
        n += sw__ai_mesh_used(c, i) ? 1u : 0u;
    if (n == 0) return SW_RESULT_OK;
    const sw_mesh** arr = (const sw_mesh**)sw_alloc(c->alloc, n * sizeof(void*), alignof(void*));
    if (!arr) return sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
    uint32_t built = 0;
    sw_result r = SW_RESULT_OK;
    for (uint32_t i = 0; r == SW_RESULT_OK && i < s->mNumMeshes; ++i) {
        if (!sw__ai_mesh_used(c, i)) continue;
        const sw_mesh* mesh = NULL;
        r = sw__ai_build_mesh(c, i, &mesh);
        if (r == SW_RESULT_OK && mesh) arr[built++] = mesh;
        if (r != SW_RESULT_OK && c->err && c->err->index < 0) c->err->index = i;
    }
    if (r != SW_RESULT_OK || built == 0) {
        for (uint32_t k = 0; k < built; ++k)
            sw_mesh_destroy(arr[k], c->alloc);
        sw_free(c->alloc, (void*)arr, n * sizeof(void*));
        return r;
    }
    if (built < n) { /* skipped meshes: shrink so sw_scene_free frees the right size */
        const sw_mesh** fit =
            (const sw_mesh**)sw_alloc(c->alloc, built * sizeof(void*), alignof(void*));
        if (!fit) {
            for (uint32_t k = 0; k < built; ++k)
                sw_mesh_destroy(arr[k], c->alloc);
            sw_free(c->alloc, (void*)arr, n * sizeof(void*));
            return sw__ai_fail(c, SW_RESULT_OUT_OF_MEMORY, "allocation", -1);
        }
        memcpy((void*)fit, (const void*)arr, built * sizeof(void*));
        sw_free(c->alloc, (void*)arr, n * sizeof(void*));
        arr = fit;
    }
    c->out->meshes = arr;
    c->out->meshes_count = built;
    return SW_RESULT_OK;
}

/* ---- entry points ---- */

static bool sw__ext_is(const char* ext, const char* want) {
    return ext && strcasecmp(ext, want) == 0;
}

static const char* sw__path_ext(const char* path) {
    const char* dot = strrchr(path, '.');
    const char* slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash)) return NULL;
    return dot + 1;
}

/* FBX unit: UnitScaleFactor is centimetres per file unit. */
static float sw__ai_fbx_scale(const struct aiScene* s, sw_scene* out) {
    const struct aiMetadata* md = s->mMetaData;
    if (md && md->mKeys && md->mValues) {
        for (uint32_t i = 0; i < md->mNumProperties; ++i) {
            if (strcmp(md->mKeys[i].data, "UnitScaleFactor") != 0) continue;
            const struct aiMetadataEntry* e = &md->mValues[i];
            double f = NAN;
            if (e->mData && e->mType == AI_FLOAT) f = *(const float*)e->mData;
            if (e->mData && e->mType == AI_DOUBLE) f = *(const double*)e->mData;
            if (e->mData && e->mType == AI_INT32) f = *(const int32_t*)e->mData;
            if (isfinite(f) && f > 0.0 && f < 1e9) return (float)(f * 0.01);
            break;
        }
    }
    sw_scene_warn(out, "FBX without a usable UnitScaleFactor: centimetres assumed");
    return 0.01f;
}

static bool sw__ai_is_fbx(const struct aiScene* s, const char* ext) {
    if (sw__ext_is(ext, "fbx")) return true;
    const struct aiMetadata* md = s->mMetaData;
    if (!md || !md->mKeys || !md->mValues) return false;
    for (uint32_t i = 0; i < md->mNumProperties; ++i) {
        if (strcmp(md->mKeys[i].data, "SourceAsset_Format") != 0) continue;
        const struct aiMetadataEntry* e = &md->mValues[i];
        return e->mType == AI_AISTRING && e->mData &&
               strstr(((const struct aiString*)e->mData)->data, "FBX") != NULL;
    }
    return false;
}

static void sw__ai_release(sw__ai* c) {
    uint32_t n = c->nodes_count;
    sw__ai_free(c, (void*)c->nodes, n, sizeof(*c->nodes));
    sw__ai_free(c, c->node_parent, n, sizeof(int32_t));
    sw__ai_free(c, c->node_flags, n, 1);
    sw__ai_free(c, c->node_joint, n, sizeof(int32_t));
    sw__ai_free(c, c->slots, c->slots_count, sizeof(uint32_t));
    uint32_t meshes = c->scene ? c->scene->mNumMeshes : 0;
    sw__ai_free(c, c->mesh_node, meshes, sizeof(int32_t));
    sw__ai_free(c, c->mesh_refs, meshes, sizeof(uint32_t));
    sw__ai_free(c, c->mesh_names, meshes, SW__AI_NAME_CAP);
    sw__ai_free(c, c->mesh_targets, meshes, sizeof(uint32_t));
    sw__ai_free(c, c->joint_pre, c->joints_count, sizeof(sw_xform));
}

static sw_result sw__ai_convert(sw__ai* c, const char* ext) {
    const struct aiScene* s = c->scene;
    if (!s->mRootNode) return sw__ai_fail(c, SW_RESULT_PARSE, "scene has a root node", -1);
    if (c->scale == 0.0f) c->scale = sw__ai_is_fbx(s, ext) ? sw__ai_fbx_scale(s, c->out) : 1.0f;
    c->skip_meshes = sw__ext_is(ext, "bvh") || sw__ext_is(ext, "csm");
    sw_result r = sw__ai_flatten(c);
    if (r == SW_RESULT_OK) r = sw__ai_select_nodes(c);
    if (r == SW_RESULT_OK) r = sw__ai_prepare_meshes(c);
    if (r == SW_RESULT_OK) r = sw__ai_build_skeleton(c);
    if (r == SW_RESULT_OK) r = sw__ai_build_clips(c);
    if (r == SW_RESULT_OK) r = sw__ai_build_meshes(c);
    sw__ai_release(c);
    return r;
}

static sw_result sw__ai_import(const char* path, const void* data, size_t size, const char* hint,
                               bool assimp_pivots, const sw_assimp_options* options,
                               const sw_allocator* alloc, sw_scene* out, sw_error* err) {
    if (!out) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    memset(out, 0, sizeof *out);
    if ((!path && !data) || (data && size == 0)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    sw_assimp_options o;
    memset(&o, 0, sizeof o);
    if (options) o = *options;
    if (!isfinite(o.scale) || o.scale < 0.0f) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "scale finite, >= 0", 0, -1);
    }
    if (!isfinite(o.default_ticks_per_second) || o.default_ticks_per_second < 0.0f) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "default ticks per second finite, >= 0", 0,
                        -1);
    }
    if (o.clips_count > 0 && !o.clips) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clips not NULL", 0, -1);
    }
    if (data && size > UINT_MAX) return sw__fail(err, SW_RESULT_LIMIT, "input size", 0, -1);

    struct aiPropertyStore* props = aiCreatePropertyStore();
    if (!props) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "assimp property store", 0, -1);
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS,
                               (o.keep_pivots || assimp_pivots) ? 1 : 0);
    unsigned flags =
        aiProcess_Triangulate | aiProcess_LimitBoneWeights | aiProcess_JoinIdenticalVertices;
    const struct aiScene* scene =
        data ? aiImportFileFromMemoryWithProperties((const char*)data, (unsigned)size, flags,
                                                    hint ? hint : "", props)
             : aiImportFileExWithProperties(path, flags, NULL, props);
    aiReleasePropertyStore(props);
    if (!scene) {
        const char* msg = aiGetErrorString();
        snprintf(out->warning, sizeof out->warning, "assimp: %s", msg && *msg ? msg : "no message");
        /* assimp turns a failed allocation into its error string. */
        if (msg && strstr(msg, "bad_alloc")) {
            return sw__fail_detail(err, SW_RESULT_OUT_OF_MEMORY, "assimp's memory", -1,
                                   "assimp ran out of memory (%s)", msg);
        }
        return sw__fail(err, SW_RESULT_PARSE, "assimp read the file", 0, -1);
    }
    sw__ai c;
    memset(&c, 0, sizeof c);
    c.scene = scene;
    c.alloc = alloc;
    c.out = out;
    c.err = err;
    c.scale = o.scale;
    c.default_tps =
        o.default_ticks_per_second > 0.0f ? o.default_ticks_per_second : SW__AI_DEFAULT_TPS;
    c.keep_pivots = o.keep_pivots;
    c.clips_wanted = o.clips;
    c.clips_wanted_count = o.clips ? o.clips_count : 0;
    sw_result r = sw__ai_convert(&c, data ? hint : sw__path_ext(path));
    aiReleaseImport(scene);
    if (r != SW_RESULT_OK) {
        char keep[sizeof out->warning];
        memcpy(keep, out->warning, sizeof keep);
        sw_scene_free(out, alloc);
        memcpy(out->warning, keep, sizeof keep);
    }
    return r;
}

sw_result sw_assimp_import_file(const char* path, const sw_assimp_options* options,
                                const sw_allocator* alloc, sw_scene* out, sw_error* err) {
    if (!path) {
        if (out) memset(out, 0, sizeof *out);
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    return sw__ai_import(path, NULL, 0, NULL, false, options, alloc, out, err);
}

sw_result sw_assimp_import_memory(const void* data, size_t size, const char* hint_extension,
                                  const sw_assimp_options* options, const sw_allocator* alloc,
                                  sw_scene* out, sw_error* err) {
    if (!data) {
        if (out) memset(out, 0, sizeof *out);
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    return sw__ai_import(NULL, data, size, hint_extension, false, options, alloc, out, err);
}

sw_result sw__assimp_import_file_pivots(const char* path, const sw_assimp_options* options,
                                        const sw_allocator* alloc, sw_scene* out, sw_error* err) {
    if (!path) {
        if (out) memset(out, 0, sizeof *out);
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    return sw__ai_import(path, NULL, 0, NULL, true, options, alloc, out, err);
}

/* ---- isolated import ---- */

typedef struct sw__iso_args {
    const char* path;
    const sw_assimp_options* options;
} sw__iso_args;

/* Child side: import, then serialise the scene as an archive. */
static sw_result sw__iso_child(void* user, const sw_allocator* alloc, sw_isolate_output* out,
                               sw_error* err) {
    const sw__iso_args* args = (const sw__iso_args*)user;
    sw_scene s;
    sw_result r = sw_assimp_import_file(args->path, args->options, alloc, &s, err);
    if (r == SW_RESULT_OK) {
        sw_archive_contents contents;
        memset(&contents, 0, sizeof contents);
        contents.skeletons = &s.skeleton;
        contents.skeletons_count = 1;
        contents.clips = s.clips;
        contents.clips_count = s.clips_count;
        contents.meshes = s.meshes;
        contents.meshes_count = s.meshes_count;
        r = sw_archive_write(&contents, alloc, &out->data, &out->size, err);
    }
    memcpy(out->message, s.warning,
           sizeof out->message < sizeof s.warning ? sizeof out->message : sizeof s.warning);
    out->message[sizeof out->message - 1] = '\0';
    /* The child exits right after: its memory goes with it. */
    return r;
}

static const char* sw__iso_crash_check(int sig) {
    switch (sig) {
    case 4:
        return "importer crashed (signal 4)";
    case 6:
        return "importer crashed (signal 6)";
    case 7:
        return "importer crashed (signal 7)";
    case 8:
        return "importer crashed (signal 8)";
    case 9:
        return "importer crashed (signal 9)";
    case 11:
        return "importer crashed (signal 11)";
    case 13:
        return "importer crashed (signal 13)";
    case 15:
        return "importer crashed (signal 15)";
    case 24:
        return "importer crashed (signal 24)";
    default:
        return "importer crashed (other signal)";
    }
}

/* Copies a block into its own allocation, 16-byte aligned. */
/* Copies one block out of the child's archive (which is freed afterwards)
 * into its own allocation and validates it with its kind's loader; *out is
 * NULL on failure and nothing is left allocated. */
static sw_result sw__iso_take(const sw_allocator* alloc, const void* block, uint32_t size,
                              uint32_t kind, const void** out, sw_error* err) {
    *out = NULL;
    void* mem = sw_alloc(alloc, size, 16);
    if (!mem) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    memcpy(mem, block, size);
    sw_result r;
    if (kind == SW_ARCHIVE_KIND_SKELETON) {
        const sw_skeleton* o = NULL;
        r = sw_skeleton_load(mem, size, &o, err);
    } else if (kind == SW_ARCHIVE_KIND_CLIP) {
        const sw_clip* o = NULL;
        r = sw_clip_load(mem, size, &o, err);
    } else {
        const sw_mesh* o = NULL;
        r = sw_mesh_load(mem, size, &o, err);
    }
    if (r != SW_RESULT_OK) {
        sw_free(alloc, mem, size);
        return r;
    }
    *out = mem;
    return SW_RESULT_OK;
}

/* A zeroed array of `count` object pointers, as sw_scene holds them. */
static void* sw__iso_array(const sw_allocator* alloc, uint32_t count) {
    void* p = sw_alloc(alloc, count * sizeof(void*), alignof(void*));
    if (p) memset(p, 0, count * sizeof(void*));
    return p;
}

sw_result sw_assimp_import_file_isolated(const char* path, const sw_assimp_options* options,
                                         uint32_t timeout_ms, const sw_allocator* alloc,
                                         sw_scene* out, sw_error* err) {
    if (!path || !out) {
        if (out) memset(out, 0, sizeof *out);
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    memset(out, 0, sizeof *out);
    sw__iso_args args = {path, options};
    sw_isolate_options io = {timeout_ms, 0, 0};
    sw_isolate_result res;
    sw_error e = SW_ERROR_INIT;
    sw_result r = sw_isolate_run(sw__iso_child, &args, &io, alloc, &res, &e);
    memcpy(out->warning, res.message, sizeof out->warning);
    out->warning[sizeof out->warning - 1] = '\0';
    if (r != SW_RESULT_OK) {
        if (res.timed_out) return sw__fail(err, SW_RESULT_LIMIT, "import timed out", 0, -1);
        if (res.signal) {
            return sw__fail(err, SW_RESULT_BAD_DATA, sw__iso_crash_check(res.signal), 0,
                            res.signal);
        }
        if (res.exit_status > 0 && !res.message[0]) {
            snprintf(out->warning, sizeof out->warning, "importer exited with status %d",
                     res.exit_status);
        }
        if (err) *err = e;
        return r;
    }
    sw_archive ar;
    r = sw_archive_load(res.data, res.size, &ar, err);
    if (r == SW_RESULT_OK && ar.skeletons_count != 1) {
        r = sw__fail(err, SW_RESULT_BAD_DATA, "one skeleton from the child", 0, -1);
    }
    if (r == SW_RESULT_OK) {
        const sw_skeleton* src = sw_archive_skeleton(&ar, 0);
        const void* obj = NULL;
        r = sw__iso_take(alloc, src, src->size, SW_ARCHIVE_KIND_SKELETON, &obj, err);
        out->skeleton = (const sw_skeleton*)obj;
    }
    /* The arrays are zeroed and their counts set at once, so a failure half
     * way leaves a scene sw_scene_free releases with the right sizes. */
    if (r == SW_RESULT_OK && ar.clips_count > 0) {
        out->clips = (const sw_clip**)sw__iso_array(alloc, ar.clips_count);
        if (!out->clips)
            r = sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
        else
            out->clips_count = ar.clips_count;
        for (uint32_t i = 0; r == SW_RESULT_OK && i < ar.clips_count; ++i) {
            const sw_clip* src = sw_archive_clip(&ar, i);
            const void* obj = NULL;
            r = sw__iso_take(alloc, src, src->size, SW_ARCHIVE_KIND_CLIP, &obj, err);
            out->clips[i] = (const sw_clip*)obj;
        }
    }
    if (r == SW_RESULT_OK && ar.meshes_count > 0) {
        out->meshes = (const sw_mesh**)sw__iso_array(alloc, ar.meshes_count);
        if (!out->meshes)
            r = sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
        else
            out->meshes_count = ar.meshes_count;
        for (uint32_t i = 0; r == SW_RESULT_OK && i < ar.meshes_count; ++i) {
            const sw_mesh* src = sw_archive_mesh(&ar, i);
            const void* obj = NULL;
            r = sw__iso_take(alloc, src, src->size, SW_ARCHIVE_KIND_MESH, &obj, err);
            out->meshes[i] = (const sw_mesh*)obj;
        }
    }
    sw_isolate_result_free(&res, alloc);
    if (r != SW_RESULT_OK) {
        char keep[sizeof out->warning];
        memcpy(keep, out->warning, sizeof keep);
        sw_scene_free(out, alloc);
        memcpy(out->warning, keep, sizeof keep);
    }
    return r;
}

sw_result sw_assimp_asset_read(void* user, const char* path, const sw_asset_options* options,
                               sw_scene* out, sw_error* err) {
    (void)user;
    sw_assimp_options ao;
    memset(&ao, 0, sizeof ao);
    if (options) {
        ao.scale = options->scale;
        ao.clips = options->clips;
        ao.clips_count = options->clips_count;
    }
    sw_result r = sw_assimp_import_file(path, &ao, NULL, out, err);
    /* assimp refused the file: a format it does not know (its reason in the warning). */
    if (r == SW_RESULT_PARSE && err && err->check &&
        strcmp(err->check, "assimp read the file") == 0) {
        err->check = "known file format";
    }
    return r;
}

bool sw_assimp_asset_knows(void* user, const char* path, const void* head, size_t head_size) {
    (void)user;
    (void)head;
    (void)head_size;
    const char* slash = strrchr(path, '/');
    const char* dot = strrchr(slash ? slash : path, '.');
    if (!dot || !dot[1]) return false;
    return aiIsExtensionSupported(dot) != AI_FALSE;
}
