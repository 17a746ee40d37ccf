//go:build bench

package bench

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
	accesslog "github.com/gatehouse-proxy/gatehouse/internal/access/log"
	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// verifyPanel is the panel's forward-auth wired as app.go wires it (access
// rules, machine tokens and the access log feeding the access service, the
// API's Echo stack behind FastVerify) on a real SQLite file whose queries
// are counted.
type verifyPanel struct {
	url     string
	handler http.Handler // what url serves, for counting allocations in-process
	svcs    *services.Service
	queries *atomic.Int64 // every GORM query, create, update, delete, row and raw
}

func startVerifyPanel(ctx context.Context, t *testing.T) *verifyPanel {
	t.Helper()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "bench.db"))
	if err != nil {
		t.Fatal(err)
	}
	var queries atomic.Int64
	count := func(*gorm.DB) { queries.Add(1) }
	cb := db.Callback()
	_ = cb.Query().Before("gorm:query").Register("bench:count", count)
	_ = cb.Create().Before("gorm:create").Register("bench:count", count)
	_ = cb.Update().Before("gorm:update").Register("bench:count", count)
	_ = cb.Delete().Before("gorm:delete").Register("bench:count", count)
	_ = cb.Row().Before("gorm:row").Register("bench:count", count)
	_ = cb.Raw().Before("gorm:raw").Register("bench:count", count)

	bus := change.NewBus()
	fwd := &accessForwarder{}
	policySvc := access.NewService(db, bus, store.Now, fwd, nil)
	tokenSvc := machinetokens.NewService(db, bus, store.Now, fwd, nil)
	decisions := accesslog.New()
	acc := forwardauth.New(forwardauth.Options{DB: db, Bus: bus, Now: store.Now,
		PanelURL: func(context.Context) (string, error) { return "https://panel.bench.test", nil },
		Rules:    policySvc, Tokens: tokenSvc, Log: decisions})
	fwd.svc = acc
	for _, l := range append(acc.Loops(), tokenSvc.Loop(5*time.Second)) {
		go l(ctx)
	}
	svcs := services.NewService(db, bus, store.Now, nil,
		services.WithProtections(forwardauth.ServiceProtections), services.WithEndSessions(forwardauth.EndServiceSessions))
	e := httpapi.New(httpapi.Deps{
		Logger:        slog.New(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelInfo})),
		Ping:          func(context.Context) error { return nil },
		SetupRequired: func(context.Context) (bool, error) { return false, nil },
		RequireAdmin:  testutil.AsAdmin,
		Features: []httpapi.Feature{forwardauth.NewHandler(acc), access.NewHandler(policySvc),
			machinetokens.NewHandler(tokenSvc), accesslog.NewHandler(decisions)},
	})
	h := acc.FastVerify(e) // as app.go mounts it
	return &verifyPanel{url: serve(t, h), handler: h, svcs: svcs, queries: &queries}
}

// accessForwarder is app.go's: the rule and token services are built before
// the access service they ask about services.
type accessForwarder struct{ svc *forwardauth.Service }

func (f *accessForwarder) AccessInfo(ctx context.Context, id string) (access.Info, bool, error) {
	return f.svc.AccessInfo(ctx, id)
}

func (f *accessForwarder) ServiceNames(ctx context.Context, ids []string) (map[string]string, error) {
	return f.svc.ServiceNames(ctx, ids)
}

func (f *accessForwarder) AcceptsTokens(ctx context.Context, id string) (bool, error) {
	return f.svc.AcceptsTokens(ctx, id)
}

// fiftyRules is a service's rule list of 50 where only the last matches
// GET /dashboard from 203.0.113.7 with a browser's user agent: 49 rules of
// every condition kind but countries (which need a GeoIP database) that the
// request misses, then "authenticate GET /dashboard*". Every verify call
// walks the whole list. The deny rules match broadly (every reading of the
// path, ignoring case), so they cost more than the allow ones.
func fiftyRules() []rules.Rule {
	list := make([]rules.Rule, 0, 50)
	for i := range 49 {
		var r rules.Rule
		switch i % 7 {
		case 0:
			r = rules.Rule{Action: rules.Deny, Paths: []rules.PathMatch{{Type: rules.PathPrefix, Value: fmt.Sprintf("/admin%d", i)}}}
		case 1:
			r = rules.Rule{Action: rules.Allow, Methods: []string{"GET", "HEAD"},
				Paths: []rules.PathMatch{{Type: rules.PathExact, Value: fmt.Sprintf("/public/%d", i)}}}
		case 2:
			r = rules.Rule{Action: rules.Deny, Sources: []string{fmt.Sprintf("198.51.100.%d/32", i), "192.0.2.0/24"}}
		case 3:
			r = rules.Rule{Action: rules.Allow, Paths: []rules.PathMatch{{Type: rules.PathGlob, Value: fmt.Sprintf("/assets/%d/*.css", i)}}}
		case 4:
			r = rules.Rule{Action: rules.Deny, Paths: []rules.PathMatch{{Type: rules.PathRegex, Value: fmt.Sprintf(`^/api/v%d/internal/.*$`, i)}}}
		case 5:
			r = rules.Rule{Action: rules.Allow, Sources: []string{rules.SourcePrivate},
				Headers: []rules.HeaderMatch{{Name: "User-Agent", Match: rules.HeaderContains, Value: fmt.Sprintf("probe-%d", i)}}}
		default:
			r = rules.Rule{Action: rules.Deny, Methods: []string{"DELETE", "PUT"},
				Paths: []rules.PathMatch{{Type: rules.PathPrefix, Value: fmt.Sprintf("/data%d", i)}}}
		}
		r.Note = fmt.Sprintf("bench rule %d", i)
		list = append(list, r)
	}
	return append(list, rules.Rule{Action: rules.Authenticate, Note: "the one that matches", Methods: []string{"GET"},
		Paths: []rules.PathMatch{{Type: rules.PathPrefix, Value: "/dashboard"}}})
}

// handlerCost serves requests with headers to h in-process, one at a time,
// to a reused response writer, and returns the process CPU time and the heap
// allocations per request: the handler's own cost without the server's or
// the network's, which stays meaningful on a loaded machine.
func handlerCost(h http.Handler, target string, headers []string) (cpu time.Duration, allocs float64) {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for _, hd := range headers {
		k, v, _ := strings.Cut(hd, ": ")
		req.Header.Set(k, v)
	}
	w := &discardWriter{h: http.Header{}}
	serve := func() {
		clear(w.h)
		h.ServeHTTP(w, req)
	}
	allocs = testing.AllocsPerRun(2000, serve)
	const n = 20000
	start := cpuTime()
	for range n {
		serve()
	}
	return (cpuTime() - start) / n, allocs
}

// discardWriter is a ResponseWriter that keeps only the headers.
type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }
