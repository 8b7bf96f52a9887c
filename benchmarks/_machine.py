"""The machine a benchmark ran on, printed with every figure."""

from __future__ import annotations

import os
import platform


def describe_machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import numba
    import numpy

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{platform.node()} | {cpu} | {os.cpu_count()} cores | load {load:.2f} | "
            f"Python {platform.python_version()} | numpy {numpy.__version__} | "
            f"numba {numba.__version__}")
