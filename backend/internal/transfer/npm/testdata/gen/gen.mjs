// gen.mjs builds an Nginx Proxy Manager database for the reader's tests:
// it runs a directory of NPM's own knex migrations (not part of this
// repository; see ../README.md) exactly as NPM does at start-up, then inserts
// sample rows with plain SQL.
//
//   node gen.mjs MIGRATIONS_DIR OUT.sqlite
//
// The migrations require three of NPM's modules (its logger, its setting
// model and its nginx helper); they are answered here with small stand-ins,
// so nothing but the migration files themselves comes from NPM.
import fs from "node:fs";
import Module from "node:module";
import path from "node:path";
import knexFactory from "knex";

const [migrationsArg, outArg] = process.argv.slice(2);
if (!migrationsArg || !outArg) {
	console.error("usage: node gen.mjs MIGRATIONS_DIR OUT.sqlite");
	process.exit(2);
}
const migrationsDir = path.resolve(migrationsArg);
const out = path.resolve(outArg);
fs.rmSync(out, { force: true });

const knex = knexFactory({
	client: "sqlite3", // NPM's own SQLite client (lib/config.js)
	connection: { filename: out },
	useNullAsDefault: true,
});

// The migration being run gets the transaction knex opened for it; the
// setting model's stand-in writes through the same one, as NPM's model
// shares its connection (SQLite has a single one).
let current = knex;

// Stand-ins for the NPM modules the migrations require.
const quiet = { info() {}, warn() {}, error() {}, success() {}, debug() {} };
const stubs = {
	"../logger": { migrate: quiet, global: quiet },
	// The settings migration inserts its default row through NPM's objection
	// model; this does the same insert (objection stores JSON attributes as text).
	"../models/setting": {
		query: () => ({
			insert: (row) => current("setting").insert({ ...row, meta: JSON.stringify(row.meta ?? {}) }),
		}),
	},
	// Rewriting nginx's default site has no effect on the database.
	"../internal/nginx": {
		deleteConfig: async () => {},
		generateConfig: async () => {},
		test: async () => {},
		reload: async () => {},
	},
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
	if (parent?.filename?.startsWith(migrationsDir + path.sep) && request in stubs) {
		return stubs[request];
	}
	return load.call(this, request, parent, isMain);
};

const require = Module.createRequire(import.meta.url);
const files = fs.readdirSync(migrationsDir).filter((f) => f.endsWith(".js")).sort();
const migrationSource = {
	getMigrations: async () => files,
	getMigrationName: (f) => f,
	getMigration: async (f) => {
		const m = require(path.join(migrationsDir, f));
		return {
			up: (trx) => {
				current = trx;
				return m.up(trx, Promise);
			},
			down: m.down,
		};
	},
};
// NPM runs its migrations with this table name (backend/migrate.js).
await knex.migrate.latest({ migrationSource, tableName: "migrations" });
current = knex;
await knex("migrations").update({ migration_time: "2025-01-10 09:00:00" });

const at = "2025-01-10 10:00:00";
const stamp = { created_on: at, modified_on: at };
const meta = (m = {}) => JSON.stringify(m);
const hostMeta = meta({ letsencrypt_agree: false, dns_challenge: false, nginx_online: true, nginx_err: null });

await knex("user").insert({
	id: 1, ...stamp, email: "admin@example.com", name: "Administrator", nickname: "Admin",
	avatar: "", roles: JSON.stringify(["admin"]),
});
await knex("auth").insert({
	id: 1, ...stamp, user_id: 1, type: "password",
	// NPM keeps its own users' passwords as bcrypt hashes; this one is a placeholder.
	secret: "$2b$13$0000000000000000000000000000000000000000000000000000", meta: meta(),
});
await knex("user_permission").insert({
	id: 1, ...stamp, user_id: 1, visibility: "all", proxy_hosts: "manage", redirection_hosts: "manage",
	dead_hosts: "manage", streams: "manage", access_lists: "manage", certificates: "manage",
});

await knex("certificate").insert([
	{
		id: 1, ...stamp, owner_user_id: 1, provider: "letsencrypt", nice_name: "app.example.com",
		domain_names: JSON.stringify(["app.example.com", "www.app.example.com"]), expires_on: "2025-04-10 10:00:00",
		meta: meta({ letsencrypt_email: "admin@example.com", letsencrypt_agree: true, dns_challenge: false }),
	},
	{
		id: 2, ...stamp, owner_user_id: 1, provider: "other", nice_name: "legacy wildcard",
		domain_names: JSON.stringify(["*.example.com"]), expires_on: "2026-01-10 10:00:00", meta: meta(),
	},
]);

// Access lists: NPM keeps the basic-auth passwords as they were typed
// (internal/access-list.js writes the htpasswd file from them).
await knex("access_list").insert([
	{ id: 1, ...stamp, owner_user_id: 1, name: "Family", meta: meta(), satisfy_any: 1, pass_auth: 0, is_deleted: 0 },
	{ id: 2, ...stamp, owner_user_id: 1, name: "Office only", meta: meta(), satisfy_any: 0, pass_auth: 1, is_deleted: 0 },
	{ id: 3, ...stamp, owner_user_id: 1, name: "Old list", meta: meta(), satisfy_any: 0, pass_auth: 1, is_deleted: 1 },
]);
await knex("access_list_auth").insert([
	{ id: 1, ...stamp, access_list_id: 1, username: "alice", password: "correct horse battery", meta: meta() },
	{ id: 2, ...stamp, access_list_id: 1, username: "bob", password: "bob-secret-2025", meta: meta() },
	{ id: 3, ...stamp, access_list_id: 3, username: "old", password: "old-password", meta: meta() },
]);
await knex("access_list_client").insert([
	{ id: 1, ...stamp, access_list_id: 1, address: "192.168.1.0/24", directive: "allow", meta: meta() },
	{ id: 2, ...stamp, access_list_id: 2, address: "10.0.0.0/8", directive: "allow", meta: meta() },
	{ id: 3, ...stamp, access_list_id: 2, address: "all", directive: "deny", meta: meta() },
]);

const proxyHost = (h) => ({
	...stamp, owner_user_id: 1, is_deleted: 0, root_dir: "", index_file: "", static: 0, access_list_id: 0, certificate_id: 0,
	ssl_forced: 0, caching_enabled: 0, block_exploits: 0, advanced_config: "", meta: hostMeta,
	allow_websocket_upgrade: 0, http2_support: 0, forward_scheme: "http", enabled: 1, locations: "[]",
	hsts_enabled: 0, hsts_subdomains: 0, ...h,
	domain_names: JSON.stringify(h.domain_names),
});
await knex("proxy_host").insert([
	proxyHost({
		id: 1, domain_names: ["app.example.com", "www.app.example.com"], forward_host: "app-backend", forward_port: 8080,
		allow_websocket_upgrade: 1, certificate_id: 1, ssl_forced: 1, hsts_enabled: 1, hsts_subdomains: 1, http2_support: 1,
		block_exploits: 1,
	}),
	proxyHost({
		id: 2, domain_names: ["family.example.com"], forward_host: "192.168.1.20", forward_port: 8096, access_list_id: 1,
	}),
	proxyHost({
		id: 3, domain_names: ["office.example.com"], forward_scheme: "https", forward_host: "10.0.0.5", forward_port: 8443,
		access_list_id: 2,
	}),
	proxyHost({ id: 4, domain_names: ["old.example.com"], forward_host: "old-box", forward_port: 3000, enabled: 0 }),
	proxyHost({
		id: 5, domain_names: ["nas.example.com"], forward_host: "nas", forward_port: 5000, caching_enabled: 1,
		advanced_config: "client_max_body_size 0;",
		locations: JSON.stringify([
			{ path: "/admin", advanced_config: "", forward_scheme: "http", forward_host: "nas", forward_port: 5001 },
		]),
	}),
	proxyHost({ id: 6, domain_names: ["dev.example.com", "*.dev.example.com"], forward_host: "devbox", forward_port: 80 }),
	proxyHost({ id: 7, domain_names: ["gone.example.com"], forward_host: "gone", forward_port: 80, is_deleted: 1 }),
	proxyHost({
		id: 8, domain_names: ["legacy.example.com"], forward_host: "legacy", forward_port: 8081, certificate_id: 2,
		ssl_forced: 1, hsts_enabled: 1, hsts_subdomains: 0,
	}),
]);

const redirectionHost = (h) => ({
	...stamp, owner_user_id: 1, is_deleted: 0, preserve_path: 0, certificate_id: 0, ssl_forced: 0, block_exploits: 0,
	advanced_config: "", meta: hostMeta, http2_support: 0, enabled: 1, hsts_enabled: 0, hsts_subdomains: 0,
	forward_scheme: "$scheme", forward_http_code: 302, ...h,
	domain_names: JSON.stringify(h.domain_names),
});
await knex("redirection_host").insert([
	redirectionHost({
		id: 1, domain_names: ["www.example.com"], forward_scheme: "https", forward_domain_name: "example.com",
		forward_http_code: 301, preserve_path: 1,
	}),
	redirectionHost({ id: 2, domain_names: ["short.example.com"], forward_domain_name: "blog.example.com" }),
]);

await knex("dead_host").insert({
	id: 1, ...stamp, owner_user_id: 1, domain_names: JSON.stringify(["parked.example.com"]), certificate_id: 0,
	ssl_forced: 0, advanced_config: "", meta: hostMeta, http2_support: 0, enabled: 1, hsts_enabled: 0, hsts_subdomains: 0,
});
await knex("stream").insert({
	id: 1, ...stamp, owner_user_id: 1, incoming_port: 2222, forwarding_host: "192.168.1.60", forwarding_port: 22,
	tcp_forwarding: 1, udp_forwarding: 0, meta: meta(), enabled: 1, certificate_id: 0,
});

await knex.destroy();
console.log(`wrote ${out}`);
