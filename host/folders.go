package host

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/agentls/agentls/guard"
)

// PathOfURI converts a file:// URI to a cleaned local path.
func PathOfURI(u string) (string, error) {
	parsed, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("bad URI %q: %w", u, err)
	}
	if parsed.Scheme != "file" {
		return "", fmt.Errorf("not a file URI: %q", u)
	}
	if parsed.Host != "" && parsed.Host != "localhost" {
		return "", fmt.Errorf("not a local file URI: %q", u)
	}
	return filepath.Clean(filepath.FromSlash(parsed.Path)), nil
}

// URIOfPath converts an absolute path to a file:// URI.
func URIOfPath(path string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return u.String()
}

// folders are the workspace folders of a host: those given, or else the
// current directory. A folder in or below a protected folder (`.git`,
// `.agentls`, …) is refused: everything in it would be the agent's to
// change; so is the file system root or a folder that holds home (the
// user's home folder, location.go).
func folders(given []string, home string) ([]string, error) {
	if len(given) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("no workspace folder and no working directory: %w", err)
		}
		given = []string{wd}
	}
	for _, f := range given {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, fmt.Errorf("workspace folder %s: %w", f, err)
		}
		if what, ok := guard.InsideProtected(abs); ok {
			return nil, fmt.Errorf("%s is inside %s, which agentls never changes: open the project's own folder", f, what)
		}
		if err := locationErr(abs, home); err != nil {
			return nil, err
		}
	}
	return given, nil
}
