"""Binding classes of issue 30's round 18 (tuning sets: kballard/go-shellquote,
wolever/parameterized and eight sets written blind at the round's start).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

# ----------------------------------------------------------------- a catch-all read by its keys

EXPAND = ev("parameterized.py::parameterized.expand", """\
    @classmethod
    def expand(cls, input, name_func=None, doc_func=None, skip_on_empty=False,
               namespace=None, **legacy):
        if "testcase_func_name" in legacy:
            warnings.warn("testcase_func_name= is deprecated", stacklevel=2)
            if not name_func:
                name_func = legacy["testcase_func_name"]
        if legacy.get("testcase_func_doc"):
            doc_func = legacy.pop("testcase_func_doc")
        return cls(input, name_func, doc_func)

    def other(self, **kw):
        return kw
""", "python")

FORWARD = ev("api.py::get", """\
def get(url, params=None, **kwargs):
    return request("get", url, params=params, **kwargs)
""", "python")


def test_a_keyword_catch_all_read_by_its_keys_takes_those_keys_only():
    assert unbound("`expand(cases, testcase_func_name=f)` still works, with a warning.", EXPAND) == []
    assert unbound("`expand(cases, testcase_func_doc=f)` sets the doc function.", EXPAND) == []
    assert unbound("`expand(cases, max_workers=4)` runs the cases in threads.", EXPAND) == [
        "expand(cases, max_workers=4)"]
    # a catch-all passed on takes any keyword; a later function's body is not this one's
    assert unbound("`get(url, timeout=5)` gives up after five seconds.", FORWARD) == []


# ----------------------------------------------------------------- strings and quotes

PLAIN = ev("index.js::serveIndex.plain", """\
serveIndex.plain = function _plain (req, res, files) {
  var buf = files.map(function (f) { return f.name }).join('\\n') + '\\n'
  send(res, 'text/plain', buf)
}
""", "javascript")

MESSAGE = ev("parameterized.py::getargspec", """\
def getargspec(func):
    args = inspect.getfullargspec(func)
    if args.kwonlyargs:
        raise TypeError((
            "parameterized does not (yet) support functions with keyword "
            "only arguments, but %r has keyword only arguments. "
        ) %(func, ))
    return args
""", "python")


def test_a_separator_written_as_an_escape_is_compared_as_written():
    assert unbound("plain joins the names with '\\n' plus a trailing '\\n'.", PLAIN) == []
    assert unbound("plain joins the names with '\\t'.", PLAIN) == ["\\t"]


def test_an_excerpt_of_a_message_with_its_rest_left_out():
    assert unbound('getargspec raises TypeError ("support functions with keyword only arguments ...").',
                   MESSAGE) == []
    assert unbound('getargspec raises TypeError ("... with keyword only arguments").', MESSAGE) == []
    assert unbound('getargspec raises TypeError ("support methods with keyword only arguments ...").',
                   MESSAGE) == ["support methods with keyword only arguments ..."]


# ----------------------------------------------------------------- code as written in a sentence

TRY_CTX = ev("flock.go::tryCtx", """\
func tryCtx(ctx context.Context, fn func() (bool, error), retryDelay time.Duration) (bool, error) {
	for {
		if ok, err := fn(); ok || err != nil {
			return ok, err
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(retryDelay):
		}
	}
}
""", "go")

NEGOTIATE = ev("index.js::serveIndex", """\
function serveIndex (root, options) {
  return function (req, res, next) {
    var accept = accepts(req)
    var type = accept.type(mediaTypes)
    if (!type) return next(createError(406))
  }
}
""", "javascript")


def test_statements_written_on_one_line_with_semicolons():
    assert unbound("tryCtx waits in `select { case <-ctx.Done(): return false, ctx.Err(); "
                   "case <-time.After(retryDelay): }`.", TRY_CTX) == []
    assert unbound("tryCtx waits in `select { case <-ctx.Done(): return true, ctx.Err(); "
                   "case <-time.After(retryDelay): }`.", TRY_CTX) == [
        "select { case <-ctx.Done(): return true, ctx.Err(); case <-time.After(retryDelay): }"]


def test_a_call_on_what_a_call_returns_written_through_a_local():
    assert unbound("Negotiation is `accepts(req).type(mediaTypes)`.", NEGOTIATE) == []
    assert unbound("Negotiation is `accepts(req).types(mediaTypes)`.", NEGOTIATE) == [
        "accepts(req).types(mediaTypes)"]
    assert unbound("Negotiation is `accepts(res).type(mediaTypes)`.", NEGOTIATE) == [
        "accepts(res).type(mediaTypes)"]


# ----------------------------------------------------------------- numbers and names

COMPOSE = ev("functoolz.py::compose", """\
def compose(*funcs):
    if not funcs:
        return identity
    if len(funcs) == 1:
        return funcs[0]
    else:
        return Compose(funcs)
""", "python")

WINKLER = ev("src/lib.rs::generic_jaro_winkler", """\
pub fn generic_jaro_winkler(a: &str, b: &str) -> f64 {
    let sim = generic_jaro(a, b);
    let prefix_length = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    sim + 0.1 * prefix_length as f64 * (1.0 - sim)
}
""", "rust")


def test_a_floor_written_with_a_plus_is_the_rest_past_the_code_s_last_case():
    assert unbound("compose() returns the single function as is; only 2+ functions build a Compose.", COMPOSE) == []
    assert unbound("compose() returns the single function as is; only 3+ functions build a Compose.", COMPOSE) == [
        "3"]


def test_a_name_with_its_words_shortened():
    assert unbound("The bonus is 0.1 * prefix_len * (1 - sim).", WINKLER) == []
    assert unbound("The bonus is 0.1 * pr_len * (1 - sim).", WINKLER) == ["pr_len"]  # a word of two letters is no name
    assert unbound("The bonus is 0.1 * suffix_len * (1 - sim).", WINKLER) == ["suffix_len"]
