"""The build's one step beyond pyproject.toml: the lessons go into the wheel as package data, as students get them.

``notebooks/`` stays the lessons' one home, the teacher's copies with their solutions (nbval tests them there). A
wheel carries student copies only, in ``solitaire/classroom/notebooks/``: every solution cell blanked to its stub
and every kit's answer shown after a check taken out (``solitaire.classroom.student_copy``), and the teacher's guide
without its answers to the exercises (``student_guide``). So an installed kit writes a student's working copy
(``python -m solitaire lessons DIR``) but holds no solution; the teacher's route to the solutions is the repository
(an nbgrader course is made from its notebooks: ``python -m solitaire nbgrader COURSE_DIR --lessons notebooks``).
An editable install reads the clone's own notebooks instead (``solitaire.classroom.student_copy.lessons_folder``).
"""
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
GUIDE = "TEACHERS.md"  # the guide the lessons' index links to


class BuildWithLessons(build_py):
    """setuptools' build_py, then student copies of the lessons and the guide written into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        sys.path.insert(0, str(HERE))  # the student copies are made by the kit being built
        try:
            from solitaire.classroom.student_copy import student_guide, student_notebook_text
        finally:
            sys.path.remove(str(HERE))
        target = Path(self.build_lib) / "solitaire" / "classroom" / "notebooks"
        self.mkpath(str(target))
        lessons = HERE / "notebooks"
        for path in sorted(lessons.glob("*.ipynb")) + sorted((lessons / "deeper").glob("*.ipynb")):
            out = target / path.relative_to(lessons)  # the Going deeper notebooks in deeper/, as the lessons link
            self.mkpath(str(out.parent))
            out.write_text(student_notebook_text(path), encoding="utf-8")
        guide = HERE / "notebooks" / GUIDE
        if guide.is_file():
            (target / GUIDE).write_text(student_guide(guide.read_text(encoding="utf-8")), encoding="utf-8")


# --- the compiled modules ----------------------------------------------------------------------------------
# COMPILED lists the modules that Cython compiles from their own .py (its pure-Python mode: what makes them fast
# is declared in the .pxd file beside each one, so the .py stays the readable, runnable reference and the only
# implementation). Where no working C compiler is found, Cython is missing, or SOLITAIRE_PURE=1 is set for the
# build, nothing is compiled and the kit installs in pure Python, the same .py files, in the same time; the build
# says so in one line. The build records the hashes of each compiled module's sources (.py, .pxd) in
# solitaire/_compiled.json, so that a compiled file older than its sources is never run (solitaire.info() says
# which build runs).
COMPILED = [f"solitaire.{name}" for name in ("state", "moves", "game")] + [
    f"solitaire.solver.{name}" for name in ("tables", "columns", "encoding", "stock", "node", "pruning",
                                            "generation", "search", "restarts")]
MANIFEST = "_compiled.json"  # beside solitaire/__init__.py: each compiled module and the hashes of its sources


def source_hashes(module: str, root: Path = HERE) -> dict[str, str]:
    """The hashes of a module's ``.py`` and ``.pxd`` (``solitaire/__init__.py`` checks them at import)."""
    base = root.joinpath(*module.split("."))
    return {suffix: hashlib.sha256(base.with_suffix(suffix).read_bytes()).hexdigest()
            for suffix in (".py", ".pxd") if base.with_suffix(suffix).exists()}


def why_pure() -> str | None:
    """Why the kit cannot be compiled here (None: it can): SOLITAIRE_PURE=1, or no working C compiler (one that
    compiles a file including Python.h)."""
    if os.environ.get("SOLITAIRE_PURE", "").strip() not in ("", "0"):
        return "SOLITAIRE_PURE is set"
    from distutils.ccompiler import new_compiler
    from distutils.errors import CCompilerError, DistutilsError
    from distutils.sysconfig import customize_compiler, get_python_inc
    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.c"
        probe.write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
        try:
            compiler.compile([str(probe)], output_dir=tmp, include_dirs=[get_python_inc()])
        except (CCompilerError, DistutilsError, OSError) as e:
            return f"no working C compiler ({type(e).__name__}: {str(e).strip()[:120]})"
    return None


def has_cython() -> bool:
    try:
        import Cython  # noqa: F401
    except ImportError:
        return False
    return True


class BuildCompiled(build_ext):
    """build_ext that turns the listed ``.py`` modules into C with Cython first (only when building, in two
    processes), builds each as optional (a module that fails to build runs as pure Python), and records the
    sources' hashes."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = min(4, os.cpu_count() or 1)

    def run(self) -> None:
        if not self.extensions:
            return
        from Cython.Build import cythonize
        translated = cythonize(self.extensions, language_level=3, build_dir=str(HERE / "build" / "cython"),
                               compiler_directives={"annotation_typing": False, "binding": True, "autotestdict": False},
                               nthreads=self.parallel or 1, quiet=True)
        for ext, c_file in zip(self.extensions, translated):
            ext.sources = c_file.sources
            if not sys.platform.startswith("win"):
                ext.extra_compile_args = ["-g0"]  # no debug information: a third of the size, the same code
        super().run()
        built = {ext.name: source_hashes(ext.name) for ext in self.extensions
                 if Path(self.get_ext_fullpath(ext.name)).exists()}
        manifest = Path(self.get_ext_fullpath(COMPILED[0])).parent / MANIFEST
        manifest.write_text(json.dumps({"modules": built, "python": sys.version.split()[0]}, indent=1) + "\n")
        print(f"solitaire-kit: {len(built)} of {len(COMPILED)} modules compiled")


# Cython is asked for (setup_requires: pip installs it in the build's environment) only where a compiler works, so
# that an install without one takes no longer than before. Without Cython (a build without pip's build isolation)
# nothing is compiled either.
PURE = why_pure()
COMPILE = not PURE and has_cython()
if PURE or (not COMPILE and "egg_info" not in sys.argv):
    print(f"solitaire-kit: {PURE or 'Cython is not installed'}: the kit runs in pure Python")
setup(cmdclass={"build_py": BuildWithLessons, "build_ext": BuildCompiled},
      setup_requires=[] if PURE else ["Cython>=3.0"],
      ext_modules=[Extension(name, [name.replace(".", "/") + ".py"], optional=True) for name in COMPILED] if COMPILE
      else [])
