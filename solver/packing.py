"""How the exact engine packs a polynomial of counts into one Python integer.

A component's count (:func:`solver.probability.count_component`) keeps, per state, a polynomial
in the mines ``m`` (and, for the look-ahead, the marked mines ``t``) with big-integer
coefficients. Packed in one integer, shifting, adding and multiplying polynomials are single
big-integer operations. The plain packing gives every ``m`` from 0 to the most mines a slot of
bits enough for any count; when the layouts are :class:`Known` beforehand (the look-ahead knows
them from the position's own count) the packing is cyclic and much tighter.

>>> pack = Packing(bits=8, slices=2, width=3, cyclic=True, low=4)  # 4 to 6 mines, t = 0 or 1
>>> x4 = 1 << pack.unit(False) * 4  # four mines, none marked: slot 4 * 2 = 8, i.e. 8 mod 6 = 2
>>> x5y = x4 << pack.unit(True)  # and one marked mine
>>> pack.unpack(pack.fold(5 * x4 + 7 * x5y)), pack.stride  # (m, t) at m + 7 * t
([0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 7, 0], 7)
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import cast

import numpy as np

#: struct's format of an unsigned slot of so many bytes, for the sizes it has one.
_FORMATS = {1: "B", 2: "H", 4: "I", 8: "Q"}


@dataclass(frozen=True)
class Known:
    """What is known of a component's layouts before counting it (the look-ahead knows it).

    Every layout holds ``low`` to ``high`` mines, and there are at most ``layouts`` of them.
    """

    low: int
    high: int
    layouts: int


@dataclass(frozen=True)
class Packing:
    """How a polynomial in the mines ``m`` and the marked mines ``t`` is packed in one integer.

    Coefficient ``(m, t)`` takes ``bits`` bits at slot ``t + slices * m``. ``cyclic`` packs
    ``m`` modulo ``width`` (arithmetic modulo ``2**size - 1``, whose products wrap around):
    exact when every layout's ``m`` lies in a window of ``width`` values starting at ``low``.
    """

    bits: int
    slices: int
    width: int
    cyclic: bool = False
    low: int = 0

    @property
    def size(self) -> int:
        return self.bits * self.slices * self.width

    def unit(self, marked: bool) -> int:
        """The shift of one mine (of a marked group: a marked mine too)."""
        return self.bits * (self.slices + 1 if marked else self.slices)

    def fold(self, packed: int) -> int:
        """``packed`` reduced (not always fully) modulo ``2**size - 1`` when cyclic."""
        if not self.cyclic:
            return packed
        size = self.size
        mask = (1 << size) - 1
        while packed >> size:
            packed = (packed & mask) + (packed >> size)
        return packed

    @property
    def stride(self) -> int:
        """The length of one slice ``t`` of an unpacked polynomial: mines 0 to the most."""
        return self.low + self.width

    def unpack(self, packed: int) -> list[int]:
        """The coefficients, ``(m, t)`` at index ``m + stride * t``."""
        packed = self.fold(packed)
        if self.cyclic and packed == (1 << self.size) - 1:
            packed = 0
        nbytes, slices = self.bits // 8, self.slices
        slots = slices * self.width
        raw = packed.to_bytes(nbytes * slots + nbytes, "little")
        fmt = _FORMATS.get(nbytes)
        if fmt is not None:  # slots of a machine word's size: read all at once
            values = list(struct.unpack_from(f"<{slots}{fmt}", raw))
        elif nbytes < 8:
            # Slots narrower than the next machine word: read that word at every slot's start
            # (raw holds a slot more, so the last read stays inside) and keep the slot's bytes.
            word = 4 if nbytes == 3 else 8
            reads = np.ndarray((slots,), f"<u{word}", raw, 0, (nbytes,))
            values = (reads & ((1 << 8 * nbytes) - 1)).tolist()
        else:
            values = [
                int.from_bytes(raw[i : i + nbytes], "little")
                for i in range(0, nbytes * slots, nbytes)
            ]
        if slices == 1 and not self.cyclic:
            return values
        # Slice t holds m at slot t + slices * (m % width) (cyclic) or t + slices * m.
        turn = self.low % self.width if self.cyclic else 0
        out: list[int] = []
        for t in range(slices):
            column = values[t::slices]
            out += [0] * self.low + column[turn:] + column[:turn]
        return out

    def unpack_many(self, packed: list[int]) -> list[list[int]]:
        """:meth:`unpack` of each of ``packed``, decoded together: one numpy view of all their
        slots when a slot fits a machine word (a count unpacks one polynomial per group)."""
        nbytes, slices, width = self.bits // 8, self.slices, self.width
        if nbytes > 8 or len(packed) < 2:
            return [self.unpack(p) for p in packed]
        slots = slices * width
        full = (1 << self.size) - 1 if self.cyclic else -1
        length = nbytes * slots + nbytes  # a slot more, as unpack reads it
        raw = b"".join(
            (0 if p == full else p).to_bytes(length, "little")
            for p in (map(self.fold, packed) if self.cyclic else packed)
        )
        # Each slot read as the machine word at its start (raw holds a slot more after each
        # polynomial, so the last read stays inside) and cut to its own bytes.
        word = nbytes if nbytes in (1, 2, 4, 8) else 4 if nbytes == 3 else 8
        reads = np.ndarray((len(packed), slots), f"<u{word}", raw, 0, (length, nbytes))
        if word != nbytes:
            reads = reads & ((1 << 8 * nbytes) - 1)
        if slices == 1 and not self.cyclic:
            return cast(list[list[int]], reads.tolist())
        # Slice t holds m at slot t + slices * (m % width) (cyclic) or t + slices * m.
        grid = reads.reshape(len(packed), width, slices).transpose(0, 2, 1)
        turn = self.low % width if self.cyclic else 0
        parts = [grid[:, :, turn:], grid[:, :, :turn]] if turn else [grid]
        if self.low:
            parts.insert(0, np.zeros((len(packed), slices, self.low), dtype=grid.dtype))
        joined = np.concatenate(parts, axis=2) if len(parts) > 1 else grid
        return cast(list[list[int]], joined.reshape(len(packed), -1).tolist())
