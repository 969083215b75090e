"""A person approves or declines an agent's memory through LangGraph's interrupt(), offline.

No API key, no network: a scripted fake chat model stands in for a real one (swap it
for ``init_chat_model("...")`` and keep the rest). The agent proposes a decision and
asks to reject one that a person recorded; an agent makes nothing current and retires
nothing. The graph then pauses once per question with ``interrupt()``; the application
shows the question to a person and resumes with their answer, ``Command(resume=...)``.
Only then does the ledger change, and each receipt says who answered: a person, via
LangGraph interrupt.
"""

import operator
import subprocess
import tempfile
from pathlib import Path
from typing import Annotated

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.types import Command

import memvet
from memvet_langchain import memvet_tools, review_proposal

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

# HashingEmbedder keeps the example instant; the default embedding is a local MiniLM.
ledger = memvet.Ledger.open(repo, embedding=memvet.HashingEmbedder())
# A decision a person recorded earlier.
loading = ledger.record("OrderStore.load reads the orders line by line", ["store.py::OrderStore.load"],
                        author=memvet.Author.person("Grace")).id


class ScriptedModel(GenericFakeChatModel):
    """Answers from a script, whatever tools it is given."""

    def bind_tools(self, tools, **kwargs):
        return self


model = ScriptedModel(messages=iter([
    AIMessage(content="", tool_calls=[
        {"name": "memvet_record", "id": "c1", "args": {
            "claim": "OrderStore.save appends one JSON line per order",
            "anchors": ["store.py::OrderStore.save"]}},
        {"name": "memvet_reject", "id": "c2", "args": {
            "decision_id": loading, "reason": "loading should stream, not read every line"}},
    ]),
    AIMessage(content="I proposed the save rule and asked to drop the load rule; a person decides."),
]))
agent = create_agent(model, tools=memvet_tools(ledger, agent_name="shop-agent"))


class State(MessagesState):
    pending: list[str]  # decisions waiting for a person, in order
    answered: Annotated[list[str], operator.add]


def collect(state: State) -> dict:
    """The open proposals and requests, kept in the state: every run of
    `review` then sees the same ids (LangGraph re-runs a node on resume)."""
    return {"pending": [p.id for p in ledger.proposals()] + [v.id for v in ledger.requests()]}


def review(state: State) -> dict:
    """One question per run of the node: pause for a person, apply the answer."""
    decision_id, *rest = state["pending"]
    outcome = review_proposal(ledger, decision_id)
    verb = "approved" if outcome.approve else "declined"
    return {"pending": rest, "answered": [f"{outcome.reviewer} {verb} {decision_id}: {outcome.reason}"]}


def next_question(state: State) -> str:
    return "review" if state["pending"] else END


builder = StateGraph(State)
builder.add_node("agent", agent)
builder.add_node("collect", collect)
builder.add_node("review", review)
builder.add_edge(START, "agent")
builder.add_edge("agent", "collect")
builder.add_conditional_edges("collect", next_question, ["review", END])
builder.add_conditional_edges("review", next_question, ["review", END])
graph = builder.compile(checkpointer=InMemorySaver())  # interrupt() needs a checkpointer

config = {"configurable": {"thread_id": "review-1"}}
state = graph.invoke({"messages": [{"role": "user", "content": "Remember how orders are saved."}]}, config)

# What the person decides. In an application these come from a form that
# shows the question; here they are written down.
decisions = {
    "proposal": {"approve": True, "reviewer": "Ada", "reason": "read OrderStore.save: it appends"},
    "retire_request": {"approve": False, "reviewer": "Ada", "reason": "load still reads line by line"},
}
while state.get("__interrupt__"):
    question = state["__interrupt__"][0].value
    print(f"{question['kind']} {question['id']}: {question['question']}")
    print(f"  claim: {question['claim']}")
    for anchor in question["anchors"]:
        print(f"  anchor {anchor['spec']}: {anchor['result']}")
    if question["kind"] == "retire_request":
        print(f"  request: {question['request']['reason']}")
    state = graph.invoke(Command(resume={"id": question["id"], **decisions[question["kind"]]}), config)

print("---")
print("\n".join(state["answered"]))
for decision in ledger.decisions():
    last = ledger.history(decision.id)[-1]
    print(f"{decision.id} {ledger.verify(decision.id).status.value}: {last.action} by {last.who}")

scratch.cleanup()  # the scratch repository and its ledger
