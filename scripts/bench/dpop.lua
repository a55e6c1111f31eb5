-- wrk script for the DPoP benchmark (issue 31). Each thread owns one connection, one session and its own
-- proofs (one per line in $LATCH_BENCH_PROOFS<N>.txt, each used once). $LATCH_BENCH_MODE:
--   me:      GET /v1/me with `Authorization: DPoP <token>` (token: line N of $LATCH_BENCH_TOKENS) and a proof
--   refresh: POST /v1/token refresh_token grant with a proof, following the thread's own rotation chain
-- Without $LATCH_BENCH_PROOFS the same requests go as bearer (me) or without a proof (refresh).
local threads = {}
local count = 0

function setup(thread)
  count = count + 1
  thread:set("id", count)
  table.insert(threads, thread)
end

function init(args)
  failures = 0
  mode = os.getenv("LATCH_BENCH_MODE")
  local file = assert(io.open(os.getenv("LATCH_BENCH_TOKENS")))
  local line_number = 0
  for line in file:lines() do
    line_number = line_number + 1
    if line_number == id then token = line end
  end
  file:close()
  proofs = {}
  next_proof = 1
  local prefix = os.getenv("LATCH_BENCH_PROOFS")
  if prefix then
    for line in io.lines(prefix .. id .. ".txt") do table.insert(proofs, line) end
  end
end

local function proof_headers(headers)
  if #proofs > 0 then
    headers["DPoP"] = proofs[next_proof]
    next_proof = next_proof % #proofs + 1
  end
  return headers
end

function request()
  if mode == "me" then
    local scheme = (#proofs > 0) and "DPoP " or "Bearer "
    return wrk.format("GET", "/v1/me", proof_headers({ ["Authorization"] = scheme .. token }))
  end
  return wrk.format("POST", "/v1/token", proof_headers({ ["Content-Type"] = "application/json" }),
    '{"grant_type":"refresh_token","refresh_token":"' .. token .. '"}')
end

function response(status, headers, body)
  if status == 200 then
    if mode == "refresh" then token = body:match('"refresh_token":"([^"]+)"') or token end
  else
    failures = failures + 1
  end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("failures") end
  io.write(string.format("dpop_failures %d\n", total))
  io.write(string.format("requests_per_sec %.1f\n", summary.requests / (summary.duration / 1e6)))
end
