"""The ``memvet`` command line: parses, calls the library, formats. Nothing more.

Exit codes: 0 clean, 1 a decision falls under ``--fail-on`` (stale or
refuted by default), 2 a usage or environment error (one line on stderr,
no traceback, the ledger unchanged).

Environment (read here and nowhere else): ``MEMVET_LEDGER`` (ledger folder),
``MEMVET_NAMESPACE``, ``MEMVET_EMBEDDING`` (``minilm``, the default, or
``hashing`` for a fast deterministic embedding in tests).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from typing import Any

import click

import memvet
from memvet import Ledger, MemvetError, Status

__all__ = ["cli", "main"]

STATUSES = [s.value for s in Status]


class CliError(click.ClickException):
    """One clear line on stderr and exit code 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"memvet: error: {self.format_message()}", err=True, file=file)


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MemvetError as exc:
            raise CliError(str(exc)) from exc
        except click.UsageError as exc:
            where = f"{exc.ctx.command_path} --help" if exc.ctx is not None else "memvet --help"
            raise CliError(f"{exc.format_message()} (see {where})") from exc


def _embedding() -> Any:
    choice = os.environ.get("MEMVET_EMBEDDING", "minilm").strip().lower()
    if choice == "hashing":
        return memvet.HashingEmbedder()
    if choice in ("", "minilm"):
        return None
    raise CliError(f"MEMVET_EMBEDDING must be 'minilm' or 'hashing', not {choice!r}")


def _ledger(ctx: click.Context) -> Ledger:
    opts = ctx.find_root().obj
    if "ledger" not in opts:
        opts["ledger"] = Ledger.open(
            opts["repo"], path=opts["ledger_dir"], namespace=opts["namespace"], embedding=_embedding(),
        )
    return opts["ledger"]


def _emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _short(text: str, width: int = 64) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _anchor_specs(symbols: Iterable[str], files: Iterable[str], deps: Iterable[str],
                  absents: Iterable[str], scope: str) -> list[memvet.AnchorSpec]:
    specs: list[memvet.AnchorSpec] = []
    for spec in symbols:
        if "::" not in spec:
            raise click.BadParameter(f"{spec!r}: expected PATH::QUALIFIED.NAME", param_hint="--symbol")
        path, _, name = spec.partition("::")
        specs.append(memvet.symbol(path, name))
    specs.extend(memvet.file(p) for p in files)
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
                     help="A declared dependency, e.g. 'requests>=2.31' (repeatable)."),
        click.option("--absent", "absents", multiple=True, metavar="import:NAME|pattern:REGEX",
                     help="Something that must stay absent (repeatable)."),
        click.option("--scope", default="", metavar="GLOB", help="Where --absent looks (default: everywhere)."),
        click.option("--tag", "tags", multiple=True, help="A label (repeatable)."),
        click.option("--at", default=None, metavar="REV", help="Resolve anchors at a revision (default: working tree)."),
        click.option("--json", "as_json", is_flag=True, help="Print JSON."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--repo", default=".", show_default=True, type=click.Path(file_okay=False),
              help="A folder inside the git repository.")
@click.option("--ledger", "ledger_dir", default=None, envvar="MEMVET_LEDGER", metavar="DIR",
              help="Ledger folder (default: <repo>/.memvet). Env: MEMVET_LEDGER.")
@click.option("--namespace", default=None, envvar="MEMVET_NAMESPACE",
              help="Namespace (default: the repository's identity). Env: MEMVET_NAMESPACE.")
@click.version_option(memvet.__version__, prog_name="memvet")
@click.pass_context
def cli(ctx: click.Context, repo: str, ledger_dir: str | None, namespace: str | None) -> None:
    """MemVet: decisions with evidence, re-checked against the code at every read.

    \b
    Example:
      memvet record "Orders are saved in one transaction" --symbol shop/orders.py::OrderStore.save
      memvet check
    """
    ctx.obj = {"repo": repo, "ledger_dir": ledger_dir, "namespace": namespace}


def _print_record(result: memvet.RecordResult, as_json: bool) -> None:
    if as_json:
        _emit_json(result.to_dict())
        return
    click.echo(result.id)
    if result.outcome == "confirmed":
        click.echo(f"confirmed an existing decision ({result.decision.confirmations} confirmations)", err=True)
    for c in result.conflicts:
        click.echo(f"conflict: {c.decision.id} [{c.status.value}] {_short(c.decision.claim)} — {c.why}", err=True)
    if result.conflicts:
        click.echo("supersede conflicting decisions explicitly: memvet supersede ID CLAIM --reason R", err=True)
    for w in result.warnings:
        click.echo(f"warning: {w}", err=True)


@cli.command()
@click.argument("claim")
@anchor_options
@click.option("--supersedes", default=None, metavar="ID", help="The decision this one replaces.")
@click.option("--reason", default=None, help="Why (required with --supersedes).")
@click.option("--on-conflict", type=click.Choice(["warn", "error"]), default="warn", show_default=True,
              help="Record and report conflicts, or refuse.")
@click.pass_context
def record(ctx: click.Context, claim: str, symbols: tuple[str, ...], files: tuple[str, ...],
           deps: tuple[str, ...], absents: tuple[str, ...], scope: str, tags: tuple[str, ...],
           at: str | None, as_json: bool, supersedes: str | None, reason: str | None,
           on_conflict: str) -> None:
    """Record a decision with the evidence it rests on; prints its id.

    \b
    Example:
      memvet record "Prices are rounded half-up" --symbol shop/money.py::round_price --tag pricing
    """
    if reason and not supersedes:
        raise click.UsageError("--reason goes with --supersedes")
    specs = _anchor_specs(symbols, files, deps, absents, scope)
    result = _ledger(ctx).record(claim, specs, supersedes=supersedes, reason=reason, tags=tags, at=at,
                                 on_conflict=on_conflict, base=os.getcwd())
    _print_record(result, as_json)


@cli.command()
@click.argument("decision_id", metavar="ID")
@click.argument("claim")
@anchor_options
@click.option("--reason", required=True, help="Why the old decision no longer holds.")
@click.pass_context
def supersede(ctx: click.Context, decision_id: str, claim: str, symbols: tuple[str, ...],
              files: tuple[str, ...], deps: tuple[str, ...], absents: tuple[str, ...], scope: str,
              tags: tuple[str, ...], at: str | None, as_json: bool, reason: str) -> None:
    """Replace a decision with a new one; the old one is kept as history.

    \b
    Example:
      memvet supersede 3f2a9c "Totals use Decimal" --symbol shop/orders.py::total --reason "floats lost cents"
    """
    specs = _anchor_specs(symbols, files, deps, absents, scope)
    result = _ledger(ctx).supersede(decision_id, claim, specs, reason=reason, tags=tags, at=at,
                                    base=os.getcwd())
    _print_record(result, as_json)


@cli.command()
@click.argument("decision_id", metavar="ID")
@click.option("--reason", required=True, help="Why it was rejected (shown to agents as history).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def reject(ctx: click.Context, decision_id: str, reason: str, as_json: bool) -> None:
    """Retract a decision: tried, did not work. Agents see it as "previously tried, rejected".

    \b
    Example:
      memvet reject 3f2a9c --reason "the global lock deadlocked"
    """
    decision = _ledger(ctx).reject(decision_id, reason=reason)
    if as_json:
        _emit_json({"id": decision.id, "status": "rejected", "reason": decision.reason})
    else:
        click.echo(f"{decision.id} rejected: {decision.reason}")


@cli.command()
@click.argument("decision_id", metavar="ID")
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
    verdict = _ledger(ctx).revalidate(decision_id, reason=reason, at=at)
    if as_json:
        _emit_json(verdict.to_dict())
    else:
        click.echo(f"{verdict.id} revalidated: {verdict.status.value} ({verdict.reason})")


def _parse_fail_on(value: str) -> set[str]:
    wanted = {v.strip() for v in value.split(",") if v.strip()}
    unknown = wanted - set(STATUSES)
    if unknown:
        raise click.BadParameter(f"unknown status {', '.join(sorted(unknown))}; choose from {', '.join(STATUSES)}",
                                 param_hint="--fail-on")
    return wanted


@cli.command()
@click.option("--at", default=None, metavar="REV", help="Check at a revision (default: working tree).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--fail-on", default="stale,refuted", show_default=True, metavar="STATUSES",
              help="Exit 1 when any decision has one of these statuses.")
@click.pass_context
def check(ctx: click.Context, at: str | None, as_json: bool, fail_on: str) -> None:
    """Check every decision against the code; exit 1 when something is stale or refuted.

    \b
    Example:
      memvet check --at HEAD --fail-on stale,refuted,needs_revalidation
    """
    failing = _parse_fail_on(fail_on)
    ledger = _ledger(ctx)
    verdicts = ledger.check(at=at)
    target = verdicts[0].target if verdicts else ledger.snapshot(at).name
    if as_json:
        _emit_json({"at": target, "decisions": [v.to_dict() for v in verdicts]})
    else:
        if not verdicts:
            click.echo("no decisions recorded yet")
        for v in verdicts:
            click.echo(f"{v.status.value:<19} {v.id}  {_short(v.decision.claim)}")
            if v.status is not Status.VERIFIED:
                click.echo(f"{'':<19} └ {v.reason}")
        counts: dict[str, int] = {}
        for v in verdicts:
            counts[v.status.value] = counts.get(v.status.value, 0) + 1
        if counts:
            summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
            click.echo(f"\n{len(verdicts)} decisions at {target[:12]}: {summary}")
    if any(v.status.value in failing for v in verdicts):
        ctx.exit(1)


@cli.command()
@click.argument("query")
@click.option("-k", "k", default=5, show_default=True, type=click.IntRange(min=0), help="How many decisions.")
@click.option("--at", default=None, metavar="REV", help="Verify at a revision (default: working tree).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def recall(ctx: click.Context, query: str, k: int, at: str | None, as_json: bool) -> None:
    """Recall decisions relevant to a question, verified and grouped.

    \b
    Example:
      memvet recall "how are orders stored?" -k 8
    """
    result = _ledger(ctx).recall(query, k=k, at=at)
    if as_json:
        _emit_json(result.to_dict())
        return
    titles = {"current": "current", "caution": "verify before relying", "history": "history (do not repeat)"}
    empty = True
    for group in ("current", "caution", "history"):
        items = getattr(result, group)
        if not items:
            continue
        empty = False
        click.echo(f"{titles[group]}:")
        for item in items:
            click.echo(f"  [{item.id}] {item.text}")
    if empty:
        click.echo("no decisions recorded yet")


@cli.command()
@click.argument("decision_id", metavar="ID")
@click.option("--at", default=None, metavar="REV", help="Verify at a revision (default: working tree).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def show(ctx: click.Context, decision_id: str, at: str | None, as_json: bool) -> None:
    """Show one decision, its anchors as they stand now, and its receipts.

    \b
    Example:
      memvet show 3f2a9c
    """
    ledger = _ledger(ctx)
    verdict = ledger.verify(decision_id, at=at)
    receipts = ledger.history(verdict.id)
    d = verdict.decision
    if as_json:
        data = verdict.to_dict()
        data.update({
            "lifecycle": d.lifecycle.value, "tags": list(d.tags), "author": d.author,
            "created_at": d.created_at, "commit": d.commit, "supersedes": d.supersedes,
            "superseded_by": d.superseded_by, "confirmations": d.confirmations,
            "recorded_anchors": [a.to_dict() for a in d.anchors],
            "receipts": [r.to_dict() for r in receipts],
        })
        _emit_json(data)
        return
    click.echo(f"{d.id}  {verdict.status.value}")
    click.echo(f"  claim:    {d.claim}")
    click.echo(f"  reason:   {verdict.reason}")
    click.echo(f"  recorded: {_when(d.created_at)} at {d.commit[:12]} by {d.author or '?'}")
    if d.tags:
        click.echo(f"  tags:     {', '.join(d.tags)}")
    if d.supersedes:
        click.echo(f"  replaces: {d.supersedes}")
    for check_ in verdict.checks:
        click.echo(f"  anchor:   {check_.anchor.spec}  [{check_.result.value}] {check_.detail}")
    for r in receipts:
        click.echo(f"  {_when(r.at)}  {r.action:<10} {r.from_lifecycle or '-'} → {r.to_lifecycle}  {r.reason}")


def _when(epoch: float) -> str:
    import time

    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(epoch)) if epoch else "?"


@cli.command(name="log")
@click.argument("decision_id", metavar="[ID]", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def log_(ctx: click.Context, decision_id: str | None, as_json: bool) -> None:
    """The receipts of every lifecycle act, as a timeline (of one decision with ID).

    \b
    Example:
      memvet log 3f2a9c
    """
    ledger = _ledger(ctx)
    receipts = ledger.history(decision_id) if decision_id else ledger.log()
    if as_json:
        _emit_json({"receipts": [r.to_dict() for r in receipts]})
        return
    if not receipts:
        click.echo("no receipts yet")
    for r in receipts:
        related = f" ({r.related})" if r.related else ""
        click.echo(f"{_when(r.at)}  {r.decision_id}  {r.action:<10} {r.from_lifecycle or '-'} → "
                   f"{r.to_lifecycle}{related}  {r.reason}  [{r.author or '?'} @ {r.commit[:8]}]")


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


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    cli.main(args=argv, prog_name="memvet")


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
