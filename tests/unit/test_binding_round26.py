"""Binding classes of issue 30's round 26 (tuning sets: rust-lang/rustc-demangle,
python-hyper/priority and four sets written blind at the round's start:
armon/go-radix, rust-num/num-traits, scrapy/queuelib, unjs/mlly).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

# ---------------------------------------------------------- the values a Go function returns, written as a tuple

DELETE = ev("radix.go::Tree.Delete", """\
    func (t *Tree) Delete(s string) (interface{}, bool) {
        n := t.root
        search := s
        for {
            if len(search) == 0 {
                if !n.isLeaf() {
                    break
                }
                goto DELETE
            }
            if n = n.getEdge(search[0]); n == nil {
                break
            }
        }
        return nil, false

    DELETE:
        leaf := n.leaf
        n.leaf = nil
        t.size--
        return leaf.val, true
    }
""", "go")


def test_a_tuple_binds_to_the_values_a_go_function_returns():
    assert unbound("`Delete(k)` returns `(leaf.val, true)` on success and `(nil, false)` if the key isn't there.",
                   DELETE) == []
    # values it never returns together stay unbound
    assert unbound("`Delete(k)` returns `(leaf.val, false)` when the key is a leaf.", DELETE) == ["(leaf.val, false)"]


# ---------------------------------------------------------- a string the code formats, its number fields filled

REPR = ev("src/priority/priority.py::Stream.__repr__", """\
    def __repr__(self) -> str:
        return "Stream<id=%d, weight=%d>" % (self.stream_id, self.weight)
""", "python")
OPEN_CHUNK = ev("queuelib/queue.py::FifoDiskQueue._openchunk", """\
    def _openchunk(self, number: int, mode: str = "rb") -> BinaryIO:
        return open(Path(self.path, f"q{number:05d}"), mode)
""", "python")


def test_an_example_of_a_formatted_string_binds_where_numbers_fill_its_fields():
    assert unbound("Its repr is `Stream<id=3, weight=8>`.", REPR) == []
    assert unbound("chunk files in the queue dir are `q00000`, `q00001`, ...", OPEN_CHUNK) == []
    # a field takes digits only, and every other character is the code's
    assert unbound("Its repr is `Stream<id=three, weight=8>`.", REPR) == ["Stream<id=three, weight=8>"]
    assert unbound("Its repr is `Stream<id=3; weight=8>`.", REPR) == ["Stream<id=3; weight=8>"]
    assert unbound("chunk files are `chunk00000`.", OPEN_CHUNK) == ["chunk00000"]


# ---------------------------------------------------------- a call's argument described in words

NORMALIZE_ID = ev("src/utils.ts::normalizeid", """\
    export function normalizeid(id: string): string {
      if (typeof id !== "string") {
        id = (id as any).toString();
      }
      if (/(node|data|http|https|file):/.test(id)) {
        return id;
      }
      if (BUILTIN_MODULES.has(id)) {
        return "node:" + id;
      }
      return "file://" + encodeURI(normalizeSlash(id));
    }
""", "typescript")


def test_an_argument_described_in_words_is_a_placeholder():
    assert unbound("anything else becomes `encodeURI(path with forward slashes)`.", NORMALIZE_ID) == []
    # the call itself must still be the code's
    assert unbound("anything else becomes `encodeURIComponent(path with forward slashes)`.", NORMALIZE_ID) \
        == ["encodeURIComponent(path with forward slashes)"]
    # an expression of the language is no description
    assert unbound("it returns `encodeURI(item for item in ids)`.", NORMALIZE_ID) \
        == ["encodeURI(item for item in ids)"]


# ---------------------------------------------------------- a trait's implementations, for a claim about the trait

SIGN = '''\
pub trait Signed: Sized + Num + Neg<Output = Self> {
    /// The positive difference of two numbers.
    fn abs_sub(&self, other: &Self) -> Self;
}

macro_rules! signed_impl {
    ($($t:ty)*) => ($(
        impl Signed for $t {
            #[inline]
            fn abs_sub(&self, other: &$t) -> $t {
                if *self <= *other { 0 } else { *self - *other }
            }
        }
    )*)
}

signed_impl!(isize i8 i16 i32 i64 i128);

pub trait MulAdd<A = Self, B = Self> {
    type Output;
    fn mul_add(self, a: A, b: B) -> Self::Output;
}

macro_rules! mul_add_impl {
    ($trait_name:ident for $($t:ty)*) => {$(
        impl $trait_name for $t {
            type Output = Self;

            #[inline]
            fn mul_add(self, a: Self, b: Self) -> Self::Output {
                (self * a) + b
            }
        }
    )*}
}

mul_add_impl!(MulAdd for isize i8 i16 i32 i64 i128);

pub trait Bounded {
    fn min_value() -> Self;
}
'''


def test_a_trait_is_evidenced_by_its_impls_and_those_a_macro_writes_for_it(repo, ledger) -> None:
    repo.write("Cargo.toml", '[package]\nname = "num"\nversion = "0.1.0"\n')
    repo.write("src/lib.rs", SIGN, dedent=False)
    repo.commit("traits")
    sub = ledger.record("signed int abs_sub: `if *self <= *other { 0 } else { *self - *other }`.",
                        ["src/lib.rs::Signed"])
    assert sub.decision.findings == ()
    fused = ledger.record("MulAdd for the integer types is plain `(self * a) + b`.", ["src/lib.rs::MulAdd"])
    assert fused.decision.findings == ()
    # code no impl of the anchored trait writes stays unbound
    other = ledger.record("signed int abs_sub is `(*self - *other).abs()`.", ["src/lib.rs::Signed"])
    assert other.decision.findings != ()
    bounded = ledger.record("Bounded's min_value is `(self * a) + b`.", ["src/lib.rs::Bounded"])
    assert bounded.decision.findings != ()
