"""The results file of a sweep: a CSV table appended one row at a time, so that an
interrupted sweep resumes where it stopped.

docs/sweeps.md#resuming. Each finished task's row is written as one line and flushed to disk
at once; a sweep killed while writing leaves at most a partial last line, which the next run
drops before it appends. The rows already there say which grid points are done.
"""

from __future__ import annotations

import csv
import fcntl
import io
import os
from pathlib import Path

from ..errors import SweepError

__all__ = ["ResultsFile", "read_rows", "cell_text", "parse_cell"]


def cell_text(value) -> str:
    """The text a value has in the results file (what :mod:`csv` writes): ``str(value)``,
    ``""`` for ``None``. Keys are compared as this text, so that a key reads back as
    itself whatever its type (``"007"`` stays ``"007"``, ``0.1 + 0.2`` stays
    ``0.30000000000000004``).

    Parameters
    ----------
    value : object

    Returns
    -------
    str

    Examples
    --------
    >>> cell_text("007"), cell_text(0.1 + 0.2), cell_text(None), cell_text(True)
    ('007', '0.30000000000000004', '', 'True')
    """
    return "" if value is None else str(value)


def _table(path) -> tuple[list[str], list[list[str]]]:
    """Header and complete lines (cells as text) of a results file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SweepError(f"{path} is not UTF-8 text (byte {exc.start}); it is not a sweep's "
                         "results file") from None
    complete = text[:text.rfind("\n") + 1]
    lines = list(csv.reader(io.StringIO(complete)))
    if not lines:
        raise SweepError(f"{path} has no header line; it is not a sweep's results file")
    for number, cells in enumerate(lines[1:], start=2):
        if len(cells) != len(lines[0]):
            raise SweepError(f"{path}, line {number}: {len(cells)} cells for {len(lines[0])} "
                             "columns; the file is damaged or not a sweep's results file")
    return lines[0], lines[1:]


def parse_cell(value: str):
    """A cell of a results file back to ``bool``, ``int``, ``float`` or ``str`` (empty:
    ``None``), whichever reads it whole first.

    Parameters
    ----------
    value : str

    Returns
    -------
    bool, int, float, str or None

    Examples
    --------
    >>> parse_cell("True"), parse_cell("7"), parse_cell("0.30000000000000004"), parse_cell("")
    (True, 7, 0.30000000000000004, None)
    """
    if value == "":
        return None
    if value in ("True", "False"):
        return value == "True"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def read_rows(path) -> tuple[list[str], list[dict]]:
    """The header and the complete rows of a results file (a partial last line is left out).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    columns : list of str
    rows : list of dict
        Cells as ``bool``, ``int``, ``float`` or ``str``.

    Raises
    ------
    OSError
        The file cannot be read.
    SweepError
        The file is not UTF-8, has no header, or a row has another number of cells than the
        header.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
    >>> _ = path.write_text("N,b_optimal,p\\n10,True,0.25\\n20,Fal")
    >>> read_rows(path)
    (['N', 'b_optimal', 'p'], [{'N': 10, 'b_optimal': True, 'p': 0.25}])
    """
    columns, lines = _table(path)
    return columns, [{c: parse_cell(v) for c, v in zip(columns, cells)} for cells in lines]


class ResultsFile:
    """A sweep's CSV results file, opened for appending rows.

    Opening an existing file checks its header against ``columns`` and drops a partial
    last line; :attr:`done` holds the keys of the rows already there.

    Parameters
    ----------
    path : str or path-like
        A ``.csv`` file (created with its header when absent).
    columns : list of str
        The columns, in order.
    key : sequence of str
        The columns naming a grid point.

    Raises
    ------
    SweepError
        ``path`` does not end with ``.csv`` or is a folder, the file has another header
        (another sweep's results), repeats a key, or is being written by another sweep (the
        file is locked while open: ``flock``, released when the process ends).
    OSError
        The file cannot be read or written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
    >>> with ResultsFile(path, ["N", "seed", "b"], ["N", "seed"]) as results:
    ...     results.append({"N": 10, "seed": 0, "b": 3})
    >>> with ResultsFile(path, ["N", "seed", "b"], ["N", "seed"]) as again:
    ...     again.done
    {('10', '0')}
    """

    def __init__(self, path, columns, key):
        self.path = Path(path)
        if self.path.suffix != ".csv":
            raise SweepError(f"{self.path}: the results file is a CSV table; give a path "
                             "ending with .csv")
        self.columns = list(columns)
        self.key = tuple(key)
        #: The rows in the file, as text, by key (the key's cells as text, :func:`cell_text`).
        self.lines: dict = {}
        if self.path.is_dir():
            raise SweepError(f"{self.path} is a folder; give a file path ending with .csv")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a+", encoding="utf-8", newline="")
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._file.close()
            raise SweepError(f"{self.path} is being written by another sweep; wait for it, or "
                             "give another --out") from None
        try:
            if self.path.stat().st_size:
                self._resume()
            else:
                self._write(self.columns)
        except BaseException:
            self._file.close()
            raise

    def _resume(self) -> None:
        header, lines = _table(self.path)
        if header != self.columns:
            raise SweepError(
                f"{self.path} holds another sweep's results (columns {header}); give "
                "another --out, or the same invariants as the sweep that wrote it")
        index = [self.columns.index(c) for c in self.key]
        for cells in lines:
            k = tuple(cells[i] for i in index)
            if k in self.lines:
                raise SweepError(f"{self.path} has the row {dict(zip(self.key, k))} twice")
            self.lines[k] = dict(zip(self.columns, cells))
        with open(self.path, "rb+") as f:       # drop a partial last line
            data = f.read()
            f.truncate(data.rfind(b"\n") + 1)
        self._file.seek(0, os.SEEK_END)

    @property
    def done(self) -> set:
        """The keys of the rows in the file, as their text (:func:`cell_text`)."""
        return set(self.lines)

    def _write(self, cells) -> None:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerow(cells)
        self._file.write(buffer.getvalue())         # one write a line
        self._file.flush()
        os.fsync(self._file.fileno())

    def append(self, row: dict) -> None:
        """Write ``row`` as one line, flushed to disk, and mark its key done.

        Parameters
        ----------
        row : dict
            One cell per column.

        Raises
        ------
        SweepError
            The row's key is already in the file.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
        >>> with ResultsFile(path, ["N", "b"], ["N"]) as results:
        ...     results.append({"N": 10, "b": 3})
        >>> path.read_text()
        'N,b\\n10,3\\n'
        """
        k = tuple(cell_text(row[c]) for c in self.key)
        if k in self.lines:
            raise SweepError(f"the row {dict(zip(self.key, k))} is already in {self.path}")
        self._write([row[c] for c in self.columns])
        self.lines[k] = {c: cell_text(row[c]) for c in self.columns}

    def close(self) -> None:
        """Close the file (the ``with`` statement does it on leaving).

        Examples
        --------
        >>> import tempfile, pathlib
        >>> results = ResultsFile(pathlib.Path(tempfile.mkdtemp()) / "r.csv", ["N"], ["N"])
        >>> results.close()
        >>> results.path.read_text()
        'N\\n'
        """
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
