"""``minebot bench``: Wilson interval, determinism, the report and the command line."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from solver.bench import BenchConfig, play_game, run_bench, wilson_interval


@pytest.mark.parametrize(
    ("wins", "games", "lo", "hi"),
    [
        (50, 100, 0.4038, 0.5962),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (4113, 10000, 0.4016, 0.4210),
    ],
)
def test_wilson_interval(wins, games, lo, hi):
    got = wilson_interval(wins, games)
    assert got == pytest.approx((lo, hi), abs=1e-4)


def test_same_seed_same_games_whatever_the_workers():
    config = BenchConfig(9, 9, 10, "classic", "corner", "best", seed=3)
    one = [play_game(config, i) for i in range(40)]
    again = [play_game(config, i) for i in range(40)]
    assert [(r.won, r.guesses) for r in one] == [(r.won, r.guesses) for r in again]
    serial = run_bench(config, 40, workers=1)
    parallel = run_bench(config, 40, workers=2)
    assert (serial.wins, serial.guesses) == (parallel.wins, parallel.guesses)
    assert serial.wins == sum(r.won for r in one)
    other = run_bench(BenchConfig(9, 9, 10, "classic", "corner", "best", seed=4), 40)
    assert [r.won for r in one] != [play_game(other.config, i).won for i in range(40)]


def test_classic_and_opening_rules_never_lose_on_the_first_click():
    for rules in ("classic", "opening"):
        config = BenchConfig(8, 8, 20, rules, "random", "min-risk", seed=1)
        # A game lost on its first click would have no guesses but be lost; with 20 mines on
        # 8x8 an unprotected first click dies 31% of the time.
        results = [play_game(config, i) for i in range(60)]
        assert all(r.won or r.guesses > 0 for r in results)
    unsafe = BenchConfig(8, 8, 20, "unsafe", "random", "min-risk", seed=1)
    results = [play_game(unsafe, i) for i in range(60)]
    assert any(not r.won and r.guesses == 1 for r in results)


def test_best_beats_chance_on_beginner():
    report = run_bench(BenchConfig(9, 9, 10, "classic", "corner", "best", seed=9), 200)
    assert report.games == 200
    assert report.win_rate > 0.8
    lo, hi = report.ci95
    assert lo < report.win_rate < hi


def test_report_as_json(capsys):
    assert main(["bench", "--level", "beginner", "--games", "20", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 20
    assert 0 <= report["wins"] <= 20
    assert report["win_rate"] == report["wins"] / 20
    lo, hi = report["ci95"]
    assert lo <= report["win_rate"] <= hi
    assert report["seconds_per_game"] > 0
    assert (report["width"], report["height"], report["mines"]) == (9, 9, 10)


def test_report_as_text(capsys):
    argv = ["bench", "--width", "5", "--height", "5", "--mines", "3", "--games", "10"]
    assert main([*argv, "--rules", "opening", "--first-click", "2,2", "--strategy", "pgms"]) == 0
    out = capsys.readouterr().out
    assert "5x5/3 rules=opening first-click=2,2 strategy=pgms" in out
    assert "games 10" in out and "95% CI" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--width", "5", "--games", "3"], "needs all of"),
        (["--level", "expert", "--mines", "3"], "not both"),
        (["--first-click", "middle"], "unknown first click"),
        (["--first-click", "40,1"], "outside"),
        (["--width", "3", "--height", "3", "--mines", "9"], "do not fit"),
        (["--games", "0"], "--games must be at least 1, got 0"),
        (["--games", "-5"], "--games must be at least 1, got -5"),
        (["--workers", "0"], "--workers must be at least 1, got 0"),
        (["--workers", "-2"], "--workers must be at least 1, got -2"),
        (["--chunk", "0"], "--chunk must be at least 1, got 0"),
        (["--width", "0", "--height", "5", "--mines", "1"], "at least one cell, got 0x5"),
        (["--width", "5", "--height", "-3", "--mines", "1"], "at least one cell, got 5x-3"),
        (["--width", "5", "--height", "5", "--mines", "-1"], "-1 mines do not fit"),
        (["--width", "5", "--height", "5", "--mines", "26"], "26 mines do not fit"),
        (["--width", "100000", "--height", "100000", "--mines", "10"], "at most 1,000,000"),
        (["--width", "1001", "--height", "1000", "--mines", "10"], "1,001,000 cells"),
        (["--start-method", "teleport"], "invalid choice"),
        (["--checkpoint", "."], ".: is a folder"),
        (["--cluster", "foo"], "cannot reach the Dask scheduler at foo: missing port number"),
        (["--cluster", "http://127.0.0.1:80"], "unknown address scheme 'http'"),
        (["--checkpoint", "/proc/no/such/file"], "cannot use as a checkpoint"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(capsys, argv, message):
    try:
        code = main(["bench", "--games", "2", *argv])
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    if "invalid choice" not in message:
        assert err.count("\n") == 1  # one line
