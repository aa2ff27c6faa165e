"""An outside agent on the session's browser: Playwright connects to SENTINEL_CDP_URL, opens the
task, watches the page (which refreshes itself) until a row names the awaited sender, then
reports through the contact form by clicking and typing.

usage: cdp_watcher.py "TEXT TO WAIT FOR"
"""
import os
import sys
import time

from playwright.sync_api import sync_playwright

awaited = sys.argv[1]
with sync_playwright() as pw:
    browser = pw.chromium.connect_over_cdp(os.environ["SENTINEL_CDP_URL"])
    context = browser.contexts[0] if browser.contexts else browser.new_context()
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(os.environ["SENTINEL_TASK_URL"])
    print(f"watching {page.url} in Chromium over CDP", flush=True)
    while page.get_by_role("row").filter(has_text=awaited).count() == 0:
        time.sleep(0.2)  # the page updates itself in place: nothing to reload
    print(f"{awaited} is on the page", flush=True)
    page.goto(os.environ["SENTINEL_CONTACT_URL"])
    page.get_by_role("textbox", name="Message").click()
    page.keyboard.type(f"A message from {awaited} has arrived.")
    page.get_by_role("button", name="Send").click()
    page.get_by_role("status").wait_for()
    print(page.get_by_role("status").inner_text(), flush=True)
    browser.close()  # the connection only: the browser is the session's
