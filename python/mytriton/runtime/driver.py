"""`triton.runtime.driver`: which target kernels run on.

`driver.active` is the CUDA target when the CUDA driver finds a GPU, else
the host backend, which says so: its target's backend is "cpu" (not "cuda",
"hip" or the interpreter), so programs that ask which GPU they are on get
an honest answer.  Which backend a launch uses is still decided by its
tensors (CUDA tensors run on the GPU, CPU tensors on the host backend).

For benchmarking (mytriton.testing.do_bench) the driver gives Triton's
hooks: a device interface with synchronize() and Event(), a buffer whose
zeroing flushes the GPU's L2 cache, and the default benchmarker.  On the
host the events read the wall clock and nothing is flushed: host launches
are synchronous, so the time between two events is the launch's.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

__all__ = ["GPUTarget", "active"]


@dataclass(frozen=True)
class GPUTarget:
    backend: str
    arch: object
    warp_size: int


class _Utils:
    def __init__(self, driver):
        self._driver = driver

    def get_device_properties(self, device=0):
        """Triton's property names: multiprocessor_count, max_shared_mem,
        max_num_regs, warpSize, sm_clock_rate, mem_clock_rate, mem_bus_width."""
        if self._driver.backend == "cuda":
            import torch
            p = torch.cuda.get_device_properties(device)
            return {"multiprocessor_count": p.multi_processor_count,
                    "max_shared_mem": getattr(p, "shared_memory_per_block_optin", 49152),
                    "max_num_regs": getattr(p, "regs_per_multiprocessor", 65536),
                    "warpSize": getattr(p, "warp_size", 32),
                    "sm_clock_rate": getattr(p, "clock_rate", 0),
                    "mem_clock_rate": getattr(p, "memory_clock_rate", 0),
                    "mem_bus_width": getattr(p, "memory_bus_width", 0)}
        import os
        return {"multiprocessor_count": os.cpu_count() or 1, "max_shared_mem": 49152,
                "max_num_regs": 65536, "warpSize": 32, "sm_clock_rate": 0,
                "mem_clock_rate": 0, "mem_bus_width": 0}


class _HostEvent:
    """torch.cuda.Event's interface over the wall clock."""

    def __init__(self, enable_timing: bool = True):
        self.t = None

    def record(self, stream=None):
        self.t = time.perf_counter()

    def elapsed_time(self, end: "_HostEvent") -> float:
        """Milliseconds from this event's record() to end's."""
        if self.t is None or end.t is None:
            raise RuntimeError("elapsed_time of an event that was not recorded")
        return (end.t - self.t) * 1e3


class _HostDevice:
    """The device interface of the host backend (torch.cuda's, in part)."""
    Event = _HostEvent

    @staticmethod
    def synchronize(device=None):
        """Host launches return when their programs are done: nothing to wait for."""


class _Driver:
    def __init__(self):
        from .. import cuda_available
        self.backend = "cuda" if cuda_available() else "cpu"
        self.utils = _Utils(self)

    def get_current_device(self):
        if self.backend == "cuda":
            import torch
            return torch.cuda.current_device()
        return 0

    def get_current_stream(self, device=None):
        if self.backend == "cuda":
            import torch
            return torch.cuda.current_stream(device).cuda_stream
        return 0

    def get_current_target(self):
        if self.backend == "cuda":
            import torch
            major, minor = torch.cuda.get_device_capability()
            return GPUTarget("cuda", major * 10 + minor, 32)
        return GPUTarget("cpu", "host", 32)

    def get_active_torch_device(self):
        import torch
        return torch.device("cuda" if self.backend == "cuda" else "cpu",
                            self.get_current_device() if self.backend == "cuda" else None)

    def is_active(self):
        return True

    def get_device_interface(self):
        if self.backend == "cuda":
            import torch
            return torch.cuda
        return _HostDevice

    def get_empty_cache_for_benchmark(self):
        """A 256 MiB buffer (larger than any GPU's L2) on CUDA; None on the host."""
        if self.backend != "cuda":
            return None
        import torch
        return torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")

    def clear_cache(self, cache):
        if cache is not None:
            cache.zero_()

    def get_benchmarker(self):
        from ..testing import do_bench
        return do_bench


class _ActiveDriver:
    """Made on first use, so importing the module never opens CUDA."""

    def __init__(self):
        self._driver = None

    @property
    def active(self):
        if self._driver is None:
            self._driver = _Driver()
        return self._driver


_holder = _ActiveDriver()


def __getattr__(name):
    if name == "active":
        return _holder.active
    raise AttributeError(f"module 'triton.runtime.driver' has no attribute '{name}'")
