"""``stud import``: online rooms' hand-history files to PHH, one file per hand.

Each hand is read by its site's reader (``stud.history.sites``), written as PHH named after the
site and the hand number, and reported: imported, cancelled by the site, skipped (another
game than stud, stud hi/lo or razz, in a mixed-game file say; the same hand again; a copy
refused, cut short say, of a hand another file of the run was imported from; a file
with no hand history in it, a folder's notes or pictures), in conflict (a copy of a hand
already imported that differs from it: the first is kept), or
refused, with the reason, the file, the hand and the line: not readable, or not what the
rules allow (every hand is replayed by the engine before it is written).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from stud.history.phh import HandHistory, dumps
from stud.history.replay import replay_history
from stud.history.sites import (
    SITES,
    Cancelled,
    SiteError,
    SiteHand,
    read_text,
    site_of,
    to_history,
)

_NOT_STUD = "not a stud hand"
_AGAIN = "the same hand again"
_SUPERSEDED = "superseded"
_AGAINST_RULES = "the hand does not replay by the rules"
_NO_HISTORY = "no hand history"


@dataclass(frozen=True, slots=True)
class Imported:
    """One hand's fate. ``status``: imported, cancelled, skipped, conflict or error."""

    file: str
    site: str | None
    hand: str | None
    variant: str | None
    ok: bool
    path: str | None
    error: str | None
    status: str
    line: int | None = None

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Written:
    """A PHH file of this run: the file its hand was read from, and the hand."""

    file: str
    history: HandHistory


def import_files(paths: list[Path], out: Path) -> list[Imported]:
    """Import every hand of every file (folders: every file in them, sorted)."""
    results: list[Imported] = []
    written: dict[Path, Written] = {}
    for path in _files(paths):
        results.extend(import_file(path, out, written))
    return _superseded(results)


def _superseded(results: list[Imported]) -> list[Imported]:
    """A copy that could not be read (cut short, say) of a hand that another copy of the run
    was imported from, before or after it, is no error of the run: it is said which copy was
    written. A copy read whole that the rules refuse stays an error, whichever came first: it
    is not the hand imported."""
    kept = {(r.site, r.hand): r for r in results if r.status == "imported"}
    return [replace(r, status="skipped", path=k.path,
                    error=f"{_SUPERSEDED} by the copy imported from {k.file}, line {k.line} "
                          f"(this copy: {r.error})")
            if r.status == "error" and not (r.error or "").startswith(_AGAINST_RULES)
            and (k := kept.get((r.site, r.hand))) is not None else r
            for r in results]


def _files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.is_file()))
        else:
            found.append(path)
    return found


def import_file(path: Path, out: Path, written: dict[Path, Written] | None = None
                ) -> list[Imported]:
    """Every hand of one file; ``written`` (the PHH files of this run, and where each came
    from) lets a hand seen twice, in two players' histories say, be imported once, and a copy
    that differs from the one imported be told apart."""
    written = {} if written is None else written
    def failed(reason: str, status: str = "error") -> list[Imported]:
        return [Imported(str(path), None, None, None, False, None, reason, status)]

    try:
        text = read_text(path)
    except OSError as error:
        return failed(f"cannot read the file: {error.strerror or error}")
    except UnicodeDecodeError as error:  # a picture or an archive beside the histories, say
        return failed(f"{_NO_HISTORY}: not text in any encoding the sites use "
                      f"({error.reason})", "skipped")
    site = site_of(text)
    if site is None:
        names = ", ".join(s.name for s in SITES)
        return failed(f"{_NO_HISTORY} of a site this reads ({names}) in the file", "skipped")
    results = []
    for line, hand_text in site.split(text):
        results.append(_one(path, out, site.name, site.parse, line, hand_text, written))
    return results


def _one(path: Path, out: Path, site: str, parse: Callable[[str, int], SiteHand], line: int,
         text: str, written: dict[Path, Written]) -> Imported:
    number = _hand_number(text)
    try:
        site_hand = parse(text, line)
        history = to_history(site_hand)
    except Cancelled as cancelled:
        return Imported(str(path), site, number, None, False, None, cancelled.reason,
                        "cancelled", cancelled.line)
    except SiteError as error:
        status = "skipped" if error.reason.startswith(_NOT_STUD) else "error"
        return Imported(str(path), site, number, None, False, None, error.reason, status,
                        error.line or line)
    except Exception as error:  # noqa: BLE001 - a reader's slip must not end the import
        return Imported(str(path), site, number, None, False, None,
                        f"the {site} reader could not read this hand "
                        f"({type(error).__name__}: {error})", "error", line)
    name = re.sub(r"[^\w.-]", "_", f"{site}-{site_hand.hand}")  # no folder from a hand id
    target = out / f"{name}.phh"
    earlier = written.get(target)
    if earlier is not None:
        differ = _differences(earlier.history, history)
        if differ:
            return Imported(str(path), site, site_hand.hand, site_hand.variant.value, False,
                            str(target), f"differs from the copy imported from {earlier.file} "
                            f"({', '.join(differ)}); that copy is kept", "conflict", line)
        return Imported(str(path), site, site_hand.hand, site_hand.variant.value, False,
                        str(target), f"{_AGAIN} (imported from {earlier.file})", "skipped",
                        line)
    # The engine judges the hand as written: one whose actions or cards the rules refuse, or
    # whose winnings they do not give (a line lost or garbled), is not imported.
    label = f"hand {site_hand.hand}"
    report = replay_history(label, history)
    if not report.ok:
        reason = (report.error or "").removeprefix(f"{label}: ")
        return Imported(str(path), site, site_hand.hand, site_hand.variant.value, False, None,
                        f"{_AGAINST_RULES}: {reason}", "error", line)
    out.mkdir(parents=True, exist_ok=True)
    target.write_text(dumps(history), encoding="utf-8")
    written[target] = Written(str(path), history)
    return Imported(str(path), site, site_hand.hand, site_hand.variant.value, True,
                    str(target), None, "imported", line)


def _differences(kept: HandHistory, copy: HandHistory) -> list[str]:
    """The PHH fields two copies of a hand disagree on. A card one copy does not know (``??``:
    another player's down card in each player's own history) agrees with any."""
    differ = []
    for name in (f.name for f in fields(HandHistory)):
        if name == "actions":
            if len(kept.actions) != len(copy.actions) or not all(
                    map(_actions_agree, kept.actions, copy.actions)):
                differ.append(name)
        elif name == "fields":
            differ += [key for key in sorted(kept.fields.keys() | copy.fields.keys())
                       if kept.fields.get(key) != copy.fields.get(key)]
        elif getattr(kept, name) != getattr(copy, name):
            differ.append(name)
    return differ


def _actions_agree(kept: str, copy: str) -> bool:
    """Two PHH action lines alike word by word, a card ``??`` in either alike with any."""
    words, others = kept.split(" "), copy.split(" ")
    return len(words) == len(others) and all(
        a == b or (len(a) == len(b) and all(
            a[k:k + 2] == b[k:k + 2] or "??" in (a[k:k + 2], b[k:k + 2])
            for k in range(0, len(a), 2)))
        for a, b in zip(words, others, strict=True))


# Where each room writes its hand number: "#N" (most), gamecode= (iPoker), <game id= (Merge),
# "History for hand N" (OnGame), "Hand History for Game N" (PartyPoker), "HandId: #N-M-K".
_NUMBER = re.compile(r'HandId: #([\d-]+)|gamecode="(\d+)"|<game\s+id="([^"]+)"|'
                     r"History for hand (\S+)|History [Ff]or Game (\d+)|#(\d+)")


def _hand_number(text: str) -> str | None:
    """The hand's number as the site writes it, for a hand its reader could not read."""
    found = _NUMBER.search(text)
    return next((g for g in found.groups() if g), None) if found else None


def summary(results: list[Imported]) -> list[str]:
    """What a person reads: hands by site and variant, then each hand not imported, why."""
    lines: list[str] = []
    done = Counter((r.site, r.variant) for r in results if r.status == "imported")
    for (site, variant), count in sorted(done.items(), key=lambda kv: (str(kv[0][0]),
                                                                     str(kv[0][1]))):
        lines.append(f"{site} {variant}: {count} hand{'s' if count != 1 else ''} imported")
    for r in results:
        if r.status == "imported":
            continue
        where = r.file + (f", hand {r.hand}" if r.hand else "") + \
            (f", line {r.line}" if r.line else "")
        label = {"cancelled": "CANCELLED", "skipped": "SKIPPED", "conflict": "CONFLICT"
                 }.get(r.status, "ERROR")
        lines.append(f"{label}  {where}: {r.error}")
    counts = Counter(r.status for r in results)
    kinds = ((_AGAIN, "already imported"), (_SUPERSEDED, "superseded by another copy"),
             (_NO_HISTORY, "not a hand history"))
    why = Counter(next((kind for start, kind in kinds if (r.error or "").startswith(start)),
                       "not stud")
                  for r in results if r.status == "skipped")
    skipped = f"{why['not stud']} skipped (not stud)"
    for _, kind in kinds:
        if why[kind]:
            skipped += f", {why[kind]} {kind}"
    if counts["conflict"]:
        skipped += f", {counts['conflict']} in conflict with a copy (the first kept)"
    lines.append(f"{counts['imported']} imported, {counts['cancelled']} cancelled by the site, "
                 f"{skipped}, {counts['error']} refused (not readable, or against the rules)")
    return lines


def succeeded(results: list[Imported]) -> bool:
    """Every hand read (imported, or cancelled by the site, or another game), and some stud;
    no copy of a hand that differs from the copy imported (which of them is true, the run
    cannot tell)."""
    return bool(results) and all(r.status not in ("error", "conflict") for r in results) and any(
        r.status == "imported" for r in results)
