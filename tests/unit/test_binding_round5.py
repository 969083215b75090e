"""Binding classes met on round 5's tuning sets (a caching library in
Python, a promise queue in TypeScript), each both ways.

A quoted word is a value: it binds to a word of a string literal the code
writes, never to a name that happens to be spelled the same (``'clear'``
against a method ``clear()``).
"""

from __future__ import annotations

import textwrap

from memvet._claims import EvidenceText, bind


def ev(label: str, text: str, language: str = "typescript") -> EvidenceText:
    """An anchor's evidence: ``path::Qualified.name`` and its code."""
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), language)


def unbound(claim: str, *evidence: EvidenceText) -> list[str]:
    return [u.term.text for u in bind(claim, list(evidence))]


CLEAR = ev("src/cache.ts::Cache.clear", '''\
    clear() {
      return this.#clear('delete')
    }
''')

IDS = ev("src/queue.ts::Queue.add", '''\
    add(fn, options = {}) {
      const id = options.id ?? (this.#idAssigner++).toString();
      this.#queue.enqueue(fn, {...options, id});
      if (this.#pending === 0) this.emit('idle');
    }
''')


def test_a_quoted_word_binds_to_a_string_the_code_writes() -> None:
    assert unbound("clear() disposes every entry with reason 'delete'.", CLEAR) == []


def test_a_quoted_word_does_not_bind_to_a_name_spelled_the_same() -> None:
    assert unbound("clear() disposes every entry with reason 'clear'.", CLEAR) == ["clear"]


def test_a_quoted_number_is_a_string_the_code_must_write() -> None:
    assert unbound('The first task added without an `id` gets "0".', IDS) == ["0"]


def test_a_quoted_symbol_still_binds_to_the_code_that_tests_it() -> None:
    html = ev("lib/response.js::body", '''\
        set body(val) {
          const type = /^\\s*</.test(val) ? 'html' : 'text';
        }
    ''', "javascript")
    assert unbound("Strings starting with '<' are sent as 'html'.", html) == []
