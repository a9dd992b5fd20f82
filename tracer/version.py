"""modetrace's version: the one place it is written (pyproject.toml reads it from here), so
code that needs it (CompilationMetrics, the graph cache's key) gets it without a lookup in
the installed packages' metadata."""

__version__ = "0.1.0"
