"""Build the Cython extension(s) of solver/ (every solver/*.pyx), installed as
dummy_spades.solver.<name>.

On x86-64 the extension is compiled for the x86-64-v2 level's POPCNT (every
x86-64 CPU since 2008-2009 has it; the engine counts bits at every node and
software counting costs ~25% of its instructions), so a wheel built on one
machine runs on any other of the last fifteen years; the import refuses a
CPU without it with a message.  Everything else (pext/pdep, the table's tag
scan) has a portable path chosen at compile time.  Environment:

* DUMMY_SPADES_NATIVE=1: compile for the building machine's own CPU
  (-march=native: BMI2 pext/pdep, AVX-512 tag scan), for a build that only
  runs there;
* DUMMY_SPADES_ARCH=<gcc -march value>: compile for that level instead
  (e.g. x86-64 for the oldest CPUs, x86-64-v3).
"""
import atexit
import glob
import os
import platform
import shutil
import tempfile

from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError as exc:  # pragma: no cover - cython is a build requirement
    raise SystemExit("dummy-spades needs Cython to build: pip install cython") from exc


def compile_args() -> list:
    args = ["-O3"]
    arch = os.environ.get("DUMMY_SPADES_ARCH", "")
    if os.environ.get("DUMMY_SPADES_NATIVE", "0") == "1":
        arch = "native"
    if arch:
        args.append("-march=" + arch)
    elif platform.machine().lower() in ("x86_64", "amd64"):
        args.append("-mpopcnt")
    return args


COMPILE_ARGS = compile_args()

extensions = [
    Extension(
        "dummy_spades.solver." + os.path.splitext(os.path.basename(path))[0],
        [path],
        extra_compile_args=COMPILE_ARGS,
    )
    for path in sorted(glob.glob(os.path.join("solver", "*.pyx")))
]


def _include_root() -> str:
    """A directory in which dummy_spades/solver is the solver/ folder, so that
    Cython finds solver/*.pxd under the extensions' full module names."""
    root = tempfile.mkdtemp(prefix="dummy-spades-pxd-")
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    os.mkdir(os.path.join(root, "dummy_spades"))
    os.symlink(os.path.abspath("solver"), os.path.join(root, "dummy_spades", "solver"))
    return root


setup(
    ext_modules=cythonize(
        extensions,
        include_path=[_include_root()],
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    ),
)
