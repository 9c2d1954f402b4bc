"""Triton's compile-time error classes (`triton.compiler.errors`): a
CompilationError carries the located diagnostic; a failed
tl.static_assert raises its subclass CompileTimeAssertionFailure."""
from .._C import CompilationError, CompileTimeAssertionFailure

CompileTimeAssertionFailure.__module__ = "mytriton.compiler.errors"

__all__ = ["CompilationError", "CompileTimeAssertionFailure"]
