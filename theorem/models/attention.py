"""Attention weights of a pretrained transformer on a text, and its corpus of sentences."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..digraphs.attention import attention_digraph, drop_tokens
from ..errors import ModelError
from .loading import PretrainedModel, require_transformers

__all__ = ["SentenceAttention", "sentence_attention", "read_corpus", "CORPUS"]

#: The project's own corpus: sentences written for this library (one a line), of 8 to 64
#: word-piece tokens under MiniLM's tokenizer (docs/attention.md says how it was made).
CORPUS = Path(__file__).with_name("corpus.txt")


@dataclass(frozen=True, eq=False)
class SentenceAttention:
    """The attention weights of every layer and head of a model on one text.

    Parameters
    ----------
    text : str
    tokens : tuple of str
        The tokenizer's tokens, special ones included (``[CLS]``, ``[SEP]`` for BERT).
    special : ndarray of bool, shape ``(T,)``
        Which tokens are special (the tokenizer's ``special_tokens_mask``).
    weights : ndarray of float64, shape ``(L, H, T, T)``
        ``weights[l, h, b, a]``: the weight of key ``a`` for query ``b`` in head ``h`` of
        layer ``l`` (rows sum to 1; the model's float32, cast exactly to float64).

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
    >>> from theorem.models import load_model
    >>> a = sentence_attention(load_model("minilm"), "Tokens drift together.")
    >>> a.tokens, a.weights.shape
    (('[CLS]', 'token', '##s', 'drift', 'together', '.', '[SEP]'), (6, 12, 7, 7))
    """

    text: str
    tokens: tuple[str, ...]
    special: np.ndarray
    weights: np.ndarray

    def digraphs(self, rule="top-mass:0.9", *, drop_special: bool = True) -> np.ndarray:
        """The attention digraph of every layer and head
        (:func:`~theorem.digraphs.attention_digraph`).

        Parameters
        ----------
        rule : AttentionRule or str
            ``"top-mass:0.9"`` by default.
        drop_special : bool
            Leave the special tokens out and renormalize (default, as the shared set of
            attention digraphs was made); vertex ``i`` is then the ``i``-th ordinary token.

        Returns
        -------
        ndarray of AttentionDigraph, shape ``(L, H)``
            Labelled with the tokens.

        Examples
        --------
        >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
        >>> from theorem.models import load_model
        >>> a = sentence_attention(load_model("minilm"), "Tokens drift together.")
        >>> g = a.digraphs()[0, 0]
        >>> g.n, g.labels
        (5, ('token', '##s', 'drift', 'together', '.'))
        """
        return attention_digraph(self.weights, rule=rule, drop=self._drop(drop_special),
                                 labels=self.tokens)

    def kept_weights(self, *, drop_special: bool = True) -> np.ndarray:
        """The weights the digraphs are made from: without the special tokens (unless
        ``drop_special`` is false), rows renormalized (:func:`~theorem.digraphs.drop_tokens`).

        Parameters
        ----------
        drop_special : bool
            Leave the special tokens out (default).

        Returns
        -------
        ndarray of float64, shape ``(L, H, T', T')``

        Examples
        --------
        >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
        >>> from theorem.models import load_model
        >>> a = sentence_attention(load_model("minilm"), "Tokens drift together.")
        >>> a.kept_weights().shape
        (6, 12, 5, 5)
        """
        return drop_tokens(self.weights, self._drop(drop_special))[0]

    def _drop(self, drop_special: bool) -> list[int]:
        return np.flatnonzero(self.special).tolist() if drop_special else []


def sentence_attention(model: PretrainedModel, text: str) -> SentenceAttention:
    """Run ``model`` on ``text`` and return every head's attention weights.

    One forward pass with ``output_attentions=True``, without gradients, on the model's own
    tokenizer (special tokens added as the tokenizer does).

    Parameters
    ----------
    model : PretrainedModel
        From :func:`~theorem.models.load_model`.
    text : str
        One text (a sentence).

    Returns
    -------
    SentenceAttention

    Raises
    ------
    ModelError
        ``text`` is empty, has no token but the special ones, or is longer than the model's
        position limit.
    TypeError
        ``text`` is not a string.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
    >>> from theorem.models import load_model
    >>> sentence_attention(load_model("minilm"), "Tokens drift together.").weights.shape
    (6, 12, 7, 7)
    """
    torch, _ = require_transformers()
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, not {type(text).__name__}")
    if not text.strip():
        raise ModelError("the text is empty; give a sentence")
    encoded = model.tokenizer(text, return_tensors="pt", return_special_tokens_mask=True)
    special = encoded.pop("special_tokens_mask")[0].numpy().astype(bool)
    ids = encoded["input_ids"][0]
    if len(ids) > model.max_tokens:
        raise ModelError(f"the text has {len(ids)} tokens, more than the model's "
                         f"{model.max_tokens}; split it into sentences")
    if special.all():
        raise ModelError(f"the text {text!r} has no token but the special ones "
                         f"{model.tokenizer.convert_ids_to_tokens(ids)}; give a sentence")
    with torch.no_grad():
        output = model.model(**encoded, output_attentions=True)
    weights = np.stack([a[0].to(torch.float64).numpy() for a in output.attentions])
    return SentenceAttention(text, tuple(model.tokenizer.convert_ids_to_tokens(ids)), special,
                             weights)


def read_corpus(path=CORPUS) -> list[str]:
    """The sentences of a corpus file: one a line, blank lines and ``#`` comments skipped.

    Parameters
    ----------
    path : path-like
        Default: the project's own corpus (:data:`CORPUS`).

    Returns
    -------
    list of str

    Raises
    ------
    ModelError
        The file cannot be read, is not UTF-8 (a byte-order mark is allowed), or holds no
        sentence.

    Examples
    --------
    >>> sentences = read_corpus()
    >>> len(sentences) >= 50
    True
    """
    try:
        lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError as exc:
        raise ModelError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start}); "
                         "save the corpus as UTF-8, one sentence a line") from None
    except OSError as exc:
        raise ModelError(f"cannot read the corpus {path}: {exc.strerror or exc}") from None
    sentences = [s.strip() for s in lines if s.strip() and not s.lstrip().startswith("#")]
    if not sentences:
        raise ModelError(f"{path} holds no sentence; write one sentence a line")
    return sentences
