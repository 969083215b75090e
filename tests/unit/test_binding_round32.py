"""Binding classes of issue 30's round 32 (tuning sets: dtolnay/itoa and unjs/giget, tidwall/sjson and
unjs/c12 after their sealed runs, and four sets written blind at the round's start: golang/snappy,
Lokathor/tinyvec, agronholm/exceptiongroup, unjs/confbox), and the manifest readings of a dependency's
declaration and of a file said to use it.

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, person_write, unbound

import memvet

# ------------------------------------------------------ a Rust crate named with underscores

CARGO = ev("Cargo.toml", """\
[package]
name = "itoa"

[dependencies]
no-panic = { version = "0.1", optional = true }

[dependencies.serde-json]
version = "1"
""", "toml")


def test_a_crate_s_dashes_written_as_underscores_bind():
    assert unbound("The no-panic feature puts #[no_panic] on format, so a panic fails the build.", CARGO) == []
    assert unbound("The `serde_json` dep is for the tests.", CARGO) == []


def test_an_underscored_name_no_dependency_has_stays_unbound():
    assert unbound("The no-panic feature puts #[no_alloc] on format.", CARGO) == ["no_alloc"]


# ------------------------------------------------------ the way people shorten package.json's keys

PACKAGE_JSON = ev("package.json", """\
{
  "name": "giget",
  "devDependencies": { "citty": "^0.1.6", "tar": "^7.4.3" }
}
""", "json")


def test_dev_deps_binds_to_dev_dependencies():
    assert unbound("No runtime deps: citty and tar are devDeps and get bundled.", PACKAGE_JSON) == []


def test_a_short_key_the_manifest_lacks_stays_unbound():
    assert unbound("citty and tar are peerDeps.", PACKAGE_JSON) == ["peerDeps"]


# ------------------------------------------------------ an option declared by its key in an arguments table

CLI = ev("src/cli.ts", """\
const mainCommand = defineCommand({
  args: {
    cwd: { type: "string", description: "Set current working directory" },
    forceClean: { type: "boolean", description: "Remove any existing directory" },
  },
  run: async ({ args }) => { await downloadTemplate(args.template, { forceClean: args.forceClean }); },
});
""", "typescript")


def test_an_option_binds_to_its_key_in_an_arguments_table():
    assert unbound("cli.ts declares a `--cwd` arg but never forwards it; `--force-clean` is forwarded.", CLI) == []


def test_an_option_no_table_declares_stays_unbound():
    assert unbound("cli.ts declares a `--verbose` arg.", CLI) == ["--verbose"]


# ------------------------------------------------------ a path under the home directory, joined by the code

CACHE_DIRECTORY = ev("src/_utils.ts::cacheDirectory", """\
export function cacheDirectory() {
  const cacheDir = process.env.XDG_CACHE_HOME
    ? resolve(process.env.XDG_CACHE_HOME, "giget")
    : resolve(homedir(), ".cache/giget");
  return cacheDir;
}
""", "typescript")
USER_CACHE = ev("platformdirs/unix.py::Unix.user_cache_dir", """\
def user_cache_dir(self) -> str:
    path = os.environ.get("XDG_CACHE_HOME", "")
    if not path.strip():
        path = os.path.join(Path.home(), ".cache", "pkg")
    return path
""", "python")


def test_a_home_path_binds_where_the_code_joins_the_home_directory_with_it():
    assert unbound("cache dir: $XDG_CACHE_HOME/giget if set, else ~/.cache/giget.", CACHE_DIRECTORY) == []
    assert unbound("user_cache_dir falls back to ~/.cache/pkg.", USER_CACHE) == []


def test_a_home_path_the_code_does_not_join_stays_unbound():
    assert unbound("cache dir: else ~/.local/giget.", CACHE_DIRECTORY) == ["~/.local/giget"]
    assert unbound("user_cache_dir falls back to ~/.cache/other.", USER_CACHE) == ["~/.cache/other"]


# ------------------------------------------------------ a Python version with its micro release

INIT = ev("src/exceptiongroup/__init__.py", """\
if sys.version_info < (3, 12, 1):
    from ._suppress import suppress
else:
    from contextlib import suppress
""", "python")


def test_a_three_part_version_binds_to_the_tuple_the_code_tests():
    assert unbound("suppress is the local backport for Python < 3.12.1; from there on it's contextlib's.", INIT) == []


def test_another_micro_release_stays_unbound():
    assert unbound("suppress is the local backport for Python < 3.12.2.", INIT) == ["3.12.2"]


# ------------------------------------------------------ a dependency's declaration: optional, default features

TINYVEC_CARGO = """\
[package]
name = "tinyvec"
version = "1.10.0"

[dependencies]
serde = { version = "1.0", optional = true, default-features = false }
arbitrary = { version = "1", optional = true }
tinyvec_macros = "0.1"

[dependencies.spin]
version = "0.9.8"
default-features = false
optional = true
"""


def _tinyvec(repo) -> None:
    repo.write("Cargo.toml", TINYVEC_CARGO, dedent=False)
    repo.write("src/lib.rs", "pub fn f() {}\n", dedent=False)
    repo.commit("crate")


def test_a_dependency_said_always_built_that_is_optional_is_a_finding(repo, ledger) -> None:
    _tinyvec(repo)
    decision = ledger.record("serde is always compiled in.", ["Cargo.toml", "dep:serde"]).decision
    assert decision.findings == ("the claim says `always compiled`; the manifest declares `serde` with "
                                 "`optional = true`, but dep:serde says `serde = { version = \"1.0\", optional = true, "
                                 "default-features = false }`",)
    spin = ledger.record("spin is a hard (non-optional) dependency.", ["Cargo.toml", "dep:spin"]).decision
    assert len(spin.findings) == 1 and "optional = true" in spin.findings[0]  # its own table, read from the file
    kept = ledger.record("serde dep keeps default features, so it drags std in.", ["Cargo.toml", "dep:serde"])
    assert "`default-features = false`" in kept.decision.findings[0]


def test_a_dependency_s_own_declaration_is_no_finding(repo, ledger) -> None:
    _tinyvec(repo)
    for claim, anchors in (("tinyvec_macros is a hard dependency, always compiled in.",
                            ["Cargo.toml", "dep:tinyvec_macros"]),
                           ("serde is optional, with default-features = false; the only regular dependency.",
                            ["Cargo.toml", "dep:serde"]),
                           ("serde isn't always compiled in.", ["Cargo.toml", "dep:serde"]),
                           ("arbitrary keeps default features.", ["Cargo.toml", "dep:arbitrary"])):
        decision, status = person_write(ledger, claim, anchors)
        assert decision.findings == () and status is memvet.Status.VERIFIED, claim


# ------------------------------------------------------ a file said to use a dependency it does not import

SJSON_GO_MOD = "module github.com/tidwall/sjson\n\ngo 1.14\n\nrequire (\n\tgithub.com/tidwall/gjson v1.14.2\n" \
               "\tgithub.com/tidwall/pretty v1.2.0\n)\n"
SJSON_GO = 'package sjson\n\nimport (\n\t"strconv"\n\n\tjsongjson "github.com/tidwall/gjson"\n)\n\n' \
           "func Set() { _ = strconv.Itoa(1); _ = jsongjson.Get }\n"


def _sjson(repo) -> None:
    repo.write("go.mod", SJSON_GO_MOD, dedent=False)
    repo.write("sjson.go", SJSON_GO, dedent=False)
    repo.commit("module")


def test_a_file_said_to_use_a_dependency_it_does_not_import_is_a_finding(repo, ledger) -> None:
    _sjson(repo)
    decision = ledger.record("sjson depends on tidwall/pretty at runtime -- sjson.go uses it to keep the formatting.",
                             ["sjson.go", "dep:github.com/tidwall/pretty"]).decision
    assert decision.findings == ("the claim says `sjson.go uses it`; sjson.go imports `strconv`, "
                                 "`github.com/tidwall/gjson`, not `github.com/tidwall/pretty`, but sjson.go says "
                                 "`jsongjson \"github.com/tidwall/gjson\"`",)


def test_a_file_that_imports_the_dependency_is_no_finding(repo, ledger) -> None:
    _sjson(repo)
    for claim, dep in (("sjson.go uses it to find the paths.", "dep:github.com/tidwall/gjson"),
                       ("sjson.go never uses it; only the tests do.", "dep:github.com/tidwall/pretty")):
        assert ledger.record(claim, ["sjson.go", dep]).decision.findings == (), claim


# ------------------------------------------------------ the claim's example of a template it writes

LOAD_CONFIG = ev("src/loader.ts::loadConfig", """\
export async function loadConfig(options) {
  options.name = options.name || "config";
  options.configFile = options.configFile ?? (options.name === "config" ? "config" : `${options.name}.config`);
  options.rcFile = options.rcFile ?? `.${options.name}rc`;
}
""", "typescript")


def test_an_example_of_a_bound_template_binds_and_so_does_its_filling():
    assert unbound("configFile default: `${name}.config` (so name 'nuxt' -> nuxt.config).", LOAD_CONFIG) == []
    assert unbound("rcFile defaults to `.${name}rc` (e.g. `.nuxtrc`).", LOAD_CONFIG) == []


def test_an_example_that_fits_no_bound_template_stays_unbound():
    assert unbound("rcFile defaults to `.${name}rc` (e.g. `.nuxt.json`).", LOAD_CONFIG) == [".nuxt.json"]
    assert unbound("rcFile defaults to `${name}.rc` (e.g. `nuxt.rc`).", LOAD_CONFIG) == ["${name}.rc", "nuxt.rc"]


# ------------------------------------------------------ the text of a Go error value

ERR_CORRUPT = ev("decode.go::ErrCorrupt", """\
var (
	// ErrCorrupt reports that the input is invalid.
	ErrCorrupt = errors.New("snappy: corrupt input")
	errUnsupportedLiteralLength = errors.New("snappy: unsupported literal length")
)
""", "go")


def test_the_error_method_of_a_go_error_value_binds():
    assert unbound('ErrCorrupt.Error() == "snappy: corrupt input"; the catch-all for bad data.', ERR_CORRUPT) == []


def test_the_error_method_of_a_name_that_is_no_error_value_stays_unbound():
    assert unbound('ErrTooLarge.Error() == "snappy: decoded block is too large".', ERR_CORRUPT) == [
        "ErrTooLarge.Error()", "snappy: decoded block is too large"]
