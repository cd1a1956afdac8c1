"""The event loop the load generator, its watcher processes and the flood run on: uvloop when installed.

Its own module so that bench.ws.load (which starts the flood) and bench.ws.flood (which runs in
a process of its own) both import it, and neither imports the other for it.
"""

from __future__ import annotations

import asyncio


def new_event_loop() -> asyncio.AbstractEventLoop:
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()
