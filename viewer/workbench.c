/* viewer/workbench.c: the animator workbench's definition, panel values,
 * event log and status JSON (workbench.h). */
#include "workbench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

size_t viewer_json_string(char* out, size_t cap, const char* s) {
    size_t n = 0;
    if (n < cap) out[n++] = '"';
    for (; s && *s && n + 7 < cap; ++s) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            out[n++] = '\\';
            out[n++] = (char)ch;
        } else if (ch < 0x20) {
            n += (size_t)snprintf(out + n, cap - n, "\\u%04x", ch);
        } else {
            out[n++] = (char)ch;
        }
    }
    if (n < cap) out[n++] = '"';
    return n;
}

bool workbench_load(workbench* wb, const char* text, size_t size, const char* name, char* error,
                    size_t cap) {
    sw_animator_json aj;
    sw_error err = {0};
    const sw_result r = sw_animator_json_read(text, size, NULL, &aj, &err);
    if (r != SW_RESULT_OK) {
        snprintf(error, cap, "%s: %s (%s, byte %llu, index %lld)", name, sw_result_str(r),
                 err.check ? err.check : "", (unsigned long long)err.offset, (long long)err.index);
        return false;
    }
    workbench_free(wb);
    wb->json = aj;
    snprintf(wb->name, sizeof wb->name, "%s", name);
    sw_animator_params_reset(aj.animator, wb->params, SW_ANIMATOR_MAX_PARAMS);
    sw_animator_idle_init(&wb->idle, aj.idle, aj.idle_count, aj.idle_seed);
    workbench_reset(wb);
    return true;
}

void workbench_free(workbench* wb) {
    sw_animator_json_free(&wb->json, NULL);
    memset(wb, 0, sizeof *wb);
}

void workbench_reset(workbench* wb) {
    wb->log_next = 0;
    wb->events_total = 0;
    wb->travelled = 0.0;
    memset(wb->log, 0, sizeof wb->log);
    memset(&wb->last_rm, 0, sizeof wb->last_rm);
}

void workbench_log(workbench* wb, const sw_animator_bound* bound, uint32_t count, double now) {
    const sw_animator* a = sw_animator_bound_definition(bound);
    const uint32_t n = count < WORKBENCH_EVENTS ? count : WORKBENCH_EVENTS;
    for (uint32_t i = 0; i < n; ++i) {
        const sw_animator_event* e = &wb->events[i];
        workbench_event* o = &wb->log[wb->log_next++ % WORKBENCH_LOG];
        const char* kind = sw_animator_enum_word(SW_ANIMATOR_ENUM_EVENT_KIND, (uint32_t)e->kind);
        o->time = now;
        if (e->kind == SW_ANIMATOR_EVENT_KIND_CLIP)
            snprintf(o->text, sizeof o->text, "%s %s (%s, %s at %.2f s)", kind, e->name,
                     sw_animator_layer_name(a, e->layer), sw_animator_clip_name(a, e->clip),
                     (double)e->time);
        else
            snprintf(o->text, sizeof o->text, "%s %s (%s)", kind ? kind : "event", e->name,
                     sw_animator_layer_name(a, e->layer));
    }
    wb->events_total += count;
}

#define WB_PUT(...)                                                                                \
    do {                                                                                           \
        const int w_ = snprintf(o + n, n < cap ? cap - n : 0, __VA_ARGS__);                        \
        n += w_ > 0 ? (size_t)w_ : 0u;                                                             \
    } while (0)
#define WB_STR(s) (n += n < cap ? viewer_json_string(o + n, cap - n, (s)) : 0u)

/* "params": name, type, value, range and the role desc.move gives it. */
static size_t wb_params(const workbench* wb, char* o, size_t cap, size_t n) {
    const sw_animator* a = wb->json.animator;
    static const char* const roles[3] = {"speed", "strafe", "turn"};
    WB_PUT("\"params\":[");
    for (uint32_t p = 0; p < sw_animator_params_count(a); ++p) {
        float lo = 0.0f, hi = 1.0f;
        sw_animator_param_range(a, p, &lo, &hi);
        const char* role = "";
        for (uint32_t k = 0; k < 3; ++k)
            if (sw_animator_move_param(a, k) == (int32_t)p) role = roles[k];
        WB_PUT("%s{\"name\":", p ? "," : "");
        WB_STR(sw_animator_param_name(a, p));
        WB_PUT(",\"type\":\"%s\",\"value\":%.5g,\"lo\":%.5g,\"hi\":%.5g,\"move\":\"%s\"}",
               sw_animator_enum_word(SW_ANIMATOR_ENUM_PARAM_TYPE,
                                     (uint32_t)sw_animator_param_type_of(a, p)),
               (double)wb->params[p], (double)lo, (double)hi, role);
    }
    WB_PUT("],");
    return n;
}

/* "machines" (current state, crossfade) and "layers" (weight). */
static size_t wb_machines(const sw_animator_instance* inst, const sw_animator_bound* bound, char* o,
                          size_t cap, size_t n) {
    const sw_animator* a = sw_animator_bound_definition(bound);
    WB_PUT("\"machines\":[");
    for (uint32_t m = 0; m < sw_animator_machines_count(a); ++m) {
        const uint32_t cur = sw_animator_current_state(inst, bound, m);
        WB_PUT("%s{\"name\":", m ? "," : "");
        WB_STR(sw_animator_machine_name(a, m));
        WB_PUT(",\"current\":");
        WB_STR(cur == SW_ANIMATOR_NONE ? "" : sw_animator_state_name(a, cur));
        sw_animator_fade_info f;
        if (sw_animator_machine_fade(inst, bound, m, &f)) {
            WB_PUT(",\"fade\":{\"from\":");
            WB_STR(sw_animator_state_name(a, f.from));
            WB_PUT(",\"to\":");
            WB_STR(sw_animator_state_name(a, f.to));
            WB_PUT(",\"progress\":%.4f,\"elapsed\":%.4f,\"duration\":%.4f}", (double)f.progress,
                   (double)f.elapsed, (double)f.duration);
        }
        WB_PUT("}");
    }
    WB_PUT("],\"layers\":[");
    for (uint32_t l = 0; l < sw_animator_layers_count(a); ++l) {
        WB_PUT("%s{\"name\":", l ? "," : "");
        WB_STR(sw_animator_layer_name(a, l));
        WB_PUT(",\"weight\":%.4f}", (double)sw_animator_layer_weight(inst, bound, l));
    }
    WB_PUT("],");
    return n;
}

/* "states": each playing state with its weight in its machine, its time
 * (cycles) and phase, and its clips with their weight within the state
 * (a blend space's weights) and phase. */
static size_t wb_states(const sw_animator_instance* inst, const sw_animator_bound* bound, char* o,
                        size_t cap, size_t n) {
    const sw_animator* a = sw_animator_bound_definition(bound);
    sw_animator_state_info st[WORKBENCH_STATES];
    sw_animator_contribution con[WORKBENCH_CONTRIBS];
    uint32_t ns = sw_animator_states(inst, bound, st, WORKBENCH_STATES);
    uint32_t nc = sw_animator_contributions(inst, bound, con, WORKBENCH_CONTRIBS);
    ns = ns < WORKBENCH_STATES ? ns : WORKBENCH_STATES;
    nc = nc < WORKBENCH_CONTRIBS ? nc : WORKBENCH_CONTRIBS;
    WB_PUT("\"states\":[");
    for (uint32_t i = 0; i < ns; ++i) {
        const double t = st[i].normalized_time;
        WB_PUT("%s{\"machine\":", i ? "," : "");
        WB_STR(sw_animator_machine_name(a, st[i].machine));
        WB_PUT(",\"state\":");
        WB_STR(sw_animator_state_name(a, st[i].state));
        WB_PUT(",\"weight\":%.4f,\"time\":%.4f,\"phase\":%.4f,\"current\":%s,\"clips\":[",
               (double)st[i].weight, t, t - floor(t), st[i].current ? "true" : "false");
        float sum = 0.0f;
        for (uint32_t k = 0; k < nc; ++k)
            if (con[k].state == st[i].state) sum += con[k].weight;
        bool first = true;
        for (uint32_t k = 0; k < nc; ++k) {
            if (con[k].state != st[i].state) continue;
            WB_PUT("%s{\"clip\":", first ? "" : ",");
            WB_STR(sw_animator_clip_name(a, con[k].clip));
            WB_PUT(",\"weight\":%.4f,\"phase\":%.4f}",
                   sum > 0.0f ? (double)(con[k].weight / sum) : 0.0, (double)con[k].phase);
            first = false;
        }
        WB_PUT("]}");
    }
    WB_PUT("],");
    return n;
}

size_t workbench_status(const workbench* wb, const sw_animator_instance* inst,
                        const sw_animator_bound* bound, char* o, size_t cap, size_t n) {
    if (!wb->json.animator) return n;
    WB_PUT("\"animator\":{\"name\":");
    WB_STR(wb->name);
    WB_PUT(",\"bound\":%s,", inst && bound ? "true" : "false");
    n = wb_params(wb, o, cap, n);
    if (inst && bound) {
        n = wb_machines(inst, bound, o, cap, n);
        n = wb_states(inst, bound, o, cap, n);
    }
    const sw_animator_root_motion* rm = &wb->last_rm;
    WB_PUT("\"root_motion\":{\"x\":%.5f,\"z\":%.5f,\"yaw\":%.5f,\"travelled\":%.4f},"
           "\"events_total\":%llu,\"log\":[",
           (double)rm->translation.x, (double)rm->translation.z, (double)rm->yaw, wb->travelled,
           (unsigned long long)wb->events_total);
    const uint32_t kept = wb->log_next < WORKBENCH_LOG ? wb->log_next : WORKBENCH_LOG;
    for (uint32_t i = 0; i < kept; ++i) {
        const workbench_event* e = &wb->log[(wb->log_next - kept + i) % WORKBENCH_LOG];
        WB_PUT("%s{\"time\":%.3f,\"text\":", i ? "," : "", e->time);
        WB_STR(e->text);
        WB_PUT("}");
    }
    WB_PUT("]},");
    return n;
}
