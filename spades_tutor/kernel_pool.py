"""The app server's pool of preheated kernels, refilled so that a refill never starves the learners already in.

Voilà's pool (``voila/voila_kernel_manager.py``) refills itself as each kernel is taken: one task per
kernel taken, each sleeping ``fill_delay`` seconds and then starting a kernel that runs the notebook.
A class of 30 arriving together therefore made 30 kernels start together 20 s later, in the middle of
the lesson: on the class server's two cores every learner's click waited behind them (click -> step
p95 8.4 s instead of 0.10 s, every slow click in those seconds; ``bench/classroom.py``). And a learner
arriving while the pool was empty was handed one of those sleeping tasks, so waited out the delay too.

:func:`staggered_pool` makes Voilà's pool manager refill differently, for every notebook's pool:

- **after a quiet delay**: a refill kernel starts only once no kernel has been handed out for
  ``fill_delay`` seconds (a class still coming in keeps the refill back; at most
  ``QUIET_CAP`` times the delay, so a steady trickle of arrivals cannot hold it back for ever);
- **one at a time**: the next refill kernel starts only when the previous one has run its notebook up
  to the learner's request (``wait_for_request``; a notebook that never waits: run to its end), so a
  refill takes at most about one core, whatever the number of kernels missing;
- **never in a learner's way**: the pool counts only the kernels ready or warming; one still waiting
  its turn is not offered, so a learner who arrives when none is ready gets a kernel started for them
  at once (Voilà's own path without the pool), never one queued behind the refill.

The first fill, as the server starts, stays Voilà's: every kernel at once, before anyone is let in.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from voila.request_info_handler import RequestInfoSocketHandler  # type: ignore[import-untyped]

__all__ = ["QUIET_CAP", "WARM_TIMEOUT_S", "staggered_pool"]

#: a refill waits at most this many times ``fill_delay`` for a quiet moment
QUIET_CAP = 3.0
#: a refill kernel counts as warm after this long even if it never reached the learner's request
WARM_TIMEOUT_S = 120.0
WARM_POLL_S = 0.1


def _is_waiting_for_request(kernel_id: str) -> bool:
    """Whether the kernel has run its notebook up to ``wait_for_request``: it has opened Voilà's request
    socket for its learner (``RequestInfoSocketHandler`` keeps the open ones by kernel id)."""
    return kernel_id in getattr(RequestInfoSocketHandler, "_waiters", {})


def staggered_pool(base: type) -> type:
    """Voilà's pool manager class ``base`` (as ``voila_kernel_manager_factory`` makes it, preheating on),
    refilled as the module says."""

    class StaggeredPool(base):  # type: ignore[misc]
        """Voilà's kernel manager with the pool refilled one kernel at a time after a quiet delay."""

        def __init__(self, **kwargs: Any) -> None:
            self._last_handout: float = -float("inf")  # monotonic time a kernel was last handed to a page
            self._refill_tasks: set[asyncio.Task[Any]] = set()  # pool entries made by a refill
            self._started: set[asyncio.Task[Any]] = set()  # ... whose kernel has started (warming or warm)
            self._gates: dict[str, asyncio.Lock] = {}  # one refill kernel warming at a time, per notebook
            super().__init__(**kwargs)

        # --- what a page sees of the pool ---------------------------------------------------------------

        def _offered(self, task: asyncio.Task[Any]) -> bool:
            """A pool entry a page may take: warm, or warming now (not one still waiting its turn)."""
            if task not in self._refill_tasks:
                return True
            return task in self._started or (task.done() and not task.cancelled())

        def get_pool_size(self, notebook_name: str) -> int:
            return sum(1 for task in self._pools.get(notebook_name, ()) if self._offered(task))

        async def get_rendered_notebook(self, notebook_name: str, *args: Any, **kwargs: Any) -> Any:
            pool = self._pools.get(notebook_name)
            if pool:  # Voilà takes the first entry: the warm ones first, then the one warming
                pool.sort(key=lambda t: 0 if t.done() else 1 if self._offered(t) else 2)
                if not self._offered(pool[0]):
                    raise RuntimeError(f"no kernel of the pool of {notebook_name} is ready or warming")
            self._last_handout = time.monotonic()
            return await super().get_rendered_notebook(notebook_name, *args, **kwargs)

        async def start_kernel(self, *args: Any, **kwargs: Any) -> Any:
            """A page's kernel started without the pool (none was ready): a hand-out too, for the quiet delay.
            (The pool's own kernels are started from Voilà's ``_initialize``, which does not come here.)"""
            self._last_handout = time.monotonic()
            return await super().start_kernel(*args, **kwargs)

        # --- the refill -------------------------------------------------------------------------------

        def fill_if_needed(
            self,
            delay: float | None = None,
            notebook_name: str | None = None,
            extra_kernel_env_variables: dict[str, str] | None = None,
            **kwargs: Any,
        ) -> None:
            refill = delay is None  # Voilà asks with no delay after a kernel is taken; 0 for the first fill
            pool = self._pools.get(notebook_name, [])
            before = set(pool)
            super().fill_if_needed(
                delay=0,
                notebook_name=notebook_name,
                extra_kernel_env_variables=extra_kernel_env_variables or {},
                **kwargs,
            )
            if refill:
                self._refill_tasks |= set(self._pools.get(notebook_name, [])) - before

        async def _initialize(self, notebook_path: str, kernel_id: str | None = None, **kwargs: Any) -> Any:
            task = asyncio.current_task()
            if kernel_id is not None or task not in self._refill_tasks:  # a restart, or the first fill
                return await super()._initialize(notebook_path, kernel_id, **kwargs)
            gate = self._gates.setdefault(notebook_path, asyncio.Lock())
            waiting = time.monotonic()
            async with gate:
                await self._quiet(waiting)
                self._started.add(task)
                started = time.monotonic()
                content = await super()._initialize(notebook_path, kernel_id, **kwargs)
                self.log.info(
                    "spades-tutor: refilling the pool of %s: kernel %s started", notebook_path, content["kernel_id"]
                )
                await self._warm(content)
                self.log.info(
                    "spades-tutor: refilling the pool of %s: kernel %s warm after %.1f s (%d of the pool ready)",
                    notebook_path,
                    content["kernel_id"],
                    time.monotonic() - started,
                    sum(1 for t in self._pools.get(notebook_path, ()) if t.done() and not t.cancelled()) + 1,
                )
                return content

        async def _quiet(self, since: float) -> None:
            """Until no kernel has been handed out for ``fill_delay`` seconds (at most ``QUIET_CAP`` delays
            after ``since``)."""
            cap = since + QUIET_CAP * self.fill_delay
            while True:
                now = time.monotonic()
                wait = min(self._last_handout + self.fill_delay, cap) - now
                if wait <= 0:
                    return
                await asyncio.sleep(wait)

        async def _warm(self, content: dict[str, Any]) -> None:
            """Until the kernel waits for its learner's request (or has run its whole notebook, or is gone)."""
            deadline = time.monotonic() + WARM_TIMEOUT_S
            kernel_id, render = content["kernel_id"], content["task"]
            while time.monotonic() < deadline:
                if _is_waiting_for_request(kernel_id) or render.done() or kernel_id not in self:
                    return
                await asyncio.sleep(WARM_POLL_S)

        # --- the pool's entries that never started ------------------------------------------------------

        def _drop_queued(self) -> None:
            """Cancel the refill entries still waiting their turn, and take them out of the pools (a
            cancelled entry would break Voilà's own loops over the pool, which read every done result)."""
            for pool in self._pools.values():
                for task in list(pool):
                    if task in self._refill_tasks and task not in self._started and not task.done():
                        task.cancel()
                        pool.remove(task)

        async def shutdown_all(self, *args: Any, **kwargs: Any) -> None:
            self._drop_queued()
            await super().shutdown_all(*args, **kwargs)

        async def cull_kernel_if_idle(self, kernel_id: str) -> Any:
            for pool in self._pools.values():
                for task in list(pool):
                    if task.cancelled():
                        pool.remove(task)
            self._forget_finished()
            return await super().cull_kernel_if_idle(kernel_id)

        def _forget_finished(self) -> None:
            alive = {task for pool in self._pools.values() for task in pool}
            self._refill_tasks &= alive
            self._started &= alive

    StaggeredPool.__name__ = StaggeredPool.__qualname__ = f"Staggered{base.__name__}"
    return StaggeredPool
