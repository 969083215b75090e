"""Binding classes met on a web framework's facts, each both ways.

Typed defaults (an annotation between a parameter and its default), the
value a claim rules out ("307, not 302"), example calls and keywords (an
awaited call, an instance called by its class's name, a bare ``kw=``, what a
caller passes), messages built from strings, example paths, files and
instance members named as context: a true variant binds, a false one stays
unbound.
"""

from __future__ import annotations

import textwrap

from memvet._claims import EvidenceText, Term, TermKind, bind


def ev(label: str, text: str) -> EvidenceText:
    """An anchor's evidence: ``path::Qualified.name`` and its Python code."""
    return EvidenceText(label, textwrap.dedent(text), (label, label.split("::", 1)[-1]), "python")


def unbound(claim: str, *evidence: EvidenceText, exists: object = None) -> list[str]:
    return [u.term.text for u in bind(claim, list(evidence), exists=exists)]  # type: ignore[arg-type]


SESSIONS = ev("app/sessions.py::SessionMiddleware.__init__", '''\
    def __init__(
        self,
        app,
        secret_key: str,
        max_age: int | None = 14 * 24 * 60 * 60,
        same_site: Literal["lax", "strict", "none"] = "lax",
        https_only: bool = False,
    ) -> None:
        self.app = app
        self.security_flags = "httponly; samesite=" + same_site
''')

REDIRECT = ev("app/responses.py::RedirectResponse.__init__", '''\
    def __init__(self, url, status_code: int = 307, headers=None) -> None:
        super().__init__(content=b"", status_code=status_code, headers=headers)
        self.headers["location"] = quote(str(url), safe=":/%#?=@[]!$&'()*+,;")
''')

FORM = ev("app/requests.py::Request.form", '''\
    def form(self, *, max_files: int | float = 1000, max_fields: int | float = 1000,
             max_part_size: int = 1024 * 1024):
        return AwaitableOrContextManagerWrapper(
            self._get_form(max_files=max_files, max_fields=max_fields, max_part_size=max_part_size)
        )
''')

CONFIG = ev("app/config.py::Config.get", '''\
    def get(self, key: str, cast=None, default: Any = undefined) -> Any:
        key = self.env_prefix + key
        if key in self.environ:
            return self._perform_cast(key, self.environ[key], cast)
        if default is not undefined:
            return self._perform_cast(key, default, cast)
        raise KeyError(f"Config '{key}' is missing, and has no default.")
''')

CAST = ev("app/config.py::Config._perform_cast", '''\
    def _perform_cast(self, key: str, value: Any, cast=None) -> Any:
        if cast is bool and isinstance(value, str):
            mapping = {"true": True, "1": True, "false": False, "0": False}
            value = value.lower()
            if value not in mapping:
                raise ValueError(f"Config '{key}' has value '{value}'. Not a valid bool.")
            return mapping[value]
        return cast(value)
''')

PREFLIGHT = ev("app/cors.py::CORSMiddleware.preflight_response", '''\
    def preflight_response(self, request_headers):
        failures = []
        if not self.is_allowed_origin(origin=request_headers["origin"]):
            failures.append("origin")
        if request_headers["method"] not in self.allow_methods:
            failures.append("method")
        if failures:
            failure_text = "Disallowed CORS " + ", ".join(failures)
            return PlainTextResponse(failure_text, status_code=400)
        return PlainTextResponse("OK", status_code=200)
''')

COMPILE = ev("app/routing.py::compile_path", '''\
    def compile_path(path):
        duplicated_params = set()
        if duplicated_params:
            names = ", ".join(sorted(duplicated_params))
            ending = "s" if len(duplicated_params) > 1 else ""
            raise ValueError(f"Duplicated param name{ending} {names} at path {path}")
''')


def test_a_keyword_binds_to_a_default_behind_an_annotation_with_literals() -> None:
    assert unbound('the cookie uses same_site="lax".', SESSIONS) == []
    assert unbound('the cookie uses same_site="sticky".', SESSIONS) == ['same_site="sticky"']


def test_an_annotation_never_lets_a_dict_entry_stand_for_another_key() -> None:
    table = ev("app/t.py::T", '''\
        FLAGS = {"mode": "strict", "site": "lax"}
    ''')
    assert unbound('mode="lax" by default.', table) == ['mode="lax"']
    assert unbound('site="lax" by default.', table) == []


def test_the_value_a_claim_rules_out_is_no_term() -> None:
    assert unbound("RedirectResponse defaults to 307, not 302.", REDIRECT) == []
    assert unbound("RedirectResponse defaults to 302, not 307.", REDIRECT) == ["302"]
    # a value the claim says the code does not have need not be in it (round 10: "months aren't
    # 30 days"); said without the negation, it must
    assert unbound("the status is not 302.", REDIRECT) == []
    assert unbound("the status is 302.", REDIRECT) == ["302"]


def test_a_keyword_a_caller_passes_needs_the_parameter_not_the_value() -> None:
    assert unbound("pass status_code=303 explicitly for a see-other redirect.", REDIRECT) == []
    assert unbound("pass status=303 explicitly for a see-other redirect.", REDIRECT) == ["status=303"]
    # a keyword the claim calls the default is the code's value
    assert unbound("the response uses status_code=303 by default.", REDIRECT) == ["status_code=303"]


def test_a_keyword_in_brackets_binds_as_a_keyword() -> None:
    assert unbound('passing `status_code=[303]` is allowed.', REDIRECT) == []
    assert unbound('passing `code=[303]` is allowed.', REDIRECT) == ["code=[303]"]


def test_an_awaited_example_call_binds_to_the_anchored_method() -> None:
    assert unbound("call `await request.form(max_part_size=...)` to raise it.", FORM) == []
    assert unbound("call `await request.form(max_size=...)` to raise it.", FORM) == [
        "await request.form(max_size=...)"]


def test_a_bare_keyword_binds_to_a_parameter_of_that_name() -> None:
    assert unbound("`default=` is only used when the key is missing.", CONFIG) == []
    assert unbound("`fallback=` is only used when the key is missing.", CONFIG) == ["fallback="]


def test_an_instance_called_by_its_class_name_fits_the_class_call() -> None:
    def exists(term: Term) -> bool:  # the repository's Config.__call__(key, cast=None, default=...)
        return term.kind is TermKind.CALL and term.text.startswith("Config.__call__(") and (
            "cast=" in term.text or "=" not in term.text)

    assert unbound("`config('DEBUG', cast=bool)` only understands true and false.", CAST, exists=exists) == []
    assert unbound("`config('DEBUG', coerce=bool)` only understands true and false.", CAST, exists=exists) == [
        "config('DEBUG', coerce=bool)"]
    # a callee that is not the anchored class's name is no instance of it
    assert unbound("`settings('DEBUG', cast=bool)` only understands true.", CAST, exists=exists) == [
        "settings('DEBUG', cast=bool)"]


def test_a_message_built_from_a_string_and_the_code_strings_joined_to_it() -> None:
    assert unbound('a rejected preflight says "Disallowed CORS origin, method".', PREFLIGHT) == []
    assert unbound('a rejected preflight says "Disallowed CORS referrer".', PREFLIGHT) == [
        "Disallowed CORS referrer"]


def test_a_field_glued_to_a_word_may_be_empty_and_an_ellipsis_ends_a_message() -> None:
    assert unbound('compile_path raises ValueError "Duplicated param name id at path ...".', COMPILE) == []
    assert unbound('compile_path raises ValueError "Duplicate parameter id at route ...".', COMPILE) == [
        "Duplicate parameter id at route ..."]


def test_a_path_with_placeholders_given_as_an_example_is_the_example() -> None:
    assert unbound("A path like `/{id}/items/{id}` is rejected by compile_path.", COMPILE) == []
    assert unbound("The path `/{id}/items/{id}` is rejected by compile_path.", COMPILE) == ["/{id}/items/{id}"]


def test_a_dotfile_named_as_context_binds_where_the_project_mentions_it() -> None:
    def mentioned(term: Term) -> bool:
        return term.kind is TermKind.PROPER and term.text == ".env"

    assert unbound("values from the `.env` file lose to the environment.", CONFIG, exists=mentioned) == []
    assert unbound("values from the `.envrc` file lose to the environment.", CONFIG, exists=mentioned) == [".envrc"]


def test_an_instance_member_binds_through_its_class_where_the_project_writes_it() -> None:
    def exists(term: Term) -> bool:  # class Request exists; the project writes request.session
        return (term.kind is TermKind.DOTTED and term.text == "Request") or (
            term.kind is TermKind.PROPER and term.text == "request.session")

    assert unbound("`request.session` starts out as an empty dict.", SESSIONS, exists=exists) == []
    assert unbound("`request.cookies` starts out as an empty dict.", SESSIONS, exists=exists) == ["request.cookies"]
    # a receiver that is no class of the repository is no instance of one
    assert unbound("`req.session` starts out as an empty dict.", SESSIONS, exists=exists) == ["req.session"]


HTTP_EXCEPTION = ev("app/exceptions.py::HTTPException.__init__", '''\
    def __init__(self, status_code: int, detail: str | None = None) -> None:
        if detail is None:
            detail = http.HTTPStatus(status_code).phrase
        self.status_code = status_code
        self.detail = detail
''')


def test_a_standard_module_named_in_prose_must_be_one_the_project_mentions() -> None:
    def mentioned(term: Term) -> bool:  # the project mentions http and logging, never gettext
        return term.kind is TermKind.PROPER and term.text in ("logging", "http")

    assert unbound("detail defaults are passed through gettext for translation.", HTTP_EXCEPTION,
                   exists=mentioned) == ["gettext"]
    assert unbound("detail defaults come from the http status phrases and are logged with logging.",
                   HTTP_EXCEPTION, exists=mentioned) == []
    # an English word that names a module too binds where the project says it anywhere
    assert unbound("the detail is a plain string.", HTTP_EXCEPTION, exists=lambda term: term.text == "string") == []
