"""The committed HTML reports work in a real browser (the system's Chromium), on a phone and on a desktop.

Each page loads with no script error and asks for nothing beyond its own file; its table is visible and the page does not
scroll sideways (a wide table scrolls inside its own container); every cell's evidence opens with a click; every figure
(an inline ``<svg>``) is visible. The helper itself is checked on broken pages, so that it cannot pass a page silently.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import Browser, launch, needs_chromium
from tests.conftest import ROOT

pytestmark = needs_chromium

REPORTS = ROOT / "reports"
PAGES = {"table2.html": 91, "catalog.html": None}  # the cells each page has (None: as many as its table has cells)
SCREENS = {"a phone": (375, True), "a desktop": (1280, False)}  # (width in CSS pixels, whether it is a phone's browser)

pages = pytest.mark.parametrize("name", list(PAGES))
screens = pytest.mark.parametrize(("width", "mobile"), list(SCREENS.values()), ids=list(SCREENS))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launch() as browser:
        yield browser


@pages
@screens
class TestTheHtmlReports:
    def test_load_without_errors_and_ask_for_nothing_beyond_their_own_file(
        self, browser: Browser, name: str, width: int, mobile: bool
    ) -> None:
        with browser.open(REPORTS / name, width, mobile=mobile) as page:
            assert page.errors == [] and page.refused == []

    def test_show_the_table_and_its_first_column_without_the_page_scrolling_sideways(
        self, browser: Browser, name: str, width: int, mobile: bool
    ) -> None:
        with browser.open(REPORTS / name, width, mobile=mobile) as page:
            assert page.visible("table") and page.in_viewport("table th")
            assert not page.scrolls_sideways(), f"the page is {page.scroll_width()} px wide in a {width} px viewport"

    def test_open_every_cell_to_its_evidence_with_a_click(self, browser: Browser, name: str, width: int, mobile: bool) -> None:
        with browser.open(REPORTS / name, width, mobile=mobile) as page:
            cells = page.count("td")
            assert cells > 0 and page.count("td > details > summary") == cells == (PAGES[name] or cells)
            assert page.click_every_summary() == []
            assert page.open_every_details() == cells
            assert not page.scrolls_sideways(), f"with every cell open, the page is {page.scroll_width()} px wide in {width} px"
            assert page.errors == [] and page.refused == []

    def test_show_every_figure_with_a_nonempty_box(self, browser: Browser, name: str, width: int, mobile: bool) -> None:
        with browser.open(REPORTS / name, width, mobile=mobile) as page:
            page.open_every_details()  # a figure in a cell's evidence shows once the cell is open
            assert page.hidden("svg:not(svg svg)") == []


class TestTheHelperCatchesABrokenPage:
    def test_a_script_that_throws_is_an_error(self, browser: Browser, tmp_path: Path) -> None:
        broken = tmp_path / "throws.html"
        broken.write_text("<!DOCTYPE html><title>x</title><p>text</p><script>throw new Error('broken on purpose')</script>")
        with browser.open(broken, 375) as page:
            assert any("broken on purpose" in error for error in page.errors)

    def test_an_image_from_the_network_is_refused_and_recorded(self, browser: Browser, tmp_path: Path) -> None:
        broken = tmp_path / "remote.html"
        broken.write_text('<!DOCTYPE html><title>x</title><img src="https://example.com/x.png" alt="x">')
        with browser.open(broken, 375) as page:
            assert page.refused == ["https://example.com/x.png"] and page.errors != []

    def test_a_file_beside_the_page_is_refused_too(self, browser: Browser, tmp_path: Path) -> None:
        (tmp_path / "style.css").write_text("body { color: red }")
        broken = tmp_path / "beside.html"
        broken.write_text('<!DOCTYPE html><title>x</title><link rel="stylesheet" href="style.css"><p>text</p>')
        with browser.open(broken, 375) as page:
            assert page.refused == [(tmp_path / "style.css").resolve().as_uri()]

    def test_a_page_wider_than_a_phone_scrolls_sideways(self, browser: Browser, tmp_path: Path) -> None:
        wide = tmp_path / "wide.html"
        wide.write_text('<!DOCTYPE html><meta name="viewport" content="width=device-width"><div style="width: 600px">wide</div>')
        with browser.open(wide, 375, mobile=True) as page:
            assert page.scrolls_sideways() and page.scroll_width() >= 600

    def test_a_page_without_a_viewport_meta_tag_scrolls_sideways_on_a_phone(self, browser: Browser, tmp_path: Path) -> None:
        narrow = tmp_path / "narrow.html"
        narrow.write_text("<!DOCTYPE html><title>x</title><p>short</p>")
        with browser.open(narrow, 375, mobile=True) as page:
            assert page.scrolls_sideways() and page.scroll_width() >= 980  # a phone's browser lays it out for a desktop
        narrow.write_text('<!DOCTYPE html><meta name="viewport" content="width=device-width, initial-scale=1"><p>short</p>')
        with browser.open(narrow, 375, mobile=True) as page:
            assert not page.scrolls_sideways()

    def test_a_summary_whose_content_stays_hidden_or_that_is_covered_is_reported(self, browser: Browser, tmp_path: Path) -> None:
        page_file = tmp_path / "details.html"
        page_file.write_text(
            "<!DOCTYPE html><title>x</title><style>.gone { display: none }"
            " .cover { position: fixed; inset: 0; background: white }</style>"
            "<details><summary>fine</summary><p>shown</p></details>"
            "<details><summary>hidden</summary><p class=gone>never shown</p></details>"
            "<div class=cover></div>"
        )
        with browser.open(page_file, 375) as page:
            covered = page.click_every_summary()
        assert len(covered) == 2 and all("did not open" in problem for problem in covered)
        page_file.write_text(page_file.read_text().replace("<div class=cover></div>", ""))
        with browser.open(page_file, 375) as page:
            uncovered = page.click_every_summary()
        assert len(uncovered) == 1 and '"hidden"' in uncovered[0] and "content is not visible" in uncovered[0]

    def test_an_invisible_figure_is_reported(self, browser: Browser, tmp_path: Path) -> None:
        figure = tmp_path / "figure.html"
        figure.write_text('<!DOCTYPE html><title>x</title><svg width="100" height="50"><rect width="100" height="50"/></svg>'
                          '<svg width="0" height="0"></svg><svg width="100" height="50" style="visibility: hidden"></svg>')
        with browser.open(figure, 375) as page:
            assert len(page.hidden("svg")) == 2 and not page.visible("svg")
