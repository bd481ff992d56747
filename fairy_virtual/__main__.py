"""`python -m fairy_virtual serve --app PATH [--app PATH ...] [--port PORT]`: a virtual device for real adb.

    $ python -m fairy_virtual serve --app example_suites/food --port 0
    virtual device 'virtual' (com.mcdonalds.gma.cn) on 127.0.0.1:40123; run: adb connect 127.0.0.1:40123

With several `--app`, one phone with all of them installed (`VirtualPhone`), as a farm's phone has the
apps of every suite that runs on it.

Runs until Ctrl-C or SIGTERM. Then `adb shell`, adbutils and uiautomator2 drive it as a phone.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

from fairy_virtual import AppModelError, VirtualDevice, VirtualPhone
from fairy_virtual.wire import WireServer, WireServerError

# How often the main thread wakes to notice Ctrl-C while it waits.
WAKE_SECONDS = 0.5


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m fairy_virtual",
        description="Serve the virtual Android device over adb's wire protocol.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser(
        "serve",
        help="serve one virtual device until Ctrl-C / SIGTERM",
        description="Example: serve --app example_suites/food --port 0",
    )
    serve.add_argument(
        "--app",
        required=True,
        type=Path,
        action="append",
        help="app model: app.yaml or its directory; again for a phone with several apps installed",
    )
    serve.add_argument(
        "--port",
        type=int,
        default=0,
        help="TCP port on 127.0.0.1 (0 picks a free one; avoid 5555-5585, adb scans them)",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--serial", default="virtual", help="the device's ro.serialno (default: virtual)")
    serve.add_argument("--seed", type=int, default=0, help="random seed of the virtual app (default 0)")
    serve.add_argument(
        "--no-latency", action="store_true", help="answer at once instead of with phone-like delays"
    )
    return parser


def serve(args: argparse.Namespace) -> int:
    options = {"serial": args.serial, "seed": args.seed, "latency": not args.no_latency}
    try:
        device: VirtualDevice | VirtualPhone = (
            VirtualDevice(args.app[0], **options) if len(args.app) == 1 else VirtualPhone(args.app, **options)
        )
    except (AppModelError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server = WireServer(device, host=args.host, port=args.port)
    try:
        server.start()
    except WireServerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    try:
        print(
            f"virtual device {device.serial!r} ({', '.join(_packages(device))}) on {server.address}; "
            f"run: adb connect {server.address}",
            flush=True,
        )
        while not stop.wait(WAKE_SECONDS):
            pass
    finally:
        server.stop()
    return 0


def _packages(device: VirtualDevice | VirtualPhone) -> list[str]:
    if isinstance(device, VirtualPhone):
        return device.apps
    return [device.app_model.app.package]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    return serve(args)


if __name__ == "__main__":
    sys.exit(main())
