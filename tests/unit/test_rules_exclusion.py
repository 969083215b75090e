"""The exclusion rule's fixture: a key given in an input said to take effect, where the code skips it."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.exclusion import RULE

DOWNLOAD = EvidenceText("lib/response.js::res.download", """\
res.download = function download(path, filename, options) {
  var opts = options || null;
  var headers = {
    'Content-Disposition': contentDisposition(filename || path)
  };
  if (opts && opts.headers) {
    var keys = Object.keys(opts.headers)
    for (var i = 0; i < keys.length; i++) {
      var key = keys[i]
      if (key.toLowerCase() !== 'content-disposition') {
        headers[key] = opts.headers[key]
      }
    }
  }
  return this.sendFile(path, {headers: headers});
};
""")
PY = EvidenceText("merge.py::merge_options", """\
def merge_options(defaults, options):
    out = dict(defaults)
    for key, value in options.items():
        if key == "timeout":
            continue
        out[key] = value
    return out
""")

FIRES = [
    ("res.download: a Content-Disposition given in options.headers overrides the one generated from the filename.",
     DOWNLOAD),
    ("A content-disposition passed in options.headers is used as is.", DOWNLOAD),
    ("A timeout given in options overrides the default one.", PY),
]

SILENT = [
    ("A Cache-Control given in options.headers overrides the default.", DOWNLOAD),
    ("res.download never lets a Content-Disposition from options.headers override the generated one.", DOWNLOAD),
    ("A retries value given in options overrides the default one.", PY),
    # the claim says nothing takes effect
    ("A Content-Disposition given in options.headers is dropped.", DOWNLOAD),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_test_that_leaves_the_key_out():
    [line] = fired("A Content-Disposition given in options.headers overrides the generated one.", DOWNLOAD)
    assert line.endswith("says `if (key.toLowerCase() !== 'content-disposition') {`")
