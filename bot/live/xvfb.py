"""A virtual X display (Xvfb) to run real games on, for the demo and the end-to-end tests.

:class:`VirtualDisplay` starts ``Xvfb`` on a free display number, gives it an Xauthority file
with a fresh cookie, and points ``DISPLAY``/``XAUTHORITY`` of this process at it while the
``with`` block runs: pyautogui reads ``DISPLAY`` when it is first imported, so the display must
be up before anything imports pyautogui (:func:`bot.live.mouse.load_pyautogui` re-connects it
otherwise).

>>> VirtualDisplay(display=97).name
':97'
"""

from __future__ import annotations

import os
import secrets
import select
import shutil
import socket
import struct
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

from bot.errors import DisplayError

#: Where X servers put their lock files and sockets.
_LOCK = "/tmp/.X{n}-lock"
_SOCKET = "/tmp/.X11-unix/X{n}"


def display_in_use(n: int) -> bool:
    """True if an X server holds (or left a lock for) display ``:n``.

    >>> display_in_use(4242)
    False
    """
    return os.path.exists(_LOCK.format(n=n)) or os.path.exists(_SOCKET.format(n=n))


def free_display(first: int = 100, last: int = 599) -> int:
    """The lowest display number in ``first..last`` that no X server uses."""
    for n in range(first, last + 1):
        if not display_in_use(n):
            return n
    raise DisplayError(f"no free X display number between :{first} and :{last}")


#: Xauthority address families: a local (unix socket) host, and any host.
_FAMILY_LOCAL = 256
_FAMILY_WILD = 65535


def write_xauthority(path: Path, number: int, cookie: bytes) -> None:
    """Write an Xauthority file with an MIT-MAGIC-COOKIE-1 for display ``:number``, once for
    this host name (what python-xlib looks up) and once for any host (what libxcb accepts).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_xauthority(Path(d) / "a", 97, bytes(16))
    ...     len((Path(d) / "a").read_bytes()) > 2 * 16
    True
    """

    def field(data: bytes) -> bytes:
        return struct.pack(">H", len(data)) + data

    name, num = b"MIT-MAGIC-COOKIE-1", str(number).encode()
    entries = b""
    for family, address in ((_FAMILY_LOCAL, socket.gethostname().encode()), (_FAMILY_WILD, b"")):
        entries += struct.pack(">H", family) + field(address) + field(num) + field(name)
        entries += field(cookie)
    path.write_bytes(entries)
    path.chmod(0o600)


class VirtualDisplay:
    """``with VirtualDisplay() as vd:`` runs an Xvfb screen for the block.

    ``display`` picks the number (else the first free one from ``first``); ``size`` is the
    screen in pixels. Inside the block ``os.environ`` has ``DISPLAY`` and ``XAUTHORITY`` set and
    :attr:`env` is a copy for child processes; both are restored afterwards.
    """

    def __init__(
        self,
        size: tuple[int, int] = (1280, 1024),
        depth: int = 24,
        display: int | None = None,
        first: int = 100,
        timeout: float = 10.0,
    ) -> None:
        self.size = size
        self.depth = depth
        self.number = display
        self.first = first
        self.timeout = timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._tmpdir: Path | None = None
        self._saved_env: dict[str, str | None] = {}

    @property
    def name(self) -> str:
        """The display name, ``":N"``."""
        if self.number is None:
            raise DisplayError("the virtual display has not been started")
        return f":{self.number}"

    @property
    def env(self) -> dict[str, str]:
        """The environment for a program that should run on this display."""
        env = dict(os.environ)
        env["DISPLAY"] = self.name
        if self._tmpdir is not None:
            env["XAUTHORITY"] = str(self._tmpdir / ".Xauthority")
        return env

    def start(self) -> VirtualDisplay:
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            raise DisplayError("Xvfb is not installed (Debian/Ubuntu: apt-get install xvfb)")
        self._tmpdir = Path(tempfile.mkdtemp(prefix="minebot-xvfb-"))
        tries = [self.number] if self.number is not None else None
        last_error = ""
        for _attempt in range(5):
            number = tries.pop() if tries else free_display(self.first)
            error = self._launch(xvfb, number)
            if error is None:
                self.number = number
                self._export()
                return self
            last_error = error
            if self.number is not None:
                break  # the caller asked for this number: do not wander off to another one
        self._cleanup_tmp()
        raise DisplayError(f"Xvfb did not start: {last_error}")

    def _launch(self, xvfb: str, number: int) -> str | None:
        """Start Xvfb on ``:number``; None once it accepts clients, else the reason it failed."""
        assert self._tmpdir is not None
        auth = self._tmpdir / ".Xauthority"
        # A real cookie: the server admits only clients holding it, and python-xlib (under
        # pyautogui) finds an entry instead of printing a warning on stdout.
        write_xauthority(auth, number, secrets.token_bytes(16))
        read_fd, write_fd = os.pipe()
        w, h = self.size
        process = subprocess.Popen(
            [xvfb, f":{number}", "-screen", "0", f"{w}x{h}x{self.depth}", "-nolisten", "tcp",
             "-auth", str(auth), "-displayfd", str(write_fd)],
            pass_fds=(write_fd,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        os.close(write_fd)
        # Xvfb writes the display number to -displayfd once it is ready: wait for that line
        # rather than sleeping a guessed time.
        deadline = time.monotonic() + self.timeout
        data = b""
        try:
            while b"\n" not in data and time.monotonic() < deadline:
                ready, _, _ = select.select([read_fd], [], [], 0.1)
                if ready:
                    chunk = os.read(read_fd, 64)
                    if not chunk:
                        break
                    data += chunk
                elif process.poll() is not None:
                    break
        finally:
            os.close(read_fd)
        if data.strip() == str(number).encode():
            self._process = process
            return None
        process.kill()
        _, err = process.communicate()
        lines = err.decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else f"display :{number} not ready after {self.timeout} s"

    def _export(self) -> None:
        env = self.env
        for key in ("DISPLAY", "XAUTHORITY"):
            self._saved_env[key] = os.environ.get(key)
            os.environ[key] = env[key]

    def stop(self) -> None:
        """Stop Xvfb and restore the environment (safe to call twice)."""
        for key, value in self._saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        self._saved_env = {}
        if self._process is not None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            if self._process.stderr is not None:
                self._process.stderr.close()
            self._process = None
        self._cleanup_tmp()

    def _cleanup_tmp(self) -> None:
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    def __enter__(self) -> VirtualDisplay:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
