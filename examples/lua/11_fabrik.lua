-- 11_fabrik.lua: a FABRIK arm (examples/11_fabrik.c in Lua).
--
--     LUA_CPATH="build/lua/?.so" lua5.4 examples/lua/11_fabrik.lua
--
-- A six-bone arm in the XY plane solved with FABRIK and CCD towards a
-- reachable target (distance left after 1, 2, 5, 10 and 50 iterations, bone
-- lengths, the root), towards a target out of reach (the chain ends
-- straight), and with hinge limits about +Z (each joint folds 0..40 degrees
-- one way), each limit checked on the solved chain.
local sinew = require "sinew"

local BONES = 6
local JOINTS = BONES + 1

local function dist(a, b)
    return math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2 + (a.z - b.z) ^ 2)
end

-- A gently curled arm: each bone 0.2 m, turned 12 degrees about +Z.
local names = {"j0", "j1", "j2", "j3", "j4", "j5", "tip"}
local joints, chain = {}, {}
for j = 1, JOINTS do
    joints[j] = {name = names[j], parent = j > 1 and j - 1 or nil,
                 t = {j == 1 and 0 or 0.2, 0, 0},
                 r = sinew.quat_axis_angle({0, 0, 1}, j == 1 and 0 or 0.21)}
    chain[j] = j
end
local arm = sinew.skeleton(joints)
local pose, model = arm:pose(), arm:model()

-- One solve from the rest pose (model matrices recomputed after);
-- returns the distance left.
local function solve(ccd, target, iterations, limits)
    pose:reset():to_model(model)
    local solver = ccd and sinew.ccd or sinew.fabrik
    local d = solver{model = model, pose = pose, joints = chain, target = target,
                     iterations = iterations, tolerance = 1e-6, limits = limits}
    pose:to_model(model)
    return d
end

local failures = 0

-- The distance table, then converged FABRIK: on target, bone lengths kept, root in place.
local function check_reachable(target)
    pose:reset():to_model(model)
    local lengths = {}
    for i = 1, BONES do lengths[i] = dist(model:position(i), model:position(i + 1)) end
    print(("six-bone arm, 1.2 m, target (%.2f, %.2f, %.2f)"):format(target[1], target[2], target[3]))
    print(("%10s %14s %14s"):format("iterations", "FABRIK mm", "CCD mm"))
    for _, it in ipairs{1, 2, 5, 10, 50} do
        local df, dc = solve(false, target, it), solve(true, target, it)
        print(("%10d %14.4f %14.4f"):format(it, df * 1000, dc * 1000))
    end
    solve(false, target, 50)
    local worst_len = 0
    for i = 1, BONES do
        worst_len = math.max(worst_len, math.abs(dist(model:position(i), model:position(i + 1)) - lengths[i]))
    end
    local tip_err = dist(model:position(JOINTS), {x = target[1], y = target[2], z = target[3]})
    local root = dist(model:position(1), {x = 0, y = 0, z = 0})
    print(("FABRIK, 50 iterations: tip %.5f mm from target, bone lengths within %.2g mm, " ..
           "root moved %.2g mm"):format(tip_err * 1000, worst_len * 1000, root * 1000))
    if tip_err > 1e-4 or worst_len > 1e-5 or root > 1e-6 then failures = failures + 1 end
end

-- Out of reach: a straight line from the root towards the target.
local function check_out_of_reach()
    local far = {x = 2.0, y = 1.0, z = 0.5}
    local d = solve(false, far, 10)
    local len = math.sqrt(far.x ^ 2 + far.y ^ 2 + far.z ^ 2)
    local off_line = 0
    for j = 1, JOINTS do
        local p = model:position(j)
        local along = (p.x * far.x + p.y * far.y + p.z * far.z) / len
        local q = {x = far.x / len * along, y = far.y / len * along, z = far.z / len * along}
        off_line = math.max(off_line, dist(p, q))
    end
    print(("out of reach: %.4f m short (reach 1.2 m, target %.4f m away), joints within " ..
           "%.2g mm of the line"):format(d, len, off_line * 1000))
    if off_line > 1e-5 or math.abs(d - (len - 1.2)) > 1e-5 then failures = failures + 1 end
end

-- Hinge limits about +Z: each joint folds 0..40 degrees (left only), the
-- root turns freely; checked on the solved chain for FABRIK and CCD.
local function check_hinges()
    local limits = {}
    for j = 1, JOINTS do
        limits[j] = {type = "hinge", axis = {0, 0, 1}, min = j == 1 and -3.14159 or 0,
                     max = j == 1 and 3.14159 or 0.698}
    end
    for _, target in ipairs{{0.35, 0.7, 0}, {0.2, -0.8, 0}, {-0.3, 0.3, 0.2}} do
        for _, ccd in ipairs{false, true} do
            local d = solve(ccd, target, 100, limits)
            -- Fold of joint i: signed angle about +Z from bone i-1 to bone i.
            local lo, hi, out_of_plane = 10, -10, 0
            for i = 2, BONES do
                local a, b, c = model:position(i - 1), model:position(i), model:position(i + 1)
                local b0 = {b.x - a.x, b.y - a.y, b.z - a.z}
                local b1 = {c.x - b.x, c.y - b.y, c.z - b.z}
                local cross_z = b0[1] * b1[2] - b0[2] * b1[1]
                local fold = math.atan(cross_z, b0[1] * b1[1] + b0[2] * b1[2] + b0[3] * b1[3])
                lo, hi = math.min(lo, fold), math.max(hi, fold)
            end
            for j = 1, JOINTS do out_of_plane = math.max(out_of_plane, math.abs(model:position(j).z)) end
            print(("%s, hinge 0..40 deg, target (%.2f, %.2f, %.2f): %.4f mm left, folds " ..
                   "%.2f..%.2f deg, off the plane %.2g mm"):format(ccd and "CCD   " or "FABRIK",
                   target[1], target[2], target[3], d * 1000, math.deg(lo), math.deg(hi),
                   out_of_plane * 1000))
            if lo < -1e-4 or hi > 0.698 + 1e-4 or out_of_plane > 1e-5 then failures = failures + 1 end
        end
    end
end

check_reachable({0.35, 0.7, 0.0})
check_out_of_reach()
check_hinges()
print(failures > 0 and "FAILED" or "all checks passed")
os.exit(failures > 0 and 1 or 0)
