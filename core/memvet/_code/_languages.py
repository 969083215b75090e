"""Language detection and the lazily built, per-language parser objects.

Every grammar comes from its official ``tree-sitter-<lang>`` wheel. Parsers
and compiled queries are built on first use and cached for the life of the
process (``functools.cache``): compiling a query costs milliseconds, parsing
a file with a warm parser costs microseconds per line.
"""

from __future__ import annotations

import codecs
import functools
import logging
import posixpath
from importlib import resources

import tree_sitter

from memvet._errors import UnsupportedFileError

__all__ = [
    "CODE_LANGUAGES",
    "LANGUAGES",
    "UnsupportedLanguage",
    "as_utf8",
    "language_for_path",
    "parse",
    "query",
    "source_text",
]

logger = logging.getLogger(__name__)


class UnsupportedLanguage(UnsupportedFileError):
    """A language name that :mod:`memvet._code` has no grammar for.

    Raised by :func:`~memvet._code.symbol_table` and
    :func:`~memvet._code.imports`; :func:`~memvet._code.language_for_path`
    returns ``None`` instead of raising.
    """


_EXTENSIONS: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".md": "markdown",
    ".markdown": "markdown",
    ".json": "json",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
}

CODE_LANGUAGES = frozenset({"python", "javascript", "typescript", "tsx", "go", "rust", "java"})
"""Languages whose symbols are definitions (functions, classes, ...)."""

LANGUAGES = CODE_LANGUAGES | {"markdown", "json", "yaml", "toml"}
"""Every language name the package accepts."""


def language_for_path(path: str) -> str | None:
    """Return the language of ``path`` from its extension, or ``None``.

    Args:
        path: A file path, with ``/`` or the OS separator; only the extension
            (case-insensitive) is looked at.

    Returns:
        One of :data:`LANGUAGES`, or ``None`` for an unknown extension.
    """
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return _EXTENSIONS.get(posixpath.splitext(name)[1].lower())


def _grammar(language: str) -> object:
    # Imported lazily: a process that only parses Python never loads the
    # other grammars' shared libraries.
    if language == "python":
        import tree_sitter_python as m

        return m.language()
    if language == "javascript":
        import tree_sitter_javascript as m

        return m.language()
    if language in ("typescript", "tsx"):
        import tree_sitter_typescript as m

        return m.language_typescript() if language == "typescript" else m.language_tsx()
    if language == "go":
        import tree_sitter_go as m

        return m.language()
    if language == "rust":
        import tree_sitter_rust as m

        return m.language()
    if language == "java":
        import tree_sitter_java as m

        return m.language()
    if language == "json":
        import tree_sitter_json as m

        return m.language()
    if language == "yaml":
        import tree_sitter_yaml as m

        return m.language()
    if language == "toml":
        import tree_sitter_toml as m

        return m.language()
    if language == "markdown":
        import tree_sitter_markdown as m

        return m.language()
    raise UnsupportedLanguage(f"no grammar for language {language!r}")


@functools.cache
def get_language(language: str) -> tree_sitter.Language:
    """Return the (cached) tree-sitter ``Language`` for ``language``.

    Raises:
        UnsupportedLanguage: ``language`` is not one of :data:`LANGUAGES`.
    """
    if language not in LANGUAGES:
        raise UnsupportedLanguage(f"no grammar for language {language!r}")
    return tree_sitter.Language(_grammar(language))


def _byte_as_latin1(exc: UnicodeError) -> tuple[str, int]:
    """Decoding error handler: each byte that is not UTF-8 is its Latin-1 character."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return exc.object[exc.start : exc.end].decode("latin-1"), exc.end


codecs.register_error("memvet-latin-1", _byte_as_latin1)


def as_utf8(data: bytes) -> bytes:
    """The source text a parser reads, in UTF-8: ``data`` itself when it is
    UTF-8 (ASCII included), else with each byte that is not part of a UTF-8
    character read as its Latin-1 character.

    Older Java, Python 2 and C sources are often Latin-1 (javaparser's
    ``VoidVisitorAdapter.java`` carries its author's name, ``J\xfalio``, in
    its licence header): their symbols are code like any other. Reading
    byte by byte keeps every character of such a file, and a file moved
    from Latin-1 to UTF-8 reads the same after as before, so its symbols
    keep their hashes. A UTF-8 file with one stray byte keeps every other
    character as it was.
    """
    if data.isascii():
        return data
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return source_text(data).encode("utf-8")
    return data


def source_text(data: bytes) -> str:
    """The text of :func:`as_utf8` as a string, in one decoding pass (for a
    reader that wants characters, not the parser's bytes)."""
    return data.decode("utf-8", "memvet-latin-1")


@functools.cache
def _parser(language: str) -> tree_sitter.Parser:
    return tree_sitter.Parser(get_language(language))


def parse(data: bytes, language: str) -> tree_sitter.Tree:
    """Parse ``data`` with the cached parser of ``language``.

    Raises:
        UnsupportedLanguage: ``language`` is not one of :data:`LANGUAGES`.
    """
    return _parser(language).parse(data)


@functools.cache
def query(language: str, kind: str) -> tree_sitter.Query:
    """Return the compiled query ``queries/<language>-<kind>.scm``.

    TSX shares the TypeScript query files (the TSX grammar is a superset).
    """
    stem = "typescript" if language == "tsx" else language
    text = resources.files(__package__).joinpath("queries").joinpath(f"{stem}-{kind}.scm").read_text("utf-8")
    logger.debug("compiling %s query for %s", kind, language)
    return tree_sitter.Query(get_language(language), text)
