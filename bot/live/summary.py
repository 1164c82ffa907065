"""How each game went (:class:`GameResult`) and the run's :class:`Summary`: what ``minebot play``
prints on every exit, as a line or as one JSON object.

>>> s = Summary(games_wanted=3)
>>> s.results.append(GameResult(1, "won", 2.0, 10, 0, 0, 0, 0))
>>> s.results.append(GameResult(2, "abandoned", 1.0, 4, 1, 0, 0, 0, unknown_cells=((3, 4),)))
>>> s.stopped_because = "interrupted (Ctrl-C)"
>>> d = s.as_dict()
>>> d["games"], d["wins"], d["abandoned"], d["unknown_cells"], d["stopped_because"]
(2, 1, 1, 1, 'interrupted (Ctrl-C)')
>>> for part in s.line().split("; "): print(part)  # doctest: +ELLIPSIS
2 of 3 games, 1 wins (50.0%, 95% interval 9.4-90.5%), 0 losses, 1 abandoned, ... per game
1 cells of an unknown class
stopped: interrupted (Ctrl-C)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from solver.bench import wilson_interval

Position = tuple[int, int]

#: ``Summary.stopped_because`` when every game asked for was played.
DONE = "done"


@dataclass(frozen=True)
class GameResult:
    """One game: ``outcome`` is ``'won'``, ``'lost'`` or ``'abandoned'`` (the bot gave the game
    up without a guess: a cell it cannot read blocked the only way on)."""

    number: int
    outcome: str
    seconds: float
    clicks: int
    guesses: int
    rejected_frames: int
    misreads: int
    misclicks: int
    lost_on: Position | None = None
    lost_p_mine: float | None = None
    #: Why frames were read again (first few), for the log.
    rejected_because: tuple[str, ...] = ()
    #: Cells met whose class the skin does not know (never clicked; see the game log).
    unknown_cells: tuple[Position, ...] = ()
    #: How the end was seen when a message or animation covered part of the board.
    end_seen: str = ""

    def line(self, games: int) -> str:
        """The progress line of this game out of ``games``.

        >>> GameResult(2, "lost", 1.5, 9, 1, 0, 0, 0, lost_on=(3, 4), lost_p_mine=0.25).line(5)
        'game 2/5: lost in 1.50 s (9 clicks, 1 guesses, lost on (3, 4) (p=0.250))'
        """
        extra = ""
        if self.outcome == "lost" and self.lost_on is not None:
            extra = f", lost on {self.lost_on} (p={self.lost_p_mine:.3f})"
        return (
            f"game {self.number}/{games}: {self.outcome} in {self.seconds:.2f} s "
            f"({self.clicks} clicks, {self.guesses} guesses{extra})"
        )


@dataclass
class Summary:
    """The run so far; the loop appends to it game by game, so whoever holds it can report
    however the run ends (``stopped_because``: :data:`DONE`, or why it stopped early)."""

    games_wanted: int = 0
    results: list[GameResult] = field(default_factory=list)
    restarts: int = 0
    stopped_because: str = ""
    #: Dialogs dismissed, as "title: key" (what worked, for the user's program.json).
    dialogs: list[str] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    def count(self, outcome: str) -> int:
        return sum(r.outcome == outcome for r in self.results)

    @property
    def wins(self) -> int:
        return self.count("won")

    @property
    def losses(self) -> int:
        return self.count("lost")

    @property
    def abandoned(self) -> int:
        return self.count("abandoned")

    def as_dict(self) -> dict[str, Any]:
        games = self.games
        low, high = wilson_interval(self.wins, games)
        return {
            "games": games,
            "games_wanted": self.games_wanted,
            "wins": self.wins,
            "losses": self.losses,
            "abandoned": self.abandoned,
            "win_rate": round(self.wins / games, 4) if games else None,
            "win_rate_interval": [round(low, 4), round(high, 4)] if games else None,
            "misreads": sum(r.misreads for r in self.results),
            "misclicks": sum(r.misclicks for r in self.results),
            "restarts": self.restarts,
            "unknown_cells": sum(len(r.unknown_cells) for r in self.results),
            "rejected_frames": sum(r.rejected_frames for r in self.results),
            "seconds_per_game": (
                round(sum(r.seconds for r in self.results) / games, 3) if games else None
            ),
            "dialogs": list(self.dialogs),
            "stopped_because": self.stopped_because,
            "results": [asdict(r) for r in self.results],
        }

    def line(self) -> str:
        d = self.as_dict()
        stopped = "" if self.stopped_because == DONE else f"; stopped: {self.stopped_because}"
        if not self.games:
            return f"no games played{stopped}"
        low, high = d["win_rate_interval"]
        unknown = f"; {d['unknown_cells']} cells of an unknown class" if d["unknown_cells"] else ""
        return (
            f"{d['games']} of {self.games_wanted} games, {d['wins']} wins "
            f"({100 * d['win_rate']:.1f}%, 95% interval {100 * low:.1f}-{100 * high:.1f}%), "
            f"{d['losses']} losses, {d['abandoned']} abandoned, {d['misreads']} misreads, "
            f"{d['misclicks']} misclicks, {d['restarts']} restarts, "
            f"{d['seconds_per_game']:.2f} s per game{unknown}{stopped}"
        )
