"""Binding classes of issue 30's round 25 (tuning sets: mitsuhiko/similar,
python-hyper/hpack and four sets written blind at the round's start:
gorilla/feeds, rust-num/num-integer, python-hyper/rfc3986,
pillarjs/multiparty).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

from memvet._claims import claim_terms

# ---------------------------------------------------------- a message raised through a name it is assigned to

DECODE_INTEGER = ev("src/hpack/hpack.py::decode_integer", """\
    def decode_integer(data: bytes, prefix_bits: int) -> tuple[int, int]:
        try:
            number = data[0] & mask
            if number == max_number:
                while True:
                    if index > VARINT_MAX_LENGTH:
                        msg = f"Variable integer representation is too long: {data!r}"
                        raise HPACKDecodingError(msg)
        except IndexError as err:
            msg = f"Unable to decode HPACK integer representation from {data!r}"
            raise HPACKDecodingError(msg) from err
        return number, index
""", "python")
ENCODE_INTEGER = ev("src/hpack/hpack.py::encode_integer", """\
    def encode_integer(integer: int, prefix_bits: int) -> bytearray:
        if integer < 0:
            msg = f"Can only encode positive integers, got {integer}"
            raise ValueError(msg)
""", "python")


def test_a_message_assigned_to_a_name_binds_as_the_template_it_is():
    assert unbound('encode_integer(-1, 7) -> ValueError("Can only encode positive integers, got -1").',
                   ENCODE_INTEGER) == []
    # each message the name is given, not only the first
    assert unbound('A truncated integer is re-raised as HPACKDecodingError("Unable to decode HPACK integer '
                   'representation from ...").', DECODE_INTEGER) == []
    assert unbound('Longer ones raise HPACKDecodingError("Variable integer representation is too long: ...").',
                   DECODE_INTEGER) == []
    # words the code's message does not say
    assert unbound('encode_integer(-1, 7) -> ValueError("Can only encode natural numbers, got -1").',
                   ENCODE_INTEGER) == ['ValueError("Can only encode natural numbers, got -1")']


# ---------------------------------------------------------- an encoded attribute, written with its tag's key

ATOM_ENTRY = ev("atom.go::newAtomEntry", """\
    func newAtomEntry(i *Item) *AtomEntry {
        if len(i.Description) > 0 {
            x.Summary = &AtomSummary{Content: i.Description, Type: "html"}
        }
        return x
    }
""", "go")
ATOM_SUMMARY = ev("atom.go::AtomSummary", """\
    type AtomSummary struct {
        XMLName xml.Name `xml:"summary"`
        Content string   `xml:",chardata"`
        Type    string   `xml:"type,attr"`
    }
""", "go")


def test_a_go_fields_tag_key_binds_to_the_value_the_code_gives_the_field():
    assert unbound('Description -> <summary type="html">.', ATOM_ENTRY, ATOM_SUMMARY) == []
    # another value; a key no tag gives
    assert unbound('Description -> <summary type="text">.', ATOM_ENTRY, ATOM_SUMMARY) == ['type="text"']
    assert unbound('Description -> <summary kind="html">.', ATOM_ENTRY, ATOM_SUMMARY) == ['kind="html"']


# ---------------------------------------------------------- a call the code makes as written, shaped like a signature

URLPARSE = ev("src/rfc3986/api.py::urlparse", """\
    def urlparse(uri: str, encoding: str = "utf-8") -> ParseResult:
        return ParseResult.from_string(uri, encoding, strict=False)
""", "python")
FROM_STRING = ev("src/rfc3986/parseresult.py::ParseResult.from_string", """\
    @classmethod
    def from_string(cls, uri_string, encoding="utf-8", strict=True, lazy_normalize=True):
        reference = uri.URIReference.from_string(uri_string, encoding)
""", "python")


def test_a_call_the_code_makes_binds_though_it_reads_like_the_signature():
    assert unbound("urlparse() calls `ParseResult.from_string(uri, encoding, strict=False)`.",
                   URLPARSE, FROM_STRING) == []
    # the signature written out with another default, where no call passes it so
    assert unbound("urlparse() calls `ParseResult.from_string(uri, encoding, strict=None)`.",
                   URLPARSE, FROM_STRING) == ["ParseResult.from_string(uri, encoding, strict=None)"]


# ---------------------------------------------------------- percent-encoded bytes are an example of the output

def test_percent_encoded_bytes_are_no_claim_terms():
    assert [t.text for t in claim_terms("It writes uppercase hex, e.g. é -> %C3%A9.")] == []
    # one escape alone is read as before; a name beside them stays a term
    assert [t.text for t in claim_terms("a space becomes %20")] == ["20"]
    assert [t.text for t in claim_terms("é -> %C3%A9 in `encode_component`")] == ["encode_component"]
    # lower-case hex is not the form RFC 3986 normalizes to: a claim about case, kept as terms
    assert [t.text for t in claim_terms("It writes lowercase escapes (é -> %c3%a9).")] == ["c3", "a9"]


# ---------------------------------------------------------- a trait method's implementations in a macro

LIB = '''\
pub trait Integer: Sized {
    /// Floored integer division.
    fn div_floor(&self, other: &Self) -> Self;

    /// Ceiled division, built on div_mod_floor.
    fn div_ceil(&self, other: &Self) -> Self {
        let (q, r) = self.div_mod_floor(other);
        if r.is_zero() { q } else { q + Self::one() }
    }
}

macro_rules! impl_integer_for_isize {
    ($T:ty) => {
        impl Integer for $T {
            fn div_floor(&self, other: &Self) -> Self {
                let (d, r) = self.div_rem(other);
                if (r > 0 && *other < 0) || (r < 0 && *other > 0) {
                    d - 1
                } else {
                    d
                }
            }

            fn div_ceil(&self, other: &Self) -> Self {
                let (d, r) = self.div_rem(other);
                if (r > 0 && *other > 0) || (r < 0 && *other < 0) { d + 1 } else { d }
            }
        }
    };
}

impl_integer_for_isize!(i8);
'''


def test_a_bodiless_trait_method_is_evidenced_by_its_macro_written_impls(repo, ledger) -> None:
    repo.write("Cargo.toml", '[package]\nname = "num"\nversion = "0.1.0"\n')
    repo.write("src/lib.rs", LIB, dedent=False)
    repo.commit("integers")
    floor = ledger.record("signed div_floor is div_rem plus a fixup: the truncated quotient gets decremented by 1 "
                          "when `r > 0 && *other < 0`.", ["src/lib.rs::Integer.div_floor"])
    assert floor.decision.findings == ()
    # a trait method with a body of its own is read alone: the impls' div_rem is not the default's
    ceil = ledger.record("The trait's default div_ceil is built on `div_rem`.", ["src/lib.rs::Integer.div_ceil"])
    assert ceil.decision.findings != ()
    assert "div_rem" in ceil.decision.findings[0]


# ---------------------------------------------------------- a Rust type's arguments, written with the turbofish

CAPTURE_OPS = ev("src/text/mod.rs::TextDiffConfig.capture_ops", """\
    fn capture_ops(&self, old: &[T], new: &[T]) -> Vec<DiffOp> {
        if old.len() > 100 || new.len() > 100 {
            let ih = IdentifyDistinct::<u32>::new(old, 0..old.len(), new, 0..new.len());
            return capture_diff_deadline(self.algorithm, ih.old_lookup(), ih.new_lookup());
        }
    }
""", "rust")


def test_a_rust_generic_type_binds_to_its_turbofish():
    assert unbound("capture_ops interns tokens through IdentifyDistinct<u32> past 100 tokens.", CAPTURE_OPS) == []
    assert unbound("capture_ops interns tokens through IdentifyDistinct<u64> past 100 tokens.",
                   CAPTURE_OPS) == ["IdentifyDistinct<u64>"]


# ---------------------------------------------------------- a call's result compared with a decimal is no version

def test_a_calls_result_compared_with_a_decimal_is_a_number():
    assert [(t.text, t.kind.value) for t in claim_terms("diff_ratio(ops, 0, 0) == 1.0 for empty inputs")] == [
        ("diff_ratio(ops, 0, 0)", "call"), ("1.0", "number")]
    # after a word it is still a version requirement
    assert [(t.text, t.kind.value) for t in claim_terms("requires python >= 3.8")] == [(">= 3.8", "version")]
