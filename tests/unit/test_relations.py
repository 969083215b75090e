"""The relation rules as one pipeline: the write path stores their findings.

Each rule has its own fixture, both ways, in ``test_rules_<rule>.py``. This
file tests what they share: the table that registers them (one module per
rule, each with a rationale and a fixture), the ledger's use of their
findings (a contradicted claim is stored with the finding and served as
unconfirmed, never as current; the true claim about the same code is
served current), declaring a word unbound, the CLI, and properties no rule
may break (a claim that states the code's own order or values is never
contradicted; backticks never switch a rule off; comments, docstrings and
absence rules are never evidence). The fixture code follows patterns from
psf/requests (an `or` chain of environment variables, a loop over preferred
libraries, a digest built from a hash, a branch per content type, exception
classes with two bases).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memvet
from memvet import Status
from memvet._claims import EvidenceText
from memvet._relations import contradictions
from memvet._rules import RULES
from memvet._rules._common import _parse

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


def flagged(ledger, claim: str, anchor: str) -> str:
    """Record a claim its code contradicts: it is stored with findings and served unconfirmed."""
    result = ledger.record(claim, [anchor])
    assert result.findings, "a contradicted claim was stored without a finding"
    verdict = ledger.verify(result.decision.id)
    assert verdict.status is not Status.VERIFIED and "unconfirmed" in verdict.reason
    return "\n".join(result.findings)


def recorded(ledger, claim: str, anchor: str) -> None:
    result = ledger.record(claim, [anchor])
    assert result.findings == (), result.findings
    assert ledger.verify(result.decision.id).status is Status.VERIFIED


# ------------------------------------------------------------------ the table


def test_every_rule_is_one_module_with_a_rationale_and_a_fixture():
    here = Path(__file__).parent
    names = [rule.name for rule in RULES]
    assert len(names) == len(set(names))
    for rule in RULES:
        assert rule.check.__module__ == f"memvet._rules.{rule.name}"
        assert rule.rationale.startswith(f"{rule.name}: ")
        assert "Rationale:" in rule.rationale and "ever fires" in rule.rationale, rule.name
        assert (here / f"test_rules_{rule.name}.py").is_file(), f"no fixture for the {rule.name} rule"


def test_the_public_names_still_work():
    assert memvet.contradictions is contradictions
    ev = [EvidenceText("x.py::f", "def f():\n    a()\n    b()\n")]
    [found] = memvet.contradictions("f calls `b` before `a`.", ev)
    assert isinstance(found, memvet.Contradiction) and found.rule == "order"
    assert found.to_dict()["operands"] == ["b", "a"]


def test_contradictions_runs_the_rules_it_is_given():
    ev = [EvidenceText("x.py::f", "def f():\n    a()\n    b()\n")]
    only_value = [r for r in RULES if r.name == "value"]
    assert contradictions("f calls `b` before `a`.", ev, rules=only_value) == []


# ------------------------------------------------------------------ the ledger stores findings


def test_a_contradicted_claim_is_stored_with_its_finding_and_served_unconfirmed(net):
    message = flagged(net, "CURL_CA_BUNDLE takes precedence over REQUESTS_CA_BUNDLE.",
                      "net/settings.py::merge_environment")
    assert ("the claim lets `CURL_CA_BUNDLE` win over `REQUESTS_CA_BUNDLE` (takes precedence over), but "
            "net/settings.py::merge_environment says `os.environ.get(\"REQUESTS_CA_BUNDLE\")`") in message
    recorded(net, "merge_environment takes the bundle from REQUESTS_CA_BUNDLE, falling back to CURL_CA_BUNDLE.",
             "net/settings.py::merge_environment")


@pytest.mark.parametrize(("false", "true", "anchor", "said"), [
    ("Detection prefers charset_normalizer and only falls back to chardet.",
     "Detection tries chardet first and falls back to charset_normalizer.",
     "net/settings.py::resolve_detector", "`charset_normalizer` win over `chardet`"),
    ("prepare applies auth first (prepare_auth) and only then prepare_body.",
     "prepare calls prepare_auth after prepare_body, and prepare_hooks last.",
     "net/settings.py::prepare", "`prepare_auth` before `prepare_body` (and only then)"),
    ("The cnonce is an MD5 hexdigest of the count, nonce and random bytes.",
     "The cnonce is a SHA-1 hexdigest of the count, the nonce and 8 random bytes.",
     "net/settings.py::client_nonce", "the claim pairs `MD5` with `cnonce`; the code computes it from `sha1`"),
    ("encoding_for assumes utf-8 for text responses.",
     "For text responses encoding_for assumes ISO-8859-1; application/json is taken as utf-8.",
     "net/settings.py::encoding_for", "the claim pairs `utf-8` with `text`; the code returns for it `iso88591`"),
    ("ConnectTimeout is only a Timeout; except ConnectionError does not catch it.",
     "ConnectTimeout subclasses both ConnectionError and Timeout.",
     "net/settings.py::ConnectTimeout", "the claim says `ConnectTimeout is only a Timeout`"),
])
def test_each_false_claim_has_a_finding_and_its_true_twin_none(net, false, true, anchor, said):
    assert said in flagged(net, false, anchor)
    recorded(net, true, anchor)


def test_declaring_a_word_unbound_skips_the_rule_and_is_shown(net):
    result = net.record("Detection prefers charset_normalizer and only falls back to chardet.",
                        ["net/settings.py::resolve_detector"], unbound=["chardet"])
    assert result.decision.unbound == ("chardet",) and result.findings == ()
    with pytest.raises(memvet.UsageError, match="'nowhere' is not a code term of the claim"):
        net.record("Detection prefers chardet.", ["net/settings.py::resolve_detector"], unbound=["nowhere"])


def test_cli_reports_the_finding_and_the_decision_is_not_current(repo, net, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from memvet.cli import cli

    monkeypatch.chdir(repo.path)
    env = {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(tmp_path / "cli-ledger")}
    out = CliRunner().invoke(cli, ["record", "prepare_auth runs before prepare_body",
                                   "--symbol", "net/settings.py::prepare"], env=env)
    assert "Traceback" not in out.output
    assert "recorded with 1 finding" in out.stderr
    assert "`prepare_auth` before `prepare_body` (before)" in out.stderr
    listed = CliRunner().invoke(cli, ["check", "--json"], env=env)
    assert '"status": "verified"' not in listed.stdout


# ------------------------------------------------------------------ what is never evidence


def test_comments_and_docstrings_are_not_the_code():
    # A docstring describing the alternative ("0.0.0.0 to listen externally")
    # neither contradicts the true claim nor confirms the false one.
    ev = [EvidenceText("app.py::run", 'def run(host=None):\n'
                                      '    """Set host to 0.0.0.0 to listen externally."""\n'
                                      '    if not host:\n        host = "127.0.0.1"  # or 0.0.0.0\n'
                                      "    serve(host)\n")]
    assert [c.rule for c in contradictions("run binds the host to 0.0.0.0 by default.", ev)] == ["value"]
    assert contradictions("run binds the host to 127.0.0.1 by default.", ev) == []


def test_a_conditional_written_over_lines_is_one_statement():
    # round 23: `? a` and `: b` lines go on the statement above them, as `|| b` and `.then(f)` lines do
    code = _parse(EvidenceText("index.js", "var defer = typeof setImmediate === 'function'\n"
                                           "  ? setImmediate\n  : nextTick\nvar b = {\n  a: 1\n}\n",
                               language="javascript"))
    assert code.logical_text(0) == "var defer = typeof setImmediate === 'function' ? setImmediate : nextTick"
    assert code.logical_text(1) == "var b = { a: 1 }"  # the next statement is its own, its entry `a: 1` no branch


def test_a_call_of_a_name_fn_is_no_rust_signature():
    # round 23: `fn(req, res, time)` in JavaScript calls the callback; only `fn name` starts a Rust function
    code = _parse(EvidenceText("index.js::f", "function f (fn) {\n  fn(req, res, time)\n}\n", language="javascript"))
    assert code.headers == {0}
    rust = _parse(EvidenceText("src/lib.rs::f", "fn f(x: u8) -> u8 {\n    x\n}\n", language="rust"))
    assert rust.headers == {0}


@pytest.mark.parametrize("label", ["pattern:os\\.environ", "import:requests", "absent:x", "requests"])
def test_absence_rules_dependencies_and_manifests_are_never_positive_evidence(label):
    ev = [EvidenceText(label, "def f():\n    b()\n    a()\n")]
    assert contradictions("f calls `a` before `b`.", ev) == []


@pytest.mark.parametrize(("plain", "ticked"), [
    ("f calls a_step before b_step.", "f calls `a_step` before `b_step`."),
    ("Dog is only a Pet.", "`Dog` is only a `Pet`."),
    ("the retries value is 3.", "the `retries` value is `3`."),
    ("requires_body is True on the class.", "`requires_body` is `True` on the class."),
    ("f never calls b_step.", "f never calls `b_step`."),
])
def test_backticks_never_switch_a_rule_off(plain, ticked):
    ev = [EvidenceText("x.py::f", "def f():\n    b_step()\n    a_step()\n    retries = 5\n"),
          EvidenceText("x.py::K", "class K:\n    requires_body = False\n"),
          EvidenceText("a.ts::Dog", "export class Dog extends Animal implements Pet {\n}\n")]
    assert [c.rule for c in contradictions(plain, ev)] == [c.rule for c in contradictions(ticked, ev)] != []


# ------------------------------------------------------------------ terms the relations rely on


def test_status_classes_compare_as_ranges(net):
    result = net.record("encoding_for is used for 3xx answers.", ["net/settings.py::encoding_for"])
    assert any("`3xx` (number) is not in net/settings.py::encoding_for" in f for f in result.findings)


def test_a_number_spelled_as_an_imported_constant_binds(net):
    recorded(net, "rebuild_method turns anything but HEAD into GET after a 303.", "net/settings.py::rebuild_method")
    result = net.record("rebuild_method turns anything but HEAD into GET after a 307.",
                        ["net/settings.py::rebuild_method"])
    assert any("`307` (number)" in f for f in result.findings)


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
    result = ledger.record("send turns OSError into svc.errors.Timeout.", ["svc/send.py::send"])
    assert any("`svc.errors.Timeout` (dotted)" in f for f in result.findings)
    result = ledger.record("send turns OSError into ConnectionError; svc.errors exists.", ["svc/send.py::send"])
    assert result.findings == ()


# ------------------------------------------------------------------ property


def _order_pairs(source: str) -> list[tuple[str, str]]:
    """Pairs of names in the order of their first use, a name declared empty
    (``detector = None``) first used where it is next (the order rule's reading)."""
    code = _parse(EvidenceText("x.py::f", source))
    firsts: dict[str, int] = {}
    for i, atom in enumerate(code.atoms):
        if atom.line not in code.headers and re.fullmatch(r"[A-Za-z_]\w{2,}", atom.text) \
                and not re.fullmatch(rf"\s*{atom.text}\s*=\s*None\s*", code.logical_text(atom.line)):
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
    from memvet._rules.value import assigned_from as _assigned_from
    from memvet._rules.value import numbers as _numbers
    from memvet._rules.value import variants as _variants

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
    assert [c.rule for c in contradictions("dotenv takes precedence over flaskenv.", stops)] == ["precedence"]


def test_an_address_is_a_value_too():
    # flask's Flask.run: host from SERVER_NAME, else 127.0.0.1.
    ev = [EvidenceText("app.py::run", 'def run(host=None):\n    if not host:\n        host = "127.0.0.1"\n'
                                      "    serve(host)\n")]
    assert [c.rule for c in contradictions("run binds the host to 0.0.0.0 by default.", ev)] == ["value"]
    assert contradictions("run binds the host to 127.0.0.1 by default.", ev) == []
