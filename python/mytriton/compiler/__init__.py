"""`triton.compiler` under Triton's names: its error classes, which
programs written for Triton catch (the autotuner skips a config whose
tl.static_assert fails).  Compiling is mytriton's own JIT (mytriton.jit);
Triton's ASTSource/compile stages are not here."""
from . import errors
from .errors import CompilationError, CompileTimeAssertionFailure

__all__ = ["errors", "CompilationError", "CompileTimeAssertionFailure"]
