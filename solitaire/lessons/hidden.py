"""The hidden inputs a checker tries a student's function on: seeded in the practice check, secret in a graded one.

In the practice ``check`` every hidden input comes from a generator seeded with a number in the checker's source,
so the same inputs come back on every run and every machine (and a function that returns a constant earns
nothing). In a graded check (``solitaire.lessons.grading``) the grading process holds the course's secret: each
checker then draws secret inputs too, from a generator seeded with the secret and the checker's number together
(through SHA-256), and tries them first, before the practice ones. The secret ones differ from course to course
and reading the kit's source does not give them, so an answer that tabulates the practice inputs fails; the
practice ones are kept, so every mistake the practice check finds, a grade finds too. The secret
must be set before the lesson modules are imported, since some of them draw their inputs once, at import: a grading
process is started with it in the environment variable ``SECRET_VARIABLE``, which this module reads and removes
from the environment when it is first imported (so no process started later inherits it).

- ``hidden_inputs(seed, count, make)``: ``count`` inputs made by ``make(rng)`` (when graded, ``count`` secret ones,
  then the ``count`` practice ones);
- ``hidden_rng(seed)``: a generator, for a checker that draws in its own way (secret when graded);
  ``hidden_rngs(seed)``: the generators to draw from in turn (the secret one, then the practice one, when graded);
- ``hidden_seed(practice, salt)``: one deal number: ``practice`` in the practice check, a secret one when graded;
  ``hidden_seeds(practice, salt)``: deal numbers (secret ones, then the practice ones, when graded);
- ``graded_inputs(seed, count, make)``: inputs that only a graded check adds (none in practice), beside a
  checker's fixed ones, so a table of the fixed inputs answers nothing when it counts.
"""
from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable
from typing import Any

SECRET_VARIABLE = "SOLITAIRE_GRADING_SECRET"  # how a grading process is handed its secret before any lesson imports
_SECRET: list[str] = [s for s in [os.environ.pop(SECRET_VARIABLE, "")] if s]  # the course's secret, in a grading process
SECRET_DEALS = (1_000_000, 1_000_000_000)  # where a graded check's secret deal numbers lie: no lesson shows one


def set_secret(secret: str | None) -> None:
    """Make this process's hidden inputs secret (``None``: seeded again, as in the practice check).

    >>> set_secret("course A"); a = hidden_seed(3, 1)
    >>> set_secret("course B"); b = hidden_seed(3, 1)
    >>> set_secret(None); a != b, hidden_seed(3, 1)
    (True, 3)
    """
    if secret is not None and (not isinstance(secret, str) or not secret):
        raise ValueError(f"a course's secret is a non-empty string, not {secret!r}")
    _SECRET[:] = [secret] if secret else []


def graded() -> bool:
    """Whether this process draws secret inputs (a grading process).

    >>> graded()
    False
    """
    return bool(_SECRET)


def hidden_rng(seed: int) -> random.Random:
    """The generator a checker draws its hidden inputs from: seeded with ``seed``, and with the course's secret
    too in a grading process.

    >>> hidden_rng(5).random() == random.Random(5).random()
    True
    """
    if not _SECRET:
        return random.Random(seed)
    return random.Random(hashlib.sha256(f"{_SECRET[0]}\x00{seed}".encode()).digest())


def hidden_rngs(seed: int) -> list[random.Random]:
    """The generators a checker draws its inputs from in turn: ``random.Random(seed)``; in a grading process the
    secret one first.

    >>> [r.random() for r in hidden_rngs(5)] == [random.Random(5).random()]
    True
    """
    return ([hidden_rng(seed)] if _SECRET else []) + [random.Random(seed)]


def hidden_inputs(seed: int, count: int, make: Callable[[random.Random], Any]) -> list[Any]:
    """``count`` inputs made by ``make(rng)`` from each of ``hidden_rngs(seed)``: the lesson never shows them, so
    an answer that returns a constant (or the one value the lesson's data gives) earns nothing; in a graded check
    ``count`` secret ones come first.

    >>> hidden_inputs(1, 3, lambda rng: rng.randint(1, 100)) == hidden_inputs(1, 3, lambda rng: rng.randint(1, 100))
    True
    >>> len(set(hidden_inputs(1, 20, lambda rng: rng.randint(1, 10**6))))
    20
    """
    return [make(rng) for rng in hidden_rngs(seed) for _ in range(count)]


def graded_inputs(seed: int, count: int, make: Callable[[random.Random], Any]) -> list[Any]:
    """``hidden_inputs(seed, count, make)`` in a grading process, and none in the practice check: the extra inputs
    a checker whose practice inputs are fixed (every pair of its games, three variants) tries in a graded check.

    >>> graded_inputs(1, 3, lambda rng: rng.random())
    []
    """
    return [make(rng) for rng in [hidden_rng(seed)] for _ in range(count)] if _SECRET else []


def hidden_seed(practice: int, salt: int) -> int:
    """A deal number: ``practice`` in the practice check; in a grading process a secret one drawn with
    ``hidden_rng(salt)`` from ``SECRET_DEALS`` (beyond every deal a lesson shows).

    >>> hidden_seed(7, 70)
    7
    """
    if not _SECRET:
        return practice
    return hidden_rng(salt).randrange(*SECRET_DEALS)


def hidden_seeds(practice: list[int], salt: int) -> list[int]:
    """Deal numbers: ``practice`` in the practice check; in a grading process as many secret ones first.

    >>> hidden_seeds([0, 1, 2], 73)
    [0, 1, 2]
    """
    secret = [hidden_rng(salt).randrange(*SECRET_DEALS) + i for i in range(len(practice))] if _SECRET else []
    return secret + list(practice)
