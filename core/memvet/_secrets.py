"""Secrets kept out of every message, file and log line MemVet writes.

Two secrets reach MemVet: the bearer token for a team server (``--token``,
``MEMVET_TOKEN``, ``token=``) and, by mistake, a password written into a
server URL (``http://user:pass@host``). Neither may be echoed:

* a token is checked before it is put in a header. A token holding a line
  break, a space or a non-ASCII character made httpx fail with ``Illegal
  header value b'Bearer <the token>'``; :func:`check_token` refuses it first
  with a message that does not show it.
* a URL is shown with its password replaced (:func:`redact_url`).
* the command line recorded in ``.memvet/write.lock.holder`` (and shown to
  other writers) has the values of secret options replaced
  (:func:`redact_command`).
* the CLI replaces every known secret in its error line (:func:`redact`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from memvet._errors import UsageError

__all__ = ["MASK", "SECRET_OPTIONS", "check_token", "redact", "redact_command", "redact_url"]

#: What a secret is replaced with.
MASK = "***"

#: Options whose value is a secret, on a command line MemVet records.
SECRET_OPTIONS = ("--token", "--password", "--api-key", "--secret")

#: Environment-style assignments whose value is a secret (``MEMVET_TOKEN=...``
#: before a command in a recorded line).
_SECRET_ASSIGNMENT = re.compile(r"\b([A-Z0-9_]*(?:TOKEN|PASSWORD|SECRET|API_KEY)[A-Z0-9_]*=)\S+")

#: ``scheme://user:password@``: the password group is replaced.
_URL_PASSWORD = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^/@:\s]*:)([^/@\s]*)(@)")

#: What a bearer token may hold: visible ASCII (RFC 6750's ``b64token`` is
#: narrower; some token generators use other punctuation, which is harmless
#: in a header).
_TOKEN = re.compile(r"[\x21-\x7e]+")

#: Shorter secrets are not replaced inside other text: masking every ``a``
#: of a message would hide the message, not the token (which at that length
#: is no secret anyway).
MIN_REDACTED_LENGTH = 6


def check_token(token: str) -> str:
    """``token`` if it can travel in an ``Authorization: Bearer`` header.

    Raises:
        UsageError: The token is not a string, or holds a control
            character (a stray ``\\r``/``\\n`` from a file or a copy), a
            space or a non-ASCII character. The message says which kind,
            never the token.
    """
    if not isinstance(token, str):
        raise UsageError(f"invalid token: expected a string, got {type(token).__name__}")
    if _TOKEN.fullmatch(token):
        return token
    if token.startswith("Bearer ") and _TOKEN.fullmatch(token[len("Bearer "):]):
        raise UsageError("invalid token: pass the token alone, without 'Bearer ' in front (MemVet adds it); "
                         "the token is not shown")
    if any(c in "\r\n" for c in token):
        kind = "a line break"
    elif any(ord(c) < 0x20 or ord(c) == 0x7F for c in token):
        kind = "a control character"
    elif any(c.isspace() for c in token):
        kind = "a space"
    else:
        kind = "a non-ASCII character"
    raise UsageError(
        f"invalid token: it holds {kind}, which a bearer token cannot carry (the token, {len(token)} "
        "characters, is not shown); check --token / MEMVET_TOKEN, or the file it was read from"
    )


def redact_url(url: str) -> str:
    """``url`` with any password in it replaced by :data:`MASK`."""
    return _URL_PASSWORD.sub(lambda m: m.group(1) + MASK + m.group(3), url)


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with every one of ``secrets`` and every URL password replaced.

    Secrets shorter than :data:`MIN_REDACTED_LENGTH` characters are left
    alone (see there). Longer ones are replaced first, so a secret that
    contains another is masked whole.
    """
    for secret in sorted({s for s in secrets if s and len(s) >= MIN_REDACTED_LENGTH}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return redact_url(text)


def redact_command(argv: Sequence[str]) -> str:
    """A command line as one string, with secret values replaced.

    ``--token X`` and ``--token=X`` (and the other :data:`SECRET_OPTIONS`)
    lose their value, ``MEMVET_TOKEN=X`` style assignments too, and any URL
    its password.
    """
    out: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            out.append(MASK)
            hide_next = False
            continue
        name, eq, _value = arg.partition("=")
        if name in SECRET_OPTIONS:
            if eq:
                out.append(f"{name}={MASK}")
            else:
                out.append(arg)
                hide_next = True
            continue
        out.append(redact_url(_SECRET_ASSIGNMENT.sub(lambda m: m.group(1) + MASK, arg)))
    return " ".join(out)
