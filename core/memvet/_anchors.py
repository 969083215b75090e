"""Anchors: how they are written, resolved at record time, and checked at a target.

Resolution turns what a user asked for (an :class:`AnchorSpec`) into a
recorded :class:`~memvet.Anchor` with hashes and blob ids; a spec that does
not resolve is refused. Checking compares a recorded anchor with a
:class:`~memvet._git.Snapshot` and returns an :class:`~memvet.AnchorCheck`:
a drifted anchor is a result, never an exception.

The fast path: equal blob ids mean the evidence holds, without parsing.
"""

from __future__ import annotations

import bisect
import logging
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pygit2
from packaging.utils import canonicalize_name

from memvet import _claims, _code, _manifests, _vanished
from memvet._cache import LRU, SymbolCache, SymbolHit
from memvet._code import _workers
from memvet._code._languages import CODE_LANGUAGES
from memvet._code._symbols import may_hide
from memvet._errors import (
    AmbiguousSymbolError,
    AnchorNotFoundError,
    InvalidAnchorError,
    MemvetError,
    QuoteNotFoundError,
    UnsupportedFileError,
    UsageError,
)
from memvet._git import GitRepo, Snapshot
from memvet._model import Anchor, AnchorCheck, AnchorKind, AnchorResult
from memvet._moves import GENERATED, Lost, MoveSearch, body_changed, may_define
from memvet._unicode import fold_spec

__all__ = [
    "QUOTE_INTACT",
    "AnchorSpec",
    "Evidence",
    "Recorded",
    "absent",
    "dependency",
    "file",
    "is_text",
    "parse_anchor",
    "quoted",
    "recorded_file",
    "symbol",
    "with_quote",
]

log = logging.getLogger(__name__)

#: How a check says that a changed body or file still holds its quote.
QUOTE_INTACT = "the quoted evidence is intact"

#: Files larger than this are not parsed (unverifiable, with the reason).
MAX_FILE_BYTES = 2 * 1024 * 1024

#: The largest file an absence scan reads. Absence rules guard against
#: things like a cloud key in a 3 MB SQL dump, so they read far past
#: :data:`MAX_FILE_BYTES`; a file in scope over this limit makes the rule
#: ``needs_revalidation``, naming the file, never a silent pass.
MAX_SCAN_BYTES = 64 * 1024 * 1024

#: Memory RE2 may use for one user pattern (bytes); a larger automaton is an
#: error at write, not a slow check.
_RE2_MAX_MEM = 16 * 1024 * 1024


@dataclass(frozen=True)
class AnchorSpec:
    """An anchor as asked for, before it is resolved against the code."""

    kind: AnchorKind
    path: str = ""
    name: str = ""
    requirement: str = ""
    scope: str = ""
    quote: str = ""


def _quote(quote: str | None) -> str:
    if quote is None:
        return ""
    if not isinstance(quote, str) or not quote.strip():
        raise InvalidAnchorError(f"a quote must be non-empty text, not {quote!r}")
    return quote.strip()


def symbol(path: str, name: str, quote: str | None = None) -> AnchorSpec:
    """A symbol anchor: ``symbol("app/store.py", "Store.save")``.

    Args:
        path: The file, relative to the repository root.
        name: The qualified name (``Class.method``).
        quote: Code the claim rests on, which must occur in the symbol's span
            (token by token; whitespace and comments ignored). While the
            quote is there, a rewrite elsewhere in the body keeps the
            decision verified; when it is gone, the decision is stale.
    """
    return AnchorSpec(AnchorKind.SYMBOL, path=path, name=name, quote=_quote(quote))


def file(path: str, quote: str | None = None) -> AnchorSpec:
    """A whole-file anchor: holds while the file's content is unchanged, or,
    with a ``quote``, while the quoted code is still in the file."""
    return AnchorSpec(AnchorKind.FILE, path=path, quote=_quote(quote))


def with_quote(spec: AnchorSpec, quote: str) -> AnchorSpec:
    """``spec`` with a quote attached (symbols and files only).

    Raises:
        InvalidAnchorError: ``spec`` is a dependency or an absence rule.
    """
    if spec.kind not in (AnchorKind.SYMBOL, AnchorKind.FILE):
        raise InvalidAnchorError(
            f"a quote attaches to a symbol or file anchor, not to {spec.kind.value} anchor {spec.name!r}"
        )
    return replace(spec, quote=_quote(quote))


def dependency(spec: str, *, folder: str = "") -> AnchorSpec:
    """A dependency anchor: ``dependency("requests")``, ``dependency("requests>=2.31")``.

    Only the project's own manifests count: those at the repository root
    and, when a folder is named, those of that folder and of every folder
    above it. Manifests elsewhere (an example app's ``requirements.txt``, a
    test fixture's ``package.json``) never count unless their folder is named.

    Args:
        spec: ``name``, ``name<requirement>`` or ``name@version``, optionally
            ending in ``@folder`` (see
            :func:`memvet._manifests.parse_dependency_spec`):
            ``"redis>=4@examples/celery"``, ``"@types/node@packages/web"``.
        folder: The same folder as a keyword, from the repository root:
            ``dependency("redis", folder="examples/celery")``.

    Raises:
        UsageError: An invalid spec or requirement, or two different folders.
        PathOutsideRepositoryError: A folder that leaves the repository.
    """
    parsed = _manifests.parse_dependency_spec(spec)
    scope = parsed.folder
    if folder:
        named = _manifests.dependency_folder(folder)
        if scope and named != scope:
            raise InvalidAnchorError(
                f"dependency {spec!r} names the folder {scope} and folder= names {named}; give one"
            )
        scope = named
    return AnchorSpec(AnchorKind.DEPENDENCY, name=parsed.name, requirement=parsed.requirement, scope=scope)


def absent(*, import_: str | None = None, pattern: str | None = None, scope: str = "") -> AnchorSpec:
    """Something that must stay absent: a module import or a regex match.

    Args:
        import_: A module nothing in scope may import.
        pattern: A regular expression no line in scope may match.
        scope: A glob limiting where to look (whole repository by default).
    """
    if (import_ is None) == (pattern is None):
        raise InvalidAnchorError("absent() takes exactly one of import_= or pattern=")
    scope = check_scope(scope)
    if import_ is not None:
        if not import_.strip():
            raise InvalidAnchorError("absent import: empty module name")
        return AnchorSpec(AnchorKind.ABSENT, name=f"import:{import_.strip()}", scope=scope)
    assert pattern is not None
    _compile(pattern)
    return AnchorSpec(AnchorKind.ABSENT, name=f"pattern:{pattern}", scope=scope)


_DRIVE = re.compile(r"^[A-Za-z]:")


def check_scope(scope: str) -> str:
    """An absence scope as a glob inside the repository (``""``: everywhere).

    A scope is matched against repository-relative paths, so one that
    starts outside the repository (``../**``, ``/etc/*``, ``~/x``, ``C:``)
    or inside ``.git`` matches nothing there and the rule would hold
    vacuously. Those are refused. A leading ``./`` is dropped.

    Raises:
        InvalidAnchorError: The scope leaves the repository, names ``.git``,
            uses ``\\`` or holds a NUL byte.
    """
    if not isinstance(scope, str):
        raise InvalidAnchorError(f"invalid scope {scope!r}: expected a glob such as 'src/**'")
    text = scope.strip()
    while text.startswith("./"):
        text = text[2:]
    if not text:
        return ""
    if "\x00" in text:
        raise InvalidAnchorError(f"invalid scope {scope!r}: NUL byte")
    if "\\" in text:
        raise InvalidAnchorError(f"invalid scope {scope!r}: use '/' as the path separator")
    if text.startswith(("/", "~")) or _DRIVE.match(text):
        raise InvalidAnchorError(
            f"invalid scope {scope!r}: a scope is a glob inside the repository, relative to its root "
            "(such as 'src/**'), never an absolute or home path")
    parts = text.split("/")
    if ".." in parts:
        raise InvalidAnchorError(f"invalid scope {scope!r}: '..' leaves the repository; a scope is a glob "
                                 "inside it, relative to its root (such as 'src/**')")
    if parts[0] == ".git":
        raise InvalidAnchorError(f"invalid scope {scope!r}: inside .git, which is not the repository's code")
    return text


def parse_anchor(text: str | AnchorSpec, *, scope: str = "") -> AnchorSpec:
    """Parse the string form of an anchor.

    ``path::Qualified.name`` is a symbol, ``import:x`` / ``pattern:re`` an
    absence, ``dep:name>=1`` (or ``dep:name>=1@folder``) a dependency,
    anything else a file path. ``scope`` applies to absences only.

    The write path's one Unicode step for anchors: a string is folded
    before it is parsed (two full-width colons, U+FF1A, are the ``::`` they look like),
    a spec's fields as they are, its quote included; a look-alike name is
    refused (:func:`memvet._unicode.fold_spec`).
    """
    if isinstance(text, AnchorSpec):
        return fold_spec(text)
    if not isinstance(text, str) or not text.strip():
        raise InvalidAnchorError(f"empty or invalid anchor: {text!r}")
    text = fold_spec(text)
    if text.startswith("import:"):
        return absent(import_=text[len("import:"):], scope=scope)
    if text.startswith("pattern:"):
        return absent(pattern=text[len("pattern:"):], scope=scope)
    if text.startswith("dep:"):
        return dependency(text[len("dep:"):])
    if "::" in text:
        path, _, name = text.partition("::")
        if not path or not name:
            raise InvalidAnchorError(f"symbol anchor must be PATH::QUALIFIED.NAME, got {text!r}")
        return symbol(path, name)
    return file(text)


def quoted(anchors: Iterable[str | AnchorSpec] | str | AnchorSpec | None,
           quotes: dict[str, str] | None = None) -> list[AnchorSpec]:
    """Anchor specs with quotes attached by anchor: the form agent tools take.

    Args:
        anchors: Anchor strings or specs (one string is one anchor; None is none).
        quotes: Code each anchor's claim rests on, keyed by the anchor as
            written in ``anchors`` (``{"app/cache.py::LRU.put": "popitem(last=False)"}``).

    Raises:
        InvalidAnchorError: A quote keyed by something that is not one of
            the anchors, or attached to a dependency or absence anchor.
    """
    if anchors is None:
        anchors = []
    elif isinstance(anchors, (str, AnchorSpec)):
        anchors = [anchors]
    items = list(anchors)
    quotes = dict(quotes or {})
    written = {a for a in items if isinstance(a, str)}
    stray = [k for k in quotes if k not in written]
    if stray:
        raise InvalidAnchorError(
            f"a quote is keyed by {stray[0]!r}, which is not one of the anchors; key each quote by its "
            "anchor exactly as written in anchors"
        )
    out = []
    for a in items:
        spec = parse_anchor(a)
        if isinstance(a, str) and a in quotes:
            spec = with_quote(spec, quotes[a])
        out.append(spec)
    return out


def _compile(pattern: str, flags: str = "") -> Any:
    """A user pattern compiled by RE2, a linear-time engine.

    Patterns come from the command line, agents and imports. Python's
    backtracking ``re`` takes exponential time on some of them (``(a+)+$``
    against 28 ``a`` and a ``!``: 27 s, doubling with every ``a``); RE2
    answers in time linear in the line, whatever the pattern. What RE2 does
    not support (backreferences, lookaround, possessive quantifiers) is
    refused with the reason.

    Raises:
        InvalidAnchorError: The pattern is empty, not valid, uses syntax RE2
            does not run in linear time, or needs more than 16 MiB.
    """
    import re2

    if not isinstance(pattern, str) or pattern == "":
        raise InvalidAnchorError("invalid pattern: empty (an empty pattern matches every line)")
    try:
        re.compile(pattern)
    except re.error as exc:
        raise InvalidAnchorError(f"invalid pattern {pattern!r}: {exc}") from exc
    options = re2.Options()
    options.log_errors = False  # RE2 would print to stderr through absl
    options.max_mem = _RE2_MAX_MEM
    try:
        return re2.compile(flags + pattern, options)
    except re2.error as exc:
        why = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise InvalidAnchorError(
            f"pattern {pattern!r} is not supported: {why}; patterns run on RE2, a linear-time engine without "
            "backreferences or lookaround, so that no pattern can stall a check") from exc


def _as_text(data: bytes) -> tuple[str, str]:
    """The text an absence pattern is matched against, and how it was read:
    ``""`` (UTF-8), ``"Latin-1"`` (not UTF-8: every byte is one character,
    so no byte is skipped) or ``"binary"`` (NUL bytes; UTF-8 or Latin-1)."""
    binary = b"\x00" in data
    try:
        return data.decode("utf-8"), "binary" if binary else ""
    except UnicodeDecodeError:
        return data.decode("latin-1"), "binary" if binary else "Latin-1"


def _how(how: str) -> str:
    return {"Latin-1": " (not UTF-8, read as Latin-1)", "binary": " (a binary file, read byte by byte)"}.get(how, "")


def _listed(items: list[str], limit: int = 5) -> str:
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MiB"


def _text_problem(data: bytes, limit: int) -> str:
    """Why a file cannot be read as source code, or ``""``. A file that is
    not UTF-8 is source all the same: it is read through
    :func:`memvet._code.as_utf8` (each byte that is not UTF-8 its Latin-1
    character), as every reader of an anchored file here does."""
    if len(data) > limit:
        return f"larger than {limit // 1024} KiB"
    if b"\x00" in data[:8192]:
        return "a binary file"
    return ""


def is_text(data: bytes) -> bool:
    """True for content shown as text as it is: no NUL byte in its first
    8 KiB and valid UTF-8 (diffs and excerpts; an anchored file that is not
    UTF-8 is still checked, see :func:`_text_problem`)."""
    if _text_problem(data, len(data)):
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@dataclass(frozen=True)
class Recorded:
    """An anchored file as it was when its decision was recorded.

    Attributes:
        data: Its content, or ``None`` when this repository has neither the
            recorded blob nor the recorded commit (a shallow clone).
        blob_id: The blob ``data`` came from (``""`` when none).
        source: Where it came from, for a label: ``"as recorded"`` or
            ``"at the recorded commit <sha8>"``.
    """

    data: bytes | None
    blob_id: str = ""
    source: str = ""


def recorded_file(git: GitRepo, anchor: Anchor, commit: str) -> Recorded:
    """The file ``anchor`` was recorded on: its recorded blob when git has it,
    else the path at the recorded ``commit``.

    The one place that answers "what did the evidence look like then", for
    the hasher's baseline, ``show``'s diffs and the audit's.
    """
    data = git.blob_data(anchor.blob_id) if anchor.blob_id else None
    if data is not None:
        return Recorded(data, anchor.blob_id, "as recorded")
    if commit and git.has_commit(commit):
        old = git.snapshot(commit)
        data = old.read(anchor.path)
        if data is not None:
            return Recorded(data, old.blob_id(anchor.path) or "", f"at the recorded commit {commit[:8]}")
    return Recorded(None)


#: Symbol kinds that are a module's constants (``MAX = 5``, ``const codes = [...]``).
_CONSTANT_KINDS = frozenset({"const", "constant", "variable", "let", "var", "static"})


#: Where a manifest names its own package: the ``name`` of a Cargo.toml's ``[package]`` or a
#: pyproject.toml's ``[project]`` table, package.json's ``"name"``, go.mod's module.
_OWN_NAME = {
    "Cargo.toml": re.compile(rb'^\[package\][^\[]*?^\s*name\s*=\s*"([^"]+)"', re.M | re.S),
    "pyproject.toml": re.compile(rb'^\[project\][^\[]*?^\s*name\s*=\s*"([^"]+)"', re.M | re.S),
    "package.json": re.compile(rb'^\s*"name"\s*:\s*"([^"]+)"', re.M),
    "go.mod": re.compile(rb"^module\s+(\S+)", re.M),
}


def _constants_used(data: bytes, symbols: Iterable[_code.Symbol], sym: _code.Symbol | None, span: str,
                    limit: int = 10) -> str:
    """The definitions of the file's top-level constants that ``span`` (the
    symbol ``sym``, when the file is its own) reads, each after a newline: the values a function
    takes from its module are part of what it says (``errorMessages.has(m)``
    is the list of messages; ``timeout or DEFAULT_TIMEOUT`` its default).
    At most ``limit``, of sixty lines each."""
    out = []
    for other in symbols:
        if (other.kind not in _CONSTANT_KINDS or "." in other.qualname
                or (sym is not None and (other.qualname == sym.qualname
                                         or sym.start_line <= other.start_line <= sym.end_line))
                or other.end_line - other.start_line > 60
                or not re.search(rf"(?<![\w$.]){re.escape(other.name)}(?![\w$])", span)):
            continue
        out.append(_span_text(data, other.start_line, other.end_line))
        if len(out) == limit:
            break
    return "".join("\n" + text for text in out)


def _iota_block(data: bytes, sym: _code.Symbol, language: str | None) -> str:
    """For a Go constant of a ``const (...)`` block that counts with
    ``iota``, the block (at most sixty lines), which then stands for the
    constant's own line: ``FgWhite`` alone says nothing; ``FgBlack Attribute
    = iota + 30`` seven specs above it says 37, and the specs after it go on
    counting from it (see :func:`memvet._claims.constant_values`). Empty
    for any other symbol."""
    if language != "go" or "." in sym.qualname:
        return ""
    lines = data.decode("utf-8", "replace").splitlines()
    head = sym.start_line - 1
    while head > 0 and not re.match(r"\s*const\s*\(\s*(?://.*)?$", lines[head - 1]):
        if lines[head - 1].strip() == ")" or re.match(r"\s*(?:func|type|var|import)\b", lines[head - 1]):
            return ""
        head -= 1
    end = next((i for i in range(sym.end_line, len(lines)) if lines[i].strip() == ")"), len(lines))
    block = lines[head - 1: end + 1] if head > 0 and end + 1 - head <= 60 else []
    return "\n".join(block) if any("iota" in line for line in block) else ""


def _fields_set(data: bytes, symbols: Mapping[str, _code.Symbol], sym: _code.Symbol, span: str) -> str:
    """The lines of the class's constructor that set the fields ``span`` (a
    method of that class) reads, each after a newline: ``this.minWidthToWrap
    = 40`` is part of what ``if (width < this.minWidthToWrap)`` says, as a
    module constant is. A constructor function's method (``Cookie.prototype.toHeader``) reads
    the function and the prototype's defaults (``Cookie.prototype.path = "/"``) alike, and a
    class's method the class body's own short assignments (``_MAX_SIZE = 128`` for
    ``self._MAX_SIZE``). At most ten lines; none for a constructor itself."""
    owner, _, own = sym.qualname.rpartition(".")
    if not owner or own.split("(")[0] in ("constructor", "__init__"):
        return ""
    if owner.endswith(".prototype"):  # a constructor function's method: the function and the prototype's defaults
        ctor = symbols.get(owner[: -len(".prototype")])
        ctor = ctor if ctor is not None and ctor.kind == "function" else None
        defaults = [_span_text(data, s.start_line, s.end_line) for q, s in symbols.items()
                    if q.rpartition(".")[0] == owner and s.kind == "variable"]
    else:
        ctor = next((s for q, s in symbols.items() if q.rpartition(".")[0] == owner
                     and q.rpartition(".")[2].split("(")[0] in ("constructor", "__init__")), None)
        defaults = [_span_text(data, s.start_line, s.end_line) for q, s in symbols.items()
                    if q.rpartition(".")[0] == owner and s.kind == "field" and s.end_line - s.start_line < 3]
    if ctor is None and not defaults:
        return ""
    body = _span_text(data, ctor.start_line, ctor.end_line).splitlines() if ctor is not None else []
    declared = [line for text in defaults for line in text.splitlines()]
    out: list[str] = []
    for name in dict.fromkeys(re.findall(r"(?<![\w$.])(?:this|self|cls)\s*\.\s*([A-Za-z_$][\w$]*)", span)):
        setter = re.compile(rf"(?<![\w$.])(?:this|self|{re.escape(owner)})\s*\.\s*{re.escape(name)}"
                            r"\s*(?::[^=]*)?=(?!=)")
        default = re.compile(rf"^\s*(?:static\s+)?{re.escape(name)}\s*(?::[^=]*)?=(?!=)")  # the class body's
        out += [line for line in body if setter.search(line)][:1] or [
            line for line in declared if setter.search(line) or default.search(line)][:1]
        if len(out) == 10:
            break
    return "".join("\n" + line for line in out)


#: A literal argument: a quoted string or a number.
_LITERAL_ARGUMENT = re.compile(r"""["'`]|(?<![\w$.])-?\d""")


def _callers_arguments(data: bytes, sym: _code.Symbol, language: str | None) -> str:
    """The calls of the symbol in its own file, outside its span and its file's other functions' headers, that
    pass literal arguments, one a line (evidence of its own, beside the symbol's span): a
    function that takes what it reads as parameters (``loadCustomData(defaultFile, env string, ...)``)
    says its values where it is called (``loadCustomData(
    "inflections.json", "INFLECT_PATH", ...)`` in ``init``). A call written over several lines is one
    line (``Self::resolve_clicolor_force(env::var("NO_COLOR"), ...)``). A method is called through its
    own class (``Self::name``, ``self.name``, ``this.name``, ``cls.name``, ``ClassName.name``); a bare name
    for a function. Code only: a doc comment's example (``isEqual("/foo bar", "/foo%20bar"); // true``) is
    no call, and neither is a test's (:func:`_test_regions`). At most five calls."""
    if sym.kind not in ("function", "method"):
        return ""
    owner, _, own = sym.qualname.rpartition(".")
    if owner and (sym.kind != "method" or "." in owner or "<" in owner):
        return ""
    through = (rf"(?:\b(?:Self|self|this|cls|{re.escape(owner)})\s*(?:\.|::)\s*)" if owner else r"(?<![\w$.:])")
    call = re.compile(rf"{through}{re.escape(own)}\s*\(")
    text = _claims.code_only(data.decode("utf-8", "replace"), language)
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    tests = _test_regions(text, language)
    out = []
    for hit in call.finditer(text):
        if any(a <= hit.start() < b for a, b in tests):
            continue  # a test's call passes the test's own example, not a value the code runs with
        number = bisect.bisect_right(starts, hit.start())
        line_start, line_end = starts[number - 1], text.find("\n", hit.start())
        line = text[line_start: line_end if line_end >= 0 else len(text)]
        if sym.start_line <= number <= sym.end_line:
            continue
        if re.match(r"\s*(?:(?:export\s+)?(?:async\s+)?function|def|func|(?:pub(?:\([\w:]+\))?\s+)?fn)\b", line):
            continue
        close = _claims.balanced(text, hit.end() - 1, limit=2000)
        whole = text[line_start: close] if close > 0 and "\n" in text[hit.end(): close] else line
        whole = re.sub(r"\s*\n\s*", " ", whole)
        if _LITERAL_ARGUMENT.search(whole, hit.end() - line_start) and whole not in out:
            out.append(whole)
            if len(out) == 5:
                break
    return "\n".join(out)


#: The head of a Rust test module or test function, up to its opening brace.
_RUST_TEST = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([\w:]+\))?\s+)?mod\s+\w+\s*\{"
                        r"|#\[(?:\w+::)*test\]\s*(?:#\[[^\]\n]*\]\s*)*(?:async\s+)?fn\s+\w+[^{;]*\{")
#: A Python test function or class, with its indent.
_PYTHON_TEST = re.compile(r"^([ \t]*)(?:(?:async\s+)?def\s+test\w*\s*\(|class\s+Test\w*\b)", re.M)


def _test_regions(text: str, language: str | None) -> list[tuple[int, int]]:
    """The spans of ``text`` (code only) that are tests written beside the code: a Rust ``#[cfg(test)]``
    module or ``#[test]`` function, a Python ``def test_*`` or ``class Test*`` (to the next line indented
    no deeper)."""
    out: list[tuple[int, int]] = []
    if language == "rust":
        for m in _RUST_TEST.finditer(text):
            end = _rust_block_end(text, m.end() - 1)
            out.append((m.start(), end if end > 0 else len(text)))
    elif language == "python":
        for m in _PYTHON_TEST.finditer(text):
            indent = len(m.group(1).expandtabs())
            body = text.find("\n", m.end()) + 1 or len(text)  # from the line after the header
            end = len(text)
            for line in re.finditer(r"^([ \t]*)\S.*$", text[body:], re.M):
                if len(line.group(1).expandtabs()) <= indent:
                    end = body + line.start()
                    break
            out.append((m.start(), end))
    return out


_JS_FAMILY = frozenset({"javascript", "typescript", "tsx"})


def _prototype_members(data: bytes, symbols: Mapping[str, _code.Symbol], sym: _code.Symbol) -> str:
    """A JavaScript constructor function's class, written beside it: the
    spans of ``F.prototype.*`` (``Cookie.prototype.path = "/"``, its
    methods) and of ``F``'s statics (``Cookies.connect = ...``), each after a
    newline, what a ``class`` body would hold. Only for a function with a
    prototype member: another function's statics are a namespace, not its body."""
    if sym.kind != "function" or not any(q.startswith(sym.qualname + ".prototype.") for q in symbols):
        return ""
    spans = sorted({(s.start_line, s.end_line) for q, s in symbols.items()
                    if q.startswith(sym.qualname + ".") and not sym.start_line <= s.start_line <= sym.end_line})
    return "".join("\n" + _span_text(data, start, end) for start, end in spans)


def _private_twin(data: bytes, symbols: Mapping[str, _code.Symbol], sym: _code.Symbol, span: str) -> str:
    """The body of the private method a public one hands its work to, after
    a newline: ``fetch`` calling ``this.#fetch(...)``, ``get`` calling
    ``self._get(...)`` (same class, same name with the private mark). What
    the wrapper does is what its twin does; any other method it calls is
    not its evidence (measured: the bodies of every callee one hop away
    let more false claims bind than true ones)."""
    owner, _, own = sym.qualname.rpartition(".")
    own = own.split("(")[0]
    if not owner or own.startswith(("_", "#")):
        return ""
    for mark in ("#", "_"):
        twin = next((s for q, s in symbols.items() if q.rpartition(".")[0] == owner
                     and q.rpartition(".")[2].split("(")[0] == mark + own), None)
        receiver = r"this\s*\.\s*#" if mark == "#" else r"(?:self|this)\s*\.\s*_"
        if twin is not None and re.search(rf"{receiver}{re.escape(own)}\s*\(", span):
            return "\n" + _span_text(data, twin.start_line, twin.end_line)
    return ""


def _display_impl(symbols: Mapping[str, _code.Symbol], sym: _code.Symbol, language: str | None) -> _code.Symbol | None:
    """The ``fmt`` of a Rust type's ``Display`` impl, for an anchored struct
    or enum: what the type prints (``"invalid status code"``) is written in
    ``impl fmt::Display for InvalidStatusCode``, a span of its own. Other
    impls stay out: ``Display`` is the one whose output notes quote."""
    if language != "rust" or sym.kind not in ("struct", "enum", "type"):
        return None
    return symbols.get(f"<{sym.qualname} as Display>.fmt")


#: What a Rust brace matcher skips: a string (raw or not), a char literal, a comment.
_RUST_SKIP = re.compile(r'r#*"|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\\\'])\'|//[^\n]*|/\*[\s\S]*?\*/')


def _rust_block_end(text: str, open_at: int) -> int:
    """Index just past the brace closing the one at ``open_at`` in Rust source (strings, char
    literals and comments skipped; a lifetime's ``'a`` is no quote), or -1."""
    depth, i = 0, open_at
    while i < len(text):
        m = _RUST_SKIP.match(text, i)
        if m and m.group(0).startswith("r"):
            hashes = m.group(0)[1:-1]
            close = text.find('"' + hashes, m.end())
            i = close + 1 + len(hashes) if close >= 0 else len(text)
            continue
        if m:
            i = m.end()
            continue
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def _trait_impls(data: bytes, symbols: Mapping[str, _code.Symbol], sym: _code.Symbol,
                 language: str | None) -> list[tuple[str, str]]:
    """``(label, text)`` of what implements an anchored Rust trait method that has no body of its
    own, in the same file: ``<X as Trait>.method`` spans, and the ``fn method`` of each ``impl Trait
    for $T`` a ``macro_rules!`` writes (num-integer writes every primitive's ``div_floor`` so), which
    no parser reads as items. A claim about ``Integer.div_floor`` means what the integers do; the
    trait's line is only the signature. At most three, for binding the claim's terms only."""
    if language != "rust":
        return []
    if sym.kind == "trait":
        return _whole_trait_impls(data, symbols, sym)
    trait, _, method = sym.qualname.rpartition(".")
    owner = symbols.get(trait)
    if not method or owner is None or owner.kind != "trait" \
            or not _span_text(data, sym.start_line, sym.end_line).rstrip().endswith(";"):
        return []  # a default body is the trait's own word: "the trait default is built on div_rem"
    leaf = trait.rsplit(".", 1)[-1]
    out = [(name, _span_text(data, other.start_line, other.end_line)) for name, other in symbols.items()
           if name.endswith(f" as {leaf}>.{method}")]
    impl = _impl_of(leaf)
    for name, other in symbols.items():
        if other.kind != "macro" or len(out) >= 3:
            continue
        text = _span_text(data, other.start_line, other.end_line)
        for m in impl.finditer(text):
            end = _rust_block_end(text, m.end() - 1)
            block = text[m.start():end] if end > 0 else ""
            fn = re.search(rf"\bfn\s+{re.escape(method)}\b[^{{;]*\{{", block)
            close = _rust_block_end(block, fn.end() - 1) if fn else -1
            if fn and close > 0:
                out.append((f"{name}!::<$T as {leaf}>.{method}", block[fn.start():close]))
    return out[:3]


def _impl_of(trait: str) -> re.Pattern[str]:
    """The header of an ``impl Trait for X {`` (``impl<T: Bounded> Bounded for Wrapping<T> {``, ``impl
    MulAdd<f32, f32> for f32 {``) of the trait named ``trait``, up to its brace."""
    return re.compile(rf"\bimpl\b[^{{;]*?\b{re.escape(trait)}(?:<[^{{;]*>)?\s+for\s+[^{{;]+\{{")


def _whole_trait_impls(data: bytes, symbols: Mapping[str, _code.Symbol], sym: _code.Symbol) -> list[tuple[str, str]]:
    """``(label, text)`` of the impls of an anchored Rust trait in the same file: each ``impl Trait
    for X`` block, and each one a ``macro_rules!`` writes for its ``$T`` (num-traits implements
    ``Signed``, ``PrimInt``, ``MulAdd`` for every primitive so). A claim about the trait as a whole
    says what its implementations do. At most eight, for binding the claim's terms only."""
    leaf = sym.qualname.rsplit(".", 1)[-1]
    text = data.decode("utf-8", errors="replace")
    impl = _impl_of(leaf)
    # A macro that takes the trait as an argument: `mul_add_impl!(MulAdd for isize i8 ...)` over
    # `impl $trait_name for $t {...}`.
    passed = {m.group(1) for m in re.finditer(rf"\b(\w+)!\s*[(\[{{][^;]*?\b{re.escape(leaf)}\b", text)}
    given = re.compile(r"\bimpl\b[^{;]*?\$\w+\s+for\s+[^{;]+\{")
    out: list[tuple[str, str]] = []
    blocks = [(m, text) for m in impl.finditer(text)]
    for name in sorted(passed):
        macro = symbols.get(name)
        if macro is not None and macro.kind == "macro":
            body = _span_text(data, macro.start_line, macro.end_line)
            blocks += [(m, body) for m in given.finditer(body)]
    for m, where in blocks:
        end = _rust_block_end(where, m.end() - 1)
        if end > 0:
            head = " ".join(where[m.start():m.end() - 1].split())
            out.append((f"<{head}>", where[m.start():end]))
        if len(out) >= 8:
            break
    return out


def _span_text(data: bytes, start_line: int, end_line: int) -> str:
    return "\n".join(data.decode("utf-8", errors="replace").splitlines()[start_line - 1: end_line])


def _impl_header(data: bytes, sym: _code.Symbol) -> str:
    """The header of the Rust trait impl a method sits in, after a newline
    (``impl<const N: usize> io::Write for SmallVec<u8, N> {`` for
    ``<SmallVec as Write>.write``): the impl the anchor's name spells, with
    the bounds the name leaves out. Empty when there is none above it."""
    if not sym.qualname.startswith("<"):
        return ""
    lines = data.decode("utf-8", errors="replace").splitlines()
    head = lines[sym.start_line - 1] if sym.start_line <= len(lines) else ""
    own = _indent(head)
    for k in range(sym.start_line - 2, -1, -1):
        line = lines[k]
        if line.strip() and _indent(line) < own:
            if not re.match(r"\s*(?:unsafe\s+)?impl\b", line):
                return ""
            header = [line]
            while "{" not in header[-1] and k + len(header) < sym.start_line - 1 and len(header) < 5:
                header.append(lines[k + len(header)])
            return "\n" + "\n".join(header)
    return ""


def _leading_comments(data: bytes, start_line: int, limit: int = 30) -> str:
    """The comment lines right above a span (doc comments live outside spans)."""
    lines = data.decode("utf-8", errors="replace").splitlines()[max(0, start_line - 1 - limit): start_line - 1]
    kept: list[str] = []
    for line in reversed(lines):
        if not line.strip().startswith(("#", "//", "/*", "*", "*/", "///", "--")):
            break
        kept.append(line)
    return "\n".join(reversed(kept))


def _clip(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


_IMPORT_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w ,\t]+)", re.M)


def _module_paths(importer: str, module: str, name: str, paths: set[str]) -> list[str]:
    """Repository files ``from <module> import <name>`` can mean, seen from ``importer``."""
    if module.startswith("."):
        dots = len(module) - len(module.lstrip("."))
        base = importer.rsplit("/", 1)[0] if "/" in importer else ""
        for _ in range(dots - 1):
            base = base.rsplit("/", 1)[0] if "/" in base else ""
        rest = module.lstrip(".").replace(".", "/")
        stem = "/".join(p for p in (base, rest) if p)
        candidates = [f"{stem}.py", f"{stem}/__init__.py", f"{stem}/{name}.py"] if rest else [
            f"{stem}/{name}.py" if stem else f"{name}.py"]
        return [c for c in candidates if c in paths]
    stem = module.replace(".", "/")
    return [p for p in paths if p.endswith((f"{stem}.py", f"{stem}/__init__.py", f"{stem}/{name}.py"))
            and (p.startswith(stem) or f"/{stem}" in p)]


def _reexports(data: bytes, name: str) -> bool:
    """Whether a package's ``__init__`` or ``index`` file makes ``name`` its
    own: imports it (``from ._x import name``), lists it in ``__all__`` or
    exports it (``exports.name =``, ``export { name }``)."""
    if not re.fullmatch(r"[A-Za-z_$][\w$]*", name):
        return False
    n = re.escape(name).encode()
    return any(re.search(p, data) for p in (
        rb"(?m)^[ \t]*from[ \t]+\S+[ \t]+import[ \t]+(?:\([^)]*|[^\n]*)(?<![\w$])" + n + rb"(?![\w$])",
        rb"__all__\s*[+]?=\s*[\[(][^\])]*[\"']" + n + rb"[\"']",
        rb"(?<![\w$])(?:module\.)?exports\." + n + rb"\s*=",
        rb"(?:module\.exports\s*=|\bexport)\s*\{[^}]*(?<![\w$])" + n + rb"(?![\w$])"))


def _module_names(path: str) -> list[str]:
    """``core/memvet/_cache.py`` -> ``core.memvet._cache``, ``memvet._cache``, ``_cache``."""
    stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
    parts = [p for p in stem.split("/") if p]
    if parts and parts[-1] in ("__init__", "index", "mod"):
        parts = parts[:-1]
    return [".".join(parts[i:]) for i in range(len(parts))]


def _go_import_path(path: str, snap: Snapshot) -> str:
    """The import path of the Go package ``path`` belongs to (``github.com/rs/xid/b`` for
    ``b/id.go``, or the folder ``b/``, in module ``github.com/rs/xid``), from the nearest
    ``go.mod`` above it; '' when there is none."""
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    up = folder
    while True:
        data = snap.read(f"{up}/go.mod" if up else "go.mod")
        if data is not None:
            m = re.search(r"^\s*module\s+(\S+)", data.decode("utf-8", "replace"), re.M)
            if m is None:
                return ""
            rest = folder[len(up):].strip("/")
            return m.group(1).strip('"') + ("/" + rest if rest else "")
        if not up:
            return ""
        up = up.rsplit("/", 1)[0] if "/" in up else ""


#: Files to parse in one check before helper processes are worth starting
#: (one starts in about 0.2 s, the parse of some 25 typical files).
PARALLEL_FILES = 32


def _code_files(snap: Snapshot) -> Iterator[tuple[str, str]]:
    """(path, language) of each code file at ``snap`` that no tool generated."""
    for path in snap.paths():
        language = _code.language_for_path(path)
        if language in CODE_LANGUAGES and language is not None and not GENERATED.search(path):
            yield path, language


#: A regular expression literal of JavaScript (``/:(\\w+)/g`` after ``=``, ``(``, ``,``
#: or ``:``) or a raw string handed to Python's ``re`` (``re.compile(r"...")``).
_REGEX_LITERAL = re.compile(r"(?:^|[=(,:!&|?]|\breturn)\s*/((?:\\.|\[(?:\\.|[^\]\n])*\]|[^/\\\n\[])+)/[dgimsuy]*"
                            r"|\bre\.\w+\(\s*r?(['\"])((?:\\.|(?!\2).)+)\2", re.M)
#: Catch-alls: a pattern that matches any of these reads no notation of its own.
_PLAIN = ("hello", "hello world", "x", "1")


def _patterns_in(source: str) -> list[re.Pattern[str]]:
    """The regular expressions ``source`` writes that read a notation of
    their own (see :meth:`Evidence._read_by_pattern`), each compiled once."""
    out = []
    for m in _REGEX_LITERAL.finditer(source):
        raw = m.group(1) if m.group(1) is not None else m.group(3)
        try:
            pattern = re.compile(raw.replace("(?<", "(?P<") if re.search(r"\(\?<[A-Za-z]", raw) else raw)
        except re.error:
            continue  # a dialect Python does not read (or a division misread as a pattern)
        if not any(pattern.fullmatch(plain) for plain in _PLAIN):
            out.append(pattern)
    return out


#: A string literal on a line of code.
_ANY_STRING = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'|`[^`\n]*`")


def _code_says(pattern: re.Pattern[bytes], snap: Snapshot) -> bool:
    """Whether a code file at ``snap`` (see :func:`_code_files`) matches ``pattern``."""
    return any(pattern.search(snap.read(p) or b"") for p, _ in _code_files(snap))


#: Paths of tests, examples and docs: their names are not the program's.
_TEST_PATH = re.compile(r"(?:^|/)(?:tests?|testing|spec|specs|__tests__|examples?|docs?|benchmarks?)/"
                        r"|(?:^|/)test_[^/]*$|_test\.[a-z]+$|\.(?:test|spec)\.[a-z]+$")


def _own_names(snap: Snapshot) -> set[str]:
    """The names the repository's root manifests give the package, lower-cased."""
    out = set()
    data = snap.read("package.json")
    if data:
        m = re.search(rb'^\s{0,4}"name"\s*:\s*"(?:@[^/"]+/)?([^"]+)"', data, re.M)
        if m:
            out.add(m.group(1).decode("utf-8", "replace").lower())
    data = snap.read("pyproject.toml")
    if data:
        m = re.search(rb'^name\s*=\s*["\']([^"\']+)', data, re.M)
        if m:
            out.add(m.group(1).decode("utf-8", "replace").lower())
    return out


def _in_inline_module(table: _code.SymbolTable, name: str) -> list[_code.Symbol]:
    """The symbols ``name`` names inside the file's inline modules (Rust's ``mod __private { fn
    format_err }`` for ``lib.rs::format_err``): the file's own items, as a person reading it names them.
    One per module that defines it: once_cell's ``Lazy.force`` is ``sync.Lazy.force`` and
    ``unsync.Lazy.force``, one API written twice, and the name names both (see :meth:`Evidence.resolve_all`)."""
    found = []
    for qualname, sym in table.symbols.items():
        # A trait impl's member is found by its name as well: uuid's `ContextV1.generate_sequence` is
        # `context.v1_support.<ContextV1 as ClockSequence>.generate_sequence`, named without the trait.
        spelled = next((n for n in (qualname, sym.name) if n.endswith("." + name)), None)
        if spelled is None:
            continue
        parts = spelled[: -len(name) - 1].split(".")  # every enclosing scope, outermost first
        if all(getattr(table.symbols.get(".".join(parts[:k])), "kind", None) == "module"
               for k in range(1, len(parts) + 1)):
            found.append(qualname)
    return [sym for qualname in found for sym in table.lookup(qualname)]


def _local_function(table: _code.SymbolTable, name: str) -> list[_code.Symbol]:
    """The one function ``name`` names among those defined inside another function's body (multer's
    ``abortWithError`` for ``makeMiddleware.abortWithError``): a helper local to a function has no
    other name a reader would give it. Empty when no such function or several answer ``name``. A
    method is not found this way: a reader names it by its type (``Holder.get``)."""
    found = []
    for qualname, sym in table.symbols.items():
        if sym.kind != "function" or not qualname.endswith("." + name):
            continue
        if getattr(table.symbols.get(qualname[: -len(name) - 1]), "kind", None) in ("function", "method"):
            found.append(sym)
    return found if len(found) == 1 else []


#: The head of a Rust ``impl`` block and the type it is for, as written: ``impl<T> crate::Inner<T> {``.
_RUST_IMPL_HEAD = re.compile(r"^[ \t]*(?:unsafe[ \t]+)?impl\b(?:[ \t]*<[^{\n]*?>)?[ \t]+(?:[^{\n]*?[ \t]for[ \t]+)?"
                             r"&?(?:'\w+[ \t]+)?(?:mut[ \t]+)?([\w:]+)")


def _own_type_methods(matches: list[_code.Symbol], data: bytes) -> list[_code.Symbol]:
    """The one Rust method among ``matches`` whose ``impl`` is for the file's own type, when the
    others are for a type of the same name reached by a path (``impl<T> crate::Inner<T>`` beside
    ``impl<T> Inner<T>``): ``Inner.notify`` names what Rust's own ``Inner::notify`` would in that
    file, the local type's. Empty when that does not single one out."""
    lines = data.decode("utf-8", "replace").splitlines()

    def impl_type(sym: _code.Symbol) -> str:
        first = lines[sym.start_line - 1] if sym.start_line <= len(lines) else ""
        indent = len(first) - len(first.lstrip())
        for i in range(min(sym.start_line, len(lines)) - 2, -1, -1):
            head = _RUST_IMPL_HEAD.match(lines[i])
            if head and len(lines[i]) - len(lines[i].lstrip()) < indent:  # not an `impl` in a body above it
                return head.group(1)
        return ""

    types = [impl_type(m) for m in matches]
    own = [m for m, t in zip(matches, types, strict=True) if t and "::" not in t]
    pathed = [m for m, t in zip(matches, types, strict=True) if "::" in t]
    return own if len(own) == 1 and len(own) + len(pathed) == len(matches) else []


#: The kinds of a Go or Rust type whose methods are written outside its body (in `impl` blocks, `func (t T)`).
_OUTSIDE_MEMBERS = frozenset({"struct", "enum", "union", "type"})


def _members_named(table: _code.SymbolTable, sym: _code.Symbol, language: str,
                   named: frozenset[str]) -> list[_code.Symbol]:
    """The members of the Go or Rust type ``sym`` that a claim names, by their own name
    (``poll_next`` for ``<Receiver as Stream>.poll_next``) or their trait's: a trait named gives its
    whole ``impl`` block, members and header with its bounds (``Debug`` or ``Sync`` for
    ``<SendError as Debug>``, ``<ScopeGuard as Sync>``). A type's behaviour is written outside its
    body there, so a claim anchored on the type and naming one is read against it, and a change to
    it reopens the claim (as a Python or JavaScript class's body holds its methods). Members the
    claim does not name stay out."""
    if language not in ("go", "rust") or sym.kind not in _OUTSIDE_MEMBERS:
        return []
    impl = f"<{sym.qualname} as "

    def trait_of(qualname: str) -> str:  # `Debug` of `<P as fmt::Debug>`, `<P as From<u8>>.from`
        return re.sub(r"<.*", "", qualname[len(impl):].partition(">.")[0].removesuffix(">")).rsplit("::", 1)[-1]

    # A trait named gives its block ("Sync", "Drop for ScopeGuard"), header and bounds included,
    # and with it its members, which are in its span.
    blocks = [m for q, m in table.symbols.items()
              if m.kind == "impl" and q.startswith(impl) and q.endswith(">") and trait_of(q) in named]
    inside = tuple(b.qualname + "." for b in blocks)
    out = list(blocks)
    for qualname, member in table.symbols.items():
        if qualname.startswith(sym.qualname + "."):
            leaf, trait = qualname[len(sym.qualname) + 1:], ""
        elif qualname.startswith(impl) and ">." in qualname:
            leaf, trait = qualname.partition(">.")[2], trait_of(qualname)
        else:
            continue
        if "." not in leaf and (leaf in named or trait in named) and not qualname.startswith(inside):
            out.append(member)
    return out


def _one_property(matches: list[_code.Symbol], data: bytes, language: str) -> bool:
    """Whether ``matches`` are all accessors of one property (a getter and a
    setter, say), so that their common name names that property."""
    parsed = _code.parse_file(data, language)
    properties = {parsed.property_of(m.qualname) for m in matches}
    return len(properties) == 1 and "" not in properties


def _platform_variants(matches: list[_code.Symbol], data: bytes, language: str) -> bool:
    """Whether ``matches`` are one Rust item defined once per platform, each
    under its own ``#[cfg(...)]`` (``device_num`` for unix, for windows and
    for the rest) or in its own branch of a ``cfg_if!`` (``try_get`` for
    nightly and for stable), so that their common name names the item on
    every platform."""
    if language != "rust" or len({m.name for m in matches}) != 1:
        return False
    lines = data.decode("utf-8", "replace").splitlines()
    branches = _code.cfg_if_branches(data)

    def configured(sym: _code.Symbol) -> bool:
        first = sym.start_line - 1  # the attributes and doc comments above the item, and its span's own
        while first > 0 and lines[first - 1].lstrip().startswith(("#[", "///", "//!")):
            first -= 1
        head = lines[first: sym.end_line]
        until = next((i for i, line in enumerate(head) if not line.lstrip().startswith(("#[", "///", "//!"))),
                     len(head))
        return any(line.lstrip().startswith("#[cfg(") for line in head[:until]) or any(
            first <= sym.start_line and sym.end_line <= last for first, last in branches)

    return all(configured(m) for m in matches)


#: A Python line that opens a branch of a compound statement: what is defined under it exists on that branch only.
_PY_BRANCH = re.compile(r"(?:if|elif|else|try|except)\b.*:\s*(?:#.*)?$")
_PY_NEXT_BRANCH = re.compile(r"(?:elif|else|except|finally)\b")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _python_branch(lines: Sequence[str], start_line: int) -> tuple[int, int] | None:
    """The innermost ``if``/``elif``/``else``/``try``/``except`` header (its
    0-based line and its indent) the definition at ``start_line`` lies under,
    through the classes and functions around it; None when it lies under
    none. A line less indented than the definition that opens no branch (a
    ``class``, a ``def``, a call's closing bracket) is followed outward."""
    if not 0 < start_line <= len(lines):
        return None
    own = _indent(lines[start_line - 1])
    for k in range(start_line - 2, -1, -1):
        if own == 0:
            return None
        line = lines[k]
        if not line.strip() or line.lstrip().startswith("#") or _indent(line) >= own:
            continue
        if _PY_BRANCH.match(line.lstrip()):
            return k, _indent(line)
        own = _indent(line)
    return None


def _branch_variants(matches: Sequence[_code.Symbol], data: bytes, language: str) -> bool:
    """Whether ``matches`` are one Python name defined once per branch of one
    ``if``/``else`` or ``try``/``except`` statement (async-timeout's
    ``Timeout``: ``asyncio.Timeout``'s subclass from 3.11 on, its own class
    before), so that their common name names the class or function on every
    branch, as a reader names it."""
    if language != "python" or len(matches) < 2 or len({m.name for m in matches}) != 1:
        return False
    lines = data.decode("utf-8", "replace").splitlines()
    heads = [_python_branch(lines, m.start_line) for m in matches]
    if None in heads or len(set(heads)) != len(heads) or len({h[1] for h in heads if h}) != 1:
        return False
    rows = sorted(h[0] for h in heads if h)
    indent = _indent(lines[rows[0]])
    # one statement: between its first and last branch, nothing at its indent but its own headers
    return all(not line.strip() or line.lstrip().startswith("#") or _indent(line) > indent
               or _PY_NEXT_BRANCH.match(line.lstrip()) for line in lines[rows[0] + 1: rows[-1] + 1])


def _branch_condition(data: bytes, sym: _code.Symbol) -> str:
    """The headers of the Python statement whose branch ``sym`` is defined
    on, after a newline, up to its own (``if sys.version_info >= (3, 11):``
    and ``else:`` for the class defined under ``else``): what decides that
    this definition is the one in use. Empty when it is defined on no branch."""
    lines = data.decode("utf-8", errors="replace").splitlines()
    head = _python_branch(lines, sym.start_line)
    if head is None:
        return ""
    row, indent = head
    headers = [lines[row]]
    k = row - 1
    while not re.match(r"(?:if|try)\b", lines[row].lstrip()) and k >= 0:
        line = lines[k]
        if line.strip() and not line.lstrip().startswith("#") and _indent(line) <= indent:
            if _indent(line) < indent or not _PY_BRANCH.match(line.lstrip()):
                break
            headers.append(line)
            row = k
        k -= 1
    return "\n" + "\n".join(reversed(headers))


def _build_constraints(data: bytes) -> str:
    """The Go file's build constraints (``//go:build !linux``, ``// +build
    !linux``), after a newline: what decides whether a definition of that
    file is compiled at all, as a branch header does in Python. Empty for a
    file with none."""
    out = []
    for line in data.decode("utf-8", errors="replace").splitlines():
        if re.match(r"\s*package\s", line):
            break
        if _claims.GO_BUILD.match(line):
            out.append(line.strip())
    return "\n" + "\n".join(out) if out else ""


class _Unparseable(Exception):
    """Internal: a file that cannot be parsed as text (the message says why)."""


def _dep_key(ecosystem: str, name: str) -> str:
    if ecosystem == "python":
        return canonicalize_name(name)
    if ecosystem == "cargo":
        return name.replace("_", "-")
    return name


def _folder_chain(folder: str) -> list[str]:
    """``folder`` and every folder above it, ending with the root ``""``."""
    chain: list[str] = []
    while folder:
        chain.append(folder)
        folder = folder.rpartition("/")[0]
    return [*chain, ""]


def _where(folder: str) -> str:
    """Which manifests count for a dependency anchor, in words."""
    return f"in {folder} or the folders above it" if folder else "at the repository root"


def _looked(manifests: list[str]) -> str:
    if not manifests:
        return "there is no manifest there; MemVet reads " + ", ".join(_manifests.MANIFEST_NAMES)
    return "looked in " + ", ".join(manifests)


def _import_matches(module: str, wanted: str) -> bool:
    if module == wanted:
        return True
    return any(module.startswith(wanted + sep) for sep in (".", "::", "/"))


class Evidence:
    """Resolves and checks anchors against one repository, with shared caches.

    Args:
        git: The repository.
        cache: Symbol-table cache (content addressed).
        max_file_bytes: Larger files are refused at write, unverifiable at read.
    """

    def __init__(self, git: GitRepo, cache: SymbolCache | None = None, *,
                 max_file_bytes: int = MAX_FILE_BYTES, parse_workers: int = 0) -> None:
        self.git = git
        self.cache = cache or SymbolCache()
        self.max_file_bytes = max_file_bytes
        #: Helper processes a large batch may parse on (see :meth:`_parse_ahead`).
        self.parse_workers = parse_workers
        self._import_cache: LRU[tuple[str, str], tuple[list[tuple[str, int]], str]] = LRU(16384)
        self._manifest_cache: LRU[tuple[str, str], list[_manifests.Declared]] = LRU(1024)
        self._project_cache: LRU[tuple[str, str], list[str]] = LRU(256)
        self._own_names_cache: LRU[str, frozenset[str]] = LRU(256)  # commit -> its packages' own names
        self._contains_cache: LRU[tuple[str, bytes], bool] = LRU(65536)
        self._mention_cache: LRU[tuple[str, str], bool] = LRU(4096)  # (commit, word): said anywhere
        self.moves = MoveSearch(self)
        # Checks at a commit: a commit's tree, an anchor and its recorded
        # commit never change, so neither does the answer (a recall checks
        # the same few candidates again and again). Unverifiable answers are
        # not kept: what failed may work next time.
        self._checked: LRU[tuple[Anchor, str, str], AnchorCheck] = LRU(65536)

    # ================================================================ resolve

    def resolve(self, spec: AnchorSpec, snap: Snapshot, *, base: str | None = None) -> Anchor:
        """Resolve a spec at ``snap`` into a recorded anchor (one symbol:
        a property's name is ambiguous here, see :meth:`resolve_all`).

        Raises:
            AnchorNotFoundError, AmbiguousSymbolError, UnsupportedFileError,
            PathOutsideRepositoryError, InvalidAnchorError.
        """
        if spec.kind is AnchorKind.SYMBOL:
            return self._resolve_symbol(spec, snap, base, whole=False)[0]
        if spec.kind is AnchorKind.FILE:
            path = self.git.normalize_path(spec.path, base=base)
            data = snap.require(path)
            blob = snap.blob_id(path)
            assert blob is not None
            if spec.quote:
                problem = _text_problem(data, self.max_file_bytes)
                if problem:
                    raise UnsupportedFileError(f"{path}: cannot quote from {problem}")
                self._require_quote(spec.quote, _code.source_text(data), _code.language_for_path(path), path, 1)
            return Anchor(AnchorKind.FILE, path=path, blob_id=blob, quote=spec.quote)
        if spec.kind is AnchorKind.DEPENDENCY:
            return self._resolve_dependency(spec, snap)
        return self._resolve_absent(spec, snap)

    def resolve_all(self, spec: AnchorSpec, snap: Snapshot, *, base: str | None = None,
                    named: frozenset[str] = frozenset()) -> list[Anchor]:
        """:meth:`resolve`, except that a symbol spec whose name matches the
        accessors of one property and nothing else (``body`` for ``get
        body``/``set body``, a Python property's getter, setter and
        deleter: see :meth:`memvet._code.ParsedFile.property_of`) names the
        property: one anchor per accessor, each under its exact name and
        hash. So does a name the file defines once per platform (Rust's
        ``#[cfg(...)]`` twins) or once per inline module and nowhere else
        (once_cell's ``Lazy.force`` for ``sync.Lazy.force`` and
        ``unsync.Lazy.force``), and a Python name defined once per branch of
        one ``if``/``else`` or ``try``/``except`` statement (async-timeout's
        ``Timeout`` and ``Timeout#2``, found by the first one's exact name too):
        the claim is read against all of them, and a
        change to any reopens it. A quote is kept on the anchors that hold it.

        A Go or Rust type (struct, enum, union, alias) also brings the
        members among ``named`` (the words of the claim), by their own name
        or their trait's, unquoted (see :func:`_members_named`).

        Raises:
            The errors of :meth:`resolve`.
        """
        if spec.kind is AnchorKind.SYMBOL:
            return self._resolve_symbol(spec, snap, base, whole=True, named=named)
        return [self.resolve(spec, snap, base=base)]

    def _resolve_symbol(self, spec: AnchorSpec, snap: Snapshot, base: str | None, *, whole: bool,
                        named: frozenset[str] = frozenset()) -> list[Anchor]:
        path = self.git.normalize_path(spec.path, base=base)
        data = snap.require(path)
        language = _code.language_for_path(path)
        if language is None:
            raise UnsupportedFileError(
                f"{path}: no symbol parser for this kind of file; anchor the whole file instead"
            )
        problem = _text_problem(data, self.max_file_bytes)
        if problem:
            raise UnsupportedFileError(f"{path}: cannot anchor a symbol in {problem}")
        data = _code.as_utf8(data)
        blob = snap.blob_id(path)
        assert blob is not None
        table = self.cache.table(blob, language, lambda: data)
        name = spec.name.strip()
        matches = table.lookup(name)
        per_module = not matches and len(matches := _in_inline_module(table, name)) > 1
        matches = matches or _local_function(table, name)
        if len(matches) > 1 and language == "rust":
            matches = _own_type_methods(matches, data) or matches
        if whole and len(matches) == 1 and language == "python":  # `Timeout` for `Timeout` and `Timeout#2`
            twins = table.named(matches[0].name)
            matches = twins if _branch_variants(twins, data, language) else matches
        if not matches:
            near = sorted(q for q in table.symbols if q.rsplit(".", 1)[-1] == name.rsplit(".", 1)[-1])
            hint = f" (did you mean {', '.join(near[:5])}?)" if near else ""
            raise AnchorNotFoundError(f"{path}: no symbol named {name}{hint}")
        if len(matches) > 1 and not (whole and (per_module or _one_property(matches, data, language)
                                                or _platform_variants(matches, data, language)
                                                or _branch_variants(matches, data, language))):
            candidates = tuple(sorted(m.qualname for m in matches))
            raise AmbiguousSymbolError(
                f"{path}::{name} matches {len(matches)} symbols; name one of: {', '.join(candidates)}",
                candidates,
            )
        def anchor(sym: _code.Symbol, quote: str = "") -> Anchor:
            return Anchor(AnchorKind.SYMBOL, path=path, name=sym.qualname, language=language,
                          symbol_kind=sym.kind, body_hash=sym.hash, hash_version=_code.HASH_VERSION,
                          blob_id=blob, line=sym.start_line, shape=sym.shape, quote=quote)

        anchors: list[Anchor] = []
        misses: list[QuoteNotFoundError] = []
        for sym in matches:  # one with a syntax error in its span is hashed on its raw tokens
            quote = spec.quote
            if quote:
                try:
                    self._require_quote(quote, _span_text(data, sym.start_line, sym.end_line), language,
                                        f"{path}::{sym.qualname}", sym.start_line)
                except QuoteNotFoundError as exc:
                    misses.append(exc)
                    quote = ""  # a property's other accessors are anchored unquoted
            anchors.append(anchor(sym, quote))
        if len(misses) == len(matches):
            raise misses[0]
        if whole and len(matches) == 1 and named:
            anchors += [anchor(sym) for sym in _members_named(table, matches[0], language, named)]
        return anchors

    @staticmethod
    def _require_quote(quote: str, text: str, language: str | None, where: str, first_line: int) -> None:
        if not _claims.code_tokens(quote, language, drop_comments=True):
            raise QuoteNotFoundError(f"the quote {quote!r} for {where} is empty once comments are removed")
        if not _claims.find_quote(quote, text, language):
            closest = "; ".join(_claims.closest_lines(quote, text, first_line))
            raise QuoteNotFoundError(
                f"the quote {quote!r} is not in {where} (compared token by token, whitespace and comments "
                f"ignored); closest lines: {closest or 'none'}"
            )

    def _resolve_dependency(self, spec: AnchorSpec, snap: Snapshot) -> Anchor:
        folder = spec.scope
        if folder:
            folder = self.git.normalize_path(folder)
            if not any(p.startswith(folder + "/") for p in snap.paths()):
                raise AnchorNotFoundError(
                    f"dep:{_manifests.format_dependency_spec(spec.name, spec.requirement, folder)}: "
                    f"there is no folder {folder} (a folder is named from the repository root)"
                )
        manifests = self._project_manifests(snap, folder)
        found = self._find_declared(spec.name, snap, manifests, None)
        if found is None:
            # "No `punycode` dependency" anchored dep:punycode: a dependency anchor says it is declared
            hint = self._declared_elsewhere(spec.name, spec.requirement, snap, manifests) or (
                f"; a decision that {spec.name} stays out anchors its absence: import:{spec.name}")
            raise AnchorNotFoundError(
                f"no manifest declares {spec.name} {_where(folder)} ({_looked(manifests)}){hint}")
        path, decl = found
        if spec.requirement:
            ok = _manifests.satisfies(decl, spec.requirement)
            if ok is False:
                raise UsageError(
                    f"{decl.name} is declared as {decl.spec or 'unpinned'} in {path}, "
                    f"which does not satisfy {spec.requirement}"
                )
        return Anchor(
            AnchorKind.DEPENDENCY, path=path, name=decl.name, requirement=spec.requirement,
            symbol_kind=decl.ecosystem, line=decl.line, scope=folder,
        )

    def _resolve_absent(self, spec: AnchorSpec, snap: Snapshot) -> Anchor:
        anchor = Anchor(AnchorKind.ABSENT, name=spec.name, scope=spec.scope)
        check = self._check_absent(anchor, snap)
        if check.result is not AnchorResult.HOLDS:
            raise UsageError(f"cannot record '{spec.name}' as absent: {check.detail}")
        return anchor

    # ================================================================ claims

    def claim_evidence(self, anchors: Iterable[Anchor], snap: Snapshot) -> list[_claims.EvidenceText]:
        """What each resolved anchor says at ``snap``, for binding a claim's
        terms: a symbol's span (with the doc comments right above it, the
        module constants it reads, the lines of its class's constructor
        that set the fields it reads and the body of the private twin it
        hands its work to; a Rust type's ``Display`` impl as a span of its
        own, after it; the lines of its file that call it with literal
        arguments, a span of their own too; the headers of the Python
        ``if``/``try`` branch it is defined on), a
        file's text, a dependency's declaration, an absence rule's target
        (marked ``absent``: never positive evidence). Code carries its
        language (which parts are comments and docstrings) and the modules
        its file imports."""
        out = []
        for a in anchors:
            extra: list[_claims.EvidenceText] = []
            names: list[str] = [a.spec]
            text = ""
            language: str | None = None
            imported: tuple[str, ...] = ()
            if a.kind in (AnchorKind.SYMBOL, AnchorKind.FILE):
                data = snap.read(a.path) or b""
                modules = _module_names(a.path)
                names += [a.path, *modules]
                language = a.language or _code.language_for_path(a.path)
                if language in CODE_LANGUAGES:
                    imported = tuple(dict.fromkeys(name for name, _ in self._imports(a.path, language, snap)[0]))
                if not _text_problem(data, self.max_file_bytes):
                    data = _code.as_utf8(data)
                    if a.kind is AnchorKind.FILE:
                        text = data.decode("utf-8")
                    else:
                        blob = snap.blob_id(a.path) or a.blob_id
                        table = self.cache.table(blob, a.language, lambda: data)
                        symbols = table.symbols
                        sym = symbols.get(a.name)
                        # Application.use for module.exports.use: the name the module gives its export
                        names += [form for alias, prefix in table.aliases.items()
                                  if a.name.startswith(prefix + ".")
                                  for form in (f"{a.path}::{alias}{a.name[len(prefix):]}",
                                               alias + a.name[len(prefix):])]
                        if sym is not None:
                            text = (_leading_comments(data, sym.start_line) + "\n"
                                    + (_iota_block(data, sym, language)
                                       or _span_text(data, sym.start_line, sym.end_line)))
                            text += _constants_used(data, symbols.values(), sym, text)
                            text += _fields_set(data, symbols, sym, text)
                            text += _private_twin(data, symbols, sym, text)
                            if language in _JS_FAMILY:
                                text += _prototype_members(data, symbols, sym)
                            elif language == "rust":
                                text += _impl_header(data, sym)
                            elif language == "python":
                                text += _branch_condition(data, sym)
                            elif language == "go":
                                text += _build_constraints(data)
                            for label, impl_text in _trait_impls(data, symbols, sym, language):
                                extra.append(_claims.EvidenceText(f"{a.path}::{label}", impl_text,
                                                                  (f"{a.path}::{label}",), language, False, imported))
                            shared = self._package_constants(a.path, snap, text) if language == "go" else ""
                            if shared:  # a span of its own, as the call sites below: no steps of the body
                                label = f"{a.path} (constants of its package)"  # the label's words are no names
                                extra.append(_claims.EvidenceText(label, shared.lstrip("\n"), (a.path,), language,
                                                                  False, imported, derived=True))
                            called = _callers_arguments(data, sym, language)
                            if called:  # a span of its own: the rules read a body's steps, and these are not
                                label = f"{a.path} (calls of {sym.name})"
                                extra.append(_claims.EvidenceText(label, called, (a.path,), language, False, imported,
                                                                  derived=True))
                            shown = _display_impl(symbols, sym, language)
                            if shown is not None:  # its own span: rules read one span's order at a time
                                extra.append(_claims.EvidenceText(
                                    f"{a.path}::{shown.qualname}", _span_text(data, shown.start_line, shown.end_line),
                                    (f"{a.path}::{shown.qualname}",), language, False, imported))
                if a.kind is AnchorKind.SYMBOL:
                    names += [a.name, *(f"{m}.{a.name}" for m in modules)]
            elif a.kind is AnchorKind.DEPENDENCY:
                names += [a.name, a.path]
                lines = (snap.read(a.path) or b"").decode("utf-8", errors="replace").splitlines()
                declared = lines[a.line - 1] if 0 < a.line <= len(lines) else ""
                # its section too (devDependencies, dev-dependencies): whether the project ships it is the
                # manifest's, as resolving the anchor read it (cached by the manifest's blob)
                section = _section(a, self._declared(a.path, snap))
                text = f"{a.name}{a.requirement}\n{declared}\n{section}".rstrip("\n")
            else:
                text = a.name.partition(":")[2] + (f"\n{a.scope}" if a.scope else "")
            out.append(_claims.EvidenceText(a.spec, text, tuple(names), language, a.kind is AnchorKind.ABSENT,
                                            imported))
            out += extra
        return out

    def _package_constants(self, path: str, snap: Snapshot, span: str) -> str:
        """For Go, the definitions of the constants (``const``, not ``var``) of the package's other files that
        ``span`` reads, code only, each after a newline: a Go package is its directory's files together, so
        ``len(input) != Size`` says 16 where ``uuid.go`` has ``const Size = 16``. About ten lines (a file's
        constants are taken while fewer are held), each definition of sixty lines at most; test files left
        out."""
        folder = path.rpartition("/")[0]
        out = ""
        for other in snap.paths():
            if other == path or other.rpartition("/")[0] != folder or not other.endswith(".go") \
                    or other.endswith("_test.go"):
                continue
            data = snap.read(other) or b""
            blob = snap.blob_id(other)
            if blob is None or _text_problem(data, self.max_file_bytes):
                continue
            data = _code.as_utf8(data)
            table = self.cache.table(blob, "go", lambda: data)
            consts = [sym for sym in table.symbols.values() if sym.kind in ("const", "constant")]
            found = _constants_used(data, consts, None, span, limit=10 - out.count("\n"))
            out += _claims.code_only(found, "go")
            if out.count("\n") >= 10:
                break
        return out

    def _package_named(self, name: str, snap: Snapshot) -> bool:
        """Whether ``name`` is the name a manifest of the repository gives its
        own package (``env_logger`` of ``[package] name = "env_logger"``, a
        ``package.json`` ``"name"``, the last part of a ``go.mod`` module),
        ``-`` and ``_`` alike: a project names itself in prose."""
        return name.lower().replace("-", "_") in self._own_names(snap)

    def _own_names(self, snap: Snapshot) -> frozenset[str]:
        """The names the repository's manifests give their own packages at
        ``snap``, folded (see :meth:`_package_named`); read once per commit."""
        found = self._own_names_cache.get(snap.name) if snap.commit is not None else None
        if found is None:
            names = set()
            for path in snap.paths():
                pattern = _OWN_NAME.get(path.rsplit("/", 1)[-1])
                if pattern is None or GENERATED.search(path):
                    continue
                m = pattern.search(snap.read(path) or b"")
                if m:
                    names.add(m.group(1).decode("utf-8", "replace").rsplit("/", 1)[-1].lower().replace("-", "_"))
            found = frozenset(names)
            if snap.commit is not None:  # the working tree may change between two writes
                self._own_names_cache.put(snap.name, found)
        return found

    def names_exist(self, term: _claims.Term, snap: Snapshot, anchors: Iterable[Anchor] = ()) -> bool:
        """Whether a path or dotted name names a file, folder, module or
        symbol of the repository at ``snap`` (claims may name code they do
        not anchor, if it exists; a package's name re-exported from its
        ``__init__`` or ``index`` counts; a Go standard package, ``encoding/json``, where a Go file of the
        repository imports it), a package is the repository's own, a call fits a definition of its
        callee there (see :meth:`_call_fits`), or a number is the value of
        a constant the anchored code names (see :meth:`_imported_constant`), or a name is one of an
        anchored dependency that a file of the repository imports and uses (see :meth:`_from_dependency`)."""
        text = term.text.strip()
        if term.kind is _claims.TermKind.NUMBER:
            return self._imported_constant(text, anchors, snap)
        if term.kind is _claims.TermKind.CALL:
            return self._call_fits(text, snap)
        paths = snap.paths()
        if term.kind is _claims.TermKind.PATH:
            wanted = text.removeprefix("./").rstrip("/")
            if any(p == wanted or p.startswith(wanted + "/") or p.endswith("/" + wanted) for p in paths):
                return True
            # github.com/rs/xid/b: a package of the repository, by the import path Go gives it
            if "." not in wanted.split("/", 1)[0]:
                # math/big, encoding/json: a package of Go's standard library, which a Go file of the
                # repository imports (no host, so no go.mod to read and nothing of the repository's own)
                imported = re.compile(rb'\bimport\s*(?:\([^)]*)?(?:[\w.]+\s+)?"' + re.escape(wanted.encode()) + rb'"')
                return "/" in wanted and any(p.endswith(".go") and imported.search(snap.read(p) or b"") is not None
                                             for p in paths)
            folders = {p.rsplit("/", 1)[0] + "/" if "/" in p else "" for p in paths if p.endswith(".go")}
            return any(_go_import_path(f, snap) == wanted for f in folders)
        if term.kind is _claims.TermKind.IDENTIFIER:
            return self._neighbour(text, anchors, snap) or self._package_named(text, snap) \
                or self._from_dependency(text, anchors, snap)
        if term.kind is _claims.TermKind.PROPER:
            return self._mentioned(text, snap)
        if term.kind is _claims.TermKind.PACKAGE:  # the package's own name, as its manifests give it
            return text.rsplit("/", 1)[-1].lower().replace("-", "_") in self._own_names(snap)
        if term.kind is _claims.TermKind.CODE and _claims.OPTION.fullmatch(text):
            # --help, '-V, --version': an option the program declares somewhere
            return _code_says(re.compile(rb"(?<![\w-])" + re.escape(text.encode()) + rb"(?![\w-])"), snap)
        if term.kind is _claims.TermKind.CODE:
            return self._read_by_pattern(text, anchors, snap)
        if term.kind is _claims.TermKind.STRING and term.beside:
            return self._message_of(term.beside, text, snap)
        if term.kind is _claims.TermKind.STRING and _claims.STANDARD_HEADER.fullmatch(text):
            return _code_says(re.compile(re.escape(text.encode()), re.I), snap)  # a header, in any case
        if term.kind is not _claims.TermKind.DOTTED:
            return False
        if any(p == text or p.endswith("/" + text) for p in paths):
            return True  # go.sum, setup.cfg: a file of the repository, named by its name
        segments = text.split(".")
        if len(segments) == 2 and segments[0][:1].islower():
            # result.exception: an instance's member, its class named by the receiver (Result.exception)
            member = segments[0][:1].upper() + segments[0][1:] + "." + segments[1]
            head, last = member.split(".")[0].encode(), segments[1].encode()
            for p in paths:
                if _code.language_for_path(p) is None or GENERATED.search(p):
                    continue
                data = snap.read(p) or b""
                if head in data and last in data and (self._defines(p, member, snap) or (
                        re.search(rb"(?:self|this)\s*\.\s*" + re.escape(last) + rb"\s*=[^=]", data)
                        and self._defines(p, member.split(".")[0], snap))):
                    return True  # a member the class defines, or an attribute its methods set
        for i in range(len(segments), 0, -1):
            module = "/".join(segments[:i])
            rest = ".".join(segments[i:])
            for p in paths:
                stem = p.rsplit(".", 1)[0] if "." in p.rsplit("/", 1)[-1] else p
                for candidate in (stem, stem.removesuffix("/__init__"), stem.removesuffix("/index")):
                    if candidate == module or candidate.endswith("/" + module):
                        if not rest or self._defines(p, rest, snap) or (
                                candidate != stem and _reexports(snap.read(p) or b"", rest)):
                            return True
        first, last = segments[0].encode(), segments[-1].encode()
        for p in paths:
            if _code.language_for_path(p) is None or GENERATED.search(p):
                continue
            data = snap.read(p) or b""
            if last in data and first in data and self._defines(p, text, snap):
                return True
        return False

    def _from_dependency(self, name: str, anchors: Iterable[Anchor], snap: Snapshot) -> bool:
        """Whether ``name`` is a name a code file of the repository takes from an anchored dependency: it
        imports it by name (``from tokenize_rt import src_to_tokens``, ``import { defu } from "defu"``,
        ``use bytes::{Buf, BufMut}``) or reaches it through the package (``tokenize_rt.src_to_tokens``,
        ``bytes::Buf``): "uses tokenize-rt's src_to_tokens", anchored on ``dep:tokenize-rt``. A word the
        file merely says (an option key, ``dotenv: true`` in a call of the package) is not taken from it."""
        deps = {a.name for a in anchors if a.kind is AnchorKind.DEPENDENCY}
        if not deps or not re.fullmatch(r"[A-Za-z_$][\w$]*", name):
            return False
        forms = {form for dep in deps for form in (dep, dep.replace("-", "_"), dep.rsplit("/", 1)[-1])}
        if name.lower() in {form.lower() for form in forms}:
            return False  # `typing_extensions` of dep:typing-extensions: the package itself, not a name of it
        said = re.escape(name.encode())
        module = b"(?:" + b"|".join(re.escape(form.encode()) for form in sorted(forms)) + b")"
        taken = re.compile(
            rb"\bfrom\s+" + module + rb"(?:\.[\w.]+)?\s+import\s+(?:\([^)]*|[^\n]*)\b" + said + rb"\b"
            + rb"|\{[^}]*\b" + said + rb"\b[^}]*\}\s*(?:from\s*|=\s*require\(\s*)['\"]" + module + rb"['\"/]"
            + rb"|\buse\s+" + module + rb"::[^;]*\b" + said + rb"\b"
            + rb"|(?<![\w$.])" + module + rb"(?:\.|::)" + said + rb"(?![\w$])")
        for path, _ in _code_files(snap):
            data = snap.read(path) or b""
            if name.encode() in data and taken.search(data):
                return True
        return False

    def _read_by_pattern(self, text: str, anchors: Iterable[Anchor], snap: Snapshot) -> bool:
        """Whether ``text`` is an input the anchored files parse: a regular
        expression written there matches all of it (``:date[clf]`` for
        ``/:([-\\w]{2,})(?:\\[([^\\]]+)\\])?/g``), the expression is no
        catch-all (it matches no plain word or sentence), and every word of
        ``text`` is written in the same file (``date``, ``clf``). A format
        string, a route or a token a reader writes in the notation the code
        reads is an example of that notation, wherever the parsing is."""
        placeholder = re.sub(r"<[A-Za-z_][\w .:/-]{0,40}>", "x", text)  # :res[<header>]: any header
        words = re.findall(r"[A-Za-z]\w+", re.sub(r"<[^<>]*>", " ", text))
        for path in dict.fromkeys(a.path for a in anchors if a.kind in (AnchorKind.SYMBOL, AnchorKind.FILE)):
            data = snap.read(path) or b""
            if len(data) > self.max_file_bytes:
                continue
            source = data.decode("utf-8", "replace")
            if not all(re.search(rf"(?<![\w$]){re.escape(w)}(?![\w$])", source) for w in words):
                continue
            for pattern in _patterns_in(source):
                if pattern.fullmatch(text) or pattern.fullmatch(placeholder):
                    return True
        return False

    def _message_of(self, name: str, message: str, snap: Snapshot) -> bool:
        """Whether the repository's code (tests aside) writes ``message`` in a string on the line of
        ``name`` (``ErrZeroLength = errors.New("zero length key")``), or, where that line opens a block
        and writes no string, on one of the two lines after it (``ErrorKind::ExcessiveComparators => {``
        and ``f.write_str("excessive number of ...")`` below). A claim names an error and quotes its
        message; the name is defined where the two meet. Code only: a comment that says the two
        (``/// formats NaN as the string "NaN"``) defines nothing, and the name counts outside strings
        only (in ``NaN -> "NaN"`` the message is the value; its own literal names nothing)."""
        last = re.split(r"::|\.", name)[-1]
        named = re.compile(r"(?<![\w$])" + re.escape(last) + r"(?![\w$])")
        said = re.compile(r"[\"'`][^\"'`\n]*" + re.escape(message) + r"[^\"'`\n]*[\"'`]")
        for path, language in _code_files(snap):
            if _TEST_PATH.search(path):
                continue
            data = snap.read(path) or b""
            if message.encode() not in data or _text_problem(data, self.max_file_bytes):
                continue
            lines = _claims.code_only(data.decode("utf-8", errors="replace"), language).splitlines()
            for i, line in enumerate(lines):
                if not named.search(_ANY_STRING.sub('""', line)):
                    continue
                if said.search(line):
                    return True
                # `ErrorKind::X => {` with the message on the lines of the block it opens; a line that writes
                # a string of its own (`ErrA = errors.New("a")`) is the name's whole definition
                if not _ANY_STRING.search(line) and re.search(r"(?:\{|=>|:|\()\s*$", line) \
                        and any(said.search(near) for near in lines[i + 1:i + 3]):
                    return True
        return False

    def _mentioned(self, word: str, snap: Snapshot) -> bool:
        """Whether any tracked text file at ``snap`` says ``word``, in any
        case, as a word or a part of one (``airflow_dag``); the README and
        docs first, where names in prose usually are. Cached per commit."""
        key = (snap.name, word.lower())
        known = self._mention_cache.get(key) if snap.commit is not None else None
        if known is not None:
            return known
        stem = _claims.singular_of(word.lower())  # Decimals ~ decimal
        said = re.compile(rb"(?<![A-Za-z])" + re.escape(stem.encode()) + rb"(?:e?s)?(?![a-z])")
        paths = sorted(snap.paths(), key=lambda p: (not re.search(r"(?i)readme|docs?/|changes|history", p), p))
        found = False
        for p in paths:
            data = snap.read(p) or b""
            if len(data) > self.max_file_bytes or b"\0" in data[:8000]:
                continue
            lower = data.lower()
            if stem.encode() in lower and said.search(lower):
                found = True
                break
        if snap.commit is not None:
            self._mention_cache.put(key, found)
        return found

    def _neighbour(self, name: str, anchors: Iterable[Anchor], snap: Snapshot) -> bool:
        """Whether a file an anchor sits in defines ``name`` at its top level
        or in a class (``BadParameter`` beside an anchored ``UsageError``),
        or imports it (``const { HttpError } = require('http-errors')``)."""
        if name.lower() in _own_names(snap):
            return True  # Koa: the package's own name
        word = re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")
        imported = re.compile(rb"^[^\n]*\b(?:import|require)\b[^\n]*$|^\s*from\s[^\n]*$", re.M)
        for path in sorted({a.path for a in anchors if a.kind is AnchorKind.SYMBOL and a.path}):
            data = snap.read(path) or b""
            if not word.search(data):
                continue
            if self._defines(path, name, snap) or any(word.search(m.group(0)) for m in imported.finditer(data)):
                return True
            language = _code.language_for_path(path)
            blob = snap.blob_id(path)
            if language is not None and blob is not None:
                table = self._table(path, blob, language, snap)
                if not isinstance(table, str) and any(q.count(".") <= 1 and q.rsplit(".", 1)[-1] == name
                                                      for q in table.symbols):
                    return True
        if re.search(r"_|[a-z][A-Z]", name):
            # argParser, stop_after_delay: a name of code only, defined elsewhere in the repository
            needle = name.encode()
            for p, language in _code_files(snap):
                if _TEST_PATH.search(p):
                    continue  # a name only tests, examples or docs use is no name of the code
                data = snap.read(p) or b""
                if needle in data and word.search(data):
                    blob = snap.blob_id(p)
                    table = self._table(p, blob, language, snap) if blob is not None else ""
                    if not isinstance(table, str) and any(q.rsplit(".", 1)[-1].split("(")[0] == name
                                                          for q in table.symbols):
                        return True
        if re.fullmatch(r"[a-z]+", name):
            # `cli`: a plain word the claim writes as code, the name the project's examples give a program
            defined = re.compile(rb"(?:\bdef|\bfunction|\bclass)\s+" + re.escape(name.encode()) + rb"\s*\(")
            return any(_code.language_for_path(p) in CODE_LANGUAGES and defined.search(snap.read(p) or b"")
                       for p in snap.paths())
        return False

    def _call_fits(self, call: str, snap: Snapshot) -> bool:
        """Whether ``call`` fits a definition of its callee in the repository.

        A claim may show how a function it does not anchor is called
        (``Client(max_redirects=...)`` beside ``DEFAULT_MAX_REDIRECTS``):
        each definition of the callee (a class stands for its constructor)
        is bound as the call's only evidence, so its arguments must be
        placeholders, its parameters, or values it takes. Definitions in
        tests, examples and docs do not count.
        """
        call = re.sub(r"^(?:new\s+|@)", "", call)
        callee = call[: call.index("(")]
        last = callee.rsplit(".", 1)[-1]
        name = re.escape(last.encode())
        defined = re.compile(rb"(?:\bdef|\bclass|\bfunction)\s+" + name + rb"\b|(?<![\w$])" + name
                             + rb"\s*[:=]\s*(?:[\w$.]+\s*=\s*)*(?:async\s*)?(?:function\b|\()"
                             + rb"|^[ \t]*(?:(?:static|async)\s+)*" + name + rb"\s*\([^)\n]*\)\s*\{", re.M)
        term = _claims.Term(call, _claims.TermKind.CALL)
        for p, language in _code_files(snap):
            if _TEST_PATH.search(p):
                continue  # a test's fake (FakeResponse.prototype.setHeader) is no definition of the program's
            data = snap.read(p) or b""
            blob = snap.blob_id(p)
            if blob is None or not defined.search(data) or _text_problem(data, self.max_file_bytes):
                continue
            table = self._table(p, blob, language, snap)
            if isinstance(table, str):
                continue
            data = _code.as_utf8(data)
            found = {s.qualname: s for name in dict.fromkeys((callee, last)) for s in table.lookup(name)}
            if callee.startswith(".") or not found:  # .option(...): a method, of whichever class defines it
                found.update((q, s) for q, s in table.symbols.items() if q.rsplit(".", 1)[-1] == last
                             and s.kind == "method")
            for sym in found.values():
                ev = _claims.EvidenceText(f"{p}::{sym.qualname}", _span_text(data, sym.start_line, sym.end_line),
                                          (sym.qualname,), language)
                if not _claims.bind(call, [ev], terms=[term]):
                    return True
        return False

    def _imported_constant(self, number: str, anchors: Iterable[Anchor], snap: Snapshot) -> bool:
        """Whether ``number`` is written beside a name the anchored Python
        code takes from a module of the repository.

        Code says ``codes.found`` where a claim says 302: the anchored span
        uses ``codes.found``, the file has ``from .status_codes import
        codes``, and a line of ``status_codes.py`` holds both ``302`` and
        ``found``. One import deep, Python only; a number found that way
        binds.
        """
        wanted = _claims.number_value(number)
        if wanted is None:
            return False
        paths = set(snap.paths())
        for a in anchors:
            if a.kind not in (AnchorKind.SYMBOL, AnchorKind.FILE) or not a.path.endswith(".py"):
                continue
            data = snap.read(a.path) or b""
            if _text_problem(data, self.max_file_bytes):
                continue
            data = _code.as_utf8(data)
            source = data.decode("utf-8")
            span = source
            if a.kind is AnchorKind.SYMBOL:
                sym = self.cache.table(snap.blob_id(a.path) or a.blob_id, a.language, lambda: data).symbols.get(a.name)
                if sym is not None:
                    span = _span_text(data, sym.start_line, sym.end_line)
            used: dict[str, set[str]] = {}
            for obj, attr in re.findall(r"(?<![\w.])([A-Za-z_]\w*)\.([A-Za-z_]\w*)", span):
                used.setdefault(obj, set()).add(attr)
            for module, names in _IMPORT_FROM.findall(source):
                for name in re.findall(r"[A-Za-z_]\w*(?:\s+as\s+[A-Za-z_]\w*)?", names):
                    local = name.split()[-1]
                    if local not in used:
                        continue
                    for path in _module_paths(a.path, module, name.split()[0], paths):
                        text = (snap.read(path) or b"").decode("utf-8", errors="replace")
                        for line in text.splitlines():
                            if (any(re.search(rf"(?<![\w$]){re.escape(attr)}(?![\w$])", line) for attr in used[local])
                                    and wanted in _claims.numbers_in(line)):
                                return True
        return False

    def _defines(self, path: str, qualname: str, snap: Snapshot) -> bool:
        language = _code.language_for_path(path)
        blob = snap.blob_id(path)
        if language is None or blob is None:
            return False
        table = self._table(path, blob, language, snap)
        return not isinstance(table, str) and bool(table.lookup(qualname))

    # ================================================================ check

    def check(self, anchor: Anchor, snap: Snapshot, recorded_commit: str) -> AnchorCheck:
        """Check one recorded anchor at ``snap``; never raises for drift."""
        return self.check_many([(anchor, recorded_commit)], snap)[0]

    def check_many(self, items: Sequence[tuple[Anchor, str]], snap: Snapshot) -> list[AnchorCheck]:
        """Check ``(anchor, recorded commit)`` pairs at ``snap``, in order.

        The symbols missing from their paths are looked for together (see
        :mod:`memvet._moves`), in one search after the other checks; with
        parse helpers and :data:`PARALLEL_FILES` changed files or more,
        those whose file text no longer holds their name are searched while
        the helpers parse (see :meth:`_parse_ahead`), the rest after.
        Never raises for drift; an anchor that could not be checked is
        ``UNVERIFIABLE`` and the batch goes on.
        """
        out: list[AnchorCheck | None] = []
        lost: list[tuple[int, Lost]] = []
        at = snap.name if snap.commit is not None else None
        ahead: dict[int, AnchorCheck | Lost] = {}
        placed: dict[int, AnchorCheck] = {}
        if self.parse_workers > 0 and len(items) >= PARALLEL_FILES:
            self._parse_ahead(items, snap, at, ahead, placed)
        for i, (anchor, recorded_commit) in enumerate(items):
            if i in placed:  # missing, and looked for while helpers parsed
                out.append(placed[i])
                continue
            key = (anchor, recorded_commit, at) if at is not None else None
            found = self._checked.get(key) if key is not None else None
            if found is None:
                found = ahead[i] if i in ahead else self._check_one(anchor, snap, recorded_commit)
                if key is not None and isinstance(found, AnchorCheck) \
                        and found.result is not AnchorResult.UNVERIFIABLE:
                    self._checked.put(key, found)
            if isinstance(found, Lost):
                lost.append((len(out), found))
                out.append(None)
            else:
                out.append(found)
        if lost:
            for (i, _), check in zip(lost, self._find_moves([item for _, item in lost], snap), strict=True):
                out[i] = check
        return [c for c in out if c is not None]

    def _find_moves(self, lost: list[Lost], snap: Snapshot) -> list[AnchorCheck]:
        try:
            return self.moves.find(lost, snap)
        except MemvetError as exc:
            return [_unverifiable(item.anchor, exc) for item in lost]

    def _parse_ahead(self, items: Sequence[tuple[Anchor, str]], snap: Snapshot, at: str | None,
                     ahead: dict[int, AnchorCheck | Lost], placed: dict[int, AnchorCheck]) -> None:
        """Look up the symbols a batch will ask of changed files all at once,
        on helper processes as well as this one, when at least
        :data:`PARALLEL_FILES` files need a parse; the checks then find their
        answers cached. Only the common lookup is done ahead (a symbol of the
        current hasher, in a file changed since it was recorded); anything
        else, a file that is not text included, is left to the check itself.

        A symbol whose file is gone or no longer holds its name as a word
        is most likely missing: while the helpers parse, this process checks
        those (``ahead``, by item index) and runs the move search for the
        ones that are missing (``placed``), so that search, which helpers
        cannot share, overlaps their parses. A guess that was wrong costs
        nothing but the overlap: a symbol found after all is an ordinary
        check, and one missing that was not guessed is looked for after the
        batch, as without helpers.
        """
        changed: list[tuple[int, Anchor, str | None]] = []
        texts: dict[str, bytes | None] = {}
        for i, (anchor, recorded_commit) in enumerate(items):
            if anchor.kind is not AnchorKind.SYMBOL or not _code.hash_is_current(anchor.hash_version,
                                                                                 anchor.language):
                continue
            if at is not None and self._checked.get((anchor, recorded_commit, at)) is not None:
                continue
            try:
                blob = snap.blob_id(anchor.path)
                if blob is not None and blob != anchor.blob_id and snap.commit is None and anchor.path not in texts:
                    texts[anchor.path] = snap.read(anchor.path)  # a working-tree file: its failure is caught here
            except MemvetError:
                continue  # its check says why
            if blob != anchor.blob_id:
                changed.append((i, anchor, blob))
        if len({anchor.path for _, anchor, blob in changed if blob is not None}) < PARALLEL_FILES:
            return
        # The helpers start (about 0.2 s) while the files are read.
        with _workers.Helpers(self.parse_workers) as helpers:
            wanted: dict[tuple[str, str, str], list[str]] = {}
            likely_missing: list[int] = []
            for i, anchor, blob in changed:
                if anchor.path not in texts:  # a commit's file (reading it does not fail)
                    texts[anchor.path] = snap.read(anchor.path) if blob is not None else None
                data = texts[anchor.path]
                if data is None or not may_define(data, anchor):
                    likely_missing.append(i)
                elif blob is not None:
                    wanted.setdefault((blob, anchor.language, anchor.path), []).append(anchor.name)
            files = []
            for (blob, language, path), names in wanted.items():
                names = self.cache.missing(blob, language, names)
                data = texts[path] or b""
                if names and data and not _text_problem(data, self.max_file_bytes):
                    files.append((blob, language, data, names))
            if len(files) < PARALLEL_FILES:
                return

            def meanwhile() -> None:
                missing: list[tuple[int, Lost]] = []
                for i in likely_missing:
                    anchor, recorded_commit = items[i]
                    found = ahead[i] = self._check_one(anchor, snap, recorded_commit)
                    if isinstance(found, Lost):
                        missing.append((i, found))
                if missing:
                    moved = self._find_moves([item for _, item in missing], snap)
                    for (i, _), check in zip(missing, moved, strict=True):
                        placed[i] = check

            self.cache.look_up_many(files, helpers, meanwhile)

    def _check_one(self, anchor: Anchor, snap: Snapshot, recorded_commit: str) -> AnchorCheck | Lost:
        try:
            if anchor.kind is AnchorKind.SYMBOL:
                return self._check_symbol(anchor, snap, recorded_commit)
            if anchor.kind is AnchorKind.FILE:
                return self._check_file(anchor, snap, recorded_commit)
            if anchor.kind is AnchorKind.DEPENDENCY:
                return self._check_dependency(anchor, snap)
            return self._check_absent(anchor, snap)
        except MemvetError as exc:
            # Could not check (git failed, a manifest does not parse): this
            # one anchor is unverifiable and the batch goes on.
            return _unverifiable(anchor, exc)

    # ---------------------------------------------------------------- symbols

    def _table(self, path: str, blob: str, language: str, snap: Snapshot) -> _code.SymbolTable | str:
        """The table of ``path`` at ``snap``, or why it cannot be parsed.

        Only parseable content ever enters the cache, so a hit needs no check.
        """
        try:
            return self.cache.table(blob, language, self._loader(path, snap))
        except _Unparseable as exc:
            return str(exc)

    def _symbol(self, path: str, blob: str, language: str, name: str, snap: Snapshot,
                load: Callable[[], bytes] | None = None) -> SymbolHit | str:
        """One symbol of ``path`` at ``snap`` (hashing only its span on a
        miss) and whether the file has syntax errors, or why the file cannot
        be parsed. ``load`` gives the file's text when it was read already."""
        try:
            return self.cache.symbol(blob, language, name, load or self._loader(path, snap))
        except _Unparseable as exc:
            return str(exc)

    def unreadable(self, data: bytes) -> str:
        """Why ``data`` cannot be parsed as text (too large, binary, not
        UTF-8), or ``""``."""
        return _text_problem(data, self.max_file_bytes)

    def outline_at(self, path: str, language: str, snap: Snapshot) -> _code.SymbolTable | None:
        """The symbols of ``path`` at ``snap`` without their hashes (see
        :meth:`memvet._code.ParsedFile.outline`); None: absent or unparseable."""
        blob = snap.blob_id(path)
        if blob is None:
            return None
        try:
            return self.cache.outline(blob, language, self._loader(path, snap))
        except _Unparseable:
            return None

    def containing_at(self, path: str, language: str, words: Sequence[bytes], snap: Snapshot,
                      kind_ok: Callable[[str], bool] | None = None) -> list[_code.Symbol]:
        """At least the symbols of ``path`` at ``snap`` whose span holds every
        one of ``words`` and whose kind passes ``kind_ok`` (see
        :meth:`memvet._code.ParsedFile.containing`); empty when the file is
        absent or cannot be parsed."""
        blob = snap.blob_id(path)
        if blob is None:
            return []
        # The move search reaches only files that passed the text check (the
        # scan skips the others; an unparseable anchored file is unverifiable first).
        return self.cache.containing(blob, language, words, self._loader(path, snap), kind_ok)

    def symbol_at(self, path: str, language: str, qualname: str, snap: Snapshot) -> _code.Symbol | None:
        """One symbol of ``path`` at ``snap`` by exact qualified name (None:
        absent, or the file cannot be parsed)."""
        blob = snap.blob_id(path)
        if blob is None:
            return None
        found = self._symbol(path, blob, language, qualname, snap)
        return None if isinstance(found, str) else found[0]

    def _loader(self, path: str, snap: Snapshot) -> Callable[[], bytes]:
        def load() -> bytes:
            data = snap.read(path) or b""
            problem = _text_problem(data, self.max_file_bytes)
            if problem:
                raise _Unparseable(problem)
            return _code.as_utf8(data)

        return load

    def _baseline_hash(self, anchor: Anchor, recorded_commit: str) -> tuple[str, str] | str | None:
        """The recorded symbol's (hash, shape) under the current hasher.

        ``None`` when the recorded file cannot be read; a reason when it can
        but the current naming rules no longer give a symbol that name.
        """
        if _code.hash_is_current(anchor.hash_version, anchor.language):
            return anchor.body_hash, anchor.shape or anchor.body_hash
        then = recorded_file(self.git, anchor, recorded_commit)
        data = then.data
        if data is None:
            return None
        sym, _ = self.cache.symbol(then.blob_id, anchor.language, anchor.name, lambda: data)
        if sym is None:  # recorded under older naming rules: its bare name, if only one
            found = self.cache.table(then.blob_id, anchor.language, lambda: data).lookup(anchor.name)
            sym = found[0] if len(found) == 1 else None
        if sym is None:
            return (f"{anchor.spec}: recorded with hasher v{anchor.hash_version}; the naming rules of "
                    f"v{_code.HASH_VERSION} give no symbol that name in the recorded file (e.g. an "
                    "overload now named by its implementation, or a function now named by its "
                    "assignment); revalidate it")
        return sym.hash, sym.shape

    def symbol_lines(self, data: bytes, language: str, name: str) -> tuple[int, list[str]] | None:
        """Where symbol ``name`` starts in ``data`` and its lines (decorators
        to its last line), parsed through the symbol cache; ``None`` when it
        is not defined there or ``data`` is not text."""
        if not is_text(data):
            return None
        sym, _ = self.cache.symbol(str(pygit2.hash(data)), language, name, lambda: data)
        if sym is None:
            return None
        return sym.start_line, data.decode("utf-8").splitlines()[sym.start_line - 1: sym.end_line]

    def _check_symbol(self, a: Anchor, snap: Snapshot, recorded_commit: str) -> AnchorCheck | Lost:
        blob = snap.blob_id(a.path)
        if blob == a.blob_id:
            return AnchorCheck(a, AnchorResult.HOLDS, f"{a.spec}: file unchanged")
        baselines = self._baseline_hash(a, recorded_commit)
        if baselines is None:
            return AnchorCheck(
                a, AnchorResult.UNVERIFIABLE,
                f"{a.spec}: recorded with hasher v{a.hash_version} (now v{_code.HASH_VERSION}) and the "
                f"recorded commit {recorded_commit[:12]} is not in this history (shallow clone or "
                "rewritten history); revalidate it",
            )
        if isinstance(baselines, str):
            return AnchorCheck(a, AnchorResult.UNVERIFIABLE, baselines)
        baseline, shape = baselines
        if blob is not None:
            load = self._loader(a.path, snap)
            if _code.hash_is_current(a.hash_version, a.language) and self.cache.missing(blob, a.language, [a.name]):
                # About to parse: a file whose text cannot define the name
                # needs no parse to say so (see memvet._moves.may_define; at
                # 5,000 decisions on sqlalchemy, the files of its 141 missing
                # symbols). The text read here is the one parsed otherwise.
                try:
                    data = load()
                except _Unparseable:
                    pass  # not text: the lookup below says why
                else:
                    if not may_define(data, a, exact=True):
                        return Lost(a, recorded_commit, baseline, shape, file_exists=True)
                    load = lambda: data  # noqa: E731  # read once
            found = self._symbol(a.path, blob, a.language, a.name, snap, load)
            if isinstance(found, str):
                return AnchorCheck(a, AnchorResult.UNVERIFIABLE, f"{a.spec}: {a.path} is now {found}")
            sym, has_errors = found
            if sym is None:
                sym = self._follow(a, blob, snap)
            if sym is not None:
                # A span with a syntax error is hashed on its raw tokens
                # (memvet._code._tokens.raw_digest): equal only to itself.
                if sym.hash == baseline:
                    return AnchorCheck(a, AnchorResult.HOLDS, f"{a.spec}: body unchanged", line=sym.start_line)
                if a.quote:
                    return self._quote_check(a, snap, sym.start_line, sym.end_line)
                return body_changed(a, recorded_commit, sym)
            if has_errors and self._may_hide(a, load):
                return AnchorCheck(
                    a, AnchorResult.UNVERIFIABLE,
                    f"{a.spec}: {a.path} has syntax errors and {a.name} is not found in it; "
                    "it may only be hidden by the error",
                )
        return Lost(a, recorded_commit, baseline, shape, file_exists=blob is not None)

    @staticmethod
    def _may_hide(a: Anchor, load: Callable[[], bytes]) -> bool:
        """Whether a syntax error of the file may hide ``a``'s symbol: its
        name is written in the span the error sits in (see
        :func:`memvet._code._symbols.may_hide`; structured text: always)."""
        if a.language not in CODE_LANGUAGES:
            return True
        return may_hide(load(), a.language, a.name)  # read and parsed once already: it loads

    def _follow(self, a: Anchor, blob: str, snap: Snapshot) -> _code.Symbol | None:
        """The symbol ``a`` became in its own file when its exact name is
        gone: a new signature (see :func:`memvet._vanished.follow`). Parses the
        recorded and the current file in full, only on this rare path.

        A Python name of the current hasher without ``(`` or ``#`` carries
        no signature, so nothing can have followed it: no parse (in a cold
        check each deleted function cost two whole-file tables here).
        """
        if a.language == "python" and _code.hash_is_current(a.hash_version, a.language) and "(" not in a.name \
                and "#" not in a.name:
            return None
        data = self.git.blob_data(a.blob_id)
        if data is None or _text_problem(data, self.max_file_bytes):
            return None
        table = self._table(a.path, blob, a.language, snap)
        if isinstance(table, str):
            return None
        return _vanished.follow(self.cache.table(a.blob_id, a.language, lambda: data), table, a.name,
                                lambda: data, lambda: snap.read(a.path) or b"")

    def _quote_check(self, a: Anchor, snap: Snapshot, start_line: int, end_line: int) -> AnchorCheck:
        """A changed body (or file, ``end_line`` 0) judged by its quote: the
        claim rests on the quoted code, not on every line around it."""
        blob = snap.blob_id(a.path) or ""
        key = (blob, f"{a.name}\x00{start_line}\x00{end_line}\x00{a.quote}".encode())
        intact = self._contains_cache.get(key)
        if intact is None:
            data = snap.read(a.path) or b""
            problem = _text_problem(data, self.max_file_bytes)
            if problem:
                return AnchorCheck(a, AnchorResult.UNVERIFIABLE, f"{a.spec}: {a.path} is now {problem}")
            data = _code.as_utf8(data)
            text = data.decode("utf-8") if not end_line else _span_text(data, start_line, end_line)
            intact = _claims.find_quote(a.quote, text, _code.language_for_path(a.path))
            self._contains_cache.put(key, intact)
        what = "body" if end_line else "content"
        if intact:
            return AnchorCheck(a, AnchorResult.HOLDS, f"{a.spec}: {what} changed; {QUOTE_INTACT}",
                               line=start_line if end_line else 0)
        return AnchorCheck(
            a, AnchorResult.CHANGED,
            f"{a.spec}: the quoted evidence `{_clip(a.quote)}` is no longer in the {what}"
            + (f" (now lines {start_line}-{end_line})" if end_line else ""),
            line=start_line if end_line else 0,
        )

    # ---------------------------------------------------------------- files

    def _check_file(self, a: Anchor, snap: Snapshot, recorded_commit: str) -> AnchorCheck:
        blob = snap.blob_id(a.path)
        if blob == a.blob_id:
            return AnchorCheck(a, AnchorResult.HOLDS, f"{a.path}: unchanged")
        if blob is not None and a.quote:
            return self._quote_check(a, snap, 1, 0)
        if blob is not None:
            return AnchorCheck(a, AnchorResult.CHANGED, f"{a.path}: content changed since {recorded_commit[:8]}")
        for path in self.moves.candidate_paths(recorded_commit, snap, a.path)[0]:
            if snap.blob_id(path) == a.blob_id:
                return AnchorCheck(a, AnchorResult.MOVED, f"{a.path}: moved to {path}", new_path=path)
        return AnchorCheck(a, AnchorResult.MISSING, f"{a.path}: the file was deleted")

    # ---------------------------------------------------------------- dependencies

    def _declared(self, path: str, snap: Snapshot) -> list[_manifests.Declared]:
        blob = snap.blob_id(path)
        if blob is None:
            return []
        key = (blob, path.rsplit("/", 1)[-1])
        found = self._manifest_cache.get(key)
        if found is None:
            found = _manifests.declared(path, snap.read(path) or b"")
            self._manifest_cache.put(key, found)
        return found

    def _project_manifests(self, snap: Snapshot, folder: str) -> list[str]:
        """The manifests that count for a dependency anchor scoped to ``folder``:
        those of ``folder`` and of each folder above it up to the root,
        nearest first."""
        key = (snap.name, folder)
        if snap.commit is not None:  # a commit never changes; the working tree may between two reads
            cached = self._project_cache.get(key)
            if cached is not None:
                return cached
        rank = {home: i for i, home in enumerate(_folder_chain(folder))}
        found = [p for p in snap.paths() if _manifests.is_manifest(p) and _manifests.manifest_home(p) in rank]
        found.sort(key=lambda p: (rank[_manifests.manifest_home(p)], p))
        if snap.commit is not None:
            self._project_cache.put(key, found)
        return found

    def _find_declared(self, name: str, snap: Snapshot, manifests: list[str], first: str | None
                       ) -> tuple[str, _manifests.Declared] | None:
        """The first of ``manifests`` (``first`` before the others) declaring ``name``."""
        for path in sorted(manifests, key=lambda p: p != first):
            for decl in self._declared(path, snap):
                if decl.key == _dep_key(decl.ecosystem, name):
                    return path, decl
        return None

    def _declared_elsewhere(self, name: str, requirement: str, snap: Snapshot, counted: list[str]) -> str:
        """A hint naming the manifests outside ``counted`` that declare
        ``name`` and the anchor that would count them, or ``""``."""
        own: list[str] = []
        other: list[str] = []
        skip = set(counted)
        for path in snap.paths():
            if path in skip or not _manifests.is_manifest(path):
                continue
            try:
                decls = self._declared(path, snap)
            except _manifests.ManifestError as exc:
                log.debug("not looking for %s in %s: %s", name, path, exc)
                continue  # only a hint: a broken manifest that does not count is not the user's problem here
            if any(d.key == _dep_key(d.ecosystem, name) for d in decls):
                (other if _manifests.non_project_kind(path) else own).append(path)
        if not own and not other:
            return ""
        first = (own or other)[0]
        anchor = "dep:" + _manifests.format_dependency_spec(name, requirement, _manifests.manifest_home(first))
        if own:
            return (f"; {name} is declared in {', '.join(own[:3])}{' ...' if len(own) > 3 else ''}: "
                    f"name the package with {anchor} if the decision is about it")
        named = " and ".join(f"{p}, {_manifests.non_project_kind(p)}" for p in other[:2])
        return f"; {name} is declared only in {named}{' ...' if len(other) > 2 else ''}; " \
               f"name it with {anchor} if you mean it"

    def _check_dependency(self, a: Anchor, snap: Snapshot) -> AnchorCheck:
        manifests = self._project_manifests(snap, a.scope)
        found = self._find_declared(a.name, snap, manifests, a.path)
        if found is None:
            if _manifests.manifest_home(a.path) not in _folder_chain(a.scope):
                # Recorded before dependency anchors were scoped, from a
                # manifest that no longer counts: not evidence either way.
                return AnchorCheck(
                    a, AnchorResult.UNVERIFIABLE,
                    f"dependency {a.name} was recorded from {a.path}, outside the project's manifests "
                    f"({_where(a.scope)}); record it again as dep:"
                    f"{_manifests.format_dependency_spec(a.name, a.requirement, _manifests.manifest_home(a.path))}"
                    " if that folder is meant",
                )
            return AnchorCheck(
                a, AnchorResult.MISSING,
                f"dependency {a.name} is no longer declared {_where(a.scope)} "
                f"(was in {a.path}; {_looked(manifests)})"
                + self._declared_elsewhere(a.name, a.requirement, snap, manifests),
            )
        path, decl = found
        if not a.requirement:
            return AnchorCheck(a, AnchorResult.HOLDS, f"{a.name}: declared in {path}", line=decl.line)
        ok = _manifests.satisfies(decl, a.requirement)
        if ok is None:
            return AnchorCheck(
                a, AnchorResult.UNVERIFIABLE,
                f"{a.name}: declared as {decl.spec!r} in {path}; cannot tell whether it satisfies "
                f"{a.requirement}", line=decl.line,
            )
        if ok:
            return AnchorCheck(a, AnchorResult.HOLDS, f"{a.spec}: declared in {path}", line=decl.line)
        return AnchorCheck(
            a, AnchorResult.VIOLATED,
            f"dependency {a.name} is now declared as {decl.spec or 'unpinned'} in {path}, "
            f"which does not satisfy {a.requirement}", new_path=path, line=decl.line,
        )

    # ---------------------------------------------------------------- absence

    def _imports(self, path: str, language: str, snap: Snapshot) -> tuple[list[tuple[str, int]], str]:
        """The imports of a source file and how it was read: ``""`` (UTF-8),
        ``"Latin-1"`` (parsed after transcoding; lines are unchanged), or
        why it could not be read (``"unreadable: ..."``)."""
        blob = snap.blob_id(path)
        if blob is None:
            return [], ""
        key = (blob, language)
        found = self._import_cache.get(key)
        if found is None:
            data = snap.read(path) or b""
            if len(data) > MAX_SCAN_BYTES:
                found = ([], f"unreadable: {path} ({_mib(len(data))}, over the {_mib(MAX_SCAN_BYTES)} scan limit)")
            elif b"\x00" in data:
                found = ([], f"unreadable: {path} (a binary file, which cannot be parsed as {language})")
            else:
                text, how = _as_text(data)
                if how:
                    data = text.encode("utf-8")
                found = (_code.imports(data, language), how)
            self._import_cache.put(key, found)
        return found

    def _scope_paths(self, a: Anchor, snap: Snapshot) -> list[str]:
        """The paths an absence anchor covers (its scope checked again: a
        stored anchor may come from an import)."""
        scope = check_scope(a.scope)
        return list(snap.glob(scope))

    def _check_absent(self, a: Anchor, snap: Snapshot) -> AnchorCheck:
        """Whether nothing in scope imports or matches the target.

        Every file in scope is read: a non-UTF-8 file as Latin-1, a binary
        file byte by byte (pattern rules), a file far over the parse limit
        up to :data:`MAX_SCAN_BYTES`. A file that still cannot be read makes
        the rule ``unverifiable`` and is named, unless another file already
        breaks the rule. Nothing in scope passes silently.
        """
        mode, _, target = a.name.partition(":")
        where = f" in {a.scope}" if a.scope else ""
        unread: list[str] = []
        latin: list[str] = []
        if mode == "import":
            for path in self._scope_paths(a, snap):
                language = _code.language_for_path(path)
                if language is None:
                    continue
                found, how = self._imports(path, language, snap)
                if how.startswith("unreadable: "):
                    unread.append(how.removeprefix("unreadable: "))
                    continue
                if how:
                    latin.append(path)
                for module, line in found:
                    if _import_matches(module, target):
                        return AnchorCheck(
                            a, AnchorResult.VIOLATED,
                            f"{target} must stay absent{where}, but {path}:{line} imports {module}{_how(how)}",
                            new_path=path, line=line,
                        )
            subject = f"whether anything{where} imports {target}"
            holds = f"nothing{where} imports {target}"
        else:
            regex = _compile(target)
            wide = None if ("\\A" in target or "\\z" in target) else _compile(target, "(?m)")
            for path in self._scope_paths(a, snap):
                data = snap.read(path)
                if data is None:
                    continue
                if len(data) > MAX_SCAN_BYTES:
                    unread.append(f"{path} ({_mib(len(data))}, over the {_mib(MAX_SCAN_BYTES)} scan limit)")
                    continue
                text, how = _as_text(data)
                if how:
                    latin.append(path)
                lines = text.splitlines()
                # One linear pass over the whole file first: a line that
                # matches alone also matches in the joined text.
                if wide is not None and not wide.search("\n".join(lines)):
                    continue
                for number, line in enumerate(lines, start=1):
                    if regex.search(line):
                        return AnchorCheck(
                            a, AnchorResult.VIOLATED,
                            f"pattern {target!r} must stay absent{where}, but {path}:{number} matches{_how(how)}",
                            new_path=path, line=number,
                        )
            subject = f"whether anything{where} matches {target!r}"
            holds = f"nothing{where} matches {target!r}"
        if unread:
            return AnchorCheck(a, AnchorResult.UNVERIFIABLE,
                               f"cannot tell {subject}: could not read {len(unread)} file(s) in scope: "
                               f"{_listed(unread)}")
        if latin:
            holds += f" (read as Latin-1 or bytes, not being UTF-8: {_listed(latin)})"
        return AnchorCheck(a, AnchorResult.HOLDS, holds)


def _unverifiable(anchor: Anchor, exc: MemvetError) -> AnchorCheck:
    return AnchorCheck(anchor, AnchorResult.UNVERIFIABLE, f"{anchor.spec}: could not check: {exc}")


def _section(anchor: Anchor, found: Sequence[_manifests.Declared]) -> str:
    """The manifest section that declares a dependency anchor's package at its line (``devDependencies``,
    ``project.dependencies``), of the manifest's declarations ``found``."""
    return next((d.section for d in found if d.name == anchor.name and d.line == anchor.line),
                next((d.section for d in found if d.name == anchor.name), ""))
