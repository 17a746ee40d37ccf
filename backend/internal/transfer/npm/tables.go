package npm

import (
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// source is what the reader takes from an NPM database. Every value is read
// leniently: a column an older or newer NPM does not have reads as NPM's
// default, and a value of the wrong type as the zero value.
type source struct {
	proxyHosts       []proxyHost
	redirectionHosts []redirectionHost
	deadHosts        []host
	streams          []stream
	accessLists      map[int64]*accessList
	listOrder        []int64
	certificates     map[int64]certificate
}

// host is what every kind of NPM host has.
type host struct {
	id             int64
	domainNames    string // JSON list
	enabled        bool
	certificateID  int64
	sslForced      bool
	hstsEnabled    bool
	hstsSubdomains bool
	blockExploits  bool
	advancedConfig string
}

type proxyHost struct {
	host
	forwardScheme  string
	forwardHost    string
	forwardPort    int64
	accessListID   int64
	cachingEnabled bool
	locations      string // JSON list
}

type redirectionHost struct {
	host
	forwardScheme     string
	forwardDomainName string
	forwardHTTPCode   int64
	preservePath      bool
}

type stream struct {
	id             int64
	incomingPort   string
	forwardingHost string
	forwardingPort string
	tcp, udp       bool // tcp_forwarding, udp_forwarding
	enabled        bool
	certificateID  int64 // NPM 2.11.2+: TLS terminated with this certificate
}

type accessList struct {
	id         int64
	name       string
	satisfyAny bool
	passAuth   bool
	users      []listUser
	clients    []listClient
}

type listUser struct {
	id       int64
	username string
	password string
}

type listClient struct {
	address   string
	directive string
}

type certificate struct {
	provider string
	niceName string
}

// requiredTables are created by NPM's first migration; a database without
// them is something else.
var requiredTables = []string{"proxy_host", "redirection_host", "dead_host", "stream", "access_list", "access_list_auth"}

// row is one table row by column name.
type row map[string]any

func load(db *sql.DB) (*source, error) {
	tables, err := tableNames(db)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotSQLite, err)
	}
	for _, t := range requiredTables {
		if !tables[t] {
			return nil, fmt.Errorf("%w (it has no %s table)", ErrNotNPM, t)
		}
	}
	cols, err := columns(db, "proxy_host")
	if err != nil {
		return nil, err
	}
	if !cols["domain_names"] {
		return nil, fmt.Errorf("%w (its proxy_host table has no domain_names column)", ErrNotNPM)
	}

	src := &source{accessLists: map[int64]*accessList{}, certificates: map[int64]certificate{}}
	// forward_host was forward_ip before NPM 2.0.6's migration renamed it.
	fwd := "forward_host"
	if !cols[fwd] {
		fwd = "forward_ip"
	}
	rows, err := selectRows(db, "proxy_host", cols, "id", "domain_names", "enabled", "certificate_id", "ssl_forced",
		"hsts_enabled", "hsts_subdomains", "block_exploits", "advanced_config", "forward_scheme", fwd, "forward_port",
		"access_list_id", "caching_enabled", "locations")
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		src.proxyHosts = append(src.proxyHosts, proxyHost{
			host:           readHost(r),
			forwardScheme:  r.str("forward_scheme", "http"),
			forwardHost:    r.str(fwd, ""),
			forwardPort:    r.int("forward_port", 0),
			accessListID:   r.int("access_list_id", 0),
			cachingEnabled: r.bool("caching_enabled", false),
			locations:      r.str("locations", ""),
		})
	}

	if rows, err = selectTable(db, "redirection_host", "id", "domain_names", "enabled", "certificate_id", "ssl_forced",
		"hsts_enabled", "hsts_subdomains", "block_exploits", "advanced_config", "forward_scheme", "forward_domain_name",
		"forward_http_code", "preserve_path"); err != nil {
		return nil, err
	}
	for _, r := range rows {
		src.redirectionHosts = append(src.redirectionHosts, redirectionHost{
			host: readHost(r),
			// Before NPM 2.8 a redirection kept the request's scheme.
			forwardScheme:     r.str("forward_scheme", "$scheme"),
			forwardDomainName: r.str("forward_domain_name", ""),
			forwardHTTPCode:   r.int("forward_http_code", 302),
			preservePath:      r.bool("preserve_path", false),
		})
	}

	if rows, err = selectTable(db, "dead_host", "id", "domain_names", "enabled"); err != nil {
		return nil, err
	}
	for _, r := range rows {
		src.deadHosts = append(src.deadHosts, readHost(r))
	}

	scols, err := columns(db, "stream")
	if err != nil {
		return nil, err
	}
	shost := "forwarding_host"
	if !scols[shost] {
		shost = "forward_ip"
	}
	if rows, err = selectRows(db, "stream", scols, "id", "incoming_port", shost, "forwarding_port",
		"tcp_forwarding", "udp_forwarding", "enabled", "certificate_id"); err != nil {
		return nil, err
	}
	for _, r := range rows {
		src.streams = append(src.streams, stream{id: r.int("id", 0), incomingPort: r.str("incoming_port", ""),
			forwardingHost: r.str(shost, ""), forwardingPort: r.str("forwarding_port", ""),
			tcp: r.bool("tcp_forwarding", true), udp: r.bool("udp_forwarding", false), enabled: r.bool("enabled", true),
			certificateID: r.int("certificate_id", 0)})
	}

	if err := loadAccessLists(db, tables, src); err != nil {
		return nil, err
	}
	if tables["certificate"] {
		if rows, err = selectTable(db, "certificate", "id", "provider", "nice_name"); err != nil {
			return nil, err
		}
		for _, r := range rows {
			src.certificates[r.int("id", 0)] = certificate{provider: r.str("provider", ""), niceName: r.str("nice_name", "")}
		}
	}
	return src, nil
}

func readHost(r row) host {
	return host{
		id:             r.int("id", 0),
		domainNames:    r.str("domain_names", ""),
		enabled:        r.bool("enabled", true),
		certificateID:  r.int("certificate_id", 0),
		sslForced:      r.bool("ssl_forced", false),
		hstsEnabled:    r.bool("hsts_enabled", false),
		hstsSubdomains: r.bool("hsts_subdomains", false),
		blockExploits:  r.bool("block_exploits", false),
		advancedConfig: r.str("advanced_config", ""),
	}
}

func loadAccessLists(db *sql.DB, tables map[string]bool, src *source) error {
	rows, err := selectTable(db, "access_list", "id", "name", "satisfy_any", "pass_auth")
	if err != nil {
		return err
	}
	for _, r := range rows {
		l := &accessList{id: r.int("id", 0), name: r.str("name", ""), satisfyAny: r.bool("satisfy_any", false),
			passAuth: r.bool("pass_auth", true)}
		if _, dup := src.accessLists[l.id]; !dup {
			src.accessLists[l.id] = l
			src.listOrder = append(src.listOrder, l.id)
		}
	}
	if rows, err = selectTable(db, "access_list_auth", "id", "access_list_id", "username", "password"); err != nil {
		return err
	}
	for _, r := range rows {
		if l := src.accessLists[r.int("access_list_id", 0)]; l != nil {
			l.users = append(l.users, listUser{id: r.int("id", 0), username: r.str("username", ""), password: r.str("password", "")})
		}
	}
	if !tables["access_list_client"] {
		return nil
	}
	if rows, err = selectTable(db, "access_list_client", "id", "access_list_id", "address", "directive"); err != nil {
		return err
	}
	for _, r := range rows {
		if l := src.accessLists[r.int("access_list_id", 0)]; l != nil {
			l.clients = append(l.clients, listClient{address: r.str("address", ""), directive: r.str("directive", "")})
		}
	}
	return nil
}

func tableNames(db *sql.DB) (map[string]bool, error) {
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	out := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out[name] = true
	}
	return out, rows.Err()
}

func columns(db *sql.DB, table string) (map[string]bool, error) {
	rows, err := db.Query(`SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return nil, fmt.Errorf("read %s columns: %w", table, err)
	}
	defer func() { _ = rows.Close() }()
	out := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, fmt.Errorf("read %s columns: %w", table, err)
		}
		out[name] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read %s columns: %w", table, err)
	}
	return out, nil
}

func selectTable(db *sql.DB, table string, want ...string) ([]row, error) {
	cols, err := columns(db, table)
	if err != nil {
		return nil, err
	}
	return selectRows(db, table, cols, want...)
}

// selectRows reads the wanted columns that exist, leaving out deleted rows
// (NPM deletes by setting is_deleted), in id order.
func selectRows(db *sql.DB, table string, cols map[string]bool, want ...string) ([]row, error) {
	var have []string
	for _, c := range want {
		if cols[c] {
			have = append(have, `"`+c+`"`)
		}
	}
	if len(have) == 0 {
		return nil, nil
	}
	// The table and column names are this package's constants, and only the
	// columns the table has are named.
	q := `SELECT ` + strings.Join(have, ", ") + ` FROM "` + table + `"` //nolint:gosec // constants, not input
	if cols["is_deleted"] {
		q += ` WHERE is_deleted IS NULL OR is_deleted = 0 OR is_deleted = '0'`
	}
	if cols["id"] {
		q += ` ORDER BY id`
	}
	rows, err := db.Query(q)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", table, err)
	}
	defer func() { _ = rows.Close() }()
	names, err := rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", table, err)
	}
	var out []row
	for rows.Next() {
		vals := make([]any, len(names))
		ptrs := make([]any, len(names))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("read %s: %w", table, err)
		}
		r := make(row, len(names))
		for i, n := range names {
			r[n] = vals[i]
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", table, err)
	}
	return out, nil
}

// str reads a text column; a missing column or NULL is def.
func (r row) str(col, def string) string {
	switch v := r[col].(type) {
	case string:
		return v
	case []byte:
		return string(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	default:
		return def
	}
}

// int reads an integer column; a value that is not an integer reads as -1
// so it fails every range check rather than passing as a default.
func (r row) int(col string, def int64) int64 {
	switch v := r[col].(type) {
	case nil:
		return def
	case int64:
		return v
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			return -1
		}
		return int64(v)
	case bool:
		if v {
			return 1
		}
		return 0
	case string, []byte:
		n, err := strconv.ParseInt(strings.TrimSpace(r.str(col, "")), 10, 64)
		if err != nil {
			return -1
		}
		return n
	default:
		return -1
	}
}

// bool reads NPM's 0/1 flags (knex on MySQL or a hand edit may leave
// "true"/"false").
func (r row) bool(col string, def bool) bool {
	switch v := r[col].(type) {
	case nil:
		return def
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true":
			return true
		case "false", "":
			return false
		}
	case []byte:
		return row{col: string(v)}.bool(col, def)
	}
	return r.int(col, 0) > 0
}
