"""What a DCC host's policy raises and reads, shared by the DCC sides (stdlib only; no DCC
needed). Each DCC keeps its own rules; these are the pieces every host policy has in common: a
refusal naming its rule, a configuration error, the data folder, and the two environment
variables (the data folder, and optional JSON ``{"allow": [...]}`` lifting refusals).
"""

from __future__ import annotations

import json
from typing import Any, List, Mapping, Tuple

from .data_folder import DataFolder
from .errors import HandlerError

POLICY_ERROR_CODE = "POLICY"


class PolicyRefusal(Exception):
    """Refused by the policy; ``rule`` names the rule (what to put in ``allow`` to lift it)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message

    def handler_error(self) -> HandlerError:
        """The call's answer: ``POLICY`` with the message and ``{"rule": rule}``."""
        return HandlerError(POLICY_ERROR_CODE, self.message, {"rule": self.rule})


class PolicyConfigError(ValueError):
    """The policy's data folder or ``allow`` setting is missing or malformed."""


def policy_data_folder(data_dir: Any) -> DataFolder:
    """The ``DataFolder`` of ``data_dir``, or ``PolicyConfigError`` when it is not absolute."""
    try:
        return DataFolder(data_dir)
    except ValueError as error:
        raise PolicyConfigError(str(error)) from None


def read_policy_env(
    env: Mapping[str, str], data_dir_var: str, policy_var: str, allow_example: str = "rule"
) -> Tuple[str, List[Any]]:
    """``(data_dir, allow)`` from ``env[data_dir_var]`` (required) and ``env[policy_var]``
    (optional JSON ``{"allow": [...]}``), or ``PolicyConfigError`` naming the variable that is
    wrong. ``allow_example`` is what an entry is, for the message. Entries are the caller's to
    check."""
    data_dir = env.get(data_dir_var)
    if not data_dir:
        raise PolicyConfigError(f"set {data_dir_var} to the absolute path of the data folder")
    raw = env.get(policy_var)
    if not raw:
        return data_dir, []
    try:
        parsed = json.loads(raw)
    except ValueError as error:
        raise PolicyConfigError(f"{policy_var} is not JSON: {error}") from None
    if not isinstance(parsed, dict) or not isinstance(parsed.get("allow", []), list):
        raise PolicyConfigError(f'{policy_var} must be {{"allow": ["{allow_example}", ...]}}')
    unknown = sorted(set(parsed) - {"allow"})
    if unknown:
        raise PolicyConfigError(f"{policy_var} has unknown keys: {', '.join(unknown)}")
    return data_dir, list(parsed.get("allow", []))
