"""The two-step look-ahead: a close call between guesses decided one move deeper.

:func:`solver.policy.best_guess` scores each candidate guess by the chance to survive it and the
next move (one step). Where candidates score about alike, :func:`two_step_safety` looks one
move further: for each number a candidate may show, the best one-step score of the position
after it. Most of the work is cut without changing the answer: the position's trial reveals
(:class:`solver.lookahead.Lookahead`) give each number's layouts, whether it leaves a safe cell
and its lowest mine probability without analysing the board after it; a number's position is
analysed only when the bound from that lowest probability does not already settle the
candidate, and its own look-ahead stops once it cannot lift the candidate to the best so far.

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

#: A position after a trial reveal, analysed: its board, outlook and counts.
_Analysed = tuple[list[str], frontier.Outlook, frontier.Counted | None]


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
    there, so the bound costs no look-ahead; the costliest numbers are counted last, and the
    look-ahead of a number's position stops once it cannot lift ``j`` to ``at_least``.
    """
    numbers = _Numbers.of(cells, width, height, mines, j, outlook, ahead, memo)
    if not numbers.total:
        return 0.0
    cut = numbers.finish(width, height, mines, ahead, memo, at_least)
    return numbers.value() if cut is None else cut


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

    Best first: each cell's score is bounded from its trial reveals alone, and the cell with
    the highest bound is counted one number further, until every cell left is bounded below
    the best exact score. In any order the cells counted whole and their scores are the same
    where they matter: a cell within ``2 * TIE`` of the best is never cut, and a cut cell is
    not chosen whatever its exact score (:func:`~solver.policy.best_guess`).
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
        j = max(left, key=lambda k: left[k][0] * left[k][1].bound())
        alive, numbers = left[j]
        if alive * numbers.bound() < floor:
            for k, (alive_k, numbers_k) in left.items():
                scores[k] = alive_k * numbers_k.bound()
            break
        at_least = floor / alive if floor > 0 and alive > 0 else None
        del left[j]
        cut = numbers.finish(width, height, mines, ahead, memo, at_least)
        if cut is not None:
            scores[j] = alive * cut
        else:
            scores[j] = alive * numbers.value()
            exact.append(scores[j])
    return scores


@dataclass
class _Numbers:
    """The numbers a cell ``j`` may show, counted as far as asked.

    ``values`` maps a number counted to its layouts and value; ``pending`` holds the others,
    heaviest first: (an upper bound of layouts x value, the number, its layouts, the position
    after it when already analysed). ``total`` counts the layouts of every number.
    """

    j: int
    trial: list[str]
    values: dict[int, tuple[int, float]]
    pending: list[tuple[float, int, int, _Analysed | None]]
    total: int
    known_mass: float
    open_mass: float

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
        pending: list[tuple[float, int, int, _Analysed | None]] = []
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
                    pending.append((known.solutions * bound, v, known.solutions, None))
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
            analysed = (list(trial), after, counted)
            pending.append((after.solutions * bound, v, after.solutions, analysed))
        total = sum(n for n, _s in values.values()) + sum(item[2] for item in pending)
        # Heaviest first: counting them narrows the bound the most.
        pending.sort(key=lambda item: -item[0])
        known_mass = sum(n * s for n, s in values.values())
        open_mass = sum(item[0] for item in pending)
        return cls(j, trial, values, pending, total, known_mass, open_mass)

    def bound(self) -> float:
        """An upper bound of the value (the value itself once every number is counted)."""
        return (self.known_mass + self.open_mass) / self.total

    def value(self) -> float:
        """The value, every number counted: in the order of the numbers, as one sum, so it
        does not depend on the order they were counted in."""
        return policy._weighted_mean([self.values[v] for v in sorted(self.values)])

    def finish(
        self,
        width: int,
        height: int,
        mines: int,
        ahead: Lookahead | None,
        memo: CountMemo | None,
        at_least: float | None,
    ) -> float | None:
        """Count every number left: None, or with ``at_least``, an upper bound of the value
        below it as soon as one is sure."""
        while self.pending:
            if at_least is not None and self.bound() < at_least:
                return self.bound()
            cut = self.count_next(width, height, mines, ahead, memo, at_least)
            if cut is not None:
                return cut
        return None

    def count_next(
        self,
        width: int,
        height: int,
        mines: int,
        ahead: Lookahead | None,
        memo: CountMemo | None,
        at_least: float | None,
    ) -> float | None:
        """Count the heaviest number left; None, or with ``at_least``, an upper bound of the
        value below it once the look-ahead of the number's position shows that it is."""
        mass, v, solutions, analysed = self.pending.pop(0)
        j, trial, total = self.j, self.trial, self.total
        if analysed is None:
            if ahead is not None:
                ahead.seed(j, v)  # the analysis finds the count of the reveal's component
            trial[j] = str(v)
            after, counted = frontier.survey(trial, width, height, mines, memo=memo)
            analysed = (list(trial), after, counted)
        board, after, counted = analysed
        # The value this number must reach for ``j`` to reach ``at_least``: below it, the
        # position's look-ahead may stop early.
        rest = self.known_mass + self.open_mass - mass
        need = None
        if at_least is not None:
            need = (at_least * total - rest) / solutions - policy._SLACK
        value, ceiling = _one_step_value(board, width, height, mines, after, counted, memo, need)
        if ceiling is not None and at_least is not None:
            bound = (rest + solutions * ceiling) / total
            if bound < at_least:  # always but for float rounding: then count it whole
                return bound
            value = _one_step_value(board, width, height, mines, after, counted, memo)[0]
        self.values[v] = (solutions, value)
        self.known_mass += solutions * value
        self.open_mass -= mass
        return None


def _one_step_value(
    cells: list[str],
    width: int,
    height: int,
    mines: int,
    outlook: frontier.Outlook,
    counted: frontier.Counted | None,
    memo: CountMemo | None = None,
    enough: float | None = None,
) -> tuple[float, float | None]:
    """The best one-step score of a position: ``max_c (1 - p(c)) * next_move_safety(c)``, and
    None; with ``enough``, once that score is sure to stay below it, the best so far and an
    upper bound of the score (below ``enough``)."""
    # A fixed generator: the candidates' order must not draw on the game's own.
    candidates = policy.lookahead_candidates(cells, width, height, outlook, random.Random(0))
    ahead = policy._lookahead(cells, width, height, outlook, counted, memo)
    scores, ceiling = policy._scores_until(
        cells, width, height, mines, candidates, outlook, ahead, enough
    )
    return max(scores.values(), default=0.0), ceiling
