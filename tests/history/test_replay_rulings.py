"""Rulings a replayed history must follow (RULES.md 2 and 6, and the pokerkit profile's
PokerKit behaviours): a community card only when needed, and an all-in player's muck; a deal
the hand cannot make refused saying why; a file with a byte-order mark read."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crosscheck.pokerkit_oracle import replay_strict
from scenarios import STAKES, hand_with, passive, play
from stud.cards import Deck
from stud.cli import app
from stud.engine import CommunityCardDealt, Hand, StubReshuffled
from stud.engine.order import best_showing
from stud.history.phh import HandHistory, dumps, from_hand, loads_all
from stud.history.replay import ReplayError, replay, replay_file
from stud.rules import PROFILES, Stakes, Variant
from stud.server.frames import first_json
from stud.text import words


def _history(actions: list[str], stacks: list[int], variant: str = "F7S") -> HandHistory:
    return HandHistory(variant=variant, antes=[STAKES.ante] * len(stacks),
                       bring_in=STAKES.bring_in, small_bet=STAKES.small_bet,
                       big_bet=STAKES.big_bet, starting_stacks=stacks, actions=actions)


@pytest.mark.parametrize("rules", ["standard", "pokerkit"])
def test_a_history_dealing_a_community_card_when_every_player_can_have_a_card_is_refused(rules):
    # Two players at seventh street: the stub holds plenty of cards, so no community card.
    hand = passive(hand_with("stud", {1: "Ah Kd 2c 5s 6s 7s 9h", 2: "Qh Qd 3h 8c 8d Tc Jh"}))
    actions = from_hand(hand).actions
    seventh = [k for k, line in enumerate(actions) if line.startswith("d dh p1 9h")][0]
    bad = actions[:seventh] + ["d db 9h"] + [
        line for line in actions[seventh + 1:] if not line.startswith("d dh p2 Jh")]
    with pytest.raises(ReplayError, match="no community card is dealt here") as error:
        replay(_history(bad, [100, 100]), PROFILES[rules])
    assert error.value.index == seventh


# Eight players to seventh street, every card named: 48 in the hands, the community 2d, and
# Tc, 4s, 3s left for the three burns. Seat 1 (A-K-Q-J up) acts first on sixth street; the
# community 2d pairs seat 2's 2c, which would make its up cards the best on seventh.
EIGHT = {1: "3d 4d Ac Kc Qc Jc", 2: "5d 7d 2c 3c 4c 6c", 3: "Ad 2h Kd Qd Jd Td",
         4: "Ah 2s Kh Qh Jh Th", 5: "As 9d Ks Qs Js Ts", 6: "8d 6d 9h 8h 7h 6h",
         7: "5h 4h 9s 8s 7s 6s", 8: "3h 5s 9c 8c 7c 5c"}


def test_a_community_card_keeps_sixth_streets_first_actor_first_on_seventh_street():
    hand = hand_with("stud", EIGHT, board="2d")
    while hand.street < 7:
        passive_step(hand)
    assert hand.board and str(hand.board[0]) == "2d"
    assert hand.firsts[6].seat == 1
    # By the up cards with the community card, seat 2's pair of deuces would be best.
    ups = [hand.up_cards(seat) for seat in range(1, 9)]
    assert best_showing(Variant.STUD, PROFILES["standard"], list(range(8)), ups) == 1
    assert hand.to_act == 1 and hand.why is not None and hand.why.opener == "sixth_street"
    passive(hand)
    assert hand.is_over


def test_when_sixth_streets_first_actor_has_folded_the_next_to_the_left_acts_first_on_seventh():
    # Seat 1 bets sixth street, is raised and folds: seat 2, next to the left, acts first on
    # seventh street, and the fact (and its words) say seat 1 folded, not that it is all in.
    hand = hand_with("stud", EIGHT, board="2d")
    while hand.street < 6:
        passive_step(hand)
    play(hand, "cbr 4", "cbr 8", "c", "c", "c", "c", "c", "c", "f")
    why = hand.why
    assert hand.street == 7 and hand.board and why is not None
    assert (why.opener, why.decider, why.seat, hand.to_act) == ("sixth_street", 1, 2, 2)
    assert why.decider_folded and not why.decider_all_in
    assert words("en").first_to_act(why).endswith(
        "Seat 1 has folded, so Seat 2, next to the left, acts in their place")
    assert first_json(why, lambda seat: seat)["decider_folded"] is True


def passive_step(hand: Hand) -> None:
    kinds = {a.kind.value: a for a in hand.legal_actions()}
    for kind in ("bring_in", "check", "call"):
        if kind in kinds:
            hand.act(kinds[kind])
            return


def test_pokerkit_reshuffles_burned_and_folded_cards_before_any_community_card():
    # Seat 8 folds on sixth street: under standard the one card left makes a community card;
    # PokerKit shuffles the three burns and seat 8's six cards back first, and deals seven.
    standard = hand_with("stud", EIGHT, board="2d")
    while standard.street < 6:
        passive_step(standard)
    play(standard, "cbr 4", "c", "c", "c", "c", "c", "c", "f")
    assert standard.street == 7 and standard.board
    history = from_hand(standard)
    line = next(k for k, text in enumerate(history.actions) if text.startswith("d db"))
    with pytest.raises(ReplayError, match="no community card is dealt here") as error:
        replay(history, PROFILES["pokerkit"])
    assert error.value.index == line
    pokerkit = hand_with("stud", EIGHT, rules="pokerkit")
    while pokerkit.street < 6:
        passive_step(pokerkit)
    play(pokerkit, "cbr 4", "c", "c", "c", "c", "c", "c", "f")
    assert pokerkit.street == 7 and not pokerkit.board
    assert any(isinstance(e, StubReshuffled) for e in pokerkit.events)
    assert not any(isinstance(e, CommunityCardDealt) for e in pokerkit.events)


# PokerKit's own history of an all-in showdown where the all-in seat 1 mucks its aces; seats
# 2 (all in) and 3 show, and seat 3's flush takes the pot (written by PokerKit 0.7.7).
ALL_IN_MUCK = ["d dh p1 AsAh2c", "d dh p2 KsKh3c", "d dh p3 QsQh9c", "p1 cbr 2", "p2 cc",
               "p3 cc", "p1 sm", "p2 sm -", "p3 sm -", "d dh p2 4d", "d dh p3 4h",
               "d dh p2 5d", "d dh p3 5h", "d dh p2 6d", "d dh p3 6h", "d dh p2 7d",
               "d dh p3 7h", "p2 sm -", "p3 sm -"]


def test_pokerkit_honours_a_replayed_all_in_players_muck_at_the_showdown():
    stacks = [2, 2, 100]
    history = HandHistory(variant="F7S", antes=[0, 0, 0], bring_in=1, small_bet=2, big_bet=4,
                          starting_stacks=stacks, actions=ALL_IN_MUCK)
    assert replay_strict("F7S", 0, 1, 2, 4, stacks, ALL_IN_MUCK) == [0, 0, 104]
    result = replay(history, PROFILES["pokerkit"])
    assert result.finishing_stacks == (0, 0, 104)
    assert result.hand.mucked[0] and not result.hand.shown[0]
    # Under standard every live hand is turned up once a player is all in: no muck.
    with pytest.raises(ReplayError, match="cannot muck") as error:
        replay(history, PROFILES["standard"])
    assert error.value.index == ALL_IN_MUCK.index("p1 sm")


# A hand `stud simulate --rules pokerkit` dealt (stud8, eight players, seed 31337, hand 118):
# seat 7 folds its Jh on sixth street, and the reshuffle before seventh street brings it back to
# seat 1. When sixth street is dealt the stub holds only cards the history names, Jh among them
# (named on sixth and on seventh street): the burn must take one named next on seventh street,
# not Jh, which seat 7 gets now.
JH_TWICE = [
    "d dh p1 Ah2dTs", "d dh p2 8d6d4h", "d dh p3 5dQd7h", "d dh p4 As6cKd", "d dh p5 3h9cKh",
    "d dh p6 5hQc9d", "d dh p7 2c6h9s", "d dh p8 3c4sQs", "p2 pb", "p3 cc", "p4 cc", "p5 cc",
    "p6 cc", "p7 cc", "p8 cc", "p1 cc", "d dh p1 Qh", "d dh p2 6s", "d dh p3 Jc", "d dh p4 Tc",
    "d dh p5 Ad", "d dh p6 Kc", "d dh p7 7s", "d dh p8 Jd", "p5 cc", "p6 cc", "p7 cc", "p8 cc",
    "p1 cc", "p2 cc", "p3 cc", "p4 cc", "d dh p1 Td", "d dh p2 9h", "d dh p3 Ac", "d dh p4 2h",
    "d dh p5 Ks", "d dh p6 5c", "d dh p7 8s", "d dh p8 4c", "p5 cc", "p6 cc", "p7 cc", "p8 cc",
    "p1 cc", "p2 cc", "p3 cc", "p4 cc", "d dh p1 4d", "d dh p2 8c", "d dh p3 3s", "d dh p4 7c",
    "d dh p5 3d", "d dh p6 Js", "d dh p7 Jh", "d dh p8 7d", "p5 cc", "p6 cc", "p7 cc", "p8 cc",
    "p1 cc", "p2 cc", "p3 cbr 10", "p4 cc", "p5 cbr 17", "p6 cc", "p7 f", "p8 cc", "p1 cc",
    "p2 f", "p3 cc", "p4 cc", "p5 sm 3h9cKhAdKs3d", "p6 sm 5hQc9dKc5cJs", "p8 sm 3c4sQsJd4c7d",
    "p1 sm Ah2dTsQhTd4d", "p3 sm 5dQd7hJcAc3s", "p4 sm As6cKdTc2h7c", "d dh p1 Jh", "d dh p3 5s",
    "d dh p4 8d", "d dh p5 4h", "d dh p6 6d", "d dh p8 Th", "p5 sm 3h9cKhAdKs3d4h",
    "p6 sm 5hQc9dKc5cJs6d", "p8 sm 3c4sQsJd4c7dTh", "p1 sm Ah2dTsQhTd4dJh",
    "p3 sm 5dQd7hJcAc3s5s", "p4 sm As6cKdTc2h7c8d"
]


def test_pokerkit_replay_burns_a_card_named_next_latest_when_the_stub_holds_only_named_cards():
    stacks = [20] * 8
    history = HandHistory(variant="F7S/8", antes=[1] * 8, bring_in=2, small_bet=5, big_bet=10,
                          starting_stacks=stacks, actions=JH_TWICE)
    finishing = [0, 17, 0, 63, 63, 0, 17, 0]
    assert replay(history, PROFILES["pokerkit"]).finishing_stacks == tuple(finishing)
    assert replay_strict("F7S/8", 1, 2, 5, 10, stacks, JH_TWICE) == finishing


def test_a_history_cut_short_says_where_it_ends() -> None:
    """Cut before sixth street's cards, the history deals none for street 6 (no seat can be
    named to act on cards it does not hold); cut after them, the seat the cards make first."""
    hand = passive(Hand("stud", Stakes(1, 2, 5, 10), [200] * 3, None, Deck.seeded(11)))
    history = from_hand(hand)
    deals = [i for i, line in enumerate(history.actions) if line.startswith("d dh")]
    sixth = deals[3 * 3]  # third, fourth and fifth streets' lines: one a player each
    for end, why in [(sixth, "it deals no cards for street 6"),
                     (sixth + 3, f"seat {history.actions[sixth + 3][1]} to act on street 6")]:
        cut = dataclasses.replace(history, actions=history.actions[:end], finishing_stacks=None)
        with pytest.raises(ReplayError, match=re.escape(
                f"the history ends before the hand does ({why})")):
            replay(cut, cut.rules())


TWO = {1: "Ah Kd 2c 5s 6s 7s 9h", 2: "Qh Qd 3h 8c 8d Tc Jh"}


@pytest.mark.parametrize(("cards", "folds", "before", "deal", "why"), [
    ({**TWO, 3: "4d 4h Ts"}, (3,), "d dh p1 5s", "d dh p3 9d",
     "p3 has folded and gets no more cards"),
    (TWO, (2,), None, "d dh p1 5s", "p1 cannot get a card for street 4: the hand is over"),
    (TWO, (), "d dh p2 Jh", "d dh p1 9d",
     "p1 cannot get a card for street 8: a player gets 7 cards at most"),
])
def test_a_deal_the_hand_cannot_make_is_refused_naming_why(
        cards: dict[int, str], folds: tuple[int, ...], before: str | None, deal: str,
        why: str) -> None:
    """A card for a player who folded, after the hand is over, or past the seventh: each
    refused at its line for that reason, not for a turn it is not waiting on."""
    actions = from_hand(passive(hand_with("stud", cards), fold_on_third=folds)).actions
    at = actions.index(before) if before else len(actions)
    bad = [*actions[:at], deal, *actions[at:]]
    with pytest.raises(ReplayError) as error:
        replay(_history(bad, [100] * len(cards)), PROFILES["standard"])
    assert (error.value.index, error.value.reason) == (at, why)


def test_a_phh_file_with_a_utf8_byte_order_mark_replays(tmp_path: Path) -> None:
    """Notepad starts a UTF-8 file it saves with a byte-order mark: PHH read from a file or
    from text (an upload) ignores it."""
    text = dumps(from_hand(passive(hand_with("stud", TWO))))
    marked = tmp_path / "notepad.phh"
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    report = replay_file(marked)
    assert report.ok and report.checked, report.error
    assert loads_all("\ufeff" + text) == loads_all(text)
    result = CliRunner().invoke(app, ["replay", str(marked)])
    assert result.exit_code == 0 and "1 of 1 hands replayed exactly" in result.output


@pytest.mark.parametrize(("actions", "index", "why"), [
    # Seat 2 never dealt a card: the engine would bring in with a card the history never named.
    (["d dh p1 AsKs9c", "p2 pb", "p1 f"], 1, "p2 has no deal line for street 3 before this "
                                             "action"),
    (["d dh p1 AsKs", "d dh p2 2c3c4c", "p2 pb", "p1 f"], 2,
     "p1 has no deal line for street 3 before this action"),
])
def test_a_history_that_leaves_a_deal_out_is_refused_naming_the_seat_and_street(
        actions: list[str], index: int, why: str) -> None:
    history = HandHistory(variant="F7S", antes=[1, 1], bring_in=1, small_bet=2, big_bet=4,
                          starting_stacks=[50, 50], actions=actions)
    with pytest.raises(ReplayError, match=re.escape(why)) as error:
        replay(history, PROFILES["standard"])
    assert error.value.index == index


def test_a_showdown_hand_without_seventh_streets_deal_lines_is_refused() -> None:
    hand = passive(hand_with("stud", TWO))
    actions = [line for line in from_hand(hand).actions if not line.startswith(("d dh p1 9h",
                                                                                 "d dh p2 Jh"))]
    history = dataclasses.replace(_history(actions, [100, 100]), finishing_stacks=None)
    with pytest.raises(ReplayError, match="has no deal line for street 7"):
        replay(history, PROFILES["standard"])
