"""One line saying what machine a benchmark ran on.

Embedding throughput depends on the CPU far more than on graphmem: the int8 model runs
~3x faster where the CPU has int8 dot-product instructions (VNNI) than on AVX2 alone,
so figures from two machines only compare alongside this line.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

_INT8_DOT = ("avx512_vnni", "avx_vnni", "amx_int8", "asimddp")


def describe() -> str:
    """CPU model, cores and the int8 dot-product instructions it has."""
    model, flags = platform.processor() or platform.machine(), set()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            key = key.strip()
            if key == "model name":
                model = value.strip()
            elif key in ("flags", "Features"):
                flags = set(value.split())
    except OSError:
        pass
    dot = [f for f in _INT8_DOT if f in flags] or ["none"]
    simd = "avx512f" if "avx512f" in flags else "avx2" if "avx2" in flags else "-"
    return f"{model}, {os.cpu_count()} cores, widest SIMD {simd}, int8 dot product {'/'.join(dot)}"


if __name__ == "__main__":
    print(describe())
