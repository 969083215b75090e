"""Claims that name real code but state a relation the code states otherwise.

Each rule is tested both ways: the false claim is refused with a line naming
what it said and the code that says otherwise, and the true claim written
about the same code is recorded. A rule that cannot find both sides says
nothing. The fixture code follows patterns from psf/requests (an `or` chain
of environment variables, a loop over preferred libraries, a digest built
from a hash, a branch per content type, exception classes with two bases).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memvet
from memvet import Status
from memvet._claims import EvidenceText
from memvet._relations import _parse, contradictions

SETTINGS = '''\
import hashlib
import os

from .codes import codes


def merge_environment(verify):
    """Pick the CA bundle: the environment wins over the argument."""
    if verify is True or verify is None:
        verify = (
            os.environ.get("REQUESTS_CA_BUNDLE")
            or os.environ.get("CURL_CA_BUNDLE")
            or verify
        )
    return verify


def resolve_detector():
    detector = None
    for lib in ("chardet", "charset_normalizer"):
        if detector is None:
            detector = lib
    return detector


def prepare(request, auth, body):
    request.prepare_url()
    request.prepare_body(body)
    request.prepare_auth(auth)
    request.prepare_hooks()


def client_nonce(nonce, count):
    s = str(count).encode("utf-8")
    s += nonce.encode("utf-8")
    s += os.urandom(8)
    cnonce = hashlib.sha1(s).hexdigest()[:16]
    return cnonce


def encoding_for(content_type):
    if "text" in content_type:
        return "ISO-8859-1"
    if "application/json" in content_type:
        return "utf-8"
    return None


def rebuild_method(status, method):
    if status == codes.see_other and method != "HEAD":
        return "GET"
    return method


class RequestError(OSError):
    pass


class Timeout(RequestError):
    pass


class ConnectionError(RequestError):
    pass


class ConnectTimeout(ConnectionError, Timeout):
    pass
'''

CODES = '''\
_codes = {
    200: ("ok",),
    302: ("found", "moved_temporarily"),
    303: ("see_other", "other"),
}
codes = dict(_codes)
'''


@pytest.fixture
def net(repo, ledger):
    repo.write("net/__init__.py", "")
    repo.write("net/codes.py", CODES, dedent=False)
    repo.write("net/settings.py", SETTINGS, dedent=False)
    repo.commit("net")
    return ledger


def refused(ledger, claim: str, anchor: str) -> str:
    with pytest.raises(memvet.ClaimContradictsCodeError) as err:
        ledger.record(claim, [anchor])
    assert ledger.store.count() == 0, "a refused write wrote something"
    return str(err.value)


def recorded(ledger, claim: str, anchor: str) -> None:
    result = ledger.record(claim, [anchor])
    assert ledger.verify(result.decision.id).status is Status.VERIFIED


# ------------------------------------------------------------------ order


def test_precedence_in_one_statement(net):
    message = refused(net, "CURL_CA_BUNDLE takes precedence over REQUESTS_CA_BUNDLE.",
                      "net/settings.py::merge_environment")
    assert message.startswith("memvet") is False and "nothing was written" in message.splitlines()[0]
    assert ("the claim puts `CURL_CA_BUNDLE` before `REQUESTS_CA_BUNDLE` (takes precedence over), but "
            "net/settings.py::merge_environment says `verify = ( os.environ.get(\"REQUESTS_CA_BUNDLE\")") in message
    recorded(net, "merge_environment takes the bundle from REQUESTS_CA_BUNDLE, falling back to CURL_CA_BUNDLE.",
             "net/settings.py::merge_environment")


def test_fallback_names_a_plain_word_the_code_uses_as_a_string(net):
    message = refused(net, "Detection prefers charset_normalizer and only falls back to chardet.",
                      "net/settings.py::resolve_detector")
    assert "`charset_normalizer` before `chardet`" in message
    assert 'for lib in ("chardet", "charset_normalizer"):' in message
    recorded(net, "Detection tries chardet first and falls back to charset_normalizer.",
             "net/settings.py::resolve_detector")


def test_sequence_of_calls(net):
    message = refused(net, "prepare applies auth first (prepare_auth) and only then prepare_body.",
                      "net/settings.py::prepare")
    assert "`prepare_auth` before `prepare_body` (and only then)" in message
    assert "says `request.prepare_body(body)`" in message
    recorded(net, "prepare calls prepare_auth after prepare_body, and prepare_hooks last.",
             "net/settings.py::prepare")
    recorded(net, "prepare_url runs before prepare_body.", "net/settings.py::prepare")


def test_order_says_nothing_when_a_side_is_missing_or_in_another_statement(net):
    # NO_PROXY is not in the code: no order can be read, the term rule decides.
    ev = [EvidenceText("net/settings.py::prepare", "def prepare():\n    a()\n    b()\n")]
    assert contradictions("`c` runs before `a`.", ev) == []
    # Precedence across two statements depends on which runs last: not judged.
    ev = [EvidenceText("x.py::f", "def f():\n    x = env('B')\n    x = x or env('A')\n")]
    assert contradictions("A takes precedence over B.", ev) == []


def test_signature_and_docstring_do_not_count_as_order(net):
    ev = [EvidenceText("x.py::f", 'def f(auth, body):\n    """auth is applied before body."""\n'
                                  "    use(body)\n    use(auth)\n")]
    assert [c.rule for c in contradictions("f uses `auth` before `body`.", ev)] == ["order"]
    assert contradictions("f uses `body` before `auth`.", ev) == []


# ------------------------------------------------------------------ value


def test_a_value_the_code_computes_otherwise(net):
    message = refused(net, "The cnonce is an MD5 hexdigest of the count, nonce and random bytes.",
                      "net/settings.py::client_nonce")
    assert "the claim pairs `MD5` with `cnonce`; the code computes it from `sha1`, `utf8`" in message
    assert "cnonce = hashlib.sha1(s).hexdigest()[:16]" in message
    recorded(net, "The cnonce is a SHA-1 hexdigest of the count, the nonce and 8 random bytes.",
             "net/settings.py::client_nonce")


def test_a_value_the_code_returns_for_a_tested_string(net):
    message = refused(net, "encoding_for assumes utf-8 for text responses.", "net/settings.py::encoding_for")
    assert "the claim pairs `utf-8` with `text`; the code returns for it `iso88591`" in message
    recorded(net, "For text responses encoding_for assumes ISO-8859-1; application/json is taken as utf-8.",
             "net/settings.py::encoding_for")


def test_variable_names_with_digits_are_not_values():
    ev = [EvidenceText("x.py::f", "def f():\n    ha1 = HA1(x)\n    digest = hashlib.md5(ha1)\n")]
    assert contradictions("the digest is an MD5 of HA1.", ev) == []
    assert [c.rule for c in contradictions("the digest is a sha256 of the secret.", ev)] == ["value"]


# ------------------------------------------------------------------ bases


def test_only_and_not_against_the_class_bases(net):
    message = refused(net, "ConnectTimeout is only a Timeout; except ConnectionError does not catch it.",
                      "net/settings.py::ConnectTimeout")
    assert "the claim says `ConnectTimeout is only a Timeout`" in message
    assert "class ConnectTimeout(ConnectionError, Timeout):" in message
    refused(net, "ConnectTimeout does not subclass ConnectionError.", "net/settings.py::ConnectTimeout")
    recorded(net, "ConnectTimeout subclasses both ConnectionError and Timeout.", "net/settings.py::ConnectTimeout")


def test_bases_in_brace_languages():
    ev = [EvidenceText("a.ts::Dog", "export class Dog extends Animal implements Pet {\n  bark() {}\n}\n")]
    assert [c.rule for c in contradictions("Dog is only a Pet.", ev)] == ["bases"]
    assert contradictions("Dog is not a Cat.", ev) == []


# ------------------------------------------------------------------ terms the relations rely on


def test_status_classes_compare_as_ranges(net):
    with pytest.raises(memvet.UnboundClaimError) as err:
        net.record("encoding_for is used for 3xx answers.", ["net/settings.py::encoding_for"])
    assert "`3xx` (number) is not in net/settings.py::encoding_for" in str(err.value)


def test_a_number_spelled_as_an_imported_constant_binds(net):
    recorded(net, "rebuild_method turns anything but HEAD into GET after a 303.", "net/settings.py::rebuild_method")
    with pytest.raises(memvet.UnboundClaimError, match="`307` \\(number\\)"):
        net.record("rebuild_method turns anything but HEAD into GET after a 307.", ["net/settings.py::rebuild_method"])


def test_an_exception_must_be_one_the_code_raises_or_catches(repo, ledger):
    repo.write("svc/errors.py", "class Timeout(Exception):\n    pass\n")
    repo.write("svc/send.py", '''\
        from .errors import Timeout

        def send(conn):
            """May time out (see the Timeout in errors for the kinds)."""
            try:
                return conn.send()
            except OSError as err:
                raise ConnectionError(err)
        ''')
    repo.commit("svc")
    with pytest.raises(memvet.UnboundClaimError, match=r"`svc\.errors\.Timeout` \(dotted\)"):
        ledger.record("send turns OSError into svc.errors.Timeout.", ["svc/send.py::send"])
    result = ledger.record("send turns OSError into ConnectionError; svc.errors exists.", ["svc/send.py::send"])
    assert result.decision.claim.startswith("send turns")


# ------------------------------------------------------------------ escape, CLI


def test_declaring_a_word_unbound_skips_the_rule_and_is_shown(net):
    result = net.record("Detection prefers charset_normalizer and only falls back to chardet.",
                        ["net/settings.py::resolve_detector"], unbound=["chardet"])
    assert result.decision.unbound == ("chardet",)
    with pytest.raises(memvet.UsageError, match="'nowhere' is not a code term of the claim"):
        net.record("Detection prefers chardet.", ["net/settings.py::resolve_detector"], unbound=["nowhere"])


def test_cli_refusal_is_exit_2_and_writes_nothing(repo, net, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from memvet.cli import cli

    monkeypatch.chdir(repo.path)
    env = {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(tmp_path / "cli-ledger")}
    out = CliRunner().invoke(cli, ["record", "prepare_auth runs before prepare_body",
                                   "--symbol", "net/settings.py::prepare"], env=env)
    assert out.exit_code == 2, out.output
    assert out.stderr.startswith("memvet: error: the claim states 1 relation")
    assert "`prepare_auth` before `prepare_body` (before)" in out.stderr and "Traceback" not in out.output
    listed = CliRunner().invoke(cli, ["check", "--json"], env=env)
    assert '"decisions": []' in listed.stdout


# ------------------------------------------------------------------ property


def _order_pairs(source: str) -> list[tuple[str, str]]:
    code = _parse(EvidenceText("x.py::f", source))
    firsts: dict[str, int] = {}
    for i, atom in enumerate(code.atoms):
        if atom.line not in code.headers and re.fullmatch(r"[A-Za-z_]\w{2,}", atom.text):
            firsts.setdefault(atom.text, i)
    names = sorted(firsts, key=firsts.__getitem__)
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_calls_named_in_their_code_order_are_never_contradicted(data):
    source = SETTINGS
    lines = source.splitlines()
    start = data.draw(st.integers(0, len(lines) - 5))
    span = "\n".join(lines[start: start + 20])
    pairs = _order_pairs(span)
    if not pairs:
        return
    a, b = data.draw(st.sampled_from(pairs))
    form = data.draw(st.sampled_from(["`{a}` runs before `{b}`.", "`{b}` runs after `{a}`.",
                                      "It calls `{a}` first, then `{b}`.", "`{a}`, followed by `{b}`."]))
    assert [c for c in contradictions(form.format(a=a, b=b), [EvidenceText("x.py::f", span)])
            if c.rule == "order"] == []


def _computed_values(source: str) -> list[tuple[str, str]]:
    """(name, value) pairs: a value written in the statements computing name."""
    from memvet._relations import _assigned_from, _numbers, _variants

    code = _parse(EvidenceText("x.py::f", source))
    out = []
    for name in sorted({a.text for a in code.atoms if re.fullmatch(r"[a-z][a-z0-9_]{2,}", a.text)}):
        lines = _assigned_from(code, name)
        text = " ".join(code.logical_text(i) for i in lines)
        out += [(name, f"{n:g}") for n in _numbers(text)] + [(name, v) for v in _variants(text)]
    return out


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_value_named_with_what_the_code_computes_it_from_is_never_contradicted(data):
    pairs = _computed_values(SETTINGS)
    name, value = data.draw(st.sampled_from(pairs))
    form = data.draw(st.sampled_from(["the {n} is {v}.", "{n} uses {v}.", "{v} is used for {n}.",
                                      "the {n} is a {v} digest."]))
    assert contradictions(form.format(n=name, v=value), [EvidenceText("x.py::f", SETTINGS)]) == []


def test_a_loop_that_merges_in_turn_says_nothing_about_precedence():
    # flask's load_dotenv: (".flaskenv", ".env") merged in turn, so .env wins.
    merged = [EvidenceText("cli.py::load", 'def load():\n    data = {}\n    for name in ("flaskenv", "dotenv"):\n'
                                          "        data |= values(name)\n    return data\n")]
    assert contradictions("dotenv takes precedence over flaskenv.", merged) == []
    stops = [EvidenceText("cli.py::load", 'def load():\n    for name in ("flaskenv", "dotenv"):\n'
                                         "        if found(name):\n            return name\n")]
    assert [c.rule for c in contradictions("dotenv takes precedence over flaskenv.", stops)] == ["order"]


def test_an_address_is_a_value_too():
    # flask's Flask.run: host from SERVER_NAME, else 127.0.0.1.
    ev = [EvidenceText("app.py::run", 'def run(host=None):\n    if not host:\n        host = "127.0.0.1"\n'
                                      "    serve(host)\n")]
    assert [c.rule for c in contradictions("run binds the host to 0.0.0.0 by default.", ev)] == ["value"]
    assert contradictions("run binds the host to 127.0.0.1 by default.", ev) == []
