"""Boards that do not read whole: a message or an animation over part of the board, and cells
of a class the skin does not know.

The reader refuses a frame with any doubtful cell (never a guess). The loop then looks at what
*did* read (:class:`CellView`, the classifier's verdict per cell with the doubtful ones marked)
to tell three cases apart, none of which is ever a reason to click a cell it cannot read:

- the game is over and says so on the cells that read (an exploded mine): counted at once,
  whatever covers the rest (:func:`end_shown`);
- a message or animation over part of the board: it goes away; the loop waits it out, bounded;
- the same cells stay doubtful while everything else reads: a class the skin lacks. When each
  of them is certainly an opened cell (the bot opened it as proven safe, or it touches an
  opened 0, which opens all its neighbours) the game goes on with those cells as opened cells
  whose number is unknown (:func:`partial_board`: the solver sees them as covered, which only
  widens the solutions it considers, so what it proves safe stays safe, and they are never
  clicked); otherwise the game is abandoned (:func:`surely_opened`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.board import COVERED, MINE, NUMBERS, Board

Position = tuple[int, int]


class GameAbandoned(Exception):
    """The game cannot go on without clicking on a guess about a cell the bot cannot read:
    given up (counted "abandoned"), the next game started."""


@dataclass(frozen=True)
class CellView:
    """Every cell of a frame as the classifier sees it: ``chars`` (rows of board characters,
    the best class of each cell) and ``doubtful`` (``[rows, cols]``, True where the reader
    would refuse the cell)."""

    chars: tuple[str, ...]
    doubtful: np.ndarray

    @property
    def doubtful_cells(self) -> tuple[Position, ...]:
        ys, xs = np.nonzero(self.doubtful)
        return tuple((int(x), int(y)) for x, y in zip(xs, ys, strict=True))

    def confident(self) -> dict[Position, str]:
        """The cells that read clearly, and what they show."""
        return {
            (x, y): ch
            for y, row in enumerate(self.chars)
            for x, ch in enumerate(row)
            if not self.doubtful[y, x]
        }


@dataclass(frozen=True)
class PartialReading:
    """A board read except for ``unknown`` cells (opened cells of a class the skin lacks): what
    the loop plays on in their place. ``board`` shows them covered; they are never clicked."""

    located: Any
    board: Board
    state: str
    mines: int | None
    unknown: tuple[Position, ...]


def end_shown(view: CellView, lost_chars: str, clicked: Iterable[Position] = ()) -> str | None:
    """``'lost'`` when a cell that reads clearly shows the skin's loss mark (the exploded mine),
    whatever covers the others; or when mines show on cells that read clearly and a cell the
    bot clicked does not read (the exploded mine drawn where the skin has not seen one: on
    KMines' shaded background, beside the board's frame); else None (a win needs every cell:
    see the full read).

    >>> view = CellView(("1X", "??"), np.array([[False, False], [True, True]]))
    >>> end_shown(view, "X"), end_shown(CellView(("1X", "??"), np.ones((2, 2), bool)), "X")
    ('lost', None)
    >>> shown = CellView(("1*", ".?"), np.array([[False, False], [False, True]]))
    >>> end_shown(shown, "X", [(1, 1)]), end_shown(shown, "X", [(0, 1)])
    ('lost', None)
    """
    read = view.confident().values()
    if any(ch in lost_chars for ch in read):
        return "lost"
    # Only a lost game shows its mines.
    if MINE in read and set(view.doubtful_cells) & set(clicked):
        return "lost"
    return None


def covers_revealed(cells: Iterable[Position], previous: Board | None) -> bool:
    """True when one of ``cells`` showed a number on ``previous`` (the last board read): an
    opened cell never changes in a game, so something is over it (KMines' end message, its
    dialog), not a class the skin lacks.

    >>> covers_revealed([(1, 0)], Board("1.")), covers_revealed([(0, 0)], None)
    (False, False)
    >>> covers_revealed([(0, 0), (1, 0)], Board("1."))
    True
    """
    return previous is not None and any(previous[x, y] in NUMBERS for x, y in cells)


def as_before(view: CellView, previous: Board | None) -> CellView:
    """``view`` with the doubtful cells that showed a number on ``previous`` and still look most
    like that number taken as read: an opened cell never changes in a game, and its edge is
    drawn by its neighbours (KMines' 6 read 0.96, then 0.94 once the cell beside it opened).

    >>> view = CellView(("13", "7."), np.array([[False, True], [True, False]]))
    >>> as_before(view, Board("13\\n..")).doubtful_cells, as_before(view, None).doubtful_cells
    (((0, 1),), ((1, 0), (0, 1)))
    >>> as_before(view, Board("12\\n..")).doubtful_cells
    ((1, 0), (0, 1))
    """
    if previous is None:
        return view
    doubtful = view.doubtful.copy()
    for x, y in view.doubtful_cells:
        if previous[x, y] in NUMBERS and view.chars[y][x] == previous[x, y]:
            doubtful[y, x] = False
    return CellView(view.chars, doubtful)


def whole_reading(
    view: CellView,
    settled: CellView,
    located: Any,
    mines: int | None,
    judge: Callable[[Board, Any, int | None], str],
) -> PartialReading | None:
    """The board when every doubtful cell of ``view`` is one :func:`as_before` took as read
    (``settled``), else None."""
    if not view.doubtful.any() or settled.doubtful.any():
        return None
    board = Board("\n".join(settled.chars))
    return PartialReading(located, board, judge(board, getattr(located, "skin", None), mines),
                          mines, ())  # fmt: skip


def surely_opened(
    cells: Iterable[Position],
    view: CellView,
    proven_safe_clicked: Iterable[Position],
    opens_round_zeros: bool = True,
) -> bool:
    """True when each of ``cells`` is certainly an opened cell: the bot opened it as proven
    safe, or a neighbour reads clearly as ``0`` in a game that ``opens_round_zeros`` (opens
    every cell round a 0 at once).

    >>> view = CellView(("0?.", "..."), np.array([[False, True, False], [False] * 3]))
    >>> surely_opened([(1, 0)], view, []), surely_opened([(2, 1)], view, [])
    (True, False)
    >>> surely_opened([(2, 1)], view, [(2, 1)]), surely_opened([(1, 0)], view, [], False)
    (True, False)
    """
    confident = view.confident() if opens_round_zeros else {}
    clicked = set(proven_safe_clicked)
    for x, y in cells:
        if (x, y) in clicked:
            continue
        around = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
        if not any(confident.get(p) == "0" for p in around):
            return False
    return True


def opened_by_clicks(skin: Any, game: Any, view: CellView) -> set[Position]:
    """The cells the bot's clicks certainly opened in ``game`` (a :class:`GameRecord`): those
    proven safe; and those it guessed on too when a loss would show in classes the skin knows
    (its ``mine`` or ``exploded``) and ``view`` shows none: a guess that showed a 7 with no
    mine in sight opened a 7 (guesses on Wine's Minesweeper, its 4s untaught, abandoned 1
    game in 3).

    >>> from types import SimpleNamespace as S
    >>> game = S(safe_clicked={(0, 0)}, clicked={(0, 0), (1, 1)})
    >>> view = CellView(("1.", ".?"), np.array([[False, False], [False, True]]))
    >>> sorted(opened_by_clicks(S(templates={"mine": 0}), game, view))
    [(0, 0), (1, 1)]
    >>> sorted(opened_by_clicks(S(templates={"1": 0}), game, view))
    [(0, 0)]
    >>> shown = CellView(("1*", ".?"), np.array([[False, False], [False, True]]))
    >>> sorted(opened_by_clicks(S(templates={"mine": 0}), game, shown))
    [(0, 0)]
    """
    templates = getattr(skin, "templates", {})
    knows_loss = "mine" in templates or "exploded" in templates
    if knows_loss and not any(ch in "*X" for ch in view.confident().values()):
        return set(game.clicked)
    return set(game.safe_clicked)


def partial_board(view: CellView, unknown: Sequence[Position]) -> tuple[Board, Board]:
    """The board to play on (``unknown`` cells shown covered) and the board to judge the game's
    state on (``unknown`` cells shown as an opened ``0``: they are open, their number unknown).

    >>> view = CellView(("1?", ".."), np.array([[False, True], [False, False]]))
    >>> play, state = partial_board(view, [(1, 0)])
    >>> str(play), str(state)
    ('1.\\n..', '10\\n..')
    """
    rows = [list(row) for row in view.chars]
    judged = [list(row) for row in view.chars]
    for x, y in unknown:
        rows[y][x] = COVERED
        judged[y][x] = "0"
    return Board("\n".join(map("".join, rows))), Board("\n".join(map("".join, judged)))


def reading_with_unknown(
    view: CellView,
    located: Any,
    previous: Board | None,
    safe_clicked: Iterable[Position],
    mines: int | None,
    judge: Callable[[Board, Any, int | None], str],
) -> PartialReading:
    """The board of ``view`` with its doubtful cells taken as opened cells of unknown number,
    when each certainly is one (:func:`surely_opened`) and no number read before is among
    them; else :class:`GameAbandoned`. ``judge(board, skin, mines)`` tells the state."""
    from bot.live.planning import inconsistent_cells

    cells = view.doubtful_cells
    board, judged = partial_board(view, cells)
    opens = bool(getattr(located.skin, "opens_round_zeros", True))
    if not surely_opened(cells, view, safe_clicked, opens) or (
        previous is not None and inconsistent_cells(previous, board)
    ):
        raise GameAbandoned(
            "cells of a class the skin does not know, not certainly opened cells: "
            + ", ".join(f"({x}, {y})" for x, y in cells[:8])
        )
    return PartialReading(located, board, judge(judged, located.skin, mines), mines, cells)


def classify_view(image: np.ndarray, located: Any) -> CellView:
    """The reader's classifier on every cell of ``located``'s grid, with the cells the reader
    refuses (below the skin's confidence or margin) marked doubtful."""
    from bot.reading.classify import classify_cells

    skin = located.skin
    scores = classify_cells(image, located.grid, skin)
    doubtful = ~scores.clear(skin)
    return CellView(tuple("".join(str(c) for c in row) for row in scores.chars), doubtful)


def teach_command(skin: Any, frame_path: Path) -> str:
    """The ``minebot tune`` command that teaches ``skin`` the classes shown in ``frame_path``
    along with those it has (tune learns from every screenshot given: the ones the skin was
    tuned from, as its skin.json lists them, and this frame; its levels; its program.json is
    kept by tune).

    >>> from types import SimpleNamespace as S
    >>> meta = {"source": "Cells cut by minebot tune from: a.png, b.png"}
    >>> skin = S(name="xbomb", folder=Path("/s/xbomb"), meta=meta)
    >>> teach_command(skin, Path("/log/unknown-01.png"))
    'minebot tune a.png b.png /log/unknown-01.png --name xbomb --out /s'
    """
    meta = getattr(skin, "meta", {})
    source = str(meta.get("source", ""))
    shots = source.split(": ", 1)[1].split(", ") if source.startswith("Cells cut by") else []
    parts = ["minebot tune", *shots, str(frame_path), "--name", str(getattr(skin, "name", skin))]
    for level in meta.get("levels", ()):
        parts += ["--level", f"{level['cols']}x{level['rows']}n{level['mines']}"]
    folder = getattr(skin, "folder", None)
    if folder is not None:
        parts += ["--out", str(Path(folder).parent)]
    return " ".join(parts)


#: Pictures of cells of an unknown class kept in a run, and the mean difference in levels
#: under which another cell looks the same.
LOOKS_KEPT = 64
LOOK_LEVELS = 3.0


#: Frames tune would refuse passed over in a row before cells are logged with one anyway.
FRAMES_PASSED = 3


def tune_measures_alike(frame: Any, located: Any) -> bool:
    """True unless ``minebot tune`` would refuse ``frame`` as from a desktop scaled by a
    fraction while the board is drawn at a whole number of pixels: its lattice finder placed
    the edges of some mid-game boards a pixel or two off (17.93 px for KMines' 18, 16.07 for
    Wine's 16; 3 of 12 and 5 of 47 frames logged), and the logged command then failed."""
    from bot.reading.lattice import find_lattice
    from solver.errors import MinebotError

    grid = located.grid
    if any(abs(p - round(p)) > SCALED_PX for p in (grid.pitch_x, grid.pitch_y)):
        return True  # drawn at a fraction already: tune says so whatever frame it gets
    try:
        lattice = find_lattice(frame.image)
    except MinebotError:
        # No board found at all: tune takes it from a screenshot of the same window, the
        # ones the skin was tuned from (KMines' default theme: most late frames).
        return True
    return all(abs(p - round(p)) <= SCALED_PX for p in (lattice.pitch_x, lattice.pitch_y))


#: How far from a whole number of pixels tune takes a cell pitch for a scaled desktop's.
SCALED_PX = 0.05


def alike(picture: np.ndarray, looks: Sequence[np.ndarray]) -> bool:
    """True when ``picture`` is one of ``looks`` within :data:`LOOK_LEVELS` on average."""
    return any(
        look.shape == picture.shape and float(np.abs(look - picture).mean()) <= LOOK_LEVELS
        for look in looks
    )


def cell_picture(frame: Any, located: Any, x: int, y: int) -> np.ndarray:
    """The picture of cell ``(x, y)`` in ``frame`` (int16, to compare)."""
    left, top, w, h = located.grid.cell_rect(x, y)
    return frame.image[max(top, 0) : top + h, max(left, 0) : left + w].astype(np.int16)


def log_unknown_cells(folder: Path, frame: Any, located: Any, cells: Sequence[Position]) -> Path:
    """Keep a frame with cells of a class the skin lacks: ``unknown-NN.png`` (the frame),
    ``unknown-NN-cell-X-Y.png`` (each cell), ``unknown-NN.json`` (cells, skin, the command that
    teaches the class) and ``unknown-NN-teach.txt`` (that command, for a person). Returns the
    .txt. (Never ``unknown-NN.txt``: tune reads a ``.txt`` beside a screenshot as its text
    board, and the command would be refused.)"""
    from bot.userfiles import check_output_folder, write_image, write_text

    check_output_folder(folder, "unknown cells log")
    n = len(list(folder.glob("unknown-[0-9][0-9].png"))) + 1
    stem = folder / f"unknown-{n:02d}"
    frame_path = stem.with_suffix(".png")
    write_image(frame_path, frame.image, "frame with unknown cells")
    for x, y in cells:
        left, top, w, h = located.grid.cell_rect(x, y)
        crop = frame.image[max(top, 0) : top + h, max(left, 0) : left + w]
        write_image(folder / f"{stem.name}-cell-{x}-{y}.png", crop, "unknown cell")
    command = teach_command(located.skin, frame_path.resolve())
    where = ", ".join(f"({x}, {y})" for x, y in cells)
    skin = getattr(located.skin, "name", str(located.skin))
    note = {"skin": skin, "cells": [list(c) for c in cells], "frame": str(frame_path),
            "teach": command}  # fmt: skip
    write_text(stem.with_suffix(".json"), json.dumps(note, indent=1) + "\n", "unknown cells")
    text = (
        f"cells {where} of {frame_path} read as no {skin} class (crops beside it). "
        f"To teach the class, keeping the others, run: {command} "
        "(then name the new group in the groups file it writes and run it again)\n"
    )
    note_path = folder / f"{stem.name}-teach.txt"
    write_text(note_path, text, "unknown cells")
    return note_path


def hover_out(player: Any, frame: Any, cells: Sequence[Position]) -> None:
    """Move the pointer over ``cells`` (what covers the board) and off the board again, no
    click (``player``: a :class:`bot.live.play.Player`). KMines keeps its end message while it
    takes the pointer to be over it: the game opens its dialog inside the handler of the click
    that ended the game, and once the dialog closes Qt hovers the board at that click's place;
    the pointer, gone already (parked after the dialog's key), sends no leave, and the message
    stays for good."""
    if player.mouse is None:
        return
    bm = player.board_mouse(frame)
    rest = None if player.park is not None else bm.off_board()
    if player.park is None and rest is None:
        return  # nowhere off the board to move to
    mx, my = sum(x for x, _ in cells) / len(cells), sum(y for _, y in cells) / len(cells)
    bm.hover_cell(*min(cells, key=lambda c: (c[0] - mx) ** 2 + (c[1] - my) ** 2))
    player.sleep(player.timing.cover_poll)  # seen as a move of its own
    if rest is not None:
        bm.park(*rest)
    else:
        player.park_pointer()


class UnknownCellLog:
    """The cells of an unknown class met in a run: how they look (:attr:`looks`), each look
    logged once with a frame showing it (in ``folder``, else a temporary folder made on the
    first one) and said through ``out``."""

    def __init__(self, folder: Path | None, out: Callable[[str], None]) -> None:
        self.folder = folder
        self.out = out
        #: How the cells met look (their pictures, up to :data:`LOOKS_KEPT`), and those logged.
        self.looks: list[np.ndarray] = []
        self.logged: list[np.ndarray] = []
        #: Frames with cells not logged yet passed over in a row (tune would refuse them).
        self.passed = 0

    def looks_met(self, frame: Any, located: Any, cells: Sequence[Position]) -> bool:
        """True when each of ``cells`` looks the same as a cell of an unknown class met in
        the run (pixel for pixel, within :data:`LOOK_LEVELS`): the same class, whose cells need
        not be watched for ``unknown_after`` s again (a 4 met once is known at sight).

        >>> from types import SimpleNamespace as S
        >>> log, image = UnknownCellLog(None, print), np.zeros((20, 20, 3), np.uint8)
        >>> image[0:10, 10:20] = 200
        >>> grid = S(cell_rect=lambda x, y: (10 * x, 10 * y, 10, 10))
        >>> log.looks.append(image[0:10, 10:20].astype(np.int16))
        >>> frame, located = S(image=image), S(grid=grid)
        >>> log.looks_met(frame, located, [(1, 0)]), log.looks_met(frame, located, [(0, 0)])
        (True, False)
        """
        return bool(cells) and all(
            alike(cell_picture(frame, located, x, y), self.looks) for x, y in cells
        )

    def note(self, frame: Any, located: Any, cells: Sequence[Position]) -> None:
        """Log the cells of ``cells`` that look like none logged yet, with ``frame`` and the
        command that teaches their class; a frame ``minebot tune`` would refuse is passed over
        for a later one (at most :data:`FRAMES_PASSED` in a row), the cells logged then."""
        pictures = {(x, y): cell_picture(frame, located, x, y) for x, y in cells}
        for picture in pictures.values():
            if len(self.looks) < LOOKS_KEPT and not alike(picture, self.looks):
                self.looks.append(picture)
        new = [c for c in cells if not alike(pictures[c], self.logged)]
        if not new:
            return
        if self.passed < FRAMES_PASSED and not tune_measures_alike(frame, located):
            self.passed += 1
            return
        self.passed = 0
        for c in new:
            if len(self.logged) < LOOKS_KEPT and not alike(pictures[c], self.logged):
                self.logged.append(pictures[c])
        if self.folder is None:
            import tempfile

            self.folder = Path(tempfile.mkdtemp(prefix="minebot-unknown-"))
        note = log_unknown_cells(self.folder, frame, located, new)
        self.out(f"{len(new)} cell(s) of a class the skin does not know: {note.read_text()}")
