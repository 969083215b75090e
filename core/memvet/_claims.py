"""Claims bound to their evidence: the write path's answer to the present trap.

The read path can only say that the evidence is unchanged. Whether the claim
follows from it is decided here, when the decision is written, without a
model: the claim's *code-like terms* must occur in the anchored evidence.

Term classes (everything else in a claim is prose and binds to nothing)::

    code        a backticked span that is none of the shapes below: `a[0] + 1`
    call        name(args), dotted callee allowed: popitem(last=False); a
                method or a decorator written as code (`.env('PORT')`,
                `@retry(stop=...)`) and a construction (`new Koa()`)
    keyword     name=value written without spaces: last=False
    dotted      two or more identifiers joined by dots: hashlib.sha1, LRU.put
    identifier  with an underscore, inner capitals or a digit: max_size,
                OrderedDict, sha256 (SHA-256 and SHA256 fold to sha256, and
                a protocol and its version, HTTP/2, to http2,
                which also binds where the code compares the protocol's
                version: httpVersionMajor)
    constant    UPPER_CASE with an underscore: HASH_VERSION; a shell
                variable $EDITOR or ${XDG_CONFIG_HOME} is the constant
                it names
    number      5, 5.0, 1_000, 0x1F, 0o644, 0b101 (compared by value: 5 == 5.0,
                0o600 == 384); 2xx is a status class
    string      "double" or 'single' quoted text; a header written bare:
                a custom one, X-Forwarded-For (compared in any case), or
                a standard one, Content-Type (bound where any code file
                of the repository says it: code sets it through helpers)
    path        a/b/c.py, setup.py, ./x, ~/.netrc (two plain words like and/or are
                prose; dotted names or numbers joined by slashes, like
                res.json/res.jsonp or 502/503, are one term each)
    address     URLs, host:port, IPv4 addresses
    version     >=2.31, 1.2.3, v2.0
    package     what an install command names: pip install brotli,
                npm i ky, pip install httpx[http2]

An option written bare (``--manpage``) is a code term.

    proper      a name in prose: a capitalized word mid-sentence
                (``Airflow``, ``Tornado``) or an all-caps one of four
                letters or more (``SIGTERM``); it binds where the project
                mentions it anywhere, in any case

Prose, never a term: bare lowercase words (``cache``), common acronyms
(``HTTP``, ``JSON``, ``LRU``), words in capitals for emphasis (``NOT``,
``TODO``), a status's reason phrase (``301 Moved Permanently``), a
sentence's first word, booleans, well-known product names with inner capitals
(``GitHub``), placeholders outside a term (``<name>``, ``<h1>..<h6>``),
regular-expression escapes (``\\b``), example query strings (``?a[b]=1``) and
numbers that are labels: ``#2491``, ``issue 12``, ``ADR-0007``, ``RFC 7230``,
a year (``since 2019``), the version of a named product (``Express 5``)
and a number in an example aside (``(e.g. you set 301 first)``).
Refusing them would refuse true claims written in plain English.

Binding classes, each a small rule below (``_BINDERS``), the way people write::

    names       identifiers, dotted names and paths occur in the evidence
                (comments and docstrings included: they are what the code
                says about itself), name an anchor (``LRU.put``, the path,
                the module ``memvet._cache``), a module the anchored file
                imports, or a file, module or symbol of the repository at
                the recorded commit (the ``exists`` callback, which also
                follows a package's re-exports). Names compare
                case-insensitively to identifiers, their ``_`` parts,
                modules and dependency names (``Redis`` ~ ``redis``, ``NaN``
                ~ ``allow_nan``); constants do not (``NO_PROXY`` binds to a
                string ``"no_proxy"``, never to a variable). A Rust
                path in backticks reads as it does in prose
                (`StatusCode::from_u16` for ``StatusCode.from_u16``,
                `byteorder::BE` through the crate's own name), except a
                variant (`VersionReq::Star`: a value, in the anchored
                code only). A name written with its words shortened
                (``prefix_len``) binds to the one name of the code it
                starts word by word (``prefix_length``).
    expressions a code span binds with the receivers of its names left
                out (`seconds_since_start + upcoming_sleep` for
                ``retry_state.seconds_since_start + retry_state.upcoming_sleep``)
                and Go's numeric conversion of one name left out
                (`size+writeLen >= max` for ``size+int64(writeLen) >=
                l.max()``),
                an exception and its message as Python prints them
                (`ValueError: <message>` where the code raises it),
                object shorthand by its keys (`{ exitCode, code }`), an
                operator by the method the anchored class implements
                it with (`&` for ``__and__``; an expression of it is not
                bound so), an iteration by the protocol the anchored
                class implements (`async for x in C(...)` where ``C``
                defines ``__anext__``, not in a method that only
                raises), and a member read through the package
                (`require('koa').HttpError` where the anchored file
                exports it).
    builtins    Python's built-in names (``KeyboardInterrupt``) bind in
                Python evidence, the global functions of JavaScript
                runtimes (``setTimeout``) in JavaScript evidence.
    phrases     a standard HTTP reason phrase (``'Not Found'``) binds
                where the code looks phrases up (``statuses.message``,
                ``STATUS_CODES``, ``HTTPStatus``).
    values      numbers, strings, addresses, versions, keyword values and
                code spans bind to the code only: a comment or a docstring
                never supports a value or a quote.
    keywords    ``kw=value`` binds when the code writes it (``kw = value``,
                ``kw: T = value``, an annotation holding literals
                ``kw: Literal["a", "b"] = "a"``, ``"kw": value``, ``env["KW"] = "value"``,
                ``kw == value``, or one assignment away: ``env =
                process.env.KW`` and ``env === 'value'``), passes ``value`` to
                a parameter ``kw`` it defines, or ``value`` is a boolean and
                ``kw`` a boolean parameter or a condition of the code;
                a value through its module (``max=MAX_WAIT`` for ``max
                = _utils.MAX_WAIT``); a boolean for a switch the anchored
                file names, which the code never sets to the other
                value (``reraise=True``);
                an environment variable and its value (``TERM=dumb``)
                bind where one line of the code writes both as strings
                (``os.environ.get("TERM") in ("dumb", "emacs")``), where
                the code compares the variable, or one named after it,
                with the value either way (``env.TERM !== "dumb"``,
                ``nodeENV === "test"`` for ``NODE_ENV=test``), and as
                "set" (``NO_COLOR=1``, ``CI=true``) where the code tests
                the variable for being set and compares it with no value
                (``!env.NO_COLOR``); any value, where the code tests the
                variable for being set and never reads its value
                (``'PYFLAKES_DOCTEST' in os.environ``, ``_, ok :=
                os.LookupEnv("X")``: "even PYFLAKES_DOCTEST=0 turns it on").
                A keyword set to ``None`` (``nil``, ``null``,
                ``undefined``) binds where the code tests the name against
                it (``if attempts is not None``) or a parameter of that
                name is typed to hold it (``attempts: int | None``).
                A keyword written as what a caller passes ("pass
                ``status_code=303``", "call it with ``x=1``") needs the
                parameter only; one the claim calls the default needs
                the value too. A bare ``kw=`` (``default=``) is the
                parameter; a backticked ``kw=[...]`` is a keyword.
    calls       the code makes the call (same receiver, each written
                argument inside it, or as many arguments, each a variable
                of the example: ``str(exc)`` for ``str(exception)``), or
                it defines the callee and the call
                fits the definition: an example, whose arguments are
                placeholders, booleans, words of the code, values the code
                writes, or values for a parameter the code compares with
                one value at most (``header === '*'`` is a special case;
                two values, a ``switch`` or a membership test make a
                list the value must be in). A callee the evidence neither calls nor
                defines is looked up in the repository (``exists``); an
                awaited call is the call, and an instance called by its
                class's name lower-cased (``config('DEBUG', cast=bool)``
                for an anchored ``Config._perform_cast``) must fit the
                class's ``__call__``. An object of settings whose keys
                the anchored code reads and whose values are booleans,
                numbers or placeholders (``configureHelp({ sortOptions:
                true })`` where it tests ``this.sortOptions``) is an
                example argument; a call inside a string of the code
                ("a long option (and can have two ...)") is no call. A
                method without arguments the claim reaches through an
                object in prose ("the TTY's ``hasColors()``") is a
                platform API: a name of code only the repository
                mentions somewhere. A formula binds the way people write
                one (``min(attempt_number, len(strategies))`` for
                ``min(max(state.attempt_number, 1), len(self.strategies))``):
                the code's callees, operators and literals, receivers
                and a clamp (a call whose other arguments are literals)
                left out, an operand in prose words that are parts of
                its names (``terminal columns``), a name by the value the
                code assigns it (``80`` for ``max_width = 80``). An
                example's value may be a library's function of the
                code's name from a library the project names
                (``sleep=trio.sleep``). A call whose argument is a
                placeholder binds where the code writes the call as text
                (``cb(<json>)`` of ``callback + '(' + body + ');'``). A
                ``**kwargs`` catch-all the function reads only by literal
                keys (``"k" in legacy``, ``legacy.get("k")``) takes those
                keys, no other keyword. A call on a call's result may be
                written through the local the code assigns it to
                (``accepts(req).type(x)`` for ``var accept = accepts(req)``
                ... ``accept.type(x)``), and a statement's ``;`` is layout
                (Go's lines written on one). A signature written out may
                leave its trailing defaults off when it writes a
                positional name (``log_durations(print_func, ...,
                threshold=0)``, read for its defaults); written with the
                definition's own names in another order it does not bind
                (``NewMatcherWithJunk(a, b, isJunk, autoJunk)``). A
                TypeScript function's generics (``function f<T extends
                X>(s: T)``) do not hide its parameters. "throws" and
                "raises" before a call say the code makes it as written;
                an options object the code passes last is left out as
                keywords are (``createError(415, 'msg')`` for
                ``createError(415, 'msg', { encoding })``). An HTTP status
                in an argument is the platform's constant for it
                (``http.Error(w, ..., 405)`` for
                ``http.StatusMethodNotAllowed``); a separator (``", "``)
                binds only as written, whitespace included; a reader's
                borrow (``&mut s``) fits a reference parameter; a call on
                ``super()`` is the code's own, never a reader's use.
    templates   a message written with placeholders (``'<code> <reason>'``,
                ``...``) matches a string the code formats (``{x}``, ``%s``,
                ``${x}``) or concatenates (``'a' + x``): a placeholder stands
                for any text, a field of the code for any text made of words
                the code says (a list too: ``a, b``), or for nothing when
                it is glued to a word (``name{ending}``); a quoted
                placeholder (``for '<sub>'``) stands for a field's text,
                quotes and all, or for the code's own ``'${name}'``. A
                message that starts with a string of the code (eight
                characters or more) and goes on with
                strings and words of the same code is the message the code
                joins (``"Disallowed CORS " + ", ".join(failures)``).
                The fixed words a formatted message starts with ("Did you
                mean" of ``"Did you mean {possibility}?"``) are the
                message's, and ``<Type>: <msg>`` is one placeholder: an
                exception as Python prints it. A printing call's line is
                its arguments joined by spaces (``fmt.Fprintln(os.Stderr,
                "Failed to fire hook:", err)``, ``print``, ``console.log``);
                strings in a subscript (``data["fields."+key]``) and Go's
                verbs (``%v``, ``%q``) are templates too, and a string is
                read without the layout around it (``"\n\nCaused by:"``)
                or a line continued with a backslash. A quote that starts
                or ends in ``...`` is an excerpt of a longer message; a
                separator written as an escape (``'\\n'``) is compared as
                written. A formatted message's fields are the claim's own
                words (``"... at index {i}"`` for ``f"... at index
                {row_index}"``). An example of what one message prints,
                whole, binds with a run without spaces in each field (Go's
                ``%q`` in its quotes; a stand-in, ``X`` or ``<r>``, too):
                ``[]int[0] != []int[1]`` of ``"%s[%d] != %s[%d]"``, ``int
                != string`` of ``"%v != %v"``; not for a format with fewer
                than two characters of its own (``"%s=%s"``) or only
                brackets (```[${raw}]```), nor for a
                field after ``=`` or ``:``, which is a setting's value the
                claim states (``; domain=example``), nor for a field the code
                fills with literals of its own. Literals written side by
                side or joined with ``+`` are one message: a quote of all
                of it binds, and so does an excerpt (``...`` at an end) of
                twelve characters or more.
    units       a number with a unit binds to its value in the units code
                keeps (``10 s`` ~ ``10_000`` ms, ``1 MiB`` ~ ``1024 *
                1024`` bytes; never to a small whole number), a bit width
                to a bound or a type of that width (``32-bit`` ~
                ``2_147_483_647``, ``Uint32Array``), a series the claim
                extrapolates (``300 ms, 600 ms, 1200 ms ...``) to its first
                item and a step the code writes, a number the claim
                computes from one of the code (``9229 -> 9230`` beside
                ``port+1``, the code writing ``+ 1``), and a zero the
                code tests as falsy ("``listenerCount('error')`` is 0"
                for ``!this.listenerCount('error')``). "2+" and "2 or more"
                are the rest past the code's last case (``== 1``). One size
                written two ways binds as one ("8 (bytes of a 64-bit
                hash)", "the 4-byte magic ``"xxh\\x06"``": the length of
                a string the claim quotes), and so does a number the claim
                works out from an expression of the code's constants and
                numbers ("``_MAX_SIZE / 2`` keys, i.e. 64", "5 * 365 / 12
                (~152 days)", rounded only where it says "~" or "about").
                A hexadecimal number is a character's escape (``0x40`` for
                ``'\\x40'``); "since 5.0" is the release a string of the
                code is (``__version__ = "5.0.1"``); the charset number of
                a POSIX locale (``ja_JP.UTF-8``) is the reader's, for code
                that reads the locale, as the locale itself is.
    options     an option path binds to a key of the options object
                (``retry.methods`` ~ ``defaultRetryOptions = {methods:
                ...}``), an anchored symbol to a namespace it is reached
                through (``ky.retry`` for ``constants.ts::retry``), and
                alternatives joined by slashes word by word
                (``get/post/put``; names, ``make_context/invoke`` or
                ``Windows/OS2``, each a name the evidence says). Three or
                more plain lower-case words joined by slashes outside
                backticks, none a word or string of the code
                (``post/redirect/get``), are prose.
    uses        a usage example read by the grammar of the anchored
                language (:mod:`memvet._usage`): its callees, members,
                keywords and keys are the library's and must be words of
                the code (the outermost callee defined or anchored there,
                or a symbol of the repository), its receivers, variables
                and literal values the reader's (``queue.add(fn,
                {timeout})``, ``jwt.encode(payload, key,
                algorithm=None)``); a boolean for a key the code decides
                on, a string for a key it compares with strings one of
                those; a bare setting (``inflate: false``) only where the
                claim says a caller passes it. A call the code makes
                itself (``os.urandom(32)``, an exception with its message)
                is not a use. A backticked message binds like a quoted one.
                Go and Rust examples are read by their own grammars
                (``r.Handle("GET /users", h)``, ``bail!("x {}", y)``);
                ``"off".parse::<Level>()`` is the anchored ``<Level as
                FromStr>.from_str``, and a formatting macro over the
                reader's own values (``format!("{:#}", err)``) is theirs.
    rust        an enum value (``Level::Trace``) and a generic type
                (``Option<u64>``) are values, bound in the anchored code
                only; a path (``kv::Key``, ``anyhow::Error``,
                ``VersionReq::STAR``) names an item, ``std::`` ones the
                platform's; ``$crate::`` in a macro is the crate's path;
                ``Some(..)``'s rest stands for any arguments.
    platform    an HTTP status written as a number binds to the constant
                the code names it by (``429`` ~ ``http.StatusTooManyRequests``
                or ``HTTPStatus.TOO_MANY_REQUESTS``); Go's and Rust's own
                names bind in prose (``nil``, ``usize``, ``no_std``), a
                setting to its ``DefaultX`` constant, a family to its
                prefix (``ClientIPFrom*``), a list that goes on
                (``Get/Post/etc``) by its names. A Go build constraint
                binds written with or without its ``//`` (`+build !linux`)
                where the anchored file has it (a Go definition's evidence
                carries its file's constraints). A
                package.json script run by its name (`npm run test-ci`,
                `pnpm build`) binds where the anchored manifest defines
                it; a logical operator made a verb ("ANDed", "XORing") is
                prose.
    examples    an option the claim gives as an example ("a short flag
                like ``-x``"), names by a word for any option ("long
                ``--flags``") or writes as one bracketed placeholder before
                what it stands for ("``[optional]`` arguments") is the
                example's, unless the clause says the program has it
                ("has options like ``--verbose``", "a ``--foo`` option");
                an example option's own key read through a call the code
                has (``opts().sauce`` beside ``--sauce``) is the example's,
                and so is an option the claim says "is stored as" a key
                when the claim names an affix the code drops and writes
                (drops ``no-``, so ``--no-color-output`` is stored as
                ``colorOutput``): the key is the option without its dashes
                and that affix, camel- or snake-cased.
                An example call may name its own variables and pass a
                function (``ky.extend(parent => ({...}))``); a callback the
                claim writes keeps its own values (``status => status !==
                404``); an example message fills the fields of the code's
                message when most of the code's own text is quoted; an
                address whose host is an ellipsis or a placeholder word
                (`https://user:pass@host/`, backticked or not), and the
                paths a claim joins to an example address, are the
                example's; so is a
                piece of regular-expression syntax for the reader's
                pattern ("prefix your pattern with `.*`") where the
                anchored code compiles or matches patterns.
    contrasts   a value the claim rules out after another ("defaults to
                307, not 302", "'lax' (not 'strict')") is no term; the
                value it states is. A value the claim sets apart from a
                closed set of the code (a literal array or ``Set``, a
                regular expression's alternatives ``/^(get|put)$/i``),
                after naming the whole set in another clause ("only
                `tcp:` and `udp:`; anything else (e.g. `ipc:`)", "knows
                408 and 429; 500 is not", "only GET/PUT are upper-cased;
                `patch` stays lowercase"), is checked absent from that
                set; one the claim adds to it ("too", "also") must bind.
    pairs       ``key: value`` written the way docs and HTTP write it
                (`Accept: */*`, `overLimit: true`) binds where the code
                writes the two together: a call passing both
                (``headers.set('accept', '*/*')``, the key in any case),
                an assignment or an object entry; never the key and the
                value each found somewhere else. A value with a
                placeholder (``WWW-Authenticate: Basic realm="<realm>"``)
                binds to the string the same line formats for the key.
                A pair the claim says the code reads ("returns False on
                `Connection: close`") binds where the code reads the key
                into a variable and tests it for the value
                (``connection = get_comma_header(headers,
                b"connection")``, ``if b"close" in connection``).
    context     a path with placeholders the claim gives as an example
                ("a path like ``/{id}/items/{id}``"), a dotfile named in
                backticks (```.env```) where the project mentions it, and
                an instance's member (``request.session``) whose receiver
                is a class of the repository lower-cased, written so where
                the project writes it. A standard-library module a claim
                about Python code names in prose ("passed through
                gettext") must be one the project mentions somewhere.
    raises      a name the claim says is raised or thrown must be raised,
                thrown or caught by the anchored code.
    absence     an absence anchor's rule is never positive evidence: it
                supports a term only in a clause that negates it. A name
                right after a negation ("no `-h`", "does not call
                `flush`") binds where the code lacks it; a value there
                is a bound ("never exceeds 60 s") and must bind.
    neighbours  an identifier the anchored file defines (at its top level
                or in a class) or imports (``BadParameter`` beside an
                anchored ``UsageError``), a name of code only (with ``_``
                or inner capitals) that a code file outside tests,
                examples and docs defines, the package's own name for its
                class (``new Koa()`` for an anchored constructor), an
                option a code file of the repository writes as a string
                (``--help``), an instance's member through its class
                (``result.exception`` for ``Result.exception`` or an
                attribute its methods set), the anchored member through
                an instance (``ctx.body`` for ``set body``) and an
                instance named the usual short way (``app``, ``ctx``,
                ``res`` for ``Application``, ``context``, ``response``:
                its initial, then letters of the name in order) for
                ``this``/``self`` of the anchored class.
    instances   a name the code builds from a template, its fields filled
                (``_MY_TOOL_COMPLETE`` of ``f"_{prog_name}_COMPLETE"``),
                a name the claim writes with fields
                (```{parent prefix}_{INFO_NAME}```), and a home path the
                code expands (``~/.netrc`` of ``f"~/{f}"`` over
                ``(".netrc", "_netrc")``). The value an example assigns to
                an anchored setter (``ctx.body = '<p>hi</p>'``) is the
                example's input, and a number written after the claim's
                own call that passes it is the call's
                (``stop_after_attempt(3) means at most 3 calls``).
    lists       a list of three or more names, at least two (and half) of
                them string literals of the anchored code, is read as the
                code's list: a member the code says nowhere is a term the
                code does not say (``subdomainOffset, proxy, env and
                keys`` for ``['subdomainOffset', 'proxy', 'env']``).
    computed    numbers the code computes are the code's: sums of literals
                (``case 36 + 9``), constants set by arithmetic of constants
                (``const y = d * 365.25``) and Go ``iota`` blocks
                (:func:`constant_values`); a keyword ``FgRed=31`` binds to
                the constant's computed value. A Rust literal's type suffix
                is no part of its value (``64u8`` is 64). "2 spaces"
                ("4 tabs") binds where the code writes a string of exactly
                that many; a number a colour sequence of a string takes as
                a parameter binds (``32`` of ``"\x1B[32m"``).
    inputs      a string an anchored regular expression of the code takes
                whole (:func:`anchored_patterns`: ``'2 Days'`` for
                ``/^...(days?|...)?$/i``; not a pattern that is one set of
                characters repeated, ``^[\\x20-\\x7e]*$``, which takes any
                sentence), and a variable the code takes by its prefix
                (``DEBUG_HIDE_DATE`` for ``/^debug_/i``, the rest a setting
                of the code: ``hideDate``).
    negated     a value the claim says the code does not have ("months
                aren't 30 days", "not the 16 raw bytes") need not bind;
                the numbers and releases of an example after "e.g."
                are the example's (``e.g. "3.4.0 Python 3.12.1 on
                Linux"``), and so are all the values of one in
                parentheses ("(e.g. "foo-" for foo.log)"); a call, a
                string (an example's string is read by its words) or a
                backticked term there still binds. A bare "e.g. X -> Y"
                states a result, and its values must bind.
    short forms slash-joined short forms (``SP/HTAB/CR/LF``, ``0b/0o/0x``,
                ``AVX2/SSE4.2``, ``HTTP/1.x``) are prose, not a path. A
                slash list that goes on (``Union/Intersection/Difference/...``,
                ``database/sql/driver...``) binds as the list before the dots.
    messages    a claim's placeholders stand for the code's fields, not its
                words (``<age> exceeds <max_age>`` is not ``{age} >
                {max_age}``), and a class the anchored code raises with a
                literal message in every call binds with one of them only; a
                message quoted right beside a name written as code
                (``MalformedStringEscapeError ("Encountered an invalid ...")``)
                binds where the repository's code (never a comment) writes
                that message on the name's line (or in the block it opens):
                where the name is defined.
                An example of what one format prints, whole, binds whether
                the claim backticks it or quotes it ("unknown shorthand flag:
                'x' in -axb" of ``"... %q in -%s"``: Go's ``%q`` quotes a
                rune in single quotes).

Quotes use the same tokens with comments and docstrings removed: a quote is
found when its tokens occur contiguously in the span's code tokens.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import enum
import http
import itertools
import keyword
import math
import mimetypes
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from memvet._code._languages import language_for_path
from memvet._gostd import GO_STD_PATHS, GO_STD_QUALIFIERS
from memvet._manifests import is_manifest, package_json
from memvet._usage import RUST_REST, languages, read_use

__all__ = [
    "UNIT_FACTORS",
    "EvidenceText",
    "Term",
    "TermKind",
    "UnboundTerm",
    "arithmetic",
    "balanced",
    "bind",
    "claim_terms",
    "closest_lines",
    "code_only",
    "code_tokens",
    "find_quote",
    "fold",
    "in_other_units",
    "number_value",
    "numbers_in",
    "render_unbound",
    "split_args",
]


class TermKind(str, enum.Enum):
    """The class of a code-like term in a claim."""

    CODE = "code"
    CALL = "call"
    KEYWORD = "keyword"
    DOTTED = "dotted"
    IDENTIFIER = "identifier"
    CONSTANT = "constant"
    NUMBER = "number"
    STRING = "string"
    PATH = "path"
    ADDRESS = "address"
    VERSION = "version"
    PACKAGE = "package"
    PROPER = "proper"
    #: Not a term: the claim's ordinary words, when its anchored code says
    #: none of them (see :func:`unsupported`).
    WORDS = "words"


@dataclass(frozen=True)
class Term:
    """One code-like term of a claim, as written.

    ``beside`` is the name the claim writes a string right beside, as the
    message of that name (``ErrZeroLength ("zero length key")``), when a
    lookup in the repository is asked for it; empty otherwise."""

    text: str
    kind: TermKind
    beside: str = ""


@dataclass(frozen=True)
class EvidenceText:
    """What one anchor says: its text and the names it stands for.

    Attributes:
        label: The anchor as a user writes it (``path::Qualified.name``).
        text: The anchored code (a symbol's span, a file, a manifest line).
        names: Names the anchor itself carries: the qualified name, the
            path, the module (``memvet._cache``) and ``module.qualname``.
        language: The language of ``text`` (default: from the label's path);
            it says which parts are comments and docstrings.
        absent: The text is an absence rule's target: it supports a term
            only where the claim negates it.
        imports: The modules the anchored file imports (``json``,
            ``node:querystring``): a claim may name them in prose.
        derived: A span the evidence adds beside a symbol's own (the lines of
            its file that call it, the constants of its Go package): part of
            the symbol, neither a file nor code whose steps the rules read.
    """

    label: str
    text: str
    names: tuple[str, ...] = ()
    language: str | None = None
    absent: bool = False
    imports: tuple[str, ...] = ()
    derived: bool = False


@dataclass(frozen=True)
class UnboundTerm:
    """A claim term the evidence does not contain."""

    term: Term
    looked_in: tuple[str, ...]
    nearest: str = ""

    def line(self) -> str:
        """One line naming the term, where it was looked for and what the code says."""
        where = ", ".join(self.looked_in) if self.looked_in else "no anchored evidence"
        out = f"`{self.term.text}` ({self.term.kind.value}) is not in {where}"
        if self.term.kind is TermKind.WORDS:
            return f"nothing in {where} says what the claim says: its words {self.term.text} are not there"
        if self.term.kind is TermKind.PROPER:
            out += ", nor anywhere in the repository"
        if self.nearest:
            out += f"; the code says `{self.nearest}`"
        return out

    def to_dict(self) -> dict[str, object]:
        return {"term": self.term.text, "kind": self.term.kind.value, "looked_in": list(self.looked_in),
                "nearest": self.nearest}


# ======================================================================= tokens

_TOKEN = re.compile(r"[A-Za-z_$][\w$]*|\d\w*(?:\.\d\w*)*|\S")
_WORD = re.compile(r"[A-Za-z_$][\w$]*|\d\w*(?:\.\d\w*)*")

_HASH_COMMENTS = frozenset({"python", "yaml", "toml"})
_SLASH_COMMENTS = frozenset({"javascript", "typescript", "tsx", "go", "rust", "java"})
_PY_LEX = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|(#[^\n]*)')
_SLASH_LEX = re.compile(
    r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`|(//[^\n]*|/\*[\s\S]*?\*/)')
_MD_LEX = re.compile(r"(<!--[\s\S]*?-->)")
_PY_CODE_LEX = re.compile(
    r'(?P<triple>[rRbBuUfF]{0,2}(?:"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'))'
    r'|[rRbBuUfF]{0,2}(?:"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\')|(?P<comment>#[^\n]*)')
#: A line ending in one of these continues into the next: a string there is a value, not a docstring.
_CONTINUES = frozenset("=([{,+%\\")


def _comment_lexer(language: str | None) -> re.Pattern[str] | None:
    """The lexer whose group 1 is a comment of ``language`` (``None``: it has none)."""
    if language in _HASH_COMMENTS:
        return _PY_LEX
    if language in _SLASH_COMMENTS:
        return _SLASH_LEX
    return _MD_LEX if language == "markdown" else None


def _without_comments(text: str, language: str | None) -> str:
    lexer = _comment_lexer(language)
    return text if lexer is None else lexer.sub(lambda m: " " if m.group(1) else m.group(0), text)


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def code_only(text: str, language: str | None) -> str:
    """``text`` with its comments and docstrings blanked: what the code itself says.

    Strings stay whole (``"#"`` is no comment) and every other character
    keeps its place, so lines and offsets are those of ``text``. A Python
    triple-quoted string is a docstring when it is a statement of its own:
    first on its line, after a line that does not continue into it.
    """
    if language == "python":
        out: list[str] = []
        pos, last = 0, ""
        for m in _PY_CODE_LEX.finditer(text):
            before = text[pos:m.start()]
            out.append(before)
            if before.strip():
                last = before.rstrip()[-1]
            line_start = text.rfind("\n", 0, m.start()) + 1
            if m.group("comment") or (m.group("triple") and not text[line_start:m.start()].strip()
                                      and last not in _CONTINUES):
                out.append(_blank(m.group(0)))
            else:
                out.append(m.group(0))
                last = m.group(0)[-1]
            pos = m.end()
        out.append(text[pos:])
        return "".join(out)
    lexer = _comment_lexer(language)
    return text if lexer is None else lexer.sub(lambda m: _blank(m.group(0)) if m.group(1) else m.group(0), text)


def code_tokens(text: str, language: str | None = None, *, drop_comments: bool = False) -> list[str]:
    """The tokens of ``text``: identifiers, numbers and single other characters.

    Whitespace never becomes a token, so ``f(a,b)`` and ``f( a, b )`` give
    the same tokens. With ``drop_comments`` the comments of ``language`` are
    removed first (strings are kept whole, so ``"#"`` is not a comment).
    """
    if drop_comments:
        text = _without_comments(text, language)
    return _TOKEN.findall(text)


def _contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    if not needle:
        return False
    return "\x00" + "\x00".join(needle) + "\x00" in "\x00" + "\x00".join(haystack) + "\x00"


#: Rust path roots a sentence leaves out: a macro's ``$crate`` and the standard crates.
_PATH_ROOTS = frozenset({"$crate", "std", "alloc", "core"})


def _layout_free(tokens: Sequence[str]) -> list[str]:
    """``tokens`` without what a person leaves out or adds when writing code in a
    sentence: the ``;`` that ends a statement (``{ self.reserve(1) }`` for
    ``{ self.reserve(1); }``; ``return false, ctx.Err(); case`` for Go's lines), a Rust impl's own generic parameters
    (``impl io::Write for SmallVec<u8, N>`` for ``impl<const N: usize> io::Write for ...``)
    and a Rust path's root (``$crate::``, ``std::``, ``alloc::``, ``core::``), and the braces
    of a one-statement block under ``if (...)``, ``while (...)``, ``for (...)`` or ``else``
    (``if (x) continue;`` for ``if (x) {\n continue;\n }``)."""
    out: list[str] = []
    i, n = 0, len(tokens)
    while i < n:
        token = tokens[i]
        if token == "{" and _under_control(out):
            j, depth = i + 1, 0
            while j < n and (depth or tokens[j] not in ("}", ";")):
                depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(tokens[j], 0)
                j += 1
            if i + 1 < j and tokens[j: j + 2] == [";", "}"]:
                out += tokens[i + 1: j]
                i = j + 2
                continue
            if j < n and tokens[j] == "}" and _one_call(tokens[i + 1: j]):  # `{ stream.flush() }`: no `;`
                out += tokens[i + 1: j]
                i = j + 1
                continue
        if token == ";":
            i += 1  # a statement's end: Go and JavaScript leave it to the line break, one line written needs it
            continue
        if token in _PATH_ROOTS and tokens[i + 1: i + 3] == [":", ":"] and (not out or out[-1] != ":"):
            i += 3  # `$crate::alloc::vec![...]` is `vec![...]` in a sentence: a macro's and std's path roots
            continue
        out.append(token)
        if token == "impl" and i + 1 < n and tokens[i + 1] == "<":
            i = _angle_end(tokens, i + 1)
        i += 1
    return out


def _angle_end(tokens: Sequence[str], at: int) -> int:
    """The index of the ``>`` that closes the ``<`` at ``tokens[at]`` (the last index if none does);
    the ``>`` of ``->`` (an Fn bound's) is no bracket."""
    depth, j = 0, at
    while j < len(tokens):
        if tokens[j] == "<":
            depth += 1
        elif tokens[j] == ">" and tokens[j - 1] != "-":
            depth -= 1
            if depth == 0:
                break
        j += 1
    return j


def _one_call(tokens: Sequence[str]) -> bool:
    """Whether ``tokens`` are one call and nothing else (``stream . flush ( )``): a statement whole
    without its ``;``, as code written without semicolons ends one."""
    k = 0
    while k + 1 < len(tokens) and _WORD.fullmatch(tokens[k]) and tokens[k + 1] == ".":
        k += 2
    if k + 1 >= len(tokens) or not _WORD.fullmatch(tokens[k]) or tokens[k + 1] != "(" or tokens[-1] != ")":
        return False
    depth = 0
    for m, token in enumerate(tokens[k + 1:], start=k + 1):
        depth += {"(": 1, ")": -1}.get(token, 0)
        if depth == 0:
            return m == len(tokens) - 1
    return False


def _under_control(out: Sequence[str]) -> bool:
    """Whether ``out`` ends with ``else`` or an ``if``, ``while`` or ``for`` head's ``(...)``."""
    if out[-1:] == ["else"]:
        return True
    if out[-1:] != [")"]:
        return False
    depth = 0
    for k in range(len(out) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(out[k], 0)
        if depth == 0:
            return k > 0 and out[k - 1] in ("if", "while", "for")
    return False


def find_quote(quote: str, text: str, language: str | None) -> bool:
    """Whether ``quote`` occurs in ``text``, token by token, in the code: its
    comments and docstrings are not what the code does."""
    return _contains(code_tokens(code_only(text, language)), code_tokens(quote, language, drop_comments=True))


def closest_lines(quote: str, text: str, first_line: int = 1, n: int = 2) -> list[str]:
    """The ``n`` lines of ``text`` most like ``quote``, as ``"<line>: <text>"``."""
    wanted = " ".join(quote.split())
    scored = []
    for number, line in enumerate(text.splitlines(), start=first_line):
        stripped = " ".join(line.split())
        if stripped:
            ratio = difflib.SequenceMatcher(None, wanted, stripped).ratio()
            scored.append((-ratio, number, stripped))
    scored.sort()
    return [f"{number}: {line[:100]}" for _, number, line in scored[:n]]


# ======================================================================= numbers and folds

#: A number as code writes it, with Rust's type suffix if any (``64u8``, ``1.5f32``, ``0xFF_u8``).
_NUMBER = re.compile(r"(?<![\w$])(?:(?<=\.\.)|(?<!\.))-?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|\d+(?:_\d+)*(?:\.\d+)?(?:[eE][+-]?\d+)?)"
                     r"(?:_?(?:[ui](?:8|16|32|64|128|size)|f(?:32|64)))?(?![\w$]|\.\d)")
_TYPE_SUFFIX = re.compile(r"(?<=[\d_])_?(?:[ui](?:8|16|32|64|128|size)|f(?:32|64))$")
_HEX_TYPE_SUFFIX = re.compile(r"(?<=[\da-fA-F_])_?[ui](?:8|16|32|64|128|size)$")
#: A number written with thousands separators the way prose writes it (``1,000,000``, ``65,535``): one number.
_THOUSANDS = re.compile(r"(?<![\w$.,])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w$]|[.,]\d)")
_STRING_TOKEN = re.compile(
    r'[rRbBuUfF]{0,2}(?:"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\[\s\S]|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
    r'|`(?:\\.|[^`\\])*`)')


_JOIN = re.compile(r"\s*(?:\\\n\s*)?(?:\+\s*)?")
_ASSIGNED = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*(?::[^=\n]*)?=\s*\(?\s*$")


def _joined_strings(code: str) -> list[tuple[str, str, bool]]:
    """The strings ``code`` builds from literals: each run of literals side
    by side (Python's implicit concatenation) or added with ``+``, and each
    single literal assigned to a name, as ``(content, the name it is
    assigned to or '', whether two or more literals were joined)``."""
    out = []
    tokens = list(_STRING_TOKEN.finditer(code))
    i = 0
    while i < len(tokens):
        j = i
        while j + 1 < len(tokens) and _JOIN.fullmatch(code, tokens[j].end(), tokens[j + 1].start()):
            j += 1
        start = tokens[i].start()
        target = _ASSIGNED.search(code[max(0, start - 80):start])
        if j > i or target:
            content = "".join(_unescape(_string_content(t.group(0))) for t in tokens[i:j + 1])
            out.append((content, target.group(1) if target else "", j > i))
        i = j + 1
    return out


def fold(text: str) -> str:
    """A name folded for comparison: lower case without dashes, underscores,
    spaces and slashes. ``SHA-256``, ``sha_256`` and ``sha256`` fold alike,
    as do ``X-Content-Type`` and ``x_content_type``, and ``HTTP/2`` and
    ``http2``."""
    return re.sub(r"[-_ /]", "", text.lower())


def number_value(text: str) -> float | None:
    """The value of a number as a claim or code writes it (``1_000``, ``0x1F``, ``0o644``, ``0b11``, ``5.0``,
    ``NaN``, ``Infinity``); ``None`` for no number, and for digits past a float's range (``1e999``, which no
    reading can compare)."""
    try:
        radix = {"0x": 16, "0o": 8, "0b": 2}.get(text.lower().lstrip("-")[:2])
        text = (_HEX_TYPE_SUFFIX if radix == 16 else _TYPE_SUFFIX).sub("", text)  # 64u8: Rust's type suffix
        cleaned = text.replace("_", "").replace(",", "") if _THOUSANDS.fullmatch(text) else text.replace("_", "")
        value = float(int(cleaned, radix)) if radix else float(cleaned)
    except (ValueError, OverflowError):  # an integer literal too large for a float: 0x followed by 300 digits
        return None
    if not math.isfinite(value) and re.search(r"\d", cleaned):
        return None  # 1e999: digits past a float's range; the words NaN and Infinity stay the values they name
    return value


def _string_content(literal: str) -> str:
    """The text between a string literal's quotes."""
    body = re.sub(r"^[rRbBuUfF]{0,2}", "", literal)
    quote = 3 if body[:3] in ('"""', "'''") else 1
    return body[quote:-quote] if len(body) >= 2 * quote else body


def numbers_in(code: str, *, in_strings: bool = False) -> set[float]:
    """The values of the numbers code writes.

    Literals count (``1_000``, ``0x1F``, ``-1``, Rust's ``64u8``), sums, products and powers of
    literals (``36 + 9``, ``60 * 1000``, ``Math.pow(2, 8)``, ``1 << 8``), and strings that hold only
    a number (``"0"``, ``b"0"``); digits inside names never do, and digits
    inside other strings (``"ISO-8859-1"``, ``"max 20"``) only with
    ``in_strings``. Give it code without comments (:func:`code_only`).
    """
    def string(m: re.Match[str]) -> str:
        content = _string_content(m.group(0))
        return f" {content} " if in_strings or number_value(content.strip()) is not None else " "

    out = set()
    plain = _STRING_TOKEN.sub(string, code)
    for m in _NUMBER.finditer(plain):
        value = number_value(m.group(0))
        if value is not None:
            out.add(value)
    for m in _PRODUCT.finditer(plain):  # 10 * 1024 * 1024: the product is the value
        before, after = plain[:m.start()].rstrip()[-1:], plain[m.end():].lstrip()[:1]
        if before not in ("*", "/", "%", ".") and after not in ("*", "/", "%", "(", "."):
            product = 1.0
            for factor in re.split(r"\s*\*\s*", m.group(0)):
                product *= number_value(factor) or 0.0
            out.add(product)
    for m in _SUM.finditer(plain):  # case 36 + 9: the sum is the value
        before, after = plain[:m.start()].rstrip()[-1:], plain[m.end():].lstrip()[:1]
        if before not in ("*", "/", "%", ".", "-") and after not in ("*", "/", "%", "(", ".", "["):
            total = arithmetic(m.group(0), {})
            if total is not None:
                out.add(total)
    for m in _POWER.finditer(plain):  # Math.pow(2, 8), 2 ** 16, 1 << 8: the power is the value
        written = m.group("b", "e") if m.group("b") else m.group("b2", "e2")
        base, exponent = number_value(written[0]), number_value(written[1])
        if base is not None and exponent is not None and 0 <= exponent <= 64:
            out.add(base * 2 ** exponent if m.group("shift") else base ** exponent)
    return out


#: A sum of number literals: ``case 36 + 9:`` (the length of a URN), ``MAX - 1`` aside.
_SUM = re.compile(r"(?<![\w.$])\d+(?:\.\d+)?(?:\s*[-+]\s*\d+(?:\.\d+)?)+(?![\w.$])")
#: One arithmetic assignment of a constant: ``const y = d * 365.25``, ``BgHiBlack Attribute = iota + 100``,
#: ``pub const MAX: u64 = 1 << 20``, ``TIMEOUT = 60 * SECOND``.
_CONSTANT_ASSIGNED = re.compile(r"^\s*(?:export\s+)?(?:pub(?:\([\w:]+\))?\s+)?(?:(?:const|let|var|static|final)\s+)?"
                                r"(?P<name>[A-Za-z_$][\w$]*)\s*(?::\s*[\w:<>\[\]&' ]+|\s+[\w.*\[\]]+)?\s*"
                                r":?=\s*(?P<expr>[\w$.\s+\-*/()<]+?)\s*[;,]?\s*$")
_GO_CONST_BLOCK = re.compile(r"\bconst\s*\(")
_GO_SPEC = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)(?:\s+[\w.*\[\]]+)?(?:\s*=\s*(?P<expr>.+?))?\s*$")


def arithmetic(expr: str, known: dict[str, float]) -> float | None:
    """The value of ``expr``, an arithmetic of numbers and ``known`` names
    (``+ - * / <<`` and parentheses), or None when it is anything else."""
    def value(node: ast.AST) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool):
            return float(node.value)
        if isinstance(node, ast.Name) and node.id in known:
            return known[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.BinOp):
            a, b = value(node.left), value(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if isinstance(node.op, ast.Div) and b:
                return a / b
            if isinstance(node.op, ast.LShift) and a.is_integer() and b.is_integer() and 0 <= b <= 64:
                return float(int(a) << int(b))
        raise ValueError(expr)

    cleaned = re.sub(r"(?<=\d)_(?=\d)", "", expr.replace("$", "_S_")).strip()
    if not cleaned or not re.fullmatch(r"[\w.\s+\-*/()<]+", cleaned) or "**" in cleaned:
        return None
    try:
        result = value(ast.parse(cleaned, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return None
    return result if math.isfinite(result) else None  # 1e999 * 2: no number the code can mean


def constant_values(code: str) -> dict[str, float]:
    """The numbers code gives its constants by arithmetic, in order: a name
    set to numbers and names already known (``const m = s * 60``, ``mo = y /
    12``), and each spec of a Go ``const (...)`` block, where ``iota`` counts
    the specs and a spec with no value repeats the one above (``FgBlack
    Attribute = iota + 30`` and then ``FgRed``, ``FgGreen``: 31, 32). Give it
    code without comments (:func:`code_only`)."""
    known: dict[str, float] = {}
    lines = code.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if _GO_CONST_BLOCK.search(line) and ")" not in line[line.index("("):]:
            iota, last, i = 0, "", i + 1
            while i < len(lines) and lines[i].strip() != ")":
                spec = _GO_SPEC.match(lines[i])
                if spec and lines[i].strip():
                    last = spec.group("expr") or last
                    got = arithmetic(last, {**known, "iota": float(iota)}) if last else None
                    if got is not None and spec.group("name") != "_":
                        known[spec.group("name")] = got
                    iota += 1
                i += 1
            continue
        m = _CONSTANT_ASSIGNED.match(line)
        if m and not re.fullmatch(r"\s*-?[\d_.]+\s*", m.group("expr")):
            got = arithmetic(m.group("expr"), known)
            if got is not None:
                known[m.group("name")] = got
        elif m:
            got = number_value(m.group("expr").strip())
            if got is not None:
                known[m.group("name")] = got
        i += 1
    return known


#: A power of number literals: ``Math.pow(2, 8)``, ``2 ** 16``, ``1 << 8`` (a shift is a power of two).
_POWER = re.compile(r"\bMath\.pow\(\s*(?P<b>\d+)\s*,\s*(?P<e>\d+)\s*\)"
                    r"|(?<![\w.$])(?P<b2>\d+)\s*(?:\*\*|(?P<shift><<))\s*(?P<e2>\d+)(?![\w.$])")

#: A product of number literals, as code writes sizes and durations: ``10 * 1024 * 1024``, ``60 * 1000``.
_PRODUCT = re.compile(r"(?<![\w.$])\d+(?:_\d+)*(?:\.\d+)?(?:\s*\*\s*\d+(?:_\d+)*(?:\.\d+)?)+(?![\w.$])")


# ======================================================================= terms

#: Names with inner capitals that are prose in a claim, not code.
PROSE_NAMES = frozenset({
    "GitHub", "GitLab", "JavaScript", "TypeScript", "CoffeeScript", "PyPI", "PostgreSQL", "MySQL",
    "SQLite", "MongoDB", "DynamoDB", "GraphQL", "NoSQL", "OAuth", "WebSocket", "WebSockets",
    "LangChain", "LangGraph", "LlamaIndex", "OpenAI", "MemVet", "ChromaDB", "NumPy", "PyTorch",
    "FastAPI", "DevOps", "macOS", "iOS", "iPhone", "YouTube", "LinkedIn", "JetBrains", "VSCode",
    "PowerShell", "CPython", "PyPy", "IPython", "JupyterLab", "OpenSSL", "LibreSSL", "BoringSSL",
    "SQLAlchemy", "HTTPServer", "HTTPie", "RabbitMQ", "ZeroMQ", "CircleCI", "AppVeyor", "BitBucket", "Bitbucket", "DockerHub",
})

#: A code span as Markdown writes it: a run of backticks, the text, the same run (``` `` `foo` `` ``` holds
#: `` `foo` ``, backticks and all); group 1 is the text.
#: A code span: ``` `x` ```, ``` ``a`b`` ```, and one held by three backticks or more (```` ```text ```` is the
#: fence ```` ```text ````, as Markdown reads it).
_BACKTICK = re.compile(r"(?<!`)(?:``(?!`)\s?((?:[^`\n]|`(?!`))+?)\s?``(?!`)|`([^`\n]+)`"
                       r"|(?P<fence>`{3,})(?!`)\s?(?P<fenced>[^\n]+?)\s?(?<!`)(?P=fence)(?!`))")
#: An install command and the package it names: ``pip install httpx[http2]``, ``npm i -D ky``.
_INSTALL = re.compile(
    r"\b(?:pip3?|uv\s+pip|pipx|npm|pnpm|yarn|bun|gem|cargo|poetry|uv)\s+(?:install|i|add)\s+"
    r"(?:-{1,2}[\w-]+\s+)*(?P<pkg>@?[A-Za-z0-9][\w.-]*(?:/[\w.-]+)?(?:\[[\w,-]+\])?)")
_URL = re.compile(r"\b(?:https?|wss?|ftp|file)://[^\s`'\"<>)\]]+")
_HOSTPORT = re.compile(r"(?<![\w.])(?:localhost|\d{1,3}(?:\.\d{1,3}){3})(?::\d{1,5})?(?![\w.]*\w)")
_VERSION = re.compile(
    r"(?<![\w.$!=<>-])(?:(?:[A-Za-z][\w.-]*(?:>=|<=|==|~=|!=|\^|~|>|<)|(?:>=|<=|==|~=|!=|\^|~)|[<>](?=\S))"
    r"\s*v?\d+(?:\.\d+)*(?:[.\-]?[A-Za-z]+\d*)?"
    r"|v?\d+\.\d+\.\d+(?:[.\-]?[A-Za-z]+\d*)?|v\d+(?:\.\d+)+)(?![\w$]|\.\d)")
_OPERAND_TEXT = r"(?:[A-Za-z_$][\w$.]*|-?\d[\w.]*|\"[^\"\n]*\"|'[^'\n]*')"
#: A callback written in a claim, its body an expression: ``status => status !== 404``.
_CALLBACK = re.compile(
    rf"(?<![\w$])(?:[A-Za-z_$][\w$]*|\([^()]*\))\s*=>\s*(?P<body>{_OPERAND_TEXT}"
    rf"(?:\s*(?:===?|!==?|[<>]=?|&&|\|\||[-+*/%])\s*{_OPERAND_TEXT})*)")
#: A Rust path of names only: ``Level::Trace``, ``kv::Key``, ``StatusCode::from_u16``, ``byteorder::BE``.
#: (Round 8 wrote it for term extraction with guards, ``(?<![\w:$])`` before and ``(?![\w:(!<])`` after;
#: round 12 bound the name again without them, lower in this module, so the guards were never in effect
#: from then on. It is bound once now, as it has been read since round 12.)
_RUST_PATH = re.compile(r"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+")
#: A generic type: ``Option<u64>``, ``Result<T, E>``, ``Box<dyn Error + Send>`` (one level of nesting).
_GENERIC_TYPE = re.compile(r"(?<![\w:$<])[A-Z]\w*<(?:[\w&' ,:+=]|<[\w&' ,:+=]*>)+>")
_CALL_HEAD = re.compile(r"(?<![\w.$])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(")
_KEYWORD = re.compile(r"(?<![\w.$-])[A-Za-z_][\w]*=(?:\"[^\"\n]*\"|'[^'\n]*'|[\w.+-]*[\w+-])")
_DQ = re.compile(r'"((?:\\"|[^"\n]){1,160})"')
_SQ = re.compile(r"(?<![\w'])'([^'\n]{1,100})'(?!\w)")
_PATH = re.compile(
    r"(?<![\w./~-])~/[\w.-]+(?:/[\w.<>-]+)*/?"
    r"|(?<![\w./-])(?:\.{1,2}/)?[\w.-]+(?:/[\w.-]+)+/?"
    r"|(?<![\w./-])[\w-]+\.(?:py|pyi|js|jsx|mjs|cjs|ts|tsx|go|rs|java|json|ya?ml|toml|md|rst|txt"
    r"|cfg|ini|lock|sh|html|css|scm)(?![\w.-]*\w)")
_DOTTED = re.compile(r"(?<![\w.$])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?![\w$])")
_CONSTANT = re.compile(r"(?<![\w$.])[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?![\w$])")
_IDENT = re.compile(
    r"(?<![\w$.])(?:_+[A-Za-z0-9]\w*|[A-Za-z][A-Za-z0-9]*_\w*|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*"
    r"|[A-Z]{2,}[A-Z][a-z]{2,}\w*|(?<!-)[A-Za-z]{2,}-\d\w*(?:-\d+)*|[A-Za-z]+\d\w*(?:-\d+)*)(?![\w$])")
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)|[vV]\d+")
#: A logical operator made a verb: "ANDed with the rest", "XORing", "ORs" (prose, not a name).
_LOGIC_VERB = re.compile(r"(?:AND|OR|XOR|NAND|NOR)(?:ed|ing|s)")
_STATUS_CLASS = re.compile(r"(?<![\w.$])[1-5][xX]{2}(?![\w$])")
_EXCEPTION_NAME = re.compile(r"(?=[A-Z])\w*(?:Error|Exception|Timeout|Warning|Exit|Interrupt|Failure)")
#: A protocol or format and its version: ``HTTP/2``, ``HTTP/1.1`` (an identifier, folded to ``http2``).
_NAMED_VERSION = re.compile(r"(?<![\w./-])[A-Za-z]{2,}/\d+(?:\.\d+)*(?![\w/]|\.\d)")
#: An environment variable written the shell's way: ``$EDITOR``, ``${XDG_CONFIG_HOME}`` (a constant ``EDITOR``).
_SHELL_VAR = re.compile(r"(?<![\w$])\$\{?([A-Z][A-Z0-9_]*[A-Z0-9])\}?(?![\w$])")
#: A command-line option outside backticks: ``--manpage``, ``--no-color`` (``--no-<name>`` is a placeholder).
_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*[A-Za-z0-9](?![\w<{*-])")
#: A custom header: ``X-Forwarded-For``, ``X-Real-IP`` (compared with the code's strings in any case).
_HEADER = re.compile(r"(?<![\w-])X-(?:[A-Z][A-Za-z0-9]*-)*[A-Z][A-Za-z0-9]*(?![\w-])")
#: A standard header: ``Content-Type``, ``Strict-Transport-Security`` (binds where the repository's code says it).
STANDARD_HEADER = re.compile(
    r"(?<![\w-])[A-Z][a-z]+(?:-[A-Z][a-z]+)*-(?:Type|Length|Encoding|Control|Agent|Security|Policy|Options|Origin|Age"
    r"|After|Since|Match|Range|Disposition|Language|Location|Modified|Allow|Methods|Headers|Credentials|For|Host"
    r"|Proto|Cookie|Authorization|Authenticate|Expires|Referer|Referrer|Encoding|Tag|Id|Limit|Remaining|Reset"
    r"|Protection|Connection|Alive|Upgrade|Vary|Server|Transfer|Forwarded|Requested|Powered|With|Key|Version)"
    r"(?![\w-])")
#: A name in prose: a capitalized word mid-sentence (``Airflow``, ``Kubernetes``) or an all-caps one
#: (``SIGTERM``, ``EAGAIN``).
_PROPER = re.compile(r"(?<![\w$.@/<-])(?:[A-Z][a-z]+(?:[A-Z][a-z]+)*|[A-Z]{2,}[0-9]*)(?![\w$/>-])")
#: A status code and its reason phrase: ``301 Moved Permanently``, ``404 Not Found``.
_REASON = re.compile(r"\b[1-5]\d\d\s+(?P<phrase>[A-Z][a-z]+(?:[\s-]+[A-Z][a-z]*)*)")
#: Words written in capitals for emphasis or as markers, and acronyms every project may use, not names.
_CAPS_PROSE = frozenset({
    "TODO", "FIXME", "NOTE", "XXX", "HACK", "WARNING", "IMPORTANT", "ALWAYS", "NEVER", "NOT", "ONLY", "MUST", "NONE",
    "ALL", "ANY", "AND", "THE", "DON'T", "CAREFUL", "GOTCHA", "BEWARE", "NB", "WIP", "EXACTLY", "BOTH", "EVERY",
    "I", "TRUE", "FALSE", "NULL", "NO", "YES", "OR", "OFF", "ON", "ONCE", "BEFORE", "AFTER", "FIRST", "LAST",
    "HTTP", "HTTPS", "JSON", "HTML", "YAML", "TOML", "UUID", "ASCII", "UNICODE", "REST", "CORS", "POSIX", "UNIX",
    "CRUD", "UTF", "TCP", "UDP", "DNS", "SQL", "XML", "CSV", "API", "URL", "URI", "LIFO", "FIFO",
})
#: "non-" before a term in prose (``non-.js files``, ``non-1xx``), or before a protocol's version (``non-HTTP/2``);
#: not before a name with its number (``non-UTF-8``: a label, read with its prefix).
_NON = re.compile(r"(?<![\w/.\\-])non-(?:(?P<protocol>HTTP/[\d.]*\d)|(?=[\w.])(?![A-Za-z]{2,}-\d))")
#: A command-line option as a whole term: ``--help``, ``-h`` (bound where a code file of the repository writes it).
OPTION = re.compile(r"--?[A-Za-z][\w-]*")
#: An aside that gives an example: ``(e.g. you set 301 first)``, ``(for example 8)``.
_EXAMPLE_ASIDE = re.compile(r"\((?:e\.g\.?|for example|for instance)[^()]*\)"
                            r"|(?:,\s*|\s)(?:e\.g\.|for example|for instance),?\s[^;()]*?(?=[;)]|\.\s|\.?$)", re.I)
#: An example in parentheses, which may hold its own: ``(e.g. "foo-" for foo.log)``, ``(e.g. f(x))``.
_EXAMPLE_PARENS = re.compile(r"\((?:e\.g\.?|for example|for instance)(?:[^()]|\([^()]*\))*\)", re.I)
#: A placeholder: ``<name>``, ``<http version>``.
_PLACEHOLDER = re.compile(r"<[A-Za-z_][\w .:/-]{0,40}(?:\([\w .,]{0,20}\)|\[\w{1,10}\])?>")
#: Regular-expression escapes: ``\b`` in ``\bpickle\b`` is not part of a word.
_REGEX_ESCAPE = re.compile(r"\\[bBAZzdDwWsS]")
#: An example query string: ``?a[b]=1&c=2``.
_QUERY_EXAMPLE = re.compile(r"(?<![\w/])\?[A-Za-z_][\w\[\].]*=[^\s&,;)]*(?:&[\w\[\].]+=[^\s&,;)]*)*")
#: Identifiers that are labels of documents: ``ADR-0007``, ``RFC-7230``, ``CVE-2021-44228``.
_LABEL_ID = re.compile(r"(?i)(?:adr|rfc|pep|cve|ghsa|gh|pr|issue|bug|ticket|jira)-?\d[\d-]*")
#: Words after which a number is a label: ``issue 12``, ``RFC 7230``, ``step 3``.
_LABEL_WORDS = frozenset({
    "issue", "pr", "pull", "ticket", "bug", "adr", "rfc", "pep", "cve", "gh", "section", "iso", "ecma", "ieee",
    "step", "phase", "chapter", "page", "figure", "version", "release", "revision", "milestone", "sprint",
    # runtimes, written in lower case as often as not: "old node 0.8 support", "python 3.9"
    "node", "nodejs", "python", "java", "ruby", "php", "deno", "bun", "ie", "chrome", "firefox", "safari",
})
#: Words after which a year is a date: ``since 2019``.
_DATE_WORDS = frozenset({"in", "since", "until", "till", "before", "after", "circa"})
_UNITS = frozenset({
    "ms", "s", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes", "byte", "bytes", "kb",
    "mb", "gb", "kib", "mib", "bits", "bit", "chars", "characters", "items", "entries", "times", "retries",
    "requests", "connections", "lines", "rows", "px", "hz", "ns", "us",
})


def balanced(text: str, open_at: int, limit: int | None = 200) -> int:
    """Index just past the bracket closing the one at ``open_at`` (strings and
    their escapes skipped), or -1; ``limit`` bounds how far it looks
    (``None``: to the end). The one bracket matcher of the write path."""
    depth = 0
    quote = ""
    escaped = False
    stop = len(text) if limit is None else min(len(text), open_at + limit)
    for i in range(open_at, stop):
        ch = text[i]
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "\"'`":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


#: A short form a claim lists with slashes: ``SP``, ``AVX2``, ``SSE4.2``, ``0x``, ``3x``, ``1.x``.
_SHORT_FORM = re.compile(r"[A-Z][A-Z0-9]{0,5}(?:\.\d+)?|\d[a-zA-Z]{1,2}|\d+\.[xX]")


def _spelled_alternatives(parts: Sequence[str]) -> bool:
    """Whether slash-joined ``parts`` are alternatives in prose, not a path:
    short forms (``SP/HTAB/CR/LF``, ``0b/0o/0x``, ``3x/4x``, ``HTTP/1.x``), with at most
    as many plain lower-case words (``tabs/VT/FF``). A file's path has
    lower-case folders and a file name; these name bytes, prefixes and
    instruction sets the reader knows."""
    short = sum(bool(_SHORT_FORM.fullmatch(p)) for p in parts)
    return 2 * short >= len(parts) and all(_SHORT_FORM.fullmatch(p) or re.fullmatch(r"[a-z]+", p) for p in parts)


def _plain_path(text: str) -> bool:
    """``and/or``, ``read/write``, ``non-unix/non-windows``: two plain words
    (a ``non-`` one too) are prose, not a path (``on-headers/on-finished``,
    ``application/octet-stream`` are names)."""
    parts = [p for p in text.strip("/").split("/") if p not in (".", "..")]
    return len(parts) <= 2 and not text.startswith(".") and all(re.fullmatch(r"(?:non-)?[A-Za-z]+", p) for p in parts)


#: A method called on what a call returns: the ``.expect(`` of ``a().expect(...)``.
_LINK = re.compile(r"\.[A-Za-z_$][\w$]*\(")
#: A member of what a call returns, not called: ``.After`` of ``Next().After`` (Rust's ``.await`` is no member).
_MEMBER_AFTER = re.compile(r"\.(?!await\b)[A-Za-z_$][\w$]*(?![\w$(])")
#: A chain of calls (``os.urandom(16).hex()``): the code makes it as written, or does not; no input's notation.
_CHAIN = re.compile(r"[A-Za-z_$][\w$.]*\(.*\)\.[A-Za-z_$][\w$]*\(.*\)", re.S)

#: What a backticked ``@name`` is when it is no decorator: "an `@timestamp` key".
_KEY_AFTER = re.compile(r"\s+(?:keys?|fields?|propert(?:y|ies)|attributes?|columns?|entr(?:y|ies))\b")


def _classify(inner: str) -> TermKind:
    """The class of a backticked span's content."""
    if re.fullmatch(r"[A-Za-z_$][\w$]*", inner):
        return TermKind.IDENTIFIER
    if re.match(r"new\s+[A-Za-z_$]", inner) and _classify(inner[3:].strip()) is TermKind.CALL:
        return TermKind.CALL  # `new Koa({ compose })`: a call of the class
    if re.match(r"await\s+[A-Za-z_$]", inner) and _classify(inner[5:].strip()) is TermKind.CALL:
        return TermKind.CALL  # `await request.form(...)`: the call, awaited
    if re.match(r"@?\.?[A-Za-z_$]", inner) and inner[:1] in ".@" and _classify(inner[1:]) is TermKind.CALL:
        return TermKind.CALL  # `.option('--ws')`, `@retry(stop=...)`: a method or a decorator, called
    if _DOTTED.fullmatch(inner):
        return TermKind.DOTTED
    head = _CALL_HEAD.match(inner)
    if head and balanced(inner, head.end() - 1) == len(inner):
        return TermKind.CALL
    if _NUMBER.fullmatch(inner):
        return TermKind.NUMBER
    if _NAMED_VERSION.fullmatch(inner):
        return TermKind.IDENTIFIER
    if _PATH.fullmatch(inner) and not _plain_path(inner):
        return TermKind.PATH
    return TermKind.CODE


def _sentence_start(text: str, at: int) -> bool:
    before = text[:at].rstrip()
    return not before or before[-1] in ".!?:;\n"


def _proper_noun(text: str, word: str) -> bool:
    """``Express`` in "like Express 4": a capitalized word the claim also writes mid-sentence."""
    return any(not _sentence_start(text, m.start())
               for m in re.finditer(rf"(?<![\w$.]){re.escape(word)}(?![\w$])", text))


#: A section of a numbered document: "RFC 2616 14.2", "PEP 440 section 3", "RFC 7159 8.1".
_AFTER_LABEL = re.compile(r"\b(?:RFC|PEP|ECMA|ISO)[\s-]*\d+(?:\s*,?\s*(?:section|sec\.|\u00a7))?\s*\u00a7?\s*$", re.I)
#: A release a change came with: "removed in 2.0", "stabilized in 1.81", "planned for 2.0".
_RELEASED_IN = re.compile(r"\b(?:removed|added|deprecated|introduced|stabili[sz]ed|dropped|planned|changed|fixed|"
                          r"released|shipped|landed)\s+(?:in|since|for|as\s+of|with|before|after)\s+"
                          r"(?:v(?:ersion)?\s*)?$", re.I)


def _label(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` is a label (an issue, a year,
    a product's version) rather than a value."""
    before = text[:start]
    if before.endswith("#") or _AFTER_LABEL.search(before) or _RELEASED_IN.search(before):
        return True
    if re.match(r"\.[xX](?![\w.])", text[end:]) or re.search(r"\b(?:non|pre|post|anti)-[A-Za-z]{2,}-$", before):
        return True  # a release series (2.x dropped old Node); a name's own number behind a prefix (non-UTF-8)
    prev = re.search(r"([A-Za-z][\w]*)\s+$", before)
    if prev is None:
        return False
    word = prev.group(1)
    if word.lower() in _LABEL_WORDS:
        return True
    after = re.match(r"\s*([A-Za-z]+)", text[end:])
    unit = after is not None and after.group(1).lower() in _UNITS
    year = re.fullmatch(r"(?:199\d|20[0-3]\d)", text[start:end]) is not None
    if year and word.lower() in _DATE_WORDS and not unit:
        return True
    return re.fullmatch(r"[A-Z][a-z]+", word) is not None and not unit and _proper_noun(text, word)


#: A factor written with an x or the multiplication sign U+00D7: ``4x`` (not ``0x1F``, not ``x86``).
_MULTIPLE = re.compile(r"(?<![\w.$])(\d+(?:\.\d+)?)[x\u00d7](?![\w$])")


#: A Go build constraint (``//go:build go1.13``, ``// +build linux``): a comment by its form, a
#: directive to the compiler by what it does; group 1 is the constraint.
GO_BUILD = re.compile(r"\s*//\s*(?:go:build|\+build)\s+(\S.*)")
#: Big-O notation: ``O(1)``, ``O(n)``, ``O(n^2)``, ``O(n log n)``, ``O(n + m)``.
_BIG_O = re.compile(r"(?<![\w$.`])O\(\s*(?:1|[a-z](?:\s*(?:\^|\*\*)\s*\d|\u00b2)?|log\s*[a-z]|[a-z]\s*log\s*[a-z]"
                    r"|[a-z]\s*[+*\u00b7]\s*[a-z])\s*\)(?![\w`])")
#: A keyword's quoted value (``python_requires=">=2.7, !=3.0.*"``); group 2 is the value.
_KEYWORD_QUOTED = re.compile(r"(?<![\w$.])[A-Za-z_]\w*\s*=\s*([\"'])([^\"'\n]+)\1")


#: A date, with its time and zone if written: ``1970-01-01``, ``1970-01-01 00:00:00 UTC``, ``2018-02-14T00:28:07Z``.
_DATE = re.compile(r"(?<![\w.:-])\d{4}-[01]\d-[0-3]\d(?:[T ][0-2]\d:[0-5]\d(?::[0-5]\d(?:\.\d+)?)?)?"
                   r"(?:Z|\s?UTC|[+-][0-2]\d:?[0-5]\d)?(?![\w:-]|\.\w)")
#: The Unix epoch as code makes it: ``time.Unix(0, 0)``, ``UNIX_EPOCH``, ``fromtimestamp(0)``, ``new Date(0)``.
_EPOCH_MADE = re.compile(r"\bUnix\(\s*0\s*,\s*0\s*\)|\bUNIX_EPOCH\b|\b(?:utc)?fromtimestamp\(\s*0\b"
                         r"|\bnew\s+Date\(\s*0\s*\)")


def _epoch(text: str, index: _Index) -> bool:
    """Whether ``text`` is the Unix epoch's date (``1970-01-01``, ``1970-01-01 00:00:00 UTC``) and the
    code makes the epoch (``time.Unix(0, 0)``): a constant named by its date."""
    if not re.fullmatch(r"1970-01-01(?:[T ]00:00(?::00(?:\.0+)?)?)?(?:Z|\s?UTC|\+00:?00)?", text):
        return False
    return any(_EPOCH_MADE.search(code) for _, code in index.code_texts)


#: A media type in prose: ``application/json``, ``text/plain`` (``text/*``, a family of them, stays prose: the
#: word ``text`` is what code tests, and what a value the claim pairs with it is read against).
_MEDIA_TOP = frozenset({"application", "text", "image", "audio", "video", "multipart", "font"})
_MEDIA_TYPE = re.compile(rf"(?<![\w./-])(?:{'|'.join(sorted(_MEDIA_TOP))})/[a-z0-9][\w.+-]*\w(?![\w/*-])")


def _media_type_named(text: str, index: _Index) -> bool:
    """Whether the code names the media type ``text`` the way code does: whole
    (``'text/plain; charset=utf-8'``), by its subtype (``this.type('html')``), or by the
    file extension the standard library gives it (``this.type('txt')`` for ``text/plain``)."""
    if index.has_sequence(text, code=True) or any(text in s for s in index.strings()):
        return True
    sub = text.split("/", 1)[1]
    words = {re.split(r"[+.]", sub)[-1], sub}  # the extensions of three letters or more: `.c` of text/plain names none
    words |= {e.lstrip(".") for e in mimetypes.guess_all_extensions(text, strict=False) if len(e) > 3}
    return any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", code) for _, code in index.code_texts for w in words)


#: A Rust trait bound in prose: a one-letter type parameter and its traits (``T: Sync``, ``F: FnOnce(T) + Send``).
_BOUND = re.compile(r"(?<![\w`:'\"<,])[A-Z]:[ \t]?[A-Z]\w*(?:\([^()]*\))?(?:[ \t]?\+[ \t]?[A-Z]\w*(?:\([^()]*\))?)*"
                    r"(?![\w<(:])")


#: A JavaScript regular expression literal written in prose, anchored at its start (``/^\.git$/``,
#: ``/^\d+$/i``): a pattern, not a path.
_PROSE_PATTERN = re.compile(r"(?<![\w/`])/\^(?:\\.|[^/\s`\\])*/[dgimsuy]*(?![\w/])")


def claim_terms(claim: str) -> list[Term]:
    """The code-like terms of a claim, in the order they appear.

    Each stretch of the claim belongs to at most one term: a backticked span
    is one term, a call's arguments are part of the call, and so on.
    """
    found: list[tuple[int, Term]] = []
    text = claim

    def drop(start: int, end: int) -> None:
        nonlocal text
        text = text[:start] + " " * (end - start) + text[end:]

    def take(start: int, end: int, term: Term) -> None:
        found.append((start, term))
        drop(start, end)

    for m in list(_BIG_O.finditer(text)):
        drop(m.start(), m.end())  # O(n^2), O(log n): a cost, not a call
    for m in list(re.finditer(r"(?<![\w%])(?:%[0-9A-F]{2}){2,}(?![\w%])", text)):
        # é -> %C3%A9: bytes the code percent-encodes, an example of its output, in the form RFC 3986
        # normalizes to; lower-case hex (%c3%a9) is a claim about case, and stays a term
        drop(m.start(), m.end())
    for m in list(_BACKTICK.finditer(text)):
        inner = next(g for g in (m.group(1), m.group(2), m.group("fenced")) if g is not None).strip()
        if re.fullmatch(r"@[A-Za-z_$][\w$.]*", inner) and _KEY_AFTER.match(text, m.end()):
            take(m.start(), m.end(), Term(inner, TermKind.STRING))  # an `@timestamp` key: a key, written whole
            continue
        if re.fullmatch(r"@[A-Za-z_$][\w$.]*", inner):
            inner = inner[1:]  # `@retry`: the decorator's name
        if inner and _PATH.fullmatch(inner) and "/" in inner and _spelled_alternatives(inner.split("/")):
            drop(m.start(), m.end())  # `HTTP/1.x`, `SP/HTAB`: short forms, backticked or not
        elif inner:
            take(m.start(), m.end(), Term(inner, _classify(inner)))
    for m in list(_NON.finditer(text)):  # non-.js, non-1xx: the term is what follows; non-HTTP/2 is prose
        drop(m.start(), m.end() if m.group("protocol") else m.start() + 4)
    for m in list(_INSTALL.finditer(text)):  # pip install brotli: the package is a value, the command prose
        take(m.start("pkg"), m.end("pkg"), Term(m.group("pkg").rstrip(".,;:)"), TermKind.PACKAGE))
        drop(m.start(), m.start("pkg"))
    for m in list(_URL.finditer(text)):
        url = m.group(0)
        url = url if url.endswith(("...", "…")) else url.rstrip(".,;:!?")  # https://...: an ellipsis, kept
        take(m.start(), m.start() + len(url), Term(url, TermKind.ADDRESS))
    for m in list(_HOSTPORT.finditer(text)):
        take(m.start(), m.end(), Term(m.group(0), TermKind.ADDRESS))
    for m in list(_SHELL_VAR.finditer(text)):  # $EDITOR: the variable EDITOR, as code looks it up
        take(m.start(), m.end(), Term(m.group(1), TermKind.CONSTANT))
    for m in list(_FLAG.finditer(text)):
        take(m.start(), m.end(), Term(m.group(0), TermKind.CODE))
    for m in list(_PROSE_PATTERN.finditer(text)):  # /^\.git$/ in prose: a pattern, as code writes it
        take(m.start(), m.end(), Term(m.group(0), TermKind.CODE))
    for m in list(_QUERY_EXAMPLE.finditer(text)):
        drop(m.start(), m.end())
    for m in list(_CALLBACK.finditer(text)):  # status => status !== 404: the example's own values
        for value in re.finditer(rf"{_NUMBER.pattern}|\"[^\"\n]*\"|'[^'\n]*'", m.group("body")):
            drop(m.start("body") + value.start(), m.start("body") + value.end())
    for m in list(_GENERIC_TYPE.finditer(text)):  # Option<u64>: a type, as code writes it
        take(m.start(), m.end(), Term(m.group(0), TermKind.CODE))
    for m in list(_BOUND.finditer(text)):  # T: Sync, F: Send + Sync: a Rust bound, as its where clause writes it
        take(m.start(), m.end(), Term(m.group(0), TermKind.CODE))
    for m in list(_RUST_PATH.finditer(text)):
        path = m.group(0)
        if re.fullmatch(r"(?:\w+::)*[A-Z]\w*::[A-Z]\w*", path) and not re.search(r"::[A-Z][A-Z0-9_]*$", path):
            take(m.start(), m.end(), Term(path, TermKind.CODE))  # Level::Trace: a value, found in code only
        else:
            take(m.start(), m.end(), Term(path, TermKind.DOTTED))  # kv::Key, Record::args, VersionReq::STAR
    keyword_values = [k.span(2) for k in _KEYWORD_QUOTED.finditer(text)]
    examples = [e.span() for e in _EXAMPLE_ASIDE.finditer(text)]
    for m in list(_VERSION.finditer(text)):
        if any(start <= m.start() and m.end() <= end for start, end in keyword_values):
            continue  # version='1.0.1', python_requires=">=2.7, !=3.0.*": a keyword's quoted value, read with it below
        if re.fullmatch(r"\d+(?:\.\d+)+", m.group(0)) and any(a <= m.start() and m.end() <= b for a, b in examples):
            drop(m.start(), m.end())  # e.g. "3.4.0 Python 3.12.1 on Linux": the example's own release, as its numbers
            continue
        if m.group(0)[0] in "<>=!~^" and re.search(r"[\w$)\]]\s+$", text[:m.start()]) \
                and re.fullmatch(r"[<>=!~^]+\s*\d+|(?:[<>]=?|[!=]=)\s*\d+[a-z\u00b5\u03bc]{1,3}", m.group(0)):
            continue  # `MaxElapsedTime == 0`, `n >= 1`, `== 1000ns`: a whole number or quantity compared
        if re.fullmatch(r"(?:[<>]=?|[!=]=)\s*\d+\.\d+", m.group(0)) and re.search(r"\)\s*$", text[:m.start()]):
            continue  # `diff_ratio(ops, 0, 0) == 1.0`: a call's result compared with a number, no version
        if re.fullmatch(r"~\d+", m.group(0)) and not re.search(r"[\w$)\]]\s*$", text[:m.start()]):
            continue  # "(~152 days)": a number given roughly, no version range
        take(m.start(), m.end(), Term(m.group(0), TermKind.VERSION))
    pos = 0
    while True:
        m = _CALL_HEAD.search(text, pos)
        if m is None:
            break
        end = balanced(text, m.end() - 1)
        args = text[m.end():end - 1] if end > 0 else ""
        if end < 0 or text[m.start() - 1: m.start()] == "\\" or args.strip() in ("s", "es", "ies") or (
                "." not in m.group(1) and re.fullmatch(r"[a-z]+", m.group(1)) and " " in args.strip()
                and "," not in args and "=" not in args and "<" not in args):
            pos = m.end()  # entry(s), a word(with a prose aside): not calls
            continue
        # The call as the claim wrote it: a version-like `== 0` among its
        # arguments was taken above, and its blanks must not stand in the call.
        chained = end
        while 0 < chained < len(text):
            if text[chained] == "(" and balanced(text, chained) > 0:
                chained = balanced(text, chained)  # require('depd')('http-errors'): a call of what a call returns
                continue
            link = _LINK.match(text, chained)
            if link is None or balanced(text, link.end() - 1) < 0:
                break
            chained = balanced(text, link.end() - 1)  # a().expect(...): a method of what the call returns
        member = _MEMBER_AFTER.match(text, chained) if chained > 0 else None
        if member is not None:
            chained = member.end()  # Next().After: a member of what the call returns, read with the call
        if chained != end:
            take(m.start(), chained, Term(claim[m.start():chained], TermKind.CODE))
            pos = chained
            continue
        take(m.start(), end, Term(claim[m.start():end], TermKind.CALL))
        pos = end
    for m in list(_KEYWORD.finditer(text)):
        take(m.start(), m.end(), Term(m.group(0), TermKind.KEYWORD))
    for m in list(re.finditer(r"(?<![\"\w\\])\"\"(?!\")|(?<!['\w])''(?!')", text)):
        drop(m.start(), m.end())  # an empty string says nothing, and its quotes pair with no other
    for pattern in (_DQ, _SQ):
        for m in list(pattern.finditer(text)):
            if m.group(1).strip():
                # The quoted text as the claim wrote it: a call inside it
                # (``"... {type(value).__name__}"``) was taken as a term
                # above, and its blanks must not stand in the string.
                quoted = claim[m.start(1):m.end(1)]  # "field \"<key>\"": the quotes inside, escaped
                take(m.start(), m.end(), Term(quoted.replace('\\"', '"') if pattern is _DQ else quoted, TermKind.STRING))
    for m in list(_REGEX_ESCAPE.finditer(text)):  # \bexec_file\b: the escapes are no part of the word
        drop(m.start(), m.end())
    for m in list(_PLACEHOLDER.finditer(text)):
        drop(m.start(), m.end())
    for m in list(_BRACE_FIELD.finditer(text)):  # {AUTO_ENVVAR_PREFIX}_{NAME}: fields of a template
        drop(m.start(), m.end())
    for m in list(_NAMED_VERSION.finditer(text)):
        take(m.start(), m.end(), Term(m.group(0), TermKind.IDENTIFIER))
    for m in list(_HEADER.finditer(text)):
        if not _LABEL_ID.fullmatch(m.group(0)):  # X-Real-IP: a string the code would look up, in any case
            take(m.start(), m.end(), Term(m.group(0), TermKind.STRING))
    for m in list(STANDARD_HEADER.finditer(text)):  # Strict-Transport-Security: the project says it somewhere
        take(m.start(), m.end(), Term(m.group(0), TermKind.STRING))
    for m in list(_DATE.finditer(text)):  # 1970-01-01 00:00:00 UTC: one date, a value, not three numbers
        take(m.start(), m.end(), Term(m.group(0), TermKind.STRING))
    for m in list(_MEDIA_TYPE.finditer(text)):  # application/json, text/plain: a media type, a value the code writes
        if m.group(0).split("/")[1] not in _MEDIA_TOP:  # audio/font: two top-level types, alternatives in prose
            take(m.start(), m.end(), Term(m.group(0), TermKind.STRING))
    for m in list(_PATH.finditer(text)):
        path = m.group(0)
        if path.endswith(".") and not path.endswith(("/.", "..")):
            path = path[:-1]  # the sentence's full stop
        parts = path.split("/")
        if len(parts) >= 2 and all(_CONSTANT.fullmatch(p) for p in parts):
            at = m.start()
            for part in parts:  # RUST_LOG/RUST_LOG_STYLE: one constant each
                take(at, at + len(part), Term(part, TermKind.CONSTANT))
                at += len(part) + 1
        elif len(parts) >= 2 and all(re.fullmatch(r"(?:non-)?[1-5][xX]{2}", p) for p in parts):
            for part in re.finditer(r"[1-5][xX]{2}", path):  # 4xx/5xx, non-4xx/5xx: status classes
                take(m.start() + part.start(), m.start() + part.end(), Term(part.group(0), TermKind.NUMBER))
            drop(m.start(), m.start() + len(path))
        elif len(parts) >= 2 and _spelled_alternatives(parts):
            drop(m.start(), m.start() + len(path))  # SP/HTAB/CR/LF, 0b/0o/0x, AVX2/SSE4.2: prose
        elif len(parts) >= 2 and all(_DOTTED.fullmatch(p) or _NUMBER.fullmatch(p) for p in parts):
            at = m.start()
            for part in parts:  # res.json/res.jsonp, 502/503/504: one term each
                take(at, at + len(part), Term(part, TermKind.NUMBER if _NUMBER.fullmatch(part)
                                              else TermKind.PATH if _PATH.fullmatch(part) else TermKind.DOTTED))
                at += len(part) + 1
        elif not _plain_path(path):
            take(m.start(), m.start() + len(path), Term(path, TermKind.PATH))
    for m in list(_DOTTED.finditer(text)):
        if any(len(seg) > 1 for seg in m.group(0).split(".")):  # e.g. / i.e: prose
            take(m.start(), m.end(), Term(m.group(0), TermKind.DOTTED))
    for m in list(_CONSTANT.finditer(text)):
        take(m.start(), m.end(), Term(m.group(0), TermKind.CONSTANT))
    for m in list(_IDENT.finditer(text)):
        word = m.group(0)
        unit = word.lower() in UNIT_FACTORS and re.search(r"\d\s*-?\s*$", claim[:m.start()]) is not None
        if _LABEL_ID.fullmatch(word) or unit:
            drop(m.start(), m.end())  # ADR-0007, or the unit of a number: 1 MiB
        elif word not in PROSE_NAMES and not _ORDINAL.fullmatch(word) and not _LOGIC_VERB.fullmatch(word):
            take(m.start(), m.end(), Term(word, TermKind.IDENTIFIER))
    for m in list(_STATUS_CLASS.finditer(text)):
        take(m.start(), m.end(), Term(m.group(0), TermKind.NUMBER))
    for m in list(_REASON.finditer(text)):  # 301 Moved Permanently: the status's reason phrase, prose
        drop(m.start("phrase"), m.end("phrase"))
    for m in list(_PROPER.finditer(text)):  # Airflow, SIGTERM: what the project must mention somewhere
        word = m.group(0)
        if word not in PROSE_NAMES and word.upper() not in _CAPS_PROSE and not _sentence_start(claim, m.start()) \
                and not (word.isupper() and len(word) < 4):
            take(m.start(), m.end(), Term(word, TermKind.PROPER))
    for m in list(_MULTIPLE.finditer(text)):  # 4x the live items: the factor is a number
        take(m.start(1), m.end(1), Term(m.group(1), TermKind.NUMBER))
        drop(m.start(), m.end())
    for m in list(_EXAMPLE_ASIDE.finditer(text)):  # (e.g. you set 301 first): the example's own numbers
        for number in _NUMBER.finditer(m.group(0)):
            drop(m.start() + number.start(), m.start() + number.end())
    for m in list(_THOUSANDS.finditer(text)):  # 1,000,000: one number, not 1 and two 000s
        take(m.start(), m.end(), Term(m.group(0), TermKind.NUMBER))
    for m in list(_NUMBER.finditer(text)):
        if _label(claim, m.start(), m.end()):
            drop(m.start(), m.end())
        else:
            take(m.start(), m.end(), Term(m.group(0), TermKind.NUMBER))
    for m in list(_GLUED_UNIT.finditer(text)):  # 30s, 500ms, 2KiB: a value and its unit, written as one word
        take(m.start(1), m.end(1), Term(m.group(1), TermKind.NUMBER))
    asides = [m.span() for m in _EXAMPLE_PARENS.finditer(claim)]
    found.sort(key=lambda item: item[0])
    out: list[Term] = []
    for start, term in found:
        if term.kind not in (TermKind.CALL, TermKind.STRING) and claim[start] != "`" \
                and any(a <= start < b for a, b in asides):
            continue  # "(e.g. "foo-" for foo.log)", "(e.g. IsolatedAsyncioTestCase)": the example's own values
        if term not in out:
            out.append(term)
    return out


# ======================================================================= the evidence

_WILD = "\x00"  # one placeholder or format field in a template
_QUOTED_WILD = "\x03"  # a quoted placeholder of a claim ('<sub>'): what a field of the code may hold


@dataclass(frozen=True)
class _Param:
    """One parameter of a definition, as written (``verify: bool = True``)."""

    name: str
    annotation: str = ""
    default: str = ""
    keyword_only: bool = False


@dataclass(frozen=True)
class _Definition:
    """A function the evidence defines: its names, parameters and the code around it."""

    names: frozenset[str]  # the def's name, the name it is assigned to, the class of an __init__
    receiver: str  # ``res`` of ``res.cookie = function (...)``
    params: tuple[_Param, ...]
    variadic: bool  # *args, ...rest or arguments
    keywords: bool  # **kwargs
    body: str
    #: The keys a ``**kwargs`` catch-all is read by, when its function reads it by literal keys alone;
    #: None when it takes any keyword (it is passed on, iterated, or never read).
    keys: frozenset[str] | None = None

    def positional(self) -> list[_Param]:
        return [p for p in self.params if not p.keyword_only]

    def param(self, name: str) -> _Param | None:
        return next((p for p in self.params if p.name == name), None)


_DEF = re.compile(
    r"\bdef\s+(?P<py>[A-Za-z_]\w*)\s*\("
    # Go's func (recv *T) Name[T any](...), Rust's fn name<'a, T>(...) and TypeScript's generics alike
    r"|\bfunc\s+(?:\([^()]*\)\s*)?(?P<go>[A-Za-z_]\w*)\s*(?:\[[^\[\]]*\]\s*)?\("
    r"|\bfn\s+(?P<rs>[A-Za-z_]\w*)\s*(?:<[^(){}]*>\s*)?\("
    r"|(?:(?P<target>[A-Za-z_$][\w$.]*(?:\s*=\s*[A-Za-z_$][\w$.]*)*)\s*[:=]\s*)?(?:async\s+)?\bfunction\b\s*\*?\s*"
    r"(?P<fn>[A-Za-z_$][\w$]*)?\s*(?:<[^(){};]*>\s*)?\("  # TypeScript's function f<T extends X>(...)
    r"|(?P<arrow>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*[:=]\s*(?:async\s*)?\("
    r"|(?P<single>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*[:=]\s*(?:async\s+)?(?P<param>[A-Za-z_$][\w$]*)\s*=>"
    r"|^[ \t]*(?:(?:static|async|get|set|public|private|protected|override)[ \t]+)*\*?[ \t]*"
    r"(?!(?:if|for|while|switch|catch|function|func|fn|return|with|new|typeof|await)\b)"
    r"(?P<method>[A-Za-z_$][\w$]*)\s*\(",
    re.M)
#: What follows a JS/TS method's parameter list: a return type, maybe, then its body (a call has none).
_METHOD_TAIL = re.compile(r"\s*(?::[^{;=]*)?\{")
#: What follows an arrow function's parameter list: a return type, maybe, then ``=>``.
_ARROW_TAIL = re.compile(r"\s*(?::\s*[^=;{}()]+?)?\s*=>")
_CLASS = re.compile(r"^[ \t]*class\s+([A-Za-z_]\w*)", re.M)
_BOOL = frozenset({"true", "false"})
_NULL = frozenset({"none", "null", "undefined", "nil"})


def split_args(inner: str) -> list[str]:
    """The top-level, comma-separated parts of ``inner``, stripped, empty ones dropped."""
    out, depth, start, quote = [], 0, 0, ""
    for i, ch in enumerate(inner):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'`":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(inner[start:i])
            start = i + 1
    out.append(inner[start:])
    return [a.strip() for a in out if a.strip()]


def _generics_masked(text: str) -> str:
    """``text`` with the commas inside type arguments (``Either<S, R>``, ``Map<K, V>``: a ``<`` right after
    a name) replaced by NUL, so that a parameter list splits at its own commas only (``=>`` and ``->``
    close nothing, ``a < b`` opens nothing)."""
    out, depth = [], 0
    for i, ch in enumerate(text):
        if ch == "<" and re.match(r"[\w$]", text[i - 1:i]):  # Map<K, V>, not a < b
            depth += 1
        elif ch == ">" and depth and text[i - 1:i] not in ("=", "-"):
            depth -= 1
        out.append("\x00" if ch == "," and depth else ch)
    return "".join(out)


def _params(text: str) -> tuple[tuple[_Param, ...], bool, str]:
    """A parameter list's parameters, whether it takes any number of
    positional arguments (``*args``, ``...rest``), and the name of its
    catch-all for any keyword (``kw`` of ``**kw``; empty if it has none)."""
    params: list[_Param] = []
    variadic = keyword_only = False
    keywords = ""
    for raw in split_args(_generics_masked(text)):
        raw = " ".join(raw.split()).replace("\x00", ",")
        if raw in ("self", "cls", "/") or re.fullmatch(r"&?\s*(?:'\w+\s+)?(?:mut\s+)?self", raw):
            continue  # Rust's self, &self, &'a mut self too
        if re.fullmatch(r"[A-Za-z_]\w*\s+\.\.\.\S.*", raw):  # Go's `middlewares ...func(http.Handler)`
            variadic = keyword_only = True
            continue
        if raw == "*":
            keyword_only = True
            continue
        if raw.startswith("**"):
            keywords = re.sub(r"\W.*", "", raw[2:].strip()) or "**"
            continue
        if raw.startswith(("*", "...")):
            variadic = keyword_only = True
            continue
        # name?: T (TypeScript), an annotation holding a function type (=>)
        m = re.match(r"([A-Za-z_$][\w$]*)\??\s*(?::\s*((?:[^=]|=>)*?))?\s*(?:=(?!>)\s*(.*))?$", raw)
        go = re.fullmatch(r"([A-Za-z_]\w*)\s+([^\s=:][^=:]*)", raw) if m is None else None
        if go is not None:  # Go's `size int`, `onEvict EvictCallback[K, V]`: the name, then the type
            params.append(_Param(go.group(1), go.group(2), "", keyword_only))
            continue
        if m is None:
            params.append(_Param("", keyword_only=keyword_only))  # a destructured parameter
            continue
        params.append(_Param(m.group(1), (m.group(2) or "").strip(), (m.group(3) or "").strip(), keyword_only))
    return tuple(params), variadic, keywords


def _definitions(ev: EvidenceText, code: str) -> list[_Definition]:
    """The functions ``code`` defines: ``def f(...)``, ``function f(...)``,
    ``obj.f = function (...)`` (``a.f = a.g = function g(...)`` is both),
    ``f = (...) =>``, ``key: x =>`` (an object's method); a class's
    ``__init__`` is also the class."""
    if (ev.language or language_for_path(ev.label.split("::", 1)[0])) == "rust":
        code = re.sub(r"'([A-Za-z_]\w*)(?![\w'])", r"\1", code)  # a lifetime ('a) opens no string
    classes = [(m.start(), m.group(1)) for m in _CLASS.finditer(code)]
    owners = [n.split("::", 1)[-1].rsplit(".", 2) for n in ev.names]
    out = []
    for m in _DEF.finditer(code):
        end = m.end() if m.group("single") else balanced(code, m.end() - 1, limit=4000)
        if end < 0 or (m.group("arrow") and not _ARROW_TAIL.match(code, end)) \
                or (m.group("method") and not _METHOD_TAIL.match(code, end)):
            continue
        names: set[str] = set()
        receiver = ""
        if m.group("py"):
            names.add(m.group("py"))
            if m.group("py") == "__init__":
                before = [name for at, name in classes if at < m.start()]
                names.update(before[-1:])
                names.update(o[-2] for o in owners if len(o) >= 2 and o[-1] == "__init__")
        for targets in (m.group("target"), m.group("arrow"), m.group("single")):
            for target in (t.strip() for t in (targets or "").split("=") if t.strip()):
                names.add(target.rsplit(".", 1)[-1])  # req.get = req.header = function header(name)
                receiver = target.rsplit(".", 1)[0] if "." in target else receiver
        if m.group("fn"):
            names.add(m.group("fn"))
        names.update(n for n in (m.group("go"), m.group("rs")) if n)
        if m.group("method") and (ev.language or language_for_path(ev.label.split("::", 1)[0])) \
                in ("javascript", "typescript", "tsx"):
            names.add(m.group("method"))  # use (fn) { ... }: a class's or an object's method
        if not names:
            continue
        params, variadic, keywords = _params(m.group("param") if m.group("single") else code[m.end():end - 1])
        variadic = variadic or bool(re.search(r"(?<![\w$.])arguments(?![\w$])", code[end:]))
        keys = _catch_all_keys(keywords, _python_body(code, m.start(), end)) if keywords and m.group("py") else None
        out.append(_Definition(frozenset(names), receiver, params, variadic, bool(keywords), code, keys))
    return out


def _python_body(code: str, start: int, end: int) -> str:
    """The body of the Python ``def`` at ``start`` whose parameter list ends at ``end``: the lines
    after it indented deeper than the ``def``."""
    line = code.rfind("\n", 0, start) + 1
    indent = len(code[line:start]) - len(code[line:start].lstrip())
    first = code.find("\n", end)
    if first < 0:
        return code[end:]  # def f(**kw): return kw
    out = [code[end:first]]
    for text in code[first + 1:].splitlines():
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        out.append(text)
    return "\n".join(out)


def _catch_all_keys(name: str, body: str) -> frozenset[str] | None:
    """The keys ``body`` reads its ``**name`` catch-all by, when each of its uses reads one literal
    key (``"k" in name``, ``name["k"]``, ``name.get("k")``, ``name.pop("k")``); None when any use
    reads it another way (``**name`` passed on, ``name.items()``) or none reads it."""
    uses = [m.start() for m in re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w)", body)]
    key = r"(?P<q>[\"'])(?P<key>\w+)(?P=q)"
    reads = [(m.end() - len(name), m.group("key"))
             for m in re.finditer(rf"{key}\s+(?:not\s+)?in\s+{re.escape(name)}(?!\w)", body)]
    reads += [(m.start(), m.group("key")) for m in re.finditer(
        rf"(?<![\w.]){re.escape(name)}(?:\[\s*|\.(?:get|pop|setdefault)\(\s*){key}", body)]
    if not uses or sorted(at for at, _ in reads) != uses:
        return None
    return frozenset(key for _, key in reads)


def _parts(word: str) -> list[str]:
    """``is_success`` -> ``is``, ``success``; ``isClientError`` -> ``is``, ``client``, ``error``."""
    return [p.lower() for p in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", word)]


_FIELD = re.compile(r"\$\{[^{}\n]*\}|\{[^{}\n]*\}|%(?:\([\w.]+\))?[-+ #0]*\d*(?:\.\d+)?[sdifrxXoOjceEgGavqwT]")


def _chars(text: str) -> list[str]:
    """``text`` as characters, each run of whitespace one space."""
    return list(re.sub(r"\s+", " ", text))


def _template(content: str) -> list[str]:
    """A string's content as characters and :data:`_WILD` for each format
    field (in quotes for a repr field, ``{name!r}`` or ``%r``, and for Go's
    ``%q``: what it prints for a string)."""
    content = content.replace("%%", "\x02")
    out: list[str] = []
    pos = 0
    for m in _FIELD.finditer(content):
        out += _chars(content[pos:m.start()].replace("\x02", "%"))
        if re.search(r"!r\}$|%r$", m.group(0)):
            out += ["'", _WILD, "'"]  # a repr field ({name!r}, %r) prints a string in its quotes: 'x'
        elif re.fullmatch(r"%[-+ #0]*\d*q", m.group(0)):
            out += ['"', _WILD, '"']  # and Go's %q in double quotes: "x"
        else:
            out.append(_WILD)
        pos = m.end()
    return out + _chars(content[pos:].replace("\x02", "%"))


_OPERAND = re.compile(
    rf"(?P<s>{_STRING_TOKEN.pattern})"
    r"|(?P<e>[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*|\s*\[[^\[\]]*\])*)"
    r"|(?P<n>\d[\w.]*)|(?P<plus>\+)|(?P<o>\S)")


def _operands(code: str) -> list[tuple[str, str]]:
    """The code as string literals (``s``), other operands (``e``: a name,
    with its call's arguments, or a parenthesized expression), numbers (``n``), ``+`` and other
    characters."""
    out: list[tuple[str, str]] = []
    pos = 0
    while True:
        m = _OPERAND.search(code, pos)
        if m is None:
            return out
        kind = next(k for k in ("s", "e", "n", "plus", "o") if m.group(k) is not None)
        end = m.end()
        if kind == "o" and m.group(0) == "(":
            closed = balanced(code, m.start(), limit=2000)
            if closed > 0:  # 'argument #' + (i + 1) + ' unsupported': a parenthesized operand, any text
                kind = "e"
                end = closed
        elif kind == "e":
            call = re.match(r"\s*\(", code[end:])
            if call:
                closed = balanced(code, end + call.end() - 1, limit=2000)
                end = closed if closed > 0 else end
        out.append((kind, code[m.start():end]))
        pos = end


def _unescape(content: str) -> str:
    """A literal's content with its escapes read: a line continued with ``\\`` joined (Rust drops the next
    line's indent too), quotes and backslashes as themselves, a newline, return or tab a space."""
    content = re.sub(r"\\\r?\n[ \t]*", "", content)
    # one pass, so that `\\t` (a backslash, then t) stays the two characters a pattern reads as a tab
    return re.sub(r"\\([\"'`\\])|\\[nrt]", lambda m: m.group(1) or " ", content)


#: Calls that print their arguments joined by spaces: Go's Println family, Python's print, console.log.
_PRINTS = frozenset({"Println", "Sprintln", "Fprintln", "print", "console.log", "console.error", "console.warn",
                     "console.info"})


def _printed(call: str) -> list[str]:
    """What a printing call writes as a template: its arguments joined by a space, each string as written
    and anything else any text (``fmt.Fprintln(os.Stderr, "Failed to fire hook:", err)``: ``Failed to fire
    hook: <any>``); empty for any other call, or one with no string or a separator of its own."""
    callee = re.sub(r"\s+", "", call[: call.index("(")])
    name = callee if callee.startswith("console.") else callee.rsplit(".", 1)[-1]
    if name not in _PRINTS or "sep=" in call or "end=" in call:
        return []
    args = split_args(call[call.index("(") + 1: call.rstrip().rfind(")")])
    args = args[1:] if name == "Fprintln" else args  # the writer
    if len(args) < 2 or not any(_STRING_TOKEN.fullmatch(a.strip()) for a in args):
        return []
    out: list[str] = []
    for a in args:
        out += [" "] if out else []
        token = _STRING_TOKEN.fullmatch(a.strip())
        out += _template(_unescape(_string_content(token.group(0)))) if token else [_WILD]
    return out


def _templates(code: str) -> list[list[str]]:
    """The strings the code writes, as templates: each literal, and each chain
    of literals concatenated with ``+`` (or side by side) and other operands,
    which stand for any text."""
    items = _operands(code)
    out: list[list[str]] = []
    for kind, text in items:
        if kind == "e" and "(" in text:  # the strings among a call's arguments
            out += _templates(text[text.index("(") + 1: -1])
            joined = _printed(text)
            if joined:
                out.append(joined)
        if kind == "e" and "[" in text:  # and in a subscript: data["fields." + key]
            for sub in re.finditer(r"\[([^\[\]]*)\]", text):
                out += _templates(sub.group(1))
    i = 0
    while i < len(items):
        if items[i][0] not in ("s", "e", "n"):
            i += 1
            continue
        chain = [items[i]]
        j = i + 1
        while j < len(items):
            if items[j][0] == "plus" and j + 1 < len(items) and items[j + 1][0] in ("s", "e", "n"):
                chain.append(items[j + 1])
                j += 2
            elif items[j][0] == "s" and chain[-1][0] == "s":
                chain.append(items[j])  # "a" "b": one string
                j += 1
            else:
                break
        if any(k == "s" for k, _ in chain):
            parts: list[str] = []
            for k, t in chain:
                if k == "s":
                    parts += _template(_unescape(_string_content(t)))
                elif k == "n":
                    parts += list(t)
                else:
                    parts.append(_WILD)
            if len(parts) <= 2000:
                out.append(parts)
        i = j
    return out


#: ``(cond ? 'strict' : ...)`` / ``(cond ? ... : 'strict')``: an operand one of whose values is a literal.
_TERNARY_LITERAL = re.compile(r"\(\s*[^?]+\?\s*(?:(?P<q1>['\"])(?P<a>[^'\"\n]*)(?P=q1)\s*:[\s\S]*"
                              r"|[^:]+:\s*(?P<q2>['\"])(?P<b>[^'\"\n]*)(?P=q2)\s*)\)")
#: The owner of a field: ``this.``, ``self.``, ``Cookie.prototype.``.
_FIELD_OWNER = r"(?:this|self|[A-Za-z_$][\w$]*\.prototype)\s*\.\s*"
#: ``this.path`` / ``self.path`` / ``Cookie.prototype.path``: a field, whose literal values the code may assign.
_FIELD_OPERAND = re.compile(rf"{_FIELD_OWNER}([A-Za-z_$][\w$]*)")


def _filled(code: str) -> list[str]:
    """What the code's concatenations write when an operand takes a value the
    code itself gives it: ``"; samesite=" + (this.sameSite === true ? 'strict' : ...)``
    writes ``; samesite=strict``; ``"; path=" + this.path`` writes ``; path=/``
    where the code assigns ``Cookie.prototype.path = "/"``. One operand filled at a
    time, the others left out of the text (it is compared by containment)."""
    out: list[str] = []
    items = _operands(code)
    for i, (kind, text) in enumerate(items):
        if kind != "e" or i < 2 or items[i - 1][0] != "plus" or items[i - 2][0] != "s":
            continue
        values: list[str] = []
        ternary = _TERNARY_LITERAL.fullmatch(text.strip())
        if ternary:
            values.append(ternary.group("a") if ternary.group("a") is not None else ternary.group("b"))
        field = _FIELD_OPERAND.fullmatch(text.strip())
        if field:
            values += re.findall(rf"(?<![\w$]){_FIELD_OWNER}{re.escape(field.group(1))}\s*=\s*['\"]([^'\"\n]*)['\"]",
                                 code)[:3]
        prefix = _unescape(_string_content(items[i - 2][1]))
        out += [prefix + value for value in dict.fromkeys(values) if value]
    return out


def abbreviates(short: str, owner: str) -> bool:
    """Whether an instance name ``short`` is the usual short name of
    ``owner``'s last part: its initial and then letters of it in order
    (``app`` of ``Application``, ``ctx`` of ``context``, ``res`` of
    ``response``), at least three letters."""
    short, last = short.lower(), owner.rsplit(".", 1)[-1].lower()
    if len(short) < 3 or not last.startswith(short[0]) or short == last:
        return short == last
    it = iter(last[1:])
    return all(ch in it for ch in short[1:])


#: The path a Rust macro names its own crate's items by.
_CRATE_PATH = re.compile(r"\$crate\s*::\s*")


#: A regular expression as code writes it: a JavaScript literal (``/^...$/i``) after an operator,
#: ``return`` or at a line's start; a pattern string handed to Python's ``re``, Go's ``regexp`` or Rust's ``Regex::new``.
_REGEX_LITERAL = re.compile(
    r"(?:^|[=(,:!&|?{};]|\breturn)\s*/(?P<js>\^(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[])+)/(?P<flags>[dgimsuy]*)"
    r"|\bre\s*\.\s*(?P<call>compile|match|fullmatch)\s*\(\s*[rR]?(?P<q>[\"'])(?P<py>(?:\\.|(?!(?P=q)).)+)(?P=q)"
    r"(?P<pyflags>\s*,\s*re\.(?:I|IGNORECASE)\b)?"
    r"|\bregexp\s*\.\s*(?:Must)?Compile\s*\(\s*`(?P<go>[^`]+)`"
    r"|\bRegex\s*::\s*new\s*\(\s*r#*\"(?P<rs>[^\"]+)\"", re.M)


def _one_set(source: str) -> bool:
    """Whether a regular expression is one set of characters repeated
    (``^[\\x20-\\x7e]*$``, ``^[!#$%&'*+.0-9A-Z^_`a-z|~-]+$``, ``\\d+``): it takes
    any text made of them, a sentence as well as a value."""
    body = re.sub(r"^\^|(?<!\\)\$$|\\Z$", "", source)
    return re.fullmatch(r"(?:\[(?:\\.|[^\]\\])*\]|\\.|\.)(?:[*+]|\{\d*,?\d*\})\??", body) is not None


def anchored_patterns(code: str) -> list[re.Pattern[str]]:
    """The regular expressions ``code`` writes that match a whole input:
    anchored at both ends (``^...$``), or handed to Python's ``re.fullmatch``
    (``re.match`` with a final ``$``); each compiled as Python reads it
    (``(?<name>`` is ``(?P<name>``; the ``i`` flag ignores case). One Python
    cannot read is left out, and so is one set of characters repeated,
    which takes any text made of them."""
    out = []
    for m in _REGEX_LITERAL.finditer(code):
        source = m.group("js") or m.group("py") or m.group("go") or m.group("rs") or ""
        flags = re.I if "i" in (m.group("flags") or "") or m.group("pyflags") else 0
        whole = m.group("call") == "fullmatch" or ((source.startswith("^") or m.group("call") == "match") \
            and re.search(r"(?<!\\)(?:\$|\\Z|\\z)$", source) is not None)
        if not whole or _one_set(source):
            continue
        source = re.sub(r"\(\?<(?=[A-Za-z_])", "(?P<", source).replace("\\z", "\\Z")
        try:
            out.append(re.compile(source, flags))
        except re.error:
            continue  # a syntax of its own language (possessive quantifiers, \p{L}): not read
    return out


class _Index:
    """The evidence of one write, prepared for term lookups.

    Names are looked up in everything the evidence says (``tokens``,
    ``words``); values only in its code (``code``, ``numbers``,
    ``strings``), with comments and docstrings left out.
    """

    def __init__(self, texts: Sequence[EvidenceText]) -> None:
        self.texts = list(texts)
        self.tokens: list[str] = []
        self.code: list[str] = []
        self.code_texts: list[tuple[EvidenceText, str]] = []
        self.words: set[str] = set()
        self.lower: set[str] = set()  # words, their `_` parts and the anchors' name parts, lower-cased
        self.folded: set[str] = set()
        self.code_lower: set[str] = set()
        self.numbers: set[float] = set()
        self.constants: dict[str, float] = {}  # what the code computes its constants to (constant_values)
        self.names: set[str] = set()
        self.name_segments: set[str] = set()
        self.modules: set[str] = set()
        self._lower_tokens: list[str] | None = None
        self._lower_code: list[str] | None = None
        # "code"/"tokens" -> the same without layout (_layout_free), joined; None when there is none to set aside
        self._layout: dict[str, str | None] = {}
        self._templates: list[list[str]] | None = None
        self._numbered: list[re.Pattern[str]] | None = None
        self._outputs: list[tuple[list[str], re.Pattern[str]]] | None = None
        self._filled: list[str] | None = None
        self._definitions: list[_Definition] | None = None
        self._code_parts: list[str] | None = None
        self._strings: list[str] | None = None
        self._patterns: list[re.Pattern[str]] | None = None
        self._strings_lower: set[str] | None = None
        self._string_runs: list[list[tuple[str, str, bool]]] | None = None
        self._name_parts: set[str] | None = None
        self._code_words: set[str] | None = None
        # The languages of the texts: a crate's or a module's manifest is of its language, and an absence
        # rule (`import:requests in app/*.py`) of the files it is checked in.
        self.languages: set[str] = set()
        for ev in self.texts:
            path, _, scope = ev.label.split("::", 1)[0].partition(" in ")
            language = ev.language or language_for_path(path)
            manifest = {"Cargo.toml": "rust", "go.mod": "go"}.get(path.rsplit("/", 1)[-1])
            self.languages.add(manifest or language or (language_for_path(scope) if scope else None) or "")
            code = code_only(ev.text, language)
            text = ev.text
            if language == "rust":  # `$crate::STATIC_MAX_LEVEL` in a macro is the crate's STATIC_MAX_LEVEL
                code, text = _CRATE_PATH.sub("", code), _CRATE_PATH.sub("", text)
            self.code_texts.append((ev, code))
            self.tokens += [*code_tokens(text), "\x01"]  # never joins two texts into one sequence
            self.code += [*code_tokens(code), "\x01"]
            for value in numbers_in(code, in_strings=True):
                self.numbers.update((value, abs(value)))
            computed = constant_values(code)
            self.constants.update(computed)
            self.numbers.update(computed.values())
            for name in ev.names:
                self.names.add(name)
                self.name_segments.update(_WORD.findall(name))
            for module in ev.imports:
                plain = module.lstrip(".").removeprefix("node:").lower().replace("/", ".").replace("::", ".")
                parts = plain.split(".")
                self.modules.update({module.lower(), *(".".join(parts[:i]) for i in range(1, len(parts) + 1))})
        for tok in self.tokens:
            if _WORD.fullmatch(tok):
                self.words.add(tok)
        for word in self.words | self.name_segments:
            self.lower.add(word.lower())
            self.lower.update(part.lower() for part in word.split("_") if part)
            self.folded.add(fold(word))
            self.folded.update(fold(part) for part in word.split("_") if part)
        self.code_lower = {t.lower() for t in self.code if _WORD.fullmatch(t)}

    # ---------------------------------------------------------------- lookups

    def joined(self, key: str, build: Callable[[], Sequence[str]]) -> str:
        """The tokens ``build`` makes of the code, joined by NULs (``"\x00a\x00b\x00"``) and kept under
        ``key`` for the other terms of the claim: a reading of the code that a term is searched in whole."""
        if key not in self._layout:
            self._layout[key] = "\x00" + "\x00".join(build()) + "\x00"
        return self._layout[key] or ""

    def has_sequence(self, text: str, *, fold: bool = False, code: bool = False) -> bool:
        """Whether the tokens of ``text`` occur in order (in the code only, with
        ``code``), or do once layout is set aside on both sides (see :func:`_layout_free`)."""
        wanted = code_tokens(text)
        if not fold:
            haystack = self.code if code else self.tokens
            if _contains(haystack, wanted):
                return True
            bare = _layout_free(wanted)
            key = "code" if code else "tokens"
            if key not in self._layout:
                free = _layout_free(haystack)
                self._layout[key] = "\x00" + "\x00".join(free) + "\x00" if len(free) != len(haystack) else None
            free = self._layout[key]
            if free is None:  # the code has no layout to set aside: only the claim's can differ
                return len(bare) != len(wanted) and _contains(haystack, bare)
            return bool(bare) and "\x00" + "\x00".join(bare) + "\x00" in free
        if code:
            if self._lower_code is None:
                self._lower_code = [t.lower() for t in self.code]
            return _contains(self._lower_code, [t.lower() for t in wanted])
        if self._lower_tokens is None:
            self._lower_tokens = [t.lower() for t in self.tokens]
        return _contains(self._lower_tokens, [t.lower() for t in wanted])

    def patterns(self) -> list[re.Pattern[str]]:
        """The code's anchored regular expressions (see :func:`anchored_patterns`)."""
        if self._patterns is None:
            self._patterns = [p for _, code in self.code_texts for p in anchored_patterns(code)]
        return self._patterns

    def accepts(self, text: str) -> bool:
        """Whether one of the code's anchored regular expressions matches all of
        ``text``: an input the code parses (``'2 Days'`` for ``/^(?<value>-?\\d*\\.?\\d+)
        *(?<unit>...|days?|...)?$/i``)."""
        return any(p.fullmatch(text) for p in self.patterns())

    def strings(self) -> list[str]:
        """The contents of the code's string literals, and of each run of
        literals the code joins into one (``"a " "b"``, ``"a " + "b"``)."""
        if self._strings is None:
            self._strings = [_unescape(_string_content(m.group(0))) for _, code in self.code_texts
                             for m in _STRING_TOKEN.finditer(code)]
            self._strings += [content for runs in self._runs() for content, _, joined in runs if joined]
            # "\n\nCaused by:" is the message `Caused by:`: the layout around a string is not its words
            self._strings += [s.strip() for s in self._strings if s.strip() != s and len(s.strip()) >= 3]
        return self._strings

    def _runs(self) -> list[list[tuple[str, str, bool]]]:
        """Per code text, the strings it builds from literals (see :func:`_joined_strings`)."""
        if self._string_runs is None:
            self._string_runs = [_joined_strings(code) for _, code in self.code_texts]
        return self._string_runs

    def assigned_strings(self, name: str) -> list[str]:
        """The texts the runs of literals the code assigns to ``name`` join
        into (``msg = ("Invalid format. " "Must be ...")``), in the code's order: a
        name such as ``msg`` is often given one message per branch."""
        return list(dict.fromkeys(content for runs in self._runs() for content, target, _ in runs if target == name))

    def has_string(self, content: str) -> bool:
        """Whether the code writes a string literal ``content`` (in any case)."""
        if self._strings_lower is None:
            self._strings_lower = {s.lower() for s in self.strings()}
        return content.lower() in self._strings_lower

    def has_name(self, name: str, *, any_case: bool = False) -> bool:
        name = name.strip("./")
        names = {n.lower() for n in self.names} if any_case else self.names
        name = name.lower() if any_case else name
        return name in names or any(n.endswith("." + name) or n.endswith("/" + name) for n in names)

    def parts(self) -> set[str]:
        """The parts of every word and anchor name, split at ``_`` and
        capitals, lower-cased (``defaultRetryOptions``: default, retry, options)."""
        if self._name_parts is None:
            self._name_parts = {p for w in self.words | self.name_segments for p in _parts(w)}
        return self._name_parts

    def leaves(self) -> set[str]:
        """The anchored symbols' own names: ``retry`` of ``constants.ts::retry``."""
        return {re.sub(r"^(?:static |get |set )+", "", n.split("::", 1)[1].rsplit(".", 1)[-1])
                for n in self.names if "::" in n}

    def has_word(self, word: str) -> bool:
        return word in self.words or word in self.name_segments

    def code_words(self) -> set[str]:
        """The words of the code, comments and docstrings left out."""
        if self._code_words is None:
            self._code_words = {t for t in self.code if _WORD.fullmatch(t)}
        return self._code_words

    def handles(self, exception: str) -> bool:
        """Whether the code raises, catches or tests for ``exception``."""
        pattern = re.compile(rf"\b(?:raise|raises|except|catch|throw|throws|isinstance|rescue)\b[^\n]*"
                             rf"(?<![\w$]){re.escape(exception)}(?![\w$])")
        return any(pattern.search(ev.text) for ev in self.texts)

    def code_parts(self) -> list[str]:
        """The code's words split at ``_`` and capitals, lower-cased, in order."""
        if self._code_parts is None:
            self._code_parts = [p for t in self.code for p in (_parts(t) if _WORD.fullmatch(t) else [t])]
        return self._code_parts

    def filled(self) -> list[str]:
        """What the code's concatenations write with an operand's own value filled in (see :func:`_filled`)."""
        if self._filled is None:
            self._filled = [t for _, code in self.code_texts for t in _filled(code)]
        return self._filled

    def templates(self) -> list[list[str]]:
        if self._templates is None:
            self._templates = [t for _, code in self.code_texts for t in _templates(code)]
        return self._templates

    def numbered(self) -> list[re.Pattern[str]]:
        """The strings the code formats with number fields, each as the pattern of its output (see
        :func:`_numbered_instance`), built once."""
        if self._numbered is None:
            self._numbered = [p for p in map(_number_template, self.strings()) if p is not None]
        return self._numbered

    def outputs(self) -> list[tuple[list[str], re.Pattern[str]]]:
        """The templates that are formats, each with the pattern of what it prints (see
        :func:`_output_pattern`), built once: every unbound string and code term is read against them."""
        if self._outputs is None:
            self._outputs = [(t, p) for t in self.templates() if (p := _output_pattern(t)) is not None]
        return self._outputs

    def definitions(self, callee: str = "") -> list[_Definition]:
        """The functions the code defines (named ``callee``'s last part, when given)."""
        if self._definitions is None:
            self._definitions = [d for ev, code in self.code_texts for d in _definitions(ev, code)]
        if not callee:
            return self._definitions
        last = callee.rsplit(".", 1)[-1]
        receiver = callee.rsplit(".", 1)[0].lower() if "." in callee else ""
        return [d for d in self._definitions
                if last in d.names and not (receiver and d.receiver and d.receiver.lower() != receiver)]

    @staticmethod
    def owners(ev: EvidenceText) -> set[str]:
        """What ``this`` and ``self`` stand for in ``ev``: the class or object
        of its qualified name (``res`` of ``lib/response.js::res.json``)."""
        return {q.rsplit(".", 1)[0].lower() for q in _qualnames(ev) if "." in q}

    def calls(self, callee: str, *, headers: bool = False) -> list[str]:
        """The calls of ``callee`` in the code on a compatible receiver
        (``this.set`` in ``res.json`` is ``res.set``, not ``app.set``); with
        ``headers``, its definitions' and class statements' heads instead
        (``redirect(url)`` of ``function redirect(url)``)."""
        last = callee.rsplit(".", 1)[-1]
        receiver = callee.rsplit(".", 1)[0].lower() if "." in callee else ""
        out = []
        for ev, code in self.code_texts:
            # a call inside a message ("... a long option (and can have two, like ...)") is no call
            for m in re.finditer(rf"(?<![\w$]){re.escape(last)}\s*\(", _strings_blanked(code)):
                before = code[max(0, m.start() - 400):m.start()]
                if bool(re.search(r"(?:\bdef|\bfunction\s*\*?|\bclass|\bfunc(?:\s*\([^()]*\))?|\bfn)\s*$", before)) \
                        is not headers:  # Go's func (c *Color) Sprintln(...) and Rust's fn: heads, not calls
                    continue
                end = balanced(code, m.end() - 1, limit=400)
                if end < 0:
                    continue
                own = re.search(r"([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*\.\s*$", before[-200:])
                if receiver and own:
                    theirs = re.sub(r"\s", "", own.group(1)).lower()
                    this = theirs in ("this", "self")
                    mapped = self.owners(ev) if this else {theirs}
                    if this and receiver in ("this", "self"):
                        mapped = set()  # this.destroy(...) as the code writes it
                    if mapped and not any(r == receiver or r.endswith("." + receiver) or receiver.endswith("." + r)
                                          or (this and (r.endswith(receiver) or abbreviates(receiver, r)))
                                          for r in mapped):
                        continue
                # `left_and(\n    other,\n)`: a trailing comma is layout, not an argument; a string continued
                # onto the next line with `\` (Rust drops the next line's indent) is one string
                text = re.sub(r"\\\r?\n[ \t]*", "", code[m.start():end])
                out.append(re.sub(r",\s*([)\]}])", r"\1", " ".join(text.split())))
        return out


def _strings_blanked(code: str) -> str:
    """``code`` with the text of its string literals blanked, offsets kept;
    the code of a template literal's fields (``${name(x)}``) stays."""
    def blank(m: re.Match[str]) -> str:
        literal = m.group(0)
        if not literal.endswith("`"):
            return literal[0] + " " * (len(literal) - 2) + literal[-1]
        fields = [(f.start(), f.end()) for f in re.finditer(r"\$\{[^{}]*\}", literal)]
        return "".join(c if c == "\n" or any(a <= i < b for a, b in fields) or i in (0, len(literal) - 1)
                       else " " for i, c in enumerate(literal))
    return _STRING_TOKEN.sub(blank, code)


# ======================================================================= binding

@dataclass(frozen=True)
class _Context:
    index: _Index
    exists: Callable[[Term], bool]
    claim: str
    examples: frozenset[str] = frozenset()  # the words of the claim's example hosts and addresses


_ELLIPSIS = re.compile(r"\.\.\.|…")


def _wild_text(text: str) -> str:
    """``text`` with placeholders, ellipses and ``{fields}`` replaced by :data:`_WILD`."""
    return re.sub(rf"{_PLACEHOLDER.pattern}|\.\.\.|…|\{{[^{{}}\n]*\}}|%[sdr]", _WILD, text)


def _placeholder(arg: str) -> bool:
    """An argument that stands for any value: ``<url>``, ``...``, ``N``, ``[...]``, ``{...}``."""
    arg = arg.strip()
    inner = arg[1:-1].strip() if arg[:1] + arg[-1:] in ("[]", "{}", "()") else None
    return (_PLACEHOLDER.fullmatch(arg) is not None or _ELLIPSIS.fullmatch(arg) is not None
            or re.fullmatch(r"[A-Z]", arg) is not None or arg == "<_>"
            or (inner is not None and (not inner or _ELLIPSIS.fullmatch(inner) is not None)))


def _literal(arg: str) -> str | None:
    """The content of a string literal argument, or ``None``."""
    m = re.fullmatch(r"[rRbBuUfF]{0,2}([\"'`])(.*)\1", arg.strip(), re.S)
    return m.group(2) if m else None


def _unquote(arg: str) -> str:
    """A value as written, without the quotes of a string literal."""
    content = _literal(arg)
    return arg.strip() if content is None else content


def _template_binds(text: str, ctx: _Context) -> bool:
    """Whether ``text``, placeholders standing for any text, matches a string
    the code writes (its format fields and concatenated operands standing for
    any text made of words the code says)."""
    index = ctx.index
    wild = _wild_text(_URL.sub(lambda m: _WILD if _illustrative(m.group(0)) else m.group(0), text))
    wild = re.sub(rf"(['\"]){_WILD}\1", _QUOTED_WILD, wild)  # for '<sub>': the text of a field, quotes and all
    wild = re.sub(rf"{_WILD}: {_WILD}", _WILD, wild)  # <ExcType>: <msg>, an exception as Python prints it
    words = re.findall(r"[A-Za-z]{2,}", wild.replace(_WILD, " "))
    # Words the code does not say ("404 Not Found: GET" in a message the
    # code formats) are example values only where most of the code's own
    # message is quoted around them.
    # The anchored symbols' own names count as said ("LRUCache is empty" of
    # "%s is empty" % type(self).__name__ in LRUCache.popitem).
    own_names = {seg.lower() for seg in index.name_segments}
    examples = any(w.lower() not in index.code_lower and w.lower() not in own_names for w in words)
    claim = _chars(wild.strip())
    if not claim:
        return False
    literal = max(("".join(p) for p in re.split(_WILD, "".join(claim))), key=len).strip()
    said = sum(ch not in (_WILD, _QUOTED_WILD) for ch in claim)
    for code in index.templates():
        if _WILD not in claim and _WILD not in code:
            continue
        if len(literal) >= 3 and _WILD not in code and literal not in "".join(code):
            continue
        matched = _match_template(claim, code)
        own = sum(ch != _WILD for ch in code)
        # Half of the text the two share must be matched as written: fields
        # that take any run of words ("{a} {b}") match any claim by a space.
        if matched >= max(1, min(own, said) / 2) and not examples:
            return True
        # "Signature age <age> exceeds <max_age> seconds" of f"Signature age {age} > {max_age} seconds": words
        # the code does not say are an example's values only in the code's fields, never where the claim's
        # placeholders stand for the code's own words (`>`)
        if examples and _WILD in code and matched >= max(_EXAMPLE_MESSAGE, 0.8 * own) \
                and _match_template(claim, code, fields_only=True) >= max(_EXAMPLE_MESSAGE, 0.8 * own):
            return True
    return False


#: How many characters of the code's own message a claim must quote, as
#: written, for the words it puts in the message's fields to be examples.
_EXAMPLE_MESSAGE = 12


_FIELD_TEXT = re.compile(r"[\w .,\-/]")


def _match_template(claim: Sequence[str], code: Sequence[str], *, fields_only: bool = False) -> int:
    """How many characters, at best, ``claim`` matches as written in a
    stretch of ``code`` (-1: it matches none): a placeholder of the claim stands for any
    non-empty text of the code (a quoted one, ``'<sub>'``, only for text a field
    of the code holds: quotes and all), a field of the code for a non-empty run of
    the claim's words (letters, digits, spaces, ``.,-/``: never the quotes,
    brackets or colons that give a message its shape), or for nothing when
    it is glued to a word (``name{ending}``: a plural ending, maybe none).
    With ``fields_only``, a placeholder of the claim stands only for the
    code's fields and the spaces and punctuation around them, never for its
    letters, digits or operators."""
    n, m = len(claim), len(code)
    nxt = [0] * (m + 1)  # the best literal count for claim[i + 1:] from code[j], -1 when impossible
    for i in range(n - 1, -1, -1):
        cur = [-1] * (m + 1)
        c = claim[i]
        for j in range(m - 1, -1, -1):
            d = code[j]
            if c == _WILD and fields_only and d != _WILD and (d.isalnum() or d in "<>=!+*/%&|^~"):
                best = -1
            elif c == _WILD:
                best = max(cur[j + 1], nxt[j + 1])
            elif c == _QUOTED_WILD and d in "'\"" and list(code[j + 1: j + 3]) == [_WILD, d]:
                best = nxt[j + 3] + 2 if nxt[j + 3] >= 0 else -1  # '<sub>' for the code's '${name}'
            elif d == _WILD and (c == _QUOTED_WILD or _FIELD_TEXT.fullmatch(c)):  # the field takes it, maybe more
                best = max(nxt[j], nxt[j + 1])
                if j > 0 and code[j - 1].isalnum():
                    best = max(best, cur[j + 1])  # name{ending}: a field glued to a word may be empty
            elif d == _WILD and j > 0 and code[j - 1].isalnum():
                best = cur[j + 1]
            elif c == d and nxt[j + 1] >= 0:
                best = nxt[j + 1] + 1
            else:
                best = -1
            cur[j] = best
        nxt = cur
    return max(nxt[:m], default=-1)


def _bound_value(value: str, ctx: _Context) -> bool:
    """Whether a value (a literal, as written) is one the code writes."""
    value = value.strip()
    content = _literal(value)
    if content is not None:
        return ctx.index.has_string(content) or (bool(content.strip()) and (
            ctx.index.has_sequence(content, code=True) or ctx.index.accepts(content)))
    number = number_value(value)
    if number is not None:
        return number in ctx.index.numbers
    return ctx.index.has_sequence(value, code=True)


def _enumerated(name: str, body: str) -> bool:
    """Whether the code compares parameter ``name`` with literal values (so a
    value passed for it must be one of them): two values at least, a
    ``switch``/``match`` on it or a test of membership. One comparison is a
    special case, not a list (``if (header === '*')``: any other header goes
    on); a bound (``size <= 0``) or a test for the empty string (``method ==
    ""``) is no such comparison, and a parameter without a name is compared
    with none."""
    if not name:
        return False
    n = re.escape(name)
    literal = r"(?:[\"'`](?![\"'`])[^\"'`\n]*[\"'`]|-?\d[\w.]*|true\b|false\b|null\b|None\b|True\b|False\b)"
    values = {m.group("v") for p in (
        rf"(?<![\w$.])(?<!typeof\s){n}\s*(?:===?|!==?)\s*(?P<v>{literal})",  # typeof x === 'function': a type
        rf"(?P<v>[\"'`][^\"'`\n]+[\"'`]|\d[\w.]*)\s*(?:===?|!==?)\s*{n}(?![\w$])") for m in re.finditer(p, body)}
    return len(values) > 1 or any(re.search(p, body) for p in (
        rf"\bswitch\s*\(\s*{n}\s*\)", rf"\bmatch\s+{n}\s*:",
        rf"(?<![\w$.]){n}\s+(?:not\s+)?in\s*[\(\[\{{]"))


def _boolish(param: _Param | None) -> bool:
    """Whether a boolean may be passed for ``param`` (any may, unless its annotation says otherwise)."""
    if param is None or not param.annotation:
        return True
    return bool(re.search(r"\b(?:bool|Any|object)\b", param.annotation)) or param.default.lower() in _BOOL


#: A function written inline: ``x => x.ok``, ``(a, b) => ({...})``, ``lambda r: r.ok``.
_FUNCTION_LITERAL = re.compile(
    r"(?:(?P<js>[A-Za-z_$][\w$]*|\([^()]*\))\s*=>|lambda\b(?P<py>[^:]*):)\s*(?P<body>.+)", re.S)


def _fits(arg: str, param: _Param | None, definition: _Definition | None, ctx: _Context) -> bool:
    """Whether an example argument fits the parameter it lands on."""
    arg = arg.strip()
    body = definition.body if definition else ""
    if _placeholder(arg) or arg.lower() in _NULL:
        return True
    if arg.lower() in _BOOL:
        return _boolish(param)
    borrowed = re.fullmatch(r"&\s*(?:mut\s+)?([a-z_][a-z0-9_]*)", arg)
    if borrowed and "rust" in ctx.index.languages:  # fill_inplace(&mut s, width): a borrow of the reader's own variable
        return param is not None and param.annotation.lstrip().startswith("&")
    if _literal(arg) is not None or number_value(arg) is not None:
        if _bound_value(arg, ctx):
            return True
        return definition is not None and not (param and param.name and _enumerated(param.name, body))
    if re.fullmatch(r"[A-Za-z_$][\w$]*", arg):
        # A word of the code, or a variable of the example (``create(opts)``):
        # a lower-case name the writer chose, for a parameter the definition
        # names; a constant or a class is no variable.
        return (ctx.index.has_word(arg) or bool(re.search(rf"(?<![\w$]){re.escape(arg)}(?![\w$])", body))
                or (definition is not None and param is not None
                    and re.fullmatch(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*", arg) is not None))
    function = _FUNCTION_LITERAL.fullmatch(arg)
    if function:  # parent => ({...}), lambda r: r.ok: its own parameters and the code's words
        own = set(re.findall(r"[A-Za-z_$][\w$]*", function.group("js") or function.group("py") or ""))
        rest = function.group("body").strip()
        while rest[:1] + rest[-1:] == "()" and balanced(rest, 0, limit=None) == len(rest):
            rest = rest[1:-1].strip()
        return definition is not None and (_placeholder(rest) or all(
            w in own or ctx.index.has_word(w) or w.lower() in _BOOL | _NULL
            for w in re.findall(r"[A-Za-z_$][\w$]*", re.sub(r"\.\.\.|…", " ", rest))))
    if arg[:1] == "{" and arg[-1:] == "}":
        for item in split_args(arg[1:-1]):
            key, sep, value = item.partition(":")
            key = key.strip().strip("\"'")
            if not sep and not re.fullmatch(r"[A-Za-z_$][\w$]*", key):
                return False  # { compose }: the shorthand names the key and the example's variable
            if not (ctx.index.has_word(key) or re.search(rf"(?<![\w$]){re.escape(key)}(?![\w$])", body)
                    or (definition is not None and key.lower() in _EXAMPLE_NAMES)):
                return False
            if sep and not _fits(value, None, definition, ctx):
                return False
        return True
    if arg[:1] == "[" and arg[-1:] == "]":
        return all(_fits(item, None, definition, ctx) for item in split_args(arg[1:-1]))
    dotted = re.fullmatch(r"([A-Za-z_$][\w$]*)((?:\.[A-Za-z_$][\w$]*)+)", arg)
    if dotted and definition is not None and all(ctx.index.has_word(w) for w in dotted.group(2)[1:].split(".")) \
            and (dotted.group(1).lower() in ctx.index.modules or ctx.exists(Term(dotted.group(1), TermKind.PROPER))):
        return True  # sleep=trio.sleep: a library's function of the code's name, from a library the project names
    return all(ctx.index.has_word(w) or w.lower() in _BOOL | _NULL for w in re.findall(r"[A-Za-z_$][\w$]*", arg))


#: The names examples give their own keys and values (``{ a: 'x', b: undefined }``, ``foo=bar``).
_EXAMPLE_NAMES = frozenset({"foo", "bar", "baz", "qux", "quux", "a", "b", "c", "d", "x", "y", "z", "k", "v"})

_KW_ARG = re.compile(r"([A-Za-z_]\w*)\s*=(?![=>])\s*(.+)", re.S)


def _example_fits(args: Sequence[str], definition: _Definition, ctx: _Context) -> bool:
    """Whether a call with ``args`` fits ``definition``: an example of its use
    (in Go and Rust, which have no default arguments, one for every parameter)."""
    positional = definition.positional()
    if ctx.index.languages and ctx.index.languages <= {"go", "rust"} and not definition.variadic \
            and len(args) < len(positional) and not any(_ELLIPSIS.fullmatch(a.strip()) for a in args):
        return False
    i = 0
    for arg in args:
        kw = _KW_ARG.fullmatch(arg)
        if kw and _literal(arg) is None:
            param = definition.param(kw.group(1))
            if param is None and not (definition.keywords and (definition.keys is None or kw.group(1) in definition.keys)):
                return False
            if not _fits(kw.group(2), param, definition, ctx):
                return False
            continue
        if _ELLIPSIS.fullmatch(arg.strip()):
            continue
        param = positional[i] if i < len(positional) else None
        i += 1
        if param is None and not definition.variadic:
            return False
        if not _fits(arg, param, definition, ctx):
            return False
    return True


#: A platform's name for an HTTP status: Go's ``http.StatusNotFound``, Python's ``HTTPStatus.NOT_FOUND``.
_STATUS_CONSTANT = re.compile(r"(?<![\w.])(?:http\.Status|HTTPStatus\.)(\w+)")


def _status_number(m: re.Match[str]) -> str:
    value = _STATUS_BY_NAME.get(m.group(1).replace("_", "").lower())
    return str(int(value)) if value is not None else m.group(0)


def _separator(content: str) -> bool:
    """Whether a string is a separator (``", "``, ``","``, ``"|"``): no letter or digit, compared as written."""
    return bool(content) and not re.search(r"[^\W_]", content)


def _textless(content: str) -> bool:
    """Whether a string is a separator or holds no text at all (``""``, ``" "``): compared as written."""
    return _separator(content) or not content.strip()


def _as_written(content: str) -> str:
    """``content`` as a textless string is compared: each run of spaces as one space, since the code's
    lines are read with their runs collapsed (``Indent("", "  ")`` is ``Indent("", " ")``)."""
    return re.sub(r"\s+", " ", content)


#: An argument written as a call with its own arguments elided: ``humanize_error(...)``.
_ELIDED_CALL = re.compile(r"([A-Za-z_$][\w$.]*)\(\s*(?:\.\.\.|\u2026)\s*\)")


def _call_matches(args: Sequence[str], call: str) -> bool:
    """Whether each written argument occurs inside the code's call ``call``.

    A string argument binds by its words: a claim quotes a message without
    its f-prefix, concatenation or the rest of the text; a placeholder binds
    to anything.
    """
    call = _STATUS_CONSTANT.sub(_status_number, call)  # http.StatusMethodNotAllowed is 405, as claims write it
    call_tokens = _numbers_by_value(code_tokens(call))
    bare = _drop_receivers(call_tokens)
    if _misplaced_number(args, call):
        return False  # time.Unix(0, 0) against time.Unix(0, item.Expiration)
    written = split_args(call[call.index("(") + 1: -1]) if "(" in call else []
    for k, arg in enumerate(args):
        if _placeholder(arg):
            continue
        elided = _ELIDED_CALL.fullmatch(arg)
        if elided and _contains(call_tokens, code_tokens(elided.group(1) + "(")):
            continue  # Error(humanize_error(...)) for Error(humanize_error(data, e, n)): the inner call, any arguments
        kw = _KW_ARG.fullmatch(arg)
        if kw and _literal(arg) is None and _placeholder(kw.group(2)):
            arg = kw.group(1) + "="  # max_redirects=...: the keyword is passed, any value
        content = _literal(arg)
        if content is not None and _textless(content):
            # strings.Join(allowed, ",") for strings.Join(allowed, ", "): a separator is its every character, and
            # "" or " " is no text at all
            wanted = _as_written(content)
            if len(written) == len(args) and (theirs := _literal(written[k])) is not None:  # Indent("", "  ")
                if wanted == _as_written(theirs):
                    continue
                return False
            if wanted in {_as_written(_string_content(m.group(0))) for m in _STRING_TOKEN.finditer(call)}:
                continue
            return False
        if content is not None and (_PLACEHOLDER.search(content) or _ELLIPSIS.search(content)):
            # '<ClassName> is empty' of "%s is empty" % type(self).__name__: the words around the placeholder
            # (or an ellipsis: `... value=...` for `value=${JSON.stringify(str)}`)
            pieces = [p for p in re.split(f"{_PLACEHOLDER.pattern}|{_ELLIPSIS.pattern}", content) if p.strip()]
            if pieces and all(_contains(call_tokens, _numbers_by_value(code_tokens(p))) for p in pieces):
                continue
        if content is not None and _FIELD.search(content) and _FIELD.search(call):
            # "... at index {i}, ..." for f"... at index {row_index}, ...": a formatted message, its fields
            # named by the claim's own words
            pieces = [p for p in _FIELD.split(content) if p.strip()]
            if pieces and all(_contains(call_tokens, _numbers_by_value(code_tokens(p))) for p in pieces):
                continue
        if content is not None and " ".join(content.split()) in {" ".join(c.split()) for c, _, joined
                                                                 in _joined_strings(call) if joined}:
            continue  # "a" " b": the literals the call joins, quoted as one message
        wanted = _numbers_by_value(code_tokens(content if content is not None else arg))
        if not _contains(call_tokens, wanted) and (content is not None or not _contains(bare, wanted)):
            # context=ssl_context for context=self.ssl_context: the receiver left out, as people do
            expanded = _shorthand_expanded(arg) if content is None else None
            if expanded is None or not _contains(call_tokens, _numbers_by_value(code_tokens(expanded))):
                return False
    return True


def _shorthand_expanded(arg: str) -> str | None:
    """``arg`` with its object literals' shorthand properties written out (``[{ name: name, maxCount: 1 }]``
    for ``[{ name, maxCount: 1 }]``: one object in JavaScript), or None when it has none."""
    def expand(m: re.Match[str]) -> str:
        items = [item.strip() for item in split_args(m.group(1))]
        return "{ " + ", ".join(f"{k}: {k}" if re.fullmatch(r"[A-Za-z_$][\w$]*", k) else k for k in items) + " }"

    expanded = re.sub(r"\{([^{}]*)\}", expand, arg)
    return expanded if code_tokens(expanded) != code_tokens(arg) else None


def _rival_string(text: str, index: _Index) -> str:
    """A string the code writes in the shape of the dotted ``text`` (as many parts, one at least the
    same, another different: ``'connect.sid'`` for ``express.sid``), or ''. Such a term is a value,
    and the code's is another; the parts being words of the code says nothing."""
    parts = text.lower().split(".")
    if len(parts) < 2 or not all(re.fullmatch(r"[a-z][a-z0-9_-]*", p) for p in parts):
        return ""
    for written in index.strings():
        theirs = written.lower().split(".")
        if len(theirs) == len(parts) and theirs != parts and any(a == b for a, b in zip(parts, theirs, strict=True)) \
                and all(re.fullmatch(r"[a-z][a-z0-9_-]*", p) for p in theirs):
            return written
    return ""


def _as_signature(args: Sequence[str], definition: _Definition) -> bool:
    """Whether the claim's call ``args`` write out ``definition``'s signature: one argument per
    parameter, each positional one the parameter's name or a part of it (``path`` for
    ``dotenv_path``), each keyword one a parameter with a default, one keyword at least. Trailing
    parameters with defaults may be left out (``repr_len=REPR_LEN`` after the one the claim is about)
    when a positional one is written."""
    params = definition.params
    if not args or len(args) > len(params) or definition.variadic or definition.keywords \
            or any(not p.default for p in params[len(args):]):
        return False
    if len(args) < len(params) and all(_KW_ARG.fullmatch(a.strip()) for a in args):
        return False  # TimeStamper(fmt="%Y", utc=False): keywords only, and not all of them, is a use
    params = params[:len(args)]
    keywords = 0
    for arg, param in zip(args, params, strict=True):
        kw = _KW_ARG.fullmatch(arg.strip())
        if kw:
            if kw.group(1) != param.name or not param.default:
                return False
            keywords += 1
        elif not (re.fullmatch(r"[a-z_]\w*", arg.strip()) and (arg.strip() == param.name
                                                              or arg.strip() in _parts(param.name))):
            return False
    return keywords > 0


def _permuted(args: Sequence[str], definition: _Definition) -> bool:
    """Whether the claim's call ``args`` are ``definition``'s parameter names, each once, in
    another order: the signature written out and misremembered."""
    names = [p.name for p in definition.params]
    said = [a.strip() for a in args]
    return len(said) >= 2 and len(set(names)) == len(names) and said != names and sorted(said) == sorted(names) \
        and all(re.fullmatch(r"[A-Za-z_]\w*", a) for a in said)


def _signature_defaults(args: Sequence[str], definition: _Definition) -> bool:
    """Whether each keyword argument of a signature the claim writes out gives the definition's
    own default (the same literal; a placeholder or a name is the reader's)."""
    for arg in args:
        kw = _KW_ARG.fullmatch(arg.strip())
        param = definition.param(kw.group(1)) if kw else None
        if kw is None or param is None:
            continue
        said_number, have_number = number_value(kw.group(2).strip()), number_value(param.default.strip())
        if said_number is not None and have_number is not None:
            if said_number != have_number:
                return False
            continue
        said, have = _literal(kw.group(2)), _literal(param.default)
        said_value = said if said is not None else kw.group(2).strip()
        have_value = have if have is not None else param.default.strip()
        if _placeholder(kw.group(2)) or not (said is not None or said_value in _LITERAL_WORDS):
            continue
        if not (have is not None or have_value in _LITERAL_WORDS):
            continue  # a default computed by the code (a name, a call): not the claim's to compare
        if said_value.lower() != have_value.lower() or (said is None) != (have is None):
            return False
    return True


#: Literal words a default can be: Python's, JavaScript's, Go's and Rust's.
_LITERAL_WORDS = frozenset({"None", "True", "False", "null", "undefined", "true", "false", "nil"})


def _renamed(args: Sequence[str], call: str, ctx: _Context) -> bool:
    """Whether the claim's ``args`` are the code's ``call``'s, token by token, except that names neither
    the anchored code nor the repository uses (no callee, no member) stand, each always for the same
    one, for the code's names
    (``strconv.FormatFloat(x, 'f', 6, 64)`` for ``strconv.FormatFloat(num, 'f', 6, 64)``,
    ``next(reversed(x))`` for ``next(reversed(iterable))``): the claim's own names for the code's."""
    said, have = _ARG_TOKEN.findall(", ".join(a.strip() for a in args)), _ARG_TOKEN.findall(_between_parens(call))
    if not said or len(said) != len(have):
        return False
    words = ctx.index.code_words()
    renamed: dict[str, str] = {}
    for at, (a, b) in enumerate(zip(said, have, strict=True)):
        if a == b or (number_value(a) is not None and number_value(a) == number_value(b)):
            continue
        if said[at + 1: at + 2] == ["("] or said[at - 1: at] == ["."]:
            return False  # a callee or a member is the code's own name, never the claim's
        if a in _LITERAL_WORDS or b in _LITERAL_WORDS or keyword.iskeyword(a):
            return False  # `{ combine: false }` for `{ combine: true }`: a literal is the code's, never renamed
        if not (re.fullmatch(r"[a-z_]\w*", a) and re.fullmatch(r"[A-Za-z_]\w*", b) and a not in words
                and renamed.setdefault(a, b) == b and not ctx.exists(Term(a, TermKind.IDENTIFIER))):
            return False
    return bool(renamed)


def _stood_for(said: Sequence[str], have: Sequence[str]) -> bool:
    """Whether the claim's arguments ``said`` are the code's ``have`` one by one, in order, as people
    shorten them: the same tokens with the receivers left out and names in any case (``path+"/"`` for
    ``r.URL.Path+"/"``, ``maxAge`` for ``cookie.maxAge``), a name for a call of that name
    (``handle`` for ``windows.Handle(f.Fd())``), a call of the same callee whose arguments are so in
    turn, and one ellipsis for any run of them (``http.Redirect(..., path+"/", http.StatusFound)``).
    Literals are compared as written; at least one argument is no ellipsis."""
    said = [a.strip() for a in said]
    if not said or all(_ELLIPSIS.fullmatch(a) for a in said):
        return False
    gaps = [i for i, a in enumerate(said) if _ELLIPSIS.fullmatch(a)]
    if len(gaps) > 1:
        return False
    if gaps:
        head, tail = said[:gaps[0]], said[gaps[0] + 1:]
        if len(head) + len(tail) >= len(have) + 1:
            return False
        pairs = list(zip(head, have[:len(head)], strict=True)) + list(
            zip(tail, have[len(have) - len(tail):], strict=True))
    elif len(said) == len(have):
        pairs = list(zip(said, have, strict=True))
    else:
        return False
    return all(_argument_stands_for(a, b.strip()) for a, b in pairs)


#: A call, its callee maybe qualified (``windows.Handle(f.fh.Fd())``, ``Math::min(a, b)``): the callee's last
#: name and the arguments' text.
_QUALIFIED_CALL = re.compile(r"(?:[A-Za-z_$][\w$]*\s*(?:\.|::)\s*)*([A-Za-z_$][\w$]*)\s*\((.*)\)", re.S)


def _argument_stands_for(said: str, have: str) -> bool:
    """One argument of :func:`_stood_for`."""
    if said == have:
        return True
    if _literal(said) is not None or number_value(said) is not None or said in _LITERAL_WORDS:
        return False  # a value is the code's as written (an equal one matched above)
    mine, theirs = code_tokens(said), _last_names(code_tokens(have))
    if [t.lower() for t in mine] == [t.lower() for t in theirs] and any(_WORD.fullmatch(t) for t in mine):
        return True
    callee = _QUALIFIED_CALL.fullmatch(have)
    if callee and re.fullmatch(r"[A-Za-z_$][\w$]*", said):
        return fold(said) == fold(callee.group(1))  # handle for windows.Handle(f.fh.Fd())
    inner = _QUALIFIED_CALL.fullmatch(said)
    return bool(callee and inner and inner.group(1) == callee.group(1)
                and _stood_for(split_args(inner.group(2)), split_args(callee.group(2))))


#: A token of a call's arguments: a name, a number, a string literal, or one other character.
_ARG_TOKEN = re.compile(r"""[A-Za-z_$][\w$]*|\d[\w.]*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\S""")


def _rust_signature(text: str, index: _Index) -> bool:
    """Whether ``text`` writes the signature of an anchored Rust ``fn`` by its types (``OnceBox::set(Box<T>)
    -> Result<(), Box<T>>``, or with its parameters' names): the same parameter types in order, ``self``
    left out, and the same return type, spaces aside."""
    said = re.fullmatch(r"(?:[\w]+::)*(\w+)\s*(?:<[^()]*>)?\s*\((.*)\)\s*->\s*(.+?)\s*;?", text.strip(), re.S)
    if said is None:
        return False

    def flat(part: str) -> str:  # spaces and the leading segments of paths aside (io::Write for std::io::Write)
        return re.sub(r"\b[A-Za-z_]\w*::(?=[A-Za-z_])", "", re.sub(r"\s+", "", part))

    def types(params: str) -> list[str]:
        out = []
        for p in split_args(params):
            p = p.strip()
            if not p or re.fullmatch(r"&?(?:'\w+\s+)?(?:mut\s+)?self(?:\s*:.*)?", p):
                continue
            out.append(flat(p.split(":", 1)[1]) if re.match(r"(?:mut\s+)?\w+\s*:(?!:)", p) else flat(p))
        return out

    wanted, ret = types(said.group(2)), flat(said.group(3))
    # `guard_on_unwind(v, f) -> ...`: parameters named by the reader, no types written, stand for any
    named_only = all(re.fullmatch(r"[a-z_]\w*", p.strip()) for p in split_args(said.group(2)) if p.strip())
    head = re.compile(rf"\bfn\s+{re.escape(said.group(1))}\s*(?:<[^(){{}}]*>)?\s*\(")
    for _, code in index.code_texts:
        for m in head.finditer(code):
            end = balanced(code, m.end() - 1)
            if end < 0:
                continue
            own = re.match(r"\s*->\s*([^{;]+?)\s*(?:\bwhere\b|\{|;)", code[end:])
            if own is None or flat(own.group(1)) != ret:
                continue
            have = types(code[m.end():end - 1])
            if have == wanted or (named_only and len(have) == len(wanted)):
                return True
    return False


def _formatter_verbs(text: str, index: _Index) -> bool:
    """Whether ``text`` is made of fmt verbs (``%s``, ``%+v``, ``%s:%d``) a Go ``Format(s fmt.State, verb
    rune)`` of the anchored code handles: each verb a ``case 'x'`` (or ``verb == 'x'``), each flag one
    it asks ``s.Flag('+')`` about, and the text between them a string the method writes."""
    verbs = list(re.finditer(r"%([+#\- 0]*)([a-zA-Z])", text))
    if not verbs:
        return False
    rest = [p for p in re.split(r"%[+#\- 0]*[a-zA-Z]", text) if p]
    for _, code in index.code_texts:
        if not re.search(r"\bFormat\s*\(\s*\w+\s+fmt\.State\s*,\s*\w+\s+rune\s*\)", code):
            continue
        cases = set(re.findall(r"(?:\bcase\s+|==\s*)((?:'[a-zA-Z]'\s*,?\s*)+)", code))
        handled = {c for group in cases for c in re.findall(r"'([a-zA-Z])'", group)}
        flags = set(re.findall(r"\.Flag\(\s*'(.)'\s*\)", code))
        strings = {_unescape(_string_content(m.group(0))) for m in _STRING_TOKEN.finditer(code)}
        if all(m.group(2) in handled and set(m.group(1)) <= flags for m in verbs) and all(p in strings for p in rest):
            return True
    return False


def _returned_tuple(items: str, index: _Index) -> bool:
    """Whether the code returns (or yields) the tuple ``items`` without its parentheses, item by item:
    the same literal, or a name the claim shortens to one of its parts (``key`` for ``key_to_unset``)."""
    said = [a.strip() for a in items.split(",")]
    for _, code in index.code_texts:
        for m in re.finditer(r"\b(?:return|yield)\s+([^\n#]+)", code):
            have = [b.strip() for b in split_args(m.group(1).strip().strip("()"))]
            if len(have) == len(said) and all(a == b or (re.fullmatch(r"[a-z_]\w*", a) and re.fullmatch(r"\w+", b)
                                                         and a in _parts(b) and len(a) >= 3)
                                              for a, b in zip(said, have, strict=True)):
                return True
    return False


def _fewer_positional(args: Sequence[str], call: str) -> bool:
    """Whether the claim's call passes fewer positional arguments than the code's ``call``, none of
    them a placeholder or an ellipsis: "calls find_dotenv(dotenv_path, True)" for the code's
    ``find_dotenv(dotenv_path, True, True)`` leaves the third at its default, which the code does not.
    An options object the code passes last (``createError(415, 'unsupported', { encoding })``) is
    JavaScript's keywords, left out as keywords are."""
    if any(_placeholder(a) or _ELLIPSIS.search(a) for a in args):
        return False
    inner = _arguments(call)
    while len(inner) > len(args) and inner[-1].strip().startswith("{"):
        inner.pop()

    def positional(items: Sequence[str]) -> int:
        return sum(1 for a in items if a.strip() and not _KW_ARG.fullmatch(a.strip()) and not a.strip().startswith("*"))

    return positional(args) < positional(inner) and not any(a.strip().startswith("*") for a in inner)


def _between_parens(call: str) -> str:
    """The text between a call's first ``(`` and its last ``)``; empty when it has neither."""
    return call[call.index("(") + 1: call.rindex(")")] if "(" in call and ")" in call else ""


def _arguments(call: str) -> list[str]:
    """A call's top-level arguments (:func:`split_args` of :func:`_between_parens`)."""
    return split_args(_between_parens(call))


def _misplaced_number(args: Sequence[str], call: str) -> bool:
    """Whether a number of ``args`` stands in another argument's place than
    in the code's ``call`` with as many arguments (``time.Unix(0, 0)``
    against ``time.Unix(0, item.Expiration)``: the second ``0`` is not the code's)."""
    inner = _arguments(call)
    if len(inner) != len(args) or len(args) < 2:
        return False
    given = [number_value(a.strip()) for a in args]
    have = [number_value(b.strip()) for b in inner]
    return any(g is not None and g != h and g in have for g, h in zip(given, have, strict=True))


def _unlike_own_call(args: Sequence[str], calls: Sequence[str]) -> bool:
    """Whether the example's call with ``args`` is one of the code's own
    ``calls`` written otherwise: some call has as many arguments, and each
    such call has an argument the example gives differently. An argument
    is given alike when it is written the same (but for a receiver or a
    package one side leaves out: ``cache.DefaultExpiration``), when the example
    puts a placeholder or a variable of its own in its place (``s`` for
    ``str``), or a value where the code passes a variable; it is given
    otherwise when the two are other constants (``3`` and ``5``) or other
    expressions (``fmt.Sprintln(a...)`` for ``sprintln(a...)``)."""
    def constant(arg: str) -> str | None:
        literal = _literal(arg)
        if literal is not None:
            return "s:" + literal
        value = number_value(arg)
        if value is not None:
            return f"n:{value}"
        return "b:" + arg.lower() if arg.lower() in _BOOL | _NULL else None

    def alike(given: str, code: str) -> bool:
        given, code = given.strip(), code.strip()
        mine, theirs = code_tokens(given), code_tokens(code)
        if mine == theirs or _placeholder(given) or _ELLIPSIS.fullmatch(given) \
                or re.fullmatch(r"[a-z_$][\w$]*", given) or _drop_receivers(mine) == theirs \
                or mine == _drop_receivers(theirs):
            return True
        if constant(given) is not None:
            return constant(code) is None or constant(code) == constant(given)
        return False

    same = [inner for call in calls if "(" in call and ")" in call
            and len(inner := _arguments(call)) == len(args)]
    return bool(same) and all(any(not alike(a, b) for a, b in zip(args, inner, strict=True)) for inner in same)


def _numbers_by_value(tokens: list[str]) -> list[str]:
    """``tokens`` with each number written as its value (``1_000`` and ``1000`` alike)."""
    out = []
    for tok in tokens:
        value = number_value(tok) if tok[:1].isdigit() else None
        out.append(repr(value) if value is not None else tok)
    return out


def _settings(arg: str, ctx: _Context) -> bool:
    """Whether ``arg`` is an object of settings the anchored code reads
    (``{ sortOptions: true }`` where it tests ``this.sortOptions``): each key
    a word of its code, each value a boolean, a number, null, a
    placeholder or a string the code writes, in any case (``'LAX'`` where
    it lower-cases and tests ``'lax'``), an empty string, or a string the
    claim's own example gives elsewhere (``value: 'abc'`` after
    ``parseSetCookie('abc; Secure')``)."""
    arg = arg.strip()
    if arg[:1] + arg[-1:] != "{}" or not arg[1:-1].strip():
        return False
    for item in split_args(arg[1:-1]):
        key, sep, value = item.partition(":")
        key, value = key.strip().strip("\"'"), value.strip()
        if not sep or not re.fullmatch(r"[A-Za-z_$][\w$]*", key) or key not in ctx.index.code:
            return False
        content = _literal(value)
        if not (value.lower() in _BOOL | _NULL or number_value(value) is not None or _placeholder(value)
                or (content is not None and (ctx.index.has_string(content) or content == ""
                                             or ctx.claim.count(content) > 1))):
            return False
    return True


def _as_example(args: Sequence[str], ctx: _Context) -> list[str]:
    """The arguments, those the anchored code already bears out (values it
    writes) replaced by a placeholder, for a look at the callee's definition
    elsewhere."""
    out = []
    for arg in args:
        kw = _KW_ARG.fullmatch(arg)
        value = kw.group(2).strip() if kw and _literal(arg) is None else arg
        if _placeholder(value) or ((_literal(value) is not None or number_value(value) is not None)
                                   and _bound_value(value, ctx)) or _settings(value, ctx):
            value = "<_>"
        out.append(f"{kw.group(1)}={value}" if kw and _literal(arg) is None else value)
    return out


#: A call's argument described in words: two or more lower-case words (``path with forward slashes``).
_PROSE_ARGUMENT = re.compile(r"(?!.*\b(?:for|in|not|is|and|or|if|else|lambda|await|new|typeof|yield|async|as|of|"
                             r"instanceof|void|delete|mut|dyn|impl|ref|move|go|chan|func)\b)[a-z]{2,}(?: [a-z]+)+")


def _bind_call(term: Term, ctx: _Context) -> tuple[bool, str]:
    text = re.sub(r"^(?:new\s+|await\s+|[.@])", "", term.text)
    index = ctx.index
    if RUST_REST.search(text) and "rust" in index.languages \
            and _bind_code(Term(RUST_REST.sub("...", text), TermKind.CODE), ctx)[0]:
        return True, ""  # `Some(..)` of `Some(self.key.get())`: Rust's rest, any arguments
    callee = text[: text.index("(")]
    args = split_args(text[text.index("(") + 1: -1])
    if _protocol_call(callee, args, ctx):
        return True, ""  # str(err) of an anchored ParseError.__str__: the builtin that calls the method
    if not args and _go_error_text(callee, ctx):
        return True, ""  # ErrCorrupt.Error() of `ErrCorrupt = errors.New("...")`: every Go error's method
    scoped = re.fullmatch(r"[a-z][\w-]*", callee) and len(args) == 1 and re.fullmatch(r"[a-z][\w-]*", args[0].strip())
    if scoped and not index.definitions(callee) and index.has_string(callee) and index.has_string(args[0].strip()):
        return True, ""  # `chore(deps)`: a commit's type and scope, as the code tests them: c.type === "chore"
    if any(a.strip() in ("*", "/") for a in args):
        # `resetall(*, return_value=False)`: a Python signature written out; its markers of keyword-only and
        # positional-only parameters pass nothing, so the rest is read as written
        kept = ", ".join(a.strip() for a in args if a.strip() not in ("*", "/"))
        return _bind_call(Term(f"{callee}({kept})", term.kind), ctx)
    if any(_PROSE_ARGUMENT.fullmatch(a.strip()) for a in args):
        # `encodeURI(path with forward slashes)`, `Connection(resolved path, timeout=60)`: an argument
        # described in words is a placeholder
        described = [f"<{a.strip()}>" if _PROSE_ARGUMENT.fullmatch(a.strip()) else a.strip() for a in args]
        return _bind_call(Term(f"{callee}({', '.join(described)})", term.kind), ctx)
    if "." in callee:
        callee_ok, _ = _bind_dotted(Term(callee, TermKind.DOTTED), ctx)
    else:
        callee_ok = index.has_word(callee) or index.has_name(callee)
    calls = index.calls(callee)
    definitions = index.definitions(callee)
    if not definitions and callee[:1].isupper() and "." not in callee \
            and any(n.endswith(".constructor") for n in index.names) \
            and ctx.exists(Term(callee, TermKind.IDENTIFIER)):
        # new Koa(...) for an anchored constructor: the package's own name for its class
        callee_ok = True
        definitions = index.definitions("constructor")
    permuted = next((d for d in definitions if _permuted(args, d)), None)
    if permuted is not None and not calls:
        # NewMatcherWithJunk(a, b, isJunk, autoJunk) for func NewMatcherWithJunk(a, b []string, autoJunk bool,
        # isJunk ...): the signature's own names, in another order
        return False, f"{callee}({', '.join(p.name for p in permuted.params)})"
    signature = next((d for d in definitions if _as_signature(args, d)), None)
    if signature is not None and not _signature_defaults(args, signature) \
            and not (calls and index.has_sequence(text, code=True)):  # a call the code makes as written
        # get_key(path, key, encoding=None) for def get_key(dotenv_path, key_to_get, encoding="utf-8"): the
        # signature written out, its default the claim's point
        return False, f"{callee}({', '.join(p.name + ('=' + p.default if p.default else '') for p in signature.params)})"
    # "pushes `unescape(pattern)`": a call the claim says the code makes binds as the code writes it
    done = _said_done(term.text, ctx, bool(calls) or _a_parameter(callee, index))
    # ", " and "," are one sequence of tokens, whitespace left out; a separator is compared as written
    separator = any((lit := _literal(a)) is not None and _textless(lit) for a in args)
    if callee_ok:
        if (index.has_sequence(text, code=True) and not (separator and calls)) or (
                (not args or all(_placeholder(a) for a in args)) and not (not calls and not definitions and done)):
            return True, ""  # (a call the claim says the code makes, with no arguments: the code must make it)
        if any(_call_matches(args, call) and not (done and _fewer_positional(args, call))
               for call in [*calls, *index.calls(callee, headers=True)]):
            return True, ""
        if any(_renamed(args, call, ctx) for call in calls):
            return True, ""  # FormatFloat(x, 'f', 6, 64) for FormatFloat(num, 'f', 6, 64): the claim's own name for num
        if any(_stood_for(args, _arguments(call)) for call in calls):
            return True, ""  # Math.min(maxAge, LIMIT) for Math.min(cookie.maxAge, LIMIT): the receiver left out
        with_strings = _with_assigned_strings(calls, index)
        if any(_call_matches(args, call) for call in with_strings):
            return True, ""  # ValueError("Invalid format. ...") for msg = ("Invalid format. " ...); ValueError(msg)
        if any(_call_matches(args, call) and not _fewer_positional(args, call)
               for call in _with_assigned_calls(calls, index)):
            return True, ""  # min(quota, logical_cpus()) for let logical = logical_cpus(); min(quota, logical)
        if args and all(_literal(a) is not None for a in args) and _message_of_call(args, [*calls, *with_strings], ctx):
            # HookCallError("... argument 'x'") for HookCallError(f"... argument {e.args[0]!r}"), or for
            # msg = f"... argument {e.args[0]!r}"; HookCallError(msg)
            return True, ""
        if args and not definitions and all(re.fullmatch(r"[a-z][a-z0-9_]*", a.strip()) for a in args) and any(
                len(split_args(call[call.index("(") + 1: -1])) == len(args) for call in calls):
            return True, ""  # str(exc) for str(exception): the example names its own variables
        if callee.rsplit(".", 1)[-1][:1].isupper() and _other_message(args, calls):
            return False, calls[0][:80]  # the code raises it with other words; which words is the claim
        if not done and any(_example_fits(args, d, ctx) for d in definitions):
            return True, ""
        if "go" in index.languages and len(args) == 1 and callee.rsplit(".", 1)[-1][:1].isupper() \
                and _literal(args[0]) is None and index.has_sequence(f"{callee} = {args[0]}", code=True):
            return True, ""  # time.Duration(-1) for `NoExpiration time.Duration = -1`: Go's typed constant
    if not definitions and _instance_call(callee, args, ctx):
        return True, ""
    if callee == "Err" and "rust" in index.languages and len(args) == 1 and (message := _literal(args[0])) \
            and index.has_string(message) and re.search(r"\bErr\(|\.ok_or(?:_else)?\(", "".join(index.code)):
        return True, ""  # Err("malformed pax extension") for `.ok_or_else(|| other("malformed pax extension"))`
    example = _as_example(args, ctx)
    known = all(a == "<_>" or a.endswith("=<_>") for a in example)
    # Neither defined here nor called so: an example of a callee the
    # repository defines, its values all written by the anchored code when
    # the anchored code calls it otherwise.
    if not definitions and (not calls or known) and not done and ctx.exists(Term(f"{callee}({', '.join(example)})",
                                                                                  TermKind.CALL)):
        return True, ""
    if not args and _platform_call(term.text, callee, ctx):
        return True, ""  # the TTY's hasColors(): a method of an object the claim names in prose
    if args and all(_placeholder(a) for a in args) and _generated_call(callee, len(args), ctx):
        return True, ""  # cb(<json>) of callback + '(' + body + ');': a call the code writes as text
    if args and any(_paraphrases(text, call, ctx) for call in calls):
        return True, ""  # min(attempt_number, len(strategies)) for min(max(state.attempt_number, 1), ...)
    if not done and _in_use(term.text, ctx):
        return True, ""  # jwt.encode(payload, key, algorithm=None): the library's names, the reader's values
    if not callee_ok:
        return False, _nearest_word(callee, index.words | index.name_segments)
    shown = calls or [f"{sorted(d.names)[0]}({', '.join(p.name for p in d.params)})" for d in definitions]
    return False, shown[0][:80] if shown else ""


def _other_message(args: Sequence[str], calls: Sequence[str]) -> bool:
    """Whether the claim passes a class (an exception) a message (a quoted string of two words or
    more) first where the anchored code's own calls of the callee all pass
    a message of their own (``BadTimeSignature("Missing timestamp")`` for
    ``raise BadTimeSignature("timestamp missing", payload=result)``): the
    message is the claim's whole content, and the earlier lookups read it
    against those calls; that the signature takes a string says nothing."""
    first = _literal(args[0]) if args else None
    if first is None or len(re.findall(r"[A-Za-z]+", first)) < 2 or not calls:
        return False
    heads = [split_args(call[call.index("(") + 1: -1])[:1] for call in calls]
    if not all(head and re.match(r"""\s*(?:[fbrFBR]{0,2}["'`])""", head[0]) for head in heads):
        return False
    said = " ".join(first.split())
    # "a" " b": a message the code writes as literals side by side is one message
    written = {" ".join(content.split()) for head in heads for content in
               [*(c for c, _, _ in _joined_strings(head[0])),
                *(_unescape(_string_content(m.group(0))) for m in _STRING_TOKEN.finditer(head[0]))]}
    return said not in written


def _message_of_call(args: Sequence[str], calls: Sequence[str], ctx: _Context) -> bool:
    """Whether one call of the callee writes each of the claim's string
    arguments as a template: its format fields holding the example's own
    values (``HookCallError("hook call must provide argument 'x'")`` for
    ``HookCallError(f"hook call must provide argument {e.args[0]!r}")``),
    under the rules of :func:`_template_binds` read on that call alone."""
    language = next((ev.language for ev in ctx.index.texts if ev.language), None)
    for call in calls:
        alone = _Context(_Index([EvidenceText("call", call, (), language)]), ctx.exists, ctx.claim, ctx.examples)
        if all(_template_binds(_literal(a) or "", alone) for a in args):
            return True
    return False


def _with_assigned_strings(calls: Sequence[str], index: _Index) -> list[str]:
    """The calls among ``calls`` that pass a name the code assigns a string
    to, that name replaced by the string (``ValueError(msg)`` ->
    ``ValueError("Invalid format. ...")``): one call for each string the name
    is given (``msg`` is often given one per branch; eight at most), format
    fields kept, so a message read as a template still has them; ``msg.format(v)``
    (Python) is passed the same way."""
    out = []
    for call in calls:
        head, inner = call[:call.index("(") + 1], call[call.index("(") + 1:-1]
        args = split_args(inner)
        # msg.format(version) too: the template the name holds, its fields filled in where it is passed
        texts = [index.assigned_strings(m.group(1))[:8]
                 if (m := re.fullmatch(r"\s*([A-Za-z_$][\w$]*)(?:\.format\(.*\))?\s*", a, re.S)) else []
                 for a in args]
        options: list[list[str | None]] = [[*t] if t else [None] for t in texts]
        for filled in itertools.product(*options) if any(texts) else ():
            out.append(head + ", ".join(a if t is None else repr(t) for a, t in zip(args, filled, strict=True)) + ")")
    return out


_ASSIGNED_CALL = re.compile(r"^\s*(?:(?:let|var|const)\s+)?(?:mut\s+)?(?P<name>[A-Za-z_$][\w$]*)\s*(?::\s*[^=\n]+)?"
                            r"\s*:?=\s*(?P<value>[A-Za-z_$][\w$.:]*\([^;\n]*\))\s*;?\s*$", re.M)


def _assigned_calls(index: _Index) -> dict[str, set[str]]:
    """Per name, the calls whose result the code assigns to it, a statement alone on its line
    (``let logical = logical_cpus();``, ``var accept = accepts(req)``)."""
    values: dict[str, set[str]] = {}
    for _, code in index.code_texts:
        for m in _ASSIGNED_CALL.finditer(code):
            values.setdefault(m.group("name"), set()).add(m.group("value"))
    return values


def _with_assigned_calls(calls: Sequence[str], index: _Index) -> list[str]:
    """The calls among ``calls`` that pass a name the code assigns a call's result to once, that name
    replaced by the call (``min(quota, logical)`` -> ``min(quota, logical_cpus())`` for ``let logical =
    logical_cpus();``): a claim names the value by where it comes from."""
    values = _assigned_calls(index)
    out = []
    for call in calls:
        head, args = call[:call.index("(") + 1], split_args(call[call.index("(") + 1:-1])
        named = [next(iter(values[a.strip()])) if len(values.get(a.strip(), ())) == 1 else None for a in args]
        if any(v is not None for v in named):
            out.append(head + ", ".join(a if v is None else v for a, v in zip(args, named, strict=True)) + ")")
    return out


def _generated_call(callee: str, arity: int, ctx: _Context) -> bool:
    """Whether the code writes a call of ``callee`` as text, one field for
    its one argument (``callback + '(' + body + ');'``, ```${fn}(${arg})```):
    the claim's callee the name the code puts before the parenthesis, or
    short for it (its initial, then letters of it in order: ``cb`` for
    ``callback``)."""
    if arity != 1 or not re.fullmatch(r"[A-Za-z_$][\w$]*", callee):
        return False
    short = callee.lower()
    for _, code in ctx.index.code_texts:
        for m in re.finditer(r"([A-Za-z_$][\w$]*)\s*\+\s*(['\"])\(\2\s*\+\s*[A-Za-z_$][\w$.]*\s*\+\s*(['\"])\)"
                             r"|\$\{([A-Za-z_$][\w$]*)\}\(\$\{[^{}]+\}\)", code):
            name = (m.group(1) or m.group(4)).lower()
            rest = iter(name[1:])
            if name == short or (len(short) >= 2 and name[0] == short[0] and all(ch in rest for ch in short[1:])):
                return True
    return False


#: Binary operators a formula is split at, longest first.
_BINARY = re.compile(r"\*\*|//|<<|>>|[+\-*/%|&^@]")


def _top_level(text: str) -> tuple[list[str], list[str]]:
    """``text`` split at its top-level binary operators: the operands and the
    operators between them (a sign after an operator or at the start is no
    operator)."""
    operands, operators = [], []
    depth, start, i = 0, 0, 0
    blanked = _strings_blanked(text)
    while i < len(blanked):
        ch = blanked[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0:
            m = _BINARY.match(blanked, i)
            before = blanked[:i].rstrip()
            if m and before and (before[-1].isalnum() or before[-1] in "_$)]}\"'"):
                operands.append(text[start:i].strip())
                operators.append(m.group(0))
                i = start = m.end()
                continue
        i += 1
    operands.append(text[start:].strip())
    return operands, operators


def _last_names(tokens: Sequence[str]) -> list[str]:
    """``tokens`` with every receiver of a chain of names left out (``r . URL . Path`` → ``Path``); a
    chain after a ``.`` (a member of what a call gives, ``f() . a . b``) is kept. Unlike
    :func:`_drop_receivers`, which leaves out the first receiver only."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if _WORD.fullmatch(tokens[i]) and (not i or tokens[i - 1] != "."):
            while i + 2 < len(tokens) and tokens[i + 1] == "." and _WORD.fullmatch(tokens[i + 2]):
                i += 2
        out.append(tokens[i])
        i += 1
    return out


def _drop_receivers(tokens: Sequence[str]) -> list[str]:
    """``tokens`` with the receivers of names left out (``self . x`` → ``x``), and a Rust path's
    first segment (``mem :: size_of`` → ``size_of``, ``libc :: cpu_set_t`` → ``cpu_set_t``)."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if not _WORD.fullmatch(tokens[i]) or (i and tokens[i - 1] == ".") or tokens[max(0, i - 2): i] == [":", ":"]:
            pass
        elif i + 2 < len(tokens) and tokens[i + 1] == "." and _WORD.fullmatch(tokens[i + 2]):
            i += 2
            continue
        elif i + 3 < len(tokens) and tokens[i + 1] == tokens[i + 2] == ":" and _WORD.fullmatch(tokens[i + 3]):
            i += 3
            continue
        out.append(tokens[i])
        i += 1
    return out


_CALLED = re.compile(r"([A-Za-z_$][\w$.]*)\s*\((.*)\)", re.S)


def _blank_strings(text: str) -> list[str]:
    """The strings of ``text`` that are separators or hold no text (``" "``, ``", "``, ``""``), as
    :func:`_as_written` gives them: tokens leave whitespace out, so ``join(" ")`` and ``join("")`` give the
    same tokens."""
    return [_as_written(content) for m in _STRING_TOKEN.finditer(text)
            if _textless(content := _string_content(m.group(0)))]


def _paraphrases(claim: str, code: str, ctx: _Context, depth: int = 0) -> bool:
    """Whether ``claim``, a formula, says what ``code`` computes, written the
    way people write a formula: receivers left out (``attempt_number`` for
    ``retry_state.attempt_number``), a clamp around an operand left out
    (``x`` for ``max(x, 1)``: a call whose other arguments are literals), an
    operand in prose words that are parts of its names (``terminal columns``
    for ``shutil.get_terminal_size().columns``), or a name's value the code
    assigns it (``80`` for ``max_width`` where ``max_width = 80``). The
    callees, the operators and the other literals stay as the code has them."""
    claim, code = claim.strip(), code.strip()
    if not claim or not code or depth > 8:
        return False
    said, written = _literal(claim), _literal(code)
    if said is not None and written is not None and (_textless(said) or _textless(written)):
        return _as_written(said) == _as_written(written)  # join(" ") is not join("")
    wanted, tokens = code_tokens(claim), code_tokens(code)
    if (wanted == tokens or wanted == _drop_receivers(tokens)) and _blank_strings(claim) == _blank_strings(code):
        return True
    (c_ops, c_signs), (k_ops, k_signs) = _top_level(claim), _top_level(code)
    if len(c_ops) > 1 or len(k_ops) > 1:
        return c_signs == k_signs and all(_paraphrases(a, b, ctx, depth + 1) for a, b in zip(c_ops, k_ops, strict=True))
    c_call, k_call = _CALLED.fullmatch(claim), _CALLED.fullmatch(code)
    if c_call and balanced(claim, c_call.start(2) - 1, limit=None) != len(claim):
        c_call = None
    if k_call and balanced(code, k_call.start(2) - 1, limit=None) != len(code):
        k_call = None
    platform = c_call.group(1).rsplit(".", 1)[0] if c_call and "." in c_call.group(1) else ""
    if c_call and k_call and (platform in _PLATFORM_OBJECTS or _go_std(platform, ctx.index)) \
            and k_call.group(1) != c_call.group(1):
        return False  # Object.assign(...) is the platform's, not the code's own assign(...) of a package
    if c_call and k_call and c_call.group(1).rsplit(".", 1)[-1] == k_call.group(1).rsplit(".", 1)[-1]:
        c_args, k_args = split_args(c_call.group(2)), split_args(k_call.group(2))
        return len(c_args) == len(k_args) and all(_paraphrases(a, b, ctx, depth + 1)
                                                  for a, b in zip(c_args, k_args, strict=True))
    if k_call:
        k_args = split_args(k_call.group(2))
        for i, arg in enumerate(k_args):
            others = k_args[:i] + k_args[i + 1:]
            if others and all(_literal(o) is not None or number_value(o) is not None for o in others) \
                    and _paraphrases(claim, arg, ctx, depth + 1):
                return True  # a clamp left out: x for max(x, 1)
    if c_call:
        return False
    prose = re.fullmatch(r"[a-z]+(?: [a-z]+)+", claim)
    if prose:
        parts = {p for t in tokens if _WORD.fullmatch(t) for p in _parts(t)}
        names = [t for t in tokens if _WORD.fullmatch(t)]
        return bool(names) and all(w in parts for w in claim.split()) and claim.split()[-1] in _parts(names[-1])
    if number_value(claim) is not None and re.fullmatch(r"[A-Za-z_$][\w$]*", code):
        return any(_writes(text, code, claim) for _, text in ctx.index.code_texts)
    return False


def _platform_call(text: str, callee: str, ctx: _Context) -> bool:
    """Whether ``text``, a call without arguments, is a method of an object
    the claim names in prose ("the TTY's hasColors()", "the stream's
    getWindowSize()"): a name of code only (inner capitals or ``_``) that
    the repository mentions somewhere, as code calls a platform API it does
    not define."""
    return (re.fullmatch(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+", callee) is not None
            and re.search(rf"\b[A-Za-z]+['\u2019]s\s+`?{re.escape(text)}", ctx.claim) is not None
            and ctx.exists(Term(callee, TermKind.PROPER)))


def _instance_call(callee: str, args: Sequence[str], ctx: _Context) -> bool:
    """Whether ``callee(args)`` calls an instance of an anchored class by its
    usual name, the class's name lower-cased (``config('DEBUG', cast=bool)``
    for an anchored ``Config._perform_cast``): the call fits the class's
    ``__call__`` in the repository."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", callee):
        return False
    classes = {q.rsplit(".", 1)[0] for n in ctx.index.names if "::" in n
               for q in [n.split("::", 1)[1]] if "." in q}
    owner = next((c for c in sorted(classes) if c.rsplit(".", 1)[-1].lower() == callee), "")
    return bool(owner) and ctx.exists(Term(f"{owner}.__call__({', '.join(args)})", TermKind.CALL))


def _writes(code: str, name: str, value: str) -> bool:
    """Whether ``code`` writes ``name`` with ``value``: assigns it, defaults it,
    maps it, sets it in a table or the environment, or compares it."""
    n, v = re.escape(name), re.escape(value)
    if _parallel_writes(code, name, value):
        return True
    code = _PARALLEL.sub("", code)  # `t.root, t.length = nil, 0` says `length = nil` only to a pattern
    quote = r"[\"'`]?"
    # an annotation, its brackets maybe holding literals: ``same_site: Literal["lax", "strict"] = "lax"``
    annotation = r"(?:\s*:\s*(?:[\w.|, \]]|\[[^\[\]=\n]*(?:\[[^\[\]=\n]*\][^\[\]=\n]*)*\])*?)?"
    return bool(re.search(
        rf"(?<![\w$]){quote}{n}{quote}\s*[\])]?{annotation}\s*(?:=(?!=)|:|===?|\bis\b)\s*[rbuRBU]?{quote}(?i:{v})"
        rf"{quote}(?![\w$.-]*\w)", code)
        or re.search(rf"[\"'`](?i:{v})[\"'`]\s*===?\s*{n}(?![\w$])", code))


#: One statement that assigns several names at once: ``t.root, t.length = nil, 0``, ``a, b := 1, 2``; spaced
#: around its ``=``, as formatters write one (``json, ensure_ascii=False,`` is a call's arguments going on).
_PARALLEL = re.compile(r"^[ \t]*((?:[A-Za-z_$][\w$.]*[ \t]*,[ \t]*)+[A-Za-z_$][\w$.]*)[ \t]+:?=(?!=)[ \t]+([^\n;]+)", re.M)


def _parallel_statements(code: str) -> Iterator[tuple[list[str], list[str]]]:
    """Each statement of ``code`` that assigns several names at once: its targets' own names
    (``length`` of ``t.length``) and the values it gives, in order."""
    for m in _PARALLEL.finditer(code):
        yield [t.strip().rsplit(".", 1)[-1] for t in m.group(1).split(",")], split_args(m.group(2).strip())


def _parallel_target(code: str, name: str) -> bool:
    """Whether one statement of ``code`` that assigns several names at once assigns ``name``: its
    tokens (``t.length = nil, 0``) then say nothing of which value is ``name``'s."""
    return any(name in targets for targets, _ in _parallel_statements(code))


def _parallel_writes(code: str, name: str, value: str) -> bool:
    """Whether one statement of ``code`` that assigns several names at once gives ``name`` the
    ``value`` in its place: ``root=nil`` of ``t.root, t.length = nil, 0``."""
    return any(len(values) == len(targets) and any(
        target == name and _unquote(given.strip()).lower() == value.lower()
        for target, given in zip(targets, values, strict=True))
        for targets, values in _parallel_statements(code))


#: A Go struct field and the key its tag gives it in an encoding: ``Type string `xml:"type,attr"```.
_TAGGED_FIELD = re.compile(r"^\s*([A-Z]\w*)\s+[^`\n]+`[^`\n]*\b(?:xml|json|yaml|toml)\s*:\s*\"([^\",]+)[^`\n]*`", re.M)


def _tagged_field_writes(name: str, value: str, index: _Index) -> bool:
    """Whether the anchored Go code gives a struct field whose encoding tag names ``name`` (``Version
    string `xml:"version,attr"```) the value ``value`` (``Version: "2.0"``): ``version="2.0"`` is the
    encoded output, written with the tag's key."""
    fields = {m.group(1) for _, code in index.code_texts for m in _TAGGED_FIELD.finditer(code)
              if m.group(2) == name}
    return any(_writes(code, field, value) for field in fields for _, code in index.code_texts)


#: What a claim writes to say an environment variable is set: ``NO_COLOR=1``, ``CI=true``.
_SET_VALUES = frozenset({"1", "true", "yes", "on"})


def _presence_only(name: str, index: _Index) -> bool:
    """Whether the anchored code tests the environment variable ``name`` for being set and never reads its
    value: ``'PYFLAKES_DOCTEST' in os.environ``, ``os.LookupEnv("X")`` with its value dropped,
    ``env::var_os("X").is_some()``, ``"X" in process.env``. Whatever value a claim's ``X=0`` gives is then
    the reader's own: the code tells set from unset only."""
    key = rf"[\"'`]{re.escape(name)}[\"'`]"
    tests = (rf"{key}\s+(?:not\s+)?in\s+(?:os\.)?environ\b", rf"{key}\s+in\s+process\.env\b",
             rf"_\s*,\s*\w+\s*:?=\s*os\.LookupEnv\(\s*{key}\s*\)",
             rf"env::var(?:_os)?\(\s*{key}\s*\)\s*\.\s*is_(?:ok|err|some|none)\(\)")
    reads = (rf"environ(?:\.get)?\s*[\[(]\s*{key}", rf"getenv\(\s*{key}", rf"Getenv\(\s*{key}",
             rf"process\.env\s*(?:\.\s*{re.escape(name)}\b|\[\s*{key})",
             rf"env::var(?:_os)?\(\s*{key}\s*\)(?!\s*\.\s*is_(?:ok|err|some|none)\(\))")
    said = [code for _, code in index.code_texts]
    kept = [m.group(1) for c in said  # `v, ok := os.LookupEnv("X")` keeps the value; `_, ok :=` drops it
            for m in re.finditer(rf"(?<![\w$])(\w+)\s*,\s*\w+\s*:?=\s*os\.LookupEnv\(\s*{key}", c)]
    return any(re.search(t, c) for t in tests for c in said) and all(v == "_" for v in kept) and not any(
        re.search(r, c) for r in reads for c in said)


def _tested_for(code: str, name: str, value: str) -> bool:
    """Whether ``code`` compares the variable ``name`` (``TERM``), or one named
    after it (``nodeENV`` for ``NODE_ENV``), with ``value``, either way: ``env.TERM
    !== "dumb"``, ``nodeENV === "test"``. The claim's ``NAME=value`` says the
    variable is told apart by that value; which way the code takes it is the
    rest of the claim."""
    folded = fold(name)
    v = rf"[\"'`](?i:{re.escape(value)})[\"'`]"
    for n in {name} | {w for w in re.findall(r"[A-Za-z_$][\w$]*", code) if fold(w) == folded}:
        n = re.escape(n)
        if re.search(rf"(?<![\w$]){n}\s*[!=]==?\s*{v}|{v}\s*[!=]==?\s*{n}(?![\w$])", code):
            return True
    return False


def _branches_on(code: str, name: str) -> bool:
    """Whether the code takes a decision on ``name`` (``if name``, ``if not
    name``, ``name && ...``, ``... and name``, ``x if name else y``), or on the
    instance's own setting of that name (``a if self.roaming else b``,
    ``this.strict &&``, ``if self._enqueue:``)."""
    n = rf"(?:(?:self|this)\.(?:_|#)?)?{re.escape(name)}"
    if name[:1].isupper():  # Go's exported field on its receiver: if !nu.Valid
        n = rf"(?:[a-z]\w*\.)?{re.escape(name)}"
    return any(re.search(p, code) for p in (
        rf"\b(?:if|elif|while|unless)\b\s*\(?\s*(?:not\s+|!\s*)?{n}(?![\w$(\[.])",
        rf"(?<![\w$.]){n}\s*(?:&&|\|\||\?(?![.?]))", rf"(?:&&|\|\||!)\s*{n}(?![\w$(.\[])",
        rf"\b(?:and|or|not)\s+{n}(?![\w$(.\[])", rf"(?<![\w$.]){n}\s+(?:and|or)\b",
        rf"\bif\s+(?:not\s+)?{n}\s+else\b"))


#: A package.json script run by its name: ``npm test``, ``npm run test-ci``, ``pnpm build``, ``yarn lint``.
_SCRIPT_RUN = re.compile(r"(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([A-Za-z][\w:.-]*)")


def _script_run(text: str, index: _Index) -> bool:
    """Whether ``text`` runs a script an anchored ``package.json`` defines (``"test-ci": ...`` under
    ``"scripts"``); ``npm install`` and the other commands of npm itself name no script."""
    m = _SCRIPT_RUN.fullmatch(text.strip())
    if m is None or m.group(1) in ("install", "i", "add", "ci", "publish", "exec", "init", "link"):
        return False
    for ev in index.texts:
        doc = package_json(ev.text) if ev.label.rsplit("/", 1)[-1] == "package.json" else None
        scripts = doc.get("scripts") if doc else None
        if isinstance(scripts, dict) and m.group(1) in scripts:
            return True
    return False


def _debug_namespace(text: str, index: _Index) -> bool:
    """Whether ``text`` turns on the debug namespace the code creates: ``DEBUG=send node app``,
    ``DEBUG=router*`` for ``require('debug')('send')``, ``require('debug')('router:layer')``."""
    m = re.fullmatch(r"DEBUG=([\w:.*-]+)(?:\s+[\w./-]+)*", text.strip())
    return m is not None and any(
        re.search(rf"""\bdebug["']?\)?\s*\(\s*["']{re.escape(m.group(1).rstrip(":*"))}[:"']""", code)
        for _, code in index.code_texts)


def _bind_keyword(term: Term, ctx: _Context) -> tuple[bool, str]:
    text = term.text
    index = ctx.index
    name, _, raw = text.partition("=")
    value = _unquote(raw)
    if (index.has_sequence(text, code=True) and not any(_parallel_target(code, name) for _, code in index.code_texts)) \
            or _debug_namespace(text, index):
        return True, ""  # DEBUG=finalhandler: the debug namespace the code creates, written bare
    number = number_value(value) if _literal(raw) is None else None
    glued = _GLUED_UNIT.fullmatch(value) if _literal(raw) is None else None
    numbers = {number} if number is not None else set()
    if glued:  # heartbeat_interval=30s for `heartbeat_interval: float = 30.0` (or 30000 ms)
        digits = glued.group(1)
        numbers = {float(digits), *in_other_units(float(digits), digits, value)}
    if numbers and index.constants.get(name) in numbers:
        return True, ""  # FgRed=31 of `FgBlack Attribute = iota + 30` and `FgRed` below it: what the code computes
    for _, code in index.code_texts:
        if _writes(code, name, value):
            return True, ""
        if numbers and any(  # limit=1_000 for `limit=1000`: numbers compare by value
                number_value(m.group(1)) in numbers for m in re.finditer(
                    rf"(?<![\w$]){re.escape(name)}\s*(?::[^=\n]*?)?\s*(?:=(?!=)|:)\s*({_NUMBER.pattern})", code)):
            return True, ""
        # One assignment away: env = process.env.NODE_ENV ... env === 'production'
        for var in re.findall(rf"([A-Za-z_$][\w$]*)\s*=(?!=)[^\n;]*?(?<![\w$]){re.escape(name)}(?![\w$])", code):
            if var != name and _writes(code, var, value):
                return True, ""
    if "go" in index.languages and _tagged_field_writes(name, value, index):
        return True, ""  # type="html" for `Type string `xml:"type,attr"`` and `Type: "html"`
    definitions = [d for d in index.definitions() if d.param(name) is not None]
    for d in definitions:  # passed to a parameter called name: setCharset(type, 'utf-8')
        positional = [p.name for p in d.positional()]
        position = positional.index(name) if name in positional else -1
        for callee in d.names:
            for call in index.calls(callee):
                args = split_args(call[call.index("(") + 1: -1])
                given = [a for a in args if not _KW_ARG.fullmatch(a) or _literal(a) is not None]
                passed = [kw.group(2) for a in args if (kw := _KW_ARG.fullmatch(a)) and kw.group(1) == name]
                if 0 <= position < len(given):
                    passed.append(given[position])
                if any(_unquote(a).lower() == value.lower() for a in passed):
                    return True, ""
    if _placeholder(value) and (index.has_word(name) or definitions):
        return True, ""
    if re.fullmatch(r"[A-Za-z_$][\w$]*", value) and any(re.search(
            rf"(?<![\w$]){re.escape(name)}\s*(?::[^=\n]*?)?\s*=(?!=)\s*(?:[\w$]+\.)+{re.escape(value)}(?![\w$])", code)
            for _, code in index.code_texts):
        return True, ""  # max=MAX_WAIT for max: ... = _utils.MAX_WAIT
    if name.isupper() and value and _presence_only(name, index):
        return True, ""  # "even PYFLAKES_DOCTEST=0 turns it on" for `'PYFLAKES_DOCTEST' in os.environ`: any value
    if name.isupper() and value and _literal(raw) is None:
        # TERM=dumb for os.environ.get("TERM") in ("dumb", "emacs"): the variable and its value, one statement
        key = rf"[\"'`]{re.escape(name)}[\"'`]"
        said = rf"[\"'`]{re.escape(value)}[\"'`]"
        for _, code in index.code_texts:
            for line in code.splitlines():
                if re.search(key, line) and re.search(said, line, re.I):
                    return True, ""
            if _tested_for(code, name, value):
                return True, ""
            if value.lower() in _SET_VALUES and _branches_on(code, name) and not re.search(
                    rf"(?<![\w$]){re.escape(name)}\s*[!=]==?\s*[\"'`\d]", code):
                return True, ""  # NO_COLOR=1 for `!env.NO_COLOR && ...`: a variable the code tests for being set
    other = re.compile(rf"(?<![\w$.]){re.escape(name)}\s*(?::[^=\n,()]*)?=(?!=)\s*(True|False|true|false)\b")
    if value.lower() in _BOOL and not any(m.group(1).lower() != value.lower() for _, code in index.code_texts
                                          for m in other.finditer(code)) \
            and ctx.exists(Term(name, TermKind.IDENTIFIER)):
        return True, ""  # "with reraise=True": a switch the anchored file names (and never sets otherwise)
    if value.lower() in _BOOL:  # follow_redirects=True for `follow_redirects: bool = False`, or `if not stream:`
        params = [p for d in definitions if (p := d.param(name)) is not None]
        if any("bool" in p.annotation or p.default.lower() in _BOOL for p in params) or any(
                _branches_on(code, name) for _, code in index.code_texts):
            return True, ""
    if value in ("None", "nil", "null", "undefined") and _tests_none(name, value, definitions, index):
        return True, ""  # attempts=None for `if attempts is not None:`: a case the code tests for
    if _usage(ctx.claim, text) and definitions:
        return True, ""  # "pass status_code=303": what a caller passes, to a parameter the code defines
    if _attribute_pair(text, index):
        return True, ""  # "name=value, Max-Age, ...": an attribute as a header writes it, with example names
    for ev in index.texts:
        m = re.search(rf"(?<![\w$]){re.escape(name)}\s*(?::[^=\n]*)?=\s*[^,)\n]+", ev.text)
        if m:
            return False, " ".join(m.group(0).split())[:80]
    return False, ""


def _tests_none(name: str, value: str, definitions: Sequence[_Definition], index: _Index) -> bool:
    """Whether the code tests ``name`` against ``value`` (None, nil, null, undefined) itself
    (``if attempts is not None:``, ``timeout == nil``) or a parameter ``name`` of the code is
    typed to hold it (``attempts: int | None``, ``Optional[int]``, ``timeout?: number``)."""
    test = re.compile(rf"(?<![\w$.]){re.escape(name)}\s*(?:is(?:\s+not)?\s+{value}|[!=]==?\s*{value})(?![\w$])"
                      rf"|(?<![\w$]){value}\s*[!=]==?\s*{re.escape(name)}(?![\w$])")
    if any(test.search(code) for _, code in index.code_texts):
        return True
    typed = {"None": r"\bNone\b|\bOptional\[", "null": r"\bnull\b", "undefined": r"\bundefined\b"}.get(value)
    return typed is not None and any(
        (p := d.param(name)) is not None and re.search(typed, p.annotation) is not None for d in definitions)


#: An instruction to the caller right before a keyword: "pass `x=1`", "passing x=1", "call it with x=1".
_USAGE = re.compile(r"\b(?:pass|passing|set|use|supply|provide"
                    r"|call(?:ing)?\s+(?:[\w.()`]+\s+){0,2}with|opt\s+in\s+with)\s+[`'\"]?$", re.I)


def _usage(claim: str, text: str) -> bool:
    """Whether the claim writes ``text`` (a keyword) as what a caller passes
    ("pass status_code=303 explicitly"), not as what the code does; a
    keyword the claim calls the default ("... by default") is the code's."""
    for m in re.finditer(rf"(?<![\w$]){re.escape(text)}", claim):
        after = claim[m.end():m.end() + 30]
        if _USAGE.search(claim[max(0, m.start() - 60):m.start()]) \
                and not re.match(r"[`'\"]?\s*(?:\(\s*(?:the\s+)?default|by default|is the default)", after):
            return True
    return False


#: A pattern the code tests names for by their start: ``/^debug_/i.test(key)``, ``re.match(r"^APP_", key)``.
_PREFIX_TEST = re.compile(r"/\^(?P<js>[A-Za-z][\w-]*_)/(?P<flags>[a-z]*)|[\"']\^(?P<py>[A-Za-z][\w-]*_)[\"']")


def _prefixed_setting(name: str, index: _Index) -> bool:
    """Whether ``name`` (``DEBUG_HIDE_DATE``) starts with a prefix the code
    tests names for (``/^debug_/i``) and the rest is a word of the code,
    compared folded (``hideDate``): a variable the code takes as a setting
    by its prefix, none of them written out."""
    for _, code in index.code_texts:
        for m in _PREFIX_TEST.finditer(code):
            prefix = m.group("js") or m.group("py") or ""
            anycase = "i" in (m.group("flags") or "")
            head, rest = name[:len(prefix)], name[len(prefix):]
            if rest and (head == prefix or (anycase and head.lower() == prefix.lower())) \
                    and fold(rest) in index.folded:
                return True
    return False


def _declared_arg(option: str, index: _Index) -> bool:
    """Whether the anchored code declares ``option`` (``--cwd``, ``--force-clean``) as a key of an
    arguments table, each entry an object with its ``type`` (``cwd: { type: "string", ... }``; the key
    written ``forceClean``, ``force_clean`` or quoted ``"force-clean"``)."""
    name = option.lstrip("-").split("=", 1)[0]
    if not name:
        return False
    words = name.split("-")
    keys = {name, "_".join(words), words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:])}
    entry = re.compile(r"(?<![\w$.])[\"']?(?:" + "|".join(map(re.escape, sorted(keys))) + r")[\"']?\s*:\s*\{[^{}]*?"
                       r"\btype\s*:")
    if any(entry.search(code) for _, code in index.code_texts):
        return True
    short = re.fullmatch(r"-([A-Za-z])", option)
    alias = re.compile(rf"""\balias\s*:\s*(?:\[[^\]]*?)?["']{short.group(1)}["']""") if short else None
    # -d for `declaration: { type: "boolean", alias: ["d"] }`: an option's short form, declared beside its type
    return alias is not None and any(alias.search(block) and re.search(r"\btype\s*:", block)
                                     for _, code in index.code_texts for block in re.findall(r"\{[^{}]*\}", code))


def _crate_named(text: str, index: _Index) -> bool:
    """Whether an anchored Cargo manifest declares a dependency ``text`` names with its dashes written as
    underscores (``no_panic`` for ``no-panic = { version = "0.1", optional = true }``)."""
    dashed = re.escape(text.replace("_", "-"))
    declared = re.compile(rf"^\s*(?:{dashed}\s*=|\[(?:[\w.'()-]+\.)?dependencies\.{dashed}\])", re.M)
    return any(any(n.rsplit("/", 1)[-1] == "Cargo.toml" for n in (ev.label.split("::", 1)[0], *ev.names))
               and declared.search(ev.text) for ev in index.texts)


def _bind_name(term: Term, ctx: _Context) -> tuple[bool, str]:
    text, kind = term.text, term.kind
    index = ctx.index
    if index.has_word(text) or index.has_name(text):
        return True, ""
    if re.fullmatch(r"x[2-9]|x[1-9]\d", text) and re.search(rf"\(\s*{text}\b|\b{text}\s*\)", ctx.claim):
        return True, ""  # "(x4, once per Send/Sync variant)": how many times, a count in an aside
    # Redis ~ redis, NaN ~ allow_nan, a module the file imports: names ignore case.
    if kind is TermKind.IDENTIFIER and (text.lower() in index.lower or text.lower() in index.modules):
        return True, ""
    # SHA-256 ~ sha256, HTTP/2 ~ http2 and UTF-8 ~ "utf-8": names of
    # algorithms, protocols and encodings fold.
    if any(ch.isdigit() for ch in text) and (fold(text) in index.folded or index.has_sequence(text, fold=True)):
        return True, ""
    if kind is TermKind.IDENTIFIER and _digit_word(text, index):
        return True, ""  # base64 where the code names base64Chars, int8 of int8Type: a word of the code's names
    named = _NAMED_VERSION.fullmatch(text)
    if named and {text.split("/", 1)[0].lower(), "version"} <= index.parts():
        return True, ""  # HTTP/2 where the code reads httpVersionMajor: the protocol's version, compared
    # An environment variable NO_PROXY binds to a string "no_proxy" (code
    # often looks both up), never to a variable.
    if kind is TermKind.CONSTANT and index.has_string(text):
        return True, ""
    if re.fullmatch(r"\$[A-Z][A-Z\d_]*", text) and index.has_string(text[1:]):
        return True, ""  # `$PORT` where the code reads os.Getenv("PORT"): the shell's way to name a variable
    if kind is TermKind.CONSTANT and _prefixed_setting(text, index):
        return True, ""  # DEBUG_HIDE_DATE where the code takes every /^debug_/i variable as a setting (hideDate)
    if _instance(text, index) or _numbered_instance(text, index):
        return True, ""  # `q00000` of f"q{number:05d}": a name the code formats
    if kind is TermKind.IDENTIFIER and "_" in text and _crate_named(text, index):
        return True, ""  # #[no_panic] of the no-panic dependency: Rust writes a crate's dashes as underscores
    if kind is TermKind.IDENTIFIER and text in _PY_BUILTINS and "python" in index.languages:
        return True, ""  # KeyboardInterrupt, SystemExit: the language's own names, named in prose
    if kind is TermKind.IDENTIFIER and any(text in _LANGUAGE_NAMES.get(lang, ()) for lang in index.languages):
        return True, ""  # Go's nil and panic, Rust's Option, usize and no_std: the language's own, named in prose
    if kind is TermKind.IDENTIFIER and _defaulted(text, index):
        return True, ""  # "RandomizationFactor 0.5" where the code defines DefaultRandomizationFactor
    if kind is TermKind.IDENTIFIER and _handled_by(text, index):
        return True, ""  # the `maxAge` option where the code calls configureMaxAge(options)
    if kind is TermKind.IDENTIFIER and text.lower() in _CASE_STYLES:
        return True, ""  # "camelCase maxAge wins": the name of a way to write names, in prose
    if kind is TermKind.IDENTIFIER and text in _JS_GLOBALS | _JS_OBJECT_MEMBERS \
            and index.languages & {"javascript", "typescript", "tsx"}:
        return True, ""  # setTimeout, queueMicrotask, __proto__: the runtime's own names, named in prose
    # BadParameter beside UsageError: a neighbour named in prose binds where
    # the anchored file (or its imports) defines it; what the code raises is
    # the raises rule's to say.
    if kind is TermKind.IDENTIFIER and ctx.exists(term):
        return True, ""
    if kind is TermKind.IDENTIFIER and "python" in index.languages and re.fullmatch(r"[a-z_][a-z0-9_]*", text) and any(
            index.calls(callee) and ctx.exists(Term(f"{callee}({text}=<_>)", TermKind.CALL))
            for callee in dict.fromkeys(re.findall(r"(?<![\w$.])([A-Za-z_][\w.]*)\(", ctx.claim))):
        return True, ""  # "calls find_dotenv(path, True, True), i.e. raise_error_if_not_found": the callee's parameter
    if kind is TermKind.IDENTIFIER and len(text) >= 3 and _family(text, ctx):
        return True, ""  # `ClientIPFrom*`, `release_max_level_*`, `*_unchecked`: a family of the code's names
    if kind is TermKind.IDENTIFIER and re.fullmatch(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+s", text) \
            and index.has_word(text[:-1]):
        return True, ""  # "AtomicPtrs", "ThreadLocals": the plural of a type the code names
    if kind is TermKind.IDENTIFIER and _abbreviated(text, index):
        return True, ""  # `prefix_len` for `prefix_length`: a name of the code, its words shortened
    return False, _nearest_word(text, index.words | index.name_segments)


def _digit_word(text: str, index: _Index) -> bool:
    """Whether ``text``, letters then digits (``base64``, ``int8``, ``sha256``), is two
    neighbouring parts of a name the code (or an anchor) spells, in any case: ``base64Chars``,
    ``toBase64``, ``int8Type``."""
    if not re.fullmatch(r"[A-Za-z]+\d+", text):
        return False
    want = text.lower()
    for word in index.code_words() | index.name_segments:
        parts = _parts(word)
        if any(a + b == want for a, b in itertools.pairwise(parts)):
            return True
    return False


def _through_local(text: str, index: _Index) -> bool:
    """Whether ``text``, a call with more written on its result (``accepts(req).type(mediaTypes)``),
    is what the code writes through a local: the call assigned to a name, the rest on that name
    (``var accept = accepts(req)`` ... ``accept.type(mediaTypes)``)."""
    text = text.strip()
    m = re.match(r"[A-Za-z_$][\w$.]*\(", text)
    end = balanced(text, m.end() - 1) if m else -1
    head, rest = text[:end], text[end:]
    if end < 0 or not re.match(r"\.[A-Za-z_$]", rest):
        return False
    wanted = code_tokens(head)
    return any(code_tokens(value) == wanted and index.has_sequence(name + rest, code=True)
               for name, values in _assigned_calls(index).items() for value in values)


def _abbreviated(text: str, index: _Index) -> bool:
    """Whether ``text`` is one name of the code written with its words shortened: as many words, in
    the same style (``_`` or case), each the start of the code's word, three letters at least when
    shorter (``prefix_len`` for ``prefix_length``, ``maxLen`` for ``maxLength``), and no other
    name of the code so read."""
    parts = _parts(text)
    if len(parts) < 2 or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", text):
        return False
    found = {w for w in index.code_words() if ("_" in w) == ("_" in text) and w != text
             and len(theirs := _parts(w)) == len(parts)
             and all(a == b or (len(a) >= 3 and b.startswith(a)) for a, b in zip(parts, theirs, strict=True))}
    return len(found) == 1


def _family(text: str, ctx: _Context) -> bool:
    """Whether the claim writes ``text`` with a ``*`` for the rest of a name, after it
    (``ClientIPFrom*``) or before it (``*_unchecked``), and the code has a longer name so
    begun or so ended."""
    prefix = re.search(rf"(?<![\w$]){re.escape(text)}\*", ctx.claim) is not None
    suffix = re.search(rf"\*{re.escape(text)}(?![\w$])", ctx.claim) is not None
    return (prefix or suffix) and any(
        w != text and ((prefix and w.startswith(text)) or (suffix and w.endswith(text)))
        for w in ctx.index.code_words() | ctx.index.name_segments)


#: The names of the ways to write names (``camelCase``, ``snake_case``), written as their own example.
_CASE_STYLES = frozenset({"camelcase", "lowercamelcase", "uppercamelcase", "pascalcase", "snake_case",
                          "screaming_snake_case", "kebab-case", "camel_case", "snakecase"})


#: Python's built-in names (``KeyboardInterrupt``, ``BaseException``, ``len``).
_PY_BUILTINS = frozenset(name for name in dir(builtins) if not name.startswith("_"))


#: The global functions and constants of JavaScript runtimes (``setTimeout``, ``undefined``), named in
#: prose as Python's builtins (``None`` among them) are.
_JS_GLOBALS = frozenset({
    "setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "clearImmediate",
    "queueMicrotask", "structuredClone", "encodeURIComponent", "decodeURIComponent", "encodeURI", "decodeURI",
    "parseInt", "parseFloat", "isNaN", "isFinite", "globalThis", "undefined", "null", "NaN", "Infinity",
})

#: The members every JavaScript object inherits from ``Object.prototype`` (``constructor``, ``toString``,
#: ``__proto__``): named in prose when a claim says why a map must have no prototype, whether or not
#: the code spells them.
_JS_OBJECT_MEMBERS = frozenset({
    "__proto__", "constructor", "prototype", "toString", "toLocaleString", "valueOf", "hasOwnProperty",
    "isPrototypeOf", "propertyIsEnumerable",
})


#: The predeclared names of Go and the prelude, primitive types, std crates and crate attributes of Rust,
#: named in prose as Python's builtins are.
_LANGUAGE_NAMES: dict[str, frozenset[str]] = {
    "go": frozenset({
        "nil", "iota", "true", "false", "append", "cap", "clear", "close", "complex", "copy", "delete", "imag",
        "len", "make", "max", "min", "new", "panic", "print", "println", "real", "recover", "any", "bool", "byte",
        "comparable", "error", "float32", "float64", "int", "int8", "int16", "int32", "int64", "rune", "string",
        "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "goroutine", "goroutines", "defer", "chan",
    }),
    "rust": frozenset({
        "Option", "Some", "None", "Result", "Ok", "Err", "Box", "Vec", "String", "ToString", "ToOwned", "Clone",
        "Copy", "Send", "Sync", "Sized", "Unpin", "Drop", "Fn", "FnMut", "FnOnce", "From", "Into", "TryFrom",
        "TryInto", "AsRef", "AsMut", "Default", "Debug", "Display", "Iterator", "IntoIterator", "Extend",
        "PartialEq", "Eq", "PartialOrd", "Ord", "Hash", "bool", "char", "str", "u8", "u16", "u32", "u64", "u128",
        "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64", "std", "core", "alloc", "no_std",
        "panic", "unsafe", "dyn", "impl", "trait", "crate", "Self", "self", "derive", "cfg", "repr",
        "static", "const", "mut", "fn", "struct", "enum", "mod", "pub", "let", "match", "async", "await", "move",
    }),
}


def _defaulted(name: str, index: _Index) -> bool:
    """Whether the code defines the default of a setting ``name`` by Go's and C's naming: ``DefaultName``,
    ``defaultName``, ``DEFAULT_NAME`` or ``default_name``."""
    snake = "_".join(_parts(name))
    words = index.code_words() | index.name_segments
    return len(name) >= 4 and bool({f"Default{name}", f"default{name[:1].upper()}{name[1:]}",
                                    f"DEFAULT_{snake.upper()}", f"default_{snake}"} & words)


def _handled_by(name: str, index: _Index) -> bool:
    """Whether the anchored code hands the caller's settings to a function
    named for the setting ``name`` (two word parts or more): a verb, then
    the name (``maxAge`` for ``configureMaxAge(options)``). A setter of
    the name (``SetEscapeHTML(true)``) is not a setting of that name."""
    parts = [p.lower() for p in _parts(name)]
    if len(parts) < 2:
        return False
    return any(len(own := [p.lower() for p in _parts(word)]) == len(parts) + 1 and own[1:] == parts
               and any(re.search(rf"(?<![\w$]){re.escape(word)}\s*\([^()]*\b{_OPTIONS}\b", code)
                       for _, code in index.code_texts)
               for word in index.code_words())


#: What code calls the object of a caller's settings.
_OPTIONS = r"(?:options|opts|config|cfg|conf|settings|params)"


def _instance(text: str, index: _Index) -> bool:
    """Whether ``text`` is a name the code builds from a template, its fields
    filled: ``_MY_TOOL_COMPLETE`` of ``f"_{prog_name}_COMPLETE"``."""
    chars = list(text)
    for code in index.templates():
        own = sum(ch != _WILD for ch in code)
        if _WILD in code and own >= 3 and len(code) <= 80 and _match_template(chars, code) == own \
                and "".join(ch for ch in code if ch != _WILD).strip(" _-.") \
                and all(_FIELD_TEXT.fullmatch(ch) or ch == _WILD for ch in code):
            return True
    return False


#: A POSIX locale name, the dotted part of ``ja_JP.UTF-8@cjk_narrow`` (its charset cut at the ``-``).
_LOCALE = re.compile(r"[a-z]{2,3}_[A-Z]{2}\.[A-Za-z][\w-]*")
#: Code that reads the locale: the variables that name it, or a value it calls one.
_READS_LOCALE = re.compile(r"\b(?:LC_ALL|LC_CTYPE|LANG|locale)\b", re.I)


def _reads_locale(index: _Index) -> bool:
    """Whether the anchored code reads the locale, so that a locale a claim names is the reader's."""
    return any(_READS_LOCALE.search(code) for _, code in index.code_texts)


#: A file's name: lower-case words joined by dots, ending in a file extension (``untyped.schema.json``).
_FILE_NAME = re.compile(r"[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)*\.(?:json|jsonc|json5|ya?ml|toml|ini|lock|md|txt|cfg"
                        r"|mjs|cjs|mts|cts)")


def _bind_dotted(term: Term, ctx: _Context) -> tuple[bool, str]:
    text = term.text
    index = ctx.index
    if "::" in text:  # a Rust path: std's is the platform's; a crate's or a module's names its item
        head, rest = text.split("::", 1)
        if head in ("std", "core", "alloc"):
            return True, ""
        whole = _bind_dotted(Term(text.replace("::", "."), TermKind.DOTTED), ctx)
        if whole[0] or not head.islower():
            return whole
        return _bind_dotted(Term(rest.replace("::", "."), TermKind.DOTTED), ctx) if "::" in rest \
            else _bind_name(Term(rest, TermKind.IDENTIFIER), ctx)
    if "go" in index.languages and text in _GO_INTERFACES:
        methods, every = _GO_INTERFACES[text]
        defined = [any(re.search(rf"\bfunc\s*\([^()]*\)\s*{m}\s*\(", code) for _, code in index.code_texts)
                   for m in methods]
        if all(defined) if every else any(defined):
            return True, ""  # "Frame implements encoding.TextMarshaler": the anchored type has MarshalText
        if text in ("errors.Is", "errors.As", "errors.Unwrap") and any(
                re.search(r"\bfmt\.Errorf\s*\(\s*(?:\"[^\"\n]*%w|`[^`]*%w)", code) for _, code in index.code_texts):
            return True, ""  # fmt.Errorf("...: %w", err): the error it returns wraps err, for errors.Is to reach
    segments = text.split(".")
    if index.has_sequence(text) or index.has_name(text) or index.has_sequence(text, fold=True) \
            or index.has_name(text, any_case=True) or text.lower() in index.modules:
        return True, ""
    if _LOCALE.fullmatch(text) and _reads_locale(index):
        return True, ""  # en_US.UTF-8 -> false: the reader's locale, for code that reads the locale
    verb = re.search(rf"(?<![\w$.]){re.escape(text)}(?=\s+(?:the|it|its|them|that|this|each|every|a|an)\b)",
                     ctx.claim) if re.fullmatch(r"[A-Za-z_$][\w$]*\.[a-z]\w*[a-z]s", text) else None
    if verb and index.calls(text[:-2] if text.endswith("es") and index.calls(text[:-2]) else text[:-1]):
        return True, ""  # "JSON.parses the rest": the call the code makes, as a verb
    rival = "" if re.search(rf"(?<![\w$.]){re.escape(text)}\s*\(", ctx.claim) else _rival_string(text, index)
    if rival:  # (a callee, `cmd.help(...)`, is a name, never a value)
        return False, rival  # `express.sid` where the code writes 'connect.sid': a value, and another one
    # An exception class must be one the anchored code raises, catches or
    # tests for: that it exists somewhere (requests.exceptions.Timeout),
    # or that its parts are words of a docstring, does not make a claim
    # about what this code raises true.
    if _EXCEPTION_NAME.fullmatch(segments[-1]):
        if index.handles(segments[-1]):
            return True, ""
    elif _FILE_NAME.fullmatch(text) and not ctx.exists(term):
        pass  # `untyped.schema.json`: a file's name is a value, bound as a string (below), not by its words
    elif (all(index.has_word(seg) for seg in segments) or ctx.exists(term) or _option_path(segments, index)
          or _reached(segments, index)):
        return True, ""
    if len(segments) == 2 and segments[0].lower() in index.modules and segments[1] in index.code_words():
        return True, ""  # tempfile.gettempdir for `from tempfile import gettempdir` ... gettempdir()
    if _EXAMPLE_HOST.fullmatch(text):
        return True, ""  # tobi.ferrets.example.com: an example, not a name of the code
    if len(segments) == 2 and any(abbreviates(segments[0], o) for ev in index.texts for o in _instance_of(ev)) \
            and (index.has_sequence("this." + segments[1], code=True) or index.has_sequence("self." + segments[1], code=True)):
        return True, ""  # app.silent for this.silent in Application's code; err.field in MulterError's
    if len(segments) == 2 and segments[0][:1].islower() and segments[1] in index.leaves() \
            and not _go_std(segments[0], index):
        return True, ""  # ctx.body for an anchored `body`: the anchored member, reached through an instance
    if len(segments) == 2 and re.fullmatch(r"[a-z][a-z0-9]*", segments[0]) \
            and ctx.exists(Term(segments[0].capitalize(), TermKind.DOTTED)) \
            and ctx.exists(Term(text, TermKind.PROPER)):
        # request.session: a member of a class of the repository (Request, or a base of it), through
        # an instance named after it, written so where the project writes it
        return True, ""
    dotted = {m.group(0) for ev in index.texts for m in _DOTTED.finditer(ev.text)} | index.names
    return False, _nearest_word(text, dotted)


def _instance_of(ev: EvidenceText) -> set[str]:
    """The types an instance in ``ev``'s code belongs to, as people shorten them: what ``this`` and
    ``self`` stand for (as in :meth:`_Index.owners`), a class or constructor function anchored itself
    (``MulterError``), and the last word of each (``error``: ``err`` for a ``MulterError``)."""
    quals = _qualnames(ev)
    types = {q.rsplit(".", 1)[0] for q in quals if "." in q} | {q for q in quals if q[:1].isupper() and "." not in q}
    return {t.lower() for t in types} | {w.lower() for t in types for w in re.findall(r"[A-Z][a-z]+$", t)}


def _qualnames(ev: EvidenceText) -> list[str]:
    """The qualified names ``ev`` is labelled and named by (``res.json`` of ``lib/response.js::res.json``)."""
    return [name.split("::", 1)[1] for name in (ev.label, *ev.names) if "::" in name]


def _option_path(segments: Sequence[str], index: _Index) -> bool:
    """An option path, ``retry.methods``: the code writes the last key, and
    each group before it is a word of the code or a part of one
    (``defaultRetryOptions`` holds the ``retry`` options)."""
    if len(segments) < 2 or not index.has_word(segments[-1]):
        return False
    return all(seg.lower() in index.lower or seg.lower() in index.parts() for seg in segments[:-1])


def _reached(segments: Sequence[str], index: _Index) -> bool:
    """An anchored symbol named through the object it is reached by
    (``ky.retry`` for the anchored ``constants.ts::retry``, ``app.render``
    for ``application.js::app.render``): its own name, last, after lower-case
    names of a namespace or instance."""
    return (len(segments) >= 2 and segments[-1] in index.leaves()
            and all(re.fullmatch(r"[a-z][a-z0-9]*", seg) for seg in segments[:-1])
            and not _go_std(segments[0], index))


def _go_std(qualifier: str, index: _Index) -> bool:
    """Whether ``qualifier`` names a package of Go's standard library in Go
    code: ``syscall.Exec`` is Go's, not the anchored ``Exec`` reached through
    an instance or the package."""
    return "go" in index.languages and qualifier in GO_STD_QUALIFIERS


_STATUS_NAMES = {1: (("informational",),), 2: (("success",), ("successful",)),
                 3: (("redirection",), ("redirect", "response"), ("is", "redirect")),
                 4: (("client", "error"),), 5: (("server", "error"),)}


#: HTTP status codes by their names folded (lower case, no ``_``): Python's ``HTTPStatus`` members, Go's
#: ``http.Status*`` constants (the same names in CamelCase, four of them shortened or renamed).
_STATUS_BY_NAME: dict[str, int] = {
    **{s.name.replace("_", "").lower(): s.value for s in http.HTTPStatus},
    "nonauthoritativeinfo": 203, "proxyauthrequired": 407, "requesturitoolong": 414, "teapot": 418,
}


def _status_named(value: float, index: _Index) -> bool:
    """Whether the code names the HTTP status ``value`` by a constant of its platform's
    (``http.StatusTooManyRequests``, ``HTTPStatus.TOO_MANY_REQUESTS``) rather than writing the number."""
    if not (100 <= value < 600 and value == int(value)):
        return False
    words = index.code_words()
    python = "HTTPStatus" in words
    return any(_STATUS_BY_NAME.get(w.replace("_", "").lower().removeprefix("status")) == value
               for w in words if w.startswith("Status") or (python and w.isupper()))


#: Units a number is restated in: each a dimension and its size in that dimension's base (bytes, seconds).
_RESTATE_UNITS: dict[str, tuple[str, tuple[float, ...]]] = {
    "b": ("size", (1,)), "byte": ("size", (1,)), "bytes": ("size", (1,)),
    "kb": ("size", (1e3, 2 ** 10)), "kib": ("size", (2 ** 10,)), "mb": ("size", (1e6, 2 ** 20)),
    "mib": ("size", (2 ** 20,)), "gb": ("size", (1e9, 2 ** 30)), "gib": ("size", (2 ** 30,)),
    "ns": ("time", (1e-9,)), "us": ("time", (1e-6,)), "\u00b5s": ("time", (1e-6,)), "ms": ("time", (1e-3,)),
    "s": ("time", (1,)), "sec": ("time", (1,)), "secs": ("time", (1,)), "second": ("time", (1,)),
    "seconds": ("time", (1,)), "min": ("time", (60,)), "mins": ("time", (60,)), "minute": ("time", (60,)),
    "minutes": ("time", (60,)), "h": ("time", (3600,)), "hour": ("time", (3600,)), "hours": ("time", (3600,)),
    "day": ("time", (86400,)), "days": ("time", (86400,)), "week": ("time", (604800,)),
    "weeks": ("time", (604800,)),
}
_UNIT = r"(?:" + "|".join(sorted((re.escape(u) for u in _RESTATE_UNITS), key=len, reverse=True)) + r")(?![\w])"
#: "65536 KiB (64 MiB)", "2628000 s (~30.4 days)": a number, then the same quantity in another unit.
_RESTATED = re.compile(rf"(?P<a>\d[\d_,]*(?:\.\d+)?)\s*(?P<ua>{_UNIT})?\s*\(\s*(?P<approx>[~\u2248]|about\s+)?"
                       rf"(?P<b>\d[\d_,]*(?:\.\d+)?)\s*(?P<ub>{_UNIT})\s*\)", re.I)


def _restated(text: str, claim: str) -> bool:
    """Whether ``text`` is a number the claim gives in parentheses as another's restatement in another unit:
    ``64`` of "65536 KiB (64 MiB)", ``~30.4`` of "2628000 s (~30.4 days)" (the first number bare takes
    the base unit of the second's dimension: bytes, seconds). An approximate one agrees to 5 %, any
    other to 0.5 %; the first number is a term of its own, which binds or not."""
    said = text.lstrip("~\u2248")
    for m in _RESTATED.finditer(claim):
        if m.group("b") != said:
            continue
        dim_b, sizes_b = _RESTATE_UNITS[m.group("ub").lower()]
        dim_a, sizes_a = _RESTATE_UNITS[m.group("ua").lower()] if m.group("ua") else (dim_b, (1.0,))
        if dim_a != dim_b:
            continue
        a, b = float(m.group("a").replace("_", "").replace(",", "")), float(said.replace("_", "").replace(",", ""))
        tolerance = 0.05 if m.group("approx") or text != said else 0.005
        if any(abs(a * x - b * y) <= tolerance * max(a * x, b * y) for x in sizes_a for y in sizes_b):
            return True
    return False


def _bind_number(term: Term, ctx: _Context) -> tuple[bool, str]:
    text = term.text
    index = ctx.index
    if _restated(text, ctx.claim):
        return True, ""  # 65536 KiB (64 MiB): the same quantity, restated in another unit
    if _STATUS_CLASS.fullmatch(text):
        digit = int(text[0])
        if (any(digit * 100 <= n < digit * 100 + 100 for n in index.numbers)
                or index.has_sequence(text, fold=True, code=True)
                or any(_contains(index.code_parts(), name) for name in _STATUS_NAMES[digit])):
            return True, ""
        return False, _nearest_line(text, index, lambda tok: tok[:1].isdigit())
    value = number_value(text)
    keyed = _manifest_keyed(value, text, ctx) if value is not None else None
    if keyed is not None:
        return keyed, ""  # "engines: node >= 4": the number of the manifest's own `"node"` line, or none
    if (value is not None and value in index.numbers) or index.has_sequence(text, code=True) or ctx.exists(term):
        return True, ""
    if value is not None and any(v in index.numbers for v in in_other_units(value, text, ctx.claim)):
        return True, ""
    if re.fullmatch(r"0[0-7]{3,4}", text) and any(re.fullmatch(rf"0[oO]0*{text.lstrip('0')}", t) for t in index.code):
        return True, ""  # mode 0644 where Rust or Python writes 0o644: the file mode in C's octal notation
    if value is not None and _bit_width(value, text, ctx):
        return True, ""
    if value is not None and _byte_count(value, text, ctx):
        return True, ""  # the 4-byte magic "xxh\x06"; a 64-bit hash of 8 bytes: one size written two ways
    if value is not None and _in_series(value, ctx):
        return True, ""
    if value is not None and _status_named(value, index):
        return True, ""  # "replies 429" where the code writes http.StatusTooManyRequests
    if value == 0 and _falsy(text, ctx):
        return True, ""  # "listenerCount('error') is 0" where the code tests !this.listenerCount('error')
    if value is not None and _stepped(value, text, ctx):
        return True, ""  # "9229 -> 9230" of "port+1": the claim's own arithmetic on a number of the code
    if value is not None and value.is_integer() and 0 < value <= 16 and _blank_string(int(value), text, ctx):
        return True, ""  # Indent: "  " (2 spaces): a string of that many spaces, counted
    if value is not None and value.is_integer() and re.fullmatch(r"\d{1,3}", text) and _sgr_parameter(text, ctx.index):
        return True, ""  # "strings green 32" for "\x1B[32m": a parameter of a terminal colour sequence
    if value is not None and _computed_by_claim(value, text, ctx):
        return True, ""  # "_MAX_SIZE / 2 keys, i.e. 64": the claim works out an expression of the code's
    if _code_point(text, ctx):
        return True, ""  # U+2028 for '\u2028': a character named by its code point
    if re.search(rf"(?<![\w.]){_LOCALE.pattern}{re.escape(text)}(?![\w.])", ctx.claim) and _reads_locale(index):
        return True, ""  # the -8 of en_US.UTF-8: the charset of the reader's locale
    if value is not None and _strict_bound(value, text, ctx):
        return True, ""  # "a 4-arg handler" for `fn.length > 3`: the first whole number past a strict bound
    if _version_tested(text, index):
        return True, ""  # "only before 3.9" for `if sys.version_info < (3, 9):`
    if re.fullmatch(r"\d+\.\d+", text) and re.search(rf"\b(?:[Ss]ince|as of)\s+v?{re.escape(text)}(?![\w.])", ctx.claim) \
            and any(re.fullmatch(rf"v?{re.escape(text)}(?:\.\d+)*", s) for s in index.strings()):
        return True, ""  # "Since 5.0, ..." where __version__ = "5.0.1": the release the code is of
    if re.fullmatch(r"\d+(?:\.\d+)?", text) and any(_zeros_left_out(text).search(s) for s in index.strings()):
        return True, ""  # "cfg-if (1.0)" for cfg-if = "1.0.0": the same version, its zeros left out
    return False, _nearest_line(text, index, lambda tok: tok[:1].isdigit())


#: A number the claim gives as a count of arguments or as a floor or a ceiling: "a 4-arg handler", "at least 2".
_COUNTED_AFTER = re.compile(r"\s*-?\s*(?:args?|arguments?|params?|parameters?|ary)\b", re.I)
_FLOOR_BEFORE = re.compile(r"\b(?:at\s+least|or\s+more)\s*$", re.I)
#: "2+ functions", "3 or more": the number and all above it, the rest after the code's cases up to it.
_FLOOR_AFTER = re.compile(r"\+(?![\w+])|\s+or\s+more\b", re.I)
_CEILING_BEFORE = re.compile(r"\b(?:at\s+most|up\s+to|or\s+fewer|or\s+less)\s*$", re.I)


def _strict_bound(value: float, text: str, ctx: _Context) -> bool:
    """Whether the claim gives the whole number ``value`` as an argument count or a floor ("a
    4-arg handler", "at least 4") where the code tests ``> 3``, or as a ceiling ("at most 4")
    where it tests ``< 5``: the first whole number past a strict bound. "2+" and "2 or more" are
    also the rest past the code's last case (``== 1``). A number the claim gives
    as a value ("maxIpsCount is 1") is not read off a bound (``maxIpsCount > 0``)."""
    if value != int(value) or value < 1:
        return False
    n, claim = int(value), ctx.claim
    signs = set()
    for m in re.finditer(rf"(?<![\w.]){re.escape(text)}(?![\w.])", claim):
        if _COUNTED_AFTER.match(claim, m.end()) or _FLOOR_BEFORE.search(claim[:m.start()]):
            signs.add(rf">\s*{n - 1}")
        if _FLOOR_AFTER.match(claim, m.end()):
            signs.update((rf">\s*{n - 1}", rf"==\s*{n - 1}"))  # "only 2+ go on" after `if len(seqs) == 1:`
        if _CEILING_BEFORE.search(claim[:m.start()]):
            signs.add(rf"<\s*{n + 1}")
    if not signs:
        return False
    bound = re.compile(rf"(?<![<>=!-])(?:{'|'.join(sorted(signs))})(?![\w.])")
    return any(bound.search(code) for _, code in ctx.index.code_texts)


#: A terminal's select-graphic-rendition sequence in a string, escape read or not: ``\x1b[1;36m``.
_SGR = re.compile(r"(?:\x1b|\\x1[bB]|\\033|\\u001[bB]|\\e)\[(?P<p>\d+(?:;\d+)*)m")


def _sgr_parameter(text: str, index: _Index) -> bool:
    """Whether ``text`` is a parameter of a colour sequence a string of the code writes (``32`` of
    ``"\x1B[32m"``, ``36`` of ``"\x1b[1;36m"``)."""
    return any(text in m.group("p").split(";") for s in index.strings() for m in _SGR.finditer(s))


def _blank_string(n: int, text: str, ctx: _Context) -> bool:
    """Whether the claim counts ``text`` spaces or tabs ("indented 2 spaces", "(4 tabs)") and the
    code writes a string of exactly that many."""
    said = re.search(rf"(?<![\w.]){re.escape(text)}\s+(?P<what>spaces?|tabs?)\b", ctx.claim)
    if said is None:
        return False
    blank = (" " if said.group("what").startswith("space") else "\t") * n
    return blank in ctx.index.strings()


def _zeros_left_out(version: str) -> re.Pattern[str]:
    """Where ``version`` (``1.0``) is written with its trailing zeros: ``1.0.0``, ``^1.0.0``."""
    return re.compile(rf"(?<![\w.]){re.escape(version)}(?:\.0)+(?![\w.])")


def _version_tested(text: str, index: _Index) -> bool:
    """Whether ``text`` (``3.9``, ``>= 3.7``, ``3.12.1``) is a Python version the code
    tests ``sys.version_info`` against as a tuple (``(3, 9)``, ``(3, 12, 1)``) on one line."""
    m = re.fullmatch(r"(?:[<>]=?|[!=]=)?\s*(\d+)\.(\d+)(?:\.(\d+))?\+?", text.strip())
    if m is None or "python" not in index.languages:
        return False
    micro = rf"\s*,\s*{m.group(3)}\s*\)" if m.group(3) else r"\s*[,)]"
    tested = re.compile(rf"version_info\b[^\n]*\(\s*{m.group(1)}\s*,\s*{m.group(2)}{micro}")
    return any(tested.search(code) for _, code in index.code_texts)


def _argv_written(text: str, index: _Index) -> bool:
    """Whether ``text`` is a command line the code runs as a list of string
    arguments, word for word and in order: ``ioreg -rd1 -c IOPlatformExpertDevice``
    for ``exec.Command("ioreg", "-rd1", "-c", "IOPlatformExpertDevice")``,
    ``git rev-parse HEAD`` for ``["git", "rev-parse", "HEAD"]``; the program may
    be a name the code looked it up into (``ioreg, err := exec.LookPath("ioreg")``)."""
    words = text.split()
    if len(words) < 2 or any(q in text for q in "\"'`"):
        return False
    quoted = [rf"[\"'`]{re.escape(w)}[\"'`]" for w in words]
    quoted[0] = rf"(?:{quoted[0]}|(?<![\w$.]){re.escape(words[0])}(?![\w$]))"  # the program, looked up first
    argv = re.compile(r"\s*,\s*".join(quoted))
    return any(argv.search(code) for _, code in index.code_texts)


def _code_point(text: str, ctx: _Context) -> bool:
    """Whether ``text`` is a code point the claim writes ``U+XXXX`` and the code writes as an escape
    (``\\u2028``, ``\\u{2028}``, ``\\U00002028``, ``\\x{2028}``) or a hexadecimal literal (``0x2028``);
    or a hexadecimal number (``0x40``) the code writes as a character's escape (``'\\x40'``)."""
    hexa = re.fullmatch(r"0[xX]([0-9A-Fa-f]{1,6})", text)
    if hexa is None and (not re.fullmatch(r"[0-9A-Fa-f]{4,6}", text)
                         or not re.search(rf"\bU\+{re.escape(text)}\b", ctx.claim)):
        return False
    digits = (hexa.group(1) if hexa else text).lstrip("0").lower() or "0"
    written = re.compile(rf"(?:\\u\{{?|\\U|\\x\{{?|0[xX])0*{re.escape(digits)}(?![0-9a-fA-F])", re.I)
    return any(written.search(code) for _, code in ctx.index.code_texts)


def _manifest_keyed(value: float, text: str, ctx: _Context) -> bool | None:
    """For a claim whose only evidence is manifests: when a word right
    before the number (up to four words back) is a key of a manifest line
    (``"node": ">= 0.10"``, ``go 1.21``, ``requires-python = ">=3.9"``),
    whether one of those lines holds the number; ``None`` when no such key
    is named (the number is then looked up as anywhere else). A version
    named for one key is not confirmed by a dependency's version that
    happens to hold the same number. ``1.0`` is the line's ``"1.0.0"``: the
    same version, its zeros left out."""
    texts = ctx.index.texts
    if not texts or not all("::" not in ev.label and is_manifest(ev.label) for ev in texts):
        return None
    at = ctx.claim.find(text)
    words = re.findall(r"[A-Za-z][\w.-]*", re.split(r"[;,]", ctx.claim[:max(at, 0)])[-1])[-4:]
    for word in reversed(words):
        key = re.compile(rf"""^\s*(?:["']{re.escape(word)}["']\s*:|{re.escape(word)}\s*[=:\s])""", re.I | re.M)
        lines = [line for ev in texts for line in ev.text.splitlines() if key.match(line)]
        if lines:
            padded = _zeros_left_out(text)
            return any(value in numbers_in(line, in_strings=True) or padded.search(line) for line in lines)
    return None


#: A number with its unit glued on, the way people write durations and sizes: ``30s``, ``500ms``, ``2KiB``, ``4px``.
_GLUED_UNIT = re.compile(r"(?<![\w.$-])(\d+(?:\.\d+)?)(?i:ms|s|secs?|mins?|h|hrs?|[kmg]i?b|px)(?![\w$-]|\.\w)")

#: Units of time and size and their factor to the dimension's base (a second, a byte).
UNIT_FACTORS: dict[str, tuple[str, float]] = {
    **dict.fromkeys(("ns", "nanosecond", "nanoseconds"), ("time", 1e-9)),
    **dict.fromkeys(("us", "µs", "microsecond", "microseconds"), ("time", 1e-6)),
    **dict.fromkeys(("ms", "millisecond", "milliseconds"), ("time", 1e-3)),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), ("time", 1.0)),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), ("time", 60.0)),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), ("time", 3600.0)),
    **dict.fromkeys(("day", "days"), ("time", 86400.0)),
    **dict.fromkeys(("b", "byte", "bytes"), ("size", 1.0)),
    **dict.fromkeys(("kb", "kilobyte", "kilobytes"), ("size", 1e3)),
    **dict.fromkeys(("kib", "kibibyte", "kibibytes"), ("size", 1024.0)),
    **dict.fromkeys(("mb", "megabyte", "megabytes"), ("size", 1e6)),
    **dict.fromkeys(("mib", "mebibyte", "mebibytes"), ("size", 1024.0 ** 2)),
    **dict.fromkeys(("gb", "gigabyte", "gigabytes"), ("size", 1e9)),
    **dict.fromkeys(("gib", "gibibyte", "gibibytes"), ("size", 1024.0 ** 3)),
}


#: The decimal size units people also write for the binary ones (``100kb`` for ``102400``).
_BINARY_TOO = {"kb": 1024.0, "mb": 1024.0 ** 2, "gb": 1024.0 ** 3}

#: The units code keeps values in: milliseconds or seconds, and bytes.
_CODE_UNITS = (("time", 1e-3), ("time", 1.0), ("size", 1.0))


def in_other_units(value: float, text: str, claim: str) -> list[float]:
    """``value`` in the units code keeps its dimension in (milliseconds and
    seconds, bytes), when the claim writes a unit after it: code keeps
    ``10 s`` as ``10_000`` (ms) and ``1 MiB`` as ``1048576`` or ``1024 *
    1024`` (bytes); none when it writes no unit."""
    out: list[float] = []
    for m in re.finditer(rf"(?<![\w.$]){re.escape(text)}\s*-?\s*([A-Za-zµ]+)\b", claim):
        unit = UNIT_FACTORS.get(m.group(1).lower())
        if unit is None:
            continue
        dimension, factor = unit
        out += [round(value * factor / other, 9) for dim, other in _CODE_UNITS if dim == dimension and other != factor]
        binary = _BINARY_TOO.get(m.group(1).lower())
        if binary is not None:  # 100kb for 102400: kB and MB are written for KiB and MiB as often as not
            out.append(value * binary)
    # A small whole number (60 s as 1 minute) is in most code for other reasons.
    return [v for v in out if v >= 10 or not v.is_integer()]


_SERIES_ITEM = r"\d+(?:\.\d+)?(?:\s*[A-Za-z\u00b5]+)?"
#: A series a claim extrapolates: ``300 ms, 600 ms, 1200 ms ...``, ``1, 2, 4, 8, etc.``
_SERIES = re.compile(rf"(?<![\w.]){_SERIES_ITEM}(?:\s*,\s*{_SERIES_ITEM}){{2,}}\s*,?\s*(?:\.\.\.|…|etc\b|and so on)")


def _in_series(value: float, ctx: _Context) -> bool:
    """Whether ``value`` is a later item of a series the claim extrapolates
    (``300 ms, 600 ms, 1200 ms ...``) whose first item binds and whose step,
    the ratio or the difference of every two neighbours, is a number the
    code writes: the code computes the series, the claim shows it."""
    for m in _SERIES.finditer(ctx.claim):
        items = [(float(n.group(1)), n.group(0)) for n in
                 re.finditer(r"(\d+(?:\.\d+)?)(?:\s*[A-Za-z\u00b5]+)?", m.group(0))]
        values = [v for v, _ in items]
        if value not in values[1:] or 0 in values:
            continue
        ratios = {round(b / a, 9) for a, b in itertools.pairwise(values)}
        steps = {round(b - a, 9) for a, b in itertools.pairwise(values)}
        step = next(iter(ratios)) if len(ratios) == 1 else next(iter(steps)) if len(steps) == 1 else None
        first, written = items[0]
        number = re.match(r"\d+(?:\.\d+)?", written)
        if step is None or step not in ctx.index.numbers or number is None:
            continue
        if len(ratios) != 1 and step == 1 and first in (0, 1):
            continue  # 1, 2, 3...: counting, which every code's 1 would bind; the claim's numbering is its point
        if first in ctx.index.numbers or any(v in ctx.index.numbers
                                             for v in in_other_units(first, number.group(0), written)):
            return True
    return False


def _falsy(text: str, ctx: _Context) -> bool:
    """Whether the claim says a value the code tests for falsiness is zero
    ("``listenerCount('error')`` is 0" where the code writes
    ``!this.listenerCount('error')`` or ``not len(x)``)."""
    for m in re.finditer(rf"([A-Za-z_$][\w$]*)\s*(?:\([^()]*\))?`?\s*(?:is|==|===|equals)\s*{re.escape(text)}(?![\w$]|\.\d)",
                         ctx.claim):
        name = re.escape(m.group(1))
        if any(re.search(rf"(?:!\s*|\bnot\s+)(?:[\w$]+\s*\.\s*)*{name}(?![\w$])", code)
               for _, code in ctx.index.code_texts):
            return True
    return False


def _stepped(value: float, text: str, ctx: _Context) -> bool:
    """Whether ``value`` is what the claim computes from a number of the
    code ("default 9229 -> 9230" beside "port+1"): written after an arrow
    from that number, the step an operation the claim and the code both
    write (``+1``, ``+ 1``)."""
    for m in re.finditer(rf"(\d+(?:\.\d+)?)\s*(?:->|\u2192|=>)\s*{re.escape(text)}(?![\w$]|\.\d)", ctx.claim):
        start = float(m.group(1))
        if start not in ctx.index.numbers:
            continue
        for op in re.finditer(r"(?<=[\w$)\]])\s*([+*-])\s*(\d+(?:\.\d+)?)\b", ctx.claim):
            sign, step = op.group(1), float(op.group(2))
            result = start + step if sign == "+" else start - step if sign == "-" else start * step
            if result == value and ctx.index.has_sequence(f"{sign} {op.group(2)}", code=True):
                return True
    return False


#: What joins an expression to the number it works out to: "= 76", "keys, i.e. 64", "(~152 days)", "-> 30".
_WORKS_OUT = re.compile(r"`?(?:\s+[a-z]+){0,2}?(?:\s*(?:=|\u2248|->|\u2192|\bi\.e\.,?|\bso\b|\bthat's\b|\bor\b|\(|~|,)\s*)+$")


def _computed_by_claim(value: float, text: str, ctx: _Context) -> bool:
    """Whether the claim writes ``value`` as what an arithmetic expression right before it works out
    to ("``_MAX_SIZE / 2`` keys, i.e. 64", "5 * 365 / 12 (~152 days)"), the expression's names
    constants the code computes and its numbers the code's: the claim's own arithmetic, checked.
    A value written as approximate ("~152", "about") may be the result rounded."""
    known = ctx.index.constants
    for m in re.finditer(rf"(?<![\w.$]){re.escape(text)}(?![\w$]|\.\d)", ctx.claim):
        before = ctx.claim[max(0, m.start() - 80):m.start()]
        joint = _WORKS_OUT.search(before)
        if joint is None:
            continue
        head = before[:joint.start()].replace("`", "")
        approximate = "~" in joint.group(0) or re.search(r"\b(?:about|roughly|around)\s*$", head) is not None
        for start in (i for i in range(len(head)) if i == 0 or not (head[i - 1].isalnum() or head[i - 1] in "_.")):
            expr = head[start:].strip()
            if not re.search(r"[\w)]\s*[-+*/]\s*[\w(]|<<", expr):
                continue
            names = re.findall(r"[A-Za-z_]\w*", expr)
            numbers = [float(n) for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?", expr)]
            if any(n not in known for n in names) or not all(n in ctx.index.numbers for n in numbers):
                continue
            got = arithmetic(expr, known)
            if got is not None and (got == value or (approximate and abs(got - value) <= max(1.0, abs(value) / 100))):
                return True
    return False


def _bit_width(value: float, text: str, ctx: _Context) -> bool:
    """``32-bit``, ``64 bits``: a width the code writes as a type (``int32``,
    ``Uint32Array``) or as a bound (``2**31 - 1``, ``0xFFFFFFFF``, ``2_147_483_647``),
    or the platform the claim speaks of ("on a 64-bit target"); any width in bits the claim
    also gives in bytes where the code writes that number ("8 (bytes of a 64-bit hash)")."""
    if not re.search(rf"(?<![\w.$]){re.escape(text)}\s*-?\s*bits?\b", ctx.claim, re.I) \
            or not value.is_integer() or value < 1:
        return False
    n = int(value)
    if n % 8 == 0 and float(n // 8) in ctx.index.numbers \
            and re.search(rf"(?<![\w.]){n // 8}\s*\(?\s*bytes?\b", ctx.claim, re.I):
        return True  # "8 (bytes of a 64-bit hash)": the claim gives the size in bytes too, and the code writes it
    if n > 128:
        return False
    if n in (16, 32, 64) and re.search(rf"\b(?:on|for)\s+(?:an?\s+)?{n}\s*-?\s*bits?(?:\s+(?:targets?|platforms?|"
                                       r"systems?|machines?|hosts?|architectures?|builds?))?(?![\w-])", ctx.claim, re.I):
        return True  # "on a 64-bit target": the platform the claim speaks of, not a value of the code
    bounds = {float(2 ** n), float(2 ** n - 1), float(2 ** (n - 1)), float(2 ** (n - 1) - 1)}
    return bool(bounds & ctx.index.numbers) or any(
        re.fullmatch(rf"[A-Za-z]+{n}[A-Za-z]*", w) is not None for w in ctx.index.words if not w.isdigit())


def _byte_count(value: float, text: str, ctx: _Context) -> bool:
    """``N-byte`` before a string the claim quotes that the code writes and that is ``N`` bytes long
    ("the 4-byte magic ``"xxh\\x06"``"); a size in bits is :func:`_bit_width`'s."""
    if not value.is_integer() or value < 1:
        return False
    n, claim = int(value), ctx.claim
    for m in re.finditer(rf"(?<![\w.$]){re.escape(text)}\s*-?\s*bytes?\b", claim, re.I):
        quoted = re.match(r"""[^"'`\n]{0,40}?[`]?(["'])((?:\\.|(?!\1).)*)\1""", claim[m.end():])
        if quoted is None:
            continue
        try:
            content = quoted.group(2).encode("latin-1", "backslashreplace").decode("unicode_escape")
        except UnicodeDecodeError:
            continue
        if len(content.encode("utf-8")) == n and _unescape(quoted.group(2)) in ctx.index.strings():
            return True
    return False


#: Go's standard interfaces by their methods (all of them), and the functions of ``errors`` a type
#: works with by one of its methods: Go implements an interface by defining its methods, nothing more.
_GO_INTERFACES: dict[str, tuple[tuple[str, ...], bool]] = {
    "fmt.Stringer": (("String",), True), "fmt.Formatter": (("Format",), True),
    "fmt.GoStringer": (("GoString",), True), "encoding.TextMarshaler": (("MarshalText",), True),
    "encoding.TextUnmarshaler": (("UnmarshalText",), True), "encoding.BinaryMarshaler": (("MarshalBinary",), True),
    "encoding.BinaryUnmarshaler": (("UnmarshalBinary",), True), "json.Marshaler": (("MarshalJSON",), True),
    "json.Unmarshaler": (("UnmarshalJSON",), True), "sql.Scanner": (("Scan",), True),
    "driver.Valuer": (("Value",), True), "io.Reader": (("Read",), True), "io.Writer": (("Write",), True),
    "io.Closer": (("Close",), True), "io.ReaderFrom": (("ReadFrom",), True), "io.WriterTo": (("WriteTo",), True),
    "sort.Interface": (("Len", "Less", "Swap"), True), "http.Handler": (("ServeHTTP",), True),
    "flag.Value": (("String", "Set"), True), "errors.Is": (("Unwrap", "Is"), False),
    "errors.As": (("Unwrap", "As"), False), "errors.Unwrap": (("Unwrap",), True),
}


def _bind_path(term: Term, ctx: _Context) -> tuple[bool, str]:
    text = term.text
    index = ctx.index
    if index.has_name(text) or index.has_sequence(text) or ctx.exists(term):
        return True, ""
    listed = re.sub(r"/?(?:\.\.\.|…)$", "", text)
    if listed != text and re.search(r"\w$", listed) and "/" in listed:
        # probe_path/type/trait/..., crypto/rand, database/sql/driver...: the list goes on
        return _bind_path(Term(listed, TermKind.PATH), ctx)
    parts = text.split("/")
    if len(parts) > 2 and parts[-1].rstrip(".").lower() == "etc":
        parts = parts[:-1]  # Get/Post/etc: the list goes on
    if len(parts) > 2 and all(p.isalpha() and p.lower() in index.lower for p in parts):
        return True, ""  # get/post/put/delete: alternatives, each a word of the code
    if len(parts) > 2 and all(re.fullmatch(r"[a-z]+", p) for p in parts) and f"`{text}`" not in ctx.claim \
            and not any(index.has_word(p) or p in index.code_lower or index.has_string(p) for p in parts):
        return True, ""  # post/redirect/get: plain words joined by slashes, none a name of the code: prose
    if len(parts) >= 2 and all(re.fullmatch(r"[A-Za-z_$][\w$]*", p) for p in parts) and any(
            not p.isalpha() or not p.islower() for p in parts) and all(
            index.has_word(p) or p.lower() in index.lower or fold(p) in index.folded or index.has_string(p)
            or _digit_word(p, index) or ctx.exists(Term(p, TermKind.IDENTIFIER)) for p in parts):
        return True, ""  # make_context/invoke, Windows/OS2: names side by side, each a name the code says
    if len(parts) >= 2 and all(index.has_string(p) for p in parts):
        return True, ""  # 1/true/yes/on: values side by side, each a string the code writes
    if len(parts) >= 2 and all(p.lower() in index.modules for p in parts):
        return True, ""  # on-headers/on-finished: packages the anchored file imports, side by side
    if len(parts) >= 2 and not ctx.exists(Term(parts[0], TermKind.PATH)) and _alternatives(parts, ctx):
        return True, ""  # UTF-8/strict, errors.Is/As, responseType/content-type: values side by side
    if text.startswith("~/"):  # ~/.config/<app>: the code expands the part before the placeholder
        head = re.split(r"/?<", text, maxsplit=1)[0].rstrip("/")
        if head and (index.has_string(head) or index.has_sequence(head, code=True)):
            return True, ""
        rest = text[2:].strip("/")
        if any(s.startswith("~/") for s in index.strings()) and rest and all(
                index.has_string(part) or index.has_word(part.lstrip(".")) for part in rest.split("/")):
            return True, ""  # ~/.netrc of expanduser(f"~/{name}") over NETRC_FILES = (".netrc", ...)
        if rest and _home_joined(rest, index):
            return True, ""  # ~/.cache/giget for resolve(homedir(), ".cache/giget")
    if _ELLIPSIS.match(text) and all(w.lower() in ctx.examples for w in re.findall(r"[A-Za-z0-9]+", text)):
        return True, ""  # .../v1/users: the end of the claim's example address
    if text.startswith("./") and "/" not in text[2:] and index.has_string(text[2:]):
        return True, ""  # ./acronyms.json of filepath.Join(pwd, "acronyms.json"): a relative name is in the cwd
    return False, _nearest_word(text, {n for n in index.names if "/" in n})


#: The user's home directory, as code asks for it.
_HOME = re.compile(r"\b(?:homedir|home_dir|UserHomeDir)\s*\(|\bPath\.home\s*\(|\bexpanduser\s*\(\s*[\"']~[\"']\s*\)")


def _home_joined(rest: str, index: _Index) -> bool:
    """Whether the code joins the home directory it asks for (``homedir()``, ``Path.home()``,
    ``os.UserHomeDir()``) with ``rest`` as one string (``".cache/giget"``) or its segments as strings
    in order (``".cache", "giget"``), on one line."""
    segments = rest.split("/")
    quoted = r"\s*,\s*".join(rf"[\"'`]{re.escape(s)}[\"'`]" for s in segments)
    whole = re.compile(rf"[\"'`]{re.escape(rest)}[\"'`]")
    for _, code in index.code_texts:
        for line in code.splitlines():
            if _HOME.search(line) and (whole.search(line) or re.search(quoted, line)):
                return True
    return False


def _alternatives(parts: Sequence[str], ctx: _Context) -> bool:
    """Whether ``parts`` (a term split at its slashes) are values of the
    code side by side, at least one of them more than a plain word: each a
    string the code writes (in any case), a name it says or a dotted name it
    has, a bare part after a dotted one completing its qualifier
    (``errors.Is/As``: ``errors.As``)."""
    index = ctx.index
    if not all(re.fullmatch(r"[A-Za-z_$][\w$]*(?:[-.][A-Za-z0-9_$]+)*", p) for p in parts) \
            or all(p.isalpha() and p.islower() for p in parts):
        return False
    qualifier = parts[0].rpartition(".")[0]

    def said(part: str) -> bool:
        if "." in part:
            return index.has_string(part) or _bind_dotted(Term(part, TermKind.DOTTED), ctx)[0]
        if "-" in part:
            return index.has_string(part) or index.has_sequence(part, code=True)
        return (index.has_word(part) or part.lower() in index.code_lower or index.has_string(part)
                or (bool(qualifier) and said(f"{qualifier}.{part}")))

    return all(said(p) for p in parts)


_EXAMPLE_HOST = re.compile(r"(?<![\w.-])(?:[\w-]+\.)*(?:example\.(?:com|org|net)|[\w-]+\.(?:example|test|invalid))"
                           r"(?![\w-])")


def _examples(claim: str) -> frozenset[str]:
    """The words of the example hosts and addresses a claim gives
    (``tobi.ferrets.example.com``, ``https://user:pass@host/``) and of the
    values it quotes in an example aside ("(e.g. 'bytes')"): a value made
    of them is part of the example, not a value of the code."""
    found = [m.group(0) for m in _EXAMPLE_HOST.finditer(claim)]
    found += [m.group(0) for m in _URL.finditer(claim) if _illustrative(m.group(0))]
    if found:  # the paths a claim joins to its example address ('/users') are the example's too
        found += re.findall(r"(?<![\w])[\"'](/[\w.~/-]*)[\"']", claim)
    # a value quoted in an example aside: "'<qualname>' (e.g. 'bytes')"
    for m in _EXAMPLE_ASIDE.finditer(claim):
        found += [a or b for a, b in re.findall(r"(?<![\w])'([^'\n]+)'|\"([^\"\n]+)\"", m.group(0))]
    return frozenset(w.lower() for text in found for w in re.findall(r"[A-Za-z0-9]+", text))


def _illustrative(text: str) -> bool:
    """An example address: a host reserved for examples (``example.com``,
    ``*.test``), an ellipsis (``https://...``) or a bare placeholder word
    with no port (``user:pass@host``)."""
    m = re.match(r"[a-z]+://(?:[^@/\s]*@)?([^/:?#\s]+)(:\d+)?", text)
    if m is None:
        return False
    host = m.group(1).lower()
    if not host.strip(".…"):
        return True  # https://...: any address
    return (re.search(r"(?:^|\.)example\.(?:com|org|net)$|\.(?:example|test|invalid)$", host) is not None
            or (re.fullmatch(r"[a-z]+", host) is not None and host != "localhost" and m.group(2) is None))


#: The standard reason phrases of HTTP status codes (from the standard library's table).
_REASON_PHRASES = frozenset(status.phrase.lower() for status in http.HTTPStatus)
#: Names of the tables code looks reason phrases up in: ``statuses.message``, ``STATUS_CODES``, ``HTTPStatus``.
_STATUS_TABLES = frozenset({"statuses", "status_codes", "httpstatus", "reason_phrase", "get_reason_phrase",
                            "responses"})


def _bind_string(term: Term, ctx: _Context) -> tuple[bool, str]:
    text = term.text
    index = ctx.index
    if (_ELLIPSIS.search(text) and not _ELLIPSIS.sub("", text).strip(" .")) or _wild_text(text).strip() == _WILD:
        return True, ""  # "..." or "<string>": nothing said (a lone "." or " " is a value: a separator)
    trimmed = re.sub(r"^\s*(?:\.\.\.|…)\s*|\s*(?:\.\.\.|…)\s*$", "", text)
    if trimmed != text and not _ELLIPSIS.search(trimmed) and _bind_string(Term(trimmed, term.kind), ctx)[0]:
        return True, ""  # "support functions with keyword only arguments ...": an excerpt, the rest left out
    joined = any(_JOINED_WITH.search(before) for before in _lead_ins(text, ctx.claim))
    separators = _join_separators(index) if joined else set()
    if separators:
        # "joins with ", " (comma + space)" where the code joins with ",": a separator is compared as written
        return text in separators, next(iter(separators))
    single = len(code_tokens(text)) == 1 and bool(re.search(r"\w", text))  # a word, not '<'
    if _CASE_SAID.match(ctx.claim, _after(ctx.claim, text)) or _CASE_BEFORE.search(ctx.claim[:_before(ctx.claim, text)]):
        # 'utf-8' (lowercase), 'kB' (lower-case k), upper-case: 'FFFF': the case is what the claim says, so it
        # must be the code's
        return text in index.strings(), _nearest_string(text, index)
    for letter in _CASE_LETTER.findall(ctx.claim):
        # "KB (uppercase K), e.g. "1.5 KB"": the words holding the letter keep their case
        cased = [w for w in re.findall(r"\w+", text) if letter.lower() in w.lower()]
        if cased and not all(any(re.search(rf"(?<![^\W\d_]){w}(?![^\W\d_])", s) for s in index.strings())
                             for w in cased):
            return False, _nearest_string(text, index)
    dot = text == "."  # a period alone is a string the code writes, not the dot of every member access
    if (index.has_sequence(text, code=True) and not single and not dot) or index.has_string(text) \
            or (single and _in_string(text, index)) or _template_binds(text, ctx):
        return True, ""  # X-Real-IP ~ 'x-real-ip': a header is a string in any case
    if text.endswith("(s)") and len(text) > 3 and any(_bind_string(Term(form, term.kind), ctx)[0]
                                                       for form in (text[:-3], text[:-3] + "s")):
        return True, ""  # 'month(s)': 'month' or 'months', as the code writes either
    if index.accepts(text):
        return True, ""  # '2 Days' where the code parses /^(?<value>...) *(?<unit>...|days?|...)?$/i: an input it reads
    if _joined_literals(trimmed, index, excerpt=trimmed != text):
        return True, ""  # "Markdown renderers are not available. Install ..." of two literals written side by side
    if _joined_message(text, index):
        return True, ""  # "Disallowed CORS origin, method" of "Disallowed CORS " + ", ".join(failures)
    if _message_head(text, index):
        return True, ""  # "Did you mean" of "Did you mean {possibility}?": the fixed words a message starts with
    if _format_suffix(text, index):
        return True, ""  # "th" of fmt.Sprintf("%dth", number): the fixed text a format ends with, after its field
    if text.lower() in _REASON_PHRASES and index.code_lower & _STATUS_TABLES:
        return True, ""  # 'Not Found' where the code looks the phrase up: statuses.message[code]
    if STANDARD_HEADER.fullmatch(text) and (index.has_sequence(text, fold=True) or ctx.exists(term)):
        return True, ""  # Content-Type: set through helpers and constants; named in prose wherever the project says it
    words = re.findall(r"[A-Za-z0-9]+", text)
    if words and all(w.lower() in ctx.examples for w in words):
        return True, ""  # 'ferrets' of "for tobi.ferrets.example.com, subdomains is ['ferrets', 'tobi']"
    if _formatted_example(text, index) and all(index.has_word(w) for w in _CODE_SHAPED.findall(text)):
        # "unknown shorthand flag: 'x' in -axb" of "unknown shorthand flag: %q in -%s", filled with example
        # values; a field filled with a name of code the anchored code never says ("TTLCache is empty" of
        # "%s is empty" % type(self).__name__ in LRUCache) is another thing's message
        return True, ""
    owner = _named_beside(text, ctx.claim)
    if owner and ctx.exists(Term(text, TermKind.STRING, owner)):
        return True, ""  # MalformedStringEscapeError ("Encountered an invalid ..."): that name's message
    return False, _nearest_string(text, index)


#: A word shaped like a name of code: an inner capital or underscore (``TTLCache``, ``maxAge``, ``max_age``).
_CODE_SHAPED = re.compile(r"\b(?=\w*[a-z])(?=\w*(?:[a-z][A-Z]|[A-Z]{2}[a-z]|[a-z]_[a-z]))\w+\b")
#: A name, or a path of names (``ErrZeroLength``, ``ErrorKind::ParseOther``, ``errors.NotFound``).
_CODE_NAME = re.compile(r"[A-Za-z_]\w*(?:(?:::|\.)[A-Za-z_]\w*)*")


def _named_beside(text: str, claim: str) -> str:
    """The name the claim writes ``text`` beside as its message (``ErrX ("msg")``, ``ErrX: "msg"``,
    ``ErrX -> "msg"``) when it is written as code: a capital or an underscore past its first letter,
    or a path of names; a plain word ("panics", "version") is none. Else ''."""
    m = re.search(rf"(?<![\w.:])(?P<n>{_CODE_NAME.pattern})`?\s*(?:\(\s*|:\s*|->\s*|=>\s*|\u2192\s*)?"
                  rf"[\"'`]{re.escape(text)}", claim)
    if m is None:
        return ""
    name = m.group("n")
    last = re.split(r"::|\.", name)[-1]
    return name if re.search(r"[A-Z_]", last[1:]) or re.search(r"::|\.", name) else ""


def _joined_literals(text: str, index: _Index, *, excerpt: bool) -> bool:
    """Whether ``text`` is a message the code writes as literals joined with
    nothing in between (``"a " "b"``, ``"a " + "b"``): the whole message, as
    written, or, for an excerpt (``...`` at an end), a stretch of it of
    twelve characters or more."""
    said = " ".join(text.split())
    if len(said) < 4 or (excerpt and len(said) < 12):
        return False
    for template in index.templates():
        if _WILD in template:
            continue
        joined = " ".join("".join(template).split())
        if joined == said or (excerpt and said in joined):
            return True
    return False


def _nearest_string(text: str, index: _Index) -> str:
    """The string literal of the code (eighty characters at most) nearest ``text``, for a message."""
    return _nearest_word(text, {s for s in index.strings() if 0 < len(s) <= 80})


#: A remark on a string's case right after it: "'utf-8' (lowercase)", "'kB' (lower-case k, like SI)".
_CASE_SAID = re.compile(r"""['"`]?(?:\s+[\w-]+){0,3}\s*\(\s*(?:all\s+|in\s+)?(?:lower|upper)[\s-]?case\b""", re.I)


#: A remark on the case of the string right after it: "upper-case: 'FFFF-...'", "in lowercase, 'utf-8'".
_CASE_BEFORE = re.compile(r"\b(?:all\s+|in\s+)?(?:lower|upper)[\s-]?case[d]?\s*[:,]?\s*$", re.I)
#: A remark on one letter's case: "KB (uppercase K)", "(lower-case k)": the letter.
_CASE_LETTER = re.compile(r"\(\s*(?:lower|upper)[\s-]?case\s+([A-Za-z])\b", re.I)


#: What a claim says right before a separator: "joins with ', '", "joined by '|'", "separated by ';'".
_JOINED_WITH = re.compile(r"\b(?:joins?|joined|joining|separate[sd]?|separating|delimited|concatenate[sd]?)"
                          r"(?:\s+(?:them|it|the\s+\w+|each|all))?\s+(?:with|by|using|on)\s+(?:a\s+)?[\"'`]$", re.I)


def _join_separators(index: _Index) -> set[str]:
    """The separators the code joins with: ``strings.Join(x, ",")``, ``", ".join(x)``, ``a.join(" | ")``."""
    out = set()
    for _, code in index.code_texts:
        for m in re.finditer(r"""\b(?:strings|bytes)\.Join\s*\([^,()]*(?:\([^()]*\))?[^,()]*,\s*("(?:\\.|[^"\\])*")\s*\)"""
                             r"""|("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')\s*\.\s*join\s*\("""
                             r"""|\.\s*join\s*\(\s*("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')\s*\)""", code):
            literal = m.group(1) or m.group(2) or m.group(3)
            content = _string_content(literal)
            out.add(content if re.search(r"\\[nrt]", content) else _unescape(content))  # '\n' as written
    return out


def _before(claim: str, text: str) -> int:
    """Where the first quoted ``text`` of the claim starts (its opening quote not included), or 0."""
    m = re.search(rf"""['"`](?={re.escape(text)}['"`])""", claim)
    return m.start() if m else 0


def _after(claim: str, text: str) -> int:
    """Where the first quoted ``text`` of the claim ends (its closing quote not included), or the
    claim's length when the claim does not quote it."""
    m = re.search(rf"""['"`]{re.escape(text)}(?=['"`])""", claim)
    return m.end() if m else len(claim)


def _in_string(text: str, index: _Index) -> bool:
    """Whether the one word ``text`` is a word of a string literal the code writes."""
    pattern = re.compile(rf"(?<![\w$]){re.escape(text)}(?![\w$])", re.IGNORECASE)
    return any(pattern.search(s) for s in index.strings())


def _message_head(text: str, index: _Index) -> bool:
    """Whether ``text`` (two words or more) is the fixed text a message the
    code formats starts with, up to its first field ("Did you mean" of
    ``"Did you mean {possibility}?"``)."""
    text = text.strip()
    if len(re.findall(r"[A-Za-z]+", text)) < 2:
        return False
    return any(_WILD in code and "".join(code[:code.index(_WILD)]).strip() == text for code in index.templates())


def _format_suffix(text: str, index: _Index) -> bool:
    """Whether ``text`` (two characters or more, a letter among them) is the whole fixed text a format the
    code writes ends with, after its last field (``th`` of ``"%dth"``, ``" items"`` of ``"{} items"``)."""
    if len(text) < 2 or not re.search(r"[A-Za-z]", text):
        return False
    return any(_WILD in code and "".join(code[len(code) - code[::-1].index(_WILD):]) == text
               for code in index.templates())


def _joined_message(text: str, index: _Index) -> bool:
    """Whether ``text`` is a message the code builds from a string and other
    parts (``"Disallowed CORS " + ", ".join(failures)``): it starts with that
    string's text (eight characters or more), and the rest is made of strings
    and words the same code writes (``origin``, ``method``)."""
    heads = {"".join(code[:code.index(_WILD)]) for code in index.templates() if _WILD in code}
    for head in heads | set(index.strings()):
        if len(head.strip()) < 8 or not text.startswith(head) or len(text) == len(head):
            continue
        if head not in heads and not _concatenated(head, index):
            continue  # 'GET,HEAD,...,DELETE' is a whole value: the code adds nothing to it
        rest = [w for w in re.split(r"[\s,;/|]+|\band\b|\bor\b", text[len(head):]) if w]
        if rest and all(index.has_string(w) or w.lower() in index.code_lower for w in rest):
            return True
    return False


#: The claim says a comment says it: "per the TODO comment about ~200ns", "the docstring says 3".
_COMMENT_SAYS = re.compile(r"\b(?:comments?|docstrings?|TODO|FIXME|XXX|doc comments?)\b(?:(?![.;]\s).)*$")


#: A reader's exception handler: Python's ``except A:`` / ``except (A, B) as e:``, JavaScript's
#: ``catch (e) { if (e instanceof A) ... }``.
_EXCEPT = re.compile(r"except\s+\(?\s*([\w.]+(?:\s*,\s*[\w.]+)*)\s*\)?(?:\s+as\s+\w+)?\s*:?(?:\s*(?:\.\.\.|pass))?")
_CATCH = re.compile(r"catch\s*\(\s*\w+\s*\)\s*\{.*?\binstanceof\s+([\w.]+).*", re.S)


def _handler(text: str, index: _Index) -> bool:
    """Whether ``text`` is a reader's handler of exceptions the anchored
    code names (``except TimeoutError:`` where ``class
    Timeout(TimeoutError)``): the classes are the code's words; the handler,
    what it catches and why, the claim's to say and the bases rule's to check."""
    m = _EXCEPT.fullmatch(text.strip()) or _CATCH.fullmatch(text.strip())
    return m is not None and all(index.has_word(name.strip().rsplit(".", 1)[-1]) for name in m.group(1).split(","))


def _imports_anchored_package(text: str, index: _Index) -> bool:
    """Whether ``text`` is a Go import of the package an anchored Go file is
    in: the import path ends with that file's folder (``import _
    "github.com/joho/godotenv/autoload"`` for ``autoload/autoload.go``)."""
    m = re.fullmatch(r'import\s+(?:[\w.]+\s+)?"([\w./-]+)"', text.strip())
    if m is None:
        return False
    paths = (ev.label.split("::", 1)[0] for ev in index.texts)
    folders = {path.rsplit("/", 1)[0] for path in paths if "/" in path and path.endswith(".go")}
    return any(m.group(1).endswith("/" + folder) for folder in folders)


def _command_line(text: str, index: _Index) -> bool:
    """Whether ``text`` is a command line of the anchored program: its name
    is a folder or file of the anchored path (``cmd/godotenv/cmd.go`` runs
    as ``godotenv``), and each option it passes is one the anchored code
    declares as a string (``flag.BoolVar(&overload, "o", ...)``,
    ``"--dry-run"``), or it names a subcommand the anchored code defines
    (``dotenv run`` for click's ``@cli.command() def run``); its other
    words are the reader's arguments."""
    words = text.split()
    if len(words) < 2 or not re.fullmatch(r"[a-z][\w.-]*", words[0]):
        return False
    programs = {part for ev in index.texts for part in re.split(r"[/.]", ev.label.split("::", 1)[0])}
    options = [w for w in words[1:] if OPTION.fullmatch(w.split("=", 1)[0])]
    # `dotenv run`: a subcommand the anchored code defines as one (click's @cli.command(), argparse's add_parser)
    subcommand = bool(index.definitions(words[1])) and any(
        re.search(rf"@[\w.]*\.command\b(?:(?!\bdef\b).)*\bdef\s+{re.escape(words[1])}\b"
                  rf"|add_parser\(\s*[\"']{re.escape(words[1])}[\"']", code, re.S) for _, code in index.code_texts)
    if words[0] not in programs or not (options or subcommand):
        return False
    declared = {s.strip() for s in index.strings()}
    return all(o.split("=", 1)[0] in declared or o.split("=", 1)[0].lstrip("-") in declared for o in options)


def _parsed_input(text: str, index: _Index) -> bool:
    """Whether ``text`` is an input written in the notation the anchored
    code parses: capitals no code says stand for the reader's names
    (``FOO``), lower-case words it does not say are the reader's values
    (``bar``, after a name), and each of its marks and keywords is a
    character or string literal the code tests for (``case '=', ':'``; ``exportPrefix = "export"``):
    ``export FOO=bar``, ``FOO: bar``."""
    words = index.code_words()
    tokens = re.findall(r"[A-Za-z_]\w*|\S", text)
    caps = [t for t in tokens if re.fullmatch(r"[A-Z][A-Z0-9_]*[A-Z0-9]", t) and t not in words]
    marks = [t for t in tokens if not re.fullmatch(r"\w+", t)]
    if not caps or not marks:
        return False
    strings = set(index.strings())
    first = tokens.index(caps[0])
    for at, token in enumerate(tokens):
        if token in caps or (token in strings and _reads_literal(token, index)):
            continue
        if at > first and re.fullmatch(r"[a-z][a-z0-9]*", token) and token not in words:
            continue  # the reader's value, after the name it is given to: `bar`
        return False  # a keyword of the notation (`declare FOO=bar`) or a mark the code does not test for
    return True


#: Calls that look for a piece of their input: ``HasPrefix(src, "export")``, ``line.split(":")``.
_SEEKS = (r"(?:split|Split\w*|index|Index\w*|indexOf|lastIndexOf|HasPrefix|HasSuffix|startswith|endswith|"
          r"startsWith|endsWith|TrimPrefix|TrimSuffix|TrimLeft|TrimRight|Cut|partition|rpartition|find|rfind|"
          r"includes|contains|Contains\w*|strip|lstrip|rstrip|removeprefix|removesuffix)")


def _reads_literal(content: str, index: _Index) -> bool:
    """Whether the code tests its input for the literal ``content``: a
    ``case`` of it, a comparison with it, a call that looks for it
    (``split``, ``HasPrefix``), directly or through a constant it is
    assigned to (``exportPrefix = "export"``). A literal the code only
    writes (``methods.join(',')``) is its output's, not its input's."""
    lit = _quoted(content)
    tests = [rf"\bcase\s+(?:[^:\n]*,\s*)?(?:{lit})", rf"(?:==|!=)=?\s*(?:{lit})", rf"(?:{lit})\s*(?:[!=]==?|in\b)",
             rf"\b{_SEEKS}\s*\([^;\n]*?(?:{lit})"]
    codes = [code for _, code in index.code_texts]
    if any(re.search(t, code) for t in tests for code in codes):
        return True
    names = {m.group(1) for code in codes for m in re.finditer(rf"([A-Za-z_]\w*)\s*:?=\s*(?:{lit})", code)}
    return any(re.search(rf"\b{_SEEKS}\s*\([^;\n]*?\b{re.escape(n)}\b", code) for n in names for code in codes)


def _in_comment_text(text: str, index: _Index) -> bool:
    """Whether the anchored text (comments included) says ``text``, spaces aside (``~200ns`` of ``~200 ns``)."""
    bare = re.sub(r"\s+", "", text)
    return len(bare) >= 2 and any(bare in re.sub(r"\s+", "", ev.text) for ev in index.texts)


def _metavariables(text: str, ctx: _Context) -> bool:
    """Whether ``text``, its all-capital words that no code of the anchors
    says standing for any text (``KEY="VALUE"``, ``PORT=8080``: the usual
    way to write a shape), matches a string the code formats."""
    words = ctx.index.code_words() | {m.group(0) for m in _CAPITALS.finditer(text)  # FFFF: hex digits, a value
                                      if len(m.group(0)) >= 4 and re.fullmatch(r"[A-F0-9]+", m.group(0))}
    if not any(m.group(0) not in words for m in _CAPITALS.finditer(text)) \
            or not re.search(r"[^\w\s]", _CAPITALS.sub("", text)):
        return False  # `BEGIN IMMEDIATE`: words, no shape around them
    wild = _CAPITALS.sub(lambda m: f"<{m.group(0).lower()}>" if m.group(0) not in words else m.group(0), text)
    return _template_binds(wild, ctx)


#: A word in capitals, two letters or more: ``KEY``, ``PORT``, ``FOO``.
_CAPITALS = re.compile(r"(?<![\w$<])[A-Z][A-Z0-9]*[A-Z](?![\w$>])")


def _sibling_file(name: str, index: _Index) -> bool:
    """Whether the anchored code writes another file name of ``name``'s
    family (``".env"`` for a claim's ``.env.local``): the claim then says
    which of them the code uses, a value to find, not a file named as context."""
    family = name.split(".")[1]
    return any(s != name and re.fullmatch(r"\.[\w-]+(?:\.[\w-]+)*", s) and s.split(".")[1] == family
               for s in index.strings())


def _quoted(content: str) -> str:
    """A pattern for ``content`` written as a string literal in any of the quotes code uses."""
    return "|".join(re.escape(q + content + q) for q in "\"'`")


def _concatenated(content: str, index: _Index) -> bool:
    """Whether the code joins the string literal ``content`` to something
    else: ``"Disallowed CORS " + ...``, ``... + ": " + x``."""
    quoted = _quoted(content)
    pattern = re.compile(rf"(?:{quoted})\s*\+|\+\s*(?:{quoted})")
    return any(pattern.search(code) for _, code in index.code_texts)


#: Go's type arguments of a generic function at a call: ``New[K, V](size)``.
_GO_INSTANTIATION = re.compile(r"(?<=[\w])\[(?:[A-Za-z_*][\w.*\[\]]*\s*,\s*)*[A-Za-z_*][\w.*\[\]]*\](?=\()")


#: A format field a number fills: ``%d``, ``%05d``, ``%x``, ``{:05d}``, ``{number:05d}``, and an
#: untyped ``{}``, ``{0}``, ``{n}`` (Rust's, Python's ``format``).
_NUMBER_FIELD = re.compile(r"%[-+ #0]*\d*(?P<p>[diuxX])|\{[\w.]*:[#0]*\d*(?P<b>[dxXbo])\}|\{[\w.]*\}")


def _numbered_instance(text: str, index: _Index) -> bool:
    """Whether ``text`` is a string the code formats with its number fields
    filled by numbers and every other character as written: ``q00000`` of
    ``f"q{number:05d}"``, ``Stream<id=3, weight=8>`` of ``"Stream<id=%d,
    weight=%d>"``, ``'_26`` of ``"'_{}"``. A field takes digits only (hex
    digits for ``x``), so the example is the code's own output."""
    if not re.search(r"\d", text) or len(text) > 200:
        return False
    return any(p.fullmatch(text) for p in index.numbered())


def _number_template(content: str) -> re.Pattern[str] | None:
    """The output of a string with number fields as a pattern (each field digits, hex digits for
    ``x``; every other character as written), or None: no number field, another field after the
    last, too long, or too few characters of the code's own (a letter, or two others: `'_` of
    "'_{}"; never "{}.{}" alone)."""
    if ("%" not in content and "{" not in content) or len(content) > 200:
        return None
    pattern, pos, literal = "", 0, ""
    for m in _NUMBER_FIELD.finditer(content):
        kind = m.group("p") or m.group("b") or "d"
        pattern += re.escape(content[pos:m.start()]) + ("-?[0-9a-fA-F]+" if kind in "xX" else "-?\\d+")
        literal += content[pos:m.start()]
        pos = m.end()
    literal += content[pos:]
    if not pattern or "{" in content[pos:] or "%" in content[pos:]:
        return None
    if not (re.search(r"[A-Za-z]", literal) or len(literal.strip()) >= 2):
        return None
    return re.compile(pattern + re.escape(content[pos:]))


#: A tuple written out: ``(leaf.val, true)``, ``(key, value)``.
_TUPLE = re.compile(r"\(\s*([^()\[\]{}]+?,\s*[^()\[\]{}]+?)\s*\)")


#: One entry written the way an object literal or a header line writes it: ``secure: false``, ``content-length: 0``.
_ENTRY = re.compile(r"""([A-Za-z_$][\w$]*(?:-[\w$]+)*)\s*:\s+(true|false|null|None|True|False|-?\d+(?:\.\d+)?|'[^'\n]*'|"[^"\n]*")""")


def _object_written(text: str, index: _Index) -> bool:
    """Whether ``text`` is an object the code builds, written as its keys: ``{ status: "manual", url }`` of
    ``return { status: "manual", url: githubNewReleaseURL(config, release) }``. Each entry is a key the code
    says, alone (any value, as JavaScript's shorthand writes it) or with a literal the code writes after that
    key; one entry at least has its value."""
    m = re.fullmatch(r"\{\s*(.+?)\s*,?\s*\}", text.strip(), re.S)
    if m is None:
        return False
    valued = 0
    for item in (i.strip() for i in split_args(m.group(1))):
        if re.fullmatch(r"[A-Za-z_$][\w$]*", item):
            if not index.has_word(item):
                return False
        elif _ELLIPSIS.fullmatch(item) is None:
            if _ENTRY.fullmatch(item) is None or not index.has_sequence(item, code=True):
                return False
            valued += 1
    return valued > 0


def _bind_code(term: Term, ctx: _Context) -> tuple[bool, str]:
    """Code spans, addresses and versions: the tokens in order, in the code; ``...`` stands for anything."""
    text = term.text
    index = ctx.index
    if term.kind is TermKind.ADDRESS or (term.kind is TermKind.CODE and _URL.fullmatch(text)):
        if _illustrative(text):
            return True, ""  # `https://user:pass@host/`: an example address, backticked or not
        hostport = re.fullmatch(r"(.+):(\d{1,5})", text)
        if hostport and _HOSTPORT.fullmatch(text) and index.has_sequence(hostport.group(1), code=True) \
                and float(hostport.group(2)) in index.numbers:
            return True, ""  # 127.0.0.1:8000 for host="127.0.0.1", port=8000
    if _numbered_instance(text.strip(), index):
        return True, ""  # `Stream<id=3, weight=8>` of "Stream<id=%d, weight=%d>": a string the code formats, filled
    if _GENERIC_TYPE.fullmatch(text):
        if index.has_sequence(text, code=True):
            return True, ""
        if "rust" in index.languages and index.has_sequence(text.replace("<", "::<", 1), code=True):
            return True, ""  # `IdentifyDistinct<u32>` for `IdentifyDistinct::<u32>::new(...)`: the turbofish
        if term.kind is TermKind.CODE and _formatted_example(text, index):
            return True, ""  # RECURSIVE_COUNT_<Type> of format!("RECURSIVE_COUNT_{}", ...): a name the code builds
        return False, _nearest_line(text, index, lambda tok: tok[:1].isupper())
    if "go" in index.languages and term.kind is TermKind.CODE and _GO_INSTANTIATION.search(text):
        # `lru.New[K, V](size)`: a generic function and its type arguments, then the call
        plain = _GO_INSTANTIATION.sub("", text)
        assigned = re.match(r"\s*[A-Za-z_]\w*\s*:?=\s*", plain)  # `cache := ...`: the example's own variable
        plain = plain[assigned.end():] if assigned else plain
        if _CALL_HEAD.fullmatch(plain[:plain.index("(") + 1]) and balanced(plain, plain.index("(")) == len(plain):
            return _bind_call(Term(plain, TermKind.CALL), ctx)
    if term.kind is TermKind.CODE and "rust" in index.languages and _RUST_PATH.fullmatch(text) \
            and not _RUST_VARIANT.search(text) and _bind_dotted(Term(text, TermKind.DOTTED), ctx)[0]:
        # `StatusCode::from_u16`, `byteorder::BE`: a path, backticked, read as one in prose; a variant
        # (`VersionReq::Star`) is a value, found in the anchored code only
        return True, ""
    if "\\" in text and text.strip() in index.strings():
        return True, ""  # `\b\w+\b` for '\\b\\w+\\b': a pattern the code writes as a string, its escapes read
    spread = RUST_REST.sub("...", text) if "rust" in index.languages else text  # `Some(..)`: any arguments
    parts = [p for p in _ELLIPSIS.split(_PLACEHOLDER.sub("...", spread)) if p.strip()]
    if parts and all(index.has_sequence(p, code=True) for p in parts):
        return True, ""
    if not parts and text.strip():
        return True, ""
    if (_PLACEHOLDER.search(text) or _BRACE_FIELD.search(text)) and _template_binds(text, ctx):
        return True, ""  # `{parent prefix}_{INFO_NAME}`: the fields of a name the code formats
    tupled = _TUPLE.fullmatch(text.strip())
    if tupled and index.languages & {"go", "python"} and index.has_sequence(f"return {tupled.group(1)}", code=True):
        return True, ""  # `(nil, false)` for Go's `return nil, false`: the values a function returns, as a tuple
    if len(text.strip()) >= 4 and any(text.strip() in written for written in index.filled()):
        return True, ""  # `; samesite=strict` for "; samesite=" + (this.sameSite === true ? 'strict' : ...)
    if term.kind is TermKind.VERSION and _restated(text.strip(), ctx.claim):
        return True, ""  # 2628000 s (~30.4 days): the same time, restated in days
    tagged = re.fullmatch(r"v(\d+(?:\.\d+)+)", text.strip()) if term.kind is TermKind.VERSION else None
    if tagged and (index.has_string(tagged.group(1)) or index.has_sequence(tagged.group(1), code=True)):
        return True, ""  # v2.5.0 for `version = 2.5.0`: the release, named the way its tag is
    floor = re.fullmatch(r">=\s*v?(\d+(?:\.\d+)*)", text.strip()) if term.kind is TermKind.VERSION else None
    if floor and any(index.has_string(f"{op}{floor.group(1)}") for op in ("", "^", "~", ">=")):
        return True, ""  # `>= 1.0.220` for Cargo's version = "1.0.220" (or npm's "^1.0.220"): the requirement's floor
    if term.kind is TermKind.VERSION and _version_tested(text, index):
        return True, ""  # ">= 3.7" for `if sys.version_info[:2] >= (3, 7):`
    if OPTION.fullmatch(text) and ctx.exists(term):
        return True, ""  # --help: an option the program declares, wherever it does
    if OPTION.fullmatch(text) and _declared_arg(text, index):
        return True, ""  # --cwd for citty's `args: { cwd: { type: "string" } }`: an option declared by its key
    if _cargo_feature_flag(text, index):
        return True, ""  # --no-default-features: cargo's own flag, for the features the anchored Cargo.toml declares
    pair = re.fullmatch(r"\(\s*([^()]+,[^()]+?)\s*,?\s*\)", text)
    if term.kind is TermKind.CODE and "python" in index.languages and pair and _returned_tuple(pair.group(1), index):
        return True, ""  # `(None, key)` for `return None, key_to_unset`: Python's tuple, its parentheses left out
    if term.kind is TermKind.CODE and index.languages & {"typescript", "tsx"} and _ts_types_left_out(text, index):
        return True, ""  # `(name) => name.startsWith(x)` for `(name: string) => ...`: TypeScript's types left out
    if term.kind is TermKind.CODE and "rust" in index.languages and _glob_imported(text, index):
        return True, ""  # `HasArg::Yes` for `Yes` under `use self::HasArg::*`: the variant as the file names it
    if term.kind is TermKind.CODE and "rust" in index.languages and _impl_anchored(text, index):
        return True, ""  # `Drop for ScopeGuard` with `<ScopeGuard as Drop>.drop` anchored: the impl its name says
    if term.kind is TermKind.CODE and "rust" in index.languages and _rust_paths_left_out(text, index):
        return True, ""  # `T: Debug`, `impl Display for Encoded`: Rust's paths and an impl's type arguments left out
    if term.kind is TermKind.CODE and "rust" in index.languages and _rust_signature(text, index):
        return True, ""  # `OnceBox::set(Box<T>) -> Result<(), Box<T>>`: the anchored fn's types, its names left out
    directive = GO_BUILD.fullmatch(text.strip()) or GO_BUILD.fullmatch("// " + text.strip())  # `+build !linux` too
    if directive and "go" in index.languages and any(
            line.startswith("//") and (own := GO_BUILD.fullmatch(line)) is not None
            and own.group(1).strip() == directive.group(1).strip()
            for ev in index.texts for line in ev.text.splitlines()):
        return True, ""  # `// +build go1.13`: a build constraint, which reads as a comment but is Go's own directive
    if term.kind is TermKind.CODE and "go" in index.languages and _formatter_verbs(text, index):
        return True, ""  # `%+s` on a Frame: a verb (and flag) the anchored Format method switches on
    magic = re.fullmatch(r"%%?([A-Za-z_]\w*)", text)
    if magic and any(re.search(rf"@(?:line_|cell_|line_cell_)magic\b[^\n]*\n(?:\s*@[^\n]*\n)*\s*def\s+"
                               rf"{magic.group(1)}\b", code) for _, code in index.code_texts):
        return True, ""  # `%dotenv`: IPython's name for the anchored @line_magic method
    if term.kind is TermKind.CODE and _handler(text, index):
        return True, ""  # `except TimeoutError:`: the reader's handler, of a class the anchored code names
    if term.kind is TermKind.CODE and _imports_anchored_package(text, index):
        return True, ""  # import _ "github.com/joho/godotenv/autoload" for an anchored autoload/autoload.go
    runner = re.fullmatch(r"(?:npx|bunx|pnpm\s+dlx|yarn\s+dlx)\s+(@?[\w./-]+)((?:\s+--?[\w-]+)*)", text.strip())
    if term.kind is TermKind.CODE and runner and ctx.exists(Term(runner.group(1), TermKind.PACKAGE)) \
            and all(o in index.strings() or o.lstrip("-") in index.strings() for o in runner.group(2).split()):
        return True, ""  # `npx uuid`: the package's own program, run by name, with options it declares
    if term.kind is TermKind.CODE and _script_run(text, index):
        return True, ""  # `npm run test-ci`: a script the anchored package.json defines, run by its name
    if term.kind is TermKind.CODE and _debug_namespace(text, index):
        return True, ""  # `DEBUG=send node app`: the debug namespace the code creates (require('debug')('send'))
    if term.kind is TermKind.CODE and _argv_written(text, index):
        return True, ""  # `ioreg -rd1 -c IOPlatformExpertDevice` for exec.Command("ioreg", "-rd1", "-c", ...)
    if term.kind is TermKind.CODE and _command_line(text, index):
        return True, ""  # `godotenv -o -f a.env mycmd`: the anchored program, its declared options, the reader's args
    raised = re.fullmatch(r"([A-Z]\w*(?:Error|Exception|Warning)):\s+(.+)", text, re.S)
    if raised and index.handles(raised.group(1)) and _bind_string(Term(raised.group(2), TermKind.STRING), ctx)[0]:
        return True, ""  # ValueError: <message>, as Python prints what the code raises
    shorthand = re.fullmatch(r"\{\s*([A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*)\s*,?\s*\}", text)
    if shorthand and all(index.has_word(k) for k in re.split(r"\s*,\s*", shorthand.group(1))):
        return True, ""  # { exitCode, code }: the keys the code reads
    if term.kind is TermKind.CODE and _object_written(text, index):
        return True, ""  # `{ status: "manual", url }`: an object the code builds, its literal values as written
    if _without_receivers(text, index):
        return True, ""  # seconds_since_start + upcoming_sleep for retry_state.seconds_since_start + ...
    bare = re.fullmatch(r"([A-Za-z_]\w*)\s*=", text)
    if bare and (any(d.param(bare.group(1)) for d in index.definitions())
                 or index.has_sequence(text, code=True)):
        return True, ""  # `default=`: the keyword, no value given, a parameter of the code
    if re.fullmatch(r"[A-Za-z_]\w*=(?!=)\S.*", text, re.S) and _bind_keyword(term, ctx)[0]:
        return True, ""  # `allow_methods=["*"]`: a keyword, its value in brackets
    entry = _ENTRY.fullmatch(text.strip()) if term.kind is TermKind.CODE else None
    if entry and _bind_keyword(Term(f"{entry.group(1)}={entry.group(2)}", TermKind.KEYWORD), ctx)[0]:
        return True, ""  # `secure: false`, `content-length: 0`: one entry of an options object or a header, a keyword
    keyed = re.fullmatch(r"([A-Za-z_$][\w$.]*\(\))\.([A-Za-z_$][\w$]*)", text)
    if keyed and re.search(rf"(?<![\w-])--{re.escape(keyed.group(2))}(?![\w-])", ctx.claim) \
            and _bind_call(Term(keyed.group(1), TermKind.CALL), ctx)[0]:
        return True, ""  # `opts().sauce` beside `--sauce`: the example option's own key, through a call the code has
    member = re.fullmatch(r"\.([A-Za-z_$][\w$]*)", text)
    if member and (index.definitions(member.group(1)) or any(
            re.search(rf"\b(?:self|this)\s*\.\s*{re.escape(member.group(1))}\s*=(?!=)", code)
            for _, code in index.code_texts)):
        return True, ""  # `.maxsize`: a member the anchored code defines (a property, a method) or sets
    if re.fullmatch(r"\.[A-Za-z][\w.-]*", text) and ctx.exists(Term(text, TermKind.PROPER)) \
            and not _sibling_file(text, index):
        return True, ""  # `.env`: a file named as context, where the project mentions it
    if _overloaded(text, ctx):
        return True, ""  # `&`: an operator the anchored class defines (__and__)
    if _pattern_fragment(text, ctx):
        return True, ""  # "prefix your pattern with `.*`": the reader's pattern, for code that matches patterns
    if _package_member(text, ctx):
        return True, ""  # require('koa').HttpError: a name the anchored module exports, through its package
    if _iterated(text, ctx):
        return True, ""  # `async for x in AsyncRetrying(...)`: the protocol the anchored class implements
    if _pair_written(text, index):
        return True, ""  # `Accept: */*` for headers.set('Accept', '*/*'): a key and its value, written together
    at = _before(ctx.claim, text)
    if _READ_BEFORE.search(ctx.claim[max(0, at - 40):at]) and _pair_read(text, index):
        return True, ""  # "returns False on `Connection: close`": a header read, then tested for the value
    if _through_local(text, index):
        return True, ""  # `accepts(req).type(types)` for `var accept = accepts(req); accept.type(types)`
    if ctx.exists(term) and not _CHAIN.fullmatch(text):
        return True, ""  # `:date[clf]`: an input in the notation a pattern of the anchored file reads
    pair = re.fullmatch(r"[A-Za-z_$][\w$]*\s*:\s*(\S.*)", text)
    if pair and (_literal(pair.group(1)) is not None or pair.group(1).lower() in _NULL) \
            and _settings("{" + text + "}", ctx):
        # `sameSite: 'LAX'`, `value: undefined`: one setting the anchored code reads, written without its
        # braces; a number or a boolean (`timeout: 0`) is what such a claim is about, and stays a value to find
        return True, ""
    if text.startswith("{") and _OUTPUT_BEFORE.search(ctx.claim[:max(0, ctx.claim.find(text))]) \
            and _settings(text, ctx):
        return True, ""  # f('abc; Secure') gives `{ name: '', value: 'abc', secure: true }`: an output of code words
    if _imported(text, ctx):
        return True, ""  # `from humanize import natural_list`: names the package exports, re-exported or its own
    if _attribute_pair(text, index):
        return True, ""  # `Domain=`, `expires=invalid`: an attribute the code reads by name, with an example value
    if "go" in index.languages and _GO_TAGS.fullmatch(text.strip()) and all(
            index.has_string(key) for key in re.findall(r'([a-z_][\w-]*):"', text)):
        return True, ""  # `ignored:"true"`, `envconfig:"..."`: a struct tag whose key the code reads (Tag.Get)
    if _example_output(text, index, ctx.claim):
        return True, ""  # `a=foo; b=bar`: the example's own names, joined by separators the code writes
    if term.kind is TermKind.CODE and _formatted_example(text, index):
        return True, ""  # `int != string` of w.printf("%v != %v", at, bt): a formatted message, example values filled
    if term.kind is TermKind.CODE and _MESSAGE_LIKE.search(text) and _bind_string(Term(text, TermKind.STRING), ctx)[0]:
        return True, ""  # `Expected "name" to be a string`: a message the code formats, backticked
    if term.kind is TermKind.CODE and "rust" in index.languages and _formats_readers(text):
        return True, ""  # `format!("{:#}", err)`: std's formatting of the reader's value; the prose says what it prints
    if term.kind is TermKind.CODE and _in_use(text, ctx):
        return True, ""  # `queue.concurrency = 10`, `inflate: false`: the library's names, the reader's values
    return False, ""


#: A path that ends in an enum variant: ``Type::Variant``, both capitalized, the variant not all capitals.
_RUST_VARIANT = re.compile(r"(?:^|::)[A-Z]\w*::[A-Z][A-Z0-9_]*[a-z]\w*$")


#: Rust's formatting macros: ``format!("{:#}", err)`` formats the reader's value with the library's impl.
_RUST_FORMAT = re.compile(r"(?:std::)?(?:format|print|println|eprint|eprintln|write|writeln|panic)!\(\s*"
                          r"(?:[a-z_]\w*\s*,\s*)?(?P<fmt>\"(?:\\.|[^\"\\])*\")(?P<args>(?:\s*,\s*[a-z_][\w.]*)*)\s*,?\s*\)")


def _formats_readers(text: str) -> bool:
    """Whether ``text`` is a Rust formatting macro over the reader's own values only (``format!("{:#}",
    err)``, ``println!("{err:?}")``): no name of the library in it, a format spec for the prose to explain."""
    m = _RUST_FORMAT.fullmatch(text.strip().rstrip(";"))
    return m is not None and "{" in m.group("fmt")


#: What a claim says right before the error a call of it stands for: "fails with", "raises", "rejects with".
_FAILS_WITH = re.compile(r"\b(?:(?:fails?|failing|errors?|errs|panics?|rejects?|aborts?)\s+with|raises|throws|"
                         r"returns\s+(?:an\s+)?(?:error|Err))\s+(?:an?\s+)?`?$", re.I)


#: A verb saying the anchored code does the call that follows: "pushes `unescape(pattern)`", "returns `f(x)`".
_CODE_DOES = re.compile(r"\b(?:pushes|returns|calls|invokes|emits|yields|appends|evaluates|throws|raises)\s+(?:back\s+)?$"
                        r"|\b(?:reads|gets|fetches|looks\s+up|takes|pops|parses|loads)\s+(?:`[^`]+`|[\w$.]+)\s+"
                        r"(?:with|via|using|through)\s+$")


def _said_done(text: str, ctx: _Context, called: bool) -> bool:
    """Whether the claim says the anchored code makes the call ``text`` itself ("pushes
    `unescape(pattern)` into the result", "calls format(..., { extended: true })"): what the code does
    binds as the code writes it, never as an example of a use. Where the code does call the callee
    (``called``), only a literal the claim passes is its to check: "calls `fn(value, key, cache)`" names
    what ``fn(v, k, self)`` passes in words of its own."""
    if called and not _LITERAL_ARG.search(text[text.find("("):]):
        return False
    return any(_CODE_DOES.search(before.rstrip("`")) for before in _lead_ins(text, ctx.claim))


def _lead_ins(text: str, claim: str) -> list[str]:
    """The claim before each place it writes ``text``: what it says of that span."""
    return [claim[:m.start()] for m in re.finditer(re.escape(text), claim)]


def _a_parameter(callee: str, index: _Index) -> bool:
    """Whether ``callee`` is a parameter of an anchored definition (``fn`` of ``forEach(fn, thisp)``):
    the reader's callback, which the code may call through ``fn.call(thisp, ...)``."""
    return "." not in callee and any(d.param(callee) for d in index.definitions())


#: A literal among a call's arguments, inside an object too: ``{ extended: true }``, ``"x"``, ``0``.
_LITERAL_ARG = re.compile(r"""(?<![\w$.])(?:true|false|True|False|None|null|nil|-?\d+(?:\.\d+)?)(?![\w$.])|["']""")


#: An equality test written as code: ``a == b``, ``x !== y`` (not ``=>``, not a keyword's ``=``).
_EQUALITY = re.compile(r"[\w$)\]]\s*(?:===?|!==?)\s*[\w$(\[\"'-]")


def _in_use(text: str, ctx: _Context) -> bool:
    """Whether ``text`` is an example of using the anchored code, read by
    the grammar of its language (:mod:`memvet._usage`).

    The example's outermost call is of a function the evidence defines or
    anchors (``queue.add(fn, {timeout})`` for ``PQueue.add``), or it sets
    a member the code defines, or it is an object of settings; each
    callee, member, keyword and key is a word of the code; a key set to a
    boolean is one the code takes a decision on. An example of a call the
    code itself makes is not a use, and binds only as written: a call on
    a module the anchored file imports or on a platform object
    (``os.urandom(32)``, ``JSON.stringify(body, null, 2)``), or an
    exception built with a message (``ValueError('too big')``).
    """
    index = ctx.index
    if _EQUALITY.search(_STRING_TOKEN.sub('""', text)):
        return False  # `sig == self.get_signature(key, value)`: a test the claim says the code makes, no use of it
    grammars = languages(ev.language or language_for_path(ev.label.split("::", 1)[0]) for ev in index.texts)
    use = read_use(text, grammars) if grammars else None
    if use is None:
        return False
    if not use.callees and not use.members and not use.settings and any(
            _SHOWN_AS.search(before) for before in _lead_ins(text, ctx.claim)):
        return False  # renders `Error { context: "...", source: ... }`: what the code prints, not a value built
    if use.settings and not any(_SETTING_USED.search(ctx.claim[:m.start()]) or _SETTING_DOES.match(ctx.claim[m.end():])
                                for m in re.finditer(re.escape(text), ctx.claim)):
        return False  # "the options are `retries: 5`", "gives `{ a: 1 }`": what the code has, not what a caller sets
    if re.match(r"\s*\{?\s*([A-Za-z_$][\w$]*)\s*:[^,;]*?(?<![\w$])\1\s*(?:\?\?|\|\|)", text):
        return False  # `corepack: options.corepack ?? false`: the code's own fallback for the key, no caller's value
    body = " ".join(code for _, code in index.code_texts)
    if any(_one_of(key, body) and not _bound_value(value, ctx) for key, value in use.values
           if value.lower() not in _BOOL):
        return False  # `sameSite: 'none'` where the code compares sameSite with other strings
    outer = use.heads[0] if use.heads and re.match(rf"\s*(?:new\s+)?{re.escape(use.heads[0])}\b", text) else ""
    if outer and (outer.lower() in index.modules or outer in _PLATFORM_OBJECTS or _go_std(outer, index)):
        return False  # the outermost call is on a module or a platform object: the code's own call
    if re.match(r"""\s*(?:require|import)\s*\(\s*["'`]\.""", text):
        return False  # require('../package.json').version: the code's own file, not a package a reader uses
    if re.match(r"\s*super\s*\(", text):
        return False  # super().__init__(deadline, loop): a class's call of its parent, which no reader makes
    if re.match(r"\s*(?:self|this)\s*\.", text):
        return False  # `self._enabled = True`: a statement of the class's own body, which no reader writes
    if any(len(c) < 2 or _EXCEPTION_NAME.fullmatch(c) for c in use.callees):
        return False
    if _STRING_TOKEN.search(text) and any(_FAILS_WITH.search(before) for before in _lead_ins(text, ctx.claim)):
        # "fails with InvalidUri("uri too long")": the error the code makes, quoted; its message is the code's
        return all(_bind_string(Term(_string_content(m.group(0)), TermKind.STRING), ctx)[0]
                   for m in _STRING_TOKEN.finditer(text))
    # `5*time.Minute`: a member of a platform module is the platform's, not a name of the library
    platform = {m.group(2) for m in re.finditer(r"(?<![\w$.])([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)", text)
                if m.group(1) != outer and (m.group(1) in _PLATFORM_OBJECTS or _go_std(m.group(1), index))}
    library = [n for n in use.library if n not in platform]
    callees = list(use.callees)
    positional: tuple[str, ...] | None = use.positional
    if len(callees) > 1 and outer and outer[:1].islower() and not (
            index.definitions(callees[0]) or callees[0] in index.name_segments
            or ctx.exists(Term(callees[0], TermKind.IDENTIFIER))):
        # app.use(cors()): the reader's framework call around the library's; the inner call is the use
        library = [n for n in library if n != callees[0]]
        callees, positional = callees[1:], None
    definitions = index.definitions(callees[0]) if callees else []
    if callees and positional is not None and not definitions and _unlike_own_call(positional, index.calls(callees[0])):
        return False  # NewHash(md5.New(), space, data, 5) where NewMD5 calls NewHash(md5.New(), space, data, 3)
    parsed = re.search(r"\bparse\s*::\s*<\s*(\w+)\s*>", text) if use.callees[:1] == ("parse",) else None
    if parsed and any(f"<{parsed.group(1)} as FromStr>.from_str" in n for n in index.names):
        return True  # `"off".parse::<Level>()`: str::parse is T's FromStr::from_str, the anchored impl
    if callees and not (definitions or callees[0] in index.name_segments
                        or ctx.exists(Term(callees[0], TermKind.IDENTIFIER))):
        return False  # the outermost call is of the anchored code, or of the repository's (config() of a helper)
    if definitions and positional is not None and not any(_takes(positional, d, ctx) for d in definitions):
        return False
    if use.members and not any(index.definitions(m) or any(
            re.search(rf"\b(?:self|this)\s*\.\s*{re.escape(m)}\s*=(?!=)", code) for _, code in index.code_texts)
            for m in use.members):
        return False
    if any(_own_setting(code, name, value) for name, value in use.switches for _, code in index.code_texts):
        return False  # `{ expose: true }` where the code passes `{ expose: false }` and never reads it: the code's value
    code_words = index.code_words()
    return all(n in code_words or n in index.name_segments
               or (n in callees and ctx.exists(Term(n, TermKind.IDENTIFIER))) for n in library) and all(
        any(_switched(code, name) or _writes(code, name, value) for _, code in index.code_texts)
        for name, value in use.switches)


def _own_setting(code: str, name: str, value: str) -> bool:
    """Whether ``code`` sets ``name`` to the other boolean than ``value`` itself (``createError(status,
    err, { expose: false })``, ``f(strict=False)``) and names it nowhere else (no ``.name``, no
    parameter, no branch on it): a setting the code passes on, whose value is the code's, not the reader's."""
    other = {"true": "false", "false": "true"}.get(value.lower())
    if other is None:
        return False
    n = re.escape(name)
    written = len(re.findall(rf"(?<![\w$.]){n}\s*[:=]\s*(?i:{other})\b(?!\s*[=:])", code))
    return written > 0 and len(re.findall(rf"(?<![\w$]){n}(?![\w$])", code)) == written


def _takes(args: Sequence[str], definition: _Definition, ctx: _Context) -> bool:
    """Whether ``definition`` takes positional ``args``: no more of them
    than it has parameters (unless it takes any number), and a literal for a
    parameter the code compares with literals one of those it compares with."""
    params = definition.positional()
    args = [a for a in args if a != "__memvet_any__"]
    if len(args) > len(params) and not definition.variadic and "arguments" not in definition.body:
        return False
    if ctx.index.languages and ctx.index.languages <= {"go", "rust"} and not definition.variadic \
            and "__memvet_any__" not in args and len(args) < len(params):
        return False  # Go and Rust have no default arguments: `cache.New(5*time.Minute)` is no call of New(a, b)
    for arg, param in zip(args, params, strict=False):
        if (_literal(arg) is not None or number_value(arg) is not None) and _enumerated(param.name, definition.body) \
                and not _bound_value(arg, ctx):
            return False
    return True


def _one_of(key: str, body: str) -> bool:
    """Whether the code tests the setting ``key`` for equality with values
    (``opts.sameSite === 'lax'``, ``case 'strict':`` on it, ``key in (...)``),
    so that a value set for it must be one of them; a test against null or
    an order (``> 0``) is none."""
    flat = re.sub(rf"(?<![\w$])[A-Za-z_$][\w$]*\.(?={re.escape(key)}(?![\w$]))", "", body)
    flat = re.sub(r"(?:===?|!==?)\s*(?:null|undefined|None)\b|\b(?:null|undefined|None)\s*(?:===?|!==?)", " ", flat)
    flat = re.sub(r"(?:<=?|>=?)\s*[\w\-.]+", " ", flat)
    return _enumerated(key, flat)


#: A code span that reads as a message: two words of letters side by side.
_MESSAGE_LIKE = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}")

#: Words that make the settings after them a caller's: "with `inflate: false`", "unless you pass `{ fast: true }`".
_SETTING_USED = re.compile(r"\b(?:with|when|whenever|pass|passes|passed|passing|unless|if|set|sets|setting|use|using"
                           r"|given|via|enable|enabling|disable|disabling|configure[sd]?|opt\s+in\s+with)"
                           r"\b(?:\s+[\w'-]+){0,3}\s*[`'\"]?$", re.I)

#: Verbs that make the settings before them a cause: "`decode: false` turns decoding off".
_SETTING_DOES = re.compile(r"[`'\"]?\s*(?:turns|disables|enables|makes|skips|switches|stops|forces|keeps|lets)\b", re.I)

#: Words that make the struct after them an output: "renders `Error { context: .. }`", "shows up as `T { .. }`".
_SHOWN_AS = re.compile(r"\b(?:renders?|rendered|prints?|printed|shows?(?:\s+up)?|shown|displays?|displayed"
                       r"|formats?|formatted|looks?\s+like|outputs?)\b(?:\s+(?:as|like))?\s*[`'\"]?$", re.I)

#: Objects every program of a platform has: a call on them is the code's, never the reader's.
_PLATFORM_OBJECTS = frozenset({"process", "console", "JSON", "Math", "Object", "Array", "Promise", "Buffer",
                               "globalThis", "window", "document", "Date", "Number", "String", "Reflect",
                               "os", "sys", "warnings", "json", "time", "math", "logging", "re"})


def _switched(code: str, name: str) -> bool:
    """Whether ``code`` takes a decision on ``name`` as a switch: branches on
    it, compares it to a boolean, or gives it a boolean default or type."""
    n = rf"(?<![\w$]){re.escape(name)}(?![\w$])"
    return _branches_on(code, name) or any(re.search(p, code) for p in (
        rf"\b(?:if|elif|while)\b\s*\(?\s*(?:not\s+|!\s*)?[\w$.]*{n}\s*(?:\)|:|&&|\|\||\band\b|\bor\b)",
        rf"{n}\s*(?:===?|!==?|\bis\b(?:\s+not)?)\s*(?:true|false|True|False)\b",
        rf"\b(?:true|false)\s*(?:===?|!==?)\s*[\w$.]*{n}",
        rf"!\s*[\w$.]*{n}(?![\w$(.\[])", rf"[\w$.]*{n}\s*(?:\?(?![.?])|&&)",
        rf"{n}\s*(?::\s*(?:bool|boolean)\b[^=\n,)]*)?\s*(?:=|\?\?)\s*(?:true|false|True|False)\b",
        rf"{n}\s*\??:\s*[^;=\n]*\b(?:bool|boolean|true|false)\b",
        rf"\b(?:if|elif|while)\b[^\n]*(?<![\w$]){re.escape(name)}(?![\w$(])"))


_RUST_USE = re.compile(r"(?:pub(?:\([\w:]+\))?\s+)?use\s+(?P<path>[\w:]+?)(?:::\{(?P<items>[\w\s,]+)\})?\s*;?")


def _imported(text: str, ctx: _Context) -> bool:
    """Whether ``text`` is an import statement whose package exports every
    name it imports (``from humanize import natural_list``, ``import {
    parse } from 'cookie'``): each ``package.name`` a module's definition,
    or a name its ``__init__``/``index`` re-exports (see ``exists``); or a
    Rust ``use a::{b, c}`` the anchored file makes (``a::b`` and ``a::c``
    among its imports: the statement stands outside any anchored item)."""
    use = _RUST_USE.fullmatch(text.strip())
    if use and "rust" in ctx.index.languages:
        items = [i.strip() for i in (use.group("items") or "").split(",") if i.strip()]
        paths = [f"{use.group('path')}::{i}" for i in items] if use.group("items") else [use.group("path")]
        return all(p.lower() in ctx.index.modules for p in paths)
    py = re.fullmatch(r"from\s+([A-Za-z_][\w.]*)\s+import\s+\(?\s*([\w\s,]+?)\s*\)?", text.strip())
    js = re.fullmatch(r"import\s*\{\s*([\w$\s,]+?)\s*\}\s*from\s*(['\"])([@\w./-]+)\2;?", text.strip())
    if py:
        package, names = py.group(1), py.group(2)
    elif js:
        package, names = js.group(3), js.group(1)
    else:
        return False
    wanted = [n.split(" as ")[0].strip() for n in names.split(",") if n.strip()]
    return bool(wanted) and all(re.fullmatch(r"[A-Za-z_$][\w$]*", n) for n in wanted) and all(
        n in ctx.index.names or n in ctx.index.name_segments
        or ctx.exists(Term(f"{package.replace('/', '.')}.{n}", TermKind.DOTTED)) for n in wanted) \
        and (ctx.exists(Term(package.replace("/", "."), TermKind.DOTTED))
             or ctx.exists(Term(package, TermKind.PROPER)))


#: What an example's output follows: "gives", "returns", "->", "==".
_OUTPUT_BEFORE = re.compile(r"(?:\bgives?|\breturns?|\byields?|\bproduces?|->|=>|==|\u2192)\s*`?$")

#: The values an example gives an attribute it writes out (``expires=invalid``, ``name=value``).
_EXAMPLE_VALUES = frozenset({"value", "val", "invalid", "name", "key", "something"})
#: An example's own names and values, as keys and values of the attributes it writes out.
_EXAMPLE_KEYS = _EXAMPLE_NAMES | _EXAMPLE_VALUES


#: Go struct tags, one or several: ``envconfig:"..."``, ``json:"name,omitempty" default:"x"``.
_GO_TAGS = re.compile(r'[a-z_][\w-]*:"[^"\n]*"(?:\s+[a-z_][\w-]*:"[^"\n]*")*')


def _attribute_pair(text: str, index: _Index) -> bool:
    """Whether ``text`` is an attribute written the way a header or a query
    string writes it (``Domain=``, ``expires=invalid``, ``name=value``): a
    name the code writes or tests as a string (in any case) or an example's
    name, then nothing or an example's value, never a value of its own."""
    m = re.fullmatch(r"([A-Za-z][\w-]*)=([A-Za-z]*)", text.strip())
    if m is None:
        return False
    key, value = m.group(1).lower(), m.group(2).lower()
    return (index.has_string(key) or key in _EXAMPLE_KEYS) and (not value or value in _EXAMPLE_KEYS)


#: A stand-in a claim writes in an example output where the code prints a value: ``<r>``, ``X``, ``...``.
_STAND_IN = r"<[^<>\n]+>|[A-Z]|\.\.\.|…"


def _output_pattern(template: Sequence[str]) -> re.Pattern[str] | None:
    """A pattern for what a message the code formats prints: its own text as
    written (a run of spaces any run), each field a run without spaces (a
    quoted one in its quotes: Go's ``%q`` in double quotes, or in single
    ones for one character, a rune: ``'x'``) or a claim's stand-in for it;
    ``None`` for a template with no field or fewer than two characters of
    its own besides spaces (``%s=%s``, ``{}: {}`` would fit any pair), with
    only brackets of its own (```[${raw}]```), or
    with a field that is a setting's value (after ``=`` or ``:``: what
    ``; domain=`` + ``this.domain`` writes is the value the claim is about)."""
    own = [ch for ch in template if ch != _WILD and not ch.isspace()]
    if _WILD not in template or len(own) < 2 or all(ch in "[](){}<>" for ch in own):
        return None  # `[${raw}]` would fit any bracketed text: `[\s\S]`
    if re.search(rf"(?<![!<>=])[=:]\s*{_WILD}", "".join(template)):  # not `!= %v`
        return None
    out: list[str] = []
    i = 0
    while i < len(template):
        ch = template[i]
        if ch in "'\"" and list(template[i + 1: i + 3]) == [_WILD, ch]:
            # Go's %q prints a string in double quotes and a rune in single ones: "x" or 'x' (one character)
            rune = r"|'(?:[^'\\]|\\[^']{1,9})'" if ch == '"' else ""
            out.append(rf"(?:{re.escape(ch)}[^{re.escape(ch)}]*{re.escape(ch)}{rune}|{_STAND_IN})")
            i += 3
            continue
        out.append(rf"(?:\S+?|{_STAND_IN})" if ch == _WILD else r"\s+" if ch.isspace() else re.escape(ch))
        i += 1
    return re.compile("".join(out))


def printed_format(content: str) -> tuple[re.Pattern[str], int] | None:
    """What a string literal of the code (its content, as written) prints
    when it is a format (see :func:`_output_pattern`), and how many
    characters of its own it writes, spaces aside; ``None`` for no such format."""
    template = _template(_unescape(content))
    pattern = _output_pattern(template)
    return None if pattern is None else (pattern, sum(ch != _WILD and not ch.isspace() for ch in template))


def _formatted_example(text: str, index: _Index) -> bool:
    """Whether ``text`` is, whole, what a message the code formats prints
    with example values in its fields: ``[]int[0] != []int[1]`` of
    ``w.printf("%s[%d] != %s[%d]", ...)``, ``X != (missing)`` of ``"%q !=
    (missing)"``. A field takes a run without spaces, so a claim that puts
    more in it (``C.[2]: 3 != 4`` of ``"%v != %v"``) is not the message."""
    said = re.sub(r"\s+", " ", text.strip())
    if len(said) < 4:
        return False
    filled = index.filled()
    for template, pattern in index.outputs():
        if not pattern.fullmatch(said):
            continue
        head = "".join(template[:template.index(_WILD)])
        if head.strip() and any(f.startswith(head) for f in filled):
            continue  # "; samesite=" + (this.sameSite === true ? 'strict' : ...): the values the code gives it
        return True
    return False


def _example_output(text: str, index: _Index, claim: str = "") -> bool:
    """Whether ``text`` is an output the code would build from an example's
    own names (``a=foo; b=bar``, ``foo=``; not an option, ``--foo``): it
    starts with a word, every word one of
    :data:`_EXAMPLE_NAMES` or a string the claim's own example passes
    (``app:db`` after ``debug('app').extend('db')``), and every run of
    characters between two words (spaces kept: ``; `` is not ``;``) a
    string the code writes whole."""
    parts = re.split(r"([A-Za-z0-9_$]+)", text)
    words, joints = parts[1::2], [p for p in parts[0::2] if p]
    passed = {m.group(2) for m in re.finditer(r"([\"'])([\w$.-]{1,40})\1", claim)}
    return (not parts[0] and bool(joints) and all(w.lower() in _EXAMPLE_NAMES or w in passed for w in words)
            and all(j in index.strings() for j in joints))


#: A key and its value the way docs and HTTP write them: ``Accept-Encoding: gzip, br``, ``ttl: 5000``.
_PAIR = re.compile(r"[\"']?([A-Za-z_$][\w$-]*)[\"']?\s*:\s+(\S.*?)\s*", re.S)
#: A literal value of code: a quoted string, a number, a boolean or null.
_LITERAL_VALUE = re.compile(r"[\"'`][^\"'`\n]*[\"'`]|-?\d[\w.]*|true|false|True|False|None|null|undefined")


def _pair_formatted(key: str, value: str, index: _Index) -> bool:
    """Whether a line of the code writes the key ``key`` (a string, in any case) and formats its value
    from a string that is ``value`` with a field where ``value`` has a placeholder:
    ``WWW-Authenticate: Basic realm="<realm>"`` of ``Add("WWW-Authenticate", fmt.Sprintf(`Basic realm="%s"`, realm))``."""
    want = _PLACEHOLDER.sub("\x00", value)
    named = re.compile(rf"[\"'`](?i:{re.escape(key)})[\"'`]")
    for _, code in index.code_texts:
        for line in code.splitlines():
            if not named.search(line):
                continue
            for token in _STRING_TOKEN.finditer(line):
                content = _FIELD.sub("\x00", _unescape(_string_content(token.group(0))))
                if "\x00" in content and content == want:
                    return True
    return False


def _pair_written(text: str, index: _Index) -> bool:
    """Whether ``text`` is a ``key: value`` pair (a header line, an option,
    a status field) that the code writes as one: a call that passes both
    (``headers.set('Accept', '*/*')``, the key in any case), an assignment
    (``status.maxEntrySizeExceeded = true``) or an object entry
    (``compress: true``). The key and the value each found somewhere else
    are not the pair: a header the code only reads (``headers.get(...)
    === 'gzip'``) or a value it only computes is not one it writes (for a
    pair the claim says the code reads, see :func:`_pair_read`)."""
    m = _PAIR.fullmatch(text)
    if m is None:
        return False
    key, value = m.group(1), m.group(2)
    if value[:1] in "[{" and _LITERAL_VALUE.search(value):  # files: ["index.js"], a list or an object of literals
        compact = re.sub(r"\s+", "", value)
        return any(re.search(rf"(?<![\w$-])[\"'`]?{re.escape(key)}[\"'`]?:{re.escape(compact)}(?=[,}}\]]|$)",
                             re.sub(r"\s+", "", code)) for _, code in index.code_texts)
    quoted = value[:1] in "\"'`" and value[-1:] == value[:1] and len(value) >= 2
    bare = value[1:-1] if quoted else value
    if not bare or "\n" in bare:
        return False
    if _PLACEHOLDER.search(bare):
        return _pair_formatted(key, bare, index)
    string = rf"[\"'`]{re.escape(bare)}[\"'`]"
    literal = string if quoted or not re.fullmatch(r"-?\d[\w.]*|true|false|null|None|True|False", bare) \
        else rf"(?:{string}|{re.escape(bare)})"
    end = r"\s*(?:[;,)}\]]|$)"
    k = re.escape(key)
    written = (rf"[\"'`](?i:{k})[\"'`]\s*,\s*{literal}\s*\)",  # headers.set('Accept', '*/*')
               rf"(?<![\w$-]){k}\s*=\s*{literal}{end}",  # status.x = true
               rf"(?<![\w$-])[\"'`]?{k}[\"'`]?\s*:\s*{literal}{end}",  # {compress: true}
               rf"\b(?:key|name|header)\s*:\s*[\"'`](?i:{k})[\"'`]\s*,\s*value\s*:\s*{literal}{end}")  # {key: K, value: V}
    if any(re.search(w, code, re.M) for _, code in index.code_texts for w in written):
        return True
    if bare == "true":
        # `immediate: true` where the code tests the option for truth (if (opts.immediate),
        # opts.immediate ? a : b, opts.immediate && f()): the reader's setting of a switch
        # (read off an options object, maybe through a local of its name: var immediate = opts.immediate)
        tested = (rf"\bif\s*\(\s*(?:[\w$]+\.)*{k}\s*\)", rf"(?<![\w$]){k}\s*(?:\?(?![.?:])|&&)")
        return any(re.search(rf"(?<![\w$])[\w$]+\.{k}\b", code) and any(re.search(t, code) for t in tested)
                   for _, code in index.code_texts)
    return False


#: What a claim writes right before a pair the code reads: "returns False on `Connection: close`", "when it
#: sees", "if the request has", "given".
_READ_BEFORE = re.compile(r"\b(?:on|upon|when|whenever|if|for|given|sees?|receives?|gets?|has|with)\s+(?:an?\s+|the\s+)?"
                          r"(?:\w+\s+)?[`'\"]?$", re.I)


def _pair_read(text: str, index: _Index) -> bool:
    """Whether the code reads the pair's key into a variable and tests it for the value
    (``connection = get_comma_header(headers, b"connection")``, then ``if b"close" in connection``):
    the pair as the code reads it, for a claim that says so ("returns False on `Connection: close`")."""
    m = _PAIR.fullmatch(text)
    if m is None:
        return False
    key, value = m.group(1), m.group(2).strip("\"'`")
    if not value or not re.fullmatch(r"[\w./*+-]+", value):
        return False
    literal = rf"[\"'`]{re.escape(value)}[\"'`]"
    for _, code in index.code_texts:
        for var in set(re.findall(rf"([A-Za-z_$][\w$]*)\s*=(?![=>])[^\n;=]*[\"'`](?i:{re.escape(key)})[\"'`]", code)):
            v = re.escape(var)
            if re.search(rf"{literal}\s*(?:\bin\b|[!=]==?)\s*{v}(?![\w$])|(?<![\w$.]){v}\s*[!=]==?\s*{literal}"
                         rf"|(?<![\w$.]){v}\.(?:includes|contains|has)\(\s*{literal}\s*\)", code):
                return True
    return False


#: The methods that implement Python's binary and unary operators.
_DUNDERS = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "//": "floordiv", "%": "mod", "**": "pow",
            "@": "matmul", "&": "and", "|": "or", "^": "xor", "<<": "lshift", ">>": "rshift"}


def _defines_method(name: str, ctx: _Context) -> bool:
    return any(name in d.names for d in ctx.index.definitions()) or name in ctx.index.leaves()


#: Python's builtins that call a protocol method of their one argument: ``str(err)`` is ``err.__str__()``.
_PROTOCOL = {"str": "__str__", "repr": "__repr__", "iter": "__iter__", "len": "__len__", "hash": "__hash__",
             "bool": "__bool__", "next": "__next__", "reversed": "__reversed__", "abs": "__abs__",
             "bytes": "__bytes__"}


def _protocol_call(callee: str, args: Sequence[str], ctx: _Context) -> bool:
    """Whether ``callee(arg)`` is a Python builtin on one named value whose protocol method the anchored
    code defines (``str(err)`` with ``ParseError.__str__`` anchored, ``iter(ini)`` with ``__iter__``)."""
    return "python" in ctx.index.languages and callee in _PROTOCOL and len(args) == 1 \
        and re.fullmatch(r"[A-Za-z_]\w*", args[0].strip()) is not None and _defines_method(_PROTOCOL[callee], ctx)


def _go_error_text(callee: str, ctx: _Context) -> bool:
    """Whether ``callee`` is ``X.Error`` and the anchored Go code makes ``X`` an error value
    (``X = errors.New(...)``, ``X = fmt.Errorf(...)``): the method of Go's error interface."""
    m = re.fullmatch(r"(?:[a-z]\w*\.)?([A-Za-z_]\w*)\.Error", callee)
    if m is None or "go" not in ctx.index.languages:
        return False
    made = re.compile(rf"(?<![\w.]){re.escape(m.group(1))}\s*(?:error\s*)?:?=\s*(?:errors\.New|fmt\.Errorf)\(")
    return any(made.search(code) for _, code in ctx.index.code_texts)


def _overloaded(text: str, ctx: _Context) -> bool:
    """Whether ``text`` is an operator (``&``) that the anchored code
    implements (``__and__``, or its reflected and in-place forms). An
    expression of it (``a | b``) is not bound so: what the operator builds
    is the anchored method's to say, and a claim may misstate it."""
    text = text.strip()
    if text not in _DUNDERS and text != "~":
        return False
    names = [f"__{_DUNDERS.get(text, 'invert')}__"]
    names += [f"__r{n[2:]}" for n in names] + [f"__i{n[2:]}" for n in names]
    return any(_defines_method(n, ctx) for n in names)


#: A stretch of a regular expression made only of its syntax: ``.*``, ``^``, ``\d+``, ``(?i)``.
_PATTERN_SYNTAX = re.compile(r"(?:\\[dDwWsSbB]|[.*+?^$|()\[\]])+")
#: Code that compiles or matches regular expressions.
_MATCHES_PATTERNS = re.compile(r"\bre\s*\.\s*(?:compile|match|fullmatch|search)\b|\bnew\s+RegExp\b"
                               r"|\.\s*(?:match|fullmatch|search|test|exec)\s*\(")


def _pattern_fragment(text: str, ctx: _Context) -> bool:
    """Whether ``text``, only regular-expression syntax (``.*``, ``^``),
    is a piece of the reader's own pattern ("prefix your pattern with
    `.*`") in a claim about code that compiles or matches patterns."""
    return (_PATTERN_SYNTAX.fullmatch(text.strip()) is not None
            and re.search(r"\b(?:pattern|regex|regexp|regular expression)s?\b", ctx.claim, re.I) is not None
            and any(_MATCHES_PATTERNS.search(code) for _, code in ctx.index.code_texts))


def _package_member(text: str, ctx: _Context) -> bool:
    """Whether ``text`` is a member read through the package
    (``require('koa').HttpError``): a name of the anchored code or one its
    file defines or exports (``module.exports.HttpError = HttpError``),
    through a package the project names."""
    m = re.fullmatch(r"require\(\s*(['\"])([@\w./-]+)\1\s*\)\s*\.\s*([A-Za-z_$][\w$]*)", text.strip())
    if m is None or m.group(2).startswith("."):  # require('../package.json'): the code's own file, not a package
        return False
    stems = {ev.label.split("::", 1)[0].rsplit(".", 1)[0] for ev in ctx.index.texts if "::" in ev.label}
    return ((m.group(3) in ctx.index.code or any(ctx.exists(Term(f"{stem}.{m.group(3)}", TermKind.DOTTED))
                                                 for stem in sorted(stems)))
            and ctx.exists(Term(m.group(2), TermKind.PROPER)))


#: The methods a class implements to be iterated by ``for`` and ``async for``.
_ITERATION = {"for": ("__iter__", "__next__"), "async for": ("__aiter__", "__anext__")}


def _iterated(text: str, ctx: _Context) -> bool:
    """Whether ``text`` iterates an anchored class the way it implements
    (``async for attempt in AsyncRetrying(...)`` where it defines
    ``__anext__``), not through a method that only raises."""
    m = re.fullmatch(r"(async\s+for|for)\s+[A-Za-z_]\w*\s+in\s+([A-Za-z_]\w*)\s*\((.*)\)\s*:?", text.strip(), re.S)
    if m is None or not all(_placeholder(a) for a in split_args(m.group(3))):
        return False
    methods = _ITERATION[" ".join(m.group(1).split())]
    for ev, code in ctx.index.code_texts:
        qual = ev.label.split("::", 1)[1] if "::" in ev.label else ""
        owner, _, method = qual.rpartition(".")
        if owner.rsplit(".", 1)[-1] == m.group(2) and method in methods:
            body = re.sub(r"^[\s\S]*?\bdef\s+\w+\s*\([^)]*\)[^:]*:", "", code, count=1)
            if not re.match(r"\s*raise\b", body):
                return True
    return False


def _cargo_feature_flag(text: str, index: _Index) -> bool:
    """Whether ``text`` is cargo's flag for features (``--no-default-features``, ``--all-features``,
    ``--features std``) and the anchored ``Cargo.toml`` declares what it acts on: a ``default``
    feature, any feature, the named ones."""
    m = re.fullmatch(r"--(no-default-features|all-features|features)(?:[ =]([\w,-]+))?", text.strip())
    if m is None:
        return False
    wanted = {"no-default-features": {"default"}, "all-features": set()}.get(m.group(1)) \
        or set((m.group(2) or "").split(",")) - {""}
    for ev in index.texts:
        if not ev.label.split("::", 1)[0].endswith("Cargo.toml"):
            continue
        table = re.search(r"^\[features\][ \t]*\n(?:(?!\[)[^\n]*(?:\n|$))*", ev.text, re.M)
        declared = set(re.findall(r"^\s*([\w-]+)\s*=", table.group(0), re.M)) if table else set()
        if declared and wanted <= declared:
            return True
    return False


#: TypeScript's casts: ``(result as any)`` (the parentheses go with it) and ``value as Hook``.
_TS_CAST = re.compile(r"\(\s*([\w$.]+)\s+as\s+[\w$.]+(?:<[^<>()]*>)?(?:\[\])?\s*\)"
                      r"|(?<=[\w$)\]])\s+as\s+(?:const\b|[\w$.]+(?:<[^<>()]*>)?(?:\[\])?)")
#: An arrow function's parameter list with its types: ``(name: string, i?: number): boolean =>``.
_TS_ARROW = re.compile(r"\(([^()]*)\)\s*(?::\s*[\w$.<>\[\]| ]+?)?\s*=>")


def _ts_untyped(code: str) -> str:
    """TypeScript ``code`` as a sentence writes it: casts and an arrow function's types left out."""
    code = _TS_CAST.sub(lambda m: m.group(1) or "", code)
    return _TS_ARROW.sub(lambda m: "(" + re.sub(r"(\w)\??\s*:\s*[^,]+", r"\1", m.group(1)) + ") =>", code)


def _ts_types_left_out(text: str, index: _Index) -> bool:
    """Whether ``text`` is in the anchored TypeScript once its casts and its arrow functions'
    parameter and return types are set aside (``typeof result.then === "function"`` for
    ``typeof (result as any).then === "function"``); the claim's own words stay as written."""
    wanted = code_tokens(text)
    if len(wanted) < 3:
        return False
    untyped = index.joined("ts-untyped", lambda: [
        token for ev, code in index.code_texts
        if ev.language in ("typescript", "tsx") or ev.label.split("::", 1)[0].endswith((".ts", ".tsx"))
        for token in (*code_tokens(_ts_untyped(code)), "\x01")])
    return "\x00" + "\x00".join(wanted) + "\x00" in untyped


def _glob_imported(text: str, index: _Index) -> bool:
    """Whether ``text`` is a Rust ``Enum::Variant`` (or ``Type::item``) whose last segment the anchored
    code writes bare, in a file that imports the enum's items (``use self::HasArg::*``): the
    variant by its full name, where the file shortens it."""
    m = re.fullmatch(r"(?:[A-Za-z_]\w*::)*([A-Z]\w*)::([A-Za-z_]\w*)", text.strip())
    if m is None or not index.has_sequence(m.group(2), code=True):
        return False
    return any(imp.rsplit("::", 1)[-1] == m.group(1) for ev in index.texts for imp in ev.imports)


#: A Rust trait impl named as people write it: ``impl Display for Encoded``, ``Drop for ScopeGuard``.
_IMPL_NAMED = re.compile(r"(?:impl\s+)?(?:[A-Za-z_]\w*::)*(?P<trait>[A-Z]\w*)\s+for\s+"
                         r"(?:[A-Za-z_]\w*::)*(?P<type>[A-Z]\w*)")


def _impl_anchored(text: str, index: _Index) -> bool:
    """Whether ``text`` names a trait impl (``Drop for ScopeGuard``) that an anchor is, or is a
    member of, by its own name (``<ScopeGuard as Drop>``, ``<ScopeGuard as Drop>.drop``): the
    anchor's name says the impl exists, and the read path re-checks it. ``unsafe impl ...`` says
    more than a name does and is found in the code only."""
    m = _IMPL_NAMED.fullmatch(text.strip())
    if m is None or any(not index.has_sequence(path, code=True)  # a path the claim writes, as the code does
                        for path in re.findall(r"(?:[A-Za-z_]\w*::)+[A-Z]\w*", text)):
        return False
    own = f"<{m.group('type')} as {m.group('trait')}"
    return any(name.startswith(own) and name[len(own): len(own) + 1] in (">", "<")
               for ev in index.texts for name in ev.names)


def _rust_impl_bare(tokens: Sequence[str]) -> list[str]:
    """Rust code ``tokens`` without the type arguments of the type an ``impl ... for`` names
    (``for Encoded < S >`` -> ``for Encoded``), as a sentence names the impl."""
    out: list[str] = []
    i, n = 0, len(tokens)
    while i < n:
        out.append(tokens[i])
        if out[-2:-1] == ["for"] and i + 1 < n and tokens[i + 1] == "<" and "impl" in out:
            i = _angle_end(tokens, i + 1)
        i += 1
    return out


def _rust_paths_left_out(text: str, index: _Index) -> bool:
    """Whether ``text``, Rust code as a sentence writes it, is in the anchored code with the leading
    segments of the code's paths left out (``T: Debug`` for ``where T: fmt::Debug``, ``io::Write``
    for ``std::io::Write``) and an impl's type arguments too (``impl Display for Encoded`` for
    ``impl<S: AsRef<[u8]>> std::fmt::Display for Encoded<S>``). The claim's own paths stay as
    written (``SendError::Closed`` is not ``TryRecvError::Closed``): only the code's may be longer."""
    wanted = _layout_free(code_tokens(text))
    if len(wanted) < 3 or not any(_WORD.fullmatch(t) for t in wanted):
        return False
    segment = r"(?:[A-Za-z_]\w*\x00:\x00:\x00)*"
    pattern = "\x00"
    for k, token in enumerate(wanted):
        path_start = _WORD.fullmatch(token) and wanted[max(0, k - 2):k] != [":", ":"]
        pattern += (segment if path_start else "") + re.escape(token) + "\x00"
    return re.search(pattern, index.joined("rust-impl-bare", lambda: _rust_impl_bare(_layout_free(index.code)))) \
        is not None


#: Go's and Rust's numeric conversions, written as calls: ``int64(n)``, ``float64(x)``.
_CONVERSIONS = frozenset({"int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
                          "uintptr", "float32", "float64", "byte", "rune"})


def _without_receivers(text: str, index: _Index) -> bool:
    """Whether ``text`` is a stretch of the code with the receivers of its
    names left out (``a >= limit`` for ``state.a >= self.limit``, ``b`` for
    ``this.#b``, ``status`` for ``context.response.status``) and Go's
    numeric conversions of one name left out (``size+writeLen`` for
    ``size+int64(writeLen)``): the claim's tokens in order, the code adding
    only ``name .`` before a name or a conversion around it."""
    wanted = code_tokens(text)
    if len(wanted) < 3 or not any(_WORD.fullmatch(t) for t in wanted):
        return False
    code = index.code
    for start in range(len(code)):
        i, j = 0, start
        skipped = False
        while i < len(wanted) and j < len(code):
            if code[j] == wanted[i]:
                i, j, skipped = i + 1, j + 1, False
            elif (_WORD.fullmatch(wanted[i]) and j + 2 < len(code) and _WORD.fullmatch(code[j])
                  and code[j + 1] == "." and (i == 0 or code[j - 1] != "." or skipped)):
                j, skipped = j + 2, True  # a receiver the claim leaves out (a chain of them: context.response.)
            elif code[j] == "#" and j > 0 and code[j - 1] == "." and j + 1 < len(code) and code[j + 1] == wanted[i]:
                j += 1  # this.#maxSize: the private mark goes with the receiver
            elif code[j] in _CONVERSIONS and code[j + 1:j + 2] == ["("] and code[j + 2:j + 4] == [wanted[i], ")"]:
                i, j, skipped = i + 1, j + 4, False  # writeLen for int64(writeLen): a numeric conversion left out
            else:
                break
        if i == len(wanted):
            return True
    return False


def _set_example(claim: str, text: str, index: _Index) -> bool:
    """Whether ``text`` is the value a claim assigns to an anchored setter in
    an example (``ctx.body = '<p>hi</p>'`` for ``set body``): the example's
    input, not a value the code writes."""
    value = rf"(?:[\"'`]{re.escape(text)}[\"'`]|{re.escape(text)}(?![\w$.]))"
    for m in re.finditer(rf"(?<![\w$])([A-Za-z_$][\w$]*)\s*=\s*{value}", claim):
        if any(name.endswith("set " + m.group(1)) for name in index.names):
            return True
    return False


#: A field of a template a claim writes: ``{parent prefix}``, ``{NAME}`` (not an object literal ``{ a }``).
_BRACE_FIELD = re.compile(r"\{[A-Za-z_][\w .]*\}(?=[\w\-.:/{])|(?<=[\w\-.:/}])\{[A-Za-z_][\w .]*\}")


def _bind_package(term: Term, ctx: _Context) -> tuple[bool, str]:
    """A package an install command names, and its extras: a module the
    anchored file imports, a declared dependency, the anchor's own package,
    or a word or string of the code; never a comment or a docstring (which
    often name the package the code used to need: ``pip install brotlipy``
    above ``import brotli``)."""
    index = ctx.index
    name, _, extra = term.text.partition("[")
    known = ({fold(m) for m in index.modules} | {fold(w) for w in index.code_lower}
             | {fold(s) for s in index.strings()} | {fold(seg) for seg in index.name_segments}
             | {fold(n) for n in index.names})
    wanted = [name, *(e for e in re.split(r"[,\s]+", extra.rstrip("]")) if e)]
    if all(fold(w) in known for w in wanted):
        return True, ""
    return False, _nearest_word(name, {m for m in index.modules if "." not in m})


def singular_of(word: str) -> str:
    """``word`` without a plural ending (``Decimals`` -> ``Decimal``), kept
    whole when the rest would be under four letters."""
    return re.sub(r"(?<=[a-z]{3})(?:es|s)$", "", word)


def _bind_proper(term: Term, ctx: _Context) -> tuple[bool, str]:
    """A name in prose binds where the evidence says it in any case (as a
    word or a part of one: ``Tornado`` ~ ``tornado_coroutine``) or the
    repository mentions it anywhere (``exists``): a claim may name what the
    project names, never what it does not (``Airflow``, ``Kubernetes``)."""
    text, index = term.text, ctx.index
    if text.lower() in index.lower or fold(text) in index.folded or text.lower() in index.parts() \
            or index.has_sequence(text, fold=True) or text.lower() in index.modules:
        return True, ""
    if _initials(text, index):
        return True, ""  # ACAO: the initials of a hyphenated name the code writes (Access-Control-Allow-Origin)
    singular = singular_of(text)
    if {text, singular} & _PLATFORM_NAMES or {text.lower(), singular.lower()} & sys.stdlib_module_names:
        return True, ""  # Decimal, Promise, Buffer: the language's own types, named in prose
    return ctx.exists(term), ""


def _initials(text: str, index: _Index) -> bool:
    """Whether ``text`` (three to six capitals) spells the initials of a
    hyphenated name in a string of the anchored code, one letter a part
    (``ACAO`` of ``'Access-Control-Allow-Origin'``): the abbreviation people
    write for a header."""
    if not re.fullmatch(r"[A-Z]{3,6}", text):
        return False
    return any("".join(p[:1] for p in s.split("-")).upper() == text
               for s in index.strings() if re.fullmatch(r"[A-Za-z]+(?:-[A-Za-z]+){2,5}", s))


#: Names every program may use without its project saying them: Python's builtins and the
#: global objects of JavaScript runtimes (``Promise``, ``Buffer``); stdlib modules count too
#: (``Decimal`` of ``decimal``, through :data:`sys.stdlib_module_names`).
_PLATFORM_NAMES = _PY_BUILTINS | frozenset({
    "Array", "ArrayBuffer", "BigInt", "Blob", "Boolean", "Buffer", "Date", "Error", "EventEmitter", "FormData",
    "Function", "Headers", "Infinity", "Intl", "JSON", "Map", "Math", "NaN", "Number", "Object", "Promise",
    "Proxy", "Reflect", "RegExp", "Request", "Response", "Set", "String", "Symbol", "TypeError", "URL",
    "URLSearchParams", "WeakMap", "WeakSet", "Node", "Deno", "Bun", "Python", "JavaScript", "TypeScript",
})


_BINDERS: dict[TermKind, Callable[[Term, _Context], tuple[bool, str]]] = {
    TermKind.IDENTIFIER: _bind_name,
    TermKind.CONSTANT: _bind_name,
    TermKind.DOTTED: _bind_dotted,
    TermKind.CALL: _bind_call,
    TermKind.KEYWORD: _bind_keyword,
    TermKind.NUMBER: _bind_number,
    TermKind.PATH: _bind_path,
    TermKind.STRING: _bind_string,
    TermKind.CODE: _bind_code,
    TermKind.ADDRESS: _bind_code,
    TermKind.VERSION: _bind_code,
    TermKind.PACKAGE: _bind_package,
    TermKind.PROPER: _bind_proper,
}

_RAISED = r"(?:\braise[sd]?|\braising|\bthrows?|\bthrown|\bthrowing)\s+(?:an?\s+|the\s+)?"
_NEGATION = re.compile(r"\b(?:no|not|never|none|nothing|nowhere|without|neither|nor|cannot|can't|doesn't|don't"
                       r"|isn't|aren't|won't|mustn't|forbids?|forbidden|bans?|banned|avoids?)\b|n't\b", re.I)


_NEGATED = re.compile(r"\b(?:no|not|never|without|nor|neither|isn't|aren't|doesn't|don't|cannot|can't|won't|"
                      r"instead of|rather than)\s+(?:(?!(?:raises|throws|returns|gives|yields|fails)\b)[\w-]+\s+){0,2}"
                      r"[`'\"]*$", re.I)


#: Terms that name something (a value under a negation is a bound: "never exceeds 60").
_NAMES = frozenset({TermKind.IDENTIFIER, TermKind.CONSTANT, TermKind.DOTTED, TermKind.CALL, TermKind.CODE,
                    TermKind.PATH, TermKind.PACKAGE})


def _negated(claim: str, text: str) -> bool:
    """Whether ``text`` stands right after a negation in ``claim`` ("no
    `-h`", "does not call `flush`", "without a `timeout`"; not "without a
    default raises TypeError", where the negation is the default's)."""
    return any(_NEGATED.search(claim[max(0, m.start() - 60):m.start()])
               for m in re.finditer(rf"(?<![\w$-]){re.escape(text)}(?![\w$-])", claim))


#: A negation right before a value: "not the 16 raw bytes", "aren't 30 days", "NOT 'milliseconds'".
_NEGATED_VALUE = re.compile(r"(?:\bnot|n't|\brather\s+than|\binstead\s+of)\s+(?:the\s+|a\s+|an\s+)?[\"'`]?$", re.I)
#: A value, then the alternative it rules out: "307, not 302", "'lax' (not 'strict')", "30 rather than 60".
_CONTRAST = (r"(?:(?<![\w.$])-?\d[\w.]*|[\"'`][^\"'`\n]*[\"'`]|\b(?:True|False|None|true|false|null))"
             r"(?:\s*[A-Za-z\u00b5]{1,8})?\s*,?\s*(?:and\s+|but\s+)?\(?\s*(?:not|rather\s+than|instead\s+of)\s+[\"'`]?")


#: A closed set of literals in code: ``new Set(['a', 'b'])``, ``[301, 302]``, ``/^(get|head)$/i``.
_LITERAL_LIST = re.compile(r"\[\s*((?:[\"'][^\"'\n]{1,40}[\"']|\d+)(?:\s*,\s*(?:[\"'][^\"'\n]{1,40}[\"']|\d+))+)\s*,?\s*\]")
_ALTERNATION = re.compile(r"/\^\((?:\?:)?([\w-]+(?:\|[\w-]+)+)\)\$/[a-z]*")
#: How a claim makes its list exclusive ("only", "just") and what sets a value outside it.
_EXCLUSIVE = re.compile(r"\b(?:only|just|exclusively|solely)\b", re.I)
_OUTSIDE = re.compile(r"\b(?:else|other|others|otherwise|except|besides|apart\s+from|outside)\b", re.I)
_ADDED = re.compile(r"\b(?:too|also|as\s+well|likewise|same|including|includes?|plus|additionally)\b", re.I)


def _closed_sets(index: _Index) -> list[set[str]]:
    """The fixed sets of values the code tests membership in, lower-cased:
    the items of a literal array or ``Set`` (all strings or all numbers)
    and the alternatives of an anchored regular expression."""
    out = []
    for _, code in index.code_texts:
        for m in _LITERAL_LIST.finditer(code):
            items = [i.strip() for i in m.group(1).split(",")]
            if len({i[:1].isdigit() for i in items}) == 1:
                out.append({i.strip("\"'").lower() for i in items})
        out += [set(m.group(1).lower().split("|")) for m in _ALTERNATION.finditer(code)]
    return out


def _outside_closed_set(claim: str, term: Term, index: _Index) -> bool:
    """Whether the claim names ``term`` as a value outside a closed set of
    the code and the code's set indeed lacks it ("only `http:`, `https:`
    and `data:`; anything else (e.g. `ftp:`)", "knows 301 and 302; 300 is
    not", "only GET/PUT are upper-cased; `patch` stays lowercase").

    The claim must name every member of the set in another clause, and
    either negate the term's clause or set it apart ("else", "except"), or
    call its list exclusive ("only") with no word that adds the term to
    it ("too", "also"). A value the claim puts inside the set must be in
    the code's set: then it binds as any value does.
    """
    if term.kind not in (TermKind.CODE, TermKind.STRING, TermKind.IDENTIFIER, TermKind.NUMBER):
        return False
    pair = _PAIR.fullmatch(term.text)
    value = (pair.group(2) if pair else term.text).strip("\"'`").lower()
    if not value or len(value) > 40 or " " in value:
        return False
    clauses = re.split(r";|\.(?:\s|$)", claim)
    clause = next((c for c in clauses if term.text in c), "")
    if not clause:
        return False
    rest = claim.replace(clause, " ")
    for members in _closed_sets(index):
        if len(members) < 2 or value in members or value.isdigit() is not next(iter(members)).isdigit():
            continue
        if not all(re.search(rf"(?<![\w$-]){re.escape(m)}(?![\w$-])", rest, re.I) for m in members):
            continue
        if _NEGATION.search(clause) or _OUTSIDE.search(clause):
            return True
        if not _ADDED.search(clause) and any(_EXCLUSIVE.search(c) and any(
                re.search(rf"(?<![\w$-]){re.escape(m)}(?![\w$-])", c, re.I) for m in members)
                for c in clauses if c != clause):
            return True
    return False


#: What a claim introduces an example with: "like", "e.g.", "such as", "for example".
_EXAMPLE_WORDS = r"like|e\.g\.?|such\s+as|for\s+(?:example|instance)"


def _example_path(claim: str, text: str) -> bool:
    """Whether ``text`` is a path with placeholders (``/{id}/items/{id}``,
    ``/users/<name>``) that the claim introduces as an example ("like",
    "e.g.", "such as", "for example")."""
    if not re.search(r"\{[^{}\n]*\}|<[^<>\n]+>", text) or "/" not in text:
        return False
    at = claim.find(text)
    return at >= 0 and re.search(rf"\b(?:{_EXAMPLE_WORDS})[\s,:]*[`'\"]?$", claim[max(0, at - 30):at], re.I) is not None


#: What an option is introduced with as an example: those words, and "say".
_LIKE = rf"\b(?:{_EXAMPLE_WORDS}|say)[\s,:]*[`'\"]?$"
#: Names of an option that stand for any option: ``--flags``, ``--option``, ``--foo``.
_GENERIC_OPTIONS = frozenset({"flag", "flags", "option", "options", "switch", "switches", "opt", "opts",
                              "foo", "bar", "baz", "qux"})
#: What a command line's placeholders stand for: "`[optional]` arguments".
_OPERAND_KINDS = r"(?:arguments?|args?|operands?|options?|parameters?|params?|values?|flags?)\b"


#: What a claim says an option becomes: "is stored as", "becomes", "ends up as", "maps to".
_BECOMES = r"\s+(?:is\s+|are\s+)?(?:stored|saved|kept|read|available)\s+as\s+|\s+(?:becomes|turns\s+into|ends\s+up\s+as|maps\s+to)\s+"


def _derived_keys(claim: str, terms: Sequence[Term]) -> list[tuple[str, str, Term]]:
    """(option, key, affix) for each example a claim gives of a mapping it
    names: an option that "is stored as" a key, where the claim says the
    code drops an affix it writes as code (``drops `no-` ... so
    `--no-color-output` is stored as `colorOutput```) and the key is the
    option without its dashes and that affix, camel-cased or snake-cased.
    The affix must bind for the example to; a key that keeps the affix,
    or a claim that names none, is the code's to say."""
    affixes = [t for t in terms if t.kind is TermKind.CODE and re.fullmatch(r"[a-z]+-", t.text)
               and re.search(rf"\b(?:drops?|dropping|strips?|stripping|removes?|removing|without)\s+`{re.escape(t.text)}`",
                             claim)]
    out = []
    for m in re.finditer(rf"`(--[a-z][a-z0-9-]*)`(?:{_BECOMES})`([A-Za-z_$][\w$]*)`", claim):
        flag, key = m.group(1), m.group(2)
        for affix in affixes:
            rest = flag.lstrip("-")
            if not rest.startswith(affix.text):
                continue
            words = rest[len(affix.text):].split("-")
            if key in (words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:]), "_".join(words)):
                out.append((flag, key, affix))
    return out


def _example_option(claim: str, text: str) -> bool:
    """Whether ``text`` is an option or a placeholder the claim gives as an
    example rather than as an option the program has: one option introduced
    as an example ("a short flag like `-x`"), an option named by a word for
    any option ("long `--flags`"), or one bracketed placeholder written as
    the shape of what the code handles ("`[optional]` arguments")."""
    at = claim.find(text)
    if at < 0:
        return False
    before, after = claim[max(0, at - 30):at], claim[at + len(text):].lstrip("`'\"")
    if re.fullmatch(r"--?[A-Za-z][\w-]*", text):
        clause = re.split(r"[;.:]\s|,", claim[:at])[-1]
        if re.search(r"\b(?:has|have|had|defines?|declares?|registers?|adds?|provides?|supports?|accepts?)\b",
                     clause, re.I) or re.match(r"\s+(?:option|flag|switch)\b", after):
            return False  # "the program has options like `--verbose`", "a `--foo` option": one it has
        return (re.search(_LIKE, before, re.I) is not None
                or text.lstrip("-").lower() in _GENERIC_OPTIONS)
    return (re.fullmatch(r"\[[A-Za-z][\w-]*(?:\.\.\.)?\]|<[A-Za-z][\w-]*(?:\.\.\.)?>", text) is not None
            and re.match(rf"\s+(?:[a-z]+\s+)?{_OPERAND_KINDS}", after) is not None)


def _contrasted(claim: str, text: str) -> bool:
    """Whether the claim writes the value ``text`` only as the alternative a
    value before it rules out ("defaults to 307, not 302"), or as what the
    code does not have ("months aren't 30 days", "not the 16 raw bytes"):
    the code need not say it; the value the claim states is the one checked."""
    found = list(re.finditer(rf"(?<![\w.$]){re.escape(text)}(?![\w$]|\.\d)", claim))
    return bool(found) and all(re.search(_CONTRAST + "$", claim[max(0, m.start() - 60):m.start()])
                               or _NEGATED_VALUE.search(claim[max(0, m.start() - 30):m.start()]) for m in found)


def _clause(claim: str, text: str) -> str:
    """The clause of ``claim`` that holds ``text`` (the whole claim when it is not found)."""
    for clause in re.split(r";|\.(?:\s|$)|:\s|\s[-\u2013\u2014]\s|,\s+but\s", claim):
        if text in clause:
            return clause
    return claim


def _raised(term: Term, ctx: _Context) -> bool | None:
    """For a class the claim says is raised or thrown (``raises
    httpx.StreamConsumed``), whether the code raises, throws or catches it
    (else ``None``)."""
    if term.kind not in (TermKind.IDENTIFIER, TermKind.DOTTED) or not term.text.rsplit(".", 1)[-1][:1].isupper() \
            or not re.search(
            _RAISED + re.escape(term.text) + r"(?![\w$])", ctx.claim):
        return None
    return ctx.index.handles(term.text.rsplit(".", 1)[-1])


def _nearest_word(word: str, candidates: Iterable[str]) -> str:
    pool = sorted(set(candidates))
    if any(ch.isdigit() for ch in word):
        prefix = re.match(r"[A-Za-z]+", word)
        if prefix:
            same = [c for c in pool if c.lower().startswith(prefix.group(0).lower()) and c != word
                    and any(ch.isdigit() for ch in c)]
            if same:
                return same[0]
    close = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    return close[0] if close else ""


#: English words that carry no claim of their own (articles, pronouns,
#: auxiliaries, conjunctions, prepositions, quantifiers).
_FUNCTION_WORDS = frozenset({
    "a", "an", "the", "and", "or", "but", "nor", "if", "then", "else", "so", "as", "than", "that", "this", "these",
    "those", "there", "here", "it", "its", "itself", "they", "them", "their", "we", "our", "you", "your", "he",
    "she", "his", "her", "who", "whom", "whose", "which", "what", "when", "where", "why", "how", "whether", "while",
    "until", "unless", "because", "since", "though", "although", "of", "to", "in", "on", "at", "by", "for", "with",
    "from", "into", "onto", "about", "above", "below", "over", "under", "between", "through", "during", "without",
    "within", "across", "against", "toward", "towards", "upon", "via", "per", "up", "down", "out", "off", "again",
    "once", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "done", "doing", "has",
    "have", "had", "having", "can", "could", "will", "would", "shall", "should", "may", "might", "must", "not",
    "no", "yes", "also", "just", "even", "still", "yet", "ever", "never", "always", "only", "very", "too", "quite",
    "rather", "much", "many", "more", "most", "less", "least", "few", "some", "any", "all", "each", "every", "both",
    "either", "neither", "other", "another", "same", "such", "own", "one", "two", "first", "second"
})
#: How much of a claim's wording its code must share when its only terms
#: are its anchors' own names (see :func:`unsupported`).
UNSUPPORTED_SHARE = 2 / 3
#: A claim with fewer ordinary words than this is too short to judge by them.
UNSUPPORTED_MIN_WORDS = 6


def _stem(word: str) -> str:
    """A word without its commonest English endings (``expiry``,
    ``expires``, ``expired`` -> ``expir``), for comparing prose with code words."""
    word = word.lower()
    for suffix in ("ations", "ation", "ingly", "ings", "ing", "ers", "er", "ies", "ied", "es", "ed", "ly", "s", "e",
                   "y"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return _stem(word[: -len(suffix)])  # arrays -> array -> arra, as array itself
    return word


def unsupported(claim: str, terms: Sequence[Term], index: _Index) -> list[str]:
    """The claim's ordinary words its anchored code never uses, when they
    are all the claim has to say; empty otherwise.

    A claim whose only terms are its anchors' own names ("TTLCache adds a
    random jitter to each expiry") has had nothing checked but that its
    anchor exists. Its ordinary words are then the only evidence left: when
    at least :data:`UNSUPPORTED_SHARE` of them (and at least
    :data:`UNSUPPORTED_MIN_WORDS` in all) appear nowhere in the anchored
    code, its comments or its docstrings, in any form (``expire`` for
    "expiry"), nothing there says what the claim says, and the claim is
    unconfirmed. Any other term, bound, makes the claim checked and this
    silent: the rule never demotes a claim made of what its code says.
    """
    if _PLACEHOLDER.search(claim) or any("::" not in ev.label and not ev.derived for ev in index.texts):
        return []  # a written shape (<root>/<name>.<ext>), or a manifest or file: not the wording of code
    own = {seg.lower().strip("_#") for seg in index.name_segments}
    for term in terms:
        segments = [seg.strip("_#@$").lower() for seg in re.split(r"[.\s]", term.text.rstrip("()").lstrip(".@"))]
        if not all(seg in own for seg in segments if seg):
            return []  # a term of its own: checked by binding
    words = [w for w in dict.fromkeys(w.lower() for w in re.findall(r"[A-Za-z][a-z]{2,}", claim))
             if w not in _FUNCTION_WORDS]
    if len(words) < UNSUPPORTED_MIN_WORDS:
        return []
    known = {_stem(p) for p in index.parts() | index.lower}
    missing = [w for w in words if _stem(w) not in known]
    return missing if len(missing) >= UNSUPPORTED_SHARE * len(words) else []


def _context_words(claim: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]{2,}", claim)} - _STOP


_STOP = frozenset({"the", "and", "for", "with", "that", "this", "not", "are", "was", "from", "its", "when",
                   "into", "than", "then", "uses", "use", "has", "have", "every", "each", "only", "set",
                   "default", "defaults", "value", "values", "returns", "return"})


def _nearest_line(claim: str, index: _Index, accept: Callable[[str], bool]) -> str:
    """The code line that shares most words with the claim and holds a
    token ``accept`` likes (a number, a string), stripped."""
    wanted = _context_words(claim)
    best, best_score = "", -1
    for _, code in index.code_texts:
        for line in code.splitlines():
            if not any(accept(tok) for tok in _TOKEN.findall(line)):
                continue
            score = len(wanted & {w.lower() for w in _WORD.findall(line)})
            if score > best_score:
                best, best_score = " ".join(line.split())[:80], score
    return best


def _unescaped(evidence: EvidenceText) -> EvidenceText:
    """An absence rule's target without its regular-expression escapes."""
    return EvidenceText(evidence.label, _REGEX_ESCAPE.sub(" ", evidence.text), evidence.names, evidence.language,
                        evidence.absent, evidence.imports)


def bind(claim: str, evidence: Sequence[EvidenceText], *, exists: Callable[[Term], bool] | None = None,
         unbound: Iterable[str] = (), terms: Sequence[Term] | None = None) -> list[UnboundTerm]:
    """The claim's code-like terms that its evidence does not contain.

    Args:
        claim: The claim as written.
        evidence: What each anchor says.
        exists: Whether a dotted name or path names a module, symbol or file
            of the repository at the recorded commit, or a call fits a
            definition there (default: never).
        unbound: Terms the writer declares as deliberately unbound; they
            are skipped.
        terms: The claim's terms when the caller has them already
            (default: :func:`claim_terms` of ``claim``).

    Returns:
        One :class:`UnboundTerm` per term that binds nowhere (empty: the
        claim is bound).
    """
    declared = {u.strip().strip("`") for u in unbound}
    check = exists or (lambda term: False)
    ctx = _Context(_Index([ev for ev in evidence if not ev.absent]), check, claim, _examples(claim))
    rules = [_unescaped(ev) for ev in evidence if ev.absent]
    negative = _Context(_Index(rules), lambda term: False, claim) if rules else None
    looked = tuple(ev.label for ev in evidence)
    out = []
    terms = claim_terms(claim) if terms is None else terms
    # stop_after_attempt(3) ... "at most 3 calls": a number the claim's own example call passes
    passed = {(v, claim.find(t.text) + len(t.text)) for t in terms if t.kind is TermKind.CALL and "(" in t.text
              and t.text in claim
              for v in (number_value(n.group(0)) for n in _NUMBER.finditer(t.text[t.text.index("("):]))
              if v is not None}
    derived = _derived_keys(claim, terms)
    for term in terms:
        if term.text in declared:
            continue
        ok, nearest = _BINDERS[term.kind](term, ctx)
        raised = _raised(term, ctx)
        if raised is not None:
            ok = ok and raised
        if not ok and negative is not None and _NEGATION.search(_clause(claim, term.text)):
            plain = Term(_REGEX_ESCAPE.sub(" ", term.text).strip(), term.kind)
            ok = _BINDERS[term.kind](plain, negative)[0]
        if not ok and term.kind in (TermKind.STRING, TermKind.NUMBER, TermKind.CODE) \
                and _set_example(claim, term.text, ctx.index):
            ok = True
        if not ok and term.kind is TermKind.NUMBER and any(
                v == number_value(term.text) and any(m.start() >= end for m in _NUMBER.finditer(claim)
                                                     if m.group(0) == term.text)
                for v, end in passed):
            ok = True  # written after the call that passes it
        if not ok and term.kind in (TermKind.CODE, TermKind.PATH) and _example_path(claim, term.text):
            ok = True  # "a path like `/{id}/items/{id}`": the example's own path
        if not ok and any(term.text in (flag, key) and _BINDERS[prefix.kind](prefix, ctx)[0]
                          for flag, key, prefix in derived):
            ok = True  # "drops `no-`, so `--no-color-output` is stored as `colorOutput`": the example of it
        manifest_key = re.fullmatch(r"((?:dev|peer|optional|bundled?)Dependenc)(?:y|ies)|((?:dev|peer|optional|"
                                    r"bundled?))Deps?", term.text)
        if not ok and manifest_key and any(ctx.index.has_string(key) or key in ctx.index.words
                                           for key in ((manifest_key.group(1) or manifest_key.group(2) + "Dependenc")
                                                       + end for end in ("y", "ies"))):
            ok = True  # "obuild is a devDependency", "devDeps": the manifest's devDependencies, singular or shortened
        if not ok and term.kind is TermKind.STRING and _epoch(term.text, ctx.index):
            ok = True  # "reads 1970-01-01 00:00:00 UTC" for time.Unix(0, 0): the epoch, named by its date
        if not ok and term.kind is TermKind.STRING and _MEDIA_TYPE.fullmatch(term.text) \
                and _media_type_named(term.text, ctx.index):
            ok = True  # "text/html" for `this.type('html')`: a media type, named as the code names it
        if not ok and term.kind is TermKind.CODE and _example_option(claim, term.text):
            ok = True  # "a short flag like `-x`", "long `--flags`", "`[optional]` arguments": the example's
        if not ok and term.kind in (TermKind.NUMBER, TermKind.STRING) and _contrasted(claim, term.text):
            ok = True  # "defaults to 307, not 302": the alternative the claim rules out
        if not ok and _COMMENT_SAYS.search(claim[max(0, claim.find(term.text) - 60):claim.find(term.text)]) \
                and _in_comment_text(term.text, ctx.index):
            ok = True  # "per the TODO comment about ~200ns": the claim quotes a comment, and the comment says it
        if not ok and term.kind in (TermKind.CODE, TermKind.KEYWORD, TermKind.STRING) \
                and (_metavariables(term.text, ctx) or _parsed_input(term.text, ctx.index)):
            ok = True  # `KEY="VALUE"` for fmt.Sprintf(`%s="%s"`, k, v): capitals stand for the fields
        if not ok and _outside_closed_set(claim, term, ctx.index):
            ok = True  # "only `http:` and `data:`; anything else (e.g. `ftp:`)": checked absent from the code's set
        if not ok and term.kind in _NAMES | {TermKind.PROPER} and _negated(claim, term.text) \
                and not ctx.index.has_sequence(term.text, fold=True):
            ok = True  # "no `-h`": the claim says the code lacks it, and it does
        if not ok and term.kind is TermKind.STRING and re.fullmatch(r"[\w-]+", term.text) \
                and re.search(rf"""\bno\s+["'`]{re.escape(term.text)}["'`]\s+(?:block|key|field|entry|section|"""
                              r"property|table|member|setting)\b", claim) and not ctx.index.has_string(term.text):
            ok = True  # 'no "dependencies" block': a key the claim says the file lacks, and it does
        if not ok:
            out.append(UnboundTerm(term, looked, nearest if nearest != term.text else ""))
    bound = [t for t in terms if t.text not in declared and not any(u.term is t for u in out)]
    # `.nuxtrc` of the template `.${name}rc` the claim writes too, and `'nuxt'`, the word that fills it
    fills = {fill for t in terms for b in bound for fill in (_template_fills(t.text, b.text) or ())}
    out = [u for u in out if u.term.text not in fills
           and not any(_template_fills(u.term.text, b.text) is not None for b in bound)]
    if not out and not declared:
        words = unsupported(claim, terms, ctx.index)
        if words:
            out.append(UnboundTerm(Term(", ".join(f"'{w}'" for w in words[:5]), TermKind.WORDS), looked))
    for module in [*_stdlib_strays(claim, ctx, declared, terms), *_go_std_strays(claim, ctx, declared)]:
        out.append(UnboundTerm(module, looked, ""))
    for stray in _list_strays(claim, ctx.index, declared):
        if not any(re.search(rf"(?<![\w$-]){re.escape(stray.text)}(?![\w$-])", u.term.text) for u in out):
            out.append(UnboundTerm(stray, looked, _nearest_word(stray.text, ctx.index.strings())))
    return out


#: A placeholder of a template the claim writes: ``${name}``, ``<name>``, ``{name}``.
_TEMPLATE_FIELD = re.compile(r"\$\{[^{}\s]+\}|<[A-Za-z_][\w-]*>|\{[A-Za-z_]\w*\}")


def _template_fills(text: str, template: str) -> tuple[str, ...] | None:
    """The words that fill ``template``'s placeholders to give ``text`` (``nuxt`` for ``.nuxtrc`` of
    ``.${name}rc``, and for ``nuxt.config`` of ``${name}.config``), or None when it does not: the
    claim's example of a template it also writes, and which binds. The template keeps two characters
    of its own at least."""
    fields = list(_TEMPLATE_FIELD.finditer(template))
    if not fields or text == template:
        return None
    literal = _TEMPLATE_FIELD.sub("", template)
    if len(literal.strip()) < 2:
        return None
    pattern, at = "", 0
    for m in fields:
        pattern += re.escape(template[at:m.start()]) + r"([\w-]+(?:\.[\w-]+)*?)"
        at = m.end()
    pattern += re.escape(template[at:])
    m = re.fullmatch(pattern, text)
    return m.groups() if m else None


#: The words that name what something is done with: "through gettext", "via asyncio", "using threading".
_INSTRUMENT = re.compile(r"\b(?:through|via|with|using|uses|use|by)\s+$", re.I)


def _stdlib_strays(claim: str, ctx: _Context, declared: Iterable[str], terms: Sequence[Term]) -> list[Term]:
    """The standard-library modules a claim about Python code names in prose
    as what something is done with ("passed through gettext", "via
    asyncio") that the project mentions nowhere: a claim may say the code
    uses a module only where the project says it."""
    if "python" not in ctx.index.languages:
        return []
    taken = {t.text.lower() for t in terms} | {d.lower() for d in declared}
    out: list[Term] = []
    plain = _BACKTICK.sub(" ", claim)
    for m in re.finditer(r"(?<![\w.$`/-])[a-z]{5,}(?![\w.$`/(-])", plain):
        word = m.group(0)
        if not _INSTRUMENT.search(plain[max(0, m.start() - 20):m.start()]):
            continue  # "unknown types": a word; "passed through gettext": the module the code would use
        if word not in sys.stdlib_module_names or word in taken or word in ctx.index.lower \
                or word in ctx.index.modules or word in ctx.index.parts():
            continue
        term = Term(word, TermKind.PROPER)
        if term not in out and not ctx.exists(term):
            out.append(term)
    return out


def _go_std_strays(claim: str, ctx: _Context, declared: Iterable[str]) -> list[Term]:
    """The Go standard-library packages a claim about Go code names by
    their import path (``encoding/json``, ``os/exec``) that the anchored
    code does not use: no member reached through the package's name
    (``json.NewEncoder``) and no import of it, nor any other Go file of the
    repository imports it. A claim may say the code writes JSON
    "(encoding/json)" only where it does; "stdlib only (bytes,
    encoding/json)" of an anchored ``go.mod`` names what the package's files import."""
    if "go" not in ctx.index.languages:
        return []
    out: list[Term] = []
    for m in re.finditer(r"(?<![\w./-])[a-z][a-z0-9]*(?:/[a-z0-9]+)+(?![\w/-])", claim):
        path = m.group(0)
        if path not in GO_STD_PATHS or path in declared:
            continue
        qualifier = path.rsplit("/", 1)[-1]
        if ctx.index.has_sequence(qualifier + ".", code=True) or ctx.index.has_string(path):
            continue
        term = Term(path, TermKind.PATH)
        if term not in out and not ctx.exists(term):
            out.append(term)
    return out


_ITEM = r"[A-Za-z_$][\w$]*(?:-[A-Za-z0-9]+)*"
_ITEM_SEP = r"(?:\s*,\s*(?:(?:and|or)\s+)?|\s*/\s*|\s+(?:and|or|as well as)\s+)"
#: A list a claim gives: ``subdomainOffset, proxy, env and keys``, ``PATCH as well as PUT/DELETE/GET``.
_LIST = re.compile(rf"(?<![\w$.-]){_ITEM}(?:{_ITEM_SEP}{_ITEM}){{2,}}(?![\w$(])")


def _list_strays(claim: str, index: _Index, taken: Iterable[str]) -> list[Term]:
    """The members of a list the claim gives that the code's own list lacks.

    A list of three or more plain names, at least two of them (and half)
    string literals of the anchored code (``only(this, ['subdomainOffset',
    'proxy', 'env'])``, ``['GET', 'HEAD', 'PUT', ...]``), is read as that
    literal list: a member the code says nowhere, not even as a word, is a
    term the code does not say (``keys``, ``PATCH``).
    """
    out: list[Term] = []
    plain = claim.replace("`", "")
    for m in _LIST.finditer(plain):
        items = [i for i in re.split(_ITEM_SEP, m.group(0)) if i]
        if re.match(r"\s+[a-z]", plain[m.end():]) or (re.match(r"\s+[A-Z(\"']", plain[m.end():])
                                                      and re.fullmatch(r"[a-z]+", items[-1] if items else "")):
            items = items[:-1]  # "... and sends no body", "... and raises ValueError(...)": the last word opens a clause
        literal = [i for i in items if index.has_string(i)]
        if len(literal) < 2 or 2 * len(literal) < len(items):
            continue
        for item in items:
            if item in taken or index.has_string(item) or item.lower() in index.lower \
                    or item.lower() in index.code_lower:
                continue
            out.append(Term(item, TermKind.STRING))
    return out


def render_unbound(terms: Sequence[UnboundTerm]) -> str:
    """The refusal message: a header, then one line per unbound term."""
    n = len(terms)
    head = (f"the claim names {n} code term{'s' if n != 1 else ''} that its anchored evidence does not "
            "contain; correct the claim, anchor the code that says it, or declare the term deliberately "
            "unbound (--unbound TERM / unbound=[...]); nothing was written:")
    return "\n".join([head, *(f"  - {t.line()}" for t in terms)])
