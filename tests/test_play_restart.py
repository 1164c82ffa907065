"""The live loop's restarts (from the skin's metadata), dialogs and waiting for a window, driven
by a simulated game.

See :mod:`tests.play_world` for the simulated game."""

from __future__ import annotations

import pytest

from bot.errors import PlayError, WindowError
from bot.live.capture import Region
from bot.live.looking import Reader
from solver.game import Game
from tests.play_world import (
    MARGIN,
    PITCH,
    FakeNotFound,
    Located,
    SkinStub,
    World,
    fake_locate,
    make_player,
)

# --- restart from the skin's metadata ---------------------------------------------------


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
