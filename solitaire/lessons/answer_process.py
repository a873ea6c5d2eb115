"""A graded answer's own process: ``python -m solitaire.lessons.answer_process IN OUT MEMORY_MB CPU OUTPUT UID NPROC``.

A grading process (``solitaire.lessons.grader``) starts this fresh interpreter, in the tournament's sandbox where
there is one, with a graded kit first on its path (``solitaire.lessons.stripped``: the exercise's piece does not
exist there). As a tournament's entrant does, it first becomes the user nobody (as root, in a sandbox), gives up
every capability and limits its memory, CPU and output; then it loads the student's definitions and answers the
grader's calls, one message at a time:

- ``("source", chunks, answer)``: run the chunks of source (the lesson's imports, then the student's cells), then
  evaluate the expression ``answer``; ``("pickle", data, None)``: the answer, pickled by value in the kernel;
- ``("call", attribute, args)``: call the answer (or its method) on ``args``; ``("map", attribute, calls)``: call it
  on each argument tuple in turn, until one raises.

Each reply says what happened and which absent kit functions were called meanwhile. A statement of the source
that raises is skipped (as a notebook's failing cell leaves the next ones to run), and a name an import cannot
find is bound to a placeholder that raises when used. Nothing here is trusted: the grader checks every reply.
"""
from __future__ import annotations

import ast
import os
import sys
import traceback
from typing import Any

from .wire import Reader, dumps, send

LONGEST = 2000  # characters of an exception's message sent back
VARIANTS: dict[int, Any] = {}  # the variants the grader sent, by number (each is sent whole once)


def remembered_variant(number: int, cls: type, fields: tuple) -> Any:
    """A variant the grader sends for the first time: made, and kept under its number.

    >>> from solitaire import KLONDIKE
    >>> remembered_variant(0, *KLONDIKE.__reduce__()) is variant_by_number(0)
    True
    """
    VARIANTS[number] = cls(*fields)
    return VARIANTS[number]


def variant_by_number(number: int) -> Any:
    """A variant the grader sent before.

    >>> from solitaire import ITALIAN
    >>> variant_by_number(remembered_variant(7, *ITALIAN.__reduce__()) and 7).name
    'Italian 32-card'
    """
    return VARIANTS[number]


class Missing:
    """What an import binds to a name it cannot find (a kit function absent while the answer is graded)."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        from solitaire._absent import CALLED, KitSwitchedOff
        CALLED.append(self.name)
        raise KitSwitchedOff(f"the kit's {self.name} does not exist while your answer is graded: write it yourself")

    __call__ = _fail

    def __getattr__(self, attr: str) -> Any:
        self._fail()

    def __repr__(self) -> str:
        return f"<absent {self.module}.{self.name}>"


def _run_import(node: ast.ImportFrom, namespace: dict) -> None:
    """``from m import a, b``, binding a placeholder to each name that cannot be imported."""
    module = "." * node.level + (node.module or "")
    for alias in node.names:
        single = ast.ImportFrom(module=node.module, names=[alias], level=node.level)
        try:
            exec(compile(ast.fix_missing_locations(ast.Module([single], [])), "<graded import>", "exec"), namespace)
        except ImportError:
            namespace[alias.asname or alias.name] = Missing(module, alias.name)


def run_chunks(chunks: list[tuple[str, str]], namespace: dict) -> list[str]:
    """Run each chunk of source ``(text, file name)`` statement by statement in ``namespace``; a statement that
    raises is skipped. Returns what each skipped statement raised.

    >>> namespace = {}
    >>> run_chunks([("x = 1\\ny = 1 / 0\\nz = x + 1", "<cell>")], namespace), namespace["z"]
    (['line 2: ZeroDivisionError: division by zero'], 2)
    """
    import linecache
    problems = []
    for text, filename in chunks:
        linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
        try:
            tree = ast.parse(text, filename)
        except SyntaxError as e:
            problems.append(f"{filename}: SyntaxError: {e.msg} (line {e.lineno})")
            continue
        for node in tree.body:
            try:
                if isinstance(node, ast.ImportFrom):
                    _run_import(node, namespace)
                    continue
                code = compile(ast.Module([node], []), filename, "exec")
                exec(code, namespace)
            except BaseException as e:  # noqa: BLE001 - a student's statement may raise anything
                problems.append(f"line {node.lineno}: {type(e).__name__}: {e}"[:LONGEST])
    return problems


def describe(answer: Any) -> dict:
    """What the grader needs to know of an answer: whether it is called, its methods, its name, or its value.

    >>> describe(len)["callable"], describe([1, 2])["value"]
    (True, [1, 2])
    """
    plain = (type(answer).__module__ or "").split(".")[0] in ("builtins", "numpy", "pandas")  # ndarray.choose...
    methods = [] if plain else [m for m in ("choose", "rank") if callable(getattr(answer, m, None))]
    name = getattr(answer, "__name__", None)
    own_name = getattr(answer, "name", None)
    out = {"callable": callable(answer), "methods": methods, "name": name if isinstance(name, str) else None,
           "own_name": own_name if isinstance(own_name, str) else None, "repr": _repr(answer)}
    if not out["callable"] and not methods:
        out["value"] = answer
    return out


def _repr(x: Any) -> str:
    try:
        return repr(x)[:300]
    except Exception:  # noqa: BLE001
        return f"<a {type(x).__name__}>"


def _failure(e: BaseException, called_before: int) -> tuple:
    from solitaire._absent import CALLED
    kind = ("absent" if type(e).__name__ == "KitSwitchedOff" or len(CALLED) > called_before else
            "notimplemented" if isinstance(e, NotImplementedError) else "error")
    where = traceback.extract_tb(e.__traceback__)
    line = next((f.lineno for f in reversed(where) if not f.filename.startswith(os.path.dirname(__file__))), None)
    return ("x", type(e).__name__, str(e)[:LONGEST], kind, line)


class Server:
    """The answer's side of the pipe: load the answer, then serve calls until the grader closes the pipe."""

    def __init__(self, fd_in: int, fd_out: int) -> None:
        self.reader, self.fd_out, self.answer = Reader(fd_in), fd_out, None
        self.players: dict[int, Any] = {}  # a strategy's copy for each game (games)

    def receive(self) -> tuple:
        """The next message from the grader."""
        import pickle
        return pickle.loads(self.reader.receive())

    def reply(self, message: tuple) -> None:
        from solitaire._absent import CALLED
        try:
            data = dumps((*message, list(CALLED)))
        except Exception as e:  # noqa: BLE001 - an answer that cannot be pickled
            data = dumps(("x", type(e).__name__, f"the answer gave a value that cannot be sent: {e}"[:LONGEST],
                          "error", None, list(CALLED)))
        send(self.fd_out, data)

    def load(self, kind: str, payload: Any, answer: str | None) -> tuple:
        import pickle
        namespace: dict = {"__name__": "__main__", "__builtins__": __builtins__}
        if kind == "pickle":
            self.answer = pickle.loads(payload)
            return ("ok", describe(self.answer), [])
        problems = run_chunks(payload, namespace)
        self.answer = eval(compile(answer, "<answer>", "eval"), namespace)
        return ("ok", describe(self.answer), problems)

    def call(self, attribute: str | None, args: tuple) -> Any:
        fn = self.answer if attribute is None else getattr(self.answer, attribute)
        return fn(*args)

    def serve(self) -> None:
        from solitaire._absent import CALLED
        while True:
            try:
                message = self.receive()
            except EOFError:
                return
            before = len(CALLED)
            try:
                if message[0] == "load":
                    self.reply(self.load(*message[1:]))
                elif message[0] == "call":
                    self.reply(("r", self.call(*message[1:])))
                elif message[0] == "map":
                    self.reply(self.map(*message[1:]))
                elif message[0] == "games":
                    self.reply(self.games(*message[1:]))
            except BaseException as e:  # noqa: BLE001 - whatever the student's code raised, even SystemExit
                self.reply(_failure(e, before))

    def games(self, attribute: str | None, decisions: list) -> tuple:
        """A decision in each of many games, each game with its own copy of the strategy (made at its first)."""
        import copy
        from solitaire._absent import CALLED
        results = []
        for game, obs, moves in decisions:
            before = len(CALLED)
            try:
                if game not in self.players:
                    try:
                        self.players[game] = self.answer if attribute is None else copy.deepcopy(self.answer)
                    except Exception:  # noqa: BLE001 - a strategy that cannot be copied plays every game itself
                        self.players[game] = self.answer
                player = self.players[game]
                results.append((player if attribute is None else getattr(player, attribute))(obs, moves))
            except BaseException as e:  # noqa: BLE001
                return ("g", results, _failure(e, before))
        return ("g", results, None)

    def map(self, attribute: str | None, calls: list) -> tuple:
        from solitaire._absent import CALLED
        results = []
        for args in calls:
            before = len(CALLED)
            try:
                results.append(self.call(attribute, args))
            except BaseException as e:  # noqa: BLE001
                return ("m", results, _failure(e, before))
        return ("m", results, None)


def main(argv: list[str]) -> None:
    fd_in, fd_out, memory_mb, cpu_seconds, output_bytes, uid, nproc = map(int, argv)
    from solitaire.tournament import entrant  # the tournament's own steps: the same user, capabilities and limits
    entrant.drop_privileges(uid)
    entrant._set_limits(memory_mb, cpu_seconds, output_bytes)
    if nproc > 0 and hasattr(__import__("resource"), "RLIMIT_NPROC"):
        import resource
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    sys.stdout = sys.stderr = entrant._CappedOutput(sys.stdout, output_bytes // 2)
    Server(fd_in, fd_out).serve()


if __name__ == "__main__":
    main(sys.argv[1:])
