"""The concurrency rule's fixture: steps said to run concurrently, where the code awaits them in a loop."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.concurrency import RULE

SEQUENTIAL = EvidenceText("background.py::Tasks.__call__", """\
async def __call__(self):
    for task in self.tasks:
        await task()
""")
GATHERED = EvidenceText("background.py::Tasks.__call__", """\
async def __call__(self):
    await asyncio.gather(*(task() for task in self.tasks))
""")
TASK_GROUP = EvidenceText("background.py::Tasks.__call__", """\
async def __call__(self):
    async with anyio.create_task_group() as tg:
        for task in self.tasks:
            tg.start_soon(task)
""")
JS_SEQUENTIAL = EvidenceText("lib/hooks.js::runHooks", """\
async function runHooks (hooks, request) {
  for (const hook of hooks) {
    await hook(request)
  }
}
""")
JS_ALL = EvidenceText("lib/hooks.js::runHooks", """\
async function runHooks (hooks, request) {
  await Promise.all(hooks.map(hook => hook(request)))
}
""")

FIRES = [
    ("Tasks runs all queued tasks concurrently (anyio task group), so a slow task does not delay the next.",
     SEQUENTIAL),
    ("The tasks run in parallel.", SEQUENTIAL),
    ("runHooks calls every hook simultaneously.", JS_SEQUENTIAL),
]

SILENT = [
    ("Tasks runs all queued tasks concurrently.", GATHERED),
    ("Tasks runs all queued tasks concurrently in a task group.", TASK_GROUP),
    ("runHooks calls every hook in parallel.", JS_ALL),
    # the claim says they run one at a time
    ("The tasks run one after another, not concurrently.", SEQUENTIAL),
    ("The tasks are not run in parallel.", SEQUENTIAL),
    # the adjective is about the caller's use, not how the code runs its steps
    ("Tasks is safe for concurrent use.", SEQUENTIAL),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_loop():
    [line] = fired("The tasks run in parallel.", SEQUENTIAL)
    assert line.endswith("says `for task in self.tasks:`")
