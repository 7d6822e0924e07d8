package guard

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// This file is the fuzz targets' oracle: what "nothing but plan documents
// changed" means, checked without the guard's own code — by resolving paths
// here with filepath.EvalSymlinks, and by really applying an allowed
// operation inside the sandbox (through os.Root, which follows symlinks and
// `..` the way the system does and cannot leave the sandbox) and comparing
// the whole sandbox tree before and after.

// oraclePath is the file path a caller's name stands for.
func oraclePath(sb *sandbox, given string) (string, error) {
	p := given
	if strings.HasPrefix(p, "file://") {
		u, err := url.Parse(p)
		if err != nil {
			return "", err
		}
		p = u.Path
	}
	if !filepath.IsAbs(p) {
		p = sb.ws + "/" + p
	}
	return p, nil
}

// oracleResolve cleans the path and evaluates the symlinks of its deepest
// existing ancestor.
func oracleResolve(sb *sandbox, given string) (string, error) {
	p, err := oraclePath(sb, given)
	if err != nil {
		return "", err
	}
	p = filepath.Clean(p)
	tail := ""
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(real, tail), nil
		}
		if _, lerr := os.Lstat(p); lerr == nil || !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("evaluate %s: %w", p, err)
		}
		if p == filepath.Dir(p) {
			return filepath.Join(p, tail), nil
		}
		tail = filepath.Join(filepath.Base(p), tail)
		p = filepath.Dir(p)
	}
}

func inside(p, dir string) bool { return strings.HasPrefix(p, dir+"/") }

// oracleProtected are the names no tool may change at any depth, and the
// sandbox's own protected places known by path (relative to the sandbox).
var (
	oracleProtectedNames = []string{".agentls", ".agentls.yaml", ".mcp.json", ".git", ".hg", ".svn", ".jj"}
	oracleProtectedPaths = []string{
		"ws/jjstore",                            // ws/.jj points here
		"ws/teamlink.yaml", "ws/conf/team.yaml", // the --config file and its real file
		"ws/home/.config/agentls", "outside/agentls-config", // user config folders
		"ws/home/.local/state/agentls", "outside/agentls-state", // agentls's state folders
	}
)

// inHiddenFolder reports whether a sandbox-relative path lies in a hidden
// folder (or, isDir, is one) below the workspace folder.
func inHiddenFolder(rel string, isDir bool) bool {
	below, ok := strings.CutPrefix(rel, "ws/")
	if !ok {
		return false
	}
	parts := strings.Split(below, "/")
	if !isDir {
		parts = parts[:len(parts)-1]
	}
	for _, part := range parts {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// isProtectedRel reports whether a sandbox-relative path (forward slashes)
// is protected or lies below something protected.
func isProtectedRel(rel string) bool {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		// The MCP server file of VS Code: mcp.json in a folder .vscode.
		if strings.EqualFold(parts[i-1], ".vscode") && strings.EqualFold(parts[i], "mcp.json") {
			return true
		}
	}
	for _, part := range parts {
		for _, n := range oracleProtectedNames {
			if strings.EqualFold(part, n) {
				return true
			}
		}
	}
	for _, p := range oracleProtectedPaths {
		if rel == p || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	return false
}

// oracleDevice matches a path with an element Windows takes for a device.
var oracleDevice = regexp.MustCompile(`(?i)(^|[/\\])(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³]) *(\.[^/\\]*)?($|[/\\])`)

// holdsProtected reports whether the folder at real (not following
// symlinks) holds anything protected.
func holdsProtected(sb *sandbox, real string) bool {
	found := false
	_ = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if rel, err := filepath.Rel(sb.dir, p); err == nil && isProtectedRel(filepath.ToSlash(rel)) {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	for _, p := range oracleProtectedPaths {
		if inside(filepath.Join(sb.dir, p), real) {
			found = true
		}
	}
	return found
}

// oracleTarget checks one allowed target. what is "plan-file" (edit-like,
// mv), "plan-file-content" (its content may change), "mkdir", "rm", or in
// build mode "build"/"build-remove".
func oracleTarget(t *testing.T, sb *sandbox, what, given string) {
	t.Helper()
	real, err := oracleResolve(sb, given)
	if err != nil {
		t.Fatalf("allowed %s of %q, which does not resolve: %v", what, given, err)
	}
	state := filepath.Join(sb.ws, ".agentls")
	for _, p := range []string{real, filepath.Clean(mustOraclePath(t, sb, given))} {
		if rel, err := filepath.Rel(sb.dir, p); err == nil && isProtectedRel(filepath.ToSlash(rel)) {
			t.Fatalf("allowed %s of %q: %s is protected", what, given, p)
		}
	}
	if !inside(real, sb.ws) && (real != sb.ws || !strings.HasPrefix(what, "build")) {
		t.Fatalf("allowed %s of %q: resolves outside the workspace (%s)", what, given, real)
	}
	plans, err := filepath.EvalSymlinks(filepath.Join(sb.ws, "plans"))
	if err != nil {
		t.Fatal(err)
	}
	fi, statErr := os.Lstat(real)
	switch what {
	case "build":
	case "build-remove":
		if inside(state, real) || holdsProtected(sb, real) {
			t.Fatalf("allowed removal of %q, which holds something protected (%s)", given, real)
		}
	case "plan-file", "plan-file-content":
		if !strings.HasSuffix(given, ".plan") || !strings.HasSuffix(real, ".plan") {
			t.Fatalf("allowed %s of %q (resolved %s): not a .plan name on both ends", what, given, real)
		}
		// On Windows a ':' names a stream of another file (main.go:x.plan).
		if rel, err := filepath.Rel(sb.ws, real); err != nil || strings.Contains(rel, ":") {
			t.Fatalf("allowed %s of %q (resolved %s): a ':' below the workspace", what, given, real)
		}
		// On Windows such an element is a device, not a file (nul.plan).
		if rel, _ := filepath.Rel(sb.ws, real); oracleDevice.MatchString(rel) {
			t.Fatalf("allowed %s of %q (resolved %s): a Windows device name", what, given, real)
		}
		if statErr == nil && !fi.Mode().IsRegular() {
			t.Fatalf("allowed %s of %q: %s is a %v, not a file", what, given, real, fi.Mode().Type())
		}
		if statErr == nil && what == "plan-file-content" {
			if other := otherName(t, sb, real, fi); other != "" {
				t.Fatalf("allowed a write to %q, whose file is also %s", given, other)
			}
		}
	case "mkdir":
		if real != plans && !inside(real, plans) {
			t.Fatalf("allowed mkdir %q: %s is outside the plans folder %s", given, real, plans)
		}
	case "rm":
		if !inside(real, plans) {
			t.Fatalf("allowed rm %q: %s is not inside the plans folder %s", given, real, plans)
		}
		if statErr == nil && fi.IsDir() {
			if entries, err := os.ReadDir(real); err != nil || len(entries) > 0 {
				t.Fatalf("allowed rm %q: folder %s is not empty (%v)", given, real, err)
			}
		} else if !strings.HasSuffix(given, ".plan") || !strings.HasSuffix(real, ".plan") {
			t.Fatalf("allowed rm %q (resolved %s): neither an empty folder nor a .plan file", given, real)
		}
	default:
		t.Fatalf("oracle: unknown check %q", what)
	}
}

func mustOraclePath(t *testing.T, sb *sandbox, given string) string {
	t.Helper()
	p, err := oraclePath(sb, given)
	if err != nil {
		t.Fatalf("allowed %q, which is not a valid path: %v", given, err)
	}
	return p
}

// otherName finds another name of the same file in the sandbox (a hard link).
func otherName(t *testing.T, sb *sandbox, real string, fi os.FileInfo) string {
	t.Helper()
	found := ""
	_ = filepath.WalkDir(sb.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == real || d.Type()&fs.ModeSymlink != 0 || d.IsDir() {
			return nil
		}
		if other, err := os.Lstat(p); err == nil && os.SameFile(fi, other) {
			found = p
		}
		return nil
	})
	return found
}

// entry is one node of a sandbox snapshot.
type entry struct {
	typ  fs.FileMode
	data string // file content or symlink target
}

func snapshot(t *testing.T, dir string) map[string]entry {
	t.Helper()
	snap := map[string]entry{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		e := entry{typ: d.Type()}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			e.data, err = os.Readlink(p)
		case d.Type().IsRegular():
			var b []byte
			b, err = os.ReadFile(p)
			e.data = string(b)
		}
		snap[filepath.ToSlash(rel)] = e
		return err
	})
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return snap
}

// changed lists every path added, removed or changed between snapshots.
func changed(before, after map[string]entry) (added, removed, modified []string) {
	for p, a := range after {
		b, ok := before[p]
		switch {
		case !ok:
			added = append(added, p)
		case a != b:
			modified = append(modified, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			removed = append(removed, p)
		}
	}
	return added, removed, modified
}

// rootName is a caller's name as a name inside the sandbox for os.Root
// (unclean: os.Root follows its `..` physically); ok is false for a name
// outside the sandbox.
func rootName(sb *sandbox, given string) (string, bool) {
	p, err := oraclePath(sb, given)
	if err != nil || !strings.HasPrefix(p, sb.dir+"/") {
		return "", false
	}
	return p[len(sb.dir)+1:], true
}

// applyPhysically performs an allowed operation in the sandbox as a naive
// tool would, twice: once on the names as given (followed by the system) and
// once on the oracle's resolved names. Errors are ignored: the tree diff
// decides.
func applyPhysically(t *testing.T, sb *sandbox, op string, names ...string) {
	t.Helper()
	root, err := os.OpenRoot(sb.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for pass := 0; pass < 2; pass++ {
		var rel []string
		for _, n := range names {
			if pass == 1 {
				real, err := oracleResolve(sb, n)
				if err != nil {
					return
				}
				n = real
			}
			r, ok := rootName(sb, n)
			if !ok {
				return
			}
			rel = append(rel, r)
		}
		// Like an editor honouring a CreateFile, and like the disk applier,
		// a new file or a move's destination gets its missing parents.
		mkParents := func(name string) { _ = root.MkdirAll(filepath.Dir(name), 0o755) }
		switch op {
		case "write":
			mkParents(rel[0])
			_ = root.WriteFile(rel[0], []byte("fuzzed\n"), 0o644)
		case "edit":
			if _, err := root.Stat(rel[0]); err == nil {
				_ = root.WriteFile(rel[0], []byte("edited\n"), 0o644)
			}
		case "touch":
			mkParents(rel[0])
			if f, err := root.OpenFile(rel[0], os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				f.Close()
			}
		case "mv":
			mkParents(rel[1])
			_ = root.Rename(rel[0], rel[1])
		case "rm":
			_ = root.RemoveAll(rel[0])
		case "mkdir":
			_ = root.MkdirAll(rel[0], 0o755)
		default:
			t.Fatalf("applyPhysically: unknown op %q", op)
		}
	}
}

// checkTreeDiff asserts what may have changed in the sandbox after an
// allowed operation: in plan mode only .plan files in the workspace (write,
// edit, touch, mv, with new parent folders only at or below plans/, as
// mkdir), only new folders at or below plans/ (mkdir), only .plan
// files and empty folders removed below plans/ (rm); in any mode nothing
// protected (isProtectedRel).
func checkTreeDiff(t *testing.T, before, after map[string]entry, op string, planMode bool, what string) {
	t.Helper()
	added, removed, modified := changed(before, after)
	all := append(append(append([]string(nil), added...), removed...), modified...)
	for _, p := range all {
		if isProtectedRel(p) {
			t.Fatalf("%s changed something protected: %s", what, p)
		}
	}
	if !planMode {
		return
	}
	fail := func(p, why string) {
		t.Fatalf("%s (plan mode) changed %s: %s\nadded %v\nremoved %v\nmodified %v", what, p, why, added, removed, modified)
	}
	if op != "rm" {
		for _, p := range append(added, modified...) {
			if inHiddenFolder(p, after[p].typ.IsDir()) {
				fail(p, "in a hidden folder")
			}
		}
	}
	switch op {
	case "write", "edit", "touch", "mv":
		for _, p := range all {
			if e, ok := after[p]; ok && e.typ.IsDir() {
				// Only an implied parent folder, created where mkdir may.
				if _, existed := before[p]; existed || !strings.HasPrefix(p, "ws/plans/") && p != "ws/plans" || strings.HasSuffix(p, ".plan") {
					fail(p, "a folder plan mode may not create")
				}
				continue
			}
			if !strings.HasPrefix(p, "ws/") || !strings.HasSuffix(p, ".plan") {
				fail(p, "not a .plan file in the workspace")
			}
		}
	case "mkdir":
		if len(removed)+len(modified) > 0 {
			fail(strings.Join(append(removed, modified...), ", "), "mkdir removed or modified something")
		}
		for _, p := range added {
			if !strings.HasPrefix(p, "ws/plans/") && p != "ws/plans" || !after[p].typ.IsDir() {
				fail(p, "not a folder at or below plans/")
			}
		}
	case "rm":
		if len(added)+len(modified) > 0 {
			fail(strings.Join(append(added, modified...), ", "), "rm added or modified something")
		}
		for _, p := range removed {
			if !strings.HasPrefix(p, "ws/plans/") || !before[p].typ.IsDir() && !strings.HasSuffix(p, ".plan") {
				fail(p, "not a .plan file or folder below plans/")
			}
		}
	}
}
