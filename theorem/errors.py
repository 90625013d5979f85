"""Exceptions raised by :mod:`theorem`.

All subclass :class:`TheoremError` (a :class:`ValueError`); wrong types raise ``TypeError``.
Messages say what was wrong, where, and how to fix it.
"""

from __future__ import annotations

__all__ = [
    "TheoremError",
    "SelfLoopError",
    "VertexError",
    "DigraphFormatError",
    "InvalidHubExtensionError",
    "InvalidColoringError",
    "TooManyBicliquesError",
    "AttentionMatrixError",
    "ModelError",
    "HeadError",
    "SweepError",
]


class TheoremError(ValueError):
    """Base class of the value errors raised by :mod:`theorem`."""


class SelfLoopError(TheoremError):
    """A digraph was given a loop ``(v, v)``; attention digraphs are loopless."""


class VertexError(TheoremError):
    """A vertex index is out of range, or vertex labels do not match the vertex count."""


class DigraphFormatError(TheoremError):
    """A digraph file or JSON object cannot be read."""


class InvalidHubExtensionError(TheoremError):
    """A hub extension does not cover the edge set exactly, or a hub has an empty side."""


class InvalidColoringError(TheoremError):
    """Two hubs (or two edges) of one color share a source or a target."""


class TooManyBicliquesError(TheoremError):
    """A digraph has more maximal bicliques than an enumeration was allowed (or time ran
    out enumerating them)."""


class AttentionMatrixError(TheoremError):
    """An attention matrix is not row-stochastic and square (or holds NaN), or a rule that
    turns it into a digraph is malformed."""


class ModelError(TheoremError):
    """A pretrained model cannot be loaded (no such folder, not in Hugging Face format), or a
    text does not fit it."""


class HeadError(TheoremError):
    """An attention-head construction (Section 3) was asked for what it cannot give: tokens
    in a dimension below their number, or one bilinear weight for edges it cannot realize."""


class SweepError(TheoremError):
    """A sweep's grid is malformed (a probability outside ``[0, 1]``, fewer than one hub or
    seed, an unknown invariant), or its results file belongs to another sweep."""
