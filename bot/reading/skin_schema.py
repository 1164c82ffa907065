"""Checks of a skin's ``skin.json`` beyond loading it: the keys and the kinds of their values
(against :data:`SKIN_SCHEMA`), and the game's mine counter, so that a mistake names the file and
the key rather than failing later in the reader."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from bot.errors import SkinFormatError

#: The JSON schema every skin.json is checked against (keys and the values they may take).
SKIN_SCHEMA = Path(__file__).resolve().parent / "skin.schema.json"


@lru_cache(maxsize=1)
def _skin_validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(SKIN_SCHEMA.read_text(encoding="utf-8")))


def check_skin_meta(meta: Mapping[str, Any], path: Path) -> None:
    """Raise :class:`SkinFormatError` naming ``path`` and the key when ``meta`` (a parsed
    skin.json) does not follow :data:`SKIN_SCHEMA`: an unknown key, a missing one or a value of
    the wrong kind.

    >>> check_skin_meta({"cell": {"pitch": [16, 16]}, "templates": {"covered": "c.png"},
    ...                  "match": {"tolerence": 9}}, Path("my/skin.json"))
    Traceback (most recent call last):
    ...
    bot.errors.SkinFormatError: my/skin.json: match: unknown key 'tolerence' (known: tolerance, ...
    >>> check_skin_meta({"cell": {"pitch": [16, 16]}, "templates": {"covered": "c.png"},
    ...                  "match": {"tolerance": "high"}}, Path("my/skin.json"))
    Traceback (most recent call last):
    ...
    bot.errors.SkinFormatError: my/skin.json: match.tolerance: 'high' is not of type 'integer'
    """
    from jsonschema.exceptions import best_match

    error = best_match(_skin_validator().iter_errors(meta))
    if error is None:
        return
    where = ".".join(str(part) for part in error.absolute_path) or "top level"
    if error.validator == "additionalProperties":
        allowed = error.schema.get("properties", {})
        extra = sorted(set(error.instance) - set(allowed))
        known = ", ".join(allowed)
        keys = ", ".join(repr(k) for k in extra)
        raise SkinFormatError(f"{path}: {where}: unknown key {keys} (known: {known})")
    raise SkinFormatError(f"{path}: {where}: {error.message}")


def check_counter(folder: Path, path: Path, counter: Any) -> None:
    """The "counter" object, when there is one: its glyph images exist, ``box`` has four
    numbers and ``reads`` is a pattern with a ``total`` or ``left`` group (read by
    :func:`bot.reading.read.read_counter`)."""
    import re

    if counter is None:
        return
    if not isinstance(counter, dict):
        raise ValueError("'counter' must be an object")
    if "box" in counter and len(counter["box"]) != 4:
        raise ValueError("'counter.box' must be [x0, y0, x1, y1]")
    if "from" in counter and len(counter["from"]) != 4:
        raise ValueError("'counter.from' must be four fractions of the board")
    if counter.get("glyphs"):
        try:
            groups = re.compile(str(counter.get("reads", ""))).groupindex
        except re.error as exc:
            raise ValueError(f"'counter.reads' is not a regular expression: {exc}") from exc
        if not {"total", "left"} & set(groups):
            raise ValueError("'counter.reads' needs a (?P<total>...) or (?P<left>...) group")
    for file in (counter.get("glyphs") or {}).values():
        if not (folder / file).is_file():
            raise SkinFormatError(f"{folder / file}: missing (a counter glyph named in {path})")
