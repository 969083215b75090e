"""Binding classes met on true facts served under caution, each both ways.

A formula written the way people write one (receivers and a clamp left
out, an operand in prose, a name by the value the code assigns it), an
operator by the method that implements it, a piece of the reader's own
pattern, a member read through the package, an iteration by the protocol
the anchored class implements, a zero the code tests as falsy, a number the
claim computes from one of the code, the fixed head of a message, an
exception printed inside a message, the runtime's own functions, and a
library's function given as an example value: a true variant binds, a
false one stays unbound.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from memvet._claims import EvidenceText, Term, bind


def py(label: str, text: str) -> EvidenceText:
    """An anchor's evidence: ``path::Qualified.name`` and its Python code."""
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), "python")


def js(label: str, text: str) -> EvidenceText:
    """An anchor's evidence: ``path::Qualified.name`` and its JavaScript code."""
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), "javascript")


def unbound(claim: str, *evidence: EvidenceText, exists: Callable[[Term], bool] | None = None) -> list[str]:
    return [u.term.text for u in bind(claim, list(evidence), exists=exists)]


PICK = py("pkg/backoff.py::chain.__call__", """\
    def __call__(self, state):
        index = min(max(state.round_number, 1), len(self.steps))
        return self.steps[index - 1](state)
""")

WIDTH = py("pkg/layout.py::Layout.__init__", """\
    def __init__(self, indent=2, limit=None):
        if limit is None:
            limit = 100
        self.width = max(min(shutil.get_terminal_size().columns, limit) - 4, 40)
""")


def test_a_formula_without_receivers_or_a_clamp_binds() -> None:
    assert unbound("picks step min(round_number, len(steps)).", PICK) == []


def test_a_formula_with_another_callee_or_operand_stays_unbound() -> None:
    assert unbound("picks step max(round_number, len(steps)).", PICK) == ["max(round_number, len(steps))"]
    assert unbound("picks step min(round_number, len(steps) - 1).", PICK) == ["min(round_number, len(steps) - 1)"]


def test_a_formula_with_prose_operands_and_an_assigned_value_binds() -> None:
    assert unbound("width is max(min(terminal columns, 100) - 4, 40).", WIDTH) == []


def test_a_formula_with_a_value_the_code_does_not_assign_stays_unbound() -> None:
    assert unbound("width is max(min(terminal columns, 80) - 4, 40).", WIDTH) == [
        "max(min(terminal columns, 80) - 4, 40)"]
    assert unbound("width is max(min(terminal columns, 100) - 4, 30).", WIDTH) == [
        "max(min(terminal columns, 100) - 4, 30)"]
    assert unbound("width is max(min(terminal rows, 100) - 4, 40).", WIDTH) == [
        "max(min(terminal rows, 100) - 4, 40)"]


AND = py("pkg/gate.py::gate_base.__and__", """\
    def __and__(self, other):
        return gate_all(self, other)
""")


def test_an_operator_the_anchored_class_implements_binds() -> None:
    assert unbound("`&` builds a `gate_all`.", AND) == []


def test_an_operator_it_does_not_implement_stays_unbound() -> None:
    assert unbound("`^` builds a `gate_all`.", AND) == ["^"]


def test_an_expression_of_the_operator_is_not_bound_by_it() -> None:
    # what the operator builds is the method's to say: a claim may misstate it
    assert unbound("`open_gate(1) & shut_gate(2)` builds a `gate_all`.", AND) == ["open_gate(1) & shut_gate(2)"]


MATCHER = py("pkg/filters.py::by_message._check", """\
    def _check(self, exc):
        return bool(self.pattern.match(str(exc)))
""")

PLAIN = py("pkg/filters.py::by_prefix._check", """\
    def _check(self, exc):
        return str(exc).startswith(self.prefix)
""")


def test_a_piece_of_the_readers_pattern_binds_where_the_code_matches_patterns() -> None:
    assert unbound("prefix your pattern with `.*` to match mid-message.", MATCHER) == []


def test_a_piece_of_pattern_stays_unbound_where_the_code_matches_none() -> None:
    assert unbound("prefix your pattern with `.*` to match mid-message.", PLAIN) == [".*"]


EXPORTS = js("lib/app.js::module.exports", """\
    module.exports = class App extends Emitter {
      constructor (options) {
        super()
        this.proxy = options.proxy || false
      }
    }
""")


def _project(*names: str) -> Callable[[Term], bool]:
    return lambda term: term.text in names


def test_a_member_read_through_the_package_binds_where_the_file_exports_it() -> None:
    exists = _project("lib/app.ServerError", "webkit")
    assert unbound("`require('webkit').ServerError` is re-exported.", EXPORTS, exists=exists) == []


def test_a_member_the_file_does_not_export_stays_unbound() -> None:
    exists = _project("lib/app.ServerError", "webkit")
    assert unbound("`require('webkit').ClientError` is re-exported.", EXPORTS, exists=exists) == [
        "require('webkit').ClientError"]


POLLER = py("pkg/poll.py::Poller.__anext__", """\
    async def __anext__(self):
        do = await self.iter(state=self._state)
        return do
""")

POLLER_ITER = py("pkg/poll.py::Poller.__iter__", """\
    def __iter__(self):
        raise TypeError("Poller object is not iterable")
""")


def test_an_iteration_by_the_protocol_the_class_implements_binds() -> None:
    assert unbound("Use `async for attempt in Poller(...)`.", POLLER, POLLER_ITER) == []


def test_an_iteration_through_a_method_that_only_raises_stays_unbound() -> None:
    assert unbound("Use `for attempt in Poller(...)`.", POLLER, POLLER_ITER) == ["for attempt in Poller(...)"]


LISTEN = js("lib/app.js::module.exports.handler", """\
    handler () {
      if (!this.listenerTotal('fault')) this.on('fault', this.onfault)
      return handle
    }
""")

LISTEN_ALWAYS = js("lib/app.js::module.exports.handler", """\
    handler () {
      if (this.listenerTotal('fault')) this.on('fault', this.onfault)
      return handle
    }
""")


def test_a_zero_the_code_tests_as_falsy_binds() -> None:
    assert unbound("adds the default only if listenerTotal('fault') is 0.", LISTEN) == []


def test_another_number_or_a_truthy_test_stays_unbound() -> None:
    assert unbound("adds the default only if listenerTotal('fault') is 2.", LISTEN) == ["2"]
    assert unbound("adds the default only if listenerTotal('fault') is 0.", LISTEN_ALWAYS) == ["0"]


INSPECT = js("lib/run.js::bumpPort", """\
    function bumpPort(args) {
      let port = '5858';
      return args.map((arg) => {
        if (port !== '0') port = parseInt(port) + 1;
        return `${arg}=${port}`;
      });
    }
""")


def test_a_number_the_claim_computes_from_one_of_the_code_binds() -> None:
    assert unbound("moves the debugger to port+1 (default 5858 -> 5859).", INSPECT) == []


def test_a_number_the_step_does_not_reach_stays_unbound() -> None:
    assert unbound("moves the debugger to port+1 (default 5858 -> 5860).", INSPECT) == ["5860"]
    assert sorted(unbound("moves the debugger to port+2 (default 5858 -> 5860).", INSPECT)) == ["2", "5860"]


SUGGEST = py("pkg/errors.py::UnknownKey.__init__", """\
    def __init__(self, key, near):
        hint = "Perhaps you meant {near}?".format(near=near)
        super().__init__(f"unknown key {key}. {hint}")
""")


def test_the_fixed_head_of_a_message_binds() -> None:
    assert unbound('narrows them for the "Perhaps you meant" hint.', SUGGEST) == []


def test_other_words_for_the_head_stay_unbound() -> None:
    assert unbound('narrows them for the "Perhaps you wanted" hint.', SUGGEST) == ["Perhaps you wanted"]


LOG = py("pkg/hooks.py::log_failure", """\
    def log_failure(logger):
        def log_it(state):
            ex = state.outcome.exception()
            verb, value = "raised", f"{ex.__class__.__name__}: {ex}"
            logger.warning(f"Giving up on {state.fn} " f"after {state.tries} tries as it {verb} {value}.")
        return log_it
""")


def test_an_exception_printed_inside_a_message_binds_to_its_field() -> None:
    claim = "log_failure logs `Giving up on <fn> after <n> tries as it raised <ExcType>: <msg>.`"
    assert unbound(claim, LOG) == []


def test_a_message_with_other_words_around_the_exception_stays_unbound() -> None:
    claim = "log_failure logs `Giving up on <fn> after <n> attempts as it raised <ExcType>: <msg>.`"
    assert unbound(claim, LOG) == ["Giving up on <fn> after <n> attempts as it raised <ExcType>: <msg>."]


LIMIT = js("source/limits.ts::maxDelay", """\
    export const maxDelay = 2_147_483_647;
""")


def test_the_runtimes_own_function_binds_in_javascript() -> None:
    assert unbound("the largest delay setTimeout accepts.", LIMIT) == []


def test_the_runtimes_function_stays_unbound_elsewhere_or_misspelt() -> None:
    assert unbound("the largest delay setTimer accepts.", LIMIT) == ["setTimer"]
    python_limit = py("pkg/limits.py::MAX_DELAY", "MAX_DELAY = 2_147_483_647\n")
    assert unbound("the largest delay setTimeout accepts.", python_limit) == ["setTimeout"]


DECORATOR = py("pkg/__init__.py", """\
    def retry(*dargs, **dkw):
        if is_coroutine_callable(dkw.get("sleep")):
            return AsyncRetrying(*dargs, **dkw)
        return Retrying(*dargs, **dkw)

    async def sleep(seconds):
        await asyncio.sleep(seconds)
""")


def test_a_library_function_as_an_example_value_binds_where_the_project_names_the_library() -> None:
    claim = "switches to AsyncRetrying when the sleep is async (e.g. `@retry(sleep=curio.sleep)`)."
    assert unbound(claim, DECORATOR, exists=_project("curio")) == []


def test_a_library_the_project_never_names_stays_unbound() -> None:
    claim = "switches to AsyncRetrying when the sleep is async (e.g. `@retry(sleep=curio.sleep)`)."
    assert unbound(claim, DECORATOR, exists=_project()) == ["@retry(sleep=curio.sleep)"]
    claim = "switches to AsyncRetrying when the sleep is async (e.g. `@retry(sleep=curio.nap)`)."
    assert unbound(claim, DECORATOR, exists=_project("curio")) == ["@retry(sleep=curio.nap)"]


JSONP = js("lib/response.js::res.padded", """\
    res.padded = function padded(obj) {
      var body = stringify(obj);
      var callback = this.req.query[app.get('callback name')];
      if (typeof callback === 'string' && callback.length !== 0) {
        body = 'typeof ' + callback + ' === \\'function\\' && ' + callback + '(' + body + ');';
      }
      return this.send(body);
    };
""")


def test_a_call_the_code_writes_as_text_binds() -> None:
    assert unbound("res.padded wraps the body as cb(<json>) behind a typeof check.", JSONP) == []


def test_a_call_of_another_name_or_not_written_as_text_stays_unbound() -> None:
    assert unbound("res.padded wraps the body as fn(<json>) behind a typeof check.", JSONP) == ["fn(<json>)"]
    assert "cb(<json>)" in unbound("res.padded wraps the body as cb(<json>) behind a typeof check.", EXPORTS)
