"""Binding classes met on true facts served under caution, each both ways.

Values a claim names as outside a closed set of the code (a literal array,
a ``Set``, a regular expression's alternatives) are checked absent from
that set; a ``key: value`` pair written the way docs and HTTP write it
binds where the code writes the key and the value together; a backticked
address with placeholder parts is an example. A true variant binds, a
false one stays unbound.
"""

from __future__ import annotations

import textwrap

from memvet._claims import EvidenceText, bind


def js(label: str, text: str) -> EvidenceText:
    """An anchor's evidence: ``path::Qualified.name`` and its JavaScript code."""
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), "javascript")


def ts(label: str, text: str) -> EvidenceText:
    """An anchor's evidence: ``path::Qualified.name`` and its TypeScript code."""
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), "typescript")


def unbound(claim: str, *evidence: EvidenceText) -> list[str]:
    return [u.term.text for u in bind(claim, list(evidence))]


# ------------------------------------------------------------ closed sets

SCHEMES = js("src/open.js::open", """\
    const allowed = new Set(['tcp:', 'udp:', 'unix:']);
    export function open(url) {
        if (!allowed.has(url.protocol)) {
            throw new TypeError(`cannot open ${url}`);
        }
    }
""")

CODES = js("src/retry.js::retryable", """\
    const codes = [408, 429, 503];
    export function retryable(status) {
        return codes.includes(status);
    }
""")

VERBS = js("src/call.js::Call", """\
    export class Call {
        constructor(verb) {
            if (/^(fetch|store|drop)$/i.test(verb)) {
                verb = verb.toUpperCase();
            }
            this.verb = verb;
        }
    }
""")


def test_values_set_apart_from_the_codes_whole_set_are_checked_absent() -> None:
    assert unbound("open() only takes `tcp:`, `udp:` and `unix:`; anything else (e.g. `ipc:`) throws a TypeError.",
                   SCHEMES) == []
    assert unbound("retryable() knows 408, 429 and 503; 500 and 502 are not retried.", CODES) == []
    assert unbound("Only FETCH/STORE/DROP are upper-cased; `verb: 'list'` stays as lowercase `list`.", VERBS) == []


def test_a_value_the_claim_adds_to_the_set_must_be_in_it() -> None:
    assert unbound("open() takes `tcp:`, `udp:` and `unix:`; `ipc:` works as well.", SCHEMES) == ["ipc:"]
    assert unbound("retryable() knows 408, 429 and 503; 500 is retried too.", CODES) == ["500"]
    assert unbound("Only FETCH/STORE/DROP are upper-cased; `list` is upper-cased too.", VERBS) == ["list"]
    assert unbound("Only FETCH, STORE, DROP and LIST are upper-cased.", VERBS) == ["LIST"]


def test_a_value_set_apart_from_a_partial_list_or_present_in_the_set_is_not_excused() -> None:
    # the claim does not name the whole set: nothing says what the set is
    assert unbound("retryable() knows 408 and 429; 500 is not retried.", CODES) == ["500"]
    # the claim neither calls its list exclusive nor sets the value apart: it says the code handles it
    assert unbound("retryable() knows 408, 429 and 503; 500 gets a longer wait.", CODES) == ["500"]
    # a value of another kind than the set's members is not checked against it
    assert unbound("open() only takes `tcp:`, `udp:` and `unix:`; port 9000 is refused.", SCHEMES) == ["9000"]


# ----------------------------------------------------------- key: value

DEFAULTS = js("src/request.js::defaults", """\
    export function defaults(request) {
        const headers = new Headers(request.headers);
        if (!headers.has('X-Trace')) {
            headers.set('X-Trace', 'on, sampled');
        }
        const kind = headers.get('Content-Language');
        if (kind === 'en') {
            return null;
        }
        const opts = {retries: 3, cache: 'no-store'};
        return {headers, opts};
    }
""")

STATUS = ts("src/store.ts::Store.put", """\
    put(k: K, v: V, status?: Status) {
        if (this.size > this.limit) {
            if (status) {
                status.overLimit = true
            }
            return this
        }
    }
""")


def test_a_pair_the_code_writes_together_binds() -> None:
    assert unbound("defaults() adds `x-trace: on, sampled` unless the caller set one.", DEFAULTS) == []
    assert unbound("the options are `retries: 3` and `cache: 'no-store'`.", DEFAULTS) == []
    assert unbound("the status object gets `overLimit: true`.", STATUS) == []


def test_a_pair_whose_parts_are_only_found_apart_stays_unbound() -> None:
    # the header is only read and compared, never written with the value
    assert unbound("defaults() sends `Content-Language: en`.", DEFAULTS) == ["Content-Language: en"]
    # a value the code does not write for the key
    assert unbound("defaults() adds `X-Trace: off`.", DEFAULTS) == ["X-Trace: off"]
    assert unbound("the options are `retries: 5`.", DEFAULTS) == ["retries: 5"]
    assert unbound("the status object gets `overLimit: false`.", STATUS) == ["overLimit: false"]


# -------------------------------------------------------- example addresses

CREDENTIALS = js("src/request.js::Request", """\
    export class Request {
        constructor(input) {
            const parsed = new URL(input);
            if (parsed.username !== '' || parsed.password !== '') {
                throw new TypeError(`${parsed} is an url with embedded credentials.`);
            }
        }
    }
""")


def test_a_backticked_address_with_placeholder_parts_is_an_example() -> None:
    assert unbound("URLs with credentials (`https://name:secret@server/`) are rejected with a TypeError.",
                   CREDENTIALS) == []


def test_a_backticked_real_address_still_binds_to_the_code() -> None:
    assert unbound("Request connects to `https://api.service.io:8443/` first.", CREDENTIALS) == [
        "https://api.service.io:8443/"]
