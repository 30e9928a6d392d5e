"""Run Neo4j Labs' agent-memory TCK against graphmem and print passed / failed / skipped
per tier.

The kit runs from its own directory (never copied into graphmem): it drives
``graphmem bridge`` -- started here on a free loopback port over a fresh data directory --
through its HTTP bridge protocol (``pytest --bridge-url``). Usage::

    python tools/tck.py --tck-dir ../shared/vendor/agent-memory-tck [--tiers bronze,silver,gold]

Exit status: 0 when bronze and silver each pass at least 95% with nothing skipped
(gold and platinum are reported, not gated), 1 otherwise, 2 when the kit cannot run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

TIERS = ("bronze", "silver", "gold", "platinum")
GATED = ("bronze", "silver")
PASS_RATE = 0.95
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(url: str, bridge: subprocess.Popen[bytes], timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if bridge.poll() is not None:
            raise SystemExit(f"graphmem bridge exited with {bridge.returncode} before serving")
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"graphmem bridge did not answer on {url} within {timeout_s:.0f} s")


def kit_commit(tck_dir: Path) -> str:
    origin = tck_dir / "ORIGIN.md"
    found = re.search(r"commit ([0-9a-f]{7,40})", origin.read_text()) if origin.is_file() else None
    return found.group(1) if found else "unknown"


def tier_of(test: dict) -> str:
    keywords = set(test.get("keywords", []))
    return next((t for t in TIERS if t in keywords), "untiered")


def reason(test: dict) -> str:
    for phase in ("setup", "call", "teardown"):
        crash = (test.get(phase) or {}).get("crash") or {}
        if crash.get("message"):
            return crash["message"].splitlines()[0][:160]
        longrepr = (test.get(phase) or {}).get("longrepr")
        if test.get("outcome") == "skipped" and longrepr:
            return str(longrepr).splitlines()[-1][:160]
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tck-dir", type=Path, required=True, help="The kit's directory.")
    parser.add_argument(
        "--tiers", default="bronze,silver,gold", help="Comma-separated tiers to run."
    )
    parser.add_argument("--report", type=Path, help="Also keep the kit's JSON report here.")
    args = parser.parse_args(argv)
    tck_dir = args.tck_dir.resolve()
    if not (tck_dir / "tck" / "tests").is_dir():
        print(f"agent-memory TCK not found at {tck_dir}", file=sys.stderr)
        return 2
    tiers = [t.strip() for t in args.tiers.split(",") if t.strip()]
    work = Path(tempfile.mkdtemp(prefix="gm-tck-", dir="/tmp"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    graphmem = shutil.which("graphmem", path=str(Path(sys.executable).parent)) or "graphmem"
    started = time.monotonic()
    bridge = subprocess.Popen(
        [graphmem, "--home", str(work / "home"), "bridge", "--port", str(port)],
        stdout=subprocess.DEVNULL,
    )
    # The kit opens a new httpx client for every call, and each one loads the CA bundle
    # (~70 ms, most of a call). Its bridge traffic is plain HTTP on loopback, so the kit
    # gets an empty CA directory instead (2 ms a client); nothing of the kit changes.
    (work / "no-ca").mkdir()
    kit_env = {k: v for k, v in os.environ.items() if k != "SSL_CERT_FILE"}
    kit_env |= {"PYTHONDONTWRITEBYTECODE": "1", "SSL_CERT_DIR": str(work / "no-ca")}
    try:
        wait_healthy(url, bridge)
        report = work / "report.json"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-p",
                "no:cacheprovider",
                "-q",
                "--no-header",
                "-m",
                " or ".join(tiers),
                "--bridge-url",
                url,
                "--json-report",
                f"--json-report-file={report}",
            ],
            cwd=tck_dir,
            env=kit_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            check=False,
        )
        if not report.is_file():
            print(done.stdout[-4000:], file=sys.stderr)
            return 2
        if args.report:
            shutil.copy(report, args.report)
        tests = json.loads(report.read_text())["tests"]
    finally:
        bridge.terminate()
        try:
            bridge.wait(timeout=60)
        except subprocess.TimeoutExpired:
            bridge.kill()
        # The bridge's embedded store may outlive it (stopped by a signal): stop it here.
        subprocess.run(
            [graphmem, "--home", str(work / "home"), "stop"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        shutil.rmtree(work, ignore_errors=True)
    seconds = time.monotonic() - started
    counts: dict[str, Counter[str]] = {t: Counter() for t in tiers}
    for test in tests:
        counts.setdefault(tier_of(test), Counter())[test["outcome"]] += 1
    print(
        f"agent-memory TCK (kit commit {kit_commit(tck_dir)[:12]}) against graphmem over "
        f"its HTTP bridge, {seconds:.0f} s"
    )
    print(f"{'tier':<10}{'passed':>8}{'failed':>8}{'skipped':>9}{'total':>7}  pass rate")
    ok = True
    for tier, c in counts.items():
        total = sum(c.values())
        passed, failed = c["passed"], c["failed"] + c["error"]
        rate = passed / total if total else 0.0
        print(f"{tier:<10}{passed:>8}{failed:>8}{c['skipped']:>9}{total:>7}  {rate:6.1%}")
        if tier in GATED and (rate < PASS_RATE or c["skipped"]):
            ok = False
    for test in tests:
        if test["outcome"] != "passed":
            name = test["nodeid"].split("::", 1)[-1]
            print(f"  {test['outcome']:<8}{tier_of(test):<9}{name}: {reason(test)}")
    total = Counter(o for c in counts.values() for o in c.elements())
    print(
        f"tck: {total['passed']} passed, {total['failed'] + total['error']} failed, "
        f"{total['skipped']} skipped" + ("" if ok else " (bronze/silver under 95% or skipped)")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
