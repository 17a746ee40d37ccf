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

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// adminCommand implements `gatehouse admin create -username NAME`. The
// password comes from PANEL_ADMIN_PASSWORD[_FILE] or the first line of stdin,
// never from the command line (it would show in ps and shell history).
func adminCommand(ctx context.Context, cfg config.Config, o Options) error {
	if len(o.Args) < 2 || o.Args[1] != "create" {
		return errors.New("usage: gatehouse admin create -username NAME")
	}
	fs := flag.NewFlagSet("admin create", flag.ContinueOnError)
	fs.SetOutput(o.Stderr)
	username := fs.String("username", cfg.AdminUser, "administrator username")
	if err := fs.Parse(o.Args[2:]); err != nil {
		return err
	}
	if *username == "" {
		return errors.New("admin create: -username is required")
	}
	password := cfg.AdminPassword
	if password == "" {
		_, _ = fmt.Fprint(o.Stderr, "password: ")
		line, err := bufio.NewReader(stdin()).ReadString('\n')
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
	u, err := admin.NewService(db, store.Now, 0).Create(ctx, *username, password)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(o.Stdout, "created administrator %q\n", u.Username)
	return err
}

func stdin() io.Reader { return os.Stdin }
