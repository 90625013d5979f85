"""UNSAT certificates of the invariants proved again, with a DRAT proof that is checked."""

from __future__ import annotations

from ..digraphs.digraph import AttentionDigraph, check_digraph
from ..digraphs.kernel import rectangle
from ..errors import TheoremError
from ..sat.drat import DratCheck, check_drat, unsat_proof
from ..sat.encodings import biclique_cover_cnf, difunctional_cover_cnf
from ..sat.solver import SOLVER
from .fooling import is_fooling_set
from .results import InvariantResult

__all__ = ["check_unsat_certificate"]


def check_unsat_certificate(digraph: AttentionDigraph, result: InvariantResult, *,
                            solver: str = SOLVER) -> DratCheck:
    r"""Prove an UNSAT certificate again, with a DRAT proof, and check the proof.

    For :func:`biclique_cover_number` the claim "no cover by ``k`` bicliques" is re-encoded
    with the recorded fooling set in the first bicliques (the fooling set is checked first:
    the symmetry breaking is sound only for a true fooling set); for
    :func:`hub_chromatic_index`, "no cover by ``k`` difunctional relations". A claim refuted
    on the solver's kernel (the certificate records ``sources`` and ``targets``) is
    re-encoded on that sub-matrix, :func:`~theorem.digraphs.rectangle` (a lower bound of a
    sub-matrix is one of the whole). CaDiCaL logs the proof, :func:`check_drat` replays it.
    Meant for small encodings: the checker is pure Python (about 30,000 lemmas a second on
    small clause sets, much slower on large ones).

    Parameters
    ----------
    digraph : AttentionDigraph
        The digraph ``result`` was computed for.
    result : InvariantResult
        A result of :func:`biclique_cover_number` or :func:`hub_chromatic_index` whose
        certificate has ``kind="unsat"``.
    solver : str
        A python-sat solver name that logs DRAT proofs (CaDiCaL by default).

    Returns
    -------
    DratCheck
        ``valid`` when the proof refutes the re-encoded claim; when the encoding is
        satisfiable (the claim is false), ``valid=False`` with a ``detail`` saying so.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``result`` not an
        :class:`InvariantResult`.
    TheoremError
        The certificate is not an UNSAT one (or lacks its ``k``), the recorded fooling set is
        not a fooling set of ``digraph`` (or of the recorded sub-matrix), or ``result`` is of
        an invariant with no SAT encoding.
    VertexError
        The recorded ``sources`` or ``targets`` are not vertices of ``digraph``.

    Examples
    --------
    A digraph whose longest skew sequence has 4 pairs (so ``χ_hub ≥ 2`` by Alon's bound)
    and ``χ_hub = 3``:

    >>> from theorem.digraphs import AttentionDigraph
    >>> from theorem.invariants import hub_chromatic_index
    >>> g = AttentionDigraph(7, [(0, 5), (0, 6), (1, 5), (2, 1), (2, 6), (3, 1), (3, 4), (3, 6), (4, 0), (4, 2),
    ...                          (4, 5), (4, 6), (5, 1), (5, 2), (5, 3), (6, 0), (6, 1), (6, 2), (6, 5)])
    >>> r = hub_chromatic_index(g)
    >>> r.value, r.certificate.kind, check_unsat_certificate(g, r).valid
    (3, 'unsat', True)
    """
    check_digraph(digraph)
    if not isinstance(result, InvariantResult):
        raise TypeError(f"result must be an InvariantResult, not {type(result).__name__}")
    certificate = result.certificate
    kind = None if certificate is None else certificate.kind
    if kind != "unsat":
        raise TheoremError(f"the {result.name} result is certified by {kind!r}, not by "
                           "an UNSAT result; there is no SAT claim to prove")
    if not isinstance(certificate.data, dict) or "k" not in certificate.data:
        raise TheoremError("the UNSAT certificate records no k (the refuted size); pass the "
                           "result as the solver returned it")
    k = int(certificate.data["k"])
    if "sources" in certificate.data:      # refuted on a sub-matrix (the solver's kernel)
        digraph = rectangle(digraph, certificate.data["sources"],
                            certificate.data.get("targets", []))
    if result.name == "biclique_cover_number":
        fooling = certificate.data.get("fooling_set", [])
        if fooling and not is_fooling_set(digraph, fooling):
            raise TheoremError("the recorded fooling set is not a fooling set of this digraph")
        clauses, _ = biclique_cover_cnf(digraph, k, fooling,
                                        maximal=bool(certificate.data.get("maximal")))
    elif result.name == "hub_chromatic_index":
        clauses, _ = difunctional_cover_cnf(digraph, k)
    else:
        raise TheoremError(f"no SAT encoding for {result.name!r}")
    proof = unsat_proof(clauses, solver=solver)
    if proof is None:
        return DratCheck(False, 0, 0, None, f"the encoding for k = {k} is satisfiable: the claim is false")
    return check_drat(clauses, proof)
