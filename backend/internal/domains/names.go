// This file words a list of names that may have been cut short, so a message
// never lists five of six names without saying so.

package domains

import (
	"fmt"
	"strings"
)

// joinNames returns "a, b, c" when names holds all total names, and "a, b, c and 3 more"
// when it holds only the first of them.
func joinNames(names []string, total int) string {
	s := strings.Join(names, ", ")
	if rest := total - len(names); rest > 0 {
		if s == "" {
			return fmt.Sprintf("%d more", rest)
		}
		return fmt.Sprintf("%s and %d more", s, rest)
	}
	return s
}
