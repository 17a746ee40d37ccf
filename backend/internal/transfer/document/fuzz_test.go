package document

import (
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// FuzzParse: whatever the bytes, Parse answers a document or a 400 naming a
// field, and never panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `[]`, `null`, `{"format":"gatehouse-export","version":1}`,
		`{"format":"gatehouse-export","version":2}`,
		`{"format":"gatehouse-export","version":1,"domains":[{"domain":"example.com","certConfigs":[{"main":"x","sans":[]}]}]}`,
		`{"format":"gatehouse-export","version":1,"services":[{"name":"a","targets":[{"port":1e99}],"headers":{"a":"b"}}]}`,
		`{"format":"gatehouse-export","version":1,"config":{"global":{"x":[[[[1]]]]},"accessRules":[{"action":"allow"}]}}`,
		`{"format":"gatehouse-export","version":1,"sealed":"-----BEGIN AGE ENCRYPTED FILE-----\n"}`,
		`{"format":"gatehouse-export","version":1,"domains":[`,
		`{"format":"gatehouse-export","version":1,"alertRules":[{"name":"x","kind":"error_ratio","threshold":1e400,"forMinutes":5}]}`,
		`{"format":"gatehouse-export","version":1,"alertRules":[{"name":"x","service":"app","kind":"no_traffic","forMinutes":5,"enabled":null}]}`,
		`{"format":"gatehouse-export","version":1,"alertRules":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse(data)
		if err == nil {
			return
		}
		e, ok := apperr.As(err)
		if !ok || e.HTTPStatus() != 400 || len(e.Fields) == 0 || e.Fields[0].Field == "" {
			t.Fatalf("Parse(%q) = %v, want a 400 naming a field", data, err)
		}
	})
}
