"""The graph cache in one process: a hit after `tracer.reset()`, what the key depends on, the
statistics in CompilationMetrics, the phase event and the structured log; and every kind of
bad entry (corrupt, truncated, another version, another key, another backend, a changed byte,
a payload off the schema) is a miss with one warning, the right result, and a fresh entry."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.fused.checking import close
from tests.graph_cache.helpers import entries, read_entry
from tracer import config
from tracer.backends import _plan_from_payload, fused_backend
from tracer.fused import plan_of
from tracer.graph_cache import GraphCacheWarning
from tracer.graph_cache.cached import REFUSED
from tracer.graph_cache.entry import decode, encode, seal
from tracer.observability.trace_log import tracing_to
from tracer.testing import assert_same_behavior


def layer_norm(x: Any) -> Any:
    mu = x.mean(-1, keepdim=True)
    d = x - mu
    return d / ((d * d).mean(-1, keepdim=True) + 1e-5).sqrt() * 2.0 + 0.5


def args() -> tuple[Any, ...]:
    return (torch.arange(12.0).reshape(3, 4) / 3 - 1,)


def compile_once(fn: Callable[..., Any] = layer_norm, backend: Any = "fused") -> Any:
    """A fresh compile of `fn` (nothing kept from an earlier one) and its metrics record."""
    tracer.reset()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tracer.compile(fn, backend=backend)(*args())
    record = tracer.get_compilation_metrics()[-1]
    return result, record, [w for w in caught if issubclass(w.category, GraphCacheWarning)]


def test_a_recompile_after_reset_hits_and_behaves_as_eager(cache_dir: Path) -> None:
    result, miss, _ = compile_once()
    assert miss.inductor_fx_cache_miss_count == 1 and miss.inductor_fx_cache_hit_count is None
    again, hit, caught = compile_once()
    assert hit.inductor_fx_cache_hit_count == 1 and hit.inductor_fx_cache_miss_count is None
    assert hit.inductor_fx_cache_hit_keys == miss.inductor_fx_cache_miss_keys
    assert hit.inductor_fx_cache_backend_type == "local" and caught == []
    assert again.tolist() == result.tolist()
    close(again, layer_norm(*args()))  # eager, within the fused backend's float tolerance


def test_the_saved_time_is_in_the_metrics_and_the_backend_phase_event(cache_dir: Path) -> None:
    compile_once()
    tracer.observability.events.clear_compile_events()
    _, hit, _ = compile_once()
    (entry,) = entries(cache_dir)
    saved = read_entry(entry)["compile_time_us"]
    assert hit.remote_cache_time_saved_us == saved
    (phase,) = [e for e in tracer.get_compile_events() if e.name == "backend_compile"]
    assert phase.metadata["fx_graph_cache"] == "hit"
    assert phase.metadata["fx_graph_cache_key"] == hit.inductor_fx_cache_hit_keys[0]
    assert phase.metadata["time_saved_us"] == saved


def test_hits_and_misses_are_artifacts_of_the_structured_log(
    cache_dir: Path, tmp_path: Path
) -> None:
    with tracing_to(tmp_path / "log") as log:
        compile_once()
        compile_once()
    text = Path(log).read_text()
    assert '"name": "fx_graph_cache_miss"' in text and '"name": "fx_graph_cache_hit"' in text
    assert '"inductor_fx_cache_hit_count": 1' in text  # the compilation_metrics record


def test_the_key_depends_on_shapes_options_and_the_graph(cache_dir: Path) -> None:
    def key_of(fn: Callable[..., Any], x: Any, backend: Any = "fused") -> str:
        tracer.reset()
        tracer.compile(fn, backend=backend)(x)
        record = tracer.get_compilation_metrics()[-1]
        (key,) = record.inductor_fx_cache_miss_keys or record.inductor_fx_cache_hit_keys
        return str(key)

    x = torch.randn(3, 4)
    base = key_of(layer_norm, x)
    assert key_of(layer_norm, torch.randn(3, 4)) == base  # values are not in the key
    assert key_of(layer_norm, torch.randn(4, 4)) != base
    assert key_of(layer_norm, x.double()) != base
    assert key_of(layer_norm, x, fused_backend(reorder_loops=False)) != base
    assert key_of(lambda x: layer_norm(x) + 1.0, x) != base


def test_a_graph_with_a_constant_tensor_is_not_cached(cache_dir: Path) -> None:
    def scaled(x: Any) -> Any:
        return x * torch.ones(4)  # folded into a constant tensor: not data the key can name

    tracer.reset()
    assert_same_behavior(scaled, torch.randn(3, 4), backend="fused")
    record = tracer.get_compilation_metrics()[-1]
    assert (
        record.inductor_fx_cache_miss_count is None and record.inductor_fx_cache_hit_count is None
    )


def test_the_cache_can_be_turned_off(cache_dir: Path) -> None:
    with config.patch(graph_cache=False):
        _, record, _ = compile_once()
    assert record.inductor_fx_cache_miss_count is None and entries(cache_dir) == []


def _truncate(text: str) -> str:
    return text[: len(text) // 2]


def _edit(change: Callable[[dict[str, Any]], None]) -> Callable[[str], str]:
    """An entry changed as a writer would write it (its checksum made again): what another
    version, another key or another backend writes, refused by the check of that field."""

    def edit(text: str) -> str:
        data = json.loads(text)
        change(data)
        del data["checksum"]
        return seal(json.dumps(data, separators=(",", ":")))

    return edit


def _set(field: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.__setitem__(field, value)


def _change_a_kernel_byte(text: str) -> str:
    """Damage: valid JSON, a wrong kernel, the checksum as it was."""
    data = json.loads(text)
    source = data["payload"]["kernels"][0]["source"]
    assert json.dumps(source)[1:-1] in text and "2.0" in source
    changed = source.replace("2.0", "3.0")
    return text.replace(json.dumps(source)[1:-1], json.dumps(changed)[1:-1])


def _change_the_compile_time(text: str) -> str:
    """Damage outside the payload: another time saved, the checksum as it was."""
    saved = json.loads(text)["compile_time_us"]
    return text.replace(f'"compile_time_us":{saved},', f'"compile_time_us":{saved + 1},')


def _off_schema(data: dict[str, Any]) -> None:
    data["payload"]["kernels"][0]["depth"] = "one"  # consistent, but not a plan


def _unknown_global(data: dict[str, Any]) -> None:
    data["payload"]["forward_globals"]["make"] = {
        "kind": "python",
        "module": "os",
        "qualname": "nope",
    }  # passes the schema, fails to load


def _object_global(data: dict[str, Any]) -> None:
    data["payload"]["forward_globals"]["make"] = {"kind": "object", "repr": "<x>"}


BAD_ENTRIES: dict[str, Callable[[str], str]] = {
    "truncated": _truncate,
    "corrupt bytes": lambda text: "\x00\xff" + text[5:],
    "empty": lambda text: "",
    "not an entry": lambda text: json.dumps([1, 2, 3]),
    "foreign modetrace version": _edit(_set("modetrace_version", "0.0.1")),
    "another entry format version": _edit(_set("version", 99)),
    "mismatching key": _edit(_set("key", "fx" + "1" * 32)),
    "another backend": _edit(_set("backend", "inductor")),
    "a changed byte in a kernel": _change_a_kernel_byte,
    "a changed byte in the compile time": _change_the_compile_time,
    "a payload off the plan's schema": _edit(_off_schema),
    "a global that no longer exists": _edit(_unknown_global),
    "a global that is not data": _edit(_object_global),
    "a negative compile time": _edit(_set("compile_time_us", -5)),
    "an unknown field": _edit(_set("pickle", "gASVAAAAAAAAAAA=")),
}


REASONS = {
    "truncated": "checksum does not match",
    "corrupt bytes": "no checksum first",
    "empty": "no checksum first",
    "not an entry": "no checksum first",
    "foreign modetrace version": "written by modetrace '0.0.1'",
    "another entry format version": "entry format version 99",
    "mismatching key": "the entry's key",
    "another backend": "of backend 'inductor'",
    "a changed byte in a kernel": "checksum does not match",
    "a changed byte in the compile time": "checksum does not match",
    "a payload off the plan's schema": "does not fit the plan's schema",
    "a global that no longer exists": "has no attribute 'nope'",
    "a global that is not data": "not data",
    "a negative compile time": "compile_time_us does not fit",
    "an unknown field": "unknown fields ['pickle']",
}


@pytest.mark.parametrize("name", BAD_ENTRIES.keys())
def test_each_bad_entry_is_refused_by_its_own_check(name: str) -> None:
    """The entries edited as a writer would write them carry a checksum that matches, so the
    check of the field they change refuses them; damage fails the checksum."""
    plan = plan_of(tracer.explain(layer_norm, backend="fused")(*args()).graphs[0])
    assert plan is not None
    key = "fx" + "0" * 32
    good = encode(key, "fused", 1234, plan.to_dict())
    assert decode(good, key, "fused")[1] == 1234
    bad = BAD_ENTRIES[name](good).encode("utf-8", "surrogateescape")
    with pytest.raises(REFUSED) as refused:
        _plan_from_payload(decode(bad, key, "fused")[0])
    assert REASONS[name] in str(refused.value)


@pytest.mark.parametrize("damage", BAD_ENTRIES.values(), ids=BAD_ENTRIES.keys())
def test_a_bad_entry_is_a_miss_with_one_warning_and_is_replaced(
    cache_dir: Path, damage: Callable[[str], str]
) -> None:
    expected, _, _ = compile_once(backend="eager")
    compile_once()
    (path,) = entries(cache_dir)
    good = path.read_text()
    path.write_bytes(damage(good).encode("utf-8", "surrogateescape"))

    result, record, caught = compile_once()
    assert record.inductor_fx_cache_miss_count == 1 and record.inductor_fx_cache_hit_count is None
    assert len(caught) == 1 and "not used" in str(caught[0].message)
    close(result, expected)  # the graph compiled afresh, not the damaged kernel
    fresh = read_entry(path)  # a fresh entry replaced the bad one
    assert fresh["payload"] == json.loads(good)["payload"] and fresh["key"] == path.stem
    _, hit, caught = compile_once()
    assert hit.inductor_fx_cache_hit_count == 1 and caught == []


def test_the_metrics_cache_report_sums_hits_and_misses(cache_dir: Path, tmp_path: Path) -> None:
    from tracer.observability.metrics import report

    db = tmp_path / "metrics.db"
    with tracer.metrics_store(db):
        compile_once()
        compile_once()
        compile_once(backend="eager")  # no lookup: adds nothing
    totals = report.report(db, "cache")["backend_cache"]
    assert totals == {"inductor_fx_cache_hit_count": 1, "inductor_fx_cache_miss_count": 1}
