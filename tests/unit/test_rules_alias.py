"""The alias rule's fixture: "X is an alias of Y" where the code defines X as something else."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.alias import RULE

FORMATS = EvidenceText("arrow/formatter.py", """\
FORMAT_ATOM: Final[str] = "YYYY-MM-DD HH:mm:ssZZ"
FORMAT_RFC3339: Final[str] = "YYYY-MM-DD HH:mm:ssZZ"
FORMAT_RFC3339_STRICT: Final[str] = "YYYY-MM-DDTHH:mm:ssZZ"
FORMAT_W3C = FORMAT_ATOM
""")
EXPORTS = EvidenceText("index.js", """\
exports.charset = charset
exports.charsets = { lookup: charset }
exports.extension = extension
exports.lookup = lookup
""", language="javascript")
FEATURES = EvidenceText("Cargo.toml", """\
[features]
default = ["std"]
std = []
use_std = ["std"] # deprecated alias
""")
RETAIN = EvidenceText("src/lib.rs::SmallVec.retain_mut", """\
    pub fn retain_mut<F: FnMut(&mut A::Item) -> bool>(&mut self, f: F) {
        self.retain(f)
    }
""", language="rust")
PROTOTYPE = EvidenceText("index.js::Negotiator", """\
Negotiator.prototype.encoding = function encoding(available, opts) {
  var set = this.encodings(available, opts);
  return set && set[0];
};
Negotiator.prototype.preferredEncoding = Negotiator.prototype.encoding;
""", language="javascript")

# round 34 (sprig f10): a function written with an equals sign as what another anchor calls
MERGE = EvidenceText("dict.go::merge", """\
func merge(dst map[string]interface{}, srcs ...map[string]interface{}) interface{} {
	for _, src := range srcs {
		if err := mergo.Merge(&dst, src); err != nil {
			return ""
		}
	}
	return dst
}
""")
MERGE_OVERWRITE = EvidenceText("dict.go::mergeOverwrite", """\
func mergeOverwrite(dst map[string]interface{}, srcs ...map[string]interface{}) interface{} {
	for _, src := range srcs {
		if err := mergo.MergeWithOverwrite(&dst, src); err != nil {
			return ""
		}
	}
	return dst
}
""")


# round 34 (hex t21): a Rust function with its `where` clause and brace on lines of their own
SERIALIZE_UPPER = EvidenceText("src/serde.rs::serialize_upper", """\
pub fn serialize_upper<S, T>(data: T, serializer: S) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    T: ToHex,
{
    let s = data.encode_hex_upper::<String>();
    serializer.serialize_str(&s)
}
""")


FIRES = [
    ("FORMAT_RFC3339 is just an alias of FORMAT_RFC3339_STRICT.", FORMATS),
    ("`mime.charsets.lookup` is just an alias of `mime.lookup` (extension -> type).", EXPORTS),
    ("Feature aliasing: `std` is just an alias that enables `use_std`.", FEATURES),
    ("The legacy `preferredEncoding` alias points at `encodings` and returns an array.", PROTOTYPE),
    # round 34: "X = pkg.Y" of a function whose body never names Y, where another anchor does
    ("merge = mergo.MergeWithOverwrite, later dicts win; mergeOverwrite only fills missing keys.",
     [MERGE, MERGE_OVERWRITE]),

]

SILENT = [
    # the definition names the other
    ("FORMAT_W3C is an alias of FORMAT_ATOM.", FORMATS),
    ("Legacy: `mime.charsets.lookup` is an alias for `mime.charset`.", EXPORTS),
    ("`use_std` is a deprecated alias for `std`.", FEATURES),
    ("retain_mut is an alias of retain.", RETAIN),
    ("The legacy `preferredEncoding` alias points at `encoding`.", PROTOTYPE),
    # no definition of X, or Y not in the anchored code, or negated
    ("FORMAT_RSS is an alias of FORMAT_RFC3339.", FORMATS),
    ("retain_mut is an alias of Vec::drain_filter.", RETAIN),
    ("It is not true that FORMAT_RFC3339 is an alias of FORMAT_RFC3339_STRICT.", FORMATS),
    # the same name, no owner
    ("lookup is an alias of lookup.", EXPORTS),
    # round 34: the function's own call; a target no anchor names; an assignment inside the body
    ("merge = mergo.Merge, so earlier dicts win.", [MERGE, MERGE_OVERWRITE]),
    ("mergeOverwrite = mergo.MergeWithOverwrite.", [MERGE, MERGE_OVERWRITE]),
    ("merge = mergo.MergeDeep.", [MERGE, MERGE_OVERWRITE]),
    ("merge is `err = mergo.Merge(...)` in a loop.", [MERGE, MERGE_OVERWRITE]),
    # round 34: the body below a `where` clause names it
    ("serialize_upper = data.encode_hex_upper::<String>() then serializer.serialize_str(&s).", SERIALIZE_UPPER),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_definition():
    [line] = fired("FORMAT_RFC3339 is just an alias of FORMAT_RFC3339_STRICT.", FORMATS)
    assert line == ("the claim says `FORMAT_RFC3339 is just an alias of FORMAT_RFC3339_STRICT`, but "
                    "arrow/formatter.py says `FORMAT_RFC3339: Final[str] = \"YYYY-MM-DD HH:mm:ssZZ\"`")
