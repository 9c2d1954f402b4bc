"""Differential testing: random but valid kernels against NumPy.

A seeded generator writes each random program twice from one description:
as Triton source text (written to a temporary .py file and imported, so
`inspect` finds it) and as a NumPy evaluation of the same expression trees,
run program by program.  Programs cover elementwise trees over rank-1 and
rank-2 blocks (+ - * / // % min max where comparisons & | abs exp log sqrt
casts), broadcasting of (M,1) with (1,N) and scalars, masked loads with
`other` and masked stores on ragged sizes, reductions over axis 0/1/None
with keep_dims, runtime and static loops with carried scalars and blocks
(swapped carries too), and tl.dot over a ragged K loop.  Outputs start as
NaN (or a sentinel for ints) so unwritten elements fail.

Integer trees are evaluated in int64 and a program whose i32 values would
leave the i32 range is regenerated (C overflow is undefined).  Float
divisors are |e| + 1, integer divisors nonzero, exp/log/sqrt arguments are
clamped to safe ranges, so no NaN or inf arises.

Run more seeds by hand:  PYTHONPATH=python python3 tests/py/test_random_kernels.py 0 300
"""
import importlib.util
import os
import random
import sys
import tempfile

import numpy as np
import pytest

import mytriton as triton


class Reject(Exception):
    """The random program is not usable (int overflow, ...): regenerate."""


I32_MAX = 2 ** 31 - 1

# ---------------------------------------------------------------- evaluation
# Values: (array, t) with t in 'f' f32, 'i' i32, 'l' i64, 'b' bool,
# 'wi'/'wf' weak Python literals.  Ints are held as int64 arrays.


def _np(v, t):
    if t == "f":
        return np.asarray(v, dtype=np.float32)
    if t in ("i", "l"):
        return np.asarray(v, dtype=np.int64)
    return np.asarray(v, dtype=bool)


def _promote(ta, tb):
    ts = {ta, tb}
    if "f" in ts or "wf" in ts:
        return "f"
    if "l" in ts:
        return "l"
    if "i" in ts:
        return "i"
    if "b" in ts:
        return "b"
    return "i"


def _conv(v, t, to):
    if to == "f":
        return np.asarray(v, dtype=np.float32) if t != "b" else np.asarray(v, dtype=np.float32)
    if to in ("i", "l"):
        return np.asarray(v, dtype=np.int64)
    return np.asarray(v, dtype=bool)


def _check(v, t):
    if t in ("i", "l"):
        if v.size and (np.abs(v).max() > 2 ** 30):
            raise Reject("int range")
    return v


def _tdiv(a, b):
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def ev(node, env):
    kind = node[0]
    if kind == "leaf":
        return env[node[1]]
    if kind == "lit":
        return node[1], ("wf" if isinstance(node[1], float) else "wi")
    if kind == "bin":
        op = node[1]
        a, ta = ev(node[2], env)
        b, tb = ev(node[3], env)
        if op == "/":
            x = _conv(a, ta, "f")
            y = _conv(b, tb, "f")
            return (x / y).astype(np.float32), "f"
        t = _promote(ta, tb)
        x = _conv(a, ta, t)
        y = _conv(b, tb, t)
        if op == "+":
            r = x + y
        elif op == "-":
            r = x - y
        elif op == "*":
            r = x * y
        elif op == "//":
            r = _tdiv(x, y)
        elif op == "%":
            r = x - y * _tdiv(x, y)
        elif op in ("<", "<=", ">", ">=", "==", "!="):
            r = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
                 "==": np.equal, "!=": np.not_equal}[op](x, y)
            return np.asarray(r), "b"
        elif op == "&":
            r = x & y
        elif op == "|":
            r = x | y
        elif op == "min":
            r = np.minimum(x, y)
        elif op == "max":
            r = np.maximum(x, y)
        else:
            raise AssertionError(op)
        if t == "f":
            r = np.asarray(r, dtype=np.float32)
        return _check(np.asarray(r), t), t
    if kind == "where":
        c, _ = ev(node[1], env)
        a, ta = ev(node[2], env)
        b, tb = ev(node[3], env)
        t = _promote(ta, tb)
        return np.where(np.asarray(c, dtype=bool), _conv(a, ta, t), _conv(b, tb, t)), t
    if kind == "un":
        op = node[1]
        a, ta = ev(node[2], env)
        t = "i" if ta == "wi" else ("f" if ta == "wf" else ta)
        x = _conv(a, ta, t)
        if op == "abs":
            return np.abs(x), t
        if op == "neg":
            return -x, t
        if op == "exp":
            return np.exp(x).astype(np.float32), "f"
        if op == "log":
            return np.log(x).astype(np.float32), "f"
        if op == "sqrt":
            return np.sqrt(x).astype(np.float32), "f"
        raise AssertionError(op)
    if kind == "cast":
        a, ta = ev(node[1], env)
        to = node[2]
        if to == "f":
            return np.asarray(a).astype(np.float32), "f"
        if ta == "f":
            return np.trunc(np.asarray(a, dtype=np.float32)).astype(np.int64), to
        return np.asarray(a).astype(np.int64), to
    if kind == "red":
        a, ta = ev(node[2], env)
        fn = {"sum": np.sum, "max": np.max, "min": np.min}[node[1]]
        axis, keep = node[3], node[4]
        x = _conv(a, ta, ta)
        r = fn(x, axis=axis, keepdims=keep)
        if ta == "f":
            r = np.asarray(r, dtype=np.float32)
        return _check(np.asarray(r), ta), ta
    raise AssertionError(kind)


# ------------------------------------------------------------------ rendering
TL_DT = {"f": "tl.float32", "i": "tl.int32", "l": "tl.int64"}


def render(node):
    kind = node[0]
    if kind == "leaf":
        return node[2]
    if kind == "lit":
        return repr(node[1])
    if kind == "bin":
        op = node[1]
        a, b = render(node[2]), render(node[3])
        if op == "min":
            return f"tl.minimum({a}, {b})"
        if op == "max":
            return f"tl.maximum({a}, {b})"
        return f"({a} {op} {b})"
    if kind == "where":
        return f"tl.where({render(node[1])}, {render(node[2])}, {render(node[3])})"
    if kind == "un":
        op, a = node[1], render(node[2])
        if op == "neg":
            return f"(-{a})"
        return f"tl.{op}({a})"
    if kind == "cast":
        inner = render(node[1])
        if only_k(node[1]):
            inner = f"({inner} + pid * 0)"  # a static_range variable is a constexpr: no .to
        return f"{inner}.to({TL_DT[node[2]]})"
    if kind == "red":
        axis = "None" if node[3] is None else str(node[3])
        keep = ", keep_dims=True" if node[4] else ""
        return f"tl.{node[1]}({render(node[2])}, axis={axis}{keep})"
    raise AssertionError(kind)


BLOCK_LEAVES = {"A", "B", "rv", "cv", "ri", "ci", "a", "b", "offs", "acc", "tt", "cb"}


def has_block(node):
    if node[0] == "leaf":
        return node[1] in BLOCK_LEAVES
    return any(has_block(c) for c in node[1:] if isinstance(c, tuple))


def only_k(node):
    """True when every leaf is the loop variable (a constexpr when unrolled)."""
    if node[0] == "leaf":
        return node[1] == "k"
    if node[0] == "lit":
        return True
    return all(only_k(c) for c in node[1:] if isinstance(c, tuple))


def leaf(name, t, text=None):
    return ("leaf", name, text or name, t)


def ntype(node):
    """Static type class of a node (weak literals as 'wi'/'wf')."""
    kind = node[0]
    if kind == "leaf":
        return node[3]
    if kind == "lit":
        return "wf" if isinstance(node[1], float) else "wi"
    if kind == "bin":
        if node[1] == "/":
            return "f"
        if node[1] in ("<", "<=", ">", ">=", "==", "!="):
            return "b"
        return _promote(ntype(node[2]), ntype(node[3]))
    if kind == "where":
        return _promote(ntype(node[2]), ntype(node[3]))
    if kind == "un":
        t = ntype(node[2])
        if node[1] in ("exp", "log", "sqrt"):
            return "f"
        return {"wi": "i", "wf": "f"}.get(t, t)
    if kind == "cast":
        return node[2]
    if kind == "red":
        return ntype(node[2])
    raise AssertionError(kind)


# ----------------------------------------------------------------- generation
class ExprGen:
    def __init__(self, rng, leaves):
        self.r = rng
        self.leaves = leaves  # list of leaf nodes

    def leaf_of(self, t):
        c = [l for l in self.leaves if l[3] == t]
        if t == "l" or not c:
            if t == "f":
                return ("cast", self.leaf_of("i"), "f")
            if t == "l":
                return ("cast", self.leaf_of("i"), "l")
            if t == "b":
                return ("bin", "<", self.leaf_of("f"), ("lit", round(self.r.uniform(-1, 1), 2)))
        return self.r.choice(c)

    def lit(self, t):
        if t == "f":
            return ("lit", self.r.choice([0.5, 2.0, -1.5, 3.0, 0.25, 1.0, -0.75]))
        return ("lit", self.r.choice([1, 2, 3, -2, 5, 7, -1, 0]))

    def gen(self, t, depth):
        r = self.r
        if depth <= 0 or r.random() < 0.2:
            return self.leaf_of(t)
        if t == "b":
            k = r.random()
            if k < 0.6:
                ct = r.choice(["f", "i"])
                a = self.gen(ct, depth - 1)
                b = self.gen(ct, depth - 1) if r.random() < 0.6 else self.lit(ct)
                return ("bin", r.choice(["<", "<=", ">", ">=", "==", "!="]), a, b)
            return ("bin", r.choice(["&", "|"]), self.gen("b", depth - 1), self.gen("b", depth - 1))
        if t == "l":
            return ("cast", self.gen("i", depth - 1), "l")
        k = r.randrange(10)
        if k <= 2:
            op = r.choice(["+", "-", "*"])
            if t == "f":
                a = self.gen("f", depth - 1)
                b = self.gen(r.choice(["f", "f", "i"]), depth - 1) if r.random() < 0.7 else self.lit(r.choice("fi"))
            else:
                a = self.gen("i", depth - 1)
                b = self.gen(r.choice(["i", "i", "l"]) if r.random() < 0.1 else "i", depth - 1) \
                    if r.random() < 0.7 else self.lit("i")
                if ntype(b) == "l":
                    a = ("cast", ("bin", op, a, b), "i")  # back to i32
                    return a
            if r.random() < 0.5:
                a, b = b, a
            if ntype(a).startswith("w") and ntype(b).startswith("w"):
                b = self.leaf_of(t)
            return ("bin", op, a, b)
        if k == 3:
            if t == "f":
                a = self.gen(r.choice(["f", "i"]), depth - 1)
                d = self.gen(r.choice(["f", "i"]), depth - 1)
                one = 1.0 if ntype(d) == "f" else 1
                div = ("bin", "+", ("un", "abs", d), ("lit", one))
                if r.random() < 0.3:
                    div = ("un", "neg", div)
                return ("bin", "/", a, div)
            a = self.gen("i", depth - 1)
            if r.random() < 0.5:
                div = ("lit", r.choice([1, 2, 3, 5, 7, -2, -3, 16]))
            else:
                div = ("bin", "+", ("bin", "%", ("un", "abs", self.gen("i", depth - 1)), ("lit", 5)),
                       ("lit", 1))
                if r.random() < 0.3:
                    div = ("un", "neg", div)
            return ("bin", r.choice(["//", "%"]), a, div)
        if k == 4:
            a = self.gen(t, depth - 1)
            b = self.gen(t, depth - 1) if r.random() < 0.7 else self.lit(t)
            return ("bin", r.choice(["min", "max"]), a, b)
        if k == 5:
            c = self.gen("b", depth - 1)
            a = self.gen(t, depth - 1)
            b = self.gen(t, depth - 1) if r.random() < 0.7 else self.lit(t)
            if r.random() < 0.5:
                a, b = b, a
            if ntype(a).startswith("w") and ntype(b).startswith("w"):
                b = self.leaf_of(t)
            return ("where", c, a, b)
        if k == 6:
            return ("un", r.choice(["abs", "neg"]), self.gen(t, depth - 1))
        if k == 7 and t == "f":
            a = self.gen("f", depth - 1)
            which = r.choice(["exp", "log", "sqrt"])
            if which == "exp":
                return ("un", "exp", ("bin", "min", a, ("lit", 4.0)))
            if which == "log":
                return ("un", "log", ("bin", "+", ("un", "abs", a), ("lit", 1.0)))
            return ("un", "sqrt", ("un", "abs", a))
        if k == 8:
            if t == "f":
                return ("cast", self.gen(r.choice(["i", "i", "l"]), depth - 1), "f")
            if r.random() < 0.5:
                a = self.gen("f", depth - 1)
                clamped = ("bin", "min", ("bin", "max", a, ("lit", -1000.0)), ("lit", 1000.0))
                return ("cast", clamped, "i")
            return ("cast", self.gen("b", depth - 1), "i")
        return self.gen(t, depth - 1)


# -------------------------------------------------------------------- programs
POW2 = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]


def _clamp(node, lo=-100.0, hi=100.0):
    return ("bin", "min", ("bin", "max", node, ("lit", lo)), ("lit", hi))


class Program:
    """source, name, make_args() -> (args list, kwargs, grid, num_warps),
    reference(args) -> list of (index of output arg, expected array)."""


def _out_array(t, n):
    if t == "f":
        return np.full(n, np.nan, dtype=np.float32)
    if t == "l":
        return np.full(n, -7777777, dtype=np.int64)
    return np.full(n, -7777777, dtype=np.int32)


def _store_cast(node):
    t = ntype(node)
    if t == "b":
        return ("cast", node, "i")
    return node


def gen_ew1(r, name):
    """1-D elementwise (optionally with a static or runtime loop)."""
    block = r.choice(POW2)
    nw = r.choice([1, 2, 4, 8])
    n = r.randrange(1, min(3 * block, 5000) + 1)
    loop = r.choice([None, None, "static", "const_range", "runtime"])
    leaves = [leaf("a", "f"), leaf("b", "i"), leaf("offs", "i"), leaf("pid", "i"),
              leaf("si", "i"), leaf("sf", "f")]
    if loop:
        leaves += [leaf("k", "i"), leaf("acc", "f"), leaf("cb", "i"), leaf("s1", "i"), leaf("s2", "f")]
    g = ExprGen(r, leaves)
    depth = r.randint(1, 4)
    body = None
    swap = r.random() < 0.4
    if loop:
        body = _clamp(("bin", "+", ("bin", "*", leaf("acc", "f"), ("lit", 0.5)), g.gen("f", depth)))
        ibody = ("bin", "%", ("bin", "+", leaf("cb", "i"), g.gen("i", 2)), ("lit", 97))
        sg = ExprGen(r, [leaf("k", "i"), leaf("s1", "i"), leaf("s2", "f"), leaf("pid", "i"),
                         leaf("si", "i"), leaf("sf", "f")])
        sbody1 = ("bin", "%", ("bin", "+", ("bin", "*", leaf("s1", "i"), ("lit", 3)), sg.gen("i", 2)),
                  ("lit", 1000))
        sbody2 = _clamp(("bin", "+", leaf("s2", "f"), sg.gen("f", 2)))
        sswap = r.random() < 0.5
        g.leaves = [l for l in leaves if l[1] not in ("k",)] + [leaf("tt", "f")]
        final = g.gen(r.choice("fi"), depth)
    else:
        final = g.gen(r.choice("ffib"), depth)
    final = _store_cast(final)
    ot = ntype(final)
    if ot.startswith("w"):
        final = ("bin", "+", final, leaf("a", "f") if ot == "wf" else leaf("b", "i"))
        ot = ntype(final)
    oa = r.choice([0.0, 1.5, -2.0, 0, -3])
    ob = r.choice([0, 3, -4, 2.0])
    lo, step = r.randint(0, 2), r.randint(1, 3)
    trip = r.randint(0, 6)
    hi = lo + trip
    if loop == "const_range" and r.random() < 0.3:
        hi = lo + 70 * step  # > 64 iterations: structured loop with constexpr bounds
    misalign = r.random() < 0.3
    src = [f"@triton.jit",
           f"def {name}(X, Y, OUT, n, si, sf, L, BLOCK: tl.constexpr, LO: tl.constexpr, HI: tl.constexpr):",
           f"    pid = tl.program_id(0)",
           f"    offs = pid * BLOCK + tl.arange(0, BLOCK)",
           f"    mask = offs < n",
           f"    a = tl.load(X + offs, mask=mask, other={oa!r})",
           f"    b = tl.load(Y + offs, mask=mask, other={ob!r})"]
    if loop:
        src += ["    acc = a * 0.5", "    tt = tl.zeros((BLOCK,), tl.float32) + sf", "    cb = b",
                "    s1 = si", "    s2 = sf"]
        if loop == "static":
            src.append(f"    for k in tl.static_range(LO, HI, {step}):")
        elif loop == "const_range":
            src.append(f"    for k in range(LO, HI, {step}):")
        else:
            src.append(f"    for k in range(LO, L, {step}):")
        src.append(f"        acc = {render(body)}")
        src.append(f"        cb = {render(ibody)}")
        if sswap:
            src.append(f"        s1, s2 = {render(sbody1)}, {render(sbody2)}")
        else:
            src.append(f"        s1 = {render(sbody1)}")
            src.append(f"        s2 = {render(sbody2)}")
        if swap:
            src.append("        acc, tt = tt, acc")
    src.append(f"    tl.store(OUT + offs, {render(final)}, mask=mask)")
    source = "\n".join(src) + "\n"

    rs = np.random.RandomState(r.randrange(1 << 30))
    x = (rs.rand(n + 1).astype(np.float32) * 4 - 2)
    y = rs.randint(-50, 50, size=n + 1).astype(np.int32)
    si = int(rs.randint(-20, 20))
    sf = float(np.float32(rs.rand() * 3 - 1.5))
    grid = (triton.cdiv(n, block),)
    L = hi if loop != "runtime" else lo + trip
    if grid[0] > 64:
        raise Reject("grid")

    def reference():
        out = _out_array(ot, n).astype(np.float64 if ot == "f" else np.int64)
        xs, ys = (x[1:], y[1:]) if misalign else (x[:n], y[:n])
        for p in range(grid[0]):
            offs = p * block + np.arange(block)
            m = offs < n
            av = np.where(m, xs[np.minimum(offs, n - 1)], np.float32(oa)).astype(np.float32)
            bv = np.where(m, ys[np.minimum(offs, n - 1)], int(ob)).astype(np.int64)
            env = {"a": (av, "f"), "b": (bv, "i"), "offs": (offs.astype(np.int64), "i"),
                   "pid": (np.int64(p), "i"), "si": (np.int64(si), "i"),
                   "sf": (np.float32(sf), "f")}
            if loop:
                env["acc"] = ((av * np.float32(0.5)).astype(np.float32), "f")
                env["tt"] = ((np.zeros(block, np.float32) + np.float32(sf)).astype(np.float32), "f")
                env["cb"] = (bv, "i")
                env["s1"] = (np.int64(si), "i")
                env["s2"] = (np.float32(sf), "f")
                for k in range(lo, L, step):
                    env["k"] = (np.int64(k), "i")
                    na = ev(body, env)
                    env["acc"] = (np.broadcast_to(na[0], (block,)), "f")
                    nb = ev(ibody, env)
                    env["cb"] = (np.broadcast_to(_conv(*nb, "i"), (block,)), "i")
                    if sswap:
                        n1, n2 = ev(sbody1, env), ev(sbody2, env)
                        env["s1"], env["s2"] = n1, n2
                    else:
                        env["s1"] = ev(sbody1, env)
                        env["s2"] = ev(sbody2, env)
                    if swap:
                        env["acc"], env["tt"] = env["tt"], env["acc"]
            v, t = ev(final, env)
            v = np.broadcast_to(_conv(v, t, ot), (block,))
            out[offs[m]] = v[m]
        return out

    def make():
        xs = x[1:] if misalign else x[:n].copy()
        ys = y[1:] if misalign else y[:n].copy()
        o = _out_array(ot, n)
        args = [xs, ys, o, n, si, sf, L]
        kw = dict(BLOCK=block, LO=lo, HI=hi)
        return args, kw, grid, nw, 2

    return source, make, reference, ot, {"reduce": False}


def gen_ew2(r, name):
    """2-D tiles: (BM,BN) loads, (BM,1)/(1,BN) vectors, scalars, reductions."""
    while True:
        bm, bn = r.choice(POW2[:9]), r.choice(POW2[:9])
        if bm * bn <= 4096:
            break
    nw = r.choice([1, 2, 4, 8])
    M = r.randrange(1, 3 * bm + 1)
    N = r.randrange(1, 3 * bn + 1)
    leaves = [leaf("A", "f"), leaf("B", "i"), leaf("rv", "f", r.choice(["rv[:, None]", "tl.expand_dims(rv, 1)"])),
              leaf("cv", "f", r.choice(["cv[None, :]", "tl.expand_dims(cv, 0)"])),
              leaf("ri", "i", "rows[:, None]"), leaf("ci", "i", "cols[None, :]"),
              leaf("pid0", "i"), leaf("pid1", "i"), leaf("si", "i"), leaf("sf", "f")]
    g = ExprGen(r, leaves)
    depth = r.randint(1, 4)
    red = r.random() < 0.5
    if red:
        rt = r.choice("ffi")
        e = g.gen(rt, depth)
        if ntype(e).startswith("w"):
            e = ("bin", "+", e, leaf("A", "f") if rt == "f" else leaf("B", "i"))
        rt = ntype(e)
        if not has_block(e):
            z = ("bin", "-", leaf("A", "f"), leaf("A", "f")) if rt == "f" else \
                ("bin", "-", leaf("B", "i"), leaf("B", "i"))
            e = ("bin", "+", e, z)
            rt = ntype(e)
        if rt == "l":
            e = ("cast", e, "i")
            rt = "i"
        axis = r.choice([0, 1, None])
        keep = r.random() < 0.5
        rnode = ("red", r.choice(["sum", "max", "min"]), e, axis, keep)
        if keep or axis is None and r.random() < 0.5:
            final = ("bin", r.choice(["-", "+", "*"]), g.gen(rt, 2), rnode)
            store = "full"
        else:
            final = rnode
            store = {0: "cols", 1: "rows", None: "scalar"}[axis]
    else:
        final = g.gen(r.choice("ffib"), depth)
        store = "full"
    final = _store_cast(final)
    ot = ntype(final)
    if ot.startswith("w"):
        final = ("bin", "+", final, leaf("A", "f") if ot == "wf" else leaf("B", "i"))
        ot = ntype(final)
    oa, ob = r.choice([0.0, -1.0, 2.5, 1]), r.choice([0, 1, -9, -5.0])
    orr, oc = r.choice([0.0, 1.0]), r.choice([0.0, -3.0])
    grid = (triton.cdiv(M, bm), triton.cdiv(N, bn))
    if grid[0] * grid[1] > 64:
        raise Reject("grid")
    misalign = r.random() < 0.3
    src = [f"@triton.jit",
           f"def {name}(X, Y, R, C, OUT, M, N, si, sf, BM: tl.constexpr, BN: tl.constexpr):",
           f"    pid0 = tl.program_id(0)",
           f"    pid1 = tl.program_id(1)",
           f"    rows = pid0 * BM + tl.arange(0, BM)",
           f"    cols = pid1 * BN + tl.arange(0, BN)",
           f"    m2 = (rows[:, None] < M) & (cols[None, :] < N)",
           f"    A = tl.load(X + rows[:, None] * N + cols[None, :], mask=m2, other={oa!r})",
           f"    B = tl.load(Y + rows[:, None] * N + cols[None, :], mask=m2, other={ob!r})",
           f"    rv = tl.load(R + rows, mask=rows < M, other={orr!r})",
           f"    cv = tl.load(C + cols, mask=cols < N, other={oc!r})"]
    if store == "full":
        src.append(f"    tl.store(OUT + rows[:, None] * N + cols[None, :], {render(final)}, mask=m2)")
        osize = M * N
    elif store == "rows":
        src.append(f"    tl.store(OUT + pid1 * M + rows, {render(final)}, mask=rows < M)")
        osize = grid[1] * M
    elif store == "cols":
        src.append(f"    tl.store(OUT + pid0 * N + cols, {render(final)}, mask=cols < N)")
        osize = grid[0] * N
    else:
        src.append(f"    tl.store(OUT + pid0 * {grid[1]} + pid1, {render(final)})")
        osize = grid[0] * grid[1]
    source = "\n".join(src) + "\n"

    rs = np.random.RandomState(r.randrange(1 << 30))
    x = (rs.rand(M * N + 1).astype(np.float32) * 4 - 2)
    y = rs.randint(-50, 50, size=M * N + 1).astype(np.int32)
    rvec = rs.rand(M + 1).astype(np.float32) * 2 - 1
    cvec = rs.rand(N + 1).astype(np.float32) * 2 - 1
    si = int(rs.randint(-20, 20))
    sf = float(np.float32(rs.rand() * 3 - 1.5))

    def reference():
        out = _out_array(ot, osize).astype(np.float64 if ot == "f" else np.int64)
        xs = (x[1:] if misalign else x[:M * N]).reshape(M, N)
        ys = (y[1:] if misalign else y[:M * N]).reshape(M, N)
        rvs = rvec[1:] if misalign else rvec[:M]
        cvs = cvec[1:] if misalign else cvec[:N]
        for p0 in range(grid[0]):
            for p1 in range(grid[1]):
                rows = p0 * bm + np.arange(bm)
                cols = p1 * bn + np.arange(bn)
                mr, mc = rows < M, cols < N
                m2 = mr[:, None] & mc[None, :]
                rc, cc = np.minimum(rows, M - 1), np.minimum(cols, N - 1)
                A = np.where(m2, xs[rc][:, cc], np.float32(oa)).astype(np.float32)
                B = np.where(m2, ys[rc][:, cc], int(ob)).astype(np.int64)
                rv = np.where(mr, rvs[rc], np.float32(orr)).astype(np.float32)
                cv = np.where(mc, cvs[cc], np.float32(oc)).astype(np.float32)
                env = {"A": (A, "f"), "B": (B, "i"), "rv": (rv[:, None], "f"), "cv": (cv[None, :], "f"),
                       "ri": (rows[:, None].astype(np.int64), "i"),
                       "ci": (cols[None, :].astype(np.int64), "i"),
                       "pid0": (np.int64(p0), "i"), "pid1": (np.int64(p1), "i"),
                       "si": (np.int64(si), "i"), "sf": (np.float32(sf), "f")}
                v, t = ev(final, env)
                v = _conv(v, t, ot)
                if store == "full":
                    v = np.broadcast_to(v, (bm, bn))
                    o2 = out.reshape(M, N)
                    o2[np.ix_(rows[mr], cols[mc])] = v[np.ix_(mr, mc)]
                elif store == "rows":
                    v = np.broadcast_to(v, (bm,))
                    out[p1 * M + rows[mr]] = v[mr]
                elif store == "cols":
                    v = np.broadcast_to(v, (bn,))
                    out[p0 * N + cols[mc]] = v[mc]
                else:
                    out[p0 * grid[1] + p1] = v
        return out

    def make():
        xs = x[1:] if misalign else x[:M * N].copy()
        ys = y[1:] if misalign else y[:M * N].copy()
        rvs = rvec[1:] if misalign else rvec[:M].copy()
        cvs = cvec[1:] if misalign else cvec[:N].copy()
        o = _out_array(ot, osize)
        args = [xs, ys, rvs, cvs, o, M, N, si, sf]
        return args, dict(BM=bm, BN=bn), grid, nw, 4

    return source, make, reference, ot, {"reduce": red, "count": bm * bn}


def gen_dot(r, name):
    bm, bn, bk = r.choice([16, 32, 64]), r.choice([16, 32, 64]), r.choice([16, 32, 64])
    nw = r.choice([1, 2, 4, 8])
    M, N = r.randrange(1, 2 * bm + 1), r.randrange(1, 2 * bn + 1)
    K = r.randrange(1, 3 * bk + 1)
    if (bm * bk + bk * bn) * 4 * 2 > 40000:
        raise Reject("shared memory budget")
    style = r.choice(["pluseq", "accarg", "ptrinc"])
    epi = r.random() < 0.5
    kconst = r.random() < 0.3
    kdecl = "K: tl.constexpr" if kconst else "K"
    src = [f"@triton.jit",
           f"def {name}(A, B, C, BIAS, M, N, {kdecl}, s, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):",
           f"    rm = tl.program_id(0) * BM + tl.arange(0, BM)",
           f"    rn = tl.program_id(1) * BN + tl.arange(0, BN)",
           f"    rk = tl.arange(0, BK)",
           f"    acc = tl.zeros((BM, BN), tl.float32)"]
    if style == "ptrinc":
        src += ["    a_ptrs = A + rm[:, None] * K + rk[None, :]",
                "    b_ptrs = B + rk[:, None] * N + rn[None, :]",
                "    for k in range(0, K, BK):",
                "        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k), other=0.0)",
                "        b = tl.load(b_ptrs, mask=(rk[:, None] < K - k) & (rn[None, :] < N), other=0.0)",
                "        acc += tl.dot(a, b, input_precision=\"ieee\")",
                "        a_ptrs += BK",
                "        b_ptrs += BK * N"]
    else:
        src += ["    for k in range(0, K, BK):",
                "        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)",
                "        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)"]
        if style == "pluseq":
            src.append("        acc += tl.dot(a, b, input_precision=\"ieee\")")
        else:
            src.append("        acc = tl.dot(a, b, acc, input_precision=\"ieee\")")
    if epi:
        src.append("    acc = acc * s + tl.load(BIAS + rn, mask=rn < N, other=0.0)[None, :]")
    src.append("    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))")
    source = "\n".join(src) + "\n"
    rs = np.random.RandomState(r.randrange(1 << 30))
    a = rs.rand(M * K).astype(np.float32) * 2 - 1
    b = rs.rand(K * N).astype(np.float32) * 2 - 1
    bias = rs.rand(N).astype(np.float32)
    s = float(np.float32(rs.rand() + 0.5))
    grid = (triton.cdiv(M, bm), triton.cdiv(N, bn))

    def reference():
        c = a.reshape(M, K).astype(np.float64) @ b.reshape(K, N).astype(np.float64)
        if epi:
            c = c * s + bias[None, :]
        return c.reshape(-1)

    def make():
        c = _out_array("f", M * N)
        return [a, b, c, bias, M, N, K, s], dict(BM=bm, BN=bn, BK=bk), grid, nw, 2

    return source, make, reference, "f", {"reduce": True, "count": K}


GENS = [gen_ew1, gen_ew1, gen_ew2, gen_ew2, gen_dot]


def generate(seed):
    """(source, make, reference, out type, info) for one seed; deterministic."""
    r = random.Random(seed)
    gen = GENS[seed % len(GENS)]
    for attempt in range(50):
        name = f"rk_{seed}_{attempt}"
        try:
            src, make, ref, ot, info = gen(r, name)
            expected = ref()
        except Reject:
            continue
        return name, src, make, expected, ot, info
    raise RuntimeError(f"seed {seed}: no valid program")


_TMP = tempfile.mkdtemp(prefix="mt_randk_")


def load_kernel(name, src):
    path = os.path.join(_TMP, name + ".py")
    with open(path, "w") as f:
        f.write("import mytriton as triton\nimport mytriton.language as tl\n\n\n" + src)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, name)


def _to_cuda(a, device="cuda"):
    """A CUDA copy of a NumPy argument, misaligned by the same 4 bytes when
    the NumPy array was (so the unaligned path runs on the GPU too)."""
    import torch
    t = torch.from_numpy(np.ascontiguousarray(a))
    if a.ctypes.data % 16 == 0:
        return t.to(device)
    base = torch.empty(t.numel() + 1, dtype=t.dtype, device=device)
    view = base[1:]
    view.copy_(t)
    return view


def run_seed(seed, device="cpu"):
    name, src, make, expected, ot, info = generate(seed)
    kern = load_kernel(name, src)
    args, kw, grid, nw, out_index = make()
    if device.startswith("cuda"):
        import torch
        dev_args = [_to_cuda(a, device) if isinstance(a, np.ndarray) else a for a in args]
        kern[grid](*dev_args, num_warps=nw, **kw)
        torch.cuda.synchronize(device)
        got = dev_args[out_index].cpu().numpy()
    else:
        kern[grid](*args, num_warps=nw, **kw)
        got = args[out_index]
    detail = f"seed {seed} grid={grid} num_warps={nw} {kw}\n{src}"
    if ot == "f":
        scale = max(1.0, float(np.nanmax(np.abs(expected))) if np.isfinite(expected).any() else 1.0)
        tol = 1e-4 * scale * (np.sqrt(info.get("count", 1)) if info.get("reduce") else 1)
        np.testing.assert_allclose(got.astype(np.float64), expected, rtol=1e-4, atol=tol,
                                   equal_nan=False, err_msg=detail)
    else:
        np.testing.assert_array_equal(got.astype(np.int64), expected, err_msg=detail)


SEEDS = list(range(0, 50))


@pytest.mark.parametrize("seed", SEEDS)
def test_random_kernel(seed, device):
    run_seed(seed, device)


if __name__ == "__main__":
    lo, hi = int(sys.argv[1]), int(sys.argv[2])
    dev = sys.argv[3] if len(sys.argv) > 3 else "cpu"
    bad = 0
    for s in range(lo, hi):
        try:
            run_seed(s, dev)
        except Exception as e:  # noqa: BLE001 - report and continue
            bad += 1
            print(f"=== seed {s} FAILED: {type(e).__name__}: {str(e)[:3000]}\n")
    print(f"{bad} failures in {hi - lo} seeds")
