"""Scenario generation: the kinds contract, the knobs and the one kit every environment's kinds use.
Pure: no aiohttp."""
