"""AttrSource and ItemSource hash their fields once, at construction: the stored value must be
the dataclass hash of the fields, so equal sources keep hashing equal however they were built,
copied or compared, and the cache is invisible to equality, printing and pickling."""

import copy
import pickle

from guards.sources import (
    AttrSource,
    DefaultsSource,
    ItemSource,
    LocalSource,
    ModeStackSource,
    TypeSource,
)


def chain(name: str) -> ItemSource:
    return ItemSource(TypeSource(AttrSource(DefaultsSource(LocalSource(name), 0), "a")), "k")


def test_equal_chains_hash_equal_before_and_after_caching() -> None:
    first, second = chain("x"), chain("x")
    assert first == second and first is not second
    assert hash(first) == hash(second) == hash(first)
    assert hash(first.base) == hash(second.base)
    assert {first: 1}[second] == 1
    assert chain("x") != chain("y")
    assert ModeStackSource(1) == ModeStackSource(1) and hash(ModeStackSource(1)) == hash(
        ModeStackSource(1)
    )


def test_cached_hash_is_the_field_hash() -> None:
    source = chain("x")
    fields = (source.base, source.exact_key)
    assert hash(source) == hash(fields)
    assert hash(source) == hash(fields)  # the stored answer
    attr = source.base.base
    assert hash(attr) == hash((attr.base, attr.member))


def test_cache_is_invisible() -> None:
    source = chain("x")
    hash(source)
    assert repr(source) == "type(L['x'].__defaults__[0].a)['k']"
    for clone in (copy.copy(source), copy.deepcopy(source), pickle.loads(pickle.dumps(source))):
        assert clone == source and hash(clone) == hash(source)
    assert ItemSource(LocalSource("x"), 1) != ItemSource(LocalSource("x"), True)


def test_item_keys_are_keyed_exactly_like_constants() -> None:
    from guards.constants import constant_key

    for key in (0, -3, 2**70, "", "k", True, None, 1.5, (1, "a"), ("x", (2, False))):
        assert ItemSource(LocalSource("x"), key).exact_key == constant_key(key)
    for bad in (float("nan"), frozenset({1}), [1], object()):
        try:
            ItemSource(LocalSource("x"), bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was accepted as an item key")
