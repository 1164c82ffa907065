"""Play strategies: which cells to open (or flag) next.

Every strategy opens the cells it knows are safe first; they differ in how they guess:

* ``min-risk``: the covered cell with the lowest mine probability, ties broken at random.
* ``best``: an exact game-tree search when few layouts are left (:func:`endgame_guess`), else a
  50/50 that nothing can ever settle, taken first (:func:`forced_guess`), else the lowest
  probability refined by look-ahead (:func:`best_guess`).
* ``pgms``: the PGMS Equation Strategy (:mod:`solver.pgms`), a rule-based baseline.

:func:`plan` works on a flat list of cells (``y * width + x``) and returns every certain move at
once (a batch of safe opens and certain flags) or a single guess; a game loop plays the batch
and asks again.

>>> import random
>>> [m.x for m in plan_moves(Board("11..\\n...."), 2, "best", random.Random(0)) if m.p_mine == 0]
[2, 2]
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from solver import endgame, frontier, pgms, twostep
from solver.board import Board
from solver.constraints import covered_neighbours
from solver.countmemo import CountMemo
from solver.errors import ContradictionError, MinebotError
from solver.fifty import forced_guess
from solver.lookahead import Lookahead, NotExact, Trial
from solver.moves import Move

STRATEGIES = ("best", "min-risk", "pgms")
#: What chose a guess (:attr:`Move.why`): :func:`endgame_guess`, :func:`forced_guess`,
#: :func:`best_guess`, :func:`min_risk_guess`, or the PGMS rules.
GUESS_RULES = ("endgame", "fifty-fifty", "look-ahead", "min-risk", "pgms")

#: Search the game tree exactly when few layouts are left (see :mod:`solver.endgame`).
ENDGAME = True
#: Probabilities closer than this are treated as equal.
TIE = 1e-9


def plan_moves(board: Board, mines: int, strategy: str, rng: random.Random) -> list[Move]:
    """:func:`plan` for a :class:`Board`."""
    return plan(list("".join(board.rows)), board.width, board.height, mines, strategy, rng)


def plan(
    cells: Sequence[str],
    width: int,
    height: int,
    mines: int,
    strategy: str,
    rng: random.Random,
    memo: CountMemo | None = None,
) -> list[Move]:
    """Certain flags, then either every certainly safe cell or one guess.

    ``memo``, the caller's for the whole game (:class:`~solver.countmemo.CountMemo`), lets an
    analysis reuse the counts of components already counted: same moves, less work."""
    if strategy == "pgms":
        return _plan_pgms(list(cells), width, height, mines, rng)
    if strategy not in STRATEGIES:
        raise MinebotError(
            f"unknown strategy {strategy!r}: expected one of {', '.join(STRATEGIES)}"
        )
    outlook, counted = frontier.survey(list(cells), width, height, mines, quick=True, memo=memo)
    flags = [Move("flag", j % width, j // width, 1.0) for j in outlook.mines]
    if outlook.safe:
        return flags + [Move("open", j % width, j // width, 0.0) for j in outlook.safe]
    if not outlook.probability:
        outlook, counted = frontier.survey(list(cells), width, height, mines, memo=memo)
        flags = [Move("flag", j % width, j // width, 1.0) for j in outlook.mines]
        if outlook.safe:
            return flags + [Move("open", j % width, j // width, 0.0) for j in outlook.safe]
    choices = [j for j, p in outlook.probability.items() if p < 1.0]
    if not choices:
        raise MinebotError("no cell is left to open: every covered cell is a mine")
    j: int | None
    if strategy == "min-risk":
        j, why = min_risk_guess(outlook, rng), "min-risk"
    else:
        j, why = endgame_guess(list(cells), width, height, mines, outlook), "endgame"
        if j is None:
            j, why = forced_guess(list(cells), width, height, mines, outlook), "fifty-fifty"
        if j is None:
            j = best_guess(list(cells), width, height, mines, outlook, rng, counted, memo)
            why = "look-ahead"
    return flags + [Move("open", j % width, j // width, outlook.probability[j], why)]


def min_risk_guess(outlook: frontier.Outlook, rng: random.Random) -> int:
    """The lowest mine probability, ties broken at random."""
    low = min(outlook.probability.values())
    ties = sorted(j for j, p in outlook.probability.items() if p <= low + TIE)
    return rng.choice(ties)


#: Look-ahead considers at most this many frontier cells (the least likely mines) ...
LOOKAHEAD_FRONTIER = 8
#: ... and this many cells away from the numbers (those with the fewest covered neighbours).
LOOKAHEAD_INTERIOR = 2
#: ... and this many cells away from the numbers but next to the frontier.
LOOKAHEAD_TOUCHING = 4
#: Extra value of a reveal that leaves safe cells to open (progress) over mere survival.
PROGRESS_BONUS = 0.1
#: Cells more likely to be mines than the safest one by more than this are not considered.
LOOKAHEAD_MARGIN = 0.15
#: Two-step look-ahead (:func:`solver.twostep.decide`) for the candidates whose one-step score
#: is within this of the best (a close call); a negative margin turns it off. At first for close
#: calls late in the game (margin 0.02, top 3, a quarter of the cells covered): paired against it
#: off, expert classic corner, 32,000 games (seeds 31, 32, 33), won by it only 88, by the
#: one-step only 50 (sign test p = 0.0015), 40.52 -> 40.63 %. Widened to the middle game and on
#: (margin 0.2, top 8, 90 % covered): against the late form, expert corner, 80,000 paired games
#: (seeds 2201, 2401), 610 vs 527 (p = 0.015), 40.61 -> 40.72 %. It first cost twice the CPU
#: per game; made cheaper without changing a move (:mod:`solver.twostep`), it costs about 1.2
#: times the late form's old CPU per game (README, solver section).
TWO_STEP_MARGIN = 0.2
#: ... at most this many of them, the best first ...
TWO_STEP_TOP = 8
#: ... and only while at most this share of the board's cells is covered (the first guesses,
#: on a nearly covered board, are decided by the one-step look-ahead).
TWO_STEP_SHARE = 0.9


def best_guess(
    cells: list[str],
    width: int,
    height: int,
    mines: int,
    outlook: frontier.Outlook,
    rng: random.Random,
    counted: frontier.Counted | None = None,
    memo: CountMemo | None = None,
) -> int:
    """Lowest probability, refined by a look-ahead of one move.

    For each candidate cell ``c`` and each number ``v`` it could show, the position with
    ``c = v`` is counted exactly: its solution count gives ``P(v | c safe)``, and its analysis
    tells whether it has a safe cell (progress) or else how safe its best guess is. The chosen
    cell maximises the chance to survive this guess and the next one, with a small premium for
    progress: ``(1 - p(c)) * sum_v P(v | c safe) * s(v)``, where ``s(v)`` is
    ``1 + PROGRESS_BONUS`` if the position after ``v`` has a safe cell, else
    ``1 - min p after v``. A close call (the candidates within :data:`TWO_STEP_MARGIN` of the
    best score, at most :data:`TWO_STEP_TOP`, once at most :data:`TWO_STEP_SHARE` of the cells
    are covered) is decided one move deeper (:func:`solver.twostep.decide`).

    Candidates: the frontier cells least likely to be mines, and, when cells away from the
    numbers are about as safe, the ones with the fewest covered neighbours (likeliest zeros) and
    some touching the frontier. Certain safe cells never reach here (see :func:`plan`); small
    endgames are searched exactly instead (:func:`endgame_guess`). ``counted``, what the
    analysis behind ``outlook`` counted, lets each trial recount only the components the
    candidate touches (:mod:`solver.lookahead`).
    """
    candidates = lookahead_candidates(cells, width, height, outlook, rng)
    if len(candidates) == 1:
        return candidates[0]
    ahead = _lookahead(cells, width, height, outlook, counted, memo)
    scores = _one_step_scores(cells, width, height, mines, candidates, outlook, ahead)
    if TWO_STEP_MARGIN >= 0 and len(scores) > 1:
        covered = sum(ch in ".?" for ch in cells)
        top = max(scores.values())
        close = sorted(
            (j for j, s in scores.items() if s >= top - TWO_STEP_MARGIN - TIE),
            key=lambda j: -scores[j],
        )[:TWO_STEP_TOP]
        if covered <= TWO_STEP_SHARE * len(cells) and len(close) > 1:
            scores = twostep.decide(cells, width, height, mines, close, outlook, ahead, memo)
    best, best_score = candidates[0], -1.0
    for j in candidates:
        score = scores.get(j, -1.0)
        if score > best_score + TIE:
            best, best_score = j, score
    if ahead is not None:
        # The analysis after the move finds the count of the component its number makes.
        for v in range(9):
            ahead.seed(best, v)
    return best


#: Float rounding in a score's sum, kept out of the bound that cuts candidates.
_SLACK = 1e-9


def _lookahead(
    cells: list[str],
    width: int,
    height: int,
    outlook: frontier.Outlook,
    counted: frontier.Counted | None,
    memo: CountMemo | None = None,
) -> Lookahead | None:
    """The trial reveals of the position ``counted`` counted, or None when it is approximated
    (each trial is then analysed from scratch)."""
    if counted is None or not all(c.exact for c in counted.counts):
        return None
    return Lookahead(cells, width, height, counted.constraints, counted.counts, outlook.mines, memo)


def _one_step_scores(
    cells: list[str],
    width: int,
    height: int,
    mines: int,
    candidates: list[int],
    outlook: frontier.Outlook,
    ahead: Lookahead | None,
) -> dict[int, float]:
    """``(1 - p(c)) * next_move_safety(c)`` of the ``candidates`` worth counting.

    A candidate scores at most ``(1 - p) * (1 + PROGRESS_BONUS)``. Counting the likeliest
    winners first, the rest are cut once even that bound falls clearly below the best score
    found: a cut cell could not have been chosen. ``ahead``, the position's trial reveals
    (:func:`_lookahead`), recounts only the components the candidate touches.
    """
    # A score further below the best than this counts for nothing: it is not chosen, nor
    # looked at again two steps ahead.
    gap = max(TWO_STEP_MARGIN, TIE) + TIE
    return _scores_until(cells, width, height, mines, candidates, outlook, ahead, None, gap)[0]


def _scores_until(
    cells: list[str],
    width: int,
    height: int,
    mines: int,
    candidates: list[int],
    outlook: frontier.Outlook,
    ahead: Lookahead | None,
    enough: float | None = None,
    gap: float = 2 * TIE,
) -> tuple[dict[int, float], float | None]:
    """:func:`_one_step_scores`, and None; with ``enough``, cut short once the best score is
    sure to stay below it: the scores so far and an upper bound of the best (below ``enough``).

    A candidate sure to score more than ``gap`` below the best so far stops counting its
    numbers: its score is then an upper bound of it, itself that far below the best.
    """
    probability = outlook.probability
    scores: dict[int, float] = {}
    for j in sorted(candidates, key=lambda j: probability[j]):
        alive = 1.0 - probability[j]
        bound = alive * (1.0 + PROGRESS_BONUS) + _SLACK
        best = max(scores.values(), default=None)
        if best is not None and bound < best - 2 * TIE:
            break
        if enough is not None:
            # The candidates left score at most this one's bound.
            ceiling = bound if best is None else max(bound, best)
            if ceiling < enough:
                return scores, ceiling
        below = (best - gap) / alive if best is not None and best > gap and alive > 0 else None
        safety = next_move_safety(cells, width, height, mines, j, outlook, ahead, below)
        scores[j] = alive * safety
    return scores, None


def _reveal(
    cells: Sequence[str], width: int, height: int, j: int, outlook: frontier.Outlook
) -> tuple[list[str], range]:
    """The board to write ``j``'s number into (the mines ``outlook`` settled flagged) and the
    numbers ``j`` may show."""
    trial = list(cells)
    for k in outlook.mines:
        trial[k] = "F"
    return trial, _numbers(cells, width, height, j, outlook)


def _numbers(
    cells: Sequence[str], width: int, height: int, j: int, outlook: frontier.Outlook
) -> range:
    """The numbers ``j`` may show."""
    from solver.board import neighbour_table

    around = neighbour_table(width, height)[j]
    known = sum(cells[k] in "F*X" or k in outlook.mines for k in around)
    open_around = sum(cells[k] in ".?" and k not in outlook.mines for k in around)
    return range(known, known + open_around + 1)


def _weighted_mean(weights: list[tuple[int, float]]) -> float:
    """The mean of the values of ``(weight, value)`` pairs by weight; 0 without weight."""
    total = sum(w for w, _s in weights)
    if not total:
        return 0.0
    return sum(w / total * s for w, s in weights)


def lookahead_candidates(
    cells: list[str], width: int, height: int, outlook: frontier.Outlook, rng: random.Random
) -> list[int]:
    """The cells :func:`best_guess` looks ahead from, in the order it prefers them on a tie."""
    from solver.board import neighbour_table

    nbrs = neighbour_table(width, height)
    probability = outlook.probability
    low = min(probability.values())
    edge = sorted(
        [
            (p, rng.random(), j)
            for j, p in probability.items()
            if j in outlook.frontier and p <= low + LOOKAHEAD_MARGIN
        ]
    )
    candidates = [j for _p, _r, j in edge[:LOOKAHEAD_FRONTIER]]
    if outlook.interior and probability[outlook.interior[0]] <= low + LOOKAHEAD_MARGIN:
        # Interior cells are equally likely mines; they differ in what they may reveal. Try
        # those with the fewest covered neighbours (likeliest zeros) and those touching the
        # frontier (their number may settle it).
        around = covered_neighbours(cells, width, height)
        inner = sorted([(around[j], rng.random(), j) for j in outlook.interior])
        candidates += [j for _n, _r, j in inner[:LOOKAHEAD_INTERIOR]]
        touching = (
            j
            for _n, _r, j in inner[LOOKAHEAD_INTERIOR:]
            if not outlook.frontier.isdisjoint(nbrs[j])
        )
        candidates += itertools.islice(touching, LOOKAHEAD_TOUCHING)
    return candidates


def next_move_safety(
    cells: list[str],
    width: int,
    height: int,
    mines: int,
    j: int,
    outlook: frontier.Outlook,
    ahead: Lookahead | None = None,
    below: float | None = None,
) -> float:
    """Chance to survive the move after opening ``j``, given ``j`` is safe.

    With ``below``, the answer may be cut short: once it is sure to fall below ``below`` (the
    numbers not yet counted worth at most ``1 + PROGRESS_BONUS``), an upper bound of it, itself
    below ``below``."""
    numbers = _numbers(cells, width, height, j, outlook)
    trial: list[str] | None = None  # the board, made only if a number must be analysed on it
    weights: list[tuple[int, float]] = []
    # Every layout with j safe, for the bound: known only from trial reveals.
    everything = ahead.layouts_safe(j) if below is not None and ahead is not None else None
    counted, mass = 0, 0.0
    for v in numbers:
        if everything:
            bound = (mass + (everything - counted) * (1.0 + PROGRESS_BONUS)) / everything
            if bound + _SLACK < below:  # type: ignore[operator]
                return bound + _SLACK
        outcome = _trial(ahead, j, v)
        if outcome is not None:
            solutions, has_safe = outcome.solutions, outcome.has_safe
            lowest = None if outcome.lowest is None else float(outcome.lowest)
        else:
            if trial is None:
                trial = _reveal(cells, width, height, j, outlook)[0]
            trial[j] = str(v)
            try:
                after = frontier.analyse(trial, width, height, mines)
            except ContradictionError:
                continue
            solutions, has_safe = after.solutions, bool(after.safe)
            lowest = min(after.probability.values()) if after.probability else None
        if solutions == 0:
            continue
        if has_safe:
            safety = 1.0 + PROGRESS_BONUS
        elif lowest is not None:
            safety = 1.0 - lowest
        else:
            safety = 1.0  # nothing covered left: the game is won
        weights.append((solutions, safety))
        counted += solutions
        mass += solutions * safety
    return _weighted_mean(weights)


def _trial(ahead: Lookahead | None, j: int, v: int) -> Trial | None:
    """The position after ``j`` shows ``v`` counted by ``ahead``; None when it cannot be (no
    ``ahead``, or a sub-problem over the work budget): analyse the board instead."""
    if ahead is None:
        return None
    try:
        return ahead.reveal(j, v)
    except NotExact:
        return None


def endgame_guess(
    cells: list[str], width: int, height: int, mines: int, outlook: frontier.Outlook
) -> int | None:
    """The exact game-tree answer when few layouts are left (:mod:`solver.endgame`), else None."""
    if not (ENDGAME and 1 < outlook.solutions <= endgame.MAX_LAYOUTS):
        return None
    return endgame.best_cell(cells, width, height, mines)


def _plan_pgms(
    cells: list[str], width: int, height: int, mines: int, rng: random.Random
) -> list[Move]:
    safe, mine_cells, guess = pgms.choose(cells, width, height, mines, rng)
    flags = [Move("flag", j % width, j // width, 1.0) for j in mine_cells]
    if safe:
        return flags + [Move("open", j % width, j // width, 0.0) for j in safe]
    if guess is None:  # only mines settled: guess with them flagged
        for j in mine_cells:
            cells[j] = "F"
        return flags + _plan_pgms(cells, width, height, mines, rng)
    j, p = guess
    return flags + [Move("open", j % width, j // width, p, "pgms")]
