"""python -m mytriton.run script.py [args ...]

Runs a program written for Triton, unmodified, on mytriton: inside it
`import triton` and `import triton.language as tl` resolve to mytriton
(see mytriton.triton_alias).  The script gets the remaining arguments in
sys.argv and runs as __main__, as `python script.py` would run it.
"""
from __future__ import annotations

import os
import runpy
import sys

from .triton_alias import install_as_triton


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    script = argv[0]
    if not os.path.isfile(script):
        print(f"mytriton.run: no such file: {script}", file=sys.stderr)
        return 2
    install_as_triton()
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
