-- wrk script: password sign-ins of the benchmark user (correct password, so no lockout).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"grant_type":"password","email":"bench0@bench.test","password":"Bench-Password-1"}'

local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) failures = 0 end
function response(status, headers, body) if status ~= 200 then failures = failures + 1 end end
function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("failures") end
  io.write(string.format("signin_failures %d\n", total))
end
