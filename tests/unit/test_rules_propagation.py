"""The propagation rule's fixture: "lets E propagate" where every handler of E raises another."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.propagation import RULE

TRANSLATED = EvidenceText("client.py::Client._redirect_url", """\
    def _redirect_url(self, request, response):
        location = response.headers["Location"]
        try:
            url = URL(location)
        except InvalidURL as exc:
            raise RemoteProtocolError(f"Invalid URL in location header: {exc}.") from None
        return url
""")
RERAISED = EvidenceText("client.py::Client.send", """\
    def send(self, request):
        try:
            return self._send(request)
        except InvalidURL:
            log.warning("bad url")
            raise
""")
JS = EvidenceText("lib/view.js::View.prototype.load", """\
View.prototype.load = function load(file) {
  try {
    return require(file);
  } catch (err) {
    throw new TypeError('could not load ' + file);
  }
};
""")

FIRES = [
    ("If the Location header can't be parsed, _redirect_url lets InvalidURL propagate to the caller.", TRANSLATED),
    ("InvalidURL propagates out of _redirect_url.", TRANSLATED),
    ("_redirect_url re-raises InvalidURL.", TRANSLATED),
    ("An InvalidURL bubbles up to the caller.", TRANSLATED),
]

SILENT = [
    ("send lets InvalidURL propagate after logging it.", RERAISED),
    ("_redirect_url does not let InvalidURL propagate: it raises RemoteProtocolError.", TRANSLATED),
    ("InvalidURL is caught and re-raised as RemoteProtocolError.", TRANSLATED),
    ("_redirect_url re-raises InvalidURL as RemoteProtocolError.", TRANSLATED),
    # no handler for it: it may well propagate
    ("_redirect_url lets KeyError propagate.", TRANSLATED),
    ("load lets err propagate.", JS),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_what_the_handler_raises():
    [line] = fired("_redirect_url lets InvalidURL propagate.", TRANSLATED)
    assert line == ("the claim says `InvalidURL` propagate; the code catches it and raises another, but "
                    "client.py::Client._redirect_url says `raise RemoteProtocolError(f\"Invalid URL in location "
                    "header: {exc}.\") from None`")
