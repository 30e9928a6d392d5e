"""Every notebook in notebooks/ runs top to bottom without errors and draws something.

Executed with nbclient on the ``python3`` kernel of this virtualenv (ipykernel installs
its kernelspec into the venv), with the data directory in a short /tmp path.
"""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_and_shows_a_picture(path, home, monkeypatch):
    monkeypatch.setenv("GRAPHMEM_HOME", str(home))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=120,
        resources={"metadata": {"path": str(path.parent)}},
    )

    started = time.monotonic()
    client.execute()  # raises CellExecutionError on the first failing cell
    took = time.monotonic() - started

    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs)
    assert took < 90, f"{path.name} took {took:.0f}s"


def test_there_is_a_notebook():
    assert NOTEBOOKS
