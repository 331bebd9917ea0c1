/* Shared by the benchmarks: a clock and the median of a set of runs. */
#ifndef SINEW_BENCH_UTIL_H
#define SINEW_BENCH_UTIL_H

#include <stdlib.h>
#include <time.h>

/* CPU time of the calling thread in ns: time spent descheduled on a busy
 * machine does not count. */
static inline double bench_thread_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int bench_cmp_double(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n) (n >= 1); sorts v in place. */
static inline double bench_median(double* v, int n) {
    qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
