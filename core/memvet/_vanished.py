"""The last resort of the move search: what a missing symbol became in the
commit it disappeared in.

The move search (:mod:`memvet._moves`) compares the recorded commit with the
target. Across many commits a method that was renamed *and* rewritten, or
moved into another class with a new parameter, has nothing left in common
with its recorded self that such a comparison can trust: on the CodeTracker
oracles, ``JUnit4ClassRunner.handleExceptions(Link,TestMethod)`` became
``possiblyExpectingExceptions(TestMethod,Link)`` with its link classes
renamed, and ``MockControl.expectedInvocation`` became ``create`` of a new
``InvocationMatcherFactory``. In the one commit where the symbol went, the
evidence is plain, and the choice is small:

1. **Where it went.** Walk the first-parent line from the target back to
   the recorded commit (at most :data:`MAX_WALK` commits; a recorded commit
   off that line is not searched), following the recorded file through
   renames. Tree entries give each commit's blob id without reading it, so
   commits that did not touch the file cost nothing; a binary search over
   the file's versions finds the first commit ``C`` without the symbol: by
   their text first (a version that does not write the name where a
   definition would cannot hold it), then one parse to confirm, and only
   when that fails by parsing (each version at most once, cached by blob id).
2. **The candidates** are the symbols ``C`` added (absent from the same
   file at ``C``'s parent and at the recorded commit) of a compatible kind,
   in the recorded file (or its rename), in a file ``C`` added or renamed,
   and, when ``C`` also removed the recorded class, in the other files ``C``
   changed, where only a method of the same name counts (a class merged
   into another, as junit4's ``JUnit4MethodRunner`` into
   ``JUnit4ClassRunner``). A candidate that another removed overload
   follows to (its signature changed) is that overload's, not this one's.
   While the recorded class is still there, a candidate in another class of
   an existing file is not taken (a method pulled up into a base class is
   a deletion from its class).
3. **The judgement**, from two strong signals and a similarity: the same
   bare name, or a *replaced call* (a line of ``C``'s diff that called the
   old name replaced, in the same block, by a line that calls the new name
   and reads alike otherwise); and the code tokens of the old and new
   bodies (names masked) alike at a ratio of at least
   :data:`SIMILARITY_FLOOR` with the same name, :data:`CALLS_SIMILARITY`
   with only a replaced call or in another existing class, far below the 85 % a rename needs without
   this evidence (:data:`memvet._moves.RENAMED_SIMILARITY`), because the
   candidates are few and a strong signal is required. A candidate wins only
   when it is the only one with a strong signal, or is ahead of the others
   by :data:`MARGIN` in similarity; anything else stays a deletion.

Cost: nothing unless every other rule failed for an anchor (in practice, a
real deletion). Then one first-parent walk per (target, recorded commit) and
batch (tree-entry lookups only), usually one parse of the recorded file's
versions (about log2 of their number when the text cannot tell), the diff of one commit, and the parse of the files it
added or renamed plus, when the recorded class went, the changed files that
name the symbol. A commit where more than :data:`MAX_CALLING_FILES` files
called the old name (a sweep) is not searched for replaced calls.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import pygit2

from memvet import _claims, _code
from memvet._code._java import split_signature
from memvet._git import Snapshot
from memvet._words import has_word, lines_with, occurrences

if TYPE_CHECKING:
    from memvet._cache import SymbolCache
    from memvet._git import Change, GitRepo
    from memvet._model import Anchor

__all__ = [
    "CALLS_SIMILARITY", "FAMILIES", "MARGIN", "MAX_CALLING_FILES", "MAX_WALK", "SIMILARITY_FLOOR", "Became",
    "Vanishing", "became", "language_at", "tokens", "vanishing",
]

#: First-parent commits walked back from the target looking for the recorded commit.
MAX_WALK = 5000
#: How alike (difflib ratio over code tokens) a candidate with a strong signal must be.
SIMILARITY_FLOOR = 0.5
#: How alike a candidate must be whose only strong signal is a replaced call,
#: or that is a same-named method of another existing class (a merge; the
#: oracle's three are at 77-83 %):
#: a call line can read like another's (two calls renamed in one commit,
#: ``link= handleExceptions(link, method)`` and ``link= timeout(link, method)``),
#: so the body must say more. The oracle's real cases are at 79-96 %; a
#: deleted method whose line resembles a renamed neighbour's is at 58 %
#: (tests/unit/test_moves_vanished.py).
CALLS_SIMILARITY = 0.7
#: How far ahead in similarity the winner must be when several candidates have a strong signal.
MARGIN = 0.15
#: How alike a replacing call line must read once the names are swapped.
CALL_LINE_SIMILARITY = 0.6
#: A commit that changes more files calling the old name than this is a
#: sweep (a reformat, a mass rename): its call lines are not compared.
MAX_CALLING_FILES = 100
#: Bodies shorter than this many tokens are too small to judge by similarity.
MIN_TOKENS = 12


#: Languages one file can change between and keep its symbols: a JavaScript
#: file renamed ``.ts`` or ``.tsx`` (a migration to TypeScript) holds the
#: same functions and classes, parsed by the new language's grammar. A
#: language of no family is a family of its own (``.py`` and its ``.pyi``
#: stub are one language already, as are ``.js``, ``.mjs`` and ``.cjs``).
FAMILIES: tuple[frozenset[str], ...] = (frozenset({"javascript", "typescript", "tsx"}),)


def language_at(path: str, language: str) -> str | None:
    """The language ``path`` is parsed in when it may hold a symbol recorded
    in ``language``: the path's own language if it is of the same family
    (``src/x.ts`` for a symbol recorded in ``src/x.js``), ``None`` if not."""
    found = _code.language_for_path(path)
    if found is None:
        return None
    if found == language or any(found in family and language in family for family in FAMILIES):
        return found
    return None


class Evidence(Protocol):
    """What this module needs from the evidence engine (structural, like
    :class:`memvet._moves.Evidence`)."""

    git: GitRepo
    cache: SymbolCache

    def outline_at(self, path: str, language: str, snap: Snapshot) -> _code.SymbolTable | None: ...

    def symbol_at(self, path: str, language: str, qualname: str, snap: Snapshot) -> _code.Symbol | None: ...


@dataclass(frozen=True)
class Vanishing:
    """The commit a symbol disappeared in.

    Attributes:
        before: The snapshot just before (the first parent), with the symbol.
        after: The snapshot without it (a commit, or the working tree).
        path: The symbol's file in ``before``.
        symbol: The symbol in ``before`` (its signature may differ from the
            recorded one if it changed on the way).
        table: The recorded file's table (what the symbol's scope was: a
            class or a function), not parsed again at ``before``.
    """

    before: Snapshot
    after: Snapshot
    path: str
    symbol: _code.Symbol
    table: _code.SymbolTable


@dataclass(frozen=True)
class Became:
    """What the symbol became: where, and the evidence for saying so."""

    path: str
    symbol: _code.Symbol
    similarity: float
    same_name: bool
    calls: int
    commit: str


def tokens(data: bytes, language: str, sym: _code.Symbol) -> list[str]:
    """The code tokens of a symbol's span, comments dropped and its own name
    masked (a rename alone changes nothing)."""
    lines = _code.source_text(data).splitlines()[sym.start_line - 1 : sym.end_line]
    own = {_leaf(sym.qualname).split("(")[0], _leaf(sym.name)}  # `A.static m` is `m` in its code
    return ["\x00" if t in own else t for t in _claims.code_tokens("\n".join(lines), language, drop_comments=True)]


def follow(old: _code.SymbolTable, new: _code.SymbolTable, qualname: str,
           old_data: Callable[[], bytes], new_data: Callable[[], bytes]) -> _code.Symbol | None:
    """:func:`memvet._code.follow`, less a Java method that would follow to
    a new signature across ``static``: one that was an instance method and is
    now static (or the reverse) is the same method only if its code tokens
    are still :data:`SIMILARITY_FLOOR` alike. A JavaScript/TypeScript member
    whose name took or lost ``static`` is held to the same test (an
    ``Object.assign(A, {m: function () {...}})`` member, static in all but
    name, that became ``static m()`` keeps its code). The two files' texts
    (``old_data()``, ``new_data()``) are read only for a method that took a
    new name in its file.

    A new signature alone keeps a method: the 86 signature changes of
    CodeTracker's oracle that the follow takes, in 11 repositories, are
    16-100 % alike and none crosses ``static`` (``benchmarks/drift.py
    --signature-follows``). Crossing ``static`` too, it is another way to
    call a method of that name: okhttp's instance
    ``connect(int,int,TunnelConfig)`` replaced a static factory
    ``connect(URI,...,TunnelConfig)``, 36 % alike, which the oracle counts
    as a new method. "Make static" (the receiver turned into a parameter)
    keeps the body, and the method.
    """
    sym = _code.follow(old, new, qualname)
    if sym is None or old.language not in ("java", *_JS):
        return sym
    was = old.lookup(qualname)[0]  # follow found exactly one
    if sym.qualname == was.qualname:
        return sym
    if old.language in _JS:  # the keyword is in the name: `A.static m`
        if _js_static(was.qualname) == _js_static(sym.qualname):
            return sym
        before, after = tokens(old_data(), old.language, was), tokens(new_data(), new.language, sym)
    else:
        before, after = tokens(old_data(), "java", was), tokens(new_data(), "java", sym)
        if is_static(before) == is_static(after):
            return sym
    ratio = difflib.SequenceMatcher(None, before, after, autojunk=False).ratio()
    return sym if ratio >= SIMILARITY_FLOOR else None


_JS = ("javascript", "typescript", "tsx")


def _js_static(qualname: str) -> bool:
    """Whether a JavaScript/TypeScript member's name says ``static``."""
    return _leaf(qualname).startswith("static ")


def is_static(code: list[str]) -> bool:
    """Whether a Java declaration's tokens (its own name masked, as
    :func:`tokens` gives them) have ``static`` before the name."""
    return "\x00" in code and "static" in code[: code.index("\x00")]


def _leaf(qualname: str) -> str:
    """The last segment of a qualified name, without its signature."""
    bare = qualname.split("(", 1)[0]
    return bare.rsplit(".", 1)[-1].strip('"')


def _scope(qualname: str) -> str:
    """The enclosing name of a qualified name (its class), signature dropped."""
    parts = split_signature(qualname)
    bare = parts[0] if parts else qualname.split("(", 1)[0]
    return bare.rpartition(".")[0]


# ------------------------------------------------------------------ where it went


def vanishing(evidence: Evidence, anchor: Anchor, recorded_commit: str, target: Snapshot,
              recorded: _code.SymbolTable, lines: dict[tuple[str, str], list[pygit2.Commit] | None] | None = None,
              may_hold: Callable[[bytes], bool] | None = None) -> Vanishing | None:
    """The commit ``anchor`` disappeared in between ``recorded_commit`` and
    ``target`` (see the module docstring), or ``None`` when it cannot be
    told (the recorded commit is not on the target's first-parent line
    within :data:`MAX_WALK` commits, or the symbol is there all along).

    Args:
        evidence: The evidence engine.
        anchor: The missing anchor.
        recorded_commit: The commit its decision was recorded at.
        target: Where it is missing.
        recorded: The recorded file's table.
        lines: First-parent lines already walked, by (target commit,
            recorded commit): the anchors of one check share them.
        may_hold: Whether a version's text may define the symbol (``False``:
            surely not). The versions are first searched by it without a
            parse; the last version it allows is then parsed to confirm,
            and only if the symbol is not there does the search parse its
            way back (a test file of 5,000 lines took 5 parses before).
    """
    git = evidence.git
    head = target.commit if target.commit is not None else git.head_commit()
    key = (str(head.id), recorded_commit)
    line = lines.get(key) if lines is not None else None
    if line is None:
        line = _first_parent_line(head, recorded_commit)
        if lines is not None:
            lines[key] = line
    if not line:
        return None
    # The file's path at each commit after the recorded one (renames
    # followed); a tree-entry lookup each, no blob read.
    # Only the commits that changed the file are kept: the symbol can only
    # go in one of them, and the binary search probes log2 of their number.
    states: list[tuple[pygit2.Commit | None, str]] = []
    path = anchor.path
    prev_entry = _entry(line[0].tree, path)
    for c in line[1:]:
        entry = _entry(c.tree, path)
        if entry is None and prev_entry is not None:
            renamed = _renamed_in(git.repo, c.parents[0], c, path)
            if renamed is not None:
                path, entry = renamed, _entry(c.tree, renamed)
        if entry != prev_entry:
            states.append((c, path))
        prev_entry = entry
        if entry is None:
            break  # the file is gone: the symbol went here at the latest
    if target.commit is None and prev_entry is not None:
        states.append((None, path))  # the working tree comes last

    found: dict[int, tuple[Snapshot, _code.Symbol | None]] = {}

    @functools.cache
    def recorded_data() -> bytes:  # read once, by the first follow that needs it
        return git.blob_data(anchor.blob_id) or b""

    leaf = [_leaf(anchor.name).encode()]
    with_signature = split_signature(anchor.name) is not None

    texts: dict[int, bool] = {}

    def snapshot(i: int) -> Snapshot:
        c = states[i][0]
        return target if c is None else git.snapshot(str(c.id))

    def may_be_there(i: int) -> bool:
        """Whether the i-th state's text may hold the symbol (no parse)."""
        if i not in texts:
            data = snapshot(i).read(states[i][1]) or b""
            texts[i] = has_word(data, leaf) and (may_hold is None or with_signature or may_hold(data))
        return texts[i]

    def probe(i: int) -> tuple[Snapshot, _code.Symbol | None]:
        """The symbol at the i-th state: a file whose text cannot hold it
        is not parsed; one that may only to hash the symbol's own span; the
        whole table only to follow a changed signature."""
        if i not in found:
            p = states[i][1]
            snap = snapshot(i)
            sym = None
            if may_be_there(i):
                language = language_at(p, anchor.language) or anchor.language
                sym = evidence.symbol_at(p, language, anchor.name, snap)
                if sym is None and with_signature:
                    table = evidence.outline_at(p, language, snap)
                    sym = None if table is None else follow(recorded, table, anchor.name, recorded_data,
                                                            lambda: snap.read(p) or b"")
            found[i] = (snap, sym)
        return found[i]

    if not states or probe(len(states) - 1)[1] is not None:
        return None
    lo, hi = -1, len(states) - 1  # present at lo (-1: the recorded commit), absent at hi
    # First by text alone: the first state whose text cannot hold the
    # symbol, and one parse of the state before it to confirm.
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if may_be_there(mid):
            lo = mid
        else:
            hi = mid
    if lo >= 0 and probe(lo)[1] is None:
        lo, hi = -1, lo  # gone before the text shows it: search the versions before by parsing
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if probe(mid)[1] is not None:
            lo = mid
        else:
            hi = mid
    if lo == -1:
        sym, path = recorded.symbols.get(anchor.name), anchor.path
    else:
        sym, path = probe(lo)[1], states[lo][1]
    after, gone_in = probe(hi)[0], states[hi][0]
    # The file did not change between the last version with the symbol and
    # the vanishing commit's first parent: that parent is "before".
    before = git.snapshot(str(gone_in.parents[0].id) if gone_in is not None else str(head.id))
    if sym is None:
        return None
    return Vanishing(before, after, path, sym, recorded)


def _first_parent_line(head: pygit2.Commit, recorded_commit: str) -> list[pygit2.Commit]:
    """The recorded commit and the first-parent commits after it up to
    ``head``, oldest first; empty when the recorded commit is not on that
    line within :data:`MAX_WALK` commits."""
    stop = pygit2.Oid(hex=recorded_commit) if len(recorded_commit) == 40 else None
    line: list[pygit2.Commit] = []
    commit: pygit2.Commit | None = head
    while commit is not None and len(line) <= MAX_WALK:
        line.append(commit)
        if commit.id == stop:
            line.reverse()
            return line
        commit = commit.parents[0] if commit.parents else None
    return []


def _entry(tree: pygit2.Tree, path: str) -> pygit2.Oid | None:
    try:
        entry = tree[path]
    except KeyError:
        return None
    return entry.id if entry.type_str == "blob" else None


def _renamed_in(repo: pygit2.Repository, parent: pygit2.Commit, commit: pygit2.Commit, path: str) -> str | None:
    """Where ``commit`` renamed ``path`` to (git's rename detection), if it did."""
    diff = repo.diff(parent.tree, commit.tree)  # type: ignore[call-overload]  # stub omits Tree
    diff.find_similar()
    for delta in diff.deltas:
        if delta.status_char() == "R" and delta.old_file.path == path:
            return str(delta.new_file.path)
    return None


# ------------------------------------------------------------------ what it became


def became(evidence: Evidence, anchor: Anchor, where: Vanishing, changes: list[Change],
           kind_ok: Callable[[str], bool], same_group: Callable[[str, str], bool],
           path_ok: Callable[[str], bool], recorded_snap: Snapshot | None) -> Became | None:
    """The symbol ``where.symbol`` became in ``where.after``, judged only
    among what that commit added (see the module docstring), or ``None``.

    Args:
        evidence: The evidence engine.
        anchor: The missing anchor.
        where: Where it disappeared (see :func:`vanishing`).
        changes: The files ``where.after`` changed since ``where.before``.
        kind_ok: Whether a symbol kind can be the anchor's after a move.
        same_group: Whether two scope kinds are of one group (classes, functions).
        path_ok: Whether a file may hold the symbol (not a copy or a build).
        recorded_snap: The recorded commit (a symbol there already is not new).
    """
    language = anchor.language
    was = where.symbol
    old_leaf = _leaf(was.qualname)
    old_scope = _scope(was.qualname)
    before_data = where.before.read(where.path) or b""
    old_tokens = tokens(before_data, language_at(where.path, language) or language, was)
    if len(old_tokens) < MIN_TOKENS:
        return None
    home = next((c.new_path for c in changes if c.old_path == where.path and c.kind in ("modified", "renamed")),
                None)
    home_language = language_at(home, language) if home else None
    home_table = evidence.outline_at(home, home_language, where.after) if home and home_language else None
    class_gone = bool(old_scope) and (home_table is None or old_scope not in home_table.symbols)
    calls = _replaced_calls(where, changes, old_leaf, was, language)

    # A candidate needs the same name or a replaced call: a file holding
    # none of those names as a word is not parsed, and one whose new
    # table has no symbol of those names is not parsed at its parent.
    wanted = {old_leaf} | {name for by_name in calls.values() for name in by_name}
    any_wanted = sorted(n.encode() for n in wanted)
    found: list[Became] = []
    for change in changes:
        path = change.new_path
        path_language = language_at(path, language)
        if change.kind not in ("modified", "renamed", "added") or path_language is None:
            continue
        # Where a candidate may be: the recorded file (its own class, or a
        # class new there when the recorded one is gone), a file this commit
        # added or renamed (anything), another changed file only when the
        # recorded class is gone or there was none (a merge, a move of a
        # function), and then only with the same name or a replaced call.
        other = path != home and change.kind == "modified"
        if other and old_scope and not class_gone:
            continue
        if not has_word(where.after.read(path) or b"", any_wanted):
            continue
        if path != home and not path_ok(path):
            continue
        if other and not _adds_word(where.before.read(change.old_path) or b"", where.after.read(path) or b"",
                                    any_wanted):
            # A method of another file can only have come from this one if
            # one of its lines naming it is new there: no parse otherwise.
            continue
        table = evidence.outline_at(path, path_language, where.after)
        if table is None or not any(_leaf(q) in wanted for q in table.symbols):
            continue
        old_path = change.old_path if change.kind != "added" else None
        old_language = (language_at(old_path, language) or path_language) if old_path else path_language
        prior = evidence.outline_at(old_path, old_language, where.before) if old_path else None
        at_record = (evidence.outline_at(old_path, old_language, recorded_snap)
                     if old_path and recorded_snap is not None
                     and recorded_snap.blob_id(old_path) != where.before.blob_id(old_path) else None)
        claimed = _claimed(prior, table, keep=was.qualname if old_path == where.path else "")
        data = where.after.read(path) or b""
        for sym in table.symbols.values():
            if (sym.has_error or not kind_ok(sym.kind) or sym.qualname in claimed
                    or (prior is not None and sym.qualname in prior.symbols)
                    or (at_record is not None and sym.qualname in at_record.symbols)):
                continue
            scope = _scope(sym.qualname)
            same_name = _leaf(sym.qualname) == old_leaf
            if path == home and scope != old_scope and not (class_gone and prior is not None
                                                             and scope not in prior.symbols):
                continue
            if not _same_kind_of_scope(where.table, old_scope, table, scope, same_group):
                continue  # a function nested in a function is not a method of a class
            n_calls = sum(by_name.get(_leaf(sym.qualname), 0) for by_name in calls.values())
            if not same_name and not n_calls:
                continue
            new_tokens = tokens(data, path_language, sym)
            matcher = difflib.SequenceMatcher(None, old_tokens, new_tokens, autojunk=False)
            if matcher.real_quick_ratio() < SIMILARITY_FLOOR or matcher.quick_ratio() < SIMILARITY_FLOOR:
                continue
            ratio = matcher.ratio()
            # A same-named method in another existing class (a merge) must
            # be as alike as a replaced call's: short overrides of one name
            # (``hashCode()``, ``close()``) resemble each other everywhere.
            if ratio >= (SIMILARITY_FLOOR if same_name and not other else CALLS_SIMILARITY):
                found.append(Became(path, sym, ratio, same_name, n_calls, where.after.name))
    if not found:
        return None
    found.sort(key=lambda b: -b.similarity)
    if len(found) > 1 and found[0].similarity - found[1].similarity < MARGIN:
        return None
    return found[0]


def _adds_word(old: bytes, new: bytes, words: list[bytes]) -> bool:
    """Whether ``new`` has a line naming one of ``words`` that ``old`` does
    not (lines compared as a multiset: moving a line within a file adds none)."""
    fresh = lines_with(new, words)
    if not fresh:
        return False
    left = Counter(lines_with(old, words))
    return any(not _take(left, line) for line in fresh)


def _same_kind_of_scope(old: _code.SymbolTable, old_scope: str, new: _code.SymbolTable, scope: str,
                        same_group: Callable[[str, str], bool]) -> bool:
    """Whether both names are top-level, or both in scopes of one kind group
    (two classes, two functions)."""
    if not old_scope or not scope:
        return not old_scope and not scope
    was, now = old.symbols.get(old_scope), new.symbols.get(scope)
    if was is None or now is None:
        return False
    return same_group(was.kind, now.kind)


def _claimed(prior: _code.SymbolTable | None, table: _code.SymbolTable, keep: str) -> set[str]:
    """The new symbols of ``table`` that a removed overload of ``prior``
    follows to (its signature changed): they are that overload's."""
    if prior is None:
        return set()
    out: set[str] = set()
    for sym in prior.symbols.values():
        if sym.qualname == keep or sym.qualname in table.symbols or sym.name == sym.qualname:
            continue
        nxt = _code.follow(prior, table, sym.qualname)
        if nxt is not None:
            out.add(nxt.qualname)
    return out


# A call, not a constructor (``new WithTimeout(next)`` is not a method that replaced one).
_LINE_TOKEN = re.compile(rb"[A-Za-z0-9_$\x00]+|\S")


def _bag(line: bytes) -> Counter[bytes]:
    """The tokens of a line, in any order (arguments may be reordered)."""
    return Counter(_LINE_TOKEN.findall(line))


def _alike(one: Counter[bytes], two: Counter[bytes]) -> float:
    """Dice similarity of two token bags."""
    total = sum(one.values()) + sum(two.values())
    return 2 * sum((one & two).values()) / total if total else 0.0


_CALL = re.compile(rb"(?<![A-Za-z0-9_$])(?<!new )([A-Za-z_$][A-Za-z0-9_$]*)\s*\(")


def _take(left: dict[bytes, int], text: bytes) -> bool:
    """Take one of ``text`` from the lines both sides keep, if any is left."""
    if left.get(text, 0) > 0:
        left[text] -= 1
        return True
    return False


def _replaced_calls(where: Vanishing, changes: list[Change], old_leaf: str, was: _code.Symbol, language: str
                    ) -> dict[str, dict[str, int]]:
    """Per changed file (new path), the names whose calls replaced a call of
    ``old_leaf`` in the file's diff, the other words of the line alike
    (``link= handleExceptions(link, method);`` ->
    ``link= possiblyExpectingExceptions(method, link);``). Lines of the
    symbol's own definition do not count."""
    needle = re.compile(rb"(?<![A-Za-z0-9_$])" + re.escape(old_leaf.encode()) + rb"\s*\(")
    out: dict[str, dict[str, int]] = {}
    calling: list[tuple[Change, bytes]] = []
    for change in changes:
        if change.kind not in ("modified", "renamed") or language_at(change.new_path, language) is None:
            continue
        old = where.before.read(change.old_path) or b""
        if occurrences(old, [old_leaf.encode()], call=True):
            calling.append((change, old))
    if len(calling) > MAX_CALLING_FILES:
        return out  # a sweeping commit: line pairs would prove nothing and cost much
    for change, old in calling:
        new = where.after.read(change.new_path) or b""
        a_lines, b_lines = old.splitlines(), new.splitlines()
        skip = range(was.start_line - 1, was.end_line) if change.old_path == where.path else range(0)
        names: dict[str, int] = {}
        # The lines only one side has (a multiset difference, not a diff: a
        # line diff of a 5,000-line file costs more than this whole search).
        kept = Counter(a_lines) & Counter(b_lines)
        left = dict(kept)
        leaf = old_leaf.encode()  # a substring test first: most lines do not hold it
        removed = [i for i, text in enumerate(a_lines)
                   if leaf in text and i not in skip and needle.search(text) and not _take(left, text)]
        left = dict(kept)
        added = [j for j, text in enumerate(b_lines) if not _take(left, text)]
        for i in removed:
            # The added lines of the file that read most like it, names
            # masked (the calling code may have moved within the file, as
            # junit4's ``chain`` did when its ``timeout(link, method)``
            # became ``withPotentialTimeout(method, link)``). Equally close
            # lines all count: the bodies' similarity decides between them.
            was_line = _bag(needle.sub(b"\x00(", a_lines[i]))
            best: dict[bytes, float] = {}
            for j in added:
                line = b_lines[j]
                for m in _CALL.finditer(line):
                    name = m.group(1)
                    if name == old_leaf.encode() or name in a_lines[i]:
                        continue
                    masked = line[: m.start(1)] + b"\x00" + line[m.end(1):]
                    ratio = _alike(was_line, _bag(masked))
                    best[name] = max(best.get(name, 0.0), ratio)
            top = max(best.values(), default=0.0)
            if top >= CALL_LINE_SIMILARITY:
                for name, ratio in best.items():
                    if ratio == top:
                        key = name.decode()
                        names[key] = names.get(key, 0) + 1
        if names:
            out[change.new_path] = names
    return out
