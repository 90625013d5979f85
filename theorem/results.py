"""Result types of the invariants: a value with its witness and lower-bound certificate."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Certificate", "InvariantResult"]


@dataclass(frozen=True)
class Certificate:
    """What proves a lower bound: a bound theorem applied to a structure found in the input
    (``kind`` names the theorem, ``data`` holds the structure) or an UNSAT result."""

    kind: str
    statement: str
    data: dict = field(default_factory=dict)


@dataclass(frozen=True)
class InvariantResult:
    """An invariant's value with ``lower_bound ≤ value = upper_bound``; ``optimal`` when the
    bounds meet. ``witness`` realizes ``upper_bound``; ``certificate`` proves ``lower_bound``;
    ``elapsed`` is wall-clock seconds."""

    name: str
    value: int
    lower_bound: int
    upper_bound: int
    optimal: bool
    witness: Any
    certificate: Certificate
    elapsed: float
