"""adbd's authentication of the host by the virtual device: real `adb connect` to a WireServer that holds
authorized keys, and the packets of the exchange sent by hand where real adb cannot be made to send them.

The tests' adb server runs with a HOME of its own (tests/conftest.py), so the key it signs with is
`adb_server.public_key`; other keys are made by `adb keygen`.
"""

from __future__ import annotations

import base64
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from wire_helpers import ADB_TIMEOUT, FOOD_APP, AdbServer

from fairy_virtual import VirtualDevice
from fairy_virtual.wire import WireServer
from fairy_virtual.wire.auth import TOKEN_SIZE, AdbPublicKey, AuthKind, KeyRing
from fairy_virtual.wire.packets import PROTOCOL_VERSION, Command, Packet, read_packet

pytestmark = pytest.mark.wire

HOST_BANNER = b"host::features=shell_v2,cmd\0"


@pytest.fixture
def other_key(adb_server: AdbServer, tmp_path: Path) -> tuple[Path, str]:
    """A second adb key pair, in adb's own format: (private key file, public key)."""
    private = tmp_path / "other" / "adbkey"
    private.parent.mkdir()
    return private, adb_server.keygen(private)


@pytest.fixture
def servers() -> Iterator[list[WireServer]]:
    started: list[WireServer] = []
    try:
        yield started
    finally:
        for server in started:
            server.stop()


def locked_phone(servers: list[WireServer], keys: object) -> WireServer:
    server = WireServer(VirtualDevice(FOOD_APP, latency=False), authorized_keys=keys)  # type: ignore[arg-type]
    server.start()
    servers.append(server)
    return server


def state_of(adb: AdbServer, serial: str) -> str:
    return next((d.state for d in adb.client.list() if d.serial == serial), "")


def settled_state(adb: AdbServer, serial: str, seconds: float = 10.0) -> str:
    """The state adb lists `serial` in once authentication is over (neither absent nor `authorizing`)."""
    deadline = time.monotonic() + seconds
    state = ""
    while time.monotonic() < deadline:
        state = state_of(adb, serial)
        if state in ("device", "unauthorized"):
            return state
        time.sleep(0.1)
    return state


# ---- real adb ---------------------------------------------------------------------------------------


def test_the_adb_server_with_an_authorized_key_gets_the_device(
    adb_server: AdbServer, servers: list[WireServer]
) -> None:
    server = locked_phone(servers, [adb_server.public_key])
    try:
        adb_server.run("connect", server.address)
        assert settled_state(adb_server, server.address) == "device"
        assert adb_server.client.device(server.address).shell(["echo", "in"], timeout=ADB_TIMEOUT) == "in"
    finally:
        adb_server.run("disconnect", server.address)


def test_an_unknown_key_leaves_the_device_unauthorized_and_no_shell_runs(
    adb_server: AdbServer, servers: list[WireServer], other_key: tuple[Path, str]
) -> None:
    server = locked_phone(servers, [other_key[1]])
    try:
        adb_server.run("connect", server.address)
        assert settled_state(adb_server, server.address) == "unauthorized"
        shell = adb_server.run("shell", "echo", "in", serial=server.address)
        assert shell.returncode != 0 and "unauthorized" in shell.stderr, shell
        assert "in" not in shell.stdout.split()
    finally:
        adb_server.run("disconnect", server.address)


def test_a_key_authorized_afterwards_lets_the_host_in_when_it_connects_again(
    adb_server: AdbServer, servers: list[WireServer]
) -> None:
    authorized: list[str] = []
    server = locked_phone(servers, lambda: authorized)
    try:
        adb_server.run("connect", server.address)
        assert settled_state(adb_server, server.address) == "unauthorized"
        authorized.append(adb_server.public_key)  # the key registered while the host waits
        adb_server.run("disconnect", server.address)
        adb_server.run("connect", server.address)
        assert settled_state(adb_server, server.address) == "device"
        assert adb_server.client.device(server.address).shell(["echo", "in"], timeout=ADB_TIMEOUT) == "in"
    finally:
        adb_server.run("disconnect", server.address)


# ---- the exchange by hand ---------------------------------------------------------------------------


class Host:
    """A bare adb host end of one connection: packets in and out, nothing else."""

    def __init__(self, server: WireServer) -> None:
        self.sock = socket.create_connection((server.host, server.port), timeout=ADB_TIMEOUT)

    def send(self, command: Command, arg0: int, arg1: int = 0, payload: bytes = b"") -> None:
        self.sock.sendall(Packet(command, arg0, arg1, payload).encode())

    def receive(self, seconds: float = 5.0) -> Packet | None:
        """The next packet, or None when none comes within `seconds`."""
        self.sock.settimeout(seconds)
        try:
            return read_packet(self.sock)
        except TimeoutError:
            return None

    def token(self) -> bytes:
        self.send(Command.CNXN, PROTOCOL_VERSION, 4096, HOST_BANNER)
        packet = self.receive()
        assert packet is not None and (packet.command, packet.arg0) == (Command.AUTH, AuthKind.TOKEN), packet
        assert len(packet.payload) == TOKEN_SIZE
        return packet.payload

    def close(self) -> None:
        self.sock.close()


def openssl_sign(private_key: Path, token: bytes, tmp_path: Path) -> bytes:
    """`RSA_sign(NID_sha1, token)` with adb's private key file, by openssl: the token taken as the digest."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to sign with")
    data = tmp_path / "token"
    data.write_bytes(token)
    signed = subprocess.run(
        [
            "openssl",
            "pkeyutl",
            "-sign",
            "-inkey",
            str(private_key),
            "-pkeyopt",
            "digest:sha1",
            "-in",
            str(data),
        ],
        capture_output=True,
        timeout=ADB_TIMEOUT,
        check=True,
    )
    return signed.stdout


def test_a_signature_by_an_authorized_key_is_answered_with_cnxn_and_streams_open(
    adb_server: AdbServer, servers: list[WireServer], other_key: tuple[Path, str], tmp_path: Path
) -> None:
    private, public = other_key
    host = Host(locked_phone(servers, [adb_server.public_key, public]))
    try:
        token = host.token()
        host.send(Command.AUTH, AuthKind.SIGNATURE, 0, b"\1" * 256)  # not a signature: a new token
        again = host.receive()
        assert again is not None and again.command == Command.AUTH and again.arg0 == AuthKind.TOKEN
        assert again.payload != token
        host.send(Command.AUTH, AuthKind.SIGNATURE, 0, openssl_sign(private, token, tmp_path))  # the old one
        stale = host.receive()
        assert stale is not None and stale.arg0 == AuthKind.TOKEN  # only the token last sent counts
        host.send(Command.AUTH, AuthKind.SIGNATURE, 0, openssl_sign(private, stale.payload, tmp_path))
        answer = host.receive()
        assert answer is not None and answer.command == Command.CNXN, answer
        assert answer.payload.startswith(b"device::")
        host.send(Command.OPEN, 7, 0, b"shell:echo in\0")
        opened = host.receive()
        assert opened is not None and (opened.command, opened.arg1) == (Command.OKAY, 7), opened
    finally:
        host.close()


def test_a_public_key_is_let_in_only_while_it_is_authorized_and_nothing_opens_before(
    servers: list[WireServer], other_key: tuple[Path, str]
) -> None:
    _, public = other_key
    authorized: list[str] = []
    server = locked_phone(servers, lambda: authorized)
    host = Host(server)
    try:
        host.token()
        host.send(Command.OPEN, 7, 0, b"shell:echo in\0")
        refused = host.receive()
        assert refused is not None and (refused.command, refused.arg1) == (Command.CLSE, 7), refused
        host.send(Command.AUTH, AuthKind.RSAPUBLICKEY, 0, public.encode() + b"\0")
        assert host.receive(seconds=1.0) is None  # left unauthenticated: the host shows `unauthorized`
        host.send(Command.OPEN, 8, 0, b"shell:echo in\0")
        refused = host.receive()
        assert refused is not None and (refused.command, refused.arg1) == (Command.CLSE, 8), refused
    finally:
        host.close()

    authorized.append(public)  # the key is registered; the host connects and offers it again
    host = Host(server)
    try:
        host.token()
        host.send(Command.AUTH, AuthKind.RSAPUBLICKEY, 0, public.encode() + b"\0")
        answer = host.receive()
        assert answer is not None and answer.command == Command.CNXN, answer
        host.send(Command.OPEN, 9, 0, b"shell:echo in\0")
        opened = host.receive()
        assert opened is not None and (opened.command, opened.arg1) == (Command.OKAY, 9), opened
    finally:
        host.close()


def test_a_device_without_keys_answers_cnxn_at_once(servers: list[WireServer]) -> None:
    server = WireServer(VirtualDevice(FOOD_APP, latency=False))
    server.start()
    servers.append(server)
    host = Host(server)
    try:
        host.send(Command.CNXN, PROTOCOL_VERSION, 4096, HOST_BANNER)
        answer = host.receive()
        assert answer is not None and answer.command == Command.CNXN, answer
    finally:
        host.close()


# ---- the key format ---------------------------------------------------------------------------------


def test_adb_public_keys_are_read_as_adb_writes_them_and_anything_else_refused(
    adb_server: AdbServer, other_key: tuple[Path, str]
) -> None:
    key = AdbPublicKey.parse(adb_server.public_key)
    assert key.modulus.bit_length() == 2048 and key.exponent == 65537 and "@" in key.comment
    assert AdbPublicKey.parse(adb_server.public_key.split()[0]).modulus == key.modulus  # comment optional
    raw = base64.b64decode(adb_server.public_key.split()[0])
    for bad in ("QAAAAFakeKeyForTheStandIn= ci@runner", "not base64!", base64.b64encode(raw[:-4]).decode()):
        with pytest.raises(ValueError):
            AdbPublicKey.parse(bad)
    ring = KeyRing(adb_server.public_key)  # one key given as a string
    assert ring.allows(adb_server.public_key.split()[0].encode() + b" someone@elsewhere\0")
    assert not ring.allows(other_key[1].encode() + b"\0")
    assert not KeyRing(["garbage", other_key[1]]).allows(adb_server.public_key.encode())
