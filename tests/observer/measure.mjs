// The outside observer of `sinew demo` (issue #15): plays demo.glb with
// three.js (GLTFLoader, AnimationMixer) at 30 fps under node and measures
// the motion in world space, the way a viewer user sees it, without
// reading anything sinew computed about it:
//   - per humanoid actor, the ankle and ball (toe) joints' sliding per
//     planted span (a joint is planted while within 1 cm of its lowest
//     height of the run; a span's sliding is the largest horizontal
//     distance from where the span began; bounded for the animated
//     humanoids, the knock-down ragdoll more loosely, the powered one's median);
//   - per actor, the lowest joint height at every frame (penetration below
//     the ground plane y = 0);
//   - per actor, the lowest point of its skinned surface at every frame
//     (three.js's SkinnedMesh skinning of every vertex, in world space),
//     with the joint that moves that vertex most; bounded for the
//     ragdolls (SURFACE_BOUNDED, 5 mm) and the actors named by --sole-bound
//     (SOLE_SURFACE_MAX, 2 mm), reported for the others (the caterpillar's
//     body sits at -2.0 cm, the spider's tibia at -0.4 cm);
//   - per get-up (an actor with a Hips joint lying still, hips under half
//     their standing height, then standing still again, hips over 90 % of
//     it), the largest change of a joint's velocity between consecutive
//     frames; the get-up clip's own is the largest such change in the last
//     GETUP_TAIL seconds of every get-up (the clip alone: the blend from the
//     lying pose comes before it), and no get-up's may exceed it by more
//     than JUMP_MARGIN;
//   - the reach actor's sole: the lowest skinned vertex of each foot against
//     the surface under it (the props' step, found by casting rays down at
//     the props mesh, or the ground plane).
// A glb without "actor:joint" names (e.g. `sinew retarget ... -o X.glb`) is
// measured as one actor, "file": its lowest joint is bounded as every
// actor's; with --min-spans N its feet are bounded as the animated
// humanoids' and each foot joint must show at least N planted spans (a
// clip whose feet never stand still at one height passes no bound).
// Prints a table and writes JSON (--json FILE); with --metrics FILE (the
// demo's metrics.json) compares the demo's observer figures with its own.
// Exits 1 with one line per broken bound of the issue's "Done when", 2 on
// bad input, 77 when three.js is not installed (npm ci --prefix tests/observer).
//
// usage: node measure.mjs DEMO.glb [--json FILE] [--metrics FILE] [--fps 30] [--min-spans N]
//                         [--sole-bound ACTOR,...]
import { readFileSync, writeFileSync } from 'node:fs';

let THREE, GLTFLoader;
try {
  THREE = await import('three');
  ({ GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js'));
} catch (e) {
  console.log(`measure: three.js not installed (npm ci --prefix tests/observer): ${e.message}`);
  process.exit(77);
}

const PLANTED = 0.01;         // m above the joint's lowest height
const SLIDE_MAX = 0.005;      // m, every planted span
const SLIDE_MEDIAN = 0.002;   // m, median of the spans
const BELOW_MAX = 0.005;      // m under y = 0, any joint of any actor
const SOLE_MAX = 0.002;       // m, the reach foot on the step
const AGREE = 0.001;          // m, the demo's printed observer figures against these
const SURFACE_MAX = 0.005;    // m under y = 0, the skinned surface of the ragdolls:
const SURFACE_BOUNDED = ['knockdown', 'powered'];
// m under y = 0, the skinned surface (the soles) of the actors named by
// --sole-bound (the locomotion and idle humanoids, built-in or RobotExpressive,
// whose contact model rests heel and ball on the ground and lifts the lower legs)
const SOLE_SURFACE_MAX = 0.002;
const STILL = 0.1;            // m/s, every joint slower: lying or standing still
const GETUP_TAIL = 2.0;       // s, shorter than either get-up clip (2.3 and 2.5 s)
const JUMP_MARGIN = 0.1;      // m/s over the clip's own largest change
const BOUNDED_FEET = ['locomotion', 'reach', 'idle', 'hit'];
// The powered ragdoll walker: its median only (its shown feet are held on
// the walk's planted ones, but a landing kicked by an impulse still slides:
// 4.2 cm once in a 30 s run).
const MEDIAN_FEET = ['powered'];
// The knock-down ragdoll: every planted span under KNOCKDOWN_SLIDE (its
// spans hold the feet's slip as the body lands, 2.5 to 3.9 cm; the blend
// into the get-up dragged a lying ankle 17.5 cm before its step lifted it).
const KNOCKDOWN_SLIDE = 0.05; // m

function parseArgs(argv) {
  const a = { glb: null, json: null, metrics: null, fps: 30, minSpans: 0, soles: [] };
  for (let i = 0; i < argv.length; ++i) {
    const k = argv[i];
    if (k === '--json') a.json = argv[++i];
    else if (k === '--min-spans') a.minSpans = Number(argv[++i]);
    else if (k === '--metrics') a.metrics = argv[++i];
    else if (k === '--fps') a.fps = Number(argv[++i]);
    else if (k === '--sole-bound') a.soles = String(argv[++i] || '').split(',').filter((n) => n);
    else if (!a.glb) a.glb = k;
    else throw new Error(`unexpected argument "${k}"`);
  }
  if (!a.glb || !(a.fps > 0) || !(a.minSpans >= 0))
    throw new Error('usage: node measure.mjs DEMO.glb [--json FILE] [--metrics FILE] [--fps F] [--min-spans N] [--sole-bound ACTOR,...]');
  return a;
}

function load(path) {
  const buf = readFileSync(path);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  return new Promise((resolve, reject) => new GLTFLoader().parse(ab, '', resolve, reject));
}

// Joint objects per actor from the glTF node names "actor:joint" (three.js
// sanitizes object names, so the names are taken from the file's JSON).
function actorsOf(gltf) {
  const names = new Map();
  gltf.scene.traverse((o) => {
    const m = gltf.parser.associations.get(o);
    if (m && m.nodes !== undefined && !o.isSkinnedMesh) names.set(o, gltf.parser.json.nodes[m.nodes].name || '');
  });
  // a file without "actor:" names (a retargeted or exported clip) is one actor, "file"
  const scene = [...names.values()].some((n) => n.includes(':'));
  const actors = new Map();
  for (const [o, raw] of names) {
    const name = scene ? raw : `file:${raw}`;
    const at = name.indexOf(':');
    if (at < 0) continue;
    const actor = name.slice(0, at);
    if (!actors.has(actor)) actors.set(actor, { name: actor, joints: [], meshes: [] });
    actors.get(actor).joints.push({ name: name.slice(at + 1), obj: o });
  }
  // meshes are named "actor:mesh" in the file
  gltf.scene.traverse((o) => {
    const m = o.isMesh && gltf.parser.associations.get(o);
    if (!m || m.meshes === undefined) return;
    const meshName = (scene ? '' : 'file:') + (gltf.parser.json.meshes[m.meshes].name || '');
    const actor = meshName.slice(0, Math.max(0, meshName.indexOf(':')));
    if (!actors.has(actor)) actors.set(actor, { name: actor, joints: [], meshes: [] });
    actors.get(actor).meshes.push(o);
  });
  return actors;
}

// Ankle and ball joints of a humanoid leg, by name: "...Foot"/"...Ankle"
// and "...Toe..."/"...Ball"; none for other skeletons.
function feetOf(actor) {
  const ankles = actor.joints.filter((j) => /foot|ankle/i.test(j.name) && !/toe|ball|end|tip|index|thumb/i.test(j.name));
  const balls = actor.joints.filter((j) => /toe|ball/i.test(j.name) && !/end|tip/i.test(j.name));
  return [...ankles.map((j) => ({ ...j, kind: 'ankle' })), ...balls.map((j) => ({ ...j, kind: 'ball' }))];
}

function median(v) {
  if (!v.length) return 0;
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
}

// Planted spans of one joint's track (world positions per frame).
function spans(track, fps) {
  let low = Infinity;
  for (const p of track) low = Math.min(low, p.y);
  const out = [];
  let start = -1;
  for (let f = 0; f <= track.length; ++f) {
    const planted = f < track.length && track[f].y <= low + PLANTED;
    if (planted && start < 0) start = f;
    if (!planted && start >= 0) {
      if (f - start >= 2) {
        let slide = 0;
        for (let k = start; k < f; ++k)
          slide = Math.max(slide, Math.hypot(track[k].x - track[start].x, track[k].z - track[start].z));
        out.push({ from: start / fps, to: (f - 1) / fps, slide });
      }
      start = -1;
    }
  }
  return out;
}

// Get-ups in one actor's joint tracks (frames of [x, y, z] per joint; hips:
// the Hips joint's index): from its last frame lying still to its first
// standing still, with the largest joint velocity change between
// consecutive frames (m/s) over the whole span and over its last
// GETUP_TAIL seconds, each with its time and joint.
function getups(frames, hips, names, fps) {
  const n = frames.length, joints = names.length;
  const vel = (f, j) => frames[f][j].map((c, i) => (c - frames[f - 1][j][i]) * fps);
  const speed = [0], jump = [{ v: 0, j: 0 }, { v: 0, j: 0 }];
  for (let f = 1; f < n; ++f) {
    let s = 0;
    for (let j = 0; j < joints; ++j) s = Math.max(s, Math.hypot(...vel(f, j)));
    speed.push(s);
    if (f < 2) continue;
    const best = { v: 0, j: 0 };
    for (let j = 0; j < joints; ++j) {
      const a = vel(f, j), b = vel(f - 1, j);
      const d = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      if (d > best.v) (best.v = d), (best.j = j);
    }
    jump.push(best);
  }
  const stand = Math.max(...frames.map((p) => p[hips][1]));
  const largest = (from, to) => {
    let k = from;
    for (let f = from; f <= to; ++f) if (jump[f].v > jump[k].v) k = f;
    return { jump: jump[k].v, t: k / fps, joint: names[jump[k].j] };
  };
  const out = [];
  const tail = Math.round(GETUP_TAIL * fps);
  for (let f = 1; f < n; ++f) {
    if (!(frames[f][hips][1] < 0.5 * stand && speed[f] < STILL)) continue;
    let start = f;
    while (start + 1 < n && speed[start + 1] < STILL) ++start;
    let end = start + 1;
    while (end < n && !(frames[end][hips][1] > 0.9 * stand && speed[end] < STILL)) ++end;
    if (end >= n) break;
    if (end - start > tail + 2) out.push({ from: start / fps, to: end / fps, all: largest(start + 2, end), clip: largest(end - tail, end) });
    f = end;
  }
  return out;
}

// The surface height under (x, z): the props mesh hit by a ray cast down,
// or the ground plane y = 0.
function surfaceProbe(props) {
  const ray = new THREE.Raycaster();
  const down = new THREE.Vector3(0, -1, 0);
  const from = new THREE.Vector3();
  return (x, z) => {
    from.set(x, 50, z);
    ray.set(from, down);
    const hit = props ? ray.intersectObject(props, false)[0] : null;
    return hit ? Math.max(hit.point.y, 0) : 0;
  };
}

// Vertices of a skinned mesh whose heaviest bone is `bone`.
function verticesOf(mesh, bones) {
  const idx = mesh.geometry.attributes.skinIndex, w = mesh.geometry.attributes.skinWeight;
  const out = [];
  for (let v = 0; v < idx.count; ++v) {
    let best = -1, bw = 0;
    for (let c = 0; c < 4; ++c) if (w.getComponent(v, c) > bw) (bw = w.getComponent(v, c)), (best = idx.getComponent(v, c));
    if (best >= 0 && bones.has(mesh.skeleton.bones[best])) out.push(v);
  }
  return out;
}

// The props triangles within `radius` of (x, z), as one mesh to cast at.
function propsNear(actors, x, z, radius) {
  const props = actors.get('props');
  if (!props) return null;
  const pos = [];
  const a = new THREE.Vector3(), b = new THREE.Vector3(), c = new THREE.Vector3();
  for (const m of props.meshes) {
    m.updateMatrixWorld(true);
    const g = m.geometry, p = g.attributes.position, index = g.index;
    const n = index ? index.count : p.count;
    for (let i = 0; i < n; i += 3) {
      const tri = [a, b, c];
      for (let k = 0; k < 3; ++k) {
        const at = index ? index.getX(i + k) : i + k;
        if (m.isSkinnedMesh) m.getVertexPosition(at, tri[k]);
        else tri[k].fromBufferAttribute(p, at);
        tri[k].applyMatrix4(m.matrixWorld);
      }
      if (tri.some((v) => Math.hypot(v.x - x, v.z - z) < radius)) for (const v of tri) pos.push(v.x, v.y, v.z);
    }
  }
  if (!pos.length) return null;
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  const mesh = new THREE.Mesh(g, new THREE.MeshBasicMaterial({ side: THREE.DoubleSide }));
  mesh.updateMatrixWorld(true);
  return mesh;
}

// The lowest skinned vertex of each actor's meshes at the current frame
// (world y) into low (actor -> {y, t, joint}); names: bone -> joint name.
function lowestSurface(actors, names, t, low) {
  const v = new THREE.Vector3();
  for (const [name, a] of actors) {
    for (const mesh of a.meshes) {
      if (!mesh.isSkinnedMesh) continue;
      mesh.skeleton.update();
      const l = low.get(name) || { y: Infinity, t: 0, joint: '' };
      const n = mesh.geometry.attributes.position.count;
      let best = -1;
      for (let i = 0; i < n; ++i) {
        mesh.getVertexPosition(i, v).applyMatrix4(mesh.matrixWorld);
        if (v.y < l.y) (l.y = v.y), (l.t = t), (best = i);
      }
      if (best >= 0) {
        const idx = mesh.geometry.attributes.skinIndex, w = mesh.geometry.attributes.skinWeight;
        let c = 0;
        for (let k = 1; k < 4; ++k) if (w.getComponent(best, k) > w.getComponent(best, c)) c = k;
        l.joint = names.get(mesh.skeleton.bones[idx.getComponent(best, c)]) || '';
      }
      low.set(name, l);
    }
  }
}

function measure(gltf, fps) {
  const actors = actorsOf(gltf);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  let duration = 0;
  for (const clip of gltf.animations) {
    // once, holding the last frame (a repeating action wraps t = duration to 0)
    const action = mixer.clipAction(clip).setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    duration = Math.max(duration, clip.duration);
  }
  const frames = Math.round(duration * fps) + 1;
  const tracks = new Map(); // joint object -> [Vector3 per frame]
  const low = new Map(); // actor -> {y, joint, t}
  const feet = new Map();
  const poses = new Map(); // actor with a Hips joint -> [[x, y, z] per joint] per frame
  for (const [name, a] of actors) {
    if (!a.joints.length) continue;
    if (a.joints.some((j) => j.name === 'Hips')) poses.set(name, []);
    low.set(name, { y: Infinity, joint: '', t: 0 });
    const f = feetOf(a);
    if (f.length) feet.set(name, f);
    for (const j of f) tracks.set(j.obj, []);
  }
  // The reach actor's feet: skinned vertices of each foot (ankle and ball).
  const reach = actors.get('reach');
  const soles = [];
  if (reach && feet.has('reach')) {
    for (const side of ['Left', 'Right']) {
      const bones = new Set(feet.get('reach').filter((j) => j.name.toLowerCase().includes(side.toLowerCase()) || j.name.endsWith(side[0])).map((j) => j.obj));
      const verts = reach.meshes.filter((m) => m.isSkinnedMesh).map((m) => ({ mesh: m, verts: verticesOf(m, bones) }));
      if (verts.some((v) => v.verts.length)) soles.push({ side, verts, gap: [], surface: [] });
    }
  }
  let probe = null;
  const v = new THREE.Vector3();
  const names = new Map();
  for (const a of actors.values()) for (const j of a.joints) names.set(j.obj, j.name);
  const surface = new Map();
  for (let f = 0; f < frames; ++f) {
    mixer.setTime(f / fps);
    gltf.scene.updateMatrixWorld(true);
    for (const [name, a] of actors) {
      const l = low.get(name);
      if (!l) continue;
      const pose = poses.has(name) ? [] : null;
      if (pose) poses.get(name).push(pose);
      for (const j of a.joints) {
        j.obj.getWorldPosition(v);
        if (pose) pose.push([v.x, v.y, v.z]);
        if (v.y < l.y) Object.assign(l, { y: v.y, joint: j.name, t: f / fps });
        const tr = tracks.get(j.obj);
        if (tr) tr.push(v.clone());
      }
    }
    lowestSurface(actors, names, f / fps, surface);
    if (f === 0 && reach) {
      reach.joints[0].obj.getWorldPosition(v);
      probe = surfaceProbe(propsNear(actors, v.x, v.z, 1.0));
    }
    for (const s of soles) {
      let gap = Infinity, surf = 0;
      for (const { mesh, verts } of s.verts)
        for (const i of verts) {
          mesh.getVertexPosition(i, v).applyMatrix4(mesh.matrixWorld);
          const h = probe(v.x, v.z);
          if (v.y - h < gap) (gap = v.y - h), (surf = h);
        }
      s.gap.push(gap);
      s.surface.push(surf);
    }
  }
  const out = { frames, fps, seconds: (frames - 1) / fps, feet: {}, lowest: {}, surface: {}, soles: {}, getups: {} };
  for (const [name, p] of poses) {
    const names = actors.get(name).joints.map((j) => j.name);
    const g = getups(p, names.indexOf('Hips'), names, fps);
    if (g.length) out.getups[name] = g;
  }
  for (const [name, l] of surface) out.surface[name] = l;
  for (const [name, list] of feet) {
    out.feet[name] = {};
    for (const j of list) {
      const sp = spans(tracks.get(j.obj), fps);
      const slides = sp.map((s) => s.slide);
      const worst = sp.reduce((w, s) => (s.slide > (w ? w.slide : -1) ? s : w), null);
      out.feet[name][j.name] = {
        kind: j.kind, spans: sp.length, max: worst ? worst.slide : 0, median: median(slides),
        worst: worst ? [worst.from, worst.to] : null,
      };
    }
  }
  for (const [name, l] of low) out.lowest[name] = { y: l.y, joint: l.joint, t: l.t };
  for (const s of soles) {
    // the foot on the step: most of its frames over a surface above the ground
    const raised = s.surface.filter((h) => h > 0.01).length > s.surface.length / 2;
    let lo = Infinity, hi = -Infinity, tlo = 0, thi = 0;
    s.gap.forEach((g, f) => {
      if (g < lo) (lo = g), (tlo = f / fps);
      if (g > hi) (hi = g), (thi = f / fps);
    });
    out.soles[s.side] = { on_step: raised, gap_min: lo, gap_min_t: tlo, gap_max: hi, gap_max_t: thi };
  }
  return out;
}

// One line per broken bound (minSpans > 0: the "file" actor's feet bounded
// too; soles: the actors whose skinned surface is bounded by SOLE_SURFACE_MAX).
function failures(m, demo, minSpans, soles) {
  const f = [];
  const cm = (x) => `${(100 * x).toFixed(2)} cm`;
  if (minSpans > 0) {
    const joints = Object.entries(m.feet.file || {});
    if (!joints.length) f.push('file: no ankle or ball joint found');
    for (const [joint, r] of joints)
      if (r.spans < minSpans) f.push(`file ${joint}: ${r.spans} planted spans, at least ${minSpans} expected`);
  }
  for (const actor of minSpans > 0 ? [...BOUNDED_FEET, 'file'] : BOUNDED_FEET) {
    for (const [joint, r] of Object.entries(m.feet[actor] || {})) {
      if (r.max >= SLIDE_MAX)
        f.push(`${actor} ${joint}: a planted span slides ${cm(r.max)} (t ${r.worst[0].toFixed(2)}..${r.worst[1].toFixed(2)} s), bound ${cm(SLIDE_MAX)}`);
      if (r.median >= SLIDE_MEDIAN)
        f.push(`${actor} ${joint}: median sliding ${cm(r.median)} over ${r.spans} spans, bound ${cm(SLIDE_MEDIAN)}`);
    }
  }
  for (const actor of MEDIAN_FEET)
    for (const [joint, r] of Object.entries(m.feet[actor] || {}))
      if (r.median >= SLIDE_MEDIAN)
        f.push(`${actor} ${joint}: median sliding ${cm(r.median)} over ${r.spans} spans, bound ${cm(SLIDE_MEDIAN)}`);
  for (const [joint, r] of Object.entries(m.feet.knockdown || {}))
    if (r.max >= KNOCKDOWN_SLIDE)
      f.push(`knockdown ${joint}: a planted span slides ${cm(r.max)} (t ${r.worst[0].toFixed(2)}..${r.worst[1].toFixed(2)} s), bound ${cm(KNOCKDOWN_SLIDE)}`);
  for (const [actor, l] of Object.entries(m.lowest))
    if (l.y < -BELOW_MAX) f.push(`${actor}: joint ${l.joint} ${cm(-l.y)} under the ground at t ${l.t.toFixed(2)} s, bound ${cm(BELOW_MAX)}`);
  for (const actor of SURFACE_BOUNDED) {
    const l = m.surface[actor];
    if (l && l.y < -SURFACE_MAX)
      f.push(`${actor}: its skinned surface ${cm(-l.y)} under the ground near ${l.joint} at t ${l.t.toFixed(2)} s, bound ${cm(SURFACE_MAX)}`);
  }
  for (const actor of soles) {
    const l = m.surface[actor];
    if (!l) f.push(`${actor}: no skinned surface to bound (--sole-bound)`);
    else if (l.y < -SOLE_SURFACE_MAX)
      f.push(`${actor}: its skinned surface ${cm(-l.y)} under the ground near ${l.joint} at t ${l.t.toFixed(2)} s, bound ${cm(SOLE_SURFACE_MAX)}`);
  }
  for (const [actor, list] of Object.entries(m.getups)) {
    const own = Math.max(...list.map((g) => g.clip.jump));
    for (const g of list)
      if (g.all.jump > own + JUMP_MARGIN)
        f.push(`${actor}: the get-up from ${g.from.toFixed(2)} s changes ${g.all.joint}'s velocity by ${g.all.jump.toFixed(3)} m/s between frames at t ${g.all.t.toFixed(2)} s, over the clip's own ${own.toFixed(3)} by more than ${JUMP_MARGIN} m/s`);
  }
  for (const [side, s] of Object.entries(m.soles)) {
    if (!s.on_step) continue;
    if (s.gap_min < -SOLE_MAX) f.push(`reach ${side} sole: ${cm(-s.gap_min)} into the step at t ${s.gap_min_t.toFixed(2)} s, bound ${cm(SOLE_MAX)}`);
    if (s.gap_max > SOLE_MAX) f.push(`reach ${side} sole: ${cm(s.gap_max)} above the step at t ${s.gap_max_t.toFixed(2)} s, bound ${cm(SOLE_MAX)}`);
  }
  if (demo) f.push(...compare(m, demo));
  return f;
}

// The demo's observer figures (metrics.json "observer", cm) against these.
function compare(m, metrics) {
  const o = metrics.observer && metrics.observer.actors;
  if (!o) return ['metrics.json has no "observer" figures to compare'];
  const f = [];
  const check = (what, ours, cm) => {
    if (typeof cm !== 'number') f.push(`metrics.json: no ${what}`);
    else if (!(Math.abs(ours - cm / 100) <= AGREE))
      f.push(`${what}: demo ${cm.toFixed(3)} cm, three.js ${(100 * ours).toFixed(3)} cm (bound ${(1000 * AGREE).toFixed(0)} mm)`);
  };
  for (const [actor, joints] of Object.entries(m.feet))
    for (const [joint, r] of Object.entries(joints)) {
      const d = o[actor] && o[actor].feet && o[actor].feet[joint];
      check(`${actor} ${joint} sliding max`, r.max, d && d.sliding_cm_max);
      check(`${actor} ${joint} sliding median`, r.median, d && d.sliding_cm_median);
    }
  for (const [actor, l] of Object.entries(m.lowest)) check(`${actor} lowest joint`, l.y, o[actor] && o[actor].lowest_cm);
  return f;
}

function table(m, soles) {
  const cm = (x) => (100 * x).toFixed(2).padStart(7);
  const lines = [`three.js observer: ${m.frames} frames at ${m.fps} fps`, '  foot sliding per planted span (cm)   spans     max  median  worst span (s)'];
  for (const [actor, joints] of Object.entries(m.feet))
    for (const [joint, r] of Object.entries(joints))
      lines.push(`  ${`${actor} ${joint}`.padEnd(36)} ${String(r.spans).padStart(5)} ${cm(r.max)} ${cm(r.median)}  ${r.worst ? `${r.worst[0].toFixed(2)}..${r.worst[1].toFixed(2)}` : '-'}`);
  lines.push('  lowest joint per actor (cm above y = 0)');
  for (const [actor, l] of Object.entries(m.lowest))
    lines.push(`  ${actor.padEnd(36)} ${cm(l.y)}  ${l.joint} at ${l.t.toFixed(2)} s`);
  const bounded = `${SURFACE_BOUNDED.join(', ')} at ${cm(SURFACE_MAX).trim()} cm` + (soles.length ? `, ${soles.join(', ')} at ${cm(SOLE_SURFACE_MAX).trim()} cm` : '');
  lines.push(`  lowest skinned surface per actor (cm above y = 0; bounded: ${bounded})`);
  for (const [actor, l] of Object.entries(m.surface))
    lines.push(`  ${actor.padEnd(36)} ${cm(l.y)}  near ${l.joint || '-'} at ${l.t.toFixed(2)} s`);
  for (const [actor, list] of Object.entries(m.getups)) {
    lines.push(`  ${actor} get-ups: largest joint velocity change between frames (m/s), whole / last ${GETUP_TAIL} s (the clip's own)`);
    for (const g of list)
      lines.push(`    ${g.from.toFixed(2).padStart(6)}..${g.to.toFixed(2).padEnd(6)} ${g.all.jump.toFixed(3)} (${g.all.joint} at ${g.all.t.toFixed(2)} s)  ${g.clip.jump.toFixed(3)} (${g.clip.joint} at ${g.clip.t.toFixed(2)} s)`);
  }
  for (const [side, s] of Object.entries(m.soles))
    lines.push(`  reach ${side} sole over ${s.on_step ? 'the step' : 'the ground'} (cm)`.padEnd(39) +
      `gap ${cm(s.gap_min)} (t ${s.gap_min_t.toFixed(2)}) .. ${cm(s.gap_max)} (t ${s.gap_max_t.toFixed(2)})`);
  return lines.join('\n');
}

let args;
try {
  args = parseArgs(process.argv.slice(2));
} catch (e) {
  console.error(`measure: ${e.message}`);
  process.exit(2);
}
const gltf = await load(args.glb).catch((e) => {
  console.error(`measure: ${args.glb}: ${e.message || e}`);
  process.exit(2);
});
const m = measure(gltf, args.fps);
console.log(table(m, args.soles));
if (args.json) writeFileSync(args.json, JSON.stringify(m, null, 1));
const demo = args.metrics ? JSON.parse(readFileSync(args.metrics, 'utf8')) : null;
const f = failures(m, demo, args.minSpans, args.soles);
for (const line of f) console.log(`FAIL ${line}`);
process.exit(f.length ? 1 : 0);
