"""adbd's authentication of the host: which adb servers a virtual device lets in, as a locked phone does.

A phone with USB debugging on lets in only the adb servers whose public keys it holds (`/data/misc/adb/
adb_keys`). On the host's CNXN it sends `AUTH(TOKEN, 0, 20 random bytes)`; the host answers with
`AUTH(SIGNATURE, 0, sig)` for each private key it has, the token signed as if it were a SHA-1 digest
(`RSA_sign(NID_sha1, token)`: PKCS#1 v1.5 over SHA-1's DigestInfo and the token itself). A signature that
verifies against a held key lets the host in (CNXN); one that does not is answered with a new token. With
no key left, the host sends `AUTH(RSAPUBLICKEY, 0, "BASE64 user@host\\0")` and lists the device as
`unauthorized` until the phone accepts that key (on a phone: the "Allow USB debugging?" prompt).

Here the held keys are given by whoever serves the device: a collection of public keys in adb's
`adbkey.pub` form, or a callable returning the keys authorized *now* (a device farm's registered keys),
asked at each check. Verification is textbook RSA with `pow()`: only public keys are involved.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import struct
from collections.abc import Callable, Collection
from dataclasses import dataclass
from enum import IntEnum

TOKEN_SIZE = 20
# adbd accepts 2048-bit keys only (crypto_utils/android_pubkey: ANDROID_PUBKEY_MODULUS_SIZE).
MODULUS_WORDS = 64
MODULUS_BYTES = MODULUS_WORDS * 4
# The Android RSAPublicKey struct: u32 words, u32 n0inv, u32 n[words], u32 rr[words], u32 exponent.
ENCODED_SIZE = 4 + 4 + MODULUS_BYTES + MODULUS_BYTES + 4
# ASN.1 DigestInfo of a SHA-1 digest, the prefix of what RSA_sign(NID_sha1, ...) pads and signs.
SHA1_DIGEST_INFO = bytes.fromhex("3021300906052b0e03021a05000414")

# Keys the device lets in: fixed, or asked each time (the callable's answer is the set authorized now).
AuthorizedKeys = Collection[str] | Callable[[], Collection[str]]


class AuthKind(IntEnum):
    """The first argument of an AUTH packet."""

    TOKEN = 1
    SIGNATURE = 2
    RSAPUBLICKEY = 3


@dataclass(frozen=True, slots=True)
class AdbPublicKey:
    """One adb public key: its RSA modulus and exponent, and the `user@host` comment after it."""

    modulus: int
    exponent: int
    comment: str = ""

    @classmethod
    def parse(cls, text: str) -> AdbPublicKey:
        """A key as adb writes `adbkey.pub` and sends it: base64 of the RSAPublicKey struct, then
        " user@host"; ValueError when it is not one."""
        encoded, _, comment = text.strip().strip("\0").partition(" ")
        try:
            raw = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise ValueError(f"not base64: {encoded[:24]!r}") from None
        if len(raw) != ENCODED_SIZE:
            raise ValueError(f"{len(raw)} bytes, not the {ENCODED_SIZE} of a 2048-bit adb key")
        (words,) = struct.unpack_from("<I", raw, 0)
        if words != MODULUS_WORDS:
            raise ValueError(f"a modulus of {words} words, not {MODULUS_WORDS}")
        # n is stored as little-endian u32 words, least significant first: the whole is little-endian.
        modulus = int.from_bytes(raw[8 : 8 + MODULUS_BYTES], "little")
        (exponent,) = struct.unpack_from("<I", raw, ENCODED_SIZE - 4)
        if modulus.bit_length() != MODULUS_BYTES * 8 or modulus % 2 == 0 or exponent < 3:
            raise ValueError("not an RSA public key (modulus or exponent out of range)")
        return cls(modulus, exponent, comment.strip())

    def verifies(self, token: bytes, signature: bytes) -> bool:
        """Whether `signature` is this key's `RSA_sign(NID_sha1, token)`, as adbd's RSA_verify checks it."""
        if len(token) != TOKEN_SIZE or len(signature) != MODULUS_BYTES:
            return False
        value = int.from_bytes(signature, "big")
        if value >= self.modulus:
            return False
        message = pow(value, self.exponent, self.modulus).to_bytes(MODULUS_BYTES, "big")
        padding = MODULUS_BYTES - 3 - len(SHA1_DIGEST_INFO) - TOKEN_SIZE
        expected = b"\x00\x01" + b"\xff" * padding + b"\x00" + SHA1_DIGEST_INFO + token
        return hmac.compare_digest(message, expected)


def fingerprint(key: str) -> str:
    """A short name of a key for logs: the MD5 of its struct, as adb and STF show key fingerprints."""
    encoded = key.strip().strip("\0").partition(" ")[0]
    try:
        digest = hashlib.md5(base64.b64decode(encoded), usedforsecurity=False).hexdigest()
    except (binascii.Error, ValueError):
        return "not-a-key"
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


class KeyRing:
    """The keys a device lets in, read afresh at every check (a callable's answer may change)."""

    def __init__(self, keys: AuthorizedKeys) -> None:
        # One key given as a string is that key, not a collection of one-character keys.
        self._keys: AuthorizedKeys = (keys,) if isinstance(keys, str) else keys

    def current(self) -> list[AdbPublicKey]:
        """The authorized keys now; one that is not an adb key is skipped, as adbd skips a bad line."""
        keys = self._keys() if callable(self._keys) else self._keys
        parsed = []
        for text in keys:
            try:
                parsed.append(AdbPublicKey.parse(text))
            except ValueError:
                continue
        return parsed

    def signed_by_one(self, token: bytes, signature: bytes) -> bool:
        """Whether an authorized key made `signature` over `token`."""
        return any(key.verifies(token, signature) for key in self.current())

    def allows(self, offered: bytes) -> bool:
        """Whether the public key a host sent (AUTH RSAPUBLICKEY, NUL-terminated) is authorized now:
        the same RSA key, whatever its comment."""
        try:
            key = AdbPublicKey.parse(offered.split(b"\0", 1)[0].decode("ascii"))
        except (UnicodeDecodeError, ValueError):
            return False
        return any((k.modulus, k.exponent) == (key.modulus, key.exponent) for k in self.current())


def new_token() -> bytes:
    """A fresh challenge for the host to sign, from the OS's random source as adbd reads /dev/urandom."""
    return os.urandom(TOKEN_SIZE)
