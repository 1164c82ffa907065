"""Paired comparisons of policy variants: every game of a series played by each variant.

A change to the guessing policy moves the win rate by a few tenths of a point at most, far less
than the noise of two separate runs. Played on the same seeds, both variants meet the same mine
layouts, and only the games that one wins and the other loses tell them apart: a sign test on
those is the comparison (:func:`sign_test`).

A variant is a set of overrides of module constants of the solver (``solver.policy.TIE=0``),
applied before each of its games and undone after. One process plays every variant of a game in
turn, so the CPU times compare too. A JSON-lines log keeps one line per chunk of games, and a run
resumes after its last line::

    python -m solver.paired --level expert --games 20000 --seed 21 --log run.jsonl \\
        --variant base --variant pb0 solver.policy.PROGRESS_BONUS=0.0

>>> sign_test(60, 40) < 0.06 < sign_test(55, 45)
True
>>> parse_override("solver.policy.LOOKAHEAD_FRONTIER=12")
('solver.policy', 'LOOKAHEAD_FRONTIER', 12)
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from math import comb, erfc, sqrt
from pathlib import Path

from solver.bench import BenchConfig, play_game
from solver.errors import MinebotError
from solver.game import LEVELS

Override = tuple[str, str, object]

#: Games per line of the log.
CHUNK = 200


def parse_override(text: str) -> Override:
    """``module.NAME=value`` (a Python literal) as (module, name, value); solver modules only."""
    target, sep, raw = text.partition("=")
    module, _dot, name = target.rpartition(".")
    if not sep or not module.startswith("solver.") or not name:
        raise MinebotError(f"expected solver.module.NAME=value, got {text!r}")
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError) as exc:
        raise MinebotError(f"{raw!r} is not a Python literal") from exc
    if not hasattr(importlib.import_module(module), name):
        raise MinebotError(f"{module} has no {name}")
    return module, name, value


@contextmanager
def overridden(overrides: Sequence[Override]) -> Iterator[None]:
    """The overrides in force inside the block, the old values back after it."""
    saved = []
    try:
        for module, name, value in overrides:
            mod = importlib.import_module(module)
            saved.append((mod, name, getattr(mod, name)))
            setattr(mod, name, value)
        yield
    finally:
        for mod, name, old in reversed(saved):
            setattr(mod, name, old)


def sign_test(a_only: int, b_only: int) -> float:
    """Two-sided p-value that games won by one side only split this evenly by chance."""
    m, k = a_only + b_only, min(a_only, b_only)
    if m == 0:
        return 1.0
    if m > 1000:  # normal approximation, continuity corrected
        return min(1.0, erfc(max(0.0, abs(a_only - b_only) - 1) / sqrt(m) / sqrt(2)))
    return min(1.0, 2 * sum(comb(m, i) for i in range(k + 1)) / 2**m)


@dataclass
class Tally:
    """Per-game wins (0/1, in game order) and CPU seconds of each variant."""

    wins: dict[str, list[int]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    stop: int = 0

    def add(self, line: dict) -> None:
        for name, wins in line["wins"].items():
            self.wins.setdefault(name, []).extend(wins)
            self.seconds[name] = self.seconds.get(name, 0.0) + line["seconds"][name]
        self.stop = max(self.stop, line["stop"])

    def report(self, base: str) -> list[str]:
        """One line per variant: wins, CPU per game, and the paired figures against ``base``."""
        games = len(self.wins[base])
        lines = [f"games {games}"]
        for name, wins in self.wins.items():
            won = sum(wins)
            line = (
                f"{name}: {won} wins ({100 * won / max(games, 1):.2f}%), "
                f"{self.seconds[name] / max(games, 1):.4f} CPU s/game"
            )
            if name != base:
                a = sum(1 for x, y in zip(wins, self.wins[base], strict=True) if x > y)
                b = sum(1 for x, y in zip(wins, self.wins[base], strict=True) if y > x)
                line += f"; only {name} {a}, only {base} {b}, sign test p={sign_test(a, b):.4f}"
            lines.append(line)
        return lines


def play_paired(
    config: BenchConfig,
    variants: dict[str, list[Override]],
    start: int,
    stop: int,
    log: Path | None = None,
) -> Tally:
    """Games ``start`` to ``stop - 1`` of ``config``'s series, each played by every variant.

    With ``log``, lines already there are taken as played and new chunks are appended.
    """
    tally = Tally(stop=start)
    if log is not None and log.exists():
        for text in log.read_text().splitlines():
            tally.add(json.loads(text))
    while tally.stop < stop:
        end = min(tally.stop + CHUNK, stop)
        line: dict = {"start": tally.stop, "stop": end, "wins": {}, "seconds": {}}
        for name in variants:
            line["wins"][name], line["seconds"][name] = [], 0.0
        for index in range(tally.stop, end):
            for name, overrides in variants.items():
                with overridden(overrides):
                    result = play_game(config, index)
                line["wins"][name].append(int(result.won))
                line["seconds"][name] += result.seconds
        if log is not None:
            with log.open("a") as f:
                f.write(json.dumps(line) + "\n")
        tally.add(line)
    return tally


def series_parser(prog: str, description: str | None) -> argparse.ArgumentParser:
    """A command line that names a series of games: board, rules, first click, seed, range."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--level", choices=sorted(LEVELS), default="expert")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--first-click", default="corner")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--games", type=int, default=1000)
    return parser


def series_config(args: argparse.Namespace) -> BenchConfig:
    """The series :func:`series_parser`'s arguments name, played with the ``best`` strategy."""
    level = LEVELS[args.level]
    return BenchConfig(
        level.width, level.height, level.mines, args.rules, args.first_click, "best", args.seed
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m solver.paired``: see the module's docstring."""
    parser = series_parser("python -m solver.paired", __doc__)
    parser.add_argument("--log", type=Path)
    parser.add_argument(
        "--variant",
        nargs="+",
        action="append",
        metavar=("NAME", "OVERRIDE"),
        required=True,
        help="a name, then its overrides (none: the code as it is); the first is the base",
    )
    args = parser.parse_args(argv)
    config = series_config(args)
    try:
        variants = {name: [parse_override(o) for o in rest] for name, *rest in args.variant}
    except MinebotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    tally = play_paired(config, variants, args.start, args.start + args.games, args.log)
    print("\n".join(tally.report(args.variant[0][0])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
