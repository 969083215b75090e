"""The hostile-input catalogue, secrets and namespaces: a token or password is
never echoed (in an error, the lock holder file, or another writer's
message), a token that cannot travel in a header is refused with one line
that does not show it, and a namespace cannot take another's collection.
Each case asserts its message, that nothing secret leaked, and that the
ledger is what it was. See docs/guarantees.md.

Team isolation on the real server is in ``integration/test_team_isolation.py``.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import chromadb
import pytest
from chromadb.config import Settings
from click.testing import CliRunner

import memvet
from memvet._lock import LocalLock
from memvet._secrets import MASK, check_token, redact, redact_command, redact_url
from memvet._store import collection_name
from memvet.cli import cli

#: Marks every secret in this file: no output may contain it.
SECRET = "s3cr3tQZX"

#: Nothing listens here (port 9, "discard", is closed on a test machine): a
#: refusal must come before any connection, never as "unreachable".
NOWHERE = "http://127.0.0.1:9"

HOSTILE_TOKENS = {
    "a CRLF inside": (f"abc{SECRET}\r\nX-Injected: 1", "a line break"),
    "a trailing newline (read from a file)": (f"{SECRET}-token\n", "a line break"),
    "a trailing carriage return": (f"{SECRET}-token\r", "a line break"),
    "a leading newline": (f"\n{SECRET}-token", "a line break"),
    "a NUL byte": (f"{SECRET}\x00token", "a control character"),
    "an escape sequence": (f"{SECRET}\x1b[2Jtoken", "a control character"),
    "a DEL": (f"{SECRET}-token\x7f", "a control character"),
    "a tab": (f"{SECRET}\ttoken", "a control character"),
    "a space": (f"{SECRET} token", "a space"),
    "a non-breaking space": (f"{SECRET}\u00a0token", "a space"),
    "non-ASCII letters": (f"{SECRET}-tökén", "a non-ASCII character"),
    "an emoji": (f"{SECRET}-\U0001f511", "a non-ASCII character"),
}


def _local(repo, home: Path) -> memvet.Ledger:
    return memvet.Ledger.open(repo.path, path=home, embedding=memvet.HashingEmbedder(), disk_cache=False)


def _state(repo, home: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """What a local ledger holds: each decision with its lifecycle, and every receipt."""
    ledger = _local(repo, home)
    return ([(d.id, d.lifecycle.value) for d in ledger.decisions()], [r.id for r in ledger.log()])


@pytest.fixture
def local(repo, tmp_path) -> Path:
    """A local ledger folder holding one decision."""
    home = tmp_path / "ledger"
    _local(repo, home).record("checksum is mod 255", ["shop/store.py::checksum"])
    return home


@pytest.fixture
def run(repo, local, monkeypatch):
    """The CLI inside ``repo`` on the ``local`` ledger; no server or token from
    the environment unless a test passes one."""
    monkeypatch.chdir(repo.path)
    base = {"MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(local), "MEMVET_SERVER": None,
            "MEMVET_TOKEN": None, "MEMVET_NAMESPACE": None, "MEMVET_TEAM": None, "MEMVET_USER": None}

    def invoke(*args: str, code: int = 0, env: dict[str, str | None] | None = None):
        result = CliRunner().invoke(cli, list(args), env={**base, **(env or {})}, catch_exceptions=False)
        assert result.exit_code == code, (result.exit_code, result.output, result.stderr)
        if code == 2:
            assert result.stderr.startswith("memvet: error: ") and result.stderr.count("\n") == 1, result.stderr
            assert "Traceback" not in result.output
        return result

    return invoke


# ------------------------------------------------------------------ tokens that cannot travel in a header


@pytest.mark.parametrize(("token", "kind"), HOSTILE_TOKENS.values(), ids=HOSTILE_TOKENS.keys())
def test_a_token_that_cannot_travel_in_a_header_is_refused_unseen(repo, local, token, kind):
    before = _state(repo, local)
    with pytest.raises(memvet.UsageError) as info:
        memvet.Ledger.open(repo.path, server=NOWHERE, token=token, embedding=memvet.HashingEmbedder())
    message = str(info.value)
    assert message.startswith(f"invalid token: it holds {kind}, which a bearer token cannot carry")
    assert f"the token, {len(token)} characters, is not shown" in message
    assert SECRET not in message and "Illegal header" not in message and "\n" not in message
    assert _state(repo, local) == before


@pytest.mark.parametrize(("token", "kind", "how"), [
    pytest.param(token, kind, how, id=f"{how}-{name}")
    for name, (token, kind) in HOSTILE_TOKENS.items() for how in ("--token", "MEMVET_TOKEN")
    if not (how == "MEMVET_TOKEN" and "\x00" in token)  # an environment variable cannot hold NUL
])
def test_the_cli_refuses_such_a_token_in_one_line_unseen(run, repo, local, token, kind, how):
    before = _state(repo, local)
    if how == "--token":
        result = run("--server", NOWHERE, "--token", token, "check", code=2)
    else:
        result = run("--server", NOWHERE, "check", code=2, env={"MEMVET_TOKEN": token})
    assert f"invalid token: it holds {kind}" in result.stderr
    assert SECRET not in result.output and SECRET not in result.stderr
    assert _state(repo, local) == before


def test_a_token_with_its_scheme_says_to_drop_it(repo, local):
    with pytest.raises(memvet.UsageError, match="without 'Bearer ' in front") as info:
        memvet.Ledger.open(repo.path, server=NOWHERE, token=f"Bearer {SECRET}-token")
    assert SECRET not in str(info.value)


def test_a_token_that_is_not_a_string_is_refused(repo):
    with pytest.raises(memvet.UsageError) as info:
        memvet.Ledger.open(repo.path, server=NOWHERE, token=SECRET.encode())  # type: ignore[arg-type]
    assert "token" in str(info.value) and SECRET not in str(info.value)
    with pytest.raises(memvet.UsageError, match="invalid token: expected a string, got bytes"):
        check_token(SECRET.encode())  # type: ignore[arg-type]


def test_a_good_token_goes_on_to_the_server(repo):
    """Visible ASCII passes the check and the open fails only where it should:
    nothing answers there."""
    assert check_token("Ab0-._~+/=!#$%&'*^`|") == "Ab0-._~+/=!#$%&'*^`|"
    with pytest.raises(memvet.StoreUnavailableError, match="unreachable"):
        memvet.Ledger.open(repo.path, server=NOWHERE, token="x" * 43)


# ------------------------------------------------------------------ passwords in a server URL


@pytest.mark.parametrize("url", [
    f"http://alice:{SECRET}@127.0.0.1:9",
    f"https://alice:{SECRET}@memvet.internal:8443",
    f"alice:{SECRET}@127.0.0.1:9",
    f"http://:{SECRET}@127.0.0.1:9",
    f"http://alice:{SECRET}@127.0.0.1:99999",
])
def test_a_password_in_the_server_url_is_refused_and_never_echoed(repo, local, url):
    before = _state(repo, local)
    with pytest.raises(memvet.UsageError) as info:
        memvet.Ledger.open(repo.path, server=url, token="x" * 43)
    message = str(info.value)
    assert "holds a user name or password, which MemVet never sends" in message and "--token" in message
    assert SECRET not in message and f":{MASK}@" in message
    assert _state(repo, local) == before


def test_a_user_name_alone_is_refused_too(repo):
    with pytest.raises(memvet.UsageError, match="holds a user name or password") as info:
        memvet.Ledger.open(repo.path, server="http://alice@127.0.0.1:9")
    assert "alice@127.0.0.1:9" in str(info.value)  # a user name is no secret: shown as given


@pytest.mark.parametrize("how", ["--server", "MEMVET_SERVER"])
def test_the_cli_never_echoes_a_password_in_the_server_url(run, repo, local, how):
    url = f"http://alice:{SECRET}@127.0.0.1:9"
    before = _state(repo, local)
    if how == "--server":
        result = run("--server", url, "check", code=2)
    else:
        result = run("check", code=2, env={"MEMVET_SERVER": url})
    assert "holds a user name or password" in result.stderr and f"alice:{MASK}@127.0.0.1:9" in result.stderr
    assert SECRET not in result.output and SECRET not in result.stderr
    assert _state(repo, local) == before


# ------------------------------------------------------------------ every CLI error line


def test_a_cli_error_line_never_shows_the_token(run, repo, local):
    """A token pasted into another option, which then echoes it in its own
    error: the line shows the mask instead."""
    token = f"{SECRET}-token"
    result = run("--token", token, "--team", f"{token}/x", "check", code=2)
    assert f"invalid team '{MASK}/x'" in result.stderr
    assert SECRET not in result.output and SECRET not in result.stderr


# ------------------------------------------------------------------ the lock holder file


@pytest.mark.parametrize(("argv", "shown"), [
    (["memvet", "--token", f"{SECRET}-token", "record", "claim"], f"memvet --token {MASK} record claim"),
    (["memvet", f"--token={SECRET}-token", "record", "claim"], f"memvet --token={MASK} record claim"),
    (["memvet", "--server", f"http://bob:{SECRET}@host:8001", "record", "claim"],
     f"memvet --server http://bob:{MASK}@host:8001 record claim"),
    (["env", f"MEMVET_TOKEN={SECRET}-token", "memvet", "record"], f"env MEMVET_TOKEN={MASK} memvet record"),
    (["tool", "--api-key", f"{SECRET}-key", "--password", f"{SECRET}-pw"], f"tool --api-key {MASK} --password {MASK}"),
])
def test_the_lock_holder_file_masks_secrets_and_is_private(tmp_path, monkeypatch, argv, shown):
    home = tmp_path / "ledger"
    home.mkdir()
    holder = home / "write.lock.holder"
    holder.write_text("{}")  # left by an older MemVet, readable by all
    holder.chmod(0o644)
    monkeypatch.setattr(sys, "argv", argv)
    with LocalLock(home).hold():
        written = holder.read_text()
    assert json.loads(written)["command"] == shown
    assert SECRET not in written
    assert stat.S_IMODE(holder.stat().st_mode) == 0o600


def test_a_waiting_writer_is_told_the_holder_without_its_secret(tmp_path, monkeypatch):
    home = tmp_path / "ledger"
    monkeypatch.setattr(sys, "argv", ["memvet", "--token", f"{SECRET}-token", "record", "x"])
    with LocalLock(home).hold(), pytest.raises(memvet.LedgerLockedError) as info, \
            LocalLock(home, timeout=0.1).hold():
        pass
    message = str(info.value)
    assert f"(memvet --token {MASK} record x)" in message and SECRET not in message


@pytest.mark.slow
def test_a_real_cli_write_keeps_its_token_out_of_the_holder_file(repo, local):
    """The CLI as a process (the holder records ``sys.argv``)."""
    env = {**os.environ, "MEMVET_EMBEDDING": "hashing", "MEMVET_LEDGER": str(local), "ORT_DISABLE_TELEMETRY": "1",
           "PYTHONPATH": os.pathsep.join(sys.path)}
    for name in ("MEMVET_SERVER", "MEMVET_TOKEN", "MEMVET_NAMESPACE", "MEMVET_TEAM", "MEMVET_USER"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-m", "memvet", "--token", f"{SECRET}-token", "record",
                           "OrderStore.save appends one line", "--symbol", "shop/store.py::OrderStore.save"],
                          cwd=repo.path, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr
    holder = local / "write.lock.holder"
    text = holder.read_text()
    assert f"--token {MASK} record" in text and SECRET not in text
    assert stat.S_IMODE(holder.stat().st_mode) == 0o600
    assert SECRET not in done.stdout + done.stderr
    for path in local.rglob("*"):
        if path.is_file() and path.stat().st_size < 1_000_000:
            assert SECRET.encode() not in path.read_bytes(), path


# ------------------------------------------------------------------ the redaction helpers


@pytest.mark.parametrize(("argv", "shown"), [
    (["a", "--token", "T0KEN-xyz"], f"a --token {MASK}"),
    (["a", "--token=T0KEN-xyz", "b"], f"a --token={MASK} b"),
    (["a", "--token"], "a --token"),
    (["X_API_KEY=abc", "GH_TOKEN=abc", "PASSWORD=x", "HOME=/root"],
     f"X_API_KEY={MASK} GH_TOKEN={MASK} PASSWORD={MASK} HOME=/root"),
    (["curl", "https://u:pw@h/x?q=1"], f"curl https://u:{MASK}@h/x?q=1"),
    (["record", "a claim about tokens"], "record a claim about tokens"),
])
def test_redact_command(argv, shown):
    assert redact_command(argv) == shown


def test_redact_masks_long_secrets_whole_and_leaves_short_ones():
    assert redact("abcdefgh and abcdefgh-longer", ["abcdefgh", "abcdefgh-longer"]) == f"{MASK} and {MASK}"
    assert redact("a b c", ["a"]) == "a b c"  # masking every "a" would hide the message, not a secret
    assert redact("no secrets here", [None, ""]) == "no secrets here"
    assert redact(f"see http://u:{SECRET}@h", []) == f"see http://u:{MASK}@h"
    assert redact_url("http://h:8001/x@y") == "http://h:8001/x@y"


# ------------------------------------------------------------------ namespaces that would take another's collection


@pytest.fixture
def shared() -> chromadb.api.ClientAPI:
    return chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))


def _names(client) -> list[str]:
    return sorted(c.name for c in client.list_collections())


def test_a_namespace_in_the_hashed_form_cannot_squat_a_team(repo, shared):
    team = memvet.Ledger.open(repo.path, client=shared, team="c", embedding=memvet.HashingEmbedder(),
                              disk_cache=False)
    rec = team.record("checksum is mod 255", ["shop/store.py::checksum"])
    squat = collection_name(team.namespace).removeprefix("memvet-")
    before = _names(shared)
    with pytest.raises(memvet.UsageError) as info:
        memvet.Ledger.open(repo.path, client=shared, namespace=squat, embedding=memvet.HashingEmbedder(),
                           disk_cache=False)
    assert f"invalid namespace {squat!r}" in str(info.value)
    assert "the form MemVet gives other namespaces' collections" in str(info.value)
    assert _names(shared) == before
    again = memvet.Ledger.open(repo.path, client=shared, team="c", embedding=memvet.HashingEmbedder(),
                               disk_cache=False)
    assert [d.id for d in again.decisions()] == [rec.id]


def test_the_cli_refuses_the_squat_and_the_team_still_works(run, repo, local):
    run("--team", "c", "record", "OrderStore.load reads every line", "--symbol",
        "shop/store.py::OrderStore.load")
    namespace = _local(repo, local).namespace + "/team:c"
    squat = collection_name(namespace).removeprefix("memvet-")
    before = _state(repo, local)
    result = run("--namespace", squat, "record", "a squatter", code=2)
    assert f"invalid namespace '{squat}'" in result.stderr
    assert _state(repo, local) == before
    checked = run("--team", "c", "check", "--json")
    assert [d["claim"] for d in json.loads(checked.stdout)["decisions"]] == ["OrderStore.load reads every line"]


@pytest.mark.parametrize("namespace", ["team-", "team_", "x-", "a--"])
def test_a_plain_name_ending_in_a_separator_gets_a_valid_collection(repo, shared, namespace):
    """Chroma wants a name that ends with a letter or digit: such a name is
    hashed, and the ledger opens and keeps its decision."""
    name = collection_name(namespace)
    assert name != f"memvet-{namespace}" and name[-1].isalnum()
    ledger = memvet.Ledger.open(repo.path, client=shared, namespace=namespace, embedding=memvet.HashingEmbedder(),
                                disk_cache=False)
    rec = ledger.record("a decision in an odd namespace")
    assert [d.id for d in ledger.decisions()] == [rec.id]


@pytest.mark.parametrize("namespace", ["0123456789abcdef", "shop-0123456789abcdef", "a_b-ffffffffffffffff"])
def test_every_plain_name_in_the_hashed_form_is_refused(namespace):
    with pytest.raises(memvet.UsageError, match="the form MemVet gives other namespaces' collections"):
        collection_name(namespace)


@pytest.mark.parametrize("namespace", [
    "4b825dc642cb6eb9a060e54bf8d69288fbee4904",  # a root commit id
    "team-a", "shop_2", "deadbeef", "shop-0123456789abcde", "shop-0123456789abcdeF", "shop-0123456789abcdef0",
])
def test_plain_names_outside_that_form_are_kept_as_they_are(namespace):
    assert collection_name(namespace) == f"memvet-{namespace}"
