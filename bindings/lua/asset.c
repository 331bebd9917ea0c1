/* bindings/lua/asset.c: sinew.load (the tools' asset opener: .sinew, glTF,
 * BVH), sinew.Asset and sinew.Clip (sampling). */
#include <string.h>

#include "lsw.h"
#include "sinew/tools/readers/asset.h"

typedef struct lsw_asset {
    sw_asset a;
    bool open;
} lsw_asset;

/* A clip with its own sampling cache (cursors after the struct). */
typedef struct lsw_clip {
    const sw_clip* c;
    sw_sample_cache cache;
    uint32_t cursors[];
} lsw_clip;

static lsw_clip* check_clip(lua_State* L, int idx) {
    return luaL_checkudata(L, idx, LSW_CLIP);
}

/* Pushes a clip userdata keeping the value at `owner` alive. */
static void push_clip(lua_State* L, const sw_clip* c, int owner) {
    owner = lua_absindex(L, owner);
    lsw_clip* ud = lua_newuserdatauv(L, sizeof *ud + sizeof(uint32_t) * c->tracks_count, 1);
    ud->c = c;
    sw_sample_cache_init(&ud->cache, ud->cursors, c->tracks_count);
    luaL_setmetatable(L, LSW_CLIP);
    lua_pushvalue(L, owner);
    lsw_keep(L, -2, 1);
}

/* ---- sinew.load(path [, {scale, end_sites, clips, isolate}]) ---- */

static void read_options(lua_State* L, int t, sw_asset_options* opt, const char** names) {
    opt->scale = lsw_opt_float(L, t, "scale", 0.0f);
    opt->end_sites = lsw_opt_bool(L, t, "end_sites", false);
    opt->isolate = lsw_opt_bool(L, t, "isolate", false);
    if (lua_getfield(L, t, "clips") == LUA_TTABLE) {
        const lua_Unsigned n = lua_rawlen(L, -1);
        for (lua_Unsigned i = 0; i < n && i < 64; ++i) {
            lua_rawgeti(L, -1, (lua_Integer)i + 1);
            names[i] = lsw_check_kept_string(L, -1); /* kept alive by the options table */
            lua_pop(L, 1);
        }
        opt->clips = names;
        opt->clips_count = n < 64 ? (uint32_t)n : 64u;
    }
    lua_pop(L, 1);
}

/* The uservalue of the asset at idx: {skeleton = , clips = {...}}. */
static void make_parts(lua_State* L, int idx, const sw_asset* a) {
    lua_createtable(L, 0, 2);
    lsw_push_skeleton(L, a->skeleton, idx);
    lua_setfield(L, -2, "skeleton");
    lua_createtable(L, (int)a->clips_count, 0);
    for (uint32_t i = 0; i < a->clips_count; ++i) {
        push_clip(L, a->clips[i], idx);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "clips");
    lsw_keep(L, idx, 1);
}

static int l_load(lua_State* L) {
    const char* path = luaL_checkstring(L, 1);
    sw_asset_options opt;
    memset(&opt, 0, sizeof opt);
    const char* names[64];
    if (lua_istable(L, 2)) read_options(L, 2, &opt, names);
    lsw_asset* ud = lua_newuserdatauv(L, sizeof *ud, 1);
    memset(ud, 0, sizeof *ud);
    luaL_setmetatable(L, LSW_ASSET);
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_asset_open(path, &opt, &ud->a, &err);
    if (r != SW_RESULT_OK) {
        lua_pushfstring(L, "sinew.load: %s", path);
        return lsw_raise(L, lua_tostring(L, -1), r, &err);
    }
    ud->open = true;
    if (!ud->a.skeleton) return luaL_error(L, "sinew.load: %s: the file holds no skeleton", path);
    make_parts(L, lua_gettop(L), &ud->a);
    return 1;
}

static int asset_gc(lua_State* L) {
    lsw_asset* ud = luaL_checkudata(L, 1, LSW_ASSET);
    if (ud->open) sw_asset_free(&ud->a);
    ud->open = false;
    return 0;
}

static const char* const k_formats[] = {"none", "sinew", "bvh", "gltf", "reader"};

/* asset.skeleton, asset.clips, asset.format, asset.warning, asset.file_size, methods. */
static int asset_index(lua_State* L) {
    lsw_asset* ud = luaL_checkudata(L, 1, LSW_ASSET);
    const char* key = luaL_checkstring(L, 2);
    if (strcmp(key, "skeleton") == 0 || strcmp(key, "clips") == 0) {
        lua_getiuservalue(L, 1, 1);
        lua_getfield(L, -1, key);
    } else if (strcmp(key, "format") == 0) {
        lua_pushstring(L, k_formats[ud->a.format <= SW_ASSET_FORMAT_READER ? ud->a.format : 0]);
    } else if (strcmp(key, "warning") == 0) {
        lua_pushstring(L, ud->a.warning);
    } else if (strcmp(key, "file_size") == 0) {
        lua_pushinteger(L, (lua_Integer)ud->a.file_size);
    } else {
        return lsw_method(L);
    }
    return 1;
}

/* asset:clip(name_or_1-based_index) -> Clip; raises naming the clips there are. */
static int asset_clip(lua_State* L) {
    lsw_asset* ud = luaL_checkudata(L, 1, LSW_ASSET);
    sw_error err = SW_ERROR_INIT;
    int32_t i = -1;
    if (lua_type(L, 2) == LUA_TNUMBER) {
        const lua_Integer k = luaL_checkinteger(L, 2);
        if (k >= 1 && k <= (lua_Integer)ud->a.clips_count) i = (int32_t)(k - 1);
        if (i < 0)
            return luaL_error(L, "asset:clip: no clip %I (the file holds %d)", k,
                              (int)ud->a.clips_count);
    } else {
        i = sw_asset_require_clip(&ud->a, luaL_checkstring(L, 2), &err);
        if (i < 0) return lsw_raise(L, "asset:clip", SW_RESULT_NOT_FOUND, &err);
    }
    lua_getiuservalue(L, 1, 1);
    lua_getfield(L, -1, "clips");
    lua_rawgeti(L, -1, i + 1);
    return 1;
}

static const luaL_Reg k_asset_methods[] = {{"clip", asset_clip}, {NULL, NULL}};
static const luaL_Reg k_asset_meta[] = {{"__gc", asset_gc}, {"__index", asset_index}, {NULL, NULL}};

/* ---- Clip ---- */

static void push_events(lua_State* L, const sw_clip* c) {
    lua_createtable(L, (int)c->events_count, 0);
    for (uint32_t e = 0; e < c->events_count; ++e) {
        lua_createtable(L, 0, 2);
        lua_pushnumber(L, (lua_Number)sw_clip_events(c)[e].time);
        lua_setfield(L, -2, "time");
        lua_pushstring(L, sw_clip_event_name(c, e));
        lua_setfield(L, -2, "name");
        lua_rawseti(L, -2, (lua_Integer)e + 1);
    }
}

static void push_float_tracks(lua_State* L, const sw_clip* c) {
    lua_createtable(L, (int)c->float_tracks_count, 0);
    for (uint32_t f = 0; f < c->float_tracks_count; ++f) {
        lua_pushstring(L, sw_clip_float_track_name(c, f));
        lua_rawseti(L, -2, (lua_Integer)f + 1);
    }
}

/* clip.name, .duration, .additive, .joints_count, .events, .float_tracks; methods. */
static int clip_index(lua_State* L) {
    const sw_clip* c = check_clip(L, 1)->c;
    const char* key = luaL_checkstring(L, 2);
    if (strcmp(key, "name") == 0)
        lua_pushstring(L, sw_clip_name(c));
    else if (strcmp(key, "duration") == 0)
        lua_pushnumber(L, (lua_Number)c->duration);
    else if (strcmp(key, "additive") == 0)
        lua_pushboolean(L, (c->flags & SW_CLIP_FLAG_ADDITIVE) != 0);
    else if (strcmp(key, "joints_count") == 0)
        lua_pushinteger(L, c->joints_count);
    else if (strcmp(key, "events") == 0)
        push_events(L, c);
    else if (strcmp(key, "float_tracks") == 0)
        push_float_tracks(L, c);
    else
        return lsw_method(L);
    return 1;
}

/* Float track values into the table at idx, by track name. */
static void set_floats(lua_State* L, int idx, const sw_clip* c, const float* v) {
    for (uint32_t f = 0; f < c->float_tracks_count; ++f) {
        lua_pushnumber(L, (lua_Number)v[f]);
        lua_setfield(L, idx, sw_clip_float_track_name(c, f));
    }
}

/* clip:sample(time, pose [, floats]): the pose at time (clamped into the
 * clip), in place; with a table `floats`, the float tracks' values by name.
 * The clip's cache makes forward playback cheap. Returns the pose. */
static int clip_sample(lua_State* L) {
    lsw_clip* ud = check_clip(L, 1);
    const float t = lsw_check_float(L, 2);
    lsw_pose* p = lsw_check_pose(L, 3);
    const bool want_floats = lua_istable(L, 4) && ud->c->float_tracks_count > 0;
    float floats[SW_CLIP_MAX_FLOAT_TRACKS];
    const sw_sample_job job = {.clip = ud->c,
                               .skeleton = p->s,
                               .time = t,
                               .cache = &ud->cache,
                               .out = p->data,
                               .out_count = p->count,
                               .floats = want_floats ? floats : NULL,
                               .floats_count = want_floats ? ud->c->float_tracks_count : 0};
    lsw_check(L, "clip:sample", sw_sample_job_run(&job), NULL);
    if (want_floats) set_floats(L, 4, ud->c, floats);
    lua_settop(L, 3);
    return 1;
}

/* clip:play_time(time [, loop]) -> the time the clip plays (wrapped or clamped). */
static int clip_play_time(lua_State* L) {
    const sw_clip* c = check_clip(L, 1)->c;
    lua_pushnumber(L,
                   (lua_Number)sw_clip_play_time(c, luaL_checknumber(L, 2), lua_toboolean(L, 3)));
    return 1;
}

/* clip:events_between(from, to) -> names of the events in [from, to). */
static int clip_events_between(lua_State* L) {
    const sw_clip* c = check_clip(L, 1)->c;
    uint32_t idx[256];
    const uint32_t n =
        sw_clip_events_between(c, lsw_check_float(L, 2), lsw_check_float(L, 3), idx, 256);
    lua_createtable(L, (int)(n < 256 ? n : 256), 0);
    for (uint32_t i = 0; i < n && i < 256; ++i) {
        lua_pushstring(L, sw_clip_event_name(c, idx[i]));
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static const luaL_Reg k_clip_methods[] = {{"sample", clip_sample},
                                          {"play_time", clip_play_time},
                                          {"events_between", clip_events_between},
                                          {NULL, NULL}};
static const luaL_Reg k_clip_meta[] = {{"__index", clip_index}, {NULL, NULL}};

const sw_clip* lsw_check_clip(lua_State* L, int idx) {
    return check_clip(L, idx)->c;
}

void lsw_open_asset(lua_State* L) {
    lsw_class(L, LSW_ASSET, k_asset_methods, k_asset_meta);
    lsw_class(L, LSW_CLIP, k_clip_methods, k_clip_meta);
    lua_pushcfunction(L, l_load);
    lua_setfield(L, -2, "load");
}
