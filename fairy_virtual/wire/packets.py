"""adbd transport packets: the 24-byte header, the commands, and reading / writing them on a socket.

The header is six little-endian u32: command, arg0, arg1, payload length, payload byte sum,
command ^ 0xffffffff.
Since protocol version 0x01000001 the host does not check the byte sum, but we still send a correct one so
older hosts (adb 29) accept our packets.
"""

from __future__ import annotations

import socket
import struct
from dataclasses import dataclass
from enum import IntEnum

from pytest_fairy.errors import FairyError

HEADER = struct.Struct("<6I")
PROTOCOL_VERSION = 0x01000001
# What we tell the host it may send in one packet; the host's own limit (from its CNXN) bounds what we send.
DEVICE_MAX_PAYLOAD = 256 * 1024
# A host announcing a larger payload than this is not a real adb host; refuse rather than allocate.
MAX_ACCEPTED_PAYLOAD = 1024 * 1024


class Command(IntEnum):
    SYNC = 0x434E5953
    CNXN = 0x4E584E43
    AUTH = 0x48545541
    OPEN = 0x4E45504F
    OKAY = 0x59414B4F
    CLSE = 0x45534C43
    WRTE = 0x45545257
    STLS = 0x534C5453


class ProtocolError(FairyError):
    """The peer sent something that is not an adbd packet."""


@dataclass(frozen=True, slots=True)
class Packet:
    command: Command
    arg0: int
    arg1: int
    payload: bytes = b""

    def encode(self) -> bytes:
        header = HEADER.pack(
            self.command,
            self.arg0,
            self.arg1,
            len(self.payload),
            sum(self.payload) & 0xFFFFFFFF,
            self.command ^ 0xFFFFFFFF,
        )
        return header + self.payload

    def __str__(self) -> str:
        shown = self.payload[:40]
        return f"{self.command.name}({self.arg0:#x}, {self.arg1:#x}, {len(self.payload)}B {shown!r})"


def _read_exact(sock: socket.socket, size: int) -> bytes | None:
    """Exactly `size` bytes, or None when the peer closed before the first byte."""
    chunks = bytearray()
    while len(chunks) < size:
        chunk = sock.recv(size - len(chunks))
        if not chunk:
            if chunks:
                raise ProtocolError(f"connection closed inside a packet ({len(chunks)} of {size} bytes)")
            return None
        chunks += chunk
    return bytes(chunks)


def read_packet(sock: socket.socket) -> Packet | None:
    """The next packet from `sock`, or None at a clean end of stream."""
    header = _read_exact(sock, HEADER.size)
    if header is None:
        return None
    command, arg0, arg1, length, _checksum, magic = HEADER.unpack(header)
    if magic != command ^ 0xFFFFFFFF:
        raise ProtocolError(f"bad packet magic {magic:#x} for command {command:#x}")
    try:
        known = Command(command)
    except ValueError as exc:
        raise ProtocolError(f"unknown packet command {command:#x}") from exc
    if length > MAX_ACCEPTED_PAYLOAD:
        raise ProtocolError(f"{known.name} payload of {length} bytes exceeds {MAX_ACCEPTED_PAYLOAD}")
    payload = _read_exact(sock, length) if length else b""
    if payload is None:
        raise ProtocolError(f"connection closed before the {length}-byte payload of {known.name}")
    return Packet(known, arg0, arg1, payload)
