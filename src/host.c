/* host.c: the host backend's build and launch.
 *
 * Input: the CUDA C text of a kernel (what NVRTC would compile), its name
 * and the C types of its runtime parameters.  Output: a HostModule, a
 * dlopen'ed shared object built by the system C++ compiler from
 * mt_host.h (embedded in the library) + the CUDA text + a trampoline
 *
 *     extern "C" void mt_host_entry(void **a, mt_host_thread *self) {
 *         mt_host_self = self; K(*(float* *)a[0], ...); }
 *
 * which fiber_run (fiber.c) calls on every CUDA thread of a grid.
 *
 * Invariants:
 *   - the compiled object is cached on disk under cache_subdir("host") by
 *     a digest of everything that goes into it (header, source, kernel,
 *     parameter types, compiler path, flags), so another process or run
 *     skips the compiler; cache.c stores it sealed (key and content
 *     digest, fsync, rename) and loads only an entry it has checked: a
 *     damaged or foreign entry is rebuilt and replaced;
 *   - the compiler runs through posix_spawn with an argument vector, no
 *     shell, in a process group of its own; its stdout and stderr come
 *     back through a pipe and become the error text; after
 *     MYTRITON_HOST_CC_TIMEOUT seconds (default 300) the group is killed
 *     and the build fails saying so; the temporary directory is removed
 *     on every path;
 *   - MYTRITON_HOST_SANITIZE=undefined adds UBSan to the compiler's
 *     flags (and to the key): the test mode in which any undefined
 *     behaviour of generated code stops the process with a report;
 *   - a launch reads only its module and the context's runtime, which is
 *     safe from many threads (fiber.c): launches need no lock, and the
 *     Python extension runs them without the GIL.
 *
 * Why a fault inside a host kernel is not caught (issue 15, item 6): a
 * SIGSEGV or SIGBUS handler could siglongjmp out of kernel code (its
 * address range is known) and fail the launch, but the process it hands
 * back is not sound.  The fault is only the first out-of-bounds access
 * that hit an unmapped page; the ones before it landed in mapped memory
 * (the allocator's metadata, other tensors, the interpreter's heap) and
 * corrupted it silently: the "double free or corruption" of the issue came
 * from stores that never faulted.  Going on after the report runs on that
 * heap.  The other workers of the grid are mid-program too, and the
 * handlers are the process's, shared with the application (Python's
 * faulthandler, torch).  SIGFPE no longer comes from generated code
 * (division is defined, cuda.c).  The sound answer is to check before
 * the access: checked mode (issue 15, item 4: cuda_check.c's checks,
 * MYTRITON_CHECKED), whose failures stop the program before the access. */
#include "mt.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* a long string is fine for every compiler this builds with; ISO C only
 * promises 4095 characters */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif
#include "mt_host_h.inc"
#include "mt_kernel_rt_h.inc"
#include "mt_cpu_rt_h.inc"
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

extern char **environ;

struct HostModule {
    void *dl;
    mt_host_entry_fn *entry;
    bool waits;      /* the kernel calls __syncthreads or a warp shuffle */
    bool one_thread; /* only thread 0 of a program has any effect */
    bool prints;     /* the kernel calls printf: stdout is flushed after it */
    bool chunked;    /* programs may be handed out a few at a time (cpu) */
};

HostStacks *host_stacks_new(void) { return fiber_runtime_new(); }

void host_stacks_free(HostStacks *s) { fiber_runtime_free(s); }

/* --as-needed: the object uses nothing of libstdc++, and not loading it
 * keeps a C process C (libstdc++'s emergency EH pool, never freed, shows
 * up as a leak under LeakSanitizer once the object is dlclose'd). */
static const char *const host_cxx_flags[] = {
    "-std=c++17", "-O1", "-fno-strict-aliasing", "-fPIC", "-shared", "-pthread", "-w",
    "-Wl,--as-needed",
};
#define HOST_NFLAGS (sizeof host_cxx_flags / sizeof host_cxx_flags[0])

#define HOST_MAX_OUTPUT 65536 /* compiler output kept for the error */

/* run_capture's answer when the exit status cannot be read */
#define HOST_STATUS_UNKNOWN (-2)
/* ... and when the compiler ran out of time and was killed */
#define HOST_STATUS_TIMEOUT (-3)

#define HOST_CC_TIMEOUT_DEFAULT 300.0 /* seconds: a big kernel at -O1 */

static const Loc no_loc = {0, 0};

/* MYTRITON_HOST_SANITIZE=undefined (issue 15's test mode): kernels built
 * with UBSan, stopping at the first report, so that a run of the
 * differential corpus fails on any undefined behaviour in generated code.
 * The flags join the cache key, so such objects never mix with others. */
static const char *const host_ubsan_flags[] = {
    "-fsanitize=undefined", "-fno-sanitize-recover=undefined",
};
#define HOST_NUBSAN (sizeof host_ubsan_flags / sizeof host_ubsan_flags[0])

/* The extra flags the environment asks for: their count, or -1 after an
 * error for a value we do not know. */
static int host_sanitize_flags(Ctx *c, const char *const **flags) {
    const char *env = getenv("MYTRITON_HOST_SANITIZE");
    *flags = NULL;
    if (!env || !*env)
        return 0;
    if (strcmp(env, "undefined") == 0) {
        *flags = host_ubsan_flags;
        return (int)HOST_NUBSAN;
    }
    return diag_error(c, no_loc, MT_ERR_HOST_CC,
                      "MYTRITON_HOST_SANITIZE='%s': the only sanitizer for host kernels "
                      "is 'undefined'", env);
}


/* MYTRITON_HOST_CC_TIMEOUT: seconds the compiler may run (a hung or
 * runaway compile, an ICE after minutes, must not hang the caller);
 * -1 after an error for a value that is not a positive number. */
static double host_cc_timeout(Ctx *c) {
    const char *env = getenv("MYTRITON_HOST_CC_TIMEOUT");
    if (!env || !*env)
        return HOST_CC_TIMEOUT_DEFAULT;
    char *end;
    double t = strtod(env, &end);
    if (end == env || *end || !(t > 0) || t > 1e9) {
        diag_error(c, no_loc, MT_ERR_HOST_CC,
                   "MYTRITON_HOST_CC_TIMEOUT='%s': expected a positive number of seconds",
                   env);
        return -1;
    }
    return t;
}

/* ---- finding the compiler ---- */

static bool is_executable(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           access(path, X_OK) == 0;
}

/* Resolves a program name on PATH into buf; a name with a slash is used
 * as it is. */
static bool find_program(const char *name, char *buf, size_t bufsize) {
    if (strchr(name, '/')) {
        if (strlen(name) >= bufsize || !is_executable(name))
            return false;
        strcpy(buf, name);
        return true;
    }
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        int n = len ? snprintf(buf, bufsize, "%.*s/%s", (int)len, path, name)
                    : snprintf(buf, bufsize, "./%s", name);
        if (n > 0 && (size_t)n < bufsize && is_executable(buf))
            return true;
        path += len;
        if (*path == ':')
            path++;
    }
    return false;
}

static int find_compiler(Ctx *c, char *buf, size_t bufsize) {
    const char *env = getenv("MYTRITON_HOST_CXX");
    if (env && *env) {
        if (find_program(env, buf, bufsize))
            return 0;
        return diag_error(c, no_loc, MT_ERR_HOST_CC,
                          "host compiler '%s' from MYTRITON_HOST_CXX not found "
                          "or not executable", env);
    }
    static const char *const names[] = {"c++", "g++", "clang++"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (find_program(names[i], buf, bufsize))
            return 0;
    return diag_error(c, no_loc, MT_ERR_HOST_CC,
                      "no host C++ compiler found: expected 'c++', 'g++' or "
                      "'clang++' on PATH, or MYTRITON_HOST_CXX");
}

/* ---- files ---- */

static int write_file(const char *path, const char *data, size_t n) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(fd, data + off, n - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    return close(fd);
}

static bool valid_identifier(const char *s) {
    if (!s || !*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                       *s == '_'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* A parameter type is plain C type text: words, spaces and stars. */
static bool valid_ctype(const char *s) {
    if (!s || !*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_' || *s == ' ' || *s == '*'))
            return false;
    return true;
}

/* The translation unit: header, kernel text, trampoline.  aot.c writes
 * it self-contained: mt_host.h's text in place of its #include. */
void host_unit(StrBuf *sb, const char *cuda_src, const char *kernel,
               const char *const *ctypes, int nparams, bool self_contained) {
    if (self_contained) {
        sb_puts(sb, "#line 1 \"mt_host.h\"\n");
        sb_puts(sb, mt_host_header);
    } else {
        sb_puts(sb, "#include \"mt_host.h\"\n");
    }
    /* the conversions kernels call, pasted into the unit so that the cache
     * key, which covers the unit, covers them; the #line keeps the kernel
     * text's line numbers what they were without it */
    sb_puts(sb, "#line 1 \"mt_kernel_rt.h\"\n");
    sb_puts(sb, mt_kernel_rt_header);
    sb_puts(sb, "#line 2 \"kernel.cpp\"\n");
    sb_puts(sb, cuda_src);
    sb_puts(sb, "\n#line 1 \"<mytriton host trampoline>\"\n");
    sb_printf(sb, "extern \"C\" void mt_host_entry(void **a, mt_host_thread *self) {\n"
                  "    mt_host_self = self;\n    %s(",
              kernel);
    for (int i = 0; i < nparams; i++) {
        if (i)
            sb_puts(sb, ", ");
        /* a bool parameter arrives as a byte that may hold any value */
        if (strcmp(ctypes[i], "bool") == 0)
            sb_printf(sb, "(*(const unsigned char *)a[%d] != 0)", i);
        else
            sb_printf(sb, "*(%s *)a[%d]", ctypes[i], i);
    }
    sb_puts(sb, ");\n}\n");
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Reads the child's output until EOF or the deadline; false on timeout. */
static bool read_until(int fd, double deadline, StrBuf *out) {
    char buf[4096];
    for (;;) {
        double left = deadline - now_seconds();
        if (left <= 0)
            return false;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, left > 1e6 ? 1000000000 : (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue; /* the deadline check above decides */
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return true;
        if (out->len < HOST_MAX_OUTPUT)
            sb_putn(out, buf, (size_t)n);
    }
}

/* Runs argv in a process group of its own, collecting stdout+stderr into
 * out; returns the wait status, -1 when it could not start (errno-ish
 * text in out), or HOST_STATUS_TIMEOUT after killing the whole group
 * (the driver and cc1plus, as, ld under it) at timeout seconds. */
static int run_capture(char *const argv[], double timeout, StrBuf *out) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        sb_printf(out, "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0) {
        close(fds[0]);
        close(fds[1]);
        sb_puts(out, "cannot set up the compiler process");
        return -1;
    }
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attr;
    bool have_attr = posix_spawnattr_init(&attr) == 0;
    if (have_attr) {
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attr, 0);
    }
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, have_attr ? &attr : NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (have_attr)
        posix_spawnattr_destroy(&attr);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        sb_printf(out, "cannot run '%s': %s", argv[0], strerror(rc));
        return -1;
    }
    bool timed_out = !read_until(fds[0], now_seconds() + timeout, out);
    close(fds[0]);
    if (timed_out)
        kill(have_attr ? -pid : pid, SIGKILL);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno == ECHILD)
            return timed_out ? HOST_STATUS_TIMEOUT
                             : HOST_STATUS_UNKNOWN; /* the application ignores SIGCHLD:
                                           the child was reaped for us */
        if (errno != EINTR) {
            sb_printf(out, "waitpid failed: %s", strerror(errno));
            return -1;
        }
    }
    return timed_out ? HOST_STATUS_TIMEOUT : status;
}

/* run_capture for the MLIR backend's tools (mlirrun.c). */
int host_run_tool(char *const argv[], double timeout, StrBuf *out) {
    return run_capture(argv, timeout, out);
}

static void remove_tree_files(const char *dir, const char *const *names,
                              int n) {
    char path[4200];
    for (int i = 0; i < n; i++) {
        /* dir is at most PATH_MAX; the names are short and fixed */
        if (snprintf(path, sizeof path, "%.4095s/%.64s", dir, names[i]) < (int)sizeof path)
            unlink(path);
    }
    rmdir(dir);
}

/* Compiles the unit into out_path (a temporary name). */
/* How one kind of object is built: the compiler, its flags, the name of
 * the unit it reads (kernel.cpp, or kernel.c for the cpu backend). */
typedef struct Toolchain {
    const char *cc;
    const char *const *flags;
    int nflags;
    const char *const *extra; /* the sanitizer's, when asked for */
    int nextra;
    const char *unit_name;
    const char *const *libs;  /* after the unit: what it links against */
    int nlibs;
} Toolchain;

#define TOOL_MAX_FLAGS 16

static int compile_unit(Ctx *c, const Toolchain *tc, const char *unit_text, size_t unit_len,
                        const char *out_path, double timeout) {
    const char *cxx = tc->cc;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s/mytriton-host-XXXXXX", tmp) >=
            (int)sizeof dir ||
        !mkdtemp(dir))
        return diag_error(c, no_loc, MT_ERR_IO,
                          "cannot create a temporary directory in '%s': %s",
                          tmp, strerror(errno));
    const char *const files[] = {"mt_host.h", tc->unit_name};
    char hdr_path[4200], src_path[4200];
    snprintf(hdr_path, sizeof hdr_path, "%s/%s", dir, files[0]);
    snprintf(src_path, sizeof src_path, "%s/%s", dir, files[1]);
    if (write_file(hdr_path, mt_host_header, sizeof mt_host_header - 1) != 0 ||
        write_file(src_path, unit_text, unit_len) != 0) {
        int e = errno;
        remove_tree_files(dir, files, 2);
        return diag_error(c, no_loc, MT_ERR_IO,
                          "cannot write the host kernel source in '%s': %s",
                          dir, strerror(e));
    }
    char *argv[2 * TOOL_MAX_FLAGS + HOST_NUBSAN + 6];
    int k = 0;
    argv[k++] = (char *)cxx;
    for (int i = 0; i < tc->nflags && i < TOOL_MAX_FLAGS; i++)
        argv[k++] = (char *)tc->flags[i];
    for (int i = 0; i < tc->nextra && i < (int)HOST_NUBSAN; i++)
        argv[k++] = (char *)tc->extra[i];
    argv[k++] = (char *)"-o";
    argv[k++] = (char *)out_path;
    argv[k++] = src_path;
    for (int i = 0; i < tc->nlibs && i < TOOL_MAX_FLAGS; i++)
        argv[k++] = (char *)tc->libs[i];
    argv[k] = NULL;
    StrBuf output;
    sb_init(&output);
    int status = run_capture(argv, timeout, &output);
    remove_tree_files(dir, files, 2);
    if (status == HOST_STATUS_TIMEOUT) {
        sb_free(&output);
        unlink(out_path);
        return diag_error(c, no_loc, MT_ERR_HOST_CC,
                          "host compiler '%s' timed out after %g s and was killed "
                          "(MYTRITON_HOST_CC_TIMEOUT raises the limit)", cxx, timeout);
    }
    if (status == HOST_STATUS_UNKNOWN) {
        /* no exit status to read: judge by the output the compiler left
         * (it writes the object only on success) */
        struct stat st;
        status = stat(out_path, &st) == 0 && st.st_size > 0 ? 0 : -1;
        if (status < 0)
            sb_puts(&output, "the compiler produced no output (exit status unknown: "
                             "SIGCHLD is ignored)");
    }
    int rc = 0;
    if (status < 0) {
        rc = diag_error(c, no_loc, MT_ERR_HOST_CC, "host compiler failed:\n%s",
                        sb_str(&output));
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (WIFSIGNALED(status))
            sb_printf(&output, "\n'%s' killed by signal %d", cxx,
                      WTERMSIG(status));
        else if (output.len == 0)
            sb_printf(&output, "'%s' exited with status %d", cxx,
                      WEXITSTATUS(status));
        rc = diag_error(c, no_loc, MT_ERR_HOST_CC, "host compiler failed:\n%s",
                        sb_str(&output));
    }
    sb_free(&output);
    if (rc != 0)
        unlink(out_path);
    return rc;
}

static int open_module(Ctx *c, const char *path, HostModule **out) {
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        const char *e = dlerror();
        return diag_error(c, no_loc, MT_ERR_HOST_CC,
                          "cannot load the host kernel '%s': %s", path,
                          e ? e : "unknown error");
    }
    mt_host_entry_fn *entry;
    /* ISO C forbids object-to-function pointer casts; POSIX guarantees it */
    void *entry_sym = dlsym(dl, "mt_host_entry");
    if (!entry_sym) {
        dlclose(dl);
        return diag_error(c, no_loc, MT_ERR_HOST_CC,
                          "host kernel '%s' lacks mt_host_entry", path);
    }
    memcpy(&entry, &entry_sym, sizeof entry);
    HostModule *m = calloc(1, sizeof *m);
    if (!m) {
        dlclose(dl);
        return diag_error(c, no_loc, MT_ERR_NOMEM,
                          "out of memory for a host module");
    }
    m->dl = dl;
    m->entry = entry;
    *out = m;
    return 0;
}

/* Random-enough suffix for a temporary name: pid, time and an address. */
static void temp_suffix(char buf[64]) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t h = hash_bytes(HASH_INIT, &ts, sizeof ts);
    void *addr = buf;
    h = hash_bytes(h, &addr, sizeof addr);
    snprintf(buf, 64, "%ld.%016llx", (long)getpid(), (unsigned long long)h);
}

/* Only a kernel that waits needs its threads on fibers: the CUDA text
 * reaches the scheduler through these two names alone (mt_host.h).  A
 * kernel that may fail an assertion (cuda_debug.c) or a check of checked
 * mode (cuda_check.c) runs on fibers too: the failing thread's program is
 * abandoned mid-kernel, which only a fiber can be. */
static bool kernel_waits(const char *cuda_src) {
    return strstr(cuda_src, "__syncthreads") || strstr(cuda_src, "__shfl") ||
           strstr(cuda_src, "__assertfail") || strstr(cuda_src, "mt_check_");
}

/* tl.device_print (cuda_debug.c): every thread prints its own lines. */
static bool kernel_prints(const char *cuda_src) { return strstr(cuda_src, "printf(") != NULL; }

/* A kernel of scalars alone (no block value, so no distribution over the
 * threads) names its thread only to let thread 0 store: every thread
 * computes the same values and only thread 0 acts.  Running thread 0
 * alone then gives the same result, without the 1023 redundant copies of
 * a program at 32 warps.  True when every mention of threadIdx is such a
 * guard and nothing reads blockDim or waits. */
static bool only_thread0_acts(const char *cuda_src) {
    if (kernel_waits(cuda_src) || kernel_prints(cuda_src) || strstr(cuda_src, "blockDim"))
        return false;
    for (const char *p = cuda_src; (p = strstr(p, "threadIdx")) != NULL; p += 9)
        if (strncmp(p, "threadIdx.x == 0)", 17) && strncmp(p, "threadIdx.x == 0 &&", 19))
            return false;
    return true;
}

bool host_module_one_thread(const HostModule *m) { return m && m->one_thread; }

unsigned host_kernel_flags(const char *cuda_src) {
    return (kernel_waits(cuda_src) ? MT_HOST_RUN_WAITS : 0u) |
           (only_thread0_acts(cuda_src) ? MT_HOST_RUN_ONE_THREAD : 0u) |
           (kernel_prints(cuda_src) ? MT_HOST_RUN_PRINTS : 0u);
}

/* The checks every build makes of the kernel's name and parameter types,
 * which are pasted into the unit's trampoline. */
static int check_entry(Ctx *c, const char *src, const char *kernel, const char *const *ctypes,
                       int nparams) {
    if (!src || !valid_identifier(kernel) || nparams < 0 || (nparams > 0 && !ctypes))
        return diag_error(c, no_loc, MT_ERR_INTERNAL,
                          "host_build: bad kernel name or parameters");
    for (int i = 0; i < nparams; i++)
        if (!valid_ctype(ctypes[i]))
            return diag_error(c, no_loc, MT_ERR_INTERNAL,
                              "host_build: bad type '%s' of parameter %d",
                              ctypes[i] ? ctypes[i] : "(null)", i);
    return 0;
}

/* The object of unit from the disk cache (cache_subdir(sub), keyed by a
 * digest of the header, the unit, the toolchain and keyextra), else
 * compiled by tc, loaded and stored there. */
static int build_cached(Ctx *c, const Toolchain *tc, const char *sub, StrBuf *unit,
                        const char *keyextra, HostModule **out) {
    double timeout = host_cc_timeout(c);
    if (timeout < 0)
        return -1;
    /* the key: every input, each followed by a NUL so fields cannot run
     * into each other */
    StrBuf keytext;
    sb_init(&keytext);
    sb_putn(&keytext, mt_host_header, sizeof mt_host_header);
    sb_putn(&keytext, sb_str(unit), unit->len + 1);
    sb_putn(&keytext, tc->cc, strlen(tc->cc) + 1);
    for (int i = 0; i < tc->nflags; i++)
        sb_putn(&keytext, tc->flags[i], strlen(tc->flags[i]) + 1);
    for (int i = 0; i < tc->nextra; i++)
        sb_putn(&keytext, tc->extra[i], strlen(tc->extra[i]) + 1);
    for (int i = 0; i < tc->nlibs; i++)
        sb_putn(&keytext, tc->libs[i], strlen(tc->libs[i]) + 1);
    sb_puts(&keytext, keyextra);
    if (unit->failed || keytext.failed) {
        sb_free(&keytext);
        return diag_error(c, no_loc, MT_ERR_NOMEM,
                          "out of memory for the host kernel source");
    }
    char digest[33];
    cache_digest(keytext.data, keytext.len, digest);
    sb_free(&keytext);

    int rc = -1;
    Arena *scratch = arena_new();
    char *dir = scratch ? cache_subdir(scratch, sub) : NULL;
    char tmp_path[4300], suffix[64];
    temp_suffix(suffix);
    if (dir) {
        /* loaded by its name, not /proc/self/fd/N: the loader matches a
         * name it has loaded before, and a descriptor number is reused.
         * The name is ours (checked directory, checked file), and entries
         * change only by a rename of another sealed entry of this key. */
        int fd = cache_open(dir, digest, "so");
        if (fd >= 0) {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s.so", dir, digest);
            Ctx probe = {0};
            rc = open_module(&probe, path, out);
            sb_free(&probe.err);
            close(fd);
            if (rc == 0)
                goto done;
        }
        /* missing, damaged or foreign (cache.c checks key and content):
         * rebuilt and replaced */
        snprintf(tmp_path, sizeof tmp_path, "%s/.%s.so.%s.tmp", dir, digest,
                 suffix);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(tmp_path, sizeof tmp_path, "%s/.mytriton-%s.so.%s.tmp",
                 tmp && *tmp ? tmp : "/tmp", digest, suffix);
    }
    if (compile_unit(c, tc, sb_str(unit), unit->len, tmp_path, timeout) != 0)
        goto done;
    /* load the object just built; the cache gets a sealed copy (fsync'ed,
     * renamed into place) for later processes; the mapping outlives the
     * temporary file */
    rc = open_module(c, tmp_path, out);
    if (rc == 0 && dir)
        cache_put_file(dir, digest, "so", tmp_path);
    unlink(tmp_path);
done:
    arena_free(scratch);
    return rc;
}

int host_build(Ctx *c, const char *cuda_src, const char *kernel,
               const char *const *ctypes, int nparams, HostModule **out) {
    *out = NULL;
    if (check_entry(c, cuda_src, kernel, ctypes, nparams) < 0)
        return -1;
    char cxx[4096];
    if (find_compiler(c, cxx, sizeof cxx) != 0)
        return -1;
    const char *const *extra;
    int nextra = host_sanitize_flags(c, &extra);
    if (nextra < 0)
        return -1;
    Toolchain tc = {cxx, host_cxx_flags, (int)HOST_NFLAGS, extra, nextra, "kernel.cpp", NULL, 0};
    StrBuf unit;
    sb_init(&unit);
    host_unit(&unit, cuda_src, kernel, ctypes, nparams, false);
    int rc = build_cached(c, &tc, "host", &unit, "", out);
    if (rc == 0 && *out) {
        (*out)->waits = kernel_waits(cuda_src);
        (*out)->one_thread = only_thread0_acts(cuda_src);
        (*out)->prints = kernel_prints(cuda_src);
    }
    sb_free(&unit);
    return rc;
}

/* ---- the cpu backend's build (issue 18) ----
 * The C of cpu.c, compiled by the system C compiler for this very CPU:
 * -O3 vectorises the tile loops, -march=native picks the widest vectors
 * (so the CPU's model and features join the key), -ffp-contract=off keeps
 * a * b + c two roundings as the fiber backend computes it (the dot's
 * micro-kernel asks for its FMAs itself), -fno-math-errno lets sqrtf and
 * friends vectorise (no value changes).  Each program is one call of the
 * entry on a worker's own stack: a straight run of one thread. */
static const char *const cpu_cc_flags[] = {
    "-std=gnu11", "-O3", "-march=native", "-mprefer-vector-width=512", "-ffp-contract=off", "-fno-math-errno",
    "-fno-strict-aliasing", "-fPIC", "-shared", "-pthread", "-w",
#if defined(__x86_64__) && defined(__GLIBC__) && __GLIBC_PREREQ(2, 35)
    /* glibc's vector math (mt_cpu_rt.h): exp and log of whole vectors;
     * the library follows the unit (cpu_cc_libs) */
    "-DMT_CPU_LIBMVEC",
#endif
};
static const char *const cpu_cc_libs[] = {
#if defined(__x86_64__) && defined(__GLIBC__) && __GLIBC_PREREQ(2, 35)
    "-Wl,--as-needed", "-lmvec",
#endif
    "-lm",
};
#define CPU_NFLAGS (sizeof cpu_cc_flags / sizeof cpu_cc_flags[0])

static int find_c_compiler(Ctx *c, char *buf, size_t bufsize) {
    const char *env = getenv("MYTRITON_CPU_CC");
    if (env && *env) {
        if (find_program(env, buf, bufsize))
            return 0;
        return diag_error(c, no_loc, MT_ERR_HOST_CC,
                          "C compiler '%s' from MYTRITON_CPU_CC not found or not executable",
                          env);
    }
    static const char *const names[] = {"cc", "gcc", "clang"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (find_program(names[i], buf, bufsize))
            return 0;
    return diag_error(c, no_loc, MT_ERR_HOST_CC,
                      "no C compiler found for the cpu backend: expected 'cc', 'gcc' or "
                      "'clang' on PATH, or MYTRITON_CPU_CC");
}

/* The CPU -march=native compiles for: its model name and feature flags
 * (Linux's /proc/cpuinfo), so a cache shared between machines never hands
 * one an object built for another's instructions. */
static void cpu_model(StrBuf *sb) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    bool model = false, flags = false;
    while (f && fgets(line, sizeof line, f) && !(model && flags)) {
        if (!model && !strncmp(line, "model name", 10)) {
            sb_puts(sb, line);
            model = true;
        } else if (!flags && !strncmp(line, "flags", 5)) {
            sb_puts(sb, line);
            flags = true;
        }
    }
    if (f)
        fclose(f);
    if (!model && !flags)
        sb_puts(sb, "unknown cpu");
}

int cpu_build(Ctx *c, const char *csrc, const char *kernel, const char *const *ctypes,
              int nparams, HostModule **out) {
    *out = NULL;
    if (check_entry(c, csrc, kernel, ctypes, nparams) < 0)
        return -1;
    char cc[4096];
    if (find_c_compiler(c, cc, sizeof cc) != 0)
        return -1;
    const char *const *extra;
    int nextra = host_sanitize_flags(c, &extra);
    if (nextra < 0)
        return -1;
    Toolchain tc = {cc, cpu_cc_flags, (int)CPU_NFLAGS, extra, nextra, "kernel.c", cpu_cc_libs,
                    (int)(sizeof cpu_cc_libs / sizeof cpu_cc_libs[0])};
    StrBuf unit, model;
    sb_init(&unit);
    sb_init(&model);
    sb_puts(&unit, "#include \"mt_host.h\"\n#line 1 \"mt_kernel_rt.h\"\n");
    sb_puts(&unit, mt_kernel_rt_header);
    sb_puts(&unit, "#line 1 \"mt_cpu_rt.h\"\n");
    sb_puts(&unit, mt_cpu_rt_header);
    sb_puts(&unit, "#line 1 \"kernel.c\"\n");
    sb_puts(&unit, csrc);
    /* cpu.c names the program's function mt_cpu_kernel: a kernel named
     * like a C library function (exp) cannot clash with it */
    sb_puts(&unit, "\nvoid mt_host_entry(void **a, mt_host_thread *self) {\n"
                   "    mt_cpu_kernel(self");
    for (int i = 0; i < nparams; i++) {
        if (strcmp(ctypes[i], "bool") == 0) /* a byte that may hold any value */
            sb_printf(&unit, ", (*(const unsigned char *)a[%d] != 0)", i);
        else
            sb_printf(&unit, ", *(%s *)a[%d]", ctypes[i], i);
    }
    sb_puts(&unit, ");\n}\n");
    cpu_model(&model);
    int rc = build_cached(c, &tc, "cpu", &unit, sb_str(&model), out);
    if (rc == 0 && *out) {
        (*out)->one_thread = true; /* one call per program, no fibers */
        (*out)->chunked = !strstr(csrc, "MT_CPU_CAS");
        (*out)->prints = kernel_prints(csrc);
    }
    sb_free(&unit);
    sb_free(&model);
    return rc;
}

int host_launch(Ctx *c, HostStacks *s, HostModule *m, const uint32_t grid[3], int threads,
                void **args, const mt_host_extent *extents, unsigned nextents,
                const FiberPoll *poll) {
    if (!m || !s)
        return diag_error(c, no_loc, MT_ERR_ARG, "launch of a kernel that "
                                                 "was not built for the host");
    static const uint32_t max_grid[3] = {2147483647u, 65535u, 65535u};
    static const char axis[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; i++)
        if (grid[i] < 1 || grid[i] > max_grid[i])
            return diag_error(c, no_loc, MT_ERR_ARG,
                              "grid %c dimension must be in 1..%u, got %u",
                              axis[i], max_grid[i], grid[i]);
    if (threads < 1 || threads > MT_MAX_THREADS)
        return diag_error(c, no_loc, MT_ERR_RESOURCE,
                          "threads per program must be in 1..%d, got %d",
                          MT_MAX_THREADS, threads);
    char err[1024];
    int rc = fiber_run_chunked(s, m->entry, args, grid, m->one_thread ? 1u : (unsigned)threads,
                               m->waits, m->chunked, extents, nextents, poll, err, sizeof err);
    if (m->prints) /* the lines reach a pipe or file now, as the GPU's at a sync */
        fflush(stdout);
    if (rc == -3) { /* checked mode: the kernel's text is a whole located error */
        c->status = MT_ERR_CHECK;
        sb_clear(&c->err);
        sb_printf(&c->err, "%s\n", err);
        return -1;
    }
    if (rc != 0)
        return diag_error(c, no_loc, rc == -2 ? MT_ERR_ASSERT : MT_ERR_RESOURCE,
                          "host launch failed: %s",
                          err[0] ? err : "unknown error");
    return 0;
}

void host_module_free(HostModule *m) {
    if (!m)
        return;
    /* The shared object stays loaded, like a CUDA module for the life of
     * its context: its thread_local state (blockIdx, threadIdx, shared
     * memory) would otherwise leave dangling dynamic-TLS records, which
     * crash LeakSanitizer at exit, and dlopen of the same cached object
     * later is then free. */
    free(m);
}
