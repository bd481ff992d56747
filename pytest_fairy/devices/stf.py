"""DeviceFarmer / STF as a device provider: `--fairy-device stf+https://stf.example.org?sdk>=30`.

Follows STF's API document (DeviceFarmer/stf lib/units/api/swagger/api_v1.yaml, kept in
tests/devices/data/stf_api_v1.yaml) and its doc/API.md for the `Authorization: Bearer TOKEN` header:

1. `POST /api/v1/user/adbPublicKeys` with the adb server's public key, so the phone's adb proxy lets it in;
2. `GET /api/v1/devices` and a phone whose record meets the requirements and is free: `present`, `ready`,
   not `using` and no `owner` (STF's own test before it books, lib/util/deviceutil.js `isAddable`); the
   document types a device as an object only, so its fields (`abi`, `sdk`, `model`, ...) are STF's
   device records as GET /devices returns them;
3. `POST /api/v1/user/devices {serial, timeout}`: booked with an idle expiry, which STF counts down while
   no adb traffic reaches the phone; a refused booking (403: someone took it first) tries the next phone;
4. `POST /api/v1/user/devices/{serial}/remoteConnect` -> `remoteConnectUrl`, `adb connect`ed and waited
   for until adb lists it as `device`;
5. at the end `adb disconnect`, `DELETE .../remoteConnect` and `DELETE /api/v1/user/devices/{serial}`.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_fairy.devices.adb_server import AdbServerAddress
from pytest_fairy.devices.providers import FarmEntry, FarmRefused, NoFarmDevice, Requirements
from pytest_fairy.errors import DeviceError, FairyError, FairyWarning, UsageError

TOKEN_VARIABLE = "STF_TOKEN"
# STF's idle expiry of a booking: adb traffic (an item, the lease heartbeat, keep_alive's `echo`) resets
# it, so only a runner that died leaves it to run out.
BOOKING_SECONDS = 300.0
# Between two looks at the device list while every matching phone is taken.
POLL_SECONDS = 2.0
HTTP_SECONDS = 15.0
CONNECT_SECONDS = 30.0
# The fields of a device record the booking reads; the rest of a record (screens, browsers, battery)
# is not fetched.
FIELDS = "serial,present,ready,using,owner,abi,sdk,model,manufacturer,version,product,marketName"
REQUIREMENT_KEYS = ("abi", "sdk", "model", "manufacturer", "version", "product", "marketName", "serial")


class StfWarning(FairyWarning):
    """A phone could not be given back to STF cleanly; its booking runs out by its expiry."""


def adb_public_key(home: Path | None = None) -> str | None:
    """The public key the local adb server authenticates with: adb reads `$HOME/.android/adbkey` (adb
    36 consults no other variable for it), and `adb start-server` writes the pair when it is missing."""
    path = (home or Path(os.environ.get("HOME", "") or Path.home())) / ".android" / "adbkey.pub"
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


@dataclass
class StfProvider:
    """One STF farm, for one farm entry of --fairy-device."""

    entry: FarmEntry
    token: str
    adb: AdbServerAddress
    booking_seconds: float = BOOKING_SECONDS
    poll_seconds: float = POLL_SECONDS
    # adb serial (the remoteConnectUrl) -> STF serial, of this process's bookings.
    booked: dict[str, str] = field(default_factory=dict)
    _key_sent: bool = False

    @classmethod
    def from_env(cls, entry: FarmEntry, adb: AdbServerAddress) -> StfProvider:
        token = os.environ.get(TOKEN_VARIABLE, "").strip()
        if not token:
            raise UsageError(
                f"--fairy-device {entry.text}: set {TOKEN_VARIABLE} to an STF access token (STF: Settings > "
                "Keys > Access Tokens); a token is never taken from the command line"
            )
        unknown = [t.key for t in entry.requirements.terms if t.key not in REQUIREMENT_KEYS]
        if unknown:
            raise UsageError(
                f"--fairy-device {entry.text}: STF phones have no {', '.join(unknown)}; "
                f"requirements take {', '.join(REQUIREMENT_KEYS)}"
            )
        return cls(entry, token, adb)

    @property
    def name(self) -> str:
        return f"STF at {self.entry.address}"

    # ---- the provider's calls ---------------------------------------------------------------------

    def check(self) -> None:
        self._call("GET", "/user")

    def book(self, requirements: Requirements, timeout: float) -> str:
        self._send_adb_key()
        deadline = time.monotonic() + timeout
        while True:
            devices = self._call("GET", "/devices", query={"fields": FIELDS}).get("devices", [])
            for device in _free(devices, requirements):
                serial = str(device["serial"])
                if self._take(serial):
                    return self._connect(serial)
            if time.monotonic() >= deadline:
                raise NoFarmDevice(
                    self.entry.text, str(requirements), _why_none(devices, requirements, timeout)
                )
            time.sleep(min(self.poll_seconds, max(0.0, deadline - time.monotonic())))

    def keep_alive(self) -> None:
        """STF's expiry counts idle time on the phone's adb connection: a trivial shell command resets it."""
        for adb_serial in list(self.booked):
            try:
                self.adb.client(HTTP_SECONDS).device(adb_serial).shell(["echo", "ok"], timeout=HTTP_SECONDS)
            except Exception as exc:  # noqa: BLE001 - the item on it says what is wrong; this only keeps alive
                warnings.warn(StfWarning(f"{self.name}: keep {adb_serial} booked: {exc}"), stacklevel=1)

    def release(self, serial: str) -> None:
        stf_serial = self.booked.pop(serial, None)
        if stf_serial is not None:
            self._give_back(stf_serial, serial)

    def _give_back(self, stf_serial: str, adb_serial: str | None) -> None:
        problems = []
        if adb_serial is not None:
            try:
                self.adb.client(HTTP_SECONDS).disconnect(adb_serial)
            except Exception as exc:  # noqa: BLE001 - adb may be gone at the end of a run; STF is asked anyway
                problems.append(f"adb disconnect: {exc}")
        quoted = _quoted(stf_serial)
        for path in (f"/user/devices/{quoted}/remoteConnect", f"/user/devices/{quoted}"):
            try:
                self._call("DELETE", path)
            except (DeviceError, FarmRefused) as exc:
                problems.append(str(exc))
        if problems:
            warnings.warn(
                StfWarning(
                    f"{self.name}: {stf_serial} not given back cleanly ({'; '.join(problems)}); its booking "
                    f"expires after {self.booking_seconds:g} s without adb traffic"
                ),
                stacklevel=1,
            )

    # ---- steps ------------------------------------------------------------------------------------

    def _send_adb_key(self) -> None:
        if self._key_sent:
            return
        key = adb_public_key()
        if key is not None:  # else: it may be in STF already (a remote adb server's key, added by hand)
            self._call("POST", "/user/adbPublicKeys", body={"publickey": key, "title": "pytest_fairy"})
        self._key_sent = True

    def _take(self, serial: str) -> bool:
        """Book `serial`, always with an expiry; False when STF says it is not free (403, 404)."""
        body = {"serial": serial, "timeout": int(self.booking_seconds * 1000)}
        try:
            self._call("POST", "/user/devices", body=body, refusals=(403, 404))
        except _Refused:
            return False
        return True

    def _connect(self, serial: str) -> str:
        """The booked phone reachable through the adb server in use; given back if it does not get there."""
        try:
            answer = self._call("POST", f"/user/devices/{_quoted(serial)}/remoteConnect")
            url = str(answer.get("remoteConnectUrl") or "")
            if not url:
                raise DeviceError(serial, "connect through STF", f"{self.name} sent no remoteConnectUrl")
            self.booked[url] = serial
            client = self.adb.client(CONNECT_SECONDS)
            client.connect(url, timeout=CONNECT_SECONDS)
            # Waited out, `unauthorized` included: STF's remote-connect port (adbkit's tcpusb bridge) answers
            # the host's signature with a new token and lets it in once it has checked the public key adb
            # sends next, so adb lists a phone STF accepts as unauthorized for a moment.
            state = _wait_for_device(client, url)
            if state != "device":
                raise DeviceError(
                    url,
                    f"connect STF phone {serial}",
                    f"adb lists it as {state or 'absent'}"
                    + (
                        f": STF does not know the key the adb server at {self.adb} signs with (this run "
                        "registered $HOME/.android/adbkey.pub of its own user; a server started by another "
                        "user or on another host has its own): add that server's adbkey.pub in STF: "
                        "Settings > Keys > ADB Keys"
                        if state == "unauthorized"
                        else ""
                    ),
                )
            return url
        except BaseException:
            # Ctrl-C or a failure between the booking and the phone: the booking is not left behind.
            connected = next((a for a, s in self.booked.items() if s == serial), None)
            self.booked.pop(connected or "", None)
            self._give_back(serial, connected)
            raise

    def _call(
        self,
        method: str,
        path: str,
        *,
        query: dict[str, str] | None = None,
        body: dict[str, Any] | None = None,
        refusals: tuple[int, ...] = (),
    ) -> dict[str, Any]:
        url = f"{self.entry.address}/api/v1{path}" + (f"?{urllib.parse.urlencode(query)}" if query else "")
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=HTTP_SECONDS) as response:  # noqa: S310 - http(s) only
                raw = response.read()
        except urllib.error.HTTPError as exc:
            detail = _description(exc.read())
            if exc.code == 401:
                raise FarmRefused(
                    f"--fairy-device {self.entry.text}: {self.name} refused {TOKEN_VARIABLE} (401 {detail}): "
                    "create an access token in STF (Settings > Keys > Access Tokens) and set it"
                ) from None
            if exc.code in refusals:
                raise _Refused(exc.code) from None
            raise DeviceError(self.name, f"{method} {path}", f"HTTP {exc.code} {detail}") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            if method == "GET" and path == "/user":
                raise FarmRefused(
                    f"--fairy-device {self.entry.text}: no STF answers there ({reason})"
                ) from None
            raise DeviceError(self.name, f"{method} {path}", str(reason)) from exc
        try:
            answer = json.loads(raw) if raw.strip() else {}
        except ValueError:
            raise DeviceError(self.name, f"{method} {path}", f"not JSON: {raw[:80]!r}") from None
        return answer if isinstance(answer, dict) else {}


class _Refused(FairyError):
    """STF would not book the phone (403, 404): someone else was quicker; the next phone is tried."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _free(devices: list[dict[str, Any]], requirements: Requirements) -> list[dict[str, Any]]:
    return [d for d in devices if _available(d) and requirements.met_by(d)]


def _available(device: dict[str, Any]) -> bool:
    return (
        bool(device.get("present"))
        and bool(device.get("ready"))
        and not device.get("using")
        and not device.get("owner")
    )


def _why_none(devices: list[dict[str, Any]], requirements: Requirements, timeout: float) -> str:
    matching = [d for d in devices if requirements.met_by(d)]
    taken = sum(1 for d in matching if not _available(d))
    return (
        f"none within {timeout:g} s ({len(devices)} phones listed, {len(matching)} matching"
        + (f", {taken} of them in use or not ready" if matching else "")
        + ")"
    )


def _wait_for_device(client: Any, serial: str) -> str:
    """The state adb lists `serial` in once it settles (`device`), or its last state after CONNECT_SECONDS."""
    deadline = time.monotonic() + CONNECT_SECONDS
    state = ""
    while time.monotonic() < deadline:
        state = next((d.state for d in client.list() if d.serial == serial), "")
        if state == "device":
            return state
        time.sleep(0.2)
    return state


def _description(raw: bytes) -> str:
    try:
        return str(json.loads(raw).get("description", "")) or raw[:80].decode(errors="replace")
    except (ValueError, AttributeError):
        return raw[:80].decode(errors="replace")


def _quoted(serial: str) -> str:
    return urllib.parse.quote(serial, safe="")
