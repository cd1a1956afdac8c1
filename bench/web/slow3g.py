"""Benchmark: the hall's pages on a 3G phone — the player's match page, the round's pairings and the
hall screen, from a cold cache, under Chromium's "Slow 3G" emulation with the CPU slowed 4×.

Builds once (kept between runs; `--rebuild` makes it again) a PostgreSQL database with the demo
club and its tournaments (`seed_demo`, `seed_demo_tournaments`), gathers the static files as
production does (hashed, precompressed: `CompressedManifestStaticFilesStorage`) and starts one
uvicorn process with the production-like settings of bench/web/settings.py. Then, for each page,
`--runs` times (5), a fresh browser context (nothing cached, no service worker yet) signed in as
the player of an open match, with the network throttled through the DevTools protocol exactly as
DevTools' "Slow 3G" preset (2,000 ms latency, 50,000 bytes/s down and up:
`Network.emulateNetworkConditions`) and `Emulation.setCPUThrottlingRate` 4. It prints, per page:

- the bytes transferred (every response's `encodedDataLength`, headers included) and the requests,
  up to the page's load event;
- the time to a **usable** page: the page painted (first contentful paint) and its form enabled
  (the match page: the final score's boxes and their button visible and enabled; the pairings: the
  first table's pairing shown; the hall screen: its first table shown), in the page's own clock
  from the navigation's start;
- first contentful paint, DOMContentLoaded and load, for reading the usable time.

Goal: the player's match page usable within 3 s. The figures are medians with the
range of the runs. Loopback only; the emulation's latency stands for the network.

    .venv/bin/python -m bench.web.slow3g [--runs 5] [--rebuild] [--no-throttle]

`DATABASE_URL` defaults to postgres://postgres@127.0.0.1:5432/bilka_bench_3g, `REDIS_URL` to
redis://127.0.0.1:6379/14.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from .common import ROOT, ensure_database, start_server

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bilka_bench_3g")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
os.environ["DJANGO_SETTINGS_MODULE"] = "bench.web.settings"

SLOW_3G = {"offline": False, "latency": 2000, "downloadThroughput": 50_000, "uploadThroughput": 50_000}
"""DevTools' "Slow 3G" preset (front_end/core/sdk/NetworkManager.ts: 500 kbit/s × 0.8, 400 ms × 5)."""
CPU_SLOWDOWN = 4

USABLE = {
    # the match page: the final score's boxes and the button that sends them, shown and enabled
    "match": """() => {
        const box = document.querySelector('input[name="final-home_eyes"]');
        const button = box && box.form && box.form.querySelector('button[type="submit"], button:not([type])');
        return !!(box && button && !box.disabled && !button.disabled
                  && box.getBoundingClientRect().height > 0 && button.getBoundingClientRect().height > 0);
    }""",
    "pairings": """() => {
        const cell = document.querySelector('ul.pairings li.pairing');
        return !!(cell && cell.getBoundingClientRect().height > 0);
    }""",
    "hall": """() => {
        const cell = document.querySelector('.hall-table, .hall-empty');
        return !!(cell && cell.getBoundingClientRect().height > 0);
    }""",
}
PAINTED = "() => performance.getEntriesByName('first-contentful-paint').length > 0"


def prepare(rebuild: bool) -> None:
    """Create and migrate the database when needed, and seed the demo club and its tournaments."""
    exists = ensure_database(rebuild=rebuild)
    manage = [sys.executable, "manage.py"]
    if not exists:
        for command in ("seed_demo", "seed_demo_tournaments"):
            subprocess.run([*manage, command, "-v0"], cwd=ROOT, check=True)  # noqa: S603


def pages() -> tuple[dict[str, str], str]:
    """The three addresses (an open match of a paired round, with a player of it who has an
    account; its round's pairings; its event's hall screen) and that player's session cookie."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from tournaments import permissions
    from tournaments.models import Match, MatchStatus

    for match in (Match.objects.filter(status=MatchStatus.SCHEDULED, bye=False)
                  .select_related("tournament", "round", "home", "away").order_by("pk")):
        for entry in (match.home, match.away):
            for player in (entry.player_a, entry.player_b):
                user = getattr(player, "user", None) if player else None
                if user is not None and permissions.side_of(user, match) is not None:
                    session = SessionStore()
                    session[SESSION_KEY] = str(user.pk)
                    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
                    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
                    session.create()
                    slug = match.tournament.slug
                    return {
                        "match": match.get_absolute_url(),
                        "pairings": f"/t/{slug}/rounds/{match.round.number}/",
                        "hall": f"/t/{slug}/hall/",
                    }, session.session_key
    raise SystemExit("no open match with a player who has an account: run with --rebuild")


def measure(browser, base: str, path: str, usable: str, session: str, throttle: bool) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True, locale="ru-RU")
    context.add_cookies([{"name": "sessionid", "value": session, "url": base},
                         {"name": "django_language", "value": "ru", "url": base}])
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if throttle:
        cdp.send("Network.emulateNetworkConditions", SLOW_3G)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    sizes: dict[str, float] = {}
    loaded = {"done": False}
    cdp.on("Network.loadingFinished",
           lambda e: None if loaded["done"] else sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
    # the page itself notes the first moment it is usable, in its own clock (polled every 20 ms)
    page.add_init_script(f"""(() => {{
        const usable = {usable}, painted = {PAINTED};
        const timer = setInterval(() => {{
            try {{
                if (usable() && painted()) {{ window.__usable = performance.now(); clearInterval(timer); }}
            }}
            catch (e) {{ /* not parsed yet */ }}
        }}, 20);
    }})();""")
    page.goto(base + path, wait_until="load", timeout=120_000)
    loaded["done"] = True
    try:
        page.wait_for_function("() => window.__usable !== undefined", timeout=60_000, polling=100)
    except Exception:
        print(page.evaluate(f"[({usable})(), ({PAINTED})(), location.href, document.title, "
                            "performance.getEntriesByType('paint').length]"))
        raise
    timing = page.evaluate("""() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        return {usable: window.__usable, fcp: paint ? paint.startTime : NaN,
                dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, html: nav.encodedBodySize};
    }""")
    context.close()
    return {**timing, "bytes": sum(sizes.values()), "requests": len(sizes)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--no-throttle", action="store_true", help="the same pages on the loopback as it is")
    args = parser.parse_args()
    if not 1 <= args.runs <= 20:
        parser.error("1 to 20 runs")
    prepare(args.rebuild)
    addresses, session = pages()
    static_root = Path(tempfile.mkdtemp(prefix="bilka-3g-static-"))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.web.slow3g_settings",
           "BENCH_STATIC_ROOT": str(static_root)}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],  # noqa: S603
                   cwd=ROOT, env=env, check=True)
    server, base = start_server(env)
    from playwright.sync_api import sync_playwright

    try:
        condition = "no throttling" if args.no_throttle else (
            f"Slow 3G ({SLOW_3G['latency']} ms, {SLOW_3G['downloadThroughput']:,} B/s), "
            f"CPU {CPU_SLOWDOWN}× slower")
        print(f"{condition}; cold cache; {args.runs} runs a page; load average {os.getloadavg()[0]:.2f}",
              flush=True)
        print(f"{'page':<10} {'KB':>7} {'req':>4} {'HTML KB':>8} {'usable s (range)':>22} {'FCP s':>6} "
              f"{'DCL s':>6} {'load s':>6}  address", flush=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            for name, path in addresses.items():
                runs = [measure(browser, base, path, USABLE[name], session, not args.no_throttle)
                        for _ in range(args.runs)]

                def med(key: str, runs=runs) -> float:
                    return statistics.median(r[key] for r in runs) / 1000

                usable = sorted(r["usable"] / 1000 for r in runs)
                print(f"{name:<10} {statistics.median(r['bytes'] for r in runs) / 1024:>7.1f} "
                      f"{statistics.median(r['requests'] for r in runs):>4.0f} "
                      f"{statistics.median(r['html'] for r in runs) / 1024:>8.1f} "
                      f"{med('usable'):>8.2f} ({usable[0]:.2f}–{usable[-1]:.2f}) "
                      f"{med('fcp'):>6.2f} {med('dcl'):>6.2f} {med('load'):>6.2f}  {path}", flush=True)
            browser.close()
        print(f"load average after: {os.getloadavg()[0]:.2f}", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
