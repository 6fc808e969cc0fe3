"""The bots: legal actions only, views only, the same play for the same seed, and the expert
and equity bots beating random play and the calling station in every variant."""

from __future__ import annotations

import math
import random
import re
import time

import pytest

from scenarios import cards_in_view, hidden_cards
from stud.bots import BOTS, EquityBot, ExpertBot, make_bot
from stud.bots.base import Bot
from stud.bots.equity import sampled_share
from stud.bots.reading import TableRead, hit_chance
from stud.cards import Card, Deck, parse_cards
from stud.engine import Action, Hand, HandView
from stud.rules import PROFILES, Stakes, Variant
from stud.table import Table

VARIANTS = ["stud", "stud8", "razz"]
STAKES = [Stakes(1, 1, 2, 4), Stakes(2, 2, 5, 10), Stakes(0, 1, 2, 4), Stakes(5, 3, 10, 20),
          Stakes(1, 2, 3, 6)]






def random_game(rng: random.Random, variant: str) -> Hand:
    players = rng.randint(2, 8)
    stacks = [rng.choice([rng.randint(1, 30), rng.randint(30, 300)]) for _ in range(players)]
    return Hand(variant, rng.choice(STAKES), stacks, PROFILES[rng.choice(["standard", "pokerkit"])],
                Deck.seeded(rng.getrandbits(32)), auto_showdown=rng.random() < 0.8)


def play(hand: Hand, bots: list[Bot], check=None) -> list[tuple[int, Action]]:  # noqa: ANN001
    """Play a hand to its end with one bot per seat; every action is checked legal."""
    actions = []
    for _ in range(500):
        if hand.is_over:
            return actions
        seat = hand.to_act
        view = hand.view(seat)
        if check is not None:
            check(hand, seat, view)
        action = bots[seat - 1].act(view)
        assert action in view.legal_actions, \
            f"{bots[seat - 1].name} chose {action}, legal: {view.legal_actions}"
        actions.append((seat, action))
        hand.act(action, seat)
    raise AssertionError("the hand did not end")


# --- legal actions, views only, determinism ---------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_bot_only_ever_returns_a_legal_action(variant: str) -> None:
    """Random tables of 2-8 seats mixing every bot, short stacks and both profiles included."""
    rng = random.Random(f"legal-{variant}")
    names = list(BOTS)
    bots = {name: make_bot(name, k) for k, name in enumerate(names)}
    acted = dict.fromkeys(names, 0)
    for _ in range(150):
        hand = random_game(rng, variant)
        seated = [rng.choice(names) for _ in range(hand.players)]
        for seat, _ in play(hand, [bots[n] for n in seated]):
            acted[seated[seat - 1]] += 1
    assert all(acted.values()), acted


@pytest.mark.parametrize("name", ["expert", "equity"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_short_stacks_and_all_ins(name: str, variant: str) -> None:
    """Stacks of a few chips: all-in bring-ins, short calls and raises."""
    rng = random.Random(f"short-{name}-{variant}")
    bot = make_bot(name, 1)
    for _ in range(60):
        players = rng.randint(2, 8)
        stacks = [rng.randint(1, 12) for _ in range(players)]
        rules = PROFILES[rng.choice(["standard", "pokerkit"])]
        hand = Hand(variant, Stakes(1, 2, 5, 10), stacks, rules, Deck.seeded(rng.getrandbits(32)))
        others = [make_bot(rng.choice(["random", "station"]), k) for k in range(players)]
        hero = rng.randrange(players)
        others[hero] = bot
        play(hand, others)


@pytest.mark.parametrize("variant", VARIANTS)
def test_bots_play_with_a_community_card(variant: str) -> None:
    """Eight players to seventh street run the deck out: one community card for all."""
    rng = random.Random(f"community-{variant}")
    seen_board = 0
    for _ in range(10):
        hand = Hand(variant, Stakes(1, 2, 5, 10), [500] * 8, deck=Deck.seeded(rng.getrandbits(32)))
        stations = [make_bot("station") for _ in range(8)]
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            if view.board:
                seen_board += 1
                for name in ("expert", "equity"):
                    assert make_bot(name, 3).act(view) in view.legal_actions
            hand.act(stations[seat - 1].act(view), seat)
    assert seen_board


def test_bots_see_only_their_seats_view() -> None:
    """A bot is handed a view of its own seat and nothing else: no other seat's hidden card in
    its cards or its events, and no way back to the hand."""
    checked = 0

    def check(hand: Hand, seat: int, view: HandView) -> None:
        nonlocal checked
        assert isinstance(view, HandView) and view.viewer == seat == view.to_act
        assert not any(isinstance(getattr(view, name), Hand) for name in view.FIELDS)
        leaked = cards_in_view(view) & hidden_cards(hand, seat)
        assert not leaked, f"seat {seat} would see {leaked}"
        for player in view.players:
            if player.seat != seat and not player.shown:
                assert all(c is None for c, up in zip(player.cards, player.up, strict=True)
                           if not up)
        checked += 1

    rng = random.Random("views")
    names = list(BOTS)
    for variant in VARIANTS:
        for _ in range(40):
            hand = random_game(rng, variant)
            play(hand, [make_bot(rng.choice(names), k) for k in range(hand.players)], check)
    assert checked > 1000


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_seed_gives_the_same_play(name: str) -> None:
    def session(seed: int) -> list[list[tuple[int, Action]]]:
        rng = random.Random(99)
        bot = make_bot(name, seed)
        out = []
        for variant in VARIANTS:
            for _ in range(8):
                hand = random_game(rng, variant)
                others = [make_bot("random", k) for k in range(hand.players)]
                others[0] = bot
                out.append(play(hand, others))
        return out

    assert session(5) == session(5)


def test_every_bot_is_registered_and_follows_the_protocol() -> None:
    for name in ("random", "station", "strength", "expert", "equity"):
        bot = make_bot(name, 1)
        assert isinstance(bot, Bot) and bot.name == name
    assert isinstance(make_bot("expert"), ExpertBot) and isinstance(make_bot("equity"), EquityBot)


# --- reading the table ------------------------------------------------------------------------


def test_hit_chance_is_the_hypergeometric_tail() -> None:
    assert hit_chance(9, 1, 46, 1) == pytest.approx(9 / 46)
    assert hit_chance(9, 1, 46, 2) == pytest.approx(1 - (37 * 36) / (46 * 45))
    assert hit_chance(0, 1, 40, 3) == 0.0 and hit_chance(5, 0, 40, 0) == 1.0


def test_the_read_counts_live_cards_from_every_up_card_seen() -> None:
    """Cards seen on other boards, a folded hand's board included, are not live; a folded
    hand's up cards are dead; hidden cards stay unknown."""
    script = {(3, 1): "KhKd5c", (3, 2): "2s3sKs", (3, 3): "4d4hKc"}
    hand = Hand("stud", Stakes(1, 2, 5, 10), [100, 100, 100], deck=Deck.seeded(1),
                deal_script={k: parse_cards(v) for k, v in script.items()})
    hand.act(hand.legal_actions()[0], 1)  # seat 1 (5c) brings in
    hand.act(Action.fold(), 2)
    read = TableRead.of(hand.view(3))
    king, four, five = (Card.parse(c).rank for c in ("Kc", "4d", "5c"))
    assert read.rank_left(king) == 2  # the Kc is mine, the Ks is on a folded board
    assert read.rank_left(four) == 2 and read.rank_left(five) == 3
    assert read.dead == {Card.parse("Ks")} and read.seen == {Card.parse("5c"), Card.parse("Ks")}
    assert [p.seat for p in read.opponents] == [1] and read.price == 2
    assert read.unseen == 52 - 3 - 2 and read.to_come == 4


def _hand(text: str) -> list[Card | None]:
    return [None if text[i:i + 2] == "??" else Card.parse(text[i:i + 2])
            for i in range(0, len(text), 2)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_equity_bots_own_sampler_agrees_with_the_equity_calculator(variant: str) -> None:
    from stud.equity import equity

    hands = ["AsKs2d3c", "????Qc4h", "????7d5d"]
    expected = equity(variant, hands, dead="2h", trials=200_000, seed=1).players[0].equity
    got = sampled_share(Variant(variant), [_hand(h) for h in hands], {Card.parse("2h")},
                        40_000, seed=3)
    assert got == pytest.approx(expected, abs=0.01)  # four standard errors or so


def test_the_sampler_deals_a_community_card_when_the_deck_runs_out() -> None:
    """Eight hands on third street need 56 cards: the seventh card of every hand is shared,
    so the shares of all eight hands still add up to the whole pot."""
    doors = ["Qc", "4h", "7d", "5d", "9s", "Th", "Jc"]
    hands = [_hand("AsKs2d")] + [_hand("????" + d) for d in doors]
    shares = [sampled_share(Variant.STUD, hands[k:] + hands[:k], set(), 3000, seed=k)
              for k in range(8)]
    assert sum(shares) == pytest.approx(1.0, abs=0.05)
    board = Card.parse("2c")
    both = [_hand("AsAd3h4h5h6h") + [board], _hand("????KdKc9c??") + [board]]
    first = sampled_share(Variant.STUD, both, set(), 3000, seed=1)
    second = sampled_share(Variant.STUD, both[::-1], set(), 3000, seed=2)
    assert first + second == pytest.approx(1.0, abs=0.05) and first > 0.5


# --- the key result: beating random play and the calling station -----------------------------


def match(hero: str, villain: str, variant: str, hands: int, seed: int,
          players: int = 4) -> tuple[float, float, float]:
    """The hero against ``players - 1`` copies of the villain, the hero's seat moving round
    the table every hand, stacks of 50 big bets reset every hand. Returns the hero's mean
    result in big bets per hand, its standard error, and the hero's seconds per decision."""
    stakes = Stakes(1, 2, 5, 10)
    table = Table(Variant(variant), stakes, seats=players)
    buy_in = 50 * stakes.big_bet
    for number in range(1, players + 1):
        table.sit(number, f"seat {number}", buy_in)
    me = make_bot(hero, seed)
    others = [make_bot(villain, seed * 10 + k) for k in range(1, players)]
    timed = Timed(me)
    decks = random.Random(seed)
    results = []
    for index in range(hands):
        hero_seat = index % players + 1
        rest = iter(others)
        for number, seat in table.seats.items():
            seat.stack = buy_in
            seat.bot = timed if number == hero_seat else next(rest)
        hand = table.start_hand(Deck.seeded(decks.getrandbits(63)))
        table.play_bots()
        table.finish_hand()
        results.append((hand.stacks[hero_seat - 1] - buy_in) / stakes.big_bet)
    mean = sum(results) / hands
    variance = sum((r - mean) ** 2 for r in results) / (hands - 1)
    return mean, math.sqrt(variance / hands), timed.seconds / max(1, timed.decisions)


def warm_up(name: str) -> None:
    """One decision before the clock runs: the equity bot's first call loads its kernels."""
    hand = Hand("stud", Stakes(1, 2, 5, 10), [100] * 3, deck=Deck.seeded(0))
    make_bot(name, 0).act(hand.view(hand.to_act))


class Timed:
    def __init__(self, bot: Bot) -> None:
        self.bot, self.name = bot, bot.name
        self.seconds, self.decisions = 0.0, 0

    def act(self, view: HandView) -> Action:
        started = time.perf_counter()
        action = self.bot.act(view)
        self.seconds += time.perf_counter() - started
        self.decisions += 1
        return action


# Hands per match: enough for a margin well outside the 95% interval (the margins measured
# are 4-10 standard errors), few enough to keep the run short. The equity bot thinks ~1 ms
# per decision, the expert ~0.3 ms, so it plays fewer hands.
HANDS = {"expert": 1000, "equity": 500}


@pytest.mark.parametrize("villain", ["random", "station"])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("hero", ["expert", "equity"])
def test_the_skilled_bots_beat_random_play_and_the_calling_station(
        hero: str, variant: str, villain: str) -> None:
    warm_up(hero)
    mean, stderr, per_decision = match(hero, villain, variant, HANDS[hero], seed=11)
    low, high = mean - 1.96 * stderr, mean + 1.96 * stderr
    print(f"{hero} vs {villain} in {variant}: {mean:+.3f} big bets per hand, 95% CI "
          f"[{low:+.3f}, {high:+.3f}], {per_decision * 1000:.2f} ms per decision")
    assert low > 0, f"{hero} does not beat {villain} in {variant}: {mean:+.3f} ± {high - mean:.3f}"
    assert per_decision < 0.01


@pytest.mark.parametrize("name", list(BOTS))
def test_a_bot_asked_to_act_for_a_seat_not_to_act_says_so(name: str) -> None:
    hand = Hand("stud", Stakes(1, 1, 2, 4), [100, 100, 100], deck=Deck.seeded(2))
    other = next(seat for seat in (1, 2, 3) if seat != hand.to_act)
    for view, why in ((hand.view(other), f"it is seat {hand.to_act}'s turn, not seat {other}'s"),
                      (hand.view(None), "this is the public view")):
        with pytest.raises(ValueError, match=re.escape(why)):
            make_bot(name, 1).act(view)
