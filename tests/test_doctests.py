"""The runnable examples in the core modules' docstrings are tests too."""

import doctest
import importlib

import pytest

CORE = ["companion.cards", "companion.evaluator", "companion.batch", "companion.shapes", "companion.judge"]


@pytest.mark.parametrize("name", CORE)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
