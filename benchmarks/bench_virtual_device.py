"""What the adbd wire front costs: dump and screenshot in-process vs over adb + uiautomator2.

    /work/venv/bin/python benchmarks/bench_virtual_device.py [--runs 30] [--app DIR] [--latency]

Serves the app on a free port, starts a private adb server on another free port (never 5037), connects
uiautomator2 through it, and prints the median milliseconds per call of VirtualDevice directly and of u2
over the wire, with the ratio. Model latency is off unless --latency is given, so the figures are the
overhead of the stack itself. Stops the adb server and the wire server at the end; never fails on speed.

Two rows put the figures in context: `GET /ping` sent in one write over a fresh `tcp:9008` stream is the
floor of any u2 call (the adb server's per-connection cost), and `shell getprop` is one adbutils shell call.
u2 itself sends each request's headers and body in two TCP writes, so Nagle's algorithm and the adb
server's delayed ACK add about 40 ms per call on Linux; a phone pays the same.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import adbutils
import uiautomator2 as u2
from timing import median_ms

from fairy_virtual import VirtualDevice
from fairy_virtual.wire import serve

REPO = Path(__file__).resolve().parents[1]
ADB = Path(adbutils.__file__).parent / "binaries" / "adb"
ADB_TIMEOUT = 30
UIAUTOMATOR_PORT = 9008


def raw_ping(device: adbutils.AdbDevice) -> None:
    with device.create_connection(adbutils.Network.TCP, UIAUTOMATOR_PORT) as sock:
        sock.sendall(b"GET /ping HTTP/1.1\r\nHost: device\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    if not answer.endswith(b"pong"):
        raise RuntimeError(f"unexpected /ping answer {answer!r}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def private_adb_server() -> Iterator[int]:
    port = free_port()
    env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(port)}
    subprocess.run(
        [str(ADB), "-P", str(port), "start-server"],
        check=True,
        env=env,
        timeout=ADB_TIMEOUT,
        capture_output=True,
    )
    try:
        yield port
    finally:
        subprocess.run(
            [str(ADB), "-P", str(port), "kill-server"], env=env, timeout=ADB_TIMEOUT, capture_output=True
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--app", type=Path, default=REPO / "example_suites" / "food")
    parser.add_argument("--latency", action="store_true", help="keep the model's per-call latency")
    args = parser.parse_args()

    local = VirtualDevice(args.app, latency=args.latency)
    local.launch(local.app_model.app.package)
    served = VirtualDevice(args.app, latency=args.latency)
    served.launch(served.app_model.app.package)

    with serve(served) as device_port, private_adb_server() as adb_port:
        client = adbutils.AdbClient(port=adb_port)
        serial = f"127.0.0.1:{device_port}"
        client.connect(serial, timeout=ADB_TIMEOUT)
        client.wait_for(serial, state="device", timeout=ADB_TIMEOUT)
        started = time.perf_counter()
        d = u2.connect(client.device(serial))
        connect_ms = (time.perf_counter() - started) * 1000
        device = client.device(serial)
        runs = args.runs
        rows = [
            ("dump_hierarchy", median_ms(local.dump_hierarchy, runs), median_ms(d.dump_hierarchy, runs)),
            ("screenshot", median_ms(local.screenshot, runs), median_ms(d.screenshot, runs)),
            ("GET /ping (raw)", None, median_ms(lambda: raw_ping(device), runs)),
            ("shell getprop", None, median_ms(lambda: device.shell("getprop ro.product.model"), runs)),
        ]
        d.stop_uiautomator(wait=False)
        client.disconnect(serial)

    print(
        f"virtual device, {args.app.name} app, latency {'on' if args.latency else 'off'}, "
        f"median of {args.runs} calls; u2.connect (push u2.jar, start server) took {connect_ms:.0f} ms"
    )
    print(f"{'call':<16} {'in-process ms':>14} {'over adbd+u2 ms':>16} {'ratio':>7}")
    for name, inprocess, wire in rows:
        ratio = f"{wire / inprocess:.1f}x" if inprocess else "-"
        shown = f"{inprocess:.1f}" if inprocess is not None else "-"
        print(f"{name:<16} {shown:>14} {wire:16.1f} {ratio:>7}")


if __name__ == "__main__":
    main()
