"""Binding classes of issue 30's round 31 (tuning sets: mrhooray/crc-rs and sybrenstuvel/python-rsa,
Lokathor/bytemuck and rspeer/python-ftfy after their sealed runs, and four sets written blind at the
round's start: tidwall/pretty, contain-rs/linked-hash-map, hynek/stamina, unjs/nypm), and the
go.mod reading of a module the claim says the code requires.

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, person_write, unbound

import memvet
from memvet._claims import number_value, numbers_in

# ------------------------------------------------------ a Rust number with its type suffix

FINALIZE = ev("src/crc64.rs::finalize", """\
const fn finalize(algorithm: &Algorithm<u64>, mut crc: u64) -> u64 {
    if !algorithm.refout {
        crc >>= 64u8 - algorithm.width;
    }
    crc ^ algorithm.xorout
}
""", "rust")


def test_a_number_with_a_rust_type_suffix_is_its_value():
    assert numbers_in("crc >>= 64u8 - w; let m = 0xFF_u8; let h = 1.5f32;") >= {64.0, 255.0, 1.5}
    assert number_value("64u8") == 64.0
    assert number_value("0x1f32") == 0x1F32  # a hex literal's digits, not a suffix
    assert unbound("finalize shifts right by 64 - width when !refout.", FINALIZE) == []


def test_another_number_than_the_suffixed_one_stays_unbound():
    assert unbound("finalize shifts right by 32 - width when !refout.", FINALIZE) == ["32"]


# ------------------------------------------------------ a string of spaces, counted in prose

DEFAULT_OPTIONS = ev("pretty.go::DefaultOptions", """\
var DefaultOptions = &Options{Width: 80, Prefix: "", Indent: "  ", SortKeys: false}
""", "go")


def test_a_count_of_spaces_binds_to_a_string_of_that_many():
    assert unbound('DefaultOptions = {Width: 80, Indent: "  " (2 spaces)}.', DEFAULT_OPTIONS) == []


def test_another_count_of_spaces_stays_unbound():
    assert unbound('DefaultOptions = {Width: 80, Indent: "  " (4 spaces)}.', DEFAULT_OPTIONS) == ["4"]


# ------------------------------------------------------ a parameter of a terminal colour sequence

TERMINAL_STYLE = ev("pretty.go::init", """\
func init() {
    TerminalStyle = &Style{
        Key:    [2]string{"\\x1B[1m\\x1B[94m", "\\x1B[0m"},
        String: [2]string{"\\x1B[32m", "\\x1B[0m"},
        Number: [2]string{"\\x1B[33m", "\\x1B[0m"},
    }
}
""", "go")


def test_a_colour_code_binds_to_the_sequence_that_writes_it():
    assert unbound("TerminalStyle: strings green 32, numbers yellow 33, keys bright blue 94.", TERMINAL_STYLE) == []


def test_a_colour_code_no_sequence_writes_stays_unbound():
    assert unbound("TerminalStyle: strings green 32, numbers cyan 36.", TERMINAL_STYLE) == ["36"]


# ------------------------------------------------------ a keyword set to None, a case the code tests

MAKE_STOP = ev("src/stamina/_core.py::_make_stop", """\
def _make_stop(*, attempts: int | None, timeout: float | None) -> _t.stop_base:
    stops = []
    if attempts is not None:
        stops.append(_t.stop_after_attempt(attempts))
    if timeout is not None:
        stops.append(_t.stop_after_delay(timeout))
    if not stops:
        return _t.stop_never
    return _t.stop_any(*stops)
""", "python")


def test_a_keyword_set_to_none_binds_where_the_code_tests_for_none():
    assert unbound("attempts=None + timeout=None -> _make_stop returns `_t.stop_never`.", MAKE_STOP) == []


def test_a_keyword_set_to_none_the_code_never_tests_stays_unbound():
    assert unbound("retries=None -> _make_stop returns `_t.stop_never`.", MAKE_STOP) == ["retries=None"]


# ------------------------------------------------------ the code's own fallback is no caller's setting

RESOLVE = ev("src/_utils.ts::resolveOperationOptions", """\
export function resolveOperationOptions(options: OperationOptions = {}) {
  return {
    cwd: options.cwd || process.cwd(),
    silent: options.silent ?? false,
    corepack: options.corepack ?? true,
  };
}
""", "typescript")


def test_the_code_s_fallback_binds_as_written():
    assert unbound("resolveOperationOptions sets `corepack: options.corepack ?? true`.", RESOLVE) == []


def test_another_fallback_is_no_example_of_a_use():
    claim = "corepack is opt-in: resolveOperationOptions sets `corepack: options.corepack ?? false`."
    assert unbound(claim, RESOLVE) == ["corepack: options.corepack ?? false"]


# ------------------------------------------------------ a Go standard package a file of the repository imports

GO_MOD = "module github.com/tidwall/pretty\n\ngo 1.16\n"
PRETTY_GO = 'package pretty\n\nimport (\n\t"bytes"\n\t"encoding/json"\n\t"sort"\n)\n\nfunc Pretty() {}\n'


def _pretty_module(repo) -> None:
    repo.write("go.mod", GO_MOD, dedent=False)
    repo.write("pretty.go", PRETTY_GO, dedent=False)
    repo.commit("module")


def test_a_standard_package_a_go_file_imports_binds(repo, ledger) -> None:
    _pretty_module(repo)
    _, status = person_write(ledger, "go.mod: `go 1.16`, no require block -- stdlib only (bytes, encoding/json).",
                             ["go.mod"])
    assert status is memvet.Status.VERIFIED


def test_a_standard_package_no_go_file_imports_stays_unbound(repo, ledger) -> None:
    _pretty_module(repo)
    decision, status = person_write(ledger, "go.mod: `go 1.16`, no require block -- stdlib only (bytes, encoding/xml).",
                                    ["go.mod"])
    assert status is not memvet.Status.VERIFIED
    assert any("encoding/xml" in f for f in decision.findings)


# ------------------------------------------------------ a module the claim says go.mod requires

GO_MOD_REQUIRES = "module example.com/g\n\ngo 1.21\n\nrequire github.com/mattn/go-colorable v0.1.13\n"


def test_a_module_go_mod_does_not_list_is_a_finding(repo, ledger) -> None:
    _pretty_module(repo)
    decision = ledger.record("pretty depends on tidwall/gjson (listed in go.mod) for walking the JSON.",
                             ["go.mod"]).decision
    assert decision.findings == ("the claim says the module requires `tidwall/gjson`, which go.mod does not list "
                                 "(0 requirements), but go.mod says `module github.com/tidwall/pretty`",)


def test_a_module_go_mod_lists_or_a_claim_denies_is_no_finding(repo, ledger) -> None:
    repo.write("go.mod", GO_MOD_REQUIRES, dedent=False)
    repo.write("g.go", "package g\n", dedent=False)
    repo.commit("module")
    for claim in ("The module depends on github.com/mattn/go-colorable for coloured output.",
                  "The module depends on mattn/go-colorable for coloured output.",
                  "The module doesn't pull in github.com/pkg/errors."):
        assert ledger.record(claim, ["go.mod"]).decision.findings == (), claim
