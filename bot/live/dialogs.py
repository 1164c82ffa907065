"""Windows a game opens by itself over or beside its board (a score table after a win,
"Congratulations!", "Reset?"), and dismissing them.

A window the game's ``program.json`` names (``"dialogs": [{"title": REGEX, "key": KEY}]``) is
dismissed with its key. Any other window of the game (its WM_CLASS) over the board or newly
opened beside it gets the usual keys (:data:`USUAL_KEYS`, each once, with the pointer over it:
on a bare X server the focus follows the pointer). What worked is said and kept
(:attr:`DialogKeeper.worked`, for the summary and the user's program.json); the bot stops only
when the board stays covered. Another program's window over the board is never sent a key:
the bot stops.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.live.window import WindowCoveredError, WindowInfo

#: Keys tried, in order, on a window of the game its program.json does not name.
USUAL_KEYS = ("Escape", "Return")
#: Seconds a window gets to close after a key.
CLOSE_TIMEOUT = 3.0
#: Times each key is pressed on a window that stays open.
PRESSES = 2


def press_over(player: Any, key: str, window: WindowInfo) -> None:
    """Press ``key`` with the pointer over ``window`` (the focus follows the pointer on a bare
    X server), then park the pointer again (``player``: a :class:`bot.live.play.Player`)."""
    r = window.region
    player.mouse.move(*player.mapping.to_mouse(r.left + r.width / 2, r.top + r.height / 4))
    player.mouse.press(key)
    player.park_pointer()


class DialogKeeper:
    """Checks the game window between moves (:meth:`check`) and dismisses the game's dialogs.

    ``watch`` is a :class:`bot.live.window.WindowWatch`, ``known`` the program.json's
    ``dialogs``, ``press(key, window)`` presses a key with the pointer over ``window``, ``out``
    says what was done, ``log`` (a file, optional) keeps it, a line each.
    """

    def __init__(
        self,
        watch: Any,
        known: Sequence[dict[str, Any]],
        press: Callable[[str, WindowInfo], None] | None,
        out: Callable[[str], None],
        clock: Callable[[], float],
        sleep: Callable[[float], None],
        log: Path | None = None,
    ) -> None:
        self.watch = watch
        self.log = log
        self.known = tuple(known)
        self.press = press
        self.out = out
        self.clock = clock
        self.sleep = sleep
        #: "TITLE: KEY" for each window closed (what program.json could say).
        self.worked: list[str] = []
        #: Titles the usual keys did not close (not tried again).
        self.failed: set[str] = set()

    def keys_for(self, window: WindowInfo) -> tuple[str, ...]:
        """The keys to try on ``window``: its program.json key, else the usual ones (once).

        >>> keeper = DialogKeeper(None, [{"title": "^Best", "key": "Return"}], None, print,
        ...                       lambda: 0.0, lambda s: None)
        >>> from bot.live.capture import Region
        >>> keeper.keys_for(WindowInfo(2, "Best Times", (), Region(0, 0, 9, 9)))
        ('Return',)
        >>> keeper.keys_for(WindowInfo(3, "Reset?", (), Region(0, 0, 9, 9)))
        ('Escape', 'Return')
        """
        for dialog in self.known:
            if re.search(dialog["title"], window.name):
                return (str(dialog["key"]),)
        if window.name in self.failed or not self._the_games(window):
            return ()
        return USUAL_KEYS

    def _the_games(self, window: WindowInfo) -> bool:
        """True when ``window`` belongs to the game (its WM_CLASS shares a part with the game
        window's; without a watched window, any): another program's window is not dismissed."""
        game = getattr(self.watch, "window", None)
        if game is None:
            return True
        return bool({c.lower() for c in game.wm_class} & {c.lower() for c in window.wm_class})

    def check(self) -> None:
        """Raise :class:`bot.errors.WindowError` if the game window closed, moved or changed
        size, or its board is covered by a window that would not close."""
        if self.watch is None:
            return
        for _ in range(4):
            try:
                self.watch.check()
            except WindowCoveredError as exc:
                if not self.dismiss(exc.windows):
                    raise
                continue
            opened_beside = getattr(self.watch, "opened_beside", None)
            beside = opened_beside() if opened_beside is not None else []
            if not beside or not self.dismiss(beside):
                return
        self.watch.check()

    def dismiss(self, windows: Sequence[WindowInfo]) -> bool:
        """Try to close each of ``windows``; True if every one closed."""
        if self.press is None:
            return False
        closed = True
        for window in windows:
            closed = self._close(window) and closed
        return closed

    def _close(self, window: WindowInfo) -> bool:
        keys = self.keys_for(window)
        for key in keys:
            assert self.press is not None
            # Twice: a window just opened may let the first key pass (KMines' "High Scores"
            # lost its Escape, took Return for the name typed in, and stayed open).
            for _ in range(PRESSES):
                self.press(key, window)
                if self._gone(window):
                    self.worked.append(f"{window.name}: {key}")
                    self._say(f"closed the game's window {window.name!r} with {key}")
                    return True
        if keys and not any(re.search(d["title"], window.name) for d in self.known):
            self.failed.add(window.name)
            self._say(f"the game's window {window.name!r} did not close with {', '.join(keys)}")
        return False

    def _say(self, line: str) -> None:
        self.out(line)
        if self.log is not None:
            from bot.userfiles import check_output_folder

            check_output_folder(self.log.parent, "game logs")
            with self.log.open("a", encoding="utf-8") as file:
                file.write(line + "\n")

    def _gone(self, window: WindowInfo) -> bool:
        deadline = self.clock() + CLOSE_TIMEOUT
        while self.clock() < deadline:
            if all(w.id != window.id for w in self.watch.backend.windows()):
                return True
            self.sleep(0.02)
        return False
