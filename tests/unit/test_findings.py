"""Grade, don't gate (issue 30): a doubt about a claim is a finding stored on
the decision, which is then served as unconfirmed (never as current) until a
person resolves it; a write is refused only when it is certain to be wrong."""

from __future__ import annotations

import json
import os

import pytest
from _cli import record
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memvet
from memvet import Author, Lifecycle, NotAllowedError, QuoteNotFoundError, Status, UsageError
from memvet._claims import EvidenceText, bind
from memvet._rules import contradictions

SAVE = "shop/store.py::OrderStore.save"
LOAD = "shop/store.py::OrderStore.load"
SHA = "`sha256` (identifier) is not in shop/store.py::OrderStore.save"


def test_a_term_the_code_does_not_say_is_a_finding_not_a_refusal(ledger):
    result = ledger.record("OrderStore.save hashes each order with sha256", [SAVE])
    assert result.outcome == "recorded" and result.decision.lifecycle is Lifecycle.ACTIVE
    assert [f.split(";")[0] for f in result.findings] == [SHA]
    assert result.to_dict()["findings"] == list(result.findings)
    verdict = ledger.verify(result.id)
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert verdict.reason.startswith(f"unconfirmed: {SHA}")
    assert verdict.reason.endswith("; its evidence: verified (its anchor holds)")
    recall = ledger.recall("how are orders hashed?")
    assert [i.id for i in recall.caution] == [result.id] and recall.current == ()
    assert [v.id for v in ledger.unconfirmed()] == [result.id]


def test_a_bound_claim_has_no_findings_and_is_current(ledger):
    result = ledger.record("OrderStore.save appends json.dumps(order) to self.path", [SAVE])
    assert result.findings == () and ledger.verify(result.id).status is Status.VERIFIED
    assert ledger.unconfirmed() == []


def test_what_stays_certain_still_refuses(ledger):
    with pytest.raises(memvet.AnchorNotFoundError):
        ledger.record("OrderStore.flush writes", ["shop/store.py::OrderStore.flush"])
    with pytest.raises(QuoteNotFoundError):
        ledger.record("save appends", [memvet.with_quote(memvet.parse_anchor(SAVE), "os.fsync(handle)")])
    assert ledger.decisions() == []


def test_a_certain_rule_refuses(ledger, monkeypatch):
    """A contradiction refuses only when its rule is of measured precision."""
    from memvet import _ledger

    doubt = memvet.Contradiction("order", "the claim puts `a` before `b`", "b(); a()", SAVE, ("a", "b"))
    monkeypatch.setattr(_ledger, "contradictions", lambda *args, **kwargs: [doubt])
    graded = ledger.record("OrderStore.save appends", [SAVE])
    assert graded.findings == (doubt.line(),)
    monkeypatch.setattr(_ledger, "CERTAIN_RULES", frozenset({"order"}))
    with pytest.raises(memvet.ClaimContradictsCodeError, match="the claim puts `a` before `b`"):
        ledger.record("OrderStore.save appends one line", [SAVE])


def test_grade_claim_and_bind_claim_say_the_same_without_writing(ledger):
    anchors = ledger.resolve_anchors([SAVE])
    assert [f.split(";")[0] for f in ledger.grade_claim("save hashes with sha256", anchors)] == [SHA]
    with pytest.raises(memvet.UnboundClaimError, match=r"`sha256` \(identifier\)"):
        ledger.bind_claim("save hashes with sha256", anchors)
    assert ledger.grade_claim("save hashes with `sha256`", anchors, unbound=["sha256"]) == ()
    assert ledger.decisions() == []


def test_a_proposal_shows_its_findings_in_review(ledger):
    prop = ledger.record("OrderStore.save hashes with sha256", [SAVE], author=Author.agent("claude-code"))
    verdict = ledger.verify(prop.id)
    assert verdict.status is Status.PROPOSED
    assert verdict.reason.startswith(f"not yet reviewed; unconfirmed: {SHA}")


def test_drifted_evidence_keeps_its_status_and_gains_the_finding(ledger, repo):
    result = ledger.record("OrderStore.save hashes with sha256", [SAVE])
    repo.replace("shop/store.py", '"a"', '"w"')
    verdict = ledger.verify(result.id)
    assert verdict.status is Status.STALE and f"; also, unconfirmed: {SHA}" in verdict.reason


# ------------------------------------------------------------------ resolve


def test_a_person_resolves_by_quoting_the_line_that_says_it(ledger, repo):
    doubted = ledger.record("OrderStore.save hashes with sha256", [SAVE])
    with pytest.raises(NotAllowedError, match=r"an agent \(claude-code\) cannot resolve"):
        ledger.resolve(doubted.id, quote="json.dumps(order)", reason="x", author=Author.agent("claude-code"))
    with pytest.raises(QuoteNotFoundError):
        ledger.resolve(doubted.id, quote="hashlib.sha256(order)", reason="x", author="Bea")
    with pytest.raises(UsageError, match="is not a symbol or file anchor of"):
        ledger.resolve(doubted.id, quote="json.dumps(order)", anchor=LOAD, reason="x", author="Bea")
    with pytest.raises(UsageError, match="resolve takes a quote"):
        ledger.resolve(doubted.id, reason="x", author="Bea")
    settled = ledger.resolve(doubted.id, quote="json.dumps(order)", anchor=SAVE, reason="read save()",
                             author="Bea")
    assert settled.findings == () and [a.quote for a in settled.anchors] == ["", "json.dumps(order)"]
    assert ledger.verify(doubted.id).status is Status.VERIFIED
    last = ledger.history(doubted.id)[-1]
    assert (last.action, last.author, last.author_kind) == ("resolve", "Bea", "person")
    assert last.reason == "read save() (1 of 1 findings settled by the quote `json.dumps(order)`)"
    with pytest.raises(NotAllowedError, match="has no open findings; nothing to resolve"):
        ledger.resolve(doubted.id, quote="json.dumps(order)", reason="again", author="Bea")
    repo.replace("shop/store.py", "json.dumps(order)", "repr(order)")  # the quoted line is gone
    assert ledger.verify(doubted.id).status is Status.STALE


def test_a_person_declares_terms_unbound_and_what_is_left_stays_open(ledger):
    doubted = ledger.record("OrderStore.save hashes with sha256 and gzip_level", [SAVE])
    assert len(doubted.findings) == 2
    left = ledger.resolve(doubted.id, unbound=["sha256"], reason="the product's name", author="Bea")
    assert left.unbound == ("sha256",) and len(left.findings) == 1 and "gzip_level" in left.findings[0]
    assert ledger.verify(doubted.id).status is Status.NEEDS_REVALIDATION
    done = ledger.resolve(doubted.id, unbound="gzip_level", reason="planned", author="Bea")
    assert done.findings == () and ledger.verify(doubted.id).status is Status.VERIFIED
    with pytest.raises(UsageError, match="is not a code term of the claim"):
        ledger.record("OrderStore.save appends", [SAVE], unbound=["nothing_here"])


def test_resolve_is_for_active_or_proposed_decisions(ledger):
    doubted = ledger.record("OrderStore.save hashes with sha256", [SAVE])
    ledger.reject(doubted.id, reason="wrong", author="Bea")
    with pytest.raises(NotAllowedError, match="only an active decision can change"):
        ledger.resolve(doubted.id, unbound=["sha256"], reason="x", author="Bea")


# ------------------------------------------------------------------ the command line


def test_findings_on_the_command_line(run, repo):
    out = run("record", "OrderStore.save hashes with sha256", "--symbol", SAVE)
    did = out.stdout.strip()
    assert "recorded with 1 finding: served as unconfirmed, not current" in out.stderr
    assert f"  - {SHA}" in out.stderr
    fine = record(run, "checksum is the byte sum mod 255", "--symbol", "shop/store.py::checksum")
    check = json.loads(run("check", "--json").stdout)["decisions"]
    assert {d["id"]: d["status"] for d in check} == {did: "needs_revalidation", fine: "verified"}
    assert f"  finding:  {SHA}" in run("show", did).stdout
    text = run("review", "--no-code").stdout
    assert text.startswith(f"{did}  recorded by Ada Tester (person), unconfirmed")
    assert f"memvet resolve {did} --quote CODE" in text and text.rstrip().endswith("1 decision(s) with findings")
    assert json.loads(run("review", "--json").stdout)["findings"][0]["id"] == did
    bad = run("resolve", did, "--quote", "hashlib.sha256(order)", "--reason", "x", code=2)
    assert bad.stderr.startswith("memvet: error: ") and len(bad.stderr.strip().splitlines()) == 1
    done = run("resolve", did, "--quote", "json.dumps(order)", "--reason", "read it")
    assert done.stdout.startswith(f"{did} resolved: verified (all 2 anchors hold")
    assert json.loads(run("check", "--json").stdout)["decisions"][0]["status"] == "verified"
    again = record(run, "OrderStore.load parses with gzip_level", "--symbol", LOAD)
    data = json.loads(run("resolve", again, "--unbound", "gzip_level", "--reason", "planned", "--json").stdout)
    assert data == {"id": again, "status": "verified", "reason": "its anchor holds", "findings": [],
                    "unbound": ["gzip_level"]}


def test_an_import_grades_again_and_a_file_cannot_erase_findings(open_ledger):
    source = open_ledger()
    doubted = source.record("OrderStore.save hashes with sha256", [SAVE]).id
    lines = []
    for line in memvet.export_jsonl(source).text().splitlines():
        record_ = json.loads(line)
        if record_.get("id") == doubted:
            assert record_["findings"][0].startswith(SHA)
            record_["findings"] = []  # a file that says the doubt was settled
        lines.append(json.dumps(record_))
    target = open_ledger()
    report = memvet.import_jsonl(target, lines, source="team.jsonl", trust=True)
    assert report.added == (doubted,)
    assert [f.split(";")[0] for f in target.get(doubted).findings] == [SHA]
    assert target.verify(doubted).status is Status.NEEDS_REVALIDATION


def test_a_resolving_quote_is_folded_like_every_quote(ledger):
    doubted = ledger.record("OrderStore.save hashes with sha256", [SAVE])
    settled = ledger.resolve(doubted.id, quote="json.du\u200bmps(order)", reason="read save()", author="Bea")
    assert settled.anchors[-1].quote == "json.dumps(order)"


# ------------------------------------------------------------------ property: what the code says is never doubted

_PARTS = ("load", "user", "cache", "batch", "token", "retry", "limit", "parse", "entry", "store", "queue", "frame")
_NAME = st.tuples(st.sampled_from(_PARTS), st.sampled_from(_PARTS)).map("_".join)
_WORDS = st.lists(st.sampled_from(("unable", "to", "reach", "server", "bad", "request", "value", "missing")),
                  min_size=2, max_size=4).map(" ".join)


@st.composite
def _code_and_claim(draw: st.DrawFn) -> tuple[str, str, str]:
    """A small function in Python or JavaScript (names, calls with
    arguments, numbers, strings), and a claim made only of what it says:
    its names, its calls with some arguments written as placeholders, its
    keyword arguments, its numbers (with ``_`` or without) and its strings."""
    names = draw(st.lists(_NAME, min_size=5, max_size=5, unique=True))
    fn, param, local, callee, keyword = names
    n1, n2, n3 = draw(st.lists(st.integers(10, 999_999), min_size=3, max_size=3, unique=True))
    text = draw(_WORDS)
    python = draw(st.booleans())
    if python:
        label = f"app/mod.py::{fn}"
        code = (f"def {fn}({param}, limit={n1}):\n"
                f"    {local} = {callee}({param}, \"{text}\", {n2})\n"
                f"    return {local}.send({keyword}={n3})\n")
    else:
        label = f"src/mod.js::{fn}"
        code = (f"function {fn}({param}, limit = {n1}) {{\n"
                f"  const {local} = {callee}({param}, '{text}', {n2});\n"
                f"  return {local}.send({{{keyword}: {n3}}});\n}}\n")

    def written(n: int) -> str:  # 10_000 or 10000: people write both
        return f"{n:_}" if draw(st.booleans()) else str(n)

    placeholder = draw(st.sampled_from(["...", "<value>", "N"]))
    pieces = [
        f"`{fn}`", param, local, keyword,
        f"{callee}({param}, {placeholder}, {written(n2)})",
        f"{callee}({placeholder})",
        f"`{callee}({param}, ...)`",
        f"limit={written(n1)}" if python else f"a limit of {written(n1)}",
        written(n2), written(n3), f'"{text}"', f"'{text}'",
    ]
    if python:
        pieces.append(f"{local}.send({keyword}={written(n3)})")
    chosen = draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=5))
    claim = f"{fn} mentions " + ", and it mentions ".join(chosen) + "."
    return label, code, claim


@settings(max_examples=int(os.environ.get("MEMVET_PROPERTY_EXAMPLES", "150")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(_code_and_claim())
def test_a_claim_made_only_of_what_its_code_says_is_never_refused_nor_demoted(case):
    label, code, claim = case
    evidence = [EvidenceText(label, code, (label, label.split("::", 1)[1]))]
    assert bind(claim, evidence) == [], claim
    assert contradictions(claim, evidence) == [], claim
