// Command doclinks checks the links between the project's Markdown files:
// every relative link names a file that exists, and every #anchor a heading
// of its target. Links to other sites are not followed. make lint runs it
// on README.md and docs/.
//
//	go run ./scripts/doclinks ../README.md ../docs
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// link matches [text](target) and ![alt](target); the target stops at a
// space (a title may follow) or the closing parenthesis.
var link = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// code is an inline code span; notAnchor is what GitHub drops from a heading's anchor.
var (
	code      = regexp.MustCompile("`[^`]*`")
	notAnchor = regexp.MustCompile(`[^\p{L}\p{N}\- _]`)
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: doclinks FILE_OR_DIR...")
		os.Exit(2)
	}
	var files []string
	for _, arg := range os.Args[1:] {
		err := filepath.WalkDir(arg, //nolint:gosec // walks the directories named on the command line
			func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if !d.IsDir() && strings.HasSuffix(p, ".md") {
					files = append(files, p)
				}
				return nil
			})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	anchors := map[string]map[string]bool{}
	broken := 0
	for _, f := range files {
		for _, p := range check(f, anchors) {
			fmt.Println(p)
			broken++
		}
	}
	if broken > 0 {
		fmt.Printf("%d broken links in %d files\n", broken, len(files))
		os.Exit(1)
	}
	fmt.Printf("doclinks: %d files, every link resolves\n", len(files))
}

// check returns the broken links of file, as "file:line: why".
func check(file string, anchors map[string]map[string]bool) []string {
	lines, err := readLines(file)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	fence := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
		}
		if fence {
			continue
		}
		for _, m := range link.FindAllStringSubmatch(stripCode(l), -1) {
			if why := resolve(file, m[1], anchors); why != "" {
				out = append(out, fmt.Sprintf("%s:%d: %s: %s", file, i+1, m[1], why))
			}
		}
	}
	return out
}

// stripCode blanks inline code spans: a [x](y) inside backticks is text.
func stripCode(l string) string {
	return code.ReplaceAllString(l, "``")
}

func resolve(from, target string, anchors map[string]map[string]bool) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	path, anchor, _ := strings.Cut(target, "#")
	dest := from
	if path != "" {
		dest = filepath.Join(filepath.Dir(from), path)
		if _, err := os.Stat(dest); err != nil {
			return "no such file"
		}
	}
	if anchor == "" || !strings.HasSuffix(dest, ".md") {
		return ""
	}
	if anchors[dest] == nil {
		a, err := headings(dest)
		if err != nil {
			return err.Error()
		}
		anchors[dest] = a
	}
	if !anchors[dest][anchor] {
		return "no heading with this anchor in " + dest
	}
	return ""
}

// headings returns the anchors GitHub gives the headings of file: lower
// case, punctuation dropped, spaces as hyphens, repeats numbered -1, -2.
func headings(file string) (map[string]bool, error) {
	lines, err := readLines(file)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	seen := map[string]int{}
	fence := false
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		s := strings.ReplaceAll(notAnchor.ReplaceAllString(strings.ToLower(h), ""), " ", "-")
		if n := seen[s]; n > 0 {
			out[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out, nil
}

func readLines(file string) ([]string, error) {
	b, err := os.ReadFile(file) //nolint:gosec // the files checked are the command's arguments and the files they link to
	if err != nil {
		return nil, err
	}
	return strings.Split(string(b), "\n"), nil
}
