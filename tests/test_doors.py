"""The doors the fuzzers of issue 23 found, each pinned: linear loading, cut messages, read-only results files,
the command line's numbers and paths checked before any work, and the loaders' one error type."""
from __future__ import annotations

import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from dataclasses import replace

import pytest
from helpers import foreign_database

from solitaire import KLONDIKE, Card, Game, InvalidVariantError, card
from solitaire.cards import quote
from solitaire.cli import main
from solitaire.notation import PositionTextError, variant_from_text

MESSAGE_LIMIT = 400  # characters, as in test_fuzz.py


# --- loading stays linear --------------------------------------------------------------------------
LONG_VARIANT_LINES = textwrap.dedent("""
    import json
    from solitaire import Game
    from solitaire.cli import _variant
    from solitaire.notation import MAX_POSITION_TEXT, PositionTextError, variant_from_text
    text = Game("klondike").to_text()
    room = MAX_POSITION_TEXT - len(text) - 10  # the longest variant line the size cap lets through
    found = []
    for tail in ["9" * room, "a" * room, "draw" * (room // 4) + "=", 'draw="' + "x" * room]:
        long_text = text.replace("variant: klondike", "variant: klondike " + tail)
        assert len(long_text) <= MAX_POSITION_TEXT
        data = json.loads(Game("klondike").to_json()) | {"start": long_text}
        for read, door in [(Game.from_text, long_text), (Game.from_json, json.dumps(data))]:
            try:
                read(door)
            except PositionTextError as e:
                found.append(str(e))
    try:
        _variant("klondike " + "9" * 100_000)  # the command line's --variant, which has no size cap
    except Exception as e:
        found.append(str(e))
    v = variant_from_text("klondike " + "draw=3 " * (100_000 // 7))  # read, not refused
    print(json.dumps({"messages": found, "draw": v.draw}))
""")


def test_a_100000_character_variant_line_is_read_at_once():
    """Before issue 23 the rule regex backtracked from every letter: 20,000 digits took 46 s, 100,000 about
    20 minutes. This is no speed test (benchmarks/bench_loading.py measures the time): the reads only have to
    end within a timeout hundreds of times longer than they take (about 0.02 s in all), under any load."""
    done = subprocess.run([sys.executable, "-c", LONG_VARIANT_LINES], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["draw"] == 3
    messages = result["messages"]
    assert len(messages) == 4 * 2 + 1
    assert all(len(m) <= MESSAGE_LIMIT for m in messages)
    assert all("cannot read the rules in" in m or "cannot read the value of draw" in m for m in messages)
    assert all(m.startswith("line 2 (variant)") for m in messages[:-1])  # from_text and from_json


# --- error messages are cut -------------------------------------------------------------------------
def test_thirty_thousand_extra_cards_give_a_short_message_that_counts_them():
    text = Game("klondike").to_text().replace("t1: ", "t1: " + "K♠ " * 30_000)
    with pytest.raises(PositionTextError) as info:
        Game.from_text(text)
    message = str(info.value)
    assert len(message) <= MESSAGE_LIMIT and "K♠ K♠" in message and "and 29,988 more" in message


def test_a_variant_wrong_in_every_rule_gives_a_short_message():
    bad = "klondike " + " ".join(f"{rule}=[{','.join(['9'] * 60)}]" for rule in
                                 ["ranks", "decks", "columns", "face_up", "empty_column_ranks", "build", "draw"])
    with pytest.raises(ValueError) as info:
        variant_from_text(bad)
    assert len(str(info.value)) <= MESSAGE_LIMIT and "and 3 more" in str(info.value)
    for rules in [dict(ranks=("A",) * 5000), dict(decks=10 ** 5000), dict(draw=10 ** 399),
                  dict(empty_column_ranks=("Z",) * 5000)]:
        with pytest.raises(InvalidVariantError) as info:
            replace(KLONDIKE, **rules)
        assert len(str(info.value)) <= MESSAGE_LIMIT


def test_quote_writes_out_what_repr_cannot():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert quote(deep) == "a list that cannot be written out"
    assert quote(10 ** 5000) == "a number of thousands of digits"
    with pytest.raises(ValueError, match="a list that cannot be written out"):
        card(deep, 0)
    with pytest.raises(ValueError, match="a list that cannot be written out"):
        Card(deep)


def test_experiment_messages_are_cut():
    from solitaire.experiments import run
    for kwargs in [dict(strategies=["x" * 10_000]), dict(strategies=["greedy"], retry_unknown=["x"] * 10_000),
                   dict(strategies=["greedy"], max_moves=[0] * 10_000), dict(strategies=["greedy"], deals=[-1] * 2)]:
        with pytest.raises(ValueError) as info:
            run(**{"variants": ["klondike"], "deals": 1, "progress": False} | kwargs)
        assert len(str(info.value)) <= MESSAGE_LIMIT


def test_draw_out_of_range_says_the_range():
    with pytest.raises(InvalidVariantError, match=r"draw must be 1 to 52 \(cards turned per draw\), got 99"):
        variant_from_text("klondike draw=99")


# --- loaders raise only PositionTextError ----------------------------------------------------------------
@pytest.mark.parametrize("variant, message", [("solijoy", "single-deck A-K deals; 'SoliJoy' is not one"),
                                              ("italian", "'Italian 32-card' is not one"),
                                              ("freecell", "unknown variant 'freecell'"),
                                              (5, "unknown variant 5")])
def test_from_pysol_refuses_a_variant_with_position_text_error(variant, message):
    with pytest.raises(PositionTextError, match=message):
        Game.from_pysol(Game("klondike").to_pysol(), variant)


# --- results files are read without making files beside them ---------------------------------------------
def make_results(path) -> None:
    from solitaire.experiments import run
    run(["klondike"], ["greedy"], 2, results=path, workers=1, max_moves=50, progress=False)


def test_loading_makes_no_file_beside_a_results_file(tmp_path):
    from solitaire.experiments import load
    path = tmp_path / "results.sqlite"
    make_results(path)
    before = sorted(os.listdir(tmp_path))
    assert before == ["results.sqlite"]  # in WAL mode, with no -wal: every game is in the file itself
    assert len(load(path)) == 2
    assert sorted(os.listdir(tmp_path)) == before  # no -shm or -wal left (before issue 23 both were)


def test_a_foreign_wal_mode_file_gets_no_new_files_beside_it(tmp_path):
    from solitaire.experiments import load
    path = foreign_database(tmp_path / "scores.db", wal=True)
    before = (path.read_bytes(), sorted(os.listdir(tmp_path)))
    with pytest.raises(ValueError, match=r"no table 'games'.*left untouched"):
        load(path)
    assert (path.read_bytes(), sorted(os.listdir(tmp_path))) == before


WRITER_KILLED = """
import os, sys
from solitaire.experiments import ResultsFile
f = ResultsFile(sys.argv[1])
f.db.execute("DELETE FROM games WHERE seed = 1")
f.db.commit()  # committed to the -wal file only
os._exit(0)  # as kill -9 would: the -wal and -shm files stay, the file itself still holds both games
"""


def test_a_file_whose_writer_was_killed_is_read_through_its_wal(tmp_path):
    """Reading such a file as immutable would miss what its -wal holds: it is read through it instead."""
    from solitaire.experiments import load
    path = tmp_path / "results.sqlite"
    make_results(path)
    subprocess.run([sys.executable, "-c", WRITER_KILLED, str(path)], check=True, timeout=60)
    assert {"results.sqlite-wal", "results.sqlite-shm"} <= set(os.listdir(tmp_path))
    assert list(load(path)["seed"]) == [0]


READ_ON_A_READ_ONLY_DISK = """
import sys
from solitaire.experiments import load
print(len(load(sys.argv[1])))
"""


@pytest.mark.parametrize("writer_killed", [False, True])
def test_a_results_file_on_a_read_only_disk_loads(tmp_path, writer_killed):
    """The folder is bind-mounted read-only in a mount namespace of the reading process only, so SQLite can
    create nothing there, as on a read-only disk (chmod would not stop root, who runs these tests)."""
    if not shutil.which("unshare") or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode:
        pytest.skip("cannot make a mount namespace here (unshare -m): no read-only disk to test on")
    path = tmp_path / "results.sqlite"
    make_results(path)
    if writer_killed:
        subprocess.run([sys.executable, "-c", WRITER_KILLED, str(path)], check=True, timeout=60)
    before = sorted(os.listdir(tmp_path))
    folder = shlex.quote(str(tmp_path))
    script = (f"mount --bind -o ro {folder} {folder} || exit 4; touch {folder}/probe 2>/dev/null && exit 3; "
              f"exec {shlex.quote(sys.executable)} -c {shlex.quote(READ_ON_A_READ_ONLY_DISK)} {shlex.quote(str(path))}")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=60)
    if done.returncode == 3:
        pytest.fail("the read-only bind mount did not stop a write")
    if done.returncode == 4:
        pytest.skip(f"cannot bind-mount read-only here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1" if writer_killed else "2"]
    assert sorted(os.listdir(tmp_path)) == before


def test_a_full_disk_message_counts_its_games_in_good_english():
    from solitaire.experiments import storage_advice
    error = sqlite3.OperationalError("database or disk is full")
    assert storage_advice("r.sqlite", error, 1).endswith("; the 1 game already saved is kept and a rerun skips it")
    assert storage_advice("r.sqlite", error, 2500).endswith("; the 2,500 games already saved are kept and a rerun "
                                                            "skips them")
    assert storage_advice("r.sqlite", error, 0).endswith("; no game was saved yet")


def test_seeds_beyond_64_bits_are_refused_before_any_game(tmp_path):
    from solitaire.experiments import run
    path = tmp_path / "results.sqlite"
    for deals in (range(2 ** 64 - 1, 2 ** 64 + 1), [5, 2 ** 64], range(10 ** 32)):
        with pytest.raises(ValueError, match="2\\*\\*64"):
            run(["klondike"], ["greedy"], deals, results=path, workers=1, progress=False)
    assert not path.exists()


def test_seeds_from_2_63_up_are_played_kept_and_read_back_whole(tmp_path):
    """Issue 55: --first-seed stopped at 2**63 - 1 while solve and hint took any 64-bit seed; one range now."""
    from solitaire.experiments import load, run
    path = tmp_path / "results.sqlite"
    seeds = [2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1]
    table = run(["klondike"], ["greedy"], seeds, results=path, workers=1, progress=False)
    assert table["seed"].tolist() == seeds and table["seed"].dtype.name == "uint64"
    assert load(path)["seed"].tolist() == seeds
    again = run(["klondike"], ["greedy"], seeds, results=path, workers=1, progress=False)  # all found in the file
    assert again.drop(columns="seconds").equals(table.drop(columns="seconds"))
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 3


# --- the command line checks its numbers and paths before any work ---------------------------------------
HUGE = "9" * 32


@pytest.mark.parametrize("args, message", [
    (["--deals", HUGE], "--deals: expected a whole number from 1 to 1,000,000"),
    (["--first-seed", HUGE], "--first-seed: expected a whole number from 0 to 18,446,744,073,709,551,615"),
    (["--first-seed", str(2 ** 64), "--deals", "2"], "--first-seed: expected a whole number from 0"),
    (["--first-seed", str(2 ** 64 - 1), "--deals", "2"], "--first-seed + --deals - 1 = 18,446,744,073,709,551,616, "
                                                         "must be below 2**64"),
    (["--workers", HUGE], "--workers: expected a whole number from 1 to 256"),
    (["--deals", "9" * 5000], "--deals: expected a whole number, got '999"),
    (["--strategies", "x" * 100_000], "--strategies: invalid choice: 'xxx"),
    (["--table", "{tmp}"], "is a folder: give a file name, such as games.csv"),
    (["--table", "/nonexistent/x.csv"], "--table '/nonexistent/x.csv': the folder '/nonexistent' does not exist"),
])
def test_experiment_refuses_numbers_and_paths_in_one_line_before_any_game(args, message, tmp_path, capsys):
    out = tmp_path / "results.sqlite"
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    with pytest.raises(SystemExit) as stop:
        main(["experiment", "--deals", "1", "--workers", "1", "--no-progress", "--out", str(out), *args])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and message in err and len(err.strip().splitlines()[-1]) <= MESSAGE_LIMIT
    assert not out.exists()  # refused before the results file was opened, so before any game


def test_a_table_file_that_exists_is_checked_and_kept_as_it_was(tmp_path, capsys):
    table = tmp_path / "games.csv"
    table.write_text("old\n")
    assert main(["experiment", "--deals", "1", "--workers", "1", "--no-progress", "--table", str(table)]) == 0
    assert table.read_text().startswith("variant,strategy,seed")
    fresh = tmp_path / "fresh.csv"
    assert main(["experiment", "--deals", "1", "--workers", "1", "--no-progress", "--table", str(fresh)]) == 0
    assert fresh.read_text().startswith("variant,strategy,seed")


@pytest.mark.parametrize("args, message", [
    (["chance", "--samples", HUGE], "--samples: expected a whole number from 1 to 10,000"),
    (["solve", "--seed", str(2 ** 64)], "--seed: expected a whole number from 0 to 18,446,744,073,709,551,615"),
    (["hint", "--variant", "klondike " + "9" * 100_000], "cannot read the rules in '999"),
])
def test_one_position_commands_refuse_numbers_in_one_line(args, message):
    """In a subprocess: before issue 23, ``chance --samples`` of 32 digits dealt layouts until stopped."""
    done = subprocess.run([sys.executable, "-m", "solitaire", *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()[-1]) <= MESSAGE_LIMIT


def test_the_command_line_names_a_changed_variant_by_its_rules(capsys):
    assert main(["solve", "--variant", "klondike draw=3", "--max-nodes", "10"]) == 0
    assert capsys.readouterr().out.startswith("klondike draw=3 deal 0: ")
    assert main(["solve", "--variant", "klondike", "--seed", "2", "--max-nodes", "10"]) == 0
    assert capsys.readouterr().out.startswith("Klondike deal 2: ")
    assert main(["solve", "--variant", 'klondike name="Mine" draw=3', "--max-nodes", "10"]) == 0
    assert capsys.readouterr().out.startswith("Mine deal 0: ")
