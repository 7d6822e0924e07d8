package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkOwnFolders makes sure the store writes, prunes and removes only in
// folders of its own: .agentls/, .agentls/checkpoints/, its objects/ and
// the session's folder (sessionID; "" for none) must each be a real
// folder, or not exist yet (they are then created as real folders). A
// repository can ship anything under .agentls/, symbolic links included:
// through a linked objects/ a prune would remove the files of the folder
// it leads to, through a linked checkpoints/ the store would write there.
// Such a store takes no checkpoint and says why.
func (s *Store) checkOwnFolders(sessionID string) error {
	// .agentls/ and checkpoints/ hold the others: when one of them is
	// missing, so are they.
	for _, d := range []string{filepath.Dir(s.dir), s.dir} {
		ok, err := ownFolder(d)
		if err != nil || !ok {
			return err
		}
	}
	leaves := []string{filepath.Join(s.dir, "objects")}
	if sessionID != "" {
		leaves = append(leaves, filepath.Join(s.dir, sessionID))
	}
	for _, d := range leaves {
		if _, err := ownFolder(d); err != nil {
			return err
		}
	}
	return nil
}

// ownFolder reports whether d exists as a real folder; an error when it
// is a symbolic link or anything else.
func ownFolder(d string) (bool, error) {
	fi, err := os.Lstat(d)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("checkpoint: %w", err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return false, fmt.Errorf("checkpoint: %s is a symbolic link: agentls keeps its checkpoints only in a real folder of its own (remove the link)", d)
	}
	if !fi.IsDir() {
		return false, fmt.Errorf("checkpoint: %s is not a folder: agentls keeps its checkpoints only in a real folder of its own (remove it)", d)
	}
	return true, nil
}
