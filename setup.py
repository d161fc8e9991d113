"""Build the Cython extension(s) of solver/ (every solver/*.pyx)."""
import glob
import os

from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError as exc:  # pragma: no cover - cython is a build requirement
    raise SystemExit("dummy-spades needs Cython to build: pip install cython") from exc

COMPILE_ARGS = ["-O3"]
if os.environ.get("DUMMY_SPADES_NATIVE", "1") == "1":
    # the extension is built on the machine that runs it (pip install .)
    COMPILE_ARGS.append("-march=native")

extensions = [
    Extension(
        "solver." + os.path.splitext(os.path.basename(path))[0],
        [path],
        extra_compile_args=COMPILE_ARGS,
    )
    for path in sorted(glob.glob(os.path.join("solver", "*.pyx")))
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    ),
)
