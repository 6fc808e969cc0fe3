"""Hand histories of online rooms: each site's reader, and the files they come in.

``read_text`` decodes a file as its site wrote it (UTF-8 with or without a byte-order mark,
UTF-16 with a byte-order mark or without one in either byte order, Windows-1252 or Latin-1;
lines ending in CR LF, LF or CR alone); ``site_of`` tells the site from the text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from stud.history.sites import (
    absolute,
    bovada,
    everleaf,
    fulltilt,
    ipoker,
    kingsclub,
    merge,
    ongame,
    partypoker,
    pokerstars,
    winamax,
    winning,
)
from stud.history.sites.model import Cancelled, SiteError, SiteHand, to_history


@dataclass(frozen=True, slots=True)
class Site:
    name: str
    detect: Callable[[str], bool]
    split: Callable[[str], list[tuple[int, str]]]
    parse: Callable[[str, int], SiteHand]


SITES: tuple[Site, ...] = tuple(
    Site(reader.SITE, reader.detect, reader.split, reader.parse)
    for reader in (pokerstars, fulltilt, partypoker, winamax, ipoker, merge, bovada, everleaf,
                   kingsclub, ongame, winning, absolute)
)


def read_text(path: Path) -> str:
    """The file's text, decoded as the site wrote it, each line ending in ``\\n`` whether the
    file ends them in CR LF (Windows), LF or CR alone (old Mac exports)."""
    return _decoded(path.read_bytes()).replace("\r\n", "\n").replace("\r", "\n")


def _decoded(data: bytes) -> str:
    """The text of a file's bytes, in the first encoding of the sites' that reads them."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    order = _utf16_order(data)
    if order is not None:
        return data.decode(order)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")  # Windows' Latin-1, with the euro sign
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _utf16_order(data: bytes) -> str | None:
    """UTF-16 without a byte-order mark, told by where its zero bytes are: a history is
    mostly ASCII, whose high byte is zero, first in big-endian and second in little-endian.
    UTF-8, Windows-1252 and Latin-1 text holds no zero byte at all."""
    head = data[:512]
    high_first, high_second = head[0::2].count(0), head[1::2].count(0)
    if not head or max(high_first, high_second) < len(head) // 4:  # under half the characters
        return None
    return "utf-16-be" if high_first > high_second else "utf-16-le"


def site_of(text: str) -> Site | None:
    for site in SITES:
        if site.detect(text):
            return site
    return None


__all__ = ["SITES", "Cancelled", "Site", "SiteError", "SiteHand", "read_text", "site_of",
           "to_history"]
