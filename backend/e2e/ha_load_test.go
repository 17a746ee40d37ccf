//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// statusScript counts wrk's answers by class in each thread and prints the
// totals, and the last second (Unix time) that saw an answer other than
// 2xx, when the run is done.
const statusScript = `
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) ok = 0; client = 0; server = 0; other = 0; last_bad = 0; codes = {} end
function response(status, headers, body)
  if status >= 200 and status < 300 then
    ok = ok + 1
  else
    if status >= 500 then server = server + 1
    elseif status >= 400 then client = client + 1
    else other = other + 1 end
    last_bad = os.time()
    codes[status] = (codes[status] or 0) + 1
  end
end
function done(summary, latency, requests)
  local t = {ok = 0, client = 0, server = 0, other = 0}
  local last, codes = 0, {}
  for _, th in ipairs(threads) do
    for k, _ in pairs(t) do t[k] = t[k] + th:get(k) end
    if th:get("last_bad") > last then last = th:get("last_bad") end
    for code, n in pairs(th:get("codes")) do codes[code] = (codes[code] or 0) + n end
  end
  for code, n in pairs(codes) do io.write(string.format("status %d: %d\n", code, n)) end
  local e = summary.errors
  io.write(string.format("statuses requests=%d ok=%d client=%d server=%d other=%d last_bad=%d socket_errors=%d\n",
    summary.requests, t.ok, t.client, t.server, t.other, last, e.connect + e.read + e.write + e.timeout))
end
`

var statusesRE = regexp.MustCompile(`statuses requests=(\d+) ok=(\d+) client=(\d+) server=(\d+) other=(\d+) last_bad=(\d+) socket_errors=(\d+)`)

// wrkStatuses is what statusScript prints.
type wrkStatuses struct {
	requests, ok, client, server, other int
	lastBad                             int64 // Unix second of the last non-2xx answer; 0 for none
	socketErrors                        int
}

// runWrk drives wrk (two threads) at u with conns connections for d and
// returns the answers counted by class.
func runWrk(t *testing.T, u string, conns int, d time.Duration, headers ...string) wrkStatuses {
	t.Helper()
	if _, err := exec.LookPath("wrk"); err != nil {
		t.Skip("wrk is not installed (apt-get install wrk)")
	}
	script := filepath.Join(t.TempDir(), "statuses.lua")
	if err := os.WriteFile(script, []byte(statusScript), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"-t2", "-c" + strconv.Itoa(conns), "-d" + strconv.Itoa(int(d/time.Second)) + "s",
		"--timeout", "5s", "-s", script}
	for _, h := range headers {
		args = append(args, "-H", h)
	}
	out, err := exec.Command("wrk", append(args, u)...).CombinedOutput() //nolint:gosec // wrk with the test's own arguments
	if err != nil {
		t.Fatalf("wrk: %v\n%s", err, out)
	}
	t.Logf("wrk:\n%s", out)
	m := statusesRE.FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("cannot read wrk's figures:\n%s", out)
	}
	n := make([]int64, len(m)-1)
	for i, v := range m[1:] {
		n[i], _ = strconv.ParseInt(v, 10, 64)
	}
	return wrkStatuses{requests: int(n[0]), ok: int(n[1]), client: int(n[2]), server: int(n[3]), other: int(n[4]),
		lastBad: n[5], socketErrors: int(n[6])}
}
