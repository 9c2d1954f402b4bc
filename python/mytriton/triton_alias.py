"""`import triton` as mytriton, for programs written for Triton.

install_as_triton() makes `triton` and every `triton.X` import resolve to
mytriton and `mytriton.X`: the same module objects, so a class or a dtype
imported under either name is the same object.  It is only ever done when
asked for (this function, or `python -m mytriton.run script.py`): importing
mytriton never touches a real Triton.  A `triton.X` that mytriton lacks
fails with ModuleNotFoundError naming `triton.X`.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

__all__ = ["install_as_triton", "uninstall_as_triton"]

_PREFIX = "triton"
_OURS = "mytriton"


def _ours(name: str) -> str:
    return _OURS + name[len(_PREFIX):]


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `triton[.X]` as the already imported (or importable)
    `mytriton[.X]` and hands out that very module object."""

    def __init__(self):
        self._own_spec = {}

    def find_spec(self, name, path=None, target=None):
        if name != _PREFIX and not name.startswith(_PREFIX + "."):
            return None
        try:
            found = importlib.util.find_spec(_ours(name))
        except ModuleNotFoundError:
            found = None
        if found is None:
            return None
        return importlib.util.spec_from_loader(name, self, is_package=found.submodule_search_locations is not None)

    def create_module(self, spec):
        module = importlib.import_module(_ours(spec.name))
        self._own_spec[module.__name__] = module.__spec__
        return module

    def exec_module(self, module):
        # The import system has stamped the alias's spec on the module: put
        # its own back, so its relative imports stay inside mytriton.
        module.__spec__ = self._own_spec.pop(module.__name__, module.__spec__)


_finder = _AliasFinder()


def install_as_triton() -> None:
    """From now on `import triton...` gives mytriton.  Modules already
    imported under a `triton` name (a real Triton) are dropped from
    sys.modules, so later imports see mytriton; objects that code already
    holds keep pointing where they pointed."""
    for name in [n for n in sys.modules if n == _PREFIX or n.startswith(_PREFIX + ".")]:
        del sys.modules[name]
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    for name in [n for n in sys.modules if n == _OURS or n.startswith(_OURS + ".")]:
        sys.modules[_PREFIX + name[len(_OURS):]] = sys.modules[name]


def uninstall_as_triton() -> None:
    """Undoes install_as_triton: `triton` names are free again."""
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name in [n for n in sys.modules if n == _PREFIX or n.startswith(_PREFIX + ".")]:
        if sys.modules[name].__name__.startswith(_OURS):
            del sys.modules[name]
