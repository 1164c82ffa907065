"""Pictures with no colour (a greyscale screenshot, a desktop's greyscale colour filter): the
skins as such a picture shows them.

A game that tells its numbers apart by colour still draws each in its own shape; in grey the
shapes are what is left. A picture is greyed by one of a few common conversions; its board is
looked for with the skins' images greyed by each in turn (:func:`grey_skin_sets`), in those
greys as drawn (a tone curve fitted to greys let one conversion's 2 pass for another's 3), and
read in the conversion's greys its cells lie nearest (see ``locate._locate_grey``). Classes
that only colour told apart become one grey: a cell matches both equally and is refused by its
margin, never guessed.

>>> from bot.reading.skins import find_skin
>>> grey = greyed_skin(find_skin("winmine"), 0)
>>> image = grey.templates["1"]
>>> bool((image[:, :, 0] == image[:, :, 2]).all())
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from bot.reading.skins import Skin

#: A picture whose every pixel's channels lie within this many levels of each other has no
#: colour (a greyscale screenshot, JPEG's rounding allowed).
GREY_SPREAD = 3
#: A skin whose images hold a pixel whose channels lie farther apart than this draws in colour.
COLOUR_SPREAD = 40
#: The weights (blue, green, red) of the greyscale conversions in common use that weigh the
#: channels: BT.601 luma (OpenCV, Pillow's "L", most screenshot tools and colour filters),
#: BT.709 luma (ImageMagick, GIMP's luminance) and the plain mean (GIMP's average). GIMP's
#: lightness, the mean of a pixel's largest and smallest channel, is the last conversion.
GREY_WEIGHTS = ((0.114, 0.587, 0.299), (0.0722, 0.7152, 0.2126), (1 / 3, 1 / 3, 1 / 3))
#: How many conversions there are: the weighted ones, then lightness.
CONVERSIONS = len(GREY_WEIGHTS) + 1
#: Pixels looked at first, one in this many each way: a picture in colour shows it at once.
COARSE_STEP = 8


def has_no_colour(frame_bgr: np.ndarray) -> bool:
    """Whether every pixel of ``frame_bgr`` (BGR or BGRA) is grey (:data:`GREY_SPREAD`).

    >>> picture = np.full((8, 8, 3), 120, np.uint8)
    >>> has_no_colour(picture)
    True
    >>> picture[5, 7] = (0, 0, 255)
    >>> has_no_colour(picture)
    False
    """
    if frame_bgr.ndim != 3 or frame_bgr.shape[2] < 3:
        return False
    coarse = frame_bgr[::COARSE_STEP, ::COARSE_STEP]
    return not _coloured(coarse) and not _coloured(frame_bgr)


def _coloured(view: np.ndarray) -> bool:
    """Whether two channels of some pixel of ``view`` lie more than :data:`GREY_SPREAD` apart
    (OpenCV's channel arithmetic: a desktop in a few milliseconds)."""
    import cv2

    b, g, r = cv2.split(np.ascontiguousarray(view[:, :, :3]))
    return any(
        cv2.minMaxLoc(cv2.absdiff(x, y))[1] > GREY_SPREAD for x, y in ((b, g), (g, r), (b, r))
    )


def draws_in_colour(skin: Skin) -> bool:
    """Whether some image of ``skin`` has a pixel whose channels lie more than
    :data:`COLOUR_SPREAD` apart."""
    return any(
        int((image.max(axis=2).astype(np.int16) - image.min(axis=2)).max()) > COLOUR_SPREAD
        for _, image in skin.variants
    )


def grey_of(image: np.ndarray, conversion: int) -> np.ndarray:
    """``image`` (BGR) in grey by conversion ``conversion``: one of :data:`GREY_WEIGHTS`, or
    past them lightness; three equal channels.

    >>> red = np.full((1, 1, 3), (0, 0, 255), np.uint8)
    >>> [int(grey_of(red, k)[0, 0, 0]) for k in range(CONVERSIONS)]
    [76, 54, 85, 128]
    """
    pixels = image[:, :, :3].astype(np.float64)
    if conversion < len(GREY_WEIGHTS):
        grey = pixels @ GREY_WEIGHTS[conversion]
    else:
        grey = (pixels.max(axis=2) + pixels.min(axis=2)) / 2
    return np.repeat(np.clip(np.rint(grey), 0, 255).astype(np.uint8)[:, :, None], 3, axis=2)


def greyed_skin(skin: Skin, conversion: int) -> Skin:
    """``skin`` as a picture with no colour shows it, each image in grey by ``conversion``
    (see :func:`grey_of`)."""
    return skin.redrawn(lambda image: grey_of(image, conversion))


def grey_skin_sets(skins: Sequence[Skin]) -> Iterator[list[Skin]]:
    """``skins`` as a picture with no colour may show them, one conversion at a time (those
    drawn in colour in grey, the others as they are): a picture is greyed by one conversion,
    and one conversion's greys read against another's took a GNOME Mines 2 for a 3."""
    coloured = [draws_in_colour(skin) for skin in skins]
    for conversion in range(CONVERSIONS):
        yield [greyed_skin(skin, conversion) if own else skin
               for skin, own in zip(skins, coloured, strict=True)]  # fmt: skip
