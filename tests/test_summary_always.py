"""The run's summary however it ends: a real ``kill`` (SIGTERM) or a closed terminal (SIGHUP)
stops ``minebot play``'s loop like Ctrl-C, prints the summary (with ``--json`` the one object
on stdout) and exits 128 + the signal's number. Before, SIGTERM killed the run silently: an
unattended run stopped by ``timeout`` left no summary at all."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

# A stand-in for `minebot play --games 5 --json`: two games played, then stuck in the third
# until a signal comes; what it prints on stdout besides the summary goes to stderr.
RUN = """
import sys, time
from bot.commands.play import play_and_report
from bot.live.summary import GameResult

def play(summary):
    for n in (1, 2):
        summary.results.append(GameResult(n, "won", 1.0, 10, 0, 0, 0, 0))
    print("not JSON: goes to stderr")
    print("ready", file=sys.stderr, flush=True)
    time.sleep(60)

sys.exit(play_and_report(5, True, play))
"""


def _default_signals() -> None:
    """The run's stop signals as a terminal leaves them: tests started under ``nohup`` pass
    SIGHUP on ignored, and minebot rightly keeps a signal ignored when it started."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_stops_the_run_with_its_summary(sig):
    run = subprocess.Popen(
        [sys.executable, "-c", RUN], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_default_signals,
    )  # fmt: skip
    assert run.stderr is not None
    line = ""
    deadline = time.monotonic() + 60
    while "ready" not in line and time.monotonic() < deadline:
        line = run.stderr.readline()
    run.send_signal(sig)
    out, err = run.communicate(timeout=30)
    assert run.returncode == 128 + sig, err
    summary = json.loads(out)  # exactly one JSON object on stdout
    assert summary["games"] == 2 and summary["wins"] == 2 and summary["games_wanted"] == 5
    assert summary["stopped_because"] == f"terminated ({signal.Signals(sig).name})"
    assert f"stopped by {signal.Signals(sig).name}" in err


def test_a_signal_ignored_at_the_start_stays_ignored():
    """Under ``nohup`` SIGHUP is ignored: the run goes on through it."""
    from bot.commands.play import stop_on_signals

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with stop_on_signals():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_IGN, signal.SIG_DFL)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)
