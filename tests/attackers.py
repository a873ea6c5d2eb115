"""Attacking entrants for tests/test_tournament.py: each a real entrant file's source (plain strings: this module
imports nothing of the kit, so the same attackers can be run against any version of the tournament).

Each plays the greedy player's moves when its trick finds nothing, and prints what its trick found (to its log).
"""

GREEDY_BASE = '''
import os, sys, time
from solitaire.players import GreedyStrategy
_greedy = GreedyStrategy()
'''

# --- it reads the secret seeds from the results file, found through the working directory and /proc ----------
SEED_THIEF = GREEDY_BASE + '''
import glob, sqlite3
from solitaire.solver import solve
from solitaire.state import deal, observe

def results_files():
    paths = set(glob.glob("*.sqlite")) | set(glob.glob("**/*.sqlite", recursive=True))
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):  # the files other processes hold open
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.endswith(".sqlite"):
                    paths.add(target)
        except OSError:
            pass
        try:
            words = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\\0")
            paths |= {w.decode() for w in words if w.endswith(b".sqlite")}
        except OSError:
            pass
    return paths

def stolen_seeds():
    seeds = set()
    for path in results_files():
        try:
            with open(path, "rb") as f:
                if f.read(16) != b"SQLite format 3\\x00":
                    continue
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            seeds |= {int(s) for (s,) in db.execute("SELECT seed FROM deals")}
        except Exception:
            continue
    return seeds

class Thief:
    name = "thief"

    def __init__(self):
        self.plan = []

    def choose(self, obs, moves):
        if self.plan and self.plan[0] in moves:
            return self.plan.pop(0)
        if obs.stock_size == len(deal(obs.variant, 0).stock) and not obs.waste:
            seeds = stolen_seeds()
            print(f"seeds found: {len(seeds)}", flush=True)
            for seed in seeds:
                p = deal(obs.variant, seed)
                if observe(p) == obs:
                    result = solve(p, max_nodes=50_000)
                    if result.status == "won" and result.moves[0] in moves:
                        self.plan = list(result.moves[1:])
                        return result.moves[0]
        return _greedy.choose(obs, moves)

strategy = Thief()
'''

# --- it reads another entrant's file, the teacher's files and the environment, and prints them --------------
SNOOP = GREEDY_BASE + '''
import glob
_done = []

def choose(obs, moves):
    if not _done:
        _done.append(1)
        for path in sorted(glob.glob({folder!r} + "/*.py")) + [{secret!r}]:
            try:
                print(path, open(path).read(), flush=True)
            except OSError as e:
                print("cannot read", path, type(e).__name__, flush=True)
        print("environment:", dict(os.environ), flush=True)
        try:
            print("home:", os.listdir(os.path.expanduser("~root")), flush=True)
        except OSError as e:
            print("cannot list the home", type(e).__name__, flush=True)
    return _greedy.choose(obs, moves)
'''

# --- it kills its rivals: every other process started by its own parent, the referee ------------------------
KILLER = GREEDY_BASE + '''
import signal

def choose(obs, moves):
    me, parent = os.getpid(), os.getppid()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            if int(pid) != me and int(fields[1]) == parent:
                os.kill(int(pid), signal.SIGKILL)
                print("killed", pid, flush=True)
        except (OSError, ValueError):
            pass
    return _greedy.choose(obs, moves)
'''

# --- it stops, then kills, the referee (its parent) ----------------------------------------------------------
STOPPER = GREEDY_BASE + '''
import signal
_moves = []

def choose(obs, moves):
    _moves.append(1)
    for sig in (signal.SIGSTOP,) if len(_moves) < 5 else (signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(os.getppid(), sig)
        except OSError as e:
            print("cannot signal", os.getppid(), type(e).__name__, flush=True)
    return _greedy.choose(obs, moves)
'''

# --- it thinks in a child process: the child spins, the entrant itself only waits ---------------------------
CHILD_THINKER = GREEDY_BASE + '''
_thought = set()

def choose(obs, moves):
    if obs.stock_size < 20 and obs.recycles not in _thought:
        _thought.add(obs.recycles)
        pid = os.fork()
        if pid == 0:
            end = time.process_time() + {seconds}
            while time.process_time() < end:
                pass
            os._exit(0)
        os.waitpid(pid, 0)
    return _greedy.choose(obs, moves)
'''

# --- a fork bomb (kept gentle: its processes sleep instead of spinning, and stop at 300) --------------------
FORK_BOMB = GREEDY_BASE + '''
_bombed = []

def choose(obs, moves):
    if not _bombed:
        _bombed.append(1)
        made = 0
        try:
            for _ in range(300):
                if os.fork() == 0:
                    time.sleep(30)
                    os._exit(0)
                made += 1
        finally:
            print("processes started:", made, flush=True)
    return _greedy.choose(obs, moves)
'''

# --- it sleeps on every move instead of spinning: no CPU used, much time taken ------------------------------
SLEEPER = GREEDY_BASE + '''
def choose(obs, moves):
    time.sleep({seconds})
    return _greedy.choose(obs, moves)
'''

# --- it thinks in threads that release the GIL (hashing in C), so they run on every core at once ----------
THREADS = GREEDY_BASE + '''
import hashlib, threading
_thought = set()

def think(end):
    while time.process_time() < end:  # the CPU of all its threads together
        hashlib.pbkdf2_hmac("sha256", b"x", b"y", 20_000)

def choose(obs, moves):
    if obs.stock_size < 20 and obs.recycles not in _thought:
        _thought.add(obs.recycles)
        end = time.process_time() + {seconds}
        threads = [threading.Thread(target=think, args=(end,)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return _greedy.choose(obs, moves)
'''

# --- memory in children: each child stays under the per-process limit, together they go far over -------------
CHILD_MEMORY = GREEDY_BASE + '''
_done = []

def choose(obs, moves):
    if not _done:
        _done.append(1)
        pids = []
        for _ in range({children}):
            pid = os.fork()
            if pid == 0:
                block = bytearray({mb} << 20)
                block[::4096] = b"x" * len(block[::4096])  # every page touched: really resident
                time.sleep(2)
                os._exit(0)
            pids.append(pid)
        codes = [os.waitpid(pid, 0)[1] for pid in pids]
        print("children's exit statuses:", codes, flush=True)
    return _greedy.choose(obs, moves)
'''

# --- it fills its pipe from the referee (reopened for writing through /proc) and stops reading --------------
PIPE_FILLER = GREEDY_BASE + '''
_moves = []

def choose(obs, moves):
    _moves.append(1)
    if len(_moves) == 3:
        w = os.open(f"/proc/self/fd/{sys.argv[1]}", os.O_WRONLY | os.O_NONBLOCK)  # its pipe from the referee
        try:
            while True:
                os.write(w, b"\\xff" * 4096)
        except BlockingIOError:
            pass
        os.write(int(sys.argv[2]), f"m {moves.index(_greedy.choose(obs, moves))}\\n".encode())  # answers itself
        time.sleep(600)  # and never reads again
    return _greedy.choose(obs, moves)
'''

# --- it closes its answer pipe, duplicates it into a child, and floods it without a newline ------------------
PIPE_FLOOD = GREEDY_BASE + '''
_moves = []

def choose(obs, moves):
    _moves.append(1)
    if len(_moves) == 3:
        fd_out = int(sys.argv[2])
        copy = os.dup(fd_out)
        os.close(fd_out)
        if os.fork() == 0:
            while True:
                os.write(copy, b"m" * 65536)  # never a newline
        os.write(1, b"y" * 10_000_000)
        time.sleep(30)
    return _greedy.choose(obs, moves)
'''

# --- it opens a network connection to a server on this machine ---------------------------------------------
NETWORK = GREEDY_BASE + '''
import socket
_done = []

def choose(obs, moves):
    if not _done:
        _done.append(1)
        try:
            with socket.create_connection(("127.0.0.1", {port}), timeout=2) as s:
                s.sendall(b"hello from the entrant")
                print("connected", flush=True)
        except OSError as e:
            print("cannot connect:", type(e).__name__, e, flush=True)
    return _greedy.choose(obs, moves)
'''

# --- it tampers with the results file and its folder: changes the seeds, drops the rivals' games -------------
TAMPER = SEED_THIEF.replace("strategy = Thief()", '''
_done = []

def choose(obs, moves):
    if not _done:
        _done.append(1)
        for path in results_files():
            try:
                with open(path, "rb") as f:
                    if f.read(16) != b"SQLite format 3\\x00":
                        continue
                db = sqlite3.connect(path)
                db.execute("UPDATE deals SET seed = '1'")
                db.execute("DELETE FROM games WHERE entrant != 'tamper'")
                db.commit()
                real = os.path.realpath(path)
                open(os.path.join(os.path.dirname(real), "tampered.txt"), "w").write("was here")
                print("tampered with", real, flush=True)
            except Exception as e:
                print("cannot tamper with", path, type(e).__name__, flush=True)
    return _greedy.choose(obs, moves)
''')
