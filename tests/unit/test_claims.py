"""The write path: a claim's code-like terms bound to its evidence, and quotes.

Every refusal names the term, where it looked and, where one exists, what the
code does say; nothing is written. Quotes are checked at write (in the span)
and at read (intact after an unrelated edit, gone after the quoted line
changed).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from _cli import record as cli_record
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memvet
from memvet import Status, TermKind
from memvet._claims import _STRING_TOKEN, EvidenceText, Term, bind, claim_terms, code_only, code_tokens, find_quote

CACHE = '''\
"""A tiny cache."""
import hashlib
from collections import OrderedDict

MAX_ENTRIES = 128


class LRU:
    def __init__(self, maxsize=MAX_ENTRIES):
        self._data = OrderedDict()
        self.maxsize = maxsize

    def put(self, key, value):
        """Insert, evicting the oldest entry."""
        self._data[key] = value
        if len(self._data) > self.maxsize:
            self._data.popitem(last=False)  # the least recently used
        return self.sign(key)

    def sign(self, key):
        return hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]


def timeout(seconds=5.0, env="CACHE_TIMEOUT"):
    return seconds
'''


@pytest.fixture
def cached(repo, ledger):
    repo.write("app/cache.py", CACHE, dedent=False)
    repo.commit("cache")
    return ledger


def terms(text: str) -> list[tuple[str, str]]:
    return [(t.text, t.kind.value) for t in claim_terms(text)]


# ------------------------------------------------------------------ term classes


@pytest.mark.parametrize("text, expected", [
    ("evicts with `popitem(last=False)`", [("popitem(last=False)", "call")]),
    ("calls popitem(last=False) when full", [("popitem(last=False)", "call")]),
    ("passes last=False", [("last=False", "keyword")]),
    ("signs with hashlib.sha1", [("hashlib.sha1", "dotted")]),
    ("keys are max_size and OrderedDict and sha256", [("max_size", "identifier"), ("OrderedDict", "identifier"),
                                                      ("sha256", "identifier")]),
    ("SHA-256 and HMAC-SHA1 digests", [("SHA-256", "identifier"), ("SHA1", "identifier")]),
    ("reads HASH_VERSION", [("HASH_VERSION", "constant")]),
    ("waits 5.0 seconds, or 0x1F, or 1_000", [("5.0", "number"), ("0x1F", "number"), ("1_000", "number")]),
    ('the message is "no such file" or \'utf-8\'', [("no such file", "string"), ("utf-8", "string")]),
    ("lives in core/memvet/_git.py and setup.py", [("core/memvet/_git.py", "path"), ("setup.py", "path")]),
    ("serves http://localhost:8000/api and 127.0.0.1:9000", [("http://localhost:8000/api", "address"),
                                                            ("127.0.0.1:9000", "address")]),
    ("needs requests>=2.31 and 1.2.3", [("requests>=2.31", "version"), ("1.2.3", "version")]),
    ("`self._data[key] = value` stores it", [("self._data[key] = value", "code")]),
])
def test_each_term_class_is_recognised(text, expected):
    assert terms(text) == expected


@pytest.mark.parametrize("prose", [
    "the oldest entry is evicted first",
    "read/write and and/or are prose, e.g. here, i.e. there",
    "the entry(s) of the cache (an LRU) use HTTP and JSON",
    "hosted on GitHub, written in JavaScript and TypeScript",
    "the 2nd call and the v2 API",
    "Evict the least recently used entry. Then return.",
])
def test_plain_prose_is_never_a_term(prose):
    assert claim_terms(prose) == []


# ------------------------------------------------------------------ findings (grade, don't gate)


def findings(ledger, claim: str, anchors: list[str]) -> str:
    """The findings a write leaves on the decision, one per line (it is stored,
    and served as unconfirmed, never as current)."""
    result = ledger.record(claim, anchors)
    assert ledger.verify(result.id).status is not Status.VERIFIED or not result.findings
    return "\n".join(result.findings)


@pytest.mark.parametrize("claim, term, nearest", [
    ("LRU.sign signs keys with hashlib.sha256", "hashlib.sha256", "hashlib.sha1"),
    ("LRU.sign signs keys with sha256", "sha256", "sha1"),
    ("LRU.sign calls key.encode('latin-1')", "key.encode('latin-1')", 'encode("utf-8")'),
    ("LRU.sign encodes to \"ascii\" bytes", "ascii", ""),
    ("LRU.sign keeps 32 hex characters", "32", "return hashlib.sha1(key.encode(\"utf-8\")).hexdigest()[:16]"),
    ("LRU.sign raises KeyError", "KeyError", ""),
    ("LRU.sign reads MAX_SIZE", "MAX_SIZE", ""),
    ("LRU.sign returns `hexdigest()[:8]`", "hexdigest()[:8]", ""),
])
def test_a_term_the_code_does_not_say_is_a_finding_naming_where_it_looked(cached, claim, term, nearest):
    anchors = cached.resolve_anchors(["app/cache.py::LRU.sign"])
    with pytest.raises(memvet.UnboundClaimError) as caught:  # bind_claim: every finding refuses
        cached.bind_claim(claim, anchors)
    assert "nothing was written" in str(caught.value).splitlines()[0]
    assert [t.term.text for t in caught.value.terms] == [term]
    result = cached.record(claim, ["app/cache.py::LRU.sign"])
    [line] = [f for f in result.findings if f"`{term}`" in f]
    assert "is not in app/cache.py::LRU.sign" in line
    if nearest:
        assert f"the code says `{nearest}`" in line
    assert cached.verify(result.id).status is Status.NEEDS_REVALIDATION


def test_call_arguments_must_match_and_the_finding_shows_the_real_call(cached):
    assert re.search(r"`popitem\(last=True\)` \(call\).*the code says `popitem\(last=False\)`",
                     findings(cached, "LRU.put evicts the newest entry with popitem(last=True)",
                              ["app/cache.py::LRU.put"]))
    assert re.search(r"`maxsize=64` \(keyword\).*the code says `maxsize=MAX",
                     findings(cached, "LRU defaults to maxsize=64", ["app/cache.py::LRU.__init__"]))


def test_a_bound_claim_is_recorded_and_verified(cached):
    rec = cached.record("LRU.put evicts the oldest entry with `self._data.popitem(last=False)` once len(...) "
                        "exceeds maxsize; LRU.sign uses hashlib.sha1 over 'utf-8' bytes, 16 hex characters",
                        ["app/cache.py::LRU.put", "app/cache.py::LRU.sign"])
    assert cached.verify(rec.id).status is Status.VERIFIED


def test_names_that_exist_elsewhere_in_the_repository_bind(cached):
    # SAMPLE_STORE's OrderStore.save is not anchored, but it exists; so does the path.
    rec = cached.record("LRU.put is unrelated to OrderStore.save in shop/store.py", ["app/cache.py::LRU.put"])
    assert rec.outcome == "recorded"
    put = ["app/cache.py::LRU.put"]
    assert "`OrderStore.delete`" in findings(cached, "LRU.put is called by OrderStore.delete", put)
    assert "`shop/missing.py`" in findings(cached, "LRU.put is tested in shop/missing.py", put)


def test_dependency_and_absence_anchors_are_evidence_too(repo, ledger):
    repo.write("requirements.txt", "requests>=2.31\n")
    repo.commit("deps")
    ledger.record("HTTP goes through requests>=2.31, never `pickle`", ["dep:requests>=2.31", "import:pickle"])
    assert "`httpx_client`" in findings(ledger, "HTTP goes through httpx_client", ["dep:requests"])


def test_declared_unbound_terms_are_recorded_and_shown(cached):
    rec = cached.record("LRU.sign uses sha1; a later port will use blake2b", ["app/cache.py::LRU.sign"],
                        unbound=["blake2b"])
    assert cached.get(rec.id).unbound == ("blake2b",)
    item = cached.recall("LRU.sign sha1 blake2b", k=1).items[0]
    assert item.text.endswith("(not in its evidence: `blake2b`)")
    with pytest.raises(memvet.UsageError, match="'md5' is not a code term of the claim"):
        cached.record("LRU.sign uses sha1", ["app/cache.py::LRU.sign"], unbound=["md5"])


def test_an_unanchored_claim_is_not_bound_it_reads_unanchored(cached):
    rec = cached.record("We prefer blake2b for new code")
    assert cached.verify(rec.id).status is Status.UNANCHORED


def test_supersede_grades_the_new_claim(cached):
    old = cached.record("LRU.sign uses hashlib.sha1", ["app/cache.py::LRU.sign"])
    new = cached.supersede(old.id, "LRU.sign uses sha512", ["app/cache.py::LRU.sign"], reason="upgrade")
    assert "`sha512`" in new.findings[0]
    assert cached.verify(new.id).status is Status.NEEDS_REVALIDATION


# ------------------------------------------------------------------ property


def _fragments(source: str) -> list[str]:
    """Term-shaped pieces of code: identifiers and dotted names from the
    text (docstrings and comments say names too), numbers, strings, calls
    (balanced, on one line) and token-aligned spans from the code alone (a
    docstring or a comment never supports a value)."""
    out: list[str] = []
    code_lines = code_only(source, "python").splitlines()
    for raw, code in zip(source.splitlines(), code_lines, strict=True):
        body = raw.split("#", 1)[0]
        whole = set(code_tokens(body))  # `z_` of `[A-Za-z_$]` is no token of the code: `z_$` is
        out += [f for f in re.findall(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*", body)
                if all(part in whole for part in f.split("."))]
        out += re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", code)
        out += [m.group(0) for m in _STRING_TOKEN.finditer(code) if re.fullmatch(r'"[^"`\\]+"', m.group(0))]
        out += _calls(code)
        tokens = code_tokens(code)
        if len(tokens) >= 3:
            out.append("`" + " ".join(tokens[1:4]) + "`")
    # `raise` and `throw` are prose that claims what is raised: "raise the
    # HTTPStatusError" says more than the code's words (see test_binding_classes).
    return [f for f in out if "`" not in f[1:-1] and f not in ("raise", "throw")]


def _calls(line: str) -> list[str]:
    """The whole calls written on ``line``: a parenthesis inside a string
    argument (``rstrip(".,;:)")``) neither opens nor closes one."""
    out = []
    for m in re.finditer(r"[A-Za-z_][\w.]*\(", line):
        depth, quote = 0, ""
        for i in range(m.end() - 1, len(line)):
            ch = line[i]
            if quote:
                quote = "" if ch == quote and line[i - 1] != "\\" else quote
                continue
            if ch in "\"'":
                quote = ch
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                out.append(line[m.start(): i + 1])
                break
    return out


SOURCES = [CACHE, *(p.read_text(encoding="utf-8") for p in sorted(
    (Path(__file__).resolve().parents[2] / "core" / "memvet").glob("_[cmv]*.py")))]


@settings(max_examples=int(os.environ.get("MEMVET_PROPERTY_EXAMPLES", "150")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_claim_made_of_terms_copied_from_its_code_is_never_refused(data):
    source = data.draw(st.sampled_from(SOURCES))
    lines = source.splitlines()
    start = data.draw(st.integers(0, max(0, len(lines) - 1)))
    span = "\n".join(lines[start: start + 30])
    pieces = _fragments(span)
    if not pieces:
        return
    chosen = data.draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=6))
    filler = data.draw(st.lists(st.sampled_from(["the", "oldest entry", "is kept", "then", "so that", "and"]),
                                min_size=len(chosen), max_size=len(chosen)))
    claim = " ".join(f"{f} {c}" for f, c in zip(filler, chosen, strict=True))
    assert bind(claim, [EvidenceText("x.py::f", span, ("f",))]) == []


# ------------------------------------------------------------------ quotes


def test_quote_tokens_ignore_whitespace_and_comments():
    assert find_quote("popitem( last = False )", "self._data.popitem(last=False)  # lru", "python")
    assert find_quote("a = 1 # one", "a =\n    1", "python")
    assert not find_quote("popitem(last=True)", "self._data.popitem(last=False)", "python")
    assert find_quote('x = "# not a comment"', 'x = "# not a comment"', "python")


def test_a_quote_must_be_in_the_span_at_write(cached):
    with pytest.raises(memvet.QuoteNotFoundError, match=r"not in app/cache.py::LRU.put.*closest lines: .*"
                                                        r"popitem\(last=False\)"):
        cached.record("LRU.put evicts the oldest entry", [memvet.symbol("app/cache.py", "LRU.put",
                                                                        quote="popitem(last=True)")])
    with pytest.raises(memvet.QuoteNotFoundError, match="empty once comments are removed"):
        cached.record("LRU.put evicts", [memvet.symbol("app/cache.py", "LRU.put", quote="# the least")])
    with pytest.raises(memvet.InvalidAnchorError, match="non-empty"):
        memvet.symbol("app/cache.py", "LRU.put", quote="  ")
    with pytest.raises(memvet.InvalidAnchorError, match="not to dependency"):
        memvet.with_quote(memvet.dependency("requests"), "x")
    assert cached.decisions() == []


def test_a_quote_survives_an_unrelated_edit_and_not_its_own_change(repo, cached):
    quoted = cached.record("LRU.put evicts the oldest entry",
                           [memvet.symbol("app/cache.py", "LRU.put", quote="self._data.popitem(last=False)")])
    plain = cached.record("LRU.put stores the value", ["app/cache.py::LRU.put"])
    item = cached.recall("LRU.put evicts the oldest entry", k=1).current[0]
    assert item.text == ("LRU.put evicts the oldest entry (evidence: `self._data.popitem(last=False)` in LRU.put)")

    repo.replace("app/cache.py", "return self.sign(key)", "return self.sign(str(key))")
    repo.commit("unrelated body edit")
    v = cached.verify(quoted.id, at="HEAD")
    assert v.status is Status.VERIFIED
    assert "body changed; the quoted evidence is intact" in v.reason
    assert cached.verify(plain.id, at="HEAD").status is Status.STALE

    repo.replace("app/cache.py", "popitem(last=False)", "popitem(last=True)")
    repo.commit("the quoted line changes")
    v = cached.verify(quoted.id, at="HEAD")
    assert v.status is Status.STALE
    assert "the quoted evidence `self._data.popitem(last=False)` is no longer in the body" in v.reason


def test_a_file_quote(repo, cached):
    rec = cached.record("The cache caps at 128 entries", [memvet.file("app/cache.py", quote="MAX_ENTRIES = 128")])
    repo.replace("app/cache.py", '"""A tiny cache."""', '"""A tiny cache, edited."""')
    repo.commit("docstring")
    assert "content changed; the quoted evidence is intact" in cached.verify(rec.id, at="HEAD").reason
    repo.replace("app/cache.py", "MAX_ENTRIES = 128", "MAX_ENTRIES = 256")
    assert cached.verify(rec.id).status is Status.STALE


# ------------------------------------------------------------------ CLI


@pytest.fixture
def cli_repo(repo):
    repo.write("app/cache.py", CACHE, dedent=False)
    repo.commit("cache")
    return repo


def test_cli_quote_attaches_to_the_anchor_before_it(run, cli_repo):
    did = cli_record(run, "LRU.put evicts and LRU.sign hashes", "--symbol", "app/cache.py::LRU.put",
                     "--symbol", "app/cache.py::LRU.sign", "--quote", "hashlib.sha1(key.encode(\"utf-8\"))",
                     "--file", "README.md")
    shown = json.loads(run("show", did, "--json").stdout)
    quotes = {a["name"] if a["kind"] == "symbol" else a["path"]: a.get("quote", "")
              for a in shown["recorded_anchors"]}
    assert quotes == {"LRU.put": "", "LRU.sign": 'hashlib.sha1(key.encode("utf-8"))', "README.md": ""}
    text = run("show", did, "--no-code").stdout
    assert '    quote:  hashlib.sha1(key.encode("utf-8"))' in text


@pytest.mark.parametrize("args, message", [
    (["--quote", "x", "--symbol", "app/cache.py::LRU.put"], "a --quote must follow the --symbol or --file"),
    (["--dep", "requests", "--quote", "x"], "a --quote attaches to --symbol or --file, not to --dep"),
])
def test_cli_misplaced_quote_is_one_line_exit_2(run, cli_repo, args, message):
    out = run("record", "LRU.put evicts", *args, code=2)
    assert out.stderr.count("\n") == 1 and message in out.stderr
    assert json.loads(run("check", "--json").stdout)["decisions"] == []


def test_cli_findings_and_unbound(run, cli_repo):
    out = run("record", "LRU.sign uses sha512", "--symbol", "app/cache.py::LRU.sign")
    assert "recorded with 1 finding: served as unconfirmed, not current" in out.stderr
    assert "`sha512` (identifier) is not in app/cache.py::LRU.sign; the code says `sha1`" in out.stderr
    [graded] = json.loads(run("check", "--json").stdout)["decisions"]
    assert graded["status"] == "needs_revalidation" and graded["reason"].startswith("unconfirmed: `sha512`")
    did = cli_record(run, "LRU.sign uses sha1, not sha512", "--symbol", "app/cache.py::LRU.sign",
                     "--unbound", "sha512")
    assert "unbound:  sha512  (declared not in its evidence)" in run("show", did, "--no-code").stdout
    assert json.loads(run("show", did, "--json").stdout)["unbound"] == ["sha512"]


def test_term_kinds_are_exported():
    assert {k.value for k in TermKind} >= {"code", "call", "dotted", "identifier", "number", "string", "path"}


def test_import_grades_every_new_claim_again(cached, client):
    import uuid

    good = cached.record("LRU.sign uses hashlib.sha1", ["app/cache.py::LRU.sign"])
    cached.record("LRU.put evicts with popitem(last=False)", ["app/cache.py::LRU.put"])
    lines = memvet.export_jsonl(cached).lines
    forged = [line.replace("hashlib.sha1", "hashlib.sha256") if good.id in line and '"claim"' in line else line
              for line in lines]
    assert forged != lines
    other = memvet.Ledger.open(cached.git.root, client=client, embedding=memvet.HashingEmbedder(),
                               namespace=f"t{uuid.uuid4().hex[:12]}", disk_cache=False)
    # A claim its evidence does not bear out is graded again here: it enters
    # with the finding, a proposal, never current (the file cannot vouch for it).
    report = memvet.import_jsonl(other, forged)
    assert good.id in report.added and report.conflicts == ()
    taken = other.get(good.id)
    assert taken.lifecycle is memvet.Lifecycle.PROPOSED and "`hashlib.sha256`" in taken.findings[0]
    assert other.verify(good.id).status is Status.PROPOSED


def test_a_quoted_message_holding_a_call_is_one_string_as_written():
    # Found by the property above: the call inside the quotes was taken as
    # a term first, and the string term kept blanks where it had been.
    terms = claim_terms('it raises "{where} must be a table, not {type(value).__name__}" the')
    assert Term("{where} must be a table, not {type(value).__name__}", TermKind.STRING) in terms
    code = 'raise ManifestError(path, f"{where} must be a table, not {type(value).__name__}")\n'
    assert bind('it raises "{where} must be a table, not {type(value).__name__}"',
                [EvidenceText("x.py::f", code, ("f",))]) == []
