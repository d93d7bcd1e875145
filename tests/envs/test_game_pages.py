"""``help(meeplezoo.envs.<game>)`` shows the game's page: actions, observation, options."""

import importlib
import inspect
import pydoc

import pytest

from meeplezoo.envs import names


@pytest.mark.parametrize("name", names())
def test_the_versioned_module_carries_the_games_page(name):
    module = importlib.import_module(f"meeplezoo.envs.{name}")
    doc = module.__doc__ or ""
    assert name in doc                        # the page of this version, not another's
    for words in ("Actions", "Observation", "Players", "Discrete(", "action_mask",
                  "Version history"):
        assert words in doc, (name, words)
    assert doc == inspect.getmodule(module.raw_env).__doc__


@pytest.mark.parametrize("name", names())
def test_pydoc_renders_the_page(name):
    module = importlib.import_module(f"meeplezoo.envs.{name}")
    rendered = pydoc.render_doc(module, renderer=pydoc.plaintext)
    for line in inspect.getdoc(module).splitlines():
        assert line.strip() in rendered, (name, line)
