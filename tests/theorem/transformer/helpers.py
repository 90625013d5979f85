"""Digraphs and colored hub extensions the Section 3 tests share."""

from pathlib import Path

from hypothesis import strategies as st

from theorem.digraphs import AttentionDigraph, HubExtension
from theorem.invariants import chromatic_index, dsatur_colored, star_cover

from ..invariants.test_dense import random_digraph

#: Real attention digraphs copied beside the invariant tests (index.json there says which).
ATTENTION = Path(__file__).resolve().parents[1] / "invariants" / "attention"


def edge_hubs(digraph: AttentionDigraph) -> HubExtension:
    """One hub per edge, colored by a König edge coloring: a valid colored hub extension
    with ``χ'`` colors, built without the code under test."""
    colors = chromatic_index(digraph).witness
    return HubExtension([({a}, {b}) for a, b in digraph.edges.tolist()], colors=colors.tolist())


def star_hubs(digraph: AttentionDigraph) -> HubExtension:
    """The star cover, colored by DSatur."""
    return dsatur_colored(HubExtension(star_cover(digraph)))


digraphs = st.builds(random_digraph, st.integers(0, 2 ** 16), st.integers(2, 7),
                     st.sampled_from([0.2, 0.5, 0.8]))
