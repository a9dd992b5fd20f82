"""The sample gallery: small functions, each showing one capability of modetrace.

Each module groups samples by theme and lists them in its `SAMPLES`; this package joins them in
gallery order. `python -m tracer demo` runs them (samples.gallery).
"""

from samples import basics, breaks, modes, side_effects, structures
from samples.spec import Sample

SAMPLES: list[Sample] = [
    *basics.SAMPLES,
    *side_effects.SAMPLES,
    *modes.SAMPLES,
    *structures.SAMPLES,
    *breaks.SAMPLES,
]

__all__ = ["SAMPLES", "Sample"]
