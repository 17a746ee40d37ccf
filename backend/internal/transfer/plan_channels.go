package transfer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

func (p *planner) planChannels() {
	byName := map[string]notify.StoredChannel{}
	for _, ch := range p.st.channels {
		byName[ch.Name] = ch
	}
	have := map[string]document.NotifyChannel{}
	for _, d := range p.st.notifyChannels() {
		have[d.Name] = d
	}
	taken := func(id string) bool {
		for _, ch := range p.st.channels {
			if ch.ID == id {
				return true
			}
		}
		return false
	}
	dup := dupes(p.doc.NotifyChannels, func(c document.NotifyChannel) string { return strings.TrimSpace(c.Name) })
	for _, ch := range p.doc.NotifyChannels {
		name := strings.TrimSpace(ch.Name)
		var c apperr.Collector
		if n := len([]rune(name)); n < 1 || n > 100 {
			c.Add("name", "must be between 1 and 100 characters")
		}
		if dup[name] {
			c.Add("name", "the file lists this channel more than once")
		}
		if ch.Kind == "" {
			c.Add("kind", "is required")
		}
		settings := bytes.TrimSpace(ch.Settings)
		if len(settings) == 0 {
			settings = []byte("{}")
		}
		if settings[0] != '{' {
			c.Add("settings", "must be an object")
		}
		var secret json.RawMessage
		if p.sec != nil {
			secret = p.sec.NotifyChannels[ch.Name]
		}
		cur, exists := byName[name]
		if !exists && secret == nil {
			c.Add("", "a channel's URL secrets travel only in the encrypted secrets: export with secrets (and give the passphrase), or add the channel here")
		}
		if err := c.Err(); err != nil {
			p.add(refused(KindNotifyChannel, name, err), nil)
			continue
		}
		want := document.NotifyChannel{Name: name, Kind: ch.Kind, Settings: canonical(settings), Events: orEmpty(ch.Events), Enabled: ch.Enabled}
		var fields []string
		var before any
		row := notify.StoredChannel{ID: cur.ID, Name: name, Kind: ch.Kind, Settings: string(want.Settings), Secrets: cur.Secrets,
			Enabled: ch.Enabled, CreatedAt: cur.CreatedAt, UpdatedAt: p.now}
		ev, _ := json.Marshal(want.Events)
		row.Events = string(ev)
		if exists {
			h := have[name]
			h.ID = ""
			fields = diff(h, want)
			before = h
			if secret != nil {
				if plain, err := p.s.o.Box.Open(cur.Secrets); err != nil || string(canonical(json.RawMessage(plain))) != string(canonical(secret)) {
					fields = append(fields, "secrets")
				}
			}
		} else {
			row.ID, row.CreatedAt = p.newID(ch.ID, taken), p.now
		}
		act := action(exists, fields)
		p.add(Item{Kind: KindNotifyChannel, Name: name, Action: act, Fields: fields}.state(row.ID, before, want).withSealed("secrets"), func(tx *gorm.DB) error {
			if secret != nil {
				sealed, err := p.s.o.Box.Seal(string(canonical(secret)))
				if err != nil {
					return err
				}
				row.Secrets = sealed
			}
			if err := notify.ImportChannelTx(tx, row, act == ActionCreate); err != nil {
				return fmt.Errorf("notification channel %q: %w", name, err)
			}
			return nil
		})
	}
}
