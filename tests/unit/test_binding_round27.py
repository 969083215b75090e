"""Binding classes of issue 30's round 27 (tuning sets: hyperium/http-body,
unjs/cookie-es and four sets written blind at the round's start:
gorilla/sessions, rust-lang/flate2-rs, gruns/icecream, unjs/consola).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

# ------------------------------------------------- the members every JavaScript object inherits, named in prose

PARSE = ev("src/parse.ts::parse", """\
    export function parse(str: string): Record<string, string> {
      const obj = new NullObject();
      for (const pair of str.split(";")) {
        const [key, val] = pair.split("=");
        if (obj[key] === undefined) obj[key] = val;
      }
      return obj;
    }
""", "typescript")
SPLIT = ev("split.py::split", """\
    def split(text):
        out = {}
        for pair in text.split(";"):
            key, _, val = pair.partition("=")
            out.setdefault(key, val)
        return out
""", "python")


def test_object_prototype_members_bind_in_javascript_prose():
    assert unbound("parse() builds a prototype-less object, so keys like `constructor` or `__proto__` "
                   "are not inherited.", PARSE) == []
    assert unbound("parse() ignores `toString` and `hasOwnProperty` keys from the prototype.", PARSE) == []


def test_object_prototype_members_stay_unbound_outside_javascript():
    assert unbound("split() builds a dict, so keys like `constructor` are not inherited.", SPLIT) == ["constructor"]
    # a name that is no member of Object.prototype still has to be the code's
    assert unbound("parse() skips `__defineGetter__` keys.", PARSE) == ["__defineGetter__"]


# --------------------------------------------------- a call's arguments as people shorten them, one by one

SERIALIZE = ev("src/serialize.ts::serialize", """\
    export function serialize(cookie: Cookie): string {
      const age = Math.max(0, Math.min(cookie.maxAge, AGE_LIMIT));
      return cookie.name + "=" + age;
    }
""", "typescript")
STATIC = ev("static.go::Static.ServeHTTP", """\
    func (s *Static) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
        if !strings.HasSuffix(r.URL.Path, "/") {
            http.Redirect(rw, r, r.URL.Path+"/", http.StatusFound)
            return
        }
    }
""", "go")
LOCK = ev("flock_windows.go::Flock.doLock", """\
    func (f *Flock) doLock(flag uint32) error {
        return windows.LockFileEx(windows.Handle(f.fh.Fd()), flag, 0, 1, 0, &windows.Overlapped{})
    }
""", "go")


def test_arguments_bind_with_their_receivers_left_out():
    assert unbound("The age is clamped via Math.max(0, Math.min(maxAge, AGE_LIMIT)).", SERIALIZE) == []
    assert unbound('a directory without the slash gets http.Redirect(..., path+"/", http.StatusFound).',
                   STATIC) == []
    assert unbound("it calls windows.LockFileEx(handle, flag, 0, 1, 0, &windows.Overlapped{}).", LOCK) == []


def test_arguments_that_are_not_the_codes_stay_unbound():
    # another bound, another status, another argument order, a value for a name
    assert unbound("The age is clamped via Math.max(0, Math.min(maxAge, 400)).", SERIALIZE) \
        == ["Math.max(0, Math.min(maxAge, 400))"]
    assert unbound('it redirects with http.Redirect(..., path+"/", http.StatusMovedPermanently).', STATIC) \
        == ['http.Redirect(..., path+"/", http.StatusMovedPermanently)']
    assert unbound("it calls windows.LockFileEx(flag, handle, 0, 1, 0, &windows.Overlapped{}).", LOCK) \
        == ["windows.LockFileEx(flag, handle, 0, 1, 0, &windows.Overlapped{})"]


# ------------------------------------------------------ a regular expression literal written in prose

FIND_OPTIONS = ev("src/resolve/utils.ts::defaultFindOptions", """\
    const defaultFindOptions = {
      startingFrom: ".",
      rootPattern: /^node_modules$/,
    };
""", "typescript")


def test_a_pattern_written_in_prose_is_a_term_of_the_code():
    assert unbound("the search stops at /^node_modules$/ by default.", FIND_OPTIONS) == []
    assert unbound("the default rootPattern is /^\\.git$/, so the search halts at the repo.", FIND_OPTIONS) \
        == ["/^\\.git$/"]
