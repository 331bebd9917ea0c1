-- tests/lua/test_sinew.lua: the Lua module's surface against independent
-- expectations (closed forms, properties, the CLI's output).
--
--     LUA_CPATH="build/lua/?.so" lua5.4 tests/lua/test_sinew.lua [SINEW_CLI]
--
-- Uses Debian's CMU capture (/usr/share/assimp/models/BVH/01_01.bvh) and,
-- when $SINEW_ASSETS holds it, RobotExpressive.glb; tests whose data is
-- missing say so and skip. With SINEW_CLI, sampled poses are compared with
-- `sinew sample --json`.
local sinew = require "sinew"

local CLI = arg[1] ~= "" and arg[1] or nil
local BVH = "/usr/share/assimp/models/BVH/01_01.bvh"
local CMU_SCALE = 0.056444
local ROBOT = (os.getenv("SINEW_ASSETS") or "../shared/assets") .. "/RobotExpressive.glb"

local function exists(path)
    local f = io.open(path, "rb")
    if f then f:close() end
    return f ~= nil
end

local tests, skipped = {}, {}
local function test(name, fn) tests[#tests + 1] = {name = name, fn = fn} end
local function skip(why) error({skip = why}) end

local function near(a, b, tol, what)
    if not (math.abs(a - b) <= tol) then
        error(("%s: %.9g and %.9g differ by more than %g"):format(what or "value", a, b, tol), 2)
    end
end
local function dist(a, b)
    return math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2 + (a.z - b.z) ^ 2)
end
-- Rotations compared up to sign: 1 - |dot| is about angle^2 / 8.
local function same_rotation(a, b, tol, what)
    local d = math.abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w)
    near(d, 1, tol, what or "rotation |dot|")
end
-- Two local poses of skeleton s alike joint by joint: rotations up to sign
-- within 1e-6 of |dot| 1, translations within 1e-5.
local function same_pose(s, a, b)
    for j = 1, #s do
        same_rotation(a:rotation(j), b:rotation(j), 1e-6, s:name(j))
        near(dist(a:translation(j), b:translation(j)), 0, 1e-5, s:name(j) .. " t")
    end
end
-- The error a call raises (it must raise).
local function raises(fn, ...)
    local ok, e = pcall(fn, ...)
    assert(not ok, "the call did not raise")
    return e
end

-- A planar arm built in code: `bones` bones of `len` metres along +X.
local function arm(bones, len)
    local joints = {}
    for j = 1, bones + 1 do
        joints[j] = {name = "j" .. j, parent = j > 1 and j - 1 or nil, t = {j > 1 and len or 0, 0, 0},
                     r = sinew.quat_axis_angle({0, 0, 1}, j > 1 and 0.2 or 0)}
    end
    return sinew.skeleton(joints)
end

local function cmu()
    if not exists(BVH) then skip(BVH .. " is absent (Debian assimp-testmodels)") end
    return sinew.load(BVH, {scale = CMU_SCALE})
end

-- ---- skeletons, poses, model matrices ----

test("skeleton built from a table: names, parents, rest", function()
    local s = arm(3, 0.5)
    assert(#s == 4 and s:name(2) == "j2" and s:joint("j3") == 3 and s:joint("nope") == nil)
    assert(s:parent(1) == nil and s:parent(4) == 3)
    near(s:rest(2).t.x, 0.5, 0, "rest translation")
    local chain = s:chain("j2", "j4")
    assert(#chain == 3 and chain[1] == 2 and chain[3] == 4)
end)

test("pose indexing writes in place; local-to-model composes the chain", function()
    local s = arm(2, 1.0)
    local pose, model = s:pose(), s:model()
    assert(#pose == 3 and #model == 3 and pose.skeleton == s)
    for j = 1, 3 do pose[j] = {r = {0, 0, 0, 1}} end -- straight along +X
    pose[2] = {t = {2, 0, 0}}
    near(pose[2].t.x, 2, 0, "pose[2].t.x")
    pose:to_model(model)
    near(model:position(3).x, 3, 1e-6, "tip x") -- 2 + 1
    near(model[3][13], 3, 1e-6, "model[3] column 4")
    near(model.j3[13], 3, 1e-6, "model by joint name")
    near(pose.j2.t.x, 2, 0, "pose by joint name")
    assert(pose.nope == nil and type(pose.get) == "function")
    -- a root transform moves everything
    pose:to_model(model, {root = {t = {0, 5, 0}}})
    near(model:position(3).y, 5, 1e-6, "tip y with a root transform")
    local copy = pose:clone()
    pose:reset()
    near(copy[2].t.x, 2, 0, "clone is a copy")
    near(pose[2].t.x, 1, 0, "reset gives the rest pose")
end)

-- ---- assets and sampling ----

-- The model-space transforms of `sinew sample --json` (one table per joint).
local function cli_sample(path, time, scale)
    local cmd = ("%s sample %s --time %.9g --json%s"):format(CLI, path, time,
                                                        scale and (" --scale %.9g"):format(scale) or "")
    local f = assert(io.popen(cmd))
    local text = f:read("a")
    assert(f:close(), cmd .. " failed")
    local joints = {}
    for name, t, r, s in text:gmatch('"name": "([^"]*)".-"t": %[([^%]]*)%], "r": %[([^%]]*)%], "s": %[([^%]]*)%]') do
        local function nums(list)
            local v = {}
            for n in list:gmatch("[^,%s]+") do v[#v + 1] = tonumber(n) end
            return v
        end
        joints[#joints + 1] = {name = name, t = nums(t), r = nums(r), s = nums(s)}
    end
    return joints
end

local function compare_with_cli(path, opts, time)
    local asset = sinew.load(path, opts)
    local s, clip = asset.skeleton, asset.clips[1]
    local pose, model = s:pose(), s:model()
    clip:sample(time, pose):to_model(model)
    local expected = cli_sample(path, time, opts and opts.scale)
    assert(#expected == #s, ("the CLI printed %d joints, the skeleton has %d"):format(#expected, #s))
    for j = 1, #s do
        local x, e = model:xform(j), expected[j]
        assert(s:name(j) == e.name)
        near(x.t.x, e.t[1], 1e-6, e.name .. " t.x")
        near(x.t.y, e.t[2], 1e-6, e.name .. " t.y")
        near(x.t.z, e.t[3], 1e-6, e.name .. " t.z")
        same_rotation(x.r, {x = e.r[1], y = e.r[2], z = e.r[3], w = e.r[4]}, 1e-6, e.name .. " r")
        near(x.s.x, e.s[1], 1e-6, e.name .. " s.x")
    end
end

test("sampled BVH pose equals `sinew sample --json`", function()
    if not CLI then skip("no sinew CLI given") end
    cmu()
    compare_with_cli(BVH, {scale = CMU_SCALE}, 1.5)
end)

test("sampled glTF pose equals `sinew sample --json`", function()
    if not CLI then skip("no sinew CLI given") end
    if not exists(ROBOT) then skip(ROBOT .. " is absent") end
    compare_with_cli(ROBOT, nil, 0.7)
end)

test("a .sinew archive written by `sinew convert` samples as `sinew sample --json` says", function()
    if not CLI then skip("no sinew CLI given") end
    cmu()
    local out = os.tmpname() .. ".sinew"
    assert(os.execute(("%s convert %s -o %s --scale %.9g > /dev/null"):format(CLI, BVH, out, CMU_SCALE)))
    local a = sinew.load(out)
    assert(a.format == "sinew" and #a.skeleton == 31, a.format)
    compare_with_cli(out, nil, 2.25)
    os.remove(out)
end)

test("mirror pairs and retarget map text and pairs edit the maps", function()
    local a = cmu()
    local s = a.skeleton
    local m = sinew.mirror(s, {pairs = {{"LeftHand", "RightHand"}}, axis = "x"})
    assert(m:twin("LeftHand") == s:joint("RightHand") and m:twin("LeftFoot") == s:joint("RightFoot"))
    local me = raises(sinew.mirror, s, {pairs = {{"LeftHand", "Nope"}}})
    assert(me.result == "not found" and me.index == 0, tostring(me))
    local rt = sinew.retarget(s, s, {map = "=LeftFoot\n# a comment\n", pairs = {{"Head", "Neck"}}})
    assert(rt:source_of("LeftFoot") == nil and rt:source_of("Neck") == s:joint("Head"))
    local e = raises(sinew.retarget, s, s, {map = "NoSuchJoint=Head\n"})
    assert(e.result == "not found" and e.index == 1, tostring(e))
end)

test("asset: format, clips by name and index, a missing clip names the ones there are", function()
    local a = cmu()
    assert(a.format == "bvh" and #a.clips == 1 and a:clip(1) == a.clips[1])
    assert(a:clip("motion").name == "motion")
    near(a.clips[1].duration, 2751 * 0.0083333, 1e-4, "duration") -- 2752 frames, "Frame Time: .0083333"
    local e = raises(a.clip, a, "Walk")
    assert(e.result == "not found" and tostring(e):find("motion", 1, true), tostring(e))
end)

-- ---- blending and additive ----

test("blend: two poses at 0.5 each average their translations", function()
    local s = arm(2, 1.0)
    local a, b, out = s:pose(), s:pose(), s:pose()
    a[2] = {t = {1, 0, 0}}
    b[2] = {t = {3, 2, 0}}
    sinew.blend(out, {{pose = a, weight = 0.5}, {pose = b, weight = 0.5}})
    near(out[2].t.x, 2, 1e-6, "blended x")
    near(out[2].t.y, 1, 1e-6, "blended y")
    -- a per-joint weight of 0 on joint 2 for b: a alone there
    sinew.blend(out, {{pose = a, weight = 0.5}, {pose = b, weight = 0.5, joint_weights = {1, 0, 1}}})
    near(out[2].t.x, 1, 1e-6, "masked x")
end)

test("additive: the delta of a pose applied to its reference at weight 1 gives it back", function()
    local a = cmu()
    local s, clip = a.skeleton, a.clips[1]
    local p, ref, delta, out = s:pose(), s:pose(), s:pose(), s:pose()
    clip:sample(3.0, p)
    clip:sample(0.0, ref)
    sinew.make_additive(p, ref, delta)
    sinew.apply_additive(ref, delta, 1.0, out)
    same_pose(s, out, p)
end)

-- ---- IK ----

test("two-bone IK puts the end joint on a reachable target within 1e-5", function()
    local s = arm(2, 0.5)
    local pose, model = s:pose(), s:model()
    for _, target in ipairs{{0.3, 0.6, 0.1}, {0.7, -0.2, 0.3}, {-0.2, 0.5, -0.4}} do
        pose:reset():to_model(model)
        local reached = sinew.two_bone{model = model, pose = pose, start = 1, mid = 2, ["end"] = 3,
                                       target = target, pole = {0, 1, 0}}
        pose:to_model(model)
        assert(reached)
        near(dist(model:position(3), {x = target[1], y = target[2], z = target[3]}), 0, 1e-5, "reach")
        near(dist(model:position(1), model:position(2)), 0.5, 1e-6, "upper bone length")
    end
end)

test("two-bone IK out of reach: the limb straight, pointing at the target", function()
    local s = arm(2, 0.5)
    local pose, model = s:pose(), s:model()
    pose:to_model(model)
    local reached = sinew.two_bone{model = model, pose = pose, start = "j1", mid = "j2", ["end"] = "j3",
                                   target = {0, 3, 0}}
    pose:to_model(model)
    assert(not reached)
    near(model:position(3).y, 1.0, 1e-5, "straight up")
end)

test("FABRIK and CCD report the distance they leave, measured", function()
    local s = arm(5, 0.2)
    local pose, model = s:pose(), s:model()
    local chain = {1, 2, 3, 4, 5, 6}
    for _, solver in ipairs{sinew.fabrik, sinew.ccd} do
        pose:reset():to_model(model)
        local d = solver{model = model, pose = pose, joints = chain, target = {0.4, 0.5, 0.1},
                         iterations = 50, tolerance = 1e-6}
        pose:to_model(model)
        near(dist(model:position(6), {x = 0.4, y = 0.5, z = 0.1}), d, 1e-6, "distance")
        assert(d < 1e-4, "reachable target not reached")
    end
end)

test("look-at: within the limit the forward axis ends on the target", function()
    local s = arm(2, 0.5)
    local pose, model = s:pose(), s:model()
    pose:to_model(model)
    local target = {x = 1.0, y = 1.5, z = 0.5}
    sinew.look_at{model = model, pose = pose, joints = {2, 3}, shares = {0.5, 1}, forward = {1, 0, 0},
                  target = target}
    pose:to_model(model)
    local eye = model:position(3)
    local f = sinew.quat_rotate(model:rotation(3), {1, 0, 0})
    local to = {x = target.x - eye.x, y = target.y - eye.y, z = target.z - eye.z}
    local l = math.sqrt(to.x ^ 2 + to.y ^ 2 + to.z ^ 2)
    near(f.x * to.x / l + f.y * to.y / l + f.z * to.z / l, 1, 1e-5, "cos(forward, target)")
end)

test("foot placement: the ray is a Lua function; its errors come back as Lua errors", function()
    local a = cmu()
    local s = a.skeleton
    local pose, model = s:pose(), s:model()
    a.clips[1]:sample(0, pose):to_model(model)
    local legs = {{hip = "LeftUpLeg", knee = "LeftLeg", ankle = "LeftFoot"},
                  {hip = "RightUpLeg", knee = "RightLeg", ankle = "RightFoot"}}
    local before = {model:position("LeftFoot"), model:position("RightFoot")}
    local floor = 0.05 -- the ground 5 cm up: each ankle 5 cm higher
    sinew.foot{model = model, pose = pose, pelvis = "Hips", legs = legs, state = sinew.foot_state(),
               ray = function(from) return {from.x, floor, from.z}, {0, 1, 0} end}
    near(model:position("LeftFoot").y, before[1].y + floor, 1e-4, "left ankle")
    near(model:position("RightFoot").y, before[2].y + floor, 1e-4, "right ankle")
    local e = raises(sinew.foot, {model = model, pose = pose, pelvis = "Hips", legs = legs,
                                  state = sinew.foot_state(), ray = function() error("no ground here") end})
    assert(tostring(e):find("no ground here", 1, true), tostring(e))
end)

-- ---- procedural ----

test("springs: half the distance in one half-life from rest; the damper's factor", function()
    local s = sinew.spring(0)
    s:update(2, 0.3, 0.3)
    near(s.value, 1, 1e-5, "half-life")
    local v = sinew.spring({0, 0, 0})
    v:update({4, 0, -2}, 0.1, 0.1)
    near(v.value.x, 2, 1e-5, "vec3 x")
    near(v.value.z, -1, 1e-5, "vec3 z")
    near(sinew.damp_factor(0.2, 0.1), 1 - 2 ^ -0.5, 1e-6, "damp factor")
    near(sinew.damp(0, 1, 0.2, 0.2), 0.5, 1e-6, "damper")
    local q = sinew.spring({0, 0, 0, 1})
    q:update(sinew.quat_axis_angle({0, 1, 0}, 1.0), 0.2, 0.2) -- half the angle
    same_rotation(q.value, sinew.quat_axis_angle({0, 1, 0}, 0.5), 1e-6, "quat spring")
end)

test("chain: follow keeps the segment lengths; aim lands the joints on the points", function()
    local s = arm(4, 0.25)
    local pose, model = s:pose(), s:model()
    pose:to_model(model)
    local chain = sinew.chain(model, {1, 2, 3, 4, 5})
    for f = 1, 50 do
        local head = {math.cos(f * 0.1), math.sin(f * 0.1), 0.1 * f}
        chain:follow(head)
        pose:reset()
        pose[1] = {t = head}
        pose:to_model(model)
        chain:aim{model = model, pose = pose}
        pose:to_model(model)
        for i = 2, #chain do
            near(dist(chain[i], chain[i - 1]), chain:length(i - 1), 1e-5, "segment")
            near(dist(model:position(i), chain[i]), 0, 1e-4, "joint on point")
        end
    end
end)

test("jiggle: stiffness and damping without gravity come to rest on the pose", function()
    local s = arm(3, 0.3)
    local pose, model = s:pose(), s:model()
    pose:to_model(model)
    local chain = sinew.chain(model, {1, 2, 3, 4})
    local rest_tip = model:position(4)
    pose[1] = {t = {0.5, 0, 0}} -- a jump: the chain lags, then settles
    for _ = 1, 600 do
        pose:reset()
        pose:to_model(model)
        chain:jiggle{model = model, pose = pose, dt = 1 / 60, stiffness = 200, damping = 8}
    end
    pose:to_model(model)
    near(dist(model:position(4), rest_tip), 0, 1e-3, "settled tip")
end)

test("walker on flat ground: body at its height, planted feet stay put", function()
    local legs = {}
    for i, r in ipairs{{-0.3, 0, 0.3}, {0.3, 0, 0.3}, {-0.3, 0, -0.3}, {0.3, 0, -0.3}} do
        legs[i] = {rest = r, group = (i == 2 or i == 3) and 1 or 0}
    end
    local w = sinew.walker{legs = legs, height = 0.3, stride = 0.2, ray = function(from, dir, maxd)
        if dir.y < 0 and from.y >= 0 and from.y <= maxd then return {from.x, 0, from.z}, {0, 1, 0} end
    end}
    w:place({0, 0, 0}, 0)
    local last, steps = {}, 0
    for _ = 1, 240 do
        w:update({0, 0, 0.5}, 0, 1 / 60)
        for i = 1, 4 do
            local f = w:foot(i)
            if not f.airborne and last[i] and not last[i].airborne and last[i].steps == f.steps then
                near(dist(f.position, last[i].position), 0, 0, "planted foot moved")
            end
            if not f.airborne then near(f.position.y, 0, 1e-6, "planted on the ground") end
            last[i] = f
        end
    end
    for i = 1, 4 do steps = steps + w:foot(i).steps end
    near(w.position.y, 0.3, 1e-3, "body height")
    assert(w.position.z > 1.5 and steps > 8, ("walked %.2f m in %d steps"):format(w.position.z, steps))
end)

test("hit effects: shake within its amplitude and window, pause splits a frame, pose shake decays", function()
    local desc = {position_amplitude = {0.1, 0.05, 0}, rotation_amplitude = {0.02, 0, 0},
                  fade_in = 0.1, hold = 0.3, fade_out = 0.2, seed = 7}
    near(sinew.shake_duration(desc), 0.6, 1e-6, "duration")
    for t = 0, 0.6, 0.01 do
        local s = sinew.shake(desc, t)
        assert(math.abs(s.position.x) <= 0.1 + 1e-6 and math.abs(s.position.y) <= 0.05 + 1e-6)
        assert(math.abs(s.rotation.x) <= 0.02 + 1e-6 and s.position.z == 0)
    end
    near(sinew.shake(desc, 0.7).envelope, 0, 0, "after the window")
    near(sinew.fov_pulse({amount = 0.1, attack = 0.1, hold = 0.2, release = 0.1}, 0.2), -0.1, 1e-6, "peak")
    local pause = sinew.hit_pause()
    pause:start(0.1, 0)
    near(pause:scale_dt(0.25), 0.15, 1e-6, "0.1 s frozen, 0.15 s at full speed")
    assert(not pause:active())
    local s = arm(3, 0.3)
    local p0 = s:pose()
    for _, t in ipairs{0, 0.2, 0.5} do
        local p = s:pose()
        sinew.pose_shake{pose = p, joints = {2, 3}, amplitude = 0.2, half_life = 0.1, time = t, seed = 3}
        for j = 2, 3 do
            local d = sinew.quat_mul(p:rotation(j), sinew.quat_conjugate(p0:rotation(j)))
            local angle = 2 * math.atan(math.sqrt(d.x ^ 2 + d.y ^ 2 + d.z ^ 2), math.abs(d.w))
            assert(angle <= 0.2 * 2 ^ (-t / 0.1) + 1e-6, ("angle %g at t = %g"):format(angle, t))
        end
    end
end)

test("spine wander: the tip goes to the target it reports, the offset within its range", function()
    local s = arm(4, 0.25)
    local pose, model = s:pose(), s:model()
    pose:to_model(model)
    local rest_tip = model:position(5)
    for _, t in ipairs{0.3, 1.1, 2.7} do
        pose:reset():to_model(model)
        local target = sinew.spine_wander{model = model, pose = pose, joints = {1, 2, 3, 4, 5},
                                          range = {0.02, 0.01, 0.02}, time = t, seed = 9,
                                          iterations = 200, tolerance = 1e-6}
        pose:to_model(model)
        near(dist(model:position(5), target), 0, 1e-4, "tip on target")
        local o = sinew.spine_wander_offset({0.02, 0.01, 0.02}, 0, 9, t)
        assert(math.abs(o.x) <= 0.02 and math.abs(o.y) <= 0.01 and math.abs(o.z) <= 0.02)
        near(dist(target, {x = rest_tip.x + o.x, y = rest_tip.y + o.y, z = rest_tip.z + o.z}), 0, 1e-5,
             "target = tip + offset")
    end
end)

test("float tracks come with the sample, by name", function()
    if not exists(ROBOT) then skip(ROBOT .. " is absent") end
    local a = sinew.load(ROBOT)
    local clip = a:clip("Yes")
    assert(#clip.float_tracks == 9, #clip.float_tracks)
    local floats = {}
    clip:sample(0.5, a.skeleton:pose(), floats)
    for _, name in ipairs(clip.float_tracks) do
        assert(floats[name] and floats[name] >= 0 and floats[name] <= 1, name) -- morph weights
    end
end)

-- ---- mirror and retarget ----

test("mirror: twins by name; mirroring twice gives the pose back", function()
    local a = cmu()
    local s = a.skeleton
    local m = sinew.mirror(s)
    assert(s:name(m:twin("LeftUpLeg")) == "RightUpLeg" and m:axis() == "x")
    local p, once, twice = s:pose(), s:pose(), s:pose()
    a.clips[1]:sample(4.0, p)
    m:run(p, once)
    m:run(once, twice)
    same_pose(s, twice, p)
end)

test("retarget onto the same skeleton keeps the model-space pose", function()
    local a = cmu()
    local s = a.skeleton
    local rt = sinew.retarget(s, s)
    assert(rt:info().pairs > 20 and rt:source_of("LeftFoot") == s:joint("LeftFoot"))
    near(rt:info().root_scale, 1, 1e-5, "root scale")
    local p, out, m1, m2 = s:pose(), s:pose(), s:model(), s:model()
    a.clips[1]:sample(6.0, p):to_model(m1)
    rt:run(p, out):to_model(m2)
    for j = 1, #s do
        if rt:source_of(j) then near(dist(m1:position(j), m2:position(j)), 0, 1e-4, s:name(j)) end
    end
end)

-- ---- animator ----

local function definition()
    return {
        params = {{name = "go", type = "trigger"}, {name = "speed", type = "float", default = 1}},
        machines = {{name = "Base", states = {{name = "Loop", clip = "motion", speed_param = "speed"},
                                              {name = "Once", clip = "motion", once = true}},
                     transitions = {{from = "Loop", to = "Once", duration = 0,
                                     conditions = {{param = "go", op = "trigger"}}}}}},
        layers = {{name = "base", machine = "Base"}},
    }
end

test("animator from a Lua table: the pose is the clip at the state's time", function()
    local a = cmu()
    local s, clip = a.skeleton, a.clips[1]
    local inst = sinew.animator(definition()):instance(s, a)
    local pose, expected = s:pose(), s:pose()
    inst:set("speed", 2)
    for _ = 1, 10 do inst:update(0.05) end -- 0.5 s at speed 2: 1 s into the clip
    local c = inst:contributions()
    assert(#c == 1 and c[1].clip == "motion" and c[1].state == "Loop")
    near(c[1].time, 1.0, 1e-5, "clip time")
    inst:evaluate(pose)
    clip:sample(c[1].time, expected)
    for j = 1, #s do same_rotation(pose:rotation(j), expected:rotation(j), 1e-6, s:name(j)) end
end)

test("animator: a trigger fires a transition (enter), a once state finishes", function()
    local a = cmu()
    local inst = sinew.animator(definition()):instance(a.skeleton, a.clips)
    local events = inst:update(0.1)
    assert(#events == 0 and inst:current_state("Base") == "Loop")
    inst:set("go", true)
    events = inst:update(0.1)
    assert(#events == 1 and events[1].kind == "enter" and events[1].state == "Once", #events)
    near(inst:get("go"), 0, 0, "trigger consumed")
    local finished = 0
    for _ = 1, 30 do
        for _, e in ipairs(inst:update(1.0)) do
            if e.kind == "finished" then finished = finished + 1 end
        end
    end
    assert(finished == 1, "finished " .. finished .. " times")
end)

-- Every joint's rotation of poses p1 and p2 of skeleton s, the same bits.
local function same_rotations(s, p1, p2)
    for j = 1, #s do
        local r1, r2 = p1:rotation(j), p2:rotation(j)
        assert(r1.x == r2.x and r1.y == r2.y and r1.z == r2.z and r1.w == r2.w)
    end
end

test("animator: JSON text and the same Lua table give the same pose", function()
    local a = cmu()
    local json = [[{"params": [{"name": "go", "type": "trigger"},
                               {"name": "speed", "type": "float", "default": 1}],
      "machines": [{"name": "Base", "states": [{"name": "Loop", "clip": "motion", "speed_param": "speed"},
                                               {"name": "Once", "clip": "motion", "once": true}],
                    "transitions": [{"from": "Loop", "to": "Once", "duration": 0,
                                     "conditions": [{"param": "go", "op": "trigger"}]}]}],
      "layers": [{"name": "base", "machine": "Base"}]}]]
    local i1 = sinew.animator(json):instance(a.skeleton, a)
    local i2 = sinew.animator(definition()):instance(a.skeleton, a)
    local p1, p2 = a.skeleton:pose(), a.skeleton:pose()
    for _ = 1, 7 do
        i1:update(0.13)
        i2:update(0.13)
    end
    i1:evaluate(p1)
    i2:evaluate(p2)
    same_rotations(a.skeleton, p1, p2)
end)

test("bound:instance keeping keys plays as keeping cursors", function()
    local a = cmu()
    local bound = sinew.animator(definition()):bind(a.skeleton, a)
    local i1, i2 = bound:instance(), bound:instance("keys")
    local p1, p2 = a.skeleton:pose(), a.skeleton:pose()
    for _ = 1, 9 do
        i1:update(0.11)
        i2:update(0.11)
        i1:evaluate(p1)
        i2:evaluate(p2)
        same_rotations(a.skeleton, p1, p2)
    end
    assert(not pcall(bound.instance, bound, "all"))
end)

-- ---- errors ----

test("errors carry the sw_error text", function()
    local e = raises(sinew.load, "/nonexistent/file.bvh")
    assert(getmetatable(e).__name == "sinew.Error")
    assert(e.result == "input/output error" and e.check == "open file", tostring(e))
    assert(tostring(e):find("^sinew.load: /nonexistent/file.bvh: input/output error"), tostring(e))
    e = raises(sinew.animator, {params = {{name = "x", type = "floot"}}, layers = {}})
    assert(e.result == "parse error" and tostring(e):find("type", 1, true), tostring(e))
    e = raises(sinew.skeleton, {{name = "a"}, {name = "a", parent = 1}})
    assert(e.result == "invalid data", tostring(e))
    local s = arm(2, 0.5)
    local pose, model = s:pose(), s:model()
    e = raises(sinew.two_bone, {model = model, pose = pose, start = 1, mid = 2, ["end"] = 3,
                                target = {0, 1, 0}, weight = 2})
    assert(e.result == "invalid argument" and tostring(e) == "sinew.two_bone: invalid argument")
    e = raises(pose.get, pose, "no such joint")
    assert(tostring(e):find("no joint named 'no such joint'", 1, true), tostring(e))
end)

-- ---- run ----

local failed = 0
for _, t in ipairs(tests) do
    local ok, e = pcall(t.fn)
    if ok then
        print("ok      " .. t.name)
    elseif type(e) == "table" and e.skip then
        print("skipped " .. t.name .. ": " .. e.skip)
        skipped[#skipped + 1] = t.name
    else
        print("FAILED  " .. t.name .. ": " .. tostring(e))
        failed = failed + 1
    end
end
print(("%d tests, %d failed, %d skipped"):format(#tests, failed, #skipped))
os.exit(failed == 0 and 0 or 1)
