package store

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// Every migration runs on SQLite and on PostgreSQL. The PostgreSQL suite
// proves it where PostgreSQL is installed; this catches the usual SQLite-only
// forms everywhere else.
func TestMigrationsAvoidSQLiteOnlyForms(t *testing.T) {
	forms := []struct {
		re  *regexp.Regexp
		why string
	}{
		{regexp.MustCompile(`(?i)\bDATETIME\b`), "PostgreSQL has no DATETIME: use TIMESTAMP"},
		{regexp.MustCompile(`(?i)\bBOOLEAN\b[^,\n]*\bDEFAULT\s+[01]\b`), "PostgreSQL refuses 0/1 for a boolean: use TRUE/FALSE"},
		{regexp.MustCompile(`(?i)\bAUTOINCREMENT\b`), "SQLite only: ids come from the application"},
		{regexp.MustCompile(`(?i)\bBLOB\b`), "PostgreSQL has no BLOB"},
		{regexp.MustCompile(`(?i)\b(PRAGMA|INSERT\s+OR|REPLACE\s+INTO|strftime|julianday)\b`), "SQLite only"},
		{regexp.MustCompile(`(?i)\bdatetime\s*\(`), "SQLite's date function"},
	}
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("no migrations: %v", err)
	}
	for _, name := range names {
		b, err := fs.ReadFile(migrationFS, name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			code, _, _ := strings.Cut(line, "--")
			for _, f := range forms {
				if f.re.MatchString(code) {
					t.Errorf("%s:%d: %q: %s", name, i+1, strings.TrimSpace(code), f.why)
				}
			}
		}
	}
}
