"""Where ``minebot bench`` plays its chunks of games: this process, local processes, or a Dask
cluster.

Each executor is a context manager with ``map_unordered(fn, items)``, which calls the module-level
function ``fn`` on every item and yields the results as they finish, in any order. A chunk's
result depends only on the chunk (games are seeded by their index), so the order and the place a
chunk runs never change the summary.

Dask's ``distributed`` rather than Ray: the work is a flat map of independent, stateless chunks
with small arguments and small results, which is exactly ``Client.map`` plus ``as_completed``;
``distributed`` is pure Python (about 40 MB installed with its dependencies, no compiled core),
a ``LocalCluster`` starts in about a second on this 2-core machine, and a cluster is two
commands (``dask scheduler``, ``dask worker tcp://host:8786``) on any machine with Python.
Ray's actors, object store and GPU scheduling would go unused here, and its wheels carry a
compiled core that lags new Python versions.

>>> with Serial() as run:
...     sorted(run.map_unordered(abs, [-2, 1, -3]))
[1, 2, 3]
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from solver.errors import MinebotError

T = TypeVar("T")
R = TypeVar("R")

#: What ``--cluster`` takes to start a Dask cluster of local processes on this machine.
LOCAL_CLUSTER = "local"

#: How long to wait for a remote Dask scheduler to answer, in seconds.
CONNECT_TIMEOUT = 30


class Serial:
    """Every chunk in this process, in order."""

    workers = 1

    def __enter__(self) -> Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        for item in items:
            yield fn(item)


class LocalPool:
    """A pool of ``workers`` local processes.

    ``start_method`` is a :mod:`multiprocessing` start method (``fork``, ``spawn``,
    ``forkserver``); None takes the platform's default (``spawn`` on Windows and macOS). ``fn``
    must be importable by name, which ``spawn`` needs.
    """

    def __init__(self, workers: int, start_method: str | None = None) -> None:
        if start_method is not None and start_method not in multiprocessing.get_all_start_methods():
            raise MinebotError(
                f"start method {start_method!r} is not available here: expected one of "
                + ", ".join(multiprocessing.get_all_start_methods())
            )
        self.workers, self.start_method = workers, start_method
        self._pool: Any = None

    def __enter__(self) -> LocalPool:
        context = multiprocessing.get_context(self.start_method)
        self._pool = context.Pool(self.workers, initializer=_leave_interrupts_to_the_parent)
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is None:
            self._pool.close()  # every chunk is done: let the workers end by themselves
        else:
            self._pool.terminate()
        self._pool.join()

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        yield from self._pool.imap_unordered(fn, items)


def _leave_interrupts_to_the_parent() -> None:
    """In a pool worker: ignore Ctrl-C, which a terminal sends to every process of the group,
    and end quietly on SIGTERM (a forked worker inherits the parent's handlers); the parent
    stops the pool. Each worker would otherwise print its own traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class DaskCluster:
    """A Dask cluster: ``address`` ``tcp://host:8786`` of a running scheduler, or
    :data:`LOCAL_CLUSTER` to start ``workers`` local worker processes (one thread each) for the
    run. Every worker of a remote cluster needs the same minebot installed (``minebot[cluster]``).
    """

    def __init__(self, address: str, workers: int = 1) -> None:
        #: For ``local``, the workers to start; once connected, the workers the cluster has.
        self.address, self.workers = address, workers
        self._client: Any = None
        self._cluster: Any = None

    def __enter__(self) -> DaskCluster:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise MinebotError(
                "--cluster needs Dask's distributed: pip install 'minebot[cluster]'"
            ) from None
        try:
            if self.address == LOCAL_CLUSTER:
                self._cluster = LocalCluster(
                    n_workers=self.workers,
                    threads_per_worker=1,  # the games are pure Python: one core per process
                    processes=True,
                    dashboard_address=None,
                )
                self._client = Client(self._cluster)
            else:
                self._client = Client(self.address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, RuntimeError, ValueError) as exc:
            self.__exit__()
            what = (
                "cannot start a local Dask cluster"
                if self.address == LOCAL_CLUSTER
                else f"cannot reach the Dask scheduler at {self.address}"
            )
            raise MinebotError(f"{what}: {exc}") from None
        self._check_workers()
        return self

    def _check_workers(self) -> None:
        """Stop with a message, not a hang, when the cluster has no worker or a worker cannot
        import minebot (Dask would lose such a worker on the first chunk, and wait for ever)."""
        import importlib.util

        try:
            self._client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except TimeoutError:
            self.__exit__()
            raise MinebotError(
                f"the Dask cluster at {self.address} has no worker after {CONNECT_TIMEOUT} s"
            ) from None
        found = self._client.run(importlib.util.find_spec, "solver.bench", on_error="return")
        self.workers = len(found)
        missing = sorted(
            worker for worker, spec in found.items() if spec is None or isinstance(spec, Exception)
        )
        if missing:
            self.__exit__()
            raise MinebotError(
                f"{len(missing)} Dask worker(s) cannot import minebot (first: {missing[0]}): "
                "install the same minebot on every worker"
            )
        ours = solver_fingerprint()
        other = sorted(w for w, f in self._client.run(solver_fingerprint).items() if f != ours)
        if other:
            self.__exit__()
            raise MinebotError(
                f"{len(other)} Dask worker(s) run another version of the solver (first: "
                f"{other[0]}): their games would differ; install the same minebot everywhere"
            )

    def __exit__(self, *exc: object) -> None:
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        from distributed import as_completed

        futures = self._client.map(fn, list(items), pure=False)
        for future in as_completed(futures):
            result = future.result()
            future.release()  # a million games: keep no finished chunk on the cluster
            yield result


def solver_fingerprint() -> str:
    """A hash of the solver's source files: every worker must play the same games.

    >>> len(solver_fingerprint())
    16
    """
    import hashlib
    from pathlib import Path

    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def executor(workers: int, cluster: str | None = None, start_method: str | None = None) -> Any:
    """The executor for ``minebot bench``'s options: a Dask cluster when ``cluster`` is given,
    else local processes when ``workers`` > 1, else this process.

    >>> type(executor(1)).__name__, type(executor(2)).__name__
    ('Serial', 'LocalPool')
    >>> type(executor(2, cluster="local")).__name__
    'DaskCluster'
    """
    if cluster is not None:
        return DaskCluster(cluster, workers)
    if workers > 1:
        return LocalPool(workers, start_method)
    return Serial()
