"""The public surface of memvet._code: names, languages, errors, JSON."""

from __future__ import annotations

import dataclasses

import pytest

import memvet._code as code
from memvet._code import (
    HASH_VERSION,
    LANGUAGES,
    Symbol,
    SymbolTable,
    UnsupportedLanguage,
    imports,
    language_for_path,
    symbol_table,
)
from memvet._errors import UnsupportedFileError, UsageError


def test_public_names_are_pinned():
    assert sorted(code.__all__) == sorted(
        [
            "HASH_VERSION",
            "LANGUAGES",
            "OtherFormatError",
            "ParsedFile",
            "Symbol",
            "SymbolTable",
            "UnsupportedLanguage",
            "as_utf8",
            "cfg_if_branches",
            "default_workers",
            "follow",
            "hash_is_current",
            "imports",
            "language_for_path",
            "parse_file",
            "source_text",
            "symbol_table",
        ]
    )
    assert HASH_VERSION == 6


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("a.py", "python"),
        ("stubs/a.pyi", "python"),
        ("x.js", "javascript"),
        ("x.mjs", "javascript"),
        ("x.cjs", "javascript"),
        ("x.jsx", "javascript"),
        ("x.ts", "typescript"),
        ("x.d.ts", "typescript"),
        ("x.mts", "typescript"),
        ("x.cts", "typescript"),
        ("X.TSX", "tsx"),
        ("main.go", "go"),
        ("lib.rs", "rust"),
        ("A.java", "java"),
        ("README.md", "markdown"),
        ("doc.markdown", "markdown"),
        ("package.json", "json"),
        ("ci.yaml", "yaml"),
        ("ci.yml", "yaml"),
        ("pyproject.toml", "toml"),
        ("dir\\win.py", "python"),
        ("Makefile", None),
        ("a.c", None),
        (".py", None),
        ("py", None),
    ],
)
def test_language_for_path(path, language):
    assert language_for_path(path) == language


def test_every_language_parses():
    for lang in LANGUAGES:
        assert symbol_table(b"", lang).symbols == {}


def test_unsupported_language_is_a_usage_error():
    with pytest.raises(UnsupportedLanguage):
        symbol_table(b"x", "cobol")
    with pytest.raises(UnsupportedLanguage):
        imports(b"x", "cobol")
    assert issubclass(UnsupportedLanguage, UnsupportedFileError)
    assert issubclass(UnsupportedLanguage, UsageError)
    assert issubclass(UnsupportedLanguage, ValueError)


def test_symbol_and_table_are_immutable():
    t = symbol_table(b"def f():\n    pass\n", "python")
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.symbols["f"].hash = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        t.symbols["g"] = t.symbols["f"]  # type: ignore[index]
    assert hash(t) == hash(symbol_table(b"def f():\n    pass\n", "python"))


def test_json_round_trip():
    src = b"class A:\n    def m(self, x: int): ...\n    def m(self, x: str): ...\n\ndef f():\n    return 1\n"
    t = symbol_table(src, "python")
    back = SymbolTable.from_json(t.to_json())
    assert back == t
    assert list(back.symbols) == list(t.symbols)
    assert back.lookup("A.m") == t.lookup("A.m")
    assert back.by_hash(t.symbols["f"].hash) == [t.symbols["f"]]
    assert isinstance(back.symbols["f"], Symbol)


@pytest.mark.parametrize(
    "raw",
    [
        "not json",
        "{}",
        '{"format": 1, "hash_version": 999, "language": "python", "symbols": []}',
        '{"format": 1, "hash_version": 1, "language": "python", "symbols": [[1, 2]]}',
        '{"format": 1, "hash_version": 1, "language": "python", "symbols": 5}',
    ],
)
def test_from_json_rejects_bad_input(raw):
    with pytest.raises(ValueError, match=r"."):
        SymbolTable.from_json(raw)


def test_by_hash_finds_moved_bodies():
    t = symbol_table(b"def a():\n    return 1\n\ndef b():\n    return 1\n", "python")
    assert t.symbols["a"].hash != t.symbols["b"].hash  # the name is a token of the span
    body_twin = symbol_table(b"class K:\n    def a():\n        return 1\n", "python")
    assert body_twin.by_hash(t.symbols["a"].hash) == [body_twin.symbols["K.a"]]
    assert t.by_hash("0" * 64) == []


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_arbitrary_bytes_never_crash(lang):
    data = bytes(range(256)) * 4 + b"\x00\xff{[(\"'`/*#"
    table = symbol_table(data, lang)
    assert table.language == lang
    if lang not in ("markdown", "json", "yaml", "toml"):
        assert isinstance(imports(data, lang), list)


def test_deep_nesting_does_not_overflow():
    data = b"[" * 5000 + b"]" * 5000
    assert symbol_table(data, "json").symbols == {}  # arrays name no keys
    deep = symbol_table(b'{"a":' * 3000 + b"1" + b"}" * 3000, "json").symbols
    assert len(deep) == 3000 and ".".join(["a"] * 3000) in deep  # every level, down to the innermost key


def test_as_utf8_reads_bytes_that_are_not_utf8_as_latin1():
    ascii_text = b"def f():\n    return 1\n"
    assert code.as_utf8(ascii_text) is ascii_text
    utf8 = "s = 'caf\u00e9'\n".encode()
    assert code.as_utf8(utf8) is utf8  # already UTF-8: untouched
    latin1 = "# J\u00falio\ns = 'caf\u00e9'\n".encode("latin-1")
    assert code.as_utf8(latin1) == "# J\u00falio\ns = 'caf\u00e9'\n".encode()
    # Only the bytes that are not UTF-8 are read as Latin-1: a stray byte
    # leaves the UTF-8 characters around it as they were.
    mixed = "a = '\u00e9'\n".encode() + b"b = '\xe9'\n"
    assert code.as_utf8(mixed) == "a = '\u00e9'\nb = '\u00e9'\n".encode()
    assert code.source_text(mixed) == code.as_utf8(mixed).decode() == "a = '\u00e9'\nb = '\u00e9'\n"
    # The same text in either encoding parses to the same hash.
    source = "def f():\n    return 'caf\u00e9'\n"
    assert (symbol_table(source.encode("latin-1"), "python").symbols["f"].hash
            == symbol_table(source.encode(), "python").symbols["f"].hash)


def test_the_latin1_error_handler_is_for_decoding_only():
    with pytest.raises(UnicodeEncodeError):
        "caf\u00e9".encode("ascii", "memvet-latin-1")
