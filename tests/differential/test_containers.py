"""Lists, dicts and sets created inside the frame and mutated there: append, pop, insert, remove,
extend, sort, reverse, item assignment/deletion; dict update/pop/setdefault/del/popitem; set
add/discard/update."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.differential.helpers import FAST, check
from tests.differential.strategies import small_ints, tensor_lists, tensors


def list_mutations(x, n):
    items = [x, x + 1]
    items.append(x * 2)
    items.insert(0, n)
    items.insert(1, "mid")
    items.extend([n + 1, n + 2])
    items.extend(range(2))
    last = items.pop()
    first = items.pop(0)
    items.remove("mid")
    items[0] = items[0] - 1
    items[-1] = last
    del items[1]
    items += [first]
    return items, last, first, len(items)


def list_sort_reverse(ns):
    a = list(ns)
    a.sort()
    b = list(ns)
    b.sort(reverse=True)
    c = [n * 2 for n in ns]
    c.reverse()
    d = list(ns)
    d[1:3] = [100]
    del d[:1]
    return a, b, c, d, a.index(a[0]) if a else None, a.count(0), ns


def list_of_tensors_mutations(xs):
    out = []
    for x in xs:
        out.append(x * 2)  # noqa: PERF401
    if out:
        out[0] = out[0] + 1
        out.pop()
    out.insert(0, sum(xs, 0))
    out.reverse()
    return out


def dict_mutations(x, k):
    d = {"a": x, "b": k}
    d["c"] = x + k
    d.update({"d": 1}, e=2)
    d.update([("f", 3)])
    popped = d.pop("b")
    missing = d.pop("zzz", None)
    got = d.setdefault("g", x * 0)
    again = d.setdefault("a", 99)
    del d["d"]
    last = d.popitem()
    d["a"] = d["a"] * 2
    return d, popped, missing, got, again, last, list(d), d.get("c"), d.get("nope", -1)


def dict_views_and_copy(k):
    d = {i: i * k for i in range(4)}
    e = d.copy()
    e[10] = 0
    d.clear()
    return d, e, list(e.keys()), list(e.values()), list(e.items()), "x" in e, 10 in e


def set_mutations(ns, k):
    s = set()
    for n in ns:
        s.add(n % 5)
    s.add(k % 5)
    s.discard(0)
    s.discard(42)
    s.update([1, 2], {3})
    t = {4, 5}
    return sorted(s), len(s), 3 in s, sorted(s | t), sorted(s & t), sorted(s - t)


def nested_container_mutations(xs):
    table = {"rows": [], "meta": {"count": 0}}
    for x in xs:
        table["rows"].append(x)
        table["meta"]["count"] += 1
    table["rows"].append([])
    table["rows"][-1].append(len(xs))
    return table


def list_aliasing_inside(x):
    a = [x]
    b = a
    b.append(x + 1)
    c = a[:]
    c.append(0)
    return a, b, c, a is b


@FAST
@given(x=tensors(), n=small_ints)
def test_list_mutations(x, n):
    check(list_mutations, x, n)


@FAST
@given(ns=st.lists(small_ints, max_size=6))
def test_list_sort_reverse(ns):
    check(list_sort_reverse, ns)


@FAST
@given(xs=tensor_lists())
def test_list_of_tensors_mutations(xs):
    check(list_of_tensors_mutations, xs)


@FAST
@given(x=tensors(), k=small_ints)
def test_dict_mutations(x, k):
    check(dict_mutations, x, k)


@FAST
@given(k=small_ints)
def test_dict_views_and_copy(k):
    check(dict_views_and_copy, k)


@FAST
@given(ns=st.lists(small_ints, max_size=6), k=small_ints)
def test_set_mutations(ns, k):
    check(set_mutations, ns, k)


@FAST
@given(xs=tensor_lists())
def test_nested_container_mutations(xs):
    check(nested_container_mutations, xs)


@FAST
@given(x=tensors())
def test_list_aliasing_inside(x):
    check(list_aliasing_inside, x)
