package httpx

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
)

type listItem struct {
	ID    string            `json:"id"`
	Note  string            `json:"note"`
	Tags  []string          `json:"tags"`
	Attrs map[string]string `json:"attrs,omitempty"`
}

type badItem struct{}

func (badItem) MarshalJSON() ([]byte, error) { return nil, errors.New("no") }

// TestJSONListWritesWhatJSONWrites: the streamed list is byte for byte
// c.JSON's answer, status and content type included, for lists empty,
// short, longer than a chunk and asking to be indented.
func TestJSONListWritesWhatJSONWrites(t *testing.T) {
	long := make([]listItem, 2000)
	for i := range long {
		long[i] = listItem{ID: fmt.Sprint("id-", i), Note: "<b>&\u2028é\"</b>", Tags: []string{"a", "b"},
			Attrs: map[string]string{"z": "1", "a": "2"}}
	}
	for name, tc := range map[string]struct {
		items []listItem
		query string
	}{
		"nil": {nil, ""}, "empty": {[]listItem{}, ""}, "one": {long[:1], ""},
		"long": {long, ""}, "pretty": {long[:3], "?pretty"},
	} {
		t.Run(name, func(t *testing.T) {
			e := echo.New()
			serve := func(h func(c echo.Context) error) *httptest.ResponseRecorder {
				rec := httptest.NewRecorder()
				c := e.NewContext(httptest.NewRequest(http.MethodGet, "/x"+tc.query, nil), rec)
				if err := h(c); err != nil {
					t.Fatal(err)
				}
				return rec
			}
			got := serve(func(c echo.Context) error { return JSONList(c, tc.items) })
			want := serve(func(c echo.Context) error { return c.JSON(http.StatusOK, List[listItem]{Items: tc.items}) })
			if got.Code != want.Code || got.Header().Get(echo.HeaderContentType) != want.Header().Get(echo.HeaderContentType) ||
				got.Body.String() != want.Body.String() {
				t.Fatalf("got %d %q %.200s\nwant %d %q %.200s", got.Code, got.Header(), got.Body, want.Code, want.Header(), want.Body)
			}
		})
	}
	t.Run("error before writing", func(t *testing.T) {
		rec := httptest.NewRecorder()
		c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, "/x", nil), rec)
		if err := JSONList(c, []badItem{{}}); err == nil || c.Response().Committed || rec.Body.Len() != 0 {
			t.Fatalf("err %v, committed %v, body %q", err, c.Response().Committed, rec.Body)
		}
	})
}
