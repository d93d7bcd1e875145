"""Plugging a game into the core: its ``GameSpec`` from its data module, its env metadata.

Every game's ``env.py`` is then a few lines: the spec, a ``raw_env`` class (with any
game-specific overrides) and the ``env`` factory.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .contract import GameSpec, collect_kernels


def game_spec(name: str, data: ModuleType, kernel_modules: tuple[ModuleType, ...], *,
              make_config, action_to_str, validate_state, render_module: str,
              turn_owner_slot: int) -> GameSpec:
    """The spec of game ``name``: sizes from ``data`` (GAME_ID, MIN_PLAYERS, MAX_PLAYERS,
    NUM_ACTIONS, STATE_SIZE, OBS_SIZE, MAX_CHANCE_OUTCOMES, PHASE_NAMES, STATE_FIELDS, and
    FIELD_BOUNDS: the range of each field; G_TRUNCATED: the slot of the decision cap's flag;
    BOARD_OPTION: the option that takes generated boards and their ranges),
    the contract's kernels from ``kernel_modules``, and the renderer imported on first use
    (most training never renders)."""

    def renderer(kind: str, default=None):
        def call(state):
            function = getattr(importlib.import_module(render_module), kind, None)
            return function(state) if function is not None else default
        return call

    return GameSpec(
        name=name,
        game_id=data.GAME_ID,
        min_players=data.MIN_PLAYERS,
        max_players=data.MAX_PLAYERS,
        num_actions=data.NUM_ACTIONS,
        state_size=data.STATE_SIZE,
        obs_size=data.OBS_SIZE,
        max_chance_outcomes=data.MAX_CHANCE_OUTCOMES,
        phase_names=data.PHASE_NAMES,
        kernels=collect_kernels(*kernel_modules),
        make_config=make_config,
        action_to_str=action_to_str,
        validate_state=validate_state,
        state_fields=data.STATE_FIELDS,
        turn_owner_slot=turn_owner_slot,
        field_bounds=dict(getattr(data, "FIELD_BOUNDS", {})),
        default_options=dict(_default_options(data, make_config)),
        truncated_slot=getattr(data, "G_TRUNCATED", None),
        board_option=getattr(data, "BOARD_OPTION", None),
        render_ansi=renderer("render_ansi"),
        render_rgb=renderer("render_rgb"),
        move_targets=renderer("move_targets", default={}),
    )


def _default_options(data: ModuleType, make_config) -> dict:
    """The game's rule options with their defaults (``DEFAULT_OPTIONS`` of its data or
    options module)."""
    options_module = importlib.import_module(make_config.__module__)
    return getattr(options_module, "DEFAULT_OPTIONS", getattr(data, "DEFAULT_OPTIONS", {}))


def env_metadata(name: str, render_fps: int = 2) -> dict:
    """PettingZoo metadata of a game's ``raw_env``."""
    return {"name": name, "render_modes": ["human", "ansi", "rgb_array"],
            "is_parallelizable": False, "render_fps": render_fps}
