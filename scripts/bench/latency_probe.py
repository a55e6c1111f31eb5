"""Measures GET latency at a gentle, fixed rate (so the probe itself does not load the server).

usage: latency_probe.py URL SECONDS [RATE_PER_SECOND]  -> prints "p50 … p99 … max … n …" in ms
"""
import http.client, sys, time, urllib.parse

url = urllib.parse.urlparse(sys.argv[1])
seconds, rate = float(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 200.0
connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
latencies, errors = [], 0
start = time.perf_counter()
next_send = start
while time.perf_counter() - start < seconds:
    now = time.perf_counter()
    if now < next_send:
        time.sleep(next_send - now)
    next_send += 1 / rate
    sent = time.perf_counter()
    connection.request("GET", url.path)
    response = connection.getresponse()
    response.read()
    latencies.append((time.perf_counter() - sent) * 1000)
    errors += response.status != 200
latencies.sort()
pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
print(f"p50 {pick(0.5):.2f}ms p99 {pick(0.99):.2f}ms max {latencies[-1]:.2f}ms n {len(latencies)} non-200 {errors}")
