"""Round 15 (issue 30): the items of a ``cfg_if!`` invocation are the module's own.

A macro's body is tokens to the parser, so ``thread_id.rs::try_get``,
defined once in each branch of a ``cfg_if! { if #[cfg(...)] { ... } else
{ ... } }``, was no symbol at all and an anchor on it was refused. The
wrapper is read as blank bytes (lines and offsets unchanged) and each
branch's items as the module's; a name both branches define is one item
per configuration, which the anchor lookup reads as all of them.
"""

from __future__ import annotations

from memvet._code import cfg_if_branches, imports, symbol_table
from memvet._code._symbols import parse_input

THREAD_ID = b"""\
use std::cell::Cell;

pub(crate) struct Thread {
    pub(crate) id: usize,
}

cfg_if::cfg_if! {
    if #[cfg(feature = "nightly")] {
        #[thread_local]
        static mut THREAD: Option<Thread> = None;

        pub(crate) fn try_get() -> Option<Thread> {
            unsafe { THREAD }
        }
    } else {
        thread_local! { static THREAD: Cell<Option<Thread>> = const { Cell::new(None) }; }

        pub(crate) fn try_get() -> Option<Thread> {
            THREAD.with(|thread| thread.get())
        }

        fn get_slow(thread: &Cell<Option<Thread>>) -> Thread {
            let new = Thread::new(0);
            thread.set(Some(new));
            new
        }
    }
}

fn after() -> usize {
    1
}
"""


def test_the_branches_items_are_symbols_where_they_are_written():
    table = symbol_table(THREAD_ID, "rust")
    names = {sym.name: sym for sym in table.symbols.values()}
    assert {"Thread", "THREAD", "try_get", "get_slow", "after"} <= set(names)
    tries = [sym for sym in table.symbols.values() if sym.name == "try_get"]
    assert [(sym.start_line, sym.end_line) for sym in tries] == [(12, 14), (18, 20)]
    assert names["after"].start_line == 30  # lines below the invocation stay where they were


def test_the_wrapper_is_blank_bytes_and_the_branches_are_kept():
    opened = parse_input(THREAD_ID, "rust")
    assert len(opened) == len(THREAD_ID) and opened.count(b"\n") == THREAD_ID.count(b"\n")
    assert b"cfg_if" not in opened and b"else" not in opened
    assert b"pub(crate) fn try_get()" in opened
    assert cfg_if_branches(THREAD_ID) == [(8, 15), (15, 27)]


def test_the_same_function_hashes_alike_in_and_out_of_the_macro():
    inside = next(s for s in symbol_table(THREAD_ID, "rust").symbols.values() if s.name == "get_slow")
    alone = symbol_table(b"fn get_slow(thread: &Cell<Option<Thread>>) -> Thread {\n"
                         b"    let new = Thread::new(0);\n    thread.set(Some(new));\n    new\n}\n", "rust")
    assert inside.hash == next(iter(alone.symbols.values())).hash


def test_another_macro_stays_tokens():
    data = b"// no cfg_if here\nlazy_static! {\n    static ref ITEMS: Vec<u8> = vec![1];\n}\nfn f() {}\n"
    assert parse_input(data, "rust") == data
    assert cfg_if_branches(data) == []
    assert [s.name for s in symbol_table(data, "rust").symbols.values()] == ["f"]


def test_a_use_in_a_branch_is_an_import():
    data = (b"use std::cell::Cell;\n\ncfg_if::cfg_if! {\n    if #[cfg(unix)] {\n        use libc::getpid;\n"
            b"    } else {\n        use std::process::id;\n    }\n}\n")
    assert imports(data, "rust") == [("std::cell::Cell", 1), ("libc::getpid", 5), ("std::process::id", 7)]


# Round 16: pin-project-lite's `pin_project! { ... }` holds the crate's items as written.
PINNED = b"""\
pin_project! {
    #[project(!Unpin)]
    pub struct Receiver<T> {
        channel: Arc<Channel<T>>,
        #[pin]
        _pin: PhantomPinned
    }

    impl<T> PinnedDrop for Receiver<T> {
        fn drop(this: Pin<&mut Self>) {
            this.project().channel.close();
        }
    }
}

impl<T> Receiver<T> {
    pub fn close(&self) -> bool {
        self.channel.close()
    }
}
"""


def test_the_items_of_pin_project_are_symbols_and_no_configuration():
    table = symbol_table(PINNED, "rust")
    assert {"Receiver", "<Receiver as PinnedDrop>.drop", "Receiver.close"} <= set(table.symbols)
    receiver = table.symbols["Receiver"]
    assert (receiver.start_line, receiver.end_line) == (2, 7)  # its attribute is its own
    opened = parse_input(PINNED, "rust")
    assert len(opened) == len(PINNED) and b"pin_project" not in opened
    assert cfg_if_branches(PINNED) == []  # one definition, no platform's
    # a macro of another name with a body of items stays tokens
    other = PINNED.replace(b"pin_project!", b"easy_wrapper!")
    assert "Receiver" not in symbol_table(other, "rust").symbols


# Round 28: getrandom writes `cfg_if::cfg_if!( ... );`, which the parser reads as a
# statement around the macro call; its branches' items were no symbols, and an
# anchor on `error.rs::RawOsError` was refused although both branches define it.
PARENTHESIZED = b"""\
use core::fmt;

cfg_if::cfg_if!(
    if #[cfg(target_os = "uefi")] {
        pub type RawOsError = usize;
        const UEFI_ERROR_FLAG: RawOsError = 1 << (RawOsError::BITS - 1);
    } else {
        pub type RawOsError = i32;
    }
);

pub struct Error(u32);
"""


def test_a_parenthesized_cfg_if_statement_opens_too():
    table = symbol_table(PARENTHESIZED, "rust")
    aliases = [s for s in table.symbols.values() if s.name == "RawOsError"]
    assert [(s.start_line, s.end_line) for s in aliases] == [(5, 5), (8, 8)]
    assert {"UEFI_ERROR_FLAG", "Error"} <= {s.name for s in table.symbols.values()}
    assert cfg_if_branches(PARENTHESIZED) == [(4, 7), (7, 9)]
    opened = parse_input(PARENTHESIZED, "rust")
    assert len(opened) == len(PARENTHESIZED) and b"cfg_if" not in opened


def test_a_statement_that_is_no_macro_call_stays_as_it_is():
    # a function-like macro called with a semicolon, but not cfg_if, keeps its body as tokens
    data = b"// cfg_if is named in this comment only\nitems!(\n    pub type Alias = u8;\n);\nfn f() {}\n"
    assert parse_input(data, "rust") == data
    assert [s.name for s in symbol_table(data, "rust").symbols.values()] == ["f"]
