/* CPU skinning and morph targets on RobotExpressive (shared assets; skipped,
 * saying so, when absent): the face's three morph targets move its vertices
 * by exactly the weighted deltas, weights come from the clips' float tracks
 * (sample job) and from the animator (examples/robot.json), and the skin
 * jobs on a real animated pose (with the asset's scale-100 nodes): every
 * kernel path against scalar, DQ equal to LBS on single-influence vertices. */
#include "robot_fixture.h"

#include "runtime/core/internal.h"

/* The face: of the meshes with 3 morph targets (the head's primitives),
 * the one with the most non-zero position deltas; NULL when none. */
static const sw_mesh* face_mesh(const sw_asset* a) {
    const sw_mesh* best = NULL;
    size_t most = 0;
    for (uint32_t i = 0; i < a->meshes_count; ++i) {
        const sw_mesh* m = a->meshes[i];
        if (m->morph_targets_count != 3) continue;
        const float* d = sw_mesh_morph_positions(m);
        size_t nz = 0;
        for (size_t k = 0; k < (size_t)9u * m->vertices_count; ++k)
            nz += d[k] != 0.0f;
        if (!best || nz > most) best = m, most = nz;
    }
    return best;
}

static float* alloc_floats(size_t n) {
    float* p = (float*)malloc(n * sizeof(float));
    assert_non_null(p);
    return p;
}

/* Weights (0.2, 0.5, 0.9), then each target alone at weight 1: every vertex
 * ends at bind + sum w_k delta_k (double, computed here), vertices without
 * deltas stay bit for bit where they were. */
static void test_face_morph(void** state) {
    (void)state;
    robot_fixture f;
    if (!robot_fixture_open(&f)) return;
    const sw_mesh* m = face_mesh(&f.asset);
    assert_non_null(m);
    const uint32_t n = m->vertices_count;
    print_message("face mesh \"%s\": %u vertices, targets %s, %s, %s%s\n", sw_mesh_name(m), n,
                  sw_mesh_morph_name(m, 0), sw_mesh_morph_name(m, 1), sw_mesh_morph_name(m, 2),
                  m->flags & SW_MESH_FLAG_MORPH_NORMALS ? " (with normal deltas)" : "");
    float* out = alloc_floats(3u * n);
    const float* bind = sw_mesh_positions(m);
    const float* d = sw_mesh_morph_positions(m);
    const float sets[4][3] = {{0.2f, 0.5f, 0.9f}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int s = 0; s < 4; ++s) {
        const sw_morph_job job = {.mesh = m,
                                  .weights = sets[s],
                                  .weights_count = 3,
                                  .out_positions = out,
                                  .out_count = n};
        assert_int_equal(sw_morph_job_run(&job), SW_RESULT_OK);
        uint32_t moved = 0;
        double largest = 0.0;
        for (uint32_t i = 0; i < 3u * n; ++i) {
            double e = bind[i];
            bool any = false;
            for (uint32_t k = 0; k < 3; ++k) {
                e += (double)sets[s][k] * d[(size_t)3u * n * k + i];
                any = any || (sets[s][k] != 0.0f && d[(size_t)3u * n * k + i] != 0.0f);
            }
            if (!any) {
                assert_true(out[i] == bind[i]);
                continue;
            }
            assert_near(out[i], e, 1e-6 * fmax(1.0, fabs(e)));
            largest = fmax(largest, fabs(e - bind[i]));
        }
        for (uint32_t v = 0; v < n; ++v)
            moved += out[3 * v] != bind[3 * v] || out[3 * v + 1] != bind[3 * v + 1] ||
                     out[3 * v + 2] != bind[3 * v + 2];
        print_message("  weights (%.1f, %.1f, %.1f): %u vertices moved, largest offset %.4g\n",
                      (double)sets[s][0], (double)sets[s][1], (double)sets[s][2], moved, largest);
        assert_true(moved > 0);
    }
    free(out);
    robot_fixture_free(&f);
}

/* Weights from a clip's float tracks: sw_morph_tracks finds them, the
 * sample job fills them, and the gathered weights equal sw_clip_sample_float. */
static void test_weights_from_clips(void** state) {
    (void)state;
    robot_fixture f;
    if (!robot_fixture_open(&f)) return;
    const sw_mesh* m = face_mesh(&f.asset);
    assert_non_null(m);
    uint32_t clips_with = 0;
    for (uint32_t c = 0; c < f.asset.clips_count; ++c) {
        const sw_clip* clip = f.asset.clips[c];
        int32_t tracks[4];
        const uint32_t found = sw_morph_tracks(m, clip, tracks, 4);
        assert_int_equal(tracks[3], -1); /* not a target */
        if (found == 0) continue;
        assert_int_equal(found, 3);
        ++clips_with;
        const sw_skeleton* skel = f.asset.skeleton;
        sw_xform4* pose = (sw_xform4*)sw_alloc(NULL, skel->packets_count * sizeof(sw_xform4), 16);
        float floats[64];
        assert_true(clip->float_tracks_count <= 64);
        const float t = 0.37f * clip->duration;
        const sw_sample_job sj = {.clip = clip,
                                  .skeleton = skel,
                                  .time = t,
                                  .out = pose,
                                  .out_count = skel->packets_count,
                                  .floats = floats,
                                  .floats_count = 64};
        assert_int_equal(sw_sample_job_run(&sj), SW_RESULT_OK);
        float w[3];
        sw_morph_weights_gather(tracks, 3, floats, clip->float_tracks_count, w);
        for (uint32_t k = 0; k < 3; ++k)
            assert_true(w[k] == sw_clip_sample_float(clip, (uint32_t)tracks[k], t));
        if (w[0] != 0.0f || w[1] != 0.0f || w[2] != 0.0f)
            print_message("clip %s at %.2f s: weights %.3f %.3f %.3f (tracks %s, ...)\n",
                          sw_clip_name(clip), (double)t, (double)w[0], (double)w[1], (double)w[2],
                          sw_clip_float_track_name(clip, (uint32_t)tracks[0]));
        sw_free(NULL, pose, skel->packets_count * sizeof(sw_xform4));
    }
    print_message("%u of %u clips carry the face's weight tracks\n", clips_with,
                  f.asset.clips_count);
    assert_true(clips_with > 0);
    robot_fixture_free(&f);
}

/* The animator's morph weights: with only the base layer weighted (wave and
 * nod 0), the blend of the playing clips' sampled floats (sample job) by
 * their contribution weights. */
static void test_weights_from_animator(void** state) {
    (void)state;
    robot_fixture f;
    if (!robot_fixture_open(&f)) return;
    const sw_mesh* m = face_mesh(&f.asset);
    const sw_animator* def = f.aj.animator;
    const size_t is = sw_animator_instance_size(f.bound);
    void* imem = sw_alloc(NULL, is, 16);
    sw_animator_instance* inst;
    assert_int_equal(sw_animator_instance_init(imem, is, f.bound, &inst), SW_RESULT_OK);
    float params[8];
    assert_int_equal(sw_animator_params_reset(def, params, 8), SW_RESULT_OK);
    params[sw_animator_find_param(def, "speed")] = 1.0f; /* Idle and Walking */
    uint32_t ne;
    sw_animator_event ev[16];
    const sw_skeleton* skel = f.asset.skeleton;
    sw_xform4* pose = (sw_xform4*)sw_alloc(NULL, skel->packets_count * sizeof(sw_xform4), 16);
    for (int frame = 0; frame < 40; ++frame) {
        assert_int_equal(
            sw_animator_update(inst, f.bound, params, 8, 1.0f / 30.0f, ev, 16, &ne, NULL),
            SW_RESULT_OK);
        float w[3];
        const uint32_t found = sw_animator_morph_weights(inst, f.bound, m, w, 3);
        sw_animator_contribution c[16];
        const uint32_t nc = sw_animator_contributions(inst, f.bound, c, 16);
        double e[3] = {0, 0, 0};
        bool any = false;
        for (uint32_t i = 0; i < nc && i < 16; ++i) {
            if (c[i].layer != 0) continue;
            const sw_clip* clip = sw_animator_bound_clip(f.bound, c[i].clip);
            int32_t tracks[3];
            if (sw_morph_tracks(m, clip, tracks, 3) == 0) continue;
            any = true;
            float floats[64];
            const sw_sample_job sj = {.clip = clip,
                                      .skeleton = skel,
                                      .time = c[i].time,
                                      .out = pose,
                                      .out_count = skel->packets_count,
                                      .floats = floats,
                                      .floats_count = 64};
            assert_int_equal(sw_sample_job_run(&sj), SW_RESULT_OK);
            float wk[3];
            sw_morph_weights_gather(tracks, 3, floats, clip->float_tracks_count, wk);
            for (int k = 0; k < 3; ++k)
                e[k] += (double)c[i].weight * wk[k];
        }
        assert_int_equal(found, any ? 3 : 0);
        for (int k = 0; k < 3; ++k)
            assert_near(w[k], e[k], 1e-6);
        if (frame == 39)
            print_message("animator (speed 1, %u playing clips) frame 40: face weights %.4f %.4f "
                          "%.4f\n",
                          nc, (double)w[0], (double)w[1], (double)w[2]);
    }
    sw_free(NULL, pose, skel->packets_count * sizeof(sw_xform4));
    sw_free(NULL, imem, is);
    robot_fixture_free(&f);
}

/* Model matrices of the first clip named `name` at time t. */
static void robot_model(const sw_asset* a, const char* name, float t, sw_mat4* model) {
    const sw_skeleton* skel = a->skeleton;
    const sw_clip* clip = NULL;
    for (uint32_t c = 0; c < a->clips_count && !clip; ++c)
        if (strcmp(sw_clip_name(a->clips[c]), name) == 0) clip = a->clips[c];
    assert_non_null(clip);
    sw_xform4* pose = (sw_xform4*)sw_alloc(NULL, skel->packets_count * sizeof(sw_xform4), 16);
    sw_test_model_at(skel, clip, t, pose, model);
    sw_free(NULL, pose, skel->packets_count * sizeof(sw_xform4));
}

/* Every mesh at Running 0.4 s: LBS and DQ on every path against scalar; DQ
 * equal to LBS on single-influence vertices; the largest DQ - LBS gap on
 * blended vertices reported. */
static void test_robot_skinning(void** state) {
    (void)state;
    robot_fixture f;
    if (!robot_fixture_open(&f)) return;
    const sw_skeleton* skel = f.asset.skeleton;
    sw_mat4* model = (sw_mat4*)malloc(skel->joints_count * sizeof(sw_mat4));
    robot_model(&f.asset, "Running", 0.4f, model);
    uint32_t paths_count;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    for (uint32_t mi = 0; mi < f.asset.meshes_count; ++mi) {
        const sw_mesh* m = f.asset.meshes[mi];
        const uint32_t n = m->vertices_count, pc = m->palette_count;
        sw_mat4* pal = (sw_mat4*)malloc(pc * sizeof(sw_mat4));
        sw_dq_transform* dq = (sw_dq_transform*)sw_alloc(NULL, pc * sizeof(sw_dq_transform), 16);
        const sw_skinning_job sj = {.model = model,
                                    .model_count = skel->joints_count,
                                    .joints = sw_mesh_palette(m),
                                    .inverse_bind = sw_mesh_inverse_binds(m),
                                    .count = pc,
                                    .out = pal,
                                    .out_count = pc};
        assert_int_equal(sw_skinning_job_run(&sj), SW_RESULT_OK);
        const sw_dq_palette_job dj = {.model = model,
                                      .model_count = skel->joints_count,
                                      .joints = sw_mesh_palette(m),
                                      .inverse_bind = sw_mesh_inverse_binds(m),
                                      .count = pc,
                                      .out = dq,
                                      .out_count = pc};
        assert_int_equal(sw_dq_palette_job_run(&dj), SW_RESULT_OK);
        uint32_t scaled = 0;
        for (uint32_t i = 0; i < pc; ++i)
            scaled += dq[i].scale[0] != 1.0f || dq[i].scale[5] != 1.0f || dq[i].scale[10] != 1.0f;
        float* lbs[2] = {alloc_floats(3u * n), alloc_floats(3u * n)};
        float* dqs[2] = {alloc_floats(3u * n), alloc_floats(3u * n)};
        float* nrm = alloc_floats(3u * n);
        const bool normals = sw_mesh_normals(m) != NULL;
        sw_skin_job lj = {.mesh = m,
                          .palette = pal,
                          .palette_count = pc,
                          .out_positions = lbs[0],
                          .out_normals = normals ? nrm : NULL,
                          .out_count = n};
        sw_skin_job qj = {.mesh = m,
                          .dq_palette = dq,
                          .palette_count = pc,
                          .out_positions = dqs[0],
                          .out_normals = normals ? nrm : NULL,
                          .out_count = n};
        assert_int_equal(sw__skin_job_run_with(&lj, &sw__soa_scalar), SW_RESULT_OK);
        assert_int_equal(sw__skin_job_run_with(&qj, &sw__soa_scalar), SW_RESULT_OK);
        double size = 0.0;
        for (uint32_t i = 0; i < 3u * n; ++i)
            size = fmax(size, fabs(lbs[0][i]));
        for (uint32_t k = 1; k < paths_count; ++k) {
            lj.out_positions = lbs[1];
            qj.out_positions = dqs[1];
            assert_int_equal(sw__skin_job_run_with(&lj, paths[k]), SW_RESULT_OK);
            assert_int_equal(sw__skin_job_run_with(&qj, paths[k]), SW_RESULT_OK);
            for (uint32_t i = 0; i < 3u * n; ++i) {
                assert_near(lbs[1][i], lbs[0][i], 1.6e-5 * fmax(1.0, size));
                assert_near(dqs[1][i], dqs[0][i], 1.6e-5 * fmax(1.0, size));
            }
        }
        double single = 0.0, blended = 0.0;
        uint32_t singles = 0;
        const float* w = sw_mesh_weights(m);
        for (uint32_t v = 0; v < n; ++v) {
            double gap = 0.0;
            for (uint32_t r = 0; r < 3; ++r)
                gap = fmax(gap, fabs((double)dqs[0][3 * v + r] - lbs[0][3 * v + r]));
            const bool one = w[4 * v] == 1.0f || w[4 * v + 1] == 1.0f || w[4 * v + 2] == 1.0f ||
                             w[4 * v + 3] == 1.0f;
            if (one) {
                single = fmax(single, gap);
                ++singles;
            } else {
                blended = fmax(blended, gap);
            }
        }
        print_message("%s: %u vertices (%u single-influence), %u/%u palette entries scaled; DQ - "
                      "LBS: single %.3g, blended %.3g (model size %.3g)\n",
                      sw_mesh_name(m), n, singles, scaled, pc, single, blended, size);
        assert_true(single <= 2e-5 * fmax(1.0, size));
        free(lbs[0]), free(lbs[1]), free(dqs[0]), free(dqs[1]), free(nrm), free(pal);
        sw_free(NULL, dq, pc * sizeof(sw_dq_transform));
    }
    free(model);
    robot_fixture_free(&f);
}

/* A clip of one joint with a float track "face.weights[0]" going linearly
 * from v0 at 0 to v1 at 1 s. */
static const sw_clip* curve_clip(const char* name, float v0, float v1) {
    const float times[2] = {0.0f, 1.0f}, values[2] = {v0, v1};
    const sw_clip_track_desc track = {.kind = SW_TRACK_KIND_FLOAT,
                                      .name = "face.weights[0]",
                                      .keys_count = 2,
                                      .times = times,
                                      .values = values};
    const sw_clip_desc d = {
        .name = name, .duration = 1.0f, .joints_count = 1, .tracks = &track, .tracks_count = 1};
    const sw_clip* c;
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_clip_create(&d, NULL, &c, &err);
    if (r != SW_RESULT_OK) fail_msg("clip: %s (%s)", sw_result_str(r), err.check);
    return c;
}

/* The animator's float curves against the closed form (the robot's clips
 * keep their morph weights at 0, so this builds its own): a 1D blend space
 * of A (0.2 .. 0.6) and B (1.0 .. 1.0) at x = 0.25 (weights 3/4, 1/4), an
 * override layer playing C (0.8) at weight 1/2, an additive layer playing D
 * (0.1 .. 0.5, reference its first frame) at weight 1, a clip E without the
 * track on a second override layer at weight 1 (changes nothing). At time t
 * the base is 0.75 (0.2 + 0.4 t) + 0.25, the override gives (base + 0.8) /
 * 2, the additive adds 0.4 t. The mesh "face_1" (a glTF primitive name)
 * finds the curve through its prefix. */
static void test_animator_float_curve(void** state) {
    (void)state;
    static const char json[] =
        "{\"params\": [{\"name\": \"x\", \"type\": \"float\", \"default\": 0.25},"
        " {\"name\": \"half\", \"type\": \"float\", \"default\": 0.5},"
        " {\"name\": \"one\", \"type\": \"float\", \"default\": 1}],"
        " \"blend_spaces\": [{\"name\": \"ab\", \"x\": \"x\", \"members\": [{\"clip\": \"A\", "
        "\"x\": 0}, {\"clip\": \"B\", \"x\": 1}]}],"
        " \"machines\": [{\"name\": \"M\", \"states\": [{\"name\": \"S\", \"blend_space\": "
        "\"ab\"}]},"
        " {\"name\": \"O\", \"states\": [{\"name\": \"C\", \"clip\": \"C\"}]},"
        " {\"name\": \"D\", \"states\": [{\"name\": \"D\", \"clip\": \"D\"}]},"
        " {\"name\": \"E\", \"states\": [{\"name\": \"E\", \"clip\": \"E\"}]}],"
        " \"layers\": [{\"name\": \"base\", \"machine\": \"M\"},"
        " {\"name\": \"over\", \"machine\": \"O\", \"mode\": \"override\", \"weight_param\": "
        "\"half\"},"
        " {\"name\": \"add\", \"machine\": \"D\", \"mode\": \"additive\", \"weight_param\": "
        "\"one\", \"reference\": \"first_frame\"},"
        " {\"name\": \"other\", \"machine\": \"E\", \"mode\": \"override\", \"weight_param\": "
        "\"one\"}]}";
    sw_animator_json aj;
    sw_error err = SW_ERROR_INIT;
    sw_result r = sw_animator_json_read(json, sizeof json - 1, NULL, &aj, &err);
    if (r != SW_RESULT_OK) fail_msg("json: %s (%s)", sw_result_str(r), err.check);
    const sw_skeleton_joint joint = {"root", -1, {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}};
    const sw_skeleton_desc sd = {&joint, 1};
    const sw_skeleton* skel;
    assert_int_equal(sw_skeleton_create(&sd, NULL, &skel, NULL), SW_RESULT_OK);
    const sw_clip* clips[5] = {curve_clip("A", 0.2f, 0.6f), curve_clip("B", 1.0f, 1.0f),
                               curve_clip("C", 0.8f, 0.8f), curve_clip("D", 0.1f, 0.5f), NULL};
    const sw_clip_desc ed = {.name = "E", .duration = 1.0f, .joints_count = 1};
    assert_int_equal(sw_clip_create(&ed, NULL, &clips[4], NULL), SW_RESULT_OK);
    const size_t bs = sw_animator_bound_size(aj.animator, skel);
    void* bmem = sw_alloc(NULL, bs, 16);
    const sw_animator_bound* bound;
    r = sw_animator_bind(aj.animator, skel, clips, 5, bmem, bs, &bound, &err);
    if (r != SW_RESULT_OK) fail_msg("bind: %s (%s)", sw_result_str(r), err.check);
    const size_t is = sw_animator_instance_size(bound);
    void* imem = sw_alloc(NULL, is, 16);
    sw_animator_instance* inst;
    assert_int_equal(sw_animator_instance_init(imem, is, bound, &inst), SW_RESULT_OK);
    float params[3];
    assert_int_equal(sw_animator_params_reset(aj.animator, params, 3), SW_RESULT_OK);
    /* A mesh named like a glTF primitive of "face", with one target. */
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, dpos[9] = {0};
    const uint16_t joints[12] = {0}, pal = 0;
    const float w4[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    const sw_mat4 ib = sw_mat4_identity();
    const sw_mesh_desc md = {.name = "face_1",
                             .vertices_count = 3,
                             .positions = pos,
                             .joints = joints,
                             .weights = w4,
                             .palette = &pal,
                             .inverse_binds = &ib,
                             .palette_count = 1,
                             .skeleton_joints_count = 1,
                             .morph_targets_count = 1,
                             .morph_positions = dpos};
    const sw_mesh* mesh;
    assert_int_equal(sw_mesh_create(&md, NULL, &mesh, NULL), SW_RESULT_OK);
    uint32_t ne;
    for (int frame = 1; frame <= 20; ++frame) {
        assert_int_equal(sw_animator_update(inst, bound, params, 3, 0.03f, NULL, 0, &ne, NULL),
                         SW_RESULT_OK);
        sw_animator_contribution c[8];
        const uint32_t nc = sw_animator_contributions(inst, bound, c, 8);
        float t = -1.0f;
        for (uint32_t i = 0; i < nc; ++i)
            if (c[i].layer == 2) t = c[i].time; /* D's time: the clips share 1 s cycles */
        assert_true(t >= 0.0f);
        const double base = 0.75 * (0.2 + 0.4 * t) + 0.25 * 1.0;
        const double e = (base + 0.8) * 0.5 + 0.4 * t;
        bool found = false;
        assert_near(sw_animator_float_curve(inst, bound, "face.weights[0]", &found), e, 1e-5);
        assert_true(found);
        float w[2];
        assert_int_equal(sw_animator_morph_weights(inst, bound, mesh, w, 2), 1);
        assert_near(w[0], e, 1e-5);
        assert_true(w[1] == 0.0f);
        assert_true(sw_animator_float_curve(inst, bound, "nothing", &found) == 0.0f && !found);
        if (frame == 20)
            print_message("animator curve at t = %.2f s: %.5f (closed form %.5f)\n", (double)t,
                          (double)w[0], e);
    }
    sw_mesh_destroy(mesh, NULL);
    sw_free(NULL, imem, is);
    sw_free(NULL, bmem, bs);
    for (int i = 0; i < 5; ++i)
        sw_clip_destroy(clips[i], NULL);
    sw_skeleton_destroy(skel, NULL);
    sw_animator_json_free(&aj, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_face_morph),
        cmocka_unit_test(test_weights_from_clips),
        cmocka_unit_test(test_weights_from_animator),
        cmocka_unit_test(test_animator_float_curve),
        cmocka_unit_test(test_robot_skinning),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
