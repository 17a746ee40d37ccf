package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/viewmask"
)

// EntryView is an entry as the API shows it.
type EntryView struct {
	ID       string       `json:"id"`
	Seq      int64        `json:"seq"`
	At       string       `json:"at"`
	Actor    ActorView    `json:"actor"`
	Address  string       `json:"address"`
	Action   string       `json:"action"`
	Resource ResourceView `json:"resource"`
	Method   string       `json:"method"`
	Route    string       `json:"route"`
	Status   int          `json:"status"`
	Changes  []Change     `json:"changes"`
}

// ActorView is who acted.
type ActorView struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
	Name string `json:"name"`
}

// ResourceView is what was acted on.
type ResourceView struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Page is one page of entries, newest first. NextBefore, when set, is the
// cursor for the next (older) page.
type Page struct {
	Items          []EntryView `json:"items"`
	NextBefore     *int64      `json:"nextBefore"`
	RecordFailures int64       `json:"recordFailures"`
}

func (r *row) view() EntryView {
	changes := []Change{}
	_ = json.Unmarshal([]byte(r.Diff), &changes) // a row's diff is what appendEntry encoded
	return EntryView{
		ID: r.ID, Seq: r.Seq, At: r.At.UTC().Format("2006-01-02T15:04:05.000Z07:00"),
		Actor:   ActorView{Kind: r.ActorKind, ID: r.ActorID, Name: r.ActorName},
		Address: r.Address, Action: r.Action,
		Resource: ResourceView{Type: r.ResourceType, ID: r.ResourceID, Name: r.ResourceName},
		Method:   r.Method, Route: r.Route, Status: r.Status, Changes: changes,
	}
}

// List returns one page of entries matching f, newest first, with the
// fields hidden from the reader in ctx (viewmask.Hides) masked.
func (s *Service) List(ctx context.Context, f Filter) (Page, error) {
	hide := viewmask.Hides(ctx)
	var rows []row
	if err := s.where(ctx, f, hide).Order("seq DESC").Limit(f.Limit + 1).Find(&rows).Error; err != nil {
		return Page{}, fmt.Errorf("list audit entries: %w", err)
	}
	p := Page{Items: make([]EntryView, 0, len(rows)), RecordFailures: s.Failures()}
	if len(rows) > f.Limit {
		rows = rows[:f.Limit]
		next := rows[len(rows)-1].Seq
		p.NextBefore = &next
	}
	if err := s.fillNames(ctx, rows); err != nil {
		return Page{}, err
	}
	for i := range rows {
		p.Items = append(p.Items, s.forReader(rows[i].view(), hide))
	}
	return p, nil
}

// Each calls fn for every entry matching f (up to MaxExport), newest first,
// reading in batches so an export does not hold the whole log in memory.
// Fields hidden from the reader in ctx are masked, as in List.
func (s *Service) Each(ctx context.Context, f Filter, fn func(EntryView) error) error {
	const batch = 500
	hide := viewmask.Hides(ctx)
	done := 0
	for done < MaxExport {
		var rows []row
		if err := s.where(ctx, f, hide).Order("seq DESC").Limit(min(batch, MaxExport-done)).Find(&rows).Error; err != nil {
			return fmt.Errorf("export audit entries: %w", err)
		}
		if err := s.fillNames(ctx, rows); err != nil {
			return err
		}
		for i := range rows {
			if err := fn(s.forReader(rows[i].view(), hide)); err != nil {
				return err
			}
		}
		done += len(rows)
		if len(rows) < batch {
			return nil
		}
		f.Before = rows[len(rows)-1].Seq
	}
	return nil
}

// where selects the entries matching f. For a reader from whom fields are
// hidden, the free text does not look into the changes of resource types
// with hidden fields: a match there would confirm a guessed secret.
func (s *Service) where(ctx context.Context, f Filter, hide bool) *gorm.DB {
	q := s.db.WithContext(ctx).Model(&row{})
	if f.Actor != "" {
		q = q.Where("(actor_name = ? OR actor_id = ?)", f.Actor, f.Actor)
	}
	if f.Action != "" {
		q = q.Where("action = ?", f.Action)
	}
	if f.ResourceType != "" {
		q = q.Where("(resource_type = ? OR resource_type LIKE ? ESCAPE '\\')", f.ResourceType, likeEscape(f.ResourceType)+".%")
	}
	if f.ResourceID != "" {
		q = q.Where("resource_id = ?", f.ResourceID)
	}
	if !f.From.IsZero() {
		q = q.Where("at >= ?", f.From)
	}
	if !f.To.IsZero() {
		q = q.Where("at < ?", f.To)
	}
	if f.Before > 0 {
		q = q.Where("seq < ?", f.Before)
	}
	if f.Q != "" {
		// lower() on both sides: SQLite's LIKE ignores ASCII case,
		// PostgreSQL's does not.
		like := "%" + likeEscape(f.Q) + "%"
		inDiff := "lower(diff) LIKE lower(?) ESCAPE '\\'"
		args := []any{like, like, like, like, like, like}
		if types := s.hiddenTypes(); hide && len(types) > 0 {
			inDiff = "(" + inDiff + " AND resource_type NOT IN ?)"
			args = append(args, types)
		}
		q = q.Where(`(lower(actor_name) LIKE lower(?) ESCAPE '\' OR lower(resource_name) LIKE lower(?) ESCAPE '\'
			OR lower(resource_id) LIKE lower(?) ESCAPE '\' OR lower(route) LIKE lower(?) ESCAPE '\'
			OR lower(address) LIKE lower(?) ESCAPE '\' OR `+inDiff+`)`, args...)
	}
	return q
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
