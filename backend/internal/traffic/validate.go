package traffic

import (
	"strconv"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// Ranges are the named ranges a chart offers.
var Ranges = map[string]time.Duration{"1h": time.Hour, "24h": 24 * time.Hour, "7d": 7 * 24 * time.Hour, "30d": 30 * 24 * time.Hour}

// maxSpan bounds a range given by from and to.
const maxSpan = 400 * 24 * time.Hour

// window reads range, from and to: to defaults to now, from to to minus
// the range (24 h by default).
func window(get func(string) string, now time.Time) (from, to time.Time, err error) {
	var c apperr.Collector
	span := 24 * time.Hour
	if r := get("range"); r != "" {
		d, ok := Ranges[r]
		if !ok {
			c.Add("range", "must be one of: 1h, 24h, 7d, 30d")
		}
		span = d
	}
	to = now
	if s := get("to"); s != "" {
		if t, perr := time.Parse(time.RFC3339, s); perr == nil && len(s) <= 64 {
			to = t
		} else {
			c.Add("to", "must be an RFC 3339 time")
		}
	}
	from = to.Add(-span)
	if s := get("from"); s != "" {
		if t, perr := time.Parse(time.RFC3339, s); perr == nil && len(s) <= 64 {
			from = t
		} else {
			c.Add("from", "must be an RFC 3339 time")
		}
	}
	if err := c.Err(); err != nil {
		return from, to, err
	}
	switch {
	case !from.Before(to):
		c.Add("from", "must be before to")
	case to.Sub(from) > maxSpan:
		c.Add("from", "must be at most 400 days before to")
	case to.After(now.Add(24 * time.Hour)):
		c.Add("to", "must not be more than a day ahead")
	}
	return from, to, c.Err()
}

// listPoints reads points (24 by default).
func listPoints(s string) (int, error) {
	if s == "" {
		return 24, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > MaxListPoints {
		var c apperr.Collector
		c.Add("points", "must be between 1 and %d", MaxListPoints)
		return 0, c.Err()
	}
	return n, nil
}

// maxServiceID bounds a service id in a path (the panel's ids are UUIDs).
const maxServiceID = 64

func serviceID(id string) error {
	if id == "" || len(id) > maxServiceID {
		var c apperr.Collector
		c.Add("id", "must be a service id")
		return c.Err()
	}
	return nil
}
