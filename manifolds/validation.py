"""Checks of arguments shared by every package: integers, reals, probabilities, random
generators, tolerances, real arrays and spaces.

Each function returns the argument in canonical form (``int``, ``float`` or a
:class:`numpy.random.Generator`) or raises: ``TypeError`` for an argument of the wrong type,
and ``error`` (default :class:`~manifolds.ParameterError`, a :class:`ValueError`) for a value
out of range. Messages name the argument, say what was expected and how to fix it. A package
with its own error family passes one of its classes as ``error=``.
"""

from __future__ import annotations

import numbers

import numpy as np

from .errors import NonFiniteError, ParameterError, ShapeError
from .space import Space

__all__ = [
    "as_integer",
    "as_count",
    "as_positive_integer",
    "as_dimension",
    "as_real",
    "as_positive",
    "as_nonnegative",
    "as_probability",
    "as_generator",
    "as_tolerance",
    "as_choice",
    "as_real_array",
    "as_space",
]


def _is_integer(value) -> bool:
    return not isinstance(value, bool) and isinstance(value, numbers.Integral)


def _integer(value, name: str, minimum: int | None, too_small: str | None, error) -> int:
    """The check behind the integer arguments: ``TypeError`` for a non-integer (``bool``
    included), ``error`` saying ``name must be <too_small>`` below ``minimum``."""
    if not _is_integer(value):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}; pass an int")
    if minimum is not None and value < minimum:
        raise error(f"{name} must be {too_small}, got {value}")
    return int(value)


def _is_real(value) -> bool:
    return not isinstance(value, bool) and isinstance(value, numbers.Real)


def as_integer(value, name: str, *, minimum: int | None = None, error=ParameterError) -> int:
    """``value`` as an ``int``, at least ``minimum`` when given.

    Parameters
    ----------
    value : int
        Any integral number except ``bool`` (numpy integers included).
    name : str
        The argument's name, for messages.
    minimum : int, optional
    error : type, optional
        Raised for a value below ``minimum``; default :class:`ParameterError`.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        ``value`` is not an integer.
    ParameterError
        (or ``error``) ``value < minimum``.

    Examples
    --------
    >>> import numpy as np
    >>> as_integer(np.int64(3), "n", minimum=1)
    3
    >>> as_integer(0, "n", minimum=1)
    Traceback (most recent call last):
    ...
    manifolds.errors.ParameterError: n must be at least 1, got 0
    """
    too_small = None if minimum is None else f"at least {minimum}"
    return _integer(value, name, minimum, too_small, error)


def as_count(value, name: str, *, error=ParameterError) -> int:
    """A non-negative integer count (``0`` allowed).

    Parameters
    ----------
    value : int
    name : str
    error : type, optional
        Raised for a negative value; default :class:`ParameterError`.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        Not an integer.
    ParameterError
        (or ``error``) negative.

    Examples
    --------
    >>> as_count(0, "n_samples")
    0
    """
    return _integer(value, name, 0, "non-negative", error)


def as_positive_integer(value, name: str, *, error=ParameterError) -> int:
    """A positive integer (``≥ 1``).

    Parameters
    ----------
    value : int
    name : str
    error : type, optional
        Raised for a value below 1; default :class:`ParameterError`.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        Not an integer.
    ParameterError
        (or ``error``) below 1.

    Examples
    --------
    >>> as_positive_integer(5, "record_every")
    5
    >>> as_positive_integer(0, "record_every")
    Traceback (most recent call last):
    ...
    manifolds.errors.ParameterError: record_every must be a positive integer, got 0
    """
    return _integer(value, name, 1, "a positive integer", error)


def as_dimension(value, name: str, minimum: int) -> int:
    """An integer ``≥ minimum``, as a space's constructor takes its dimensions.

    Parameters
    ----------
    value : int
    name : str
    minimum : int

    Returns
    -------
    int

    Raises
    ------
    TypeError
        Not an integer.
    ParameterError
        Below ``minimum``.

    Examples
    --------
    >>> as_dimension(2, "dim", 1)
    2
    """
    return as_integer(value, name, minimum=minimum)


def as_real(value, name: str, *, finite: bool = True, error=ParameterError) -> float:
    """``value`` as a ``float``; finite unless ``finite=False``.

    Parameters
    ----------
    value : float
        Any real number except ``bool``.
    name : str
    finite : bool, optional
        Refuse NaN and infinity (default).
    error : type, optional
        Raised for a non-finite value; default :class:`ParameterError`.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        Not a real number.
    ParameterError
        (or ``error``) NaN or infinite while ``finite``.

    Examples
    --------
    >>> as_real(1, "beta")
    1.0
    """
    if not _is_real(value):
        raise TypeError(f"{name} must be a real number, not {type(value).__name__}; pass a float")
    if finite and not np.isfinite(value):
        raise error(f"{name} must be finite, got {value}")
    return float(value)


def as_positive(value, name: str, *, error=ParameterError) -> float:
    """A finite real number ``> 0``.

    Parameters
    ----------
    value : float
    name : str
    error : type, optional
        Raised for a value that is not finite and positive; default :class:`ParameterError`.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        Not a real number.
    ParameterError
        (or ``error``) NaN, infinite, zero or negative.

    Examples
    --------
    >>> as_positive(0.1, "dt")
    0.1
    >>> as_positive(0.0, "dt")
    Traceback (most recent call last):
    ...
    manifolds.errors.ParameterError: dt must be finite and positive, got 0.0
    """
    value = as_real(value, name, finite=False)
    if not (np.isfinite(value) and value > 0):
        raise error(f"{name} must be finite and positive, got {value}")
    return value


def as_nonnegative(value, name: str, *, error=ParameterError) -> float:
    """A finite real number ``≥ 0``.

    Parameters
    ----------
    value : float
    name : str
    error : type, optional
        Raised for a value that is not finite and non-negative; default :class:`ParameterError`.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        Not a real number.
    ParameterError
        (or ``error``) NaN, infinite or negative.

    Examples
    --------
    >>> as_nonnegative(0, "beta")
    0.0
    """
    value = as_real(value, name, finite=False)
    if not (np.isfinite(value) and value >= 0):
        raise error(f"{name} must be finite and non-negative, got {value}")
    return value


def as_probability(value, name: str, *, error=ParameterError) -> float:
    """A probability in ``[0, 1]``.

    Parameters
    ----------
    value : float
    name : str
    error : type, optional
        Raised for a value outside ``[0, 1]``; default :class:`ParameterError`.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        Not a real number.
    ParameterError
        (or ``error``) NaN or outside ``[0, 1]``.

    Examples
    --------
    >>> as_probability(0.5, "p")
    0.5
    >>> as_probability(1.5, "p")
    Traceback (most recent call last):
    ...
    manifolds.errors.ParameterError: p must be a probability in [0, 1], got 1.5
    """
    value = as_real(value, name, finite=False)
    if not 0.0 <= value <= 1.0:
        raise error(f"{name} must be a probability in [0, 1], got {value}")
    return value


def as_generator(rng, name: str = "rng", *, error=ParameterError) -> np.random.Generator:
    """A :class:`numpy.random.Generator` from a Generator, an integer seed ``≥ 0``, a
    :class:`numpy.random.SeedSequence` or ``None`` (fresh entropy).

    A Generator is returned as is (its state is shared with the caller). A ``bool`` is a wrong
    type, not the seed 0 or 1.

    Parameters
    ----------
    rng : Generator, int, SeedSequence or None
    name : str, optional
        The argument's name in messages (default ``"rng"``).
    error : type, optional
        Raised for a negative seed; default :class:`ParameterError`.

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    TypeError
        Any other type (``bool`` included).
    ParameterError
        A negative seed (or ``error``).

    Examples
    --------
    >>> float(as_generator(0).random()) == float(as_generator(0).random())
    True
    >>> as_generator(-1)
    Traceback (most recent call last):
    ...
    manifolds.errors.ParameterError: rng = -1 is a negative seed; seeds are integers ≥ 0 (or pass a numpy.random.Generator, or None for fresh entropy)
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, bool) or not (rng is None or isinstance(
            rng, (numbers.Integral, np.random.SeedSequence))):
        raise TypeError(f"{name} must be a numpy.random.Generator, an integer seed or None, "
                        f"not {type(rng).__name__}")
    if isinstance(rng, numbers.Integral) and rng < 0:
        raise error(f"{name} = {rng} is a negative seed; seeds are integers ≥ 0 (or pass a "
                    "numpy.random.Generator, or None for fresh entropy)")
    return np.random.default_rng(rng)


def as_tolerance(value, name: str = "atol") -> float:
    """A finite, positive tolerance.

    Parameters
    ----------
    value : float
    name : str, optional
        Default ``"atol"``.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        Not a real number.
    ParameterError
        NaN, infinite, zero or negative.

    Examples
    --------
    >>> as_tolerance(1e-8)
    1e-08
    """
    if not _is_real(value):
        raise TypeError(f"{name} must be a real number, not {type(value).__name__}")
    if not (np.isfinite(value) and value > 0):
        raise ParameterError(f"{name} must be finite and positive, got {value}")
    return float(value)


def as_choice(value, name: str, choices, *, error=ParameterError):
    """``value`` if it is one of ``choices``.

    Parameters
    ----------
    value
    name : str
    choices : iterable
        The accepted values, listed in the message.
    error : type, optional
        Default :class:`ParameterError`.

    Returns
    -------
    object
        ``value`` itself.

    Raises
    ------
    ParameterError
        (or ``error``) ``value`` is not among ``choices``.

    Examples
    --------
    >>> as_choice("rk4", "method", ["euler", "heun", "rk4"])
    'rk4'
    >>> as_choice("rk45", "method", ["euler", "heun", "rk4"])
    Traceback (most recent call last):
    ...
    manifolds.errors.ParameterError: method must be one of ['euler', 'heun', 'rk4'], got 'rk45'
    """
    choices = list(choices)
    if value not in choices:
        raise error(f"{name} must be one of {choices}, got {value!r}")
    return value


def as_real_array(value, name: str, *, shape: tuple | None = None, finite: bool = True) -> np.ndarray:
    """``value`` as a float64 array of real numbers, of ``shape`` when given, finite unless
    ``finite=False``.

    The check of arrays that come from outside the library: a callable's return value (the
    velocity of :func:`laws.integrate`), recorded times, tokens before their space is known.
    ``name`` may carry the context (``"velocity(x) at t = 0.3"``): the messages start with it.

    Parameters
    ----------
    value : array_like
        Real numbers (integers and booleans are converted); not ``None``, not complex, not
        strings or objects.
    name : str
        What ``value`` is, for messages.
    shape : tuple of int, optional
        The exact shape required (no broadcasting).
    finite : bool, optional
        Refuse NaN and infinity (default).

    Returns
    -------
    ndarray
        ``value`` as float64 (no copy when it already is one).

    Raises
    ------
    TypeError
        ``value`` is ``None`` or not an array of real numbers.
    ShapeError
        Its shape differs from ``shape``.
    NonFiniteError
        While ``finite``, an entry is NaN or infinite (the message gives the first index).

    Examples
    --------
    >>> as_real_array([1, 2], "times").tolist()
    [1.0, 2.0]
    >>> as_real_array([[0.0, 1.0]], "velocity(x)", shape=(1, 3))
    Traceback (most recent call last):
    ...
    manifolds.errors.ShapeError: velocity(x) has shape (1, 2); expected (1, 3)
    >>> as_real_array([0.0, float("nan")], "times")
    Traceback (most recent call last):
    ...
    manifolds.errors.NonFiniteError: times[1] is nan; every entry must be finite
    """
    if value is None:
        raise TypeError(f"{name} is None; it must be an array of real numbers")
    try:
        arr = np.asarray(value)
    except Exception as exc:  # ragged lists and the like
        raise TypeError(f"{name} must be an array of real numbers: {exc}") from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.floating)
                                   or np.issubdtype(arr.dtype, np.integer)
                                   or np.issubdtype(arr.dtype, np.bool_)):
        raise TypeError(f"{name} must be an array of real numbers, got dtype {arr.dtype} "
                        f"({type(value).__name__})")
    arr = arr.astype(np.float64, copy=False)
    if shape is not None and arr.shape != tuple(shape):
        raise ShapeError(f"{name} has shape {arr.shape}; expected {tuple(shape)}")
    if finite:
        bad = ~np.isfinite(arr)
        if bad.any():
            index = tuple(int(i) for i in np.argwhere(bad)[0])
            where = list(index) if index else ""
            raise NonFiniteError(f"{name}{where} is {arr[index]}; every entry must be finite")
    return arr


def as_space(value, name: str = "space") -> Space:
    """``value`` if it is a :class:`~manifolds.Space` (a ``Sphere``, ``ProjectiveSpace`` or
    ``Grassmannian``).

    Parameters
    ----------
    value : Space
    name : str, optional
        The argument's name, for messages; default ``"space"``.

    Returns
    -------
    Space
        ``value`` itself.

    Raises
    ------
    TypeError
        ``value`` is not a :class:`~manifolds.Space` (``None``, a string, a class).

    Examples
    --------
    >>> from manifolds import Sphere
    >>> as_space(Sphere(2)).name
    'Sphere(2)'
    >>> as_space(None)                                    # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: space must be a manifolds.Space (Sphere(d), ProjectiveSpace(d) or ...), not NoneType
    """
    if not isinstance(value, Space):
        hint = "; instantiate it, e.g. Sphere(2)" if isinstance(value, type) else ""
        raise TypeError(
            f"{name} must be a manifolds.Space (Sphere(d), ProjectiveSpace(d) or "
            f"Grassmannian(n, k)), not {type(value).__name__}{hint}"
        )
    return value
