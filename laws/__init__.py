"""Interaction laws on homogeneous spaces: kernels, isotropic fields, laws, dynamics.

Empty for now; see the laws issue. Imports :mod:`manifolds`, never :mod:`theorem`.
"""

__all__: list[str] = []
