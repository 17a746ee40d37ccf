package people

import (
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func TestPrefixEnd(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"ann", "ano"},
		{"a", "b"},
		{"zé", "zê"},
		{"", ""},
		{"a\U0010FFFF", "b"},
		{"\U0010FFFF", ""},
	} {
		if got := prefixEnd(tt.in); got != tt.want {
			t.Errorf("prefixEnd(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The search reads the indexes of migration 0028, never the whole table
// (SQLite's plan; PostgreSQL's planner may prefer a scan of a small table).
func TestSearchUsesTheIndexes(t *testing.T) {
	if testutil.OnPostgres() {
		t.Skip("SQLite's query plan")
	}
	db := testutil.NewDB(t)
	cond, args := searchCondition("Ann_%")
	var plan []struct{ Detail string }
	if err := db.Raw("EXPLAIN QUERY PLAN SELECT id FROM people WHERE "+cond, args...).Scan(&plan).Error; err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, p := range plan {
		lines = append(lines, p.Detail)
	}
	got := strings.Join(lines, "\n")
	for _, idx := range []string{"people_search_username", "people_search_email", "people_search_name"} {
		if !strings.Contains(got, idx) {
			t.Errorf("the plan does not use %s:\n%s", idx, got)
		}
	}
	if strings.Contains(got, "SCAN people") {
		t.Errorf("the plan scans the table:\n%s", got)
	}
}
