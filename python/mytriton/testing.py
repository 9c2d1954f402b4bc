"""`triton.testing`: timing kernels and tabulating benchmarks.

Input: a callable to time (do_bench), or a function to run over a grid of
argument values (perf_report + Benchmark).  Output: times in milliseconds,
summarised as Triton 3.6 summarises them (mean by default, or the given
quantiles, or "min"/"max"/"median"/"all"); a table of results.

Timing follows Triton's recipe: one call to compile and warm up, five
calls to estimate the cost, then as many warm-up calls as fit in `warmup`
ms and as many timed calls as fit in `rep` ms, each timed on its own.  The
clock is the active driver's (mytriton.runtime.driver): CUDA events with
the L2 cache flushed before every timed call on a GPU, the wall clock on
the host backend, whose launches are synchronous (it has no cache to
flush: the host's own caches are left as they are).

perf_report's table is printed and saved as CSV without pandas; it is a
pandas DataFrame when pandas is installed, and plots are drawn only when
matplotlib is installed (asked for and missing: a note on stderr, the
numbers are still printed and saved).
"""
from __future__ import annotations

import csv
import math
import os
import statistics
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence

from . import runtime

__all__ = ["do_bench", "do_bench_cudagraph", "assert_close", "Benchmark", "Mark",
           "perf_report"]

_RETURN_MODES = ("min", "max", "mean", "median", "all")


def _quantiles(times: Sequence[float], qs: Sequence[float]) -> List[float]:
    """Linear interpolation between the two nearest ranks, as
    numpy.quantile's default (and Triton's own helper) computes it."""
    a = sorted(times)
    out = []
    for q in qs:
        if not 0 <= q <= 1:
            raise ValueError(f"quantiles must be in [0, 1], got {q}")
        point = q * (len(a) - 1)
        lo, hi = math.floor(point), math.ceil(point)
        t = point - lo
        out.append((1 - t) * a[lo] + t * a[hi])
    return out


def _summarize(times: List[float], quantiles, return_mode: str):
    if quantiles is not None:
        r = _quantiles(times, quantiles)
        return r[0] if len(r) == 1 else r
    if return_mode == "all":
        return times
    return {"min": min, "max": max, "mean": statistics.mean,
            "median": statistics.median}[return_mode](times)


def _check_mode(return_mode: str) -> None:
    if return_mode not in _RETURN_MODES:
        raise ValueError(f"return_mode must be one of {', '.join(_RETURN_MODES)}; "
                         f"got {return_mode!r}")


def do_bench(fn: Callable[[], Any], warmup: float = 25, rep: float = 100, grad_to_none=None,
             quantiles: Optional[Sequence[float]] = None, return_mode: str = "mean"):
    """Runtime of fn() in ms: the mean of the timed calls, or the given
    quantiles (one value for one quantile, else a list), or return_mode's
    statistic.  warmup and rep are budgets in ms; at least one call of
    each is made.  grad_to_none: tensors whose .grad is reset before each
    timed call (so a backward pass does not accumulate)."""
    _check_mode(return_mode)
    drv = runtime.driver.active
    di = drv.get_device_interface()
    fn()
    di.synchronize()
    cache = drv.get_empty_cache_for_benchmark()
    start, end = di.Event(enable_timing=True), di.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        drv.clear_cache(cache)
        fn()
    end.record()
    di.synchronize()
    estimate_ms = start.elapsed_time(end) / 5
    if estimate_ms <= 0:  # below the clock's resolution
        estimate_ms = 1e-3
    n_warmup = max(1, int(warmup / estimate_ms))
    n_repeat = max(1, int(rep / estimate_ms))
    starts = [di.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [di.Event(enable_timing=True) for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for i in range(n_repeat):
        for x in grad_to_none or ():
            x.grad = None
        drv.clear_cache(cache)
        starts[i].record()
        fn()
        ends[i].record()
    di.synchronize()
    times = [s.elapsed_time(e) for s, e in zip(starts, ends)]
    return _summarize(times, quantiles, return_mode)


def do_bench_cudagraph(fn: Callable[[], Any], rep: float = 20, grad_to_none=None,
                       quantiles: Optional[Sequence[float]] = None, return_mode: str = "mean"):
    """Triton replays fn from a CUDA graph to hide launch overhead.
    mytriton does not capture launches in CUDA graphs: this times fn with
    do_bench's method (one warm-up call), so the times include the launch
    overhead a graph would hide."""
    return do_bench(fn, warmup=0, rep=rep, grad_to_none=grad_to_none, quantiles=quantiles,
                    return_mode=return_mode)


def assert_close(x, y, atol=None, rtol=None, err_msg: str = "") -> None:
    """x and y agree within atol (default 1e-2) + rtol (default 0) * |y|,
    NaNs equal; atol and rtol may be callables of x's dtype."""
    import numpy as np

    def to_numpy(v):
        if hasattr(v, "detach"):  # a torch tensor
            if str(v.dtype) == "torch.bfloat16":
                v = v.float()
            return v.detach().cpu().numpy()
        return np.asarray(v)

    xa, ya = to_numpy(x), to_numpy(y)
    dtype = getattr(x, "dtype", xa.dtype)
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    atol = atol(dtype) if callable(atol) else atol
    rtol = rtol(dtype) if callable(rtol) else rtol
    if xa.size > 1 or ya.size > 1:
        np.testing.assert_allclose(xa, ya, atol=atol, rtol=rtol, equal_nan=True)
    elif not np.allclose(xa, ya, atol=atol, rtol=rtol, equal_nan=True):
        raise AssertionError(f"{err_msg} {xa} is not close to {ya} (atol={atol}, rtol={rtol})")


class Benchmark:
    """One table (and plot) of perf_report: fn is called for every value
    of x_vals (bound to x_names) and every value of line_vals (bound to
    line_arg), with args fixed; each call returns a number or a
    (value, min, max) triple."""

    def __init__(self, x_names: List[str], x_vals: List[Any], line_arg: str,
                 line_vals: List[Any], line_names: List[str], plot_name: str,
                 args: Dict[str, Any], xlabel: str = "", ylabel: str = "",
                 x_log: bool = False, y_log: bool = False, styles=None):
        self.x_names, self.x_vals = x_names, x_vals
        self.line_arg, self.line_vals, self.line_names = line_arg, line_vals, line_names
        self.plot_name, self.args = plot_name, args
        self.xlabel, self.ylabel = xlabel, ylabel
        self.x_log, self.y_log, self.styles = x_log, y_log, styles


class _Table:
    """The results of one Benchmark: named columns of equal length."""

    def __init__(self, columns: List[str]):
        self.columns = list(columns)
        self.rows: List[List[Any]] = []

    def column(self, name: str) -> List[Any]:
        i = self.columns.index(name)
        return [r[i] for r in self.rows]

    def select(self, names: List[str]) -> "_Table":
        t = _Table(names)
        idx = [self.columns.index(n) for n in names]
        t.rows = [[r[i] for i in idx] for r in self.rows]
        return t

    def to_string(self) -> str:
        def fmt(v):
            return f"{v:.6f}" if isinstance(v, float) else str(v)
        cells = [[""] + self.columns] + [[str(i)] + [fmt(v) for v in r]
                                         for i, r in enumerate(self.rows)]
        widths = [max(len(row[c]) for row in cells) for c in range(len(cells[0]))]
        return "\n".join("  ".join(v.rjust(w) for v, w in zip(row, widths)) for row in cells)

    def to_csv(self, path: str, precision: int) -> None:
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(self.columns)
            for r in self.rows:
                w.writerow([f"{v:.{precision}f}" if isinstance(v, float) else v for v in r])

    def to_frame(self):
        """A pandas DataFrame when pandas is installed, else the table."""
        try:
            import pandas as pd
        except ImportError:
            return self
        return pd.DataFrame(self.rows, columns=self.columns)


def _plot(bench: Benchmark, table: _Table, mean_l, min_l, max_l, show: bool, save_path: str):
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"perf_report: matplotlib is not installed; '{bench.plot_name}' is not plotted",
              file=sys.stderr)
        return
    plt.figure()
    ax = plt.subplot()
    xs = table.column(bench.x_names[0])
    for i, (mean, lo, hi) in enumerate(zip(mean_l, min_l, max_l)):
        color = bench.styles[i][0] if bench.styles else None
        style = bench.styles[i][1] if bench.styles else None
        ax.plot(xs, table.column(mean), label=mean, color=color, ls=style)
        los, his = table.column(lo), table.column(hi)
        if all(v is not None for v in los + his):
            ax.fill_between(xs, [float(v) for v in los], [float(v) for v in his], alpha=0.15,
                            color=color)
    ax.legend()
    ax.set_xlabel(bench.xlabel or bench.x_names[0])
    ax.set_ylabel(bench.ylabel)
    ax.set_xscale("log" if bench.x_log else "linear")
    ax.set_yscale("log" if bench.y_log else "linear")
    if show:
        plt.show()
    if save_path:
        plt.savefig(os.path.join(save_path, f"{bench.plot_name}.png"))


class Mark:
    """A function under perf_report: .run() fills one table per Benchmark."""

    def __init__(self, fn: Callable, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def _run(self, bench: Benchmark, save_path: str, show_plots: bool, print_data: bool,
             diff_col: bool = False, save_precision: int = 6, **kwargs):
        mean_l = [f"{n} ({bench.ylabel})" for n in bench.line_names]
        min_l = [f"{n}-min ({bench.ylabel})" for n in bench.line_names]
        max_l = [f"{n}-max ({bench.ylabel})" for n in bench.line_names]
        x_names = list(bench.x_names)
        table = _Table(x_names + mean_l + min_l + max_l)
        for x in bench.x_vals:
            xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(x_names)
            if len(xs) != len(x_names):
                raise ValueError(f"expected {len(x_names)} values for {x_names}, got {x}")
            means, mins, maxs = [], [], []
            for y in bench.line_vals:
                r = self.fn(**dict(zip(x_names, xs)), **{bench.line_arg: y}, **bench.args,
                            **kwargs)
                if isinstance(r, (tuple, list)) and len(r) == 3:
                    m, lo, hi = r
                else:
                    m, lo, hi = r, None, None
                means.append(m)
                mins.append(lo)
                maxs.append(hi)
            table.rows.append(xs + means + mins + maxs)
        if bench.plot_name and (show_plots or save_path):
            _plot(bench, table, mean_l, min_l, max_l, show_plots, save_path)
        table = table.select(x_names + mean_l)
        if diff_col and len(table.columns) == 2:
            table.columns.append("Diff")
            for r in table.rows:
                r.append(r[1] - r[0])
        if print_data:
            print(bench.plot_name + ":")
            print(table.to_string())
        if save_path:
            table.to_csv(os.path.join(save_path, f"{bench.plot_name}.csv"), save_precision)
        return table.to_frame()

    def run(self, show_plots: bool = False, print_data: bool = False, save_path: str = "",
            return_df: bool = False, **kwargs):
        single = isinstance(self.benchmarks, Benchmark)
        benches = [self.benchmarks] if single else self.benchmarks
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        frames = [self._run(b, save_path, show_plots, print_data, **kwargs) for b in benches]
        if save_path:
            with open(os.path.join(save_path, "results.html"), "w") as html:
                html.write("<html><body>\n")
                for b in benches:
                    html.write(f"<image src=\"{b.plot_name}.png\"/>\n")
                html.write("</body></html>\n")
        if return_df:
            return frames[0] if single else frames
        return None


def perf_report(benchmarks):
    """@perf_report(Benchmark(...) or a list of them): fn.run(...) then
    runs the benchmarks."""
    return lambda fn: Mark(fn, benchmarks)
