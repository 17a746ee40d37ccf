package traffic

import "time"

// Sources of an answer.
const (
	SourcePanel      = "panel"
	SourcePrometheus = "prometheus"
)

// States of an answer.
const (
	StateOK        = "ok"
	StateNoMetrics = "no_metrics" // Traefik's metrics are not read: reason says why
	StateNoTraffic = "no_traffic" // nothing recorded in the range yet
)

// SeriesValues are the chart's series, one value per time point. A nil
// entry is no data.
type SeriesValues struct {
	Requests2xx  []*float64 `json:"requests2xx"`
	Requests3xx  []*float64 `json:"requests3xx"`
	Requests4xx  []*float64 `json:"requests4xx"`
	Requests5xx  []*float64 `json:"requests5xx"`
	LatencyP50Ms []*float64 `json:"latencyP50Ms"`
	LatencyP95Ms []*float64 `json:"latencyP95Ms"`
	LatencyP99Ms []*float64 `json:"latencyP99Ms"`
	BytesIn      []*float64 `json:"bytesIn"`
	BytesOut     []*float64 `json:"bytesOut"`
	Allowed      []*float64 `json:"allowed"`
	SignedIn     []*float64 `json:"signedIn"`
	Challenged   []*float64 `json:"challenged"`
	Denied       []*float64 `json:"denied"`
	RateLimited  []*float64 `json:"rateLimited"`
	Up           []*float64 `json:"up"`
}

// Totals are the range's sums.
type Totals struct {
	Requests  int64 `json:"requests"`
	Errors5xx int64 `json:"errors5xx"`
	BytesIn   int64 `json:"bytesIn"`
	BytesOut  int64 `json:"bytesOut"`
	Denied    int64 `json:"denied"`
}

// Series is GET /api/traffic and GET /api/services/{id}/traffic, and what
// Window gives the alerts.
type Series struct {
	Source      string       `json:"source"`
	State       string       `json:"state"`
	Reason      string       `json:"reason"`
	From        time.Time    `json:"from"`
	To          time.Time    `json:"to"`
	StepSeconds int64        `json:"stepSeconds"`
	Time        []int64      `json:"time"`
	Series      SeriesValues `json:"series"`
	Totals      Totals       `json:"totals"`
}

// ServiceTraffic is one service in GET /api/traffic/services.
type ServiceTraffic struct {
	ServiceID  string  `json:"serviceId"`
	Name       string  `json:"name"`
	Requests   int64   `json:"requests"`
	Errors5xx  int64   `json:"errors5xx"`
	ErrorRatio float64 `json:"errorRatio"`
	Points     []int64 `json:"points"`
}

// ServicesTraffic is GET /api/traffic/services.
type ServicesTraffic struct {
	Source      string           `json:"source"`
	State       string           `json:"state"`
	Reason      string           `json:"reason"`
	StepSeconds int64            `json:"stepSeconds"`
	Time        []int64          `json:"time"`
	Services    []ServiceTraffic `json:"services"`
}
