"""The lessons in the browser: ``python -m solitaire lite DIR`` builds a JupyterLite site (Python through Pyodide).

The site is static files: any web server or GitHub Pages serves it, and a student only opens its address. It
holds the student copies of the lessons, the kit's own wheel (each lesson's first cell installs it from the site
with ``%pip``, never from an outside index; a lesson that uses numpy, pandas or matplotlib also installs those, from
Pyodide's CDN), what the card table needs (anywidget, ipywidgets and their lab
extensions) and the Pyodide runtime itself. It is built with the PyPI tools jupyterlite-core and
jupyterlite-pyodide-kernel (``pip install 'solitaire-kit[lite]'``).

Offline: the table's packages are repacked from this machine's installed copies (``lite_wheels``); the Pyodide core
(the npm package ``pyodide``) and micropip are downloaded once into a cache (``lite_runtime``) and reused, so a
build after the first needs no network (``--offline`` checks this). Pyodide's compiled packages (numpy, pandas,
matplotlib) are not in that core: the site's lock points at Pyodide's CDN for them, and the lessons that use them
install them there in their first cell, so those lessons need a browser that is online.
"""
from __future__ import annotations

import importlib.metadata as metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..cards import quote
from ..cli_support import CommandError
from .lite_runtime import micropip_wheel, runtime_tarball, unpack_runtime, write_lock
from .lite_wheels import canonical, closure, repack, requirements_in_browser
from .lite_pages import for_the_browser, install_check
from .staging import StagedFolder, check_folder_name
from .student_copy import lessons_folder, write_student_copies
from .working_copy import KERNELSPEC, for_students

# What the browser kernel needs (the pyodide kernel installs these at start) and what the card table needs.
KERNEL = ["ipython", "jedi", "comm"]
TABLE = ["anywidget", "ipywidgets", "tqdm"]
LAB_EXTENSIONS = ["@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager", "anywidget"]
KIT = "solitaire-kit"
INSTALL_CELL = "# In the browser (JupyterLite): install the kit and the card table from this site\n%pip install -q {}"
CDN_CELL = ("# In the browser (JupyterLite): install the kit from this site, and numpy, pandas and matplotlib from\n"
            "# Pyodide's CDN (this lesson needs the internet)\n%pip install -q {}")
CDN_PACKAGES = ["numpy", "pandas", "matplotlib"]
# What a lesson's code uses that Pyodide's own compiled builds provide (the kit's experiments need pandas and tqdm,
# its plots matplotlib): those lessons install them too, from Pyodide's CDN.
NEEDS_CDN = re.compile(r"^\s*(%matplotlib|(from|import) (numpy|pandas|matplotlib|solitaire\.(experiments|plots))\b"
                       r"|from solitaire import .*\b(experiments|plots)\b"
                       r"|from solitaire\.lessons\.\w+ import .*\bplot_\w+)", re.M)  # a lesson's plot_..., matplotlib
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
SITE_MANIFEST = ".solitaire-site.json"  # the files a build made (a rebuild replaces only those)


def needs_cdn(nb: dict) -> bool:
    """Does a lesson's code use numpy, pandas or matplotlib (the kit's experiments and plots included)?

    >>> needs_cdn({"cells": [{"cell_type": "code", "source": "from solitaire import plots"}]})
    True
    >>> needs_cdn({"cells": [{"cell_type": "code", "source": "from solitaire.lessons.lesson07b import plot_saving"}]})
    True
    """
    return bool(NEEDS_CDN.search("\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")))


def install_cell(nb: dict, site_only: list[str] | None = None) -> dict:
    """The code cell put first in a lesson of the site: it installs the kit from the site's own wheels, and for a
    lesson that uses numpy, pandas or matplotlib those too (from Pyodide's CDN: such a lesson needs the internet,
    and says in one line when the CDN cannot be reached; ``site_only`` names the lessons that need nothing else).

    >>> install_cell({"cells": []})["source"].splitlines()[-1]
    '%pip install -q solitaire-kit anywidget'
    >>> cell = install_cell({"cells": [{"cell_type": "code", "source": "import pandas as pd"}]})["source"]
    >>> cell.splitlines()[2].split()[-4:], "cannot reach" in cell
    (['tqdm', 'numpy', 'pandas', 'matplotlib'], True)
    """
    packages = [KIT, "anywidget"]
    cell = INSTALL_CELL.format(" ".join(packages))
    if needs_cdn(nb):
        cell = (CDN_CELL.format(" ".join(packages + ["tqdm", *CDN_PACKAGES])) + "\n"
                + install_check(CDN_PACKAGES, site_only or []))
    return {"cell_type": "code", "execution_count": None, "id": "lite-install",
            "metadata": {"tags": ["lite-install"]}, "outputs": [], "source": cell.rstrip("\n")}


def write_lessons(lessons: Path, files: Path) -> list[Path]:
    """The student copies of ``lessons`` in ``files`` as the browser shows them (``lite_pages``), each with the
    install cell first; the notebooks written.

    >>> out = write_lessons(lessons_folder(), Path(tempfile.mkdtemp()))
    >>> first = json.loads((out[0].parent / "01_cards.ipynb").read_text(encoding="utf-8"))["cells"]
    >>> [c["cell_type"] for c in first[:1]], "%pip install" in first[0]["source"]
    (['code'], True)
    """
    written = write_student_copies(lessons, files)
    notebooks = {path: json.loads(path.read_text(encoding="utf-8")) for path in written}
    site_only = [path.stem.split("_")[0] for path, nb in notebooks.items()
                 if not needs_cdn(nb) and path.parent == files]  # the lessons, not the Going deeper notebooks
    carried = {path.relative_to(files).as_posix() for path in written}
    for path, nb in notebooks.items():
        here = path.parent.relative_to(files).as_posix()  # "." or "deeper": links are relative to the notebook
        seen = {name if here == "." else os.path.relpath(name, here) for name in carried}
        nb = for_the_browser(for_students(nb, KERNELSPEC), seen)
        nb["cells"].insert(0, install_cell(nb, site_only))
        nb.setdefault("metadata", {})["kernelspec"] = {"name": "python", "display_name": "Python (Pyodide)",
                                                       "language": "python"}
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return written


def kit_wheel(out_dir: Path) -> Path:
    """The kit's own wheel, built offline with pip from its source (a clone), else repacked from the installed
    kit; the wheel's path.

    >>> kit_wheel(Path(tempfile.mkdtemp())).name.startswith("solitaire_kit-")
    True
    """
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").is_file():
        try:
            return repack(metadata.distribution(KIT), out_dir)
        except metadata.PackageNotFoundError:
            raise CommandError(f"the kit is neither a clone ({root} has no pyproject.toml) nor installed: pip install "
                             "'solitaire-kit[lite]'") from None
    with tempfile.TemporaryDirectory() as tmp:  # a copy, so that the build writes nothing into the clone
        src = Path(tmp) / "src"
        src.mkdir()
        for name in ("pyproject.toml", "README.md", "LICENSE"):
            if (root / name).is_file():
                shutil.copy2(root / name, src / name)
        shutil.copytree(root / "solitaire", src / "solitaire",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "notebooks"))
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                               "--no-index", "-q", "-w", str(out_dir), str(src)], capture_output=True, text=True)
    wheels = sorted(out_dir.glob("solitaire_kit-*.whl"))
    if done.returncode or not wheels:
        raise CommandError(f"cannot build the kit's wheel ({cause_of(done.stderr + done.stdout)}): pip install -e "
                           "\".[lite]\" in the kit's folder (it brings setuptools and wheel), and try again")
    return wheels[-1]


def lab_extension_dirs() -> list[str]:
    """The folders of the lab extensions the site needs, from this environment (installed by the lite extra).

    >>> [Path(p).name for p in lab_extension_dirs()]
    ['pyodide-kernel-extension', 'jupyterlab-manager', 'anywidget']
    """
    from jupyter_core.paths import jupyter_path

    found = []
    for name in LAB_EXTENSIONS:
        hits = [Path(p) / name for p in jupyter_path("labextensions") if (Path(p) / name / "package.json").is_file()]
        if not hits:
            raise CommandError(f"the lab extension {name} is not installed: pip install 'solitaire-kit[lite]'")
        found.append(str(hits[0]))
    return found


def _runtime_wheels(runtime: Path, work: Path, pypi: Path, offline: bool) -> dict[str, tuple[Path, list[str]]]:
    """The wheels of the kernel's and the table's packages, repacked: those Pyodide's lock names (and micropip) are
    returned, to be served beside the runtime; the others go into ``pypi`` (the site's piplite index)."""
    lock = json.loads((runtime / "pyodide-lock.json").read_text(encoding="utf-8"))
    python = lock["info"]["python"]
    mp = micropip_wheel(runtime, fetch=not offline)
    if not mp.is_file():
        raise CommandError(f"micropip is not cached ({mp}) and --offline forbids downloading it: build once online")
    needed = closure(KERNEL + TABLE, python)
    requires = {name: [r for r in requirements_in_browser(dist, python) if r in needed] for name, dist in needed.items()}
    locked = [name for name in needed if name in lock["packages"]]
    for name in locked:  # what a locked package requires is loaded from the lock too, so it is entered there
        locked += [r for r in requires[name] if r not in locked]
    in_lock = {"micropip": (mp, [])}
    for name, dist in needed.items():
        if name in locked:
            in_lock[name] = (repack(dist, work), requires[name])
        else:
            repack(dist, pypi)
    return in_lock


def _lite_config(lite: Path, out: Path) -> None:
    """jupyter_lite_config.json (what goes in) and jupyter-lite.json (how the site behaves) in ``lite``."""
    config = {"LiteBuildConfig": {"output_dir": str(out), "contents": ["files"], "no_sourcemaps": True,
                                  "federated_extensions": lab_extension_dirs(),
                                  "ignore_sys_prefix": ["federated_extensions"]}}
    (lite / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
    settings = {KERNEL_PLUGIN: {"disablePyPIFallback": True}}  # packages come from the site, never from PyPI
    site = {"jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"appName": "Solitaire lessons", "litePluginSettings": settings}}
    (lite / "jupyter-lite.json").write_text(json.dumps(site, indent=1), encoding="utf-8")
    overrides = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
                 "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}  # every table drawn at once
    (lite / "overrides.json").write_text(json.dumps(overrides, indent=1), encoding="utf-8")


def build_site(out: Path, lessons: Path | None = None, pyodide: str | None = None, offline: bool = False,
               state: dict | None = None) -> dict:
    """Build the JupyterLite site into ``out`` (new, or a site this command built before); a summary: the lessons,
    the wheels served, what is left to Pyodide's CDN, the size and the seconds taken.

    The site is built aside and moved into place when whole (``staging``), so an interrupted build leaves ``out``
    as it was. A rebuild replaces only the files a build makes: anything else in the folder (the ``.git`` of the
    repository that publishes it, files added by hand) stays. ``state["committed"]`` is set once the site is in
    place.

    >>> build_site(Path(__file__))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: '.../lite.py' is a file: give a new or empty folder for the site
    """
    start = time.perf_counter()
    out = Path(out).absolute()
    _check_output(out)
    try:
        import jupyterlite_core  # noqa: F401
        import jupyterlite_pyodide_kernel  # noqa: F401
    except ImportError:
        raise CommandError("the site is built with jupyterlite-core and jupyterlite-pyodide-kernel, which are not "
                           "installed: pip install -e \".[lite]\" in the kit's folder") from None
    with StagedFolder(out, SITE_MANIFEST, state) as staged, \
            tempfile.TemporaryDirectory(prefix="solitaire-lite-") as tmp:
        tarball = runtime_tarball(pyodide, fetch=not offline)
        if not tarball.exists():
            raise CommandError(f"the Pyodide runtime is not cached ({tarball}) and --offline forbids downloading it: "
                             "build once online, or give --pyodide FILE")
        lite = Path(tmp)
        written = write_lessons(lessons or lessons_folder(), lite / "files")
        runtime = unpack_runtime(tarball, lite / "static" / "pyodide")
        served = write_lock(runtime, _runtime_wheels(runtime, lite / "wheels", lite / "pypi", offline))
        kit_wheel(lite / "pypi")
        piplite = sorted(canonical(p.name.split("-")[0]) for p in (lite / "pypi").glob("*.whl"))
        _lite_config(lite, staged.files)
        done = subprocess.run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite)],
                              cwd=lite, capture_output=True, text=True)
        if done.returncode:
            raise CommandError(f"jupyter lite build failed ({cause_of(done.stdout + done.stderr)}): {out} is as it "
                               "was")
        made = staged.commit()
    size = sum((out / rel).stat().st_size for rel in made)
    return {"lessons": [p.name for p in written], "local": served["local"] + piplite, "cdn": served["cdn"],
            "bytes": size, "seconds": round(time.perf_counter() - start, 1)}


def cause_of(output: str) -> str:
    """The line of a tool's output that names what went wrong: the last that says error or not installed (pip's
    closing "hint: See above" says nothing), else the last line.

    >>> cause_of("Building...\\nerror: invalid command 'bdist_wheel'\\nhint: See above for details.")
    "error: invalid command 'bdist_wheel'"
    """
    lines = [line.strip() for line in output.strip().splitlines() if line.strip()]
    telling = [line for line in lines if re.search(r"error|not installed|no module named|failed", line, re.I)
               and not line.lower().startswith("hint:")]
    return ((telling or lines or ["no output"])[-1])[:300]


def _check_output(out: Path) -> None:
    """Refuse a file, and a folder that is not empty and holds no site this command built (nothing is lost)."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"{quote(str(out), 100)} is a file: give a new or empty folder for the site")
    if out.is_dir() and any(out.iterdir()) and not ((out / SITE_MANIFEST).is_file()
                                                    or (out / "jupyter-lite.json").is_file()):
        raise ValueError(f"{quote(str(out), 100)} holds files and no JupyterLite site: give a new or empty folder, or "
                         "the folder of a site this command built")


def add_parser(commands) -> None:
    """The ``lite`` subcommand of ``python -m solitaire``.

    >>> import argparse
    >>> commands = argparse.ArgumentParser().add_subparsers()
    >>> add_parser(commands)
    >>> args = commands.choices["lite"].parse_args(["site/", "--offline"])
    >>> args.dir, args.offline, args.handler is run
    ('site/', True, True)
    """
    li = commands.add_parser(
        "lite", help="build a JupyterLite site of the lessons: Python in the browser, nothing to install",
        description="Write a static JupyterLite site into DIR: the student copies of the lessons, the kit's wheel, "
                    "the card table's widgets and the Pyodide runtime. Serve DIR with any web server (GitHub Pages "
                    "works). The first build downloads the Pyodide core (npm) and micropip (PyPI) into a cache; "
                    "later builds are offline. See notebooks/TEACHERS.md, \"The lessons in the browser\".",
        epilog="example: python -m solitaire lite site/ && python -m http.server -d site 8000")
    li.add_argument("dir", metavar="DIR", help="a new or empty folder (or a site built before, which is replaced)")
    li.add_argument("--lessons", default=None, metavar="DIR", help="the lesson notebooks (default: the kit's)")
    li.add_argument("--pyodide", default=None, metavar="FILE.tgz",
                    help="the npm package of Pyodide (npm pack pyodide@VERSION); default: the cached one")
    li.add_argument("--offline", action="store_true", help="never download: fail if the runtime is not cached")
    li.set_defaults(handler=run)


def run(args) -> int:
    """Build the site and print what it holds (``args`` as :func:`add_parser` reads them); 0 when built.

    >>> import argparse
    >>> run(argparse.Namespace(dir=__file__, lessons=None, pyodide=None, offline=True))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: '.../lite.py' is a file: give a new or empty folder for the site
    """
    site = check_folder_name(args.dir, "the site's folder", "site/")
    state: dict = {}
    before = (f"{quote(args.dir, 100)} is as it was (the new site is built aside and moved into place only when "
              "whole)" if site.is_dir() else f"nothing was written ({quote(args.dir, 100)} is made only when the site "
                                              "is whole)")
    args.kept = lambda: (f"after the site was built: {quote(args.dir, 100)} holds the whole new site"
                         if state.get("committed") else f"while building the site: {before}")
    made = build_site(site, Path(args.lessons) if args.lessons else None, args.pyodide, args.offline, state)
    print(f"wrote {args.dir}: {len(made['lessons'])} lessons, {made['bytes'] / 2 ** 20:.1f} MiB, "
          f"{len(made['local'])} packages served from the site, {made['seconds']} s")
    print(f"from Pyodide's CDN when a lesson installs them (online only): {len(made['cdn'])} packages, such as "
          f"{', '.join(n for n in ('numpy', 'pandas', 'matplotlib') if n in made['cdn'])}")
    print(f"next: python -m http.server -d {args.dir} 8000, then open http://127.0.0.1:8000/lab/index.html")
    return 0
