package httpheader

import (
	"strings"
	"testing"
)

func TestValidName(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"X-Env", true},
		{"x_custom.1!#$%&'*+^|~", true},
		{strings.Repeat("a", 128), true},
		{"", false},
		{strings.Repeat("a", 129), false},
		{"X Env", false},
		{"X-Env:", false},
		{"Ünicode", false},
	}
	for _, tt := range tests {
		if got := ValidName(tt.in); got != tt.want {
			t.Errorf("ValidName(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestValidValue(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"", true},
		{"a value; with=punctuation", true},
		{"ünicode", true},
		{"line\nbreak", false},
		{"carriage\rreturn", false},
		{"tab\t", false},
		{"del\x7f", false},
	}
	for _, tt := range tests {
		if got := ValidValue(tt.in); got != tt.want {
			t.Errorf("ValidValue(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
