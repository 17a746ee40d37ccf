package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/containers"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
)

// newContainers builds the containers feature: connected to the engine at
// PANEL_DOCKER_HOST when it is set. Labels' protections and access
// presets are written by their owners (forward-auth, access).
func newContainers(cfg config.Config, db *gorm.DB, bus *change.Bus, now func() time.Time, log *slog.Logger,
	svcs *services.Service, fwd *forwardauth.Service, policy *access.Service) (*containers.Service, error) {
	d := containers.Deps{DB: db, Bus: bus, Now: now, Logger: log.With("feature", "containers"), Services: svcs,
		Options: containers.Options{TraefikNetworks: cfg.DockerNetworks, PublishedHost: cfg.DockerPublishedHost},
		Protect: func(ctx context.Context, id, protection string) error {
			on := protection == containers.ProtectionPeople
			cur, err := fwd.GetProtection(ctx, id)
			if err != nil {
				return err
			}
			if (cur.People != nil && cur.People.Enabled) == on {
				return nil
			}
			_, err = fwd.PutProtection(ctx, id, forwardauth.Protection{People: &forwardauth.PeopleProtection{Enabled: on}})
			return err
		},
		ApplyPreset: func(ctx context.Context, id, preset string) error {
			for _, p := range rules.Presets() {
				if p.ID == preset {
					_, err := policy.Put(ctx, id, access.PutServiceAccess{Rules: p.Rules})
					return err
				}
			}
			return fmt.Errorf("no access preset %q", preset)
		},
		Presets: func() []string {
			var ids []string
			for _, p := range rules.Presets() {
				ids = append(ids, p.ID)
			}
			return ids
		},
	}
	if cfg.DockerHost != "" {
		eng, err := containers.NewEngine(cfg.DockerHost)
		if err != nil {
			return nil, fmt.Errorf("PANEL_DOCKER_HOST: %w", err)
		}
		d.Engine = eng
	}
	return containers.NewService(d), nil
}
