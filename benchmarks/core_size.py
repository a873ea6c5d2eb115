"""How long is the rules core to read? Code lines per module and the longest functions.

    python benchmarks/core_size.py [--top 5] [module.py ...]

A code line is a line that holds code: blank lines, comment lines and docstrings (with their doctests) are
not counted. A function's length is its code lines, nested functions included; its full span (with its
docstring) is shown beside it. Targets (issue 9): cards, variants, state and moves at most 450 code lines
together and no function over 40; endgame at most 150 code lines and no function over 60. The module that
explains illegal moves in words (``explain.py``, split out of ``moves.py``) is counted on its own, and the
whole first reading (the core with it) is shown too, so that no line of the rules' reading goes uncounted.
"""
from __future__ import annotations

import argparse
import ast
import io
import tokenize
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "solitaire"
CORE = ("cards.py", "variants.py", "state.py", "moves.py")
EXPLAIN = ("explain.py",)
SECOND = ("endgame.py",)


def docstring_lines(tree: ast.AST) -> set[int]:
    """The line numbers taken by docstrings (of the module, classes and functions)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def code_lines(source: str) -> set[int]:
    """The line numbers that hold code (a token other than a comment, outside docstrings)."""
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in skip:
            lines.update(range(tok.start[0], tok.end[0] + 1))
    return lines - docstring_lines(ast.parse(source))


def functions(source: str) -> list[tuple[int, int, str]]:
    """(code lines, full span, qualified name) of every function and method."""
    tree, code = ast.parse(source), code_lines(source)
    out = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                span = range(child.lineno, child.end_lineno + 1)
                out.append((len(code.intersection(span)), len(span), prefix + child.name))
                visit(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")

    visit(tree, "")
    return out


def report(names: tuple[str, ...], top: int) -> None:
    total = 0
    longest: list[tuple[int, int, str]] = []
    for name in names:
        source = (PACKAGE / name).read_text(encoding="utf-8")
        n = len(code_lines(source))
        total += n
        longest += [(c, s, f"{name}:{f}") for c, s, f in functions(source)]
        print(f"  {name:14} {n:4d} code lines  ({len(source.splitlines())} lines in all)")
    print(f"  {'together':14} {total:4d} code lines")
    for c, s, f in sorted(longest, reverse=True)[:top]:
        print(f"    {c:3d} code lines ({s:3d} with docstring)  {f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=5, help="how many of the longest functions to list")
    parser.add_argument("modules", nargs="*", help="modules of solitaire/ to count (default: the core)")
    args = parser.parse_args()
    if args.modules:
        report(tuple(args.modules), args.top)
        return
    print("rules core (target: <= 450 code lines together, no function over 40):")
    report(CORE, args.top)
    print("why a move is illegal, in words (no target of its own; the rules' messages, split out of moves.py):")
    report(EXPLAIN, args.top)
    print("the core and its explanations, read together in lessons 01-02:")
    report(CORE + EXPLAIN, 0)
    print("end of game (target: <= 150 code lines, no function over 60):")
    report(SECOND, args.top)


if __name__ == "__main__":
    main()
