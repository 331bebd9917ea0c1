/* 20_springs: a critically damped spring by half-life, stepped at 30 and at
 * 240 frames per second, gives the same motion; a damper beside it.
 *
 *     example_20_springs [DATA_FILE]
 *
 * Prints the two trajectories at shared times and checks that they agree
 * within 1e-4, that the spring covers half the distance in one half-life
 * from rest and never overshoots. With DATA_FILE, writes the trajectories
 * for docs/plots/motion_springs.gp (gnuplot blocks: 240 fps, 30 fps,
 * damper). Exit code 0 when every check passes. */
#include <math.h>
#include <stdio.h>

#include "sinew/procedural/spring.h"

/* The goal: 1 from t = 0, -0.5 from t = 1 s. */
static float goal_at(float t) {
    return t < 1.0f ? 1.0f : -0.5f;
}

int main(int argc, char** argv) {
    const float half_life = 0.2f, duration = 2.0f;
    FILE* data = argc > 1 ? fopen(argv[1], "w") : NULL;
    if (argc > 1 && !data) {
        fprintf(stderr, "cannot write %s\n", argv[1]);
        return 1;
    }
    int failed = 0;

    /* 240 fps: 8 steps per 30 fps frame; the goal only changes on 30 fps frames. */
    sw_spring_float fast = {0}, slow = {0};
    float damper = 0.0f;
    float worst = 0.0f;
    bool overshoot = false;
    float at_half_life = NAN;
    if (data) fprintf(data, "# t  value(240fps)  velocity  goal\n0 0 0 1\n");
    printf("half-life %.2f s; goal 1 from t = 0, -0.5 from t = 1 s\n", (double)half_life);
    printf("    t     30 fps     240 fps      |diff|\n");
    const int frames = (int)(duration * 30.0f + 0.5f);
    for (int f = 0; f < frames; ++f) {
        const float t0 = (float)f / 30.0f;
        const float g = goal_at(t0 + 1e-6f);
        for (int k = 1; k <= 8; ++k) {
            sw_spring_float_update(&fast, g, half_life, 1.0f / 240.0f);
            if (data)
                fprintf(data, "%.6f %.6f %.6f %.3f\n", (double)(t0 + (float)k / 240.0f),
                        (double)fast.value, (double)fast.velocity, (double)g);
        }
        sw_spring_float_update(&slow, g, half_life, 1.0f / 30.0f);
        damper = sw_spring_damp_float(damper, g, half_life, 1.0f / 30.0f);
        const float t1 = (float)(f + 1) / 30.0f;
        const float diff = fabsf(fast.value - slow.value);
        worst = fmaxf(worst, diff);
        if (t1 < 1.0f && slow.value > 1.0f) overshoot = true;
        if (f + 1 == 6) at_half_life = slow.value; /* t = 0.2 s = one half-life */
        if ((f + 1) % 6 == 0)
            printf("%5.2f  %9.6f  %9.6f  %10.3g\n", (double)t1, (double)slow.value,
                   (double)fast.value, (double)diff);
    }
    if (data) {
        /* Block 1: the 30 fps spring and damper re-run for the file. */
        fprintf(data, "\n\n# t  value(30fps)  damper(30fps)\n0 0 0\n");
        sw_spring_float s = {0};
        float d = 0.0f;
        for (int f = 0; f < frames; ++f) {
            const float g = goal_at((float)f / 30.0f + 1e-6f);
            sw_spring_float_update(&s, g, half_life, 1.0f / 30.0f);
            d = sw_spring_damp_float(d, g, half_life, 1.0f / 30.0f);
            fprintf(data, "%.6f %.6f %.6f\n", (double)((float)(f + 1) / 30.0f), (double)s.value,
                    (double)d);
        }
        fclose(data);
    }

    printf("check: 30 vs 240 fps worst difference %.3g (limit 1e-4): %s\n", (double)worst,
           worst <= 1e-4f ? "ok" : "FAILED");
    failed |= !(worst <= 1e-4f);
    printf("check: after one half-life from rest the value is %.6f (expected 0.5): %s\n",
           (double)at_half_life, fabsf(at_half_life - 0.5f) <= 1e-5f ? "ok" : "FAILED");
    failed |= !(fabsf(at_half_life - 0.5f) <= 1e-5f);
    printf("check: no overshoot of the first goal from rest: %s\n", overshoot ? "FAILED" : "ok");
    failed |= overshoot;
    printf("damper at t = 2 s: %.6f (goal -0.5)\n", (double)damper);
    return failed ? 1 : 0;
}
