"""The endgame search against a plain reference: the frozenset search it replaced.

The search holds a position's layouts as the bits of one integer and splits them with ANDs; the
reference (the code of before, kept here) holds them as a frozenset of layout masks and splits
them layout by layout. Both must give the same chance, the same cell, and give up
(:class:`~solver.endgame.SearchTooLarge`) at the same trial budgets: the moves of a game depend
on all three.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from solver.board import neighbour_table
from solver.endgame import SearchTooLarge, list_layouts, win_chance
from solver.game import Game


def reference_win_chance(
    layouts: Sequence[frozenset[int]],
    covered: Sequence[int],
    around: dict[int, Sequence[int]],
    max_trials: int,
) -> tuple[float, int]:
    """The search as it was first written (layouts as a frozenset of bit masks)."""
    cells = tuple(covered)
    bit = {j: 1 << i for i, j in enumerate(cells)}
    near = {j: sum(bit[k] for k in around[j]) for j in cells}
    memo: dict[frozenset[int], int] = {}
    trials = 0

    def wins(group: frozenset[int], unopened: tuple[int, ...]) -> tuple[int, int]:
        nonlocal trials
        if len(group) == 1:
            return 1, -1
        if group in memo:
            return memo[group], -1
        anywhere = 0
        for lay in group:
            anywhere |= lay
        safe = [j for j in unopened if not anywhere & bit[j]]
        if safe:
            parts: dict[tuple[int, ...], list[int]] = {}
            for lay in group:
                key = tuple((lay & near[j]).bit_count() for j in safe)
                parts.setdefault(key, []).append(lay)
            rest = tuple(j for j in unopened if anywhere & bit[j])
            if len(parts) > 1:
                total = sum(wins(frozenset(p), rest)[0] for p in parts.values())
                memo[group] = total
                return total, safe[0]
            unopened = rest
        best, best_cell = -1, -1
        trials += len(unopened)
        if trials > max_trials:
            raise SearchTooLarge
        for j in unopened:
            kept = [lay for lay in group if not lay & bit[j]]
            if not kept or len(kept) <= best:
                continue
            alive: dict[int, list[int]] = {}
            for lay in kept:
                alive.setdefault((lay & near[j]).bit_count(), []).append(lay)
            rest = tuple(k for k in unopened if k != j)
            total = sum(wins(frozenset(p), rest)[0] for p in alive.values())
            if total > best:
                best, best_cell = total, j
        memo[group] = best
        return best, best_cell

    masks = frozenset(sum(bit[j] for j in lay) for lay in layouts)
    won, cell = wins(masks, cells)
    return won / len(layouts), cell


def endgame_of(seed: int) -> tuple[list[frozenset[int]], list[int], dict[int, Sequence[int]]]:
    """Layouts, covered cells and their covered neighbours of a 7x6 game opened at random
    safe cells until at most 300 layouts fit (none: the game was over first)."""
    rng = random.Random(seed)
    width, height, mines = 7, 6, rng.randint(5, 10)
    game = Game(width, height, mines, rules="classic", seed=seed)
    game.open(rng.randrange(width), rng.randrange(height))
    nbrs = neighbour_table(width, height)
    while game.state == "playing":
        cells = game.cells
        covered = [j for j, ch in enumerate(cells) if ch == "."]
        constraints = [
            (around, ord(ch) - 48)
            for i, ch in enumerate(cells)
            if "0" <= ch <= "8" and (around := [k for k in nbrs[i] if cells[k] == "."])
        ]
        layouts = list_layouts(covered, constraints, mines, 300)
        if layouts is not None:
            around_covered: dict[int, Sequence[int]] = {
                j: tuple(k for k in nbrs[j] if cells[k] == ".") for j in covered
            }
            return layouts, covered, around_covered
        j = rng.choice([j for j in covered if not game.is_mine(j % width, j // width)])
        game.open(j % width, j // width)
    return [], [], {}


def outcome(
    search: Callable[..., tuple[float, int]],
    layouts: list[frozenset[int]],
    covered: list[int],
    around: dict[int, Sequence[int]],
    budget: int,
) -> tuple[float, int] | str:
    """The search's answer, or "too large" when it gives up."""
    try:
        return search(layouts, covered, around, budget)
    except SearchTooLarge:
        return "too large"


@pytest.mark.parametrize("seed", range(40))
def test_endgame_search_matches_the_reference(seed: int) -> None:
    layouts, covered, around = endgame_of(seed)
    if len(layouts) < 2:
        pytest.skip("no guess to make")
    for budget in (5, 20, 60, 200, 1000, 10**6):
        assert outcome(win_chance, layouts, covered, around, budget) == outcome(
            reference_win_chance, layouts, covered, around, budget
        )
