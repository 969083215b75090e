"""Hypothesis properties of the normalized hash on real-looking files."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memvet._code import symbol_table

SETTINGS = settings(max_examples=50, deadline=None)

PY_PREFIX = "import os\n\nRETRIES = 3\n\n\ndef helper(x):\n    return x + 1\n\n\n"
PY_TARGET = (
    "@retry(times=3)\n"
    "def target(path, mode='r'):\n"
    '    """Open it."""\n'
    "    with open(path, mode) as fh:\n"
    "        data = fh.read()\n"
    "    if not data:\n"
    "        raise ValueError('empty: ' + path)\n"
    "    return parse(data,\n"
    "                 strict=True)\n"
)
PY_SUFFIX = "\n\nclass After:\n    def method(self):\n        return helper(2)\n"

PY_SNIPPETS = st.sampled_from(
    [
        "x = 1\n",
        "def other():\n    return 'target'\n",
        "class K:\n    pass\n",
        "# def target(): pass\n",
        "import sys\n",
        "s = '''\ndef target():\n'''\n",
        "\n\n",
    ]
)

JS_PREFIX = "const re = /[\"'{]+/g;\nimport x from 'x';\n\n"
JS_TARGET = (
    "export function target(a, b) {\n"
    "  const s = `sum: ${a + b}`;\n"
    "  return format(s, { width: 10,\n"
    "                     fill: '}' });\n"
    "}\n"
)
JS_SUFFIX = "\nconst api = { get() { return 1; } };\n"
JS_SNIPPETS = st.sampled_from(
    [
        "let y = 2;\n",
        "function other() { return '{'; }\n",
        "// function target() {}\n",
        "const t = `}`;\n",
        "/* { */\n",
        "class Z { m() {} }\n",
    ]
)


def _hash(src: str, lang: str, name: str = "target") -> str:
    return symbol_table(src.encode(), lang).symbols[name].hash


PY_BASE = _hash(PY_PREFIX + PY_TARGET + PY_SUFFIX, "python")
JS_BASE = _hash(JS_PREFIX + JS_TARGET + JS_SUFFIX, "javascript")


@SETTINGS
@given(before=st.lists(PY_SNIPPETS, max_size=3), after=st.lists(PY_SNIPPETS, max_size=3), drop=st.booleans())
def test_python_edits_outside_never_change_hash(before, after, drop):
    prefix = "" if drop else PY_PREFIX
    src = prefix + "".join(before) + "\n\n" + PY_TARGET + "\n\n" + "".join(after) + PY_SUFFIX
    assert _hash(src, "python") == PY_BASE


@SETTINGS
@given(before=st.lists(JS_SNIPPETS, max_size=3), after=st.lists(JS_SNIPPETS, max_size=3), drop=st.booleans())
def test_js_edits_outside_never_change_hash(before, after, drop):
    prefix = "" if drop else JS_PREFIX
    src = prefix + "".join(before) + JS_TARGET + "".join(after) + JS_SUFFIX
    assert _hash(src, "javascript") == JS_BASE


def _token_edits(text: str, skip: tuple[int, int] = (0, 0)) -> st.SearchStrategy[str]:
    """Replace one letter or digit of a token (outside ``skip``) with another."""
    positions = [i for i, c in enumerate(text) if c.isalnum() and not skip[0] <= i < skip[1]]
    return st.sampled_from(positions).flatmap(
        lambda i: st.sampled_from("qzQZ79")
        .filter(lambda c, i=i: c != text[i])
        .map(lambda c, i=i: text[:i] + c + text[i + 1 :])
    )


_DOC_START = PY_TARGET.index('"""')
_DOC_END = PY_TARGET.index('"""', _DOC_START + 3) + 3


@SETTINGS
@given(edited=_token_edits(PY_TARGET, skip=(_DOC_START, _DOC_END)))
def test_python_any_token_change_inside_changes_hash(edited):
    # The edited symbol either keeps its name with a new hash, or is renamed
    # or unparsable: nothing in the file may still carry the old hash.
    table = symbol_table((PY_PREFIX + edited + PY_SUFFIX).encode(), "python")
    assert table.by_hash(PY_BASE) == []


@SETTINGS
@given(edited=_token_edits(PY_TARGET[:_DOC_END], skip=(0, _DOC_START)).map(lambda d: d + PY_TARGET[_DOC_END:]))
def test_python_docstring_edits_never_change_hash(edited):
    assert _hash(PY_PREFIX + edited + PY_SUFFIX, "python") == PY_BASE


@SETTINGS
@given(edited=_token_edits(JS_TARGET))
def test_js_any_token_change_inside_changes_hash(edited):
    table = symbol_table((JS_PREFIX + edited + JS_SUFFIX).encode(), "javascript")
    assert table.by_hash(JS_BASE) == []


LAYOUT = st.sampled_from(["", " ", "  ", "\n", "\n    ", " # note\n", "\n\n        "])


@SETTINGS
@given(a=LAYOUT, b=LAYOUT, c=LAYOUT)
def test_python_layout_inside_parentheses_never_changes_hash(a, b, c):
    body = PY_TARGET.replace("parse(data,\n                 strict=True)", f"parse({a}data,{b}strict=True{c})")
    assert _hash(PY_PREFIX + body + PY_SUFFIX, "python") == PY_BASE


JS_LAYOUT = st.sampled_from(["", " ", "\n", "\n  ", " // note\n", " /* c */ ", "\n\n"])


@SETTINGS
@given(a=JS_LAYOUT, b=JS_LAYOUT, c=JS_LAYOUT, d=JS_LAYOUT)
def test_js_layout_and_comments_never_change_hash(a, b, c, d):
    body = (
        f"export function target(a,{a}b) {{{b}\n"
        "  const s = `sum: ${a + b}`;\n"
        f"  return format(s,{c}{{ width: 10,{d}fill: '}}' }});\n"
        "}\n"
    )
    assert _hash(JS_PREFIX + body + JS_SUFFIX, "javascript") == JS_BASE


@SETTINGS
@given(blank=st.sampled_from(["\n", "\n\n", "    # c\n", "\n    # c\n\n"]), where=st.integers(0, 4))
def test_python_blank_lines_and_comments_between_statements(blank, where):
    lines = PY_TARGET.splitlines(keepends=True)
    cut = [3, 4, 5, 6, 7][where]
    body = "".join(lines[:cut]) + blank + "".join(lines[cut:])
    assert _hash(PY_PREFIX + body + PY_SUFFIX, "python") == PY_BASE
