"""Build the Cython extension(s) of solver/ (every solver/*.pyx), installed as
dummy_spades.solver.<name>.

The extension is compiled for the baseline instruction set of the target, so
a wheel built on one machine runs on another of the same architecture.  Set
DUMMY_SPADES_NATIVE=1 to compile for the building machine's own CPU
(-march=native: BMI2 pext/pdep, POPCNT), for a build that only runs there.
"""
import atexit
import glob
import os
import shutil
import tempfile

from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError as exc:  # pragma: no cover - cython is a build requirement
    raise SystemExit("dummy-spades needs Cython to build: pip install cython") from exc

COMPILE_ARGS = ["-O3"]
if os.environ.get("DUMMY_SPADES_NATIVE", "0") == "1":
    COMPILE_ARGS.append("-march=native")

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
