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

# round 34 (anymap f11, t15): a function said to be unsafe, or safe, to call
INTO_RAW = EvidenceText("src/lib.rs::Map.into_raw", """\
pub fn into_raw(self) -> RawMap<A> {
    self.raw
}
""")
AS_RAW_MUT = EvidenceText("src/lib.rs::Map.as_raw_mut", """\
pub unsafe fn as_raw_mut(&mut self) -> &mut RawMap<A> {
    &mut self.raw
}
""")
SLICE_TO_STR = EvidenceText("src/lib.rs::slice_buffer_to_str", """\
fn slice_buffer_to_str(buf: &[MaybeUninit<u8>], offset: usize) -> &str {
    let written = unsafe { buf.get_unchecked(offset..) };
    unsafe { str::from_utf8_unchecked(written) }
}
""")


FIRES = [
    ("`Handle::from_file(&file)` only borrows the File, so you can keep using `file` afterwards.", FROM_FILE),
    ("EncoderWriter::finish takes the writer by value, so it can't be called twice.", FINISH),
    ("left_and takes a reference to other.", LEFT_AND),
    ("peek consumes the input.", PEEK),
    ("peek takes ownership of the parser.", PEEK),
    # round 34: the signature says the other
    ("into_raw() is unsafe (same as as_raw_mut), so draining the map needs an unsafe block.", INTO_RAW),
    ("`as_raw_mut()` (exclusive ref) is safe.", AS_RAW_MUT),
    ("as_raw_mut is not unsafe.", AS_RAW_MUT),
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
    # round 34: the signature's own word; an unsafe block inside a safe function; unsafe to do something
    ("as_raw_mut() is `unsafe` -- you could insert a value under the wrong TypeId.", AS_RAW_MUT),
    ("into_raw() is safe: it just hands back the raw map.", INTO_RAW),
    ("slice_buffer_to_str is safe to call; its unsafe blocks rely on ASCII digits.", SLICE_TO_STR),
    ("into_raw isn't unsafe.", INTO_RAW),
    ("into_raw is unsafe to use after a panic.", INTO_RAW),
]

fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_signature():
    [line] = fired("from_file only borrows the file.", FROM_FILE)
    assert line == ("the claim says `only borrows the file` (a reference), but src/lib.rs::Handle.from_file says "
                    "`pub fn from_file(file: File) -> io::Result<Handle> {`")
