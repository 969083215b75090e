"""The separator rule's fixture: a text said to be split on (joined with) one separator, where every such
call of the code passes another literal."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.separator import RULE

DEFAULTS = EvidenceText("decoder.go::Decoder.setDefaults", """\
func (d *Decoder) setDefaults(t reflect.Type, v reflect.Value) error {
	if f.isSliceOrArray() {
		vals := strings.Split(f.defaultValue, "|")
		for _, val := range vals {
			d.convert(val)
		}
	}
	return nil
}
""", language="go")
LIST_FORMAT = EvidenceText("format.go::ListFormatFunc", """\
func ListFormatFunc(es []error) string {
	points := make([]string, len(es))
	for i, err := range es {
		points[i] = fmt.Sprintf("* %s", err)
	}
	return fmt.Sprintf("%d errors occurred:\\n\\t%s\\n\\n", len(es), strings.Join(points, "\\n\\t"))
}
""", language="go")
PARSE_SPEC = EvidenceText("src/parser.rs::parse_spec", """\
fn parse_spec(spec: &str) -> ParseResult {
    let mut parts = spec.split('/');
    let mods = parts.next();
    let filter = parts.next();
    if parts.next().is_some() {
        return ParseResult::error("invalid logging spec");
    }
    let words = mods.split_whitespace();
}
""", language="rust")
PY_HEADER = EvidenceText("app/headers.py::parse_list", """\
def parse_list(value):
    items = [v.strip() for v in value.split(",")]
    return "; ".join(items)
""", language="python")
JS_METHODS = EvidenceText("lib/index.js::configureMethods", """\
function configureMethods (options) {
  var methods = options.methods
  if (methods.join) {
    methods = options.methods.join(',')
  }
  return { key: 'Access-Control-Allow-Methods', value: methods }
}
""", language="javascript")
JS_SEP = EvidenceText("lib/parse.js::parseValues", """\
function parseValues (str, options) {
  var parts = str.split(options.delimiter)
  return parts
}
""", language="javascript")
PATHS = EvidenceText("lib/paths.js::resolve", """\
function resolve (root, name) {
  return path.join(root, name)
}
""", language="javascript")

FIRES = [
    ('For slice defaults, setDefaults splits the default: value on "," e.g. default:1,2,3.', DEFAULTS),
    ("setDefaults splits the default on commas.", DEFAULTS),
    ('ListFormatFunc puts all errors on one line, joined with ", " after the header.', LIST_FORMAT),
    ("parse_spec splits on ':' and errors on a second one.", PARSE_SPEC),
    ('parse_list joins the items with ", ".', PY_HEADER),
    ("parse_list splits the value on semicolons.", PY_HEADER),
    ("methods arrays get joined with `', '` -> e.g. `GET, POST`.", JS_METHODS),
    # a receiver whose name ends like a module's (store, not re) is still read
    ("load splits the store on ';'.", EvidenceText("app/load.py::load", "parts = store.split(',')\n",
                                                    language="python")),
]

SILENT = [
    ('setDefaults splits the default on "|".', DEFAULTS),
    ("setDefaults splits the default on a pipe.", DEFAULTS),
    ('ListFormatFunc joins the points with "\\n\\t".', LIST_FORMAT),
    ("parse_spec splits on '/' and the filter on whitespace.", PARSE_SPEC),
    ("parse_spec splits the mods on spaces.", PARSE_SPEC),
    ('parse_list joins the items with "; ".', PY_HEADER),
    ("parse_list joins the items with semicolons.", PY_HEADER),
    ("configureMethods joins it with ',' (no space).", JS_METHODS),
    # a separator the code passes by name; a path join; a negated verb; the splitting a named function does
    ("parseValues splits on '&'.", JS_SEP),
    ("resolve joins the parts with '/'.", PATHS),
    ("It returns the parts joined with `/`.", EvidenceText("src/_path.ts::relative", "return _to.join(\"/\");\n",
                                                             language="typescript")),
    ('setDefaults never splits the default on ",".', DEFAULTS),
    ("tokenize splits on commas.", EvidenceText("app/tok.py::tokenize", "parts = re.split(r',\\s*', text)\n",
                                                language="python")),
    ("setDefaults splits the key with splitSections(k, '.').", DEFAULTS),
    ("config_path joins with '/'.", EvidenceText("src/lib.rs::config_path", "let p = dir.join(\"config\");\n",
                                                  language="rust")),
    # code that splits nothing itself
    ('ListFormatFunc splits each message on ":".', LIST_FORMAT),
]

fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_both_separators():
    (line,) = fired('setDefaults splits the default on ",".', DEFAULTS)
    assert "splits on ','; the code splits on '|'" in line and 'strings.Split(f.defaultValue, "|")' in line
    (line,) = fired('ListFormatFunc puts all errors on one line, joined with ", " after the header.', LIST_FORMAT)
    assert "joins with ', '; the code joins with '\\n\\t'" in line
