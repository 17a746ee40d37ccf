package app

import (
	"log/slog"
	"math"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/config"
)

func TestApplyMemoryLimit(t *testing.T) {
	tests := []struct {
		limit int64
		want  []int64 // the calls to set
	}{
		{config.DefaultMemoryLimit, []int64{config.DefaultMemoryLimit}},
		{96 << 20, []int64{96 << 20}},
		{math.MaxInt64, []int64{math.MaxInt64}},
		{config.MemoryLimitFromGo, []int64{-1}}, // only read: GOMEMLIMIT stays
	}
	for _, tt := range tests {
		var calls []int64
		set := func(n int64) int64 { calls = append(calls, n); return 1 << 30 }
		applyMemoryLimit(config.Config{MemoryLimit: tt.limit}, slog.New(slog.DiscardHandler), set)
		if len(calls) != len(tt.want) || calls[0] != tt.want[0] {
			t.Errorf("limit %d: set called with %v, want %v", tt.limit, calls, tt.want)
		}
	}
	// Without set (the app in a test's process) nothing is applied.
	applyMemoryLimit(config.Config{MemoryLimit: 16 << 20}, slog.New(slog.DiscardHandler), nil)
}
