"""The public surface is deliberate: this list changes only on purpose."""

import graphmem


def test_public_names_are_pinned():
    assert graphmem.__all__ == [
        "SELF",
        "BlockedTask",
        "Card",
        "CardVersion",
        "Category",
        "ConflictError",
        "CycleError",
        "FieldChange",
        "GraphmemError",
        "Memory",
        "NotFoundError",
        "Person",
        "Provenance",
        "RecallHit",
        "RememberResult",
        "Status",
        "StoreError",
        "StoreUnavailableError",
        "Task",
        "TaskStatus",
        "ValidationError",
    ]
    assert all(hasattr(graphmem, name) for name in graphmem.__all__)


def test_errors_form_one_tree():
    for name in (
        "ConflictError",
        "CycleError",
        "NotFoundError",
        "StoreError",
        "StoreUnavailableError",
        "ValidationError",
    ):
        assert issubclass(getattr(graphmem, name), graphmem.GraphmemError)
    assert issubclass(graphmem.CycleError, graphmem.ConflictError)
    assert issubclass(graphmem.StoreUnavailableError, graphmem.StoreError)
