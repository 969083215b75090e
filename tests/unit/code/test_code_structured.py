"""Markdown sections and JSON / YAML / TOML key paths."""

from __future__ import annotations

import pytest

from memvet._code import imports, symbol_table

MD = """\
# Decision

We use Chroma.

## Consequences

Namespaces are collections.

### Details ###

More text.

## Alternatives (v1.2)

Tried a where clause.

# Other

## Consequences

Elsewhere.
"""


def test_markdown_sections():
    t = symbol_table(MD.encode(), "markdown")
    assert list(t.symbols) == [
        "Decision",
        "Decision.Consequences",
        "Decision.Consequences.Details",
        'Decision."Alternatives (v1.2)"',
        "Other",
        "Other.Consequences",
    ]
    cons = t.symbols["Decision.Consequences"]
    assert (cons.start_line, cons.end_line) == (5, 12)  # up to the next ## heading
    assert t.symbols["Decision"].end_line == 16
    assert {s.kind for s in t.symbols.values()} == {"section"}
    assert len(t.lookup("Other.Consequences")) == 1


def test_markdown_hash_normalizes_whitespace_only():
    t = symbol_table(MD.encode(), "markdown")
    key = "Decision.Consequences"
    rewrapped = MD.replace("Namespaces are collections.", "Namespaces   are\ncollections.")
    assert symbol_table(rewrapped.encode(), "markdown").symbols[key].hash == t.symbols[key].hash
    reworded = MD.replace("Namespaces are collections.", "Namespaces are where clauses.")
    assert symbol_table(reworded.encode(), "markdown").symbols[key].hash != t.symbols[key].hash
    # an edit in a sibling section leaves it alone
    other = MD.replace("Tried a where clause.", "Tried something else.")
    assert symbol_table(other.encode(), "markdown").symbols[key].hash == t.symbols[key].hash


def test_markdown_repeated_heading_gets_ordinal():
    t = symbol_table(b"# A\n\n## Notes\n\nx\n\n## Notes\n\ny\n", "markdown")
    assert list(t.symbols) == ["A", "A.Notes", "A.Notes#2"]
    assert len(t.lookup("A.Notes")) == 1  # the exact qualname wins
    assert [s.qualname for s in t.symbols.values() if s.name == "A.Notes"] == ["A.Notes", "A.Notes#2"]


JSON = '{\n  "name": "memvet",\n  "server": {"port": 8080, "tls.enabled": true},\n  "list": [1, {"deep": "x"}]\n}\n'


def test_json_key_paths_and_hash():
    t = symbol_table(JSON.encode(), "json")
    assert list(t.symbols) == ["name", "server", "server.port", 'server."tls.enabled"', "list", "list[1].deep"]
    assert t.symbols["server.port"].kind == "key"
    assert t.symbols["server"].start_line == 3
    relaid = JSON.replace('{"port": 8080, "tls.enabled": true}', '{\n    "port":   8080,\n    "tls.enabled": true\n  }')
    assert symbol_table(relaid.encode(), "json").symbols["server"].hash == t.symbols["server"].hash
    changed = JSON.replace("8080", "8081")
    c = symbol_table(changed.encode(), "json").symbols
    assert c["server.port"].hash != t.symbols["server.port"].hash
    assert c["server"].hash != t.symbols["server"].hash
    assert c["name"].hash == t.symbols["name"].hash


YAML = """\
server:
  port: 8080  # the port
  "a.b": [x, {e: 2}]
  hosts:
    - name: one
    - name: two
---
other: 1
"""


def test_yaml_key_paths_and_hash():
    t = symbol_table(YAML.encode(), "yaml")
    assert list(t.symbols) == [
        "server",
        "server.port",
        'server."a.b"',
        'server."a.b"[1].e',
        "server.hosts",
        "server.hosts[0].name",
        "server.hosts[1].name",
        "other",
    ]
    no_comment = YAML.replace("  # the port", "")
    assert symbol_table(no_comment.encode(), "yaml").symbols["server"].hash == t.symbols["server"].hash
    # moving a key out of a nested block changes the parent's hash
    moved = YAML.replace("    - name: two\n", "    - name: two\n  extra: 1\n")
    nested = YAML.replace("    - name: two\n", "    - name: two\n      extra: 1\n")
    assert (
        symbol_table(moved.encode(), "yaml").symbols["server"].hash
        != symbol_table(nested.encode(), "yaml").symbols["server"].hash
    )


TOML = """\
title = "x"
"a.b".c = 1

[project]
name = "memvet"
dependencies = [
  "chromadb>=1.5",
]

[tool.memvet]
strict = true
inline = { k = 1 }

[[bin]]
name = "a"

[[bin]]
name = "b"
"""


def test_toml_tables_and_keys():
    t = symbol_table(TOML.encode(), "toml")
    assert list(t.symbols) == [
        "title",
        '"a.b".c',
        "project",
        "project.name",
        "project.dependencies",
        "tool.memvet",
        "tool.memvet.strict",
        "tool.memvet.inline",
        "tool.memvet.inline.k",
        "bin[0]",
        "bin[0].name",
        "bin[1]",
        "bin[1].name",
    ]
    assert t.symbols["project"].kind == "table"
    deps = t.symbols["project.dependencies"]
    assert (deps.start_line, deps.end_line) == (6, 8)
    one_line = TOML.replace('[\n  "chromadb>=1.5",\n]', '["chromadb>=1.5",]')
    assert symbol_table(one_line.encode(), "toml").symbols["project.dependencies"].hash == deps.hash
    bumped = TOML.replace("chromadb>=1.5", "chromadb>=1.6")
    assert symbol_table(bumped.encode(), "toml").symbols["project.dependencies"].hash != deps.hash


@pytest.mark.parametrize("lang", ["json", "yaml", "toml", "markdown"])
def test_structured_errors_and_no_imports(lang):
    broken = {"json": b'{"a": {"b": }', "yaml": b"a: [1, 2\nb: {", "toml": b"[t\na = = 1\n", "markdown": b""}
    symbol_table(broken[lang], lang)  # never raises
    assert imports(b"x", lang) == []


def test_json_error_flag():
    t = symbol_table(b'{"ok": 1, "bad": {"x": }}', "json")
    assert not t.symbols["ok"].has_error
    assert t.symbols["bad"].has_error
