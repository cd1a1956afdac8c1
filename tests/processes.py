"""The site as production runs it, for tests: real server and worker processes, and nginx in front.

`Site` starts, on free ports of the loopback:

- N ASGI servers, each with the command of deploy/systemd/bilka-asgi@.service (uvicorn with the
  unit's flags), as `bilka-asgi@PORT` units run them;
- the Celery workers of deploy/systemd/bilka-worker.service (the default queue: move clocks,
  beginner bots, the tournament day) and bilka-bots.service (the strong bots), with their commands;
- optionally nginx with the site file deploy/check-nginx renders (`Nginx`), in front of the servers.

Every process runs in a session (process group) of its own and is stopped as systemd stops its
unit: a server with SIGTERM to its whole group (`KillMode=control-group`: its move workers too), a
worker with SIGTERM to its main process only (`KillMode=mixed`: the pool finishes its tasks), then
SIGKILL to what is left of the group once the main process is gone or `TimeoutStopSec` has passed.
`Site.close` stops everything however the test ends.

All processes use tests/processes_settings.py: the test database (`DATABASE_URL` names it), this
run's Redis database and channel-layer prefix, and queues, a control exchange and a cache of the
site's own (`BILKA_SITE_ID`), so that the other pytest-xdist worker's sites and the run's session
worker (tests/conftest.py) never take its tasks. A test that uses a Site needs
`@pytest.mark.django_db(transaction=True)`: the processes see committed rows only.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests
from django.conf import settings

from config.settings.base import redis_cache
from tests.conftest import REPO_ROOT, _database_url

UNITS = REPO_ROOT / "deploy" / "systemd"
#: Seconds for a process to answer after it was started: seconds on an idle machine, tens on a busy one.
START_TIMEOUT = 240.0
SETTINGS_MODULE = "tests.processes_settings"


def free_port() -> int:
    """A port free on the loopback now (the kernel's choice, so two test processes differ)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def uvicorn(args: list[str], *, port: int, env: dict[str, str], log: Path, start_timeout: float,
            stop_timeout: float = 30.0) -> Iterator[subprocess.Popen]:
    """`python -m uvicorn ARGS` from the checkout (its output in `log`) once `port` answers; stopped
    (SIGTERM, then SIGKILL after `stop_timeout`) when the block ends, however it ends. For a test of
    one server with bin/site's own flags; `Site` runs the production units."""
    with log.open("w") as out:
        process = subprocess.Popen(  # noqa: S603 - uvicorn with the caller's (bin/site's) flags
            [sys.executable, "-m", "uvicorn", *args], cwd=REPO_ROOT, env=env, stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + start_timeout
        while not _listening(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"uvicorn did not start:\n{log.read_text()}")
            time.sleep(0.2)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=stop_timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1.0)
        return s.connect_ex(("127.0.0.1", port)) == 0


class Unit:
    """What a systemd unit file of deploy/systemd/ says about running its process."""

    def __init__(self, name: str) -> None:
        self.name = name
        text = (UNITS / name).read_text().replace("\\\n", " ")
        self.exec_start: list[str] = []
        self.environment: dict[str, str] = {}
        self.kill_mode = "control-group"
        self.stop_timeout = 90.0
        for line in text.splitlines():
            key, _, value = line.strip().partition("=")
            if key == "ExecStart":
                self.exec_start = shlex.split(value)
            elif key == "Environment":
                self.environment.update(word.split("=", 1) for word in shlex.split(value))
            elif key == "KillMode":
                self.kill_mode = value.strip()
            elif key == "TimeoutStopSec":
                self.stop_timeout = float(value.strip())
        if not self.exec_start:
            raise AssertionError(f"{name} has no ExecStart=")

    def command(self, *, instance: str = "", host: str, variables: dict[str, str]) -> list[str]:
        """ExecStart= as systemd would run it here: the checkout's venv for /srv/bilka/.venv, the
        instance for %i, `host` for %H, ${VAR} from `variables`."""
        words = []
        for word in self.exec_start:
            word = word.replace("%i", instance).replace("%H", host)
            words.append(re.sub(r"\$\{(\w+)\}", lambda m: variables[m[1]], word))
        program = Path(words[0])
        if program.is_relative_to("/srv/bilka/.venv/bin"):
            words[0] = str(Path(sys.executable).parent / program.name)
        return words


class Process:
    """One process started in a session of its own, stopped as its unit's KillMode says."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], log_path: Path,
                 unit: Unit) -> None:
        self.name, self.command, self.env, self.log_path, self.unit = name, command, env, log_path, unit
        self.popen: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        with self.log_path.open("a") as log:
            log.write(f"\n===== start {self.starts}: {shlex.join(self.command)}\n")
            log.flush()
            self.popen = subprocess.Popen(  # noqa: S603 - the unit's own command line
                self.command, cwd=REPO_ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    @property
    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def stop(self) -> int | None:
        """Stop it as systemd does; its exit code (None if it was not running)."""
        if self.popen is None:
            return None
        popen, self.popen = self.popen, None
        group = popen.pid  # its own session: the group id is its pid
        if popen.poll() is None:
            if self.unit.kill_mode == "control-group":
                _signal_group(group, signal.SIGTERM)
            else:
                popen.send_signal(signal.SIGTERM)
            try:
                popen.wait(timeout=self.unit.stop_timeout)
            except subprocess.TimeoutExpired:
                _signal_group(group, signal.SIGKILL)
                popen.wait()
        _signal_group(group, signal.SIGKILL)  # whatever it left behind, as systemd's final SIGKILL
        return popen.returncode

    def kill(self) -> None:
        if self.popen is not None:
            _signal_group(self.popen.pid, signal.SIGKILL)
            self.popen.wait()
            self.popen = None

    def log_tail(self, chars: int = 3000) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""
        return f"--- {self.name} ({self.log_path}):\n{text[-chars:]}"


def _signal_group(group: int, sig: int) -> None:
    try:
        os.killpg(group, sig)
    except ProcessLookupError:
        pass


class Site:
    """N ASGI servers and the two Celery workers of one site, on the test database (see the module)."""

    def __init__(self, folder: Path, *, servers: int = 2, origins: tuple[str, ...] = (),
                 move_processes: int = 1, beat: bool = False) -> None:
        self.id = uuid.uuid4().hex[:8]
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.ports = [free_port() for _ in range(servers)]
        while len(set(self.ports)) < servers:
            self.ports = [free_port() for _ in range(servers)]
        self.prefix = f"bilka-test-{settings.RUN_ID}-{self.id}"
        self.origins = [f"http://127.0.0.1:{port}" for port in self.ports] + list(origins)
        db = settings.DATABASES["default"]
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": SETTINGS_MODULE,
            "DATABASE_URL": _database_url(db),
            "REDIS_URL": settings.REDIS_URL,
            "BILKA_RUN_ID": settings.RUN_ID,
            "BILKA_SITE_ID": self.id,
            "BILKA_WS_ORIGINS": ",".join(self.origins),
            "GAMEPLAY_MOVE_PROCESSES": str(move_processes),
            "PYTHONPATH": str(REPO_ROOT),
            "PYTHONUNBUFFERED": "1",
        }
        host = f"{socket.gethostname()}-{self.id}"
        asgi = Unit("bilka-asgi@.service")
        self.servers = [
            Process(f"asgi@{port}", asgi.command(instance=str(port), host=host, variables=self.env),
                    self.env, folder / f"asgi-{port}.log", asgi)
            for port in self.ports
        ]
        self.workers = [
            self._worker("bilka-worker.service", "worker", {"BILKA_WORKER_QUEUES": self.prefix,
                                                            "BILKA_WORKER_CONCURRENCY": "1"}, host),
            self._worker("bilka-bots.service", "bots", {"BOT_QUEUE": f"{self.prefix}-bots",
                                                        "BOT_WORKERS": "1"}, host),
        ]
        # beat=True: the site's one beat too (bilka-beat.service), sending the periodic plans of the
        # test database to this site's queue: the dead-server reaper and the lost-task sweep, which
        # in production recover what a restart loses (see test_deploy_two_processes.py).
        self.beat: Process | None = None
        if beat:
            unit = Unit("bilka-beat.service")
            words = [w.replace("/run/bilka-beat", str(folder))
                     for w in unit.command(host=host, variables=self.env)]
            self.beat = Process("beat", words, self.env, folder / "beat.log", unit)

    def _worker(self, unit_name: str, name: str, values: dict[str, str], host: str) -> Process:
        unit = Unit(unit_name)
        env = {**self.env, **unit.environment, **values, "DJANGO_SETTINGS_MODULE": SETTINGS_MODULE}
        return Process(name, unit.command(host=host, variables=env), env, self.folder / f"{name}.log", unit)

    # --- starting and stopping -------------------------------------------------------------------

    def start(self) -> None:
        for worker in self._others():
            worker.start()
        for index in range(len(self.servers)):
            self.start_server(index, wait=False)
        for index in range(len(self.servers)):
            self.wait_healthy(index)

    def start_server(self, index: int, *, wait: bool = True) -> None:
        server = self.servers[index]
        if _listening(self.ports[index]):
            raise AssertionError(f"port {self.ports[index]} was taken by another program meanwhile")
        server.start()
        if wait:
            self.wait_healthy(index)

    def stop_server(self, index: int) -> int | None:
        return self.servers[index].stop()

    def restart_workers(self) -> None:
        """Stop both workers (a warm shutdown: running tasks finish), then start them again."""
        for worker in self.workers:
            worker.stop()
        for worker in self.workers:
            worker.start()

    def wait_healthy(self, index: int) -> None:
        """Until the server's /health/ answers 200 (the database, Redis and a worker answer), as
        the rolling restart of docs/deploy.md waits before the next process."""
        server, port = self.servers[index], self.ports[index]
        deadline = time.monotonic() + START_TIMEOUT
        last = ""
        while time.monotonic() < deadline:
            if not server.running:
                raise AssertionError(f"{server.name} exited:\n{self.diagnostics()}")
            try:
                answer = requests.get(f"http://127.0.0.1:{port}/health/?format=json", timeout=10)
                if answer.status_code == 200:
                    return
                last = f"{answer.status_code} {answer.text[:300]}"
            except requests.RequestException as exc:
                last = repr(exc)
            time.sleep(0.3)
        raise AssertionError(f"{server.name} not healthy after {START_TIMEOUT:.0f} s ({last}):\n"
                             f"{self.diagnostics()}")

    def _others(self) -> list[Process]:
        """The workers, and the beat if this site has one."""
        return [*self.workers, *([self.beat] if self.beat else [])]

    def close(self) -> None:
        """Stop every process, servers first; kill any that will not stop."""
        for process in [*self.servers, *self._others()]:
            try:
                process.stop()
            except Exception:  # noqa: BLE001 - whatever happens, the others are stopped too
                process.kill()

    # --- addresses and diagnostics ---------------------------------------------------------------

    def url(self, index: int) -> str:
        return f"http://127.0.0.1:{self.ports[index]}"

    def ws_url(self, index: int, path: str) -> str:
        return f"ws://127.0.0.1:{self.ports[index]}{path}"

    def cache_settings(self) -> dict:
        """The site's cache, for the test process to use when it changes rows the pages show."""
        return redis_cache(settings.REDIS_URL, self.prefix)

    def diagnostics(self) -> str:
        return "\n".join(p.log_tail() for p in [*self.servers, *self._others()])


class Nginx:
    """nginx with the site file that deploy/check-nginx renders (and checks), in front of `addresses`,
    in a folder of its own: its main config, pid file, logs and a self-signed certificate for
    localhost. Run as deploy/try-behind-nginx runs it."""

    def __init__(self, addresses: list[str], *, http_port: int, https_port: int) -> None:
        self.http_port, self.https_port = http_port, https_port
        # nginx's workers run as nobody when it is started as root: they must reach its temp paths
        self.folder = Path(tempfile.mkdtemp(prefix="bilka-test-nginx-"))
        self.folder.chmod(0o755)
        self.env = {**os.environ, "BILKA_ASGI_ADDRESSES": " ".join(addresses),
                    "BILKA_SERVER_NAME": "localhost",
                    "BILKA_HTTP_PORT": str(http_port), "BILKA_HTTPS_PORT": str(https_port)}
        self.popen: subprocess.Popen | None = None

    @staticmethod
    def missing() -> str:
        """Why nginx cannot run here, or "" when it can."""
        if shutil.which("nginx") is None:
            return "nginx is not installed (Debian: apt-get install -y nginx); bin/test does not install it"
        if shutil.which("openssl") is None:
            return "openssl is not installed (deploy/check-nginx makes a certificate with it)"
        return ""

    @property
    def origin(self) -> str:
        return f"https://localhost:{self.https_port}"

    @property
    def certificate(self) -> Path:
        return self.folder / "tls" / "cert.pem"

    @property
    def access_log(self) -> Path:
        return self.folder / "logs" / "bilka.access.log"

    def start(self) -> None:
        checked = subprocess.run(  # noqa: S603 - the checkout's own script
            [str(REPO_ROOT / "deploy" / "check-nginx"), str(self.folder)],
            env=self.env, capture_output=True, text=True, timeout=120, check=False,
        )
        if checked.returncode != 0:
            raise AssertionError(f"deploy/check-nginx failed:\n{checked.stdout}\n{checked.stderr}")
        with (self.folder / "logs" / "nginx.out").open("a") as out:
            self.popen = subprocess.Popen(  # noqa: S603 - as deploy/try-behind-nginx runs it
                ["nginx", "-p", f"{self.folder}/", "-c", str(self.folder / "nginx.conf"),
                 "-e", str(self.folder / "logs" / "error.log")],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while not _listening(self.https_port):
            if self.popen.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"nginx did not start:\n{self.log_tail()}")
            time.sleep(0.2)

    def close(self) -> None:
        if self.popen is not None:
            group = self.popen.pid
            _signal_group(group, signal.SIGQUIT)  # a graceful stop
            try:
                self.popen.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
            _signal_group(group, signal.SIGKILL)
            self.popen.wait()
            self.popen = None
        shutil.rmtree(self.folder, ignore_errors=True)

    def log_tail(self, chars: int = 3000) -> str:
        out = []
        for name in ("nginx.out", "error.log", "bilka.error.log"):
            path = self.folder / "logs" / name
            if path.exists():
                out.append(f"--- nginx {name}:\n{path.read_text(errors='replace')[-chars:]}")
        return "\n".join(out)
