"""The garbage collector's settings for the site's long-lived processes (the ASGI server, the
move workers of `gameplay.tables.move_pool`).

The collector's full passes walk every live object: with 2,000 sockets one pass stalled all of
them for 0.2-0.9 s (bench/ws/load.py, BENCH_GC_LOG), and in a move worker every move waits out a
pass of ~90 ms. Objects alive after start-up (Django, the URL conf, the apps) are frozen out of
its view, and young collections run every `BILKA_GC_THRESHOLD0` container allocations instead of
700, so full passes come rarely. Reference counting still frees almost everything at once; the
collector is only for cycles. `BILKA_GC_THRESHOLD0=0` keeps Python's defaults.
"""

from __future__ import annotations

import gc
import os

DEFAULT_THRESHOLD0 = 50000


def settle(*, raise_young: bool = True, threshold0: int | None = None) -> bool:
    """Collect what start-up left, freeze the rest out of the collector's view and, with
    `raise_young`, raise the young generation's threshold; call once, when the process is set up.
    Whether it did (not with `BILKA_GC_THRESHOLD0=0`). A `threshold0` given is used instead of
    that setting (bench/ws/load.py's load generator keeps its own whatever the server is given).

    A process that leaves many reference cycles behind (Celery's worker: Kombu's promises) keeps
    the default young threshold: with 50,000 its middle generation piled up 360,000 objects
    between collections and freed them in one pause of 870 ms (bench/ws/load.py, BENCH_GC_LOG)."""
    if threshold0 is None:
        threshold0 = int(os.environ.get("BILKA_GC_THRESHOLD0", str(DEFAULT_THRESHOLD0)))
    if threshold0 <= 0:
        return False
    gc.collect()
    gc.freeze()
    if raise_young:
        gc.set_threshold(threshold0, *gc.get_threshold()[1:])
    return True
