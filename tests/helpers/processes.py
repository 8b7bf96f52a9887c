"""Process trees from /proc, for the tests that kill a run and look for what it left behind."""

from __future__ import annotations

from pathlib import Path

HAS_PROC = Path("/proc/self/stat").exists()


def descendants(pid: int) -> dict[int, int]:
    """``{pid: start time}`` of every live descendant of ``pid`` (from /proc)."""
    parent_of: dict[int, int] = {}
    started: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := proc_stat(int(entry.name))) is not None:
            parent_of[int(entry.name)], started[int(entry.name)] = stat[1], stat[2]
    found: dict[int, int] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, ppid in parent_of.items():
            if ppid == parent and child not in found:
                found[child] = started[child]
                frontier.append(child)
    return found


def proc_stat(pid: int) -> tuple[str, int, int] | None:
    """``(state, ppid, start time)`` of a process, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # the name in (...) may hold spaces
    return fields[0], int(fields[1]), int(fields[19])


def still_running(procs: dict[int, int]) -> list[int]:
    """The processes of ``procs`` that still run (not gone, not a zombie, not a reused pid)."""
    left = []
    for pid, start in procs.items():
        stat = proc_stat(pid)
        if stat is not None and stat[0] != "Z" and stat[2] == start:
            left.append(pid)
    return left
