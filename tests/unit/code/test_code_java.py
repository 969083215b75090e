"""Java qualified names: nested, anonymous and local classes, enum constant
bodies, and signatures matched after erasure (issue 16).

The fixtures follow patterns of real projects: a ``Runnable`` tailer whose
own ``run()`` sits beside anonymous ``Runnable``s (commons-io's ``Tailer``),
a test runner building an anonymous ``Statement`` inside a method (JUnit 4's
``BlockJUnit4ClassRunner.runChild``), enum constants with bodies, generic
and varargs overloads (Mockito's ``AdditionalMatchers``).
"""

from __future__ import annotations

import pytest

import memvet
from memvet import Status
from memvet._code import follow, symbol_table
from memvet._code._java import (
    anonymous_name,
    drop_signatures,
    erase_parameter,
    normalize_qualname,
    normalize_signature,
    split_signature,
)
from memvet._code._model import _arity

TAILER = """\
package org.example.io;

import java.util.concurrent.Executor;

public class Tailer implements Runnable {
    private static final Runnable NOOP = new Runnable() {
        @Override
        public void run() {
            // nothing
        }
    };

    private final Executor executor;

    static {
        Thread hook = new Thread(new Runnable() {
            public void run() { System.out.println("static"); }
        });
    }

    public Tailer(Executor executor) {
        this.executor = executor;
    }

    @Override
    public void run() {
        long position = 0;
        position += read();
    }

    public void start() {
        executor.execute(new Runnable() {
            public void run() { Tailer.this.run(); }
        });
        executor.execute(new java.lang.Runnable() {
            public void run() { stop(); }
        });
        class Watchdog {
            void run() { stop(); }
        }
        new Watchdog().run();
    }

    public void stop() {}

    private long read() { return 1L; }

    static class Inner {
        public void run() { }
    }
}
"""

RUNNER = """\
public class Runner<T> extends ParentRunner<T> {
    protected void runChild(final FrameworkMethod method, RunNotifier notifier) {
        Statement statement = new Statement() {
            @Override
            public void evaluate() throws Throwable {
                methodBlock(method).evaluate();
            }
        };
        runLeaf(statement, describeChild(method), notifier);
    }

    protected Statement methodBlock(FrameworkMethod method) {
        Comparator<java.util.Map.Entry<String, Integer>> byValue =
            new java.util.Comparator<java.util.Map.Entry<String, Integer>>() {
                public int compare(Map.Entry<String, Integer> a, Map.Entry<String, Integer> b) {
                    return a.getValue() - b.getValue();
                }
            };
        return null;
    }
}
"""

MODE = """\
public enum IOCase {
    SENSITIVE("Sensitive") {
        @Override
        boolean matches(String a, String b) { return a.equals(b); }
    },
    INSENSITIVE("Insensitive") {
        @Override
        boolean matches(String a, String b) { return a.equalsIgnoreCase(b); }
    },
    SYSTEM("System");

    private final String name;

    IOCase(String name) { this.name = name; }

    boolean matches(String a, String b) { return a.equals(b); }
}
"""

MATCHERS = """\
public class AdditionalMatchers {
    public static <T extends Comparable<T>> T gt(T value) { return value; }
    public static byte gt(byte value) { return 0; }
    public static boolean anyOf(boolean... values) { return false; }
    public static int anyOf(int[] values) { return 0; }
    public void render(final java.io.Writer out, @Nullable int depth, List<String> lines) {}
    public static <K, V> Map<K, V> merge(Map<? extends K, ? extends V> a, Map.Entry<K, V>[] more) { return null; }
    private void matrix(int grid[][], String[]... rows) {}
    public void annotated(@Size(max = 3, min = 1) @Valid final String name) {}
    public void receiver(AdditionalMatchers this, int n) {}
}
"""


def _names(src: str) -> list[str]:
    return list(symbol_table(src.encode(), "java").symbols)


# ----------------------------------------------------------------- naming


def test_anonymous_local_and_inner_classes_have_their_own_names():
    assert _names(TAILER) == [
        "Tailer",
        "Tailer.NOOP",
        "Tailer.NOOP.<anonymous Runnable>.run()",
        "Tailer.executor",
        "Tailer.<anonymous Runnable>.run()",  # the static initializer's
        "Tailer.Tailer(Executor)",
        "Tailer.run()",
        "Tailer.start()",
        "Tailer.start().<anonymous Runnable>.run()",
        "Tailer.start().<anonymous Runnable>#2.run()",
        "Tailer.start().Watchdog",
        "Tailer.start().Watchdog.run()",
        "Tailer.stop()",
        "Tailer.read()",
        "Tailer.Inner",
        "Tailer.Inner.run()",
    ]


def test_outer_run_means_exactly_the_outer_method():
    t = symbol_table(TAILER.encode(), "java")
    assert [s.qualname for s in t.lookup("Tailer.run")] == ["Tailer.run()"]
    assert [s.qualname for s in t.lookup("Tailer.run()")] == ["Tailer.run()"]
    # The two anonymous Runnables of start() share a bare name: ambiguous.
    assert [s.qualname for s in t.lookup("Tailer.start.<anonymous Runnable>.run")] == [
        "Tailer.start().<anonymous Runnable>.run()",
        "Tailer.start().<anonymous Runnable>#2.run()",
    ]
    kinds = {q: s.kind for q, s in t.symbols.items()}
    assert kinds["Tailer.start().<anonymous Runnable>.run()"] == "method"
    assert kinds["Tailer.start().Watchdog"] == "class"


def _hash(src: str, qualname: str) -> str:
    return symbol_table(src.encode(), "java").symbols[qualname].hash


def test_a_change_to_an_anonymous_run_is_not_a_change_to_outer_run():
    edited = TAILER.replace("public void run() { Tailer.this.run(); }", "public void run() { stop(); }")
    assert edited != TAILER
    assert _hash(edited, "Tailer.run()") == _hash(TAILER, "Tailer.run()")
    assert _hash(edited, "Tailer.start().<anonymous Runnable>.run()") != _hash(
        TAILER, "Tailer.start().<anonymous Runnable>.run()")
    # The static initializer's and the field's anonymous classes likewise.
    edited = TAILER.replace('System.out.println("static")', 'System.out.println("changed")')
    assert _hash(edited, "Tailer.run()") == _hash(TAILER, "Tailer.run()")


def test_a_change_to_outer_run_is_not_a_change_to_the_anonymous_ones():
    edited = TAILER.replace("position += read();", "position -= read();")
    assert _hash(edited, "Tailer.run()") != _hash(TAILER, "Tailer.run()")
    for q in ("Tailer.NOOP.<anonymous Runnable>.run()", "Tailer.<anonymous Runnable>.run()",
              "Tailer.start().<anonymous Runnable>.run()", "Tailer.start().Watchdog.run()",
              "Tailer.Inner.run()"):
        assert _hash(edited, q) == _hash(TAILER, q), q


def test_anonymous_class_inside_a_method_is_scoped_by_the_method():
    t = symbol_table(RUNNER.encode(), "java")
    assert list(t.symbols) == [
        "Runner",
        "Runner.runChild(FrameworkMethod,RunNotifier)",
        "Runner.runChild(FrameworkMethod,RunNotifier).<anonymous Statement>.evaluate()",
        "Runner.methodBlock(FrameworkMethod)",
        "Runner.methodBlock(FrameworkMethod).<anonymous Comparator>.compare(Entry,Entry)",
    ]
    assert [s.qualname for s in t.lookup("Runner.runChild.<anonymous Statement>.evaluate")] == [
        "Runner.runChild(FrameworkMethod,RunNotifier).<anonymous Statement>.evaluate()"]


def test_enum_constant_bodies_are_scopes_and_constants_are_symbols():
    t = symbol_table(MODE.encode(), "java")
    assert list(t.symbols) == [
        "IOCase",
        "IOCase.SENSITIVE",
        "IOCase.SENSITIVE.matches(String,String)",
        "IOCase.INSENSITIVE",
        "IOCase.INSENSITIVE.matches(String,String)",
        "IOCase.SYSTEM",
        "IOCase.name",
        "IOCase.IOCase(String)",
        "IOCase.matches(String,String)",
    ]
    assert [s.qualname for s in t.lookup("IOCase.matches")] == ["IOCase.matches(String,String)"]
    edited = MODE.replace("return a.equalsIgnoreCase(b);", "return a.equals(b);")
    assert _hash(edited, "IOCase.matches(String,String)") == _hash(MODE, "IOCase.matches(String,String)")
    assert _hash(edited, "IOCase.INSENSITIVE.matches(String,String)") != _hash(
        MODE, "IOCase.INSENSITIVE.matches(String,String)")
    assert t.symbols["IOCase.SENSITIVE"].kind == "const"


def test_adding_an_overload_renames_nothing():
    before = _names(MATCHERS)
    after = _names(MATCHERS.replace("    public void render(", "    public static char gt(char v) { return v; }\n"
                                                                 "    public void render("))
    assert set(before) < set(after)
    assert set(after) - set(before) == {"AdditionalMatchers.gt(char)"}


# ----------------------------------------------------------------- signatures


def test_signatures_are_erased_in_names():
    assert _names(MATCHERS) == [
        "AdditionalMatchers",
        "AdditionalMatchers.gt(T)",
        "AdditionalMatchers.gt(byte)",
        "AdditionalMatchers.anyOf(boolean[])",
        "AdditionalMatchers.anyOf(int[])",
        "AdditionalMatchers.render(Writer,int,List)",
        "AdditionalMatchers.merge(Map,Entry[])",
        "AdditionalMatchers.matrix(int[][],String[][])",
        "AdditionalMatchers.annotated(String)",
        "AdditionalMatchers.receiver(int)",
    ]


@pytest.mark.parametrize(("spec", "found"), [
    ("AdditionalMatchers.render(Writer,int,List)", "AdditionalMatchers.render(Writer,int,List)"),
    ("AdditionalMatchers.render(Writer, int, List<String>)", "AdditionalMatchers.render(Writer,int,List)"),
    ("AdditionalMatchers.render(java.io.Writer, int, java.util.List<java.lang.String>)",
     "AdditionalMatchers.render(Writer,int,List)"),
    ("AdditionalMatchers.render(final Writer out, @Nullable int depth, List<String> lines)",
     "AdditionalMatchers.render(Writer,int,List)"),
    ("AdditionalMatchers.anyOf(boolean...)", "AdditionalMatchers.anyOf(boolean[])"),
    ("AdditionalMatchers.anyOf(boolean[])", "AdditionalMatchers.anyOf(boolean[])"),
    ("AdditionalMatchers.anyOf(int...)", "AdditionalMatchers.anyOf(int[])"),
    ("AdditionalMatchers.gt(T)", "AdditionalMatchers.gt(T)"),
    ("AdditionalMatchers.merge(Map<K,V>, Map.Entry<K,V>...)", "AdditionalMatchers.merge(Map,Entry[])"),
    ("AdditionalMatchers.matrix(int[][], String[]...)", "AdditionalMatchers.matrix(int[][],String[][])"),
    ("AdditionalMatchers.annotated(@Size(max = 3) String)", "AdditionalMatchers.annotated(String)"),
])
def test_a_signature_finds_its_method(spec, found):
    t = symbol_table(MATCHERS.encode(), "java")
    assert [s.qualname for s in t.lookup(spec)] == [found]


@pytest.mark.parametrize("spec", [
    "AdditionalMatchers.render(Writer,int)",
    "AdditionalMatchers.anyOf(long[])",
    "AdditionalMatchers.gt(int)",
    "AdditionalMatchers.nothing(int)",
    "Elsewhere.render(Writer,int,List)",
])
def test_a_wrong_signature_finds_nothing(spec):
    assert symbol_table(MATCHERS.encode(), "java").lookup(spec) == []


def test_signature_lookup_with_enclosing_signatures_left_out_or_spelled_differently():
    t = symbol_table(RUNNER.encode(), "java")
    want = ["Runner.methodBlock(FrameworkMethod).<anonymous Comparator>.compare(Entry,Entry)"]
    for spec in ("Runner.methodBlock.<anonymous Comparator>.compare(Map.Entry<String,Integer>, Map.Entry)",
                 "Runner.methodBlock(final FrameworkMethod m).<anonymous Comparator>.compare(Entry, Entry)"):
        assert [s.qualname for s in t.lookup(spec)] == want
    assert t.lookup("Runner.methodBlock.<anonymous Comparator>.compare(String,String)") == []


def test_signature_lookup_is_java_only():
    # Python has no signatures in names: a parenthesized name is just not there.
    t = symbol_table(b"def f(x):\n    return x\n", "python")
    assert t.lookup("f(int)") == []


@pytest.mark.parametrize(("text", "erased"), [
    ("final @Nullable java.util.Map<String, List<X>> in", "Map"),
    ("String... rest", "String[]"),
    ("int x[]", "int[]"),
    ("int[] x[]", "int[][]"),
    ("Map.Entry<K, V>", "Entry"),
    ("@Size(max = (3)) int n", "int"),
    ("@org.jetbrains.Nullable Object o", "Object"),
    ("List<? extends Comparable<? super T>> xs", "List"),
    ("Outer this", None),
    ("Outer.Inner Outer.this", None),
    ("boolean", "boolean"),
    ("", None),
])
def test_erase_parameter(text, erased):
    assert erase_parameter(text) == erased


def test_signature_helpers():
    assert normalize_signature("  ") == "()"
    assert normalize_signature("Map<K, V> m, int... xs") == "(Map,int[])"
    assert split_signature("A.b(int, Map<K, V>)") == ("A.b", "int, Map<K, V>")
    assert split_signature("A.b") is None
    assert split_signature("A.b()#2") is None
    assert split_signature("A.b)") is None
    assert normalize_qualname("A.m(Map<K, V>).<anonymous X>.f(final int a)") == "A.m(Map).<anonymous X>.f(int)"
    assert normalize_qualname("A.m(int") == "A.m(int"  # unbalanced: left as written
    assert drop_signatures("A.m(Map).<anonymous X>#2.f(int)#3") == "A.m.<anonymous X>.f"
    assert anonymous_name("java.util.Comparator<Map.Entry<K, V>>") == "<anonymous Comparator>"


# ----------------------------------------------------------------- follow


def test_follow_finds_a_method_whose_signature_changed():
    old = symbol_table(MATCHERS.encode(), "java")
    new = symbol_table(MATCHERS.replace("int depth,", "long depth,").encode(), "java")
    sym = follow(old, new, "AdditionalMatchers.render(Writer,int,List)")
    assert sym is not None and sym.qualname == "AdditionalMatchers.render(Writer,long,List)"
    # Same name: found as is.
    same = follow(old, new, "AdditionalMatchers.gt(T)")
    assert same is not None and same.qualname == "AdditionalMatchers.gt(T)"


def test_follow_never_takes_an_overload_that_was_already_there():
    old = symbol_table(MATCHERS.encode(), "java")
    new = symbol_table(MATCHERS.replace("    public static byte gt(byte value) { return 0; }\n", "").encode(), "java")
    assert follow(old, new, "AdditionalMatchers.gt(byte)") is None  # gt(T) existed before
    assert follow(old, new, "AdditionalMatchers.nothing()") is None
    # Two new overloads of the name: too ambiguous to say which one it became.
    two = MATCHERS.replace("public static int anyOf(int[] values)", "public static int anyOf(long[] values)")
    two = two.replace("public static boolean anyOf(boolean... values)", "public static boolean anyOf(char... values)")
    assert follow(old, symbol_table(two.encode(), "java"), "AdditionalMatchers.anyOf(int[])") is None


def test_follow_without_a_signature_only_takes_the_same_name():
    old = symbol_table(b"def f():\n    return 1\n", "python")
    new = symbol_table(b"def g():\n    return 1\n", "python")
    assert follow(old, new, "f") is None


def test_follow_finds_a_name_recorded_under_older_rules():
    # Hash version 1 named a lone Java method without its signature.
    old = symbol_table(TAILER.encode(), "java")
    sym = follow(old, old, "Tailer.stop")
    assert sym is not None and sym.qualname == "Tailer.stop()"


# ----------------------------------------------------------------- ledger


def test_ledger_records_by_erased_signature_and_follows_changes(repo, ledger):
    repo.write("src/AdditionalMatchers.java", MATCHERS)
    repo.write("src/Tailer.java", TAILER)
    repo.commit("java sources")
    render = ledger.record("render writes lines", [
        "src/AdditionalMatchers.java::AdditionalMatchers.render(java.io.Writer, int, List<String>)"])
    assert render.decision.anchors[0].name == "AdditionalMatchers.render(Writer,int,List)"
    any_of = ledger.record("anyOf takes varargs", ["src/AdditionalMatchers.java::AdditionalMatchers.anyOf(boolean...)"])
    run = ledger.record("run reads the position", ["src/Tailer.java::Tailer.run"])
    assert run.decision.anchors[0].name == "Tailer.run()"

    # A new overload and an edit to an anonymous run(): nothing flags.
    repo.replace("src/AdditionalMatchers.java", "    public void render(",
                 "    public void render(Writer out) {}\n    public void render(")
    repo.replace("src/Tailer.java", "public void run() { stop(); }", "public void run() { stop(); stop(); }")
    repo.commit("overload, anonymous edit")
    for rec in (render, any_of, run):
        assert ledger.verify(rec.id, at="HEAD").status is Status.VERIFIED, rec.decision.anchors[0].spec

    # A parameter type changes: the method is stale, not refuted.
    repo.replace("src/AdditionalMatchers.java", "@Nullable int depth", "@Nullable long depth")
    repo.commit("widen depth")
    verdict = ledger.verify(render.id, at="HEAD")
    assert verdict.status is Status.STALE
    assert "(now AdditionalMatchers.render(Writer,long,List), lines 7-7)" in verdict.reason  # one overload added above

    # Outer run() changes: stale, whatever the anonymous ones do.
    repo.replace("src/Tailer.java", "position += read();", "position = read();")
    repo.commit("outer run")
    assert ledger.verify(run.id, at="HEAD").status is Status.STALE


def test_ledger_refuses_a_wrong_signature_with_one_line(repo, ledger):
    repo.write("src/AdditionalMatchers.java", MATCHERS)
    repo.commit("java sources")
    with pytest.raises(memvet.AnchorNotFoundError, match=r"no symbol named AdditionalMatchers\.anyOf\(long\[\]\)"):
        ledger.record("anyOf", ["src/AdditionalMatchers.java::AdditionalMatchers.anyOf(long[])"])


def test_follow_prefers_the_new_overload_with_as_many_parameters():
    old = symbol_table(MATCHERS.encode(), "java")
    changed = MATCHERS.replace("@Nullable int depth", "@Nullable long depth").replace(
        "    public void render(", "    public void render(Writer out) {}\n    public void render(", 1)
    sym = follow(old, symbol_table(changed.encode(), "java"), "AdditionalMatchers.render(Writer,int,List)")
    assert sym is not None and sym.qualname == "AdditionalMatchers.render(Writer,long,List)"
    # Same arity on both new ones: no guess.
    both = changed.replace("public void render(Writer out) {}", "public void render(Reader in, int d, Set s) {}")
    assert follow(old, symbol_table(both.encode(), "java"), "AdditionalMatchers.render(Writer,int,List)") is None


def test_arity_counts_top_level_parameters():
    assert _arity("A.f(a,Map<K,V>)#2") == 2
    assert _arity("A.f(int[],List)") == 2
    assert _arity("A.f()") == 0
    assert _arity("A.f") == -1


def test_an_anchor_named_under_older_rules_is_still_checked(repo, ledger):
    """Hash version 1 named a lone Java method without its signature
    (``Tailer.stop``): the baseline is recomputed and the method found by
    its bare name, in the recorded file and in the current one."""
    import dataclasses

    repo.write("src/Tailer.java", TAILER)
    repo.commit("tailer")
    rec = ledger.record("stop stops", ["src/Tailer.java::Tailer.stop"])
    stored = ledger.store.get_decisions([rec.id])[0]
    legacy = stored.evolve(id="legacyjava01", anchors=tuple(
        dataclasses.replace(a, hash_version=1, name="Tailer.stop") for a in stored.anchors))
    ledger.store.add_decision(legacy, ledger.embedder.embed_query("legacy"))
    repo.replace("src/Tailer.java", "private long read() { return 1L; }", "private long read() { return 2L; }")
    repo.commit("unrelated")
    assert ledger.verify("legacyjava01", at="HEAD").status is Status.VERIFIED
    repo.replace("src/Tailer.java", "public void stop() {}", "public void stop() { executor.hashCode(); }")
    repo.commit("stop changes")
    assert ledger.verify("legacyjava01", at="HEAD").status is Status.STALE
