/* viewer/workbench.h: the viewer's animator workbench (workbench.c): an
 * animator definition read from JSON (the file `sinew play` takes), its
 * parameters as the page's panel moves them, the events it reported and
 * the live state of its machines and layers as JSON for the page. The
 * animation itself is the runtime's (sw_animator_update / _evaluate, run
 * by main.c); this part parses, keeps the panel's values and prints. */
#ifndef SINEW_VIEWER_WORKBENCH_H
#define SINEW_VIEWER_WORKBENCH_H

#include <stddef.h>

#include "sinew/animator/animator.h"
#include "sinew/tools/readers/animator_json.h"

#define WORKBENCH_LOG 24      /* events kept for the page's log */
#define WORKBENCH_EVENTS 64   /* events read per update */
#define WORKBENCH_STATES 64   /* playing states shown */
#define WORKBENCH_CONTRIBS 96 /* playing clips shown */

typedef struct workbench_event {
    double time; /* the viewer's clock when it was reported (s) */
    char text[120];
} workbench_event;

typedef struct workbench {
    sw_animator_json json; /* the definition (owned); json.animator NULL when none */
    char name[128];        /* its file name */
    float params[SW_ANIMATOR_MAX_PARAMS];
    sw_animator_idle idle; /* the file's randomized idle channels, when it has some */
    sw_animator_event events[WORKBENCH_EVENTS];
    workbench_event log[WORKBENCH_LOG]; /* ring, newest at (log_next - 1) */
    uint32_t log_next;
    uint64_t events_total;
    sw_animator_root_motion last_rm;
    double travelled; /* root motion distance so far (m, the character's units) */
} workbench;

/* Writes s as a JSON string (quoted, escaped) at out (cap bytes at most);
 * returns the bytes written. */
size_t viewer_json_string(char* out, size_t cap, const char* s);

/* Reads `size` bytes of animator JSON into wb (replacing what it held) and
 * resets the parameters to their defaults. On failure wb is unchanged and
 * `error` (cap bytes) names the file and the failed check. */
bool workbench_load(workbench* wb, const char* text, size_t size, const char* name, char* error,
                    size_t cap);
/* Frees the definition; wb is then empty. */
void workbench_free(workbench* wb);
/* Clears the event log and the root motion totals (a new binding or character). */
void workbench_reset(workbench* wb);
/* Records the events of one update (count as sw_animator_update gave it) at time `now`. */
void workbench_log(workbench* wb, const sw_animator_bound* bound, uint32_t count, double now);
/* Appends the definition's state as JSON to out[n..cap): parameters (name,
 * type, value, range, the move role), machines (current state, fade), layers
 * (weight), the playing states and clips (weight within its state, phase),
 * the root motion and the event log. Returns the new length. */
size_t workbench_status(const workbench* wb, const sw_animator_instance* inst,
                        const sw_animator_bound* bound, char* out, size_t cap, size_t n);

#endif
