/* The showcase scene's stage (src/showcase/stage.c): where each actor
 * stands on the ground plane (+Y up, metres), the step, the beam and the
 * bumps, and the analytic ground and ray queries over them. */
#ifndef SINEW_SHOWCASE_STAGE_H
#define SINEW_SHOWCASE_STAGE_H

#include "sinew/sinew.h"

/* Spots on the ground (x, z). */
#define SW__SC_LOCO_X 0.0f
#define SW__SC_LOCO_Z 0.3f
#define SW__SC_LOCO_R 2.2f
#define SW__SC_REACH_X (-3.6f)
#define SW__SC_REACH_Z 2.6f
#define SW__SC_IDLE_X (-4.2f)
#define SW__SC_IDLE_Z (-0.6f)
#define SW__SC_HIT_X 4.2f
#define SW__SC_HIT_Z (-0.6f)
#define SW__SC_CAT_X 3.6f
#define SW__SC_CAT_Z 2.6f
#define SW__SC_ARM_X 3.3f
#define SW__SC_ARM_Z (-3.3f)
#define SW__SC_SPIDER_X (-3.1f)
#define SW__SC_SPIDER_Z (-3.1f)
#define SW__SC_SPIDER_R 0.9f
/* The step under "reach"'s left foot (x0, x1, z0, z1 relative to the spot, height). */
#define SW__SC_STEP_X0 0.02f
#define SW__SC_STEP_X1 0.34f
#define SW__SC_STEP_Z0 (-0.22f)
#define SW__SC_STEP_Z1 0.30f
#define SW__SC_STEP_H 0.16f
/* Bumps around the spider's spot and the beam across its path. */
#define SW__SC_BUMPS_R 1.6f
#define SW__SC_BUMPS_A 0.035f
#define SW__SC_BEAM_Z0 0.75f /* relative to the spider spot */
#define SW__SC_BEAM_Z1 1.05f
#define SW__SC_BEAM_HALF 1.5f /* half length along x */
#define SW__SC_BEAM_Y 0.125f  /* bottom */
#define SW__SC_BEAM_T 0.06f   /* thickness */

/* Smoothstep from 0 at x = a to 1 at x = b (clamped outside). */
float sw__sc_smoothstep(float a, float b, float x);
/* Ground height at (x, z) and, when normal is not NULL, its normal (analytic). */
float sw__sc_ground(float x, float z, sw_vec3* normal);
/* Ray callback (sw_foot_ray / the walker's) over the ground (down rays)
 * and the beam (up rays); other directions miss. */
bool sw__sc_ray(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                sw_vec3* normal);

#endif
