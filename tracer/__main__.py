"""`python -m tracer demo` and `python -m tracer explain FILE.py:FUNC --args EXPR`."""

from tracer.cli import main

raise SystemExit(main())
