"""Binding classes of issue 30's round 21 (tuning sets: golang/groupcache,
jshttp/vary and four sets written blind at the round's start:
natefinch/lumberjack, fitzgen/bumpalo, python-hyper/h11, unjs/std-env).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, person_write, unbound

import memvet
from memvet._claims import EvidenceText

# ---------------------------------------------------------- an example's own values, and what it gives back

APPEND = ev("index.js::append", """\
    function append (header, field) {
      if (header === '*') {
        return header
      }
      return header ? header + ', ' + field : field
    }
""", "javascript")


def test_a_value_an_example_call_gets_back_must_bind():
    # measured both ways in round 21: "gives back what you passed" is as often the false claim as the true one
    assert unbound("Case-preserving: append('', 'X-Foo') -> 'X-Foo'.", APPEND) == ["X-Foo"]
    assert unbound("append('Accept', '') throws.", APPEND) == []  # one special value ('*') is no list of them


RECEIVE = ev("h11/_receivebuffer.py::ReceiveBuffer.is_next_line_obviously_invalid_request_line", """\
    def is_next_line_obviously_invalid_request_line(self) -> bool:
        try:
            return self._data[0] < 0x21
        except IndexError:
            return False
""", "python")


def test_the_values_of_an_example_in_parentheses_are_the_example_s():
    claim = ("is_next_line_obviously_invalid_request_line() checks `self._data[0] < 0x21`, so it catches garbage "
             "(e.g. a TLS ClientHello, 0x16) on a plain port; an empty buffer -> False.")
    assert unbound(claim, RECEIVE) == []
    # a bare "e.g." states what the code gives: its values must bind, and outside an example too
    assert unbound("It catches garbage, e.g. a TLS ClientHello (0x16) on a plain port.", RECEIVE) == [
        "ClientHello", "0x16"]
    assert unbound("It catches a TLS ClientHello (0x16) hitting a plain port.", RECEIVE) == ["ClientHello", "0x16"]
    # a backticked term in the example still binds
    assert unbound("It catches garbage (e.g. `self._buf[0]`).", RECEIVE) == ["self._buf[0]"]


# --------------------------------------------------- an environment variable, as the code tests it

FLAGS = ev("src/flags.ts::isColorSupported", """\
    export const isColorSupported: boolean = !env.NO_COLOR && (!!env.FORCE_COLOR || (hasTTY && env.TERM !== "dumb"));
    export const isTest: boolean = nodeENV === "test" || !!env.TEST;
    export const isProduction: boolean = env.MODE === "production" || env.MODE === "prod";
""", "typescript")


def test_a_variable_compared_with_the_value_either_way_binds_its_keyword():
    assert unbound("TERM=dumb turns colors off.", FLAGS) == []
    assert unbound("isTest is true for NODE_ENV=test.", FLAGS) == []
    assert unbound("TERM=xterm turns colors off.", FLAGS) == ["TERM=xterm"]


def test_a_variable_tested_for_being_set_binds_its_keyword_set():
    assert unbound("NO_COLOR=1 beats FORCE_COLOR.", FLAGS) == []
    # a variable the code compares with its own values is set to one of them, not to 1
    assert unbound("MODE=1 makes it production.", FLAGS) == ["MODE=1"]


def test_a_logical_operator_made_a_verb_is_prose():
    assert unbound("NO_COLOR is ANDed with everything else.", FLAGS) == []
    assert unbound("NO_COLOR is ANDed with NO_COLORS.", FLAGS) == ["NO_COLORS"]


# ------------------------------------------------------------- a header the code reads, then tests

KEEP_ALIVE = ev("h11/_connection.py::_keep_alive", """\
    def _keep_alive(event) -> bool:
        connection = get_comma_header(event.headers, b"connection")
        if b"close" in connection:
            return False
        return True
""", "python")


def test_a_header_read_into_a_variable_and_tested_for_the_value_is_the_pair():
    assert unbound("_keep_alive() returns False on `Connection: close`.", KEEP_ALIVE) == []
    assert unbound("_keep_alive() returns False on `Connection: upgrade`.", KEEP_ALIVE) == ["Connection: upgrade"]
    assert unbound("_keep_alive() returns False on `Upgrade: close`.", KEEP_ALIVE) == ["Upgrade: close"]
    # a pair the claim says the code writes is no pair it reads
    assert unbound("_keep_alive() sends `Connection: close`.", KEEP_ALIVE) == ["Connection: close"]


# -------------------------------------------------------------- expressions as people shorten them

OPEN = ev("lumberjack.go::Logger.openExistingOrNew", """\
    func (l *Logger) openExistingOrNew(writeLen int) error {
        if info.Size()+int64(writeLen) >= l.max() {
            return l.rotate()
        }
        return nil
    }
""", "go")


def test_a_numeric_conversion_of_one_name_may_be_left_out():
    assert unbound("On open the check is `info.Size()+writeLen >= max`.", OPEN) == []
    assert unbound("On open the check is `info.Size()+writeLen > max`.", OPEN) == ["info.Size()+writeLen > max"]


FILENAME = ev("lumberjack.go::Logger.filename", """\
    func (l *Logger) filename() string {
        if l.Filename != "" {
            return l.Filename
        }
        name := filepath.Base(os.Args[0]) + "-lumberjack.log"
        return filepath.Join(os.TempDir(), name)
    }
""", "go")


def test_a_placeholder_may_hold_an_index():
    assert unbound("Empty Filename gives `<basename of os.Args[0]>-lumberjack.log` in os.TempDir().", FILENAME) == []
    assert unbound("Empty Filename gives `<basename of os.Args[0]>-logger.log` in os.TempDir().", FILENAME) == [
        "<basename of os.Args[0]>-logger.log"]


# ------------------------------------------------------------------ a script of the anchored manifest

PACKAGE = EvidenceText("package.json", '{"name": "ini", "scripts": {"eslint": "eslint \\"**/*.{js,ts}\\"", '
                                       '"test": "tap", "test-ci": "nyc npm test"}}', ("package.json",), "json")


def test_a_script_run_by_its_name_binds_where_the_manifest_defines_it():
    assert unbound("`npm test` runs tap.", PACKAGE) == []
    assert unbound("`npm run test-ci` wraps it in nyc.", PACKAGE) == []
    assert unbound("`npm run coverage` wraps it in nyc.", PACKAGE) == ["npm run coverage"]


def test_a_manifest_json_cannot_read_defines_no_script():
    broken = EvidenceText("package.json", '{"scripts": {"test": "tap"', ("package.json",), "json")
    listed = EvidenceText("package.json", '["tap"]', ("package.json",), "json")
    assert unbound("`npm run test` runs tap.", broken) == ["npm run test"]
    assert unbound("`npm run test` runs tap.", listed) == ["npm run test"]


# ------------------------------------------------------------------------ a Go file's build constraint

CHOWN = """\
// +build !linux

package lumberjack

import "os"

func chown(_ string, _ os.FileInfo) error {
\treturn nil
}
"""
def test_a_go_definition_is_read_with_its_file_s_build_constraint(repo, ledger) -> None:
    repo.write("chown.go", CHOWN, dedent=False)
    repo.commit("chown")
    _, status = person_write(ledger, "chown.go (`+build !linux`) just returns nil.", ["chown.go::chown"])
    assert status is memvet.Status.VERIFIED
    _, status = person_write(ledger, "chown.go (`+build windows`) just returns nil.", ["chown.go::chown"])
    assert status is memvet.Status.NEEDS_REVALIDATION
