"""script: the claim says what a package.json script runs; the script runs another program.

The claim's side: a script named the way people run it (``npm test``,
``npm run test-ci``, ``pnpm build``, ``yarn lint``), then what it runs:
after ``runs``, ``=``, ``is``, ``executes``, ``->``, ``=>`` or ``→``
("`npm test` runs jest over test/", "`npm test` -> tape test/*.js"), up
to the clause's next ``;``, ``(`` or sentence end; or a program the
clause says the tests "run under", "run on" or "run with" ("Tests run
under jest (`npm test` → jest)").

The code's side: the anchored ``package.json``'s ``scripts`` entry of
that name, with the scripts it runs in turn (``pnpm lint``, ``npm run
size``) read into it.

Fires when the claim names a program, a word the manifest declares as a
dependency or one of the common runners and build tools (``jest``,
``mocha``, ``tape``, ``tsup``, ``unbuild`` ...), that the script never
runs; or writes an option with a value (``--reporter dot``) that the
script gives another (``--reporter spec``). Never fires on a script the
manifest does not define (the term binder reads that), on prose words
("the unit tests", "with coverage"), or on what the claim says after a
``;`` or inside an aside ("`npm test` = mocha; coverage goes through
nyc (test-ci)").

Rationale: "`npm test` runs jest" names a real script of a real manifest;
only the program, the claim's whole point, is wrong, and the manifest
writes the one it runs in one string.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._manifests import npm_dependency_names, package_json
from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_SCRIPT = re.compile(r"\b(?:npm\s+(?:run(?:-script)?\s+)?|pnpm\s+(?:run\s+)?|yarn\s+(?:run\s+)?|bun\s+run\s+)"
                     r"(?P<name>[A-Za-z][\w:.-]*)")
#: What a script is said to run, right after its name: "runs", "=", "->", "is".
_RUNS = re.compile(r"\s*(?:=|->|=>|\u2192|\bis\b|\bruns\b|\bexecutes\b|\bcalls\b)\s*(?P<what>[^;(]*?)"
                   r"\s*(?=[;(]|\.\s|\.?$)", re.I)
#: "Tests run under jest", "the suite runs on tape": the program the tests run with.
_RUN_UNDER = re.compile(r"\bruns?\s+(?:under|on|with|via|using)\s+(?P<prog>[A-Za-z][\w.-]*)", re.I)
#: Test runners, bundlers and linters a claim names by their program.
_TOOLS = frozenset({
    "jest", "mocha", "tap", "tape", "ava", "vitest", "jasmine", "karma", "uvu", "nyc", "c8", "istanbul",
    "tsup", "unbuild", "obuild", "rollup", "webpack", "esbuild", "vite", "parcel", "babel", "tsc", "swc",
    "eslint", "prettier", "standard", "xo", "biome", "oxlint", "tsx", "ts-node", "ts-scripts",
})
#: A script that runs another script of the same manifest: ``pnpm lint``, ``npm run size``, ``npm test``.
_NESTED = re.compile(r"\b(?:npm\s+(?:run(?:-script)?\s+)?|pnpm\s+(?:run\s+)?|yarn\s+(?:run\s+)?)([A-Za-z][\w:.-]*)")
#: An option and its value, as a command line writes them: ``--reporter dot``, ``--reporter=lcov``.
_OPTION = re.compile(r"(?<![\w-])(--[A-Za-z][\w-]*)(?:=|\s+)(?!-)([\w./*-]+)")


def _manifest(code: Code) -> dict[str, object] | None:
    if not code.label.split("::", 1)[0].endswith("package.json"):
        return None
    return package_json("\n".join(code.physical))


def _body(scripts: dict[str, str], name: str, seen: frozenset[str] = frozenset()) -> str:
    """The script ``name`` with the scripts it runs read into it."""
    body = scripts.get(name, "")
    out = [body]
    for m in _NESTED.finditer(body):
        inner = m.group(1)
        if inner in scripts and inner not in seen and inner != name:
            out.append(_body(scripts, inner, seen | {name}))
    return " ".join(out)


def _runs(body: str, program: str) -> bool:
    return re.search(rf"(?<![\w@/.-]){re.escape(program)}(?![\w-])", body, re.I) is not None


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    out: list[Contradiction] = []
    for code in codes:
        data = _manifest(code)
        scripts = data.get("scripts") if data is not None else None
        if data is None or not isinstance(scripts, dict) or not all(isinstance(v, str) for v in scripts.values()):
            continue
        known = _TOOLS | {d.lower() for d in npm_dependency_names(data)}
        for m in _SCRIPT.finditer(clause.text):
            name = m.group("name")
            if name not in scripts or clause.skip(name):
                continue
            body = _body(scripts, name)
            said = _RUNS.match(clause.text, m.end())
            programs = re.findall(r"[A-Za-z][\w.-]*", said.group("what")) if said else []
            programs += [u.group("prog") for u in _RUN_UNDER.finditer(clause.text[:m.start()])]
            wrong = next((p for p in programs if p.lower() in known and not _runs(body, p)), None)
            if wrong is not None:
                out.append(Contradiction("script", f"the claim says `{m.group(0)}` runs {wrong}",
                                         f'"{name}": "{scripts[name]}"'[:120], code.label, (wrong,)))
                continue
            for option, value in _OPTION.findall(said.group("what") if said else ""):
                given = [v for o, v in _OPTION.findall(body) if o == option]
                if given and value not in given:
                    out.append(Contradiction("script", f"the claim says `{m.group(0)}` runs `{option} {value}`",
                                             f'"{name}": "{scripts[name]}"'[:120], code.label, (option,)))
                    break
    return out


RULE = Rule("script", check, __doc__ or "")
