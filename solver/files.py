"""Opening input files within limits (docs/LIMITS.md).

Only regular files are read: a FIFO, a device such as ``/dev/zero`` or a
socket could block or never end, so it is refused after an ``open`` that
cannot block (``O_NONBLOCK``) and an ``fstat`` of what was opened. A file
read whole is read up to a size cap, checked before reading and again while
reading (a file that grows is cut off at the cap, not read to its end).

Standard input (a command's ``-``) is read the same way once: copied to a
temporary regular file up to a size cap (:func:`spooled`), which the command
then reads like any other file.

OS problems (no such file, a directory, no permission) stay ``OSError``;
the callers word them for their kind of file. The limits raise
:class:`InputFileError`.
"""
from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from typing import BinaryIO, Iterator, Union

PathLike = Union[str, "os.PathLike[str]"]


class InputFileError(ValueError):
    """A file refused by a limit: ``problem`` says which, ``expected`` what would do."""

    def __init__(self, problem: str, expected: str) -> None:
        self.problem = problem
        self.expected = expected
        super().__init__(f"{problem}; expected {expected}")


_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"  # pragma: no cover - doors, ports...


def open_regular(path: PathLike, expected: str) -> BinaryIO:
    """``path`` opened for reading in binary mode, if it is a regular file.

    ``expected`` (``"a deal file"``) completes the message for other kinds."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(21, "Is a directory", os.fspath(path))
        if not stat.S_ISREG(mode):
            raise InputFileError(f"is {_kind(mode)}, not a regular file", expected)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_capped(path: PathLike, cap: int, expected: str) -> bytes:
    """The bytes of the regular file ``path``, refused above ``cap`` bytes."""
    with open_regular(path, expected) as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > cap:
            raise InputFileError(f"is {size:,} bytes, more than the limit of {cap:,}", expected)
        data = fh.read(cap + 1)
    if len(data) > cap:
        raise InputFileError(f"is more than the limit of {cap:,} bytes", expected)
    return data


#: How standard input is named in messages.
STDIN_NAME = "<stdin>"


@contextlib.contextmanager
def spooled(stream: BinaryIO, cap: int, expected: str) -> Iterator[str]:
    """The path of a temporary regular file holding what ``stream`` (standard
    input) gives until its end, refused above ``cap`` bytes; the file is
    removed when the block ends, however it ends."""
    fd, path = tempfile.mkstemp(prefix="dummy-spades-stdin-")
    try:
        with os.fdopen(fd, "wb") as out:
            size = 0
            while True:
                chunk = stream.read(min(1 << 16, cap + 1 - size))
                if not chunk:
                    break
                size += len(chunk)
                if size > cap:
                    raise InputFileError(f"is more than the limit of {cap:,} bytes", expected)
                out.write(chunk)
        yield path
    finally:
        os.unlink(path)


def line_of(data: Union[bytes, str], offset: int) -> int:
    """The 1-based line number of ``offset`` in ``data``."""
    if isinstance(data, bytes):
        return data.count(b"\n", 0, max(0, offset)) + 1
    return data.count("\n", 0, max(0, offset)) + 1
