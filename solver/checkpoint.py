"""A bench run's checkpoint file: the series, then one JSON line per finished chunk.

A run that stops (a machine lost, Ctrl-C) is resumed by running the same command with the same
file: the chunks already in it are summed, not played again. The first line names the series
(the :class:`~solver.bench.BenchConfig`, the number of games, the chunk size) and a file written
for another series is refused. A last line cut short by the stop is dropped.

>>> import os, tempfile
>>> from solver.bench import BenchConfig, ChunkTally
>>> path = os.path.join(tempfile.mkdtemp(), "run.jsonl")
>>> config = BenchConfig(9, 9, 10, seed=1)
>>> with Checkpoint.open(path, config, games=30, chunk=10) as book:
...     book.record(ChunkTally(10, 20, 9, 3, 10, 0.1))
>>> with Checkpoint.open(path, config, games=30, chunk=50) as book:  # the file's chunk size wins
...     book.chunk, sorted(book.started), book.done[0].wins
(10, [10], 9)
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from typing import IO, TYPE_CHECKING, Any

from solver.errors import MinebotError

if TYPE_CHECKING:
    from solver.bench import BenchConfig, ChunkTally

#: The first line's marker and format version.
FORMAT = "minebot-bench-checkpoint/1"


@dataclass
class Checkpoint:
    """The chunks done so far (``done``, their first games in ``started``) and the open file new
    chunks are appended to (None: no checkpoint, nothing kept)."""

    chunk: int
    done: list[ChunkTally] = field(default_factory=list)
    started: set[int] = field(default_factory=set)
    _file: IO[str] | None = None

    @classmethod
    def open(cls, path: str | None, config: BenchConfig, games: int, chunk: int) -> Checkpoint:
        if path is None:
            return cls(chunk)
        header = {"format": FORMAT, "config": asdict(config), "games": games, "chunk": chunk}
        try:
            if os.path.isdir(path):
                raise MinebotError(f"{path}: is a folder, not a checkpoint file")
            if os.path.exists(path) and os.path.getsize(path) > 0:
                book = cls._read(path, header)
                book._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed in __exit__)
                return book
            out = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed in __exit__)
            out.write(json.dumps(header) + "\n")
            out.flush()
            return cls(chunk, _file=out)
        except OSError as exc:
            raise MinebotError(f"{path}: cannot use as a checkpoint: {exc.strerror}") from None

    @classmethod
    def _read(cls, path: str, header: dict[str, Any]) -> Checkpoint:
        from solver.bench import ChunkTally

        try:
            with open(path, encoding="utf-8") as fh:
                lines = fh.read().split("\n")
        except UnicodeDecodeError:
            raise MinebotError(f"{path}: not a checkpoint file (not UTF-8 text)") from None
        try:
            first = json.loads(lines[0])
        except json.JSONDecodeError:
            first = None
        if not isinstance(first, dict) or first.get("format") != FORMAT:
            raise MinebotError(f"{path}: not a minebot bench checkpoint file")
        for key in ("config", "games"):
            if first.get(key) != header[key]:
                raise MinebotError(
                    f"{path}: written for another series ({key} {first.get(key)} there, "
                    f"{header[key]} here): give a new file or the same options"
                )
        book = cls(int(first["chunk"]))
        complete, cut = lines[1:-1], lines[-1]  # the text after the last newline was cut short
        good = len(lines[0]) + 1
        for number, line in enumerate(complete, start=2):
            try:
                tally = ChunkTally(**json.loads(line))
            except (json.JSONDecodeError, TypeError):
                raise MinebotError(f"{path}: line {number} is not a finished chunk") from None
            book._add_done(path, tally, header["games"])
            good += len(line) + 1
        if cut:
            with open(path, "r+", encoding="utf-8") as fh:
                fh.truncate(good)
        return book

    def _add_done(self, path: str, tally: ChunkTally, games: int) -> None:
        planned = tally.start % self.chunk == 0 and tally.stop == min(
            games, tally.start + self.chunk
        )
        if not planned or tally.start in self.started:
            raise MinebotError(
                f"{path}: games {tally.start}-{tally.stop - 1} are not one chunk of this series"
            )
        self.done.append(tally)
        self.started.add(tally.start)

    def record(self, tally: ChunkTally) -> None:
        """Append a finished chunk (written through at once: a stop loses at most the chunks
        still running)."""
        if self._file is not None:
            self._file.write(json.dumps(asdict(tally)) + "\n")
            self._file.flush()

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()
