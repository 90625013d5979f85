"""The descent from above (``descend``) with a largest size to try: sizes above it left
alone, with and without bisection, and the answers below it the same as without it."""

from theorem.digraphs import HubExtension, transitive_tournament
from theorem.sat import Claims, biclique_cover_cnf
from theorem.sat.search import descend

G = transitive_tournament(5)                                          # b = 4
TRIVIAL = [([a], [b]) for a, b in G.edges.tolist()]                   # 10 bicliques


def run(lower, top, bisect):
    """``descend`` from the trivial cover; returns its result and the claims decided."""
    decided = []

    def encode(k):
        decided.append(k)
        return biclique_cover_cnf(G, k)

    with Claims(encode) as claims:
        result = descend(TRIVIAL, len, lower, "an edge", claims, None,
                         lambda k: f"no cover by {k} bicliques", bisect=bisect, top=top)
    return result, decided


def test_sizes_above_top_are_not_tried():
    for bisect in (False, True):
        (cover, lower, _), decided = run(1, 6, bisect)
        assert max(decided) <= 6 and len(cover) == lower == 4
        HubExtension(cover).validate(G)


def test_a_top_below_the_lower_bound_tries_nothing():
    for bisect in (False, True):
        (cover, lower, _), decided = run(2, 1, bisect)
        assert decided == [] and cover is TRIVIAL and lower == 2


def test_without_top_the_answers_are_the_same():
    for bisect in (False, True):
        (cover, lower, _), decided = run(1, None, bisect)
        (capped, capped_lower, _), _ = run(1, 9, bisect)
        assert len(cover) == lower == len(capped) == capped_lower == 4
        assert max(decided) == 9 or bisect
