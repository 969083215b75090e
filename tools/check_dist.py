"""Check a built wheel the way a user meets it (run by ``make dist``).

Creates a virtual environment in a temporary folder, installs the wheel there
with every extra (its dependencies come from the package registry), imports
each package it ships and checks that each carries ``py.typed`` among the
installed files. Exits non-zero, naming what is wrong, on the first failure.

Usage: ``python tools/check_dist.py dist/memvet-*.whl``
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import venv
from pathlib import Path

PACKAGES = ("memvet", "memvet_langchain", "memvet_llamaindex", "memvet_mcp")
EXTRAS = "mcp,langchain,llamaindex"

# Run inside the clean environment: import every package, find its marker in
# the files pip recorded, and print the version the metadata carries.
PROBE = """
import importlib, importlib.metadata as md, sys
packages = sys.argv[1:]
files = {str(f).replace("\\\\", "/") for f in md.files("memvet") or ()}
for name in packages:
    importlib.import_module(name)
    if f"{name}/py.typed" not in files:
        sys.exit(f"{name}: no py.typed among the installed files")
import memvet
if memvet.__version__ != md.version("memvet") or memvet.__version__.startswith("0.0.0"):
    sys.exit(f"memvet.__version__ is {memvet.__version__!r}, the metadata says {md.version('memvet')!r}")
print("imported", ", ".join(packages), "with py.typed; version", memvet.__version__)
"""


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not argv[0].endswith(".whl"):
        print("usage: check_dist.py WHEEL", file=sys.stderr)
        return 2
    wheel = Path(argv[0]).resolve()
    with tempfile.TemporaryDirectory(prefix="memvet-dist-") as tmp:
        env_dir = Path(tmp) / "venv"
        venv.create(env_dir, with_pip=True)
        python = env_dir / "bin" / "python"
        subprocess.run([python, "-m", "pip", "install", "--quiet", f"{wheel}[{EXTRAS}]"], check=True)
        # Outside the source tree, so that nothing is imported from the checkout.
        done = subprocess.run([python, "-c", PROBE, *PACKAGES], cwd=tmp)
        if done.returncode:
            return done.returncode
        cli = subprocess.run([python.with_name("memvet"), "--version"], cwd=tmp, capture_output=True, text=True)
        print(cli.stdout.strip())
        return cli.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
