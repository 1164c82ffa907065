"""Paired comparisons (solver.paired): the sign test, overrides undone, same games for each side."""

from __future__ import annotations

import json

import pytest

import solver.policy
from solver.bench import BenchConfig, play_game
from solver.errors import MinebotError
from solver.paired import main, overridden, parse_override, play_paired, sign_test


def test_sign_test_matches_the_binomial_tails():
    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 5) == 1.0
    assert sign_test(9, 1) == pytest.approx(22 / 1024)  # 2 * (1 + 10) / 2**10
    assert sign_test(0, 6) == pytest.approx(2 / 64)
    # The normal approximation takes over past 1000 one-sided games and stays close to it.
    assert sign_test(560, 441) == pytest.approx(0.00018, rel=0.3)
    assert sign_test(520, 520) == 1.0


def test_bad_overrides_are_refused():
    for text in (
        "PROGRESS_BONUS=0",
        "os.path.sep='x'",
        "solver.policy.NOPE=1",
        "solver.policy.TIE=x",
    ):
        with pytest.raises(MinebotError):
            parse_override(text)


def test_overrides_hold_inside_the_block_only():
    old = solver.policy.PROGRESS_BONUS
    with overridden([parse_override("solver.policy.PROGRESS_BONUS=0.5")]):
        assert solver.policy.PROGRESS_BONUS == 0.5
    assert old == solver.policy.PROGRESS_BONUS
    with pytest.raises(RuntimeError), overridden([("solver.policy", "PROGRESS_BONUS", 2.0)]):
        raise RuntimeError
    assert old == solver.policy.PROGRESS_BONUS


def test_each_variant_plays_the_same_games_as_bench(tmp_path):
    config = BenchConfig(9, 9, 10, "classic", "corner", "best", seed=4)
    variants = {
        "base": [],
        "same": [],
        "narrow": [("solver.policy", "LOOKAHEAD_FRONTIER", 1)],
    }
    log = tmp_path / "run.jsonl"
    tally = play_paired(config, variants, 0, 30, log)
    expected = [int(play_game(config, i).won) for i in range(30)]
    assert tally.wins["base"] == expected == tally.wins["same"]
    assert len(tally.wins["narrow"]) == 30
    report = tally.report("base")
    assert report[0] == "games 30"
    assert "only same 0, only base 0, sign test p=1.0000" in report[2]
    # A resumed run plays nothing already in the log and extends it.
    again = play_paired(config, variants, 0, 30, log)
    assert again.wins == tally.wins
    lines = log.read_text().splitlines()
    assert [json.loads(x)["stop"] for x in lines] == [30]


def test_command_line_prints_the_paired_figures(tmp_path, capsys):
    log = tmp_path / "cli.jsonl"
    argv = ["--level", "beginner", "--games", "12", "--seed", "2", "--log", str(log)]
    argv += ["--variant", "base", "--variant", "pb0", "solver.policy.PROGRESS_BONUS=0.0"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("games 12\nbase: ")
    assert "only pb0 " in out and "only base " in out
    assert main(["--variant", "x", "solver.policy.TIE"]) == 2
