"""The toggle rule's fixture: claims that name the default side of an on/off
option pair, against the option's declaration; both ways."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.toggle import RULE

RUN = EvidenceText("src/dotenv/cli.py::run", """\
@cli.command()
@click.pass_context
@click.option(
    "--override/--no-override",
    default=True,
    help="Override variables from the environment file with those from the .env file.",
)
def run(ctx, override, commandline):
    file = ctx.obj["FILE"]
""")
COLOR = EvidenceText("cli.py::main", """\
@click.command()
@click.option("--color/--no-color", default=False)
def main(color):
    echo(color)
""")
PLAIN = EvidenceText("cli.py::main", """\
@click.command()
@click.option("--color/--no-color")
def main(color):
    echo(color)
""")

FIRES = [
    ("dotenv run: --override/--no-override defaults to no-override, so the shell wins.", RUN),
    ("`--override/--no-override`: the default is --no-override.", RUN),
    ("--color/--no-color defaults to color.", COLOR),
    ("main takes --color / --no-color; default: --color.", COLOR),
]

SILENT = [
    # the side the code defaults to
    ("dotenv run: --override/--no-override defaults to override (True).", RUN),
    ("--color/--no-color defaults to no-color.", COLOR),
    # no pair in the claim, no boolean default in the code, a default of something else
    ("dotenv run defaults to no-override.", RUN),
    ("--color/--no-color defaults to color.", PLAIN),
    ("--override/--no-override; the file defaults to .env.", RUN),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)
