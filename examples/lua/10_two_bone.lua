-- 10_two_bone.lua: a two-bone leg with a pole (examples/10_two_bone.c in Lua).
--
--     LUA_CPATH="build/lua/?.so" lua5.4 examples/lua/10_two_bone.lua [FILE.bvh]
--
-- Loads a CMU capture (default: Debian's 01_01.bvh, scaled to metres) and
-- puts the left foot on targets around it with two-bone IK, the knee
-- bending towards the front (+Z): the reach error and the bone lengths
-- before and after; out of reach the leg ends straight. Then the IK fades in
-- and out while the clip plays, and softness eases the end of the reach.
local sinew = require "sinew"

local path = arg[1] or "/usr/share/assimp/models/BVH/01_01.bvh"
local asset = sinew.load(path, {scale = 0.056444}) -- CMU units to metres
local skeleton, clip = asset.skeleton, asset.clips[1]
local pose, model = skeleton:pose(), skeleton:model()
local leg = {"LeftUpLeg", "LeftLeg", "LeftFoot"}
local hip, knee, ankle = skeleton:joint(leg[1]), skeleton:joint(leg[2]), skeleton:joint(leg[3])
local failures = 0

local function dist(a, b)
    return math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2 + (a.z - b.z) ^ 2)
end
local function add(a, b) return {x = a.x + b[1], y = a.y + b[2], z = a.z + b[3]} end
local function pos(j) return model:position(j) end

-- The clip at t, and its model matrices.
local function pose_at(t)
    clip:sample(t, pose):to_model(model)
end

-- Two-bone IK on the leg, then local-to-model for the leg's sub-tree.
local function solve_leg(target, weight, softness)
    local reached = sinew.two_bone{model = model, pose = pose, start = hip, mid = knee, ["end"] = ankle,
                                   target = target, pole = {0, 0, 1}, weight = weight,
                                   softness = softness}
    pose:to_model(model, {subtree = hip})
    return reached
end

local function smoothstep(e0, e1, x)
    local t = math.min(math.max((x - e0) / (e1 - e0), 0), 1)
    return t * t * (3 - 2 * t)
end

-- Four targets at four times, each checked (error, bone lengths, a straight
-- leg when out of reach).
local function reach_table()
    print(("two-bone IK on %s: LeftUpLeg -> LeftLeg -> LeftFoot"):format(path))
    print(("%6s  %-22s %9s %8s  %-17s %-17s"):format("time", "target", "error mm", "reached",
                                                      "thigh cm (before)", "shin cm (before)"))
    local names = {"step up 15 cm", "forward 20 cm", "inward 10 cm, up 5", "down 1 m (too far)"}
    local offsets = {{0, 0.15, 0.05}, {0, 0.05, 0.2}, {-0.1, 0.05, 0}, {0, -1.0, 0}}
    for f = 0, 3 do
        local t = clip.duration * f / 4
        for k = 1, 4 do
            pose_at(t)
            local l1, l2 = dist(pos(hip), pos(knee)), dist(pos(knee), pos(ankle))
            local target = add(pos(ankle), offsets[k])
            local reached = solve_leg(target, 1, 0)
            local e = dist(pos(ankle), target)
            local n1, n2 = dist(pos(hip), pos(knee)), dist(pos(knee), pos(ankle))
            print(("%5.2fs  %-22s %9.4f %8s  %7.3f (%7.3f) %7.3f (%7.3f)"):format(t, names[k], e * 1000,
                  reached and "yes" or "no", n1 * 100, l1 * 100, n2 * 100, l2 * 100))
            if (reached and e > 1e-4) or math.abs(n1 - l1) > 1e-5 or math.abs(n2 - l2) > 1e-5 then
                failures = failures + 1
            end
            if not reached then -- out of reach: straight, pointing at the target
                local a = pos(hip)
                local d = dist(target, a)
                local s = (l1 + l2) / d
                local expect = {x = a.x + (target.x - a.x) * s, y = a.y + (target.y - a.y) * s,
                                z = a.z + (target.z - a.z) * s}
                local off = dist(pos(ankle), expect)
                print(("        out of reach: foot %.4f mm from the straight leg's end"):format(off * 1000))
                if off > 1e-4 then failures = failures + 1 end
            end
        end
    end
end

-- The IK weight fades in over frames 20..40 and out over 70..90 while the
-- clip plays; the target follows the hip (70 cm below, 15 cm forward).
local function fade()
    local worst_jump, last, held = 0, nil, 0
    for f = 0, 110 do
        local w = smoothstep(20, 40, f) * (1 - smoothstep(70, 90, f))
        pose_at(1 + f / 30)
        local target = add(pos(hip), {0.05, -0.7, 0.15})
        solve_leg(target, w, 0)
        local after = dist(pos(ankle), target)
        if last then worst_jump = math.max(worst_jump, math.abs(after - last)) end
        last = after
        if w == 1 then held = math.max(held, after) end
    end
    print(("fade in/out over 110 frames at 30 fps: foot on the target at full weight " ..
           "(%.4f mm), largest frame-to-frame change of its distance %.1f mm"):format(held * 1000,
                                                                                   worst_jump * 1000))
    if held > 1e-4 then failures = failures + 1 end
end

-- Softness: the distance reached against the target's, for 0, 0.1 and 0.3.
local function softness()
    pose_at(1)
    local a = pos(hip)
    local reach = dist(a, pos(knee)) + dist(pos(knee), pos(ankle))
    local n = math.sqrt(0.1 ^ 2 + 1 + 0.2 ^ 2)
    local down = {0.1 / n, -1 / n, 0.2 / n}
    local soft, prev, monotonic = {0, 0.1, 0.3}, {0, 0, 0}, true
    for i = 0, 80 do
        local d = reach * (0.6 + 0.8 * i / 80)
        for s = 1, 3 do
            pose_at(1)
            solve_leg(add(a, {down[1] * d, down[2] * d, down[3] * d}), 1, soft[s])
            local got = dist(a, pos(ankle)) / reach
            if got < prev[s] - 1e-6 then monotonic = false end
            prev[s] = got
        end
    end
    print(("softness 0 / 0.1 / 0.3 at 1.4x the reach: leg at %.4f / %.4f / %.4f of full " ..
           "extension (%s)"):format(prev[1], prev[2], prev[3], monotonic and "monotonic" or "NOT monotonic"))
    if not monotonic then failures = failures + 1 end
end

reach_table()
fade()
softness()
print(failures > 0 and "FAILED" or "all checks passed")
os.exit(failures > 0 and 1 or 0)
