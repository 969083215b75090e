"""The mapping rule's fixture: "V maps to S" where the switch branch for V writes another case's S."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules import contradictions
from memvet._rules.mapping import RULE

SAME_SITE = EvidenceText("src/index.ts::stringifySetCookie", """\
export function stringifySetCookie(cookie) {
  let str = cookie.name + "=" + cookie.value;
  if (cookie.sameSite) {
    switch (cookie.sameSite) {
      case true:
      case "strict":
        str += "; SameSite=Strict";
        break;
      case "lax":
        str += "; SameSite=Lax";
        break;
      case "none":
        str += "; SameSite=None";
        break;
      default:
        throw new TypeError("option sameSite is invalid");
    }
  }
  return str;
}
""")
LEVELS = EvidenceText("src/log.js::label", """\
function label(level) {
  switch (level) {
    case 10: return 'debug';
    case 20: return 'info';
    case 30: return 'warn';
  }
  return 'error';
}
""")

ANSI = EvidenceText("src/lib.rs::<Ansi as WriteColor>.set_color", """\
fn set_color(&mut self, spec: &ColorSpec) -> io::Result<()> {
    if spec.bold {
        self.write_str("\\x1B[1m")?;
    }
    if spec.italic {
        self.write_str("\\x1B[3m")?;
    }
    if spec.underline {
        self.write_str("\\x1B[4m")?;
    }
    Ok(())
}
""", language="rust")
SPECIFY = EvidenceText("lib/mediaType.js::specify", """\
function specify(type, spec, index) {
  var s = 0;
  if(spec.type.toLowerCase() == p.type.toLowerCase()) {
    s |= 4
  } else if(spec.type != '*') {
    return null;
  }
  if(spec.subtype.toLowerCase() == p.subtype.toLowerCase()) {
    s |= 2
  } else if(spec.subtype != '*') {
    return null;
  }
}
""", language="javascript")

DESTR = EvidenceText("src/index.ts::destr", """\
export function destr(value: any): any {
  const _value = value.trim();
  switch (_value.toLowerCase()) {
    case "true": {
      return true as T;
    }
    case "undefined": {
      return undefined as T;
    }
    case "null": {
      return null as T;
    }
    case "nan": {
      return Number.NaN as T;
    }
  }
  return value;
}
""", language="typescript")


HOST = EvidenceText("h11/_events.py::Request.__init__", """\
def __init__(self, headers):
    host_count = 0
    for name, value in headers:
        if name == b"host":
            host_count += 1
    if host_count == 0:
        raise LocalProtocolError("Missing mandatory Host: header")
    if host_count > 1:
        raise LocalProtocolError("Found multiple Host: headers")
""", language="python")


ENTRY_TYPE = EvidenceText("src/entry_type.rs::EntryType.new", """\\
    pub fn new(byte: u8) -> EntryType {
        match byte {
            b'\\\\x00' | b'0' => EntryType::Regular,
            b'1' => EntryType::Link,
            b'5' => EntryType::Directory,
            b => EntryType::__Nonexhaustive(b),
        }
    }
""", language="rust")
LEVEL = EvidenceText("src/level.rs::Level.from_byte", """\\
    fn from_byte(b: u8) -> Level {
        match b {
            b'e' => Level::Error,
            b'w' => Level::Warn,
            _ => Level::Info,
        }
    }
""", language="rust")

DECODED_LEN = EvidenceText("decode.go::decodedLen", """\
func decodedLen(src []byte) (blockLen, headerLen int, err error) {
	v, n := binary.Uvarint(src)
	if n <= 0 || v > 0xffffffff {
		return 0, 0, ErrCorrupt
	}
	const wordSize = 32 << (^uint(0) >> 32 & 1)
	if wordSize == 32 && v > 0x7fffffff {
		return 0, 0, ErrTooLarge
	}
	return int(v), n, nil
}
""", language="go")

FIRES = [
    # round 32 (snappy f15): a bound mapped to the error another branch gives
    ("decodedLen: a length header > 0xffffffff -> ErrTooLarge; ErrCorrupt is only for a broken varint.", DECODED_LEN),
    # round 20 (destr f16): the branch for the string returns another constant than the claim's, which
    # another branch returns
    ('"undefined" is normalised to `null` (JSON has no undefined).', DESTR),
    ('"null" becomes undefined.', DESTR),
    # a name's branch: the claim took the output another condition's branch writes
    ("Ansi codes: italic -> ESC[4m, bold -> ESC[1m.", ANSI),
    ("underline gives `\\033[3m`.", ANSI),
    ("matching subtype adds 4 and matching type adds 2.", SPECIFY),
    ("sameSite: true maps to `SameSite=Lax`, the browser default.", SAME_SITE),
    ("`sameSite: true` gives SameSite=None.", SAME_SITE),
    ("'strict' becomes `SameSite=Lax`.", SAME_SITE),
    # round 27: "emits", "is treated like"
    ("`sameSite: true` is treated like 'lax' and emits `SameSite=Lax`.", SAME_SITE),
    ("'none' emits `SameSite=Strict`.", SAME_SITE),
    ("Level 20 maps to 'debug'.", LEVELS),
    ("30 -> 'info'.", LEVELS),
    # the fallback taken for a named case
    ("EntryType::new(b) maps any unrecognized typeflag to EntryType::Regular.", ENTRY_TYPE),
    ("from_byte: anything else -> Level::Error.", LEVEL),
]

SILENT = [
    # round 32: the branch's own error; a bound no branch tests; an error the code never names
    ("decodedLen: a length header > 0xffffffff -> ErrCorrupt.", DECODED_LEN),
    ("decodedLen: on 32-bit, > 0x7fffffff -> ErrTooLarge.", DECODED_LEN),
    ("decodedLen: > 100 -> ErrTooLarge.", DECODED_LEN),
    ("decodedLen: > 0xffffffff -> ErrOverflow.", DECODED_LEN),
    # round 27: the branch for the value writes the claim's output
    ("`sameSite: true` is treated like 'strict' and emits `SameSite=Strict`.", SAME_SITE),
    ("'lax' emits `SameSite=Lax`.", SAME_SITE),
    # round 21 (h11 t11): the output names the word, which is its subject, no key of a branch
    ("Two Host headers -> \"Found multiple Host: headers\".", HOST),
    # the branch returns the claim's constant; a constant no branch returns; a string no label names
    ('"undefined" is normalised to `undefined`, "null" to `null`.', DESTR),
    ('"true" becomes true.', DESTR),
    ('"nan" becomes NaN.', DESTR),
    ('"yes" becomes true.', DESTR),
    ("Ansi codes: italic -> ESC[3m, underline -> ESC[4m, bold -> ESC[1m.", ANSI),
    ("matching type adds 4 and matching subtype adds 2.", SPECIFY),
    # an output no branch writes is the term rules' to read; a name no condition tests says nothing here
    ("italic -> ESC[7m.", ANSI),
    ("params add 1.", SPECIFY),
    ("strike -> ESC[4m.", ANSI),
    ("sameSite: true maps to `SameSite=Strict`.", SAME_SITE),
    ("'lax' gives `SameSite=Lax`.", SAME_SITE),
    # an output no branch writes: the term rules decide
    ("sameSite: true maps to `SameSite=Default`.", SAME_SITE),
    # a value no label names
    ("'relaxed' maps to `SameSite=Lax`.", SAME_SITE),
    ("Level 40 maps to 'debug'.", LEVELS),
    ("Level 30 maps to 'warn'.", LEVELS),
    ("from_byte maps any unknown byte to Level::Info.", LEVEL),
    ("EntryType::new(b) maps b'1' to EntryType::Link.", ENTRY_TYPE),
    # an output no arm gives: the term rules decide
    ("from_byte: anything else -> Level::Trace.", LEVEL),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_the_value_the_output_and_the_label():
    [line] = fired("sameSite: true maps to `SameSite=Lax`.", SAME_SITE)
    assert line == ("the claim maps `true` to `SameSite=Lax`; the code writes that for another case, but "
                    "src/index.ts::stringifySetCookie says `case true:`")


def test_a_declared_output_is_not_compared():
    assert contradictions("sameSite: true maps to `SameSite=Lax`.", [SAME_SITE], declared=["SameSite=Lax"],
                          rules=[RULE]) == []


def test_a_bound_no_base_reads_is_no_number():
    from memvet._rules.mapping import _whole
    assert _whole("0xffffffff") == 0xFFFFFFFF and _whole("1_000") == 1000
    assert _whole("08") is None  # a leading zero Python's int() refuses
