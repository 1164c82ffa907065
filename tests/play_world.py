"""A simulated game for the live loop's tests (tests/test_play*.py), instead of a screen.

The "screen" renders the simulator's board as pixels (one grey level per cell character), the
"reader" decodes them, the "mouse" turns a click at a pointer position back into a cell and
opens it in the simulator. Everything between (settling, re-reading, planning, the click guards,
the ledger, logging) is the real code.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.live.capture import Frame, Region
from bot.live.looking import Reader, Timing
from bot.live.mouse import Mouse, MouseMapping
from bot.live.planning import plan_clicks
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


@dataclass(frozen=True)
class SkinStub:
    """A skin's name and skin.json metadata: all the restart and the play loop look at."""

    name: str
    meta: dict
