"""The move search: where the symbols missing from their recorded paths went.

A symbol anchor whose name is gone from its path is looked for before it is
called deleted. The search runs once per batch (one ``check``, one recall),
for every missing anchor at once:

1. The candidate files are those changed between each anchor's recorded
   commit and the target (renames of the anchor's path first), of the
   anchor's language or its family (a JavaScript symbol may now be in a
   ``.ts`` or ``.tsx`` file, each parsed in its own language; see
   :data:`memvet._vanished.FAMILIES`), leaving out copies (see :func:`is_copy`).
2. One pass over each candidate blob with every word of every missing anchor
   (the segments of its qualified name and :data:`MARKERS` marker words of its
   recorded body) in one Aho-Corasick automaton tells which files can hold which
   anchor. Without it the cost was one read and one regular expression per
   (anchor, file): on sqlalchemy, 5 missing anchors over ~520 changed files
   took 3.75 s of a 4.1-4.9 s cold check.
3. Only the files that can hold an anchor are parsed, each once.

What counts as a move, in order:

* the same qualified name, of a compatible kind (see :func:`compatible_kinds`),
  in another file (a file move or split);
* the same body (or the same body under another name) in a file that holds
  the body's marker words;
* the same name up to privacy marks and export form, in the recorded
  file, the file it was renamed to, or a file of its path and stem added
  since under another extension (``src/Lexer.js::Tokenizer.lex`` ->
  ``src/Lexer.ts::_Tokenizer.#lex``, ``source/errors.js::module.exports.ReadError``
  -> ``source/errors.ts::ReadError``, as a migration to TypeScript writes
  them): the only such name, new there, its code at least half alike;
* the same method under a renamed class (``DirWatcher.onChange`` ->
  ``FolderWatcher.onChange``): the class is gone from the recorded file, the
  new class is new there and shares at least half of the old class's
  members; the body may have changed;
* a renamed symbol whose body also changed, in the same file or the file it
  was renamed to: a new name of the same kind and scope whose code tokens
  match the recorded body's at a ratio of at least
  :data:`RENAMED_SIMILARITY`, clearly ahead of any other candidate;
* what it became in the commit it disappeared in (:mod:`memvet._vanished`).
  That place is of an earlier commit: if it is gone at the target, the
  search runs again from that commit for it (at most :data:`MAX_HOPS`
  times), and a place deleted since reads missing, never "moved to" a
  place that no longer exists.

Anything else is missing (``refuted`` as deleted).

Copies are never where a symbol went. A repository holds code that is not
its own: builds (``dist/``, ``build/``, ``*.min.js``, ``*.bundle.js``,
``*.generated.*``), vendored packages (``vendor/``, ``third_party/``,
``node_modules/``, ``bower_components/``...), test data and fixtures
(``test/data/``, ``tests/fixtures/``, ``spec/fixtures/``,
``src/test/resources/``, ``testdata/``, ``__fixtures__/``, ``__snapshots__/``)
and whole-library copies: a JavaScript file named for a version
(``test/data/jquery-3.7.1.js``, ``libs/underscore-1.8.3.js``) or opening with
a preserved ``/*!`` licence banner that carries a version
(``/*! jQuery v3.7.1 | (c) OpenJS Foundation``), the comment minifiers and
bundlers keep on top of a build. Such a file holds old copies of the very
functions a project deletes: on jQuery 3.0.0 -> 4.0.0, nine functions deleted
from ``src/`` were all "found" in ``test/data/jquery-3.7.1.js``. The rule is
waived for an anchor recorded in such a file itself (a decision about a test
helper in ``test/data/`` may follow it to another file there).
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import ahocorasick_rs

from memvet import _code, _vanished
from memvet._cache import LRU
from memvet._code._java import split_signature
from memvet._errors import UnknownRevisionError
from memvet._git import Change, Snapshot
from memvet._model import Anchor, AnchorCheck, AnchorResult
from memvet._vanished import language_at
from memvet._vanished import tokens as _tokens
from memvet._words import IDENT, SPACE, has_word

if TYPE_CHECKING:
    import pygit2

    from memvet._cache import SymbolCache
    from memvet._git import GitRepo


class Evidence(Protocol):
    """What the move search needs from :class:`memvet._anchors.Evidence`
    (a protocol, so the two modules do not import each other)."""

    git: GitRepo
    cache: SymbolCache

    def unreadable(self, data: bytes) -> str: ...

    def symbol_at(self, path: str, language: str, qualname: str, snap: Snapshot) -> _code.Symbol | None: ...

    def outline_at(self, path: str, language: str, snap: Snapshot) -> _code.SymbolTable | None: ...

    def containing_at(self, path: str, language: str, words: Sequence[bytes], snap: Snapshot,
                      kind_ok: Callable[[str], bool] | None = None) -> list[_code.Symbol]: ...


__all__ = [
    "COPIES", "GENERATED", "MAX_HOPS", "RENAMED_SIMILARITY", "Lost", "MoveSearch", "body_changed", "compatible_kinds",
    "is_copy", "segments",
]

log = logging.getLogger(__name__)

#: Diffs (recorded commit -> target commit) a move search keeps. One diff
#: per commit the missing anchors of a check were recorded at; a diff over
#: 500 commits of sqlalchemy holds 699 ``Change`` values (160 KB), so 256
#: of them cover a check over decisions recorded at 256
#: commits at a bounded cost, and a process whose HEAD moves drops the
#: diffs to the targets it no longer checks.
CHANGES_CACHE = 256

#: First-parent lines (target commit -> recorded commit) one batch keeps:
#: at most :data:`memvet._vanished.MAX_WALK` commit objects each; a batch
#: over decisions recorded at more commits walks the oldest-kept ones again.
LINES_CACHE = 32


class _Lines(dict[tuple[str, str], "list[pygit2.Commit] | None"]):
    """The first-parent lines of one batch, at most :data:`LINES_CACHE` of
    them (the first kept is dropped first)."""

    def __setitem__(self, key: tuple[str, str], value: list[pygit2.Commit] | None) -> None:
        super().__setitem__(key, value)
        while len(self) > LINES_CACHE:
            del self[next(iter(self))]

#: Generated, vendored and bundled files: never where a symbol "moved" to.
GENERATED = re.compile(
    r"(^|/)(dist|build|node_modules|vendor|third_party|\.venv|site-packages)/"
    r"|\.min\.(js|css)$|\.bundle\.js$|(^|/)[^/]*\.generated\.[^/]+$"
)

#: Code kept in the repository that is not the project's own: vendored
#: packages, test data and fixtures, versioned whole-library builds, and
#: TypeScript declaration files (``index.d.ts``, ``index.d.cts``: the
#: signatures of code that lives elsewhere, no body a function can move to).
COPIES = re.compile(
    r"(^|/)(vendor|vendors|vendored|_vendor|third_party|third-party|thirdparty|bower_components"
    r"|jspm_packages|testdata|__fixtures__|__snapshots__)/"
    r"|(^|/)(test|tests|spec|specs|__tests__)/(data|fixtures?|resources)/"
    r"|(^|/)[A-Za-z][A-Za-z0-9_.]*-v?\d+(\.\d+)+[A-Za-z0-9.-]*\.(m?js|cjs)$"
    r"|\.d\.[cm]?ts$"
)
#: The preserved licence banner of a JavaScript build, with a version:
#: ``/*! jQuery v3.7.1 | ...`` or ``/*!\n * Vue.js v2.6.14``.
_BANNER = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*/\*!(?:[^*]|\*(?!/)){0,200}?\bv?\d+\.\d+\.\d+")
_JS_BANNER_LANGUAGES = frozenset({"javascript", "typescript", "tsx"})

#: Kinds one symbol can keep across a move; any other kind under the same
#: name is another thing (``var Route = express.Route`` is not ``function Route``).
_KIND_GROUPS: tuple[frozenset[str], ...] = (
    frozenset({"function", "method", "constructor"}),
    frozenset({"class", "interface", "struct", "enum", "trait", "type", "record", "namespace", "module",
               "annotation"}),
    frozenset({"const", "variable", "static", "field"}),
    frozenset({"key", "table"}),
)
#: A JavaScript constructor function that became a ``class`` is the same thing.
_JS_LANGUAGES = frozenset({"javascript", "typescript", "tsx"})

#: How alike (difflib ratio over code tokens) a renamed symbol's changed body
#: must be to the recorded one to count as the same symbol.
RENAMED_SIMILARITY = 0.85
#: How far the best renamed candidate must lead the next one.
RENAMED_MARGIN = 0.1
#: Bodies shorter than this many tokens are too small to recognize once renamed and changed.
RENAMED_MIN_TOKENS = 20
#: The share of the old class's members a renamed class must keep.
CLASS_OVERLAP = 0.5
#: How many times a symbol is followed from a place it went to that went since.
MAX_HOPS = 3
#: Marks a name takes or drops when it becomes private or public
#: (``lex`` -> ``#lex``, ``Tokenizer`` -> ``_Tokenizer``).
_PRIVACY = "_#"
#: Languages whose overloads name a function by its signature (see MoveSearch._overloaded).
_OVERLOADED = frozenset({"typescript", "tsx"})
#: The CommonJS export prefixes an ES module's names do not have.
_EXPORTS = ("module.exports.", "exports.")
#: The name of a CommonJS module's default export.
_DEFAULT_EXPORT = "module.exports"
#: Languages whose names take privacy marks.
_MARKED_LANGUAGES = frozenset({"python", "javascript", "typescript", "tsx"})

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Whole words only: the scan matches markers as whole words, so a piece
# of one (``xFFFF`` of ``0xFFFF``, ``elem`` of ``$elem``) would never match.
_MARKER = re.compile(rb"(?<![A-Za-z0-9_$])[A-Za-z_][A-Za-z0-9_]{3,}(?![A-Za-z0-9_$])")
#: Marker words a same-body candidate file must hold (the longest of the
#: recorded body's): each one more skips more files without a parse, and a
#: file with the same body holds them all.
MARKERS = 6
_CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "trait", "record", "type", "namespace"})


@functools.lru_cache(maxsize=65536)
def is_copy(path: str) -> bool:
    """Whether ``path`` is, by its name, a build or a copy of other code
    (never a move target; see the module docstring). Remembered: every
    missing anchor asks about every changed file (91,076 calls for 141
    anchors on sqlalchemy)."""
    return bool(GENERATED.search(path) or COPIES.search(path))


def is_build(data: bytes, language: str) -> bool:
    """Whether a JavaScript/TypeScript file opens with a versioned ``/*!``
    licence banner, the mark of a whole-library build."""
    return language in _JS_BANNER_LANGUAGES and _BANNER.match(data[:400]) is not None


def compatible_kinds(recorded: str, found: str, language: str) -> bool:
    """Whether a symbol of kind ``found`` can be the recorded symbol of kind
    ``recorded`` after a move: the same kind, or kinds of one group
    (callables; types; values; structured keys). In JavaScript/TypeScript a
    function and a class are one group too (a constructor function rewritten
    as a class). An unknown recorded kind (an old record) accepts any."""
    if not recorded or not found or recorded == found:
        return True
    if language in _JS_LANGUAGES and {recorded, found} == {"function", "class"}:
        return True
    return any(recorded in group and found in group for group in _KIND_GROUPS)




def defines(data: bytes, name: bytes, top: bool = False) -> bool:
    """Whether ``data`` writes ``name`` right after the keyword ``def`` or
    ``class`` (whitespace between; the keyword a whole word: in
    ``@dataclasses.dataclass\\n class A`` the first "class" is not one), and
    with ``top``, in such a statement that is not inside another ``def`` or
    ``class`` (see :func:`_at_top`).

    Looks backwards from each whole-word occurrence of ``name``, which is
    rare, instead of running an expression at every position: on the ~340
    candidate files of a sqlalchemy cold check the expression took 0.22 s.
    """
    at = data.find(name)
    while at >= 0:
        end = at + len(name)
        if end == len(data) or data[end] not in IDENT:
            i = at
            while i > 0 and data[i - 1] in SPACE:
                i -= 1
            if i < at:
                for keyword in (b"def", b"class"):
                    start = i - len(keyword)
                    if start >= 0 and data[start:i] == keyword and (start == 0 or data[start - 1] not in IDENT) \
                            and (not top or _at_top(data, start)):
                        return True
        at = data.find(name, at + 1)
    return False


_HEADERS = (b"def ", b"def\t", b"async ", b"class ", b"class\t")


def _at_top(data: bytes, keyword: int) -> bool:
    """Whether the ``def``/``class`` keyword at offset ``keyword`` is outside
    every other definition: written at the start of a line, or only under
    module-level blocks (``if``, ``try``, ``with``...). Judged by indentation
    (each nearest less-indented line above): a definition counts as nested
    only when such a line is plainly a ``def`` or ``class`` header, so text
    the lines cannot tell about (strings, continuations) counts as top-level.
    A move candidate is skipped on this, so it errs on the side of a parse.
    """
    line_start = data.rfind(b"\n", 0, keyword) + 1
    head = data[line_start:keyword]
    if head.strip(b" \t") not in (b"", b"async"):
        return True  # not the first word of its line (``x = 1; class A``): cannot tell
    indent = len(head) - len(head.lstrip(b" \t"))
    end = line_start - 1
    while indent > 0 and end > 0:
        start = data.rfind(b"\n", 0, end) + 1
        line = data[start:end]
        end = start - 1
        text = line.lstrip(b" \t")
        if not text or text.startswith(b"#"):
            continue
        width = len(line) - len(text)
        if width < indent:
            if text.startswith(_HEADERS) and (not text.startswith(b"async ") or text[6:].lstrip().startswith(b"def")):
                return False
            indent = width
    return True


def segments(name: str) -> list[str]:
    """The segments of a qualified name, without parameters, quotes or the
    keywords a JS/TS member's segment starts with (``static get rules`` is
    ``rules``: the source may write ``static async`` or ``static readonly``)."""
    return [_KEYWORDS.sub("", seg).strip('"') for seg in name.split("(", 1)[0].split(".") if seg.strip('"')]


_KEYWORDS = re.compile(r"^(?:(?:static|get|set) )+")


def may_define(data: bytes, anchor: Anchor, exact: bool = False) -> bool:
    """Whether ``data`` may define ``anchor``'s symbol: it holds the name's
    last segment as a word and, in Python, writes each segment that is a
    function or a class (every enclosing one, and the last unless the
    symbol is a variable) after ``def`` or ``class``, the outermost at the
    top of the file (by indentation, see :func:`defines`). ``False`` means
    the symbol is not there; ``True`` only that a parse must tell.

    With ``exact`` the answer decides a check without a parse, so only the
    rules that cannot err are used: no indentation rule, and ``True`` for
    any name that is not plain identifiers (a signature, a ``#2``
    duplicate, a computed or quoted key), which a parse must read.
    """
    segs = segments(anchor.name)
    if not segs:
        return True
    if exact and ("(" in anchor.name or "#" in anchor.name
                  or not all(_PLAIN.fullmatch(seg) for seg in segs)):
        return True
    if not has_word(data, [segs[-1].encode()]):
        return False
    if anchor.language != "python":
        return True
    scopes = segs if anchor.symbol_kind in ("function", "class", "method") else segs[:-1]
    return all(defines(data, seg.encode(), top=j == 0 and not exact) for j, seg in enumerate(scopes))


_PLAIN = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


@dataclass(frozen=True)
class Lost:
    """A symbol anchor not found at its path: what the move search needs.

    Attributes:
        anchor: The recorded anchor.
        recorded_commit: The commit its decision was recorded at.
        baseline: The recorded body hash under the current hasher.
        shape: The recorded rename-independent hash.
        file_exists: Whether the anchored file is still there.
    """

    anchor: Anchor
    recorded_commit: str
    baseline: str
    shape: str
    file_exists: bool


@dataclass
class _Wanted:
    """One missing anchor's words and what the scan found for it."""

    lost: Lost
    names: list[int]  # word ids every segment of the name needs
    # Python: each segment must be a def or class, the first at the top: (segment, at the top).
    python_defs: list[tuple[bytes, bool]]
    markers: list[int]  # word ids of the body's marker words
    marker_words: list[bytes]  # the marker words themselves
    leaf: int  # word id of the last segment
    skip_builds: bool = True  # leave out files with a build banner (see is_build)
    old: _code.SymbolTable | None = None  # the recorded file's outline (None: unreadable)
    candidates: list[str] = field(default_factory=list)
    renamed_to: list[str] = field(default_factory=list)
    migrated_to: list[str] = field(default_factory=list)  # added files of its path and stem, another extension
    added: set[str] = field(default_factory=set)
    same_name: list[str] = field(default_factory=list)
    same_body: list[str] = field(default_factory=list)
    same_leaf: list[str] = field(default_factory=list)


class MoveSearch:
    """Finds where missing symbols went, for a batch of them at once.

    Args:
        evidence: The evidence engine (repository, symbol cache, readers).
    """

    def __init__(self, evidence: Evidence) -> None:
        self.evidence = evidence
        # Diffs by (recorded commit, target commit), each in a 1-tuple (a
        # commit not in the history is kept too, as (None,)); bounded, since
        # a long-running process checks at each new HEAD (see CHANGES_CACHE).
        self._changes: LRU[tuple[str, str], tuple[list[Change] | None]] = LRU(CHANGES_CACHE)
        # Results at a commit never change (content addressed on both ends);
        # the working tree's are computed afresh.
        self._found: LRU[tuple[str, ...], AnchorCheck] = LRU(16384)
        # First-parent lines walked by the last rule, for one batch.
        self._lines = _Lines()
        self.scanned = 0  # candidate blobs read by the word scan (for tests and benchmarks)
        self._hops = 0  # how deep the follow of a place that went since is (see _still_there)

    # ------------------------------------------------------------------ entry

    def find(self, lost: Sequence[Lost], snap: Snapshot) -> list[AnchorCheck]:
        """One check per missing anchor: ``MOVED`` with where it went, or ``MISSING``.

        Raises:
            MemvetError: git failed while listing or reading the candidates.
        """
        out: list[AnchorCheck | None] = []
        todo: list[tuple[int, Lost]] = []
        for i, item in enumerate(lost):
            key = self._key(item, snap)
            hit = self._found.get(key) if key else None
            out.append(hit)
            if hit is None:
                todo.append((i, item))
        if todo:
            for (i, item), check in zip(todo, self._search([t for _, t in todo], snap), strict=True):
                out[i] = check
                key = self._key(item, snap)
                if key:
                    self._found.put(key, check)
        return [c for c in out if c is not None]

    @staticmethod
    def _key(item: Lost, snap: Snapshot) -> tuple[str, ...] | None:
        if snap.commit is None:
            return None
        a = item.anchor
        return (a.path, a.name, a.language, a.blob_id, item.baseline, item.recorded_commit, snap.name)

    # ------------------------------------------------------------------ candidates

    def changes(self, recorded_commit: str, snap: Snapshot) -> list[Change] | None:
        """Files changed since the recorded commit (None: the commit is not in
        this history). Kept per (commit, commit) pair only: the working tree
        moves on while a process lives, so its diff is taken afresh."""
        key = (recorded_commit, snap.name)
        kept = self._changes.get(key) if snap.commit is not None else None
        if kept is not None:
            return kept[0]
        try:
            found: list[Change] | None = self.evidence.git.changes(recorded_commit, snap)
        except UnknownRevisionError:
            found = None
        if snap.commit is not None:
            self._changes.put(key, (found,))
        return found

    def candidate_paths(self, recorded_commit: str, snap: Snapshot, path: str
                        ) -> tuple[list[str], list[str], set[str]]:
        """Where ``path``'s content may have gone: every candidate (rename
        targets first, then every file changed since the recorded commit, or
        every file when the commit is not in the history), the rename
        targets, and the files added since; copies left out (by name, see
        :func:`is_copy`) unless ``path`` is one itself."""
        changes = self.changes(recorded_commit, snap)
        added: set[str] = set()
        if changes is None:
            listed = [p for p in snap.paths() if p != path]
            renamed: list[str] = []
        else:
            renamed = [c.new_path for c in changes if c.kind == "renamed" and c.old_path == path]
            rest = [c.new_path for c in changes
                    if c.kind in ("added", "modified", "renamed") and c.new_path != path
                    and c.new_path not in renamed]
            listed = renamed + rest
            added = {c.new_path for c in changes if c.kind == "added"}
        if is_copy(path):
            return listed, renamed, added
        return [p for p in listed if not is_copy(p)], [p for p in renamed if not is_copy(p)], added

    # ------------------------------------------------------------------ search

    def _search(self, lost: list[Lost], snap: Snapshot) -> list[AnchorCheck]:
        if not self._hops:  # a nested search (a later hop) shares the batch's lines
            self._lines.clear()
        words: dict[str, int] = {}

        def word_ids(texts: list[str]) -> list[int]:
            return [words.setdefault(w, len(words)) for w in texts]

        # Anchors of one recorded file one after another: its parse (for its
        # outline and the body markers) is kept between them.
        order = sorted(range(len(lost)), key=lambda i: (lost[i].anchor.blob_id, i))
        wanted: list[_Wanted] = []
        # Each missing anchor filters the same few hundred changed paths by language.
        language_of: dict[str, str | None] = {}
        for item in (lost[i] for i in order):
            a = item.anchor
            recorded = self.evidence.git.blob_data(a.blob_id)
            if recorded is not None:
                recorded = None if self.evidence.unreadable(recorded) else _code.as_utf8(recorded)
            # Outlined once while its parse is kept: the markers' lines now,
            # the last rules' names later.
            old = None if recorded is None else self._recorded_outline(a, recorded)
            segs = segments(a.name)
            name_words = [w for seg in segs for w in _WORD.findall(seg)]
            leaf_words = _WORD.findall(segs[-1]) if segs else []
            markers = self._body_markers(a, recorded, old)
            w = _Wanted(
                item,
                names=word_ids(name_words),
                python_defs=[(seg.encode(), j == 0) for j, seg in enumerate(segs)]
                if a.language == "python" else [],
                markers=word_ids(markers),
                marker_words=[m.encode() for m in markers],
                leaf=word_ids(leaf_words[-1:] or [a.name])[0],
                skip_builds=not is_copy(a.path) and not (recorded is not None and is_build(recorded, a.language)),
                old=old,
            )
            w.candidates, w.renamed_to, w.added = self.candidate_paths(item.recorded_commit, snap, a.path)
            for p in w.candidates:
                if p not in language_of:
                    language_of[p] = _code.language_for_path(p)
            # A file of another language of the family may hold it (``x.js`` -> ``x.ts``).
            w.candidates = [p for p in w.candidates if language_of[p] == a.language
                            or language_at(p, a.language) is not None]
            stem = _stem(a.path)
            w.migrated_to = [p for p in w.candidates if p in w.added and p not in w.renamed_to and _stem(p) == stem]
            wanted.append(w)
        found, builds, defined = self._scan(wanted, words, snap)
        for w in wanted:
            need_name = set(w.names)
            need_body = set(w.markers)
            for path in w.candidates:
                hits = found.get(path)
                if not hits or (w.skip_builds and path in builds):
                    continue
                if need_name <= hits and (not w.python_defs or set(w.python_defs) <= defined.get(path, set())):
                    w.same_name.append(path)
                if need_body and need_body <= hits:  # no words to look for: too small to chase
                    w.same_body.append(path)
                if w.leaf in hits:
                    w.same_leaf.append(path)
        out: list[AnchorCheck | None] = [None] * len(lost)
        for i, w in zip(order, wanted, strict=True):
            out[i] = self._resolve(w, snap)
        return [check for check in out if check is not None]

    def _scan(self, wanted: list[_Wanted], words: dict[str, int], snap: Snapshot
              ) -> tuple[dict[str, set[int]], set[str], dict[str, set[tuple[bytes, bool]]]]:
        """Which words each candidate file holds as whole words (one pass
        over each blob with every word at once), which candidates are
        whole-library builds by their banner, and, for a Python file that
        holds every word of a wanted name, the names it writes after ``def``
        or ``class``, as ``(name, at the top)`` (every segment of a Python
        qualified name is a function or a class, so a file that only calls
        the function is not parsed)."""
        paths = list(dict.fromkeys(p for w in wanted for p in w.candidates))
        found: dict[str, set[int]] = {}
        builds: set[str] = set()
        defined: dict[str, set[tuple[bytes, bool]]] = {}
        if not paths or not words:
            return found, builds, defined
        python_names = [(set(w.names), w.python_defs) for w in wanted if w.python_defs]
        patterns = [w.encode() for w in words]
        automaton = ahocorasick_rs.BytesAhoCorasick(patterns, implementation=ahocorasick_rs.Implementation.DFA)
        for path in paths:
            data = snap.read(path)
            if data is None or self.evidence.unreadable(data):
                continue
            data = _code.as_utf8(data)  # the text as parsed: a name written in Latin-1 matches too
            self.scanned += 1
            if is_build(data, _code.language_for_path(path) or ""):
                builds.add(path)
            hits: set[int] = set()
            end_of = len(data)
            for idx, start, end in automaton.find_matches_as_indexes(data, overlapping=True):
                if idx in hits:
                    continue
                if (start == 0 or data[start - 1] not in IDENT) and (end == end_of or data[end] not in IDENT):
                    hits.add(idx)
            if hits:
                found[path] = hits
                segs = {seg for names, defs in python_names if names <= hits for seg in defs}
                if segs:
                    defined[path] = {(seg, top) for seg, top in segs if defines(data, seg, top=top)}
        return found, builds, defined

    def _body_markers(self, a: Anchor, data: bytes | None, old: _code.SymbolTable | None) -> list[str]:
        """The :data:`MARKERS` longest words of the recorded symbol's code (its own
        name, comments and docstrings left out; ``data`` is the recorded
        file, ``old`` its outline): the same body under another name holds
        all of them, so other files are skipped without parsing."""
        sym = None if data is None or old is None else old.symbols.get(a.name)
        if data is None or sym is None:
            return []
        found: set[bytes] = set()
        in_docstring = False
        for line in data.splitlines()[sym.start_line - 1 : sym.end_line]:
            text = line.strip()
            quotes = text.count(b'"""') + text.count(b"'''")
            if in_docstring or quotes:
                in_docstring = in_docstring != (quotes % 2 == 1)
                continue
            if text.startswith((b"#", b"//", b"/*", b"*")):
                continue
            # A trailing comment is not code (cut at the first mark: a
            # string holding one only loses words, never adds a wrong one).
            found.update(_MARKER.findall(text.split(b"#" if a.language == "python" else b"//", 1)[0]))
        found -= {w.encode() for seg in segments(a.name) for w in _WORD.findall(seg)}
        return [w.decode() for w in sorted(found, key=lambda w: (-len(w), w))[:MARKERS]]

    # ------------------------------------------------------------------ verdicts

    def _resolve(self, w: _Wanted, snap: Snapshot) -> AnchorCheck:
        if self._hops:  # a later hop (see _still_there): only where it went
            return self._place(w, snap)
        return self._new_signature(w, self._place(w, snap), snap)

    def _new_signature(self, w: _Wanted, check: AnchorCheck, snap: Snapshot) -> AnchorCheck:
        """A "move" to the same name in the same scope of the same file is
        the symbol itself with a new signature, and reads as its own file's
        follow does (:func:`memvet._vanished.follow`): changed. The move search
        reaches it when that follow could not choose, as when several
        overloads of a visitor changed their parameter types in one commit
        (pmd's ``visit(ASTInterfaceDeclaration,Object)`` became
        ``visit(ASTClassOrInterfaceDeclaration,Object)``): the truth is a
        changed method, not a moved one."""
        a = w.lost.anchor
        if (a.language != "java" or check.result is not AnchorResult.MOVED or check.new_path != a.path
                or check.new_name in ("", a.name)):
            return check  # only Java names carry a signature (a Markdown heading may end in parentheses)
        was, now = split_signature(a.name), split_signature(check.new_name)
        if was is None or now is None or was[0] != now[0]:
            return check
        sym = self.evidence.symbol_at(a.path, a.language, check.new_name, snap)
        if sym is None:  # not there after all (a place gone since reads MISSING first: see _still_there)
            return check
        # The declaration is hashed with its parameters: never the same hash.
        return body_changed(a, w.lost.recorded_commit, sym)

    def _place(self, w: _Wanted, snap: Snapshot) -> AnchorCheck:
        """Where a missing symbol went (``MOVED``), or ``MISSING``."""
        item = w.lost
        a = item.anchor
        for path in w.same_name:
            found = self.evidence.symbol_at(path, _in(path, a), a.name, snap) or self._overloaded(path, a, snap)
            if (found is not None and compatible_kinds(a.symbol_kind, found.kind, a.language)
                    and not self._existed(path, found.qualname, item)):
                also = "" if found.hash == item.baseline else " (and its body changed)"
                there = path if found.qualname == a.name else f"{path}::{found.qualname}"
                return AnchorCheck(
                    a, AnchorResult.MOVED, f"{a.spec}: moved from {a.path} to {there}{also}",
                    new_path=path, new_name=found.qualname, line=found.start_line,
                )
        for path in ([a.path] if item.file_exists else []) + w.same_body:
            # Only spans holding the body's marker words can hold the body.
            spans = self.evidence.containing_at(path, _in(path, a), w.marker_words, snap,
                                                lambda kind: compatible_kinds(a.symbol_kind, kind, a.language))
            alike = [sym for sym in spans if item.shape in (sym.hash, sym.shape)] or [
                sym for sym in spans if item.baseline in (sym.hash, sym.shape)]
            for sym in alike:
                if self._existed(path, sym.qualname, item):
                    continue
                return AnchorCheck(
                    a, AnchorResult.MOVED,
                    f"{a.spec}: moved from {a.path}::{a.name} to {path}::{sym.qualname} (same body)",
                    new_path=path, new_name=sym.qualname, line=sym.start_line,
                )
        old = w.old
        if old is not None:
            close = (self._private_twin(w, old, snap) or self._renamed_class(w, old, snap)
                     or self._renamed_and_changed(w, old, snap) or self._in_vanishing_commit(w, old, snap))
            if close is not None:
                return close
        if item.file_exists:
            detail = f"{a.spec}: {a.name} is no longer defined in {a.path} and was not found elsewhere"
        else:
            detail = f"{a.spec}: {a.path} was deleted and {a.name} was not found elsewhere"
        return AnchorCheck(a, AnchorResult.MISSING, detail)

    def _overloaded(self, path: str, a: Anchor, snap: Snapshot) -> _code.Symbol | None:
        """In a TypeScript file, the one symbol whose name without
        signatures is ``a``'s: a function that took overload signatures in a
        migration is named by its implementation's parameter types, and so
        is every function nested in it (redux's ``createStore.getState``
        became ``createStore(Reducer<S,A>,...).getState``)."""
        language = _in(path, a)
        if language not in _OVERLOADED:
            return None
        table = self.evidence.outline_at(path, language, snap)
        hits = [] if table is None else table.lookup(a.name)
        if len(hits) != 1:
            return None
        return self.evidence.symbol_at(path, language, hits[0].qualname, snap)

    def _existed(self, path: str, qualname: str, item: Lost) -> bool:
        """Whether ``path`` already defined ``qualname`` at the recorded
        commit: such a symbol is not where the recorded one went, it was
        beside it all along. On commons-io, ``CopyUtils.copy`` checked before
        it was created as a copy of ``IOUtils.copy`` was "moved" to
        ``IOUtils.copy`` by its body, and the deprecated ``EndianUtil.read``
        kept beside its copy ``EndianUtils.read`` took it the same way."""
        if not self.evidence.git.has_commit(item.recorded_commit):
            return False  # not in this history: nothing to compare with
        table = self.evidence.outline_at(path, _in(path, item.anchor),
                                         self.evidence.git.snapshot(item.recorded_commit))
        return table is not None and qualname in table.symbols

    def _in_vanishing_commit(self, w: _Wanted, old: _code.SymbolTable, snap: Snapshot) -> AnchorCheck | None:
        """What the symbol became in the commit it disappeared in (see
        :mod:`memvet._vanished`): the last rule, run only for an anchor no
        other rule placed."""
        item = w.lost
        a = item.anchor
        if not self.evidence.git.has_commit(item.recorded_commit):
            return None
        where = _vanished.vanishing(self.evidence, a, item.recorded_commit, snap, old, self._lines,
                                    may_hold=lambda data: may_define(data, a))
        if where is None:
            return None
        changes = self.changes(where.before.name, where.after)
        if not changes:
            return None
        kind = a.symbol_kind or where.symbol.kind
        anywhere = is_copy(a.path)
        found = _vanished.became(
            self.evidence, a, where, changes,
            kind_ok=lambda k: compatible_kinds(kind, k, a.language),
            same_group=lambda one, two: compatible_kinds(one, two, a.language),
            path_ok=lambda p: anywhere or not (is_copy(p) or is_build(where.after.read(p) or b"", a.language)),
            recorded_snap=self.evidence.git.snapshot(item.recorded_commit),
        )
        if found is None:
            return None
        signals = ["the same name"] if found.same_name else []
        if found.calls:
            plural = "s" if found.calls > 1 else ""
            signals.append(f"{found.calls} call{plural} of it replaced by calls of the new name")
        at = "the working tree" if where.after.commit is None else f"commit {found.commit[:8]}"
        moved = (f"{a.spec}: moved from {a.path}::{a.name} to {found.path}::{found.symbol.qualname} in {at} "
                 f"({' and '.join(signals)}; {found.similarity:.0%} of its code alike)")
        if where.after.commit is None or where.after.name == snap.name:
            return AnchorCheck(a, AnchorResult.MOVED, moved, new_path=found.path, new_name=found.symbol.qualname,
                               line=found.symbol.start_line)
        return self._still_there(a, found, where.after, moved, snap)

    def _still_there(self, a: Anchor, found: _vanished.Became, at: Snapshot, moved: str, snap: Snapshot
                     ) -> AnchorCheck:
        """Where a symbol is at ``snap`` that went to ``found`` in an earlier
        commit ``at``: there, if that place still holds it; else wherever
        the place went since (the move search again, from ``at``, at most
        :data:`MAX_HOPS` times); else ``MISSING``. A place deleted since is
        not where the symbol is: the decision is refuted as any deletion is."""
        language = _in(found.path, a)
        qualname = found.symbol.qualname
        now = self.evidence.symbol_at(found.path, language, qualname, snap)
        if now is not None:
            return AnchorCheck(a, AnchorResult.MOVED, moved, new_path=found.path, new_name=qualname,
                               line=now.start_line)
        then = self.evidence.symbol_at(found.path, language, qualname, at)
        blob = at.blob_id(found.path)
        later: AnchorCheck | None = None
        if then is not None and blob is not None and self._hops < MAX_HOPS:
            hop = dataclasses.replace(a, path=found.path, name=qualname, language=language, symbol_kind=then.kind,
                                      body_hash=then.hash, shape=then.shape, hash_version=_code.HASH_VERSION,
                                      blob_id=blob, line=then.start_line, quote="")
            self._hops += 1
            try:
                (later,) = self._search([Lost(hop, at.name, then.hash, then.shape,
                                              file_exists=snap.blob_id(found.path) is not None)], snap)
            finally:
                self._hops -= 1
        gone = f"{found.path}::{qualname}"
        if later is not None and later.result is AnchorResult.MOVED:
            then_detail = later.detail.removeprefix(f"{gone}: ")  # the hop's own spec: said already
            return AnchorCheck(
                a, AnchorResult.MOVED,
                f"{moved}; then {then_detail}",
                new_path=later.new_path, new_name=later.new_name, line=later.line,
            )
        return AnchorCheck(
            a, AnchorResult.MISSING,
            f"{a.spec}: {a.name} went to {gone} in commit {at.name[:8]}, "
            f"and {gone} no longer exists at {snap.name[:8]} and was not found elsewhere",
        )

    def _recorded_outline(self, a: Anchor, data: bytes) -> _code.SymbolTable:
        """The recorded file's symbols without hashes (``data``: its text,
        read and found readable by the caller): the last rules compare
        names, kinds and code tokens, never hashes (at 5,000 decisions the
        hashed tables of 47 recorded files cost 0.7 s)."""
        return self.evidence.cache.outline(a.blob_id, a.language, lambda: data)

    def _home_paths(self, w: _Wanted) -> list[str]:
        """The recorded file (if still there), the files it was renamed to,
        and the files of its path and stem under another extension added
        since (``src/x.js`` -> ``src/x.ts`` rewritten past git's rename
        detection)."""
        item = w.lost
        return ([item.anchor.path] if item.file_exists else []) + w.renamed_to + w.migrated_to

    def _private_twin(self, w: _Wanted, old: _code.SymbolTable, snap: Snapshot) -> AnchorCheck | None:
        """The same name up to privacy marks and export form, in the
        recorded file or the file it became: a segment that took or dropped
        a leading ``_`` or ``#`` (``Tokenizer.lex`` -> ``_Tokenizer.#lex``),
        or a CommonJS export that became an ES one
        (``module.exports.get`` -> ``get``; a function exported as
        ``module.exports = options => {...}`` that became ``export default
        function asStream`` names what it holds by its new name:
        ``module.exports.proxy.write`` -> ``asStream.proxy.write``), as a
        migration to TypeScript or to private members writes them. One such
        name, new there, of a compatible kind, whose code tokens are at
        least :data:`memvet._vanished.SIMILARITY_FLOOR` alike; two or more
        are left to the other rules."""
        item = w.lost
        a = item.anchor
        want = _unmarked(a.name)
        if a.language not in _MARKED_LANGUAGES or not want:
            return None
        was = old.symbols.get(a.name)
        if was is None:
            return None
        exported = old.symbols.get(_DEFAULT_EXPORT)
        # Inside a default-exported function: its new name may stand for ``module.exports``.
        in_default = a.name.startswith(_DEFAULT_EXPORT + ".") and exported is not None \
            and exported.kind in ("function", "class")
        before: list[str] | None = None  # read only when a twin is there (rarely)
        found: list[tuple[str, _code.Symbol]] = []
        for path in dict.fromkeys(self._home_paths(w)):
            language = _in(path, a)
            table = self.evidence.outline_at(path, language, snap)
            if table is None:
                continue
            twins = [sym for q, sym in table.symbols.items()
                     if q != a.name and q not in old.symbols
                     and (_unmarked(q) == want or (in_default and _scoped_by_new_function(q, want, table, old)))
                     and compatible_kinds(a.symbol_kind, sym.kind, a.language)]
            data = snap.read(path) or b""
            for sym in twins:
                if before is None:
                    before = _tokens(self.evidence.git.blob_data(a.blob_id) or b"", a.language, was)
                ratio = difflib.SequenceMatcher(None, before, _tokens(data, language, sym), autojunk=False).ratio()
                if ratio >= _vanished.SIMILARITY_FLOOR and not self._existed(path, sym.qualname, item):
                    found.append((path, sym))
        if len(found) != 1:
            return None
        path, sym = found[0]
        hashed = self.evidence.symbol_at(path, _in(path, a), sym.qualname, snap)
        also = "" if hashed is not None and item.shape in (hashed.shape, hashed.hash) else "; its body changed"
        return AnchorCheck(
            a, AnchorResult.MOVED,
            f"{a.spec}: moved from {a.path}::{a.name} to {path}::{sym.qualname} (renamed {a.name} -> "
            f"{sym.qualname}{also})",
            new_path=path, new_name=sym.qualname, line=sym.start_line,
        )

    def _renamed_class(self, w: _Wanted, old: _code.SymbolTable, snap: Snapshot) -> AnchorCheck | None:
        """The same member under a renamed class, in a file that holds its name."""
        item = w.lost
        a = item.anchor
        parent, _, leaf = a.name.rpartition(".")
        if not parent:
            return None
        if item.file_exists:
            here = self.evidence.outline_at(a.path, a.language, snap)
            if here is None or parent in here.symbols:  # the class is still there: the method went
                return None
        # Where a renamed class can be: its file, the file's new name, or a
        # file that did not exist at the recorded commit (in any other file
        # the "new" class may be an old one that inherited the method).
        for path in dict.fromkeys(self._home_paths(w) + [p for p in w.same_leaf if p in w.added]):
            table = self.evidence.outline_at(path, _in(path, a), snap)
            renamed = None if table is None else _renamed_parent(old, table, parent)
            sym = None if renamed is None or table is None else table.symbols.get(f"{renamed}.{leaf}")
            if sym is None or not compatible_kinds(a.symbol_kind, sym.kind, a.language):
                continue
            hashed = self.evidence.symbol_at(path, _in(path, a), sym.qualname, snap)  # the one hash it needs
            also = "" if hashed is not None and hashed.hash == item.baseline else "; its body changed"
            return AnchorCheck(
                a, AnchorResult.MOVED,
                f"{a.spec}: moved from {a.path}::{a.name} to {path}::{sym.qualname} "
                f"(its class {parent} was renamed {renamed}{also})",
                new_path=path, new_name=sym.qualname, line=sym.start_line,
            )
        return None

    def _renamed_and_changed(self, w: _Wanted, old: _code.SymbolTable, snap: Snapshot) -> AnchorCheck | None:
        """A new name of the same kind and scope, in the recorded file or the
        file it was renamed to, whose body is close to the recorded one."""
        item = w.lost
        a = item.anchor
        was = old.symbols.get(a.name)
        if was is None:
            return None
        recorded = self.evidence.git.blob_data(a.blob_id) or b""
        before = _tokens(recorded, a.language, was)
        if len(before) < RENAMED_MIN_TOKENS:
            return None
        parent = a.name.rpartition(".")[0]
        scored: list[tuple[float, str, _code.Symbol]] = []
        for path in self._home_paths(w):
            table = self.evidence.outline_at(path, _in(path, a), snap)
            if table is None:
                continue
            # The scope may have been renamed too (a class and its method).
            scopes = {parent, _renamed_parent(old, table, parent) or parent} if parent else {""}
            data = snap.read(path) or b""
            for sym in table.symbols.values():
                if (sym.kind != was.kind or sym.qualname in old.symbols or sym.has_error
                        or sym.qualname.rpartition(".")[0] not in scopes):
                    continue
                after = _tokens(data, _in(path, a), sym)
                matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
                if matcher.real_quick_ratio() < RENAMED_SIMILARITY or matcher.quick_ratio() < RENAMED_SIMILARITY:
                    continue
                scored.append((matcher.ratio(), path, sym))
        scored.sort(key=lambda s: -s[0])
        if not scored or scored[0][0] < RENAMED_SIMILARITY:
            return None
        if len(scored) > 1 and scored[0][0] - scored[1][0] < RENAMED_MARGIN:
            log.debug("%s: no clear renamed candidate among %s", a.spec, [s[2].qualname for s in scored[:3]])
            return None
        ratio, path, sym = scored[0]
        return AnchorCheck(
            a, AnchorResult.MOVED,
            f"{a.spec}: moved from {a.path}::{a.name} to {path}::{sym.qualname} "
            f"(renamed; its body changed, {ratio:.0%} of its code alike)",
            new_path=path, new_name=sym.qualname, line=sym.start_line,
        )


def body_changed(a: Anchor, recorded_commit: str, sym: _code.Symbol) -> AnchorCheck:
    """``CHANGED`` for ``a``, whose symbol is now ``sym`` (under its recorded
    name, or a new signature of it): one wording for the check of its own
    file and for the move search."""
    now = "now lines" if sym.qualname == a.name else f"now {sym.qualname}, lines"
    return AnchorCheck(
        a, AnchorResult.CHANGED,
        f"{a.spec}: the body changed since {recorded_commit[:8]} ({now} {sym.start_line}-{sym.end_line})",
        line=sym.start_line,
    )


def _stem(path: str) -> str:
    """``path`` without its extension (``src/x.js`` -> ``src/x``)."""
    head, _, name = path.rpartition("/")
    base = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
    return f"{head}/{base}" if head else base


def _unmarked(name: str) -> str:
    """A qualified name with the privacy marks of each segment dropped
    (``_Tokenizer.#lex`` -> ``Tokenizer.lex``) and its CommonJS export
    prefix too (``module.exports.get`` -> ``get``, as ``export const get``
    names it); ``""`` for a name with a signature or a ``#2`` suffix, or a
    segment that is only marks."""
    if "(" in name or "#" in name.lstrip("#").replace(".#", "."):
        return ""
    for prefix in _EXPORTS:
        if name.startswith(prefix) and len(name) > len(prefix):
            name = name[len(prefix):]
            break
    bare = [seg.lstrip(_PRIVACY) for seg in name.split(".")]
    return ".".join(bare) if all(bare) else ""


def _scoped_by_new_function(qualname: str, want: str, new: _code.SymbolTable, old: _code.SymbolTable) -> bool:
    """Whether ``qualname`` is ``want`` under a top-level function or class
    of ``new`` that ``old`` did not have (what a default export became)."""
    head, _, rest = qualname.partition(".")
    scope = new.symbols.get(head)
    return (bool(rest) and _unmarked(rest) == want and scope is not None and scope.kind in ("function", "class")
            and head not in old.symbols)


def _in(path: str, a: Anchor) -> str:
    """The language to parse ``path`` in when looking there for ``a``'s
    symbol: the path's own if it is of ``a``'s family (see
    :func:`memvet._vanished.language_at`), else ``a``'s."""
    return language_at(path, a.language) or a.language


def _renamed_parent(old: _code.SymbolTable, new: _code.SymbolTable, parent: str) -> str | None:
    """The class of ``new`` that ``parent`` (a class of ``old``) was renamed
    to: ``parent`` is gone, the class is new at the same depth, and it keeps
    at least two and at least :data:`CLASS_OVERLAP` of ``parent``'s members."""
    was = old.symbols.get(parent)
    if parent in new.symbols or was is None or was.kind not in _CLASS_KINDS:
        return None
    before = _members(old, parent)
    if len(before) < 2:
        return None
    depth = parent.count(".")
    best: tuple[int, str] | None = None
    for sym in new.symbols.values():
        if sym.kind not in _CLASS_KINDS or sym.qualname in old.symbols or sym.qualname.count(".") != depth:
            continue
        shared = len(before & _members(new, sym.qualname))
        if shared >= 2 and shared >= CLASS_OVERLAP * len(before) and (best is None or shared > best[0]):
            best = (shared, sym.qualname)
    return None if best is None else best[1]


def _members(table: _code.SymbolTable, parent: str) -> set[str]:
    """The names of ``parent``'s direct members in ``table``."""
    depth = parent.count(".") + 1
    prefix = parent + "."
    return {q.rsplit(".", 1)[1] for q in table.symbols if q.startswith(prefix) and q.count(".") == depth}
