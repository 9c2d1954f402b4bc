"""Python in kernels as tutorial 06 writes it: isinstance() on a helper's
argument (a pointer or a tensor descriptor, constexprs unwrapped first),
hasattr(), a tensor bound to a helper's tl.constexpr parameter, and an
assignment to the loop index that holds for the rest of the iteration."""
import torch
import triton
import triton.language as tl


@triton.jit
def _rows(src, BLOCK: tl.constexpr):
    if isinstance(src, tl.tensor_descriptor):
        return src.load([0])
    else:
        return tl.load(src + tl.arange(0, BLOCK))


@triton.jit
def _affine(v, offs: tl.constexpr, scale: tl.constexpr):
    return v * scale + offs


@triton.jit
def pick(x, out, flags, BLOCK: tl.constexpr, USE_DESC: tl.constexpr):
    if USE_DESC:
        src = tl.make_tensor_descriptor(x, [BLOCK], [1], [BLOCK])
    else:
        src = x
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, _affine(_rows(src, BLOCK), offs, 3.0))
    tl.store(flags + 0, isinstance(BLOCK, int))
    tl.store(flags + 1, isinstance(BLOCK, tl.constexpr))
    tl.store(flags + 2, isinstance(x, tl.tensor))
    tl.store(flags + 3, isinstance(src, tl.tensor_descriptor))
    tl.store(flags + 4, isinstance(tl.float16, tl.dtype))
    tl.store(flags + 5, hasattr(x, "dtype"))
    tl.store(flags + 6, hasattr(tl, "no_such_function"))


@triton.jit
def loop_index(out, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], tl.float32)
    for i in range(0, n, 4):
        i = tl.multiple_of(i, 4)
        acc += i
        i = i + 1
        acc += i * 0.5
    tl.store(out + tl.arange(0, BLOCK), acc)


def run(device):
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                 device=device))
    res = {}
    x = torch.arange(16, dtype=torch.float32, device=device) - 5
    for use_desc in (False, True):
        out = torch.zeros(16, device=device)
        flags = torch.full((7,), -1, dtype=torch.int32, device=device)
        pick[(1,)](x, out, flags, BLOCK=16, USE_DESC=use_desc)
        res[f"pick{int(use_desc)}"] = out
        res[f"flags{int(use_desc)}"] = flags
    out = torch.zeros(8, device=device)
    loop_index[(1,)](out, 13, BLOCK=8)
    res["loop_index"] = out
    return res
