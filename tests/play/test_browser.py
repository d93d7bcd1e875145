"""The page in a real browser: headless Chromium driven by Selenium plays
every game human vs random by clicking to the end (on the board wherever a move has a
place there, at least ``BOARD_SHARE`` of the person's moves) and finds the env's scores
shown under their label; a replay is stepped through; an illegal typed move and a corrupt
file show their errors; a game still compiling shows "preparing <game>…", and a slow start
says it is compiling.  A screenshot of each game's page from the middle of its game,
click boxes outlined, is written to ``$MEEPLEZOO_SCREENSHOTS`` (default: the test's
temporary folder); ``MEEPLEZOO_SCREENSHOTS=docs/images`` remakes the pictures there.

Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them); without them the
tests skip, unless ``MEEPLEZOO_REQUIRE_BROWSER=1`` (CI) makes that a failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.common.exceptions import (  # noqa: E402
    ElementClickInterceptedException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from meeplezoo.agents.registry import make_agent  # noqa: E402
from meeplezoo.envs import make  # noqa: E402
from meeplezoo.play import replay as replays  # noqa: E402

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
GAMES = {"hansa": {}, "saint_malo": {}, "carcassonne": {}, "serenissima": {},
         "hansa_teutonica": {"max_decisions": "300"}}     # see test_server_api.GAMES
# Of a person's moves, at least this share made on the board (every game;
# Saint Malo's dice and scoring choices are on its dice).
BOARD_SHARE: dict[str, float] = {}
# A screenshot candidate every so many moves (~0.25 s each with the hover): often when
# making the pictures in docs/images, seldom otherwise.
SHOT_EVERY = 7 if os.environ.get("MEEPLEZOO_SCREENSHOTS") else 40
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER) and os.environ.get("MEEPLEZOO_REQUIRE_BROWSER") != "1",
    reason="Debian's chromium and chromium-driver are not installed")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def serving(app, port: int):
    """``app`` served on ``port`` from a thread; its address."""
    import uvicorn

    instance = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                             log_level="warning"))
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.time() + 120                   # generous: a loaded machine
    while not instance.started:
        assert time.time() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        instance.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def server():
    from meeplezoo.play.web.server import create_app

    port = free_port()
    # The Host and Origin it answers (guard.py); no warm-up (create_app's default): these
    # tests compile what they play as they go.
    app = create_app(port=port)
    with serving(app, port) as url:
        yield url, app


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM and DRIVER, "install Debian's chromium and chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--window-size=1400,1000", "--disable-gpu"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER),
                              options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("MEEPLEZOO_SCREENSHOTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# What the tests read of the page, in one round trip: ready (no request in flight, no
# bot move due), the error shown, whether the result is, how many click boxes there are.
PAGE_STATE = """const error = document.getElementById("error");
return {ready: document.body.dataset.ready === "1" && document.body.dataset.busy === "0",
        error: error.hidden ? "" : error.textContent,
        over: !document.getElementById("result").hidden,
        targets: document.querySelectorAll("#board rect.target").length};"""


def wait_ready(driver, seconds: float = 120.0) -> dict:
    """Until the page says a person may act; then the page's state (``PAGE_STATE``)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        state = driver.execute_script(PAGE_STATE)
        if state["ready"]:
            return state
        time.sleep(0.02)
    raise AssertionError("the page stayed busy")


def start(driver, url: str, game: str, options: dict, seed: int = 1) -> None:
    driver.get(f"{url}/?delay=0")
    wait_ready(driver)
    Select(driver.find_element(By.ID, "game")).select_by_value(f"{game}_v0")
    seed_box = driver.find_element(By.ID, "seed")
    seed_box.clear()
    seed_box.send_keys(str(seed))
    for name, value in options.items():
        box = driver.find_element(By.CSS_SELECTOR, f'input[data-option="{name}"]')
        box.clear()
        box.send_keys(value)
    assert driver.find_element(By.ID, "seat-0").get_attribute("value") == "human"
    assert driver.find_element(By.ID, "seat-1").get_attribute("value") == "random"
    driver.find_element(By.ID, "start").click()
    wait_ready(driver)


def click_a_move(driver, rng: random.Random, targets: int) -> bool:
    """A random legal move, clicked on the board wherever a move has a place there (one
    of the ``targets`` boxes, then one of the chooser's moves when several share it),
    else picked from the list.  True when it was made on the board."""
    if targets:
        box = driver.find_element(By.CSS_SELECTOR,
                                  f'#board rect.target[data-target="{rng.randrange(targets)}"]')
        try:
            box.click()
        except ElementClickInterceptedException:  # two meeple spots overlap: use the list
            rng.choice(driver.find_elements(By.CSS_SELECTOR, "#moves button.move")).click()
            return False
        choices = driver.find_elements(By.CSS_SELECTOR, "#choices:not([hidden]) button.move")
        if choices:
            rng.choice(choices).click()
        return True
    rng.choice(driver.find_elements(By.CSS_SELECTOR, "#moves button.move")).click()
    return False


def error_text(driver) -> str:
    box = driver.find_element(By.ID, "error")
    return "" if box.get_attribute("hidden") is not None else box.text


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_person_clicks_a_game_to_its_end(server, browser, shots, game):
    url, app = server
    began = time.perf_counter()
    start(browser, url, game, GAMES[game])
    rng, moves, on_board, frames = random.Random(0), 0, 0, []
    assert browser.find_element(By.ID, "score-label").text == "if the game ended now"
    page = wait_ready(browser)
    while not page["over"]:
        if moves % SHOT_EVERY == 0 and page["targets"]:
            # The page as a person sees it: places outlined, the pointer over one.
            ActionChains(browser).move_to_element(
                browser.find_element(By.CSS_SELECTOR, "#board rect.target")).perform()
            frames.append((moves, page["targets"], browser.get_screenshot_as_png()))
        try:
            on_board += click_a_move(browser, rng, page["targets"])
        except StaleElementReferenceException:
            page = wait_ready(browser)             # redrawn under the pointer: try again
            continue
        moves += 1
        page = wait_ready(browser)
        assert not page["error"], page["error"]
        assert moves < 3000
    assert frames, "no position of this game had a click box"
    # The picture in docs/images: of the frames from the middle third of the person's moves, the
    # one with the most click boxes (the nearest the middle if none is there).
    middle = [f for f in frames if moves / 3 <= f[0] <= 2 * moves / 3]
    shot = max(middle, key=lambda f: f[1]) if middle else min(
        frames, key=lambda f: abs(f[0] - moves / 2))
    (shots / f"web_{game}.png").write_bytes(shot[2])
    shown = json.loads(browser.find_element(By.ID, "result").get_attribute("data-scores"))
    key = browser.execute_script("return document.body.dataset.session")
    item, _ = app.state.sessions.get(key, "game")
    actions = item.table.actions
    env = make(f"{game}_v0", raw=True, num_players=2, **item.table.options)
    env.reset(seed=1)
    for action in actions:
        env.step(action)
    assert env.game_over and shown == [int(s) for s in env.scores()]
    scores = [int(td.text) for td in browser.find_elements(By.CSS_SELECTOR, "#scores td.score")]
    assert scores == shown and browser.find_element(By.ID, "result").text.startswith(
        ("winner", "shared win"))
    cut = any(env.truncations.values())
    assert browser.find_element(By.ID, "score-label").text == (
        "final (cut off)" if cut else "final")
    assert "final scores" in browser.find_element(By.ID, "result").text
    share = on_board / moves
    print(f"\n{game}: {on_board}/{moves} of the person's moves on the board ({share:.0%}), "
          f"{time.perf_counter() - began:.1f} s")
    assert share >= BOARD_SHARE.get(game, 0.8), f"{game}: only {share:.0%} on the board"


def test_an_illegal_typed_move_shows_an_error_and_changes_nothing(server, browser):
    url, _ = server
    start(browser, url, "hansa", {})
    log_before = len(browser.find_elements(By.CSS_SELECTOR, "#log li"))
    browser.find_element(By.ID, "move-text").send_keys("fly to the moon")
    browser.find_element(By.ID, "play-typed").click()
    wait_ready(browser)
    assert "not a legal move here" in error_text(browser)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#log li")) == log_before
    browser.find_element(By.CSS_SELECTOR, "#moves button.move").click()       # still playable
    wait_ready(browser)
    assert not error_text(browser)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#log li")) > log_before


def test_hint_and_the_analysis_view(server, browser):
    url, _ = server
    start(browser, url, "hansa", {}, seed=2)
    legal = len(browser.find_elements(By.CSS_SELECTOR, "#moves button.move"))
    browser.find_element(By.ID, "hint").click()
    wait_ready(browser)
    assert "hint (search" in browser.find_element(By.ID, "hint-text").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#moves button.move.hinted")) == 1
    browser.find_element(By.CSS_SELECTOR, "#analysis-panel summary").click()
    sims = browser.find_element(By.ID, "sims")
    sims.clear()
    sims.send_keys("48")
    browser.find_element(By.ID, "network").send_keys("az:default")
    browser.find_element(By.ID, "analyse").click()
    wait_ready(browser)
    assert not error_text(browser), error_text(browser)
    rows = browser.find_elements(By.CSS_SELECTOR, "#analysis tr")
    assert len(rows) == legal + 1 and "prior" in rows[0].text
    assert "az:default value per seat" in browser.find_element(By.ID, "analysis").text


def test_a_replay_steps_through_and_a_corrupt_file_is_refused(server, browser, shots,
                                                              tmp_path):
    url, _ = server
    agents = [make_agent("mcts:16", "saint_malo_v0", seed=0), make_agent("random",
                                                                         "saint_malo_v0")]
    record = replays.record_game("saint_malo", agents, seed=5)
    good = replays.write_replay(tmp_path / "game.json", record)
    browser.get(f"{url}/?delay=0")
    wait_ready(browser)
    browser.find_element(By.ID, "tab-watch").click()
    browser.find_element(By.ID, "replay-file").send_keys(str(good))
    wait_ready(browser)
    plies = len(record["actions"])
    label = lambda: browser.find_element(By.ID, "ply-label").text  # noqa: E731
    assert label() == f"0 / {plies}"
    for _ in range(3):
        browser.find_element(By.ID, "next").click()
        wait_ready(browser)
    assert label() == f"3 / {plies}"
    browser.find_element(By.ID, "prev").click()
    wait_ready(browser)
    assert label() == f"2 / {plies}"
    jump = browser.find_element(By.ID, "jump")
    jump.clear()
    jump.send_keys(str(plies // 2))
    browser.find_element(By.ID, "go").click()
    wait_ready(browser)
    assert label() == f"{plies // 2} / {plies}"
    browser.save_screenshot(str(shots / "web_replay.png"))
    browser.find_element(By.ID, "last").click()
    wait_ready(browser)
    shown = json.loads(browser.find_element(By.ID, "result").get_attribute("data-scores"))
    assert shown == record["scores"] and browser.find_element(By.ID, "result").is_displayed()
    searched = next(p for p, e in enumerate(record["evaluations"]) if e)
    jump = browser.find_element(By.ID, "jump")
    jump.clear()
    jump.send_keys(str(searched))
    browser.find_element(By.ID, "go").click()
    wait_ready(browser)
    assert "next move's search: value" in browser.find_element(By.ID, "evaluation").text
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text(json.dumps({**record, "scores": [1, 2]}))
    browser.find_element(By.ID, "tab-watch").click()
    browser.find_element(By.ID, "replay-file").send_keys(str(corrupt))
    wait_ready(browser)
    assert "re-simulating gives final scores" in error_text(browser)
    (tmp_path / "garbage.json").write_bytes(b"\x00\x01 not json")
    browser.find_element(By.ID, "replay-file").send_keys(str(tmp_path / "garbage.json"))
    wait_ready(browser)
    assert "not a replay (not valid JSON)" in error_text(browser)


# The page's POST /api/games held back ``arguments[0]`` ms, as a first game that compiles.
SLOW_NEW_GAME = """const wait = arguments[0], real = window.fetch;
window.fetch = (path, options) => path === "/api/games" ?
  new Promise((done) => setTimeout(done, wait)).then(() => real(path, options)) :
  real(path, options);"""


def wait_for(condition, seconds: float = 60.0, what: str = "the page"):
    deadline = time.time() + seconds
    while time.time() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{what}: not seen within {seconds} s")


def test_a_game_preparing_shows_until_it_is_ready_and_may_be_started(browser):
    """The server's warm-up held in hansa's first stage (until ``released``): the page
    says "preparing hansa_v0…", a start meanwhile says it is compiling and still starts
    the game, and once the warm-up is done the indicator goes."""
    from meeplezoo.play.web.server import create_app

    released, entered = threading.Event(), threading.Event()

    def held(game):
        def first():
            if game == "hansa_v0":
                entered.set()
                assert released.wait(300), "never released"
        return [("env", first)]

    port = free_port()
    app = create_app(port=port, warm_games=["hansa_v0", "saint_malo_v0"])
    app.state.warming.stages_of = held
    indicator = lambda: browser.find_element(By.ID, "warmup")  # noqa: E731
    try:
        with serving(app, port) as url:
            assert entered.wait(60)
            browser.get(f"{url}/?delay=0")
            wait_ready(browser)
            Select(browser.find_element(By.ID, "game")).select_by_value("hansa_v0")
            wait_for(lambda: indicator().get_attribute("data-state") == "preparing",
                     what="preparing hansa_v0")
            assert indicator().is_displayed()
            assert indicator().text.startswith("preparing hansa_v0… (compiling env;")
            browser.execute_script(SLOW_NEW_GAME, 2500)
            browser.find_element(By.ID, "start").click()
            starting = browser.find_element(By.ID, "starting")
            wait_for(starting.is_displayed, what="the starting line")
            assert starting.text == ("starting the game… (compiling hansa_v0: its first "
                                     "game on this server)")
            assert not browser.find_element(By.ID, "start").is_enabled()
            page = wait_ready(browser)
            assert not page["error"], page["error"]
            assert browser.find_element(By.ID, "table").is_displayed()
            assert not starting.is_displayed()
            released.set()
            browser.find_element(By.ID, "tab-play").click()
            # The page asks at most every 5 s while the warm-up runs, then no more.
            wait_for(lambda: indicator().get_attribute("data-state") == "ready",
                     what="hansa_v0 ready")
            assert not indicator().is_displayed()
            assert browser.find_element(By.ID, "start").is_enabled()
    finally:
        released.set()
