"""How to start a real game program (on a virtual display) and find its window.

Each skin folder may hold a ``program.json`` next to the reader's ``skin.json``: it says how to
launch the game at a board size, which window is its window, how big to make that window,
where to park the pointer while the bot waits, how to start the next game, what the game
guarantees about the first click, and which windows it opens by itself. The code has no game
names in it: adding a game is adding a file. Every key is optional (a game the user starts by
hand needs no ``command`` nor ``window``); :data:`bot.live.program_schema.PROGRAM_SCHEMA` is
the schema, checked on load (an unknown key or a bad value names the file and the key), and
the README lists every key with an example::

    {
      "about": "free text",
      "command": ["xdemineur", "-geometry", "{cols}x{rows}", "-m", "{mines}"],
      "presets": {"30x16n99": ["--big"]},      # sizes the program can only start with a flag;
                                               # "{preset}" in command is replaced by them
      "env": {"XDG_CONFIG_HOME": "{tmp}"},     # {tmp}: a fresh folder per launch
      "search_path": ["/usr/games"],            # where to look for command[0] besides $PATH
      "window": {"name": "^Mines$", "class": "sgt-mines"},
      "window_size": {"30x16n99": [1200, 700]}, # resize the window after it appears
      "park": [0.5, 0.97],                      # pointer rest, fractions of the window
      "pointer_inside": true,                   # the game pauses when the pointer leaves
      "start_timeout": 15,
      "settle_quiet": 0.05,                     # s the board must stay unchanged to count as
                                                # drawn (default 0.03)
      "restart": {"key": "n"},                  # or {"button": "face.png"}, or {"click": ...}
      "dialogs": [{"title": "^Congratulations", "key": "Escape"}],
                                                # windows the game opens by itself
      "first_click": "opening"                  # FIRST_CLICK_RULES
    }

>>> program = Program.from_dict("demo", {"command": ["sgt-mines", "{cols}x{rows}n{mines}"],
...                                      "window": {"name": "^Mines$"}})
>>> program.argv(16, 16, 40)[1:]
['16x16n40']
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from bot.errors import ProgramError
from bot.live.program_schema import check_program
from bot.live.window import WindowInfo, X11Windows, find_window

PROGRAM_FILE = "program.json"


def size_key(cols: int, rows: int, mines: int) -> str:
    """The key of a board size in ``presets`` and ``window_size``.

    >>> size_key(30, 16, 99)
    '30x16n99'
    """
    return f"{cols}x{rows}n{mines}"


def template_dirs() -> list[Path]:
    """Folders holding skin folders: the reader's list (:func:`bot.reading.skins.skin_dirs`)."""
    from bot.reading.skins import skin_dirs

    return list(skin_dirs())


@dataclass(frozen=True)
class Program:
    """A game program as described by one ``program.json``."""

    skin: str
    command: tuple[str, ...]
    window_name: str | None = None
    window_class: str | None = None
    presets: dict[str, tuple[str, ...]] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    search_path: tuple[str, ...] = ("/usr/games",)
    window_size: dict[str, tuple[int, int]] = field(default_factory=dict)
    park: tuple[float, float] = (0.5, 0.02)
    start_timeout: float = 15.0
    about: str = ""
    restart: dict[str, Any] | None = None
    settle_quiet: float | None = None
    dialogs: tuple[dict[str, Any], ...] = ()
    first_click: str | None = None  # one of FIRST_CLICK_RULES; None: the file does not say
    pointer_inside: bool = False  # the game pauses (or drops keys) when the pointer leaves

    @classmethod
    def from_dict(cls, skin: str, data: dict[str, Any], source: str = PROGRAM_FILE) -> Program:
        """The program ``data`` describes (checked against the schema: a
        :class:`ProgramError` names ``source`` and the key otherwise)."""
        check_program(data, source)
        window = data.get("window", {})
        park = data.get("park", (0.5, 0.02))
        return cls(
            skin=skin,
            command=tuple(data.get("command", ())),
            window_name=window.get("name"),
            window_class=window.get("class"),
            presets={k: tuple(v) for k, v in data.get("presets", {}).items()},
            env=dict(data.get("env", {})),
            search_path=tuple(data.get("search_path", ("/usr/games",))),
            window_size={k: (v[0], v[1]) for k, v in data.get("window_size", {}).items()},
            park=(float(park[0]), float(park[1])),
            start_timeout=float(data.get("start_timeout", 15.0)),
            about=str(data.get("about", "")),
            restart=dict(data["restart"]) if data.get("restart") else None,
            settle_quiet=(
                float(data["settle_quiet"]) if data.get("settle_quiet") is not None else None
            ),
            dialogs=tuple({"title": d["title"], "key": d["key"]} for d in data.get("dialogs", ())),
            first_click=data.get("first_click"),
            pointer_inside=bool(data.get("pointer_inside", False)),
        )

    def executable(self) -> str:
        """The full path of ``command[0]`` (``$PATH`` first, then ``search_path``)."""
        if not self.command:
            raise ProgramError(
                f'the program.json of {self.skin} has no "command": minebot cannot start '
                "this game itself (start it by hand and run minebot play)"
            )
        name = self.command[0]
        path = os.pathsep.join([os.environ.get("PATH", ""), *self.search_path])
        found = shutil.which(name, path=path)
        if found is None:
            raise ProgramError(
                f"{name} is not installed (looked in $PATH and {', '.join(self.search_path)})"
            )
        return found

    def argv(self, cols: int, rows: int, mines: int) -> list[str]:
        """The command line for a ``cols`` x ``rows`` board with ``mines`` mines."""
        key = size_key(cols, rows, mines)
        needs_preset = any("{preset}" in part for part in self.command)
        if needs_preset and key not in self.presets:
            sizes = ", ".join(self.presets) or "none"
            raise ProgramError(
                f"{self.skin} cannot start a {cols}x{rows} board with {mines} mines "
                f"(sizes it starts with: {sizes})"
            )
        argv: list[str] = [self.executable()]
        for part in self.command[1:]:
            if part == "{preset}":
                argv.extend(self.presets[key])
            else:
                argv.append(part.format(cols=cols, rows=rows, mines=mines))
        return argv

    def park_point(self, window: WindowInfo) -> tuple[float, float]:
        """Root coordinates where the pointer rests, inside the window."""
        r = window.region
        return r.left + self.park[0] * (r.width - 1), r.top + self.park[1] * (r.height - 1)


def load_program(skin: str) -> Program:
    """The program description of skin ``skin`` (its folder's ``program.json``)."""
    # A later skin folder overrides an earlier one (the user's over the shipped ones).
    for folder in reversed(template_dirs()):
        path = folder / skin / PROGRAM_FILE
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise ProgramError(f"{path}: cannot read: {exc}") from exc
            return Program.from_dict(skin, data, str(path))
    known = sorted(
        p.parent.name for folder in template_dirs() for p in folder.glob(f"*/{PROGRAM_FILE}")
    )
    raise ProgramError(
        f"no {PROGRAM_FILE} for skin {skin!r}: the bot cannot start that game itself "
        f"(games it can start: {', '.join(known) or 'none'})"
    )


def game_environment(env: dict[str, str]) -> dict[str, str]:
    """``env`` for a game, without what opencv-python sets on import for its own Qt
    (``QT_QPA_PLATFORM_PLUGIN_PATH`` and ``QT_QPA_FONTDIR`` inside the cv2 package): a Qt game
    given them cannot load its platform plugin and never opens a window (KMines).

    >>> game_environment({"QT_QPA_FONTDIR": "/v/site-packages/cv2/qt/fonts", "HOME": "/root",
    ...                   "QT_QPA_PLATFORM_PLUGIN_PATH": "/opt/qt/plugins"})
    {'HOME': '/root', 'QT_QPA_PLATFORM_PLUGIN_PATH': '/opt/qt/plugins'}
    """
    cv2_dir = f"{os.sep}cv2{os.sep}"
    return {k: v for k, v in env.items() if not (k.startswith("QT_QPA_") and cv2_dir in v)}


class RunningGame:
    """``with RunningGame(program, 30, 16, 99, env) as game:`` runs the game, finds its window.

    ``env`` is the environment (a virtual display's ``env``); the window is resized as the
    program description asks; :attr:`window` is its :class:`WindowInfo` once started. The
    program is stopped when the block ends.
    """

    def __init__(
        self,
        program: Program,
        cols: int,
        rows: int,
        mines: int,
        env: dict[str, str] | None = None,
        windows: X11Windows | None = None,
    ) -> None:
        self.program = program
        self.size = (cols, rows, mines)
        self.env = dict(env if env is not None else os.environ)
        self._windows = windows
        self._process: subprocess.Popen[bytes] | None = None
        self._tmp: str | None = None
        self.window: WindowInfo | None = None

    @property
    def windows(self) -> X11Windows:
        if self._windows is None:
            self._windows = X11Windows(self.env.get("DISPLAY"))
        return self._windows

    def start(self) -> RunningGame:
        program = self.program
        argv = program.argv(*self.size)
        self._tmp = tempfile.mkdtemp(prefix=f"minebot-{program.skin}-")
        env = game_environment(self.env)
        env.update({k: v.format(tmp=self._tmp) for k, v in program.env.items()})
        before = [w.id for w in self.windows.windows()]
        self._process = subprocess.Popen(
            argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            window = find_window(
                self.windows,
                program.window_name,
                program.window_class,
                exclude=before,
                timeout=program.start_timeout,
            )
        except Exception as exc:
            self.stop()
            raise ProgramError(
                f"{' '.join(argv)} started but its window did not appear: {exc}"
            ) from exc
        target = program.window_size.get(size_key(*self.size))
        if target is not None and (window.region.width, window.region.height) != target:
            self.windows.resize(window.id, *target)
            window = self._wait_for_size(window.id, target)
        self.window = window
        return self

    def _wait_for_size(self, window_id: int, target: tuple[int, int]) -> WindowInfo:
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline:
            now = next((w for w in self.windows.windows() if w.id == window_id), None)
            if now is not None and (now.region.width, now.region.height) == target:
                return now
            time.sleep(0.02)
        self.stop()
        raise ProgramError(f"{self.program.skin}: the window did not take the size {target}")

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def stop(self) -> None:
        if self._process is not None:
            if self._process.poll() is None:
                self._process.terminate()
                try:
                    self._process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
            self._process = None
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def __enter__(self) -> RunningGame:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
