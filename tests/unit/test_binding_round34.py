"""Binding classes of issue 30's round 34 (tuning sets: chris-morgan/anymap and pytest-dev/pytest-randomly,
SergioBenitez/version_check and pytest-dev/pytest-mock after their sealed runs, and four sets written blind at
the round's start: Masterminds/sprig, uuid-rs/uuid, pytest-dev/pytest-cov, unjs/listhen), and the anchor
lookups they showed missing.

Each case both ways.
"""

from __future__ import annotations

import pytest
from _binding import ev, unbound

import memvet
from memvet._claims import EvidenceText
from memvet._rules import contradictions

# ------------------------------------------------------ a trait impl's member inside an inline module

TIMESTAMP_RS = """\
pub trait ClockSequence {
    fn generate_sequence(&self) -> u16;
}

pub mod context {
    use super::ClockSequence;

    mod v1_support {
        pub struct ContextV1 {
            count: u16,
        }

        impl ClockSequence for ContextV1 {
            fn generate_sequence(&self) -> u16 {
                self.count.wrapping_add(1) & (u16::MAX >> 2)
            }
        }
    }
}
"""


def test_a_trait_impl_s_member_in_an_inline_module_is_found_by_type_and_method(repo, ledger) -> None:
    repo.write("src/timestamp.rs", TIMESTAMP_RS, dedent=False)
    repo.commit("uuid's v1 context")
    rec = ledger.record("ContextV1's counter is masked with `u16::MAX >> 2`.",
                        ["src/timestamp.rs::ContextV1.generate_sequence"])
    assert [a.name for a in rec.decision.anchors] == \
        ["context.v1_support.<ContextV1 as ClockSequence>.generate_sequence"]
    assert ledger.verify(rec.decision.id).status is memvet.Status.VERIFIED
    # a method the type does not have is still no anchor
    with pytest.raises(memvet.AnchorNotFoundError):
        ledger.record("ContextV1 resets its counter.", ["src/timestamp.rs::ContextV1.reset"])
    with pytest.raises(memvet.AnchorNotFoundError):  # nor is another type's
        ledger.record("ContextV7 masks its counter.", ["src/timestamp.rs::ContextV7.generate_sequence"])


# ------------------------------------------------------ a Python signature written out with its `*`

RESETALL = ev("src/pytest_mock/plugin.py::MockerFixture.resetall", """\
def resetall(self, *, return_value: bool = False, side_effect: bool = False) -> None:
    for m in self._mock_cache:
        m.reset_mock(return_value=return_value, side_effect=side_effect)
""", "python")


def test_a_signature_written_with_its_star_binds_when_its_defaults_are_the_code_s():
    assert unbound("`mocker.resetall(*, return_value=False, side_effect=False)` keeps return values.", RESETALL) == []
    assert unbound("`resetall(*, return_value=False)`: a keyword-only flag.", RESETALL) == []


def test_a_signature_written_with_its_star_and_another_default_stays_unbound():
    assert unbound("`mocker.resetall(*, return_value=True, side_effect=False)` wipes them.", RESETALL) == \
        ["mocker.resetall(*, return_value=True, side_effect=False)"]


# ------------------------------------------------------ the license a manifest declares

CARGO = EvidenceText("Cargo.toml", '[package]\nname = "version_check"\nlicense = "MIT/Apache-2.0"\n', ("Cargo.toml",))
PYPROJECT = EvidenceText("pyproject.toml", '[project]\nname = "pytest-rerunfailures"\nlicense.text = "MPL-2.0"\n',
                         ("pyproject.toml",))
PACKAGE_JSON = EvidenceText("package.json", '{\n  "name": "listhen",\n  "license": "MIT",\n  "type": "module"\n}\n',
                            ("package.json",))


def _license(claim: str, manifest: EvidenceText) -> list[str]:
    return [c.line() for c in contradictions(claim, [manifest]) if c.said.startswith("the claim says the license")]


def test_a_license_the_manifest_does_not_declare_is_a_finding():
    assert _license("License in Cargo.toml: plain `MIT`.", CARGO) == \
        ['the claim says the license is `MIT`, but Cargo.toml says `license = "MIT/Apache-2.0"`']
    assert _license("license: MIT (license.text in pyproject).", PYPROJECT) == \
        ['the claim says the license is `MIT`, but pyproject.toml says `license.text = "MPL-2.0"`']
    assert _license("Licensed under Apache-2.0.", PACKAGE_JSON) != []


def test_the_manifest_s_own_license_is_no_finding():
    assert _license("Dual-licensed: MIT or Apache-2.0 (license = MIT/Apache-2.0).", CARGO) == []
    assert _license("The license is MIT (one of two; Apache-2.0 is the other).", CARGO) == []  # part, not whole
    assert _license("license is MPL-2.0.", PYPROJECT) == []
    assert _license("The package.json license is `MIT`.", PACKAGE_JSON) == []
    assert _license("Not MIT: the license is MPL-2.0.", PYPROJECT) == []  # a negated identifier is not claimed
    assert _license("MIT-style code, a single file.", PACKAGE_JSON) == []  # no license word: nothing read
