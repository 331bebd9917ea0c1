-- 21_tail.lua: a tail of spheres, follow-the-leader (examples/21_tail.c in Lua).
--
--     LUA_CPATH="build/lua/?.so" lua5.4 examples/lua/21_tail.lua
--
-- A 12-point chain hangs behind a head that runs a figure eight; the points
-- (the spheres) drive a joint chain, a tail, through chain:aim. Checks every
-- frame that the segment lengths are kept, that the tail joints land on the
-- points, and that after the first loop the tail retraces the same loop.
local sinew = require "sinew"

local POINTS, FRAMES_PER_LOOP, LOOPS, SEGMENT = 12, 240, 3, 0.08

local function dist(a, b)
    return math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2 + (a.z - b.z) ^ 2)
end

-- The rig: a base joint (moved by the game) and 11 tail joints below it.
local joints = {}
for i = 1, POINTS do
    joints[i] = {name = "tail" .. (i - 1), parent = i > 1 and i - 1 or nil,
                 t = {0, i == 1 and 0 or -SEGMENT, 0}}
end
local skeleton = sinew.skeleton(joints)
local pose, model = skeleton:pose(), skeleton:model()
local chain_joints = {}
for i = 1, POINTS do chain_joints[i] = i end
pose:to_model(model)
local spheres = sinew.chain(model, chain_joints) -- points and segment lengths from the rest pose

-- The head's figure eight (2 m x 1 m) at frame f.
local function head_at(f)
    local t = 2 * math.pi * f / FRAMES_PER_LOOP
    return {x = math.sin(t), y = 0.5 * math.sin(2 * t), z = 0}
end

local tail_path = {}
local worst_len, worst_joint, worst_loop = 0, 0, 0
for f = 1, FRAMES_PER_LOOP * LOOPS do
    local head = head_at(f)
    pose:reset()
    pose[1] = {t = head} -- the game moves the base joint to the head
    pose:to_model(model)
    spheres:follow(head)
    spheres:aim{model = model, pose = pose}
    pose:to_model(model)
    for i = 1, POINTS do
        worst_joint = math.max(worst_joint, dist(model:position(i), spheres[i]))
        if i > 1 then
            worst_len = math.max(worst_len, math.abs(dist(spheres[i], spheres[i - 1]) - SEGMENT))
        end
    end
    tail_path[f] = spheres[POINTS]
    if f > FRAMES_PER_LOOP * (LOOPS - 1) then
        worst_loop = math.max(worst_loop, dist(tail_path[f], tail_path[f - FRAMES_PER_LOOP]))
    end
end

print(("figure eight 2 m x 1 m, %d points %.2f m apart, %d frames per loop, %d loops")
      :format(POINTS, SEGMENT, FRAMES_PER_LOOP, LOOPS))
local failed = false
local function check(ok, text)
    print(text .. (ok and "ok" or "FAILED"))
    failed = failed or not ok
end
check(worst_len <= 1e-5, ("check: segment lengths kept within %.3g m (limit 1e-5): "):format(worst_len))
check(worst_joint <= 1e-4,
      ("check: tail joints on the points within %.3g m (limit 1e-4): "):format(worst_joint))
check(worst_loop <= 1e-3,
      ("check: the tail retraces its loop every period within %.3g m (limit 1e-3): "):format(worst_loop))
os.exit(failed and 1 or 0)
