"""A truncation and bit-flip sweep over kernel cache entries (issue 15,
item 3): every damaged entry must read as a miss, so a run after the
damage neither crashes nor gives a wrong result, and leaves the entry
rebuilt (a whole, sealed file again).

    PYTHONPATH=python python3 tests/cache_sweep.py [--quick] [--flips N]

Entries swept, in a private MYTRITON_CACHE_DIR:
  - host objects (<cache>/host/<key>.so): each damage is followed by a
    fresh process that compiles and launches the kernel and checks its
    result (a fresh process, so no earlier mapping of the file hides the
    damage);
  - cubin entries (<cache>/<key>.cubin, what the CUDA backend keeps; no
    GPU needed): written and read through the library's cache_put and
    cache_get with ctypes, so every byte can be flipped cheaply.
An entry is "sealed" when its trailer (cache.c) names its own key and
extension and the SHA-256 of its content.  Exit status 0 when all held.
"""
import argparse
import ctypes
import hashlib
import os
import random
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TRAILER = 64 + 8 + 32 + 8 + 8

# The child: compiles and runs one kernel of a variant, checks every element.
CHILD = r"""
import sys, torch
import mytriton as triton
import mytriton.language as tl

MUL = int(sys.argv[1])

@triton.jit
def scale(x, out, n, MUL: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) * MUL + 1, mask=m)

n = 1000
x = torch.arange(n, dtype=torch.int32)
out = torch.zeros(n, dtype=torch.int32)
scale[(triton.cdiv(n, 128),)](x, out, n, MUL=MUL, BLOCK=128)
want = x * MUL + 1
if not torch.equal(out, want):
    bad = int((out != want).sum())
    print(f"WRONG RESULT: {bad} of {n} elements", file=sys.stderr)
    sys.exit(3)
"""


def sealed(path):
    """Whether the file at path is a whole entry of its own name."""
    st = os.lstat(path)
    if not stat.S_ISREG(st.st_mode):
        return False
    with open(path, "rb") as fh:
        data = fh.read()
    if len(data) < TRAILER:
        return False
    body, t = data[:-TRAILER], data[-TRAILER:]
    key, ext = os.path.basename(path).split(".", 1)
    return (t[:64].rstrip(b"\0") == key.encode() and t[64:72].rstrip(b"\0") == ext.encode()
            and t[72:104] == hashlib.sha256(body).hexdigest()[:32].encode()
            and int.from_bytes(t[104:112], "little") == len(body) and t[112:] == b"MTCACHE1")


class Sweep:
    def __init__(self, cache, child):
        self.cache = cache
        self.child_py = child
        self.env = dict(os.environ, MYTRITON_CACHE_DIR=cache,
                        PYTHONPATH=os.path.join(ROOT, "python"))
        self.failures = []
        self.runs = 0

    def child(self, mul):
        self.runs += 1
        return subprocess.run([sys.executable, self.child_py, str(mul)], env=self.env,
                              capture_output=True, text=True, timeout=120)

    def check(self, what, path, mul=3):
        try:
            r = self.child(mul)
        except subprocess.TimeoutExpired:
            self.failures.append(f"{what}: hung")
            return
        if r.returncode != 0:
            self.failures.append(f"{what}: exit {r.returncode}: {r.stderr.strip()[-400:]}")
        elif not os.path.exists(path) or not sealed(path):
            self.failures.append(f"{what}: the entry was not rebuilt")

    def host_objects(self):
        d = os.path.join(self.cache, "host")
        return {f for f in os.listdir(d) if f.endswith(".so") and not f.startswith(".")}

    def sweep_host(self, flips, rng):
        host = os.path.join(self.cache, "host")
        for mul in (3, 5):
            r = self.child(mul)
            if r.returncode != 0:
                sys.exit(f"building variant {mul} failed: {r.stderr}")
            if mul == 3:
                (name,) = self.host_objects()
        (other,) = self.host_objects() - {name}
        path, other_path = os.path.join(host, name), os.path.join(host, other)
        with open(path, "rb") as fh:
            good = fh.read()
        with open(other_path, "rb") as fh:
            foreign = fh.read()
        size = len(good)

        def put(data):
            os.unlink(path)
            with open(path, "wb") as fh:
                fh.write(data)
            os.chmod(path, 0o600)

        for cut in sorted({0, 1, 64, size // 3, size // 2, size - TRAILER, size - 1}):
            put(good[:cut])
            self.check(f"host .so truncated to {cut} of {size} bytes", path)
        for at in sorted(rng.sample(range(size), flips)):
            b = bytearray(good)
            b[at] ^= 1 << rng.randrange(8)
            put(bytes(b))
            self.check(f"host .so bit flip at byte {at}", path)
        put(foreign)
        self.check("another kernel's host .so under this key", path)
        put(foreign[:-TRAILER])
        self.check("another kernel's bare object (no trailer) under this key", path)
        os.unlink(path)
        os.mkfifo(path, 0o600)
        self.check("a FIFO in place of the host .so", path)
        os.unlink(path)
        os.symlink(other_path, path)
        self.check("a symlink in place of the host .so", path)

    def sweep_cubin(self, lib):
        """Every truncation and every bit of a small entry: a miss, or the
        exact content (never a damaged one)."""
        get, put = lib.cache_get, lib.cache_put
        get.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                        ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t)]
        put.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                        ctypes.c_char_p, ctypes.c_size_t]
        free = ctypes.CDLL(None).free
        free.argtypes = [ctypes.c_void_p]
        d, key = self.cache.encode(), hashlib.sha256(b"sweep").hexdigest()[:32]
        path = os.path.join(self.cache, key + ".cubin")
        content = b"\x7fELF" + bytes(range(256)) * 2

        def read():
            out, n = ctypes.c_void_p(), ctypes.c_size_t()
            if get(d, key.encode(), b"cubin", ctypes.byref(out), ctypes.byref(n)) != 0:
                return None
            data = ctypes.string_at(out, n.value)
            free(out)
            return data

        if put(d, key.encode(), b"cubin", content, len(content)) != 0 or read() != content:
            self.failures.append("cubin: a fresh entry does not read back")
            return
        with open(path, "rb") as fh:
            good = fh.read()
        damaged = [good[:cut] for cut in range(len(good))]
        for at in range(len(good)):
            for bit in range(8):
                b = bytearray(good)
                b[at] ^= 1 << bit
                damaged.append(bytes(b))
        for i, data in enumerate(damaged):
            with open(path, "wb") as fh:
                fh.write(data)
            if read() is not None:
                self.failures.append(f"cubin: damaged entry {i} was read as whole")
        if put(d, key.encode(), b"cubin", content, len(content)) != 0 or read() != content \
                or not sealed(path):
            self.failures.append("cubin: the entry was not replaced")
        print(f"cubin: {len(damaged)} damaged entries, each a miss")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flips", type=int, default=40, help="bit flips of the host object")
    ap.add_argument("--quick", action="store_true", help="CI size: 8 host bit flips")
    ap.add_argument("--seed", type=int, default=15)
    opts = ap.parse_args()
    flips = 8 if opts.quick else opts.flips
    lib = ctypes.CDLL(os.path.join(ROOT, "build", "libmytriton.so"))
    with tempfile.TemporaryDirectory(prefix="mt-cache-sweep-") as tmp:
        cache, child = os.path.join(tmp, "cache"), os.path.join(tmp, "child.py")
        os.mkdir(cache, 0o700)
        with open(child, "w") as fh:  # a kernel's source must be in a file
            fh.write(CHILD)
        s = Sweep(cache, child)
        s.sweep_cubin(lib)
        s.sweep_host(flips, random.Random(opts.seed))
        print(f"host .so: {s.runs} runs")
    for f in s.failures:
        print("FAIL", f)
    print("ok" if not s.failures else f"{len(s.failures)} failures")
    return 1 if s.failures else 0


if __name__ == "__main__":
    sys.exit(main())
