package cluster

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Member is one replica as the PostgreSQL server sees it: evidence from
// pg_stat_activity and pg_locks, not from what replicas say of themselves.
type Member struct {
	ID string
	// Address is the replica's address as the server sees it (client_addr);
	// empty over a Unix socket.
	Address string
	// Since is when its oldest live connection began (backend_start).
	Since time.Time
	// Leader says it holds the advisory lock of a Leader role.
	Leader bool
	// Listening says it has its LISTEN connection: it hears the others' changes.
	Listening bool
}

// appPrefix starts the application_name of every connection connect opens.
const appPrefix = "gatehouse "

// activity is one dedicated connection of a replica, with the two-key
// advisory lock of leaderClass it holds, if any (one row per lock).
type activity struct {
	Name    string
	Address string
	Started time.Time
	LockKey *int64
}

// membersQuery lists the dedicated connections on this database with the
// leaderClass advisory locks they hold. PostgreSQL shows a two-key lock as
// classid = first key, objid = second key, objsubid = 2, both as oid
// (unsigned): they are compared as bigint with the keys' unsigned bits.
// Another role's connections show a NULL application_name unless this one
// has pg_read_all_stats: replicas share one role.
const membersQuery = `
SELECT a.application_name AS name,
       coalesce(host(a.client_addr), '') AS address,
       a.backend_start AS started,
       l.objid::bigint AS lock_key
  FROM pg_stat_activity a
  LEFT JOIN pg_locks l
    ON l.pid = a.pid AND l.locktype = 'advisory' AND l.granted
   AND l.objsubid = 2 AND l.classid::bigint = ?
 WHERE a.datname = current_database() AND a.application_name LIKE ?`

// Members lists the replicas that hold a dedicated connection to the
// database, oldest first, asking the server through db.
func Members(ctx context.Context, db *gorm.DB) ([]Member, error) {
	var rows []activity
	err := db.WithContext(ctx).Raw(membersQuery, int64(uint32(leaderClass)), appPrefix+"%").Scan(&rows).Error //nolint:gosec // the key's bits, as pg_locks shows them
	if err != nil {
		return nil, fmt.Errorf("list replicas: %w", err)
	}
	return members(rows), nil
}

// members groups connections by replica.
func members(rows []activity) []Member {
	byID := map[string]*Member{}
	var out []*Member
	for _, r := range rows {
		role, id, ok := parseName(r.Name)
		if !ok {
			continue
		}
		m := byID[id]
		if m == nil {
			m = &Member{ID: id, Address: r.Address, Since: r.Started.UTC()}
			byID[id] = m
			out = append(out, m)
		}
		if r.Started.Before(m.Since) {
			m.Since, m.Address = r.Started.UTC(), r.Address
		}
		if role == "listen" {
			m.Listening = true
		}
		if name, ok := strings.CutPrefix(role, "leader "); ok && r.LockKey != nil &&
			*r.LockKey == int64(uint32(lockKey(name))) { //nolint:gosec // the key's bits, as pg_locks shows them
			m.Leader = true
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Since.Equal(out[j].Since) {
			return out[i].Since.Before(out[j].Since)
		}
		return out[i].ID < out[j].ID
	})
	list := make([]Member, len(out))
	for i, m := range out {
		list[i] = *m
	}
	return list
}

// parseName reads the application_name connect gives: "gatehouse <role> <id>".
func parseName(name string) (role, id string, ok bool) {
	rest, ok := strings.CutPrefix(name, appPrefix)
	if !ok {
		return "", "", false
	}
	i := strings.LastIndexByte(rest, ' ')
	if i <= 0 || i == len(rest)-1 {
		return "", "", false
	}
	return rest[:i], rest[i+1:], true
}
