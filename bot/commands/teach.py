"""The program.json ``minebot tune`` writes beside a skin: what ``minebot play`` needs to play
the game unattended (how to restart, the first-click rule, the dialogs, the pointer), from
``tune``'s options and an optional ``--program`` file to start from.

>>> from argparse import Namespace
>>> args = Namespace(program=None, restart_key="F2", restart_button=None, first_click="classic",
...                  dialog=[{"title": "^Fastest", "key": "Return"}], pointer_inside=False,
...                  restart_interval=1.5)
>>> program = program_for(args)
>>> program["restart"], program["first_click"], program["dialogs"][0]["key"]
({'key': 'F2', 'min_interval': 1.5}, 'classic', 'Return')
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from bot.errors import ProgramError
from bot.live.program_schema import check_program
from bot.live.programs import PROGRAM_FILE

#: The file name a ``--restart-button`` picture gets in the skin folder.
BUTTON_FILE = "restart-button.png"
#: A restart button picture larger than this (pixels a side) is a screenshot, not a button.
BUTTON_MAX_SIDE = 200


def program_for(args: argparse.Namespace) -> dict[str, Any]:
    """The program description to write: ``--program``'s (else the one a previous tune of this
    skin wrote; checked, naming the file), with the options added (a dialog of the same title
    replaced); checked against the schema."""
    from bot.userfiles import read_text

    data: dict[str, Any] = {}
    program = args.program
    if program is None and getattr(args, "name", None):
        # Tuning a skin again (a class met later): keep what its program.json said.
        from bot.reading.tune import default_out

        earlier = (args.out or default_out()) / args.name / PROGRAM_FILE
        program = earlier if earlier.is_file() else None
    if program is not None:
        text = read_text(program, "program description")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ProgramError(f"{program}: the program description is not JSON: {exc}") from exc
        check_program(data, str(program))
    if args.restart_key:
        data["restart"] = {"key": args.restart_key}
    if args.restart_button is not None:
        data["restart"] = {"button": BUTTON_FILE}
    interval = getattr(args, "restart_interval", None)
    if interval is not None:
        if "restart" not in data:
            raise ProgramError(
                "--restart-interval needs a restart: give --restart-key or --restart-button"
            )
        data["restart"]["min_interval"] = interval
    if args.first_click:
        data["first_click"] = args.first_click
    if args.dialog:
        titles = {d["title"] for d in args.dialog}
        kept = [d for d in data.get("dialogs", []) if d.get("title") not in titles]
        data["dialogs"] = kept + list(args.dialog)
    if args.pointer_inside:
        data["pointer_inside"] = True
    check_program(data, "the program.json tune would write")
    return data


def check_button(path: Path) -> np.ndarray:
    """The restart button's picture, read and checked (a small picture, not a screenshot)."""
    from bot.userfiles import read_image

    picture = read_image(path, "restart button picture")
    h, w = picture.shape[:2]
    if max(h, w) > BUTTON_MAX_SIDE:
        raise ProgramError(
            f"{path}: the restart button picture is {w}x{h} px: cut just the button (at most "
            f"{BUTTON_MAX_SIDE} px a side) out of a screenshot"
        )
    return picture


def write_program(folder: Path, program: dict[str, Any], button: np.ndarray | None) -> None:
    """Write ``program.json`` (and the restart button's picture) into the skin ``folder``."""
    from bot.userfiles import write_image, write_text

    if button is not None:
        write_image(folder / BUTTON_FILE, button, "restart button picture")
    text = json.dumps(program, indent=2, ensure_ascii=False) + "\n"
    write_text(folder / PROGRAM_FILE, text, "program description")
