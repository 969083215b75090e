#!/usr/bin/env python
"""Cost of the hasher's normalization rules on the token walk alone.

Parses every file of one language under a folder once, then times the
token walk (:class:`memvet._code._tokens.TokenStream`, no parse, no query)
over all of them with the language's full lexicon and with some rules
switched off, interleaved in one process, best of ``--repeat``. Prints each
variant's best time and its ratio to the walk without the rules::

    python benchmarks/token_walk.py /tmp/sqlalchemy/lib/sqlalchemy/orm
    python benchmarks/token_walk.py /tmp/express/lib --language javascript
    python benchmarks/token_walk.py /tmp/jquery/src --language javascript
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

from memvet._code._languages import parse
from memvet._code._symbols import LEXICONS
from memvet._code._tokens import TokenStream

_SUFFIX = {"python": ".py", "javascript": ".js", "typescript": ".ts"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--language", default="python", choices=sorted(_SUFFIX))
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args(argv)
    files = sorted(args.folder.rglob("*" + _SUFFIX[args.language]))
    if not files:
        print(f"no {args.language} files under {args.folder}", file=sys.stderr)
        return 2
    trees = []
    for path in files:
        data = path.read_bytes()
        trees.append((parse(data, args.language), data))
    full = LEXICONS[args.language]
    variants = {
        "full": full,
        "no quotes/commas": dataclasses.replace(full, literals=frozenset(), literal=None, trailing_comma=None,
                                                key_parents=frozenset(), key=None),
    }
    if full.terminators:
        # JavaScript/TypeScript: the walk as hasher v4 did it (no statement
        # markers, parentheses, keys or template walk of v5).
        variants["v4 rules"] = dataclasses.replace(
            full, statements=frozenset(), terminators=frozenset(), separators={}, no_ops=frozenset(),
            paren_groups=frozenset(), redundant_parens=None, key_parents=frozenset(), key=None,
            atoms=full.atoms | {"template_string"})
    if full.paren_groups:
        variants["no quotes/commas/parens"] = dataclasses.replace(
            variants["no quotes/commas"], paren_groups=frozenset(), redundant_parens=None)
    best = dict.fromkeys(variants, float("inf"))
    for _ in range(args.repeat):
        for name, lexicon in variants.items():
            start = time.perf_counter()
            for tree, data in trees:
                TokenStream(tree, data, lexicon)
            best[name] = min(best[name], time.perf_counter() - start)
    base = best["no quotes/commas"]
    print(f"{len(files)} {args.language} files under {args.folder}, best of {args.repeat}")
    for name, seconds in best.items():
        print(f"  {name:<26} {seconds * 1000:8.1f} ms  {seconds / base:5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
