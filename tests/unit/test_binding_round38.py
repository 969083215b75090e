"""Binding classes of issue 30's round 38 (tuning sets: gofrs/uuid and PyCQA/pyflakes after their draw,
golang-jwt/jwt and pypa/build after their sealed runs, and four sets written blind at the round's start:
alexflint/go-arg, colored-rs/colored, asottile/pyupgrade, unjs/fontaine).

Each case both ways.
"""

from __future__ import annotations

from _binding import both_ways, ev, person_write, unbound

import memvet
from memvet._claims import TermKind, claim_terms

# ------------------------------------------------ a Go package is its directory's files together


def test_a_go_constant_of_another_file_of_the_package_is_what_the_function_reads(repo, ledger):
    repo.write("uuid.go", "package uuid\n\n// Size of a UUID in bytes.\nconst Size = 16\n\ntype UUID [Size]byte\n")
    repo.write("codec.go", "package uuid\n\nfunc FromBytesOrNil(input []byte) UUID {\n"
                           "\tif len(input) != Size {\n\t\treturn UUID{}\n\t}\n\tu := UUID{}\n"
                           "\tcopy(u[:], input)\n\treturn u\n}\n")
    repo.write("codec_test.go", "package uuid\n\nconst Width = 36\n")
    repo.write("other/other.go", "package other\n\nconst Size = 20\n")
    repo.commit("uuid")
    anchors = ["codec.go::FromBytesOrNil"]
    # a number no constant of the package says
    both_ways(ledger, anchors, "FromBytesOrNil checks for exactly 16 bytes.",
              "FromBytesOrNil checks for exactly 17 bytes.", "`17`")
    # a test file's constant and another package's are not the package's
    for other in (20, 36):
        assert person_write(ledger, f"FromBytesOrNil checks for exactly {other} bytes.", anchors)[1] \
            is memvet.Status.NEEDS_REVALIDATION, other


# ------------------------------------------------ the releases of an example are the example's

def test_the_releases_an_example_names_are_the_example_s_own():
    claim = ('The --version string is "%s Python %s on %s", e.g. "3.4.0 Python 3.12.1 on Linux".')
    assert TermKind.VERSION not in [t.kind for t in claim_terms(claim)]
    # a release the claim states, no example, is still a term
    assert ("3.12.1", TermKind.VERSION) in [(t.text, t.kind) for t in
                                            claim_terms("The floor is Python 3.12.1 on Linux.")]


# ------------------------------------------------ a method's values, where its own class calls it

CONTROL = """\
use std::env;

pub struct ShouldColorize {
    clicolor_force: Option<bool>,
}

impl ShouldColorize {
    pub fn from_env() -> Self {
        Self {
            clicolor_force: Self::resolve_clicolor_force(
                env::var("NO_COLOR"),
                env::var("CLICOLOR_FORCE"),
            ),
        }
    }

    fn resolve_clicolor_force(
        no_color: Result<String, env::VarError>,
        clicolor_force: Result<String, env::VarError>,
    ) -> Option<bool> {
        if clicolor_force.map_or(false, |s| s != "0") {
            Some(true)
        } else if no_color.is_ok() {
            Some(false)
        } else {
            None
        }
    }
}
"""


def test_a_method_s_values_are_read_where_its_class_calls_it_over_several_lines(repo, ledger):
    repo.write("src/control.rs", CONTROL)
    repo.commit("control")
    # a variable no call passes
    both_ways(ledger, ["src/control.rs::ShouldColorize.resolve_clicolor_force"],
              "resolve_clicolor_force checks CLICOLOR_FORCE before NO_COLOR.",
              "resolve_clicolor_force checks CLICOLOR_FORCE before FORCE_COLOR.", "FORCE_COLOR")


# ------------------------------------------------ a variable the code tests for being set, whatever its value

DOCTEST = ev("pyflakes/checker.py::Checker.__init__", """\
    def __init__(self, tree, filename='(none)', builtins=None,
                 withDoctest='PYFLAKES_DOCTEST' in os.environ, file_tokens=()):
        self.withDoctest = withDoctest
""", "python")


def test_a_variable_tested_for_being_set_takes_any_value():
    assert unbound("Only presence matters: even PYFLAKES_DOCTEST=0 turns doctest checking on.", DOCTEST) == []
    # a variable whose value the code reads: the value is the claim's to bind
    read = ev("pyflakes/checker.py::Checker.__init__", """\
    def __init__(self, tree, withDoctest=os.environ.get('PYFLAKES_DOCTEST') == '1'):
        if 'PYFLAKES_DOCTEST' in os.environ:
            self.withDoctest = withDoctest
""", "python")
    assert unbound("Even PYFLAKES_DOCTEST=0 turns doctest checking on.", read) == ["PYFLAKES_DOCTEST=0"]
    # Go: the value dropped (`_, ok :=`) or kept
    dropped = ev("env.go::debug", 'func debug() bool {\n\t_, ok := os.LookupEnv("APP_DEBUG")\n\treturn ok\n}\n', "go")
    assert unbound("APP_DEBUG=0 turns debugging on too.", dropped) == []
    kept = ev("env.go::debug", 'func debug() bool {\n\tv, ok := os.LookupEnv("APP_DEBUG")\n'
                               '\treturn ok && v != "false"\n}\n', "go")
    assert unbound("APP_DEBUG=0 turns debugging on too.", kept) == ["APP_DEBUG=0"]


# ------------------------------------------------ a test's call passes the test's example, not a value of use

GLOB = """\
pub struct Pattern;

impl Pattern {
    pub fn new(pattern: &str) -> Pattern {
        Pattern
    }

    pub fn default_pattern() -> Pattern {
        Pattern::new("*.rs")
    }
}

#[cfg(test)]
mod test {
    use super::Pattern;

    #[test]
    fn test_wildcards() {
        let _ = Pattern::new("a**b");
    }
}
"""


def test_a_call_in_a_test_module_is_no_call_site(repo, ledger):
    repo.write("src/lib.rs", GLOB)
    repo.commit("glob")
    both_ways(ledger, ["src/lib.rs::Pattern.new"], "Pattern::new is what gives the `*.rs` default.",
              "Pattern::new takes `a**b` as ordinary stars.", "`a**b`")


def test_a_python_test_function_s_call_is_no_call_site(repo, ledger):
    repo.write("units.py", "def parse(text):\n    return float(text)\n\n\nDEFAULT = parse('1.5')\n\n\n"
                           "def test_parse():\n    assert parse('2.25') == 2.25\n\n\n"
                           "class TestParse:\n    def test_more(self):\n        assert parse('3.75') == 3.75\n")
    repo.commit("units")
    decision, status = person_write(ledger, "parse() reads '1.5' for the default.", ["units.py::parse"])
    assert status is memvet.Status.VERIFIED, decision.findings
    for example in ("2.25", "3.75"):
        decision, status = person_write(ledger, f"parse() reads '{example}' for the default.", ["units.py::parse"])
        assert status is memvet.Status.NEEDS_REVALIDATION, example


# ------------------------------------------------ the package's constants are a span of their own

def test_the_package_s_constants_do_not_reorder_the_function_s_steps(repo, ledger):
    repo.write("errors.go", 'package copier\n\nimport "errors"\n\nvar (\n'
                            '\tErrInvalidCopyDestination = errors.New("copy destination must be addressable")\n'
                            '\tErrInvalidCopyFrom = errors.New("copy from must be valid")\n)\n')
    repo.write("copier.go", "package copier\n\nimport \"reflect\"\n\nfunc copier(to, from reflect.Value) error {\n"
                            "\tif !to.CanAddr() {\n\t\treturn ErrInvalidCopyDestination\n\t}\n"
                            "\tif !from.IsValid() {\n\t\treturn ErrInvalidCopyFrom\n\t}\n\treturn nil\n}\n")
    repo.commit("copier")
    both_ways(ledger, ["copier.go::copier"],
              "copier() checks the destination (ErrInvalidCopyDestination) first, then the source "
              "(ErrInvalidCopyFrom).",
              "copier() checks ErrInvalidCopyFrom first and only then ErrInvalidCopyDestination.", "before")


# ------------------------------------------------ a span added beside a symbol is the symbol's, not a file

def test_a_claim_of_words_alone_is_still_read_beside_the_added_spans(repo, ledger):
    repo.write("btree.go", "package btree\n\nconst DefaultFreeListSize = 32\n")
    repo.write("btree_generic.go", "package btree\n\nfunc NewG(degree int) *BTree {\n"
                                   "\treturn NewWithFreeList(degree, NewFreeList(DefaultFreeListSize))\n}\n\n"
                                   "func Default() *BTree {\n\treturn NewG(32)\n}\n")
    repo.commit("btree")
    anchors = ["btree_generic.go::NewG"]
    decision, status = person_write(ledger, "Heads-up: every tree built with NewG draws from the same "
                                            "package-global freelist, so unrelated packages compete.", anchors)
    assert status is memvet.Status.NEEDS_REVALIDATION
    assert any(finding.startswith("nothing in") for finding in decision.findings), decision.findings
    # the label of an added span lends the claim no words: "calls", "constants", "package" are not the code's
    decision, status = person_write(ledger, "NewG makes a new free list of the default size for each tree.", anchors)
    assert status is memvet.Status.VERIFIED, decision.findings
