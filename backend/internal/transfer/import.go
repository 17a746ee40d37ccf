package transfer

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// Formats an import reads besides the readers' own names.
const (
	FormatAuto      = "auto"
	FormatGatehouse = "gatehouse"
)

// ImportOptions say how to read and whether to write.
type ImportOptions struct {
	Format     string // FormatAuto (default), FormatGatehouse or a reader's Name
	Mode       string // ModeMerge (default) or ModeReplace
	Apply      bool   // false: a dry run
	Digest     string // with Apply: the reviewed plan's digest; a different fresh plan is a conflict
	Passphrase string // opens the document's sealed secrets
	// Actor is the username of the administrator importing, whom the import
	// never demotes or disables ("" for the CLI).
	Actor string
}

// errForced lets a test fail an apply halfway.
var errForced = errors.New("forced failure")

// Import reads data, plans it against the database and, when asked,
// applies the plan in one transaction: any error leaves everything as it was.
func (s *Service) Import(ctx context.Context, data []byte, o ImportOptions) (*Plan, error) {
	if o.Mode == "" {
		o.Mode = ModeMerge
	}
	if o.Mode != ModeMerge && o.Mode != ModeReplace {
		return nil, document.Bad("mode", "must be merge or replace")
	}
	format, doc, skipped, err := s.read(data, o.Format)
	if err != nil {
		return nil, err
	}
	var sec *document.Secrets
	if doc.Sealed != "" {
		opened, err := open(doc.Sealed, o.Passphrase)
		if err != nil {
			return nil, err
		}
		sec = &opened
	}
	var pl *Plan
	var p *planner
	run := func(tx *gorm.DB) error {
		st, err := loadState(tx)
		if err != nil {
			return err
		}
		p = &planner{s: s, ctx: ctx, tx: tx, st: st, doc: &doc, sec: sec, mode: o.Mode, actor: o.Actor, now: s.o.Now().UTC()}
		if err := p.build(); err != nil {
			return err
		}
		pl = p.finish(format, p.resolverNotes(skipped))
		if err := refusePersonAccess(ctx, p.items); err != nil {
			return err
		}
		if !o.Apply {
			return nil
		}
		if o.Digest != "" && o.Digest != pl.Digest {
			return apperr.Conflict("digest", "the plan changed since it was reviewed (the file or this panel's data changed): review it again")
		}
		for i, w := range slices.Concat(p.early, p.writes, p.drops) {
			if s.failAt > 0 && i+1 == s.failAt {
				return errForced
			}
			if err := w(tx); err != nil {
				if _, ok := apperr.As(err); ok {
					return err
				}
				return fmt.Errorf("apply import: %w", err)
			}
		}
		return p.record(tx)
	}
	db := s.o.DB.WithContext(ctx)
	if err := db.Transaction(run); err != nil {
		return nil, err
	}
	if !o.Apply {
		return pl, nil
	}
	pl.Applied = true
	for i := range pl.Items {
		if it := &pl.Items[i]; it.Action == ActionCreate || it.Action == ActionUpdate {
			it.ID = it.id
		}
	}
	for _, e := range p.events {
		s.o.Bus.Publish(e)
	}
	if s.o.Accounts != nil {
		s.o.Accounts.SessionsEnded(ctx, p.ended)
	}
	return pl, nil
}

// read detects the format (when auto) and turns data into a document.
func (s *Service) read(data []byte, format string) (string, document.Document, []document.Skipped, error) {
	if len(data) == 0 {
		return "", document.Document{}, nil, document.Bad("file", "is empty")
	}
	if len(data) > document.MaxSize {
		return "", document.Document{}, nil, document.Bad("file", "is larger than %d MiB", document.MaxSize>>20)
	}
	if format == "" || format == FormatAuto {
		switch {
		case document.Is(data):
			format = FormatGatehouse
		default:
			for _, r := range s.o.Readers {
				if r.Detect(data) {
					format = r.Name()
					break
				}
			}
		}
		if format == "" || format == FormatAuto {
			return "", document.Document{}, nil, document.Bad("file", "is not a format this panel reads (a Gatehouse export%s)", s.readerNames())
		}
	}
	if format == FormatGatehouse {
		doc, err := document.Parse(data)
		return format, doc, nil, err
	}
	for _, r := range s.o.Readers {
		if r.Name() == format {
			doc, skipped, err := r.Read(data)
			if err != nil {
				if _, ok := apperr.As(err); ok {
					return "", document.Document{}, nil, err
				}
				return "", document.Document{}, nil, document.Bad("file", "cannot be read as %s: %v", format, err)
			}
			doc.Sealed = "" // only a Gatehouse export carries sealed secrets
			return format, doc, skipped, nil
		}
	}
	return "", document.Document{}, nil, document.Bad("format", "must be auto, gatehouse%s", s.readerNames())
}

func (s *Service) readerNames() string {
	out := ""
	for _, r := range s.o.Readers {
		name := r.Name()
		if t, ok := r.(interface{ Title() string }); ok {
			name = t.Title() + " (" + name + ")"
		}
		out += ", " + name
	}
	return out
}
