"""modetrace: a pure-Python model of Dynamo's tracing machinery for CPython 3.11."""
