"""The live loop: look at the screen, read the board, ask the solver, click, wait, repeat.

One pass of :meth:`Player.play_game`:

1. grab the game's region until the board has *settled* (:func:`bot.live.looking.settle`);
2. read it whole (:func:`bot.reading.read.read_frame`); a frame that does not read cleanly is
   read again; one that still does not is waited out (a message over the board), or shows the
   game's end on the cells that read, or holds cells of a class the skin lacks, never clicked
   (:mod:`bot.live.unclear`); nothing clears up: the bot stops, nothing clicked;
3. plan (:mod:`bot.live.planning`): on a blank board the first click the game's rules favour,
   else every cell the solver proves safe at once, else one guess;
4. click them (inside the located board, never a cell clicked while the screen has not
   changed), park the pointer, and wait for the board to change and settle again.

The window is watched between moves (closed, moved, resized: stop; the game's own dialogs are
dismissed, :mod:`bot.live.dialogs`). Everything comes in through the constructor.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from bot.errors import PlayError
from bot.live.capture import Frame, Region
from bot.live.dialogs import DialogKeeper, press_over
from bot.live.gamelog import GameLog
from bot.live.looking import (
    STOP_ERRORS,
    Reader,
    Screen,
    Timing,
    Unclear,
    board_crop,
    grids_differ,
    settle,
)
from bot.live.mouse import BoardMouse, Mouse, MouseMapping
from bot.live.planning import (
    ClickLedger,
    PlannedClick,
    assumed_mines,
    first_click,
    is_blank,
    known_mines,
    least_risky_elsewhere,
    plan_clicks,
    plan_despite_flags,
    reading_doubt,
    unopened,
)
from bot.live.program_schema import FIRST_CLICK_RULES
from bot.live.record import GameRecord, audit_loss, game_result
from bot.live.restart import restart_from_skin
from bot.live.session import play_games
from bot.live.summary import GameResult, Summary
from bot.live.unclear import (
    CellView,
    GameAbandoned,
    PartialReading,
    UnknownCellLog,
    as_before,
    covers_revealed,
    end_shown,
    hover_out,
    opened_by_clicks,
    partial_board,
    reading_with_unknown,
    whole_reading,
)
from solver.board import Board
from solver.errors import ContradictionError, MinebotError

Position = tuple[int, int]


class Player:
    """Plays games in one window.

    ``screen`` grabs frames, ``region`` is the desktop part to grab (the game window, or the
    whole desktop), ``mouse``/``mapping`` click, ``located`` is the board already found in it
    (None: found on the first look), ``watch`` (optional) checks the window between moves,
    ``park`` is a desktop point where the pointer rests while waiting, ``mines`` overrides the
    mine count, ``skins`` narrows the search for the board, ``restart`` starts the next game
    (given the player, the last frame and reading; default :func:`restart_from_skin`, which
    uses the skin's ``restart`` and else ``fallback_restart``, the program.json's),
    ``first_click`` is what the game guarantees about its first click
    (:data:`FIRST_CLICK_RULES`), ``dialogs`` the windows the game opens by itself and how to
    dismiss them (program.json), ``log_dir`` keeps each game.
    """

    def __init__(
        self,
        screen: Screen,
        region: Region | None,
        mouse: Mouse | None,
        mapping: MouseMapping,
        *,
        reader: Reader | None = None,
        located: Any = None,
        skins: Sequence[Any] | None = None,
        mines: int | None = None,
        watch: Any = None,
        park: tuple[float, float] | None = None,
        restart: Callable[[Player, Frame, Any], None] = restart_from_skin,
        fallback_restart: dict[str, Any] | None = None,
        first_click: str | None = None,
        dialogs: Sequence[dict[str, Any]] = (),
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
        #: The board found on screen (the reader's ``Located``); None until the first look.
        self.located: Any = located
        #: How to restart when the skin does not say (the launcher's program.json).
        self.fallback_restart = fallback_restart
        #: Dialogs the game opens by itself, how to dismiss them, and what did.
        press = partial(press_over, self) if mouse is not None else None
        dialog_log = log_dir / "dialogs.txt" if log_dir is not None else None
        self.dialog_keeper = DialogKeeper(watch, dialogs, press, out, clock, sleep, dialog_log)
        self.rejected = 0
        #: Why each rejected frame was rejected (what the reader or the solver said).
        self.rejections: list[str] = []
        self._warned_estimate = False
        #: Cells met that read as no class of the skin (never clicked; logged once each).
        self.unknown = UnknownCellLog(log_dir / "unknown" if log_dir else None, out)
        self._game: GameRecord | None = None
        self._mines_shown: int | None = None
        #: When the last restart was asked for (``restart.min_interval`` keeps restarts apart).
        self.last_restart: float | None = None

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
        grid = self.located.grid if self.located else None
        return settle(self.grab, grid, before, self.timing, self.clock, self.sleep)

    def mine_count(self, reading: Any) -> int:
        if self.mines is None and getattr(reading, "mines", None) is not None:
            self._mines_shown = int(reading.mines)
        mines = known_mines(reading, self.mines, getattr(self.located, "skin", None))
        if mines is None:
            mines, warning = assumed_mines(reading.board)
            if not self._warned_estimate:
                self.out(warning)
                self._warned_estimate = True
        return mines

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
                self._rejected(problem)
                self.sleep(max(self.timing.quiet, 0.02) * attempt)
                frame, _ = self.settle()
            done, problem = self._attempt(frame, previous, attempt == tries - 1, want_plan)
            if done is not None:
                return done
            # The window may have moved or been covered: that says more than a bad read.
            self.check_window()
            if self._only_met_unknown(frame, previous):
                break  # cells of an unknown class met already: no more looks needed
        self._rejected(problem)
        return self._wait_out(frame, previous, want_plan, problem)

    def _attempt(
        self, frame: Frame, previous: Board | None, relocate: bool, want_plan: bool
    ) -> tuple[tuple[Frame, Any, list[PlannedClick] | None] | None, str]:
        """One read of ``frame`` and its plan, or None and why it did not read (a misread
        cell, a contradiction: worth another look)."""
        try:
            reading = self._read_once(frame, previous, relocate)
            return (frame, reading, self._plan_after(reading, want_plan)), ""
        except STOP_ERRORS:
            raise
        except (MinebotError, Unclear) as exc:
            return None, str(exc)

    def _rejected(self, problem: str) -> None:
        self.rejected += 1
        self.rejections.append(problem)

    def _plan_after(self, reading: Any, want_plan: bool) -> list[PlannedClick] | None:
        """None when the game is over, [] when no plan is wanted, else the clicks to make
        (never on a cell of an unknown class)."""
        if reading.state != "playing":
            return None
        if not want_plan:
            return []
        unknown = set(getattr(reading, "unknown", ()))
        try:
            plan = self.plan_for(reading.board, self.mine_count(reading))
        except ContradictionError:  # the player's flags, or a misread (raised again)
            plan, note = plan_despite_flags(reading.board, self.mine_count(reading), self.plan)
            self.out(note)
        kept = [c for c in plan if (c.x, c.y) not in unknown]
        if not kept and unknown:
            kept = least_risky_elsewhere(reading.board, self.mine_count(reading), unknown)
        if not kept:
            raise GameAbandoned("no move left but on cells of a class the skin does not know")
        return kept

    def _wait_out(
        self, frame: Frame, previous: Board | None, want_plan: bool, problem: str
    ) -> tuple[Frame, Any, list[PlannedClick] | None]:
        """A frame that still does not read after the quick tries: a message or animation over
        the board (waited out, up to ``cover_timeout`` s), a game that ended (an exploded mine
        on the cells that read), or cells of a class the skin lacks (the same cells doubtful
        for ``unknown_after`` s: see :mod:`bot.live.unclear`). Never a click on a guess."""
        t = self.timing
        start = hovered = self.clock()
        doubt: tuple[Position, ...] = ()
        doubt_since = start
        while True:
            raw = self._view(frame)
            view = None if raw is None else as_before(raw, previous)
            if view is not None and view.doubtful_cells and self.clock() - hovered > t.hover_after:
                hover_out(self, frame, view.doubtful_cells)
                hovered = self.clock()
            if view is not None and raw is not None:
                lost_chars = str(getattr(self.located.skin, "lost_chars", "X"))
                clicked = self._game.clicked if self._game is not None else ()
                if end_shown(view, lost_chars, clicked):
                    board, _ = partial_board(view, view.doubtful_cells)
                    return frame, PartialReading(self.located, board, "lost", None, ()), None
                mines = self.mines if self.mines is not None else self._mines_shown
                same = whole_reading(raw, view, self.located, mines, self.reader.judge)
                if same is not None and not reading_doubt(self.located, previous, same.board):
                    return frame, same, self._plan_after(same, want_plan)
                cells = view.doubtful_cells
                hidden = covers_revealed(cells, previous)  # a message, not an unknown class
                if cells != doubt or hidden:
                    doubt, doubt_since = cells, self.clock()
                met = bool(cells) and not hidden and self._met(frame, cells)
                if cells and (met or self.clock() - doubt_since >= t.unknown_after):
                    try:  # the cells that read are doubted as any board is (a pressed cell)
                        reading = self._with_unknown(frame, view, previous)
                        return frame, reading, self._plan_after(reading, want_plan)
                    except STOP_ERRORS:
                        raise
                    except (MinebotError, Unclear) as exc:
                        problem = str(exc)
                        self._rejected(problem)
            if self.clock() - start > t.cover_timeout:
                raise PlayError(
                    "the screen does not read as a board the bot can trust after "
                    f"{t.cover_timeout:g} s, nothing clicked: {problem}"
                )
            self.sleep(t.cover_poll)
            self.check_window()
            frame, _ = self.settle()
            done, problem = self._attempt(frame, previous, False, want_plan)
            if done is not None:
                return done
            self._rejected(problem)

    def _met(self, frame: Frame, cells: tuple[Position, ...]) -> bool:
        """True when ``cells`` are of an unknown class met already: at their places in this
        game, or looking like a cell met in the run (no need to watch them again)."""
        here = self._game.unknown if self._game is not None else set()
        return set(cells) <= here or self.unknown.looks_met(frame, self.located, cells)

    def _only_met_unknown(self, frame: Frame, previous: Board | None) -> bool:
        """True when what does not read is only cells :meth:`_met`, nothing over the board:
        no need to look again and again (expert games with a few 4s took 20-70 s, not 2)."""
        met_any = (self._game is not None and self._game.unknown) or self.unknown.looks
        view = self._view(frame) if met_any else None
        if view is None or not view.doubtful_cells:
            return False
        return not covers_revealed(view.doubtful_cells, previous) and self._met(
            frame, view.doubtful_cells
        )

    def _view(self, frame: Frame) -> CellView | None:
        """What the classifier makes of each cell (None: no board located, or no view)."""
        if self.located is None:
            return None
        try:
            return self.reader.cells(frame.image, self.located)
        except MinebotError:
            return None

    def _with_unknown(self, frame: Frame, view: CellView, previous: Board | None) -> Any:
        """The board with cells of an unknown class taken as opened cells of unknown number,
        when each certainly is one; else the game is abandoned. Each new such cell is logged
        with the frame and the command that teaches its class."""
        cells = view.doubtful_cells
        self.unknown.note(frame, self.located, cells)
        game = self._game
        if game is not None:
            game.unknown.update(cells)
        safe = opened_by_clicks(self.located.skin, game, view) if game is not None else set()
        mines = self.mines if self.mines is not None else self._mines_shown
        reading = reading_with_unknown(view, self.located, previous, safe, mines, self.reader.judge)
        seen = reading.board.copy()  # the unknown cells are open: not covered beside a 0
        for x, y in cells:
            seen[x, y] = "8"
        doubt = reading_doubt(self.located, previous, seen) if reading.state == "playing" else ""
        if doubt:
            raise Unclear(doubt)
        return reading

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
            # Mid-game the grid that has read is kept: one found afresh under something
            if previous is None:  # passing over the board may be a few pixels off
                self.located = relocated
        reading = self.reader.read(frame.image, self.located)
        playing = reading.state == "playing"
        doubt = reading_doubt(self.located, previous, reading.board) if playing else ""
        if doubt:
            raise Unclear(doubt)
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
        """Stop if the window closed, moved, changed size or got covered; a window the game
        opens by itself is dismissed instead (:class:`bot.live.dialogs.DialogKeeper`)."""
        self.dialog_keeper.check()

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
        record = GameRecord(self.clock(), self.rejected, len(self.rejections))
        self._game = record
        changed = True
        outcome = None
        reading: Any = None
        try:
            while True:
                frame, reading, plan = self._read_when_opened(frame, record, changed, ledger)
                if plan is None:
                    break
                record.note_move(reading.board, plan, set(getattr(reading, "unknown", ())))
                if log:
                    log.moves(log.frame(frame, reading.board), plan)
                frame, changed = self._click(frame, plan, ledger)
        except GameAbandoned as exc:
            outcome = "abandoned"
            self.out(f"game {number} abandoned: {exc}")
        finally:
            self._game = None
        result = self._result(number, record, reading, outcome)
        if log:
            board = reading.board if reading is not None else None
            log.finish(frame, board, asdict(result))
        self.last = (frame, reading)
        return result

    def _read_when_opened(
        self, frame: Frame, record: GameRecord, changed: bool, ledger: ClickLedger
    ) -> tuple[Frame, Any, list[PlannedClick] | None]:
        """Read the board after the last clicks, and plan. Some games draw a click in steps (a
        pressed cell first, the number a moment later): look again until every clicked cell
        shows as opened (a cell of an unknown class is an opened one: not waited for, 1.5 s a
        move) or the screen stops changing for ``late_change_timeout`` s (a loaded machine
        draws a batch of clicks late: KMines at load 16 left 9 clicked cells covered past
        ``change_timeout``, and they counted as misclicks)."""
        frame, reading, plan = self.read(frame, record.previous)
        waited = 0.0
        while changed and plan is not None and unopened(reading.board, record.last_batch, reading):
            frame, changed = self.settle(board_crop(frame.image, self.located.grid))
            if changed:
                ledger.screen_changed()
                frame, reading, plan = self.read(frame, record.previous)
            elif waited < self.timing.late_change_timeout:
                waited += self.timing.change_timeout
                changed = True  # looked again, the cells still covered
        return frame, reading, plan

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
        waited = self.timing.change_timeout
        while not changed and waited < self.timing.late_change_timeout:
            frame, changed = self.settle(before)  # a loaded machine draws late
            waited += self.timing.change_timeout
        if changed:
            ledger.screen_changed()
        return frame, changed

    def _result(
        self, number: int, record: GameRecord, reading: Any, outcome: str | None = None
    ) -> GameResult:
        seconds = self.clock() - record.start  # the game's time, not the audit's
        audit = None
        if (outcome or reading.state) == "lost":
            audit = audit_loss(record, reading.board, self.mine_count(reading))
            for i, problem in audit.problems[:5]:
                self.out(f"misread in game {number}, board {i + 1}: {problem}")
        return game_result(
            number, record, reading, outcome, seconds, audit, self.rejected, self.rejections
        )

    def run(self, games: int, summary: Summary | None = None) -> Summary:
        """Play ``games`` games, restarting between them (:func:`bot.live.session.play_games`)."""
        return play_games(self, games, summary)
