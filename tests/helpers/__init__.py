"""What several test modules share that is not a fixture (fixtures: tests/conftest.py). Test
modules import from here, never from one another (tests/test_architecture.py checks it).

- runs: the small test scenarios and a config, plan and command file for fast real runs
- results: results made by hand with known answers, laid out as a run folder
- worlds: every environment (MicroTodo too), whole catalogs, a hostile one, a dump of a world
- crawl: every view of an environment found by following its pages, over HTTP or in Chromium
- browser: a Chromium tab's checks, and what a machine lacks to run the browser tests
- fake_openai: a fake OpenAI-compatible server; llm: the scripts and plans of model runs on it
- tui: driving Textual apps with the pilot
"""
