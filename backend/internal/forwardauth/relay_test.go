package forwardauth

import (
	"net/http"
	"slices"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestEventsFromAnotherReplica: another replica ended a session in the
// database; this one keeps answering from its cache until the relayed event
// arrives, and then refuses the cookie at once.
func TestEventsFromAnotherReplica(t *testing.T) {
	tests := []struct {
		name  string
		event func(s SessionResponse, cookie string) change.Event
	}{
		{"every session", func(SessionResponse, string) change.Event {
			return change.Event{Entity: change.Session, Kind: change.Deleted}
		}},
		{"one session", func(s SessionResponse, _ string) change.Event {
			return change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByID + s.ID}
		}},
		{"sign-out", func(_ SessionResponse, cookie string) change.Event {
			return change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByHash + bearer.Hash(cookie)}
		}},
		{"shared link revoked", func(s SessionResponse, _ string) change.Event {
			return change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByLink + *s.SharedLinkID}
		}},
		{"service's sessions", func(s SessionResponse, _ string) change.Event {
			return change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByService + s.ServiceID}
		}},
		{"unknown selector", func(SessionResponse, string) change.Event {
			return change.Event{Entity: change.Session, Kind: change.Deleted, ID: "group:x"}
		}},
		{"anything may have changed", func(SessionResponse, string) change.Event {
			return change.Event{Entity: change.All}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newEnv(t)
			id := linkService(t, v, "app.example.com")
			cookie := linkSession(t, v, id, "app.example.com", nil)
			var list httpx.List[SessionResponse]
			v.must(http.StatusOK, http.MethodGet, "/api/sessions", nil, &list)
			if len(list.Items) != 1 || list.Items[0].SharedLinkID == nil {
				t.Fatalf("sessions: %+v", list.Items)
			}
			if err := v.db.Where("1 = 1").Delete(&store.Session{}).Error; err != nil {
				t.Fatal(err)
			}
			if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: cookie}); rec.Code != http.StatusOK {
				t.Fatalf("cached session: %d", rec.Code)
			}
			v.bus.Deliver(tt.event(list.Items[0], cookie))
			if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: cookie}); rec.Code == http.StatusOK {
				t.Fatal("the session survived the event")
			}
		})
	}
}

// TestCacheDropsAreRelayed: every write that ends sessions or changes a
// protection publishes an event, so the relay carries it to the other
// replicas; this replica has dropped its own cache before the API answers.
func TestCacheDropsAreRelayed(t *testing.T) {
	v := newEnv(t)
	var relayed []change.Event
	v.bus.SetRelay(func(e change.Event) { relayed = append(relayed, e) })
	id := linkService(t, v, "app.example.com")
	cookie := linkSession(t, v, id, "app.example.com", nil)
	var list httpx.List[SessionResponse]
	v.must(http.StatusOK, http.MethodGet, "/api/sessions", nil, &list)
	s := list.Items[0]

	steps := []struct {
		name string
		do   func()
		want change.Event
	}{
		{"end one session", func() {
			v.must(http.StatusNoContent, http.MethodDelete, "/api/sessions/"+s.ID, nil, nil)
			if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: cookie}); rec.Code == http.StatusOK {
				t.Fatal("session survived")
			}
		}, change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByID + s.ID}},
		{"end every session", func() {
			v.must(http.StatusNoContent, http.MethodDelete, "/api/sessions", nil, nil)
		}, change.Event{Entity: change.Session, Kind: change.Deleted}},
		{"revoke the link", func() {
			v.must(http.StatusNoContent, http.MethodDelete, "/api/services/"+id+"/shared-links/"+*s.SharedLinkID, nil, nil)
		}, change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByLink + *s.SharedLinkID}},
		{"remove the protection", func() {
			v.must(http.StatusNoContent, http.MethodDelete, "/api/services/"+id+"/security-configs/shared_links", nil, nil)
		}, change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByService + id}},
	}
	for _, st := range steps {
		relayed = nil
		st.do()
		if !slices.Contains(relayed, st.want) {
			t.Errorf("%s: relayed %+v, want %+v among them", st.name, relayed, st.want)
		}
	}
}
