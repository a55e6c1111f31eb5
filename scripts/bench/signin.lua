-- wrk script: password sign-ins spread over the 8 benchmark users (a storm is many people
-- signing in at once), all with the right password, each from its user's known device (an unknown
-- one would be screened: C8).
local threads = {}
local counter = 0

function setup(thread) table.insert(threads, thread) end
function init(args) failures = 0 end

function request()
  counter = counter + 1
  return wrk.format("POST", "/v1/token", { ["Content-Type"] = "application/json" },
    '{"grant_type":"password","email":"bench' .. (counter % 8) .. '@bench.test","password":"Bench-Password-1",'
      .. '"device":{"id":"bench-device"}}')
end

function response(status, headers, body) if status ~= 200 then failures = failures + 1 end end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("failures") end
  io.write(string.format("signin_failures %d\n", total))
end
