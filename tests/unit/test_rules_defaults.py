"""The defaults rule's fixture: "m.v by default" where the signature's default of module m is another name."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.defaults import RULE

CACHEDMETHOD = EvidenceText("cachetools/__init__.py::cachedmethod", """\
def cachedmethod(cache, key=keys.methodkey, lock=None, condition=None, info=False):
    def decorator(method):
        return _wrapper(method, cache, key, lock, condition)
    return decorator
""")
TTL = EvidenceText("cachetools/func.py::ttl_cache", """\
def ttl_cache(maxsize=128, ttl=600, timer=time.monotonic, typed=False):
    return _cache(TTLCache(maxsize, ttl, timer), maxsize, typed)
""")
QUEUE = EvidenceText("source/queue.ts::Queue.constructor", """\
constructor(compare: Comparator = defaults.byPriority, size = 0) {
  this.compare = compare;
}
""")

FIRES = [
    ("@cachedmethod uses `keys.hashkey` by default, so self is hashed into every key.", CACHEDMETHOD),
    ("ttl_cache's timer defaults to time.time, the wall clock.", TTL),
    ("The queue orders by defaults.byInsertion by default.", QUEUE),
]

SILENT = [
    ("cachedmethod uses `keys.methodkey` by default.", CACHEDMETHOD),
    # no word of defaulting: another parameter, or a call the reader makes
    ("cachedmethod works with keys.hashkey when you pass it as key=.", CACHEDMETHOD),
    # no default of that module: nothing to compare
    ("ttl_cache rounds with math.floor by default.", TTL),
    ("ttl_cache's timer defaults to time.monotonic.", TTL),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_the_parameter_and_its_default():
    [line] = fired("@cachedmethod uses `keys.hashkey` by default.", CACHEDMETHOD)
    assert line.startswith("the claim names `keys.hashkey` as the default; the signature gives `key` the default "
                           "`keys.methodkey`, but cachetools/__init__.py::cachedmethod says `def cachedmethod(")
