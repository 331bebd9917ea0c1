// viewer/viewer.js: the page side of the sinew viewer. The WebAssembly module
// (sinew_viewer.js / .wasm, built from viewer/main.c) owns the animation and
// the WebGL2 drawing; this script owns the DOM: it forwards input to the
// exported viewer_* functions and shows viewer_status() (JSON).
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const canvas = $('canvas');
  const state = { status: null, lastTime: 0, clipsKey: '', drag: null, mod: null };
  // For the browser tests and the console.
  window.sinewViewer = state;

  function resize() {
    const r = canvas.getBoundingClientRect();
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const w = Math.max(1, Math.round(r.width * dpr));
    const h = Math.max(1, Math.round(r.height * dpr));
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
  }

  function showError(text) {
    $('error').textContent = text || '';
  }

  createSinewViewer({ canvas: canvas }).then((mod) => {
    state.mod = mod;
    const api = {
      init: mod.cwrap('viewer_init', 'number', ['string']),
      frame: mod.cwrap('viewer_frame', 'number', ['number']),
      open: mod.cwrap('viewer_open', 'number', ['number', 'number', 'string']),
      builtin: mod.cwrap('viewer_builtin', 'number', ['number']),
      showcase: mod.cwrap('viewer_showcase', 'number', ['number']),
      set: mod.cwrap('viewer_set', 'number', ['string', 'number']),
      orbit: mod.cwrap('viewer_orbit', null, ['number', 'number']),
      zoom: mod.cwrap('viewer_zoom', null, ['number']),
      pointer: mod.cwrap('viewer_pointer', 'number', ['number', 'number', 'number']),
      status: mod.cwrap('viewer_status', 'string', []),
      key: mod.cwrap('viewer_key', 'number', ['number', 'number']),
      openAnimator: mod.cwrap('viewer_open_animator', 'number', ['number', 'number', 'string']),
      closeAnimator: mod.cwrap('viewer_close_animator', null, []),
      param: mod.cwrap('viewer_param', 'number', ['number', 'number']),
      morph: mod.cwrap('viewer_morph', 'number', ['number', 'number', 'number']),
      error: mod.cwrap('viewer_error', 'string', []),
    };
    state.api = api;
    resize();
    if (api.init('#canvas') !== 0) {
      showError(api.error());
      return;
    }
    wire(api);
    if (readStatus().mode !== 'showcase') {
      // This build has no showcase scene: the humanoid plays instead.
      const opt = $('scene').querySelector('option[value=showcase]');
      opt.disabled = true;
      opt.textContent = 'Showcase scene (' + api.error() + ')';
      $('scene').value = 'humanoid';
    }
    state.ready = true;
    requestAnimationFrame(tick);
  }).catch((e) => showError('could not start the viewer: ' + e));

  function readStatus() {
    state.status = JSON.parse(state.api.status());
    return state.status;
  }

  function fillClips(s) {
    const key = s.character + '|' + s.clips.join('|') + '|' + !!s.locomotion_available;
    if (key === state.clipsKey) return;
    state.clipsKey = key;
    for (const id of ['clip_a', 'clip_b']) {
      const sel = $(id);
      sel.innerHTML = '';
      if (id === 'clip_a' && s.locomotion_available) sel.add(new Option('locomotion (by speed)', '-2'));
      if (id === 'clip_b') sel.add(new Option('(none)', '-1'));
      s.clips.forEach((name, i) => sel.add(new Option(name, String(i))));
    }
  }

  function fillActors(s) {
    const key = (s.actors || []).join('|') + '|' + s.scene_character;
    if (key === state.actorsKey) return;
    state.actorsKey = key;
    const sel = $('focus');
    sel.innerHTML = '';
    sel.add(new Option('the whole scene', '-1'));
    (s.actors || []).forEach((name, i) => sel.add(new Option(name, String(i))));
  }

  function render(s) {
    fillClips(s);
    fillActors(s);
    const showcase = s.mode === 'showcase';
    const loco = !showcase && s.locomotion;
    $('clipbox').style.display = showcase ? 'none' : '';
    $('focusbox').style.display = showcase ? '' : 'none';
    if (showcase && document.activeElement !== $('focus')) $('focus').value = String(s.focus);
    $('showcase_char').disabled = showcase || s.clips.length === 0;
    const anim = !showcase && s.animator && s.animator.bound;
    $('clip_a').disabled = anim;
    $('clip_b').disabled = loco || anim;
    $('blend').disabled = loco || anim;
    if (document.activeElement !== $('clip_a')) $('clip_a').value = loco ? '-2' : String(s.clip_a);
    if (document.activeElement !== $('clip_b')) $('clip_b').value = String(s.clip_b);
    if (loco) $('blend').value = String(s.blend);
    $('blend_value').textContent = s.blend.toFixed(2);
    $('speed_label').textContent = showcase || loco ? 'Walker speed (m/s)' : 'Playback rate';
    $('speed_value').textContent = s.speed.toFixed(2);
    // The scene runs on its own clock: no clip to scrub.
    $('phase').style.visibility = showcase ? 'hidden' : '';
    if (document.activeElement !== $('phase')) $('phase').value = String(s.phase);
    $('time').textContent = showcase ? 'scene time ' + s.time.toFixed(2) + ' s'
      : s.time.toFixed(2) + ' / ' + s.duration.toFixed(2) + ' s';
    $('pause').textContent = s.paused ? 'Play' : 'Pause';
    if (s.compressed) {
      $('compressed').checked = s.compressed.on;
      $('compressed').disabled = s.clips.length === 0;
      const c = s.compressed;
      $('compressed_info').textContent = c.bytes ? 'compressed ' + (c.bytes / 1024).toFixed(1) +
        ' KB of ' + (c.raw_bytes / 1024).toFixed(1) + ' KB raw, max error ' +
        (c.max_error * 1000).toFixed(2) + ' mm' : '';
    }
    $('look').checked = s.look.on;
    $('ik').checked = s.ik.on;
    $('follow').checked = s.follow;
    $('skeleton').checked = s.skeleton;
    $('mesh').checked = s.mesh;
    $('look').disabled = !s.look.available;
    $('ik').disabled = !s.ik.available;
    const lines = [
      'character: ' + s.character,
      'joints ' + s.joints + ', meshes ' + s.meshes + ', clips ' + s.clips.length,
    ];
    if (s.walker) {
      lines.push('walker speed ' + s.walker.speed.toFixed(2) + ' m/s');
      if (s.walker.weights) {
        lines.push('weights ' + s.walker.weights.map((w) => w.toFixed(2)).join(' '));
      }
    }
    if (s.actors) {
      lines.push('scene character: ' + s.scene_character);
      lines.push('actors: ' + s.actors.join(', '));
    }
    // Showcase toggles (sw_showcase_inputs); a feature the scene's
    // character lacks (SW_SHOWCASE_FEATURE_*) leaves its toggle disabled.
    const f = showcase ? s.features : 0;
    $('sync').disabled = (f & 1) === 0;
    $('foot').disabled = (f & 2) === 0;
    $('inertial').disabled = !showcase;
    if (s.toggles) {
      $('foot').checked = s.toggles.foot;
      $('sync').checked = s.toggles.sync;
      $('inertial').checked = s.toggles.inertial;
    }
    $('mirrored').disabled = showcase || !(s.mirror && s.mirror.available);
    $('mirrored').checked = !showcase && !!(s.mirror && s.mirror.on);
    if (s.mirror && s.mirror.available) {
      lines.push('mirror: ' + s.mirror.pairs + ' twin pairs' + (s.mirror.on ? ', mirrored' : ''));
    }
    if (s.scene_status) {
      const t = s.scene_status;
      lines.push('stepped foot gap ' + (t.reach_foot_gap * 100).toFixed(1) + ' cm, foot lock ' +
        t.lock_weight.toFixed(2));
      lines.push('walk/jog phase spread ' + t.phase_spread.toFixed(3));
      lines.push('hit: states ' + t.hit_states + ', crossfading updates ' +
        t.hit_crossfade_updates + ', inertialization offset ' +
        (t.hit_offset * 100).toFixed(1) + ' cm (largest ' + (t.hit_offset_max * 100).toFixed(1) +
        ')');
    }
    if (s.ragdoll && s.ragdoll.physics) {
      const r = s.ragdoll;
      lines.push('ragdolls (ODE): knock-down ' + ['', 'standing', 'falling', 'getting up'][r.phase] +
        ', ' + r.knockdowns + ' knock-downs, ' + r.getups_done + ' get-ups (' + r.getups_face_up +
        ' face up, ' + r.getups_face_down + ' face down), settle ' + r.settle_time_last.toFixed(2) +
        ' s, get-up jump ' + r.getup_velocity_jump_max.toFixed(2) + ' m/s (clip ' +
        r.getup_clip_noise_max.toFixed(2) + ')');
      lines.push('powered walker: ' + r.impulses + ' impulses, tracking error ' +
        (r.tracking_error_mean * 100).toFixed(1) + ' cm (largest ' +
        (r.tracking_error_max * 100).toFixed(1) + ')');
    }
    lines.push('look target ' + s.look.target.map((x) => x.toFixed(2)).join(', '));
    lines.push('reach target ' + s.ik.target.map((x) => x.toFixed(2)).join(', '));
    lines.push('frames ' + s.frames);
    $('status').textContent = lines.join('\n');
    $('dq').checked = s.skinning === 'dq';
    $('cpu_skin').disabled = s.mode === 'showcase';
    $('cpu_skin').checked = s.mode !== 'showcase' && s.cpu_skin;
    renderLabels(s);
    renderAnimator(s);
    renderMorphs(s);
  }

  // Morph targets: a slider per target of each mesh that has some (the
  // weight applied, from the animation until the slider is moved; "As
  // animated" gives every weight back to it).
  function renderMorphs(s) {
    const list = s.mode === 'character' && s.morph ? s.morph : [];
    $('morphbox').style.display = list.length ? '' : 'none';
    const key = s.character + '|' + list.map((m) => m.name + ':' + m.targets.join(',')).join('|');
    if (key !== state.morphKey) {
      state.morphKey = key;
      const box = $('morphs');
      box.innerHTML = '';
      for (const m of list) {
        const head = document.createElement('div');
        head.className = 'mesh';
        head.textContent = m.name;
        box.appendChild(head);
        m.targets.forEach((t, k) => {
          const label = document.createElement('label');
          const el = document.createElement('input');
          el.type = 'range';
          el.min = '0';
          el.max = '1';
          el.step = 'any';
          el.id = 'morph_' + m.mesh + '_' + k;
          el.addEventListener('input', () => state.api.morph(m.mesh, k, parseFloat(el.value)));
          const value = document.createElement('span');
          value.className = 'value';
          label.append((t || 'target ' + k) + ' ', value, el);
          box.appendChild(label);
        });
      }
    }
    for (const m of list) {
      m.weights.forEach((w, k) => {
        const el = $('morph_' + m.mesh + '_' + k);
        if (!el) return;
        if (el !== document.activeElement) el.value = String(w);
        el.parentElement.querySelector('.value').textContent = w.toFixed(2) +
          (m.set[k] === null ? '' : ' (set)');
      });
    }
  }

  // Labels over the showcase's actors (canvas pixels from the status); a
  // click on one puts the camera on that actor.
  function renderLabels(s) {
    const box = $('labels');
    const labels = s.mode === 'showcase' && s.labels ? s.labels : [];
    const names = s.actors || [];
    while (box.children.length > labels.length) box.lastChild.remove();
    while (box.children.length < labels.length) {
      const el = document.createElement('div');
      el.className = 'label';
      el.addEventListener('mousedown', (e) => e.stopPropagation());
      el.addEventListener('click', (e) => {
        e.stopPropagation();
        state.api.set('focus', parseInt(el.dataset.index, 10));
      });
      box.appendChild(el);
    }
    const sx = canvas.clientWidth / Math.max(1, canvas.width);
    const sy = canvas.clientHeight / Math.max(1, canvas.height);
    labels.forEach(([x, y, on], i) => {
      const el = box.children[i];
      el.dataset.index = String(i);
      el.id = 'label_' + names[i];
      el.textContent = names[i];
      el.style.display = on ? '' : 'none';
      el.style.left = (x * sx).toFixed(1) + 'px';
      el.style.top = (y * sy).toFixed(1) + 'px';
      el.classList.toggle('focused', s.focus === i);
    });
  }

  // The animator panel: built from the definition (sliders for floats and
  // ints over their ranges, checkboxes for bools, buttons for triggers),
  // then refreshed from the status every frame.
  function buildParams(a) {
    const box = $('params');
    box.innerHTML = '';
    a.params.forEach((p, i) => {
      let el;
      if (p.type === 'trigger') {
        el = document.createElement('button');
        el.textContent = p.name;
        el.addEventListener('click', () => state.api.param(i, 1));
        box.appendChild(el);
        return;
      }
      const label = document.createElement('label');
      el = document.createElement('input');
      if (p.type === 'bool') {
        el.type = 'checkbox';
        el.addEventListener('change', () => state.api.param(i, el.checked ? 1 : 0));
        label.append(el, ' ' + p.name);
      } else {
        el.type = 'range';
        el.min = String(p.lo);
        el.max = String(p.hi);
        el.step = p.type === 'int' ? '1' : 'any';
        el.addEventListener('input', () => state.api.param(i, parseFloat(el.value)));
        const value = document.createElement('span');
        value.className = 'value';
        label.append(p.name + (p.move ? ' (' + p.move + ' keys)' : '') + ' ', value, el);
      }
      el.id = 'param_' + p.name;
      box.appendChild(label);
    });
  }

  function renderAnimator(s) {
    const a = s.mode === 'character' ? s.animator : null;
    $('animbox').style.display = a || s.animator_error ? '' : 'none';
    $('animerror').textContent = s.animator_error || '';
    if (!a) {
      state.paramsKey = '';
      return;
    }
    const key = a.name + '|' + a.params.map((p) => p.name + p.type).join('|');
    if (key !== state.paramsKey) {
      state.paramsKey = key;
      buildParams(a);
    }
    $('animname').textContent = a.name;
    a.params.forEach((p) => {
      const el = $('param_' + p.name);
      if (!el || el === document.activeElement) return;
      if (p.type === 'bool') el.checked = p.value !== 0;
      else if (p.type !== 'trigger') {
        el.value = String(p.value);
        el.parentElement.querySelector('.value').textContent = p.value.toFixed(2);
      }
    });
    const lines = [];
    for (const m of a.machines || []) {
      lines.push(m.name + ': ' + m.current + (m.fade ? '  (' + m.fade.from + ' -> ' + m.fade.to +
        ' ' + (100 * m.fade.progress).toFixed(0) + '% of ' + m.fade.duration.toFixed(2) + ' s)' : ''));
    }
    for (const l of a.layers || []) lines.push('layer ' + l.name + ' weight ' + l.weight.toFixed(2));
    for (const st of a.states || []) {
      lines.push(st.machine + '/' + st.state + ' w ' + st.weight.toFixed(2) + ' phase ' +
        st.phase.toFixed(3) + (st.clips.length > 1 ? ': ' + st.clips.map((c) => c.clip + ' ' +
          c.weight.toFixed(2)).join(', ') : ''));
    }
    lines.push('root motion ' + a.root_motion.travelled.toFixed(2) + ' (turn ' +
      a.root_motion.yaw.toFixed(3) + '/frame)');
    $('animstate').textContent = lines.join('\n');
    $('eventcount').textContent = String(a.events_total);
    $('eventlog').textContent = a.log.slice().reverse().map((e) => e.time.toFixed(2) + ' ' +
      e.text).join('\n');
  }

  function tick(now) {
    const dt = state.lastTime ? (now - state.lastTime) / 1000 : 0;
    state.lastTime = now;
    resize();
    if (state.api.frame(dt) !== 0) showError(state.api.error());
    render(readStatus());
    requestAnimationFrame(tick);
  }

  function wire(api) {
    const num = (id, name) => $(id).addEventListener('input', (e) => {
      api.set(name, parseFloat(e.target.value));
    });
    const bool = (id, name) => $(id).addEventListener('change', (e) => {
      api.set(name, e.target.checked ? 1 : 0);
    });
    num('speed', 'speed');
    num('blend', 'blend');
    num('phase', 'phase');
    $('clip_a').addEventListener('change', (e) => pickClip(parseInt(e.target.value, 10)));
    $('animclose').addEventListener('click', () => {
      api.closeAnimator();
      syncControls();
    });
    $('morphreset').addEventListener('click', () => {
      for (const m of (state.status && state.status.morph) || []) {
        m.targets.forEach((t, k) => api.morph(m.mesh, k, NaN));
      }
    });
    $('clip_b').addEventListener('change', (e) => api.set('clip_b', parseInt(e.target.value, 10)));
    $('focus').addEventListener('change', (e) => api.set('focus', parseInt(e.target.value, 10)));
    $('target').addEventListener('change', (e) => api.set('target', parseInt(e.target.value, 10)));
    for (const id of ['look', 'ik', 'follow', 'skeleton', 'mesh', 'foot', 'sync', 'inertial',
      'mirrored', 'dq', 'cpu_skin']) {
      bool(id, id);
    }
    $('compressed').addEventListener('change', (e) => {
      const r = api.set('compressed', e.target.checked ? 1 : 0);
      showError(r === 0 ? '' : api.error());
    });
    $('pause').addEventListener('click', () => {
      api.set('paused', state.status && state.status.paused ? 0 : 1);
    });
    $('step').addEventListener('click', () => {
      api.set('paused', 1);
      api.set('step', 1 / 30);
    });
    $('scene').addEventListener('change', (e) => {
      const v = e.target.value;
      let r;
      if (v === 'showcase') r = api.showcase(0);
      else if (v === 'showcase_char') r = api.showcase(1);
      else if (v === 'file') r = openBytes(state.file.bytes, state.file.name);
      else r = api.builtin(v === 'spider' ? 1 : 0);
      if (v === 'humanoid' || v === 'spider') dropOption('showcase_char');
      showError(r === 0 ? '' : api.error());
      syncControls();
    });
    $('showcase_char').addEventListener('click', () => {
      const r = api.showcase(1);
      showError(r === 0 ? '' : api.error());
      if (r === 0) {
        const sel = $('scene');
        let opt = sel.querySelector('option[value=showcase_char]');
        if (!opt) {
          opt = new Option('', 'showcase_char');
          sel.add(opt);
        }
        opt.textContent = 'Showcase scene with ' + readStatus().scene_character;
        sel.value = 'showcase_char';
      }
      syncControls();
    });
    $('file').addEventListener('change', async (e) => {
      await openFiles(Array.from(e.target.files || []));
      e.target.value = '';
    });
    // Drag and drop: characters first, then animator definitions.
    window.addEventListener('dragover', (e) => {
      e.preventDefault();
      $('drop').style.display = 'flex';
    });
    window.addEventListener('dragleave', (e) => {
      if (!e.relatedTarget) $('drop').style.display = 'none';
    });
    window.addEventListener('drop', async (e) => {
      e.preventDefault();
      $('drop').style.display = 'none';
      await openFiles(Array.from((e.dataTransfer && e.dataTransfer.files) || []));
    });
    wireKeys(api);

    // Orbit camera: drag to turn, wheel to zoom; a click (no drag) places
    // the active target, moving without a button moves it when following.
    const pos = (e) => {
      const r = canvas.getBoundingClientRect();
      return [(e.clientX - r.left) * canvas.width / r.width,
        (e.clientY - r.top) * canvas.height / r.height];
    };
    canvas.addEventListener('mousedown', (e) => {
      state.drag = { x: e.clientX, y: e.clientY, moved: 0 };
    });
    window.addEventListener('mouseup', (e) => {
      if (state.drag && state.drag.moved < 4 && e.target === canvas) {
        const [x, y] = pos(e);
        api.pointer(x, y, 1);
      }
      state.drag = null;
    });
    canvas.addEventListener('mousemove', (e) => {
      if (state.drag) {
        const dx = e.clientX - state.drag.x, dy = e.clientY - state.drag.y;
        state.drag.moved += Math.abs(dx) + Math.abs(dy);
        state.drag.x = e.clientX;
        state.drag.y = e.clientY;
        if (state.drag.moved >= 4) api.orbit(dx, dy);
      } else {
        const [x, y] = pos(e);
        api.pointer(x, y, 0);
      }
    });
    canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      api.zoom(Math.exp(e.deltaY * 0.001));
    }, { passive: false });
    syncControls();
  }

  // Opens files picked or dropped together: a character (.glb, .gltf,
  // .sinew) first, then an animator definition (.json) bound to it.
  async function openFiles(files) {
    const isJson = (f) => /\.json$/i.test(f.name);
    const ordered = files.filter((f) => !isJson(f)).concat(files.filter(isJson));
    let msg = '';
    for (const f of ordered) {
      const bytes = new Uint8Array(await f.arrayBuffer());
      if (isJson(f)) {
        const r = openAnimatorBytes(bytes, f.name);
        if (r < 0) msg = state.api.error();
        continue;
      }
      const r = openBytes(bytes, f.name);
      if (r !== 0) {
        msg = state.api.error();
        continue;
      }
      // Kept to reopen it from the scene menu.
      state.file = { bytes: bytes, name: f.name };
      dropOption('showcase_char');
      const sel = $('scene');
      let opt = sel.querySelector('option[value=file]');
      if (!opt) {
        opt = new Option('', 'file');
        sel.add(opt);
      }
      opt.textContent = 'File: ' + f.name;
      sel.value = 'file';
    }
    showError(msg);
    syncControls();
  }

  function openAnimatorBytes(bytes, name) {
    const ptr = state.mod._malloc(bytes.length + 1);
    state.mod.HEAPU8.set(bytes, ptr);
    const r = state.api.openAnimator(ptr, bytes.length, name);
    state.mod._free(ptr);
    return r;
  }

  // Clip A's menu: a clip, or the humanoid's locomotion blend (-2).
  function pickClip(i) {
    const r = i === -2 ? state.api.set('locomotion', 1) : state.api.set('clip_a', i);
    showError(r === 0 ? '' : state.api.error());
    syncControls();
  }

  // Keyboard: WASD / arrows steer (held keys, viewer_key), Q/E strafe,
  // Shift doubles; space pauses, '.' or N steps 1/30 s, 1-9 pick clip A
  // (the showcase: the camera's actor), 0 the humanoid's locomotion (the
  // whole scene). Keys typed into the side panel's controls are theirs.
  function wireKeys(api) {
    const steer = { KeyW: 1, ArrowUp: 1, KeyS: 2, ArrowDown: 2, KeyA: 3, ArrowLeft: 3, KeyD: 4,
      ArrowRight: 4, KeyQ: 5, KeyE: 6, ShiftLeft: 7, ShiftRight: 7 };
    const mine = (e) => !(e.target instanceof HTMLInputElement && e.target.type !== 'checkbox') &&
      !(e.target instanceof HTMLSelectElement);
    window.addEventListener('keydown', (e) => {
      if (!mine(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      const s = state.status || {};
      if (steer[e.code]) {
        api.key(steer[e.code], 1);
      } else if (e.code === 'Space') {
        api.set('paused', s.paused ? 0 : 1);
      } else if (e.code === 'Period' || e.code === 'KeyN') {
        api.set('paused', 1);
        api.set('step', 1 / 30);
      } else if (/^Digit[0-9]$/.test(e.code)) {
        const k = parseInt(e.code.slice(5), 10);
        if (s.mode === 'showcase') api.set('focus', k - 1);
        else if (k === 0) pickClip(-2);
        else if (k <= (s.clips || []).length) pickClip(k - 1);
      } else {
        return;
      }
      e.preventDefault();
    });
    window.addEventListener('keyup', (e) => {
      if (steer[e.code]) api.key(steer[e.code], 0);
    });
    window.addEventListener('blur', () => {
      for (let k = 1; k <= 7; ++k) api.key(k, 0);
    });
  }

  function openBytes(bytes, name) {
    const ptr = state.mod._malloc(bytes.length);
    state.mod.HEAPU8.set(bytes, ptr);
    const r = state.api.open(ptr, bytes.length, name);
    state.mod._free(ptr);
    return r;
  }

  function dropOption(value) {
    const opt = $('scene').querySelector('option[value=' + value + ']');
    if (opt) opt.remove();
  }

  // Puts the sliders where the newly loaded character starts.
  function syncControls() {
    const s = readStatus();
    $('speed').value = String(s.speed);
    $('blend').value = String(s.blend);
    state.clipsKey = '';
    render(s);
  }
})();
