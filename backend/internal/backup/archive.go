package backup

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// source is one file to put in an archive: its name there and where to read it.
type source struct {
	name string
	path string
}

// hashFile returns the size and SHA-256 of the file at path.
func hashFile(path string) (int64, string, error) {
	f, err := os.Open(path) //nolint:gosec // a snapshot or a data-directory file the panel wrote
	if err != nil {
		return 0, "", err
	}
	defer func() { _ = f.Close() }() // read-only
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", fmt.Errorf("read %s: %w", path, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// writeArchive writes the manifest and then each source to w as a tar.gz.
// The manifest's Files are filled in from the sources; it is returned.
func writeArchive(w io.Writer, m Manifest, files []source) (Manifest, error) {
	m.Files = nil
	for _, s := range files {
		size, sum, err := hashFile(s.path)
		if err != nil {
			return Manifest{}, err
		}
		m.Files = append(m.Files, File{Name: s.name, Size: size, SHA256: sum})
	}
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return Manifest{}, err
	}
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	at := m.CreatedAt.UTC().Truncate(time.Second)
	if err := writeEntry(tw, ManifestName, int64(len(mb)), at, bytes.NewReader(mb)); err != nil {
		return Manifest{}, err
	}
	for i, s := range files {
		f, err := os.Open(s.path)
		if err != nil {
			return Manifest{}, err
		}
		err = writeEntry(tw, s.name, m.Files[i].Size, at, f)
		_ = f.Close() // read-only
		if err != nil {
			return Manifest{}, err
		}
	}
	if err := tw.Close(); err != nil {
		return Manifest{}, err
	}
	return m, gz.Close()
}

func writeEntry(tw *tar.Writer, name string, size int64, at time.Time, r io.Reader) error {
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: size, Mode: 0o600, ModTime: at}
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("archive %s: %w", name, err)
	}
	n, err := io.Copy(tw, io.LimitReader(r, size))
	if err != nil {
		return fmt.Errorf("archive %s: %w", name, err)
	}
	if n != size {
		return fmt.Errorf("archive %s: changed while being written (%d of %d bytes)", name, n, size)
	}
	return nil
}

// Sink receives the files of an archive as they are read. Create is called
// once per file, with a name the manifest lists, before any of its bytes.
type Sink interface {
	Create(name string) (io.WriteCloser, error)
}

// ErrArchive marks an archive that is not a well-formed Gatehouse backup.
var ErrArchive = errors.New("invalid backup archive")

func archiveErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrArchive, fmt.Sprintf(format, args...))
}

// ReadArchive reads a backup archive from r, passing each file to sink, and
// checks it as it goes: manifest.json first, then only the files it lists,
// each once, as a regular file under its flat name with the declared size
// and SHA-256; nothing after them; an intact gzip stream. Sizes are capped
// before anything is read, so a hostile archive cannot make it allocate or
// write more than the limits. On error the sink may hold partial files: the
// caller discards them.
func ReadArchive(r io.Reader, sink Sink) (Manifest, error) {
	gz, err := gzip.NewReader(bufio.NewReader(r))
	if err != nil {
		return Manifest{}, archiveErr("not a gzip file (%v)", err)
	}
	gz.Multistream(false)
	tr := tar.NewReader(gz)
	hdr, err := tr.Next()
	if err != nil {
		return Manifest{}, archiveErr("not a tar archive (%v)", err)
	}
	if hdr.Name != ManifestName || hdr.Typeflag != tar.TypeReg {
		return Manifest{}, archiveErr("the first entry is %q, not %s: not a Gatehouse backup", hdr.Name, ManifestName)
	}
	if hdr.Size < 0 || hdr.Size > maxManifestSize {
		return Manifest{}, archiveErr("manifest.json declares %d bytes (at most %d)", hdr.Size, maxManifestSize)
	}
	mb, err := io.ReadAll(tr)
	if err != nil {
		return Manifest{}, archiveErr("read manifest.json: %v", err)
	}
	m, err := parseManifest(mb)
	if err != nil {
		return Manifest{}, fmt.Errorf("%w: %w", ErrArchive, err)
	}
	done := map[string]bool{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Manifest{}, archiveErr("read archive: %v", err)
		}
		if err := readEntry(tr, hdr, m, done, sink); err != nil {
			return Manifest{}, err
		}
	}
	for _, f := range m.Files {
		if !done[f.Name] {
			return Manifest{}, archiveErr("%s is listed in the manifest but missing from the archive", f.Name)
		}
	}
	// The tar end marker may come before the end of the gzip stream: read
	// to its end so its checksum and length are verified.
	if _, err := io.Copy(io.Discard, io.LimitReader(gz, 1<<20)); err != nil {
		return Manifest{}, archiveErr("the gzip stream is damaged: %v", err)
	}
	return m, nil
}

func readEntry(tr *tar.Reader, hdr *tar.Header, m Manifest, done map[string]bool, sink Sink) error {
	name := hdr.Name
	if hdr.Typeflag != tar.TypeReg {
		return archiveErr("entry %q is not a regular file (type %q): links and devices are refused", name, string(hdr.Typeflag))
	}
	want, ok := m.file(name)
	switch {
	case !ok:
		return archiveErr("unexpected entry %q (only the files the manifest lists, under flat names, are accepted)", name)
	case done[name]:
		return archiveErr("entry %q appears twice", name)
	case hdr.Size != want.Size:
		return archiveErr("entry %q has %d bytes, the manifest says %d", name, hdr.Size, want.Size)
	}
	done[name] = true
	w, err := sink.Create(name)
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), io.LimitReader(tr, want.Size))
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return archiveErr("read %s: %v", name, err)
	}
	if n != want.Size {
		return archiveErr("%s is truncated (%d of %d bytes)", name, n, want.Size)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want.SHA256 {
		return archiveErr("%s does not match its checksum (sha256 %s, the manifest says %s)", name, got, want.SHA256)
	}
	return nil
}

// ReadManifest reads only the first entry of the archive at path: enough to
// list a backup without reading it whole.
func ReadManifest(path string) (Manifest, error) {
	f, err := os.Open(path) //nolint:gosec // a name checked against the backup pattern, in the backup directory
	if err != nil {
		return Manifest{}, err
	}
	defer func() { _ = f.Close() }() // read-only
	gz, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return Manifest{}, archiveErr("not a gzip file (%v)", err)
	}
	tr := tar.NewReader(gz)
	hdr, err := tr.Next()
	if err != nil {
		return Manifest{}, archiveErr("not a tar archive (%v)", err)
	}
	if hdr.Name != ManifestName || hdr.Size > maxManifestSize {
		return Manifest{}, archiveErr("the first entry is %q, not %s", hdr.Name, ManifestName)
	}
	mb, err := io.ReadAll(tr)
	if err != nil {
		return Manifest{}, archiveErr("read manifest.json: %v", err)
	}
	m, err := parseManifest(mb)
	if err != nil {
		return Manifest{}, fmt.Errorf("%w: %w", ErrArchive, err)
	}
	return m, nil
}
