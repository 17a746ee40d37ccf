package app

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/backup"
	"github.com/gatehouse-proxy/gatehouse/internal/cluster"
	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/managed"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/npm"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/traefikfile"
)

// transferReaders are the readers of other tools' configuration an import
// understands besides Gatehouse's own export.
func transferReaders(cfg config.Config) []document.Reader {
	return []document.Reader{npm.Reader{BcryptCost: cfg.BcryptCost}, traefikfile.New()}
}

// dnsCredentials adapts the managed service to the import's needs; nil
// outside managed mode.
func dnsCredentials(m *managed.Service) transfer.Credentials {
	if m == nil {
		return nil
	}
	return managedCredentials{m}
}

type managedCredentials struct{ m *managed.Service }

func (c managedCredentials) CredentialValues(ctx context.Context, db *gorm.DB) (map[string]string, error) {
	return c.m.CredentialValuesIn(ctx, db)
}

func (c managedCredentials) UpdateSecrets(ctx context.Context, tx *gorm.DB, upsert map[string]string, remove []string) error {
	return c.m.UpdateSecretsIn(ctx, tx, upsert, remove)
}

// passphrase reads GATEHOUSE_PASSPHRASE, else the first line of stdin.
func passphrase(o Options, prompt string) (string, error) {
	if o.Getenv != nil {
		if p := o.Getenv("GATEHOUSE_PASSPHRASE"); p != "" {
			return p, nil
		}
	}
	_, _ = fmt.Fprint(o.Stderr, prompt)
	in := o.Stdin
	if in == nil {
		in = stdin()
	}
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read passphrase: %w", err)
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// exportCommand implements `gatehouse export [-o FILE] [-admins] [-secrets] [-admin-passwords]`.
func exportCommand(ctx context.Context, cfg config.Config, o Options) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(o.Stderr)
	out := fs.String("o", "", "write the document to FILE (default: standard output)")
	admins := fs.Bool("admins", false, "list the administrators")
	secrets := fs.Bool("secrets", false, "seal the secrets to a passphrase (GATEHOUSE_PASSPHRASE or stdin)")
	adminPasswords := fs.Bool("admin-passwords", false, "seal the administrators' password hashes too")
	if err := fs.Parse(o.Args[1:]); err != nil {
		return err
	}
	eo := transfer.ExportOptions{Admins: *admins, Secrets: *secrets, AdminPasswords: *adminPasswords}
	if eo.Secrets || eo.AdminPasswords {
		p, err := passphrase(o, "passphrase for the secrets: ")
		if err != nil {
			return err
		}
		eo.Passphrase = p
	}
	c, err := build(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer c.close()
	ctx = cliContext(ctx)
	doc, err := c.transfer.Export(ctx, eo)
	if err != nil {
		return cliError(err)
	}
	body, err := transfer.Encode(doc)
	if err != nil {
		return err
	}
	if err := audit.Record(ctx, c.db, audit.Entry{Action: "export", ResourceType: "transfer"}); err != nil {
		return fmt.Errorf("could not record the export in the audit log: %w", err)
	}
	if *out == "" {
		_, err = o.Stdout.Write(body)
		return err
	}
	return os.WriteFile(*out, body, 0o600)
}

// importCommand implements `gatehouse import [-format auto] [-mode merge|replace] [-apply] FILE`.
func importCommand(ctx context.Context, cfg config.Config, o Options) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(o.Stderr)
	format := fs.String("format", transfer.FormatAuto, "auto, gatehouse, or another tool's format")
	mode := fs.String("mode", transfer.ModeMerge, "merge (create and update) or replace (also delete what the file lacks)")
	apply := fs.Bool("apply", false, "write the changes (without it: a dry run)")
	if err := fs.Parse(o.Args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: gatehouse import [-format auto] [-mode merge|replace] [-apply] FILE")
	}
	data, err := readLimited(fs.Arg(0))
	if err != nil {
		return err
	}
	opts := transfer.ImportOptions{Format: *format, Mode: *mode, Apply: *apply}
	if document.Is(data) {
		if doc, err := document.Parse(data); err == nil && doc.Sealed != "" {
			if opts.Passphrase, err = passphrase(o, "passphrase of the file's secrets: "); err != nil {
				return err
			}
		}
	}
	if opts.Apply {
		// A running panel would keep serving what its caches hold: an
		// import into it goes through its API (the import page), which
		// refreshes them. A dry run reads only, so it may run beside it.
		lk, err := backup.LockExclusive(cfg.DataDir)
		if err != nil {
			return fmt.Errorf("%w; or import through the running panel: System -> Export & import, or POST /api/import", err)
		}
		defer lk.Release()
		if cfg.PostgresURL != "" { // replicas on other hosts share the database, not the directory
			release, err := cluster.Exclusive(ctx, cfg.PostgresURL)
			if err != nil {
				return fmt.Errorf("%w; import through a running panel instead: System -> Export & import, or POST /api/import", err)
			}
			defer release()
		}
	}
	c, err := build(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer c.close()
	ctx = cliContext(ctx)
	pl, err := c.transfer.Import(ctx, data, opts)
	if err != nil {
		return cliError(err)
	}
	if pl.Applied {
		if err := audit.Record(ctx, c.db, audit.Entry{Action: "import", ResourceType: "transfer", ResourceName: fs.Arg(0)}); err != nil {
			return fmt.Errorf("the import was applied but could not be recorded in the audit log: %w", err)
		}
	}
	return printPlan(o.Stdout, pl)
}

func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path) //nolint:gosec // the operator names the file to import
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	data, err := io.ReadAll(io.LimitReader(f, document.MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > document.MaxSize {
		return nil, fmt.Errorf("%s is larger than %d MiB", path, document.MaxSize>>20)
	}
	return data, nil
}

// printPlan writes the plan as a table, then the summary.
func printPlan(w io.Writer, pl *transfer.Plan) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	_, _ = fmt.Fprintln(tw, "ACTION\tKIND\tNAME\tDETAIL")
	for _, it := range pl.Items {
		detail := it.Reason
		if len(it.Fields) > 0 {
			detail = strings.Join(it.Fields, ", ")
		}
		_, _ = fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", it.Action, it.Kind, it.Name, detail)
	}
	for _, sk := range pl.Skipped {
		_, _ = fmt.Fprintf(tw, "skipped\t\t%s\t%s\n", sk.Source, sk.Reason)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	s := pl.Summary
	state := "dry run: nothing was changed (add -apply to write)"
	if pl.Applied {
		state = "applied"
	}
	_, err := fmt.Fprintf(w, "\n%s (%s, %s): %d to create, %d to update, %d unchanged, %d to delete, %d refused, %d skipped\n",
		state, pl.Format, pl.Mode, s.Create, s.Update, s.Unchanged, s.Delete, s.Refused, s.Skipped)
	return err
}

// cliError spells out a client error's fields, as the API's envelope does.
func cliError(err error) error {
	e, ok := apperr.As(err)
	if !ok || len(e.Fields) == 0 {
		return err
	}
	parts := make([]string, 0, len(e.Fields))
	for _, f := range e.Fields {
		parts = append(parts, f.Field+": "+f.Message)
	}
	return errors.New(strings.Join(parts, "; "))
}
