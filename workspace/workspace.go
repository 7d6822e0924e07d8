// Package workspace is everything agentls knows about the files the agent acts on:
// safe path resolution inside the workspace folders, the overlay of open editor
// buffers, the read-only operations (read, ls, glob, grep), the computation of
// changes for the mutating tools, and the on-disk formats of `.plan` and `.chat`
// files. It knows nothing about JSON-RPC or about plan mode.
package workspace

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
)

// Workspace is a set of folders (the editor's workspace folders). Relative paths
// are resolved against the first one, its root.
type Workspace struct {
	folders []string // absolute, cleaned, symlinks evaluated; folders[0] is the root
	overlay *Overlay
	// hidden are the paths walks skip (HideFromWalks).
	hidden atomic.Pointer[[]string]
}

// New returns a workspace over the given folders. Each folder must exist; its
// symlinks are evaluated once here so that every later containment check
// compares real paths.
func New(folders ...string) (*Workspace, error) {
	if len(folders) == 0 {
		return nil, errors.New("workspace: no folders")
	}
	w := &Workspace{overlay: newResolvingOverlay()}
	for _, f := range folders {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, fmt.Errorf("workspace folder %s: %w", f, err)
		}
		real, err := Canonical(abs)
		if err != nil {
			return nil, fmt.Errorf("workspace folder %s: %w", f, err)
		}
		if _, err := os.Stat(real); err != nil {
			return nil, fmt.Errorf("workspace folder %s: %w", f, err)
		}
		w.folders = append(w.folders, filepath.Clean(real))
	}
	return w, nil
}

// Root is the first workspace folder: relative paths are resolved against it.
func (w *Workspace) Root() string { return w.folders[0] }

// Folders lists the workspace folders (real, absolute paths).
func (w *Workspace) Folders() []string { return append([]string(nil), w.folders...) }

// Overlay is the set of open editor buffers, whose text wins over the disk.
func (w *Workspace) Overlay() *Overlay { return w.overlay }

// Path is a path that Resolve has proven to be inside a workspace folder.
type Path struct {
	// Abs is the real absolute path: cleaned, symlinks evaluated (the file
	// itself if it exists, else its deepest existing ancestor).
	Abs string
	// Rel is Abs relative to its workspace folder, with forward slashes.
	Rel string
	// Folder is the workspace folder that holds Abs.
	Folder string
	// Exists reports whether something exists at Abs (at resolution time).
	Exists bool
	// IsDir reports whether Abs is an existing directory.
	IsDir bool
}

// ErrOutside is wrapped by every Resolve error about a path that is not inside
// the workspace.
var ErrOutside = errors.New("path is outside the workspace")

// Resolve turns a path given by the model or the editor (workspace-relative,
// absolute, or a file:// URI) into a Path inside the workspace. It refuses
// empty paths, NUL bytes, paths that leave the workspace lexically (`../`) or
// through a symlink, and dangling symlinks (whose target cannot be checked).
func (w *Workspace) Resolve(p string) (Path, error) {
	if p == "" {
		return Path{}, errors.New("empty path")
	}
	if strings.ContainsRune(p, 0) {
		return Path{}, fmt.Errorf("path %q contains a NUL byte", p)
	}
	if strings.HasPrefix(p, "file://") {
		u, err := url.Parse(p)
		if err != nil || u.Host != "" && u.Host != "localhost" {
			return Path{}, fmt.Errorf("path %q: not a local file URI", p)
		}
		p = u.Path
		if p == "" || strings.ContainsRune(p, 0) {
			return Path{}, fmt.Errorf("path %q: bad file URI", p)
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(w.folders[0], p)
	}
	clean := filepath.Clean(p)
	if _, ok := w.folderOf(clean); !ok {
		// A lexical path outside may still be a workspace path reached through a
		// symlinked folder name (e.g. /tmp → /private/tmp); evaluate before refusing.
		if real, err := Canonical(clean); err != nil || !w.contains(real) {
			return Path{}, fmt.Errorf("%s: %w", p, ErrOutside)
		}
	}
	real, err := Canonical(clean)
	if err != nil {
		return Path{}, fmt.Errorf("resolve %s: %w", p, err)
	}
	folder, ok := w.folderOf(real)
	if !ok {
		return Path{}, fmt.Errorf("%s resolves to %s: %w", p, real, ErrOutside)
	}
	rel, err := filepath.Rel(folder, real)
	if err != nil {
		return Path{}, fmt.Errorf("resolve %s: %w", p, err)
	}
	out := Path{Abs: real, Rel: filepath.ToSlash(rel), Folder: folder}
	if fi, err := os.Stat(real); err == nil {
		out.Exists = true
		out.IsDir = fi.IsDir()
	}
	return out, nil
}

// MissingParents lists the folders that creating p (a file, a folder or a
// move's destination) would create along with it: the ancestors of p.Abs
// below its workspace folder that do not exist, outermost first. An editor
// honouring a CreateFile, and the disk applier, create them.
func (w *Workspace) MissingParents(p Path) []Path {
	var missing []Path
	for dir := filepath.Dir(p.Abs); dir != p.Folder && dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
			break
		}
		rel, err := filepath.Rel(p.Folder, dir)
		if err != nil {
			break
		}
		missing = append(missing, Path{Abs: dir, Rel: filepath.ToSlash(rel), Folder: p.Folder})
	}
	slices.Reverse(missing)
	return missing
}

// Key names p without ambiguity across the workspace's folders: Rel for a
// path of the first folder (the root), its absolute path (with '/') for
// one of another folder, whose Rel would resolve against the root. What
// is stored to name a file again later (a session's plan_file) is a Key;
// Resolve takes it back.
func (w *Workspace) Key(p Path) string {
	if p.Folder == w.folders[0] {
		return p.Rel
	}
	return filepath.ToSlash(p.Abs)
}

// RelOf returns the workspace-relative form (forward slashes) of an absolute
// path inside a workspace folder, or "" if it is outside.
func (w *Workspace) RelOf(abs string) string {
	folder, ok := w.folderOf(filepath.Clean(abs))
	if !ok {
		return ""
	}
	rel, err := filepath.Rel(folder, filepath.Clean(abs))
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

func (w *Workspace) contains(abs string) bool {
	_, ok := w.folderOf(abs)
	return ok
}

// folderOf returns the workspace folder that contains abs (a cleaned absolute path).
func (w *Workspace) folderOf(abs string) (string, bool) {
	for _, f := range w.folders {
		if abs == f || strings.HasPrefix(abs, f+string(filepath.Separator)) || f == string(filepath.Separator) {
			return f, true
		}
	}
	return "", false
}
