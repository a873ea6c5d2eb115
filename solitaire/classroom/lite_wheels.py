"""Wheels for the browser, made offline: the installed pure-Python packages repacked, and the kit's own wheel.

A JupyterLite site installs Python packages from wheels it serves itself. The packages the table needs
(anywidget, ipywidgets and what they require) and the kernel's own (IPython, jedi, ...) were installed from PyPI
with the ``lite`` extra, so their files are already here: :func:`repack` writes one back into a
``py3-none-any`` wheel, which works with no network. A mypyc-compiled package (psygnal) keeps its ``.py`` sources
beside the compiled modules, and wcwidth's C speed-up is optional: only those are left out, and a package with any
other compiled file is refused, since the browser cannot load it.
"""
from __future__ import annotations

import base64
import hashlib
import importlib.metadata as metadata
import re
import zipfile
from pathlib import Path

from ..cli_support import CommandError

# What the browser's Python is: the markers of a requirement are read for it, not for this machine.
BROWSER = {"sys_platform": "emscripten", "platform_system": "Emscripten", "platform_machine": "wasm32",
           "os_name": "posix", "implementation_name": "cpython", "platform_python_implementation": "CPython",
           "extra": ""}
# Provided by jupyterlite-pyodide-kernel's own small wheels (stand-ins made for the browser): never repacked.
KERNEL_PROVIDES = {"ipykernel", "widgetsnbextension", "pyodide-kernel", "piplite"}
# Compiled speed-ups that a package imports only if it can, falling back to its own pure Python (read in its source).
OPTIONAL_COMPILED = {"wcwidth/_wcwidth_c"}
_SKIPPED_DIST_INFO = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json", "WHEEL"}


def canonical(name: str) -> str:
    """A project name as package indexes compare them (PEP 503).

    >>> canonical("Typing_Extensions"), canonical("jupyterlab.widgets")
    ('typing-extensions', 'jupyterlab-widgets')
    """
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements_in_browser(dist: metadata.Distribution, python: str) -> list[str]:
    """The canonical names that ``dist`` requires under Pyodide's Python ``python`` (such as "3.14.2").

    >>> "pexpect" in requirements_in_browser(metadata.distribution("ipython"), "3.14.2")  # not on emscripten
    False
    >>> "jedi" in requirements_in_browser(metadata.distribution("ipython"), "3.14.2")
    True
    """
    from packaging.requirements import Requirement

    env = dict(BROWSER, python_version=".".join(python.split(".")[:2]), python_full_version=python)
    names = []
    for text in dist.requires or []:
        req = Requirement(text)
        if req.marker is None or req.marker.evaluate(env):
            names.append(canonical(req.name))
    return names


def closure(roots: list[str], python: str) -> dict[str, metadata.Distribution]:
    """Every installed distribution that ``roots`` need in the browser, by canonical name (the kernel's stand-ins
    left out). A requirement that is not installed here is a clear error: install the ``lite`` extra.

    >>> sorted(closure(["jedi"], "3.14.2"))
    ['jedi', 'parso']
    """
    found: dict[str, metadata.Distribution] = {}
    todo = [canonical(r) for r in roots]
    while todo:
        name = todo.pop()
        if name in found or name in KERNEL_PROVIDES:
            continue
        try:
            found[name] = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise CommandError(f"{name} is needed in the browser but is not installed here: pip install "
                             f"'solitaire-kit[lite]' (or pip install {name}) and build again") from None
        todo += requirements_in_browser(found[name], python)
    return found


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _files_to_pack(dist: metadata.Distribution) -> tuple[str, list[str]]:
    """The dist-info folder's name and the files of ``dist`` that go into its wheel (site-packages only)."""
    names = [str(f).replace("\\", "/") for f in dist.files or []]
    info = next((n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info")), None)
    if info is None:
        raise CommandError(f"{dist.metadata['Name']} has no .dist-info folder listed in its RECORD: reinstall it "
                         "with pip and build again")
    kept, compiled = [], []
    for n in names:
        if n.startswith("../") or "__pycache__/" in n or n.endswith((".pyc", ".pyo")):
            continue  # scripts and data files live outside site-packages; byte code is remade in the browser
        if n.startswith(info + "/") and n.split("/", 1)[1] in _SKIPPED_DIST_INFO:
            continue
        if n.endswith((".so", ".pyd", ".dylib")):
            stem = n.split(".cpython")[0].split(".abi3")[0]
            if "__mypyc" not in n and stem + ".py" not in names and stem not in OPTIONAL_COMPILED:
                compiled.append(n)
            continue
        kept.append(n)
    if compiled:
        raise CommandError(f"{dist.metadata['Name']} is compiled ({compiled[0]}), so the browser cannot load it: "
                         "install its pure-Python wheel (pip install --force-reinstall --no-binary :all: ...) or "
                         "leave it out")
    return info, kept


def repack(dist: metadata.Distribution, out_dir: Path) -> Path:
    """Write the installed ``dist`` back into ``out_dir`` as a pure-Python wheel; its path.

    >>> import tempfile, zipfile
    >>> whl = repack(metadata.distribution("parso"), Path(tempfile.mkdtemp()))
    >>> whl.name.endswith("-py3-none-any.whl"), "parso/__init__.py" in zipfile.ZipFile(whl).namelist()
    (True, True)
    """
    info, files = _files_to_pack(dist)
    wheel = out_dir / f"{info[:-len('.dist-info')]}-py3-none-any.whl"
    out_dir.mkdir(parents=True, exist_ok=True)
    record = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(files):
            data = Path(dist.locate_file(name)).read_bytes()
            z.writestr(name, data)
            record.append(f"{name},{_record_hash(data)},{len(data)}")
        wheel_meta = ("Wheel-Version: 1.0\nGenerator: solitaire-kit lite\nRoot-Is-Purelib: true\n"
                      "Tag: py3-none-any\n").encode()
        z.writestr(f"{info}/WHEEL", wheel_meta)
        record += [f"{info}/WHEEL,{_record_hash(wheel_meta)},{len(wheel_meta)}", f"{info}/RECORD,,"]
        z.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return wheel


def top_level_modules(wheel: Path) -> list[str]:
    """The importable top-level names a wheel holds (for Pyodide's lock file).

    >>> import tempfile
    >>> top_level_modules(repack(metadata.distribution("parso"), Path(tempfile.mkdtemp())))
    ['parso']
    """
    names = set()
    for n in zipfile.ZipFile(wheel).namelist():
        head = n.split("/")[0]
        if head.endswith((".dist-info", ".data")) or "__mypyc" in head:
            continue
        if "/" in n or head.endswith(".py"):
            names.add(head.removesuffix(".py"))
    return sorted(n for n in names if n.isidentifier())


def sha256_of(path: Path) -> str:
    """The hex SHA-256 of a file, as Pyodide's lock file gives it.

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "x"; _ = p.write_bytes(b"")
    >>> sha256_of(p)[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(path.read_bytes()).hexdigest()
