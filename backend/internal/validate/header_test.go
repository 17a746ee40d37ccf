package validate

import (
	"strings"
	"testing"
)

func TestHeaderName(t *testing.T) {
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
		if got := HeaderName(tt.in); got != tt.want {
			t.Errorf("HeaderName(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestHeaderValue(t *testing.T) {
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
		if got := HeaderValue(tt.in); got != tt.want {
			t.Errorf("HeaderValue(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
