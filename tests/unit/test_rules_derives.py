"""The derives rule's fixture: the traits a Rust type is said to derive, against its ``#[derive(...)]``."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.derives import RULE

EXTENDED_GCD = EvidenceText("src/lib.rs::ExtendedGcd", """\
/// Greatest common divisor and Bézout coefficients
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtendedGcd<A> {
    pub gcd: A,
    pub x: A,
    pub y: A,
}
""", language="rust")
EITHER = EvidenceText("src/lib.rs::Either", """\
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Either<L, R> {
    Left(L),
    Right(R),
}
""", language="rust")
HANDWRITTEN = EvidenceText("src/lib.rs::Handle", """\
pub struct Handle {
    file: File,
}
""", language="rust")

FIRES = [
    ("ExtendedGcd only derives Debug and Clone - it's not Copy, so compare the fields by hand.", EXTENDED_GCD),
    ("ExtendedGcd has no PartialEq; compare the fields by hand.", EXTENDED_GCD),
    ("Either derives Clone together with Copy, PartialEq, Eq, PartialOrd, Ord, Hash and Debug.", EITHER),
    ("Either is `#[derive(Default, Debug)]`.", EITHER),
    ("Debug isn't derived for Either.", EITHER),
]
SILENT = [
    ("ExtendedGcd derives Debug, Clone, Copy, PartialEq and Eq.", EXTENDED_GCD),
    ("ExtendedGcd derives Copy, so it is passed by value.", EXTENDED_GCD),
    # "just #[derive(Debug)]s": the impl derived, not written by hand; no claim that nothing else is
    ("Gotcha: ExtendedGcd just #[derive(Debug)]s, so its output is the field list.", EXTENDED_GCD),
    ("Either is not Clone-free: it derives Copy and Hash.", EITHER),
    # under a feature, or a cfg_attr's traits: derived with the feature only
    ("With the serde feature, Either derives Serialize and Deserialize.", EITHER),
    ("Either derives Serialize and Hash.", EITHER),
    # a type with no derive: its impls may all be written by hand
    ("Handle derives Hash and Eq.", HANDWRITTEN),
    # the claim does not name the anchored type
    ("The wrapper only derives Debug.", EXTENDED_GCD),
]

fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)
