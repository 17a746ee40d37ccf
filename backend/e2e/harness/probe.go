package harness

import (
	"net"
	"net/http"
	"strconv"
	"time"
)

// Listening reports whether something accepts TCP connections on the
// loopback port.
func Listening(port int) bool {
	c, err := net.DialTimeout("tcp", loopback(port), time.Second)
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

// Redirects reports whether the loopback port answers / with a permanent
// redirect (an entrypoint that redirects to another).
func Redirects(port int) bool {
	resp, err := NoRedirectClient().Get("http://" + loopback(port) + "/")
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusMovedPermanently
}

// Pinged reports whether Traefik's /ping answers on the loopback port.
func Pinged(port int) bool {
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/ping")
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
