/* Worker pool: POSIX threads, one mutex and two condition variables for
 * waking and joining, an atomic chunk counter for the work itself. */
#include "sinew/scale/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "shared/layout.h"

typedef struct sw__pool_worker {
    sw_pool* pool;
    uint32_t index;
} sw__pool_worker;

struct sw_pool {
    sw_allocator alloc;
    size_t bytes;
    uint32_t threads;
    pthread_t* handles;       /* threads - 1 */
    sw__pool_worker* workers; /* threads - 1, index 1.. */
    pthread_mutex_t mu;
    pthread_cond_t wake; /* workers wait here for a new generation */
    pthread_cond_t done; /* the caller waits here for busy == 0 */
    uint64_t generation; /* bumped by each run that wakes the workers */
    uint32_t busy;       /* workers still inside the current run */
    bool quit;
    atomic_bool running; /* a run is in progress (reentrancy guard) */
    /* the current run; written under mu before the generation is bumped */
    sw_pool_fn fn;
    void* ctx;
    uint32_t count, grain, chunks;
    atomic_uint_least64_t next; /* next chunk to claim (64 bits: never wraps) */
};

/* Claims chunks until none are left. */
static void sw__pool_work(sw_pool* p, uint32_t worker) {
    for (;;) {
        const uint64_t c64 = atomic_fetch_add_explicit(&p->next, 1u, memory_order_relaxed);
        if (c64 >= p->chunks) return;
        const uint32_t c = (uint32_t)c64;
        const uint32_t begin = c * p->grain;
        const uint32_t end = p->count - begin < p->grain ? p->count : begin + p->grain;
        p->fn(p->ctx, begin, end, worker);
    }
}

static void* sw__pool_main(void* arg) {
    sw__pool_worker* w = (sw__pool_worker*)arg;
    sw_pool* p = w->pool;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->generation == seen && !p->quit)
            pthread_cond_wait(&p->wake, &p->mu);
        if (p->quit) break;
        seen = p->generation;
        pthread_mutex_unlock(&p->mu);
        sw__pool_work(p, w->index);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Joins the first `started` threads (after telling them to quit). */
static void sw__pool_stop(sw_pool* p, uint32_t started) {
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t i = 0; i < started; ++i)
        pthread_join(p->handles[i], NULL);
}

sw_result sw_pool_create(uint32_t threads, const sw_allocator* alloc, sw_pool** out) {
    if (!out) return SW_RESULT_INVALID_ARGUMENT;
    *out = NULL;
    if (threads == 0) threads = 1;
    if (threads > SW_POOL_MAX_THREADS) return SW_RESULT_LIMIT;
    const uint32_t n = threads - 1u;
    /* The pool, its thread handles and its workers, each on cache lines. */
    const size_t head = (size_t)sw__align_up(sizeof(sw_pool), 64u);
    const size_t handles = (size_t)sw__align_up(sizeof(pthread_t) * n, 64u);
    const size_t bytes = head + handles + (size_t)sw__align_up(sizeof(sw__pool_worker) * n, 64u);
    char* mem = (char*)sw_alloc(alloc, bytes, 64);
    if (!mem) return SW_RESULT_OUT_OF_MEMORY;
    memset(mem, 0, bytes);
    sw_pool* p = (sw_pool*)(void*)mem;
    if (alloc) p->alloc = *alloc;
    p->bytes = bytes;
    p->threads = threads;
    p->handles = (pthread_t*)(void*)(mem + head);
    p->workers = (sw__pool_worker*)(void*)(mem + head + handles);
    atomic_init(&p->running, false);
    atomic_init(&p->next, 0u);
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        sw_free(alloc, mem, bytes);
        return SW_RESULT_OUT_OF_MEMORY;
    }
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        sw_free(alloc, mem, bytes);
        return SW_RESULT_OUT_OF_MEMORY;
    }
    if (pthread_cond_init(&p->done, NULL) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->mu);
        sw_free(alloc, mem, bytes);
        return SW_RESULT_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < n; ++i) {
        p->workers[i].pool = p;
        p->workers[i].index = i + 1u;
        if (pthread_create(&p->handles[i], NULL, sw__pool_main, &p->workers[i]) != 0) {
            sw__pool_stop(p, i);
            pthread_cond_destroy(&p->done);
            pthread_cond_destroy(&p->wake);
            pthread_mutex_destroy(&p->mu);
            sw_free(alloc, mem, bytes);
            return SW_RESULT_OUT_OF_MEMORY;
        }
    }
    *out = p;
    return SW_RESULT_OK;
}

void sw_pool_destroy(sw_pool* pool) {
    if (!pool) return;
    sw__pool_stop(pool, pool->threads - 1u);
    pthread_cond_destroy(&pool->done);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->mu);
    const sw_allocator alloc = pool->alloc;
    sw_free(&alloc, pool, pool->bytes);
}

uint32_t sw_pool_threads(const sw_pool* pool) {
    return pool ? pool->threads : 0u;
}

sw_result sw_pool_run(sw_pool* pool, sw_pool_fn fn, void* ctx, uint32_t count, uint32_t grain) {
    if (!pool || !fn) return SW_RESULT_INVALID_ARGUMENT;
    if (count == 0) return SW_RESULT_OK;
    bool idle = false;
    if (!atomic_compare_exchange_strong(&pool->running, &idle, true)) {
        return SW_RESULT_INVALID_ARGUMENT;
    }
    if (grain == 0) {
        const uint32_t parts = pool->threads * 8u;
        grain = count / parts + (count % parts != 0);
    }
    const uint32_t chunks = count / grain + (count % grain != 0);
    pool->fn = fn;
    pool->ctx = ctx;
    pool->count = count;
    pool->grain = grain;
    pool->chunks = chunks;
    atomic_store_explicit(&pool->next, 0u, memory_order_relaxed);
    if (pool->threads == 1 || chunks == 1) {
        sw__pool_work(pool, 0);
    } else {
        pthread_mutex_lock(&pool->mu);
        pool->busy = pool->threads - 1u;
        ++pool->generation;
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->mu);
        sw__pool_work(pool, 0);
        pthread_mutex_lock(&pool->mu);
        while (pool->busy != 0)
            pthread_cond_wait(&pool->done, &pool->mu);
        pthread_mutex_unlock(&pool->mu);
    }
    atomic_store(&pool->running, false);
    return SW_RESULT_OK;
}
