package transfer

import (
	"fmt"
	"slices"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// planGroups plans the groups after the people: members name people by
// username, here or created by the same import. A group's members in the
// file become its members; an import never deletes a group.
func (p *planner) planGroups() {
	byName := map[string]store.Group{}
	p.groupID = map[string]string{}
	for _, g := range p.st.groupRows {
		byName[strings.ToLower(g.Name)] = g
		p.groupID[strings.ToLower(g.Name)] = g.ID
	}
	username := map[string]string{}
	for _, a := range p.st.adminRows {
		username[a.ID] = a.Username
	}
	have := map[string][]string{}
	for _, m := range p.st.members {
		have[m.GroupID] = append(have[m.GroupID], username[m.PersonID])
	}
	dup := dupes(p.doc.Groups, func(g document.Group) string { return strings.ToLower(strings.TrimSpace(g.Name)) })
	for _, g := range p.doc.Groups {
		name, desc, err := people.CheckGroup(g.Name, g.Description)
		if err == nil && dup[strings.ToLower(name)] {
			err = apperr.Field("name", "is listed twice")
		}
		var ids, members []string
		for i, u := range g.Members {
			if err != nil {
				break
			}
			id, ok := p.personID[u]
			switch {
			case !ok:
				err = apperr.Field(fmt.Sprintf("members[%d]", i), "no person %q here or in the file", u)
			case !slices.Contains(ids, id):
				ids, members = append(ids, id), append(members, u)
			}
		}
		if err != nil {
			p.add(refused(KindGroup, strings.TrimSpace(g.Name), err), nil)
			continue
		}
		slices.Sort(members)
		if members == nil {
			members = []string{}
		}
		cur, exists := byName[strings.ToLower(name)]
		row := cur
		if !exists {
			row = store.Group{ID: newID(), CreatedAt: p.now}
		}
		row.Name, row.Description, row.UpdatedAt = name, desc, p.now
		p.groupID[strings.ToLower(name)] = row.ID
		want := document.Group{Name: name, Description: desc, Members: members}
		var fields []string
		var before any
		if exists {
			old := slices.Sorted(slices.Values(have[cur.ID]))
			if old == nil {
				old = []string{}
			}
			was := document.Group{Name: cur.Name, Description: cur.Description, Members: old}
			fields, before = diff(was, want), was
		}
		act := action(exists, fields)
		it := Item{Kind: KindGroup, Name: name, Action: act, Fields: fields}.state(row.ID, before, want)
		p.add(it, func(tx *gorm.DB) error {
			events, err := people.ImportGroupTx(tx, row, act == ActionCreate, ids, p.now)
			if err != nil {
				return fmt.Errorf("group %q: %w", name, err)
			}
			p.events = append(p.events, events...)
			return nil
		})
	}
}
