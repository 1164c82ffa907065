"""Photometric changes a screenshot may go through on its way to the reader (display settings,
night light, colour profiles, lossy compression), applied to real fixtures by the tests.

>>> import numpy as np
>>> grey = np.full((2, 2, 3), 100, np.uint8)
>>> int(brightness(grey, 20)[0, 0, 0]), int(contrast(grey, 1.1)[0, 0, 0])
(120, 97)
>>> int(gamma(grey, 1.25)[0, 0, 0]), night_light(grey)[0, 0].tolist()
(79, [80, 100, 100])
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def _lut(frame: np.ndarray, curve: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``frame`` with every value ``v`` replaced by ``curve(v)`` (rounded, clipped to 0..255)."""
    values = np.clip(np.round(curve(np.arange(256, dtype=np.float64))), 0, 255).astype(np.uint8)
    return values[frame]


def brightness(frame: np.ndarray, delta: int) -> np.ndarray:
    """Every channel ``delta`` levels brighter (negative: darker)."""
    return _lut(frame, lambda v: v + delta)


def contrast(frame: np.ndarray, factor: float) -> np.ndarray:
    """Contrast scaled by ``factor`` around mid-grey."""
    return _lut(frame, lambda v: (v - 128) * factor + 128)


def gamma(frame: np.ndarray, power: float) -> np.ndarray:
    """A gamma curve: ``255 * (v / 255) ** power`` (above 1 darkens the mid-tones)."""
    return _lut(frame, lambda v: 255 * (v / 255) ** power)


def night_light(frame: np.ndarray, blue: float = 0.8) -> np.ndarray:
    """A warm tint: the blue channel (BGR's first) times ``blue``."""
    out = frame.copy()
    out[..., 0] = _lut(frame[..., 0], lambda v: v * blue)
    return out


def saturation(frame: np.ndarray, factor: float) -> np.ndarray:
    """Colours ``factor`` times as saturated (HSV's saturation; below 1 towards grey), as a
    display's or a viewer's colour setting does."""
    import cv2

    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV).astype(np.float64)
    hsv[..., 1] = np.clip(np.rint(hsv[..., 1] * factor), 0, 255)
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)


#: Greyscale conversions' weights (blue, green, red): BT.601 luma (OpenCV, Pillow), BT.709
#: luma (ImageMagick), the plain mean (GIMP's average); "lightness" is GIMP's other one.
GREY_WEIGHTS = {"bt601": (0.114, 0.587, 0.299), "bt709": (0.0722, 0.7152, 0.2126),
                "mean": (1 / 3, 1 / 3, 1 / 3)}  # fmt: skip


def greyscale(frame: np.ndarray, conversion: str = "bt601") -> np.ndarray:
    """Colour removed: every channel the pixel's grey by ``conversion`` (a key of
    :data:`GREY_WEIGHTS`, or ``"lightness"``: the mean of the largest and smallest channel)."""
    import cv2

    if conversion == "bt601":
        return cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    pixels = frame.astype(np.float64)
    if conversion == "lightness":
        grey = (pixels.max(axis=2) + pixels.min(axis=2)) / 2
    else:
        grey = pixels @ np.array(GREY_WEIGHTS[conversion])
    return np.repeat(np.clip(np.rint(grey), 0, 255).astype(np.uint8)[:, :, None], 3, axis=2)


def jpeg(frame: np.ndarray, quality: int) -> np.ndarray:
    """The frame saved as a JPEG of ``quality`` and decoded again."""
    import cv2

    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def noise(frame: np.ndarray, sigma: float, seed: int = 0) -> np.ndarray:
    """Gaussian noise of ``sigma`` levels on every channel (seeded)."""
    rng = np.random.default_rng(seed)
    return np.clip(frame + rng.normal(0, sigma, frame.shape), 0, 255).astype(np.uint8)


#: The mild changes that must read exactly (issue 12, item 3), by name.
MILD: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "brightness+20": lambda f: brightness(f, 20),
    "brightness-20": lambda f: brightness(f, -20),
    "contrast0.85": lambda f: contrast(f, 0.85),
    "contrast1.15": lambda f: contrast(f, 1.15),
    "gamma0.8": lambda f: gamma(f, 0.8),
    "gamma1.25": lambda f: gamma(f, 1.25),
    "night-light": night_light,
    "jpeg75": lambda f: jpeg(f, 75),
    "jpeg85": lambda f: jpeg(f, 85),
    "jpeg95": lambda f: jpeg(f, 95),
}

#: Stronger changes: read exactly or refused, never misread.
STRONG: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "greyscale": greyscale,
    "noise8": lambda f: noise(f, 8),
    "noise3": lambda f: noise(f, 3),
    "jpeg50": lambda f: jpeg(f, 50),
    "jpeg70": lambda f: jpeg(f, 70),
    "gamma0.6": lambda f: gamma(f, 0.6),
    "brightness-40+gamma1.25": lambda f: gamma(brightness(f, -40), 1.25),
    "brightness+40": lambda f: brightness(f, 40),
    "saturation0.6": lambda f: saturation(f, 0.6),
    "contrast0.7": lambda f: contrast(f, 0.7),
}
