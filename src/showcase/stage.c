/* The showcase scene's stage (stage.h): the analytic ground (the step and
 * the bumps) and the rays the foot placement and the walker cast at it. */
#include <math.h>

#include "showcase/stage.h"
#include "sinew/showcase/scene.h"

float sw__sc_smoothstep(float a, float b, float x) {
    float t = (x - a) / (b - a);
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    return t * t * (3.0f - 2.0f * t);
}

/* Bumps: a product of two sines, faded out towards the patch's edge. */
static float sw__bumps(float x, float z) {
    const float dx = x - SW__SC_SPIDER_X, dz = z - SW__SC_SPIDER_Z;
    const float r = sqrtf(dx * dx + dz * dz);
    if (r >= SW__SC_BUMPS_R) return 0.0f;
    const float fade = 1.0f - sw__sc_smoothstep(0.7f * SW__SC_BUMPS_R, SW__SC_BUMPS_R, r);
    const float s = (0.5f + 0.5f * sinf(4.3f * dx + 0.4f)) * (0.5f + 0.5f * sinf(3.9f * dz + 1.1f));
    return SW__SC_BUMPS_A * s * fade;
}

float sw__sc_ground(float x, float z, sw_vec3* normal) {
    const float sx = x - SW__SC_REACH_X, sz = z - SW__SC_REACH_Z;
    if (sx >= SW__SC_STEP_X0 && sx <= SW__SC_STEP_X1 && sz >= SW__SC_STEP_Z0 &&
        sz <= SW__SC_STEP_Z1) {
        if (normal) *normal = sw_vec3_make(0.0f, 1.0f, 0.0f);
        return SW__SC_STEP_H;
    }
    const float h = sw__bumps(x, z);
    if (normal) {
        if (h == 0.0f && sw__bumps(x + 0.01f, z) == 0.0f && sw__bumps(x, z + 0.01f) == 0.0f) {
            *normal = sw_vec3_make(0.0f, 1.0f, 0.0f);
        } else {
            const float e = 0.005f;
            const float gx = (sw__bumps(x + e, z) - sw__bumps(x - e, z)) / (2.0f * e);
            const float gz = (sw__bumps(x, z + e) - sw__bumps(x, z - e)) / (2.0f * e);
            *normal = sw_vec3_normalize(sw_vec3_make(-gx, 1.0f, -gz));
        }
    }
    return h;
}

float sw_showcase_ground_height(float x, float z) {
    return sw__sc_ground(x, z, NULL);
}

bool sw__sc_ray(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                sw_vec3* normal) {
    (void)user;
    if (dir.y < -0.999f) { /* down: the ground under the ray's start */
        sw_vec3 n;
        const float g = sw__sc_ground(from.x, from.z, &n);
        const float d = from.y - g;
        if (d < 0.0f || d > max_distance) return false;
        *point = sw_vec3_make(from.x, g, from.z);
        *normal = n;
        return true;
    }
    if (dir.y > 0.999f) { /* up: the beam's underside */
        const float dx = from.x - SW__SC_SPIDER_X, dz = from.z - SW__SC_SPIDER_Z;
        if (fabsf(dx) > SW__SC_BEAM_HALF || dz < SW__SC_BEAM_Z0 || dz > SW__SC_BEAM_Z1)
            return false;
        const float d = SW__SC_BEAM_Y - from.y;
        if (d < 0.0f || d > max_distance) return false;
        *point = sw_vec3_make(from.x, SW__SC_BEAM_Y, from.z);
        *normal = sw_vec3_make(0.0f, -1.0f, 0.0f);
        return true;
    }
    return false; /* only vertical rays are asked for */
}
