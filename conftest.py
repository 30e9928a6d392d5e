"""Collection rules for graphmem's own suite (tests/ and the package doctests).

The agent-memory TCK integration needs the kit's package (``tck``), installed only by
``make tck``; without it those modules are not collected for doctests.
"""

import importlib.util

collect_ignore = []
if importlib.util.find_spec("tck") is None:
    collect_ignore += ["graphmem/integrations/agent_memory.py", "graphmem/integrations/bridge.py"]
