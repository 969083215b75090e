"""Text that came from a user, an agent or an import, made safe to show.

Claims, reasons, tags, authors and quotes are stored verbatim (they are
data), but they reach terminals, CI logs, Markdown files and agent prompts.
There they must not act: an ``ESC [2J`` clears a screen, an ``OSC 0;...BEL``
sets a window title, an ``OSC 8`` hides a link, a newline inside a reason
forges a line of ``check`` output (``verified  abc123  all good``), and a
``<script>`` in a claim runs wherever an exported Markdown file is rendered
as HTML.

* :func:`one_line` is for a field printed inside a line: control sequences
  are removed and line breaks become a visible ``⏎``.
* :func:`clean` keeps ``\\n`` and ``\\t`` (for text that is several lines
  on purpose) and removes everything else that a terminal interprets.
* :func:`markdown` is :func:`one_line` plus HTML escaping, for a table cell
  or a list item of Markdown that is rendered as HTML (``check --format
  markdown``, a PR comment). The agent context, which an agent reads as
  written, is plain Markdown instead (``memvet._exchange.plain_markdown``).
"""

from __future__ import annotations

import re

__all__ = ["NEWLINE_MARK", "clean", "code_span", "json_safe", "markdown", "one_line"]

#: What a line break inside a one-line field is shown as.
NEWLINE_MARK = "⏎"

# ESC-introduced sequences (7-bit): CSI ``ESC [ ... final``, OSC/DCS/SOS/PM/APC
# strings up to BEL or ST, and the two-byte ``ESC X`` escapes. Their 8-bit C1
# forms (U+009B CSI, U+009D OSC, ...) are matched too: some terminals act on them.
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"                 # CSI, with or without its final byte
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])"          # OSC, DCS, SOS, PM, APC ...
    r"[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"              # ... up to BEL or ST (or the end)
    r"|\x1b[ -/]*[0-~]?",                                 # any other escape
)
# What is left that a terminal or a log viewer acts on: C0 (but \t and the
# line breaks handled by the callers), DEL, C1, and the Unicode line and
# paragraph separators and bidirectional overrides (which reorder what a
# reader sees).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_BREAKS = re.compile(r"\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def clean(text: str) -> str:
    """``text`` without terminal control sequences; ``\\n`` and ``\\t`` kept.

    ``\\r\\n`` and a lone ``\\r`` become ``\\n`` (a bare carriage return
    would let the rest of a line overwrite its start).
    """
    if not text:
        return text
    text = _SEQUENCE.sub("", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", text)


def one_line(text: str) -> str:
    """``text`` as one line: control sequences removed, each line break shown as ``⏎``."""
    # Everything the expressions below act on starts with or is a character
    # Python calls unprintable (Cc, Cf, Zl, Zp): a printable text, the usual
    # case, comes back as it is without three passes (a recall frames 15).
    if not text or text.isprintable():
        return text
    return _one_line(text)


def _one_line(text: str) -> str:
    text = _SEQUENCE.sub("", text)
    text = _BREAKS.sub(NEWLINE_MARK, text)
    return _CONTROL.sub("", text)


def markdown(text: str) -> str:
    """``text`` for one Markdown line or table cell of HTML-rendered output
    (a PR comment): one line, HTML escaped,
    ``|`` escaped so it cannot end a cell."""
    text = one_line(text)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("|", "\\|")


def code_span(text: str) -> str:
    """``text`` as one Markdown code span: one line, fenced with more
    backticks than it holds in a row (CommonMark), so neither a backtick
    nor HTML inside it can leave the span."""
    text = one_line(text)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or longest else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_safe(dumped: str) -> str:
    """A JSON document (from ``json.dumps(..., ensure_ascii=False)``) with the
    characters JSON leaves raw but terminals act on (DEL, C1, line
    separators, bidirectional overrides) written as ``\\uXXXX`` escapes.

    The data is unchanged: a JSON parser reads the same strings back.
    """
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)
