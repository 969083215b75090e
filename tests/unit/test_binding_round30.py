"""Binding and anchoring classes of issue 30's round 30 (tuning sets: bits-and-blooms/bitset,
unjs/untyped, google/btree and unjs/magic-regexp after their sealed runs, and four sets
written blind at the round's start: shopspring/decimal, smol-rs/event-listener,
pytest-dev/pytest-timeout, unjs/httpxy).

Each case both ways.
"""

from __future__ import annotations

import pytest
from _binding import ev, person_write, unbound

import memvet
from memvet._errors import AmbiguousSymbolError

# ------------------------------------------------------ a number written with thousands separators

BTREE_MEM = ev("btree_mem.go", """\
var (
    size   = flag.Int("size", 1000000, "size of the tree to build")
    degree = flag.Int("degree", 8, "degree of btree")
)
""", "go")


def test_a_number_with_thousands_separators_is_one_number():
    assert unbound("flags -size (default 1,000,000) and -degree (default 8).", BTREE_MEM) == []


def test_a_number_with_thousands_separators_is_compared_by_its_value():
    assert unbound("flags -size (default 100,000) and -degree (default 8).", BTREE_MEM) == ["100,000"]


def test_numbers_in_a_list_are_no_thousands():
    # "8, 100": a list, its items each a number of their own
    assert unbound("the defaults are 8, 100 and 1000000.", BTREE_MEM) == ["100"]


# ------------------------------------------------------ one statement that assigns several names

CLEAR = ev("btree.go::BTree.Clear", """\
func (t *BTree) Clear(addNodesToFreelist bool) {
    if t.root != nil && addNodesToFreelist {
        t.root.reset(t.cow)
    }
    t.root, t.length = nil, 0
}
""", "go")


def test_a_name_set_in_a_parallel_assignment_binds_to_its_own_value():
    assert unbound("Clear(false) is just root=nil, length=0.", CLEAR) == []


def test_a_parallel_assignment_gives_each_name_only_its_own_value():
    assert unbound("Clear(false) is just root=0, length=nil.", CLEAR) == ["root=0", "length=nil"]


ENCODE_JSON = ev("httpx/_content.py::encode_json", """\
def encode_json(json):
    body = json_dumps(
        json, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    ).encode("utf-8")
    return body
""", "python")


def test_a_call_s_arguments_going_on_are_no_parallel_assignment():
    assert unbound("json= bodies are dumped with ensure_ascii=False and allow_nan=False.", ENCODE_JSON) == []


# ------------------------------------------------------ one entry of an object literal or a header, backticked

DELETE_LENGTH = ev("src/web-incoming.ts::deleteLength", """\
export const deleteLength = (req) => {
  if ((req.method === "DELETE" || req.method === "OPTIONS") && !req.headers["content-length"]) {
    req.headers["content-length"] = "0";
    delete req.headers["transfer-encoding"];
  }
};
""", "typescript")


def test_an_entry_written_as_a_header_line_binds_as_the_value_the_code_sets():
    assert unbound("deleteLength forces `content-length: 0` on DELETE/OPTIONS.", DELETE_LENGTH) == []


def test_an_entry_with_another_value_stays_unbound():
    assert unbound("deleteLength forces `content-length: 1` on DELETE/OPTIONS.", DELETE_LENGTH) \
        == ["content-length: 1"]


# ------------------------------------------------------ a Rust method named by the file's own type

INTRUSIVE_RS = """\
use crate::notify::Notification;

struct Inner<T> {
    notified: usize,
    _tag: T,
}

impl<T> crate::Inner<T> {
    pub(crate) fn notify(&self, notify: impl Notification<Tag = T>) -> usize {
        self.with_inner(|inner| inner.notify(notify))
    }

    fn drain(&self) {
        struct Guard;
        impl Drop for Guard {
            fn drop(&mut self) {}
        }
    }
}

impl<T> Inner<T> {
    fn notify(&mut self, mut notify: impl Notification<Tag = T>) -> usize {
        let n = notify.count();
        if n < self.notified {
            return 0;
        }
        n - self.notified
    }
}
"""

TWO_LOCAL_RS = """\
struct Inner;
struct Outer;

impl Inner {
    fn notify(&self) -> usize {
        1
    }
}

mod other {
    impl super::Outer {
        fn notify(&self) -> usize {
            2
        }
    }
}

impl Inner {
    fn notify(&mut self) -> usize {
        3
    }
}
"""


def test_a_method_of_the_file_s_own_type_is_named_by_the_type_s_name(repo, ledger) -> None:
    repo.write("src/intrusive.rs", INTRUSIVE_RS, dedent=False)
    repo.commit("list")
    decision, status = person_write(ledger, "list notify returns 0 right away if n < notified.",
                                    ["src/intrusive.rs::Inner.notify"])
    assert [a.name for a in decision.anchors] == ["Inner.notify(&mut self,impl Notification<Tag=T>)"]
    assert status is memvet.Status.VERIFIED


def test_a_name_two_impls_of_the_file_s_own_type_define_stays_ambiguous(repo, ledger) -> None:
    repo.write("src/two.rs", TWO_LOCAL_RS, dedent=False)
    repo.commit("two")
    with pytest.raises(AmbiguousSymbolError):
        ledger.record("notify returns a count.", ["src/two.rs::Inner.notify"], author=memvet.Author.person("p"))


# ------------------------------------------------------ a pattern the code writes in a string, its escapes read

INPUTS_TS = ev("src/core/inputs.ts", """\
export const word = createInput('\\\\b\\\\w+\\\\b')
export const not = {
  tab: createInput('[^\\\\t]'),
}
""", "typescript")


def test_a_pattern_binds_to_the_string_that_writes_it_with_escaped_backslashes():
    assert unbound("`word` isn't just \\w+, it's `\\b\\w+\\b`.", INPUTS_TS) == []
    assert unbound("not.tab compiles to `[^\\t]`.", INPUTS_TS) == []


def test_another_pattern_stays_unbound():
    assert unbound("`word` is `\\b\\w*\\b`.", INPUTS_TS) == ["\\b\\w*\\b"]
    assert unbound("not.tab compiles to `[^\\n]`.", INPUTS_TS) == ["[^\\n]"]


# ------------------------------------------------------ a release named the way its tag is

SETUP_CFG = ev("setup.cfg", """\
[metadata]
name = pytest-timeout
version = 2.5.0

[options]
python_requires = >=3.10
""", None)


def test_a_release_named_with_a_v_binds_to_the_version_the_manifest_gives():
    assert unbound("python_requires >=3.10 (setup.cfg, v2.5.0).", SETUP_CFG) == []


def test_another_release_stays_unbound():
    assert unbound("python_requires >=3.10 (setup.cfg, v2.6.0).", SETUP_CFG) == ["v2.6.0"]


# ------------------------------------------------------ a file of the repository, named by its name in prose

GO_MOD = "module github.com/bits-and-blooms/bitset\n\ngo 1.16\n"


def test_a_file_named_in_prose_binds_where_the_repository_has_it(repo, ledger) -> None:
    repo.write("go.mod", GO_MOD, dedent=False)
    repo.write("go.sum", "", dedent=False)
    repo.commit("module")
    _, status = person_write(ledger, "go.mod has no require block at all (go.sum is empty).", ["go.mod"])
    assert status is memvet.Status.VERIFIED


def test_a_file_the_repository_lacks_stays_unbound(repo, ledger) -> None:
    repo.write("go.mod", GO_MOD, dedent=False)
    repo.commit("module")
    _, status = person_write(ledger, "go.mod has no require block at all (go.sum is empty).", ["go.mod"])
    assert status is not memvet.Status.VERIFIED
