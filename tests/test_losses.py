"""Where games are lost: each guess filed under the rule that chose it, every loss counted once."""

from __future__ import annotations

import random

from solver.bench import BenchConfig, play_game
from solver.losses import FIRST_CLICK, main, tally
from solver.policy import GUESS_RULES, plan


def guess_of(rows: list[str], mines: int, strategy: str = "best"):
    width, height = len(rows[0]), len(rows)
    moves = plan(list("".join(rows)), width, height, mines, strategy, random.Random(0))
    return next(m for m in moves if m.is_guess)


def test_each_guess_says_which_rule_chose_it():
    # A pair no number can ever settle, on a board with too many layouts for the endgame.
    fifty = [".3F" + "." * 27, ".6F" + "." * 27, "FFF" + "." * 27] + ["." * 30] * 13
    assert guess_of(fifty, 99).why == "fifty-fifty"
    # The same pair alone: few layouts, searched exactly.
    assert guess_of([".3F", ".6F", "FFF"], 6).why == "endgame"
    # A corner 1 on an open expert board: the look-ahead's guess.
    assert guess_of(["1" + "." * 29] + ["." * 30] * 15, 99).why == "look-ahead"
    assert guess_of(["1" + "." * 29] + ["." * 30] * 15, 99, "min-risk").why == "min-risk"
    assert guess_of(["1" + "." * 29] + ["." * 30] * 15, 99, "pgms").why == "pgms"
    assert {"endgame", "fifty-fifty", "look-ahead", "min-risk", "pgms"} == set(GUESS_RULES)


def test_the_table_counts_every_guess_and_every_loss():
    config = BenchConfig(16, 16, 40, seed=4)
    table = tally(config, 0, 40)
    results = [play_game(config, i) for i in range(40)]
    assert table.games == 40
    assert table.wins == sum(r.won for r in results)
    assert sum(row.guesses for row in table.rows.values()) == sum(r.guesses for r in results)
    # Classic rules: the first click is safe, so every loss is on a guess.
    assert sum(row.lost for row in table.rows.values()) == 40 - table.wins > 0
    assert all(why in GUESS_RULES for why, _stage in table.rows)
    assert {stage for _why, stage in table.rows} <= {"early", "middle", "late"}


def test_a_first_click_that_may_lose_is_a_guess_too():
    config = BenchConfig(9, 9, 10, rules="unsafe", first_click="random", seed=6)
    table = tally(config, 0, 60)
    results = [play_game(config, i) for i in range(60)]
    assert sum(row.guesses for row in table.rows.values()) == sum(r.guesses for r in results)
    assert sum(row.lost for row in table.rows.values()) == 60 - table.wins
    assert table.rows[FIRST_CLICK, "early"].lost == sum(not r.first_safe for r in results) > 0


def test_the_command_prints_the_table(capsys):
    assert main(["--level", "beginner", "--games", "30", "--seed", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("games 30, wins ")
    assert out[1].split()[:3] == ["rule", "stage", "guesses"]
    assert len(out) > 2
