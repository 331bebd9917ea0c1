-- tests/lua/compare.lua: runs a C example and its Lua rewrite and checks
-- that they print the same thing.
--
--     lua5.4 compare.lua C_PROGRAM LUA_INTERPRETER LUA_SCRIPT
--
-- Both must exit 0. Their outputs must be the same text once every number is
-- replaced by a mark (so the check lines, "ok" or "FAILED", agree), and each
-- pair of numbers must agree within what was printed:
-- - two units of the last digit printed (0.8482 and 0.8483 agree; the C
--   example works in float, the Lua one in double, so the last digit may
--   round the other way);
-- - figures below 1e-3 in the unit printed are residuals at float precision
--   (a bone length kept to 5e-08 m, a joint 0.00017 mm off a line): they
--   agree when both are below 1e-3; the check line that bounds each of them
--   must match as text.

local c_program, lua, script = arg[1], arg[2], arg[3]
assert(c_program and lua and script, "usage: compare.lua C_PROGRAM LUA_INTERPRETER LUA_SCRIPT")

local function run(command)
    local f = assert(io.popen(command .. " 2>&1", "r"))
    local out = f:read("a")
    local ok, how, code = f:close()
    if not ok then
        io.stderr:write(("%s failed (%s %s):\n%s\n"):format(command, how, code, out))
        os.exit(1)
    end
    return out
end

-- The numbers of a text, each {value, unit of its last digit, token}, and
-- the text with each number replaced by "#".
local function numbers(text)
    local list, skeleton, pos = {}, {}, 1
    while true do
        local s, e = text:find("[-+]?%d+%.?%d*", pos)
        if not s then break end
        local es, ee = text:find("^[eE][-+]?%d+", e + 1)
        local token = text:sub(s, ee or e)
        local mantissa = text:sub(s, e)
        local decimals = #(mantissa:match("%.(%d*)$") or "")
        local exponent = ee and tonumber(text:sub(es + 1, ee)) or 0
        list[#list + 1] = {value = tonumber(token), unit = 10.0 ^ (exponent - decimals), token = token}
        skeleton[#skeleton + 1] = text:sub(pos, s - 1) .. "#"
        pos = (ee or e) + 1
    end
    skeleton[#skeleton + 1] = text:sub(pos)
    return list, table.concat(skeleton)
end

local function agree(a, b)
    local diff = math.abs(a.value - b.value)
    if diff <= 2.0 * math.max(a.unit, b.unit) + 1e-12 then return true end
    return math.abs(a.value) < 1e-3 and math.abs(b.value) < 1e-3
end

local c_out = run(c_program)
local lua_out = run(lua .. " " .. script)
local c_numbers, c_text = numbers(c_out)
local lua_numbers, lua_text = numbers(lua_out)

local failures = 0
if c_text ~= lua_text then
    io.stderr:write("the texts differ (numbers as #):\n--- C\n" .. c_text .. "--- Lua\n" .. lua_text)
    failures = failures + 1
end
for i = 1, math.min(#c_numbers, #lua_numbers) do
    local a, b = c_numbers[i], lua_numbers[i]
    if not agree(a, b) then
        io.stderr:write(("number %d: C %s, Lua %s\n"):format(i, a.token, b.token))
        failures = failures + 1
    end
end
print(("%s: %d numbers compared, %d disagree"):format(script, #c_numbers, failures))
io.write(lua_out)
os.exit(failures == 0 and 0 or 1)
