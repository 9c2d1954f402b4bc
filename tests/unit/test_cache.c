/* test_cache.c: a cache that verifies what it loads (issue 15, item 3).
 *
 * Entries are damaged the ways the issue found (truncated, bit-flipped,
 * another key's entry under this name, an old entry without a trailer, a
 * FIFO, a symlink, a file others can write) and each must read as a miss;
 * directory levels under the base are checked like the base; a damaged
 * host object is rebuilt, replaced and runs correctly; the size cap
 * evicts the least recently used entries, also under concurrent puts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mt.h"
#include "host_fixture.h"

static char test_root[256];  /* everything the tests write lives here */
static char cache_root[300]; /* MYTRITON_CACHE_DIR */

static int group_setup(void **state) {
    (void)state;
    if (make_test_root(test_root, sizeof test_root, cache_root, sizeof cache_root, "cache") != 0)
        return -1;
    unsetenv("MYTRITON_HOST_SANITIZE");
    /* a FIFO that blocked would hang the suite: fail it instead */
    alarm(120);
    return 0;
}

static int group_teardown(void **state) {
    (void)state;
    remove_test_root(test_root);
    return 0;
}

static char *path_of(Arena *a, const char *dir, const char *key, const char *ext) {
    return arena_printf(a, "%s/%s.%s", dir, key, ext);
}

static size_t file_size(const char *path) {
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (size_t)st.st_size;
}

static void flip_bit(const char *path, size_t at) {
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    unsigned char b;
    assert_int_equal(pread(fd, &b, 1, (off_t)at), 1);
    b ^= 0x10;
    assert_int_equal(pwrite(fd, &b, 1, (off_t)at), 1);
    close(fd);
}

static bool hit(const char *dir, const char *key, const void *want, size_t n) {
    void *got = NULL;
    size_t len = 0;
    if (cache_get(dir, key, "bin", &got, &len) != 0)
        return false;
    bool same = len == n && memcmp(got, want, n) == 0;
    free(got);
    int fd = cache_open(dir, key, "bin");
    assert_true(fd >= 0);
    close(fd);
    return same;
}

static bool miss(const char *dir, const char *key) {
    void *got = (void *)1;
    size_t len = 1;
    int rc = cache_get(dir, key, "bin", &got, &len);
    int fd = cache_open(dir, key, "bin");
    if (fd >= 0)
        close(fd);
    return rc == -1 && !got && len == 0 && fd < 0;
}

static void test_damaged_entry_is_a_miss(void **state) {
    (void)state;
    Arena *a = arena_new();
    char *dir = cache_dir(a);
    assert_non_null(dir);
    static const char data[] = "the content of an entry, long enough to damage";
    char *p = path_of(a, dir, "key1", "bin");
    /* every truncation, every bit flip (content and trailer) is a miss,
     * and a put afterwards replaces the entry */
    assert_int_equal(cache_put(dir, "key1", "bin", data, sizeof data), 0);
    size_t whole = file_size(p);
    assert_true(whole > sizeof data);
    for (size_t len = 0; len < whole; len += 7) {
        assert_int_equal(truncate(p, (off_t)len), 0);
        assert_true(miss(dir, "key1"));
        assert_int_equal(cache_put(dir, "key1", "bin", data, sizeof data), 0);
        assert_true(hit(dir, "key1", data, sizeof data));
    }
    for (size_t at = 0; at < whole; at += 3) {
        flip_bit(p, at);
        assert_true(miss(dir, "key1"));
        flip_bit(p, at);
        assert_true(hit(dir, "key1", data, sizeof data));
    }
    /* another key's whole entry under this name */
    static const char other[] = "another kernel's object";
    assert_int_equal(cache_put(dir, "key2", "bin", other, sizeof other), 0);
    assert_int_equal(rename(path_of(a, dir, "key2", "bin"), p), 0);
    assert_true(miss(dir, "key1"));
    /* the same key of another kind */
    assert_int_equal(cache_put(dir, "key1", "ptx", data, sizeof data), 0);
    assert_int_equal(rename(path_of(a, dir, "key1", "ptx"), p), 0);
    assert_true(miss(dir, "key1"));
    /* a bare file, as an old cache wrote them */
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fwrite(data, 1, sizeof data, f);
    fclose(f);
    assert_true(miss(dir, "key1"));
    /* a key longer than the trailer holds is refused, not cut */
    char long_key[80];
    memset(long_key, 'k', sizeof long_key - 1);
    long_key[sizeof long_key - 1] = 0;
    assert_int_equal(cache_put(dir, long_key, "bin", data, 1), -1);
    arena_free(a);
}

static void test_only_our_regular_files(void **state) {
    (void)state;
    Arena *a = arena_new();
    char *dir = cache_dir(a);
    assert_non_null(dir);
    static const char data[] = "entry";
    char *p = path_of(a, dir, "fifo", "bin");
    /* a FIFO neither blocks nor is read (alarm in the setup fails a hang) */
    assert_int_equal(mkfifo(p, 0600), 0);
    assert_true(miss(dir, "fifo"));
    unlink(p);
    /* a symlink, even to a valid entry of the same key, is not followed */
    assert_int_equal(cache_put(dir, "real", "bin", data, sizeof data), 0);
    char *real = path_of(a, dir, "real", "bin");
    char *link = path_of(a, dir, "link", "bin");
    assert_int_equal(cache_put(dir, "link", "bin", data, sizeof data), 0);
    assert_int_equal(rename(link, real), 0); /* a valid "link" entry, elsewhere */
    assert_int_equal(symlink(real, link), 0);
    assert_true(miss(dir, "link"));
    /* a file others could have written */
    assert_int_equal(cache_put(dir, "open", "bin", data, sizeof data), 0);
    char *open_path = path_of(a, dir, "open", "bin");
    assert_true(hit(dir, "open", data, sizeof data));
    assert_int_equal(chmod(open_path, 0666), 0);
    assert_true(miss(dir, "open"));
    assert_int_equal(chmod(open_path, 0620), 0);
    assert_true(miss(dir, "open"));
    /* a directory under the entry's name */
    assert_int_equal(mkdir(path_of(a, dir, "adir", "bin"), 0700), 0);
    assert_true(miss(dir, "adir"));
    arena_free(a);
}

static void test_every_level_checked(void **state) {
    (void)state;
    Arena *a = arena_new();
    char *base = cache_dir(a);
    assert_non_null(base);
    assert_null(cache_untrusted(a, NULL));
    char *sub = cache_subdir(a, "host");
    assert_non_null(sub);
    struct stat st;
    assert_int_equal(lstat(sub, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_null(cache_untrusted(a, "host"));
    /* a world-writable level below the base: refused, and said why */
    assert_int_equal(chmod(sub, 0777), 0);
    assert_null(cache_subdir(a, "host"));
    const char *why = cache_untrusted(a, "host");
    assert_non_null(why);
    assert_non_null(strstr(why, "/host"));
    assert_int_equal(chmod(sub, 0700), 0);
    /* a symlink in its place, even to a good directory */
    char *elsewhere = arena_printf(a, "%s/elsewhere", test_root);
    assert_int_equal(mkdir(elsewhere, 0700), 0);
    assert_int_equal(rmdir(sub), 0);
    assert_int_equal(symlink(elsewhere, sub), 0);
    assert_null(cache_subdir(a, "host"));
    assert_non_null(cache_untrusted(a, "host"));
    assert_int_equal(unlink(sub), 0);
    assert_non_null(cache_subdir(a, "host"));
    /* names that would leave the base */
    assert_null(cache_subdir(a, "../x"));
    assert_null(cache_subdir(a, ".hidden"));
    /* the base itself */
    assert_int_equal(chmod(base, 0770), 0);
    assert_null(cache_dir(a));
    assert_non_null(cache_untrusted(a, NULL));
    assert_int_equal(chmod(base, 0700), 0);
    /* a missing base that cannot be made is not "untrusted" */
    char *bad = arena_printf(a, "%s/plain", test_root);
    FILE *f = fopen(bad, "w");
    assert_non_null(f);
    fclose(f);
    setenv("MYTRITON_CACHE_DIR", arena_printf(a, "%s/sub", bad), 1);
    assert_null(cache_untrusted(a, NULL));
    setenv("MYTRITON_CACHE_DIR", cache_root, 1);
    arena_free(a);
}

/* ---- host objects: damaged entries are rebuilt and run right ---- */

static const char fill_src[] =
    "extern \"C\" __global__ void __launch_bounds__(32)\n"
    "fill%d(float *out) {\n"
    "    out[threadIdx.x] = %d.0f + (float)threadIdx.x;\n"
    "}\n";
static const char *const fill_types[] = {"float*"};

/* Builds fill<v>, runs it and checks its result; NULL-safe on errors. */
static void build_and_check(int v) {
    char src[512], name[32];
    snprintf(src, sizeof src, fill_src, v, v);
    snprintf(name, sizeof name, "fill%d", v);
    Ctx c;
    ctx_init(&c);
    HostModule *m = NULL;
    int rc = host_build(&c, src, name, fill_types, 1, &m);
    if (rc != 0)
        fprintf(stderr, "%s", sb_str(&c.err));
    assert_int_equal(rc, 0);
    float out[32] = {0};
    void *p = out;
    void *args[] = {&p};
    const uint32_t grid[3] = {1, 1, 1};
    assert_int_equal(launch_host(&c, m, grid, 32, args), 0);
    for (int i = 0; i < 32; i++)
        assert_true(out[i] == (float)(v + i));
    host_module_free(m);
    ctx_fini(&c);
}

/* The one sealed host object in <cache>/host, besides skip; its key. */
static char *only_object(Arena *a, const char *skip) {
    char *found = NULL;
    char *host = cache_subdir(a, "host");
    assert_non_null(host);
    DIR *d = opendir(host);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        if (strlen(name) == 35 && !strcmp(name + 32, ".so") &&
            (!skip || strncmp(name, skip, 32)))
            found = arena_printf(a, "%.32s", name);
    }
    closedir(d);
    assert_non_null(found);
    return found;
}

static void test_host_object_rebuilt(void **state) {
    (void)state;
    Arena *a = arena_new();
    build_and_check(1);
    char *key1 = only_object(a, NULL);
    char *host = cache_subdir(a, "host");
    char *p1 = path_of(a, host, key1, "so");
    int fd = cache_open(host, key1, "so"); /* stored sealed: fsync'ed */
    assert_true(fd >= 0);
    close(fd);
    size_t whole = file_size(p1);
    /* truncated: was SIGBUS on load */
    assert_int_equal(truncate(p1, (off_t)(whole / 2)), 0);
    build_and_check(1);
    assert_int_equal(file_size(p1), whole);
    /* bit flips across the object */
    for (size_t at = 64; at < whole; at += whole / 5) {
        flip_bit(p1, at);
        build_and_check(1);
        fd = cache_open(host, key1, "so");
        assert_true(fd >= 0);
        close(fd);
    }
    /* a FIFO in its place: was a hang */
    assert_int_equal(unlink(p1), 0);
    assert_int_equal(mkfifo(p1, 0600), 0);
    build_and_check(1);
    assert_int_equal(file_size(p1), whole);
    /* another kernel's valid object under this key: was a wrong result */
    build_and_check(2);
    char *key2 = only_object(a, key1);
    assert_int_equal(rename(path_of(a, host, key2, "so"), p1), 0);
    build_and_check(1);
    /* a host directory others can write: not used, still right */
    assert_int_equal(chmod(host, 0777), 0);
    build_and_check(3);
    assert_int_equal(chmod(host, 0700), 0);
    arena_free(a);
}

/* ---- size cap (MYTRITON_CACHE_MAX_BYTES) ---- */

enum { ENTRY = 1000, SEALED = ENTRY + 120 };

static char *entry_key(Arena *a, const char *prefix, int i) {
    return arena_printf(a, "%s%d", prefix, i);
}

static bool present(const char *dir, const char *key) {
    void *got = NULL;
    size_t n = 0;
    if (cache_get(dir, key, "bin", &got, &n) != 0)
        return false;
    free(got);
    return n == ENTRY;
}

static void test_size_cap_evicts_least_recently_used(void **state) {
    (void)state;
    Arena *a = arena_new();
    char *dir = arena_printf(a, "%s/capped", test_root);
    setenv("MYTRITON_CACHE_DIR", dir, 1);
    assert_non_null(cache_dir(a));
    static unsigned char data[ENTRY];
    memset(data, 'x', sizeof data);
    /* ten entries, written a second apart in the past, e0 oldest */
    char cap[32];
    snprintf(cap, sizeof cap, "%d", 10 * SEALED);
    setenv("MYTRITON_CACHE_MAX_BYTES", cap, 1);
    time_t now = time(NULL);
    for (int i = 0; i < 10; i++) {
        char *key = entry_key(a, "e", i);
        assert_int_equal(cache_put(dir, key, "bin", data, sizeof data), 0);
        struct timespec t[2] = {{now - 100 + i, 0}, {now - 100 + i, 0}};
        assert_int_equal(utimensat(AT_FDCWD, arena_printf(a, "%s/%s.bin", dir, key), t, 0), 0);
    }
    /* e0 is read: now the most recently used */
    assert_true(present(dir, "e0"));
    /* one more is over the cap: down to 90% (9 entries), oldest first */
    assert_int_equal(cache_put(dir, "e10", "bin", data, sizeof data), 0);
    assert_true(present(dir, "e0"));
    assert_false(present(dir, "e1"));
    assert_false(present(dir, "e2"));
    for (int i = 3; i <= 10; i++)
        assert_true(present(dir, entry_key(a, "e", i)));
    /* subdirectories count and lose entries too */
    char *host = cache_subdir(a, "host");
    assert_non_null(host);
    snprintf(cap, sizeof cap, "%d", 4 * SEALED);
    setenv("MYTRITON_CACHE_MAX_BYTES", cap, 1);
    assert_int_equal(cache_put(host, "h0", "bin", data, sizeof data), 0);
    int left = 0;
    for (int i = 0; i <= 10; i++)
        left += present(dir, entry_key(a, "e", i));
    left += present(host, "h0");
    assert_true(left * SEALED <= 4 * SEALED);
    assert_true(present(host, "h0")); /* the newest stays */
    /* a bad value is the default (1 GiB): nothing more goes */
    setenv("MYTRITON_CACHE_MAX_BYTES", "lots", 1);
    assert_int_equal(cache_put(dir, "e11", "bin", data, sizeof data), 0);
    assert_true(present(dir, "e11") && present(host, "h0"));
    unsetenv("MYTRITON_CACHE_MAX_BYTES");
    setenv("MYTRITON_CACHE_DIR", cache_root, 1);
    arena_free(a);
}

/* Processes putting at once under a small cap: no torn entry, nothing
 * left behind, and the total ends within the cap. */
static void test_size_cap_concurrent(void **state) {
    (void)state;
    Arena *a = arena_new();
    char *dir = arena_printf(a, "%s/shared-cap", test_root);
    setenv("MYTRITON_CACHE_DIR", dir, 1);
    assert_non_null(cache_dir(a));
    char cap[32];
    snprintf(cap, sizeof cap, "%d", 20 * SEALED);
    setenv("MYTRITON_CACHE_MAX_BYTES", cap, 1);
    pid_t kids[3];
    for (int k = 0; k < 3; k++) {
        kids[k] = fork();
        assert_true(kids[k] >= 0);
        if (kids[k] == 0) {
            unsigned char buf[ENTRY];
            memset(buf, 'a' + k, sizeof buf);
            char key[32];
            for (int i = 0; i < 60; i++) {
                snprintf(key, sizeof key, "p%d_%d", k, i);
                if (cache_put(dir, key, "bin", buf, sizeof buf) != 0)
                    _exit(1);
                void *got;
                size_t n;
                /* a miss is fine (another trimmed it), a torn read is not */
                if (cache_get(dir, key, "bin", &got, &n) == 0) {
                    if (n != ENTRY || ((unsigned char *)got)[n - 1] != 'a' + k)
                        _exit(2);
                    free(got);
                }
            }
            _exit(0);
        }
    }
    for (int k = 0; k < 3; k++) {
        int st;
        assert_int_equal(waitpid(kids[k], &st, 0), kids[k]);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    /* one last trim: the total is within the cap */
    cache_trim(dir);
    unsigned long long total = 0;
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            assert_true(!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
                        !strcmp(e->d_name, ".lock"));
            continue;
        }
        struct stat st;
        assert_int_equal(fstatat(dirfd(d), e->d_name, &st, 0), 0);
        total += (unsigned long long)st.st_size;
    }
    closedir(d);
    assert_true(total <= 20 * SEALED);
    unsetenv("MYTRITON_CACHE_MAX_BYTES");
    setenv("MYTRITON_CACHE_DIR", cache_root, 1);
    arena_free(a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_damaged_entry_is_a_miss),
        cmocka_unit_test(test_only_our_regular_files),
        cmocka_unit_test(test_every_level_checked),
        cmocka_unit_test(test_host_object_rebuilt),
        cmocka_unit_test(test_size_cap_evicts_least_recently_used),
        cmocka_unit_test(test_size_cap_concurrent),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
