package app

import (
	"context"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
)

// directoryRef lets access rules consult the directory of people, which is
// built after them (people needs forward-auth, which needs the rules).
type directoryRef struct{ svc *people.Service }

func (r *directoryRef) DirectoryNames(ctx context.Context) (p, g []string, err error) {
	return r.svc.DirectoryNames(ctx)
}

func (r *directoryRef) IdentityByUsername(ctx context.Context, username string) (rules.Identity, bool, error) {
	return r.svc.IdentityByUsername(ctx, username)
}
