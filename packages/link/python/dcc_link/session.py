"""Removal of the Node side's session folder when the Node side cannot do it (it died)."""

from __future__ import annotations

import os
import shutil
from typing import Optional

MARKER = ".dcc-link-session"


def remove_session_dir(path: Optional[str]) -> None:
    """Deletes ``path`` only if it carries the marker file the Node side writes into every
    session folder, so a wrong environment variable cannot make this delete anything else."""
    if not path or not os.path.isfile(os.path.join(path, MARKER)):
        return
    shutil.rmtree(path, ignore_errors=True)
