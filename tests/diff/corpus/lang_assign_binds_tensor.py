"""Assignment binds a tensor: Triton 3.6's visit_Assign (and visit_Return
in a helper, and x += ...) turns a Python number into a scalar tensor of
to_tensor's type, so later arithmetic is the tensor's, not Python's: i32
and u32 wrap, f32 overflows, `//` and `%` truncate as C does, and an f16
block times a bound float is f32.  A `: tl.constexpr` name stays Python's.
A number passed straight to tl.store is to_tensor's type too (1e300 is
f64).  A short range() loop's index is a tensor too, however the
compiler runs the loop (mytriton unrolls it).  An integer argument equal
to 1 is the other way round: Triton specialises it as the constexpr 1, so
its arithmetic is Python's and it is weak next to an i8 block.  A
comparison makes its number a tensor first (tensor.__eq__ calls
to_tensor): `h_f16 == 0.1` compares in f32, `u8 == -1` in i32."""
import torch
import triton
import triton.language as tl


@triton.jit
def const_65536():
    return 65536


@triton.jit
def ints(out):
    a = 2147483647
    tl.store(out, a + 1)
    c = 1048576
    tl.store(out + 1, c * c)
    u = 2**31
    tl.store(out + 2, u + u)
    k = -7
    tl.store(out + 3, k // 2)
    tl.store(out + 4, k % 3)
    big = 2**40
    tl.store(out + 5, big * 3)
    r = const_65536()
    tl.store(out + 6, r * r)
    acc = 2147483000
    acc += 1000
    tl.store(out + 7, acc)
    p: tl.constexpr = 2147483647
    tl.store(out + 8, p + 1)
    t = (2147483647, 3)
    tl.store(out + 9, t[0] + t[1])


@triton.jit
def floats(out32, out64, x16, y16, BLOCK: tl.constexpr):
    f = 1e20
    tl.store(out32, f * f / 1e30)
    tl.store(out64, 1e300)
    d = 1e300
    tl.store(out64 + 1, d * 10.0)
    s = 0.1
    offs = tl.arange(0, BLOCK)
    x = tl.load(x16 + offs)
    y = x * s
    tl.store(out32 + 1 + offs, y)
    tl.store(y16 + offs, y * 3.0)


@triton.jit
def range_index(out):
    for i in range(3):
        tl.store(out + i, i * 1073741824 * 2)
    for j in range(3, 6):
        tl.store(out + j, j // -2)


@triton.jit
def int_arg(out, n, x8):
    tl.store(out, n * 2147483647 * 2)
    tl.store(out + 1, n // -2)
    tl.store(out + 2, tl.load(x8) + n)


@triton.jit
def compare_numbers(out, ph, pu8, pi32):
    h = tl.load(ph)
    tl.store(out, (h == 0.1).to(tl.int32))
    tl.store(out + 1, (h < 0.1).to(tl.int32))
    v = tl.load(pu8)
    tl.store(out + 2, (v == -1).to(tl.int32))
    tl.store(out + 3, (v != 300).to(tl.int32))
    u = tl.load(pi32.to(tl.pointer_type(tl.uint32)))
    tl.store(out + 4, (u == -1).to(tl.int32))
    tl.store(out + 5, (u < -1).to(tl.int32))
    tl.store(out + 6, (0.1 == h).to(tl.int32))
    tl.store(out + 7, (0.1 > h).to(tl.int32))


def run(device):
    res = {}
    out = torch.zeros(10, dtype=torch.int64, device=device)
    ints[(1,)](out)
    res["ints"] = out
    out = torch.zeros(6, dtype=torch.int64, device=device)
    range_index[(1,)](out)
    res["range_index"] = out
    x8 = torch.tensor([127], dtype=torch.int8, device=device)
    for n in (1, 2):
        out = torch.zeros(3, dtype=torch.int64, device=device)
        int_arg[(1,)](out, n, x8)
        res[f"int_arg{n}"] = out
    out = torch.zeros(8, dtype=torch.int32, device=device)
    h = torch.tensor([0.1], dtype=torch.float16).to(device)
    u8 = torch.tensor([255], dtype=torch.uint8).to(device)
    u32 = torch.tensor([-1], dtype=torch.int32).to(device)  # read as u32: 2**32 - 1
    compare_numbers[(1,)](out, h, u8, u32)
    res["compare_numbers"] = out
    out32 = torch.zeros(1 + 16, dtype=torch.float32, device=device)
    out64 = torch.zeros(2, dtype=torch.float64, device=device)
    x16 = torch.linspace(-3, 3, 16, dtype=torch.float32).to(torch.float16).to(device)
    y16 = torch.zeros(16, dtype=torch.float16, device=device)
    floats[(1,)](out32, out64, x16, y16, BLOCK=16)
    res["floats32"] = out32
    res["floats64"] = out64
    res["y16"] = y16
    return res
