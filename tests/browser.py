"""Open a generated page in the system's Chromium, driven by Playwright (a helper for the tests, not a test file).

    @pytest.fixture(scope="module")          # one browser per test module: launching one takes about a second
    def browser() -> Iterator[Browser]:
        with launch() as browser:
            yield browser

    @needs_chromium
    def test_it_works_on_a_phone(browser: Browser) -> None:
        with browser.open(path, width=375, mobile=True) as page:  # a phone's browser honours the viewport meta tag
            assert not page.errors and not page.refused
            assert not page.scrolls_sideways()

Playwright drives the Chromium the system has (``executable_path``), never one it downloads (``playwright install``
needs the network). Every request other than the page's own ``file://`` is refused (aborted) and recorded: a
self-contained page asks for nothing, and a test that loads it must not reach the network either.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urldefrag

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser as PlaywrightBrowser
    from playwright.sync_api import ConsoleMessage, Page, Route

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # the test extra installs it; without it the browser tests skip
    sync_playwright = None  # type: ignore[assignment]

chromium = shutil.which("chromium")

needs_chromium = pytest.mark.skipif(
    chromium is None or sync_playwright is None,
    reason="the browser tests need the system's Chromium and Playwright (apt-get install chromium; pip install playwright, "
    "or pip install -e '.[test]'; never `playwright install`: the system's browser is used)",
)

CHROMIUM_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync")
"""Headless, as root in a container (no sandbox, no GPU), and without Chromium's own calls home (its network calls fail
here and would only slow it down)."""

TIMEOUT_MS = 15_000
"""The longest a page load or an action may take: a local page loads in well under a second."""


@dataclass
class OpenPage:
    """A page loaded at one viewport size, and what happened while it loaded and since (the lists keep growing)."""

    page: Page
    """The Playwright page, for what the methods below do not cover."""
    width: int
    height: int
    url: str
    errors: list[str] = field(default_factory=list)
    """Console errors (a resource refused shows here too, as ``Failed to load resource``) and uncaught script errors."""
    refused: list[str] = field(default_factory=list)
    """The URL of every request that was not the page's own file, each refused."""

    def scroll_width(self) -> int:
        """``document.documentElement.scrollWidth``: wider than the viewport when the page itself scrolls sideways."""
        return int(self.page.evaluate("document.documentElement.scrollWidth"))

    def scrolls_sideways(self) -> bool:
        """Whether the page, not just a container inside it, is wider than the viewport (one pixel of rounding allowed)."""
        return self.scroll_width() > self.width + 1

    def count(self, selector: str) -> int:
        return self.page.locator(selector).count()

    def visible(self, selector: str) -> bool:
        """Whether at least one element matches and every match is visible (a nonempty box, not ``visibility: hidden``)."""
        return not self.hidden(selector) and self.count(selector) > 0

    def hidden(self, selector: str) -> list[str]:
        """The matches that are not visible or have an empty box, each described by its start tag (an empty list if none)."""
        found = self.page.locator(selector)
        problems = []
        for n in range(found.count()):
            element = found.nth(n)
            box = element.bounding_box()
            if not element.is_visible() or box is None or box["width"] <= 0 or box["height"] <= 0:
                problems.append(f"{selector} #{n}: {_start_tag(element.evaluate('e => e.outerHTML'))} (box {box})")
        return problems

    def in_viewport(self, selector: str) -> bool:
        """Whether the first match lies horizontally inside the viewport as the page is scrolled now."""
        box = self.page.locator(selector).first.bounding_box()
        return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= self.width + 1

    def click_every_summary(self) -> list[str]:
        """Click, with the mouse, every ``<details>``'s ``<summary>`` in turn; return those whose ``<details>`` did not open
        or whose content was not then visible (an empty list if every one opened to visible content).

        Each summary is scrolled into view (inside a scrollable container too) and clicked at its centre, a real click:
        a summary covered by something else does not open. Each ``<details>`` is closed again once checked (and any
        ``<details>`` around the next summary opened), so every click happens on the page as it first loaded; a click
        costs a few milliseconds (Playwright's ``locator.click`` waits for animation frames: about 50 ms)."""
        problems = []
        count = self.count("details > summary")
        for n in range(count + 1):
            step = self.page.evaluate(_CHECK_THE_LAST_AND_FIND_THE_NEXT, n)
            if step["last"] != "shown":
                problems.append(f"summary #{n - 1}: {step['last']}")
            if n < count:
                self.page.mouse.click(step["x"], step["y"])
        return problems

    def open_every_details(self) -> int:
        """Open every ``<details>`` at once (the page as a reader who opened everything sees it); return how many."""
        return int(self.page.evaluate("[...document.querySelectorAll('details')].map(d => d.open = true).length"))


_CHECK_THE_LAST_AND_FIND_THE_NEXT = """n => {
    const summaries = document.querySelectorAll("details > summary");
    let last = "shown";
    if (n > 0) {
        const summary = summaries[n - 1], details = summary.parentElement;
        const label = JSON.stringify(summary.textContent.trim().slice(0, 60));
        const content = [...details.children].filter(child => child !== summary);
        if (!details.open) last = label + ": the click did not open its details";
        else if (content.length === 0) last = label + ": its details hold nothing but the summary";
        for (const child of details.open ? content : []) {
            const box = child.getBoundingClientRect();
            if (!child.checkVisibility({visibilityProperty: true, opacityProperty: true}) || box.width <= 0 || box.height <= 0) {
                last = label + ": opened, but its content is not visible: " + child.outerHTML.slice(0, 80);
                break;
            }
        }
        details.open = false;
    }
    if (n >= summaries.length) return {last};
    const summary = summaries[n];
    for (let up = summary.parentElement.parentElement; up; up = up.parentElement)
        if (up.tagName === "DETAILS") up.open = true;
    summary.scrollIntoView({block: "center", inline: "center"});
    const box = summary.getBoundingClientRect();
    return {last, x: box.left + box.width / 2, y: box.top + box.height / 2};
}"""


def _start_tag(html: str) -> str:
    return html[: html.find(">") + 1][:120]


class Browser:
    """One headless Chromium; each :meth:`open` gets a fresh context (no state carried from one page to the next)."""

    def __init__(self, browser: PlaywrightBrowser) -> None:
        self._browser = browser

    @contextmanager
    def open(self, path: Path, width: int, height: int = 900, *, mobile: bool = False) -> Iterator[OpenPage]:
        """Load the local file ``path`` in a ``width`` x ``height`` viewport (CSS pixels).

        ``mobile`` emulates a phone: a page without ``<meta name="viewport" content="width=device-width">`` is then laid
        out 980 px wide and shrunk, as a phone's browser does, so it scrolls sideways in a narrow viewport; without
        ``mobile`` the viewport is a desktop window's, whatever the page's meta tags say."""
        url = path.resolve().as_uri()
        screen = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2} if mobile else {}
        context = self._browser.new_context(viewport={"width": width, "height": height}, service_workers="block", **screen)
        try:
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            opened = OpenPage(page, width, height, url)

            def only_the_page_itself(route: Route) -> None:
                if urldefrag(route.request.url).url == url:
                    route.continue_()
                else:
                    opened.refused.append(route.request.url)
                    route.abort("blockedbyclient")

            def console(message: ConsoleMessage) -> None:
                if message.type == "error":
                    opened.errors.append(f"console: {message.text} ({message.location.get('url', '')})")

            context.route("**/*", only_the_page_itself)
            page.on("console", console)
            page.on("pageerror", lambda error: opened.errors.append(f"uncaught: {error}"))
            page.goto(url, wait_until="load")
            yield opened
        finally:
            context.close()


@contextmanager
def launch() -> Iterator[Browser]:
    """The system's Chromium, headless, for one test module (see the module's docstring)."""
    if sync_playwright is None or chromium is None:
        raise RuntimeError("Chromium or Playwright is missing (mark the test with tests.browser.needs_chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=list(CHROMIUM_ARGS), timeout=60_000)
        try:
            yield Browser(browser)
        finally:
            browser.close()
