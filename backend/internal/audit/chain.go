package audit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Report is the outcome of walking the chain.
type Report struct {
	Entries int
	// AnchorSeq is the last pruned entry the walk started from (0: none).
	AnchorSeq int64
	// BrokenAt is the seq where the chain first breaks (0: intact), and
	// Problem says what broke.
	BrokenAt int64
	Problem  string
}

// Intact reports whether the walk found no broken link.
func (r Report) Intact() bool { return r.BrokenAt == 0 }

func (r Report) String() string {
	if !r.Intact() {
		return fmt.Sprintf("audit chain broken at seq %d: %s", r.BrokenAt, r.Problem)
	}
	if r.AnchorSeq > 0 {
		return fmt.Sprintf("%d entries, chain intact (from seq %d; earlier entries pruned)", r.Entries, r.AnchorSeq+1)
	}
	return fmt.Sprintf("%d entries, chain intact", r.Entries)
}

// Verify walks the log in seq order from the pruning anchor and reports the
// first broken link: an entry whose fields no longer match its hash
// (content edited), a gap in seq (entries deleted), or an entry that does
// not name its predecessor's hash (deleted, inserted or reordered).
// Deleting the newest entries leaves no trace in the chain itself.
func Verify(ctx context.Context, db *gorm.DB) (Report, error) {
	var an anchor
	if _, err := store.GetConfig(ctx, db, anchorKey, &an); err != nil {
		return Report{}, err
	}
	rep := Report{AnchorSeq: an.Seq}
	wantSeq, wantPrev := an.Seq+1, an.Hash
	after := int64(-1 << 62)
	const batch = 1000
	for {
		var rows []row
		if err := db.WithContext(ctx).Where("seq > ?", after).Order("seq").Limit(batch).Find(&rows).Error; err != nil {
			return Report{}, fmt.Errorf("read audit entries: %w", err)
		}
		for i := range rows {
			r := &rows[i]
			switch {
			case r.computeHash() != r.Hash:
				rep.BrokenAt, rep.Problem = r.Seq, "content edited: the entry's fields do not match its hash"
			case r.Seq > wantSeq:
				rep.BrokenAt, rep.Problem = wantSeq, fmt.Sprintf("entries %d to %d are missing (deleted)", wantSeq, r.Seq-1)
			case r.Seq < wantSeq:
				rep.BrokenAt, rep.Problem = r.Seq, fmt.Sprintf("entry %d is older than the pruning anchor (seq %d): inserted or restored", r.Seq, an.Seq)
			case r.PrevHash != wantPrev:
				rep.BrokenAt, rep.Problem = r.Seq, fmt.Sprintf("entry %d does not follow entry %d: an entry was deleted, inserted or reordered", r.Seq, r.Seq-1)
			}
			if !rep.Intact() {
				return rep, nil
			}
			rep.Entries++
			wantSeq, wantPrev, after = r.Seq+1, r.Hash, r.Seq
		}
		if len(rows) < batch {
			return rep, nil
		}
	}
}

// Settings are the audit log's settings.
type Settings struct {
	// RetentionDays keeps entries this many days; 0 keeps them forever.
	RetentionDays int `json:"retentionDays" validate:"min=0,max=36500"`
}

// DefaultRetentionDays is the retention until someone sets it.
const DefaultRetentionDays = 365

const settingsKey = "audit"

// Settings returns the stored settings, or the defaults.
func (s *Service) Settings(ctx context.Context) (Settings, error) {
	st := Settings{RetentionDays: DefaultRetentionDays}
	_, err := store.GetConfig(ctx, s.db, settingsKey, &st)
	return st, err
}

// PutSettings stores st.
func (s *Service) PutSettings(ctx context.Context, st Settings) (Settings, error) {
	return st, store.PutConfig(ctx, s.db, settingsKey, st)
}

// Prune deletes entries older than the retention and returns how many.
// The last deleted entry's seq and hash become the anchor verification
// starts from, in the same transaction, so pruning never breaks the chain.
func (s *Service) Prune(ctx context.Context) (int64, error) {
	st, err := s.Settings(ctx)
	if err != nil || st.RetentionDays == 0 {
		return 0, err
	}
	cutoff := s.now().Add(-time.Duration(st.RetentionDays) * 24 * time.Hour)
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int64
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// Prune a prefix of the chain: everything up to the newest old entry.
		var last row
		err := tx.Select("seq", "hash").Where("at < ?", cutoff).Order("seq DESC").Limit(1).Take(&last).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("find old audit entries: %w", err)
		}
		if err := store.PutConfig(ctx, tx, anchorKey, anchor{Seq: last.Seq, Hash: last.Hash}); err != nil {
			return err
		}
		res := tx.Where("seq <= ?", last.Seq).Delete(&row{})
		n = res.RowsAffected
		return res.Error
	})
	if err != nil {
		return 0, fmt.Errorf("prune audit entries: %w", err)
	}
	return n, nil
}
