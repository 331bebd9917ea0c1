/* A scratch folder per test program (header-only): `g_dir`, made by the
 * cmocka group setup `scratch_setup` under /tmp with the includer's
 * SCRATCH_NAME, removed with what it holds by `scratch_teardown`;
 * `scratch_fresh` empties it before a test that counts its files. The
 * includer defines _POSIX_C_SOURCE 200809L (mkdtemp) first. */
#ifndef SINEW_TEST_SCRATCH_H
#define SINEW_TEST_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>

static char g_dir[256]; /* scratch folder for this run */

static inline int scratch_setup(void** state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/sinew_%s_XXXXXX", SCRATCH_NAME);
    return mkdtemp(g_dir) ? 0 : -1;
}

static inline int scratch_teardown(void** state) {
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static inline int scratch_fresh(void** state) {
    return scratch_teardown(state) == 0 ? scratch_setup(state) : -1;
}

#endif
