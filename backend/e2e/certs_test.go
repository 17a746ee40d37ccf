//go:build e2e

package e2e

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestCertificatesFromFileProvider serves a self-signed certificate for a
// panel service's host through Traefik's file provider. Traefik 3.7 lists it
// in its certificates API and the panel's certificates view attributes it to
// that service; before 3.7 the view says which version it needs.
func TestCertificatesFromFileProvider(t *testing.T) {
	harness.ForEachTraefik(t, testCertificatesFromFileProvider)
}

func testCertificatesFromFileProvider(t *testing.T, bin harness.TraefikBinary) {
	be := harness.StartBackend(t, "secure")
	certDir, fileDir := t.TempDir(), t.TempDir()
	fingerprint := writeSelfSigned(t, certDir, "secure.cert.test")
	writeFile(t, filepath.Join(fileDir, "tls.yml"), fmt.Sprintf(`
tls:
  certificates:
    - certFile: %s
      keyFile: %s
`, filepath.Join(certDir, "cert.pem"), filepath.Join(certDir, "key.pem")))

	port := harness.FreePort(t)
	panelURL := "http://127.0.0.1:" + strconv.Itoa(port)
	tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: panelURL + "/api/proxy/config", FileDir: fileDir})
	p := harness.StartPanel(t, map[string]string{"PANEL_LISTEN": "127.0.0.1:" + strconv.Itoa(port), "PANEL_PROXY_API_URL": tr.APIURL})

	var dom struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains", map[string]any{"domain": "cert.test"}, &dom)
	create := func(sub string) string {
		var svc struct{ ID string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
			"name": sub, "domainId": dom.ID, "hostnames": []map[string]string{{"type": "subdomain", "value": sub}},
			"targets": []map[string]any{{"host": be.Host, "port": be.Port}}, "entrypoints": []string{"websecure"},
		}, &svc)
		return svc.ID
	}
	secure := create("secure")
	create("other")

	// Traefik presents the file provider's certificate for the service's host.
	harness.Eventually(t, 30*time.Second, func() bool {
		state, code := getTLS(tr.WebsecureURL, "secure.cert.test")
		if state == nil || code != http.StatusOK || len(state.PeerCertificates) == 0 {
			return false
		}
		sum := sha256.Sum256(state.PeerCertificates[0].Raw)
		return hex.EncodeToString(sum[:]) == fingerprint
	}, "secure.cert.test is not served with the file provider's certificate")

	type cert struct {
		Fingerprint, Subject, Issuer, Status, KeyType string
		SANs                                          []string
		DaysLeft                                      int
		ServiceIDs                                    []string
	}
	var v struct {
		viewStatus
		Supported bool
		Version   string
		Message   string
		Items     []cert
	}
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/certificates", nil, &v)
	if !v.Reachable || v.Version != bin.Version {
		t.Fatalf("certificates = %+v; want reachable Traefik %s", v, bin.Version)
	}
	if !bin.AtLeast(3, 7) {
		if v.Supported || v.Message != "requires Traefik 3.7 or later (running "+bin.Version+")" || len(v.Items) != 0 {
			t.Errorf("certificates = %+v; want the requires-3.7 answer", v)
		}
		return
	}
	if !v.Supported || v.Message != "" {
		t.Fatalf("certificates = %+v; want supported", v)
	}
	i := slices.IndexFunc(v.Items, func(c cert) bool { return c.Fingerprint == fingerprint })
	if i < 0 {
		t.Fatalf("the file provider's certificate %s is not listed: %+v", fingerprint, v.Items)
	}
	got := v.Items[i]
	if got.Subject != "secure.cert.test" || !slices.Equal(got.SANs, []string{"secure.cert.test"}) ||
		got.Issuer != "Gatehouse e2e (secure.cert.test)" || got.Status != "valid" || got.KeyType != "ECDSA" ||
		got.DaysLeft < 88 || got.DaysLeft > 90 {
		t.Errorf("certificate = %+v", got)
	}
	if !slices.Equal(got.ServiceIDs, []string{secure}) {
		t.Errorf("certificate attributed to %v; want only the secure service %s", got.ServiceIDs, secure)
	}
}

// writeSelfSigned writes cert.pem and key.pem for host into dir, valid for 90
// days, and returns the certificate's SHA-256 fingerprint in hex.
func writeSelfSigned(t *testing.T, dir, host string) string {
	t.Helper()
	return writeCertUntil(t, dir, host, time.Now().Add(90*24*time.Hour))
}

// writeCertUntil writes a self-signed certificate for host valid until
// notAfter, and returns its SHA-256 fingerprint.
func writeCertUntil(t *testing.T, dir, host string, notAfter time.Time) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(now.UnixNano()),
		Subject:      pkix.Name{CommonName: host, Organization: []string{"Gatehouse e2e"}},
		DNSNames:     []string{host},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	var certPEM, keyPEM bytes.Buffer
	_ = pem.Encode(&certPEM, &pem.Block{Type: "CERTIFICATE", Bytes: der})
	_ = pem.Encode(&keyPEM, &pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
	writeFile(t, filepath.Join(dir, "cert.pem"), certPEM.String())
	writeFile(t, filepath.Join(dir, "key.pem"), keyPEM.String())
	sum := sha256.Sum256(der)
	return hex.EncodeToString(sum[:])
}
