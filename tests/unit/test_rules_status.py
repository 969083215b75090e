"""The status rule's fixture: an HTTP status the claim pairs with a message (or an error type), where the
code's call with that message passes another status."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.status import RULE, _go_status

PARSE = EvidenceText("index.js::Form.prototype.parse", """\
Form.prototype.parse = function(req, cb) {
  var contentType = req.headers['content-type'];
  if (!contentType) {
    validationError(createError(415, 'missing content-type header'));
    return;
  }
  if (!m) {
    validationError(createError(400, 'content-type missing boundary'));
    return;
  }
  if (self.totalFieldCount > self.maxFields) {
    return createError(413, 'maxFields ' + self.maxFields + ' exceeded.');
  }
};
""", language="javascript")
READ = EvidenceText("lib/read.js::read", """\
function read (req, res, next, parse, debug, options) {
  try {
    verify(req, res, body, encoding)
  } catch (err) {
    next(createError(403, err, {
      body: body,
      type: err.type || 'entity.verify.failed'
    }))
    return
  }
}
""", language="javascript")
GO_HANDLER = EvidenceText("handler.go::ServeHTTP", """\
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "method not allowed here", http.StatusMethodNotAllowed)
		return
	}
	if len(body) > h.max {
		http.Error(w, "request body too large", 413)
	}
}
""", language="go")
PY_VIEW = EvidenceText("app/views.py::get_item", """\
def get_item(item_id):
    if item_id not in items:
        raise HTTPException(status_code=404, detail="Item not found anywhere")
    if not allowed(item_id):
        abort(403, f"forbidden item {item_id}")
    return items[item_id]
""", language="python")

FIRES = [
    ("parse() without a content-type header errors with status 400 ('missing content-type header').", PARSE),
    ("maxFields overflow -> 400 Bad Request (\"maxFields N exceeded.\").", PARSE),
    ("verify callback throwing -> 400 with type 'entity.verify.failed'.", READ),
    ("A GET gets 404 \"method not allowed here\".", GO_HANDLER),
    ("A huge body is answered 400 'request body too large'.", GO_HANDLER),
    ("Unknown ids raise HTTPException 400 (\"Item not found anywhere\").", PY_VIEW),
    ("A forbidden item aborts with 401 'forbidden item 7'.", PY_VIEW),
]
SILENT = [
    # the status the code passes with that message
    ("parse() without a content-type header errors with status 415 ('missing content-type header').", PARSE),
    ("maxFields overflow -> 413 (\"maxFields N exceeded.\").", PARSE),
    ("verify callback throwing -> 403 with type 'entity.verify.failed'.", READ),
    ("A GET gets 405 \"method not allowed here\".", GO_HANDLER),
    ("Unknown ids raise HTTPException 404 (\"Item not found anywhere\").", PY_VIEW),
    # a message no call with a status writes: a helper may add the status
    ("Bad input gets 400 'something else entirely'.", PARSE),
    # the status set aside, or two statuses and which one goes with the message unsaid
    ("It is not 400 ('missing content-type header') but a 415.", PARSE),
    ("It answers 400 or 415 ('missing content-type header').", PARSE),
    # a number that is no status: a size, a count
    ("It caps fields at 500 bytes ('maxFields N exceeded.').", PARSE),
    # too little of the code's own message quoted to pin the call
    ("An empty header gets 400 ('ok').", PARSE),
]

fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_message_names_both_statuses():
    [line] = fired("parse() without a content-type header errors with status 400 ('missing content-type header').",
                   PARSE)
    assert "the claim pairs 400 with 'missing content-type header'; the code passes 415 with it" in line


def test_go_status_names_are_their_numbers():
    assert _go_status("BadRequest") == 400
    assert _go_status("MethodNotAllowed") == 405
    assert _go_status("NoSuchStatus") is None
