// Package backup takes consistent snapshots of the whole panel (the
// database, which holds managed mode's encrypted DNS credentials too, and
// the age identity) as one archive, keeps them on a schedule, lists and
// serves them, and restores one into a stopped panel.
package backup

import (
	"encoding/json"
	"fmt"
	"regexp"
	"time"
)

// Archive layout: a gzip-compressed tar whose first entry is manifest.json,
// followed by the files it lists, each under a fixed flat name.
const (
	Format        = "gatehouse-backup"
	FormatVersion = 1
	ManifestName  = "manifest.json"
	DatabaseName  = "gatehouse.db"
	IdentityName  = "age.key" // sealbox.IdentityFile
	EngineSQLite  = "sqlite"
)

// CredentialsName is managed mode's DNS credentials file from before the
// database held them (managed.SecretsFile). Archives made then carry it;
// restored, it is imported into the database at the next start. A newer
// archive carries it only while a panel has not imported it yet.
const CredentialsName = "dns-credentials.age"

// Triggers say what made a backup; only scheduled ones are pruned.
const (
	TriggerScheduled = "scheduled"
	TriggerManual    = "manual"
	TriggerCLI       = "cli"
)

// Where the identity came from: a file in the data directory (it travels in
// the archive) or PANEL_AGE_IDENTITY (it does not; only its recipient does).
const (
	IdentityFile        = "file"
	IdentityEnvironment = "environment"
)

// Limits on what a reader accepts, so a hostile archive cannot fill the disk
// or the memory.
const (
	maxManifestSize = 64 << 10
	maxSmallFile    = 1 << 20 // the identity and the credentials file
	maxDatabaseSize = 8 << 30
)

// limit is the largest size accepted for each file name; a name not here is
// not accepted at all.
var limit = map[string]int64{DatabaseName: maxDatabaseSize, IdentityName: maxSmallFile, CredentialsName: maxSmallFile}

// namePattern is the only shape of backup file names the API and the
// directory listing accept: no separators, nothing to traverse with.
var namePattern = regexp.MustCompile(`^gatehouse-[0-9]{8}-[0-9]{6}(-[0-9]{1,3})?\.tar\.gz$`)

// ValidName reports whether name is a backup file name.
func ValidName(name string) bool { return namePattern.MatchString(name) }

// Manifest describes an archive; it is its first entry.
type Manifest struct {
	Format        string    `json:"format"`
	Version       int       `json:"version"`
	CreatedAt     time.Time `json:"createdAt"`
	PanelVersion  string    `json:"panelVersion"`
	SchemaVersion uint      `json:"schemaVersion"`
	Engine        string    `json:"engine"`
	Trigger       string    `json:"trigger"`
	Identity      string    `json:"identity"`
	Recipient     string    `json:"recipient"`
	Files         []File    `json:"files"`
}

// File is one file of the archive with its size and SHA-256 (hex).
type File struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

var sha256Pattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// parseManifest decodes and checks a manifest: the format and version this
// binary reads, and a file list of known, distinct names within the limits
// that includes the database.
func parseManifest(b []byte) (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return Manifest{}, fmt.Errorf("manifest.json is not valid JSON: %w", err)
	}
	if m.Format != Format {
		return Manifest{}, fmt.Errorf("not a Gatehouse backup (format %q, want %q)", m.Format, Format)
	}
	if m.Version != FormatVersion {
		return Manifest{}, fmt.Errorf("backup format version %d is not supported (this Gatehouse reads version %d)", m.Version, FormatVersion)
	}
	if m.Engine != EngineSQLite {
		return Manifest{}, fmt.Errorf("backup of a %q database; this Gatehouse restores only %q", m.Engine, EngineSQLite)
	}
	if m.Identity != IdentityFile && m.Identity != IdentityEnvironment {
		return Manifest{}, fmt.Errorf("manifest identity %q must be %q or %q", m.Identity, IdentityFile, IdentityEnvironment)
	}
	seen := map[string]bool{}
	for _, f := range m.Files {
		most, ok := limit[f.Name]
		switch {
		case !ok:
			return Manifest{}, fmt.Errorf("manifest lists an unexpected file %q", f.Name)
		case seen[f.Name]:
			return Manifest{}, fmt.Errorf("manifest lists %q twice", f.Name)
		case f.Size < 0 || f.Size > most:
			return Manifest{}, fmt.Errorf("manifest gives %q a size of %d bytes (at most %d)", f.Name, f.Size, most)
		case !sha256Pattern.MatchString(f.SHA256):
			return Manifest{}, fmt.Errorf("manifest gives %q no valid sha256", f.Name)
		}
		seen[f.Name] = true
	}
	if !seen[DatabaseName] {
		return Manifest{}, fmt.Errorf("manifest lists no %s", DatabaseName)
	}
	if (m.Identity == IdentityFile) != seen[IdentityName] {
		return Manifest{}, fmt.Errorf("manifest identity %q does not match its files", m.Identity)
	}
	return m, nil
}

// file returns the manifest's entry for name.
func (m Manifest) file(name string) (File, bool) {
	for _, f := range m.Files {
		if f.Name == name {
			return f, true
		}
	}
	return File{}, false
}
