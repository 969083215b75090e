"""concurrency: the claim says things run concurrently; the code awaits them one at a time.

The claim's side: an adverb of running together (``concurrently``, ``in
parallel``, ``simultaneously``, ``at the same time``, ``all at once``) or
a ``task group``, not negated in the clause (``not``, ``never``, ``one
after another``, ``sequentially``, ``in turn``).

The code's side: a loop whose body awaits (``for task in self.tasks:
await task()``, ``for (const hook of hooks) { await hook(...) }``) in an
anchored code that starts nothing concurrent: no ``gather``,
``create_task``, ``TaskGroup``/``create_task_group``, ``start_soon``,
``Promise.all``/``allSettled``/``race``/``any``, executor, thread,
``asyncio.wait``, ``ensure_future`` or ``spawn``.

Never fires on the adjective alone ("concurrent connections", "safe for
concurrent use": a property of the caller's use, not of how the code
runs its own steps), nor when the code has any concurrency primitive.

Rationale: "runs them concurrently" is what an async API looks like it
does; a sequential ``await`` in a loop is where it does not, and every
name in such a claim is real.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memvet._rules._common import Clause, Code, Contradiction, Rule

__all__ = ["RULE"]

_SAID = re.compile(r"\b(?:concurrently|in parallel|simultaneously|at the same time|all at once|"
                   r"task[ -]?group)\b", re.I)
_NEGATED = re.compile(r"\b(?:not|never|no longer|instead of|rather than|one after (?:the )?(?:other|another)|"
                      r"sequentially|in turn|one at a time|serially)\b|n't\b", re.I)
_SEQUENTIAL = re.compile(r"\b(?:one after (?:the )?(?:other|another)|sequentially|in turn|one at a time|serially|"
                         r"in order)\b", re.I)
_PRIMITIVE = re.compile(r"\b(?:gather|create_task|TaskGroup|create_task_group|start_soon|start_task|"
                        r"ensure_future|run_coroutine_threadsafe|as_completed|Promise\s*\.\s*(?:all|allSettled|"
                        r"race|any)|ThreadPoolExecutor|ProcessPoolExecutor|Thread|spawn|nursery|"
                        r"run_in_executor|to_thread|submit|asyncio\s*\.\s*wait)\b")
_LOOP = re.compile(r"(?:\}\s*)?(?:async\s+)?(?:for|while)\b")
_AWAIT = re.compile(r"\bawait\b")


def _awaited_loop(code: Code) -> int | None:
    """The first loop whose body (or, in a one-line loop, whose line) awaits."""
    for index in range(len(code.logical)):
        text = code.logical_text(index)
        if index in code.headers or not _LOOP.match(text):
            continue
        body = [index, *code.block(index)]
        if any(_AWAIT.search(code.logical_text(j)) for j in body):
            return index
    return None


def _negated(text: str, said: re.Match[str]) -> bool:
    """A negation in the words leading to the marker ("does not run them concurrently"), never one
    further on ("..., so a slow task does not delay the next")."""
    lead = re.split(r"[,;(]", text[:said.start()])[-1]
    return bool(_NEGATED.search(lead + said.group(0)))


def check(clause: Clause, codes: Sequence[Code]) -> list[Contradiction]:
    said = _SAID.search(clause.text)
    if said is None or _negated(clause.text, said) or _SEQUENTIAL.search(clause.text):
        return []
    out: list[Contradiction] = []
    for code in codes:
        if any(_PRIMITIVE.search(code.logical_text(i)) for i in range(len(code.logical))):
            continue
        loop = _awaited_loop(code)
        if loop is not None:
            out.append(Contradiction(
                "concurrency", f"the claim says they run {said.group(0)}", code.logical_text(loop)[:120],
                code.label, (said.group(0),)))
    return out


RULE = Rule("concurrency", check, __doc__ or "")
