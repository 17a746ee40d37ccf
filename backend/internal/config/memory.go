package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DefaultMemoryLimit is PANEL_MEMORY_LIMIT's default: the Go runtime's soft
// memory limit (debug.SetMemoryLimit). Without one the runtime keeps what
// the largest moment needed (a full rebuild of the configuration, a health
// round over every service) until its scavenger returns it minutes later;
// under a limit the collector runs sooner as the heap nears it and memory
// goes back to the system promptly. It is soft: a panel whose live data
// needs more grows past it (the collector then takes at most half the CPU)
// rather than failing. 48 MiB leaves a panel of 10,000 services and 5,000
// sessions (about 28 MB live) room to collect every 15 MB or so: the
// memory benchmark's CPU time grew by about a fifth over 64 MiB, for a
// resident set 12 MB smaller (see install.md's "Memory").
const DefaultMemoryLimit = 48 << 20

// minMemoryLimit keeps a typo ("64" for 64 MiB) from making the collector
// run all the time.
const minMemoryLimit = 16 << 20

// MemoryLimitFromGo is Config.MemoryLimit when PANEL_MEMORY_LIMIT is unset
// and GOMEMLIMIT is set: the Go runtime already applied that one.
const MemoryLimitFromGo = -1

// memoryLimit reads PANEL_MEMORY_LIMIT: a size in GOMEMLIMIT's syntax
// (bytes, or with a B, KiB, MiB, GiB suffix), or off. Unset: GOMEMLIMIT
// when that is set, else DefaultMemoryLimit.
func (l *loader) memoryLimit() (int64, error) {
	v := l.str("PANEL_MEMORY_LIMIT", "")
	switch {
	case v == "" && l.getenv("GOMEMLIMIT") != "":
		return MemoryLimitFromGo, nil
	case v == "":
		return DefaultMemoryLimit, nil
	case strings.EqualFold(v, "off"):
		return math.MaxInt64, nil
	}
	n, err := parseSize(v)
	if err != nil {
		return 0, fmt.Errorf("PANEL_MEMORY_LIMIT: %w", err)
	}
	if n < minMemoryLimit {
		return 0, fmt.Errorf("PANEL_MEMORY_LIMIT: %q is under 16MiB (the unit is needed: 64MiB, 1GiB), or off for none", v)
	}
	return n, nil
}

// parseSize parses a byte count with an optional binary unit, as
// GOMEMLIMIT does.
func parseSize(v string) (int64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := v, uint(0)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(v, u.suffix); ok {
			num, shift = rest, u.shift
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("%q is not a size (for example 64MiB, 1GiB, or off)", v)
	}
	return n << shift, nil
}
