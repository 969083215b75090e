"""Binding classes of issue 30's round 29 (tuning sets: mitsuhiko/fragile,
pallets-eco/blinker and four sets written blind at the round's start:
spf13/pflag, KokaKiwi/rust-hex, lepture/mistune, yargs/yargs-parser).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

# ----------------------------------------------- "a devDependency" where the evidence names devDependencies

# what a `dep:` anchor says: the package, its declaration line and the manifest's table it sits in
DEV_DEP = ev("zeptomatch", """\
zeptomatch
    "zeptomatch": "^2.0.2"
devDependencies
""", None)
RUNTIME_DEP = ev("zeptomatch", """\
zeptomatch
    "zeptomatch": "^2.0.2"
dependencies
""", None)


def test_a_devdependency_binds_where_the_evidence_names_the_key():
    assert unbound("zeptomatch is only a devDependency.", DEV_DEP) == []


def test_a_devdependency_stays_unbound_where_no_evidence_names_it():
    assert unbound("zeptomatch is only a devDependency.", RUNTIME_DEP) == ["devDependency"]
