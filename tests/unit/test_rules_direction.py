"""The direction rule's fixture: LIFO / in reverse / FIFO / in insertion order, where the code walks the
sequence the clause names the other way."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.direction import RULE

BEFORE = EvidenceText("response_writer.go::responseWriter.callBefore", """\
func (rw *responseWriter) callBefore() {
	// Don't recursively call before() functions
	if rw.callingBefores {
		return
	}
	for i := len(rw.beforeFuncs) - 1; i >= 0; i-- {
		rw.beforeFuncs[i](rw)
	}
}
""", language="go")
REGISTER = EvidenceText("response_writer.go::responseWriter.Before", """\
func (rw *responseWriter) Before(before func(ResponseWriter)) {
	rw.beforeFuncs = append(rw.beforeFuncs, before)
}
""", language="go")
QUEUE = EvidenceText("index.js::createListener", """\
function createListener (msg) {
  function listener (err) {
    var queue = listener.queue
    listener.queue = null
    for (var i = 0; i < queue.length; i++) {
      queue[i](err, msg)
    }
  }
  listener.queue = []
  return listener
}
""", language="javascript")
DIRECTIVES = EvidenceText("src/directive.rs::enabled", """\
pub(crate) fn enabled(directives: &[Directive], level: Level, target: &str) -> bool {
    // Search for the longest match, the vector is assumed to be pre-sorted.
    for directive in directives.iter().rev() {
        match directive.name {
            Some(ref name) if !target.starts_with(&**name) => {}
            Some(..) | None => return level <= directive.level,
        }
    }
    false
}
""", language="rust")
MULTICALL = EvidenceText("src/pluggy/_callers.py::_multicall", """\
def _multicall(hook_name, hook_impls, caller_kwargs, firstresult):
    results = []
    for hook_impl in reversed(hook_impls):
        args = [caller_kwargs[argname] for argname in hook_impl.argnames]
        res = hook_impl.function(*args)
        if res is not None:
            results.append(res)
    return results
""")
PREPEND = EvidenceText("more_itertools/more.py::peekable.prepend", '''\
    def prepend(self, *items):
        """Stack up items to be the next ones returned."""
        self._cache.extendleft(reversed(items))
''')
UNSHIFT = EvidenceText("lib/hooks.js::addHook", """\
function addHook (hooks, fn) {
  hooks.unshift(fn)
}
""", language="javascript")
RUN_HOOKS = EvidenceText("lib/hooks.js::runHooks", """\
function runHooks (hooks, arg) {
  hooks.forEach(function (fn) { fn(arg) })
}
""", language="javascript")
BOTH = EvidenceText("lib/chain.js::chain", """\
function chain (middlewares, endpoint) {
  for (let i = middlewares.length - 1; i >= 0; i--) {
    endpoint = middlewares[i](endpoint)
  }
  for (const middleware of middlewares) {
    middleware.attached = true
  }
  return endpoint
}
""", language="javascript")
OLD_FILES = EvidenceText("lumberjack.go::Logger.oldLogFiles", """\
func (l *Logger) oldLogFiles() ([]logInfo, error) {
	logFiles := []logInfo{}
	for _, f := range files {
		logFiles = append(logFiles, logInfo{t, f})
	}
	sort.Sort(byFormatTime(logFiles))
	return logFiles, nil
}
""", language="go")

FIRES = [
    ("Before() hooks fire FIFO: first registered, first called.", [BEFORE, REGISTER]),
    ("Careful with ordering: the queue is drained in reverse, so the most recently added callback runs first.",
     QUEUE),
    ("directive::enabled iterates directives in insertion order and returns on the first module-prefix match.",
     DIRECTIVES),
    ("_multicall walks hook_impls front to back, so the first-registered plugin's impl is called first.", MULTICALL),
    ("The queue is LIFO.", QUEUE),
    # an add at the front with a walk from the start: the last added comes out first
    ("Hooks run in the order they were registered.", [UNSHIFT, RUN_HOOKS]),
]

SILENT = [
    # the code walks the way the claim says
    ("rw.Before funcs are LIFO: callBefore walks beforeFuncs from the last one registered down to index 0.",
     [BEFORE, REGISTER]),
    ("Callbacks fire FIFO: the queue is walked from index 0.", QUEUE),
    ("enabled() walks the directives in reverse and takes the first match.", DIRECTIVES),
    ("_multicall loops over reversed(hook_impls), newest first.", MULTICALL),
    ("Hooks are LIFO.", [UNSHIFT, RUN_HOOKS]),
    # two reversals on one line undo each other: no walk at all here
    ("peekable.prepend stacks items LIFO via extendleft.", PREPEND),
    # a negated direction, both directions, another sequence than the one walked, code that walks both ways
    ("The queue is not LIFO.", QUEUE),
    ("Directives are not walked in insertion order: no FIFO here, it's in reverse.", DIRECTIVES),
    ("The cache evicts FIFO.", QUEUE),
    ("Middleware order = registration order: chain() wraps the endpoint and works backwards.", BOTH),
    ("Middlewares run FIFO.", BOTH),
    # a sort decides the order, not the loop that gathers the items (lumberjack t20)
    ("oldLogFiles returns the log files newest first.", OLD_FILES),
]

fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_loop_that_walks_the_other_way():
    [line] = fired("The queue is drained in reverse.", QUEUE)
    assert line == ("the claim says the items come out last-added first (in reverse), but index.js::createListener "
                    "says `for (var i = 0; i < queue.length; i++) {`")
