"""The live loop, driven by a simulated game instead of a screen.

The "screen" renders the simulator's board as pixels (one grey level per cell character), the
"reader" decodes them, the "mouse" turns a click at a pointer position back into a cell and
opens it in the simulator. Everything between (settling, re-reading, planning, the click guards,
the ledger, logging) is the real code.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bot.errors import MouseError, PlayError, WindowError
from bot.live.planning import ClickLedger, inconsistent_cells, plan_clicks, zeros_beside_covered
from bot.reading.grid import Grid
from solver.board import Board
from tests.play_world import (
    MARGIN,
    PITCH,
    TEMPLATES,
    FakeLowConfidence,
    Located,
    Reading,
    World,
    fake_locate,
    fake_read,
    fake_reader,
    make_player,
    min_risk_plan,
)


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
