-- 40_foot_placement.lua: foot placement on a step, a hole and a slope, then
-- walking down a step (examples/40_foot_placement.c in Lua).
--
--     LUA_CPATH="build/lua/?.so" lua5.4 examples/lua/40_foot_placement.lua [FILE.bvh]
--
-- The standing pose of a CMU capture's first frame, feet placed by
-- sinew.foot on analytic ground whose rays are a Lua function: a 12 cm step
-- under the left foot, a 15 cm hole, a 20 degree slope. Each ankle keeps its
-- animated height above the ground (< 1 mm), no leg is over-extended. Then a
-- synthetic walk carried forward at 1.2 m/s walks off a 15 cm step: the
-- largest change of the pelvis per frame with the springs and without.
local sinew = require "sinew"

local path = arg[1] or "/usr/share/assimp/models/BVH/01_01.bvh"
local asset = sinew.load(path, {scale = 0.056444}) -- CMU units to metres
local skeleton = asset.skeleton
local pose, model = skeleton:pose(), skeleton:model()
local hips = skeleton:joint("Hips")
local legs = {{hip = "LeftUpLeg", knee = "LeftLeg", ankle = "LeftFoot"},
              {hip = "RightUpLeg", knee = "RightLeg", ankle = "RightFoot"}}
for _, l in ipairs(legs) do
    l.hip, l.knee, l.ankle = skeleton:joint(l.hip), skeleton:joint(l.knee), skeleton:joint(l.ankle)
end

local function dist(a, b)
    return math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2 + (a.z - b.z) ^ 2)
end
local function pos(j) return model:position(j) end

-- Ground: a step (or a hole) beyond step_z, under x > split_x when given, or
-- a slope rising along +Z from slope_z.
local function ground_height(g, x, z)
    if g.step ~= 0 then
        return (z >= g.step_z and not (g.split_x and x <= g.split_x)) and g.step or 0
    end
    return math.tan(g.slope) * (z - g.slope_z)
end
local function ground_ray(g)
    return function(from, _, max_distance)
        local h = ground_height(g, from.x, from.z)
        if h > from.y or from.y - h > max_distance then return nil end
        local normal = g.step ~= 0 and {0, 1, 0} or {0, 1, -math.tan(g.slope)}
        local n = math.sqrt(normal[1] ^ 2 + normal[2] ^ 2 + normal[3] ^ 2)
        return {from.x, h, from.z}, {normal[1] / n, normal[2] / n, normal[3] / n}
    end
end

local standing = skeleton:pose()
asset.clips[1]:sample(0, standing)
pose:copy(standing):to_model(model)
local length = {}
for i, l in ipairs(legs) do
    length[i] = dist(pos(l.hip), pos(l.knee)) + dist(pos(l.knee), pos(l.ankle))
end

-- One placement on the standing pose; returns the number of failed checks.
local function place(name, g)
    pose:copy(standing):to_model(model)
    local anim, anim_rot = {}, {}
    for i, l in ipairs(legs) do anim[i], anim_rot[i] = pos(l.ankle), model:rotation(l.ankle) end
    local hips0 = pos(hips).y
    sinew.foot{model = model, pose = pose, pelvis = hips, legs = legs, ray = ground_ray(g),
               dt = 1 / 60, state = sinew.foot_state()}
    local failures = 0
    print(("%-28s pelvis %+.4f m"):format(name, pos(hips).y - hips0))
    for i, l in ipairs(legs) do
        local a = pos(l.ankle)
        local err = math.abs(a.y - (ground_height(g, a.x, a.z) + anim[i].y))
        local reach = dist(pos(l.hip), a)
        local d = sinew.quat_mul(model:rotation(l.ankle), sinew.quat_conjugate(anim_rot[i]))
        local tilt = 2 * math.atan(math.sqrt(d.x ^ 2 + d.y ^ 2 + d.z ^ 2), math.abs(d.w))
        local ok = err < 1e-3 and reach <= length[i] + 1e-5
        print(("  %s foot: ground %+.3f m, ankle off by %.2e m, reach %.4f of %.4f m, tilt %.1f " ..
               "deg  %s"):format(i == 1 and "left " or "right", ground_height(g, a.x, a.z), err, reach,
                                 length[i], math.deg(tilt), ok and "ok" or "FAILED"))
        failures = failures + (ok and 0 or 1)
    end
    return failures
end

-- The synthetic walk: hips swinging, knees bending, moved forward at 1.2 m/s
-- and lifted by `lift`; returns the root matrix.
local function walk_pose(t, lift)
    pose:reset()
    local w = 2 * math.pi * 0.9
    for i, l in ipairs(legs) do
        local ph = w * t + (i - 1) * math.pi
        local x = {1, 0, 0}
        pose[l.hip] = {r = sinew.quat_mul(pose:rotation(l.hip), sinew.quat_axis_angle(x, -0.35 * math.sin(ph)))}
        pose[l.knee] = {r = sinew.quat_mul(pose:rotation(l.knee),
                                           sinew.quat_axis_angle(x, 0.15 + 0.6 * math.max(0, math.sin(ph))))}
    end
    local root = sinew.matrix{t = {0, lift, 1.2 * t}}
    pose:to_model(model, {root = root})
    return root
end

-- Walks 2.5 s off a 15 cm step at z = 1; returns the largest pelvis change
-- per frame.
local function walk(half_life)
    local low = math.huge
    for k = 0, 119 do
        walk_pose(k / 120 / 0.9, 0)
        for _, l in ipairs(legs) do low = math.min(low, pos(l.ankle).y) end
    end
    local lift = 0.08 - low -- lowest ankle 8 cm above the floor
    local g = {step_z = 1.0, step = -0.15}
    local state, prev, worst, failures = sinew.foot_state(), 0, 0, 0
    for f = 0, 150 do
        local root = walk_pose(f / 60, lift)
        local hip_anim = pos(hips).y
        sinew.foot{model = model, pose = pose, pelvis = hips, legs = legs, ray = ground_ray(g),
                   dt = 1 / 60, state = state, root = root, pelvis_half_life = half_life,
                   foot_half_life = half_life}
        local pelvis = pos(hips).y - hip_anim
        if f > 0 then worst = math.max(worst, math.abs(pelvis - prev)) end
        prev = pelvis
        for i, l in ipairs(legs) do
            if dist(pos(l.hip), pos(l.ankle)) > length[i] + 1e-5 then failures = failures + 1 end
        end
    end
    return worst, failures
end

print(("CMU %s, standing pose of frame 0, legs %.3f and %.3f m"):format(path, length[1], length[2]))
local a1, a2 = pos(legs[1].ankle), pos(legs[2].ankle)
local mid_x, mid_z = 0.5 * (a1.x + a2.x), 0.5 * (a1.z + a2.z)
local failures = place("12 cm step under the left:", {step_z = -10, split_x = mid_x, step = 0.12})
failures = failures + place("15 cm hole under the left:", {step_z = -10, split_x = mid_x, step = -0.15})
failures = failures + place("20 degree slope:", {step = 0, slope = math.rad(20), slope_z = mid_z + 0.25})
local smooth, f1 = walk(0)
local snap, f2 = walk(-1)
failures = failures + f1 + f2
local ok = smooth < 0.02 and snap > 0.1
print(("walking off a 15 cm step at 1.2 m/s, 60 fps: pelvis moves at most %.4f m per frame " ..
       "with springs, %.4f m without  %s"):format(smooth, snap, ok and "ok" or "FAILED"))
failures = failures + (ok and 0 or 1)
print(failures > 0 and "FAILED" or "all checks passed")
os.exit(failures > 0 and 1 or 0)
