"""The two-step look-ahead: a close call between guesses decided one move deeper.

:func:`solver.policy.best_guess` scores each candidate guess by the chance to survive it and the
next move (one step). Where candidates score about alike, :func:`decide` looks one move
further: for each number a candidate may show, the best one-step score of the position after it
(:func:`two_step_safety`). Most of the work is cut without changing the answer:

* the position's trial reveals (:class:`solver.lookahead.Lookahead`) give each number's
  layouts, whether it leaves a safe cell and its lowest mine probability without analysing the
  board after it, which bounds the number's value;
* the board after a number is analysed only when the candidate is counted that far, and the
  trial's count of the component the number makes is handed to that analysis
  (:meth:`~solver.lookahead.Lookahead.seed`);
* the candidate with the highest bound is counted further, one number at a time, and a
  number's own look-ahead stops as soon as the candidate falls below another's bound; the
  position after it is kept, so counting it further later repeats no count;
* counting stops once every candidate left is bounded clearly below the best exact score.

The constants that steer it (``TWO_STEP_*``, ``PROGRESS_BONUS``) live in :mod:`solver.policy`,
read when called, so overrides there take effect here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver import frontier, policy
from solver.countmemo import CountMemo
from solver.errors import ContradictionError
from solver.lookahead import Lookahead


def two_step_safety(
    cells: list[str],
    width: int,
    height: int,
    mines: int,
    j: int,
    outlook: frontier.Outlook,
    ahead: Lookahead | None = None,
    at_least: float | None = None,
    memo: CountMemo | None = None,
) -> float:
    """:func:`~solver.policy.next_move_safety` one move deeper: the value of the position
    after ``j``.

    For each number ``v`` that ``j`` may show (weighted by its count of layouts, given ``j`` is
    safe), ``1 + PROGRESS_BONUS`` if the position after ``v`` has a safe cell, else that
    position's best one-step score ``max_c (1 - p(c)) * next_move_safety(c)`` (over its
    :func:`~solver.policy.lookahead_candidates`): the chance to survive the next guess and the
    one after it, where :func:`~solver.policy.next_move_safety` counts only the next. ``ahead``
    (the position's trial reveals, :func:`~solver.policy._lookahead`) gives each number's
    layouts, whether it leaves a safe cell and its lowest probability without analysing the
    board after it: the board is analysed only for a number whose value is counted.

    With ``at_least``, the answer may be cut short: once the value is sure to fall below
    ``at_least``, an upper bound of it (itself below ``at_least``) is returned instead. A number
    whose position has no safe cell is worth at most ``(1 - lowest p) * (1 + PROGRESS_BONUS)``
    there, so the bound costs no look-ahead; the costliest numbers are counted first, and the
    look-ahead of a number's position stops once it cannot lift ``j`` to ``at_least``.
    """
    numbers = _Numbers.of(cells, width, height, mines, j, outlook, ahead, memo)
    if not numbers.total:
        return 0.0
    while numbers.pending:
        if at_least is not None and numbers.bound() < at_least:
            return numbers.bound()
        short = numbers.count_next(width, height, mines, ahead, memo, at_least)
        if short is not None and at_least is not None and not numbers.bound() < at_least:
            numbers.count_whole(short, width, height, mines)  # float rounding: no progress
    return numbers.value()


def decide(
    cells: list[str],
    width: int,
    height: int,
    mines: int,
    close: list[int],
    outlook: frontier.Outlook,
    ahead: Lookahead | None = None,
    memo: CountMemo | None = None,
) -> dict[int, float]:
    """The two-step score ``(1 - p(j)) * two_step_safety(j)`` of each cell of ``close``, exact
    for every cell that may be chosen; a cell sure to score clearly below the best (by more
    than twice :data:`~solver.policy.TIE`) gets an upper bound of its score instead, below it.

    Best first: each cell's score is bounded from its trial reveals alone; the cell with the
    highest bound is counted one number further, its number's look-ahead stopping once the cell
    falls below the next highest bound (or the best exact score), until every cell left is
    bounded below the best exact score. In any order the cells counted whole and their scores
    are the same where they matter: a cell within ``2 * TIE`` of the best is never cut, and a
    cut cell is not chosen whatever its exact score (:func:`~solver.policy.best_guess`).
    """
    probability = outlook.probability
    scores: dict[int, float] = {}
    exact: list[float] = []
    left: dict[int, tuple[float, _Numbers]] = {}
    for j in close:
        alive = 1.0 - probability[j]
        numbers = _Numbers.of(cells, width, height, mines, j, outlook, ahead, memo)
        if not numbers.total:
            scores[j] = alive * 0.0
            exact.append(scores[j])
        elif not numbers.pending:
            scores[j] = alive * numbers.value()
            exact.append(scores[j])
        else:
            left[j] = (alive, numbers)
    while left:
        floor = max(exact, default=-1.0) - 2 * policy.TIE
        bounds = {k: alive * numbers.bound() for k, (alive, numbers) in left.items()}
        j = max(bounds, key=lambda k: bounds[k])
        if bounds[j] < floor:
            scores.update(bounds)
            break
        # Count j until it falls below the next best bound, or below the best exact score.
        target = max([floor, *(b for k, b in bounds.items() if k != j)])
        alive, numbers = left[j]
        at_least = target / alive if target > 0 and alive > 0 else None
        short = numbers.count_next(width, height, mines, ahead, memo, at_least)
        if short is not None and not alive * numbers.bound() < target:
            numbers.count_whole(short, width, height, mines)  # float rounding: no progress
        if not numbers.pending:
            scores[j] = alive * numbers.value()
            exact.append(scores[j])
            del left[j]
    return scores


@dataclass
class _After:
    """The position after a number, analysed once; its look-ahead's counts are kept between
    counts of its value (a count stopped short goes on from them later)."""

    board: list[str]
    outlook: frontier.Outlook
    candidates: list[int]
    ahead: Lookahead | None

    @classmethod
    def of(
        cls,
        board: list[str],
        width: int,
        height: int,
        outlook: frontier.Outlook,
        counted: frontier.Counted | None,
        memo: CountMemo | None,
    ) -> _After:
        # A fixed generator: the candidates' order must not draw on the game's own.
        candidates = policy.lookahead_candidates(board, width, height, outlook, random.Random(0))
        ahead = policy._lookahead(board, width, height, outlook, counted, memo)
        return cls(board, outlook, candidates, ahead)

    def value(
        self, width: int, height: int, mines: int, enough: float | None = None
    ) -> tuple[float, float | None]:
        """The best one-step score of the position: ``max_c (1 - p(c)) * next_move_safety(c)``,
        and None; with ``enough``, once that score is sure to stay below it, the best so far
        and an upper bound of the score (below ``enough``)."""
        scores, ceiling = policy._scores_until(
            self.board, width, height, mines, self.candidates, self.outlook, self.ahead, enough
        )
        return max(scores.values(), default=0.0), ceiling


@dataclass
class _Open:
    """A number not counted yet: its layouts, an upper bound of its value, and the position
    after it once analysed."""

    solutions: int
    bound: float
    after: _After | None = None


@dataclass
class _Numbers:
    """The numbers a cell ``j`` may show, counted as far as asked.

    ``values`` maps a number counted to its layouts and value; ``pending`` the others to their
    :class:`_Open`. ``total`` counts the layouts of every number.
    """

    j: int
    trial: list[str]
    values: dict[int, tuple[int, float]]
    pending: dict[int, _Open]
    total: int

    @classmethod
    def of(
        cls,
        cells: list[str],
        width: int,
        height: int,
        mines: int,
        j: int,
        outlook: frontier.Outlook,
        ahead: Lookahead | None,
        memo: CountMemo | None,
    ) -> _Numbers:
        """Every number of ``j`` counted up to its bound (see :func:`two_step_safety`)."""
        bonus = 1.0 + policy.PROGRESS_BONUS
        trial, numbers = policy._reveal(cells, width, height, j, outlook)
        values: dict[int, tuple[int, float]] = {}
        pending: dict[int, _Open] = {}
        for v in numbers:
            known = policy._trial(ahead, j, v)
            if known is not None:
                # The trial reveal says all the bound needs: the position is analysed only if
                # its number is counted.
                if known.solutions == 0:
                    continue
                if known.has_safe:
                    values[v] = (known.solutions, bonus)
                elif known.lowest is None or known.lowest >= 1:
                    values[v] = (known.solutions, 1.0)  # nothing covered left but mines: won
                else:
                    bound = (1.0 - float(known.lowest)) * bonus + policy._SLACK
                    pending[v] = _Open(known.solutions, bound)
                continue
            trial[j] = str(v)
            try:
                after, counted = frontier.survey(trial, width, height, mines, memo=memo)
            except ContradictionError:
                continue
            if after.solutions == 0:
                continue
            if after.safe:
                values[v] = (after.solutions, bonus)
                continue
            choices = [p for p in after.probability.values() if p < 1.0]
            if not choices:
                values[v] = (after.solutions, 1.0)  # nothing covered left but mines: won
                continue
            bound = (1.0 - min(choices)) * bonus + policy._SLACK
            position = _After.of(list(trial), width, height, after, counted, memo)
            pending[v] = _Open(after.solutions, bound, position)
        total = sum(n for n, _s in values.values()) + sum(o.solutions for o in pending.values())
        return cls(j, trial, values, pending, total)

    def bound(self) -> float:
        """An upper bound of the value (the value itself once every number is counted)."""
        known = sum(n * s for n, s in self.values.values())
        return (known + sum(o.solutions * o.bound for o in self.pending.values())) / self.total

    def value(self) -> float:
        """The value, every number counted: in the order of the numbers, as one sum, so it
        does not depend on the order they were counted in."""
        return policy._weighted_mean([self.values[v] for v in sorted(self.values)])

    def count_next(
        self,
        width: int,
        height: int,
        mines: int,
        ahead: Lookahead | None,
        memo: CountMemo | None,
        at_least: float | None,
    ) -> int | None:
        """Count the heaviest number left (the most layouts x bound). With ``at_least``, its
        position's look-ahead stops once the value is sure to fall below ``at_least``: the
        number then keeps a lower upper bound of its value and is returned (else None)."""
        v = max(self.pending, key=lambda k: self.pending[k].solutions * self.pending[k].bound)
        left = self.pending[v]
        if left.after is None:
            j, trial = self.j, self.trial
            if ahead is not None:
                ahead.seed(j, v)  # the analysis finds the count of the reveal's component
            trial[j] = str(v)
            after, counted = frontier.survey(trial, width, height, mines, memo=memo)
            left.after = _After.of(list(trial), width, height, after, counted, memo)
        # The value this number must reach for ``j`` to reach ``at_least``: below it, the
        # position's look-ahead may stop early.
        need = None
        if at_least is not None:
            others = self.bound() * self.total - left.solutions * left.bound
            need = (at_least * self.total - others) / left.solutions - policy._SLACK
        value, ceiling = left.after.value(width, height, mines, need)
        if ceiling is not None:
            left.bound = ceiling
            return v
        del self.pending[v]
        self.values[v] = (left.solutions, value)
        return None

    def count_whole(self, v: int, width: int, height: int, mines: int) -> None:
        """Count number ``v``, whose position is analysed already, to its exact value."""
        left = self.pending.pop(v)
        assert left.after is not None
        self.values[v] = (left.solutions, left.after.value(width, height, mines)[0])
