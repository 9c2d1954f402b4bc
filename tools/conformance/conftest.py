"""pytest plugin for running Triton's own language tests (test_core.py)
against an implementation: mytriton (MT_IMPL=mytriton, the default:
`import triton` resolves to mytriton) or a real Triton (MT_IMPL=triton, its
interpreter or a GPU), so that every count has its anchor.

It plays the part of Triton's python/test/conftest.py (the `device` option
and fixtures the suite uses) with our own code, and it makes a run survive
the tests it runs:
  - MT_SAMPLE=N keeps the tests whose node id hashes to 0 mod N (the same
    ids on every implementation, whatever each collects);
  - MT_LOG=FILE gets one JSON line as each test starts and one with its
    outcome, flushed at once, so a run.py that sees the process die (a
    crash, or MT_TEST_TIMEOUT seconds on one test) knows which test did it
    and starts again after it;
  - MT_ONLY=FILE restricts the run to the node ids listed in FILE.
"""
import faulthandler
import json
import os
import sys
import tempfile
import zlib

import pytest

IMPL = os.environ.get("MT_IMPL", "mytriton")

if IMPL == "mytriton":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "python"))
    from mytriton.triton_alias import install_as_triton
    install_as_triton()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import internal_testing
    sys.modules["triton._internal_testing"] = internal_testing


def pytest_configure(config):
    config.addinivalue_line("markers", "interpreter: the Triton interpreter supports the test")


def pytest_addoption(parser):
    parser.addoption("--device", action="store", default="cuda")


def pytest_collection_modifyitems(config, items):
    sample = int(os.environ.get("MT_SAMPLE", "1"))
    only = os.environ.get("MT_ONLY")
    keep = None
    if only:
        with open(only) as f:
            keep = {line.rstrip("\n") for line in f if line.strip()}
    items[:] = [it for it in items
                if (sample <= 1 or zlib.crc32(it.nodeid.encode()) % sample == 0)
                and (keep is None or it.nodeid in keep)]


def _log(record):
    path = os.environ.get("MT_LOG")
    if path:
        with open(path, "a") as f:
            f.write(json.dumps(record) + "\n")
            f.flush()
            os.fsync(f.fileno())


def _first_error(report):
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message.strip().splitlines()[0] if crash.message.strip() else "?"
    text = str(report.longrepr).strip().splitlines()
    return text[-1] if text else "?"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.excinfo is not None:
        outcome.get_result().mt_exception = call.excinfo.typename


def pytest_runtest_logstart(nodeid, location):
    _log({"start": nodeid, "t": __import__("time").time()})
    timeout = float(os.environ.get("MT_TEST_TIMEOUT", "0"))
    if timeout > 0:
        faulthandler.dump_traceback_later(timeout, exit=True)


def pytest_runtest_logreport(report):
    outcome = None
    if report.when == "setup" and report.outcome != "passed":
        outcome = "skipped" if report.skipped else "error"
    elif report.when == "call":
        if hasattr(report, "wasxfail"):
            outcome = "xfail" if report.skipped else "xpass"
        else:
            outcome = report.outcome
    elif report.when == "teardown" and report.outcome == "failed":
        outcome = "error"
    if outcome is None:
        return
    rec = {"test": report.nodeid, "outcome": outcome, "seconds": round(report.duration, 3)}
    if outcome in ("failed", "error"):
        rec["first_error"] = _first_error(report)
        rec["exception"] = getattr(report, "mt_exception", None)
    if outcome == "skipped" and isinstance(report.longrepr, tuple):
        rec["reason"] = str(report.longrepr[2])
    _log(rec)


def pytest_runtest_logfinish(nodeid, location):
    faulthandler.cancel_dump_traceback_later()
    _log({"finish": nodeid})


@pytest.fixture
def device(request):
    return request.config.getoption("--device")


@pytest.fixture
def fresh_triton_cache():
    import triton
    with tempfile.TemporaryDirectory() as tmpdir:
        knobs = triton.knobs
        with knobs.cache.scope(), knobs.runtime.scope():
            knobs.cache.dir = tmpdir
            yield tmpdir


@pytest.fixture
def fresh_knobs():
    from triton._internal_testing import _fresh_knobs_impl
    fresh, reset = _fresh_knobs_impl()
    try:
        yield fresh()
    finally:
        reset()


@pytest.fixture
def fresh_knobs_except_libraries():
    from triton._internal_testing import _fresh_knobs_impl
    fresh, reset = _fresh_knobs_impl(skipped_attr={"build", "nvidia", "amd"})
    try:
        yield fresh()
    finally:
        reset()


@pytest.fixture
def with_allocator():
    import triton
    from triton._internal_testing import default_alloc_fn
    triton.set_allocator(default_alloc_fn)
    try:
        yield
    finally:
        triton.set_allocator(None)
