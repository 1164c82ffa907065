"""``minebot bench`` on a Dask cluster, on spawned processes, and resumed from a checkpoint: the
same seed gives the same summary whatever plays the games."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli import main
from solver.bench import BenchConfig, BenchReport, run_bench
from tests.processes import interruptible

BEGINNER = BenchConfig(9, 9, 10, "classic", "corner", "min-risk", seed=11)


def outcome(report: BenchReport) -> tuple[int, int, int, int]:
    """What must not depend on where the games ran (times do)."""
    return report.games, report.wins, report.guesses, report.first_safe


@pytest.fixture(scope="module")
def in_this_process() -> BenchReport:
    return run_bench(BEGINNER, 300)


def test_spawned_processes_give_the_local_result(in_this_process):
    spawned = run_bench(BEGINNER, 300, workers=2, start_method="spawn")
    assert outcome(spawned) == outcome(in_this_process)


def test_forked_processes_with_odd_chunks_give_the_local_result(in_this_process):
    forked = run_bench(BEGINNER, 300, workers=2, start_method="fork", chunk=7)
    assert outcome(forked) == outcome(in_this_process)


def test_a_stopped_run_resumes_from_its_checkpoint(tmp_path, in_this_process):
    path = tmp_path / "run.jsonl"
    run_bench(BEGINNER, 300, chunk=40, checkpoint=str(path), workers=2)
    header, *chunks = path.read_text().splitlines()
    assert len(chunks) == 8  # 7 chunks of 40 and one of 20
    # As if the run had stopped after three chunks, in the middle of writing the fourth.
    path.write_text("\n".join([header, *chunks[:3]]) + "\n" + chunks[3][:10])
    resumed = run_bench(BEGINNER, 300, chunk=999, checkpoint=str(path))
    assert outcome(resumed) == outcome(in_this_process)
    assert resumed.resumed == 120
    assert len(path.read_text().splitlines()) == 9  # the cut line replaced, nothing twice
    again = run_bench(BEGINNER, 300, checkpoint=str(path))
    assert outcome(again) == outcome(in_this_process) and again.resumed == 300


def test_a_checkpoint_of_another_series_is_refused(tmp_path, capsys):
    path = tmp_path / "run.jsonl"
    args = ["bench", "--level", "beginner", "--games", "20", "--checkpoint", str(path)]
    assert main(args) == 0
    capsys.readouterr()
    assert main([*args[:-2], "--seed", "5", "--checkpoint", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "run.jsonl: written for another series" in err


def test_a_local_dask_cluster_gives_the_local_result(capsys, in_this_process):
    argv = ["bench", "--level", "beginner", "--games", "300", "--seed", "11", "--json"]
    argv += ["--strategy", "min-risk", "--workers", "2"]
    assert main([*argv, "--cluster", "local"]) == 0
    on_cluster = json.loads(capsys.readouterr().out)
    assert main(argv) == 0  # the same on two local processes
    local = json.loads(capsys.readouterr().out)
    keys = ("games", "wins", "guesses_per_game", "first_safe")
    assert [on_cluster[k] for k in keys] == [local[k] for k in keys]
    assert on_cluster["games"] == in_this_process.games == 300
    assert on_cluster["wins"] == in_this_process.wins
    assert 0 < on_cluster["wins"] < 300  # a real series, not an empty one


@pytest.mark.parametrize("stop", ["ctrl-c", "sigterm"])
def test_an_interrupted_run_stops_in_one_line_and_resumes(tmp_path, stop, in_this_process):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) or SIGTERM (a batch
    system): exit 130, one line, no worker traceback; the same command then finishes the series
    with the same result as a run never stopped."""
    path = tmp_path / "run.jsonl"
    argv = [sys.executable, "-m", "bot.cli", "bench", "--level", "beginner", "--games", "300",
            "--seed", "11", "--strategy", "min-risk", "--workers", "2", "--chunk", "5",
            "--checkpoint", str(path), "--json"]  # fmt: skip
    run = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True, env=_env(),
                           preexec_fn=interruptible)  # fmt: skip
    deadline = time.monotonic() + 60
    while not path.exists() or len(path.read_text().splitlines()) < 4:  # header and 3 chunks
        assert time.monotonic() < deadline and run.poll() is None
        time.sleep(0.05)
    if stop == "ctrl-c":
        os.killpg(run.pid, signal.SIGINT)
    else:
        run.send_signal(signal.SIGTERM)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130 and out == ""
    assert err == "minebot bench: interrupted\n"
    kept = len(path.read_text().splitlines()) - 1
    assert 3 <= kept < 60
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=_env())
    report = json.loads(done.stdout)
    assert report["resumed"] == 5 * kept
    never_stopped = in_this_process
    assert (report["games"], report["wins"], report["first_safe"]) == (
        never_stopped.games,
        never_stopped.wins,
        never_stopped.first_safe,
    )
    assert report["guesses_per_game"] == never_stopped.guesses_per_game


def _env() -> dict[str, str]:
    """This environment with the repository first on the path (the tests may run uninstalled)."""
    root = str(Path(__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
