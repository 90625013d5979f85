r"""The contract every space of :mod:`manifolds` meets: :class:`Space`.

Code outside :mod:`manifolds` (``laws``, ``theorem``) uses a space only through the names
listed here. They come in three groups:

* **attributes**: ``name``, ``dim`` (the manifold's dimension), ``ambient_shape`` (shape of
  a point), ``injectivity_radius``, ``atol`` (tolerance of the input checks);
* **checked methods**, which validate every input and raise the errors of
  :mod:`manifolds.errors`: ``check_points``, ``check_tangent``, ``belongs``, ``projection``,
  ``random_point``, ``dist``, ``exp``, ``log``, ``to_tangent``, ``inner``,
  ``tangent_basis``;
* **unchecked fast paths**, for code that has validated its arrays once and calls the
  geometry many times (integrators, kernel sums, verifications): ``unchecked_dist``,
  ``unchecked_exp``, ``unchecked_log``, ``unchecked_inner``, ``unchecked_to_tangent``,
  ``unchecked_projection``, ``deviation``, ``tangent_deviation``. **Inputs are trusted: no
  validation.** Arrays of the wrong shape or off the manifold give meaningless results, not
  errors.

and the space-specific structure that callers would otherwise detect by type:
``model`` and ``frame`` (the point model), ``embedding_dim``, ``embed``, ``embedding_radius``,
``ambient_projection`` (the Euclidean picture ``M ⊂ R^D``), ``act`` (the isometries) and
``conventions`` (what the command line prints).

A subclass implements the private kernels ``_dist``, ``_exp``, ``_log``, ``_inner``,
``_deviation``, ``_project_tangent``, ``_tangent_deviation`` (each with the return shape of
its public unchecked counterpart), the checked methods and the structure methods; the
public unchecked names delegate to the kernels here. docs/manifolds.md, "Adding a space".
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

__all__ = ["Space"]


class Space(ABC):
    r"""A Riemannian homogeneous space with batched, precise geometry (the contract).

    Points are float arrays of shape ``(..., *ambient_shape)``; every method broadcasts over
    the leading batch axes, and shapes never depend on values. Subclasses:
    :class:`~manifolds.Sphere`, :class:`~manifolds.Grassmannian` and
    :class:`~manifolds.ProjectiveSpace`.

    Attributes
    ----------
    name : str
        For messages, e.g. ``"Sphere(2)"``.
    dim : int
        The manifold's dimension (and nothing else).
    ambient_shape : tuple of int
        Shape of one point (and of one tangent vector).
    injectivity_radius : float
        ``exp`` is injective on the open ball of this radius.
    atol : float
        Tolerance of the membership and tangency checks.
    model : str
        The point model: ``"sphere"`` (unit vectors) or ``"projector"`` (orthogonal
        projectors). Code with model-specific formulas (zero sets of the isotropic family)
        branches on it and refuses models it does not know.

    Examples
    --------
    >>> from manifolds import Grassmannian, ProjectiveSpace, Space, Sphere
    >>> all(isinstance(s, Space) for s in (Sphere(2), ProjectiveSpace(2), Grassmannian(4, 2)))
    True
    >>> Sphere(2).dim, Grassmannian(4, 2).dim, Grassmannian(4, 2).ambient_shape
    (2, 4, (4, 4))
    """

    model: str = ""

    # -- checked methods -------------------------------------------------------------------
    @abstractmethod
    def check_points(self, x, name: str = "x") -> np.ndarray:
        """Points of the space as a float array, after checking type, shape, finiteness and
        membership.

        A point belongs when its :meth:`deviation` is at most ``atol``: ``||x| − 1|`` on
        spheres; on projector spaces the largest of ``|P − Pᵀ|_F``, ``|P² − P|_F`` and
        ``|tr P − k|``. Code built on the spaces validates its arrays once here, then calls the
        ``unchecked_*`` methods.

        Parameters
        ----------
        x : array_like, shape (..., *ambient_shape)
        name : str, optional
            The argument's name in error messages.

        Returns
        -------
        ndarray, shape (..., *ambient_shape)
            ``x`` as float64.

        Raises
        ------
        TypeError
            ``x`` is not an array of real numbers.
        ShapeError
            Its trailing shape is not ``ambient_shape``.
        NonFiniteError
            It holds NaN or infinity (the message gives the index).
        NotOnManifoldError
            A point is off the space by more than ``atol`` (the worst one is named; map it
            with :meth:`projection`).

        Examples
        --------
        >>> from manifolds import Sphere
        >>> Sphere(1).check_points([[0.6, 0.8], [1, 0]]).dtype
        dtype('float64')
        >>> Sphere(1).check_points([0.6, 0.9], name="query")
        Traceback (most recent call last):
        ...
        manifolds.errors.NotOnManifoldError: query is 0.0817 off Sphere(1) (atol = 1e-08); map it with projection() or loosen the space's atol
        """

    @abstractmethod
    def check_tangent(self, vector, base_point, name: str = "tangent_vec") -> np.ndarray:
        """Tangent vectors at ``base_point`` as a float array, after checking both.

        A vector is tangent when its :meth:`tangent_deviation` (the normal part relative to
        ``max(1, |v|)``) is at most ``atol``: ``|⟨v, x⟩|`` on spheres; on projector spaces the
        Frobenius norm of the part of ``V`` normal to ``T_P`` (asymmetry included), tangent
        vectors being the symmetric ``V`` with ``V = PV + VP``.

        Parameters
        ----------
        vector : array_like, shape (..., *ambient_shape)
        base_point : array_like, shape (..., *ambient_shape)
            Batch shapes broadcast with ``vector``'s.
        name : str, optional
            The vector's name in error messages.

        Returns
        -------
        ndarray, shape (..., *ambient_shape)
            ``vector`` as float64 (its own batch shape, not the broadcast one).

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`check_points`, for either argument; ``ShapeError`` also when the
            batch shapes do not broadcast.
        NotTangentError
            A vector's normal part exceeds ``atol`` (project it with :meth:`to_tangent`).

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> Sphere(2).check_tangent([0, 2, 0], np.eye(3)[0]).tolist()
        [0.0, 2.0, 0.0]
        >>> Sphere(2).check_tangent([1, 2, 0], np.eye(3)[0])
        Traceback (most recent call last):
        ...
        manifolds.errors.NotTangentError: tangent_vec has a normal component 0.447 (relative to max(1, |v|); atol = 1e-08) at its base point on Sphere(2); project it with to_tangent()
        """

    @abstractmethod
    def belongs(self, x, *, atol: float | None = None) -> np.ndarray:
        """Whether each point lies on the space: its :meth:`deviation` is at most ``atol``.

        Unlike :meth:`check_points`, points off the space give ``False`` instead of raising;
        so do points holding NaN or infinity.

        Parameters
        ----------
        x : array_like, shape (..., *ambient_shape)
        atol : float, optional
            Tolerance; default the space's ``atol``.

        Returns
        -------
        ndarray of bool, shape (...)

        Raises
        ------
        TypeError
            ``x`` is not an array of real numbers, or ``atol`` not a real number.
        ShapeError
            The trailing shape of ``x`` is not ``ambient_shape``.
        ParameterError
            ``atol`` is not finite and positive.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Grassmannian, Sphere
        >>> Sphere(1).belongs([[0.6, 0.8], [1, 1], [np.nan, 0]]).tolist()
        [True, False, False]
        >>> Grassmannian(3, 1).belongs([np.diag([1.0, 0, 0]), np.eye(3)]).tolist()
        [True, False]
        """

    @abstractmethod
    def projection(self, x) -> np.ndarray:
        """The nearest point of the space to each ambient array (Euclidean distance).

        ``x / |x|`` on spheres. On projector spaces ``U Uᵀ``, ``U`` the eigenvectors of the
        ``k`` largest eigenvalues of the symmetric part of ``x``: the nearest rank-``k``
        projector in Frobenius norm.

        Parameters
        ----------
        x : array_like, shape (..., *ambient_shape)
            Finite arrays.

        Returns
        -------
        ndarray, shape (..., *ambient_shape)

        Raises
        ------
        TypeError, ShapeError, NonFiniteError
            As in :meth:`check_points` (no membership check).
        NotOnManifoldError
            On spheres, for the zero vector, which has no nearest point.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Grassmannian, Sphere
        >>> Sphere(1).projection([0.0, 4.0]).tolist()
        [0.0, 1.0]
        >>> bool(np.allclose(Grassmannian(2, 1).projection(np.diag([3.0, 1.0])), np.diag([1.0, 0])))
        True
        """

    @abstractmethod
    def random_point(self, n_samples: int = 1, *, rng=None) -> np.ndarray:
        """``n_samples`` independent points of the uniform (isometry-invariant) distribution.

        Normalized Gaussian vectors on spheres; on projector spaces the projector onto the
        range of an ``n × k`` Gaussian matrix (its law is invariant under ``O(n)``).

        Parameters
        ----------
        n_samples : int, optional
            ``≥ 0``; default 1, which keeps its axis.
        rng : numpy.random.Generator, int, SeedSequence or None, optional
            A generator (used as is) or a seed; ``None`` for fresh entropy.

        Returns
        -------
        ndarray, shape (n_samples, *ambient_shape)

        Raises
        ------
        TypeError
            ``n_samples`` is not an integer, or ``rng`` of another type.
        ParameterError
            ``n_samples`` is negative.

        Examples
        --------
        >>> from manifolds import Grassmannian, Sphere
        >>> Grassmannian(4, 2).random_point(3, rng=0).shape
        (3, 4, 4)
        >>> bool(Sphere(2).belongs(Sphere(2).random_point(5, rng=0)).all())
        True
        """

    @abstractmethod
    def dist(self, x, y) -> np.ndarray:
        """Geodesic distance ``d(x, y)``.

        The angle on spheres; ``sqrt(Σ θ_i²)`` over the principal angles ``θ_i`` on projector
        spaces (docs/conventions.md#spaces-and-metrics). Each space's formula and precision
        bound: :meth:`Sphere.dist`,
        :meth:`Grassmannian.dist`.

        Parameters
        ----------
        x, y : array_like, shape (..., *ambient_shape)
            Points; batch shapes broadcast.

        Returns
        -------
        ndarray, shape (...)
            The broadcast batch shape.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`check_points`, for either argument; ``ShapeError`` also when the
            batch shapes do not broadcast.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> Sphere(2).dist(np.eye(3)[0], np.eye(3)[1:]).tolist() == [np.pi / 2] * 2
        True
        """

    @abstractmethod
    def exp(self, tangent_vec, base_point) -> np.ndarray:
        """Exponential map ``exp_x(v)``: the end of the geodesic from ``x`` with initial
        velocity ``v``, at distance ``|v|_g`` from ``x`` below the injectivity radius.

        Formulas and precision: :meth:`Sphere.exp`,
        :meth:`Grassmannian.exp`.

        Parameters
        ----------
        tangent_vec : array_like, shape (..., *ambient_shape)
            Tangent vectors at ``base_point`` (batch shapes broadcast).
        base_point : array_like, shape (..., *ambient_shape)

        Returns
        -------
        ndarray, shape (..., *ambient_shape)
            Points of the space.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError, NotTangentError
            As in :meth:`check_tangent`.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> bool(np.allclose(Sphere(2).exp([0, np.pi, 0], np.eye(3)[0]), [-1, 0, 0]))
        True
        """

    @abstractmethod
    def log(self, point, base_point) -> np.ndarray:
        """Logarithm ``log_x(y)``: the tangent vector at ``x`` of norm ``d(x, y)`` whose
        geodesic reaches ``y``, the inverse of :meth:`exp` inside the injectivity radius.

        It is not unique on the cut locus of ``x`` (the antipode on spheres; on projector
        spaces, subspaces with a principal angle ``π/2``), where it raises. Formulas and
        precision: :meth:`Sphere.log`,
        :meth:`Grassmannian.log`.

        Parameters
        ----------
        point : array_like, shape (..., *ambient_shape)
            The targets ``y``.
        base_point : array_like, shape (..., *ambient_shape)
            The base points ``x``; batch shapes broadcast.

        Returns
        -------
        ndarray, shape (..., *ambient_shape)
            Tangent vectors at ``base_point``.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`dist`.
        CutLocusError
            A point is on the cut locus of its base point, within ``CUT_LOCUS_TOL`` (``1e-12``
            rad).

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> bool(np.allclose(Sphere(2).log(np.eye(3)[1], np.eye(3)[0]), [0, np.pi / 2, 0]))
        True
        """

    @abstractmethod
    def to_tangent(self, vector, base_point) -> np.ndarray:
        """Orthogonal projection of ambient arrays onto the tangent space ``T_x M``.

        ``v − ⟨v, x⟩ x`` on spheres; on projector spaces the symmetric part ``S`` of ``V``,
        then ``PS + SP − 2PSP``.

        Parameters
        ----------
        vector : array_like, shape (..., *ambient_shape)
            Any finite ambient arrays.
        base_point : array_like, shape (..., *ambient_shape)
            Batch shapes broadcast with ``vector``'s.

        Returns
        -------
        ndarray, shape (..., *ambient_shape)
            Tangent vectors at ``base_point`` (the broadcast batch shape).

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`check_points` (``base_point`` is checked for membership, ``vector``
            only for type, shape and finiteness).

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> Sphere(2).to_tangent([1.0, 2.0, 0.0], np.eye(3)[0]).tolist()
        [0.0, 2.0, 0.0]
        """

    @abstractmethod
    def inner(self, tangent_vec_a, tangent_vec_b, base_point) -> np.ndarray:
        """Riemannian inner product ``g(u, v)`` of tangent vectors at ``base_point``.

        Euclidean on spheres, ``½ tr(UᵀV)`` on projector spaces: the metric matching the
        distance (docs/conventions.md#spaces-and-metrics).

        Parameters
        ----------
        tangent_vec_a, tangent_vec_b : array_like, shape (..., *ambient_shape)
            Tangent vectors at ``base_point``.
        base_point : array_like, shape (..., *ambient_shape)

        Returns
        -------
        ndarray, shape (...)
            The broadcast batch shape.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError, NotTangentError
            As in :meth:`check_tangent`, for either vector.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Grassmannian
        >>> v = np.array([[0.0, 1.0], [1.0, 0.0]])   # tangent at diag(1, 0)
        >>> float(Grassmannian(2, 1).inner(v, v, np.diag([1.0, 0.0])))   # ½ tr(VᵀV)
        1.0
        """

    @abstractmethod
    def tangent_basis(self, base_point) -> np.ndarray:
        """A ``g``-orthonormal basis of the tangent space at each point.

        Constructions: :meth:`Sphere.tangent_basis`,
        :meth:`Grassmannian.tangent_basis`.

        Parameters
        ----------
        base_point : array_like, shape (..., *ambient_shape)

        Returns
        -------
        ndarray, shape (..., dim, *ambient_shape)
            Basis vector ``i`` at ``[..., i, ...]``.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`check_points`.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Grassmannian
        >>> gr = Grassmannian(4, 2)
        >>> basis = gr.tangent_basis(np.diag([1.0, 1, 0, 0]))
        >>> basis.shape
        (4, 4, 4)
        >>> bool(np.allclose(gr.unchecked_inner(basis[:, None], basis[None]), np.eye(4)))
        True
        """

    # -- private kernels (unchecked; implemented by each space) -----------------------------
    @abstractmethod
    def _dist(self, x: np.ndarray, y: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def _exp(self, v: np.ndarray, x: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def _log(self, y: np.ndarray, x: np.ndarray): ...

    @abstractmethod
    def _inner(self, u: np.ndarray, v: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def _deviation(self, x: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def _project_tangent(self, v: np.ndarray, x: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def _tangent_deviation(self, v: np.ndarray, x: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def _project(self, x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray: ...

    # -- public unchecked fast paths ---------------------------------------------------------
    def unchecked_dist(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Geodesic distance without input checks. Inputs are trusted: no validation.

        Parameters
        ----------
        x, y : ndarray, shape ``(..., *ambient_shape)``
            Points of the space (batch shapes broadcast).

        Returns
        -------
        ndarray, shape ``(...)``
            The same values as :meth:`dist`.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> float(Sphere(2).unchecked_dist(np.eye(3)[0], np.eye(3)[1])) == np.pi / 2
        True
        """
        return self._dist(x, y)

    def unchecked_exp(self, v: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Exponential map ``exp_x(v)`` without input checks. Inputs are trusted: no validation.

        Parameters
        ----------
        v : ndarray, shape ``(..., *ambient_shape)``
            Tangent vectors at ``x``.
        x : ndarray, shape ``(..., *ambient_shape)``
            Base points.

        Returns
        -------
        ndarray, shape ``(..., *ambient_shape)``
            The same values as :meth:`exp`.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> Sphere(2).unchecked_exp(np.array([0.0, np.pi / 2, 0]), np.eye(3)[0]).round(12).tolist()
        [0.0, 1.0, 0.0]
        """
        return self._exp(v, x)

    def unchecked_log(self, y: np.ndarray, x: np.ndarray):
        r"""Logarithm ``log_x(y)`` and the angles between ``x`` and ``y``, without input checks
        or a cut-locus test. Inputs are trusted: no validation.

        Parameters
        ----------
        y : ndarray, shape ``(..., *ambient_shape)``
            Target points.
        x : ndarray, shape ``(..., *ambient_shape)``
            Base points.

        Returns
        -------
        log : ndarray, shape ``(..., *ambient_shape)``
            Equal to :meth:`log` away from the cut locus; finite but arbitrary on it.
        angles : ndarray, shape ``(..., m)``
            ``m = 1`` on spheres (the angle), ``m = k`` principal angles on ``Gr(k, n)``. The
            pair is on the cut locus where ``angles.max(axis=-1)`` reaches
            :attr:`injectivity_radius`; ``|log|`` is the norm of ``angles``.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> v, angles = Sphere(2).unchecked_log(np.eye(3)[1], np.eye(3)[0])
        >>> v.round(12).tolist(), angles.shape
        ([0.0, 1.570796326795, 0.0], (1,))
        """
        log, angles = self._log(y, x)
        batch = log.shape[: log.ndim - len(self.ambient_shape)]
        return log, angles.reshape(batch + (angles.size // max(int(np.prod(batch)), 1),))

    def unchecked_inner(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Riemannian inner product ``g(u, v)`` without input checks. Inputs are trusted: no
        validation.

        The metric ``g`` does not depend on the base point in the ambient picture (Euclidean
        on spheres, ``½ tr(uᵀv)`` on projector spaces), so no base point is needed; the formula
        also applies to any ambient arrays (parameters of the isotropic family).

        Parameters
        ----------
        u, v : ndarray, shape ``(..., *ambient_shape)``

        Returns
        -------
        ndarray, shape ``(...)``

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Grassmannian
        >>> float(Grassmannian(3, 1).unchecked_inner(np.eye(3), np.eye(3)))   # ½ tr(I)
        1.5
        """
        return self._inner(u, v)

    def unchecked_to_tangent(self, vector: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Orthogonal projection onto ``T_x M`` without input checks. Inputs are trusted: no
        validation.

        Parameters
        ----------
        vector : ndarray, shape ``(..., *ambient_shape)``
        x : ndarray, shape ``(..., *ambient_shape)``
            Base points.

        Returns
        -------
        ndarray, shape ``(..., *ambient_shape)``
            The same values as :meth:`to_tangent` for unit-norm (exact projector) base points.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> Sphere(2).unchecked_to_tangent(np.array([1.0, 2.0, 0]), np.eye(3)[0]).tolist()
        [0.0, 2.0, 0.0]
        """
        return self._project_tangent(vector, x)

    def unchecked_projection(self, x: np.ndarray, *, out: np.ndarray | None = None) -> np.ndarray:
        """Nearest point of the space without input checks. Inputs are trusted: no validation.

        Parameters
        ----------
        x : ndarray, shape ``(..., *ambient_shape)``
            Finite arrays near the space (a zero vector on the sphere gives NaN).
        out : ndarray, optional
            Where to write the result; may be ``x`` itself (in place).

        Returns
        -------
        ndarray, shape ``(..., *ambient_shape)``
            ``out`` when given.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> Sphere(1).unchecked_projection(np.array([0.0, 4.0])).tolist()
        [0.0, 1.0]
        """
        return self._project(x, out)

    def deviation(self, x: np.ndarray) -> np.ndarray:
        """How far each point is from the space, in the measure :meth:`belongs` compares with
        ``atol``. Inputs are trusted: no validation.

        Parameters
        ----------
        x : ndarray, shape ``(..., *ambient_shape)``

        Returns
        -------
        ndarray, shape ``(...)``
            ``||x| − 1|`` on spheres; the largest of ``|P − Pᵀ|_F``, ``|P² − P|_F`` and
            ``|tr P − k|`` on projector spaces.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> float(Sphere(1).deviation(np.array([0.0, 2.0])))
        1.0
        """
        return self._deviation(x)

    def tangent_deviation(self, v: np.ndarray, x: np.ndarray) -> np.ndarray:
        """The normal part of each vector relative to ``max(1, |v|)``, as :meth:`check_tangent`
        compares it with ``atol``. Inputs are trusted: no validation.

        Parameters
        ----------
        v : ndarray, shape ``(..., *ambient_shape)``
        x : ndarray, shape ``(..., *ambient_shape)``
            Base points.

        Returns
        -------
        ndarray, shape ``(...)``

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> float(Sphere(1).tangent_deviation(np.array([0.5, 0.0]), np.array([1.0, 0.0])))
        0.5
        """
        return self._tangent_deviation(v, x)

    # -- structure that callers would otherwise detect by type -------------------------------
    @abstractmethod
    def frame(self, x: np.ndarray):
        r"""Orthonormal bases of the subspace a point stands for and of its complement.

        Inputs are trusted: no validation (the bases come from ``eigh`` of the symmetric part
        of ``x``).

        Parameters
        ----------
        x : ndarray, shape ``(..., *ambient_shape)``

        Returns
        -------
        tuple of ndarray or None
            Projector spaces: ``(U, U⊥)`` of shapes ``(..., n, k)`` and ``(..., n, n − k)``,
            ``P = U Uᵀ``. Spheres: ``None`` (a point is a vector, not a subspace; there is
            no frame to return).

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Grassmannian, Sphere
        >>> u, uperp = Grassmannian(3, 1).frame(np.diag([0.0, 1.0, 0.0]))
        >>> np.abs(u[:, 0]).tolist(), uperp.shape
        ([0.0, 1.0, 0.0], (3, 2))
        >>> Sphere(2).frame(np.eye(3)[0]) is None
        True
        """

    @property
    @abstractmethod
    def embedding_dim(self) -> int:
        """``D``: the space lies in a Euclidean space ``R^D`` (:meth:`embed`).

        ``d + 1`` for ``S^d``; ``n (n + 1) / 2`` (symmetric matrices) for projector spaces.

        Examples
        --------
        >>> from manifolds import Grassmannian
        >>> Grassmannian(4, 2).embedding_dim
        10
        """

    @abstractmethod
    def embed(self, x: np.ndarray) -> np.ndarray:
        r"""Coordinates in ``R^D`` of points (or of any arrays of :meth:`ambient_projection`'s
        range), shape ``(..., D)``. Inputs are trusted: no validation.

        Euclidean distance of the coordinates is the Frobenius (Euclidean) distance of the
        arrays: identity on spheres; on projector spaces the upper triangle, off-diagonal
        entries times ``√2``.

        Parameters
        ----------
        x : array_like, shape (..., *ambient_shape)

        Returns
        -------
        ndarray, shape (..., D)
            ``D`` = :attr:`embedding_dim`.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Grassmannian
        >>> Grassmannian(2, 1).embed(np.array([[0.5, 0.5], [0.5, 0.5]])).round(12).tolist()
        [0.5, 0.707106781187, 0.5]
        """

    @abstractmethod
    def embedding_radius(self, r: float) -> float:
        r"""A radius ``ρ`` such that a geodesic ball of radius ``r`` maps into a Euclidean ball
        of radius ``ρ`` under :meth:`embed`, with slack for points off the space by ``atol``.

        ``2 sin(r/2)`` (chord) on spheres, ``√2 r`` on projector spaces
        (``|P − Q|_F² = 2 Σ sin² θ_i ≤ 2 d²``), plus the slack: ``4 atol + 1e-12`` on spheres,
        ``n (4 atol + 1e-12)`` on projector spaces.

        Parameters
        ----------
        r : float
            Geodesic radius.

        Returns
        -------
        float

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Grassmannian, Sphere
        >>> round(Sphere(2).embedding_radius(0.1), 6)
        0.099958
        >>> bool(Grassmannian(4, 2).embedding_radius(0.5) > np.sqrt(2) * 0.5)
        True
        """

    @abstractmethod
    def ambient_projection(self, z: np.ndarray) -> np.ndarray:
        r"""Orthogonal projection of arrays of ``ambient_shape`` onto the linear span of the
        space's Euclidean picture (identity on spheres, the symmetric part ``(Z + Zᵀ)/2`` on
        projector spaces). Inputs are trusted: no validation.

        Parameters
        ----------
        z : array_like, shape (..., *ambient_shape)

        Returns
        -------
        ndarray, shape of ``z``

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Grassmannian
        >>> Grassmannian(2, 1).ambient_projection(np.array([[0.0, 2.0], [0.0, 0.0]])).tolist()
        [[0.0, 1.0], [1.0, 0.0]]
        """

    @abstractmethod
    def act(self, g: np.ndarray, z: np.ndarray) -> np.ndarray:
        r"""The isometry of an orthogonal ``g ∈ O(m)`` (``m = ambient_shape[0]``) on points,
        tangent vectors and ambient arrays: ``g z`` on spheres, ``g Z gᵀ`` on projector spaces.

        Parameters
        ----------
        g : ndarray, shape ``(m, m)``
        z : ndarray, shape ``(..., *ambient_shape)``

        Returns
        -------
        ndarray, shape of ``z``

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Grassmannian, Sphere
        >>> swap = np.array([[0.0, 1, 0], [1, 0, 0], [0, 0, 1]])
        >>> Sphere(2).act(swap, np.eye(3)[0]).tolist()
        [0.0, 1.0, 0.0]
        >>> Grassmannian(3, 1).act(swap, np.diag([1.0, 0.0, 0.0])).tolist()   # g P gᵀ
        [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
        """

    @abstractmethod
    def conventions(self) -> dict:
        """What a point is, and which distance and metric the space uses, in words.

        Returns
        -------
        dict
            ``{"point_model": ..., "distance": ..., "metric": ...}`` (strings, as the command
            line reports them).

        Examples
        --------
        >>> from manifolds import Grassmannian, ProjectiveSpace, Sphere
        >>> Sphere(2).conventions()
        {'point_model': 'unit vectors in R^3', 'distance': 'angle atan2(|x^y|, <x,y>)', 'metric': '<u,v> (Euclidean)'}
        >>> Grassmannian(4, 2).conventions()["point_model"]
        'rank-2 projectors 4x4'
        >>> ProjectiveSpace(2).conventions()["distance"]
        'principal angle arccos|<x,y>|'
        """
