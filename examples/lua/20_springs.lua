-- 20_springs.lua: a critically damped follow (examples/20_springs.c in Lua).
--
--     LUA_CPATH="build/lua/?.so" lua5.4 examples/lua/20_springs.lua
--
-- A spring by half-life, stepped at 30 and at 240 frames per second, gives
-- the same motion; it covers half the distance in one half-life from rest
-- and never overshoots. A damper runs beside it. Prints what the C example
-- prints; exit code 1 when a check fails.
local sinew = require "sinew"

local half_life, duration = 0.2, 2.0

-- The goal: 1 from t = 0, -0.5 from t = 1 s.
local function goal_at(t)
    return t < 1.0 and 1.0 or -0.5
end

local fast, slow = sinew.spring(0.0), sinew.spring(0.0)
local damper = 0.0
local worst, overshoot, at_half_life = 0.0, false, 0 / 0

print(("half-life %.2f s; goal 1 from t = 0, -0.5 from t = 1 s"):format(half_life))
print("    t     30 fps     240 fps      |diff|")
local frames = math.floor(duration * 30 + 0.5)
for f = 0, frames - 1 do
    local g = goal_at(f / 30 + 1e-6)
    for _ = 1, 8 do -- 240 fps: 8 steps per 30 fps frame
        fast:update(g, half_life, 1 / 240)
    end
    slow:update(g, half_life, 1 / 30)
    damper = sinew.damp(damper, g, half_life, 1 / 30)
    local t1 = (f + 1) / 30
    local diff = math.abs(fast.value - slow.value)
    worst = math.max(worst, diff)
    if t1 < 1.0 and slow.value > 1.0 then overshoot = true end
    if f + 1 == 6 then at_half_life = slow.value end -- t = 0.2 s = one half-life
    if (f + 1) % 6 == 0 then
        print(("%5.2f  %9.6f  %9.6f  %10.3g"):format(t1, slow.value, fast.value, diff))
    end
end

local failed = false
local function check(ok, text)
    print(text .. (ok and "ok" or "FAILED"))
    failed = failed or not ok
end
check(worst <= 1e-4, ("check: 30 vs 240 fps worst difference %.3g (limit 1e-4): "):format(worst))
check(math.abs(at_half_life - 0.5) <= 1e-5,
      ("check: after one half-life from rest the value is %.6f (expected 0.5): "):format(at_half_life))
check(not overshoot, "check: no overshoot of the first goal from rest: ")
print(("damper at t = 2 s: %.6f (goal -0.5)"):format(damper))
os.exit(failed and 1 or 0)
