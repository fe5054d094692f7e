-- wrk script of Scripts/loadtest.sh: a mix of reads by key and writes against trove-server.
--
--   wrk -t2 -c64 -d15s --latency -s mix.lua http://127.0.0.1:18080 -- READ_PERCENT ITEMS MAX_PER_THREAD
--
-- READ_PERCENT of the requests are `GET /users/user-K` for a random seeded K; the other ones are
-- writes, half `PUT /users/user-K` (a seeded user moved to a random city) and half `POST /users`
-- (a new user). Each thread stops after MAX_PER_THREAD responses (0: no bound), so a run is bounded in
-- requests as well as in time (wrk's -d). Every response that is not 2xx is counted; `done`
-- prints one RESULT line that loadtest.sh reads.

local threads = {}
local thread_count = 0

function setup(thread)
   thread_count = thread_count + 1
   thread:set("thread_number", thread_count)
   table.insert(threads, thread)
end

local read_percent, items, max_requests
local responses = 0
-- Global, not local: `done` reads it from each thread's state with thread:get.
non2xx = 0
local put_headers = { ["Content-Type"] = "application/json" }

function init(args)
   read_percent = tonumber(args[1] or "90")
   items = tonumber(args[2] or "10000")
   max_requests = tonumber(args[3] or "0")
   math.randomseed(os.time() * 1000 + thread_number)
end

local function body(k)
   return string.format(
      '{"name":"User %d","email":"user%d@example.com","city":"city-%d","age":%d}',
      k, k, math.random(0, 49), 18 + k % 60)
end

function request()
   local k = math.random(0, items - 1)
   if math.random(1, 100) <= read_percent then
      return wrk.format("GET", "/users/user-" .. k)
   elseif math.random(1, 2) == 1 then
      return wrk.format("PUT", "/users/user-" .. k, put_headers, body(k))
   else
      return wrk.format("POST", "/users", put_headers, body(k))
   end
end

function response(status, headers, body)
   responses = responses + 1
   if status < 200 or status > 299 then
      non2xx = non2xx + 1
   end
   if max_requests > 0 and responses >= max_requests then
      wrk.thread:stop()
   end
end

function done(summary, latency, requests)
   local total_non2xx = 0
   for _, thread in ipairs(threads) do
      total_non2xx = total_non2xx + thread:get("non2xx")
   end
   local errors = summary.errors
   io.write(string.format(
      "RESULT requests=%d duration_us=%d rps=%.1f p50_ms=%.3f p99_ms=%.3f max_ms=%.3f non2xx=%d connect=%d read=%d write=%d timeout=%d\n",
      summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
      latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
      total_non2xx, errors.connect, errors.read, errors.write, errors.timeout))
end
