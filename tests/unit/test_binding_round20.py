"""Binding classes of issue 30's round 20 (tuning sets: mgeisler/textwrap,
aio-libs/async-timeout and eight sets written blind at the round's start).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

from memvet._rules.value import numbers

# ---------------------------------------------------------------- a class's call of its parent

INIT = ev("timeout.py::Timeout", """\
    class Timeout(asyncio.Timeout):
        def __init__(self, deadline, loop):
            super().__init__(deadline)
""", "python")


def test_a_call_of_the_parent_binds_as_the_code_writes_it():
    assert unbound("Timeout.__init__ calls `super().__init__(deadline, loop)`.", INIT) == [
        "super().__init__(deadline, loop)"]
    assert unbound("Timeout.__init__ calls `super().__init__(deadline)`.", INIT) == []


# ----------------------------------------------------- numbers written the way the code does not

ANSI = ev("src/core.rs::ANSI_FINAL_BYTE", """\
    const ANSI_FINAL_BYTE: std::ops::RangeInclusive<char> = '\\x40'..='\\x7e';
""", "rust")


def test_a_hexadecimal_number_binds_to_a_character_s_escape():
    assert unbound("The final byte is in 0x40..=0x7E (ANSI_FINAL_BYTE).", ANSI) == []
    assert unbound("The final byte is in 0x41..=0x7E (ANSI_FINAL_BYTE).", ANSI) == ["0x41"]


LOCALE = ev("runewidth_posix.go::isEastAsian", """\
    func isEastAsian(locale string) bool {
        charset := strings.ToLower(locale)
        if strings.HasSuffix(charset, "@cjk_narrow") {
            return false
        }
        return true
    }
""", "go")


def test_a_locale_name_is_the_reader_s_for_code_that_reads_the_locale():
    assert unbound("Appending `@cjk_narrow` (e.g. ja_JP.UTF-8@cjk_narrow) opts out.", LOCALE) == []
    assert unbound("isEastAsian: en_US.UTF-8 -> false, ja_JP.UTF-8 -> true.", LOCALE) == []
    # code that reads no locale has no use for one
    assert unbound("Fill pads en_US.UTF-8 text.", ev("fill.go::Fill", "func Fill(s string) string { return s }\n",
                                                       "go")) == ["en_US.UTF", "-8"]


# ------------------------------------------------------------------------ messages and separators

DEL_ROW = ev("prettytable.py::PrettyTable.del_row", """\
    def del_row(self, row_index):
        if row_index > len(self._rows) - 1:
            msg = (
                f"Can't delete row at index {row_index}, "
                f"table only has {len(self._rows)} rows"
            )
            raise IndexError(msg)
        del self._rows[row_index]
""", "python")


def test_a_formatted_message_s_fields_are_named_by_the_claim_s_words():
    assert unbound('del_row(i) raises IndexError("Can\'t delete row at index {i}, table only has {n} rows").',
                   DEL_ROW) == []
    assert unbound('del_row(i) raises IndexError("Cannot delete row at index {i}, table only has {n} rows").',
                   DEL_ROW) == ['IndexError("Cannot delete row at index {i}, table only has {n} rows")']


ALLOWED = ev("router.go::Router.allowed", """\
    func (r *Router) allowed(path, reqMethod string) (allow string) {
        return strings.Join(allowed, ", ")
    }
""", "go")


def test_a_separator_binds_as_it_is_written():
    assert unbound('The Allow header is built with strings.Join(allowed, ", ").', ALLOWED) == []
    assert unbound('The Allow header is built with strings.Join(allowed, ","), e.g. "GET,POST".', ALLOWED)[:1] == [
        'strings.Join(allowed, ",")']


VERSION = ev("async_timeout/__init__.py", '__version__ = "5.0.1"\n\n__all__ = ("timeout", "Timeout")\n', "python")


def test_the_release_a_claim_dates_a_behaviour_from_is_the_code_s_version():
    assert unbound("Since 5.0, Timeout is the one class of the module.", VERSION) == []
    # a release the code is not of, or a number that says no release
    assert unbound("Since 6.0, Timeout is the one class of the module.", VERSION) == ["6.0"]
    assert unbound("Timeout waits 5.0 seconds.", VERSION) == ["5.0"]


# ------------------------------------------------------------------------- Cargo's default features

CARGO = """\
[package]
name = "textwrap"
version = "0.16.2"

[features]
default = ["unicode-linebreak", "unicode-width", "smawk"]
unicode-linebreak = ["icu_segmenter"]

[dependencies]
icu_segmenter = { version = "1.5", optional = true }
smawk = { version = "0.3.2", optional = true }
terminal_size = { version = "0.4.0", optional = true }
unicode-width = { version = "0.2.0", optional = true }
"""


def test_a_feature_said_on_or_off_by_default_is_read_in_the_default_list(repo, ledger) -> None:
    repo.write("Cargo.toml", CARGO, dedent=False)
    repo.write("src/lib.rs", "pub fn wrap() {}\n")
    repo.commit("manifest")
    rec = ledger.record("terminal_size is on by default, so the terminal width is always known.", ["Cargo.toml"])
    assert rec.decision.findings == ("the claim says `terminal_size is on by default`; the crate's default features "
                                     'do not include `terminal_size`, but Cargo.toml says '
                                     '`default = ["unicode-linebreak", "unicode-width", "smawk"]`',)
    assert len(ledger.record("The `smawk` feature is not enabled by default.", ["Cargo.toml"]).decision.findings) == 1
    for claim in ("smawk is on by default; terminal_size is off by default.",
                  "The unicode-linebreak feature is enabled by default.",
                  # a name the manifest declares as no feature: the rule has nothing to read
                  "Colour output is on by default.",
                  "The unicode-linebreak feature turns on icu_segmenter.",
                  # an adjective before the crate (bitflags t13)
                  "The `unicode-linebreak` feature pulls in the optional `icu_segmenter` crate."):
        assert ledger.record(claim, ["Cargo.toml"]).decision.findings == (), claim
    rec = ledger.record("The `unicode-linebreak` feature turns on the unicode-linebreak crate.", ["Cargo.toml"])
    assert rec.decision.findings == ("the claim says `unicode-linebreak feature turns on the unicode-linebreak`; "
                                     "the feature's list does not name `unicode-linebreak`, but Cargo.toml says "
                                     '`unicode-linebreak = ["icu_segmenter"]`',)


def test_numbers_in_another_base_are_read_in_it() -> None:
    assert numbers("let width = packed & 0b11; let mask = 0x1F;") >= {3.0, 31.0}
    # digits the base has no use for are no number of it
    assert 0.0 not in numbers("let bad = 0b12;") and 12.0 not in numbers("let bad = 0b12;")


NOT_ALLOWED = ev("router.go::Router.ServeHTTP", """\
    func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
        http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
    }
""", "go")


def test_a_status_the_code_names_by_its_platform_s_constant_binds_as_a_number_in_a_call():
    assert unbound("It replies with http.Error(w, http.StatusText(405), 405).", NOT_ALLOWED) == []
    assert unbound("It replies with http.Error(w, http.StatusText(404), 404).", NOT_ALLOWED) == [
        "http.Error(w, http.StatusText(404), 404)"]


FILL_INPLACE = ev("src/fill.rs::fill_inplace", """\
    pub fn fill_inplace(text: &mut String, width: usize) {
        let mut indices = Vec::new();
        text.push('\\n');
    }
""", "rust")


def test_a_borrow_of_the_reader_s_variable_fits_a_reference_parameter():
    assert unbound("fill_inplace(&mut s, width) overwrites spaces in place.", FILL_INPLACE) == []
    # a borrow where the parameter takes a value is no use of it
    assert unbound("fill_inplace(&mut s, &width) overwrites spaces in place.", FILL_INPLACE) == [
        "fill_inplace(&mut s, &width)"]
