"""A LangChain agent with MemVet memory, end to end, offline (no API key).

A scripted fake chat model stands in for a real one; swap it for
``init_chat_model("...")`` and keep the rest. The script builds a scratch git
repository, lets the agent propose a decision and an approach and withdraw
the approach, has a person approve the proposal (agents write proposals
unless the project's committed configuration sets ``agent-writes =
"active"``, and only a person approves), rewrites the code the decision
rests on, and prints what the model is told next turn.
"""

import re
import subprocess
import tempfile
from pathlib import Path

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from pydantic import Field

import memvet
from memvet_langchain import MemVetMiddleware, MemVetStore, memvet_tools

# A scratch repository with one commit (removed when the script ends).
scratch = tempfile.TemporaryDirectory()
repo = Path(scratch.name) / "shop"
repo.mkdir()
(repo / "store.py").write_text(
    "class OrderStore:\n"
    "    def save(self, order):\n"
    "        self.handle.write(order.to_json() + '\\n')\n"
    "\n"
    "    def load(self):\n"
    "        return [Order.from_json(line) for line in self.handle]\n"
)
git = ["git", "-c", "user.name=Ada", "-c", "user.email=ada@example.com"]
subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
subprocess.run([*git, "commit", "-qm", "initial"], cwd=repo, check=True)


class ScriptedModel(GenericFakeChatModel):
    """Answers from a script and keeps every input it was sent."""

    seen: list = Field(default_factory=list)

    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, messages, *args, **kwargs):
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def script():
    # Turn 1: propose a decision and an approach, then withdraw the approach.
    yield AIMessage(content="", tool_calls=[
        {"name": "memvet_record", "id": "c1", "args": {
            "claim": "OrderStore.save appends one JSON line per order; keep it append-only",
            "anchors": ["store.py::OrderStore.save"]}},
        {"name": "memvet_record", "id": "c2", "args": {
            "claim": "Cache loaded orders in a module-level dict",
            "anchors": ["store.py::OrderStore.load"]}},
    ])
    results = " ".join(m.content for m in model.seen[-1] if isinstance(m, ToolMessage))
    approach = re.findall(r"Proposed decision (\w+)", results)[1]
    yield AIMessage(content="", tool_calls=[
        {"name": "memvet_reject", "id": "c3", "args": {
            "decision_id": approach, "reason": "the cache served stale orders after writes"}},
    ])
    yield AIMessage(content="Noted.")
    # Turn 2: just an answer; MemVet has put its memory in the system message.
    yield AIMessage(content="Orders are appended as JSON lines, but that code changed: check it.")


model = ScriptedModel(messages=script())

# HashingEmbedder keeps the example instant; the default embedding is a local MiniLM.
ledger = memvet.Ledger.open(repo, embedding=memvet.HashingEmbedder())
agent = create_agent(
    model,
    tools=memvet_tools(ledger),
    middleware=[MemVetMiddleware(ledger, k=5, max_tokens=800)],
    store=MemVetStore(ledger),
    system_prompt="You are a careful engineer on this codebase.",
)

agent.invoke({"messages": [{"role": "user", "content": "Remember how orders are saved."}]})

# A person reviews what the agent proposed (`memvet review`) and approves it:
# a person, never the agent that proposed it (`memvet approve ID` in a terminal).
for proposal in ledger.proposals():
    ledger.approve(proposal.id, reason="checked OrderStore.save", author=memvet.Author.person("Ada"))

# Someone rewrites the code the decision rests on.
(repo / "store.py").write_text((repo / "store.py").read_text().replace(
    "order.to_json() + '\\n'", "order.to_json(sort_keys=True) + '\\n'"))
subprocess.run([*git, "commit", "-qam", "sort keys"], cwd=repo, check=True)

answer = agent.invoke({"messages": [{"role": "user", "content": "How are orders saved?"}]})
print(model.seen[-1][0].content)  # the system message the model saw on the second turn
print("---")
print(answer["messages"][-1].content)

scratch.cleanup()  # the scratch repository and its ledger
