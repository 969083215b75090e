"""Binding classes of issue 30's round 17 (tuning sets: kornelski/rust_urlencoding,
pillarjs/router and eight sets written blind at the round's start).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, person_write, unbound

import memvet
from memvet._claims import EvidenceText, claim_terms

# ----------------------------------------------------------------- a Rust trait impl is an item

GUARD_RS = """\
use core::fmt;

pub struct ScopeGuard<T, F> {
    value: T,
    dropfn: F,
}

unsafe impl<T, F> Sync for ScopeGuard<T, F>
where
    T: Sync,
    F: FnOnce(T),
{}

impl<T, F> fmt::Debug for ScopeGuard<T, F>
where
    T: fmt::Debug,
    F: FnOnce(T),
{
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_struct("ScopeGuard").field("value", &self.value).finish()
    }
}

impl<T, F> Drop for ScopeGuard<T, F>
where
    F: FnOnce(T),
{
    fn drop(&mut self) {}
}
"""


def test_a_trait_the_claim_names_anchors_its_impl_block_and_its_bounds(repo, ledger) -> None:
    repo.write("src/lib.rs", GUARD_RS, dedent=False)
    repo.commit("guard")
    claim = "There's an `unsafe impl Sync for ScopeGuard` that only requires `T: Sync`."
    decision, status = person_write(ledger, claim, ["src/lib.rs::ScopeGuard"])
    assert [a.name for a in decision.anchors] == ["ScopeGuard", "<ScopeGuard as Sync>"]
    assert status is memvet.Status.VERIFIED
    # `T: Debug` for `T: fmt::Debug`: the path left out
    _, status = person_write(ledger, "Debug for ScopeGuard needs only T: Debug.", ["src/lib.rs::ScopeGuard"])
    assert status is memvet.Status.VERIFIED
    # a bound the impl does not have, written in prose
    decision, status = person_write(ledger, "ScopeGuard is Sync only if both T: Sync and F: Sync.",
                                    ["src/lib.rs::ScopeGuard"])
    assert status is memvet.Status.NEEDS_REVALIDATION
    assert len(decision.findings) == 1 and "`F: Sync`" in decision.findings[0]


def test_a_change_to_an_impl_header_reopens_the_claim(repo, ledger) -> None:
    repo.write("src/lib.rs", GUARD_RS, dedent=False)
    repo.commit("guard")
    rec = ledger.record("ScopeGuard is Sync when `T: Sync`.", ["src/lib.rs::ScopeGuard"],
                        author=memvet.Author.person("p"))
    repo.write("src/lib.rs", GUARD_RS.replace("    T: Sync,\n", "    T: Sync + Send,\n"), dedent=False)
    repo.commit("Sync needs Send too")
    verdict = ledger.verify(rec.decision.id)
    assert verdict.status is memvet.Status.STALE
    assert "<ScopeGuard as Sync>" in verdict.reason


DROP = ev("src/lib.rs::<ScopeGuard as Drop>.drop", "    fn drop(&mut self) {}\n", "rust")


def test_a_trait_impl_named_by_the_anchor_it_is():
    assert unbound("In `Drop for ScopeGuard`, the closure runs once.", DROP) == []
    assert unbound("`impl Drop for ScopeGuard` runs the closure.", DROP) == []
    assert unbound("In `Clone for ScopeGuard`, the closure runs once.", DROP) == ["Clone for ScopeGuard"]
    # `unsafe` says more than the anchor's name does
    assert unbound("`unsafe impl Drop for ScopeGuard` runs it.", DROP) == ["unsafe impl Drop for ScopeGuard"]


DISPLAY = ev("src/enc.rs::<Encoded as Display>", """\
impl<String: AsRef<[u8]>> std::fmt::Display for Encoded<String> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }
}
""", "rust")


WRITE = ev("src/enc.rs::Encoded.write", """\
    pub fn write<W: std::io::Write>(&self, writer: &mut W) -> std::io::Result<()> {
        Ok(())
    }
""", "rust")


def test_a_path_shortened_by_its_leading_segments():
    assert unbound("It takes `writer: &mut W` where `W: io::Write`.", WRITE) == []
    assert unbound("It takes `writer: &mut W` where `W: fmt::Write`.", WRITE) == ["W: fmt::Write"]


def test_an_impl_header_without_its_paths_and_type_arguments():
    assert unbound("`impl Display for Encoded` streams chunks.", DISPLAY) == []
    assert unbound("`impl Debug for Encoded` streams chunks.", DISPLAY) == ["impl Debug for Encoded"]
    # the claim's own path stays as written
    assert unbound("`impl io::Display for Encoded` streams chunks.", DISPLAY) == ["impl io::Display for Encoded"]


def test_a_bound_in_prose_is_a_term_and_a_capital_after_a_colon_elsewhere_is_not():
    assert [t.text for t in claim_terms("Sync only if both T: Sync and F: Send + Sync.")] == [
        "T: Sync", "F: Send + Sync"]
    assert [t.text for t in claim_terms("Note: Retries stop at five.")] == []


# ----------------------------------------------------------------- a variant under a glob import

OPTMULTI = EvidenceText("src/lib.rs::Options.optmulti", """\
    pub fn optmulti(&mut self) -> &mut Options {
        self.grps.push(OptGroup { hasarg: Yes, occur: Multi });
        self
    }
""", ("src/lib.rs::Options.optmulti", "Options.optmulti"), "rust", imports=("self::HasArg", "self::Occur"))


def test_a_variant_by_its_full_name_where_the_file_imports_the_enum_s_items():
    assert unbound("optmulti = HasArg::Yes + Occur::Multi.", OPTMULTI) == []
    assert unbound("optmulti = HasArg::Maybe + Occur::Multi.", OPTMULTI) == ["HasArg::Maybe"]
    assert unbound("optmulti = Hint::Yes + Occur::Multi.", OPTMULTI) == ["Hint::Yes"]  # an enum it does not import


# ----------------------------------------------------------------- cargo's feature flags

CARGO = EvidenceText("Cargo.toml", """\
[package]
name = "scopeguard"

[features]
default = ["use_std"]
use_std = []
""", ("Cargo.toml",), "toml")
CARGO_PLAIN = EvidenceText("Cargo.toml", '[package]\nname = "urlencoding"\n', ("Cargo.toml",), "toml")


def test_cargo_s_flags_for_the_features_the_manifest_declares():
    assert unbound("`default = [\"use_std\"]`; build with --no-default-features for no_std.", CARGO) == []
    assert unbound("Build with `--features use_std`.", CARGO) == []
    assert unbound("Build with --no-default-features for no_std.", CARGO_PLAIN) == ["--no-default-features"]
    assert unbound("Build with `--features serde`.", CARGO) == ["--features serde"]


# ----------------------------------------------------------------- TypeScript's types left out

DEBUGGER = ev("src/debugger.ts::createDebugger", """\
export function createDebugger(hooks: Hookable<any>, _options: CreateDebuggerOptions = {}) {
  const filter = typeof _filter === "string" ? (name: string) => name.startsWith(_filter) : _filter;
  if (result && typeof (result as any).then === "function") {
    return result;
  }
}
""", "typescript")


def test_typescript_written_without_its_types():
    assert unbound("A string filter becomes `(name) => name.startsWith(_filter)`.", DEBUGGER) == []
    assert unbound("It awaits anything with `typeof result.then === \"function\"`.", DEBUGGER) == []
    assert unbound("A string filter becomes `(name) => name.endsWith(_filter)`.", DEBUGGER) == [
        "(name) => name.endsWith(_filter)"]
    assert unbound("It awaits anything with `typeof result.catch === \"function\"`.", DEBUGGER) == [
        'typeof result.catch === "function"']


# ----------------------------------------------------------------- values and labels

OPTIONS_JS = ev("index.js::sendOptionsResponse", """\
function sendOptionsResponse (res, allow) {
  res.setHeader('Content-Type', 'text/plain')
  res.end(allow)
}
""", "javascript")


SEND_STATUS = ev("lib/response.js::res.sendStatus", """\
res.sendStatus = function sendStatus(statusCode) {
  this.statusCode = statusCode;
  this.type('txt');
  return this.send(statuses.message[statusCode] || String(statusCode));
};
""", "javascript")


def test_a_media_type_in_prose_is_a_value():
    assert unbound("The OPTIONS reply is text/plain.", OPTIONS_JS) == []
    assert unbound("The OPTIONS reply is JSON: Content-Type application/json.", OPTIONS_JS) == ["application/json"]
    # named as code names it: by the extension the standard library gives it, or its subtype
    assert unbound("res.sendStatus(404) responds as text/plain.", SEND_STATUS) == []
    assert unbound("res.sendStatus(404) responds as text/html.", SEND_STATUS) == ["text/html"]
    assert "audio/font" not in [t.text for t in claim_terms("video beats audio/font")]  # two top-level types: prose


PACKAGE = ev("package.json", '{\n  "engines": {\n    "node": ">= 18.0.0"\n  }\n}\n', "json")


def test_a_release_series_and_a_name_s_number_behind_a_prefix_are_labels():
    assert unbound('engines: node ">= 18.0.0" (2.x dropped older Node).', PACKAGE) == []
    assert unbound('engines: node ">= 18.0.0" (dropped 2 older Node lines).', PACKAGE) == ["2"]
    assert [t.text for t in claim_terms("a non-UTF-8 arg fails the whole parse")] == []


LAYER = ev("lib/layer.js::Layer.prototype.handleRequest", """\
Layer.prototype.handleRequest = function handleRequest (req, res, next) {
  const fn = this.handle
  if (fn.length > 3) {
    return next()
  }
}
""", "javascript")


def test_the_first_whole_number_past_a_strict_bound():
    assert unbound("A 4-arg (error) handler is skipped: it checks `fn.length > 3`.", LAYER) == []
    assert unbound("A handler of at least 4 parameters is skipped.", LAYER) == []
    assert unbound("A 5-arg (error) handler is skipped: it checks `fn.length > 3`.", LAYER) == ["5"]
    # a value the claim gives is not read off a bound
    assert unbound("Out of the box the handler's length is 4.", LAYER) == ["4"]


GUARD_STRUCT = ev("src/lib.rs::ScopeGuard", """\
pub struct ScopeGuard<T, F> {
    value: ManuallyDrop<T>,
    dropfn: ManuallyDrop<F>,
}
""", "rust")


def test_a_name_the_claim_says_the_code_lacks():
    assert unbound("ScopeGuard holds `value: ManuallyDrop<T>` - no Option, no flag.", GUARD_STRUCT) == []
    assert unbound("ScopeGuard holds `value: ManuallyDrop<T>` behind an Option.", GUARD_STRUCT) == ["Option"]


LESS = ev("clock.go::clockTimers.Less",
          "func (a clockTimers) Less(i, j int) bool { return a[i].Next().Before(a[j].Next()) }\n", "go")


def test_a_member_of_what_a_call_returns_is_read_with_the_call():
    assert unbound("clockTimers.Less compares with Next().Before, so the list is kept ascending.", LESS) == []
    assert unbound("clockTimers.Less compares with Next().After, so the list is kept descending.", LESS) == [
        "Next().After"]
    assert [t.text for t in claim_terms("it awaits send().await there")] == ["send()"]  # Rust's .await is no member


# ----------------------------------------------------------------- pairs, manifests, signatures

MANIFEST = ev("package.json", """\
{
  "name": "finalhandler",
  "files": [
    "index.js"
  ],
  "devDependencies": {
    "obuild": "^0.4.0"
  }
}
""", "json")


def test_a_manifest_entry_written_with_its_key_bare_and_its_list_on_one_line():
    assert unbound('npm only ships index.js - package.json `files: ["index.js"]`.', MANIFEST) == []
    assert unbound('npm ships both - package.json `files: ["index.js", "lib/"]`.', MANIFEST) == [
        'files: ["index.js", "lib/"]']


def test_a_manifest_key_in_the_singular():
    assert unbound("obuild is a devDependency.", MANIFEST) == []
    assert unbound("obuild is a peerDependency.", MANIFEST) == ["peerDependency"]


ORIGIN = ev("itemadapter/_json_schema.py::update_prop_from_origin", """\
def update_prop_from_origin(prop, origin, args, prop_type, state):
    if issubclass(origin, AbstractSet):
        prop.setdefault("type", "array")
        prop.setdefault("uniqueItems", True)
""", "python")


def test_a_dict_entry_with_its_key_quoted_is_the_pair_the_code_sets():
    assert unbound('Sets map to `"type": "array"` plus `"uniqueItems": True`.', ORIGIN) == []
    assert unbound('Sets map to `"type": "set"`.', ORIGIN) == ['"type": "set"']


FINALHANDLER = ev("index.js", "var debug = require('debug')('finalhandler')\n", "javascript")


def test_a_debug_namespace_turned_on_bare():
    assert unbound("Turn on DEBUG=finalhandler to see its logs.", FINALHANDLER) == []
    assert unbound("Turn on DEBUG=express to see its logs.", FINALHANDLER) == ["DEBUG=express"]


UNWIND = ev("src/lib.rs::guard_on_unwind", """\
pub fn guard_on_unwind<T, F>(v: T, dropfn: F) -> ScopeGuard<T, F, OnUnwind>
where
    F: FnOnce(T),
{
    ScopeGuard::with_strategy(v, dropfn)
}
""", "rust")


def test_a_rust_signature_with_generics_paths_or_the_reader_s_names():
    assert unbound("`Encoded::write<W: io::Write>(&self, writer: &mut W) -> io::Result<()>` writes it all.",
                   WRITE) == []
    assert unbound("`guard_on_unwind(v, f) -> ScopeGuard<T, F, OnUnwind>`; it's with_strategy underneath.",
                   UNWIND) == []
    assert unbound("`guard_on_unwind(v, f) -> ScopeGuard<T, F, Always>`; it's with_strategy underneath.",
                   UNWIND) == ["guard_on_unwind(v, f) -> ScopeGuard<T, F, Always>"]
    assert unbound("`guard_on_unwind(v) -> ScopeGuard<T, F, OnUnwind>` takes the value alone.", UNWIND) == [
        "guard_on_unwind(v) -> ScopeGuard<T, F, OnUnwind>"]


BYTES = ev("index.js", "module.exports = bytes;\nmodule.exports.parse = parse;\nfunction parse(val) { return val }\n",
           "javascript")
VERSION_HISTORY = ev("scripts/version-history.js", "var fs = require('fs')\nvar version = fs.readFileSync('x')\n",
                     "javascript")


def test_a_member_read_through_a_package_but_not_through_the_code_s_own_file():
    assert unbound("the parser hangs off the function (require('bytes').parse).", BYTES,
                   known=frozenset({"bytes"})) == []
    assert unbound("it pulls the version via require('../package.json').version.", VERSION_HISTORY,
                   known=frozenset({"../package.json"})) == ["require('../package.json').version"]


NEW_MOCK = ev("clock.go::NewMock", "func NewMock() *Mock {\n    return &Mock{now: time.Unix(0, 0)}\n}\n", "go")
NEW_LATER = ev("clock.go::NewMock", "func NewMock() *Mock {\n    return &Mock{now: time.Unix(86400, 0)}\n}\n", "go")


def test_a_date_is_one_value_and_the_epoch_is_named_by_its_date():
    assert [(t.text, t.kind.value) for t in claim_terms("a fresh mock reads 1970-01-01 00:00:00 UTC")] == [
        ("1970-01-01 00:00:00 UTC", "string")]
    assert unbound("NewMock() starts at time.Unix(0, 0), so a fresh mock reads 1970-01-01 00:00:00 UTC.",
                   NEW_MOCK) == []
    assert unbound("A fresh mock reads 1970-01-01 00:00:00 UTC.", NEW_LATER) == ["1970-01-01 00:00:00 UTC"]
    assert unbound("A fresh mock reads 1970-01-02.", NEW_MOCK) == ["1970-01-02"]
