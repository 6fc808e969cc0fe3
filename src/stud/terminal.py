"""Terminal play: you against bots, hand after hand, stacks carried over.

Everything shown comes from your seat's view; every choice offered is one of the engine's
legal actions with its amount.
"""

from __future__ import annotations

from collections.abc import Callable

from stud.bots import make_bot
from stud.cards import Deck
from stud.engine.actions import Action, ActionKind
from stud.engine.dealing import STREET_NAMES
from stud.engine.events import PotAwarded
from stud.engine.hand import Hand
from stud.engine.view import HandView
from stud.history.phh import dumps, from_hand
from stud.history.text import text_history
from stud.odds import equity_by_street, own_equity
from stud.rules import Rules, Stakes, Variant
from stud.table import Table

YOU = 1

_WORDS = {
    "f": ActionKind.FOLD, "fold": ActionKind.FOLD,
    "k": ActionKind.CHECK, "check": ActionKind.CHECK,
    "c": ActionKind.CALL, "call": ActionKind.CALL,
    "b": ActionKind.BET, "bet": ActionKind.BET,
    "r": ActionKind.RAISE, "raise": ActionKind.RAISE,
    "i": ActionKind.BRING_IN, "bring": ActionKind.BRING_IN, "bring-in": ActionKind.BRING_IN,
    "complete": ActionKind.COMPLETE, "co": ActionKind.COMPLETE,
}


class Quit(Exception):
    """The player typed q."""


def describe(action: Action, view: HandView) -> str:
    me = view.player(view.viewer or YOU)
    kind = action.kind
    all_in = action.to == me.wager + me.stack and kind not in (ActionKind.FOLD, ActionKind.CHECK)
    tail = " (all in)" if all_in else ""
    if kind is ActionKind.CALL:
        return f"call {action.to - me.wager}{tail}"
    if kind is ActionKind.BRING_IN:
        return f"bring in {action.to}{tail}"
    if kind is ActionKind.COMPLETE:
        return f"complete to {action.to}{tail}"
    if kind is ActionKind.BET:
        return f"bet {action.to}{tail}"
    if kind is ActionKind.RAISE:
        return f"raise to {action.to}{tail}"
    return kind.value


def parse_choice(text: str, legal: tuple[Action, ...]) -> Action:
    """A menu number, or a word (``call``, ``raise 10``, ``f``); ValueError explains a bad one."""
    text = text.strip().lower()
    if not text:
        raise ValueError("type the number of an action, or its name (fold, check, call, ...)")
    if text.isdigit():
        k = int(text)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise ValueError(f"{k} is not on the menu: choose 1 to {len(legal)}")
    words = text.split()
    kind = _WORDS.get(words[0])
    if kind is None:
        raise ValueError(f"{words[0]!r} is not an action here")
    matches = [a for a in legal if a.kind is kind]
    if not matches:
        raise ValueError(f"you cannot {kind.label} now")
    if len(words) > 1:
        if not words[1].isdigit():
            raise ValueError(f"{words[1]!r} is not an amount")
        amount = int(words[1])
        exact = [a for a in matches if a.to == amount]
        if not exact:
            options = ", ".join(str(a.to) for a in matches)
            raise ValueError(f"{kind.label} to {amount} is not allowed: the amount is {options}")
        return exact[0]
    if len(matches) > 1:
        options = " or ".join(f"{kind.value} {a.to}" for a in matches)
        raise ValueError(f"say which: {options}")
    return matches[0]


def render(view: HandView, names: Callable[[int], str]) -> str:
    lines = [f"--- {view.variant.title}, {STREET_NAMES[view.street]} --- stakes {view.stakes}",
             f"pot {view.pot}" + (f" (pots {', '.join(map(str, view.pots))})"
                                  if len(view.pots) > 1 else "")]
    for p in view.players:
        cards = " ".join(("??" if c is None else str(c)) if u else
                         (f"[{c}]" if c is not None else "[??]")
                         for c, u in zip(p.cards, p.up, strict=True))
        state = "folded" if p.folded else "all in" if p.all_in else ""
        marks = []
        if view.bring_in == p.seat and view.street == 3:
            marks.append("bring-in")
        if view.to_act == p.seat:
            marks.append("to act")
        lines.append(f"  {names(p.seat):<12} stack {p.stack:>6}  bet {p.wager:>4}  {cards:<28}"
                     f" {state} {' '.join(marks)}".rstrip())
    if view.board:
        lines.append("  community card: " + " ".join(map(str, view.board)))
    if view.to_act is not None:
        lines.append(f"{names(view.to_act)} to act ({view.reason})")
    if view.viewer is not None and view.to_act == view.viewer:
        share = own_equity(view)
        if share is not None:
            lines.append(f"Your equity against what you cannot see: {share:.0%} of the pot")
    return "\n".join(lines)


def play_session(variant: Variant, stakes: Stakes, rules: Rules, bots: list[str], buy_in: int,
                 seed: int | None, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print) -> None:
    """Hands in a row until you quit; bots rebuy when they bust, you are asked."""
    table = Table(variant, stakes, rules, seats=len(bots) + 1)
    stack = buy_in * stakes.big_bet
    table.sit(YOU, "You", stack)
    for number, name in enumerate(bots, start=2):
        table.sit(number, f"{name}-{number}", stack, make_bot(name, None if seed is None
                                                               else seed * 100 + number))
    write(f"{variant.title}. Rules: {rules.name}. Stakes {stakes}. You are seat 1 with {stack}.")
    write("Cards in [brackets] are down cards, [??] one you cannot see. Choose an action by "
          "its number or name (f, k, c, b, r, i, complete; 'raise 10'); q quits.")
    count = 0
    try:
        while True:
            count += 1
            for number, seat in table.seats.items():
                if seat.stack == 0 and number != YOU:
                    table.rebuy(number, stack)
            if table.seats[YOU].stack == 0:
                answer = read(f"You are out of chips. Rebuy {stack}? [y/q] ").strip().lower()
                if answer not in ("y", "yes"):
                    raise Quit
                table.rebuy(YOU, stack)
            deck = Deck.shuffled() if seed is None else Deck.seeded(seed * 7919 + count)
            hand = table.start_hand(deck)
            write(f"\n=== Hand {count} ===")
            _play_hand(table, hand, read, write)
            table.finish_hand()
            answer = read("Enter for the next hand, t for the hand's history, h for its PHH, "
                          "q to quit: ").strip().lower()
            while answer in ("t", "h"):
                if answer == "t":
                    names = {k + 1: table.seats[n].name for k, n in enumerate(table.hand_seats)}
                    write("--- Hand history ---")
                    for line in text_history(list(hand.view(None).events), names.__getitem__):
                        write("  " + line)
                else:
                    write(dumps(from_hand(hand, viewer=None)))
                answer = read("Enter for the next hand, q to quit: ").strip().lower()
            if answer in ("q", "quit"):
                raise Quit
    except (Quit, EOFError, KeyboardInterrupt):
        you = table.seats[YOU].stack if YOU in table.seats else 0
        write(f"\nYou leave with {you} chips after {table.hands_played} hands.")


def _play_hand(table: Table, hand: Hand, read: Callable[[str], str],
               write: Callable[[str], None]) -> None:
    def name(seat: int) -> str:
        return table.seats[table.table_seat(seat)].name

    me = table.hand_seat(YOU) or YOU
    shown = 0
    while not hand.is_over:
        if hand.to_act == me:
            view = hand.view(me)
            shown = _show_log(hand, me, shown, name, write)
            write(render(view, name))
            menu = "  ".join(f"[{k}] {describe(a, view)}"
                             for k, a in enumerate(view.legal_actions, 1))
            while True:
                text = read(f"Your action: {menu}\n> ")
                if text.strip().lower() in ("q", "quit"):
                    raise Quit
                try:
                    action = parse_choice(text, view.legal_actions)
                except ValueError as error:
                    write(f"  {error}")
                    continue
                hand.act(action, me)
                break
        else:
            table.play_bots()
    shown = _show_log(hand, me, shown, name, write)
    write(render(hand.view(me), name))
    write("--- Result ---")
    for event in hand.events:
        if isinstance(event, PotAwarded):
            pot = "main pot" if event.index == 0 else f"side pot {event.index}"
            half = {"high": "high half of the ", "low": "low half of the "}.get(event.half, "")
            winners = ", ".join(f"{name(s)} {c}" for s, c in event.shares)
            write(f"  {half}{pot} ({event.amount}): {winners} — {event.hand}")
    write("Stacks: " + ", ".join(f"{name(k + 1)} {s}" for k, s in enumerate(hand.stacks)))
    rows = equity_by_street(hand)
    if rows:
        seats = sorted(rows[0][1])
        write("Equity by street (the shown hands' cards, known now):")
        write("  " + " " * 16 + "".join(f"{name(s):>14}" for s in seats))
        for street, shares in rows:
            write(f"  {street:<16}" + "".join(f"{shares[s]:>14.0%}" for s in seats))


_SECOND_PERSON = {"posts": "post", "brings": "bring", "calls": "call", "checks": "check",
                  "folds": "fold", "bets": "bet", "raises": "raise", "completes": "complete",
                  "shows": "show", "mucks": "muck", "wins": "win", "is": "are", "to": "to"}


def _second_person(line: str) -> str:
    """ "You calls 2" -> "You call 2": the text history speaks of seats in the third person."""
    if not line.startswith("You "):
        return line
    verb, _, rest = line[4:].partition(" ")
    line = f"You {_SECOND_PERSON.get(verb, verb)} {rest}".rstrip()
    return line.replace(" and is all in", " and are all in")


def _show_log(hand: Hand, me: int, start: int, name: Callable[[int], str],
              write: Callable[[str], None]) -> int:
    events = hand.view(me).events
    for line in text_history(list(events[start:]), name):
        write("  " + _second_person(line))
    return len(events)
