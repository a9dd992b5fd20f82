"""collections.deque, defaultdict, OrderedDict and Counter, made in the frame and passed in:
each function traces whole (`check` compiles with fullgraph=True) and matches eager Python,
return value, exception and the state of the inputs afterwards (mutation replay)."""

from __future__ import annotations

import collections
from collections import Counter, OrderedDict, defaultdict, deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tracer
from tests.differential.helpers import FAST, check
from tests.differential.strategies import small_ints, tensors
from tracer.testing import assert_same_behavior

keys = st.sampled_from("abcde")


# -- deque -------------------------------------------------------------------------------------
def deque_operations(ns, n):
    d = deque(ns, maxlen=4)
    d.append(n)
    d.appendleft(n + 1)
    d.extend([1, 2])
    d.extendleft((7, 8))
    d.rotate(n)
    first = d.popleft() if d else None
    last = d.pop() if d else None
    d.insert(1, 99) if len(d) < 4 else d.rotate(-1)
    seen = [x * 2 for x in d]
    back = list(reversed(d))
    return d, first, last, seen, back, len(d), d.maxlen, (d[0], d[-1]) if d else (), 99 in d


def deque_of_tensors(x, n):
    d = collections.deque()
    d.append(x)
    d.append(x + 1)
    d.appendleft(x * 2)
    d.rotate(n)
    d[0] = d[0] - 1
    return d, d.pop(), list(d)


def deque_errors(n):
    d = deque([1, 2, 3])
    try:
        d[n]
    except IndexError as e:
        caught = str(e)
    else:
        caught = None
    empty = deque()
    try:
        empty.pop()
    except IndexError as e:
        popped = str(e)
    d.remove(2)
    try:
        d.remove(n)
    except ValueError as e:
        removed = str(e)
    else:
        removed = None
    return caught, popped, removed, d, d.count(1), d.index(3)


def deque_input(d, n):
    d.append(n)
    d.rotate(1)
    left = d.popleft()
    return left, len(d)


def deque_mutated_while_iterated():
    d = deque([1, 2, 3])
    for x in d:
        d.append(x)
    return d


def deque_bad_maxlen(n):
    return deque([1], maxlen=n)


@FAST
@given(ns=st.lists(small_ints, max_size=5), n=small_ints)
def test_deque_operations(ns, n):
    check(deque_operations, ns, n)


@FAST
@given(x=tensors(), n=small_ints)
def test_deque_of_tensors(x, n):
    check(deque_of_tensors, x, n)


@pytest.mark.parametrize("n", [0, 5, -4, 2])
def test_deque_errors(n):
    check(deque_errors, n)


@pytest.mark.parametrize("maxlen", [None, 2, 3])
def test_deque_input_is_changed_in_place(maxlen):
    check(deque_input, deque([1, 2, 3], maxlen=maxlen), 9)


def test_deque_mutated_while_iterated():
    check(deque_mutated_while_iterated)


@pytest.mark.parametrize("n", [-1, 2, "x"])
def test_deque_bad_maxlen(n):
    check(deque_bad_maxlen, n)


def test_deque_input_guards_maxlen():
    """Two deques with the same items and different maxlen: the second call misses the guard
    on `maxlen` and recompiles, so `append` drops an item only from the bounded one."""
    fn = tracer.compile(deque_input, fullgraph=True)
    for maxlen in (2, 3):
        compiled, eager = deque([1, 2], maxlen=maxlen), deque([1, 2], maxlen=maxlen)
        assert fn(compiled, 5) == deque_input(eager, 5)
        assert compiled == eager


# -- defaultdict -------------------------------------------------------------------------------
def group_by_first_letter(words):
    groups = defaultdict(list)
    counts = collections.defaultdict(int)
    for w in words:
        groups[w[0]].append(w)
        counts[w[0]] += 1
    missing = groups.get("zz")
    return groups, counts, missing, "zz" in groups, dict(counts), groups.default_factory


def defaultdict_missing(k):
    d = defaultdict(lambda: [k])
    d["a"].append(1)
    made = d.__missing__("b")
    plain = defaultdict()
    try:
        plain[k]
    except KeyError as e:
        error = e.args
    return dict(d), made, error, plain


def defaultdict_input(d, k):
    d[k].append(len(d))
    return d[k], len(d)


def defaultdict_bad_factory():
    return defaultdict(3)


@FAST
@given(words=st.lists(st.text("abc", min_size=1, max_size=3), max_size=6))
def test_defaultdict_groups(words):
    check(group_by_first_letter, words)


@pytest.mark.parametrize("k", ["a", 1])
def test_defaultdict_missing(k):
    check(defaultdict_missing, k)


@pytest.mark.parametrize("k", ["a", "new"])
def test_defaultdict_input_is_changed_in_place(k):
    check(defaultdict_input, defaultdict(list, {"a": [1]}), k)


def test_defaultdict_bad_factory():
    check(defaultdict_bad_factory)


# -- OrderedDict -------------------------------------------------------------------------------
def ordered_operations(ks, x):
    od = OrderedDict.__call__() if False else OrderedDict()
    for i, k in enumerate(ks):
        od[k] = x + i
    if ks:
        od.move_to_end(ks[0])
        od.move_to_end(ks[-1], last=False)
    first = od.popitem(last=False) if od else None
    last = od.popitem() if od else None
    return od, first, last, list(od), list(reversed(od))


def ordered_equality(ks):
    a = OrderedDict((k, 1) for k in ks)
    b = OrderedDict((k, 1) for k in reversed(ks))
    return a == b, dict(a) == dict(b), a == dict(b), a != b


def ordered_errors(k):
    od = OrderedDict(a=1)
    try:
        od.move_to_end(k)
    except KeyError as e:
        moved = e.args
    else:
        moved = None
    od.clear()
    try:
        od.popitem(last=False)
    except KeyError as e:
        popped = e.args
    return moved, popped


def ordered_input(od, k):
    od.move_to_end(k, last=False)
    od["new"] = len(od)
    return od.popitem(last=True)


@FAST
@given(ks=st.lists(keys, unique=True, max_size=5), x=tensors())
def test_ordered_dict_operations(ks, x):
    check(ordered_operations, ks, x)


@FAST
@given(ks=st.lists(keys, unique=True, max_size=4))
def test_ordered_dict_equality_is_order_sensitive(ks):
    check(ordered_equality, ks)


@pytest.mark.parametrize("k", ["a", "b"])
def test_ordered_dict_errors(k):
    check(ordered_errors, k)


@pytest.mark.parametrize("k", ["a", "c"])
def test_ordered_dict_input_is_changed_in_place(k):
    check(ordered_input, OrderedDict(a=1, b=2, c=3), k)


# -- Counter -----------------------------------------------------------------------------------
def counter_operations(words, other):
    c = Counter(words)
    d = Counter(other)
    c.update(["a", "a"])
    c.update({"b": 2})
    c.subtract("ab")
    c["z"] += 1
    total = c.total()
    common = c.most_common()
    top = c.most_common(2)
    arithmetic = (c + d, c - d, c | d, c & d, +c, -c)
    c += d
    c -= Counter(a=1)
    return c, total, common, top, arithmetic, sorted(c.elements()), c["missing"], c == d


def counter_from_mapping(k):
    c = Counter({"a": 3, "b": 1}, b=k)
    return c, c.most_common(1), Counter(a=1) == Counter(a=1, b=0), Counter("hello")


def counter_input(c, words):
    c.update(words)
    c["x"] = 9
    return c.most_common(), len(c)


def counter_errors():
    c = Counter()
    try:
        c.update(3)
    except TypeError as e:
        return str(e), c


@FAST
@given(words=st.lists(keys, max_size=8), other=st.text("abc", max_size=6))
def test_counter_operations(words, other):
    check(counter_operations, words, other)


@pytest.mark.parametrize("k", [0, 2, -3])
def test_counter_from_mapping(k):
    check(counter_from_mapping, k)


@FAST
@given(words=st.lists(keys, max_size=5))
def test_counter_input_is_changed_in_place(words):
    check(counter_input, Counter("abca"), words)


def test_counter_errors():
    check(counter_errors)


# -- found by CPython's test_deque and test_collections (make conformance) ----------------------
def deque_holding_itself():
    d = deque(range(20), maxlen=10)
    d.append(d)
    return repr(d)[-30:], len(d)


def test_deque_holding_itself():
    """Its constant (for the folded `repr`) would hold itself: no constant, a fallback, and
    no RecursionError while tracing (from the tracker's own repr, either)."""
    assert_same_behavior(deque_holding_itself)


def counter_keywords_and_reinit():
    c = Counter(self=42, iterable=None)
    d = Counter("abcaba")
    del d["c"]
    del d["c"]  # Counter's del ignores a missing key
    d.__init__("cdc")  # __init__ again adds to the counts
    return c, d, list(c.items())


def test_counter_keywords_and_reinit():
    check(counter_keywords_and_reinit)


def fromkeys(ks, x):
    od = OrderedDict.fromkeys(ks)
    dd = defaultdict.fromkeys(ks, x)
    od.move_to_end(ks[0]) if ks else None
    try:
        Counter.fromkeys(ks)
    except NotImplementedError as e:
        refused = str(e)
    return od, dd, dd.default_factory, refused


@FAST
@given(ks=st.lists(keys, max_size=4), x=tensors())
def test_fromkeys(ks, x):
    check(fromkeys, ks, x)
