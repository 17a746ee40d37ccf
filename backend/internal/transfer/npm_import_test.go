package transfer

import (
	"os"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/npm"
)

// The NPM reader's document of its own fixture is one the planner takes
// whole: nothing refused, and the access lists' IP rules are stored as the
// services' access rules.
func TestNPMFixtureImports(t *testing.T) {
	data, err := os.ReadFile("npm/testdata/npm-v2.12.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, npm.Reader{BcryptCost: bcrypt.MinCost})
	pl, err := f.svc.Import(testCtx, data, ImportOptions{Format: "npm", Apply: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range pl.Items {
		if it.Action == ActionRefused {
			t.Errorf("refused %s %q: %s", it.Kind, it.Name, it.Reason)
		}
	}
	if !pl.Applied || pl.Summary.Create == 0 {
		t.Fatalf("plan = %+v", pl.Summary)
	}
	want := map[string]struct {
		def   rules.Action
		rules []rules.Rule
	}{
		"family.example.com": {rules.Authenticate, []rules.Rule{{Action: rules.Allow, Note: "from NPM access list #1", Sources: []string{"192.168.1.0/24"}}}},
		"office.example.com": {rules.Deny, []rules.Rule{{Action: rules.Allow, Note: "from NPM access list #2", Sources: []string{"10.0.0.0/8"}}}},
	}
	for name, w := range want {
		var sv store.Service
		f.must(f.db.Where("name = ?", name).First(&sv).Error)
		if !sv.Enabled {
			t.Errorf("%s is switched off", name)
		}
		var acc store.ServiceAccess
		f.must(f.db.Where("service_id = ?", sv.ID).First(&acc).Error)
		if acc.DefaultAction != string(w.def) || len(acc.Rules.V) != 1 || acc.Rules.V[0].Action != w.rules[0].Action ||
			acc.Rules.V[0].Sources[0] != w.rules[0].Sources[0] {
			t.Errorf("%s: access %s %+v, want %s %+v", name, acc.DefaultAction, acc.Rules.V, w.def, w.rules)
		}
	}
}
