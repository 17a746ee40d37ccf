package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Record appends e to the log through db, which may be a transaction the
// caller is writing in (the entry then commits or rolls back with the
// change it describes). The actor comes from actor.From(ctx): the CLI and
// imports put actor.System("cli"|"import") there. Appends are serialized by
// the database's write lock: the read of the last hash and the insert share
// one immediate transaction.
func Record(ctx context.Context, db *gorm.DB, e Entry) error {
	_, err := appendEntry(ctx, db, store.Now(), e)
	return err
}

// Limits that keep one entry small whatever a request carries.
const (
	maxChanges  = 200
	maxValueLen = 1000
	maxFieldLen = 200
	anchorKey   = "audit_anchor"
)

func appendEntry(ctx context.Context, db *gorm.DB, now time.Time, e Entry) (row, error) {
	a := e.Actor
	if a == nil {
		a = &ActorInfo{Kind: string(actor.KindSystem)}
		if ca, ok := actor.From(ctx); ok {
			a = &ActorInfo{Kind: string(ca.Kind), ID: ca.ID, Name: ca.Name, Address: ca.Address}
		}
	}
	changes := e.Changes
	if changes == nil {
		changes = []Change{}
	}
	if len(changes) > maxChanges {
		changes = append(changes[:maxChanges:maxChanges], Change{Path: "…", Before: nil, After: fmt.Sprintf("%d more changes", len(e.Changes)-maxChanges)})
	}
	diff, err := json.Marshal(changes)
	if err != nil {
		return row{}, fmt.Errorf("encode audit diff: %w", err)
	}
	r := row{
		ID: store.NewID(), At: now,
		ActorKind: clip(a.Kind), ActorID: clip(a.ID), ActorName: clip(a.Name), Address: clip(a.Address),
		Action: clip(e.Action), ResourceType: clip(e.ResourceType), ResourceID: clip(e.ResourceID),
		ResourceName: clip(e.ResourceName), Method: clip(e.Method), Route: clip(e.Route), Status: e.Status,
		Diff: string(diff),
	}
	err = db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var last row
		err := tx.Select("seq", "hash").Order("seq DESC").Limit(1).Take(&last).Error
		switch {
		case errors.Is(err, gorm.ErrRecordNotFound):
			// Empty table: continue from the pruning anchor, if any.
			var an anchor
			if _, err := store.GetConfig(ctx, tx, anchorKey, &an); err != nil {
				return err
			}
			last.Seq, last.Hash = an.Seq, an.Hash
		case err != nil:
			return fmt.Errorf("read last audit entry: %w", err)
		}
		r.Seq, r.PrevHash = last.Seq+1, last.Hash
		r.Hash = r.computeHash()
		if err := tx.Create(&r).Error; err != nil {
			return fmt.Errorf("insert audit entry: %w", err)
		}
		return nil
	})
	return r, err
}

// anchor is the last pruned entry: verification starts from it.
type anchor struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

func clip(s string) string { return truncate(s, maxFieldLen) }

// truncate cuts s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
