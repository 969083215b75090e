"""The mechanism rule's fixture: the claim says the code keeps a cache or retries with a backoff, and no
anchored code says either."""

from __future__ import annotations

from _binding import person_write
from _rule_cases import rule_cases

import memvet
from memvet._claims import EvidenceText
from memvet._rules import contradictions
from memvet._rules.mechanism import RULE

PARSE_ACCEPT = EvidenceText("lib/negotiator.js::parseAccept", """\
function parseAccept(header) {
  var parts = header.split(',');
  var out = [];
  for (var i = 0; i < parts.length; i++) {
    var item = parseItem(parts[i].trim(), i);
    if (item) out.push(item);
  }
  return out;
}
""", language="javascript")
DETECT = EvidenceText("src/detect.ts::detectManager", """\
export async function detectManager(cwd: string): Promise<string | undefined> {
  for (const [file, name] of LOCK_FILES) {
    if (await exists(join(cwd, file))) {
      return name;
    }
  }
  return undefined;
}
""", language="typescript")
LOOKUP = EvidenceText("codecs/search.py::search_codec", '''\
def search_codec(name):
    """Find a codec, remembering what was found."""
    if name in _FOUND_CACHE:
        return _FOUND_CACHE[name]
    found = _build(name)
    if found is not None:
        _FOUND_CACHE[name] = found
    return found
''')
TXN = EvidenceText("txn.go::Txn.writable", """\
func (t *Txn) writable(n *Node) *Node {
	if t.writables == nil {
		lru, err := simplelru.NewLRU(defaultModified, nil)
		if err != nil {
			panic(err)
		}
		t.writables = lru
	}
	return n
}
""", language="go")
SET_ITEM = EvidenceText("src/store/__init__.py::Cache.__setitem__", '''\
    def __setitem__(self, key, value):
        size = self.getsizeof(value)
        if size > self.__maxsize:
            raise ValueError("value too large")
        self.__data[key] = value
''')
REFRESH = EvidenceText("src/lib.rs::LinkedMap.get_refresh", """\
    pub fn get_refresh(&mut self, k: &K) -> Option<&mut V> {
        let node = *self.map.get(k)?;
        self.detach(node);
        self.attach(node);
        Some(unsafe { &mut (*node).value })
    }
""", language="rust")
PROBE = EvidenceText("src/probe.ts::canListen", """\
export async function canListen(): Promise<boolean> {
  if (_socketOk !== undefined) {
    return _socketOk;
  }
  _socketOk = await tryListen(0);
  return _socketOk;
}
""", language="typescript")
FETCH_BLOCK = EvidenceText("src/gen/fetch.ts::fetchBlock", """\
export async function fetchBlock(url: string): Promise<string> {
  const { $fetch } = await import("ofetch");
  const text = await $fetch(url, { responseType: "text" });
  return text.trim();
}
""", language="typescript")
ZEROED = EvidenceText("src/alloc.rs::try_zeroed_box", """\
pub fn try_zeroed_box<T: Zeroable>() -> Result<Box<T>, ()> {
    let layout = Layout::new::<T>();
    let ptr = unsafe { alloc_zeroed(layout) };
    if ptr.is_null() {
        return Err(());
    }
    Ok(unsafe { Box::from_raw(ptr as *mut T) })
}
""", language="rust")
REQUEST = EvidenceText("src/fetch.ts::onError", """\
async function onError(context: FetchContext): Promise<FetchResponse<any>> {
  const retries = typeof context.options.retry === "number" ? context.options.retry : 1;
  if (retries > 0) {
    const delay = typeof context.options.retryDelay === "function"
      ? context.options.retryDelay(context) : context.options.retryDelay || 0;
    if (delay > 0) {
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    return $fetchRaw(context.request, { ...context.options, retry: retries - 1 });
  }
  throw createFetchError(context);
}
""", language="typescript")
ENCODE = EvidenceText("lib/encode.js::encodeChunks", """\
function encodeChunks(str) {
  var out = '';
  for (var j = 0; j < str.length; j += limit) {
    var end = j + limit;
    if (isHighSurrogate(str.charCodeAt(end - 1))) {
      end -= 1;
    }
    out += escape(str.slice(j, end));
  }
  return out;
}
""", language="javascript")

FIRES = [
    ("Parsed Accept headers are memoized in a small LRU cache keyed by the raw header string.", PARSE_ACCEPT),
    ("detectManager memoizes results per cwd, so repeated calls don't touch the fs.", DETECT),
    ("parseAccept keeps an LRU cache of parsed headers, so re-parsing is cheap.", PARSE_ACCEPT),
    ("The result is cached per (cwd, name) pair.", DETECT),
    ("fetch gen: 3 retries with exponential backoff before the block turns into a warning comment.", FETCH_BLOCK),
    ("try_zeroed_box retries alloc_zeroed a few times with backoff before returning Err(()).", ZEROED),
    ("fetchBlock retries up to 3 times when the request fails.", FETCH_BLOCK),
    ("Fetches add random jitter to the delay between attempts.", FETCH_BLOCK),
]

SILENT = [
    # the anchored code keeps one: a name, a word of a name, or the anchor's own name says it
    ("search_codec memoizes hits in a dict keyed by the name as asked.", LOOKUP),
    ("Writable nodes are kept in a small LRU per txn.", TXN),
    ("If one value alone is too big (per getsizeof), Cache.__setitem__ raises ValueError.", SET_ITEM),
    ("onError retries up to 3 times with exponential backoff (retryDelay).", REQUEST),
    # a likeness, one value kept in a variable, a rate: no cache of results looked up by a key
    ("Only get_refresh moves the entry to the back (the LRU-cache trick).", REFRESH),
    ("canListen is memoized in `_socketOk` after the first real listen.", PROBE),
    ("parseAccept runs once per request; nothing else is needed.", PARSE_ACCEPT),
    # denied: the negation's business
    ("detectManager doesn't memoize results per cwd: every call reads the fs.", DETECT),
    ("There is no small LRU here: every call parses the header again.", PARSE_ACCEPT),
    ("fetchBlock never retries: no backoff, one request.", FETCH_BLOCK),
    # a step back, not a wait
    ("encodeChunks works in chunks, backing off one char if a chunk would end on a high surrogate.", ENCODE),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_names_the_mechanism_and_every_anchor():
    [line] = fired("detectManager memoizes results per cwd.", [DETECT, PARSE_ACCEPT])
    assert line == ("the claim says the code keeps a cache (`memoizes results per c`), but "
                    "src/detect.ts::detectManager, lib/negotiator.js::parseAccept never mentions it")


def test_a_word_declared_unbound_is_never_compared():
    claim = "Parsed headers are kept in a small LRU keyed by the raw header string."
    assert contradictions(claim, [PARSE_ACCEPT], rules=[RULE])
    assert contradictions(claim, [PARSE_ACCEPT], rules=[RULE], declared=["LRU"]) == []


def test_a_claim_with_no_code_anchored_is_never_read():
    dependency = EvidenceText("dep:negotiator", "negotiator 1.0.0\n")
    assert contradictions("Headers are memoized in a small LRU keyed by the raw string.", [dependency],
                          rules=[RULE]) == []


def test_a_person_write_of_a_cache_the_code_never_had_is_served_unconfirmed(repo, ledger):
    repo.write("lib/parse.py", "def parse(header):\n    return [p.strip() for p in header.split(',')]\n")
    repo.commit("parse")
    decision, status = person_write(ledger, "parse memoizes its result per header string, so it is cheap.",
                                    ["lib/parse.py::parse"])
    assert status is memvet.Status.NEEDS_REVALIDATION
    assert any("the claim says the code keeps a cache" in finding for finding in decision.findings)
    repo.write("lib/parse.py", "_CACHE = {}\n\n\ndef parse(header):\n    if header not in _CACHE:\n"
               "        _CACHE[header] = [p.strip() for p in header.split(',')]\n    return _CACHE[header]\n")
    repo.commit("cache")
    decision, status = person_write(ledger, "parse memoizes its result per header string in _CACHE.",
                                    ["lib/parse.py::parse"])
    assert status is memvet.Status.VERIFIED, decision.findings
