//go:build e2e

package e2e

import (
	"encoding/json"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// containsBackend reports whether body is a harness backend reply from name.
func containsBackend(body, name string) bool {
	var r harness.BackendReply
	return json.Unmarshal([]byte(body), &r) == nil && r.Backend == name
}
