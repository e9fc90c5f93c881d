"""Arrival times of ``data.get`` calls, for the benchmark that compares a script's dispatches
with direct link calls: both are timed here, at the same point, whichever path they took.

``bench.stamps`` with ``{"record": true}`` starts recording (up to ``LIMIT`` arrivals); with
``{"record": false}`` it stops and returns the arrivals in microseconds.
"""

from __future__ import annotations

import time
from typing import List, Optional

LIMIT = 100_000
_arrivals: Optional[List[float]] = None


def note_arrival() -> None:
    """Called as a ``data.get`` starts; does nothing unless recording."""
    arrivals = _arrivals
    if arrivals is not None and len(arrivals) < LIMIT:
        arrivals.append(time.perf_counter())


def bench_stamps(params, call, policy):
    global _arrivals
    if params.get("record") is True:
        _arrivals = []
        return None
    arrivals, _arrivals = _arrivals or [], None
    return [round(t * 1_000_000, 1) for t in arrivals]
