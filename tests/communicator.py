"""The websocket communicator of the socket tests: it waits for what must come as long as a loaded
machine may need, so that only a broken app makes a test wait that long.

Channels' own gives up after a second on a connect, a frame or a disconnect, and asgiref then
cancels the app. A socket's connect and disconnect read and write the session, the table and the
seat in PostgreSQL, and its frames pass through Redis: on a machine busy with other work that took
longer than a second, and the tests failed with a TimeoutError for nothing the site did wrong.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from channels.testing import WebsocketCommunicator

#: Seconds to wait for something that must come (a connect's answer, a frame, the app's end).
CEILING = 60.0


class Communicator(WebsocketCommunicator):
    """A WebsocketCommunicator whose waits for what must come default to `CEILING`. Waiting to see
    that nothing comes (`receive_nothing`) keeps its short window."""

    async def connect(self, timeout: float = CEILING) -> Any:
        return await super().connect(timeout)

    async def receive_output(self, timeout: float = CEILING) -> Any:
        return await super().receive_output(timeout)

    async def receive_from(self, timeout: float = CEILING) -> Any:
        return await super().receive_from(timeout)

    async def receive_json_from(self, timeout: float = CEILING) -> Any:
        return await super().receive_json_from(timeout)

    async def disconnect(self, code: int = 1000, timeout: float = CEILING) -> None:
        await super().disconnect(code, timeout)

    async def receive_until(self, wanted: Callable[[dict], bool], timeout: float = CEILING) -> list[dict]:
        """The JSON frames as they come, up to and including the first one `wanted` accepts: what a
        test waits for, rather than for a quiet moment that a slow machine ends too soon."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        frames: list[dict] = []
        while True:
            try:
                frame = await self.receive_json_from(max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise AssertionError(f"no such frame in {timeout:.0f} s, only {frames}") from None
            frames.append(frame)
            if wanted(frame):
                return frames
