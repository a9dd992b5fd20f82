"""`python -m tracer demo`, `python -m tracer explain FILE.py:FUNC --args EXPR` and
`python -m tracer metrics --db PATH summary`."""

from tracer.cli import main

raise SystemExit(main())
