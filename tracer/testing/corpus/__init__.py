"""The corpus of real code (issue 22): functions nobody on the project wrote, each called the
way its own tests call it, run eagerly and compiled, and compared.

`Case` is one call; `run_case` runs it both ways and says how it went (`CaseResult`);
`report` renders the table by source and the fallback reasons. The cases themselves live in
`tests/corpus/` (stdlib modules, vendored benchmark kernels and algorithms), which `make
corpus` runs through `python -m tests.corpus`.
"""

from tracer.testing.corpus.case import Case, CaseResult, run_case, run_cases
from tracer.testing.corpus.report import as_json, markdown

__all__ = ["Case", "CaseResult", "as_json", "markdown", "run_case", "run_cases"]
