"""Secrets a spec names (`${SHOP_PASSWORD}`): read from the environment, never written down.

What the explorer, the brain, the reports and the caches ever see of a secret is its placeholder,
`{{SHOP_PASSWORD}}`: a brain types the placeholder, the device seam types the value (`reveal`), and every
dump, log and screen text read back from the device has the values replaced by their placeholders
(`mask`) before anything else reads it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from pytest_fairy.errors import UsageError

# `${NAME}` in a spec: an environment variable's value, kept secret.
SECRET_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
# `{{NAME}}`: what a brain sees and types instead of the value.
PLACEHOLDER = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")
# How a dump writes quotes inside an attribute (besides & < >, which `escape` does).
XML_QUOTES = {'"': "&quot;", "'": "&apos;"}
# Values shorter than this are not masked in text read back (a one-letter value would mask every "a").
MIN_MASKED_CHARS = 3


def placeholder(name: str) -> str:
    return "{{" + name + "}}"


def referenced(texts: Iterable[str]) -> tuple[str, ...]:
    """The secrets `${NAME}` named in `texts`, in order of first mention."""
    found: dict[str, None] = {}
    for text in texts:
        for name in SECRET_REF.findall(text):
            found[name] = None
    return tuple(found)


def as_placeholders(text: str) -> str:
    """`type 密码 = ${SHOP_PASSWORD}` -> `type 密码 = {{SHOP_PASSWORD}}`: what a brain may read."""
    return SECRET_REF.sub(lambda m: placeholder(m.group(1)), text)


@dataclass(frozen=True)
class Secrets:
    """Secret values by name. Empty (`NO_SECRETS`) when the spec names none."""

    values: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, names: Iterable[str], where: str, env: Mapping[str, str] | None = None) -> Secrets:
        """The values of `names` from the environment; a name that is not set is the user's to fix."""
        env = os.environ if env is None else env
        names = list(names)
        missing = [n for n in names if not env.get(n)]
        if missing:
            shown = ", ".join(f"${n}" for n in missing)
            raise UsageError(
                f"{where}: the spec needs {shown}: set {'it' if len(missing) == 1 else 'them'} in the "
                "environment (secrets: their values never reach the brain, the reports or the caches)"
            )
        return cls({n: env[n] for n in names})

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.values)

    def reveal(self, text: str) -> str:
        """The text a device types: placeholders replaced by their values (unknown ones left as they are)."""
        return PLACEHOLDER.sub(lambda m: self.values.get(m.group(1), m.group(0)), text)

    def mask(self, text: str) -> str:
        """Text read back from the device with every value replaced by its placeholder, longest first."""
        for name, value in self._masked():
            text = text.replace(value, placeholder(name))
        return text

    def mask_xml(self, xml: str) -> str:
        """A uiautomator dump with the values masked as they appear in it: escaped as attribute text."""
        for name, value in self._masked():
            for written in sorted({value, escape(value), escape(value, XML_QUOTES)}, key=len, reverse=True):
                xml = xml.replace(written, placeholder(name))
        return xml

    def _masked(self) -> list[tuple[str, str]]:
        kept = [(n, v) for n, v in self.values.items() if len(v) >= MIN_MASKED_CHARS]
        return sorted(kept, key=lambda item: -len(item[1]))

    def __bool__(self) -> bool:
        return bool(self.values)

    def __repr__(self) -> str:  # never the values, even in a traceback's locals
        return f"Secrets({', '.join(self.names)})"


NO_SECRETS = Secrets()
