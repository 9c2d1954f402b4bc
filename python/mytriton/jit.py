"""@mytriton.jit: the Python half of a JIT function.

The launch path (``kernel[grid](*args, **kw)``: binding, the specialization
key, the cache lookup, marshalling, the launch) is C, in
``mytriton._C.JITFunction``, which this class extends.  Python runs only on
a cache miss (``_compile_miss``): it gathers the kernel's module source,
the constant globals the kernel and its helpers read, and the signature
string, and calls ``_C.compile``.
"""

from __future__ import annotations

import collections
import functools
import inspect
import os
import re
import textwrap
import types
import typing
from collections.abc import Mapping
from typing import Any, Callable, Iterator

from . import _C
from . import language as tl

__all__ = ["JITFunction", "CompiledKernel", "jit"]

# Printable stages, named by the library (mt_stage_name); cubin is binary,
# fetched by name but not listed.
_STAGES = tuple(s for s in _C.STAGES if s not in ("cubin", "mlir", "cpu"))
# what a kernel only the cpu backend runs lacks: asking for one raises the
# CUDA lowering's refusal
_CUDA_STAGES = ("ssa-layout", "cuda", "ptx")


def _dtype_annotation(ann: Any):
    """The tl dtype a parameter is annotated with (tl.int64, "tl.float64"),
    or None."""
    if isinstance(ann, str):
        ann = getattr(tl, ann.replace(" ", "").split(".")[-1], None)
    return ann if isinstance(ann, tl.dtype) else None


def _sig_of(dt) -> str:
    """A scalar dtype's signature spelling: int64 -> i64, uint8 -> u8."""
    n = dt.name
    if n.startswith("uint"):
        return "u" + n[4:]
    return "i" + n[3:] if n.startswith("int") else n


def _is_constexpr_annotation(ann: Any) -> bool:
    if ann is tl.constexpr:
        return True
    if isinstance(ann, str):
        return ann.replace(" ", "").split("[")[0].split(".")[-1] == "constexpr" or (
            ann.startswith("Annotated[") and "constexpr" in ann)
    if typing.get_origin(ann) is typing.Annotated:
        return any(m is tl.constexpr for m in getattr(ann, "__metadata__", ()))
    return False


def _literal(value: Any, name: str) -> str:
    """A constexpr/global value in signature syntax."""
    while isinstance(value, tl.constexpr):
        value = value.value
    if value is True or value is False:
        return "True" if value else "False"
    if value is None:
        return "None"
    if isinstance(value, tl.dtype):  # spelled as in kernels: tl.float16
        return "tl." + tl.spelling_of(value)
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return repr(float(value))
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if type(value).__module__ == "numpy" and hasattr(value, "__index__"):  # np.int32(8)
        return str(value.__index__())
    if isinstance(value, tuple):  # a shape: tl.reshape(x, out_tuple)
        items = [_literal(v, name) for v in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    raise TypeError(f"{name}: constexpr value must be bool, int, float, str, a tl.dtype or a "
                    f"tuple of them, got {type(value).__name__}")


def _code_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names) | set(code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _env(fn: Callable) -> dict[str, Any]:
    """Names visible to fn: its globals, then its closure (which wins)."""
    env = dict(fn.__globals__)
    if fn.__closure__:
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__):
            try:
                env[name] = cell.cell_contents
            except ValueError:
                pass
    return env


def _mock_tensor(arg: Any) -> Any:
    """A torch dtype given for a tensor argument: an empty tensor of that
    dtype on the active device (its data pointer is 0, aligned)."""
    if type(arg).__name__ == "dtype" and type(arg).__module__ == "torch":
        import torch
        from .runtime import driver
        return torch.empty(0, dtype=arg, device=driver.active.get_active_torch_device())
    return arg


def _dedented_source(fn: Callable, pad_lines: bool) -> str:
    try:
        lines, start = inspect.getsourcelines(fn)
    except (OSError, TypeError) as e:
        raise RuntimeError(
            f"cannot get the source of kernel '{fn.__name__}': {e}; "
            "@mytriton.jit kernels must be defined in a file") from None
    text = textwrap.dedent("".join(lines))
    return ("\n" * (start - 1) if pad_lines else "") + text


class _Asm(Mapping):
    """Printed stages of a compiled kernel, fetched on first access (PTX
    needs NVRTC and raises when it is missing)."""

    def __init__(self, kernel: Any) -> None:
        self._kernel = kernel
        self._texts: dict[str, Any] = {}

    def _stages(self) -> tuple:
        # the MLIR module exists for the MLIR backend only (issue 12)
        if self._kernel.backend == "mlir":
            return _STAGES + ("mlir",)
        if self._kernel.backend == "cpu":  # its C (issue 18)
            if not self._has_cuda():  # a kernel only the cpu backend runs
                return tuple(s for s in _STAGES if s not in _CUDA_STAGES) + ("cpu",)
            return _STAGES + ("cpu",)
        return _STAGES

    def _has_cuda(self) -> bool:
        if "cuda" not in self._texts:
            try:
                self._texts["cuda"] = self._kernel.stage("cuda")
            except _C.CompilationError:
                return False
        return True

    def __getitem__(self, stage: str) -> Any:
        if stage not in self._texts:
            if stage not in _C.STAGES or (stage not in self._stages() and
                                          stage not in _CUDA_STAGES):
                raise KeyError(stage)
            self._texts[stage] = self._kernel.stage(stage)
        return self._texts[stage]

    def __iter__(self) -> Iterator[str]:
        return iter(self._stages())

    def __contains__(self, stage: object) -> bool:
        return stage in self._stages()

    def __len__(self) -> int:
        return len(self._stages())

    def __repr__(self) -> str:
        return f"<asm of kernel '{self._kernel.name}': {', '.join(self._stages())}>"


KernelMetadata = collections.namedtuple(
    "KernelMetadata", ["name", "num_warps", "num_ctas", "shared", "target", "signature"])
_SpecializationProxy = collections.namedtuple("SpecializationProxy", ["constants", "signature"])


# registers per thread the host backend reports: it has none, and a kernel's
# occupancy arithmetic (NUM_REGS // (n_regs * ...)) must not divide by zero
_HOST_NOMINAL_REGS = 32


class CompiledKernel(_C.Kernel):
    """One specialization, as Triton's CompiledKernel presents it: the
    object a launch, ``kernel.run`` and ``kernel.warmup`` return.

    ``.asm`` (the stages by name), ``.metadata`` (name, num_warps,
    num_ctas, shared: the static shared memory of the plan in bytes,
    target, signature), ``.n_regs`` / ``.n_spills`` / ``.n_max_threads``
    (on CUDA what the driver reports for the loaded code, spills in 4-byte
    words as Triton counts them; on the host, which has no register file, a
    nominal 32 registers, 0 spills and 1024 threads, so that occupancy
    arithmetic written for GPUs, tutorial 02's, runs), ``kernel[grid](*args)`` to launch it again with every
    kernel argument in order (constexprs included, as Triton's launcher
    takes them).  Made by the extension (``_C.compile(cls=...)``), never
    by hand."""

    @property
    def asm(self) -> "_Asm":
        a = self.__dict__.get("_asm")
        if a is None:
            a = self.__dict__["_asm"] = _Asm(self)
        return a

    @property
    def kernel(self) -> "CompiledKernel":  # the handle itself (older mytriton API)
        return self

    @property
    def name(self) -> str:
        """The kernel's name: what @jit(repr=...) gave for this
        specialisation (as Triton names the compiled function), else the
        function's.  (The CUDA symbol keeps the function's name.)"""
        return self.__dict__.get("_repr_name") or _C.Kernel.name.__get__(self)

    @property
    def metadata(self) -> KernelMetadata:
        """Built once: tutorial 02 reads it on every call, and the target
        query (the device's capability) costs microseconds each time."""
        md = self.__dict__.get("_metadata")
        if md is None:
            from .runtime import driver
            if self.backend in ("cuda", "mlir"):
                target = driver.active.get_current_target()
            else:
                target = driver.GPUTarget("cpu", "host", 32)
            md = KernelMetadata(self.name, self.num_warps, 1, self.shared, target, self.signature)
            self.__dict__["_metadata"] = md
        return md

    def _init_handles(self) -> None:
        """Loads the code (on CUDA, in the current context) and reads its
        register and local-memory use, once."""
        if "_usage" not in self.__dict__:
            self.__dict__["_usage"] = self.usage()

    @property
    def n_regs(self) -> int:
        self._init_handles()
        if self.backend not in ("cuda", "mlir"):
            return _HOST_NOMINAL_REGS
        return self.__dict__["_usage"][0]

    @property
    def n_spills(self) -> int:
        self._init_handles()
        return self.__dict__["_usage"][1] // 4

    @property
    def n_max_threads(self) -> int:
        self._init_handles()
        return self.__dict__["_usage"][2]

    def __getitem__(self, grid: Any) -> Callable[..., None]:
        """``compiled[grid](*args)``: a launch with the kernel's arguments,
        through the JIT function it came from (so the arguments are
        checked and, should their specialization differ from this one's,
        the matching one runs)."""
        jit_fn = self.__dict__.get("_jit")
        if jit_fn is None:
            raise RuntimeError(f"kernel '{self.name}' was compiled outside a JIT function "
                               "and cannot be launched by grid")

        def runner(*args: Any, stream: Any = None) -> None:
            if stream is not None:
                raise NotImplementedError(
                    "launching on a given stream is not supported: mytriton launches on "
                    "torch's current CUDA stream")
            jit_fn._run(grid, args, {"num_warps": self.num_warps})
        return runner

    def __repr__(self) -> str:
        return (f"<CompiledKernel '{self.name}' backend={self.backend} "
                f"num_warps={self.num_warps} shared={self.shared}>")


def _gpu_backend() -> str:
    """MYTRITON_BACKEND (issue 12), read at each compile: "cuda" (the
    default) or "mlir" for CUDA tensors.  The JIT cache keys by arguments,
    so a kernel already compiled for them keeps its backend (clear
    ``kernel.cache`` after switching)."""
    name = os.environ.get("MYTRITON_BACKEND", "cuda") or "cuda"
    if name in ("cpu", "host", "fiber"):  # the CPU tensors' choice (issue 18)
        return "cuda"
    if name not in ("cuda", "mlir"):
        raise ValueError(f"unsupported backend '{name}'; expected 'cuda' or 'mlir'")
    return name


class JITFunction(_C.JITFunction):
    """A kernel: ``kernel[grid](*args, **kwargs)`` launches it."""

    def __init__(self, fn: Callable, **options: Any) -> None:
        if not inspect.isfunction(fn):
            raise TypeError(f"@jit expects a function, got {type(fn).__name__}")
        sig = inspect.signature(fn)
        names, flags, defaults = [], [], []
        for p in sig.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(f"{fn.__name__}: *args and **kwargs parameters are not "
                                "supported in kernels")
            names.append(p.name)
            flags.append(_is_constexpr_annotation(p.annotation))
            defaults.append(p.default)
        self._setup(fn, tuple(names), tuple(flags), tuple(defaults), inspect.Parameter.empty)
        self.fn = fn
        self.arg_names = names
        self.constexprs = [i for i, f in enumerate(flags) if f]
        # `k: tl.int64` types a runtime parameter whatever its value
        self.annotated = {i: d for i, p in enumerate(sig.parameters.values())
                          if not flags[i] and (d := _dtype_annotation(p.annotation))}
        self.options = options
        # Triton's debug mode: a launch's debug=, else this, or TRITON_DEBUG
        self.debug = options.get("debug")
        self._debug = bool(self.debug)
        # noinline=True: Triton calls the helper as a function, which
        # computes what inlining it does; mytriton inlines every helper
        self.noinline = options.get("noinline")
        self._repr = options.get("repr")
        self.do_not_specialize = options.get("do_not_specialize", ())
        self.last_compiled: CompiledKernel | None = None
        self._source_cache: tuple[str, str] | None = None
        self._src_override: str | None = None
        self._override_names: set[str] = set()
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            f"'{self.__name__}' is a @mytriton.jit kernel: launch it with "
            f"{self.__name__}[grid](...); it cannot be called from Python directly")

    def __repr__(self) -> str:
        return f"JITFunction({self.fn.__module__}:{self.fn.__qualname__})"

    # ---- source, helpers, globals -------------------------------------

    def _names(self) -> set[str]:
        """Global names the kernel's code reads (its replaced source's, after
        _unsafe_update_src)."""
        return _code_names(self.fn.__code__) | self._override_names

    def _helpers(self) -> list["JITFunction"]:
        """@jit functions this kernel reaches by name, transitively."""
        seen: dict[int, JITFunction] = {}
        todo: list[JITFunction] = [self]
        while todo:
            f = todo.pop()
            env = _env(f.fn)
            for name in f._names():
                v = env.get(name)
                if isinstance(v, JITFunction) and v is not self and id(v) not in seen:
                    seen[id(v)] = v
                    todo.append(v)
        return list(seen.values())

    @staticmethod
    def _top_level_in_file(fn: Callable) -> str | None:
        file = inspect.getsourcefile(fn)
        if file and os.path.isfile(file) and fn.__qualname__ == fn.__name__:
            return file
        return None

    def _source(self) -> tuple[str, str]:
        """(source text, filename) given to the C front end."""
        if self._source_cache is not None:
            return self._source_cache
        file = None if self._src_override is not None else self._top_level_in_file(self.fn)
        if file is not None:
            with open(file, encoding="utf-8") as fh:
                text = fh.read()
            filename = file
            parts = [text]
        else:
            filename = (inspect.getsourcefile(self.fn) or inspect.getfile(self.fn)
                        or "<kernel>")
            if self._src_override is not None:
                parts = ["\n" * (self._def_line() - 1) + self._src_override]
            else:
                parts = [_dedented_source(self.fn, pad_lines=True)]
        for helper in self._helpers():
            hfile = self._top_level_in_file(helper.fn)
            if file is not None and hfile == file:
                continue  # the whole module is already there
            parts.append(_dedented_source(helper.fn, pad_lines=False))
        # Functions given by their own source (nested, or from another
        # module) lose their module's imports: restate the module aliases
        # they use (`import mytriton.language as mtl`) after the code, so
        # line numbers stay those of the real file.
        aliases: dict[str, str] = {}
        for f in [self, *self._helpers()]:
            if file is not None and self._top_level_in_file(f.fn) == file:
                continue
            env = _env(f.fn)
            for name in sorted(f._names()):
                v = env.get(name)
                if inspect.ismodule(v) and name not in aliases:
                    aliases[name] = f"import {v.__name__} as {name}"
        parts.extend(aliases.values())
        self._source_cache = ("\n".join(p if p.endswith("\n") else p + "\n" for p in parts),
                              filename)
        return self._source_cache

    def _globals(self) -> list[tuple[str, str]]:
        """Constant globals (int/float/bool/str or tl.constexpr) read by the
        kernel and its helpers, as (name, literal) pairs."""
        out: dict[str, str] = {}
        for f in [self, *self._helpers()]:
            env = _env(f.fn)
            for name in sorted(f._names()):
                if name in out or name not in env or name in f.arg_names:
                    continue
                v = env[name]
                if isinstance(v, tl.constexpr):
                    v = v.value
                if isinstance(v, (bool, int, float, str)):
                    out[name] = _literal(v, name)
        return list(out.items())

    def signature(self, bound: tuple, kinds: tuple) -> str:
        return ", ".join(self._signature_entries(bound, kinds))

    def _signature_entries(self, bound: tuple, kinds: tuple) -> list[str]:
        entries = []
        for i, (name, value, kind) in enumerate(zip(self.arg_names, bound, kinds)):
            if kind == 0:  # a constexpr
                entries.append(_literal(value, name))
            else:  # the key's argument class, spelled by the extension
                spelled = _C.ARG_SIGNATURES[kind & _C.ARG_CLASS_MASK]
                if kind & _C.ARG_DESC == _C.ARG_DESC:  # "tensordesc<fp16[64, 64]>"
                    block = ", ".join(str(int(b)) for b in value.block_shape)
                    pad = ",nan" if value.padding == "nan" else ""
                    entries.append(f"{spelled}[{block}]{pad}>")
                    continue
                if i in self.annotated and not spelled.startswith("*"):
                    ann = self.annotated[i]
                    if spelled == "fp32" and not ann.is_floating():  # a float for `n: tl.int64`
                        raise TypeError(f"{self.fn.__name__}(): argument '{name}' is annotated "
                                        f"{ann.name}, got the float {value!r}")
                    spelled = _sig_of(ann)
                entries.append(spelled)
        return entries

    def repr(self, specialization: Any) -> str:
        """The compiled kernel's name (Triton's JITFunction.repr): @jit(repr=f)
        gives f(specialization), else the function's name."""
        return self.fn.__name__ if self._repr is None else self._repr(specialization)

    def _specialization(self, bound: tuple, kinds: tuple) -> Any:
        """What Triton hands repr=: the constexpr values (an integer
        argument equal to 1 among them) and every parameter's type ("i32",
        "*fp32", "constexpr") by name."""
        constants, signature = {}, {}
        for name, value, kind, entry in zip(self.arg_names, bound, kinds,
                                            self._signature_entries(bound, kinds)):
            if kind == 0:
                constants[name] = value.value if isinstance(value, tl.constexpr) else value
                signature[name] = "constexpr"
            elif entry.endswith(":1") and not entry.startswith("*"):
                constants[name] = 1  # Triton specialises an integer 1 as a constant
                signature[name] = "constexpr"
            else:
                signature[name] = entry.split(":")[0]
        return _SpecializationProxy(constants, signature)

    # ---- called from C on a cache miss --------------------------------

    def _compile_miss(self, bound: tuple, kinds: tuple, num_warps: int, backend: str,
                      device: int, stages_only: int, debug: int = 0,
                      num_stages: int = 0, checked: int = 0, fp_fusion: int = 1) -> Any:
        source, filename = self._source()
        signature = self.signature(bound, kinds)
        if backend == "cuda":
            backend = _gpu_backend()
        globs = self._globals()
        # for the architecture of the tensors' device, whatever device is
        # current; the host backend runs the CUDA C a GPU of
        # MYTRITON_HOST_ARCH gets (testing sm_90's tiles on the CPU)
        k = _C.compile(source, filename, self.fn.__name__, signature, globs, num_warps, backend,
                       bool(stages_only), CompiledKernel, bool(debug), num_stages,
                       (os.environ.get("MYTRITON_HOST_ARCH") or None) if backend in ("host", "cpu")
                       else None, device if backend in ("cuda", "mlir") else -1,
                       checked=bool(checked),
                       fp32_default=os.environ.get("TRITON_F32_DEFAULT") or None,
                       fp_fusion=bool(fp_fusion))
        k.__dict__["_jit"] = self
        if self._repr is not None:
            name = str(self.repr(self._specialization(bound, kinds)))
            # compiled Triton makes the name the kernel's symbol
            if not name.isidentifier():
                raise _C.CompilationError(f"invalid function identifier: {name}")
            k.__dict__["_repr_name"] = name
        self.last_compiled = k
        return k

    # ---- inspection ----------------------------------------------------

    def warmup(self, *args: Any, grid: Any = None, **kwargs: Any) -> CompiledKernel:
        """Compiles (or finds) the specialization for these arguments
        without launching; a torch dtype in place of a tensor stands for a
        tensor of that dtype (Triton's MockTensor) on the active device."""
        args = tuple(_mock_tensor(a) for a in args)
        return self._specialize(args, kwargs, False)

    def compile(self, *args: Any, stages_only: bool = False, **kwargs: Any) -> CompiledKernel:
        """Like warmup; ``stages_only=True`` stops after the CUDA C text (no
        host compiler, no NVRTC: printable, not launchable, not cached)."""
        return self._specialize(args, kwargs, stages_only)

    def run(self, *args: Any, grid: Any, warmup: bool = False, **kwargs: Any) -> CompiledKernel:
        """``kernel.run(*args, grid=grid, **kw)`` is ``kernel[grid](*args,
        **kw)``; with ``warmup=True`` it only compiles, as warmup does.
        Returns the compiled kernel."""
        if warmup:
            return self.warmup(*args, grid=grid, **kwargs)
        return self._run(grid, args, kwargs)

    # ---- Triton's JITFunction surface ----------------------------------

    def _def_line(self) -> int:
        """Line of the `def` in the kernel's file (after its decorators)."""
        lines, start = inspect.getsourcelines(self.fn)
        for i, line in enumerate(lines):
            if line.lstrip().startswith(("def ", "async def ")):
                return start + i
        return start

    @property
    def src(self) -> str:
        """The kernel's source from its `def` line, dedented (Triton's
        JITFunction.src); the replaced text after _unsafe_update_src."""
        if self._src_override is not None:
            return self._src_override
        text = textwrap.dedent(inspect.getsource(self.fn))
        m = re.search(r"^def\s+\w+\s*\(", text, re.MULTILINE)
        return text[m.start():] if m else text

    def _unsafe_update_src(self, new_src: str) -> None:
        """Compile the kernel from new_src from now on (Triton's test suite
        stamps ops and dtypes into kernel templates this way).  The text
        must define a function of the kernel's name and parameters; the
        compiled specializations of the old text are forgotten."""
        new_src = textwrap.dedent(new_src)
        m = re.search(r"^def\s+(\w+)\s*\(", new_src, re.MULTILINE)
        if not m or m.group(1) != self.fn.__name__:
            raise ValueError(f"_unsafe_update_src: the text must define "
                             f"'def {self.fn.__name__}(...)'")
        code = compile(new_src, inspect.getsourcefile(self.fn) or "<kernel>", "exec")
        # the module-level code binds the function's own name: not a global
        # the kernel reads
        self._override_names = _code_names(code) - {self.fn.__name__}
        self._src_override = new_src[m.start():]
        self._source_cache = None
        self.clear_cache()

    @property
    def cache_key(self) -> str:
        """Changes whenever the text the kernel compiles from changes."""
        import hashlib
        source, filename = self._source()
        return hashlib.sha256(f"{filename}\0{source}".encode()).hexdigest()

    @property
    def params(self) -> list["KernelParam"]:
        return [KernelParam(i, name, i in self.constexprs, name in self.do_not_specialize)
                for i, name in enumerate(self.arg_names)]


class KernelParam:
    """One parameter of a kernel, as Triton describes it."""

    def __init__(self, num: int, name: str, is_constexpr: bool, do_not_specialize: bool):
        self.num, self.name = num, name
        self.is_constexpr, self.do_not_specialize = is_constexpr, do_not_specialize

    def __repr__(self) -> str:
        return f"KernelParam({self.num}, {self.name!r}, constexpr={self.is_constexpr})"


# Triton's @jit options: those mytriton honours, and those whose effect it
# does not have yet (refused when set, so no option is accepted and then
# means something else).
_JIT_OPTIONS = ("version", "repr", "launch_metadata", "do_not_specialize",
                "do_not_specialize_on_alignment", "debug", "noinline")
def _check_jit_options(options: dict) -> None:
    for key in options:
        if key not in _JIT_OPTIONS:
            raise TypeError(f"jit() got an unexpected keyword argument '{key}'")


def jit(fn: Callable | None = None, **options: Any) -> Any:
    """``@jit`` or ``@jit(option=...)`` with Triton's options.  version,
    do_not_specialize and do_not_specialize_on_alignment are accepted
    (they only steer which specialisations are compiled; every one computes
    the same result); debug=True is Triton's debug mode (device assertions
    and integer overflow checks, also a launch's ``debug=`` and
    TRITON_DEBUG=1); a launch's ``checked=True`` (or MYTRITON_CHECKED=1)
    is mytriton's checked mode on the host backend (bounds of every access,
    integer division by zero, i32 overflow of index arithmetic: a
    LaunchError with status MT_ERR_CHECK); noinline=True helpers are inlined (Triton's call
    computes the same); repr= names the compiled kernel (``.name``);
    launch_metadata=fn adds fn(grid, kernel.metadata, args) to the launch
    metadata that knobs.runtime.launch_enter_hook / launch_exit_hook get
    (called only while a hook is set, as in Triton); any other keyword is
    a TypeError that names it."""
    _check_jit_options(options)
    if fn is None:
        return lambda f: JITFunction(f, **options)
    return JITFunction(fn, **options)
