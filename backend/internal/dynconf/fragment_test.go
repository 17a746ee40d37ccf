package dynconf

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// fromFragments is the incremental path's assembly for a whole snapshot.
func fromFragments(t *testing.T, s Snapshot) ([]byte, bool) {
	t.Helper()
	enc := newEntryEncoder()
	slugs := newSlugger()
	var frags []*fragment
	for _, sv := range s.Services {
		f, err := buildFragment(&s, sv, slugs.next(slugify(sv.Name, "service")), enc)
		if err != nil {
			t.Fatal(err)
		}
		frags = append(frags, f)
	}
	g, _, err := globalEntries(&s, enc)
	if err != nil {
		t.Fatal(err)
	}
	body, _, _, ok := assemble(frags, g, nil, 1)
	return body, ok
}

// TestFragmentsEqualBuild: assembling per-service fragments gives the bytes
// Encode(Build) gives, or reports the name collision it cannot resolve.
func TestFragmentsEqualBuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7)) //nolint:gosec // seeded: the test is reproducible
	names := []string{"app", "App!", "a b", "a", "cert trigger", "x", "panel", "héllo"}
	eps := [][]string{nil, {"web"}, {"websecure"}, {"c"}, {"b-c"}, {"web", "websecure"}, {"bad ep"}}
	compared, collided := 0, 0
	for round := range 200 {
		s := Snapshot{DefaultEntrypoints: eps[rng.IntN(len(eps))], EntrypointTLS: map[string]bool{"c": true},
			Managed: rng.IntN(2) == 0, AdminDomain: "panel.d0.test", PanelURL: "http://gatehouse:8080",
			HasAdmin: true}
		if rng.IntN(4) > 0 {
			s.AuthBase = "http://gatehouse:8080"
		}
		if rng.IntN(2) == 0 {
			s.GlobalMiddlewares = []string{"secure@file"}
		}
		for i := range 1 + rng.IntN(3) {
			s.Domains = append(s.Domains, DomainSpec{ID: fmt.Sprint("d", i), Domain: fmt.Sprintf("d%d.test", i),
				CertResolver: []string{"", "le"}[rng.IntN(2)], Wildcard: rng.IntN(2) == 0,
				CertConfigs: []store.CertConfig{{Main: fmt.Sprintf("x.d%d.test", i)}}[:rng.IntN(2)]})
		}
		for i := range rng.IntN(12) {
			sv := ServiceSpec{ID: fmt.Sprint("s", i), Name: names[rng.IntN(len(names))],
				Hosts:       []string{fmt.Sprintf("h%d.d%d.test", rng.IntN(5), rng.IntN(3))},
				Targets:     []store.Target{{Host: "10.0.0.1", Port: 80}},
				Entrypoints: eps[rng.IntN(len(eps))], Protected: rng.IntN(3) == 0,
				InsecureSkipVerify: rng.IntN(3) == 0, PassHostHeader: rng.IntN(2) == 0}
			if rng.IntN(2) == 0 {
				sv.Domain = &s.Domains[rng.IntN(len(s.Domains))]
			}
			if rng.IntN(3) == 0 {
				sv.Headers = map[string]string{"X-A": "1", "X-B": "&<>"}
			}
			if rng.IntN(10) == 0 {
				sv.Targets = nil // a problem
			}
			s.Services = append(s.Services, sv)
		}
		want, err := Encode(Build(s))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := fromFragments(t, s)
		if !ok {
			collided++
			continue
		}
		compared++
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: fragments differ from Build\n got: %s\nwant: %s", round, got, want)
		}
	}
	t.Logf("%d snapshots compared, %d left to the whole build (name collisions)", compared, collided)
	if compared < 100 || collided == 0 {
		t.Fatalf("the generator no longer covers both paths: %d compared, %d collided", compared, collided)
	}
}

// TestAssembledEntriesShareTheBody: after an assembly every entry's json is
// a slice of the body, capped at its end, so the configuration is held
// once; assembling again from those slices gives the same bytes, and
// appending to an entry's json leaves the served body alone.
func TestAssembledEntriesShareTheBody(t *testing.T) {
	s := Snapshot{DefaultEntrypoints: []string{"web", "websecure"}, EntrypointTLS: map[string]bool{"websecure": true},
		AuthBase: "http://gatehouse:8080", GlobalMiddlewares: []string{"secure@file"}}
	for i := range 20 {
		s.Services = append(s.Services, ServiceSpec{ID: fmt.Sprint("s", i), Name: fmt.Sprint("app ", i),
			Hosts: []string{fmt.Sprintf("a%d.example.test", i)}, Targets: []store.Target{{Host: "10.0.0.1", Port: 80}},
			Protected: i%3 == 0, Headers: map[string]string{"X-N": fmt.Sprint(i)}})
	}
	enc := newEntryEncoder()
	slugs := newSlugger()
	var frags []*fragment
	for _, sv := range s.Services {
		f, err := buildFragment(&s, sv, slugs.next(slugify(sv.Name, "service")), enc)
		if err != nil {
			t.Fatal(err)
		}
		frags = append(frags, f)
	}
	g, _, err := globalEntries(&s, enc)
	if err != nil {
		t.Fatal(err)
	}
	body, _, sorted, ok := assemble(frags, g, nil, 1)
	if !ok {
		t.Fatal("names collided")
	}
	want := bytes.Clone(body)
	n := 0
	for _, sec := range sorted.secs {
		for _, e := range sec {
			// Names are unique, so an entry's bytes occur once.
			at := bytes.Index(body, e.json)
			if at < 0 || &body[at] != &e.json[0] || cap(e.json) != len(e.json) {
				t.Fatalf("entry %s is not a capped slice of the body", e.name)
			}
			_ = append(e.json, "garbage"...)
			n++
		}
	}
	if n == 0 || !bytes.Equal(body, want) {
		t.Fatalf("%d entries; body written through an entry", n)
	}
	again, _, _, ok := assemble(frags, g, sorted, 2)
	if !ok || !bytes.Equal(again, want) {
		t.Fatalf("a second assembly from the shared entries differs:\n got: %s\nwant: %s", again, want)
	}
}
