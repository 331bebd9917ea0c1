/* sinew/scale/pool.h: a worker pool for batches of independent work (crowds).
 *
 * A pool has `threads` participants: the thread that calls sw_pool_run
 * (worker 0) and threads - 1 worker threads created once by sw_pool_create.
 * Between runs the workers sleep on a condition variable; they use no CPU.
 *
 *     sw_pool* pool = NULL;
 *     sw_pool_create(2, NULL, &pool);                  // caller + 1 thread
 *     sw_pool_run(pool, my_fn, &my_ctx, 1000, 16);     // blocks until all done
 *     sw_pool_destroy(pool);
 *
 * sw_pool_run splits [0, count) into chunks of `grain` indices (the last one
 * shorter), and each participant claims the next unclaimed chunk with one
 * atomic add (no lock per chunk) and calls fn(ctx, begin, end, worker) on it.
 * Every index is passed exactly once. Which worker gets which chunk depends
 * on timing: fn must give the same result for an index whichever worker runs
 * it (use `worker` only to pick per-worker scratch memory), and then the
 * results do not depend on the thread count. The runtime's only use of
 * threads is here (POSIX threads; glibc has them in libc).
 *
 * Threads: one sw_pool_run at a time per pool (a second concurrent call, or
 * a call from inside fn, returns INVALID_ARGUMENT). fn runs concurrently on
 * different chunks and must not write what other chunks read.
 */
#ifndef SINEW_POOL_H
#define SINEW_POOL_H

#include "sinew/core/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_POOL_MAX_THREADS 256

typedef struct sw_pool sw_pool;

/* Work for indices [begin, end) on participant `worker` (0 = the caller of
 * sw_pool_run, 1..threads-1 the pool's threads). */
typedef void (*sw_pool_fn)(void* ctx, uint32_t begin, uint32_t end, uint32_t worker);

/* Creates a pool of `threads` participants (1..SW_POOL_MAX_THREADS; 0 means 1),
 * starting threads - 1 threads that wait for work.
 * Memory: one block from `alloc` (NULL: libc); free with sw_pool_destroy.
 * Fails: INVALID_ARGUMENT (NULL out); LIMIT (threads above the maximum);
 * OUT_OF_MEMORY (allocation, or the system refused a thread, a mutex or a
 * condition variable; nothing is left running). *out is NULL on failure. */
SINEW_API sw_result sw_pool_create(uint32_t threads, const sw_allocator* alloc, sw_pool** out);

/* Stops and joins the threads and frees the pool (NULL: no-op). Must not be
 * called while a run is in progress. */
SINEW_API void sw_pool_destroy(sw_pool* pool);

/* Participants of the pool (the `threads` given to create), 0 for NULL. */
SINEW_API uint32_t sw_pool_threads(const sw_pool* pool);

/* Calls fn over [0, count) in chunks of `grain` indices (0: about 8 chunks
 * per participant) on every participant, and returns when all chunks are
 * done. count 0 returns at once. With one participant, or one chunk, fn runs
 * on the caller only, without waking the threads.
 * Fails: INVALID_ARGUMENT (NULL pool or fn; a run already in progress). */
SINEW_API sw_result sw_pool_run(sw_pool* pool, sw_pool_fn fn, void* ctx, uint32_t count,
                                uint32_t grain);

#ifdef __cplusplus
}
#endif

#endif
