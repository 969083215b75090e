"""Usage examples read as code: which of their names are the library's and which are the reader's.

A claim often shows how the code is used: ``jwt.encode(payload, key,
algorithm=None)``, ``require('dotenv').config({ secure: true })``,
``queue.concurrency = 10``, ``inflate: false``. Read token by token, such
an example never occurs in the code it describes: ``payload``, ``queue``
and ``10`` are the reader's. Parsed by the grammar of the anchored
language, each name has a role:

    the library's   a callee (``encode``, ``HookimplMarker``), a member
                    read or assigned (``config``, ``concurrency``), a
                    keyword (``algorithm=``), an object key (``secure``,
                    the shorthand ``{ path }``)
    the reader's    a receiver at the head of a chain (``jwt``, ``queue``),
                    a variable passed or assigned (``payload``,
                    ``hookimpl = ...``), a function literal's parameters,
                    literals (strings, numbers, ``None``), placeholders
                    (``...``, ``<name>``)

The example reads as a use of the anchored code when it parses without an
error, shows a use (a call, a keyword, an object of settings or an
assignment to a member), names at least one of the library's names and
each of those names binds (the caller's ``library`` callback). A boolean
set for a key is the library's too: the key must be one the code takes a
decision on (the caller's ``switch`` callback), since ``strict: false``
says what the code does with it. Nothing else of the example is checked:
its values are the reader's, and what the claim says they do is left to
the relation rules.

Go and Rust examples are read the same way by their own grammars (an
expression, ``return`` dropped): ``r.Handle("GET /users", h)``,
``ThrottleOpts{Limit: 10}`` (a composite literal: its type and keys are the
library's), ``log::set_max_level(LevelFilter::Info)`` (a path's capitalized
owner is the library's type, a lower-case one the crate), ``bail!("x {}",
y)`` (a macro is a call; only a ``key:`` in its tokens is the library's).
Go parses ``pkg.New(x)`` with one argument as a conversion: it is a call
all the same. Calls that only wrap the reader's values (``Some(x)``,
``Box::new(x)``, ``vec![..]``, ``append``) are no use and name nothing,
and a bare capitalized name passed in Go or Rust is the reader's own type
(``Box::new(MyLogger)``); Rust's ``..`` among arguments is any, and
``parse::<Level>`` keeps its type argument (no placeholder).

Not read so: statements (``catch (e) { ... }``), shell commands, patterns
and paths the library parses (``/:a:b``), an example whose only names are
the reader's (``x = 1``), and arithmetic or bitwise operators between
calls (``wait_fixed(3) + wait_random(0, 2)``): what an operator builds is
the class's operator method's to say, which :mod:`memvet._claims` binds
by the method (``__add__``), not by the expression. Arithmetic of plain
values is read as its operands (``5*time.Minute``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import tree_sitter

from ._code._languages import parse

#: The name an ellipsis or a ``<placeholder>`` stands in as: any expression.
_ANY = "__memvet_any__"

_PLACEHOLDERS = re.compile(r"<[A-Za-z_][\w .:/-]{0,40}>|…|\.\.\.(?![\w$\[({])")
#: Rust's rest among arguments or in a pattern: ``Some(..)``, ``f(a, ..)``.
RUST_REST = re.compile(r"(?<=[(,\s])\.\.(?=\s*[),])")
_BARE_PAIR = re.compile(r"[A-Za-z_$][\w$]*\s*:\s*\S.*", re.S)
_BOOLEANS = frozenset({"true", "false", "True", "False"})
_LOWER_NAME = re.compile(r"_*[a-z][a-z0-9_]*(?:[A-Z][a-z0-9_]*)*")

_LITERALS = frozenset({"string", "number", "integer", "float", "true", "false", "none", "null", "undefined",
                       # Go
                       "int_literal", "float_literal", "imaginary_literal", "rune_literal",
                       "interpreted_string_literal", "raw_string_literal", "nil", "iota",
                       # Rust
                       "integer_literal", "string_literal", "char_literal", "boolean_literal"})

#: The node kinds of a call across grammars (Go parses ``pkg.New(x)`` as a conversion).
_CALLS = frozenset({"call", "call_expression", "new_expression", "type_conversion_expression"})

#: Builtins a JS example loads the library with.
_LOADERS = frozenset({"require", "import"})

#: Calls that only wrap or build the reader's values (Rust's ``Some(x)``, ``Box::new(x)``, ``vec![..]``;
#: Go's ``append``, ``make``, ``errors.Is(err, pkg.ErrX)``): not a use of the library, and not its names;
#: their arguments are read.
_WRAPPERS = frozenset({"Some", "Ok", "Err", "Box.new", "Arc.new", "Rc.new", "Cell.new", "RefCell.new",
                       "Mutex.new", "RwLock.new", "Vec.new", "String.from", "String.new", "Cow.Borrowed",
                       "Cow.Owned", "vec", "format", "println", "eprintln", "print", "dbg", "assert",
                       "assert_eq", "assert_ne", "append", "make", "new", "len", "cap", "errors.Is", "errors.As"})

#: The fields naming an expression's owner and member across grammars: ``a.b`` in Python (attribute),
#: JS (member_expression), Go (selector_expression), Rust (field_expression), Rust's ``a::b``
#: (scoped_identifier).
_OWNER = ("object", "operand", "value", "path")
_MEMBER = ("attribute", "property", "field", "name")
_MEMBER_KINDS = frozenset({"attribute", "member_expression", "selector_expression", "field_expression",
                           "scoped_identifier"})


@dataclass
class _Roles:
    """The names an example gives the library, and the keys it sets to a boolean."""

    library: list[str]
    switches: list[tuple[str, str]]
    uses: int = 0
    callees: list[str] = field(default_factory=list)  # outermost first
    heads: list[str] = field(default_factory=list)  # the receivers that start a chain
    members: list[str] = field(default_factory=list)  # the members an assignment sets
    values: list[tuple[str, str]] = field(default_factory=list)  # (keyword or key, the literal it is given)
    positional: list[str] | None = None  # the outermost call's positional arguments
    settings: bool = False  # the example is an object of settings or one setting, used by nothing it shows
    grammar: str = ""


def _grammar(language: str) -> str | None:
    if language in ("python", "go", "rust"):
        return language
    if language in ("typescript", "tsx"):
        return "typescript"  # an example is an expression: the TSX grammar adds nothing to it
    return "javascript" if language == "javascript" else None


def _prepared(text: str, grammar: str) -> str:
    """``text`` with its placeholders as a name, a bare JS pair or object as an expression, and a Go or
    Rust expression as the statement their grammars parse (``return`` dropped, the statement ended)."""
    text = text.strip()
    if grammar in ("go", "rust"):
        # `parse::<Level>`, `Vec<T>`: type arguments right after a name are no placeholders
        text = _PLACEHOLDERS.sub(lambda m: m.group(0) if re.search(r"[\w:]$", text[:m.start()])
                                 and m.group(0)[0] == "<" else _ANY, text)
        text = re.sub(r"^return\s+", "", text).rstrip(";").rstrip()
        if grammar == "rust":
            text = RUST_REST.sub(_ANY, text)  # `Some(..)`, `f(a, ..)`: the rest of the arguments, any
        return text + (";" if grammar == "rust" else "\n")
    text = _PLACEHOLDERS.sub(_ANY, text)
    if grammar != "python":
        if text.startswith("{"):
            return f"({text})"
        if _BARE_PAIR.fullmatch(text) and "=>" not in text.split(":", 1)[0]:
            return f"({{{text}}})"
    return text


def _parsed(text: str, grammar: str) -> tree_sitter.Node | None:
    """The one expression ``text`` is, or ``None`` when it is anything else."""
    root = parse(text.encode("utf-8"), grammar).root_node  # _grammar names only grammars the package ships
    if root.has_error or root.named_child_count != 1:
        return None
    statement = root.named_children[0]
    if statement.type == "macro_invocation":  # Rust parses `name!(...)` on its own as an item
        return statement
    if statement.type != "expression_statement" or statement.named_child_count != 1:
        return None
    return statement.named_children[0]


def _text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _value(node: tree_sitter.Node, roles: _Roles) -> bool:
    """Walk an expression in a value's place; ``False`` when it holds what an example cannot."""
    kind = node.type
    if kind in ("identifier", "shorthand_property_identifier_pattern"):
        name = _text(node)
        # the reader's variable; a class or a constant is the library's, but for a bare name passed in Go or
        # Rust, where examples pass the reader's own types and unit structs (`Box::new(MyLogger)`)
        if name == _ANY or _LOWER_NAME.fullmatch(name) or roles.grammar in ("go", "rust"):
            return True
        return _library(name, roles)
    if kind in _LITERALS or kind in ("template_string", "concatenated_string", "regex"):
        return True
    if kind in _CALLS:
        return _call(node, roles)
    if kind in _MEMBER_KINDS:
        return _member(node, roles)
    if kind in ("assignment", "assignment_expression"):
        return _assignment(node, roles)
    if kind in ("object", "composite_literal", "struct_expression"):
        return _object(node, roles)
    if kind == "macro_invocation":
        return _macro(node, roles)
    if kind in ("arrow_function", "lambda", "closure_expression", "func_literal", "function_expression", "function"):
        body = node.child_by_field_name("body")
        return body is None or body.type in ("statement_block", "block") or _value(body, roles)
    if kind == "keyword_argument":
        return _keyword(node, roles)
    if kind in ("binary_expression", "binary_operator") and not any(c.type in _CALLS for c in node.named_children):
        # `5*time.Minute`: arithmetic of values; between calls it is the operator method's (module docstring)
        return all(_value(child, roles) for child in node.named_children if child.type != "comment")
    if kind in ("list", "array", "tuple", "parenthesized_expression", "await", "await_expression",
                "spread_element", "list_splat", "dictionary_splat", "unary_operator", "unary_expression",
                "comparison_operator", "boolean_operator",
                "not_operator", "dictionary", "pair", "conditional_expression", "ternary_expression",
                "as_expression", "non_null_expression", "subscript", "subscript_expression",
                # Go and Rust
                "try_expression", "reference_expression", "tuple_expression", "array_expression",
                "range_expression", "index_expression", "type_cast_expression", "unit_expression",
                "literal_element", "literal_value", "slice_expression", "expression_list"):
        return all(_value(child, roles) for child in node.named_children if child.type != "comment")
    return kind in ("property_identifier", "type_identifier", "predefined_type", "escape_sequence", "string_fragment",
                    "field_identifier", "primitive_type", "slice_type", "map_type", "generic_type")


def _literal(node: tree_sitter.Node) -> bool:
    """A literal value: a string, a number (``-5`` too), a boolean, ``None``."""
    if node.type == "literal_element" and node.named_child_count == 1:
        return _literal(node.named_children[0])
    if node.type in ("unary_expression", "unary_operator") and node.named_child_count == 1:
        return _text(node).startswith("-") and node.named_children[0].type in (
            "number", "integer", "float", "int_literal", "float_literal", "integer_literal")
    return node.type in _LITERALS


def _library(name: str, roles: _Roles) -> bool:
    roles.library.append(name)
    return True


def _parts(node: tree_sitter.Node) -> tuple[tree_sitter.Node | None, tree_sitter.Node | None]:
    """The owner and the member of ``a.b`` (``a::b``, Go's ``pkg.Type``) in any of the grammars."""
    if node.type == "qualified_type":
        return node.child_by_field_name("package"), node.child_by_field_name("name")
    owner = next((o for o in map(node.child_by_field_name, _OWNER) if o is not None), None)
    member = next((m for m in map(node.child_by_field_name, _MEMBER) if m is not None), None)
    return owner, member


def _wrapper(node: tree_sitter.Node) -> bool:
    """A call that only wraps the reader's value (``Some(x)``, ``Box::new(x)``, ``vec![..]``)."""
    if node.type == "identifier":
        return _text(node) in _WRAPPERS
    owner, member = _parts(node) if node.type in ("scoped_identifier", "selector_expression") else (None, None)
    return owner is not None and member is not None and f"{_text(owner)}.{_text(member)}" in _WRAPPERS


def _callee(node: tree_sitter.Node, roles: _Roles) -> bool:
    if node.type == "generic_function":  # Rust's `parse::<Level>`: the function, its type arguments aside
        function = node.child_by_field_name("function")
        return function is not None and _callee(function, roles)
    if node.type in ("identifier", "type_identifier"):
        name = _text(node)
        if name in _LOADERS:
            return True
        roles.callees.append(name)
        return _library(name, roles)
    if node.type in _MEMBER_KINDS or node.type == "qualified_type":
        _, member = _parts(node)
        if member is not None:
            roles.callees.append(_text(member))
        return _member(node, roles)
    return _value(node, roles)


def _call(node: tree_sitter.Node, roles: _Roles) -> bool:
    function = (node.child_by_field_name("function") or node.child_by_field_name("constructor")
                or node.child_by_field_name("type"))
    arguments = node.child_by_field_name("arguments")
    if node.type == "type_conversion_expression":  # Go's `pkg.New(x)` with one argument parses as a conversion
        operand = node.child_by_field_name("operand")
        items = [operand] if operand is not None else []
    else:
        items = [a for a in (arguments.named_children if arguments else []) if a.type != "comment"]
    if function is None:
        return False
    if _wrapper(function):
        if _text(function) in ("errors.Is", "errors.As"):
            roles.uses += 1  # errors.Is(err, pkg.ErrX): testing for the library's sentinel is using it
        return all(_value(a, roles) for a in items)
    roles.uses += 1
    if not _callee(function, roles):
        return False
    if roles.positional is None:
        roles.positional = [_text(a) for a in items if a.type != "keyword_argument"]
    return all(_value(a, roles) for a in items)


def _macro(node: tree_sitter.Node, roles: _Roles) -> bool:
    """Rust's ``name!(...)``: a call of the macro, whose tokens are the reader's but for a ``key:``
    before a value (``info!(target: "app", "...")``), which is the macro's."""
    macro = node.child_by_field_name("macro") or (node.named_children[0] if node.named_children else None)
    if macro is None:
        return False
    if _wrapper(macro):
        return True
    roles.uses += 1
    if not _callee(macro, roles):
        return False
    stack = [c for c in node.named_children if c.type == "token_tree"]
    while stack:
        tree = stack.pop()
        tokens = tree.children
        for i, token in enumerate(tokens):
            if token.type == "token_tree":
                stack.append(token)
            elif (token.type == "identifier" and i + 1 < len(tokens) and tokens[i + 1].type == ":"
                    and (i + 2 >= len(tokens) or tokens[i + 2].type != ":")):
                _library(_text(token), roles)
    return True


def _member(node: tree_sitter.Node, roles: _Roles) -> bool:
    """``a.b.c``: ``b`` and ``c`` are the library's; ``a``, the head, the reader's unless capitalized."""
    owner, member = _parts(node)
    if member is None:
        return False
    _library(_text(member), roles)
    if owner is None:  # Rust's `::name`
        return True
    if owner.type in ("identifier", "package_identifier"):
        roles.heads.append(_text(owner))
        if owner.type == "package_identifier":
            return True
        if node.type == "scoped_identifier" and not _LOWER_NAME.fullmatch(_text(owner)):
            return _library(_text(owner), roles)  # `LevelFilter::Info`: the library's type; `log::` its crate
    return _value(owner, roles)


def _setting(name: str, value: tree_sitter.Node, roles: _Roles) -> bool:
    """A keyword, a key or a field ``name`` given ``value``: the name is the library's, a literal value
    is noted (a boolean as a switch), and the value is read as the reader's."""
    roles.uses += 1
    _library(name, roles)
    if _literal(value):
        roles.values.append((name, _text(value)))
    if _text(value) in _BOOLEANS:
        roles.switches.append((name, _text(value)))
    return _value(value, roles)


def _keyword(node: tree_sitter.Node, roles: _Roles) -> bool:
    name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
    return name is not None and value is not None and _setting(_text(name), value, roles)


def _fields(node: tree_sitter.Node, roles: _Roles) -> bool:
    """A Go composite literal or a Rust struct expression: its type is the library's (a class), each
    field's key too; the values are the reader's."""
    kind = node.child_by_field_name("type") or node.child_by_field_name("name")
    body = node.child_by_field_name("body")
    if kind is None or body is None:
        return False
    if kind.type == "type_identifier":
        _library(_text(kind), roles)
    elif kind.type in ("qualified_type", "scoped_type_identifier"):
        _, member = _parts(kind)
        if member is not None:
            _library(_text(member), roles)
    elif kind.type not in ("generic_type", "slice_type", "array_type", "map_type", "implicit_length_array_type"):
        return False  # a generic or a collection type is the reader's to build
    for item in body.named_children:
        if item.type in ("comment", "base_field_initializer"):
            continue
        if item.type == "shorthand_field_initializer":
            roles.uses += 1
            _library(_text(item), roles)
            continue
        if item.type == "field_initializer":
            key, value = item.child_by_field_name("field"), item.child_by_field_name("value")
        elif item.type == "keyed_element":
            key, value = (item.named_children[0], item.named_children[1]) if item.named_child_count == 2 \
                else (None, None)
        elif item.type == "literal_element":
            if not _value(item, roles):
                return False
            continue
        else:
            return False
        if key is None or value is None or not _setting(_text(key).strip('"'), value, roles):
            return False
    return True


def _object(node: tree_sitter.Node, roles: _Roles) -> bool:
    if node.type != "object":
        return _fields(node, roles)
    for item in node.named_children:
        if item.type == "comment":
            continue
        if item.type == "shorthand_property_identifier":
            roles.uses += 1
            if _text(item) != _ANY:
                _library(_text(item), roles)
            continue
        if item.type == "spread_element":
            if not _value(item, roles):
                return False
            continue
        if item.type != "pair":
            return False
        key, value = item.child_by_field_name("key"), item.child_by_field_name("value")
        if key is None or value is None or key.type not in ("property_identifier", "string") \
                or not _setting(_text(key).strip("\"'"), value, roles):
            return False
    return True


def _assignment(node: tree_sitter.Node, roles: _Roles) -> bool:
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None:
        return False
    if left.type in ("attribute", "member_expression"):
        roles.uses += 1
        member = left.child_by_field_name("attribute") or left.child_by_field_name("property")
        roles.members.append(_text(member or left))
        if not _member(left, roles):
            return False
        if _text(right) in _BOOLEANS:
            roles.switches.append((_text(member or left), _text(right)))
    elif left.type != "identifier":
        return False
    return _value(right, roles)


def _roles(text: str, language: str) -> _Roles | None:
    grammar = _grammar(language)
    if grammar is None:
        return None
    node = _parsed(_prepared(text, grammar), grammar)
    if node is None:
        return None
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    roles = _Roles([], [], settings=node.type in ("object", "keyword_argument"), grammar=grammar)
    if not _value(node, roles) or not roles.uses:
        return None
    return roles


def languages(labels: Iterable[str | None]) -> list[str]:
    """The grammars to read an example in, first the anchored code's own, each once."""
    out: list[str] = []
    for language in labels:
        grammar = _grammar(language or "")
        if grammar and grammar not in out:
            out.append(grammar)
    return out


@dataclass(frozen=True)
class Use:
    """What an example of use asks of the code it uses.

    Attributes:
        library: The names it gives the library: callees, members,
            keywords and keys.
        switches: The keys it sets to a boolean, with the boolean.
        callees: The functions it calls, the outermost first.
        heads: The receivers that start its chains (``jwt`` of ``jwt.encode``).
        members: The members it assigns (``concurrency`` of ``queue.concurrency = 10``).
        values: Each keyword or key given a literal, with the literal as written.
        positional: The outermost call's positional arguments as written
            (an ellipsis or a placeholder as ``__memvet_any__``).
        settings: The example is only settings (``inflate: false``,
            ``{ fast: true }``): what uses them is for the claim's words to say.
    """

    library: tuple[str, ...]
    switches: tuple[tuple[str, str], ...]
    callees: tuple[str, ...]
    heads: tuple[str, ...]
    members: tuple[str, ...]
    values: tuple[tuple[str, str], ...] = ()
    positional: tuple[str, ...] = ()
    settings: bool = False


def read_use(text: str, grammars: list[str]) -> Use | None:
    """``text`` read as an example of use in the first of ``grammars`` it
    parses in, or ``None`` when it parses in none or shows no use (a call,
    a keyword, an object key or an assignment to a member)."""
    for grammar in grammars:
        roles = _roles(text, grammar)
        if roles is None:
            continue
        names = tuple(n for n in roles.library if n != _ANY)
        if not names:
            return None
        return Use(names, tuple(roles.switches), tuple(roles.callees), tuple(roles.heads), tuple(roles.members),
                   tuple(roles.values), tuple(roles.positional or ()), roles.settings)
    return None
