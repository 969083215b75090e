"""Tree-sitter parsing for MemVet: symbol tables, normalized hashes, imports.

Public interface (everything else is private)::

    HASH_VERSION                      version of the hashing rules (int)
    UnsupportedLanguage               unknown language name (UnsupportedFileError)
    language_for_path(path)           "python" | ... | None, by extension
    symbol_table(data, language)      SymbolTable of a file's bytes
    imports(data, language)           [(module, line), ...]
    Symbol, SymbolTable               frozen results
"""

from __future__ import annotations

from memvet._code._imports import imports
from memvet._code._languages import LANGUAGES, UnsupportedLanguage, language_for_path
from memvet._code._model import HASH_VERSION, Symbol, SymbolTable
from memvet._code._structured import structured_symbol_table
from memvet._code._symbols import code_symbol_table

__all__ = [
    "HASH_VERSION",
    "LANGUAGES",
    "Symbol",
    "SymbolTable",
    "UnsupportedLanguage",
    "imports",
    "language_for_path",
    "symbol_table",
]


def symbol_table(data: bytes, language: str) -> SymbolTable:
    """Parse ``data`` as ``language`` and return its symbols.

    Never fails on content: arbitrary or undecodable bytes parse into a tree
    with ERROR nodes, whose symbols carry ``has_error``.

    Args:
        data: The file's bytes.
        language: One of :data:`LANGUAGES` (see :func:`language_for_path`).

    Raises:
        UnsupportedLanguage: ``language`` is not supported.
    """
    if language not in LANGUAGES:
        raise UnsupportedLanguage(f"no grammar for language {language!r}")
    if language in ("markdown", "json", "yaml", "toml"):
        return structured_symbol_table(data, language)
    return code_symbol_table(data, language)
