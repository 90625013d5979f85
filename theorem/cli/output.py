"""What every command prints with: the version, strict JSON, tables, a progress bar."""

from __future__ import annotations

import contextlib
import gc
import json
from importlib.metadata import PackageNotFoundError, version

import numpy as np

__all__ = ["library_version", "write_json", "Encoded", "encoded", "table", "progress_bar"]


def library_version() -> str:
    """The version of the installed ``transformer-dynamics`` distribution, which every
    command reports (``--version``, and ``"version"`` with ``--json``).

    Returns
    -------
    str
        The version, or ``"unknown"`` when run from a checkout that is not installed.

    Examples
    --------
    >>> isinstance(library_version(), str)
    True
    """
    try:
        return version("transformer-dynamics")
    except PackageNotFoundError:
        return "unknown"


def _strict(value):
    """``value`` with every NaN or infinite float replaced by ``None`` (strict JSON has neither)."""
    if isinstance(value, dict):
        return {k: _strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if np.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    return value


@contextlib.contextmanager
def _collection_paused():
    """No cyclic garbage collection inside: building and encoding millions of small lists
    (the edges of a large digraph) otherwise triggers collections that scan every object
    made so far, which took 3.2 of 3.7 s for the 4.5 million edges of a transitive
    tournament on 3,000 vertices. Cycles made inside are collected later, as usual."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _dumps(obj) -> str:
    """``obj`` as strict JSON text, :class:`Encoded` values spliced in as they are."""
    if isinstance(obj, Encoded):
        return obj.text
    if isinstance(obj, dict) and _holds_encoded(obj):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {_dumps(v)}"
                               for k, v in obj.items()) + "}"
    try:  # the C encoder, in one piece (json.dump encodes in Python, chunk by chunk)
        return json.dumps(obj, allow_nan=False)
    except (TypeError, ValueError):  # numpy scalars, NaN or infinities: make it strict first
        return json.dumps(_strict(obj), allow_nan=False)


def _holds_encoded(obj: dict) -> bool:
    """Whether an :class:`Encoded` value is in ``obj`` or in a dict among its values."""
    return any(isinstance(v, Encoded) or (isinstance(v, dict) and _holds_encoded(v))
               for v in obj.values())


class Encoded:
    """A value already encoded as strict JSON text, for :func:`write_json` to splice in.

    Made by :func:`encoded`. A command that reports something large (the edges of its
    digraph, a witness) encodes it as soon as it has it, so that the encoding's time counts
    against the ``--time-limit`` that the later steps share (docs/conventions.md#command-line)
    instead of coming after it.

    Parameters
    ----------
    text : str
        The JSON text (kept as :attr:`text`; nothing checks it: make one with
        :func:`encoded`).

    Examples
    --------
    >>> encoded(lambda: {"edges": [[0, 1]]})
    Encoded(19 characters)
    >>> encoded(lambda: [1, 2]).text
    '[1, 2]'
    """

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"Encoded({len(self.text)} characters)"


def encoded(build) -> Encoded:
    """``build()`` encoded as strict JSON now (NaN and infinities as ``null``).

    ``build`` runs with the cyclic garbage collector paused: on a digraph with millions of
    edges its collections, not the work, take most of the time of making the lists.

    Parameters
    ----------
    build : callable
        Returns what :func:`write_json` takes (dicts, lists, numbers, strs, ...).

    Returns
    -------
    Encoded

    Examples
    --------
    >>> import io
    >>> edges = encoded(lambda: [[0, 1], [1, 2]])
    >>> out = io.StringIO()
    >>> write_json({"n": 3, "digraph": {"edges": edges}, "gap": float("inf")}, out)
    >>> out.getvalue()
    '{"n": 3, "digraph": {"edges": [[0, 1], [1, 2]]}, "gap": null}'
    """
    with _collection_paused():
        return Encoded(_dumps(build()))


def write_json(obj, out) -> None:
    """Write ``obj`` on ``out`` as strict JSON: no ``NaN`` or ``Infinity`` tokens.

    NaN and infinite floats become ``null``, numpy scalars plain numbers, and
    :class:`Encoded` values (in ``obj`` or in dicts among its values, at any depth) their
    text. No newline is written: the commands end their one object with
    ``out.write("\\n")``.

    Parameters
    ----------
    obj : object
        Dicts, lists, tuples, strs, ints, floats, bools, ``None``, numpy scalars and
        :class:`Encoded` values.
    out : file-like
        Text stream.

    Raises
    ------
    TypeError
        ``obj`` holds something JSON cannot encode (an array, a set, ...).

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> write_json({"value": float("nan"), "n": np.int64(3), "bounds": (1.5, float("inf"))}, out)
    >>> out.getvalue()
    '{"value": null, "n": 3, "bounds": [1.5, null]}'
    """
    with _collection_paused():
        text = _dumps(obj)
    out.write(text)


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain-text table: the headers, a rule of dashes, then the rows, columns left-aligned.

    Each column is as wide as its widest cell; columns are two spaces apart and trailing
    spaces are stripped.

    Parameters
    ----------
    headers : list of str
    rows : list of list of str
        One cell per header in each row (a cell beyond the headers is dropped).

    Returns
    -------
    str
        The lines joined by newlines, without a trailing newline.

    Examples
    --------
    >>> print(table(["invariant", "value"], [["b", "2"], ["chi_hub", "2"]]))
    invariant  value
    ---------  -----
    b          2
    chi_hub    2
    """
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def progress_bar(err, label: str):
    """A progress callback that draws a bar on ``err``.

    The bar is redrawn in place (``\\r``) when the percentage changes, and the line ends
    when ``done == total``.

    Parameters
    ----------
    err : file-like
        Text stream, usually standard error.
    label : str
        Written before the bar.

    Returns
    -------
    callable
        ``report(done, total)``, with ``0 ≤ done ≤ total`` and ``total > 0``.

    Examples
    --------
    >>> import io
    >>> err = io.StringIO()
    >>> report = progress_bar(err, "simulate")
    >>> report(1, 2); report(2, 2)
    >>> for line in err.getvalue().split("\\r")[1:]:
    ...     print(repr(line))
    'simulate [###############...............]  50%'
    'simulate [##############################] 100%\\n'
    """
    shown = [-1]

    def report(done, total):
        width = 30
        filled = int(width * done / total)
        percent = int(100 * done / total)
        if percent == shown[0] and done != total:
            return
        shown[0] = percent
        err.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {percent:3d}%")
        if done == total:
            err.write("\n")
        err.flush()
    return report
