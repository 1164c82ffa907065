"""The live loop: look at the screen, read the board, ask the solver, click, wait, repeat.

One pass of :meth:`Player.play_game`:

1. grab the game's region until the board has *settled* (the board area stopped changing for
   a moment: frames are compared, never a blind sleep);
2. read it (:func:`bot.reading.read.read_frame`); a frame that does not read cleanly (a cell
   below the confidence threshold, a contradiction for the solver, numbers that changed since
   the last reading) is re-read; if it does not clear up the bot stops, nothing clicked;
3. plan: on a blank board the first click the game's rules favour (:func:`first_click`, the
   rules from program.json); else every cell the solver proves safe, all at once (they stay
   safe whatever the others show), else one guess from :func:`solver.moves.choose_move`;
4. click them (only inside the located board, never a cell already clicked while the screen
   has not changed), park the pointer where the game wants it, and wait for the board to
   change and settle again.

The window is watched between moves (closed, moved, resized, covered: stop with a message).
Everything the loop touches comes in through the constructor, so the tests drive it with a
simulated game instead of a screen.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from bot.errors import MouseError, PlayError, ProgramError, WindowError
from bot.live.capture import Frame, Region
from bot.live.gamelog import GameLog, audit_boards
from bot.live.mouse import BoardMouse, Mouse, MouseMapping
from bot.live.programs import FIRST_CLICK_RULES
from solver.board import COVERED, EXPLODED, NUMBERS, QUESTION, Board
from solver.errors import MinebotError

Position = tuple[int, int]

#: Errors that mean "stop now", as opposed to "this frame cannot be trusted" (re-read).
STOP_ERRORS = (MouseError, WindowError, ProgramError, PlayError)


class _Unclear(Exception):
    """A reading that cannot be trusted yet (look again before acting)."""


class Screen(Protocol):
    def grab(self, region: Region | None = None) -> Frame: ...


@dataclass(frozen=True)
class Timing:
    """How the loop waits. ``quiet``: seconds the board must stay unchanged to count as settled;
    ``change_timeout``: seconds a click gets to show on screen; ``poll``: pause between grabs."""

    quiet: float = 0.03
    change_timeout: float = 1.5
    poll: float = 0.004
    reread_tries: int = 4
    settle_timeout: float = 5.0


@dataclass(frozen=True)
class PlannedClick:
    """One cell to open, with the solver's mine probability for it (0.0: proven safe)."""

    x: int
    y: int
    p_mine: float


@dataclass(frozen=True)
class GameResult:
    number: int
    outcome: str  # 'won' | 'lost'
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


@dataclass
class Summary:
    results: list[GameResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> int:
        return sum(r.outcome == "won" for r in self.results)

    @property
    def losses(self) -> int:
        return sum(r.outcome == "lost" for r in self.results)

    def as_dict(self) -> dict[str, Any]:
        games = self.games
        return {
            "games": games,
            "wins": self.wins,
            "losses": self.losses,
            "win_rate": round(self.wins / games, 4) if games else None,
            "misreads": sum(r.misreads for r in self.results),
            "misclicks": sum(r.misclicks for r in self.results),
            "rejected_frames": sum(r.rejected_frames for r in self.results),
            "seconds_per_game": (
                round(sum(r.seconds for r in self.results) / games, 3) if games else None
            ),
            "results": [asdict(r) for r in self.results],
        }

    def line(self) -> str:
        d = self.as_dict()
        if not self.games:
            return "no games played"
        return (
            f"{d['games']} games, {d['wins']} wins ({100 * d['win_rate']:.1f}%), "
            f"{d['losses']} losses, {d['misreads']} misreads, {d['misclicks']} misclicks, "
            f"{d['seconds_per_game']:.2f} s per game"
        )


class ClickLedger:
    """Remembers the cells clicked since the screen last changed; a second click is refused.

    >>> ledger = ClickLedger()
    >>> ledger.record(3, 4)
    >>> try:
    ...     ledger.record(3, 4)
    ... except PlayError as exc:
    ...     print(exc)
    cell (3, 4) was already clicked and the screen has not changed since: stopping
    >>> ledger.screen_changed(); ledger.record(3, 4)
    """

    def __init__(self) -> None:
        self._clicked: set[Position] = set()

    def check(self, x: int, y: int) -> None:
        if (x, y) in self._clicked:
            raise PlayError(
                f"cell ({x}, {y}) was already clicked and the screen has not changed since: "
                "stopping"
            )

    def record(self, x: int, y: int) -> None:
        self.check(x, y)
        self._clicked.add((x, y))

    def screen_changed(self) -> None:
        self._clicked.clear()


def plan_clicks(board: Board, mines: int, choose_move: Callable[..., Any] | None = None,
                probabilities: Callable[..., Any] | None = None) -> list[PlannedClick]:  # fmt: skip
    """The cells to open next: all proven-safe cells, else the policy's single best guess.

    Raises :class:`solver.errors.ContradictionError` when the board has no solution.

    >>> plan_clicks(Board("01.\\n01.\\n01."), mines=1)
    [PlannedClick(x=2, y=0, p_mine=0.0), PlannedClick(x=2, y=2, p_mine=0.0)]
    """
    if probabilities is None:
        from solver.probability import mine_probabilities as probabilities
    analysis = probabilities(board, mines)
    if analysis.safe:
        return [PlannedClick(x, y, 0.0) for x, y in sorted(analysis.safe, key=lambda p: p[::-1])]
    if choose_move is None:
        from solver.moves import choose_move
    move = choose_move(board, mines)
    if move.action != "open":
        # Flags are never needed to win; a policy that wants one gets the least risky cell.
        x, y = min(analysis.covered, key=lambda p: (analysis.probability(*p), p[::-1]))
        return [PlannedClick(x, y, float(analysis.probability(x, y)))]
    p = analysis.probability(move.x, move.y)
    return [PlannedClick(move.x, move.y, float(p if p is not None else move.p_mine))]


#: Where the first click goes under ``opening`` rules, from the top-left corner: far enough
#: from the edges that the guaranteed area touches the most unknown cells (it wins more than a
#: corner: ``minebot bench --rules opening --first-click 3,3`` against ``--first-click corner``).
OPENING_FIRST_CLICK = (3, 3)


def first_click(rules: str | None, width: int, height: int, mines: int) -> PlannedClick:
    """The cell to open on a blank board, the one that wins most under the game's first-click
    ``rules`` (:data:`FIRST_CLICK_RULES`; None: unknown), with its mine probability.

    Under ``opening`` rules :data:`OPENING_FIRST_CLICK`, moved towards the middle on boards too
    small for it; otherwise a corner, the cell most likely to be a zero (fewest neighbours).

    >>> first_click("opening", 30, 16, 99), first_click("opening", 5, 4, 3)
    (PlannedClick(x=3, y=3, p_mine=0.0), PlannedClick(x=2, y=1, p_mine=0.0))
    >>> first_click("classic", 30, 16, 99), first_click(None, 8, 8, 16)
    (PlannedClick(x=0, y=0, p_mine=0.0), PlannedClick(x=0, y=0, p_mine=0.25))
    """
    if rules == "opening":
        x, y = OPENING_FIRST_CLICK
        return PlannedClick(min(x, (width - 1) // 2), min(y, (height - 1) // 2), 0.0)
    p_mine = 0.0 if rules == "classic" else mines / (width * height)
    return PlannedClick(0, 0, p_mine)


def is_blank(board: Board) -> bool:
    """True when no cell of ``board`` is open, flagged or marked (a game not started yet).

    >>> is_blank(Board("..\\n..")), is_blank(Board(".F\\n.."))
    (True, False)
    """
    return all(ch == COVERED for _, ch in board.items())


def inconsistent_cells(before: Board, after: Board) -> list[Position]:
    """Revealed numbers of ``before`` that show something else in ``after`` (a misread: a
    revealed cell never changes while a game runs).

    >>> inconsistent_cells(Board("1.\\n.."), Board("12\\n.."))
    []
    >>> inconsistent_cells(Board("1.\\n.."), Board("2.\\n.."))
    [(0, 0)]
    """
    if (before.width, before.height) != (after.width, after.height):
        return [(0, 0)]
    return [
        (x, y)
        for y in range(before.height)
        for x in range(before.width)
        if before[x, y] in NUMBERS and after[x, y] != before[x, y]
    ]


def grids_differ(a: Any, b: Any) -> bool:
    """True when two grids are not the same board in the same place: other dimensions, or an
    edge more than a quarter cell away (finding a board twice may differ by a pixel).

    >>> from types import SimpleNamespace as G
    >>> g = G(cols=30, rows=16, pitch_x=33.0, pitch_y=33.0, bounds=(25, 114, 1001, 631))
    >>> grids_differ(g, G(cols=30, rows=16, bounds=(26.2, 115, 1001.5, 631)))
    False
    >>> grids_differ(g, G(cols=29, rows=16, bounds=(25, 114, 968, 631)))
    True
    >>> grids_differ(g, G(cols=30, rows=16, bounds=(65, 114, 1041, 631)))
    True
    """
    if (a.cols, a.rows) != (b.cols, b.rows):
        return True
    tolerance = 0.25 * min(a.pitch_x, a.pitch_y)
    return any(abs(p - q) > tolerance for p, q in zip(a.bounds, b.bounds, strict=True))


def board_crop(image: np.ndarray, grid: Any) -> np.ndarray:
    """The part of ``image`` the board covers (what settling and change detection compare)."""
    left, top, right, bottom = (int(round(v)) for v in grid.bounds)
    h, w = image.shape[:2]
    return image[max(top, 0) : min(bottom, h), max(left, 0) : min(right, w)]


@dataclass
class _GameRecord:
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


def _unopened(board: Board, batch: Sequence[PlannedClick]) -> bool:
    """True when a cell of ``batch`` still shows covered (or question-marked) on ``board``."""
    return any(board[c.x, c.y] in (COVERED, QUESTION) for c in batch)


@dataclass(frozen=True)
class Reader:
    """The reading functions the loop uses (:mod:`bot.reading.read` by default)."""

    locate: Callable[..., Any]
    read: Callable[..., Any]

    @classmethod
    def default(cls) -> Reader:
        """:mod:`bot.reading.read`'s functions, reading with one
        :class:`~bot.reading.state.ReaderState` (a reader serves one window)."""
        from functools import partial

        from bot.reading.read import ReaderState, locate_board, read_frame

        return cls(locate_board, partial(read_frame, state=ReaderState()))


class Player:
    """Plays games in one window.

    ``screen`` grabs frames, ``region`` is the desktop part to grab (the game window, or the
    whole desktop), ``mouse``/``mapping`` click, ``watch`` (optional) checks the window between
    moves, ``park`` is a desktop point where the pointer rests while waiting, ``mines`` overrides
    the mine count, ``skins`` narrows the search for the board, ``restart`` starts the next game
    (given the player, the last frame and reading), ``first_click`` is what the game guarantees
    about its first click (:data:`FIRST_CLICK_RULES`), ``log_dir`` keeps each game.
    """

    def __init__(
        self,
        screen: Screen,
        region: Region | None,
        mouse: Mouse | None,
        mapping: MouseMapping,
        *,
        reader: Reader | None = None,
        skins: Sequence[Any] | None = None,
        mines: int | None = None,
        watch: Any = None,
        park: tuple[float, float] | None = None,
        restart: Callable[[Player, Frame, Any], None] | None = None,
        first_click: str | None = None,
        log_dir: Path | None = None,
        timing: Timing = Timing(),  # noqa: B008 (frozen dataclass)
        out: Callable[[str], None] = print,
        plan: Callable[[Board, int], list[PlannedClick]] = plan_clicks,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.screen = screen
        self.region = region
        self.mouse = mouse
        self.mapping = mapping
        self._reader = reader
        self.skins = skins
        self.mines = mines
        self.watch = watch
        self.park = park
        if restart is None:
            # Imported here: bot.live.restart builds on this module.
            from bot.live.restart import restart_from_skin as restart
        self.restart = restart
        if first_click is not None and first_click not in FIRST_CLICK_RULES:
            raise PlayError(
                f"unknown first-click rules {first_click!r}: expected one of "
                + ", ".join(FIRST_CLICK_RULES)
            )
        #: What the game guarantees about the first click (:data:`FIRST_CLICK_RULES`).
        self.first_click = first_click
        self.log_dir = log_dir
        self.timing = timing
        self.out = out
        self.plan = plan
        self.clock = clock
        self.sleep = sleep
        self.located: Any = None
        #: How to restart when the skin does not say (the launcher's program.json).
        self.fallback_restart: dict[str, Any] | None = None
        #: Dialogs the game opens over the board by itself, and how to dismiss them.
        self.dialogs: tuple[dict[str, Any], ...] = ()
        self.rejected = 0
        #: Why each rejected frame was rejected (what the reader or the solver said).
        self.rejections: list[str] = []
        self._warned_estimate = False

    @property
    def reader(self) -> Reader:
        if self._reader is None:
            self._reader = Reader.default()
        return self._reader

    # --- looking ---------------------------------------------------------------------------

    def grab(self) -> Frame:
        return self.screen.grab(self.region)

    def settle(self, before: np.ndarray | None = None) -> tuple[Frame, bool]:
        """Grab until the board area stops changing; with ``before`` (the board area before a
        click), first wait for it to differ. Returns the frame and whether it changed."""
        t = self.timing
        start = self.clock()
        changed = before is None
        last: np.ndarray | None = None
        quiet_since = start
        while True:
            frame = self.grab()
            crop = board_crop(frame.image, self.located.grid) if self.located else frame.image
            now = self.clock()
            if not changed:
                if before is None or crop.shape != before.shape or not np.array_equal(crop, before):
                    changed = True
                    last, quiet_since = crop, now
                elif now - start > t.change_timeout:
                    return frame, False
            elif last is None or crop.shape != last.shape or not np.array_equal(crop, last):
                last, quiet_since = crop, now
            if changed and now - quiet_since >= t.quiet:
                return frame, True
            if now - start > t.settle_timeout + t.change_timeout:
                raise PlayError(
                    f"the board did not stop changing for {t.settle_timeout:.0f} s: stopping"
                )
            self.sleep(t.poll)

    def mine_count(self, reading: Any) -> int:
        if self.mines is not None:
            return self.mines
        if getattr(reading, "mines", None) is not None:
            return int(reading.mines)
        board = reading.board
        estimate = max(1, round(0.16 * board.width * board.height))
        if not self._warned_estimate:
            self.out(
                f"warning: the mine count is not shown and not given (--mines): assuming "
                f"{estimate} for a {board.width}x{board.height} board"
            )
            self._warned_estimate = True
        return estimate

    def read(
        self, frame: Frame, previous: Board | None = None, want_plan: bool = True
    ) -> tuple[Frame, Any, list[PlannedClick] | None]:
        """Read ``frame`` (re-grabbing until it reads cleanly) and plan the next clicks.

        Returns the frame the reading came from, the reading, and the plan (None when the game
        is over; empty when ``want_plan`` is false). A frame that does not read is read again
        from fresh frames with the same grid (an animation, a pressed cell); the last try
        locates the board afresh, and stops the bot if it moved. Stops with
        :class:`PlayError` when the screen does not clear up.
        """
        problem = ""
        tries = self.timing.reread_tries
        for attempt in range(tries):
            if attempt:
                self.rejected += 1
                self.rejections.append(problem)
                self.sleep(max(self.timing.quiet, 0.02) * attempt)
                frame, _ = self.settle()
            try:
                reading = self._read_once(frame, previous, relocate=attempt == tries - 1)
                if reading.state != "playing":
                    return frame, reading, None
                if not want_plan:
                    return frame, reading, []
                return frame, reading, self.plan_for(reading.board, self.mine_count(reading))
            except STOP_ERRORS:
                raise
            except (MinebotError, _Unclear) as exc:
                # The window may have moved or been covered: that says more than a bad read.
                self.check_window()
                problem = str(exc)  # a misread cell, a contradiction: look again
        raise PlayError(
            f"the screen does not read as a board the bot can trust after {tries} tries, "
            f"nothing clicked: {problem}"
        )

    def _read_once(self, frame: Frame, previous: Board | None, relocate: bool) -> Any:
        if self.located is None:
            self.located = self.reader.locate(frame.image, self.skins)
        elif relocate:
            relocated = self.reader.locate(frame.image, self.skins)
            if previous is not None and grids_differ(relocated.grid, self.located.grid):
                raise PlayError(
                    "the board moved or changed size while playing: stopping "
                    "(start again to play the new board)"
                )
            self.located = relocated
        reading = self.reader.read(frame.image, self.located)
        if previous is not None and reading.state == "playing":
            changed = inconsistent_cells(previous, reading.board)
            if changed:
                raise _Unclear(
                    "revealed cells changed between two readings (a misread): "
                    + ", ".join(f"({x}, {y})" for x, y in changed[:8])
                )
        return reading

    def plan_for(self, board: Board, mines: int) -> list[PlannedClick]:
        """The clicks to make on ``board``: on a blank board the first click that wins most
        under the game's rules (:func:`first_click`), else what :attr:`plan` says."""
        if is_blank(board):
            return [first_click(self.first_click, board.width, board.height, mines)]
        return self.plan(board, mines)

    # --- acting ----------------------------------------------------------------------------

    def board_mouse(self, frame: Frame) -> BoardMouse:
        if self.mouse is None:
            raise PlayError("no mouse: this player only gives hints")
        return BoardMouse(self.mouse, self.mapping, frame, self.located.grid)

    def park_pointer(self) -> None:
        if self.mouse is not None and self.park is not None:
            self.mouse.move(*self.mapping.to_mouse(*self.park))

    def check_window(self) -> None:
        """Stop if the window closed, moved, changed size or got covered; a dialog the game
        opens by itself (program.json ``"dialogs"``, e.g. a high-score table after a win) is
        dismissed instead."""
        if self.watch is None:
            return
        from bot.live.window import WindowCoveredError

        for _ in range(3):
            try:
                self.watch.check()
                return
            except WindowCoveredError as exc:
                known = [
                    (w, d)
                    for w in exc.windows
                    for d in self.dialogs
                    if re.search(d["title"], w.name)
                ]
                if not known or len(known) != len(exc.windows) or self.mouse is None:
                    raise
                self.dismiss(*known[0])
        self.watch.check()

    def dismiss(self, window: Any, dialog: dict[str, Any]) -> None:
        """Close a dialog of the game: pointer over it (the focus follows the pointer on a bare
        X server), its key, then wait for it to go."""
        assert self.mouse is not None
        r = window.region
        self.mouse.move(*self.mapping.to_mouse(r.left + r.width / 2, r.top + r.height / 4))
        self.mouse.press(dialog["key"])
        deadline = self.clock() + 3.0
        while self.clock() < deadline:
            if all(w.id != window.id for w in self.watch.backend.windows()):
                break
            self.sleep(0.02)
        self.park_pointer()

    # --- playing ---------------------------------------------------------------------------

    def play_game(self, number: int) -> GameResult:
        """Play the game on screen to its end and return how it went."""
        log = GameLog(self.log_dir / f"game-{number:03d}") if self.log_dir else None
        try:
            return self._play_game(number, log)
        finally:
            if log is not None:
                log.close()

    def _play_game(self, number: int, log: GameLog | None) -> GameResult:
        ledger = ClickLedger()
        self.check_window()
        self.park_pointer()
        frame, _ = self.settle()
        record = _GameRecord(self.clock(), self.rejected, len(self.rejections))
        changed = True
        while True:
            frame, reading, plan = self._read_when_opened(frame, record, changed, ledger)
            if plan is None:
                break
            self._note_move(record, frame, reading.board, plan, log)
            frame, changed = self._click(frame, plan, ledger)
        result = self._result(number, record, reading)
        if log:
            log.finish(frame, reading.board, asdict(result))
        self._last = (frame, reading)
        return result

    def _read_when_opened(
        self, frame: Frame, record: _GameRecord, changed: bool, ledger: ClickLedger
    ) -> tuple[Frame, Any, list[PlannedClick] | None]:
        """Read the board after the last clicks, and plan. Some games draw a click in steps (a
        pressed cell first, the number a moment later): look again until every clicked cell
        shows as opened or the screen stops changing."""
        frame, reading, plan = self.read(frame, record.previous)
        while changed and plan is not None and _unopened(reading.board, record.last_batch):
            frame, changed = self.settle(board_crop(frame.image, self.located.grid))
            if changed:
                ledger.screen_changed()
                frame, reading, plan = self.read(frame, record.previous)
        return frame, reading, plan

    def _note_move(
        self,
        record: _GameRecord,
        frame: Frame,
        board: Board,
        plan: list[PlannedClick],
        log: GameLog | None,
    ) -> None:
        """Count what the board says of the last clicks, and keep the board and the plan."""
        record.misclicks += sum(_unopened(board, [c]) for c in record.last_batch)
        record.acted.append(board)
        if log:
            log.moves(log.frame(frame, board), plan)
        record.guesses += any(c.p_mine > 0 for c in plan)
        record.clicks += len(plan)
        record.last_batch, record.previous = plan, board

    def _click(
        self, frame: Frame, plan: list[PlannedClick], ledger: ClickLedger
    ) -> tuple[Frame, bool]:
        """Click every cell of ``plan`` (none if any was clicked since the screen last changed),
        park the pointer and wait for the board to change and settle."""
        self.check_window()
        bm = self.board_mouse(frame)
        for c in plan:
            ledger.check(c.x, c.y)
        before = board_crop(frame.image, self.located.grid)
        for c in plan:
            ledger.record(c.x, c.y)
            bm.click_cell(c.x, c.y)
        self.park_pointer()
        frame, changed = self.settle(before)
        if changed:
            ledger.screen_changed()
        return frame, changed

    def _result(self, number: int, record: _GameRecord, reading: Any) -> GameResult:
        seconds = self.clock() - record.start  # the game's time, not the audit's
        misreads, lost_on, lost_p = 0, None, None
        if reading.state == "lost":
            misreads, lost_on, lost_p = self._audit_loss(number, record, reading)
        return GameResult(
            number=number,
            outcome=reading.state,
            seconds=round(seconds, 3),
            clicks=record.clicks,
            guesses=record.guesses,
            rejected_frames=self.rejected - record.rejected_before,
            misreads=misreads,
            misclicks=record.misclicks,
            lost_on=lost_on,
            lost_p_mine=lost_p,
            rejected_because=tuple(self.rejections[record.rejections_before :][:5]),
        )

    def _audit_loss(
        self, number: int, record: _GameRecord, reading: Any
    ) -> tuple[int, Position | None, float | None]:
        """Misreads found after a loss, the cell the game was lost on and its mine probability.

        Most games show every mine after a loss: each board the bot acted on is checked."""
        board = reading.board
        audit = audit_boards(record.acted, board, self.mine_count(reading))
        bad_boards = {i for i, _ in audit}
        misreads = len(bad_boards)
        for i, problem in audit[:5]:
            self.out(f"misread in game {number}, board {i + 1}: {problem}")
        hits = [c for c in record.last_batch if board[c.x, c.y] == EXPLODED]
        if not hits:
            return misreads, None, None
        lost_on, lost_p = (hits[0].x, hits[0].y), hits[0].p_mine
        if lost_p == 0.0 and not bad_boards:
            misreads += 1  # the solver proved that cell safe: the board it saw was wrong
        return misreads, lost_on, lost_p

    def start_fresh(self) -> None:
        """If the screen shows a finished game, start a new one first."""
        frame, _ = self.settle()
        frame, reading, plan = self.read(frame)
        if plan is None:
            self.restart(self, frame, reading)

    def run(self, games: int) -> Summary:
        """Play ``games`` games, restarting between them; a line per game, then the summary."""
        summary = Summary()
        self.start_fresh()
        for number in range(1, games + 1):
            result = self.play_game(number)
            summary.results.append(result)
            extra = ""
            if result.outcome == "lost" and result.lost_on is not None:
                extra = f", lost on {result.lost_on} (p={result.lost_p_mine:.3f})"
            self.out(
                f"game {number}/{games}: {result.outcome} in {result.seconds:.2f} s "
                f"({result.clicks} clicks, {result.guesses} guesses{extra})"
            )
            if number < games:
                frame, reading = self._last
                self.restart(self, frame, reading)
        return summary
