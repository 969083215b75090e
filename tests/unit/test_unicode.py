"""Unicode tricks in claims, quotes and anchor specs (issue 30): folded, or refused.

Each behaviour both ways: what folding rewrites and what it keeps, which
names are refused and which prose is not. Lookalikes are written as escapes
(``v\\u0435rify`` is ``verify`` with a Cyrillic ``e``) so that a reader of
this file sees where they are; prose samples are written as they are read,
with ``noqa: RUF001`` where ruff flags their letters as lookalikes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import memvet
from memvet import _claims
from memvet._anchors import dependency, parse_anchor, symbol
from memvet._unicode import Suspicion, escape_invisible, fold, fold_and_check, fold_spec, suspicious_identifiers

EXAMPLES = settings(max_examples=int(os.environ.get("MEMVET_PROPERTY_EXAMPLES", "300")), deadline=None)

#: Cyrillic letters that look like the Latin letters they are keyed by.
CYRILLIC = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441"}
#: Names holding each of those letters; each spoof swaps one letter.
NAMES = ("verify", "OrderStore", "parse_config", "popitem")
SPOOFS = [(name, name[:i] + CYRILLIC[ch] + name[i + 1:]) for name in NAMES for i, ch in enumerate(name)
          if ch in CYRILLIC]

POP = "\u0440\u043e\u0440"  # `pop` in Cyrillic letters


def tokens(text: str, names: bool = False) -> list[str]:
    return [found.token for found in suspicious_identifiers(text, names=names)]


# ======================================================================= fold

@pytest.mark.parametrize(("written", "folded"), [
    ("\uff56\uff45\uff52\uff49\uff46\uff59", "verify"),  # full-width
    ("\uff2f\uff52\uff44\uff45\uff52\uff33\uff54\uff4f\uff52\uff45", "OrderStore"),
    ("\U0001d42f\U0001d41e\U0001d42b\U0001d422\U0001d41f\U0001d432", "verify"),  # mathematical bold
    ("\ufb01le_name", "file_name"),  # a ligature
    ("\u24e5erify", "verify"),  # a circled letter
    ("\u2163", "IV"),  # a roman numeral
])
def test_fold_writes_compatibility_letters_as_plain_ones(written, folded):
    assert fold(written) == folded


@pytest.mark.parametrize("kept", [
    "10\u2076 entries", "O(n\u00b2)", "H\u2082O", "\u00bd of the cache", "1\u00ba",  # raised and lowered
    "caf\u00e9", "Stra\u00dfe", "\u041c\u0435\u0442\u043e\u0434", "\u30ad\u30e3\u30c3\u30b7\u30e5", "\u00b5s",
])
def test_fold_keeps_superscripts_fractions_and_letters_of_every_language(kept):
    # NFKC would read 10^6 as 106 and n squared as n2, and the micro sign
    # as the Greek letter mu
    assert fold(kept) == kept


def test_a_unit_string_with_the_micro_sign_is_no_mixed_script_name():
    # Go's time.ParseDuration units are "nsu\u00b5mh": folded to Greek mu, the quoted
    # string would mix Latin and Greek and be refused; the micro sign is of no script
    claim = 'it appends "ns" when the string has none of "nsu\u00b5mh"'
    assert fold_and_check(claim, "the claim") == claim
    with pytest.raises(memvet.UsageError, match="mixes Greek and Latin letters"):
        fold_and_check('it appends "ns" when the string has none of "nsu\u03bcmh"', "the claim")


@pytest.mark.parametrize("invisible", [
    "\u200b",  # ZERO WIDTH SPACE
    "\u200c",  # ZERO WIDTH NON-JOINER
    "\u200d",  # ZERO WIDTH JOINER
    "\u2060",  # WORD JOINER
    "\ufeff",  # BOM / ZERO WIDTH NO-BREAK SPACE
    "\u00ad",  # SOFT HYPHEN
    "\u200e", "\u200f", "\u202e", "\u2066", "\u2069",  # bidirectional controls
    "\u180e",  # MONGOLIAN VOWEL SEPARATOR
    "\u034f",  # COMBINING GRAPHEME JOINER
    "\u3164", "\u115f", "\uffa0",  # Hangul fillers
    "\ufe0f", "\U000e0100",  # variation selectors
    "\U000e0041",  # a tag character
])
def test_fold_removes_invisible_characters_from_a_name(invisible):
    assert fold(f"ver{invisible}ify") == "verify"
    assert fold(f"{invisible}verify{invisible}") == "verify"


@pytest.mark.parametrize("space", ["\u00a0", "\u2007", "\u202f", "\u2009", "\u200a", "\u205f", "\u3000", "\u1680"])
def test_fold_makes_every_space_a_plain_space(space):
    assert fold(f"max{space}size") == "max size"


def test_fold_makes_line_and_paragraph_separators_line_breaks():
    assert fold("one\u2028two\u2029three") == "one\ntwo\nthree"


@pytest.mark.parametrize("sequence", [
    "\U0001f469\u200d\U0001f4bb",  # woman technologist: ZWJ between emoji
    "\u2764\ufe0f\u200d\U0001f525",  # heart on fire: a variation selector and a ZWJ
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian: ZWNJ is part of the spelling
    "\u0915\u094d\u200d\u0937",  # Devanagari: ZWJ asks for a half form
    "\u845b\U000e0100",  # a Han ideograph with its variation selector
])
def test_fold_keeps_the_joiners_scripts_and_emoji_need(sequence):
    assert fold(sequence) == sequence


def test_fold_removes_joiners_beside_latin_or_ascii_letters():
    assert fold("a\u200d\u0431") == "a\u0431"
    assert fold("\u00e9\u200c\u0915") == "\u00e9\u0915"
    assert fold("verify\ufe0f") == "verify"


def test_fold_composes_what_a_removed_character_kept_apart():
    assert fold("e\u200b\u0301") == "\u00e9"


def test_fold_folds_a_code_quote_the_same_way():
    quote = "\uff50\uff4f\uff50\uff49\uff54\uff45\uff4d(\uff4c\uff41\uff53\uff54\uff1dFalse)"
    code = "def put(self, key):\n    self.data.popitem(last=False)\n"
    assert fold(quote) == "popitem(last=False)"
    assert not _claims.find_quote(quote, code, "python")
    assert _claims.find_quote(fold(quote), code, "python")


@EXAMPLES
@given(st.text())
def test_fold_is_idempotent(text):
    once = fold(text)
    assert fold(once) == once


@EXAMPLES
@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_fold_leaves_ascii_text_unchanged(text):
    assert fold(text) == text


@EXAMPLES
@given(st.text(alphabet=st.characters(codec="utf-8")))
def test_folded_text_has_no_unicode_space_and_no_invisible_beside_ascii(text):
    folded = fold(text)
    assert not re.search("[\u00a0\u2000-\u200b\u202f\u205f\u3000\u2060\ufeff\u00ad\u202a-\u202e\u2066-\u2069]", folded)
    assert not re.search("[\x00-\x7f][\u200c\u200d\ufe00-\ufe0f]|[\u200c\u200d][\x00-\x7f]", folded)


# ======================================================================= suspicious names

@pytest.mark.parametrize(("name", "spoof"), SPOOFS)
@pytest.mark.parametrize("form", ["{}", "`{}`", "{}()", "LRU.{}", "`{}(key)`"])
def test_a_cyrillic_lookalike_in_a_name_is_refused_wherever_it_stands(name, spoof, form):
    [found] = suspicious_identifiers(f"the claim: {form.format(spoof)} is called once")
    assert (found.token, found.suspicion, found.scripts, found.reading) == (
        spoof, Suspicion.MIXED_SCRIPT, ("Cyrillic", "Latin"), name)
    [cyrillic] = [ch for ch in spoof if not ch.isascii()]
    assert [(x.char, x.reads_as) for x in found.lookalikes] == [(cyrillic, name[spoof.index(cyrillic)])]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("form", ["{}", "`{}`", "{}()", "LRU.{}"])
def test_the_same_names_in_ascii_are_not_suspicious(name, form):
    assert tokens(f"the claim: {form.format(name)} is called once") == []


def test_a_full_width_name_folds_to_ascii_and_passes():
    claim = "`\uff56\uff45\uff52\uff49\uff46\uff59` is called once"
    assert tokens(claim) == []
    assert fold_and_check(claim, "the claim") == "`verify` is called once"


def test_a_full_width_name_with_a_lookalike_in_it_is_still_refused():
    assert tokens("`\uff56\u0435\uff52\uff49\uff46\uff59`") == ["v\u0435rify"]


def test_a_zero_width_space_does_not_hide_a_lookalike():
    assert tokens("`v\u0435\u200brify`") == ["v\u0435rify"]
    assert tokens("`ver\u200bify`") == []


@pytest.mark.parametrize(("claim", "token"), [
    ("`Order\u03a3tore` saves orders", "Order\u03a3tore"),  # Greek capital sigma
    ("Order\u03a3tore.save writes a row", "Order\u03a3tore"),
    ("`\u0394t_max` is 5", "\u0394t_max"),
    ("the timeout is `timeout_\u03bcs`", "timeout_\u03bcs"),  # Greek mu; the micro sign is of no script
    ("`\u0434ata` is a dict", "\u0434ata"),  # Cyrillic de: no lookalike, still two scripts in a name
])
def test_a_mixed_script_name_in_a_code_position_is_refused(claim, token):
    [found] = suspicious_identifiers(claim)
    assert (found.token, found.suspicion) == (token, Suspicion.MIXED_SCRIPT)


@pytest.mark.parametrize("claim", [
    "latency stays under 5 \u00b5s and 50 \u03bcs",  # a unit: Greek mu with a Latin s
    "\u0394t is the step between two reads",
])
def test_a_mixed_script_word_in_prose_is_accepted(claim):
    assert tokens(claim) == []


@pytest.mark.parametrize(("claim", "reading"), [
    (f"`{POP}` evicts the oldest entry", "pop"),
    (f"{POP}() evicts the oldest entry", "pop"),
    (f"LRU.{POP} evicts the oldest entry", "pop"),
    (f"{POP}.{POP} is called twice", "pop"),
    ("hashes with \u0455\u04bb\u04301", "sha1"),  # shaped like an identifier (a digit)
    ("`\u0131d_map` is a dict", "id_map"),  # Latin dotless i
    ("\u0131d_map is a dict", "id_map"),
    ("`max_si\u0307ze` is 5", "max_size"),  # a combining dot that hides on the i
    ('the key is "\u0441\u043e\u0440"', "cop"),  # a quoted string is a term
])
def test_a_name_written_wholly_in_lookalikes_is_refused_in_a_code_position(claim, reading):
    found = suspicious_identifiers(claim)
    assert found
    assert {(x.suspicion, x.reading) for x in found} == {(Suspicion.CONFUSABLE, reading)}


@pytest.mark.parametrize("claim", [
    # Russian prose whose words a, o, c are all lookalikes: "the method `LRU.put` removes the oldest
    # record, and about it writes with litter"
    "Метод `LRU.put` удаляет старую запись, а о ней пишет с сором",  # noqa: RUF001
    f"the {POP} step drops nothing",  # a lookalike word in prose names nothing the binder checks
    "k\u0131sa bir yol",  # Turkish
])
def test_a_word_written_wholly_in_lookalikes_is_accepted_in_prose(claim):
    assert tokens(claim) == []


PROSE = [
    # French
    "Le cache \u00e9vince l'\u00e9l\u00e9ment le plus ancien avec `popitem(last=False)` dans `LRU.put` : "
    "c'est le c\u0153ur du syst\u00e8me, \u00e0 5\u00a0% pr\u00e8s.",
    # German
    "Die Gr\u00f6\u00dfe des Caches ist auf `max_size` begrenzt; \u00e4ltere Eintr\u00e4ge entfernt "
    "`popitem(last=False)`.",
    "Метод `LRU.put` удаляет самую старую запись, а о переполнении сообщает `max_size`.",  # noqa: RUF001
    "Η μέθοδος `LRU.put` αφαιρεί το παλαιότερο στοιχείο όταν γεμίσει.",  # noqa: RUF001
    "キャッシュが一杯になるとOrderStoreクラスは`popitem(last=False)`で最も古い要素を削除する。",
    "当缓存已满时，OrderStore类通过`popitem(last=False)`删除最旧的条目。",  # noqa: RUF001
    "캐시가 가득 차면 OrderStore는 `popitem(last=False)`로 가장 오래된 항목을 제거한다.",
    "OrderStoreจะลบรายการเก่าที่สุดด้วย `popitem(last=False)`",
    "कैश भर जाने पर `LRU.put` सबसे पुरानी प्रविष्टि हटाता है।",
    "وقتی حافظه پر می\u200cشود `LRU.put` قدیمی\u200cترین مورد را حذف می\u200cکند.",
    "Önbellek dolunca en eski kayıt `popitem(last=False)` ile silinir.",  # noqa: RUF001
    "Lookups are O(1), eviction O(n\u00b2) at worst; 10\u2076 entries fit in \u00bd GB.",
]


@pytest.mark.parametrize("claim", PROSE)
def test_prose_in_any_language_is_accepted(claim):
    assert tokens(claim) == []
    assert fold_and_check(claim, "the claim") == fold(claim)


@pytest.mark.parametrize("claim", [
    "the cache is fast \U0001f680",
    "\U0001f469\u200d\U0001f4bb wrote `LRU.put`",
    "\u2764\ufe0f\u200d\U0001f525 hot path in `max_size`",
    "\U0001f1fa\U0001f1e6 locale",
    "1\ufe0f\u20e3 first, \u2705 checked, \U0001f44d\U0001f3fd",
])
def test_emoji_are_accepted(claim):
    assert tokens(claim) == []
    fold_and_check(claim, "the claim")


@pytest.mark.parametrize(("spec", "token"), [
    (f"app/cache.py::LRU.{POP}", POP),
    ("app/c\u0430che.py::LRU.put", "c\u0430che"),
    ("dep:r\u0435quests>=2", "r\u0435quests"),
    (f"pattern:{POP}\\(", POP),
    ("import:\u0455\u0443\u0455", "\u0455\u0443\u0455"),
    ("app/\u0131d_map.py", "\u0131d_map"),
])
def test_an_anchor_spec_refuses_a_lookalike_name(spec, token):
    assert tokens(spec, names=True) == [token]


@pytest.mark.parametrize("spec", [
    "docs/\u0440\u0443\u043a\u043e\u0432\u043e\u0434\u0441\u0442\u0432\u043e.md",  # Russian: not all lookalikes
    "docs/k\u0131sa.md",  # Turkish, not shaped like an identifier
    "docs/\u8a2d\u8a08.md",
    "pattern:\\bpop\\(",
    "pattern:\\u0440\\u043e\\u0440",
    "app/cache.py::LRU.put",
    "dep:requests>=2.31",
])
def test_an_anchor_spec_accepts_names_in_one_script(spec):
    assert tokens(spec, names=True) == []


# ======================================================================= the write path

def test_a_quote_is_folded_and_checked_like_a_claim():
    full_width = "\uff50\uff4f\uff50\uff49\uff54\uff45\uff4d(last=False)"
    assert fold_and_check(full_width, "the quote") == "popitem(last=False)"
    russian = 'raise KeyError("\u043a\u043b\u044e\u0447 \u043d\u0435 \u043d\u0430\u0439\u0434\u0435\u043d")'
    assert fold_and_check(russian, "the quote") == russian
    for quote in (f"self.{POP}(key)", "popitem(l\u0430st=False)"):
        with pytest.raises(memvet.UsageError, match="the quote names"):
            fold_and_check(quote, "the quote")


def test_fold_spec_folds_an_anchor_string_before_it_is_parsed():
    written = "\uff41pp/cache.py\uff1a\uff1aLRU.put"  # full-width a and colons
    assert fold_spec(written) == "app/cache.py::LRU.put"
    assert parse_anchor(fold_spec(written)) == symbol("app/cache.py", "LRU.put")
    with pytest.raises(memvet.UsageError, match=r"^the anchor names `c\u0430che`"):
        fold_spec("app/c\u0430che.py::LRU.put")


def test_fold_spec_folds_each_field():
    spec = symbol("\uff41pp/cache.py", "LRU.\uff50ut", quote="\uff50\uff4f\uff50\uff49\uff54\uff45\uff4d(last=False)")
    assert fold_spec(spec) == symbol("app/cache.py", "LRU.put", quote="popitem(last=False)")
    plain = dependency("requests>=2.31")
    assert fold_spec(plain) is plain


@pytest.mark.parametrize(("spec", "field"), [
    (symbol("app/cache.py", f"LRU.{POP}"), "name"),
    (symbol("app/c\u0430che.py", "LRU.put"), "path"),
    (symbol("app/cache.py", "LRU.put", quote=f"self.data.{POP}item(last=False)"), "quote"),
])
def test_fold_spec_refuses_a_lookalike_in_any_field(spec, field):
    with pytest.raises(memvet.UsageError, match=f"the (anchor's )?{field} names"):
        fold_spec(spec)


def test_a_refusal_is_a_usage_error_of_one_line_naming_token_scripts_and_escapes():
    with pytest.raises(memvet.UsageError) as caught:
        fold_and_check("`v\u0435rify` is called once", "the claim")
    assert isinstance(caught.value, ValueError)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("the claim names `v\u0435rify` (written v\\u0435rify)")
    assert "mixes Cyrillic and Latin letters" in message
    assert "\\u0435 (CYRILLIC SMALL LETTER IE) looks like 'e'" in message


def test_a_refusal_of_a_confusable_names_what_it_reads_as():
    with pytest.raises(memvet.UsageError) as caught:
        fold_and_check(f"`{POP}` evicts", "the claim")
    message = str(caught.value)
    assert "(written \\u0440\\u043e\\u0440), Cyrillic letters that read as `pop`" in message
    assert "write `pop` in ASCII" in message


def test_a_refusal_counts_the_other_suspicious_names():
    with pytest.raises(memvet.UsageError, match=r"\(and 2 more: `\\u0440\\u043e\\u0440`, `x\\u0131d_map`\)"):
        fold_and_check(f"`v\u0435rify`, `{POP}` and `x\u0131d_map`", "the claim")


def test_a_text_of_only_invisible_characters_is_refused_with_them_shown():
    with pytest.raises(memvet.UsageError) as caught:
        fold_and_check("\u200b\u2060\u00ad", "the claim")
    assert str(caught.value) == "the claim is only invisible characters: \\u200b\\u2060\\xad"


def test_plain_text_passes_unchanged():
    claim = "LRU.put evicts with popitem(last=False) when len(self.data) > max_size"
    assert fold_and_check(claim, "the claim") is claim
    assert fold_and_check("", "the claim") == ""


def test_a_suspicious_token_is_reported_as_data():
    [found] = suspicious_identifiers("`v\u0435rify`")
    assert found.to_dict() == {
        "token": "v\u0435rify", "written": "v\\u0435rify", "suspicion": "mixed-script",
        "scripts": ["Cyrillic", "Latin"], "reading": "verify",
        "lookalikes": [{"char": "\u0435", "name": "CYRILLIC SMALL LETTER IE", "reads_as": "e"}],
    }


# ======================================================================= escaping

@pytest.mark.parametrize(("raw", "shown"), [
    ("ver\u200bify", "ver\\u200bify"),
    ("max\u00a0size", "max\\xa0size"),
    ("a\nb\tc\r", "a\\nb\\tc\\r"),
    ("\u202eevil", "\\u202eevil"),
    ("x\u3164y", "x\\u3164y"),  # a Hangul filler: a letter that draws nothing
    ("tag\U000e0041", "tag\\U000e0041"),
    ("blank\u2800", "blank\\u2800"),
    ("\x1b[2J", "\\x1b[2J"),
])
def test_escape_invisible_shows_each_invisible_character(raw, shown):
    assert escape_invisible(raw) == shown


@pytest.mark.parametrize("text", [
    "verify", "Gr\u00f6\u00dfe", "\u041c\u0435\u0442\u043e\u0434", "\u30ad\u30e3\u30c3\u30b7\u30e5", "\U0001f680",
    "C:\\cache\\lru.py", "a b",
])
def test_escape_invisible_leaves_visible_text_alone(text):
    assert escape_invisible(text) == text


@EXAMPLES
@given(st.text())
def test_escaped_text_is_printable(text):
    assert escape_invisible(text).isprintable()


@EXAMPLES
@given(st.text())
def test_any_text_is_either_folded_or_refused(text):
    try:
        folded = fold_and_check(text, "the claim")
    except memvet.UsageError as error:
        assert str(error).isprintable()
    else:
        assert folded == fold(text)


def test_ascii_text_never_loads_the_confusables_data():
    code = ("import sys; from memvet._unicode import fold_and_check; "
            "fold_and_check('LRU.put uses popitem(last=False)', 'the claim'); "
            "assert 'confusable_homoglyphs' not in sys.modules; "
            "fold_and_check('caf\\u00e9', 'the claim'); "
            "assert 'confusable_homoglyphs' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=900)


@pytest.mark.parametrize("claim", [
    "characters without an ASCII decomposition (like '\u00c6') silently disappear",  # Latin AE, a value
    'the Turkish word "k\u0131sa" is kept as written',
    "the key is '\u0131d_map'",  # a Latin lookalike in a string: the binder compares the value as written
])
def test_a_latin_letter_in_a_quoted_string_is_a_value_not_a_name(claim):
    assert suspicious_identifiers(claim) == []


@pytest.mark.parametrize(("claim", "reading"), [
    ("`\u00c6` is the marker", "AE"),  # the same letter as a name is refused
    ('the key is "\u0441\u043e\u0440"', "cop"),  # Cyrillic in quotes still is
])
def test_outside_quotes_or_outside_latin_the_lookalike_is_still_refused(claim, reading):
    assert [x.reading for x in suspicious_identifiers(claim)] == [reading]
