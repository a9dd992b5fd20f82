"""The ops model code needs, against numpy and against real torch (same inputs, values within
1e-6 absolute for elementwise ops and 1e-5 for composed ones), and the in-place semantics:
writes through views, version counters, grad mode."""

from __future__ import annotations

import math
import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tracer.runtime as rt
from tests.real_torch import real_torch

X = [[0.5, -1.25, 2.0, 0.0], [3.0, -0.75, 1.5, -2.5], [0.25, 1.0, -3.0, 0.125]]
W = [[0.1, -0.2, 0.3, 0.4], [-0.5, 0.6, 0.7, -0.8]]
B = [0.05, -0.05]
IDX = [2, 0, 1]

Case = Callable[[types.ModuleType, Any, Any, Any, Any], Any]


def _f(lib: types.ModuleType) -> Any:
    return lib.nn.functional


CASES: dict[str, tuple[float, Case]] = {
    "softmax": (1e-6, lambda L, x, w, b, i: L.softmax(x, 1)),
    "softmax_dim0": (1e-6, lambda L, x, w, b, i: x.softmax(0)),
    "log_softmax": (1e-5, lambda L, x, w, b, i: L.log_softmax(x, -1)),
    "F.softmax": (1e-6, lambda L, x, w, b, i: _f(L).softmax(x, dim=1)),
    "F.relu": (0, lambda L, x, w, b, i: _f(L).relu(x)),
    "F.gelu": (1e-6, lambda L, x, w, b, i: _f(L).gelu(x)),
    "F.gelu_tanh": (1e-6, lambda L, x, w, b, i: _f(L).gelu(x, approximate="tanh")),
    "F.silu": (1e-6, lambda L, x, w, b, i: _f(L).silu(x)),
    "F.layer_norm": (1e-5, lambda L, x, w, b, i: _f(L).layer_norm(x, (4,))),
    "F.layer_norm_affine": (
        1e-5,
        lambda L, x, w, b, i: _f(L).layer_norm(x, (4,), w[0], w[1], 1e-3),
    ),
    "F.linear": (1e-6, lambda L, x, w, b, i: _f(L).linear(x, w, b)),
    "F.linear_3d": (
        1e-6,
        lambda L, x, w, b, i: _f(L).linear(x.reshape(3, 2, 2).repeat(1, 1, 2), w),
    ),
    "F.dropout_eval": (0, lambda L, x, w, b, i: _f(L).dropout(x, 0.3, False)),
    "F.cross_entropy": (1e-5, lambda L, x, w, b, i: _f(L).cross_entropy(x, i)),
    "F.cross_entropy_sum": (1e-5, lambda L, x, w, b, i: _f(L).cross_entropy(x, i, reduction="sum")),
    "F.cross_entropy_none": (
        1e-5,
        lambda L, x, w, b, i: _f(L).cross_entropy(x, i, reduction="none"),
    ),
    "F.mse_loss": (1e-6, lambda L, x, w, b, i: _f(L).mse_loss(x, x * 0.5)),
    "F.embedding": (0, lambda L, x, w, b, i: _f(L).embedding(i, x)),
    "F.pad": (0, lambda L, x, w, b, i: _f(L).pad(x, (1, 2, 0, 1), value=9.0)),
    "F.pad_crop": (0, lambda L, x, w, b, i: _f(L).pad(x, (-1, 1))),
    "einsum": (1e-6, lambda L, x, w, b, i: L.einsum("ij,kj->ik", x, w)),
    "einsum_implicit": (1e-6, lambda L, x, w, b, i: L.einsum("ij,jk", x, x.T)),
    "bmm": (1e-6, lambda L, x, w, b, i: L.bmm(x.reshape(3, 2, 2), x.reshape(3, 2, 2))),
    "clamp": (0, lambda L, x, w, b, i: x.clamp(-1, 1)),
    "clamp_min": (0, lambda L, x, w, b, i: L.clamp(x, min=0.5)),
    "clip": (0, lambda L, x, w, b, i: x.clip(max=0.0)),
    "max_dim": (0, lambda L, x, w, b, i: tuple(x.max(1))),
    "min_dim_keepdim": (0, lambda L, x, w, b, i: tuple(L.min(x, 0, keepdim=True))),
    "max_all": (0, lambda L, x, w, b, i: x.max()),
    "max_fields": (0, lambda L, x, w, b, i: (x.max(dim=1).values, x.max(dim=1).indices)),
    "argmax": (0, lambda L, x, w, b, i: x.argmax(1)),
    "argmax_all": (0, lambda L, x, w, b, i: x.argmax()),
    "masked_fill": (0, lambda L, x, w, b, i: x.masked_fill(x > 0, -1.0)),
    "flatten": (0, lambda L, x, w, b, i: x.reshape(3, 2, 2).flatten(1)),
    "view": (0, lambda L, x, w, b, i: x.view(2, 6)),
    "expand": (0, lambda L, x, w, b, i: x[0:1].expand(3, -1)),
    "repeat": (0, lambda L, x, w, b, i: x[:, :2].repeat(2, 1, 2)),
    "chunk": (0, lambda L, x, w, b, i: x.chunk(3, 1)),
    "split": (0, lambda L, x, w, b, i: x.split(1)),
    "split_sizes": (0, lambda L, x, w, b, i: L.split(x, [1, 3], 1)),
    "var": (1e-5, lambda L, x, w, b, i: x.var(1)),
    "var_biased": (1e-5, lambda L, x, w, b, i: x.var(0, unbiased=False)),
    "std": (1e-5, lambda L, x, w, b, i: x.std()),
    "rsqrt": (1e-6, lambda L, x, w, b, i: x.abs().rsqrt()),
    "erf": (1e-6, lambda L, x, w, b, i: L.erf(x)),
    "zeros_dtype": (0, lambda L, x, w, b, i: L.zeros(2, 3, dtype=L.int64)),
    "ones_dtype": (0, lambda L, x, w, b, i: L.ones(2, dtype=L.float64)),
    "to_float64": (0, lambda L, x, w, b, i: x.to(L.float64)),
    "float_long": (0, lambda L, x, w, b, i: x.long().float()),
    "type_as": (0, lambda L, x, w, b, i: x.type_as(i)),
    "numel_size": (0, lambda L, x, w, b, i: (x.numel(), x.size(1), x.size(-2))),
}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):
        return value.tolist(), str(value.dtype).removeprefix("torch.")
    return value


def _close(a: Any, b: Any, tol: float) -> bool:
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_close(x, y, tol) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    if isinstance(a, str | bool):
        return a == b
    return bool(a == b or abs(a - b) <= tol)


def _run(lib: types.ModuleType, case: Case) -> Any:
    return _plain(
        case(
            lib,
            lib.tensor(X),
            lib.tensor(W),
            lib.tensor(B),
            lib.tensor(IDX),
        )
    )


@pytest.mark.parametrize("name", list(CASES))
def test_against_torch(name: str) -> None:
    tol, case = CASES[name]
    expected = _run(real_torch(), case)
    got = _run(rt, case)
    assert _close(got, expected, tol), (got, expected)


# ---------------------------------------------------------------- numpy oracles


def _erf(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return np.vectorize(math.erf)(a)


def test_against_numpy() -> None:
    x, w = np.array(X, dtype=np.float64), np.array(W, dtype=np.float64)
    t, tw = rt.tensor(X), rt.tensor(W)
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(rt.softmax(t, 1).tolist(), e / e.sum(1, keepdims=True), atol=1e-6)
    np.testing.assert_allclose(rt.einsum("ij,kj->ik", t, tw).tolist(), x @ w.T, atol=1e-6)
    np.testing.assert_allclose(t.var(1).tolist(), x.var(1, ddof=1), atol=1e-5)
    np.testing.assert_allclose(t.std(0).tolist(), x.std(0, ddof=1), atol=1e-5)
    gelu = 0.5 * x * (1 + _erf(x / math.sqrt(2)))
    np.testing.assert_allclose(rt.nn.functional.gelu(t).tolist(), gelu, atol=1e-6)
    norm = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(rt.nn.functional.layer_norm(t, (4,)).tolist(), norm, atol=1e-5)
    b3 = x.reshape(3, 2, 2)
    np.testing.assert_allclose(
        rt.bmm(t.view(3, 2, 2), t.view(3, 2, 2)).tolist(), b3 @ b3, atol=1e-5
    )
    assert t.max(1).indices.tolist() == x.argmax(1).tolist()
    assert t.clamp(-1, 1).tolist() == np.clip(np.array(X, dtype=np.float32), -1, 1).tolist()


# ---------------------------------------------------------------- in-place, views, versions


def _inplace_story(lib: types.ModuleType) -> list[Any]:
    """Version counters and values through a series of in-place writes, some through views."""
    x = lib.tensor(X)
    log: list[Any] = [x._version]
    x[0].add_(1)
    log += [x._version, x.tolist()]
    v = x.view(12)
    v.mul_(2)
    log += [x._version, v._version, x.tolist()]
    x.T[1].sub_(1)  # a column through a transposed view
    log += [x._version, x.tolist()]
    d = x.detach()
    d.div_(2)
    log += [x._version, x.tolist()]
    x[1] = 0.5
    x[2, 1:] = lib.tensor([7.0, 8.0, 9.0])
    log += [x._version, x.tolist()]
    x.clamp_(-1, 4).relu_().exp_()
    log += [x._version, x.tolist()]
    e = lib.ones(2, 3)
    e.copy_(lib.tensor([1, 2, 3]))
    e.fill_(2).zero_()
    log += [e._version, e.tolist()]
    r = x.reshape(12)  # contiguous: a view
    r.add_(1)
    log += [x._version, x.tolist()]
    c = x[:, 1:3].reshape(6)  # scattered elements: reshape copies
    c.add_(100)
    log += [x._version, c._version, x.tolist()]
    z = lib.zeros(3)
    z += lib.ones(3)
    z *= 3
    log += [z._version, z.tolist()]
    for a, b in ((lib.ones(3, dtype=lib.int64), 1.5), (lib.ones(3), lib.ones(2, 3))):
        try:
            a.add_(b)
        except RuntimeError as exc:
            log.append(str(exc))
    return log


def test_inplace_semantics_match_torch() -> None:
    got = _inplace_story(rt)
    expected = _inplace_story(real_torch())
    assert _close(got, expected, 1e-5), (got, expected)


def _grad_story(lib: types.ModuleType) -> list[Any]:
    p = lib.ones(2, requires_grad=True)
    log = [lib.is_grad_enabled(), (p * 2).requires_grad]
    with lib.no_grad():
        log += [lib.is_grad_enabled(), (p * 2).requires_grad, p.view(2).requires_grad]
        log.append(p.clone().requires_grad)
        with lib.enable_grad():
            log += [lib.is_grad_enabled(), (p + 1).requires_grad]
        log.append(lib.is_grad_enabled())

    @lib.no_grad()
    def f() -> Any:
        return (p * 3).requires_grad, lib.is_grad_enabled()

    @lib.no_grad
    def g() -> Any:
        return lib.is_grad_enabled()

    log += [f(), g(), lib.is_grad_enabled()]
    with lib.set_grad_enabled(False):
        log.append(lib.is_grad_enabled())
    log.append(lib.is_grad_enabled())
    q = lib.zeros(2)
    q.add_(p)
    log.append(q.requires_grad)
    try:
        lib.ones(2, dtype=lib.int64).requires_grad_()
    except RuntimeError as exc:
        log.append(str(exc))
    return log


def test_grad_mode_matches_torch() -> None:
    assert _grad_story(rt) == _grad_story(real_torch())


# ---------------------------------------------------------------- nn.Module


def _module_story(lib: types.ModuleType) -> list[Any]:
    nn = lib.nn
    model = nn.Sequential(
        nn.Linear(4, 3),
        nn.ReLU(),
        nn.ModuleList([nn.Identity(), nn.Tanh()])[1],
        nn.ModuleDict({"act": nn.SiLU()})["act"],
        nn.LayerNorm(3),
        nn.Dropout(0.5),
        nn.Sigmoid(),
        nn.GELU(),
    )
    log: list[Any] = [repr(model), [n for n, _ in model.named_parameters()]]
    log.append([(k, tuple(v.shape)) for k, v in model.state_dict().items()])
    log.append([type(p).__name__ for p in model.parameters()])
    log.append(model.training)
    model.eval()
    log.append([m.training for m in model.modules()])
    emb = nn.Embedding(5, 3)
    log.append([tuple(emb.weight.shape), emb.weight.requires_grad])
    lin = nn.Linear(3, 2, bias=False)
    log.append([lin.bias, [n for n, _ in lin.named_parameters()]])
    try:
        lin.load_state_dict({})
    except RuntimeError as exc:
        log.append(str(exc))
    result = lin.load_state_dict({"weight": lib.ones(2, 3)})
    log.append([repr(result), lin.weight.tolist(), lin.weight.requires_grad])
    log.append(type(lin.weight * 1).__name__)
    p = nn.Parameter(lib.ones(2))
    log.append(repr(p))
    return log


def test_modules_match_torch() -> None:
    assert _module_story(rt) == _module_story(real_torch())


def test_dropout_in_training_is_seeded_and_scaled() -> None:
    x = rt.ones(200)
    rt.manual_seed(3)
    first = rt.nn.functional.dropout(x, 0.25).tolist()
    rt.manual_seed(3)
    assert rt.nn.Dropout(0.25)(x).tolist() == first
    assert set(first) == {0.0, rt.tensor(1 / 0.75).item()} and 20 < first.count(0.0) < 80
    assert rt.nn.Dropout(0.25).eval()(x) is x


def test_linear_init_bounds() -> None:
    rt.manual_seed(0)
    layer = rt.nn.Linear(16, 32)
    bound = 1 / 4
    assert all(abs(v) <= bound for row in layer.weight.tolist() for v in row)
    assert all(abs(v) <= bound for v in layer.bias.tolist())
    assert max(abs(v) for row in layer.weight.tolist() for v in row) > bound * 0.9
