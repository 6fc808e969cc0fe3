"""The replayer's steps of a hand history: the table after every deal and action agrees with the
engine, only the cards the history names are known, and each street's equity is the equity
calculator's, pot by pot, summing to the whole pot."""

from __future__ import annotations

import dataclasses
import os
import random
import time
from pathlib import Path

import pytest

from stud.cards import Deck
from stud.engine import ActionKind, Hand
from stud.equity import equity
from stud.history.importer import import_file
from stud.history.phh import HandHistory, PHHError, dumps, from_hand, load, loads
from stud.history.replay import phh_paths, rebuild
from stud.history.steps import (
    Replay,
    StepKind,
    StepsError,
    known_cards,
    replay_steps,
)
from stud.odds import NoFigure
from stud.rules import PROFILES, Stakes

SHARED = Path(os.environ.get("STUD_SHARED", Path(__file__).resolve().parents[3] / "shared"))
WSOP = SHARED / "data" / "phh" / "wsop-2023-43-5"
WSOP_FILES = phh_paths([WSOP]) if WSOP.is_dir() else []
FIXTURES = Path(__file__).parent / "sites" / "fixtures"
needs_wsop = pytest.mark.skipif(not WSOP_FILES, reason=f"the WSOP hands are not at {WSOP}")


def imported(tmp_path: Path, fixture: str) -> list[HandHistory]:
    """The hands of one site fixture, imported as PHH."""
    results = import_file(FIXTURES / fixture, tmp_path)
    assert results and all(r.ok for r in results), results
    return [load(r.path) for r in results if r.path]


def chips_add_up(replay: Replay) -> None:
    """At every step before the pots are paid, the stacks and the pot hold the chips the hand
    began with; at the end the stacks alone do (less the rake)."""
    start = sum(replay.starting_stacks)
    for step in replay.steps:
        stacks = sum(s.stack for s in step.seats)
        assert step.pot == sum(s.committed for s in step.seats)
        if step.kind is StepKind.AWARDS:
            assert stacks == start, step
        else:
            assert stacks + step.pot == start, step
            assert sum(step.pots) == step.pot, step
    assert sum(replay.finishing_stacks) == start - replay.rake


# ---------------------------------------------------------------------- the WSOP hands


@needs_wsop
@pytest.mark.parametrize("path", WSOP_FILES, ids=[p.name for p in WSOP_FILES])
def test_wsop_hand_steps_end_with_its_finishing_stacks_and_keep_every_chip(path: Path) -> None:
    history = load(path)
    replay = replay_steps(history)
    assert replay.over and replay.checked
    assert list(replay.finishing_stacks) == history.finishing_stacks
    assert [s.stack for s in replay.steps[-1].seats] == history.finishing_stacks
    chips_add_up(replay)
    assert replay.names == tuple(history.fields["players"])  # type: ignore[arg-type]


@needs_wsop
@pytest.mark.parametrize("path", WSOP_FILES[:12], ids=[p.name for p in WSOP_FILES[:12]])
def test_wsop_hand_each_action_step_is_the_engine_after_that_action(path: Path) -> None:
    """Replaying the history up to each action, the engine's stacks, commitments, folds and
    pot are those of the last step before the next action."""
    history = load(path)
    replay = replay_steps(history)
    steps = list(replay.steps)
    acts = [k for k, s in enumerate(steps) if s.kind is StepKind.ACTION]
    lines = [k for k, line in enumerate(history.actions)
             if not line.startswith("d ") and " sm" not in line]
    assert len(acts) == len(lines)
    for n, line in enumerate(lines):
        hand = rebuild(dataclasses.replace(history, actions=history.actions[:line + 1]),
                       history.rules())
        until = acts[n + 1] if n + 1 < len(acts) else len(steps)
        step = steps[until - 1]
        if step.kind is StepKind.AWARDS or not hand.is_over and hand.phase.value == "showdown":
            continue  # the showdown's steps come from lines the prefix leaves out
        assert [s.stack for s in step.seats] == hand.stacks, (line, history.actions[line])
        assert [s.committed for s in step.seats] == hand.committed
        assert [s.folded for s in step.seats] == hand.folded
        assert step.pot == hand.pot
        if n + 1 < len(acts):
            assert [s.wager for s in step.seats] == hand.wagers
            assert steps[until].street == hand.street


@needs_wsop
def test_wsop_hand_knows_the_cards_it_names_and_its_equity_sums_to_one_on_every_street(
        ) -> None:
    for path in WSOP_FILES:
        history = load(path)
        replay = replay_steps(history)
        holes, _ = known_cards(history)
        for seat in replay.steps[-1].seats:
            assert list(seat.cards) == holes[seat.seat]
        for street in replay.equity:
            live = [s for s in replay.steps if s.kind is StepKind.DEAL
                    and s.street == street.street][0]
            assert [e.seat for e in street.seats] == (
                [s.seat for s in live.seats if not s.folded] if len(street.seats) else [])
            if street.seats:
                assert street.missing is None
                assert sum(e.equity for e in street.seats) == pytest.approx(1.0)
                assert all(0.0 <= e.equity <= 1.0 for e in street.seats)


# ---------------------------------------------------------------------- equity


def two_player(variant: str, cards: tuple[str, str], actions: list[str]) -> HandHistory:
    return loads(f'variant = "{variant}"\nantes = [1, 1]\nbring_in = 1\nsmall_bet = 2\n'
                 f'big_bet = 4\nstarting_stacks = [100, 100]\n'
                 f'actions = {actions!r}\n'.replace("'", '"'))


def test_equity_of_a_street_is_the_equity_calculators_for_the_cards_known_then() -> None:
    history = two_player("F7S", ("", ""), ["d dh p1 AsAd2c", "d dh p2 KhKd3c", "p1 pb",
                                           "p2 cbr 2", "p1 cc", "d dh p1 7h", "d dh p2 Kc"])
    replay = replay_steps(history)
    third, fourth = replay.equity
    assert (third.street, fourth.street) == (3, 4)
    want = equity("stud", ["AsAd2c", "KhKd3c"], trials=300_000, seed=1)
    assert [e.equity for e in third.seats] == pytest.approx(
        [p.equity for p in want.players], abs=0.01)
    want = equity("stud", ["AsAd2c7h", "KhKd3cKc"], trials=300_000, seed=1)
    assert [e.equity for e in fourth.seats] == pytest.approx(
        [p.equity for p in want.players], abs=0.01)
    assert all(e.low is None and e.high is not None for e in third.seats)
    assert not replay.over


def test_hi_lo_equity_has_a_high_and_a_low_chance_and_razz_only_a_low_one() -> None:
    hilo = replay_steps(two_player("F7S/8", ("", ""), ["d dh p1 As2d3c", "d dh p2 KhKdQc",
                                                        "p1 pb", "p2 cc"]))
    first = hilo.equity[0].seats
    assert first[0].low is not None and first[0].low > 0.5 > first[1].low  # type: ignore
    assert first[1].high is not None and first[1].high > first[0].high  # type: ignore
    assert sum(e.equity for e in first) == pytest.approx(1.0)
    razz = replay_steps(two_player("FR", ("", ""), ["d dh p1 As2d3c", "d dh p2 KhKdQc",
                                                        "p2 pb", "p1 cc"]))
    assert all(e.high is None and e.low is not None for e in razz.equity[0].seats)


def test_unknown_down_cards_are_drawn_from_the_unseen_and_the_seat_is_not_known() -> None:
    history = two_player("F7S", ("", ""), ["d dh p1 AsAd2c", "d dh p2 ????Kh", "p1 pb",
                                           "p2 cc"])
    replay = replay_steps(history)
    seats = replay.equity[0].seats
    assert [e.known for e in seats] == [True, False]
    want = equity("stud", ["AsAd2c", "????Kh"], trials=200_000, seed=1)
    assert seats[0].equity == pytest.approx(want.players[0].equity, abs=0.02)
    assert replay.steps[-1].seats[1].cards[:3] == (None, None, replay.steps[-1].seats[1].cards[2])


def test_equity_follows_the_side_pot_an_all_in_player_cannot_win(tmp_path: Path) -> None:
    (history,) = imported(tmp_path, "pokerstars/7-Stud-USD-0.04-0.08-201205.side.pot.rake.txt")
    replay = replay_steps(history)
    chips_add_up(replay)
    assert replay.rake == 4 and replay.checked
    assert list(replay.finishing_stacks) == history.finishing_stacks
    for street in replay.equity:
        if street.seats:
            assert sum(e.equity for e in street.seats) == pytest.approx(1.0)
    # On seventh street every card is known: exact enumeration, every seat known.
    assert replay.equity[-1].method == "exact"
    assert all(e.known for e in replay.equity[-1].seats)


def test_a_community_card_street_has_no_equity_figure(tmp_path: Path) -> None:
    hands = imported(tmp_path, "pokerstars/7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt")
    boards = [replay_steps(h) for h in hands if any(a.startswith("d db") for a in h.actions)]
    assert boards
    replay = boards[0]
    last = replay.equity[-1]
    assert last.missing is NoFigure.COMMUNITY and last.seats == ()
    assert replay.steps[-1].board and None not in replay.steps[-1].board


def test_eight_players_whose_cards_would_run_the_deck_out_have_no_equity() -> None:
    stacks = [200] * 8
    hand = Hand("stud", Stakes(1, 1, 2, 4), stacks, PROFILES["standard"], Deck.seeded(3))
    while not hand.is_over:  # everyone calls to the end
        legal = {a.kind: a for a in hand.legal_actions()}
        hand.act(legal.get(ActionKind.CHECK) or legal.get(ActionKind.CALL)
                 or legal.get(ActionKind.BRING_IN) or hand.legal_actions()[0])
    replay = replay_steps(from_hand(hand))
    missing = {e.street: e.missing for e in replay.equity}
    assert NoFigure.DECK in missing.values(), missing


# ---------------------------------------------------------------------- site hands


def test_imported_site_hand_keeps_its_unknown_cards_unknown_and_ends_with_its_stacks(
        tmp_path: Path) -> None:
    hands = imported(tmp_path, "pokerstars/7-StudHL-USD-0.04-0.08-200911.txt")
    assert len(hands) >= 5
    for history in hands:
        replay = replay_steps(history)
        assert replay.checked and list(replay.finishing_stacks) == history.finishing_stacks
        chips_add_up(replay)
        holes, _ = known_cards(history)
        for seat in replay.steps[-1].seats:
            assert list(seat.cards) == holes[seat.seat][:len(seat.cards)], seat
        for street in replay.equity:
            if street.seats:
                assert sum(e.equity for e in street.seats) == pytest.approx(1.0)


def test_up_cards_the_history_does_not_show_are_not_the_ones_the_replay_chose(
        tmp_path: Path) -> None:
    """Everleaf's old format shows no card at all: the engine must choose up cards that agree
    with the order of play, but the steps know none of them, nor why a seat acted first."""
    hands = imported(tmp_path, "everleaf/7-Stud-USD-0.05-0.10.201107.txt")
    blind = [h for h in hands if all("?" in a for a in h.actions if a.startswith("d dh"))]
    assert blind
    for history in blind:
        replay = replay_steps(history)
        assert all(c is None for step in replay.steps for s in step.seats for c in s.cards)
        assert all(step.why is None for step in replay.steps)
        assert all(award.high is None and award.low is None
                   for step in replay.steps for award in step.awards
                   if not award.uncontested)


def test_a_shown_hand_is_known_from_the_start_and_named_with_its_worth(tmp_path: Path) -> None:
    hands = imported(tmp_path, "pokerstars/7-StudHL-USD-0.04-0.08-200911.txt")
    shown = [(h, s) for h in hands for s in replay_steps(h).steps if s.kind is StepKind.SHOWN]
    assert shown
    for _history, step in shown:
        assert step.shown is not None and step.seat is not None
        seat = step.seats[step.seat - 1]
        if all(c is not None for c in seat.cards):
            assert step.shown.cards == seat.cards
            assert step.shown.high is not None


# ---------------------------------------------------------------------- a seat's own history


def random_hand(seed: int, players: int = 4) -> Hand:
    rng = random.Random(seed)
    hand = Hand(rng.choice(["stud", "stud8", "razz"]), Stakes(1, 1, 2, 4),
                [rng.randint(20, 120) for _ in range(players)], PROFILES["standard"],
                Deck.seeded(seed))
    while not hand.is_over:
        legal = hand.legal_actions()
        weights = [0.1 if a.kind is ActionKind.FOLD else 1.0 for a in legal]
        hand.act(rng.choices(legal, weights)[0])
    return hand


@pytest.mark.parametrize("seed", range(12))
def test_a_seats_own_history_shows_it_its_own_down_cards_and_no_one_elses_unshown(
        seed: int) -> None:
    hand = random_hand(seed)
    for viewer in [None, *range(1, hand.players + 1)]:
        replay = replay_steps(loads(dumps(from_hand(hand, viewer))))
        assert list(replay.finishing_stacks) == hand.stacks
        for step in replay.steps:
            for seat in step.seats:
                real = hand.cards[seat.seat - 1]
                for k, (card, up) in enumerate(zip(seat.cards, seat.up, strict=True)):
                    if up or seat.seat == viewer or hand.shown[seat.seat - 1]:
                        assert card == real[k], (viewer, seat)
                    else:
                        assert card is None, f"{viewer} sees seat {seat.seat}'s {real[k]}"


def test_steps_of_a_hand_take_a_page_load_of_time_once_the_kernels_are_warm() -> None:
    hand = random_hand(5, players=6)
    text = dumps(from_hand(hand))
    replay_steps(loads(text))  # the kernels compile (or load from numba's cache) once
    began = time.perf_counter()
    replay_steps(loads(text))
    assert time.perf_counter() - began < 2.0


# ---------------------------------------------------------------------- bad histories

GOOD = ('variant = "F7S"\nantes = [1, 1]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n'
        'starting_stacks = [50, 50]\nactions = ["d dh p1 AsAd2c", "d dh p2 KhKd3c", "p1 pb", '
        '"p2 f"]\n')


@pytest.mark.parametrize(("text", "words", "index"), [
    (GOOD.replace("variant", "variation"), "'variant' is missing", None),
    (GOOD.replace('"F7S"', '"FT7"'), "variant", None),
    (GOOD.replace("KhKd3c", "KhKdAs"), "card As is dealt twice: action 0 dealt it already", 1),
    (GOOD.replace("KhKd3c", "Kh9s9s"), "card 9s is dealt twice: twice in this action", 1),
    (GOOD.replace("KhKd3c", "KhKdXx"), "Xx", 1),
    (GOOD.replace('"p1 pb"', '"p2 pb"'), "seat 1's turn", 2),
    (GOOD.replace('"p2 f"', '"p2 cbr 3"'), "", 3),
    (GOOD.replace('"p2 f"', '"p2 dance"'), "unknown action", 3),
    (GOOD.replace('"p2 f"', '"p2 cc", "d db 5h6h"'), "the community card is one card, not 2", 4),
    (GOOD.replace('"p2 f"', '"p2 cc", "d dh p1 7s6s"'), "p1 cannot get a card for street 5", 4),
    (GOOD.replace("actions = [", "actions = [,"), "not valid TOML", None),
    (GOOD.replace("[50, 50]", "[50]"), "antes must hold one ante for each of the 1 players",
     None),
    (GOOD.replace("[50, 50]", "[50]").replace("[1, 1]", "1"), "no player p2 in a 1-player hand",
     1),
    (GOOD + "finishing_stacks = [50, 50]\n", "finishing_stacks", None),
    (GOOD + "rake = 100\n", "rake", None),
])
def test_a_bad_history_is_refused_naming_the_field_or_action_and_why(
        text: str, words: str, index: int | None) -> None:
    with pytest.raises((StepsError, PHHError)) as refused:
        replay_steps(loads(text))
    assert words in str(refused.value)
    if isinstance(refused.value, StepsError):
        assert refused.value.index == index
        if index is not None:
            assert refused.value.line == loads(text).actions[index]
            assert f"action {index}" in str(refused.value)


def test_mangled_histories_give_an_error_a_user_can_read_never_a_traceback() -> None:
    """Random damage to a good history, in its text and in its action lines: each is
    replayed, or refused with a StepsError or PHHError; nothing else escapes."""
    rng = random.Random(7)
    good = from_hand(random_hand(1))
    base = dumps(good)
    pieces = ["p1", "p9", "cc", "cbr", "-1", "99999", "??", "As", "d dh", "sm", '"', "[", "]",
              "0", "f", "pb", "db", "\n", " ", "x"]
    refused = 0
    for _ in range(300):
        text = list(base)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(text))
            if rng.random() < 0.5:
                del text[at:at + rng.randint(1, 6)]
            else:
                text[at:at] = rng.choice(pieces)
        actions = list(good.actions)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(actions))
            words = actions[at].split()
            choice = rng.random()
            if choice < 0.3:
                del actions[at]
            elif choice < 0.5:
                actions.insert(at, actions[rng.randrange(len(actions))])
            else:
                words[rng.randrange(len(words))] = rng.choice(pieces).strip() or "x"
                actions[at] = " ".join(words)
        for history in ("".join(text), dumps(dataclasses.replace(good, actions=actions))):
            try:
                replay_steps(loads(history))
            except (StepsError, PHHError) as error:
                refused += 1
                assert str(error) and "Traceback" not in str(error)
    assert refused > 300
