"""The per-launch token check."""

from __future__ import annotations

import hmac

MIN_TOKEN_LENGTH = 16


def token_matches(given: object, expected: str) -> bool:
    """True when ``given`` is the expected token. Compares in constant time, so the time taken
    says nothing about how much of a wrong token was right."""
    if not isinstance(given, str):
        return False
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))
