"""The types rule's fixture: a field or a constant said to have a primitive type, where its one declaration
gives another."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.types import RULE

METRICS = EvidenceText("capture_metrics.go::Metrics", """\
type Metrics struct {
	// Code is the first http response code passed to the WriteHeader func
	Code int
	Duration time.Duration
	Written int64
}
""", language="go")
FILE_TIME = EvidenceText("src/lib.rs::FileTime", """\
pub struct FileTime {
    seconds: i64,
    nanos: u32,
}
""", language="rust")
PRIME = EvidenceText("xxhash.go::prime1", """\
const prime1 uint64 = 11400714785074694791
""", language="go")
STR_ERR = EvidenceText("error.go::strErr", """\
type strErr string
""", language="go")
OPTIONS = EvidenceText("src/types.ts::Options", """\
export interface Options {
  digits?: number
  header: string
}
""", language="typescript")

FIRES = [
    ("Written is an `int` (bytes), same type Write returns.", METRICS),
    ("FileTime's `nanos` field is a u64 (seconds is i64).", FILE_TIME),
    ("prime1 is a uint32 const.", PRIME),
    ("strErr is a byte type.", STR_ERR),
    ("Options.digits is a string.", OPTIONS),
]

SILENT = [
    ("Written is an int64.", METRICS),
    ("nanos is a u32 and seconds is i64.", FILE_TIME),
    ("prime1 is the uint64 const 11400714785074694791.", PRIME),
    ("strErr is a string type implementing error.", STR_ERR),
    ("digits is a number.", OPTIONS),
    # a named type may be anything; a type that is no declared one; no type stated; a name not declared here
    ("Duration is an int64.", METRICS),
    ("Code is an int subclass.", METRICS),
    ("Written is not a u64.", METRICS),
    ("Read is an int.", METRICS),
]

fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_declaration():
    [line] = fired("Written is an int.", METRICS)
    assert line == "the claim says `Written` is `int`, but capture_metrics.go::Metrics says `Written int64`"
