/* 23_camera_shake: the hit effects of one punch. A camera shake (position,
 * rotation, field of view) under a fade-in / hold / fade-out envelope, a
 * field-of-view narrowing pulse, and a hit pause that slows game time.
 *
 *     example_23_camera_shake [DATA_FILE]
 *
 * Checks: the shake is zero outside its window and never beyond its
 * amplitudes; the same seed gives the same shake, another seed a different
 * one; the fov pulse envelope is continuous; the hit pause gives the same
 * game time at 30 and 240 frames per second. With DATA_FILE, writes the
 * signals for docs/plots/motion_shake.gp. Exit code 0 when every check
 * passes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sinew/procedural/hit.h"

int main(int argc, char** argv) {
    FILE* data = argc > 1 ? fopen(argv[1], "w") : NULL;
    if (argc > 1 && !data) {
        fprintf(stderr, "cannot write %s\n", argv[1]);
        return 1;
    }
    const sw_shake_desc shake = {
        .position_amplitude = {0.04f, 0.03f, 0.0f},
        .position_frequency = 14.0f,
        .rotation_amplitude = {0.015f, 0.01f, 0.03f},
        .rotation_frequency = 10.0f,
        .fov_amplitude = 0.02f,
        .fov_frequency = 6.0f,
        .fade_in = 0.04f,
        .hold = 0.12f,
        .fade_out = 0.45f,
        .seed = 2024u,
    };
    const sw_fov_pulse_desc pulse = {
        .amount = 0.12f, .attack = 0.05f, .hold = 0.08f, .release = 0.35f};
    const float window = sw_shake_duration(&shake);
    sw_shake_desc other = shake;
    other.seed = 2025u;

    bool zero_outside = true, bounded = true, same_seed = true;
    float seed_diff = 0.0f, worst_jump = 0.0f, prev_env = 0.0f;
    if (data) fprintf(data, "# t envelope*amp_x position_x rotation_z fov_shake fov_pulse\n");
    const float dt = 0.001f;
    for (int i = -100; i <= 800; ++i) {
        const float t = (float)i * dt;
        const sw_shake_sample s = sw_shake_eval(&shake, t);
        const sw_shake_sample again = sw_shake_eval(&shake, t);
        const sw_shake_sample o = sw_shake_eval(&other, t);
        if (t < 0.0f || t > window)
            zero_outside = zero_outside && s.envelope == 0.0f && s.position.x == 0.0f &&
                           s.rotation.z == 0.0f && s.fov == 0.0f;
        bounded = bounded && fabsf(s.position.x) <= shake.position_amplitude.x &&
                  fabsf(s.position.y) <= shake.position_amplitude.y &&
                  fabsf(s.rotation.x) <= shake.rotation_amplitude.x &&
                  fabsf(s.rotation.y) <= shake.rotation_amplitude.y &&
                  fabsf(s.rotation.z) <= shake.rotation_amplitude.z &&
                  fabsf(s.fov) <= shake.fov_amplitude;
        same_seed = same_seed && memcmp(&s, &again, sizeof s) == 0;
        seed_diff = fmaxf(seed_diff, fabsf(s.position.x - o.position.x));
        const float env = sw_fov_pulse_envelope(&pulse, t);
        worst_jump = fmaxf(worst_jump, fabsf(env - prev_env));
        prev_env = env;
        if (data)
            fprintf(data, "%.4f %.6f %.6f %.6f %.6f %.6f\n", (double)t,
                    (double)(s.envelope * shake.position_amplitude.x), (double)s.position.x,
                    (double)s.rotation.z, (double)s.fov, (double)sw_fov_pulse_eval(&pulse, t));
    }
    if (data) fclose(data);

    /* The camera with the shake on top, at the peak of the hold. */
    const sw_xform camera = {{0, 1.6f, 4}, {0, 0, 0, 1}, {1, 1, 1}};
    const sw_shake_sample peak = sw_shake_eval(&shake, 0.1f);
    const sw_xform shaken = sw_shake_apply(camera, &peak);
    printf("camera at t = 0.1 s: (%.4f, %.4f, %.4f), fov %+.4f rad (shake) %+.4f rad (pulse)\n",
           (double)shaken.t.x, (double)shaken.t.y, (double)shaken.t.z, (double)peak.fov,
           (double)sw_fov_pulse_eval(&pulse, 0.1f));

    /* Hit pause: 0.1 s at 0.05 speed, then normal; 0.5 s of real time. */
    float game[2] = {0.0f, 0.0f};
    const int rates[2] = {30, 240};
    for (int k = 0; k < 2; ++k) {
        sw_hit_pause pause = {0};
        sw_hit_pause_start(&pause, 0.1f, 0.05f);
        for (int f = 0; f < rates[k] / 2; ++f)
            game[k] += sw_hit_pause_scale_dt(&pause, 1.0f / (float)rates[k]);
    }
    printf("hit pause 0.1 s at 0.05: 0.5 s of real time is %.6f s (30 fps) and %.6f s (240 fps) "
           "of game time (expected 0.405)\n",
           (double)game[0], (double)game[1]);

    int failed = 0;
    printf("check: zero outside [0, %.2f] s: %s\n", (double)window, zero_outside ? "ok" : "FAILED");
    failed |= !zero_outside;
    printf("check: every channel within its amplitude: %s\n", bounded ? "ok" : "FAILED");
    failed |= !bounded;
    printf("check: same seed, same shake: %s\n", same_seed ? "ok" : "FAILED");
    failed |= !same_seed;
    printf("check: another seed differs by up to %.4f m: %s\n", (double)seed_diff,
           seed_diff > 0.005f ? "ok" : "FAILED");
    failed |= !(seed_diff > 0.005f);
    printf("check: fov pulse envelope continuous (largest step %.4f per ms, limit 0.031): %s\n",
           (double)worst_jump, worst_jump <= 0.031f ? "ok" : "FAILED");
    failed |= !(worst_jump <= 0.031f);
    const bool pause_ok = fabsf(game[0] - 0.405f) <= 1e-5f && fabsf(game[1] - 0.405f) <= 1e-5f;
    printf("check: hit pause exact at both frame rates: %s\n", pause_ok ? "ok" : "FAILED");
    failed |= !pause_ok;
    return failed ? 1 : 0;
}
