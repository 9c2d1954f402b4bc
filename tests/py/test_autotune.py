"""triton.autotune / triton.Config / triton.heuristics on the host backend
(Triton 3.6's behaviour): timing every config on the first call per key,
the winner kept in memory and on disk (a later process reuses it), hooks
that keep timing launches from leaving results behind, pruning, grids that
read META, and heuristics stacked under autotune."""
import os
import pickle
import subprocess
import sys
import textwrap

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mytriton.runtime.autotuner import Autotuner, Config, Heuristics
from mytriton.runtime.errors import AutotunerError


@pytest.fixture(autouse=True)
def private_cache(tmp_path):
    """Each test tunes afresh: its own cache directory (compiled kernels
    come from the shared one through the in-memory caches either way)."""
    with triton.knobs.cache.scope(), triton.knobs.autotuning.scope():
        triton.knobs.cache.dir = str(tmp_path)
        triton.knobs.autotuning.cache = None
        yield tmp_path


class FakeBench:
    """do_bench that runs the launch once and reports the cost of the
    BLOCK the grid saw, so the winner is known in advance."""

    def __init__(self, cost):
        self.cost, self.blocks, self.calls = cost, [], 0

    def grid(self, n):
        def g(meta):
            self.blocks.append(meta["BLOCK"])
            return (triton.cdiv(n, meta["BLOCK"]),)
        return g

    def __call__(self, fn, quantiles):
        self.calls += 1
        fn()
        t = self.cost[self.blocks[-1]]
        return [t, t, t]


@triton.jit
def copy_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask), mask=mask)


CONFIGS = [Config({"BLOCK": 32}), Config({"BLOCK": 64}, num_warps=2),
           Config({"BLOCK": 128}, num_warps=8)]


def tuned(bench, configs=CONFIGS, key=("n",), **kw):
    return triton.autotune(configs=list(configs), key=list(key), do_bench=bench, **kw)(
        copy_kernel)


def test_config():
    c = Config({"BLOCK": 64}, num_warps=8, num_stages=2)
    assert c.all_kwargs() == {"BLOCK": 64, "num_warps": 8, "num_ctas": 1, "num_stages": 2}
    assert Config({"BLOCK": 64}, maxnreg=128).all_kwargs()["maxnreg"] == 128
    assert str(c) == "BLOCK: 64, num_warps: 8, num_ctas: 1, num_stages: 2, maxnreg: None"
    assert c == Config({"BLOCK": 64}, num_warps=8, num_stages=2) and len({c, c}) == 1
    assert c != Config({"BLOCK": 64}, num_warps=4, num_stages=2)
    assert pickle.loads(pickle.dumps(c)) == c
    with pytest.raises(NotImplementedError, match="ir_override"):
        Config({}, ir_override="k.ttgir")


def test_picks_the_fastest_and_caches_per_key():
    bench = FakeBench({32: 3.0, 64: 1.0, 128: 2.0})
    k = tuned(bench)
    assert isinstance(k, Autotuner)
    x = torch.arange(1000, dtype=torch.float32)
    out = torch.zeros_like(x)
    k[bench.grid(1000)](x, out, 1000)
    assert torch.equal(out, x)
    assert k.best_config == CONFIGS[1] and bench.calls == 3
    assert bench.blocks == [32, 64, 128, 64]  # three timed, then the winner
    assert k.configs_timings == {CONFIGS[0]: [3.0] * 3, CONFIGS[1]: [1.0] * 3,
                                 CONFIGS[2]: [2.0] * 3}
    k[bench.grid(1000)](x, out, 1000)  # same key: no timing
    assert bench.calls == 3 and bench.blocks[-1] == 64
    bench.cost = {32: 0.5, 64: 1.0, 128: 2.0}
    k[bench.grid(999)](x, out, 999)  # a new value of n: tuned again
    assert bench.calls == 6 and k.best_config == CONFIGS[0]
    xi = torch.arange(1000, dtype=torch.int32)
    k[bench.grid(999)](xi, torch.zeros_like(xi), 999)  # another dtype: again
    assert bench.calls == 9
    assert set(k.cache) == {(1000, "torch.float32", "torch.float32"),
                            (999, "torch.float32", "torch.float32"),
                            (999, "torch.int32", "torch.int32")}


@triton.jit
def work_kernel(x, out, n, REPEAT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask=mask)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for _ in range(REPEAT):
        acc += tl.sqrt(v * v)
    tl.store(out + offs, acc / REPEAT, mask=mask)


def test_default_benchmarker_times_the_wall_clock():
    k = triton.autotune(configs=[Config({"REPEAT": 400}), Config({"REPEAT": 1})],
                        key=["n"])(work_kernel)
    x = torch.rand(4096)
    out = torch.zeros_like(x)
    k[lambda m: (triton.cdiv(4096, m["BLOCK"]),)](x, out, 4096, BLOCK=1024)
    # every config got a wall-clock time and the fastest one won; which is
    # faster is not asserted (a loaded machine makes any timing ratio a
    # coin toss; speed is checked by benchmarks, never by tests)
    times = {c.kwargs["REPEAT"]: k.configs_timings[c][0] for c in k.configs}
    assert all(t > 0 for t in times.values()), times
    assert k.best_config.kwargs["REPEAT"] == min(times, key=times.get)
    assert torch.allclose(out, x)


def test_warmup_and_rep_budgets_are_deprecated_but_honoured(monkeypatch):
    from mytriton import testing
    seen = []
    real = testing.do_bench

    def spy(fn, warmup=25, rep=100, **kw):
        seen.append((warmup, rep))
        return real(fn, warmup=warmup, rep=rep, **kw)

    monkeypatch.setattr(testing, "do_bench", spy)
    with pytest.warns(DeprecationWarning, match="warmup, rep"):
        k = triton.autotune(configs=CONFIGS[:2], key=["n"], warmup=1, rep=3)(copy_kernel)
    x = torch.ones(70)
    out = torch.zeros(70)
    k[lambda m: (triton.cdiv(70, m["BLOCK"]),)](x, out, 70)
    assert seen == [(1, 3), (1, 3)] and torch.equal(out, x)
    assert k.best_config in CONFIGS[:2]


@triton.jit
def accumulate_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(out + offs, mask=mask) + tl.load(x + offs, mask=mask),
             mask=mask)


def test_reset_to_zero_and_restore_value():
    triton.knobs.autotuning.cache = False  # each tuner times (the disk would answer)
    bench = FakeBench({32: 1.0, 64: 2.0, 128: 3.0})
    x = torch.arange(200, dtype=torch.float32)
    out = torch.full_like(x, 5.0)
    acc = triton.autotune(configs=CONFIGS, key=["n"], do_bench=bench,
                          reset_to_zero=["out"])(accumulate_kernel)
    acc[bench.grid(200)](x, out, 200)
    assert torch.equal(out, x)  # zeroed before each timing and after tuning
    bench2 = FakeBench({32: 1.0, 64: 2.0, 128: 3.0})
    out = torch.full_like(x, 5.0)
    acc2 = triton.autotune(configs=CONFIGS, key=["n"], do_bench=bench2,
                           restore_value=["out"])(accumulate_kernel)
    acc2[bench2.grid(200)](x, out, 200)
    assert torch.equal(out, x + 5.0)  # every timing run undone: one real launch
    bench3 = FakeBench({32: 1.0, 64: 2.0, 128: 3.0})
    out = torch.full_like(x, 5.0)
    plain = triton.autotune(configs=CONFIGS, key=["n"], do_bench=bench3)(accumulate_kernel)
    plain[bench3.grid(200)](x, out, 200)
    assert torch.equal(out, 4 * x + 5.0)  # the test can fail: three timings + one


def test_user_hooks_replace_the_defaults():
    bench = FakeBench({32: 1.0, 64: 2.0, 128: 3.0})
    events = []
    k = tuned(bench, pre_hook=lambda kw, reset_only=False: events.append(("pre", reset_only)),
              post_hook=lambda kw, exception: events.append(("post", exception)))
    x = torch.ones(64)
    k[bench.grid(64)](x, torch.zeros(64), 64)
    assert events == [("pre", False), ("post", None)] * 3 + [("pre", True)]


def test_config_pre_hook_runs_before_each_launch():
    bench = FakeBench({32: 2.0, 64: 1.0})
    seen = []
    configs = [Config({"BLOCK": 32}), Config({"BLOCK": 64}, pre_hook=lambda a: seen.append(
        (a["n"], a["BLOCK"], a["num_warps"])))]
    k = tuned(bench, configs=configs)
    x = torch.ones(64)
    k[bench.grid(64)](x, torch.zeros(64), 64)
    assert seen == [(64, 64, 4), (64, 64, 4)]  # its timing, then the real launch


def test_pruning():
    bench = FakeBench({32: 3.0, 64: 1.0, 128: 2.0})
    k = tuned(bench, prune_configs_by={
        "early_config_prune": lambda configs, nargs, **kw: [c for c in configs
                                                            if c.kwargs["BLOCK"] != 64]})
    x = torch.ones(100)
    k[bench.grid(100)](x, torch.zeros(100), 100)
    assert bench.blocks[:2] == [32, 128] and k.best_config == CONFIGS[2]
    bench = FakeBench({32: 3.0, 64: 1.0, 128: 2.0})
    k = tuned(bench, prune_configs_by={
        "perf_model": lambda **kw: -kw["BLOCK"], "top_k": 1})
    k[bench.grid(100)](x, torch.zeros(100), 100)
    assert bench.calls == 1 and k.best_config == CONFIGS[2]  # the model's top one only
    k = tuned(FakeBench({}), prune_configs_by={"early_config_prune": lambda c, a, **kw: []})
    with pytest.raises(AutotunerError, match="No valid autotuner configs"):
        k[(1,)](x, torch.zeros(100), 100)
    k = tuned(FakeBench({}), prune_configs_by={"perf_model": lambda **kw: 0, "top_k": "2"})
    with pytest.raises(TypeError, match="top_k"):
        k[(1,)](x, torch.zeros(100), 100)


def test_conflicting_meta_parameters():
    k = tuned(FakeBench({}))
    with pytest.raises(ValueError, match="Conflicting meta-parameters: BLOCK"):
        k[(1,)](torch.ones(4), torch.zeros(4), 4, BLOCK=32)


def test_a_config_out_of_resources_times_as_infinity():
    configs = [Config({"BLOCK": 65536}, num_warps=1), Config({"BLOCK": 64})]
    timed = []

    def bench(fn, quantiles):
        fn()
        timed.append(True)
        return [1.0] * 3

    k = triton.autotune(configs=configs, key=["n"], do_bench=bench)(copy_kernel)
    x = torch.arange(64, dtype=torch.float32)
    out = torch.zeros_like(x)
    k[lambda m: (triton.cdiv(64, m["BLOCK"]),)](x, out, 64)
    assert k.configs_timings[configs[0]] == [float("inf")] * 3
    assert k.best_config == configs[1] and torch.equal(out, x)


def test_single_config_is_not_timed():
    bench = FakeBench({})
    k = tuned(bench, configs=[Config({"BLOCK": 32})])
    x = torch.ones(40)
    out = torch.zeros(40)
    k[lambda m: (triton.cdiv(40, m["BLOCK"]),)](x, out, 40)
    assert bench.calls == 0 and k.best_config.kwargs == {"BLOCK": 32}
    assert torch.equal(out, x)


def test_warmup_compiles_every_config():
    k = tuned(FakeBench({}))
    x = torch.ones(40)
    out = torch.zeros(40)
    kernels = k.warmup(x, out, 40)
    assert [kk.num_warps for kk in kernels] == [4, 2, 8]
    assert torch.count_nonzero(out) == 0


def test_disk_cache_is_reused(private_cache):
    bench = FakeBench({32: 3.0, 64: 1.0, 128: 2.0})
    x = torch.ones(300)
    tuned(bench)[bench.grid(300)](x, torch.zeros(300), 300)
    files = [f for f in os.listdir(private_cache) if f.endswith(".autotune.json")]
    assert len(files) == 1 and bench.calls == 3
    again = FakeBench({32: 3.0, 64: 1.0, 128: 2.0})
    k = tuned(again)  # a new tuner, as in a later process
    k[again.grid(300)](x, torch.zeros(300), 300)
    assert again.calls == 0 and k.best_config == CONFIGS[1]
    assert k.configs_timings[CONFIGS[0]] == [3.0] * 3
    other = FakeBench({32: 3.0, 64: 1.0, 128: 2.0})
    tuned(other, configs=CONFIGS[:2])[other.grid(300)](x, torch.zeros(300), 300)
    assert other.calls == 2  # other configs: another entry
    off = FakeBench({32: 3.0, 64: 1.0, 128: 2.0})
    tuned(off, cache_results=False)[off.grid(300)](x, torch.zeros(300), 300)
    assert off.calls == 3
    triton.knobs.autotuning.cache = False
    off2 = FakeBench({32: 3.0, 64: 1.0, 128: 2.0})
    tuned(off2)[off2.grid(300)](x, torch.zeros(300), 300)
    assert off2.calls == 3


def test_a_later_process_reuses_the_winner(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent('''
        import torch
        import triton
        import triton.language as tl

        timed = []

        def bench(fn, quantiles):
            timed.append(1)
            fn()
            return [float(len(timed))] * 3   # the first config is the fastest

        @triton.autotune(configs=[triton.Config({"BLOCK": 32}), triton.Config({"BLOCK": 64})],
                         key=["n"], do_bench=bench)
        @triton.jit
        def copy(x, out, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.store(out + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)

        x = torch.arange(100, dtype=torch.float32)
        out = torch.zeros_like(x)
        copy[lambda m: (triton.cdiv(100, m["BLOCK"]),)](x, out, 100)
        assert torch.equal(out, x)
        print(len(timed), copy.best_config.kwargs["BLOCK"])
    '''))
    env = dict(os.environ, MYTRITON_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.join(os.path.dirname(__file__), "..", "..", "python"))
    env.pop("TRITON_CACHE_AUTOTUNING", None)
    runs = [subprocess.run([sys.executable, "-m", "mytriton.run", str(script)], env=env,
                           capture_output=True, text=True, timeout=300) for _ in range(2)]
    for p in runs:
        assert p.returncode == 0, p.stderr
    assert [p.stdout.split() for p in runs] == [["2", "32"], ["0", "32"]]


def test_heuristics():
    @triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["n"])})
    @triton.jit
    def copy_all(x, out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)

    assert isinstance(copy_all, Heuristics)
    x = torch.arange(50, dtype=torch.float32)
    out = torch.zeros_like(x)
    k = copy_all[(1,)](x, out, 50)
    assert torch.equal(out, x) and k.signature.endswith(", 64")


def test_autotune_over_heuristics_with_a_meta_grid():
    bench = FakeBench({32: 2.0, 64: 1.0})

    @triton.autotune(configs=[Config({"BLOCK": 32}), Config({"BLOCK": 64})], key=["n"],
                     do_bench=bench)
    @triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
    @triton.jit
    def copy_even(x, out, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        if EVEN:
            tl.store(out + offs, tl.load(x + offs))
        else:
            tl.store(out + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)

    x = torch.arange(256, dtype=torch.float32)
    out = torch.zeros_like(x)
    copy_even[bench.grid(256)](x, out, 256)
    assert torch.equal(out, x) and copy_even.best_config.kwargs == {"BLOCK": 64}
    assert copy_even.fn.fn.arg_names == ["x", "out", "n", "BLOCK", "EVEN"]


def test_names_under_the_triton_alias():
    code = textwrap.dedent('''
        import mytriton
        mytriton.install_as_triton()
        import triton
        from triton.runtime import Autotuner, Heuristics, KernelInterface
        from triton.runtime.autotuner import Config
        assert triton.autotune is mytriton.autotune and triton.Config is Config
        assert triton.heuristics is mytriton.heuristics
        assert triton.knobs.autotuning.print is False
        print("ok")
    ''')
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(__file__), "..", "..",
                                                   "python"))
    env.pop("TRITON_PRINT_AUTOTUNING", None)
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr


def test_print_knob(capsys):
    triton.knobs.autotuning.print = True
    bench = FakeBench({32: 2.0, 64: 1.0, 128: 3.0})
    tuned(bench)[bench.grid(10)](torch.ones(10), torch.zeros(10), 10)
    out = capsys.readouterr().out
    assert "Autotuning kernel copy_kernel with config BLOCK: 32" in out
    assert "best config selected: BLOCK: 64, num_warps: 2" in out
