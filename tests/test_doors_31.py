"""The doors the independent fuzzer of issue 31 still opened, each pinned by a test that failed before the fix:
malformed Move objects, the command line's files and output, results files that lost rows or touched another
program's file, values accepted and then unsaveable, slow loading within the caps, and smaller ones."""
from __future__ import annotations

import errno
import json
import os
import resource
import shlex
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from helpers import foreign_database, make

from solitaire import KLONDIKE, Game, IllegalMoveError, InvalidMoveError, InvalidVariantError, Move, deal
from solitaire.cards import quote
from solitaire.cli import main
from solitaire.notation import BOM, MAX_MOVES, PositionTextError, move_from_text, variant_from_text

MESSAGE_LIMIT = 400  # characters, as in test_fuzz.py


def assert_unchanged_and_saveable(game: Game, before: str) -> None:
    """The game is as it was (its save is the same text) and that save loads back."""
    assert game.to_json() == before
    assert Game.from_json(before).to_json() == before


# --- 1. malformed Move objects ------------------------------------------------------------------------------
MALFORMED = [Move("t>t", 0.0, 6, 1), Move("t>t", 0, 6, 1.0), Move("t>t", True, 6, 1), Move("bogus"),
             Move("t>f", None), Move("draw", 0), Move("t>t", 0, 6, 10 ** 5000), Move(None), Move("t>t", "0", 6),
             Move("flip", -1), Move("t>t", 0, 6, 0), Move("w>f", -1, -1, True)]


@pytest.mark.parametrize("move", MALFORMED, ids=lambda m: quote(tuple(m)))
def test_a_malformed_move_raises_invalid_move_error_and_leaves_the_game_saveable(move):
    """Before: Move("t>t", 0.0, 6, 1) equalled t1>t7, was played and put on the undo stack, and then ``apply``
    raised TypeError: the save ("t1.0>t7") no longer loaded. Move("bogus") raised KeyError."""
    game = Game("klondike", seed=1)
    game.play("draw")
    before = game.to_json()
    for door in (game.play, game.explain):
        with pytest.raises(InvalidMoveError) as info:
            door(move)
        assert len(str(info.value)) <= MESSAGE_LIMIT and "\n" not in str(info.value)
    assert move not in game.legal_moves()
    assert_unchanged_and_saveable(game, before)


def test_the_float_move_that_equals_a_legal_one_is_not_in_the_legal_moves():
    game = Game("klondike", seed=1)
    assert Move("t>t", 0, 6, 1) in game.legal_moves()  # t1>t7
    assert Move("t>t", 0.0, 6, 1) not in game.legal_moves()
    with pytest.raises(InvalidMoveError, match="its source must be a whole number"):
        game.play(Move("t>t", 0.0, 6, 1))
    assert game.moves == [] and game.play(Move("t>t", 0, 6, 1)) == move_from_text("t1>t7")


KINDS = ["draw", "recycle", "flip", "w>t", "w>f", "t>f", "t>t", "f>t"]
field = st.one_of(st.integers(-3, 12), st.integers(), st.floats(allow_nan=True), st.booleans(), st.none(),
                  st.text(max_size=3), st.decimals(allow_nan=False, places=0))
moves = st.one_of(st.builds(Move, st.one_of(st.sampled_from(KINDS), st.text(max_size=4), st.none(), st.integers()),
                            field, field, field),
                  st.builds(Move, st.sampled_from(KINDS), st.integers(-1, 9), st.integers(-1, 9), st.integers(1, 3)),
                  st.sampled_from([Move("draw"), Move("t>t", 0, 6), Move("w>t", -1, 3), Move("flip", 1)]))  # legal, often


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves, st.sampled_from(["klondike", "italian", "solijoy"]), st.integers(0, 40))
def test_random_moves_raise_only_the_documented_errors_and_leave_the_game_saveable(move, variant, seed):
    """Issue 31's property: about 36% of malformed Move objects raised KeyError or TypeError before."""
    game = Game(variant, seed=seed)
    game.play(game.legal_moves()[0])
    before = game.to_json()
    legal = move in game.legal_moves()
    try:
        why = game.explain(move)
    except InvalidMoveError:
        assert not legal
        why = "invalid"
    assert (why is None) == legal
    try:
        game.play(move)
    except (InvalidMoveError, IllegalMoveError) as e:
        assert not legal and len(str(e)) <= MESSAGE_LIMIT
        assert_unchanged_and_saveable(game, before)
    else:  # a legal move, played: the game with it saves and loads back, and undo brings back the game before
        assert legal
        assert Game.from_json(game.to_json()).to_json() == game.to_json()
        game.undo()
        assert json.loads(game.to_json())["moves"] == json.loads(before)["moves"]


# --- 4. accepted, then unsaveable: seeds and variant names --------------------------------------------------
@pytest.mark.parametrize("seed", [2 ** 64, 2 ** 64 + 3, 10 ** 30, -1])
def test_a_seed_outside_64_bits_is_refused_where_it_enters(seed):
    """Before: Game("klondike", seed=2**64) dealt seed 0 (mod 2**64) and its save did not load."""
    for enter in (lambda: Game("klondike", seed=seed), lambda: deal(KLONDIKE, seed)):
        with pytest.raises(ValueError, match=r"from 0 to 2\*\*64 - 1"):
            enter()
    last = Game("klondike", seed=2 ** 64 - 1)
    assert Game.from_json(last.to_json()).seed == 2 ** 64 - 1


def test_the_widgets_new_deal_after_the_last_seed_is_seed_0():
    from solitaire.widget import GameWidget
    table = GameWidget(Game("klondike", seed=2 ** 64 - 1))
    table.new_deal()
    assert table.game.seed == 0 and Game.from_json(table.game.to_json()).seed == 0


@pytest.mark.parametrize("name", ["a\ud800b", "bell\x07", "tab\tname", "nul\x00", "x\uffff"])
def test_a_variant_name_that_cannot_be_saved_or_drawn_is_refused_where_it_enters(name):
    """Before: a lone surrogate loaded from text and could not then be written as UTF-8; a control character
    loaded and made the SVG invalid XML."""
    with pytest.raises(InvalidVariantError, match="without control characters or lone surrogates"):
        replace(KLONDIKE, name=name)
    written = json.dumps(name)  # as a position's variant line writes it: \ud800, \u0007 ...
    with pytest.raises(ValueError, match="without control characters or lone surrogates"):
        variant_from_text(f"klondike name={written}")
    text = Game("klondike", seed=1).to_text().replace("variant: klondike", f"variant: klondike name={written}")
    with pytest.raises(PositionTextError, match="without control characters or lone surrogates"):
        Game.from_text(text)
    saved = json.loads(Game("klondike", seed=1).to_json()) | {"start": text, "seed": None}
    with pytest.raises(PositionTextError, match="without control characters or lone surrogates"):
        Game.from_json(json.dumps(saved))


def test_a_printable_unusual_name_still_saves_and_draws():
    import xml.dom.minidom
    v = replace(KLONDIKE, name="Vera · 7♠ \u2028 line\x85")
    game = Game(v, seed=3)
    assert Game.from_json(game.to_json().encode("utf-8").decode("utf-8")).variant == v
    xml.dom.minidom.parseString(game._repr_svg_())


# --- 2 and 6. the command line: files, output, numbers, a finished game ---------------------------------
def run_cli(*args: str, stdout=subprocess.PIPE, timeout: float = 60) -> subprocess.CompletedProcess:
    """``python -m solitaire`` in a subprocess, its memory capped at 2 GB (so that reading /dev/zero whole, as
    before, fails fast instead of filling the machine), with a timeout (so that a FIFO cannot block for ever)."""
    def cap_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 ** 31, 2 ** 31))
    return subprocess.run([sys.executable, "-m", "solitaire", *args], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, timeout=timeout, preexec_fn=cap_memory)


def one_line_error(done: subprocess.CompletedProcess, code: int, message: str) -> None:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == code and len(lines) == 1, done.stderr
    assert message in lines[0] and "Traceback" not in done.stderr and len(lines[0]) <= MESSAGE_LIMIT


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return str(path)


@pytest.mark.parametrize("command", ["solve", "hint", "chance"])
def test_a_position_file_that_is_a_device_a_fifo_or_empty_is_refused_in_one_line(command, fifo):
    """Before: /dev/zero was read whole (a MemoryError traceback, or memory filled), a FIFO blocked for ever,
    and an empty path was ignored (the command looked at deal 0)."""
    for path in ("/dev/zero", fifo):
        one_line_error(run_cli(command, "--position-file", path), 2, "is not a regular file (a pipe or a device)")
    one_line_error(run_cli(command, "--position-file", ""), 2, "--position-file is empty: give a file name")


def test_a_huge_position_file_is_read_only_up_to_the_cap(tmp_path):
    """A sparse 3 GB file: before, it was read whole (a MemoryError traceback under the 2 GB cap)."""
    path = tmp_path / "huge.txt"
    with open(path, "wb") as f:
        f.truncate(3 * 2 ** 30)
    one_line_error(run_cli("solve", "--position-file", str(path)), 2, "is over 5,000,000 characters")


def test_run_refuses_an_empty_results_path_and_a_fifo(fifo):
    """Before: results="" kept the games in SQLite's private temporary database, lost at the end."""
    from solitaire.experiments import ResultsFileError, run
    with pytest.raises(ResultsFileError, match="name is empty: give a file name"):
        run(["klondike"], ["greedy"], 1, results="", workers=1, progress=False)
    with pytest.raises(ResultsFileError, match="is not a regular file"):
        run(["klondike"], ["greedy"], 1, results=fifo, workers=1, progress=False)


@pytest.mark.parametrize("option", ["--table", "--out"])
def test_experiment_refuses_a_fifo_a_device_or_an_empty_path_before_any_game(option, fifo, tmp_path):
    """Before: --table FIFO blocked for ever, --table /dev/full gave a traceback after every game was played,
    --out '' kept the games in a private temporary database and --table '' was ignored, both exiting 0."""
    base = ["experiment", "--deals", "1", "--workers", "1", "--no-progress"]
    for path in (fifo, "/dev/full"):
        one_line_error(run_cli(*base, option, path), 2, f"{option} {quote(path, 100)} is not a regular file")
    one_line_error(run_cli(*base, option, ""), 2, f"{option} is empty: give a file name")


def test_a_write_error_at_the_end_is_one_line_after_the_summary(tmp_path, capsys, monkeypatch):
    """A full disk when the table is written, after every game was played: the summary is already printed."""
    import pandas as pd

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(pd.DataFrame, "to_csv", full)
    with pytest.raises(SystemExit) as stop:
        main(["experiment", "--deals", "2", "--workers", "1", "--no-progress", "--table", str(tmp_path / "t.csv")])
    out, err = capsys.readouterr()
    assert stop.value.code == 1 and "win_rate" in out and "klondike" in out
    assert len(err.strip().splitlines()) == 1 and "cannot write the table file" in err and "No space left" in err


def test_stdout_to_dev_full_gives_one_line():
    with open("/dev/full", "w") as full:
        done = run_cli("solve", "--seed", "3", "--max-nodes", "2000", stdout=full)
    one_line_error(done, 1, "cannot write the output (No space left on device)")


@pytest.mark.parametrize("number", ["1_000", "１２", "1 000", "٣"])
def test_deals_with_underscores_or_other_digits_are_refused(number, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["experiment", "--deals", number, "--workers", "1", "--no-progress"])
    assert stop.value.code == 2 and f"--deals: expected a whole number, got {quote(number)}" in capsys.readouterr().err


def won_game() -> Game:
    """A Klondike game one move from won, with that move played."""
    stack = [" ".join(f"{r}{s}" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"]) for s in "♣♦♥♠"]
    stack[3] = stack[3].removesuffix(" K♠")
    game = Game.from_position(make(KLONDIKE, ["K♠"], foundations=stack, stock=""))
    game.play("t1>f")
    assert game.is_won()
    return game


def test_chance_on_a_won_game_says_it_is_won(tmp_path, capsys):
    """Before: "about 100% (95% interval 84% to 100%)" for a game already won."""
    path = tmp_path / "won.json"
    path.write_text(won_game().to_json(), encoding="utf-8")
    assert main(["chance", "--position-file", str(path)]) == 0
    out = capsys.readouterr().out
    assert out == f"the position in {path}: the game is won (every card is on a foundation)\n"


def test_a_byte_order_mark_is_accepted_by_the_three_loaders_and_the_command_line(tmp_path, capsys):
    """Before: each loader refused a text starting with U+FEFF (for JSON with a misleading message)."""
    game = Game("klondike", seed=3)
    game.play_all(["draw", "draw"])
    game.undo()
    assert Game.from_text(BOM + game.to_text()).position == game.position
    assert Game.from_json(BOM + game.to_json()).to_json() == game.to_json()
    assert Game.from_json((BOM + game.to_json()).encode("utf-8")).to_json() == game.to_json()
    assert Game.from_pysol(BOM + game.to_pysol()).position == game.position
    for text in (game.to_text(), game.to_json()):
        path = tmp_path / "bom.txt"
        path.write_text(BOM + text, encoding="utf-8")
        assert main(["hint", "--strategy", "greedy", "--position-file", str(path)]) == 0
        assert capsys.readouterr().out.startswith(f"the position in {path}: ")


# --- 5. the largest saved game the loaders accept -----------------------------------------------------------
def test_saved_games_over_the_move_cap_are_refused_and_the_largest_loads_whole():
    """Before: 200,000 moves and 200,000 to redo were accepted (8 s and 380 MB to load). The cap is now on the
    moves played and to redo together; benchmarks/bench_loading.py times the largest (0.74 s at worst)."""
    loop = (["draw"] * 24 + ["recycle"]) * (MAX_MOVES // 25 + 1)
    data = json.loads(Game("klondike", seed=1).to_json())
    half = MAX_MOVES // 2
    with pytest.raises(PositionTextError, match=f"at most {MAX_MOVES:,} moves .* this one has {half:,} \\+ "
                                                f"{half + 1:,}"):
        Game.from_json(json.dumps(data | {"moves": loop[:half], "redo": loop[half:MAX_MOVES + 1]}))
    game = Game.from_json(json.dumps(data | {"moves": loop[:half], "redo": loop[half:MAX_MOVES]}))
    played = Game("klondike", seed=1)
    played.play_all(loop[:MAX_MOVES])
    for _ in range(MAX_MOVES - half):
        played.undo()
    assert game.to_json() == played.to_json() and game.position == played.position
    assert game.undo() == played.undo() and game.position == played.position
    assert game.redo() == played.redo() and game.redo() == played.redo() and game.position == played.position


# --- 3. results files: no row dropped, another program's file untouched, read-only loads --------------------
SMALL = dict(workers=1, max_moves=50, progress=False)


def test_a_second_run_with_other_rules_under_one_label_is_refused_before_it_plays(tmp_path):
    """Before: two runs started together on one file, with the label klondike for Klondike and for its draw-3
    reading: both "finished", and INSERT OR IGNORE dropped the 2nd one's rows. Now the first run records its
    label's rules before it plays, and the second is refused, in one line, before it plays."""
    from solitaire.experiments import ResultsFile, load, run
    path = tmp_path / "results.sqlite"
    first = ResultsFile(path)
    first.check_rules({"klondike": KLONDIKE})  # the first run has started: no game saved yet
    with pytest.raises(ValueError) as info:
        run({"klondike": replace(KLONDIKE, draw=3)}, ["greedy"], 3, results=path, **SMALL)
    message = str(info.value)
    assert "labelled 'klondike' with other rules ('klondike'), saved or being played" in message
    assert "\n" not in message and len(message) <= MESSAGE_LIMIT
    first.close()
    assert len(load(path)) == 0  # refused before it played a game
    assert len(run({"klondike": KLONDIKE}, ["greedy"], 3, results=path, **SMALL)) == 3
    assert len(run({"klondike 3": replace(KLONDIKE, draw=3)}, ["greedy"], 3, results=path, **SMALL)) == 3
    assert len(load(path)) == 6  # both kept, under distinct labels


def foreign_with(path, kind: str, journal: str):
    """Another program's SQLite file: a ``games`` view with every column of a results table, or a ``scores``
    table; in WAL mode or not; with ``journal == "open"`` it stays open (its last commit only in the -wal)."""
    db = sqlite3.connect(path)
    if journal != "delete":
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE scores (player TEXT, points INTEGER)")
    if kind == "view":
        db.execute("CREATE VIEW games AS SELECT player AS variant, player AS strategy, points AS seed, player AS "
                   "budget, player AS outcome, points AS moves, points AS on_foundations, points AS seconds, points AS "
                   "nodes, player AS rules FROM scores")
    db.execute("INSERT INTO scores VALUES ('ana', 3)")
    db.commit()
    if journal == "open":
        db.execute("INSERT INTO scores VALUES ('ben', 5)")
        db.commit()
        return db
    db.close()
    return None


def files_beside(folder) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in sorted(os.listdir(folder))}


@pytest.mark.parametrize("kind", ["view", "table"])
@pytest.mark.parametrize("journal", ["delete", "wal", "open"])
def test_another_programs_file_is_left_byte_identical_shm_included(tmp_path, kind, journal):
    """Before: a file with a *view* named games passed the check and was switched to WAL (header bytes 18-19)
    before the run failed; an open WAL file of another program had its -shm rewritten."""
    from solitaire.experiments import load, run
    folder = tmp_path / "theirs"
    folder.mkdir()
    path = folder / "scores.db"
    still_open = foreign_with(path, kind, journal)
    try:
        before = files_beside(folder)
        assert ("scores.db-shm" in before) == (journal == "open")
        for attempt in (lambda: run(["klondike"], ["greedy"], 2, results=path, **SMALL), lambda: load(path)):
            with pytest.raises(ValueError, match="no table 'games'.*left untouched"):
                attempt()
            assert files_beside(folder) == before
        if still_open is not None:
            assert still_open.execute("SELECT count(*) FROM scores").fetchone() == (2,)
    finally:
        if still_open is not None:
            still_open.close()


def test_loading_a_file_that_is_not_a_results_file_gives_load_advice(tmp_path):
    from solitaire.experiments import load
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x07" * 5000)
    with pytest.raises(ValueError) as info:
        load(bad)
    assert "give a new file name" not in str(info.value) and "cannot read" in str(info.value)
    with pytest.raises(ValueError) as info:
        load(foreign_database(tmp_path / "scores.db"))
    assert "give a new file name" not in str(info.value)
    assert "give a results file written by solitaire.experiments" in str(info.value)


KILLED_WITHOUT_SHM = """
import os, sys
from solitaire.experiments import ResultsFile
f = ResultsFile(sys.argv[1])
f.db.execute("DELETE FROM games WHERE seed = 1")
f.db.commit()  # committed to the -wal file only
os.remove(sys.argv[1] + "-shm")  # as when only the file and its -wal were copied to a read-only disk
os._exit(0)  # as kill -9 would
"""
READ_ON_A_READ_ONLY_DISK = """
import sys
from solitaire.experiments import load
print(list(load(sys.argv[1])["seed"]))
"""


def test_a_killed_runs_file_and_wal_without_shm_load_on_a_read_only_disk(tmp_path):
    """Before: SQLite had to create the -shm to read through the -wal, could not on a read-only disk, and the
    message advised "give a new file name". The folder is bind-mounted read-only in a mount namespace of the
    reading process only (chmod would not stop root, who runs these tests)."""
    from solitaire.experiments import run
    if not shutil.which("unshare") or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode:
        pytest.skip("cannot make a mount namespace here (unshare -m): no read-only disk to test on")
    path = tmp_path / "results.sqlite"
    run(["klondike"], ["greedy"], 2, results=path, **SMALL)
    subprocess.run([sys.executable, "-c", KILLED_WITHOUT_SHM, str(path)], check=True, timeout=60)
    before = files_beside(tmp_path)
    assert sorted(before) == ["results.sqlite", "results.sqlite-wal"]
    folder = shlex.quote(str(tmp_path))
    script = (f"mount --bind -o ro {folder} {folder} || exit 4; touch {folder}/probe 2>/dev/null && exit 3; "
              f"exec {shlex.quote(sys.executable)} -c {shlex.quote(READ_ON_A_READ_ONLY_DISK)} {shlex.quote(str(path))}")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=60)
    if done.returncode == 4:
        pytest.skip(f"cannot bind-mount read-only here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[0]"]  # the -wal's deletion of seed 1 is read
    assert files_beside(tmp_path) == before
