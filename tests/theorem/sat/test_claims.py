"""Claims decided resumably: the same answers as one plain solve, a claim stopped at a
deadline finishes over many short calls, decided claims answered from memory, oversized
claims left unencoded, and few solvers kept open."""

import itertools
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from theorem.digraphs import AttentionDigraph, transitive_tournament
from theorem.sat import Claims, biclique_cover_cnf, difunctional_cover_cnf


def pigeonhole(holes):
    """``holes + 1`` pigeons in ``holes`` holes: unsatisfiable, and hard for resolution."""
    var = lambda p, h: 1 + p * holes + h  # noqa: E731
    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    clauses += [[-var(p, h), -var(q, h)] for h in range(holes)
                for p, q in itertools.combinations(range(holes + 1), 2)]
    return clauses


def plain(clauses):
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        return s.solve()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 7), p=st.floats(0.2, 0.9))
def test_answers_and_witnesses_agree_with_a_plain_solve(seed, n, p):
    import numpy as np
    gen = np.random.default_rng(seed)
    m = gen.random((n, n)) < p
    np.fill_diagonal(m, False)
    g = AttentionDigraph.from_adjacency(m.astype(np.uint8))
    with Claims(lambda k: difunctional_cover_cnf(g, k)) as claims:
        for k in range(4):
            found, witness = claims.decide(k, time.monotonic() + 60)
            assert found is plain(difunctional_cover_cnf(g, k)[0])
            if found:
                witness.validate(g)
                assert witness.n_colors <= k


def test_a_claim_stopped_at_its_deadline_finishes_over_many_short_calls():
    # each call gets 20 ms: a solver restarted at every call would never refute this one
    # on a machine where it takes longer than that; kept open, the calls add up
    with Claims(lambda k: (pigeonhole(k), None)) as claims:
        answers = []
        for _ in range(2000):
            answers.append(claims.decide(8, time.monotonic() + 0.02)[0])
            if answers[-1] is not None:
                break
    assert answers[-1] is False
    assert set(answers[:-1]) <= {None}


def test_decided_claims_are_answered_from_memory_and_oversized_ones_not_encoded():
    calls = []

    def encode(k):
        calls.append(k)
        return biclique_cover_cnf(transitive_tournament(3), k)

    with Claims(encode, size=lambda k: 10 * k) as claims:
        assert claims.decide(1, None)[0] is False
        assert claims.decide(1, None)[0] is False
        assert claims.decide(2, None, most=5) == (None, None)          # 20 clauses > 5
        assert claims.decide(2, time.monotonic() - 1) == (None, None)  # deadline passed
        found, cover = claims.decide(2, None, most=20)
    assert found and len(cover) == 2 and calls == [1, 2]


def test_a_claim_not_encoded_is_undecided():
    with Claims(lambda k: None) as claims:
        assert claims.decide(3, None) == (None, None)


def test_only_a_few_solvers_stay_open():
    with Claims(lambda k: (pigeonhole(k), None), keep=2) as claims:
        for k in (6, 7, 8):
            assert claims.decide(k, time.monotonic() - 1) == (None, None)  # never encoded
        for k in (6, 7, 8, 6):
            claims.decide(k, time.monotonic() + 1e-3)
        assert len(claims._open) <= 2
        assert claims.decide(5, None)[0] is False       # still correct after evictions


@pytest.mark.parametrize("solver", ["glucose4", "lingeling"])
def test_other_solvers_decide_too(solver):
    with Claims(lambda k: (pigeonhole(k), None), solver=solver) as claims:
        assert claims.decide(4, time.monotonic() + 60)[0] is False
