"""tl.device_print: the values a kernel prints, captured from the process's
stdout.  Triton's GPU lines ("pid (0, 0, 0) idx ( 5) x: 5", one per
element) and its interpreter's (a numpy array after the prefix) differ in
form, so the case compares what they say: the printed numbers after each
prefix, sorted.  128 elements over 4 warps: no thread holds a replica, so
every element prints once on every implementation.  (Python's print in a
kernel is device_print in compiled Triton but not in its interpreter:
tests/py/test_debug.py checks it.)"""
import ctypes
import os
import re
import sys
import tempfile

import torch
import triton
import triton.language as tl


@triton.jit
def print_kernel(X, Y, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.device_print("dp", x)
    tl.device_print("tw", x * 2, x - 1)
    tl.store(Y + tl.arange(0, BLOCK), x + 1)


def _captured(fn, device):
    """fn() with fd 1 sent to a file; the text written there."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            fn()
            if str(device).startswith("cuda"):
                torch.cuda.synchronize()
            sys.stdout.flush()
            ctypes.CDLL(None).fflush(None)  # the C library's stdout (device printf)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        return tmp.read().decode()


def _numbers(text, prefix):
    """The numbers after each " prefix: " (and "(operand n)"): one, or a
    bracketed array that may span lines."""
    vals = []
    for m in re.finditer(rf" {prefix}:\s+(?:\(operand \d+\) )?(\[[^\]]*\]|-?\d+)", text):
        vals += [int(v) for v in re.findall(r"-?\d+", m.group(1))]
    return torch.tensor(sorted(vals), dtype=torch.int64)


def run(device):
    x = (torch.arange(128, dtype=torch.int32) * 7 - 300).to(device)
    y = torch.zeros_like(x)
    text = _captured(lambda: print_kernel[(1, )](x, y, BLOCK=128, num_warps=4), device)
    return {"one": _numbers(text, "dp"), "two": _numbers(text, "tw"), "y": y}
