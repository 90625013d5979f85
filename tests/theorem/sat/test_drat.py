"""DRAT proofs: every UNSAT certificate of a small digraph comes with a proof that checks, and
broken proofs are rejected."""

import pytest

from theorem.invariants import check_unsat_certificate
from theorem.sat import check_drat, unsat_proof
from theorem.errors import TheoremError
from theorem.digraphs import AttentionDigraph, complete_digraph
from theorem.invariants import biclique_cover_number, hub_chromatic_index, skew_sequence_of_length
from theorem.sat import biclique_cover_cnf

from tests.theorem.invariants.test_invariants import digraphs_up_to_isomorphism

XOR = [[1, 2], [-1, 2], [1, -2], [-1, -2]]


def test_every_unsat_certificate_on_small_digraphs_has_a_checked_proof():
    checked = 0
    for g in [*digraphs_up_to_isomorphism(3), *digraphs_up_to_isomorphism(4)]:
        for result in (biclique_cover_number(g), hub_chromatic_index(g)):
            if result.certificate.kind == "unsat":
                check = check_unsat_certificate(g, result)
                assert check.valid, (g.edges.tolist(), result.name, check.detail)
                checked += 1
    assert checked > 0


def test_larger_unsat_certificates_check():
    # a random digraph (7 vertices) whose longest skew sequence has 4 pairs: χ_hub = 3 needs
    # the refutation of 2 relations
    g = AttentionDigraph(7, [(0, 5), (0, 6), (1, 5), (2, 1), (2, 6), (3, 1), (3, 4), (3, 6),
                             (4, 0), (4, 2), (4, 5), (4, 6), (5, 1), (5, 2), (5, 3), (6, 0),
                             (6, 1), (6, 2), (6, 5)])
    assert skew_sequence_of_length(g, 5) is None
    r = hub_chromatic_index(g)
    assert (r.value, r.certificate.kind) == (3, "unsat") and check_unsat_certificate(g, r).valid
    with pytest.raises(TheoremError, match="not by an UNSAT result"):
        check_unsat_certificate(complete_digraph(5), hub_chromatic_index(complete_digraph(5)))


def test_broken_proofs_are_rejected():
    clauses, _ = biclique_cover_cnf(complete_digraph(6), 3)
    proof = unsat_proof(clauses)
    assert check_drat(clauses, proof).valid
    lemmas = [line for line in proof if not line.startswith("d")]
    # a proof may stop once unit propagation over formula and lemmas conflicts (that is the
    # empty clause by RUP); the first two lemmas alone do not get there
    assert check_drat(clauses, lemmas[:-1]).valid
    assert check_drat(clauses, lemmas[:2]).detail == "the proof never derives the empty clause"
    middle = check_drat(clauses, lemmas[len(lemmas) // 2:])
    assert not middle.valid and middle.failed is not None               # a lemma out of thin air
    assert not check_drat([[1, 2], [-1, 2]], ["0"]).valid               # a satisfiable formula
    assert not check_drat(XOR, ["1 2"]).valid                           # malformed: no final 0


def test_rat_lemmas_are_checked_on_their_pivot():
    # "3 0" is not RUP, but RAT on the fresh variable 3 (no clause contains ¬3)
    check = check_drat(XOR, ["3 0", "2 0", "0"])
    assert check.valid and check.rat == 1 and check.lemmas == 2   # "2 0" already conflicts
    # "-2 0" is neither: clause (1 2) resolves on 2 with nothing that makes it RUP ... but
    # with (-1 2) in the formula, asserting 2 and propagating gives no conflict
    assert not check_drat([[1, 2], [-1, 2]], ["-2 0", "0"]).valid
