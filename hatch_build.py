"""Wheel build hook: the memory explorer page ships as package data.

``make install`` builds it (``npm run build`` into ``graphmem/service/page/``); a wheel
built from a checkout or sdist where it is missing builds it here with the pinned npm
packages (``npm ci``), or, without npm, goes without it (``/ui`` then says how to build).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class ExplorerPage(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        if version == "editable" or (root / "graphmem/service/page/index.html").is_file():
            return
        npm = shutil.which("npm")
        if npm is None or not (root / "package-lock.json").is_file():
            self.app.display_warning("npm not found: this wheel has no memory explorer page")
            return
        if not (root / "node_modules" / ".bin" / "esbuild").exists():
            subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=root, check=True)
        subprocess.run([npm, "run", "build", "--silent"], cwd=root, check=True)
