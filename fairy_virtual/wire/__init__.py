"""The virtual device over the wire: an adbd-protocol server that real adb, adbutils and uiautomator2
drive unmodified. Start one with :func:`serve` (a context manager yielding the port) or
:class:`WireServer`, or from the command line: `python -m fairy_virtual serve --app PATH`.

Its modules import each other directly (`from fairy_virtual.wire.shell import ...`), never through
this package, which only re-exports: a module imported while this file runs would otherwise import it back.
"""

from fairy_virtual.wire.server import WireServer, WireServerError, serve
from fairy_virtual.wire.system import AndroidSystem, WiredDevice

__all__ = ["AndroidSystem", "WireServer", "WireServerError", "WiredDevice", "serve"]
