"""Binding classes met on round 6's tuning sets (a humanizing library in
Python, a cookie codec in TypeScript), each both ways.

An example's own names (``foo``, ``a``, ``x``) stand for the reader's
values; what the code writes around them still has to be the code's.
A message the code builds from literals (side by side, or added with
``+``, or assigned to a name first) is the joined text.
"""

from __future__ import annotations

import textwrap

from memvet._claims import EvidenceText, bind
from memvet._rules import contradictions


def ev(label: str, text: str, language: str = "typescript") -> EvidenceText:
    """An anchor's evidence: ``path::Qualified.name`` and its code."""
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), language)


def unbound(claim: str, *evidence: EvidenceText) -> list[str]:
    return [u.term.text for u in bind(claim, list(evidence))]


STRINGIFY = ev("src/index.ts::stringifyCookie", '''\
    export function stringifyCookie(cookie: Cookies, options?: StringifyOptions): string {
      const enc = options?.encode || encodeURIComponent;
      const cookieStrings: string[] = [];
      for (const name of Object.keys(cookie)) {
        const val = cookie[name];
        if (val === undefined) continue;
        cookieStrings.push(name + "=" + enc(val));
      }
      return cookieStrings.join("; ");
    }
''')

CLAMP = ev("src/humanize/number.py::clamp", '''\
    def clamp(value, format="{:}", floor=None, ceil=None):
        if isinstance(format, str):
            return format.format(value)
        msg = (
            "Invalid format. Must be either a valid formatting string, or a function "
            "that accepts value and returns a string."
        )
        raise ValueError(msg)
''', "python")

ACTIVATE = ev("src/humanize/i18n.py::activate", '''\
    def activate(locale, path=None):
        if path is None:
            raise FileNotFoundError(
                "Humanize cannot determinate the default location of the 'locale' folder. "
                + "You need to pass the path explicitly."
            )
''', "python")

LRU = ev("src/index.ts::LRUCache.constructor", '''\
    constructor(options) {
      const { maxSize = 0, maxEntrySize = 0 } = options
      this.#maxSize = maxSize
      this.maxEntrySize = maxEntrySize || this.#maxSize
    }
''')


def test_an_example_call_may_give_its_own_keys() -> None:
    assert unbound("`stringifyCookie({ a: 'x', b: undefined })` gives `a=x`.", STRINGIFY) == []


def test_an_example_call_still_needs_the_callee_of_the_code() -> None:
    assert unbound("`serializeCookie({ a: 'x' })` gives `a=x`.", STRINGIFY) == ["serializeCookie({ a: 'x' })"]


def test_an_example_output_binds_when_the_code_writes_its_separators() -> None:
    assert unbound("Pairs are joined with a semicolon and a space: `a=foo; b=bar`.", STRINGIFY) == []


def test_an_example_output_with_separators_the_code_does_not_write_stays_unbound() -> None:
    assert unbound("Pairs are joined with a bare semicolon: `a=foo;b=bar`.", STRINGIFY) == ["a=foo;b=bar"]
    assert unbound("Pairs are joined with commas: `a=foo, b=bar`.", STRINGIFY) == ["a=foo, b=bar"]


def test_an_example_in_parentheses_after_a_negation_is_not_negated() -> None:
    # "no space (`a=foo;b=bar`)": the example illustrates the claim, the claim does not say the code lacks it
    assert unbound("Output is compact, with no space (`a=foo;b=bar`).", STRINGIFY) == ["a=foo;b=bar"]


def test_a_message_assigned_to_a_name_binds_through_the_call_that_passes_it() -> None:
    assert unbound('Otherwise clamp raises ValueError("Invalid format. Must be either a valid formatting string, '
                   'or a function that accepts value and returns a string.")', CLAMP) == []


def test_a_message_the_code_does_not_assign_stays_unbound() -> None:
    claim = 'Otherwise clamp raises ValueError("Invalid format: expected a format string.")'
    assert unbound(claim, CLAMP) == ['ValueError("Invalid format: expected a format string.")']


def test_literals_joined_by_plus_or_side_by_side_are_one_message() -> None:
    assert unbound('activate() raises FileNotFoundError: "Humanize cannot determinate the default location of '
                   "the 'locale' folder. You need to pass the path explicitly.\"", ACTIVATE) == []
    assert unbound('clamp fails with "Invalid format. Must be either a valid formatting string, or a function '
                   'that accepts value and returns a string."', CLAMP) == []


def test_a_message_joined_from_other_literals_stays_unbound() -> None:
    assert unbound('activate() raises FileNotFoundError: "Humanize cannot find the locale folder."',
                   ACTIVATE) == ["Humanize cannot find the locale folder."]


def test_a_private_field_behind_its_receiver_binds_without_both() -> None:
    assert unbound("maxEntrySize falls back to maxSize (`maxEntrySize || maxSize`).", LRU) == []
    missing = unbound("maxEntrySize falls back to maxAge (`maxEntrySize || maxAge`).", LRU)
    assert missing[-1] == "maxEntrySize || maxAge"


SET_COOKIE = ev("src/index.ts::stringifySetCookie", '''\
    export function stringifySetCookie(cookie: SetCookie): string {
      let str = cookie.name + "=" + (cookie.value === undefined ? "" : enc(cookie.value));
      if (cookie.sameSite) {
        const sameSite = typeof cookie.sameSite === "string" ? cookie.sameSite.toLowerCase() : cookie.sameSite;
        switch (sameSite) {
          case "lax":
            str += "; SameSite=Lax";
            break;
          case "strict":
            str += "; SameSite=Strict";
            break;
        }
      }
      return str;
    }
''')


def test_one_setting_without_its_braces_binds_like_an_object_of_settings() -> None:
    assert unbound("`value: undefined` gives an empty value, so you get `foo=`.", SET_COOKIE) == []
    # a string value the code tests, in any case: it lower-cases before the switch
    assert unbound("`sameSite: 'LAX'` works as well as 'lax'.", SET_COOKIE) == []


def test_one_setting_with_a_key_or_value_the_code_does_not_have_stays_unbound() -> None:
    assert unbound("`sameSite: 'none'` writes SameSite=None.", SET_COOKIE)[0] == "sameSite: 'none'"
    assert unbound("`priority: 'high'` is written last.", SET_COOKIE)[0] == "priority: 'high'"


def test_one_setting_a_caller_passes_binds_and_the_guard_rule_reads_its_value() -> None:
    """Round 7: a setting a caller passes is the reader's value (a use of the code, :mod:`memvet._usage`);
    a value the code refuses is the guard rule's finding, not an unbound term."""
    queue = ev("source/index.ts::PQueue.constructor", '''\
        constructor(options) {
          this.timeout = options.timeout;
          if (typeof this.timeout === 'number' && this.timeout < 1) throw new TypeError('bad timeout');
        }
    ''')
    assert unbound("Passing `timeout: 0` disables the timeout.", queue) == []
    [finding] = contradictions("Passing `timeout: 0` disables the timeout.", [queue])
    assert finding.rule == "guard"
    assert contradictions("Passing `timeout: 5` sets five milliseconds.", [queue]) == []
    # a setting no caller is said to pass is what the code has: a value to find
    assert unbound("The default is `timeout: 0`.", queue) == ["timeout: 0"]


PARSE_SET = ev("src/index.ts::parseSetCookie", '''\
    export function parseSetCookie(str: string): SetCookie {
      const eqIdx = str.indexOf("=");
      const setCookie: SetCookie = eqIdx === -1
        ? { name: "", value: decode(str) }
        : { name: str.slice(0, eqIdx), value: decode(str.slice(eqIdx + 1)) };
      for (const attr of attrs) {
        switch (attr.toLowerCase()) {
          case "domain":
            setCookie.domain = val;
            break;
          case "expires":
            const date = new Date(val);
            if (Number.isFinite(date.valueOf())) setCookie.expires = date;
            break;
          case "secure":
            setCookie.secure = true;
            break;
        }
      }
      return setCookie;
    }
''')


def test_an_attribute_written_as_a_header_writes_it_binds_with_an_example_value() -> None:
    assert unbound("parseSetCookie stores whatever follows `Domain=` as-is.", PARSE_SET) == []
    assert unbound("An invalid date (`expires=invalid`) is ignored.", PARSE_SET) == []


def test_an_attribute_the_code_does_not_read_or_a_value_of_its_own_stays_unbound() -> None:
    assert unbound("parseSetCookie reads `Path=` too.", PARSE_SET) == ["Path="]
    assert unbound("`expires=0` is ignored.", PARSE_SET) == ["expires=0"]


def test_an_output_of_code_words_and_the_example_own_values_binds() -> None:
    assert unbound("parseSetCookie('abc; Secure') gives `{ name: '', value: 'abc', secure: true }`.",
                   PARSE_SET) == []


def test_an_output_with_a_value_from_nowhere_stays_unbound() -> None:
    missing = unbound("parseSetCookie('abc; Secure') gives `{ name: 'x', value: 'abc', secure: true }`.", PARSE_SET)
    assert missing == ["{ name: 'x', value: 'abc', secure: true }"]


def test_an_import_binds_to_the_names_the_package_exports() -> None:
    exported = {"humanize.natural_list", "humanize"}
    lists = ev("src/humanize/lists.py::natural_list", '''\
        def natural_list(items):
            return ", ".join(items)
    ''', "python")

    def unbound_with(claim: str) -> list[str]:
        return [u.term.text for u in bind(claim, [lists], exists=lambda t: t.text in exported)]

    assert unbound_with("`from humanize import natural_list` works.") == []
    assert unbound_with("`from humanize import natural_join` works.") == ["from humanize import natural_join"]


def test_a_number_the_code_writes_as_a_power_binds() -> None:
    sizes = ev("src/index.ts::getUintArray", '''\
        const getUintArray = (max: number) =>
          max <= Math.pow(2, 8) ? Uint8Array : max <= 2 ** 16 ? Uint16Array : max <= 1 << 31 ? Uint32Array : null
    ''')
    assert unbound("Uint8Array up to 256 entries, Uint16Array up to 65536.", sizes) == []
    assert unbound("Uint32Array up to 2147483648 entries.", sizes) == []
    assert unbound("Uint8Array up to 255 entries.", sizes) == ["255"]


MULTICALL = ev("src/pluggy/_callers.py::_multicall", '''\
    def _multicall(hook_name, hook_impls, caller_kwargs, firstresult):
        for hook_impl in reversed(hook_impls):
            try:
                args = [caller_kwargs[argname] for argname in hook_impl.argnames]
            except KeyError as e:
                raise HookCallError(
                    f"hook call must provide argument {e.args[0]!r}"
                ) from e
            raise RuntimeError("hook %r failed" % hook_name)
''', "python")


def test_a_repr_field_prints_the_example_value_in_its_quotes() -> None:
    assert unbound("It raises HookCallError(\"hook call must provide argument 'x'\").", MULTICALL) == []
    assert unbound("It fails with \"hook 'myhook' failed\".", MULTICALL) == []


def test_a_message_of_another_callee_or_other_words_stays_unbound() -> None:
    assert unbound("It raises ValueError(\"hook call must provide argument 'x'\").", MULTICALL) == [
        "ValueError(\"hook call must provide argument 'x'\")"]
    assert unbound("It raises HookCallError(\"hook call needs argument 'x'\").", MULTICALL) == [
        "HookCallError(\"hook call needs argument 'x'\")"]
