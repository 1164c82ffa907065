"""Games minebot ships no skin for, learnt by ``minebot tune`` from their fixtures, and how
the skin learnt reads every fixture of its game.

Each game is tuned from ONE screenshot with its text board and at most two without, into a
temporary folder; then every ``tests/fixtures/<game>/NAME.png`` is read with that skin alone,
as ``minebot replay --skin`` does, and compared with ``NAME.txt``: exact, refused (the reader
said why it would not read it), or misread (a board given that differs: a wrong cell or a
board of another size). A misread is the one outcome never allowed.

Figures: ``python -m tests.tune_games [GAME ...]`` prints, per game, the fixtures exact /
refused / misread and why each refused one was refused; then per level, tuned from that
level's mid-game shot (KMines draws each level's cells at another size: its fixtures of that
level are read; the other games': all their fixtures), and again with its lost board labelled
too (the classes a loss shows, taught as the README says; the won board where there is no lost
one). Last, for games that draw each level's cells at a size of their own, one skin tuned from
every level's labelled shot at once (each size learnt from its own, see
:mod:`bot.reading.tune_sizes`), then with every level's lost board too.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@dataclass(frozen=True)
class Recipe:
    """What a game is tuned from: one labelled fixture, up to two unlabelled ones."""

    labelled: str
    unlabelled: tuple[str, ...] = ()


#: The screenshots each game is learnt from (fixture names in ``tests/fixtures/<game>/``).
RECIPES = {
    "kmines": Recipe("hard-mid", ()),
    "kmines-classic": Recipe("medium-mid", ("medium-fresh",)),
    "winemine": Recipe("expert-mid", ("expert-fresh",)),
    "xbomb": Recipe("expert-mid", ("expert-fresh",)),
    "web-win98": Recipe("expert-mid", ("expert-fresh",)),
    "ace-minesweeper": Recipe("16x16-mid", ("16x16-fresh",)),
    "gnome-mines-classic": Recipe("medium-mid", ("medium-fresh",)),
    "gnome-mines-default": Recipe("medium-mid", ("medium-fresh",)),
    "kmines-green": Recipe("medium-mid", ("medium-fresh",)),
}


@dataclass
class Outcome:
    """How the tuned skin read each fixture of a game: name -> 'exact', 'refused: why' or
    'misread: what'."""

    game: str
    results: dict[str, str] = field(default_factory=dict)

    def names(self, kind: str) -> list[str]:
        return [n for n, r in self.results.items() if r.split(":")[0] == kind]

    def summary(self) -> str:
        return (
            f"{self.game}: {len(self.names('exact'))} exact, {len(self.names('refused'))} "
            f"refused, {len(self.names('misread'))} misread of {len(self.results)}"
        )


def tune_game(
    game: str,
    work: Path,
    recipe: Recipe | None = None,
    also: tuple[str, ...] = (),
    skin: str = "",
) -> Path:
    """Tune skin ``skin`` (default ``t-<game>``) from the game's recipe (or ``recipe``) into
    ``work/skins``, with the fixtures ``also`` labelled after the recipe's labelled one; the
    skins folder."""
    from bot.reading.tune import tune

    recipe = recipe or RECIPES[game]
    shots = work / "shots"
    shots.mkdir(parents=True, exist_ok=True)
    labelled = (recipe.labelled, *also)
    for name in labelled:
        shutil.copy(_fixture(game, name, ".png"), shots)
        shutil.copy(_fixture(game, name, ".txt"), shots)
    for name in recipe.unlabelled:
        shutil.copy(_fixture(game, name, ".png"), shots)
    images = [shots / f"{Path(n).name}.png" for n in (*labelled, *recipe.unlabelled)]
    result = tune(images, skin or f"t-{game}", out=work / "skins")
    if result.folder is None:
        from bot.errors import TuneError

        raise TuneError(f"{game}: tune left groups unnamed: {len(result.unnamed)}")
    return work / "skins"


def _fixture(game: str, name: str, suffix: str) -> Path:
    """The fixture file ``name`` of ``game`` (``tests/fixtures/<game>/NAME``), or of another
    folder when ``name`` says which (``kmines-sizes/resized900x800-medium-mid``)."""
    path = FIXTURES / name if "/" in name else FIXTURES / game / name
    return path.with_name(path.name + suffix)


#: Games whose cells are drawn at another size on each level (KMines fills its window): a skin
#: is learnt per size, from that level's fixtures (``<level>-NAME``).
LEVELS_DRAWN_APART = {
    "kmines": ("easy", "medium", "hard"),
    "kmines-classic": ("easy", "medium"),
    "gnome-mines-classic": ("small", "medium"),  # 46 px cells in its own window, 36 px at 820x668
    "gnome-mines-default": ("small", "medium"),
    "kmines-green": ("easy", "medium"),
}


def level_recipes(game: str) -> dict[str, tuple[Recipe, tuple[str, ...]]]:
    """Per level of ``game``: the recipe (one labelled shot: mid-game, else the first click;
    the fresh board unlabelled) and the shot that teaches more classes afterwards (the lost
    board labelled, else the won one: flags and numbers a first click did not show). A game
    whose levels share one cell size is tuned from each level alone too: what lies round a
    board changes with its width (a header's counters)."""
    names = sorted(p.stem for p in (FIXTURES / game).glob("*.png"))
    levels = LEVELS_DRAWN_APART.get(game) or sorted({n.rsplit("-", 1)[0] for n in names})
    out: dict[str, tuple[Recipe, tuple[str, ...]]] = {}
    for level in levels:
        prefix = f"{level}-"
        labelled = next(f"{prefix}{k}" for k in ("mid", "first") if f"{prefix}{k}" in names)
        fresh = tuple(n for n in (f"{prefix}fresh",) if n in names)
        later = [n for n in (f"{prefix}lost", f"{prefix}won") if n in names and n != labelled]
        out[level] = (Recipe(labelled, fresh), tuple(later[:1]))
    return out


def read_fixtures(game: str, skins: Path, only: str = "", folder: str = "") -> Outcome:
    """Read every fixture of ``game`` (named ``only``..., when given; in ``tests/fixtures/
    <folder>`` when given, e.g. ``kmines-sizes``) with the skin ``t-<game>`` from ``skins``."""
    import cv2

    from bot.errors import MinebotError
    from bot.reading.read import read_image
    from bot.reading.skins import find_skin

    skin = find_skin(f"t-{game}", dirs=[skins])
    outcome = Outcome(game)
    for png in sorted((FIXTURES / (folder or game)).glob(f"{only}*.png")):
        want = png.with_suffix(".txt").read_text(encoding="utf-8").strip("\n")
        try:
            got = str(read_image(cv2.imread(str(png)), [skin]).board)
        except MinebotError as refused:
            outcome.results[png.stem] = f"refused: {refused}"
            continue
        if got == want:
            outcome.results[png.stem] = "exact"
        else:
            rows = got.splitlines()
            size = f"{len(rows[0]) if rows else 0}x{len(rows)}"
            outcome.results[png.stem] = f"misread: {size} board read"
    return outcome


def main(argv: list[str]) -> int:
    print("Each game tuned from its recipe (RECIPES), every fixture of the game read:")
    for game in argv or sorted(RECIPES):
        recipe = RECIPES[game]
        how = f"tuned from {recipe.labelled} + {list(recipe.unlabelled)}"
        _print_tuned(game, game, recipe, (), "", how)
    print("\nPer level, tuned from that level's shots, then taught its lost (else won) board (the")
    print("fixtures read: that level's where each level draws its own cell size, else all):")
    for game in argv or sorted(RECIPES):
        for level, (recipe, later) in level_recipes(game).items():
            only = f"{level}-" if game in LEVELS_DRAWN_APART else ""
            steps: list[tuple[tuple[str, ...], str]] = [((), "one labelled shot")]
            if later:
                steps.append((later, f"+ {', '.join(later)} labelled"))
            for also, how in steps:
                label, how = f"{game} {level}", f"{recipe.labelled} {how}"
                _print_tuned(label, game, recipe, also, only, how)
    print("\nEvery size at once (games drawing each level's cells at a size of its own): one")
    print("skin tuned from each level's labelled shot, then with each level's lost board too:")
    for game in argv or sorted(RECIPES):
        if game not in LEVELS_DRAWN_APART:
            continue
        per_level = level_recipes(game).values()
        shots = tuple(recipe.labelled for recipe, _ in per_level)
        later = tuple(n for _, taught in per_level for n in taught)
        for also, how in ((shots[1:], "labelled shots"), (shots[1:] + later, "+ lost boards")):
            _print_tuned(game, game, Recipe(shots[0]), also, "", f"{', '.join(shots)} {how}")
    return 0


def _print_tuned(
    label: str, game: str, recipe: Recipe, also: tuple[str, ...], only: str, how: str
) -> None:
    """Tune ``game`` from ``recipe`` with ``also`` labelled, read its fixtures named ``only``...
    and print the outcome (``label``: what was tuned, ``how``: from what)."""
    from bot.errors import TuneError

    with tempfile.TemporaryDirectory() as tmp:
        try:
            outcome = read_fixtures(game, tune_game(game, Path(tmp), recipe, also), only)
        except TuneError as refused:
            print(f"  {label}: tune refused ({how}): {str(refused)[:120]}")
            return
    print(f"  {label}: {outcome.summary().split(': ', 1)[1]}  ({how})")
    for name, result in outcome.results.items():
        if result != "exact":
            print(f"      {name}: {result[:120]}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
