"""Binding classes of issue 30's round 11 (ten tuning sets: cast,
content-disposition, cron, mux, termcolor, httparse, itsdangerous, parse,
negotiator, ufo).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

from memvet._claims import TermKind, _other_message, anchored_patterns, claim_terms

# ----------------------------------------------------------------- quantities compared

TO_DURATION = ev("time.go::ToDurationE", """\
    func ToDurationE(i any) (d time.Duration, err error) {
    \tif !strings.ContainsAny(s, "nsu\u00b5mh") {
    \t\td, err = time.ParseDuration(s + "ns")
    \t}
    }
""", "go")


def test_a_comparison_with_a_quantity_is_no_version():
    # `== 1000ns` is a result compared, like `== 0`; `pkg==1.0rc1` is still a requirement
    claim = 'ToDurationE("1000") == 1000ns: without any of "nsu\u00b5mh" it appends "ns".'
    assert TermKind.VERSION not in {t.kind for t in claim_terms(claim)}
    assert unbound(claim, TO_DURATION) == []
    assert [t.text for t in claim_terms("pin requests==2.31rc1") if t.kind is TermKind.VERSION] == ["requests==2.31rc1"]
    assert unbound('ToDurationE("1000") == 1000ns: without any of "nsuvwx" it appends "ns".', TO_DURATION) \
        == ["nsuvwx"]


# ----------------------------------------------------------------- patterns that name only characters

CREATE_PARAMETERS = ev("src/index.ts::createParameters", """\
    function createParameters(filename, fallback = true) {
      if (!ASCII_TEXT_REGEXP.test(fallback)) {
        throw new TypeError('Fallback must be valid US-ASCII: ' + fallback);
      }
    }
    const ASCII_TEXT_REGEXP = /^[\\x20-\\x7e]*$/;
    const UNIT = /^(?<value>\\d+) *(?<unit>ms|s|days?)$/i;
""", "typescript")


def test_a_pattern_of_characters_only_takes_no_message():
    # /^[\x20-\x7e]*$/ takes any printable sentence: a message it takes is no input the code names
    assert unbound('It throws TypeError "Fallback must be ISO-8859-1: <fallback>".', CREATE_PARAMETERS) \
        == ["Fallback must be ISO-8859-1: <fallback>"]
    assert unbound('It throws TypeError "Fallback must be valid US-ASCII: <fallback>".', CREATE_PARAMETERS) == []
    # a pattern that writes words of its own still reads its inputs
    assert unbound("It reads '2 Days' and '5 ms'.", CREATE_PARAMETERS) == []


def test_one_set_of_characters_repeated_is_no_input_format():
    for pattern in (r"/^[\x20-\x7e]*$/", r"/^[!#$%&'*+.0-9A-Z^_`a-z|~-]+$/", r're.fullmatch(r"\d+", s)',
                    r"/^\w{2,5}$/"):
        assert anchored_patterns(pattern) == [], pattern
    for pattern in (r"/^v?\d+$/", r"/^(\d+)\.(\d+)$/", r"/^(?:ms|s)$/"):
        assert anchored_patterns(pattern), pattern


# ----------------------------------------------------------------- messages a claim writes with placeholders

UNSIGN = ev("src/itsdangerous/timed.py::TimestampSigner.unsign", """\
    def unsign(self, signed_value, max_age=None):
        if sep not in result:
            raise BadTimeSignature("timestamp missing", payload=result)
        if age > max_age:
            raise SignatureExpired(
                f"Signature age {age} > {max_age} seconds",
                payload=value,
            )
        if age < 0:
            raise SignatureExpired(f"Signature age {age} < 0 seconds", payload=value)
""", "python")
EXPIRED = ev("src/itsdangerous/exc.py::SignatureExpired", """\
    class SignatureExpired(BadTimeSignature):
        def __init__(self, message, payload=None, date_signed=None):
            super().__init__(message, payload)
""", "python")
LOAD = ev("src/itsdangerous/serializer.py::Serializer.load_payload", """\
    def load_payload(self, payload, serializer=None):
        try:
            return use_serializer.loads(payload)
        except Exception as e:
            raise BadPayload(
                "Could not load the payload because an exception"
                " occurred on unserializing the data.",
                original_error=e,
            ) from e
""", "python")


def test_words_beside_the_claims_placeholders_are_the_messages_own():
    # the placeholders mark the fields: "exceeds" is wording, not an example value a field holds
    assert unbound('It raises SignatureExpired("Signature age <age> exceeds <max_age> seconds").', UNSIGN) \
        == ['SignatureExpired("Signature age <age> exceeds <max_age> seconds")']
    assert unbound('It raises SignatureExpired("Signature age <age> > <max_age> seconds").', UNSIGN) == []
    # no placeholder: the words in the fields are the example's ("Signature age 12 > 10 seconds")
    assert unbound('It raises SignatureExpired("Signature age 12 > 10 seconds").', UNSIGN) == []
    # a placeholder and an example value side by side, each in a field of the code's
    hooks = ev("_manager.py::add_hookspecs", """\
        def add_hookspecs(self, module_or_class):
            if not names:
                raise ValueError(f"did not find any {self.project_name!r} hooks in {module_or_class!r}")
    """, "python")
    assert unbound('It raises ValueError("did not find any \'proj\' hooks in <module>").', hooks) == []
    assert unbound('It raises ValueError("did not find any \'proj\' hook classes in <module>").', hooks) \
        == ['ValueError("did not find any \'proj\' hook classes in <module>")']


def test_a_message_the_code_raises_in_other_words_is_not_an_example_of_the_constructor():
    # the class's signature takes any message; which one the code raises is the claim's content
    assert unbound('A missing timestamp raises BadTimeSignature("Missing timestamp").', UNSIGN, EXPIRED) \
        == ['BadTimeSignature("Missing timestamp")']
    assert unbound('A missing timestamp raises BadTimeSignature("timestamp missing").', UNSIGN, EXPIRED) == []
    # literals side by side are one message
    assert unbound('It raises BadPayload("Could not load the payload because an exception occurred on '
                   'unserializing the data.", original_error=e).', LOAD) == []
    assert unbound('It raises BadPayload("Could not decode the payload.", original_error=e).', LOAD) \
        == ['BadPayload("Could not decode the payload.", original_error=e)']


# ----------------------------------------------------------------- alternatives joined with slashes

def test_short_forms_joined_by_slashes_are_prose():
    for claim in ("Trailing SP/HTAB/CR/LF are trimmed.", "It detects a 0b/0o/0x prefix.", "AVX2/SSE4.2 are used.",
                  "Normal colors use the 3x/4x codes.", "after `HTTP/1.x` a space must follow",
                  "tabs/VT/FF are rejected"):
        assert [t.text for t in claim_terms(claim) if t.kind is TermKind.PATH] == [], claim
    # a path is still a path: folders and a file name, or plain lower-case words
    for claim, path in (("See src/simd/avx2.rs.", "src/simd/avx2.rs"), ("in lib/HTTP/client", "lib/HTTP/client"),
                        ("cmd/godotenv/cmd.go parses flags", "cmd/godotenv/cmd.go")):
        assert [t.text for t in claim_terms(claim) if t.kind is TermKind.PATH] == [path], claim
    # the code's own first literal, alone or joined, is no other message
    assert not _other_message(["'query parser'", "'extended'"], ["set('query parser', 'simple')"])
    assert _other_message(["'query parsing'"], ["set('query parser', 'simple')"])
    assert not _other_message(["'a b c d'"], ['E("a b" " c d", x)'])
    # a call that passes something else than a literal first leaves the message open
    assert not _other_message(["'a b'"], ['E("c d")', "E(str(err))"])


# ----------------------------------------------------------------- a test written as code

VERIFY = ev("src/itsdangerous/signer.py::HMACAlgorithm.verify_signature", """\
    class HMACAlgorithm(SigningAlgorithm):
        def verify_signature(self, key, value, sig):
            return hmac.compare_digest(sig, self.get_signature(key, value))

        def get_signature(self, key, value):
            return hmac.new(key, msg=value, digestmod=self.digest_method).digest()
""", "python")


def test_an_equality_test_the_code_does_not_make_is_no_usage_example():
    # the reader's variables around the library's call: a use, unless the claim writes a test the code makes
    assert unbound("verify_signature just does `sig == self.get_signature(key, value)`.", VERIFY) \
        == ["sig == self.get_signature(key, value)"]
    assert unbound("verify_signature does `hmac.compare_digest(sig, self.get_signature(key, value))`.", VERIFY) == []
    assert unbound("Call `algo.get_signature(my_key, b'data')` to sign.", VERIFY) == []


# ----------------------------------------------------------------- a project said to depend on nothing

def test_no_dependencies_with_a_dependency_anchored_is_a_finding(repo, ledger) -> None:
    repo.write("package.json",
               '{\n  "name": "negotiator",\n  "dependencies": {\n    "content-type": "^2.1.0"\n  }\n}\n')
    repo.write("index.js", "module.exports = function negotiate(h) { return h }\n")
    repo.commit("package")
    rec = ledger.record("negotiator has no runtime dependencies, everything is parsed in-house.",
                        ["dep:content-type"])
    assert rec.decision.findings == ("the claim says `no runtime dependencies`, but dep:content-type says "
                                     '`"content-type": "^2.1.0"`',)
    rec = ledger.record("negotiator parses media types with content-type.", ["dep:content-type"])
    assert rec.decision.findings == ()
    # a claim about absence anchored as one: nothing of the project is declared by it
    rec = ledger.record("negotiator is dependency-free in the browser build.", ["index.js::negotiate"])
    assert rec.decision.findings == ()
    # the claim names the dependency it has: the claim's to say
    rec = ledger.record("No dependencies besides content-type.", ["dep:content-type"])
    assert rec.decision.findings == ()
    # a manifest anchored as a file is read for what it ships with (round 19)
    rec = ledger.record("negotiator ships with no runtime dependencies.", ["package.json"])
    assert rec.decision.findings == ("the claim says `no runtime dependencies`, but package.json says "
                                     '`"content-type": "^2.1.0"`',)
