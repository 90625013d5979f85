"""Result types of the invariants: a value with its witness and lower-bound certificate."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..digraphs.digraph import AttentionDigraph
from ..digraphs.hubs import HubExtension
from ..digraphs.kernel import Kernel
from ..errors import TheoremError
from ..digraphs.trim import Trimmed
from ..sat.budget import anytime, reserve, share

__all__ = ["Certificate", "InvariantResult", "check_result", "unsat_certificate", "relabelled",
           "solved"]


@dataclass(frozen=True)
class Certificate:
    """What proves a lower bound: a bound theorem applied to a structure found in the input
    (``kind`` names the theorem, ``data`` holds the structure) or an UNSAT result.

    An exact invariant is only as good as its certificate (docs/conventions.md#exact-answers):
    the structure in ``data`` is one found in the input, never a value looked up by a
    family's name.

    Parameters
    ----------
    kind : str
        The bound theorem or proof used: ``"fooling-set"``, ``"complete-subdigraph"``,
        ``"weighted-fooling-set"``, ``"transitive-sequence"``, ``"skew-sequence"``,
        ``"max-degree"``,
        ``"unsat"``, ``"non-empty"`` or ``"empty"``.
    statement : str
        The bound in words, for reports.
    data : dict, optional
        The structure the theorem is applied to (edges of a fooling set, vertices, edge
        weights, the refuted ``k`` and the solver, …), JSON-ready. Empty by default.

    Examples
    --------
    >>> c = Certificate("fooling-set", "2 edges pairwise in no common biclique",
    ...                 {"edges": [[0, 1], [1, 2]]})
    >>> c.kind, c.data["edges"]
    ('fooling-set', [[0, 1], [1, 2]])
    """

    kind: str
    statement: str
    data: dict = field(default_factory=dict)


@dataclass(frozen=True)
class InvariantResult:
    """An invariant's value with ``lower_bound ≤ value = upper_bound``; ``optimal`` when the
    bounds meet. ``witness`` realizes ``upper_bound``; ``certificate`` proves ``lower_bound``;
    ``elapsed`` is wall-clock seconds.

    A time limit yields both bounds and ``optimal=False``, never a guess presented as exact
    (docs/conventions.md#exact-answers).

    Parameters
    ----------
    name : str
        The invariant: ``"biclique_cover_number"``, ``"hub_chromatic_index"`` or
        ``"chromatic_index"``.
    value : int
        The best value found, equal to ``upper_bound``.
    lower_bound : int
        What ``certificate`` proves.
    upper_bound : int
        What ``witness`` realizes.
    optimal : bool
        Whether ``lower_bound == upper_bound``.
    witness : object
        The structure realizing ``upper_bound``: a :class:`HubExtension` (colored for
        ``χ_hub``), or an edge coloring (one color per edge) for ``χ'``.
    certificate : Certificate
        What proves ``lower_bound``.
    elapsed : float
        Wall-clock seconds the computation took.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.invariants import biclique_cover_number
    >>> r = biclique_cover_number(transitive_tournament(3))
    >>> r.name, r.value, r.lower_bound, r.upper_bound, r.optimal, r.witness.n_hubs
    ('biclique_cover_number', 2, 2, 2, True, 2)
    """

    name: str
    value: int
    lower_bound: int
    upper_bound: int
    optimal: bool
    witness: Any
    certificate: Certificate
    elapsed: float

    def summary(self) -> dict:
        """The result without its witness, JSON-ready: ``value``, ``lower_bound``,
        ``upper_bound``, ``optimal``, ``certificate`` (its kind) and ``seconds``.

        Returns
        -------
        dict

        Examples
        --------
        >>> from theorem.digraphs import transitive_tournament
        >>> from theorem.invariants import biclique_cover_number
        >>> s = biclique_cover_number(transitive_tournament(3)).summary()
        >>> s["value"], s["optimal"], s["certificate"]
        (2, True, 'fooling-set')
        """
        return {"value": self.value, "lower_bound": self.lower_bound,
                "upper_bound": self.upper_bound, "optimal": self.optimal,
                "certificate": self.certificate.kind, "seconds": round(self.elapsed, 3)}


#: How each invariant's value is read from its witness.
_SIZES = {"biclique_cover_number": lambda w: w.n_hubs, "hub_chromatic_index": lambda w: w.n_colors}


def check_result(result, name: str, digraph: AttentionDigraph, argument: str) -> InvariantResult:
    """``result`` checked as the result of ``name`` (``"biclique_cover_number"`` or
    ``"hub_chromatic_index"``) for ``digraph``, before a caller builds on it.

    Its witness is validated on ``digraph`` and must realize ``result.value``; its lower bound
    is taken on trust (:func:`~theorem.invariants.check_unsat_certificate` proves an UNSAT one
    again).

    Parameters
    ----------
    result : InvariantResult
    name : str
        The invariant it must be a result of.
    digraph : AttentionDigraph
    argument : str
        The caller's argument name, for the messages.

    Returns
    -------
    InvariantResult
        ``result`` itself.

    Raises
    ------
    TypeError
        When ``result`` is not an :class:`InvariantResult`.
    TheoremError
        When it is a result of another invariant, or of another digraph (its witness is not a
        hub extension of ``digraph``, or does not have ``result.value`` hubs or colors).

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.invariants import biclique_cover_number
    >>> b = biclique_cover_number(transitive_tournament(3))
    >>> check_result(b, "biclique_cover_number", transitive_tournament(3), "b").value
    2
    >>> check_result(b, "biclique_cover_number", transitive_tournament(4), "b")
    Traceback (most recent call last):
    ...
    theorem.errors.TheoremError: b is not a result for this digraph: edge (0, 3) is covered by no hub; add a hub or enlarge one
    """
    if not isinstance(result, InvariantResult):
        raise TypeError(f"{argument} must be an InvariantResult, not {type(result).__name__}")
    if result.name != name:
        raise TheoremError(f"{argument} must be a result of {name}, not of {result.name}")
    try:
        result.witness.validate(digraph)
    except TheoremError as exc:
        raise TheoremError(f"{argument} is not a result for this digraph: {exc}") from None
    if _SIZES[name](result.witness) != result.value:
        raise TheoremError(f"{argument} says {result.value} but its witness has "
                           f"{_SIZES[name](result.witness)}; pass an unmodified result")
    return result


def unsat_certificate(claim, solver: str, data: dict | None = None):
    """The certificate maker ``refuted(k)`` for :func:`theorem.sat.search.descend`: the
    certificate that no ``claim(k)`` exists, from an UNSAT result of ``solver``.

    Internal plumbing shared by the invariants' searches (listed in ``__all__`` for the
    sibling modules). The certificate has ``kind="unsat"``, the statement
    ``"no {claim(k)} ({solver})"`` and data ``{"k": k, "solver": solver, **data}``, which
    :func:`~theorem.invariants.check_unsat_certificate` reads to prove it again.

    Parameters
    ----------
    claim : callable
        ``claim(k)``: the structure refuted for ``k``, in words (``"cover by 3 bicliques"``).
    solver : str
        The python-sat solver name that found the UNSAT result.
    data : dict, optional
        More data to record in each certificate (for example the fooling set pinned by the
        encoding).

    Returns
    -------
    callable
        ``refuted(k) -> Certificate``.

    Examples
    --------
    >>> refuted = unsat_certificate(lambda k: f"cover by {k} bicliques", "cadical195",
    ...                             {"maximal": True})
    >>> c = refuted(1)
    >>> c.kind, c.statement, c.data
    ('unsat', 'no cover by 1 bicliques (cadical195)', {'k': 1, 'solver': 'cadical195', 'maximal': True})
    """
    return lambda k: Certificate("unsat", f"no {claim(k)} ({solver})",
                                 {"k": k, "solver": solver, **(data or {})})


#: Certificate data that hold vertices, by the shape they are stored in.
_VERTEX_LISTS = ("vertices", "sequence", "sources", "targets")
_EDGE_LISTS = ("edges", "fooling_set", "pairs")


def relabelled(certificate: Certificate | None, trimmed: Trimmed) -> Certificate | None:
    """A certificate found on ``trimmed.digraph``, in the original digraph's vertex numbers.

    Internal plumbing of the invariants (listed in ``__all__`` for the sibling modules). The
    vertices in ``data`` (``"vertices"``, ``"sequence"``), the edges (``"edges"``,
    ``"fooling_set"``) and the weighted edges (``"weights"``) are relabelled
    ``i ↦ trimmed.vertices[i]``; a complete-subdigraph certificate is rebuilt, its statement
    naming the vertices.

    Parameters
    ----------
    certificate : Certificate or None
        A certificate about ``trimmed.digraph``.
    trimmed : Trimmed
        The trimming it was found under.

    Returns
    -------
    Certificate or None
        The certificate about ``trimmed.original`` (``certificate`` itself when nothing was
        trimmed, or when it is ``None``).

    Examples
    --------
    >>> from theorem.digraphs import AttentionDigraph, Trimmed
    >>> t = Trimmed.of(AttentionDigraph(6, [(1, 4), (4, 5)]))
    >>> c = Certificate("fooling-set", "2 edges pairwise in no common biclique",
    ...                 {"edges": [[0, 1], [1, 2]]})
    >>> relabelled(c, t).data
    {'edges': [[1, 4], [4, 5]]}
    """
    if trimmed.identity or certificate is None:
        return certificate
    v = trimmed.vertices
    data = dict(certificate.data)
    for key in _VERTEX_LISTS:
        if key in data:
            data[key] = v[np.asarray(data[key], dtype=np.int64)].tolist()
    for key in _EDGE_LISTS:
        if key in data:
            data[key] = v[np.asarray(data[key], dtype=np.int64).reshape(-1, 2)].tolist()
    if "weights" in data:
        w = np.asarray(data["weights"], dtype=np.int64).reshape(-1, 3)
        data["weights"] = np.column_stack([v[w[:, :2]], w[:, 2]]).tolist()
    if certificate.kind == "complete-subdigraph":  # its statement names the vertices
        from .biclique_cover import complete_subdigraph_certificate

        return complete_subdigraph_certificate(data["vertices"])
    return Certificate(certificate.kind, certificate.statement, data)


def solved(name: str, size, state, trimmed: Trimmed, start: float, deadline, search,
           begin: HubExtension, solver: str, *, unions: bool) -> InvariantResult:
    """The result of ``search(report, digraph, begin, deadline, solver)`` run under
    :func:`~theorem.sat.budget.anytime` on the kernel of the trimmed digraph
    (:class:`~theorem.digraphs.Kernel`: rows and columns that are empty, repeated or, with
    ``unions``, unions of others removed), against the trivial
    ``state = (witness, lower, certificate)``: the smaller witness and the larger lower bound
    of the two, mapped back to the original digraph and validated there. An UNSAT
    certificate found on a kernel records its ``sources`` and ``targets``. ``start`` is when
    the call began (``time.perf_counter()``).

    Internal plumbing of :func:`biclique_cover_number` and :func:`hub_chromatic_index`
    (listed in ``__all__`` for the sibling modules). This is where each solver witness is
    validated, once, on the original digraph (docs/conventions.md#validation).

    Parameters
    ----------
    name : str
        The invariant's name, for the result.
    size : callable
        ``size(witness) -> int``: the value a witness realizes (hubs, or colors).
    state : tuple
        The trivial ``(witness, lower, certificate)`` on ``trimmed.digraph``, kept when the
        search reports nothing better.
    trimmed : Trimmed
        The digraph without its isolated vertices, and the map back.
    start : float
        ``time.perf_counter()`` when the call began.
    deadline : float or None
        The call's ``time.monotonic()`` deadline, or ``None`` for no limit; the search's is
        moved earlier to keep time for the work after it (:func:`~theorem.sat.budget.reserve`).
    search : callable
        ``search(report, digraph, begin, deadline, solver)``, reporting each improved
        ``(witness, lower, certificate)``.
    begin : HubExtension
        The witness the search starts from.
    solver : str
        A python-sat solver name, passed to ``search``.
    unions : bool
        Whether the kernel drops rows and columns that are unions of others (they keep
        ``b``, not ``χ_hub``).

    Returns
    -------
    InvariantResult
        ``value = upper_bound = size(witness)``, ``optimal`` when the lower bound meets it.

    Raises
    ------
    InvalidHubExtensionError
        The witness is not a hub extension of ``trimmed.original`` (a bug in ``search``:
        raised by :meth:`HubExtension.validate`).

    Examples
    --------
    >>> from theorem.digraphs import AttentionDigraph, HubExtension, Trimmed
    >>> t = Trimmed.of(AttentionDigraph(4, [(1, 2), (1, 3)]))
    >>> stars = HubExtension([([0], [1]), ([0], [2])])
    >>> def search(report, digraph, begin, deadline, solver):
    ...     report((HubExtension([([0], [1, 2])]), 1, Certificate("non-empty", "an edge")))
    >>> r = solved("biclique_cover_number", lambda w: w.n_hubs,
    ...            (stars, 1, Certificate("non-empty", "an edge")), t, 0.0, None, search,
    ...            stars, "cadical195", unions=True)
    >>> r.value, r.optimal, r.witness.hubs
    (1, True, [([1], [2, 3])])
    """
    deadline = reserve(deadline, time.perf_counter() - start)
    found, _ = anytime(_on_kernel, deadline, trimmed.digraph, begin, deadline, solver, search,
                       unions)
    witness, lower, certificate = state
    if found is not None:
        witness = min(witness, found[0], key=size)
        lower, certificate = max((lower, certificate), (found[1], found[2]), key=lambda lc: lc[0])
    witness, certificate = trimmed.extension(witness), relabelled(certificate, trimmed)
    witness.validate(trimmed.original)
    value = size(witness)
    return InvariantResult(name, value, lower, value, value == lower, witness, certificate,
                           time.perf_counter() - start)


def _on_kernel(report, digraph: AttentionDigraph, begin: HubExtension, deadline, solver: str,
               search, unions: bool) -> None:
    """``search`` run on the :class:`~theorem.digraphs.Kernel` of ``digraph`` (with
    ``unions`` for ``b``; duplicates only for ``χ_hub``), its witnesses extended back to
    ``digraph`` and its UNSAT certificates told which sub-matrix they refute; the work of
    :func:`solved`'s child process."""
    kernel = Kernel.of(digraph, unions=unions, deadline=share(deadline, 0.1))
    if kernel.identity:
        search(report, digraph, begin, deadline, solver)
        return

    def through(state):
        witness, lower, certificate = state
        if certificate.kind == "unsat":
            certificate = Certificate(
                "unsat", f"{certificate.statement}, on the kernel M[sources, targets] (rows "
                "and columns that are empty, repeated or unions of others removed; a lower "
                "bound of a sub-matrix is one of M)",
                {**certificate.data, "sources": kernel.sources.tolist(),
                 "targets": kernel.targets.tolist()})
        report((kernel.extension(witness), lower, certificate))

    search(through, kernel.digraph, kernel.restrict(begin), deadline, solver)
