"""Binding classes of issue 30's round 37 (tuning sets: rust-fuzz/arbitrary and unjs/uqr after their draw,
dtolnay/ryu and asottile/add-trailing-comma after their sealed runs, and four sets written blind at the
round's start: gobuffalo/flect, rust-num/num-rational, pypa/installer, unjs/mdbox).

Each case both ways.
"""

from __future__ import annotations

from _binding import both_ways, ev, person_write, unbound

import memvet
from memvet._claims import TermKind, claim_terms

# ------------------------------------------------ a separator, or no text at all, is compared as written

MERGE = ev("src/_utils.ts::mergeStrings", """\
export function mergeStrings(arr) {
  let strBuff = [];
  for (const el of arr) {
    if (typeof el === "string") { strBuff.push(el); }
  }
  if (strBuff.length > 0) { res.push(strBuff.join("")); }
  return res;
}
""", "typescript")


def test_a_call_with_a_space_is_not_the_call_with_an_empty_string():
    assert unbound('mergeStrings glues fragments with `join("")`.', MERGE) == []
    # a run of spaces is one: the code's lines are read with their runs collapsed
    indent = ev("feed.go::WriteXML", 'func WriteXML(w io.Writer) {\n\te.Indent("", "  ")\n}\n', "go")
    assert unbound('WriteXML indents with `Indent("", "  ")`.', indent) == []
    assert unbound('WriteXML indents with `Indent("", "")`.', indent) == ['Indent("", "")']
    # an argument the code writes as more than a literal is read as before: by the strings it holds
    split = ev("securecookie.go::Decode", 'func Decode(b []byte) {\n\tparts := bytes.SplitN(b, []byte("|"), 3)\n}\n',
               "go")
    assert unbound('Decode splits with `bytes.SplitN(b, "|", 3)`.', split) == []
    assert unbound('mergeStrings glues fragments with `strBuff.join("")`.', MERGE) == []
    # tokens leave whitespace out; the string the code passes does not
    assert unbound('mergeStrings puts a space between fragments (`join(" ")`).', MERGE) == ['join(" ")']
    assert unbound('mergeStrings puts a space between fragments (`strBuff.join(" ")`).', MERGE) \
        == ['strBuff.join(" ")']


SPACES = ev("flect.go::spaces", "var spaces = []rune{'_', ' ', ':', '-', '/'}\n", "go")


def test_a_lone_period_is_a_value_not_an_ellipsis():
    assert unbound("flect splits words on '_', ':', '-' and '/'.", SPACES) == []
    assert unbound("flect splits words on '.', '_', '-' and '/'.", SPACES) == ["."]
    # an ellipsis still says nothing
    assert unbound("flect splits words on '_', '...'.", SPACES) == []


CALLS = ev("flect.go::isSpace", """\
func isSpace(c rune) bool {
	return strings.ContainsRune(" _", c) || unicode.IsSpace(c)
}
""", "go")


def test_a_period_is_a_string_of_the_code_not_the_dot_of_a_member():
    assert unbound("isSpace is true for '.' too.", CALLS) == ["."]
    assert unbound("The separator is '.' too.", ev("flect.go::dot", 'const dot = "."\n', "go")) == []


# ------------------------------------------------ a relative name in the working directory

LOAD = ev("custom_data.go::loadCustomData", """\
func loadCustomData(defaultFile, env string) {
	pwd, _ := os.Getwd()
	path, found := os.LookupEnv(env)
	if !found {
		path = filepath.Join(pwd, defaultFile)
	}
}
func init() {
	loadCustomData("acronyms.json", "ACRONYMS_PATH")
}
""", "go")


def test_a_dot_slash_name_is_the_string_the_code_joins_to_the_cwd():
    assert unbound("Without ACRONYMS_PATH it falls back to ./acronyms.json in the cwd.", LOAD) == []
    assert unbound("Without ACRONYMS_PATH it falls back to ./inflections.json in the cwd.", LOAD) \
        == ["./inflections.json"]
    # a path with a folder is compared whole
    assert unbound("Without ACRONYMS_PATH it falls back to ./config/acronyms.json.", LOAD) \
        == ["./config/acronyms.json"]


# ------------------------------------------------ a template passed as `msg.format(...)`

WHEEL = ev("src/installer/_core.py::_process_WHEEL_file", """\
def _process_WHEEL_file(source):
    metadata = parse_metadata_file(source.read_dist_info("WHEEL"))
    if not metadata["Wheel-Version"].startswith("1."):
        message = "Incompatible Wheel-Version {}, only support version 1.x wheels."
        raise InvalidWheelSource(source, message.format(metadata["Wheel-Version"]))
""", "python")


def test_a_message_passed_as_its_template_s_format_binds():
    claim = ('Anything else raises InvalidWheelSource("Incompatible Wheel-Version {v}, '
             'only support version 1.x wheels.").')
    assert unbound(claim, WHEEL) == []
    wrong = 'Anything else raises InvalidWheelSource("Unsupported Wheel-Version {v}, only version 1.x is supported.").'
    assert unbound(wrong, WHEEL) == [wrong[wrong.index("InvalidWheelSource"):-1]]


# ------------------------------------------------ the fixed text a format ends with

ORDINAL = ev("ordinalize.go::Ident.Ordinalize", """\
func (i Ident) Ordinalize() Ident {
	number, err := strconv.Atoi(i.Original)
	if err != nil {
		return i
	}
	switch abs(number) % 100 {
	case 11, 12, 13:
		return New(fmt.Sprintf("%dth", number))
	}
	return New(fmt.Sprintf("%dst", number))
}
""", "go")


def test_the_suffix_of_a_format_binds_as_written():
    assert unbound('Ordinalize gives the teens "th" (11th, 12th).', ORDINAL) == []
    assert unbound('Ordinalize gives the teens "nd" (11nd, 12nd).', ORDINAL) == ["nd"]
    # the whole fixed text after the field, nothing added
    assert unbound('Ordinalize gives the teens "th place".', ORDINAL) == ["th place"]


# ------------------------------------------------ a code span held by more than two backticks

def test_a_span_of_three_backticks_or_more_is_a_term():
    terms = claim_terms("codeBlock(code) without a lang writes ```` ```text ```` as the opening fence.")
    assert ("```text", TermKind.CODE) in [(t.text, t.kind) for t in terms]
    # a fence named in prose, never closed, is no term
    assert [t.text for t in claim_terms("codeBlock writes ``` fences around the code.")] == ["codeBlock"]


# ------------------------------------------------ the values a function is called with, in its own file

def test_a_function_s_values_are_read_where_its_file_calls_it(repo, ledger):
    repo.write("custom_data.go", 'package flect\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc init() {\n'
                                 '\tloadCustomData("inflections.json", "INFLECT_PATH",\n'
                                 '\t\t"could not read inflection file")\n'
                                 '}\n\nfunc loadCustomData(defaultFile, env, readErrorMessage string) {\n'
                                 '\tpath, found := os.LookupEnv(env)\n\tif !found {\n\t\tpath = defaultFile\n\t}\n'
                                 '\tif _, err := os.ReadFile(path); err != nil {\n'
                                 '\t\tfmt.Printf("%s %s (%s)\\n", readErrorMessage, path, err)\n\t}\n}\n')
    repo.commit("custom data")
    # a value no call passes
    both_ways(ledger, ["custom_data.go::loadCustomData"],
              "loadCustomData reads `inflections.json` unless INFLECT_PATH points elsewhere.",
              "loadCustomData reads `inflections.yaml` unless INFLECT_PATH points elsewhere.", "`inflections.yaml`")


# ------------------------------------------------ a name the code builds with a format, its field a placeholder

RECURSIVE = ev("derive/src/lib.rs::expand_derive_arbitrary", """\
fn expand_derive_arbitrary(input: syn::DeriveInput) -> Result<TokenStream> {
    let recursive_count = syn::Ident::new(
        &format!("RECURSIVE_COUNT_{}", input.ident.unraw()),
        Span::call_site(),
    );
}
""", "rust")


def test_a_built_name_with_a_placeholder_binds_to_its_format():
    assert unbound("derive bumps a thread-local RECURSIVE_COUNT_<Type> per type.", RECURSIVE) == []
    assert unbound("derive bumps a thread-local DEPTH_COUNT_<Type> per type.", RECURSIVE) == ["DEPTH_COUNT_<Type>"]


# ------------------------------------------------ a size in pixels, its unit glued on

RENDER = ev("src/svg.ts::renderSVG", """\
export function renderSVG(data, options = {}) {
  const {
    pixelSize = 10,
  } = options
  return result.size * pixelSize
}
""", "typescript")


def test_a_number_with_px_glued_on_is_a_number():
    assert [(t.text, t.kind) for t in claim_terms("pixelSize defaults to 10px per module.")
            if t.kind is TermKind.NUMBER] == [("10", TermKind.NUMBER)]
    assert unbound("renderSVG pixelSize default = 10px per module.", RENDER) == []
    assert unbound("renderSVG pixelSize default = 4px per module.", RENDER) == ["4"]


# ------------------------------------------------ a name of an anchored dependency, as the repository uses it

def test_a_dependency_s_name_binds_where_the_repository_imports_and_uses_it(repo, ledger):
    repo.write("pyproject.toml", '[project]\nname = "add-comma"\ndependencies = ["tokenize-rt>=3.0.1"]\n')
    repo.write("add_comma/_main.py", "from tokenize_rt import src_to_tokens\n\n\ndef fix(src):\n"
                                     "    return src_to_tokens(src, strict=True)\n")
    repo.commit("dep")
    # a name the repository never takes from it
    both_ways(ledger, ["dep:tokenize-rt"], "The one runtime dep is tokenize-rt, for src_to_tokens.",
              "The one runtime dep is tokenize-rt, for tokens_to_src.", "`tokens_to_src`")
    # a word the file only says (an option key in a call of it) is not taken from the package
    assert person_write(ledger, "The runtime dep is tokenize-rt, src_to_tokens with `strict=False`.",
                        ["dep:tokenize-rt"])[1] is memvet.Status.NEEDS_REVALIDATION
    # the package's own import name is no name of its API
    assert person_write(ledger, "tokenize_rt comes from PyPI, pinned by pyproject.toml.",
                        ["dep:tokenize-rt"])[1] is memvet.Status.NEEDS_REVALIDATION
