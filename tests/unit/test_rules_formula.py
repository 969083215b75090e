"""formula: each case both ways."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.formula import RULE

ROUND = EvidenceText("xxhash.go::round", """\
func round(acc, input uint64) uint64 {
	acc += input * prime2
	acc = rol31(acc)
	acc *= prime1
	return acc
}
""", language="go")
RESET = EvidenceText("xxhash.go::Digest.ResetWithSeed", """\
func (d *Digest) ResetWithSeed(seed uint64) {
	d.v1 = seed + prime1 + prime2
	d.v2 = seed + prime2
	d.v3 = seed
	d.v4 = seed - prime1
}
""", language="go")
PID = EvidenceText("id.go::NewWithTime", """\
func NewWithTime(t time.Time) ID {
	var id ID
	id[7] = byte(pid >> 8)
	id[8] = byte(pid)
	return id
}
""", language="go")
SIGN = EvidenceText("src/lib.rs::extend_sign", """\
fn extend_sign(val: u64, nbytes: usize) -> i64 {
    let shift = (8 - nbytes) * 8;
    (val << shift) as i64 >> shift
}
""", language="rust")
DIVMOD = EvidenceText("src/lib.rs::divmod100", """\
fn divmod100(value: u32) -> (u32, u32) {
    const EXP: u32 = 19;
    const SIG: u32 = (1 << EXP) / 100 + 1;
    let div = (value * SIG) >> EXP;
    (div, value - div * 100)
}
""", language="rust")
MAGIC = [EvidenceText("snappy.go::magicChunk", 'magicChunk = "\\xff\\x06\\x00\\x00" + magicBody\n', language="go"),
         EvidenceText("snappy.go::magicBody", 'magicBody = "sNaPpY"\n', language="go")]
PY = EvidenceText("fields.py::Boolean.__init__", """\
    def __init__(self, *, truthy=None, **kwargs):
        if truthy is not None:
            self.truthy = set(truthy)
        self.label = '<li class="header">'
        self.size = len(self.parts) * 2 + 1
""")

FIRES = [
    # round 32: a constant's value is no stand-in for another
    ("divmod100: div = (value * SIG) >> 18.", DIVMOD),
    # another function, the same argument
    ("round(acc, input): acc += input*prime2; acc = rol27(acc); acc *= prime1.", ROUND),
    # another compound operator
    ("round: acc -= input * prime2 first.", ROUND),
    # an operand left out
    ("Lane init: v1 = seed + prime1, v2 = seed + prime2.", RESET),
    ("v4 = seed + prime1.", RESET),
    ("v4 = seed - prime2 - then v1 follows.", RESET),
    # the two sides swapped
    ("Pid bytes are little-endian: id[7] = byte(pid), id[8] = byte(pid >> 8).", PID),
    # another number
    ("extend_sign: shift = (8 - nbytes) * 4.", SIGN),
    ("self.size = len(self.parts) * 3 + 1", PY),
]

SILENT = [
    # round 32 (itoa t15, snappy t02): a constant of the anchored code written as its value
    ("divmod100: div = (value * SIG) >> 19 with SIG = (1 << 19) / 100 + 1.", DIVMOD),
    ("divmod100: div = (value * SIG) >> 0x13.", DIVMOD),
    ('magicChunk = "\\xff\\x06\\x00\\x00" + "sNaPpY" - chunk type 0xff, then the magic body.', MAGIC),
    # the code's own formulas, receivers and layout aside
    ("round(acc, input): acc += input*prime2; acc = rol31(acc); acc *= prime1.", ROUND),
    ("Lane init: v1 = seed + prime1 + prime2, v2 = seed + prime2, v3 = seed, v4 = seed - prime1.", RESET),
    ("id[7] = byte(pid >> 8) and id[8] = byte(pid): big-endian.", PID),
    ("size = len(parts) * 2 + 1.", PY),
    # the claim's own short names for the code's
    ("extend_sign: shift = (8 - n) * 8.", SIGN),
    # a paraphrase differs by more than a token or two: the term binder's to read
    ("v1 = seed plus both primes: v1 = seed + prime1 + prime2 + 0 * x * y.", RESET),
    # a lone name or literal is value's to read
    ("v3 = seed, unchanged.", RESET),
    # a keyword argument, a string's markup, a generic's default: no assignment
    ("Boolean(truthy=set()) turns the whitelist off.", PY),
    ("It prepends an `<li class=\"header\">` row.", PY),
    ("`IndexMap<K, V, S = RandomState>` under std.", SIGN),
    # a dash of prose after the formula is no minus
    ("Reset: v4 = seed - prime1 - that's how the lane starts below the seed.", RESET),
    ("round: acc *= prime1 - the last step.", ROUND),
    # a name the code does not assign
    ("total = seed + prime1.", RESET),
]

fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_a_number_token_is_compared_by_its_value_in_any_base():
    from memvet._rules.formula import _literal
    assert _literal("0x13") == _literal("19") == _literal("0b10011") == "19"
    assert _literal("1_0000") == _literal("1e4") == "10000"
    assert _literal("0777") == "0777"  # no number Python reads (a C octal): kept as written
    assert _literal("SIG") == "SIG"
