package runtime

import (
	"testing"
)

// TestStreamRouterConflicts: the panel's own tcp router (from its HTTP
// provider) is its service's, not a competitor of it, and a file
// provider's tcp router on the same SNI name and entrypoint is reported.
// Regression: a tcp router of the HTTP provider used to be looked up with
// no HTTP owners at all, which panicked.
func TestStreamRouterConflicts(t *testing.T) {
	o := ownership{routers: func(string) string { return "" },
		stream: func(proto, name string) string {
			if proto == "tcp" && name == "gh-git-websecure" {
				return "svc-git"
			}
			return ""
		}}
	routers := map[string]rawRouter{
		"gh-git-websecure@http": {EntryPoints: []string{"websecure"}, Rule: "HostSNI(`git.example.com`)", Service: "gh-git"},
		"git@file":              {EntryPoints: []string{"websecure"}, Rule: "HostSNI(`git.example.com`)", Service: "git"},
	}
	claims := []*claim{{serviceID: "svc-git", host: "git.example.com", eps: newEPSet([]string{"websecure"})}}
	got := routerConflicts(claims, routers, KindSNI, o.streamRouter("tcp"), []string{"websecure"})
	if len(got) != 1 || got[0].Router != "git@file" || got[0].ServiceID != "svc-git" {
		t.Fatalf("conflicts = %+v", got)
	}
	if id := o.streamRouter("tcp")("gh-git-websecure@http", rawRouter{}); id != "svc-git" {
		t.Fatalf("owner = %q", id)
	}
	if id := o.streamRouter("udp")("gh-git-websecure@http", rawRouter{}); id != "" {
		t.Fatalf("a udp lookup found the tcp router's owner %q", id)
	}
}
