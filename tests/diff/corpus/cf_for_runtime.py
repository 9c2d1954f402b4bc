"""Runtime for loops: runtime start, stop and step; a negative constant step
(run upwards, as Triton does); i64 bounds give an i64 index."""
import torch
import triton
import triton.language as tl


@triton.jit
def loops(out, lo, hi, step, n, big_lo, big_hi):
    acc = 0
    cnt = 0
    for i in range(lo, hi, step):
        acc += i
        cnt += 1
    neg = 0
    for j in range(n, 0, -3):
        neg = neg * 3 + j
    wide = 0
    for w in range(big_lo, big_hi, 1 << 33):
        wide += (w >> 30).to(tl.int32)
    tl.store(out, acc)
    tl.store(out + 1, cnt)
    tl.store(out + 2, neg)
    tl.store(out + 3, wide)


def run(device):
    res = {}
    for k, (lo, hi, st) in enumerate([(3, 100, 7), (-20, 20, 3), (10, 3, 2)]):
        out = torch.zeros(4, dtype=torch.int32, device=device)
        loops[(1,)](out, lo, hi, st, 40 + k, 2**40, 2**40 + 7 * 2**33 + 5)
        res[f"case{k}"] = out
    return res
