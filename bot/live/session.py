"""A run of games in one window (what :meth:`bot.live.play.Player.run` does): a finished game
left on screen is restarted first, then each game is played to its end and the next one
started, every game added to the run's :class:`~bot.live.summary.Summary` as it ends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from bot.live.capture import Frame
from bot.live.summary import DONE, GameResult, Summary
from bot.live.unclear import GameAbandoned


class Player(Protocol):
    """What a run needs of the player (:class:`bot.live.play.Player` is one)."""

    restart: Callable[[Any, Frame, Any], None]
    out: Callable[[str], None]
    dialog_keeper: Any
    #: The last frame and reading of the game just played.
    last: tuple[Frame, Any]

    def settle(self, before: np.ndarray | None = None) -> tuple[Frame, bool]: ...

    def read(
        self, frame: Frame, previous: Any = None, want_plan: bool = True
    ) -> tuple[Frame, Any, Any]: ...

    def play_game(self, number: int) -> GameResult: ...


def start_fresh(player: Player, summary: Summary) -> None:
    """If the screen shows a finished game, or one that cannot go on without a guess about a
    cell the bot cannot read, start a new one first."""
    frame, _ = player.settle()
    try:
        frame, reading, plan = player.read(frame)
    except GameAbandoned as exc:
        player.out(f"the game on screen is not played on ({exc}): starting a new one")
        reading, plan = None, None
    if plan is None:
        player.restart(player, frame, reading)
        summary.restarts += 1


def play_games(player: Player, games: int, summary: Summary | None = None) -> Summary:
    """Play ``games`` games, restarting between them; a line per game.

    Each game is added to ``summary`` (the caller's, so that it holds every game played however
    the run ends: an error, Ctrl-C), whose ``stopped_because`` says :data:`DONE` when every
    game was played."""
    if summary is None:
        summary = Summary()
    summary.games_wanted = games
    start_fresh(player, summary)
    for number in range(1, games + 1):
        result = player.play_game(number)
        summary.results.append(result)
        player.out(result.line(games))
        if number < games:
            frame, reading = player.last
            player.restart(player, frame, reading)
            summary.restarts += 1
        summary.dialogs[:] = player.dialog_keeper.worked
    summary.stopped_because = DONE
    return summary
