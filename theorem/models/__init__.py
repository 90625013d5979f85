"""Attention of pretrained transformers (the ``models`` extra: ``torch`` and Hugging Face
``transformers``): loading a model offline, its attention weights on a text, the project's
corpus, the study of its heads' invariants beside null models, and the corpus as a source
of sweep tasks. The digraphs are made by
:func:`theorem.digraphs.attention_digraph`; this package imports ``torch`` only when a model
is loaded or run."""

from .corpus_sweep import ATTENTION_KEY, attention_columns, attention_points, attention_task
from .attention import CORPUS, SentenceAttention, read_corpus, sentence_attention
from .loading import MINILM, PretrainedModel, load_model, minilm_path, require_transformers
from .study import AttentionStudy, HeadRecord, attention_study, ratio_bounds, summarize

__all__ = [
    "MINILM",
    "PretrainedModel",
    "load_model",
    "minilm_path",
    "require_transformers",
    "SentenceAttention",
    "sentence_attention",
    "read_corpus",
    "CORPUS",
    "attention_study",
    "AttentionStudy",
    "HeadRecord",
    "ratio_bounds",
    "summarize",
    "ATTENTION_KEY",
    "attention_columns",
    "attention_points",
    "attention_task",
]
