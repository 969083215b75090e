"""Binding classes of issue 30's round 8, the first fact sets in Go and Rust (usage examples in those
languages are ``test_usage.py``).

Each case both ways: an HTTP status written as a number binds where the
code names it by its platform's constant, and no other number does; a
``Prefix*`` family binds where the code has names that start so; an
operator before a number after a name is a comparison, not a version; a
message the code writes with a newline around it, or continued over a
line, binds by its words; an item of a Rust inline module is anchored by
its own name.
"""

from __future__ import annotations

import os
import re
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_binding_classes import with_placeholder
from test_claims import _calls

import memvet
from memvet._claims import _STRING_TOKEN, EvidenceText, TermKind, bind, claim_terms, code_only


def ev(label: str, text: str, language: str) -> EvidenceText:
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), language)


def unbound(claim: str, *evidence: EvidenceText) -> list[str]:
    return [u.term.text for u in bind(claim, list(evidence))]


THROTTLE = ev("middleware/throttle.go::ThrottleWithOpts", '''\
    func ThrottleWithOpts(opts ThrottleOpts) func(http.Handler) http.Handler {
        statusCode := opts.StatusCode
        if statusCode == 0 {
            statusCode = http.StatusTooManyRequests
        }
        return nil
    }
''', "go")

HTTPSTATUS = ev("app/views.py::missing", '''\
    def missing(request):
        return Response(status=HTTPStatus.NOT_FOUND)
''', "python")

CONSTANTS = ev("app/codes.py::table", '''\
    def table():
        FOUND = "found"
        return FOUND
''', "python")


def test_a_status_written_as_a_number_binds_to_the_constant_the_code_names_it_by() -> None:
    assert unbound("Without a StatusCode it replies 429 (Too Many Requests).", THROTTLE) == []
    assert unbound("Without a StatusCode it replies 503.", THROTTLE) == ["503"]
    assert unbound("A missing page is a 404.", HTTPSTATUS) == []
    assert unbound("A missing page is a 410.", HTTPSTATUS) == ["410"]
    # an upper-case word is a status name only in code that uses HTTPStatus
    assert unbound("It answers 302.", CONSTANTS) == ["302"]


CLIENT_IP = ev("middleware/client_ip.go::ClientIPFromHeader", '''\
    func ClientIPFromHeader(trustedHeader string) func(http.Handler) http.Handler {
        return ClientIPFromXFF(trustedHeader)
    }
''', "go")


def test_a_family_named_by_its_prefix_binds_where_the_code_has_such_names() -> None:
    assert unbound("Use the ClientIPFrom* middlewares instead.", CLIENT_IP) == []
    assert unbound("Use the ClientAddrFrom* middlewares instead.", CLIENT_IP) == ["ClientAddrFrom"]
    # without the star it is the name itself, which the code lacks
    assert unbound("Use ClientIPFrom instead.", CLIENT_IP) == ["ClientIPFrom"]


@pytest.mark.parametrize("claim", ["MaxElapsedTime == 0 disables it", "it stops when n >= 3", "x != 2 means off",
                                   "limit >=5 blocks"])
def test_an_operator_after_a_name_is_a_comparison_not_a_version(claim: str) -> None:
    assert not [t for t in claim_terms(claim) if t.kind is TermKind.VERSION]


@pytest.mark.parametrize("claim", ["needs requests>=2.31", "pin ==1.2.3", "works on >=3.9", "needs >= 3.9"])
def test_a_requirement_is_still_a_version(claim: str) -> None:
    assert [t for t in claim_terms(claim) if t.kind is TermKind.VERSION]


def test_a_message_binds_by_its_words_without_the_layout_around_it() -> None:
    debug = ev("src/fmt.rs::ErrorImpl.debug", '''\
        fn debug(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "\\n\\nCaused by:")?;
            Ok(())
        }
    ''', "rust")
    assert unbound('Then a blank line and "Caused by:".', debug) == []
    assert unbound('Then a blank line and "Caused:".', debug) == ["Caused:"]
    continued = ev("src/lib.rs::SET_LOGGER_ERROR", '''\
        static SET_LOGGER_ERROR: &str = "attempted to set a logger after the logging system \\
                                         was already initialized";
    ''', "rust")
    assert unbound('It says "attempted to set a logger after the logging system was already initialized".',
                   continued) == []
    assert unbound('It says "attempted to set a logger twice".', continued) == ["attempted to set a logger twice"]


LIB_RS = """\
pub mod __private {
    pub fn format_err(args: u32) -> u32 {
        args + 1
    }
}

pub mod a {
    pub fn twice() {}
}

pub mod b {
    pub fn twice() {}
}

pub struct Holder;

impl Holder {
    pub fn get(&self) -> u32 {
        1
    }
}
"""


def test_an_item_of_an_inline_module_is_anchored_by_its_own_name(repo, ledger) -> None:
    repo.write("src/lib.rs", LIB_RS, dedent=False)
    repo.commit("crate")
    rec = ledger.record("format_err adds one", ["src/lib.rs::format_err"])
    assert [a.name for a in rec.decision.anchors] == ["__private.format_err"]
    assert ledger.verify(rec.decision.id).status is memvet.Status.VERIFIED
    # two modules have it (once_cell's sync and unsync): the name names both, and a change to either
    # reopens the decision; a method is no module's item
    both = ledger.record("twice", ["src/lib.rs::twice"])
    assert [a.name for a in both.decision.anchors] == ["a.twice", "b.twice"]
    changed = LIB_RS.replace("pub mod b {\n    pub fn twice() {}", "pub mod b {\n    pub fn twice() { go() }")
    repo.write("src/lib.rs", changed, dedent=False)
    repo.commit("b changes")
    verdict = ledger.verify(both.decision.id)
    assert verdict.status is memvet.Status.STALE and "b.twice: the body changed" in verdict.reason
    with pytest.raises(memvet.AnchorNotFoundError) as info:
        ledger.record("get returns one", ["src/lib.rs::get"])
    assert "did you mean Holder.get" in str(info.value)


METADATA = ev("src/lib.rs::MetadataBuilder.new", '''\
    pub fn new() -> MetadataBuilder<'a> {
        MetadataBuilder { metadata: Metadata { level: Level::Info, target: "" } }
    }
''', "rust")

DOWNCAST = ev("src/error.rs::Error.downcast", '''\
    pub fn downcast<E>(mut self) -> Result<E, Self>
    where
        E: Display + Debug + Send + Sync + 'static,
    {
        let target = TypeId::of::<E>();
        unsafe { Ok(self.inner.downcast(target)?) }
    }
''', "rust")


def test_a_rust_enum_value_is_found_in_code_and_a_path_names_an_item() -> None:
    assert unbound("MetadataBuilder::new() starts at Level::Info.", METADATA) == []
    assert unbound("MetadataBuilder::new() starts at Level::Trace.", METADATA) == ["Level::Trace"]
    # a crate's or a module's path names its item; std's is the platform's
    assert unbound("It builds a MetadataBuilder, see anyhow::Level and std::error::Error.", METADATA) == []
    assert unbound("It builds a MetadataBuilder, see anyhow::Verbosity.", METADATA) == ["anyhow::Verbosity"]


def test_a_generic_type_is_found_as_written() -> None:
    assert unbound("downcast::<E>() returns Result<E, Self>.", DOWNCAST) == []
    assert unbound("downcast returns Option<E>.", DOWNCAST) == ["Option<E>"]


def test_a_rust_macro_names_its_crate_items_without_the_crate_path() -> None:
    log = ev("src/macros.rs::__log", '''\
        macro_rules! __log {
            ($lvl:expr, $($arg:tt)+) => {{
                let lvl = $lvl;
                if lvl <= $crate::STATIC_MAX_LEVEL && lvl <= $crate::max_level() {
                    $crate::__private_api::log(lvl, $($arg)+);
                }
            }};
        }
    ''', "rust")
    assert unbound("It checks `lvl <= STATIC_MAX_LEVEL` first, then `lvl <= max_level()`.", log) == []
    assert unbound("It checks `lvl < STATIC_MAX_LEVEL` first.", log) == ["lvl < STATIC_MAX_LEVEL"]


def test_rust_rest_stands_for_any_arguments() -> None:
    key = ev("src/kv/key.rs::Key.to_borrowed_str", '''\
        pub fn to_borrowed_str(&self) -> Option<&'k str> {
            Some(self.key.get())
        }
    ''', "rust")
    assert unbound("to_borrowed_str() is always Some(..).", key) == []
    assert unbound("to_borrowed_str() is always Ok(..).", key) == ["Ok(..)"]


def test_a_list_that_goes_on_binds_by_its_names() -> None:
    query = ev("mux.go::Mux.Query", '''\
        func (mx *Mux) Query(pattern string, handlerFn http.HandlerFunc) {
            mx.handle(mQUERY, pattern, handlerFn)
        }
        func (mx *Mux) Get(pattern string, handlerFn http.HandlerFunc) {
            mx.handle(mGET, pattern, handlerFn)
        }
    ''', "go")
    assert unbound("Query sits next to Get/Query/etc.", query) == []
    assert unbound("Query sits next to Get/Fetch/etc.", query) == ["Get/Fetch/etc"]


def test_the_language_own_names_and_a_setting_named_by_its_default_bind() -> None:
    go = ev("exponential.go::DefaultRandomizationFactor", '''\
        const DefaultRandomizationFactor = 0.5
    ''', "go")
    assert unbound("RandomizationFactor is 0.5 unless set; a nil factor panics.", go) == []
    assert unbound("JitterFactor is 0.5 unless set.", go) == ["JitterFactor"]
    manifest = EvidenceText("Cargo.toml", '[features]\ndefault = ["std"]\nstd = []\n', ("Cargo.toml",), "toml")
    assert unbound("Turn `std` off for no_std builds.", manifest) == []
    assert unbound("Turn `std` off for no_alloc builds.", manifest) == ["no_alloc"]


def test_a_header_line_with_a_placeholder_binds_to_the_value_the_code_formats() -> None:
    auth = ev("middleware/basic_auth.go::basicAuthFailed", '''\
        func basicAuthFailed(w http.ResponseWriter, realm string) {
            w.Header().Add("WWW-Authenticate", fmt.Sprintf(`Basic realm="%s"`, realm))
            w.WriteHeader(http.StatusUnauthorized)
        }
    ''', "go")
    assert unbound('It sends `WWW-Authenticate: Basic realm="<realm>"` and a 401.', auth) == []
    assert unbound('It sends `WWW-Authenticate: Bearer realm="<realm>"`.', auth) \
        == ['WWW-Authenticate: Bearer realm="<realm>"']


def test_str_parse_is_the_anchored_from_str_and_a_format_of_the_reader_value_is_theirs() -> None:
    from_str = EvidenceText("src/lib.rs::<Level as FromStr>.from_str", '''\
fn from_str(level: &str) -> Result<Level, Self::Err> {
    LOG_LEVEL_NAMES.iter().position(|&name| name.eq_ignore_ascii_case(level)).ok_or(ParseLevelError(()))
}
''', ("src/lib.rs::<Level as FromStr>.from_str", "<Level as FromStr>.from_str"), "rust")
    assert unbound('`"off".parse::<Level>()` is an error.', from_str) == []
    # another type's parse is not this impl, and a format that names a library function is no reader's own
    assert unbound('`"off".parse::<Filter>()` is an error.', from_str) == ['"off".parse::<Filter>()']
    assert unbound('`format!("{:#}", err)` prints every cause.', from_str) == []
    assert unbound('`format!("{:#}", chain(err))` prints every cause.', from_str) == ['format!("{:#}", chain(err))']


def test_an_associated_constant_is_a_name_not_a_value() -> None:
    req = ev("src/lib.rs::VersionReq", '''\
        pub struct VersionReq {
            pub comparators: Vec<Comparator>,
        }
    ''', "rust")
    known = {"VersionReq.STAR", "VersionReq.Star"}

    def unbound_in(claim: str) -> list[str]:
        return [u.term.text for u in bind(claim, [req], exists=lambda term: term.text in known)]

    # VersionReq::STAR is defined in an impl the anchor does not cover: a name, it binds where the
    # repository defines it; VersionReq::Star (a variant's shape) is a value, found in the anchored code only
    assert unbound_in("An empty VersionReq is VersionReq::STAR.") == []
    assert unbound_in("An empty VersionReq is VersionReq::Star.") == ["VersionReq::Star"]
    assert unbound_in("An empty VersionReq is VersionReq::NONE.") == ["VersionReq::NONE"]


FIRE_HOOKS = ev("entry.go::Entry.fireHooks", '''\
    func (entry *Entry) fireHooks() {
        err := entry.Logger.Hooks.Fire(entry.Level, entry)
        if err != nil {
            _, _ = fmt.Fprintln(os.Stderr, "Failed to fire hook:", err)
        }
        data["fields."+timeKey] = t
        entry.err = "skipping unsupported field " + strconv.Quote(key)
        msg := fmt.Sprintf("level %v for %q", lvl, name)
    }
''', "go")


def test_a_printed_line_a_subscript_key_and_go_verbs_are_templates() -> None:
    # Println joins its arguments with spaces; the writer is no part of the line
    assert unbound('It prints "Failed to fire hook: <err>" to stderr.', FIRE_HOOKS) == []
    assert unbound('It prints "Failed to fire hook, <err>" to stderr.', FIRE_HOOKS) == ["Failed to fire hook, <err>"]
    # a key built in a subscript
    assert unbound("A clashing key moves to `fields.<key>`.", FIRE_HOOKS) == []
    assert unbound("A clashing key moves to `extra.<key>`.", FIRE_HOOKS) == ["extra.<key>"]
    # %v and %q are Go's verbs: fields of the template
    assert unbound('It says "level <lvl> for <name>".', FIRE_HOOKS) == []
    # a claim's string with its quotes escaped inside it
    assert unbound('entry.err gets "skipping unsupported field \\"<key>\\"".', FIRE_HOOKS) == []
    assert unbound('entry.err gets "skipping unknown field \\"<key>\\"".', FIRE_HOOKS) \
        == ['skipping unknown field "<key>"']


# ------------------------------------------------------------------ property, in Go and Rust

GO_QUEUE = """\
func (q *Queue) Push(item Item, priority int) error {
    if priority < 0 {
        return fmt.Errorf("negative priority %d for %s", priority, item.Name)
    }
    q.mu.Lock()
    defer q.mu.Unlock()
    q.items = append(q.items, entry{item: item, priority: priority})
    sort.SliceStable(q.items, q.less)
    log.Printf("queue grew to %d items", len(q.items))
    return nil
}
"""

RUST_CACHE = """\
pub fn insert(&mut self, key: String, value: Vec<u8>) -> Result<Option<Vec<u8>>, CacheError> {
    if value.len() > self.max_entry_bytes {
        return Err(CacheError::TooLarge(value.len()));
    }
    let evicted = self.evict_until(self.max_total_bytes - value.len());
    self.metrics.record_insert(key.len(), value.len());
    log::debug!("inserted entry for cache key {}", key);
    Ok(self.entries.insert(key, value).or(evicted))
}
"""


def _pieces(code: str, draw: st.DrawFn) -> list[str]:
    """What people copy from Go or Rust code into a note: its calls as written, some arguments left out as
    ``...``; its messages with a word replaced by a placeholder."""
    out: list[str] = []
    for line in code.splitlines():
        for call in _calls(line):
            inner = call[call.index("(") + 1: -1]
            if not inner.strip() or re.search(r"[\"'{}<>&|]", inner):
                continue
            args = [a.strip() for a in inner.split(",")]
            keep = draw(st.lists(st.booleans(), min_size=len(args), max_size=len(args)))
            shown = ", ".join(a if k else "..." for a, k in zip(args, keep, strict=True))
            out.append(f"`{call[: call.index('(')]}({shown})`")
    for m in _STRING_TOKEN.finditer(code):
        words = m.group(0)[1:-1].split()
        if len(words) >= 3 and all(re.fullmatch(r"[A-Za-z]+", w) for w in words[:2]):
            out.append(with_placeholder(words, draw))
    return out


@settings(max_examples=int(os.environ.get("MEMVET_PROPERTY_EXAMPLES", "150")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_go_or_rust_claim_made_of_its_code_always_binds(data: st.DataObject) -> None:
    label, source, language = data.draw(st.sampled_from([
        ("queue.go::Queue.Push", GO_QUEUE, "go"), ("src/cache.rs::Cache.insert", RUST_CACHE, "rust")]))
    pieces = _pieces(code_only(source, language), data.draw)
    assert pieces
    chosen = data.draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=4))
    claim = " and ".join(f"it says {c}" for c in chosen)
    evidence = EvidenceText(label, source, (label, label.split("::", 1)[1]), language)
    assert bind(claim, [evidence]) == [], claim


def test_the_go_and_rust_pieces_bind_only_as_their_code_says_them() -> None:
    go = EvidenceText("queue.go::Queue.Push", GO_QUEUE, ("queue.go::Queue.Push", "Queue.Push"), "go")
    rust = EvidenceText("src/cache.rs::Cache.insert", RUST_CACHE, ("src/cache.rs::Cache.insert", "Cache.insert"),
                        "rust")
    assert unbound('it says "queue grew to <x> items" and `sort.SliceStable(..., ...)`', go) == []
    assert unbound('it says "queue shrank to <x> items"', go) == ["queue shrank to <x> items"]
    assert unbound("it says `sort.Stable(q.items)`", go) == ["sort.Stable(q.items)"]
    assert unbound("it says `self.metrics.record_insert(key.len(), ...)`", rust) == []
    assert unbound("it says `self.metrics.record_evict(key.len(), ...)`", rust) \
        == ["self.metrics.record_evict(key.len(), ...)"]
