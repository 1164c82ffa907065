"""Starting the minebot command as a user's shell would, for tests that interrupt it."""

from __future__ import annotations

import signal


def interruptible() -> None:
    """``preexec_fn`` for :class:`subprocess.Popen`: Ctrl-C (SIGINT) back to its default in the
    child. A process started with SIGINT ignored keeps ignoring it (Python then installs no
    KeyboardInterrupt handler), and pytest-xdist's workers ignore it; a terminal never does."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
