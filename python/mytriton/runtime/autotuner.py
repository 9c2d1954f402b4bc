"""`triton.autotune`, `triton.Config` and `triton.heuristics`, with
Triton 3.6's behaviour.

Input: a JIT function (or another KernelInterface wrapping one), a list of
Configs (meta-parameters plus num_warps, num_stages, ...), the names of the
arguments whose values select a tuning (`key`).  Output: launches with the
fastest config for the call's key.

The key of a call is the values of the `key` arguments, then the dtype of
every argument that has one.  On the first call with a new key every
config (after `prune_configs_by`) is launched and timed with the
benchmarker (`do_bench`: mytriton.testing.do_bench unless given; wall
clock on the host backend, CUDA events on a GPU); the fastest is kept in
memory, and each later call with that key launches it directly.  Configs
that cannot run (OutOfResources, a compile error whose status is
MT_ERR_RESOURCE, or a failed tl.static_assert) time as infinity.  `reset_to_zero` tensors are zeroed
before every timed launch and once more after tuning; `restore_value`
tensors are copied before and put back after each.

On disk: unlike Triton, whose default is off, mytriton keeps each tuning's
timings on disk by default (knobs.autotuning.cache; `cache_results=False`
turns it off for one kernel), in the kernel cache directory (knobs.cache.dir,
else ~/.cache/mytriton) as `<digest>.autotune.json`.  The digest covers
mytriton's build, the backend the call runs on, the kernel's source, the
tuning key and every config, so a later process with the same inputs skips
the timing and launches the winner.  Configs with a pre_hook, which JSON
cannot hold, are always timed, as in Triton.
"""
from __future__ import annotations

import builtins
import hashlib
import inspect
import json
import os
import time
from typing import Any, Callable, Dict, List, Optional

from .. import knobs
from .errors import AutotunerError, OutOfResources

__all__ = ["Autotuner", "Config", "Heuristics", "KernelInterface", "autotune", "heuristics"]


class KernelInterface:
    """What `kernel[grid](...)` and `kernel.warmup(...)` mean for a
    wrapper of a JIT function: both end in its run()."""

    def run(self, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> Any:
        raise NotImplementedError("run not implemented")

    def warmup(self, *args: Any, grid: Any = None, **kwargs: Any) -> Any:
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        return lambda *args, **kwargs: self.run(*args, grid=grid, warmup=False, **kwargs)


class Config:
    """One configuration to try: meta-parameters (`kwargs`, passed to the
    kernel as keyword arguments) and launch options.  num_warps selects the
    threads per program; num_stages, num_ctas and maxnreg are Triton's
    options, accepted at launch (mytriton's code does not depend on them
    yet); pre_hook(args) runs before each launch with this config."""

    def __init__(self, kwargs: Dict[str, Any], num_warps: int = 4, num_stages: int = 3,
                 num_ctas: int = 1, maxnreg: Optional[int] = None,
                 pre_hook: Optional[Callable] = None, ir_override: Optional[str] = None):
        if ir_override is not None:
            raise NotImplementedError("Config(ir_override=...) is not supported: mytriton has "
                                      "no Triton IR to replace")
        self.kwargs = kwargs
        self.num_warps = num_warps
        self.num_ctas = num_ctas
        self.num_stages = num_stages
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = None

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__init__(state.get("kwargs", {}), state.get("num_warps", 4),
                      state.get("num_stages", 3), state.get("num_ctas", 1),
                      state.get("maxnreg"), state.get("pre_hook"), state.get("ir_override"))

    def all_kwargs(self) -> Dict[str, Any]:
        """The meta-parameters and the options that are set, as the
        keyword arguments of one launch."""
        opts = (("num_warps", self.num_warps), ("num_ctas", self.num_ctas),
                ("num_stages", self.num_stages), ("maxnreg", self.maxnreg))
        return {**self.kwargs, **{k: v for k, v in opts if v is not None}}

    def _identity(self) -> tuple:
        return (*self.all_kwargs().items(), self.pre_hook)

    def __hash__(self) -> int:
        return hash(self._identity())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and self._identity() == other._identity()

    def __str__(self) -> str:
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [f"num_warps: {self.num_warps}", f"num_ctas: {self.num_ctas}",
                  f"num_stages: {self.num_stages}", f"maxnreg: {self.maxnreg}"]
        return ", ".join(parts)

    __repr__ = __str__


def _jit_function(fn: Any) -> Any:
    """The JIT function under a stack of wrappers (Heuristics, Autotuner)."""
    from ..jit import JITFunction
    while not isinstance(fn, JITFunction):
        fn = fn.fn
    return fn


def _build_tag() -> str:
    """Changes whenever mytriton's compiler changes: the version and the
    extension's file identity (size and modification time)."""
    from .. import _C, __version__
    st = os.stat(_C.__file__)
    return f"{__version__}:{st.st_size}:{st.st_mtime_ns}"


def _cache_dir() -> Optional[str]:
    d = knobs.cache.dir
    if d:
        return d
    home = os.environ.get("HOME")
    return os.path.join(home, ".cache", "mytriton") if home else None


def _backend_of(args: Dict[str, Any]) -> str:
    """Where a call runs: the device of its first CUDA tensor, else the host."""
    for v in args.values():
        if getattr(v, "is_cuda", False):
            from .driver import active
            return f"cuda:{active.get_current_target().arch}"
    return "host"


class Autotuner(KernelInterface):
    """A kernel under @autotune: see the module's description."""

    def __init__(self, fn: Any, arg_names: List[str], configs: List[Config], key: List[str],
                 reset_to_zero: Optional[List[str]], restore_value: Optional[List[str]],
                 pre_hook: Optional[Callable] = None, post_hook: Optional[Callable] = None,
                 prune_configs_by: Optional[Dict] = None, warmup: Optional[float] = None,
                 rep: Optional[float] = None, use_cuda_graph: bool = False,
                 do_bench: Optional[Callable] = None, cache_results: Optional[bool] = None):
        self.configs = configs or [Config({}, num_warps=4, num_stages=3, num_ctas=1)]
        self.keys = list(key)
        self.cache: Dict[tuple, Config] = {}
        self.arg_names = arg_names
        self.cache_results = cache_results
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.restore_copies: Dict[str, Any] = {}
        self.user_defined_pre_hook = pre_hook is not None
        self.user_defined_post_hook = post_hook is not None
        self.pre_hook = pre_hook or self._default_pre_hook
        self.post_hook = post_hook or self._default_post_hook
        prune = prune_configs_by or {}
        self.perf_model = prune.get("perf_model")
        self.configs_top_k = prune.get("top_k", 1.0)
        self.early_config_prune = prune.get("early_config_prune")
        self.fn = fn
        self.base_fn = fn
        while not inspect.isfunction(self.base_fn):
            self.base_fn = self.base_fn.fn
        self.nargs: Optional[Dict[str, Any]] = None
        self.best_config: Optional[Config] = None
        self.configs_timings: Optional[Dict[Config, Any]] = None
        self.bench_time = 0.0
        self.num_warmups, self.num_reps = warmup, rep
        self._do_bench = do_bench or self._budgeted(warmup, rep, use_cuda_graph)

    @property
    def do_bench(self) -> Callable:
        """The benchmarker: the one given, else the active driver's (found
        at the first tuning, so importing a module opens no driver)."""
        if self._do_bench is None:
            from .driver import active
            self._do_bench = active.get_benchmarker()
        return self._do_bench

    @staticmethod
    def _budgeted(warmup, rep, use_cuda_graph) -> Optional[Callable]:
        """Triton's deprecated warmup=/rep=/use_cuda_graph= budgets."""
        if warmup is None and rep is None and not use_cuda_graph:
            return None
        from .. import testing
        import warnings
        warnings.warn("warmup, rep, and use_cuda_graph parameters are deprecated "
                      "(as in Triton): pass do_bench= instead", DeprecationWarning,
                      stacklevel=3)
        if use_cuda_graph:
            return lambda call, quantiles: testing.do_bench_cudagraph(
                call, rep=100 if rep is None else rep, quantiles=quantiles)
        return lambda call, quantiles: testing.do_bench(
            call, warmup=25 if warmup is None else warmup, rep=100 if rep is None else rep,
            quantiles=quantiles)

    # ---- hooks around every timed launch ----

    def _default_pre_hook(self, kwargs: Dict[str, Any], reset_only: bool = False) -> None:
        for name in self.reset_to_zero:
            kwargs[name].zero_()
        if not reset_only:
            self.restore_copies = {name: kwargs[name].clone() for name in self.restore_value}

    def _default_post_hook(self, kwargs: Dict[str, Any], exception: Optional[BaseException]):
        for name in self.restore_value:
            kwargs[name].copy_(self.restore_copies[name])
        self.restore_copies = {}

    # ---- timing ----

    def _bench(self, *args: Any, config: Config, **meta: Any) -> List[float]:
        from .._C import CompilationError, CompileTimeAssertionFailure, LaunchError
        if knobs.autotuning.print:
            print(f"Autotuning kernel {self.base_fn.__name__} with config {config}")
        conflicts = meta.keys() & config.kwargs.keys()
        if conflicts:
            raise ValueError(f"Conflicting meta-parameters: {', '.join(sorted(conflicts))}."
                             " Make sure that you don't re-define auto-tuned symbols.")
        current = dict(meta, **config.all_kwargs())
        full_nargs = {**self.nargs, **current}

        def kernel_call():
            if config.pre_hook:
                config.pre_hook(full_nargs)
            self.pre_hook(full_nargs)
            try:
                self.fn.run(*args, **current)
            except Exception as e:
                self.post_hook(full_nargs, exception=e)
                raise
            self.post_hook(full_nargs, exception=None)

        try:
            return self.do_bench(kernel_call, quantiles=(0.5, 0.2, 0.8))
        except (OutOfResources, CompilationError, LaunchError) as e:
            # a config too big for the device, found compiling or launching,
            # or one its kernel's tl.static_assert refuses (as in Triton)
            if (not isinstance(e, (OutOfResources, CompileTimeAssertionFailure))
                    and getattr(e, "status", "") != "MT_ERR_RESOURCE"):
                raise
            if knobs.autotuning.print:
                print(f"Autotuning failed with {e}")
            return [float("inf")] * 3

    def _disk_path(self, tuning_key: tuple, configs: List[Config],
                   kwargs: Dict[str, Any]) -> Optional[str]:
        use = knobs.autotuning.cache if self.cache_results is None else self.cache_results
        folder = _cache_dir()
        if not use or not folder or not tuning_key or any(c.pre_hook for c in configs):
            return None
        jit_fn = _jit_function(self.fn)
        parts = [_build_tag(), _backend_of({**self.nargs, **kwargs}), jit_fn.cache_key, str(tuning_key)]
        digest = hashlib.sha256("-".join(parts + [str(c) for c in configs]).encode())
        return os.path.join(folder, digest.hexdigest()[:32] + ".autotune.json")

    def _load(self, path: str, tuning_key: tuple) -> bool:
        try:
            with open(path, encoding="utf-8") as fh:
                rows = json.load(fh)["configs_timings"]
            timings = {Config(**cfg): t for cfg, t in rows}
        except (OSError, ValueError, KeyError, TypeError):
            return False
        if not timings:
            return False
        self.cache[tuning_key] = builtins.min(timings, key=timings.get)
        self.configs_timings = timings
        return True

    def _store(self, path: str, tuning_key: tuple) -> None:
        rows = [(vars(c), t) for c, t in self.configs_timings.items()]
        try:
            text = json.dumps({"key": list(tuning_key), "configs_timings": rows})
        except TypeError:  # a meta-parameter JSON cannot hold (a dtype): not kept
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{os.path.dirname(path)}/.{os.path.basename(path)}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)  # readers never see a partial file

    def _tune(self, args: tuple, kwargs: Dict[str, Any], tuning_key: tuple) -> bool:
        """Times every config for tuning_key (or reads the timings from
        disk); returns whether the disk's were used."""
        configs = self.prune_configs(kwargs)
        path = self._disk_path(tuning_key, configs, kwargs)
        if path and os.path.exists(path) and self._load(path, tuning_key):
            return True
        start = time.time()
        timings = {c: self._bench(*args, config=c, **kwargs) for c in configs}
        self.bench_time = time.time() - start
        self.cache[tuning_key] = builtins.min(timings, key=timings.get)
        self.pre_hook({**self.nargs, **kwargs, **self.cache[tuning_key].all_kwargs()},
                      reset_only=True)
        self.configs_timings = timings
        if path:
            self._store(path, tuning_key)
        return False

    def _key(self, kwargs: Dict[str, Any]) -> tuple:
        named = {k: v for k, v in {**self.nargs, **kwargs}.items() if k in self.arg_names}
        key = [named[k] for k in self.keys if k in named]
        key += [str(v.dtype) for v in named.values() if hasattr(v, "dtype")]
        return tuple(key)

    def run(self, *args: Any, **kwargs: Any) -> Any:
        self.nargs = dict(zip(self.arg_names, args))
        from_disk = True
        tuning_key = None
        if len(self.configs) > 1:
            tuning_key = self._key(kwargs)
            if tuning_key not in self.cache:
                from_disk = self._tune(args, kwargs, tuning_key)
            config = self.cache[tuning_key]
        else:
            config = self.configs[0]
        self.best_config = config
        if knobs.autotuning.print and not from_disk:
            print(f"Triton autotuning for function {self.base_fn.__name__},\n"
                  f"with key as {tuning_key},\nfinished after {self.bench_time:.2f}s,\n"
                  f"best config selected: {self.best_config};")
        if config.pre_hook is not None:
            config.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()})
        ret = self.fn.run(*args, **kwargs, **config.all_kwargs())
        self.nargs = None
        return ret

    def prune_configs(self, kwargs: Dict[str, Any]) -> List[Config]:
        configs = self.configs
        if self.early_config_prune:
            configs = self.early_config_prune(self.configs, self.nargs, **kwargs)
            if not configs:
                raise AutotunerError("No valid autotuner configs after pruning. "
                                     "`early_config_prune` should return at least one config.")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(self.configs) * top_k)
            elif not isinstance(top_k, int):
                raise TypeError("Error while pruning configs, top_k must be either "
                                "1) a float <= 1.0 or 2) an int")
            if len(configs) > top_k:
                est = {c: self.perf_model(**self.nargs, **kwargs, **c.all_kwargs())
                       for c in configs}
                configs = sorted(est, key=est.get)[:top_k]
        return configs

    def warmup(self, *args: Any, **kwargs: Any) -> List[Any]:
        """Compiles every (pruned) config without launching."""
        self.nargs = dict(zip(self.arg_names, args))
        kwargs.setdefault("grid", None)
        out = [self.fn.warmup(*args, **kwargs, **c.all_kwargs())
               for c in self.prune_configs(kwargs)]
        self.nargs = None
        return out


def autotune(configs: List[Config], key: List[str], prune_configs_by: Optional[Dict] = None,
             reset_to_zero: Optional[List[str]] = None,
             restore_value: Optional[List[str]] = None, pre_hook: Optional[Callable] = None,
             post_hook: Optional[Callable] = None, warmup: Optional[float] = None,
             rep: Optional[float] = None, use_cuda_graph: bool = False,
             do_bench: Optional[Callable] = None, cache_results: Optional[bool] = None):
    """@autotune(configs=[Config(...), ...], key=['n', ...]) over a @jit
    kernel: each new key value times every config and launches the
    fastest.  prune_configs_by={'early_config_prune': f(configs, nargs,
    **kw), 'perf_model': g(**args), 'top_k': k} narrows the configs;
    reset_to_zero / restore_value name tensors the timing launches must
    not leave changed; pre_hook(kwargs, reset_only) / post_hook(kwargs,
    exception) replace those hooks; do_bench(call, quantiles) times one
    config; cache_results: keep timings on disk (None: knobs.autotuning.cache)."""
    def decorator(fn):
        return Autotuner(fn, fn.arg_names, configs, key, reset_to_zero, restore_value,
                         pre_hook=pre_hook, post_hook=post_hook,
                         prune_configs_by=prune_configs_by, warmup=warmup, rep=rep,
                         use_cuda_graph=use_cuda_graph, do_bench=do_bench,
                         cache_results=cache_results)
    return decorator


class Heuristics(KernelInterface):
    """A kernel under @heuristics: meta-parameters computed from the call's
    arguments before each launch."""

    def __init__(self, fn: Any, arg_names: List[str], values: Dict[str, Callable]):
        self.fn = fn
        self.values = values
        self.arg_names = arg_names

    def run(self, *args: Any, **kwargs: Any) -> Any:
        for name, heur in self.values.items():
            kwargs[name] = heur({**dict(zip(self.arg_names, args)), **kwargs})
        return self.fn.run(*args, **kwargs)


def heuristics(values: Dict[str, Callable[[Dict[str, Any]], Any]]):
    """@heuristics({'BLOCK': lambda args: triton.next_power_of_2(args['n'])})
    over a @jit kernel (or an @autotune'd one): each function gets the
    call's arguments by name and gives the value of its meta-parameter."""
    return lambda fn: Heuristics(fn, fn.arg_names, values)
