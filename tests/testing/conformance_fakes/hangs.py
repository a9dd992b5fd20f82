"""A test module whose one test never ends: the runner must kill it and report the module."""

import time
import unittest


class Hangs(unittest.TestCase):
    def test_hangs(self) -> None:
        time.sleep(600)
