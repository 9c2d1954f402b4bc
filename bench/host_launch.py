"""Host-backend launches per second of a small grid (issue 15: a 4-program
grid once cost a thread start and join per launch, 926 launches/s; the
persistent pool makes it a wake-up at most).

    PYTHONPATH=python python3 bench/host_launch.py [--programs 4] [--seconds 2]

Prints launches/s of a 4-program grid of a 64-element add (num_warps=1),
the median of 5 timed rounds, and the same for 1 program as a reference.
"""
import argparse
import time

import torch

import mytriton
import mytriton.language as tl


@mytriton.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1.0, mask=mask)


def launches_per_second(programs, seconds, block=16):
    x = torch.zeros(programs * block)
    grid = (programs,)
    add_one[grid](x, x.numel(), BLOCK=block, num_warps=1)  # compile
    rounds = []
    for _ in range(5):
        n, start = 0, time.perf_counter()
        while True:
            for _ in range(200):
                add_one[grid](x, x.numel(), BLOCK=block, num_warps=1)
            n += 200
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / 5:
                break
        rounds.append(n / elapsed)
    assert torch.all(x == x[0]) and x[0] > 0  # every program ran each time
    return sorted(rounds)[2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--programs", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=2.0)
    a = ap.parse_args()
    for p in (a.programs, 1):
        print(f"{p}-program grid: {launches_per_second(p, a.seconds):,.0f} launches/s")


if __name__ == "__main__":
    main()
