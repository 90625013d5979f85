"""Section 3 of the paper, the standard transformer as a special case (docs/transformer.md).

On the token set (:mod:`.heads`): attention heads on orthonormal tokens whose logits are
exactly the edges of each color of a colored hub extension (:func:`attention_heads`), or of
the whole digraph in one head of key dimension ``rank_R(M)`` (:func:`factored_head`), and
their check (:func:`verify_attention_heads`). On the continuum (:mod:`.bilinear`): bilinear
weights ``⟨x, W y⟩`` (the key fixed to the identity), whose maxima form a matching
(:func:`bilinear_maxima`, :func:`realized_pairs`), the ``K = I`` cover by ``χ'`` of them
(:func:`bilinear_density_cover`, :func:`verify_bilinear_cover`). The cost of each
construction side by side (:mod:`.costs`), and the dynamics of the constructed heads
(:mod:`.dynamics`).
"""

from .bilinear import (
    BilinearCover,
    BilinearMaxima,
    bilinear_density_cover,
    bilinear_maxima,
    bilinear_weight,
    realized_pairs,
    verify_bilinear_cover,
)
from .costs import HeadCosts, head_costs
from .dynamics import HeadDynamics, head_dynamics
from .heads import (
    DEFAULT_BETAS,
    AttentionHeads,
    HeadsReport,
    attention_heads,
    factored_head,
    orthonormal_tokens,
    verify_attention_heads,
)

__all__ = [
    "AttentionHeads",
    "HeadsReport",
    "attention_heads",
    "factored_head",
    "orthonormal_tokens",
    "verify_attention_heads",
    "DEFAULT_BETAS",
    "BilinearCover",
    "BilinearMaxima",
    "bilinear_density_cover",
    "bilinear_maxima",
    "bilinear_weight",
    "realized_pairs",
    "verify_bilinear_cover",
    "HeadCosts",
    "head_costs",
    "HeadDynamics",
    "head_dynamics",
]
