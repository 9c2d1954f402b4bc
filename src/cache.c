/* cache.c: the on-disk cache of compiled kernels.
 *
 * Input: a directory ($MYTRITON_CACHE_DIR, else $HOME/.cache/mytriton), a
 * key (a digest in hex) and a kind (file extension).  Output: whole files
 * `<dir>/<key>.<ext>`, read into malloc'ed memory (cache_get) or handed
 * over as an open descriptor of a checked file (cache_open, for dlopen).
 *
 * Entry format: the content, then a 120-byte trailer
 *
 *     key[64]  ext[8]  digest[32]  length[8]  "MTCACHE1"
 *
 * (the entry's full key and its extension, both NUL-padded, the cache_digest of the
 * content in hex, the content's length little-endian, a magic).  A
 * trailer, not a header, so that a host object stays a loadable ELF file
 * (the loader reads by offsets from the front and ignores what follows).
 * An entry is used only when all five fields match: a truncated or
 * bit-flipped file, an old-format file or another key's entry copied
 * under this name is a miss, which the caller rebuilds and replaces.
 *
 * Invariants:
 *   - an entry is written to `<dir>/.<key>.<ext>.<pid>.<random>.tmp`,
 *     fsync'ed and renamed into place, so several processes writing the
 *     same key at once leave one complete file and a reader never sees a
 *     partial one;
 *   - keys and extensions are plain names (no '/', no leading '.'), so an
 *     entry never lands outside the directory;
 *   - only what this user owns and nobody else can write is trusted: the
 *     base directory, every directory level made under it (cache_subdir,
 *     not a symlink) and every entry (opened with O_NOFOLLOW and
 *     O_NONBLOCK, so a FIFO neither blocks nor is read; then fstat says it
 *     is a regular file);
 *   - the entries' total size stays under MYTRITON_CACHE_MAX_BYTES (default
 *     1 GiB): after each put, one process at a time (flock on
 *     `<dir>/.lock`, others skip) removes the least recently used entries
 *     (mtime, which a hit refreshes) down to 90% of the cap.  A removed
 *     entry is only ever a miss to another process: one that has it open
 *     or loaded keeps its copy, one that looks next rebuilds it;
 *   - digests are SHA-256 truncated to 128 bits, written as 32 hex digits:
 *     a cache key must not collide by accident for any input. */
#include "mt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- directory ---- */

/* Ours alone: owned by this user, writable by nobody else. */
static bool trusted(const struct stat *st) {
    return st->st_uid == geteuid() && !(st->st_mode & 022);
}

static bool valid_name(const char *s) {
    if (!s || !*s || *s == '.')
        return false;
    for (; *s; s++)
        if (*s == '/')
            return false;
    return true;
}

/* mkdir -p with mode 0700 for the parts it creates. */
static int make_dirs(char *path) {
    size_t len = strlen(path);
    for (size_t i = 1; i <= len; i++) {
        if (path[i] != '/' && path[i] != 0)
            continue;
        char saved = path[i];
        path[i] = 0;
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            path[i] = saved;
            return -1;
        }
        path[i] = saved;
    }
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

char *cache_dir(Arena *a) {
    const char *env = getenv("MYTRITON_CACHE_DIR");
    char *dir;
    if (env && *env) {
        dir = arena_strdup(a, env);
    } else {
        const char *home = getenv("HOME");
        if (!home || !*home)
            return NULL;
        dir = arena_printf(a, "%s/.cache/mytriton", home);
    }
    if (!dir)
        return NULL;
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        dir[--len] = 0;
    if (make_dirs(dir) != 0)
        return NULL;
    /* The host backend dlopens shared objects from here: a directory that
     * someone else owns or can write to would let them run code in this
     * process, so such a cache is not used at all. */
    struct stat st;
    if (stat(dir, &st) != 0 || !trusted(&st))
        return NULL;
    return dir;
}

const char *cache_untrusted(Arena *a, const char *sub) {
    char *dir;
    if ((dir = cache_dir(a)) != NULL) {
        if (!sub || cache_subdir(a, sub))
            return NULL;
        dir = arena_printf(a, "%s/%s", dir, sub);
    } else {
        const char *env = getenv("MYTRITON_CACHE_DIR");
        const char *home = getenv("HOME");
        dir = env && *env ? arena_strdup(a, env)
              : home && *home ? arena_printf(a, "%s/.cache/mytriton", home)
                              : NULL;
    }
    struct stat st;
    if (!dir || lstat(dir, &st) != 0)
        return NULL; /* missing, not refused */
    return arena_printf(a, "mytriton: the kernel cache directory '%s' is not used: it "
                           "is not a directory of this user that only this user can "
                           "write (fix with chmod go-w, or set MYTRITON_CACHE_DIR)", dir);
}

char *cache_subdir(Arena *a, const char *name) {
    char *base = cache_dir(a);
    if (!base || !valid_name(name))
        return NULL;
    char *dir = arena_printf(a, "%s/%s", base, name);
    if (!dir || (mkdir(dir, 0700) != 0 && errno != EEXIST))
        return NULL;
    /* lstat: a symlink here could point anywhere, so it is refused */
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || !trusted(&st))
        return NULL;
    return dir;
}

/* ---- entries ---- */

#define KEY_LEN 64
#define CACHE_MAX_BYTES_DEFAULT (1ull << 30)
#define EXT_LEN 8
#define TRAILER_LEN (KEY_LEN + EXT_LEN + 32 + 8 + 8)
static const char trailer_magic[8] = {'M', 'T', 'C', 'A', 'C', 'H', 'E', '1'};

/* Key and extension fit their fields (a cache_digest key has 32). */
static bool valid_entry(const char *key, const char *ext) {
    return valid_name(key) && strlen(key) <= KEY_LEN && valid_name(ext) &&
           strlen(ext) <= EXT_LEN;
}

static void make_trailer(unsigned char t[TRAILER_LEN], const char *key,
                         const char *ext, const void *data, size_t n) {
    memset(t, 0, TRAILER_LEN);
    memcpy(t, key, strlen(key));
    memcpy(t + KEY_LEN, ext, strlen(ext));
    char digest[33];
    cache_digest(data, n, digest);
    memcpy(t + KEY_LEN + EXT_LEN, digest, 32);
    for (int i = 0; i < 8; i++)
        t[KEY_LEN + EXT_LEN + 32 + i] = (unsigned char)((uint64_t)n >> (8 * i));
    memcpy(t + TRAILER_LEN - 8, trailer_magic, 8);
}

/* The content's length when buf[0..size) is a whole entry of key.ext,
 * else -1. */
static long long entry_content(const unsigned char *buf, size_t size,
                               const char *key, const char *ext) {
    if (size < TRAILER_LEN)
        return -1;
    size_t n = size - TRAILER_LEN;
    unsigned char want[TRAILER_LEN];
    make_trailer(want, key, ext, buf, n);
    return memcmp(buf + n, want, TRAILER_LEN) == 0 ? (long long)n : -1;
}

static char *entry_path(const char *dir, const char *key, const char *ext) {
    size_t n = strlen(dir) + strlen(key) + strlen(ext) + 3;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s.%s", dir, key, ext);
    return p;
}

/* Opens an entry that is a regular file we own and nobody else can
 * write, without following a symlink or blocking on a FIFO. */
static int open_entry(const char *dir, const char *key, const char *ext,
                      struct stat *st) {
    if (!dir || !valid_entry(key, ext))
        return -1;
    char *path = entry_path(dir, key, ext);
    if (!path)
        return -1;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    free(path);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || !trusted(st)) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Reads a whole file of size bytes; NULL when it is not all there. */
static unsigned char *read_all(int fd, size_t size) {
    unsigned char *buf = malloc(size ? size : 1);
    if (!buf)
        return NULL;
    size_t got = 0;
    while (got < size) {
        ssize_t r = pread(fd, buf + got, size - got, (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (got != size) {
        free(buf);
        return NULL;
    }
    return buf;
}

int cache_get(const char *dir, const char *key, const char *ext, void **out,
              size_t *n) {
    *out = NULL;
    *n = 0;
    struct stat st;
    int fd = open_entry(dir, key, ext, &st);
    if (fd < 0)
        return -1;
    unsigned char *buf = read_all(fd, (size_t)st.st_size);
    long long len = buf ? entry_content(buf, (size_t)st.st_size, key, ext) : -1;
    if (len >= 0)
        futimens(fd, NULL); /* used now: last to go (cache_trim) */
    close(fd);
    if (len < 0) {
        free(buf);
        return -1;
    }
    *out = buf;
    *n = (size_t)len;
    return 0;
}

int cache_open(const char *dir, const char *key, const char *ext) {
    struct stat st;
    int fd = open_entry(dir, key, ext, &st);
    if (fd < 0)
        return -1;
    unsigned char *buf = read_all(fd, (size_t)st.st_size);
    bool ok = buf && entry_content(buf, (size_t)st.st_size, key, ext) >= 0;
    free(buf);
    if (!ok) {
        close(fd);
        return -1;
    }
    futimens(fd, NULL);
    return fd;
}

int cache_put_file(const char *dir, const char *key, const char *ext,
                   const char *path) {
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    unsigned char *buf = fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
                             ? read_all(fd, (size_t)st.st_size) : NULL;
    close(fd);
    int rc = buf ? cache_put(dir, key, ext, buf, (size_t)st.st_size) : -1;
    free(buf);
    return rc;
}

static bool write_all(int fd, const void *data, size_t n) {
    const unsigned char *p = data;
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(fd, p + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        off += (size_t)w;
    }
    return true;
}

int cache_put(const char *dir, const char *key, const char *ext,
              const void *data, size_t n) {
    if (!dir || !valid_entry(key, ext) || (n && !data))
        return -1;
    char *final_path = entry_path(dir, key, ext);
    size_t tlen = strlen(dir) + strlen(key) + strlen(ext) + 64;
    char *tmp_path = malloc(tlen);
    if (!final_path || !tmp_path) {
        free(final_path);
        free(tmp_path);
        return -1;
    }
    int fd = -1;
    for (int attempt = 0; attempt < 16 && fd < 0; attempt++) {
        /* unique enough with O_EXCL: pid, clock, an address, the attempt */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t h = hash_bytes(HASH_INIT, &ts, sizeof ts);
        void *addr = &fd;
        h = hash_bytes(h, &addr, sizeof addr);
        h = hash_bytes(h, &attempt, sizeof attempt);
        snprintf(tmp_path, tlen, "%s/.%s.%s.%ld.%08x.tmp", dir, key, ext,
                 (long)getpid(), (unsigned)(h ^ (h >> 32)));
        fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    int rc = -1;
    if (fd >= 0) {
        unsigned char trailer[TRAILER_LEN];
        make_trailer(trailer, key, ext, data, n);
        /* fsync first: after a crash the entry is whole or absent, never
         * a renamed file whose blocks were not written yet */
        bool synced = write_all(fd, data, n) && write_all(fd, trailer, TRAILER_LEN) &&
                      fsync(fd) == 0;
        if (close(fd) == 0 && synced && rename(tmp_path, final_path) == 0)
            rc = 0;
        else
            unlink(tmp_path);
    }
    free(final_path);
    free(tmp_path);
    if (rc == 0) {
        Arena *a = arena_new();
        char *base = a ? cache_dir(a) : NULL;
        if (base)
            cache_trim(base);
        arena_free(a);
    }
    return rc;
}

/* ---- size cap: least recently used entries go first ---- */

/* MYTRITON_CACHE_MAX_BYTES, a positive number of bytes; else the default. */
static unsigned long long cache_max_bytes(void) {
    const char *env = getenv("MYTRITON_CACHE_MAX_BYTES");
    if (!env || *env < '0' || *env > '9')
        return CACHE_MAX_BYTES_DEFAULT;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(env, &end, 10);
    return errno || *end || v == 0 ? CACHE_MAX_BYTES_DEFAULT : v;
}

typedef struct Entry {
    char *path;
    unsigned long long size;
    struct timespec used; /* mtime: written or last read (futimens) */
} Entry;

typedef struct Entries {
    Entry *v;
    size_t n, cap;
    unsigned long long total;
} Entries;

static bool grow_entries(Entries *es) {
    size_t cap = es->cap ? 2 * es->cap : 256;
    Entry *v = realloc(es->v, cap * sizeof *v);
    if (!v)
        return false;
    es->v = v;
    es->cap = cap;
    return true;
}

/* Adds dir's entries (regular files with plain names; temporary files and
 * the lock start with '.') and, at depth 0, those of its subdirectories. */
static void list_entries(const char *dir, int depth, Entries *es) {
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(len);
        if (!path)
            break;
        snprintf(path, len, "%s/%s", dir, e->d_name);
        if (S_ISDIR(st.st_mode) && depth == 0) {
            list_entries(path, 1, es);
            free(path);
            continue;
        }
        if (!S_ISREG(st.st_mode) || (es->n == es->cap && !grow_entries(es))) {
            free(path);
            continue;
        }
        es->v[es->n++] = (Entry){path, (unsigned long long)st.st_size, st.st_mtim};
        es->total += (unsigned long long)st.st_size;
    }
    closedir(d);
}

static int older_first(const void *pa, const void *pb) {
    const Entry *a = pa, *b = pb;
    if (a->used.tv_sec != b->used.tv_sec)
        return a->used.tv_sec < b->used.tv_sec ? -1 : 1;
    return (a->used.tv_nsec > b->used.tv_nsec) - (a->used.tv_nsec < b->used.tv_nsec);
}

void cache_trim(const char *base) {
    unsigned long long max = cache_max_bytes();
    size_t len = strlen(base) + 8;
    char *lock = malloc(len);
    if (!lock)
        return;
    snprintf(lock, len, "%s/.lock", base);
    int lfd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    free(lock);
    /* one trimmer at a time; a process that finds the lock taken leaves
     * the work to the holder, which sees its entry too or the next put
     * does */
    if (lfd < 0 || flock(lfd, LOCK_EX | LOCK_NB) != 0) {
        if (lfd >= 0)
            close(lfd);
        return;
    }
    Entries es = {0};
    list_entries(base, 0, &es);
    if (es.total > max) {
        qsort(es.v, es.n, sizeof *es.v, older_first);
        /* down to 90%, so that the next puts do not each evict one */
        unsigned long long goal = max - max / 10;
        for (size_t i = 0; i < es.n && es.total > goal; i++)
            if (unlink(es.v[i].path) == 0)
                es.total -= es.v[i].size;
    }
    for (size_t i = 0; i < es.n; i++)
        free(es.v[i].path);
    free(es.v);
    flock(lfd, LOCK_UN);
    close(lfd);
}

/* ---- SHA-256 (FIPS 180-4), truncated to 128 bits for keys ---- */

static const uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror32(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void sha256_block(uint32_t h[8], const unsigned char *p) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5],
             g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t s1 = ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = hh + s1 + ch + sha256_k[i] + w[i];
        uint32_t s0 = ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22);
        uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = s0 + maj;
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
}

void cache_digest(const void *data, size_t n, char out[33]) {
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const unsigned char *p = data;
    size_t left = n;
    while (left >= 64) {
        sha256_block(h, p);
        p += 64;
        left -= 64;
    }
    unsigned char tail[128] = {0};
    if (left)
        memcpy(tail, p, left);
    tail[left] = 0x80;
    size_t tail_len = left < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)n * 8;
    for (int i = 0; i < 8; i++)
        tail[tail_len - 1 - i] = (unsigned char)(bits >> (8 * i));
    sha256_block(h, tail);
    if (tail_len == 128)
        sha256_block(h, tail + 64);
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            unsigned char byte = (unsigned char)(h[i] >> (24 - 8 * j));
            out[8 * i + 2 * j] = hex[byte >> 4];
            out[8 * i + 2 * j + 1] = hex[byte & 15];
        }
    out[32] = 0;
}
