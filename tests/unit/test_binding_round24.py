"""Binding classes of issue 30's round 24 (tuning sets: gorilla/securecookie,
unjs/ohash and four sets written blind at the round's start: gorilla/schema,
alexcrichton/tar-rs, alecthomas/voluptuous, expressjs/cookie-parser).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

# ---------------------------------------------------------- letters and digits, a part of the code's names

TO_BASE64 = ev("src/crypto/js/index.ts::WordArray.toBase64", """\
    toBase64(): string {
      const base64Chars: string[] = [];
      for (let i = 0; i < this.sigBytes; i += 3) {
        base64Chars.push(base64KeyStr.charAt(triplet & 0x3f));
      }
      return base64Chars.join("");
    }
""", "typescript")
IS_EMPTY = ev("decoder.go::isEmpty", """\
    func isEmpty(t reflect.Type, value []string) bool {
        switch t.Kind() {
        case boolType, float64Type, intType, int8Type, int32Type, int64Type, stringType:
            return len(value[0]) == 0
        }
        return false
    }
""", "go")


def test_a_word_of_letters_and_digits_binds_to_two_parts_of_a_code_name():
    assert unbound("The JS fallback's base64 table is built in toBase64.", TO_BASE64) == []
    assert unbound("isEmpty's kind switch lists int8/int32/int64 but not int16.", IS_EMPTY) == []
    # only two neighbouring parts, letters then digits: a word the names do not spell stays unbound
    assert unbound("The JS fallback's base32 table is built in toBase64.", TO_BASE64) == ["base32"]
    assert unbound("isEmpty's kind switch lists int8/int16/int64.", IS_EMPTY) == ["int8/int16/int64"]
    assert unbound("The table is `sha256`.", TO_BASE64) == ["sha256"]


# ---------------------------------------------------------- values side by side, each a string of the code

BOOLEAN = ev("voluptuous/validators.py::Boolean", """\
    def Boolean(v):
        if isinstance(v, str):
            v = v.lower()
            if v in ('1', 'true', 'yes', 'on', 'enable'):
                return True
            if v in ('0', 'false', 'no', 'off', 'disable'):
                return False
            raise ValueError
        return bool(v)
""", "python")


def test_values_joined_by_slashes_bind_when_each_is_a_string_of_the_code():
    assert unbound("Boolean(): 1/true/yes/on/enable -> True and 0/false/no/off/disable -> False.", BOOLEAN) == []
    assert unbound("Boolean(): 1/true/y/on -> True.", BOOLEAN) == ["1/true/y/on"]


# ---------------------------------------------------------- a call argument written with its arguments elided

HUMANIZED = ev("voluptuous/humanize.py::validate_with_humanized_errors", """\
    def validate_with_humanized_errors(data, schema, max_sub_error_length=MAX_VALIDATION_ERROR_ITEM_LENGTH):
        try:
            return schema(data)
        except (Invalid, MultipleInvalid) as e:
            raise Error(humanize_error(data, e, max_sub_error_length))
""", "python")


def test_an_argument_written_as_a_call_with_its_arguments_elided_binds_to_that_call():
    assert unbound("It raises a bare `Error(humanize_error(...))`, so `except Error` catches it.", HUMANIZED) == []
    assert unbound("It raises a bare `Error(humanize_error(\u2026))`.", HUMANIZED) == []
    # another inner call, or the outer one raised with another class, is still unbound
    assert unbound("It raises a bare `Error(format_error(...))`.", HUMANIZED) == ["Error(format_error(...))"]
    assert unbound("It raises `Invalid(humanize_error(...))`.", HUMANIZED) == ["Invalid(humanize_error(...))"]


# ---------------------------------------------------------- a file mode in C's octal notation

LONG_LINK = ev("src/builder.rs::prepare_header", """\
    fn prepare_header(size: u64, entry_type: u8) -> Header {
        let mut header = Header::new_gnu();
        let name = b"././@LongLink";
        header.as_gnu_mut().unwrap().name[..name.len()].clone_from_slice(&name[..]);
        header.set_mode(0o644);
        header.set_uid(0);
        header
    }
""", "rust")


def test_a_mode_written_with_a_leading_zero_binds_to_the_code_s_0o_literal():
    assert unbound("The GNU long-name header gets mode 0644, uid 0.", LONG_LINK) == []
    assert unbound("The GNU long-name header gets mode 0755, uid 0.", LONG_LINK) == ["0755"]


# ---------------------------------------------------------- Go's %q, which prints a string in its quotes

UNKNOWN_KEY = ev("decoder.go::UnknownKeyError.Error", """\
    func (e UnknownKeyError) Error() string {
        return fmt.Sprintf("schema: invalid path %q", e.Key)
    }
""", "go")


def test_a_message_with_a_quoted_example_binds_to_go_s_q_field():
    assert unbound('UnknownKeyError.Error() -> `schema: invalid path "foo"` (key is %q-quoted).', UNKNOWN_KEY) == []
    # the field prints quotes: the example without them, or another message, does not fit
    assert unbound("UnknownKeyError.Error() -> `schema: invalid path 'foo'`.", UNKNOWN_KEY) \
        == ["schema: invalid path 'foo'"]
    assert unbound('UnknownKeyError.Error() -> `schema: unknown path "foo"`.', UNKNOWN_KEY) \
        == ['schema: unknown path "foo"']


# ---------------------------------------------------------- Rust's Err("message"), the message as the code writes it

ENTRIES = ev("src/archive.rs::Archive._entries", """\
    fn _entries(&mut self) -> io::Result<EntriesFields> {
        if self.inner.pos.get() != 0 {
            return Err(other(
                "cannot call entries unless archive is at \\
                 position 0",
            ));
        }
        Ok(EntriesFields { archive: self, done: false })
    }
""", "rust")
PAX_NEXT = ev("src/pax.rs::<PaxExtensions as Iterator>.next", """\
    fn next(&mut self) -> Option<io::Result<PaxExtension<'entry>>> {
        let line = self.data.next()?;
        Some(
            line.iter()
                .position(|b| *b == b'=')
                .map(|equals| PaxExtension { key: &line[..equals], value: &line[equals + 1..] })
                .ok_or_else(|| other("malformed pax extension")),
        )
    }
""", "rust")


def test_rust_s_err_of_a_message_binds_where_the_code_returns_that_message_as_an_error():
    assert unbound('Otherwise it returns Err("cannot call entries unless archive is at position 0").', ENTRIES) == []
    assert unbound('Anything else yields Err("malformed pax extension").', PAX_NEXT) == []
    # a message the code never writes is unbound; Ok(...) is no error's notation
    assert unbound('Anything else yields Err("bad pax record").', PAX_NEXT) == ['Err("bad pax record")']
    assert unbound('Anything else yields Ok("malformed pax extension").', PAX_NEXT) == ['Ok("malformed pax extension")']


# ---------------------------------------------------------- a call written as a verb: "JSON.parses the rest"

JSON_COOKIE = ev("index.js::JSONCookie", """\
    function JSONCookie (str) {
      if (typeof str !== 'string' || str.substr(0, 2) !== 'j:') {
        return undefined
      }
      try {
        return JSON.parse(str.slice(2))
      } catch (err) {
        return undefined
      }
    }
""", "javascript")


def test_a_dotted_call_written_as_a_verb_binds_to_the_call():
    assert unbound("JSONCookie strips the first two chars and JSON.parses the rest.", JSON_COOKIE) == []
    # a call the code never makes; the plural read as a name, with no object after it
    assert unbound("JSONCookie strips the first two chars and JSON.stringifies the rest.", JSON_COOKIE) \
        == ["JSON.stringifies"]
    assert unbound("Both JSON.parses run.", JSON_COOKIE) == ["JSON.parses"]
