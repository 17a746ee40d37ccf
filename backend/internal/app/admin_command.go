package app

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/admin/sso"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

const adminUsage = "usage: gatehouse admin create -username NAME [-role admin|viewer] | reset-password|reset-2fa -username NAME | local-passwords on"

// adminCommand implements `gatehouse admin create -username NAME [-role ROLE]`,
// `gatehouse admin reset-password -username NAME` and `gatehouse admin
// reset-2fa -username NAME`. The password comes from
// PANEL_ADMIN_PASSWORD[_FILE] or the first line of stdin, never from the
// command line (it would show in ps and shell history).
func adminCommand(ctx context.Context, cfg config.Config, o Options) error {
	if len(o.Args) >= 2 && o.Args[1] == "local-passwords" {
		return localPasswords(ctx, cfg, o)
	}
	if len(o.Args) < 2 || (o.Args[1] != "create" && o.Args[1] != "reset-password" && o.Args[1] != "reset-2fa") {
		return errors.New(adminUsage)
	}
	sub := o.Args[1]
	fs := flag.NewFlagSet("admin "+sub, flag.ContinueOnError)
	fs.SetOutput(o.Stderr)
	username := fs.String("username", cfg.AdminUser, "administrator username")
	role := actor.RoleAdmin
	if sub == "create" {
		fs.Func("role", "the administrator's role: admin or viewer (default admin)", func(v string) error {
			role = actor.Role(v)
			if !role.Valid() {
				return errors.New("must be admin or viewer")
			}
			return nil
		})
	}
	if err := fs.Parse(o.Args[2:]); err != nil {
		return err
	}
	if *username == "" {
		return fmt.Errorf("admin %s: -username is required", sub)
	}
	if sub == "reset-2fa" {
		return resetTwoFactor(ctx, cfg, *username, o.Stdout)
	}
	password := cfg.AdminPassword
	if password == "" {
		_, _ = fmt.Fprint(o.Stderr, "password: ")
		in := o.Stdin
		if in == nil {
			in = stdin()
		}
		line, err := bufio.NewReader(in).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("read password: %w", err)
		}
		password = strings.TrimRight(line, "\r\n")
	}
	db, err := store.Open(ctx, cfg.Database())
	if err != nil {
		return err
	}
	defer closeDB(db)
	svc := admin.NewService(admin.Deps{DB: db, Now: store.Now, BcryptCost: cfg.BcryptCost})
	ctx = cliContext(ctx)
	if sub == "reset-password" {
		return resetPassword(ctx, svc, db, *username, password, o.Stdout)
	}
	u, err := svc.CreateWithRole(ctx, *username, password, role)
	if err != nil {
		return err
	}
	if err := audit.Record(ctx, db, audit.Entry{
		Action: audit.ActionCreate, ResourceType: "people", ResourceID: u.ID, ResourceName: u.Username,
		Changes: audit.Diff(nil, map[string]any{"username": u.Username, "role": string(u.Role)}),
	}); err != nil {
		return fmt.Errorf("created administrator %q but could not record it in the audit log: %w", u.Username, err)
	}
	_, err = fmt.Fprintf(o.Stdout, "created administrator %q with the %s role\n", u.Username, u.Role)
	return err
}

// resetPassword sets the password and ends every session of the
// administrator.
func resetPassword(ctx context.Context, svc *admin.Service, db *gorm.DB, username, password string, out io.Writer) error {
	u, err := svc.ResetPassword(ctx, username, password)
	if apperr.IsCode(err, apperr.CodeNotFound) {
		return fmt.Errorf("admin reset-password: no administrator named %q", username)
	}
	if err != nil {
		return err
	}
	if err := audit.Record(ctx, db, audit.Entry{
		Action: "reset_password", ResourceType: "people", ResourceID: u.ID, ResourceName: u.Username,
	}); err != nil {
		return fmt.Errorf("reset the password of %q but could not record it in the audit log: %w", u.Username, err)
	}
	_, err = fmt.Fprintf(out, "reset the password of administrator %q and ended their sessions\n", u.Username)
	return err
}

// resetTwoFactor removes the administrator's TOTP, recovery codes and
// passkeys and ends their sessions: the way back in for someone who lost
// their authenticator. The password is left as it is.
func resetTwoFactor(ctx context.Context, cfg config.Config, username string, out io.Writer) error {
	db, err := store.Open(ctx, cfg.Database())
	if err != nil {
		return err
	}
	defer closeDB(db)
	ctx = cliContext(ctx)
	u, err := admin.NewService(admin.Deps{DB: db, Now: store.Now, BcryptCost: cfg.BcryptCost}).ResetTwoFactor(ctx, username)
	if apperr.IsCode(err, apperr.CodeNotFound) {
		return fmt.Errorf("admin reset-2fa: no administrator named %q", username)
	}
	if err != nil {
		return err
	}
	if err := audit.Record(ctx, db, audit.Entry{
		Action: "reset_2fa", ResourceType: "people", ResourceID: u.ID, ResourceName: u.Username,
	}); err != nil {
		return fmt.Errorf("removed the second factors of %q but could not record it in the audit log: %w", u.Username, err)
	}
	_, err = fmt.Fprintf(out, "removed the second factors of administrator %q and ended their sessions\n", u.Username)
	return err
}

func stdin() io.Reader { return os.Stdin }

// localPasswords implements `gatehouse admin local-passwords on`: the way
// back in when the panel's sign-in is SSO only and the provider fails.
// Turning passwords off is only offered on the settings page, which checks
// that an administrator can still sign in with SSO. A running panel reads
// the setting at every sign-in, so no restart is needed.
func localPasswords(ctx context.Context, cfg config.Config, o Options) error {
	if len(o.Args) != 3 || o.Args[2] != "on" {
		return errors.New("usage: gatehouse admin local-passwords on")
	}
	db, err := store.Open(ctx, cfg.Database())
	if err != nil {
		return err
	}
	defer closeDB(db)
	ctx = cliContext(ctx)
	if err := sso.NewService(sso.Deps{DB: db}).EnableLocalPasswords(ctx); err != nil {
		return err
	}
	if err := audit.Record(ctx, db, audit.Entry{
		Action: audit.ActionUpdate, ResourceType: "admin.sso", ResourceName: "local passwords",
		Changes: audit.Diff(map[string]any{"localPasswords": false}, map[string]any{"localPasswords": true}),
	}); err != nil {
		return fmt.Errorf("turned local passwords on but could not record it in the audit log: %w", err)
	}
	_, err = fmt.Fprintln(o.Stdout, "administrators can sign in with their passwords again")
	return err
}
