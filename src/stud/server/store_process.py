"""The store in a process of its own (``stud serve``): the event loop never shares the
interpreter's lock with the database.

With the store on a thread (``stud.server.store_thread``), SQLite lets the interpreter's lock go
at every step of every row and takes it back after, and under load each of those takes waited
for the busy event loop: a hand's end waited a p99 of 100 to 200 ms for a few milliseconds of
work. Here the store's calls go to a child process over a socket, and its answers come back to
the event loop as the socket becomes readable: no thread of the server waits for the lock at
all, and the child has its lock to itself.

The child keeps the store thread's order and group commit exactly: it takes the calls in the
order they were made, one at a time, and the hands' writes (``store.GROUPED``) wait in a list
that is made in one transaction when the child comes to the first of them
(``Store.write_together``: each hand whole, a failed commit fails each write of its group). Its
answers and errors (``StoreError`` and the rest, with the child's traceback as a note) come back
to each caller as they would from the thread. ``close()`` answers every call made so far, then
lets the child go; a child whose server dies (even by SIGKILL) sees its socket close and stops
too, and the kernel stops it if it is busy then (``PR_SET_PDEATHSIG``); it leaves Ctrl-C and
SIGTERM to the server, which closes it once every call is answered. A child that stops on its
own fails the calls waiting for it (whether they were kept is not known, as with a failed commit)
and the next call starts another.

An in-memory SQLite database cannot be opened by a second process, and the child makes a plain
``Store`` from the URL: ``runner`` gives the thread to those, and to a subclass of ``Store``.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
import pickle
import select
import signal
import socket
import struct
import subprocess
import sys
import traceback
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

from sqlalchemy.engine import make_url

from stud.server.parent import end_with
from stud.server.store import GROUPED, Store, StoreError
from stud.server.store_thread import StoreThread

log = logging.getLogger("stud.server")
T = TypeVar("T")
_LENGTH = struct.Struct("!I")
# The child imports the very stud package the server runs (a bench may run an older one), and
# nothing from the current folder.
_CHILD = ("import sys; sys.path.insert(0, sys.argv[1]); "
          "from stud.server.store_process import child_main; child_main()")


class StoreRunner(Protocol):
    """What the server calls the store through: a ``StoreThread`` or a ``StoreProcess``."""

    async def call(self, call: Callable[..., T], *args: object) -> T: ...

    def close(self) -> None: ...


def runner(store: Store, process: bool) -> StoreRunner:
    """The store's calls on a process of their own where asked for and possible, else on the
    store's thread. The child makes the same kind of store (``Store.recipe``: a worker's
    ``LeasedStore`` too, whose leases' epochs its worker then shares with it)."""
    if process and shareable(store.url):
        return StoreProcess(store)
    return StoreThread(store)


def shareable(url: str) -> bool:
    """Whether a second process can open the same database (not an in-memory SQLite one)."""
    parsed = make_url(url)
    return parsed.get_backend_name() != "sqlite" or parsed.database not in (None, "", ":memory:")


class StoreGone(RuntimeError):
    """The store's process stopped before it answered."""


class StoreProcess:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._loop: asyncio.AbstractEventLoop | None = None
        self._socket: socket.socket | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._out = bytearray()  # bytes the socket would not take yet
        self._in = bytearray()
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._next = 0
        self._local: ThreadPoolExecutor | None = None
        self._closed = False

    async def call(self, call: Callable[..., T], *args: object) -> T:
        """``call(*args)``, a method of the store, in the store's process; another callable
        runs on a thread of this process (no store method is made that way)."""
        name = getattr(call, "__name__", "")
        # The store's methods, and those it wraps for itself (a LeasedStore's fenced writes).
        own = getattr(call, "__self__", None) is self.store or vars(self.store).get(name) is call
        if not own or name.startswith("_"):
            if self._local is None:
                self._local = ThreadPoolExecutor(1, thread_name_prefix="stud-store-local")
            return await asyncio.get_running_loop().run_in_executor(self._local, call, *args)
        if self._closed:
            raise StoreGone("the store is closed")
        loop = asyncio.get_running_loop()
        if self._socket is None:
            self._start(loop)
        elif self._loop is not loop:  # called from another event loop now: answers come there
            self._move_to(loop)
        message = pickle.dumps((self._next + 1, name, args), pickle.HIGHEST_PROTOCOL)
        self._next += 1  # only once the arguments could be sent
        future: asyncio.Future[T] = loop.create_future()
        self._waiting[self._next] = future
        self._send(message)
        return await future

    # ------------------------------------------------------------------ the parent's side

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        ours, theirs = socket.socketpair()
        package = str(Path(__file__).resolve().parents[2])
        self._process = subprocess.Popen(
            [sys.executable, "-I", "-c", _CHILD, package, str(theirs.fileno()), str(os.getpid())],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL)
        theirs.close()
        ours.setblocking(False)
        self._loop, self._socket = loop, ours
        self._out.clear()
        self._in.clear()
        loop.add_reader(ours.fileno(), self._readable)
        # How to make the store (its URL among the arguments) goes over the socket, not the
        # command line, where a password would show.
        self._send(pickle.dumps(self.store.recipe(), pickle.HIGHEST_PROTOCOL))

    def _move_to(self, loop: asyncio.AbstractEventLoop) -> None:
        assert self._socket is not None
        old, self._loop = self._loop, loop
        if old is not None and not old.is_closed():
            old.remove_reader(self._socket.fileno())
            old.remove_writer(self._socket.fileno())
        loop.add_reader(self._socket.fileno(), self._readable)
        if self._out:
            loop.add_writer(self._socket.fileno(), self._writable)

    def _send(self, body: bytes) -> None:
        assert self._socket is not None and self._loop is not None
        frame = _LENGTH.pack(len(body)) + body
        if self._out:
            self._out += frame
            return
        try:
            sent = self._socket.send(frame)
        except BlockingIOError:
            sent = 0
        except OSError:
            return  # the child is gone: the reader sees it and fails what waits
        if sent < len(frame):
            self._out += frame[sent:]
            self._loop.add_writer(self._socket.fileno(), self._writable)

    def _writable(self) -> None:
        assert self._socket is not None and self._loop is not None
        try:
            sent = self._socket.send(self._out)
        except BlockingIOError:
            return
        except OSError:
            sent = len(self._out)
        del self._out[:sent]
        if not self._out:
            self._loop.remove_writer(self._socket.fileno())

    def _readable(self) -> None:
        assert self._socket is not None
        while True:
            try:
                chunk = self._socket.recv(1 << 20)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:
                self._settle_all()
                self._gone()
                return
            self._in += chunk
        self._settle_all()

    def _settle_all(self) -> None:
        for answers in _frames(self._in):
            for number, failed, value in pickle.loads(answers):
                future = self._waiting.pop(number, None)
                if future is None or future.done():  # its caller was cancelled
                    continue
                with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits
                    if failed:
                        future.set_exception(value)
                    else:
                        future.set_result(value)

    def _gone(self) -> None:
        """The child stopped: what waits for it fails, and the next call starts another."""
        code = self._stop_reading()
        if self._closed:
            return
        log.error("the store's process stopped (exit status %s); %d call(s) failed, the next "
                  "call starts another", code, len(self._waiting))
        for future in self._waiting.values():
            if not future.done():
                with contextlib.suppress(RuntimeError):
                    future.set_exception(StoreGone(
                        f"the store's process stopped (exit status {code}) before it answered"))
        self._waiting.clear()

    def _stop_reading(self) -> int | None:
        sock, process = self._socket, self._process
        self._socket = self._process = None
        if sock is not None:
            loop = self._loop
            if loop is not None and not loop.is_closed():
                loop.remove_reader(sock.fileno())
                loop.remove_writer(sock.fileno())
            sock.close()
        if process is None:
            return None
        try:
            return process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            return process.wait()

    def close(self) -> None:
        """Answer every call made so far, then let the child go (as the thread's close)."""
        self._closed = True
        sock = self._socket
        if sock is not None:
            loop = self._loop
            if loop is not None and not loop.is_closed():
                loop.remove_reader(sock.fileno())
                loop.remove_writer(sock.fileno())
            sock.setblocking(True)
            try:
                sock.sendall(self._out)
                self._out.clear()
                sock.shutdown(socket.SHUT_WR)  # the child answers what it has, then stops
                while chunk := sock.recv(1 << 20):
                    self._in += chunk
            except OSError:
                pass
            self._settle_all()
            self._stop_reading()
        for future in self._waiting.values():  # the child stopped before it answered these
            if not future.done():
                with contextlib.suppress(RuntimeError):
                    future.set_exception(StoreGone("the store's process stopped before it "
                                                   "answered"))
        self._waiting.clear()
        if self._local is not None:
            self._local.shutdown(wait=True)


def _frames(buffer: bytearray) -> list[bytes]:
    """The whole frames at the start of the buffer, taken out of it."""
    frames, at = [], 0
    while len(buffer) - at >= _LENGTH.size:
        (length,) = _LENGTH.unpack_from(buffer, at)
        if len(buffer) - at - _LENGTH.size < length:
            break
        frames.append(bytes(buffer[at + _LENGTH.size:at + _LENGTH.size + length]))
        at += _LENGTH.size + length
    del buffer[:at]
    return frames


# ---------------------------------------------------------------------- the child's side


Call = tuple[int, str, tuple[Any, ...]]


class _Inbox:
    """The calls as they arrive: read whole frames from the parent's socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.socket = sock
        self.buffer = bytearray()
        self.ended = False

    def read(self, wait: bool) -> list[Any]:
        """The messages that have come; with ``wait``, at least one unless the parent closed
        its side (``ended``)."""
        messages: list[Any] = []
        while not self.ended:
            ready, _, _ = select.select([self.socket], [], [], None if wait else 0)
            if not ready:
                break
            chunk = self.socket.recv(1 << 20)
            if not chunk:
                self.ended = True
                break
            self.buffer += chunk
            messages += [pickle.loads(frame) for frame in _frames(self.buffer)]
            if messages:
                wait = False  # and take what else came with them
        return messages


def child_main() -> None:
    """``python -I -c _CHILD PACKAGE FD PARENT``: the store's process."""
    sock = socket.socket(fileno=int(sys.argv[2]))
    if not end_with(int(sys.argv[3]), signal.SIGKILL):  # the server is gone already
        os._exit(1)
    # Ctrl-C at the terminal, or a stop sent to the whole group, is for the server: it answers
    # what it has sent and then closes this process's socket, which ends it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    inbox = _Inbox(sock)
    first = inbox.read(wait=True)
    if not first:
        return
    (module, kind, arguments), early = first[0], first[1:]
    store: Store | None = None
    broken: BaseException | None = None
    try:
        store = getattr(importlib.import_module(module), kind)(*arguments)
    except Exception as error:  # every call is answered with why
        broken = error
    try:
        _serve(store, broken, inbox, early)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the parent is gone: so is whoever waited for the answers
    finally:
        if store is not None:
            store.close()


def _serve(store: Store | None, broken: BaseException | None, inbox: _Inbox,
           early: list[Call]) -> None:
    """The store thread's loop: calls one at a time in order; a grouped write takes with it
    every grouped write waiting when the child comes to it."""
    jobs: deque[Call | None] = deque()  # None: the grouped writes waiting
    grouped: list[Call] = []

    def arrive(messages: list[Call]) -> None:
        for message in messages:
            if message[1] in GROUPED:
                if not grouped:
                    jobs.append(None)
                grouped.append(message)
            else:
                jobs.append(message)

    arrive(early)
    while True:
        arrive(inbox.read(wait=not jobs))
        if not jobs:
            return  # the parent closed its side and every call is answered
        job = jobs.popleft()
        if job is None:
            calls, grouped[:] = list(grouped), []
            if broken is not None:
                outcomes: list[Any] = [broken] * len(calls)
            else:
                assert store is not None
                try:
                    outcomes = store.write_together([(name, args) for _, name, args in calls])
                except Exception as error:  # not even one transaction could be had
                    outcomes = [error] * len(calls)
            answers = [_answer(number, outcome, isinstance(outcome, BaseException))
                       for (number, _, _), outcome in zip(calls, outcomes, strict=True)]
        else:
            number, name, args = job
            try:
                if broken is not None:
                    raise broken
                answers = [_answer(number, getattr(store, name)(*args), False)]
            except Exception as error:
                answers = [_answer(number, error, True)]
        body = pickle.dumps(answers, pickle.HIGHEST_PROTOCOL)
        inbox.socket.sendall(_LENGTH.pack(len(body)) + body)


def _answer(number: int, value: Any, failed: bool) -> tuple[int, bool, Any]:
    """What goes back for one call; an error the parent could not unpickle goes back as a
    RuntimeError with its words, and every error other than StoreError with the child's
    traceback as a note."""
    if not failed:
        return number, False, value
    if not isinstance(value, StoreError) and value.__traceback__ is not None:
        value.add_note("in the store's process:\n" + "".join(traceback.format_exception(value)))
    try:
        pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    except Exception:
        plain = RuntimeError(f"{type(value).__name__}: {value}")
        plain.__notes__ = list(getattr(value, "__notes__", ()))
        return number, True, plain
    return number, True, value
