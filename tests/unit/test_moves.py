"""The move search on real repositories: moves reported as moves (class
renamed, renamed with a changed body, JS ``#private`` methods across files),
deletions still refuted, and one search per batch."""

from __future__ import annotations

import uuid

import memvet
from memvet import AnchorResult, Status
from memvet._errors import RepositoryError
from memvet._git import GitRepo

WATCHER_JS = """\
export class DirWatcher {
  constructor(root) {
    this.root = root;
    this.listeners = [];
  }

  onChange(event) {
    for (const listener of this.listeners) {
      listener(event.path, this.root, DirWatcher.seen++);
    }
  }

  close() {
    this.listeners = [];
  }
}
"""

WATCHER_PY = """\
class DirWatcher:
    seen = 0

    def __init__(self, root):
        self.root = root
        self.listeners = []

    def on_change(self, event):
        DirWatcher.seen += 1
        for listener in self.listeners:
            listener(event.path, self.root)

    def close(self):
        self.listeners = []
"""

PRICES = """\
def total_price(items, tax_rate):
    subtotal = sum(item.price * item.quantity for item in items)
    discount = 0.1 * subtotal if subtotal > 100 else 0
    return round((subtotal - discount) * (1 + tax_rate), 2)


def other():
    return 1
"""

PARSER_JAVA = """\
package org.example;

public class Parser {
    private int lines;

    public String parseLine(String raw) {
        lines++;
        String trimmed = raw.strip();
        if (trimmed.startsWith("#")) {
            return "";
        }
        return trimmed.toLowerCase();
    }

    public int count() {
        return lines;
    }
}
"""

QUEUE_JS = """\
export class Queue {
  #items = [];

  push(item) {
    this.#items.push(item);
    this.#trim();
  }

  size() {
    return this.#items.length;
  }

  #trim() {
    while (this.#items.length > 100) {
      this.#items.shift();
    }
  }
}
"""


def _moved(verdict: memvet.Verdict) -> memvet.AnchorCheck:
    assert verdict.status is Status.NEEDS_REVALIDATION, verdict.reason
    (check,) = verdict.checks
    assert check.result is AnchorResult.MOVED
    return check


def test_a_method_moves_with_its_class_renamed_and_its_file_renamed(repo, ledger):
    repo.write("src/dir_watcher.js", WATCHER_JS)
    repo.commit("watcher")
    rec = ledger.record("onChange calls every listener", ["src/dir_watcher.js::DirWatcher.onChange"])
    repo.move("src/dir_watcher.js", "src/folder_watcher.js")
    repo.write("src/folder_watcher.js", WATCHER_JS.replace("DirWatcher", "FolderWatcher"))
    repo.commit("rename the class and its file")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert (check.new_path, check.new_name) == ("src/folder_watcher.js", "FolderWatcher.onChange")
    assert "its class DirWatcher was renamed FolderWatcher; its body changed" in check.detail


def test_a_python_method_keeps_its_place_when_its_class_is_renamed(repo, ledger):
    repo.write("pkg/watch.py", WATCHER_PY)
    repo.commit("watcher")
    rec = ledger.record("on_change counts events", ["pkg/watch.py::DirWatcher.on_change"])
    repo.write("pkg/watch.py", WATCHER_PY.replace("DirWatcher", "FolderWatcher"))
    repo.commit("rename the class")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert (check.new_path, check.new_name) == ("pkg/watch.py", "FolderWatcher.on_change")


def test_a_class_that_keeps_its_name_is_not_a_rename(repo, ledger):
    """The method was removed from a class that is still there: deleted,
    even though another (older) class has a method of that name."""
    repo.write("pkg/watch.py", WATCHER_PY + "\n\nclass Poller:\n    def on_change(self, event):\n"
               "        return event\n\n    def close(self):\n        return None\n")
    repo.commit("watcher")
    rec = ledger.record("on_change counts events", ["pkg/watch.py::DirWatcher.on_change"])
    text = repo.read("pkg/watch.py")
    start = text.index("    def on_change(self, event):\n        DirWatcher")
    repo.write("pkg/watch.py", text[:start] + text[text.index("    def close", start):], dedent=False)
    repo.commit("drop on_change")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_method_pulled_up_into_a_new_base_class_elsewhere_is_not_a_class_rename(repo, ledger):
    """Found on sqlalchemy: the class is still in its file, so the method
    went away from it, whatever class elsewhere now defines that name (with
    another body; the same body elsewhere is a move)."""
    cursor = ("class OracleCursor:\n    def __init__(self, conn):\n        self.conn = conn\n\n"
              "    def close(self):\n        self.conn = None\n\n"
              "    def enter(self):\n        self.conn.begin()\n        return self\n")
    repo.write("db/oracle.py", cursor)
    repo.write("db/base.py", "def helper():\n    return 1\n")
    repo.commit("cursor")
    rec = ledger.record("enter begins a transaction", ["db/oracle.py::OracleCursor.enter"])
    repo.write("db/oracle.py", "from db.base import DbapiCursor\n\n\n" + cursor[: cursor.index("    def enter")]
               .replace("class OracleCursor:", "class OracleCursor(DbapiCursor):"))
    repo.write("db/base.py", "def helper():\n    return 1\n\n\n" + cursor.replace("OracleCursor", "DbapiCursor")
               .replace("self.conn.begin()", "self.conn.begin(deferred=True)"))
    repo.commit("pull enter up")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_function_nested_in_a_function_has_no_class_to_rename(repo, ledger):
    repo.write("db/provision.py", "def configure(engine):\n    def checkout(conn, record):\n"
               "        conn.ping()\n        record.touch()\n\n    engine.listen(checkout)\n")
    repo.commit("provision")
    rec = ledger.record("checkout pings the connection", ["db/provision.py::configure.checkout"])
    repo.write("db/provision.py", "def setup(engine):\n    engine.listen(None)\n")
    repo.write("db/pool.py", "class Record:\n    def checkout(self, conn):\n        conn.ping()\n\n"
               "    def configure(self):\n        return self\n")
    repo.commit("rework provisioning")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_function_renamed_with_a_changed_body_is_a_move(repo, ledger):
    repo.write("pkg/prices.py", PRICES)
    repo.commit("prices")
    rec = ledger.record("total_price discounts orders over 100", ["pkg/prices.py::total_price"])
    repo.write("pkg/prices.py", PRICES.replace("def total_price", "def compute_total").replace(
        "(1 + tax_rate)", "(1.0 + tax_rate)"))
    repo.commit("rename and adjust")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert (check.new_path, check.new_name) == ("pkg/prices.py", "compute_total")
    assert ("moved from pkg/prices.py::total_price to pkg/prices.py::compute_total (renamed; its body changed"
            in check.detail)


def test_a_java_method_renamed_with_a_changed_body_in_a_renamed_file(repo, ledger):
    repo.write("src/org/example/Parser.java", PARSER_JAVA)
    repo.commit("parser")
    rec = ledger.record("parseLine skips comment lines", ["src/org/example/Parser.java::Parser.parseLine"])
    repo.move("src/org/example/Parser.java", "src/org/example/LineParser.java")
    repo.write("src/org/example/LineParser.java", PARSER_JAVA.replace("class Parser", "class LineParser")
               .replace("parseLine(String raw)", "readLine(String raw)").replace("toLowerCase()", "toUpperCase()"))
    repo.commit("rename the file, the class and the method")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    # Java names carry their erased signature (hasher v3).
    assert (check.new_path, check.new_name) == ("src/org/example/LineParser.java", "LineParser.readLine(String)")


def test_a_deleted_function_is_not_taken_for_a_new_unlike_one(repo, ledger):
    repo.write("pkg/prices.py", PRICES)
    repo.commit("prices")
    rec = ledger.record("total_price discounts orders over 100", ["pkg/prices.py::total_price"])
    repo.write("pkg/prices.py", PRICES.replace(PRICES[: PRICES.index("def other")], (
        "def shipping_cost(weight, zone):\n    base = 4.5 if zone == 'local' else 9.0\n"
        "    return round(base + weight * 0.8, 2)\n\n\n")))
    repo.commit("replace pricing with shipping")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_two_equally_close_renames_are_not_guessed(repo, ledger):
    repo.write("pkg/prices.py", PRICES)
    repo.commit("prices")
    rec = ledger.record("total_price discounts orders over 100", ["pkg/prices.py::total_price"])
    body = PRICES[: PRICES.index("def other")].replace("(1 + tax_rate)", "(1.0 + tax_rate)")
    repo.write("pkg/prices.py", body.replace("total_price", "net_total") + body.replace("total_price", "gross_total")
               + "def other():\n    return 1\n")
    repo.commit("split in two")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_private_js_method_moved_to_another_file(repo, ledger):
    repo.write("src/queue.js", QUEUE_JS)
    repo.commit("queue")
    rec = ledger.record("trim keeps at most 100 items", ["src/queue.js::Queue.#trim"])
    repo.delete("src/queue.js")
    repo.write("src/collections/bounded.js", "// Queues that forget their oldest items.\nimport x from './x';\n\n"
               + QUEUE_JS.replace("  size() {", "  peek() {\n    return this.#items[0];\n  }\n\n  size() {"))
    repo.commit("move the queue")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert (check.new_path, check.new_name) == ("src/collections/bounded.js", "Queue.#trim")


def test_a_private_js_method_moved_with_its_renamed_class(repo, ledger):
    repo.write("src/queue.js", QUEUE_JS)
    repo.commit("queue")
    rec = ledger.record("trim keeps at most 100 items", ["src/queue.js::Queue.#trim"])
    repo.delete("src/queue.js")
    repo.write("src/bounded_queue.js", QUEUE_JS.replace("class Queue", "class BoundedQueue").replace(
        "length > 100", "length > this.limit"))
    repo.commit("move and rename the queue")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert (check.new_path, check.new_name) == ("src/bounded_queue.js", "BoundedQueue.#trim")
    assert "its body changed" in check.detail


# ------------------------------------------------------------------ one search per batch

def _many_deleted(repo, ledger, n_files: int = 12) -> list[str]:
    """Decisions on functions of ``n_files`` files; a commit then deletes one
    function per file and touches every file."""
    ids = []
    for i in range(n_files):
        repo.write(f"pkg/m{i}.py", f"def keep_{i}(x):\n    return x + {i}\n\n\n"
                                   f"def gone_{i}(values):\n    total = sum(values)\n    return total * {i}\n")
    repo.commit("modules")
    for i in range(n_files):
        ids.append(ledger.record(f"gone_{i} scales the total", [f"pkg/m{i}.py::gone_{i}"]).decision.id)
    for i in range(n_files):
        repo.write(f"pkg/m{i}.py", f"def keep_{i}(x):\n    return x + {i} + 1\n")
    repo.commit("delete one function per file")
    return ids


def test_one_scan_for_every_missing_anchor_of_a_batch(repo, ledger):
    ids = _many_deleted(repo, ledger)
    verdicts = ledger.check(at="HEAD")
    assert [v.status for v in verdicts if v.decision.id in ids] == [Status.REFUTED] * len(ids)
    # 12 missing anchors, 12 changed files: each read once by the scan, not 12 x 11 times.
    assert ledger.evidence.moves.scanned == 12
    ledger.check(at="HEAD")
    assert ledger.evidence.moves.scanned == 12   # a commit's answers are kept: no second scan


def test_the_working_tree_is_searched_afresh(repo, ledger):
    ids = _many_deleted(repo, ledger, n_files=3)
    ledger.check()
    ledger.check()
    assert ledger.evidence.moves.scanned == 6
    repo.write("pkg/later.py", "def gone_1(values):\n    total = sum(values)\n    return total * 1\n")
    verdict = ledger.verify(ids[1])
    assert verdict.status is Status.NEEDS_REVALIDATION and "pkg/later.py" in verdict.reason


class _DiffFails(GitRepo):
    """A repository whose diff fails (what a corrupt pack does to libgit2)."""

    def changes(self, old_commit, new):
        raise RepositoryError("git diff failed: object not found")


def test_a_failing_move_search_is_unverifiable_and_the_batch_goes_on(repo, client):
    led = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                             namespace=f"t{uuid.uuid4().hex[:12]}", disk_cache=False)
    gone = led.record("checksum wraps at 255", ["shop/store.py::checksum"])
    kept = led.record("save appends one line", ["shop/store.py::OrderStore.save"])
    text = repo.read("shop/store.py")
    repo.write("shop/store.py", text[: text.index("def checksum")], dedent=False)
    repo.commit("drop checksum")
    led.evidence.git = led.evidence.moves.evidence.git = _DiffFails(repo.path)
    verdicts = {v.decision.id: v for v in led.check(at="HEAD")}
    assert verdicts[gone.decision.id].status is Status.NEEDS_REVALIDATION
    assert "could not check: git diff failed" in verdicts[gone.decision.id].reason
    assert verdicts[kept.decision.id].status is Status.VERIFIED


# ------------------------------------------------------------------ copies and kinds (issue 16, round 2)

CORE_JS = """\
(function (global) {
  var jQuery = function (selector) {
    return new jQuery.fn.init(selector);
  };

  jQuery.trim = function (text) {
    return text == null ? "" : (text + "").replace(rtrim, "");
  };

  jQuery.isNumeric = function (obj) {
    var type = jQuery.type(obj);
    return (type === "number" || type === "string") && !isNaN(obj - parseFloat(obj));
  };

  global.jQuery = jQuery;
})(this);
"""


def _delete_trim(repo, ledger, copy_path: str, copy_text: str):
    """``jQuery.trim`` recorded in src/core.js, then deleted from it in the
    commit that adds ``copy_text`` (which still defines it) at ``copy_path``."""
    repo.write("src/core.js", CORE_JS)
    repo.commit("core")
    rec = ledger.record("trim strips whitespace from both ends", ["src/core.js::jQuery.trim"])
    start = CORE_JS.index("  jQuery.trim")
    repo.write("src/core.js", CORE_JS[:start] + CORE_JS[CORE_JS.index("  jQuery.isNumeric"):], dedent=False)
    repo.write(copy_path, copy_text, dedent=False)
    repo.commit("remove jQuery.trim; add " + copy_path)
    return ledger.verify(rec.id, at="HEAD")


def test_a_function_deleted_from_src_is_not_moved_into_a_versioned_copy_in_test_data(repo, ledger):
    """jQuery 3.0.0 -> 4.0.0: deleted from src/, still in the old build kept
    as test/data/jquery-3.7.1.js."""
    verdict = _delete_trim(repo, ledger, "test/data/jquery-3.7.1.js", CORE_JS)
    assert verdict.status is Status.REFUTED, verdict.reason
    assert "no longer defined in src/core.js and was not found elsewhere" in verdict.reason


def test_a_versioned_copy_outside_test_data_is_not_a_move_target_either(repo, ledger):
    verdict = _delete_trim(repo, ledger, "site/libs/jquery-1.12.4.js", CORE_JS)
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_build_with_a_versioned_licence_banner_is_not_a_move_target(repo, ledger):
    banner = "/*! jQuery v3.7.1 | (c) OpenJS Foundation and other contributors | jquery.org/license */\n"
    verdict = _delete_trim(repo, ledger, "site/libs/jquery.js", banner + CORE_JS)
    assert verdict.status is Status.REFUTED, verdict.reason


def test_the_same_copy_without_banner_or_version_is_a_move(repo, ledger):
    """The control for the three above: the rule, not the fixture, refutes them."""
    check = _moved(_delete_trim(repo, ledger, "src/legacy/core.js", CORE_JS))
    assert (check.new_path, check.new_name) == ("src/legacy/core.js", "jQuery.trim")


def test_a_banner_without_a_version_is_source(repo, ledger):
    """Express's lib files open with ``/*!`` banners naming the project, no version."""
    banner = "/*!\n * express\n * Copyright(c) 2009-2013 TJ Holowaychuk\n * MIT Licensed\n */\n\n"
    check = _moved(_delete_trim(repo, ledger, "src/legacy/core.js", banner + CORE_JS))
    assert check.new_path == "src/legacy/core.js"


def test_a_python_function_is_not_moved_into_a_test_fixture_project(repo, ledger):
    text = repo.read("shop/store.py")
    rec = ledger.record("checksum wraps at 255", ["shop/store.py::checksum"])
    repo.write("shop/store.py", text[: text.index("def checksum")], dedent=False)
    repo.write("tests/fixtures/sample_shop/store.py", text, dedent=False)
    repo.write("vendor/shoplib/store.py", text, dedent=False)
    repo.commit("drop checksum; add a sample project to the test fixtures and vendor shoplib")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_symbol_recorded_in_test_data_may_move_within_test_data(repo, ledger):
    helpers = "function waitForLoad(frame, done) {\n  frame.onload = function () {\n    done(frame);\n  };\n}\n"
    repo.write("test/data/testinit.js", helpers + "\nfunction other() {\n  return 1;\n}\n")
    repo.commit("test helpers")
    rec = ledger.record("waitForLoad calls done once the frame loaded", ["test/data/testinit.js::waitForLoad"])
    repo.write("test/data/testinit.js", "function other() {\n  return 1;\n}\n")
    repo.write("test/data/frames.js", helpers)
    repo.commit("split the frame helpers out")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert (check.new_path, check.new_name) == ("test/data/frames.js", "waitForLoad")


def test_a_file_copied_into_test_data_is_not_where_a_deleted_file_went(repo, ledger):
    rec = ledger.record("the store keeps one line per order", ["shop/store.py"])
    text = repo.read("shop/store.py")
    repo.delete("shop/store.py")
    repo.write("tests/data/store.py", text, dedent=False)
    repo.commit("delete the store; keep a copy as test data")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason
    assert "the file was deleted" in verdict.reason


ROUTE_JS = """\
module.exports = Route;

function Route(path) {
  this.path = path;
  this.stack = [];
  this.methods = {};
}

Route.prototype.dispatch = function (req, res, done) {
  var idx = 0;
  var stack = this.stack;
  next();
};
"""


def test_a_deleted_function_is_not_moved_to_a_variable_of_that_name(repo, ledger):
    """Express 4 -> 5: ``lib/router/route.js::Route`` went; test/Route.js has
    ``var Route = express.Route``, a variable, not the function."""
    repo.write("lib/router/route.js", ROUTE_JS)
    repo.write("test/Route.js", "var assert = require('assert');\n")
    repo.commit("route")
    rec = ledger.record("Route keeps a stack of layers", ["lib/router/route.js::Route"])
    repo.delete("lib/router/route.js")
    repo.write("test/Route.js", "var assert = require('assert');\nvar express = require('../');\n"
               "var Route = express.Route;\n\ndescribe('Route', function () {\n"
               "  it('should work', function () {\n    assert.ok(new Route('/foo'));\n  });\n});\n")
    repo.commit("use the router package")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_constructor_function_rewritten_as_a_class_elsewhere_is_a_move(repo, ledger):
    repo.write("lib/router/route.js", ROUTE_JS)
    repo.commit("route")
    rec = ledger.record("Route keeps a stack of layers", ["lib/router/route.js::Route"])
    repo.delete("lib/router/route.js")
    repo.write("lib/route.js", "class Route {\n  constructor(path) {\n    this.path = path;\n"
               "    this.stack = [];\n  }\n}\n\nmodule.exports = Route;\n")
    repo.commit("route as a class")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert (check.new_path, check.new_name) == ("lib/route.js", "Route")


def test_a_python_function_is_not_moved_to_a_module_variable_of_that_name(repo, ledger):
    """Held before the kind rule too: a Python name is a candidate only in a
    file that has ``def`` or ``class`` before it."""
    text = repo.read("shop/store.py")
    rec = ledger.record("checksum wraps at 255", ["shop/store.py::checksum"])
    repo.write("shop/store.py", text[: text.index("def checksum")], dedent=False)
    repo.write("shop/codec.py", "import zlib\n\nchecksum = zlib.crc32\n")
    repo.commit("use crc32")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason


def test_a_class_under_a_dataclass_decorator_is_found_by_name_in_another_file(repo, ledger):
    """Found on sqlalchemy: in ``@dataclasses.dataclass\\n class CommonMixin``
    the word scan must not take the decorator's "class" for a keyword."""
    text = ("import dataclasses\n\n\nclass PropagationTest:\n    def test_mixin(self, run):\n"
            "        @dataclasses.dataclass\n        class CommonMixin:\n"
            "            key = 'sa'\n            width = 3\n\n        run(CommonMixin)\n")
    repo.write("tests/test_dataclasses_py3k.py", text)
    repo.commit("tests")
    rec = ledger.record("CommonMixin keeps its key", ["tests/test_dataclasses_py3k.py::"
                                                      "PropagationTest.test_mixin.CommonMixin"])
    repo.delete("tests/test_dataclasses_py3k.py")
    repo.write("tests/test_dataclasses.py", text.replace("width = 3", "width = 4"))
    repo.commit("merge the py3k tests")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert check.new_path == "tests/test_dataclasses.py" and "(and its body changed)" in check.detail


def test_a_same_body_move_is_found_whatever_its_comments_and_number_case(repo, ledger):
    # Marker words are whole code words: not the comment's "sixteen", not
    # "xFFFF" from inside a number the move wrote in lower case.
    repo.write("pkg/flags.py", "def mask_bits(flags, width):\n    limit = 0xFFFF  # sixteen bits\n"
               "    shifted = flags << width\n    return shifted & limit\n\n\ndef other():\n    return 1\n")
    repo.commit("flags")
    rec = ledger.record("mask_bits keeps the low sixteen bits", ["pkg/flags.py::mask_bits"])
    repo.write("pkg/flags.py", "def other():\n    return 1\n")
    repo.write("pkg/bits.py", "def clip_flags(flags, width):\n    limit = 0xffff  # the low half\n"
               "    shifted = flags << width\n    return shifted & limit\n")
    repo.commit("move mask_bits to bits.py as clip_flags")
    check = _moved(ledger.verify(rec.id, at="HEAD"))
    assert (check.new_path, check.new_name) == ("pkg/bits.py", "clip_flags")
    assert "(same body)" in check.detail
