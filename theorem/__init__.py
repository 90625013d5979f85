"""The paper's Main Theorem: attention digraphs, hub extensions, invariants, density covers.

Holds the command line (:mod:`theorem.cli`) for now; later issues add the combinatorics and
the constructions. Imports :mod:`manifolds` and :mod:`laws`.
"""

__all__: list[str] = []
