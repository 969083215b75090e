"""The placement rule's fixture: items said added at one end of a list, where the code adds them at the other."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.placement import RULE

PREPEND = EvidenceText("app.py::App.add_hook", """\
def add_hook(self, hook):
    if self.started:
        raise RuntimeError("too late")
    self.hooks.insert(0, hook)
""")
APPEND = EvidenceText("app.py::App.add_hook", """\
def add_hook(self, hook):
    self.hooks.append(hook)
""")
UNSHIFT = EvidenceText("lib/app.js::App.use", """\
use (fn) {
  this.middleware.unshift(fn)
  return this
}
""")
PUSH = EvidenceText("lib/app.js::App.use", """\
use (fn) {
  this.middleware.push(fn)
  return this
}
""")
BOTH = EvidenceText("app.py::App.add_hook", """\
def add_hook(self, hook, first=False):
    if first:
        self.hooks.insert(0, hook)
    else:
        self.hooks.append(hook)
""")
GO_APPEND = EvidenceText("alt_exit.go::RegisterExitHandler", """\
func RegisterExitHandler(handler func()) {
	handlers = append(handlers, handler)
}
""", language="go")
GO_PREPEND = EvidenceText("alt_exit.go::DeferExitHandler", """\
func DeferExitHandler(handler func()) {
	handlers = append([]func(){handler}, handlers...)
}
""", language="go")

HPACK_ENCODE_BLOCK = EvidenceText("src/hpack/hpack.py::Encoder.encode", """\
    def encode(self, headers, huffman=True):
        header_block = []
        if self.header_table.resized:
            header_block.append(self._encode_table_size_change())
            self.header_table.resized = False
        for header in headers:
            header_block.append(self.add(header, sensitive, huffman))
        return b"".join(header_block)
""")

FIRES = [
    ("add_hook appends to the list, so the first hook you register runs first.", PREPEND),
    # round 23: Go's append, at the end or (with a literal first) at the front
    ("RegisterExitHandler prepends to the handler list, so the most recently registered handler runs first.",
     GO_APPEND),
    ("DeferExitHandler appends to the handler list.", GO_PREPEND),
    ("Hooks are appended in registration order.", PREPEND),
    ("use() pushes each middleware onto the stack, so the first one added runs first.", UNSHIFT),
    ("add_hook prepends, so the last hook added runs first.", APPEND),
    ("use() inserts each middleware at the front of the list.", PUSH),
    # the first add into a list made empty is at its front; a later one is not
    ("Each header is prepended to the header_block.", EvidenceText("a.py::f", """\
def f(headers):
    header_block = [start]
    for header in headers:
        header_block.append(header)
"""))
]

SILENT = [
    ("add_hook prepends (insert(0, ...)), so the last hook added runs first.", PREPEND),
    ("RegisterExitHandler appends to the handler list.", GO_APPEND),
    ("DeferExitHandler prepends to the handler list, like defer.", GO_PREPEND),
    ("add_hook appends to the list.", APPEND),
    ("use() pushes each middleware onto the stack.", PUSH),
    ("use() adds each middleware to the front of the list.", UNSHIFT),
    # negated, or the code adds at both ends
    ("add_hook does not append to the list; it prepends.", PREPEND),
    ("add_hook appends to the list unless first is set.", BOTH),
    # the clause does not name the sequence the code adds to: a string, not a list
    ("add_hook appends a suffix to the name.", PREPEND),
    # a negation after a comma is about something else
    ("add_hook appends, so a slow hook does not block registration.", APPEND),
    ("If the table was resized, encode() first prepends the size-update bytes to the header block.",
     HPACK_ENCODE_BLOCK),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_call_that_adds_at_the_other_end():
    [line] = fired("add_hook appends to the list.", PREPEND)
    assert line.endswith("says `self.hooks.insert(0, hook)`")
