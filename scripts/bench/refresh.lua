-- wrk script: each thread owns one connection and follows its own refresh-token chain, so every
-- request is a real rotation (never a grace-window duplicate). Tokens: one per line in
-- $LATCH_BENCH_TOKENS, line OFFSET + N for thread N ($LATCH_BENCH_TOKEN_OFFSET, default 0).
local threads = {}
local count = 0

function setup(thread)
  count = count + 1
  thread:set("id", count)
  table.insert(threads, thread)
end

function init(args)
  failures = 0
  local file = assert(io.open(os.getenv("LATCH_BENCH_TOKENS")))
  local line_number = -tonumber(os.getenv("LATCH_BENCH_TOKEN_OFFSET") or "0")
  for line in file:lines() do
    line_number = line_number + 1
    if line_number == id then token = line end
  end
  file:close()
end

function request()
  return wrk.format("POST", "/v1/token", { ["Content-Type"] = "application/json" },
    '{"grant_type":"refresh_token","refresh_token":"' .. token .. '"}')
end

function response(status, headers, body)
  if status == 200 then
    token = body:match('"refresh_token":"([^"]+)"') or token
  else
    failures = failures + 1
  end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("failures") end
  io.write(string.format("refresh_failures %d\n", total))
end
