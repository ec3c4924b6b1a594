"""Coverage for the mutation runner's coverage step, in every Python process it starts.

This directory is on ``PYTHONPATH`` only during that step (``tests/mutation/run.py``), so
Python imports this file at startup in the pytest process, in its xdist workers and in every
subprocess a test starts (``python -m tooldrop``, ``tooldrop serve``, a Python tool's runner)
that keeps the environment. Each measures the mutated modules only and labels what it runs
with the test that started it (``TOOLDROP_MUTATION_CONTEXT``, set by the plugin next to this
file), so a line run only in a subprocess still names the test that reaches it.
"""

import os

if os.environ.get("TOOLDROP_MUTATION_COVERAGE"):
    import coverage

    coverage.Coverage(
        data_file=os.path.join(os.environ["TOOLDROP_MUTATION_COVERAGE"], ".coverage"),
        data_suffix=True,
        auto_data=True,
        config_file=False,
        include=os.environ["TOOLDROP_MUTATION_INCLUDE"].split(os.pathsep),
        context=os.environ.get("TOOLDROP_MUTATION_CONTEXT") or None,
    ).start()
