"""The adbd side of one `adb connect` connection: handshake, streams, flow control.

Each OPEN from the host becomes a :class:`Stream` served by its own thread, so a long-lived stream (the
uiautomator server's `app_process` shell) never blocks the short ones u2 opens per call. A stream has one
unacknowledged WRTE at a time in each direction, as adbd does; every host WRTE is answered with OKAY at once
and buffered. A connection given a :class:`KeyRing` authenticates the host first (fairy_virtual/wire/auth.py)
and opens no stream before it succeeded.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable

from fairy_virtual.wire.auth import AuthKind, KeyRing, fingerprint, new_token
from fairy_virtual.wire.packets import (
    DEVICE_MAX_PAYLOAD,
    PROTOCOL_VERSION,
    Command,
    Packet,
    ProtocolError,
    read_packet,
)
from pytest_fairy.errors import FairyError

log = logging.getLogger(__name__)

# How long closing a connection waits for its stream threads before giving up on them.
STREAM_JOIN_TIMEOUT = 5.0


class StreamClosed(FairyError):
    """The host closed the stream (or the connection went away) while we were using it."""


class Stream:
    """One service stream, used by its service like a blocking socket."""

    def __init__(self, conn: AdbdConnection, local_id: int, remote_id: int, service: str) -> None:
        self._conn = conn
        self.local_id = local_id
        self.remote_id = remote_id
        self.service = service
        self._cond = threading.Condition()
        self._inbox = bytearray()
        self._awaiting_ack = False
        self._remote_closed = False
        self._local_closed = False
        self.closed = threading.Event()  # set once either side closed it

    # ---- called by the connection's reader thread
    def _deliver(self, data: bytes) -> None:
        with self._cond:
            self._inbox += data
            self._cond.notify_all()

    def _acknowledged(self) -> None:
        with self._cond:
            self._awaiting_ack = False
            self._cond.notify_all()

    def _remote_close(self) -> None:
        with self._cond:
            self._remote_closed = True
            self.closed.set()
            self._cond.notify_all()

    # ---- called by the service
    def read(self, size: int = 65536) -> bytes:
        """Up to `size` bytes the host wrote; b"" once the host closed and everything was read."""
        with self._cond:
            self._cond.wait_for(lambda: self._inbox or self._remote_closed or self._local_closed)
            data = bytes(self._inbox[:size])
            del self._inbox[:size]
            return data

    def wait_readable(self, timeout: float) -> bool:
        """True once there is data to read or the stream ended; False after `timeout` seconds without."""
        with self._cond:
            return self._cond.wait_for(
                lambda: bool(self._inbox) or self._remote_closed or self._local_closed, timeout
            )

    def read_exact(self, size: int) -> bytes:
        data = bytearray()
        while len(data) < size:
            chunk = self.read(size - len(data))
            if not chunk:
                raise StreamClosed(f"{self.service}: host closed after {len(data)} of {size} bytes")
            data += chunk
        return bytes(data)

    def readline(self, limit: int) -> bytes:
        """Bytes up to and including b"\\n" (or fewer at end of stream); raises past `limit` bytes."""
        with self._cond:
            while True:
                end = self._inbox.find(b"\n")
                if end >= 0:
                    line = bytes(self._inbox[: end + 1])
                    del self._inbox[: end + 1]
                    return line
                if len(self._inbox) > limit:
                    raise StreamClosed(f"{self.service}: line longer than {limit} bytes")
                if self._remote_closed or self._local_closed:
                    line = bytes(self._inbox)
                    self._inbox.clear()
                    return line
                self._cond.wait()

    def write(self, data: bytes) -> None:
        """Send `data`, in chunks the host accepts, each after the previous one was acknowledged."""
        view = memoryview(data)
        step = self._conn.max_payload
        for start in range(0, len(view), step):
            with self._cond:
                self._cond.wait_for(
                    lambda: not self._awaiting_ack or self._remote_closed or self._local_closed
                )
                if self._remote_closed or self._local_closed:
                    raise StreamClosed(f"{self.service}: host closed the stream")
                self._awaiting_ack = True
            chunk = bytes(view[start : start + step])
            self._conn.send(Packet(Command.WRTE, self.local_id, self.remote_id, chunk))

    def close(self) -> None:
        """Close our side (CLSE), unless the host closed first. Idempotent."""
        with self._cond:
            if self._local_closed:
                return
            self._local_closed = True
            tell_host = not self._remote_closed
            self.closed.set()
            self._cond.notify_all()
        self._conn.forget(self)
        if tell_host:
            self._conn.send(Packet(Command.CLSE, self.local_id, self.remote_id))


ServiceHandler = Callable[[Stream], None]
# Answers an OPEN: the handler for a service name, or None to refuse it (CLSE).
ServiceResolver = Callable[[str], ServiceHandler | None]


class AdbdConnection:
    """Serves one host connection until it closes or :meth:`close` is called."""

    def __init__(
        self,
        sock: socket.socket,
        banner: str,
        resolve: ServiceResolver,
        name: str,
        keys: KeyRing | None = None,
    ) -> None:
        self._sock = sock
        self._banner = banner.encode()
        self._resolve = resolve
        self.name = name
        # With keys, the host must authenticate before anything is served; without, it is let in at once.
        self._keys = keys
        self.authenticated = keys is None
        self._token = b""
        self.max_payload = DEVICE_MAX_PAYLOAD
        self._send_lock = threading.Lock()
        self._lock = threading.Lock()
        self._streams: dict[int, Stream] = {}
        self._threads: list[threading.Thread] = []
        self._next_id = 1
        self._closing = False

    def send(self, packet: Packet) -> None:
        data = packet.encode()
        with self._send_lock:
            try:
                self._sock.sendall(data)
            except OSError as exc:
                raise StreamClosed(f"{self.name}: connection lost sending {packet.command.name}") from exc

    def forget(self, stream: Stream) -> None:
        with self._lock:
            self._streams.pop(stream.local_id, None)

    def serve(self) -> None:
        """Read packets until the host goes away; then close every stream and wait for their threads."""
        try:
            while (packet := read_packet(self._sock)) is not None:
                self._handle(packet)
        except (OSError, ProtocolError, StreamClosed) as exc:
            log.debug("%s: connection ended: %s", self.name, exc)
        finally:
            self._shutdown_streams()

    def close(self) -> None:
        """Break the connection; :meth:`serve` then returns."""
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError as exc:
            log.debug("%s: shutdown: %s", self.name, exc)

    def _handle(self, packet: Packet) -> None:
        log.debug("%s <- %s", self.name, packet)
        match packet.command:
            case Command.CNXN:
                # The host's maxdata bounds our WRTE payloads; older hosts announce 4096.
                self.max_payload = max(1, min(DEVICE_MAX_PAYLOAD, packet.arg1))
                if self.authenticated:
                    self._connected()
                else:
                    self._challenge()
            case Command.AUTH:
                self._authenticate(packet)
            case Command.OPEN if not self.authenticated:
                # adbd serves nothing to a host it has not let in; the host is told the stream is refused.
                log.info("%s: refusing service before authentication", self.name)
                self.send(Packet(Command.CLSE, 0, packet.arg0))
            case Command.OPEN:
                self._open(packet.arg0, packet.payload.rstrip(b"\0").decode("utf-8", "replace"))
            case Command.OKAY:
                if (stream := self._stream(packet.arg1)) is not None:
                    stream._acknowledged()
            case Command.WRTE:
                if (stream := self._stream(packet.arg1)) is not None:
                    # OKAY first: the service, woken by the data, must not answer before it.
                    self.send(Packet(Command.OKAY, stream.local_id, stream.remote_id))
                    stream._deliver(packet.payload)
            case Command.CLSE:
                if (stream := self._stream(packet.arg1)) is not None:
                    self.forget(stream)
                    stream._remote_close()
            case _:
                # STLS/SYNC are never needed: we do not ask for them, so a host does not send them.
                log.debug("%s: ignoring %s", self.name, packet.command.name)

    def _connected(self) -> None:
        self.send(Packet(Command.CNXN, PROTOCOL_VERSION, DEVICE_MAX_PAYLOAD, self._banner))

    def _challenge(self) -> None:
        """A new token for the host to sign: after its CNXN, and after each signature that did not verify."""
        self._token = new_token()
        self.send(Packet(Command.AUTH, AuthKind.TOKEN, 0, self._token))

    def _authenticate(self, packet: Packet) -> None:
        """The host's answer to our token: a signature, or (out of keys that sign) its public key."""
        if self._keys is None or self.authenticated or not self._token:
            log.debug("%s: ignoring AUTH %d: no authentication under way", self.name, packet.arg0)
            return
        if packet.arg0 == AuthKind.SIGNATURE:
            if self._keys.signed_by_one(self._token, packet.payload):
                log.info("%s: host authenticated by signature", self.name)
                self._let_in()
            else:
                log.debug("%s: signature does not verify against an authorized key", self.name)
                self._challenge()
        elif packet.arg0 == AuthKind.RSAPUBLICKEY:
            shown = fingerprint(packet.payload.split(b"\0", 1)[0].decode("ascii", "replace"))
            if self._keys.allows(packet.payload):
                log.info("%s: host authenticated by its public key %s", self.name, shown)
                self._let_in()
            else:
                # As a phone whose owner never allows the key: the host lists the device as unauthorized.
                log.info(
                    "%s: host key %s is not authorized; the connection stays unauthorized", self.name, shown
                )
        else:
            log.debug("%s: ignoring AUTH %d from the host", self.name, packet.arg0)

    def _let_in(self) -> None:
        self.authenticated = True
        self._token = b""
        self._connected()

    def _stream(self, local_id: int) -> Stream | None:
        with self._lock:
            return self._streams.get(local_id)

    def _open(self, remote_id: int, service: str) -> None:
        handler = self._resolve(service)
        if handler is None:
            log.debug("%s: refusing service %r", self.name, service)
            self.send(Packet(Command.CLSE, 0, remote_id))
            return
        # Under the lock, so a stream is either seen by _shutdown_streams with its thread, or never opened.
        with self._lock:
            if self._closing:
                return
            local_id = self._next_id
            self._next_id += 1
            stream = Stream(self, local_id, remote_id, service)
            self._streams[local_id] = stream
            self._threads = [t for t in self._threads if t.is_alive()]
            thread = threading.Thread(
                target=self._run_service,
                args=(handler, stream),
                name=f"{self.name}/{service[:40]}",
                daemon=True,
            )
            self.send(Packet(Command.OKAY, local_id, remote_id))  # before the service can write
            thread.start()
            self._threads.append(thread)

    def _run_service(self, handler: ServiceHandler, stream: Stream) -> None:
        try:
            handler(stream)
        except StreamClosed as exc:
            log.debug("%s: %s", self.name, exc)
        except Exception:
            # A bug in one emulated service must not take the device offline; the host sees the stream close.
            log.exception("%s: service %r failed", self.name, stream.service)
        finally:
            try:
                stream.close()
            except StreamClosed as exc:
                log.debug("%s: %s", self.name, exc)

    def _shutdown_streams(self) -> None:
        with self._lock:
            self._closing = True
            streams = list(self._streams.values())
            threads = list(self._threads)
        for stream in streams:
            stream._remote_close()
        for thread in threads:
            thread.join(STREAM_JOIN_TIMEOUT)
            if thread.is_alive():
                log.warning("%s: stream thread %s did not end", self.name, thread.name)
