"""Frames carry facts, never sentences, and speak of table seats: the engine's own seat numbers
never reach a client, and nothing a client gets has to be parsed back from English."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from stud.bots import make_bot
from stud.cards import Card, Deck, parse_cards
from stud.engine import (
    Category,
    FirstToAct,
    Half,
    HandValue,
    OddChips,
    Opener,
    PotAwarded,
    Showing,
    StreetStarted,
    ValueKind,
)
from stud.rules import PROFILES, Stakes, Variant
from stud.server.deal import Deal
from stud.server.frames import EventLog, award_json, event_json, hand_part, hand_text, value_json
from stud.table import Table

SEAT_OF = {1: 2, 2: 5, 3: 7}.__getitem__
SEATS = (2, 5, 7)


def test_a_first_to_act_fact_names_table_seats_not_the_engines() -> None:
    why = FirstToAct(4, Opener.BEST_HAND, 3, 2, parse_cards("KdKh"), lowball=False,
                     decider_all_in=True, tie=False, open_pair=True, decider_folded=False)
    assert why.showing == Showing(Category.ONE_PAIR, (Card.parse("Kd").rank,), False)
    sent = event_json(StreetStarted(4, 3, why), SEAT_OF)
    assert sent == {"kind": "street", "street": 4, "first": 7, "why": {
        "street": 4, "opener": "best_hand", "seat": 7, "decider": 5, "cards": ["Kd", "Kh"],
        "showing": {"category": "one_pair", "ranks": ["K"], "lowball": False},
        "decider_all_in": True, "decider_folded": False, "tie": False, "open_pair": True}}


def test_no_betting_has_no_seat_to_act() -> None:
    why = FirstToAct(5, Opener.NO_BETTING, None, None, (), False, False, False, False, False)
    assert event_json(StreetStarted(5, None, why), SEAT_OF) == {
        "kind": "street", "street": 5, "first": None, "why": {
            "street": 5, "opener": "no_betting", "seat": None, "decider": None, "cards": [],
            "showing": None, "decider_all_in": False, "decider_folded": False, "tie": False,
            "open_pair": False}}


def test_a_hand_value_is_its_category_ranks_and_five_cards() -> None:
    value = HandValue.of(ValueKind.HIGH, parse_cards("KsKdKh4c4d9s2c"))
    assert value_json(value) == {"kind": "high", "category": "full_house", "ranks": ["K", "4"],
                                 "cards": ["Kd", "Kh", "Ks", "4c", "4d"]}
    low = HandValue.of(ValueKind.LOW8, parse_cards("8s6d4h2cAsKdKh"))
    assert value_json(low) == {"kind": "low8", "category": "low",
                               "ranks": ["8", "6", "4", "2", "A"],
                               "cards": ["8s", "6d", "4h", "2c", "As"]}
    none = HandValue.of(ValueKind.LOW8, parse_cards("KsKdKh9c9dQsJc"))
    assert value_json(none) == {"kind": "low8", "category": "no_low", "ranks": [], "cards": []}
    assert value_json(None) is None


def test_a_pot_award_carries_its_facts_in_table_seats() -> None:
    high = HandValue.of(ValueKind.HIGH, parse_cards("AsAdTsTc4h3d2c"))
    award = PotAwarded(1, 41, Half.HIGH, ((1, 21), (3, 20)), high, None, uncontested=False,
                       no_low=False, odd=OddChips(1, (1,), "suit"), halving_chip=True)
    assert award_json(award, SEAT_OF) == {
        "pot": 1, "amount": 41, "half": "high", "shares": [[2, 21], [7, 20]],
        "high": value_json(high), "low": None, "uncontested": False, "no_low": False,
        "odd": {"chips": 1, "by": "suit", "seats": [2]}, "halving_chip": True}
    assert event_json(award, SEAT_OF) == {"kind": "pot"} | award_json(award, SEAT_OF)


def _hands(variant: Variant, profile: str, count: int, seed: int) -> Iterator[dict[str, Any]]:
    """Finished hands between random bots at seats 2, 5 and 7, as the public's frame."""
    rng = random.Random(seed)
    bot = make_bot("random", seed)
    for _ in range(count):
        table = Table(variant, Stakes.for_limit(2), PROFILES[profile], 8)
        for seat in SEATS:
            table.sit(seat, f"p{seat}", rng.choice((6, 12, 40, 100)))
        hand = table.start_hand(Deck.seeded(rng.randrange(2**32)))
        while not hand.is_over:
            hand.act(bot.act(hand.view(hand.to_act)), hand.to_act)
        yield json.loads(hand_text(hand.view(None), 1, hand.starting_stacks, table.table_seat,
                                   None))


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _seats(value: object) -> Iterator[int]:
    """Every seat a frame names: ``seat``, ``first``, ``decider``, ``to_act``, ``scoop``,
    shares and odd chips."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("seat", "first", "decider", "to_act", "bring_in", "scoop") \
                    and isinstance(item, int):
                yield item
            elif key in ("shares", "net", "stacks"):
                yield from (pair[0] for pair in item)
            elif key == "seats" and isinstance(item, list):
                yield from item
            else:
                yield from _seats(item)
    elif isinstance(value, list):
        for item in value:
            yield from _seats(item)


@pytest.mark.parametrize("profile", ["standard", "pokerkit"])
@pytest.mark.parametrize("variant", list(Variant))
def test_frames_hold_no_sentence_and_only_table_seats(variant: Variant, profile: str) -> None:
    for frame in _hands(variant, profile, 40, seed=len(variant) + len(profile)):
        words = [s for s in _strings(frame) if " " in s]
        assert not words, f"a frame holds words, not facts: {words}"
        assert set(_seats(frame)) <= set(SEATS), frame


@pytest.mark.parametrize("variant", list(Variant))
def test_a_finished_hand_shows_the_pots_it_awarded(variant: Variant) -> None:
    for frame in _hands(variant, "standard", 30, seed=7):
        awarded = [pot["amount"] for pot in frame["showdown"]["pots"]]
        assert frame["over"] and frame["pots"] == awarded
        assert sum(frame["pots"]) == frame["pot"], frame


def test_stud8_pots_say_scoop_no_low_and_halves_as_facts() -> None:
    seen: set[str] = set()
    for frame in _hands(Variant.STUD8, "standard", 300, seed=11):
        for pot in frame["showdown"]["pots"]:
            awards = pot["awards"]
            seats = {seat for award in awards for seat, _ in award["shares"]}
            contested = not any(a["uncontested"] for a in awards)
            assert pot["scoop"] == (next(iter(seats)) if contested and len(seats) == 1
                                    else None), pot
            for award in awards:
                if award["uncontested"]:
                    seen.add("uncontested")
                    assert award["high"] is None and award["low"] is None
                elif award["no_low"]:
                    seen.add("no_low")
                    assert award["half"] == "all" and award["low"] is None
                    assert award["high"]["kind"] == "high"
                elif award["half"] == "low":
                    seen.add("split")
                    assert award["low"]["category"] == "low" and award["high"] is None
            if pot["scoop"] is not None and contested:
                seen.add("scoop")
    assert seen == {"uncontested", "no_low", "split", "scoop"}, seen


@pytest.mark.parametrize("variant", list(Variant))
def test_a_deals_frames_built_once_for_all_viewers_are_each_viewers_own(
        variant: Variant) -> None:
    """``Deal.part`` shares what every viewer sees alike (the public hand, each public event)
    between viewers and frames; at every step of many hands, for every seat and the public,
    it is exactly the hand built from that viewer's own view alone, clock and all."""
    rng = random.Random(len(variant))
    bot = make_bot("random", 3)
    steps = 0
    for number in range(1, 16):
        table = Table(variant, Stakes.for_limit(2), PROFILES["standard"], 8)
        for seat in SEATS:
            table.sit(seat, f"p{seat}", rng.choice((6, 12, 40, 100)))
        hand = table.start_hand(Deck.seeded(rng.randrange(2**32)))
        deal = Deal(hand, number, SEATS, (11, 12, 13), ("a", "b", "c"))
        accounts = (None, 11, 12, 13)
        players = [{"seat": s, "name": n} for s, n in zip(SEATS, "abc", strict=True)]
        while True:
            clock = None if hand.is_over else {"seat": 2, "remaining_ms": rng.randrange(9)}
            if rng.random() < 0.1:
                deal.clock_acts()  # the house acts next: the action says timed_out
            for account in rng.sample(accounts, len(accounts)):
                k = deal.viewer(account)
                alone = hand_part(hand.view(k), number, hand.starting_stacks, deal.seat_of,
                                  clock, EventLog(deal.seat_of, set(deal.timed_out)), players)
                assert deal.part(account, clock) == alone, (number, account)
                steps += 1
            if hand.is_over:
                break
            hand.act(bot.act(hand.view(hand.to_act)), hand.to_act)
    assert steps > 500
