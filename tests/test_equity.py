"""The equity calculator: exact against a plain brute force, Monte Carlo against exact, PokerKit,
workers and Ray, the command line, and clear errors for bad hands."""

from __future__ import annotations

import doctest
import json
import math
import random
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations

import numpy as np
import pytest
from typer.testing import CliRunner

from stud import equity as equity_module
from stud.cards import Card, parse_cards
from stud.cli import app
from stud.equity import (
    CHUNK,
    DEFAULT_TRIALS,
    EXACT_MAX_STEPS,
    STEP_SECONDS,
    EquityError,
    EquityResult,
    equity,
)
from stud.evaluate import a5_value, high_value, low8_value

runner = CliRunner()
FIELDS = ("equity", "win_high", "tie_high", "win_low", "tie_low", "scoop")


def _known(hand: str) -> list[int]:
    tokens = [hand[i:i + 2] for i in range(0, len(hand), 2)]
    return [Card.parse(t).id for t in tokens if t != "??"]


def brute_force(variant: str, hands: list[str], dead: str = "") -> tuple[int, list[dict]]:
    """Every deal of the unseen cards to the hands, each settled with the plain evaluators."""
    known = [_known(h) for h in hands]
    seen = {c for k in known for c in k} | {c.id for c in parse_cards(dead)}
    unseen = [c for c in range(52) if c not in seen]
    sums = [dict.fromkeys(FIELDS, 0.0) for _ in hands]
    deals = 0

    def deal(player: int, left: list[int], finals: list[list[int]]) -> None:
        nonlocal deals
        if player == len(hands):
            deals += 1
            settle(finals)
            return
        for combo in combinations(left, 7 - len(known[player])):
            rest = [c for c in left if c not in combo]
            deal(player + 1, rest, [*finals, known[player] + list(combo)])

    def settle(finals: list[list[int]]) -> None:
        shares = [0.0] * len(finals)
        if variant != "razz":
            highs = [high_value(f) for f in finals]
            winners = [p for p, v in enumerate(highs) if v == max(highs)]
            for p in winners:
                sums[p]["win_high" if len(winners) == 1 else "tie_high"] += 1
        lows: list[int] = []
        if variant == "stud8":
            lows = [low8_value(f) for f in finals]
        elif variant == "razz":
            lows = [a5_value(f) for f in finals]
        low_winners = [p for p, v in enumerate(lows) if v == max(lows) and v >= 0]
        for p in low_winners:
            sums[p]["win_low" if len(low_winners) == 1 else "tie_low"] += 1
        if variant == "razz":
            for p in low_winners:
                shares[p] += 1 / len(low_winners)
        elif low_winners:
            for p in winners:
                shares[p] += 0.5 / len(winners)
            for p in low_winners:
                shares[p] += 0.5 / len(low_winners)
        else:
            for p in winners:
                shares[p] += 1 / len(winners)
        for p, share in enumerate(shares):
            sums[p]["equity"] += share
            sums[p]["scoop"] += share == 1

    deal(0, unseen, [])
    return deals, [{k: v / deals for k, v in s.items()} for s in sums]


def _seated(seed: int, players: int, known: int, dead: int) -> tuple[list[str], str]:
    """``players`` hands of ``known`` cards and ``dead`` dead cards from a seeded shuffle."""
    deck = [str(Card.from_id(c)) for c in range(52)]
    random.Random(seed).shuffle(deck)
    hands = ["".join(deck[p * known:(p + 1) * known]) for p in range(players)]
    return hands, "".join(deck[players * known:players * known + dead])


SEVEN_ON_SIXTH, SEVEN_DEAD = _seated(3, 7, 6, 3)
FOUR_ON_SEVENTH, FOUR_DEAD = _seated(4, 4, 6, 16)
THREE_ON_SIXTH, THREE_DEAD = _seated(5, 3, 6, 10)

BRUTE_SPOTS = [
    ("stud", ["AsKs2d3c4h5h??", "QdQc9s9hJcJd??"], ""),  # seventh street, river cards unknown
    ("stud8", ["As2s3s4s5dKd", "Ah2h3h4h5cKc"], ""),  # lows and wheels that tie
    ("stud8", THREE_ON_SIXTH, THREE_DEAD),
    ("stud", FOUR_ON_SEVENTH, FOUR_DEAD),  # four players, the seventh card to come
    ("stud8", SEVEN_ON_SIXTH, SEVEN_DEAD),  # seven players: a deep walk
    ("razz", ["As2s3d4h9cTc", "??5c6c7c8d2c", "3s4sKdQh2dJh3h"], "KcQcJcTs9s8s7s6s5s4c"),
    ("razz", ["????5c6c7cJdQd", "????8d9dTdKsKh"],
     "AsAhAdAc2s2h2d2c3s3h3d3c4s4h4d4c5s5h5d6s6h6d7s7h7d8s"),  # sixteen unseen
    ("stud8", ["As2s3s4s5s6s7s", "AhKhQhJhTh9h8h"], ""),  # every card known: one deal
]


@pytest.mark.parametrize("variant, hands, dead", BRUTE_SPOTS)
def test_exact_equals_a_plain_brute_force(variant: str, hands: list[str], dead: str) -> None:
    deals, expected = brute_force(variant, hands, dead)
    result = equity(variant, hands, dead, exact=True)
    assert result.method == "exact" and result.deals == deals
    for player, want in zip(result.players, expected, strict=True):
        assert player.stderr == 0
        for field in FIELDS:
            assert getattr(player, field) == pytest.approx(want[field], abs=1e-12), field
    if variant == "stud":
        assert all(p.win_low == p.tie_low == 0 for p in result.players)
    if variant == "razz":
        assert all(p.win_high == p.tie_high == 0 for p in result.players)


MC_SPOTS = [
    ("stud", ["AsKs2d7h8h", "QhQd5c4d9s"], ""),  # fifth street heads-up: 670,000 deals
    ("stud8", ["As2s3d4h9c??", "??5c6c7cKdQd", "3c7h8hKcJcTc"], "9d8c"),
    ("razz", THREE_ON_SIXTH, THREE_DEAD),
]


@pytest.mark.parametrize("variant, hands, dead", MC_SPOTS)
def test_monte_carlo_agrees_with_exact_within_four_standard_errors(
        variant: str, hands: list[str], dead: str) -> None:
    exact = equity(variant, hands, dead, exact=True)
    sampled = equity(variant, hands, dead, trials=200_000, seed=12)
    assert sampled.method == "monte-carlo" and sampled.deals == 200_000
    for mc, truth in zip(sampled.players, exact.players, strict=True):
        assert mc.stderr < 0.002 and (mc.stderr > 0) == (0 < truth.equity < 1)
        assert abs(mc.equity - truth.equity) <= 4 * mc.stderr
        for field in FIELDS[1:]:
            p = getattr(truth, field)
            binomial = math.sqrt(p * (1 - p) / sampled.deals)
            assert abs(getattr(mc, field) - p) <= 4 * binomial + 1e-12, field


@pytest.mark.parametrize("variant, hands, dead", BRUTE_SPOTS[:5] + MC_SPOTS)
def test_equities_sum_to_one(variant: str, hands: list[str], dead: str) -> None:
    for result in (equity(variant, hands, dead), equity(variant, hands, dead, trials=3000,
                                                        seed=1)):
        assert sum(p.equity for p in result.players) == pytest.approx(1, abs=1e-12)
        for p in result.players:
            assert p.scoop <= p.equity + 1e-12
            assert all(0 <= getattr(p, field) <= 1 for field in FIELDS)


def test_method_is_exact_when_it_is_quick_else_monte_carlo() -> None:
    assert equity("stud8", ["As2s3d4h9c", "Kh5c6c7c8d"]).method == "exact"
    third = equity("stud8", ["As2s3d", "Kh5c6c", "QdQs7h"], seed=3)
    assert third.method == "monte-carlo" and third.deals == DEFAULT_TRIALS
    assert equity("stud", ["AsKs2d3c4h5h??", "QdQc9s9hJcJd??"], trials=500).method \
        == "monte-carlo"


def test_same_seed_same_numbers_and_hands_keep_their_order() -> None:
    hands = ["As2s3d", "????5c", "????7h"]
    first = equity("razz", hands, trials=2 * CHUNK + 5, seed=9)
    assert first == equity("razz", hands, trials=2 * CHUNK + 5, seed=9)
    assert first != equity("razz", hands, trials=2 * CHUNK + 5, seed=10)
    # A negative seed, as stud simulate and stud play take one: a seed of its own.
    negative = equity("razz", hands, trials=2 * CHUNK + 5, seed=-9)
    assert negative == equity("razz", hands, trials=2 * CHUNK + 5, seed=-9) != first
    assert negative != equity("razz", hands, trials=2 * CHUNK + 5, seed=2**32 + 9)
    assert [p.cards for p in first.players] == hands
    swapped = equity("razz", hands[::-1], exact=False, trials=300_000, seed=2)
    assert swapped.players[2].equity == pytest.approx(first.players[0].equity, abs=0.01)


def test_two_workers_give_the_same_numbers_as_one() -> None:
    hands = ["As2s3d", "Kh5c6c", "QdQs7h"]
    one = equity("stud8", hands, trials=5 * CHUNK + 123, seed=11, workers=1)
    two = equity("stud8", hands, trials=5 * CHUNK + 123, seed=11, workers=2)
    assert one == two
    spot = ["As2s3d4h9c", "Kh5c6c7c8d"]
    assert equity("stud8", spot, exact=True, workers=2) == equity("stud8", spot, exact=True)


def test_cards_may_be_given_as_card_objects_with_none_unknown() -> None:
    text = equity("stud", ["AsKs2d3c4h5h", "??QdQc9s9hJc"], exact=True)
    cards = [[*parse_cards("AsKs2d3c4h5h")], [None, *parse_cards("QdQc9s9hJc")]]
    assert equity("stud", cards, exact=True) == text


# --- PokerKit ----------------------------------------------------------------------------------
# PokerKit's calculate_equities takes each player's known hole cards and deals the rest of seven
# from the deck, with no board. It has no up or down cards and no unknown card in the middle of
# a hand, but neither matters at a showdown: only which seven cards a player ends with does, so
# every spot of ours has a PokerKit twin (known cards as the hole cards, dead cards out of the
# deck). PokerKit is slow (a few hundred deals a second), so it samples few deals and the
# tolerance is four of its standard errors, sqrt(p(1-p)/n) with p our precise equity.

PK_SAMPLES = 240
PK_SPOTS = [
    ("stud", ["AsKs2d", "QhQd5c"], ""),
    ("stud", ["As2s3d", "Kh5c6c", "QdQs7h"], ""),
    ("stud", ["??????Jh", "TsTd9c8c"], "Jd"),
    ("stud", ["AhAd4c5c6d", "KsKhKc2d3s"], ""),
    ("stud", ["7h8h9hTh2c", "????Ac3c4c", "????Qs5s"], "Jh"),
    ("stud", ["2c3d4h5s6c", "AcKd"], ""),
    ("stud", ["QsJs9s8s2s", "??????AhAd"], ""),
    ("stud8", ["As2s3d", "Kh5c6c", "QdQs7h"], ""),
    ("stud8", ["AsKs2d3c", "QhQd5c4d"], "6h6s"),
    ("stud8", ["As2s3s4s5d", "Ah2h3h4h5c"], ""),
    ("stud8", ["????4h5h6c", "????KdKcTs", "????8s7s2c"], ""),
    ("stud8", ["8c7c6c5d9h", "AcAd3h3s"], "2h2s"),
    ("stud8", ["Ad2d", "KsKh", "Qc4c"], ""),
    ("stud8", ["Ts9s8s7s6s5h", "????As2hJdJh"], ""),
    ("razz", ["As2s3d", "Kh5c6c"], ""),
    ("razz", ["As2s3d", "Kh5c6c", "4d7h8h"], ""),
    ("razz", ["As2d3h4c5sKh", "6c7d8h9sTcJd"], ""),
    ("razz", ["????5c6c7c", "????8d2dAd"], ""),
    ("razz", ["KcKdKh", "QcQd", "2c2d2h"], "AsAh"),
    ("razz", ["9c8d7h6s", "Tc4d3h2s", "??????5h"], ""),
]


def _pokerkit_equities(job: tuple[int, str, list[str], str]) -> list[float]:
    from pokerkit import Card as PKCard
    from pokerkit import Deck, EightOrBetterLowHand, RegularLowHand, StandardHighHand
    from pokerkit.analysis import calculate_equities

    index, variant, hands, dead = job
    random.seed(1000 + index)  # PokerKit samples with the global generator
    hand_types = {"stud": (StandardHighHand,), "stud8": (StandardHighHand, EightOrBetterLowHand),
                  "razz": (RegularLowHand,)}[variant]
    dead_cards = set(PKCard.parse(dead)) if dead else set()
    deck = tuple(c for c in Deck.STANDARD if c not in dead_cards)
    ranges = [[list(PKCard.parse(h.replace("?", "")))] for h in hands]
    return calculate_equities(ranges, [], 7, 0, deck, hand_types, sample_count=PK_SAMPLES)


def test_agrees_with_pokerkit_on_twenty_spots_within_its_sampling_error() -> None:
    assert len(PK_SPOTS) == 20
    jobs = [(i, *spot) for i, spot in enumerate(PK_SPOTS)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        theirs = pool.map(_pokerkit_equities, jobs)  # under way while ours are computed
        ours = [equity(*spot, trials=300_000, seed=5) for spot in PK_SPOTS]
        theirs = list(theirs)
    for spot, mine, their in zip(PK_SPOTS, ours, theirs, strict=True):
        for player, pk in zip(mine.players, their, strict=True):
            p = player.equity
            tolerance = 4 * math.sqrt(p * (1 - p) / PK_SAMPLES + player.stderr**2) + 1e-9
            assert abs(p - pk) <= tolerance, (spot, p, pk)


# --- Ray -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local_ray():  # noqa: ANN201
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install -e '.[ray]')")
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    except Exception as error:  # noqa: BLE001 - any failure to start means: skip, and say why
        pytest.skip(f"a local Ray cannot start on this machine: {error}")
    yield ray
    ray.shutdown()


# One local Ray at a time: `make test` runs pytest in two processes (pytest-xdist).
@pytest.mark.xdist_group("ray")
def test_ray_gives_the_same_numbers_as_processes(local_ray) -> None:  # noqa: ANN001
    hands = ["As2s3d", "????5c", "????7h"]
    process = equity("stud8", hands, trials=3 * CHUNK, seed=4, workers=2)
    assert equity("stud8", hands, trials=3 * CHUNK, seed=4, backend="ray", workers=2) == process
    spot = ["As2s3d4h9c", "Kh5c6c7c8d"]
    assert equity("razz", spot, exact=True, backend="ray") == equity("razz", spot, exact=True)


# --- errors ----------------------------------------------------------------------------------

BAD = [
    (dict(hands=["AsKs", "AsQd"]), "card As appears twice: in hand 1 'AsKs' and in hand 2 'AsQd'"),
    (dict(hands=["AsKsAs", "QdQc"]), "card As appears twice: in hand 1 'AsKsAs'"),
    (dict(hands=["AsKs", "QdQc"], dead="Qc"), "card Qc appears twice: in hand 2 'QdQc' and in "
                                              "the dead cards"),
    (dict(hands=["AsKs", "QdQc"], dead="2d2d"), "card 2d appears twice: in the dead cards"),
    (dict(hands=["AsKs2d3d4d5d6d7d", "QdQc"]), "hand 1 'AsKs2d3d4d5d6d7d' has 8 cards; a stud "
                                               "hand has at most 7"),
    (dict(hands=["AsXs", "QdQc"]), "hand 1 'AsXs': bad card 'Xs'"),
    (dict(hands=["AsKs", "QdQ"]), "hand 2 'QdQ': cards are two characters each"),
    (dict(hands=["AsKs", "QdQc"], dead="Q"), "dead cards 'Q': cards are two characters each"),
    (dict(hands=["AsKs"]), "equity needs at least 2 hands, got 1"),
    (dict(hands=["As"] + ["??"] * 8), "stud is for 2 to 8 players, got 9 hands"),
    (dict(hands=["??????"] * 8), "the deck runs out: the hands need 56 more cards"),
    (dict(hands=["AsKs", "QdQc"], variant="holdem"), "unknown variant 'holdem'"),
    (dict(hands=["AsKs", "QdQc"], trials=0), "trials must be a whole number of deals >= 1"),
    (dict(hands=["AsKs", "QdQc"], trials=10, exact=True), "not both"),
    (dict(hands=["AsKs", "QdQc"], workers=0), "workers must be a whole number >= 1"),
    (dict(hands=["AsKs", "QdQc"], backend="dask"), "unknown backend 'dask'"),
    (dict(hands=["", "AsKs"]), "hand 1 '' is empty: give the cards it holds, ?? for each "
                               "unknown one, like 'AsKs2d' or '??????'"),
    (dict(hands=["AsKs", " "]), "hand 2 ' ' is empty"),
]
# What only the library can be given (the command line's words are always strings).
BAD_VALUES = [
    (dict(hands="AsKs2d QhQd5c"), "hands 'AsKs2d QhQd5c': give a list of hands, one string "
                                  "per player"),
    (dict(hands=["AsKs", "QdQc"], dead=5), "dead cards 5: give cards"),
    (dict(hands=["AsKs", "QdQc"], workers=True), "workers must be a whole number >= 1"),
    (dict(hands=["AsKs", []]), "hand 2 [] is empty"),
]


def test_numpy_whole_numbers_are_whole_numbers() -> None:
    hands = ["As2s3s", "KdKhQc"]
    assert equity("razz", hands, trials=np.int64(5000), workers=np.int64(1),
                  seed=np.int64(4)) == equity("razz", hands, trials=5000, seed=4)


@pytest.mark.parametrize("options, message", BAD + BAD_VALUES)
def test_bad_hands_and_options_are_clear_errors(options: dict, message: str) -> None:
    options = {"variant": "stud", **options}
    with pytest.raises(EquityError) as error:
        equity(**options)
    assert message in str(error.value)


def _cli_args(options: dict) -> list[str]:
    args = ["equity", "--variant", options.get("variant", "stud")]
    if "dead" in options:
        args += ["--dead", options["dead"]]
    if "trials" in options:
        args += ["--trials", str(options["trials"])]
    if options.get("exact"):
        args.append("--exact")
    if "workers" in options:
        args += ["--workers", str(options["workers"])]
    if "backend" in options:
        args += ["--backend", options["backend"]]
    return args + options["hands"]


@pytest.mark.parametrize("options, message", BAD)
def test_the_command_exits_2_with_one_line_naming_the_problem(options: dict,
                                                               message: str) -> None:
    result = runner.invoke(app, _cli_args(options))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert ("--trials and --exact: choose one" if message == "not both" else message) in lines[0]


# --- the command -----------------------------------------------------------------------------


def test_the_command_prints_the_json_schema() -> None:
    result = runner.invoke(app, ["equity", "--variant", "stud8", "--json", "--dead", "Kd",
                                 "As2s3d4h9c", "kh5c6c7c8d"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) == ["method", "deals", "players"]
    assert data["method"] == "exact" and isinstance(data["deals"], int)
    assert [p["cards"] for p in data["players"]] == ["As2s3d4h9c", "Kh5c6c7c8d"]
    for player in data["players"]:
        assert list(player) == ["cards", *FIELDS, "stderr"]
        assert all(isinstance(player[k], float) and 0 <= player[k] <= 1 for k in FIELDS)
        assert player["stderr"] == 0
    same = equity("stud8", ["As2s3d4h9c", "Kh5c6c7c8d"], "Kd")
    assert data == json.loads(json.dumps(same.as_dict()))

    sampled = runner.invoke(app, ["equity", "--variant", "razz", "--json", "--trials", "5000",
                                  "--seed", "3", "--workers", "2", "As2s3d", "????5c"])
    data = json.loads(sampled.output)
    assert data["method"] == "monte-carlo" and data["deals"] == 5000
    assert all(p["stderr"] > 0 for p in data["players"])


def test_the_command_prints_a_readable_table() -> None:
    result = runner.invoke(app, ["equity", "--variant", "stud8", "--trials", "20000", "--seed",
                                 "1", "As2s3d", "????Qc", "????Qd7d"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Seven Card Stud Hi/Lo (8 or better): 20,000 deals (Monte Carlo, seed 1)"
    assert lines[1].split() == ["hand", "equity", "+/-", "win", "hi", "tie", "hi", "win", "lo",
                                "tie", "lo", "scoop"]
    assert [line.split()[0] for line in lines[2:]] == ["As2s3d", "????Qc", "????Qd7d"]


def test_result_as_dict_round_trips_through_json() -> None:
    result = equity("stud", ["AsKs2d3c4h5h", "??QdQc9s9hJc"])
    assert isinstance(result, EquityResult)
    assert json.loads(json.dumps(result.as_dict()))["deals"] == result.deals


def test_the_module_examples_run() -> None:
    assert doctest.testmod(equity_module).failed == 0


def test_exact_help_states_the_limit_beyond_which_exact_is_refused() -> None:
    """``--exact`` walks every deal only up to ``EXACT_MAX_STEPS``: the help says so, in the
    hours the refusal itself names."""
    limit = EXACT_MAX_STEPS * STEP_SECONDS / 3600
    text = runner.invoke(app, ["equity", "--help"], env={"COLUMNS": "300"}).output
    assert "however long" not in text
    assert (f"walk every deal, up to about {limit:.1f} hours of work on one core; a larger spot "
            f"is refused (use Monte Carlo there)") in " ".join(text.replace("│", " ").split())
    with pytest.raises(EquityError, match=rf"about 3\.3 hours, more than the limit of "
                       rf"{EXACT_MAX_STEPS:,} steps \(about {limit:.1f} hours\); use Monte Carlo"):
        equity("stud", ["AsKs2d", "????Qc"], exact=True)
