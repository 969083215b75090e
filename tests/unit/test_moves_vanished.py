"""The move search's last rule on real repositories: what a symbol became in
the commit it disappeared in (``memvet._vanished``), modelled on the cases of
the CodeTracker oracles it was built for, each with its deletion control;
a move target that existed at the recorded commit; and the signature
follow-up when several overloads went."""

from __future__ import annotations

import difflib

import pytest

import memvet
from memvet import AnchorResult, Status, _code, _moves, _vanished, _words
from memvet._model import Anchor, AnchorKind
from memvet._moves import Lost

# junit4 44e7458b19: ``handleExceptions``/``timeout`` renamed, parameters
# swapped, the link classes renamed, and ``chain`` (their caller) rewritten.
RUNNER = """\
package org.junit.internal.runners;

public class ClassRunner {
    protected Link chain(TestMethod method) {
        Link link= anchor(method);
        link= handleExceptions(link, method);
        link= timeout(link, method);
        return new Notifier(link);
    }

    public Link timeout(Link next, TestMethod method) {
        long timeout= method.getTimeout();
        return timeout > 0
            ? new Timeout(next, timeout)
            : next;
    }

    public Link handleExceptions(Link next, TestMethod method) {
        return method.expectsException()
            ? new ExpectedException(next, method.getExpectedException())
            : new NoExpectedException(next);
    }

    protected Link anchor(TestMethod method) {
        return new InvokeMethod(method);
    }
}
"""

RENAMED = """\
package org.junit.internal.runners;

public class ClassRunner {
    protected Link chain(TestMethod method) {
        Link link= invoke(method);
        link= possiblyExpectingExceptions(method, link);
        link= withPotentialTimeout(method, link);
        return new Notifying(link);
    }

    protected Link invoke(TestMethod method) {
        return new Invoke(method);
    }

    protected Link possiblyExpectingExceptions(TestMethod method, Link next) {
        return method.expectsException()
            ? new ExpectingException(next, method.getExpectedException())
            : new ExpectingNoException(next);
    }

    protected Link withPotentialTimeout(TestMethod method, Link next) {
        long timeout= method.getTimeout();
        return timeout > 0
            ? new WithTimeout(next, timeout)
            : next;
    }
}
"""

PATH = "src/org/junit/internal/runners/ClassRunner.java"


def _moved(verdict: memvet.Verdict) -> memvet.AnchorCheck:
    assert verdict.status is Status.NEEDS_REVALIDATION, verdict.reason
    (check,) = verdict.checks
    assert check.result is AnchorResult.MOVED
    return check


def test_two_methods_renamed_with_new_bodies_in_one_commit_each_follow_its_own(repo, ledger):
    repo.write(PATH, RUNNER)
    repo.commit("runner")
    timeout = ledger.record("timeout wraps slow tests", [f"{PATH}::ClassRunner.timeout(Link, TestMethod)"])
    handle = ledger.record("handleExceptions expects exceptions",
                           [f"{PATH}::ClassRunner.handleExceptions(Link, TestMethod)"])
    repo.write(PATH, RENAMED)
    renamed = repo.commit("renamed link classes; modifying phrases for the chain")
    repo.write("README.md", "later\n")
    repo.commit("an unrelated later commit")
    check = _moved(ledger.verify(timeout.id, at="HEAD"))
    assert check.new_name == "ClassRunner.withPotentialTimeout(TestMethod,Link)"
    assert f"in commit {renamed[:8]}" in check.detail and "call of it replaced" in check.detail
    check = _moved(ledger.verify(handle.id, at="HEAD"))
    assert check.new_name == "ClassRunner.possiblyExpectingExceptions(TestMethod,Link)"


WITHOUT_TIMEOUT = RENAMED.replace("        link= withPotentialTimeout(method, link);\n", "").replace(
    RENAMED[RENAMED.index("    protected Link withPotentialTimeout"):RENAMED.rindex("}")], "")


def _renamed_then(repo, ledger) -> tuple[str, str]:
    """``timeout`` recorded, then renamed ``withPotentialTimeout`` (the
    last rule's case): the decision's id and the renaming commit."""
    repo.write(PATH, RUNNER)
    repo.commit("runner")
    rec = ledger.record("timeout wraps slow tests", [f"{PATH}::ClassRunner.timeout(Link, TestMethod)"])
    repo.write(PATH, RENAMED)
    return rec.id, repo.commit("renamed link classes; modifying phrases for the chain")


def test_a_place_deleted_since_reads_refuted_not_moved_there(repo, ledger):
    """Issue 31: ``timeout`` went to ``withPotentialTimeout``, which a later
    commit deleted: at the target the symbol is nowhere, so refuted, with
    where it went and that the place is gone."""
    rec, renamed = _renamed_then(repo, ledger)
    repo.write(PATH, WITHOUT_TIMEOUT)
    repo.commit("no timeouts any more")
    verdict = ledger.verify(rec, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason
    (check,) = verdict.checks
    assert check.result is AnchorResult.MISSING and not check.new_path
    assert f"went to {PATH}::ClassRunner.withPotentialTimeout(TestMethod,Link) in commit {renamed[:8]}" \
        in check.detail and "no longer exists" in check.detail
    # At the commit it went in, it is still a move there.
    check = _moved(ledger.verify(rec, at=renamed))
    assert check.new_name == "ClassRunner.withPotentialTimeout(TestMethod,Link)"


def test_a_place_whose_file_was_deleted_since_reads_refuted(repo, ledger):
    rec, _ = _renamed_then(repo, ledger)
    repo.delete(PATH)
    repo.commit("runners are gone")
    verdict = ledger.verify(rec, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_place_moved_away_since_is_followed_there(repo, ledger):
    """The place itself moved on (its class's file renamed): the symbol is
    followed from the commit it went in to where that place is now."""
    rec, renamed = _renamed_then(repo, ledger)
    moved_to = "src/org/junit/runners/ClassRunner.java"
    repo.move(PATH, moved_to)
    repo.replace(moved_to, "package org.junit.internal.runners;", "package org.junit.runners;")
    repo.commit("public runners")
    check = _moved(ledger.verify(rec, at="HEAD"))
    assert (check.new_path, check.new_name) == (moved_to, "ClassRunner.withPotentialTimeout(TestMethod,Link)")
    assert f"in commit {renamed[:8]}" in check.detail and f"then moved from {PATH} to {moved_to}" in check.detail


def test_a_place_moved_away_and_deleted_since_reads_refuted(repo, ledger):
    rec, _ = _renamed_then(repo, ledger)
    moved_to = "src/org/junit/runners/ClassRunner.java"
    repo.move(PATH, moved_to)
    repo.commit("public runners")
    repo.write(moved_to, WITHOUT_TIMEOUT)
    repo.commit("no timeouts any more")
    verdict = ledger.verify(rec, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_the_follow_of_a_place_gone_since_stops_after_max_hops(repo, ledger, monkeypatch):
    """With no hop allowed, a place moved away since is not followed on: refuted."""
    monkeypatch.setattr(_moves, "MAX_HOPS", 0)
    rec, _ = _renamed_then(repo, ledger)
    repo.move(PATH, "src/org/junit/runners/ClassRunner.java")
    repo.commit("public runners")
    verdict = ledger.verify(rec, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_method_whose_calls_were_removed_is_deleted_though_a_new_method_came(repo, ledger):
    """The control: the same new methods, but ``chain`` no longer calls
    anything in place of ``timeout``: no replaced call, no same name."""
    repo.write(PATH, RUNNER)
    repo.commit("runner")
    rec = ledger.record("timeout wraps slow tests", [f"{PATH}::ClassRunner.timeout(Link, TestMethod)"])
    repo.write(PATH, RENAMED.replace("        link= withPotentialTimeout(method, link);\n", ""))
    repo.commit("no timeouts any more")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_replaced_call_needs_a_body_alike(repo, ledger):
    """``timeout(link, method)`` replaced by a call of a new method whose
    body has nothing in common with it: deleted."""
    repo.write(PATH, RUNNER)
    repo.commit("runner")
    rec = ledger.record("timeout wraps slow tests", [f"{PATH}::ClassRunner.timeout(Link, TestMethod)"])
    unlike = RENAMED.replace(
        "        long timeout= method.getTimeout();\n        return timeout > 0\n"
        "            ? new WithTimeout(next, timeout)\n            : next;\n",
        "        for (Rule rule : rules()) {\n            next= rule.apply(next, describe(method));\n        }\n"
        "        log(\"rules applied\");\n        return next;\n")
    repo.write(PATH, unlike)
    repo.commit("rules instead of timeouts")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


METHOD_RUNNER = """\
package org.junit.internal.runners;

public class MethodRunner {
    protected final TestMethod fTestMethod;

    public MethodRunner(TestMethod method) {
        fTestMethod= method;
    }

    public Link timeout(Link next) {
        return fTestMethod.getTimeout() > 0
            ? new Timeout(next, fTestMethod.getTimeout())
            : next;
    }

    public void run(Roadie context) {
        timeout(new Invoke(fTestMethod)).run(context);
    }
}
"""

CLASS_RUNNER = """\
package org.junit.internal.runners;

public class ClassRunner {
    protected void runMethods(RunNotifier notifier) {
        for (TestMethod method : fTestMethods)
            new MethodRunner(method).run(new Roadie(notifier));
    }
}
"""

MERGED = """\
package org.junit.internal.runners;

public class ClassRunner {
    protected void runMethods(RunNotifier notifier) {
        for (TestMethod method : fTestMethods)
            timeout(new Invoke(method), method).run(new Roadie(notifier));
    }

    public Link timeout(Link next, TestMethod method) {
        long timeout= method.getTimeout();
        return timeout > 0
            ? new Timeout(next, timeout)
            : next;
    }
}
"""

MR = "src/org/junit/internal/runners/MethodRunner.java"
CR = "src/org/junit/internal/runners/ClassRunner.java"


def test_a_class_merged_into_another_takes_its_methods_along(repo, ledger):
    """junit4 576377b9ad: ``JUnit4MethodRunner`` combined into
    ``JUnit4ClassRunner``; ``timeout(Link)`` became ``timeout(Link,TestMethod)``
    with a new body."""
    repo.write(MR, METHOD_RUNNER)
    repo.write(CR, CLASS_RUNNER)
    repo.commit("runners")
    rec = ledger.record("timeout wraps slow tests", [f"{MR}::MethodRunner.timeout(Link)"])
    repo.delete(MR)
    repo.write(CR, MERGED)
    repo.commit("combine the method runner into the class runner")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert (check.new_path, check.new_name) == (CR, "ClassRunner.timeout(Link,TestMethod)")
    assert "the same name" in check.detail


def test_a_method_removed_from_a_class_that_stays_is_not_merged_elsewhere(repo, ledger):
    """The control: ``MethodRunner`` is still there, without ``timeout``; the
    same new method in another existing class is not where it went."""
    repo.write(MR, METHOD_RUNNER)
    repo.write(CR, CLASS_RUNNER)
    repo.commit("runners")
    rec = ledger.record("timeout wraps slow tests", [f"{MR}::MethodRunner.timeout(Link)"])
    text = METHOD_RUNNER
    repo.write(MR, text[: text.index("    public Link timeout")] + text[text.index("    public void run"):]
               .replace("timeout(new Invoke(fTestMethod))", "new Invoke(fTestMethod)"), dedent=False)
    repo.write(CR, MERGED)
    repo.commit("timeouts belong to the class runner now")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


CONTROL = """\
package org.mockito.internal;

public class MockControl {
    private final Stubber stubber = new Stubber();

    public Object invoke(Object proxy, Method method, Object[] args) {
        ExpectedInvocation invocationWithMatchers = expectedInvocation(proxy, method, args);
        return stubber.resultFor(invocationWithMatchers.getInvocation());
    }

    private ExpectedInvocation expectedInvocation(Object proxy, Method method, Object[] args) {
        Invocation invocation = new Invocation(proxy, method, args, MockitoState.instance().nextSequenceNumber());
        List<IArgumentMatcher> lastMatchers = LastArguments.instance().pullMatchers();
        validateMatchers(invocation, lastMatchers);
        List<IArgumentMatcher> processedMatchers = createEqualsMatchers(invocation, lastMatchers);
        ExpectedInvocation invocationWithMatchers = new ExpectedInvocation(invocation, processedMatchers);
        return invocationWithMatchers;
    }
}
"""

FACTORY = """\
package org.mockito.internal;

public class InvocationMatcherFactory {
    public InvocationMatcher create(Object proxy, Method method, Object[] args) {
        Invocation invocation = new Invocation(proxy, method, args, MockitoState.instance().nextSequenceNumber());
        List<IArgumentMatcher> lastMatchers = LastArguments.instance().pullMatchers();
        validateMatchers(invocation, lastMatchers);
        List<IArgumentMatcher> processedMatchers = createEqualsMatchers(invocation, lastMatchers);
        InvocationMatcher invocationWithMatchers = new InvocationMatcher(invocation, processedMatchers);
        return invocationWithMatchers;
    }
}
"""

MC = "src/org/mockito/internal/MockControl.java"
IMF = "src/org/mockito/internal/InvocationMatcherFactory.java"


def _extract(repo, ledger, call: str):
    repo.write(MC, CONTROL)
    repo.commit("control")
    rec = ledger.record("expectedInvocation binds the matchers",
                        [f"{MC}::MockControl.expectedInvocation(Object, Method, Object[])"])
    old_call = "        ExpectedInvocation invocationWithMatchers = expectedInvocation(proxy, method, args);\n"
    text = CONTROL.replace(old_call, call)
    repo.write(MC, text[: text.index("    private ExpectedInvocation")].rstrip() + "\n}\n", dedent=False)
    repo.write(IMF, FACTORY)
    repo.commit("refactored some responsibility to InvocationMatcherFactory")
    return ledger.verify(rec.id, at="HEAD")


def test_a_method_extracted_renamed_into_a_new_class_is_found_by_its_replaced_calls(repo, ledger):
    """mockito 363dce3b88: ``MockControl.expectedInvocation`` became
    ``InvocationMatcherFactory.create`` in a new file."""
    check = _moved(_extract(repo, ledger, "        InvocationMatcher invocationWithMatchers = "
                                          "new InvocationMatcherFactory().create(proxy, method, args);\n"))
    assert (check.new_path, check.new_name) == (IMF, "InvocationMatcherFactory.create(Object,Method,Object[])")


def test_a_new_class_with_a_like_method_nobody_calls_instead_is_not_where_it_went(repo, ledger):
    """The control: the caller now does without; the new class's method is
    alike, but nothing says it replaced the recorded one."""
    verdict = _extract(repo, ledger, "        InvocationMatcher invocationWithMatchers = null;\n")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_rename_in_the_working_tree_is_found_there(repo, ledger):
    repo.write(PATH, RUNNER)
    repo.commit("runner")
    rec = ledger.record("timeout wraps slow tests", [f"{PATH}::ClassRunner.timeout(Link, TestMethod)"])
    repo.write(PATH, RENAMED)
    check = _moved(ledger.verify(rec.id))
    assert check.new_name == "ClassRunner.withPotentialTimeout(TestMethod,Link)"
    assert "in the working tree" in check.detail


# ------------------------------------------------------------------ a target that was there already

COPY_UTILS = """\
package org.apache.commons.io;

public class CopyUtils {
    public static void copy(byte[] input, OutputStream output) throws IOException {
        output.write(input);
        output.flush();
        LOG.debug("copied " + input.length + " bytes");
    }
}
"""

IO_UTILS = COPY_UTILS.replace("CopyUtils", "IOUtils")


def test_a_same_body_that_existed_at_the_recorded_commit_is_not_a_move_target(repo, ledger):
    """commons-io 6a1bb4d535, checked backwards: ``CopyUtils.copy`` was a
    copy of ``IOUtils.copy``, which was there all along."""
    repo.write("src/org/apache/commons/io/IOUtils.java", IO_UTILS)
    repo.write("src/org/apache/commons/io/CopyUtils.java", COPY_UTILS)
    repo.commit("copy the copy methods to CopyUtils")
    rec = ledger.record("copy flushes", ["src/org/apache/commons/io/CopyUtils.java::"
                                         "CopyUtils.copy(byte[], OutputStream)"])
    repo.delete("src/org/apache/commons/io/CopyUtils.java")
    repo.write("src/org/apache/commons/io/IOUtils.java", IO_UTILS.replace("output.flush();", "output.flush(); "))
    repo.commit("no CopyUtils")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_the_same_body_in_a_class_new_since_the_recording_is_a_move(repo, ledger):
    """The control: the same body in a class created after the recording."""
    repo.write("src/org/apache/commons/io/CopyUtils.java", COPY_UTILS)
    repo.commit("CopyUtils")
    rec = ledger.record("copy flushes", ["src/org/apache/commons/io/CopyUtils.java::"
                                         "CopyUtils.copy(byte[], OutputStream)"])
    repo.delete("src/org/apache/commons/io/CopyUtils.java")
    repo.write("src/org/apache/commons/io/IOUtils.java", IO_UTILS)
    repo.commit("CopyUtils is IOUtils now")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert check.new_name == "IOUtils.copy(byte[],OutputStream)"


def test_a_recorded_commit_missing_from_the_history_is_searched_without_the_rule(repo, ledger):
    """A decision recorded in a clone whose commit this one lacks: there is
    nothing to compare with, so the same name elsewhere is where it went."""
    text = repo.read("shop/store.py")
    rec = ledger.record("checksum wraps at 255", ["shop/store.py::checksum"])
    repo.write("shop/store.py", text[: text.index("def checksum")], dedent=False)
    repo.write("shop/codec.py", text[text.index("def checksum"):], dedent=False)
    repo.commit("checksum to codec")
    (anchor,) = [a for a in rec.decision.anchors if a.kind is AnchorKind.SYMBOL]
    assert isinstance(anchor, Anchor)
    evidence = ledger.evidence
    snap = evidence.git.snapshot("HEAD")
    baseline = evidence.cache.table(anchor.blob_id, anchor.language,
                                    lambda: evidence.git.blob_data(anchor.blob_id)).symbols["checksum"]
    (check,) = evidence.moves.find([Lost(anchor, "0" * 40, baseline.hash, baseline.shape, True)], snap)
    assert check.result is AnchorResult.MOVED and check.new_path == "shop/codec.py"


# ------------------------------------------------------------------ overloads replaced by one

STRING_UTIL = """\
package org.mockito.internal.util;

public class StringUtil {
    public static String join(String start, Collection<?> lines) {
        return join(start, "", lines);
    }

    public static String join(String start, String linePrefix, Collection<?> lines) {
        StringBuilder out = new StringBuilder(start);
        for (Object line : lines) {
            out.append(linePrefix).append(line).append("\\n");
        }
        return out.substring(0, out.length() - 1);
    }
}
"""

JOINED = """\
package org.mockito.internal.util;

public class StringUtil {
    public static String join(String start, Iterable<?> lines) {
        StringBuilder out = new StringBuilder(start);
        for (Object line : lines) {
            out.append(line.toString()).append("\\n");
        }
        int lastBreak = out.lastIndexOf("\\n");
        return out.replace(lastBreak, lastBreak+1, "").toString();
    }
}
"""

SU = "src/main/java/org/mockito/internal/util/StringUtil.java"


def test_two_overloads_replaced_by_one_the_one_with_as_many_parameters_follows(repo, ledger):
    """mockito 3d2fb7a146, checked backwards: ``join(String,Collection)``
    changed its signature into ``join(String,Iterable)``;
    ``join(String,String,Collection)`` did not exist yet."""
    repo.write(SU, STRING_UTIL)
    repo.commit("string util")
    two = ledger.record("join joins lines", [f"{SU}::StringUtil.join(String, Collection)"])
    three = ledger.record("join prefixes lines", [f"{SU}::StringUtil.join(String, String, Collection)"])
    repo.write(SU, JOINED)
    repo.commit("one join")
    assert ledger.verify(two.id, at="HEAD").status is Status.STALE
    verdict = ledger.verify(three.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_one_overload_replaced_by_one_of_another_arity_still_follows(repo, ledger):
    """The control: with one overload gone, the new signature is its own."""
    repo.write(SU, STRING_UTIL.replace(STRING_UTIL[STRING_UTIL.index("    public static String join(String start, "
                                                                      "Collection"):
                                                   STRING_UTIL.index("    public static String join(String start, "
                                                                     "String")], ""))
    repo.commit("string util")
    three = ledger.record("join prefixes lines", [f"{SU}::StringUtil.join(String, String, Collection)"])
    repo.write(SU, JOINED)
    repo.commit("one join")
    assert ledger.verify(three.id, at="HEAD").status is Status.STALE


# ------------------------------------------------------------------ bounds


def _rename_two_commits_later(repo, ledger):
    repo.write(PATH, RUNNER)
    repo.commit("runner")
    rec = ledger.record("timeout wraps slow tests", [f"{PATH}::ClassRunner.timeout(Link, TestMethod)"])
    repo.write("README.md", "first\n")
    repo.commit("unrelated")
    repo.write(PATH, RENAMED)
    repo.commit("renamed")
    return rec


def test_a_recorded_commit_beyond_the_walk_is_not_searched(repo, ledger, monkeypatch):
    """Past :data:`MAX_WALK` first-parent commits the last rule gives up
    (the control of the next test's positive twin is the first test above)."""
    monkeypatch.setattr(_vanished, "MAX_WALK", 1)
    rec = _rename_two_commits_later(repo, ledger)
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_within_the_walk_the_rename_is_found(repo, ledger):
    check = _moved(ledger.verify(_rename_two_commits_later(repo, ledger).id, at="HEAD"))
    assert check.new_name == "ClassRunner.withPotentialTimeout(TestMethod,Link)"


def test_a_sweeping_commit_compares_no_call_lines(repo, ledger, monkeypatch):
    """More files calling the old name than :data:`MAX_CALLING_FILES`: no
    replaced-call signal, so a rename known only by its calls stays a deletion."""
    monkeypatch.setattr(_vanished, "MAX_CALLING_FILES", 0)
    rec = _rename_two_commits_later(repo, ledger)
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def _merge_unlike(repo, ledger):
    repo.write(MR, METHOD_RUNNER)
    repo.write(CR, CLASS_RUNNER)
    repo.commit("runners")
    rec = ledger.record("timeout wraps slow tests", [f"{MR}::MethodRunner.timeout(Link)"])
    repo.delete(MR)
    repo.write(CR, MERGED.replace(
        "        long timeout= method.getTimeout();\n        return timeout > 0\n"
        "            ? new Timeout(next, timeout)\n            : next;\n",
        "        if (method.isSlow()) {\n            log(method.getName());\n"
        "            return new Timeout(next, DEFAULT);\n        }\n        return next;\n"))
    repo.commit("the class runner decides timeouts by itself")
    return ledger.verify(rec.id, at="HEAD")


def test_a_same_named_method_of_another_existing_class_must_be_alike(repo, ledger):
    """The merge rule's control: ``MethodRunner`` goes, ``ClassRunner`` gains
    a ``timeout`` that shares the shape but not the work (between 50 and
    70 % of the tokens alike: enough in a new file, not in another existing
    class)."""
    verdict = _merge_unlike(repo, ledger)
    assert verdict.status is Status.REFUTED, verdict.reason


def test_the_same_merge_at_the_same_name_floor_would_be_a_move(repo, ledger, monkeypatch):
    """The twin of the above: the 70 % bar, not the fixture, refutes it."""
    monkeypatch.setattr(_vanished, "CALLS_SIMILARITY", _vanished.SIMILARITY_FLOOR)
    _moved(_merge_unlike(repo, ledger))


def test_a_file_adds_a_name_only_with_a_line_it_did_not_have():
    name = [b"pre_exec"]
    old = b"class A:\n    def pre_exec(self):\n        pass\n\nclass B:\n    pass\n"
    moved = b"class B:\n    pass\n\nclass A:\n    def pre_exec(self):\n        pass\n"
    assert not _vanished._adds_word(old, moved, name)  # lines moved within the file add none
    assert not _vanished._adds_word(old, b"class A:\n    pass\n", name)  # removed only
    assert _vanished._adds_word(old, old + b"\nclass C:\n    def pre_exec(self):\n        pass\n", name)
    assert not _vanished._adds_word(b"", b"def pre_execute(): pass\n", name)  # not as a word


def test_the_lines_naming_a_word_are_found_once_each():
    name = [b"run", b"stop"]
    data = b"def run(): stop()\nx = 1\n  run()\nrunner = 2\n$run = 3\nstop"
    assert _words.lines_with(data, name) == [b"def run(): stop()", b"  run()", b"stop"]
    assert _words.lines_with(b"", name) == []


@pytest.mark.parametrize(("data", "found"), [
    (b"run()", [0]), (b"x.run (a)", [2]), (b"run\n  ()", [0]), (b"run = 1", []), (b"rerun()", []),
    (b"run_fast()", []), (b"$run()", []), (b"run", []), (b"", []),
])
def test_a_call_is_a_whole_word_then_a_parenthesis(data, found):
    assert _words.occurrences(data, [b"run"], call=True) == found


# ------------------------------------------------------------------ a new signature found by the move search

# pmd 1d8de6b34e: two overloads of a visitor's ``visit`` took new node types in
# one commit, so its own file's follow cannot choose (two gone, two new of
# the same arity); the move search places it, in the same class.
VISITOR = "src/main/java/org/demo/rules/AssertsRule.java"
VISITOR_V1 = """\
package org.demo.rules;

public class AssertsRule {
    public Object visit(ASTInterfaceDeclaration node, Object data) {
        if (node.isNested()) {
            return data;
        }
        return super.visit(node, data);
    }

    public Object visit(ASTMethodDeclaration method, Object data) {
        if (method.isAbstract() || method.isNative()) {
            return data;
        }
        return countAsserts(method, data);
    }

    public Object visit(ASTStatement statement, Object data) {
        return statement.isAssert() ? record(statement, data) : data;
    }
}
"""


RETYPED = (VISITOR_V1.replace("visit(ASTInterfaceDeclaration node", "visit(ASTClassOrInterfaceDeclaration node")
           .replace("visit(ASTMethodDeclaration method", "visit(ASTMethodOrConstructor method"))


def _committed_decision(repo, ledger, path: str, text: str, claim: str, name: str) -> str:
    """``text`` committed at ``path``, a decision on its symbol ``name``; its id."""
    repo.write(path, text)
    repo.commit(f"add {path}")
    return ledger.record(claim, [f"{path}::{name}"]).id


def _visitor_rule(repo, ledger) -> str:
    """The rule committed, a decision on its interface visit; its id."""
    return _committed_decision(repo, ledger, VISITOR, VISITOR_V1, "interfaces are skipped when nested",
                               "AssertsRule.visit(ASTInterfaceDeclaration, Object)")


def test_a_new_signature_the_move_search_places_in_its_own_class_reads_changed(repo, ledger):
    rec = _visitor_rule(repo, ledger)
    repo.write(VISITOR, RETYPED.replace("node.isNested()", "node.isNested() || node.isInterface()"))
    repo.commit("visit the new node types")
    verdict = ledger.verify(rec, at="HEAD")
    assert verdict.status is Status.STALE, verdict.reason
    assert "(now AssertsRule.visit(ASTClassOrInterfaceDeclaration,Object), lines 4-9)" in verdict.reason
    assert "moved" not in verdict.reason


def test_a_same_name_found_in_another_class_still_reads_moved(repo, ledger):
    """The control: only the same scope makes a new signature; the same
    method under a renamed class is a move."""
    rec = _visitor_rule(repo, ledger)
    repo.write(VISITOR, VISITOR_V1.replace("class AssertsRule", "class AssertionsRule"))
    repo.commit("rename the rule")
    check = _moved(ledger.verify(rec, at="HEAD"))
    assert check.new_name == "AssertionsRule.visit(ASTInterfaceDeclaration,Object)"


def test_a_new_signature_gone_again_by_the_target_is_refuted(repo, ledger):
    """The last rule places the symbol in the commit it went in; when that
    new signature is itself gone at the target (issue 31), the symbol is not
    "moved" to a place that no longer exists: it reads refuted, naming both."""
    rec = _visitor_rule(repo, ledger)
    repo.write(VISITOR, RETYPED)
    retyped_at = repo.commit("visit the new node types")
    interface_visit = RETYPED[RETYPED.index("    public Object visit(ASTClassOrInterfaceDeclaration"):
                              RETYPED.index("    public Object visit(ASTMethodOrConstructor")]
    repo.write(VISITOR, RETYPED.replace(interface_visit, "    public Object enter(Scope scope) {\n"
                                        "        scope.push(this);\n        return scope.top();\n    }\n\n"))
    repo.commit("scopes instead")
    verdict = ledger.verify(rec, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason
    (check,) = verdict.checks
    assert check.result is AnchorResult.MISSING and not check.new_path
    assert "AssertsRule.visit(ASTClassOrInterfaceDeclaration,Object)" in check.detail
    assert f"in commit {retyped_at[:8]}" in check.detail and "no longer exists" in check.detail


def test_a_markdown_heading_renamed_in_its_parentheses_stays_a_move(repo, ledger):
    """Only Java names carry a signature: a section whose heading ends in
    parentheses and was renamed there moved, it did not change."""
    doc = "# Decision\n\n## Rollout (draft)\n\nShip behind the flag for a week, then remove the flag.\n"
    repo.write("docs/adr.md", doc)
    repo.commit("adr")
    rec = ledger.record("rollout goes behind the flag", ["docs/adr.md::Decision.Rollout (draft)"])
    repo.write("docs/adr.md", doc.replace("(draft)", "(final)"))
    repo.commit("final")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert check.new_name == "Decision.Rollout (final)"


# okhttp 3355d0c99b, read backwards: the instance ``connect(int,int,TunnelConfig)``
# a route selector needs, where a static factory ``connect(URI,...)`` stood.
CONNECTION = """\
package libcore.net.http;

final class HttpConnection {
    private final Address address;
    private Socket socket;

    HttpConnection(Address address) {
        this.address = address;
    }

    public void connect(int connectTimeout, int readTimeout, TunnelConfig tunnelConfig) throws IOException {
        socket = address.proxy.type() != Proxy.Type.HTTP ? new Socket(address.proxy) : new Socket();
        socket.connect(address.socketAddress(), connectTimeout);
        socket.setSoTimeout(readTimeout);
        if (address.sslSocketFactory != null) {
            upgradeToTls(tunnelConfig);
        }
    }
}
"""

STATIC_FACTORY = """\
    public static HttpConnection connect(URI uri, Proxy proxy, int connectTimeout, int readTimeout,
            TunnelConfig tunnelConfig) throws IOException {
        HttpConnection result = getConnection(uri, proxy, connectTimeout, tunnelConfig);
        result.socket.setSoTimeout(readTimeout);
        return result;
    }
"""

CONNECT = CONNECTION[CONNECTION.index("    public void connect("):CONNECTION.index("}\n}\n") + 2]
CONNECTION_PATH = "src/main/java/libcore/net/http/HttpConnection.java"


def _connection_rewritten(repo, ledger, body: str):
    """The verdict on a decision on the instance ``connect``, once that
    method became ``body``."""
    rec = _committed_decision(repo, ledger, CONNECTION_PATH, CONNECTION,
                              "a connection connects its own socket, tunnelling for TLS through a proxy",
                              "HttpConnection.connect(int, int, TunnelConfig)")
    repo.write(CONNECTION_PATH, CONNECTION.replace(CONNECT, body))
    repo.commit("connect rewritten")
    return ledger.verify(rec, at="HEAD")


def test_a_same_name_that_crosses_static_with_an_unlike_body_is_another_method(repo, ledger):
    """okhttp's held-out miss: CodeTracker counts the static factory as a
    new method, and the decision on the instance method is refuted."""
    verdict = _connection_rewritten(repo, ledger, STATIC_FACTORY)
    assert verdict.status is Status.REFUTED, verdict.reason
    assert "is no longer defined in" in verdict.reason


# "Make static": the receiver a parameter, and the streams opened here now.
MADE_STATIC = (CONNECT.replace("public void connect(", "public static void connect(HttpConnection c, ")
               .replace("socket", "c.socket").replace("address", "c.address").replace("c.c.", "c.")
               .replace("        if (c.address.ssl", "        c.in = c.socket.getInputStream();\n"
                        "        c.out = c.socket.getOutputStream();\n        if (c.address.ssl"))


# The factory's body as an instance method: a new signature, its body unlike.
BY_URI = STATIC_FACTORY.replace("public static HttpConnection", "public HttpConnection")


@pytest.mark.parametrize(("body", "follows", "alike"), [
    (STATIC_FACTORY, False, (0.4, 0.5)),
    (MADE_STATIC, True, (0.5, 0.85)),
    (BY_URI, True, (0.4, 0.5)),
])
def test_a_follow_across_static_needs_half_the_code_alike(body, follows, alike):
    """Only crossing ``static`` asks for the body; each case's likeness is
    pinned, so the made-static control is one the 85 % rename rule of the
    move search would not catch on its own."""
    old, new = CONNECTION.encode(), CONNECTION.replace(CONNECT, body).encode()
    before, after = _code.symbol_table(old, "java"), _code.symbol_table(new, "java")
    was = before.lookup("HttpConnection.connect(int, int, TunnelConfig)")[0]
    now = next(s for s in after.symbols.values() if s.name == "HttpConnection.connect")
    ratio = difflib.SequenceMatcher(None, _vanished.tokens(old, "java", was), _vanished.tokens(new, "java", now),
                                    autojunk=False).ratio()
    assert alike[0] <= ratio < alike[1]
    assert _code.follow(before, after, was.qualname) == now  # the plain follow takes it whatever
    assert (_vanished.follow(before, after, was.qualname, lambda: old, lambda: new) == now) is follows


def test_a_method_made_static_with_its_body_kept_follows(repo, ledger):
    """The control end to end: the method followed across ``static`` is
    the same one, changed."""
    verdict = _connection_rewritten(repo, ledger, MADE_STATIC)
    assert verdict.status is Status.STALE, verdict.reason
    assert "now HttpConnection.connect(HttpConnection,int,int,TunnelConfig)" in verdict.reason


def test_a_new_signature_with_an_unlike_body_that_stays_an_instance_method_follows(repo, ledger):
    """The other control: without crossing ``static`` a new signature keeps
    the method however much its body changed (okhttp's ``newStream`` kept
    16 % of its code)."""
    verdict = _connection_rewritten(repo, ledger, BY_URI)
    assert verdict.status is Status.STALE, verdict.reason
    assert "now HttpConnection.connect(URI,Proxy,int,int,TunnelConfig)" in verdict.reason
