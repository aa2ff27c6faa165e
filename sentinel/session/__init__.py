"""One live session: its site, clock and scheduler, and the agent process beside it."""
