"""The ``transformer-dynamics`` command line: one module per command (``spaces``,
``invariants``, ``verify``, ``figures``, ``simulate``, ``attention``, ``heads``, ``sweep``,
``sweep-report``), shared options and output.

Subcommands:

``spaces``
    The homogeneous spaces with their conventions, and an admissible embedding of
    ``--n-points`` points on each, checked independently (:func:`manifolds.check_admissible`).
``invariants``
    ``b``, ``χ_hub``, ``χ'``, the Pareto front and the real rank of a digraph
    (``--digraph FILE`` or ``--family NAME --n N [--m M]``), with witnesses and certificates.
``verify``
    The Main Theorem, constructed and verified: density covers of the paper's examples and
    a random hub digraph (or ``--digraph``/``--family``) on S^2, RP^2 and Gr(2,4) (or
    ``--space``), from a fewest-hubs and a fewest-colors extension, checked at the paper's
    strength, exactly, and for rank.
``figures``
    PNGs of the paper's two examples beside their colored hub extensions, and of the weights
    of a verified density cover over S^2 (plot extra).
``attention``
    The attention digraphs of a pretrained transformer (``--model minilm`` or a folder in
    Hugging Face format) on ``--text`` or a ``--corpus``: ``b``, ``χ_hub``, ``χ'`` and the real
    rank of every layer, head and sentence, per head medians, and null models (models extra).
``heads``
    Section 3 of the paper: for a digraph, the attention heads of a colored hub extension
    (``χ_hub`` heads, on the token set and as density covers on ``S^{d−1}``), the bilinear
    ``K = I`` weights (``χ'`` of them) and one head of key dimension ``rank_R(M)``, each
    verified, with their sizes and parameter counts.
``sweep``
    Random hub extensions over a grid of ``(N, n, p, seed)``: ``b``, ``χ_hub``, ``χ'`` of each,
    on a local pool or a dask cluster (``--scheduler``), each row appended to ``--out`` as it
    finishes; the same command resumes an interrupted sweep.
``sweep-report``
    Summary statistics of a sweep's results file per ``(n, p, N)``, and with ``--plot`` the
    invariants against ``N``.
``simulate``
    Self-attention dynamics (SA or USA) of ``--tokens`` tokens on ``sphere:D`` for
    ``--systems`` random starts: clusters over time, the energy, checks, a figure.

With ``--json`` standard output is exactly one JSON object (library version and seed
included); progress and tables go to standard error or are left out. Exit codes: 0 when
every check passed (every invariant proved optimal), 1 when a check failed, 2 on bad input,
3 when the time limit left an invariant unproved (both bounds are reported).
"""

from .main import main

__all__ = ["main"]
