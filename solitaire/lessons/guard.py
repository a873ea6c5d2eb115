"""What keeps a check honest: the kit's own pieces switched off while a student's function runs, copies of the
kit's source recognised, and hidden inputs a constant cannot guess.

- ``kit_off(*pieces)``: while it holds, each kit function in ``pieces`` raises ``KitSwitchedOff`` wherever a
  caller can reach it: its module attribute, every module that imported it by name, a class that holds it and
  a module-level table (dict or list) that holds it. A student's wrapper around the kit's piece fails with a
  message that names the piece.
- ``copy_of(answer, pieces)``: the kit function that ``answer`` is a copy of (its syntax tree with names of
  locals and arguments renamed canonically, docstrings, comments, annotations and layout dropped, constants
  kept), else None. Where no source is kept (a copy made with ``exec``), the code objects are compared.
- ``hidden_inputs(seed, count, make)``: the inputs a checker tries a function on, which no lesson shows (seeded in
  practice, secret when graded: ``solitaire.lessons.hidden``, importable from here too).
"""
from __future__ import annotations

import ast
import contextlib
import functools
import importlib
import inspect
import sys
import textwrap
import types
from collections.abc import Callable, Iterable, Iterator
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from .hidden import hidden_inputs  # noqa: F401  (the checkers' hidden inputs, importable from here)


class KitSwitchedOff(Exception):
    """Raised by a kit function that ``kit_off`` switched off: the student's answer called it."""


def resolve(piece: Any) -> Any:
    """A piece as an object: a dotted name ``"solitaire.stats.wilson"`` (imported when asked, so a checker
    module need not import pandas to name the kit's wilson), or the object itself.

    >>> resolve("solitaire.cards.parse_card").__name__
    'parse_card'
    """
    if not isinstance(piece, str):
        return piece
    parts = piece.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ValueError(f"{piece!r} names no kit function: give 'package.module.function'")


def _name(fn: Any) -> str:
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or str(fn)


def _switched_off(fn: Any, calls: list[str]) -> Callable:
    name = _name(fn)

    def off(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        raise KitSwitchedOff(f"the kit's {name} is switched off while your answer is checked: you called the "
                             f"kit's {name}; write it yourself")
    off.__name__ = off.__qualname__ = name
    off.__kit_switched_off__ = fn
    return off


def _places_holding(fn: Any) -> Iterator[tuple[Any, Any, str]]:
    """Every (container, key, kind) through which ``fn`` is reachable by name: module attributes, attributes of
    the classes a kit module defines, and entries of module-level dicts and lists."""
    for mod in list(sys.modules.values()):
        namespace = getattr(mod, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        kit = getattr(mod, "__name__", "").startswith("solitaire")
        for key, value in list(namespace.items()):
            if value is fn:
                yield mod, key, "attr"
            elif kit and isinstance(value, type) and value.__module__ == mod.__name__:
                for k, v in list(vars(value).items()):
                    if v is fn:
                        yield value, k, "attr"
            elif kit and isinstance(value, dict):
                for k, v in list(value.items()):
                    if v is fn:
                        yield value, k, "item"
            elif kit and isinstance(value, list):
                for k, v in enumerate(value):
                    if v is fn:
                        yield value, k, "item"


class KitSwitch:
    """The kit functions ``pieces`` and every place they are reachable from (found once, on first use: a scan of
    ``sys.modules``), ready to be switched off and on again many times cheaply (a check calls a student's
    function on thousands of positions)."""

    def __init__(self, pieces: Iterable[Any], answer: Any = None) -> None:
        self.pieces, self.answer, self._places = tuple(pieces), answer, None

    def places(self) -> list[tuple[Any, Any, str, Any]]:
        if self._places is None:
            kit = list(map(resolve, self.pieces))
            self._places = [(holder, key, kind, fn) for fn in kit for holder, key, kind in _places_holding(fn)]
            for f in (_helpers(g) for g in _functions(self.answer)) if self.answer is not None else ():
                for h in f:  # a piece the answer holds in a closure (imported inside the function around it)
                    for cell in h.__closure__ or ():
                        held = _cell(cell)
                        self._places += [(cell, "cell_contents", "attr", fn) for fn in kit if held is fn]
                    namespace = getattr(h, "__globals__", None)  # or in a namespace of its own (exec(code, ns))
                    if isinstance(namespace, dict) and not any(namespace is getattr(m, "__dict__", None)
                                                               for m in list(sys.modules.values())):
                        self._places += [(namespace, k, "item", fn) for k, v in list(namespace.items())
                                         for fn in kit if v is fn]
        return self._places

    @contextlib.contextmanager
    def off(self) -> Iterator[list[str]]:
        """Switch the pieces off; restore them afterwards, even on error. Yields the names of the pieces called
        meanwhile."""
        calls: list[str] = []
        with self.replaced(lambda fn: _switched_off(fn, calls)):
            yield calls

    @contextlib.contextmanager
    def replaced(self, make: Callable[[Any], Any]) -> Iterator[None]:
        """Put ``make(piece)`` in each place of each piece (a stand-in, or a wrapper that watches the calls,
        which works on a compiled kit too, where ``sys.setprofile`` sees no Python frame); restore them
        afterwards, even on error."""
        done: list[tuple[Any, Any, str, Any]] = []
        made: dict[int, Any] = {}
        try:
            for holder, key, kind, fn in self.places():
                stand_in = made.setdefault(id(fn), make(fn))
                done.append((holder, key, kind, fn))
                if kind == "item":
                    holder[key] = stand_in
                else:
                    setattr(holder, key, stand_in)
            yield
        finally:
            for holder, key, kind, fn in reversed(done):
                if kind == "item":
                    holder[key] = fn
                else:
                    setattr(holder, key, fn)


def _cell(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell
        return None


def kit_off(*pieces: Any) -> contextlib.AbstractContextManager[list[str]]:
    """Switch the kit functions ``pieces`` (objects or dotted names) off everywhere they are reachable; restore
    them afterwards, even on error. Yields the list of the switched-off pieces called meanwhile (a student's
    ``try/except`` cannot hide that it called one).

    >>> import solitaire.cards as cards
    >>> with kit_off(cards.parse_card) as called:
    ...     try:
    ...         cards.parse_card("A♠")
    ...     except KitSwitchedOff as e:
    ...         print(str(e).split(": ")[-1])
    you called the kit's parse_card; write it yourself
    >>> called, cards.parse_card("A♠")
    (['parse_card'], Card('A♠'))
    """
    return KitSwitch(pieces).off()


# --- copies of the kit's source ------------------------------------------------------------------------------

class _Canonical(ast.NodeTransformer):
    """Rename a function's own name, its arguments and its locals to v0, v1, ... in order of first appearance;
    drop docstrings and annotations. Globals (the kit's functions it calls) and constants are kept."""

    def __init__(self, local_names: set[str]) -> None:
        self.local_names, self.names = local_names, {}

    def _new(self, name: str) -> str:
        return self.names.setdefault(name, f"v{len(self.names)}")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name = self._new(node.name)
        node.returns, node.decorator_list = None, []
        if node.body and isinstance(node.body[0], ast.Expr) and isinstance(getattr(node.body[0], "value", None),
                                                                             ast.Constant) \
                and isinstance(node.body[0].value.value, str):
            node.body = node.body[1:] or [ast.Pass()]
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg, node.annotation = self._new(node.arg), None
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.local_names:
            node.id = self._new(node.id)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        self.generic_visit(node)
        return ast.Assign(targets=[node.target], value=node.value or ast.Constant(None))


def _local_names(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            names.add(getattr(node, "name", ""))
            a = node.args
            names |= {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if x}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
    return names


def source_lines(obj: Any) -> tuple[list[str], int, str]:
    """(a function's or class's source lines, the number of its first line, its file), as
    ``inspect.getsourcelines`` and ``inspect.getsourcefile`` give them, also for a module the kit compiled
    (``setup.py``): its source is the ``.py`` beside the compiled file, which is the same code.

    >>> from solitaire.moves import Move, legal_moves
    >>> source_lines(legal_moves)[0][0].rstrip(), source_lines(Move)[0][0].rstrip()
    ('def legal_moves(p: Position) -> list[Move]:', 'class Move(NamedTuple):')
    """
    obj = inspect.unwrap(obj)
    try:
        lines, first = inspect.getsourcelines(obj)
        return lines, first, inspect.getsourcefile(obj)
    except (OSError, TypeError):
        path = compiled_source(obj)
        if path is None:
            raise
    text = path.read_text(encoding="utf-8")
    first = _first_line(ast.parse(text), getattr(obj, "__qualname__", ""))
    if first is None:
        raise OSError(f"could not find {obj.__qualname__} in {path}")
    return inspect.getblock(text.splitlines(keepends=True)[first - 1:]), first, str(path)


def source_of(obj: Any) -> str:
    """``inspect.getsource(obj)``, also for a module the kit compiled (``source_lines``).

    >>> from solitaire.moves import passes_left
    >>> source_of(passes_left).splitlines()[0]
    'def passes_left(p: Position) -> bool:'
    """
    return "".join(source_lines(obj)[0])


def code_of(fn: Any) -> types.CodeType:
    """The byte code of ``fn``'s source: its own, or for a function of a module the kit compiled, what its
    ``.py`` compiles to (what a copy of it made with ``exec`` is compared with).

    >>> from solitaire.moves import passes_left
    >>> code_of(passes_left).co_name, len(code_of(passes_left).co_code) > 0
    ('passes_left', True)
    """
    fn = inspect.unwrap(fn)
    if compiled_source(fn) is None:
        return fn.__code__
    _, first, path = source_lines(fn)
    todo = [_module_code(path, Path(path).stat().st_mtime_ns)]
    while todo:
        found = todo.pop()
        if found.co_name == fn.__name__ and found.co_firstlineno == first:
            return found
        todo += [c for c in found.co_consts if isinstance(c, types.CodeType)]
    return fn.__code__


@functools.lru_cache(maxsize=None)
def _module_code(path: str, mtime_ns: int) -> types.CodeType:
    """What a module's ``.py`` compiles to, compiled once per version of the file (``code_of`` asks for it at
    every check of an exercise)."""
    return compile(Path(path).read_text(encoding="utf-8"), path, "exec")


def is_function(obj: Any) -> bool:
    """A plain Python function, or a function of a module the kit compiled (whose source is its ``.py``).

    >>> from solitaire.moves import passes_left
    >>> is_function(passes_left), is_function(len), is_function(Path)
    (True, False, False)
    """
    return isinstance(obj, types.FunctionType) or (callable(obj) and not isinstance(obj, type)
                                                   and compiled_source(obj) is not None)


def compiled_source(obj: Any) -> Path | None:
    """The ``.py`` a compiled module of the kit was built from, for an object of that module (else None: the
    object's module is plain Python, or not the kit's).

    >>> compiled_source(len) is None
    True
    """
    module = sys.modules.get(getattr(obj, "__module__", None) or "")
    file = getattr(module, "__file__", None) or ""
    suffix = next((s for s in EXTENSION_SUFFIXES if file.endswith(s)), None)
    source = Path(file[:-len(suffix)] + ".py") if suffix else None
    return source if source is not None and source.is_file() else None


def _first_line(tree: ast.Module, qualname: str) -> int | None:
    """The first line (its first decorator's) of the definition named ``qualname`` (``Class.method``)."""
    body, node = tree.body, None
    for name in qualname.split("."):
        node = next((n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     and n.name == name), None)
        if node is None:
            return None
        body = node.body
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


def normalised_tree(fn: Any) -> str | None:
    """A function's syntax tree, as text, with its locals renamed canonically and its docstring, comments,
    annotations and layout dropped; None when its source is not kept (a function made by ``exec``).

    >>> def f(x):
    ...     "Twice x."
    ...     y = x * 2  # a comment
    ...     return y
    >>> def g(n: int) -> int:
    ...     m = n * 2
    ...     return m
    >>> normalised_tree(f) == normalised_tree(g), normalised_tree(f) == normalised_tree(lambda x: x * 3)
    (True, False)
    """
    try:
        source = textwrap.dedent(source_of(fn))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    node = next((n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))),
                None)
    if node is None:
        return None
    return ast.dump(_Canonical(_local_names(node)).visit(node), annotate_fields=False)


_SAME_OP = {"LOAD_METHOD": "LOAD_ATTR", "CALL_METHOD": "CALL"}  # compiled either way for the same source


def _code_print(code: types.CodeType) -> tuple:
    """A code object's instructions (local variables by their slot, everything else by value; nested code objects
    compared the same way) and argument counts: what a renamed copy made with ``exec`` shares with its original."""
    import dis
    ops, instructions = [], list(dis.get_instructions(code))
    index = {ins.offset: i for i, ins in enumerate(instructions)}  # a jump by the instruction it lands on
    for ins in instructions:
        value = ins.argval
        if ins.opcode in dis.hasjrel or ins.opcode in dis.hasjabs:
            value = index.get(value, value)  # not its byte offset: the same code compiled apart may differ there
        elif isinstance(value, types.CodeType):
            value = _code_print(value)
        elif ins.opname.endswith("_FAST") or ins.opname in ("LOAD_DEREF", "STORE_DEREF", "LOAD_CLOSURE"):
            value = ins.arg
        ops.append((_SAME_OP.get(ins.opname, ins.opname), repr(value)))
    return tuple(ops), code.co_argcount, code.co_kwonlyargcount


def _functions(answer: Any) -> list[Callable]:
    """The Python functions of an answer: the function itself, or the methods of a class or an instance."""
    answer = getattr(answer, "__func__", answer)
    if isinstance(answer, types.FunctionType):
        return [answer]
    cls = answer if isinstance(answer, type) else type(answer)
    if cls.__module__ in ("builtins",):
        return []
    return [getattr(v, "__func__", v) for k, v in vars(cls).items() if isinstance(getattr(v, "__func__", v),
                                                                                   types.FunctionType)]


LEAST_NODES = 40  # a syntax tree this small may be written independently: called a copy only with the same docstring


def _size(fn: Any) -> int:
    """The number of syntax-tree nodes of a function's body, its docstring left out."""
    try:
        node = ast.parse(textwrap.dedent(source_of(fn))).body[0]
    except (OSError, TypeError, SyntaxError, IndexError):
        return 0
    body = getattr(node, "body", [])
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
        body = body[1:]
    return sum(1 for stmt in body for _ in ast.walk(stmt))


def _same(fn: Callable, kit: Callable) -> bool:
    """Is ``fn`` a copy of ``kit``: the same normalised tree (or, without source, the same code), and either
    big enough not to be written the same way by chance or carrying the kit's docstring?"""
    if fn is kit:
        return True
    mine = normalised_tree(fn)
    same = (mine == normalised_tree(kit)) if mine is not None else (
        _code_print(fn.__code__) == _code_print(code_of(kit)))
    return same and (_size(kit) >= LEAST_NODES or bool(kit.__doc__ and fn.__doc__ == kit.__doc__))


def _is_kit(fn: Callable) -> bool:
    """Is ``fn`` the kit's own function (its module's attribute of that name), not a copy of it?"""
    return getattr(sys.modules.get(getattr(fn, "__module__", None) or ""), fn.__name__, None) is fn


def _helpers(fn: Callable, depth: int = 2) -> list[Callable]:
    """``fn`` and the functions of the student's own it calls by global name (two levels deep): a copy pasted as
    a helper of a short wrapper is a copy too."""
    found, todo = [], [(fn, 0)]
    while todo:
        f, d = todo.pop()
        if f in found:
            continue
        found.append(f)
        namespace = getattr(f, "__globals__", {})
        inner = _nested(f)
        found += inner
        names = [n for g in (f, *inner) for n in getattr(getattr(g, "__code__", None), "co_names", ())]
        if d < depth:
            todo += [(namespace[n], d + 1) for n in names if isinstance(namespace.get(n), types.FunctionType)
                     and not _is_kit(namespace[n])]
    return found


def _nested(fn: Callable) -> list[Callable]:
    """The functions defined inside ``fn`` (a ``def`` or a lambda in its body, at any depth), made from their
    code objects so that they can be compared with the kit's: a copy pasted inside the answer is a copy too.

    >>> def outer(x):
    ...     def inner(y):
    ...         return (lambda z: z + 1)(y)
    ...     return inner(x)
    >>> [f.__name__ for f in _nested(outer)]
    ['inner', '<lambda>']
    """
    out, todo = [], list(getattr(getattr(fn, "__code__", None), "co_consts", ()))
    while todo:
        const = todo.pop(0)
        if isinstance(const, types.CodeType):
            cells = tuple(types.CellType() for _ in const.co_freevars)
            out.append(types.FunctionType(const, getattr(fn, "__globals__", {}), const.co_name, None, cells or None))
            todo += const.co_consts
    return out


def copy_of(answer: Any, pieces: Iterable[Any]) -> str | None:
    """The name of the kit function in ``pieces`` that ``answer`` is a copy of (or one of its methods, or a helper
    of the student's it calls), else None; ``"own <name>"`` when it is the kit's function itself. A tree of fewer than ``LEAST_NODES`` nodes (a one-line function) is
    called a copy only when it also carries the kit's docstring: a short answer may be written the same way.

    >>> import solitaire.cards as cards
    >>> namespace = {}
    >>> exec(inspect.getsource(cards.parse_card), vars(cards).copy(), namespace)
    >>> copy_of(namespace["parse_card"], ["solitaire.cards.parse_card"])
    'parse_card'
    >>> copy_of(lambda text: text, ["solitaire.cards.parse_card"]) is None
    True
    """
    kits = [getattr(k, "__wrapped__", k) for k in map(resolve, pieces)]
    kits = [getattr(k, "__func__", k) for k in kits if callable(k)]
    for fn in (h for f in _functions(answer) for h in _helpers(f)):
        for kit in kits:
            if fn is kit:
                return f"own {_name(kit)}"
            if is_function(kit) and _same(fn, kit):
                return _name(kit)
    return None
