package services_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func tcpReq(name string, eps []string, hosts ...string) services.Request {
	r := services.Request{Name: name, Kind: store.KindTCP, Entrypoints: eps,
		Targets: []store.Target{{Host: "10.0.0.5", Port: 5432}}}
	for _, h := range hosts {
		r.Hostnames = append(r.Hostnames, store.Hostname{Type: store.HostCustom, Value: h})
	}
	return r
}

// fieldOf returns the first field an error names, and its code.
func fieldOf(t *testing.T, err error) (string, apperr.Code) {
	t.Helper()
	var e *apperr.Error
	if !errors.As(err, &e) {
		t.Fatalf("want an apperr.Error, got %v", err)
	}
	if len(e.Fields) == 0 {
		return "", e.Code
	}
	return e.Fields[0].Field, e.Code
}

// TestStreamValidation: each bad tcp or udp request is refused naming the
// offending field; good ones are normalized.
func TestStreamValidation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(r *services.Request)
		field string
	}{
		{"no entrypoint", func(r *services.Request) { r.Entrypoints = nil }, "entrypoints"},
		{"bad entrypoint", func(r *services.Request) { r.Entrypoints = []string{"a b"} }, "entrypoints[0]"},
		{"sni without tls", func(r *services.Request) {
			r.Hostnames = []store.Hostname{{Type: store.HostCustom, Value: "db.example.com"}}
			r.TCP = &store.TCP{TLS: store.TLSNone}
		}, "tcp.tls"},
		{"sni with a backtick", func(r *services.Request) {
			r.Hostnames = []store.Hostname{{Type: store.HostCustom, Value: "db`)||HostSNI(`*"}}
		}, "hostnames[0].value"},
		{"unknown tls mode", func(r *services.Request) { r.TCP = &store.TCP{TLS: "mtls"} }, "tcp.tls"},
		{"proxy protocol 3", func(r *services.Request) { r.TCP = &store.TCP{ProxyProtocol: 3} }, "tcp.proxyProtocol"},
		{"bad cidr", func(r *services.Request) { r.TCP = &store.TCP{AllowList: []string{"10.0.0.0/33"}} }, "tcp.allowList[0]"},
		{"cidr injection", func(r *services.Request) { r.TCP = &store.TCP{AllowList: []string{"10.0.0.0/8\n- 0.0.0.0/0"}} }, "tcp.allowList[0]"},
		{"duplicate cidr", func(r *services.Request) { r.TCP = &store.TCP{AllowList: []string{"10.1.2.3/8", "10.0.0.0/8"}} }, "tcp.allowList[1]"},
		{"negative limit", func(r *services.Request) { r.TCP = &store.TCP{MaxConnections: -1} }, "tcp.maxConnections"},
		{"http rules", func(r *services.Request) { r.Rules = []store.Rule{{Type: "path", Value: "/x"}} }, "rules"},
		{"http middlewares", func(r *services.Request) { r.Middlewares = []string{"x@file"} }, "middlewares"},
		{"maintenance", func(r *services.Request) { r.Maintenance.Enabled = true }, "maintenance.enabled"},
		{"no targets", func(r *services.Request) { r.Targets = nil }, "targets"},
		{"bad target", func(r *services.Request) { r.Targets = []store.Target{{Host: "a b", Port: 1}} }, "targets[0].host"},
		{"udp with hostnames", func(r *services.Request) {
			r.Kind = store.KindUDP
			r.Hostnames = []store.Hostname{{Type: store.HostCustom, Value: "dns.example.com"}}
		}, "hostnames"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tcpReq("db", []string{"postgres"})
			tc.edit(&r)
			err := services.Check(&r)
			if err == nil {
				t.Fatal("accepted")
			}
			if f, _ := fieldOf(t, err); f != tc.field {
				t.Fatalf("field %q, want %q (%v)", f, tc.field, err)
			}
		})
	}

	r := tcpReq("db", []string{"postgres"}, "DB.Example.com")
	r.TCP = &store.TCP{AllowList: []string{" 10.1.2.3/8 ", "2001:db8::1"}}
	if err := services.Check(&r); err != nil {
		t.Fatal(err)
	}
	if r.TCP.TLS != store.TLSPassthrough || r.TCP.AllowList[0] != "10.0.0.0/8" || r.Targets[0].Scheme != "tcp" ||
		r.Hostnames[0].Value != "db.example.com" {
		t.Fatalf("normalized to %+v %+v %+v", r.TCP, r.Targets, r.Hostnames)
	}
	u := services.Request{Name: "dns", Kind: store.KindUDP, Entrypoints: []string{"dns"},
		Targets: []store.Target{{Host: "10.0.0.53", Port: 53}}, TCP: &store.TCP{ProxyProtocol: 2}}
	if err := services.Check(&u); err != nil {
		t.Fatal(err)
	}
	if u.TCP.ProxyProtocol != 0 || u.Targets[0].Scheme != "udp" {
		t.Fatalf("udp normalized to %+v %+v", u.TCP, u.Targets)
	}
}

// TestStreamConflicts: what Traefik could not route apart on one
// entrypoint is refused with 409 naming the entrypoint, and an entrypoint
// of the wrong protocol with 400.
func TestStreamConflicts(t *testing.T) {
	ctx := context.Background()
	db := testutil.NewDB(t)
	clk := testutil.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	protocols := map[string]string{"web": "tcp", "websecure": "tcp", "postgres": "tcp", "ssh": "tcp", "dns": "udp", "game": "udp"}
	svc := services.NewService(services.Deps{DB: db, Bus: change.NewBus(), Now: clk.Now,
		Entrypoints: func(context.Context) (services.EntrypointInfo, error) {
			return services.EntrypointInfo{Defaults: []string{"websecure"}, Protocols: protocols}, nil
		}})
	mustCreate := func(r services.Request) services.Response {
		t.Helper()
		s, err := svc.Create(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	mustCreate(services.Request{Name: "web app", Entrypoints: []string{"web"}, Targets: []store.Target{{Host: "10.0.0.1", Port: 80}},
		Hostnames: []store.Hostname{{Type: store.HostCustom, Value: "app.example.com"}}})
	mustCreate(tcpReq("pg", []string{"postgres"}))
	mustCreate(tcpReq("git", []string{"websecure"}, "git.example.com"))
	udp := services.Request{Name: "dns", Kind: store.KindUDP, Entrypoints: []string{"dns"}, Targets: []store.Target{{Host: "10.0.0.53", Port: 53}}}
	mustCreate(udp)

	for _, tc := range []struct {
		name  string
		req   services.Request
		field string
		code  apperr.Code
	}{
		{"second catch-all", tcpReq("pg2", []string{"postgres"}), "entrypoints[0]", apperr.CodeConflict},
		{"catch-all on the default", tcpReq("all", []string{"websecure"}), "entrypoints[0]", apperr.CodeConflict},
		{"catch-all on an HTTP entrypoint", tcpReq("all", []string{"web"}), "entrypoints[0]", apperr.CodeConflict},
		{"same SNI", tcpReq("git2", []string{"websecure"}, "git.example.com"), "hostnames[0]", apperr.CodeConflict},
		{"udp twice", func() services.Request { r := udp; r.Name = "dns2"; return r }(), "entrypoints[0]", apperr.CodeConflict},
		{"tcp on a udp entrypoint", tcpReq("x", []string{"dns"}), "entrypoints[0]", apperr.CodeValidationFailed},
		{"udp on a tcp entrypoint", services.Request{Name: "u", Kind: store.KindUDP, Entrypoints: []string{"ssh"},
			Targets: []store.Target{{Host: "10.0.0.2", Port: 9}}}, "entrypoints[0]", apperr.CodeValidationFailed},
		{"unknown entrypoint", tcpReq("x", []string{"nowhere"}), "entrypoints[0]", apperr.CodeValidationFailed},
		{"HTTP on a catch-all's entrypoint", services.Request{Name: "h", Entrypoints: []string{"postgres"},
			Targets: []store.Target{{Host: "10.0.0.1", Port: 80}}, Hostnames: []store.Hostname{{Type: store.HostCustom, Value: "h.example.com"}}},
			"entrypoints[0]", apperr.CodeConflict},
		{"HTTP on a udp entrypoint", services.Request{Name: "h", Entrypoints: []string{"game"},
			Targets: []store.Target{{Host: "10.0.0.1", Port: 80}}, Hostnames: []store.Hostname{{Type: store.HostCustom, Value: "h.example.com"}}},
			"entrypoints[0]", apperr.CodeValidationFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := svc.Create(ctx, tc.req)
			if err == nil {
				t.Fatal("accepted")
			}
			f, code := fieldOf(t, err)
			if f != tc.field || code != tc.code {
				t.Fatalf("%s %q, want %s %q (%v)", code, f, tc.code, tc.field, err)
			}
		})
	}
	// A second SNI on the same entrypoint, a disabled second catch-all and
	// a catch-all on an entrypoint of its own are fine.
	mustCreate(tcpReq("git3", []string{"websecure"}, "other.example.com"))
	off := tcpReq("pg off", []string{"postgres"})
	off.Enabled = new(bool)
	s := mustCreate(off)
	if _, err := svc.SetEnabled(ctx, s.ID, true); err == nil {
		t.Fatal("enabling a second catch-all was accepted")
	}
	mustCreate(tcpReq("ssh", []string{"ssh"}))
}
