//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// The import API's answer and how the import tests send files to it.

type importAnswer struct {
	Format  string         `json:"format"`
	Applied bool           `json:"applied"`
	Digest  string         `json:"digest"`
	Summary map[string]int `json:"summary"`
	Items   []struct {
		Kind, Name, Action, Reason string
	} `json:"items"`
	Skipped []struct{ Source, Reason string } `json:"skipped"`
}

// postImport sends the file as the raw body and decodes the 200 answer.
func postImport(t *testing.T, p *harness.Panel, path string, data []byte) importAnswer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, p.URL+path, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("Accept", "application/json")
	resp, err := p.Client.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: status %d: %s", path, resp.StatusCode, b)
	}
	var out importAnswer
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("decode POST %s: %v\n%s", path, err, b)
	}
	return out
}

func hasItem(a importAnswer, kind, name, action string) bool {
	for _, it := range a.Items {
		if it.Kind == kind && it.Name == name && it.Action == action {
			return true
		}
	}
	return false
}

func hasSkipped(a importAnswer, source string) bool {
	for _, s := range a.Skipped {
		if strings.HasPrefix(s.Source, source) {
			return true
		}
	}
	return false
}
