package traefikfile

import (
	"fmt"
	"strings"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// transport reads the service's serversTransport from this file:
// insecureSkipVerify and the forwarding timeouts come over; anything that
// changes how the upstream is verified or reached does not, and the service
// is not imported (it would fail or trust differently).
func (f *file) transport(u *upstream, lb obj, at string) error {
	v, ok, err := field(lb, "serversTransport")
	if err != nil || !ok {
		return err
	}
	name, err := asString(v, path(at, "serversTransport"))
	if err != nil {
		return err
	}
	local, provider, _ := strings.Cut(name, "@")
	if provider != "" && provider != "file" {
		return fmt.Errorf("its servers transport %q belongs to the %s provider; Gatehouse cannot see it", name, provider)
	}
	tv, ok := f.transports[local]
	if !ok {
		return fmt.Errorf("its servers transport %q is not defined in this file", name)
	}
	tat := path("http", "serversTransports", local)
	t, err := asObj(tv, tat)
	if err != nil {
		return err
	}
	for _, k := range sortedKeys(t) {
		kat := path(tat, k)
		switch strings.ToLower(k) {
		case "insecureskipverify":
			if u.insecureSkipVerify, err = asBool(t[k], kat); err != nil {
				return err
			}
		case "forwardingtimeouts":
			if err := timeouts(&u.lb.Timeouts, t[k], kat); err != nil {
				return err
			}
		case "maxidleconnsperhost", "disablehttp2":
			u.notes = append(u.notes, fmt.Sprintf("%s is not imported (Traefik's default applies)", kat))
		default:
			return fmt.Errorf("%s: Gatehouse's transports set insecureSkipVerify and timeouts only; without this option the upstream would be verified or reached differently", kat)
		}
	}
	return nil
}

// timeouts reads forwardingTimeouts: dial, response-header and idle-connection.
func timeouts(dst *store.Timeouts, v any, at string) error {
	m, err := asObj(v, at)
	if err != nil {
		return err
	}
	for _, k := range sortedKeys(m) {
		kat := path(at, k)
		d, err := asSeconds(m[k], kat)
		if err != nil {
			return err
		}
		s := int((d + time.Second - 1) / time.Second)
		if s > 3600 {
			return fmt.Errorf("%s: Gatehouse timeouts are at most 3600 seconds", kat)
		}
		switch strings.ToLower(k) {
		case "dialtimeout":
			dst.DialSeconds = s
		case "responseheadertimeout":
			dst.ResponseHeaderSeconds = s
		case "idleconntimeout":
			dst.IdleConnSeconds = s
		default:
			return fmt.Errorf("%s: Gatehouse has dial, response-header and idle-connection timeouts only", kat)
		}
	}
	return nil
}
