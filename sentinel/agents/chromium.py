"""A real browser for the strategy agents: one headless Chromium per agent, driven by Playwright.

`ChromiumBrowser` is a `browse.PageDriver`, like the text browser: the agent's tools call the
same methods, and pages come back as the same parsed `Page`s, numbered by the same
`Numbering`. What differs is how it acts and reads:

- acting: `get` types an address (goto), `follow` clicks the link on the page, `submit` types
  into the form's fields, picks options, ticks boxes and presses the form's submit button;
- reading: a page is a snapshot of the live DOM (what the page's scripts made of it), keeping
  only the elements Chromium renders, with the fields' current values. Re-reading the page the
  agent is on does not reload it: every Sentinel page refreshes itself about once a second;
- `screenshot` returns a PNG of the viewport.

As evidence, it keeps screenshots of its own (sentinel/agents/shots.py): one at every page load,
and at most one per few wall seconds while the agent re-reads the page it is on.

Chromium is started by this process, not by Playwright: with PR_SET_PDEATHSIG it gets SIGKILL
when the agent dies, however the agent dies (Playwright's own launch puts the browser in a
process group of its own, out of reach of the runner's group kill). It stays in the agent's
process group, so the runner's SIGTERM / SIGKILL of the group reaches it too. Playwright
attaches over the DevTools protocol. The profile lives in a fresh folder, removed on close.
"""

from __future__ import annotations

import ctypes
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from sentinel.agents.browse import (
    FORM_REF_ATTR,
    LONG_POLL_WALL_S,
    BrowseError,
    Form,
    Numbering,
    Page,
    Screenshot,
    parse_page,
    wait_headers,
)
from sentinel.agents.pacing import WALL, Pacing
from sentinel.agents.shots import JPEG_QUALITY, ShotRecorder
from sentinel.core.chromium import PROFILE_PREFIX, START_TIMEOUT_S, VIEWPORT, chromium_argv, devtools_address

NAVIGATION_TIMEOUT_MS = 30_000
ACTION_TIMEOUT_MS = 5_000  # a click or a fill whose element is not there fails this fast
SHOT_TIMEOUT_MS = 15_000  # a screenshot waits for a frame, which a loaded machine is slow to paint
CLOSE_WAIT_S = 1.0
PR_SET_PDEATHSIG = 1

# The live DOM as HTML, keeping only what Chromium renders (and hidden inputs, which forms
# send), with absolute link and form addresses and the fields' current values.
SNAPSHOT_JS = """
(refAttr) => {
  const VOID = new Set(["area", "br", "col", "embed", "hr", "img", "input", "source", "track", "wbr"]);
  const SKIP = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD"]);
  const esc = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const q = (v) => '"' + String(v).replace(/&/g, "&amp;").replace(/"/g, "&quot;") + '"';
  const forms = Array.from(document.forms);
  const shown = (el) => (el.tagName === "INPUT" && el.type === "hidden") || el.tagName === "OPTION"
    || el.checkVisibility() || getComputedStyle(el).display === "contents";
  const parts = [];
  if (document.title) parts.push("<title>" + esc(document.title) + "</title>");
  const walk = (node) => {
    if (node.nodeType === 3) { parts.push(esc(node.data)); return; }
    if (node.nodeType !== 1 || SKIP.has(node.tagName) || !shown(node)) return;
    const tag = node.tagName.toLowerCase();
    let attrs = "";
    if (tag === "a" && node.hasAttribute("href")) attrs += " href=" + q(node.href);
    if (tag === "form")
      attrs += " action=" + q(node.action) + " method=" + q(node.method) + " " + refAttr + "=" + q(forms.indexOf(node));
    if (tag === "input" || tag === "select" || tag === "textarea" || tag === "button") {
      if (node.name) attrs += " name=" + q(node.name);
      if (tag === "input" || tag === "button") attrs += " type=" + q(node.type);
      if (tag === "input") attrs += " value=" + q(node.value) + (node.checked ? " checked" : "");
    }
    if (tag === "option") attrs += " value=" + q(node.value) + (node.selected ? " selected" : "");
    parts.push("<" + tag + attrs + ">");
    if (tag === "textarea") parts.push(esc(node.value));
    else for (const child of node.childNodes) walk(child);
    if (!VOID.has(tag)) parts.push("</" + tag + ">");
  };
  if (document.body) walk(document.body);
  return parts.join("");
}
"""

# The first rendered link to this address (fragments ignored), or null.
FIND_LINK_JS = """
(href) => Array.from(document.querySelectorAll("a[href]"))
  .find((a) => a.href.split("#")[0] === href && a.checkVisibility()) || null
"""
CLICK_ATTEMPTS = 3

SUBMIT_BUTTONS = "button[type=submit], button:not([type]), input[type=submit], input[type=image]"
TYPED_KINDS = {"text", "textarea", "number", "email", "search", "tel", "url", "password", "date",
               "time", "datetime-local", "month", "week", "color", "range"}
TRUE_WORDS = {"on", "true", "yes", "1", "checked"}


def _die_with_parent() -> None:
    """In the forked child, before exec: SIGKILL when the agent dies (Linux)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def start_chromium(profile: Path, executable: str | None = None) -> tuple[subprocess.Popen, str]:
    """Start Chromium (default: core.chromium.chromium_program()) on a free DevTools port; return the process
    and its DevTools address."""
    process = subprocess.Popen(chromium_argv(profile, executable),
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               preexec_fn=_die_with_parent)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Chromium exited at start with status {process.returncode}")
        address = devtools_address(profile)  # Chromium writes the port it chose into its profile
        if address is not None:
            return process, f"ws://127.0.0.1:{address[0]}{address[1]}"
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"Chromium did not open its DevTools port within {START_TIMEOUT_S:g} s")


class ChromiumBrowser(Numbering):
    """One headless Chromium tab on one site (see the module's notes)."""

    def __init__(self, base_url: str, log=print, shots: ShotRecorder | None = None, pacing: Pacing = WALL):
        super().__init__(base_url, pacing)
        self.shots = shots or ShotRecorder.for_agent()
        self.log = log
        from playwright.sync_api import Error, TimeoutError, sync_playwright

        self._errors, self._timeout = Error, TimeoutError
        self.profile = Path(tempfile.mkdtemp(prefix=PROFILE_PREFIX))
        self._process: subprocess.Popen | None = None
        self._playwright: Any = None
        self.status = 200
        self._etags: dict[str, str] = {}  # the ETag of the copy of each page last waited on
        try:
            self._process, address = start_chromium(self.profile)
            log(f"Chromium {self._process.pid} started, profile {self.profile}")
            self._playwright = sync_playwright().start()
            browser = self._playwright.chromium.connect_over_cdp(address)
            context = browser.contexts[0] if browser.contexts else browser.new_context()
            self.tab = context.pages[0] if context.pages else context.new_page()
            self.tab.set_viewport_size({"width": VIEWPORT[0], "height": VIEWPORT[1]})
            self.tab.set_default_timeout(ACTION_TIMEOUT_MS)
            self.tab.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        except BaseException:
            self.close()
            raise

    # --- acting ------------------------------------------------------------------------------

    def get(self, path_or_url: str, conditional: bool = False) -> Page:
        url = self.url(path_or_url)
        if conditional and url == self.tab.url:
            return self.look()  # the page keeps itself current: read it as it is now
        try:
            response = self.tab.goto(url, wait_until="load")
        except self._errors as exc:
            raise BrowseError(f"cannot open {url}: {_first_line(exc)}") from None
        self.status = response.status if response is not None else 200
        return self._loaded()

    def follow(self, number: int) -> Page:
        """Click link [number] on the page; a link only seen on an earlier page is opened by address."""
        href = self.site_url(self.link(number))
        for attempt in range(1, CLICK_ATTEMPTS + 1):
            # Click that very element: a position in the list could name another link by the
            # time of the click, since the page refreshes itself and new rows push old ones down.
            link = self.tab.evaluate_handle(FIND_LINK_JS, href).as_element()
            if link is None:
                return self.get(href)
            try:
                return self._navigating(link.click)
            except BrowseError:  # the refresh replaced the link before the click: find it again
                if attempt == CLICK_ATTEMPTS:
                    raise
        raise AssertionError("unreachable")

    def submit(self, form: Form, fields: dict[str, str] | None = None) -> Page:
        """Type the values into the form's fields, then press its submit button."""
        if form.ref is None:
            raise BrowseError(f"the form {form.action} is not on the page")
        element = self.tab.locator("form").nth(int(form.ref))
        last_typed = None
        for name, value in (fields or {}).items():
            try:
                last_typed = self._fill(element, form, name, value) or last_typed
            except self._errors as exc:
                raise BrowseError(f"cannot fill {name!r}: {_first_line(exc)}") from None
        buttons = element.locator(SUBMIT_BUTTONS)
        if buttons.count():
            return self._navigating(lambda: buttons.first.click())
        if last_typed is not None:
            return self._navigating(lambda: last_typed.press("Enter"))
        return self._navigating(lambda: element.evaluate("form => form.requestSubmit()"))

    def _fill(self, element: Any, form: Form, name: str, value: str) -> Any:
        """Set one field as a person would; return its locator if it was typed into."""
        kinds = {control.name: control.kind for control in form.controls}
        if name not in kinds:
            raise BrowseError(f"the form {form.action} has no field {name!r} (fields: {', '.join(kinds) or 'none'})")
        kind, selector = kinds[name], f"[name={_css_string(name)}]"
        if kind == "hidden":
            if value != form.fields.get(name, ""):
                raise BrowseError(f"the field {name!r} is hidden: nobody can type into it")
            return None
        if kind == "select":
            element.locator(f"select{selector}").select_option(value)
        elif kind == "radio":
            element.locator(f"input{selector}[value={_css_string(value)}]").check()
        elif kind == "checkbox":
            box = element.locator(f"input{selector}").first
            box.check() if value.strip().lower() in TRUE_WORDS or value == box.get_attribute("value") else box.uncheck()
        elif kind in TYPED_KINDS:
            field = element.locator(f"{'textarea' if kind == 'textarea' else 'input'}{selector}").first
            field.click()
            field.fill(value)
            return field
        else:
            raise BrowseError(f"the field {name!r} ({kind}) cannot be filled in")
        return None

    def _navigating(self, action) -> Page:
        """Run an action that should load a page; wait for that page, or read this one if none came."""
        try:
            with self.tab.expect_navigation(wait_until="load") as navigation:
                action()
            response = navigation.value
            self.status = response.status if response is not None else 200
        except self._timeout:
            return self.look()  # nothing was loaded: the page changed in place, or not at all
        except self._errors as exc:
            raise BrowseError(_first_line(exc)) from None
        return self._loaded()

    def _loaded(self) -> Page:
        """Read a page that has just loaded, keeping a screenshot of it."""
        page = self.look(idle=False)
        self._keep_shot("load")
        return page

    def _keep_shot(self, reason: str, png: bytes | None = None, at: float | None = None) -> None:
        at = at or time.time()
        try:
            png = png or self.tab.screenshot(type="jpeg", quality=JPEG_QUALITY, timeout=SHOT_TIMEOUT_MS)
        except self._errors as exc:  # a page closing under the camera: no evidence this time
            self.log(f"no {reason} screenshot of {self.tab.url}: {_first_line(exc)}")
            return
        self.shots.take(png, reason, _path_of(self.tab.url), at)

    def wait_for_change(self, path_or_url: str, timeout_sim_s: float) -> Page:
        """The page once the site says it changed (the tab reloaded), or as it is once
        timeout_sim_s sim seconds pass. The wait is the site's long-poll (docs/protocol.md#waiting)
        sent from Python with the tab's cookies, as the page's own refresh script asks (no GET side
        effects), for the ETag of the copy last waited on; the first wait on a page asks for the
        ETag of the page as it is now. A page the tab is not on is opened instead."""
        url = self.url(path_or_url)
        if url != self.tab.url:
            return self.get(url)
        cookies = "; ".join(f"{c['name']}={c['value']}" for c in self.tab.context.cookies(url))
        headers = {"X-Live-Refresh": "1", **({"Cookie": cookies} if cookies else {})}
        if url in self._etags:
            headers.update(wait_headers(self._etags[url], timeout_sim_s))
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                        timeout=LONG_POLL_WALL_S) as response:
                changed, etag = url in self._etags, response.headers.get("ETag")
        except urllib.error.HTTPError as err:  # 304: unchanged; anything else shows on the reload
            changed, etag = err.code != 304, err.headers.get("ETag")
        except (urllib.error.URLError, OSError) as exc:
            raise BrowseError(f"cannot wait on {url}: {exc}") from None
        if etag:
            self._etags[url] = etag
        return self.get(url) if changed else self.look()

    # --- reading -----------------------------------------------------------------------------

    def look(self, idle: bool = True) -> Page:
        """The page as it is on screen now, parsed like the text browser's pages; a re-read (idle)
        keeps a screenshot when the last one is a few seconds old."""
        for _ in range(3):
            try:
                html = self.tab.evaluate(SNAPSHOT_JS, FORM_REF_ATTR)
                page = parse_page(self.tab.url, self.status, html)
                if idle and self.shots.idle_due():
                    self._keep_shot("idle")
                return page
            except self._errors:  # a navigation replaced the document under the script
                self.tab.wait_for_load_state("load")
        raise BrowseError(f"cannot read {self.tab.url}")

    def screenshot(self) -> Screenshot:
        at = time.time()
        png = self.tab.screenshot(type="png")
        self._keep_shot("agent", png, at)
        width, height = struct.unpack(">II", png[16:24])
        return Screenshot(png, width, height)

    # --- ending ------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop Chromium (TERM, then KILL), detach Playwright, remove the profile. Safe to call twice."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(CLOSE_WAIT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        # Before Playwright: at a session's deadline the runner's SIGKILL follows its SIGTERM
        # within seconds, and detaching from a browser already gone may take longer than that.
        remove_profile(self.profile)
        playwright, self._playwright = self._playwright, None
        if playwright is not None:
            try:
                playwright.stop()
            except Exception:  # noqa: BLE001 - the browser is gone; nothing is left to tell
                pass


def remove_profile(profile: Path) -> None:
    """Remove a Chromium profile once no process of that Chromium is left to write into it.
    Chromium's helpers (zygote, renderers, crash handler) outlive its main process by a few
    milliseconds and may create files after a first removal; so remove, look, and repeat."""
    deadline = time.monotonic() + CLOSE_WAIT_S
    while True:
        shutil.rmtree(profile, ignore_errors=True)
        if (not profile.exists() and not _processes_using(profile)) or time.monotonic() > deadline:
            return
        time.sleep(0.02)


def _processes_using(profile: Path) -> list[int]:
    """Processes whose command line names the profile (Chromium passes it to every helper)."""
    marker = str(profile).encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _path_of(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _css_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
