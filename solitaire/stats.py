"""Statistics, in one place: the Wilson interval of a win rate and the sign test between two players.

Pure Python (``math`` only), so that every layer may use it: the expert, the experiments, the tournament and the
lessons. ``solitaire.experiments.wilson`` and ``solitaire.expert.wilson`` are this ``wilson``.
"""
from __future__ import annotations

import math

__all__ = ["sign_test", "wilson"]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials (95% for z=1.96); (0, 1) when n is 0.

    >>> low, high = wilson(30, 100)
    >>> round(low, 4), round(high, 4)
    (0.2189, 0.3959)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n, got k={k!r}, n={n!r}: k counts the successes among n trials")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


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
