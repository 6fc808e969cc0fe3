"""Replay a PHH hand through the engine, checking every action for legality.

The engine stays the judge: each PHH action becomes an engine action and must be legal. Cards
come from the history (a deal script); a card the history does not show (``??``) is a card
nobody can name, drawn from the rest of the deck, except an unknown up card, which is chosen
to agree with the order of play the history shows (``stud.history.fill``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from stud.cards import Card, CardError, Deck, parse_cards
from stud.digits import all_digits
from stud.engine import Action, ActionKind, Hand, IllegalAction, Phase, PotAwarded
from stud.history.fill import fill_up_cards, first_actors
from stud.history.phh import HandHistory, PHHError, load, load_each
from stud.history.rake import raked_stacks
from stud.rules import LAST_STREET, Rules, RulesError, Variant

_UP_POSITIONS = {2, 3, 4, 5}  # third-street door card and fourth to sixth street


class ReplayError(ValueError):
    """An action the engine refused, or a history that contradicts itself."""

    def __init__(self, index: int | None, text: str | None, reason: str) -> None:
        self.index = index
        self.text = text
        self.reason = reason
        where = f"action {index} ({text!r}): " if index is not None else ""
        super().__init__(where + reason)


@dataclass(frozen=True, slots=True)
class ReplayResult:
    hand: Hand
    finishing_stacks: tuple[int, ...]


def _street_of(position: int) -> int:
    """The street of a player's n-th card (0-based): three on third street, then one each."""
    return 3 if position < 3 else position + 1


def _parse_cards(text: str, index: int, line: str) -> list[Card | None]:
    if len(text) % 2:
        raise ReplayError(index, line, f"cards {text!r} are not two characters each")
    out: list[Card | None] = []
    for k in range(0, len(text), 2):
        chunk = text[k:k + 2]
        if chunk == "??":
            out.append(None)
            continue
        try:
            out.append(parse_cards(chunk)[0])
        except CardError as error:
            raise ReplayError(index, line, str(error)) from None
    return out


def _player(token: str, players: int, index: int, line: str) -> int:
    if not (token.startswith("p") and all_digits(token[1:])):
        raise ReplayError(index, line, f"{token!r} is not a player like p1")
    seat = int(token[1:])
    if not 1 <= seat <= players:
        raise ReplayError(index, line, f"there is no player {token} in a {players}-player hand")
    return seat


def _script(history: HandHistory, variant: Variant, rules: Rules
            ) -> dict[tuple[int, int], list[Card | None]]:
    """Cards by (street, seat) from the deal lines, unknowns filled from shown hands.

    A card dealt twice is refused here, naming the action, unless the rules reshuffle burned
    and mucked cards (a card may then be dealt again; the engine judges that). Up cards the
    history does not show are chosen to agree with its order of play (``stud.history.fill``).
    """
    repeats = rules.deck_exhaustion == "reshuffle"
    players = len(history.starting_stacks)
    holes: dict[int, list[Card | None]] = {s: [] for s in range(1, players + 1)}
    shown: dict[int, tuple[int, str, list[Card | None]]] = {}
    board: dict[int, list[Card | None]] = {}
    dealt_at: dict[Card, int] | None = None if repeats else {}  # a known card's deal
    street = 3
    for index, line in enumerate(history.actions):
        parts = line.split()
        if parts[:2] == ["d", "dh"] and len(parts) == 4:
            seat = _player(parts[2], players, index, line)
            cards = _parse_cards(parts[3], index, line)
            _note_dealt(cards, dealt_at, index, line)
            holes[seat].extend(cards)
            street = _street_of(len(holes[seat]) - 1)
        elif parts[:2] == ["d", "db"] and len(parts) == 3:
            cards = _parse_cards(parts[2], index, line)
            if len(cards) != 1:
                raise ReplayError(index, line, f"the community card is one card, not "
                                               f"{len(cards)}")
            _note_dealt(cards, dealt_at, index, line)
            board[street + 1 if street < 7 else 7] = cards
        elif len(parts) == 3 and parts[1] == "sm" and parts[2] != "-":
            seat = _player(parts[0], players, index, line)
            shown[seat] = (index, line, _parse_cards(parts[2], index, line))
    for seat, (index, line, cards) in shown.items():
        for k, card in enumerate(cards):
            if k < len(holes[seat]) and holes[seat][k] is None:
                if card is not None:
                    _note_dealt([card], dealt_at, index, line)
                holes[seat][k] = card
    used = {c for cards in [*holes.values(), *board.values()] for c in cards if c is not None}
    spare = [c for c in Deck.ordered().cards if c not in used]
    unknown_up = {(seat, k) for seat, cards in holes.items() for k, card in enumerate(cards)
                  if card is None and k in _UP_POSITIONS}
    if unknown_up and spare:
        fill_up_cards(variant, rules, holes, unknown_up, spare,
                      first_actors(history.actions, players))
    script: dict[tuple[int, int], list[Card | None]] = {}
    for seat, cards in holes.items():
        # Cards past the seventh are left to the replay, which refuses their deal by its line.
        for k, card in enumerate(cards[:LAST_STREET]):
            script.setdefault((_street_of(k), seat), []).append(card)
    for board_street, cards in board.items():
        script[(board_street, 0)] = cards
    return script


def _note_dealt(cards: list[Card | None], dealt_at: dict[Card, int] | None, index: int,
                line: str) -> None:
    """Refuse a card the history deals twice, naming both actions."""
    if dealt_at is None:
        return
    for card in cards:
        if card is None:
            continue
        if card in dealt_at:
            raise ReplayError(index, line, f"card {card} is dealt twice: " + (
                "twice in this action" if dealt_at[card] == index else
                f"action {dealt_at[card]} dealt it already"))
        dealt_at[card] = index


def replay(history: HandHistory, rules: Rules) -> ReplayResult:
    """Replay every action; raise ``ReplayError`` naming the first that is not legal."""
    hand = rebuild(history, rules, whole=True)
    while hand.phase is Phase.SHOWDOWN and hand.actor is not None:
        hand.act(Action(ActionKind.SHOW))  # a player the history leaves silent shows
    if not hand.is_over:
        script = _script(history, history.stud_variant, rules)
        if not any(street == hand.street for street, _ in script):
            raise ReplayError(None, None, "the history ends before the hand does (it deals no "
                                          f"cards for street {hand.street})")
        raise ReplayError(None, None, f"the history ends before the hand does (seat "
                                      f"{hand.to_act} to act on street {hand.street})")
    return ReplayResult(hand, tuple(hand.stacks))


def rebuild(history: HandHistory, rules: Rules, whole: bool = False) -> Hand:
    """The hand as it stands after the history's actions, finished or not (a hand in play,
    rebuilt from what one seat has seen: its view is that seat's view of the real hand).
    Raises ``ReplayError`` naming the first action that is not legal, or that comes before a
    card it should follow is dealt; ``whole``: the history is the whole hand, so every card
    the hand deals after its last action needs its line too."""
    variant = history.stud_variant
    stakes = history.stakes
    players = len(history.starting_stacks)
    script = _script(history, variant, rules)
    try:
        hand = Hand(variant, stakes, history.starting_stacks, rules, Deck.ordered(),
                    deal_script=script, auto_showdown=False, as_written=True)
    except (RulesError, CardError) as error:
        raise ReplayError(None, None, str(error)) from None
    decisions: dict[int, bool] = {}
    dealt = {s: 0 for s in range(players + 1)}  # cards dealt by the history: 0 the board's
    for index, line in enumerate(history.actions):
        parts = line.split()
        if not parts:
            raise ReplayError(index, line, "an empty action")
        try:
            if parts[0] == "d":
                _check_deal(hand, parts, dealt, players, index, line)
                continue
            seat = _player(parts[0], players, index, line)
            verb = parts[1] if len(parts) > 1 else ""
            if verb == "sm":  # a show may come early, at an all-in (a site's order)
                _note_show(hand, seat, parts, decisions, index, line)
            else:
                _check_all_dealt(hand, dealt, index, line)
                _act(hand, seat, verb, parts, index, line)
            _drive_showdown(hand, decisions)
        except IllegalAction as error:
            raise ReplayError(index, line, str(error)) from None
        except RulesError as error:
            raise ReplayError(index, line, str(error)) from None
    if whole and (hand.is_over or hand.phase is Phase.SHOWDOWN):  # else: it ends too soon
        _check_all_dealt(hand, dealt, None, None)
    return hand


def _check_deal(hand: Hand, parts: list[str], dealt: dict[int, int], players: int,
                index: int, line: str) -> None:
    if len(parts) < 3 or parts[1] not in ("dh", "db"):
        raise ReplayError(index, line, "a dealing action is 'd dh pN CARDS' or 'd db CARD'")
    if parts[1] == "db":
        if not hand.board:
            raise ReplayError(index, line, "no community card is dealt here: a community card "
                                           "is dealt only when the stub cannot give every "
                                           "remaining player a card of their own (RULES.md 2)")
        dealt[0] += 1
        return
    if len(parts) != 4:
        raise ReplayError(index, line, "a deal is 'd dh pN CARDS'")
    seat = _player(parts[2], players, index, line)
    count = len(parts[3]) // 2
    dealt[seat] += count
    if dealt[seat] > len(hand.cards[seat - 1]):  # a card the engine has not dealt (yet)
        raise ReplayError(index, line, _why_no_card(hand, seat, _street_of(dealt[seat] - 1)))


def _check_all_dealt(hand: Hand, dealt: dict[int, int], index: int | None,
                     line: str | None) -> None:
    """Every card the hand has dealt so far was dealt by a line of the history: a history
    that leaves a deal out is refused, never played on with a card it did not name."""
    where = "before this action" if index is not None else "(the history ends without it)"
    for seat in range(1, len(hand.cards) + 1):
        # A hand mucked at an all-in (PokerKit's histories) is dead: its later cards unnamed.
        if dealt[seat] < len(hand.cards[seat - 1]) and not hand.mucked[seat - 1]:
            raise ReplayError(index, line, f"p{seat} has no deal line for street "
                                           f"{_street_of(dealt[seat])} {where}")
    if dealt[0] < len(hand.board):
        raise ReplayError(index, line, f"the community card has no deal line ('d db CARD') "
                                       f"{where}")


def _why_no_card(hand: Hand, seat: int, street: int) -> str:
    """Why ``seat`` has no card for ``street`` yet, the first reason that holds."""
    if hand.folded[seat - 1]:
        return f"p{seat} has folded and gets no more cards"
    if hand.is_over:
        why = "the hand is over"
    elif street > LAST_STREET:
        why = f"a player gets {LAST_STREET} cards at most"
    elif hand.to_act:
        why = f"seat {hand.to_act} is still to act on street {hand.street}"
    else:
        why = f"it is not dealt yet on street {hand.street}"
    return f"p{seat} cannot get a card for street {street}: {why}"


def _act(hand: Hand, seat: int, verb: str, parts: list[str], index: int, line: str) -> None:
    if hand.to_act is None:
        raise ReplayError(index, line, "nobody is to act" if not hand.is_over
                          else "the hand is already over")
    legal = hand.legal_actions()
    kinds = {a.kind: a for a in legal}
    if verb == "f" and len(parts) == 2:
        action = Action(ActionKind.FOLD)
    elif verb == "cc" and len(parts) == 2:
        action = kinds.get(ActionKind.CHECK) or kinds.get(ActionKind.CALL) or Action(
            ActionKind.CALL, hand.current_bet)
    elif verb == "pb" and len(parts) == 2:
        action = kinds.get(ActionKind.BRING_IN) or Action(ActionKind.BRING_IN,
                                                          hand.stakes.bring_in)
    elif verb == "cbr" and len(parts) == 3 and all_digits(parts[2]):
        wager = next((a.kind for a in legal if a.wagers and a.kind is not ActionKind.BRING_IN),
                     ActionKind.RAISE)
        action = Action(wager, int(parts[2]))
    else:
        raise ReplayError(index, line, "unknown action: use f, cc, pb, cbr AMOUNT or sm [CARDS]")
    hand.act(action, seat)


def _note_show(hand: Hand, seat: int, parts: list[str], decisions: dict[int, bool],
               index: int, line: str) -> None:
    if len(parts) == 2:
        if hand.shown[seat - 1]:
            raise ReplayError(index, line, f"p{seat} cannot muck: once a player is all in and "
                                           f"no more betting is possible, every live hand is "
                                           f"turned up (RULES.md 6; the all_in_muck policy, "
                                           f"on under pokerkit, honours such a muck)")
        decisions[seat] = False
        return
    if parts[2] == "-":  # PokerKit's "show whatever was dealt"
        decisions[seat] = True
        return
    cards = _parse_cards(parts[2], index, line)
    mine = hand.cards[seat - 1]
    for k, card in enumerate(cards):
        if card is not None and k < len(mine) and mine[k] != card:
            raise ReplayError(index, line, f"p{seat} shows {card} as card {k + 1}, "
                                           f"but was dealt {mine[k]}")
    decisions[seat] = True


def _drive_showdown(hand: Hand, decisions: dict[int, bool]) -> None:
    while hand.phase is Phase.SHOWDOWN and hand.actor is not None:
        seat = hand.actor + 1
        if seat not in decisions:
            return
        hand.act(Action(ActionKind.SHOW if decisions[seat] else ActionKind.MUCK), seat)


@dataclass(frozen=True, slots=True)
class FileReport:
    path: str
    variant: str
    ok: bool
    finishing_stacks: list[int] | None
    error: str | None
    checked: bool = False
    """Whether the replay's stacks were compared with the file's ``finishing_stacks``."""


def replay_file(path: Path, override: str | None = None) -> FileReport:
    """Replay one file; the report's error names the file, the action and the reason."""
    try:
        history = load(path)
    except PHHError as error:
        return FileReport(str(path), "?", False, None, str(error))
    return replay_history(str(path), history, override)


def replay_hands(path: Path, override: str | None = None) -> list[FileReport]:
    """Replay every hand of a file: the one hand of a ``.phh``, each hand of a ``.phhs``
    (reported as the file's path and the hand's table, ``hands.phhs [2]``)."""
    try:
        hands = load_each(path)
    except PHHError as error:
        return [FileReport(str(path), "?", False, None, str(error))]
    return [FileReport(f"{path} [{name}]" if name else str(path), "?", False, None, str(history))
            if isinstance(history, PHHError) else
            replay_history(f"{path} [{name}]" if name else str(path), history, override)
            for name, history in hands]


def replay_history(path: str, history: HandHistory, override: str | None = None) -> FileReport:
    """Replay one hand read from ``path``; the report's error names it, the action and the
    reason."""
    variant = "?"
    try:
        variant = history.stud_variant.value
        result = replay(history, history.rules(override))
    except (PHHError, ReplayError) as error:
        message = str(error)
        if not message.startswith(str(path)):
            message = f"{path}: {message}"
        return FileReport(str(path), variant, False, None, message)
    stacks = list(result.finishing_stacks)
    rake = history.fields.get("rake", 0)
    if rake:
        if not isinstance(rake, int) or isinstance(rake, bool) or rake < 0:
            return FileReport(str(path), variant, False, None,
                              f"{path}: rake must be a whole number of chips >= 0, not {rake!r}")
        awards = [e for e in result.hand.events if isinstance(e, PotAwarded)]
        try:
            stacks = raked_stacks(stacks, awards, rake, result.hand.rules)
        except ValueError as error:
            return FileReport(str(path), variant, False, None, f"{path}: {error}")
    if history.finishing_stacks is not None and list(history.finishing_stacks) != stacks:
        return FileReport(str(path), variant, False, stacks,
                          f"{path}: finishing stacks differ: the history says "
                          f"{history.finishing_stacks}, the replay gives {stacks}", True)
    checked = history.finishing_stacks is not None
    return FileReport(str(path), variant, True, stacks, None, checked)


def phh_paths(paths: list[Path]) -> list[Path]:
    """Files named, and the ``.phh`` and ``.phhs`` files in folders named (sorted
    naturally)."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = [p for p in path.rglob("*.phh*") if p.is_file()
                     and p.suffix in (".phh", ".phhs")]
            out.extend(sorted(found, key=_natural))
        else:
            out.append(path)
    return out


def _natural(path: Path) -> tuple[object, ...]:
    stem = path.stem
    return (str(path.parent), int(stem) if all_digits(stem) else 1 << 60, stem)
