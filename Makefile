# mytriton: plain Makefile.  `make` builds the static and shared library,
# the CLI and (when Python headers exist) the CPython extension; `make test`
# runs every test: C unit tests, lit + FileCheck goldens, the same C tests
# and goldens under ASan+UBSan, and pytest on the host backend.

CC      ?= cc
PYTHON  ?= /usr/bin/python3
CFLAGS  ?= -O2 -g
WARN    = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
          -Wmissing-prototypes -Wundef -Wno-unused-parameter -Werror=implicit-function-declaration
ALLCFLAGS = $(WARN) $(CFLAGS) -fPIC -D_GNU_SOURCE -Iinclude
LDLIBS  = -ldl -lpthread -lm

# Library sources in pipeline order.
SRC = src/util.c src/diag.c src/lex.c src/parse.c src/parseexpr.c src/parsestmt.c src/ast.c src/type.c \
      src/sig.c src/ir.c src/ctext.c src/irprint.c src/irread.c src/irparse.c src/typerules.c src/verify.c \
      src/ctval.c src/builtins.c src/pybuiltins.c src/tlops.c src/tlblockptr.c src/tldesc.c src/tlscan.c src/tlmath.c src/libdevice.c src/tlrandom.c src/dtypeval.c src/elab.c src/elabflow.c src/opt.c \
      src/widenfp8.c src/unbatch.c src/memorder.c src/layout.c src/axis.c src/smem.c src/dotplan.c src/smemplan.c src/layoutprint.c \
      src/cuda_dist.c src/cuda_dot.c src/cuda_mma.c src/cuda_scan.c src/cuda_mem.c src/cuda.c src/pipeline.c src/cudart.c src/fiber.c src/host.c src/cache.c src/api.c
SRC += src/tlshape.c src/cuda_shape.c
# atomics (issue 9)
SRC += src/tlatomic.c src/cuda_atomic.c
# printing and debug mode (issue 9)
SRC += src/tldebug.c src/tlasm.c src/cuda_debug.c src/cuda_asm.c src/cuda_check.c
# ahead-of-time C files (issue 13)
SRC += src/aot.c src/aotlink.c
# the MLIR backend (issue 12)
SRC += src/mlir.c src/mlir_ops.c src/mlirrun.c
# tl.dot_scaled, decomposed onto tl.dot
SRC += src/tldotscaled.c
# loads of a tl.range(num_stages=) loop one iteration ahead (issue 9)
SRC += src/pipeload.c
# the cpu backend: tiles lowered to C loops (issue 18)
SRC += src/cpu.c src/cpu_ops.c
# While stages land one by one, build those present.
SRC := $(filter $(wildcard src/*.c),$(SRC))
HDR = include/mytriton.h src/mt.h src/mt_host.h src/ops.def src/libdevice.def

B = build
# Tests and examples keep their compiled kernels inside the build tree.
export MYTRITON_CACHE_DIR ?= $(CURDIR)/$(B)/cache
OBJ = $(SRC:src/%.c=$(B)/obj/%.o)
ASAN_OBJ = $(SRC:src/%.c=$(B)/asan/%.o)
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
UNIT_ASAN = $(UNIT_SRC:tests/unit/%.c=$(B)/tests-asan/%)

LIT = $(PYTHON) /usr/lib/llvm-14/build/utils/lit/lit.py
FILECHECK ?= /usr/lib/llvm-14/bin/FileCheck

PYINC := $(shell $(PYTHON) -c 'import sysconfig;print(sysconfig.get_paths()["include"])' 2>/dev/null)
PYEXT := $(shell $(PYTHON) -c 'import sysconfig;print(sysconfig.get_config_var("EXT_SUFFIX"))' 2>/dev/null)
PYMOD = python/mytriton/_C$(PYEXT)

all: $(B)/libmytriton.a $(B)/libmytriton.so $(B)/mytriton python-ext

$(B)/obj/%.o: src/%.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -c $< -o $@

$(B)/asan/%.o: src/%.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -O1 $(SANFLAGS) -c $< -o $@

# The host backend's emulation header, embedded in the library as a string.
$(B)/obj/host.o $(B)/asan/host.o: src/mt_host_h.inc
src/mt_host_h.inc: src/mt_host.h tools/embed.sh
	sh tools/embed.sh mt_host_header < src/mt_host.h > $@
# The conversions generated kernels call, embedded for both backends.
$(B)/obj/host.o $(B)/asan/host.o $(B)/obj/cudart.o $(B)/asan/cudart.o: src/mt_kernel_rt_h.inc
# The constant folder calls the runtime's math functions (tlmath.c's ops).
$(B)/obj/ctext.o $(B)/asan/ctext.o: src/mt_kernel_rt.h
# libdevice's functions (mt_libdevice_rt.h) travel in the same text.
src/mt_kernel_rt_h.inc: src/mt_kernel_rt.h src/mt_libdevice_rt.h tools/embed.sh
	{ cat src/mt_kernel_rt.h; echo '#line 1 "mt_libdevice_rt.h"'; cat src/mt_libdevice_rt.h; } | \
	  sh tools/embed.sh mt_kernel_rt_header > $@
# The cpu backend's run-time support for its generated C (issue 18).
$(B)/obj/host.o $(B)/asan/host.o: src/mt_cpu_rt_h.inc
src/mt_cpu_rt_h.inc: src/mt_cpu_rt.h tools/embed.sh
	sh tools/embed.sh mt_cpu_rt_header < src/mt_cpu_rt.h > $@
# The run-time support pasted into generated AOT files (issue 13).
$(B)/obj/aot.o $(B)/asan/aot.o: src/mt_aot_rt_h.inc
src/mt_aot_rt_h.inc: src/mt_aot_rt.h tools/embed.sh
	sh tools/embed.sh mt_aot_rt_header < src/mt_aot_rt.h > $@

$(B)/libmytriton.a: $(OBJ)
	@mkdir -p $(B)
	rm -f $@
	ar rcs $@ $(OBJ)

$(B)/libmytriton.so: $(OBJ)
	$(CC) -shared -o $@ $(OBJ) $(LDLIBS)

$(B)/mytriton: cli/main.c $(B)/libmytriton.a include/mytriton.h
	$(CC) $(ALLCFLAGS) -o $@ cli/main.c $(B)/libmytriton.a $(LDLIBS)

$(B)/mytriton-asan: cli/main.c $(ASAN_OBJ) include/mytriton.h
	$(CC) $(ALLCFLAGS) -O1 $(SANFLAGS) -o $@ cli/main.c $(ASAN_OBJ) $(LDLIBS)

ifneq ($(PYINC),)
ifneq ($(wildcard $(PYINC)/Python.h),)
python-ext: $(PYMOD)
else
python-ext:
	@echo "note: no Python headers; the Python extension is not built"
endif
else
python-ext:
endif

# The extension's files: the module, one call's arguments, the JIT launch.
PYSRC = python/mtmodule.c python/mtargs.c python/mtarrays.c python/mtjit.c
# Linked to a temporary name and renamed: a Python process that has the
# old extension mapped must never see the file rewritten under it.
$(PYMOD): $(PYSRC) python/mtmodule.h $(OBJ) include/mytriton.h
	$(CC) $(ALLCFLAGS) -I$(PYINC) -shared -o $@.$$$$.tmp $(PYSRC) $(OBJ) $(LDLIBS) \
	  && mv -f $@.$$$$.tmp $@

# ---- tests ----

$(B)/tests/%: tests/unit/%.c $(B)/libmytriton.a $(HDR) tests/unit/ctx_fixture.h tests/unit/host_fixture.h
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -Isrc -o $@ $< $(B)/libmytriton.a -lcmocka $(LDLIBS)

$(B)/tests-asan/%: tests/unit/%.c $(ASAN_OBJ) $(HDR) tests/unit/ctx_fixture.h tests/unit/host_fixture.h
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -O1 $(SANFLAGS) -Isrc -o $@ $< $(ASAN_OBJ) -lcmocka $(LDLIBS)

# test_kernel_rt includes the conversions header and reads Triton's record.
$(B)/tests/test_kernel_rt $(B)/tests-asan/test_kernel_rt: src/mt_kernel_rt.h tests/unit/data/triton_casts.json
# test_random includes the runtime's Philox (tlrandom.c).
$(B)/tests/test_random $(B)/tests-asan/test_random: src/mt_kernel_rt.h
# test_int_rt checks the runtime's integer // % << >> against Triton's record (issue 15).
$(B)/tests/test_int_rt $(B)/tests-asan/test_int_rt: src/mt_kernel_rt.h tests/unit/data/triton_int_edges.txt
# test_libdevice_rt checks the host bodies of libdevice's functions.
$(B)/tests/test_libdevice_rt $(B)/tests-asan/test_libdevice_rt: src/mt_kernel_rt.h src/mt_libdevice_rt.h

test-unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $$t; done

# test_cuda and test_kernel_rt load host-kernel objects with thread_local
# state; LeakSanitizer's exit-time scan of their dynamic TLS crashes (a
# sanitizer limitation with glibc 2.36, "Tracer caught signal 11"), so those
# binaries run with ASan+UBSan but without the leak check; the others keep it.
test-asan: $(UNIT_ASAN) $(B)/mytriton-asan
	@set -e; for t in $(UNIT_ASAN); do echo "== $$t (asan)"; \
	  case $$t in *test_cuda|*test_kernel_rt) ASAN_OPTIONS=detect_leaks=0 $$t;; *) $$t;; esac; done
	MYTRITON_CLI=$(CURDIR)/$(B)/mytriton-asan FILECHECK=$(FILECHECK) $(LIT) -q tests/lit

test-lit: $(B)/mytriton
	MYTRITON_CLI=$(CURDIR)/$(B)/mytriton FILECHECK=$(FILECHECK) $(LIT) -sv tests/lit

# The suite with CPU launches on the fiber backend (the very CUDA C a GPU
# runs, each CUDA thread a fiber), then on the cpu backend, CPU tensors'
# default (issue 18; conftest.py names the fiber-only tests).
test-py: all
	MYTRITON_BACKEND=fiber PYTHONPATH=$(CURDIR)/python $(PYTHON) -m pytest -q tests/py
test-py-cpu: all
	MYTRITON_BACKEND=cpu PYTHONPATH=$(CURDIR)/python $(PYTHON) -m pytest -q tests/py

test-examples: $(B)/examples-built
	sh examples/run.sh $(B)

$(B)/examples-built: $(B)/libmytriton.a $(wildcard examples/*.c)
	@mkdir -p $(B)/examples
	@for f in $(wildcard examples/*.c); do \
	  $(CC) $(ALLCFLAGS) -o $(B)/examples/$$(basename $$f .c) $$f $(B)/libmytriton.a $(LDLIBS) || exit 1; done
	@touch $@

test: all test-unit test-lit test-asan test-py test-py-cpu test-ubsan-host test-mlir
	@echo "make test: all suites passed"

# The generated host kernels under UBSan (issue 15): the differential
# corpus, the integer-semantics tests and checked mode with kernels built
# -fsanitize=undefined (MYTRITON_HOST_SANITIZE, src/host.c); the first
# report stops the run.
test-ubsan-host: all
	MYTRITON_HOST_SANITIZE=undefined PYTHONPATH=$(CURDIR)/python $(PYTHON) -m pytest -q \
	  tests/py/test_diff_corpus.py tests/py/test_int_semantics.py tests/py/test_checked_mode.py
	MYTRITON_BACKEND=cpu MYTRITON_HOST_SANITIZE=undefined PYTHONPATH=$(CURDIR)/python \
	  $(PYTHON) -m pytest -q tests/py/test_diff_corpus.py tests/py/test_int_semantics.py

# The MLIR backend (issue 12) over every lit kernel: each module it
# accepts passes mlir-opt --verify-each and lowers to PTX; the others are
# refused with a located error.
MLIR_OPT ?= /usr/lib/llvm-19/bin/mlir-opt
export MLIR_OPT
test-mlir: $(B)/mytriton
	$(PYTHON) tools/mlir_corpus.py $(B) $(MLIR_OPT)

# PTX of the GPU check's MLIR kernels (tests/gpu/test_mlir_gpu.py), lowered
# here into build/mlir-cache: the GPU machine has no MLIR tools, the
# backend finds the PTX in this cache (tests/gpu/mlir_check.sh).
mlir-ptx-cache: all
	rm -rf $(B)/mlir-cache
	MYTRITON_CACHE_DIR=$(CURDIR)/$(B)/mlir-cache PYTHONPATH=$(CURDIR)/python \
	  $(PYTHON) tests/gpu/test_mlir_gpu.py --fill && \
	MYTRITON_CACHE_DIR=$(CURDIR)/$(B)/mlir-cache PYTHONPATH=$(CURDIR)/python \
	  $(PYTHON) -m mytriton.run bench/mlir_bench.py --compile-only

# Runs the example kernels (GPU when present, host backend otherwise).
run: all $(B)/examples-built
	sh examples/run.sh $(B)

# Runs every test on the GPU machine (CUDA tensors as well as host).
test-gpu: all
	MYTRITON_REQUIRE_CUDA=1 PYTHONPATH=$(CURDIR)/python $(PYTHON) -m pytest -q tests/py

# ---- install and ahead-of-time C files (issue 13) ----
# make install PREFIX=/usr/local [DESTDIR=...]: the libraries, the header,
# the CLI and lib/pkgconfig/mytriton.pc.
PREFIX ?= /usr/local
MT_VERSION = 0.$(shell sed -n 's/^\#define MT_API_VERSION \([0-9]*\)/\1/p' include/mytriton.h)
install: $(B)/libmytriton.a $(B)/libmytriton.so $(B)/mytriton mytriton.pc.in
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(B)/libmytriton.a $(DESTDIR)$(PREFIX)/lib/libmytriton.a
	install -m 755 $(B)/libmytriton.so $(DESTDIR)$(PREFIX)/lib/libmytriton.so
	install -m 644 include/mytriton.h $(DESTDIR)$(PREFIX)/include/mytriton.h
	install -m 755 $(B)/mytriton $(DESTDIR)$(PREFIX)/bin/mytriton
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(MT_VERSION)|' mytriton.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/mytriton.pc

# Installs into a temporary prefix, builds examples/aot both ways (JIT
# through pkg-config; AOT GPU files with cc -Werror alone, not run; AOT
# host files, run against C references), then the dispatcher test.
test-aot: all
	@t=$$(mktemp -d "$${TMPDIR:-/tmp}/mytriton-aot-XXXXXX") && \
	  $(MAKE) -s install PREFIX=$$t/prefix && sh tests/aot/run.sh $$t; \
	  rc=$$?; rm -rf $$t; exit $$rc

test: test-aot

# ---- fuzzing (clang libFuzzer) ----
FUZZ_SECONDS ?= 60
$(B)/fuzz_frontend: tests/fuzz/fuzz_frontend.c $(SRC) $(HDR) src/mt_host_h.inc src/mt_kernel_rt_h.inc src/mt_cpu_rt_h.inc src/mt_aot_rt_h.inc
	@mkdir -p $(B)
	clang $(WARN) -g -O1 -fPIC -D_GNU_SOURCE -Iinclude -Isrc -fsanitize=fuzzer,address,undefined \
	  -o $@ tests/fuzz/fuzz_frontend.c $(SRC) $(LDLIBS)

$(B)/fuzz_compiler: tests/fuzz/fuzz_compiler.c tests/fuzz/fuzz_util.h $(SRC) $(HDR) src/mt_host_h.inc src/mt_kernel_rt_h.inc src/mt_cpu_rt_h.inc src/mt_aot_rt_h.inc
	@mkdir -p $(B)
	clang $(WARN) -g -O1 -fPIC -D_GNU_SOURCE -Iinclude -Isrc -fsanitize=fuzzer,address,undefined \
	  -o $@ tests/fuzz/fuzz_compiler.c $(SRC) $(LDLIBS)

$(B)/fuzz_irparse: tests/fuzz/fuzz_irparse.c $(SRC) $(HDR) src/mt_host_h.inc src/mt_kernel_rt_h.inc src/mt_cpu_rt_h.inc src/mt_aot_rt_h.inc
	@mkdir -p $(B)
	clang $(WARN) -g -O1 -fPIC -D_GNU_SOURCE -Iinclude -Isrc -fsanitize=fuzzer,address,undefined \
	  -o $@ tests/fuzz/fuzz_irparse.c $(SRC) $(LDLIBS)

$(B)/fuzz_deep: tests/fuzz/fuzz_deep.c tests/fuzz/fuzz_util.h $(SRC) $(HDR) src/mt_host_h.inc src/mt_kernel_rt_h.inc src/mt_cpu_rt_h.inc
	@mkdir -p $(B)
	clang $(WARN) -g -O1 -fPIC -D_GNU_SOURCE -Iinclude -Isrc -fsanitize=fuzzer,address,undefined \
	  -o $@ tests/fuzz/fuzz_deep.c $(SRC) $(LDLIBS)

# Deep and long structures (issue 15): every shape at its largest size
# (the seeds, run first), then FUZZ_DEEP_SECONDS of mutations from a fresh
# corpus; `make test` gives it 90 s in all (the seeds take about 40 s on
# two cores, under ASan), `make fuzz-deep` FUZZ_DEEP_SECONDS.
FUZZ_DEEP_SECONDS ?= 120
fuzz-deep: $(B)/fuzz_deep
	@rm -rf $(B)/fuzz-corpus-deep && mkdir -p $(B)/fuzz-corpus-deep
	$(B)/fuzz_deep -max_total_time=$(FUZZ_DEEP_SECONDS) -max_len=64 -len_control=0 -timeout=120 \
	  -rss_limit_mb=4096 -print_final_stats=1 $(B)/fuzz-corpus-deep tests/fuzz/deep
test-fuzz-deep:
	$(MAKE) fuzz-deep FUZZ_DEEP_SECONDS=90
test: test-fuzz-deep

# Host launches on one context from many threads under ThreadSanitizer
# (tests/tsan/tsan_launch.c); part of `make test`.
$(B)/tsan_launch: tests/tsan/tsan_launch.c $(SRC) $(HDR) src/mt_host_h.inc src/mt_kernel_rt_h.inc src/mt_cpu_rt_h.inc
	@mkdir -p $(B)
	clang -std=c11 -g -O1 -D_GNU_SOURCE -Iinclude -Isrc -fsanitize=thread \
	  -o $@ tests/tsan/tsan_launch.c $(SRC) $(LDLIBS)
test-tsan: $(B)/tsan_launch
	TSAN_OPTIONS=halt_on_error=1 setarch -R $(B)/tsan_launch
test: test-tsan

# Three targets: the front end alone (fast, deep), the whole compiler
# through the public API, and the IR reader (seeded with tests/opt); each
# runs FUZZ_SECONDS on its own corpus copy.
fuzz: $(B)/fuzz_frontend $(B)/fuzz_compiler $(B)/fuzz_irparse
	@mkdir -p $(B)/fuzz-corpus $(B)/fuzz-corpus-compiler $(B)/fuzz-corpus-ir
	$(B)/fuzz_frontend -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(B)/fuzz-corpus tests/fuzz/corpus
	$(B)/fuzz_compiler -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -detect_leaks=1 $(B)/fuzz-corpus-compiler tests/fuzz/corpus
	$(B)/fuzz_irparse -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(B)/fuzz-corpus-ir tests/opt

# ---- textual IR: mt-opt and whole-text goldens ----
# tests/opt/*.ir: a pass on IR text, expected output in the .out beside it;
# tests/golden/cuda/*.test: `mytriton compile --emit cuda` of a kernel in
# tests/golden/cuda/kernels, expected .cu beside it.
# Each file names its command in a "RUN:" comment (tools/golden.sh);
# `make bless` rewrites the expected files after a reviewed change.
all: $(B)/mt-opt

$(B)/mt-opt: tools/mt_opt.c $(B)/libmytriton.a $(HDR)
	$(CC) $(ALLCFLAGS) -Isrc -o $@ tools/mt_opt.c $(B)/libmytriton.a $(LDLIBS)

test: test-opt test-golden

test-opt: $(B)/mt-opt
	sh tools/golden.sh check $(B) .out tests/opt/*.ir

test-golden: $(B)/mytriton
	sh tools/golden.sh check $(B) .cu tests/golden/cuda/*.test

bless: $(B)/mt-opt $(B)/mytriton
	sh tools/golden.sh bless $(B) .out tests/opt/*.ir
	sh tools/golden.sh bless $(B) .cu tests/golden/cuda/*.test

# ---- conformance: Triton's own test_core.py on the host backend ----
# make conformance TRITON_TESTS=path/to/test_core.py [SAMPLE=10]
# (tools/conformance/run.py tests OUT.py writes it out of a fetched Triton;
# Triton's code is never committed).  The anchors beside our counts are
# Triton's own results, recorded by run.py on Triton's interpreter here and
# on a GPU, kept in tools/conformance/results/.
SAMPLE ?= 10
CONF_OUT = $(B)/conformance
conformance: all
	@test -n "$(TRITON_TESTS)" || { echo "usage: make conformance TRITON_TESTS=path/to/test_core.py [SAMPLE=10]"; exit 2; }
	@mkdir -p $(CONF_OUT)
	$(PYTHON) tools/conformance/run.py run --tests $(TRITON_TESTS) --impl mytriton --device cpu \
	  --sample $(SAMPLE) --timeout 60 --out $(CONF_OUT)/mytriton-host.jsonl
	$(PYTHON) tools/conformance/run.py report --sample $(SAMPLE) \
	  mytriton-host=$(CONF_OUT)/mytriton-host.jsonl \
	  $(foreach r,$(wildcard tools/conformance/results/*.jsonl),$(basename $(notdir $(r)))=$(r)) \
	  > CONFORMANCE.md
	@echo "wrote CONFORMANCE.md"

clean:
	rm -rf $(B) src/mt_host_h.inc src/mt_kernel_rt_h.inc src/mt_cpu_rt_h.inc src/mt_aot_rt_h.inc $(PYMOD)

.PHONY: conformance all test test-unit test-asan test-lit test-py test-py-cpu test-examples run test-gpu fuzz clean python-ext test-ubsan-host fuzz-deep test-fuzz-deep test-tsan \
        test-opt test-golden bless install test-aot test-mlir mlir-ptx-cache
