"""A tiny stand-in for a module of CPython's test package, for the conformance runner's tests.
One test of each kind of outcome; `test_falls_back` calls `dir()`, which
modetrace does not trace (it reads the frame it is called in), so it runs eagerly."""

import unittest

LOG: list[str] = []


def setUpModule() -> None:
    LOG.append("setUpModule")


class Small(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.shared = [3, 1, 2]

    def setUp(self) -> None:
        self.items = list(self.shared)

    def test_passes(self) -> None:
        self.items.sort()
        self.assertEqual(self.items, [1, 2, 3])

    def test_fails(self) -> None:
        self.assertEqual(len(self.items), 4)

    def test_errors(self) -> None:
        {}["missing"]

    def test_raises(self) -> None:
        with self.assertRaises(ZeroDivisionError):
            print(1 // 0)

    @unittest.skip("not today")
    def test_skipped(self) -> None:
        raise AssertionError("never runs")

    @unittest.expectedFailure
    def test_expected_failure(self) -> None:
        self.assertTrue(False)

    def test_falls_back(self) -> None:
        self.assertIn("self", dir())

    def not_a_test(self) -> None:
        raise AssertionError("only test* methods run")


class SkippedClass(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        raise unittest.SkipTest("no resource")

    def test_never_runs(self) -> None:
        raise AssertionError("never runs")
