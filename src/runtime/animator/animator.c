/* Animator definitions: building the block from a desc, lookups by name, and
 * binding a definition to a skeleton and its clips.
 *
 * Block layout (offsets from the header, every array 4-byte aligned, whole
 * block a multiple of 16):
 *     sw_animator header
 *     params        sw__anim_param[params_count]
 *     clips         uint32_t[clips_count]        name offsets of the clip slots
 *     blend spaces  sw__anim_bspace[]
 *     members       sw__anim_member[]            1D spaces sorted by x
 *     markers       uint32_t[]                   sync marker name offsets
 *     machines      sw__anim_machine[]
 *     order         uint32_t[machines_count]     by layer, owners before nested
 *     states        sw__anim_state[]             machine by machine
 *     transitions   sw__anim_transition[]        machine by machine, desc order
 *     conditions    sw__anim_cond[]
 *     layers        sw__anim_layer[]
 *     masks         sw__anim_mask[]
 *     strings       NUL-terminated names (offset 0 of the pool is "")
 *
 * The whole desc is checked (one pass that also counts bytes), then written.
 * The instance side (update, evaluate) is in animator_instance.c; both share
 * animator_internal.h. */
#include <string.h>

#include "animator_internal.h"
#include "runtime/codecs/codec_quantized.h"
#include "sinew/codecs/codec.h"

/* ---- enum words ------------------------------------------------------------- */

#define SW__ANIM_WORD(name, word) word,
static const char* const sw__anim_words_param_type[] = {SW_ANIMATOR_PARAM_TYPE_LIST(SW__ANIM_WORD)};
static const char* const sw__anim_words_motion[] = {SW_ANIMATOR_MOTION_LIST(SW__ANIM_WORD)};
static const char* const sw__anim_words_op[] = {SW_ANIMATOR_OP_LIST(SW__ANIM_WORD)};
static const char* const sw__anim_words_transition_mode[] = {
    SW_ANIMATOR_TRANSITION_MODE_LIST(SW__ANIM_WORD)};
static const char* const sw__anim_words_interrupt[] = {SW_ANIMATOR_INTERRUPT_LIST(SW__ANIM_WORD)};
static const char* const sw__anim_words_layer_mode[] = {SW_ANIMATOR_LAYER_MODE_LIST(SW__ANIM_WORD)};
static const char* const sw__anim_words_reference[] = {SW_ANIMATOR_REFERENCE_LIST(SW__ANIM_WORD)};
static const char* const sw__anim_words_event_kind[] = {SW_ANIMATOR_EVENT_KIND_LIST(SW__ANIM_WORD)};
#undef SW__ANIM_WORD

static const struct {
    const char* const* words;
    uint32_t count;
} sw__anim_enums[SW_ANIMATOR_ENUM_COUNT] = {
    {sw__anim_words_param_type, SW_ANIMATOR_PARAM_TYPE_COUNT},
    {sw__anim_words_motion, SW_ANIMATOR_MOTION_COUNT},
    {sw__anim_words_op, SW_ANIMATOR_OP_COUNT},
    {sw__anim_words_transition_mode, SW_ANIMATOR_TRANSITION_MODE_COUNT},
    {sw__anim_words_interrupt, SW_ANIMATOR_INTERRUPT_COUNT},
    {sw__anim_words_layer_mode, SW_ANIMATOR_LAYER_MODE_COUNT},
    {sw__anim_words_reference, SW_ANIMATOR_REFERENCE_COUNT},
    {sw__anim_words_event_kind, SW_ANIMATOR_EVENT_KIND_COUNT},
};

uint32_t sw_animator_enum_count(sw_animator_enum e) {
    return (uint32_t)e < SW_ANIMATOR_ENUM_COUNT ? sw__anim_enums[e].count : 0u;
}

const char* sw_animator_enum_word(sw_animator_enum e, uint32_t value) {
    if (value >= sw_animator_enum_count(e)) return NULL;
    return sw__anim_enums[e].words[value];
}

/* ---- strings ---------------------------------------------------------------- */

static size_t sw__anim_len(const char* s) {
    const void* z = memchr(s, 0, SW_ANIMATOR_MAX_NAME + 1u);
    return z ? (size_t)((const char*)z - s) : SW_ANIMATOR_MAX_NAME + 1u;
}

/* ---- desc checks --------------------------------------------------------------- */

typedef struct sw__anim_count {
    uint32_t clips;
    const char* clip_names[SW_ANIMATOR_MAX_CLIPS];
    uint32_t members, markers, states, transitions, conditions, masks;
    uint64_t strings;
    uint32_t owners[SW_ANIMATOR_MAX_MACHINES];      /* how many layers/states play it */
    uint32_t owner_state[SW_ANIMATOR_MAX_MACHINES]; /* global state, or NONE for a layer */
    uint32_t owner_layer[SW_ANIMATOR_MAX_MACHINES];
    uint32_t state_base[SW_ANIMATOR_MAX_MACHINES];
    uint32_t layer_of[SW_ANIMATOR_MAX_MACHINES];
    uint32_t depth[SW_ANIMATOR_MAX_MACHINES];
    uint32_t contrib[SW_ANIMATOR_MAX_MACHINES];
} sw__anim_count;

static sw_result sw__anim_name(const char* name, const char* what_null, const char* what_len,
                               const char* what_empty, int64_t index, sw__anim_count* c,
                               sw_error* err) {
    if (!name) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, what_null, 0, index);
    size_t n = sw__anim_len(name);
    if (n > SW_ANIMATOR_MAX_NAME) return sw__fail(err, SW_RESULT_LIMIT, what_len, 0, index);
    if (n == 0) return sw__fail(err, SW_RESULT_BAD_DATA, what_empty, 0, index);
    c->strings += n + 1u;
    return SW_RESULT_OK;
}

static int32_t sw__anim_desc_param(const sw_animator_desc* d, const char* name) {
    if (!name) return -1;
    for (uint32_t i = 0; i < d->params_count; ++i) {
        if (d->params[i].name && strcmp(d->params[i].name, name) == 0) return (int32_t)i;
    }
    return -1;
}

static sw_animator_param_type sw__anim_ptype(const sw_animator_desc* d, int32_t p) {
    sw_animator_param_type t = d->params[p].type;
    return t == SW_ANIMATOR_PARAM_TYPE_DEFAULT ? SW_ANIMATOR_PARAM_TYPE_FLOAT : t;
}

/* True when `name` names a float or int parameter of the desc. */
static bool sw__anim_numeric(const sw_animator_desc* d, const char* name) {
    const int32_t p = sw__anim_desc_param(d, name);
    if (p < 0) return false;
    const sw_animator_param_type t = sw__anim_ptype(d, p);
    return t == SW_ANIMATOR_PARAM_TYPE_FLOAT || t == SW_ANIMATOR_PARAM_TYPE_INT;
}

static int32_t sw__anim_desc_bspace(const sw_animator_desc* d, const char* name) {
    if (!name) return -1;
    for (uint32_t i = 0; i < d->blend_spaces_count; ++i) {
        if (d->blend_spaces[i].name && strcmp(d->blend_spaces[i].name, name) == 0) {
            return (int32_t)i;
        }
    }
    return -1;
}

static int32_t sw__anim_desc_machine(const sw_animator_desc* d, const char* name) {
    if (!name) return -1;
    for (uint32_t i = 0; i < d->machines_count; ++i) {
        if (d->machines[i].name && strcmp(d->machines[i].name, name) == 0) return (int32_t)i;
    }
    return -1;
}

static int32_t sw__anim_machine_state(const sw_animator_machine_desc* m, const char* name) {
    if (!name) return -1;
    for (uint32_t i = 0; i < m->states_count; ++i) {
        if (m->states[i].name && strcmp(m->states[i].name, name) == 0) return (int32_t)i;
    }
    return -1;
}

static bool sw__anim_is_any(const char* from) {
    return !from || strcmp(from, "*") == 0;
}

/* Slot of a clip name, adding it when new; NONE when the table is full. */
static uint32_t sw__anim_slot(sw__anim_count* c, const char* name) {
    for (uint32_t i = 0; i < c->clips; ++i) {
        if (strcmp(c->clip_names[i], name) == 0) return i;
    }
    if (c->clips == SW_ANIMATOR_MAX_CLIPS) return SW_ANIMATOR_NONE;
    c->clip_names[c->clips] = name;
    c->strings += sw__anim_len(name) + 1u;
    return c->clips++;
}

static bool sw__anim_finite01(float v) {
    return isfinite(v) && v >= 0.0f && v <= 1.0f;
}

/* The value rules that descs and loaded blocks share. A parameter's value
 * for its type (never DEFAULT): finite, ints whole, bools and triggers 0 or 1. */
static bool sw__anim_value_fits(uint32_t type, float v) {
    if (!isfinite(v)) return false;
    if (type == SW_ANIMATOR_PARAM_TYPE_INT) return floorf(v) == v;
    if (type == SW_ANIMATOR_PARAM_TYPE_BOOL || type == SW_ANIMATOR_PARAM_TYPE_TRIGGER) {
        return v == 0.0f || v == 1.0f;
    }
    return true;
}

/* A time window [start, end] inside one cycle: 0 <= start <= end <= 1 (false for NaN). */
static bool sw__anim_window_ok(float start, float end) {
    return start >= 0.0f && start <= end && end <= 1.0f;
}

/* A state's time scale: finite and >= 0. */
static bool sw__anim_speed_ok(float speed) {
    return isfinite(speed) && speed >= 0.0f;
}

static sw_result sw__anim_check_params(const sw_animator_desc* d, sw__anim_count* c,
                                       sw_error* err) {
    for (uint32_t i = 0; i < d->params_count; ++i) {
        const sw_animator_param_desc* p = &d->params[i];
        const int64_t ix = (int64_t)i;
        sw_result r = sw__anim_name(p->name, "param name not NULL", "param name length",
                                    "param name not empty", ix, c, err);
        if (r != SW_RESULT_OK) return r;
        for (uint32_t j = 0; j < i; ++j) {
            if (strcmp(d->params[j].name, p->name) == 0) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "param names unique", 0, ix);
            }
        }
        if ((uint32_t)p->type >= SW_ANIMATOR_PARAM_TYPE_COUNT) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "param type", 0, ix);
        }
        if (!sw__anim_value_fits((uint32_t)sw__anim_ptype(d, (int32_t)i), p->value)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "param default fits its type", 0, ix);
        }
    }
    return SW_RESULT_OK;
}

static sw_result sw__anim_check_bspaces(const sw_animator_desc* d, sw__anim_count* c,
                                        sw_error* err) {
    for (uint32_t i = 0; i < d->blend_spaces_count; ++i) {
        const sw_animator_blend_space_desc* b = &d->blend_spaces[i];
        const int64_t ix = (int64_t)i;
        sw_result r = sw__anim_name(b->name, "blend space name not NULL", "blend space name length",
                                    "blend space name not empty", ix, c, err);
        if (r != SW_RESULT_OK) return r;
        for (uint32_t j = 0; j < i; ++j) {
            if (strcmp(d->blend_spaces[j].name, b->name) == 0) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "blend space names unique", 0, ix);
            }
        }
        if (!sw__anim_numeric(d, b->param_x)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "blend space param_x float or int", 0, ix);
        }
        if (b->param_y && !sw__anim_numeric(d, b->param_y)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "blend space param_y float or int", 0, ix);
        }
        if (!b->members && b->members_count > 0) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "members not NULL", 0, ix);
        }
        if (b->members_count > SW_ANIMATOR_MAX_MEMBERS) {
            return sw__fail(err, SW_RESULT_LIMIT, "members count", 0, ix);
        }
        if (b->members_count == 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "blend space has members", 0, ix);
        }
        for (uint32_t m = 0; m < b->members_count; ++m) {
            const sw_animator_member_desc* md = &b->members[m];
            if (!md->clip) {
                return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "member clip not NULL", 0, ix);
            }
            size_t n = sw__anim_len(md->clip);
            if (n > SW_ANIMATOR_MAX_NAME) {
                return sw__fail(err, SW_RESULT_LIMIT, "member clip name length", 0, ix);
            }
            if (n == 0) return sw__fail(err, SW_RESULT_BAD_DATA, "member clip not empty", 0, ix);
            float y = b->param_y ? md->y : 0.0f;
            if (!isfinite(md->x) || !isfinite(y)) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "member position finite", 0, ix);
            }
            for (uint32_t k = 0; k < m; ++k) {
                float yk = b->param_y ? b->members[k].y : 0.0f;
                if (b->members[k].x == md->x && yk == y) {
                    return sw__fail(err, SW_RESULT_BAD_DATA, "member positions distinct", 0, ix);
                }
            }
            if (sw__anim_slot(c, md->clip) == SW_ANIMATOR_NONE) {
                return sw__fail(err, SW_RESULT_LIMIT, "clips count", 0, ix);
            }
        }
        c->members += b->members_count;
        if (!b->sync_markers && b->sync_markers_count > 0) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "sync markers not NULL", 0, ix);
        }
        if (b->sync_markers_count > SW_ANIMATOR_MAX_MARKERS) {
            return sw__fail(err, SW_RESULT_LIMIT, "sync markers count", 0, ix);
        }
        for (uint32_t m = 0; m < b->sync_markers_count; ++m) {
            r = sw__anim_name(b->sync_markers[m], "sync marker not NULL", "sync marker length",
                              "sync marker not empty", ix, c, err);
            if (r != SW_RESULT_OK) return r;
            for (uint32_t k = 0; k < m; ++k) {
                if (strcmp(b->sync_markers[k], b->sync_markers[m]) == 0) {
                    return sw__fail(err, SW_RESULT_BAD_DATA, "sync markers unique", 0, ix);
                }
            }
        }
        c->markers += b->sync_markers_count;
    }
    return SW_RESULT_OK;
}

static bool sw__anim_op_fits(sw_animator_op op, sw_animator_param_type t) {
    switch (op) {
    case SW_ANIMATOR_OP_GREATER:
    case SW_ANIMATOR_OP_LESS:
    case SW_ANIMATOR_OP_EQUAL:
    case SW_ANIMATOR_OP_NOT_EQUAL:
        return t == SW_ANIMATOR_PARAM_TYPE_FLOAT || t == SW_ANIMATOR_PARAM_TYPE_INT;
    case SW_ANIMATOR_OP_TRUE:
    case SW_ANIMATOR_OP_FALSE:
        return t == SW_ANIMATOR_PARAM_TYPE_BOOL;
    case SW_ANIMATOR_OP_TRIGGER:
        return t == SW_ANIMATOR_PARAM_TYPE_TRIGGER;
    default:
        return false;
    }
}

/* State s of machine i (global index c->states + s): name, speed, target;
 * a machine target is counted as played by this state. */
static sw_result sw__anim_check_state(const sw_animator_desc* d, uint32_t i, uint32_t s,
                                      sw__anim_count* c, sw_error* err) {
    const sw_animator_machine_desc* m = &d->machines[i];
    const int64_t ix = (int64_t)i;
    const sw_animator_state_desc* st = &m->states[s];
    sw_result r = sw__anim_name(st->name, "state name not NULL", "state name length",
                                "state name not empty", ix, c, err);
    if (r != SW_RESULT_OK) return r;
    for (uint32_t k = 0; k < s; ++k) {
        if (strcmp(m->states[k].name, st->name) == 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "state names unique", 0, ix);
        }
    }
    if (!sw__anim_speed_ok(st->speed)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "state speed finite >= 0", 0, ix);
    }
    if (st->speed_param && !sw__anim_numeric(d, st->speed_param)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "speed param float or int", 0, ix);
    }
    switch (st->motion) {
    case SW_ANIMATOR_MOTION_CLIP: {
        if (!st->target) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "state target not NULL", 0, ix);
        }
        size_t n = sw__anim_len(st->target);
        if (n > SW_ANIMATOR_MAX_NAME) {
            return sw__fail(err, SW_RESULT_LIMIT, "state clip name length", 0, ix);
        }
        if (n == 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "state clip not empty", 0, ix);
        }
        break;
    }
    case SW_ANIMATOR_MOTION_BLEND_SPACE:
        if (sw__anim_desc_bspace(d, st->target) < 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "state blend space known", 0, ix);
        }
        break;
    case SW_ANIMATOR_MOTION_MACHINE: {
        int32_t n = sw__anim_desc_machine(d, st->target);
        if (n < 0) return sw__fail(err, SW_RESULT_BAD_DATA, "state machine known", 0, ix);
        c->owners[n]++;
        c->owner_state[n] = c->states + s;
        c->owner_layer[n] = i; /* the owning machine, for the cycle check */
        break;
    }
    default:
        return sw__fail(err, SW_RESULT_BAD_DATA, "state motion", 0, ix);
    }
    return SW_RESULT_OK;
}

/* Transition t of machine i: states known, no self transition on a machine
 * state, conditions fitting their parameters, values in range. */
static sw_result sw__anim_check_transition(const sw_animator_desc* d, uint32_t i, uint32_t t,
                                           sw__anim_count* c, sw_error* err) {
    const sw_animator_machine_desc* m = &d->machines[i];
    const int64_t ix = (int64_t)i;
    const sw_animator_transition_desc* tr = &m->transitions[t];
    int32_t from = -1;
    if (!sw__anim_is_any(tr->from)) {
        from = sw__anim_machine_state(m, tr->from);
        if (from < 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "transition from known", 0, ix);
        }
    }
    int32_t to = sw__anim_machine_state(m, tr->to);
    if (to < 0) return sw__fail(err, SW_RESULT_BAD_DATA, "transition to known", 0, ix);
    bool to_machine = m->states[to].motion == SW_ANIMATOR_MOTION_MACHINE;
    if (to_machine && (from == to || (from < 0 && tr->to_self))) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "no self transition on a machine state", 0, ix);
    }
    if (!tr->conditions && tr->conditions_count > 0) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "conditions not NULL", 0, ix);
    }
    if (tr->conditions_count > SW_ANIMATOR_MAX_CONDITIONS) {
        return sw__fail(err, SW_RESULT_LIMIT, "conditions count", 0, ix);
    }
    for (uint32_t k = 0; k < tr->conditions_count; ++k) {
        const sw_animator_condition_desc* cd = &tr->conditions[k];
        int32_t p = sw__anim_desc_param(d, cd->param);
        if (p < 0) return sw__fail(err, SW_RESULT_BAD_DATA, "condition param known", 0, ix);
        if (!sw__anim_op_fits(cd->op, sw__anim_ptype(d, p))) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "condition op fits the param type", 0, ix);
        }
        if (!isfinite(cd->value)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "condition value finite", 0, ix);
        }
    }
    c->conditions += tr->conditions_count;
    if (tr->has_exit_time && !(isfinite(tr->exit_time) && tr->exit_time > 0.0f)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "exit time > 0", 0, ix);
    }
    if (!isfinite(tr->duration) || tr->duration < 0.0f) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "duration finite >= 0", 0, ix);
    }
    const float t1 = tr->time_window[0], t2 = tr->time_window[1];
    if (tr->has_time_window && !(isfinite(t1) && isfinite(t2))) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "transition time_window finite", 0, ix);
    }
    if (tr->has_time_window && !sw__anim_window_ok(t1, t2)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "transition time_window 0 <= start <= end <= 1", 0,
                        ix);
    }
    if (!sw__anim_finite01(tr->offset)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "transition offset in [0, 1]", 0, ix);
    }
    if (to_machine && tr->offset != 0.0f) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "transition offset 0 into a machine state", 0, ix);
    }
    if ((uint32_t)tr->mode >= SW_ANIMATOR_TRANSITION_MODE_COUNT) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "transition mode", 0, ix);
    }
    if ((uint32_t)tr->interrupt >= SW_ANIMATOR_INTERRUPT_COUNT) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "transition interrupt", 0, ix);
    }
    return SW_RESULT_OK;
}

static sw_result sw__anim_check_machines(const sw_animator_desc* d, sw__anim_count* c,
                                         sw_error* err) {
    for (uint32_t i = 0; i < d->machines_count; ++i) {
        const sw_animator_machine_desc* m = &d->machines[i];
        const int64_t ix = (int64_t)i;
        sw_result r = sw__anim_name(m->name, "machine name not NULL", "machine name length",
                                    "machine name not empty", ix, c, err);
        if (r != SW_RESULT_OK) return r;
        for (uint32_t j = 0; j < i; ++j) {
            if (strcmp(d->machines[j].name, m->name) == 0) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "machine names unique", 0, ix);
            }
        }
        if (!m->states && m->states_count > 0) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "states not NULL", 0, ix);
        }
        if (!m->transitions && m->transitions_count > 0) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "transitions not NULL", 0, ix);
        }
        if (m->states_count == 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "machine has states", 0, ix);
        }
        if (m->states_count > SW_ANIMATOR_MAX_STATES - c->states) {
            return sw__fail(err, SW_RESULT_LIMIT, "states count", 0, ix);
        }
        if (m->transitions_count > SW_ANIMATOR_MAX_TRANSITIONS - c->transitions) {
            return sw__fail(err, SW_RESULT_LIMIT, "transitions count", 0, ix);
        }
        c->state_base[i] = c->states;
        for (uint32_t s = 0; s < m->states_count; ++s) {
            r = sw__anim_check_state(d, i, s, c, err);
            if (r != SW_RESULT_OK) return r;
        }
        if (m->entry && sw__anim_machine_state(m, m->entry) < 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "entry state known", 0, ix);
        }
        for (uint32_t t = 0; t < m->transitions_count; ++t) {
            r = sw__anim_check_transition(d, i, t, c, err);
            if (r != SW_RESULT_OK) return r;
        }
        c->states += m->states_count;
        c->transitions += m->transitions_count;
    }
    /* Clip slots of states, after the members' (see the header). */
    for (uint32_t i = 0; i < d->machines_count; ++i) {
        const sw_animator_machine_desc* m = &d->machines[i];
        for (uint32_t s = 0; s < m->states_count; ++s) {
            if (m->states[s].motion != SW_ANIMATOR_MOTION_CLIP) continue;
            if (sw__anim_slot(c, m->states[s].target) == SW_ANIMATOR_NONE) {
                return sw__fail(err, SW_RESULT_LIMIT, "clips count", 0, (int64_t)i);
            }
        }
    }
    return SW_RESULT_OK;
}

static sw_result sw__anim_check_layers(const sw_animator_desc* d, sw__anim_count* c,
                                       sw_error* err) {
    uint32_t is_layer_root[SW_ANIMATOR_MAX_MACHINES];
    memset(is_layer_root, 0, sizeof is_layer_root);
    for (uint32_t i = 0; i < d->layers_count; ++i) {
        const sw_animator_layer_desc* l = &d->layers[i];
        const int64_t ix = (int64_t)i;
        sw_result r = sw__anim_name(l->name, "layer name not NULL", "layer name length",
                                    "layer name not empty", ix, c, err);
        if (r != SW_RESULT_OK) return r;
        for (uint32_t j = 0; j < i; ++j) {
            if (strcmp(d->layers[j].name, l->name) == 0) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "layer names unique", 0, ix);
            }
        }
        int32_t m = sw__anim_desc_machine(d, l->machine);
        if (m < 0) return sw__fail(err, SW_RESULT_BAD_DATA, "layer machine known", 0, ix);
        if (c->owners[m] == 0 || is_layer_root[m] == 0) c->owner_layer[m] = i;
        c->owners[m]++;
        is_layer_root[m] = 1;
        c->owner_state[m] = SW_ANIMATOR_NONE;
        if ((uint32_t)l->mode >= SW_ANIMATOR_LAYER_MODE_COUNT) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "layer mode", 0, ix);
        }
        if (!sw__anim_finite01(l->weight)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "layer weight in [0, 1]", 0, ix);
        }
        if (l->weight_param && !sw__anim_numeric(d, l->weight_param)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "layer weight param float or int", 0, ix);
        }
        if ((uint32_t)l->reference >= SW_ANIMATOR_REFERENCE_COUNT) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "layer reference", 0, ix);
        }
        if (!l->mask && l->mask_count > 0) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "mask not NULL", 0, ix);
        }
        if (l->mask_count > SW_ANIMATOR_MAX_MASK) {
            return sw__fail(err, SW_RESULT_LIMIT, "mask count", 0, ix);
        }
        if (i == 0 && l->mask_count > 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "no mask on the first layer", 0, ix);
        }
        for (uint32_t k = 0; k < l->mask_count; ++k) {
            r = sw__anim_name(l->mask[k].joint, "mask joint not NULL", "mask joint length",
                              "mask joint not empty", ix, c, err);
            if (r != SW_RESULT_OK) return r;
            if (!sw__anim_finite01(l->mask[k].weight)) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "mask weight in [0, 1]", 0, ix);
            }
        }
        c->masks += l->mask_count;
    }
    /* Every machine played exactly once; owners reach a layer (no cycle). */
    for (uint32_t i = 0; i < d->machines_count; ++i) {
        const int64_t ix = (int64_t)i;
        if (c->owners[i] == 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "machine played by a layer or state", 0, ix);
        }
        if (c->owners[i] > 1) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "machine played once", 0, ix);
        }
    }
    for (uint32_t i = 0; i < d->machines_count; ++i) {
        uint32_t m = i, depth = 0;
        while (c->owner_state[m] != SW_ANIMATOR_NONE) {
            m = c->owner_layer[m]; /* the machine holding the owner state */
            if (++depth > d->machines_count) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "nested machines without cycle", 0,
                                (int64_t)i);
            }
        }
        c->depth[i] = depth;
        c->layer_of[i] = c->owner_layer[m];
    }
    /* Worst-case playing clips: deepest machines first. */
    for (uint32_t depth = d->machines_count + 1u; depth-- > 0;) {
        for (uint32_t i = 0; i < d->machines_count; ++i) {
            if (c->depth[i] != depth) continue;
            const sw_animator_machine_desc* m = &d->machines[i];
            uint32_t worst = 0;
            for (uint32_t s = 0; s < m->states_count; ++s) {
                uint32_t n = 1;
                if (m->states[s].motion == SW_ANIMATOR_MOTION_BLEND_SPACE) {
                    n = d->blend_spaces[sw__anim_desc_bspace(d, m->states[s].target)].members_count;
                } else if (m->states[s].motion == SW_ANIMATOR_MOTION_MACHINE) {
                    n = c->contrib[sw__anim_desc_machine(d, m->states[s].target)];
                }
                if (n > worst) worst = n;
            }
            uint64_t total = (uint64_t)worst * SW_ANIMATOR_MAX_FADES;
            c->contrib[i] = total > 0xFFFFu ? 0xFFFFu : (uint32_t)total;
        }
    }
    for (uint32_t i = 0; i < d->layers_count; ++i) {
        int32_t m = sw__anim_desc_machine(d, d->layers[i].machine);
        if (c->contrib[m] > SW_ANIMATOR_MAX_CONTRIBUTIONS) {
            return sw__fail(err, SW_RESULT_LIMIT, "playing clips per layer", 0, (int64_t)i);
        }
    }
    return SW_RESULT_OK;
}

/* The hit parameters' names in the order of sw_animator.hit_params. */
static void sw__anim_hit_names(const sw_animator_desc* d, const char* names[4]) {
    names[0] = d->hit.param_x;
    names[1] = d->hit.param_y;
    names[2] = d->hit.strength_param;
    names[3] = d->hit.trigger;
}

/* The type a hit parameter must have: float for x, y and strength, trigger last. */
static uint32_t sw__anim_hit_type(uint32_t k) {
    return k == 3u ? (uint32_t)SW_ANIMATOR_PARAM_TYPE_TRIGGER
                   : (uint32_t)SW_ANIMATOR_PARAM_TYPE_FLOAT;
}

/* The move parameters' names in the order of sw_animator.move_params. */
static void sw__anim_move_names(const sw_animator_desc* d, const char* names[3]) {
    names[0] = d->move.speed_param;
    names[1] = d->move.strafe_param;
    names[2] = d->move.turn_param;
}

static sw_result sw__anim_check_move(const sw_animator_desc* d, sw_error* err) {
    static const char* const checks[3] = {"move speed_param a float param",
                                          "move strafe_param a float param",
                                          "move turn_param a float param"};
    const char* names[3];
    sw__anim_move_names(d, names);
    for (uint32_t k = 0; k < 3u; ++k) {
        if (!names[k]) continue;
        const int32_t p = sw__anim_desc_param(d, names[k]);
        if (p < 0 || sw__anim_ptype(d, p) != SW_ANIMATOR_PARAM_TYPE_FLOAT)
            return sw__fail(err, SW_RESULT_BAD_DATA, checks[k], 0, p);
    }
    return SW_RESULT_OK;
}

static sw_result sw__anim_check_hit(const sw_animator_desc* d, sw_error* err) {
    static const char* const checks[4] = {"hit param_x a float param", "hit param_y a float param",
                                          "hit strength_param a float param",
                                          "hit trigger a trigger param"};
    const char* names[4];
    sw__anim_hit_names(d, names);
    for (uint32_t k = 0; k < 4u; ++k) {
        if (!names[k]) continue;
        const int32_t p = sw__anim_desc_param(d, names[k]);
        if (p < 0 || (uint32_t)sw__anim_ptype(d, p) != sw__anim_hit_type(k)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, checks[k], 0, p);
        }
    }
    return SW_RESULT_OK;
}

typedef struct sw__anim_layout {
    uint32_t params, clips, bspaces, members, markers, machines, order, states, transitions,
        conditions, layers, masks, strings, size;
} sw__anim_layout;

static sw_result sw__anim_check_desc(const sw_animator_desc* d, sw__anim_count* c,
                                     sw__anim_layout* lay, sw_error* err) {
    if (!d) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "desc not NULL", 0, -1);
    memset(c, 0, sizeof *c);
    if ((!d->params && d->params_count) || (!d->blend_spaces && d->blend_spaces_count) ||
        (!d->machines && d->machines_count) || (!d->layers && d->layers_count)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arrays not NULL", 0, -1);
    }
    if (d->params_count > SW_ANIMATOR_MAX_PARAMS) {
        return sw__fail(err, SW_RESULT_LIMIT, "params count", 0, -1);
    }
    if (d->blend_spaces_count > SW_ANIMATOR_MAX_BLEND_SPACES) {
        return sw__fail(err, SW_RESULT_LIMIT, "blend spaces count", 0, -1);
    }
    if (d->machines_count > SW_ANIMATOR_MAX_MACHINES) {
        return sw__fail(err, SW_RESULT_LIMIT, "machines count", 0, -1);
    }
    if (d->layers_count > SW_ANIMATOR_MAX_LAYERS) {
        return sw__fail(err, SW_RESULT_LIMIT, "layers count", 0, -1);
    }
    if (d->machines_count == 0) return sw__fail(err, SW_RESULT_BAD_DATA, "has machines", 0, -1);
    if (d->layers_count == 0) return sw__fail(err, SW_RESULT_BAD_DATA, "has layers", 0, -1);
    if (!sw__anim_finite01(d->event_weight_threshold)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "event threshold in [0, 1]", 0, -1);
    }
    if (d->root_motion_joint) {
        sw_result r = sw__anim_name(d->root_motion_joint, "root joint not NULL",
                                    "root joint length", "root joint not empty", -1, c, err);
        if (r != SW_RESULT_OK) return r;
    }
    for (uint32_t i = 0; i < SW_ANIMATOR_MAX_MACHINES; ++i)
        c->owner_state[i] = SW_ANIMATOR_NONE;
    sw_result r = sw__anim_check_params(d, c, err);
    if (r == SW_RESULT_OK) r = sw__anim_check_hit(d, err);
    if (r == SW_RESULT_OK) r = sw__anim_check_move(d, err);
    if (r == SW_RESULT_OK) r = sw__anim_check_bspaces(d, c, err);
    if (r == SW_RESULT_OK) r = sw__anim_check_machines(d, c, err);
    if (r == SW_RESULT_OK) r = sw__anim_check_layers(d, c, err);
    if (r != SW_RESULT_OK) return r;

    uint64_t at = sizeof(sw_animator);
    lay->params =
        (uint32_t)sw__layout_take(&at, sizeof(sw__anim_param) * (uint64_t)d->params_count, 4u);
    lay->clips = (uint32_t)sw__layout_take(&at, 4u * (uint64_t)c->clips, 4u);
    lay->bspaces = (uint32_t)sw__layout_take(
        &at, sizeof(sw__anim_bspace) * (uint64_t)d->blend_spaces_count, 4u);
    lay->members =
        (uint32_t)sw__layout_take(&at, sizeof(sw__anim_member) * (uint64_t)c->members, 4u);
    lay->markers = (uint32_t)sw__layout_take(&at, 4u * (uint64_t)c->markers, 4u);
    lay->machines =
        (uint32_t)sw__layout_take(&at, sizeof(sw__anim_machine) * (uint64_t)d->machines_count, 4u);
    lay->order = (uint32_t)sw__layout_take(&at, 4u * (uint64_t)d->machines_count, 4u);
    lay->states = (uint32_t)sw__layout_take(&at, sizeof(sw__anim_state) * (uint64_t)c->states, 4u);
    lay->transitions =
        (uint32_t)sw__layout_take(&at, sizeof(sw__anim_transition) * (uint64_t)c->transitions, 4u);
    lay->conditions =
        (uint32_t)sw__layout_take(&at, sizeof(sw__anim_cond) * (uint64_t)c->conditions, 4u);
    lay->layers =
        (uint32_t)sw__layout_take(&at, sizeof(sw__anim_layer) * (uint64_t)d->layers_count, 4u);
    lay->masks = (uint32_t)sw__layout_take(&at, sizeof(sw__anim_mask) * (uint64_t)c->masks, 4u);
    lay->strings = (uint32_t)at;
    at = sw__align16(at + 1u + c->strings);
    if (at > 0x7FFFFFFFu) return sw__fail(err, SW_RESULT_LIMIT, "block size", 0, -1);
    lay->size = (uint32_t)at;
    return SW_RESULT_OK;
}

size_t sw_animator_measure(const sw_animator_desc* desc) {
    sw__anim_count* c = NULL;
    /* The counting state is large for the stack of small threads; keep it
     * local but static-free: allocate on the stack only once here. */
    sw__anim_count storage;
    c = &storage;
    sw__anim_layout lay;
    if (sw__anim_check_desc(desc, c, &lay, NULL) != SW_RESULT_OK) return 0;
    return lay.size;
}

/* ---- writing ------------------------------------------------------------------ */

typedef struct sw__anim_writer {
    char* base;
    uint32_t strings_at; /* next free byte of the pool */
} sw__anim_writer;

static uint32_t sw__anim_put(sw__anim_writer* w, const char* s) {
    size_t n = strlen(s);
    uint32_t at = w->strings_at;
    memcpy(w->base + at, s, n + 1u);
    w->strings_at += (uint32_t)n + 1u;
    return at;
}

static uint32_t sw__anim_pidx(const sw_animator_desc* d, const char* name) {
    int32_t p = sw__anim_desc_param(d, name);
    return p < 0 ? SW_ANIMATOR_NONE : (uint32_t)p;
}

/* Blend spaces, members (1D spaces sorted by x) and sync markers. */
static void sw__anim_write_bspaces(const sw_animator_desc* d, const sw__anim_count* c,
                                   const sw__anim_layout* lay, sw__anim_writer* w) {
    sw__anim_bspace* bs = (sw__anim_bspace*)(void*)(w->base + lay->bspaces);
    sw__anim_member* mem_out = (sw__anim_member*)(void*)(w->base + lay->members);
    uint32_t* markers = (uint32_t*)(void*)(w->base + lay->markers);
    uint32_t members_at = 0, markers_at = 0;
    sw__anim_count* cc = (sw__anim_count*)(uintptr_t)c; /* slot lookups only read */
    for (uint32_t i = 0; i < d->blend_spaces_count; ++i) {
        const sw_animator_blend_space_desc* b = &d->blend_spaces[i];
        bs[i].name = sw__anim_put(w, b->name);
        bs[i].param_x = sw__anim_pidx(d, b->param_x);
        bs[i].param_y = b->param_y ? sw__anim_pidx(d, b->param_y) : SW_ANIMATOR_NONE;
        bs[i].first_member = members_at;
        bs[i].members_count = b->members_count;
        bs[i].first_marker = markers_at;
        bs[i].markers_count = b->sync_markers_count;
        bs[i].directional = b->param_y && b->directional ? 1u : 0u;
        for (uint32_t m = 0; m < b->members_count; ++m) {
            sw__anim_member* o = &mem_out[members_at + m];
            o->clip = sw__anim_slot(cc, b->members[m].clip);
            o->x = b->members[m].x;
            o->y = b->param_y ? b->members[m].y : 0.0f;
        }
        if (!b->param_y) { /* 1D: sort by x (insertion sort, stable) */
            for (uint32_t m = 1; m < b->members_count; ++m) {
                sw__anim_member v = mem_out[members_at + m];
                uint32_t k = m;
                while (k > 0 && mem_out[members_at + k - 1u].x > v.x) {
                    mem_out[members_at + k] = mem_out[members_at + k - 1u];
                    --k;
                }
                mem_out[members_at + k] = v;
            }
        }
        members_at += b->members_count;
        for (uint32_t m = 0; m < b->sync_markers_count; ++m) {
            markers[markers_at++] = sw__anim_put(w, b->sync_markers[m]);
        }
    }
}

/* Machines, states, transitions and conditions, machine by machine. */
static void sw__anim_write_machines(const sw_animator_desc* d, const sw__anim_count* c,
                                    const sw__anim_layout* lay, sw__anim_writer* w,
                                    sw_animator* a) {
    sw__anim_count* cc = (sw__anim_count*)(uintptr_t)c; /* slot lookups only read */
    sw__anim_machine* ms = (sw__anim_machine*)(void*)(w->base + lay->machines);
    sw__anim_state* st = (sw__anim_state*)(void*)(w->base + lay->states);
    sw__anim_transition* tr = (sw__anim_transition*)(void*)(w->base + lay->transitions);
    sw__anim_cond* cn = (sw__anim_cond*)(void*)(w->base + lay->conditions);
    uint32_t tr_at = 0, cn_at = 0;
    for (uint32_t i = 0; i < d->machines_count; ++i) {
        const sw_animator_machine_desc* m = &d->machines[i];
        sw__anim_machine* o = &ms[i];
        o->name = sw__anim_put(w, m->name);
        o->first_state = c->state_base[i];
        o->states_count = m->states_count;
        o->first_transition = tr_at;
        o->transitions_count = m->transitions_count;
        o->entry =
            c->state_base[i] + (m->entry ? (uint32_t)sw__anim_machine_state(m, m->entry) : 0u);
        o->owner_state = c->owner_state[i];
        o->layer = c->layer_of[i];
        o->depth = c->depth[i];
        for (uint32_t s = 0; s < m->states_count; ++s) {
            const sw_animator_state_desc* sd = &m->states[s];
            sw__anim_state* so = &st[c->state_base[i] + s];
            so->name = sw__anim_put(w, sd->name);
            so->machine = i;
            so->motion = (uint32_t)sd->motion;
            if (sd->motion == SW_ANIMATOR_MOTION_CLIP) {
                so->target = sw__anim_slot(cc, sd->target);
            } else if (sd->motion == SW_ANIMATOR_MOTION_BLEND_SPACE) {
                so->target = (uint32_t)sw__anim_desc_bspace(d, sd->target);
            } else {
                so->target = (uint32_t)sw__anim_desc_machine(d, sd->target);
            }
            so->once = sd->once ? 1u : 0u;
            so->speed = sd->speed == 0.0f ? 1.0f : sd->speed;
            so->speed_param =
                sd->speed_param ? sw__anim_pidx(d, sd->speed_param) : SW_ANIMATOR_NONE;
        }
        for (uint32_t t = 0; t < m->transitions_count; ++t) {
            const sw_animator_transition_desc* td = &m->transitions[t];
            sw__anim_transition* to = &tr[tr_at + t];
            to->from = sw__anim_is_any(td->from)
                           ? SW_ANIMATOR_NONE
                           : c->state_base[i] + (uint32_t)sw__anim_machine_state(m, td->from);
            to->to = c->state_base[i] + (uint32_t)sw__anim_machine_state(m, td->to);
            to->first_cond = cn_at;
            to->conds_count = td->conditions_count;
            to->has_exit = td->has_exit_time ? 1u : 0u;
            to->exit_time = td->has_exit_time ? td->exit_time : 0.0f;
            to->duration = td->duration;
            to->mode = td->mode == SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE
                           ? (uint32_t)SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE
                           : (uint32_t)SW_ANIMATOR_TRANSITION_MODE_CROSSFADE;
            if (to->mode == SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE && td->duration > 0.0f) {
                a->has_inertialize = 1u;
            }
            to->interrupt = (uint32_t)td->interrupt;
            to->to_self = td->to_self ? 1u : 0u;
            to->has_window = td->has_time_window ? 1u : 0u;
            to->window_start = td->has_time_window ? td->time_window[0] : 0.0f;
            to->window_end = td->has_time_window ? td->time_window[1] : 0.0f;
            to->offset = td->offset;
            for (uint32_t k = 0; k < td->conditions_count; ++k) {
                cn[cn_at + k].param = sw__anim_pidx(d, td->conditions[k].param);
                cn[cn_at + k].op = (uint32_t)td->conditions[k].op;
                cn[cn_at + k].value = td->conditions[k].value;
            }
            cn_at += td->conditions_count;
        }
        tr_at += m->transitions_count;
    }
}

/* The machine order, layers and masks. */
static void sw__anim_write_layers(const sw_animator_desc* d, const sw__anim_count* c,
                                  const sw__anim_layout* lay, sw__anim_writer* w, sw_animator* a) {
    /* Machine order: by layer, then depth (owners before what they nest). */
    uint32_t* order = (uint32_t*)(void*)(w->base + lay->order);
    uint32_t n = 0;
    for (uint32_t l = 0; l < d->layers_count; ++l) {
        for (uint32_t depth = 0; depth <= d->machines_count; ++depth) {
            for (uint32_t i = 0; i < d->machines_count; ++i) {
                if (c->layer_of[i] == l && c->depth[i] == depth) order[n++] = i;
            }
        }
    }
    sw__anim_layer* ls = (sw__anim_layer*)(void*)(w->base + lay->layers);
    sw__anim_mask* mk = (sw__anim_mask*)(void*)(w->base + lay->masks);
    uint32_t mk_at = 0;
    for (uint32_t i = 0; i < d->layers_count; ++i) {
        const sw_animator_layer_desc* l = &d->layers[i];
        sw__anim_layer* o = &ls[i];
        o->name = sw__anim_put(w, l->name);
        o->machine = (uint32_t)sw__anim_desc_machine(d, l->machine);
        o->mode = i == 0 || l->mode != SW_ANIMATOR_LAYER_MODE_ADDITIVE
                      ? (uint32_t)SW_ANIMATOR_LAYER_MODE_OVERRIDE
                      : (uint32_t)SW_ANIMATOR_LAYER_MODE_ADDITIVE;
        o->weight = i == 0 ? 1.0f : (l->weight == 0.0f ? 1.0f : l->weight);
        o->weight_param =
            i > 0 && l->weight_param ? sw__anim_pidx(d, l->weight_param) : SW_ANIMATOR_NONE;
        o->first_mask = mk_at;
        o->mask_count = l->mask_count;
        o->reference = l->reference == SW_ANIMATOR_REFERENCE_REST_POSE
                           ? (uint32_t)SW_ANIMATOR_REFERENCE_REST_POSE
                           : (uint32_t)SW_ANIMATOR_REFERENCE_FIRST_FRAME;
        o->max_contrib = c->contrib[o->machine];
        if (o->max_contrib > a->max_contrib) a->max_contrib = o->max_contrib;
        for (uint32_t k = 0; k < l->mask_count; ++k) {
            mk[mk_at + k].joint = sw__anim_put(w, l->mask[k].joint);
            mk[mk_at + k].weight = l->mask[k].weight;
        }
        mk_at += l->mask_count;
    }
}

static void sw__anim_write(const sw_animator_desc* d, const sw__anim_count* c,
                           const sw__anim_layout* lay, void* mem) {
    memset(mem, 0, lay->size);
    sw_animator* a = (sw_animator*)mem;
    sw__anim_writer w = {(char*)mem, lay->strings + 1u};
    a->magic = SW__ANIMATOR_MAGIC;
    a->size = lay->size;
    a->params_count = d->params_count;
    a->params_offset = lay->params;
    a->clips_count = c->clips;
    a->clips_offset = lay->clips;
    a->bspaces_count = d->blend_spaces_count;
    a->bspaces_offset = lay->bspaces;
    a->members_offset = lay->members;
    a->markers_offset = lay->markers;
    a->machines_count = d->machines_count;
    a->machines_offset = lay->machines;
    a->order_offset = lay->order;
    a->states_count = c->states;
    a->states_offset = lay->states;
    a->transitions_count = c->transitions;
    a->transitions_offset = lay->transitions;
    a->conditions_offset = lay->conditions;
    a->layers_count = d->layers_count;
    a->layers_offset = lay->layers;
    a->masks_offset = lay->masks;
    a->strings_offset = lay->strings;
    a->strings_size = lay->size - lay->strings;
    a->members_count = c->members;
    a->markers_count = c->markers;
    a->conditions_count = c->conditions;
    a->masks_count = c->masks;
    a->event_threshold = d->event_weight_threshold;
    a->root_name = d->root_motion_joint ? sw__anim_put(&w, d->root_motion_joint) : 0u;
    a->has_root = d->root_motion_joint ? 1u : 0u;
    a->format = SW__ANIMATOR_FORMAT;
    const char* hit_names[4];
    sw__anim_hit_names(d, hit_names);
    for (uint32_t k = 0; k < 4u; ++k)
        a->hit_params[k] = hit_names[k] ? sw__anim_pidx(d, hit_names[k]) : SW_ANIMATOR_NONE;
    const char* move_names[3];
    sw__anim_move_names(d, move_names);
    for (uint32_t k = 0; k < 3u; ++k)
        a->move_params[k] = move_names[k] ? sw__anim_pidx(d, move_names[k]) + 1u : 0u;

    sw__anim_param* params = (sw__anim_param*)(void*)(w.base + lay->params);
    for (uint32_t i = 0; i < d->params_count; ++i) {
        params[i].name = sw__anim_put(&w, d->params[i].name);
        params[i].type = (uint32_t)sw__anim_ptype(d, (int32_t)i);
        params[i].value = d->params[i].value;
    }
    uint32_t* clips = (uint32_t*)(void*)(w.base + lay->clips);
    for (uint32_t i = 0; i < c->clips; ++i)
        clips[i] = sw__anim_put(&w, c->clip_names[i]);

    sw__anim_write_bspaces(d, c, lay, &w);
    sw__anim_write_machines(d, c, lay, &w, a);
    sw__anim_write_layers(d, c, lay, &w, a);
}

sw_result sw_animator_init(void* mem, size_t size, const sw_animator_desc* desc,
                           const sw_animator** out, sw_error* err) {
    if (!mem || !out) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    if (!sw__aligned16(mem))
        return sw__fail(err, SW_RESULT_MISALIGNED, "mem 16-byte aligned", 0, -1);
    sw__anim_count c;
    sw__anim_layout lay;
    sw_result r = sw__anim_check_desc(desc, &c, &lay, err);
    if (r != SW_RESULT_OK) return r;
    if (size < lay.size) return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "size", 0, -1);
    /* The desc passed every check that a loaded block must pass (the block
     * validator is for blocks from elsewhere; test_animator loads every
     * block that init writes), so the block is not validated again. */
    sw__anim_write(desc, &c, &lay, mem);
    *out = (const sw_animator*)mem;
    return SW_RESULT_OK;
}

sw_result sw_animator_create(const sw_animator_desc* desc, const sw_allocator* alloc,
                             const sw_animator** out, sw_error* err) {
    if (!desc || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    size_t size = sw_animator_measure(desc);
    if (size == 0) {
        sw__anim_count c;
        sw__anim_layout lay;
        return sw__anim_check_desc(desc, &c, &lay, err);
    }
    void* mem = sw_alloc(alloc, size, 16);
    if (!mem) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    sw_result r = sw_animator_init(mem, size, desc, out, err);
    if (r != SW_RESULT_OK) sw_free(alloc, mem, size);
    return r;
}

void sw_animator_destroy(const sw_animator* a, const sw_allocator* alloc) {
    if (!a) return;
    sw_free(alloc, (void*)(uintptr_t)a, a->size);
}

size_t sw_animator_size(const sw_animator* a) {
    return a ? a->size : 0u;
}

/* ---- loading a block ------------------------------------------------------------ */

typedef struct sw__anim_loader {
    const sw_animator* a;
    const char* base;
    uint32_t size;
    sw_error* err;
} sw__anim_loader;

/* A NUL-terminated name inside the string pool, 1..SW_ANIMATOR_MAX_NAME bytes. */
static bool sw__anim_load_str(const sw__anim_loader* L, uint32_t off) {
    if (off < L->a->strings_offset || off >= L->size) return false;
    size_t cap = L->size - off;
    if (cap > SW_ANIMATOR_MAX_NAME + 1u) cap = SW_ANIMATOR_MAX_NAME + 1u;
    const void* z = memchr(L->base + off, 0, cap);
    return z && z != (const void*)(L->base + off);
}

static bool sw__anim_load_numeric(const sw_animator* a, uint32_t p) {
    if (p >= a->params_count) return false;
    uint32_t t = sw__anim_params(a)[p].type;
    return t == SW_ANIMATOR_PARAM_TYPE_FLOAT || t == SW_ANIMATOR_PARAM_TYPE_INT;
}

#define SW__LOAD_FAIL(res, check, where, index)                                                    \
    return sw__fail(err, res, check, (uint64_t)(where), (int64_t)(index))

static sw_result sw__anim_load_arrays(const sw_animator* a, uint32_t size, sw_error* err) {
    const struct {
        uint32_t offset;
        uint64_t count, elem;
        const char* check;
    } arrays[] = {
        {a->params_offset, a->params_count, sizeof(sw__anim_param), "params in bounds"},
        {a->clips_offset, a->clips_count, 4u, "clips in bounds"},
        {a->bspaces_offset, a->bspaces_count, sizeof(sw__anim_bspace), "blend spaces in bounds"},
        {a->members_offset, a->members_count, sizeof(sw__anim_member), "members in bounds"},
        {a->markers_offset, a->markers_count, 4u, "markers in bounds"},
        {a->machines_offset, a->machines_count, sizeof(sw__anim_machine), "machines in bounds"},
        {a->order_offset, a->machines_count, 4u, "order in bounds"},
        {a->states_offset, a->states_count, sizeof(sw__anim_state), "states in bounds"},
        {a->transitions_offset, a->transitions_count, sizeof(sw__anim_transition),
         "transitions in bounds"},
        {a->conditions_offset, a->conditions_count, sizeof(sw__anim_cond), "conditions in bounds"},
        {a->layers_offset, a->layers_count, sizeof(sw__anim_layer), "layers in bounds"},
        {a->masks_offset, a->masks_count, sizeof(sw__anim_mask), "masks in bounds"},
    };
    if ((uint64_t)a->strings_offset + a->strings_size != size || a->strings_size == 0 ||
        a->strings_offset < sizeof(sw_animator)) {
        SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "string pool ends the block", 0, -1);
    }
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) {
        uint64_t end = (uint64_t)arrays[i].offset + arrays[i].count * arrays[i].elem;
        if (arrays[i].offset % 4u != 0 || arrays[i].offset < sizeof(sw_animator) ||
            end > a->strings_offset) {
            SW__LOAD_FAIL(SW_RESULT_BAD_DATA, arrays[i].check, arrays[i].offset, -1);
        }
    }
    return SW_RESULT_OK;
}

/* Blend spaces, their members (1D sorted) and sync markers, all used. */
static sw_result sw__anim_load_bspaces(const sw__anim_loader* L) {
    const sw_animator* a = L->a;
    sw_error* err = L->err;
    uint32_t members = 0, markers = 0;
    for (uint32_t i = 0; i < a->bspaces_count; ++i) {
        const sw__anim_bspace* b = &sw__anim_bspaces(a)[i];
        bool ok = sw__anim_load_str(L, b->name) && sw__anim_load_numeric(a, b->param_x) &&
                  (b->param_y == SW_ANIMATOR_NONE || sw__anim_load_numeric(a, b->param_y)) &&
                  b->first_member == members && b->members_count >= 1 &&
                  b->members_count <= SW_ANIMATOR_MAX_MEMBERS &&
                  b->members_count <= a->members_count - members && b->first_marker == markers &&
                  b->markers_count <= SW_ANIMATOR_MAX_MARKERS && b->directional <= 1u &&
                  (b->directional == 0u || b->param_y != SW_ANIMATOR_NONE) &&
                  b->markers_count <= a->markers_count - markers;
        if (!ok) SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "blend space", a->bspaces_offset, i);
        const sw__anim_member* m = &sw__anim_members(a)[members];
        for (uint32_t k = 0; k < b->members_count; ++k) {
            ok = m[k].clip < a->clips_count && isfinite(m[k].x) && isfinite(m[k].y);
            for (uint32_t j = 0; j < k && ok; ++j)
                ok = m[j].x != m[k].x || m[j].y != m[k].y;
            if (ok && b->param_y == SW_ANIMATOR_NONE && k > 0) ok = m[k - 1u].x < m[k].x;
            if (!ok) SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "blend space member", a->members_offset, i);
        }
        for (uint32_t k = 0; k < b->markers_count; ++k) {
            if (!sw__anim_load_str(L, sw__anim_markers(a)[markers + k])) {
                SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "sync marker", a->markers_offset, i);
            }
        }
        members += b->members_count;
        markers += b->markers_count;
    }
    if (members != a->members_count || markers != a->markers_count) {
        SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "members and markers all used", 0, -1);
    }
    return SW_RESULT_OK;
}

/* Machines, their states and transitions (conditions fitting their
 * parameters), all used, machine by machine. */
static sw_result sw__anim_load_machines(const sw__anim_loader* L) {
    const sw_animator* a = L->a;
    sw_error* err = L->err;
    const sw__anim_param* params = sw__anim_params(a);
    const sw__anim_state* states = sw__anim_states(a);
    const sw__anim_machine* machines = sw__anim_machines(a);
    uint32_t nstates = 0, ntrans = 0, nconds = 0;
    for (uint32_t m = 0; m < a->machines_count; ++m) {
        const sw__anim_machine* md = &machines[m];
        bool ok = sw__anim_load_str(L, md->name) && md->first_state == nstates &&
                  md->states_count >= 1 && md->states_count <= a->states_count - nstates &&
                  md->first_transition == ntrans &&
                  md->transitions_count <= a->transitions_count - ntrans &&
                  md->entry >= md->first_state && md->entry - md->first_state < md->states_count &&
                  md->layer < a->layers_count && md->depth < a->machines_count;
        if (!ok) SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "machine", a->machines_offset, m);
        for (uint32_t k = 0; k < md->states_count; ++k) {
            const sw__anim_state* st = &states[nstates + k];
            ok = sw__anim_load_str(L, st->name) && st->machine == m && st->once <= 1u &&
                 sw__anim_speed_ok(st->speed) &&
                 (st->speed_param == SW_ANIMATOR_NONE || sw__anim_load_numeric(a, st->speed_param));
            if (ok && st->motion == SW_ANIMATOR_MOTION_CLIP)
                ok = st->target < a->clips_count;
            else if (ok && st->motion == SW_ANIMATOR_MOTION_BLEND_SPACE) {
                ok = st->target < a->bspaces_count;
            } else if (ok && st->motion == SW_ANIMATOR_MOTION_MACHINE) {
                ok = st->target < a->machines_count &&
                     machines[st->target].owner_state == nstates + k;
            } else {
                ok = false;
            }
            if (!ok) SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "state", a->states_offset, nstates + k);
        }
        for (uint32_t k = 0; k < md->transitions_count; ++k) {
            const sw__anim_transition* t = &sw__anim_transitions(a)[ntrans + k];
            const uint32_t lo = md->first_state, hi = md->first_state + md->states_count;
            ok = (t->from == SW_ANIMATOR_NONE || (t->from >= lo && t->from < hi)) && t->to >= lo &&
                 t->to < hi && t->first_cond == nconds &&
                 t->conds_count <= SW_ANIMATOR_MAX_CONDITIONS &&
                 t->conds_count <= a->conditions_count - nconds && t->has_exit <= 1u &&
                 isfinite(t->exit_time) && (!t->has_exit || t->exit_time > 0.0f) &&
                 isfinite(t->duration) && t->duration >= 0.0f &&
                 (t->mode == SW_ANIMATOR_TRANSITION_MODE_CROSSFADE ||
                  t->mode == SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE) &&
                 t->interrupt < SW_ANIMATOR_INTERRUPT_COUNT && t->to_self <= 1u &&
                 t->has_window <= 1u &&
                 (t->has_window ? sw__anim_window_ok(t->window_start, t->window_end)
                                : t->window_start == 0.0f && t->window_end == 0.0f) &&
                 sw__anim_finite01(t->offset);
            if (ok && states[t->to].motion == SW_ANIMATOR_MOTION_MACHINE) {
                ok = t->from != t->to && !(t->from == SW_ANIMATOR_NONE && t->to_self) &&
                     t->offset == 0.0f;
            }
            for (uint32_t c = 0; c < t->conds_count && ok; ++c) {
                const sw__anim_cond* cd = &sw__anim_conds(a)[nconds + c];
                ok = cd->param < a->params_count && isfinite(cd->value) &&
                     sw__anim_op_fits((sw_animator_op)cd->op,
                                      (sw_animator_param_type)params[cd->param].type);
            }
            if (ok && t->mode == SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE && t->duration > 0.0f) {
                ok = a->has_inertialize == 1u;
            }
            if (!ok) {
                SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "transition", a->transitions_offset, ntrans + k);
            }
            nconds += t->conds_count;
        }
        nstates += md->states_count;
        ntrans += md->transitions_count;
    }
    if (nstates != a->states_count || ntrans != a->transitions_count ||
        nconds != a->conditions_count) {
        SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "states and transitions all used", 0, -1);
    }
    return SW_RESULT_OK;
}

/* Owners: each machine by exactly one layer or one machine state, depths and
 * layers consistent (so no cycle), the order sorted by layer then depth. */
static sw_result sw__anim_load_owners(const sw__anim_loader* L) {
    const sw_animator* a = L->a;
    sw_error* err = L->err;
    const sw__anim_state* states = sw__anim_states(a);
    const sw__anim_machine* machines = sw__anim_machines(a);
    uint32_t played[SW_ANIMATOR_MAX_MACHINES];
    memset(played, 0, sizeof played);
    for (uint32_t l = 0; l < a->layers_count; ++l) {
        uint32_t m = sw__anim_layers(a)[l].machine;
        if (m >= a->machines_count) SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "layer", a->layers_offset, l);
        played[m]++;
        if (machines[m].owner_state != SW_ANIMATOR_NONE || machines[m].layer != l ||
            machines[m].depth != 0) {
            SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "layer machine", a->layers_offset, l);
        }
    }
    for (uint32_t s = 0; s < a->states_count; ++s) {
        if (states[s].motion == SW_ANIMATOR_MOTION_MACHINE) played[states[s].target]++;
    }
    for (uint32_t m = 0; m < a->machines_count; ++m) {
        bool ok = played[m] == 1u;
        uint32_t owner = machines[m].owner_state;
        if (ok && owner != SW_ANIMATOR_NONE) {
            ok = owner < a->states_count;
            const sw__anim_machine* pm = ok ? &machines[states[owner].machine] : NULL;
            ok = ok && pm->depth + 1u == machines[m].depth && pm->layer == machines[m].layer;
        }
        if (!ok) SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "machine owner", a->machines_offset, m);
    }
    const uint32_t* order = sw__anim_order(a);
    memset(played, 0, sizeof played);
    for (uint32_t i = 0; i < a->machines_count; ++i) {
        uint32_t m = order[i];
        bool ok = m < a->machines_count && !played[m];
        if (ok && i > 0) {
            const sw__anim_machine* p = &machines[order[i - 1u]];
            ok = p->layer < machines[m].layer ||
                 (p->layer == machines[m].layer && p->depth <= machines[m].depth);
        }
        if (!ok) SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "machine order", a->order_offset, i);
        played[m] = 1;
    }
    return SW_RESULT_OK;
}

/* Layers and masks, with the worst-case playing clips recomputed. */
static sw_result sw__anim_load_layers(const sw__anim_loader* L) {
    const sw_animator* a = L->a;
    sw_error* err = L->err;
    const sw__anim_state* states = sw__anim_states(a);
    const sw__anim_machine* machines = sw__anim_machines(a);
    const uint32_t* order = sw__anim_order(a);
    /* worst-case playing clips, deepest first (depths are now consistent) */
    uint32_t contrib[SW_ANIMATOR_MAX_MACHINES];
    for (uint32_t i = a->machines_count; i-- > 0;) {
        uint32_t m = order[i];
        uint32_t worst = 0;
        for (uint32_t k = 0; k < machines[m].states_count; ++k) {
            const sw__anim_state* st = &states[machines[m].first_state + k];
            uint32_t n = 1;
            if (st->motion == SW_ANIMATOR_MOTION_BLEND_SPACE) {
                n = sw__anim_bspaces(a)[st->target].members_count;
            } else if (st->motion == SW_ANIMATOR_MOTION_MACHINE) {
                n = contrib[st->target];
            }
            if (n > worst) worst = n;
        }
        uint64_t total = (uint64_t)worst * SW_ANIMATOR_MAX_FADES;
        contrib[m] = total > 0xFFFFu ? 0xFFFFu : (uint32_t)total;
    }
    uint32_t masks = 0, max_contrib = 0;
    for (uint32_t l = 0; l < a->layers_count; ++l) {
        const sw__anim_layer* ld = &sw__anim_layers(a)[l];
        bool ok = sw__anim_load_str(L, ld->name) &&
                  (ld->mode == SW_ANIMATOR_LAYER_MODE_OVERRIDE ||
                   (ld->mode == SW_ANIMATOR_LAYER_MODE_ADDITIVE && l > 0)) &&
                  sw__anim_finite01(ld->weight) &&
                  (ld->weight_param == SW_ANIMATOR_NONE ||
                   (l > 0 && sw__anim_load_numeric(a, ld->weight_param))) &&
                  ld->first_mask == masks && ld->mask_count <= SW_ANIMATOR_MAX_MASK &&
                  ld->mask_count <= a->masks_count - masks && (l > 0 || ld->mask_count == 0) &&
                  (ld->reference == SW_ANIMATOR_REFERENCE_FIRST_FRAME ||
                   ld->reference == SW_ANIMATOR_REFERENCE_REST_POSE) &&
                  ld->max_contrib == contrib[ld->machine] &&
                  ld->max_contrib <= SW_ANIMATOR_MAX_CONTRIBUTIONS;
        for (uint32_t k = 0; k < ld->mask_count && ok; ++k) {
            const sw__anim_mask* mk = &sw__anim_masks(a)[masks + k];
            ok = sw__anim_load_str(L, mk->joint) && sw__anim_finite01(mk->weight);
        }
        if (!ok) SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "layer", a->layers_offset, l);
        masks += ld->mask_count;
        if (ld->max_contrib > max_contrib) max_contrib = ld->max_contrib;
    }
    if (masks != a->masks_count || max_contrib != a->max_contrib) {
        SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "masks and contributions", 0, -1);
    }
    return SW_RESULT_OK;
    return SW_RESULT_OK;
}

static sw_result sw__anim_load_check(const sw__anim_loader* L) {
    const sw_animator* a = L->a;
    sw_error* err = L->err;
    if (a->params_count > SW_ANIMATOR_MAX_PARAMS || a->clips_count > SW_ANIMATOR_MAX_CLIPS ||
        a->bspaces_count > SW_ANIMATOR_MAX_BLEND_SPACES ||
        a->members_count > SW_ANIMATOR_MAX_BLEND_SPACES * SW_ANIMATOR_MAX_MEMBERS ||
        a->markers_count > SW_ANIMATOR_MAX_BLEND_SPACES * SW_ANIMATOR_MAX_MARKERS ||
        a->machines_count > SW_ANIMATOR_MAX_MACHINES || a->states_count > SW_ANIMATOR_MAX_STATES ||
        a->transitions_count > SW_ANIMATOR_MAX_TRANSITIONS ||
        a->conditions_count > SW_ANIMATOR_MAX_TRANSITIONS * SW_ANIMATOR_MAX_CONDITIONS ||
        a->layers_count > SW_ANIMATOR_MAX_LAYERS ||
        a->masks_count > SW_ANIMATOR_MAX_LAYERS * SW_ANIMATOR_MAX_MASK) {
        SW__LOAD_FAIL(SW_RESULT_LIMIT, "counts within limits", 0, -1);
    }
    if (a->machines_count == 0 || a->layers_count == 0) {
        SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "has machines and layers", 0, -1);
    }
    sw_result r = sw__anim_load_arrays(a, L->size, err);
    if (r != SW_RESULT_OK) return r;
    if (!sw__anim_finite01(a->event_threshold) || a->has_root > 1u || a->has_inertialize > 1u ||
        (a->has_root && !sw__anim_load_str(L, a->root_name))) {
        SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "header fields", 0, -1);
    }
    const sw__anim_param* params = sw__anim_params(a);
    for (uint32_t i = 0; i < a->params_count; ++i) {
        const sw__anim_param* p = &params[i];
        bool ok = sw__anim_load_str(L, p->name) && p->type >= SW_ANIMATOR_PARAM_TYPE_FLOAT &&
                  p->type < SW_ANIMATOR_PARAM_TYPE_COUNT && sw__anim_value_fits(p->type, p->value);
        if (!ok) SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "param", a->params_offset, i);
    }
    for (uint32_t k = 0; k < 4u; ++k) {
        const uint32_t p = a->hit_params[k];
        if (p != SW_ANIMATOR_NONE &&
            (p >= a->params_count || params[p].type != sw__anim_hit_type(k))) {
            SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "hit params", offsetof(sw_animator, hit_params), k);
        }
    }
    for (uint32_t k = 0; k < 3u; ++k) {
        const uint32_t p = a->move_params[k];
        if (p != 0u && (p > a->params_count ||
                        params[p - 1u].type != (uint32_t)SW_ANIMATOR_PARAM_TYPE_FLOAT)) {
            SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "move params", offsetof(sw_animator, move_params), k);
        }
    }
    for (uint32_t i = 0; i < a->clips_count; ++i) {
        if (!sw__anim_load_str(L, sw__anim_clip_names(a)[i])) {
            SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "clip name", a->clips_offset, i);
        }
    }
    r = sw__anim_load_bspaces(L);
    if (r == SW_RESULT_OK) r = sw__anim_load_machines(L);
    if (r == SW_RESULT_OK) r = sw__anim_load_owners(L);
    if (r == SW_RESULT_OK) r = sw__anim_load_layers(L);
    return r;
}

sw_result sw_animator_load(const void* data, size_t size, const sw_animator** out, sw_error* err) {
    if (!data || !out) SW__LOAD_FAIL(SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    if (!sw__aligned16(data)) SW__LOAD_FAIL(SW_RESULT_MISALIGNED, "data 16-byte aligned", 0, -1);
    if (size < sizeof(sw_animator)) SW__LOAD_FAIL(SW_RESULT_TRUNCATED, "header", 0, -1);
    const sw_animator* a = (const sw_animator*)data;
    if (a->magic != SW__ANIMATOR_MAGIC) SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "magic", 0, -1);
    if (a->size > size) SW__LOAD_FAIL(SW_RESULT_TRUNCATED, "block size", 4, -1);
    if (a->size < sizeof(sw_animator) || a->size % 16u != 0) {
        SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "block size", 4, -1);
    }
    if (a->format != SW__ANIMATOR_FORMAT) {
        SW__LOAD_FAIL(SW_RESULT_BAD_DATA, "block format", offsetof(sw_animator, format), -1);
    }

    sw__anim_loader L = {a, (const char*)data, a->size, err};
    sw_result r = sw__anim_load_check(&L);
    if (r != SW_RESULT_OK) return r;
    *out = a;
    return SW_RESULT_OK;
}

#undef SW__LOAD_FAIL

/* ---- lookups -------------------------------------------------------------------- */

uint32_t sw_animator_params_count(const sw_animator* a) {
    return a ? a->params_count : 0u;
}

bool sw_animator_inertializes(const sw_animator* a) {
    return a && a->has_inertialize;
}

const char* sw_animator_param_name(const sw_animator* a, uint32_t p) {
    if (!a || p >= a->params_count) return NULL;
    return sw__anim_str(a, sw__anim_params(a)[p].name);
}

sw_animator_param_type sw_animator_param_type_of(const sw_animator* a, uint32_t p) {
    if (!a || p >= a->params_count) return SW_ANIMATOR_PARAM_TYPE_DEFAULT;
    return (sw_animator_param_type)sw__anim_params(a)[p].type;
}

int32_t sw_animator_find_param(const sw_animator* a, const char* name) {
    if (!a || !name) return -1;
    for (uint32_t i = 0; i < a->params_count; ++i) {
        if (strcmp(sw__anim_str(a, sw__anim_params(a)[i].name), name) == 0) return (int32_t)i;
    }
    return -1;
}

uint32_t sw_animator_clips_count(const sw_animator* a) {
    return a ? a->clips_count : 0u;
}

const char* sw_animator_clip_name(const sw_animator* a, uint32_t slot) {
    if (!a || slot >= a->clips_count) return NULL;
    return sw__anim_str(a, sw__anim_clip_names(a)[slot]);
}

uint32_t sw_animator_states_count(const sw_animator* a) {
    return a ? a->states_count : 0u;
}

const char* sw_animator_state_name(const sw_animator* a, uint32_t s) {
    if (!a || s >= a->states_count) return NULL;
    return sw__anim_str(a, sw__anim_states(a)[s].name);
}

uint32_t sw_animator_state_machine(const sw_animator* a, uint32_t s) {
    if (!a || s >= a->states_count) return SW_ANIMATOR_NONE;
    return sw__anim_states(a)[s].machine;
}

uint32_t sw_animator_machines_count(const sw_animator* a) {
    return a ? a->machines_count : 0u;
}

const char* sw_animator_machine_name(const sw_animator* a, uint32_t m) {
    if (!a || m >= a->machines_count) return NULL;
    return sw__anim_str(a, sw__anim_machines(a)[m].name);
}

uint32_t sw_animator_layers_count(const sw_animator* a) {
    return a ? a->layers_count : 0u;
}

const char* sw_animator_layer_name(const sw_animator* a, uint32_t l) {
    if (!a || l >= a->layers_count) return NULL;
    return sw__anim_str(a, sw__anim_layers(a)[l].name);
}

int32_t sw_animator_find_state(const sw_animator* a, const char* name) {
    if (!a || !name) return -1;
    const char* slash = strchr(name, '/');
    size_t mlen = slash ? (size_t)(slash - name) : 0u;
    const char* sname = slash ? slash + 1 : name;
    for (uint32_t i = 0; i < a->states_count; ++i) {
        const sw__anim_state* s = &sw__anim_states(a)[i];
        if (strcmp(sw__anim_str(a, s->name), sname) != 0) continue;
        if (slash) {
            const char* mn = sw__anim_str(a, sw__anim_machines(a)[s->machine].name);
            if (strlen(mn) != mlen || strncmp(mn, name, mlen) != 0) continue;
        }
        return (int32_t)i;
    }
    return -1;
}

sw_result sw_animator_params_reset(const sw_animator* a, float* params, uint32_t params_count) {
    if (!a || (!params && a->params_count > 0)) return SW_RESULT_INVALID_ARGUMENT;
    if (params_count < a->params_count) return SW_RESULT_BUFFER_TOO_SMALL;
    for (uint32_t i = 0; i < a->params_count; ++i)
        params[i] = sw__anim_params(a)[i].value;
    return SW_RESULT_OK;
}

/* ---- binding --------------------------------------------------------------------- */

typedef struct sw__bound_layout {
    uint32_t clips, tables, masks, marks, size;
} sw__bound_layout;

static void sw__bound_layout_of(const sw_animator* a, const sw_skeleton* s, sw__bound_layout* lay) {
    uint64_t at = sw__align16(sizeof(sw_animator_bound));
    lay->clips =
        (uint32_t)sw__layout_take(&at, sizeof(const sw_clip*) * (uint64_t)a->clips_count, 16u);
    lay->tables =
        (uint32_t)sw__layout_take(&at, sizeof(const uint32_t*) * (uint64_t)a->clips_count, 16u);
    lay->masks = (uint32_t)at;
    uint32_t masked = 0;
    for (uint32_t l = 0; l < a->layers_count; ++l) {
        if (sw__anim_layers(a)[l].mask_count > 0) ++masked;
    }
    at += (uint64_t)masked * s->packets_count * 4u * sizeof(float);
    lay->marks = (uint32_t)at;
    uint64_t marks = 0;
    for (uint32_t b = 0; b < a->bspaces_count; ++b) {
        const sw__anim_bspace* bs = &sw__anim_bspaces(a)[b];
        if (bs->markers_count > 0) {
            marks += (uint64_t)bs->members_count * (SW__ANIM_MAX_MARKS + 1u);
        }
    }
    lay->size = (uint32_t)sw__align16(at + marks * sizeof(double));
}

size_t sw_animator_bound_size(const sw_animator* a, const sw_skeleton* skeleton) {
    if (!a || !skeleton) return 0;
    sw__bound_layout lay;
    sw__bound_layout_of(a, skeleton, &lay);
    return lay.size;
}

static bool sw__bound_marker_name(const sw_animator* a, const sw__anim_bspace* bs, const char* name,
                                  uint32_t* which) {
    for (uint32_t k = 0; k < bs->markers_count; ++k) {
        const char* m = sw__anim_str(a, sw__anim_markers(a)[bs->first_marker + k]);
        if (strcmp(m, name) == 0) {
            *which = k;
            return true;
        }
    }
    return false;
}

/* Sync markers of one member: normalized positions u[0..n) starting at the
 * first event named like the first marker, increasing, u[n] = u[0] + 1;
 * names[] receives the marker kinds in that order. */
static const char* sw__bound_member_marks(const sw_animator* a, const sw__anim_bspace* bs,
                                          const sw_clip* clip, double* u, uint32_t* names,
                                          uint32_t* count) {
    uint32_t n = 0, first = SW_ANIMATOR_NONE;
    double pos[SW__ANIM_MAX_MARKS];
    uint32_t kind[SW__ANIM_MAX_MARKS];
    if (!(clip->duration > 0.0f)) return "sync clips have a duration";
    for (uint32_t e = 0; e < clip->events_count; ++e) {
        uint32_t k;
        if (!sw__bound_marker_name(a, bs, sw_clip_event_name(clip, e), &k)) continue;
        if (n == SW__ANIM_MAX_MARKS) return "sync markers per clip";
        /* double: (time / d) * d rounds back to the event's float time */
        double v = (double)sw_clip_events(clip)[e].time / (double)clip->duration;
        if (v >= 1.0) v = 0.0;
        if (k == 0 && first == SW_ANIMATOR_NONE) first = n;
        pos[n] = v;
        kind[n] = k;
        ++n;
    }
    if (first == SW_ANIMATOR_NONE) return "sync markers present";
    /* Events are sorted by time except an event at the end moved to 0. */
    for (uint32_t i = 1; i < n; ++i) {
        double v = pos[i];
        uint32_t k = kind[i], j = i;
        while (j > 0 && pos[j - 1u] > v) {
            pos[j] = pos[j - 1u];
            kind[j] = kind[j - 1u];
            --j;
        }
        pos[j] = v;
        kind[j] = k;
    }
    first = SW_ANIMATOR_NONE;
    for (uint32_t i = 0; i < n && first == SW_ANIMATOR_NONE; ++i) {
        if (kind[i] == 0) first = i;
    }
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t j = (first + i) % n;
        u[i] = pos[j] + (j < first ? 1.0 : 0.0);
        names[i] = kind[j];
        if (i > 0 && !(u[i] > u[i - 1u])) return "sync markers strictly increasing";
    }
    u[n] = u[0] + 1.0;
    if (n > 1 && !(u[n] > u[n - 1u])) return "sync markers strictly increasing";
    *count = n;
    return NULL;
}

/* Per-joint weights of each masked layer: a joint takes the weight of its
 * nearest listed ancestor-or-self (parents come first), 0 when none. */
static void sw__bind_masks(sw_animator_bound* b, float* mw) {
    const sw_animator* a = b->def;
    const sw_skeleton* skeleton = b->skeleton;
    const sw__anim_layer* layers = sw__anim_layers(a);
    const sw__anim_mask* masks = sw__anim_masks(a);
    const int16_t* parents = sw_skeleton_parents(skeleton);
    uint32_t masked = 0;
    for (uint32_t l = 0; l < a->layers_count; ++l) {
        b->mask_index[l] = SW_ANIMATOR_NONE;
        if (layers[l].mask_count == 0) continue;
        b->mask_index[l] = masked;
        float* w = mw + (size_t)masked * skeleton->packets_count * 4u;
        uint8_t listed[SW_SKELETON_MAX_JOINTS];
        memset(listed, 0, sizeof listed);
        for (uint32_t k = 0; k < layers[l].mask_count; ++k) {
            const sw__anim_mask* m = &masks[layers[l].first_mask + k];
            uint32_t j = (uint32_t)sw_skeleton_find_joint(skeleton, sw__anim_str(a, m->joint));
            w[j] = m->weight;
            listed[j] = 1;
        }
        for (uint32_t j = 0; j < skeleton->joints_count; ++j) {
            if (!listed[j]) w[j] = parents[j] >= 0 ? w[parents[j]] : 0.0f;
        }
        ++masked;
    }
}

/* Sync marker positions of the synced blend spaces' members; the failed
 * check (and *bad, the blend space) or NULL. */
static const char* sw__bind_marks(sw_animator_bound* b, double* marks, uint32_t* bad) {
    const sw_animator* a = b->def;
    const sw_clip* const* slots = sw__bound_clips(b);
    uint32_t marks_at = 0;
    for (uint32_t i = 0; i < a->bspaces_count; ++i) {
        const sw__anim_bspace* bs = &sw__anim_bspaces(a)[i];
        b->marks_index[i] = SW_ANIMATOR_NONE;
        b->marks_count[i] = 0;
        if (bs->markers_count == 0) continue;
        b->marks_index[i] = marks_at;
        uint32_t names0[SW__ANIM_MAX_MARKS], count0 = 0;
        for (uint32_t m = 0; m < bs->members_count; ++m) {
            const sw_clip* clip = slots[sw__anim_members(a)[bs->first_member + m].clip];
            uint32_t names[SW__ANIM_MAX_MARKS], count = 0;
            double* u = marks + marks_at + (size_t)m * (SW__ANIM_MAX_MARKS + 1u);
            const char* check = sw__bound_member_marks(a, bs, clip, u, names, &count);
            if (!check && m == 0) {
                count0 = count;
                memcpy(names0, names, sizeof names);
            } else if (!check && (count != count0 || memcmp(names, names0, count * 4u) != 0)) {
                check = "sync markers in the same order";
            }
            if (check) {
                *bad = i;
                return check;
            }
        }
        b->marks_count[i] = count0;
        marks_at += bs->members_count * (SW__ANIM_MAX_MARKS + 1u);
    }
    return NULL;
}

/* True when an instance keeping `keep` gives `clip` a sampling cache: a
 * raw clip with a track of explicit times (its cursors resume the key
 * search; uniform tracks find their keys from the time alone), and with
 * SW_ANIMATOR_KEEP_KEYS a quantized clip whose decoder keeps decoded keys
 * on this build (sw_sample_cache_size beyond its cursors). */
static bool sw__bound_clip_caches(const sw_clip* clip, uint32_t keep) {
    if (clip->codec == SW_CLIP_CODEC_QUANTIZED)
        return keep == SW_ANIMATOR_KEEP_KEYS && sw_sample_cache_size(clip) > clip->tracks_count;
    if (clip->codec != SW_CLIP_CODEC_RAW) return false;
    for (uint32_t t = 0; t < clip->tracks_count; ++t) {
        if (!sw_clip_tracks(clip)[t].uniform) return true;
    }
    return false;
}

/* 1 when clip slot `slot` is cached (keeping `keep`) and not yet in `seen`
 * (then added). */
static uint32_t sw__bind_cache_note(const sw_animator_bound* b, uint32_t keep, uint32_t* seen,
                                    uint32_t slot) {
    if (!sw__bound_cached(b, keep, slot) || ((seen[slot / 32u] >> (slot % 32u)) & 1u)) return 0;
    seen[slot / 32u] |= 1u << (slot % 32u);
    return 1;
}

/* The bound's caches_first[keep]: per layer, one sampling cache for each
 * clip slot cached keeping `keep` that a state of the layer's machines
 * (nested ones included) plays, alone or as a blend space member, but no
 * more than the layer's playing clips (its max_contrib). Evaluate gives
 * each contribution the cache that last sampled its clip (sw__eval_claim). */
static void sw__bind_caches(sw_animator_bound* b, uint32_t keep) {
    const sw_animator* a = b->def;
    uint32_t* first = b->caches_first[keep];
    uint32_t at = 0;
    for (uint32_t l = 0; l < a->layers_count; ++l) {
        uint32_t seen[SW_ANIMATOR_MAX_CLIPS / 32u] = {0};
        uint32_t n = 0;
        for (uint32_t s = 0; s < a->states_count; ++s) {
            const sw__anim_state* st = &sw__anim_states(a)[s];
            if (sw__anim_machines(a)[st->machine].layer != l) continue;
            if (st->motion == SW_ANIMATOR_MOTION_CLIP)
                n += sw__bind_cache_note(b, keep, seen, st->target);
            if (st->motion != SW_ANIMATOR_MOTION_BLEND_SPACE) continue;
            const sw__anim_bspace* bs = &sw__anim_bspaces(a)[st->target];
            for (uint32_t k = 0; k < bs->members_count; ++k)
                n += sw__bind_cache_note(b, keep, seen,
                                         sw__anim_members(a)[bs->first_member + k].clip);
        }
        first[l] = at;
        at += n < sw__anim_layers(a)[l].max_contrib ? n : sw__anim_layers(a)[l].max_contrib;
    }
    first[a->layers_count] = at;
}

/* The joints a subset must keep from joint 0 on for the animator to sample
 * the clip without it (see sw_animator_bound's keep_end): quantized clips
 * 1 + the largest joint of their animated tracks (0: none), at most the
 * skeleton's joints; frames clips 0; raw clips more than any skeleton's. */
static uint16_t sw__bound_keep_end(const sw_clip* clip, const sw_skeleton* skeleton) {
    if (clip->codec == SW_CLIP_CODEC_FRAMES) return 0;
    if (clip->codec != SW_CLIP_CODEC_QUANTIZED) return UINT16_MAX;
    const sw_codec_header* h = sw_clip_codec_header(clip);
    const sw_codec_track* tracks =
        (const sw_codec_track*)(const void*)((const char*)h + h->tracks_offset);
    uint16_t end = 0;
    for (uint32_t a = 0; a < h->animated_count; ++a) {
        if (tracks[a].joint >= end) end = (uint16_t)(tracks[a].joint + 1u);
    }
    return end < skeleton->joints_count ? end : (uint16_t)skeleton->joints_count;
}

sw_result sw_animator_bind_tables(const sw_animator* a, const sw_skeleton* skeleton,
                                  const sw_clip* const* clips, const uint32_t* const* tables,
                                  uint32_t clips_count, void* mem, size_t size,
                                  const sw_animator_bound** out, sw_error* err) {
    if (!a || !skeleton || !mem || !out || (!clips && clips_count > 0)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if (a->magic != SW__ANIMATOR_MAGIC) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "animator definition", 0, -1);
    }
    if (!sw__aligned16(mem))
        return sw__fail(err, SW_RESULT_MISALIGNED, "mem 16-byte aligned", 0, -1);
    for (uint32_t i = 0; i < clips_count; ++i) {
        if (!clips[i]) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clips not NULL", 0, i);
        if (tables && tables[i] &&
            (clips[i]->codec != SW_CLIP_CODEC_QUANTIZED ||
             !sw__codec_quantized_table_fits(clips[i], tables[i])))
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "table made for its clip", 0, i);
    }
    sw__bound_layout lay;
    sw__bound_layout_of(a, skeleton, &lay);
    if (size < lay.size) return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "size", 0, -1);

    /* Resolve everything before writing, so a failure leaves mem untouched. */
    const sw__anim_layer* layers = sw__anim_layers(a);
    const sw__anim_mask* masks = sw__anim_masks(a);
    for (uint32_t s = 0; s < a->clips_count; ++s) {
        const char* name = sw__anim_str(a, sw__anim_clip_names(a)[s]);
        const sw_clip* found = NULL;
        for (uint32_t i = 0; i < clips_count && !found; ++i) {
            if (strcmp(sw_clip_name(clips[i]), name) == 0) found = clips[i];
        }
        if (!found) return sw__fail(err, SW_RESULT_NOT_FOUND, "clip slot has a clip", 0, s);
        if (found->joints_count != skeleton->joints_count) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "clip joints match the skeleton", 0, s);
        }
    }
    for (uint32_t l = 0; l < a->layers_count; ++l) {
        for (uint32_t k = 0; k < layers[l].mask_count; ++k) {
            const char* jn = sw__anim_str(a, masks[layers[l].first_mask + k].joint);
            if (sw_skeleton_find_joint(skeleton, jn) < 0) {
                return sw__fail(err, SW_RESULT_NOT_FOUND, "mask joint in the skeleton", 0, l);
            }
        }
    }
    int32_t root = -1;
    if (a->has_root) {
        root = sw_skeleton_find_joint(skeleton, sw__anim_str(a, a->root_name));
        if (root < 0) return sw__fail(err, SW_RESULT_NOT_FOUND, "root motion joint", 0, -1);
    }

    memset(mem, 0, lay.size);
    sw_animator_bound* b = (sw_animator_bound*)mem;
    b->magic = SW__BOUND_MAGIC;
    b->size = lay.size;
    b->def = a;
    b->skeleton = skeleton;
    b->clips_offset = lay.clips;
    b->tables_offset = lay.tables;
    b->masks_offset = lay.masks;
    b->marks_offset = lay.marks;
    b->packets = skeleton->packets_count;
    b->root_joint = root < 0 ? SW_ANIMATOR_NONE : (uint32_t)root;
    const sw_clip** slots = (const sw_clip**)(void*)((char*)mem + lay.clips);
    const uint32_t** shared = (const uint32_t**)(void*)((char*)mem + lay.tables);
    for (uint32_t s = 0; s < a->clips_count; ++s) {
        const char* name = sw__anim_str(a, sw__anim_clip_names(a)[s]);
        for (uint32_t i = 0; i < clips_count; ++i) {
            if (strcmp(sw_clip_name(clips[i]), name) == 0) {
                slots[s] = clips[i];
                shared[s] = tables ? tables[i] : NULL;
                break;
            }
        }
        for (uint32_t k = 0; k < SW_ANIMATOR_KEEP_COUNT; ++k) {
            if (!sw__bound_clip_caches(slots[s], k)) continue;
            b->cached[k][s / 32u] |= 1u << (s % 32u);
            /* a cache reading the slot's table needs no room for its headers */
            const uint32_t words = shared[s] ? sw_sample_cache_size_with_table(slots[s])
                                             : sw_sample_cache_size(slots[s]);
            if (words > b->cursors[k]) b->cursors[k] = words;
        }
        b->keep_end[s] = sw__bound_keep_end(slots[s], skeleton);
    }
    for (uint32_t k = 0; k < SW_ANIMATOR_KEEP_COUNT; ++k)
        sw__bind_caches(b, k);
    const int16_t* parents = sw_skeleton_parents(skeleton);
    sw__bind_masks(b, (float*)(void*)((char*)mem + lay.masks));
    /* Root: the parent's model transform at rest. */
    b->root_parent = sw_xform_identity();
    if (root >= 0) {
        int32_t p = parents[root];
        sw_xform acc = sw_xform_identity();
        while (p >= 0) {
            acc = sw_xform_mul(sw_pose_get(sw_skeleton_rest_pose(skeleton), (uint32_t)p), acc);
            p = parents[p];
        }
        b->root_parent = acc;
    }
    b->root_parent_inv = sw_xform_inverse(b->root_parent);
    uint32_t bad = 0;
    const char* check = sw__bind_marks(b, (double*)(void*)((char*)mem + lay.marks), &bad);
    if (check) {
        memset(mem, 0, lay.size);
        return sw__fail(err, SW_RESULT_BAD_DATA, check, 0, bad);
    }
    *out = b;
    return SW_RESULT_OK;
}

sw_result sw_animator_bind(const sw_animator* a, const sw_skeleton* skeleton,
                           const sw_clip* const* clips, uint32_t clips_count, void* mem,
                           size_t size, const sw_animator_bound** out, sw_error* err) {
    return sw_animator_bind_tables(a, skeleton, clips, NULL, clips_count, mem, size, out, err);
}

const sw_animator* sw_animator_bound_definition(const sw_animator_bound* b) {
    return b ? b->def : NULL;
}

const sw_skeleton* sw_animator_bound_skeleton(const sw_animator_bound* b) {
    return b ? b->skeleton : NULL;
}

const sw_clip* sw_animator_bound_clip(const sw_animator_bound* b, uint32_t slot) {
    if (!b || slot >= b->def->clips_count) return NULL;
    return sw__bound_clips(b)[slot];
}
