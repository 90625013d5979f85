"""Hub extensions of attention digraphs (Lemma 2.1) and their colorings.

A hub ``p`` carries a biclique ``(A_p, B_p)``: ``A_p`` are the vertices with an edge into the
hub (its sources), ``B_p`` the vertices it points to (its targets). A hub extension of
``(V, E)`` satisfies axiom 1 exactly: ``⋃_p A_p × B_p = E``. A *coloring* gives each hub a
color so that two hubs sharing a source or a target differ (docs/conventions.md#hub-extensions-and-colorings).
"""

from __future__ import annotations

import itertools
import json
import numbers
import weakref
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .digraph import AttentionDigraph, check_digraph, check_vertex_count, unique_pair_codes
from ..errors import InvalidColoringError, InvalidHubExtensionError, TheoremError, VertexError

__all__ = ["HubExtension"]

#: The digraphs each hub extension was validated against, by identity and weakly. Hub
#: extensions and digraphs are immutable, so a check that passed stays passed: a result
#: handed from one solver to the next (``b`` to ``χ_hub`` to the Pareto front) is not checked
#: again, which on millions of edges took most of the time of a short limit.
_VALIDATED: "weakref.WeakKeyDictionary[HubExtension, list]" = weakref.WeakKeyDictionary()


def _vertex_set(side, hub: int, name: str) -> frozenset[int]:
    if isinstance(side, (str, bytes)) or not isinstance(side, Iterable):
        raise TypeError(f"hub {hub}: its {name}s must be a collection of vertices, got "
                        f"{side!r}")
    items = list(side)
    if set(map(type, items)) <= {int}:     # the common case, checked at C speed
        return frozenset(items)
    for v in items:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise TypeError(f"hub {hub}: {name} vertices must be integers, got {v!r}")
    return frozenset(int(v) for v in items)


def _checked_colors(colors, n_hubs: int) -> tuple[int, ...] | None:
    if colors is None:
        return None
    colors = tuple(colors)
    for c in colors:
        if isinstance(c, bool) or not isinstance(c, numbers.Integral) or c < 0:
            raise InvalidColoringError(f"colors must be non-negative integers, got {c!r}")
    if len(colors) != n_hubs:
        raise InvalidColoringError(
            f"{len(colors)} colors for {n_hubs} hubs; give one color per hub")
    return tuple(int(c) for c in colors)


@dataclass(frozen=True, eq=False)
class HubExtension:
    r"""Hubs as (sources, targets) pairs of vertex sets, optionally colored.

    Parameters
    ----------
    hubs : iterable of (iterable of int, iterable of int)
        ``(A_p, B_p)`` per hub.
    colors : sequence of int, optional
        One color per hub; a hub extension with colors is a *colored* hub extension.
        Colors are checked by :meth:`validate_coloring` (and by :meth:`validate`).

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    >>> ext.validate(transitive_tournament(3))
    >>> ext.conflict_matrix().astype(int).tolist()   # the hubs share the target 2
    [[0, 1], [1, 0]]
    """

    sources: tuple[frozenset[int], ...]
    targets: tuple[frozenset[int], ...]
    colors: tuple[int, ...] | None = None

    def __init__(self, hubs, colors=None):
        if isinstance(hubs, (str, bytes, dict)) or not isinstance(hubs, Iterable):
            raise TypeError(f"hubs must be a list of (sources, targets) pairs, not "
                            f"{type(hubs).__name__}")
        pairs = list(hubs)
        sources, targets = [], []
        for p, pair in enumerate(pairs):
            try:
                a, b = pair
            except (TypeError, ValueError):
                raise TypeError(f"hub {p} must be a pair (sources, targets), got {pair!r}") from None
            sources.append(_vertex_set(a, p, "source"))
            targets.append(_vertex_set(b, p, "target"))
        object.__setattr__(self, "sources", tuple(sources))
        object.__setattr__(self, "targets", tuple(targets))
        object.__setattr__(self, "colors", _checked_colors(colors, len(pairs)))

    # -- views -------------------------------------------------------------------------------
    @property
    def n_hubs(self) -> int:
        """Number of hubs ``n`` (hubs with an empty side included)."""
        return len(self.sources)

    @property
    def n_colors(self) -> int:
        """Number of distinct colors (0 when uncolored)."""
        return len(set(self.colors)) if self.colors is not None else 0

    @property
    def hubs(self) -> list[tuple[list[int], list[int]]]:
        """``[(sorted A_p, sorted B_p), ...]``."""
        return [(sorted(a), sorted(b)) for a, b in zip(self.sources, self.targets)]

    def with_colors(self, colors) -> "HubExtension":
        """The same hubs with ``colors`` (one non-negative integer per hub).

        Only the form of ``colors`` is checked here (one non-negative integer per hub); that
        hubs of one color share no source and no target is :meth:`validate_coloring`'s job.

        Parameters
        ----------
        colors : sequence of int or None
            One color per hub, or ``None`` for an uncolored copy.

        Returns
        -------
        HubExtension
            A new extension with the same hubs; ``self`` is unchanged.

        Raises
        ------
        InvalidColoringError
            A color is not a non-negative integer, or there is not one color per hub
            (raised by the shared color check).

        Examples
        --------
        >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})])
        >>> ext.with_colors([0, 1]).colors, ext.colors
        ((0, 1), None)
        """
        ext = object.__new__(HubExtension)
        object.__setattr__(ext, "sources", self.sources)
        object.__setattr__(ext, "targets", self.targets)
        object.__setattr__(ext, "colors", _checked_colors(colors, self.n_hubs))
        return ext

    def __eq__(self, other) -> bool:
        return (isinstance(other, HubExtension) and self.sources == other.sources
                and self.targets == other.targets and self.colors == other.colors)

    def __hash__(self) -> int:
        return hash((self.sources, self.targets, self.colors))

    def __repr__(self) -> str:
        col = f", colors={list(self.colors)}" if self.colors is not None else ""
        return f"HubExtension({self.hubs}{col})"

    def incidence(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The hub–vertex incidence matrices ``S`` (sources) and ``T`` (targets).

        ``S[p, a] = a ∈ A_p`` and ``T[p, b] = b ∈ B_p``, both boolean of shape
        ``(n_hubs, n)``. The pairs the hubs cover are those where ``Sᵀ T > 0`` (axiom 1 asks
        that they be exactly the edges).

        Parameters
        ----------
        n : int
            Number of vertices ``N`` of the digraph; vertices are ``0..n-1``.

        Returns
        -------
        S, T : tuple of numpy.ndarray
            Boolean ``(n_hubs, n)`` matrices.

        Raises
        ------
        TypeError
            ``n`` is not an integer.
        VertexError
            ``n`` is negative or above :data:`~theorem.digraphs.digraph.MAX_VERTICES`, or a
            hub has a vertex outside ``0..n-1``.

        Examples
        --------
        >>> s, t = HubExtension([({0}, {1, 2}), ({1}, {2})]).incidence(3)
        >>> s.astype(int).tolist(), t.astype(int).tolist()
        ([[1, 0, 0], [0, 1, 0]], [[0, 1, 1], [0, 0, 1]])
        """
        n = check_vertex_count(n)
        s = np.zeros((self.n_hubs, n), dtype=bool)
        t = np.zeros((self.n_hubs, n), dtype=bool)
        for p, (a, b) in enumerate(zip(self.sources, self.targets)):
            for side, matrix, name in ((a, s, "source"), (b, t, "target")):
                bad = [v for v in side if not 0 <= v < n]
                if bad:
                    raise VertexError(f"hub {p} has {name} vertex {bad[0]}, but vertices are "
                                      f"0..{n - 1}")
                matrix[p, sorted(side)] = True
        return s, t

    # -- axiom 1 -----------------------------------------------------------------------------
    def validate(self, digraph: AttentionDigraph) -> None:
        """Check that this is a hub extension of ``digraph``: axiom 1 exactly,
        ``⋃_p A_p × B_p = E``, with non-empty sides, and the coloring if there is one.

        Takes linear time, ``Σ_p |A_p| |B_p|`` plus the edges
        (docs/conventions.md#validation); returns nothing when everything holds. A check
        that passed is remembered: validating this extension on the same digraph object
        again returns at once (both are immutable).

        Parameters
        ----------
        digraph : AttentionDigraph
            The digraph ``(V, E)`` the hubs must cover.

        Raises
        ------
        TypeError
            ``digraph`` is not an :class:`AttentionDigraph`.
        InvalidHubExtensionError
            A hub has an empty side, a hub covers a pair that is not an edge (an extra pair),
            or an edge is covered by no hub (the message names the hub or the pair).
        VertexError
            A hub has a vertex outside ``0..N-1``.
        InvalidColoringError
            The extension is colored and two hubs of one color share a source or a target
            (raised by :meth:`validate_coloring`).

        Examples
        --------
        >>> from theorem.digraphs import transitive_tournament
        >>> tt3 = transitive_tournament(3)
        >>> HubExtension([({0}, {1, 2}), ({1}, {2})]).validate(tt3)   # exact: no error
        >>> HubExtension([({0}, {1})]).validate(tt3)
        Traceback (most recent call last):
            ...
        theorem.errors.InvalidHubExtensionError: edge (0, 2) is covered by no hub; add a hub or enlarge one
        """
        check_digraph(digraph)
        if any(ref() is digraph for ref in _VALIDATED.get(self, ())):
            return
        n = digraph.n
        codes = []   # the covered pairs as codes a·N + b, without any N × N product
        for p, (a, b) in enumerate(zip(self.sources, self.targets)):
            if not a or not b:
                raise InvalidHubExtensionError(
                    f"hub {p} has an empty {'source' if not a else 'target'} side; "
                    "every hub carries a biclique with both sides non-empty — drop it")
            sides = []
            for side, name in ((a, "source"), (b, "target")):
                try:
                    vertices = np.fromiter(side, np.int64, len(side))
                except OverflowError:    # a Python int beyond int64: out of range too
                    vertices = None
                if vertices is None or vertices.min() < 0 or vertices.max() >= n:
                    v = min(side) if min(side) < 0 else max(side)
                    raise VertexError(f"hub {p} has {name} vertex {v}, but vertices are "
                                      f"0..{n - 1}")
                sides.append(vertices)
            codes.append((sides[0][:, None] * n + sides[1][None, :]).ravel())
        covered = np.concatenate(codes or [np.zeros(0, np.int64)])
        covered = unique_pair_codes(covered, n)
        edges = digraph.edges[:, 0] * n + digraph.edges[:, 1]
        extra = np.setdiff1d(covered, edges, assume_unique=True)
        if len(extra):
            a, b = divmod(int(extra[0]), n)
            p = next(p for p, (s, t) in enumerate(zip(self.sources, self.targets))
                     if a in s and b in t)
            raise InvalidHubExtensionError(
                f"hub {p} covers ({a}, {b}), which is not an edge"
                + (" (a loop)" if a == b else "") + "; remove it from the hub's sides")
        missing = np.setdiff1d(edges, covered, assume_unique=True)
        if len(missing):
            a, b = divmod(int(missing[0]), n)
            raise InvalidHubExtensionError(
                f"edge ({a}, {b}) is covered by no hub; add a hub or enlarge one")
        if self.colors is not None:
            self.validate_coloring()
        alive = [ref for ref in _VALIDATED.get(self, ()) if ref() is not None]
        _VALIDATED[self] = alive + [weakref.ref(digraph)]

    # -- colorings ---------------------------------------------------------------------------
    def conflict_matrix(self) -> np.ndarray:
        """The hub-conflict graph as a boolean ``(n_hubs, n_hubs)`` matrix.

        Hubs ``p ≠ q`` conflict when they share a source (``A_p ∩ A_q ≠ ∅``) or a target
        (``B_p ∩ B_q ≠ ∅``); a coloring must give conflicting hubs different colors, so the
        chromatic index of the extension is the chromatic number of this graph
        (docs/conventions.md#hub-extensions-and-colorings). Symmetric, zero diagonal.

        Returns
        -------
        numpy.ndarray
            Boolean ``(n_hubs, n_hubs)``; entry ``[p, q]`` is ``True`` when ``p`` and ``q``
            conflict.

        Examples
        --------
        >>> ext = HubExtension([({0}, {1}), ({0}, {2}), ({1}, {2})])
        >>> ext.conflict_matrix().astype(int).tolist()   # 0, 1 share a source; 1, 2 a target
        [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
        """
        n = 1 + max((max(a | b) for a, b in zip(self.sources, self.targets) if a | b),
                    default=-1)
        s, t = self.incidence(n)
        s, t = s.astype(np.float32), t.astype(np.float32)   # counts ≤ N: exact in float32
        conflict = ((s @ s.T) > 0) | ((t @ t.T) > 0)
        np.fill_diagonal(conflict, False)
        return conflict

    def conflict_graph(self):
        """The hub-conflict graph as a ``networkx.Graph`` on ``0..n_hubs-1``.

        Same graph as :meth:`conflict_matrix`: an edge joins two hubs that share a source or
        a target.

        Returns
        -------
        networkx.Graph
            Nodes ``0..n_hubs-1``, one edge per conflicting pair of hubs.

        Examples
        --------
        >>> g = HubExtension([({0}, {1}), ({0}, {2}), ({1}, {2})]).conflict_graph()
        >>> sorted(g.edges())
        [(0, 1), (1, 2)]
        """
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(range(self.n_hubs))
        g.add_edges_from(map(tuple, np.argwhere(np.triu(self.conflict_matrix())).tolist()))
        return g

    def validate_coloring(self, colors=None) -> None:
        """Check the coloring rule: hubs of one color share no source and no target.

        (docs/conventions.md#hub-extensions-and-colorings.) Returns nothing when the coloring
        is valid.

        Parameters
        ----------
        colors : sequence of int, optional
            One color per hub; defaults to the extension's own colors.

        Raises
        ------
        InvalidColoringError
            There are no colors (neither given nor carried), the colors are not one
            non-negative integer per hub, or two hubs of one color share a source or a target
            (the message names the two hubs and the shared vertex).

        Examples
        --------
        >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})])
        >>> ext.validate_coloring([0, 1])   # valid: no error
        >>> ext.validate_coloring([0, 0])
        Traceback (most recent call last):
            ...
        theorem.errors.InvalidColoringError: hubs 0 and 1 both have color 0 and share the target 2; give them different colors
        """
        ext = self if colors is None else self.with_colors(colors)
        if ext.colors is None:
            raise InvalidColoringError("this hub extension has no colors; pass colors=[...]")
        # valid when each color's hubs have disjoint sides: set unions at C speed, for
        # extensions of millions of pairs; the conflict is located only when there is one
        classes: dict[int, list[int]] = {}
        for p, c in enumerate(ext.colors):
            classes.setdefault(c, []).append(p)
        if all(len(frozenset().union(*(sets[p] for p in hubs))) == sum(len(sets[p]) for p in hubs)
               for sets in (ext.sources, ext.targets) for hubs in classes.values()):
            return
        # two hubs of one color sharing a vertex v on one side repeat the key (color, v);
        # colors and vertices are replaced by their ranks first, so that no value (huge,
        # negative: nothing is checked against a digraph here) can overflow or collide
        rank = {c: i for i, c in enumerate(sorted(set(ext.colors)))}
        colors = np.fromiter((rank[c] for c in ext.colors), np.int64, ext.n_hubs)
        for side_sets, name in ((ext.sources, "source"), (ext.targets, "target")):
            sizes = np.fromiter(map(len, side_sets), np.int64, len(side_sets))
            flat = list(itertools.chain.from_iterable(side_sets))
            names = sorted(set(flat))
            index = {v: i for i, v in enumerate(names)}
            vertices = np.fromiter((index[v] for v in flat), np.int64, len(flat))
            hub = np.repeat(np.arange(len(side_sets)), sizes)
            keys = colors[hub] * max(len(names), 1) + vertices
            order = np.argsort(keys, kind="stable")
            dup = np.flatnonzero(keys[order][1:] == keys[order][:-1])
            if len(dup):
                q, p = sorted((int(hub[order[dup[0]]]), int(hub[order[dup[0] + 1]])))
                v = names[int(vertices[order[dup[0]]])]
                raise InvalidColoringError(
                    f"hubs {q} and {p} both have color {ext.colors[p]} and share the {name} "
                    f"{v}; give them different colors")

    # -- Lemma 2.1: a biclique cover is a hub extension, and back ------------------------------
    @classmethod
    def from_biclique_cover(cls, bicliques) -> "HubExtension":
        """The hub extension with one hub per biclique ``(A, B)`` (Lemma 2.1, cover → hubs).

        A biclique cover of ``E`` is a hub extension: hub ``p`` takes ``A_p = A``,
        ``B_p = B``. Nothing is checked against a digraph here; call :meth:`validate`.

        Parameters
        ----------
        bicliques : iterable of (iterable of int, iterable of int)
            The bicliques ``(A, B)``.

        Returns
        -------
        HubExtension
            Uncolored, with ``len(bicliques)`` hubs.

        Examples
        --------
        >>> HubExtension.from_biclique_cover([([0], [1, 2]), ([1], [2])])
        HubExtension([([0], [1, 2]), ([1], [2])])
        """
        return cls(bicliques)

    def bicliques(self) -> list[tuple[list[int], list[int]]]:
        """The biclique cover the hubs carry (Lemma 2.1, hubs → cover).

        Returns
        -------
        list of (list of int, list of int)
            ``(sorted A_p, sorted B_p)`` per hub, in hub order (the same as :attr:`hubs`).

        Examples
        --------
        >>> HubExtension([({0}, {2, 1}), ({1}, {2})]).bicliques()
        [([0], [1, 2]), ([1], [2])]
        """
        return self.hubs

    def extended_digraph(self, n: int) -> AttentionDigraph:
        """The extended digraph ``(Ṽ, Ẽ)`` on ``V ∪ H`` of Lemma 2.1.

        Hub ``p`` is vertex ``n + p``, with edges ``a → n + p`` for ``a ∈ A_p`` and
        ``n + p → b`` for ``b ∈ B_p``; edges join ``V`` and ``H`` only (axiom 2).

        Parameters
        ----------
        n : int
            Number of vertices ``N = |V|``; the hubs become vertices ``n..n+n_hubs-1``.

        Returns
        -------
        AttentionDigraph
            On ``n + n_hubs`` vertices, with ``Σ_p |A_p| + |B_p|`` edges.

        Raises
        ------
        TypeError
            ``n`` is not an integer.
        VertexError
            ``n`` is negative, a hub has a vertex outside ``0..n-1`` (it would be read as a
            hub), or ``n + n_hubs`` is above :data:`~theorem.digraphs.digraph.MAX_VERTICES`.

        Examples
        --------
        >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})])
        >>> ext.extended_digraph(3).edges.tolist()
        [[0, 3], [1, 4], [3, 1], [3, 2], [4, 2]]
        """
        n = check_vertex_count(n)
        for p, (a, b) in enumerate(zip(self.sources, self.targets)):
            bad = [v for v in a | b if not 0 <= v < n]
            if bad:
                raise VertexError(f"hub {p} has vertex {bad[0]}, but vertices are 0..{n - 1}; "
                                  "raise n")
        check_vertex_count(n + self.n_hubs, "n + n_hubs")
        edges = [(a, n + p) for p, side in enumerate(self.sources) for a in sorted(side)]
        edges += [(n + p, b) for p, side in enumerate(self.targets) for b in sorted(side)]
        return AttentionDigraph(n + self.n_hubs, edges)

    @classmethod
    def from_extended_digraph(cls, extended: AttentionDigraph, n: int) -> "HubExtension":
        """The hub extension read back from an extended digraph (the inverse of
        :meth:`extended_digraph`).

        Vertices ``0..n-1`` of ``extended`` are ``V`` and vertices ``n..`` are hubs: an edge
        ``a → n + p`` puts ``a`` in ``A_p``, an edge ``n + p → b`` puts ``b`` in ``B_p``.

        Parameters
        ----------
        extended : AttentionDigraph
            The extended digraph on ``V ∪ H``.
        n : int
            Number of vertices ``N = |V|``.

        Returns
        -------
        HubExtension
            Uncolored, with ``extended.n - n`` hubs (a hub without edges has empty sides).

        Raises
        ------
        TypeError
            ``extended`` is not an :class:`AttentionDigraph`, or ``n`` not an integer.
        VertexError
            ``n`` is negative or above ``extended.n``.
        InvalidHubExtensionError
            An edge joins two vertices or two hubs: edges must run between ``V`` and ``H``
            only (axiom 2).

        Examples
        --------
        >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})])
        >>> HubExtension.from_extended_digraph(ext.extended_digraph(3), 3) == ext
        True
        """
        check_digraph(extended)
        n = check_vertex_count(n)
        if n > extended.n:
            raise VertexError(f"n = {n} vertices, but the extended digraph has only "
                              f"{extended.n}; n counts its vertices that are not hubs")
        e = extended.edges
        inside = (e < n)
        if (inside[:, 0] == inside[:, 1]).any():
            a, b = e[inside[:, 0] == inside[:, 1]][0].tolist()
            raise InvalidHubExtensionError(
                f"edge ({a}, {b}) does not join a vertex (< {n}) and a hub (≥ {n})")
        hubs = [(set(), set()) for _ in range(extended.n - n)]
        for a, b in e.tolist():
            if a < n:
                hubs[b - n][0].add(a)
            else:
                hubs[a - n][1].add(b)
        return cls(hubs)

    # -- JSON --------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """The hub extension as a JSON-ready object.

        Returns
        -------
        dict
            ``{"hubs": [[sources, targets], ...], "colors": [...] or None}``, sides sorted;
            :meth:`from_json` reads it back.

        Examples
        --------
        >>> HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1]).to_json()
        {'hubs': [[[0], [1, 2]], [[1], [2]]], 'colors': [0, 1]}
        """
        return {"hubs": [[a, b] for a, b in self.hubs],
                "colors": list(self.colors) if self.colors is not None else None}

    @classmethod
    def from_json(cls, obj) -> "HubExtension":
        """The hub extension read from the object :meth:`to_json` writes.

        Nothing is checked against a digraph here; call :meth:`validate`.

        Parameters
        ----------
        obj : dict or str
            ``{"hubs": [[sources, targets], ...], "colors": [...] or None}``, or that object
            as a JSON string. ``"colors"`` may be absent.

        Returns
        -------
        HubExtension

        Raises
        ------
        TheoremError
            ``obj`` is not an object with the key ``"hubs"``.

        Examples
        --------
        >>> HubExtension.from_json('{"hubs": [[[0], [1, 2]], [[1], [2]]], "colors": [0, 1]}')
        HubExtension([([0], [1, 2]), ([1], [2])], colors=[0, 1])
        """
        if isinstance(obj, str):
            obj = json.loads(obj)
        if not isinstance(obj, dict) or "hubs" not in obj:
            raise TheoremError('a hub extension JSON object has the key "hubs"')
        return cls(obj["hubs"], obj.get("colors"))

