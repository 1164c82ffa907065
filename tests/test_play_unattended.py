"""The live loop unattended: unknown cell classes, messages over the board, restarts the game
turns down or lets pass; driven by a simulated game.

See :mod:`tests.play_world` for the simulated game."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bot.errors import PlayError
from bot.live.capture import Region
from bot.live.looking import Timing
from bot.live.planning import zeros_beside_covered
from solver.board import Board
from solver.game import Game
from tests.play_world import (
    MARGIN,
    UNKNOWN,
    Located,
    SkinStub,
    World,
    fake_locate,
    fake_reader,
    make_player,
    min_risk_plan,
)

# --- unattended: unknown cell classes, messages over the board ----------------------------


class SimulatedClock:
    """Time that passes only when the player sleeps (and a millisecond per look at the clock):
    waits measured in seconds cost no real time."""

    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        self.now += 0.001
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_an_unknown_digit_is_never_clicked_and_the_game_goes_on(tmp_path):
    world = World(16, 16, 40, seed=21)
    world.unknown_class = "3"  # the skin has never seen a 3
    time = SimulatedClock()
    player, _ = make_player(world, log_dir=tmp_path, clock=time.clock, sleep=time.sleep)
    summary = player.run(4)
    assert summary.games == 4 and world.clicked_open == []
    d = summary.as_dict()
    assert d["unknown_cells"] > 0 and d["wins"] + d["losses"] + d["abandoned"] == 4
    assert d["wins"] >= 1  # going on with the 3s as opened cells of unknown number
    assert d["misclicks"] == 0  # a 3 the bot opened is an opened cell, not a click lost
    notes = sorted((tmp_path / "unknown").glob("unknown-*-teach.txt"))
    assert notes and "minebot tune" in notes[0].read_text()
    assert list((tmp_path / "unknown").glob("unknown-01-cell-*.png"))
    # The command given passes the frame to tune, which reads a NAME.txt beside NAME.png as
    # that screenshot's text board: the note there made the command fail ("unknown character").
    frames = sorted((tmp_path / "unknown").glob("unknown-[0-9][0-9].png"))
    assert frames and not any(f.with_suffix(".txt").exists() for f in frames)
    note = json.loads((tmp_path / "unknown" / "unknown-01.json").read_text())
    for x, y in note["cells"]:  # each logged cell really is a 3 on that game's board
        assert world.outcomes or world.game.board[x, y] in "3."


def test_an_unknown_cell_not_surely_opened_abandons_the_game_and_restarts():
    def corner_number(seed):  # the unprotected first click in the corner shows a number
        game = Game(9, 9, 10, rules="unsafe", seed=seed)
        if game.is_mine(0, 0):
            return False
        game.open(0, 0)
        return game.board[0, 0] in "12345678"

    seed = next(s for s in range(200) if corner_number(s))
    world = World(9, 9, 10, seed=seed, rules="unsafe")
    world.unknown_class = "12345678"  # no digit reads
    player, _ = make_player(world)
    summary = player.run(2)
    assert summary.results[0].outcome == "abandoned"
    assert summary.results[0].unknown_cells == ((0, 0),)
    assert world.restarts == 1 and summary.restarts == 1
    assert world.clicked_open == [] and summary.as_dict()["abandoned"] >= 1
    # A skin that knows how a loss looks (its mine): the guess showed no mine, so it opened
    # the cell, whose number is unknown, and the game goes on without clicking it.
    world = World(9, 9, 10, seed=seed, rules="unsafe")
    world.unknown_class = "12345678"
    skin = type("Skin", (), {"name": "fake", "meta": {}, "templates": {"mine": None}})()

    def locate(image, skins=None):
        return Located(skin, fake_locate(image).grid)

    player, _ = make_player(world, reader=fake_reader(locate=locate, mines=10))
    summary = player.run(1)
    assert summary.results[0].outcome in ("won", "lost") and world.clicked_open == []
    assert (0, 0) in summary.results[0].unknown_cells and summary.results[0].clicks > 1


def test_a_game_on_screen_that_cannot_go_on_is_restarted_first():
    """The screen at the start shows a cell of a class the skin lacks, not certainly opened:
    that game is not played on (nor counted), a new one is started (it was an uncaught
    GameAbandoned, a traceback)."""

    def corner_number(seed):
        game = Game(9, 9, 10, rules="unsafe", seed=seed)
        return not game.is_mine(0, 0) and bool(game.open(0, 0)) and game.board[0, 0] != "0"

    world = World(9, 9, 10, seed=next(s for s in range(200) if corner_number(s)), rules="unsafe")
    world.game.open(0, 0)
    world.unknown_class = "12345678"  # no digit reads: the corner's number is no known class
    lines: list[str] = []
    player, _ = make_player(world, out=lines.append)
    summary = player.run(1)
    assert world.restarts == 1 and summary.restarts == 1 and summary.games == 1
    assert any("not played on" in line for line in lines)


def test_a_message_over_the_board_at_the_end_is_waited_out():
    world = World(9, 9, 20, seed=4)
    world.cover = (1, 2, 7, 3)  # "You have lost." over three rows
    timing = Timing(quiet=0.0, change_timeout=0.05, late_change_timeout=0.1, reread_tries=3,
                    cover_timeout=5.0, unknown_after=4.0, cover_poll=0.01)  # fmt: skip

    def restart(player, frame, reading):
        world.restart(player, frame, reading)
        world.cover_grabs = 12  # the next game's end shows the message again

    world.cover_grabs = 12
    player, _ = make_player(world, timing=timing, restart=restart)
    summary = player.run(6)
    world.outcomes.append(world.game.state)
    assert [r.outcome for r in summary.results] == world.outcomes
    assert summary.abandoned == 0 and summary.restarts == 5
    assert all(r.rejected_frames > 0 for r in summary.results)  # each end was covered
    # a loss whose exploded mine lies outside the message is counted without waiting
    assert any(r.outcome == "lost" and r.end_seen for r in summary.results)


def test_a_message_staying_longer_than_unknown_after_is_still_waited_out():
    """KMines' "You have lost." (then its "Reset?" dialog) stayed over the board longer than
    ``unknown_after``: the covered cells, numbers read before among them, were taken for a class
    the skin lacks and the lost game was abandoned. An opened cell never changes: a number
    become unreadable is something over it, waited out up to ``cover_timeout``."""
    world = World(9, 9, 20, seed=4)
    world.cover = (0, 0, 9, 9)  # the whole board: no exploded mine shows beside it
    time = SimulatedClock()
    timing = Timing(quiet=0.0, change_timeout=0.05, late_change_timeout=0.1, reread_tries=3,
                    cover_timeout=60.0, unknown_after=1.0, cover_poll=0.1)  # fmt: skip

    def restart(player, frame, reading):
        world.restart(player, frame, reading)
        world.cover_grabs = 100  # several simulated seconds: longer than unknown_after

    world.cover_grabs = 100
    player, _ = make_player(
        world, timing=timing, restart=restart, clock=time.clock, sleep=time.sleep
    )
    summary = player.run(4)
    world.outcomes.append(world.game.state)
    assert [r.outcome for r in summary.results] == world.outcomes
    assert summary.abandoned == 0 and summary.as_dict()["unknown_cells"] == 0
    assert all(r.rejected_frames > 0 for r in summary.results)  # each end was covered


def test_a_message_that_stays_until_the_pointer_moves_is_hovered_out():
    """KMines' end message stays while the game takes the pointer to be over it (a hover at the
    place of the click that ended the game, delivered when its dialog closed, the pointer gone
    already): the bot passes the pointer over it and off the board, never clicking, and the
    message goes."""
    world = World(9, 9, 20, seed=4)
    world.cover = (1, 2, 7, 3)
    time = SimulatedClock()
    timing = Timing(quiet=0.0, change_timeout=0.05, late_change_timeout=0.1, reread_tries=3,
                    cover_timeout=12.0, unknown_after=4.0, cover_poll=0.1)  # fmt: skip

    def restart(player, frame, reading):
        world.restart(player, frame, reading)
        world.cover_grabs, world.cover_stuck = 10, True

    world.cover_grabs, world.cover_stuck = 10, True
    player, pointer = make_player(
        world, timing=timing, restart=restart, clock=time.clock, sleep=time.sleep
    )
    clicks = len(world.opened)
    summary = player.run(4)
    world.outcomes.append(world.game.state)
    assert [r.outcome for r in summary.results] == world.outcomes
    assert summary.abandoned == 0 and summary.stopped_because == "done"
    assert len(world.opened) - clicks == sum(r.clicks for r in summary.results)
    assert pointer.pos == player.park  # parked again after each pass over the message


def test_a_restart_turned_down_is_a_clear_error_not_an_abandoned_game():
    """The game asked to confirm the restart and the answer was no: the old board, with cells
    the skin does not know, is still there. The run stops with a message (and its summary),
    not with the reader's GameAbandoned escaping from the restart."""
    from types import SimpleNamespace

    from bot.live.looking import Timing
    from bot.live.restart import wait_for_new_game
    from bot.live.unclear import GameAbandoned

    world = World(8, 8, 1, seed=5)
    grid = fake_locate(world.render()).grid

    class OldBoard:
        located = Located(SkinStub("stub", {}), grid)
        timing = Timing()
        reads = 0

        def settle(self, before=None):
            return SimpleNamespace(image=world.render()), True

        def read(self, frame, previous=None, want_plan=True):
            self.reads += 1
            raise GameAbandoned("cells of a class the skin does not know: (3, 4)")

    player = OldBoard()
    with pytest.raises(PlayError, match=r"did not restart: still the old board, cells of a class"):
        wait_for_new_game(player, np.zeros((2, 2, 3), np.uint8))
    assert player.reads == Timing().reread_tries


def _restarting_player(spec: dict):
    """World, player, pointer and clock of an 8x8 simulated game whose skin restarts as
    ``spec`` (a program.json ``restart``) says, on a simulated clock."""
    from bot.live.restart import restart_from_skin

    world = World(8, 8, 1, seed=5)
    located = Located(SkinStub("stub", {"restart": spec}), fake_locate(world.render()).grid)
    time = SimulatedClock()
    player, pointer = make_player(
        world, restart=restart_from_skin, located=located, clock=time.clock, sleep=time.sleep
    )
    return world, player, pointer, time


def test_restarts_are_kept_apart_when_the_game_deals_from_the_clock():
    """``restart.min_interval``: Wine's Minesweeper dealt the same layout again when restarted
    within a second (the same lost game four times in a row); restarts then wait it out."""
    for apart, least in ((0.0, 0.0), (1.0, 1.0)):
        world, player, pointer, time = _restarting_player({"key": "F2", "min_interval": apart})
        pressed: list[float] = []

        def press(key, world=world, pressed=pressed, time=time):
            pressed.append(time.now)
            world.restart(None, None, None)

        pointer.press = press
        summary = player.run(4)
        assert summary.games == 4 and len(pressed) == 3
        gaps = [b - a for a, b in zip(pressed, pressed[1:], strict=False)]
        assert min(gaps) >= least
        if not apart:
            assert max(gaps) < 1.0  # the simulated games are quick: they would come this close


def test_the_logged_teach_command_keeps_a_restart_button(tmp_path, monkeypatch):
    """The `minebot tune` command logged for a cell of an unknown class, run as given, keeps the
    skin's restart by a button: tune writes the skin's class pictures anew, and the button's
    picture went with them (the next restart stopped the run)."""
    import shutil

    import cv2

    from bot.cli import main
    from bot.live.unclear import teach_command
    from bot.reading.skins import find_skin

    src = Path(__file__).resolve().parent / "fixtures" / "xbomb"
    for name in ("expert-fresh.png", "expert-mid.png", "expert-mid.txt", "expert-first.png"):
        shutil.copy(src / name, tmp_path)
    cv2.imwrite(str(tmp_path / "face.png"), cv2.imread(str(src / "expert-fresh.png"))[3:22, 4:60])
    monkeypatch.chdir(tmp_path)
    skins = tmp_path / "skins"
    shots = ["expert-fresh.png", "expert-mid.png"]
    assert main(["tune", *shots, "--name", "tx", "--out", str(skins),
                 "--restart-button", "face.png", "--first-click", "opening"]) == 0  # fmt: skip
    command = teach_command(find_skin("tx", dirs=[skins]), tmp_path / "expert-first.png")
    assert command.startswith("minebot tune ")
    assert main(command.split()[1:]) == 0  # the skin written again
    program = json.loads((skins / "tx" / "program.json").read_text())
    assert program["restart"] == {"button": "restart-button.png"}
    assert program["first_click"] == "opening"
    assert (skins / "tx" / "restart-button.png").is_file()


def test_a_game_started_by_minebot_gets_no_qt_setting_of_opencv(tmp_path):
    """opencv-python points Qt at its own plugins when imported (QT_QPA_PLATFORM_PLUGIN_PATH):
    KMines started with that environment failed ("Could not load the Qt platform plugin xcb")
    and its window never appeared. The game's environment leaves them out."""
    import os

    import cv2  # noqa: F401 (sets the variables, as in minebot itself)

    from bot.errors import ProgramError
    from bot.live.programs import Program, RunningGame

    assert "cv2" in os.environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", "cv2")
    seen = tmp_path / "env.txt"
    program = Program.from_dict("qtgame", {
        "command": ["sh", "-c", "env > \"$SEEN\""], "env": {"SEEN": str(seen)},
        "window": {"class": "qtgame"}, "start_timeout": 1,
    })  # fmt: skip

    class NoWindows:
        def windows(self):
            return []

    with pytest.raises(ProgramError, match="window did not appear"):
        RunningGame(program, 9, 9, 10, dict(os.environ), windows=NoWindows()).start()
    lines = seen.read_text().splitlines()
    assert any(line.startswith("SEEN=") for line in lines)
    assert not [line for line in lines if line.startswith("QT_QPA_") and "cv2" in line]


def test_a_dialog_of_the_game_open_at_the_start_is_left_to_the_player():
    """KMines' "Reset?" left open when the run began: play stopped at once ("the board of
    'KMines' is covered by 'Reset? — KMines'") instead of closing it as program.json says.
    Another program's window over the board still stops it before anything else."""
    from bot.live.attach import _watch_board
    from bot.live.window import WindowCoveredError, WindowInfo

    game = WindowInfo(1, "KMines", ("kmines", "kmines"), Region(0, 0, 512, 410))
    board = Region(17, 90, 480, 256)
    over = Region(160, 140, 190, 90)

    class Stack:
        def __init__(self, *windows):
            self.stack = [game, *windows]

        def windows(self):
            return list(self.stack)

    xterm = WindowInfo(3, "xterm", ("xterm", "XTerm"), over)
    with pytest.raises(WindowCoveredError, match="covered by 'xterm'"):
        _watch_board(Stack(xterm), game, board)

    reset = WindowInfo(2, "Reset? — KMines", ("kmines", "kmines"), over)
    stack = Stack(reset)
    watch = _watch_board(stack, game, board)
    player, pointer = make_player(
        World(8, 8, 1, seed=5), watch=watch, dialogs=[{"title": "^Reset", "key": "Escape"}]
    )
    player.dialog_keeper.clock = iter(range(0, 1000, 1)).__next__  # no 3 s waits
    pressed = []

    def press(key):
        pressed.append(key)
        stack.stack.remove(reset)

    pointer.press = press
    player.check_window()
    assert pressed == ["Escape"] and player.dialog_keeper.worked == ["Reset? — KMines: Escape"]


def test_a_restart_the_game_let_pass_is_made_once_more():
    """KMines, its "High Scores" dialog just closed after a win, let the click on "New" pass:
    the board changed (the message went) but still showed the won game, and the run stopped
    ("did not restart: still won"). The restart is made once more; twice in vain still stops."""
    for lost_presses, games in ((1, 3), (2, 1)):
        world, player, pointer, time = _restarting_player({"key": "F2"})
        presses: list[str] = []

        def press(key, world=world, presses=presses, lost=lost_presses):
            presses.append(key)
            if len(presses) > lost:
                world.restart(None, None, None)

        pointer.press = press
        if games == 1:
            with pytest.raises(PlayError, match="did not restart"):
                player.run(2)
            assert len(presses) == 2
            continue
        summary = player.run(games)
        assert summary.games == games and summary.restarts == games - 1
        assert len(presses) == games  # one restart needed a second press


def test_a_restart_lost_to_a_dialog_opening_after_the_win_is_made_again_at_once():
    """KMines opens "High Scores" a moment after the winning click; a click on "New" made
    before it shows is lost to it. The dialog covering the board is closed and the restart made
    again at once (it cost about 10 s of waiting for a game that was not coming, 4 of 40)."""
    from functools import partial

    from bot.live.dialogs import press_over
    from bot.live.window import WindowInfo, WindowWatch

    world, player, pointer, time = _restarting_player({"key": "F2"})
    player.timing = Timing()  # the real waits, on the simulated clock
    game_window = WindowInfo(1, "KMines", ("kmines",), world.region)
    scores = WindowInfo(2, "High Scores — KMines", ("kmines",), world.region)

    class Stack:
        """The game's windows: "High Scores" opens two looks after a key lost to it."""

        def __init__(self):
            self.looks = -1  # looks since the key was lost (-1: none lost)

        @property
        def dialog(self):
            return self.looks >= 2

        def windows(self):
            return [game_window, scores] if self.dialog else [game_window]

    stack = Stack()
    render = world.render

    def render_with_dialog():
        image = render()
        if stack.looks >= 0:
            stack.looks += 1
        if stack.dialog:
            image[MARGIN:-MARGIN, MARGIN:-MARGIN] = UNKNOWN  # the dialog over the board
        return image

    world.render = render_with_dialog
    player.dialog_keeper = type(player.dialog_keeper)(
        WindowWatch(stack, game_window, world.region), [{"title": "^High", "key": "Escape"}],
        partial(press_over, player), player.out, time.clock, time.sleep,
    )  # fmt: skip
    presses: list[tuple[str, float]] = []

    def press(key):
        presses.append((key, time.now))
        if key == "Escape" and stack.dialog:
            stack.looks = -1
        elif key == "F2" and len(presses) == 1:
            stack.looks = 0  # the first restart, made as the game ended: lost to the dialog
        elif key == "F2":
            world.restart(None, None, None)

    pointer.press = press
    summary = player.run(2)
    assert summary.games == 2 and summary.stopped_because == "done"
    assert [k for k, _ in presses] == ["F2", "Escape", "F2"]
    assert presses[2][1] - presses[0][1] < 1.0  # made again at once, not after the waits


def test_cells_of_an_unknown_class_met_in_the_game_are_not_looked_at_again_and_again():
    """Once a cell of an unknown class has been waited on, the moves after it read the board
    at once, a cell looking like it is of that class at sight, and a clicked cell showing one
    is opened: each move looked 4 times (the last with a fresh locate), each new 4 was watched
    for 4 s and each 4 clicked waited 1.5 s to show as opened, and expert Wine Minesweeper
    games with a few 4s lasted 20-70 s instead of 2."""
    locates = []

    def counting_locate(image, skins=None):
        locates.append(1)
        return fake_locate(image, skins)

    world = World(16, 16, 40, seed=21)
    world.unknown_class = "3"
    time = SimulatedClock()
    player, _ = make_player(
        world, reader=fake_reader(locate=counting_locate, mines=40), clock=time.clock,
        sleep=time.sleep, timing=Timing(),
    )  # fmt: skip
    summary = player.run(4)
    d = summary.as_dict()
    assert d["games"] == 4 and d["unknown_cells"] > 0 and world.clicked_open == []
    # the board located once (and afresh once after the first unknown cell), and each class
    # waited on once: before, every such move looked 4 times, and each new 3 was watched 4 s
    assert len(locates) <= 3, len(locates)
    assert time.now < 15, time.now  # simulated seconds: 169 before, 39 when waited for


def test_a_usual_level_without_a_mine_count_is_played_to_its_end():
    """Wine's Minesweeper shows no count minebot reads and its skin was tuned at expert only:
    on intermediate (16x16, 40) the bot assumed 16 % of the cells, 41 mines, and the first
    game won stopped the run ("1 mines are left to place, but ... at most 0"). A usual level's
    size now means its usual count."""
    world = World(16, 16, 40, seed=3, rules="classic")
    lines: list[str] = []
    player, _ = make_player(world, reader=fake_reader(mines=None), out=lines.append)
    summary = player.run(5)
    assert summary.games == 5 and summary.stopped_because == "done"
    assert "warning: the mine count is not shown and not given (--mines): assuming 40" in lines[0]


def test_a_pressed_cell_beside_an_unknown_one_is_never_planned_on():
    """The same, with cells of an unknown class on the board: taken at once as opened cells
    (met already), the rest of the frame was not doubted, and a pressed cell read as a 0 was
    planned on (Wine's Minesweeper, its 4s untaught: "the number at x=19, y=3 cannot be
    satisfied" stopped the run)."""
    planned: list[Board] = []
    world = World(16, 16, 40, seed=21)

    def plan(board, mines):
        seen = board.copy()  # the unknown cells, passed on as covered, shown as they are
        for (x, y), ch in world.game.board.items():
            if ch == "3" and seen[x, y] == ".":
                seen[x, y] = "3"
        planned.append(seen)
        return min_risk_plan(board, mines)

    world.unknown_class = "3"
    world.pressed_frames, world.pressed_char = 2, "0"
    time = SimulatedClock()
    player, _ = make_player(world, clock=time.clock, sleep=time.sleep)
    player.plan = plan
    summary = player.run(4)
    assert summary.games == 4 and summary.stopped_because == "done"
    assert planned and not any(zeros_beside_covered(board) for board in planned)
