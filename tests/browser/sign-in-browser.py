#!/usr/bin/env python3
"""Plays the person's web browser in the sign-in end-to-end test (tests/e2e/signin.rs).

The app opens the sign-in page with the system's default browser (xdg-open); the test makes
this script that browser. Like a person it loads the page, reads its form, presses the
button of the account it was told to choose (the first line of the file named by
PORTHOLE_E2E_BROWSER_CHOICE), and follows the redirect back to the app's loopback address,
whose page it reads. The choice `deny` plays a person who refuses: the browser is sent back
with `error=access_denied`, as an identity provider's Cancel does (RFC 6749, 4.1.2.1). What
it saw goes to PORTHOLE_E2E_BROWSER_LOG, one line per page.

The choice `look` plays a person who only looks at the page (the web portal the key form links
to): its address is logged as `asked: <url>`, as every page's is, and nothing is fetched.

The choice `wait` plays a person who leaves the page open and does nothing, while the app
is told to stop waiting; when the choice file later names an account, it signs in after all,
late, and logs whether the app's address still answered.
"""

import html.parser
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


class SignInForm(html.parser.HTMLParser):
    """The page's first form: its action, method, fields, and buttons with their labels."""

    def __init__(self):
        super().__init__()
        self.action, self.method, self.fields, self.buttons = None, "get", [], []
        self.title, self._in_title, self._button = "", False, None
        self.text = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and self.action is None:
            self.action, self.method = a.get("action", ""), a.get("method", "get").lower()
        elif tag == "input" and a.get("name"):
            self.fields.append((a["name"], a.get("value", "")))
        elif tag == "button":
            self._button = [a.get("name"), a.get("value", ""), ""]
        elif tag == "title":
            self._in_title = True

    def handle_data(self, data):
        self.text += data
        if self._button is not None:
            self._button[2] += data
        if self._in_title:
            self.title += data

    def handle_endtag(self, tag):
        if tag == "button" and self._button is not None:
            self.buttons.append(tuple(self._button))
            self._button = None
        elif tag == "title":
            self._in_title = False


def log(line):
    path = os.environ.get("PORTHOLE_E2E_BROWSER_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")


def choice():
    with open(os.environ["PORTHOLE_E2E_BROWSER_CHOICE"], encoding="utf-8") as f:
        return f.readline().strip()


def main():
    url = sys.argv[1]
    log(f"asked: {url}")
    account = choice()
    if account == "look":
        # A page the person only looks at (the web portal): nothing to press, and it is not
        # fetched, as the test runs without the internet.
        return 0
    page = urllib.request.urlopen(url, timeout=20)
    form = SignInForm()
    form.feed(page.read().decode("utf-8", "replace"))
    log(f"opened: {form.title}")
    if account == "deny":
        fields = dict(form.fields)
        query = urllib.parse.urlencode({"error": "access_denied", "state": fields.get("state", "")})
        log("pressed: cancel")
        return visit(f"{fields['redirect_uri']}?{query}")
    if account == "wait":
        # Bounded, so a failed test leaves no browser behind for long.
        deadline = time.monotonic() + 60
        # An empty read is a choice being written, not a choice.
        while account in ("wait", "") and time.monotonic() < deadline:
            time.sleep(0.1)
            account = choice()
        log(f"late: {account}")
    chosen = next((b for b in form.buttons if f"as {account}" in b[2]), None)
    if chosen is None:
        log(f"no button for {account}")
        return 1
    log(f"pressed: {chosen[2].strip()}")
    fields = form.fields + [(chosen[0], chosen[1])]
    target = urllib.parse.urljoin(page.geturl(), form.action or page.geturl())
    body = urllib.parse.urlencode(fields).encode()
    return visit(urllib.request.Request(target, data=body))


def visit(request):
    """Loads a page (following redirects, as a browser does) and logs where it ended."""
    try:
        back = urllib.request.urlopen(request, timeout=20)
    except urllib.error.HTTPError as refused:
        back = refused  # An error page is still a page a person would read.
    except urllib.error.URLError as unreachable:
        log(f"unreachable: {unreachable.reason}")
        return 0
    landed = SignInForm()
    landed.feed(back.read().decode("utf-8", "replace"))
    where = urllib.parse.urlsplit(back.geturl())
    log(f"landed: {where.scheme}://{where.netloc}{where.path} {' '.join(landed.text.split())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
