package services

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Entrypoint protocols, as Traefik's static configuration has them (an
// address ending in /udp listens for UDP, any other for TCP, which HTTP
// routers use too).
const (
	ProtocolTCP = "tcp"
	ProtocolUDP = "udp"
)

// EntrypointInfo is what a write needs to know of the entrypoints.
type EntrypointInfo struct {
	// Defaults are the entrypoints of the HTTP services that list none.
	Defaults []string
	// Protocols maps each entrypoint a source knows (Traefik's API, the
	// managed static configuration) to ProtocolTCP or ProtocolUDP; nil when
	// none knows them, and then no write is refused for its protocol.
	Protocols map[string]string
}

// Entrypoints answers EntrypointInfo (settings and the live view own it).
type Entrypoints func(ctx context.Context) (EntrypointInfo, error)

// checkProtocols refuses an entrypoint of the wrong protocol, and (for tcp
// and udp services) one the source does not know, when a source knows them.
func checkProtocols(row *store.Service, info EntrypointInfo) error {
	if info.Protocols == nil {
		return nil
	}
	want := ProtocolTCP
	if row.Kind == store.KindUDP {
		want = ProtocolUDP
	}
	for i, ep := range row.Entrypoints.V {
		f := fmt.Sprintf("entrypoints[%d]", i)
		got, known := info.Protocols[ep]
		switch {
		case !known && IsStream(row.Kind):
			return apperr.Field(f, "Traefik has no entrypoint %q (it has: %s)", ep, knownEntrypoints(info.Protocols, want))
		case known && got != want:
			return apperr.Field(f, "%q is a %s entrypoint; a %s service needs a %s one (%s)", ep,
				strings.ToUpper(got), kindWord(row.Kind), strings.ToUpper(want), knownEntrypoints(info.Protocols, want))
		}
	}
	return nil
}

func kindWord(kind string) string {
	if IsStream(kind) {
		return kind
	}
	return "HTTP"
}

// knownEntrypoints lists the entrypoints of protocol p, sorted.
func knownEntrypoints(m map[string]string, p string) string {
	var out []string
	for ep, v := range m {
		if v == p {
			out = append(out, ep)
		}
	}
	if len(out) == 0 {
		return "none of protocol " + strings.ToUpper(p)
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// checkEntrypointConflicts refuses, for an enabled service, what Traefik
// could not tell apart on one entrypoint: two udp services (a UDP router
// has no rule), tcp and udp on one name, two catch-all tcp services, a
// catch-all tcp service where HTTP services listen (it would take their
// connections), and the reverse. Two tcp services on one SNI name are
// refused by the hostnames' ownership (see SyncHostnames), as for HTTP.
func checkEntrypointConflicts(tx *gorm.DB, row *store.Service, info EntrypointInfo) error {
	return CheckEntrypointConflicts(tx, row, info)
}

// CheckEntrypointConflicts is checkEntrypointConflicts for the writers of
// other features (the configuration import), inside their transaction.
func CheckEntrypointConflicts(tx *gorm.DB, row *store.Service, info EntrypointInfo) error {
	if !row.Enabled {
		return nil
	}
	if err := checkProtocols(row, info); err != nil {
		return err
	}
	eps := row.Entrypoints.V
	if !IsStream(row.Kind) && len(eps) == 0 {
		eps = info.Defaults
	}
	field := func(ep string) string {
		if i := slices.Index(row.Entrypoints.V, ep); i >= 0 {
			return fmt.Sprintf("entrypoints[%d]", i)
		}
		return "entrypoints"
	}
	var others []store.Service
	if err := tx.Select("id", "name", "kind", "entrypoints", "hostnames").
		Where("enabled = ? AND id <> ? AND kind IN ?", true, row.ID, []string{store.KindTCP, store.KindUDP}).
		Order("created_at, id").Find(&others).Error; err != nil {
		return fmt.Errorf("check entrypoints: %w", err)
	}
	catchAll := row.Kind == store.KindTCP && len(row.Hostnames.V) == 0
	for _, o := range others {
		oCatchAll := o.Kind == store.KindTCP && len(o.Hostnames.V) == 0
		for _, ep := range eps {
			if !slices.Contains(o.Entrypoints.V, ep) {
				continue
			}
			switch {
			case row.Kind == store.KindUDP && o.Kind == store.KindUDP:
				return apperr.Conflict(field(ep), "the UDP entrypoint %q already carries the udp service %q (a UDP entrypoint routes to one service)", ep, o.Name)
			case (row.Kind == store.KindUDP) != (o.Kind == store.KindUDP):
				return apperr.Conflict(field(ep), "the entrypoint %q already carries the %s service %q", ep, o.Kind, o.Name)
			case catchAll && oCatchAll:
				return apperr.Conflict(field(ep), "the entrypoint %q already has a catch-all tcp service, %q", ep, o.Name)
			case !IsStream(row.Kind) && oCatchAll:
				return apperr.Conflict(field(ep), "the tcp service %q takes every connection of the entrypoint %q (it has no hostnames)", o.Name, ep)
			}
		}
	}
	if !catchAll {
		return nil
	}
	for _, ep := range eps {
		if slices.Contains(info.Defaults, ep) {
			return apperr.Conflict(field(ep), "%q is a default entrypoint of HTTP services: a tcp service without hostnames would take all their connections; give it an entrypoint of its own", ep)
		}
	}
	var lists []string
	if err := tx.Model(&store.Service{}).Distinct("entrypoints").
		Where("enabled = ? AND id <> ? AND kind NOT IN ?", true, row.ID, []string{store.KindTCP, store.KindUDP}).
		Pluck("entrypoints", &lists).Error; err != nil {
		return fmt.Errorf("check entrypoints: %w", err)
	}
	for _, raw := range lists {
		var l []string
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			return fmt.Errorf("check entrypoints: %w", err)
		}
		for _, ep := range eps {
			if slices.Contains(l, ep) {
				return apperr.Conflict(field(ep), "HTTP services listen on %q: a tcp service without hostnames would take all their connections; give it an entrypoint of its own", ep)
			}
		}
	}
	return nil
}
