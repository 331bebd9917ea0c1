/* Records of the animator definition, bound and instance blocks, shared by
 * animator.c (definition, binding) and animator_instance.c (update,
 * evaluate). Not installed; names use the sw__ prefix. */
#ifndef SINEW_RUNTIME_ANIMATOR_INTERNAL_H
#define SINEW_RUNTIME_ANIMATOR_INTERNAL_H

#include "runtime/core/internal.h"
#include "sinew/animator/animator.h"

#define SW__ANIMATOR_MAGIC 0x4D494E41u /* "ANIM" */
#define SW__BOUND_MAGIC 0x444E4241u    /* "ABND" */
#define SW__INSTANCE_MAGIC 0x53494E41u /* "ANIS" */
#define SW__ANIM_MAX_MARKS 16u         /* sync marker events per clip */
/* Block format: 1 since transitions carry time windows and offsets and the
 * header the hit parameters (blocks from before hold 0 there and fail to load). */
#define SW__ANIMATOR_FORMAT 1u

typedef struct sw__anim_param {
    uint32_t name;
    uint32_t type; /* never DEFAULT */
    float value;
} sw__anim_param;

typedef struct sw__anim_bspace {
    uint32_t name;
    uint32_t param_x, param_y; /* param_y NONE: 1D */
    uint32_t first_member, members_count;
    uint32_t first_marker, markers_count;
    uint32_t directional; /* 2D: polar gradient bands */
} sw__anim_bspace;

typedef struct sw__anim_member {
    uint32_t clip;
    float x, y;
} sw__anim_member;

typedef struct sw__anim_machine {
    uint32_t name;
    uint32_t first_state, states_count;
    uint32_t first_transition, transitions_count;
    uint32_t entry;       /* global state */
    uint32_t owner_state; /* global state nesting it, NONE for a layer's machine */
    uint32_t layer;
    uint32_t depth;
} sw__anim_machine;

typedef struct sw__anim_state {
    uint32_t name;
    uint32_t machine;
    uint32_t motion; /* sw_animator_motion */
    uint32_t target; /* clip slot, blend space or machine */
    uint32_t once;
    float speed;
    uint32_t speed_param; /* NONE: none */
} sw__anim_state;

typedef struct sw__anim_transition {
    uint32_t from; /* global state, NONE: any */
    uint32_t to;
    uint32_t first_cond, conds_count;
    uint32_t has_exit;
    float exit_time;
    float duration;
    uint32_t mode; /* CROSSFADE or INERTIALIZE */
    uint32_t interrupt;
    uint32_t to_self;
    uint32_t has_window;
    float window_start, window_end; /* normalized time of the source in its cycle */
    float offset;                   /* normalized start time of the destination */
} sw__anim_transition;

typedef struct sw__anim_cond {
    uint32_t param;
    uint32_t op;
    float value;
} sw__anim_cond;

typedef struct sw__anim_layer {
    uint32_t name;
    uint32_t machine;
    uint32_t mode; /* OVERRIDE or ADDITIVE */
    float weight;
    uint32_t weight_param;
    uint32_t first_mask, mask_count;
    uint32_t reference; /* FIRST_FRAME or REST_POSE */
    uint32_t max_contrib;
} sw__anim_layer;

typedef struct sw__anim_mask {
    uint32_t joint;
    float weight;
} sw__anim_mask;

struct sw_animator {
    uint32_t magic;
    uint32_t size;
    uint32_t params_count, params_offset;
    uint32_t clips_count, clips_offset;
    uint32_t bspaces_count, bspaces_offset;
    uint32_t members_offset, markers_offset;
    uint32_t machines_count, machines_offset, order_offset;
    uint32_t states_count, states_offset;
    uint32_t transitions_count, transitions_offset, conditions_offset;
    uint32_t layers_count, layers_offset, masks_offset;
    uint32_t strings_offset;
    uint32_t root_name, has_root;
    float event_threshold;
    uint32_t has_inertialize;
    uint32_t max_contrib; /* over layers */
    uint32_t members_count, markers_count, conditions_count, masks_count;
    uint32_t strings_size;  /* bytes of the string pool */
    uint32_t format;        /* SW__ANIMATOR_FORMAT */
    uint32_t hit_params[4]; /* x, y, strength, trigger: parameter or NONE */
    /* speed, strafe, turn (sw_animator_move_desc): parameter + 1, 0 for none
     * (so blocks from before, which hold zero here, declare none) */
    uint32_t move_params[3];
};

#define SW__ANIM_ARRAY(type, fn, field)                                                            \
    static inline const type* fn(const sw_animator* a) {                                           \
        return (const type*)(const void*)((const char*)a + a->field);                              \
    }
SW__ANIM_ARRAY(sw__anim_param, sw__anim_params, params_offset)
SW__ANIM_ARRAY(uint32_t, sw__anim_clip_names, clips_offset)
SW__ANIM_ARRAY(sw__anim_bspace, sw__anim_bspaces, bspaces_offset)
SW__ANIM_ARRAY(sw__anim_member, sw__anim_members, members_offset)
SW__ANIM_ARRAY(uint32_t, sw__anim_markers, markers_offset)
SW__ANIM_ARRAY(sw__anim_machine, sw__anim_machines, machines_offset)
SW__ANIM_ARRAY(uint32_t, sw__anim_order, order_offset)
SW__ANIM_ARRAY(sw__anim_state, sw__anim_states, states_offset)
SW__ANIM_ARRAY(sw__anim_transition, sw__anim_transitions, transitions_offset)
SW__ANIM_ARRAY(sw__anim_cond, sw__anim_conds, conditions_offset)
SW__ANIM_ARRAY(sw__anim_layer, sw__anim_layers, layers_offset)
SW__ANIM_ARRAY(sw__anim_mask, sw__anim_masks, masks_offset)
#undef SW__ANIM_ARRAY

static inline const char* sw__anim_str(const sw_animator* a, uint32_t off) {
    return (const char*)a + off; /* absolute offset inside the block */
}

struct sw_animator_bound {
    uint32_t magic;
    uint32_t size;
    const sw_animator* def;
    const sw_skeleton* skeleton;
    uint32_t clips_offset;  /* const sw_clip*[clips_count] */
    uint32_t tables_offset; /* const uint32_t*[clips_count]: each slot's shared table or NULL */
    uint32_t masks_offset;  /* float[masked layers][packets * 4] */
    uint32_t marks_offset;  /* double[...]: per synced member, (SW__ANIM_MAX_MARKS + 1) positions */
    uint32_t packets;
    /* words per sampling cache of an instance keeping `keep`
     * (sw_animator_keep): the largest sw_sample_cache_size of a slot it caches
     * (sw_sample_cache_size_with_table for a slot with a shared table) */
    uint32_t cursors[SW_ANIMATOR_KEEP_COUNT];
    uint32_t root_joint;  /* NONE: no root motion */
    sw_xform root_parent; /* model transform of the root joint's parent at rest */
    sw_xform root_parent_inv;
    uint32_t mask_index[SW_ANIMATOR_MAX_LAYERS]; /* NONE: no mask */
    uint32_t marks_index[SW_ANIMATOR_MAX_BLEND_SPACES];
    uint32_t marks_count[SW_ANIMATOR_MAX_BLEND_SPACES]; /* markers per cycle, 0: no sync */
    /* bit s: slot s's clip gets a sampling cache in an instance keeping
     * `keep` (sw__bound_clip_caches) */
    uint32_t cached[SW_ANIMATOR_KEEP_COUNT][SW_ANIMATOR_MAX_CLIPS / 32u];
    /* the sampling caches of layer l in an instance keeping `keep`:
     * [caches_first[keep][l], caches_first[keep][l + 1]), one per cached clip
     * slot the layer's states may play, at most its playing clips
     * (sw__bind_caches) */
    uint32_t caches_first[SW_ANIMATOR_KEEP_COUNT][SW_ANIMATOR_MAX_LAYERS + 1u];
    /* slot s: its sampling jobs get no subset when the subset keeps every
     * joint below this (a quantized clip's animated tracks move none of the
     * others; a frames clip gets the span of the subset apart; raw clips,
     * UINT16_MAX, skip the left-out joints' tracks) */
    uint16_t keep_end[SW_ANIMATOR_MAX_CLIPS];
};

static inline const sw_clip* const* sw__bound_clips(const sw_animator_bound* b) {
    return (const sw_clip* const*)(const void*)((const char*)b + b->clips_offset);
}

/* Each clip slot's shared table (sw_animator_bind_tables), NULL: none. */
static inline const uint32_t* const* sw__bound_tables(const sw_animator_bound* b) {
    return (const uint32_t* const*)(const void*)((const char*)b + b->tables_offset);
}

static inline bool sw__bound_cached(const sw_animator_bound* b, uint32_t keep, uint32_t slot) {
    return (b->cached[keep][slot / 32u] >> (slot % 32u)) & 1u;
}

/* sw_animator_evaluate_subset after its checks, for a caller that made
 * them once (the crowd: the instance of its bound, its aligned scratch of
 * sw_animator_scratch_size bytes and output pose of the bound's packets,
 * apart from each other and the subset), with the subset worked out (s:
 * sw__subset_of(keep, the bound's packets)) and, with outside_rest, out's
 * packets outside s's span taken to hold the rest pose's values already
 * (left as they are when a single normal layer blends into out: the
 * crowd's outputs, from its last evaluation at the same subset). */
sw_result sw__animator_evaluate_with(sw_animator_instance* inst, const sw_animator_bound* bound,
                                     const sw__subset* s, bool outside_rest, void* scratch,
                                     sw_xform4* out);

/* sw_animator_update after the checks of its arguments other than the
 * instance and params_count, for a caller that made them once (the crowd:
 * its bound, a non-null parameter array, dt >= 0 and finite, events NULL
 * with capacity 0 or an array of that capacity): the same result and
 * effects. */
sw_result sw__animator_step(sw_animator_instance* inst, const sw_animator_bound* bound,
                            float* params, uint32_t params_count, float dt,
                            sw_animator_event* events, uint32_t events_capacity,
                            uint32_t* events_count, sw_animator_root_motion* root_motion);

#endif
