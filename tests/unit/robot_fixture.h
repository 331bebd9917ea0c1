/* RobotExpressive (shared assets) with examples/robot.json's animator bound
 * to it, for the tests that drive that animator (test_crowd,
 * test_animator_json). Includes tools headers: tests/CMakeLists.txt skips
 * the tests that include this file when the tools are not built. */
#ifndef SINEW_TEST_ROBOT_FIXTURE_H
#define SINEW_TEST_ROBOT_FIXTURE_H

#include "test_util.h"

#include "sinew/animator/animator.h"
#include "sinew/tools/readers/animator_json.h"
#include "sinew/tools/readers/asset.h"

#define ROBOT_FIXTURE_JSON SINEW_TEST_DATA "/../../examples/robot.json"

typedef struct robot_fixture {
    sw_animator_json aj; /* robot.json's animator (aj.animator) and idle channels */
    sw_asset asset;      /* RobotExpressive.glb: skeleton, clips, meshes */
    void* bound_mem;     /* sw_alloc'd, bound_size bytes */
    size_t bound_size;
    const sw_animator_bound* bound; /* aj.animator bound to asset's skeleton and clips */
} robot_fixture;

/* Reads robot.json, opens RobotExpressive.glb and binds the animator to it.
 * Returns false (the test skips, saying so) when the asset is absent; fails
 * the test on any other error. Free with robot_fixture_free. */
static inline bool robot_fixture_open(robot_fixture* f) {
    char path[512];
    memset(f, 0, sizeof *f);
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return false;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_animator_json_read_file(ROBOT_FIXTURE_JSON, NULL, &f->aj, &err);
    if (r != SW_RESULT_OK) fail_msg("robot.json: %s (%s)", sw_result_str(r), err.check);
    sw_asset_options opt;
    memset(&opt, 0, sizeof opt);
    r = sw_asset_open(path, &opt, &f->asset, &err);
    if (r != SW_RESULT_OK) fail_msg("open: %s (%s)", sw_result_str(r), err.check);
    f->bound_size = sw_animator_bound_size(f->aj.animator, f->asset.skeleton);
    f->bound_mem = sw_alloc(NULL, f->bound_size, 16);
    assert_non_null(f->bound_mem);
    r = sw_animator_bind(f->aj.animator, f->asset.skeleton, f->asset.clips, f->asset.clips_count,
                         f->bound_mem, f->bound_size, &f->bound, &err);
    if (r != SW_RESULT_OK) fail_msg("bind: %s (%s)", sw_result_str(r), err.check);
    return true;
}

/* Frees what robot_fixture_open made. */
static inline void robot_fixture_free(robot_fixture* f) {
    sw_free(NULL, f->bound_mem, f->bound_size);
    sw_asset_free(&f->asset);
    sw_animator_json_free(&f->aj, NULL);
}

#endif
