/* bindings/lua/animator.c: the animator (sinew/animator/animator.h):
 * definitions from JSON text, a JSON file or a Lua table (turned into JSON
 * and read by the tools' reader, sinew/tools/readers/animator_json.h),
 * bound to a skeleton and clips, and per-character instances. */
#include <string.h>

#include "lsw.h"
#include "sinew/tools/readers/animator_json.h"

#define EVENTS_CAPACITY 64

typedef struct lsw_animator {
    sw_animator_json j;
} lsw_animator;

typedef struct lsw_bound {
    const sw_animator_bound* b;
} lsw_bound;

typedef struct lsw_instance {
    const sw_animator_bound* b;
    const sw_animator* a;
    sw_animator_instance* inst;
    float* params;
    uint32_t params_count;
    void* scratch;
    size_t scratch_size;
    sw_animator_idle idle;
    bool has_idle;
    sw_animator_event events[EVENTS_CAPACITY];
} lsw_instance;

static const sw_animator_json* check_animator(lua_State* L, int idx) {
    lsw_animator* a = luaL_checkudata(L, idx, LSW_ANIMATOR);
    if (!a->j.animator) luaL_error(L, "animator not built");
    return &a->j;
}

static lsw_instance* check_instance(lua_State* L, int idx) {
    return luaL_checkudata(L, idx, LSW_INSTANCE);
}

/* ---- definitions ---- */

static lsw_animator* new_animator(lua_State* L) {
    lsw_animator* a = lua_newuserdatauv(L, sizeof *a, 0);
    memset(a, 0, sizeof *a);
    luaL_setmetatable(L, LSW_ANIMATOR);
    return a;
}

/* sinew.animator(def): def is JSON text or a Lua table of the same shape
 * (docs/animator.md's schema). */
static int l_animator(lua_State* L) {
    if (lua_istable(L, 1)) {
        lsw_push_json(L, 1);
        lua_replace(L, 1);
    }
    size_t n = 0;
    const char* text = luaL_checklstring(L, 1, &n);
    lsw_animator* a = new_animator(L);
    sw_error err = SW_ERROR_INIT;
    lsw_check(L, "sinew.animator", sw_animator_json_read(text, n, NULL, &a->j, &err), &err);
    return 1;
}

/* sinew.animator_file(path): the definition in a JSON file. */
static int l_animator_file(lua_State* L) {
    const char* path = luaL_checkstring(L, 1);
    lsw_animator* a = new_animator(L);
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_animator_json_read_file(path, NULL, &a->j, &err);
    if (r != SW_RESULT_OK) {
        lua_pushfstring(L, "sinew.animator_file: %s", path);
        return lsw_raise(L, lua_tostring(L, -1), r, &err);
    }
    return 1;
}

static int animator_gc(lua_State* L) {
    lsw_animator* a = luaL_checkudata(L, 1, LSW_ANIMATOR);
    sw_animator_json_free(&a->j, NULL);
    return 0;
}

/* Pushes a list of the names name(a, i) for i < count. */
static void push_names(lua_State* L, const sw_animator* a, uint32_t count,
                       const char* (*name)(const sw_animator*, uint32_t)) {
    lua_createtable(L, (int)count, 0);
    for (uint32_t i = 0; i < count; ++i) {
        lua_pushstring(L, name(a, i));
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
}

/* animator:names(kind) -> list of "params", "states", "machines", "layers" or "clips". */
static int animator_names(lua_State* L) {
    const sw_animator* a = check_animator(L, 1)->animator;
    static const char* const kinds[] = {"params", "states", "machines", "layers", "clips", NULL};
    switch (luaL_checkoption(L, 2, NULL, kinds)) {
    case 0:
        push_names(L, a, sw_animator_params_count(a), sw_animator_param_name);
        break;
    case 1:
        push_names(L, a, sw_animator_states_count(a), sw_animator_state_name);
        break;
    case 2:
        push_names(L, a, sw_animator_machines_count(a), sw_animator_machine_name);
        break;
    case 3:
        push_names(L, a, sw_animator_layers_count(a), sw_animator_layer_name);
        break;
    default:
        push_names(L, a, sw_animator_clips_count(a), sw_animator_clip_name);
    }
    return 1;
}

/* The clips at idx (an Asset or a list of Clips) into a temporary array. */
static const sw_clip** check_clips(lua_State* L, int idx, uint32_t* count) {
    if (luaL_testudata(L, idx, LSW_ASSET)) {
        lua_getfield(L, idx, "clips");
        lua_replace(L, idx);
    }
    luaL_checktype(L, idx, LUA_TTABLE);
    const lua_Unsigned n = lua_rawlen(L, idx);
    const sw_clip** clips = lua_newuserdatauv(L, sizeof(sw_clip*) * (n ? n : 1), 0);
    for (lua_Unsigned i = 0; i < n; ++i) {
        lua_rawgeti(L, idx, (lua_Integer)i + 1);
        clips[i] = lsw_check_clip(L, -1);
        lua_pop(L, 1);
    }
    *count = (uint32_t)n;
    return clips;
}

/* animator:bind(skeleton, clips) -> Bound (clips: an Asset or a list of Clips,
 * matched to the definition's clip names). */
static int animator_bind(lua_State* L) {
    lua_settop(L, 3);
    const sw_animator* a = check_animator(L, 1)->animator;
    const sw_skeleton* s = lsw_check_skeleton(L, 2);
    uint32_t n = 0;
    const sw_clip** clips = check_clips(L, 3, &n);
    const size_t size = sw_animator_bound_size(a, s);
    void* base = NULL;
    void* mem = lsw_new_aligned(L, sizeof(lsw_bound), size, LSW_BOUND, &base);
    sw_error err = SW_ERROR_INIT;
    lsw_check(L, "animator:bind",
              sw_animator_bind(a, s, clips, n, mem, size, &((lsw_bound*)base)->b, &err), &err);
    lua_createtable(L, 3, 0); /* what the bound object points at */
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, 2);
    lua_pushvalue(L, 3);
    lua_rawseti(L, -2, 3);
    lsw_keep(L, -2, 1);
    return 1;
}

/* ---- instances ---- */

static size_t round16(size_t n) {
    return (n + 15u) & ~(size_t)15u;
}

/* bound:instance([keep]) -> Instance with its parameters at their
 * defaults, keeping "cursors" (the default) or "keys" (sw_animator_keep). */
static int bound_instance(lua_State* L) {
    static const char* const keeps[] = {"cursors", "keys", NULL};
    const lsw_bound* bud = luaL_checkudata(L, 1, LSW_BOUND);
    const sw_animator_bound* b = bud->b;
    if (!b) return luaL_error(L, "bound animator not built");
    const sw_animator_keep keep = (sw_animator_keep)luaL_checkoption(L, 2, "cursors", keeps);
    lua_settop(L, 1);
    const sw_animator* a = sw_animator_bound_definition(b);
    const size_t isz = round16(sw_animator_instance_size_keeping(b, keep));
    const size_t ssz = round16(sw_animator_scratch_size(b));
    const uint32_t np = sw_animator_params_count(a);
    void* base = NULL;
    char* mem = lsw_new_aligned(L, sizeof(lsw_instance), isz + ssz + sizeof(float) * (np + 1),
                                LSW_INSTANCE, &base);
    lsw_instance* in = base;
    in->b = b;
    in->a = a;
    in->scratch = mem + isz;
    in->scratch_size = ssz;
    in->params = (float*)(void*)(mem + isz + ssz);
    in->params_count = np;
    lsw_check(L, "bound:instance", sw_animator_instance_init_keeping(mem, isz, b, keep, &in->inst),
              NULL);
    lsw_check(L, "bound:instance", sw_animator_params_reset(a, in->params, np), NULL);
    lua_pushvalue(L, 1);
    lsw_keep(L, -2, 1);
    /* the idle channels of a JSON definition */
    lua_getiuservalue(L, 1, 1);
    lua_rawgeti(L, -1, 1);
    const sw_animator_json* j = check_animator(L, -1);
    in->has_idle = j->idle_count > 0 && sw_animator_idle_init(&in->idle, j->idle, j->idle_count,
                                                              j->idle_seed) == SW_RESULT_OK;
    lua_pop(L, 2);
    return 1;
}

/* animator:instance(skeleton, clips) = animator:bind(skeleton, clips):instance(). */
static int animator_instance(lua_State* L) {
    lua_settop(L, 3);
    animator_bind(L);
    lua_replace(L, 1);
    lua_settop(L, 1);
    return bound_instance(L);
}

/* A parameter: name or 1-based index. */
static uint32_t check_param(lua_State* L, int idx, const lsw_instance* in) {
    if (lua_type(L, idx) == LUA_TSTRING) {
        const int32_t p = sw_animator_find_param(in->a, lua_tostring(L, idx));
        if (p < 0) return (uint32_t)luaL_error(L, "no parameter '%s'", lua_tostring(L, idx));
        return (uint32_t)p;
    }
    const lua_Integer p = luaL_checkinteger(L, idx);
    if (p < 1 || p > (lua_Integer)in->params_count)
        return (uint32_t)luaL_error(L, "parameter %I out of range", p);
    return (uint32_t)(p - 1);
}

/* inst:set(param, value): a number, or a boolean for bools and triggers. */
static int instance_set(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    const uint32_t p = check_param(L, 2, in);
    in->params[p] =
        lua_isboolean(L, 3) ? (lua_toboolean(L, 3) ? 1.0f : 0.0f) : lsw_check_float(L, 3);
    return 0;
}

static int instance_get(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    lua_pushnumber(L, (lua_Number)in->params[check_param(L, 2, in)]);
    return 1;
}

/* inst:reset_params(): every parameter to its default. */
static int instance_reset_params(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    lsw_check(L, "inst:reset_params", sw_animator_params_reset(in->a, in->params, in->params_count),
              NULL);
    return 0;
}

static void push_event(lua_State* L, const lsw_instance* in, const sw_animator_event* e) {
    lua_createtable(L, 0, 6);
    lua_pushstring(L, sw_animator_enum_word(SW_ANIMATOR_ENUM_EVENT_KIND, e->kind));
    lua_setfield(L, -2, "kind");
    lua_pushstring(L, e->name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, sw_animator_state_name(in->a, e->state));
    lua_setfield(L, -2, "state");
    lua_pushinteger(L, (lua_Integer)e->layer + 1);
    lua_setfield(L, -2, "layer");
    lua_pushnumber(L, (lua_Number)e->time);
    lua_setfield(L, -2, "time");
    lua_pushnumber(L, (lua_Number)e->weight);
    lua_setfield(L, -2, "weight");
}

/* inst:update(dt) -> events (list of {kind, name, state, layer, time,
 * weight}), root motion {translation, yaw}. */
static int instance_update(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    uint32_t count = 0;
    sw_animator_root_motion rm;
    memset(&rm, 0, sizeof rm);
    lsw_check(L, "inst:update",
              sw_animator_update(in->inst, in->b, in->params, in->params_count,
                                 lsw_check_float(L, 2), in->events, EVENTS_CAPACITY, &count, &rm),
              NULL);
    const uint32_t n = count < EVENTS_CAPACITY ? count : EVENTS_CAPACITY;
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; ++i) {
        push_event(L, in, &in->events[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_createtable(L, 0, 2);
    lsw_push_vec3(L, rm.translation);
    lua_setfield(L, -2, "translation");
    lua_pushnumber(L, (lua_Number)rm.yaw);
    lua_setfield(L, -2, "yaw");
    return 2;
}

/* inst:evaluate(pose): the blended local pose, in place. Returns the pose. */
static int instance_evaluate(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    lsw_pose* p = lsw_check_pose(L, 2);
    lsw_check(
        L, "inst:evaluate",
        sw_animator_evaluate(in->inst, in->b, in->scratch, in->scratch_size, p->data, p->count),
        NULL);
    lua_settop(L, 2);
    return 1;
}

static uint32_t check_state(lua_State* L, int idx, const lsw_instance* in) {
    const char* name = luaL_checkstring(L, idx);
    const int32_t s = sw_animator_find_state(in->a, name);
    if (s < 0) return (uint32_t)luaL_error(L, "no state '%s'", name);
    return (uint32_t)s;
}

/* A machine by name or 1-based index. */
static uint32_t check_machine(lua_State* L, int idx, const lsw_instance* in) {
    const uint32_t n = sw_animator_machines_count(in->a);
    if (lua_type(L, idx) == LUA_TNUMBER) {
        const lua_Integer m = luaL_checkinteger(L, idx);
        if (m < 1 || m > (lua_Integer)n)
            return (uint32_t)luaL_error(L, "machine %I out of range", m);
        return (uint32_t)(m - 1);
    }
    const char* name = luaL_checkstring(L, idx);
    for (uint32_t m = 0; m < n; ++m)
        if (strcmp(sw_animator_machine_name(in->a, m), name) == 0) return m;
    return (uint32_t)luaL_error(L, "no machine '%s'", name);
}

/* inst:play(state [, fade]): code-driven transition. */
static int instance_play(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    lsw_check(
        L, "inst:play",
        sw_animator_play(in->inst, in->b, check_state(L, 2, in), (float)luaL_optnumber(L, 3, 0)),
        NULL);
    return 0;
}

/* inst:seek(machine, normalized_time). */
static int instance_seek(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    lsw_check(L, "inst:seek",
              sw_animator_seek(in->inst, in->b, check_machine(L, 2, in), luaL_checknumber(L, 3)),
              NULL);
    return 0;
}

/* inst:current_state(machine) -> state name, or nil when the machine is not playing. */
static int instance_current_state(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    const uint32_t s = sw_animator_current_state(in->inst, in->b, check_machine(L, 2, in));
    if (s == SW_ANIMATOR_NONE) return 0;
    lua_pushstring(L, sw_animator_state_name(in->a, s));
    return 1;
}

/* inst:states() -> list of {machine, state, weight, time, current}. */
static int instance_states(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    sw_animator_state_info info[SW_ANIMATOR_MAX_MACHINES * SW_ANIMATOR_MAX_FADES];
    const uint32_t n = sw_animator_states(in->inst, in->b, info, sizeof info / sizeof info[0]);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; ++i) {
        lua_createtable(L, 0, 5);
        lua_pushstring(L, sw_animator_machine_name(in->a, info[i].machine));
        lua_setfield(L, -2, "machine");
        lua_pushstring(L, sw_animator_state_name(in->a, info[i].state));
        lua_setfield(L, -2, "state");
        lua_pushnumber(L, (lua_Number)info[i].weight);
        lua_setfield(L, -2, "weight");
        lua_pushnumber(L, info[i].normalized_time);
        lua_setfield(L, -2, "time");
        lua_pushboolean(L, info[i].current);
        lua_setfield(L, -2, "current");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

/* inst:contributions() -> list of {layer, state, clip, weight, time, phase}. */
static int instance_contributions(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    sw_animator_contribution c[SW_ANIMATOR_MAX_LAYERS * SW_ANIMATOR_MAX_CONTRIBUTIONS];
    const uint32_t n = sw_animator_contributions(in->inst, in->b, c, sizeof c / sizeof c[0]);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; ++i) {
        lua_createtable(L, 0, 6);
        lua_pushinteger(L, (lua_Integer)c[i].layer + 1);
        lua_setfield(L, -2, "layer");
        lua_pushstring(L, sw_animator_state_name(in->a, c[i].state));
        lua_setfield(L, -2, "state");
        lua_pushstring(L, sw_animator_clip_name(in->a, c[i].clip));
        lua_setfield(L, -2, "clip");
        lua_pushnumber(L, (lua_Number)c[i].weight);
        lua_setfield(L, -2, "weight");
        lua_pushnumber(L, (lua_Number)c[i].time);
        lua_setfield(L, -2, "time");
        lua_pushnumber(L, (lua_Number)c[i].phase);
        lua_setfield(L, -2, "phase");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

/* inst:layer_weight(layer) (1-based). */
static int instance_layer_weight(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    const lua_Integer l = luaL_checkinteger(L, 2);
    lua_pushnumber(L, (lua_Number)sw_animator_layer_weight(in->inst, in->b, (uint32_t)(l - 1)));
    return 1;
}

static int instance_pose_changed(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    lua_pushboolean(L, sw_animator_pose_changed(in->inst, in->b));
    return 1;
}

/* inst:apply_hit(direction, strength [, facing]): the hit parameters. */
static int instance_apply_hit(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    const sw_animator_hit hit = {lsw_check_vec3(L, 2), lsw_check_float(L, 3)};
    const sw_quat facing = lua_istable(L, 4) ? lsw_check_quat(L, 4) : sw_quat_identity();
    lsw_check(L, "inst:apply_hit",
              sw_animator_apply_hit(in->a, facing, &hit, in->params, in->params_count), NULL);
    return 0;
}

/* inst:idle(dt): moves the definition's "idle" channels (no-op without). */
static int instance_idle(lua_State* L) {
    lsw_instance* in = check_instance(L, 1);
    const float dt = lsw_check_float(L, 2);
    if (in->has_idle)
        lsw_check(L, "inst:idle",
                  sw_animator_idle_update(&in->idle, in->params, in->params_count, dt), NULL);
    return 0;
}

static const luaL_Reg k_animator_methods[] = {{"names", animator_names},
                                              {"bind", animator_bind},
                                              {"instance", animator_instance},
                                              {NULL, NULL}};
static const luaL_Reg k_animator_meta[] = {{"__gc", animator_gc}, {NULL, NULL}};
static const luaL_Reg k_bound_methods[] = {{"instance", bound_instance}, {NULL, NULL}};
static const luaL_Reg k_instance_methods[] = {{"set", instance_set},
                                              {"get", instance_get},
                                              {"reset_params", instance_reset_params},
                                              {"update", instance_update},
                                              {"evaluate", instance_evaluate},
                                              {"play", instance_play},
                                              {"seek", instance_seek},
                                              {"current_state", instance_current_state},
                                              {"states", instance_states},
                                              {"contributions", instance_contributions},
                                              {"layer_weight", instance_layer_weight},
                                              {"pose_changed", instance_pose_changed},
                                              {"apply_hit", instance_apply_hit},
                                              {"idle", instance_idle},
                                              {NULL, NULL}};

void lsw_open_animator(lua_State* L) {
    lsw_class(L, LSW_ANIMATOR, k_animator_methods, k_animator_meta);
    lsw_class(L, LSW_BOUND, k_bound_methods, NULL);
    lsw_class(L, LSW_INSTANCE, k_instance_methods, NULL);
    lua_pushcfunction(L, l_animator);
    lua_setfield(L, -2, "animator");
    lua_pushcfunction(L, l_animator_file);
    lua_setfield(L, -2, "animator_file");
}
