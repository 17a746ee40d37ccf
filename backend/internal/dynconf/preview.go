package dynconf

import (
	"context"
	"errors"
	"fmt"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Preview is what one service contributes to the dynamic configuration.
type Preview struct {
	ServiceID string `json:"serviceId"`
	// Enabled is false when the service is disabled: the preview then shows
	// what it would contribute once enabled.
	Enabled           bool                         `json:"enabled"`
	Routers           map[string]*Router           `json:"routers"`
	Services          map[string]*TraefikService   `json:"services"`
	Middlewares       map[string]*Middleware       `json:"middlewares"`
	ServersTransports map[string]*ServersTransport `json:"serversTransports"`
	// TCP and UDP are a tcp or udp service's objects (nil for others).
	TCP *TCPConfig `json:"tcp,omitempty"`
	UDP *UDPConfig `json:"udp,omitempty"`
	// Problems explains why nothing is emitted, when the service is left out.
	Problems []string `json:"problems"`
	// Warnings are what may surprise about the emitted service (see Warning).
	Warnings []Warning `json:"warnings"`
}

// Preview builds the configuration with the service included (even when
// disabled, in its creation-order place so its names are the real ones) and
// returns only its own objects.
func (s *Service) Preview(ctx context.Context, id string) (Preview, error) {
	var row store.Service
	err := s.d.DB.WithContext(ctx).Preload("Domain").Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Preview{}, apperr.NotFound("service")
	}
	if err != nil {
		return Preview{}, fmt.Errorf("load service %s: %w", id, err)
	}
	rows, err := s.d.Services.ListEnabled(ctx)
	if err != nil {
		return Preview{}, err
	}
	if !row.Enabled {
		rows = insertInOrder(rows, row)
	}
	snap, err := s.snapshotOf(ctx, rows, firstTLSSource(ctx, s.d.TLSSources))
	if err != nil {
		return Preview{}, err
	}
	cfg, problems := BuildWithProblems(snap)
	p := Preview{
		ServiceID: id, Enabled: row.Enabled, Problems: []string{}, Warnings: []Warning{},
		Routers: map[string]*Router{}, Services: map[string]*TraefikService{},
		Middlewares: map[string]*Middleware{}, ServersTransports: map[string]*ServersTransport{},
	}
	pick(p.Routers, cfg.Section().Routers, cfg.owners.routers, id)
	pick(p.Services, cfg.Section().Services, cfg.owners.services, id)
	pick(p.Middlewares, cfg.Section().Middlewares, cfg.owners.middlewares, id)
	pick(p.ServersTransports, cfg.Section().ServersTransports, cfg.owners.transports, id)
	if row.Kind == store.KindTCP {
		p.TCP = &TCPConfig{Routers: map[string]*TCPRouter{}, Services: map[string]*TCPService{},
			Middlewares: map[string]*TCPMiddleware{}, ServersTransports: map[string]*TCPServersTransport{}}
		if t := cfg.TCP; t != nil {
			pick(p.TCP.Routers, t.Routers, cfg.tcpOwners.routers, id)
			pick(p.TCP.Services, t.Services, cfg.tcpOwners.services, id)
			pick(p.TCP.Middlewares, t.Middlewares, cfg.tcpOwners.middlewares, id)
			pick(p.TCP.ServersTransports, t.ServersTransports, cfg.tcpOwners.transports, id)
		}
	}
	if row.Kind == store.KindUDP {
		p.UDP = &UDPConfig{Routers: map[string]*UDPRouter{}, Services: map[string]*UDPService{}}
		if u := cfg.UDP; u != nil {
			pick(p.UDP.Routers, u.Routers, cfg.udpOwners.routers, id)
			pick(p.UDP.Services, u.Services, cfg.udpOwners.services, id)
		}
	}
	if sv, ok := snap.specByID(id); ok && !services.IsStream(sv.Kind) {
		p.Warnings = Warnings(&snap, sv)
	}
	for _, pr := range problems {
		if pr.Kind == "service" && pr.ID == id {
			p.Problems = append(p.Problems, pr.Reason)
		}
	}
	return p, nil
}

func pick[V any](dst, src map[string]V, owner map[string]string, id string) {
	for name, v := range src {
		if owner[name] == id {
			dst[name] = v
		}
	}
}

// insertInOrder puts row among rows by (created_at, id).
func insertInOrder(rows []store.Service, row store.Service) []store.Service {
	i := 0
	for i < len(rows) && (rows[i].CreatedAt.Before(row.CreatedAt) ||
		(rows[i].CreatedAt.Equal(row.CreatedAt) && rows[i].ID < row.ID)) {
		i++
	}
	out := make([]store.Service, 0, len(rows)+1)
	out = append(out, rows[:i]...)
	out = append(out, row)
	return append(out, rows[i:]...)
}
