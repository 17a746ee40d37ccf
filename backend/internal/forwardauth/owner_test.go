package forwardauth

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func TestProtections(t *testing.T) {
	db := testutil.NewDB(t)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, id := range []string{"a", "b", "c"} {
		if err := db.Create(&store.Service{ID: id, Name: id, Enabled: true, ExpiryType: store.ExpiryNever, CreatedAt: now, UpdatedAt: now}).Error; err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []store.SecurityConfig{
		{ID: "1", ServiceID: "a", Type: store.SecuritySSO, Enabled: true},
		{ID: "2", ServiceID: "a", Type: store.SecurityTokens, Enabled: true},
		{ID: "3", ServiceID: "b", Type: store.SecurityBasicAuth, Enabled: true},
		{ID: "4", ServiceID: "c", Type: store.SecuritySharedLinks, Enabled: false},
	} {
		r.CreatedAt, r.UpdatedAt = now, now
		if err := db.Create(&r).Error; err != nil {
			t.Fatal(err)
		}
	}
	a, b := services.Protection{SSO: true, Tokens: true}, services.Protection{BasicAuth: true}
	tests := []struct {
		name string
		ids  []string
		want map[string]services.Protection
	}{
		{"every service", nil, map[string]services.Protection{"a": a, "b": b}},
		{"one", []string{"b"}, map[string]services.Protection{"b": b}},
		{"several", []string{"a", "c"}, map[string]services.Protection{"a": a}},
		{"none enabled", []string{"c"}, map[string]services.Protection{}},
		{"unknown", []string{"x"}, map[string]services.Protection{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Protections(context.Background(), db, tt.ids)
			if err != nil || !maps.Equal(got, tt.want) {
				t.Fatalf("got %v %v, want %v", got, err, tt.want)
			}
			if len(tt.ids) == 1 {
				one, err := ServiceProtections(context.Background(), db, tt.ids[0])
				if err != nil || !maps.Equal(one, tt.want) {
					t.Fatalf("ServiceProtections: got %v %v, want %v", one, err, tt.want)
				}
			}
		})
	}
}
