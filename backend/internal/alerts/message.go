package alerts

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

func newID() string { return store.NewID() }

// eventKey is the notification key of an episode: its firing and its
// recovery share it.
func eventKey(e eventRow) string { return "alert:" + e.ID }

func scope(e eventRow) string {
	switch {
	case e.ServiceID == nil:
		return "all services"
	case e.ServiceName != "":
		return e.ServiceName
	}
	return "service " + *e.ServiceID
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func oneDecimal(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return strconv.FormatFloat(*v, 'f', 1, 64)
}

func minutes(n int) string {
	if n == 1 {
		return "1 minute"
	}
	return strconv.Itoa(n) + " minutes"
}

// firingEvent is the message of an episode that began.
func firingEvent(e eventRow) notify.Event {
	var body string
	switch Kind(e.Kind) {
	case ErrorRatio:
		body = fmt.Sprintf("5xx answers were %s %% of the requests for %s (threshold %s %%).",
			oneDecimal(e.Value), minutes(e.ForMinutes), num(e.Threshold))
	case LatencyP95:
		body = fmt.Sprintf("The latency's 95th percentile stayed above %s ms for %s (highest %s ms).",
			num(e.Threshold), minutes(e.ForMinutes), oneDecimal(e.Value))
	case NoTraffic:
		body = fmt.Sprintf("No requests for %s, after traffic in the hour before.", minutes(e.ForMinutes))
	case BackendDown:
		body = fmt.Sprintf("A backend failed its health checks for %s (lowest share up %s %%).",
			minutes(e.ForMinutes), oneDecimal(e.Value))
	}
	return notify.Event{Kind: notify.AlertFiring, Key: eventKey(e), At: e.FiredAt,
		Subject: "Alert: " + e.RuleName + " (" + scope(e) + ")", Body: body}
}

// resolvedEvent is the recovery message of an episode; last is the figure
// of the minute that recovered (nil when the rule was removed or disabled).
func resolvedEvent(e eventRow, last *float64) notify.Event {
	var body string
	switch e.Resolution {
	case "rule_removed":
		body = "The rule was removed: it is no longer watched."
	case "rule_disabled":
		body = "The rule was disabled: it is no longer watched."
	default:
		switch Kind(e.Kind) {
		case ErrorRatio:
			body = fmt.Sprintf("The 5xx ratio is back to %s %% (threshold %s %%).", oneDecimal(last), num(e.Threshold))
		case LatencyP95:
			body = fmt.Sprintf("The latency's 95th percentile is back to %s ms (threshold %s ms).", oneDecimal(last), num(e.Threshold))
		case NoTraffic:
			body = "Requests arrive again."
		case BackendDown:
			body = "Every backend passes its health checks again."
		}
	}
	at := e.FiredAt
	if e.ResolvedAt != nil {
		at = *e.ResolvedAt
	}
	body += fmt.Sprintf(" It fired at %s and lasted %s.", e.FiredAt.UTC().Format(time.RFC3339),
		at.Sub(e.FiredAt).Round(time.Second))
	return notify.Event{Kind: notify.AlertResolved, Key: eventKey(e), At: at,
		Subject: "Resolved: " + e.RuleName + " (" + scope(e) + ")", Body: body}
}
