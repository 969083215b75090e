"""Binding classes met on round 5's tuning sets (a caching library in
Python, a promise queue in TypeScript), each both ways.

A quoted word is a value: it binds to a word of a string literal the code
writes, never to a name that happens to be spelled the same (``'clear'``
against a method ``clear()``).
"""

from __future__ import annotations

import textwrap

from memvet._claims import EvidenceText, bind


def ev(label: str, text: str, language: str = "typescript") -> EvidenceText:
    """An anchor's evidence: ``path::Qualified.name`` and its code."""
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), language)


def unbound(claim: str, *evidence: EvidenceText) -> list[str]:
    return [u.term.text for u in bind(claim, list(evidence))]


CLEAR = ev("src/cache.ts::Cache.clear", '''\
    clear() {
      return this.#clear('delete')
    }
''')

IDS = ev("src/queue.ts::Queue.add", '''\
    add(fn, options = {}) {
      const id = options.id ?? (this.#idAssigner++).toString();
      this.#queue.enqueue(fn, {...options, id});
      if (this.#pending === 0) this.emit('idle');
    }
''')


def test_a_quoted_word_binds_to_a_string_the_code_writes() -> None:
    assert unbound("clear() disposes every entry with reason 'delete'.", CLEAR) == []


def test_a_quoted_word_does_not_bind_to_a_name_spelled_the_same() -> None:
    assert unbound("clear() disposes every entry with reason 'clear'.", CLEAR) == ["clear"]


def test_a_quoted_number_is_a_string_the_code_must_write() -> None:
    assert unbound('The first task added without an `id` gets "0".', IDS) == ["0"]


def test_a_quoted_symbol_still_binds_to_the_code_that_tests_it() -> None:
    html = ev("lib/response.js::body", '''\
        set body(val) {
          const type = /^\\s*</.test(val) ? 'html' : 'text';
        }
    ''', "javascript")
    assert unbound("Strings starting with '<' are sent as 'html'.", html) == []


# ------------------------------------------------------------------ unsupported wording

TTL = ev("cachetools/__init__.py::TTLCache.__setitem__", '''\
    def __setitem__(self, key, value, cache_setitem=Cache.__setitem__):
        """Store ``value`` under ``key``; it expires ``ttl`` seconds from now."""
        with self.timer as time:
            self.expire(time)
            cache_setitem(self, key, value)
        link = self.__links[key] = _Link(key)
        link.expires = time + self.ttl
        self.__order.append(link)
''', "python")


def test_a_claim_of_only_its_anchors_name_and_words_the_code_never_uses_is_unsupported() -> None:
    claim = ("TTLCache adds a small random jitter to each item's expiry so entries written together "
             "don't all expire in the same tick.")
    found = bind(claim, [TTL])
    assert [u.term.kind.value for u in found] == ["words"]
    assert found[0].line().startswith(
        "nothing in cachetools/__init__.py::TTLCache.__setitem__ says what the claim says: its words 'adds',")
    assert "'jitter'" in found[0].term.text and "'expire'" not in found[0].term.text  # expires: the code's


def test_the_same_claim_in_the_code_s_words_is_supported() -> None:
    claim = "TTLCache stores each value under its key, and the link expires ttl seconds from now."
    assert bind(claim, [TTL]) == []


def test_a_term_of_its_own_makes_the_claim_checked_not_judged_by_its_words() -> None:
    # `self.ttl` binds: the claim is checked by its terms, however it is worded
    claim = ("TTLCache adds a small random jitter around `self.ttl` so entries written together "
             "don't all expire at once.")
    assert bind(claim, [TTL]) == []


def test_wording_is_not_judged_on_a_declared_unbound_word_a_short_claim_or_a_manifest() -> None:
    claim = "TTLCache adds a small random jitter to each item's expiry so entries written together drift apart."
    assert bind(claim, [TTL], unbound=["jitter"]) == []
    assert bind("TTLCache jitters expiry slightly.", [TTL]) == []
    manifest = EvidenceText("dep:charset_normalizer", "charset_normalizer>=2,<4", ("charset_normalizer",))
    assert bind("charset_normalizer is a declared dependency, used to guess the encoding of responses.",
                [manifest]) == []


def test_an_unsupported_claim_is_recorded_unconfirmed_with_its_reason(ledger) -> None:  # type: ignore[no-untyped-def]
    result = ledger.record("OrderStore.save keeps a bloom filter of recent customers to deduplicate "
                           "retries cheaply during checkout spikes.", ["shop/store.py::OrderStore.save"])
    assert result.outcome == "recorded"
    assert result.findings[0].startswith("nothing in shop/store.py::OrderStore.save says what the claim says")
    verdict = ledger.verify(result.id)
    assert verdict.status.value == "needs_revalidation" and verdict.reason.startswith("unconfirmed: nothing in")


def test_a_person_settles_an_unsupported_claim_by_declaring_a_word_unbound(ledger) -> None:  # type: ignore[no-untyped-def]
    result = ledger.record("OrderStore.save keeps a bloom filter of recent customers to deduplicate "
                           "retries cheaply during checkout spikes.", ["shop/store.py::OrderStore.save"])
    settled = ledger.resolve(result.id, unbound=["bloom"], reason="the design note, not in this code")
    assert settled.findings == () and ledger.verify(result.id).status.value == "verified"


# ------------------------------------------------------------------ members written with a leading dot

UNBOUNDED = ev("cachetools/func.py::_UnboundTTLCache", '''\
    class _UnboundTTLCache(TTLCache):
        def __init__(self, ttl, timer):
            TTLCache.__init__(self, math.inf, ttl, timer)
            self.stats = None

        @property
        def maxsize(self):
            return None
''', "python")


def test_a_member_written_with_a_leading_dot_binds_to_the_member_the_code_defines_or_sets() -> None:
    assert unbound("Its `.maxsize` reports None, as functools does.", UNBOUNDED) == []
    assert unbound("Its `.stats` starts out as None.", UNBOUNDED) == []


def test_a_member_the_code_neither_defines_nor_sets_stays_unbound() -> None:
    assert unbound("Its `.currsize` reports None, as functools does.", UNBOUNDED) == [".currsize"]
    assert unbound("Its `.ttl` is fixed.", UNBOUNDED) == [".ttl"]  # a parameter, not a member


# ------------------------------------------------------------------ the runtime's constants and versions

LOG = ev("index.js::morgan.logRequest", '''\
    function logRequest () {
      var line = formatLine(morgan, req, res)
      if (line == null) {
        debug('skip line')
        return
      }
    }
''', "javascript")


def test_javascript_s_own_constants_bind_as_python_s_none_does() -> None:
    assert unbound("A format can return `null`/`undefined` to suppress the line.", LOG) == []
    assert unbound("logRequest returns `NaN` for a bad line.", LOG) == []
    # a Python evidence does not know them
    assert unbound("log returns `undefined`.", ev("app.py::log", "def log():\n    return None\n", "python")) \
        == ["undefined"]


def test_a_number_after_a_runtime_s_name_is_its_version_not_a_value() -> None:
    assert unbound("logRequest checks `line == null` (old node 0.8 support).", LOG) == []
    assert unbound("logRequest checks `line == null` for python 3.9 callers.", LOG) == []
    assert unbound("logRequest checks `line == null` for 8 lines.", LOG) == ["8"]


# ------------------------------------------------------------------ inputs in a notation the code reads

FORMATS = '''\
function compile (format) {
  var js = format.replace(/:([-\\w]{2,})(?:\\[([^\\]]+)\\])?/g, function (_, name, arg) {
    return 'tokens[' + String(JSON.stringify(name)) + '](req, res, ' + String(JSON.stringify(arg)) + ')'
  })
  return js
}

morgan.token('date', function getDateToken (req, res, format) {
  switch (format || 'web') {
    case 'clf':
      return clfdate(new Date())
    case 'web':
      return new Date().toUTCString()
  }
})

morgan.token('res', function getResponseHeader (req, res, field) {
  return res.getHeader(field)
})

var wild = /.*/
'''


def test_an_input_in_the_notation_a_pattern_of_the_anchored_file_reads_binds(repo, ledger) -> None:  # type: ignore[no-untyped-def]
    repo.write("index.js", FORMATS)
    repo.commit("formats")
    anchors = ledger.resolve_anchors(["index.js::getDateToken"])
    assert ledger.grade_claim("`:date` with no argument is the web format; `:date[clf]` is the other.", anchors) \
        == ()
    header = ledger.resolve_anchors(["index.js::getResponseHeader"])
    assert ledger.grade_claim("`:res[<header>]` reads a response header.", header) == ()


def test_an_input_the_pattern_does_not_read_or_whose_words_the_file_lacks_stays_unbound(repo, ledger) -> None:  # type: ignore[no-untyped-def]
    repo.write("index.js", FORMATS)
    repo.commit("formats")
    anchors = ledger.resolve_anchors(["index.js::getDateToken"])
    # one letter: the pattern wants two; `iso` is no word of the file; a catch-all (/.*/) reads no notation
    for claim, term in [("`:a` is left as it is.", ":a"), ("`:date[iso]` gives an ISO date.", ":date[iso]"),
                        ("`%d %s` is the layout.", "%d %s")]:
        findings = ledger.grade_claim(claim, anchors)
        assert len(findings) == 1 and findings[0].startswith(f"`{term}` (code) is not in index.js::getDateToken")


def test_a_pattern_python_cannot_read_is_skipped() -> None:
    from memvet._anchors import _patterns_in

    source = "const word = /\\p{L}{2,}/u\nconst token = /:(\\w{2,})/g\n"
    assert [p.pattern for p in _patterns_in(source)] == [":(\\w{2,})"]


# ------------------------------------------------------------------ messages naming the anchored class

POPITEM = ev("cachetools/__init__.py::LRUCache.popitem", '''\
    def popitem(self):
        try:
            key = next(iter(self.__order))
        except StopIteration:
            raise KeyError("%s is empty" % type(self).__name__) from None
        return (key, self.pop(key))
''', "python")


def test_a_message_field_filled_with_the_anchored_class_s_name_binds() -> None:
    assert unbound('popitem on an empty cache raises KeyError "LRUCache is empty".', POPITEM) == []
    assert unbound("popitem raises `KeyError('<ClassName> is empty')` when empty.", POPITEM) == []


def test_a_field_filled_with_another_name_or_other_words_stays_unbound() -> None:
    assert unbound('popitem raises KeyError "TTLCache is empty".', POPITEM) == ["TTLCache is empty"]
    assert unbound("popitem raises `KeyError('<ClassName> is full')` when full.", POPITEM) \
        == ["KeyError('<ClassName> is full')"]


# ------------------------------------------------------------------ messages matched by their fields alone

TIMEOUT = ev("source/index.ts::PQueue.add", '''\
    add(fn, options) {
      const run = () => new Promise(fn);
      return pTimeout(run(), {
        milliseconds: options.timeout,
        message: `Task timed out after ${options.timeout}ms (queue has ${this.#pending} running)`,
      });
    }
''')


def test_a_message_matched_only_through_fields_that_take_any_words_stays_unbound() -> None:
    # every word is the code's (Promise, milliseconds), but the text is not: the
    # field of "... after {timeout}ms" takes "Promise timed out after" as a run of words
    assert unbound('Timed-out tasks reject with "Promise timed out after <ms> milliseconds".', TIMEOUT) \
        == ["Promise timed out after <ms> milliseconds"]


def test_the_code_s_message_with_its_fields_as_placeholders_still_binds() -> None:
    assert unbound('Timed-out tasks reject with "Task timed out after <ms>ms (queue has <n> running)".',
                   TIMEOUT) == []
    assert unbound('Timed-out tasks reject with "Task timed out after 500ms".', TIMEOUT) == []


# ------------------------------------------------------------------ factors

HEAP = ev("cachetools/__init__.py::TLRUCache.expire", '''\
    def expire(self, time=None):
        if len(self.__heap) > len(self.__items) * self.__HEAP_CLEANUP_FACTOR:
            self.__heap = [item for item in self.__heap if not item.removed]
''', "python")
FACTOR = ev("cachetools/__init__.py::TLRUCache", "class TLRUCache(_TimedCache):\n    __HEAP_CLEANUP_FACTOR = 2\n",
            "python")


def test_a_factor_written_with_its_multiplication_sign_is_a_number_the_code_must_hold() -> None:
    assert unbound("expire rebuilds the heap once it holds more than 2x the live items.", HEAP, FACTOR) == []
    assert unbound("expire rebuilds the heap once it holds more than 4x the live items.", HEAP, FACTOR) == ["4"]
    assert unbound("expire keeps 0x1F and x86 out of it.", HEAP, FACTOR) == ["0x1F", "x86"]


# ------------------------------------------------------------------ switches set by the reader

MORGAN = ev("index.js::morgan", '''\
    function morgan (format, options) {
      var opts = options || {}
      var immediate = opts.immediate
      var skip = opts.skip || false
      return function logger (req, res, next) {
        if (immediate) {
          logRequest()
        }
        next()
      }
    }
''', "javascript")


def test_a_switch_set_to_true_binds_where_the_code_tests_that_option() -> None:
    assert unbound("With `immediate: true` the line is written on the request.", MORGAN) == []


def test_a_switch_the_code_never_tests_or_set_to_another_value_stays_unbound() -> None:
    assert unbound("With `verbose: true` every line is written twice.", MORGAN) == ["verbose: true"]
    # a switch the code tests, set to false by a caller: a setting of the reader's (round 7: the value is the
    # reader's; the optin rule reads "pass `K: false`" where the code only tests whether K is set)
    assert unbound("With `immediate: false` nothing changes.", MORGAN) == []
    assert unbound("With `immediate: 'yes'` nothing changes.", MORGAN) == []
    assert unbound("With `immediately: false` nothing changes.", MORGAN) == ["immediately: false"]
    # `skip` is read but never tested for truth
    assert unbound("With `skip: true` nothing is logged.", MORGAN) == ["skip: true"]


def test_packages_the_anchored_file_imports_bind_side_by_side() -> None:
    logger = EvidenceText("index.js::morgan", "function morgan () {\n  onFinished(res, log)\n}\n",
                          ("index.js::morgan", "morgan"), "javascript", imports=("on-finished", "on-headers"))
    assert unbound("It hooks on-headers/on-finished to time the response.", logger) == []
    assert unbound("It hooks on-headers/on-closed to time the response.", logger) == ["on-headers/on-closed"]
