"""The ownership rule's fixture: a Rust function said to borrow an argument or take it by value, where its
signature takes it the other way."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.ownership import RULE

FROM_FILE = EvidenceText("src/lib.rs::Handle.from_file", """\
    pub fn from_file(file: File) -> io::Result<Handle> {
        imp::Handle::from_file(file).map(Handle)
    }
""", language="rust")
FINISH = EvidenceText("src/write/encoder.rs::EncoderWriter.finish", """\
    pub fn finish(&mut self) -> Result<W> {
        self.write_all_encoded_output()?;
        Ok(self.delegate.take().expect("Encoder has already had finish() called"))
    }
""", language="rust")
LEFT_AND = EvidenceText("src/lib.rs::Either.left_and", """\
    pub fn left_and<S>(self, other: Either<S, R>) -> Either<S, R> {
        match self {
            Left(_) => other,
            Right(r) => Right(r),
        }
    }
""", language="rust")
PEEK = EvidenceText("src/lib.rs::Parser.peek", """\
    pub fn peek(&self, input: &str) -> Option<char> {
        input.chars().next()
    }
""", language="rust")
PY = EvidenceText("app.py::open_file", """\
def open_file(file):
    return file
""")

FIRES = [
    ("`Handle::from_file(&file)` only borrows the File, so you can keep using `file` afterwards.", FROM_FILE),
    ("EncoderWriter::finish takes the writer by value, so it can't be called twice.", FINISH),
    ("left_and takes a reference to other.", LEFT_AND),
    ("peek consumes the input.", PEEK),
    ("peek takes ownership of the parser.", PEEK),
]

SILENT = [
    ("from_file takes ownership of the File.", FROM_FILE),
    ("from_file consumes the file.", FROM_FILE),
    ("left_and takes other by value; use left_and_then for a lazy one.", LEFT_AND),
    ("peek only borrows the input.", PEEK),
    # a negated verb, a word naming no parameter, and code that is not Rust
    ("from_file doesn't borrow the file.", FROM_FILE),
    ("peek consumes 3 bytes.", PEEK),
    ("open_file only borrows the file.", PY),
]

fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_signature():
    [line] = fired("from_file only borrows the file.", FROM_FILE)
    assert line == ("the claim says `only borrows the file` (a reference), but src/lib.rs::Handle.from_file says "
                    "`pub fn from_file(file: File) -> io::Result<Handle> {`")
