"""`triton.runtime` under Triton's names: the active driver and the error
classes programs written for Triton import."""
from . import driver, errors
from .errors import InterpreterError, OutOfResources

__all__ = ["driver", "errors", "InterpreterError", "OutOfResources"]
