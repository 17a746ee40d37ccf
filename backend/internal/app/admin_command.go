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

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

const adminUsage = "usage: gatehouse admin create -username NAME [-role admin|viewer] | reset-password -username NAME"

// adminCommand implements `gatehouse admin create -username NAME [-role ROLE]` and
// `gatehouse admin reset-password -username NAME`. The password comes from
// PANEL_ADMIN_PASSWORD[_FILE] or the first line of stdin, never from the
// command line (it would show in ps and shell history).
func adminCommand(ctx context.Context, cfg config.Config, o Options) error {
	if len(o.Args) < 2 || (o.Args[1] != "create" && o.Args[1] != "reset-password") {
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
	db, err := store.Open(ctx, cfg.DBPath)
	if err != nil {
		return err
	}
	defer closeDB(db)
	svc := admin.NewService(db, store.Now, cfg.BcryptCost)
	if sub == "reset-password" {
		return resetPassword(ctx, svc, *username, password, o.Stdout)
	}
	u, err := svc.CreateUser(ctx, admin.CreateUserRequest{Username: *username, Password: password, Role: role})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(o.Stdout, "created administrator %q with the %s role\n", u.Username, u.Role)
	return err
}

// resetPassword sets the password and ends every session of the
// administrator. This process does not share the running panel's change
// bus, so in managed mode that panel gives Traefik the new proxy hash after
// its next configuration change or restart (the README says so).
func resetPassword(ctx context.Context, svc *admin.Service, username, password string, out io.Writer) error {
	u, err := svc.ResetPassword(ctx, username, password)
	if apperr.IsCode(err, apperr.CodeNotFound) {
		return fmt.Errorf("admin reset-password: no administrator named %q", username)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "reset the password of administrator %q and ended their sessions\n", u.Username)
	return err
}

func stdin() io.Reader { return os.Stdin }
