"""The Pyodide runtime a site serves itself: the npm registry's ``pyodide`` package, and a lock file that points at
the site's own wheels.

The npm package holds the core (the WebAssembly interpreter, the standard library and ``pyodide-lock.json``) but
none of Pyodide's wheels. :func:`write_lock` therefore makes the site's lock say where each package is: the wheels
built for the site (micropip, IPython, the table's widgets) are served beside the runtime, and every other package
of Pyodide's distribution (numpy, pandas, matplotlib, ...) is fetched from Pyodide's own CDN by a browser that is
online, as any JupyterLite site does.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from ..cli_support import CommandError
from .lite_wheels import canonical, sha256_of, top_level_modules

CDN = "https://cdn.jsdelivr.net/pyodide/v{version}/full/"


def pyodide_version() -> str:
    """The Pyodide version that the installed jupyterlite-pyodide-kernel is made for.

    >>> pyodide_version().count(".")
    2
    """
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION
    return PYODIDE_VERSION


def cache_dir() -> Path:
    """Where a downloaded runtime is kept between builds: $SOLITAIRE_CACHE, else ~/.cache/solitaire.

    >>> cache_dir().name in ("solitaire", os.environ.get("SOLITAIRE_CACHE", "solitaire").rstrip("/").split("/")[-1])
    True
    """
    return Path(os.environ.get("SOLITAIRE_CACHE") or Path.home() / ".cache" / "solitaire")


def runtime_tarball(given: str | None = None, fetch: bool = True) -> Path:
    """The npm tarball of Pyodide's core: ``given`` (a .tgz or an unpacked folder), else the cached one, else one
    fetched with ``npm pack`` into the cache (the only step that needs the network, once per machine).

    >>> runtime_tarball("no/such.tgz")
    Traceback (most recent call last):
    ValueError: the Pyodide runtime 'no/such.tgz' does not exist: give the .tgz that `npm pack pyodide@...` wrote
    """
    version = pyodide_version()
    if given is not None:
        if not Path(given).exists():
            raise ValueError(f"the Pyodide runtime {given!r} does not exist: give the .tgz that `npm pack "
                             "pyodide@...` wrote")
        return Path(given)
    cached = cache_dir() / f"pyodide-{version}.tgz"
    if cached.is_file() or not fetch:
        return cached
    npm = shutil.which("npm")
    if npm is None:
        raise CommandError(f"the Pyodide runtime {version} is not in {cache_dir()} and npm is not installed: run "
                         f"`npm pack pyodide@{version}` on a machine with npm and give the file with --pyodide")
    cached.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cached.parent) as tmp:
        done = subprocess.run([npm, "pack", f"pyodide@{version}", "--pack-destination", tmp],
                              capture_output=True, text=True)
        packed = Path(tmp) / f"pyodide-{version}.tgz"
        if done.returncode or not packed.is_file():
            last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise CommandError(f"npm pack pyodide@{version} failed ({last[0]}): give the runtime with --pyodide FILE")
        packed.replace(cached)
    return cached


def unpack_runtime(source: Path, dest: Path) -> Path:
    """Put the runtime's files (from the npm .tgz, or a folder holding pyodide.mjs) into ``dest``; ``dest``.

    >>> unpack_runtime(Path(__file__), Path(tempfile.mkdtemp()))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: ... is neither the npm package of Pyodide (.tgz) nor a folder holding pyodide.mjs
    """
    dest.mkdir(parents=True, exist_ok=True)
    if source.is_dir() and (source / "pyodide.mjs").is_file():
        shutil.copytree(source, dest, dirs_exist_ok=True)
    elif source.is_file() and tarfile.is_tarfile(source):
        with tarfile.open(source) as tar:
            for member in tar.getmembers():
                if member.isfile() and member.name.startswith("package/") and "/" not in member.name[8:]:
                    (dest / member.name[8:]).write_bytes(tar.extractfile(member).read())
    else:
        raise ValueError(f"{source} is neither the npm package of Pyodide (.tgz) nor a folder holding pyodide.mjs")
    if not (dest / "pyodide-lock.json").is_file():
        raise ValueError(f"{source} holds no pyodide-lock.json: give the npm package pyodide@{pyodide_version()}")
    return dest


def lock_entry(wheel: Path, name: str, depends: list[str]) -> dict:
    """The pyodide-lock.json entry of one of the site's own wheels (served beside the runtime).

    >>> from importlib.metadata import distribution
    >>> from .lite_wheels import repack
    >>> entry = lock_entry(repack(distribution("parso"), Path(tempfile.mkdtemp())), "parso", [])
    >>> entry["imports"], entry["file_name"].startswith("parso-"), len(entry["sha256"])
    (['parso'], True, 64)
    """
    version = wheel.name.split("-")[1]
    return {"name": name, "version": version, "file_name": wheel.name, "install_dir": "site",
            "sha256": sha256_of(wheel), "package_type": "package", "imports": top_level_modules(wheel),
            "depends": sorted(depends), "unvendored_tests": False}


def write_lock(runtime: Path, wheels: dict[str, tuple[Path, list[str]]]) -> dict[str, list[str]]:
    """Copy the site's wheels (canonical name: (wheel, its requirements)) into the ``runtime`` folder, enter them
    in its pyodide-lock.json, and point every other package at Pyodide's CDN. Returns what was served locally
    and what is left to the CDN (names), for the build's summary.

    >>> runtime = Path(tempfile.mkdtemp())
    >>> numpy = {"name": "numpy", "file_name": "numpy-2-cp314-wasm32.whl", "depends": []}
    >>> _ = (runtime / "pyodide-lock.json").write_text(json.dumps({"packages": {"numpy": numpy}}))
    >>> from importlib.metadata import distribution
    >>> from .lite_wheels import repack
    >>> write_lock(runtime, {"parso": (repack(distribution("parso"), Path(tempfile.mkdtemp())), [])})
    {'local': ['parso'], 'cdn': ['numpy']}
    >>> json.loads((runtime / "pyodide-lock.json").read_text())["packages"]["numpy"]["file_name"][:8]
    'https://'
    """
    path = runtime / "pyodide-lock.json"
    lock = json.loads(path.read_text(encoding="utf-8"))
    cdn = CDN.format(version=pyodide_version())
    for name, (wheel, depends) in wheels.items():
        shutil.copy2(wheel, runtime / wheel.name)
        lock["packages"][canonical(name)] = lock_entry(runtime / wheel.name, canonical(name), depends)
    remote = []
    for name, entry in lock["packages"].items():
        if not (runtime / entry["file_name"]).is_file() and "://" not in entry["file_name"]:
            entry["file_name"] = cdn + entry["file_name"]
            remote.append(name)
    path.write_text(json.dumps(lock, indent=1), encoding="utf-8")
    return {"local": sorted(canonical(n) for n in wheels), "cdn": sorted(remote)}


def micropip_wheel(runtime: Path, fetch: bool = True) -> Path:
    """Pyodide's package installer (pure Python, but for Python >= 3.13 only, so it is not installed here): the
    version the runtime's lock names, from the cache, else downloaded once from PyPI with pip into the cache.

    >>> runtime = Path(tempfile.mkdtemp())
    >>> entry = {"file_name": "micropip-0.11.1-py3-none-any.whl", "version": "0.11.1"}
    >>> _ = (runtime / "pyodide-lock.json").write_text(json.dumps({"packages": {"micropip": entry}}))
    >>> micropip_wheel(runtime, fetch=False).name
    'micropip-0.11.1-py3-none-any.whl'
    """
    entry = json.loads((runtime / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"]["micropip"]
    cached = cache_dir() / entry["file_name"].rsplit("/", 1)[-1]
    if cached.is_file() or not fetch:
        return cached
    cached.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cached.parent) as tmp:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                               "--python-version", "3.13", "--dest", tmp, f"micropip=={entry['version']}"],
                              capture_output=True, text=True)
        got = Path(tmp) / cached.name
        if done.returncode or not got.is_file():
            last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise CommandError(f"cannot download micropip {entry['version']} ({last[0]}): put {cached.name} from "
                             f"PyPI into {cache_dir()} and build again")
        got.replace(cached)
    return cached


def prefetch(fetch: bool = True) -> tuple[Path, Path]:
    """Download what a build needs beyond the installed packages, once, into the cache: the Pyodide core (npm) and
    micropip (PyPI); their paths. Raises CommandError, saying what to do, where they cannot be had (or are not cached
    and ``fetch`` is False).

    >>> os.environ["SOLITAIRE_CACHE"], before = tempfile.mkdtemp(), os.environ.get("SOLITAIRE_CACHE")
    >>> prefetch(fetch=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    solitaire.cli_support.CommandError: the Pyodide runtime is not in the cache (...): build once online, or give --pyodide FILE
    >>> _ = os.environ.pop("SOLITAIRE_CACHE") if before is None else os.environ.update(SOLITAIRE_CACHE=before)
    """
    tarball = runtime_tarball(fetch=fetch)
    if not tarball.is_file():
        raise CommandError(f"the Pyodide runtime is not in the cache ({tarball}): build once online, or give "
                         "--pyodide FILE")
    with tempfile.TemporaryDirectory() as tmp:
        wheel = micropip_wheel(unpack_runtime(tarball, Path(tmp)), fetch=fetch)
    if not wheel.is_file():
        raise CommandError(f"micropip is not in the cache ({wheel}): build once online")
    return tarball, wheel
