"""``memvet demo``: the main job, narrated, on the sample history.

Builds the sample repository (a real scripted git history), records the
sample decisions at an early commit with the real local embedding on an
embedded Chroma ledger, then reads them at HEAD: each verdict with its
reason, and recalls that show the framing an agent receives.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import click

from memvet import Ledger, Status
from memvet.sample import build_sample_history, record_sample_decisions

__all__ = ["run_demo"]

_COLOURS = {
    Status.VERIFIED: "green", Status.PROPOSED: "yellow", Status.UNANCHORED: "yellow",
    Status.NEEDS_REVALIDATION: "yellow", Status.STALE: "yellow", Status.REFUTED: "red",
    Status.SUPERSEDED: "blue", Status.REJECTED: "blue",
}

QUERIES = (
    "how are orders stored?",
    "how do we compute order totals?",
    "should saves take a global lock?",
)


def run_demo(keep: str | None = None) -> None:
    """Run the demo; ``keep`` is a folder to build in and keep afterwards."""
    started = time.perf_counter()
    workdir = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="memvet-demo-"))
    target = workdir / "shop" if keep else workdir
    if keep and target.exists():
        raise click.ClickException(f"{target} already exists; pass an empty folder to --keep")
    try:
        history = build_sample_history(target)
        click.secho(f"Built a sample repository with {len(history.commits)} commits in {target}", bold=True)
        ledger = Ledger.open(target)  # embedded Chroma under .memvet/, local MiniLM embedding
        ids = record_sample_decisions(ledger, history)
        at_early = sum(1 for d in ledger.decisions() if d.commit == history.early)
        click.echo(f"Recorded {at_early} decisions at commit {history.early[:8]}; later a person rejected one, "
                   f"superseded one and approved an agent's proposal ({len(ids)} decisions in all)\n")
        click.secho("What happened since:", bold=True)
        early = history.commits.index(history.early)
        for sha, message in history.events[early + 1:]:
            click.echo(f"  {sha[:8]} {message}")
        click.echo()
        click.secho(f"memvet check --at HEAD ({history.head[:8]}):", bold=True)
        for verdict in ledger.check(at="HEAD"):
            colour = _COLOURS[verdict.status]
            click.echo(click.style(f"  {verdict.status.value:<19}", fg=colour) + f"{verdict.decision.claim}")
            if verdict.status is not Status.VERIFIED:
                click.echo(f"  {'':<19}└ {verdict.reason}")
        for query in QUERIES:
            click.echo()
            click.secho(f'memvet recall "{query}" -k 3:', bold=True)
            result = ledger.recall(query, k=3, at="HEAD")
            for group, title in (("current", "current"), ("caution", "verify before relying"),
                                 ("history", "history")):
                for item in getattr(result, group):
                    click.echo(f"  {title:<22} {item.text}")
        click.echo()
        click.echo(f"Done in {time.perf_counter() - started:.1f} s. "
                   + (f"The repository and its ledger are kept in {target}." if keep else ""))
    finally:
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)
