"""Nicknames that look alike are one nickname: the key kept unique for each account is the
nickname's *skeleton* (Unicode's confusables, UTS #39), after case folding, so "Аlice" with a
Cyrillic А, "ALICE" and "Alice" all have the key "alice".

The confusables come from the ``confusable_homoglyphs`` package's copy of Unicode's data.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib.resources import files

_MARKS = "\u200e\u200f"  # direction marks around right-to-left prototypes in the data


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and what it looks like (its prototype, maybe two letters)."""
    data: dict[str, list[dict[str, str]]] = json.loads(
        files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    table: dict[str, str] = {}
    for character, alikes in data.items():
        if len(character) != 1 or len(alikes) != 1:
            continue  # a prototype lists everything like it; a source lists its prototype
        target = alikes[0]["c"].strip(_MARKS)
        if len(data.get(target, ())) == 1 and target.strip(_MARKS) < character:
            pass  # two characters that name only each other: the smaller one stands for both
        elif len(data.get(target, ())) == 1:
            continue
        table[character] = target
    return table


def skeleton(text: str, ascii_too: bool = True) -> str:
    """Each character replaced by the one it looks like (ASCII characters too, or not).

    >>> skeleton("\u0410lice") == skeleton("Alice") == "Alice"
    True
    """
    prototypes = _prototypes()
    return "".join(c if c.isascii() and not ascii_too else prototypes.get(c, c)
                   for c in unicodedata.normalize("NFD", text))


def nickname_key(nickname: str) -> str:
    """What two nicknames share when they look alike, whatever their case.

    >>> nickname_key("\u0410LICE") == nickname_key("alice") == nickname_key("\uff21lice")
    True
    >>> nickname_key("\u039caria") == nickname_key("Maria")
    True
    >>> nickname_key("Bob") == nickname_key("Rob")
    False
    """
    # Other scripts' capitals first (a Greek Μ is an M before folding makes it a μ), but not
    # ASCII's (an I is an l only in upper case, and ALICE must stay alice).
    capitals = skeleton(unicodedata.normalize("NFKC", nickname), ascii_too=False)
    # A prototype may be a capital ("0" looks like "O"): fold once more, so "B0B" is "bob".
    return unicodedata.normalize("NFC", skeleton(capitals.casefold()).casefold())[:40]
