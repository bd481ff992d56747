"""`WireServer`: one virtual device on 127.0.0.1:PORT, speaking adbd's transport protocol.

    with serve(VirtualDevice("example_suites/food")) as port:
        subprocess.run(["adb", "connect", f"127.0.0.1:{port}"])

Threads: one accepting, one per host connection, one per open stream; :meth:`WireServer.stop` closes the
connections and joins them all.

Given `authorized_keys`, the device lets in only adb servers holding one of those keys, as a phone with USB
debugging does (fairy_virtual/wire/auth.py); without, any host is let in at once.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType

from fairy_virtual.wire.auth import AuthorizedKeys, KeyRing
from fairy_virtual.wire.services import banner, resolver
from fairy_virtual.wire.system import AndroidSystem, WiredDevice
from fairy_virtual.wire.transport import AdbdConnection
from pytest_fairy.errors import FairyError

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
ACCEPT_POLL_SECONDS = 0.2
JOIN_TIMEOUT_SECONDS = 10.0
LISTEN_BACKLOG = 16


class WireServerError(FairyError):
    """The server could not start (port taken, bad address) or was used in the wrong state."""


class WireServer:
    """Serves one device to any number of host connections (normally the one adb server)."""

    def __init__(
        self,
        device: WiredDevice,
        *,
        host: str = DEFAULT_HOST,
        port: int = 0,
        system: AndroidSystem | None = None,
        authorized_keys: AuthorizedKeys | None = None,
    ) -> None:
        # `system`: the phone's own state (clipboard, settings, files) when this is its adbd come back.
        self.system = system or AndroidSystem(device)
        # `authorized_keys`: adb public keys (adbkey.pub lines), or a callable giving those authorized now.
        self.keys = KeyRing(authorized_keys) if authorized_keys is not None else None
        self.host = host
        self._requested_port = port
        self._listener: socket.socket | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._connections: list[tuple[AdbdConnection, threading.Thread]] = []
        self._acceptor: threading.Thread | None = None
        self._count = 0

    @property
    def port(self) -> int:
        if self._listener is None:
            raise WireServerError("the wire server is not running: call start() first")
        return int(self._listener.getsockname()[1])

    @property
    def address(self) -> str:
        """What `adb connect` takes, and the serial adb then lists: HOST:PORT."""
        return f"{self.host}:{self.port}"

    def start(self) -> int:
        """Listen and serve in background threads; returns the port (chosen by the OS when 0 was asked)."""
        if self._listener is not None:
            raise WireServerError(f"the wire server already listens on {self.address}")
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind((self.host, self._requested_port))
        except OSError as exc:
            listener.close()
            raise WireServerError(f"cannot listen on {self.host}:{self._requested_port}: {exc}") from exc
        listener.listen(LISTEN_BACKLOG)
        listener.settimeout(ACCEPT_POLL_SECONDS)
        self._listener = listener
        self._stop.clear()
        self.system.stopping.clear()
        self._acceptor = threading.Thread(
            target=self._accept_loop, name=f"wire:{self.port}:accept", daemon=True
        )
        self._acceptor.start()
        log.info("virtual device %s serving adbd on %s", self.system.serial, self.address)
        return self.port

    def stop(self) -> None:
        """Close every connection and stream, and wait for all server threads to end. Idempotent."""
        if self._listener is None:
            return
        self._stop.set()
        self.system.stopping.set()
        self._wake_acceptor()
        if self._acceptor is not None:
            self._acceptor.join(JOIN_TIMEOUT_SECONDS)
        with self._lock:
            connections = list(self._connections)
            self._connections.clear()
        for connection, _thread in connections:
            connection.close()
        for _connection, thread in connections:
            thread.join(JOIN_TIMEOUT_SECONDS)
            if thread.is_alive():
                log.warning("wire server %s: connection thread %s did not end", self.address, thread.name)
        self._listener.close()
        self._listener = None

    def _wake_acceptor(self) -> None:
        # A connection of our own makes accept() return now rather than at its next poll.
        try:
            with socket.create_connection((self.host, self.port), timeout=ACCEPT_POLL_SECONDS):
                pass
        except OSError as exc:
            log.debug(
                "wire server %s: wake-up connection failed (%s); the accept poll will notice",
                self.address,
                exc,
            )

    def __enter__(self) -> WireServer:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def _accept_loop(self) -> None:
        assert self._listener is not None
        port = self.port
        resolve = resolver(self.system)
        while not self._stop.is_set():
            try:
                sock, peer = self._listener.accept()
            except TimeoutError:
                continue
            except OSError as exc:
                if not self._stop.is_set():
                    log.error("wire server %s: accept failed: %s", self.address, exc)
                return
            if self._stop.is_set():
                sock.close()
                return
            sock.settimeout(None)
            # adbd packets are small and answered one by one: Nagle's delay would add 40 ms per round trip.
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._count += 1
            name = f"wire:{port}:conn{self._count}"
            connection = AdbdConnection(
                sock, banner(self.system.device.properties), resolve, name, keys=self.keys
            )
            thread = threading.Thread(
                target=self._serve_connection, args=(connection, sock), name=name, daemon=True
            )
            with self._lock:
                self._connections = [(c, t) for c, t in self._connections if t.is_alive()]
                self._connections.append((connection, thread))
            log.debug("%s: host %s connected", name, peer)
            thread.start()

    @staticmethod
    def _serve_connection(connection: AdbdConnection, sock: socket.socket) -> None:
        try:
            connection.serve()
        finally:
            sock.close()


@contextmanager
def serve(
    device: WiredDevice,
    *,
    host: str = DEFAULT_HOST,
    port: int = 0,
    authorized_keys: AuthorizedKeys | None = None,
) -> Iterator[int]:
    """Serve `device` over adbd for the `with` block; yields the port to `adb connect 127.0.0.1:PORT`."""
    server = WireServer(device, host=host, port=port, authorized_keys=authorized_keys)
    server.start()
    try:
        yield server.port
    finally:
        server.stop()
