"""The retention rule's fixture: a key said kept everywhere, where the code deletes it."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.retention import RULE

REBUILD = EvidenceText("sessions.py::Session.rebuild_auth", """\
def rebuild_auth(self, prepared, response):
    headers = prepared.headers
    if "Authorization" in headers and self.should_strip_auth(response.url, prepared.url):
        del headers["Authorization"]
""")
JS = EvidenceText("lib/redirect.js::followRedirect", """\
function followRedirect (options, location) {
  if (new URL(location).host !== options.host) {
    delete options.headers['authorization']
  }
  return request(location, options)
}
""")
KEEPS = EvidenceText("sessions.py::Session.rebuild_auth", """\
def rebuild_auth(self, prepared, response):
    headers = prepared.headers
    headers.pop("Proxy-Authorization", None)
""")

FIRES = [
    ("The Authorization header is kept on every redirect, also to other hosts.", REBUILD),
    ("The Authorization header is always preserved across redirects.", REBUILD),
    ("An Authorization header survives any redirect.", JS),
]

SILENT = [
    # no universal: a true claim about one kind of redirect
    ("A redirect to the same host keeps the Authorization header.", REBUILD),
    ("On a same-host redirect the Authorization header is kept.", REBUILD),
    # negated, or a key the code never removes
    ("The Authorization header is not kept on every redirect.", REBUILD),
    ("The Authorization header is kept on every redirect.", KEEPS),
    ("The Cookie header is kept on every redirect.", JS),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_deletion():
    [line] = fired("The Authorization header is kept on every redirect.", REBUILD)
    assert line.endswith("""says `del headers["Authorization"]`""")
