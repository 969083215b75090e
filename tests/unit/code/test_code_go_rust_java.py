"""Go, Rust and Java symbols, spans, hashes and imports."""

from __future__ import annotations

from memvet._code import imports, symbol_table

GO = """\
package main

import (
\t"fmt"
\talias "net/http" // "commented/pkg"
)
import "os"

const Max = 3

var (
\ta = 1
)

type Stack[T any] struct {
\titems []T
}

type Reader interface {
\tRead(p []byte) (int, error)
}

type ID = string

func (s *Stack[T]) Push(v T) {
\ts.items = append(s.items, v)
}

func (s Stack[T]) Len() int { return len(s.items) }

// Helper does things.
func Helper(a, b int, c string) error {
\tfmt.Println("import \\"fake\\"")
\treturn nil
}
"""


def test_go_symbols():
    t = symbol_table(GO.encode(), "go")
    assert list(t.symbols) == [
        "Max",
        "a",
        "Stack",
        "Reader",
        "Reader.Read",
        "ID",
        "Stack.Push",
        "Stack.Len",
        "Helper",
    ]
    kinds = {q: s.kind for q, s in t.symbols.items()}
    assert kinds["Stack"] == "struct"
    assert kinds["Reader"] == "interface"
    assert kinds["Stack.Push"] == kinds["Stack.Len"] == "method"
    assert kinds["Helper"] == "function"
    assert kinds["Max"] == "const"
    helper = t.symbols["Helper"]
    assert (helper.start_line, helper.end_line) == (32, 35)
    assert t.symbols["Stack"].start_line == 15  # the `type` keyword line


def test_go_hash_ignores_comments_and_layout():
    t = symbol_table(GO.encode(), "go")
    edited = GO.replace("\treturn nil", "\t// done\n\n\treturn   nil")
    assert symbol_table(edited.encode(), "go").symbols["Helper"].hash == t.symbols["Helper"].hash
    edited = GO.replace("\treturn nil", "\treturn err")
    assert symbol_table(edited.encode(), "go").symbols["Helper"].hash != t.symbols["Helper"].hash


def test_go_imports():
    assert imports(GO.encode(), "go") == [("fmt", 4), ("net/http", 5), ("os", 7)]


RUST = """\
use std::collections::{HashMap, hash_map::Entry as E};
use serde::*;
use crate::a::b;
extern crate foo;
// use commented::thing;

/// A point.
#[derive(Debug)]
#[serde(rename = "p")]
pub struct Point {
    x: i32,
}

impl Point {
    pub fn new() -> Self {
        Point { x: 0 }
    }
}

impl<T> fmt::Display for Wrapper<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, r#"raw "quoted" {}"#, 1)
    }
}

trait Shape {
    fn area(&self) -> f64;
}

mod outer {
    pub fn f() {}
    mod inner {
        fn g() {}
    }
}

const K: u32 = 1;

#[test]
fn it_works() {
    let s = "use fake::module;";
}
"""


def test_rust_symbols():
    t = symbol_table(RUST.encode(), "rust")
    assert list(t.symbols) == [
        "Point",
        "Point.new",
        "<Wrapper as Display>",  # a trait impl is an item of its own
        "<Wrapper as Display>.fmt",
        "Shape",
        "Shape.area",
        "outer",
        "outer.f",
        "outer.inner",
        "outer.inner.g",
        "K",
        "it_works",
    ]
    assert t.symbols["Point"].start_line == 8  # attributes, not the doc comment
    assert t.symbols["it_works"].start_line == 39
    kinds = {q: s.kind for q, s in t.symbols.items()}
    assert kinds["Point.new"] == kinds["<Wrapper as Display>.fmt"] == kinds["Shape.area"] == "method"
    assert kinds["outer.f"] == "function"
    assert kinds["outer"] == "module"
    assert kinds["Shape"] == "trait"
    assert kinds["<Wrapper as Display>"] == "impl"
    assert t.symbols["<Wrapper as Display>"].name == "<Wrapper as Display>"  # its own name, not the type's
    assert t.symbols["<Wrapper as Display>.fmt"].name == "Wrapper.fmt"  # its members keep the type's


def test_a_rust_trait_impl_block_spans_its_header_and_members():
    src = ("struct G<T, F> { value: T, f: F }\n"
           "unsafe impl<T, F> Sync for G<T, F>\nwhere\n    T: Sync,\n{}\n"
           "impl<T: fmt::Debug, F> fmt::Debug for G<T, F> {\n    fn fmt(&self) {}\n}\n")
    t = symbol_table(src.encode(), "rust")
    sync, debug = t.symbols["<G as Sync>"], t.symbols["<G as Debug>"]
    assert (sync.start_line, sync.end_line, debug.start_line, debug.end_line) == (2, 5, 6, 8)
    bound = src.replace("    T: Sync,", "    T: Sync + Send,")
    assert symbol_table(bound.encode(), "rust").symbols["<G as Sync>"].hash != sync.hash  # a bound is its body
    assert t.lookup("G") == [t.symbols["G"]]  # the struct alone answers to the type's name


def test_two_impls_of_one_trait_for_one_type_stay_scopes():
    src = ('#[cfg(unix)]\nimpl Tr for P { fn f(&self) {} }\n'
           '#[cfg(windows)]\nimpl Tr for P { fn f(&self) {} }\n')
    names = list(symbol_table(src.encode(), "rust").symbols)
    assert "<P as Tr>" not in names and len(names) == 2  # no item of one name; the members as before


def test_rust_attribute_and_raw_string_in_hash():
    t = symbol_table(RUST.encode(), "rust")
    edited = RUST.replace('#[serde(rename = "p")]', '#[serde(rename = "q")]')
    assert symbol_table(edited.encode(), "rust").symbols["Point"].hash != t.symbols["Point"].hash
    edited = RUST.replace('r#"raw "quoted" {}"#', 'r#"raw  "quoted" {}"#')
    fmt = "<Wrapper as Display>.fmt"
    assert symbol_table(edited.encode(), "rust").symbols[fmt].hash != t.symbols[fmt].hash
    edited = RUST.replace("/// A point.", "/// A point, reworded.")
    assert symbol_table(edited.encode(), "rust").symbols["Point"].hash == t.symbols["Point"].hash


def test_rust_trait_impls_of_same_method_are_told_apart():
    src = (
        "impl fmt::Display for P { fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) } }\n"
        "impl fmt::Debug for P { fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Err(()) } }\n"
    )
    t = symbol_table(src.encode(), "rust")
    assert list(t.symbols) == ["<P as Display>", "<P as Display>.fmt", "<P as Debug>",
                               "<P as Debug>.fmt"]  # by trait, not by order
    assert len(t.lookup("P.fmt")) == 2


def test_rust_imports():
    assert imports(RUST.encode(), "rust") == [
        ("std::collections::HashMap", 1),
        ("std::collections::hash_map::Entry", 1),
        ("serde", 2),
        ("crate::a::b", 3),
        ("foo", 4),
    ]


JAVA = """\
package a.b;

import java.util.List;
import java.io.*;
import static org.junit.Assert.assertEquals;
// import com.fake.Commented;

/** Javadoc. */
@Deprecated
public class CopyUtils {
    private static final int BUF = 4096;

    public CopyUtils() {}

    public CopyUtils(int size) {}

    @Override
    public static void copy(byte[] input, OutputStream output) throws IOException {
        String s = "import com.fake.InString;";
    }

    public static void copy(final Map<String, List<X>> in, String... rest) {}

    public void single() {}

    class Inner {
        void m() {}
    }

    interface Listener { void on(); }

    enum Mode { A, B; void e() {} }

    record Pair(int a, int b) {}
}
"""


def test_java_symbols_and_overloads():
    t = symbol_table(JAVA.encode(), "java")
    assert list(t.symbols) == [
        "CopyUtils",
        "CopyUtils.BUF",
        "CopyUtils.CopyUtils()",
        "CopyUtils.CopyUtils(int)",
        "CopyUtils.copy(byte[],OutputStream)",
        "CopyUtils.copy(Map,String[])",
        "CopyUtils.single()",
        "CopyUtils.Inner",
        "CopyUtils.Inner.m()",
        "CopyUtils.Listener",
        "CopyUtils.Listener.on()",
        "CopyUtils.Mode",
        "CopyUtils.Mode.A",
        "CopyUtils.Mode.B",
        "CopyUtils.Mode.e()",
        "CopyUtils.Pair",
    ]
    assert [s.qualname for s in t.lookup("CopyUtils.copy")] == [
        "CopyUtils.copy(byte[],OutputStream)",
        "CopyUtils.copy(Map,String[])",
    ]
    assert [s.qualname for s in t.lookup("CopyUtils.single")] == ["CopyUtils.single()"]
    copy = t.symbols["CopyUtils.copy(byte[],OutputStream)"]
    assert (copy.start_line, copy.end_line) == (17, 20)  # from the annotation
    assert t.symbols["CopyUtils"].start_line == 9  # annotation, not javadoc
    kinds = {q: s.kind for q, s in t.symbols.items()}
    assert kinds["CopyUtils.Pair"] == "record"
    assert kinds["CopyUtils.Mode"] == "enum"
    assert kinds["CopyUtils.CopyUtils()"] == "constructor"
    assert kinds["CopyUtils.Mode.A"] == "const"


def test_java_annotation_is_in_hash():
    t = symbol_table(JAVA.encode(), "java")
    key = "CopyUtils.copy(byte[],OutputStream)"
    edited = JAVA.replace("    @Override\n", "")
    assert symbol_table(edited.encode(), "java").symbols[key].hash != t.symbols[key].hash
    edited = JAVA.replace("/** Javadoc. */", "/** Javadoc, reworded. */")
    assert symbol_table(edited.encode(), "java").symbols["CopyUtils"].hash == t.symbols["CopyUtils"].hash


def test_java_imports():
    assert imports(JAVA.encode(), "java") == [
        ("java.util.List", 3),
        ("java.io", 4),
        ("org.junit.Assert.assertEquals", 5),
    ]
