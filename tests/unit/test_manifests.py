"""Tests of memvet._manifests: every manifest format and section, errors, specs, satisfies()."""

from __future__ import annotations

import re
import textwrap

import pytest

import memvet._manifests as manifests
from memvet._errors import PathOutsideRepositoryError, UsageError
from memvet._manifests import (
    MANIFEST_NAMES,
    NON_PROJECT_FOLDERS,
    Declared,
    DependencySpec,
    ManifestError,
    declared,
    format_dependency_spec,
    is_manifest,
    manifest_home,
    non_project_kind,
    parse_dependency_spec,
    satisfies,
)


def parse(path: str, text: str) -> list[Declared]:
    return declared(path, textwrap.dedent(text).lstrip("\n").encode())


def by_name(decls: list[Declared]) -> dict[str, Declared]:
    return {d.name: d for d in decls}


def rows(decls: list[Declared]) -> list[tuple[str, str, str, int]]:
    return [(d.name, d.spec, d.section, d.line) for d in decls]


# --------------------------------------------------------------------------- #
# is_manifest
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    "path",
    [
        "pyproject.toml",
        "sub/pkg/pyproject.toml",
        "requirements.txt",
        "requirements-dev.txt",
        "requirements_test.txt",
        "dev-requirements.txt",
        "requirements/base.txt",
        "services/api/requirements/prod.txt",
        "package.json",
        "web/package.json",
        "go.mod",
        "tools/go.mod",
        "Cargo.toml",
        "crates/core/Cargo.toml",
    ],
)
def test_is_manifest_accepts(path: str) -> None:
    assert is_manifest(path)


@pytest.mark.parametrize(
    "path",
    [
        "setup.py",
        "requirements.in",
        "docs/notes.txt",
        "package-lock.json",
        "go.sum",
        "Cargo.lock",
        "cargo.toml",
        "pyproject.toml.bak",
        "requirements",
        "requirements/README.md",
    ],
)
def test_is_manifest_refuses(path: str) -> None:
    assert not is_manifest(path)


def test_manifest_names_lists_the_patterns() -> None:
    for name in ("pyproject.toml", "requirements*.txt", "requirements/*.txt", "package.json", "go.mod", "Cargo.toml"):
        assert name in MANIFEST_NAMES


def test_declared_refuses_a_file_that_is_not_a_manifest() -> None:
    with pytest.raises(ManifestError, match=r"setup\.py: not a manifest"):
        declared("setup.py", b"")


def test_declared_refuses_bytes_that_are_not_utf8() -> None:
    with pytest.raises(ManifestError, match=r"requirements\.txt: not UTF-8"):
        declared("requirements.txt", b"requests\n\xff\xfe\n")


def test_a_utf8_bom_is_accepted() -> None:
    assert [d.name for d in declared("requirements.txt", b"\xef\xbb\xbfrequests\n")] == ["requests"]


def test_manifest_error_is_a_usage_error_with_path_and_reason() -> None:
    err = ManifestError("a/go.mod", "broken")
    assert isinstance(err, UsageError) and isinstance(err, ValueError)
    assert (err.path, err.reason) == ("a/go.mod", "broken")
    assert str(err) == "cannot read manifest a/go.mod: broken"


# --------------------------------------------------------------------------- #
# pyproject.toml
# --------------------------------------------------------------------------- #

PEP621 = """
[build-system]
requires = ["hatchling"]

[project]
name = "demo"
dependencies = [
    "requests>=2.0,<3",
    "Typing_Extensions ; python_version < '3.12'",
    'PyYAML[libyaml] >= 6.0',
    "old-style (>=1.0)",
    "directref @ https://example.com/directref-1.0.tar.gz",
]

[project.optional-dependencies]
dev = ["pytest>=8", "requests[socks]"]
docs = [
  "mkdocs~=1.5",
]

[dependency-groups]
test = ["pytest>=8", "hypothesis"]
lint = [{include-group = "test"}, "ruff==0.6.*"]
"""


def test_pep621_dependencies_extras_and_groups() -> None:
    decls = parse("pyproject.toml", PEP621)
    assert rows(decls) == [
        ("requests", ">=2.0,<3", "project.dependencies", 7),
        ("Typing_Extensions", "", "project.dependencies", 8),  # the marker is not part of the spec
        ("PyYAML", ">=6.0", "project.dependencies", 9),  # nor are extras
        ("old-style", ">=1.0", "project.dependencies", 10),
        ("directref", "@ https://example.com/directref-1.0.tar.gz", "project.dependencies", 11),
        ("pytest", ">=8", "project.optional-dependencies.dev", 15),
        ("requests", "", "project.optional-dependencies.dev", 15),
        ("mkdocs", "~=1.5", "project.optional-dependencies.docs", 17),
        ("pytest", ">=8", "dependency-groups.test", 21),
        ("hypothesis", "", "dependency-groups.test", 21),
        ("ruff", "==0.6.*", "dependency-groups.lint", 22),  # the include-group entry is skipped
    ]
    assert all(d.ecosystem == "python" for d in decls)
    keys = {d.name: d.key for d in decls}
    assert keys["Typing_Extensions"] == "typing-extensions"
    assert keys["PyYAML"] == "pyyaml"


def test_pep621_optional_dependencies_as_an_inline_table() -> None:
    decls = parse(
        "pyproject.toml",
        """
        [project]
        optional-dependencies = { dev = ["pytest"] }
        """,
    )
    assert rows(decls) == [("pytest", "", "project.optional-dependencies.dev", 2)]


def test_pyproject_without_dependencies_declares_nothing() -> None:
    assert parse("pyproject.toml", '[project]\nname = "x"\n') == []
    assert parse("pyproject.toml", "") == []


POETRY = """
[tool.poetry]
name = "demo"

[tool.poetry.dependencies]
python = "^3.11"
requests = "^2.31"
"Flask" = { version = ">=2.0,<3", extras = ["async"] }
localpkg = { path = "../localpkg" }
numpy = [
    { version = "^1.26", python = "<3.13" },
    { version = "^2.0", python = ">=3.13" },
]

[tool.poetry.dev-dependencies]
black = "23.1.0"

[tool.poetry.group.test.dependencies]
pytest = "~7.4"

[tool.poetry.group.docs]
optional = true

[tool.poetry.group.docs.dependencies]
mkdocs = "*"
"""


def test_poetry_dependencies_and_groups() -> None:
    decls = parse("pyproject.toml", POETRY)
    assert rows(decls) == [
        ("requests", "^2.31", "tool.poetry.dependencies", 6),
        ("Flask", ">=2.0,<3", "tool.poetry.dependencies", 7),
        ("localpkg", "", "tool.poetry.dependencies", 8),
        ("numpy", "", "tool.poetry.dependencies", 9),
        ("black", "23.1.0", "tool.poetry.dev-dependencies", 15),
        ("pytest", "~7.4", "tool.poetry.group.test.dependencies", 18),
        ("mkdocs", "*", "tool.poetry.group.docs.dependencies", 24),
    ]
    assert by_name(decls)["Flask"].key == "flask"


def test_poetry_dependency_in_a_table_header_of_its_own() -> None:
    decls = parse(
        "pyproject.toml",
        """
        [tool.poetry.dependencies]
        python = "^3.11"

        [tool.poetry.dependencies.requests]
        version = "^2.31"
        """,
    )
    assert rows(decls) == [("requests", "^2.31", "tool.poetry.dependencies", 4)]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[project\nname = 1", "invalid TOML"),
        ('project = "x"', r"\[project\] must be a table"),
        ("[project]\ndependencies = 'requests'", "project.dependencies must be an array of strings"),
        ("[project]\ndependencies = [1]", "project.dependencies must be an array of strings"),
        ("[project]\ndependencies = ['requests >>= 2']", "line 2: invalid requirement 'requests >>= 2'"),
        ("[project]\noptional-dependencies = ['x']", "project.optional-dependencies must be a table"),
        ("[project.optional-dependencies]\ndev = 'pytest'", "project.optional-dependencies.dev must be an array"),
        ('[dependency-groups]\ntest = "pytest"', "dependency-groups.test must be an array"),
        ("[dependency-groups]\ntest = [1]", "dependency-groups.test holds 1, not a requirement string"),
        ("[dependency-groups]\ntest = [{other = 1}]", "not a requirement string"),
        ("[tool.poetry.dependencies]\nrequests = 2", r"tool.poetry.dependencies.requests must be a version"),
        ("[tool.poetry.dependencies]\nrequests = {version = 2}", r"requests.version must be a string"),
        ("[tool.poetry.dependencies]\nx = [1]", r"tool.poetry.dependencies.x must be a version string or a table"),
        ("[tool.poetry]\ngroup = 1", r"\[tool.poetry.group\] must be a table"),
        ("[tool.poetry.group]\ntest = 1", r"\[tool.poetry.group.test\] must be a table"),
        ("[tool.poetry.group.test]\ndependencies = 1", r"\[tool.poetry.group.test.dependencies\] must be a table"),
    ],
)
def test_malformed_pyproject(text: str, reason: str) -> None:
    with pytest.raises(ManifestError, match="cannot read manifest pyproject.toml: .*" + reason):
        declared("pyproject.toml", text.encode())


def test_python_spec_falls_back_to_packagings_form(monkeypatch: pytest.MonkeyPatch) -> None:
    # If the written text ever fails to split into name and specifier, the
    # specifier packaging parsed is used instead.
    monkeypatch.setattr(manifests, "_PEP508_HEAD", re.compile(r"(?!)"))
    [decl] = parse("requirements.txt", "requests>=2.1,<3\n")
    assert decl.spec == "<3,>=2.1"


# --------------------------------------------------------------------------- #
# requirements*.txt
# --------------------------------------------------------------------------- #

REQUIREMENTS = r"""
# a comment line
-r base.txt
-c constraints.txt
--index-url https://pypi.example/simple
-e git+https://github.com/org/proj.git#egg=proj
-e .

requests>=2.0,<3  # inline comment
Django==4.2.* ; python_version >= "3.10"
numpy \
    >=1.26 \
    ; sys_platform != "win32"
urllib3==2.2.1 \
    --hash=sha256:0123456789abcdef \
    --hash=sha256:fedcba9876543210
# a comment ending in a backslash does not continue \
attrs
./local/package
../sibling
/abs/path/pkg
https://example.com/pkg-1.0-py3-none-any.whl
git+https://github.com/org/other.git
pkg-2.0.tar.gz
.
C:\wheels\thing.whl
direct @ https://example.com/direct-1.0.whl
"""


def test_requirements_file() -> None:
    decls = parse("requirements/dev.txt", REQUIREMENTS)
    assert rows(decls) == [
        ("requests", ">=2.0,<3", "requirements", 8),
        ("Django", "==4.2.*", "requirements", 9),
        ("numpy", ">=1.26", "requirements", 10),
        ("urllib3", "==2.2.1", "requirements", 13),
        ("attrs", "", "requirements", 17),
        ("direct", "@ https://example.com/direct-1.0.whl", "requirements", 26),
    ]
    assert {d.ecosystem for d in decls} == {"python"}
    assert by_name(decls)["Django"].key == "django"


def test_requirements_continuation_at_end_of_file() -> None:
    assert rows(parse("requirements.txt", "flask \\\n  >=3.0 \\")) == [("flask", ">=3.0", "requirements", 1)]


@pytest.mark.parametrize("bad", ["requests >>= 2", "foo bar", "name[extra"])
def test_malformed_requirements(bad: str) -> None:
    with pytest.raises(ManifestError, match=r"requirements-dev\.txt: line 2: invalid requirement"):
        parse("requirements-dev.txt", f"ok\n{bad}\n")


# --------------------------------------------------------------------------- #
# package.json
# --------------------------------------------------------------------------- #

PACKAGE_JSON = """
{
  "name": "demo",
  "version": "1.0.0",
  "dependencies": {
    "left-pad": "^1.3.0",
    "@types/node": "~20.1.0"
  },
  "devDependencies": {
    "typescript": "5.4.2",
    "left-pad": "1.x"
  },
  "peerDependencies": {
    "react": ">=18 <20"
  },
  "optionalDependencies": {
    "fsevents": "*"
  }
}
"""


def test_package_json_sections() -> None:
    decls = parse("web/package.json", PACKAGE_JSON)
    assert rows(decls) == [
        ("left-pad", "^1.3.0", "dependencies", 5),
        ("@types/node", "~20.1.0", "dependencies", 6),
        ("typescript", "5.4.2", "devDependencies", 9),
        ("left-pad", "1.x", "devDependencies", 10),
        ("react", ">=18 <20", "peerDependencies", 13),
        ("fsevents", "*", "optionalDependencies", 16),
    ]
    assert all(d.ecosystem == "npm" and d.key == d.name for d in decls)


def test_package_json_without_dependencies() -> None:
    assert parse("package.json", '{"name": "x"}') == []


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"dependencies": {', "invalid JSON"),
        ("[1, 2]", "the top level must be an object"),
        ('{"dependencies": ["left-pad"]}', "dependencies must be an object"),
        ('{"devDependencies": {"left-pad": 1}}', "devDependencies.left-pad must be a string"),
    ],
)
def test_malformed_package_json(text: str, reason: str) -> None:
    with pytest.raises(ManifestError, match="package.json: " + reason):
        declared("package.json", text.encode())


# --------------------------------------------------------------------------- #
# go.mod
# --------------------------------------------------------------------------- #

GO_MOD = """
module example.com/demo

go 1.22

require github.com/pkg/errors v0.9.1

require (
    golang.org/x/sync v0.7.0
    github.com/stretchr/testify v1.9.0 // indirect
    // a comment line
    "example.com/quoted" v1.0.0
)

replace example.com/old => example.com/new v1.2.3

exclude (
    example.com/bad v0.1.0
)
"""


def test_go_mod_single_and_block_require() -> None:
    decls = parse("go.mod", GO_MOD)
    assert rows(decls) == [
        ("github.com/pkg/errors", "v0.9.1", "require", 5),
        ("golang.org/x/sync", "v0.7.0", "require", 8),
        ("github.com/stretchr/testify", "v1.9.0", "require", 9),
        ("example.com/quoted", "v1.0.0", "require", 11),
    ]
    assert all(d.ecosystem == "go" and d.key == d.name for d in decls)


def test_go_mod_require_block_without_space() -> None:
    assert rows(parse("go.mod", "require(\n  a.io/b v1.0.0\n)\n")) == [("a.io/b", "v1.0.0", "require", 2)]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("require github.com/pkg/errors\n", "line 1: a require needs a module path and a version"),
        ("require (\n  a.io/b v1 extra\n)\n", "line 2: a require needs"),
        ("module x\nrequire (\n  a.io/b v1.0.0\n", "the require block opened on line 2 is never closed"),
    ],
)
def test_malformed_go_mod(text: str, reason: str) -> None:
    with pytest.raises(ManifestError, match="go.mod: " + reason):
        declared("go.mod", text.encode())


# --------------------------------------------------------------------------- #
# Cargo.toml
# --------------------------------------------------------------------------- #

CARGO = """
[package]
name = "demo"
version = "0.1.0"

[dependencies]
serde = { version = "1.0", features = ["derive"] }
tokio = "1.37"
local_crate = { path = "../local_crate" }
shared.workspace = true

[dependencies.rand]
version = "0.8.5"

[dev-dependencies]
proptest = "=1.4.0"

[build-dependencies]
cc = ">=1.0, <1.1"

[target.'cfg(unix)'.dependencies]
nix = "0.28"

[target."cfg(windows)".dev-dependencies]
winapi = { version = "0.3" }

[workspace.dependencies]
anyhow = "1"
"""


def test_cargo_sections() -> None:
    decls = parse("crates/demo/Cargo.toml", CARGO)
    assert rows(decls) == [
        ("serde", "1.0", "dependencies", 6),
        ("tokio", "1.37", "dependencies", 7),
        ("local_crate", "", "dependencies", 8),
        ("shared", "", "dependencies", 9),
        ("rand", "0.8.5", "dependencies", 11),
        ("proptest", "=1.4.0", "dev-dependencies", 15),
        ("cc", ">=1.0, <1.1", "build-dependencies", 18),
        ("nix", "0.28", "target.cfg(unix).dependencies", 21),
        ("winapi", "0.3", "target.cfg(windows).dev-dependencies", 24),
        ("anyhow", "1", "workspace.dependencies", 27),
    ]
    assert by_name(decls)["local_crate"].key == "local-crate"
    assert all(d.ecosystem == "cargo" for d in decls)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[dependencies\n", "invalid TOML"),
        ("dependencies = 1", r"\[dependencies\] must be a table"),
        ("[dependencies]\nserde = 1", "dependencies.serde must be a version string or a table"),
        ("[dependencies]\nserde = { version = 1 }", "dependencies.serde.version must be a string"),
        ("target = 1", r"\[target\] must be a table"),
        ("[target]\nunix = 1", r"\[target.unix\] must be a table"),
        ("workspace = 1", r"\[workspace\] must be a table"),
    ],
)
def test_malformed_cargo(text: str, reason: str) -> None:
    with pytest.raises(ManifestError, match="Cargo.toml: .*" + reason):
        declared("Cargo.toml", text.encode())


def test_toml_line_lookup_is_best_effort() -> None:
    # An inline table spread over a key the header scan cannot see: still found.
    decls = parse(
        "Cargo.toml",
        """
        [target."cfg(weird \\" quote)".dependencies]
        x = "1"
        [target . unix . dependencies]
        y = "2"
        """,
    )
    assert [(d.name, d.line) for d in decls] == [("x", 2), ("y", 4)]
    # Lines inside a multi-line string that look like headers are not headers.
    decls = parse(
        "Cargo.toml",
        '''
        [package]
        description = """
        [not a header]
        [=]
        [a."b
        """
        [dependencies]
        w = "1"
        ''',
    )
    assert [(d.name, d.line) for d in decls] == [("w", 8)]
    # A key that appears nowhere as written (dotted from the parent table): 0.
    decls = parse("Cargo.toml", 'dependencies = { "z" = "1" }\n')
    assert [(d.name, d.line) for d in decls] == [("z", 0)]


# --------------------------------------------------------------------------- #
# parse_dependency_spec
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("requests", ("requests", "", "")),
        ("  requests  ", ("requests", "", "")),
        ("requests>=2.1", ("requests", ">=2.1", "")),
        ("requests >= 2.1, <3", ("requests", ">= 2.1, <3", "")),
        ("requests[socks]>=2", ("requests", ">=2", "")),
        ("Django==4.2.*", ("Django", "==4.2.*", "")),
        ("mkdocs~=1.5", ("mkdocs", "~=1.5", "")),
        ("left-pad", ("left-pad", "", "")),
        ("left-pad^1.3", ("left-pad", "^1.3", "")),
        ("left-pad@^1.3.0", ("left-pad", "^1.3.0", "")),
        ("@types/node", ("@types/node", "", "")),
        ("@types/node@^20", ("@types/node", "^20", "")),
        ("github.com/pkg/errors", ("github.com/pkg/errors", "", "")),
        ("github.com/pkg/errors@v0.9.1", ("github.com/pkg/errors", "v0.9.1", "")),
        ("serde@1.0", ("serde", "1.0", "")),
        ("serde_json", ("serde_json", "", "")),
        # @folder, last: what follows an @ is a folder unless it starts like a version
        ("redis@examples/celery", ("redis", "", "examples/celery")),
        ("redis>=4@examples/celery", ("redis", ">=4", "examples/celery")),
        ("redis >=4 @ examples/celery/", ("redis", ">=4", "examples/celery")),
        ("requests[socks]>=2@services/api", ("requests", ">=2", "services/api")),
        ("@types/node@packages/web", ("@types/node", "", "packages/web")),
        ("@types/node^20@packages/web", ("@types/node", "^20", "packages/web")),
        ("@types/node@^20@packages/web", ("@types/node", "^20", "packages/web")),
        ("@types/node@packages/@org/web", ("@types/node", "", "packages/@org/web")),
        ("github.com/pkg/errors@v0.9.1@tools", ("github.com/pkg/errors", "v0.9.1", "tools")),
        ("pkg@./v2", ("pkg", "", "v2")),
        ("pkg@./src/../lib", ("pkg", "", "lib")),
        ("pkg@.", ("pkg", "", "")),
    ],
)
def test_parse_dependency_spec(text: str, expected: tuple[str, str, str]) -> None:
    parsed = parse_dependency_spec(text)
    assert parsed == DependencySpec(*expected)
    assert parse_dependency_spec(format_dependency_spec(*parsed)) == parsed


@pytest.mark.parametrize(
    ("parts", "text"),
    [
        (("requests", "", ""), "requests"),
        (("requests", ">=2", "examples/celery"), "requests>=2@examples/celery"),
        (("github.com/pkg/errors", "v0.9.1", ""), "github.com/pkg/errors@v0.9.1"),
        (("@types/node", "", "packages/web"), "@types/node@packages/web"),
        (("pkg", "", "v2"), "pkg@./v2"),
        (("pkg", "1.0", "2024"), "pkg@1.0@./2024"),
    ],
)
def test_format_dependency_spec(parts: tuple[str, str, str], text: str) -> None:
    assert format_dependency_spec(*parts) == text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "expected a package name"),
        (">=2.0", "expected a package name"),
        ("requests 2.0", "expected a package name"),
        ("requests>=", "an operator without a version"),
        ("requests>=@examples", "an operator without a version"),
        ("requests>=2; python_version<'3.12'", "environment markers"),
        ("left-pad@", "nothing after '@'"),
        ("left-pad>=1@", "nothing after '@'; expected a folder"),
        ("left-pad@1@", "nothing after the last '@'"),
        ("left-pad@1 2", "expected name@version"),
        ("bad name@1.0", "expected a package name"),
        ("pkg @ https://example.com/x.whl", "URLs are not supported"),
        # requirements MemVet could never evaluate: refused, not recorded as forever unverifiable
        ("requests>=>2", "'>=>2' is not a version requirement MemVet can evaluate"),
        ("requests=>2", "is not a version requirement"),
        ("requests~=1", "is not a version requirement"),
        ("left-pad^1 || ^2", "is not a version requirement"),
        ("left-pad@1.x", "is not a version requirement"),
        ("left-pad@*", "is not a version requirement"),
        ("pkg@2024-app", r"a folder named like a version is written @\./2024-app"),
    ],
)
def test_parse_dependency_spec_refuses(text: str, reason: str) -> None:
    with pytest.raises(UsageError, match=reason):
        parse_dependency_spec(text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("redis@../outside", "outside the repository"),
        ("redis@examples/../../outside", "outside the repository"),
        ("redis@..", "outside the repository"),
        ("redis>=4@/etc", "absolute paths are not accepted"),
        ("redis@C:/work", "absolute paths are not accepted"),
        ("redis@examples\\celery", "write a path like examples/celery"),
    ],
)
def test_a_dependency_folder_must_stay_inside_the_repository(text: str, reason: str) -> None:
    with pytest.raises(PathOutsideRepositoryError, match=reason):
        parse_dependency_spec(text)


@pytest.mark.parametrize(
    ("path", "home", "kind"),
    [
        ("pyproject.toml", "", ""),
        ("requirements/dev.txt", "", ""),
        ("packages/web/package.json", "packages/web", ""),
        ("services/api/requirements/base.txt", "services/api", ""),
        ("examples/celery/requirements.txt", "examples/celery", "an example manifest"),
        ("packages/web/test/fixture/package.json", "packages/web/test/fixture", "a test manifest"),
        ("docs/requirements.txt", "docs", "a documentation manifest"),
        ("vendor/github.com/x/go.mod", "vendor/github.com/x", "a vendored manifest"),
        ("node_modules/left-pad/package.json", "node_modules/left-pad", "an installed package's manifest"),
        ("examples.txt/requirements.txt", "examples.txt", ""),
    ],
)
def test_manifest_home_and_non_project_folders(path: str, home: str, kind: str) -> None:
    assert manifest_home(path) == home
    assert non_project_kind(path) == kind


def test_non_project_folders_cover_the_usual_names() -> None:
    for name in ("examples", "example", "docs", "doc", "tests", "test", "testing", "fixtures",
                 "vendor", "third_party", "node_modules", "samples", "benchmarks"):
        assert NON_PROJECT_FOLDERS[name].endswith("manifest")


# --------------------------------------------------------------------------- #
# satisfies
# --------------------------------------------------------------------------- #


def decl(ecosystem: str, spec: str) -> Declared:
    return Declared(ecosystem, "dep", "dep", spec, "dependencies", 1)


@pytest.mark.parametrize(
    ("ecosystem", "declared_spec", "wanted", "expected"),
    [
        # 1. nothing wanted
        ("python", "", "", True),
        ("npm", "1.x", "  ", True),
        # 2. the same spec
        ("python", ">=2.0,<3", ">=2.0, <3", True),
        ("python", "<3,>=2.0", ">=2.0,<3", True),
        ("npm", "1.x", "1.x", True),
        ("go", "v0.0.0-2021-abcdef", "v0.0.0-2021-abcdef", True),
        # 3. python: a pin, or the floor, checked against what is wanted
        ("python", "==2.31.0", ">=2.0,<3", True),
        ("python", "==3.0", ">=2.0,<3", False),
        ("python", ">=2.5", ">=2.0,<3", True),
        ("python", ">=2.0", ">=2.0,<3", True),  # only the lower bound is compared
        ("python", ">=1.9", ">=2.0", False),
        ("python", ">=1.9,>=2.1", ">=2.0", True),  # the highest lower bound
        ("python", "~=2.2", ">=2.0,<3", True),
        ("python", "~=1.4.5", ">=1.5", False),
        ("python", "==2.*", ">=2.0", True),
        ("python", "==2.4.*", "<2.4", False),
        ("python", ">=2.0,!=2.1", "!=2.0", False),
        ("python", "==1.0", "~=1.0", True),
        ("python", "==1.0", "==1.*", True),
        ("python", "==2.0", "!=1.*", None),  # wildcard exclusions are not evaluated
        ("python", "===1.0", "==1.0", None),
        # poetry syntax under python
        ("python", "^2.31", ">=2.0,<3", True),
        ("python", "^2.31", "^2.0", True),
        ("python", "~7.4", ">=8", False),
        ("python", "23.1.0", "^23.0", True),  # a bare Poetry version is a pin
        ("python", "23.1.0", "23.1.0", True),
        ("python", "2.0", "2.1", False),
        ("python", ">=2.0", "^1.0", False),
        ("python", "*", ">=1", None),
        # no floor, or nothing declared
        ("python", "", ">=1.0", None),
        ("python", "<3", ">=1.0", None),
        ("python", ">1.0", ">=1.0", None),
        ("python", "@ https://example.com/x.whl", ">=1.0", None),
        # npm
        ("npm", "^1.3.0", "^1.2.0", True),
        ("npm", "^1.3.0", "^2.0.0", False),
        ("npm", "~1.2.3", "^1.0.0", True),
        ("npm", "1.2.3", "~1.2.0", True),  # bare is exact in npm
        ("npm", "=1.2.3", ">=1.3.0", False),
        ("npm", "v1.2.3", "1.2.3", True),
        ("npm", ">=18 <20", ">=17", True),
        ("npm", "^0.2.3", "^0.3.0", False),
        ("npm", "^0.2.3", "<0.3", True),
        ("npm", "^0.0.3", "^0.0.3", True),
        ("npm", "^0.0.4", "^0.0.3", False),
        ("npm", "^0", ">=0", True),
        ("npm", "~1", ">=1 <2", True),
        ("npm", "1.x", "^1.0.0", None),
        ("npm", "^1.0.0 || ^2.0.0", "^1.0.0", None),
        ("npm", "latest", "^1.0.0", None),
        ("npm", "^1.0.0", "1.2.3 - 2.0.0", None),
        ("npm", "^1.2.3-beta.1", "^1.2.0", True),
        ("npm", "^1.2.3-beta.1", "^1.2.3", False),  # a pre-release floor is below 1.2.3
        # cargo: a bare version is a caret
        ("cargo", "1.0", "1.0.100", False),
        ("cargo", "1.0.200", "1.0.100", True),
        ("cargo", "1.37", "^1.30", True),
        ("cargo", "=1.4.0", ">=1.4, <1.5", True),
        ("cargo", ">=1.0, <1.1", "0.9", False),
        ("cargo", "~=1", "1", None),  # not cargo syntax
        ("cargo", "1.*", "1", None),
        ("cargo", "", "1", None),
        # go: a minimum within its major
        ("go", "v1.9.0", "v1.8.0", True),
        ("go", "v1.7.0", "v1.8.0", False),
        ("go", "v2.1.0+incompatible", "v1.8.0", False),
        ("go", "v0.9.1", "v0.9.0", True),
        ("go", "v1.9.0", ">=v1.9.0", True),
    ],
)
def test_satisfies_truth_table(ecosystem: str, declared_spec: str, wanted: str, expected: bool | None) -> None:
    assert satisfies(decl(ecosystem, declared_spec), wanted) is expected


def test_satisfies_on_parsed_declarations() -> None:
    found = {(d.name, d.section): d for d in parse("pyproject.toml", PEP621)}
    assert satisfies(found[("requests", "project.dependencies")], ">=2.0") is True
    assert satisfies(found[("requests", "project.dependencies")], ">=2.5") is False
    assert satisfies(found[("PyYAML", "project.dependencies")], "") is True
    [go] = parse("go.mod", "require github.com/pkg/errors v0.9.1\n")
    name, spec, _ = parse_dependency_spec("github.com/pkg/errors@v0.9.0")
    assert go.key == name
    assert satisfies(go, spec) is True
