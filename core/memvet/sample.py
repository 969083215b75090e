"""A small sample repository with a scripted history, for the demo and the
audit notebooks.

It builds a brand-new repository in a folder you give (never touching any
other repository) with pygit2, so it needs no ``git`` executable. Decisions
are recorded by :func:`record_sample_decisions` at an early commit; the
history then moves on with unrelated edits in the same files, one real
rewrite, one move, one deletion, one supersede and one rejection; one
decision is an agent's proposal, approved at the last commit.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pygit2

__all__ = ["SampleHistory", "build_sample_history", "record_sample_decisions"]

_ORDERS = '''\
"""Orders and their storage."""
import json


class OrderStore:
    """Appends orders to a JSON-lines file."""

    def __init__(self, path):
        self.path = path

    def save(self, order):
        """Append one order as a JSON line."""
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(order) + "\\n")

    def load(self):
        with open(self.path, encoding="utf-8") as handle:
            return [json.loads(line) for line in handle]


def total(order):
    return sum(float(item["price"]) * item["qty"] for item in order["items"])
'''

_PRICING = '''\
"""Prices and discounts."""


def apply_discount(price, percent):
    """Discounts are applied before rounding."""
    return price * (100 - percent) / 100


def round_price(value):
    return int(value * 100 + 0.5) / 100
'''

_CACHE = '''\
"""Memoised lookups."""
import functools


@functools.lru_cache(maxsize=1024)
def cached_lookup(sku):
    return {"sku": sku}
'''

_ADR = """\
# Storage

## Decision

Orders are stored as JSON lines, one order per line.

## Consequences

Appends are cheap; queries scan the file.
"""

_PYPROJECT = """\
[project]
name = "shop"
version = "0.1.0"
dependencies = ["requests>=2.31"]
"""


@dataclass
class SampleHistory:
    """What :func:`build_sample_history` made."""

    path: Path
    early: str = ""  # the commit decisions are recorded at
    head: str = ""
    commits: list[str] = field(default_factory=list)
    events: list[tuple[str, str]] = field(default_factory=list)  # (commit, what happened)


class _Builder:
    def __init__(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.repo = pygit2.init_repository(str(path), initial_head="main")
        self.sig_time = 1767225600  # 2026-01-01, so the history is reproducible
        self.history = SampleHistory(path)

    def write(self, rel: str, text: str) -> None:
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        self.repo.index.add(rel)

    def edit(self, rel: str, change: Callable[[str], str]) -> None:
        self.write(rel, change((self.path / rel).read_text(encoding="utf-8")))

    def remove(self, rel: str) -> None:
        (self.path / rel).unlink()
        self.repo.index.remove(rel)

    def move(self, old: str, new: str) -> None:
        text = (self.path / old).read_text(encoding="utf-8")
        self.remove(old)
        self.write(new, text)

    def commit(self, message: str) -> str:
        self.repo.index.write()
        tree = self.repo.index.write_tree()
        self.sig_time += 3600
        sig = pygit2.Signature("Sample Author", "sample@example.com", self.sig_time, 0)
        parents = [] if self.repo.head_is_unborn else [self.repo.head.target]
        oid = self.repo.create_commit("HEAD", sig, sig, message, tree, parents)
        sha = str(oid)
        self.history.commits.append(sha)
        self.history.events.append((sha, message))
        return sha


def _to_sqlite(text: str) -> str:
    """``shop/orders.py`` with orders saved to and loaded from SQLite."""
    for old, new in (
        ("import json\n", "import json\nimport sqlite3\n"),
        ('"""Appends orders to a JSON-lines file."""', '"""Keeps orders in a SQLite database."""'),
        ('''        """Append one order as a JSON line."""
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(order) + "\\n")''',
         '''        """Insert one order as a row of the orders table."""
        with sqlite3.connect(self.path) as db:
            db.execute("insert into orders(body) values (?)", (json.dumps(order),))'''),
        ('''        with open(self.path, encoding="utf-8") as handle:
            return [json.loads(line) for line in handle]''',
         '''        with sqlite3.connect(self.path) as db:
            return [json.loads(body) for (body,) in db.execute("select body from orders")]'''),
    ):
        if old not in text:
            raise AssertionError(f"the sample's orders.py lost {old!r}")
        text = text.replace(old, new)
    return text


def build_sample_history(path: str | Path) -> SampleHistory:
    """Build the sample repository in ``path`` (an empty or missing folder).

    Decisions are meant to be recorded at ``history.early``; the commits
    after it are the drift a later read has to notice.
    """
    b = _Builder(Path(path))
    b.write("shop/__init__.py", "")
    b.write("shop/orders.py", _ORDERS)
    b.write("shop/pricing.py", _PRICING)
    b.write("shop/cache.py", _CACHE)
    b.write("docs/adr/0001-storage.md", _ADR)
    b.write("pyproject.toml", _PYPROJECT)
    b.commit("Start the shop: orders, pricing, cache")
    b.write("README.md", "# Shop\n\nA sample shop.\n")
    b.history.early = b.commit("Add a README")
    # Unrelated edits in the same files: never flagged.
    b.edit("shop/pricing.py", lambda t: t + '\n\ndef describe(price):\n    return f"{price:.2f} EUR"\n')
    b.commit("pricing: add describe()")
    b.edit("shop/orders.py", lambda t: t.replace('"""Orders and their storage."""',
                                                 '"""Orders and their storage (see docs/adr)."""'))
    b.commit("orders: better module docstring")
    b.edit("shop/pricing.py", lambda t: t.replace(
        "def apply_discount(price, percent):\n",
        "def apply_discount(price, percent):\n    # percent is 0..100\n"))
    b.commit("pricing: comment apply_discount")
    b.edit("README.md", lambda t: t + "\nRun the tests with pytest.\n")
    b.commit("README: how to test")
    # One real rewrite: orders move from JSON lines to SQLite, saved and
    # read back (the JSON-lines decisions go stale, the ADR says so too).
    b.edit("shop/orders.py", _to_sqlite)
    b.edit("docs/adr/0001-storage.md", lambda t: t.replace(
        "Orders are stored as JSON lines, one order per line.",
        "Orders are stored in SQLite, one row of the orders table per order.").replace(
        "Appends are cheap; queries scan the file.", "Queries use SQL; writes are transactions."))
    b.commit("orders: store orders in SQLite")
    # One move: round_price goes to its own module.
    b.edit("shop/pricing.py", lambda t: t.replace(
        "\n\ndef round_price(value):\n    return int(value * 100 + 0.5) / 100\n", "\n"))
    b.write("shop/money.py", '"""Money helpers."""\n\n\ndef round_price(value):\n'
                             "    return int(value * 100 + 0.5) / 100\n")
    b.commit("Move round_price to shop/money.py")
    # One deletion: the memoised lookup goes away.
    b.remove("shop/cache.py")
    b.commit("Drop the lookup cache")
    # Totals move to Decimal (the decision about floats gets superseded).
    b.edit("shop/orders.py", lambda t: t.replace(
        'def total(order):\n    return sum(float(item["price"]) * item["qty"] for item in order["items"])',
        'def total(order):\n    from decimal import Decimal\n'
        '    return sum(Decimal(item["price"]) * item["qty"] for item in order["items"])'))
    b.commit("orders: totals in Decimal")
    for n in range(1, 5):
        def add_note(text: str, n: int = n) -> str:
            return text + f"\nRelease note {n}.\n"

        b.edit("README.md", add_note)
        b.commit(f"README: release note {n}")
    b.history.head = b.history.commits[-1]
    return b.history


def record_sample_decisions(ledger: object, history: SampleHistory) -> dict[str, str]:
    """Record the sample decisions at the early commit; returns name → id.

    ``ledger`` is a :class:`memvet.Ledger` opened on ``history.path``.
    """
    from memvet._anchors import absent
    from memvet._ledger import Ledger
    from memvet._model import Author

    assert isinstance(ledger, Ledger)
    at = history.early
    ids = {}
    ids["storage"] = ledger.record(
        "Orders are appended to a JSON-lines file by OrderStore.save",
        ["shop/orders.py::OrderStore.save", "docs/adr/0001-storage.md::Storage.Decision"],
        tags=["storage"], at=at).id
    ids["discount"] = ledger.record(
        "Discounts are applied before rounding prices", ["shop/pricing.py::apply_discount"],
        tags=["pricing"], at=at).id
    ids["rounding"] = ledger.record(
        "Prices are rounded half-up to cents by round_price", ["shop/pricing.py::round_price"],
        tags=["pricing"], at=at).id
    ids["cache"] = ledger.record(
        "SKU lookups are memoised with an LRU cache", ["shop/cache.py::cached_lookup"],
        tags=["performance"], at=at).id
    ids["http"] = ledger.record(
        "HTTP calls go through the requests library", ["dep:requests"],
        tags=["dependencies"], at=at).id
    ids["no-pickle"] = ledger.record(
        "Nothing in the shop package unpickles data", [absent(import_="pickle", scope="shop/**")],
        tags=["security"], at=at).id
    ids["floats"] = ledger.record(
        "Order totals are computed with floats", ["shop/orders.py::total"], tags=["pricing"], at=at).id
    ids["lock"] = ledger.record(
        "Wrap every order save in a global process lock", [], tags=["storage"], at=at).id
    ids["small-prs"] = ledger.record(
        "The team prefers small pull requests", [], tags=["process"], at=at).id
    ids["load"] = ledger.record(
        "Orders are read back by OrderStore.load, one JSON object per line", ["shop/orders.py::OrderStore.load"],
        tags=["storage"], at=at).id
    time.sleep(0.001)
    ledger.reject(ids["lock"], reason="the global lock deadlocked under concurrent checkouts")
    # After the move to SQLite: an agent's proposal, reviewed and approved by a person (at HEAD).
    ids["sqlite"] = ledger.record(
        "Orders are stored in SQLite: OrderStore.save inserts each order into the orders table "
        "and OrderStore.load selects them back",
        ["shop/orders.py::OrderStore.save", "shop/orders.py::OrderStore.load",
         "docs/adr/0001-storage.md::Storage.Decision"],
        tags=["storage"], at=history.head or None, author=Author.agent("sample-agent")).id
    ledger.approve(ids["sqlite"], reason="checked OrderStore.save and OrderStore.load")
    ids["decimal"] = ledger.supersede(
        ids["floats"], "Order totals are computed with Decimal, never floats",
        ["shop/orders.py::total"], reason="floats lost cents on large orders",
        at=history.head or None).id
    return ids
