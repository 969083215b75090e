"""Binding classes of issue 30's round 12 (ten tuning sets: tempfile,
markupsafe, ulid, go-multierror, byteorder, http, tinydb, colorama,
bytes.js, minimatch).

Each case both ways.
"""

from __future__ import annotations

import textwrap

from memvet._claims import EvidenceText, bind, claim_terms, number_value, numbers_in


def ev(label: str, text: str, language: str) -> EvidenceText:
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), language)


def unbound(claim: str, *evidence: EvidenceText, known: frozenset[str] = frozenset()) -> list[str]:
    """The claim's unbound terms; ``known`` names are names the repository defines elsewhere."""
    return [u.term.text for u in bind(claim, list(evidence), exists=lambda term: term.text in known)]


# ----------------------------------------------------------------- octal and binary literals

CREATE = ev("src/file/imp/unix.rs::create_named", """\
    pub fn create_named(path: PathBuf, permissions: Option<&Permissions>) -> io::Result<File> {
        open_options.mode(permissions.map(|p| p.mode()).unwrap_or(0o600));
    }
""", "rust")


def test_octal_and_binary_numbers_are_values_of_their_own():
    assert number_value("0o644") == 420.0
    assert number_value("0b101") == 5.0
    assert number_value("-0x10") == -16.0
    assert numbers_in("f(0o600) | 0b11") == {384.0, 3.0}
    assert [t.text for t in claim_terms("files default to 0o644 before umask")] == ["0o644"]
    # a mode the code does not write is a value to find; the one it writes binds, in any radix
    assert unbound("named temp files on unix default to 0o644 (before umask).", CREATE) == ["0o644"]
    assert unbound("named temp files on unix default to 0o600 (before umask).", CREATE) == []
    assert unbound("named temp files on unix default to 0x180 (before umask).", CREATE) == []


# ----------------------------------------------------------------- Rust paths written in backticks

FROM_U16 = ev("src/status.rs::StatusCode.from_u16", """\
    pub fn from_u16(src: u16) -> Result<StatusCode, InvalidStatusCode> {
        if !(100..1000).contains(&src) {
            return Err(InvalidStatusCode::new());
        }
    }
""", "rust")
SHORT = ev("src/lib.rs::BE", "pub type BE = BigEndian;\n", "rust")


def test_a_backticked_rust_path_reads_as_the_path_it_is():
    # the anchored method through its type, an anchored alias through its crate
    assert unbound("`StatusCode::from_u16` accepts anything in 100..1000.", FROM_U16) == []
    assert unbound("Short names exist: `byteorder::BE` is `BigEndian`.", SHORT) == []
    # a method the code does not have, and a variant (a value: in the anchored code only)
    assert unbound("`StatusCode::from_str` accepts anything in 100..1000.", FROM_U16) == ["StatusCode::from_str"]
    assert unbound("`StatusCode::from_u16` gives `StatusCode::Teapot` for src.", FROM_U16,
                   known=frozenset({"StatusCode.Teapot"})) == ["StatusCode::Teapot"]


# ----------------------------------------------------------------- what a Rust type prints

STATUS = '''\
pub struct InvalidStatusCode {
    _priv: (),
}

impl fmt::Debug for InvalidStatusCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InvalidStatusCode").finish()
    }
}

impl fmt::Display for InvalidStatusCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid status code")
    }
}

pub struct PersistError {
    pub error: io::Error,
}

impl fmt::Display for PersistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "failed to persist temporary file: {}", self.error)
    }
}

pub struct Quiet {
    level: u8,
}
'''


def test_a_rust_types_display_impl_is_its_evidence(repo, ledger) -> None:
    repo.write("Cargo.toml", '[package]\nname = "status"\nversion = "0.1.0"\n')
    repo.write("src/status.rs", STATUS, dedent=False)
    repo.commit("status codes")
    shown = ledger.record('InvalidStatusCode displays as "invalid status code".', ["src/status.rs::InvalidStatusCode"])
    assert shown.decision.findings == ()
    # the order of its own span: the message, then the inner error it formats
    inner = ledger.record('PersistError Display: "failed to persist temporary file: {}" followed by the inner '
                          "io error.", ["src/status.rs::PersistError"])
    assert inner.decision.findings == ()
    # a message it does not print; a type with no Display impl prints nothing the claim may quote
    other = ledger.record('InvalidStatusCode displays as "bad status code".', ["src/status.rs::InvalidStatusCode"])
    assert other.decision.findings == ("`bad status code` (string) is not in src/status.rs::InvalidStatusCode, "
                                       "src/status.rs::<InvalidStatusCode as Display>.fmt; the code says "
                                       "`invalid status code`",)
    quiet = ledger.record('Quiet displays as "invalid status code".', ["src/status.rs::Quiet"])
    assert quiet.decision.findings == ("`invalid status code` (string) is not in src/status.rs::Quiet",)


# ----------------------------------------------------------------- a definition and its body on one line

def test_a_one_line_definitions_body_is_code_not_its_signature():
    from memvet._rules._common import _parse

    go = _parse(EvidenceText("ulid.go::Now", "func Now() uint64 { return Timestamp(time.Now().UTC()) }\n",
                             language="go"))
    assert [(c.name, c.receiver) for c in go.calls] == [("Timestamp", ""), ("UTC", "time.Now()")]
    assert go.physical[0] == "func Now() uint64 {" and go.headers == {0}
    # a brace inside the signature (interface{}) is not the body's; Python's body after the colon
    typed = _parse(EvidenceText("a.go::F", "func F(x interface{}) { g(x) }\n", language="go"))
    assert [c.name for c in typed.calls] == ["g"]
    python = _parse(EvidenceText("a.py::f", "def f(x) -> Dict[str, int]: return g(x)\n"))
    assert [c.name for c in python.calls] == ["g"] and python.block(0) == [1]
    # a definition whose body starts on the next line, and an empty body, are read as before
    opened = _parse(EvidenceText("a.go::F", "func F(x interface{}) {\n\th(x)\n}\n", language="go"))
    assert [c.name for c in opened.calls] == ["h"] and opened.physical[0] == "func F(x interface{}) {"
    empty = _parse(EvidenceText("a.go::F", "func F() {}\n", language="go"))
    assert empty.physical == ["func F() {}"] and empty.calls == []
