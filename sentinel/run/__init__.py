"""A run of many sessions: planning, the runner, the runner's own process for a screen, Ray."""
