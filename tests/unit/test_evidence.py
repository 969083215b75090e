"""The evidence engine on real repositories in every supported language:
unrelated and cosmetic edits never flag, rewrites are stale, moves are moves,
deletions are refuted."""

from __future__ import annotations

import re
import subprocess
import uuid

import pytest
from _verdicts import rewrite_anchors

import memvet
from memvet import AnchorResult, Status
from memvet._cache import SymbolCache

# language: (path, source, symbol, cosmetic edit, rewrite, other-path for a move)
SOURCES = {
    "python": ("pkg/mod.py", '''\
import os


class Store:
    def save(self, item):
        """Persist one item."""
        return os.path.join("a", item)


def other():
    return 1
''', "Store.save",
        ('"""Persist one item."""', '"""Persist one item, reworded."""\n        # a note'),
        ('os.path.join("a", item)', 'os.path.join("b", item)'), "pkg/moved.py"),
    "javascript": ("src/mod.js", '''\
const re = /["'{]+/g;
const s = `tpl ${"}"} {`;

export class Store {
  save(item) {
    return item.trim();
  }
}

export function other() { return 1; }
''', "Store.save",
        ("return item.trim();", "// keep trimming\n    return item.trim( );"),
        ("item.trim()", "item.toLowerCase()"), "src/moved.js"),
    "typescript": ("src/mod.ts", '''\
interface Item { name: string }

export class Store {
  save(item: Item): string {
    return item.name;
  }
}

export const other = (): number => 1;
''', "Store.save",
        ("return item.name;", "/* c */ return   item.name;"),
        ("return item.name;", "return item.name + '!';"), "src/moved.ts"),
    "tsx": ("src/View.tsx", '''\
export function View(props: { title: string }) {
  return <h1 className="t">{props.title}</h1>;
}

export const other = () => <p>x</p>;
''', "View",
        ("return <h1", "// render\n  return <h1"),
        ('className="t"', 'className="u"'), "src/Moved.tsx"),
    "go": ("store/store.go", '''\
package store

type Store struct{}

func (s *Store) Save(item string) string {
	return item + "!"
}

func Other() int { return 1 }
''', "Store.Save",
        ('return item + "!"', '// exclaim\n\treturn item +\n\t\t"!"'),
        ('item + "!"', 'item + "?"'), "store/moved.go"),
    "rust": ("src/store.rs", '''\
pub struct Store;

impl Store {
    pub fn save(&self, item: &str) -> String {
        format!("{}!", item)
    }
}

pub fn other() -> i32 { 1 }
''', "Store.save",
        ('format!("{}!", item)', '// exclaim\n        format!("{}!",\n            item)'),
        ('"{}!"', '"{}?"'), "src/moved.rs"),
    "java": ("src/Store.java", '''\
package shop;

public class Store {
    @Override
    public String save(String item) {
        return item + "!";
    }

    public int other() { return 1; }
}
''', "Store.save",
        ('return item + "!";', '// exclaim\n        return item\n            + "!";'),
        ('item + "!"', 'item + "?"'), "src/Moved.java"),
}


def _setup(repo, ledger, language):
    path, source, symbol, _cosmetic, _rewrite, _other = SOURCES[language]
    repo.write(path, source, dedent=False)
    repo.commit(f"add {language}")
    rec = ledger.record(f"{language} save behaves", [f"{path}::{symbol}"])
    return rec, path, symbol


@pytest.mark.parametrize("language", SOURCES)
def test_unrelated_and_cosmetic_edits_hold(repo, ledger, language):
    rec, path, _ = _setup(repo, ledger, language)
    _, _source, _, cosmetic, _, _ = SOURCES[language]
    repo.write(path, "// header\n" * (language != "python") + "# header\n" * (language == "python")
               + repo.read(path) + "\n", dedent=False)
    repo.replace(path, *cosmetic)
    repo.commit("unrelated and cosmetic")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.VERIFIED, verdict.reason


@pytest.mark.parametrize("language", SOURCES)
def test_rewrite_is_stale(repo, ledger, language):
    rec, path, _ = _setup(repo, ledger, language)
    repo.replace(path, *SOURCES[language][4])
    repo.commit("rewrite")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.STALE
    assert path in verdict.reason


@pytest.mark.parametrize("language", SOURCES)
def test_file_move_is_a_move(repo, ledger, language):
    rec, path, _symbol = _setup(repo, ledger, language)
    other = SOURCES[language][5]
    repo.move(path, other)
    repo.commit("move")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert f"to {other}" in verdict.reason


@pytest.mark.parametrize("language", SOURCES)
def test_deletion_is_refuted(repo, ledger, language):
    rec, path, _ = _setup(repo, ledger, language)
    repo.delete(path)
    repo.commit("delete")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED
    assert f"{path} was deleted" in verdict.reason


def test_js_regex_with_quotes_and_braces_before_the_symbol(repo, ledger):
    rec, path, _ = _setup(repo, ledger, "javascript")
    repo.replace(path, "export function other() { return 1; }",
                 "export function other() { return 2; }\nconst more = /[}'\"]/;")
    repo.commit("edits after the symbol")
    assert ledger.verify(rec.id, at="HEAD").status is Status.VERIFIED


STRUCTURED = {
    "markdown": ("docs/adr/0001.md", "# ADR\n\n## Decision\n\nUse SQLite.\n\n## Notes\n\nNone.\n",
                 "ADR.Decision", ("None.", "Some."), ("Use SQLite.", "Use Postgres.")),
    "json": ("config.json", '{"server": {"port": 8080, "host": "a"}, "debug": false}\n',
             "server.port", ('"debug": false', '"debug": true'), ("8080", "9090")),
    "yaml": ("config.yaml", "server:\n  port: 8080\n  host: a\ndebug: false\n",
             "server.port", ("debug: false", "debug: true"), ("8080", "9090")),
    "toml": ("pyproject.toml",
             '[project]\nname = "x"\ndependencies = ["requests>=2"]\n\n[tool.memvet]\nfail-on = "stale"\n',
             "project.dependencies", ('fail-on = "stale"', 'fail-on = "refuted"'), ('"requests>=2"', '"httpx"')),
}


@pytest.mark.parametrize("kind", STRUCTURED)
def test_structured_text_anchors(repo, ledger, kind):
    path, text, key, unrelated, rewrite = STRUCTURED[kind]
    repo.write(path, text, dedent=False)
    repo.commit(f"add {kind}")
    rec = ledger.record(f"{kind} setting", [f"{path}::{key}"])
    repo.replace(path, *unrelated)
    repo.commit("unrelated")
    assert ledger.verify(rec.id, at="HEAD").status is Status.VERIFIED
    repo.replace(path, *rewrite)
    repo.commit("rewrite")
    assert ledger.verify(rec.id, at="HEAD").status is Status.STALE


def test_ambiguous_overloads_are_refused_with_candidates(repo, ledger):
    repo.write("src/CopyUtils.java", '''\
public class CopyUtils {
    public static void copy(byte[] in, java.io.OutputStream out) {}
    public static void copy(String in, java.io.Writer out) {}
}
''')
    repo.commit("overloads")
    with pytest.raises(memvet.AmbiguousSymbolError, match=r"CopyUtils.copy\(byte\[\],") as info:
        ledger.record("copy streams", ["src/CopyUtils.java::CopyUtils.copy"])
    assert len(info.value.candidates) == 2
    rec = ledger.record("copy streams", [f"src/CopyUtils.java::{info.value.candidates[0]}"])
    assert ledger.verify(rec.id).status is Status.VERIFIED


def test_syntax_error_around_the_symbol_needs_revalidation(repo, ledger):
    rec = ledger.record("save", ["shop/store.py::OrderStore.save"])
    repo.replace("shop/store.py", "return True", "return (True")
    verdict = ledger.verify(rec.id)
    assert verdict.status in (Status.NEEDS_REVALIDATION, Status.STALE)
    if verdict.status is Status.NEEDS_REVALIDATION:
        assert "does not parse" in verdict.reason


def test_a_symbol_that_does_not_parse_is_recorded_on_its_raw_tokens(repo, ledger):
    repo.write("bad.py", "def broken(:\n    return 1\n\ndef fine():\n    return 2\n")
    rec = ledger.record("broken", ["bad.py::broken"])  # issue 31: the error costs its own span only
    repo.replace("bad.py", "return 2", "return 3")
    assert ledger.verify(rec.id).status is Status.VERIFIED
    repo.replace("bad.py", "return 1", "return 0")
    assert ledger.verify(rec.id).status is Status.STALE


def test_file_became_binary_or_too_large_is_unverifiable(repo, ledger):
    rec = ledger.record("checksum", ["shop/store.py::checksum"])
    repo.write_bytes("shop/store.py", b"\x00\x01binary now")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION and "a binary file" in verdict.reason
    repo.write("shop/store.py", "def checksum(data):\n    return 0\n" + "# pad\n" * 400_000)
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION and "larger than" in verdict.reason


LATIN = "# J\u00falio wrote this\ndef f():\n    return 'caf\u00e9'\n\n\ndef g():\n    return 'na\u00efve'\n"


def test_a_latin1_source_is_anchored_and_checked_like_any_other(repo, ledger):
    # Older Java and Python 2 sources are often Latin-1 (javaparser's
    # VoidVisitorAdapter.java was refused here): each byte that is not UTF-8
    # reads as its Latin-1 character.
    repo.write_bytes("latin.py", LATIN.encode("latin-1"))
    rec = ledger.record("f returns cafe with an accent", ["latin.py::f"])
    assert ledger.verify(rec.id).status is Status.VERIFIED
    repo.write("latin.py", LATIN)  # the same text in UTF-8: the same code
    assert ledger.verify(rec.id).status is Status.VERIFIED
    repo.write_bytes("latin.py", LATIN.replace("caf\u00e9", "caf\u00e8").encode("latin-1"))
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.STALE and "the body changed" in verdict.reason


def test_a_stray_latin1_byte_reads_as_its_character(repo, ledger):
    repo.write("mixed.py", LATIN)
    f = ledger.record("f returns cafe", ["mixed.py::f"])
    g = ledger.record("g returns naive", ["mixed.py::g"])
    utf8 = LATIN.encode()
    # The i of g written as one Latin-1 byte into the UTF-8 file: the same text.
    repo.write_bytes("mixed.py", utf8.replace("na\u00efve".encode(), b"na\xefve"))
    assert ledger.verify(f.id).status is Status.VERIFIED and ledger.verify(g.id).status is Status.VERIFIED
    # Another character there is a change of g alone; f's UTF-8 text reads as it did.
    repo.write_bytes("mixed.py", utf8.replace("na\u00efve".encode(), b"na\xeeve"))
    assert ledger.verify(f.id).status is Status.VERIFIED
    assert ledger.verify(g.id).status is Status.STALE


# ------------------------------------------------------------------ dependencies

def test_dependency_anchor_lifecycle(repo, ledger):
    repo.write("pyproject.toml", '[project]\nname = "shop"\ndependencies = ["requests>=2.31", "Flask_Login==0.6"]\n')
    repo.commit("deps")
    plain = ledger.record("we use requests", ["dep:requests"])
    pinned = ledger.record("we need requests 2.31+", ["dep:requests>=2.31"])
    normalized = ledger.record("flask-login in use", ["dep:flask-login"])
    assert {ledger.verify(i).status for i in (plain.id, pinned.id, normalized.id)} == {Status.VERIFIED}
    repo.replace("pyproject.toml", '"requests>=2.31"', '"requests>=2.0"')
    repo.commit("loosen")
    verdict = ledger.verify(pinned.id)
    assert verdict.status is Status.REFUTED and "does not satisfy >=2.31" in verdict.reason
    assert ledger.verify(plain.id).status is Status.VERIFIED
    repo.replace("pyproject.toml", '"requests>=2.0", ', "")
    repo.commit("drop")
    verdict = ledger.verify(plain.id)
    assert verdict.status is Status.REFUTED
    assert ("no longer declared at the repository root (was in pyproject.toml; looked in pyproject.toml)"
            in verdict.reason)


def test_dependency_moved_to_another_manifest_still_holds(repo, ledger):
    repo.write("requirements.txt", "numpy>=1.26\n")
    repo.commit("reqs")
    rec = ledger.record("numpy", ["dep:numpy"])
    repo.delete("requirements.txt")
    repo.write("package.json", '{"dependencies": {"left-pad": "^1.3.0"}}')
    repo.write("pyproject.toml", '[project]\nname = "x"\ndependencies = ["numpy>=2"]\n')
    repo.commit("move")
    assert ledger.verify(rec.id).status is Status.VERIFIED
    js = ledger.record("left-pad", ["dep:left-pad"])
    assert ledger.verify(js.id).status is Status.VERIFIED


def test_undeclared_or_unsatisfied_dependency_is_refused(repo, ledger):
    repo.write("go.mod", "module x\n\ngo 1.22\n\nrequire github.com/pkg/errors v0.9.1\n")
    repo.write("Cargo.toml", '[package]\nname = "x"\n\n[dependencies]\nserde = "1.0"\n')
    repo.commit("manifests")
    with pytest.raises(memvet.AnchorNotFoundError, match="no manifest declares nothere") as caught:
        ledger.record("x", ["dep:nothere"])
    # declared nowhere: the anchor for "we do not depend on it" is named
    assert str(caught.value).endswith("; a decision that nothere stays out anchors its absence: import:nothere")
    assert ledger.verify(ledger.record("no nothere here", ["import:nothere"]).id).status is Status.VERIFIED
    assert ledger.verify(ledger.record("errors pkg", ["dep:github.com/pkg/errors"]).id).status is Status.VERIFIED
    assert ledger.verify(ledger.record("serde", ["dep:serde"]).id).status is Status.VERIFIED
    with pytest.raises(memvet.UsageError, match="does not satisfy"):
        ledger.record("x", ["dep:serde>=2"])


def test_malformed_manifest_makes_the_anchor_unverifiable_not_a_crash(repo, ledger):
    repo.write("pyproject.toml", '[project]\nname = "x"\ndependencies = ["requests"]\n')
    repo.commit("deps")
    rec = ledger.record("requests", ["dep:requests"])
    repo.write("pyproject.toml", "[project\nbroken")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert "could not check" in verdict.reason


# ------------------------------------------------------------------ dependencies scoped to the project

def _example_repo(repo):
    repo.write("pyproject.toml", '[project]\nname = "shop"\ndependencies = ["requests>=2.31"]\n')
    repo.write("examples/celery/requirements.txt", "redis>=4.5\ncelery\n")
    repo.write("examples/celery/app.py", "import redis\n")
    repo.commit("an example app")


def test_a_dependency_declared_only_by_an_example_is_refused(repo, ledger):
    _example_repo(repo)
    with pytest.raises(memvet.AnchorNotFoundError) as caught:
        ledger.record("we cache in redis", ["dep:redis>=4"])
    assert str(caught.value) == (
        "no manifest declares redis at the repository root (looked in pyproject.toml); redis is declared "
        "only in examples/celery/requirements.txt, an example manifest; name it with "
        "dep:redis>=4@examples/celery if you mean it"
    )
    assert ledger.decisions() == []


def test_naming_the_example_folder_counts_its_manifests_and_the_roots(repo, ledger):
    _example_repo(repo)
    rec = ledger.record("the celery example caches in redis", ["dep:redis>=4@examples/celery",
                                                               "dep:requests@examples/celery"])
    redis, requests = sorted(rec.decision.anchors, key=lambda a: a.name)
    assert (redis.path, redis.scope, redis.spec) == ("examples/celery/requirements.txt", "examples/celery",
                                                     "redis>=4@examples/celery")
    assert (requests.path, requests.scope) == ("pyproject.toml", "examples/celery")  # the root counts too
    assert ledger.verify(rec.decision.id).status is Status.VERIFIED
    keyword = ledger.record("celery in the example", [memvet.dependency("celery", folder="examples/celery")])
    [anchor] = keyword.decision.anchors
    assert anchor.spec == "celery@examples/celery"
    # the same name with and without a folder are two anchors, not one
    both = ledger.record("requests twice", ["dep:requests", "dep:requests@examples/celery"])
    assert sorted(a.spec for a in both.decision.anchors) == ["requests", "requests@examples/celery"]


def test_a_monorepo_package_is_named_and_its_ancestors_count(repo, ledger):
    repo.write("package.json", '{"private": true, "devDependencies": {"typescript": "^5.4.0"}}')
    repo.write("packages/web/package.json",
               '{"dependencies": {"react": "^18.2.0", "@types/node": "^20.11.0"}}')
    repo.write("packages/web/src/app.ts", "export const app = 1;\n")
    repo.write("services/api/pyproject.toml", '[project]\nname = "api"\ndependencies = ["fastapi>=0.110"]\n')
    repo.write("services/api/app/main.py", "import fastapi\n")
    repo.commit("monorepo")
    with pytest.raises(memvet.AnchorNotFoundError,
                       match=r"react is declared in packages/web/package\.json: name the package with "
                             r"dep:react@packages/web if the decision is about it"):
        ledger.record("the UI is React", ["dep:react"])
    with pytest.raises(memvet.AnchorNotFoundError,
                       match=r"no manifest declares react in services/api or the folders above it "
                             r"\(looked in services/api/pyproject\.toml, package\.json\)"):
        ledger.record("the API is React", ["dep:react@services/api"])
    # the write names the package itself: its manifest, anchored beside the dependency
    named = ledger.record("the UI is React", ["packages/web/package.json", "dep:react"])
    assert {a.spec for a in named.decision.anchors} == {"packages/web/package.json", "react@packages/web"}
    with pytest.raises(memvet.AnchorNotFoundError, match=r"react is declared in packages/web/package\.json"):
        ledger.record("the UI is React", ["services/api/pyproject.toml", "dep:react"])  # another package's
    with pytest.raises(memvet.AnchorNotFoundError, match=r"react is declared in packages/web/package\.json"):
        ledger.record("the UI is React", ["packages/web/package.json", "services/api/pyproject.toml",
                                          "dep:react"])  # two packages named: which one is not said
    rec = ledger.record("the UI is React 18 on Node types, built with TypeScript", [
        "dep:react^18@packages/web", "dep:@types/node@packages/web", "dep:typescript@packages/web/src",
    ])
    found = {a.spec: (a.path, a.scope) for a in rec.decision.anchors}
    assert found == {
        "react^18@packages/web": ("packages/web/package.json", "packages/web"),
        "@types/node@packages/web": ("packages/web/package.json", "packages/web"),
        "typescript@packages/web/src": ("package.json", "packages/web/src"),
    }
    assert ledger.verify(rec.decision.id).status is Status.VERIFIED
    for _ in range(2):  # at a commit, the project's manifests are listed once per folder
        assert ledger.verify(rec.decision.id, at="HEAD").status is Status.VERIFIED
    assert sorted(folder for _, folder in ledger.evidence._project_cache._data) == ["packages/web", "packages/web/src"]
    pinned = ledger.record("Node 20 types", ["dep:@types/node^20@packages/web"])
    assert [a.spec for a in pinned.decision.anchors] == ["@types/node^20@packages/web"]
    assert ledger.verify(pinned.decision.id).status is Status.VERIFIED
    deep = ledger.record("the API runs on FastAPI", ["dep:fastapi>=0.100@services/api/app"])
    assert [a.path for a in deep.decision.anchors] == ["services/api/pyproject.toml"]
    with pytest.raises(memvet.AnchorNotFoundError, match="no manifest declares @types/node at the repository root"):
        ledger.record("node types", ["dep:@types/node"])


def test_a_dependency_that_moves_from_the_root_to_an_example_is_refuted(repo, ledger):
    repo.write("requirements.txt", "redis>=4.5\n")
    repo.write("examples/celery/requirements.txt", "redis>=4.5\n")
    repo.commit("redis")
    root = ledger.record("we cache in redis", ["dep:redis"])
    example = ledger.record("the example caches in redis", ["dep:redis@examples/celery"])
    assert root.decision.anchors[0].path == "requirements.txt"
    assert example.decision.anchors[0].path == "examples/celery/requirements.txt"  # the named folder first
    repo.write("requirements.txt", "requests\n")
    repo.commit("only the example uses redis now")
    verdict = ledger.verify(root.decision.id)
    assert verdict.status is Status.REFUTED
    assert verdict.reason.endswith(
        "dependency redis is no longer declared at the repository root (was in requirements.txt; looked in "
        "requirements.txt); redis is declared only in examples/celery/requirements.txt, an example manifest; "
        "name it with dep:redis@examples/celery if you mean it"
    )
    assert ledger.verify(example.decision.id).status is Status.VERIFIED
    repo.write("examples/celery/requirements.txt", "celery\n")
    verdict = ledger.verify(example.decision.id)
    assert verdict.status is Status.REFUTED
    assert ("no longer declared in examples/celery or the folders above it (was in "
            "examples/celery/requirements.txt; looked in examples/celery/requirements.txt, requirements.txt)"
            ) in verdict.reason


def test_revalidating_a_scoped_dependency_keeps_its_folder(repo, ledger):
    _example_repo(repo)
    rec = ledger.record("the celery example caches in redis", ["dep:redis@examples/celery"])
    repo.write("examples/celery/requirements.txt", "celery\nredis>=5\n")
    repo.commit("bump")
    verdict = ledger.revalidate(rec.decision.id, reason="still true")
    assert [a.spec for a in verdict.decision.anchors] == ["redis@examples/celery"]
    assert verdict.status is Status.VERIFIED


def test_an_unscoped_anchor_recorded_from_a_subfolder_needs_revalidation(repo, ledger):
    """Recorded before dependency anchors were scoped: neither held nor refuted."""
    _example_repo(repo)
    legacy = memvet.Anchor(memvet.AnchorKind.DEPENDENCY, path="examples/celery/requirements.txt", name="redis",
                           symbol_kind="python")
    check = ledger.evidence.check(legacy, ledger.snapshot(None), repo.git("rev-parse", "HEAD"))
    assert check.result is AnchorResult.UNVERIFIABLE
    assert check.detail == (
        "dependency redis was recorded from examples/celery/requirements.txt, outside the project's manifests "
        "(at the repository root); record it again as dep:redis@examples/celery if that folder is meant"
    )
    # still declared at the root: it holds, wherever it was recorded from
    legacy_root = memvet.Anchor(memvet.AnchorKind.DEPENDENCY, path="examples/celery/requirements.txt",
                                name="requests", symbol_kind="python")
    assert ledger.evidence.check(legacy_root, ledger.snapshot(None), "").result is AnchorResult.HOLDS


def test_a_broken_manifest_outside_the_project_does_not_block_a_write(repo, ledger, caplog):
    repo.write("pyproject.toml", '[project]\nname = "shop"\ndependencies = ["requests"]\n')
    repo.write("examples/broken/package.json", "{not json")
    repo.write("docs/requirements.txt", "mkdocs>=1.5\n")
    repo.commit("a broken example")
    rec = ledger.record("we use requests", ["dep:requests"])
    assert ledger.verify(rec.decision.id).status is Status.VERIFIED
    with caplog.at_level("DEBUG", logger="memvet._anchors"), pytest.raises(
            memvet.AnchorNotFoundError,
            match=r"mkdocs is declared only in docs/requirements\.txt, a documentation manifest"):
        ledger.record("docs are built with mkdocs", ["dep:mkdocs"])
    assert "not looking for mkdocs in examples/broken/package.json: cannot read manifest" in caplog.text
    with pytest.raises(memvet.AnchorNotFoundError, match=r"\(looked in pyproject\.toml\); a decision that left-pad"):
        ledger.record("x", ["dep:left-pad"])


def test_no_root_manifest_says_so(repo, ledger):
    with pytest.raises(memvet.AnchorNotFoundError,
                       match=r"no manifest declares left-pad at the repository root \(there is no manifest there; "
                             r"MemVet reads pyproject\.toml"):
        ledger.record("x", ["dep:left-pad"])


@pytest.mark.parametrize(
    ("anchor", "error", "message"),
    [
        ("dep:redis@../outside", memvet.PathOutsideRepositoryError,
         "dependency folder ../outside: outside the repository"),
        ("dep:redis@/etc", memvet.PathOutsideRepositoryError, "absolute paths are not accepted"),
        ("dep:redis@examples/nope", memvet.AnchorNotFoundError,
         "dep:redis@examples/nope: there is no folder examples/nope"),
        ("dep:redis@examples/celery/app.py", memvet.AnchorNotFoundError, "there is no folder examples/celery/app.py"),
        ("dep:requests>=>2", memvet.UsageError, "'>=>2' is not a version requirement MemVet can evaluate"),
        ("dep:requests@1.x", memvet.UsageError, "'1.x' is not a version requirement"),
    ],
)
def test_bad_dependency_anchors_are_refused_at_write(repo, ledger, anchor, error, message):
    _example_repo(repo)
    with pytest.raises(error, match=re.escape(message)):
        ledger.record("x", [anchor])
    assert ledger.decisions() == []


def test_dependency_folder_keyword():
    assert memvet.dependency("redis>=4", folder="examples/celery/") == memvet.dependency("redis>=4@examples/celery")
    assert memvet.dependency("redis@examples/celery", folder="./examples/celery").scope == "examples/celery"
    with pytest.raises(memvet.InvalidAnchorError, match="names the folder examples/a and folder= names examples/b"):
        memvet.dependency("redis@examples/a", folder="examples/b")
    with pytest.raises(memvet.PathOutsideRepositoryError, match="outside the repository"):
        memvet.dependency("redis", folder="../outside")


# ------------------------------------------------------------------ absence

def test_absent_import_is_fooled_by_neither_comments_nor_strings(repo, ledger):
    rec = ledger.record("no pickle in shop", [memvet.absent(import_="pickle", scope="shop/**")])
    repo.replace("shop/store.py", "import json", 'import json\n# import pickle\nNOTE = "import pickle"')
    repo.write("tools/dump.py", "import pickle\n")   # out of scope
    repo.write("web/app.js", "// require('pickle')\nconst s = \"import pickle\";\n")
    assert ledger.verify(rec.id).status is Status.VERIFIED
    repo.replace("shop/store.py", "import json", "import json\nfrom pickle import loads")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.REFUTED
    assert "shop/store.py:3 imports pickle" in verdict.reason
    assert verdict.checks[0].line == 3


@pytest.mark.parametrize(("path", "source"), [
    ("a/x.js", "const p = require('left-pad');\n"),
    ("a/x.ts", "import pad from 'left-pad/sub';\n"),
    ("a/x.go", 'package a\n\nimport "left-pad"\n'),
])
def test_absent_import_in_other_languages(repo, ledger, path, source):
    rec = ledger.record("no left-pad", ["import:left-pad"])
    repo.write(path, source)
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.REFUTED and f"{path}:" in verdict.reason


def test_absent_pattern(repo, ledger):
    rec = ledger.record("no print debugging", ["pattern:\\bprint\\("])
    repo.write("shop/debug.py", "x = 1\nprint(x)\n")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.REFUTED and "shop/debug.py:2 matches" in verdict.reason
    with pytest.raises(memvet.InvalidAnchorError, match="invalid pattern"):
        ledger.record("bad", ["pattern:(unclosed"])


def test_absent_anchor_already_violated_is_refused(repo, ledger):
    with pytest.raises(memvet.UsageError, match="cannot record 'import:json' as absent"):
        ledger.record("no json", ["import:json"])


# ------------------------------------------------------------------ versions, history, targets

def test_hasher_version_change_never_reports_untouched_code(repo, ledger):
    rec = ledger.record("save appends", ["shop/store.py::OrderStore.save"])
    # Pretend the anchor was hashed by an older hasher whose hashes differ.
    rewrite_anchors(ledger, rec.id, hash_version=0, body_hash="0" * 64, shape="1" * 64)
    repo.replace("shop/store.py", "% 255", "% 256")    # the file changes, the symbol does not
    repo.commit("unrelated")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.VERIFIED, verdict.reason
    repo.replace("shop/store.py", "return True", "return 1")
    assert ledger.verify(rec.id).status is Status.STALE


def _shallow_clone(repo, tmp_path):
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo.path}", str(clone)], check=True)
    return clone


def test_shallow_clone_without_the_recorded_commit(repo, ledger, client, tmp_path):
    rec = ledger.record("save appends", ["shop/store.py::OrderStore.save"])
    moved = ledger.record("checksum", ["shop/store.py::checksum"])
    rewrite_anchors(ledger, rec.id, hash_version=0)
    repo.replace("shop/store.py", "% 255", "% 256")
    repo.commit("second")
    text = repo.read("shop/store.py")
    repo.write("shop/store.py", text[: text.index("def checksum")], dedent=False)
    repo.write("shop/sums.py", text[text.index("def checksum"):].replace("% 256", "% 255"), dedent=False)
    repo.commit("third")
    clone = _shallow_clone(repo, tmp_path)
    there = memvet.Ledger.open(clone, client=client, embedding=memvet.HashingEmbedder(),
                               namespace=ledger.namespace, disk_cache=False)
    verdict = there.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION
    assert "not in this history" in verdict.reason
    # With the recorded commit gone, the move search falls back to every file.
    assert there.verify(moved.id).status is Status.NEEDS_REVALIDATION
    assert "shop/sums.py" in there.verify(moved.id).reason


def test_untracked_working_tree_move_is_found(repo, ledger):
    rec = ledger.record("checksum", ["shop/store.py::checksum"])
    text = repo.read("shop/store.py")
    repo.write("shop/store.py", text[: text.index("def checksum")], dedent=False)
    repo.write("shop/new_untracked.py", text[text.index("def checksum"):], dedent=False)
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION and "shop/new_untracked.py" in verdict.reason


def test_record_at_a_revision(repo, ledger):
    first = repo.git("rev-parse", "HEAD")
    repo.replace("shop/store.py", "% 255", "% 2")
    repo.commit("change")
    rec = ledger.record("checksum mod 255", ["shop/store.py::checksum"], at=first)
    assert ledger.get(rec.id).commit == first
    assert ledger.verify(rec.id, at=first).status is Status.VERIFIED
    assert ledger.verify(rec.id, at="HEAD").status is Status.STALE


# ------------------------------------------------------------------ caching

def test_batch_check_parses_each_changed_blob_once(repo, ledger):
    names = ["OrderStore.__init__", "OrderStore.save", "OrderStore.load", "checksum", "OrderStore"]
    for i in range(10):
        ledger.record(f"decision {'abcdefghij'[i]}", [f"shop/store.py::{names[i % len(names)]}"])
    repo.replace("shop/store.py", '"""Order storage."""', '"""Order storage, edited."""')
    repo.commit("touch the file")
    before = ledger.evidence.cache.parses
    verdicts = ledger.check(at="HEAD")
    assert {v.status for v in verdicts} == {Status.VERIFIED}
    assert ledger.evidence.cache.parses - before == 1
    ledger.check(at="HEAD")
    assert ledger.evidence.cache.parses - before == 1   # warm: nothing parsed again


def test_batch_parses_each_blob_once_even_when_only_one_parse_is_kept(repo, ledger):
    other = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n"
    repo.write("shop/other.py", other)
    repo.commit("other")
    store = ["OrderStore.save", "OrderStore.load", "checksum"]
    for i in range(3):   # interleaved: store, other, store, other...
        ledger.record(f"store {'xyz'[i]}", [f"shop/store.py::{store[i]}"])
        ledger.record(f"other {'xyz'[i]}", [f"shop/other.py::{'abc'[i]}"])
    repo.replace("shop/store.py", '"""Order storage."""', '"""Order storage, edited."""')
    repo.replace("shop/other.py", "def a():", "# a comment\ndef a():")
    repo.commit("touch both files")
    # Room for one file's parse only: decision order would parse six times.
    ledger.evidence.cache = SymbolCache(parsed_bytes=len(repo.read("shop/store.py")))
    verdicts = ledger.check(at="HEAD")
    assert {v.status for v in verdicts} == {Status.VERIFIED}
    assert [v.decision.claim for v in verdicts] == [f"{f} {i}" for i in "xyz" for f in ("store", "other")]
    assert ledger.evidence.cache.parses == 2


def test_disk_cache_survives_processes_and_tolerates_corruption(repo, client, tmp_path, caplog):
    ns = f"t{uuid.uuid4().hex[:12]}"

    def fresh():
        return memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                  namespace=ns, path=tmp_path / "ledger")

    one = fresh()
    rec = one.record("save", ["shop/store.py::OrderStore.save"])
    repo.replace("shop/store.py", "% 255", "% 3")
    assert one.verify(rec.id).status is Status.VERIFIED
    two = fresh()
    assert two.verify(rec.id).status is Status.VERIFIED
    assert two.evidence.cache.parses == 0 and two.evidence.cache.disk_hits == 1
    for entry in (tmp_path / "ledger" / "cache").rglob("*.json"):
        entry.write_text("{torn")
    three = fresh()
    assert three.verify(rec.id).status is Status.VERIFIED
    assert three.evidence.cache.parses == 1
    assert "corrupt" in caplog.text


def test_unwritable_disk_cache_only_logs(repo, client, tmp_path, caplog):
    blocker = tmp_path / "ledger" / "cache"
    blocker.parent.mkdir(parents=True)
    blocker.write_text("a file where the cache folder should be")
    ledger = memvet.Ledger.open(repo.path, client=client, embedding=memvet.HashingEmbedder(),
                                namespace=f"t{uuid.uuid4().hex[:12]}", path=tmp_path / "ledger")
    rec = ledger.record("save", ["shop/store.py::OrderStore.save"])
    assert ledger.verify(rec.id).status is Status.VERIFIED
    assert "cannot write symbol cache" in caplog.text
    assert "symbol cache unreadable" in caplog.text


def test_anchor_results_are_typed(repo, ledger):
    rec = ledger.record("save", ["shop/store.py::OrderStore.save", "README.md"])
    verdict = ledger.verify(rec.id)
    assert [c.result for c in verdict.checks] == [AnchorResult.HOLDS, AnchorResult.HOLDS]


def test_a_deleted_symbol_is_not_moved_into_a_generated_bundle(repo, ledger):
    repo.write("lib/util.js", "export function pad(s) {\n  return ' ' + s;\n}\n")
    repo.commit("lib")
    rec = ledger.record("pad prefixes a space", ["lib/util.js::pad"])
    repo.write("lib/util.js", "export const other = 1;\n")
    repo.write("dist/bundle.js", "export function pad(s) {\n  return ' ' + s;\n}\n")
    repo.write("web/app.min.js", "export function pad(s) {\n  return ' ' + s;\n}\n")
    repo.commit("bundle")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.REFUTED, verdict.reason


def test_move_search_parses_only_files_that_can_hold_the_symbol(repo, ledger):
    rec = ledger.record("checksum", ["shop/store.py::checksum"])
    for i in range(20):
        repo.write(f"noise/m{i}.py", f"def f{i}():\n    return checksum([{i}])  # calls, never defines\n")
    text = repo.read("shop/store.py")
    repo.write("shop/store.py", text[: text.index("def checksum")], dedent=False)
    repo.write("shop/sums.py", text[text.index("def checksum"):].replace("checksum", "crc"), dedent=False)
    repo.commit("noise and a renamed move")
    before = ledger.evidence.cache.parses
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION and "shop/sums.py::crc" in verdict.reason
    assert ledger.evidence.cache.parses - before <= 3   # store.py, sums.py (and the recorded blob)


def test_a_symbol_hidden_by_a_syntax_error_is_not_called_deleted(repo, ledger):
    rec = ledger.record("checksum", ["shop/store.py::checksum"])
    repo.replace("shop/store.py", "def checksum(data):", "def checksum(data:")
    verdict = ledger.verify(rec.id)
    assert verdict.status is Status.NEEDS_REVALIDATION, verdict.reason
    assert "syntax errors" in verdict.reason or "does not parse" in verdict.reason


def test_a_long_lived_ledger_sees_a_later_working_tree_move(repo, ledger):
    rec = ledger.record("checksum", ["shop/store.py::checksum"])
    repo.replace("shop/store.py", "import json", "import json  # touched")
    text = repo.read("shop/store.py")
    repo.write("shop/store.py", text.replace("def checksum(data)", "def other_sum(data)").replace(
        "sum(data) % 255", "sum(data) % 7"), dedent=False)
    assert ledger.verify(rec.id).status is Status.REFUTED        # gone, nowhere else yet
    repo.write("shop/later.py", text[text.index("def checksum"):], dedent=False)
    verdict = ledger.verify(rec.id)                              # same process, the tree moved on
    assert verdict.status is Status.NEEDS_REVALIDATION and "shop/later.py" in verdict.reason


def _spy_checks(ledger) -> list:
    """Count the anchor checks the evidence engine really runs."""
    calls: list = []
    real = ledger.evidence._check_one
    ledger.evidence._check_one = lambda *args: calls.append(args) or real(*args)
    return calls


def test_a_check_at_a_commit_is_remembered_and_the_working_tree_is_checked_afresh(repo, ledger):
    rec = ledger.record("save appends one line", ["shop/store.py::OrderStore.save"])
    repo.write("shop/other.py", "x = 1\n")
    repo.commit("unrelated")
    calls = _spy_checks(ledger)
    first = ledger.verify(rec.id, at="HEAD")
    assert ledger.verify(rec.id, at="HEAD") == first and first.status is Status.VERIFIED
    assert len(calls) == 1                      # a commit's answer never changes
    ledger.verify(rec.id)
    ledger.verify(rec.id)
    assert len(calls) == 3                      # the working tree moves on


def test_an_unverifiable_check_is_not_remembered(repo, ledger):
    rec = ledger.record("save appends one line", ["shop/store.py::OrderStore.save"])
    repo.write_bytes("shop/store.py", b"\x00\x01binary now")
    repo.commit("a binary file under the same name")
    calls = _spy_checks(ledger)
    assert ledger.verify(rec.id, at="HEAD").status is Status.NEEDS_REVALIDATION
    ledger.verify(rec.id, at="HEAD")
    assert len(calls) == 2


def test_a_deleted_python_function_is_refuted_with_one_parse(repo, open_ledger):
    """A plain Python name has no signature to follow: the check parses the
    current file once, not the recorded and current files in full again."""
    writer = open_ledger()
    writer.record("checksum sums the bytes modulo 255", ["shop/store.py::checksum"])
    repo.replace("shop/store.py", "def checksum(data):\n    return sum(data) % 255\n", "")
    repo.commit("drop checksum")
    led = open_ledger(namespace=writer.namespace)
    [verdict] = led.check(at="HEAD")
    assert verdict.status is Status.REFUTED
    parses = led.evidence.cache.parses
    led.evidence._follow(verdict.decision.anchors[0], "0" * 40, led.snapshot("HEAD"))
    assert led.evidence.cache.parses == parses
