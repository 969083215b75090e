"""Binding classes of issue 30's round 33 (tuning sets: mitchellh/reflectwalk and unjs/changelogen,
mitchellh/copystructure and pytest-dev/pytest-rerunfailures after their sealed runs, and four sets
written blind at the round's start: hashicorp/go-hclog, dtolnay/dyn-clone, hynek/argon2-cffi,
unjs/mkdist), and the manifest reading of a dependency said to ship with the project.

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

# ------------------------------------------------------ an object the code builds, written as its keys

SYNC_RELEASE = ev("src/github.ts::syncGithubRelease", """\
export async function syncGithubRelease(config, release) {
  if (!config.tokens.github) {
    return {
      status: "manual",
      url: githubNewReleaseURL(config, release),
    };
  }
  return { status: "created", id: newRelease.id };
}
""", "typescript")


def test_an_object_written_as_its_keys_and_literal_values_binds():
    assert unbound('No token -> it returns `{ status: "manual", url }` for the browser.', SYNC_RELEASE) == []
    assert unbound('With a token it returns `{ status: "created", id }`.', SYNC_RELEASE) == []


def test_an_object_with_a_value_the_code_does_not_write_there_stays_unbound():
    assert unbound('No token -> it returns `{ status: "draft", url }`.', SYNC_RELEASE) == \
        ['{ status: "draft", url }']
    assert unbound('No token -> it returns `{ status: "manual", link }`.', SYNC_RELEASE) == \
        ['{ status: "manual", link }']


# ------------------------------------------------------ a commit's type and scope, written as a call

DEFAULT_MAIN = ev("src/commands/default.ts::defaultMain", """\
export async function defaultMain(args) {
  const commits = parseCommits(rawCommits, config).filter(
    (c) =>
      config.types[c.type] &&
      !(
        c.type === "chore" &&
        ["deps", "release"].includes(c.scope) &&
        !c.isBreaking
      )
  );
}
""", "typescript")


def test_a_type_and_scope_the_code_tests_as_strings_bind():
    assert unbound("defaultMain filters out `chore(deps)` and `chore(release)` unless breaking.", DEFAULT_MAIN) == []


def test_a_scope_the_code_does_not_test_stays_unbound():
    assert unbound("defaultMain filters out `chore(docs)` unless breaking.", DEFAULT_MAIN) == ["chore(docs)"]


# ------------------------------------------------------ a development dependency said to ship with the project

DYN_CLONE_CARGO = """\
[package]
name = "dyn-clone"
version = "1.0.20"

[dependencies]
log = "0.4"

[dev-dependencies]
rustversion = "1.0"
trybuild = "1.0"
"""


def _dyn_clone(repo) -> None:
    repo.write("Cargo.toml", DYN_CLONE_CARGO, dedent=False)
    repo.write("src/lib.rs", "pub fn f() {}\n", dedent=False)
    repo.commit("crate")


def test_a_dev_dependency_said_to_be_a_dependencies_entry_is_a_finding(repo, ledger) -> None:
    _dyn_clone(repo)
    for claim in ("rustversion is a real [dependencies] entry - lib uses it.",
                  "trybuild is a regular dependency of the crate."):
        dep = "dep:" + claim.split()[0]
        decision = ledger.record(claim, ["Cargo.toml", dep]).decision
        assert len(decision.findings) == 1 and "the manifest declares it in `dev-dependencies`" \
            in decision.findings[0], claim


def test_a_dependency_in_its_section_or_a_dev_dependency_said_so_is_no_finding(repo, ledger) -> None:
    _dyn_clone(repo)
    for claim, dep in (("log is a real [dependencies] entry.", "dep:log"),
                       ("rustversion is a dev-dependency, not a regular dep.", "dep:rustversion")):
        assert ledger.record(claim, ["Cargo.toml", dep]).decision.findings == (), claim


# ------------------------------------------------------ a number restated in another unit

PROFILE = ev("src/argon2/profiles.py::RFC_9106_LOW_MEMORY", """\
RFC_9106_LOW_MEMORY = Parameters(
    type=Type.ID,
    version=19,
    salt_len=16,
    hash_len=32,
    time_cost=3,
    memory_cost=65536,
    parallelism=4,
)
""", "python")


def test_a_number_restated_in_another_unit_binds():
    assert unbound("Defaults: memory_cost 65536 KiB (64 MiB), parallelism 4.", PROFILE) == []
    assert unbound("memory_cost is 65536 (64 KiB).", PROFILE) == []  # a bare number: the base unit, bytes
    assert unbound("time_cost 3 s (~0.05 min).", PROFILE) == []


def test_a_restatement_that_is_another_quantity_stays_unbound():
    assert unbound("Defaults: memory_cost 65536 KiB (48 MiB).", PROFILE) == ["48"]
    assert unbound("memory_cost is 65536 (64 MiB).", PROFILE) == ["64"]
    assert unbound("memory_cost 65536 KiB (64 seconds).", PROFILE) == ["64"]


# ------------------------------------------------------ a count in an aside

STDERR = ev("tests/ui/missing-supertrait.stderr", """\
error[E0277]: the trait bound `dyn MyTrait: DynClone` is not satisfied
 --> tests/ui/missing-supertrait.rs:7:1
""", "text")


def test_a_count_in_an_aside_binds():
    assert unbound("The build fails with error[E0277] (x4, once per Send/Sync variant).", STDERR) == []


def test_the_same_word_outside_an_aside_stays_unbound():
    assert unbound("The build fails with error[E0277] for x4.", STDERR) == ["x4"]


# ------------------------------------------------------ an option's short form, declared as its alias

MKDIST_CLI = ev("src/cli.ts", """\
const main = defineCommand({
  args: {
    clean: { type: "boolean", description: "Clean output directory", default: true },
    declaration: { type: "boolean", description: "Generate type declaration file", alias: ["d"] },
  },
});
""", "typescript")


def test_a_short_option_binds_to_its_declared_alias():
    assert unbound("CLI: `-d` == `--declaration` (off by default); `--clean` on by default.", MKDIST_CLI) == []


def test_a_short_option_no_entry_declares_stays_unbound():
    assert unbound("CLI: `-c` == `--clean`.", MKDIST_CLI) == ["-c"]
