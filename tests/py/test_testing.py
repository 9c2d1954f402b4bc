"""mytriton.testing (triton.testing): do_bench's call budget and
statistics, perf_report's tables, assert_close, and the benchmark hooks of
the active driver."""
import csv
import os
import subprocess
import sys
import textwrap
import time

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mytriton import testing
from mytriton.runtime import driver


class Counter:
    """A function that sleeps `ms` and counts its calls."""

    def __init__(self, ms):
        self.ms, self.calls = ms, 0

    def __call__(self):
        self.calls += 1
        time.sleep(self.ms / 1e3)


def test_do_bench_times_the_function_within_its_budgets():
    fn = Counter(2.0)
    mean = testing.do_bench(fn, warmup=10, rep=20)
    assert 2.0 <= mean < 20.0  # sleep() never returns early
    # one first call, five to estimate, then budget / estimate of each:
    # about 5 warm-up and 10 timed calls for a 2 ms function
    assert 1 + 5 + 2 <= fn.calls <= 1 + 5 + 5 + 10
    times = testing.do_bench(Counter(2.0), warmup=0, rep=20, return_mode="all")
    assert 1 <= len(times) <= 10 and all(t >= 2.0 for t in times)


def test_do_bench_makes_at_least_one_call_of_each_kind():
    fn = Counter(5.0)
    times = testing.do_bench(fn, warmup=0, rep=0, return_mode="all")
    assert len(times) == 1 and fn.calls == 1 + 5 + 1 + 1


def test_do_bench_summaries():
    fn = Counter(1.0)
    q = testing.do_bench(fn, warmup=1, rep=10, quantiles=[0.5, 0.2, 0.8])
    assert isinstance(q, list) and len(q) == 3 and q[1] <= q[0] <= q[2]
    one = testing.do_bench(fn, warmup=1, rep=10, quantiles=[0.5])
    assert isinstance(one, float)
    for mode in ("min", "max", "median", "mean"):
        assert testing.do_bench(fn, warmup=1, rep=5, return_mode=mode) >= 1.0
    times = [3.0, 1.0, 2.0, 10.0]
    assert [testing._summarize(times, None, m) for m in ("min", "max", "median", "mean")] == \
        [1.0, 10.0, 2.5, 4.0]
    assert testing._summarize(times, None, "all") is times
    assert testing._summarize(times, [0.5], "min") == 2.5  # quantiles win
    with pytest.raises(ValueError, match="return_mode"):
        testing.do_bench(fn, return_mode="average")
    with pytest.raises(ValueError, match="quantiles"):
        testing.do_bench(fn, warmup=0, rep=1, quantiles=[1.5])


def test_quantiles_interpolate_as_numpy_does():
    assert testing._quantiles([4.0, 1.0, 3.0, 2.0], [0.0, 0.5, 1.0, 0.25]) == [1.0, 2.5, 4.0, 1.75]


def test_do_bench_resets_gradients():
    x = torch.ones(3, requires_grad=True)
    seen = []

    def step():
        seen.append(x.grad is None)
        (x * 2).sum().backward()

    testing.do_bench(step, warmup=0, rep=1, grad_to_none=[x])
    assert seen[-1] is True  # the timed call starts without a gradient
    assert seen[2] is False  # the estimate calls accumulate (not reset)


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


def test_do_bench_of_a_host_kernel():
    x, y = torch.rand(4096), torch.rand(4096)
    out = torch.empty_like(x)
    ms, lo, hi = testing.do_bench(lambda: add_kernel[(4,)](x, y, out, 4096, BLOCK=1024),
                                  quantiles=[0.5, 0.2, 0.8], rep=20)
    assert 0 < lo <= ms <= hi
    assert torch.equal(out, x + y)


def test_host_driver_benchmark_hooks():
    if driver.active.backend != "cpu":
        pytest.skip("the host driver is active only without a GPU")
    di = driver.active.get_device_interface()
    a, b = di.Event(enable_timing=True), di.Event(enable_timing=True)
    a.record()
    time.sleep(0.003)
    b.record()
    di.synchronize()
    assert 3.0 <= a.elapsed_time(b) < 100
    with pytest.raises(RuntimeError, match="not recorded"):
        di.Event().elapsed_time(b)
    assert driver.active.get_empty_cache_for_benchmark() is None
    assert driver.active.get_benchmarker() is testing.do_bench


def test_do_bench_cudagraph_times_like_do_bench():
    fn = Counter(1.0)
    t = testing.do_bench_cudagraph(fn, rep=5)
    assert t >= 1.0 and fn.calls >= 1 + 5 + 1


# ------------------------------------------------------------ perf_report

def _bench(x_vals, **kw):
    return testing.Benchmark(x_names=["N"], x_vals=x_vals, line_arg="provider",
                             line_vals=["a", "b"], line_names=["A", "B"], plot_name="demo",
                             args={"scale": 10}, ylabel="GB/s", **kw)


def test_perf_report_tabulates_prints_and_saves(tmp_path, capsys):
    calls = []

    @testing.perf_report(_bench([1, 2, 3]))
    def bench(N, provider, scale):
        calls.append((N, provider, scale))
        return N * scale if provider == "a" else (N + 0.5, N, N + 1.0)

    bench.run(print_data=True, save_path=str(tmp_path))
    assert calls == [(n, p, 10) for n in (1, 2, 3) for p in ("a", "b")]
    out = capsys.readouterr()
    assert out.out.startswith("demo:\n")
    assert "A (GB/s)" in out.out and "B (GB/s)" in out.out and "2.500000" in out.out
    assert "matplotlib" in out.err or (tmp_path / "demo.png").exists()
    rows = list(csv.reader(open(tmp_path / "demo.csv")))
    assert rows[0] == ["N", "A (GB/s)", "B (GB/s)"]
    assert rows[2] == ["2", "20", "2.500000"]
    assert (tmp_path / "results.html").read_text().count("demo.png") == 1


def test_perf_report_returns_tables():
    @testing.perf_report([_bench([(4,)]), _bench([5])])
    def bench(N, provider, scale):
        return float(N)

    frames = bench.run(return_df=True, diff_col=True)
    assert len(frames) == 2
    first = frames[0]
    assert list(first.columns)[:3] == ["N", "A (GB/s)", "B (GB/s)"]
    with pytest.raises(ValueError, match="expected 1 values"):
        testing.perf_report(_bench([(1, 2)]))(lambda **kw: 0.0).run()


def test_assert_close():
    testing.assert_close(torch.tensor([1.0, float("nan")]), torch.tensor([1.005, float("nan")]))
    testing.assert_close(1.0, 1.001)
    with pytest.raises(AssertionError):
        testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5]))
    with pytest.raises(AssertionError, match="ctx"):
        testing.assert_close(1.0, 2.0, err_msg="ctx")
    testing.assert_close(torch.tensor([100.0, 1.0]), torch.tensor([101.0, 1.0]), atol=0,
                         rtol=lambda dt: 0.02)


def test_triton_testing_under_the_alias():
    code = textwrap.dedent('''
        import mytriton
        mytriton.install_as_triton()
        import triton
        import triton.testing
        from triton.testing import do_bench, perf_report, Benchmark
        assert triton.testing is mytriton.testing and do_bench is mytriton.testing.do_bench
        print("ok")
    ''')
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(__file__), "..", "..",
                                                   "python"))
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr
