"""Sentinel: a benchmark runner for long-running monitoring agents."""

__version__ = "0.1.0"
