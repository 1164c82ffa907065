"""Tone curves learnt from a recoloured picture (bot/reading/tone.py): which pixels a curve is
learnt from, where it runs off, how it stretches the tolerance and when two curves disagree; on
real fixtures changed in the test and on synthetic cells."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bot.reading.read import ReaderState, locate_board, read_frame
from solver.board import Board, read_board
from tests.photometric import MILD

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_a_brightened_black_is_learnt_from_the_pixels_that_show_it():
    """GNOME medium-lost 20 levels brighter: most of the frame's colours lie near the top of
    the range, where the curve's fit is pulled by clipped and mixed pixels; the smooth curve
    then shows black at 9, and the 580 pixels of the board's mines and wrong flag that agree on
    20 could move it only 9 levels (1.5 x GNOME's tolerance of 6): the wrong flag was refused
    at 0.40. A value that many pixels agree on moves it up to 16 levels whatever the skin's
    tolerance."""
    name = "gnome-mines/medium-lost"
    frame = MILD["brightness+20"](cv2.imread(str(FIXTURES / f"{name}.png")))
    board = read_frame(frame, locate_board(frame), ReaderState()).board
    assert board == read_board(str(FIXTURES / f"{name}.txt"))


def test_two_curves_reading_a_colour_only_pair_apart_refuse_those_cells():
    """GNOME Mines' open 0 tiles, 10 levels brighter: the frame's own curve reads them as 0s;
    the curve a board was found through may map the covered tile's colour onto them (one
    colour only, as on a fresh board). Both read every cell clearly, differently: refused."""
    from bot.reading.classify import classify_cells
    from bot.reading.grid import Grid
    from bot.reading.skins import find_skin
    from bot.reading.state import ToneCurve

    skin = find_skin("gnome-mines")
    zero = skin.templates["0"]
    frame = MILD["brightness+20"](np.tile(zero, (4, 5, 1)))
    # Per channel: the covered tile's colour onto the 0 tile's as the frame shows it.
    covered = np.median(skin.templates["covered"].reshape(-1, 3), axis=0)
    shown = np.median(frame.reshape(-1, 3), axis=0)
    levels = np.arange(256.0)[:, None]
    lut = np.clip(levels + (shown - covered)[None, :], 0, 255).astype(np.uint8)
    grid = Grid(0, 0, skin.pitch_x, skin.pitch_y, 5, 4)
    alone = classify_cells(frame, grid, skin, adapt_tone=True)
    assert (alone.chars == "0").all() and alone.clear(skin).all()
    both = classify_cells(frame, grid, skin, adapt_tone=True, found_through=ToneCurve(lut))
    assert not both.clear(skin).any()


def test_a_curve_is_learnt_from_the_images_flat_pixels_first():
    """GNOME Mines' won board of 26 px cells, 20 levels brighter: its images stretched to
    26 px step where the game draws them a fraction of a pixel away, and those edge pixels
    (many, all agreeing) bent the curve learnt from every pixel until no curve read the board
    (refused, "no board found"). Learnt from the images' flat pixels first, it reads."""
    from tests.photometric import brightness

    png = FIXTURES / "gnome-mines-sizes" / "w1000x600-big-won.png"
    frame = brightness(cv2.imread(str(png)), 20)
    board = read_frame(frame, locate_board(frame)).board
    assert board == read_board(str(png.with_suffix(".txt")))


def test_a_curve_is_not_learnt_from_flat_pixels_of_one_grey():
    """Cells whose flat pixels show one grey (a block of another game's open cells, a fresh
    board's covered cells beside a gap the screen clips) say nothing of the rest of the
    curve: with a least span asked for, no curve is learnt from them."""
    from bot.reading.tone import fit_tone

    templates = np.array([[120] * 6 + [200] * 6, [120] * 12], np.uint8)
    cells = np.repeat(templates[1:] + 10, 4, axis=0)

    def assign(toned, strict):
        d2 = ((cells[:, None, :].astype(int) - toned[None].astype(int)) ** 2).sum(2)
        return d2.argmin(1), np.ones(len(cells), bool)

    mask = np.ones(12, bool)
    assert fit_tone(cells, templates, mask, assign, 8) is not None
    assert fit_tone(cells, templates, mask, assign, 8, least_span=24.0) is None


def test_a_won_board_whose_light_tiles_clip_is_read_through_a_curve():
    """GNOME Mines' won board of 60 px cells, 20 levels brighter: every tile is light, and the
    screen clips green and blue above 235, so the tiles' flat pixels show one grey in each of
    those channels; only red spans more (191-220). The curve was asked to span 24 levels in
    every channel, and no curve learnt from every pixel read the board: "no board found"."""
    from tests.photometric import brightness

    png = FIXTURES / "gnome-mines-sizes" / "w700x600-small-won.png"
    frame = brightness(cv2.imread(str(png)), 20)
    board = read_frame(frame, locate_board(frame)).board
    assert board == read_board(str(png.with_suffix(".txt")))


def test_a_channel_seen_at_one_grey_is_shifted_as_the_others_show():
    """Flat pixels at two greys in red but one in green and blue (their lighter grey clipped):
    the curve is learnt, and green and blue take the least change through their grey (a
    shift), not the steepest exponent that passes through it."""
    from bot.reading.tone import fit_tone

    light = np.array([[220, 222, 191], [240, 245, 220]], np.uint8)  # BGR: red spans 29
    templates = np.repeat(light, 6, axis=0).reshape(1, -1)
    cells = np.repeat(np.clip(templates.astype(int) + 20, 0, 255).astype(np.uint8), 4, axis=0)

    def assign(toned, strict):
        return np.zeros(len(cells), int), np.ones(len(cells), bool)

    mask = np.ones(templates.shape[1], bool)
    curve = fit_tone(cells, templates, mask, assign, 6, least_span=24.0)
    assert curve is not None
    assert abs(int(curve.lut[100, 0]) - 120) <= 2  # blue: one grey (220), a shift
    assert abs(int(curve.lut[100, 1]) - 120) <= 2  # green: one grey (222)


def test_a_curve_runs_off_where_the_screen_shows_an_end():
    """A night light (blue x 0.8) over a game drawn in black, white and one grey (xbomb): the
    screen's black is clipped, so only white and grey (two values: every exponent fits them)
    say where the blue curve runs, and the one picked put black at 13. A tuned xbomb skin, at a
    tolerance of 8, then read no cell. Black shown as 0 says the curve runs off at 0."""
    from bot.reading.tone import fit_tone

    drawn = np.array([0] * 60 + [127] * 120 + [128] * 4 + [255] * 200, np.uint8)
    templates = np.repeat(drawn, 3).reshape(1, -1)
    screen = np.repeat(drawn, 3).reshape(-1, 3).astype(np.float64)
    screen[:, 0] *= 0.8
    cells = np.repeat(np.rint(screen).astype(np.uint8).reshape(1, -1), 4, axis=0)

    def assign(toned, strict):
        # Sure of their template by squared difference; none reads clearly yet (strict).
        return np.zeros(len(cells), int), np.full(len(cells), not strict)

    curve = fit_tone(cells, templates, np.ones(templates.shape[1], bool), assign, 8)
    assert curve is not None
    assert int(curve.lut[0, 0]) <= 1  # blue: black stays black
    assert np.abs(curve.apply(templates).astype(int) - cells[0]).max() <= 1


def test_a_few_pixels_above_a_well_seen_value_do_not_lift_it():
    """A template value seen by 10 pixels at 238 just below one seen by 400 at its own 222
    (a tile's edge drawn a fraction of a pixel away): the curve stays near 222 there, where
    a running maximum had lifted it to the few pixels' value."""
    from bot.reading.tone import fit_tone

    template = np.array([222] * 400 + [220] * 10 + [60] * 100 + [120] * 100, np.uint8)
    templates = np.repeat(template, 3).reshape(1, -1)
    screen = template.astype(int)
    screen[400:410] = 238
    cells = np.repeat(np.repeat(screen, 3).reshape(1, -1).astype(np.uint8), 4, axis=0)

    def assign(toned, strict):
        return np.zeros(len(cells), int), np.ones(len(cells), bool)

    curve = fit_tone(cells, templates, np.ones(templates.shape[1], bool), assign, 6)
    assert curve is not None
    assert abs(int(curve.lut[222, 1]) - 222) <= 1


def test_the_tolerance_is_stretched_with_the_levels_a_curve_stretches():
    """GNOME Mines' won board of 85 px cells at gamma 1.25: its 4s, whose glyph the game draws
    anew at each size, match their stretched image by 0.92 as drawn; through the curve, whose
    light end is 1.2 times steeper, their edge pixels fell outside the tolerance (0.45,
    refused). The tolerance band through the curve reads them as before."""
    from tests.photometric import gamma

    png = FIXTURES / "gnome-mines-sizes" / "w900x800-small-won.png"
    frame = gamma(cv2.imread(str(png)), 1.25)
    board = read_frame(frame, locate_board(frame)).board
    assert board == read_board(str(png.with_suffix(".txt")))


def test_a_curve_is_learnt_where_only_the_empty_cells_are_sure_of_their_class():
    """GNOME Mines' won 8x8 board of 60 px cells at contrast 1.15: its number tiles differ from
    the empty one by a glyph, and against every image (covered cells drawn lighter under the
    pointer, and so on) only the empty cells were sure of their class: one grey, no curve. The
    frame's own curve is learnt against each class's first image too, and reads every cell
    (the board was found only after seconds of colour search, through its seeds' curve)."""
    from bot.reading.classify import classify_cells
    from tests.photometric import contrast

    png = FIXTURES / "gnome-mines-sizes" / "w700x600-small-won.png"
    picture = cv2.imread(str(png))
    located = locate_board(picture)
    scores = classify_cells(contrast(picture, 1.15), located.grid, located.skin, adapt_tone=True)
    assert scores.clear(located.skin).all()
    text = "\n".join("".join(row) for row in scores.chars)
    assert Board(text) == read_board(str(png.with_suffix(".txt")))
