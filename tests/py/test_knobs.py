"""triton.knobs for the settings mytriton has, and triton.set_allocator
(issue 17): real settings or a named AttributeError, never an accepted and
ignored knob."""
import os

import pytest
import torch

import mytriton as triton
import mytriton.language as tl


@triton.jit
def one_kernel(out):
    tl.store(out, 1.0)


def test_cache_dir_is_the_kernel_cache(tmp_path):
    with triton.knobs.cache.scope():
        triton.knobs.cache.dir = str(tmp_path)
        assert os.environ["MYTRITON_CACHE_DIR"] == str(tmp_path)
        one_kernel.clear_cache()
        one_kernel[(1,)](torch.zeros(1))
        assert any(tmp_path.iterdir()), "the compiled kernel was not cached there"
    assert triton.knobs.cache.dir != str(tmp_path)


def test_unknown_knob_is_named():
    with pytest.raises(AttributeError, match="knobs.cache.remote_url"):
        triton.knobs.cache.remote_url = "x"


def test_snapshot_reset_restore():
    saved = triton.knobs.snapshot()
    triton.knobs.reset()
    assert triton.knobs.cache.dir is None
    triton.knobs.restore(saved)
    assert triton.knobs.snapshot() == saved


def test_set_allocator():
    from mytriton.runtime.allocation import get_allocator

    def alloc(size, align, stream):
        return torch.empty(size, dtype=torch.int8)

    triton.set_allocator(alloc)
    assert get_allocator() is alloc
    triton.set_allocator(None)
    assert get_allocator() is None
    with pytest.raises(TypeError):
        triton.set_allocator(42)


def test_triton_error_hierarchy():
    from mytriton.runtime.errors import InterpreterError, OutOfResources
    assert issubclass(triton.CompilationError, triton.TritonError)
    assert issubclass(InterpreterError, triton.TritonError)
    assert issubclass(OutOfResources, triton.TritonError)

    @triton.jit
    def bad_kernel(out):
        tl.store(out, undefined_name)  # noqa: F821

    import pytest as _pytest
    with _pytest.raises(triton.TritonError, match="'undefined_name' is not defined"):
        bad_kernel.compile(torch.zeros(1), stages_only=True)


def test_runtime_debug_is_triton_debug(monkeypatch):
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    assert triton.knobs.runtime.debug is False
    monkeypatch.setenv("TRITON_DEBUG", "1")
    triton.knobs.refresh_knobs()
    assert triton.knobs.runtime.debug is True
    triton.knobs.runtime.debug = False
    assert "TRITON_DEBUG" not in os.environ
    triton.knobs.runtime.debug = True
    assert os.environ["TRITON_DEBUG"] == "1"
