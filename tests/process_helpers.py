"""Helpers for the tests that start processes: who is alive, whose child."""
from __future__ import annotations

from pathlib import Path
from typing import List


def _stat_fields(pid: str) -> List[str]:
    """The fields of /proc/PID/stat after the command name (state, ppid, ...)."""
    return (Path("/proc") / pid / "stat").read_text().rsplit(")", 1)[1].split()


def children_of(pid: int) -> List[int]:
    """Live (not zombie) child processes of ``pid`` (Linux /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = _stat_fields(entry.name)
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live (not zombie) process."""
    try:
        return _stat_fields(str(pid))[0] != "Z"
    except OSError:
        return False


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time ``pid`` has used so far (Linux /proc)."""
    import os

    fields = _stat_fields(str(pid))
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
