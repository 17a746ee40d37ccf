package traffic

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// hist is a request-duration histogram: count per bucket (not cumulative)
// by upper bound in seconds, +Inf for the last. Histograms with different
// bounds merge into one over the union of their bounds.
type hist map[float64]float64

// maxBuckets bounds how many buckets a stored histogram keeps (Traefik's
// default has five; a configuration with hundreds would bloat every row).
const maxBuckets = 64

// fromCumulative turns Prometheus-style cumulative bucket increments into
// per-bucket counts. A bucket that went down against its neighbour (two
// scrapes straddling a restart) counts zero.
func fromCumulative(cum map[float64]float64) hist {
	bounds := make([]float64, 0, len(cum))
	for b := range cum {
		bounds = append(bounds, b)
	}
	slices.Sort(bounds)
	h := hist{}
	prev := 0.0
	for _, b := range bounds {
		v := cum[b]
		if n := v - prev; n > 0 {
			h[b] = n
		}
		if v > prev {
			prev = v
		}
	}
	return h
}

func (h hist) count() float64 {
	var n float64
	for _, v := range h {
		n += v
	}
	return n
}

// encode writes the non-zero buckets, lowest bound first, as
// "<bound>:<count>" separated by spaces (counts rounded to integers).
func (h hist) encode() string {
	bounds := make([]float64, 0, len(h))
	for b, n := range h {
		if math.Round(n) > 0 {
			bounds = append(bounds, b)
		}
	}
	slices.Sort(bounds)
	if len(bounds) > maxBuckets {
		// Fold the lowest buckets into the next: the top of the
		// distribution, which p95 and p99 read, keeps its detail.
		over := len(bounds) - maxBuckets
		for _, b := range bounds[:over] {
			h[bounds[over]] += h[b]
		}
		bounds = bounds[over:]
	}
	var sb strings.Builder
	for i, b := range bounds {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if math.IsInf(b, 1) {
			sb.WriteString("+Inf")
		} else {
			sb.WriteString(strconv.FormatFloat(b, 'g', -1, 64))
		}
		sb.WriteByte(':')
		sb.WriteString(strconv.FormatFloat(math.Round(h[b]), 'f', 0, 64))
	}
	return sb.String()
}

// decodeInto adds the histogram s encodes to h. Pairs it cannot read are
// skipped: a stored row never fails a chart.
func decodeInto(h hist, s string) {
	for s != "" {
		var pair string
		pair, s, _ = strings.Cut(s, " ")
		bs, ns, ok := strings.Cut(pair, ":")
		if !ok {
			continue
		}
		b, err1 := strconv.ParseFloat(bs, 64)
		n, err2 := strconv.ParseFloat(ns, 64)
		if err1 != nil || err2 != nil || math.IsNaN(b) || n <= 0 || math.IsInf(n, 0) {
			continue
		}
		h[b] += n
	}
}

// quantile estimates the q-quantile (0..1) in seconds the way Prometheus's
// histogram_quantile does: linear within the bucket it falls in, the
// lowest bucket starting at 0, and the highest finite bound when it falls
// in +Inf. ok is false for an empty histogram.
func (h hist) quantile(q float64) (float64, bool) {
	total := h.count()
	if total <= 0 {
		return 0, false
	}
	bounds := make([]float64, 0, len(h))
	for b := range h {
		bounds = append(bounds, b)
	}
	slices.Sort(bounds)
	rank := q * total
	var cum, lower float64
	for i, b := range bounds {
		n := h[b]
		if cum+n >= rank && n > 0 {
			if math.IsInf(b, 1) {
				if i == 0 {
					return 0, false
				}
				return bounds[i-1], true
			}
			return lower + (b-lower)*(rank-cum)/n, true
		}
		cum += n
		if !math.IsInf(b, 1) {
			lower = b
		}
	}
	return lower, true
}
