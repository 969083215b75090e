"""The calls rule's fixture: an anchored function said to call a name its code never mentions."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.calls import RULE

SET = EvidenceText("cache.go::cache.Set", """\
func (c *cache) Set(k string, x interface{}) {
	c.mu.Lock()
	c.items[k] = x
	c.mu.Unlock()
}
""", language="go")
DELETE = EvidenceText("cache.go::cache.Delete", """\
func (c *cache) Delete(k string) {
	c.mu.Lock()
	v, evicted := c.delete(k)
	c.mu.Unlock()
	if evicted {
		c.onEvicted(k, v)
	}
}
""", language="go")
ON_EVICTED = EvidenceText("cache.go::cache.OnEvicted", """\
func (c *cache) OnEvicted(f func(string, interface{})) {
	c.mu.Lock()
	c.onEvicted = f
	c.mu.Unlock()
}
""", language="go")
AUTOLOAD = EvidenceText("autoload/autoload.go", """\
package autoload

import "github.com/joho/godotenv"

func init() {
	godotenv.Load()
}
""", language="go")
LOAD = EvidenceText("godotenv.go::Load", """\
func Load(filenames ...string) (err error) {
	for _, filename := range filenamesOrDefault(filenames) {
		err = loadFile(filename, false)
	}
	return
}
""", language="go")
LOAD_FILE = EvidenceText("godotenv.go::loadFile", """\
func loadFile(filename string, overload bool) error {
	envMap, err := readFile(filename)
	for key, value := range envMap {
		os.Setenv(key, value)
	}
	return err
}
""", language="go")
# a comment names the callee; the code does not call it
COMMENTED = EvidenceText("lib/cache.py::Cache.flush", """\
def flush(self):
    # does not call on_evict: a flush is not an eviction
    self.items.clear()
""", language="python")

SEEDED = EvidenceText("sharded.go::newShardedCache", """\
func newShardedCache(n int) *shardedCache {
	max := big.NewInt(0).SetUint64(uint64(math.MaxUint32))
	rnd, err := rand.Int(rand.Reader, max)
	var seed uint32
	if err != nil {
		os.Stderr.Write([]byte("WARNING: continuing with an insecure seed."))
		seed = insecurerand.Uint32()
	} else {
		seed = uint32(rnd.Uint64())
	}
	return &shardedCache{seed: seed}
}
""", language="go")
GUARDED = EvidenceText("mux.go::Mux.Use", """func (mx *Mux) Use(middlewares ...func(http.Handler) http.Handler) {
	if mx.handler != nil {
		panic("chi: all middlewares must be defined before routes on a mux")
	}
	mx.middlewares = append(mx.middlewares, middlewares...)
}
""", language="go")
LOWERED = EvidenceText("lib/parse.js::parseAttribute", """\
function parseAttribute(attr) {
  switch (attr.toLowerCase()) {
    case 'httponly': return 'httpOnly'
  }
}
""", language="javascript")
COMPARED = EvidenceText("lib/index.js::isOriginAllowed", """\
function isOriginAllowed(origin, allowed) {
  return origin === allowed
}
""", language="javascript")
STOP = EvidenceText("ticker.go::Ticker.Stop", """func (t *Ticker) Stop() {
	close(t.stop)
}
""", language="go")

NEW_V7 = EvidenceText("version7.go::NewV7", """\
func NewV7() (UUID, error) {
	uuid, err := NewRandom()
	if err != nil {
		return uuid, err
	}
	makeV7(uuid[:])
	return uuid, nil
}
""", language="go")

PARAMS = EvidenceText("src/index.ts::createParameters", """\
function createParameters(filename: string, fallback?: string | boolean) {
  if (filename === undefined) {
    return undefined
  }
  return { filename: fallback }
}
""")
GUARDED_PARAMS = EvidenceText("src/index.ts::createParameters", """\
function createParameters(filename: string) {
  if (typeof filename !== 'string') {
    throw new TypeError('filename must be a string')
  }
  return { filename }
}
""")

TAKE = EvidenceText("ratelimit.go::Bucket.Take", """\
func (tb *Bucket) Take(count int64) time.Duration {
	d, _ := tb.take(tb.clock.Now(), count, infinityDuration)
	return d
}
""", language="go")
INFINITY = EvidenceText("ratelimit.go::infinityDuration",
                        "const infinityDuration time.Duration = 0x7fffffffffffffff\n", language="go")


ALLOWED = EvidenceText("router.go::Router.allowed", """\
func (r *Router) allowed(path, reqMethod string) (allow string) {
	allowed := make([]string, 0, 9)
	// sort.Strings(allowed) unfortunately causes unnecessary allocations
	for i, l := 1, len(allowed); i < l; i++ {
		allowed[i] = allowed[i-1]
	}
	return strings.Join(allowed, ", ")
}
""", language="go")


RETAIN = EvidenceText("src/collections/vec.rs::Vec.retain", """\
pub fn retain<F>(&mut self, mut f: F) where F: FnMut(&T) -> bool {
    self.drain_filter(|x| !f(x));
}
""", language="rust")


UPDATE_EDGE = EvidenceText("radix.go::node.updateEdge", """\
func (n *node) updateEdge(label byte, node *node) {
	num := len(n.edges)
	idx := sort.Search(num, func(i int) bool {
		return n.edges[i].label >= label
	})
	if idx < num && n.edges[idx].label == label {
		n.edges[idx].node = node
		return
	}
	panic("replacing missing edge")
}
""", language="go")

# round 34 (anymap t25): a caller named that is neither anchor, and the callee is one
MAP_NEW = EvidenceText("src/lib.rs::Map.new", """\
pub fn new() -> Map<A> {
    Map { raw: RawMap::with_hasher(Default::default()) }
}
""")
MAP_WITH_CAPACITY = EvidenceText("src/lib.rs::Map.with_capacity", """\
pub fn with_capacity(capacity: usize) -> Map<A> {
    Map { raw: RawMap::with_capacity_and_hasher(capacity, Default::default()) }
}
""")


FIRES = [
    # round 26 (go-radix f05): "falls back to" a function the subject never mentions
    ("node.updateEdge falls back to addEdge if there's no edge with that label yet, so it's an upsert.", UPDATE_EDGE),
    ("updateEdge falls back on calling `addEdge` for a new label.", UPDATE_EDGE),
    # round 21 (bumpalo f18): built on / implemented with / backed by, as verbs of calling
    ("Heads up: bumpalo Vec::retain is built on swap_remove, so the survivors can be reordered.", RETAIN),
    ("Vec::retain is implemented with `swap_remove`.", RETAIN),
    ("retain is backed by swap_remove.", RETAIN),
    # round 20 (httprouter f13): a platform package's function, not a name spelled like its package
    ("The Allow header is deterministic because allowed() calls sort.Strings on the collected methods.", ALLOWED),
    ("allowed() calls strings.Split on the path.", ALLOWED),
    # round 18: the subject is the anchor the written call does not name
    ("Take is unconditional: it locks, then calls tb.takeAvailable(count).", [TAKE, INFINITY]),
    # "does" and "via" with a call written out
    ("NewV7 always does NewRandomFromReader(rander), so it never touches the pool.", NEW_V7),
    ("NewV7 builds the UUID via NewRandomFromReader(rand.Reader).", NEW_V7),
    ("isOriginAllowed lowercases both sides before comparing.", COMPARED),
    ("isOriginAllowed sorts the allowed list first.", COMPARED),
    ("If the CSPRNG read fails, newShardedCache panics rather than using a weak seed.", SEEDED),
    ("create() requires a filename: createParameters throws TypeError if filename is undefined.", PARAMS),
    ("Overwriting a key via Set() triggers the OnEvicted callback with the old value.", [SET, ON_EVICTED]),
    ("Set fires OnEvicted for the replaced item.", SET),
    ("autoload's init() calls godotenv.Overload(), so the file wins.", AUTOLOAD),
    ("Load calls os.Unsetenv for each key.", [LOAD, LOAD_FILE]),
    ("flush invokes on_evict for each item.", COMMENTED),
    # round 34: the callee is anchored, but no caller is named ("It" names no code)
    ("It just calls Map::new().", [MAP_NEW, MAP_WITH_CAPACITY]),
]

SILENT = [
    # round 26: what it falls back to is in its code, or is no call ("falls back to panicking")
    ("node.updateEdge falls back to panic(\"replacing missing edge\") when no edge has the label.", UPDATE_EDGE),
    ("updateEdge falls back to `sort.Search` over the edges.", UPDATE_EDGE),
    # (rfc3986 t01) no anchored function is the subject, and a type is no callee
    ("So a missing label falls back to addEdge instead of panicking.", UPDATE_EDGE),
    ("updateEdge falls back to the u8 path for labels.", UPDATE_EDGE),
    ("It calls `updateEdge(label, node)`, so a missing label falls back to addEdge.", UPDATE_EDGE),
    # round 21: what the function is built on, written so
    ("Vec::retain is built on drain_filter, so the order is kept.", RETAIN),
    ("Vec::retain is implemented on top of `drain_filter`.", RETAIN),
    ("allowed() calls strings.Join on the collected methods.", ALLOWED),
    # round 20 (prettytable t08): a term after a preposition is what the subject works with, no subject
    ("Cell width: it strips ANSI codes with the module-level `_re` regex and then calls `wcwidth.wcswidth`.",
     [EvidenceText("prettytable.py::_str_block_width",
                   "def _str_block_width(val):\n    return wcwidth.wcswidth(_re.sub('', val))\n"),
      EvidenceText("prettytable.py::_re", "_re = re.compile(r'\\033\\[[0-9;]*m')\n")]),
    # round 18: a constant passed to the call is not what makes it
    ("Take is unconditional: it locks, then calls tb.take(tb.clock.Now(), count, infinityDuration).",
     [TAKE, INFINITY]),
    ("NewV7 does NewRandom() and then makeV7.", NEW_V7),
    ("NewV7 builds the UUID via makeV7(uuid[:]).", NEW_V7),
    # "does" and "via" before prose name no call
    ("NewV7 does nothing with the pool.", NEW_V7),
    ("NewV7 fills the time via the clock.", NEW_V7),
    ("parseAttribute lower-cases each attribute name before matching.", LOWERED),
    ("isOriginAllowed never lowercases either side.", COMPARED),
    ("Mux.Use panics if a route was already added.", GUARDED),
    ("newShardedCache never panics: it falls back to an insecure seed.", SEEDED),
    ("Ticker.Stop() closes the channel, so calling it twice panics.", STOP),
    ("createParameters throws TypeError if filename is not a string.", GUARDED_PARAMS),
    ("createParameters never throws: an undefined filename gives undefined.", PARAMS),
    ("Delete fires OnEvicted when an item was removed.", [DELETE, ON_EVICTED]),
    ("autoload's init() calls godotenv.Load().", AUTOLOAD),
    # through an anchored helper
    ("Load calls os.Setenv for each key.", [LOAD, LOAD_FILE]),
    # negated, the reader's call, or a plain word after the verb
    ("Set never fires OnEvicted.", SET),
    ("Set does not trigger OnEvicted.", SET),
    ("You call OnEvicted to register a callback; Set then runs the update.", [SET, ON_EVICTED]),
    ("Set runs in constant time.", SET),
    # the subject is code no anchor holds
    ("The janitor's DeleteExpired calls onEvicted for each expired item.", SET),
    # round 34: a caller named (a name of the code, no term) that is neither anchor; the callee anchored
    ("Default for Map just calls Map::new(), which is RawMap::with_hasher(Default::default()).",
     [MAP_NEW, MAP_WITH_CAPACITY]),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_says_the_code_never_mentions_it() -> None:
    assert fired("Set fires OnEvicted for the replaced item.", SET) == [
        "the claim says Set fires `OnEvicted`, but cache.go::cache.Set never mentions it"]
