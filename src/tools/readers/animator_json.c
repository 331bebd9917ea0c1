/* Animator definitions from JSON (schema: docs/animator.md).
 *
 * Two passes over the tokens: the first counts the arrays (params, blend
 * spaces, members, markers, machines, states, transitions, conditions,
 * layers, mask entries) so that one allocation holds the whole desc and its
 * decoded strings; the second fills the desc, checking every key and type.
 * The desc is then built with sw_animator_create and the storage freed. */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "shared/fail.h"
#include "shared/layout.h"
#include "sinew/sinew.h"
#include "sinew/tools/readers/animator_json.h"
#include "sinew/tools/writers/file.h"

typedef struct sw__aj {
    const sw__json* j;
    sw_error* err;
    char* strings; /* arena for decoded strings */
    size_t strings_cap, strings_used;
    sw_animator_param_desc* params;
    sw_animator_blend_space_desc* spaces;
    sw_animator_member_desc* members;
    const char** markers;
    sw_animator_machine_desc* machines;
    sw_animator_state_desc* states;
    sw_animator_transition_desc* transitions;
    sw_animator_condition_desc* conds;
    sw_animator_layer_desc* layers;
    sw_animator_mask_desc* masks;
    uint32_t n_members, n_markers, n_states, n_transitions, n_conds, n_masks;
} sw__aj;

static sw_result sw__aj_fail(sw__aj* c, int32_t t, const char* check) {
    return sw__fail(c->err, SW_RESULT_PARSE, check, sw__json_offset(c->j, t), -1);
}

static bool sw__aj_is_null(const sw__aj* c, int32_t t) {
    return sw__json_type_of(c->j, t) == SW__JSON_PRIMITIVE &&
           c->j->text[c->j->tokens[t].start] == 'n';
}

/* Rejects keys of object `obj` not in the NULL-terminated list. */
static sw_result sw__aj_keys(sw__aj* c, int32_t obj, const char* const* allowed, const char* what) {
    if (sw__json_type_of(c->j, obj) != SW__JSON_OBJECT) return sw__aj_fail(c, obj, what);
    for (int32_t k = sw__json_first(c->j, obj); k >= 0; k = sw__json_next(c->j, obj, k)) {
        bool ok = false;
        for (const char* const* a = allowed; *a && !ok; ++a)
            ok = sw__json_string_is(c->j, k, *a);
        if (!ok) return sw__aj_fail(c, k, "known key");
    }
    return SW_RESULT_OK;
}

/* A string token decoded into the arena. */
static sw_result sw__aj_decode(sw__aj* c, int32_t t, const char** out, const char* check) {
    if (sw__json_type_of(c->j, t) != SW__JSON_STRING) return sw__aj_fail(c, t, check);
    size_t len = 0;
    char* dst = c->strings + c->strings_used;
    if (!sw__json_string(c->j, t, dst, c->strings_cap - c->strings_used, &len)) {
        return sw__aj_fail(c, t, check);
    }
    c->strings_used += len + 1u;
    *out = dst;
    return SW_RESULT_OK;
}

/* The string value of `key` (NULL when absent or null unless required). */
static sw_result sw__aj_str(sw__aj* c, int32_t obj, const char* key, bool required,
                            const char** out, const char* check) {
    int32_t t = sw__json_find(c->j, obj, key);
    *out = NULL;
    if (t < 0 || sw__aj_is_null(c, t)) {
        return required ? sw__aj_fail(c, t < 0 ? obj : t, check) : SW_RESULT_OK;
    }
    return sw__aj_decode(c, t, out, check);
}

/* A JSON number that a float holds (finite, within its range). */
static bool sw__aj_fits_float(double v) {
    return fabs(v) <= 3.4e38;
}

static sw_result sw__aj_num(sw__aj* c, int32_t obj, const char* key, float fallback, float* out,
                            const char* check) {
    int32_t t = sw__json_find(c->j, obj, key);
    *out = fallback;
    if (t < 0) return SW_RESULT_OK;
    double v;
    if (!sw__json_number(c->j, t, &v) || !sw__aj_fits_float(v)) return sw__aj_fail(c, t, check);
    *out = (float)v;
    return SW_RESULT_OK;
}

static sw_result sw__aj_bool(sw__aj* c, int32_t obj, const char* key, bool* out,
                             const char* check) {
    int32_t t = sw__json_find(c->j, obj, key);
    *out = false;
    if (t < 0) return SW_RESULT_OK;
    if (!sw__json_bool(c->j, t, out)) return sw__aj_fail(c, t, check);
    return SW_RESULT_OK;
}

/* The value of enum `e` whose word (sw_animator_enum_word) is the string of
 * `key`, or `fallback` when the key is absent. */
static sw_result sw__aj_enum(sw__aj* c, int32_t obj, const char* key, sw_animator_enum e,
                             uint32_t fallback, uint32_t* out, const char* check) {
    int32_t t = sw__json_find(c->j, obj, key);
    *out = fallback;
    if (t < 0) return SW_RESULT_OK;
    for (uint32_t v = 0; v < sw_animator_enum_count(e); ++v) {
        const char* word = sw_animator_enum_word(e, v);
        if (word && sw__json_string_is(c->j, t, word)) {
            *out = v;
            return SW_RESULT_OK;
        }
    }
    return sw__aj_fail(c, t, check);
}

/* An optional array value: its token or -1; fails for other types. */
static sw_result sw__aj_array(sw__aj* c, int32_t obj, const char* key, int32_t* out,
                              const char* check) {
    int32_t t = sw__json_find(c->j, obj, key);
    *out = -1;
    if (t < 0 || sw__aj_is_null(c, t)) return SW_RESULT_OK;
    if (sw__json_type_of(c->j, t) != SW__JSON_ARRAY) return sw__aj_fail(c, t, check);
    *out = t;
    return SW_RESULT_OK;
}

#define SW__AJ_TRY(expr)                                                                           \
    do {                                                                                           \
        sw_result r_ = (expr);                                                                     \
        if (r_ != SW_RESULT_OK) return r_;                                                         \
    } while (0)

static sw_result sw__aj_params(sw__aj* c, int32_t arr, sw_animator_desc* d) {
    static const char* const keys[] = {"name", "type", "default", NULL};
    uint32_t i = 0;
    for (int32_t t = sw__json_first(c->j, arr); t >= 0; t = sw__json_next(c->j, arr, t), ++i) {
        sw_animator_param_desc* p = &c->params[i];
        SW__AJ_TRY(sw__aj_keys(c, t, keys, "param is an object"));
        SW__AJ_TRY(sw__aj_str(c, t, "name", true, &p->name, "param name"));
        uint32_t type;
        SW__AJ_TRY(sw__aj_enum(c, t, "type", SW_ANIMATOR_ENUM_PARAM_TYPE,
                               SW_ANIMATOR_PARAM_TYPE_FLOAT, &type, "param type"));
        p->type = (sw_animator_param_type)type;
        int32_t v = sw__json_find(c->j, t, "default");
        bool b;
        if (v >= 0 && sw__json_bool(c->j, v, &b)) {
            p->value = b ? 1.0f : 0.0f;
        } else {
            SW__AJ_TRY(sw__aj_num(c, t, "default", 0.0f, &p->value, "param default"));
        }
    }
    d->params = c->params;
    d->params_count = i;
    return SW_RESULT_OK;
}

static sw_result sw__aj_spaces(sw__aj* c, int32_t arr, sw_animator_desc* d) {
    static const char* const keys[] = {"name",         "x",           "y", "members",
                                       "sync_markers", "directional", NULL};
    static const char* const mkeys[] = {"clip", "x", "y", NULL};
    uint32_t i = 0;
    for (int32_t t = sw__json_first(c->j, arr); t >= 0; t = sw__json_next(c->j, arr, t), ++i) {
        sw_animator_blend_space_desc* b = &c->spaces[i];
        SW__AJ_TRY(sw__aj_keys(c, t, keys, "blend space is an object"));
        SW__AJ_TRY(sw__aj_str(c, t, "name", true, &b->name, "blend space name"));
        SW__AJ_TRY(sw__aj_str(c, t, "x", true, &b->param_x, "blend space x parameter"));
        SW__AJ_TRY(sw__aj_str(c, t, "y", false, &b->param_y, "blend space y parameter"));
        SW__AJ_TRY(sw__aj_bool(c, t, "directional", &b->directional, "blend space directional"));
        int32_t ms;
        SW__AJ_TRY(sw__aj_array(c, t, "members", &ms, "blend space members"));
        if (ms < 0) return sw__aj_fail(c, t, "blend space members");
        b->members = c->members + c->n_members;
        for (int32_t m = sw__json_first(c->j, ms); m >= 0; m = sw__json_next(c->j, ms, m)) {
            sw_animator_member_desc* md = &c->members[c->n_members++];
            b->members_count++;
            SW__AJ_TRY(sw__aj_keys(c, m, mkeys, "member is an object"));
            SW__AJ_TRY(sw__aj_str(c, m, "clip", true, &md->clip, "member clip"));
            SW__AJ_TRY(sw__aj_num(c, m, "x", 0.0f, &md->x, "member x"));
            SW__AJ_TRY(sw__aj_num(c, m, "y", 0.0f, &md->y, "member y"));
        }
        int32_t mk;
        SW__AJ_TRY(sw__aj_array(c, t, "sync_markers", &mk, "sync markers"));
        b->sync_markers = c->markers + c->n_markers;
        for (int32_t m = mk < 0 ? -1 : sw__json_first(c->j, mk); m >= 0;
             m = sw__json_next(c->j, mk, m)) {
            SW__AJ_TRY(sw__aj_decode(c, m, &c->markers[c->n_markers++], "sync marker"));
            b->sync_markers_count++;
        }
    }
    d->blend_spaces = c->spaces;
    d->blend_spaces_count = i;
    return SW_RESULT_OK;
}

/* A state names its target under the key of its motion's word ("clip",
 * "blend_space" or "machine"), exactly one of them. */
static sw_result sw__aj_state(sw__aj* c, int32_t t, sw_animator_state_desc* s) {
    const char* keys[SW_ANIMATOR_MOTION_COUNT + 4u] = {"name", "speed", "speed_param", "once"};
    uint32_t n = 4;
    for (uint32_t m = 0; m < SW_ANIMATOR_MOTION_COUNT; ++m) {
        const char* word = sw_animator_enum_word(SW_ANIMATOR_ENUM_MOTION, m);
        if (word) keys[n++] = word;
    }
    keys[n] = NULL;
    SW__AJ_TRY(sw__aj_keys(c, t, keys, "state is an object"));
    SW__AJ_TRY(sw__aj_str(c, t, "name", true, &s->name, "state name"));
    uint32_t targets = 0;
    for (uint32_t m = 0; m < SW_ANIMATOR_MOTION_COUNT; ++m) {
        const char* word = sw_animator_enum_word(SW_ANIMATOR_ENUM_MOTION, m);
        const char* target = NULL;
        if (word) SW__AJ_TRY(sw__aj_str(c, t, word, false, &target, "state target"));
        if (!target) continue;
        s->motion = (sw_animator_motion)m;
        s->target = target;
        ++targets;
    }
    if (targets != 1) return sw__aj_fail(c, t, "state has one of clip, blend_space, machine");
    SW__AJ_TRY(sw__aj_num(c, t, "speed", 0.0f, &s->speed, "state speed"));
    SW__AJ_TRY(sw__aj_str(c, t, "speed_param", false, &s->speed_param, "state speed_param"));
    SW__AJ_TRY(sw__aj_bool(c, t, "once", &s->once, "state once"));
    return SW_RESULT_OK;
}

static sw_result sw__aj_transition(sw__aj* c, int32_t t, sw_animator_transition_desc* tr) {
    static const char* const keys[] = {"from",        "to",     "conditions", "exit_time",
                                       "duration",    "mode",   "interrupt",  "to_self",
                                       "time_window", "offset", NULL};
    static const char* const ckeys[] = {"param", "op", "value", NULL};
    SW__AJ_TRY(sw__aj_keys(c, t, keys, "transition is an object"));
    SW__AJ_TRY(sw__aj_str(c, t, "from", false, &tr->from, "transition from"));
    SW__AJ_TRY(sw__aj_str(c, t, "to", true, &tr->to, "transition to"));
    int32_t et = sw__json_find(c->j, t, "exit_time");
    if (et >= 0 && !sw__aj_is_null(c, et)) {
        tr->has_exit_time = true;
        SW__AJ_TRY(sw__aj_num(c, t, "exit_time", 0.0f, &tr->exit_time, "transition exit_time"));
    }
    SW__AJ_TRY(sw__aj_num(c, t, "duration", 0.0f, &tr->duration, "transition duration"));
    uint32_t v;
    SW__AJ_TRY(sw__aj_enum(c, t, "mode", SW_ANIMATOR_ENUM_TRANSITION_MODE,
                           SW_ANIMATOR_TRANSITION_MODE_CROSSFADE, &v, "transition mode"));
    tr->mode = (sw_animator_transition_mode)v;
    SW__AJ_TRY(sw__aj_enum(c, t, "interrupt", SW_ANIMATOR_ENUM_INTERRUPT,
                           SW_ANIMATOR_INTERRUPT_NONE, &v, "transition interrupt"));
    tr->interrupt = (sw_animator_interrupt)v;
    SW__AJ_TRY(sw__aj_bool(c, t, "to_self", &tr->to_self, "transition to_self"));
    int32_t tw = sw__json_find(c->j, t, "time_window");
    if (tw >= 0 && !sw__aj_is_null(c, tw)) {
        double pair[2];
        if (!sw__json_numbers(c->j, tw, pair, 2) || !sw__aj_fits_float(pair[0]) ||
            !sw__aj_fits_float(pair[1])) {
            return sw__aj_fail(c, tw, "transition time_window [start, end]");
        }
        tr->has_time_window = true;
        tr->time_window[0] = (float)pair[0];
        tr->time_window[1] = (float)pair[1];
    }
    SW__AJ_TRY(sw__aj_num(c, t, "offset", 0.0f, &tr->offset, "transition offset"));
    int32_t cs;
    SW__AJ_TRY(sw__aj_array(c, t, "conditions", &cs, "transition conditions"));
    tr->conditions = c->conds + c->n_conds;
    for (int32_t k = cs < 0 ? -1 : sw__json_first(c->j, cs); k >= 0;
         k = sw__json_next(c->j, cs, k)) {
        sw_animator_condition_desc* cd = &c->conds[c->n_conds++];
        tr->conditions_count++;
        SW__AJ_TRY(sw__aj_keys(c, k, ckeys, "condition is an object"));
        SW__AJ_TRY(sw__aj_str(c, k, "param", true, &cd->param, "condition param"));
        if (sw__json_find(c->j, k, "op") < 0) return sw__aj_fail(c, k, "condition op");
        SW__AJ_TRY(
            sw__aj_enum(c, k, "op", SW_ANIMATOR_ENUM_OP, SW_ANIMATOR_OP_NONE, &v, "condition op"));
        cd->op = (sw_animator_op)v;
        SW__AJ_TRY(sw__aj_num(c, k, "value", 0.0f, &cd->value, "condition value"));
    }
    return SW_RESULT_OK;
}

static sw_result sw__aj_machines(sw__aj* c, int32_t arr, sw_animator_desc* d) {
    static const char* const keys[] = {"name", "entry", "states", "transitions", NULL};
    uint32_t i = 0;
    for (int32_t t = sw__json_first(c->j, arr); t >= 0; t = sw__json_next(c->j, arr, t), ++i) {
        sw_animator_machine_desc* m = &c->machines[i];
        SW__AJ_TRY(sw__aj_keys(c, t, keys, "machine is an object"));
        SW__AJ_TRY(sw__aj_str(c, t, "name", true, &m->name, "machine name"));
        SW__AJ_TRY(sw__aj_str(c, t, "entry", false, &m->entry, "machine entry"));
        int32_t ss, ts;
        SW__AJ_TRY(sw__aj_array(c, t, "states", &ss, "machine states"));
        if (ss < 0) return sw__aj_fail(c, t, "machine states");
        m->states = c->states + c->n_states;
        for (int32_t s = sw__json_first(c->j, ss); s >= 0; s = sw__json_next(c->j, ss, s)) {
            SW__AJ_TRY(sw__aj_state(c, s, &c->states[c->n_states++]));
            m->states_count++;
        }
        SW__AJ_TRY(sw__aj_array(c, t, "transitions", &ts, "machine transitions"));
        m->transitions = c->transitions + c->n_transitions;
        for (int32_t s = ts < 0 ? -1 : sw__json_first(c->j, ts); s >= 0;
             s = sw__json_next(c->j, ts, s)) {
            SW__AJ_TRY(sw__aj_transition(c, s, &c->transitions[c->n_transitions++]));
            m->transitions_count++;
        }
    }
    d->machines = c->machines;
    d->machines_count = i;
    return SW_RESULT_OK;
}

static sw_result sw__aj_layers(sw__aj* c, int32_t arr, sw_animator_desc* d) {
    static const char* const keys[] = {"name",         "machine", "mode",      "weight",
                                       "weight_param", "mask",    "reference", NULL};
    static const char* const mkeys[] = {"joint", "weight", NULL};
    uint32_t i = 0;
    for (int32_t t = sw__json_first(c->j, arr); t >= 0; t = sw__json_next(c->j, arr, t), ++i) {
        sw_animator_layer_desc* l = &c->layers[i];
        SW__AJ_TRY(sw__aj_keys(c, t, keys, "layer is an object"));
        SW__AJ_TRY(sw__aj_str(c, t, "name", true, &l->name, "layer name"));
        SW__AJ_TRY(sw__aj_str(c, t, "machine", true, &l->machine, "layer machine"));
        uint32_t v;
        SW__AJ_TRY(sw__aj_enum(c, t, "mode", SW_ANIMATOR_ENUM_LAYER_MODE,
                               SW_ANIMATOR_LAYER_MODE_OVERRIDE, &v, "layer mode"));
        l->mode = (sw_animator_layer_mode)v;
        SW__AJ_TRY(sw__aj_enum(c, t, "reference", SW_ANIMATOR_ENUM_REFERENCE,
                               SW_ANIMATOR_REFERENCE_FIRST_FRAME, &v, "layer reference"));
        l->reference = (sw_animator_reference)v;
        SW__AJ_TRY(sw__aj_num(c, t, "weight", 0.0f, &l->weight, "layer weight"));
        SW__AJ_TRY(sw__aj_str(c, t, "weight_param", false, &l->weight_param, "layer weight_param"));
        int32_t ms;
        SW__AJ_TRY(sw__aj_array(c, t, "mask", &ms, "layer mask"));
        l->mask = c->masks + c->n_masks;
        for (int32_t m = ms < 0 ? -1 : sw__json_first(c->j, ms); m >= 0;
             m = sw__json_next(c->j, ms, m)) {
            sw_animator_mask_desc* md = &c->masks[c->n_masks++];
            l->mask_count++;
            SW__AJ_TRY(sw__aj_keys(c, m, mkeys, "mask entry is an object"));
            SW__AJ_TRY(sw__aj_str(c, m, "joint", true, &md->joint, "mask joint"));
            SW__AJ_TRY(sw__aj_num(c, m, "weight", 1.0f, &md->weight, "mask weight"));
        }
    }
    d->layers = c->layers;
    d->layers_count = i;
    return SW_RESULT_OK;
}

/* "hit": the parameters a hit writes (sw_animator_hit_desc). */
static sw_result sw__aj_hit(sw__aj* c, int32_t t, sw_animator_desc* d) {
    static const char* const keys[] = {"x", "y", "strength", "trigger", NULL};
    SW__AJ_TRY(sw__aj_keys(c, t, keys, "hit is an object"));
    SW__AJ_TRY(sw__aj_str(c, t, "x", false, &d->hit.param_x, "hit x parameter"));
    SW__AJ_TRY(sw__aj_str(c, t, "y", false, &d->hit.param_y, "hit y parameter"));
    SW__AJ_TRY(sw__aj_str(c, t, "strength", false, &d->hit.strength_param, "hit strength"));
    SW__AJ_TRY(sw__aj_str(c, t, "trigger", false, &d->hit.trigger, "hit trigger"));
    return SW_RESULT_OK;
}

/* "move": the locomotion parameters a steering input writes (sw_animator_move_desc). */
static sw_result sw__aj_move(sw__aj* c, int32_t t, sw_animator_desc* d) {
    static const char* const keys[] = {"speed", "strafe", "turn", NULL};
    SW__AJ_TRY(sw__aj_keys(c, t, keys, "move is an object"));
    SW__AJ_TRY(sw__aj_str(c, t, "speed", false, &d->move.speed_param, "move speed parameter"));
    SW__AJ_TRY(sw__aj_str(c, t, "strafe", false, &d->move.strafe_param, "move strafe parameter"));
    SW__AJ_TRY(sw__aj_str(c, t, "turn", false, &d->move.turn_param, "move turn parameter"));
    return SW_RESULT_OK;
}

static sw_result sw__aj_idle(sw__aj* c, int32_t t, sw_animator_json* out, const sw_animator* a) {
    static const char* const keys[] = {"seed", "channels", NULL};
    static const char* const ckeys[] = {"param", "min", "max", "speed", "hold", NULL};
    SW__AJ_TRY(sw__aj_keys(c, t, keys, "idle is an object"));
    int32_t s = sw__json_find(c->j, t, "seed");
    int64_t seed = 0;
    if (s >= 0 && !sw__json_int(c->j, s, 0, INT64_MAX, &seed))
        return sw__aj_fail(c, s, "idle seed");
    out->idle_seed = (uint64_t)seed;
    int32_t cs;
    SW__AJ_TRY(sw__aj_array(c, t, "channels", &cs, "idle channels"));
    if (cs < 0) return SW_RESULT_OK;
    if (sw__json_len(c->j, cs) > SW_ANIMATOR_IDLE_MAX_CHANNELS) {
        return sw__fail(c->err, SW_RESULT_LIMIT, "idle channels count", sw__json_offset(c->j, cs),
                        -1);
    }
    for (int32_t k = sw__json_first(c->j, cs); k >= 0; k = sw__json_next(c->j, cs, k)) {
        sw_animator_idle_channel* ch = &out->idle[out->idle_count++];
        SW__AJ_TRY(sw__aj_keys(c, k, ckeys, "idle channel is an object"));
        const char* name;
        SW__AJ_TRY(sw__aj_str(c, k, "param", true, &name, "idle param"));
        int32_t p = sw_animator_find_param(a, name);
        if (p < 0) return sw__aj_fail(c, k, "idle param known");
        ch->param = (uint32_t)p;
        SW__AJ_TRY(sw__aj_num(c, k, "min", 0.0f, &ch->min, "idle min"));
        SW__AJ_TRY(sw__aj_num(c, k, "max", 0.0f, &ch->max, "idle max"));
        double pair[2];
        int32_t sp = sw__json_find(c->j, k, "speed");
        if (sp < 0 || !sw__json_numbers(c->j, sp, pair, 2)) {
            return sw__aj_fail(c, sp < 0 ? k : sp, "idle speed [min, max]");
        }
        ch->min_speed = (float)pair[0];
        ch->max_speed = (float)pair[1];
        int32_t h = sw__json_find(c->j, k, "hold");
        if (h < 0 || !sw__json_numbers(c->j, h, pair, 2)) {
            return sw__aj_fail(c, h < 0 ? k : h, "idle hold [min, max]");
        }
        ch->min_hold = (float)pair[0];
        ch->max_hold = (float)pair[1];
    }
    sw_animator_idle probe;
    if (sw_animator_idle_init(&probe, out->idle, out->idle_count, out->idle_seed) != SW_RESULT_OK) {
        return sw__aj_fail(c, cs, "idle channel ranges");
    }
    return SW_RESULT_OK;
}

/* Sum of the lengths of array `key` inside each element of array arr. */
static uint64_t sw__aj_inner(const sw__json* j, int32_t arr, const char* key) {
    uint64_t n = 0;
    for (int32_t t = sw__json_first(j, arr); t >= 0; t = sw__json_next(j, arr, t)) {
        n += sw__json_len(j, sw__json_find(j, t, key));
    }
    return n;
}

static uint64_t sw__aj_inner2(const sw__json* j, int32_t arr, const char* key, const char* key2) {
    uint64_t n = 0;
    for (int32_t t = sw__json_first(j, arr); t >= 0; t = sw__json_next(j, arr, t)) {
        n += sw__aj_inner(j, sw__json_find(j, t, key), key2);
    }
    return n;
}

sw_result sw_animator_json_read(const char* text, size_t size, const sw_allocator* alloc,
                                sw_animator_json* out, sw_error* err) {
    if (!text || !out)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    memset(out, 0, sizeof *out);
    if (size > SW_ANIMATOR_JSON_MAX_BYTES) {
        return sw__fail(err, SW_RESULT_LIMIT, "json size", 0, -1);
    }
    sw__json j;
    sw_result r = sw__json_parse(&j, text, size, alloc, err);
    if (r != SW_RESULT_OK) return r;
    sw__aj c;
    memset(&c, 0, sizeof c);
    c.j = &j;
    c.err = err;
    static const char* const keys[] = {"params",
                                       "blend_spaces",
                                       "machines",
                                       "layers",
                                       "root_motion_joint",
                                       "event_weight_threshold",
                                       "idle",
                                       "hit",
                                       "move",
                                       "$schema",
                                       "comment",
                                       NULL};
    r = sw__aj_keys(&c, 0, keys, "root is an object");
    int32_t ps = -1, bs = -1, ms = -1, ls = -1;
    if (r == SW_RESULT_OK) r = sw__aj_array(&c, 0, "params", &ps, "params");
    if (r == SW_RESULT_OK) r = sw__aj_array(&c, 0, "blend_spaces", &bs, "blend_spaces");
    if (r == SW_RESULT_OK) r = sw__aj_array(&c, 0, "machines", &ms, "machines");
    if (r == SW_RESULT_OK) r = sw__aj_array(&c, 0, "layers", &ls, "layers");
    if (r != SW_RESULT_OK) {
        sw__json_free(&j, alloc);
        return r;
    }
    /* counts (limits are checked by sw_animator_init; cap the storage first) */
    const uint64_t n_params = sw__json_len(&j, ps), n_spaces = sw__json_len(&j, bs);
    const uint64_t n_machines = sw__json_len(&j, ms), n_layers = sw__json_len(&j, ls);
    const uint64_t n_members = sw__aj_inner(&j, bs, "members");
    const uint64_t n_markers = sw__aj_inner(&j, bs, "sync_markers");
    const uint64_t n_states = sw__aj_inner(&j, ms, "states");
    const uint64_t n_trans = sw__aj_inner(&j, ms, "transitions");
    const uint64_t n_conds = sw__aj_inner2(&j, ms, "transitions", "conditions");
    const uint64_t n_masks = sw__aj_inner(&j, ls, "mask");
    uint64_t bytes =
        n_params * sizeof(sw_animator_param_desc) +
        n_spaces * sizeof(sw_animator_blend_space_desc) +
        n_members * sizeof(sw_animator_member_desc) + n_markers * sizeof(char*) +
        n_machines * sizeof(sw_animator_machine_desc) + n_states * sizeof(sw_animator_state_desc) +
        n_trans * sizeof(sw_animator_transition_desc) +
        n_conds * sizeof(sw_animator_condition_desc) + n_layers * sizeof(sw_animator_layer_desc) +
        n_masks * sizeof(sw_animator_mask_desc) + 16u * 10u;
    const uint64_t strings = (uint64_t)size + (uint64_t)j.count + 1u;
    const uint64_t total = bytes + strings;
    char* mem = (char*)sw_alloc(alloc, (size_t)total, 16);
    if (!mem) {
        sw__json_free(&j, alloc);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    }
    memset(mem, 0, (size_t)total);
    size_t at = 0;
#define SW__AJ_PLACE(field, type, n)                                                               \
    do {                                                                                           \
        c.field = (type*)(void*)(mem + at);                                                        \
        at += (size_t)sw__align16((uint64_t)(n) * sizeof(type));                                   \
    } while (0)
    SW__AJ_PLACE(params, sw_animator_param_desc, n_params);
    SW__AJ_PLACE(spaces, sw_animator_blend_space_desc, n_spaces);
    SW__AJ_PLACE(members, sw_animator_member_desc, n_members);
    SW__AJ_PLACE(markers, const char*, n_markers);
    SW__AJ_PLACE(machines, sw_animator_machine_desc, n_machines);
    SW__AJ_PLACE(states, sw_animator_state_desc, n_states);
    SW__AJ_PLACE(transitions, sw_animator_transition_desc, n_trans);
    SW__AJ_PLACE(conds, sw_animator_condition_desc, n_conds);
    SW__AJ_PLACE(layers, sw_animator_layer_desc, n_layers);
    SW__AJ_PLACE(masks, sw_animator_mask_desc, n_masks);
#undef SW__AJ_PLACE
    c.strings = mem + at;
    c.strings_cap = (size_t)total - at;

    sw_animator_desc d;
    memset(&d, 0, sizeof d);
    if (ps >= 0) r = sw__aj_params(&c, ps, &d);
    if (r == SW_RESULT_OK && bs >= 0) r = sw__aj_spaces(&c, bs, &d);
    if (r == SW_RESULT_OK && ms >= 0) r = sw__aj_machines(&c, ms, &d);
    if (r == SW_RESULT_OK && ls >= 0) r = sw__aj_layers(&c, ls, &d);
    if (r == SW_RESULT_OK) {
        r = sw__aj_str(&c, 0, "root_motion_joint", false, &d.root_motion_joint,
                       "root_motion_joint");
    }
    if (r == SW_RESULT_OK) {
        r = sw__aj_num(&c, 0, "event_weight_threshold", 0.0f, &d.event_weight_threshold,
                       "event_weight_threshold");
    }
    const int32_t hit = sw__json_find(&j, 0, "hit");
    if (r == SW_RESULT_OK && hit >= 0) r = sw__aj_hit(&c, hit, &d);
    const int32_t move = sw__json_find(&j, 0, "move");
    if (r == SW_RESULT_OK && move >= 0) r = sw__aj_move(&c, move, &d);
    if (r == SW_RESULT_OK) r = sw_animator_create(&d, alloc, &out->animator, err);
    if (r == SW_RESULT_OK) {
        int32_t idle = sw__json_find(&j, 0, "idle");
        if (idle >= 0) r = sw__aj_idle(&c, idle, out, out->animator);
        if (r != SW_RESULT_OK) {
            sw_animator_destroy(out->animator, alloc);
            memset(out, 0, sizeof *out);
        }
    }
    sw_free(alloc, mem, (size_t)total);
    sw__json_free(&j, alloc);
    return r;
}

sw_result sw_animator_json_read_file(const char* path, const sw_allocator* alloc,
                                     sw_animator_json* out, sw_error* err) {
    if (!path || !out)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    memset(out, 0, sizeof *out);
    void* text = NULL;
    size_t size = 0;
    sw_result r = sw_file_read(path, SW_ANIMATOR_JSON_MAX_BYTES, alloc, &text, &size, err);
    if (r == SW_RESULT_LIMIT && err) err->check = "json size";
    if (r != SW_RESULT_OK) return r;
    r = sw_animator_json_read(text ? (const char*)text : "", size, alloc, out, err);
    sw_free(alloc, text, size);
    return r;
}

void sw_animator_json_free(sw_animator_json* j, const sw_allocator* alloc) {
    if (!j) return;
    sw_animator_destroy(j->animator, alloc);
    memset(j, 0, sizeof *j);
}
