"""Builds mytriton._C from the C sources with setuptools (`pip install .`).

The extension is python/mtmodule.c, mtargs.c, mtarrays.c and mtjit.c (sharing
python/mtmodule.h) linked with every library source in src/.
src/mt_host_h.inc (the host backend's emulation header as a C string)
is generated here exactly as the Makefile does, by running tools/embed.sh
(a Python port of its sed script stands in where no `sh` exists); the file
is rewritten only when its text changes.  Build products go under
build/setuptools so they stay apart from the Makefile's build/ tree."""
import glob
import os
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))


def _embed_in_python(text, name):
    # tools/embed.sh: escape \ and ", wrap each input line as "...\n".
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = ["/* generated from src/mt_host.h by tools/embed.sh; do not edit */",
           f"static const char {name}[] ="]
    for line in lines:
        line = line.replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'    "{line}\\n"')
    out.append("    ;")
    return "\n".join(out) + "\n"


def embed_host_header():
    inc = os.path.join(HERE, "src", "mt_host_h.inc")
    hdr = os.path.join(HERE, "src", "mt_host.h")
    script = os.path.join(HERE, "tools", "embed.sh")
    if not os.path.exists(hdr):
        return
    sh = shutil.which("sh")
    if sh and os.path.exists(script):
        with open(hdr, "rb") as fh:
            text = subprocess.run([sh, script, "mt_host_header"], stdin=fh, check=True,
                                  stdout=subprocess.PIPE).stdout.decode("utf-8")
    else:
        with open(hdr, encoding="utf-8", newline="") as fh:
            text = _embed_in_python(fh.read(), "mt_host_header")
    old = None
    if os.path.exists(inc):
        with open(inc, encoding="utf-8", newline="") as fh:
            old = fh.read()
    if old != text:
        with open(inc, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)


embed_host_header()

sources = sorted(os.path.relpath(p, HERE) for p in glob.glob(os.path.join(HERE, "src", "*.c")))
sources += [os.path.join("python", f) for f in ("mtmodule.c", "mtargs.c", "mtarrays.c", "mtjit.c")]
depends = [os.path.join("include", "mytriton.h"), os.path.join("python", "mtmodule.h"),
           os.path.join("tools", "embed.sh")] + sorted(
    os.path.relpath(p, HERE)
    for pattern in ("*.h", "*.def", "*.inc")
    for p in glob.glob(os.path.join(HERE, "src", pattern)))



class SdistWithHeaders(sdist):
    """An sdist carries the headers, ops.def and tools/embed.sh the build
    needs (setuptools puts only an extension's sources in it)."""

    def make_release_tree(self, base_dir, files):
        extra = [d for d in depends if not d.endswith(".inc") and d not in files]
        super().make_release_tree(base_dir, list(files) + extra)


setup(
    cmdclass={"sdist": SdistWithHeaders},
    ext_modules=[
        Extension(
            "mytriton._C",
            sources=sources,
            depends=depends,
            include_dirs=["include", "src"],
            define_macros=[("_GNU_SOURCE", None)],
            extra_compile_args=["-std=c11", "-O2"],
            libraries=["dl", "pthread", "m"],
        )
    ],
    options={"build": {"build_base": os.path.join("build", "setuptools")}},
)
