// Package validate checks the values people type that end up inside
// Traefik's configuration: hostnames, redirect targets, header names and
// values, names of entrypoints, middlewares and resolvers, and HSTS
// policies. One file per concept.
package validate
