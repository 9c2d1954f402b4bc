"""`triton.runtime` under Triton's names: the active driver, the error
classes programs written for Triton import, and the autotuner."""
from . import autotuner, driver, errors
from .autotuner import Autotuner, Config, Heuristics, KernelInterface, autotune, heuristics
from .errors import InterpreterError, OutOfResources

__all__ = ["driver", "errors", "InterpreterError", "OutOfResources", "autotuner", "Autotuner",
           "Config", "Heuristics", "KernelInterface", "autotune", "heuristics"]
