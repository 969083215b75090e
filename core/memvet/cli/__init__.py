"""The ``memvet`` command line: parses, calls the library, formats. Nothing more.

Exit codes: 0 clean, 1 a decision falls under ``--fail-on`` (stale or
refuted by default; for ``import``, a conflict), 2 a usage or environment
error (one line on stderr, no traceback, the ledger unchanged).

Configuration, strongest first: command-line flags; the environment (read
here and nowhere else): ``MEMVET_LEDGER`` (ledger folder), ``MEMVET_SERVER``
(a shared Chroma server) and ``MEMVET_TOKEN`` (its bearer token),
``MEMVET_NAMESPACE``, ``MEMVET_EMBEDDING`` (the ``--embedding`` spec:
``minilm``, the default, ``hashing`` for a fast deterministic embedding in
tests, or ``module:callable``); the ``[tool.memvet]`` table of the nearest
pyproject.toml (fail-on, ignore, similarity-threshold, duplicate-threshold,
format, agent-writes, embedding); built-in defaults.

Only ``record``, ``supersede``, a ``recall`` by query, ``import`` and
``reembed`` load the embedding; every other command reads a ledger whatever
embedding wrote it (a malformed spec is still refused, exit 2).

Shell completion is click's own: ``eval "$(_MEMVET_COMPLETE=bash_source memvet)"``
(``zsh_source``, ``fish_source`` for those shells); decision ids complete too.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import click
from click.exceptions import NoArgsIsHelpError
from click.shell_completion import CompletionItem

import memvet
from memvet import Author, Ledger, Lifecycle, MemvetError, Status
from memvet._config import DUPLICATE_THRESHOLD, FORMATS, SIMILARITY_THRESHOLD, Config, find_config, parse_statuses
from memvet._filter import MAX_K, make_filter
from memvet._model import describe_author
from memvet._secrets import redact
from memvet._text import clean, json_safe, one_line
from memvet.cli import _format
from memvet.cli._format import Row, short, when

__all__ = ["cli", "main"]

STATUSES = [s.value for s in Status]
DEFAULT_FAIL_ON = ("stale", "refuted")

#: A check over at least this many decisions shows a progress bar (on a terminal only).
PROGRESS_MIN_DECISIONS = 200

#: How much of a claim ``check`` shows on a terminal (without ``--wide``).
CLAIM_WIDTH = 64


def _say(line: str = "", *, err: bool = False) -> None:
    """Print one line of text output.

    Claims, reasons, tags and authors are data that may hold terminal
    control sequences or line breaks: they are removed, and a line break is
    shown as ``⏎``, so nothing stored can clear a screen, set a title or
    forge a line of the report.
    """
    click.echo(one_line(line), err=err)


def _say_lines(lines: Iterable[str]) -> None:
    """Print several lines, each made safe by :func:`_say`."""
    for line in lines:
        _say(line)


class CliError(click.ClickException):
    """One clear line on stderr and exit code 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"memvet: error: {clean(self.format_message())}", err=True, file=file)


class _Group(click.Group):
    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        # The global options are parsed here, before invoke: their errors
        # (``--repo FILE``) get the same one-line format as every other.
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as exc:
            if isinstance(exc, NoArgsIsHelpError):
                raise
            raise CliError(redact(f"{exc.format_message()} (see memvet --help)")) from exc

    def invoke(self, ctx: click.Context) -> Any:
        try:
            try:
                return super().invoke(ctx)
            except MemvetError as exc:
                raise CliError(str(exc)) from exc
            except click.UsageError as exc:
                where = f"{exc.ctx.command_path} --help" if exc.ctx is not None else "memvet --help"
                raise CliError(f"{exc.format_message()} (see {where})") from exc
        except click.ClickException as exc:
            # The error line never shows the token or a URL's password, whatever
            # message carried it (a token pasted into another option, say).
            # click's stub marks message Final; click itself reads it when it prints.
            exc.message = redact(exc.message, [ctx.find_root().params.get("token")])  # type: ignore[misc]
            raise


def _embedding_spec(ctx: click.Context) -> tuple[str | None, str]:
    """The embedding spec in force and where it came from (flag, environment,
    [tool.memvet]); ``(None, "")`` for the default. Its form is checked here,
    for every command; it is imported only by :func:`_embedder`.

    Raises:
        CliError: A malformed spec, naming where it came from.
    """
    from memvet._embedding import check_spec

    root = ctx.find_root()
    spec = root.params.get("embedding")
    if spec is not None and spec.strip():
        from click.core import ParameterSource

        source = ("MEMVET_EMBEDDING" if root.get_parameter_source("embedding") is ParameterSource.ENVIRONMENT
                  else "--embedding")
    else:
        config = _config(ctx)
        spec, source = config.embedding, f"{config.path} [tool.memvet] embedding"
    if spec is None or not spec.strip():
        return None, ""
    try:
        return check_spec(spec), source
    except MemvetError as exc:
        raise CliError(f"{source}: {exc}") from exc


def _embedder(ctx: click.Context, spec: str | None = None, source: str = "--embedding") -> Any:
    """The embedder a command that embeds uses (``spec``, else the one in force).

    Raises:
        CliError: The spec does not give an embedder (one line, exit 2).
    """
    from memvet._embedding import load_embedding

    if spec is None:
        spec, source = _embedding_spec(ctx)
    if spec is None:
        return memvet.MiniLMEmbedder()
    try:
        return load_embedding(spec)
    except MemvetError as exc:
        raise CliError(f"{source}: {exc}") from exc


def _config(ctx: click.Context) -> Config:
    opts = ctx.find_root().obj
    if "config" not in opts:
        opts["config"] = find_config(opts["repo"]) if os.path.isdir(opts["repo"]) else Config()
    config: Config = opts["config"]
    return config


def _open(params: dict[str, Any], config: Config) -> Ledger:
    """Open the ledger the global options name (``params``: the root command's)."""
    similarity = config.similarity_threshold
    duplicate = config.duplicate_threshold
    return Ledger.open(params.get("repo") or ".", path=params.get("ledger_dir"),
                       namespace=params.get("namespace") or config.namespace, server=params.get("server") or None,
                       token=params.get("token") or None, team=params.get("team") or None,
                       user=params.get("user") or None,
                       similarity_threshold=SIMILARITY_THRESHOLD if similarity is None else similarity,
                       duplicate_threshold=DUPLICATE_THRESHOLD if duplicate is None else duplicate,
                       # Review policy matters only where agents write (`memvet mcp`):
                       # Ledger.open reads it as committed at HEAD, and warns about an
                       # uncommitted edit. The CLI itself writes as a person.
                       agent_writes=None if params.get("serves_agents") else "proposed")


def _ledger(ctx: click.Context, *, embeds: bool = False) -> Ledger:
    """The ledger of this invocation; ``embeds``: the command embeds text
    (and so loads the embedding in force; no other command does)."""
    opts = ctx.find_root().obj
    _embedding_spec(ctx)  # a malformed spec is a usage error for every command
    if "ledger" not in opts:
        opts["ledger"] = _open(opts, _config(ctx))
    ledger: Ledger = opts["ledger"]
    if embeds and not opts.get("embedder_loaded"):
        ledger.embedder = _embedder(ctx)
        opts["embedder_loaded"] = True
    return ledger


def _complete_ids(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Decision ids for shell completion, with their claims as help."""
    root = ctx.find_root().params
    try:
        repo = root.get("repo") or "."
        ledger = _open(root, find_config(repo) if os.path.isdir(repo) else Config())
        decisions = ledger.decisions()
    except (MemvetError, click.ClickException):
        return []  # completion has nowhere to report an error; offer nothing
    return [CompletionItem(d.id, help=short(d.claim, 48)) for d in decisions if d.id.startswith(incomplete)]


def _emit_json(data: Any) -> None:
    click.echo(json_safe(json.dumps(data, indent=2, ensure_ascii=False)))


#: Anchor flags, and the flag that attaches a quote to the anchor flag before it.
_ANCHOR_FLAGS = ("--symbol", "--file", "--dep", "--absent")


def _quote_targets(args: list[str]) -> list[tuple[str, int] | None]:
    """For each ``--quote`` on the command line, in order, the anchor flag it
    follows and that flag's index among its own repeats (None: no anchor
    before it). Click keeps each option's values but not how they interleave."""
    counts = dict.fromkeys(_ANCHOR_FLAGS, 0)
    last: tuple[str, int] | None = None
    out: list[tuple[str, int] | None] = []
    i = 0
    while i < len(args):
        flag, eq, _ = args[i].partition("=")
        if args[i] == "--":
            break
        if flag in counts:
            last = (flag, counts[flag])
            counts[flag] += 1
        elif flag == "--quote":
            out.append(last)
        else:
            i += 1
            continue
        i += 1 if eq else 2
    return out


class _AnchorCommand(click.Command):
    """A command whose ``--quote`` flags attach to the anchor flag before each."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["memvet.quote_targets"] = _quote_targets(list(args))
        return super().parse_args(ctx, args)


def _anchor_specs(symbols: Iterable[str], files: Iterable[str], deps: Iterable[str],
                  absents: Iterable[str], scope: str, quotes: Iterable[str] = ()) -> list[memvet.AnchorSpec]:
    by_flag: dict[str, list[list[memvet.AnchorSpec]]] = {}
    for spec in symbols:
        if "::" not in spec:
            raise click.BadParameter(f"{spec!r}: expected PATH::QUALIFIED.NAME", param_hint="--symbol")
        path, _, name = spec.partition("::")
        by_flag.setdefault("--symbol", []).append([memvet.symbol(path, name)])
    by_flag["--file"] = [[memvet.file(p)] for p in files]
    targets = click.get_current_context().meta.get("memvet.quote_targets", [])
    for quote, target in zip(quotes, targets, strict=False):
        if target is None:
            raise click.BadParameter("a --quote must follow the --symbol or --file it quotes", param_hint="--quote")
        flag, index = target
        if flag not in ("--symbol", "--file"):
            raise click.BadParameter(f"a --quote attaches to --symbol or --file, not to {flag}",
                                     param_hint="--quote")
        quoted = by_flag[flag][index]
        if quoted[0].quote:  # a second quote of the same anchor: one more anchor
            quoted.append(memvet.with_quote(quoted[0], quote))
        else:
            quoted[0] = memvet.with_quote(quoted[0], quote)
    specs = [spec for flag in ("--symbol", "--file") for group in by_flag.get(flag, []) for spec in group]
    specs.extend(memvet.dependency(d) for d in deps)
    for item in absents:
        kind, sep, value = item.partition(":")
        if not sep or kind not in ("import", "pattern"):
            raise click.BadParameter(f"{item!r}: expected import:NAME or pattern:REGEX", param_hint="--absent")
        specs.append(memvet.absent(import_=value, scope=scope) if kind == "import"
                     else memvet.absent(pattern=value, scope=scope))
    return specs


def anchor_options(func: Any) -> Any:
    """The anchor flags shared by ``record`` and ``supersede``."""
    options = [
        click.option("--symbol", "symbols", multiple=True, metavar="PATH::QUALNAME",
                     help="A code or doc symbol the decision rests on (repeatable)."),
        click.option("--file", "files", multiple=True, metavar="PATH",
                     help="A whole file the decision rests on (repeatable)."),
        click.option("--dep", "deps", multiple=True, metavar="NAME[SPEC]",
                     help="A declared dependency, e.g. 'requests>=2.31'; root manifests count, "
                     "plus those of a folder named after @: 'redis@examples/celery' (repeatable)."),
        click.option("--absent", "absents", multiple=True, metavar="import:NAME|pattern:REGEX",
                     help="Something that must stay absent (repeatable)."),
        click.option("--quote", "quotes", multiple=True, metavar="CODE",
                     help="Code the claim rests on, inside the --symbol or --file given just before it; "
                          "checked token by token (repeatable)."),
        click.option("--unbound", "unbound", multiple=True, metavar="TERM",
                     help="A code term of the claim that is deliberately not in the evidence (repeatable)."),
        click.option("--scope", default="", metavar="GLOB", help="Where --absent looks (default: everywhere)."),
        click.option("--tag", "tags", multiple=True, help="A label (repeatable)."),
        click.option("--at", default=None, metavar="REV",
                     help="Resolve anchors at a revision (default: working tree)."),
        click.option("--json", "as_json", is_flag=True, help="Print JSON."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


#: Who acts through the CLI: a person (the repository's git user.name), by
#: this channel. Agents write through the MCP server and the adapters.
_PERSON = Author.person(via="memvet CLI")

ID_ARGUMENT = click.argument("decision_id", metavar="ID", shell_complete=_complete_ids)
PROPOSE_OPTION = click.option(
    "--propose", is_flag=True,
    help="Write a proposal: served as 'proposed, not yet reviewed' until `memvet approve ID`.")


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--repo", default=".", show_default=True, type=click.Path(file_okay=False, exists=False),
              help="A folder inside the git repository.")
@click.option("--ledger", "ledger_dir", default=None, envvar="MEMVET_LEDGER", metavar="DIR",
              help="Ledger folder (default: <repo>/.memvet). Env: MEMVET_LEDGER.")
@click.option("--server", default=None, envvar="MEMVET_SERVER", metavar="URL",
              help="A shared Chroma server, http(s)://HOST:PORT, instead of the local ledger. Env: MEMVET_SERVER.")
@click.option("--token", default=None, envvar="MEMVET_TOKEN", metavar="TOKEN",
              help="Bearer token sent to --server. Env: MEMVET_TOKEN.")
@click.option("--namespace", default=None, envvar="MEMVET_NAMESPACE",
              help="Namespace (default: the repository's identity). Env: MEMVET_NAMESPACE.")
@click.option("--team", default=None, envvar="MEMVET_TEAM",
              help="A team inside the namespace (<identity>/team:<team>). Env: MEMVET_TEAM.")
@click.option("--user", default=None, envvar="MEMVET_USER",
              help="A user inside the namespace (.../user:<user>). Env: MEMVET_USER.")
@click.option("--embedding", default=None, envvar="MEMVET_EMBEDDING", metavar="SPEC",
              help="The embedding record and recall use: minilm (default), hashing, or module:callable "
                   "returning an embedder, a LangChain Embeddings, a LlamaIndex BaseEmbedding or a "
                   "callable texts -> vectors. Reads never need it. Env: MEMVET_EMBEDDING; "
                   "[tool.memvet] embedding.")
@click.version_option(memvet.__version__, prog_name="memvet")
@click.pass_context
def cli(ctx: click.Context, repo: str, ledger_dir: str | None, server: str | None, token: str | None,
        namespace: str | None, team: str | None, user: str | None, embedding: str | None) -> None:
    """MemVet: decisions with evidence, re-checked against the code at every read.

    Defaults come from [tool.memvet] in pyproject.toml (fail-on, ignore,
    similarity-threshold, duplicate-threshold, format, agent-writes,
    embedding). Shell completion:
    eval "$(_MEMVET_COMPLETE=bash_source memvet)".

    \b
    Example:
      memvet record "Orders are saved in one transaction" --symbol shop/orders.py::OrderStore.save
      memvet check --since origin/main --format github
    """
    _refuse_empty(ctx)
    ctx.obj = {"repo": repo, "ledger_dir": ledger_dir, "namespace": namespace, "server": server,
               "token": token, "team": team, "user": user, "embedding": embedding}


#: The global options that name a place or an identity, and their variables.
_ENV = {"repo": None, "ledger_dir": "MEMVET_LEDGER", "server": "MEMVET_SERVER", "token": "MEMVET_TOKEN",
        "namespace": "MEMVET_NAMESPACE", "team": "MEMVET_TEAM", "user": "MEMVET_USER",
        "embedding": "MEMVET_EMBEDDING"}


def _refuse_empty(ctx: click.Context) -> None:
    """An empty global option or variable is an error, never "not set".

    A pull request from a fork runs with its secrets withheld: the workflow
    still sets ``MEMVET_SERVER: ${{ secrets.MEMVET_SERVER }}``, now empty.
    Read as unset it would fall back to an empty local ledger, and the gate
    would pass with nothing checked. click drops empty variables before
    they reach the options, so the environment is read here.

    Raises:
        CliError: Naming the flag or the variable and what to do.
    """
    from click.core import ParameterSource

    for name, env in _ENV.items():
        value = ctx.params.get(name)
        given = ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE
        flag = "--ledger" if name == "ledger_dir" else f"--{name}"
        if given and value is not None and not value.strip():
            raise CliError(f"{flag} is empty: give a value, or leave the option out")
        if not given and env is not None and env in os.environ and not os.environ[env].strip():
            what = {"MEMVET_SERVER": "refusing to fall back to the local ledger, which would check nothing "
                                     "(a pull request from a fork gets empty secrets); set it to the server "
                                     "URL, or unset it to use the local ledger",
                    "MEMVET_TOKEN": "set it to the server's token, or unset it"}.get(env, "set it, or unset it")
            raise CliError(f"{env} is set but empty: {what}")


def _print_record(result: memvet.RecordResult, as_json: bool) -> None:
    if as_json:
        _emit_json(result.to_dict())
        return
    _say(result.id)
    if result.outcome == "confirmed":
        what = "proposal" if result.decision.lifecycle is memvet.Lifecycle.PROPOSED else "decision"
        _say(f"confirmed an existing {what} ({result.decision.confirmations} confirmations)", err=True)
    if result.outcome == "proposed":
        replaces = f"; approved, it supersedes {result.decision.supersedes}" if result.decision.supersedes else ""
        _say(f"proposed, awaiting review{replaces}: memvet review, then memvet approve {result.id} "
                   f"or memvet reject {result.id} --reason R", err=True)
    for c in result.conflicts:
        _say(f"conflict: {c.decision.id} [{c.status.value}] {short(c.decision.claim)} — {c.why}", err=True)
    if result.conflicts:
        _say("supersede conflicting decisions explicitly: memvet supersede ID CLAIM --reason R", err=True)
    for w in result.warnings:
        _say(f"warning: {w}", err=True)
    if result.findings and result.outcome != "confirmed":
        n = len(result.findings)
        _say(f"recorded with {n} finding{'s' if n != 1 else ''}: served as unconfirmed, not current, until a "
             f"person resolves {'them' if n != 1 else 'it'} (memvet resolve {result.id} --quote CODE | "
             f"--unbound TERM) or the claim is corrected (memvet supersede):", err=True)
        for line in result.findings:
            _say(f"  - {line}", err=True)


@cli.command(cls=_AnchorCommand)
@click.argument("claim")
@anchor_options
@click.option("--supersedes", default=None, metavar="ID", help="The decision this one replaces.")
@click.option("--reason", default=None, help="Why (required with --supersedes).")
@click.option("--on-conflict", type=click.Choice(["warn", "error"]), default="warn", show_default=True,
              help="Record and report conflicts, or refuse.")
@PROPOSE_OPTION
@click.pass_context
def record(ctx: click.Context, claim: str, symbols: tuple[str, ...], files: tuple[str, ...],
           deps: tuple[str, ...], absents: tuple[str, ...], quotes: tuple[str, ...],
           unbound: tuple[str, ...], scope: str, tags: tuple[str, ...],
           at: str | None, as_json: bool, supersedes: str | None, reason: str | None,
           on_conflict: str, propose: bool) -> None:
    """Record a decision with the evidence it rests on; prints its id.

    The claim's code-like terms (backticked spans, calls, dotted names,
    identifiers, constants, numbers, strings, paths) are looked for in the
    anchored code. One it does not say, or a relation the code states
    otherwise, is a finding: the decision is stored and served as
    unconfirmed (never as current) until a person resolves it. An anchor
    that does not resolve, or a quote not in its span, refuses the write.

    \b
    Example:
      memvet record "Prices are rounded half-up" --symbol shop/money.py::round_price --tag pricing
      memvet record "LRU.put evicts the oldest entry" --symbol app/cache.py::LRU.put \\
          --quote "popitem(last=False)"
      memvet record --propose "Totals use Decimal" --symbol shop/orders.py::total
    """
    if reason and not supersedes:
        raise click.UsageError("--reason goes with --supersedes")
    specs = _anchor_specs(symbols, files, deps, absents, scope, quotes)
    result = _ledger(ctx, embeds=True).record(claim, specs, supersedes=supersedes, reason=reason, tags=tags, at=at,
                                 on_conflict=on_conflict, base=os.getcwd(), unbound=unbound, proposed=propose,
                                 author=_PERSON)
    _print_record(result, as_json)


@cli.command(cls=_AnchorCommand)
@ID_ARGUMENT
@click.argument("claim")
@anchor_options
@click.option("--reason", required=True, help="Why the old decision no longer holds.")
@PROPOSE_OPTION
@click.pass_context
def supersede(ctx: click.Context, decision_id: str, claim: str, symbols: tuple[str, ...],
              files: tuple[str, ...], deps: tuple[str, ...], absents: tuple[str, ...],
              quotes: tuple[str, ...], unbound: tuple[str, ...], scope: str,
              tags: tuple[str, ...], at: str | None, as_json: bool, reason: str, propose: bool) -> None:
    """Replace a decision with a new one; the old one is kept as history.

    With --propose the old one stays current until the proposal is approved.

    \b
    Example:
      memvet supersede 3f2a9c "Totals use Decimal" --symbol shop/orders.py::total --reason "floats lost cents"
    """
    specs = _anchor_specs(symbols, files, deps, absents, scope, quotes)
    result = _ledger(ctx, embeds=True).supersede(decision_id, claim, specs, reason=reason, tags=tags, at=at,
                                    base=os.getcwd(), unbound=unbound, proposed=propose, author=_PERSON)
    _print_record(result, as_json)


@cli.command()
@ID_ARGUMENT
@click.option("--reason", required=True, help="Why it was rejected (shown to agents as history).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def reject(ctx: click.Context, decision_id: str, reason: str, as_json: bool) -> None:
    """Retract a decision or turn down a proposal. Agents see it as "previously tried, rejected".

    \b
    Example:
      memvet reject 3f2a9c --reason "the global lock deadlocked"
    """
    decision = _ledger(ctx).reject(decision_id, reason=reason, author=_PERSON)
    if as_json:
        _emit_json({"id": decision.id, "status": "rejected", "reason": decision.reason})
    else:
        _say(f"{decision.id} rejected: {decision.reason}")


@cli.command()
@ID_ARGUMENT
@click.option("--reason", default=None, help="What you checked (kept in the receipt).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def approve(ctx: click.Context, decision_id: str, reason: str | None, as_json: bool) -> None:
    """Approve a proposal (it becomes active, and supersedes what it names),
    or an agent's request to retire an active decision (it is rejected, or
    superseded by the agent's proposal). A person's act: not an agent's, and
    not the proposal's own author's.

    \b
    Example:
      memvet approve 3f2a9c --reason "checked total() uses Decimal"
    """
    ledger = _ledger(ctx)
    decision = ledger.approve(decision_id, reason=reason, author=_PERSON)
    verdict = ledger.verify(decision.id)
    if as_json:
        _emit_json({"id": decision.id, "lifecycle": decision.lifecycle.value, "supersedes": decision.supersedes,
                    "status": verdict.status.value, "reason": verdict.reason})
        return
    if decision.lifecycle is not Lifecycle.ACTIVE:
        _say(f"{decision.id} {decision.lifecycle.value}, as the agent asked: {verdict.reason}")
        return
    replaces = f"; it supersedes {decision.supersedes}" if decision.supersedes else ""
    _say(f"{decision.id} approved{replaces}: {verdict.status.value} ({verdict.reason})")


@cli.command()
@ID_ARGUMENT
@click.option("--reason", required=True, help="Why you turn it down (kept in the receipt).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def decline(ctx: click.Context, decision_id: str, reason: str, as_json: bool) -> None:
    """Turn down an agent's request to retire a decision (it stays as it is),
    or a proposal (it is rejected).

    \b
    Example:
      memvet decline 3f2a9c --reason "save() still appends; the agent misread the diff"
    """
    ledger = _ledger(ctx)
    decision = ledger.decline(decision_id, reason=reason, author=_PERSON)
    _print_act(ledger, decision, as_json, "declined; it is")


def _print_act(ledger: Ledger, decision: memvet.Decision, as_json: bool, done: str) -> None:
    """A person's act on the command line: the decision's lifecycle and its
    verdict now (``--json``), or one line saying what was ``done``."""
    verdict = ledger.verify(decision.id)
    if as_json:
        _emit_json({"id": decision.id, "lifecycle": decision.lifecycle.value, "status": verdict.status.value,
                    "reason": verdict.reason})
        return
    _say(f"{decision.id} {done} {verdict.status.value} ({verdict.reason})")


@cli.command()
@ID_ARGUMENT
@click.option("--quote", default=None, metavar="CODE",
              help="The code that says the claim, in one of its anchored symbols or files: it becomes evidence "
                   "and settles the findings.")
@click.option("--anchor", default=None, metavar="SPEC", help="The anchor the quote is in (default: the first).")
@click.option("--unbound", "unbound", multiple=True, metavar="TERM",
              help="A term of the claim to declare deliberately unbound (shown wherever the decision is).")
@click.option("--reason", required=True, help="What you checked (kept in the receipt).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def resolve(ctx: click.Context, decision_id: str, quote: str | None, anchor: str | None,
            unbound: tuple[str, ...], reason: str, as_json: bool) -> None:
    """Settle the findings the write path left on a decision: quote the line that
    says the claim, or declare terms unbound. To correct the claim, supersede it.

    \b
    Example:
      memvet resolve 3f2a9c --quote 'http2: bool = False' --reason "read Client.__init__"
      memvet resolve 3f2a9c --unbound HTTP/2 --reason "the product name, not an identifier"
    """
    ledger = _ledger(ctx)
    decision = ledger.resolve(decision_id, quote=quote, anchor=anchor, unbound=unbound, reason=reason,
                              author=_PERSON)
    verdict = ledger.verify(decision.id)
    if as_json:
        _emit_json({"id": decision.id, "status": verdict.status.value, "reason": verdict.reason,
                    "findings": list(decision.findings), "unbound": list(decision.unbound)})
        return
    left = f"; {len(decision.findings)} finding(s) left" if decision.findings else ""
    _say(f"{decision.id} resolved{left}: {verdict.status.value} ({verdict.reason})")


@cli.command()
@ID_ARGUMENT
@click.option("--reason", required=True, help="Why it holds again (kept in the receipt).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def reopen(ctx: click.Context, decision_id: str, reason: str, as_json: bool) -> None:
    """Make a rejected decision active again (its rejection stays in the log).

    \b
    Example:
      memvet reopen 3f2a9c --reason "the rejection was an agent's mistake"
    """
    ledger = _ledger(ctx)
    decision = ledger.reopen(decision_id, reason=reason, author=_PERSON)
    _print_act(ledger, decision, as_json, "reopened:")


def _print_checks(checks: Iterable[Any], found: Iterable[Any]) -> None:
    """Each anchor check with its quote and, where one was taken, its excerpt."""
    checks = list(checks)
    shown: list[Any] = list(found) or [None] * len(checks)
    for check_, excerpt in zip(checks, shown, strict=True):
        _say(f"  anchor:   {check_.anchor.spec}  [{check_.result.value}] {check_.detail}")
        if check_.anchor.quote:
            _say(f"    quote:  {check_.anchor.quote}")
        if excerpt is not None:
            _print_excerpt(excerpt)


def _print_excerpt(excerpt: Any, indent: str = "    ") -> None:
    """The anchored lines of an excerpt, the diff since recorded, and notes."""
    if excerpt.lines:
        _say(f"{indent}{excerpt.path}:{excerpt.start}")
        width = len(str(excerpt.start + len(excerpt.lines)))
        for n, line in enumerate(excerpt.lines, start=excerpt.start):
            _say(f"{indent}{n:>{width}} │ {line}")
    if excerpt.diff:
        _say(f"{indent}changed since recorded:")
        for line in excerpt.diff:
            colour = "green" if line.startswith("+") else "red" if line.startswith("-") else None
            click.echo(indent + click.style(one_line(line), fg=colour))
    if excerpt.omitted:
        _say(f"{indent}({excerpt.omitted} more lines not shown)")
    if excerpt.note:
        _say(f"{indent}({excerpt.note})")


@cli.command()
@click.option("--at", default=None, metavar="REV", help="Check at a revision (default: working tree).")
@click.option("--code/--no-code", default=True, show_default=True, help="Show the anchored code.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def review(ctx: click.Context, at: str | None, code: bool, as_json: bool) -> None:
    """List what awaits a person: proposals, and agents' requests to retire decisions.

    Each proposal comes with its claim, author (and whether a person or an
    agent) and time, every anchor with its check result and code, its
    quotes and unbound terms, and the active decisions it collides with.
    Each request names the decision, its verdict and the agent's reason.
    Approve with `memvet approve ID`, turn down with `memvet decline ID
    --reason R`.

    \b
    Example:
      memvet review
      memvet review --json
    """
    from memvet._excerpt import excerpts

    ledger = _ledger(ctx)
    # Findings first: a claim the code may not say is the doubt to settle first.
    found = sorted(ledger.proposals(at=at), key=lambda p: not p.decision.findings)
    doubted = ledger.unconfirmed(at=at)
    requests = ledger.requests(at=at)
    shown = [excerpts(ledger, p.verdict, at) if code else [] for p in found]
    if as_json:
        items = []
        for proposal, excerpt_list in zip(found, shown, strict=True):
            data = proposal.to_dict()
            data["excerpts"] = [e.to_dict() for e in excerpt_list]
            items.append(data)
        asked = [{**v.to_dict(), "request": {"by": v.decision.retire_by, "reason": v.decision.retire_reason,
                                             "successor": v.decision.retire_with}} for v in requests]
        unsettled = [{**v.to_dict(), "findings": list(v.decision.findings)} for v in doubted]
        _emit_json({"at": ledger.snapshot(at).name, "findings": unsettled, "proposals": items,
                    "requests": asked})
        return
    for v in doubted:
        d = v.decision
        _say(f"{d.id}  recorded by {describe_author(d.author, d.author_kind)}, unconfirmed")
        _say(f"  claim:    {d.claim}")
        for line in d.findings:
            _say(f"  finding:  {line}")
        _say(f"  → memvet resolve {d.id} --quote CODE --reason R   |   memvet supersede {d.id} CLAIM --reason R")
        _say()
    for v in requests:
        d = v.decision
        act = f"supersede it with {d.retire_with}" if d.retire_with else "reject it"
        _say(f"{d.id}  {d.retire_by} (agent) asks to {act}")
        _say(f"  claim:    {d.claim}  (by {describe_author(d.author, d.author_kind)})")
        _say(f"  reason:   {d.retire_reason}")
        _say(f"  now:      {v.reason.split('; its evidence: ', 1)[-1] if '; its evidence: ' in v.reason else v.reason}")
        _say(f"  → memvet approve {d.id}   |   memvet decline {d.id} --reason R")
        _say()
    doubts = f"; {len(doubted)} decision(s) with findings" if doubted else ""
    if not found:
        _say("no proposals awaiting review" + (f"; {len(requests)} request(s) to retire a decision"
                                               if requests else "") + doubts)
        return
    prefix = "not yet reviewed; its evidence: "
    for proposal, excerpt_list in zip(found, shown, strict=True):
        d = proposal.decision
        v = proposal.verdict
        _say(f"{d.id}  proposed by {describe_author(d.author, d.author_kind)} on {when(d.created_at)} "
             f"at {d.commit[:12]}")
        _say(f"  claim:    {d.claim}")
        if d.supersedes:
            _say(f"  replaces: {d.supersedes} (on approval): {d.reason}")
        _say(f"  evidence: {v.reason.removeprefix(prefix)}")
        if d.tags:
            _say(f"  tags:     {', '.join(d.tags)}")
        if d.confirmations:
            _say(f"  proposed again {d.confirmations} time{'s' if d.confirmations != 1 else ''}")
        _print_checks(v.checks, excerpt_list)
        if d.unbound:
            _say(f"  unbound:  {', '.join(d.unbound)} (declared as not in the anchored code)")
        for line in d.findings:
            _say(f"  finding:  {line}")
        for c in proposal.conflicts:
            _say(f"  conflict: {c.decision.id} [{c.status.value}] {short(c.decision.claim)} — {c.why}")
        for w in proposal.warnings:
            _say(f"  warning:  {w}")
        _say(f"  → memvet approve {d.id}   |   memvet decline {d.id} --reason R")
        _say()
    asked = f"; {len(requests)} request(s) to retire a decision" if requests else ""
    _say(f"{len(found)} proposal{'s' if len(found) != 1 else ''} awaiting review{asked}{doubts}")


@cli.command()
@ID_ARGUMENT
@click.option("--reason", required=True, help="What a person confirmed.")
@click.option("--at", default=None, metavar="REV", help="Re-baseline at a revision (default: working tree).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def revalidate(ctx: click.Context, decision_id: str, reason: str, at: str | None, as_json: bool) -> None:
    """Re-baseline a decision's anchors at the current code after a person confirmed it.

    \b
    Example:
      memvet revalidate 3f2a9c --reason "checked: round_price only moved"
    """
    verdict = _ledger(ctx).revalidate(decision_id, reason=reason, at=at, author=_PERSON)
    if as_json:
        _emit_json(verdict.to_dict())
    else:
        _say(f"{verdict.id} revalidated: {verdict.status.value} ({verdict.reason})")


def _fail_on(value: str | None, config: Config) -> set[str]:
    if value is not None:
        try:
            return set(parse_statuses(value, "--fail-on"))
        except MemvetError as exc:
            raise click.BadParameter(str(exc).removeprefix("--fail-on: "), param_hint="--fail-on") from exc
    return set(config.fail_on if config.fail_on is not None else DEFAULT_FAIL_ON)


def _console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


@contextlib.contextmanager
def _progress(ledger: Ledger, steps_per_decision: int) -> Iterator[Callable[[], None] | None]:
    """A transient progress bar on stderr, for long checks on a terminal only.

    Yields the function that advances it one step (``None`` when no bar is
    shown); the check calls it once per verdict.
    """
    console = _console()
    if not console.is_terminal:
        yield None
        return
    total = ledger.count() * steps_per_decision
    if total < PROGRESS_MIN_DECISIONS * steps_per_decision:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("checking decisions"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("check", total=total)
        yield lambda: bar.advance(task)


@contextlib.contextmanager
def _counter(what: str) -> Iterator[Callable[[int, int], None] | None]:
    """A transient progress bar on stderr for an act whose length is known
    as it goes (re-embedding, importing), on a terminal only.

    Yields the ``on_progress(done, total)`` callback the library takes
    (``None`` when no bar is shown: stderr is not a terminal).
    """
    console = _console()
    if not console.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(what, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


@cli.command()
@click.option("--at", default=None, metavar="REV", help="Check at a revision (default: working tree).")
@click.option("--since", default=None, metavar="REV",
              help="Only decisions whose evidence changed between REV (its merge base with the target, "
                   "like git diff REV...) and the target: what this change invalidates.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="Output: text, json, markdown (a table for a PR comment), github (workflow annotations). "
                   "[default: text, or [tool.memvet] format]")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (same as --format json).")
@click.option("--fail-on", default=None, metavar="STATUSES",
              help="Exit 1 when a reported decision has one of these statuses. "
                   "[default: stale,refuted, or [tool.memvet] fail-on]")
@click.option("--strict", is_flag=True,
              help="With --since, also fail on decisions that already had a failing status at the start "
                   "of the range (by default they are reported as already failing, not counted).")
@click.option("--wide", is_flag=True,
              help="Print whole claims on a terminal too (they are cut to one short line there; "
                   "piped or redirected output always has them whole).")
@click.pass_context
def check(ctx: click.Context, at: str | None, since: str | None, fmt: str | None, as_json: bool,
          fail_on: str | None, strict: bool, wide: bool) -> None:
    """Check every decision against the code; exit 1 when something is stale or refuted.

    With --since, report only what changed between REV and the target: decisions
    whose status differs, or whose anchored files were changed in the range.
    Only what the range made fail counts: a decision that already failed at
    the start of the range is reported as "already failing before this
    change" and does not fail the check, unless --strict.

    \b
    Example:
      memvet check --at HEAD --fail-on stale,refuted,needs_revalidation
      memvet check --since origin/main --format github
    """
    from memvet._about import changed_since, ignored

    if strict and since is None:
        raise click.UsageError("--strict goes with --since")
    config = _config(ctx)
    failing = _fail_on(fail_on, config)
    fmt = "json" if as_json else (fmt or config.format or "text")
    ledger = _ledger(ctx)
    report = None
    with _progress(ledger, 2 if since else 1) as step:
        if since is not None:
            report = changed_since(ledger, since, at, ignore=config.ignore, on_step=step)
            pairs: list[Row] = [Row(i.verdict, i, _already_failing(i, failing)) for i in report.impacts]
            target = report.target
        else:
            on_verdict = (lambda _verdict: step()) if step is not None else None
            pairs = [Row(v) for v in ledger.check(at=at, on_verdict=on_verdict)]
            target = pairs[0].verdict.target if pairs else ledger.snapshot(at).name
    rows = [r for r in pairs if not ignored(r.verdict, config.ignore)]
    left_out = [r.verdict.id for r in pairs if ignored(r.verdict, config.ignore)]
    if fmt == "json":
        click.echo(json_safe(_format.as_json(rows, target, report, left_out)))
    elif fmt == "markdown":
        _say_lines(_format.markdown(rows, target, report, failing, strict=strict))
    elif fmt == "github":
        _say_lines(_format.github(rows, target, failing, strict=strict))
    else:
        width = None if wide or not _stdout_is_terminal() else CLAIM_WIDTH
        _say_lines(_format.text(rows, target, report, len(left_out), width=width, failing=failing,
                                strict=strict))
    if _format.counted(rows, failing, strict=strict):
        ctx.exit(1)


def _already_failing(impact: Any, failing: set[str]) -> bool:
    """True when the range did not cause the decision's failing status: it
    had a failing status at the start of the range too."""
    before = impact.before
    return before is not None and before.value in failing and impact.verdict.status.value in failing


def _stdout_is_terminal() -> bool:
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty is not None and isatty())


def _print_groups(result: memvet.Recall, notes: Callable[[memvet.RecallItem], list[str]] | None = None) -> None:
    titles = {"current": "current", "caution": "verify before relying", "history": "history (do not repeat)"}
    for group in ("current", "caution", "history"):
        items = getattr(result, group)
        if not items:
            continue
        _say(f"{titles[group]}:")
        for item in items:
            _say(f"  [{item.id}] {item.text}")
            for note in notes(item) if notes is not None else []:
                _say(f"  {'':<14}└ {note}")


@cli.command()
@click.argument("words", nargs=-1, metavar="QUERY | PATH...")
@click.option("--touching", is_flag=True,
              help="Treat the arguments as paths (files, folders, globs, PATH::SYMBOL) and return the "
                   "decisions anchored in them.")
@click.option("--diff", "diff", is_flag=False, flag_value="HEAD", default=None, metavar="[REV]",
              help="Return the decisions anchored in the files changed since REV (default HEAD: your "
                   "uncommitted changes).")
@click.option("-k", "k", default=None, type=click.IntRange(min=0, max=MAX_K),
              help="How many decisions. [default: 5 for a query; all for --touching/--diff]")
@click.option("--tag", "tags", multiple=True, metavar="TAG",
              help="Only decisions carrying this tag (repeatable: any of them).")
@click.option("--path", "paths", multiple=True, metavar="PATH",
              help="Only decisions anchored at or under this repository-relative file or folder "
                   "(repeatable: any of them).")
@click.option("--at", default=None, metavar="REV", help="Verify at a revision (default: working tree).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def recall(ctx: click.Context, words: tuple[str, ...], touching: bool, diff: str | None, k: int | None,
           tags: tuple[str, ...], paths: tuple[str, ...], at: str | None, as_json: bool) -> None:
    """Recall decisions relevant to a question, or resting on what you are about to edit.

    Results come verified and grouped: current, verify before relying, history.

    \b
    Example:
      memvet recall "how are orders stored?" -k 8
      memvet recall "how are orders stored?" --tag storage --path shop/
      memvet recall --touching shop/store.py shop/money.py::round_price
      memvet recall --diff origin/main
    """
    ledger = _ledger(ctx)
    if touching or diff is not None:
        if words and not touching:
            raise click.UsageError("give a QUERY, or paths with --touching, not both with --diff")
        if touching and not words:
            raise click.UsageError("--touching needs at least one PATH")
        result = ledger.about(list(words), diff=diff, at=at, base=os.getcwd())
        wanted = make_filter(tags, paths)
        if k is not None or wanted is not None:
            from memvet._recall import group_recall

            items = [i for i in result.items if wanted is None or wanted.matches(i.verdict.decision)]
            result = group_recall(result.query, result.target, [(i.verdict, i.score) for i in items],
                                  len(items) if k is None else k)
        if as_json:
            data = result.to_dict()
            for group in ("current", "caution", "history"):
                for item, out in zip(getattr(result, group), data[group], strict=True):
                    out["touching"] = _touching(item, words, ledger)
            _emit_json(data)
            return
        _say(f"decisions {result.query}:" if result.items
                   else f"no decision rests on what you touch ({result.query})")
        _print_groups(result, lambda item: [f"rests on {', '.join(_touching(item, words, ledger))}"])
        return
    if not words:
        raise click.UsageError("recall needs a QUERY, --touching PATH..., or --diff [REV]")
    ledger = _ledger(ctx, embeds=True)
    result = ledger.recall(" ".join(words), k=5 if k is None else k, at=at, tags=tags, paths=paths)
    if as_json:
        _emit_json(result.to_dict())
        return
    _print_groups(result)
    if not result.items:
        _say("no decision matches the filters" if tags or paths else "no decisions recorded yet")


def _touching(item: memvet.RecallItem, words: Iterable[str], ledger: Ledger) -> list[str]:
    from memvet._about import touched_anchors

    hits = touched_anchors(item.verdict, list(words), ledger.git, base=os.getcwd()) if words else []
    return hits or [a.spec for a in item.verdict.decision.anchors]


@cli.command()
@ID_ARGUMENT
@click.option("--at", default=None, metavar="REV", help="Verify at a revision (default: working tree).")
@click.option("--code/--no-code", default=True, show_default=True,
              help="Show the anchored code and the diff of a changed body since recording.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def show(ctx: click.Context, decision_id: str, at: str | None, code: bool, as_json: bool) -> None:
    """Show one decision, its anchors as they stand now (with the code), and its receipts.

    \b
    Example:
      memvet show 3f2a9c
    """
    from memvet._excerpt import excerpts

    ledger = _ledger(ctx)
    verdict = ledger.verify(decision_id, at=at)
    receipts = ledger.history(verdict.id)
    found = excerpts(ledger, verdict, at) if code else []
    if as_json:
        _emit_json(_format.show_json(verdict, receipts, found))
        return
    _say_lines(_format.show_head(verdict))
    _print_checks(verdict.checks, found)
    _say_lines(_format.history(receipts))


@cli.command(name="log")
@click.argument("decision_id", metavar="[ID]", required=False, shell_complete=_complete_ids)
@click.option("-n", "--last", "last", default=None, type=click.IntRange(min=1), metavar="N",
              help="Only the last N receipts.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def log_(ctx: click.Context, decision_id: str | None, last: int | None, as_json: bool) -> None:
    """The receipts of every lifecycle act as a timeline, by day (of one decision with ID).

    \b
    Example:
      memvet log 3f2a9c
      memvet log -n 20
    """
    ledger = _ledger(ctx)
    receipts = ledger.history(decision_id) if decision_id else ledger.log()
    if last is not None:
        receipts = receipts[-last:]
    if as_json:
        _emit_json({"receipts": [r.to_dict() for r in receipts]})
        return
    if not receipts:
        _say("no receipts yet")
        return
    claims = {d.id: d.claim for d in ledger.decisions()}
    day = ""
    for r in receipts:
        if when(r.at, "%Y-%m-%d") != day:
            day = when(r.at, "%Y-%m-%d")
            if r is not receipts[0]:
                _say()
            _say(day)
        change = f"{r.from_lifecycle} → {r.to_lifecycle}" if r.from_lifecycle != r.to_lifecycle else r.to_lifecycle
        if not r.from_lifecycle:
            change = f"→ {r.to_lifecycle}"
        _say(f"  {when(r.at, '%H:%M')}  {r.decision_id}  {r.action:<10} {change:<22} "
                   f"{short(claims.get(r.decision_id, '(unknown decision)'), 48)}")
        successor_side = r.action in ("record", "propose", "approve")
        related = f"{'with' if successor_side else 'by'} {r.related}: " if r.related else ""
        why = f"{related}{r.reason}" if (related or r.reason) else ""
        imported = f", imported {when(r.imported_at, '%Y-%m-%d %H:%M')} by {r.imported_by or '?'}" if r.imported else ""
        _say(f"  {'':<5}  {'':<12}  └ {why + '  ' if why else ''}[{r.who} @ {r.commit[:8]}{imported}]")


def _write(output: str | None, text: str) -> None:
    if output is None or output == "-":
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {output}: {exc.strerror or exc}") from exc


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["markdown", "json", "jsonl"]), default="markdown",
              show_default=True,
              help="markdown/json: an agent-context file (verified, drifted with reasons, rejected); "
                   "jsonl: the whole ledger with receipts, for `memvet import`.")
@click.option("--current-only", is_flag=True, help="Only verified decisions (says how many were left out).")
@click.option("--at", default=None, metavar="REV", help="Check at a revision (default: working tree).")
@click.option("-o", "--output", default=None, metavar="FILE", help="Write here instead of stdout.")
@click.pass_context
def export(ctx: click.Context, fmt: str, current_only: bool, at: str | None, output: str | None) -> None:
    """Export decisions: an agent-context file, or the whole ledger for sharing through git.

    \b
    Example:
      memvet export --format markdown --output docs/decisions.md
      memvet export --format jsonl --output decisions.jsonl
    """
    from memvet._exchange import agent_context, export_jsonl

    ledger = _ledger(ctx)
    if fmt == "jsonl":
        if current_only or at:
            raise click.UsageError("--current-only and --at apply to markdown and json, not jsonl")
        dump = export_jsonl(ledger)
        for message in dump.skipped:
            _say(f"warning: left out an unreadable record: {message}", err=True)
        _write(output, json_safe(dump.text()))
        if output not in (None, "-"):
            _say(f"wrote {dump.decisions} decisions and {dump.receipts} receipts to {output}", err=True)
        return
    with _progress(ledger, 1) as step:
        found = agent_context(ledger, at, current_only=current_only,
                              on_verdict=(lambda _verdict: step()) if step is not None else None)
    text = found.to_markdown() if fmt == "markdown" else json_safe(json.dumps(found.to_dict(), indent=2,
                                                                               ensure_ascii=False)) + "\n"
    _write(output, text)
    if output not in (None, "-"):
        _say(f"wrote {len(found.verified)} verified, {len(found.drifted)} drifted, "
                   f"{len(found.proposed)} proposed and {len(found.rejected)} rejected decisions to {output}",
                   err=True)


@cli.command(name="import")
@click.argument("source", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--trust", is_flag=True,
              help="You vouch for the file (your team's own export): keep the lifecycles its receipts support, "
                   "with a receipt by you, and bring forward later states of decisions you hold. Without it, "
                   "what you do not hold enters as proposals and nothing you hold changes.")
@click.option("--link-local", "link_local", is_flag=True,
              help="Let a decision of the file supersede one only this ledger holds (with a receipt), "
                   "and its receipts join that decision's history; refused without it.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def import_(ctx: click.Context, source: str, trust: bool, link_local: bool, as_json: bool) -> None:
    """Import a ledger exported with `memvet export --format jsonl`; exit 1 on conflicts.

    Import believes nothing it cannot check: every decision's anchors are
    resolved again on the code it was recorded on and its claim bound
    there (hashes are never taken from the file). Without --trust, each
    decision you do not hold identically enters as a proposal for
    `memvet review`, whatever the file says; with --trust, you vouch for
    the file and the lifecycles its receipts support are kept (one that
    no receipt supports refuses the whole import). Idempotent: records
    already present are left alone; a record that differs is brought
    forward (with --trust) only when its receipts extend the local ones,
    and otherwise reported as a conflict, never overwritten. The whole
    file is checked first: one bad line, and nothing is written.
    Imported receipts are marked as imported in `log` and `show`.

    \b
    Example:
      memvet import decisions.jsonl            # another team's file: proposals to review
      memvet import --trust decisions.jsonl    # your team's own, reviewed in git
    """
    from memvet._exchange import import_jsonl

    try:
        if source == "-":
            lines = sys.stdin.read().splitlines()
        else:
            lines = Path(source).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError as exc:
        raise CliError(f"{source}: no such file") from exc
    except UnicodeDecodeError as exc:
        raise CliError(f"{source}: not UTF-8 text (byte {exc.start})") from exc
    except OSError as exc:
        raise CliError(f"cannot read {source}: {exc.strerror or exc}") from exc
    ledger = _ledger(ctx, embeds=True)
    with _counter("checking imported decisions") as on_progress:
        report = import_jsonl(ledger, lines, source=source, link_local=link_local, trust=trust,
                              on_progress=on_progress)
    if as_json:
        _emit_json(report.to_dict())
    else:
        linked = f"; {len(report.linked)} local decisions superseded (--link-local)" if report.linked else ""
        proposed = ""
        if report.proposed:
            proposed = (f"; {len(report.proposed)} entered as proposals, not as the file has them "
                        f"({'' if trust else 'without --trust; '}memvet review)")
        _say(f"{len(report.added)} added, {len(report.updated)} updated, {len(report.unchanged)} "
             f"unchanged, {len(report.kept)} kept (local is newer); {report.receipts_added} receipts "
             f"added{linked}{proposed}")
        for note in report.unchecked:
            _say(f"unchecked: decision {note.id}: {note.why}; entered as a proposal", err=True)
        for conflict in report.conflicts:
            _say(f"conflict: {conflict.kind} {conflict.id}: {conflict.why}", err=True)
    if report.conflicts:
        ctx.exit(1)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def repair(ctx: click.Context, as_json: bool) -> None:
    """Finish lifecycle acts (supersede, reject) that a crashed writer left half done.

    Every write does this on its own first; run it to settle a ledger
    without writing anything else.

    \b
    Example:
      memvet repair
    """
    finished = _ledger(ctx).repair()
    if as_json:
        _emit_json({"finished": finished})
    else:
        _say(f"finished {finished} interrupted act{'s' if finished != 1 else ''}")


@cli.command()
@click.option("--embedding", "spec", default=None, metavar="SPEC",
              help="The embedding to move to (minilm, hashing, module:callable). "
                   "[default: the global --embedding, MEMVET_EMBEDDING or [tool.memvet] embedding]")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def reembed(ctx: click.Context, spec: str | None, as_json: bool) -> None:
    """Move the ledger to another embedding: every claim is embedded again.

    Ids, lifecycles, receipts and the journal stay as they are. Crash-safe:
    the new vectors are written beside the old ones and switched to in one
    write; a run killed midway leaves the old ledger (run it again).

    
    Example:
      memvet reembed --embedding minilm
      memvet reembed --embedding mypkg.embeddings:make_embedder
    """
    if spec is not None:
        embedder = _embedder(ctx, spec, "--embedding")
    else:
        spec, source = _embedding_spec(ctx)
        if spec is None:
            raise click.UsageError("reembed needs the embedding to move to: --embedding SPEC")
        embedder = _embedder(ctx, spec, source)
    ledger = _ledger(ctx)
    before = ledger.pinned_embedding
    with _counter("re-embedding decisions") as on_progress:
        count = ledger.reembed(embedder, on_progress=on_progress)
    if as_json:
        _emit_json({"reembedded": count, "from": before, "to": embedder.name})
    else:
        was = f" (was {before!r})" if before else ""
        _say(f"re-embedded {count} decision{'s' if count != 1 else ''} with {embedder.name!r}{was}")


@cli.command()
@click.option("--pre-commit", "pre_commit", is_flag=True,
              help="Add the memvet-check hook to .pre-commit-config.yaml (appended to an existing file).")
@click.option("--github", is_flag=True, help="Write the pull-request gate .github/workflows/memvet.yml.")
@click.option("--mcp", "mcp", multiple=True, type=click.Choice(["claude", "cursor", "vscode"]),
              help="Write the MCP configuration this client reads for the project: .mcp.json (Claude Code), "
                   ".cursor/mcp.json, .vscode/mcp.json. Repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: each file, what was done, what was written.")
@click.pass_context
def init(ctx: click.Context, pre_commit: bool, github: bool, mcp: tuple[str, ...], as_json: bool) -> None:
    """Set this git repository up for MemVet: the ledger folder .memvet/ (kept
    out of git) and a commented [tool.memvet] table in pyproject.toml.

    Never rewrites a file it did not create: it appends its block once, or
    says what to add by hand. Running it again changes nothing.

    \b
    Example:
      memvet init
      memvet init --pre-commit --github --mcp claude
    """
    from memvet._init import init_project

    root = ctx.find_root().params
    report = init_project(root.get("repo") or ".", ledger=root.get("ledger_dir"), pre_commit=pre_commit,
                          github=github, mcp=mcp)
    if as_json:
        _emit_json(report.to_dict())
        return
    _say(f"memvet init in {report.root}:")
    for step in report.steps:
        _say(f"  {step.action:<9}  {step.path}: {step.what}")
        if step.action == "skipped":
            _say_lines(f"      {line}" for line in step.content.splitlines())
    if not report.changed:
        skipped = any(step.action == "skipped" for step in report.steps)
        _say("Nothing changed: " + ("add what is skipped above by hand." if skipped
                                    else "this repository is already set up."))
    _say("Next:")
    _say_lines(f"  {command}" for command in report.next)


@cli.command()
@click.option("--keep", type=click.Path(file_okay=False), default=None,
              help="Build the sample repository here and keep it (default: a temporary folder).")
def demo(keep: str | None) -> None:
    """Run the main job on a sample history: record, drift, verdicts, recall.

    \b
    Example:
      memvet demo --keep /tmp/shop
    """
    from memvet.cli._demo import run_demo

    run_demo(keep)


@cli.command(name="mcp")
@click.option("--http", "http", default=None, metavar="HOST:PORT",
              help="Serve the streamable HTTP transport at http://HOST:PORT/mcp instead of stdio.")
@click.option("--allow-remote", is_flag=True,
              help="Allow --http on a non-loopback host. The endpoint has no authentication of its own: "
                   "put it behind the token proxy (deploy/nginx.conf; see docs/mcp.md).")
@click.option("--on-conflict", type=click.Choice(["error", "warn"]), default="error", show_default=True,
              help="What memvet_record does with a claim that conflicts with an active decision: refuse "
                   "and name the conflicts (the agent then supersedes), or record and name them.")
@click.option("--agent-writes", type=click.Choice(["proposed", "active"]), default=None,
              help="Whether the agent's record and supersede write proposals that a person approves "
                   "(memvet review / approve) or active decisions. Default: [tool.memvet] agent-writes "
                   "as committed at HEAD (an uncommitted edit is ignored), itself 'proposed'. Agents never "
                   "approve, and their reject or supersede of an active decision is always a request.")
@click.pass_context
def mcp_(ctx: click.Context, http: str | None, allow_remote: bool, on_conflict: str,
         agent_writes: str | None) -> None:
    """Serve the ledger to MCP clients (Claude Code, Cursor, VS Code, ...); stdio by default.

    One ledger per server, opened from the global options like every other
    command; every call verifies against the working tree as it is then.

    \b
    Example:
      claude mcp add memvet -- memvet mcp
      memvet --repo ~/src/shop mcp --http 127.0.0.1:8765
    """
    try:
        import memvet_mcp
    except ImportError as exc:
        if (exc.name or "").split(".")[0] != "mcp":
            raise
        raise CliError("the MCP server needs the 'mcp' package: pip install 'memvet[mcp]'") from exc
    if http is not None:
        memvet_mcp.http_address(http, allow_remote=allow_remote)  # refused before the ledger opens
    ctx.find_root().obj["serves_agents"] = True
    server = memvet_mcp.create_server(_ledger(ctx, embeds=True), on_conflict=on_conflict,
                                      agent_writes=agent_writes)
    memvet_mcp.serve(server, http=http, allow_remote=allow_remote)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    _skip_iri_grammar()
    cli.main(args=argv, prog_name="memvet")


def _skip_iri_grammar() -> None:
    """Keep ``rfc3987_syntax`` from loading in the CLI's own process.

    Chroma imports jsonschema, which imports ``rfc3987_syntax`` when it is
    installed (the ``jupyter`` metapackage of the notebooks extra brings
    it) only to check the "iri" string formats, which neither Chroma nor
    MemVet uses; it builds a parser grammar at import: ``import chromadb``
    took 3.4 s with it and 1.2 s without, on every command and every MCP
    server start. jsonschema treats the module as absent when its import
    fails. The CLI is a process of its own; importing :mod:`memvet` as a
    library changes nothing, and a process that already loaded the module
    keeps it.
    """
    if "rfc3987_syntax" not in sys.modules:
        sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]  # an import of it now fails


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
