package testcache

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// reachers are the packages that compute a folder under os.UserCacheDir
// and create it when a command, MCP server or language server starts.
var reachers = []string{
	"github.com/agentls/agentls/agent/tools",
	"github.com/agentls/agentls/langpool",
	"github.com/agentls/agentls/mcpclient",
	"github.com/agentls/agentls/sandbox",
}

// privateCall is how a TestMain keeps the cache in a temporary folder.
var privateCall = regexp.MustCompile(`testcache\.(Run|Private)\(`)

// TestEveryPackageThatCanReachTheCacheKeepsItPrivate: every test binary of
// the module that links a package creating cache folders calls Run or
// Private in its TestMain, so no test run leaves folders in the user's
// ~/.cache/agentls (they did: ~140 empty <hash> and <hash>-mcp folders).
func TestEveryPackageThatCanReachTheCacheKeepsItPrivate(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the module's packages with the go command")
	}
	root := moduleRoot(t)
	cmd := exec.Command("go", "list", "-test", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .TestGoFiles \" \"}} {{join .XTestGoFiles \" \"}}\t{{join .Deps \" \"}}", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	type pkg struct{ dir, files string }
	pkgs := map[string]pkg{}
	reaching := []string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 {
			continue
		}
		if path, ok := strings.CutSuffix(f[0], ".test"); ok {
			if slices.Contains(reachers, path) || slices.ContainsFunc(strings.Fields(f[3]), func(d string) bool { return slices.Contains(reachers, d) }) {
				reaching = append(reaching, path)
			}
			continue
		}
		if !strings.Contains(f[0], " ") { // the package itself, not a test variant
			pkgs[f[0]] = pkg{dir: f[1], files: f[2]}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(reaching) < len(reachers) {
		t.Fatalf("only %d test binaries link %v: the listing is wrong\n%s", len(reaching), reachers, out)
	}
	for _, path := range reaching {
		p := pkgs[path]
		if !slices.ContainsFunc(strings.Fields(p.files), func(name string) bool {
			b, err := os.ReadFile(filepath.Join(p.dir, name))
			return err == nil && privateCall.Match(b)
		}) {
			t.Errorf("%s: its tests can create folders in the user's cache; call testcache.Run(m) in its TestMain", path)
		}
	}
}

// TestInside: the check Private makes.
func TestInside(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range []struct {
		cache string
		ok    bool
	}{
		{filepath.Join(tmp, "c"), true},
		{filepath.Join(tmp, "a", "b"), true},
		{tmp, false},
		{filepath.Dir(tmp), false},
		{tmp + "x", false},
		{"/root/.cache", false},
	} {
		t.Setenv("XDG_CACHE_HOME", c.cache)
		if err := Inside(tmp); (err == nil) != c.ok {
			t.Errorf("cache %s: Inside(%s) = %v, want ok %v", c.cache, tmp, err, c.ok)
		}
	}
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		t.Skipf("no go command or module here: %v", err)
	}
	return filepath.Dir(string(bytes.TrimSpace(out)))
}
