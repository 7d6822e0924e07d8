package sandbox

import (
	"os"
	"path/filepath"
	"slices"
)

// grantKind is the Landlock access one rule gives.
type grantKind int

const (
	// readTree: read, list and execute everything below the folder.
	readTree grantKind = iota
	// readFile: read and execute one file.
	readFile
	// listTree: list folders below (a folder above a denied one; bwrap
	// hides the denied folder's names).
	listTree
	// writeTree: read and write everything below the folder.
	writeTree
	// writeFile: read and write one file.
	writeFile
	// deviceFile: read, write and ioctl one device file.
	deviceFile
)

// Under Landlock alone the command gets the host's /dev, so only these
// devices of it (what bwrap's fresh /dev holds but for its own
// pseudo-terminals, docs/guard.md "What each layer gives"): not the
// user's terminals (/dev/pts: what the user types, and /dev/ptmx), nor
// sound, cameras, input, GPUs, security keys (hidraw) or KVM, which the
// user's login may open.
var (
	landlockDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}
	// landlockShm is POSIX shared memory and semaphores (Python's
	// multiprocessing locks): writable.
	landlockShm = "/dev/shm"
)

// grant is one Landlock rule.
type grant struct {
	path string
	kind grantKind
}

// grants are the Landlock rules of s: reads everywhere but the denied
// paths (and, without bwrap, /dev but landlockDevices), writes in the
// writable folders but neither their read-only nor their denied paths.
// Landlock only allows, so a folder holding an excluded path is not
// granted whole: each of its other entries is, down to the excluded path
// (carve).
func (s spec) grants() []grant {
	var out []grant
	// A path that does not exist has nothing to protect yet (and Landlock
	// cannot name it): it excludes nothing.
	deny := slices.DeleteFunc(slices.Clone(s.Deny), missing)
	readDeny := deny
	if !s.Bwrap { // the host's /dev: only landlockDevices and landlockShm
		readDeny = append(slices.Clone(deny), "/dev")
	}
	carve("/", readDeny, nil, &out, readTree, readFile, listTree)
	excluded := slices.DeleteFunc(append(slices.Clone(s.ReadOnly), deny...), missing)
	// A folder above a read-only path gets no rights of its own under
	// Landlock alone (they would reach the read-only path); under bwrap,
	// whose read-only mounts keep those paths unchanged, it gets them all.
	above := grantKind(-1)
	if s.Bwrap {
		above = writeTree
	}
	fixed := slices.DeleteFunc(slices.Clone(s.Fixed), missing)
	writeExcluded := excluded
	if !s.Bwrap { // nothing of /dev (a writable "/" included) but landlockShm's carve
		writeExcluded = append(slices.Clone(excluded), "/dev")
	}
	for _, w := range s.Writable {
		carve(w, writeExcluded, fixed, &out, writeTree, writeFile, above)
	}
	if !s.Bwrap {
		out = append(out, grant{"/dev", listTree})
		for _, d := range landlockDevices {
			out = append(out, grant{d, deviceFile})
		}
		// Shared memory as any other folder: readable but the denied
		// paths, writable but those and the read-only ones (a workspace
		// or TMPDIR kept there).
		carve(landlockShm, deny, nil, &out, readTree, readFile, listTree)
		carve(landlockShm, excluded, fixed, &out, writeTree, writeFile, above)
	}
	return out
}

// carve grants dir whole when no excluded path and no fixed folder is in
// it; else, unless dir itself is (or is in) an excluded path, it grants
// dir `above` (if ≥ 0, dir is not fixed — a fixed folder's own entries
// stay as they are — and no excluded path in dir is a symbolic link: a
// bind mount lands on the link's target, so only Landlock keeps the link
// itself from being removed and made anew) and each entry of dir in turn: files with `file`,
// folders by carving them. Symbolic links get nothing (access through one
// is checked on its target). A folder that cannot be listed gets nothing
// (fail closed).
func carve(dir string, excluded, fixed []string, out *[]grant, whole, file, above grantKind) {
	var inside, fixedIn []string
	for _, e := range excluded {
		if within(dir, e) {
			return
		}
		if within(e, dir) {
			inside = append(inside, e)
		}
	}
	for _, f := range fixed {
		if within(f, dir) {
			fixedIn = append(fixedIn, f)
		}
	}
	if len(inside) == 0 && len(fixedIn) == 0 {
		*out = append(*out, grant{dir, whole})
		return
	}
	if above >= 0 && !slices.Contains(fixedIn, dir) && !slices.ContainsFunc(inside, func(e string) bool { return filepath.Dir(e) == dir && isLink(e) }) {
		*out = append(*out, grant{dir, above})
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		child := filepath.Join(dir, e.Name())
		switch {
		case e.Type()&os.ModeSymlink != 0:
		case e.IsDir():
			carve(child, inside, fixedIn, out, whole, file, above)
		case e.Type().IsRegular() && !slices.Contains(inside, child):
			*out = append(*out, grant{child, file})
		}
	}
}

// isLink reports whether path is a symbolic link.
func isLink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}

// missing reports whether nothing is at path.
func missing(path string) bool {
	_, err := os.Lstat(path)
	return err != nil
}
