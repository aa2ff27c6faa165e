"""Errors that reach the user as one clear line instead of a traceback."""


class SentinelError(Exception):
    """A problem caused by input (config, scenario, command) that the user can fix."""
