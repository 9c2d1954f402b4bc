"""Builds mytriton._C from the C sources with setuptools (`pip install .`).

The extension is python/mtmodule.c linked with every library source in
src/.  src/mt_host_h.inc (the host backend's emulation header as a C string)
is generated here by the same transformation as tools/embed.sh when it is
missing, so no shell is needed."""
import glob
import os

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def embed_host_header():
    inc = os.path.join(HERE, "src", "mt_host_h.inc")
    hdr = os.path.join(HERE, "src", "mt_host.h")
    if not os.path.exists(hdr):
        return
    if os.path.exists(inc) and os.path.getmtime(inc) >= os.path.getmtime(hdr):
        return
    out = ["/* generated from src/mt_host.h by tools/embed.sh; do not edit */",
           "static const char mt_host_header[] ="]
    with open(hdr, encoding="utf-8") as fh:
        for line in fh.read().splitlines():
            line = line.replace("\\", "\\\\").replace('"', '\\"')
            out.append(f'    "{line}\\n"')
    out.append("    ;")
    with open(inc, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")


embed_host_header()

sources = sorted(os.path.relpath(p, HERE) for p in glob.glob(os.path.join(HERE, "src", "*.c")))
sources.append(os.path.join("python", "mtmodule.c"))

setup(
    ext_modules=[
        Extension(
            "mytriton._C",
            sources=sources,
            include_dirs=["include", "src"],
            define_macros=[("_GNU_SOURCE", None)],
            extra_compile_args=["-std=c11", "-O2"],
            libraries=["dl", "pthread", "m"],
        )
    ],
)
