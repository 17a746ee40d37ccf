package managed

// DNSProvider is a lego DNS provider Traefik can use for the DNS-01 challenge,
// with the environment variables holding its credentials.
type DNSProvider struct {
	Code string `json:"code"` // lego provider code, as in dnsChallenge.provider
	Name string `json:"name"`
	// Fields are the variables a typical setup needs; Optional are
	// alternatives or extra settings the provider also reads.
	Fields   []string `json:"fields"`
	Optional []string `json:"optional"`
	DocsURL  string   `json:"docsUrl"`
}

// dnsProviders is a curated list (names as of lego v4.33, bundled with
// Traefik v3.6). The exec, manual and httpreq providers are left out on
// purpose: they run programs, wait for a human, or call arbitrary URLs.
var dnsProviders = []DNSProvider{
	{Code: "azuredns", Name: "Azure DNS",
		Fields:   []string{"AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_TENANT_ID", "AZURE_SUBSCRIPTION_ID", "AZURE_RESOURCE_GROUP"},
		Optional: []string{"AZURE_ENVIRONMENT", "AZURE_ZONE_NAME", "AZURE_PRIVATE_ZONE", "AZURE_AUTH_METHOD"}},
	{Code: "cloudflare", Name: "Cloudflare",
		Fields:   []string{"CF_DNS_API_TOKEN"},
		Optional: []string{"CF_ZONE_API_TOKEN", "CF_API_EMAIL", "CF_API_KEY"}},
	{Code: "desec", Name: "deSEC.io", Fields: []string{"DESEC_TOKEN"}},
	{Code: "digitalocean", Name: "DigitalOcean", Fields: []string{"DO_AUTH_TOKEN"}},
	{Code: "dnsimple", Name: "DNSimple", Fields: []string{"DNSIMPLE_OAUTH_TOKEN"}},
	{Code: "duckdns", Name: "Duck DNS", Fields: []string{"DUCKDNS_TOKEN"}},
	{Code: "gandiv5", Name: "Gandi Live DNS (v5)", Fields: []string{"GANDIV5_PERSONAL_ACCESS_TOKEN"}},
	{Code: "gcloud", Name: "Google Cloud DNS",
		Fields:   []string{"GCE_PROJECT", "GCE_SERVICE_ACCOUNT"},
		Optional: []string{"GCE_ZONE_ID"}},
	{Code: "godaddy", Name: "GoDaddy", Fields: []string{"GODADDY_API_KEY", "GODADDY_API_SECRET"}},
	{Code: "hetzner", Name: "Hetzner", Fields: []string{"HETZNER_API_TOKEN"}},
	{Code: "infomaniak", Name: "Infomaniak", Fields: []string{"INFOMANIAK_ACCESS_TOKEN"}},
	{Code: "inwx", Name: "INWX", Fields: []string{"INWX_USERNAME", "INWX_PASSWORD"}, Optional: []string{"INWX_SHARED_SECRET"}},
	{Code: "ionos", Name: "IONOS", Fields: []string{"IONOS_API_KEY"}},
	{Code: "linode", Name: "Linode / Akamai", Fields: []string{"LINODE_TOKEN"}},
	{Code: "namecheap", Name: "Namecheap", Fields: []string{"NAMECHEAP_API_USER", "NAMECHEAP_API_KEY"}},
	{Code: "netcup", Name: "netcup", Fields: []string{"NETCUP_CUSTOMER_NUMBER", "NETCUP_API_KEY", "NETCUP_API_PASSWORD"}},
	{Code: "ovh", Name: "OVHcloud",
		Fields:   []string{"OVH_ENDPOINT", "OVH_APPLICATION_KEY", "OVH_APPLICATION_SECRET", "OVH_CONSUMER_KEY"},
		Optional: []string{"OVH_CLIENT_ID", "OVH_CLIENT_SECRET"}},
	{Code: "porkbun", Name: "Porkbun", Fields: []string{"PORKBUN_API_KEY", "PORKBUN_SECRET_API_KEY"}},
	{Code: "rfc2136", Name: "RFC 2136 (dynamic DNS update)",
		Fields:   []string{"RFC2136_NAMESERVER", "RFC2136_TSIG_ALGORITHM", "RFC2136_TSIG_KEY", "RFC2136_TSIG_SECRET"},
		Optional: []string{"RFC2136_TTL", "RFC2136_PROPAGATION_TIMEOUT"}},
	{Code: "route53", Name: "Amazon Route 53",
		Fields:   []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"},
		Optional: []string{"AWS_HOSTED_ZONE_ID"}},
	{Code: "scaleway", Name: "Scaleway", Fields: []string{"SCW_SECRET_KEY"}, Optional: []string{"SCW_PROJECT_ID"}},
	{Code: "vultr", Name: "Vultr", Fields: []string{"VULTR_API_KEY"}},
}

// Providers returns the curated DNS providers, sorted by code.
func Providers() []DNSProvider {
	out := make([]DNSProvider, len(dnsProviders))
	for i, p := range dnsProviders {
		if p.Optional == nil {
			p.Optional = []string{}
		}
		p.DocsURL = "https://go-acme.github.io/lego/dns/" + p.Code + "/"
		out[i] = p
	}
	return out
}

// LookupProvider finds a provider by its lego code.
func LookupProvider(code string) (DNSProvider, bool) {
	for _, p := range dnsProviders {
		if p.Code == code {
			return p, true
		}
	}
	return DNSProvider{}, false
}
