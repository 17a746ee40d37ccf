package domains

import "testing"

func TestJoinNames(t *testing.T) {
	tests := []struct {
		name  string
		names []string
		total int
		want  string
	}{
		{"all", []string{"a", "b"}, 2, "a, b"},
		{"cut", []string{"a", "b", "c", "d", "e"}, 6, "a, b, c, d, e and 1 more"},
		{"none listed", nil, 3, "3 more"},
		{"empty", nil, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := joinNames(tt.names, tt.total); got != tt.want {
				t.Errorf("joinNames(%v, %d) = %q, want %q", tt.names, tt.total, got, tt.want)
			}
		})
	}
}
