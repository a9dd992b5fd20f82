"""Samples whose bytecode must not be touched by pytest's assertion rewriting (it rewrites
`assert` in test modules, which would hide LOAD_ASSERTION_ERROR)."""


def f_raise(x):
    assert x.shape[0] == 2, "need two"
    if x.shape[0] > 5:
        raise ValueError("too long")
    return x
