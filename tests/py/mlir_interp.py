"""A reference interpreter of the MLIR modules mlir.c emits, for CI
without a GPU: it runs every thread of every program of a grid on NumPy
arrays, so tests can compare what the MLIR backend computes with torch
(tests/py/test_mlir.py).  It reads only the subset mlir.c writes (arith,
scf.if/for/while, memref.load/store, gpu ids, barrier, shuffle xor, the
inline PTX instructions), one operation a line.

Threads are Python generators run in lockstep between gpu.barrier and
gpu.shuffle (every thread of a program must reach the same one, as on the
GPU); f32 and f16 arithmetic rounds through NumPy scalars.
"""
import math
import re

import numpy as np

_INT_BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64}
_FLOAT = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def _wrap(v, ty):
    b = _INT_BITS[ty]
    if b == 1:
        return int(v) & 1
    v = int(v) & ((1 << b) - 1)
    return v - (1 << b) if v >> (b - 1) else v


def _unsigned(v, ty):
    b = _INT_BITS[ty]
    return int(v) & ((1 << b) - 1)


def _lit(text, ty):
    if text in ("true", "false"):
        return 1 if text == "true" else 0
    if ty in _FLOAT:
        if text.startswith("0x"):
            bits = int(text, 16)
            dt = {"f16": np.uint16, "f32": np.uint32, "f64": np.uint64}[ty]
            return np.array([bits], dtype=dt).view(_FLOAT[ty])[0]
        return _FLOAT[ty](float(text))
    return _wrap(int(text), ty)


class _Op:
    __slots__ = ("res", "kind", "text", "body", "alt", "args")

    def __init__(self, res, kind, text):
        self.res, self.kind, self.text, self.body, self.alt, self.args = res, kind, text, None, None, None


def _parse(lines, i, end_tokens):
    """Ops until a line in end_tokens; returns (ops, index of that line)."""
    ops = []
    while i < len(lines):
        line = lines[i].strip()
        if any(line.startswith(t) for t in end_tokens):
            return ops, i
        m = re.match(r"^((?:%[\w.$-]+(?:, )?)+) = (.*)$", line)
        res, rest = ([r.strip() for r in m.group(1).split(",")], m.group(2)) if m else ([], line)
        kind = rest.split(" ")[0].split("(")[0]
        op = _Op(res, kind, rest)
        if kind in ("scf.if", "scf.for") and rest.endswith("{"):
            op.body, i = _parse(lines, i + 1, ["} else {", "}"])
            if lines[i].strip() == "} else {":
                op.alt, i = _parse(lines, i + 1, ["}"])
        elif kind == "scf.while":
            op.alt, i = _parse(lines, i + 1, ["} do {"])
            op.args = re.findall(r"(%[\w.$-]+):", lines[i + 1])
            op.body, i = _parse(lines, i + 2, ["}"])
        ops.append(op)
        i += 1
    return ops, i


class Module:
    def __init__(self, text):
        lines = text.splitlines()
        fi = next(i for i, l in enumerate(lines) if "gpu.func @" in l)
        head = lines[fi]
        sig = re.search(r"gpu\.func @\w+\((.*?)\)( workgroup\((.*?)\))? kernel", head)
        self.params = re.findall(r"(%[\w.$-]+): ([^,]+?)(?:,|$)", sig.group(1))
        self.workgroup = re.findall(r"(%[\w.$-]+): memref<(\d+)x(\w+),", sig.group(3) or "")
        self.threads = int(re.search(r"array<i32: (\d+),", head).group(1))
        self.ops, _ = _parse(lines, fi + 1, ["gpu.return"])

    def run(self, grid, args):
        """args: one per parameter (NumPy arrays for memrefs, numbers)."""
        grid = tuple(grid) + (1,) * (3 - len(grid))
        for bz in range(grid[2]):
            for by in range(grid[1]):
                for bx in range(grid[0]):
                    self._program((bx, by, bz), grid, args)

    def _program(self, bid, grid, args):
        shared = {name: np.zeros(int(n), dtype=_np_type(ty)) for name, n, ty in self.workgroup}
        threads = []
        for t in range(self.threads):
            env = dict(shared)
            for (name, ty), a in zip(self.params, args):
                env[name] = a
            env["%mt_ids"] = (bid, t, grid)
            threads.append(self._thread(self.ops, env))
        states = [next(g, None) for g in threads]
        while any(s is not None for s in states):
            kinds = {s[0] for s in states if s is not None}
            if len(kinds) != 1 or any(s is None for s in states):
                raise RuntimeError(f"threads diverged at a barrier or shuffle: {kinds}")
            if "barrier" in kinds:
                states = [_next(g, None) for g in threads]
                continue
            vals = [s[1] for s in states]
            outs = []
            for t, s in enumerate(states):
                lane, width = t % 32, s[3]
                src = lane ^ s[2]
                outs.append(vals[(t - lane) + src] if src < width else vals[t])
            states = [_next(g, o) for g, o in zip(threads, outs)]

    def _thread(self, ops, env):
        yield from self._region(ops, env)

    def _region(self, ops, env):
        for op in ops:
            r = yield from self._op(op, env)
            if r is not None:
                return r
        return None

    def _op(self, op, env):
        k, t, res = op.kind, op.text, op.res
        g = lambda name: env[name]
        if k in ("scf.yield", "scf.condition"):
            names = re.findall(r"%[\w.$-]+", t.split(":")[0])
            return [g(n) for n in names]
        if k == "gpu.barrier":
            yield ("barrier",)
            return None
        if k == "gpu.shuffle":
            m = re.match(r"gpu\.shuffle xor (%\S+), (%\S+), (%\S+) : (\w+)", t)
            got = yield ("shfl", g(m.group(1)), g(m.group(2)), g(m.group(3)))
            env[res[0]], env[res[1]] = got, 1
            return None
        if k in ("gpu.block_id", "gpu.thread_id", "gpu.grid_dim"):
            bid, tid, grid = env["%mt_ids"]
            axis = "xyz".index(t.split()[-1])
            env[res[0]] = {"gpu.block_id": bid[axis], "gpu.thread_id": tid if axis == 0 else 0,
                           "gpu.grid_dim": grid[axis]}[k]
            return None
        if k == "scf.if":
            c = g(t.split()[1])
            branch = op.body if c else op.alt
            out = (yield from self._region(branch, env)) if branch else None
            for n, v in zip(res, out or []):
                env[n] = v
            return None
        if k == "scf.for":
            m = re.match(r"scf\.for (%\S+) = (%\S+) to (%\S+) step (%\S+)(?: iter_args\((.*)\) -> .*)? : (\w+) \{", t)
            iv, lo, hi, st = m.group(1), g(m.group(2)), g(m.group(3)), g(m.group(4))
            pairs = re.findall(r"(%[\w.$-]+) = (%[\w.$-]+)", m.group(5) or "")
            cur = [g(v) for _, v in pairs]
            i = lo
            while i < hi:
                env[iv] = i
                for (n, _), v in zip(pairs, cur):
                    env[n] = v
                cur = yield from self._region(op.body, env)
                i += st
            for n, v in zip(res, cur):
                env[n] = v
            return None
        if k == "scf.while":
            pairs = re.findall(r"(%[\w.$-]+) = (%[\w.$-]+)", t.split(":")[0])
            cur = [g(v) for _, v in pairs]
            while True:
                for (n, _), v in zip(pairs, cur):
                    env[n] = v
                out = yield from self._region(op.alt, env)
                cond, vals = out[0], out[1:]
                if not cond:
                    break
                for n, v in zip(op.args, vals):
                    env[n] = v
                cur = yield from self._region(op.body, env)
            for n, v in zip(res, vals):
                env[n] = v
            return None
        env.update(zip(res, _compute(k, t, g)))
        return None


def _next(gen, value):
    try:
        return gen.send(value)
    except StopIteration:
        return None


def _np_type(ty):
    return {"i1": np.int8, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
            "index": np.int64, "f16": np.float16, "f32": np.float32, "f64": np.float64}[ty]


_PRED = {"slt": lambda a, b: a < b, "sle": lambda a, b: a <= b, "sgt": lambda a, b: a > b,
         "sge": lambda a, b: a >= b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
         "olt": lambda a, b: a < b, "ole": lambda a, b: a <= b, "ogt": lambda a, b: a > b,
         "oge": lambda a, b: a >= b, "oeq": lambda a, b: a == b,
         "une": lambda a, b: not (a == b), "uno": lambda a, b: a != a or b != b}


def _fmax(a, b, nan_wins):
    if a != a or b != b:
        return a if (a != a) == nan_wins else b
    return max(a, b)


def _fmin(a, b, nan_wins):
    if a != a or b != b:
        return a if (a != a) == nan_wins else b
    return min(a, b)


def _compute(k, t, g):
    ty = t.rsplit(":", 1)[-1].strip()
    names = re.findall(r"%[\w.$-]+", t.rsplit(":", 1)[0])
    v = [g(n) for n in names]
    if k == "arith.constant":
        m = re.match(r"arith\.constant (\S+)(?: : (\w+))?", t)
        return [_lit(m.group(1), m.group(2) or "i1")]
    if k in ("arith.cmpi", "arith.cmpf"):
        pred = t.split()[1].rstrip(",")
        a, b = v
        if pred[0] == "u" and k == "arith.cmpi":
            a, b, pred = _unsigned(a, ty), _unsigned(b, ty), "s" + pred[1:]
        return [1 if _PRED[pred](a, b) else 0]
    if k == "arith.select":
        return [v[1] if v[0] else v[2]]
    if " to " in t:
        src, dst = re.search(r": (\w+) to (\w+)", t).groups()
        x = v[0]
        if k in ("arith.index_cast", "arith.extsi", "arith.trunci"):
            return [_wrap(x, dst)]
        if k == "arith.extui":
            return [_unsigned(x, src)]
        if k in ("arith.sitofp",):
            return [_FLOAT[dst](x)]
        if k == "arith.uitofp":
            return [_FLOAT[dst](_unsigned(x, src))]
        if k in ("arith.fptosi", "arith.fptoui"):
            return [_wrap(int(x), dst)]
        if k in ("arith.extf", "arith.truncf"):
            return [_FLOAT[dst](x)]
        if k == "arith.bitcast":
            return [np.array([x], dtype=_np_type(src)).view(_np_type(dst))[0]]
    if k == "llvm.inline_asm":
        ins = re.search(r'"([\w.]+) ', t).group(1)
        return [_ptx(ins, v)]
    if k == "memref.load":
        return [v[0][v[1]]]
    if k == "memref.atomic_rmw":  # threads run one at a time: atomic as it is
        kind = t.split()[1]
        x, buf, i = v
        old = buf[i]
        ty = re.search(r": \((\w+),", t).group(1)
        new = {"addf": lambda: old + x, "addi": lambda: _wrap(int(old) + int(x), ty),
               "maxs": lambda: max(int(old), int(x)), "mins": lambda: min(int(old), int(x)),
               "maxu": lambda: old if _unsigned(old, ty) >= _unsigned(x, ty) else x,
               "minu": lambda: old if _unsigned(old, ty) <= _unsigned(x, ty) else x,
               "andi": lambda: int(old) & int(x), "ori": lambda: int(old) | int(x),
               "assign": lambda: x}[kind]()
        buf[i] = new
        return [old]
    if k == "memref.store":
        v[1][v[2]] = v[0]
        return []
    a = v[0]
    b = v[1] if len(v) > 1 else None
    if ty in _FLOAT:
        f = _FLOAT[ty]
        with np.errstate(all="ignore"):
            r = {"arith.addf": lambda: a + b, "arith.subf": lambda: a - b,
                 "arith.mulf": lambda: a * b, "arith.divf": lambda: a / b,
                 "arith.remf": lambda: f(math.fmod(a, b)) if b != 0 else f("nan"),
                 "arith.negf": lambda: -a,
                 "arith.maxnumf": lambda: _fmax(a, b, False),
                 "arith.minnumf": lambda: _fmin(a, b, False),
                 "arith.maximumf": lambda: _fmax(a, b, True),
                 "arith.minimumf": lambda: _fmin(a, b, True)}[k]()
        return [f(r)]
    u = lambda x: _unsigned(x, ty)
    r = {"arith.addi": lambda: a + b, "arith.subi": lambda: a - b, "arith.muli": lambda: a * b,
         "arith.divsi": lambda: _tdiv(a, b), "arith.divui": lambda: u(a) // u(b) if b else -1,
         "arith.remsi": lambda: a - _tdiv(a, b) * b if b else -1,
         "arith.remui": lambda: u(a) % u(b) if b else -1,
         "arith.andi": lambda: a & b, "arith.ori": lambda: a | b, "arith.xori": lambda: a ^ b,
         "arith.shli": lambda: a << b, "arith.shrsi": lambda: a >> b,
         "arith.shrui": lambda: u(a) >> b,
         "arith.maxsi": lambda: max(a, b), "arith.minsi": lambda: min(a, b),
         "arith.maxui": lambda: a if u(a) >= u(b) else b,
         "arith.minui": lambda: a if u(a) <= u(b) else b}[k]()
    return [_wrap(r, ty)]


def _tdiv(a, b):
    """C's truncating division (the GPU's is undefined for b == 0)."""
    if not b:
        return -1
    q = abs(int(a)) // abs(int(b))
    return q if (a < 0) == (b < 0) else -q


def _ptx(ins, v):
    name, ty = ins.rsplit(".", 1)
    f = _FLOAT.get(ty)
    with np.errstate(all="ignore"):
        if name == "ex2.approx":
            return f(np.exp2(np.float64(v[0])))
        if name == "lg2.approx":
            return f(np.log2(np.float64(v[0])))
        if name == "rsqrt.approx":
            return f(1 / np.sqrt(np.float64(v[0])))
        if name in ("sqrt.rn", "sqrt.approx.ftz"):  # the approximation within 2 ulp
            return f(np.sqrt(v[0]))
        if name == "abs":
            return f(abs(v[0]))
        if name == "div.full":
            return f(v[0] / v[1])
        if name == "fma.rn":
            return f(np.float64(v[0]) * np.float64(v[1]) + np.float64(v[2]))
        if name == "cvt.rna.tf32":  # round to nearest, ties away, 10 mantissa bits
            u = int(np.array([v[0]], dtype=np.float32).view(np.uint32)[0])
            if (u >> 23) & 0xFF != 0xFF:
                u = (u + 0x1000) & 0xFFFFE000
            return _wrap(u, "i32")
        if name.startswith("cvt."):
            mode = name.split(".")[1]
            fn = {"rmi": np.floor, "rpi": np.ceil, "rzi": np.trunc, "rni": np.rint}[mode]
            return f(fn(v[0]))
        if name == "mul.hi":
            bits = int(ty[1:])
            mask = (1 << bits) - 1
            hi = ((int(v[0]) & mask) * (int(v[1]) & mask)) >> bits
            return _wrap(hi, f"i{bits}")
    raise NotImplementedError(ins)
