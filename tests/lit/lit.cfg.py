# lit configuration: golden tests of printed SSA, CUDA C and diagnostics.
# Each test is a kernel file whose RUN lines call the CLI and pipe into
# FileCheck.  MYTRITON_CLI and FILECHECK come from the Makefile.
import os
import lit.formats

config.name = "mytriton"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".py", ".test"]
config.excludes = ["lit.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.environ.get("LIT_OUT", "/tmp"), "mytriton-lit")
cli = os.environ.get("MYTRITON_CLI", "mytriton")
filecheck = os.environ.get("FILECHECK", "FileCheck")
config.substitutions.append(("%mytriton", cli))
config.substitutions.append(("%FileCheck", filecheck + " --match-full-lines=false"))
config.substitutions.append(("%not", os.path.join(os.path.dirname(filecheck), "not")))
# the MLIR backend's tools (issue 12): tests/lit/mlir verifies every module
config.substitutions.append(("%mlir-opt", os.environ.get("MLIR_OPT", "/usr/lib/llvm-19/bin/mlir-opt")))
config.environment["MYTRITON_CACHE_DIR"] = os.path.join(config.test_exec_root, "cache")
for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "HOME", "PATH", "MYTRITON_MLIR_BIN"):
    if k in os.environ:
        config.environment[k] = os.environ[k]
