"""Binding classes of issue 30's round 36 (tuning sets: segmentio/ksuid and unjs/automd after their draw,
console-rs/console and asottile/tokenize-rt after their sealed runs, and four sets written blind at the
round's start: buger/jsonparser, rust-num/num-complex, pypa/wheel, unjs/unbuild).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, person_write, unbound

import memvet

# ------------------------------------------------ a list of names that goes on: "A/B/C/..."

GO_MOD = ev("go.mod", """\
module github.com/example/ids

go 1.12
""", "go")
COLORS = ev("color.go::Red", """\
func Red(format string, a ...interface{}) { colorPrint(format, FgRed, a...) }
func Green(format string, a ...interface{}) { colorPrint(format, FgGreen, a...) }
func Cyan(format string, a ...interface{}) { colorPrint(format, FgCyan, a...) }
""", "go")


def test_a_slash_list_that_goes_on_binds_the_names_it_lists():
    assert unbound("color.Red/Green/Cyan/... go through colorPrint.", COLORS) == []
    # a name of the list the code does not have is still not there
    assert unbound("color.Red/Green/Magenta/... go through colorPrint.", COLORS) == ["color.Red/Green/Magenta/..."]


def test_a_package_path_with_the_list_going_on_binds_as_the_path():
    known = frozenset({"database/sql/driver"})
    assert unbound("No deps: everything (database/sql/driver...) is stdlib.", GO_MOD, known=known) == []
    [left] = unbound("No deps: everything (database/sql/driver...) is stdlib.", GO_MOD)
    assert left.startswith("database/sql/driver")


# ------------------------------------------------ a message quoted beside the name of the error that holds it

UNESCAPE = ev("escape.go::Unescape", """\
func Unescape(in, out []byte) ([]byte, error) {
	if firstBackslash == -1 {
		return in, nil
	}
	if !ok {
		return nil, MalformedStringEscapeError
	}
	return out, nil
}
""", "go")
MESSAGE = "Encountered an invalid escape sequence in a string"


def test_a_message_beside_an_error_name_is_looked_up_where_the_name_is_defined():
    known = frozenset({MESSAGE})
    claim = f'Unescape(in, out) -> MalformedStringEscapeError ("{MESSAGE}") on a bad escape.'
    assert unbound(claim, UNESCAPE, known=known) == []
    assert unbound(f'Unescape -> `MalformedStringEscapeError`: "{MESSAGE}".', UNESCAPE, known=known) == []
    # not beside a name written as code ("panics"), or no name at all: the string must be in the anchored code
    assert unbound(f'Unescape panics ("{MESSAGE}") on a bad escape.', UNESCAPE, known=known) == [MESSAGE]
    assert unbound(f'Unescape fails with "{MESSAGE}".', UNESCAPE, known=known) == [MESSAGE]


def test_a_person_write_quoting_an_error_s_message_reads_its_definition(repo, ledger):
    repo.write("errors.go", 'package ids\n\nimport "errors"\n\nvar (\n'
                            '\tErrZeroLength = errors.New("zero length string")\n'
                            '\tErrTooLong    = errors.New("value too long")\n)\n\n'
                            '// ErrNaN would say "not a number"; it was never written.\n')
    repo.write("parse.go", 'package ids\n\nfunc Parse(s string) (string, error) {\n\tif len(s) == 0 {\n'
                           '\t\treturn "", ErrZeroLength\n\t}\n\treturn s, nil\n}\n')
    repo.commit("parse")
    decision, status = person_write(ledger, 'Parse("") returns ErrZeroLength ("zero length string").',
                                    ["parse.go::Parse"])
    assert status is memvet.Status.VERIFIED, decision.findings
    # the message of another error, or one the repository never writes beside that name
    decision, status = person_write(ledger, 'Parse("") returns ErrZeroLength ("value too long").',
                                    ["parse.go::Parse"])
    assert status is memvet.Status.NEEDS_REVALIDATION
    assert any("`value too long`" in finding for finding in decision.findings)
    decision, status = person_write(ledger, 'Parse("") returns ErrZeroLength ("zero length key").',
                                    ["parse.go::Parse"])
    assert status is memvet.Status.NEEDS_REVALIDATION
    # a comment that says the name and the message defines nothing
    decision, status = person_write(ledger, 'Parse("x") returns ErrNaN ("not a number").', ["parse.go::Parse"])
    assert status is memvet.Status.NEEDS_REVALIDATION
    assert any("`not a number`" in finding for finding in decision.findings)


# ------------------------------------------------ an example of a formatted message, quoted as a string

SHORTHAND = ev("errors.go::NotExistError.Error", """\
func (e *NotExistError) Error() string {
	switch e.messageType {
	case flagUnknownShorthandFlagMessage:
		c := rune(e.name[0])
		return fmt.Sprintf("unknown shorthand flag: %q in -%s", c, e.specifiedShorthands)
	}
	panic("unknown message type")
}
""", "go")
SEED = ev("src/pytest_randomly/__init__.py::seed_type", '''\
def seed_type(string: str) -> str | int:
    if string in ("default", "last"):
        return string
    try:
        return int(string)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            f"{repr(string)} is not an integer or the string 'last'"
        ) from exc
''', "python")


def test_a_quoted_example_of_a_formatted_message_binds_whole():
    assert unbound("""Unknown short flag: "unknown shorthand flag: 'x' in -axb".""", SHORTHAND) == []
    assert unbound('Bad seed -> "\'abc\' is not an integer or the string \'last\'".', SEED) == []
    # Go's %q quotes a rune in single quotes and a string in double ones; never no quotes at all
    assert unbound('Unknown short flag: "unknown shorthand flag: \\"x\\" in -axb".', SHORTHAND) == []
    assert unbound('Unknown short flag: "unknown shorthand flag: x in -axb".', SHORTHAND) == [
        "unknown shorthand flag: x in -axb"]
    # the code's own words must be as written
    assert unbound('Bad seed -> "\'abc\' is not a number or the string \'last\'".', SEED) == [
        "'abc' is not a number or the string 'last'"]


# ------------------------------------------------ NaN and Infinity are numbers; digits past a float's range are not

PRIORITY = ev("source/index.ts::PQueue.setPriority", """\
setPriority(id: string, priority: number) {
	if (typeof priority !== 'number' || !Number.isFinite(priority)) {
		throw new TypeError(`Expected \\`priority\\` to be a finite number, got ${typeof priority}`);
	}
	this.#queue.setPriority(id, priority);
}
""", "typescript")


def test_nan_and_infinity_are_numbers_a_call_may_pass():
    from memvet._claims import number_value

    assert number_value("NaN") != number_value("NaN")  # nan, no None
    assert number_value("Infinity") == float("inf") and number_value("-inf") == float("-inf")
    assert number_value("1e999") is None  # digits past a float's range stay no number (round 35)
    assert unbound("`queue.setPriority(id, NaN)` throws a TypeError.", PRIORITY) == []
    assert unbound("`queue.setPriority(id, Infinity)` throws a TypeError.", PRIORITY) == []
    three = "queue.setPriority(id, NaN, true)"
    assert unbound(f"`{three}` throws a TypeError.", PRIORITY) == [three]
