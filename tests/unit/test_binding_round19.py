"""Binding classes of issue 30's round 19 (tuning sets: cespare/xxhash,
jaraco/zipp and eight sets written blind at the round's start).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

# ------------------------------------------------------ a signature's names in another order

JUNK = ev("difflib/difflib.go::NewMatcherWithJunk", """\
    func NewMatcherWithJunk(a, b []string, autoJunk bool,
        isJunk func(string) bool) *SequenceMatcher {
        m := SequenceMatcher{IsJunk: isJunk, autoJunk: autoJunk}
        m.SetSeqs(a, b)
        return &m
    }
""", "go")


def test_a_signature_written_with_its_names_in_another_order_does_not_bind():
    assert unbound("Call it as NewMatcherWithJunk(a, b, isJunk, autoJunk): predicate third.", JUNK) == [
        "NewMatcherWithJunk(a, b, isJunk, autoJunk)"]
    # the code's order binds, and so does an example of the reader's own values
    assert unbound("Call it as NewMatcherWithJunk(a, b, autoJunk, isJunk).", JUNK) == []
    assert unbound("NewMatcherWithJunk(x, y, false, nil) turns the heuristic off.", JUNK) == []


# ------------------------------------------- a signature written out without its last defaults

DURATIONS = ev("funcy/debug.py::log_durations.__init__", """\
    class log_durations(LabeledContextDecorator):
        def __init__(self, print_func, label=None, unit='auto', threshold=-1, repr_len=REPR_LEN):
            LabeledContextDecorator.__init__(self, print_func, label=label, repr_len=repr_len)
            self.threshold = threshold
""", "python")


def test_a_signature_without_its_trailing_defaults_is_read_for_its_defaults():
    assert unbound("log_durations(print_func, label=None, unit='auto', threshold=0) - zero threshold.",
                   DURATIONS) == ["log_durations(print_func, label=None, unit='auto', threshold=0)"]
    assert unbound("log_durations(print_func, label=None, unit='auto', threshold=-1) by default.",
                   DURATIONS) == []
    # keywords out of the signature's order are an example of a call, not the signature
    assert unbound("log_durations(print, unit='ms') logs in milliseconds.", DURATIONS) == []
    # keywords only, not all of them: a use of the class, its values the reader's
    assert unbound("log_durations(print_func=log, label='db') names the block.", DURATIONS) == []


# ----------------------------------------------------------- one size written in bytes and bits

DIGEST = ev("xxhash.go::Digest.Size", """\
    func (d *Digest) Size() int { return 8 }
""", "go")
MAGIC = ev("xxhash.go::magic", """\
    const (
        magic         = "xxh\\x06"
        marshaledSize = len(magic) + 8*5 + 32
    )
""", "go")


def test_a_size_in_bits_binds_where_the_claim_gives_it_in_bytes_too():
    assert unbound("Digest.Size() is hard-coded to 8 (bytes of a 64-bit hash).", DIGEST) == []
    # without the bytes, or with a width that is not the code's size, the number stands alone
    assert unbound("Digest.Size() reports a 64-bit hash.", DIGEST) == ["64"]
    assert unbound("Digest.Size() is hard-coded to 8 (bytes of a 128-bit hash).", DIGEST) == ["128"]


def test_a_size_in_bytes_binds_to_the_length_of_the_string_the_claim_quotes():
    assert unbound('Serialized state starts with the 4-byte magic `"xxh\\x06"`.', MAGIC) == []
    assert unbound('Serialized state starts with the 6-byte magic `"xxh\\x06"`.', MAGIC) == ["6"]
    # a quoted string whose escapes do not read (a truncated \\x) has no length to give
    assert unbound('Serialized state starts with the 3-byte magic `"ab\\x"`.', MAGIC) == ["3", '"ab\\x"']


# ------------------------------------------------------------ a TypeScript function's generics

SNAKE = ev("src/index.ts::snakeCase", """\
    export function snakeCase(): "";
    export function snakeCase<T extends string | readonly string[]>(
      str: T,
    ): SnakeCase<T>;
    export function snakeCase<T extends string | readonly string[]>(str?: T) {
      return kebabCase(str || "", "_") as SnakeCase<T>;
    }
""", "typescript")


def test_a_generic_typescript_function_is_a_definition_of_its_parameters():
    assert unbound('snakeCase(str) delegates to `kebabCase(str || "", "_")`.', SNAKE) == []
    assert unbound("snakeCase(str, sep) joins with sep.", SNAKE) == ["snakeCase(str, sep)"]


# ------------------------------------------------- what a manifest ships with, and what it builds with

def test_a_development_dependency_is_no_runtime_one(repo, ledger) -> None:
    repo.write("package.json", '{\n  "name": "raw-body",\n  "dependencies": {\n    "bytes": "^3.1.2"\n  },\n'
                               '  "devDependencies": {\n    "iconv-lite": "^0.7.0"\n  }\n}\n')
    repo.write("index.js", "module.exports = function getBody(s) { return s }\n")
    repo.commit("package")
    rec = ledger.record("raw-body pulls in iconv-lite as a runtime dependency for its decoding.",
                        ["dep:iconv-lite"])
    assert rec.decision.findings == ("the claim says `runtime dependency`; the manifest declares it in "
                                     '`devDependencies`, but dep:iconv-lite says `"iconv-lite": "^0.7.0"`',)
    for claim, anchor in (("bytes is a runtime dependency.", "dep:bytes"),
                          ("iconv-lite is only a dev dependency, for the tests.", "dep:iconv-lite"),
                          # nothing it ships with is said to be none: a dev-only package says nothing of that
                          ("raw-body has no runtime dependencies besides what it parses with.", "dep:iconv-lite"),
                          # the section is evidence too: "devDependencies" is the manifest's word
                          ("iconv-lite sits in devDependencies.", "dep:iconv-lite")):
        assert ledger.record(claim, [anchor]).decision.findings == (), claim


def test_a_manifest_anchored_as_a_file_is_read_for_what_it_ships_with(repo, ledger) -> None:
    repo.write("pyproject.toml", '[project]\nname = "parsimonious"\ndependencies = ["regex>=2022.3.15"]\n\n'
                                 '[project.optional-dependencies]\ntesting = ["pytest"]\n')
    repo.write("app.py", "class Regex:\n    pass\n")
    repo.commit("manifest")
    rec = ledger.record("parsimonious is dependency-free: Regex rules use the stdlib re only.", ["pyproject.toml"])
    assert rec.decision.findings == ("the claim says `dependency-free`, but pyproject.toml says "
                                     '`dependencies = ["regex>=2022.3.15"]`',)
    # the claim names the package the manifest ships with, as the manifest writes it
    rec = ledger.record("No dependencies other than regex.", ["pyproject.toml"])
    assert rec.decision.findings == ()
    repo.write("pyproject.toml", '[project]\nname = "p"\ndependencies = []\n\n[dependency-groups]\ntest = ["pytest"]\n')
    repo.commit("no deps")
    rec = ledger.record("p has zero runtime dependencies; pytest is for the tests.", ["pyproject.toml"])
    assert rec.decision.findings == ()


def test_a_manifest_file_that_does_not_parse_says_nothing_of_dependencies(repo, ledger) -> None:
    repo.write("package.json", '{\n  "name": "x",\n  "dependencies": {\n')
    repo.commit("broken")
    rec = ledger.record("x has no runtime dependencies.", ["package.json"])
    assert rec.decision.findings == ()


# ------------------------------------------------------ the claim's own arithmetic, worked out

NATURALDATE = ev("src/humanize/time.py::naturaldate", """\
    def naturaldate(value):
        delta = _abs_timedelta(value - dt.date.today())
        if delta.days >= 5 * 365 / 12:
            return naturalday(value, "%b %d %Y")
        return naturalday(value)
""", "python")
CACHE = ev("jmespath/parser.py::Parser", """\
    class Parser:
        _MAX_SIZE = 128

        def _free_cache_entries(self):
            for key in random.sample(list(self._CACHE.keys()), int(self._MAX_SIZE / 2)):
                self._CACHE.pop(key, None)
""", "python")


def test_a_number_the_claim_works_out_from_the_code_s_expression_binds():
    assert unbound("naturaldate switches when delta.days >= 5 * 365 / 12 (~152 days).", NATURALDATE) == []
    assert unbound("Eviction pops `_MAX_SIZE / 2` keys, i.e. 64.", CACHE) == []
    # a result the expression does not give, or an approximation only where the claim says so
    assert unbound("naturaldate switches when delta.days >= 5 * 365 / 12 (~160 days).", NATURALDATE) == ["160"]
    assert unbound("naturaldate switches when delta.days >= 5 * 365 / 12 = 152 days.", NATURALDATE) == ["152"]
    assert unbound("Eviction pops `_MAX_SIZE / 2` keys, i.e. 32.", CACHE) == ["32"]
    # the expression's numbers must be the code's too
    assert unbound("Eviction pops `_MAX_SIZE / 4` keys, i.e. 32.", CACHE) == ["_MAX_SIZE / 4", "32"]
