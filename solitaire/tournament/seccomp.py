"""The system calls an entrant is refused, as a seccomp filter (a classic BPF program) made here in plain Python.

Container runtimes refuse calls the same way (Docker's default profile refuses ``keyctl``, ``add_key`` and
``request_key``, ``userfaultfd``, ``bpf``, ``perf_event_open``, ``unshare``, ``mount``...); bubblewrap loads the
program from a pipe (``bwrap --seccomp FD``) just before it starts the entrant, so every line of the entrant's
code runs under it, and so do all the processes it starts (a filter is inherited and cannot be removed). The
program needs no compiled library (libseccomp is not needed): it is 8-byte instructions packed with ``struct``.

A refused call fails with ``EPERM`` ("Operation not permitted"), as a missing permission would. What is refused,
and why:

- **the kernel's keyrings** (``keyctl``, ``add_key``, ``request_key``): the user keyring is shared by every
  process of a user and outlives them, and a process inherits the session keyring (a teacher's tokens) of
  whoever started it;
- **what reads or drops the page cache's state** (``mincore``, ``cachestat``, ``posix_fadvise``, ``readahead``,
  ``preadv2``/``pwritev2`` with ``RWF_NOWAIT``) and **io_uring** (which can also read without waiting): two
  entrants read the same library files, so which of their pages are cached is a message one can leave another;
- **kernel objects that hold memory outside a process** (System V shared memory, semaphores and message
  queues, POSIX message queues, ``memfd_create``, POSIX timers, sockets of every kind): without a cgroup the
  referee counts a process's own memory, and these would hold gigabytes beside it; an entrant has no network
  and no use for a socket;
- **watching or locking files another entrant reads** (``inotify``, ``fanotify``, ``flock``, ``fcntl``'s locks,
  leases and ``F_NOTIFY``): events and lock states would pass between entrants playing at the same time;
- **new namespaces and mounts** (``unshare``, ``setns``, ``clone`` with a namespace flag, ``clone3``, the mount
  calls, ``pivot_root``, ``chroot``), ``userfaultfd``, ``bpf`` and ``perf_event_open``: a namespace of its own
  would give it a fresh ``/tmp`` with no size limit; the others are large attack surfaces a strategy never needs.

``clone3`` answers ``ENOSYS`` instead, so that the C library falls back on ``clone`` (whose flags the filter
can read) to start threads. A call made through another architecture's interface (32-bit calls from a 64-bit
process) is refused whatever it is. The filter knows the call numbers of x86-64, AArch64 and RISC-V 64; on any
other machine ``program()`` gives None and the sandbox says it has no filter.
"""
from __future__ import annotations

import errno
import platform
import struct

# seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian on every machine below)
NR, ARCH = 0, 4
ARG = [16 + 8 * i for i in range(6)]  # the low 32 bits of each argument
ALLOW, ERRNO = 0x7FFF0000, 0x00050000
LD_ABS, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ/JGE/JSET|K, BPF_RET|K

# generic numbers (asm-generic/unistd.h: AArch64, RISC-V 64) and x86-64's (asm/unistd_64.h)
_GENERIC = {
    "fcntl": 25, "inotify_init1": 26, "inotify_add_watch": 27, "inotify_rm_watch": 28, "flock": 32,
    "umount2": 39, "mount": 40, "pivot_root": 41, "chroot": 51, "unshare": 97, "timer_create": 107,
    "mq_open": 180, "mq_unlink": 181, "mq_timedsend": 182, "mq_timedreceive": 183, "mq_notify": 184,
    "mq_getsetattr": 185, "msgget": 186, "msgctl": 187, "msgrcv": 188, "msgsnd": 189, "semget": 190,
    "semctl": 191, "semtimedop": 192, "semop": 193, "shmget": 194, "shmctl": 195, "shmat": 196, "shmdt": 197,
    "socket": 198, "socketpair": 199, "readahead": 213, "add_key": 217, "request_key": 218, "keyctl": 219,
    "clone": 220, "fadvise64": 223, "mincore": 232, "perf_event_open": 241, "fanotify_init": 262,
    "fanotify_mark": 263, "setns": 268, "memfd_create": 279, "bpf": 280, "userfaultfd": 282, "preadv2": 286,
    "pwritev2": 287,
}
_X86_64 = {
    "mincore": 27, "shmget": 29, "shmat": 30, "shmctl": 31, "socket": 41, "socketpair": 53, "clone": 56,
    "semget": 64, "semop": 65, "semctl": 66, "shmdt": 67, "msgget": 68, "msgsnd": 69, "msgrcv": 70,
    "msgctl": 71, "fcntl": 72, "flock": 73, "pivot_root": 155, "chroot": 161, "mount": 165, "umount2": 166,
    "readahead": 187, "semtimedop": 220, "fadvise64": 221, "timer_create": 222, "mq_open": 240,
    "mq_unlink": 241, "mq_timedsend": 242, "mq_timedreceive": 243, "mq_notify": 244, "mq_getsetattr": 245,
    "add_key": 248, "request_key": 249, "keyctl": 250, "inotify_init": 253, "inotify_add_watch": 254,
    "inotify_rm_watch": 255, "unshare": 272, "inotify_init1": 294, "perf_event_open": 298, "fanotify_init": 300,
    "fanotify_mark": 301, "setns": 308, "memfd_create": 319, "bpf": 321, "userfaultfd": 323, "preadv2": 327,
    "pwritev2": 328,
}
_SHARED = {  # the same number everywhere since Linux 5.1
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428, "move_mount": 429,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "clone3": 435, "mount_setattr": 442,
    "memfd_secret": 447, "cachestat": 451,
}
MACHINES = {"x86_64": (0xC000003E, _X86_64 | _SHARED), "aarch64": (0xC00000B7, _GENERIC | _SHARED),
            "riscv64": (0xC00000F3, _GENERIC | _SHARED)}
ARGS_CHECKED = {"clone", "clone3", "fcntl", "preadv2", "pwritev2"}  # refused only for some arguments
REFUSED = sorted((set(_X86_64) | set(_GENERIC) | set(_SHARED)) - ARGS_CHECKED)  # every call refused whatever its arguments
RWF_NOWAIT = 0x08
NAMESPACES = 0x7E020000  # CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
FCNTL_REFUSED = (5, 6, 7, 36, 37, 38, 1024, 1026)  # F_GETLK, F_SETLK(W), F_OFD_*, F_SETLEASE, F_NOTIFY


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k)


def _refuse(number: int, answer: int = ERRNO | errno.EPERM) -> bytes:
    """If the call is ``number``, answer ``answer``; else go on (the call's number stays loaded)."""
    return _op(JEQ, number, 0, 1) + _op(RET, answer)


def _refuse_if(number: int, arg: int, test, values) -> bytes:
    """If the call is ``number`` and its argument ``arg`` has any bit of ``values`` (``JSET``) or equals one
    of them (``JEQ``), refuse it; the call's number is loaded again after."""
    values = [values] if isinstance(values, int) else list(values)
    checks = b"".join(_op(test, v, len(values) - i, 0) for i, v in enumerate(values))
    body = _op(LD_ABS, ARG[arg]) + checks + _op(JEQ, 0, 1, 1) + _op(RET, ERRNO | errno.EPERM) + _op(LD_ABS, NR)
    skip = len(body) // 8
    return _op(JEQ, number, 0, skip) + body


def program(machine: str | None = None) -> bytes | None:
    """The filter for ``machine`` (default: this one) as the bytes ``bwrap --seccomp`` reads, or None where
    the call numbers are not known here.

    >>> len(program("x86_64")) % 8, program("sparc") is None
    (0, True)
    """
    machine = machine or platform.machine()
    if machine not in MACHINES:
        return None
    arch, numbers = MACHINES[machine]
    out = [_op(LD_ABS, ARCH), _op(JEQ, arch, 1, 0), _op(RET, ERRNO | errno.EPERM), _op(LD_ABS, NR)]
    if machine == "x86_64":  # the x32 interface: the same calls under other numbers
        out += [_op(JGE, 0x40000000, 0, 1), _op(RET, ERRNO | errno.EPERM)]
    out += [_refuse(numbers[name]) for name in REFUSED if name in numbers]
    out.append(_refuse(numbers["clone3"], ERRNO | errno.ENOSYS))
    out.append(_refuse_if(numbers["clone"], 0, JSET, NAMESPACES))
    out.append(_refuse_if(numbers["fcntl"], 1, JEQ, FCNTL_REFUSED))
    out += [_refuse_if(numbers[name], 5, JSET, RWF_NOWAIT) for name in ("preadv2", "pwritev2")]
    out.append(_op(RET, ALLOW))
    return b"".join(out)
