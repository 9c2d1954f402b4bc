"""Running programs written for Triton unmodified (issue 17, item 3):
`python -m mytriton.run script.py` and mytriton.triton_alias.  Each check
runs in a fresh interpreter, so this test process's modules stay as they
are."""
import os
import subprocess
import sys
import textwrap

PYTHON_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "python")


def run_python(code=None, args=(), cwd=None):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(PYTHON_DIR))
    cmd = [sys.executable] + (["-c", code] if code is not None else []) + list(args)
    return subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=cwd, timeout=300)


TRITON_PROGRAM = textwrap.dedent('''
    import sys
    import torch
    import triton
    import triton.language as tl
    from triton.runtime.errors import InterpreterError


    @triton.jit
    def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 3.0, mask=mask)


    x = torch.arange(100, dtype=torch.float32)
    y = torch.empty_like(x)
    scale_kernel[(triton.cdiv(100, 32),)](x, y, 100, BLOCK=32)
    assert torch.equal(y, x * 3.0)
    print("ok", triton.__name__, sys.argv[1:], __name__)
''')


def test_run_module_runs_a_triton_program(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(TRITON_PROGRAM)
    p = run_python(args=["-m", "mytriton.run", str(script), "--flag", "7"])
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "ok mytriton ['--flag', '7'] __main__"


def test_run_module_reports_a_missing_script(tmp_path):
    p = run_python(args=["-m", "mytriton.run", str(tmp_path / "absent.py")])
    assert p.returncode == 2
    assert "no such file" in p.stderr


def test_alias_gives_the_same_modules():
    p = run_python(textwrap.dedent('''
        import sys
        import mytriton
        assert "triton" not in sys.modules            # never without asking
        from mytriton.triton_alias import install_as_triton, uninstall_as_triton
        install_as_triton()
        import triton, triton.language as tl, triton.runtime.driver as drv
        import mytriton.language, mytriton.runtime.driver
        assert triton is mytriton and tl is mytriton.language
        assert drv is mytriton.runtime.driver
        assert tl.__spec__.name == "mytriton.language"
        try:
            import triton.no_such_module
        except ModuleNotFoundError as e:
            assert "triton.no_such_module" in str(e), e
        else:
            raise AssertionError("import of a missing module succeeded")
        uninstall_as_triton()
        assert "triton" not in sys.modules
        try:
            import triton
        except ImportError:
            pass
        else:
            assert triton is not mytriton
        print("ok")
    '''))
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "ok"


def test_driver_is_honest_about_the_host_backend():
    p = run_python(textwrap.dedent('''
        import mytriton
        from mytriton.runtime import driver
        t = driver.active.get_current_target()
        if mytriton.cuda_available():
            assert t.backend == "cuda" and t.warp_size == 32, t
        else:
            assert (t.backend, t.arch, t.warp_size) == ("cpu", "host", 32), t
            assert str(driver.active.get_active_torch_device()) == "cpu"
        props = driver.active.utils.get_device_properties(driver.active.get_current_device())
        assert props["multiprocessor_count"] >= 1 and props["warpSize"] == 32
        print("ok")
    '''))
    assert p.returncode == 0, p.stderr
