"""The corpus of real code (issue 22): `sources.py` lists the calls, `python -m tests.corpus`
(`make corpus`) runs them all and writes corpus/report.md, `test_corpus.py` runs them in CI."""
