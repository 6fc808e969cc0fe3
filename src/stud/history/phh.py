"""Hand histories in the open PHH format (TOML): read, write, and build from a hand's events.

>>> text = 'variant = "F7S"\\nantes = [1, 1]\\nbring_in = 1\\nsmall_bet = 2\\nbig_bet = 4\\n' \\
...        'starting_stacks = [50, 50]\\nactions = []\\n'
>>> loads(text).variant
'F7S'
"""

from __future__ import annotations

import datetime
import json
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stud.cards import Card, format_cards
from stud.engine import (
    ActionKind,
    ActionTaken,
    CardDealt,
    CommunityCardDealt,
    Event,
    Hand,
    HandMucked,
    HandShown,
    turns_up_a_card,
    visible_events,
)
from stud.rules import POLICIES, PROFILES, Rules, RulesError, Stakes, Variant, is_whole, profile


class PHHError(ValueError):
    """A PHH file that cannot be read: which file, which field, why."""


@dataclass(slots=True)
class HandHistory:
    """One hand in PHH. ``fields`` keeps every other field (players, event, ``_`` fields)."""

    variant: str
    antes: list[int]
    bring_in: int
    small_bet: int
    big_bet: int
    starting_stacks: list[int]
    actions: list[str]
    finishing_stacks: list[int] | None = None
    ante_trimming_status: bool = True
    fields: dict[str, object] = field(default_factory=dict)

    @property
    def stud_variant(self) -> Variant:
        try:
            return Variant.parse(self.variant)
        except RulesError as error:
            raise PHHError(f"variant: {error}") from None

    @property
    def stakes(self) -> Stakes:
        antes = set(self.antes)
        if len(antes) > 1:
            raise PHHError(f"antes: every player must post the same ante, not {self.antes}")
        try:
            return Stakes(antes.pop() if antes else 0, self.bring_in, self.small_bet,
                          self.big_bet)
        except RulesError as error:
            raise PHHError(str(error)) from None

    def rules(self, override: str | None = None) -> Rules:
        """``override`` (a profile name) wins over the file's ``_rules``, which wins over standard.

        Policies written as ``_rule_<policy>`` fields adjust the file's profile.
        """
        try:
            if override is not None:
                return profile(override)
            name = self.fields.get("_rules", "standard")
            if not isinstance(name, str):
                raise PHHError(f"_rules: a profile name, not {name!r}")
            base = profile(name)
            changes = {p: self.fields[f"_rule_{p}"] for p in POLICIES
                       if f"_rule_{p}" in self.fields}
            return base.with_policies(**changes) if changes else base
        except RulesError as error:
            raise PHHError(str(error)) from None


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_REQUIRED = ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")


def _toml(text: str, source: str) -> dict[str, Any]:
    if not text.strip():
        raise PHHError(f"{source}: the file is empty")
    try:
        return tomllib.loads(text.removeprefix("\ufeff"))  # Notepad's byte-order mark
    except tomllib.TOMLDecodeError as error:
        raise PHHError(f"{source}: not valid TOML: {error}") from None


def loads(text: str, source: str = "<string>") -> HandHistory:
    return _history(_toml(text, source), source)


def loads_all(text: str, source: str = "<string>") -> list[tuple[str, HandHistory]]:
    """Every hand of a ``.phhs`` text (PHH's file of several hands, as PokerKit's
    ``HandHistory.dumps_all`` writes it: each hand a table, ``[1]``, ``[2]``, ...), with its
    table's name, in the file's order; a text of one hand (a ``.phh``) is that hand, named "".
    A hand that cannot be read is a ``PHHError`` naming its table."""
    data = _toml(text, source)
    hands = [(name, value) for name, value in data.items() if isinstance(value, dict)]
    if "variant" in data or not hands:  # one hand: what it lacks is said by its fields
        return [("", _history(data, source))]
    others = [name for name, value in data.items() if not isinstance(value, dict)]
    if others:
        raise PHHError(f"{source}: a file of several hands holds only tables of hands "
                       f"([1], [2], ...), not {others[0]!r}")
    return [(name, _history(value, f"{source} [{name}]")) for name, value in hands]


_HAND_TABLE = re.compile(r"^\[\s*([^\[\].]+?)\s*\]\s*(?:#.*)?$", re.MULTILINE)


def loads_each(text: str, source: str = "<string>"
               ) -> list[tuple[str, HandHistory | PHHError]]:
    """Every hand of a ``.phhs`` text, as ``loads_all``, but each hand that cannot be read is
    its ``PHHError`` in its place, so the others are still read: a file cut short or broken
    in one hand is not valid TOML as a whole, and is then read hand by hand (its tables,
    ``[1]``, ``[2]``, ... at the start of a line). A text that is no ``.phhs`` at all is one
    ``PHHError``, named "".

    >>> [(name, type(hand).__name__) for name, hand in loads_each(
    ...     '[1]\\nvariant = "F7S"\\n\\n[2]\\nvariant = "F7S\\n')]
    [('1', 'PHHError'), ('2', 'PHHError')]
    """
    try:
        return list(loads_all(text, source))
    except PHHError as error:
        whole = error
    starts = list(_HAND_TABLE.finditer(text))
    before = "" if not starts else text[:starts[0].start()].removeprefix("\ufeff")
    if not starts or any(line.strip() and not line.strip().startswith("#")
                         for line in before.splitlines()):
        return [("", whole)]
    found: list[tuple[str, HandHistory | PHHError]] = []
    for k, start in enumerate(starts):
        name = start.group(1)
        end = starts[k + 1].start() if k + 1 < len(starts) else len(text)
        where = f"{source} [{name}]"
        # Read after as many empty lines as precede it: TOML's errors give the file's line.
        table = "\n" * text.count("\n", 0, start.end()) + text[start.end():end]
        try:
            found.append((name, _history(_toml(table, where), where)))
        except PHHError as error:
            found.append((name, error))
    return found


def dumps_all(histories: Sequence[HandHistory]) -> str:
    """Hands as one ``.phhs`` text, ``[1]``, ``[2]``, ... as PokerKit writes them."""
    return "\n\n".join(f"[{k}]\n{dumps(history)}"
                       for k, history in enumerate(histories, start=1))


def _history(data: dict[str, Any], source: str) -> HandHistory:
    for name in _REQUIRED:
        if name not in data:
            raise PHHError(f"{source}: the field {name!r} is missing")
    variant = data["variant"]
    if not isinstance(variant, str):
        raise PHHError(f"{source}: variant must be a string, not {variant!r}")
    antes = data["antes"]
    players = len(data["starting_stacks"]) if isinstance(data["starting_stacks"], list) else 0
    if isinstance(antes, int) and not isinstance(antes, bool):
        antes = [antes] * players
    for name in ("bring_in", "small_bet", "big_bet"):
        if not isinstance(data[name], int) or isinstance(data[name], bool):
            raise PHHError(f"{source}: {name} must be a whole number, not {data[name]!r}")
    for name, value in (("antes", antes), ("starting_stacks", data["starting_stacks"]),
                        ("finishing_stacks", data.get("finishing_stacks", []))):
        if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise PHHError(f"{source}: {name} must be a list of whole numbers, not {value!r}")
    if len(antes) != players:  # PHH pads a short list with zeros: unequal antes, not stud's
        raise PHHError(f"{source}: antes must hold one ante for each of the {players} players "
                       f"(or one number for all), not {len(antes)}: {antes}")
    finishing = data.get("finishing_stacks")
    if finishing is not None and len(finishing) != players:
        raise PHHError(f"{source}: finishing_stacks must hold one stack for each of the "
                       f"{players} players, not {len(finishing)}: {finishing}")
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PHHError(f"{source}: actions must be a list of strings")
    trimming = data.get("ante_trimming_status", True)
    if not isinstance(trimming, bool):
        raise PHHError(f"{source}: ante_trimming_status must be true or false, "
                       f"not {trimming!r}")
    known = set(_REQUIRED) | {"finishing_stacks", "ante_trimming_status"}
    return HandHistory(
        variant=variant,
        antes=list(antes),
        bring_in=data["bring_in"],
        small_bet=data["small_bet"],
        big_bet=data["big_bet"],
        starting_stacks=list(data["starting_stacks"]),
        actions=list(actions),
        finishing_stacks=data.get("finishing_stacks"),
        ante_trimming_status=trimming,
        fields={k: v for k, v in data.items() if k not in known},
    )


def load(path: str | Path) -> HandHistory:
    return loads(_read(Path(path)), str(path))


def load_all(path: str | Path) -> list[tuple[str, HandHistory]]:
    """Every hand of a ``.phhs`` file (or the one hand of a ``.phh``): ``loads_all``."""
    return loads_all(_read(Path(path)), str(path))


def load_each(path: str | Path) -> list[tuple[str, HandHistory | PHHError]]:
    """Every hand of a ``.phhs`` file, each one read or its error: ``loads_each``."""
    return loads_each(_read(Path(path)), str(path))


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise PHHError(f"{path}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise PHHError(f"{path}: not UTF-8 text") from None


def _toml_key(name: str) -> str:
    """A field's name as TOML writes it: bare when it may be, else quoted."""
    return name if _BARE_KEY.fullmatch(name) else _toml_string(name)


def _toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes, and DEL too (TOML refuses it raw, JSON does not)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(value: object) -> str:
    """Every value ``loads`` can give back (TOML's own): numbers, strings, dates and times,
    arrays and tables."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return repr(float(value))  # nan, inf and -inf are TOML's own words too
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, datetime.date | datetime.time):  # a datetime is a date too
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}"
                               for k, v in value.items()) + "}"
    raise PHHError(f"cannot write {value!r} in PHH")


def dumps(history: HandHistory, action_lines: bool = False) -> str:
    """The hand as PHH text (TOML), every field on one line; with ``action_lines`` each action
    on a line of its own (for a terminal, which must not wrap a line inside a string)."""
    actions = _toml_value(history.actions)
    if action_lines and history.actions:
        actions = "[\n" + "".join(f"    {_toml_value(a)},\n" for a in history.actions) + "]"
    lines = [
        f"variant = {_toml_value(history.variant)}",
        f"ante_trimming_status = {_toml_value(history.ante_trimming_status)}",
        f"antes = {_toml_value(history.antes)}",
        f"bring_in = {history.bring_in}",
        f"small_bet = {history.small_bet}",
        f"big_bet = {history.big_bet}",
        f"starting_stacks = {_toml_value(history.starting_stacks)}",
        f"actions = {actions}",
    ]
    for name, value in history.fields.items():
        if value is not None:
            lines.append(f"{_toml_key(name)} = {_toml_value(value)}")
    if history.finishing_stacks is not None:
        lines.append(f"finishing_stacks = {_toml_value(history.finishing_stacks)}")
    return "\n".join(lines) + "\n"


def dump(history: HandHistory, path: str | Path) -> None:
    Path(path).write_text(dumps(history), encoding="utf-8")


def phh_actions(events: Sequence[Event]) -> list[str]:
    """PHH action lines from events; a card hidden from the viewer is written ``??``.

    Cards dealt on one street are grouped per player in seat order (``d dh p1 Td3c4d``). A
    hand shown again when it turns up no card (``turns_up_a_card``) has no line: in PHH, as in
    PokerKit, a hand already wholly face up has no showdown action.
    """
    lines: list[str] = []
    pending: dict[int, list[Card | None]] = {}
    faces: dict[int, list[bool]] = {}  # each seat's cards, face up or down, in dealing order
    shown_count: dict[int, int] = {}  # each seat's cards held when last shown

    def flush() -> None:
        for seat in sorted(pending):
            lines.append(f"d dh p{seat} {format_cards(pending[seat])}")
        pending.clear()

    for event in events:
        if isinstance(event, CardDealt):
            pending.setdefault(event.seat, []).append(event.card)
            faces.setdefault(event.seat, []).append(event.up)
            continue
        if pending and not isinstance(event, CardDealt):
            flush()
        if isinstance(event, CommunityCardDealt):
            lines.append(f"d db {event.card}")
        elif isinstance(event, ActionTaken):
            lines.append(_action_line(event))
        elif isinstance(event, HandShown):
            if turns_up_a_card(faces.get(event.seat, []), shown_count.get(event.seat, 0)):
                lines.append(f"p{event.seat} sm {format_cards(event.cards)}")
            shown_count[event.seat] = len(event.cards)
        elif isinstance(event, HandMucked):
            lines.append(f"p{event.seat} sm")
    flush()
    return lines


def _action_line(event: ActionTaken) -> str:
    kind = event.action.kind
    if kind is ActionKind.FOLD:
        return f"p{event.seat} f"
    if kind in (ActionKind.CHECK, ActionKind.CALL):
        return f"p{event.seat} cc"
    if kind is ActionKind.BRING_IN:
        return f"p{event.seat} pb"
    return f"p{event.seat} cbr {event.action.to}"


def from_hand(hand: Hand, /, viewer: int | None = 0, **fields: object) -> HandHistory:
    """The PHH of a hand; ``viewer`` None writes the public history (others' down cards ``??``),
    a seat writes what that seat saw, 0 (the default) writes every card (a dealer's history).
    """
    if viewer is not None and not (is_whole(viewer) and 0 <= viewer <= hand.players):
        raise ValueError(f"viewer {viewer!r} is not in this hand: a seat 1 to {hand.players}, "
                         "0 for every card, or None for the public history")
    events = hand.events if viewer == 0 else visible_events(hand.events, viewer)
    # A profile's name, then every policy that differs from it.
    base_name = hand.rules.closest_profile()
    extra: dict[str, object] = {"_rules": base_name}
    base = PROFILES[base_name]
    for policy, value in hand.rules.differences(base).items():
        extra[f"_rule_{policy}"] = value
    extra.update(fields)
    return HandHistory(
        variant=hand.variant.phh_code,
        antes=[hand.stakes.ante] * hand.players,
        bring_in=hand.stakes.bring_in,
        small_bet=hand.stakes.small_bet,
        big_bet=hand.stakes.big_bet,
        starting_stacks=list(hand.starting_stacks),
        actions=phh_actions(events),
        finishing_stacks=list(hand.stacks) if hand.is_over else None,
        fields=extra,
    )
