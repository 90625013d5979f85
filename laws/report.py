"""Numerical checks with their margins: the report type every verification returns.

A :class:`Check` compares a measured ``value`` with a ``bound`` (``value ≤ bound`` or
``value > bound``); its ``margin`` is the signed slack, positive exactly when it passes. A
:class:`Report` is a titled list of checks that passes when all of them do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .errors import LawError

__all__ = ["Check", "Report"]

_RELATIONS = ("<=", "<", ">", ">=")


@dataclass(frozen=True)
class Check:
    """One measured property: ``value`` compared with ``bound`` by ``relation``.

    The check passes when ``value relation bound`` holds; :attr:`margin` is the signed slack
    (``bound − value`` for ``"<="``/``"<"``, ``value − bound`` for ``">"``/``">="``), and a
    NaN value fails with margin ``-inf``. ``value`` and ``bound`` are stored as ``float``.

    Parameters
    ----------
    name : str
        What is checked, in words.
    value : float
        The measured quantity (an error, a decrease, a distance).
    bound : float
        The tolerance or threshold it is compared with.
    relation : {"<=", "<", ">", ">="}
        ``"<="`` for errors (``value ≤ bound`` passes), ``">"`` for strict properties
        (``value > bound`` passes: a decrease larger than the rounding floor).
    where : str
        The sample, point or index that attains ``value`` (empty when not applicable).

    Raises
    ------
    LawError
        When ``relation`` is not one of ``"<="``, ``"<"``, ``">"``, ``">="``.
    TypeError
        When ``value`` or ``bound`` is not a real number.

    Examples
    --------
    >>> Check("error", 1e-14, 1e-12, "<=").passed
    True
    >>> Check("decrease", 0.0, 1e-15, ">").margin
    -1e-15
    """

    name: str
    value: float
    bound: float
    relation: str = "<="
    where: str = ""

    def __post_init__(self):
        if not isinstance(self.relation, str) or self.relation not in _RELATIONS:
            raise LawError(f"Check {self.name!r}: relation must be one of {list(_RELATIONS)}, "
                           f"got {self.relation!r}")
        for attr in ("value", "bound"):
            number = getattr(self, attr)
            try:
                number = float(number)
            except (TypeError, ValueError):
                raise TypeError(f"Check {self.name!r}: {attr} must be a real number, not "
                                f"{type(number).__name__}") from None
            object.__setattr__(self, attr, number)

    @property
    def margin(self) -> float:
        """``bound − value`` for upper bounds, ``value − bound`` for lower bounds; NaN fails."""
        slack = self.bound - self.value if self.relation in ("<=", "<") else self.value - self.bound
        return slack if not math.isnan(slack) else -math.inf

    @property
    def passed(self) -> bool:
        """Whether the check holds: ``margin > 0`` for strict relations, ``margin ≥ 0`` else."""
        m = self.margin
        return m > 0 if self.relation in ("<", ">") else m >= 0

    def to_dict(self) -> dict:
        """The check as a JSON-ready dictionary, margin and verdict included.

        Returns
        -------
        dict
            Keys ``"name"``, ``"value"``, ``"bound"``, ``"relation"``, ``"margin"``,
            ``"passed"``, ``"where"``.

        Examples
        --------
        >>> row = Check("error", 0.5, 1.0, "<=").to_dict()
        >>> row["margin"], row["passed"]
        (0.5, True)
        """
        return {
            "name": self.name, "value": self.value, "bound": self.bound,
            "relation": self.relation, "margin": self.margin, "passed": self.passed,
            "where": self.where,
        }


@dataclass(frozen=True)
class Report:
    """A titled list of :class:`Check` rows; ``passed`` when every row passes.

    ``str(report)`` is a readable table; :meth:`to_dict` is JSON-ready. ``notes`` carries
    facts that are not checks (a profile's smoothness, the radii sampled).
    ``report[name]`` is the check called ``name`` (``KeyError`` when there is none).

    Parameters
    ----------
    title : str
        What was verified, in words; the first line of ``str(report)``.
    checks : iterable of Check
        The rows, stored as a tuple.
    notes : dict, optional
        Facts that are not checks, by name (default empty).

    Examples
    --------
    >>> report = Report("demo", [Check("error", 1e-14, 1e-12, "<="),
    ...                          Check("decrease", 0.0, 1e-15, ">")])
    >>> report.passed, [c.name for c in report.failures()]
    (False, ['decrease'])
    >>> report["error"].passed
    True
    """

    title: str
    checks: tuple[Check, ...]
    notes: dict = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "checks", tuple(self.checks))

    @property
    def passed(self) -> bool:
        """Whether every check passes (``True`` for an empty report)."""
        return all(c.passed for c in self.checks)

    def __getitem__(self, name: str) -> Check:
        for check in self.checks:
            if check.name == name:
                return check
        raise KeyError(f"no check named {name!r}; the checks are {[c.name for c in self.checks]}")

    def failures(self) -> tuple[Check, ...]:
        """The checks that fail, in order.

        Returns
        -------
        tuple of Check
            The rows whose :attr:`Check.passed` is ``False`` (empty when the report passes).

        Examples
        --------
        >>> report = Report("demo", [Check("ok", 0.0, 1.0), Check("bad", 2.0, 1.0)])
        >>> [c.name for c in report.failures()]
        ['bad']
        """
        return tuple(c for c in self.checks if not c.passed)

    def to_dict(self) -> dict:
        """The report as a JSON-ready dictionary.

        Returns
        -------
        dict
            Keys ``"title"``, ``"passed"``, ``"checks"`` (a list of :meth:`Check.to_dict`)
            and ``"notes"`` (a copy).

        Examples
        --------
        >>> data = Report("demo", [Check("ok", 0.0, 1.0)], {"radius": 0.5}).to_dict()
        >>> data["passed"], data["checks"][0]["name"], data["notes"]
        (True, 'ok', {'radius': 0.5})
        """
        return {
            "title": self.title, "passed": self.passed,
            "checks": [c.to_dict() for c in self.checks], "notes": dict(self.notes),
        }

    def __str__(self) -> str:
        rows = [("check", "value", "", "bound", "margin", "pass", "where")]
        rows += [
            (c.name, f"{c.value:.3e}", c.relation, f"{c.bound:.3e}", f"{c.margin:.3e}",
             "yes" if c.passed else "NO", c.where)
            for c in self.checks
        ]
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = [f"{self.title}: {'passed' if self.passed else 'FAILED'}"]
        lines += ["  " + "  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows]
        lines += [f"  {key}: {value}" for key, value in self.notes.items()]
        return "\n".join(lines)
