"""Statistics, in one place: the Wilson interval of a win rate (and the textbook Wald interval, which fails where
Wilson's holds), the sign test between two players on the same deals, and Fisher's exact test between two win rates
on different deals.

Pure Python (``math`` only), so that every layer may use it: the expert, the experiments, the tournament and the
lessons. ``solitaire.experiments.wilson`` and ``solitaire.expert.wilson`` are this ``wilson``.
"""
from __future__ import annotations

import math

__all__ = ["fisher", "sign_test", "wald", "wilson"]


def _counts(k: int, n: int) -> None:
    """Refuse counts that are not ``k`` successes among ``n`` trials."""
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n, got k={k!r}, n={n!r}: k counts the successes among n trials")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials (95% for z=1.96); (0, 1) when n is 0.

    >>> low, high = wilson(30, 100)
    >>> round(low, 4), round(high, 4)
    (0.2189, 0.3959)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    _counts(k, n)
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def wald(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The textbook ("Wald") interval for ``k`` successes in ``n`` trials: the observed rate plus or minus ``z``
    standard errors (95% for z=1.96); (0, 1) when n is 0. It fails at few successes (0 of n gives (0, 0), however
    small n), so the kit's intervals are ``wilson``'s; lesson 05c tests this one by simulation.

    >>> low, high = wald(12, 40)
    >>> round(low, 3), round(high, 3)
    (0.158, 0.442)
    >>> wald(0, 40)
    (0.0, 0.0)
    """
    _counts(k, n)
    if n == 0:
        return 0.0, 1.0
    p = k / n
    half = z * math.sqrt(p * (1 - p) / n)
    return p - half, p + half


def sign_test(a: int, b: int) -> float:
    """Two-sided sign test: the chance that a fair coin splits ``a + b`` tosses at least as unevenly as a to b.

    ``a`` counts the deals only the first player won, ``b`` those only the second won (deals both or neither
    won say nothing about which is better).

    >>> sign_test(9, 1)
    0.021484375
    >>> sign_test(5, 5)
    1.0
    """
    if a < 0 or b < 0:
        raise ValueError(f"counts must not be negative, got a={a!r}, b={b!r}: give the deals only one player won")
    m = a + b
    tail = sum(math.comb(m, k) for k in range(max(a, b), m + 1)) / 2 ** m
    return min(1.0, 2 * tail)


def fisher(a: int, n: int, b: int, m: int) -> float:
    """Fisher's exact test, two-sided: were ``a`` wins in ``n`` games and ``b`` wins in ``m`` games equally likely
    at one common rate, the chance of a split of the ``a + b`` wins at most as likely as the one seen.

    For two win rates measured on *different* games (two rule sets, two games); on the same deals, the sign
    test is the sharper one. Overlapping intervals are no such test: 17 of 40 against 7 of 40 have overlapping
    95% intervals, and p = 0.027.

    >>> round(fisher(17, 40, 7, 40), 3), fisher(5, 10, 5, 10)
    (0.027, 1.0)
    """
    if not (0 <= a <= n and 0 <= b <= m):
        raise ValueError(f"need 0 <= a <= n and 0 <= b <= m, got a={a!r}, n={n!r}, b={b!r}, m={m!r}: "
                         "a and b count the wins among n and m games")
    wins = a + b

    def chance(k: int) -> float:  # the chance that k of the wins fall in the first n games
        return math.comb(n, k) * math.comb(m, wins - k) / math.comb(n + m, wins)

    seen = chance(a)
    splits = range(max(0, wins - m), min(n, wins) + 1)
    return min(1.0, sum(chance(k) for k in splits if chance(k) <= seen * (1 + 1e-9)))
