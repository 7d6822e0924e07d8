package workspace

import (
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// StaleTempAge is the age after which a temporary file of an atomic write
// is removed even if its owner cannot be told dead: no write takes minutes.
const StaleTempAge = 5 * time.Minute

// tempNameRe matches the temporary files of writeAtomic:
// .<name>.agentls-<pid>-<random>.tmp (and the older .<name>.agentls-<random>.tmp,
// which carries no pid).
var tempNameRe = regexp.MustCompile(`^\..+\.agentls-(?:(\d+)-)?\d+\.tmp$`)

// SweepTemps removes the temporary files that atomic writes left in dirs
// when a process was killed mid-write: those whose owning process is gone,
// and those older than StaleTempAge. Another live process's write in flight
// is never touched. It returns the paths removed.
func SweepTemps(dirs ...string) []string {
	var removed []string
	now := time.Now()
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				slog.Warn("sweep temporary files", "dir", dir, "err", err)
			}
			continue
		}
		for _, e := range entries {
			m := tempNameRe.FindStringSubmatch(e.Name())
			if m == nil || !e.Type().IsRegular() {
				continue
			}
			info, err := e.Info()
			if err != nil {
				continue
			}
			ownerGone := false
			if pid, err := strconv.Atoi(m[1]); err == nil && pid != os.Getpid() {
				ownerGone = !processAlive(pid)
			}
			if !ownerGone && now.Sub(info.ModTime()) < StaleTempAge {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if err := os.Remove(p); err != nil {
				slog.Warn("remove a leftover temporary file", "path", p, "err", err)
				continue
			}
			removed = append(removed, p)
		}
	}
	if len(removed) > 0 {
		slog.Info("removed temporary files left by an interrupted write", "files", removed)
	}
	return removed
}
