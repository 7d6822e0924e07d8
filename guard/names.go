package guard

import (
	"fmt"
	"net/url"
	"strings"
)

// planExt is the extension of plan documents, matched exactly (case-sensitive).
const planExt = ".plan"

const fileScheme = "file://"

// decodeGiven returns the file path a caller's name stands for: the decoded
// path of a file:// URI, else the name itself. A URI with a query, a fragment
// or an opaque part is an error: such a URI names something else than its path.
func decodeGiven(given string) (string, error) {
	if !strings.HasPrefix(given, fileScheme) {
		return given, nil
	}
	u, err := url.Parse(given)
	if err != nil {
		return "", fmt.Errorf("%q is not a valid file URI: %w", given, err)
	}
	if u.Opaque != "" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.RawFragment != "" {
		return "", fmt.Errorf("%q has a query or fragment; give a plain path", given)
	}
	return u.Path, nil
}

// isPlanBase reports whether a real file's base name is a plan name.
func isPlanBase(base string) bool {
	return strings.HasSuffix(base, planExt) && len(base) > len(planExt) && !strings.ContainsRune(base, 0)
}

// lastElem is the text after the last separator (unlike filepath.Base, a
// trailing separator gives "").
func lastElem(p string) string {
	if i := strings.LastIndexFunc(p, isSep); i >= 0 {
		return p[i+1:]
	}
	return p
}

func isSep(r rune) bool { return r == '/' || r == '\\' && isWindows }
