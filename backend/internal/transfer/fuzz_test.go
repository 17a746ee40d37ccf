package transfer

import (
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// FuzzImport: a dry run of any file answers a plan or a client error, and
// never changes the data.
func FuzzImport(f *testing.F) {
	fx := newFixture(f, testReader{})
	fx.seed()
	fx.seedRules()
	export := fx.export(ExportOptions{})
	before := snapshotOf(f, fx)
	f.Add(export)
	f.Add([]byte(`{"format":"gatehouse-export","version":1,"domains":[],"services":[{"name":"x","hostnames":[{"type":"custom","value":"x.example"}],"targets":[{"scheme":"http","host":"h","port":1}],"kind":"proxy","enabled":true,"protections":[{"type":"basic_auth","credentialSet":"family"}]}],"credentialSets":[]}`))
	f.Add([]byte("TEST a.example.net\n"))
	f.Add([]byte(`{"format":"gatehouse-export","version":1,"services":[],"alertRules":[{"name":"a","service":"app","kind":"latency_p95","threshold":250,"forMinutes":5},{"name":"a","kind":"cpu","forMinutes":0}]}`))
	f.Add([]byte(`{"format":"gatehouse-export","version":1,"config":{"global":{"adminDomain":"x"},"sso":{},"accessRules":[{"action":"deny","sources":["1.2.3.4/33"]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, mode := range []string{ModeMerge, ModeReplace} {
			_, err := fx.svc.Import(testCtx, data, ImportOptions{Mode: mode})
			if err != nil {
				if e, ok := apperr.As(err); !ok || e.HTTPStatus() >= 500 {
					t.Fatalf("Import(%q) = %v, want a plan or a client error", data, err)
				}
			}
		}
		if snapshotOf(t, fx) != before {
			t.Fatal("a dry run changed the data")
		}
	})
}

// snapshotOf is fixture.snapshot for the fuzz target, whose t is not the fixture's.
func snapshotOf(t testing.TB, fx *fixture) string {
	saved := fx.t
	fx.t = t
	defer func() { fx.t = saved }()
	return fx.snapshot()
}
