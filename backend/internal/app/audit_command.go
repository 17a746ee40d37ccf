package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

const auditUsage = "usage: gatehouse audit verify"

// auditCommand implements `gatehouse audit verify`: it walks the audit
// log's hash chain and prints "N entries, chain intact", or fails (exit 1)
// naming the first broken link.
func auditCommand(ctx context.Context, cfg config.Config, o Options) error {
	if len(o.Args) != 2 || o.Args[1] != "verify" {
		return errors.New(auditUsage)
	}
	db, err := store.Open(ctx, cfg.Database())
	if err != nil {
		return err
	}
	defer closeDB(db)
	rep, err := audit.Verify(ctx, db)
	if err != nil {
		return err
	}
	if !rep.Intact() {
		return errors.New(rep.String())
	}
	_, err = fmt.Fprintln(o.Stdout, rep.String())
	return err
}

// cliContext names the command line as the actor of what it changes.
func cliContext(ctx context.Context) context.Context { return actor.With(ctx, actor.System("cli")) }
