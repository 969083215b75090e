"""The raises rule's fixture: the claim's exception class for a message the code raises as another."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules import contradictions
from memvet._rules.raises import RULE

SINGLETON = EvidenceText("src/filelock/_api.py::FileLockMeta.__call__", """\
    def __call__(cls, lock_file, timeout=-1):
        if cls._creating:
            msg = f"Singleton lock construction is already active for {lock_file!s}"
            raise RuntimeError(msg)
        if not non_matching:
            return instance
        msg = "Singleton lock instances cannot be initialized with differing arguments"
        msg += "\\nNon-matching arguments: "
        raise ValueError(msg)
""")
COOKIE = EvidenceText("src/index.ts::stringifyCookie", """\
export function stringifyCookie(cookie, options) {
  if (!cookieNameRegExp.test(name)) {
    throw new TypeError(`cookie name is invalid: ${name}`);
  }
  if (value.length > 4096) throw new RangeError("cookie value is too long");
}
""")
ONLY = EvidenceText("jwt/api_jwt.py::PyJWT._validate_iat", """\
    def _validate_iat(self, payload, now, leeway):
        try:
            iat = int(payload["iat"])
        except ValueError:
            raise InvalidIssuedAtError(
                "Issued At claim (iat) must be an integer."
            ) from None
""")

BASE64 = EvidenceText("src/itsdangerous/encoding.py::base64_decode", """\
def base64_decode(string):
    try:
        return base64.urlsafe_b64decode(string)
    except (TypeError, ValueError) as e:
        raise BadData("Invalid base64-encoded data") from e
""")
PAYLOAD = EvidenceText("src/itsdangerous/exc.py::BadPayload", """\
class BadPayload(BadData):
    def __init__(self, message, original_error=None):
        super().__init__(message)
""")
PAYLOAD_BASE = EvidenceText("src/itsdangerous/exc.py::BadData", """\
class BadData(Exception):
    message: str
""")

ETAG = EvidenceText("index.js::etag", """\
function etag (entity, options) {
  if (entity == null) {
    throw new TypeError('argument entity is required')
  }
  var isStats = isstats(entity)
  if (!isStats && typeof entity !== 'string' && !Buffer.isBuffer(entity)) {
    throw new TypeError('argument entity must be string, Buffer, or fs.Stats')
  }
}
""")
GET_ITEM = EvidenceText("store.py::Store.get", """\
def get(self, key):
    if key not in self.items:
        raise KeyError("no item with that name")
    return self.items[key]
""")


UNIQUE = EvidenceText("voluptuous/validators.py::Unique.__call__", """\\
    def __call__(self, v):
        try:
            set_v = set(v)
        except TypeError as e:
            raise TypeInvalid(self.msg or 'contains unhashable elements: {0}'.format(e))
        if len(set_v) != len(v):
            raise Invalid(self.msg or 'contains duplicate items: {0}'.format(v))
        return v
""")

FIRES = [
    # round 15: two built-in classes known apart
    ("Passing a number to etag() throws a RangeError('argument entity must be string, Buffer, or fs.Stats').", ETAG),
    ("Store.get raises ValueError(\"no item with that name\") for a missing key.", GET_ITEM),
    # an anchored definition derives the claim's class from the one raised: a subclass is not its base
    ('base64_decode raises BadPayload("Invalid base64-encoded data") on bad input.', [BASE64, PAYLOAD]),
    ('A second lock with other arguments raises RuntimeError ("Singleton lock instances cannot be initialized '
     'with differing arguments").', SINGLETON),
    ("Bad names throw RangeError('cookie name is invalid: <name>').", COOKIE),
    ("Bad names throw a RangeError: cookie name is invalid.", COOKIE),
    ('A long value throws TypeError "cookie value is too long".', COOKIE),
    # an ellipsis in brackets stands for the value, brackets and all
    ('Unique(): duplicates -> TypeInvalid("contains duplicate items: [...]").', UNIQUE),
]

SILENT = [
    # round 15: a base class of the one raised (Error, LookupError, Exception) is not a sibling
    ("etag() throws an Error('argument entity must be string, Buffer, or fs.Stats').", ETAG),
    ("Store.get raises LookupError(\"no item with that name\") for a missing key.", GET_ITEM),
    ("Store.get raises Exception(\"no item with that name\") for a missing key.", GET_ITEM),
    # the claim's class is a base of the one raised, or of unknown descent
    ('base64_decode raises BadData("Invalid base64-encoded data") on bad input.', [BASE64, PAYLOAD]),
    ('base64_decode raises Exception("Invalid base64-encoded data") on bad input.', [BASE64, PAYLOAD_BASE]),
    ('base64_decode raises BadPayload("Invalid base64-encoded data") on bad input.', BASE64),
    ('A second lock with other arguments raises ValueError("Singleton lock instances cannot be initialized '
     'with differing arguments").', SINGLETON),
    ("Bad names throw TypeError('cookie name is invalid: <name>').", COOKIE),
    # the claim's class is raised nowhere in the anchored code: it may be a base of the one raised
    ('decode raises DecodeError("Issued At claim (iat) must be an integer.").', ONLY),
    # a message the code does not raise is the term binder's to read
    ("Bad names throw RangeError('cookie name must be ASCII only').", COOKIE),
    # too short a message to tell one raise from another
    ("It throws RangeError('invalid').", COOKIE),
    ('Unique(): duplicates -> Invalid("contains duplicate items: [...]").', UNIQUE),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_both_classes() -> None:
    [line] = fired("Bad names throw RangeError('cookie name is invalid: <name>').", COOKIE)
    assert line.startswith("the claim has `RangeError` raised with \"cookie name is invalid: <name>\"; the code "
                           "raises that message as `TypeError`, but src/index.ts::stringifyCookie says")


def test_a_declared_class_is_not_compared() -> None:
    assert contradictions("Bad names throw RangeError('cookie name is invalid: <name>').", [COOKIE],
                          declared=["RangeError"], rules=[RULE]) == []


def test_the_finding_says_the_claims_class_derives_from_the_one_raised() -> None:
    [line] = fired('base64_decode raises BadPayload("Invalid base64-encoded data").', [BASE64, PAYLOAD])
    assert line.startswith("the claim has `BadPayload` raised with \"Invalid base64-encoded data\"; the code raises "
                           "that message as `BadData`, of which `BadPayload` is a subclass")
