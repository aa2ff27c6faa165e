"""The pure core: scenarios, clock, scheduler, grading, bus, configuration, catalogs and the
environment contract. Nothing here imports aiohttp, Textual, Jinja, aiosqlite or rich."""
