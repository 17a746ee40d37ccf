package notify

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

type env struct {
	svc   *Service
	e     *echo.Echo
	clock *testutil.Clock
	logs  *strings.Builder
}

func newEnv(t *testing.T, opts ...func(*Options)) *env {
	t.Helper()
	box, err := sealbox.Ephemeral()
	if err != nil {
		t.Fatal(err)
	}
	clock := testutil.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	logs := &strings.Builder{}
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	o := Options{DB: testutil.NewDB(t), Secrets: box, Now: clock.Now, Logger: logger, Backoff: []time.Duration{time.Millisecond}}
	for _, f := range opts {
		f(&o)
	}
	svc := New(o)
	e := httpapi.New(httpapi.Deps{
		Logger:        logger,
		Ping:          func(context.Context) error { return nil },
		SetupRequired: func(context.Context) (bool, error) { return false, nil },
		RequireAdmin:  testutil.AsAdmin,
		Features:      []httpapi.Feature{NewHandler(svc)},
	}).Echo
	return &env{svc: svc, e: e, clock: clock, logs: logs}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (v *env) do(t *testing.T, method, path string, body any) (int, map[string]any, string) {
	t.Helper()
	var s string
	if body != nil {
		b, _ := json.Marshal(body)
		s = string(b)
	}
	rec := testutil.Request(v.e, method, path, s)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out, rec.Body.String()
}

// receiver is a local webhook endpoint that keeps what it receives.
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	got  []map[string]any
	path []string
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var m map[string]any
		_ = json.NewDecoder(req.Body).Decode(&m)
		r.mu.Lock()
		r.got = append(r.got, m)
		r.path = append(r.path, req.URL.RequestURI())
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) messages() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any(nil), r.got...)
}

// smtpSink is a minimal SMTP server that keeps each message's envelope and data.
type smtpSink struct {
	ln   net.Listener
	mu   sync.Mutex
	mail []sinkMail
}

type sinkMail struct {
	from string
	to   []string
	data string
}

func newSMTPSink(t *testing.T) *smtpSink {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &smtpSink{ln: ln}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *smtpSink) addr() (string, int) {
	a := s.ln.Addr().(*net.TCPAddr)
	return a.IP.String(), a.Port
}

func (s *smtpSink) serve(c net.Conn) {
	defer func() { _ = c.Close() }()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	tp := textproto.NewConn(c)
	_ = tp.PrintfLine("220 sink ESMTP")
	var m sinkMail
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		cmd := strings.ToUpper(line)
		switch {
		case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
			_ = tp.PrintfLine("250-sink")
			_ = tp.PrintfLine("250 8BITMIME")
		case strings.HasPrefix(cmd, "MAIL FROM:"):
			m = sinkMail{from: address(line[len("MAIL FROM:"):])}
			_ = tp.PrintfLine("250 ok")
		case strings.HasPrefix(cmd, "RCPT TO:"):
			m.to = append(m.to, address(line[len("RCPT TO:"):]))
			_ = tp.PrintfLine("250 ok")
		case cmd == "DATA":
			_ = tp.PrintfLine("354 go on")
			b, err := io.ReadAll(bufio.NewReader(tp.DotReader()))
			if err != nil {
				return
			}
			m.data = string(b)
			s.mu.Lock()
			s.mail = append(s.mail, m)
			s.mu.Unlock()
			_ = tp.PrintfLine("250 queued")
		case cmd == "QUIT":
			_ = tp.PrintfLine("221 bye")
			return
		default: // RSET, NOOP
			_ = tp.PrintfLine("250 ok")
		}
	}
}

// address takes the path of a MAIL or RCPT argument, without its parameters.
func address(arg string) string {
	arg, _, _ = strings.Cut(strings.TrimSpace(arg), " ")
	return strings.Trim(arg, "<>")
}

func (s *smtpSink) received() []sinkMail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sinkMail(nil), s.mail...)
}

// eventually polls cond until it holds or the test times out.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
