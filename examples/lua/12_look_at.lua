-- 12_look_at.lua: a head turning toward a target within a limit
-- (examples/12_look_at.c in Lua).
--
--     LUA_CPATH="build/lua/?.so" lua5.4 examples/lua/12_look_at.lua [FILE.bvh]
--
-- A CMU character turns its head towards a point circling it, 2 m away at
-- eye height, the turn spread over spine, neck and head and limited to 70
-- degrees. For a target every 30 degrees: how far the face turned and what
-- is left. Fails when the face turns past the limit, misses a target within
-- it by more than 0.01 degree, or tilts its up axis out of the vertical plane.
local sinew = require "sinew"

local path = arg[1] or "/usr/share/assimp/models/BVH/01_01.bvh"
local asset = sinew.load(path, {scale = 0.056444}) -- CMU units to metres
local skeleton, clip = asset.skeleton, asset.clips[1]
local pose, model = skeleton:pose(), skeleton:model()
local chain = {"Spine1", "Neck", "Neck1", "Head"}
local shares = {0.25, 0.3, 0.4, 1.0} -- of what is left at each joint
local head = skeleton:joint("Head")

local function dot(a, b) return a.x * b.x + a.y * b.y + a.z * b.z end
local function cross(a, b)
    return {x = a.y * b.z - a.z * b.y, y = a.z * b.x - a.x * b.z, z = a.x * b.y - a.y * b.x}
end
local function length(a) return math.sqrt(dot(a, a)) end
local function normalize(a) local l = length(a) return {x = a.x / l, y = a.y / l, z = a.z / l} end
local function angle_between(a, b) return math.atan(length(cross(a, b)), dot(a, b)) end

-- Forward and up of the face in the head's space, from the rest pose
-- (model +Z is where CMU characters face).
pose:reset():to_model(model)
local rest_head = sinew.quat_conjugate(model:rotation(head))
local forward = sinew.quat_rotate(rest_head, {0, 0, 1})
local up = sinew.quat_rotate(rest_head, {0, 1, 0})
local bone = sinew.forward_from_rest(skeleton, "Neck1", "Head")
print(("look-at over Spine1, Neck, Neck1, Head (shares 0.25, 0.3, 0.4, 1), limit 70 deg; " ..
       "Neck1->Head bone in Neck1's space (%.3f, %.3f, %.3f)"):format(bone.x, bone.y, bone.z))

local limit = math.rad(70)
local failures = 0
print(("%10s %10s %10s"):format("target deg", "turned deg", "left deg"))
for deg = -180, 180, 5 do
    clip:sample(2.0, pose):to_model(model)
    local eye = model:position(head)
    local f0 = normalize(sinew.quat_rotate(model:rotation(head), forward))
    -- Around the vertical from the face's current heading.
    local flat = sinew.quat_rotate(sinew.quat_axis_angle({0, 1, 0}, math.rad(deg)),
                                   normalize({x = f0.x, y = 0, z = f0.z}))
    local target = {x = eye.x + 2 * flat.x, y = eye.y + 2 * flat.y, z = eye.z + 2 * flat.z}
    sinew.look_at{model = model, pose = pose, joints = chain, shares = shares, forward = forward,
                  up = up, target = target, limit = limit}
    pose:to_model(model)
    local rh = model:rotation(head)
    local f1 = normalize(sinew.quat_rotate(rh, forward))
    local u1 = sinew.quat_rotate(rh, up)
    local eye1 = model:position(head)
    local to_target = {x = target.x - eye1.x, y = target.y - eye1.y, z = target.z - eye1.z}
    local wanted, turned, left = angle_between(f0, to_target), angle_between(f0, f1),
                                 angle_between(f1, to_target)
    local tilt = dot(u1, normalize(cross(f1, {x = 0, y = 1, z = 0})))
    if deg % 30 == 0 then
        print(("%10d %10.3f %10.3f"):format(deg, math.deg(turned), math.deg(left)))
    end
    if turned > limit + 1e-4 then failures = failures + 1 end
    if wanted < limit and left > math.rad(0.01) then failures = failures + 1 end
    if math.abs(tilt) > 1e-4 then failures = failures + 1 end
end
print(failures > 0 and "FAILED" or "all checks passed")
os.exit(failures > 0 and 1 or 0)
