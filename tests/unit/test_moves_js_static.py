"""A JavaScript/TypeScript member whose name took ``static`` in its own file,
and TypeScript declaration files, which no implementation moves to.

Modelled on axios 6ac574e0..23a25af0: ``Object.assign(AxiosHeaders,
{accessor: function (header) {...}})`` became ``static accessor(header)``
in the class, while ``index.d.cts`` declared ``static accessor(header:
string | string[]): AxiosHeaders;``. The move search took the declaration
for the method's new place."""

from __future__ import annotations

import pytest

from memvet import Status, _code, _moves, _vanished

PATH = "lib/core/AxiosHeaders.js"

# The method's own code, the same in both forms.
BODY = """\
    const internals = this.internals = (this.internals = {accessors: {}});
    const accessors = internals.accessors;
    const prototype = this.prototype;
    function defineAccessor(_header) {
      const lHeader = normalizeHeader(_header);
      if (!accessors[lHeader]) {
        buildAccessors(prototype, _header);
        accessors[lHeader] = true;
      }
    }
    utils.isArray(header) ? header.forEach(defineAccessor) : defineAccessor(header);
    return this;
"""

ASSIGNED = """\
class AxiosHeaders {
  constructor(headers) {
    headers && this.set(headers);
  }
}

Object.assign(AxiosHeaders, {
  accessor: function(header) {
""" + BODY + """\
  }
});

export default AxiosHeaders;
"""

STATIC = """\
class AxiosHeaders {
  constructor(headers) {
    headers && this.set(headers);
  }

  static accessor(header) {
""" + BODY + """\
  }
}

export default AxiosHeaders;
"""

# What the same name holds when the rewrite made it another member: a static
# factory in place of an instance method, no line of the old code kept.
INSTANCE = """\
class Headers {
  accessor(header) {
    const internals = this.internals;
    const found = internals.accessors[normalizeHeader(header)];
    if (found === undefined) {
      throw new TypeError('no accessor for ' + header);
    }
    return found.call(this, header, internals.values);
  }
}
"""

FACTORY = """\
class Headers {
  static accessor(header) {
    return new Headers([[header, []]]);
  }
}
"""

DECLARATIONS = """\
export class AxiosHeaders {
  constructor(headers?: RawAxiosHeaders | AxiosHeaders | string);
  static accessor(header: string | string[]): AxiosHeaders;
}
"""


def _follow(old_text: str, new_text: str, name: str):
    old, new = old_text.encode(), new_text.encode()
    before, after = _code.symbol_table(old, "javascript"), _code.symbol_table(new, "javascript")
    return (_code.follow(before, after, name),
            _vanished.follow(before, after, name, lambda: old, lambda: new))


def test_a_member_assigned_to_the_class_that_became_static_follows_in_its_file():
    plain, checked = _follow(ASSIGNED, STATIC, "AxiosHeaders.accessor")
    assert plain is not None and plain.qualname == "AxiosHeaders.static accessor"
    assert checked == plain  # its code is kept: the same method


def test_an_instance_member_replaced_by_an_unlike_static_one_of_its_name_is_not_followed():
    """Crossing ``static`` by name asks for half the code alike, as in Java."""
    plain, checked = _follow(INSTANCE, FACTORY, "Headers.accessor")
    assert plain is not None and plain.qualname == "Headers.static accessor"
    assert checked is None


def test_a_member_without_keywords_still_ends_where_its_file_has_no_other_of_its_name():
    """Control: a name no new member carries is not followed anywhere."""
    plain, checked = _follow(ASSIGNED, STATIC.replace("static accessor(", "static define("),
                             "AxiosHeaders.accessor")
    assert plain is None and checked is None


@pytest.mark.parametrize(("path", "copy"), [
    ("index.d.ts", True), ("index.d.cts", True), ("types/lib.d.mts", True),
    ("index.ts", False), ("src/d.ts/index.ts", False), ("lib/header.d.js", False),
])
def test_a_declaration_file_is_no_place_to_move_to(path, copy):
    assert _moves.is_copy(path) is copy


def test_a_member_made_static_beside_its_declaration_reads_changed(repo, ledger):
    """End to end: the decision follows the method in its file (its code
    changed, so stale), never into the declaration file added beside it."""
    repo.write(PATH, ASSIGNED)
    repo.commit("headers")
    rec = ledger.record("header accessors are defined once per header name", [f"{PATH}::AxiosHeaders.accessor"])
    repo.write(PATH, STATIC.replace("const prototype = this.prototype;", "const prototype = this.prototype;\n"
                                    "    if (!prototype) return this;"))
    repo.write("index.d.cts", DECLARATIONS)
    repo.commit("classes use static members; typings")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.STALE, verdict.reason
    assert "index.d.cts" not in verdict.reason


def test_a_member_deleted_while_a_declaration_keeps_its_name_is_refuted(repo, ledger):
    repo.write(PATH, ASSIGNED)
    repo.commit("headers")
    rec = ledger.record("header accessors are defined once per header name", [f"{PATH}::AxiosHeaders.accessor"])
    repo.write(PATH, ASSIGNED[: ASSIGNED.index("Object.assign")] + "export default AxiosHeaders;\n")
    repo.write("index.d.cts", DECLARATIONS)
    repo.commit("accessors go; typings keep the old name")
    verdict = ledger.verify(rec.id, at="HEAD")
    assert verdict.status is Status.REFUTED, verdict.reason
