"""Seven-segment text: a font, right-aligned encoding, and the cube's text.

Pure functions shared by the HT16K33 and MAX7219 drivers.  A digit is one byte
in the canonical bit order: bit 0 = segment A (top), 1 = B (top right),
2 = C (bottom right), 3 = D (bottom), 4 = E (bottom left), 5 = F (top left),
6 = G (middle), 7 = the decimal point.  Each driver maps it to its chip.
"""
from __future__ import annotations

from .errors import DisplayTextError

A, B, C, D, E, F, G, DP = (1 << i for i in range(8))

FONT: dict[str, int] = {
    " ": 0,
    "0": A | B | C | D | E | F, "1": B | C, "2": A | B | D | E | G, "3": A | B | C | D | G,
    "4": B | C | F | G, "5": A | C | D | F | G, "6": A | C | D | E | F | G, "7": A | B | C,
    "8": A | B | C | D | E | F | G, "9": A | B | C | D | F | G,
    "-": G, "_": D, "^": A | B | F,
    "A": A | B | C | E | F | G, "b": C | D | E | F | G, "C": A | D | E | F, "c": D | E | G,
    "d": B | C | D | E | G, "E": A | D | E | F | G, "F": A | E | F | G, "H": B | C | E | F | G,
    "L": D | E | F, "n": C | E | G, "o": C | D | E | G, "P": A | B | E | F | G, "r": E | G,
    "t": D | E | F | G, "u": C | D | E, "y": B | C | D | F | G,
}
_REVERSE: dict[int, str] = {}
for _ch, _bits in FONT.items():
    _REVERSE.setdefault(_bits, _ch)


def encode(text: str, digits: int) -> tuple[int, ...]:
    """``text`` as ``digits`` segment bytes, right-aligned; a '.' lights the previous digit's point."""
    out: list[int] = []
    for ch in text:
        if ch == "." and out and not out[-1] & DP:
            out[-1] |= DP
            continue
        if ch == ".":
            out.append(DP)
            continue
        if ch not in FONT:
            raise DisplayTextError(f"character {ch!r} in {text!r} has no seven-segment form; "
                                   f"use one of {''.join(FONT)!r}")
        out.append(FONT[ch])
    if len(out) > digits:
        raise DisplayTextError(f"text {text!r} needs {len(out)} digits; the display has {digits}")
    return (0,) * (digits - len(out)) + tuple(out)


def decode(segments: tuple[int, ...] | list[int]) -> str:
    """The text a row of segment bytes shows ('?' for a pattern not in the font), left spaces kept."""
    out = []
    for s in segments:
        out.append(_REVERSE.get(s & ~DP, "?"))
        if s & DP:
            out.append(".")
    return "".join(out)


def cube_text(value: int, digits: int) -> str:
    """What the cube display shows for a cube value: 64 in the middle (value 1), else the value.

    A value too wide for the display is shown as a power of two, ``2^14`` for 16384.
    """
    face = 64 if value == 1 else value
    text = str(face)
    if len(text) <= digits:
        return text
    power = f"2^{face.bit_length() - 1}"
    if len(power) <= digits:
        return power
    return "^" + str(face.bit_length() - 1)[-(digits - 1):]


def crawford_text(digits: int) -> str:
    """The Crawford game marker: ``CrAF`` (``Cr`` on a two-digit display)."""
    return "CrAF"[:digits] if digits >= 4 else "Cr"
