"""The errors the engine raises; each message names the problem in words a player understands."""

from __future__ import annotations


class CommandError(ValueError):
    """A command the engine refused; nothing changed."""


class MalformedCommand(CommandError):
    """A command whose shape is wrong: unknown ``cmd``, a missing field, a value of the wrong type."""


class IllegalCommand(CommandError):
    """A well-formed command that the rules forbid right now (e.g. "Ana already holds a yellow chip")."""


class ReplayError(ValueError):
    """A recorded event that does not fit the game it is replayed into (a damaged or foreign history)."""
