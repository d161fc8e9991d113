"""The ``--html`` pages in a real browser: headless Chromium (Debian's
``chromium`` and ``chromium-driver``) driven by Selenium with the system
chromedriver, nothing downloaded.

Every bundled deal with played cards: its ``review`` page shows the 52
cards, stepping through every card (keys and buttons) reaches the final
position with the hands emptied as they are played and the best cards of
the next card marked in its hand, the final score line is the JSON's, and the page logs no console error and makes no request but
for itself. Marked slow; without a browser the tests skip with the reason,
unless ``DUMMY_SPADES_REQUIRE_BROWSER=1`` (.ci/run sets it) makes that a
failure."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver.dealfile import load_deal

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
REQUIRE_BROWSER = "DUMMY_SPADES_REQUIRE_BROWSER"
PLAYED_DEALS = sorted(p for p in (ROOT / "hands").glob("*.yaml") if load_deal(p).played)


def _missing() -> str:
    """Why no browser can be driven here ('' when one can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if shutil.which("chromium") is None:
        return "no chromium on PATH (apt-get install chromium chromium-driver)"
    if shutil.which("chromedriver") is None:
        return "no chromedriver on PATH (apt-get install chromium-driver)"
    return ""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = _missing()
    if missing:
        if os.environ.get(REQUIRE_BROWSER, "") not in ("", "0"):
            pytest.fail(f"{REQUIRE_BROWSER} is set but no browser can be driven: {missing}")
        pytest.skip(f"no browser for the --html page tests: {missing}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"          # Selenium Manager downloads nothing
    options = webdriver.ChromeOptions()
    options.binary_location = str(shutil.which("chromium"))
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1100,1400"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver")),
                              options=options)
    try:
        yield driver
    finally:
        driver.quit()


def review_page(deal: Path, out: Path, *options: str) -> Dict[str, Any]:
    """Write the review page of ``deal``; return the JSON of the same run."""
    result = CliRunner().invoke(app, ["review", str(deal), "--json", "--html", str(out),
                                      *options])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def visible_cards(driver: Any) -> List[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.table .hand .card'))"
        ".filter(function (e) { return e.offsetParent !== null; })"
        ".map(function (e) { return e.dataset.card; });")


def on_table(driver: Any) -> List[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.centre .slot .played-card .c'))"
        ".map(function (e) { return e.textContent; });")


def requests_made(driver: Any) -> List[str]:
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def face(card: str) -> str:
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[0]] + \
        ("10" if card[1] == "T" else card[1])


def check_page(driver: Any, page: Path, report: Dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get_log("browser")
    driver.get_log("performance")
    driver.get(page.as_uri())
    cards = report["cards"]
    assert len(visible_cards(driver)) == 52
    body = driver.find_element(By.TAG_NAME, "body")
    for k, card in enumerate(cards, 1):
        if k % 2:
            body.send_keys(Keys.ARROW_RIGHT)
        else:
            driver.find_element(By.ID, "forward").click()
        shown = visible_cards(driver)
        assert len(shown) == 52 - k and card["card"] not in shown
        assert face(card["card"]) in on_table(driver)
        assert driver.find_element(By.CSS_SELECTOR, f"#card-{k}").get_attribute(
            "aria-current") == "step"
        following = cards[k] if k < len(cards) else {"choices": 1}
        best = {c for group in following.get("best_cards", []) for c in group}
        assert set(driver.execute_script(
            "return Array.from(document.querySelectorAll('.table .best-choice'))"
            ".map(function (e) { return e.dataset.card; });")) == \
            (best if following["choices"] > 1 else set())
    assert driver.find_element(By.ID, "forward").get_attribute("disabled") is not None
    final = " · ".join(f"{p['player']} {p['points']:+d}" for p in report["final"]["players"])
    assert driver.find_element(By.ID, "final-score").text == final
    if report["finished"]:
        tally = driver.find_element(By.ID, "tally").text
        assert tally == (f"Tricks: declarer side {report['final']['declarer_tricks']}, "
                         f"defenders {report['final']['defender_tricks']}")
    body.send_keys(Keys.HOME)
    assert len(visible_cards(driver)) == 52 and on_table(driver) == []
    body.send_keys(Keys.SHIFT, Keys.ARROW_RIGHT)
    assert len(visible_cards(driver)) == 52 - min(4, len(cards))
    body.send_keys(Keys.END)
    assert len(visible_cards(driver)) == 52 - len(cards)
    for _ in cards:
        body.send_keys(Keys.ARROW_LEFT)
    assert len(visible_cards(driver)) == 52
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    requests = requests_made(driver)
    assert page.as_uri() in requests and set(requests) == {page.as_uri()}   # the log works


@pytest.mark.parametrize("deal", PLAYED_DEALS, ids=lambda p: p.stem)
def test_review_page_steps_through_the_play(browser: Any, deal: Path, tmp_path: Path) -> None:
    page = tmp_path / f"{deal.stem}.html"
    check_page(browser, page, review_page(deal, page))


def test_single_dummy_review_page(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    page = tmp_path / "sd.html"
    report = review_page(ROOT / "hands" / "mid-play.yaml", page, "--single-dummy",
                         "--samples", "25", "--jobs", "1")
    check_page(browser, page, report)
    judged = [c for c in report["cards"] if c["single_dummy"]]
    verdicts = browser.find_elements(By.CSS_SELECTOR, "#cards-table .verdict")
    assert judged and len(verdicts) == len(judged)
    assert [v.text.rstrip("?") for v in verdicts] == [c["single_dummy"]["verdict"]
                                                      for c in judged]


def test_a_blocked_request_would_show(browser: Any, tmp_path: Path) -> None:
    """The checks can fail: a page that loads an image from the network is
    refused by its policy, and the refusal is a console error."""
    page = tmp_path / "leak.html"
    report = review_page(ROOT / "hands" / "mid-play.yaml", page)
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("</main>", '<img src="http://127.0.0.1:9/x.png" alt=""></main>'),
                    encoding="utf-8")
    with pytest.raises(AssertionError):
        check_page(browser, page, report)


@pytest.mark.parametrize("args", [
    ["advise", str(ROOT / "hands" / "mid-play.yaml"), "--jobs", "1"],
    ["bid", str(ROOT / "hands" / "three-peeky.yaml"), "--player", "Carol", "--samples", "12",
     "--jobs", "1"],
    ["solve", str(ROOT / "hands" / "mid-play.yaml")],
], ids=["advise", "bid", "solve"])
def test_the_other_pages_open_offline(browser: Any, args: List[str], tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    page = tmp_path / f"{args[0]}.html"
    result = CliRunner().invoke(app, [*args, "--html", str(page)])
    assert result.exit_code == 0, result.output
    browser.get_log("browser")
    browser.get_log("performance")
    browser.get(page.as_uri())
    assert len(visible_cards(browser)) == len(browser.find_elements(By.CSS_SELECTOR,
                                                                    ".table .card"))
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    assert charts and all(c.is_displayed() and c.size["height"] > 20 for c in charts)
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    assert set(requests_made(browser)) == {page.as_uri()}
