"""A stand-in for an STF server (DeviceFarmer), held to STF's own API document.

A real STF needs RethinkDB and a provider with USB phones; this serves its REST API from a thread:

- every request is checked against tests/devices/data/stf_api_v1.yaml: its path and method, its query
  parameters, its JSON body (required and known properties, their types) and the `authorization` header
  the document's `accessTokenAuth` asks for, as `Bearer TOKEN` (STF's securityHandlers.js). A request the
  document does not allow is answered 400 and recorded in `violations`; a test asserts there are none;
- bookings follow STF: a phone is bookable while present, ready and without owner (deviceutil.isAddable),
  else 403; a booking's `timeout` (ms) frees the phone after that long without adb traffic (the device's
  group plugin, reset by the remote-connect proxy's `userActivity`); only its owner may connect or free it;
- `remoteConnect` opens a TCP proxy in front of a virtual phone's adbd (`WireServer`), as STF's provider
  does, and answers its address as `remoteConnectUrl`: the real `adb connect` reaches the virtual phone;
- a phone's adbd lets in only an adb server whose key its owner registered (`POST /user/adbPublicKeys`), as
  STF's remote-connect port checks the booking user's keys: any other adb server lists it `unauthorized`.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import yaml

from fairy_virtual import VirtualDevice, VirtualPhone
from fairy_virtual.wire import WireServer

API_DOCUMENT = Path(__file__).resolve().parent / "data" / "stf_api_v1.yaml"
TOKEN = "good-token"
USER = "ci@example.org"
OTHER_TOKEN = "other-token"
OTHER_USER = "someone.else@example.org"
# STF's provider `--group-timeout` default, for a booking that names none.
GROUP_TIMEOUT_MS = 900_000
# What an operation answers: its HTTP status and JSON body.
Answer = tuple[int, dict[str, Any]]
_TYPES = {"string": str, "integer": int, "boolean": bool, "object": dict, "array": list}


class ApiDocument:
    """STF's swagger 2.0 document, asked whether a request is one it describes."""

    def __init__(self, path: Path = API_DOCUMENT) -> None:
        self.spec: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
        self.base = self.spec["basePath"]
        templates = sorted(self.spec["paths"], key=lambda t: t.count("{"))  # literal paths win
        self.routes = [
            (t, re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", t) + "$")) for t in templates
        ]

    def operation(
        self, method: str, raw_path: str, query: dict[str, list[str]], headers: dict[str, str], body: bytes
    ) -> tuple[str, dict[str, str], Any]:
        """(operationId, path parameters, the JSON body) of an allowed request; ValueError saying why not."""
        if not raw_path.startswith(self.base + "/"):
            raise ValueError(f"{raw_path} is outside the basePath {self.base}")
        path = raw_path[len(self.base) :]
        matched = next(((t, m) for t, p in self.routes if (m := p.match(path)) is not None), None)
        if matched is None:
            raise ValueError(f"no path {path} in the document")
        template, found = matched
        operation = self.spec["paths"][template].get(method.lower())
        if not isinstance(operation, dict):
            raise ValueError(f"{method} is not an operation of {template}")
        params = operation.get("parameters", [])
        by_place: dict[str, dict[str, Any]] = {}
        for param in params:
            by_place.setdefault(param["in"], {})[param["name"]] = param
        for name, values in query.items():
            declared = by_place.get("query", {}).get(name)
            if declared is None:
                raise ValueError(f"{method} {template}: no query parameter {name!r}")
            _check_scalar(declared, values[-1], f"query {name}")
        for name, declared in by_place.get("query", {}).items():
            if declared.get("required") and name not in query:
                raise ValueError(f"{method} {template}: query parameter {name!r} is required")
        if operation.get("security"):
            auth = headers.get("authorization", "")
            if not re.fullmatch(r"Bearer \S+", auth):
                raise ValueError(f"{method} {template}: authorization header not 'Bearer TOKEN': {auth!r}")
        parsed = self._body(method, template, by_place.get("body", {}), headers, body)
        return operation["operationId"], found.groupdict(), parsed

    def _body(
        self, method: str, template: str, declared: dict[str, Any], headers: dict[str, str], body: bytes
    ) -> Any:
        where = f"{method} {template}"
        if not declared:
            if body:
                raise ValueError(f"{where} takes no body, got {body[:60]!r}")
            return None
        param = next(iter(declared.values()))
        if not body:
            if param.get("required"):
                raise ValueError(f"{where}: its body is required")
            return None
        if not headers.get("content-type", "").startswith("application/json"):
            raise ValueError(f"{where}: body sent as {headers.get('content-type')!r}, not application/json")
        try:
            value = json.loads(body)
        except ValueError:
            raise ValueError(f"{where}: body is not JSON") from None
        self._check_schema(param["schema"], value, f"{where} body")
        return value

    def _check_schema(self, schema: dict[str, Any], value: Any, where: str) -> None:
        if "$ref" in schema:
            schema = self.spec["definitions"][schema["$ref"].rsplit("/", 1)[-1]]
        kind = schema.get("type", "object" if "properties" in schema else None)
        if kind is not None and not _is_type(value, kind):
            raise ValueError(f"{where}: expected {kind}, got {value!r}")
        if kind == "object" and "properties" in schema:
            for name in schema.get("required", []):
                if name not in value:
                    raise ValueError(f"{where}: {name!r} is required")
            for name, item in value.items():
                if name not in schema["properties"]:
                    raise ValueError(f"{where}: no property {name!r} in the document")
                self._check_schema(schema["properties"][name], item, f"{where}.{name}")


def _is_type(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, _TYPES.get(kind, object))


def _check_scalar(param: dict[str, Any], raw: str, where: str) -> None:
    kind = param.get("type", "string")
    if kind == "integer" and not raw.lstrip("-").isdigit():
        raise ValueError(f"{where}: expected an integer, got {raw!r}")
    if kind == "boolean" and raw not in ("true", "false"):
        raise ValueError(f"{where}: expected a boolean, got {raw!r}")
    if "enum" in param and raw not in param["enum"]:
        raise ValueError(f"{where}: expected one of {param['enum']}, got {raw!r}")


class Relay:
    """STF's remote-connect port: a TCP proxy to the phone's adbd; traffic through it is user activity."""

    def __init__(self, target: tuple[str, int], on_traffic: Any) -> None:
        self.target = target
        self.on_traffic = on_traffic
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.sockets: list[socket.socket] = []
        self.closed = threading.Event()
        threading.Thread(target=self._accept, daemon=True, name="stf-relay").start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.listener.getsockname()[1]}"

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                client, _ = self.listener.accept()
                upstream = socket.create_connection(self.target)
            except OSError:
                return
            self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                self.on_traffic()
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.closed.set()
        # Shut down before closing: a listener closed while a thread waits in accept() goes on accepting.
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        for end in self.sockets:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()


@dataclass
class Phone:
    """One phone of the farm: its STF record and the virtual device behind it."""

    serial: str
    record: dict[str, Any]
    server: WireServer
    owner: str | None = None
    timeout_ms: int = 0
    last_activity: float = 0.0
    relay: Relay | None = None

    @property
    def device(self) -> VirtualDevice | VirtualPhone:
        return self.server.system.device  # type: ignore[return-value]


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    body: Any
    status: int = 0


@dataclass
class StfStandIn:
    phones: dict[str, Phone] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=lambda: {TOKEN: USER, OTHER_TOKEN: OTHER_USER})
    requests: list[Recorded] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    adb_keys: dict[str, list[str]] = field(default_factory=dict)
    # How much faster the farm's clock runs than the test's: at 30, STF's 5-minute expiry passes in 10 s.
    speed: float = 1.0
    # Every address remoteConnect gave, and the phone behind it.
    lent: dict[str, str] = field(default_factory=dict)
    api: ApiDocument = field(default_factory=ApiDocument)

    def __post_init__(self) -> None:
        self._lock = threading.RLock()
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                standin._serve(self)

            do_POST = do_DELETE = do_PUT = do_GET

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base's name
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._stop = threading.Event()
        threading.Thread(target=self.http.serve_forever, daemon=True, name="stf-standin").start()
        threading.Thread(target=self._expire, daemon=True, name="stf-standin-expiry").start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http.server_address[1]}"

    def add_phone(
        self, serial: str, app: Path | Sequence[Path], *, sdk: int = 34, abi: str = "arm64-v8a"
    ) -> Phone:
        """A phone with the app `app` installed, or with each of several apps (a `VirtualPhone`)."""
        apps = [app] if isinstance(app, Path) else list(app)
        several = VirtualPhone(apps, serial=serial, latency=False) if len(apps) > 1 else None
        device = several or VirtualDevice(apps[0], serial=serial, latency=False)
        server = WireServer(device, authorized_keys=lambda: self._owner_keys(serial))
        server.start()
        record = {"serial": serial, "abi": abi, "sdk": str(sdk), "present": True, "ready": True,
                  "model": "Pixel 7", "manufacturer": "Google", "version": "14", "product": "panther"}  # fmt: skip
        self.phones[serial] = phone = Phone(serial, record, server)
        return phone

    def book_as(self, user: str, serial: str, timeout_ms: int = GROUP_TIMEOUT_MS) -> None:
        """Another STF user takes a phone (through STF's UI, say)."""
        with self._lock:
            phone = self.phones[serial]
            phone.owner, phone.timeout_ms, phone.last_activity = user, timeout_ms, time.monotonic()

    def drop(self, serial: str) -> None:
        """The phone drops off the farm (unplugged, its USB hub reset): its adb connection is cut and STF lists
        it as absent; the booking stays until its owner gives it back or it expires."""
        with self._lock:
            phone = self.phones[serial]
            phone.record.update(present=False, ready=False)
            if phone.relay is not None:
                phone.relay.close()
                phone.relay = None

    def _owner_keys(self, serial: str) -> list[str]:
        """The adb keys the phone's adbd lets in now: those its current owner registered; none while free."""
        with self._lock:
            phone = self.phones.get(serial)
            owner = phone.owner if phone is not None else None
            return list(self.adb_keys.get(owner, [])) if owner is not None else []

    def booked(self) -> dict[str, str]:
        """serial -> owner of each booked phone."""
        with self._lock:
            return {s: p.owner for s, p in self.phones.items() if p.owner is not None}

    def stop(self) -> None:
        self._stop.set()
        self.http.shutdown()
        self.http.server_close()
        for phone in self.phones.values():
            if phone.relay is not None:
                phone.relay.close()
            phone.server.stop()

    # ---- the API ------------------------------------------------------------------------------------

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        parts = urllib.parse.urlsplit(handler.path)
        query = urllib.parse.parse_qs(parts.query, keep_blank_values=True)
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in handler.headers.items()}
        recorded = Recorded(handler.command, parts.path, query, None)
        with self._lock:
            self.requests.append(recorded)
        try:
            operation, params, recorded.body = self.api.operation(
                handler.command, parts.path, query, headers, body
            )
        except ValueError as exc:
            with self._lock:
                self.violations.append(str(exc))
            return self._answer(handler, recorded, 400, {"success": False, "description": str(exc)})
        user = self.tokens.get(headers.get("authorization", "").removeprefix("Bearer "))
        if user is None:
            return self._answer(handler, recorded, 401, {"success": False, "description": "Bad Credentials"})
        method = getattr(self, f"_op_{operation}", None)
        if method is None:
            with self._lock:
                self.violations.append(f"{operation}: allowed by the document, not used by a booking")
            return self._answer(handler, recorded, 500, {"success": False, "description": "not modelled"})
        with self._lock:
            status, answer = method(user, params, query, recorded.body)
        self._answer(handler, recorded, status, answer)

    @staticmethod
    def _answer(
        handler: BaseHTTPRequestHandler, recorded: Recorded, status: int, answer: dict[str, Any]
    ) -> None:
        recorded.status = status
        data = json.dumps(answer).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def _op_getUser(self, user: str, *_: Any) -> Answer:
        return 200, {"success": True, "description": "User Information", "user": {"email": user}}

    def _op_getDevices(self, user: str, _p: Any, query: dict[str, list[str]], _b: Any) -> Answer:
        fields = query.get("fields", [""])[-1].split(",") if "fields" in query else None
        devices = []
        for phone in self.phones.values():
            owner = {"email": phone.owner, "name": phone.owner} if phone.owner else None
            record = {**phone.record, "owner": owner, "using": phone.owner == user}
            devices.append({k: v for k, v in record.items() if fields is None or k in fields})
        return 200, {"success": True, "description": "Devices Information", "devices": devices}

    def _op_addUserDevice(self, user: str, _p: Any, _q: Any, body: dict[str, Any]) -> Answer:
        phone = self.phones.get(body["serial"])
        if phone is None:
            return 404, {"success": False, "description": "Unknown device"}
        if not (phone.record["present"] and phone.record["ready"]) or phone.owner is not None:
            return 403, {"success": False, "description": "Device is being used or not available"}
        phone.owner, phone.last_activity = user, time.monotonic()
        phone.timeout_ms = body.get("timeout") or GROUP_TIMEOUT_MS
        return 200, {"success": True, "description": "Device successfully added"}

    def _owned(self, user: str, serial: str) -> Phone | Answer:
        phone = self.phones.get(serial)
        if phone is None:
            return 404, {"success": False, "description": "Unknown device"}
        if phone.owner != user:
            return 403, {"success": False, "description": "Device is not owned by you or is not available"}
        return phone

    def _op_deleteUserDeviceBySerial(self, user: str, params: dict[str, str], *_: Any) -> Answer:
        phone = self._owned(user, params["serial"])
        if not isinstance(phone, Phone):
            return phone
        self._free(phone)
        return 200, {"success": True, "description": "Device successfully removed"}

    def _op_remoteConnectUserDeviceBySerial(self, user: str, params: dict[str, str], *_: Any) -> Answer:
        phone = self._owned(user, params["serial"])
        if not isinstance(phone, Phone):
            return phone
        if phone.relay is None:
            phone.relay = Relay(
                ("127.0.0.1", phone.server.port), lambda: setattr(phone, "last_activity", time.monotonic())
            )
        url = phone.relay.address
        self.lent[url] = phone.serial
        return 200, {"success": True, "description": "Remote Connect Enabled", "remoteConnectUrl": url}

    def _op_remoteDisconnectUserDeviceBySerial(self, user: str, params: dict[str, str], *_: Any) -> Answer:
        phone = self._owned(user, params["serial"])
        if not isinstance(phone, Phone):
            return phone
        if phone.relay is not None:
            phone.relay.close()
            phone.relay = None
        return 200, {"success": True, "description": "Device remote disconnected successfully"}

    def _op_addAdbPublicKey(self, user: str, _p: Any, _q: Any, body: dict[str, Any]) -> Answer:
        self.adb_keys.setdefault(user, []).append(body["publickey"])
        return 200, {"success": True}

    # ---- expiry ---------------------------------------------------------------------------------------

    def _free(self, phone: Phone) -> None:
        phone.owner = None
        if phone.relay is not None:
            phone.relay.close()
            phone.relay = None

    def _expire(self) -> None:
        while not self._stop.wait(0.05):
            with self._lock:
                for phone in self.phones.values():
                    idle = (time.monotonic() - phone.last_activity) * self.speed
                    if phone.owner is not None and idle * 1000 > phone.timeout_ms:
                        self._free(phone)
