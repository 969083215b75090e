"""Unicode on the write path (issue 30, item 4): claims, quotes and anchor
specs are NFKC-folded with invisible characters removed before anything is
bound; a look-alike identifier is refused in one line that shows it."""

from __future__ import annotations

import pytest

import memvet
from memvet import Status, UsageError

SAVE = "shop/store.py::OrderStore.save"


def test_a_homoglyph_identifier_is_refused_and_nothing_is_written(ledger):
    with pytest.raises(UsageError, match=r"the claim names `OrderSt\u043ere` .*mixes Cyrillic and Latin"):
        ledger.record("OrderSt\u043ere.save appends one JSON line", [SAVE])
    assert ledger.decisions() == []


def test_full_width_and_zero_width_text_is_folded_before_binding(ledger):
    result = ledger.record("\uff2frder\uff33tore.save appends json.du\u200bmps(order)", [SAVE])
    assert result.decision.claim == "OrderStore.save appends json.dumps(order)"
    assert result.findings == () and ledger.verify(result.id).status is Status.VERIFIED


def test_anchor_specs_and_quotes_are_folded(ledger):
    spec = "shop/store.py\uff1a\uff1aOrderStore.sa\u200bve"
    result = ledger.record("OrderStore.save appends", memvet.quoted([spec], {spec: "json.dumps(\u200border)"}))
    anchor = result.decision.anchors[0]
    assert (anchor.path, anchor.name, anchor.quote) == ("shop/store.py", "OrderStore.save", "json.dumps(order)")


def test_prose_in_another_script_is_a_claim_like_any_other(ledger):
    result = ledger.record("OrderStore.save добавляет одну строку JSON в файл", [SAVE])
    assert result.outcome == "recorded"


def test_the_cli_refuses_a_look_alike_in_one_line(run):
    bad = run("record", "OrderSt\u043ere.save appends", "--symbol", SAVE, code=2)
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("memvet: error: the claim names `OrderSt")
    assert "\\u043e" in lines[0]
