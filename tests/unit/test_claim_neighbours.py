"""Names a claim may use that its anchors do not hold, looked up in the repository.

A claim names what a reader of the code would: a neighbour of the anchored
class in the same file (``BadParameter`` beside ``UsageError``), a name the
anchored file imports, an option the program declares elsewhere
(``--help``), the package's own name for its class (``new Koa()``), an
instance's member through its class (``result.exception`` for
``Result.exception``) and a CommonJS export by the name its module gives it
(``app.use`` for ``module.exports.use`` of ``class Application``), and what
a public method's private twin does (``get`` calling ``this.#get``). Each is
checked through a real ledger on a real repository, both ways.
"""

from __future__ import annotations

EXCEPTIONS = '''\
class ClickException(Exception):
    exit_code = 1


class UsageError(ClickException):
    exit_code = 2


class BadParameter(UsageError):
    pass
'''

CORE = '''\
from .exceptions import NoSuchOption


class Context:
    def __init__(self):
        self.help_option_names = ["--help"]


def main():
    raise NoSuchOption("x")
'''

TESTING = '''\
class Result:
    def __init__(self, exception):
        self.exception = exception


class CliRunner:
    def __init__(self, catch_exceptions=True):
        self.catch_exceptions = catch_exceptions
'''

APPLICATION = '''\
const { HttpError } = require('http-errors')

module.exports = class Application {
  constructor (options) {
    this.silent = options.silent
    this.compose = options.compose || compose
  }

  use (fn) {
    if (typeof fn !== 'function') throw new TypeError('middleware must be a function!')
    this.middleware.push(fn)
    return this
  }
}
'''


def _project(repo):
    repo.write("pkg/exceptions.py", EXCEPTIONS, dedent=False)
    repo.write("pkg/core.py", CORE, dedent=False)
    repo.write("pkg/testing.py", TESTING, dedent=False)
    repo.write("lib/application.js", APPLICATION, dedent=False)
    repo.write("package.json", '{\n  "name": "koa",\n  "version": "3.0.0"\n}\n', dedent=False)
    repo.commit("a project")


def test_a_neighbour_of_the_anchored_code_binds_where_its_file_defines_or_imports_it(repo, ledger):
    _project(repo)
    near = ledger.record("UsageError (and subclasses like BadParameter) exit with code 2",
                         ["pkg/exceptions.py::UsageError"])
    assert near.findings == ()
    far = ledger.record("UsageError (and subclasses like MissingParameter) exit with code 2",
                        ["pkg/exceptions.py::UsageError"])
    assert any("MissingParameter" in f for f in far.findings)
    imported = ledger.record("main raises NoSuchOption", ["pkg/core.py::main"])
    assert imported.findings == ()
    js = ledger.record("the module re-exports HttpError for instanceof checks",
                       ["lib/application.js::Application.constructor"])
    assert js.findings == ()


def test_an_option_binds_where_the_program_declares_it(repo, ledger):
    _project(repo)
    declared = ledger.record("the hint names --help", ["pkg/exceptions.py::UsageError"])
    assert declared.findings == ()
    repo.write("lib/command.js", "const flags = '-V, --version'\n", dedent=False)
    repo.commit("flags in one string")
    listed = ledger.record("the hint names --version", ["pkg/exceptions.py::UsageError"])
    assert listed.findings == ()
    absent = ledger.record("every command gets a hidden --manpage flag", ["pkg/exceptions.py::UsageError"])
    assert any("--manpage" in f for f in absent.findings)


def test_an_instance_member_binds_through_its_class(repo, ledger):
    _project(repo)
    ok = ledger.record("with catch_exceptions=True the error lands on result.exception",
                       ["pkg/testing.py::CliRunner.__init__"])
    assert ok.findings == ()
    missing = ledger.record("with catch_exceptions=True the error lands on result.error",
                            ["pkg/testing.py::CliRunner.__init__"])
    assert any("result.error" in f for f in missing.findings)


def test_a_commonjs_export_answers_to_its_class_and_its_package(repo, ledger):
    _project(repo)
    app = ledger.record("app.use(notAFunction) throws at once; app.silent is read from the options",
                        ["lib/application.js::Application.use", "lib/application.js::Application.constructor"])
    assert app.findings == ()
    made = ledger.record("`new Koa({ compose })` swaps the composition",
                         ["lib/application.js::Application.constructor"])
    assert made.findings == ()
    other = ledger.record("`new Express({ compose })` swaps the composition",
                          ["lib/application.js::Application.constructor"])
    assert any("new Express" in f for f in other.findings)


def test_a_plain_word_written_as_code_binds_where_the_project_defines_it(repo, ledger):
    _project(repo)
    repo.write("examples/app.py", "import click\n\n\ndef cli():\n    pass\n", dedent=False)
    repo.commit("an example program")
    example = ledger.record("a bare `cli` prints the help", ["pkg/core.py::Context.__init__"])
    assert example.findings == ()
    unknown = ledger.record("a bare `tool` prints the help", ["pkg/core.py::Context.__init__"])
    assert any("`tool`" in f for f in unknown.findings)


def test_a_standard_header_binds_where_a_code_file_says_it(repo, ledger):
    _project(repo)
    repo.write("lib/security.js", "module.exports = res => res.set('strict-transport-security', 'max-age=1')\n",
               dedent=False)
    repo.commit("a header elsewhere")
    said = ledger.record("use() sets Strict-Transport-Security", ["lib/application.js::Application.use"])
    assert said.findings == ()
    unsaid = ledger.record("use() sets Content-Security-Policy", ["lib/application.js::Application.use"])
    assert any("Content-Security-Policy" in f for f in unsaid.findings)


def test_a_name_of_code_elsewhere_binds_but_not_one_only_tests_use(repo, ledger):
    _project(repo)
    repo.write("pkg/parsers.py", "def arg_parser(value):\n    return value\n", dedent=False)
    repo.write("tests/test_old.py", "def mix_stderr_helper():\n    pass\n", dedent=False)
    repo.commit("a parser elsewhere, a helper in tests")
    elsewhere = ledger.record("a custom arg_parser fails with a UsageError", ["pkg/exceptions.py::UsageError"])
    assert elsewhere.findings == ()
    tests_only = ledger.record("UsageError takes mix_stderr_helper", ["pkg/exceptions.py::UsageError"])
    assert any("mix_stderr_helper" in f for f in tests_only.findings)


def test_a_name_in_prose_binds_where_any_file_of_the_repository_mentions_it(repo, ledger):
    _project(repo)
    repo.write("README.md", "Works with Tornado.\n", dedent=False)
    repo.commit("a readme")
    said = ledger.record("UsageError exits 2, also under Tornado", ["pkg/exceptions.py::UsageError"])
    assert said.findings == ()
    unsaid = ledger.record("UsageError was added for Airflow operators", ["pkg/exceptions.py::UsageError"])
    assert any("`Airflow` (proper)" in f and "nor anywhere in the repository" in f for f in unsaid.findings)


def test_an_example_call_fits_a_method_defined_elsewhere(repo, ledger):
    _project(repo)
    repo.write("lib/command.js", "class Command {\n  option (flags, description) {\n    return this\n  }\n}\n"
               "module.exports = { Command }\n", dedent=False)
    repo.commit("a method elsewhere")
    fits = ledger.record("declare flags with `.option('--ws, --workspace <name>')` before use()",
                         ["lib/application.js::Application.use"])
    assert fits.findings == ()
    too_many = ledger.record("declare flags with `.option('--ws', 'd', 'x', 'y')` before use()",
                             ["lib/application.js::Application.use"])
    assert too_many.findings != ()



def test_an_example_call_does_not_fit_a_fake_defined_in_tests(repo, ledger):
    _project(repo)
    repo.write("test/fake.js", "class FakeResponse {\n  sendHeader (name, value) {\n    return this\n  }\n}\n"
               "module.exports = { FakeResponse }\n", dedent=False)
    repo.commit("a fake in tests")
    fake = ledger.record("use() answers with `.sendHeader('Vary', 'Origin')` first",
                         ["lib/application.js::Application.use"])
    assert any("sendHeader" in f for f in fake.findings)


HELP = '''\
class Help {
  constructor () {
    this.helpWidth = undefined
    this.minWidthToWrap = 40
  }

  boxWrap (str, width) {
    if (width < this.minWidthToWrap) return str
    return wrap(str, width)
  }
}
module.exports = { Help }
'''


def test_a_method_says_what_its_constructor_sets_the_fields_it_reads_to(repo, ledger):
    _project(repo)
    repo.write("lib/help.js", HELP, dedent=False)
    repo.write("pkg/runner.py", "class Runner:\n    def __init__(self):\n        self.retries = 3\n\n"
               "    def run(self):\n        return self.retries\n", dedent=False)
    repo.commit("fields set in constructors")
    wraps = ledger.record("boxWrap wraps only with at least 40 columns (minWidthToWrap)", ["lib/help.js::Help.boxWrap"])
    assert wraps.findings == ()
    wrong = ledger.record("boxWrap wraps only with at least 50 columns (minWidthToWrap)", ["lib/help.js::Help.boxWrap"])
    assert any("`50`" in f for f in wrong.findings)
    python = ledger.record("run tries 3 times", ["pkg/runner.py::Runner.run"])
    assert python.findings == ()


CACHE = '''\
class Cache {
  get (k, options = {}) {
    return this.#get(k, options)
  }

  #get (k, { allowStale = false } = {}) {
    if (allowStale) return this.stale(k)
    return this.fresh(k)
  }

  peek (k) {
    return this.look(k)
  }

  look (k) {
    return this.table.get(k, 'peeked')
  }
}
module.exports = { Cache }
'''


def test_a_public_method_says_what_its_private_twin_does(repo, ledger):
    _project(repo)
    repo.write("lib/cache.js", CACHE, dedent=False)
    repo.write("pkg/store.py", "class Store:\n    def get(self, key):\n        return self._get(key)\n\n"
               "    def _get(self, key):\n        return self.rows.get(key, 'missing')\n", dedent=False)
    repo.commit("public methods and their private twins")
    twin = ledger.record("get serves stale entries only with allowStale", ["lib/cache.js::Cache.get"])
    assert twin.findings == ()
    python = ledger.record("get gives 'missing' for an unknown key", ["pkg/store.py::Store.get"])
    assert python.findings == ()
    other = ledger.record("peek marks entries as 'peeked'", ["lib/cache.js::Cache.peek"])
    assert any("peeked" in f for f in other.findings)   # `look` is another method, not its twin
