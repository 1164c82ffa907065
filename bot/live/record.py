"""What one game did (:class:`GameRecord`, kept by the loop while it plays) and how it ended
(:func:`game_result`), with the check of a loss against the mines the game then shows
(:func:`audit_loss`: a misread cannot hide behind a loss).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.live.gamelog import audit_boards
from bot.live.planning import PlannedClick, unopened
from bot.live.summary import GameResult
from bot.live.unclear import PartialReading
from solver.board import EXPLODED, MINE, Board

Position = tuple[int, int]


@dataclass
class GameRecord:
    """What one game has done so far (what its :class:`GameResult` counts)."""

    start: float
    rejected_before: int
    rejections_before: int
    clicks: int = 0
    guesses: int = 0
    misclicks: int = 0
    acted: list[Board] = field(default_factory=list)  # every board the bot acted on
    last_batch: list[PlannedClick] = field(default_factory=list)
    previous: Board | None = None
    safe_clicked: set[Position] = field(default_factory=set)  # opened as proven safe
    clicked: set[Position] = field(default_factory=set)  # every cell clicked, guesses too
    unknown: set[Position] = field(default_factory=set)  # cells of a class the skin lacks

    def note_move(self, board: Board, plan: list[PlannedClick], opened: set[Position]) -> None:
        """Count what ``board`` says of the last clicks (one in ``opened``, a cell of an unknown
        class taken as opened, is no misclick) and keep ``board`` and ``plan``."""
        last = [c for c in self.last_batch if (c.x, c.y) not in opened]
        self.misclicks += sum(unopened(board, [c]) for c in last)
        self.acted.append(board)
        self.guesses += any(c.p_mine > 0 for c in plan)
        self.safe_clicked.update((c.x, c.y) for c in plan if c.p_mine == 0)
        self.clicked.update((c.x, c.y) for c in plan)
        self.clicks += len(plan)
        self.last_batch, self.previous = plan, board


@dataclass(frozen=True)
class LossAudit:
    """A lost game checked: ``problems`` (board index, what is wrong) on the boards the bot
    acted on, ``misreads`` counted, the cell it was lost on and that cell's mine probability."""

    problems: tuple[tuple[int, str], ...]
    misreads: int
    lost_on: Position | None
    lost_p_mine: float | None


def audit_loss(record: GameRecord, final: Board, mines: int) -> LossAudit:
    """Check every board the bot acted on against the mines the lost board ``final`` shows,
    and find the clicked cell the game was lost on (a cell proven safe that held a mine is a
    misread even when no number contradicts the mines).

    Where ``final`` shows no exploded mine (it lies under KMines' end message, or is drawn
    where the skin has no image of it: the loss told from the mines shown), the game was lost
    on the one cell of the last batch ``final`` does not show opened, if only one.

    >>> record = GameRecord(0.0, 0, 0)
    >>> record.last_batch = [PlannedClick(0, 0, 0.0), PlannedClick(2, 0, 0.25)]
    >>> audit_loss(record, Board("1.X\\n.**"), 3).lost_on
    (2, 0)
    >>> lost = audit_loss(record, Board("1..\\n.**"), 3)
    >>> lost.lost_on, lost.lost_p_mine
    ((2, 0), 0.25)
    >>> audit_loss(record, Board("...\\n.**"), 3).lost_on is None  # which one: not known
    True
    """
    problems = tuple(audit_boards(record.acted, final, mines))
    bad_boards = {i for i, _ in problems}
    misreads = len(bad_boards)
    hits = [c for c in record.last_batch if final[c.x, c.y] == EXPLODED]
    if not hits:
        unshown = [c for c in record.last_batch if unopened(final, [c]) or final[c.x, c.y] == MINE]
        hits = unshown if len(unshown) == 1 else []
    if not hits:
        return LossAudit(problems, misreads, None, None)
    lost_on, lost_p = (hits[0].x, hits[0].y), hits[0].p_mine
    if lost_p == 0.0 and not bad_boards:
        misreads += 1  # the solver proved that cell safe: the board it saw was wrong
    return LossAudit(problems, misreads, lost_on, lost_p)


def game_result(
    number: int,
    record: GameRecord,
    reading: Any,
    outcome: str | None,
    seconds: float,
    audit: LossAudit | None,
    rejected: int,
    rejections: Sequence[str],
) -> GameResult:
    """The :class:`GameResult` of game ``number`` (``outcome``: None for the state the last
    ``reading`` shows, or ``'abandoned'``); ``rejected``/``rejections``: the player's totals."""
    outcome = outcome or reading.state
    covered_end = (
        isinstance(reading, PartialReading) and outcome in ("won", "lost") and not reading.unknown
    )
    return GameResult(
        number=number,
        outcome=outcome,
        seconds=round(seconds, 3),
        clicks=record.clicks,
        guesses=record.guesses,
        rejected_frames=rejected - record.rejected_before,
        misreads=audit.misreads if audit else 0,
        misclicks=record.misclicks,
        lost_on=audit.lost_on if audit else None,
        lost_p_mine=audit.lost_p_mine if audit else None,
        rejected_because=tuple(rejections[record.rejections_before :][:5]),
        unknown_cells=tuple(sorted(record.unknown)),
        end_seen="on the cells that read, part of the board covered" if covered_end else "",
    )
