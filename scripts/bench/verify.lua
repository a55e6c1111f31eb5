-- wrk script: step-up verification throughput. Each thread owns one connection and one signed-in
-- session and runs whole verifications in a loop, each three requests:
--   POST /v1/verifications {action, parameters}             (201: verification_id; hold check, offers)
--   POST /v1/verifications/{id}/attempts {fund_password}    (200: verification_token; bcrypt, ladder, budget)
--   POST /v1/verifications/redeem {token, action, params}   (200: redeemed; session, user and hold checks)
-- Access tokens: one per line in $LATCH_BENCH_TOKENS, line OFFSET + N for thread N
-- ($LATCH_BENCH_TOKEN_OFFSET, default 0). The fund password is $LATCH_BENCH_FUND_PASSWORD (seed.py
-- stores it for the bench users). Prints the completed verifications and any non-2xx step.
local threads = {}
local count = 0
local action = '"action":"withdrawal","parameters":{"amount":"1.5","asset":"BTC","to":"bc1qbench"}'

function setup(thread)
  count = count + 1
  thread:set("id", count)
  table.insert(threads, thread)
end

function init(args)
  failures = 0
  verified = 0
  step = "start"
  fund = os.getenv("LATCH_BENCH_FUND_PASSWORD") or "739251"
  local file = assert(io.open(os.getenv("LATCH_BENCH_TOKENS")))
  local line_number = -tonumber(os.getenv("LATCH_BENCH_TOKEN_OFFSET") or "0")
  for line in file:lines() do
    line_number = line_number + 1
    if line_number == id then token = line end
  end
  file:close()
  headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }
end

function request()
  if step == "attempt" then
    return wrk.format("POST", "/v1/verifications/" .. verification .. "/attempts", headers,
      '{"method":"fund_password","fund_password":"' .. fund .. '"}')
  elseif step == "redeem" then
    return wrk.format("POST", "/v1/verifications/redeem", headers,
      '{"verification_token":"' .. proof .. '",' .. action .. '}')
  end
  return wrk.format("POST", "/v1/verifications", headers, '{' .. action .. '}')
end

function response(status, headers, body)
  if step == "start" then
    verification = status == 201 and body:match('"verification_id":"([^"]+)"')
    if verification then step = "attempt" else failures = failures + 1 end
  elseif step == "attempt" then
    proof = status == 200 and body:match('"verification_token":"([^"]+)"')
    if proof then step = "redeem" else failures = failures + 1; step = "start" end
  else
    if status == 200 then verified = verified + 1 else failures = failures + 1 end
    step = "start"
  end
end

function done(summary, latency, requests)
  local total, failed = 0, 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("verified")
    failed = failed + thread:get("failures")
  end
  io.write(string.format("verifications %d\n", total))
  io.write(string.format("verifications_per_sec %.1f\n", total / (summary.duration / 1e6)))
  io.write(string.format("verification_failures %d\n", failed))
end
