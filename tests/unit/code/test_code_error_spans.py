"""Error-tolerant symbol tables (issue 31): a syntax error costs only the
span it sits in.

A symbol whose own span parses is hashed as in a file without the error; one
whose span holds the error is hashed on its raw tokens, stable while its own
text is; a symbol missing from a file with an error is called hidden only
when its name is written where the error is. Rust 2015's ``try!(...)``,
which tree-sitter-rust cannot read (``try`` is a keyword since 2018), parses.
"""

from __future__ import annotations

import pytest

from memvet import Status
from memvet._code import parse_file, symbol_table
from memvet._code._languages import parse
from memvet._code._symbols import may_hide, parse_input

# Rust 2015, written the way crates of that time were: every fallible call
# through `try!`.
PACKER_RS = """\
use std::io::{self, Read, Write};

pub struct Packer<W> {
    out: W,
    written: u64,
}

impl<W: Write> Packer<W> {
    pub fn new(out: W) -> Packer<W> {
        Packer { out: out, written: 0 }
    }

    pub fn pack(&mut self, data: &[u8]) -> io::Result<()> {
        let len = data.len() as u32;
        try!(self.out.write_all(&[(len >> 8) as u8, len as u8]));
        try!(self.out.write_all(data));
        self.written += data.len() as u64 + 2;
        Ok(())
    }

    pub fn finish(mut self) -> io::Result<W> {
        try!(self.out.flush());
        Ok(self.out)
    }
}

pub fn unpack<R: Read>(src: &mut R) -> io::Result<Vec<u8>> {
    let mut len = [0u8; 2];
    try!(src.read_exact(&mut len));
    let mut buf = vec![0; ((len[0] as usize) << 8) | len[1] as usize];
    try ! (src.read_exact(&mut buf));
    Ok(buf)
}
"""

# One broken function between two good ones, in Python and JavaScript.
BROKEN_PY = """\
def total(items):
    return sum(item.price for item in items)


def discount(total, rate):
    return total * (1 - rate) +* 0


def tax(total):
    return round(total * 0.2, 2)
"""
FIXED_PY = BROKEN_PY.replace("+* 0", "+ 0")

BROKEN_JS = """\
function total(items) {
  return items.reduce((a, i) => a + i.price, 0);
}

function discount(total, rate) {
  return total * (1 - rate) +* 0;
}

function tax(total) {
  return Math.round(total * 20) / 100;
}
"""
FIXED_JS = BROKEN_JS.replace("+* 0", "+ 0")


def _hash(src: str, language: str, name: str) -> str:
    return symbol_table(src.encode(), language).symbols[name].hash


# ------------------------------------------------------------------ Rust 2015 try!


def test_try_is_a_grammar_gap_the_parser_input_closes():
    data = PACKER_RS.encode()
    assert parse(data, "rust").root_node.has_error  # the grammar alone cannot read it
    patched = parse_input(data, "rust")
    assert len(patched) == len(data) and not parse(patched, "rust").root_node.has_error
    table = symbol_table(data, "rust")
    assert not table.has_errors
    assert list(table.symbols) == ["Packer", "Packer.new", "Packer.pack", "Packer.finish", "unpack"]
    assert not any(sym.has_error for sym in table.symbols.values())


def test_try_hashes_as_written():
    pack = _hash(PACKER_RS, "rust", "Packer.pack")
    # Layout inside and around the macro call is layout.
    assert _hash(PACKER_RS.replace("try!(self.out.write_all(data))", "try!( self.out.write_all(data) )"),
                 "rust", "Packer.pack") == pack
    # A change inside the call is a change, and so is the 2018 spelling.
    assert _hash(PACKER_RS.replace("write_all(data)", "write(data)"), "rust", "Packer.pack") != pack
    assert _hash(PACKER_RS.replace("try!(self.out.write_all(data));", "self.out.write_all(data)?;"),
                 "rust", "Packer.pack") != pack
    # The tokens are the file's own bytes, not the parser's input.
    src = 'fn f() -> &\'static str {\n    "try!(x)"\n}\n'
    assert _hash(src, "rust", "f") != _hash(src.replace("try!", "tr_!"), "rust", "f")


def test_other_languages_and_raw_identifiers_are_parsed_as_written():
    assert parse_input(b"x = try!(y)", "python") == b"x = try!(y)"
    assert parse_input(b"r#try!(y); let t = try_it!(z);", "rust") == b"r#try!(y); let t = try_it!(z);"
    assert parse_input(b"fn f() {}", "rust") == b"fn f() {}"


# ------------------------------------------------------------------ one broken span


@pytest.mark.parametrize(("broken", "fixed", "language"), [
    (BROKEN_PY, FIXED_PY, "python"),
    (BROKEN_JS, FIXED_JS, "javascript"),
])
def test_a_syntax_error_costs_only_its_own_span(broken, fixed, language):
    table = symbol_table(broken.encode(), language)
    assert table.has_errors
    assert [q for q, s in table.symbols.items() if s.has_error] == ["discount"]
    clean = symbol_table(fixed.encode(), language)
    for name in ("total", "tax"):  # hashed exactly as in the file without the error
        assert table.symbols[name].hash == clean.symbols[name].hash
    assert table.symbols["discount"].hash != clean.symbols["discount"].hash


@pytest.mark.parametrize(("broken", "language"), [(BROKEN_PY, "python"), (BROKEN_JS, "javascript")])
def test_a_broken_span_is_hashed_on_its_raw_tokens_stably(broken, language):
    was = symbol_table(broken.encode(), language).symbols["discount"]
    # Edits elsewhere in the file, and layout or comments inside the span,
    # leave it alone.
    elsewhere = broken.replace("0.2, 2", "0.25, 2").replace("* 20)", "* 25)")
    assert _hash(elsewhere, language, "discount") == was.hash
    comment = "# still broken" if language == "python" else "/* still broken */"
    inside = broken.replace("+* 0", f"+*   0  {comment}")
    assert _hash(inside, language, "discount") == was.hash
    # A change of its own tokens is a change, in or out of the error.
    assert _hash(broken.replace("+* 0", "+* 1"), language, "discount") != was.hash
    assert _hash(broken.replace("1 - rate", "1 + rate"), language, "discount") != was.hash
    # The span alone (one lookup) hashes as the whole file's table does.
    one = parse_file(broken.encode(), language).symbol("discount")
    assert one is not None and (one.hash, one.shape, one.has_error) == (was.hash, was.shape, True)


def test_a_renamed_broken_span_keeps_its_shape():
    was = symbol_table(BROKEN_PY.encode(), "python").symbols["discount"]
    now = symbol_table(BROKEN_PY.replace("def discount", "def rebate").encode(), "python").symbols["rebate"]
    assert now.hash != was.hash and now.shape == was.shape


def test_may_hide_is_the_error_span_only():
    data = BROKEN_PY.encode()
    assert may_hide(data, "python", "rate")        # written in the broken span
    assert not may_hide(data, "python", "price")   # written only in a good one
    assert not may_hide(data, "python", "gone")
    assert not may_hide(FIXED_PY.encode(), "python", "rate")  # no error at all
    # An error outside every symbol costs the top-level statement it sits in.
    stray = b"x = [1, 2\n\ndef ok():\n    return 1\n"
    assert may_hide(stray, "python", "x")
    top = b"def ok():\n    return 1\n\nvalue = (1 +* 2)\n"
    assert may_hide(top, "python", "value") and not may_hide(top, "python", "other")


# ------------------------------------------------------------------ end to end


@pytest.fixture
def rust_repo(repo):
    repo.write("src/pack.rs", PACKER_RS, dedent=False)
    repo.write("src/broken.py", BROKEN_PY, dedent=False)
    repo.commit("a Rust 2015 crate and a module with a syntax error")
    return repo


def test_a_function_using_try_is_recorded_and_checked(rust_repo, ledger):
    rec = ledger.record("pack writes a two-byte length first", ["src/pack.rs::Packer.pack"])
    anchor = ledger.store.get_decisions([rec.id])[0].anchors[0]
    assert (anchor.name, anchor.line) == ("Packer.pack", 13)
    rust_repo.replace("src/pack.rs", "try!(self.out.flush());", "try!(self.out.flush());\n        self.written = 0;")
    rust_repo.commit("finish resets")
    assert ledger.verify(rec.id).status is Status.VERIFIED
    rust_repo.replace("src/pack.rs", "try!(self.out.write_all(data));", "try!(self.out.write(data));")
    rust_repo.commit("write, not write_all")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.STALE, verdict.reason


def test_a_broken_symbol_is_checked_on_its_raw_tokens(rust_repo, ledger):
    rec = ledger.record("discount is linear in the rate", ["src/broken.py::discount"])
    rust_repo.replace("src/broken.py", "0.2, 2", "0.25, 2")
    rust_repo.commit("tax rate")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.VERIFIED and "body unchanged" in verdict.checks[0].detail
    rust_repo.replace("src/broken.py", "+* 0", "+ 0")  # fixed: another text, so a change
    rust_repo.commit("fix discount")
    assert ledger.verify(rec.id).status is Status.STALE


def test_a_body_edited_into_a_syntax_error_reads_stale(rust_repo, ledger):
    rec = ledger.record("tax rounds to cents", ["src/broken.py::tax"])
    rust_repo.replace("src/broken.py", "return round(total * 0.2, 2)", "return round(total *+* 0.2, 2)")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.STALE, verdict.reason


def test_a_deletion_beside_an_unrelated_syntax_error_is_refuted(rust_repo, ledger):
    rec = ledger.record("total sums prices", ["src/broken.py::total"])
    text = rust_repo.read("src/broken.py")
    rust_repo.write("src/broken.py", text[text.index("def discount"):], dedent=False)
    rust_repo.commit("total is gone; discount is still broken")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_symbol_whose_name_is_in_the_broken_span_may_be_hidden(rust_repo, ledger):
    rec = ledger.record("tax rounds to cents", ["src/broken.py::tax"])
    rust_repo.replace("src/broken.py", "def tax(total):", "def tax(total:")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION, verdict.reason
    assert "it may only be hidden by the error" in verdict.reason


def test_structured_text_with_an_error_keeps_every_missing_key_unverifiable(repo, ledger):
    # Keys have no spans of their own to narrow an error to: a key missing
    # from a JSON file that does not parse may be hidden by the error.
    repo.write("config/app.json", '{"retries": 3, "timeout": 5}\n')
    repo.commit("config")
    rec = ledger.record("retries are three", ["config/app.json::retries"])
    repo.write("config/app.json", '{"timeout": 5, "retries" 3}\n')  # the colon lost
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION, verdict.reason
    assert "it may only be hidden by the error" in verdict.reason
