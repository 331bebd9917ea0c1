/* Crowds: per-character pipeline on a worker pool, update-rate slicing with
 * look-ahead interpolation, joint LOD and the budget controller (see
 * sinew/scale/crowd.h). One allocation at create; the update path allocates
 * nothing and shares no writable memory between characters. */
#include "sinew/scale/crowd.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "runtime/animator/animator_internal.h"
#include "runtime/core/internal.h"
#include "sinew/core/local_to_model.h"
#include "sinew/core/skinning.h"

/* Per-character state, at the start of the character's block. */
typedef struct sw__crowd_char {
    sw_vec3 position;
    uint32_t level;
    uint32_t gap;      /* frames from pose A to pose B */
    uint32_t k;        /* frames since pose A */
    uint32_t a;        /* which of the two key buffers holds A (the other holds B) */
    bool ahead;        /* B is valid: the instance stands at B's time */
    bool fresh;        /* the outputs are the last evaluation's (posted, joint cut `cut`) */
    bool dirty;        /* marked by hand: evaluate at the next shown frame */
    bool visible;      /* the caller's flag */
    bool force;        /* evaluated even when not visible */
    bool shown;        /* visible or forced at the last update */
    uint32_t cut;      /* joint cut applied to the outputs */
    bool rest;         /* the outputs hold rest values in the joints `cut` leaves out */
    uint32_t priority; /* 0 .. SW_CROWD_MAX_PRIORITY: higher keeps detail longer */
    double lead;       /* animator time minus shown time (s) */
    sw_animator_root_motion rm;
    sw_vec3 center; /* bounding sphere: centre relative to the position, radius */
    float radius;
} sw__crowd_char;

/* Per-worker counters of one update, each on its own cache line. */
typedef struct sw__crowd_worker {
    sw_crowd_stats stats;
    sw_result result;
    char pad[64 - (sizeof(sw_crowd_stats) + sizeof(sw_result)) % 64];
} sw__crowd_worker;

struct sw_crowd {
    sw_allocator alloc;
    size_t bytes;
    const sw_animator_bound* bound;
    const sw_skeleton* skeleton;
    uint32_t count, threads, joints, packets, params_count, palette_count, levels_count;
    size_t inst_size, scratch_size;
    /* offsets in the block */
    size_t levels_off, detail_off, ibind_off, pjoints_off, workers_off, scratch_off;
    size_t chars_off, outs_off;              /* the characters' states, then their outputs */
    size_t keep_off;                         /* per level its joint subset (packets bytes) */
    sw__subset subsets[SW_CROWD_MAX_LEVELS]; /* per level its subset worked out (keep NULL: all) */
    /* offsets inside a character's block, and its size */
    size_t c_inst, c_params, c_stride;                          /* in a state */
    size_t c_key0, c_key1, c_out, c_model, c_palette, o_stride; /* in an output block */
    sw_crowd_post_fn post;
    void* post_user;
    bool post_every_frame, post_marks_dirty;
    bool history;          /* the animator keeps output history (sw_animator_inertializes) */
    bool root_motion;      /* the bound has a root motion joint (else its steps are zero) */
    uint32_t planes_count; /* the view: 0, everything inside */
    sw_crowd_plane planes[SW_CROWD_MAX_PLANES];
    float budget, budget_low;
    uint32_t budget_patience, bias, calm;
    uint32_t priority_count[SW_CROWD_MAX_PRIORITY + 1u]; /* characters per priority */
    uint32_t rank[SW_CROWD_MAX_PRIORITY + 1u];           /* per priority: classes in use below it */
    uint32_t classes;                                    /* priorities in use (>= 1) */
    uint64_t frame;
    /* the update in progress */
    float dt;
    sw_vec3 viewpoint;
};

static char* sw__crowd_at(const sw_crowd* c, size_t off) {
    return (char*)(uintptr_t)c + off;
}
static const sw_crowd_level* sw__levels(const sw_crowd* c) {
    return (const sw_crowd_level*)(void*)sw__crowd_at(c, c->levels_off);
}
static const uint8_t* sw__detail(const sw_crowd* c) {
    return (const uint8_t*)sw__crowd_at(c, c->detail_off);
}
static sw__crowd_worker* sw__workers(const sw_crowd* c) {
    return (sw__crowd_worker*)(void*)sw__crowd_at(c, c->workers_off);
}
static char* sw__char_block(const sw_crowd* c, uint32_t i) {
    return sw__crowd_at(c, c->chars_off + (size_t)i * c->c_stride);
}
/* Character i's output block (pose buffers, matrices, palette): apart from
 * the states, so that a character that is not shown touches its state only,
 * the states of consecutive characters a few cache lines apart. */
static char* sw__out_block(const sw_crowd* c, uint32_t i) {
    return sw__crowd_at(c, c->outs_off + (size_t)i * c->o_stride);
}
static sw__crowd_char* sw__char(const sw_crowd* c, uint32_t i) {
    return (sw__crowd_char*)(void*)sw__char_block(c, i);
}
static sw_animator_instance* sw__inst(const sw_crowd* c, uint32_t i) {
    return (sw_animator_instance*)(void*)(sw__char_block(c, i) + c->c_inst);
}
static float* sw__params(const sw_crowd* c, uint32_t i) {
    return (float*)(void*)(sw__char_block(c, i) + c->c_params);
}
static sw_xform4* sw__key(const sw_crowd* c, uint32_t i, uint32_t which) {
    return (sw_xform4*)(void*)(sw__out_block(c, i) + (which ? c->c_key1 : c->c_key0));
}
static sw_xform4* sw__out(const sw_crowd* c, uint32_t i) {
    return (sw_xform4*)(void*)(sw__out_block(c, i) + c->c_out);
}
static sw_mat4* sw__model(const sw_crowd* c, uint32_t i) {
    return (sw_mat4*)(void*)(sw__out_block(c, i) + c->c_model);
}
static sw_mat4* sw__palette(const sw_crowd* c, uint32_t i) {
    return (sw_mat4*)(void*)(sw__out_block(c, i) + c->c_palette);
}

/* ---- joint detail --------------------------------------------------------------------------- */

static float sw__dist(sw_vec3 a, sw_vec3 b) {
    const float x = a.x - b.x, y = a.y - b.y, z = a.z - b.z;
    return sqrtf(x * x + y * y + z * z);
}

/* The rest pose in model space (model[0..joints_count)) and the box around
 * its joint positions. */
static void sw__rest_box(const sw_skeleton* skeleton, sw_xform* model, sw_vec3* lo, sw_vec3* hi) {
    const int16_t* parents = sw_skeleton_parents(skeleton);
    const sw_xform4* rest = sw_skeleton_rest_pose(skeleton);
    for (uint32_t j = 0; j < skeleton->joints_count; ++j) {
        const sw_xform local = sw_xform4_get(&rest[j / 4u], j % 4u);
        model[j] = parents[j] < 0 ? local : sw_xform_mul(model[parents[j]], local);
        const sw_vec3 p = model[j].t;
        if (j == 0) *lo = *hi = p;
        lo->x = fminf(lo->x, p.x), lo->y = fminf(lo->y, p.y), lo->z = fminf(lo->z, p.z);
        hi->x = fmaxf(hi->x, p.x), hi->y = fmaxf(hi->y, p.y), hi->z = fmaxf(hi->z, p.z);
    }
}

uint32_t sw_crowd_joint_detail(const sw_skeleton* skeleton, float fraction, uint8_t* out,
                               uint32_t out_count) {
    if (!skeleton || !out) return 0;
    const uint32_t n = skeleton->joints_count;
    if (n == 0 || n > SW_SKELETON_MAX_JOINTS || out_count < n) return 0;
    if (!(fraction > 0.0f)) fraction = SW_CROWD_DEFAULT_DETAIL_FRACTION;
    const int16_t* parents = sw_skeleton_parents(skeleton);
    sw_xform model[SW_SKELETON_MAX_JOINTS];
    uint16_t children[SW_SKELETON_MAX_JOINTS];
    int32_t child[SW_SKELETON_MAX_JOINTS]; /* the last child seen */
    bool chain[SW_SKELETON_MAX_JOINTS];
    float below[SW_SKELETON_MAX_JOINTS]; /* chain length from the joint to its tip */
    sw_vec3 lo = {0, 0, 0}, hi = {0, 0, 0};
    sw__rest_box(skeleton, model, &lo, &hi);
    for (uint32_t j = 0; j < n; ++j) {
        children[j] = 0;
        child[j] = -1;
    }
    for (uint32_t j = 0; j < n; ++j) {
        if (parents[j] >= 0) {
            ++children[parents[j]];
            child[parents[j]] = (int32_t)j;
        }
    }
    const float limit = fraction * sw__dist(lo, hi);
    uint32_t marked = 0;
    for (uint32_t jj = n; jj-- > 0;) { /* children before parents */
        chain[jj] = children[jj] == 0 || (children[jj] == 1 && chain[child[jj]]);
        below[jj] = children[jj] == 1 && chain[jj]
                        ? sw__dist(model[jj].t, model[child[jj]].t) + below[child[jj]]
                        : 0.0f;
    }
    for (uint32_t j = 0; j < n; ++j) {
        const int16_t p = parents[j];
        const bool small =
            p >= 0 && chain[j] && sw__dist(model[p].t, model[j].t) + below[j] < limit;
        out[j] = small ? 1u : 0u;
        marked += small;
    }
    return marked;
}

/* ---- create / destroy ----------------------------------------------------------------------- */

/* The description's counts, levels, palette and budget checked (all but
 * what needs the skeleton). */
static sw_result sw__crowd_check_desc(const sw_crowd_desc* desc, sw_error* err) {
    if (!desc || !desc->bound) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "bound", 0, -1);
    if ((uint32_t)desc->keep >= SW_ANIMATOR_KEEP_COUNT)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "keep", 0, -1);
    if (desc->characters_count == 0 || desc->characters_count > SW_CROWD_MAX_CHARACTERS) {
        return sw__fail(err, SW_RESULT_LIMIT, "characters_count", 0, -1);
    }
    if (desc->threads > SW_POOL_MAX_THREADS) {
        return sw__fail(err, SW_RESULT_LIMIT, "threads", 0, -1);
    }
    if (desc->levels_count > SW_CROWD_MAX_LEVELS || (desc->levels_count > 0 && !desc->levels)) {
        return sw__fail(err,
                        desc->levels_count > SW_CROWD_MAX_LEVELS ? SW_RESULT_LIMIT
                                                                 : SW_RESULT_INVALID_ARGUMENT,
                        "levels_count", 0, -1);
    }
    for (uint32_t l = 0; l < desc->levels_count; ++l) {
        const sw_crowd_level* lv = &desc->levels[l];
        if (lv->rate > SW_CROWD_MAX_RATE) return sw__fail(err, SW_RESULT_LIMIT, "rate", 0, l);
        if (!(lv->distance >= 0.0f) || !isfinite(lv->distance) ||
            (l > 0 && lv->distance < desc->levels[l - 1].distance)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "level distances sorted, finite, >= 0", 0, l);
        }
    }
    if ((desc->palette_count > 0) != (desc->inverse_bind != NULL) ||
        (desc->palette_joints && desc->palette_count == 0)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "inverse_bind with palette_count", 0, -1);
    }
    if (desc->palette_count > SW_CROWD_MAX_PALETTE) {
        return sw__fail(err, SW_RESULT_LIMIT, "palette_count", 0, -1);
    }
    if (!(desc->budget >= 0.0f) || !isfinite(desc->budget) || !(desc->budget_low >= 0.0f) ||
        !(desc->budget_low <= 1.0f)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "budget >= 0, budget_low in [0, 1]", 0, -1);
    }
    return SW_RESULT_OK;
}

/* The palette's joints (or its count without them) within the skeleton's
 * joints. */
static sw_result sw__crowd_check_palette(const sw_crowd_desc* desc, uint32_t joints,
                                         sw_error* err) {
    if (desc->palette_joints) {
        for (uint32_t k = 0; k < desc->palette_count; ++k) {
            if (desc->palette_joints[k] >= joints) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "palette joint < joints_count", 0, k);
            }
        }
    } else if (desc->palette_count > joints) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "palette_count <= joints_count without joints", 0,
                        -1);
    }

    return SW_RESULT_OK;
}

sw_result sw_crowd_create(const sw_crowd_desc* desc, const sw_allocator* alloc, sw_crowd** out,
                          sw_error* err) {
    if (!out) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "out", 0, -1);
    *out = NULL;
    sw_result rc = sw__crowd_check_desc(desc, err);
    if (rc != SW_RESULT_OK) return rc;
    const sw_animator_bound* b = desc->bound;
    const sw_skeleton* sk = sw_animator_bound_skeleton(b);
    if (!sk) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "bound", 0, -1);
    const uint32_t joints = sk->joints_count, packets = sk->packets_count;
    rc = sw__crowd_check_palette(desc, joints, err);
    if (rc != SW_RESULT_OK) return rc;

    sw_crowd h;
    memset(&h, 0, sizeof h);
    if (alloc) h.alloc = *alloc;
    h.bound = b;
    h.skeleton = sk;
    h.count = desc->characters_count;
    h.threads = desc->threads ? desc->threads : 1u;
    h.joints = joints;
    h.packets = packets;
    h.params_count = sw_animator_params_count(sw_animator_bound_definition(b));
    h.palette_count = desc->palette_count;
    h.levels_count = desc->levels_count ? desc->levels_count : 1u;
    h.inst_size = sw_animator_instance_size_keeping(b, desc->keep);
    h.scratch_size = sw_animator_scratch_size(b);
    h.post = desc->post;
    h.post_user = desc->post_user;
    h.post_every_frame = desc->post_every_frame;
    h.post_marks_dirty = desc->post_marks_dirty;
    h.history = sw_animator_inertializes(sw_animator_bound_definition(b));
    h.root_motion = b->root_joint != SW_ANIMATOR_NONE;
    h.budget = desc->budget;
    h.budget_low = desc->budget_low > 0.0f ? desc->budget_low : 0.8f;
    h.budget_patience = desc->budget_patience ? desc->budget_patience : 30u;

    /* Shared parts, then the characters, each part on its own cache lines. */
    uint64_t parts = sw__align_up(sizeof(sw_crowd), 64u);
    h.levels_off = (size_t)sw__layout_take(&parts, sizeof(sw_crowd_level) * h.levels_count, 64u);
    h.detail_off = (size_t)sw__layout_take(&parts, joints, 64u);
    h.keep_off = (size_t)sw__layout_take(&parts, (uint64_t)packets * h.levels_count, 64u);
    h.ibind_off = (size_t)sw__layout_take(&parts, sizeof(sw_mat4) * h.palette_count, 64u);
    h.pjoints_off = (size_t)sw__layout_take(&parts, sizeof(uint16_t) * h.palette_count, 64u);
    h.workers_off = (size_t)sw__layout_take(&parts, sizeof(sw__crowd_worker) * h.threads, 64u);
    h.scratch_off =
        (size_t)sw__layout_take(&parts, (size_t)sw__align_up(h.scratch_size, 64u) * h.threads, 64u);
    h.chars_off = (size_t)parts;
    const uint64_t pose = sizeof(sw_xform4) * packets;
    uint64_t c = sw__align_up(sizeof(sw__crowd_char), 64u);
    h.c_inst = (size_t)sw__layout_take(&c, h.inst_size, 64u);
    h.c_params = (size_t)sw__layout_take(&c, sizeof(float) * h.params_count, 64u);
    h.c_stride = (size_t)sw__align_up(c, 64u);
    uint64_t o = 0;
    h.c_key0 = (size_t)sw__layout_take(&o, pose, 64u);
    h.c_key1 = (size_t)sw__layout_take(&o, pose, 64u);
    h.c_out = (size_t)sw__layout_take(&o, pose, 64u);
    h.c_model = (size_t)sw__layout_take(&o, sizeof(sw_mat4) * joints, 64u);
    h.c_palette = (size_t)sw__layout_take(&o, sizeof(sw_mat4) * h.palette_count, 64u);
    h.o_stride = (size_t)sw__align_up(o, 64u);
    const size_t at = h.chars_off, per = h.c_stride + h.o_stride;
    if ((SIZE_MAX - at) / per < h.count) {
        return sw__fail(err, SW_RESULT_LIMIT, "crowd bytes", 0, -1);
    }
    h.outs_off = at + h.c_stride * h.count;
    h.bytes = h.outs_off + h.o_stride * h.count;

    char* mem = (char*)sw_alloc(alloc, h.bytes, 64);
    if (!mem) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "crowd memory", 0, -1);
    memset(mem, 0, h.bytes);
    sw_crowd* cr = (sw_crowd*)(void*)mem;
    *cr = h;
    sw_crowd_level* levels = (sw_crowd_level*)(void*)(mem + h.levels_off);
    for (uint32_t l = 0; l < desc->levels_count; ++l)
        levels[l] = desc->levels[l];
    for (uint32_t l = 0; l < h.levels_count; ++l) {
        if (levels[l].rate == 0) levels[l].rate = 1;
    }
    levels[0].distance = 0.0f;
    uint8_t* detail = (uint8_t*)(mem + h.detail_off);
    if (desc->joint_detail) {
        memcpy(detail, desc->joint_detail, joints);
    } else {
        sw_crowd_joint_detail(sk, 0.0f, detail, joints);
    }
    for (uint32_t l = 0; l < h.levels_count; ++l) {
        uint8_t* keep = (uint8_t*)(mem + h.keep_off + (size_t)l * packets);
        sw_joint_subset_from_detail(sk, detail, levels[l].joint_cut, keep, packets);
        /* NULL at a level that keeps every joint */
        cr->subsets[l] = sw__subset_of(levels[l].joint_cut ? keep : NULL, packets);
    }
    cr->priority_count[0] = h.count;
    cr->classes = 1;
    if (h.palette_count) {
        memcpy(mem + h.ibind_off, desc->inverse_bind, sizeof(sw_mat4) * h.palette_count);
        uint16_t* pj = (uint16_t*)(void*)(mem + h.pjoints_off);
        for (uint32_t k = 0; k < h.palette_count; ++k)
            pj[k] = desc->palette_joints ? desc->palette_joints[k] : (uint16_t)k;
    }
    const sw_animator* def = sw_animator_bound_definition(b);
    sw_xform model[SW_SKELETON_MAX_JOINTS];
    sw_vec3 lo = {0, 0, 0}, hi = {0, 0, 0};
    sw__rest_box(sk, model, &lo, &hi);
    const sw_vec3 center = {0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y), 0.5f * (lo.z + hi.z)};
    for (uint32_t i = 0; i < h.count; ++i) {
        sw_animator_instance* inst = NULL;
        sw_result r =
            sw_animator_instance_init_keeping(sw__inst(cr, i), h.inst_size, b, desc->keep, &inst);
        if (r == SW_RESULT_OK && h.params_count > 0) {
            r = sw_animator_params_reset(def, sw__params(cr, i), h.params_count);
        }
        if (r != SW_RESULT_OK) {
            sw_free(alloc, mem, h.bytes);
            return sw__fail(err, r, "animator instance", 0, i);
        }
        sw__crowd_char* ch = sw__char(cr, i);
        ch->gap = 1;
        ch->visible = true;
        ch->center = center;
        ch->radius = 0.5f * sw__dist(lo, hi);
    }
    *out = cr;
    return SW_RESULT_OK;
}

void sw_crowd_destroy(sw_crowd* crowd) {
    if (!crowd) return;
    const sw_allocator alloc = crowd->alloc;
    sw_free(&alloc, crowd, crowd->bytes);
}

/* ---- update --------------------------------------------------------------------------------- */

/* Advances the character's animator by one step of s seconds (clamped to >= 0). */
static sw_result sw__advance(const sw_crowd* c, uint32_t i, sw__crowd_char* ch, float s) {
    if (!(s > 0.0f)) s = 0.0f;
    if (!(s <= FLT_MAX)) return SW_RESULT_INVALID_ARGUMENT; /* as sw_animator_update */
    uint32_t events = 0;
    sw_animator_root_motion step;
    /* the bound was checked at create */
    sw_result r = sw__animator_step(sw__inst(c, i), c->bound, sw__params(c, i), c->params_count, s,
                                    NULL, 0, &events, c->root_motion ? &step : NULL);
    if (r != SW_RESULT_OK) return r;
    ch->lead += (double)s;
    /* without a root joint every step is zero and the sum stays +0 */
    if (!c->root_motion) return SW_RESULT_OK;
    /* compose: translation in the frame at the first step, yaw summed
     * (no turn so far, the usual case: cos 1 and sin +-0, as cosf, sinf give) */
    const float yaw = ch->rm.yaw;
    const float co = yaw == 0.0f ? 1.0f : cosf(yaw), si = yaw == 0.0f ? yaw : sinf(yaw);
    ch->rm.translation.x += co * step.translation.x + si * step.translation.z;
    ch->rm.translation.z += -si * step.translation.x + co * step.translation.z;
    ch->rm.yaw += step.yaw;
    return SW_RESULT_OK;
}

/* Advances by `steps` frames of dt in ONE animator update, so that the
 * animator ends `steps` dts ahead of the shown time: the step also absorbs
 * what the clock is off by (an animator cannot go back, so when it is ahead
 * by more than that, after a dt drop, the step is 0). */
static sw_result sw__advance_frames(const sw_crowd* c, uint32_t i, sw__crowd_char* ch,
                                    uint32_t steps, float dt) {
    const double total = (double)steps * (double)dt - ch->lead;
    return sw__advance(c, i, ch, total > 0.0 ? (float)total : 0.0f);
}

/* Evaluates the character's animator for the joints its level keeps;
 * `outside_rest`: out holds rest values outside the level's span of kept
 * joints (sw__animator_evaluate_with). */
static sw_result sw__evaluate(const sw_crowd* c, uint32_t i, uint32_t worker, sw_xform4* out,
                              bool outside_rest) {
    void* scratch = sw__crowd_at(
        c, c->scratch_off + (size_t)worker * (size_t)sw__align_up(c->scratch_size, 64u));
    const sw__subset* s = &c->subsets[sw__char(c, i)->level];
    return sw__animator_evaluate_with(sw__inst(c, i), c->bound, s, outside_rest, scratch, out);
}

/* The character's LOD level this frame (distance plus bias), counted. */
static uint32_t sw__level(const sw_crowd* c, sw__crowd_char* ch, sw_crowd_stats* st) {
    uint32_t level = 0;
    if (c->levels_count > 1u) { /* one level: no distance to measure, no bias */
        const sw_crowd_level* levels = sw__levels(c);
        const float dist = sw__dist(ch->position, c->viewpoint);
        for (uint32_t l = 1; l < c->levels_count; ++l) {
            if (dist >= levels[l].distance) level = l;
        }
        /* the bias demotes the lowest priority class first (see the top) */
        const uint32_t steps = c->levels_count - 1u, before = c->rank[ch->priority] * steps;
        uint32_t shift = c->bias > before ? c->bias - before : 0u;
        shift = shift < steps ? shift : steps;
        level = level + shift < c->levels_count ? level + shift : c->levels_count - 1u;
    }
    ch->level = level;
    ++st->per_level[level];
    return level;
}

/* The caller's flag, and the bounding sphere inside every plane of the view. */
static bool sw__visible(const sw_crowd* c, const sw__crowd_char* ch) {
    if (!ch->visible) return false;
    const sw_vec3 p = sw_vec3_add(ch->position, ch->center);
    for (uint32_t k = 0; k < c->planes_count; ++k) {
        if (sw_vec3_dot(c->planes[k].normal, p) + c->planes[k].d < -ch->radius) return false;
    }
    return true;
}

/* True when the animator's next evaluation would repeat its last one and
 * the post callback (if any) promised to report its own inputs. */
static bool sw__unchanged(const sw_crowd* c, uint32_t i, const sw__crowd_char* ch) {
    return !ch->dirty && (!c->post || c->post_marks_dirty) &&
           !sw_animator_pose_changed(sw__inst(c, i), c->bound);
}

/* An off-screen frame: the animator's clock, states and root motion move as
 * when shown (a sliced character between its keys already stands at the
 * next key), without pose work; the outputs keep the last shown pose. */
static sw_result sw__hidden(const sw_crowd* c, uint32_t i, sw__crowd_char* ch) {
    sw_result r = SW_RESULT_OK;
    if (!ch->ahead || ch->k >= ch->gap) {
        ch->ahead = false;
        ch->k = 0;
        ch->gap = 1;
        r = sw__advance(c, i, ch, (float)-ch->lead);
    }
    /* only output history needs the pose's inputs now (listing them is
     * left to the frame the character is shown again) */
    if (r == SW_RESULT_OK && c->history && !sw_animator_pose_changed(sw__inst(c, i), c->bound)) {
        r = sw_animator_reuse_pose(sw__inst(c, i), c->bound);
    }
    return r;
}

/* What sw__pose left in the character's local pose. */
typedef struct sw__shown {
    bool posted; /* post-processed already */
    bool latest; /* the animator's last evaluation (not an interpolation or key A) */
    bool kept;   /* unchanged: the outputs of the last frame stand, nothing more to do */
    bool direct; /* evaluated into the outputs (with rest values in the left-out joints) */
} sw__shown;

/* The key frames of a sliced character: B becomes A (or A is evaluated),
 * then the animator is advanced to the next key and B evaluated (or copied
 * from A when nothing changed). */
static sw_result sw__sliced_key(const sw_crowd* c, uint32_t i, sw__crowd_char* ch, uint32_t worker,
                                uint32_t rate, sw_crowd_post_fn key_post, sw_crowd_stats* st) {
    sw_result r = SW_RESULT_OK;
    if (ch->ahead) {
        ch->a ^= 1u; /* B becomes A */
    } else {
        sw_xform4* a = sw__key(c, i, ch->a);
        r = sw__advance(c, i, ch, (float)-ch->lead);
        if (r == SW_RESULT_OK) r = sw__evaluate(c, i, worker, a, false);
        if (r == SW_RESULT_OK && key_post) key_post(c->post_user, i, a, c->packets, worker);
        ++st->evaluations;
    }
    const uint32_t gap = rate - (uint32_t)((c->frame + i) % rate);
    sw_xform4* b = sw__key(c, i, ch->a ^ 1u);
    if (r == SW_RESULT_OK) r = sw__advance_frames(c, i, ch, gap, c->dt);
    if (r == SW_RESULT_OK && sw__unchanged(c, i, ch)) {
        r = sw_animator_reuse_pose(sw__inst(c, i), c->bound);
        memcpy(b, sw__key(c, i, ch->a), sizeof(sw_xform4) * c->packets);
        ++st->unchanged;
    } else if (r == SW_RESULT_OK) {
        r = sw__evaluate(c, i, worker, b, false);
        if (r == SW_RESULT_OK && key_post) key_post(c->post_user, i, b, c->packets, worker);
        ++st->evaluations;
    }
    ch->ahead = true;
    ch->gap = gap;
    return r;
}

/* The local pose a shown character shows this frame (see the top of
 * crowd.h): rate 1 evaluates (or keeps its outputs when nothing changed),
 * sliced characters evaluate at keys and interpolate in between. */
static sw_result sw__pose(const sw_crowd* c, uint32_t i, sw__crowd_char* ch, uint32_t worker,
                          uint32_t level, sw_crowd_stats* st, sw__shown* shown) {
    const sw_crowd_level* lv = &sw__levels(c)[level];
    sw_xform4* out = sw__out(c, i);
    /* The post callback runs on every pose the animator evaluates (so the
     * key buffers hold finished poses) unless the user wants it per frame. */
    sw_crowd_post_fn key_post = c->post_every_frame ? NULL : c->post;
    sw_result r = SW_RESULT_OK;
    memset(shown, 0, sizeof *shown);
    if (ch->ahead && ch->k < ch->gap) { /* between keys: interpolate A -> B */
        /* the interpolation kernel directly (the blend job's validation and
         * weight normalisation are not needed for two full poses) */
        const float t = (float)ch->k / (float)ch->gap;
        sw__soa_best()->interp(sw__key(c, i, ch->a), sw__key(c, i, ch->a ^ 1u), t, out, c->packets);
        shown->posted = key_post != NULL;
        ++st->interpolated;
        return r;
    }
    if (lv->rate > 1) {
        r = sw__sliced_key(c, i, ch, worker, lv->rate, key_post, st);
        memcpy(out, sw__key(c, i, ch->a), sizeof(sw_xform4) * c->packets);
        shown->posted = key_post != NULL;
    } else if (ch->ahead) {
        memcpy(out, sw__key(c, i, ch->a ^ 1u), sizeof(sw_xform4) * c->packets);
        shown->posted = key_post != NULL;
        shown->latest = true;
    } else {
        r = sw__advance(c, i, ch, (float)-ch->lead);
        shown->latest = true;
        if (r == SW_RESULT_OK && ch->fresh && ch->cut == lv->joint_cut && sw__unchanged(c, i, ch)) {
            r = sw_animator_reuse_pose(sw__inst(c, i), c->bound);
            shown->kept = true;
            ++st->unchanged;
        } else if (r == SW_RESULT_OK) {
            /* the left-out joints past the span hold rest values still
             * when the last frame shown left them so at this cut */
            r = sw__evaluate(c, i, worker, out, ch->rest && ch->cut == lv->joint_cut);
            shown->direct = true;
            ++st->evaluations;
        }
    }
    if (lv->rate == 1) {
        ch->ahead = false;
        ch->gap = 1;
    }
    ch->k = 0;
    return r;
}

/* Post callback (unless done), joint LOD, local-to-model and palette of the
 * character's local pose. */
static sw_result sw__outputs(const sw_crowd* c, uint32_t i, uint32_t worker, uint32_t level,
                             const sw__shown* shown) {
    sw_xform4* out = sw__out(c, i);
    if (c->post && !shown->posted) c->post(c->post_user, i, out, c->packets, worker);
    const uint8_t* keep = c->subsets[level].keep;
    /* the post callback, or keys evaluated at another level (slicing, and
     * the key B a character shows when its level stops slicing), may have
     * moved left-out joints */
    if (keep && (c->post || !shown->direct))
        sw__subset_fill_rest(keep, sw_skeleton_rest_pose(c->skeleton), out, c->packets);
    /* Left-out joints now hold their rest values, so the whole-skeleton job
     * gives the matrices of the job with the subset, bit for bit (one
     * kernel pass, lanes independent), without its per-packet lane select. */
    sw_local_to_model_job lj;
    memset(&lj, 0, sizeof lj);
    lj.skeleton = c->skeleton;
    lj.local = out;
    lj.local_count = c->packets;
    lj.out = sw__model(c, i);
    lj.out_count = c->joints;
    sw_result r = sw_local_to_model_job_run(&lj);
    if (r != SW_RESULT_OK || c->palette_count == 0) return r;
    sw_skinning_job sj;
    memset(&sj, 0, sizeof sj);
    sj.model = sw__model(c, i);
    sj.model_count = c->joints;
    sj.joints = (const uint16_t*)(const void*)sw__crowd_at(c, c->pjoints_off);
    sj.inverse_bind = (const sw_mat4*)(const void*)sw__crowd_at(c, c->ibind_off);
    sj.count = c->palette_count;
    sj.out = sw__palette(c, i);
    sj.out_count = c->palette_count;
    return sw_skinning_job_run(&sj);
}

static sw_result sw__character(const sw_crowd* c, uint32_t i, uint32_t worker) {
    sw__crowd_char* ch = sw__char(c, i);
    sw_crowd_stats* st = &sw__workers(c)[worker].stats;
    const uint32_t level = sw__level(c, ch, st);
    memset(&ch->rm, 0, sizeof ch->rm);
    ch->lead -= (double)c->dt;
    if (ch->ahead) ++ch->k;
    ch->shown = ch->force || sw__visible(c, ch);
    if (!ch->shown) {
        ++st->hidden;
        return sw__hidden(c, i, ch);
    }
    sw__shown shown;
    const uint32_t cut = sw__levels(c)[level].joint_cut;
    sw_result r = sw__pose(c, i, ch, worker, level, st, &shown);
    if (r == SW_RESULT_OK && !shown.kept) r = sw__outputs(c, i, worker, level, &shown);
    ch->fresh = r == SW_RESULT_OK && shown.latest;
    ch->cut = cut;
    ch->rest = r == SW_RESULT_OK; /* sw__outputs left them at rest, or kept them */
    if (r == SW_RESULT_OK) ch->dirty = false;
    return r;
}

static void sw__crowd_range(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    const sw_crowd* c = (const sw_crowd*)ctx;
    sw__crowd_worker* w = &sw__workers(c)[worker];
    for (uint32_t i = begin; i < end; ++i) {
        const sw_result r = sw__character(c, i, worker);
        if (r != SW_RESULT_OK && w->result == SW_RESULT_OK) w->result = r;
    }
}

/* The rank of each priority among those in use, their number, and the bias
 * kept within what they allow. */
static void sw__crowd_ranks(sw_crowd* c) {
    uint32_t k = 0;
    for (uint32_t p = 0; p <= SW_CROWD_MAX_PRIORITY; ++p) {
        c->rank[p] = k;
        k += c->priority_count[p] > 0 ? 1u : 0u;
    }
    c->classes = k > 0 ? k : 1u;
    const uint32_t most = c->classes * (c->levels_count - 1u);
    if (c->bias > most) c->bias = most;
}

sw_result sw_crowd_update(sw_crowd* crowd, float dt, sw_vec3 viewpoint, sw_pool* pool) {
    if (!crowd || !(dt >= 0.0f) || !isfinite(dt)) return SW_RESULT_INVALID_ARGUMENT;
    if (!isfinite(viewpoint.x) || !isfinite(viewpoint.y) || !isfinite(viewpoint.z)) {
        return SW_RESULT_INVALID_ARGUMENT;
    }
    if (pool && sw_pool_threads(pool) > crowd->threads) return SW_RESULT_LIMIT;
    crowd->dt = dt;
    crowd->viewpoint = viewpoint;
    sw__crowd_ranks(crowd);
    sw__crowd_worker* w = sw__workers(crowd);
    for (uint32_t t = 0; t < crowd->threads; ++t) {
        memset(&w[t].stats, 0, sizeof w[t].stats);
        w[t].result = SW_RESULT_OK;
    }
    sw_result r = SW_RESULT_OK;
    if (pool) {
        r = sw_pool_run(pool, sw__crowd_range, crowd, crowd->count, 0);
    } else {
        sw__crowd_range(crowd, 0, crowd->count, 0);
    }
    ++crowd->frame;
    for (uint32_t t = 0; t < crowd->threads && r == SW_RESULT_OK; ++t)
        r = w[t].result;
    return r;
}

/* ---- budget and accessors ------------------------------------------------------------------- */

uint32_t sw_crowd_feed_time(sw_crowd* crowd, float seconds) {
    if (!crowd) return 0;
    if (!(crowd->budget > 0.0f) || !(seconds >= 0.0f) || !isfinite(seconds)) return crowd->bias;
    if (seconds > crowd->budget) {
        if (crowd->bias < crowd->classes * (crowd->levels_count - 1u)) ++crowd->bias;
        crowd->calm = 0;
    } else if (seconds < crowd->budget_low * crowd->budget) {
        if (++crowd->calm >= crowd->budget_patience) {
            if (crowd->bias > 0) --crowd->bias;
            crowd->calm = 0;
        }
    } else {
        crowd->calm = 0;
    }
    return crowd->bias;
}

uint32_t sw_crowd_lod_bias(const sw_crowd* crowd) {
    return crowd ? crowd->bias : 0u;
}

uint32_t sw_crowd_characters_count(const sw_crowd* crowd) {
    return crowd ? crowd->count : 0u;
}

uint32_t sw_crowd_params_count(const sw_crowd* crowd) {
    return crowd ? crowd->params_count : 0u;
}

float* sw_crowd_params(sw_crowd* crowd, uint32_t i) {
    return crowd && i < crowd->count ? sw__params(crowd, i) : NULL;
}

sw_animator_instance* sw_crowd_instance(sw_crowd* crowd, uint32_t i) {
    return crowd && i < crowd->count ? sw__inst(crowd, i) : NULL;
}

void sw_crowd_set_position(sw_crowd* crowd, uint32_t i, sw_vec3 position) {
    if (crowd && i < crowd->count) sw__char(crowd, i)->position = position;
}

sw_vec3 sw_crowd_position(const sw_crowd* crowd, uint32_t i) {
    const sw_vec3 zero = {0.0f, 0.0f, 0.0f};
    return crowd && i < crowd->count ? sw__char(crowd, i)->position : zero;
}

const sw_xform4* sw_crowd_local_pose(const sw_crowd* crowd, uint32_t i) {
    return crowd && i < crowd->count ? sw__out(crowd, i) : NULL;
}

const sw_mat4* sw_crowd_model(const sw_crowd* crowd, uint32_t i) {
    return crowd && i < crowd->count ? sw__model(crowd, i) : NULL;
}

const sw_mat4* sw_crowd_palette(const sw_crowd* crowd, uint32_t i) {
    return crowd && i < crowd->count && crowd->palette_count ? sw__palette(crowd, i) : NULL;
}

uint32_t sw_crowd_character_level(const sw_crowd* crowd, uint32_t i) {
    return crowd && i < crowd->count ? sw__char(crowd, i)->level : 0u;
}

sw_animator_root_motion sw_crowd_root_motion(const sw_crowd* crowd, uint32_t i) {
    sw_animator_root_motion zero;
    memset(&zero, 0, sizeof zero);
    return crowd && i < crowd->count ? sw__char(crowd, i)->rm : zero;
}

void sw_crowd_mark_dirty(sw_crowd* crowd, uint32_t i) {
    if (crowd && i < crowd->count) sw__char(crowd, i)->dirty = true;
}

void sw_crowd_set_visible(sw_crowd* crowd, uint32_t i, bool visible) {
    if (crowd && i < crowd->count) sw__char(crowd, i)->visible = visible;
}

sw_result sw_crowd_set_priority(sw_crowd* crowd, uint32_t i, uint32_t priority) {
    if (!crowd || i >= crowd->count) return SW_RESULT_INVALID_ARGUMENT;
    if (priority > SW_CROWD_MAX_PRIORITY) return SW_RESULT_LIMIT;
    sw__crowd_char* ch = sw__char(crowd, i);
    --crowd->priority_count[ch->priority];
    ++crowd->priority_count[priority];
    ch->priority = priority;
    return SW_RESULT_OK;
}

uint32_t sw_crowd_priority(const sw_crowd* crowd, uint32_t i) {
    return crowd && i < crowd->count ? sw__char(crowd, i)->priority : 0u;
}

void sw_crowd_set_force(sw_crowd* crowd, uint32_t i, bool force) {
    if (crowd && i < crowd->count) sw__char(crowd, i)->force = force;
}

sw_result sw_crowd_set_bounds(sw_crowd* crowd, uint32_t i, sw_vec3 center, float radius) {
    if (!crowd || i >= crowd->count) return SW_RESULT_INVALID_ARGUMENT;
    if (!isfinite(center.x) || !isfinite(center.y) || !isfinite(center.z) || !(radius >= 0.0f) ||
        !isfinite(radius)) {
        return SW_RESULT_BAD_DATA;
    }
    sw__crowd_char* ch = sw__char(crowd, i);
    ch->center = center;
    ch->radius = radius;
    return SW_RESULT_OK;
}

bool sw_crowd_character_shown(const sw_crowd* crowd, uint32_t i) {
    return crowd && i < crowd->count && sw__char(crowd, i)->shown;
}

sw_result sw_crowd_set_view(sw_crowd* crowd, const sw_crowd_plane* planes, uint32_t count) {
    if (!crowd || (!planes && count > 0)) return SW_RESULT_INVALID_ARGUMENT;
    if (count > SW_CROWD_MAX_PLANES) return SW_RESULT_LIMIT;
    for (uint32_t k = 0; k < count; ++k) {
        const sw_crowd_plane* p = &planes[k];
        if (!isfinite(p->normal.x) || !isfinite(p->normal.y) || !isfinite(p->normal.z) ||
            !isfinite(p->d)) {
            return SW_RESULT_BAD_DATA;
        }
    }
    if (count > 0) memcpy(crowd->planes, planes, sizeof(sw_crowd_plane) * count);
    crowd->planes_count = count;
    return SW_RESULT_OK;
}

uint32_t sw_crowd_frustum_planes(const sw_mat4* view_proj, sw_crowd_plane out[6]) {
    if (!view_proj || !out) return 0;
    const float* m = view_proj->m; /* row r of the matrix: m[r], m[4 + r], m[8 + r], m[12 + r] */
    for (uint32_t k = 0; k < 6u; ++k) {
        const uint32_t r = k / 2u; /* x, y, z rows: w + row (k even), w - row (k odd) */
        const float sign = (k % 2u) ? -1.0f : 1.0f;
        const sw_vec3 n = {m[3] + sign * m[r], m[7] + sign * m[4 + r], m[11] + sign * m[8 + r]};
        const float d = m[15] + sign * m[12 + r];
        const float len = sw_vec3_length(n);
        if (!(len > 0.0f) || !isfinite(len) || !isfinite(d)) return 0;
        out[k].normal = sw_vec3_scale(n, 1.0f / len);
        out[k].d = d / len;
    }
    return 6u;
}

const uint8_t* sw_crowd_joint_details(const sw_crowd* crowd) {
    return crowd ? sw__detail(crowd) : NULL;
}

void sw_crowd_get_stats(const sw_crowd* crowd, sw_crowd_stats* out) {
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!crowd) return;
    const sw__crowd_worker* w = sw__workers(crowd);
    for (uint32_t t = 0; t < crowd->threads; ++t) {
        out->evaluations += w[t].stats.evaluations;
        out->interpolated += w[t].stats.interpolated;
        out->unchanged += w[t].stats.unchanged;
        out->hidden += w[t].stats.hidden;
        for (uint32_t l = 0; l < SW_CROWD_MAX_LEVELS; ++l)
            out->per_level[l] += w[t].stats.per_level[l];
    }
}
