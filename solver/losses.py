"""Where games are lost: every guess of a series, by the rule that chose it and the game's stage.

A change to the guessing policy can pay only where games are lost. This plays a series as
``minebot bench`` does and files each guess under the rule that chose it (:attr:`Move.why`:
the exact endgame, a forced 50/50, the look-ahead) and the stage of the game (by the share of
cells still covered), with the games lost on it and the mines it was expected to hit (the sum of
its probabilities, a figure with far less noise than the losses)::

    python -m solver.losses --level expert --games 4000 --seed 5

>>> table = tally(BenchConfig(9, 9, 10, seed=3), 0, 20)
>>> sum(row.lost for row in table.rows.values()) == table.games - table.wins
True
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.bench import BenchConfig, play_game
from solver.board import COVERED_CHARS
from solver.moves import Move
from solver.paired import series_config, series_parser

#: The rule of an ``unsafe`` game's first click, which may hit a mine.
FIRST_CLICK = "first-click"
#: A guess is early while more than this share of the cells is covered ...
EARLY = 0.9
#: ... and late once this share or less is.
LATE = 0.15


def stage(cells: Sequence[str]) -> str:
    """``early``, ``middle`` or ``late``, by the share of cells still covered.

    >>> stage("." * 95 + "1" * 5), stage("." * 50 + "1" * 50), stage("." * 10 + "1" * 90)
    ('early', 'middle', 'late')
    """
    share = sum(ch in COVERED_CHARS for ch in cells) / len(cells)
    return "early" if share > EARLY else "late" if share <= LATE else "middle"


@dataclass
class Row:
    """The guesses of one rule at one stage, the games lost on them, the mines expected."""

    guesses: int = 0
    lost: int = 0
    expected: float = 0.0


@dataclass
class LossTable:
    """Games, wins and the rows keyed by (rule, stage)."""

    games: int = 0
    wins: int = 0
    rows: dict[tuple[str, str], Row] = field(default_factory=dict)

    def report(self) -> list[str]:
        """A header and one line per row, the most losses first."""
        lines = [
            f"games {self.games}, wins {self.wins}, lost {self.games - self.wins}",
            f"{'rule':12} {'stage':7} {'guesses':>8} {'lost':>6} {'expected':>9} {'mean p':>7}",
        ]
        for (why, when), row in sorted(self.rows.items(), key=lambda kv: -kv[1].lost):
            lines.append(
                f"{why:12} {when:7} {row.guesses:8} {row.lost:6} {row.expected:9.1f} "
                f"{row.expected / max(row.guesses, 1):7.3f}"
            )
        return lines


def tally(config: BenchConfig, start: int, stop: int) -> LossTable:
    """Games ``start`` to ``stop - 1`` of ``config``'s series; a lost game is lost on its last
    guess."""
    table = LossTable()
    for index in range(start, stop):
        seen: list[tuple[str, str, float]] = []

        def watch(cells: Sequence[str], move: Move, seen: list = seen) -> None:
            seen.append((move.why or "unknown", stage(cells), move.p_mine))

        if config.rules == "unsafe" and config.mines:
            # The first click is a guess too (the bench counts it so), at the board's density.
            seen.append((FIRST_CLICK, "early", config.mines / (config.width * config.height)))
        result = play_game(config, index, watch)
        table.games += 1
        table.wins += result.won
        for k, (why, when, p) in enumerate(seen):
            row = table.rows.setdefault((why, when), Row())
            row.guesses += 1
            row.expected += p
            row.lost += not result.won and k == len(seen) - 1
    return table


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m solver.losses``: see the module's docstring."""
    args = series_parser("python -m solver.losses", __doc__).parse_args(argv)
    config = series_config(args)
    table = tally(config, args.start, args.start + args.games)
    print("\n".join(table.report()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
