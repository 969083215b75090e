"""The bases rule's fixture: what a class is (or is not) a kind of, against its class statement."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.bases import RULE

PY = EvidenceText("exceptions.py::ConnectTimeout", """\
class ConnectTimeout(ConnectionError, Timeout):
    \"\"\"Only a Timeout, some say.\"\"\"
""")
TS = EvidenceText("a.ts::Dog", "export class Dog extends Animal implements Pet {\n  bark() {}\n}\n")
PLAIN = EvidenceText("a.py::Cat", "class Cat(object):\n    pass\n")
FIELDS = EvidenceText("parse.py::TooManyFields", "class TooManyFields(ValueError):\n    pass\n")

JMES = EvidenceText("jmespath/exceptions.py::JMESPathError", """\
class JMESPathError(ValueError):
    pass
""")

GRAMMAR = EvidenceText("parsimonious/grammar.py::Grammar", """\
class Grammar(OrderedDict):
    def __init__(self, rules='', **more_rules):
        self.update(more_rules)
""")
PERROR = EvidenceText("parsimonious/exceptions.py::ParsimoniousError", """\
class ParsimoniousError(Exception):
    pass
""")


WARNING = EvidenceText("src/pyproject_hooks/_impl.py::BuildBackendWarning", """\
class BuildBackendWarning(UserWarning):
    \"\"\"Will be emitted for every UserWarning emitted by the hook process.\"\"\"
""")


HPACK_ERRORS = [EvidenceText("src/hpack/exceptions.py::InvalidTableIndexError", """\
class InvalidTableIndexError(HPACKDecodingError):
    \"\"\"An invalid table index was received.\"\"\"
"""), EvidenceText("src/hpack/exceptions.py::InvalidTableIndex", """\
class InvalidTableIndex(InvalidTableIndexError):  # noqa: N818
    \"\"\"An invalid table index was received. Kept for backwards compatibility.\"\"\"
""")]

VERIFY_MISMATCH = EvidenceText("src/argon2/exceptions.py::VerifyMismatchError", """\
class VerifyMismatchError(VerificationError):
    \"\"\"The secret does not match the hash.\"\"\"
""")


FIRES = [
    # "X is a (plain) Y subclass", an aside before the verb, a built-in type in lower case
    ("Grammar is a plain dict subclass, so rule order is insertion order.", GRAMMAR),
    ("ParsimoniousError, the base of every parsimonious exception, subclasses ValueError.", PERROR),
    ("ParsimoniousError is a ValueError subclass.", PERROR),
    # round 14: "subclasses plain Y" names the direct base
    ("JMESPathError subclasses plain `Exception`, so `except ValueError` won't catch it.", JMES),
    ("ConnectTimeout is only a Timeout; except ConnectionError does not catch it.", PY),
    ("ConnectTimeout only subclasses Timeout.", PY),
    ("ConnectTimeout does not subclass ConnectionError.", PY),
    ("ConnectTimeout is not a Timeout.", PY),
    ("Dog is only a Pet.", TS),
    ("Dog doesn't extend Animal.", TS),
    ("`Dog` is only a `Pet`.", TS),
    ("ConnectTimeout derives directly from BaseTimeout.", PY),
    ("ConnectTimeout inherits straight from BaseTimeout.", PY),
    ("Dog is a direct subclass of Mammal.", TS),
    # round 13: a built-in base, whose whole ancestry is known
    ("TooManyFields derives from RuntimeError, so `except ValueError` won't catch it.", FIELDS),
    ("TooManyFields is a subclass of KeyError.", FIELDS),
    # round 22 (pyproject-hooks f01): "X is a Y" where both are Python's built-ins
    ("BuildBackendWarning is a RuntimeWarning, so filters on UserWarning won't touch it.", WARNING),
    # the class the claim makes the base derives from the claim's class: a class is never its own ancestor
    ("InvalidTableIndexError is the deprecated spelling, kept as a subclass of InvalidTableIndex.", HPACK_ERRORS),
    ("InvalidTableIndexError derives from InvalidTableIndex.", HPACK_ERRORS),
    # round 33: the adverb after the base
    ("VerifyMismatchError subclasses Argon2Error directly (sibling of VerificationError).", VERIFY_MISMATCH),
]

SILENT = [
    ("Grammar is an OrderedDict subclass.", GRAMMAR),
    ("Grammar is a dict subclass (through OrderedDict).", GRAMMAR),
    ("ParsimoniousError is an Exception subclass.", PERROR),
    ("ParsimoniousError, the base of every parsimonious exception, subclasses Exception.", PERROR),
    ("JMESPathError subclasses plain `ValueError`.", JMES),
    ("ConnectTimeout subclasses both ConnectionError and Timeout.", PY),
    ("ConnectTimeout is a Timeout.", PY),
    ("ConnectTimeout is not a ReadTimeout.", PY),
    ("Dog is not a Cat.", TS),
    ("ConnectTimeout derives directly from Timeout.", PY),
    ("ConnectTimeout inherits straight from Timeout.", PY),
    ("Dog directly extends Animal.", TS),
    ("ConnectTimeout subclasses BaseTimeout.", PY),  # maybe through Timeout: not a direct claim
    ("Cat is not an Animal.", PLAIN),
    # a class the anchored code has no statement for: its bases are not known
    ("Horse is only a Pet.", TS),
    # round 13: an ancestor of the built-in base; a base of the project's own (its ancestry is not read)
    ("TooManyFields derives from Exception, so except Exception catches it.", FIELDS),
    ("TooManyFields subclasses ValueError.", FIELDS),
    ("ConnectTimeout derives from RuntimeError.", PY),
    ("Dog extends Mammal.", TS),
    # round 22: "is a" names the base, an ancestor of it, or a class that is no built-in
    ("BuildBackendWarning is a UserWarning.", WARNING),
    ("BuildBackendWarning is a Warning, so except Warning catches it.", WARNING),
    ("BuildBackendWarning is a BackendWarning.", WARNING),
    ("TooManyFields is a Timeout.", PY),
    ("InvalidTableIndex is the old name, kept as a subclass of InvalidTableIndexError.", HPACK_ERRORS),
    ("get_by_index raises InvalidTableIndex (it's a subclass of InvalidTableIndexError, so either works).",
     HPACK_ERRORS),
    # the claim's base is not anchored: its bases are not known here
    ("InvalidTableIndex derives from HPACKError.", HPACK_ERRORS),
    ("VerifyMismatchError subclasses VerificationError directly.", VERIFY_MISMATCH),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_class_statement():
    [line] = fired("ConnectTimeout is only a Timeout.", PY)
    assert line == ("the claim says `ConnectTimeout is only a Timeout`, but exceptions.py::ConnectTimeout says "
                    "`class ConnectTimeout(ConnectionError, Timeout):`")

