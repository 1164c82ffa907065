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
    trial, numbers = policy._reveal(cells, width, height, j, outlook)
    values: dict[int, tuple[int, float]] = {}  # number -> (layouts, value), exact
    # (bound on the mass, number, layouts, and the position after it when already analysed)
    pending: list[tuple[float, int, int, _Analysed | None]] = []
    for v in numbers:
        known = policy._trial(ahead, j, v)
        if known is not None:
            # The trial reveal says all the bound needs: the position is analysed only if its
            # number is not cut short.
            if known.solutions == 0:
                continue
            if known.has_safe:
                values[v] = (known.solutions, 1.0 + policy.PROGRESS_BONUS)
            elif known.lowest is None or known.lowest >= 1:
                values[v] = (known.solutions, 1.0)  # nothing covered left but mines: won
            else:
                bound = (1.0 - float(known.lowest)) * (1.0 + policy.PROGRESS_BONUS) + policy._SLACK
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
            values[v] = (after.solutions, 1.0 + policy.PROGRESS_BONUS)
            continue
        choices = [p for p in after.probability.values() if p < 1.0]
        if not choices:
            values[v] = (after.solutions, 1.0)  # nothing covered left but mines: won
            continue
        bound = (1.0 - min(choices)) * (1.0 + policy.PROGRESS_BONUS) + policy._SLACK
        pending.append((after.solutions * bound, v, after.solutions, (list(trial), after, counted)))
    total = sum(n for n, _s in values.values()) + sum(item[2] for item in pending)
    if not total:
        return 0.0
    # Heaviest first: counting them narrows the bound the most.
    pending.sort(key=lambda item: -item[0])
    known_mass = sum(n * s for n, s in values.values())
    open_mass = sum(item[0] for item in pending)
    for mass, v, solutions, analysed in pending:
        if at_least is not None and (known_mass + open_mass) / total < at_least:
            return (known_mass + open_mass) / total
        if analysed is None:
            if ahead is not None:
                ahead.seed(j, v)  # the analysis finds the count of the reveal's component
            trial[j] = str(v)
            after, counted = frontier.survey(trial, width, height, mines, memo=memo)
            analysed = (list(trial), after, counted)
        board, after, counted = analysed
        # The value this number must reach for ``j`` to reach ``at_least``: below it, the
        # position's look-ahead may stop early.
        need = None
        if at_least is not None:
            need = (at_least * total - known_mass - (open_mass - mass)) / solutions - policy._SLACK
        value, ceiling = _one_step_value(board, width, height, mines, after, counted, memo, need)
        if ceiling is not None and at_least is not None:
            bound = (known_mass + open_mass - mass + solutions * ceiling) / total
            if bound < at_least:  # always but for float rounding: then count it whole
                return bound
            value = _one_step_value(board, width, height, mines, after, counted, memo)[0]
        values[v] = (solutions, value)
        known_mass += solutions * value
        open_mass -= mass
    # In the order of the numbers, as one sum: the value does not depend on the cut.
    return policy._weighted_mean([values[v] for v in sorted(values)])


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
