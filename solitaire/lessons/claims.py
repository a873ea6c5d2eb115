"""A lesson's stated figures, checked in one short line each: ``claim(...)`` instead of a wall of asserts.

A lesson states a figure ("greedy wins about half of the deals") and a cell computes it. ``claim`` checks the
figure against what the sentence says and prints one line with a tick, so the students see the statement
and its proof, not the guard code. If the figure does not hold (the data or the code changed), it raises
``ClaimFailed`` with the statement, the value and what was expected, so the lesson stops where it is wrong.

>>> claim("greedy wins {:.1%} of the 2,000 deals", 944 / 2000, 0.472)
✓ greedy wins 47.2% of the 2,000 deals
>>> claim("the solver won every deal a player won", True)
✓ the solver won every deal a player won
"""
from __future__ import annotations

import math
import numbers
from typing import Any


class ClaimFailed(AssertionError):
    """A lesson's stated figure does not hold: the sentence above it is no longer true."""


_NO_EXPECTED = object()


def claim(statement: str, value: Any, expected: Any = _NO_EXPECTED, *, within: float | None = None) -> None:
    """Check that ``value`` bears out ``statement``; print ``✓ statement`` (one line; nothing is returned,
    so a notebook cell shows only that line).

    ``expected`` says what the value must be:

    - left out: ``value`` itself must be true (``claim("random never wins", wins == 0)``);
    - a function (a predicate): it must return true on ``value`` (``lambda p: p < 0.05``);
    - a number: ``value`` must equal it to the precision it is written with (``0.472`` accepts 0.4719 and
      0.4721 but not 0.47; ``17`` accepts only 17), or within ``within`` when given;
    - anything else (a tuple, a string, a list): ``value`` must equal it.

    ``statement`` may hold ``{}`` fields: they are filled in with ``value`` (``"{:.1%}"``, ``"{:,}"``); a
    tuple value fills one field per item.

    >>> claim("Fisher's p = {:.3f}", 0.02734, 0.027)
    ✓ Fisher's p = 0.027
    >>> claim("{} of {} deals won", (17, 40), (17, 40))
    ✓ 17 of 40 deals won
    >>> claim("p < 0.05, so the difference is real", 0.027, lambda p: p < 0.05)
    ✓ p < 0.05, so the difference is real
    >>> claim("greedy wins {:.1%}", 0.46, 0.472)
    Traceback (most recent call last):
    ...
    solitaire.lessons.claims.ClaimFailed: the lesson says "greedy wins 46.0%", but the figure is 0.46, not 0.472 (to 3 decimals)
    >>> claim("p < 0.05", 0.2, lambda p: p < 0.05)
    Traceback (most recent call last):
    ...
    solitaire.lessons.claims.ClaimFailed: the lesson says "p < 0.05", but the figure 0.2 does not bear it out
    """
    if not isinstance(statement, str) or not statement.strip():
        raise TypeError(f"claim's first argument is the sentence it checks, as a string; got {statement!r}")
    shown = _filled(statement, value)
    problem = _problem(value, expected, within)
    if problem:
        raise ClaimFailed(f'the lesson says "{shown}", but the figure {problem}')
    print(f"✓ {shown}")


def _filled(statement: str, value: Any) -> str:
    """``statement`` with its ``{}`` fields filled in from ``value`` (or as written when it has none)."""
    if "{" not in statement:
        return statement
    args = value if isinstance(value, tuple) else (value,)
    try:
        return statement.format(*args)
    except (IndexError, KeyError, ValueError, TypeError) as e:
        raise TypeError(f"claim could not fill in {statement!r} with {value!r} ({e}); give one value per {{}}") from None


def _problem(value: Any, expected: Any, within: float | None) -> str:
    """What is wrong with ``value`` against ``expected`` (an empty string when it holds)."""
    if expected is _NO_EXPECTED:
        return "" if bool(value) else f"{value!r} is not true"
    if callable(expected):
        return "" if expected(value) else f"{value!r} does not bear it out"
    if _is_number(expected) and _is_number(value):
        return _number_problem(float(value), float(expected), within)
    if isinstance(expected, tuple) and isinstance(value, tuple) and len(value) == len(expected):
        wrong = [_problem(v, e, within) for v, e in zip(value, expected)]
        return "" if not any(wrong) else f"is {value!r}, not {expected!r}"
    return "" if value == expected else f"is {value!r}, not {expected!r}"


def _number_problem(value: float, expected: float, within: float | None) -> str:
    if within is not None:
        ok = abs(value - expected) <= within
        return "" if ok else f"is {value!r}, not {expected!r} ± {within!r}"
    places = _places(expected)
    ok = math.isclose(value, expected, abs_tol=0.5 * 10 ** -places + 1e-12)
    unit = "exactly" if places == 0 else f"to {places} decimal{'s' if places > 1 else ''}"
    return "" if ok else f"is {value!r}, not {expected!r} ({unit})"


def _places(x: float) -> int:
    """The decimals ``x`` is written with: 0.472 -> 3, 17 -> 0, 2.5e-05 -> 6.

    >>> _places(0.472), _places(17), _places(2.5e-05)
    (3, 0, 6)
    """
    mantissa, _, exponent = repr(float(x)).lower().partition("e")
    decimals = len(mantissa.split(".")[1].rstrip("0")) if "." in mantissa else 0
    return max(0, decimals - int(exponent or 0))


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool) or (
        getattr(x, "shape", None) == () and getattr(getattr(x, "dtype", None), "kind", None) in ("i", "u", "f"))

