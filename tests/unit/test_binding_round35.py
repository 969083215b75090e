"""Binding classes of issue 30's round 35 (tuning sets: kr/pretty and unjs/unimport, uber-go/multierr and
unjs/get-port-please after their sealed runs, and four sets written blind at the round's start:
Masterminds/squirrel, srijs/rust-crc32fast, pypa/readme_renderer, unjs/image-meta).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, person_write, unbound

import memvet
from memvet._claims import number_value
from memvet._rules import contradictions

# ------------------------------------------------ an example of what a message the code formats prints

DIFF_GO = ev("diff.go::diffPrinter.diff", """\
func (w diffPrinter) diff(av, bv reflect.Value) {
	at := av.Type()
	bt := bv.Type()
	if at != bt {
		w.printf("%v != %v", at, bt)
		return
	}
	switch kind := at.Kind(); kind {
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		if a, b := av.Pointer(), bv.Pointer(); a != b {
			w.printf("%#x != %#x", a, b)
		}
	case reflect.Map:
		ak, both, bk := keyDiff(av.MapKeys(), bv.MapKeys())
		for _, k := range ak {
			w.printf("%q != (missing)", av.MapIndex(k))
		}
		for _, k := range both {
			w.diff(av.MapIndex(k), bv.MapIndex(k))
		}
		for _, k := range bk {
			w.printf("(missing) != %q", bv.MapIndex(k))
		}
	case reflect.Slice:
		lenA := av.Len()
		lenB := bv.Len()
		if lenA != lenB {
			w.printf("%s[%d] != %s[%d]", av.Type(), lenA, bv.Type(), lenB)
			break
		}
	}
}
""", "go")


def test_an_example_output_fills_the_fields_of_a_message_the_code_formats():
    assert unbound("A type mismatch prints `int != string` and stops.", DIFF_GO) == []
    assert unbound("Slices of another length give one line, `[]int[0] != []int[1]`.", DIFF_GO) == []
    assert unbound("Pointers differ as `0xc000... != 0xc000...`.", DIFF_GO) == []
    assert unbound("A key only in a shows as `X != (missing)`.", DIFF_GO) == []
    # a field takes a run without spaces: more in it is not the message, and the fixed text must be the code's
    assert unbound("Slice elements show up as `C.[2]: 3 != 4`.", DIFF_GO) == ["C.[2]: 3 != 4"]
    assert unbound("A key only in a shows as `X is missing`.", DIFF_GO) == ["X is missing"]
    assert unbound("A key only in a shows as `X == (missing)`.", DIFF_GO) == ["X == (missing)"]


SPLIT_PY = ev("src/x.py::explain", """\
def explain(key, value):
    if value is None:
        raise KeyError(f"{key}: no value")
    return "%s=%s" % (key, value)
""", "python")

HEADER_JS = ev("src/x.js::header", """\
function header(name, size) {
  if (!size) return `${name} (empty)`
  return name + "; size=" + size
}
""", "javascript")


CHAR_IN_TS = ev("src/core/inputs.ts::char", """\
export function charNotIn(raw: string) {
  return createInput(`[^${raw}]`)
}
export function anyOf(raw: string) {
  return createInput(`[${raw}]`)
}
""", "typescript")


def test_a_format_too_generic_or_a_setting_s_value_is_no_example_output():
    # `[${raw}]` has only brackets of its own: any bracketed text would fit; `[^${raw}]` has a caret too
    assert unbound("`char` compiles to `[\\s\\S]`.", CHAR_IN_TS) == ["[\\s\\S]"]
    assert unbound("charNotIn('/') compiles to `[^/]`.", CHAR_IN_TS) == []
    # `(empty)` of a JS template literal: its own text around the field
    assert unbound("An empty one reads `logo.png (empty)`.", HEADER_JS) == []
    # "%s=%s" says one character of its own: any pair would fit it
    assert unbound("It returns `retries=3`.", SPLIT_PY) == ["retries=3"]
    # a field after `=` is the value a claim is about, not an example of one
    assert unbound("A sized one ends in `; size=10`.", HEADER_JS) == ["; size=10"]


def test_the_order_of_two_example_outputs_is_the_order_of_the_messages_that_print_them():
    wrong = "In map diffs the `(missing) != X` lines (keys only in b) come first, then `X != (missing)`."
    assert [c.rule for c in contradictions(wrong, [DIFF_GO])] == ["order"]
    right = "In map diffs the `X != (missing)` lines (keys only in a) come first, then `(missing) != X`."
    assert contradictions(right, [DIFF_GO]) == []
    # a message beside a plain word is not ordered against the word's first use (MapKeys)
    groups = "Keys only in a (`X != (missing)`), then keys in both (recursed), then keys only in b."
    assert contradictions(groups, [DIFF_GO]) == []


# ------------------------------------------------ a message the code writes as literals side by side

MARKDOWN_PY = ev("readme_renderer/markdown.py::_EXTRA_WARNING", """\
_EXTRA_WARNING = (
    "Markdown renderers are not available. "
    "Install 'readme_renderer[md]' to enable Markdown rendering."
)
""", "python")


def test_a_message_written_as_literals_side_by_side_is_one_message():
    head = "Markdown renderers are not available. Install 'readme_renderer[md]'"
    assert unbound(f'It warns "{head} to enable Markdown rendering."', MARKDOWN_PY) == []
    assert unbound(f'It warns "{head}..."', MARKDOWN_PY) == []
    # a stretch of it without the ellipsis is no excerpt, and words the code never joins are no message of it
    assert unbound("It warns \"not available. Install 'readme_renderer[md]'\"", MARKDOWN_PY) \
        == ["not available. Install 'readme_renderer[md]'"]
    assert unbound("It warns \"Markdown renderers are missing. Install 'readme_renderer[md]'...\"", MARKDOWN_PY) \
        == ["Markdown renderers are missing. Install 'readme_renderer[md]'..."]


# ------------------------------------------------ a number past a float's range

PARSE_RS = ev("src/lib.rs::parse", """\
pub fn parse(s: &str) -> f64 {
    if s.len() > 3 {
        return f64::INFINITY;
    }
    0.0
}
""", "rust")


def test_a_number_past_a_floats_range_is_no_number_and_never_breaks_a_write():
    assert number_value("1e999") is None
    assert number_value("0x" + "f" * 300) is None  # too large an integer for a float at all
    assert number_value("1.5e3") == 1500.0
    # each was an OverflowError inside the checker before: the write failed with a traceback
    assert unbound("It needs at least 1e999 digits to overflow.", PARSE_RS) == ["1e999"]
    assert unbound("parse gives inf for 1e999.", PARSE_RS) == ["1e999"]
    assert unbound("A 0x%s literal is too big." % ("f" * 300), PARSE_RS) == ["0x" + "f" * 300]


def test_a_person_write_with_a_number_past_a_floats_range_is_graded(repo, ledger):
    repo.write("lib.py", "def parse(s):\n    return float(s)\n")
    repo.commit("parse")
    decision, status = person_write(ledger, "parse gives inf for 1e999: it overflows.", ["lib.py::parse"])
    assert status is memvet.Status.NEEDS_REVALIDATION
    assert "`1e999`" in decision.findings[0]
