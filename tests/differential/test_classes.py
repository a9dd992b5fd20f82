"""User classes: instances as inputs (attribute reads, method calls, __call__, properties,
staticmethods, classmethods), and instances created inside the traced function."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

import tracer.runtime as torch
from tests.differential.helpers import FAST, check
from tests.differential.strategies import small_ints, tensors


class Linear:
    scale_default = 2

    def __init__(self, weight, bias, name="lin"):
        self.weight = weight
        self.bias = bias
        self.name = name

    def forward(self, x):
        return x * self.weight + self.bias

    def __call__(self, x):
        return self.forward(x)

    @property
    def doubled(self):
        return self.weight * 2

    @staticmethod
    def combine(a, b):
        return a + b

    @classmethod
    def default_scale(cls, x):
        return x * cls.scale_default

    @classmethod
    def build(cls, w):
        return cls(w, w * 0, name="built")


class Scaled(Linear):
    scale_default = 3

    def forward(self, x):
        return super().forward(x) * self.scale_default


@dataclasses.dataclass
class Pair:
    first: object
    second: object

    def swap(self):
        return Pair(self.second, self.first)

    def total(self):
        return self.first + self.second


class Counter:
    def __init__(self):
        self.count = 0
        self.items = []

    def add(self, x):
        self.count += 1
        self.items.append(x)
        return self


def read_attributes(m, x):
    return m.weight, m.bias + x, m.name, m.scale_default, type(m).__name__


def call_methods(m, x):
    return m.forward(x), m(x), m.doubled, m.combine(x, 1), Linear.combine(x, x)


def call_class_and_static(m, x):
    return m.default_scale(x), Linear.default_scale(x), type(m).default_scale(x)


def create_and_return(x, k):
    lin = Linear(x, k)
    return lin, lin(x)


def create_and_use(x, k):
    built = Linear.build(x)
    scaled = Scaled(k, x)
    return built(x), built.name, scaled(x), isinstance(scaled, Linear)


def dataclass_inside(x, y):
    p = Pair(x, y)
    q = p.swap()
    return q.first, q.total(), p == Pair(x, y) if False else q.second


def mutate_new_object(xs):
    c = Counter()
    for x in xs:
        c.add(x)
    c.add(1).add(2)
    return c.count, c.items, c


def mutate_input_object(m, x):
    m.bias = m.bias + x
    m.name = m.name + "!"
    m.extra = 5
    return m.forward(x)


def class_dispatch(objs, x):
    out = []
    for o in objs:
        if isinstance(o, Scaled):
            out.append(("scaled", o(x)))
        elif isinstance(o, Linear):
            out.append(("linear", o.forward(x)))
        else:
            out.append(("other", o))
    return out


linears = st.builds(
    Linear,
    tensors(dtype=torch.float32, shape=()),
    tensors(dtype=torch.float32, shape=()),
    st.sampled_from(["a", "b"]),
)


@FAST
@given(m=linears, x=tensors(dtype=torch.float32))
def test_read_attributes(m, x):
    check(read_attributes, m, x)


@FAST
@given(m=linears, x=tensors(dtype=torch.float32))
def test_call_methods(m, x):
    check(call_methods, m, x)


@FAST
@given(m=linears | linears.map(lambda lin: Scaled(lin.weight, lin.bias)), x=tensors())
def test_call_class_and_static(m, x):
    check(call_class_and_static, m, x)


@FAST
@given(x=tensors(), k=small_ints)
def test_create_and_return(x, k):
    check(create_and_return, x, k)


@FAST
@given(x=tensors(dtype=torch.float32), k=small_ints)
def test_create_and_use(x, k):
    check(create_and_use, x, k)


@FAST
@given(x=tensors(shape=(2,)), y=tensors(shape=(2,)))
def test_dataclass_inside(x, y):
    check(dataclass_inside, x, y)


@FAST
@given(xs=st.lists(tensors(), max_size=3))
def test_mutate_new_object(xs):
    check(mutate_new_object, xs)


@FAST
@given(m=linears, x=tensors(dtype=torch.float32))
def test_mutate_input_object(m, x):
    check(mutate_input_object, m, x)


@FAST
@given(
    objs=st.lists(st.one_of(linears, small_ints), max_size=3),
    x=tensors(dtype=torch.float32),
)
def test_class_dispatch(objs, x):
    check(class_dispatch, objs, x)
