package harness

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// EchoServer answers each line a TCP client sends with Prefix and the line.
type EchoServer struct {
	Host   string
	Port   int
	Prefix string
	// Cert is the certificate a TLS echo server presents (nil: plain TCP).
	Cert *x509.Certificate
}

// StartEchoServer listens on 127.0.0.1 and echoes lines with prefix; with
// tlsName it terminates TLS itself, with a self-signed certificate for
// that name (the backend of a TLS-passthrough router).
func StartEchoServer(t testing.TB, prefix, tlsName string) *EchoServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e := &EchoServer{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, Prefix: prefix}
	if tlsName != "" {
		cert, parsed := selfSigned(t, tlsName)
		e.Cert = parsed
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer func() { _ = c.Close() }()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if _, err := c.Write([]byte(prefix + line)); err != nil {
						return
					}
				}
			}()
		}
	}()
	return e
}

// Addr is host:port.
func (e *EchoServer) Addr() string { return net.JoinHostPort(e.Host, strconv.Itoa(e.Port)) }

// selfSigned makes a certificate for name.
func selfSigned(t testing.TB, name string) (tls.Certificate, *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name + " backend"},
		DNSNames: []string{name}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, parsed
}

// EchoLine sends line over c and reads the answer line (with a deadline).
func EchoLine(c net.Conn, line string) (string, error) {
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte(line + "\n")); err != nil {
		return "", err
	}
	s, err := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSuffix(s, "\n"), err
}

// UDPEcho answers each datagram with Prefix and the datagram.
type UDPEcho struct {
	Host string
	Port int
}

// StartUDPEcho listens on 127.0.0.1 for datagrams.
func StartUDPEcho(t testing.TB, prefix string) *UDPEcho {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	go func() {
		buf := make([]byte, 2048)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			_, _ = pc.WriteTo(append([]byte(prefix), buf[:n]...), from)
		}
	}()
	return &UDPEcho{Host: "127.0.0.1", Port: pc.LocalAddr().(*net.UDPAddr).Port}
}

// StartPostgresTCP starts a throwaway PostgreSQL server with
// scripts/postgres.sh, listening on 127.0.0.1 and the returned port as
// well as on its socket, and stops it when the test ends. The superuser is
// "gatehouse", trusted without a password. It skips without PostgreSQL.
func StartPostgresTCP(t testing.TB) int {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "scripts", "postgres.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := exec.Command(script, "check").Run(); err != nil {
		t.Skip("PostgreSQL is not installed (apt-get install postgresql)")
	}
	out, err := exec.Command(script, "mktemp").Output()
	if err != nil {
		t.Fatalf("postgres.sh mktemp: %v", err)
	}
	port := FreePort(t)
	env := append(os.Environ(), "GATEHOUSE_PG_DIR="+strings.TrimSpace(string(out)), "GATEHOUSE_PG_PORT="+strconv.Itoa(port))
	start := exec.Command(script, "start")
	start.Env = env
	if b, err := start.CombinedOutput(); err != nil {
		t.Fatalf("postgres.sh start: %v: %s", err, b)
	}
	t.Cleanup(func() {
		stop := exec.Command(script, "stop")
		stop.Env = env
		_ = stop.Run()
	})
	return port
}
