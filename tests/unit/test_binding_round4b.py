"""Binding classes met on a command-line library's facts, each both ways.

Options and placeholders a claim gives as examples ("a short flag like
`-x`", "long `--flags`", "`[optional]` arguments"), example calls whose
callee the repository defines (a spec string, an object of settings the
anchored code reads), a call inside a message is no call, an example
message whose fields the claim fills with a quoted placeholder and a list,
a platform method named through its object in prose, and plain words joined
by slashes: a true variant binds, a false one stays unbound.
"""

from __future__ import annotations

import textwrap

from memvet._claims import EvidenceText, TermKind, bind


def js(label: str, text: str) -> EvidenceText:
    """An anchor's evidence: ``path::Qualified.name`` and its JavaScript code."""
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), "javascript")


def unbound(claim: str, *evidence: EvidenceText, exists: object = None) -> list[str]:
    return [u.term.text for u in bind(claim, list(evidence), exists=exists)]  # type: ignore[arg-type]


UNKNOWN = js("lib/command.js::Command.unknownOption", """\
    unknownOption(flag) {
      let suggestion = '';
      if (flag.startsWith('--') && this._showSuggestionAfterError) {
        suggestion = suggestSimilar(flag, candidateFlags);
      }
      const message = `error: unknown option '${flag}'${suggestion}`;
      this.error(message, { code: 'commander.unknownOption' });
    }
""")

ARGUMENT = js("lib/command.js::Command.addArgument", """\
    addArgument(argument) {
      if (argument.required && argument.defaultValue !== undefined && argument.parseArg === undefined) {
        throw new Error(`a default value for a required argument is never used: '${argument.name()}'`);
      }
      this.registeredArguments.push(argument);
      return this;
    }
""")

SPLIT = js("lib/option.js::splitOptionFlags", """\
    function splitOptionFlags(flags) {
      let shortFlag;
      let longFlag;
      const flagParts = flags.split(/[ |,]+/).concat('guard');
      if (/^-[^-][^-]/.test(flagParts[0]))
        throw new Error(`${baseError}
    - or use a double dash for a long option (and can have two, like '--ws, --workspace')`);
      return { shortFlag, longFlag };
    }
""")

COMPARE = js("lib/help.js::Help.visibleOptions", """\
    visibleOptions(cmd) {
      const visibleOptions = cmd.options.filter((option) => !option.hidden);
      if (this.sortOptions) {
        visibleOptions.sort(this.compareOptions);
      }
      return visibleOptions;
    }
""")

EXCESS = js("lib/command.js::Command._excessArguments", """\
    _excessArguments(receivedArgs) {
      const expected = this.registeredArguments.length;
      const s = expected === 1 ? '' : 's';
      const forSubcommand = this.parent ? ` for '${this.name()}'` : '';
      const details = receivedArgs.join(', ');
      const message = `error: too many arguments${forSubcommand}. Expected ${expected} argument${s} ` +
        `but got ${received}: ${details}.`;
      this.error(message, { code: 'commander.excessArguments' });
    }
""")

COLOR = js("lib/command.js::useColor", """\
    function useColor() {
      if (process.env.NO_COLOR || process.env.FORCE_COLOR === '0' || process.env.FORCE_COLOR === 'false')
        return false;
      if (process.env.FORCE_COLOR || process.env.CLICOLOR_FORCE !== undefined) return true;
      return undefined;
    }
""")

REDIRECT = EvidenceText("app/responses.py::RedirectResponse.__init__", textwrap.dedent('''\
    def __init__(self, url, status_code: int = 307, headers=None) -> None:
        super().__init__(content=b"", status_code=status_code, headers=headers)
'''), ("app/responses.py::RedirectResponse.__init__", "RedirectResponse.__init__"), "python")

METHODS = EvidenceText("app/routing.py::Route.__init__", textwrap.dedent('''\
    def __init__(self, path, endpoint, methods=None) -> None:
        self.methods = {"GET", "HEAD"} if methods is None else set(methods)
        if "GET" in self.methods or "POST" in self.methods:
            self.methods.add("HEAD")
'''), ("app/routing.py::Route.__init__", "Route.__init__"), "python")


def test_an_option_given_as_an_example_is_the_examples() -> None:
    claim = "an unknown short flag like `-x` just gets \"error: unknown option '-x'\"."
    assert unbound(claim, UNKNOWN) == []
    assert unbound("an unknown short flag `-x` just gets an error.", UNKNOWN) == ["-x"]


def test_an_option_named_by_a_word_for_any_option_is_the_shape() -> None:
    assert unbound("suggestions are only computed for long `--flags`.", UNKNOWN) == []
    assert unbound("suggestions are only computed for long `--verbose`.", UNKNOWN) == ["--verbose"]


def test_an_option_the_program_has_must_exist_even_after_like() -> None:
    assert unbound("the program has options like `--verbose`.", UNKNOWN) == ["--verbose"]
    assert unbound("unknownOption handles a `--foo` option.", UNKNOWN) == ["--foo"]


def test_a_bracketed_placeholder_before_what_it_stands_for_is_the_shape() -> None:
    claim = "defaults only make sense on `[optional]` arguments."
    assert unbound(claim, ARGUMENT) == []
    assert unbound("defaults only make sense with `[optional]`.", ARGUMENT) == ["[optional]"]
    # two placeholders are a usage the claim gives, not one shape
    assert unbound("several variadic arguments like `<src...> [extra...]` are split.", ARGUMENT) \
        == ["<src...> [extra...]"]


def fits(*calls: str) -> object:
    """An ``exists`` callback: the repository defines a callee these calls fit."""
    return lambda term: term.kind is TermKind.CALL and term.text in calls


def test_a_call_inside_a_message_is_no_call_of_the_code() -> None:
    # "a long option (and can have two ...)" is text: the example call is looked up in the repository
    claim = "e.g. `.option('--ws, --workspace <name>')` gives an option two long flags."
    assert unbound(claim, SPLIT, exists=fits("option('--ws, --workspace <name>')")) == []
    assert unbound(claim, SPLIT, exists=fits()) == [".option('--ws, --workspace <name>')"]


def test_an_object_of_settings_the_anchored_code_reads_is_an_example_argument() -> None:
    exists = fits("configureHelp(<_>)")
    assert unbound("configureHelp({ sortOptions: true }) sorts the options.", COMPARE, exists=exists) == []
    # a key the code never reads, or a value that is no switch, stays the claim's to prove
    assert unbound("configureHelp({ sortFlags: true }) sorts the options.", COMPARE, exists=exists) \
        == ["configureHelp({ sortFlags: true })"]
    assert unbound("configureHelp({ sortOptions: 'long' }) sorts the options.", COMPARE, exists=exists) \
        == ["configureHelp({ sortOptions: 'long' })"]


def test_an_example_message_fills_fields_with_a_quoted_placeholder_and_a_list() -> None:
    claim = "too many operands give \"error: too many arguments for '<sub>'. Expected 1 argument but got 2: a, b.\""
    assert unbound(claim, EXCESS) == []
    wrong = "too many operands give \"error: too many arguments for '<sub>'. Wanted 1 argument but got 2: a, b.\""
    assert unbound(wrong, EXCESS) == ["error: too many arguments for '<sub>'. Wanted 1 argument but got 2: a, b."]


def mentioned(*words: str) -> object:
    """An ``exists`` callback: the repository mentions these words somewhere."""
    return lambda term: term.kind is TermKind.PROPER and term.text in words


def test_a_platform_method_named_through_its_object_binds_where_the_repository_mentions_it() -> None:
    claim = "with none set, useColor() returns undefined and the TTY's hasColors() decides."
    assert unbound(claim, COLOR, exists=mentioned("hasColors")) == []
    assert unbound(claim, COLOR, exists=mentioned()) == ["hasColors()"]
    # written as a call of its own, not a method of an object in prose, it is the code's to say
    plain = "with none set, useColor() returns undefined and hasColors() decides."
    assert unbound(plain, COLOR, exists=mentioned("hasColors")) == ["hasColors()"]


def test_plain_words_joined_by_slashes_are_prose_unless_the_code_names_one() -> None:
    assert unbound("pass status_code=303 explicitly for post/redirect/get.", REDIRECT) == []
    assert unbound("pass status_code=303 explicitly for `post/redirect/get`.", REDIRECT) == ["post/redirect/get"]
    # a method list whose words the code says is checked member by member
    assert unbound("Route accepts get/post/patch.", METHODS) == ["get/post/patch"]



PREPARE = js("lib/command.js::Command._prepareForParse", """\
    _prepareForParse() {
      this.options.forEach((option) => {
        if (option.negate && this.getOptionValue(option.attributeName()) === undefined) {
          this.setOptionValueWithSource(option.attributeName(), true, 'default');
        }
      });
    }
""")


def known(*texts: str) -> object:
    """An ``exists`` callback: the repository has these calls and options."""
    return lambda term: term.text in texts


def test_an_example_options_own_key_through_a_call_of_the_code_is_the_examples() -> None:
    exists = known("opts()", "--no-sauce", "--no-color")
    claim = "a lone `--no-sauce` option (no positive `--sauce` defined) makes `opts().sauce` default to true."
    assert unbound(claim, PREPARE, exists=exists) == []
    # a key that is not the option's own word, or read through a call the code lacks, is the code's to say
    assert unbound("`--no-color` ends up as `opts().noColor`.", PREPARE, exists=exists) == ["opts().noColor"]
    assert unbound(claim, PREPARE, exists=known("--no-sauce")) == ["opts().sauce"]


ATTRIBUTE = js("lib/option.js::Option.attributeName", """\
    attributeName() {
      if (this.negate) {
        return camelcase(this.name().replace(/^no-/, ''));
      }
      return camelcase(this.name());
    }
""")


def test_an_example_of_a_mapping_the_claim_names_binds_when_the_affix_does() -> None:
    claim = ("`attributeName()` camel-cases the long name and drops `no-` for negated flags, "
             "so `--no-color-output` is stored as `colorOutput`.")
    assert unbound(claim, ATTRIBUTE) == []
    # the key keeps the affix the claim says is dropped, or the claim names no affix: the code's to say
    kept = claim.replace("`colorOutput`", "`noColorOutput`")
    assert unbound(kept, ATTRIBUTE) == ["--no-color-output", "noColorOutput"]
    bare = "`attributeName()` camel-cases the long name, so `--no-color-output` is stored as `colorOutput`."
    assert unbound(bare, ATTRIBUTE) == ["--no-color-output", "colorOutput"]
    # an affix the code never writes does not bind, and neither does its example
    other = claim.replace("`no-`", "`not-`").replace("--no-color-output", "--not-color-output")
    assert "colorOutput" in unbound(other, ATTRIBUTE)
