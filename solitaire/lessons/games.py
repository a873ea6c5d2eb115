"""A graded strategy's games, all played at once: one message to the answer's process per round of decisions.

A strategy exercise plays a student's strategy on 150 deals, up to 1,500 moves each: asked one decision at a time
across a pipe, that is up to 200,000 messages. Here every game runs in a thread of its own through the kit's one
game loop (``strategies.game_loop``, in this process, where the deals are: the strategy sees only observations);
each round, the decisions of every game still going are sent together, and the answer's process answers each with
the game's own copy of the strategy (a fresh copy a game, as the tournament gives). A game's moves, outcome and
record are what ``play_game`` makes of them.
"""
from __future__ import annotations

import threading
import time
from typing import Any

from .running import GRADED


class _Rounds:
    """The decisions of many games, gathered until every game still going waits for one, then sent together."""

    def __init__(self, process: Any, attribute: str | None, games: int) -> None:
        self.process, self.attribute, self.running = process, attribute, games
        self.cond = threading.Condition()  # the server waits on it for a round to be complete
        self.pending: dict[int, tuple] = {}
        self.answers: dict[int, Any] = {}
        self.ready = [threading.Event() for _ in range(games)]  # a game's thread waits on its own
        self.failure: BaseException | None = None

    def ask(self, game: int, obs: Any, moves: list) -> Any:
        """A game's thread asks for its decision, and waits for it."""
        with self.cond:
            if self.failure is not None:
                raise _Stopped()
            self.ready[game].clear()
            self.pending[game] = (obs, moves)
            if len(self.pending) >= self.running:
                self.cond.notify()
        self.ready[game].wait()
        if game in self.answers:
            return self.answers.pop(game)
        raise _Stopped()

    def finished(self) -> None:
        with self.cond:
            self.running -= 1
            self.cond.notify()

    def serve(self) -> None:
        """Send each round's decisions until every game has ended (or a game's decision failed)."""
        while True:
            with self.cond:
                while self.running and len(self.pending) < self.running:
                    self.cond.wait()
                if not self.running:
                    return
                batch, self.pending = self.pending, {}
            try:
                answers, failure = self.process.games(self.attribute, [(g, *batch[g]) for g in sorted(batch)])
            except BaseException as e:  # noqa: BLE001 - the process died, or ran out of time: every game stops
                answers, failure = [], e
            order = sorted(batch)
            self.answers.update(zip(order, answers))
            if failure is not None:
                with self.cond:  # every game stops at its next decision
                    self.failure = failure if isinstance(failure, BaseException) else _Failed(order[len(answers)],
                                                                                                failure)
                    for event in self.ready:
                        event.set()
                return
            for g in order:
                self.ready[g].set()


class _Stopped(Exception):
    """Another game's decision failed: this game stops too."""


class _Failed(Exception):
    def __init__(self, game: int, reply: tuple) -> None:
        super().__init__(game, reply)
        self.game, self.reply = game, reply


def play_remote(strategy: Any, seeds: range, max_moves: int, variant: str = "klondike") -> list | None:
    """``play_game(variant, seed, strategy, max_moves=max_moves)`` for every seed, the games played at once, when
    ``strategy`` is a graded answer (its process's proxy, or a lesson's wrapper of one); None otherwise (the
    practice check plays them one by one).

    >>> play_remote(lambda obs, moves: moves[0], range(3), 100) is None
    True
    """
    from ..notation import move_from_text
    from ..state import deal, observe
    from ..strategies import GameRecord, game_loop
    from ..variants import get_variant
    from .remote import RemoteObject, remote_error
    from .verdicts import NotAnswered
    fn = getattr(strategy, "fn", None)
    remote = strategy if isinstance(strategy, RemoteObject) else fn if isinstance(fn, RemoteObject) else None
    if not GRADED or remote is None:
        return None
    use_rank = remote is strategy and "rank" in remote._description.get("methods", ())
    attribute = None if remote is fn else "rank" if use_rank else "choose"
    name = getattr(strategy, "name", None) or getattr(remote, "__name__", "yours")
    v, seeds = get_variant(variant), list(seeds)
    rounds = _Rounds(GRADED[-1], attribute, len(seeds))
    results: dict[int, Any] = {}

    def play(game: int, seed: int) -> None:
        start = time.perf_counter()

        def pick(p: Any, moves: list) -> Any:
            choice = rounds.ask(game, observe(p), moves)
            return move_from_text(choice) if isinstance(choice, str) and not use_rank else choice
        try:
            outcome, played, p = game_loop(deal(v, seed), pick, use_rank, max_moves, f"strategy {name!r}")
            results[game] = GameRecord(v.name, name, seed, outcome, played, p.on_foundations(),
                                       time.perf_counter() - start)
        except BaseException as e:  # noqa: BLE001 - reported below, by the lowest deal that failed
            results[game] = e
        finally:
            rounds.finished()

    threads = [threading.Thread(target=play, args=(i, seed), daemon=True) for i, seed in enumerate(seeds)]
    for t in threads:
        t.start()
    rounds.serve()
    for t in threads:
        t.join()
    if isinstance(rounds.failure, _Failed):
        error = remote_error(rounds.failure.reply)
        if isinstance(error, NotImplementedError):
            raise NotAnswered("your strategy's choose still has no body")
        if type(error).__name__ == "KitSwitchedOff":
            raise error
        raise NotAnswered(f"on Klondike deal {seeds[rounds.failure.game]} your strategy failed: "
                          f"{type(error).__name__}: {error}")
    if rounds.failure is not None:
        raise rounds.failure
    failed = next((i for i in range(len(seeds)) if isinstance(results.get(i), BaseException)
                   and not isinstance(results[i], _Stopped)), None)
    if failed is not None:
        e = results[failed]
        raise NotAnswered(f"on Klondike deal {seeds[failed]} your strategy failed: {type(e).__name__}: {e}")
    return [results[i] for i in range(len(seeds))]
