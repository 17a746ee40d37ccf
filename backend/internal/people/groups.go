package people

import (
	"context"
	"errors"
	"fmt"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ListGroups returns every group with its members, by name.
func (s *Service) ListGroups(ctx context.Context) ([]Group, error) {
	db := s.db.WithContext(ctx)
	var rows []store.Group
	if err := db.Order("lower(name)").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list groups: %w", err)
	}
	return groupViews(db, rows)
}

// GetGroup returns one group with its members.
func (s *Service) GetGroup(ctx context.Context, id string) (Group, error) {
	db := s.db.WithContext(ctx)
	row, err := findGroup(db, id)
	if err != nil {
		return Group{}, err
	}
	out, err := groupViews(db, []store.Group{row})
	if err != nil {
		return Group{}, err
	}
	return out[0], nil
}

func groupViews(db *gorm.DB, rows []store.Group) ([]Group, error) {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	members := map[string][]PersonRef{}
	if len(ids) > 0 {
		var ms []struct {
			GroupID     string
			ID          string
			Username    string
			DisplayName string
		}
		err := db.Table("people_group_members m").Select("m.group_id, p.id, p.username, p.display_name").
			Joins("JOIN people p ON p.id = m.person_id").Where("m.group_id IN ?", ids).
			Order("p.username").Scan(&ms).Error
		if err != nil {
			return nil, fmt.Errorf("list members: %w", err)
		}
		for _, m := range ms {
			members[m.GroupID] = append(members[m.GroupID], PersonRef{ID: m.ID, Username: m.Username, DisplayName: m.DisplayName})
		}
	}
	out := make([]Group, len(rows))
	for i, r := range rows {
		g := Group{ID: r.ID, Name: r.Name, Description: r.Description, ProviderName: r.ProviderName, Members: members[r.ID],
			CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
		if g.Members == nil {
			g.Members = []PersonRef{}
		}
		out[i] = g
	}
	return out, nil
}

func findGroup(db *gorm.DB, id string) (store.Group, error) {
	var row store.Group
	if len(id) > 64 {
		return row, apperr.NotFound("group")
	}
	err := db.Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return row, apperr.NotFound("group")
	}
	if err != nil {
		return row, fmt.Errorf("find group %s: %w", id, err)
	}
	return row, nil
}

// CreateGroup adds a group.
func (s *Service) CreateGroup(ctx context.Context, in GroupRequest) (Group, error) {
	var c apperr.Collector
	name, desc := "", ""
	if in.Name == nil {
		c.Add("name", "is required")
	} else {
		name = *in.Name
	}
	if in.Description != nil {
		desc = *in.Description
	}
	name, desc = normalGroup(&c, name, desc)
	if err := c.Err(); err != nil {
		return Group{}, err
	}
	now := s.now()
	row := store.Group{ID: store.NewID(), Name: name, Description: desc, CreatedAt: now, UpdatedAt: now}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := uniqueGroup(tx, row); err != nil {
			return err
		}
		return groupWrite(tx.Create(&row).Error, name)
	})
	if err != nil {
		return Group{}, err
	}
	s.changed(row.ID, change.Created)
	return s.GetGroup(ctx, row.ID)
}

// UpdateGroup renames a group or changes its description.
func (s *Service) UpdateGroup(ctx context.Context, id string, in GroupRequest) (Group, error) {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := findGroup(tx, id)
		if err != nil {
			return err
		}
		name, desc := row.Name, row.Description
		if in.Name != nil {
			name = *in.Name
		}
		if in.Description != nil {
			desc = *in.Description
		}
		var c apperr.Collector
		row.Name, row.Description = normalGroup(&c, name, desc)
		if err := c.Err(); err != nil {
			return err
		}
		if err := uniqueGroup(tx, row); err != nil {
			return err
		}
		row.UpdatedAt = s.now()
		return groupWrite(tx.Select("name", "description", "updated_at").Updates(&row).Error, row.Name)
	})
	if err != nil {
		return Group{}, err
	}
	s.changed(id, change.Updated)
	return s.GetGroup(ctx, id)
}

// DeleteGroup removes a group and its memberships (never its people).
func (s *Service) DeleteGroup(ctx context.Context, id string) error {
	if len(id) > 64 {
		return apperr.NotFound("group")
	}
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&store.Group{})
	if res.Error != nil {
		return fmt.Errorf("delete group %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.NotFound("group")
	}
	s.changed(id, change.Deleted)
	return nil
}

// AddMember puts a person in a group; adding a member twice is no change.
func (s *Service) AddMember(ctx context.Context, groupID, personID string) (Group, error) {
	if personID == "" {
		return Group{}, apperr.Field("personId", "is required")
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if _, err := findGroup(tx, groupID); err != nil {
			return err
		}
		if _, err := findPerson(tx, personID); err != nil {
			if apperr.IsCode(err, apperr.CodeNotFound) {
				return apperr.Field("personId", "no such person")
			}
			return err
		}
		var n int64
		if err := tx.Model(&store.GroupMember{}).Where("group_id = ? AND person_id = ?", groupID, personID).
			Count(&n).Error; err != nil {
			return fmt.Errorf("find membership: %w", err)
		}
		if n > 0 {
			return nil
		}
		return tx.Create(&store.GroupMember{GroupID: groupID, PersonID: personID, CreatedAt: s.now()}).Error
	})
	if err != nil {
		return Group{}, err
	}
	s.changed(groupID, change.Updated)
	return s.GetGroup(ctx, groupID)
}

// RemoveMember takes a person out of a group.
func (s *Service) RemoveMember(ctx context.Context, groupID, personID string) error {
	if _, err := findGroup(s.db.WithContext(ctx), groupID); err != nil {
		return err
	}
	res := s.db.WithContext(ctx).Where("group_id = ? AND person_id = ?", groupID, personID).Delete(&store.GroupMember{})
	if res.Error != nil {
		return fmt.Errorf("remove member: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.NotFound("member")
	}
	s.changed(groupID, change.Updated)
	return nil
}

func uniqueGroup(tx *gorm.DB, g store.Group) error {
	var n int64
	if err := tx.Model(&store.Group{}).Where("lower(name) = lower(?) AND id <> ?", g.Name, g.ID).Count(&n).Error; err != nil {
		return fmt.Errorf("check group name: %w", err)
	}
	if n > 0 {
		return apperr.Conflict("name", "a group named %q already exists", g.Name)
	}
	return nil
}

func groupWrite(err error, name string) error {
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return apperr.Conflict("name", "a group named %q already exists", name)
	}
	if err != nil {
		return fmt.Errorf("write group %q: %w", name, err)
	}
	return nil
}
