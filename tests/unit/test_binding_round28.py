"""Binding classes of issue 30's round 28 (tuning sets: rust-random/getrandom,
pexpect/ptyprocess and four sets written blind at the round's start:
jonboulle/clockwork, pyfisch/httpdate, pytest-dev/iniconfig, unjs/rc9).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

# ------------------------------------------- a statement of the code's own body is never a reader's use of it

DEFLATE = ev("extensions.py::PerMessageDeflate.__init__", """\
    def __init__(self, client_no_context_takeover: bool = False) -> None:
        self.client_no_context_takeover = client_no_context_takeover
        self._enabled = False
""", "python")


def test_a_member_set_on_self_binds_only_as_the_code_writes_it():
    assert unbound("The constructor sets `self._enabled = True`.", DEFLATE) == ["self._enabled = True"]
    assert unbound("The constructor sets `self._enabled = False`.", DEFLATE) == []


# ------------------------------------------------- a Python builtin that calls the protocol method anchored

PARSE_ERROR = ev("exceptions.py::ParseError.__str__", """\
    def __str__(self) -> str:
        return f"{self.path}:{self.lineno + 1}: {self.msg}"
""", "python")
INI_ITER = ev("__init__.py::IniConfig.__iter__", """\
    def __iter__(self) -> Iterator[SectionWrapper]:
        for name in sorted(self.sections, key=self.lineof):
            yield SectionWrapper(self, name)
""", "python")
ENSURE = ev("six.py::ensure_text", """\
    def ensure_text(s, encoding="utf-8"):
        if isinstance(s, bytes):
            return s.decode(encoding)
        return s
""", "python")


def test_a_builtin_binds_to_the_protocol_method_it_calls():
    assert unbound("str(err) shows the line 1-based.", PARSE_ERROR) == []
    assert unbound("iter(ini) yields sections in file order.", INI_ITER) == []


def test_a_builtin_stays_unbound_without_its_method_or_on_an_expression():
    assert unbound("ensure_text passes anything else through str(obj).", ENSURE) == ["str(obj)"]
    assert unbound("len(ini) counts the sections.", INI_ITER) == ["len(ini)"]
    assert unbound("str(err.path) is the file name.", PARSE_ERROR) == ["str(err.path)"]


# ------------------------------------------- the one dependency a claim names, against the manifest's list

def _findings(ledger, claim: str, anchor: str) -> tuple[str, ...]:
    return ledger.record(claim, [anchor]).decision.findings


def _commit(repo, files: dict[str, str]) -> None:
    for path, text in files.items():
        repo.write(path, text)
    repo.commit("files")


def test_the_only_dependency_is_read_against_what_the_manifest_ships_with(repo, ledger) -> None:
    _commit(repo, {"package.json": '{\n  "name": "rc9",\n  "dependencies": {\n    "defu": "^6.1.7",\n'
                                   '    "destr": "^2.0.5"\n  },\n'
                                   '  "devDependencies": {\n    "flat": "^6.0.1"\n  }\n}\n',
                   "src/index.ts": "export function parse(s: string) { return s }\n"})
    assert _findings(ledger, "The only runtime dependency is defu.", "package.json") == (
        "the claim says `only runtime dependency`; the manifest also declares `destr`, "
        'but package.json says `"destr": "^2.0.5"`',)
    assert _findings(ledger, "destr is a devDep that gets inlined; the only runtime dependency is defu.",
                     "package.json") == (
        "the claim calls `destr` a development dependency; the manifest declares it in "
        '`dependencies`, but package.json says `"destr": "^2.0.5"`',)
    for claim in ("The only runtime dependencies are defu and destr.",
                  "defu is the only dependency besides destr.",
                  "flat is a devDep; the only runtime deps are defu and destr.",
                  # a name the manifest does not write: the claim's one dependency is spelled otherwise
                  "The only dependency is Defu."):
        assert _findings(ledger, claim, "package.json") == (), claim


GO_MOD = "module example.com/g\n\ngo 1.21\n\nrequire (\n\tgithub.com/golang/protobuf v1.5.4\n\t{}\n)\n"


def test_an_indirect_go_requirement_is_no_dependency_of_the_module(repo, ledger) -> None:
    claim = "The only direct dependency is github.com/golang/protobuf."
    _commit(repo, {"go.mod": GO_MOD.format("google.golang.org/protobuf v1.33.0 // indirect"), "g.go": "package g\n"})
    assert _findings(ledger, claim, "go.mod") == ()
    _commit(repo, {"go.mod": GO_MOD.format("google.golang.org/protobuf v1.33.0")})
    assert _findings(ledger, claim, "go.mod") == (
        "the claim says `only direct dependency`; the manifest also declares "
        "`google.golang.org/protobuf`, but go.mod says `google.golang.org/protobuf v1.33.0`",)
