package bearer

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

func TestHash(t *testing.T) {
	for _, tok := range []string{"", "abc", "0123456789abcdef0123456789abcdef0123456789a"} {
		t.Run(tok, func(t *testing.T) {
			sum := sha256.Sum256([]byte(tok))
			if got, want := Hash(tok), hex.EncodeToString(sum[:]); got != want {
				t.Fatalf("Hash(%q) = %s, want %s", tok, got, want)
			}
		})
	}
}

func TestNew(t *testing.T) {
	a, err := New()
	if err != nil {
		t.Fatal(err)
	}
	b, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 43 || a == b {
		t.Fatalf("New() = %q, %q: want two different 43-character tokens", a, b)
	}
}

func TestHashAllocatesOnce(t *testing.T) {
	tok, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = Hash(tok) }); n > 1 {
		t.Fatalf("Hash allocates %v times, want 1", n)
	}
}
