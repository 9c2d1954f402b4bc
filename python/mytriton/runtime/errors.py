"""Triton's runtime error classes, under Triton's names
(`triton.runtime.errors`): what a program written for Triton catches."""
from __future__ import annotations

from .._C import TritonError

__all__ = ["InterpreterError", "OutOfResources", "PTXASError", "AutotunerError"]


class InterpreterError(TritonError):
    """Triton raises it from its interpreter (TRITON_INTERPRET=1); mytriton
    has no interpreter and never raises it, but programs name it."""


class OutOfResources(TritonError):
    """A kernel needs more of a resource than the target has."""

    def __init__(self, required: int, limit: int, name: str):
        self.required, self.limit, self.name = required, limit, name
        super().__init__(f"out of resource: {name}, Required: {required}, "
                         f"Hardware limit: {limit}")


class PTXASError(TritonError):
    """The PTX assembler failed (never raised: mytriton compiles with NVRTC)."""


class AutotunerError(TritonError):
    """The autotuner cannot proceed (no config left after pruning)."""

    def __init__(self, error_message: str = ""):
        self.error_message = error_message
        super().__init__(error_message)

    def __str__(self) -> str:
        return f"Autotuner error: {self.error_message or ''}"
