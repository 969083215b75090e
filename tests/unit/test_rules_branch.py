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

RETRY = EvidenceText("src/core/Ky.ts::Ky.#calculateRetryDelay", """\
  async #calculateRetryDelay(error) {
    if (!this.#options.retry.statusCodes.includes(error.response.status)) {
      throw error;
    }
    if (error.response.status === 413) {
      throw error;
    }
    if (error.response.status !== 429) {
      this.#count++;
    }
    return this.#calculateDelay();
  }
""")

WALK_STRUCT = EvidenceText("reflectwalk.go::walkStruct", """\
func walkStruct(v reflect.Value, w interface{}) (err error) {
	skip := false
	if sw, ok := w.(StructWalker); ok {
		err = sw.Struct(v)
		if err == SkipEntry {
			skip = true
			err = nil
		}
	}
	if !skip {
		for i := 0; i < vt.NumField(); i++ {
			if sw, ok := w.(StructWalker); ok {
				err = sw.StructField(sf, f)
				if err == SkipEntry {
					continue
				}
			}
			err = walk(f, w)
		}
	}
	return nil
}
""")


FIRES = [
    # uniform treatment: the code has a branch for the value
    ("413 Payload Too Large is retried like every other code in retry.statusCodes.", RETRY),
    ("413 gets no special treatment.", RETRY),
    ("For 205 Reset Content res.send removes Content-Length and Content-Type, exactly like for 204 and 304.", SEND),
    ("for 205 it removes Content-Length.", SEND),
    ("For 'HEAD' rebuild pops Transfer-Encoding.", METHOD),
    # round 33: the work is said to end on a value whose branch only goes on with the next one
    ("Return SkipEntry from StructField and walkStruct bails out of the struct: all following fields are skipped.",
     WALK_STRUCT),
]

SILENT = [
    ("408 is retried like every other code in retry.statusCodes.", RETRY),
    # a branch for everything but 429 is no branch for 429
    ("429 is retried like any other status.", RETRY),
    # the value after the marker is not the one said to be treated alike
    ("like every other code, 413 is in retry.statusCodes.", RETRY),
    ("For 204 and 304 res.send removes Content-Type and Content-Length.", SEND),
    ("For 205 res.send sets Content-Length to 0 and removes Transfer-Encoding.", SEND),
    ("For 304 res.send removes Transfer-Encoding.", SEND),
    # no branch for the value, or the branch does not call the verb at all
    ("For 206 res.send removes Content-Length.", SEND),
    ("For 205 res.send ends the response without a body.", SEND),
    ("For 'HEAD' rebuild pops Content-Length.", METHOD),
    # no call of the verb anywhere names the object
    ("For 205 res.send removes the ETag.", SEND),
    # round 33: the branch after the call the claim names sets state; "goes on" is what the code does
    ("Return SkipEntry from Struct and walkStruct stops: no field of it is walked.", WALK_STRUCT),
    ("Return SkipEntry from StructField and walkStruct skips that field and goes on.", WALK_STRUCT),
    ("Returning SkipEntry from StructField does not stop the walk of the struct.", WALK_STRUCT),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_what_the_branch_does_instead():
    [line] = fired("for 205 it removes Content-Length.", SEND)
    assert line == ("the claim says that for 205 it removes Content-Length, but lib/response.js::res.send says "
                    "`this.removeHeader('Transfer-Encoding')`")
