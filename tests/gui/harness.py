"""Shared pieces of the browser tests: start `quill gui`, start headless Chromium through
chromedriver (selenium), read the page's state, take screenshots, and find the server's engine
processes. Used by tests/gui/test_gui.py."""

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
QUILL = os.environ.get("QUILL", os.path.join(ROOT, "target", "release", "quill"))
SHOTS = os.path.join(ROOT, "target", "gui-shots")


class Server:
    """`quill gui` on a free port, its address read from its first line."""

    def __init__(self, *args):
        self.proc = subprocess.Popen(
            [QUILL, "gui", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        line = self.proc.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+))", line)
        if not m:
            self.proc.kill()
            raise RuntimeError(f"quill gui printed no address: {line!r}")
        self.url, self.port, self.token = m.group(1), int(m.group(2)), m.group(3)

    def children(self):
        """The process ids of the server's children (its engines)."""
        return descendants(self.proc.pid)

    def stop(self, sig=signal.SIGTERM, wait=5):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(wait)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()


def descendants(pid):
    """Every process whose chain of parents reaches `pid`, from /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents[int(entry)] = ppid
    out = []
    for p in parents:
        q = p
        for _ in range(64):
            q = parents.get(q)
            if q is None:
                break
            if q == pid:
                out.append(p)
                break
    return out


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def browser():
    """Headless Chromium through chromedriver, with a fresh profile."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    profile = tempfile.mkdtemp(prefix="quill-gui-chrome-")
    for a in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,800",
        f"--user-data-dir={profile}",
    ]:
        opts.add_argument(a)
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        opts.binary_location = binary
    driver_path = shutil.which("chromedriver")
    service = Service(executable_path=driver_path) if driver_path else Service()
    d = webdriver.Chrome(service=service, options=opts)
    d.set_script_timeout(30)
    d._quill_profile = profile
    return d


def close(d):
    profile = getattr(d, "_quill_profile", None)
    try:
        d.quit()
    finally:
        if profile:
            shutil.rmtree(profile, ignore_errors=True)


def state(d):
    return d.execute_script("return window.quillTest && window.quillTest.state")


def wait(d, predicate, timeout=40, what="a condition"):
    end = time.time() + timeout
    last = None
    while time.time() < end:
        try:
            last = predicate(d)
            if last:
                return last
        except Exception as e:  # the page may be between two states
            last = e
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r}){page_facts(d)}")


def rendered(d):
    """Whether the page has drawn the last state it received: the page draws once a frame
    (the latest state only), so what it shows may lag what `state(d)` returns. A test that
    reads the page after waiting on the state waits on this first."""
    return d.execute_script(
        "const s = window.quillTest && window.quillTest.state;"
        " return !!s && document.body.dataset.version === String(s.version)")


def wait_rendered(d, what="the page to draw the last state"):
    wait(d, rendered, what=what)


def connected(d):
    """The page's socket is open and the server's first state has come over it."""
    return d.execute_script(
        "return document.getElementById('connection').textContent === 'connected'"
        " && !!(window.quillTest && window.quillTest.state)")


def page_facts(d):
    """What the page says about itself, for a failure's message."""
    if d is None:
        return ""
    try:
        facts = d.execute_script(
            "const q = window.quillTest; return {connection: document.getElementById('connection').textContent,"
            " lastError: q && q.lastError, entry: q && q.entry, me: q && q.me, controller: q && q.controller,"
            " status: document.getElementById('status').textContent,"
            " version: q && q.state && q.state.version, entering: q && q.state && q.state.entering}")
        return f"; the page: {json.dumps(facts)}"
    except Exception as e:  # the page itself may be gone
        return f"; the page could not be read: {e}"


DOC_SHOTS = os.path.join(ROOT, "docs", "img")


def shot(d, name, doc=None):
    """Saves a screenshot to target/gui-shots/NAME.png; with QUILL_DOC_SHOTS=1 in the
    environment, one named `doc` is also written to docs/img/DOC.png (the README's pictures)."""
    os.makedirs(SHOTS, exist_ok=True)
    d.save_screenshot(os.path.join(SHOTS, name + ".png"))
    if doc and os.environ.get("QUILL_DOC_SHOTS") == "1":
        d.save_screenshot(os.path.join(DOC_SHOTS, doc + ".png"))


def click_square(d, sq):
    """Clicks a square of the board where a person would (its centre)."""
    d.execute_script(
        """
        const sq = arguments[0];
        const r = document.querySelector(`#board rect.square[data-sq="${sq}"]`);
        const b = r.getBoundingClientRect();
        const o = {bubbles: true, clientX: b.x + b.width / 2, clientY: b.y + b.height / 2,
                   pointerId: 1, isPrimary: true};
        const svg = document.getElementById('board');
        svg.dispatchEvent(new PointerEvent('pointerdown', o));
        svg.dispatchEvent(new PointerEvent('pointerup', o));
        """,
        sq,
    )


def square_centre(d, sq):
    return d.execute_script(
        """
        const r = document.querySelector(`#board rect.square[data-sq="${arguments[0]}"]`);
        const b = r.getBoundingClientRect();
        return [b.x + b.width / 2, b.y + b.height / 2];
        """,
        sq,
    )


def drag(d, a, b):
    """Drags from square a to square b with the mouse (real input events through WebDriver)."""
    from selenium.webdriver.common.action_chains import ActionChains

    ax, ay = square_centre(d, a)
    bx, by = square_centre(d, b)
    board = d.find_element("id", "board")
    rect = board.rect
    # ActionChains offsets are from the element's centre.
    cx, cy = rect["width"] / 2, rect["height"] / 2
    ox, oy = rect["x"], rect["y"]
    chain = ActionChains(d, duration=50)
    chain.move_to_element_with_offset(board, ax - ox - cx, ay - oy - cy).click_and_hold()
    chain.move_by_offset((bx - ax) / 2, (by - ay) / 2).move_by_offset((bx - ax) / 2, (by - ay) / 2)
    chain.release().perform()


def targets(d):
    return d.execute_script(
        "return [...document.querySelectorAll('#board circle.target')].map(c => c.dataset.sq)"
    )


def entering(d):
    return d.execute_script("return document.getElementById('status').dataset.entering")
