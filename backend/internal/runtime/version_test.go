package runtime

import (
	"context"
	"testing"
)

func TestClientAtLeast(t *testing.T) {
	down := newFakeTraefik(t, traefik36())
	down.Close()
	tests := []struct {
		name  string
		files map[string]string // nil: Traefik does not answer
		want  map[[2]int]bool
	}{
		{"3.6", traefik36(), map[[2]int]bool{{3, 5}: true, {3, 6}: true, {3, 7}: false, {4, 0}: false}},
		{"3.7", traefik37(), map[[2]int]bool{{3, 6}: true, {3, 7}: true, {3, 8}: false}},
		{"development build", map[string]string{"/api/version": "body:{\"Version\":\"dev\"}"}, map[[2]int]bool{{3, 0}: false}},
		{"no version endpoint", map[string]string{}, map[[2]int]bool{{3, 0}: false}},
		{"not answering", nil, map[[2]int]bool{{3, 0}: false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := down.URL
			if tt.files != nil {
				url = newFakeTraefik(t, tt.files).URL
			}
			c, err := NewClient(url, ClientOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for v, want := range tt.want {
				if got := c.AtLeast(context.Background(), v[0], v[1]); got != want {
					t.Errorf("AtLeast(%d, %d) = %v; want %v", v[0], v[1], got, want)
				}
			}
		})
	}
	var none *Client // PANEL_PROXY_API_URL not set
	if none.AtLeast(context.Background(), 3, 0) {
		t.Fatal("an unconfigured client knows a version")
	}
}
