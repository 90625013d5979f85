"""Command-line spellings of the spaces: ``sphere:D``, ``projective:D``, ``grassmannian:N,K``.

They mirror the constructors (docs/conventions.md#spaces-and-metrics): ``sphere:2`` is ``Sphere(2)`` (``S^2 ⊂ R^3``),
``grassmannian:4,2`` is ``Grassmannian(4, 2)`` (``Gr(2, 4)``).
"""

from __future__ import annotations

from .errors import ParameterError
from .grassmannian import Grassmannian
from .projective import ProjectiveSpace
from .sphere import Sphere

__all__ = ["parse_space", "space_spec"]


def parse_space(text: str):
    """The space a command-line spelling names (docs/conventions.md#spaces-and-metrics).

    ``sphere:D`` is ``Sphere(D)``, ``projective:D`` is ``ProjectiveSpace(D)`` and
    ``grassmannian:N,K`` is ``Grassmannian(N, K)`` (``Gr(K, N)``, ambient dimension first).

    Parameters
    ----------
    text : str
        Surrounding whitespace is ignored.

    Returns
    -------
    Sphere, ProjectiveSpace or Grassmannian
        With the default ``atol``.

    Raises
    ------
    TypeError
        ``text`` is not a string.
    ParameterError
        An unknown kind, a wrong number of integers, or dimensions the constructor refuses.

    Examples
    --------
    >>> parse_space("grassmannian:4,2")
    Grassmannian(n=4, k=2, atol=1e-08)
    >>> space_spec(parse_space("projective:3"))
    'projective:3'
    """
    if not isinstance(text, str):
        raise TypeError(f"a space spelling is a string, not {type(text).__name__}")
    kind, _, args = text.strip().partition(":")
    try:
        numbers = [int(a) for a in args.split(",")] if args else []
    except ValueError:
        numbers = None
    arity = {"sphere": 1, "projective": 1, "grassmannian": 2}
    if kind not in arity or numbers is None or len(numbers) != arity[kind]:
        raise ParameterError(
            f"cannot read space {text!r}; write sphere:D, projective:D or grassmannian:N,K "
            "(for example sphere:2, projective:3, grassmannian:4,2)"
        )
    if kind == "sphere":
        return Sphere(numbers[0])
    if kind == "projective":
        return ProjectiveSpace(numbers[0])
    return Grassmannian(*numbers)


def space_spec(space) -> str:
    """The command-line spelling of a space (inverse of :func:`parse_space`).

    Parameters
    ----------
    space : Sphere, ProjectiveSpace or Grassmannian

    Returns
    -------
    str
        ``"sphere:D"``, ``"projective:D"`` or ``"grassmannian:N,K"`` (``atol`` is not part
        of it).

    Raises
    ------
    TypeError
        ``space`` is not one of the library's spaces.

    Examples
    --------
    >>> from manifolds import Grassmannian, ProjectiveSpace
    >>> space_spec(Grassmannian(4, 2)), space_spec(ProjectiveSpace(2))
    ('grassmannian:4,2', 'projective:2')
    """
    if isinstance(space, Sphere):
        return f"sphere:{space.dim}"
    if isinstance(space, ProjectiveSpace):
        return f"projective:{space.n - 1}"
    if isinstance(space, Grassmannian):
        return f"grassmannian:{space.n},{space.k}"
    raise TypeError(f"not a space of this library: {type(space).__name__}")
