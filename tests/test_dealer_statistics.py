"""Statistical tests of the dealer against exact values.

The shuffle is checked through what a player sees: the number of trumps in a
hand must follow the exact hypergeometric distribution (52 cards, T trumps, 13
drawn), the dealer chosen by the seed must be uniform over the seats, and the
deal must be a pure function of the seed.

Sample size and tolerance. Each preset is dealt ``N_DEALS`` = 20,000 times
(seeds 0 .. 19,999; about 10 s in all). Each seat's trump count is tested on
its own, because the four hands of one deal are dependent (their trumps add up
to T, so pooling them would make the mean exact and the chi-square statistic
not chi-square distributed). That is 5 presets x 4 seats = 20 goodness-of-fit
tests, plus the dealer and the top trump, so each uses the 0.9999 quantile
(alpha = 1e-4): the chance that a correct dealer fails any of them is below
0.3%. The mean is checked within 4 standard errors (two-sided alpha 6e-5 each);
with N = 20,000 one standard error is about 0.01 trumps, so a bias of 0.04
trumps per hand is caught. The seeds are fixed, so the outcome never flakes:
a failure is a real bias or a 1-in-10,000 fluke, which another seed range
tells apart.

Each preset's deals are made once a process (``sample`` is cached): the tests
reading them are marked slow.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from dataclasses import dataclass

import pytest

import spades_tutor as st

N_DEALS = 20_000
ALPHA = 1e-4  # per test; see the module docstring
MEAN_TOLERANCE_SE = 4.0
MIN_EXPECTED = 5.0  # pool the tails until every expected count is at least this
PRESETS = st.Rules.preset_names()
SEATS = tuple(st.Seat)


# --- exact distributions and the chi-square quantile, from the standard library -----------------


def hypergeometric(deck: int, successes: int, drawn: int) -> dict[int, float]:
    """P(k successes among ``drawn`` cards dealt from ``deck`` holding ``successes``)."""
    total = math.comb(deck, drawn)
    return {
        k: math.comb(successes, k) * math.comb(deck - successes, drawn - k) / total
        for k in range(max(0, drawn - (deck - successes)), min(successes, drawn) + 1)
    }


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X chi-square with integer ``df`` degrees of freedom (closed forms)."""
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:  # exp(-x/2) * sum_{i < df/2} (x/2)^i / i!
        term, total = 1.0, 0.0
        for i in range(df // 2):
            total += term
            term *= half / (i + 1)
        return math.exp(-half) * total
    # odd: erfc(sqrt(x/2)) + exp(-x/2) * sum_{i=1}^{(df-1)/2} (x/2)^(i-1/2) / Gamma(i+1/2)
    total = math.erfc(math.sqrt(half))
    for i in range(1, (df - 1) // 2 + 1):
        total += math.exp((i - 0.5) * math.log(half) - half - math.lgamma(i + 0.5))
    return total


def chi2_critical(df: int, alpha: float = ALPHA) -> float:
    """The (1 - alpha) quantile of chi-square with ``df`` degrees of freedom, by bisection."""
    lo, hi = 0.0, 1000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if chi2_sf(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def pooled_bins(probs: dict[int, float], n: int) -> list[tuple[range, float]]:
    """Consecutive values with their expected counts, the tails pooled so each expects >= 5."""
    bins = [(range(k, k + 1), n * p) for k, p in sorted(probs.items())]
    while len(bins) > 1 and bins[0][1] < MIN_EXPECTED:
        (a, ea), (b, eb) = bins[0], bins[1]
        bins[:2] = [(range(a.start, b.stop), ea + eb)]
    while len(bins) > 1 and bins[-1][1] < MIN_EXPECTED:
        (a, ea), (b, eb) = bins[-2], bins[-1]
        bins[-2:] = [(range(a.start, b.stop), ea + eb)]
    return bins


def chi_square(observed: Counter[int], bins: list[tuple[range, float]]) -> float:
    assert sum(observed.values()) == round(sum(e for _, e in bins))
    return sum((sum(observed[k] for k in r) - e) ** 2 / e for r, e in bins)


# --- the deals ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    trumps: dict[st.Seat, Counter[int]]  # seat -> how many hands held k trumps
    dealers: Counter[st.Seat]
    top_trump_from_dealer: Counter[int]  # 1 = left of the dealer (dealt first) ... 0 = the dealer
    neighbours_together: list[int]  # per deal: how many of the 51 pairs next to each other in the pack share a hand


@functools.cache
def sample(preset: str) -> Sample:
    rules = st.Rules.preset(preset)
    trumps: dict[st.Seat, Counter[int]] = {s: Counter() for s in SEATS}
    dealers: Counter[st.Seat] = Counter()
    top: Counter[int] = Counter()
    together: list[int] = []
    top_trump = rules.trump_order()[0]
    pack = rules.deck()  # a fresh pack's order
    for seed in range(N_DEALS):
        rnd = st.Round.deal(rules, seed=seed)
        hands = rnd.hands
        seat_of = {c: s for s in SEATS for c in hands[s]}
        together.append(sum(seat_of[a] == seat_of[b] for a, b in itertools.pairwise(pack)))
        for seat in SEATS:
            trumps[seat][sum(1 for c in hands[seat] if rules.is_trump(c))] += 1
        dealers[rnd.dealer] += 1
        holder = next(s for s in SEATS if top_trump in hands[s])
        top[(holder - rnd.dealer) % 4] += 1
    return Sample(trumps, dealers, top, together)


# --- the helper against published values ------------------------------------------------------------


@pytest.mark.parametrize(
    ("df", "quantile_0999"),
    # 0.999 quantiles of chi-square from the standard tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4)
    [(1, 10.828), (2, 13.816), (3, 16.266), (4, 18.467), (5, 20.515), (6, 22.458), (9, 27.877), (10, 29.588)],
)
def test_chi_square_quantile_helper_matches_the_published_table(df: int, quantile_0999: float) -> None:
    assert chi2_critical(df, 0.001) == pytest.approx(quantile_0999, abs=5e-3)


def test_hypergeometric_helper_is_a_distribution_with_the_exact_mean() -> None:
    for trumps in (13, 15, 16):
        probs = hypergeometric(52, trumps, 13)
        assert math.fsum(probs.values()) == pytest.approx(1.0, abs=1e-12)
        assert math.fsum(k * p for k, p in probs.items()) == pytest.approx(13 * trumps / 52, abs=1e-12)


# --- the tests --------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("seat", SEATS, ids=lambda s: s.name.lower())
@pytest.mark.parametrize("preset", PRESETS)
def test_trumps_per_hand_follow_the_hypergeometric_distribution(preset: str, seat: st.Seat) -> None:
    rules = st.Rules.preset(preset)
    n_trumps = len(rules.trump_order())
    assert sum(1 for c in rules.deck() if rules.is_trump(c)) == n_trumps
    probs = hypergeometric(52, n_trumps, 13)
    observed = sample(preset).trumps[seat]
    assert set(observed) <= set(probs)

    bins = pooled_bins(probs, N_DEALS)
    df = len(bins) - 1  # no parameter is estimated from the data
    statistic = chi_square(observed, bins)
    critical = chi2_critical(df)
    assert statistic < critical, (
        f"{preset}, {seat}: chi-square {statistic:.2f} >= {critical:.2f} ({df} df, alpha {ALPHA}); "
        f"observed {dict(sorted(observed.items()))}, expected {[(str(r), round(e, 1)) for r, e in bins]}"
    )

    mean = sum(k * n for k, n in observed.items()) / N_DEALS
    exact_mean = 13 * n_trumps / 52
    exact_var = math.fsum((k - exact_mean) ** 2 * p for k, p in probs.items())
    standard_error = math.sqrt(exact_var / N_DEALS)
    assert abs(mean - exact_mean) < MEAN_TOLERANCE_SE * standard_error, (
        f"{preset}, {seat}: mean {mean:.4f} trumps, exact {exact_mean:.4f} +- {standard_error:.4f} (1 SE)"
    )


@pytest.mark.slow
def test_the_dealer_chosen_by_the_seed_is_uniform_over_the_seats() -> None:
    # the seat dealt first (left of the dealer) is then uniform too; see the rotation test below
    counts = sample("jokers").dealers
    expected = N_DEALS / 4
    statistic = sum((counts[s] - expected) ** 2 / expected for s in SEATS)
    assert statistic < chi2_critical(3), dict(counts)  # 4 seats - 1 = 3 df


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_the_dealer_chosen_by_the_seed_does_not_depend_on_the_rule_set(preset: str) -> None:
    assert sample(preset).dealers == sample("jokers").dealers


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_the_top_trump_lands_in_each_seat_around_the_dealer_equally_often(preset: str) -> None:
    counts = sample(preset).top_trump_from_dealer
    expected = N_DEALS / 4
    statistic = sum((counts[i] - expected) ** 2 / expected for i in range(4))
    assert statistic < chi2_critical(3), dict(counts)  # 4 positions - 1 = 3 df


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_two_cards_next_to_each_other_in_the_pack_share_a_hand_12_times_in_51(preset: str) -> None:
    # a well-mixed deal forgets the pack's order: any two cards share a hand with probability
    # 12/51, so 51 neighbouring pairs share one 12 times per deal on average. The per-deal
    # counts are independent across deals, so the mean's standard error comes from the sample.
    together = sample(preset).neighbours_together
    mean = math.fsum(together) / N_DEALS
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in together) / (N_DEALS - 1))
    standard_error = sd / math.sqrt(N_DEALS)
    assert abs(mean - 12) < MEAN_TOLERANCE_SE * standard_error, f"{mean:.4f} pairs, expected 12 +- {standard_error:.4f}"


@pytest.mark.parametrize("preset", PRESETS)
def test_the_deal_starts_left_of_the_dealer_so_moving_the_dealer_rotates_the_hands(preset: str) -> None:
    # with the dealer given, the seed fixes the shuffled deck; dealing it from the next seat's
    # left hands each seat's cards to the seat on its left
    rules = st.Rules.preset(preset)
    for seed in range(0, 2_000, 7):
        deals = {d: st.Round.deal(rules, dealer=d, seed=seed) for d in SEATS}
        for dealer in SEATS:
            here, there = deals[dealer].hands, deals[dealer.left].hands
            assert all(there[seat.left] == here[seat] for seat in SEATS), (preset, seed, dealer)
            assert deals[dealer].to_act == dealer.left


@pytest.mark.parametrize("preset", PRESETS)
def test_the_same_seed_gives_the_same_deal(preset: str) -> None:
    rules = st.Rules.preset(preset)
    seeds = range(0, N_DEALS, 50)
    for dealer in (None, *SEATS):
        seen = set()
        for seed in seeds:
            a = st.Round.deal(rules, dealer=dealer, seed=seed)
            b = st.Round.deal(st.Rules.preset(preset), dealer=dealer, seed=seed)
            c = st.Round.from_deal_id(rules, a.deal_id)
            assert a == b == c and a.hands == b.hands == c.hands and a.dealer == b.dealer == c.dealer
            assert sorted(card for s in SEATS for card in a.hands[s]) == sorted(rules.deck())
            seen.add(tuple(a.hands[s] for s in SEATS))
        # and different seeds give different deals (400 draws among 52!/(13!)^4 deals)
        assert len(seen) == len(seeds), dealer
