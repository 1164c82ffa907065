"""The live loop, driven by a simulated game instead of a screen.

The "screen" renders the simulator's board as pixels (one grey level per cell character), the
"reader" decodes them, the "mouse" turns a click at a pointer position back into a cell and
opens it in the simulator. Everything between (settling, re-reading, planning, the click guards,
the ledger, logging) is the real code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from bot.errors import MouseError, PlayError, WindowError
from bot.live.capture import Frame, Region
from bot.live.looking import Reader, Timing
from bot.live.mouse import Mouse, MouseMapping
from bot.live.planning import ClickLedger, inconsistent_cells, plan_clicks, zeros_beside_covered
from bot.live.play import Player
from bot.reading.grid import Grid
from solver.board import Board
from solver.errors import MinebotError
from solver.game import Game

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
PITCH = 6
MARGIN = 4
FAST = Timing(
    quiet=0.0,
    change_timeout=0.05,
    late_change_timeout=0.1,
    poll=0.0,
    reread_tries=3,
    cover_timeout=0.3,
    unknown_after=0.1,
    cover_poll=0.0,
)
STATES = {"playing": 0, "won": 1, "lost": 2}
UNKNOWN = 1  # the grey level of a cell the simulated reader cannot read


class FakeNotFound(MinebotError):
    pass


class FakeLowConfidence(MinebotError):
    pass


@dataclass(frozen=True)
class Located:
    skin: str
    grid: Grid
    scale: float = 1.0


@dataclass(frozen=True)
class Reading:
    located: Located
    board: Board
    state: str
    mines: int | None
    min_confidence: float = 1.0


class World:
    """A simulated game on a simulated screen, with a simulated pointer."""

    def __init__(self, width=9, height=9, mines=10, seed=1, rules="opening", at=(100, 50)):
        self.size = (width, height, mines)
        self.seed = seed
        self.rules = rules
        self.game = Game(width, height, mines, rules=rules, seed=seed)
        w, h = width * PITCH + 2 * MARGIN, height * PITCH + 2 * MARGIN
        self.region = Region(at[0], at[1], w, h)
        self.grabs = 0
        self.opened: list[tuple[int, int]] = []
        self.ignore_clicks = False
        self.restarts = 0
        self.pressed_frames = 0  # grabs that still show the clicked cell "pressed", not opened
        self.pressed_char = "?"  # how a pressed cell looks ("0": like an opened empty cell)
        self.unknown_class = ""  # board characters drawn in a way the reader does not know
        self.cover: tuple[int, int, int, int] | None = None  # x, y, w, h of cells covered
        self.cover_grabs = 0  # grabs the cover stays after the game ends
        self.cover_stuck = False  # the cover stays until the pointer passes over it and away
        self.over_cover = False
        self.outcomes: list[str] = []  # each game's true outcome, at its restart
        self.clicked_open: list[tuple[int, int]] = []  # clicks on opened cells it cannot read
        self._pressed: list[tuple[Board, tuple[int, int]]] = []

    def render(self) -> np.ndarray:
        w, h = self.region.width, self.region.height
        image = np.full((h, w, 3), 200, np.uint8)
        board = self.game.board
        if self._pressed:
            board, (px, py) = self._pressed.pop()
            board = board.copy()
            board[px, py] = self.pressed_char  # not opened yet, drawn unlike a covered cell
        for (x, y), ch in board.items():
            top, left = MARGIN + y * PITCH, MARGIN + x * PITCH
            image[top : top + PITCH, left : left + PITCH] = (
                UNKNOWN if ch in self.unknown_class else ord(ch)
            )
        if (
            self.cover is not None
            and self.game.state != "playing"
            and (self.cover_grabs > 0 or self.cover_stuck)
        ):
            self.cover_grabs -= 1  # a message over the board at the game's end, for a while
            cx, cy, cw, ch_ = self.cover
            image[MARGIN + cy * PITCH : MARGIN + (cy + ch_) * PITCH,
                  MARGIN + cx * PITCH : MARGIN + (cx + cw) * PITCH] = UNKNOWN  # fmt: skip
        image[0, 0] = STATES[self.game.state]
        return image

    def grab(self, region=None):
        assert region == self.region
        self.grabs += 1
        return Frame(self.render(), self.region)

    def restart(self, player, frame, reading):
        self.outcomes.append(self.game.state)
        self.restarts += 1
        self._pressed = []
        self.seed += 1
        self.game = Game(*self.size, rules=self.rules, seed=self.seed)

    def pointer_at(self, mx, my):
        """KMines' end message: hovered, it stays; left, it goes (if its time is up)."""
        if self.cover is None or self.game.state == "playing":
            return  # shown at the game's end only
        cx, cy, cw, ch = self.cover
        fx, fy = mx - self.region.left - MARGIN, my - self.region.top - MARGIN
        inside = cx * PITCH <= fx < (cx + cw) * PITCH and cy * PITCH <= fy < (cy + ch) * PITCH
        if self.over_cover and not inside:
            self.cover_stuck = False
        self.over_cover = inside

    def click_at(self, mx, my):
        fx, fy = mx - self.region.left, my - self.region.top
        x, y = int((fx - MARGIN) // PITCH), int((fy - MARGIN) // PITCH)
        assert 0 <= x < self.size[0] and 0 <= y < self.size[1], "click outside the board"
        self.opened.append((x, y))
        if self.game.board[x, y] != "." and self.game.board[x, y] in self.unknown_class:
            self.clicked_open.append((x, y))  # a cell shown as no class the reader knows
        self._pressed = [(self.game.board, (x, y))] * self.pressed_frames
        if not self.ignore_clicks and self.game.state == "playing":
            self.game.open(x, y)


class Pointer:
    FailSafeException = RuntimeError

    def __init__(self, world):
        self.world = world
        self.FAILSAFE = True
        self.pos = (640, 512)
        self.down = False

    def position(self):
        return self.pos

    def size(self):
        return (1280, 1024)

    def moveTo(self, x, y):  # noqa: N802
        self.pos = (x, y)
        self.world.pointer_at(x, y)

    def mouseDown(self, button="left"):  # noqa: N802
        self.down = True

    def mouseUp(self, button="left"):  # noqa: N802
        if self.down:
            self.world.click_at(*self.pos)
        self.down = False

    def press(self, key):
        pass


def fake_locate(image, skins=None):
    h, w = image.shape[:2]
    cols, rows = (w - 2 * MARGIN) // PITCH, (h - 2 * MARGIN) // PITCH
    if cols <= 0 or rows <= 0:
        raise FakeNotFound("no board")
    return Located("fake", Grid(MARGIN, MARGIN, PITCH, PITCH, cols, rows))


def fake_view(image, located):
    """Every cell's character ('?' where unreadable) and the unreadable ones."""
    from bot.live.unclear import CellView

    g = located.grid
    levels = np.array(
        [[image[MARGIN + y * PITCH + 1, MARGIN + x * PITCH + 1, 0] for x in range(g.cols)]
         for y in range(g.rows)]
    )  # fmt: skip
    doubtful = levels == UNKNOWN
    chars = tuple("".join("?" if v == UNKNOWN else chr(v) for v in row) for row in levels)
    return CellView(chars, doubtful)


def fake_judge(board, skin, mines):
    from types import SimpleNamespace

    from bot.reading.read import game_state

    return game_state(board, SimpleNamespace(lost_chars="X"), mines)


def fake_read(image, located, mines=None):
    view = fake_view(image, located)
    if view.doubtful.any():
        raise FakeLowConfidence(f"cells {view.doubtful_cells} do not read")
    state = {v: k for k, v in STATES.items()}[int(image[0, 0, 0])]
    return Reading(located, Board("\n".join(view.chars)), state, mines)


def fake_reader(read=None, locate=fake_locate, mines=None):
    if read is None:

        def read(im, loc):
            return fake_read(im, loc, mines)

    return Reader(locate, read, fake_view, fake_judge)


def min_risk_plan(board, mines):
    from solver.probability import mine_probabilities

    class Move:
        def __init__(self, x, y, p):
            self.action, self.x, self.y, self.p_mine = "open", x, y, p

    def choose(board, mines):
        a = mine_probabilities(board, mines)
        x, y = min(a.covered, key=lambda p: (a.probability(*p), p[1], p[0]))
        return Move(x, y, float(a.probability(x, y)))

    return plan_clicks(board, mines, choose_move=choose)


def make_player(world, reader=None, **kwargs):
    pointer = kwargs.pop("pointer", None) or Pointer(world)
    kwargs.setdefault("restart", world.restart)
    kwargs.setdefault("timing", FAST)
    mouse = Mouse(pointer)
    player = Player(
        world,
        world.region,
        mouse,
        MouseMapping(1.0, 1.0),
        reader=reader or fake_reader(mines=world.size[2]),
        out=kwargs.pop("out", lambda line: None),
        plan=min_risk_plan,
        park=(world.region.left + 1, world.region.top + 1),
        **kwargs,
    )
    return player, pointer


def test_plays_whole_games_to_their_end():
    world = World(9, 9, 10, seed=3)
    player, _ = make_player(world)
    summary = player.run(8)
    assert summary.games == 8 and summary.wins + summary.losses == 8
    assert world.restarts == 7
    d = summary.as_dict()
    assert d["misreads"] == 0 and d["misclicks"] == 0
    for r in summary.results:
        if r.outcome == "lost":
            assert r.lost_p_mine is not None and r.lost_p_mine > 0  # only ever lost on a guess
    # never the same cell twice within a game
    assert len(world.opened) == sum(r.clicks for r in summary.results)


def test_wins_a_board_that_needs_no_guess():
    # Opening rules on an 8x8 board with 1 mine: after the first click everything is proven.
    world = World(8, 8, 1, seed=5)
    player, _ = make_player(world)
    result = player.run(3).results
    assert [r.outcome for r in result] == ["won"] * 3
    assert all(r.guesses == 1 for r in result)  # only the first click


def first_moves(log_dir, games):
    return [
        json.loads((log_dir / f"game-{n:03d}" / "moves.jsonl").read_text().splitlines()[0])
        for n in range(1, games + 1)
    ]


@pytest.mark.parametrize(("rules", "cell"), [("opening", (3, 3)), ("classic", (0, 0))])
def test_first_click_on_a_blank_board_follows_the_games_rules(tmp_path, rules, cell):
    # Opening rules: (3, 3) from the corner opens an area; classic: a corner, safe. No guess.
    world = World(9, 9, 10, seed=3, rules=rules)
    player, _ = make_player(world, first_click=rules, log_dir=tmp_path)
    results = player.run(3).results
    assert [(m["x"], m["y"], m["p_mine"]) for m in first_moves(tmp_path, 3)] == [(*cell, 0.0)] * 3
    assert all(r.lost_on != cell for r in results)
    if rules == "opening":
        assert all(Board((tmp_path / f"game-{n:03d}" / "002.txt").read_text())[cell] == "0"
                   for n in (1, 2, 3))  # fmt: skip


def test_first_click_on_a_small_board_stays_near_the_middle():
    world = World(5, 4, 3, seed=2, rules="opening")
    player, _ = make_player(world, first_click="opening")
    player.run(1)
    assert world.opened[0] == (2, 1)


def test_first_click_without_known_rules_is_a_counted_guess_in_a_corner():
    world = World(8, 8, 1, seed=5)
    player, _ = make_player(world)
    plan = player.plan_for(Board.covered(8, 8), 1)
    assert [(c.x, c.y, c.p_mine) for c in plan] == [(0, 0, 1 / 64)]
    assert player.plan_for(Board("0" + "." * 7 + ("\n" + "." * 8) * 7), 1) == min_risk_plan(
        Board("0" + "." * 7 + ("\n" + "." * 8) * 7), 1
    )


def test_unknown_first_click_rules_are_refused():
    with pytest.raises(PlayError, match="unknown first-click rules 'middle'"):
        make_player(World(8, 8, 1), first_click="middle")


def test_first_click_rules_come_from_program_json(tmp_path, monkeypatch):
    from bot.errors import ProgramError
    from bot.live.programs import load_program

    assert load_program("gnome-mines").first_click == "opening"
    assert load_program("xdemineur").first_click == "pre-opened"
    shipped = json.loads((TEMPLATES / "gnome-mines" / "program.json").read_text())
    (tmp_path / "gnome-mines").mkdir()
    (tmp_path / "gnome-mines" / "program.json").write_text(
        json.dumps({**shipped, "first_click": "middle"})
    )
    monkeypatch.setenv("MINEBOT_SKINS", str(tmp_path))
    with pytest.raises(
        ProgramError, match=r"gnome-mines/program.json: key 'first_click': 'middle' is not one of"
    ):
        load_program("gnome-mines")


def test_cells_drawn_in_steps_are_waited_for():
    world = World(9, 9, 10, seed=3)
    world.pressed_frames = 3
    player, _ = make_player(world)
    summary = player.run(3)
    assert summary.as_dict()["misclicks"] == 0 and summary.as_dict()["misreads"] == 0
    assert len(world.opened) == sum(r.clicks for r in summary.results)


def test_a_pressed_cell_that_looks_opened_empty_is_never_planned_on():
    """KMines draws a cell held down like an opened empty cell: a frame caught between the press
    and the release (a loaded machine) showed a 0 beside covered cells, and the bot opened its
    neighbours as proven safe (a mine among them). A 0 beside a covered cell is looked at
    again."""
    planned: list[Board] = []

    def plan(board, mines):
        planned.append(board.copy())
        return min_risk_plan(board, mines)

    world = World(9, 9, 10, seed=3)
    world.pressed_frames, world.pressed_char = 2, "0"
    player, _ = make_player(world)
    player.plan = plan
    summary = player.run(3)
    assert planned and summary.as_dict()["misreads"] == 0
    assert not any(zeros_beside_covered(board) for board in planned)
    assert sum(r.rejected_frames for r in summary.results) > 0  # seen, looked at again


def test_finished_game_on_screen_is_restarted_first():
    world = World(8, 8, 1, seed=5)
    world.game.open(0, 0)
    while world.game.state == "playing":
        cell = next((x, y) for (x, y), ch in world.game.board.items() if ch == ".")
        world.game.open(*cell)
    player, _ = make_player(world)
    player.run(1)
    assert world.restarts == 1


def test_a_misread_frame_is_read_again():
    world = World(9, 9, 10, seed=3)
    calls = {"n": 0}

    def flaky_read(image, located):
        calls["n"] += 1
        if calls["n"] == 2:
            raise FakeLowConfidence("cell (3, 4) below threshold")
        return fake_read(image, located, 10)

    player, _ = make_player(world, reader=fake_reader(flaky_read))
    result = player.run(1).results[0]
    assert result.rejected_frames == 1
    assert result.outcome in ("won", "lost")


def test_a_board_that_never_reads_cleanly_stops_without_clicking():
    world = World(9, 9, 10, seed=3)

    def bad_read(image, located):
        raise FakeLowConfidence("cell (3, 4) has confidence 0.41")

    player, _ = make_player(world, reader=fake_reader(bad_read))
    with pytest.raises(PlayError, match=r"nothing clicked: cell \(3, 4\)"):
        player.run(1)
    assert world.opened == []


def test_a_contradictory_board_stops_without_clicking():
    world = World(9, 9, 10, seed=3)

    def contradictory(image, located):
        reading = fake_read(image, located, 10)
        return Reading(reading.located, Board("3" + "." * 8 + ("\n" + "." * 9) * 8), "playing", 1)

    player, _ = make_player(world, reader=fake_reader(contradictory), mines=1)
    with pytest.raises(PlayError, match="nothing clicked"):
        player.run(1)
    assert world.opened == []


def _flagged_reader(rows: list[str], mines: int = 10):
    """A reader that always shows ``rows`` (a board with a player's flag on it)."""

    def read(image, located):
        reading = fake_read(image, located, mines)
        return Reading(reading.located, Board("\n".join(rows)), "playing", 1)

    return fake_reader(read)


def test_a_player_s_wrong_flag_is_named_and_played_around():
    """A flag beside a 0 contradicts the numbers: the bot says which flag, plans on the board
    without it and never clicks the flagged cell (no misread, no stop on the contradiction)."""
    world = World(9, 9, 10, seed=3)
    rows = ["F0" + "." * 7, *["." * 9] * 8]
    lines: list[str] = []
    player, _ = make_player(world, reader=_flagged_reader(rows), mines=10, out=lines.append)
    with pytest.raises(PlayError, match="already clicked"):  # the screen never changes here
        player.run(1)
    assert world.opened and (0, 0) not in world.opened
    assert set(world.opened) <= {(2, 0), (0, 1), (1, 1), (2, 1)}  # the 0's other neighbours
    assert any("the flag at (0, 0) contradicts the numbers" in line for line in lines)


def test_safe_cells_only_under_wrong_flags_stop_with_the_flags_named():
    world = World(5, 5, 3, seed=3)
    # Without the flag the numbers prove (3, 2) safe, and no other cell.
    rows = ["0001.", "1112.", "1.1F.", "11111", "00000"]
    player, _ = make_player(world, reader=_flagged_reader(rows, 3), mines=3)
    with pytest.raises(PlayError, match=r"under the player's flags at \(3, 2\): remove"):
        player.run(1)
    assert world.opened == []


def test_changed_numbers_between_readings_stop_the_bot():
    world = World(9, 9, 10, seed=3)
    seen = {"with_numbers": 0}

    def drifting(image, located):
        reading = fake_read(image, located, 10)
        if any(ch in "12345678" for _, ch in reading.board.items()):
            seen["with_numbers"] += 1
        if seen["with_numbers"] < 3:
            return reading
        # from the third reading on, the reader sees every revealed number as something else
        board = reading.board.copy()
        for (x, y), ch in reading.board.items():
            if ch in "12345678":
                board[x, y] = "0"
        return Reading(reading.located, board, reading.state, 10)

    player, _ = make_player(world, reader=fake_reader(drifting))
    with pytest.raises(PlayError, match=r"nothing clicked: revealed cells changed"):
        player.run(1)
    assert len(world.opened) == len(set(world.opened))


def test_clicks_without_effect_are_never_repeated():
    world = World(9, 9, 10, seed=3)
    world.ignore_clicks = True
    player, _ = make_player(world)
    with pytest.raises(PlayError, match="already clicked and the screen has not changed"):
        player.run(1)
    assert len(world.opened) == len(set(world.opened)) == 1


def test_window_trouble_stops_the_bot():
    world = World(9, 9, 10, seed=3)

    class Watch:
        checks = 0

        def check(self):
            Watch.checks += 1
            if Watch.checks > 2:
                raise WindowError("the game window 'Mines' moved from (0, 0) to (40, 0): stopping")

    player, _ = make_player(world, watch=Watch())
    with pytest.raises(WindowError, match="moved"):
        player.run(1)
    assert len(world.opened) >= 1  # it played until the window moved ...
    opened = len(world.opened)
    assert Watch.checks == 3 and len(world.opened) == opened  # ... and not a click after


def test_board_that_moves_is_a_clear_stop():
    world = World(9, 9, 10, seed=3)
    moved = {"on": False}

    def locate(image, skins=None):
        located = fake_locate(image, skins)
        if moved["on"]:
            return Located("fake", Grid(MARGIN + PITCH, MARGIN, PITCH, PITCH, 9, 9))
        return located

    def read(image, located):
        if moved["on"] and located.grid.left == MARGIN:
            raise FakeLowConfidence("grid does not fit")
        return fake_read(image, located, 10)

    player, pointer = make_player(world, reader=fake_reader(read, locate))
    original = pointer.mouseUp

    def up(button="left"):
        original(button)
        moved["on"] = True

    pointer.mouseUp = up
    with pytest.raises(PlayError, match="moved or changed size"):
        player.run(1)


def test_ctrl_c_during_a_click_releases_the_button():
    world = World(9, 9, 10, seed=3)
    player, pointer = make_player(world)

    def interrupted(button="left"):
        pointer.down = True
        raise KeyboardInterrupt

    pointer.mouseDown = interrupted
    with pytest.raises(KeyboardInterrupt):
        player.run(1)
    assert pointer.down is False  # mouseUp ran


def test_failsafe_corner_stops_the_bot():
    world = World(9, 9, 10, seed=3)
    player, pointer = make_player(world)

    def move(x, y):
        raise RuntimeError("corner")  # what pyautogui raises when the pointer is in a corner

    pointer.moveTo = move
    with pytest.raises(MouseError, match="failsafe"):
        player.run(1)
    assert world.opened == []


def test_log_keeps_frames_boards_and_moves(tmp_path):
    world = World(8, 8, 1, seed=5)
    player, _ = make_player(world, log_dir=tmp_path)
    player.run(2)
    game = tmp_path / "game-001"
    assert (game / "001.png").is_file() and (game / "final.png").is_file()
    assert Board((game / "001.txt").read_text()).width == 8
    moves = [json.loads(line) for line in (game / "moves.jsonl").read_text().splitlines()]
    assert moves[0]["frame"] == 1 and moves[0]["action"] == "open"
    result = json.loads((game / "result.json").read_text())
    assert result["outcome"] == "won" and result["clicks"] == len(moves)
    assert (tmp_path / "game-002" / "result.json").is_file()


def test_json_summary_has_the_issue_fields():
    world = World(8, 8, 1, seed=5)
    player, _ = make_player(world)
    d = player.run(2).as_dict()
    for key in ("games", "wins", "losses", "misreads", "seconds_per_game"):
        assert key in d
    assert d["games"] == 2 and d["wins"] == 2 and d["win_rate"] == 1.0


# --- pieces ------------------------------------------------------------------------------


def test_plan_takes_every_safe_cell_at_once():
    board = Board("01.\n01.\n01.")
    plan = plan_clicks(board, 1)
    assert {(c.x, c.y) for c in plan} == {(2, 0), (2, 2)}
    assert all(c.p_mine == 0.0 for c in plan)


def test_plan_guesses_with_the_policy_when_nothing_is_safe():
    class Move:
        action, x, y, p_mine = "open", 0, 1, 0.5

    plan = plan_clicks(Board("1.\n.."), 1, choose_move=lambda b, m: Move())
    assert [(c.x, c.y) for c in plan] == [(0, 1)]
    assert plan[0].p_mine == pytest.approx(float(Fraction(1, 3)))


def test_ledger_resets_when_the_screen_changes():
    ledger = ClickLedger()
    ledger.record(1, 1)
    with pytest.raises(PlayError):
        ledger.check(1, 1)
    ledger.screen_changed()
    ledger.record(1, 1)


def test_inconsistent_cells_only_look_at_revealed_numbers():
    assert inconsistent_cells(Board("1.\n.."), Board("1*\n*X")) == []
    assert inconsistent_cells(Board("1.\n.."), Board(".1\n..")) == [(0, 0)]


# --- restart from the skin's metadata ---------------------------------------------------


@dataclass(frozen=True)
class SkinStub:
    name: str
    meta: dict


def test_restart_by_key_and_by_click_relative_to_the_board():
    from bot.live.restart import restart_from_skin

    for spec in ({"key": "n"}, {"click": {"x_fraction": 0.5, "y_offset": -2}}):
        world = World(8, 8, 1, seed=5)
        located = Located(SkinStub("stub", {"restart": spec}), fake_locate(world.render()).grid)
        player, pointer = make_player(world, restart=restart_from_skin, located=located)
        events = []
        original_up = pointer.mouseUp

        def press(key, world=world, events=events):
            events.append(("key", key))
            world.restart(None, None, None)

        def up(button="left", world=world, events=events, pointer=pointer, original_up=original_up):
            mx, my = pointer.pos
            if my - world.region.top < MARGIN:  # above the board: the "face"
                pointer.down = False
                events.append(("face", mx - world.region.left, my - world.region.top))
                world.restart(None, None, None)
            else:
                original_up(button)

        pointer.press, pointer.mouseUp = press, up
        summary = player.run(2)
        assert summary.wins == 2 and world.restarts == 1
        if "key" in spec:
            assert events == [("key", "n")]
        else:
            assert events == [("face", MARGIN + 8 * PITCH // 2, MARGIN - 2)]


def test_restart_without_instructions_is_a_clear_error():
    from bot.live.restart import restart_from_skin

    world = World(8, 8, 1, seed=5)
    located = Located(SkinStub("stub", {}), fake_locate(world.render()).grid)
    player, _ = make_player(world, restart=restart_from_skin, located=located)
    with pytest.raises(PlayError, match="does not say how to restart"):
        player.run(2)


def test_audit_checks_every_acted_board_against_the_mines_shown_after_a_loss():
    from bot.live.gamelog import audit_boards

    game = Game(9, 9, 10, rules="opening", seed=11)
    game.open(4, 4)
    seen = [game.board]
    while game.state == "playing":  # open covered cells in order until it is lost or won
        cell = next(pos for pos, ch in game.board.items() if ch == "." and not game.is_mine(*pos))
        if len(seen) == 3:
            cell = next(pos for pos, ch in game.board.items() if ch == "." and game.is_mine(*pos))
        game.open(*cell)
        seen.append(game.board)
    assert game.state == "lost"
    final = seen.pop()
    assert audit_boards(seen, final, 10) == []
    wrong = seen[-1].copy()
    x, y = next(pos for pos, ch in wrong.items() if ch in "12345")
    wrong[x, y] = str(int(wrong[x, y]) + 1)
    assert audit_boards([*seen, wrong], final, 10) == [
        (len(seen), f"({x}, {y}) read {wrong[x, y]}, {int(wrong[x, y]) - 1} mines around")
    ]
    assert audit_boards([wrong], final, 11) == []  # not every mine shown: nothing to check


def test_dialogs_are_closed_by_their_key_else_the_usual_keys_else_the_bot_stops():
    from bot.live.window import WindowInfo, WindowWatch

    game_window = WindowInfo(1, "Mines", ("gnome-mines",), Region(100, 50, 200, 200))
    dialog = WindowInfo(2, "Congratulations!", ("gnome-mines",), Region(120, 60, 80, 80))

    class Stack:
        def __init__(self):
            self.stack = [game_window]

        def windows(self):
            return list(self.stack)

    # (program.json's dialogs, the key that closes the window, keys pressed, closed); each key
    # twice while the window stays (a window just opened may let the first pass)
    cases = [
        ([{"title": "^Congratulations", "key": "q"}], "q", ["q"], True),
        ([], "Return", ["Escape", "Escape", "Return"], True),  # nothing said: the usual keys
        ([], "none", ["Escape", "Escape", "Return", "Return"], False),  # nothing closes it: stop
        ([], "Escape", [], False),  # another program's window: no key, stop
        ([], "Escape-late", ["Escape", "Escape"], True),  # KMines' High Scores: one lost
    ]
    for known, closing, pressed, closed in cases:
        stack = Stack()
        world = World(8, 8, 1, seed=5)
        watch = WindowWatch(stack, game_window)
        shown = dialog
        if pressed == []:
            shown = WindowInfo(2, "Congratulations!", ("xterm",), Region(120, 60, 80, 80))
        stack.stack.append(shown)
        player, pointer = make_player(world, watch=watch, dialogs=known)
        player.dialog_keeper.clock = iter(range(0, 1000, 1)).__next__  # no 3 s waits
        keys = []

        def press(key, stack=stack, keys=keys, pointer=pointer, closing=closing, shown=shown):
            keys.append((key, pointer.pos))
            if key == closing or (closing == f"{key}-late" and len(keys) == 2):
                stack.stack.remove(shown)

        pointer.press = press
        if closed:
            player.check_window()
            assert stack.windows() == [game_window]
            assert player.dialog_keeper.worked == [f"Congratulations!: {pressed[-1]}"]
        else:
            with pytest.raises(WindowError, match="covered by 'Congratulations!'"):
                player.check_window()
        # each key pressed once, with the pointer over the dialog
        assert keys == [(k, (160, 80)) for k in pressed]


def test_a_new_window_of_the_game_beside_the_board_is_closed_too():
    from bot.live.window import WindowInfo, WindowWatch

    game_window = WindowInfo(1, "Mines", ("gnome-mines",), Region(100, 50, 200, 200))
    scores = WindowInfo(2, "Scores", ("gnome-mines",), Region(400, 60, 80, 80))
    other = WindowInfo(3, "xterm", ("xterm",), Region(400, 300, 80, 80))
    stack = [game_window]
    world = World(8, 8, 1, seed=5)
    watch = WindowWatch(type("S", (), {"windows": lambda self: list(stack)})(), game_window)
    stack += [scores, other]
    player, pointer = make_player(world, watch=watch)
    pointer.press = lambda key: stack.remove(scores) if key == "Escape" else None
    player.check_window()
    assert stack == [game_window, other] and player.dialog_keeper.worked == ["Scores: Escape"]


def test_locate_waits_until_a_new_window_is_drawn():
    from bot.live.attach import locate_when_drawn

    world = World(8, 8, 1, seed=5)
    frames = {"n": 0}

    class Drawing:
        def grab(self, region=None):
            frames["n"] += 1
            frame = world.grab(region)
            if frames["n"] <= 3:  # still drawing: every grab differs
                frame.image[:] = frames["n"]
            return frame

    def locate(image, skins=None):
        if image[0, 0, 0] < 4 and image[MARGIN + 1, MARGIN + 1, 0] != ord("."):
            raise FakeNotFound("half drawn")
        return fake_locate(image, skins)

    frame, located = locate_when_drawn(Drawing(), world.region, Reader(locate, None), None, 5.0)
    assert frames["n"] == 5 and located.grid.cols == 8  # two equal grabs after the drawing


def test_locate_gives_up_after_the_timeout_with_the_readers_error():
    from bot.live.attach import locate_when_drawn

    world = World(8, 8, 1, seed=5)

    def never(image, skins=None):
        raise FakeNotFound("no board found in the picture")

    with pytest.raises(FakeNotFound, match="no board found"):
        locate_when_drawn(world, world.region, Reader(never, None), None, 0.2)


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
