"""Dependency declarations read from manifests, for ``dependency`` anchors.

A dependency anchor holds while a manifest still declares the dependency (and,
when the anchor recorded a requirement, while the declaration still satisfies
it). This module turns one manifest's bytes into :class:`Declared` values:

=====================  =========  ==========================================================
file                   ecosystem  sections
=====================  =========  ==========================================================
``pyproject.toml``     python     ``project.dependencies``,
                                  ``project.optional-dependencies.<extra>``,
                                  ``dependency-groups.<group>``,
                                  ``tool.poetry.dependencies`` (without ``python``),
                                  ``tool.poetry.dev-dependencies``,
                                  ``tool.poetry.group.<group>.dependencies``,
                                  ``tool.pdm.dev-dependencies.<group>``
``requirements*.txt``  python     ``requirements`` (also ``requirements/*.txt`` and
                                  ``*-requirements.txt``)
``setup.cfg``          python     ``options.install_requires``,
                                  ``options.extras_require.<extra>``
``setup.py``           python     ``setup(install_requires=...)``,
                                  ``setup(extras_require={...})``: literal strings
                                  only, read with :mod:`ast`, never run
``Pipfile``            python     ``packages``, ``dev-packages``
``environment.yml``    python     ``dependencies`` (conda: ``name=1.2`` read as
                                  ``==1.2.*``), ``dependencies.pip``
                                  (also ``environment.yaml``)
``package.json``       npm        ``dependencies``, ``devDependencies``,
                                  ``peerDependencies``, ``optionalDependencies``
``go.mod``             go         ``require`` (single line and block; ``// indirect`` kept)
``Cargo.toml``         cargo      ``dependencies``, ``dev-dependencies``,
                                  ``build-dependencies``,
                                  ``target.<cfg>.<one of those three>``,
                                  ``workspace.dependencies``
=====================  =========  ==========================================================

Parsing uses :mod:`tomllib`, :mod:`json`, :mod:`configparser`, :mod:`ast`,
the tree-sitter YAML grammar and :mod:`packaging`; no manifest is ever
executed (a ``setup.py`` is only parsed: a value that is not a literal is
skipped). A manifest that cannot be parsed raises :class:`ManifestError`.

Only the project's own manifests count for an anchor: the repository root's
and, when the anchor names a folder (``dep:redis@examples/celery``), those of
that folder and of every folder above it (:func:`manifest_home` says which
folder a manifest belongs to). :data:`NON_PROJECT_FOLDERS` names the folders
(examples, tests, docs, vendored code ...) whose manifests declare someone
else's dependencies, for the messages that explain a refusal.
"""

from __future__ import annotations

import ast
import configparser
import fnmatch
import json
import logging
import re
import threading
import tomllib
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from posixpath import basename, dirname, normpath
from types import MappingProxyType
from typing import NamedTuple

import tree_sitter
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, Specifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from memvet._code._languages import parse as parse_tree
from memvet._errors import PathOutsideRepositoryError, UsageError

__all__ = [
    "MANIFEST_NAMES",
    "NON_PROJECT_FOLDERS",
    "Declared",
    "DependencySpec",
    "ManifestError",
    "declared",
    "dependency_folder",
    "format_dependency_spec",
    "is_manifest",
    "manifest_home",
    "non_project_kind",
    "npm_dependency_names",
    "package_json",
    "parse_dependency_spec",
    "satisfies",
]

logger = logging.getLogger(__name__)

#: Manifest file patterns (``fnmatch`` on the file name, or on the last two
#: path components for ``requirements/*.txt``).
MANIFEST_NAMES: tuple[str, ...] = (
    "pyproject.toml",
    "requirements*.txt",
    "*-requirements.txt",
    "requirements/*.txt",
    "package.json",
    "go.mod",
    "Cargo.toml",
    "setup.cfg",
    "setup.py",
    "Pipfile",
    "environment.yml",
    "environment.yaml",
)


#: Folders whose manifests are not the project's own, each with how an error
#: message names such a manifest. A manifest whose folder path has one of
#: these names as a component (``examples/celery/requirements.txt``,
#: ``packages/web/test/package.json``) declares dependencies of an example,
#: a test or vendored code, not of the project: it never counts for a
#: ``dependency`` anchor unless the anchor names its folder
#: (``dep:redis@examples/celery``). Only the repository root's manifests
#: count by default, so these names decide how a refusal explains itself.
NON_PROJECT_FOLDERS: Mapping[str, str] = MappingProxyType({
    "examples": "an example manifest",
    "example": "an example manifest",
    "samples": "a sample manifest",
    "sample": "a sample manifest",
    "demo": "a demo manifest",
    "demos": "a demo manifest",
    "docs": "a documentation manifest",
    "doc": "a documentation manifest",
    "tests": "a test manifest",
    "test": "a test manifest",
    "testing": "a test manifest",
    "__tests__": "a test manifest",
    "e2e": "a test manifest",
    "fixtures": "a test fixture manifest",
    "testdata": "a test fixture manifest",
    "benchmarks": "a benchmark manifest",
    "benchmark": "a benchmark manifest",
    "vendor": "a vendored manifest",
    "third_party": "a vendored manifest",
    "third-party": "a vendored manifest",
    "node_modules": "an installed package's manifest",
    "site-packages": "an installed package's manifest",
    ".venv": "an installed package's manifest",
    "venv": "an installed package's manifest",
})

#: What a manifest's path ends with: ``.txt`` for a pattern, the whole name
#: for a fixed one (``setup.py``, ``Pipfile``), so that ``.py`` files are
#: not all matched by pattern.
_MANIFEST_SUFFIXES = tuple(sorted({
    "." + pattern.rsplit(".", 1)[1] if "*" in pattern else pattern.rsplit("/", 1)[-1] for pattern in MANIFEST_NAMES
}))


class ManifestError(UsageError):
    """A manifest that cannot be parsed; the message names the file and the reason."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot read manifest {path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class Declared:
    """One dependency declared in a manifest.

    Attributes:
        ecosystem: ``"python"``, ``"npm"``, ``"go"`` or ``"cargo"``.
        name: The name as written in the manifest.
        key: The name normalised for matching: PEP 503 canonical for Python,
            exact for npm and Go, ``_`` read as ``-`` for Cargo.
        spec: The declared requirement as written, without markers or extras
            (``">=2.0,<3"``, ``"^1.2.0"``, ``"v1.9.0"``), or ``""``; a conda
            spec is read as PEP 440 (``numpy=1.26`` gives ``"==1.26.*"``).
        section: Where it is declared, e.g. ``"project.dependencies"``.
        line: The 1-based line of the declaration; best effort, 0 if unknown.
    """

    ecosystem: str
    name: str
    key: str
    spec: str
    section: str
    line: int


def is_manifest(path: str) -> bool:
    """Whether a repository-relative POSIX path names a manifest this module reads."""
    if not path.endswith(_MANIFEST_SUFFIXES):
        return False  # most paths: decided without fnmatch (a batch check lists every file)
    name = basename(path)
    parent = basename(dirname(path))
    for pattern in MANIFEST_NAMES:
        if "/" in pattern:
            folder, file_pattern = pattern.split("/", 1)
            if parent == folder and fnmatch.fnmatchcase(name, file_pattern):
                return True
        elif fnmatch.fnmatchcase(name, pattern):
            return True
    return False


def manifest_home(path: str) -> str:
    """The folder a manifest belongs to: its own, or for ``requirements/*.txt``
    the one holding ``requirements/`` (``""`` for the repository root)."""
    home = dirname(path)
    if basename(home) == "requirements" and path.endswith(".txt"):
        return dirname(home)
    return home


def non_project_kind(path: str) -> str:
    """How to name a manifest in a :data:`NON_PROJECT_FOLDERS` folder
    (``"an example manifest"``), or ``""`` for one of the project's own."""
    home = manifest_home(path)
    for part in home.split("/") if home else ():
        if part in NON_PROJECT_FOLDERS:
            return NON_PROJECT_FOLDERS[part]
    return ""


def declared(path: str, data: bytes) -> list[Declared]:
    """Parse one manifest into its declared dependencies, in file order per section.

    Args:
        path: The repository-relative path (its file name selects the format).
        data: The file's bytes.

    Returns:
        The declarations; a dependency declared in several sections appears
        once per section.

    Raises:
        ManifestError: The file is not a known manifest, is not UTF-8, or
            cannot be parsed.
    """
    if not is_manifest(path):
        raise ManifestError(path, "not a manifest file MemVet reads (" + ", ".join(MANIFEST_NAMES) + ")")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ManifestError(path, f"not UTF-8 ({exc.reason} at byte {exc.start})") from exc
    name = basename(path)
    if name == "pyproject.toml":
        return _pyproject(path, text)
    if name == "package.json":
        return _package_json(path, text)
    if name == "go.mod":
        return _go_mod(path, text)
    if name == "Cargo.toml":
        return _cargo(path, text)
    if name == "setup.cfg":
        return _setup_cfg(path, text)
    if name == "setup.py":
        return _setup_py(path, text)
    if name == "Pipfile":
        return _pipfile(path, text)
    if name in ("environment.yml", "environment.yaml"):
        return _conda_environment(path, text)
    return _requirements(path, text)


# --------------------------------------------------------------------------- #
# Line numbers in TOML (tomllib keeps no positions)
# --------------------------------------------------------------------------- #

_TOML_HEADER = re.compile(r"^\s*\[\[?\s*(?P<key>[^\]#]+?)\s*\]\]?\s*(?:#.*)?$")
_TOML_KEY_PART = re.compile(r"""\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*""")


def _split_dotted(key: str) -> tuple[str, ...] | None:
    parts: list[str] = []
    pos = 0
    while True:
        m = _TOML_KEY_PART.match(key, pos)
        if m is None:
            return None
        parts.append(next(g for g in m.groups() if g is not None))
        pos = m.end()
        if pos == len(key):
            return tuple(parts)
        if key[pos] != ".":
            return None
        pos += 1


class _TomlLines:
    """Best-effort mapping from TOML tables and keys to 1-based line numbers."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.headers: list[tuple[int, tuple[str, ...]]] = []
        for i, line in enumerate(self.lines):
            m = _TOML_HEADER.match(line)
            if m is not None:
                parts = _split_dotted(m.group("key"))
                if parts is not None:
                    self.headers.append((i, parts))

    def _region(self, table: tuple[str, ...]) -> tuple[int, int]:
        """Lines of the deepest declared header that is a prefix of ``table`` (whole file if none)."""
        best: tuple[int, int] = (0, len(self.lines))
        best_depth = -1
        for n, (start, parts) in enumerate(self.headers):
            if len(parts) > best_depth and table[: len(parts)] == parts:
                end = self.headers[n + 1][0] if n + 1 < len(self.headers) else len(self.lines)
                best, best_depth = (start, end), len(parts)
        return best

    def _search(self, pattern: re.Pattern[str], start: int, end: int) -> int:
        for i in range(start, end):
            if pattern.search(self.lines[i]):
                return i + 1
        return 0

    def key(self, table: tuple[str, ...], name: str) -> int:
        """Line of ``name = ...`` (or ``[table.name]``) in ``table``."""
        for start, parts in self.headers:
            if parts == (*table, name):
                return start + 1
        quoted = re.escape(name)
        pattern = re.compile(rf"""^\s*(?:{quoted}|"{quoted}"|'{quoted}')\s*[=.]""")
        start, end = self._region(table)
        return self._search(pattern, start, end) or self._search(pattern, 0, len(self.lines))

    def item(self, table: tuple[str, ...], array: str, value: str) -> int:
        """Line of the string ``value`` in the array ``array = [...]`` of ``table``."""
        quoted = re.escape(value)
        pattern = re.compile(rf"""(?:"{quoted}"|'{quoted}')""")
        start, end = self._region(table)
        array_start = self._search(re.compile(rf"""^\s*(?:{re.escape(array)}|"{re.escape(array)}")\s*="""), start, end)
        if array_start:
            start = array_start - 1
        return self._search(pattern, start, end) or self._search(pattern, 0, len(self.lines))


def _load_toml(path: str, text: str) -> dict[str, object]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(path, f"invalid TOML: {exc}") from exc


def _table(path: str, value: object, where: str) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise ManifestError(path, f"{where} must be a table, not {type(value).__name__}")
    return value


def _string_list(path: str, value: object, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestError(path, f"{where} must be an array of strings")
    return value


# --------------------------------------------------------------------------- #
# Python
# --------------------------------------------------------------------------- #

_PEP508_HEAD = re.compile(r"^\s*[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?\s*(?:\[[^\]]*\])?\s*")


def _python_spec(text: str, req: Requirement) -> str:
    """The version part of a PEP 508 requirement as written (spaces removed)."""
    if req.url:
        return f"@ {req.url}"
    head = _PEP508_HEAD.match(text)
    written = text[head.end() if head else 0 :].split(";", 1)[0].strip()
    if written.startswith("(") and written.endswith(")"):
        written = written[1:-1]
    written = re.sub(r"\s+", "", written)
    try:
        if SpecifierSet(written) == req.specifier:
            return written
    except InvalidSpecifier:
        pass  # the text did not split as expected: fall back to packaging's normal form
    return str(req.specifier)


def _python(path: str, text: str, section: str, line: int) -> Declared:
    try:
        req = Requirement(text)
    except InvalidRequirement as exc:
        raise ManifestError(path, f"line {line}: invalid requirement {text.strip()!r}: {exc}") from exc
    return Declared("python", req.name, canonicalize_name(req.name), _python_spec(text, req), section, line)


def _pyproject(path: str, text: str) -> list[Declared]:
    doc = _load_toml(path, text)
    lines = _TomlLines(text)
    out: list[Declared] = []

    def pep508(values: list[str], table: tuple[str, ...], array: str, section: str) -> None:
        for value in values:
            out.append(_python(path, value, section, lines.item(table, array, value)))

    project = _table(path, doc.get("project", {}), "[project]")
    deps = _string_list(path, project.get("dependencies", []), "project.dependencies")
    pep508(deps, ("project",), "dependencies", "project.dependencies")
    extras = _table(path, project.get("optional-dependencies", {}), "project.optional-dependencies")
    for extra, values in extras.items():
        where = f"project.optional-dependencies.{extra}"
        pep508(_string_list(path, values, where), ("project", "optional-dependencies"), extra, where)

    groups = _table(path, doc.get("dependency-groups", {}), "[dependency-groups]")
    for group, entries in groups.items():
        where = f"dependency-groups.{group}"
        if not isinstance(entries, list):
            raise ManifestError(path, f"{where} must be an array")
        for entry in entries:
            if isinstance(entry, dict) and set(entry) == {"include-group"}:
                continue  # an include, not a dependency
            if not isinstance(entry, str):
                raise ManifestError(path, f"{where} holds {entry!r}, not a requirement string")
            out.append(_python(path, entry, where, lines.item(("dependency-groups",), group, entry)))

    tool = _table(path, doc.get("tool", {}), "[tool]")
    poetry = _table(path, tool.get("poetry", {}), "[tool.poetry]")
    poetry_tables: list[tuple[tuple[str, ...], object]] = [
        (("tool", "poetry", "dependencies"), poetry.get("dependencies", {})),
        (("tool", "poetry", "dev-dependencies"), poetry.get("dev-dependencies", {})),
    ]
    for group, body in _table(path, poetry.get("group", {}), "[tool.poetry.group]").items():
        body = _table(path, body, f"[tool.poetry.group.{group}]")
        poetry_tables.append((("tool", "poetry", "group", group, "dependencies"), body.get("dependencies", {})))
    for table_key, table in poetry_tables:
        where = ".".join(table_key)
        for name, value in _table(path, table, f"[{where}]").items():
            if name.lower() == "python":
                continue
            spec = _versioned(path, value, f"{where}.{name}")
            out.append(Declared("python", name, canonicalize_name(name), spec, where, lines.key(table_key, name)))

    pdm = _table(path, tool.get("pdm", {}), "[tool.pdm]")
    pdm_groups = _table(path, pdm.get("dev-dependencies", {}), "[tool.pdm.dev-dependencies]")
    for group, values in pdm_groups.items():
        where = f"tool.pdm.dev-dependencies.{group}"
        for value in _string_list(path, values, where):
            if value.lstrip().startswith("-"):
                # "-e file:///${PROJECT_ROOT}/sub": an editable path, no package name to match
                logger.debug("%s: skipping %r in %s", path, value, where)
                continue
            out.append(_python(path, value, where, lines.item(("tool", "pdm", "dev-dependencies"), group, value)))
    return out


def _versioned(path: str, value: object, where: str) -> str:
    """The version of a Poetry or Cargo dependency: a string, or a table's ``version``.

    A list (Poetry's multiple constraints) gives ``""``: no single requirement.
    """
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, dict):
        version = value.get("version", "")
        if not isinstance(version, str):
            raise ManifestError(path, f"{where}.version must be a string")
        return version.strip()
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return ""
    raise ManifestError(path, f"{where} must be a version string or a table, not {type(value).__name__}")


_COMMENT = re.compile(r"(^|\s)#.*$")
_OPTION_TAIL = re.compile(r"\s--?[A-Za-z].*$")
_PATH_OR_URL = re.compile(r"^(?:\.{1,2}(?:/|$)|/|~/|[A-Za-z][A-Za-z0-9+.-]*://|[A-Za-z]:[\\/])")
_ARCHIVE = re.compile(r"\.(?:whl|zip|tar\.gz|tar\.bz2|tgz)$")


def _logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """Requirement-file lines with ``\\`` continuations joined and comments removed."""
    buffer: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if not buffer:
            start = number
            if raw.lstrip().startswith("#"):
                continue  # a comment never continues, even ending in a backslash
        if raw.endswith("\\"):
            buffer.append(raw[:-1])
            continue
        buffer.append(raw)
        yield start, _COMMENT.sub("", "".join(buffer)).strip()
        buffer = []
    if buffer:
        yield start, _COMMENT.sub("", "".join(buffer)).strip()


def _requirement_line(path: str, content: str, section: str, line: int) -> Declared | None:
    """One line of a requirements file (comments removed), or ``None`` for a
    blank line, an option, or a path or URL."""
    if not content or content.startswith("-"):
        return None  # blank, or an option: -r, -c, -e, --index-url, ...
    content = _OPTION_TAIL.sub("", content).strip()  # per-requirement --hash=... options
    target = content.split(";", 1)[0].strip()
    if _PATH_OR_URL.match(target) or (_ARCHIVE.search(target) and "@" not in target):
        # pip installs these from a path or URL; they name no package to match
        logger.debug("%s:%d: skipping a path or URL requirement %r", path, line, content)
        return None
    return _python(path, content, section, line)


def _requirements(path: str, text: str) -> list[Declared]:
    found = (_requirement_line(path, content, "requirements", line) for line, content in _logical_lines(text))
    return [decl for decl in found if decl is not None]


# --------------------------------------------------------------------------- #
# setup.cfg, setup.py, Pipfile, environment.yml
# --------------------------------------------------------------------------- #


def _line_of(lines: list[str], value: str, start: int) -> int:
    """The 1-based line holding ``value`` at or after line ``start`` (0-based), or 0."""
    for i in range(start, len(lines)):
        if value in lines[i]:
            return i + 1
    return 0


def _setup_cfg_list(value: str) -> list[str]:
    """A setuptools requirement list: one per line, or ``;``-separated on one line."""
    items = value.splitlines() if "\n" in value else value.split(";")
    return [item.strip() for item in items if item.strip() and not item.strip().startswith("#")]


def _setup_cfg(path: str, text: str) -> list[Declared]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text, source=path)
    except configparser.Error as exc:
        raise ManifestError(path, f"invalid setup.cfg: {exc}") from exc
    lines = text.splitlines()
    header = {name: _line_of(lines, f"[{name}]", 0) for name in ("options", "options.extras_require")}
    fields: list[tuple[str, str, str]] = []  # (section, where, value)
    if parser.has_option("options", "install_requires"):
        fields.append(("options", "options.install_requires", parser.get("options", "install_requires")))
    if parser.has_section("options.extras_require"):
        for extra, value in parser.items("options.extras_require"):
            fields.append(("options.extras_require", f"options.extras_require.{extra}", value))
    out: list[Declared] = []
    for section, where, value in fields:
        if value.strip().startswith("file:"):
            # setuptools reads the named file; a requirements*.txt counts in its own right
            logger.debug("%s: skipping %s = %s", path, where, value.strip())
            continue
        for item in _setup_cfg_list(value):
            out.append(_python(path, item, where, _line_of(lines, item, max(header[section] - 1, 0))))
    return out


#: ``warnings.catch_warnings`` swaps process-wide state: one parse at a time,
#: so that two threads cannot restore each other's filters.
_AST_WARNINGS = threading.Lock()


def _setup_py(path: str, text: str) -> list[Declared]:
    """``setup(...)`` read from the syntax tree: only literal strings count."""
    try:
        with _AST_WARNINGS, warnings.catch_warnings():
            # "\d" in a setup.py string: the compiler warns (or, under -W error, fails); not our concern
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError) as exc:  # ValueError: a NUL byte in the source
        raise ManifestError(path, f"invalid Python: {exc}") from exc
    names: dict[str, ast.expr] = {}  # module-level NAME = value, the last one winning
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names[target.id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            names[node.target.id] = node.value

    def resolve(value: ast.expr) -> ast.expr:
        return names.get(value.id, value) if isinstance(value, ast.Name) else value

    def strings(value: ast.expr, where: str) -> list[tuple[str, int]]:
        value = resolve(value)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            start = value.lineno
            return [(s, start + i) for i, s in enumerate(value.value.splitlines()) if s.strip()
                    and not s.strip().startswith("#")]
        if not isinstance(value, ast.List | ast.Tuple):
            logger.debug("%s:%d: skipping %s, not a literal list", path, value.lineno, where)
            return []
        found: list[tuple[str, int]] = []
        for item in value.elts:
            if isinstance(item, ast.Constant) and isinstance(item.value, str):
                found.append((item.value, item.lineno))
            else:
                logger.debug("%s:%d: skipping an item of %s that is not a literal string", path, item.lineno, where)
        return found

    out: list[Declared] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if not ((isinstance(func, ast.Name) and func.id == "setup")
                or (isinstance(func, ast.Attribute) and func.attr == "setup")):
            continue
        for keyword in node.keywords:
            if keyword.arg == "install_requires":
                for value, line in strings(keyword.value, "install_requires"):
                    out.append(_python(path, value, "install_requires", line))
            elif keyword.arg == "extras_require":
                extras = resolve(keyword.value)
                if not isinstance(extras, ast.Dict):
                    logger.debug("%s:%d: skipping extras_require, not a literal dict", path, extras.lineno)
                    continue
                for key, group in zip(extras.keys, extras.values, strict=True):
                    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                        logger.debug("%s:%d: skipping an extra whose name is not a literal", path, group.lineno)
                        continue
                    where = f"extras_require.{key.value}"
                    for value, line in strings(group, where):
                        out.append(_python(path, value, where, line))
    return out


def _pipfile(path: str, text: str) -> list[Declared]:
    doc = _load_toml(path, text)
    lines = _TomlLines(text)
    out: list[Declared] = []
    for section in ("packages", "dev-packages"):
        for name, value in _table(path, doc.get(section, {}), f"[{section}]").items():
            spec = _versioned(path, value, f"{section}.{name}")
            out.append(Declared("python", name, canonicalize_name(name), spec, section, lines.key((section,), name)))
    return out


_CONDA_SPEC = re.compile(r"^(?:[^\s:]+::)?(?P<name>[A-Za-z0-9_][A-Za-z0-9._-]*)\s*(?P<rest>.*)$")
_YAML_SCALARS = frozenset({"plain_scalar", "double_quote_scalar", "single_quote_scalar"})


def _conda_version(rest: str) -> str:
    """A conda match spec's version as PEP 440: ``=1.2`` (and ``=1.2=build``)
    is ``==1.2.*``; ``1.2`` after a space is ``==1.2`` and ``1.2*`` is
    ``==1.2.*``; operators (``>=1,<2``) are kept; the build string is dropped."""
    rest = rest.strip()
    if not rest or rest.startswith("["):
        return ""  # nothing, or the bracket form (numpy[version='>=1.26']) this module does not read
    if rest.startswith("=") and not rest.startswith("=="):
        version = rest[1:].split("=", 1)[0].strip().rstrip("*").rstrip(".")
        return f"=={version}.*"
    version = rest.split()[0] if rest[0] not in _OPERATORS else re.sub(r"\s+", "", rest)
    if version[0] in _OPERATORS:
        return version
    if version.endswith("*"):
        return "==" + version.rstrip("*").rstrip(".") + ".*"
    return "==" + version


def _yaml_content(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The mapping, sequence or scalar under ``block_node``/``flow_node`` wrappers."""
    while node is not None and node.type in ("block_node", "flow_node", "block_sequence_item", "document", "stream"):
        inner = [c for c in node.named_children if c.type not in ("anchor", "tag", "comment")]
        node = inner[0] if inner else None
    return node


def _yaml_items(node: tree_sitter.Node | None) -> list[tuple[tree_sitter.Node | None, int]] | None:
    """The items of a YAML sequence with their lines, or ``None`` when ``node`` is not one."""
    node = _yaml_content(node)
    if node is None or node.type not in ("block_sequence", "flow_sequence"):
        return None
    items = [c for c in node.named_children if c.type != "comment"]
    return [(_yaml_content(item), item.start_point.row + 1) for item in items]


def _yaml_pairs(node: tree_sitter.Node | None) -> dict[str, tree_sitter.Node | None] | None:
    """The key/value pairs of a YAML mapping, or ``None`` when ``node`` is not one."""
    node = _yaml_content(node)
    if node is None or node.type not in ("block_mapping", "flow_mapping"):
        return None
    pairs: dict[str, tree_sitter.Node | None] = {}
    for pair in node.named_children:
        key = _yaml_content(pair.child_by_field_name("key"))
        if pair.type in ("block_mapping_pair", "flow_pair") and key is not None and key.type in _YAML_SCALARS:
            pairs[_yaml_string(key)] = pair.child_by_field_name("value")
    return pairs


def _yaml_string(scalar: tree_sitter.Node) -> str:
    text = (scalar.text or b"").decode("utf-8")
    if scalar.type == "single_quote_scalar":
        return text[1:-1].replace("''", "'")
    if scalar.type == "double_quote_scalar":
        try:
            value: str = json.loads(text)  # YAML's double-quoted escapes are JSON's, plus a few
        except json.JSONDecodeError:
            return text[1:-1]  # one of those few (\x41, \e): the text between the quotes
        return value
    return text


def _conda_environment(path: str, text: str) -> list[Declared]:
    """A conda environment file: ``dependencies`` (conda match specs) and the
    ``pip:`` list inside it (requirement lines)."""
    tree = parse_tree(text.encode("utf-8"), "yaml")
    if tree.root_node.has_error:
        # tree-sitter's error recovery seldom points at the faulty line, so none is named
        raise ManifestError(path, "invalid YAML")
    top = _yaml_content(tree.root_node)
    if top is None:
        return []
    doc = _yaml_pairs(top)
    if doc is None:
        raise ManifestError(path, "the top level must be a mapping")
    if doc.get("dependencies") is None:
        return []
    entries = _yaml_items(doc["dependencies"])
    if entries is None:
        raise ManifestError(path, "dependencies must be a list")
    out: list[Declared] = []
    for node, line in entries:
        if node is not None and node.type in _YAML_SCALARS:
            spec = _yaml_string(node).split("#", 1)[0].strip()
            m = _CONDA_SPEC.match(spec)
            if m is None:
                raise ManifestError(path, f"line {line}: invalid conda spec {spec!r}")
            name = m.group("name")
            out.append(Declared("python", name, canonicalize_name(name), _conda_version(m.group("rest")),
                                "dependencies", line))
            continue
        sub = _yaml_pairs(node)
        if sub is not None and set(sub) == {"pip"} and sub["pip"] is None:
            continue  # "- pip:" with nothing under it
        pip = _yaml_items(sub.get("pip")) if sub is not None and set(sub) == {"pip"} else None
        if pip is None:
            raise ManifestError(path, f"line {line}: a dependency must be a conda spec or a pip: list")
        for item, item_line in pip:
            if item is None or item.type not in _YAML_SCALARS:
                raise ManifestError(path, f"line {item_line}: dependencies.pip holds something other than a string")
            decl = _requirement_line(path, _COMMENT.sub("", _yaml_string(item)).strip(), "dependencies.pip", item_line)
            if decl is not None:
                out.append(decl)
    return out


# --------------------------------------------------------------------------- #
# npm, Go, Cargo
# --------------------------------------------------------------------------- #

_NPM_SECTIONS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")


def package_json(text: str) -> dict[str, object] | None:
    """A package.json's top-level object, as the write path's readings take it
    (a script run by its name, what a script runs); None for a text JSON cannot
    read, or one that is no object. :func:`declared` refuses such a file."""
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def npm_dependency_names(doc: Mapping[str, object]) -> set[str]:
    """The packages a package.json object names in its dependency sections (each section an object)."""
    return {name for section in _NPM_SECTIONS if isinstance(deps := doc.get(section), dict) for name in deps}


def _package_json(path: str, text: str) -> list[Declared]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ManifestError(path, f"invalid JSON: {exc}") from exc
    if not isinstance(doc, dict):
        raise ManifestError(path, "the top level must be an object")
    lines = text.splitlines()
    out: list[Declared] = []
    for section in _NPM_SECTIONS:
        deps = doc.get(section, {})
        if not isinstance(deps, dict):
            raise ManifestError(path, f"{section} must be an object")
        section_line = _find_line(lines, re.compile(rf'"{re.escape(section)}"\s*:'), 0)
        for name, spec in deps.items():
            if not isinstance(spec, str):
                raise ManifestError(path, f"{section}.{name} must be a string")
            pattern = re.compile(rf'"{re.escape(json.dumps(name)[1:-1])}"\s*:')
            line = _find_line(lines, pattern, max(section_line - 1, 0))
            out.append(Declared("npm", name, name, spec.strip(), section, line))
    return out


def _find_line(lines: list[str], pattern: re.Pattern[str], start: int) -> int:
    for i in range(start, len(lines)):
        if pattern.search(lines[i]):
            return i + 1
    return 0


def _go_mod(path: str, text: str) -> list[Declared]:
    out: list[Declared] = []
    in_block = False
    block_start = 0

    def add(fields: list[str], line: int) -> None:
        fields = [f[1:-1] if len(f) > 1 and f[0] == f[-1] and f[0] in "\"`" else f for f in fields]
        if len(fields) != 2:
            raise ManifestError(path, f"line {line}: a require needs a module path and a version")
        out.append(Declared("go", fields[0], fields[0], fields[1], "require", line))

    for number, raw in enumerate(text.splitlines(), start=1):
        fields = raw.split("//", 1)[0].split()
        if not fields:
            continue
        if in_block:
            if fields == [")"]:
                in_block = False
            else:
                add(fields, number)
        elif fields[0] in ("require", "require("):
            if fields[0] == "require(" or fields[1:] == ["("]:
                in_block, block_start = True, number
            else:
                add(fields[1:], number)
    if in_block:
        raise ManifestError(path, f"the require block opened on line {block_start} is never closed")
    return out


_CARGO_KINDS = ("dependencies", "dev-dependencies", "build-dependencies")


def _cargo(path: str, text: str) -> list[Declared]:
    doc = _load_toml(path, text)
    lines = _TomlLines(text)
    tables: list[tuple[tuple[str, ...], object]] = [((kind,), doc.get(kind, {})) for kind in _CARGO_KINDS]
    for cfg, body in _table(path, doc.get("target", {}), "[target]").items():
        body = _table(path, body, f"[target.{cfg}]")
        tables.extend((("target", cfg, kind), body.get(kind, {})) for kind in _CARGO_KINDS)
    workspace = _table(path, doc.get("workspace", {}), "[workspace]")
    tables.append((("workspace", "dependencies"), workspace.get("dependencies", {})))
    out: list[Declared] = []
    for table_key, table in tables:
        where = ".".join(table_key)
        for name, value in _table(path, table, f"[{where}]").items():
            spec = _versioned(path, value, f"{where}.{name}")
            out.append(Declared("cargo", name, name.replace("_", "-"), spec, where, lines.key(table_key, name)))
    return out


# --------------------------------------------------------------------------- #
# Anchor specs and satisfaction
# --------------------------------------------------------------------------- #

_SPEC_HEAD = re.compile(r"^(?P<name>@?[A-Za-z0-9_][A-Za-z0-9._/-]*)\s*(?:\[[^\]]*\])?\s*(?P<rest>.*)$", re.DOTALL)
_AT_VERSION = re.compile(r"^\S+$")
#: What follows an ``@`` is a version when it starts like one; otherwise a folder.
_VERSION_START = re.compile(r"^(?:[<>=!~^*]|v?\d)")
_OPERATORS = "<>=!~^"


class DependencySpec(NamedTuple):
    """A dependency anchor as written: ``name``, ``requirement`` and ``folder``."""

    name: str
    requirement: str
    folder: str


def parse_dependency_spec(text: str) -> DependencySpec:
    """Split an anchor's dependency spec into a name, a requirement and a folder.

    The grammar, read left to right::

        NAME [ "[" extras "]" ] [ REQUIREMENT | "@" VERSION ] [ "@" FOLDER ]

    * ``NAME``: a package name; scoped npm names keep their leading ``@``
      (``"@types/node"`` → ``("@types/node", "", "")``). Python extras are
      dropped.
    * ``REQUIREMENT`` starts with one of ``< > = ! ~ ^`` and runs to the next
      ``@``: ``"requests>=2.1"`` → ``("requests", ">=2.1", "")``,
      ``"left-pad^1.3"`` → ``("left-pad", "^1.3", "")``.
    * ``@VERSION`` (npm, Go and ``cargo add`` style) when what follows the
      ``@`` starts like a version (a digit, ``v`` and a digit, or an
      operator): ``"github.com/pkg/errors@v0.9.1"``,
      ``"@types/node@^20"`` → ``("@types/node", "^20", "")``.
    * ``@FOLDER``, last, for anything else after an ``@``: the folder (from
      the repository root) whose manifests count besides the root's, e.g.
      ``"redis>=4@examples/celery"`` → ``("redis", ">=4", "examples/celery")``,
      ``"@types/node@packages/web"``. A folder named like a version is
      written ``./v2``. It must stay inside the repository.

    A requirement must be one MemVet can evaluate (see :func:`satisfies`):
    PEP 440 (``>=2.1,<3``, ``==4.2.*``, ``~=1.5``) or space/comma-separated
    comparators (``^1.2``, ``~1.2``, ``=1.2.3``, ``>=1 <2``, ``v1.9.0``).

    Raises:
        UsageError: Empty text, a name with characters no ecosystem allows, an
            operator with no version, a requirement MemVet cannot evaluate
            (``>=>2``, ``1.x``, ``^1 || ^2``), environment markers, nothing
            after ``@``, or (:class:`PathOutsideRepositoryError`) a folder that
            leaves the repository.
    """
    stripped = text.strip()
    if "://" in stripped:
        raise UsageError(f"invalid dependency spec {text!r}: URLs are not supported, name the package")
    m = _SPEC_HEAD.match(stripped)
    if m is None:
        raise _not_a_spec(text)
    name, rest = m.group("name"), m.group("rest").strip()
    requirement = folder = ""
    if rest.startswith("@"):
        tail = rest[1:].strip()
        if not tail:
            raise UsageError(f"invalid dependency spec {text!r}: nothing after '@'; expected name@version "
                             "or name@folder")
        if _VERSION_START.match(tail):
            requirement, at, folder = (part.strip() for part in tail.partition("@"))
            if not _AT_VERSION.match(requirement):
                raise UsageError(f"invalid dependency spec {text!r}: expected name@version")
            if at and not folder:
                raise UsageError(f"invalid dependency spec {text!r}: nothing after the last '@'; expected a folder")
        else:
            folder = tail
    elif rest:
        if rest[0] not in _OPERATORS:
            raise _not_a_spec(text)
        requirement, at, folder = (part.strip() for part in rest.partition("@"))
        if at and not folder:
            raise UsageError(f"invalid dependency spec {text!r}: nothing after '@'; expected a folder")
        if ";" in requirement:
            raise UsageError(f"invalid dependency spec {text!r}: environment markers are not supported here")
        if not re.search(r"[A-Za-z0-9*]", requirement):
            raise UsageError(f"invalid dependency spec {text!r}: an operator without a version")
    if requirement and not _evaluable(requirement):
        hint = f"; a folder named like a version is written @./{requirement}" if rest.startswith("@") else ""
        raise UsageError(
            f"invalid dependency spec {text!r}: {requirement!r} is not a version requirement MemVet can "
            f"evaluate (write e.g. >=2.1,<3, ==4.2.*, ^1.2, ~1.2 or v1.9.0){hint}"
        )
    return DependencySpec(name, requirement, dependency_folder(folder) if folder else "")


def _not_a_spec(text: str) -> UsageError:
    return UsageError(
        f"invalid dependency spec {text!r}: expected a package name, optionally followed by a "
        "requirement (requests>=2.1, left-pad^1.3) or @version, and by @folder"
    )


def _evaluable(requirement: str) -> bool:
    """Whether :func:`satisfies` can read ``requirement`` for some ecosystem."""
    try:
        SpecifierSet(requirement)
    except InvalidSpecifier:
        return _comparators(requirement, "npm") is not None
    return True


def dependency_folder(folder: str) -> str:
    """A dependency anchor's folder as a normalized path from the repository root.

    ``""`` and ``"."`` mean the root (returned as ``""``); ``"./v2"`` is ``"v2"``.

    Raises:
        PathOutsideRepositoryError: an absolute path, ``\\`` separators, or
            ``..`` leaving the repository.
    """
    raw = folder.strip()
    if "\\" in raw or "\x00" in raw:
        raise PathOutsideRepositoryError(f"dependency folder {raw!r}: write a path like examples/celery, with '/'")
    if raw.startswith("/") or re.match(r"^[A-Za-z]:", raw):
        raise PathOutsideRepositoryError(
            f"dependency folder {raw}: absolute paths are not accepted; name a folder from the repository root"
        )
    norm = normpath(raw) if raw else "."
    if norm == ".." or norm.startswith("../"):
        raise PathOutsideRepositoryError(
            f"dependency folder {raw}: outside the repository; name a folder from the repository root"
        )
    return "" if norm == "." else norm


def format_dependency_spec(name: str, requirement: str = "", folder: str = "") -> str:
    """The inverse of :func:`parse_dependency_spec`: ``redis>=4@examples/celery``."""
    text = name
    if requirement:
        text += requirement if requirement[0] in _OPERATORS else f"@{requirement}"
    if folder:
        text += f"@./{folder}" if _VERSION_START.match(folder) else f"@{folder}"
    return text


#: (operator, version) with operators among ``>=``, ``>``, ``<``, ``<=``, ``==``, ``!=``.
_Comparator = tuple[str, Version]

_RANGE_TOKEN = re.compile(r"^(?P<op>\^|~>|~=|~|>=|<=|==|=|>|<|!=)?\s*(?P<version>v?\d[0-9A-Za-z.+\-]*)$")


def _next_up(release: tuple[int, ...], index: int) -> Version:
    return Version(".".join(str(p) for p in (*release[:index], release[index] + 1)))


def _expand(op: str, version: Version, bare: str) -> list[_Comparator] | None:
    """Comparators for one token; ``bare`` says what a version with no operator means."""
    if op == "":
        op = bare
    release = version.release
    if op == "^":
        nonzero = next((i for i, p in enumerate(release) if p != 0), len(release) - 1)
        return [(">=", version), ("<", _next_up(release, nonzero))]
    if op in ("~", "~>"):
        return [(">=", version), ("<", _next_up(release, 1 if len(release) > 1 else 0))]
    if op == "~=":
        if len(release) < 2:
            return None
        return [(">=", version), ("<", _next_up(release, len(release) - 2))]
    if op == "min":  # Go: a minimum version within its major
        return [(">=", version), ("<", _next_up(release, 0))]
    if op == "=":
        op = "=="
    return [(op, version)]


_BARE_MEANING = {"python": "==", "npm": "==", "cargo": "^", "go": "min"}


def _comparators(spec: str, ecosystem: str) -> list[_Comparator] | None:
    """Parse a requirement into comparators, or ``None`` when this module cannot evaluate it."""
    spec = spec.strip()
    if not spec or "||" in spec:
        return None
    if ecosystem == "python":
        try:
            specifiers = list(SpecifierSet(spec))
        except InvalidSpecifier:
            pass  # not PEP 440: maybe Poetry's ^ / ~ / bare version, tried below
        else:
            return _pep440_comparators(specifiers)
    result: list[_Comparator] = []
    for token in re.split(r"[\s,]+", spec):
        m = _RANGE_TOKEN.match(token)
        if m is None:
            return None
        try:
            version = Version(m.group("version"))
        except InvalidVersion:
            return None
        expanded = _expand(m.group("op") or "", version, _BARE_MEANING.get(ecosystem, "=="))
        if expanded is None:
            return None
        result.extend(expanded)
    return result


def _pep440_comparators(specifiers: list[Specifier]) -> list[_Comparator] | None:
    result: list[_Comparator] = []
    for specifier in specifiers:
        op, written = specifier.operator, specifier.version
        if op == "===" or (op == "!=" and written.endswith(".*")):
            return None
        if op == "==" and written.endswith(".*"):
            prefix = Version(written[:-2])
            result += [(">=", prefix), ("<", _next_up(prefix.release, len(prefix.release) - 1))]
            continue
        result.extend(_expand(op, Version(written), "==") or [])  # never None: PEP 440 ~= has 2+ parts
    return result


_HOLDS: dict[str, Callable[[Version, Version], bool]] = {
    ">=": lambda v, b: v >= b,
    ">": lambda v, b: v > b,
    "<=": lambda v, b: v <= b,
    "<": lambda v, b: v < b,
    "==": lambda v, b: v == b,
    "!=": lambda v, b: v != b,
}


def _floor(comparators: list[_Comparator]) -> Version | None:
    """The version a declaration pins (``==``) or guarantees at least (``>=``)."""
    pins = [v for op, v in comparators if op == "=="]
    if pins:
        return pins[0]
    lows = [v for op, v in comparators if op == ">="]
    return max(lows) if lows else None


def _normalized(spec: str) -> str:
    return re.sub(r"\s+", "", spec)


def satisfies(decl: Declared, wanted_spec: str) -> bool | None:
    """Whether a declaration still satisfies the requirement an anchor recorded.

    The rule, in order:

    1. ``wanted_spec`` empty → ``True`` (the anchor only asks that it is declared).
    2. The two specs are equal ignoring whitespace (for Python: the same
       specifier set in any order) → ``True``.
    3. Otherwise take the declared spec's *floor*: the version it pins
       (``==X``, npm ``=X`` or bare ``X``, Poetry bare ``X``) or else its
       highest lower bound (``>=X``, ``~=X``, ``^X``, ``~X``, ``==X.*``, Cargo
       bare ``X``, Go ``vX``). Return whether the floor satisfies
       ``wanted_spec``. Only the lower bound is compared: a declaration that
       also admits versions outside ``wanted_spec`` still counts.
    4. ``None`` when that cannot be decided: either spec is empty (for the
       declared one), has no floor (``<3``, ``>1``, ``*``), uses syntax this
       module does not evaluate (npm ``1.x``, ``||``, tags, URLs, ``===``,
       pseudo-versions), or holds an unparseable version.

    Specs are read per ecosystem: Python as PEP 440 (falling back to Poetry's
    ``^``/``~``/bare forms); npm and Cargo as space- or comma-separated
    comparators with ``^``, ``~``, ``=``, ``>=``, ``>``, ``<=``, ``<``; a bare
    version is exact for Python and npm, a caret for Cargo, and for Go a
    minimum within its major version (Go's minimal version selection).
    Caret and tilde ranges follow npm: ``^1.2.3`` is ``>=1.2.3,<2``,
    ``^0.2.3`` is ``>=0.2.3,<0.3``, ``~1.2.3`` is ``>=1.2.3,<1.3``.
    """
    wanted = wanted_spec.strip()
    if not wanted:
        return True
    declared_spec = decl.spec.strip()
    if _normalized(declared_spec) == _normalized(wanted):
        return True
    if decl.ecosystem == "python":
        try:
            if SpecifierSet(declared_spec) == SpecifierSet(wanted):
                return True
        except InvalidSpecifier:
            pass  # Poetry syntax on either side: compared through comparators below
    have = _comparators(declared_spec, decl.ecosystem)
    need = _comparators(wanted, decl.ecosystem)
    if have is None or need is None:
        return None
    floor = _floor(have)
    if floor is None:
        return None
    return all(_HOLDS[op](floor, bound) for op, bound in need)
