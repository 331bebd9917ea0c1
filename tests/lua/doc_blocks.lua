-- tests/lua/doc_blocks.lua: every ```lua block of a page runs, and prints
-- what the page says it prints.
--
--     LUA_CPATH="build/lua/?.so" lua5.4 tests/lua/doc_blocks.lua LUA_INTERPRETER docs/lua.md
--
-- A block followed by a paragraph "prints" and an indented block (4 spaces)
-- must print exactly those lines; other blocks must run without error.

local lua, page = arg[1], arg[2]
assert(lua and page, "usage: doc_blocks.lua LUA_INTERPRETER PAGE.md")
local text = assert(io.open(page)):read("a")

local function run(code)
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write(code)
    f:close()
    local p = assert(io.popen(lua .. " " .. path .. " 2>&1"))
    local out = p:read("a")
    local ok = p:close()
    os.remove(path)
    return ok, out
end

local failures, blocks, pos = 0, 0, 1
while true do
    local s, e, code = text:find("```lua\n(.-)```\n", pos)
    if not s then break end
    blocks = blocks + 1
    pos = e + 1
    local expected = text:match("^\nprints\n\n(.-)\n\n", pos)
        or text:match("^\nprints\n\n(.-)\n$", pos)
    local ok, out = run(code)
    if expected then expected = ("\n" .. expected):gsub("\n    ", "\n"):sub(2) .. "\n" end
    local line = select(2, text:sub(1, s):gsub("\n", "")) + 1
    if not ok then
        print(("block at line %d failed:\n%s"):format(line, out))
        failures = failures + 1
    elseif expected and out ~= expected then
        print(("block at line %d printed\n%s\ninstead of\n%s"):format(line, out, expected))
        failures = failures + 1
    else
        print(("block at line %d: ok%s"):format(line, expected and " (output as documented)" or ""))
    end
end
print(("%s: %d blocks, %d failed"):format(page, blocks, failures))
os.exit(failures == 0 and blocks > 0 and 0 or 1)
