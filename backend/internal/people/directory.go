package people

import (
	"context"
	"errors"
	"fmt"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// DirectoryNames returns every username and group name, for checking the
// names access rules' identity conditions use.
func (s *Service) DirectoryNames(ctx context.Context) (people, groups []string, err error) {
	db := s.db.WithContext(ctx)
	if err := db.Model(&store.Person{}).Pluck("username", &people).Error; err != nil {
		return nil, nil, fmt.Errorf("list usernames: %w", err)
	}
	if err := db.Model(&store.Group{}).Pluck("name", &groups).Error; err != nil {
		return nil, nil, fmt.Errorf("list group names: %w", err)
	}
	return people, groups, nil
}

// IdentityByUsername is the identity access rules see for a person, with
// their group names sorted; ok is false for an unknown username. The
// second factor is the caller's to set.
func (s *Service) IdentityByUsername(ctx context.Context, username string) (rules.Identity, bool, error) {
	var p store.Person
	err := s.db.WithContext(ctx).Where("lower(username) = lower(?)", username).Take(&p).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return rules.Identity{}, false, nil
	}
	if err != nil {
		return rules.Identity{}, false, fmt.Errorf("find person %q: %w", username, err)
	}
	refs, err := groupsOf(s.db.WithContext(ctx), []string{p.ID})
	if err != nil {
		return rules.Identity{}, false, err
	}
	id := rules.Identity{PersonID: p.ID, Username: p.Username, Groups: make([]string, 0, len(refs[p.ID]))}
	for _, g := range refs[p.ID] {
		id.Groups = append(id.Groups, g.Name)
	}
	return id, true, nil
}
