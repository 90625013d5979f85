"""The attention corpus as a source of sweep tasks: one task per (sentence, layer, head).

docs/sweeps.md#the-attention-corpus. :func:`attention_points` lists the grid,
:func:`attention_task` solves one point — the model and the sentence's digraphs are made once
per worker process and kept — and :func:`theorem.sweeps.run_tasks` runs them on a local pool
or a ``dask.distributed`` cluster, resumable like any sweep.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path

from ..errors import ModelError
from ..sweeps.grid import INVARIANTS, invariant_columns, solve_invariants
from .attention import CORPUS, read_corpus, sentence_attention
from .loading import load_model

__all__ = ["ATTENTION_KEY", "attention_columns", "attention_points", "attention_task"]

#: The columns naming an attention task.
ATTENTION_KEY = ("sentence", "layer", "head")


@functools.lru_cache(maxsize=2)
def _model(model: str):
    return load_model(model)


@functools.lru_cache(maxsize=8)
def _digraphs(model: str, corpus: str, sentence: int, rule: str):
    text = read_corpus(corpus)[sentence]
    return sentence_attention(_model(model), text).digraphs(rule)


def attention_columns(invariants=INVARIANTS) -> list[str]:
    """The columns of an attention sweep's rows: :data:`ATTENTION_KEY`, ``tokens``,
    ``edges``, the invariants' (:func:`theorem.sweeps.invariant_columns`) and ``seconds``.

    Parameters
    ----------
    invariants : sequence of str
        Among ``"b"``, ``"chi_hub"``, ``"chi_prime"``.

    Returns
    -------
    list of str

    Raises
    ------
    SweepError
        An unknown or repeated invariant, or none.

    Examples
    --------
    >>> attention_columns(["b"])
    ['sentence', 'layer', 'head', 'tokens', 'edges', 'b', 'b_lower', 'b_upper', 'b_optimal', 'b_seconds', 'seconds']
    """
    return [*ATTENTION_KEY, "tokens", "edges", *invariant_columns(invariants), "seconds"]


def attention_points(sentences=None, layers=None, heads=None, *, model: str = "minilm",
                     corpus=CORPUS) -> list[dict]:
    """The grid ``{"sentence", "layer", "head"}`` over a corpus and a model's heads.

    Parameters
    ----------
    sentences, layers, heads : sequence of int, optional
        Indices; default every sentence of ``corpus`` and every layer and head of ``model``
        (loaded here to count them).
    model : str
        ``"minilm"`` or a model folder (:func:`load_model`).
    corpus : path-like
        One sentence a line (:func:`read_corpus`).

    Returns
    -------
    list of dict
        Sentence slowest, head fastest.

    Raises
    ------
    ModelError
        An index out of range, or the model or corpus cannot be read.

    Examples
    --------
    >>> attention_points([0, 3], [1], [0, 5])
    [{'sentence': 0, 'layer': 1, 'head': 0}, {'sentence': 0, 'layer': 1, 'head': 5}, {'sentence': 3, 'layer': 1, 'head': 0}, {'sentence': 3, 'layer': 1, 'head': 5}]
    """
    count = len(read_corpus(corpus))
    sentences = range(count) if sentences is None else sentences
    if layers is None or heads is None:
        loaded = _model(str(model))
        layers = range(loaded.n_layers) if layers is None else layers
        heads = range(loaded.n_heads) if heads is None else heads
    bad = [s for s in sentences if not 0 <= s < count]
    if bad:
        raise ModelError(f"sentence {bad[0]} is out of range: the corpus has {count}")
    return [{"sentence": int(s), "layer": int(l), "head": int(h)}
            for s in sentences for l in layers for h in heads]


def attention_task(point: dict, *, invariants=INVARIANTS, time_limit: float = 10.0,
                   model: str = "minilm", corpus=CORPUS, rule: str = "top-mass:0.9") -> dict:
    """Solve one attention head on one sentence: its digraph (special tokens dropped, as in
    the shared set) and its invariants within ``time_limit``.

    The model and each sentence's digraphs are made once per process and kept (a worker
    loads the model once).

    Parameters
    ----------
    point : dict
        ``{"sentence", "layer", "head"}`` (:func:`attention_points`).
    invariants : sequence of str
        Among ``"b"``, ``"chi_hub"``, ``"chi_prime"``.
    time_limit : float
        Seconds for the invariants.
    model : str
        ``"minilm"`` or a model folder.
    corpus : path-like
    rule : str
        The attention rule (:class:`~theorem.digraphs.AttentionRule`).

    Returns
    -------
    dict
        One value per :func:`attention_columns` column.

    Raises
    ------
    ModelError
        A layer or head out of range, or the model or corpus cannot be read.
    SweepError
        An unknown invariant or a bad time limit.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
    >>> row = attention_task({"sentence": 0, "layer": 0, "head": 0}, invariants=["chi_prime"])
    >>> row["chi_prime_optimal"], row["tokens"] > 0
    (True, True)
    """
    start = time.monotonic()
    digraphs = _digraphs(str(model), str(Path(corpus)), int(point["sentence"]), str(rule))
    layers, heads = digraphs.shape
    if not (0 <= point["layer"] < layers and 0 <= point["head"] < heads):
        raise ModelError(f"layer {point['layer']}, head {point['head']} is out of range: the "
                         f"model has {layers} layers of {heads} heads")
    g = digraphs[point["layer"], point["head"]]
    row = {**{k: point[k] for k in ATTENTION_KEY}, "tokens": g.n, "edges": g.n_edges,
           **solve_invariants(g, invariants, time_limit),
           "seconds": round(time.monotonic() - start, 4)}
    return {c: row[c] for c in attention_columns(invariants)}
