/* Running work in a child process: fork, a pipe carrying a fixed header and
 * the child's bytes, poll with a deadline, SIGKILL on timeout, waitpid. */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/readers/isolate.h"

#define SW__ISOLATE_DEFAULT_TIMEOUT_MS 30000u
#define SW__ISOLATE_DEFAULT_MAX_OUTPUT ((uint64_t)1 << 30)
#define SW__ISOLATE_CHECK_TEXT 128

/* Fixed-size header the child writes before its bytes. */
typedef struct sw__isolate_header {
    char magic[8]; /* "SWISOLAT" */
    int32_t result;
    uint32_t reserved;
    uint64_t size;
    uint64_t check_ptr; /* the child's err.check pointer (same address space image) */
    uint64_t offset;
    int64_t index;
    int64_t sys_errno;
    char check_text[SW__ISOLATE_CHECK_TEXT];
    char detail[SW_ERROR_DETAIL_SIZE];
    char message[SW_ISOLATE_MESSAGE_SIZE];
} sw__isolate_header;

static const char sw__isolate_magic[8] = {'S', 'W', 'I', 'S', 'O', 'L', 'A', 'T'};

static uint64_t sw__now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static bool sw__write_all(int fd, const void* data, size_t size) {
    const char* p = (const char*)data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= (size_t)n;
    }
    return true;
}

static void sw__copy_text(char* dst, size_t cap, const char* src) {
    size_t n = src ? strnlen(src, cap - 1) : 0;
    if (n) memcpy(dst, src, n);
    dst[n] = '\0';
}

/* ---- child ---- */

#if defined(__SANITIZE_ADDRESS__)
#define SW__ISOLATE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SW__ISOLATE_ASAN 1
#endif
#endif

/* Limits the address space to what the child has now plus `extra` bytes
 * (Linux: the size from /proc/self/statm). Not under AddressSanitizer,
 * whose shadow memory counts as address space. */
static void sw__isolate_limit_memory(uint64_t extra) {
#ifdef SW__ISOLATE_ASAN
    (void)extra;
#else
    FILE* f = fopen("/proc/self/statm", "r");
    if (!f) return;
    unsigned long long pages = 0;
    const int got = fscanf(f, "%llu", &pages);
    fclose(f);
    const long page = sysconf(_SC_PAGESIZE);
    if (got != 1 || page <= 0) return;
    const uint64_t now = (uint64_t)pages * (uint64_t)page;
    const uint64_t cap = extra > UINT64_MAX - now ? UINT64_MAX : now + extra;
    if (cap >= (uint64_t)RLIM_INFINITY) return;
    struct rlimit rl = {(rlim_t)cap, (rlim_t)cap};
    setrlimit(RLIMIT_AS, &rl);
#endif
}

static void sw__isolate_child(int fd, sw_isolate_fn fn, void* user, const sw_isolate_options* o,
                              const sw_allocator* alloc) {
    /* Crashes are reported by the parent from the wait status: undo handlers
     * (a sanitizer's, for one) that would turn a signal into an exit code. */
    static const int deadly[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof deadly / sizeof deadly[0]; ++i)
        signal(deadly[i], SIG_DFL);
    if (o->memory_limit) sw__isolate_limit_memory(o->memory_limit);
    sw_isolate_output out;
    memset(&out, 0, sizeof out);
    sw_error e = SW_ERROR_INIT;
    sw_result r = fn(user, alloc, &out, &e);
    sw__isolate_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, sw__isolate_magic, sizeof h.magic);
    h.result = (int32_t)r;
    h.size = (r == SW_RESULT_OK && out.data) ? (uint64_t)out.size : 0u;
    h.check_ptr = (uint64_t)(uintptr_t)e.check;
    h.offset = e.offset;
    h.index = e.index;
    h.sys_errno = e.sys_errno;
    sw__copy_text(h.check_text, sizeof h.check_text, e.check);
    sw__copy_text(h.detail, sizeof h.detail, e.detail);
    out.message[sizeof out.message - 1] = '\0';
    sw__copy_text(h.message, sizeof h.message, out.message);
    bool ok = sw__write_all(fd, &h, sizeof h);
    if (ok && h.size) ok = sw__write_all(fd, out.data, (size_t)h.size);
    close(fd);
    _exit(ok ? 0 : 3);
}

/* ---- parent ---- */

typedef struct sw__static_probe {
    uintptr_t ptr;
    const char* text;
    size_t len; /* without the NUL */
    bool found;
} sw__static_probe;

/* True when probe->ptr lies in a read-only loaded segment of this process
 * and holds probe->text, NUL included: then it is a string literal that the
 * child inherited from the same image, safe to hand out as err->check. */
static int sw__static_probe_cb(struct dl_phdr_info* info, size_t size, void* data) {
    (void)size;
    sw__static_probe* p = (sw__static_probe*)data;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)* ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W) || !(ph->p_flags & PF_R)) continue;
        uintptr_t start = (uintptr_t)info->dlpi_addr + (uintptr_t)ph->p_vaddr;
        uintptr_t end = start + (uintptr_t)ph->p_memsz;
        if (p->ptr < start || p->ptr >= end) continue;
        if (p->len + 1 > end - p->ptr) return 0;
        p->found = memcmp((const void*)p->ptr, p->text, p->len + 1) == 0;
        return 1;
    }
    return 0;
}

static const char* sw__verified_check(uint64_t ptr, const char* text) {
    if (ptr == 0 || ptr > UINTPTR_MAX) return NULL;
    sw__static_probe p = {(uintptr_t)ptr, text, strlen(text), false};
    dl_iterate_phdr(sw__static_probe_cb, &p);
    return p.found ? (const char*)(uintptr_t)ptr : NULL;
}

static const char* sw__signal_check(int sig) {
    switch (sig) {
    case SIGSEGV:
        return "crashed (signal 11)";
    case SIGABRT:
        return "crashed (signal 6)";
    case SIGBUS:
        return "crashed (signal 7)";
    case SIGFPE:
        return "crashed (signal 8)";
    case SIGILL:
        return "crashed (signal 4)";
    case SIGKILL:
        return "crashed (signal 9)";
    case SIGTERM:
        return "crashed (signal 15)";
    case SIGPIPE:
        return "crashed (signal 13)";
    case SIGXCPU:
        return "crashed (signal 24)";
    default:
        return "crashed (other signal)";
    }
}

/* Reads into buf[*got, want) until full, EOF, error or the deadline. Returns
 * 1 when full, 0 at EOF or error, -1 at the deadline. */
static int sw__read_until(int fd, void* buf, size_t want, size_t* got, uint64_t deadline) {
    char* p = (char*)buf;
    while (*got < want) {
        uint64_t now = sw__now_ms();
        if (now >= deadline) return -1;
        uint64_t left = deadline - now;
        struct pollfd pfd = {fd, POLLIN, 0};
        int pr = poll(&pfd, 1, left > 60000u ? 60000 : (int)left);
        if (pr < 0 && errno == EINTR) continue;
        if (pr < 0) return 0;
        if (pr == 0) continue;
        ssize_t n = read(fd, p + *got, want - *got);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return 0;
        *got += (size_t)n;
    }
    return 1;
}

/* Waits for the child until the deadline, then kills it. Returns the wait
 * status; *killed tells whether the deadline passed. */
static int sw__reap(pid_t pid, uint64_t deadline, bool* killed) {
    int status = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) return status;
        if (w < 0 && errno != EINTR) return 0;
        if (sw__now_ms() >= deadline) {
            *killed = true;
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            return status;
        }
        struct timespec ts = {0, 2000000}; /* 2 ms */
        nanosleep(&ts, NULL);
    }
}

sw_result sw_isolate_run(sw_isolate_fn fn, void* user, const sw_isolate_options* options,
                         const sw_allocator* alloc, sw_isolate_result* out, sw_error* err) {
    if (!fn || !out) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    memset(out, 0, sizeof *out);
    out->exit_status = -1;
    sw_isolate_options o = {0, 0, 0};
    if (options) o = *options;
    if (o.timeout_ms == 0) o.timeout_ms = SW__ISOLATE_DEFAULT_TIMEOUT_MS;
    if (o.max_output == 0) o.max_output = SW__ISOLATE_DEFAULT_MAX_OUTPUT;
#ifndef SW__ISOLATE_ASAN
    out->memory_limited = o.memory_limit != 0 && access("/proc/self/statm", R_OK) == 0;
#endif

    int fds[2];
    if (pipe(fds) != 0) return sw__fail(err, SW_RESULT_IO, "pipe", 0, -1);
    uint64_t start = sw__now_ms();
    uint64_t deadline = start + o.timeout_ms;
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return sw__fail(err, SW_RESULT_IO, "fork", 0, -1);
    }
    if (pid == 0) {
        close(fds[0]);
#ifdef __linux__
        /* The child dies with the parent (a killed CLI leaves no reader
         * running); the parent may have died before the call. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(4);
#else
        (void)parent;
#endif
        sw__isolate_child(fds[1], fn, user, &o, alloc);
    }
    close(fds[1]);

    sw__isolate_header h;
    memset(&h, 0, sizeof h);
    size_t got = 0;
    int rd = sw__read_until(fds[0], &h, sizeof h, &got, deadline);
    bool header_ok = rd == 1 && memcmp(h.magic, sw__isolate_magic, sizeof h.magic) == 0;
    sw_result res = SW_RESULT_OK;
    const char* check = NULL;
    bool too_big = header_ok && h.size > o.max_output;
    if (header_ok && h.size > 0 && !too_big) {
        out->data = sw_alloc(alloc, (size_t)h.size, 16);
        if (!out->data) {
            res = SW_RESULT_OUT_OF_MEMORY;
            check = "output allocation";
        } else {
            out->size = (size_t)h.size;
            size_t dgot = 0;
            rd = sw__read_until(fds[0], out->data, out->size, &dgot, deadline);
        }
    }
    close(fds[0]);
    bool killed = false;
    /* The child exits right after writing; a deadline already passed still
     * leaves a moment to collect a child that finished in time. */
    uint64_t reap_deadline = (rd == -1 || too_big) ? sw__now_ms() : deadline;
    int status = sw__reap(pid, reap_deadline, &killed);
    out->elapsed_ms = (uint32_t)(sw__now_ms() - start);
    if (WIFEXITED(status)) out->exit_status = WEXITSTATUS(status);
    /* A child cut off for its output's size dies of the pipe the parent
     * closed (SIGPIPE) or of the kill, whichever comes first: the parent's
     * doing, not a crash (before, a loaded machine's timing could report
     * "crashed (signal 13)" instead of the size). */
    if (WIFSIGNALED(status) && !killed && !too_big) out->signal = WTERMSIG(status);
    out->timed_out = rd == -1 || (killed && !too_big);

    if (header_ok) {
        h.check_text[sizeof h.check_text - 1] = '\0';
        h.detail[sizeof h.detail - 1] = '\0';
        h.message[sizeof h.message - 1] = '\0';
        memcpy(out->message, h.message, sizeof out->message);
        out->child_result = (h.result >= 0 && h.result < (int32_t)SW_RESULT_COUNT)
                                ? (sw_result)h.result
                                : SW_RESULT_BAD_DATA;
    }
    if (res == SW_RESULT_OK) {
        if (out->timed_out) {
            res = SW_RESULT_LIMIT;
            check = "timed out";
        } else if (out->signal) {
            res = SW_RESULT_BAD_DATA;
            check = sw__signal_check(out->signal);
        } else if (!header_ok) {
            res = SW_RESULT_IO;
            check = "child exited without a result";
        } else if (too_big) {
            res = SW_RESULT_LIMIT;
            check = "output size";
        } else if (rd != 1 && h.size > 0) {
            res = SW_RESULT_IO;
            check = "incomplete output from the child";
        } else if (out->child_result != SW_RESULT_OK) {
            res = out->child_result;
            check = sw__verified_check(h.check_ptr, h.check_text);
            if (!check) check = "failed in the child (see message)";
            if (err) {
                err->result = res;
                err->check = check;
                err->offset = h.offset;
                err->index = h.index;
                err->sys_errno = (int)h.sys_errno;
                memcpy(err->detail, h.detail, sizeof err->detail);
            }
            sw_free(alloc, out->data, out->size);
            out->data = NULL;
            out->size = 0;
            return res;
        }
    }
    if (res != SW_RESULT_OK) {
        sw_free(alloc, out->data, out->size);
        out->data = NULL;
        out->size = 0;
        return sw__fail(err, res, check, 0, out->signal ? out->signal : -1);
    }
    return SW_RESULT_OK;
}

void sw_isolate_result_free(sw_isolate_result* r, const sw_allocator* alloc) {
    if (!r) return;
    sw_free(alloc, r->data, r->size);
    memset(r, 0, sizeof *r);
}
