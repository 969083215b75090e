"""The branch rule's fixture: what the code does for one value, against that value's branch."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.branch import RULE

SEND = EvidenceText("lib/response.js::res.send", """\
res.send = function send(body) {
  var chunk = body;
  // strip irrelevant headers
  if (204 === this.statusCode || 304 === this.statusCode) {
    this.removeHeader('Content-Type');
    this.removeHeader('Content-Length');
    this.removeHeader('Transfer-Encoding');
    chunk = '';
  }
  // alter headers for 205
  if (this.statusCode === 205) {
    this.set('Content-Length', '0')
    this.removeHeader('Transfer-Encoding')
    chunk = ''
  }
  this.end(chunk);
};
""")
METHOD = EvidenceText("client.py::rebuild", """\
def rebuild(method, headers):
    if method == "HEAD":
        headers.pop("Content-Length", None)
    elif method == "GET":
        headers.pop("Transfer-Encoding", None)
    return headers
""")

FIRES = [
    ("For 205 Reset Content res.send removes Content-Length and Content-Type, exactly like for 204 and 304.", SEND),
    ("for 205 it removes Content-Length.", SEND),
    ("For 'HEAD' rebuild pops Transfer-Encoding.", METHOD),
]

SILENT = [
    ("For 204 and 304 res.send removes Content-Type and Content-Length.", SEND),
    ("For 205 res.send sets Content-Length to 0 and removes Transfer-Encoding.", SEND),
    ("For 304 res.send removes Transfer-Encoding.", SEND),
    # no branch for the value, or the branch does not call the verb at all
    ("For 206 res.send removes Content-Length.", SEND),
    ("For 205 res.send ends the response without a body.", SEND),
    ("For 'HEAD' rebuild pops Content-Length.", METHOD),
    # no call of the verb anywhere names the object
    ("For 205 res.send removes the ETag.", SEND),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_what_the_branch_does_instead():
    [line] = fired("for 205 it removes Content-Length.", SEND)
    assert line == ("the claim says that for 205 it removes Content-Length, but lib/response.js::res.send says "
                    "`this.removeHeader('Transfer-Encoding')`")
