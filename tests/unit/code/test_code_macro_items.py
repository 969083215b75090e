"""Round 34 (issue 30): the items a ``macro_rules!`` body writes are symbols.

chris-morgan/anymap writes its whole API inside one macro, called once for
std's ``HashMap`` and once for hashbrown's. The parser reads a macro's body
as tokens, so ``src/lib.rs::Map.insert`` was no symbol and ten true claims
anchored on the API were refused as anchors that do not resolve. Each braced
transcriber is now read on its own, every other byte blank (lines and
offsets unchanged): its items are the file's, unless the file names them
itself or their name holds a metavariable.
"""

from __future__ import annotations

import memvet
from memvet._code import symbol_table
from memvet._code._symbols import CodeFile, macro_items_view

EVERYTHING = b"""\
use core::any::Any;

macro_rules! everything {
    ($example:literal, $($parent:ident)::+) => {
        use ::$($parent)::+::hash_map::HashMap;

        pub type RawMap<A> = HashMap<TypeId, Box<A>>;

        pub struct Map<A: ?Sized = dyn Any> {
            raw: RawMap<A>,
        }

        pub type AnyMap = Map<dyn Any>;

        impl<A: ?Sized> Map<A> {
            #[doc = $example]
            pub fn insert<T: IntoBox<A>>(&mut self, value: T) -> Option<T> {
                self.raw.insert(TypeId::of::<T>(), value.into_box())
                    .map(|any| unsafe { *any.downcast_unchecked::<T>() })
            }
        }
    };
}

everything!("let mut data = anymap::AnyMap::new();", std::collections);

pub struct TypeIdHasher {
    value: u64,
}
"""


def test_a_macro_body_s_items_are_symbols_where_they_are_written() -> None:
    table = symbol_table(EVERYTHING, "rust")
    lines = {q: (sym.kind, sym.start_line, sym.end_line) for q, sym in table.symbols.items()}
    assert lines["RawMap"] == ("type", 7, 7)
    assert lines["Map"] == ("struct", 9, 11)
    assert lines["AnyMap"] == ("type", 13, 13)
    assert lines["Map.insert"] == ("method", 16, 20)
    assert lines["everything"] == ("macro", 3, 23)  # the macro is a symbol as before
    assert lines["TypeIdHasher"] == ("struct", 27, 29)  # and so is what follows it
    assert list(table.symbols) == ["everything", "RawMap", "Map", "AnyMap", "Map.insert", "TypeIdHasher"]


def test_one_lookup_the_outline_and_the_table_agree() -> None:
    alone = CodeFile(EVERYTHING, "rust").symbol("Map.insert")
    table = CodeFile(EVERYTHING, "rust").table()
    assert alone is not None and alone == table.symbols["Map.insert"]
    assert set(CodeFile(EVERYTHING, "rust").outline().symbols) == set(table.symbols)
    found = CodeFile(EVERYTHING, "rust").containing([b"into_box"])
    assert [sym.qualname for sym in found] == ["everything", "Map.insert"]


def test_a_method_hashes_alike_in_and_out_of_the_macro() -> None:
    inside = symbol_table(EVERYTHING, "rust").symbols["Map.insert"]
    alone = symbol_table(b"impl<A: ?Sized> Map<A> {\n"
                         b"    #[doc = $example]\n"
                         b"    pub fn insert<T: IntoBox<A>>(&mut self, value: T) -> Option<T> {\n"
                         b"        self.raw.insert(TypeId::of::<T>(), value.into_box())\n"
                         b"            .map(|any| unsafe { *any.downcast_unchecked::<T>() })\n"
                         b"    }\n}\n", "rust").symbols["Map.insert"]
    assert inside.hash == alone.hash


def test_the_file_s_own_definition_wins_over_a_macro_s() -> None:
    data = b"macro_rules! twice {\n    () => {\n        fn helper() -> u8 { 2 }\n    };\n}\n\n" \
           b"fn helper() -> u8 {\n    1\n}\n"
    helper = symbol_table(data, "rust").symbols["helper"]
    assert (helper.start_line, helper.end_line) == (7, 9)


def test_a_name_with_a_metavariable_is_no_symbol() -> None:
    data = b"macro_rules! impl_zero {\n    ($t:ty) => {\n        impl Zero for $t {\n" \
           b"            fn zero() -> $t { 0 }\n        }\n        fn $t() {}\n    };\n}\n"
    assert list(symbol_table(data, "rust").symbols) == ["impl_zero"]


def test_an_expression_macro_and_a_file_without_macros_add_nothing() -> None:
    data = b"macro_rules! add_one {\n    ($e:expr) => {\n        $e + 1\n    };\n}\n\n" \
           b"fn f() -> u8 {\n    add_one!(1)\n}\n"
    assert list(symbol_table(data, "rust").symbols) == ["add_one", "f"]
    plain = b"fn f() {}\n"
    assert macro_items_view(plain) is None
    assert macro_items_view(b"macro_rules! m {\n    () => ( 1 );\n}\n") is None  # no braced body to read
    assert list(symbol_table(plain, "rust").symbols) == ["f"]


def test_the_view_keeps_every_byte_and_line_in_place() -> None:
    view = macro_items_view(EVERYTHING)
    assert view is not None and len(view) == len(EVERYTHING) and view.count(b"\n") == EVERYTHING.count(b"\n")
    assert b"macro_rules" not in view and b"TypeIdHasher" not in view and b"pub struct Map" in view


def test_an_anchor_on_a_macro_body_s_item_holds_and_follows_an_edit(repo, ledger) -> None:
    repo.write("Cargo.toml", '[package]\nname = "anymap"\nversion = "1.0.0"\n', dedent=False)
    repo.write("src/lib.rs", EVERYTHING.decode(), dedent=False)
    repo.commit("crate")
    rec = ledger.record("Map::insert returns the old value through downcast_unchecked.", ["src/lib.rs::Map.insert"],
                        author=memvet.Author.person("p"))
    assert rec.decision.findings == ()
    assert ledger.verify(rec.decision.id).status is memvet.Status.VERIFIED
    repo.write("src/lib.rs", EVERYTHING.decode().replace("value.into_box()", "Box::new(value)"), dedent=False)
    repo.commit("box it by hand")
    verdict = ledger.verify(rec.decision.id)
    assert verdict.status is memvet.Status.STALE
    assert "src/lib.rs::Map.insert: the body changed since" in verdict.reason
