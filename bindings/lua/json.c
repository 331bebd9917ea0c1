/* bindings/lua/json.c: a Lua value as JSON text, so that animator
 * definitions written as Lua tables go through the one JSON reader of the
 * tools (sinew/tools/readers/animator_json.h) and its schema checks.
 * Sequences (keys 1..n) become arrays, the empty table [], tables with
 * string keys objects. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lsw.h"

#define JSON_MAX_DEPTH 32

/* The text as pieces in a table at stack index `pieces` (joined at the end:
 * values are pushed and popped while the text grows, which a luaL_Buffer
 * does not allow). */
typedef struct json_out {
    int pieces;
    lua_Integer n;
} json_out;

static void put(lua_State* L, json_out* b, const char* s, size_t n) {
    lua_pushlstring(L, s, n);
    lua_rawseti(L, b->pieces, ++b->n);
}

static void put_cstr(lua_State* L, json_out* b, const char* s) {
    put(L, b, s, strlen(s));
}

static void put_value(lua_State* L, json_out* b, int idx, int depth);

/* A string with quotes and escapes; runs without escapes go in one piece. */
static void put_string(lua_State* L, json_out* b, const char* s, size_t n) {
    put_cstr(L, b, "\"");
    size_t run = 0;
    for (size_t i = 0; i < n; ++i) {
        const unsigned char c = (unsigned char)s[i];
        if (c != '"' && c != '\\' && c >= 0x20) continue;
        put(L, b, s + run, i - run);
        char esc[8];
        snprintf(esc, sizeof esc, "\\u%04x", c);
        put_cstr(L, b, esc);
        run = i + 1;
    }
    put(L, b, s + run, n - run);
    put_cstr(L, b, "\"");
}

static void put_number(lua_State* L, json_out* b, int idx) {
    char num[32];
    if (lua_isinteger(L, idx)) {
        snprintf(num, sizeof num, LUA_INTEGER_FMT, (LUAI_UACINT)lua_tointeger(L, idx));
    } else {
        const double v = (double)lua_tonumber(L, idx);
        if (!isfinite(v)) luaL_error(L, "animator definition: a number is not finite");
        snprintf(num, sizeof num, "%.17g", v);
    }
    put_cstr(L, b, num);
}

/* True when the table at idx has exactly the keys 1..n (n >= 1). */
static bool is_sequence(lua_State* L, int idx) {
    const lua_Unsigned n = lua_rawlen(L, idx);
    lua_Unsigned keys = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        ++keys;
        lua_pop(L, 1);
    }
    return n > 0 && keys == n;
}

static void put_table(lua_State* L, json_out* b, int idx, int depth) {
    if (depth > JSON_MAX_DEPTH) luaL_error(L, "animator definition: nested too deep (a cycle?)");
    lua_pushnil(L);
    const bool empty = lua_next(L, idx) == 0;
    if (!empty) lua_pop(L, 2);
    if (empty || is_sequence(L, idx)) {
        const lua_Unsigned n = lua_rawlen(L, idx);
        put_cstr(L, b, "[");
        for (lua_Unsigned i = 1; i <= n; ++i) {
            if (i > 1) put_cstr(L, b, ",");
            lua_rawgeti(L, idx, (lua_Integer)i);
            put_value(L, b, lua_gettop(L), depth + 1);
            lua_pop(L, 1);
        }
        put_cstr(L, b, "]");
        return;
    }
    put_cstr(L, b, "{");
    bool first = true;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) != LUA_TSTRING)
            luaL_error(L, "animator definition: a table mixes list entries and named keys");
        if (!first) put_cstr(L, b, ",");
        first = false;
        size_t n = 0;
        const char* key = lua_tolstring(L, -2, &n);
        put_string(L, b, key, n);
        put_cstr(L, b, ":");
        put_value(L, b, lua_gettop(L), depth + 1);
        lua_pop(L, 1);
    }
    put_cstr(L, b, "}");
}

static void put_value(lua_State* L, json_out* b, int idx, int depth) {
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        put_number(L, b, idx);
        break;
    case LUA_TBOOLEAN:
        put_cstr(L, b, lua_toboolean(L, idx) ? "true" : "false");
        break;
    case LUA_TSTRING: {
        size_t n = 0;
        const char* s = lua_tolstring(L, idx, &n);
        put_string(L, b, s, n);
        break;
    }
    case LUA_TTABLE:
        put_table(L, b, idx, depth);
        break;
    default:
        luaL_error(L, "animator definition: a %s has no JSON form", luaL_typename(L, idx));
    }
}

void lsw_push_json(lua_State* L, int idx) {
    idx = lua_absindex(L, idx);
    lua_newtable(L);
    json_out out = {lua_gettop(L), 0};
    put_value(L, &out, idx, 0);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (lua_Integer i = 1; i <= out.n; ++i) {
        lua_rawgeti(L, out.pieces, i);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    lua_remove(L, out.pieces);
}
