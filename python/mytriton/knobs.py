"""`triton.knobs` for the settings mytriton has.

Each knob set is an object whose attributes are the settings; `scope()`
restores them on exit, `copy()` and `reset()` serve test fixtures.  Only
settings mytriton really honours exist here:

  cache.dir   where compiled kernels are kept on disk (the environment
              variable MYTRITON_CACHE_DIR, which the C library reads at
              every compilation; None means the default ~/.cache/mytriton)

Any other knob Triton has is an AttributeError that names it, never a
setting that is accepted and then ignored.
"""
from __future__ import annotations

import contextlib
import os

__all__ = ["base_knobs", "cache", "snapshot", "reset", "restore"]


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


cache = cache_knobs()
_SETS = {"cache": cache}


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
