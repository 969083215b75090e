"""The compares rule's fixture: a comparison written out that the code makes with another operator or bound."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.compares import RULE

TRUNCATE = EvidenceText("slugify/slugify.py::smart_truncate", """\
def smart_truncate(string, max_length=0):
    if not max_length:
        return string
    if len(string) < max_length:
        return string
    return string[:max_length]
""", language="python")
PARSE = EvidenceText("src/index.ts::parse", """\
export function parse(str: string): number {
  if (typeof str !== 'string' || str.length === 0 || str.length > 100) {
    throw new Error('bad');
  }
  return 1;
}
""", language="typescript")
SIZE = EvidenceText("simplelru/lru.go::NewLRU", """\
func NewLRU(size int) (*LRU, error) {
	if size <= 0 {
		return nil, errors.New("must provide a positive size")
	}
	return &LRU{size: size}, nil
}
""", language="go")
BITS = EvidenceText("src/mem.rs::Compress.new_window", """\
    pub fn new_window(level: u32, bits: u8) -> Compress {
        assert!(bits > 8 && bits < 16, "bits must be within 9 ..= 15");
        Compress { inner: make(level, bits) }
    }
""", language="rust")

# round 31 (python-rsa t05): a validation written as the test that refuses, beside another bound of the name
NEWKEYS = EvidenceText("rsa/key.py::newkeys", """\
def newkeys(nbits, accurate=True, poolsize=1, exponent=DEFAULT_EXPONENT):
    if nbits < 16:
        raise ValueError("Key too small")
    if poolsize < 1:
        raise ValueError("Pool size (%i) should be >= 1" % poolsize)
    if poolsize > 1:
        from rsa import parallel
""")

# round 31 (rs/cors f03): the complement does not refuse, and the code tells 0 apart
CORS_NEW = EvidenceText("cors.go::New", """\
func New(options Options) *Cors {
    if options.MaxAge > 0 {
        c.maxAge = []string{strconv.Itoa(options.MaxAge)}
    } else if options.MaxAge < 0 {
        c.maxAge = []string{"0"}
    }
    return c
}
""")

FIRES = [
    # round 31 (rs/cors f03): a complement that does not refuse is no reading of the claim's test
    ("MaxAge <= 0 just means the Access-Control-Max-Age header is omitted.", CORS_NEW),
    # round 31: neither the code's test nor its complement
    ("newkeys validates poolsize >= 3 before doing any work.", NEWKEYS),
    ("smart_truncate early-returns when len(string) <= max_length.", TRUNCATE),
    ("parse() caps input at 99 chars: anything with length > 99 throws.", PARSE),
    ("NewLRU errors when size < 0.", SIZE),
    # round 27: a number written first, and a chain read as its two bounds
    ("new_window asserts 8 <= bits <= 15 (8 is allowed).", BITS),
    ("new_window accepts 9 <= bits <= 16.", BITS),
    ("NewLRU errors when 0 > size.", SIZE),
]

SILENT = [
    # round 31 (python-rsa t05): the complement of the claim's test is the code's (`poolsize < 1` raises)
    ("newkeys validates poolsize >= 1 before doing any work.", NEWKEYS),
    ("smart_truncate early-returns when len(string) < max_length.", TRUNCATE),
    ("smart_truncate returns the string when max_length > len(string).", TRUNCATE),
    ("anything with length > 100 throws.", PARSE),
    ("anything with length >= 101 throws.", PARSE),
    ("NewLRU errors when size <= 0.", SIZE),
    ("NewLRU errors when size < 1.", SIZE),
    # operands the code does not compare
    ("it throws when depth > 5.", PARSE),
    # a test and its complement are one test
    ("MaxElapsedTime == 0 disables the limit; it is checked only when MaxElapsedTime != 0.", EvidenceText(
        "exponential.go::ExponentialBackOff.NextBackOff",
        "func (b *ExponentialBackOff) NextBackOff() time.Duration {\n"
        "\tif b.MaxElapsedTime != 0 && elapsed > b.MaxElapsedTime {\n\t\treturn Stop\n\t}\n\treturn next\n}\n",
        language="go")),
    ("smart_truncate cuts when len(string) >= max_length.", TRUNCATE),
    # a bound that is no whole number
    ("anything with length > Infinity throws.", PARSE),
    # round 27: the chain the code writes, another way; a bound written as arithmetic is not a number
    ("new_window asserts 9 <= bits <= 15.", BITS),
    ("new_window asserts 8 < bits < 16.", BITS),
    ("NewLRU errors when 0 >= size.", SIZE),
    ("new_window requires 9 <= bits <= 2^4-1.", BITS),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_comparison() -> None:
    assert fired("smart_truncate early-returns when len(string) <= max_length.", TRUNCATE) == [
        "the claim says `len(string) <= max_length`; the code compares `len(string) < max_length`, but "
        "slugify/slugify.py::smart_truncate says `if len(string) < max_length:`"]
