"""Real Python files to test parsing rules on, and broken variants of them
(shared by the walk, pruned-outline and outline tests of this folder)."""

from __future__ import annotations

import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FILES = sorted(p for folder in ("core", "tests", "benchmarks") for p in (ROOT / folder).rglob("*.py"))
BREAKERS = [b"(", b")", b"def ", b"class X:\n", b"\n    ", b":", b"'''", b"{", b"x = ", b"@"]


def broken_variant(rng: random.Random) -> bytes:
    """One of this repository's Python files with one to four random cuts or
    insertions of syntax (most variants do not parse)."""
    data = bytearray(rng.choice(FILES).read_bytes())
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(max(1, len(data)))
        if rng.random() < 0.5:
            del data[at : at + rng.randint(1, 60)]
        else:
            data[at:at] = rng.choice(BREAKERS)
    return bytes(data)
