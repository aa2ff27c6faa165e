"""axe-core over every view of every environment (tests/site_crawl.py opens each GET route of
the app once, in a world holding the whole catalog, late in the session): no serious or
critical violation, colour contrast included."""

from __future__ import annotations

import pytest
from site_crawl import crawl, whole_catalog

from sentinel.envs import environments

LATE_SIM_S = 600.0
BLOCKING = ("serious", "critical")


def blocking_violations(results: dict) -> list[str]:
    """One line per serious or critical rule broken: rule, impact, first elements."""
    lines = []
    for violation in results["violations"]:
        if violation["impact"] in BLOCKING:
            targets = [" ".join(map(str, node["target"])) for node in violation["nodes"][:3]]
            lines.append(f"{violation['id']} ({violation['impact']}, {len(violation['nodes'])}): {targets}")
    return lines


# Environments with a violation not fixed yet, and why (strict: an entry that passes fails).
KNOWN: dict[str, str] = {}


@pytest.mark.parametrize("env", [pytest.param(e, marks=pytest.mark.xfail(reason=KNOWN[e], strict=True))
                                 if e in KNOWN else e for e in sorted(environments())])
async def test_no_view_has_a_serious_accessibility_violation(env, env_session, browser_tab):
    from axe_playwright_python.async_playwright import Axe

    live = await env_session(whole_catalog(env))
    await live.advance_to(LATE_SIM_S)
    views = await crawl(live, browser_tab.page)
    assert len(views) >= 5, f"{env}: the crawl reached only {sorted(views)}"
    axe, found = Axe(), {}
    for path in views.values():
        await browser_tab.visit(str(live.client.make_url(path)))
        problems = blocking_violations((await axe.run(browser_tab.page)).response)
        if problems:
            found[path] = problems
    assert not found, f"{env}: " + "; ".join(f"{path}: {lines}" for path, lines in found.items())
