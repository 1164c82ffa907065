"""Signals that stop a run, and holding them off while a call to the X server is under way.

python-xlib (pyautogui's X11 layer, and the window list) speaks the X protocol in pure
Python: a KeyboardInterrupt raised between a request and its reply leaves the connection
waiting for a reply it has already lost, and the next call on it (releasing the mouse button
on the way out) spins forever. So those calls run with the stop signals held: a Ctrl-C that
arrives meanwhile is acted on as soon as the call is done.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

#: The signals that stop a run with its summary, besides Ctrl-C (SIGINT, Python's
#: KeyboardInterrupt): ``kill``, ``timeout``, the terminal closed.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def handlers_swapped(
    signals: Iterable[signal.Signals],
    handler: Callable[[int, Any], None],
    replaces: Callable[[Any], bool],
) -> Iterator[dict[int, Any]]:
    """While the block runs, ``handler`` takes each of ``signals`` whose handler ``replaces``
    accepts; yields the handlers it stands in for, put back when the block ends. Only in the
    main thread, where Python runs signal handlers (elsewhere nothing is swapped)."""
    before: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in signals:
            if replaces(signal.getsignal(sig)):
                before[sig] = signal.signal(sig, handler)
    try:
        yield before
    finally:
        for signum, old in before.items():
            signal.signal(signum, old)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """While the block runs, Ctrl-C and the stop signals are noted, not acted on; when it ends,
    the first one noted goes to the handler it would have gone to (which raises).

    The Python handlers are swapped, not the signal mask: the mask is per thread, and the
    kernel hands a blocked signal to another thread (OpenCV's workers), whose C handler still
    has Python raise in the main thread. Python runs handlers only in the main thread, so a
    call in another thread is never cut off and needs nothing.

    >>> with signals_held():
    ...     print("a call that a Ctrl-C would wait for")
    a call that a Ctrl-C would wait for
    """
    noted: list[int] = []

    def note(signum: int, frame: Any) -> None:
        noted.append(signum)

    # SIG_DFL ends the process at once and SIG_IGN does nothing: only Python's handlers wait.
    before: dict[int, Any] = {}
    try:
        with handlers_swapped((signal.SIGINT, *STOP_SIGNALS), note, callable) as before:
            yield
    finally:
        if noted:
            before[noted[0]](noted[0], None)
