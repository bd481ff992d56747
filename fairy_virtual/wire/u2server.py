"""The uiautomator2 server of the virtual device: HTTP/1.1 + JSON-RPC over `tcp:9008` streams.

It exists only while an `app_process ... com.wetest.uia2.Main` shell stream runs, as on a phone: before
that, `tcp:9008` is refused, u2's `/ping` fails, and u2 pushes `u2.jar` and starts it itself. JSON-RPC
errors come back with HTTP 200 (a non-200 makes u2 restart the server); unknown methods are errors,
never a pretended success. The server is a process (`ps`): closing its stream or `pkill -f com.wetest.uia2`
ends it, and a wedged one (`AndroidSystem.u2_answers_left`) comes back answering when started again.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from fairy_virtual.wire.selector import SelectorError, describe, find, object_info
from fairy_virtual.wire.shell import Invocation
from fairy_virtual.wire.system import AndroidSystem, ShellProcess
from fairy_virtual.wire.transport import Stream
from pytest_fairy.devices.protocol import Key
from pytest_fairy.errors import DeviceError, FairyError, PerceptionError
from pytest_fairy.perception.hierarchy import Node

log = logging.getLogger(__name__)

U2_MAIN_CLASS = "com.wetest.uia2.Main"
DEFAULT_PORT = 9008
MAX_HEADER_LINE = 8192
MAX_HEADERS = 100
MAX_BODY = 16 * 1024 * 1024
WAIT_POLL_SECONDS = 0.2
# A shell's exit status for a process ended by SIGTERM (pkill's default signal): 128 + 15.
KILLED_EXIT = 143
# One step of a uiautomator swipe lasts about 5 ms.
SWIPE_STEP_SECONDS = 0.005
KEYCODE_DEL = 67
# pressKey names (UiDevice.pressXxx) to key codes.
KEY_NAMES = {
    "home": 3,
    "back": 4,
    "left": 21,
    "right": 22,
    "up": 19,
    "down": 20,
    "center": 23,
    "menu": 82,
    "search": 84,
    "enter": 66,
    "delete": 67,
    "del": 67,
    "recent": 187,
    "volume_up": 24,
    "volume_down": 25,
    "volume_mute": 164,
    "camera": 27,
    "power": 26,
}
_DP_PER_PX = 160 / 440

# JSON-RPC error codes; OBJECT_NOT_FOUND is uiautomator's own for UiObjectNotFoundException.
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
SERVER_ERROR, OBJECT_NOT_FOUND = -32000, -32002
_POLLING_METHODS = {"waitForExists", "waitUntilGone"}
# Reads the device serves side by side (it is thread-safe), as a phone's server answers each on a thread.
_SIDE_BY_SIDE_METHODS = {"dumpWindowHierarchy", "takeScreenshot"}


class RpcError(FairyError):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class UiautomatorServer:
    """Serves u2's HTTP requests for one `AndroidSystem`."""

    def __init__(self, system: AndroidSystem, process: ShellProcess | None = None) -> None:
        self.system = system
        self.device = system.device
        # The `app_process` it runs in (killed by `pkill`); without one, it is never killed.
        self.process = process or ShellProcess(0, U2_MAIN_CLASS)
        self._last_toast: str | None = None
        self._methods: dict[str, Callable[..., Any]] = {
            "dumpWindowHierarchy": self.dump_window_hierarchy,
            "takeScreenshot": self.take_screenshot,
            "click": self.click,
            "longClick": self.long_click,
            "pressKey": self.press_key,
            "pressKeyCode": self.press_key_code,
            "swipe": self.swipe,
            "swipePoints": self.swipe_points,
            "drag": self.swipe,
            "deviceInfo": self.device_info,
            "setClipboard": self.set_clipboard,
            "getClipboard": self.get_clipboard,
            "pasteClipboard": self.paste_clipboard,
            "getLastToast": self.get_last_toast,
            "clearLastToast": self.clear_last_toast,
            "setText": self.set_text,
            "clearTextField": self.clear_text_field,
            "getText": self.get_text,
            "objInfo": self.obj_info,
            "objInfoOfAllInstances": self.obj_info_all,
            "count": self.count,
            "exist": self.exist,
            "waitForExists": self.wait_for_exists,
            "waitUntilGone": self.wait_until_gone,
            "waitForIdle": self.wait_for_idle,
        }

    # ---- HTTP
    def serve(self, stream: Stream) -> None:
        while True:
            try:
                request = self._read_request(stream)
            except ValueError as exc:
                stream.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                log.debug("uiautomator server: bad request: %s", exc)
                return
            if request is None:
                return
            method, path, headers, body = request
            if not self.system.u2_answers(rpc=path == "/jsonrpc/0"):
                while not (stream.closed.wait(WAIT_POLL_SECONDS) or self._ended()):
                    pass  # taken, never answered: until the host gives up or the process is killed
                return
            status, content_type, payload = self._route(method, path, body)
            reason = {200: "OK", 404: "Not Found", 405: "Method Not Allowed"}[status]
            stream.write(
                f"HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\n"
                f"Content-Length: {len(payload)}\r\n\r\n".encode()
                + payload
            )
            if headers.get("connection", "").lower() == "close":
                return

    def _ended(self) -> bool:
        return self.system.stopping.is_set() or self.process.killed.is_set()

    @staticmethod
    def _read_request(stream: Stream) -> tuple[str, str, dict[str, str], bytes] | None:
        line = stream.readline(MAX_HEADER_LINE)
        if not line.strip():
            return None
        words = line.decode("latin-1").split()
        if len(words) != 3:
            raise ValueError(f"bad request line {line[:80]!r}")
        method, path, _version = words
        headers: dict[str, str] = {}
        for _ in range(MAX_HEADERS):
            header = stream.readline(MAX_HEADER_LINE).decode("latin-1").strip()
            if not header:
                break
            name, _, value = header.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        if not 0 <= length <= MAX_BODY:
            raise ValueError(f"request body of {length} bytes (limit {MAX_BODY})")
        return method, path, headers, stream.read_exact(length) if length else b""

    def _route(self, method: str, path: str, body: bytes) -> tuple[int, str, bytes]:
        if path == "/ping":
            return 200, "text/plain", b"pong"
        if path == "/info" and method == "GET":
            return 200, "application/json", json.dumps(self.device_info()).encode()
        if path == "/jsonrpc/0":
            if method != "POST":
                return 405, "text/plain", b"POST only"
            # A lone surrogate (JSON "\ud800": Java strings and Android's clipboard hold UTF-16) is no UTF-8:
            # it goes out as the JSON escape it came in as, so it round-trips as on a phone.
            answer = json.dumps(self.handle_jsonrpc(body), ensure_ascii=False)
            return 200, "application/json", answer.encode("utf-8", errors="backslashreplace")
        return 404, "text/plain", f"no route for {method} {path}".encode()

    def handle_jsonrpc(self, body: bytes) -> dict[str, Any]:
        request_id: Any = None
        try:
            try:
                request = json.loads(body)
            except ValueError as exc:
                raise RpcError(PARSE_ERROR, f"Parse error: {exc}") from exc
            if not isinstance(request, dict) or not isinstance(request.get("method"), str):
                raise RpcError(INVALID_REQUEST, "Invalid Request: expected an object with a method")
            request_id = request.get("id")
            method = self._methods.get(request["method"])
            if method is None:
                raise RpcError(
                    METHOD_NOT_FOUND,
                    f"Method not found: {request['method']} (not implemented by the virtual device)",
                )
            params = request.get("params") or []
            args = params if isinstance(params, list) else []
            if isinstance(params, dict) and params:
                raise RpcError(INVALID_PARAMS, "Invalid params: named params are not supported")
            # Waits poll the device themselves, so other streams may act on it meanwhile; reads go side
            # by side.
            polls = request["method"] in _POLLING_METHODS | _SIDE_BY_SIDE_METHODS
            try:
                result = method(*args) if polls else self.system.call(lambda: method(*args))
            except TypeError as exc:
                raise RpcError(INVALID_PARAMS, f"Invalid params for {request['method']}: {exc}") from exc
            except (SelectorError, ValueError, PerceptionError) as exc:
                raise RpcError(INVALID_PARAMS, f"Invalid params for {request['method']}: {exc}") from exc
            except DeviceError as exc:
                raise RpcError(SERVER_ERROR, str(exc)) from exc
            return {"jsonrpc": "2.0", "id": request_id, "result": result}
        except RpcError as exc:
            return {"jsonrpc": "2.0", "id": request_id, "error": {"code": exc.code, "message": exc.message}}

    # ---- helpers
    def _find(self, selector: dict[str, Any]) -> list[Node]:
        return find(self.system.call(self.device.dump_hierarchy), selector)

    def _one(self, selector: dict[str, Any]) -> Node:
        found = self._find(selector)
        if not found:
            raise RpcError(
                OBJECT_NOT_FOUND,
                "androidx.test.uiautomator.UiObjectNotFoundException: " + describe(selector),
            )
        return found[0]

    def _wait(self, selector: dict[str, Any], timeout_ms: int, present: bool) -> bool:
        deadline = time.monotonic() + max(0, timeout_ms) / 1000
        while True:
            if bool(self._find(selector)) == present:
                return True
            if time.monotonic() >= deadline or self.system.stopping.wait(WAIT_POLL_SECONDS):
                return False

    def _replace_text(self, node: Node, text: str) -> bool:
        if not node.editable:
            return False
        self.device.tap(*node.bounds.center)
        self.device.clear_text()
        if text:
            self.device.type_text(text)
        return True

    # ---- JSON-RPC methods (names as uiautomator2's server has them)
    def dump_window_hierarchy(self, compressed: bool = False, max_depth: int = 50, *_: Any) -> str:
        return self.device.dump_hierarchy()

    def take_screenshot(self, scale: float = 1.0, quality: int = 80) -> str:
        image = self.device.screenshot().convert("RGB")
        if scale != 1:
            image = image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))))
        buffer = io.BytesIO()
        image.save(buffer, format="JPEG", quality=int(quality))
        return base64.b64encode(buffer.getvalue()).decode("ascii")

    def click(self, *args: Any) -> bool:
        if len(args) == 1 and isinstance(args[0], dict):
            self.device.tap(*self._one(args[0]).bounds.center)
        elif len(args) == 2:
            self.device.tap(round(args[0]), round(args[1]))
        elif len(args) == 3:
            self.device.long_tap(round(args[0]), round(args[1]), float(args[2]) / 1000)
        else:
            raise TypeError(f"click takes (selector), (x, y) or (x, y, ms), got {len(args)} params")
        return True

    def long_click(self, selector: dict[str, Any], *_: Any) -> bool:
        self.device.long_tap(*self._one(selector).bounds.center)
        return True

    def press_key(self, name: str) -> bool:
        code = KEY_NAMES.get(str(name).lower())
        if code is None:
            raise ValueError(f"unknown key name {name!r}; known: {', '.join(sorted(KEY_NAMES))}")
        return self.press_key_code(code)

    def press_key_code(self, code: int, meta: int = 0) -> bool:
        keys = {3: Key.HOME, 4: Key.BACK, 66: Key.ENTER}
        if int(code) in keys:
            self.device.press(keys[int(code)])
        else:
            self.device.press_keycode(int(code))
        return True

    def swipe(self, fx: float, fy: float, tx: float, ty: float, steps: int = 10) -> bool:
        self.device.swipe(round(fx), round(fy), round(tx), round(ty), max(1, int(steps)) * SWIPE_STEP_SECONDS)
        return True

    def swipe_points(self, points: list[float], steps: int = 10) -> bool:
        if len(points) < 4 or len(points) % 2:
            raise ValueError("swipePoints wants a flat list x0, y0, x1, y1, ... of at least two points")
        return self.swipe(points[0], points[1], points[-2], points[-1], steps * (len(points) // 2 - 1))

    def wait_for_idle(self, timeout_ms: int = 10_000) -> None:
        """UiDevice.waitForIdle(timeout): returns when the UI settled or the timeout passed; says nothing."""
        self.device.wait_idle(max(0, int(timeout_ms)) / 1000)

    def device_info(self) -> dict[str, Any]:
        width, height = self.device.window_size()
        properties = self.device.properties
        sdk = properties.get("ro.build.version.sdk", "34")
        return {
            "currentPackageName": self.device.current_app().package,
            "displayHeight": height,
            "displayWidth": width,
            "displayRotation": 0,
            "displaySizeDpX": round(width * _DP_PER_PX),
            "displaySizeDpY": round(height * _DP_PER_PX),
            "naturalOrientation": True,
            "productName": properties.get("ro.product.name", ""),
            "screenOn": True,
            "sdkInt": int(sdk) if sdk.isdigit() else 0,
        }

    def get_last_toast(self) -> str | None:
        """The newest toast the watcher saw, kept until cleared (the real server's accessibility watcher
        catches each toast as it shows; here, the toasts on screen when asked)."""
        showing = self.system.call(self.device.toasts)
        if showing:
            self._last_toast = showing[-1]
        return self._last_toast

    def clear_last_toast(self) -> None:
        self._last_toast = None

    def set_clipboard(self, label: str | None, text: str | None) -> None:
        self.system.clipboard = None if text is None else str(text)

    def get_clipboard(self) -> str | None:
        return self.system.clipboard if self.system.clipboard_readable else None

    def paste_clipboard(self) -> None:
        if self.system.clipboard:
            self.device.type_text(self.system.clipboard)

    def set_text(self, selector: dict[str, Any], text: str) -> bool:
        return self._replace_text(self._one(selector), str(text))

    def clear_text_field(self, selector: dict[str, Any]) -> bool:
        return self._replace_text(self._one(selector), "")

    def get_text(self, selector: dict[str, Any]) -> str:
        return self._one(selector).text

    def obj_info(self, selector: dict[str, Any]) -> dict[str, Any]:
        return object_info(self._one(selector))

    def obj_info_all(self, selector: dict[str, Any]) -> list[dict[str, Any]]:
        return [object_info(node) for node in self._find(selector)]

    def count(self, selector: dict[str, Any]) -> int:
        return len(self._find(selector))

    def exist(self, selector: dict[str, Any]) -> bool:
        return bool(self._find(selector))

    def wait_for_exists(self, selector: dict[str, Any], timeout_ms: int = 0) -> bool:
        return self._wait(selector, int(timeout_ms), present=True)

    def wait_until_gone(self, selector: dict[str, Any], timeout_ms: int = 0) -> bool:
        return self._wait(selector, int(timeout_ms), present=False)


def app_process(inv: Invocation) -> int:
    """`CLASSPATH=JAR app_process DIR CLASS [-p PORT]`: the uiautomator2 server, while the stream lives."""
    operands = [a for a in inv.args[1:] if not a.startswith("-D")]
    class_name = operands[1] if len(operands) > 1 else ""
    classpath = [p for p in inv.env.get("CLASSPATH", "").split(":") if p]
    if class_name != U2_MAIN_CLASS or not any(inv.system.fs.stat(p) for p in classpath):
        where = ":".join(classpath) or "(empty)"
        inv.error(f"Error: Could not find class '{class_name}' on CLASSPATH {where}")
        inv.error(f"(the virtual device runs only {U2_MAIN_CLASS}, from a jar pushed to the device)")
        return 1
    options = operands[2:]
    port = int(options[options.index("-p") + 1]) if "-p" in options[:-1] else DEFAULT_PORT
    process = inv.system.spawn(" ".join(inv.args))
    server = UiautomatorServer(inv.system, process)
    try:
        if not inv.system.listen(port, server.serve):
            inv.error(f"java.net.BindException: Address already in use (port {port})")
            return 1
        try:
            inv.system.u2_server_started()
            inv.print(f"[server] INFO: [UiAutomator2Server] Starting Server on port {port}")
            # Until the host closes the stream (u2's stop_uiautomator) or the process is killed (pkill).
            while not (process.killed.wait(WAIT_POLL_SECONDS) or inv.hangup.is_set()):
                pass
        finally:
            inv.system.unlisten(port)
    finally:
        inv.system.exited(process)
    return 0 if inv.hangup.is_set() else KILLED_EXIT
