"""The adbd transport and server lifecycle, driven by a minimal host written here (no adb binary), the
JSON-RPC error paths, and the `python -m fairy_virtual serve` command line."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest
from wire_helpers import FOOD_APP, REPO

from fairy_virtual import VirtualDevice
from fairy_virtual.wire import WireServer, serve
from fairy_virtual.wire.packets import Command, Packet, read_packet
from fairy_virtual.wire.system import AndroidSystem
from fairy_virtual.wire.u2server import UiautomatorServer

HOST_BANNER = b"host::features=shell_v2,cmd,stat_v2\0"
# How long the flow-control test listens for a WRTE that must not come.
QUIET_SECONDS = 0.3


class Host:
    """The host side of the adbd protocol, just enough to test the device side."""

    def __init__(self, port: int, maxdata: int = 4096) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.send(Packet(Command.CNXN, 0x01000001, maxdata, HOST_BANNER))
        reply = self.receive()
        assert reply.command is Command.CNXN
        self.banner = reply.payload.decode()

    def send(self, packet: Packet) -> None:
        self.sock.sendall(packet.encode())

    def receive(self) -> Packet:
        packet = read_packet(self.sock)
        assert packet is not None, "device closed the connection"
        return packet

    def open(self, local_id: int, service: str) -> Packet:
        self.send(Packet(Command.OPEN, local_id, 0, service.encode() + b"\0"))
        return self.receive()

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def server() -> Iterator[WireServer]:
    device = VirtualDevice(FOOD_APP, latency=False)
    device.launch(device.app_model.app.package)
    with WireServer(device) as running:
        yield running


def test_banner_names_the_product_and_features(server: WireServer) -> None:
    host = Host(server.port)
    assert host.banner.startswith("device::ro.product.name=panther;ro.product.model=Pixel 7;")
    assert "features=shell_v2,cmd,stat_v2" in host.banner
    host.close()


def test_unknown_service_and_interactive_shell_are_refused(server: WireServer) -> None:
    host = Host(server.port)
    for local_id, service in enumerate(["jdwp:1234", "shell:", "tcp:9008", "reverse:list-forward"], start=7):
        assert host.open(local_id, service) == Packet(Command.CLSE, 0, local_id)
    host.close()


def test_shell_v1_stream_writes_and_closes(server: WireServer) -> None:
    host = Host(server.port)
    okay = host.open(5, "shell:echo hi")
    assert okay.command is Command.OKAY and okay.arg1 == 5
    device_id = okay.arg0
    assert host.receive() == Packet(Command.WRTE, device_id, 5, b"hi\n")
    host.send(Packet(Command.OKAY, 5, device_id))
    assert host.receive() == Packet(Command.CLSE, device_id, 5)
    host.close()


def test_one_unacknowledged_write_per_stream(server: WireServer) -> None:
    host = Host(server.port, maxdata=4096)
    device_id = host.open(9, "exec:screencap -p").arg0
    first = host.receive()
    assert first.command is Command.WRTE and len(first.payload) == 4096
    host.sock.settimeout(QUIET_SECONDS)
    with pytest.raises(TimeoutError):
        host.receive()  # nothing more until we acknowledge
    host.sock.settimeout(5)
    host.send(Packet(Command.OKAY, 9, device_id))
    assert host.receive().command is Command.WRTE
    host.close()


def test_host_writes_are_acknowledged(server: WireServer) -> None:
    host = Host(server.port)
    device_id = host.open(3, "sync:").arg0
    host.send(Packet(Command.WRTE, 3, device_id, b"STAT" + (4).to_bytes(4, "little") + b"/bad"))
    assert host.receive() == Packet(Command.OKAY, device_id, 3)
    reply = host.receive()
    assert reply.command is Command.WRTE and reply.payload == b"STAT" + bytes(12)
    host.close()


def test_stop_ends_every_server_thread(server: WireServer) -> None:
    hosts = [Host(server.port), Host(server.port)]
    system = server.system
    system.fs.write("/data/local/tmp/u2.jar", b"jar")
    hosts[0].open(1, "shell:CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main")
    prefix = f"wire:{server.port}:"
    assert any(t.name.startswith(prefix) for t in threading.enumerate())
    server.stop()
    assert [t.name for t in threading.enumerate() if t.name.startswith(prefix)] == []
    assert system.listener_ports() == []
    for host in hosts:
        host.close()


def test_several_servers_listen_on_their_own_ports() -> None:
    devices = [VirtualDevice(FOOD_APP, serial=f"v{i}", latency=False) for i in range(3)]
    with serve(devices[0]) as a, serve(devices[1]) as b, serve(devices[2]) as c:
        assert len({a, b, c}) == 3
        hosts = [Host(port) for port in (a, b, c)]
        assert all("features=" in host.banner for host in hosts)
        for host in hosts:
            host.close()


@pytest.fixture
def rpc() -> UiautomatorServer:
    device = VirtualDevice(FOOD_APP, latency=False)
    device.launch(device.app_model.app.package)
    return UiautomatorServer(AndroidSystem(device))


def _call(rpc: UiautomatorServer, method: str, *params: object) -> dict[str, object]:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode()
    return rpc.handle_jsonrpc(body)


def test_jsonrpc_errors_are_errors_not_fake_results(rpc: UiautomatorServer) -> None:
    assert rpc.handle_jsonrpc(b"{not json")["error"]["code"] == -32700  # type: ignore[index]
    assert rpc.handle_jsonrpc(b"[1, 2]")["error"]["code"] == -32600  # type: ignore[index]
    assert _call(rpc, "injectInputEvent")["error"]["code"] == -32601  # type: ignore[index]
    assert _call(rpc, "click", 1, 2, 3, 4)["error"]["code"] == -32602  # type: ignore[index]
    assert _call(rpc, "pressKey", "teleport")["error"]["code"] == -32602  # type: ignore[index]
    assert _call(rpc, "objInfo", {"mask": 1, "colour": "red"})["error"]["code"] == -32602  # type: ignore[index]
    missing = _call(rpc, "objInfo", {"mask": 1, "text": "没有"})["error"]
    assert missing["code"] == -32002 and "UiObjectNotFoundException" in missing["message"]  # type: ignore[index]


def test_jsonrpc_selectors_resolve_over_the_dump(rpc: UiautomatorServer) -> None:
    info = _call(rpc, "objInfo", {"mask": 1, "text": "到店取餐"})["result"]
    assert info["resourceName"] == "com.mcdonalds.gma.cn:id/btn_pickup"  # type: ignore[index]
    assert _call(rpc, "count", {"mask": 0x10, "className": "android.widget.TextView",
                                "textMatches": "首页|点餐"})["result"] == 2
    assert _call(rpc, "exist", {"resourceIdMatches": ".*:id/tab_.*", "instance": 3})["result"] is True
    assert _call(rpc, "exist", {"resourceIdMatches": ".*:id/tab_.*", "instance": 4})["result"] is False
    assert _call(rpc, "waitForExists", {"text": "到店取餐"}, 1)["result"] is True
    assert _call(rpc, "click", {"text": "到店取餐"})["result"] is True
    assert _call(rpc, "exist", {"text": "麦当劳 1 号店"})["result"] is True


@contextlib.contextmanager
def served(*options: str) -> Iterator[str]:
    """`python -m fairy_virtual serve OPTIONS` running; yields the line it prints, then stops it with SIGTERM
    and checks it exits 0."""
    command = [sys.executable, "-m", "fairy_virtual", "serve", *options, "--port", "0", "--no-latency"]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        yield process.stdout.readline()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_serve_command_prints_where_it_listens_and_stops_on_sigterm() -> None:
    with served("--app", str(FOOD_APP), "--serial", "cli") as line:
        match = re.search(r"on 127\.0\.0\.1:(\d+); run: adb connect 127\.0\.0\.1:(\d+)", line)
        assert match is not None and match.group(1) == match.group(2), line
        host = Host(int(match.group(1)))
        assert "ro.product.model=" in host.banner
        host.close()


def test_serve_command_serves_one_phone_with_several_apps() -> None:
    with served("--app", str(FOOD_APP), "--app", str(REPO / "example_suites" / "notes")) as line:
        assert "(com.mcdonalds.gma.cn, com.example.notes) on 127.0.0.1:" in line, line


def test_serve_command_rejects_a_missing_app() -> None:
    result = subprocess.run([sys.executable, "-m", "fairy_virtual", "serve", "--app", "/nonexistent"],
                            cwd=REPO, capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "error:" in result.stderr
