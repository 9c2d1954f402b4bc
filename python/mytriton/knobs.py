"""`triton.knobs` for the settings mytriton has.

Each knob set is an object whose attributes are the settings; `scope()`
restores them on exit, `copy()` and `reset()` serve test fixtures.  Only
settings mytriton really honours exist here:

  cache.dir   where compiled kernels are kept on disk (the environment
              variable MYTRITON_CACHE_DIR, which the C library reads at
              every compilation; None means the default ~/.cache/mytriton)

  autotuning.cache  keep autotuning results on disk, in cache.dir, for
              later processes (default on; TRITON_CACHE_AUTOTUNING=0 in
              the environment, or False here, turns it off)
  autotuning.print  print each tuning's winner and time
              (TRITON_PRINT_AUTOTUNING=1 in the environment)

  runtime.debug  Triton's debug mode for every launch (device assertions,
              overflow checks): the environment variable TRITON_DEBUG,
              which the launcher reads at every launch
  runtime.launch_enter_hook, runtime.launch_exit_hook  callables run
              before and after every launch with its metadata (a LazyDict
              of name, function, stream and the kernel's launch_metadata=),
              as profilers use them; while none is set a launch calls no
              Python

  language.fp32_default  the input_precision of an fp32 tl.dot that names
              none ("tf32", "tf32x3", "ieee"; None: Triton's rule, tf32
              unless allow_tf32=False): the environment variable
              TRITON_F32_DEFAULT, read at every launch (part of the key)
  language.default_fp_fusion  whether a launch that does not say
              enable_fp_fusion= may contract multiplies and adds into
              FMAs (default True): TRITON_DEFAULT_FP_FUSION, read at
              every launch

Triton reads its environment into the knobs once and again at
refresh_knobs(); these read it at every use, so refresh_knobs() has
nothing to do.

Any other knob Triton has is an AttributeError that names it, never a
setting that is accepted and then ignored.
"""
from __future__ import annotations

import contextlib
import os

__all__ = ["base_knobs", "cache", "autotuning", "runtime", "language", "snapshot", "reset",
           "restore", "refresh_knobs"]


class base_knobs:
    """A set of knobs: the subclass lists them in `_names`."""

    _names: tuple = ()

    def _values(self):
        return {n: getattr(self, n) for n in self._names}

    def _assign(self, values):
        for n, v in values.items():
            setattr(self, n, v)

    @contextlib.contextmanager
    def scope(self):
        saved = self._values()
        try:
            yield self
        finally:
            self._assign(saved)

    def copy(self):
        other = type(self)()
        other._assign(self._values())
        return other

    def reset(self):
        self._assign({n: None for n in self._names})
        return self

    def __setattr__(self, name, value):
        if name not in self._names:
            raise AttributeError(f"knobs.{type(self).__name__[:-6]}.{name} is not a setting "
                                 "mytriton has")
        object.__setattr__(self, name, value)


class cache_knobs(base_knobs):
    _names = ("dir",)

    @property
    def dir(self):
        return os.environ.get("MYTRITON_CACHE_DIR")

    @dir.setter
    def dir(self, value):
        if value is None:
            os.environ.pop("MYTRITON_CACHE_DIR", None)
        else:
            os.environ["MYTRITON_CACHE_DIR"] = os.fspath(value)


class autotuning_knobs(base_knobs):
    """Set values win; None (unset, or after reset) means the environment's
    or the default."""
    _names = ("cache", "print")

    def __init__(self):
        object.__setattr__(self, "_set", {})

    def _flag(self, name, env, default):
        v = self._set.get(name)
        if v is not None:
            return bool(v)
        e = os.environ.get(env)
        return default if e is None else e.strip().lower() in ("1", "true", "on", "yes")

    def _put(self, name, value):
        self._set[name] = value

    cache = property(lambda self: self._flag("cache", "TRITON_CACHE_AUTOTUNING", True),
                     lambda self, v: self._put("cache", v))
    print = property(lambda self: self._flag("print", "TRITON_PRINT_AUTOTUNING", False),
                     lambda self, v: self._put("print", v))


class LazyDict:
    """Triton's launch metadata: the kernel's name, function and stream,
    and what the kernel's @jit(launch_metadata=fn) adds,
    fn(grid, kernel.metadata, {name: argument}), computed on get()."""

    def __init__(self, data):
        self.data = data
        self.extras = []

    def add(self, fn, args):
        self.extras.append((fn, args))

    def get(self):
        for fn, args in self.extras:
            self.data.update(fn(*args))
        self.extras.clear()
        return self.data


def _launch_enter(jit_fn, kernel, grid, args):
    """Called by the extension before a launch while a hook is set: the
    metadata the enter hook gets, and the exit hook after the launch."""
    hook = runtime.launch_enter_hook
    if hook is None:
        return None
    md = LazyDict({"name": kernel.name, "function": None, "stream": None})
    fn = jit_fn.options.get("launch_metadata")
    if fn is not None:
        md.add(fn, (grid, kernel.metadata, dict(zip(jit_fn.arg_names, args))))
    hook(md)
    return md


def _launch_exit(md):
    hook = runtime.launch_exit_hook
    if hook is not None:
        hook(md)


class runtime_knobs(base_knobs):
    """debug (TRITON_DEBUG); launch_enter_hook / launch_exit_hook, called
    around every launch with the launch metadata (a LazyDict; None when no
    enter hook is set), as Triton's launcher calls them."""

    _names = ("debug", "launch_enter_hook", "launch_exit_hook")
    _hooks = {}

    def _hook(self, name):
        return runtime_knobs._hooks.get(name)

    def _set_hook(self, name, value):
        if value is not None and not callable(value):
            raise TypeError(f"knobs.runtime.{name} must be callable or None")
        runtime_knobs._hooks[name] = value
        from . import _C
        on = any(v is not None for v in runtime_knobs._hooks.values())
        _C._set_launch_hooks(_launch_enter if on else None, _launch_exit if on else None)

    launch_enter_hook = property(lambda self: self._hook("launch_enter_hook"),
                                 lambda self, v: self._set_hook("launch_enter_hook", v))
    launch_exit_hook = property(lambda self: self._hook("launch_exit_hook"),
                                lambda self, v: self._set_hook("launch_exit_hook", v))

    @property
    def debug(self):
        e = os.environ.get("TRITON_DEBUG")
        return e is not None and e.strip().lower() in ("1", "true", "on", "yes")

    @debug.setter
    def debug(self, value):
        if value:
            os.environ["TRITON_DEBUG"] = "1"
        else:
            os.environ.pop("TRITON_DEBUG", None)


class language_knobs(base_knobs):
    _names = ("fp32_default", "default_fp_fusion")

    @property
    def default_fp_fusion(self):
        e = os.environ.get("TRITON_DEFAULT_FP_FUSION")
        return not e or e.strip().lower() in ("1", "true", "on", "yes")

    @default_fp_fusion.setter
    def default_fp_fusion(self, value):
        if value is None:
            os.environ.pop("TRITON_DEFAULT_FP_FUSION", None)
        else:
            os.environ["TRITON_DEFAULT_FP_FUSION"] = "1" if value else "0"

    @property
    def fp32_default(self):
        return os.environ.get("TRITON_F32_DEFAULT") or None

    @fp32_default.setter
    def fp32_default(self, value):
        if value is None:
            os.environ.pop("TRITON_F32_DEFAULT", None)
        else:
            os.environ["TRITON_F32_DEFAULT"] = str(value)


cache = cache_knobs()
autotuning = autotuning_knobs()
runtime = runtime_knobs()
language = language_knobs()
_SETS = {"cache": cache, "autotuning": autotuning, "runtime": runtime, "language": language}


def refresh_knobs():
    """Triton's re-read of the environment: mytriton's knobs read it at
    every use."""


def snapshot():
    """Every knob's value, for restore()."""
    return {name: s._values() for name, s in _SETS.items()}


def reset(skip=()):
    """Every knob set not in skip back to its default."""
    for name, s in _SETS.items():
        if name not in skip:
            s.reset()


def restore(saved):
    for name, values in saved.items():
        _SETS[name]._assign(values)
