"""Binding classes of issue 30's round 15 (tuning sets: Amanieu/thread_local-rs,
benjaminp/six and eight sets written blind at the round's start).

Each case both ways.
"""

from __future__ import annotations

import pytest
from _binding import ev, unbound

import memvet

# ----------------------------------------------------------------- an item of a cfg_if! branch

THREAD_ID_RS = """\
pub(crate) struct Thread {
    pub(crate) id: usize,
}

cfg_if::cfg_if! {
    if #[cfg(feature = "nightly")] {
        pub(crate) fn try_get() -> Option<Thread> {
            unsafe { THREAD }
        }
    } else {
        pub(crate) fn try_get() -> Option<Thread> {
            THREAD.with(|thread| thread.get())
        }
    }
}
"""


def _status(ledger, claim, anchors):
    rec = ledger.record(claim, anchors, author=memvet.Author.person("p"))
    return ledger.verify(rec.decision.id).status


def test_a_function_defined_in_each_cfg_if_branch_is_one_anchor(repo, ledger) -> None:
    repo.write("src/thread_id.rs", THREAD_ID_RS, dedent=False)
    repo.commit("cfg_if")
    assert _status(ledger, "`try_get()` returns the thread's `Option<Thread>`.", ["src/thread_id.rs::try_get"]) \
        is memvet.Status.VERIFIED
    # every configuration's body is read: a term neither has stays unconfirmed
    assert _status(ledger, "`try_get()` calls `allocate_id()`.", ["src/thread_id.rs::try_get"]) \
        is memvet.Status.NEEDS_REVALIDATION
    # a name no branch defines is still no symbol
    with pytest.raises(memvet.AnchorNotFoundError, match="no symbol named try_get_slow"):
        ledger.record("try_get_slow is lazy.", ["src/thread_id.rs::try_get_slow"],
                      author=memvet.Author.person("p"))


# ----------------------------------------------------------------- values side by side, a slash between

ENSURE_BINARY = ev("six.py::ensure_binary", """\
    def ensure_binary(s, encoding='utf-8', errors='strict'):
        if isinstance(s, binary_type):
            return s
        if isinstance(s, text_type):
            return s.encode(encoding, errors)
        raise TypeError("not expecting type '%s'" % type(s))
""", "python")
DETECT = ev("src/utils.ts::detectResponseType", """\
    export function detectResponseType(_contentType = ""): ResponseType {
      const responseType = _contentType.split(";").shift() || "";
      if (JSON_RE.test(responseType)) {
        return "json";
      }
      return "blob";
    }
""", "typescript")


def test_values_joined_by_a_slash_are_alternatives():
    assert unbound("Text is encoded with UTF-8/strict unless you pass something else.", ENSURE_BINARY) == []
    assert unbound("Detection looks at responseType/json first.", DETECT) == []
    # one side the code does not say keeps the term
    assert unbound("Text is encoded with UTF-8/lenient unless you pass something else.", ENSURE_BINARY) \
        == ["UTF-8/lenient"]


# ----------------------------------------------------------------- a Python version the code tests as a tuple

SIX_MOVES = ev("six.py", """\
    if sys.version_info[:2] < (3, 14):
        _urllib_request_moved_attributes.append(MovedAttribute("URLopener", "urllib", "urllib.request"))
    MovedModule("_dummy_thread", "dummy_thread", "_dummy_thread" if sys.version_info < (3, 9) else "_thread")
    if sys.version_info[:2] >= (3, 7):
        resolved_bases = types.resolve_bases(bases)
""", "python")


def test_a_python_version_binds_to_the_tuple_the_code_tests():
    assert unbound("URLopener is registered only before 3.14; from 3.9 on it's `_thread`.", SIX_MOVES) == []
    assert unbound("Bases are resolved on >= 3.7.", SIX_MOVES) == []
    assert unbound("_dummy_thread is used only before 3.8.", SIX_MOVES) == ["3.8"]
    assert unbound("Bases are resolved on >= 3.6.", SIX_MOVES) == [">= 3.6"]


# ----------------------------------------------------------------- a keyword's quoted value, commas and all

SETUP = ev("setup.py", """\
    setup(
        name="six",
        python_requires=">=2.7, !=3.0.*, !=3.1.*, !=3.2.*",
    )
""", "python")


def test_a_keywords_quoted_value_is_read_whole():
    assert unbound('Supported: python_requires=">=2.7, !=3.0.*, !=3.1.*, !=3.2.*".', SETUP) == []
    assert unbound('Supported: python_requires=">=3.7, !=3.0.*".', SETUP) == ['python_requires=">=3.7, !=3.0.*"']


# ----------------------------------------------------------------- what prose writes around names

SIZE_HINT = ev("src/encode.rs::standard", """\
    pub const fn standard(config: Config) -> Option<Self> {
        if is_x86_feature_detected!("avx2") {
            Some(unsafe { Self::standard_unchecked(config) })
        } else {
            None
        }
    }
""", "rust")
NEW = ev("src/lib.rs::ThreadLocal.new", """\
    pub const fn new() -> ThreadLocal<T> {
        Self {
            buckets: [ptr::null_mut::<AtomicPtr<Entry<T>>>(); BUCKETS],
            values: AtomicUsize::new(0),
        }
    }
""", "rust")
CARGO = ev("Cargo.toml", """\
    [dependencies]
    cfg-if = "1.0.0"
""", "toml")


def test_big_o_is_a_cost_not_a_call():
    assert unbound("The duplicate scan is O(n^2) and the lookup O(1).", SIZE_HINT) == []
    assert unbound("The duplicate scan is On(n).", SIZE_HINT) == ["On(n)"]


def test_a_family_of_names_by_its_suffix():
    assert unbound("The *_unchecked variants skip the CPU check.", SIZE_HINT) == []
    assert unbound("The *_checked variants skip the CPU check.", SIZE_HINT) == ["_checked"]


def test_the_plural_of_a_type_the_code_names():
    assert unbound("All buckets start as null AtomicPtrs.", NEW) == []
    assert unbound("All buckets start as null AtomicRefs.", NEW) == ["AtomicRefs"]


def test_a_rust_keyword_is_the_languages_own():
    assert unbound("new() is a `const fn`, so it can be used directly in a `static`.", NEW) == []


def test_a_version_with_its_zeros_left_out():
    assert unbound("The only runtime dependency is cfg-if (1.0).", CARGO) == []
    assert unbound("The only runtime dependency is cfg-if (1.1).", CARGO) == ["1.1"]


def test_a_width_the_claim_names_as_its_platform():
    assert unbound("new() panics for a larger capacity on a 64-bit target.", NEW) == []
    assert unbound("values holds a 64-bit count.", NEW) == ["64"]
