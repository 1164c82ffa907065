"""The schema of ``program.json`` (how play starts, restarts and handles one game), and the
check that names the file and the key of anything wrong.

Every key is optional: a game started by hand needs no ``command`` nor ``window``.

>>> check_program({"first_click": "opening", "restart": {"key": "n"}}, "p.json")
>>> check_program({"first_clik": "opening"}, "p.json")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bot.errors.ProgramError: p.json: unknown key 'first_clik' (known: about, command, ...)
>>> check_program({"restart": {"key": 3}}, "p.json")
Traceback (most recent call last):
...
bot.errors.ProgramError: p.json: key 'restart.key': 3 is not of type 'string'
"""

from __future__ import annotations

from typing import Any

from bot.errors import ProgramError

_ABOUT = {"type": "string", "description": "free text for people"}
_STRINGS = {"type": "array", "items": {"type": "string"}}
_FRACTION = {"type": "number", "minimum": 0, "maximum": 1}
_SIZE_KEY = "^[0-9]+x[0-9]+n[0-9]+$"

#: What the game guarantees about its first click (``"first_click"``): ``opening``: the cell
#: clicked and its neighbours hold no mine, so an area opens; ``classic``: the cell clicked
#: holds no mine; ``unsafe``: nothing; ``pre-opened``: the game opens an area itself before the
#: first click, which is unprotected.
FIRST_CLICK_RULES = ("opening", "classic", "unsafe", "pre-opened")

_RESTART = {
    "type": "object",
    "additionalProperties": False,
    "description": "how to start the next game: one of key, click, button",
    "properties": {
        "about": _ABOUT,
        "key": {"type": "string", "minLength": 1, "description": "a key or combo: n, F2, ctrl+n"},
        "button": {
            "type": "string",
            "pattern": r"^[^/\\]+\.png$",
            "description": "a picture (PNG in the skin folder) of the button to click",
        },
        "click": {
            "type": "object",
            "additionalProperties": False,
            "description": "a point relative to the board: fractions of its size plus offsets",
            "properties": {
                "x_fraction": {"type": "number"},
                "y_fraction": {"type": "number"},
                "x_offset": {"type": "number"},
                "y_offset": {"type": "number"},
                "units": {"enum": ["skin", "pixels"]},
            },
        },
        "min_interval": {
            "type": "number",
            "minimum": 0,
            "maximum": 60,
            "description": "fewest seconds between two restarts (a layout dealt from the clock)",
        },
    },
    "oneOf": [{"required": ["key"]}, {"required": ["button"]}, {"required": ["click"]}],
}

PROGRAM_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "about": _ABOUT,
        "command": {**_STRINGS, "minItems": 1},
        "presets": {
            "type": "object",
            "propertyNames": {"pattern": _SIZE_KEY},
            "additionalProperties": _STRINGS,
        },
        "env": {"type": "object", "additionalProperties": {"type": "string"}},
        "search_path": _STRINGS,
        "window": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"name": {"type": "string"}, "class": {"type": "string"}},
        },
        "window_size": {
            "type": "object",
            "propertyNames": {"pattern": _SIZE_KEY},
            "additionalProperties": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1},
                "minItems": 2,
                "maxItems": 2,
            },
        },
        "park": {"type": "array", "items": _FRACTION, "minItems": 2, "maxItems": 2},
        "pointer_inside": {"type": "boolean"},
        "start_timeout": {"type": "number", "exclusiveMinimum": 0},
        "settle_quiet": {"type": "number", "minimum": 0, "maximum": 5},
        "restart": _RESTART,
        "dialogs": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["title", "key"],
                "properties": {
                    "title": {"type": "string", "minLength": 1},
                    "key": {"type": "string", "minLength": 1},
                    "about": _ABOUT,
                },
            },
        },
        "first_click": {"enum": list(FIRST_CLICK_RULES)},
        "first_click_about": _ABOUT,
    },
}


def check_program(data: Any, source: str) -> None:
    """Raise :class:`ProgramError` naming ``source`` and the key when ``data`` is not a valid
    program description (the first problem found, deepest key first)."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(PROGRAM_SCHEMA).iter_errors(data))
    if error is None:
        return
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = error.schema.get("properties", {})
        unknown = sorted(k for k in error.instance if k not in allowed)
        where = ".".join(str(p) for p in [*error.absolute_path, unknown[0]])
        raise ProgramError(f"{source}: unknown key {where!r} (known: {', '.join(allowed)})")
    where = ".".join(str(p) for p in error.absolute_path)
    message = error.message
    if error.validator == "oneOf":
        message = "give exactly one of 'key', 'click', 'button'"
    raise ProgramError(f"{source}: {f'key {where!r}' if where else 'the top level'}: {message}")
