"""Terminal play: you against bots, hand after hand, stacks carried over.

Everything shown comes from your seat's view; every choice offered is one of the engine's
legal actions with its amount. Every sentence comes from ``stud.text``, in English or German.
"""

from __future__ import annotations

import math
import shutil
import textwrap
import unicodedata
from collections.abc import Callable, Sequence

from stud.bots import make_bot
from stud.cards import Deck
from stud.digits import all_digits
from stud.engine import (
    Action,
    ActionError,
    ActionKind,
    Hand,
    HandMucked,
    HandShown,
    HandView,
    IllegalAction,
    PotAwarded,
)
from stud.history.phh import dumps, from_hand
from stud.history.text import text_history
from stud.odds import equity_by_street, own_equity
from stud.rules import Rules, Stakes, Variant
from stud.table import Table
from stud.text import Words, words

YOU = 1

# Short words the terminal accepts besides the actions' names, as the canonical text.
_SHORT = {"f": "fold", "k": "check", "c": "call", "b": "bet", "r": "raise", "i": "bring in",
          "co": "complete", "bring": "bring in", "bring-in": "bring in", "bringin": "bring in"}
_NO_AMOUNT = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.SHOW, ActionKind.MUCK)
_WAGERS = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)


class Quit(Exception):
    """The player typed q."""


def describe(action: Action, view: HandView, w: Words | None = None) -> str:
    """An action as the menu shows it: "call 3 (to 5)", "raise to 20 (all in)"."""
    w = w or words("en")
    me = view.player(view.viewer or YOU)
    return menu_label(action, me.wager, me.wager + me.stack, w)


def menu_label(action: Action, wager: int, most: int, w: Words) -> str:
    """What the menu says for ``action`` to a player with ``wager`` in on this street who can
    put in at most ``most`` in all: a call says the chips it adds (and what it calls to)."""
    if action.kind is ActionKind.CALL:
        key = "play.call.to" if wager else "play.call"
        text = w.t(key, added=action.to - wager, to=action.to)
    else:
        text = w.action(action)
    if action.kind not in _NO_AMOUNT and action.to == most:
        return w.t("play.action.all_in", action=text)
    return text


def _action_words(w: Words) -> tuple[dict[str, str], set[str]]:
    """The words that name an action in ``w``'s language (its menu's first words and its
    verbs, and the English ones), each mapped to the action's canonical text; and the small
    words a menu puts between an action and its amount ("to", "auf")."""
    names: dict[str, str] = dict(_SHORT)
    fillers = {"to", "in"}
    for lang in {"en", w.lang}:
        language = words(lang)
        for kind in ActionKind:
            canonical = kind.value.replace("_", " ")
            for word in language.t(f"play.verb.{kind.value}").casefold().split()[:1]:
                names.setdefault(word, canonical)
            template = language.messages[f"action.{kind.value}"].casefold().split()
            names.setdefault(template[0], canonical)
            fillers.update(x for x in template[1:] if "{" not in x)
    names.update({kind.value: kind.value.replace("_", " ") for kind in ActionKind})
    return names, fillers


def _refuse_kind(kind: ActionKind, rest: list[str], legal: tuple[Action, ...], w: Words,
                 verb: str, options: str) -> Action | None:
    """Why no action of ``kind`` is possible; or, for a bet or raise by another name, the one
    wager meant (``raise`` where only a bet is possible), or None where an amount decides."""
    kinds = {a.kind for a in legal}
    if kind is ActionKind.FOLD and ActionKind.BRING_IN in kinds:
        raise ValueError(w.t("play.error.fold.bring_in", options=options))
    if kind is ActionKind.FOLD and ActionKind.CHECK in kinds:
        raise ValueError(w.t("play.error.fold.check", options=options))
    if kind is ActionKind.CALL and ActionKind.CHECK in kinds:
        if not rest:  # "c" or "call" with nothing to call: check/call, as a site's button
            return next(a for a in legal if a.kind is ActionKind.CHECK)
        # An amount to call where there is none: told so, never checked for without a word.
        raise ValueError(w.t("play.error.call.check", options=options))
    completions = [a for a in legal if a.kind is ActionKind.COMPLETE]
    if kind in (ActionKind.BET, ActionKind.RAISE) and completions:
        if not rest or all(rest[0] != str(a.to) for a in completions):
            # What else may be done instead: the bring-in too, where it is open.
            instead = [a for a in legal if a.kind in (ActionKind.BRING_IN, ActionKind.COMPLETE)]
            raise ValueError(w.t("play.error.completion", verb=verb, completions=w.listing(
                [w.action(a) for a in instead], "or")))
        return None
    wagers = [a for a in legal if a.kind in (ActionKind.BET, ActionKind.RAISE)]
    if kind in (ActionKind.BET, ActionKind.RAISE) and wagers:
        if rest:
            return None
        if len(wagers) == 1:
            return wagers[0]
        raise ValueError(w.t("play.error.which", options=w.listing(
            [w.action(a) for a in wagers], "or")))
    raise ValueError(w.t("play.error.kind", verb=verb, options=options))


def _is_all_in(text: str, w: Words) -> bool:
    """``all in``, ``allin``, ``all-in`` (and ``alles`` in German): all one's chips."""
    typed = text.replace("-", "").replace(" ", "")
    return any(typed in words(lang).t("play.all_in.words").split() for lang in {"en", w.lang})


def _all_in(legal: tuple[Action, ...], most: int, w: Words, options: str) -> Action:
    """The action that puts in every chip the player has: a bet, raise or completion all in,
    or the call (or bring-in) where that is all they can do; else why there is none."""
    every_chip = [a for a in legal if a.kind not in _NO_AMOUNT and a.to == most]
    if not every_chip:
        raise ValueError(w.t("play.error.all_in", options=options))
    return every_chip[-1]  # the menu lists the wagers last: a completion before a bring-in


def parse_choice(text: str, legal: tuple[Action, ...], wager: int = 0,
                 w: Words | None = None, most: int = -1) -> Action:
    """A menu number, what the menu shows, or a word (``call``, ``raise 10``, ``f``; German
    words under ``de``) read by ``Action.parse``; ValueError explains a bad one. ``wager`` is
    what the player has in on this street (``call 3`` is the call that adds 3), ``most`` the
    most they can have in (an action to it is all in)."""
    w = w or words("en")
    typed = text.strip()
    if any(_is_key(ch) for ch in typed):
        raise ValueError(w.t("play.error.keys", text=shown(typed)))
    text = typed.casefold()
    if not text:
        raise ValueError(w.t("play.error.empty"))
    number, *amount = text.split()
    if all_digits(number):
        k = int(number)
        if not 1 <= k <= len(legal):
            raise ValueError(w.t("play.error.menu", number=k, count=len(legal)))
        if amount:
            raise ValueError(w.t("play.error.number", text=typed, number=k,
                                 action=menu_label(legal[k - 1], wager, -1, w)))
        return legal[k - 1]
    for action in legal:
        if text in (menu_label(action, wager, -1, w).casefold(),
                    menu_label(action, wager, most, w).casefold()):
            return action
    options = w.listing([menu_label(a, wager, -1, w) for a in legal], "or")
    if _is_all_in(text, w):
        return _all_in(legal, most, w, options)
    names, fillers = _action_words(w)
    first, *rest = text.split()
    canonical = names.get(first)
    if canonical is None:
        raise ValueError(w.t("play.error.word", word=first))
    rest = [word for word in rest if word not in fillers]
    kind = ActionKind(canonical.replace(" ", "_"))
    verb = w.t(f"play.verb.{kind.value}")
    if rest and kind in _NO_AMOUNT:
        raise ValueError(w.t("play.error.no_amount", text=typed, verb=verb))
    if len(rest) > 1:
        raise ValueError(w.t("play.error.form", text=text))
    if rest and not all_digits(rest[0]):
        raise ValueError(w.t("play.error.digits", text=typed, amount=rest[0]))
    matches = [a for a in legal if a.kind is kind]
    if not matches:
        meant = _refuse_kind(kind, rest, legal, w, verb, options)
        if meant is not None:
            return meant
        # A bet, raise or completion by another name: its amount must be one of theirs.
        matches = [a for a in legal if a.kind in _WAGERS and a.kind is not ActionKind.BRING_IN]
    if not rest and kind not in _NO_AMOUNT:
        if len(matches) > 1:
            raise ValueError(w.t("play.error.which", options=w.listing(
                [menu_label(a, wager, -1, w) for a in matches], "or")))
        return matches[0]
    try:
        action = Action.parse(f"{canonical} {rest[0]}" if rest else canonical)
    except ActionError as error:
        raise ValueError(str(error)) from None
    for option in legal:
        if option == action:
            return option
        # The menu's call says the chips it adds; a wager by another name is the same wager.
        if (kind is ActionKind.CALL and option.kind is kind and action.to == option.to - wager
                or kind in _WAGERS and option.kind in _WAGERS and option.to == action.to):
            return option
    amounts = w.listing([str(a.to - wager if kind is ActionKind.CALL else a.to)
                         for a in matches], "or")
    raise ValueError(w.t("play.error.amount", verb=verb, amount=action.to, amounts=amounts))


def _is_key(ch: str) -> bool:
    """A control character: what a key that types no text (an arrow, Esc) sends where the
    terminal does not edit the line."""
    return unicodedata.category(ch) == "Cc"


def shown(text: str) -> str:
    r"""``text`` safe to print back: each control character in caret notation, as a terminal
    echoes it (Esc is ``^[``, so the left arrow reads ``^[[D``), never sent to the terminal to
    move its cursor.

    >>> shown("call\x1b[D")
    'call^[[D'
    """
    def one(ch: str) -> str:
        code = ord(ch)
        if not _is_key(ch):
            return ch
        if code == 0x7F:
            return "^?"
        return f"^{chr(code + 64)}" if code < 0x20 else f"\\x{code:02x}"

    return "".join(map(one, text))


def line_editing() -> bool:
    """Give ``input`` line editing where Python has readline (GNU readline or libedit: Linux,
    macOS): the arrow keys move in the line and recall what was typed before, instead of
    typing escape codes. Windows has no readline; its console edits lines itself."""
    try:
        import readline  # noqa: F401 - imported for its effect on input()
    except ImportError:
        return False
    return True


def _cards(cards: Sequence[object | None], up: Sequence[bool]) -> str:
    return " ".join(("??" if c is None else str(c)) if u else
                    (f"[{c}]" if c is not None else "[??]") for c, u in zip(cards, up, strict=True))


def stakes_text(stakes: Stakes, w: Words) -> str:
    return w.t("play.stakes", small=stakes.small_bet, big=stakes.big_bet, ante=stakes.ante,
               bring_in=stakes.bring_in)


def render(view: HandView, names: Callable[[int], str], w: Words | None = None) -> str:
    """The table as ``view`` sees it: the street, the pots, each seat, who is to act."""
    w = w or words("en")
    you = view.viewer
    pots = view.pots
    lines = [w.t("play.header", variant=w.t(f"variant.{view.variant.value}"),
                 street=w.street(view.street), stakes=stakes_text(view.stakes, w))]
    if view.is_over:  # the pots are awarded: the stacks say where the chips went
        lines.append(w.t("play.over"))
    elif len(pots) > 1:
        lines.append(w.t("play.pots", pot=view.pot, pots=", ".join(map(str, pots))))
    else:
        lines.append(w.t("play.pot", pot=view.pot))
    for p in view.players:
        state = w.t("play.folded") if p.folded else w.t("play.all_in") if p.all_in else ""
        marks = []
        if view.bring_in == p.seat and view.street == 3:
            marks.append(w.t("play.bring_in"))
        if view.to_act == p.seat:
            marks.append(w.t("play.to_act"))
        seat = w.t("play.seat", stack=p.stack, bet=p.wager)
        if view.is_over:  # no bets once the pots are awarded; the columns stay where they were
            seat = w.t("play.seat.over", stack=p.stack).ljust(len(seat))
        lines.append(f"  {names(p.seat):<12} {seat}  "
                     f"{_cards(p.cards, p.up):<28} {state} {' '.join(marks)}".rstrip())
    if view.board:
        lines.append("  " + w.t("play.community", cards=w.cards(view.board)))
    if view.to_act is not None:
        # Why the street's first actor acts first is told once, in the log, as the street
        # begins; this line only says whose turn it is.
        lines.append(w.t("first.to_act.you") if view.to_act == you
                     else w.t("first.to_act", seat=names(view.to_act)))
    if you is not None and view.to_act == you:
        own = own_equity(view)
        if own is not None and own.share is not None:
            lines.append(w.t("play.equity" if own.pots == 1 else "play.equity.pots",
                             share=f"{own.share:.0%}"))
        elif own is not None and own.missing is not None:
            lines.append(w.t(f"play.equity.{own.missing.value}"))
    return "\n".join(lines)


def result_lines(events: Sequence[object], names: Callable[[int], str], w: Words,
                 you: int | None = None) -> list[str]:
    """Each pot's awards, where its odd chips went, and who scooped a hi/lo pot."""
    lines: list[str] = []
    by_pot: dict[int, list[PotAwarded]] = {}
    for event in events:
        if isinstance(event, PotAwarded):
            by_pot.setdefault(event.pot, []).append(event)
            lines.extend(w.award(event, names, you))
            odd = w.odd_chips(event, names)
            if odd is not None:
                lines.append(odd)
            if event.halving_chip:
                lines.append(w.t("award.halving_chip"))
    for pot in sorted(by_pot, reverse=True):  # the order awarded: the last side pot first
        scoop = w.scoop(by_pot[pot], names, you)
        if scoop is not None:
            lines.append(scoop)
    return lines


def terminal_writer(width: int | None = None) -> Callable[[str], None]:
    """``print``, with each line longer than the terminal wrapped at spaces (never inside a
    word or a name), its continuation indented under the line's text."""
    def write(text: str) -> None:
        columns = width or shutil.get_terminal_size().columns
        for line in text.split("\n"):
            if len(line) <= columns:
                print(line)
                continue
            indent = " " * (len(line) - len(line.lstrip()))
            print(textwrap.fill(line, columns, subsequent_indent=indent + "  ",
                                break_on_hyphens=False, break_long_words=False))

    return write


def play_session(variant: Variant, stakes: Stakes, rules: Rules, bots: list[str], buy_in: int,
                 seed: int | None, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print, lang: str = "en") -> None:
    """Hands in a row until you quit; bots rebuy when they bust, you are asked. At the end,
    what you put in (the buy-in and every rebuy) and what you won or lost."""
    w = words(lang)
    if read is input:
        line_editing()
    table = Table(variant, stakes, rules, seats=len(bots) + 1)
    stack = buy_in * stakes.big_bet
    table.sit(YOU, w.t("you"), stack)
    for number, name in enumerate(bots, start=2):
        table.sit(number, f"{name}-{number}", stack, make_bot(name, None if seed is None
                                                               else seed * 100 + number))
    write(w.t("play.intro", variant=w.t(f"variant.{variant.value}"), rules=rules.name,
              stakes=stakes_text(stakes, w), stack=stack))
    write(w.t("play.help"))
    write(w.t("play.help.choose"))
    yes = w.t("play.yes").split()
    count = rebuys = 0
    try:
        while True:
            count += 1
            for number, seat in table.seats.items():
                if seat.stack == 0 and number != YOU:
                    table.rebuy(number, stack)
                    write(w.t("play.bot_rebuy", who=seat.name, stack=stack))
            if table.seats[YOU].stack == 0:
                while True:
                    answer = read(w.t("play.rebuy", stack=stack)).strip().casefold()
                    if answer in ("q", "quit"):
                        raise Quit
                    if answer in yes:
                        break
                    write(w.t("play.rebuy.again", stack=stack))
                table.rebuy(YOU, stack)
                rebuys += 1
            deck = Deck.shuffled() if seed is None else Deck.seeded(seed * 7919 + count)
            hand = table.start_hand(deck)
            write("\n" + w.t("play.hand", number=count))
            me = _play_hand(table, hand, read, write, w)
            table.finish_hand()
            answer = _next_answer(read, write, w)
            while answer in ("t", "h"):
                if answer == "t":
                    names = {k + 1: table.seats[n].name for k, n in enumerate(table.hand_seats)}
                    write(w.t("play.history"))
                    for line in text_history(list(hand.view(me).events), names.__getitem__,
                                             lang, you=me):
                        write("  " + line)
                else:
                    write(dumps(from_hand(hand, viewer=me), action_lines=True))
                answer = _next_answer(read, write, w)
            if answer in ("q", "quit"):
                raise Quit
    except (Quit, EOFError, KeyboardInterrupt):
        cut = table.hand
        if cut is not None and not cut.is_over:
            write("")  # ^C and ^D leave the cursor after the prompt: end its line
            before = table.seats[YOU].stack
            _leave_hand(table)
            _write_showdown(table, cut, write, w)
            _write_result(table, cut, write, w)
            _write_equity(table, cut, write, w)
            after = table.seats[YOU].stack
            write("\n" + w.t("play.leave.hand", lost=before - after) if after <= before
                  else "\n" + w.t("play.leave.hand.won", won=after - before))
        you = table.seats[YOU].stack if YOU in table.seats else 0
        hands = table.hands_played
        write("\n" + (w.t("play.leave.one", chips=you) if hands == 1
                      else w.t("play.leave", chips=you, hands=hands)))
        write(net_result(you, stack, rebuys, w))


def net_result(chips: int, stack: int, rebuys: int, w: Words) -> str:
    """What a player who bought in for ``stack`` and rebought ``rebuys`` times for as much
    put in, and what they won or lost, leaving with ``chips``.

    >>> net_result(6, 40, 10, words("en"))
    'You put in 440 (a buy-in of 40 and 10 rebuys of 40 each) and lost 434.'
    """
    paid = stack * (1 + rebuys)
    put_in = w.t("play.paid" if not rebuys else "play.paid.rebuy" if rebuys == 1
                 else "play.paid.rebuys", paid=paid, stack=stack, rebuys=rebuys)
    net = chips - paid
    if net > 0:
        return w.t("play.net.won", paid=put_in, net=net)
    if net < 0:
        return w.t("play.net.lost", paid=put_in, net=-net)
    return w.t("play.net.even", paid=put_in)


def _next_answer(read: Callable[[str], str], write: Callable[[str], None], w: Words) -> str:
    """Enter, t, h or q between hands; anything else is asked again."""
    while True:
        typed = read(w.t("play.next")).strip()
        answer = typed.casefold()
        if answer in ("", "t", "h", "q", "quit"):
            return answer
        write(w.t("play.next.again", answer=shown(typed)))


def _leave_hand(table: Table) -> None:
    """You leave during a hand: it is played to its end, your hand checking where it can and
    folding where it cannot (as a site plays a player who has left), then settled."""
    hand = table.hand
    assert hand is not None
    me = table.hand_seat(YOU)
    while not hand.is_over:
        if hand.to_act == me:
            legal = {a.kind: a for a in hand.legal_actions()}
            hand.act(legal.get(ActionKind.CHECK) or legal.get(ActionKind.FOLD)
                     or legal.get(ActionKind.MUCK) or hand.legal_actions()[0], me)
        else:
            table.play_bots()
    table.finish_hand()


def _play_hand(table: Table, hand: Hand, read: Callable[[str], str],
               write: Callable[[str], None], w: Words) -> int:
    """Play one hand, you from the keyboard and the bots by themselves; returns your seat in
    the hand."""
    name = _namer(table)
    me = table.hand_seat(YOU) or YOU
    shown = 0
    while not hand.is_over:
        if hand.to_act == me:
            view = hand.view(me)
            shown = _show_log(hand, me, shown, name, write, w)
            write(render(view, name, w))
            player = view.player(me)
            menu = "  ".join(f"[{k}] {describe(a, view, w)}"
                             for k, a in enumerate(view.legal_actions, 1))
            while True:
                text = read(w.t("play.your_action", menu=menu) + "\n> ")
                if text.strip().casefold() in ("q", "quit"):
                    raise Quit
                try:
                    action = parse_choice(text, view.legal_actions, player.wager, w,
                                          player.wager + player.stack)
                    hand.act(action, me)
                except (ValueError, IllegalAction) as error:
                    write(f"  {error}")
                    continue
                break
        else:
            table.play_bots()
    _show_log(hand, me, shown, name, write, w)
    write(render(hand.view(me), name, w))
    _write_result(table, hand, write, w)
    _write_equity(table, hand, write, w)
    return me


def equity_table(rows: Sequence[tuple[int, dict[int, float]]], name: Callable[[int], str],
                 w: Words, width: int) -> list[str]:
    """Each shown hand's equity street by street (``equity_by_street``'s rows), a column a
    player; where the columns are wider than ``width``, the players in blocks, each under its
    own header, so that no line wraps and loses its column."""
    seats = sorted(rows[0][1])
    label = max(len(w.street(street)) for street, _ in rows) + 2
    column = max(len(name(s)) for s in seats) + 3
    blocks = math.ceil(len(seats) / max(1, (width - 2 - label) // column))
    per_block = math.ceil(len(seats) / blocks)  # the blocks as even as they can be
    lines: list[str] = []
    for start in range(0, len(seats), per_block):
        block = seats[start:start + per_block]
        if start:
            lines.append("")
        lines.append("  " + " " * label + "".join(f"{name(s):>{column}}" for s in block))
        lines.extend(f"  {w.street(street):<{label}}"
                     + "".join(f"{shares[s]:>{column}.0%}" for s in block)
                     for street, shares in rows)
    return lines


def _write_equity(table: Table, hand: Hand, write: Callable[[str], None], w: Words) -> None:
    rows = equity_by_street(hand)
    if rows:
        write(w.t("play.equity_by_street"))
        for line in equity_table(rows, _namer(table), w, shutil.get_terminal_size().columns):
            write(line)


def _write_showdown(table: Table, hand: Hand, write: Callable[[str], None], w: Words) -> None:
    """Who showed what and who mucked, as the log of a hand played to its end says it."""
    me = table.hand_seat(YOU)
    shown = [e for e in hand.view(me).events if isinstance(e, (HandShown, HandMucked))]
    for line in text_history(shown, _namer(table), w.lang, you=me):
        write("  " + line)


def _namer(table: Table) -> Callable[[int], str]:
    """A seat of the hand by its player's name."""
    def name(seat: int) -> str:
        return table.seats[table.table_seat(seat)].name

    return name


def _write_result(table: Table, hand: Hand, write: Callable[[str], None], w: Words) -> None:
    name = _namer(table)
    write(w.t("play.result"))
    for line in result_lines(hand.events, name, w, table.hand_seat(YOU)):
        write("  " + line)
    write(w.t("play.stacks", stacks=", ".join(f"{name(k + 1)} {s}"
                                              for k, s in enumerate(hand.stacks))))


def _show_log(hand: Hand, me: int, start: int, name: Callable[[int], str],
              write: Callable[[str], None], w: Words) -> int:
    events = hand.view(me).events
    for line in text_history(list(events[start:]), name, w.lang, you=me):
        write("  " + line)
    return len(events)
