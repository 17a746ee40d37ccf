package forwardauth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gocache "github.com/patrickmn/go-cache"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// SessionCookie is contract.SessionCookie, kept under this name for the
// benchmarks that build requests with it.
const SessionCookie = contract.SessionCookie

// touchEvery bounds how often a session's last-seen time is written.
const touchEvery = time.Minute

// session is a cached forward-auth session. Header values are built once so
// that answering a verify allocates nothing for them.
type session struct {
	id, serviceID, kind, linkID string
	subject, user, email, name  string
	groups                      []string
	sso                         *identity // SSO sessions (nil for others): what the allow-list is matched against
	// people sessions: the person (whose name and groups come from the
	// directory snapshot), the portal session, and the sign-in's strength
	// and time.
	personID, portalSessionID string
	secondFactor              bool
	signedInAt                time.Time
	expiresAt                 time.Time
	// h holds the header values: user, e-mail, name and groups (see
	// headers), in the session itself rather than in an array of their own.
	h         [4]string
	lastTouch atomic.Int64 // unix seconds
}

func newSession(r store.Session) *session {
	s := &session{
		id: r.ID, serviceID: r.ServiceID, kind: r.Kind, subject: r.Subject,
		email: r.Email, name: r.DisplayName, groups: r.Groups.V, expiresAt: r.ExpiresAt,
	}
	s.personID, s.portalSessionID, s.secondFactor = r.PersonID, r.PortalSessionID, r.SecondFactor
	if r.SignedInAt != nil {
		s.signedInAt = *r.SignedInAt
	}
	if r.SharedLinkID != nil {
		s.linkID = *r.SharedLinkID
	}
	s.user = r.Subject
	if r.Kind == store.SessionSSO {
		s.sso = &identity{user: r.Subject, email: r.Email, emailVerified: r.Email != "", name: r.DisplayName,
			groups: r.Groups.V, issuer: r.SSOIssuer, subject: r.SSOSubject, preferred: r.SSOUsername}
	}
	s.h = [4]string{headerSafe(s.user), headerSafe(s.email), headerSafe(s.name), headerSafe(strings.Join(s.groups, ","))}
	s.lastTouch.Store(r.LastSeenAt.Unix())
	return s
}

// headers returns the values of the user, e-mail, name and groups headers,
// one-element slices of s.h: answering a verify allocates nothing for them.
// Each is capped, so an append to one copies it rather than writing over
// the next.
func (s *session) headers() (user, email, name, groups []string) {
	return s.h[0:1:1], s.h[1:2:2], s.h[2:3:3], s.h[3:4:4]
}

// headerSafe drops control characters so a claim can never split a header.
func headerSafe(v string) string {
	if strings.IndexFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) < 0 {
		return v
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, v)
}

// sessionStore keeps sessions in the database (token hashed) and in memory. A
// generation counter, bumped under mu on every drop, stops a lookup that read
// the database before a drop from caching a row that no longer exists.
type sessionStore struct {
	db      *gorm.DB
	now     func() time.Time
	cache   *gocache.Cache // token hash -> *session
	mu      sync.Mutex
	gen     uint64
	touches chan string
}

func newSessionStore(db *gorm.DB, now func() time.Time) *sessionStore {
	return &sessionStore{
		db: db, now: now,
		cache:   gocache.New(10*time.Minute, 5*time.Minute),
		touches: make(chan string, 4096),
	}
}

// noSession caches "no live session for this token". New sessions always get
// fresh random tokens, so a token once unknown never becomes valid: a stale
// cookie (a session ended or expired while the browser kept it) then costs
// one query per missingTTL instead of one per request.
var noSession = &session{}

const (
	missingTTL = time.Minute
	// maxMissing bounds the negative entries a flood of random cookies can add.
	maxMissing = 50_000
)

// lookup resolves a cookie token; nil when there is no live session.
func (s *sessionStore) lookup(ctx context.Context, tok string) (*session, error) {
	if tok == "" || len(tok) > 128 {
		return nil, nil
	}
	hash := bearer.Hash(tok)
	if v, ok := s.cache.Get(hash); ok {
		if v == noSession {
			return nil, nil
		}
		return v.(*session), nil
	}
	s.mu.Lock()
	gen := s.gen
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, dbTimeout)
	defer cancel()
	var row store.Session
	err := s.db.WithContext(ctx).Where("token_hash = ? AND expires_at > ?", hash, s.now()).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		if s.cache.ItemCount() < maxMissing {
			s.cache.Set(hash, noSession, missingTTL)
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("find session: %w", err)
	}
	sess := newSession(row)
	s.put(hash, sess, gen)
	return sess, nil
}

func (s *sessionStore) put(hash string, sess *session, gen uint64) {
	ttl := sess.expiresAt.Sub(s.now())
	if ttl <= 0 {
		return
	}
	if ttl > 10*time.Minute {
		ttl = 10 * time.Minute // re-read now and then: the database is the truth
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen == gen {
		s.cache.Set(hash, sess, ttl)
	}
}

// create stores a new session inside tx and returns its token. The caller
// calls cache once the transaction commits.
func (s *sessionStore) create(tx *gorm.DB, row *store.Session) (string, error) {
	tok, err := bearer.New()
	if err != nil {
		return "", err
	}
	now := s.now()
	row.ID, row.TokenHash, row.CreatedAt, row.LastSeenAt = store.NewID(), bearer.Hash(tok), now, now
	if row.Groups.V == nil {
		row.Groups.V = []string{}
	}
	if err := tx.Create(row).Error; err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	return tok, nil
}

// cache installs a freshly committed session.
func (s *sessionStore) remember(row store.Session) {
	s.mu.Lock()
	gen := s.gen
	s.mu.Unlock()
	s.put(row.TokenHash, newSession(row), gen)
}

// drop forgets cached sessions matching f (the database rows are deleted by the caller).
func (s *sessionStore) drop(f func(*session) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	for k, it := range s.cache.Items() {
		if f == nil || f(it.Object.(*session)) {
			s.cache.Delete(k)
		}
	}
}

func (s *sessionStore) dropHash(hash string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	s.cache.Delete(hash)
}

// dropMatching applies the ID of a change.Session event. An ID it does not
// know drops every session: a cache fails closed.
func (s *sessionStore) dropMatching(key string) {
	switch {
	case strings.HasPrefix(key, change.SessionByID):
		id := strings.TrimPrefix(key, change.SessionByID)
		s.drop(func(x *session) bool { return x.id == id })
	case strings.HasPrefix(key, change.SessionByHash):
		s.dropHash(strings.TrimPrefix(key, change.SessionByHash))
	case strings.HasPrefix(key, change.SessionByLink):
		link := strings.TrimPrefix(key, change.SessionByLink)
		s.drop(func(x *session) bool { return x.linkID == link })
	case strings.HasPrefix(key, change.SessionByService):
		s.dropService(strings.TrimPrefix(key, change.SessionByService))
	default:
		s.drop(nil)
	}
}

func (s *sessionStore) dropService(id string) {
	s.drop(func(x *session) bool { return x.serviceID == id })
}

// touch records activity at most once per touchEvery, off the hot path.
func (s *sessionStore) touch(sess *session, now time.Time) {
	last := sess.lastTouch.Load()
	if now.Unix()-last < int64(touchEvery/time.Second) || !sess.lastTouch.CompareAndSwap(last, now.Unix()) {
		return
	}
	select {
	case s.touches <- sess.id:
	default: // the writer is behind; last-seen is best effort
	}
}

// touchLoop writes queued last-seen times in batches.
func (s *sessionStore) touchLoop(ctx context.Context, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	pending := map[string]struct{}{}
	flush := func() {
		if len(pending) == 0 {
			return
		}
		ids := make([]string, 0, len(pending))
		for id := range pending {
			ids = append(ids, id)
		}
		clear(pending)
		err := s.db.WithContext(ctx).Model(&store.Session{}).Where("id IN ?", ids).
			Update("last_seen_at", s.now()).Error
		if err != nil && ctx.Err() == nil {
			log.Warn("record session activity", "err", err)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case id := <-s.touches:
			pending[id] = struct{}{}
			if len(pending) >= 500 {
				flush()
			}
		case <-t.C:
			flush()
		}
	}
}

// sweep deletes expired sessions.
func (s *sessionStore) sweep(ctx context.Context) error {
	err := s.db.WithContext(ctx).Where("expires_at <= ?", s.now()).Delete(&store.Session{}).Error
	if err != nil {
		return fmt.Errorf("sweep sessions: %w", err)
	}
	return nil
}
