"""A development latchd for the checks beyond `swift test` (readme_blocks.py, wire_goldens.py, otlp_traces.py):
started on a free loopback port with SQLite in `folder`, every LATCH_* variable (and, with `drop`, every other
prefix named) removed from the environment first, then `extra` set; ready once `GET /health` answers 200."""
import os
import socket
import subprocess
import time
import urllib.request

HOST = "127.0.0.1"


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def start_latchd(binary, folder, extra, drop=("LATCH_",)):
    """Returns (process, port, environment); latchd's output goes to FOLDER/latchd.log."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(tuple(drop))}
    env.update(LATCH_ENV="development", LATCH_HOST=HOST, LATCH_PORT=str(port),
               LATCH_DATABASE_URL="sqlite://" + os.path.join(folder, "latch.sqlite"))
    env.update(extra)
    log = open(os.path.join(folder, "latchd.log"), "w")
    process = subprocess.Popen([binary], env=env, cwd=folder, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 120
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError("latchd exited at start:\n" + open(log.name).read())
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/health", timeout=5) as answer:
                if answer.status == 200:
                    return process, port, env
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("latchd did not answer /health within 120 s:\n" + open(log.name).read())


def stop_latchd(process, timeout=60):
    """SIGTERM, as an operator stops latchd: its exit status once it has stopped, or None when it did not stop
    within `timeout` seconds (it is killed then)."""
    process.terminate()
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None
