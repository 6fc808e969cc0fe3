"""Building hands with chosen cards, and playing scripted actions, for rule tests.

>>> hand = hand_with("stud", {1: "As Kd 2c", 2: "Qh Qd 2h", 3: "3c 4c 9s"})
>>> hand.to_act  # the 2c brings in: clubs are the lowest suit
1
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from stud.cards import Card, Deck, parse_cards
from stud.engine import Action, ActionKind, CardDealt, Hand, HandShown, HandView
from stud.rules import PROFILES, Rules, Stakes, Variant

# The seed's $2/$4 game with a bring-in of 1 and an ante of 1.
STAKES = Stakes(ante=1, bring_in=1, small_bet=2, big_bet=4)


def script_for(cards: Mapping[int, str], board: str | None = None
               ) -> dict[tuple[int, int], list[Card | None]]:
    """Per seat, cards in dealing order: two down, the door card, 4th-6th up, 7th down."""
    script: dict[tuple[int, int], list[Card | None]] = {}
    for seat, text in cards.items():
        for k, card in enumerate(parse_cards(text)):
            street = 3 if k < 3 else k + 1
            script.setdefault((street, seat), []).append(card)
    if board:
        script[(7, 0)] = list(parse_cards(board))
    return script


def hand_with(variant: str | Variant, cards: Mapping[int, str],
              stacks: Sequence[int] | None = None, stakes: Stakes = STAKES,
              rules: Rules | str | None = None, board: str | None = None,
              auto_showdown: bool = True, seed: int = 0, as_written: bool = False) -> Hand:
    """A hand where each seat in ``cards`` gets those cards (those of seats beyond ``stacks``
    left out); others come from a seeded deck."""
    players = len(stacks) if stacks is not None else max(cards)
    cards = {seat: text for seat, text in cards.items() if seat <= players}
    if stacks is None:
        stacks = [100] * players
    if isinstance(rules, str):
        rules = PROFILES[rules]
    return Hand(variant, stakes, list(stacks), rules, Deck.seeded(seed),
                deal_script=script_for(cards, board), auto_showdown=auto_showdown,
                as_written=as_written)


def move(hand: Hand, text: str) -> Action:
    """A scripted move for the player to act: f, k (check), c (call), b (bring in),
    cbr N (complete, bet or raise to N), show, muck."""
    words = text.split()
    legal = hand.legal_actions()
    kinds = {a.kind: a for a in legal}
    if words[0] == "f":
        return Action(ActionKind.FOLD)
    if words[0] == "k":
        return Action(ActionKind.CHECK)
    if words[0] == "c":
        return kinds.get(ActionKind.CALL, Action(ActionKind.CALL, hand.current_bet))
    if words[0] == "b":
        return kinds.get(ActionKind.BRING_IN, Action(ActionKind.BRING_IN, hand.stakes.bring_in))
    if words[0] == "cbr":
        kind = next((a.kind for a in legal if a.wagers and a.kind is not ActionKind.BRING_IN),
                    ActionKind.RAISE)
        return Action(kind, int(words[1]))
    if words[0] in ("show", "muck"):
        return Action(ActionKind(words[0]))
    raise ValueError(f"unknown scripted move {text!r}")


def play(hand: Hand, *moves: str) -> Hand:
    """Play moves in order, each by the player to act; returns the hand."""
    for text in moves:
        hand.act(move(hand, text))
    return hand


def amounts(hand: Hand, kind: ActionKind) -> list[int]:
    """The legal "to" amounts of one kind of action for the player to act."""
    return [a.to for a in hand.legal_actions() if a.kind is kind]


def options(hand: Hand) -> list[tuple[ActionKind, int]]:
    """The legal actions of the player to act, as (kind, to) pairs."""
    return [(a.kind, a.to) for a in hand.legal_actions()]


def to_street(hand: Hand, street: int) -> Hand:
    """Bring in, call it, and check until ``street`` begins."""
    while hand.street < street:
        kinds = {a.kind for a in hand.legal_actions()}
        play(hand, "b" if ActionKind.BRING_IN in kinds else "c" if ActionKind.CALL in kinds
             else "k")
    assert hand.street == street
    return hand


def passive(hand: Hand, fold_on_third: tuple[int, ...] = ()) -> Hand:
    """Bring in, call and check to the end; seats in ``fold_on_third`` fold when they may."""
    while not hand.is_over:
        kinds = {a.kind: a for a in hand.legal_actions()}
        if hand.street == 3 and hand.to_act in fold_on_third and ActionKind.FOLD in kinds:
            hand.act(kinds[ActionKind.FOLD])
            continue
        for kind in (ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL, ActionKind.SHOW):
            if kind in kinds:
                hand.act(kinds[kind])
                break
    return hand


def hidden_cards(hand: Hand, viewer: int | None) -> set[Card]:
    """Cards the viewer must not see: other seats' down cards not shown.

    Under the reshuffle policy a folded hand's card can be dealt again to someone else; such a
    card belongs to two hands, may be seen as the new owner's, and is left out.
    """
    hidden: set[Card] = set()
    for i in range(hand.players):
        if i + 1 == viewer or hand.shown[i]:
            continue
        hidden.update(c for c, up in zip(hand.cards[i], hand.up[i], strict=True) if not up)
    every = [c for cards in hand.cards for c in cards]
    return {c for c in hidden if every.count(c) == 1}


def cards_in_view(view: HandView) -> set[Card]:
    """Every card a view shows: in the seats, on the board, in its events."""
    seen: set[Card] = set(view.board)
    for player in view.players:
        seen.update(c for c in player.cards if c is not None)
    for event in view.events:
        if isinstance(event, CardDealt) and event.card is not None:
            seen.add(event.card)
        if isinstance(event, HandShown):
            seen.update(event.cards)
    return seen


def play_and_leave(street_name: str, leave: Callable[[list[str]], str],
                   window: int = 12) -> list[str]:
    """A `stud play` session (two stations and you, 1/2/5/10, seed 11) where you check or call
    until ``street_name`` shows in the last ``window`` lines, and then ``leave`` answers your
    prompt (a word such as "q", or it raises: Ctrl-C, Ctrl-D), given the lines written so far;
    the lines written."""
    from stud.terminal import play_session

    lines: list[str] = []
    left = False

    def read(prompt: str) -> str:
        nonlocal left
        if not left and "Your action" in prompt and any(
                street_name in line for line in lines[-window:]):
            left = True
            return leave(lines)
        for word in ("check", "call", "bring in"):
            if word in prompt:
                return word
        return "1"

    play_session(Variant.STUD, Stakes(1, 2, 5, 10), PROFILES["standard"], ["station"] * 2, 20,
                 seed=11, read=read, write=lines.append)
    return lines
