package log

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func entry(svc string, d Decision, addr string) Entry {
	e := Entry{Time: time.Unix(1700000000, 0), ServiceID: svc, ServiceName: "name " + svc, Method: "GET", Host: "h", Path: "/p", Decision: d, Basis: ByDefault}
	if addr != "" {
		e.Addr = netip.MustParseAddr(addr)
	}
	return e
}

func TestRingKeepsTheNewest(t *testing.T) {
	l := New()
	for i := 0; i < PerService+10; i++ {
		l.Record(entry("a", Allowed, "10.0.0.1"))
	}
	got := l.Query(Filter{ServiceID: "a", Limit: PerService})
	if len(got) != PerService || got[0].Seq != PerService+10 || got[len(got)-1].Seq != 11 {
		t.Fatalf("len %d first %d last %d", len(got), got[0].Seq, got[len(got)-1].Seq)
	}
}

// A ring grows with what it holds and keeps the newest PerService entries
// in order, whatever the count: before, at and after its first wrap.
func TestRingGrowsThenWraps(t *testing.T) {
	for _, n := range []int{1, minRing, minRing + 1, PerService - 1, PerService, PerService + 1, 2*PerService + 7} {
		l := New()
		for range n {
			l.Record(entry("a", Allowed, ""))
		}
		r := l.rings["a"]
		if size := len(r.slots); size < min(n, PerService) || size > PerService || size > max(2*n, minRing) {
			t.Errorf("%d records: ring of %d slots", n, size)
		}
		got := l.Query(Filter{ServiceID: "a", Limit: PerService})
		want := l.seq.Load() // the newest; then one less each
		for i, e := range got {
			if e.Seq != want {
				t.Fatalf("%d records: entry %d has seq %d, want %d", n, i, e.Seq, want)
			}
			want--
		}
		if len(got) != min(n, PerService) {
			t.Errorf("%d records: %d entries", n, len(got))
		}
	}
}

// Writers of one service record concurrently while readers query: every
// entry recorded is kept (up to PerService), once, whether the ring is
// still growing or wraps.
func TestRingConcurrentWriters(t *testing.T) {
	for _, per := range []int{50, 500} {
		l := New()
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(2)
			go func() {
				defer wg.Done()
				for range per {
					l.Record(entry("a", Allowed, "10.0.0.1"))
				}
			}()
			go func() {
				defer wg.Done()
				for range 20 {
					l.Query(Filter{ServiceID: "a", Limit: PerService})
				}
			}()
		}
		wg.Wait()
		got := l.Query(Filter{ServiceID: "a", Limit: PerService})
		seen := map[uint64]bool{}
		for _, e := range got {
			if seen[e.Seq] || e.Seq == 0 || e.Seq > l.seq.Load() {
				t.Fatalf("%d writes: seq %d twice or out of range", 8*per, e.Seq)
			}
			seen[e.Seq] = true
		}
		if len(got) != min(8*per, PerService) {
			t.Fatalf("%d writes: %d entries kept", 8*per, len(got))
		}
	}
}

func TestFilters(t *testing.T) {
	l := New()
	l.Record(entry("a", Allowed, "10.0.0.1"))
	l.Record(entry("b", Denied, "203.0.113.9"))
	e := entry("a", Authenticated, "10.0.0.2")
	e.Identity = "token:Phone"
	l.Record(e)
	tests := []struct {
		f    Filter
		seqs string
	}{
		{Filter{}, "3,2,1"},
		{Filter{ServiceID: "a"}, "3,1"},
		{Filter{Decision: Denied}, "2"},
		{Filter{Address: netip.MustParsePrefix("10.0.0.0/8")}, "3,1"},
		{Filter{Identity: "phone"}, "3"},
		{Filter{After: 2}, "3"},
		{Filter{Limit: 1}, "3"},
	}
	for _, tt := range tests {
		var seqs []string
		for _, e := range l.Query(tt.f) {
			seqs = append(seqs, strconv.FormatUint(e.Seq, 10))
		}
		if strings.Join(seqs, ",") != tt.seqs {
			t.Errorf("%+v: %v, want %s", tt.f, seqs, tt.seqs)
		}
	}
}

func TestRingsAreCapped(t *testing.T) {
	l := New()
	for i := 0; i < MaxServices+5; i++ {
		e := entry(string(rune('A'+i%26))+string(rune('a'+i/26)), Allowed, "")
		e.Time = time.Unix(int64(1700000000+i), 0)
		l.Record(e)
	}
	if len(l.rings) != MaxServices {
		t.Fatalf("%d rings", len(l.rings))
	}
	if l.rings["Aa"] != nil {
		t.Fatal("the least recently written ring was kept")
	}
}

func TestRecordDoesNotAllocate(t *testing.T) {
	l := New()
	e := entry("a", Allowed, "10.0.0.1")
	l.Record(e)
	if n := testing.AllocsPerRun(1000, func() { l.Record(e) }); n != 0 {
		t.Fatalf("Record allocates %v times", n)
	}
}

func TestHandler(t *testing.T) {
	l := New()
	l.Record(entry("a", RateLimited, "10.0.0.1"))
	e := echo.New()
	NewHandler(l).Register(route.NewRegistrar(e.Group("/api"), route.NewTable()))
	for _, tt := range []struct{ url, want string }{
		{"/api/access-log", `"decision":"rate_limited"`},
		{"/api/services/a/access-log?decision=rate_limited&address=10.0.0.1", `"clientAddress":"10.0.0.1"`},
		{"/api/services/b/access-log", `"items":[]`},
	} {
		rec := testutil.Serve(e, httptest.NewRequest(http.MethodGet, tt.url, nil))
		var p Page
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), tt.want) || json.Unmarshal(rec.Body.Bytes(), &p) != nil || p.Capacity != PerService {
			t.Errorf("%s: %d %s", tt.url, rec.Code, rec.Body.String())
		}
	}
}

func TestParseFilterNamesTheField(t *testing.T) {
	for q, field := range map[string]string{"decision=maybe": "decision", "address=10.0.0.300": "address", "after=x": "after", "limit=0": "limit", "limit=5000": "limit"} {
		vals, _ := url.ParseQuery(q)
		_, err := parseFilter(vals.Get, "")
		e, ok := apperr.As(err)
		if !ok || e.Fields[0].Field != field {
			t.Errorf("%s: %v", q, err)
		}
	}
}
