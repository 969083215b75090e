"""The regardless rule's fixture: something said to hold even with a setting, where the code branches on it."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.regardless import RULE

SEND = EvidenceText("sessions.py::Session.send", """\
def send(self, request, stream=False, **kwargs):
    r = adapter.send(request, stream=stream, **kwargs)
    if not stream:
        r.content
    return r
""")
JS = EvidenceText("lib/color.js::useColor", """\
function useColor (env, force) {
  if (force) {
    return true
  }
  return env.NO_COLOR === undefined
}
""")
UNTESTED = EvidenceText("sessions.py::Session.send", """\
def send(self, request, stream=False, **kwargs):
    r = adapter.send(request, stream=stream, **kwargs)
    r.content
    return r
""")

WRITE_STATUS = EvidenceText("src/web-outgoing.ts::writeStatusCode", """\
export const writeStatusCode = (req, res, proxyRes) => {
  res.statusCode = proxyRes.statusCode;
  if (proxyRes.statusMessage && req.httpVersionMajor < 2) {
    res.statusMessage = proxyRes.statusMessage;
  }
};
""")
WRITE_STATUS_ALWAYS = EvidenceText("src/web-outgoing.ts::writeStatusCode", """\
export const writeStatusCode = (req, res, proxyRes) => {
  res.statusCode = proxyRes.statusCode;
  if (proxyRes.statusMessage) {
    res.statusMessage = proxyRes.statusMessage;
  }
};
""")

FIRES = [
    # round 30 (httpxy f20): a setting named in prose, its words folded to the name the code branches on
    ("writeStatusCode mirrors statusCode and statusMessage from upstream regardless of HTTP version.", WRITE_STATUS),
    ("Session.send always downloads the whole body, even with stream=True.", SEND),
    ("The body is read regardless of `stream`.", SEND),
    ("useColor returns whether NO_COLOR is unset, even when `force` is true.", JS),
]

SILENT = [
    # round 30: the code branches on no such name; words that say something other than a setting
    ("writeStatusCode mirrors statusCode and statusMessage regardless of HTTP version.", WRITE_STATUS_ALWAYS),
    ("writeStatusCode copies the status regardless of what the proxy message says.", WRITE_STATUS),
    ("writeStatusCode copies the status regardless of the response encoding.", WRITE_STATUS),
    # the code does not test the setting
    ("Session.send always downloads the whole body, even with stream=True.", UNTESTED),
    # a setting the code does not name, or no "even"
    ("Session.send sends the request even with verify=False.", SEND),
    ("Session.send downloads the whole body with stream=False.", SEND),
    # a prose word is not a setting, even when the code has a name like it
    ("The body is read even when the stream is slow.", SEND),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_test():
    [line] = fired("The body is read even with stream=True.", SEND)
    assert line.endswith("says `if not stream:`")
