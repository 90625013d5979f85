r"""DRAT proofs of unsatisfiability: emitted by CaDiCaL, checked here, independently.

An UNSAT certificate says "no cover with ``k`` bicliques (or relations)". A solver's word is
one thing; a proof is another. CaDiCaL (through python-sat) logs a DRAT proof: a list of
added clauses (lemmas) ending with the empty clause, interleaved with deletions.
:func:`check_drat` replays it forward against the formula: every lemma must be **RUP**
(asserting its negation and unit-propagating over the formula and the lemmas so far gives a
conflict) or, failing that, **RAT** on its first literal ``p`` (every resolvent with a
clause containing ``¬p`` is RUP). Deletions are ignored: checking against a larger clause set
is still sound (every clause kept is implied by, or satisfiability-preserving for, the
formula), only slower. The proof is valid when every lemma passes and the empty clause is
reached. Unit propagation uses two watched literals.
"""

from __future__ import annotations

from dataclasses import dataclass

from pysat.solvers import Solver

from .solver import SOLVER

__all__ = ["DratCheck", "unsat_proof", "check_drat"]


@dataclass(frozen=True)
class DratCheck:
    """The outcome of :func:`check_drat`: whether a DRAT proof refutes its formula.

    Parameters
    ----------
    valid : bool
        Every lemma checked is RUP or RAT and the empty clause is derived.
    lemmas : int
        Added clauses checked (deletions not counted).
    rat : int
        Of those, the ones that needed the RAT check (not RUP).
    failed : int or None
        Index, in the proof, of the first lemma that is neither RUP nor RAT (or of the first
        malformed line); ``None`` when none failed.
    detail : str
        What was derived, or why the proof fails.

    Examples
    --------
    >>> check_drat([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 0", "0"])
    DratCheck(valid=True, lemmas=1, rat=0, failed=None, detail='empty clause derived')
    """

    valid: bool
    lemmas: int
    rat: int
    failed: int | None
    detail: str


def unsat_proof(clauses, *, solver: str = SOLVER) -> list[str] | None:
    """A DRAT proof that ``clauses`` is unsatisfiable, from the solver's proof log.

    Runs in process and without a time limit: for the certificates of small encodings
    (check the proof with :func:`check_drat`, independently of the solver).

    Parameters
    ----------
    clauses : list of list of int
        DIMACS-style clauses: non-zero ints, ``-v`` the negation of variable ``v``.
    solver : str
        A python-sat solver name that logs proofs; default :data:`~theorem.sat.SOLVER`.

    Returns
    -------
    list of str or None
        The proof's lines (lemmas such as ``"1 -2 0"``, deletions ``"d 1 2 0"``, ending with
        the empty clause ``"0"``) when unsatisfiable; ``None`` when satisfiable.

    Examples
    --------
    >>> formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    >>> check_drat(formula, unsat_proof(formula)).valid
    True
    >>> unsat_proof([[1, 2], [-1]]) is None
    True
    """
    with Solver(name=solver, bootstrap_with=clauses, with_proof=True) as s:
        if s.solve():
            return None
        return list(s.get_proof())


class _Propagator:
    """A clause database with two-watched-literal unit propagation and a trail to undo."""

    def __init__(self, n_vars: int):
        self.value = [0] * (n_vars + 1)     # +1 true, -1 false, 0 unassigned (per variable)
        self.trail: list[int] = []
        self.clauses: list[list[int]] = []
        self.watches: dict[int, list[int]] = {}
        self.conflict = False                # a conflict at the top level: the formula is refuted

    def lit_value(self, lit: int) -> int:
        v = self.value[abs(lit)]
        return v if lit > 0 else -v

    def _assign(self, lit: int) -> None:
        self.value[abs(lit)] = 1 if lit > 0 else -1
        self.trail.append(lit)

    def add(self, clause: list[int]) -> None:
        """Add a clause and propagate its consequences at the top level."""
        clause = list(dict.fromkeys(clause))
        if self.conflict:
            return
        index = len(self.clauses)
        self.clauses.append(clause)
        if not clause:
            self.conflict = True
            return
        if len(clause) >= 2:
            # watch two literals that are not false if possible
            clause.sort(key=lambda lit: self.lit_value(lit) == -1)
            for lit in clause[:2]:
                self.watches.setdefault(lit, []).append(index)
        unassigned = [lit for lit in clause if self.lit_value(lit) == 0]
        if any(self.lit_value(lit) == 1 for lit in clause):
            return
        if not unassigned:
            self.conflict = True
        elif len(unassigned) == 1:
            start = len(self.trail)
            self._assign(unassigned[0])
            if not self._propagate(start):
                self.conflict = True

    def _propagate(self, start: int) -> bool:
        """Unit propagation from trail position ``start``; False on a conflict."""
        head = start
        while head < len(self.trail):
            false_lit = -self.trail[head]
            head += 1
            watching = self.watches.get(false_lit, [])
            keep = []
            conflict = False
            for pos, index in enumerate(watching):
                if conflict:
                    keep.append(index)
                    continue
                clause = self.clauses[index]
                if clause[0] == false_lit:
                    clause[0], clause[1] = clause[1], clause[0]
                if self.lit_value(clause[0]) == 1:
                    keep.append(index)
                    continue
                for k in range(2, len(clause)):
                    if self.lit_value(clause[k]) != -1:
                        clause[1], clause[k] = clause[k], clause[1]
                        self.watches.setdefault(clause[1], []).append(index)
                        break
                else:
                    keep.append(index)
                    if self.lit_value(clause[0]) == -1:
                        conflict = True
                    else:
                        self._assign(clause[0])
            self.watches[false_lit] = keep
            if conflict:
                return False
        return True

    def rup(self, clause) -> bool:
        """Whether asserting ``¬clause`` propagates to a conflict (the state is restored)."""
        if self.conflict:
            return True
        start = len(self.trail)
        ok = False
        for lit in clause:
            value = self.lit_value(lit)
            if value == 1:
                ok = True
                break
            if value == 0:
                self._assign(-lit)
        if not ok:
            ok = not self._propagate(start)
        for lit in self.trail[start:]:
            self.value[abs(lit)] = 0
        del self.trail[start:]
        return ok


def check_drat(clauses, proof) -> DratCheck:
    """Check a DRAT proof that ``clauses`` is unsatisfiable, independently of the solver.

    The proof is replayed forward: each lemma must be RUP, or RAT on its first literal;
    deletions are ignored (sound, only slower); the proof is valid once the empty clause is
    derived (see the module's description). A malformed line makes the proof invalid rather
    than raising.

    Parameters
    ----------
    clauses : iterable of list of int
        The formula: DIMACS-style clauses of non-zero ints.
    proof : iterable of str
        DRAT lines, such as ``"1 -2 0"`` (a lemma) and ``"d 1 2 0"`` (a deletion), as
        :func:`unsat_proof` returns them.

    Returns
    -------
    DratCheck
        ``valid``, the lemmas counted, and the first failing lemma with the reason.

    Examples
    --------
    >>> formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    >>> check_drat(formula, ["2 0", "0"]).valid
    True
    >>> check_drat(formula, ["0"]).valid                    # the empty clause is not RUP at once
    False
    """
    parsed = []
    for line in proof:
        parts = line.split()
        deletion = bool(parts) and parts[0] == "d"
        lits = [int(x) for x in (parts[1:] if deletion else parts)]
        if not lits or lits[-1] != 0:
            return DratCheck(False, 0, 0, len(parsed), f"malformed proof line {line!r}")
        parsed.append((deletion, lits[:-1]))
    n_vars = max([abs(x) for c in clauses for x in c] + [abs(x) for _, c in parsed for x in c] + [0])
    db = _Propagator(n_vars)
    for clause in clauses:
        db.add(list(clause))
    lemmas = rat = 0
    for index, (deletion, lemma) in enumerate(parsed):
        if deletion:
            continue
        lemmas += 1
        if not db.rup(lemma):
            if not lemma or not _rat(db, lemma):
                return DratCheck(False, lemmas, rat, index,
                                 f"lemma {index} ({' '.join(map(str, lemma))} 0) is neither RUP nor RAT")
            rat += 1
        db.add(list(lemma))
        if db.conflict:
            return DratCheck(True, lemmas, rat, None, "empty clause derived")
    return DratCheck(False, lemmas, rat, None, "the proof never derives the empty clause")


def _rat(db: _Propagator, lemma: list[int]) -> bool:
    pivot = lemma[0]
    for clause in db.clauses:
        if -pivot in clause:
            resolvent = list(dict.fromkeys(lemma + [lit for lit in clause if lit != -pivot]))
            if any(-lit in resolvent for lit in resolvent):
                continue                     # a tautology is satisfied by every assignment
            if not db.rup(resolvent):
                return False
    return True

