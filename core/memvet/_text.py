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
  written, is plain Markdown instead (:func:`plain_markdown`).
"""

from __future__ import annotations

import re

__all__ = ["NEWLINE_MARK", "clean", "code_span", "json_safe", "markdown", "one_line", "plain_markdown"]

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


#: What makes a ``<`` the start of HTML in CommonMark (a tag, a closing tag,
#: a comment, a declaration, a processing instruction) or of an autolink.
_HTML_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/!?")


def plain_markdown(text: str) -> str:
    """``text`` as one line of Markdown that reads as written.

    The agent context is read raw by agents (``AGENTS.md``, ``CLAUDE.md``,
    an MCP prompt), so it is not HTML-escaped: ``&``, ``>`` and ``|`` stay
    as they are, and so does everything inside a code span. A file in a
    repository is also rendered as HTML by its host, where a ``<script>`` or
    an ``<img onerror=...>`` in a claim must not act: each ``<`` outside a
    code span that would start a tag, a comment or an autolink gets a
    backslash (``\\<script>``), which CommonMark renders as the ``<``
    itself. Line breaks and control sequences are handled by
    :func:`one_line`.
    """
    text = one_line(text)
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == "`" and not _escaped(text, i):
            run = _backticks(text, i)
            end = _closing_backticks(text, i + run, run)
            if end < 0:  # no closing run: the backticks are literal text
                out.append(text[i:i + run])
                i += run
            else:  # a code span: inert, kept as it is
                out.append(text[i:end + run])
                i = end + run
            continue
        if char == "<" and i + 1 < n and text[i + 1] in _HTML_START and not _escaped(text, i):
            out.append("\\")
        out.append(char)
        i += 1
    return "".join(out)


def _escaped(text: str, i: int) -> bool:
    """True when ``text[i]`` follows an odd number of backslashes."""
    count = 0
    while i - count - 1 >= 0 and text[i - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _backticks(text: str, i: int) -> int:
    """How many backticks in a row start at ``text[i]``."""
    end = i
    while end < len(text) and text[end] == "`":
        end += 1
    return end - i


def _closing_backticks(text: str, start: int, run: int) -> int:
    """Where the first backtick run of exactly ``run`` backticks at or after
    ``start`` begins (CommonMark's code span closer), or -1."""
    i = start
    while True:
        i = text.find("`", i)
        if i < 0:
            return -1
        length = _backticks(text, i)
        if length == run:
            return i
        i += length


_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_safe(dumped: str) -> str:
    """A JSON document (from ``json.dumps(..., ensure_ascii=False)``) with the
    characters JSON leaves raw but terminals act on (DEL, C1, line
    separators, bidirectional overrides) written as ``\\uXXXX`` escapes.

    The data is unchanged: a JSON parser reads the same strings back.
    """
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)
