package managed

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"CF_DNS_API_TOKEN", true},
		{"_X", true},
		{"A1", true},
		{"", false},
		{"1A", false},
		{"cf_token", false},
		{"A-B", false},
		{"A B", false},
		{"A=B", false},
		{"A;B", false},
		{"PATH", false},
		{"IFS", false},
		{"LD_PRELOAD", false},
		{"TRAEFIK_LOG_LEVEL", false},
		{"GATEHOUSE_WRAPPER_TOKEN", false},
		{strings.Repeat("A", 129), false},
	}
	for _, tt := range tests {
		if err := CheckName(tt.name); (err == nil) != tt.ok {
			t.Errorf("CheckName(%q) = %v; want ok=%v", tt.name, err, tt.ok)
		}
	}
}

func TestCheckValue(t *testing.T) {
	for _, v := range []string{"x", "a'b", "multi\nline", "$(rm -rf /)", "`id`", strings.Repeat("z", maxValueLen)} {
		if err := CheckValue(v); err != nil {
			t.Errorf("CheckValue(%q) = %v", v, err)
		}
	}
	for _, v := range []string{"", "a\x00b", strings.Repeat("z", maxValueLen+1)} {
		if err := CheckValue(v); err == nil {
			t.Errorf("CheckValue(%.20q) accepted", v)
		}
	}
}

func TestRenderExportsSortedAndQuoted(t *testing.T) {
	got := string(renderExports(map[string]string{"B": "it's", "A": "plain"}))
	want := "export A='plain'\nexport B='it'\\''s'\n"
	if got != want {
		t.Fatalf("renderExports = %q; want %q", got, want)
	}
}

// sourceInShell writes the environment document for {NAME: value} (plus a
// second variable, to check the lines stay apart) into a fresh directory,
// sources it with sh and returns what $NAME and $AFTER hold, plus the
// directory's entries afterwards.
func sourceInShell(t testing.TB, sh []string, value string) (got, after string, entries []string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "envfile")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = os.RemoveAll(dir) }()
	exports := renderExports(map[string]string{"NAME": value, "ZZ_AFTER": "after"})
	if err := os.WriteFile(filepath.Join(dir, "env"), envDocument(exports, strings.Repeat("0", 64)), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sh[0], append(sh[1:], "-c", `. ./env; printf %s "$NAME"; printf '\000%s' "$ZZ_AFTER"`)...) //nolint:gosec // the shells the test looked up itself
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("sourcing the env file for %q failed: %v\n%s", value, err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Fatalf("sourcing the env file for %q wrote to stderr: %s", value, stderr.String())
	}
	got, after, _ = strings.Cut(stdout.String(), "\x00")
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		entries = append(entries, de.Name())
	}
	return got, after, entries
}

var shellSeeds = []string{
	"plain", "it's", "''", "'", `\'`, "a\nb\n", "\n", "trailing\n\n", "$(touch pwned)", "`touch pwned`",
	"${HOME}", "$NAME", "\"double\"", "back\\slash\\", "'; touch pwned; echo '", "\t tabs and spaces ",
	"emoji ✓ and \xff invalid utf-8", "-n", "%s%d", "export X=1", "a'\n'b", "\r\n",
}

func TestEnvFileRoundTripsInShell(t *testing.T) {
	shells := [][]string{{"sh"}}
	if p, err := exec.LookPath("busybox"); err == nil {
		shells = append(shells, []string{p, "sh"}) // the Traefik image's shell
	}
	for _, sh := range shells {
		for _, v := range shellSeeds {
			checkRoundTrip(t, sh, v)
		}
	}
}

func checkRoundTrip(t testing.TB, sh []string, v string) {
	t.Helper()
	got, after, entries := sourceInShell(t, sh, v)
	if got != v {
		t.Fatalf("value %q came back as %q", v, got)
	}
	if after != "after" {
		t.Fatalf("value %q broke the next line: AFTER=%q", v, after)
	}
	if len(entries) != 1 {
		t.Fatalf("value %q executed something: directory holds %v", v, entries)
	}
}

// FuzzEnvFile proves the quoting cannot be escaped: any value that passes
// CheckValue comes back byte for byte, and nothing else runs.
func FuzzEnvFile(f *testing.F) {
	for _, s := range shellSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if CheckValue(v) != nil {
			return
		}
		checkRoundTrip(t, []string{"sh"}, v)
	})
}
