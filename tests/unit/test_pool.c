/* test_pool: the worker pool runs every index exactly once, in chunks of at
 * most `grain`, on valid worker indices, for many counts, grains and thread
 * counts; the threads really take part; argument checks, reentrancy and
 * allocation failure. */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <time.h>

#include "sinew/scale/pool.h"
#include "test_util.h"

typedef struct hits_ctx {
    atomic_int* hits;
    uint32_t grain; /* expected chunk size (0: not checked) */
    uint32_t threads;
    atomic_int bad; /* chunks that broke a rule */
    atomic_int calls;
} hits_ctx;

static void count_hits(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    hits_ctx* h = (hits_ctx*)ctx;
    atomic_fetch_add(&h->calls, 1);
    if (begin >= end || worker >= h->threads || (h->grain && end - begin > h->grain)) {
        atomic_fetch_add(&h->bad, 1);
    }
    for (uint32_t i = begin; i < end; ++i)
        atomic_fetch_add(&h->hits[i], 1);
}

static void test_every_index_once(void** state) {
    (void)state;
    const uint32_t threads[] = {1, 2, 3, 8};
    const uint32_t counts[] = {0, 1, 2, 3, 7, 16, 63, 64, 65, 1000, 4097};
    const uint32_t grains[] = {0, 1, 2, 5, 16, 64, 5000};
    atomic_int* hits = (atomic_int*)malloc(sizeof(atomic_int) * 4097);
    uint32_t runs = 0;
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; ++t) {
        sw_pool* pool = NULL;
        assert_int_equal(sw_pool_create(threads[t], NULL, &pool), SW_RESULT_OK);
        assert_int_equal(sw_pool_threads(pool), threads[t]);
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
            for (size_t g = 0; g < sizeof grains / sizeof grains[0]; ++g) {
                for (int rep = 0; rep < 3; ++rep) { /* the same pool, again and again */
                    for (uint32_t i = 0; i < counts[c]; ++i)
                        atomic_init(&hits[i], 0);
                    hits_ctx h;
                    h.hits = hits;
                    h.grain = grains[g];
                    h.threads = threads[t];
                    atomic_init(&h.bad, 0);
                    atomic_init(&h.calls, 0);
                    assert_int_equal(sw_pool_run(pool, count_hits, &h, counts[c], grains[g]),
                                     SW_RESULT_OK);
                    assert_int_equal(atomic_load(&h.bad), 0);
                    for (uint32_t i = 0; i < counts[c]; ++i) {
                        if (atomic_load(&hits[i]) != 1) {
                            fail_msg("threads %u count %u grain %u: index %u ran %d times",
                                     threads[t], counts[c], grains[g], i, atomic_load(&hits[i]));
                        }
                    }
                    if (grains[g] > 0) { /* exactly ceil(count / grain) chunks */
                        const uint32_t chunks = (counts[c] + grains[g] - 1u) / grains[g];
                        assert_int_equal(atomic_load(&h.calls), chunks);
                    }
                    ++runs;
                }
            }
        }
        sw_pool_destroy(pool);
    }
    free(hits);
    print_message("%u runs, every index exactly once\n", runs);
}

/* Chunk 0 waits (up to 10 s) until another participant has run a chunk: with
 * two or more threads, the pool's threads take part in a run. */
typedef struct wait_ctx {
    atomic_int others;
    atomic_int seen_worker_mask;
} wait_ctx;

static void wait_for_others(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    wait_ctx* w = (wait_ctx*)ctx;
    (void)end;
    atomic_fetch_or(&w->seen_worker_mask, 1 << worker);
    if (begin == 0) {
        const struct timespec nap = {0, 1000000};
        for (int k = 0; k < 10000 && atomic_load(&w->others) == 0; ++k)
            nanosleep(&nap, NULL);
    } else {
        atomic_fetch_add(&w->others, 1);
    }
}

static void test_threads_take_part(void** state) {
    (void)state;
    for (uint32_t threads = 2; threads <= 4; ++threads) {
        sw_pool* pool = NULL;
        assert_int_equal(sw_pool_create(threads, NULL, &pool), SW_RESULT_OK);
        wait_ctx w;
        atomic_init(&w.others, 0);
        atomic_init(&w.seen_worker_mask, 0);
        assert_int_equal(sw_pool_run(pool, wait_for_others, &w, 64, 1), SW_RESULT_OK);
        /* the caller was stuck in chunk 0 while 63 others were run by the threads */
        assert_int_equal(atomic_load(&w.others), 63);
        assert_true(atomic_load(&w.seen_worker_mask) > 1);
        sw_pool_destroy(pool);
    }
}

typedef struct reenter_ctx {
    sw_pool* pool;
    atomic_int nested_result;
} reenter_ctx;

static void nop(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)ctx, (void)begin, (void)end, (void)worker;
}

static void reenter(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    reenter_ctx* r = (reenter_ctx*)ctx;
    (void)begin, (void)end, (void)worker;
    atomic_store(&r->nested_result, (int)sw_pool_run(r->pool, nop, NULL, 10, 1));
}

static int fail_allocs = 0;
static void* failing_alloc(void* user, size_t size, size_t align) {
    (void)user, (void)size, (void)align;
    ++fail_allocs;
    return NULL;
}
static void failing_free(void* user, void* ptr, size_t size) {
    (void)user, (void)ptr, (void)size;
}

static void test_arguments(void** state) {
    (void)state;
    sw_pool* pool = (sw_pool*)(uintptr_t)1;
    assert_int_equal(sw_pool_create(1, NULL, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_pool_create(SW_POOL_MAX_THREADS + 1u, NULL, &pool), SW_RESULT_LIMIT);
    assert_null(pool);
    const sw_allocator bad = {failing_alloc, failing_free, NULL};
    pool = (sw_pool*)(uintptr_t)1;
    assert_int_equal(sw_pool_create(4, &bad, &pool), SW_RESULT_OUT_OF_MEMORY);
    assert_null(pool);
    assert_int_equal(fail_allocs, 1);
    assert_int_equal(sw_pool_run(NULL, nop, NULL, 1, 1), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_pool_threads(NULL), 0);
    sw_pool_destroy(NULL);

    assert_int_equal(sw_pool_create(0, NULL, &pool), SW_RESULT_OK); /* 0 means 1 */
    assert_int_equal(sw_pool_threads(pool), 1);
    assert_int_equal(sw_pool_run(pool, NULL, NULL, 1, 1), SW_RESULT_INVALID_ARGUMENT);
    sw_pool_destroy(pool);

    for (uint32_t threads = 1; threads <= 3; threads += 2) {
        assert_int_equal(sw_pool_create(threads, NULL, &pool), SW_RESULT_OK);
        reenter_ctx r;
        r.pool = pool;
        atomic_init(&r.nested_result, -1);
        assert_int_equal(sw_pool_run(pool, reenter, &r, 1, 1), SW_RESULT_OK);
        assert_int_equal(atomic_load(&r.nested_result), SW_RESULT_INVALID_ARGUMENT);
        /* and the pool still works afterwards */
        assert_int_equal(sw_pool_run(pool, nop, NULL, 100, 3), SW_RESULT_OK);
        sw_pool_destroy(pool);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_index_once),
        cmocka_unit_test(test_threads_take_part),
        cmocka_unit_test(test_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
