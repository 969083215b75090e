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
        "setup.cfg",
        "setup.py",
        "libs/legacy/setup.py",
        "Pipfile",
        "environment.yml",
        "envs/environment.yaml",
    ],
)
def test_is_manifest_accepts(path: str) -> None:
    assert is_manifest(path)


@pytest.mark.parametrize(
    "path",
    [
        "mysetup.py",
        "pkg/module.py",
        "setup.py.orig",
        "Pipfile.lock",
        "environment.json",
        "my-environment.yml",
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
    for name in ("pyproject.toml", "requirements*.txt", "requirements/*.txt", "package.json", "go.mod", "Cargo.toml",
                 "setup.cfg", "setup.py", "Pipfile", "environment.yml"):
        assert name in MANIFEST_NAMES


def test_declared_refuses_a_file_that_is_not_a_manifest() -> None:
    with pytest.raises(ManifestError, match=r"Pipfile\.lock: not a manifest"):
        declared("Pipfile.lock", b"")


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
# setup.cfg, setup.py, Pipfile, PDM, environment.yml
# --------------------------------------------------------------------------- #

SETUP_CFG = """
[metadata]
name = demo
version = attr: demo.__version__

[options]
packages = find:
python_requires = >=3.8
install_requires =
    requests>=2.28,<3
    # pinned for the old API
    click~=8.1
    importlib-metadata>=4.6; python_version < "3.10"

[options.extras_require]
test =
    pytest>=7
    pytest-cov
docs = sphinx>=7

[options.entry_points]
console_scripts =
    demo = demo.cli:main
"""


def test_setup_cfg_install_requires_and_extras() -> None:
    decls = parse("setup.cfg", SETUP_CFG)
    assert rows(decls) == [
        ("requests", ">=2.28,<3", "options.install_requires", 9),
        ("click", "~=8.1", "options.install_requires", 11),
        ("importlib-metadata", ">=4.6", "options.install_requires", 12),
        ("pytest", ">=7", "options.extras_require.test", 16),
        ("pytest-cov", "", "options.extras_require.test", 17),
        ("sphinx", ">=7", "options.extras_require.docs", 18),
    ]
    assert {d.ecosystem for d in decls} == {"python"}
    assert by_name(decls)["importlib-metadata"].key == "importlib-metadata"


def test_setup_cfg_single_line_file_directive_and_no_options() -> None:
    # setuptools splits a one-line list on ";" and reads "file:" itself: the
    # named requirements file counts in its own right, so it is skipped here.
    decls = parse("setup.cfg", "[options]\ninstall_requires = attrs; six>=1.16\n"
                               "[options.extras_require]\ndev = file: requirements-dev.txt\n")
    assert rows(decls) == [("attrs", "", "options.install_requires", 2),
                           ("six", ">=1.16", "options.install_requires", 2)]
    assert parse("setup.cfg", "[metadata]\nname = x\n") == []
    assert parse("setup.cfg", "") == []


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("install_requires = x\n", "invalid setup.cfg: File contains no section headers"),
        ("[options]\n[options]\n", "invalid setup.cfg: .*section 'options' already exists"),
        ("[options]\ninstall_requires =\n    ok\n    requests >>= 2\n", "line 4: invalid requirement"),
    ],
)
def test_malformed_setup_cfg(text: str, reason: str) -> None:
    with pytest.raises(ManifestError, match=r"cannot read manifest setup\.cfg: " + reason):
        declared("setup.cfg", text.encode())


SETUP_PY = '''
import os
from setuptools import find_packages, setup

INSTALL_REQUIRES = [
    "requests>=2.28",
    "PyYAML>=6.0",
    os.environ.get("EXTRA_REQ", "six"),  # not a literal: skipped
]
TESTS: list[str] = ["pytest>=7", "hypothesis"]

setup(
    name="demo",
    packages=find_packages(),
    install_requires=INSTALL_REQUIRES,
    extras_require={
        "test": TESTS,
        "docs": ["sphinx>=7"],
        "all": INSTALL_REQUIRES + TESTS,  # not a literal: skipped
        os.environ.get("X", "x"): ["never"],  # a key that is not a literal: skipped
    },
)
'''


def test_setup_py_literals_and_module_level_lists() -> None:
    decls = parse("setup.py", SETUP_PY)
    assert rows(decls) == [
        ("requests", ">=2.28", "install_requires", 5),
        ("PyYAML", ">=6.0", "install_requires", 6),
        ("pytest", ">=7", "extras_require.test", 9),
        ("hypothesis", "", "extras_require.test", 9),
        ("sphinx", ">=7", "extras_require.docs", 17),
    ]
    assert by_name(decls)["PyYAML"].key == "pyyaml"


def test_setup_py_through_setuptools_attribute_and_a_requirements_string() -> None:
    decls = parse(
        "setup.py",
        '''
        import setuptools
        setuptools.setup(
            install_requires="""
                attrs>=23
                # a comment
                six
            """,
        )
        ''',
    )
    assert rows(decls) == [("attrs", ">=23", "install_requires", 4), ("six", "", "install_requires", 6)]


def test_setup_py_values_that_are_not_literals_are_skipped_not_run(tmp_path) -> None:
    marker = tmp_path / "ran"
    text = f'''
    from setuptools import setup
    open({str(marker)!r}, "w").write("executed")
    raise SystemExit("setup.py was run")

    def requirements():
        open({str(marker)!r}, "w").write("executed")
        return ["evil"]

    setup(install_requires=requirements(), extras_require=make_extras(), tests_require=["nose"])
    setup(install_requires=UNDEFINED_NAME)
    '''
    assert parse("setup.py", text) == []
    assert not marker.exists()


def test_setup_py_with_an_invalid_escape_parses_without_a_warning() -> None:
    # The suite turns warnings into errors: a compiler warning would fail the parse.
    text = 'import re\nVERSION = re.compile("\\d+")\nsetup(install_requires=["attrs"])\n'
    assert [d.name for d in parse("setup.py", text)] == ["attrs"]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"setup(install_requires=[\n", "invalid Python"),
        (b"setup()\x00\n", "invalid Python"),  # a NUL byte: ValueError on 3.11, SyntaxError later
        (b"setup(install_requires=['ok', 'requests >>= 2'])\n", "line 1: invalid requirement"),
    ],
)
def test_malformed_setup_py(data: bytes, reason: str) -> None:
    with pytest.raises(ManifestError, match=r"cannot read manifest setup\.py: " + reason):
        declared("setup.py", data)


PIPFILE = """
[[source]]
url = "https://pypi.org/simple"
verify_ssl = true
name = "pypi"

[packages]
requests = "*"
Django = {version = ">=4.2,<5", extras = ["argon2"]}
psycopg = {version = "==3.1.18"}
mylib = {git = "https://github.com/acme/mylib.git", ref = "main"}

[dev-packages]
pytest = "==8.2.0"
black = {version = "*"}

[requires]
python_version = "3.11"
"""


def test_pipfile_packages_and_dev_packages() -> None:
    decls = parse("Pipfile", PIPFILE)
    assert rows(decls) == [
        ("requests", "*", "packages", 7),
        ("Django", ">=4.2,<5", "packages", 8),
        ("psycopg", "==3.1.18", "packages", 9),
        ("mylib", "", "packages", 10),
        ("pytest", "==8.2.0", "dev-packages", 13),
        ("black", "*", "dev-packages", 14),
    ]
    assert by_name(decls)["Django"].key == "django"
    assert parse("Pipfile", "[requires]\npython_version = '3.11'\n") == []


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[packages\n", "invalid TOML"),
        ("packages = 1", r"\[packages\] must be a table"),
        ("[dev-packages]\nrequests = 2", "dev-packages.requests must be a version string or a table"),
        ("[packages]\nrequests = {version = 2}", "packages.requests.version must be a string"),
    ],
)
def test_malformed_pipfile(text: str, reason: str) -> None:
    with pytest.raises(ManifestError, match="cannot read manifest Pipfile: .*" + reason):
        declared("Pipfile", text.encode())


def test_pdm_dev_dependencies() -> None:
    decls = parse(
        "pyproject.toml",
        """
        [project]
        name = "demo"
        dependencies = ["httpx>=0.27"]

        [tool.pdm.dev-dependencies]
        test = ["pytest>=8", "pytest-mock"]
        lint = [
            "ruff>=0.5",
            "-e file:///${PROJECT_ROOT}/plugins/local",
        ]
        """,
    )
    assert rows(decls) == [
        ("httpx", ">=0.27", "project.dependencies", 3),
        ("pytest", ">=8", "tool.pdm.dev-dependencies.test", 6),
        ("pytest-mock", "", "tool.pdm.dev-dependencies.test", 6),
        ("ruff", ">=0.5", "tool.pdm.dev-dependencies.lint", 8),  # the editable path is skipped
    ]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[tool]\npdm = 1", r"\[tool.pdm\] must be a table"),
        ("[tool.pdm]\ndev-dependencies = 1", r"\[tool.pdm.dev-dependencies\] must be a table"),
        ("[tool.pdm.dev-dependencies]\ntest = 'pytest'", "tool.pdm.dev-dependencies.test must be an array"),
        ("[tool.pdm.dev-dependencies]\ntest = ['pytest >>= 2']", "line 2: invalid requirement"),
    ],
)
def test_malformed_pdm(text: str, reason: str) -> None:
    with pytest.raises(ManifestError, match="cannot read manifest pyproject.toml: .*" + reason):
        declared("pyproject.toml", text.encode())


ENVIRONMENT_YML = """
name: analysis
channels:
  - conda-forge
  - defaults
dependencies:
  - python=3.11
  - numpy>=1.26
  - "pandas=2.1"
  - conda-forge::scipy=1.11.4=py311h64a7726_0
  - matplotlib-base 3.8.*
  - libblas 3.9.0 20_linux64_openblas
  - 'jupyterlab'  # quoted
  - pip
  - pip:
      - requests>=2.31  # a comment
      - -r requirements-extra.txt
      - --index-url https://pypi.example/simple
      - "git+https://github.com/acme/tool.git"
      - rich==13.7.1
"""


def test_conda_environment_with_a_pip_section() -> None:
    decls = parse("environment.yml", ENVIRONMENT_YML)
    assert rows(decls) == [
        ("python", "==3.11.*", "dependencies", 6),
        ("numpy", ">=1.26", "dependencies", 7),
        ("pandas", "==2.1.*", "dependencies", 8),  # conda's single = is a prefix match
        ("scipy", "==1.11.4.*", "dependencies", 9),  # the channel and the build string dropped
        ("matplotlib-base", "==3.8.*", "dependencies", 10),
        ("libblas", "==3.9.0", "dependencies", 11),
        ("jupyterlab", "", "dependencies", 12),
        ("pip", "", "dependencies", 13),
        ("requests", ">=2.31", "dependencies.pip", 15),
        ("rich", "==13.7.1", "dependencies.pip", 19),  # options and URLs are skipped as in requirements files
    ]
    assert {d.ecosystem for d in decls} == {"python"}


def test_conda_environment_other_shapes() -> None:
    decls = parse("environment.yaml", "dependencies: [numpy>=1.26, 'pandas 2.1*', scikit-learn==1.4.0]\n")
    assert rows(decls) == [
        ("numpy", ">=1.26", "dependencies", 1),
        ("pandas", "==2.1.*", "dependencies", 1),
        ("scikit-learn", "==1.4.0", "dependencies", 1),
    ]
    assert by_name(decls)["scikit-learn"].key == "scikit-learn"
    assert rows(parse("environment.yml", "dependencies:\n  - numpy[version='>=1.26']\n")) == [
        ("numpy", "", "dependencies", 2)]
    assert rows(parse("environment.yml", 'dependencies:\n  - "numpy # \\x41"\n  - "pandas\\u003e=2"\n')) == [
        ("numpy", "", "dependencies", 2), ("pandas", ">=2", "dependencies", 3)]  # YAML-only and JSON escapes
    assert parse("environment.yml", "") == []
    assert parse("environment.yml", "# only a comment\n") == []
    assert parse("environment.yml", "name: empty\ndependencies:\n") == []
    assert rows(parse("environment.yml", "dependencies:\n  - numpy\n  - pip:\n")) == [("numpy", "", "dependencies", 2)]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("dependencies: [numpy\n", "invalid YAML"),
        ("name: x\ndependencies:\n  - numpy\n  - 'pandas\n", "invalid YAML"),
        ("- numpy\n", "the top level must be a mapping"),
        ("dependencies: numpy\n", "dependencies must be a list"),
        ("dependencies:\n  - conda: [numpy]\n", "line 2: a dependency must be a conda spec or a pip: list"),
        ("dependencies:\n  - pip: requests\n", "line 2: a dependency must be a conda spec or a pip: list"),
        ("dependencies:\n  - pip:\n    - [requests]\n", "line 3: dependencies.pip holds something other"),
        ("dependencies:\n  - '>=1.2'\n", r"line 2: invalid conda spec '>=1.2'"),
        ("dependencies:\n  - pip:\n    - requests >>= 2\n", "line 3: invalid requirement"),
    ],
)
def test_malformed_conda_environment(text: str, reason: str) -> None:
    with pytest.raises(ManifestError, match=r"cannot read manifest environment\.yml: " + reason):
        declared("environment.yml", text.encode())


# The anchors themselves: declared in each of these manifests, a dependency
# anchor records and holds; dropped from it, the anchor is refuted.
MANIFEST_LIFECYCLES = {
    "setup.cfg": ("[metadata]\nname = shop\n\n[options]\ninstall_requires =\n    click>=8.1\n    requests>=2.31\n",
                  "    requests>=2.31\n"),
    "setup.py": ('from setuptools import setup\n\nREQUIRES = [\n    "click>=8.1",\n    "requests>=2.31",\n]\n\n'
                 'setup(name="shop", install_requires=REQUIRES)\n', '    "requests>=2.31",\n'),
    "Pipfile": ('[packages]\nclick = "*"\nrequests = {version = ">=2.31", extras = ["socks"]}\n\n'
                '[dev-packages]\npytest = "*"\n', 'requests = {version = ">=2.31", extras = ["socks"]}\n'),
    "pyproject.toml": ('[tool.poetry]\nname = "shop"\n\n[tool.poetry.dependencies]\npython = "^3.11"\n'
                       'click = "^8.1"\nrequests = "^2.31"\n', 'requests = "^2.31"\n'),
    "environment.yml": ("name: shop\ndependencies:\n  - python=3.11\n  - click>=8.1\n  - pip\n  - pip:\n"
                        "      - requests>=2.31\n", "      - requests>=2.31\n"),
}


@pytest.mark.parametrize("manifest", sorted(MANIFEST_LIFECYCLES))
def test_a_dependency_anchor_holds_while_the_manifest_declares_it(repo, ledger, manifest: str) -> None:
    from memvet import Status

    text, requests_line = MANIFEST_LIFECYCLES[manifest]
    repo.write(manifest, text, dedent=False)
    repo.commit("declare the dependencies")
    plain = ledger.record("HTTP goes through requests", ["dep:requests"])
    pinned = ledger.record("we need requests 2.31+", ["dep:requests>=2.31"])
    assert ledger.verify(plain.id).status is Status.VERIFIED
    assert ledger.verify(pinned.id).status is Status.VERIFIED
    repo.replace(manifest, requests_line, "")
    repo.commit("drop requests")
    verdict = ledger.verify(plain.id)
    assert verdict.status is Status.REFUTED
    assert f"no longer declared at the repository root (was in {manifest}" in verdict.reason
    assert ledger.verify(pinned.id).status is Status.REFUTED


def test_a_setup_py_is_never_run_to_resolve_an_anchor(repo, ledger, tmp_path) -> None:
    import memvet

    marker = tmp_path / "ran"
    repo.write("setup.py", f'from setuptools import setup\nopen({str(marker)!r}, "w").write("x")\n'
                           'raise SystemExit("run")\n'
                           'setup(install_requires=["requests>=2.31", __import__("os").getenv("DEP", "redis")])\n',
               dedent=False)
    repo.commit("a setup.py with a side effect")
    assert ledger.verify(ledger.record("requests", ["dep:requests"]).id).status.name == "VERIFIED"
    with pytest.raises(memvet.AnchorNotFoundError, match="no manifest declares redis"):
        ledger.record("redis", ["dep:redis"])
    assert not marker.exists()


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
