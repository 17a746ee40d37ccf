package forwardauth

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	gocache "github.com/patrickmn/go-cache"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/sync/singleflight"
)

// basicTTL is how long a successful basic-auth check is remembered. Any
// change to protections or credential sets drops every entry at once.
const basicTTL = 2 * time.Minute

// basicResult is a remembered successful check.
type basicResult struct {
	bp    *basicPolicy // the snapshot's policy that accepted it
	hUser []string
	// app passwords of a people protection: the snapshot's policy that
	// accepted it and the person.
	people   *peoplePolicy
	personID string
}

// basicCache remembers successful checks and makes concurrent checks of the
// same credentials share one bcrypt comparison: a client opening many
// connections at once would otherwise pay one comparison per connection
// before the first result is cached.
type basicCache struct {
	c      *gocache.Cache
	flight singleflight.Group
	// compare is bcrypt.CompareHashAndPassword; tests count calls through it.
	compare func(hash, password []byte) error
}

func newBasicCache() *basicCache {
	return &basicCache{c: gocache.New(basicTTL, time.Minute), compare: bcrypt.CompareHashAndPassword}
}

func (b *basicCache) flush() { b.c.Flush() }

// basicKey hashes the credential with the service id, so the cache never
// holds a password and one service's result cannot serve another.
func basicKey(serviceID, authorization string) string {
	var buf [512]byte
	b := append(append(append(buf[:0], serviceID...), 0), authorization...)
	sum := sha256.Sum256(b)
	var out [sha256.Size * 2]byte
	hex.Encode(out[:], sum[:])
	return string(out[:])
}

func (b *basicCache) get(key string) *basicResult {
	if v, ok := b.c.Get(key); ok {
		return v.(*basicResult)
	}
	return nil
}

func (b *basicCache) put(key string, r *basicResult) { b.c.Set(key, r, basicTTL) }

// parseBasic decodes an "Authorization: Basic" value.
func parseBasic(h string) (user, pass string, ok bool) {
	const prefix = "basic "
	if len(h) < len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) || len(h) > 4096 {
		return "", "", false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(h[len(prefix):]))
	if err != nil {
		return "", "", false
	}
	user, pass, ok = strings.Cut(string(raw), ":")
	if !ok || user == "" {
		return "", "", false
	}
	return user, pass, true
}

// checkBasic compares a password with the set's bcrypt hash; unknown users
// cost the same bcrypt comparison, so timing does not reveal usernames.
// Concurrent checks of the same credentials against the same hash wait for
// one comparison; every caller still gets (and acts on) its own answer, so
// a wrong password fails and counts against the rate limit per request.
func (s *Service) checkBasic(bp *basicPolicy, user, pass string) bool {
	hash, ok := bp.users[user]
	if !ok {
		hash = s.dummy
	}
	match, _, _ := s.basic.flight.Do(flightKey(bp.setID, user, pass, hash), func() (any, error) {
		return s.basic.compare(hash, []byte(pass)) == nil, nil
	})
	return match.(bool) && ok
}

// flightKey identifies one comparison: the credential set, the username, the
// password and the hash it is compared with (a password change mid-flight
// never shares a result). It is a digest, so the password is not kept as a
// map key, and the fields are length-prefixed so they cannot run together.
func flightKey(setID, user, pass string, hash []byte) string {
	h := sha256.New()
	for _, f := range [...][]byte{[]byte(setID), []byte(user), []byte(pass), hash} {
		h.Write(strconv.AppendInt(nil, int64(len(f)), 10))
		h.Write([]byte{':'})
		h.Write(f)
	}
	return string(h.Sum(nil))
}
