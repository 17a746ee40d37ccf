package npm

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

func allowFrom(src ...string) rules.Rule {
	return rules.Rule{Action: rules.Allow, Note: "from NPM access list #1", Sources: src}
}

func rule(a rules.Action, src ...string) rules.Rule {
	return rules.Rule{Action: a, Note: "from NPM access list #1", Sources: src}
}

// The rules decide per address as nginx did with NPM's "allow|deny X; ...
// deny all; satisfy any|all;": first match, password or not as the table in
// ipRules says.
func TestIPRules(t *testing.T) {
	const (
		allow = rules.Allow
		deny  = rules.Deny
		auth  = rules.Authenticate
	)
	office := []listClient{{"10.1.2.3", "deny"}, {"10.0.0.0/8", "allow"}, {"fd00::/8", "allow"}, {"192.168.1.0/24", "deny"}}
	cases := []struct {
		name       string
		clients    []listClient
		users, any bool
		def        rules.Action
		rules      []rules.Rule
		why        string
	}{
		{name: "no users", clients: office, def: deny,
			rules: []rules.Rule{rule(deny, "10.1.2.3"), rule(allow, "10.0.0.0/8", "fd00::/8"), rule(deny, "192.168.1.0/24")}},
		{name: "no users, satisfy any is the same", clients: office, any: true, def: deny,
			rules: []rules.Rule{rule(deny, "10.1.2.3"), rule(allow, "10.0.0.0/8", "fd00::/8"), rule(deny, "192.168.1.0/24")}},
		{name: "users, satisfy any: a refused address may still give a password", clients: office, users: true, any: true, def: auth,
			rules: []rules.Rule{rule(auth, "10.1.2.3"), rule(allow, "10.0.0.0/8", "fd00::/8"), rule(auth, "192.168.1.0/24")}},
		{name: "users, satisfy all: an allowed address still gives a password", clients: office, users: true, def: deny,
			rules: []rules.Rule{rule(deny, "10.1.2.3"), rule(auth, "10.0.0.0/8", "fd00::/8"), rule(deny, "192.168.1.0/24")}},
		{name: "allow all ends the list", clients: []listClient{{"203.0.113.7", "deny"}, {"all", "allow"}, {"10.0.0.0/8", "deny"}},
			def: allow, rules: []rules.Rule{rule(deny, "203.0.113.7")}},
		{name: "allow all with users, satisfy any, opens the service", clients: []listClient{{"all", "allow"}}, users: true, any: true,
			def: allow, rules: []rules.Rule{}},
		{name: "deny all with users, satisfy any, asks for the password", clients: []listClient{{" 10.0.0.1 ", " allow"}, {"all", "deny"}},
			users: true, any: true, def: auth, rules: []rules.Rule{allowFrom("10.0.0.1")}},
		{name: "rows NPM writes no line for are left out", clients: []listClient{{"", "allow"}, {"10.0.0.1", ""}, {"10.0.0.2", "allow"}},
			def: deny, rules: []rules.Rule{allowFrom("10.0.0.2")}},
		{name: "host bits are cleared as nginx does", clients: []listClient{{"10.1.2.3/8", "allow"}}, def: deny,
			rules: []rules.Rule{allowFrom("10.0.0.0/8")}},
		{name: "a host name", clients: []listClient{{"office.example.com", "allow"}}, why: `"office.example.com" is not an IP address or a CIDR`},
		{name: "unix socket", clients: []listClient{{"unix:", "deny"}}, why: "is not an IP address or a CIDR"},
		{name: "IPv4-mapped", clients: []listClient{{"::ffff:10.0.0.1", "allow"}}, why: "IPv4-mapped IPv6 address"},
		{name: "IPv4-mapped range", clients: []listClient{{"::ffff:10.0.0.0/104", "allow"}}, why: "IPv4-mapped IPv6 range"},
		{name: "nginx reads all in lower case only", clients: []listClient{{"ALL", "deny"}}, why: `"ALL" is not an IP address`},
		{name: "upper-case IPv6 is canonicalised", clients: []listClient{{"FD00::/8", "allow"}}, def: deny,
			rules: []rules.Rule{allowFrom("fd00::/8")}},
		{name: "a zone", clients: []listClient{{"fe80::1%eth0", "allow"}}, why: "is not an IP address"},
		{name: "another directive", clients: []listClient{{"10.0.0.1", "permit"}}, why: `"permit" is neither allow nor deny`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := &accessList{id: 1, satisfyAny: tc.any, clients: tc.clients}
			acc, why := ipRules(l, tc.users)
			if tc.why != "" {
				if acc != nil || !strings.Contains(why, tc.why) {
					t.Fatalf("acc %+v why %q, want why %q", acc, why, tc.why)
				}
				return
			}
			want := &document.ServiceAccess{DefaultAction: string(tc.def), Rules: tc.rules}
			if why != "" || !reflect.DeepEqual(acc, want) {
				t.Fatalf("acc %+v why %q, want %+v", acc, why, want)
			}
		})
	}
}

// Long lists are packed into rules of at most MaxConditions sources; past
// MaxRules the list cannot come over.
func TestIPRulesLimits(t *testing.T) {
	var clients []listClient
	for i := range 120 {
		clients = append(clients, listClient{fmt.Sprintf("10.0.%d.1", i), "allow"})
	}
	acc, why := ipRules(&accessList{id: 1, clients: clients}, false)
	if why != "" || len(acc.Rules) != 3 || len(acc.Rules[0].Sources) != rules.MaxConditions || len(acc.Rules[2].Sources) != 20 {
		t.Fatalf("acc %+v why %q", acc, why)
	}
	clients = clients[:0]
	for i := range rules.MaxRules + 1 {
		d := "allow"
		if i%2 == 1 {
			d = "deny"
		}
		clients = append(clients, listClient{fmt.Sprintf("10.0.%d.1", i), d})
	}
	if acc, why := ipRules(&accessList{id: 1, clients: clients}, false); acc != nil || !strings.Contains(why, "more than 100") {
		t.Fatalf("acc %+v why %q", acc, why)
	}
}
