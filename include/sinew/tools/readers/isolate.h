/* sinew/tools/readers/isolate.h: running untrusted work in a child process.
 *
 * Third-party parsers (assimp) can crash, hang or corrupt memory on hostile
 * files. sw_isolate_run forks, runs a function in the child, and has the
 * child send its result back as bytes through a pipe; the parent waits with
 * a time limit and kills the child when it runs out. Whatever the child
 * does, the parent gets bytes to validate or a clear error.
 *
 *     static sw_result work(void* user, const sw_allocator* alloc,
 *                           sw_isolate_output* out, sw_error* err) {
 *         ... fill out->data (allocated with alloc), out->size ...
 *     }
 *     sw_isolate_result r;
 *     sw_result res = sw_isolate_run(work, &args, &(sw_isolate_options){.timeout_ms = 5000},
 *                                    NULL, &r, &err);
 *     ... validate r.data / r.size, then sw_isolate_result_free(&r, NULL) ...
 *
 * POSIX only (fork, pipe, poll, waitpid).
 */
#ifndef SINEW_TOOLS_ISOLATE_H
#define SINEW_TOOLS_ISOLATE_H

#include "sinew/core/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_ISOLATE_MESSAGE_SIZE 256

/* What the child's function hands back. */
typedef struct sw_isolate_output {
    void* data;  /* bytes for the parent, allocated with the allocator given to the fn; or NULL */
    size_t size; /* bytes at data */
    char message[SW_ISOLATE_MESSAGE_SIZE]; /* text for the parent, "" when none */
} sw_isolate_output;

/* Runs in the child. Returns OK with out->data filled, or a failure with
 * err (its check a string literal) and optionally out->message. */
typedef sw_result (*sw_isolate_fn)(void* user, const sw_allocator* alloc, sw_isolate_output* out,
                                   sw_error* err);

typedef struct sw_isolate_options {
    uint32_t timeout_ms;   /* wall-clock limit for the child; 0: 30000 */
    uint64_t memory_limit; /* address space the child may add to what it has at the fork
                              (RLIMIT_AS, from Linux's /proc/self/statm), bytes; 0:
                              unlimited. Not applied under AddressSanitizer (its shadow
                              memory counts as address space) */
    uint64_t max_output;   /* largest output accepted, bytes; 0: 1 GiB */
} sw_isolate_options;

typedef struct sw_isolate_result {
    void* data; /* the child's bytes (16-byte aligned, allocated with the caller's alloc) */
    size_t size;
    char message[SW_ISOLATE_MESSAGE_SIZE]; /* the child's message, also on failure */
    sw_result child_result; /* what the child's function returned (OK when it did not finish) */
    int signal;             /* signal that ended the child, 0 when none (or the parent ended it) */
    int exit_status;        /* exit status when it exited, else -1 */
    bool timed_out;         /* killed after timeout_ms */
    bool memory_limited;    /* the child ran under options->memory_limit (see there) */
    uint32_t elapsed_ms;
} sw_isolate_result;

/* Forks, runs fn(user, alloc, ...) in the child, and collects its output
 * into *out in the parent (options NULL: defaults).
 * Memory: out->data is allocated with `alloc` (NULL: libc); free with
 * sw_isolate_result_free. The child ends with _exit, so its allocations,
 * atexit handlers and leak checks do not run; it resets the handlers of
 * SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT first, so a crash shows as
 * the signal (a sanitizer's or test framework's handler would turn it into
 * an exit status).
 * Fails: INVALID_ARGUMENT (NULL fn or out); LIMIT "timed out" (the child
 * was killed); BAD_DATA "crashed (signal N)" for the common signals,
 * "crashed (other signal)" else (out->signal holds it); IO "fork", "pipe",
 * "child exited without a result" (for instance exit status 1 from a
 * sanitizer), "incomplete output from the child"; LIMIT "output size" over
 * max_output (the parent then ends the child: no signal reported);
 * OUT_OF_MEMORY; otherwise the child's own result and error:
 * err->check is the child's check when it is a string literal of this
 * program (verified), else "failed in the child (see message)", and
 * err->offset, err->index, err->sys_errno and err->detail are the child's.
 * On Linux the child is killed when the calling process dies
 * (PR_SET_PDEATHSIG), so a killed caller leaves no reader running.
 * Threads: only the calling thread exists in the child; call it where no
 * other thread holds a lock the child needs (malloc's is handled by libc). */
SINEW_API sw_result sw_isolate_run(sw_isolate_fn fn, void* user, const sw_isolate_options* options,
                                   const sw_allocator* alloc, sw_isolate_result* out,
                                   sw_error* err);

/* Frees out->data and zeroes *r; a zeroed result is a no-op. */
SINEW_API void sw_isolate_result_free(sw_isolate_result* r, const sw_allocator* alloc);

#ifdef __cplusplus
}
#endif

#endif
